//! `action.yml`, the composite GitHub Action: its verify step's script runs
//! as GitHub runs it (bash, with the step's environment) on a real pull
//! request checkout, and its SARIF output is the log `verify` writes.

use std::path::Path;

use crate::common::{read, write, Env};
use crate::hooks::bin_dir;

/// The `run: |` script of the step with `id: <id>`.
fn step_script(action: &str, id: &str) -> String {
    let lines: Vec<&str> = action.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.trim() == format!("id: {id}"))
        .unwrap_or_else(|| panic!("no step `{id}` in action.yml"));
    let run = at
        + lines[at..]
            .iter()
            .position(|l| l.trim() == "run: |")
            .expect("a run block");
    let indent = lines[run + 1].len() - lines[run + 1].trim_start().len();
    lines[run + 1..]
        .iter()
        .take_while(|l| l.trim().is_empty() || l.len() - l.trim_start().len() >= indent)
        .map(|l| l.get(indent..).unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_verify_step_checks_the_pull_request_range_and_writes_sarif() {
    let action = read(Path::new(env!("CARGO_MANIFEST_DIR")).join("action.yml"));
    assert!(action.contains("using: composite"), "{action}");
    assert!(action.contains("cargo install --locked --path \"$GITHUB_ACTION_PATH\""));
    let script = step_script(&action, "verify");

    // A pull request: `feature` reopens a finished cycle (GT-001, line 3).
    let (env, repo) = Env::repo();
    write(repo.join("app.py"), "print(\"hi\")\n");
    env.run(&repo, &["install"]).success();
    env.commit_all(&repo, "install");
    let base = env.git(&repo, &["rev-parse", "HEAD"]).trim().to_string();
    env.git(&repo, &["checkout", "-q", "-b", "feature"]);
    let case = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/check/cases/GT-001-signed-off-cycle-reopened");
    write(
        repo.join(".standards/STATE.md"),
        read(case.join("head/.standards/STATE.md")),
    );
    env.commit_all(&repo, "sign off");
    write(
        repo.join(".standards/STATE.md"),
        read(case.join("tree/.standards/STATE.md")),
    );
    env.commit_all(&repo, "reopen");
    let head = env.git(&repo, &["rev-parse", "HEAD"]).trim().to_string();

    let output = env.dir.path().join("github_output");
    let run = |format: &str| {
        env.sealed("bash", &repo)
            .args(["-c", &script])
            .env(
                "PATH",
                format!(
                    "{}:{}",
                    bin_dir().display(),
                    std::env::var("PATH").unwrap_or_default()
                ),
            )
            .env("INTO", "refs/heads/main")
            .env("RANGE", "")
            .env("BASE_SHA", &base)
            .env("HEAD_SHA", &head)
            .env("FORMAT", format)
            .env("SARIF_FILE", "out.sarif")
            .env("GITHUB_OUTPUT", &output)
            .output()
            .unwrap()
    };
    let out = run("github");
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("::error file=.standards/STATE.md,line=3,title=GT-001"),
        "{text}"
    );
    assert!(text.contains("merge guard"), "{text}");

    let out = run("sarif");
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let log: serde_json::Value = serde_json::from_str(&read(repo.join("out.sarif"))).unwrap();
    assert_eq!(log["version"], "2.1.0");
    let results = log["runs"][0]["results"].as_array().unwrap();
    let ids: Vec<&str> = results
        .iter()
        .map(|r| r["ruleId"].as_str().unwrap())
        .collect();
    assert!(
        ids.contains(&"GT-001") && ids.contains(&"merge-guard"),
        "{ids:?}"
    );
    assert!(read(&output).contains("sarif-file=out.sarif"));
}
