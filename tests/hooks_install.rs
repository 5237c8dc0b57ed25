//! `git standards hooks install|uninstall|status` on real repositories.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use crate::common::{read, stderr, stdout, write, Env};
use crate::hooks::{git, said};

fn installed() -> (Env, PathBuf) {
    let (env, repo) = Env::repo();
    write(repo.join("app.py"), "print(\"hi\")\n");
    env.run(&repo, &["install"]).success();
    env.commit_all(&repo, "install");
    (env, repo)
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

#[test]
fn install_keeps_the_users_hook_running_and_uninstall_restores_it_byte_for_byte() {
    let (env, repo) = installed();
    let hook = repo.join(".git/hooks/pre-commit");
    let mine = "#!/bin/sh\n# my own hook\necho mine >> \"$(git rev-parse --git-dir)/mine.log\"\n[ ! -e stop ] \n";
    write(&hook, mine);
    std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o750)).unwrap();

    let a = env.run(&repo, &["hooks", "install"]).success();
    assert!(
        stderr(&a).contains("Kept your pre-commit hook"),
        "{}",
        stderr(&a)
    );
    assert_eq!(read(repo.join(".git/hooks/pre-commit.local")), mine);
    assert!(read(&hook).contains("# git-standards-hook: pre-commit sha256="));
    assert!(repo.join(".git/hooks/pre-merge-commit").exists());

    // Idempotent: a second run changes nothing.
    let before = read(&hook);
    env.run(&repo, &["hooks", "install"]).success();
    assert_eq!(read(&hook), before);
    assert_eq!(read(repo.join(".git/hooks/pre-commit.local")), mine);

    // The user's hook runs first; its failure stops the commit.
    write(repo.join("notes.md"), "# Notes\n");
    let out = git(&env, &repo, &["add", "-A"]);
    assert!(out.status.success());
    let out = git(&env, &repo, &["commit", "-q", "-m", "notes"]);
    assert!(out.status.success(), "{}", said(&out));
    assert_eq!(read(repo.join(".git/mine.log")), "mine\n");
    write(repo.join("stop"), "");
    write(repo.join("notes.md"), "# Notes 2\n");
    git(&env, &repo, &["add", "notes.md"]);
    let out = git(&env, &repo, &["commit", "-q", "-m", "stopped"]);
    assert!(!out.status.success(), "the user's hook refused");
    std::fs::remove_file(repo.join("stop")).unwrap();
    // And our check still runs after it.
    write(repo.join(".standards/MODE.md"), "`ProjectMode`: `HYBRID`\n");
    git(&env, &repo, &["add", "-A"]);
    let out = git(&env, &repo, &["commit", "-q", "-m", "broken"]);
    assert!(!out.status.success());
    assert!(said(&out).contains("RT-005"), "{}", said(&out));

    let a = env.run(&repo, &["hooks", "status"]).success();
    let shown = stdout(&a);
    assert!(
        shown.contains("pre-commit: installed, runs your pre-commit.local first"),
        "{shown}"
    );
    assert!(
        shown.contains("merge driver: configured (`git standards merge-driver %O %A %B %P`)"),
        "{shown}"
    );

    env.run(&repo, &["hooks", "uninstall"]).success();
    let a = env.run(&repo, &["log", "--json"]).success();
    let kinds: Vec<String> = stdout(&a)
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["event"]
                .as_str()
                .unwrap_or("")
                .to_string()
        })
        .filter(|k| k.starts_with("hooks-"))
        .collect();
    assert_eq!(
        kinds,
        ["hooks-installed", "hooks-uninstalled"],
        "one event per change, none for the idempotent run"
    );
    assert_eq!(read(&hook), mine);
    assert_eq!(mode(&hook), 0o750);
    assert!(!repo.join(".git/hooks/pre-commit.local").exists());
    assert!(!repo.join(".git/hooks/pre-merge-commit").exists());
    assert!(!repo.join(".gitattributes").exists());
    assert!(
        env.git_status(&repo, &["config", "--get", "merge.standards.driver"])
            .status
            .code()
            == Some(1)
    );
}

#[test]
fn merge_driver_lines_for_every_project_and_their_removal() {
    let (env, repo) = Env::repo();
    write(repo.join(".gitattributes"), "*.png binary\n");
    let app = repo.join("my app");
    write(app.join("main.py"), "x\n");
    std::fs::create_dir_all(app.join(".standards")).unwrap();
    env.run(&app, &["install"]).success();
    env.commit_all(&repo, "install in my app");
    env.run(&repo, &["hooks", "install", "--merge-driver"])
        .success();
    assert!(
        !repo.join(".git/hooks/pre-commit").exists(),
        "only the driver was asked for"
    );
    assert_eq!(
        read(app.join(".gitattributes")),
        ".standards/STATE.md merge=standards\n"
    );
    assert_eq!(
        read(repo.join(".gitattributes")),
        "*.png binary\n",
        "the top has no project"
    );
    // git itself sees the attribute.
    let attr = env.git(
        &repo,
        &["check-attr", "merge", "--", "my app/.standards/STATE.md"],
    );
    assert!(attr.contains("merge: standards"), "{attr}");
    assert_eq!(
        env.git(&repo, &["config", "--get", "merge.standards.driver"])
            .trim(),
        "git standards merge-driver %O %A %B %P"
    );
    env.run(&repo, &["hooks", "uninstall"]).success();
    assert!(!app.join(".gitattributes").exists());
    assert_eq!(read(repo.join(".gitattributes")), "*.png binary\n");
}

#[test]
fn another_hook_manager_gets_its_snippet_instead() {
    let (env, repo) = installed();
    write(repo.join(".pre-commit-config.yaml"), "repos: []\n");
    let a = env
        .run(&repo, &["hooks", "install", "--pre-commit"])
        .success();
    assert!(
        stderr(&a).contains("pre-commit manages this repository's hooks"),
        "{}",
        stderr(&a)
    );
    assert!(stdout(&a).contains("entry: git-standards check --staged"));
    assert!(!repo.join(".git/hooks/pre-commit").exists());
    std::fs::remove_file(repo.join(".pre-commit-config.yaml")).unwrap();
    write(repo.join("lefthook.yml"), "pre-commit: {}\n");
    let a = env
        .run(&repo, &["hooks", "install", "--pre-commit"])
        .success();
    assert!(
        stdout(&a).contains("run: git-standards check --staged"),
        "{}",
        stdout(&a)
    );
}

#[test]
fn core_hooks_path_and_linked_worktrees_share_one_hooks_folder() {
    let (env, repo) = installed();
    let wt = env.dir.path().join("linked");
    env.git(&repo, &["worktree", "add", "-q", wt.to_str().unwrap()]);
    env.run(&wt, &["hooks", "install", "--pre-commit"])
        .success();
    assert!(
        repo.join(".git/hooks/pre-commit").exists(),
        "the common hooks folder"
    );
    env.run(&wt, &["hooks", "uninstall"]).success();
    assert!(!repo.join(".git/hooks/pre-commit").exists());

    env.git(&repo, &["config", "core.hooksPath", "tools/hooks"]);
    env.run(&repo, &["hooks", "install", "--pre-push"])
        .success();
    assert!(read(repo.join("tools/hooks/pre-push")).contains("git-standards verify"));
    let a = env.run(&repo, &["hooks", "status"]).success();
    assert!(stdout(&a).contains("(core.hooksPath)"), "{}", stdout(&a));
    assert!(stdout(&a).contains("pre-push: installed"), "{}", stdout(&a));
}

#[test]
fn the_installed_reference_transaction_hook_refuses_a_fast_forward() {
    let (env, repo) = installed();
    env.run(&repo, &["hooks", "install", "--reference-transaction"])
        .success();
    git(&env, &repo, &["checkout", "-q", "-b", "feature"]);
    write(repo.join(".standards/CONTEXT.md"), "# Context\n");
    git(&env, &repo, &["add", "-A"]);
    assert!(git(&env, &repo, &["commit", "-q", "-m", "context"])
        .status
        .success());
    git(&env, &repo, &["checkout", "-q", "main"]);
    let out = git(&env, &repo, &["merge", "--ff-only", "-q", "feature"]);
    assert!(!out.status.success());
    assert!(
        said(&out).contains("may not merge into `main`"),
        "{}",
        said(&out)
    );
}

#[test]
fn the_installed_pre_push_hook_refuses_pushing_cycle_state_to_main() {
    let (env, repo) = installed();
    env.bare_origin(&repo);
    env.git(&repo, &["push", "-q", "origin", "main"]);
    env.run(&repo, &["hooks", "install", "--pre-push"])
        .success();
    git(&env, &repo, &["checkout", "-q", "-b", "feature"]);
    write(repo.join(".standards/CONTEXT.md"), "# Context\n");
    git(&env, &repo, &["add", "-A"]);
    assert!(git(
        &env,
        &repo,
        &["commit", "-q", "--no-verify", "-m", "context"]
    )
    .status
    .success());
    // A feature branch may carry its cycle to the remote.
    let out = git(&env, &repo, &["push", "-q", "origin", "feature"]);
    assert!(out.status.success(), "{}", said(&out));
    // Not into main.
    let out = git(&env, &repo, &["push", "-q", "origin", "feature:main"]);
    assert!(!out.status.success(), "{}", said(&out));
    assert!(
        said(&out).contains("may not merge into `main`"),
        "{}",
        said(&out)
    );
}

#[test]
fn an_install_killed_at_any_step_completes_on_the_next_run_and_uninstall_restores_the_users_hook() {
    for point in git_standards::commands::hooks::FAILPOINTS {
        let (env, repo) = installed();
        let hook = repo.join(".git/hooks/pre-commit");
        let mine = "#!/bin/sh\necho mine\n";
        write(&hook, mine);
        std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755)).unwrap();
        let out = env
            .cmd(&repo)
            .args(["hooks", "install"])
            .env("GIT_STANDARDS_FAILPOINT", point)
            .output()
            .unwrap();
        assert!(!out.status.success(), "{point} was not reached");
        env.run(&repo, &["hooks", "install"]).success();
        assert_eq!(
            read(repo.join(".git/hooks/pre-commit.local")),
            mine,
            "{point}"
        );
        env.run(&repo, &["hooks", "uninstall"]).success();
        assert_eq!(read(&hook), mine, "{point}");
        assert!(
            !repo.join(".git/hooks/pre-commit.local").exists(),
            "{point}"
        );
        assert!(!repo.join(".gitattributes").exists(), "{point}");
    }
}

#[test]
fn with_the_installed_driver_divergent_state_edits_conflict_instead_of_combining() {
    let (env, repo) = installed();
    env.run(&repo, &["hooks", "install", "--merge-driver"])
        .success();
    env.commit_all(&repo, "merge STATE.md as one value");
    let state = read(repo.join(".standards/STATE.md"));
    env.git(&repo, &["checkout", "-q", "-b", "side"]);
    let asked = crate::common::set_field(&state, "PendingCycleBlockedOn", "Which database?");
    write(
        repo.join(".standards/STATE.md"),
        crate::common::set_field(&asked, "PendingCycleRequest", "Add storage"),
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
    let out = git(
        &env,
        &repo,
        &["merge", "--no-ff", "-q", "-m", "merge", "side"],
    );
    assert!(
        !out.status.success(),
        "the driver makes it a conflict: {}",
        said(&out)
    );
    let merged = read(repo.join(".standards/STATE.md"));
    assert!(merged.starts_with("<<<<<<< ours: "), "{merged}");
}

/// Issue 25, `--json` on every command: `hooks install --json`, its refusal
/// (a foreign hook with its `.local` taken) and `hooks uninstall --json` are
/// each one JSON object on stdout, with the text form's exit codes.
#[test]
fn json_reports_the_install_the_refusal_and_the_uninstall() {
    let parse = |a: &assert_cmd::assert::Assert| -> serde_json::Value {
        serde_json::from_str(&stdout(a)).unwrap_or_else(|e| panic!("{e}: {}", stdout(a)))
    };
    let (env, repo) = installed();
    let v = parse(&env.run(&repo, &["hooks", "install", "--json"]).success());
    assert_eq!(v["ok"], true, "{v}");
    assert_eq!(v["command"], "hooks install");
    assert!(v["snippet"].is_null(), "{v}");
    let messages = v["messages"].as_array().unwrap();
    assert!(
        messages.iter().any(|m| m
            .as_str()
            .unwrap()
            .starts_with("Installed the pre-commit hook")),
        "{v}"
    );
    assert!(read(repo.join(".git/hooks/pre-commit")).contains("# git-standards-hook: pre-commit"));

    let v = parse(&env.run(&repo, &["hooks", "uninstall", "--json"]).success());
    assert_eq!(v["ok"], true, "{v}");
    assert_eq!(v["command"], "hooks uninstall");
    assert!(
        v["messages"]
            .as_array()
            .unwrap()
            .contains(&serde_json::json!("Removed the pre-commit hook.")),
        "{v}"
    );
    assert!(!repo.join(".git/hooks/pre-commit").exists());

    write(repo.join(".git/hooks/pre-commit"), "#!/bin/sh\nexit 0\n");
    write(
        repo.join(".git/hooks/pre-commit.local"),
        "#!/bin/sh\nexit 0\n",
    );
    let text = env.run(&repo, &["hooks", "install"]).code(1);
    let v = parse(&env.run(&repo, &["hooks", "install", "--json"]).code(1));
    assert_eq!(v["ok"], false);
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("cannot install the pre-commit hook"),
        "{v}"
    );
    assert!(stderr(&text).contains("cannot install the pre-commit hook"));
    assert!(v["hint"].is_string(), "{v}");
    assert_eq!(
        read(repo.join(".git/hooks/pre-commit")),
        "#!/bin/sh\nexit 0\n"
    );
}

/// Issue 24: the merge driver is written to git's config under git's own
/// `config.lock` (`gix::lock`), as `git config` takes it. While another
/// process holds the lock, `hooks install` refuses and leaves git's config
/// and the other writer's lock as they are (the hook files it wrote first
/// stay: the command is idempotent); run again once the lock is gone, it
/// registers the driver, and `git config` (the witness) reads it and can
/// write next to it.
#[test]
fn the_merge_driver_waits_for_gits_config_lock() {
    let (env, repo) = installed();
    let config = repo.join(".git/config");
    let before = std::fs::read(&config).unwrap();
    std::fs::write(repo.join(".git/config.lock"), "held by git").unwrap();
    let a = env.run(&repo, &["hooks", "install"]).code(1);
    let err = stderr(&a);
    assert!(
        err.contains("config.lock` exists, so another git process is changing it"),
        "{err}"
    );
    assert_eq!(
        std::fs::read(&config).unwrap(),
        before,
        "the config is untouched"
    );
    assert_eq!(
        std::fs::read_to_string(repo.join(".git/config.lock")).unwrap(),
        "held by git",
        "another process's lock is never taken over"
    );
    std::fs::remove_file(repo.join(".git/config.lock")).unwrap();
    env.run(&repo, &["hooks", "install"]).success();
    assert!(!repo.join(".git/config.lock").exists());
    assert_eq!(
        env.git(&repo, &["config", "merge.standards.driver"]).trim(),
        "git standards merge-driver %O %A %B %P"
    );
    env.git(&repo, &["config", "user.mood", "fine"]);
    assert_eq!(
        env.git(&repo, &["config", "merge.standards.driver"]).trim(),
        "git standards merge-driver %O %A %B %P"
    );
}
