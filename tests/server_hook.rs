//! The server side of the merge guard (issue 22): `git standards hooks
//! install` in a bare "origin" installs the pre-receive hook, and pushes that
//! skipped every client hook (`git push --no-verify`) are judged there.

use std::path::{Path, PathBuf};

use crate::common::{read, set_field, stderr, stdout, write, Env};
use crate::hooks::{git, said};
use crate::merge_guard::signed_off;

/// A client clone `repo` (brownfield install on `main`) pushing to a bare
/// `origin.git` whose pre-receive hook `hooks install` wrote.
pub(crate) fn origin() -> (Env, PathBuf, PathBuf) {
    let (env, repo) = Env::repo();
    write(repo.join("app.py"), "print(\"hi\")\n");
    env.run(&repo, &["install"]).success();
    env.commit_all(&repo, "install");
    let bare = env.dir.path().join("origin.git");
    env.git(
        env.dir.path(),
        &["init", "-q", "--bare", "-b", "main", "origin.git"],
    );
    env.git(&repo, &["remote", "add", "origin", bare.to_str().unwrap()]);
    env.git(&repo, &["push", "-q", "origin", "main"]);
    let a = env.run(&bare, &["hooks", "install"]).success();
    assert!(
        stderr(&a).contains("installed the server's pre-receive hook"),
        "{}",
        stderr(&a)
    );
    (env, repo, bare)
}

/// `feature`: the fixtures' finished cycle, signed off (`check` passes on
/// it). The work is committed before the sign-off, which commits STATE.md
/// alone (SO-001 holds the commit that records a sign-off to that).
fn unreset_feature(env: &Env, repo: &Path) {
    env.git(repo, &["checkout", "-q", "-b", "feature"]);
    write(repo.join("app.py"), "print(\"login\")\n");
    env.commit_all(repo, "login");
    let state = read(repo.join(".standards/STATE.md"));
    write(repo.join(".standards/STATE.md"), signed_off(&state));
    env.commit_all(repo, "signed off");
}

fn tip(env: &Env, dir: &Path, rev: &str) -> String {
    env.git(dir, &["rev-parse", rev]).trim().to_string()
}

pub(crate) fn push(env: &Env, repo: &Path, args: &[&str]) -> std::process::Output {
    let mut all = vec!["push", "--no-verify", "origin"];
    all.extend_from_slice(args);
    git(env, repo, &all)
}

#[test]
fn a_no_verify_push_of_an_unreset_branch_into_main_is_refused_by_the_server() {
    let (env, repo, bare) = origin();
    let before = tip(&env, &bare, "main");
    unreset_feature(&env, &repo);
    let out = push(&env, &repo, &["feature:main"]);
    let text = said(&out);
    assert!(!out.status.success(), "{text}");
    assert!(text.contains("pre-receive hook declined"), "{text}");
    // Read from the pushed objects, which git keeps in quarantine.
    assert!(
        text.contains("remote: git-standards: refs/heads/main (")
            && text.contains("): refused")
            && text.contains(
                "cycle `add-search-20261003T120000Z-1234abcd` is finished (`SIGNED_OFF`)"
            ),
        "{text}"
    );
    assert!(
        text.contains("remote: git-standards:   hint: on the branch you pushed run `git standards reset --yes --commit`, then push to `main` again"),
        "{text}"
    );
    assert_eq!(tip(&env, &bare, "main"), before, "main must not move");

    // The same branch is welcome as a feature branch (a new branch)...
    let out = push(&env, &repo, &["feature"]);
    assert!(out.status.success(), "{}", said(&out));
    assert!(
        said(&out).contains("refs/heads/feature (new, at "),
        "{}",
        said(&out)
    );
    // ...and in main once reset: a fast-forward push.
    let a = env.run(&repo, &["reset", "--commit", "--yes"]);
    assert!(a.get_output().status.success(), "{}", stderr(&a));
    let out = push(&env, &repo, &["feature:main"]);
    let text = said(&out);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("merge guard passed"), "{text}");
    assert_eq!(tip(&env, &bare, "main"), tip(&env, &repo, "feature"));
}

#[test]
fn an_active_cycle_pushed_to_a_feature_branch_and_force_pushed_is_accepted() {
    let (env, repo, bare) = origin();
    env.git(&repo, &["checkout", "-q", "-b", "search"]);
    env.run(&repo, &["start", "--request", "Add search"])
        .success();
    env.commit_all(&repo, "start search");
    let out = push(&env, &repo, &["search"]);
    assert!(out.status.success(), "{}", said(&out));
    // A rewritten branch: a force push is verified from where both tips meet.
    write(repo.join("app.py"), "print(\"search\")\n");
    env.git(&repo, &["add", "-A"]);
    env.git(
        &repo,
        &["commit", "-q", "--amend", "-m", "start search, again"],
    );
    let out = push(&env, &repo, &["--force", "search"]);
    assert!(out.status.success(), "{}", said(&out));
    assert!(said(&out).contains("(forced update)"), "{}", said(&out));
    assert_eq!(tip(&env, &bare, "search"), tip(&env, &repo, "search"));
    // The active cycle may not land on main, forced or not.
    let out = push(&env, &repo, &["--force", "search:main"]);
    assert!(!out.status.success(), "{}", said(&out));
    assert!(said(&out).contains("is active in"), "{}", said(&out));
}

#[test]
fn a_pushed_config_toml_that_renames_the_main_branch_is_ignored() {
    let (env, repo, bare) = origin();
    unreset_feature(&env, &repo);
    write(
        repo.join(".standards/config.toml"),
        "main-branch = \"trunk\"\n",
    );
    env.commit_all(&repo, "main is trunk now");
    let out = push(&env, &repo, &["feature:main"]);
    let text = said(&out);
    assert!(!out.status.success(), "{text}");
    assert!(text.contains("may not merge into `main`"), "{text}");
    // The server's own policy does count: git config on the server.
    env.git(&bare, &["config", "standards.mainBranch", "trunk"]);
    let out = push(&env, &repo, &["feature:main"]);
    assert!(out.status.success(), "{}", said(&out));
}

#[test]
fn a_commit_that_fails_verify_is_refused_on_any_branch() {
    let (env, repo, _bare) = origin();
    env.git(&repo, &["checkout", "-q", "-b", "broken"]);
    let state = read(repo.join(".standards/STATE.md"));
    write(
        repo.join(".standards/STATE.md"),
        set_field(&state, "WorkflowState", "NOT_A_STATE"),
    );
    env.commit_all(&repo, "break the state");
    let out = push(&env, &repo, &["broken"]);
    let text = said(&out);
    assert!(!out.status.success(), "{text}");
    assert!(
        text.contains("remote: git-standards: refs/heads/broken (new, at "),
        "{text}"
    );
    assert!(
        text.contains("break the state: .standards/STATE.md"),
        "{text}"
    );
    // The hinted command runs as written in the pusher's clone and shows
    // the same problem.
    let hinted = text
        .split("hint: see every problem with `")
        .nth(1)
        .and_then(|rest| rest.split('`').next())
        .unwrap_or_else(|| panic!("{text}"));
    let words: Vec<&str> = hinted.split_whitespace().skip(1).collect();
    assert_eq!(&words[..2], ["standards", "verify"], "{hinted}");
    let out = git(&env, &repo, &words);
    assert_eq!(out.status.code(), Some(1), "{}", said(&out));
    assert!(
        said(&out).contains("break the state: 1 problem"),
        "{}",
        said(&out)
    );
}

#[test]
fn tags_and_deletions_pass_and_the_update_hook_judges_one_ref() {
    let (env, repo, bare) = origin();
    unreset_feature(&env, &repo);
    let out = push(&env, &repo, &["feature"]);
    assert!(out.status.success(), "{}", said(&out));
    env.git(&repo, &["tag", "v1"]);
    let out = push(&env, &repo, &["v1"]);
    assert!(
        said(&out).contains("refs/tags/v1: accepted (not a branch)"),
        "{}",
        said(&out)
    );

    // `hook update <ref> <old> <new>`, as a server with per-ref hooks runs it.
    let (old, new) = (tip(&env, &bare, "main"), tip(&env, &bare, "feature"));
    let a = env
        .run(
            &bare,
            &["hook", "update", "refs/heads/main", &old, &new, "--json"],
        )
        .code(1);
    let v: serde_json::Value = serde_json::from_str(&stdout(&a)).unwrap();
    assert_eq!(v["ok"], false);
    assert_eq!(v["mainBranch"], "main");
    assert_eq!(v["refs"][0]["guarded"], true);
    assert!(v["refs"][0]["guard"][0]["message"]
        .as_str()
        .unwrap()
        .contains("may not merge into `main`"));
    let a = env
        .run(&bare, &["hook", "update", "refs/heads/other", &old, &new])
        .success();
    assert!(
        stderr(&a).contains("git-standards: refs/heads/other ("),
        "{}",
        stderr(&a)
    );
    // Bad input is a usage error naming it, never an internal error.
    let a = env
        .run(&bare, &["hook", "update", "main", &old, &new])
        .code(2);
    assert!(stderr(&a).contains("not a full ref name"), "{}", stderr(&a));

    let out = push(&env, &repo, &["--delete", "feature"]);
    assert!(
        said(&out).contains("refs/heads/feature: accepted (deleted)"),
        "{}",
        said(&out)
    );
}

#[test]
fn hooks_status_and_uninstall_work_in_the_bare_repository() {
    let (env, repo, bare) = origin();
    let a = env.run(&bare, &["hooks", "status"]).success();
    let out = stdout(&a);
    assert!(out.contains("pre-receive: installed"), "{out}");
    assert!(out.contains("main branch: main"), "{out}");
    let a = env.run(&bare, &["hooks", "install"]).success();
    assert!(stderr(&a).contains("already installed"), "{}", stderr(&a));
    env.run(&bare, &["hooks", "uninstall"]).success();
    assert!(!bare.join("hooks/pre-receive").exists());
    // Without the hook the server takes anything: the hook was the guard.
    unreset_feature(&env, &repo);
    let out = push(&env, &repo, &["feature:main"]);
    assert!(out.status.success(), "{}", said(&out));
}

/// A server that runs only per-ref hooks: git's own `update` hook calling
/// `git standards hook update "$@"` refuses the same push.
#[test]
fn the_update_hook_refuses_an_unreset_branch_under_git() {
    let (env, repo, bare) = origin();
    env.run(&bare, &["hooks", "uninstall"]).success();
    write(
        bare.join("hooks/update"),
        "#!/bin/sh\nexec git-standards hook update \"$@\"\n",
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(
            bare.join("hooks/update"),
            std::fs::Permissions::from_mode(0o755),
        )
        .unwrap();
    }
    let before = tip(&env, &bare, "main");
    unreset_feature(&env, &repo);
    let out = push(&env, &repo, &["feature:main", "feature"]);
    let text = said(&out);
    assert!(!out.status.success(), "{text}");
    assert!(text.contains("feature -> main (hook declined)"), "{text}");
    assert!(text.contains("may not merge into `main`"), "{text}");
    assert_eq!(tip(&env, &bare, "main"), before);
    // The other ref of the same push is judged on its own and lands.
    assert!(
        text.contains("* [new branch]      feature -> feature"),
        "{text}"
    );
}

/// A merge made locally without hooks (`git merge --no-ff --no-verify`) and
/// pushed: the merge commit brings the cycle state, and the server refuses it.
#[test]
fn a_local_merge_of_an_unreset_branch_pushed_to_main_is_refused() {
    let (env, repo, bare) = origin();
    let before = tip(&env, &bare, "main");
    unreset_feature(&env, &repo);
    env.git(&repo, &["checkout", "-q", "main"]);
    write(repo.join("README.txt"), "main moves on\n");
    env.commit_all(&repo, "main moves on");
    env.git(
        &repo,
        &[
            "merge",
            "-q",
            "--no-ff",
            "--no-verify",
            "-m",
            "merge feature",
            "feature",
        ],
    );
    let out = push(&env, &repo, &["main"]);
    let text = said(&out);
    assert!(!out.status.success(), "{text}");
    assert!(text.contains("may not merge into `main`"), "{text}");
    assert_eq!(tip(&env, &bare, "main"), before);
}
