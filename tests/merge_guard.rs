//! The merge guard (D23) on real repositories: the command, the
//! pre-merge-commit hook, the opt-in reference-transaction hook, and
//! `.standards/config.toml`.

use std::path::{Path, PathBuf};

use crate::common::{read, set_field, stderr, write, Env};
use crate::hooks::{git, said};

/// STATE.md holding the fixtures' finished cycle
/// `add-search-20261003T120000Z-1234abcd`, signed off (`check` passes on it).
pub(crate) fn signed_off(_installed: &str) -> String {
    read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/check/cases/GT-001-signed-off-cycle-reopened/head/.standards/STATE.md"),
    )
}

fn copy_hook(repo: &Path, name: &str) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("git-hooks")
        .join(name);
    let target = repo.join(".git/hooks").join(name);
    std::fs::create_dir_all(target.parent().unwrap()).unwrap();
    std::fs::copy(src, target).unwrap();
}

fn ok(out: &std::process::Output) {
    assert!(out.status.success(), "{}", said(out));
}

/// A brownfield install on main, and a branch `feature` whose last commit
/// finishes cycle `c-1` with a scope record.
fn unreset_feature() -> (Env, PathBuf) {
    let (env, repo) = Env::repo();
    write(repo.join("app.py"), "print(\"hi\")\n");
    env.run(&repo, &["install"]).success();
    env.commit_all(&repo, "install");
    env.git(&repo, &["checkout", "-q", "-b", "feature"]);
    let state = read(repo.join(".standards/STATE.md"));
    write(repo.join(".standards/STATE.md"), signed_off(&state));
    write(repo.join("app.py"), "print(\"login\")\n");
    env.commit_all(&repo, "login, signed off");
    env.git(&repo, &["checkout", "-q", "main"]);
    write(repo.join("README.txt"), "main moves on\n");
    env.commit_all(&repo, "main moves on");
    (env, repo)
}

/// Resets `feature` as the release manager does: `git standards reset --yes --commit`
/// on the branch (D23: then it may merge).
fn reset_feature(env: &Env, repo: &Path) {
    env.git(repo, &["checkout", "-q", "feature"]);
    let a = env.run(repo, &["reset", "--commit", "--yes"]);
    assert!(a.get_output().status.success(), "{}", stderr(&a));
    let message = env.git(repo, &["log", "-1", "--format=%B"]);
    assert!(message.contains("Standards-Reset:"), "{message}");
    env.git(repo, &["checkout", "-q", "main"]);
}

#[test]
fn the_command_refuses_an_unreset_branch_naming_cycle_state_and_command() {
    let (env, repo) = unreset_feature();
    env.git(&repo, &["checkout", "-q", "feature"]);
    write(repo.join(".standards/docs/scope/c-1.md"), "# Login\n");
    env.commit_all(&repo, "a record");
    env.git(&repo, &["checkout", "-q", "main"]);
    let a = env.run(&repo, &["merge-guard", "feature", "--into", "main"]);
    let a = a.code(1);
    let err = stderr(&a);
    assert!(err.contains("`feature` may not merge into `main`"), "{err}");
    assert!(
        err.contains("cycle `add-search-20261003T120000Z-1234abcd` is finished (`SIGNED_OFF`)"),
        "{err}"
    );
    assert!(
        err.contains("cycle records under .standards/docs/"),
        "{err}"
    );
    assert!(
        err.contains("hint: run on `feature`: `git standards reset --yes --commit`"),
        "{err}"
    );
    // The refusal is in the audit trail, on the cycle.
    let a = env
        .run(&repo, &["log", "--json", "--event", "merge-refused"])
        .success();
    let events: Vec<serde_json::Value> = crate::common::stdout(&a)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(events[0]["target"], "main");
    assert_eq!(events[0]["branch"], "feature");
    assert_eq!(events[0]["cycle"], "add-search-20261003T120000Z-1234abcd");
    // Into a branch that is not guarded, anything goes.
    env.git(&repo, &["branch", "topic"]);
    env.run(&repo, &["merge-guard", "feature", "--into", "topic"])
        .success();
    env.git(&repo, &["checkout", "-q", "feature"]);
    env.git(&repo, &["rm", "-q", "-r", ".standards/docs"]);
    env.commit_all(&repo, "drop the record");
    env.git(&repo, &["checkout", "-q", "main"]);
    reset_feature(&env, &repo);
    env.run(&repo, &["merge-guard", "feature"]).success();
}

#[test]
fn an_active_cycle_must_be_signed_off_or_cancelled_first() {
    let (env, repo) = unreset_feature();
    env.git(&repo, &["checkout", "-q", "feature"]);
    let state = read(repo.join(".standards/STATE.md"));
    let mut active = set_field(&state, "WorkflowState", "DEVELOPING");
    active = set_field(&active, "CycleMode", "STANDARD");
    write(repo.join(".standards/STATE.md"), active);
    env.commit_all(&repo, "reopen");
    env.git(&repo, &["checkout", "-q", "main"]);
    let a = env.run(&repo, &["merge-guard", "feature"]).code(1);
    let err = stderr(&a);
    assert!(
        err.contains("cycle `add-search-20261003T120000Z-1234abcd` is active in `DEVELOPING`"),
        "{err}"
    );
    assert!(
        err.contains("the user signs it off (`git standards signoff --reply \"<the user's reply>\"`, from AWAITING_USER_SIGNOFF) or cancels it (`git standards cancel`) first; then run on `feature`: `git standards reset --yes --commit`"),
        "{err}"
    );
}

#[test]
fn a_no_ff_merge_of_an_unreset_branch_is_refused_by_the_hook_and_accepted_after_reset() {
    let (env, repo) = unreset_feature();
    copy_hook(&repo, "pre-commit");
    copy_hook(&repo, "pre-merge-commit");
    let out = git(
        &env,
        &repo,
        &["merge", "--no-ff", "-q", "-m", "merge", "feature"],
    );
    assert!(!out.status.success(), "the hook must refuse the merge");
    assert!(
        said(&out).contains("`feature` may not merge into `main`"),
        "{}",
        said(&out)
    );
    assert!(
        !repo.join(".git/MERGE_HEAD").exists() || {
            ok(&git(&env, &repo, &["merge", "--abort"]));
            true
        }
    );
    assert_eq!(
        env.git(&repo, &["log", "-1", "--format=%s", "main"]).trim(),
        "main moves on"
    );
    reset_feature(&env, &repo);
    let out = git(
        &env,
        &repo,
        &["merge", "--no-ff", "-q", "-m", "merge", "feature"],
    );
    ok(&out);
    assert!(!repo.join(".standards/docs").exists());
}

#[test]
fn merging_main_into_a_feature_branch_is_not_guarded() {
    let (env, repo) = unreset_feature();
    copy_hook(&repo, "pre-commit");
    copy_hook(&repo, "pre-merge-commit");
    env.git(&repo, &["checkout", "-q", "feature"]);
    ok(&git(
        &env,
        &repo,
        &["merge", "--no-ff", "-q", "-m", "sync", "main"],
    ));
}

#[test]
fn a_fast_forward_of_an_unreset_branch_is_refused_by_the_reference_transaction_hook() {
    let (env, repo) = Env::repo();
    write(repo.join("app.py"), "print(\"hi\")\n");
    env.run(&repo, &["install"]).success();
    env.commit_all(&repo, "install");
    copy_hook(&repo, "reference-transaction");
    // Commits on a branch that is not guarded go through.
    ok(&git(&env, &repo, &["checkout", "-q", "-b", "feature"]));
    let state = read(repo.join(".standards/STATE.md"));
    write(repo.join(".standards/STATE.md"), signed_off(&state));
    ok(&git(&env, &repo, &["add", "-A"]));
    ok(&git(&env, &repo, &["commit", "-q", "-m", "signed off"]));
    ok(&git(&env, &repo, &["checkout", "-q", "main"]));
    let before = env.git(&repo, &["rev-parse", "main"]);
    let out = git(&env, &repo, &["merge", "--ff-only", "-q", "feature"]);
    assert!(!out.status.success(), "the fast-forward must be refused");
    assert!(
        said(&out).contains("may not merge into `main`"),
        "{}",
        said(&out)
    );
    assert_eq!(env.git(&repo, &["rev-parse", "main"]), before);
    // `git update-ref` and `git branch -f` are refused too.
    let out = git(&env, &repo, &["branch", "-f", "main", "feature"]);
    assert!(!out.status.success());
    assert_eq!(env.git(&repo, &["rev-parse", "main"]), before);
}

#[test]
fn a_target_without_standards_offers_reset_and_uninstall() {
    let (env, repo) = Env::repo();
    write(repo.join("app.py"), "print(\"hi\")\n");
    env.commit_all(&repo, "app");
    env.git(&repo, &["checkout", "-q", "-b", "feature"]);
    env.run(&repo, &["install"]).success();
    env.commit_all(&repo, "install");
    // A fresh installation may reach a main branch without STANDARDS.
    env.run(&repo, &["merge-guard", "feature", "--into", "main"])
        .success();
    let state = read(repo.join(".standards/STATE.md"));
    write(repo.join(".standards/STATE.md"), signed_off(&state));
    env.commit_all(&repo, "cycle");
    let a = env
        .run(&repo, &["merge-guard", "feature", "--into", "main"])
        .code(1);
    let err = stderr(&a);
    assert!(
        err.contains(
            "either `git standards reset --yes --commit` or `git standards uninstall --yes`"
        ),
        "{err}"
    );
    // Issue 25, item 6: the hinted uninstall runs as written where the guard
    // prints it (no terminal), and after its removal is committed the merge
    // is accepted.
    env.git(&repo, &["checkout", "-q", "feature"]);
    env.run(&repo, &["uninstall", "--yes"]).success();
    env.git(&repo, &["add", "-A"]);
    env.git(&repo, &["commit", "-q", "-m", "uninstall"]);
    env.git(&repo, &["checkout", "-q", "main"]);
    env.run(&repo, &["merge-guard", "feature", "--into", "main"])
        .success();
}

#[test]
fn config_toml_and_git_config_choose_the_main_branch() {
    let (env, repo) = unreset_feature();
    write(
        repo.join(".standards/config.toml"),
        "main-branch = \"trunk\"\n",
    );
    env.commit_all(&repo, "trunk is main");
    // `main` is no longer guarded; `trunk` is (and does not exist yet: no STANDARDS there).
    env.run(&repo, &["merge-guard", "feature", "--into", "main"])
        .success();
    let a = env
        .run(&repo, &["merge-guard", "feature", "--into", "trunk"])
        .code(1);
    assert!(stderr(&a).contains("may not merge into `trunk`"));
    // Git config overrides the file for this clone.
    env.git(&repo, &["config", "standards.mainBranch", "main"]);
    env.run(&repo, &["merge-guard", "feature", "--into", "main"])
        .code(1);
    env.git(&repo, &["config", "--unset", "standards.mainBranch"]);
    // Protected branches are guarded like main.
    write(
        repo.join(".standards/config.toml"),
        "main-branch = \"trunk\"\nprotected-branches = [\"release/*\"]\n",
    );
    env.run(&repo, &["merge-guard", "feature", "--into", "release/1.0"])
        .code(1);
    env.run(&repo, &["merge-guard", "feature", "--into", "releases"])
        .success();
    // An unknown key is an error naming the file, the line and the key.
    write(
        repo.join(".standards/config.toml"),
        "main-branch = \"trunk\"\nmain_branch = \"x\"\n",
    );
    let a = env
        .run(&repo, &["merge-guard", "feature", "--into", "main"])
        .code(1);
    assert!(
        stderr(&a).contains(".standards/config.toml:2: `main_branch`: unknown field"),
        "{}",
        stderr(&a)
    );
}

/// Issue 24: protected-branch patterns follow git's own wildmatch, the
/// rules of `.gitignore` and pathspecs: `**` as a whole part spans any
/// number of parts (none included), any other `**` stays within one part,
/// and `[...]` is a character class. The file's patterns and git config's
/// (`git config --add standards.protectedBranches`, one clone) agree.
#[test]
fn protected_branch_patterns_follow_git_wildmatch() {
    let (env, repo) = unreset_feature();
    let guarded = |branch: &str| {
        let out = env.run(&repo, &["merge-guard", "feature", "--into", branch]);
        let code = out.get_output().status.code();
        assert!(matches!(code, Some(0 | 1)), "{branch}: {code:?}");
        assert!(!stderr(&out).contains("config.toml"), "{}", stderr(&out));
        code == Some(1)
    };
    write(
        repo.join(".standards/config.toml"),
        "protected-branches = [\"release/[0-9]*\", \"**/hotfix\", \"lts/**/stable\", \"team**\"]\n",
    );
    assert!(guarded("release/2.1"));
    assert!(
        !guarded("release/next"),
        "a class matches one character of it"
    );
    assert!(guarded("hotfix"), "`**/` also matches no part at all");
    assert!(guarded("eu/web/hotfix"));
    assert!(guarded("lts/stable") && guarded("lts/2/x/stable"));
    assert!(guarded("teamA"));
    assert!(!guarded("team/a"), "a `**` inside a part is a `*`");
    // git config replaces the file's list for this clone, same rules.
    env.git(
        &repo,
        &["config", "standards.protectedBranches", "v[[:digit:]]*"],
    );
    assert!(guarded("v2") && !guarded("vx") && !guarded("release/2.1"));
}

/// Issue 25, `--json` on every command: the guard's refusal is the usual
/// `{"ok": false, "error", "hint"}` object (exit 1) with the hint's command
/// as text prints it, and an accepted merge is `{"ok": true, ...}` naming
/// why, even with --quiet.
#[test]
fn json_reports_the_refusal_and_the_accepted_merge() {
    let (env, repo) = unreset_feature();
    let guard = ["merge-guard", "feature", "--into", "main", "--json"];
    let a = env.run(&repo, &guard).code(1);
    let v: serde_json::Value =
        serde_json::from_str(&crate::common::stdout(&a)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(v["ok"], false, "{v:#}");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("`feature` may not merge into `main`"),
        "{v:#}"
    );
    assert!(
        v["hint"]
            .as_str()
            .unwrap()
            .contains("`git standards reset --yes --commit`"),
        "{v:#}"
    );
    reset_feature(&env, &repo);
    for args in [&guard[..], &[&guard[..], &["--quiet"]].concat()] {
        let a = env.run(&repo, args).success();
        let v: serde_json::Value =
            serde_json::from_str(&crate::common::stdout(&a)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(v["ok"], true, "{v:#}");
        assert_eq!(v["target"], "main", "{v:#}");
        assert!(
            v["merges"][0]
                .as_str()
                .unwrap()
                .contains("`feature` may merge into `main`"),
            "{v:#}"
        );
        assert!(stderr(&a).is_empty(), "{}", stderr(&a));
    }
}
