//! The scripts in `git-hooks/` guard real `git commit` and `git merge` runs.

use std::path::{Path, PathBuf};

use crate::common::{read, write, Env};

pub(crate) fn bin_dir() -> PathBuf {
    Path::new(assert_cmd::cargo::cargo_bin!("git-standards"))
        .parent()
        .unwrap()
        .to_path_buf()
}

pub(crate) fn install_hooks(repo: &Path) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("git-hooks");
    for name in ["pre-commit", "pre-merge-commit"] {
        let target = repo.join(".git/hooks").join(name);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::copy(src.join(name), &target).unwrap();
    }
}

/// Runs git with the binary's folder on PATH, so the hooks find `git-standards`.
pub(crate) fn git(env: &Env, repo: &Path, args: &[&str]) -> std::process::Output {
    git_with_first_on_path(env, repo, &bin_dir(), args)
}

/// Runs git in `repo` with `env`'s sealed environment and `first` at the
/// head of PATH (where the hooks look for `git-standards`).
pub(crate) fn git_with_first_on_path(
    env: &Env,
    repo: &Path,
    first: &Path,
    args: &[&str],
) -> std::process::Output {
    let path = format!(
        "{}:{}",
        first.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    env.sealed("git", repo)
        .env("PATH", path)
        .args(args)
        .output()
        .unwrap()
}

/// What a git run printed; git sends a hook's stdout to its stderr.
pub(crate) fn said(out: &std::process::Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn brownfield_with_hooks() -> (Env, PathBuf) {
    let (env, repo) = Env::repo();
    write(repo.join("app.py"), "print(\"hi\")\n");
    env.run(&repo, &["install"]).success();
    env.commit_all(&repo, "install");
    install_hooks(&repo);
    (env, repo)
}

#[test]
fn pre_commit_refuses_a_broken_staged_state_and_accepts_a_good_one() {
    let (env, repo) = brownfield_with_hooks();
    write(repo.join(".standards/MODE.md"), "`ProjectMode`: `HYBRID`\n");
    env.git(&repo, &["add", "-A"]);
    let out = git(&env, &repo, &["commit", "-q", "-m", "break the mode"]);
    assert!(!out.status.success(), "the hook must refuse the commit");
    assert!(said(&out).contains("RT-005"), "{}", said(&out));

    write(
        repo.join(".standards/MODE.md"),
        "# S.T.A.N.D.A.R.D.S. Project Mode\n\n`ProjectMode`: `BROWNFIELD`\n",
    );
    env.git(&repo, &["add", "-A"]);
    let out = git(
        &env,
        &repo,
        &["commit", "-q", "--allow-empty", "-m", "fine"],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn pre_commit_reads_the_temporary_index_of_commit_a() {
    let (env, repo) = brownfield_with_hooks();
    // Only the working tree is broken; `commit -a` stages it into a temporary index.
    write(repo.join(".standards/MODE.md"), "`ProjectMode`: `HYBRID`\n");
    let out = git(&env, &repo, &["commit", "-q", "-a", "-m", "commit -a"]);
    assert!(
        !out.status.success(),
        "the temporary index of commit -a is checked"
    );
    // A clean working-tree edit elsewhere passes with commit -a.
    env.git(&repo, &["checkout", "--", ".standards/MODE.md"]);
    write(repo.join("app.py"), "print(\"hello\")\n");
    let out = git(&env, &repo, &["commit", "-q", "-a", "-m", "edit"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn concluding_a_conflicted_merge_is_refused_while_state_keeps_markers() {
    let (env, repo) = brownfield_with_hooks();
    let state = read(repo.join(".standards/STATE.md"));
    let with =
        |blocked: &str| state.replace("`BlockedOn`: `NONE`", &format!("`BlockedOn`: `{blocked}`"));
    env.git(&repo, &["checkout", "-q", "-b", "side"]);
    write(repo.join(".standards/STATE.md"), with("Side question"));
    assert!(git(&env, &repo, &["commit", "-q", "-am", "side"])
        .status
        .success());
    env.git(&repo, &["checkout", "-q", "main"]);
    write(repo.join(".standards/STATE.md"), with("Main question"));
    assert!(git(&env, &repo, &["commit", "-q", "-am", "main"])
        .status
        .success());
    assert!(
        !git(&env, &repo, &["merge", "-q", "side"]).status.success(),
        "conflict expected"
    );
    // `git add` clears the unmerged stages but not the markers; the hook still refuses.
    env.git(&repo, &["add", "-A"]);
    let out = git(&env, &repo, &["commit", "-q", "--no-edit"]);
    assert!(!out.status.success());
    assert!(said(&out).contains("RT-004"), "{}", said(&out));
}

#[test]
fn hooks_do_nothing_without_a_runtime() {
    let (env, repo) = Env::repo();
    install_hooks(&repo);
    write(repo.join("notes.txt"), "x\n");
    env.git(&repo, &["add", "-A"]);
    let out = git(&env, &repo, &["commit", "-q", "-m", "no runtime"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn pre_commit_checks_a_project_installed_in_a_subfolder() {
    let (env, repo) = Env::repo();
    let app = repo.join("app");
    write(app.join("main.py"), "print(\"hi\")\n");
    // D1: a project lives in a subfolder once that folder holds `.standards/`.
    std::fs::create_dir_all(app.join(".standards")).unwrap();
    env.run(&app, &["install"]).success();
    assert!(!repo.join(".standards").exists());
    env.commit_all(&repo, "install into app/");
    install_hooks(&repo);
    write(app.join(".standards/MODE.md"), "`ProjectMode`: `HYBRID`\n");
    env.git(&repo, &["add", "-A"]);
    let out = git(
        &env,
        &repo,
        &["commit", "-q", "-m", "break the sub-project"],
    );
    assert!(!out.status.success(), "the sub-project is checked");
    assert!(said(&out).contains("RT-005"), "{}", said(&out));
}

#[test]
fn pre_commit_checks_a_project_folder_whose_name_has_a_space() {
    let (env, repo) = Env::repo();
    let app = repo.join("my app");
    write(app.join("main.py"), "print(\"hi\")\n");
    std::fs::create_dir_all(app.join(".standards")).unwrap();
    env.run(&app, &["install"]).success();
    let other = repo.join("tools/ünï");
    write(other.join("x.py"), "x = 1\n");
    std::fs::create_dir_all(other.join(".standards")).unwrap();
    env.run(&other, &["install"]).success();
    env.commit_all(&repo, "two projects");
    install_hooks(&repo);
    write(app.join(".standards/MODE.md"), "`ProjectMode`: `HYBRID`\n");
    env.git(&repo, &["add", "-A"]);
    let out = git(&env, &repo, &["commit", "-q", "-m", "break my app"]);
    assert!(!out.status.success(), "the project in `my app` is checked");
    assert!(said(&out).contains("RT-005"), "{}", said(&out));
    env.git(&repo, &["checkout", "-q", "HEAD", "--", "my app"]);
    write(
        other.join(".standards/MODE.md"),
        "`ProjectMode`: `HYBRID`\n",
    );
    env.git(&repo, &["add", "-A"]);
    let out = git(&env, &repo, &["commit", "-q", "-m", "break the other"]);
    assert!(
        !out.status.success(),
        "the project in a non-ASCII folder is checked"
    );
    assert!(said(&out).contains("RT-005"), "{}", said(&out));
}

#[test]
fn pre_commit_is_silent_and_skips_the_binary_when_nothing_relevant_is_staged() {
    let (env, repo) = brownfield_with_hooks();
    write(repo.join("app.py"), "print(\"changed\")\n");
    env.git(&repo, &["add", "-A"]);
    // `env.git` runs without the binary on PATH: the hook would fail if it
    // went past its fast path.
    let out = env.git_status(&repo, &["commit", "-q", "-m", "code only"]);
    assert!(out.status.success(), "{}", said(&out));
    assert_eq!(said(&out), "");
    // A Markdown file anywhere takes the full check (and, without the binary, fails).
    write(repo.join("docs/guide.md"), "# Guide\n");
    env.git(&repo, &["add", "-A"]);
    let out = env.git_status(&repo, &["commit", "-q", "-m", "docs"]);
    assert!(!out.status.success());
    assert!(said(&out).contains("not on PATH"), "{}", said(&out));
}

#[test]
fn a_refused_commit_or_merge_leaves_a_check_failed_event_naming_the_hook() {
    let (env, repo) = brownfield_with_hooks();
    write(repo.join(".standards/MODE.md"), "`ProjectMode`: `HYBRID`\n");
    env.git(&repo, &["add", "-A"]);
    let out = git(&env, &repo, &["commit", "-q", "-m", "break the mode"]);
    assert!(!out.status.success());
    let a = env
        .run(&repo, &["log", "--json", "--event", "check-failed"])
        .success();
    let events: Vec<serde_json::Value> = crate::common::stdout(&a)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(events[0]["hook"], "pre-commit");
    assert_eq!(events[0]["source"].as_str().unwrap(), "the index");
    assert!(events[0]["rules"]
        .as_array()
        .unwrap()
        .contains(&"RT-005".into()));

    // A clean merge that brings the broken mode is refused by pre-merge-commit.
    env.git(&repo, &["checkout", "-q", "-b", "side"]);
    env.git(
        &repo,
        &[
            "commit",
            "-q",
            "--no-verify",
            "-m",
            "broken on a side branch",
        ],
    );
    env.git(&repo, &["checkout", "-q", "main"]);
    write(repo.join("other.txt"), "x\n");
    env.git(&repo, &["add", "other.txt"]);
    assert!(git(&env, &repo, &["commit", "-q", "-m", "other"])
        .status
        .success());
    let out = git(
        &env,
        &repo,
        &["merge", "-q", "--no-ff", "-m", "merge", "side"],
    );
    assert!(!out.status.success(), "{}", said(&out));
    let a = env
        .run(&repo, &["log", "--json", "--event", "check-failed"])
        .success();
    let hooks: Vec<String> = crate::common::stdout(&a)
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["hook"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(hooks, ["pre-commit", "pre-merge-commit"]);
}

/// Issue 25, `--json` on every command: `hooks status --json` carries each
/// line of the text output as an item, so a script sees the hook installed
/// by `hooks install`; outside a repository it is the usual error object.
#[test]
fn hooks_status_json_lists_each_line_as_an_item() {
    let (env, repo) = crate::common::Env::repo();
    let items = |env: &crate::common::Env| -> Vec<(String, String)> {
        let a = env.run(&repo, &["hooks", "status", "--json"]).success();
        let v: serde_json::Value = serde_json::from_str(&crate::common::stdout(&a)).unwrap();
        assert_eq!(v["ok"], true, "{v:#}");
        v["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| {
                (
                    i["name"].as_str().unwrap().to_string(),
                    i["state"].as_str().unwrap_or("").to_string(),
                )
            })
            .collect()
    };
    let text = crate::common::stdout(&env.run(&repo, &["hooks", "status"]).success());
    let before = items(&env);
    assert_eq!(before.len(), text.lines().count(), "{text}");
    assert!(
        before.contains(&("pre-commit".into(), "not installed".into())),
        "{before:?}"
    );
    env.run(&repo, &["hooks", "install"]).success();
    let after = items(&env);
    assert!(
        after.contains(&("pre-commit".into(), "installed".into())),
        "{after:?}"
    );
    let outside = env.dir.path().join("not-a-repo");
    std::fs::create_dir_all(&outside).unwrap();
    let a = env.run(&outside, &["hooks", "status", "--json"]).failure();
    let v: serde_json::Value = serde_json::from_str(&crate::common::stdout(&a)).unwrap();
    assert_eq!(v["ok"], false, "{v:#}");
}
