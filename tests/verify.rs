//! `git standards verify` over commit ranges and merges, on real repositories.

use std::path::{Path, PathBuf};

use crate::common::{stderr, stdout, write, Env};

const CASE: &str = "fixtures/check/cases/GT-001-signed-off-cycle-reopened";

fn fixture(side: &str) -> String {
    crate::common::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(CASE)
            .join(side)
            .join(".standards/STATE.md"),
    )
}

/// main: a brownfield install. feature: 1 code, 2 sign-off state, 3 the
/// finished cycle reopened (GT-001), 4 code again.
fn reopening_branch() -> (Env, PathBuf, Vec<String>) {
    let (env, repo) = Env::repo();
    write(repo.join("app.py"), "print(\"hi\")\n");
    env.run(&repo, &["install"]).success();
    env.commit_all(&repo, "install");
    env.git(&repo, &["checkout", "-q", "-b", "feature"]);
    let mut ids = Vec::new();
    let mut commit = |msg: &str| {
        env.commit_all(&repo, msg);
        ids.push(
            env.git(&repo, &["rev-parse", "--short=7", "HEAD"])
                .trim()
                .to_string(),
        );
    };
    write(repo.join("app.py"), "print(\"search\")\n");
    commit("add search");
    write(repo.join(".standards/STATE.md"), fixture("head"));
    commit("sign off search");
    write(repo.join(".standards/STATE.md"), fixture("tree"));
    commit("reopen search");
    write(repo.join("app.py"), "print(\"search 2\")\n");
    commit("more code");
    (env, repo, ids)
}

#[test]
fn the_commit_that_reopens_a_finished_cycle_is_reported_exactly() {
    let (env, repo, ids) = reopening_branch();
    let a = env.run(&repo, &["verify"]).code(1);
    let out = stdout(&a);
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].starts_with(&format!("{} add search: pass", ids[0])),
        "{out}"
    );
    assert!(
        lines[1].starts_with(&format!("{} sign off search: pass", ids[1])),
        "{out}"
    );
    assert!(
        lines[2].starts_with(&format!("{} reopen search: 1 problem", ids[2])),
        "{out}"
    );
    assert!(lines[3].contains("[GT-001]"), "{out}");
    assert!(
        lines[4].starts_with(&format!("{} more code: pass", ids[3])),
        "{out}"
    );
    assert_eq!(out.matches("GT-001").count(), 1, "{out}");
    assert!(
        out.contains("verify failed: 1 of 4 commits with problems"),
        "{out}"
    );

    // Up to the sign-off the range is clean.
    let a = env
        .run(&repo, &["verify", &format!("main..{}", ids[1])])
        .success();
    assert!(stdout(&a).contains("verify passed: 2 commits checked"));
}

#[test]
fn github_format_prints_an_error_annotation_for_that_commit_and_a_step_summary() {
    let (env, repo, ids) = reopening_branch();
    let summary = env.dir.path().join("summary.md");
    let mut cmd = env.cmd(&repo);
    cmd.args(["verify"])
        .env("GITHUB_ACTIONS", "true")
        .env("GITHUB_STEP_SUMMARY", &summary);
    let out = cmd.output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    let errors: Vec<&str> = text.lines().filter(|l| l.starts_with("::error ")).collect();
    assert_eq!(errors.len(), 1, "{text}");
    assert!(
        errors[0].starts_with(&format!(
            "::error file=.standards/STATE.md,line=3,title=GT-001 at {} reopen search::",
            ids[2]
        )),
        "{text}"
    );
    let table = crate::common::read(&summary);
    assert!(table.contains("| Commit | Subject | Verdict |"), "{table}");
    assert!(
        table.contains(&format!("| `{}` | reopen search | **GT-001**", ids[2])),
        "{table}"
    );
}

#[test]
fn json_and_gitlab_reports() {
    let (env, repo, ids) = reopening_branch();
    let a = env.run(&repo, &["verify", "--format", "json"]).code(1);
    let v: serde_json::Value = serde_json::from_str(&stdout(&a)).unwrap();
    assert_eq!(v["ok"], false);
    assert_eq!(v["mainBranch"], "main");
    assert_eq!(v["summary"]["commits"], 4);
    assert_eq!(v["summary"]["failed"], 1);
    assert!(v["commits"][2]["id"].as_str().unwrap().starts_with(&ids[2]));
    assert_eq!(v["commits"][2]["problems"][0]["rule"], "GT-001");
    // Commit 4 changed only code after commit 3's content: commit 3 had a
    // different parent content, so commit 4 is checked on its own.
    assert_eq!(v["commits"][3]["ok"], true);

    let a = env.run(&repo, &["verify", "--format", "gitlab"]).code(1);
    let issues: serde_json::Value = serde_json::from_str(&stdout(&a)).unwrap();
    let issues = issues.as_array().unwrap();
    assert_eq!(issues.len(), 1);
    assert_eq!(issues[0]["check_name"], "GT-001");
    assert_eq!(issues[0]["location"]["path"], ".standards/STATE.md");
    let again = env.run(&repo, &["verify", "--format", "gitlab"]).code(1);
    let again: serde_json::Value = serde_json::from_str(&stdout(&again)).unwrap();
    assert_eq!(again[0]["fingerprint"], issues[0]["fingerprint"]);
}

#[test]
fn unchanged_commits_reuse_the_verdict() {
    let (env, repo, _) = reopening_branch();
    for i in 0..3 {
        write(repo.join("app.py"), format!("print({i})\n"));
        env.commit_all(&repo, &format!("code {i}"));
    }
    let a = env.run(&repo, &["verify", "--format", "json"]).code(1);
    let v: serde_json::Value = serde_json::from_str(&stdout(&a)).unwrap();
    // Commits 5-7 have the same content and parent content as commit 4.
    let four = v["commits"][3]["id"].clone();
    for i in 4..7 {
        assert_eq!(v["commits"][i]["reusedFrom"], four, "{i}");
    }
    assert_eq!(v["summary"]["reused"], 3);
}

#[test]
fn a_shallow_clone_is_refused_with_the_fix() {
    let (env, repo, _) = reopening_branch();
    // The clone's origin/HEAD (a source of the main branch's name) is main.
    env.git(&repo, &["checkout", "-q", "main"]);
    let clone = env.dir.path().join("shallow");
    let url = format!("file://{}", repo.display());
    env.git(
        env.dir.path(),
        &[
            "clone",
            "-q",
            "--depth",
            "2",
            "--no-single-branch",
            "--branch",
            "feature",
            &url,
            "shallow",
        ],
    );
    let a = env.run(&clone, &["verify"]).code(1);
    let err = stderr(&a);
    assert!(err.contains("shallow clone"), "{err}");
    assert!(
        err.contains("fetch-depth: 0") && err.contains("git fetch --deepen"),
        "{err}"
    );
    assert!(!stdout(&a).contains("passed"));
    // An explicit range that reaches the boundary is refused too.
    let a = env.run(&clone, &["verify", "HEAD~1..HEAD"]).success();
    assert!(stdout(&a).contains("1 commit checked"));
    env.run(&clone, &["verify", "HEAD~3..HEAD"]).code(1);
}

#[test]
fn into_checks_the_merge_guard_and_divergent_state() {
    let (env, repo, _) = reopening_branch();
    let a = env.run(&repo, &["verify", "main~0..main", "--into", "main"]);
    // An empty range checks the tip alone; main merged into itself is fine.
    a.success();
    let a = env.run(&repo, &["verify", "--into", "main"]).code(1);
    let out = stdout(&a);
    assert!(out.contains("merge guard:"), "{out}");
    assert!(out.contains("may not merge into `main`"), "{out}");

    // D24: two branches editing different STATE.md lines merge silently in
    // git, and verify --into reports it.
    let (env, repo) = Env::repo();
    write(repo.join("app.py"), "x\n");
    env.run(&repo, &["install"]).success();
    env.commit_all(&repo, "install");
    let state = crate::common::read(repo.join(".standards/STATE.md"));
    env.git(&repo, &["checkout", "-q", "-b", "side"]);
    write(
        repo.join(".standards/STATE.md"),
        crate::common::set_field(&state, "PendingCycleBlockedOn", "Which database?"),
    );
    let s = crate::common::read(repo.join(".standards/STATE.md"));
    write(
        repo.join(".standards/STATE.md"),
        crate::common::set_field(&s, "PendingCycleRequest", "Add storage"),
    );
    env.commit_all(&repo, "side asks");
    env.git(&repo, &["checkout", "-q", "main"]);
    write(
        repo.join(".standards/STATE.md"),
        state.replace(
            "`Reason`:\n`Initial brownfield",
            "`Reason`:\n`Still initial brownfield",
        ),
    );
    env.commit_all(&repo, "main edits");
    env.git(&repo, &["checkout", "-q", "side"]);
    let a = env
        .run(&repo, &["verify", "--into", "main", "--format", "json"])
        .code(1);
    let v: serde_json::Value = serde_json::from_str(&stdout(&a)).unwrap();
    assert!(
        v["into"]["stateConflict"]
            .as_str()
            .unwrap()
            .contains("both branches changed STATE.md"),
        "{v}"
    );
    assert_eq!(
        v["into"]["conflicts"].as_array().unwrap().len(),
        0,
        "git merges it silently"
    );
}

#[test]
fn every_project_of_the_repository_is_verified_from_the_top() {
    let (env, repo) = Env::repo();
    for dir in ["my app", "svc"] {
        let p = repo.join(dir);
        write(p.join("main.py"), "x\n");
        std::fs::create_dir_all(p.join(".standards")).unwrap();
        env.run(&p, &["install"]).success();
    }
    env.commit_all(&repo, "two projects");
    env.git(&repo, &["checkout", "-q", "-b", "feature"]);
    write(repo.join("svc/.standards/STATE.md"), fixture("head"));
    env.commit_all(&repo, "sign off in svc");
    write(repo.join("svc/.standards/STATE.md"), fixture("tree"));
    env.commit_all(&repo, "reopen in svc");
    let a = env.run(&repo, &["verify", "--format", "json"]).code(1);
    let v: serde_json::Value = serde_json::from_str(&stdout(&a)).unwrap();
    assert_eq!(v["projects"], serde_json::json!(["my app", "svc"]));
    assert_eq!(v["commits"][0]["ok"], true);
    assert_eq!(
        v["commits"][1]["problems"][0]["file"],
        "svc/.standards/STATE.md"
    );
    assert_eq!(v["commits"][1]["problems"][0]["rule"], "GT-001");
    // -C names one project.
    let a = env.run(&repo.join("my app"), &["verify"]).success();
    assert!(
        stdout(&a).contains("verify passed: 2 commits checked"),
        "{}",
        stdout(&a)
    );
}

#[test]
fn a_range_whose_start_is_merged_in_from_the_side_follows_git_semantics() {
    let (env, repo, _) = reopening_branch();
    // main gains a commit, and feature merges main: main's tip is the merge's
    // second parent, not on feature's first-parent line.
    env.git(&repo, &["checkout", "-q", "main"]);
    write(repo.join("README.txt"), "main\n");
    env.commit_all(&repo, "main moves");
    env.git(&repo, &["checkout", "-q", "feature"]);
    env.git(
        &repo,
        &["merge", "-q", "--no-ff", "-m", "sync main", "main"],
    );
    let a = env
        .run(&repo, &["verify", "main..feature", "--format", "json"])
        .code(1);
    let v: serde_json::Value = serde_json::from_str(&stdout(&a)).unwrap();
    let subjects: Vec<&str> = v["commits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["subject"].as_str().unwrap())
        .collect();
    assert_eq!(
        subjects,
        [
            "add search",
            "sign off search",
            "reopen search",
            "more code",
            "sync main"
        ]
    );
}

#[test]
fn into_a_branch_known_only_as_origin_main_in_a_ci_clone() {
    let (env, repo, _) = reopening_branch();
    env.git(&repo, &["checkout", "-q", "main"]);
    let url = format!("file://{}", repo.display());
    env.git(
        env.dir.path(),
        &["clone", "-q", "--branch", "feature", &url, "ci"],
    );
    let ci = env.dir.path().join("ci");
    let a = env.run(&ci, &["verify", "--into", "main"]).code(1);
    let out = stdout(&a);
    assert!(out.contains("may not merge into `main`"), "{out}");
    // origin/main holds STANDARDS, so reset is the only way out offered.
    assert!(out.contains("git standards reset --yes --commit"), "{out}");
    assert!(!out.contains("uninstall"), "{out}");
}

/// GT-001 names `WorkflowState` on line 3 of the reopened STATE.md: GitHub
/// annotations, GitLab Code Quality and SARIF point at line 3, not line 1.
#[test]
fn reports_carry_the_problem_s_real_line() {
    let (env, repo, ids) = reopening_branch();
    let line_of_state = fixture("tree")
        .lines()
        .position(|l| l.starts_with("`WorkflowState`"))
        .unwrap()
        + 1;
    assert_eq!(line_of_state, 3);

    let a = env.run(&repo, &["verify", "--format", "github"]).code(1);
    let text = stdout(&a);
    assert!(
        text.contains(&format!(
            "::error file=.standards/STATE.md,line=3,title=GT-001 at {} reopen search::",
            ids[2]
        )),
        "{text}"
    );

    let a = env.run(&repo, &["verify", "--format", "gitlab"]).code(1);
    let issues: serde_json::Value = serde_json::from_str(&stdout(&a)).unwrap();
    assert_eq!(issues[0]["location"]["lines"]["begin"], 3, "{issues}");

    let a = env.run(&repo, &["verify", "--format", "json"]).code(1);
    let v: serde_json::Value = serde_json::from_str(&stdout(&a)).unwrap();
    assert_eq!(v["commits"][2]["problems"][0]["line"], 3, "{v}");

    let a = env.run(&repo, &["verify", "--format", "sarif"]).code(1);
    let log: serde_json::Value = serde_json::from_str(&stdout(&a)).unwrap();
    assert_eq!(log["version"], "2.1.0");
    let results = log["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 1, "{log}");
    assert_eq!(results[0]["ruleId"], "GT-001");
    let at = &results[0]["locations"][0]["physicalLocation"];
    assert_eq!(at["artifactLocation"]["uri"], ".standards/STATE.md");
    assert_eq!(at["region"]["startLine"], 3);
    assert_eq!(log["runs"][0]["tool"]["driver"]["rules"][0]["id"], "GT-001");
}
