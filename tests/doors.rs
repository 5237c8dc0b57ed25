//! Issue 22: nothing unreset reaches the main branch, whatever local path the
//! merge takes. Real `git` drives every door with the hooks `git standards
//! hooks install` writes by default; each test names the path it closes (or
//! keeps open).

use std::path::{Path, PathBuf};

use crate::common::{read, stderr, write, Env};
use crate::hooks::{git, said};
use crate::merge_guard::signed_off;

fn ok(out: &std::process::Output) {
    assert!(out.status.success(), "{}", said(out));
}

fn refused(out: &std::process::Output, what: &str) -> String {
    assert!(
        !out.status.success(),
        "{what} must be refused:\n{}",
        said(out)
    );
    let text = said(out);
    assert!(
        text.contains("may not merge into `main`"),
        "{what}:\n{text}"
    );
    text
}

fn tip(env: &Env, repo: &Path, rev: &str) -> String {
    env.git(repo, &["rev-parse", rev]).trim().to_string()
}

/// A brownfield install on `main` with the default hooks installed and
/// committed; `git-standards` is on PATH for git runs through [`git`].
fn installed() -> (Env, PathBuf) {
    let (env, repo) = Env::repo();
    write(repo.join("app.py"), "print(\"hi\")\n");
    env.run(&repo, &["install"]).success();
    env.run(&repo, &["hooks", "install"]).success();
    ok(&git(&env, &repo, &["add", "-A"]));
    ok(&git(&env, &repo, &["commit", "-q", "-m", "install"]));
    (env, repo)
}

/// `feature` finishes a cycle (signed off) on top of `main`; `main` then
/// moves on when `diverge`.
fn unreset_feature(env: &Env, repo: &Path, diverge: bool) {
    ok(&git(env, repo, &["checkout", "-q", "-b", "feature"]));
    let state = read(repo.join(".standards/STATE.md"));
    write(repo.join(".standards/STATE.md"), signed_off(&state));
    write(repo.join("app.py"), "print(\"login\")\n");
    ok(&git(env, repo, &["add", "-A"]));
    ok(&git(
        env,
        repo,
        &["commit", "-q", "-m", "login, signed off"],
    ));
    ok(&git(env, repo, &["checkout", "-q", "main"]));
    if diverge {
        write(repo.join("README.txt"), "main moves on\n");
        ok(&git(env, repo, &["add", "-A"]));
        ok(&git(env, repo, &["commit", "-q", "-m", "main moves on"]));
    }
}

/// The hint line of a refusal.
fn hint(text: &str) -> String {
    text.lines()
        .find_map(|l| l.split_once("hint: ").map(|(_, h)| h.to_string()))
        .unwrap_or_else(|| panic!("no hint in:\n{text}"))
}

/// Item 1: git's own advice after a refused merge, `git commit --no-edit`,
/// is refused too; the hint starts with `git merge --abort`, which works.
#[test]
fn a_refused_merge_concluded_with_git_commit_is_refused() {
    let (env, repo) = installed();
    unreset_feature(&env, &repo, true);
    let before = tip(&env, &repo, "main");
    let out = git(
        &env,
        &repo,
        &["merge", "--no-ff", "-q", "-m", "m", "feature"],
    );
    let text = refused(&out, "the merge");
    assert!(
        hint(&text).starts_with("run `git merge --abort` first; then run on `feature`"),
        "{text}"
    );
    assert!(
        repo.join(".git/MERGE_HEAD").exists(),
        "git keeps the merge in progress"
    );
    let out = git(&env, &repo, &["commit", "--no-edit"]);
    let text = refused(&out, "`git commit --no-edit`");
    assert!(
        hint(&text).starts_with("run `git merge --abort` first; then run on `feature`"),
        "the hint names the merged branch, not its commit ID: {text}"
    );
    assert_eq!(tip(&env, &repo, "main"), before, "nothing landed");
    ok(&git(&env, &repo, &["merge", "--abort"]));
    assert!(!repo.join(".git/MERGE_HEAD").exists());
    assert_eq!(read(repo.join("app.py")), "print(\"hi\")\n");
}

/// Item 1: a conflicted merge, resolved by hand and concluded with `git
/// commit`, is refused.
#[test]
fn a_conflicted_merge_concluded_with_git_commit_is_refused() {
    let (env, repo) = installed();
    unreset_feature(&env, &repo, false);
    write(repo.join("app.py"), "print(\"main\")\n");
    ok(&git(
        &env,
        &repo,
        &["commit", "-q", "-am", "main edits app"],
    ));
    let before = tip(&env, &repo, "main");
    let out = git(&env, &repo, &["merge", "-q", "feature"]);
    assert!(!out.status.success(), "app.py conflicts: {}", said(&out));
    write(repo.join("app.py"), "print(\"both\")\n");
    ok(&git(&env, &repo, &["add", "app.py"]));
    let text = refused(
        &git(&env, &repo, &["commit", "--no-edit"]),
        "the merge commit",
    );
    assert!(
        hint(&text).starts_with("run `git merge --abort` first"),
        "{text}"
    );
    assert_eq!(tip(&env, &repo, "main"), before);
}

/// Item 2: `git merge --squash` and `git commit` is refused; `git reset
/// --merge` puts main back.
#[test]
fn a_squash_merge_is_refused_at_commit() {
    let (env, repo) = installed();
    unreset_feature(&env, &repo, true);
    let before = tip(&env, &repo, "main");
    ok(&git(&env, &repo, &["merge", "-q", "--squash", "feature"]));
    let text = refused(
        &git(&env, &repo, &["commit", "-q", "-m", "squash"]),
        "the squash commit",
    );
    assert!(text.contains("the squash merge of `feature`"), "{text}");
    assert!(
        hint(&text).starts_with("run `git reset --merge` first"),
        "{text}"
    );
    assert_eq!(tip(&env, &repo, "main"), before);
    ok(&git(&env, &repo, &["reset", "--merge"]));
    assert_eq!(env.git(&repo, &["status", "--porcelain"]), "");
}

/// Item 3: a fast-forward is refused by the default hooks; `git reset
/// --merge` puts the working tree back.
#[test]
fn a_fast_forward_is_refused_by_the_default_hooks() {
    let (env, repo) = installed();
    unreset_feature(&env, &repo, false);
    let before = tip(&env, &repo, "main");
    let text = refused(
        &git(&env, &repo, &["merge", "-q", "feature"]),
        "the fast-forward",
    );
    assert!(
        hint(&text).starts_with("run `git reset --merge` first; then run on `feature`"),
        "{text}"
    );
    assert_eq!(tip(&env, &repo, "main"), before);
    ok(&git(&env, &repo, &["reset", "--merge"]));
    assert_eq!(env.git(&repo, &["status", "--porcelain"]), "");
    assert_eq!(read(repo.join("app.py")), "print(\"hi\")\n");
}

/// Item 3: `git pull` and `git pull --rebase` of an unreset branch from an
/// "origin" into a clone's main are refused.
#[test]
fn pulls_of_an_unreset_branch_are_refused() {
    let (env, origin) = installed();
    unreset_feature(&env, &origin, false);
    let clone = env.dir.path().join("clone");
    env.git(
        env.dir.path(),
        &["clone", "-q", origin.to_str().unwrap(), "clone"],
    );
    env.run(&clone, &["hooks", "install"]).success();
    let before = tip(&env, &clone, "main");
    for args in [
        &["pull", "-q", "--no-rebase", "origin", "feature"][..],
        &[
            "pull",
            "-q",
            "--no-rebase",
            "--no-ff",
            "--no-edit",
            "origin",
            "feature",
        ],
    ] {
        let out = git(&env, &clone, args);
        refused(&out, &format!("{args:?}"));
        assert_eq!(tip(&env, &clone, "main"), before, "{args:?}");
        let _ = git(&env, &clone, &["merge", "--abort"]);
        ok(&git(&env, &clone, &["reset", "-q", "--merge"]));
    }
    // Local work on main, then a rebasing pull.
    write(clone.join("notes.txt"), "mine\n");
    ok(&git(&env, &clone, &["add", "notes.txt"]));
    ok(&git(&env, &clone, &["commit", "-q", "-m", "local"]));
    let before = tip(&env, &clone, "main");
    let out = git(
        &env,
        &clone,
        &["pull", "-q", "--rebase", "origin", "feature"],
    );
    let text = refused(&out, "the rebasing pull");
    assert!(text.contains("git rebase --abort"), "{text}");
    let _ = git(&env, &clone, &["rebase", "--abort"]);
    assert_eq!(tip(&env, &clone, "main"), before);
}

/// Cherry-picking the cycle's commit onto main is refused; a commit that
/// changes no `.standards/` file picks cleanly.
#[test]
fn a_cherry_pick_of_a_cycle_commit_is_refused() {
    let (env, repo) = installed();
    unreset_feature(&env, &repo, true);
    ok(&git(&env, &repo, &["checkout", "-q", "feature"]));
    write(repo.join("lib.py"), "x = 1\n");
    ok(&git(&env, &repo, &["add", "lib.py"]));
    ok(&git(&env, &repo, &["commit", "-q", "-m", "lib only"]));
    ok(&git(&env, &repo, &["checkout", "-q", "main"]));
    let before = tip(&env, &repo, "main");
    let text = refused(
        &git(&env, &repo, &["cherry-pick", "feature~1"]),
        "the cherry-pick",
    );
    assert!(text.contains("git cherry-pick --abort"), "{text}");
    assert_eq!(tip(&env, &repo, "main"), before);
    let _ = git(&env, &repo, &["cherry-pick", "--abort"]);
    ok(&git(&env, &repo, &["reset", "-q", "--merge"]));
    ok(&git(&env, &repo, &["cherry-pick", "feature"]));
    assert_eq!(read(repo.join("lib.py")), "x = 1\n");
}

/// Item 4: the incoming branch's config.toml cannot declare that `main` is
/// not the main branch: the target's committed policy decides.
#[test]
fn an_incoming_config_toml_does_not_switch_the_guard_off() {
    let (env, repo) = installed();
    unreset_feature(&env, &repo, false);
    ok(&git(&env, &repo, &["checkout", "-q", "feature"]));
    write(
        repo.join(".standards/config.toml"),
        "main-branch = \"trunk\"\n",
    );
    ok(&git(&env, &repo, &["add", "-A"]));
    ok(&git(&env, &repo, &["commit", "-q", "-m", "trunk is main"]));
    ok(&git(&env, &repo, &["checkout", "-q", "main"]));
    let before = tip(&env, &repo, "main");
    refused(
        &git(&env, &repo, &["merge", "-q", "feature"]),
        "the fast-forward",
    );
    ok(&git(&env, &repo, &["reset", "-q", "--merge"]));
    refused(
        &git(
            &env,
            &repo,
            &["merge", "--no-ff", "-q", "-m", "m", "feature"],
        ),
        "the --no-ff merge",
    );
    refused(&git(&env, &repo, &["commit", "--no-edit"]), "the commit");
    ok(&git(&env, &repo, &["merge", "--abort"]));
    assert_eq!(tip(&env, &repo, "main"), before);
    env.run(&repo, &["merge-guard", "feature", "--into", "main"])
        .code(1);
}

/// What stays open: a cycle run directly on main, with plain commits and an
/// amend, under every default hook.
#[test]
fn a_cycle_committed_directly_on_main_stays_allowed() {
    let (env, repo) = installed();
    let state = read(repo.join(".standards/STATE.md"));
    write(repo.join(".standards/STATE.md"), signed_off(&state));
    ok(&git(&env, &repo, &["add", "-A"]));
    ok(&git(&env, &repo, &["commit", "-q", "-m", "cycle on main"]));
    write(repo.join("app.py"), "print(\"more\")\n");
    ok(&git(&env, &repo, &["commit", "-q", "-am", "more"]));
    ok(&git(
        &env,
        &repo,
        &["commit", "-q", "--amend", "-m", "more, amended"],
    ));
    // Work from a branch that changes no `.standards/` file still lands.
    ok(&git(&env, &repo, &["checkout", "-q", "-b", "topic"]));
    write(repo.join("lib.py"), "x = 1\n");
    ok(&git(&env, &repo, &["add", "lib.py"]));
    ok(&git(&env, &repo, &["commit", "-q", "-m", "lib"]));
    ok(&git(&env, &repo, &["checkout", "-q", "main"]));
    ok(&git(&env, &repo, &["merge", "-q", "topic"]));
    assert_eq!(env.git(&repo, &["log", "-1", "--format=%s"]).trim(), "lib");
}

/// What stays open: every form of merging a reset branch.
#[test]
fn every_merge_of_a_reset_branch_goes_through() {
    let (env, repo) = installed();
    unreset_feature(&env, &repo, true);
    ok(&git(&env, &repo, &["checkout", "-q", "feature"]));
    let a = env.run(&repo, &["reset", "--commit", "--yes"]);
    assert!(a.get_output().status.success(), "{}", stderr(&a));
    ok(&git(&env, &repo, &["checkout", "-q", "main"]));
    ok(&git(&env, &repo, &["branch", "saved", "main"]));
    ok(&git(
        &env,
        &repo,
        &["merge", "--no-ff", "-q", "-m", "m", "feature"],
    ));
    ok(&git(&env, &repo, &["reset", "-q", "--hard", "saved"]));
    ok(&git(
        &env,
        &repo,
        &["merge", "--no-ff", "--no-commit", "-q", "feature"],
    ));
    ok(&git(&env, &repo, &["commit", "-q", "--no-edit"]));
    ok(&git(&env, &repo, &["reset", "-q", "--hard", "saved"]));
    ok(&git(&env, &repo, &["merge", "-q", "--squash", "feature"]));
    ok(&git(&env, &repo, &["commit", "-q", "-m", "squash"]));
    ok(&git(&env, &repo, &["reset", "-q", "--hard", "saved"]));
    ok(&git(&env, &repo, &["rebase", "-q", "main", "feature"]));
    ok(&git(&env, &repo, &["checkout", "-q", "main"]));
    ok(&git(&env, &repo, &["merge", "-q", "--ff-only", "feature"]));
    assert_eq!(tip(&env, &repo, "main"), tip(&env, &repo, "feature"));
}

/// Item 7: `uninstall --yes` refuses mid-conflict like every other writer.
#[test]
fn uninstall_refuses_during_a_conflict_of_standards() {
    let (env, repo) = Env::repo();
    env.run(&repo, &["install"]).success();
    env.commit_all(&repo, "install");
    env.git(&repo, &["checkout", "-q", "-b", "side"]);
    let state = read(repo.join(".standards/STATE.md"));
    write(
        repo.join(".standards/STATE.md"),
        state.replacen("\n", "\n<!-- side -->\n", 1),
    );
    env.commit_all(&repo, "side");
    env.git(&repo, &["checkout", "-q", "main"]);
    write(
        repo.join(".standards/STATE.md"),
        state.replacen("\n", "\n<!-- main -->\n", 1),
    );
    env.commit_all(&repo, "main");
    let merge = env.git_status(&repo, &["merge", "-q", "side"]);
    assert!(!merge.status.success(), "STATE.md conflicts");
    let before = crate::common::files_below(&repo);
    let a = env.run(&repo, &["uninstall", "--yes"]).code(1);
    assert!(
        stderr(&a).contains("refusing to change the workflow"),
        "{}",
        stderr(&a)
    );
    assert_eq!(crate::common::files_below(&repo), before, "nothing removed");
    assert!(repo.join(".standards/STATE.md").exists());
}

/// An "origin" whose `hooks install` committed `.gitattributes`
/// (`merge=standards`), and a fresh clone of it: the clone has the line but
/// not the driver (git never clones local config).
fn fresh_clone() -> (Env, PathBuf) {
    let (env, origin) = installed();
    assert!(read(origin.join(".gitattributes")).contains("merge=standards"));
    let clone = env.dir.path().join("clone");
    env.git(
        env.dir.path(),
        &["clone", "-q", origin.to_str().unwrap(), "clone"],
    );
    let driver = env.git_status(&clone, &["config", "merge.standards.driver"]);
    assert!(!driver.status.success(), "a clone has no driver");
    (env, clone)
}

/// `topic` and `side`, both from main, edit STATE.md on distant lines; HEAD
/// is on `topic`. Nothing guards `topic`, so only the STATE.md rules speak.
fn two_state_edits(env: &Env, repo: &Path) {
    let state = read(repo.join(".standards/STATE.md"));
    ok(&git(env, repo, &["checkout", "-q", "-b", "side"]));
    write(
        repo.join(".standards/STATE.md"),
        state.replacen('\n', "\n<!-- side -->\n", 1),
    );
    ok(&git(
        env,
        repo,
        &["commit", "-q", "--no-verify", "-am", "side edits STATE.md"],
    ));
    ok(&git(env, repo, &["checkout", "-q", "-b", "topic", "main"]));
    write(
        repo.join(".standards/STATE.md"),
        format!("{state}<!-- topic -->\n"),
    );
    ok(&git(
        env,
        repo,
        &["commit", "-q", "--no-verify", "-am", "topic edits STATE.md"],
    ));
}

/// Item 5: any writing command in a fresh clone registers the merge driver
/// (with a note), so the same merge then conflicts instead of line-merging.
#[test]
fn a_fresh_clone_gets_the_merge_driver_from_any_writing_command() {
    let (env, clone) = fresh_clone();
    let a = env
        .run(&clone, &["cycle", "new", "--request", "Add search"])
        .success();
    assert!(
        stderr(&a).contains("Registered the STATE.md merge driver in this clone"),
        "{}",
        stderr(&a)
    );
    let driver = env.git(&clone, &["config", "merge.standards.driver"]);
    assert_eq!(driver.trim(), "git standards merge-driver %O %A %B %P");
    // Idempotent: said once.
    let a = env.run(&clone, &["hooks", "install"]).success();
    assert!(
        !stderr(&a).contains("Registered the STATE.md merge driver"),
        "{}",
        stderr(&a)
    );
    ok(&git(&env, &clone, &["checkout", "-q", "--", "."]));
    ok(&git(&env, &clone, &["clean", "-qfd"]));
    two_state_edits(&env, &clone);
    let out = git(&env, &clone, &["merge", "-q", "--no-edit", "side"]);
    assert!(
        !out.status.success(),
        "the driver makes it a conflict: {}",
        said(&out)
    );
    assert!(
        said(&out).contains("Both branches changed `.standards/STATE.md`"),
        "{}",
        said(&out)
    );
}

/// Item 5, without the driver: git line-merges STATE.md; `check --staged`
/// and the pre-commit hook refuse the result (MG-001), naming both sides and
/// pointing at `resolve`.
#[test]
fn a_line_merged_state_is_refused_without_the_driver() {
    let (env, clone) = fresh_clone();
    two_state_edits(&env, &clone);
    let out = git(&env, &clone, &["merge", "-q", "--no-commit", "side"]);
    ok(&out);
    let merged = read(clone.join(".standards/STATE.md"));
    assert!(merged.contains("<!-- side -->") && merged.contains("<!-- topic -->"));
    let a = env.run(&clone, &["check", "--staged"]).code(1);
    let out_text = crate::common::stdout(&a);
    assert!(out_text.contains("MG-001"), "{out_text}");
    assert!(
        out_text.contains("`topic` (") && out_text.contains("`side` ("),
        "{out_text}"
    );
    assert!(
        out_text.contains("git standards resolve --keep ours"),
        "{out_text}"
    );
    // The pre-commit hook refuses it too, with the driver removed after
    // `hooks install` registered it.
    env.run(&clone, &["hooks", "install"]).success();
    env.git(&clone, &["config", "--remove-section", "merge.standards"]);
    let out = git(&env, &clone, &["commit", "--no-edit"]);
    assert!(!out.status.success(), "{}", said(&out));
    assert!(said(&out).contains("MG-001"), "{}", said(&out));
    // A side kept whole passes.
    ok(&git(
        &env,
        &clone,
        &["checkout", "--theirs", "--", ".standards/STATE.md"],
    ));
    let theirs = env.git(&clone, &["show", "side:.standards/STATE.md"]);
    write(clone.join(".standards/STATE.md"), theirs);
    ok(&git(&env, &clone, &["add", ".standards/STATE.md"]));
    ok(&git(&env, &clone, &["commit", "-q", "--no-edit"]));
}

/// Item 5 in CI: `verify` refuses a committed line merge of STATE.md
/// (MG-001), whichever clone made it.
#[test]
fn verify_refuses_a_committed_line_merge_of_state() {
    let (env, clone) = fresh_clone();
    two_state_edits(&env, &clone);
    ok(&git(
        &env,
        &clone,
        &["merge", "-q", "--no-verify", "--no-edit", "side"],
    ));
    let a = env.run(&clone, &["verify", "--format", "text"]).code(1);
    let text = crate::common::stdout(&a);
    assert!(text.contains("MG-001"), "{text}");
    assert!(text.contains("and `side` ("), "{text}");
    // The commits before the merge pass.
    env.run(&clone, &["verify", "--format", "text", "main..topic~1"])
        .success();
}

/// `hooks install` puts the reference-transaction guard in by default;
/// `hooks status` says what its absence leaves open.
#[test]
fn hooks_status_says_what_a_missing_reference_transaction_hook_leaves_open() {
    let (env, repo) = Env::repo();
    env.run(&repo, &["install"]).success();
    env.run(&repo, &["hooks", "install", "--pre-commit"])
        .success();
    let a = env.run(&repo, &["hooks", "status"]).success();
    assert!(
        crate::common::stdout(&a).contains(
            "reference-transaction: not installed: fast-forwards, pulls and cherry-picks onto the main branch go unguarded (run `git standards hooks install`)"
        ),
        "{}",
        crate::common::stdout(&a)
    );
    env.run(&repo, &["hooks", "install"]).success();
    let a = env.run(&repo, &["hooks", "status"]).success();
    assert!(
        crate::common::stdout(&a).contains("reference-transaction: installed"),
        "{}",
        crate::common::stdout(&a)
    );
}

/// What stays open: a collaborator runs a cycle directly on `origin`'s main;
/// pulling main (merging or rebasing local work) brings nothing that main
/// itself does not hold, so it passes.
#[test]
fn pulling_main_that_holds_a_cycle_run_on_main_stays_allowed() {
    let (env, origin) = installed();
    let clone = env.dir.path().join("clone");
    env.git(
        env.dir.path(),
        &["clone", "-q", origin.to_str().unwrap(), "clone"],
    );
    env.run(&clone, &["hooks", "install"]).success();
    let state = read(origin.join(".standards/STATE.md"));
    write(origin.join(".standards/STATE.md"), signed_off(&state));
    ok(&git(
        &env,
        &origin,
        &["commit", "-q", "-am", "cycle on main"],
    ));
    write(clone.join("notes.txt"), "mine\n");
    ok(&git(&env, &clone, &["add", "notes.txt"]));
    ok(&git(&env, &clone, &["commit", "-q", "-m", "local"]));
    let saved = tip(&env, &clone, "main");
    ok(&git(
        &env,
        &clone,
        &["pull", "-q", "--no-rebase", "--no-edit"],
    ));
    assert_eq!(
        read(clone.join(".standards/STATE.md")),
        read(origin.join(".standards/STATE.md"))
    );
    ok(&git(&env, &clone, &["reset", "-q", "--hard", &saved]));
    ok(&git(&env, &clone, &["pull", "-q", "--rebase"]));
    assert_eq!(
        env.git(&clone, &["log", "-1", "--format=%s"]).trim(),
        "local"
    );
}
