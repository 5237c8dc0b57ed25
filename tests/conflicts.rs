//! Merges of two cycles' state (D24), conflicts in `.standards/` while a merge
//! is in progress, and the user's `resolve` decision, on real repositories
//! with the `git` CLI as witness.

use std::path::{Path, PathBuf};

use crate::common::{read, set_field, stderr, stdout, write, Env};

const STATE: &str = ".standards/STATE.md";

/// A greenfield install, committed on `main`.
fn installed() -> (Env, PathBuf) {
    let (env, repo) = Env::repo();
    env.run(&repo, &["install"]).success();
    env.commit_all(&repo, "install");
    (env, repo)
}

fn edit_state(repo: &Path, changes: &[(&str, &str)]) {
    let mut s = read(repo.join(STATE));
    for (name, value) in changes {
        s = set_field(&s, name, value);
    }
    write(repo.join(STATE), s);
}

/// Starts a new cycle for `request` in SCOPING (as the Scoper does) and
/// returns its ID; nothing is committed.
fn start_cycle(env: &Env, repo: &Path, request: &str) -> String {
    let a = env
        .run(repo, &["cycle", "new", "--request", request])
        .success();
    let id = stdout(&a).trim().to_string();
    edit_state(
        repo,
        &[
            ("WorkflowState", "SCOPING"),
            ("CycleMode", "STANDARD"),
            ("Id", &id),
            ("Request", request),
            ("CompletionPolicy", "FULL_DELIVERABLE"),
        ],
    );
    id
}

/// Configures the merge driver the way `hooks install` does, with this binary.
fn configure_driver(env: &Env, repo: &Path) {
    write(
        repo.join(".gitattributes"),
        ".standards/STATE.md merge=standards\n",
    );
    env.commit_all(repo, "merge driver attributes");
    let driver = format!("'{}' merge-driver %O %A %B %P", Env::bin().display());
    env.git(repo, &["config", "merge.standards.driver", &driver]);
    env.git(
        repo,
        &["config", "merge.standards.name", "STANDARDS STATE.md"],
    );
}

/// Two branches from one cycle in SCOPING: `main` hands it to ARCHITECTING,
/// `side` records a BlockedOn question. The edits sit on different lines.
fn handoff_and_blocked_on(env: &Env, repo: &Path) -> String {
    let id = start_cycle(env, repo, "Add search");
    env.commit_all(repo, "cycle started");
    env.git(repo, &["checkout", "-q", "-b", "side"]);
    edit_state(repo, &[("BlockedOn", "Which database backs the search?")]);
    env.commit_all(repo, "side: blocked on a question");
    env.git(repo, &["checkout", "-q", "main"]);
    edit_state(
        repo,
        &[
            ("WorkflowState", "ARCHITECTING"),
            ("Kind", "FORWARD"),
            ("From", "SCOPING"),
        ],
    );
    env.commit_all(repo, "main: handed to the Architect");
    id
}

/// D24: git alone combines the two edits into a state neither branch had.
#[test]
fn without_the_driver_git_combines_different_lines_silently() {
    let (env, repo) = installed();
    handoff_and_blocked_on(&env, &repo);
    let merge = env.git_status(&repo, &["merge", "-q", "--no-edit", "side"]);
    assert!(merge.status.success(), "git merges the lines silently");
    let merged = read(repo.join(STATE));
    assert!(merged.contains("`ARCHITECTING`") && merged.contains("Which database"));
}

/// D24: with the driver configured the same merge conflicts, and the file
/// holds both whole versions labelled with cycle and state.
#[test]
fn with_the_driver_the_same_merge_conflicts_and_labels_both_sides() {
    let (env, repo) = installed();
    configure_driver(&env, &repo);
    let id = handoff_and_blocked_on(&env, &repo);
    let ours = env.git(&repo, &["show", "main:.standards/STATE.md"]);
    let theirs = env.git(&repo, &["show", "side:.standards/STATE.md"]);
    let merge = env.git_status(&repo, &["merge", "-q", "--no-edit", "side"]);
    assert!(!merge.status.success(), "the driver reports a conflict");
    let said = String::from_utf8_lossy(&merge.stderr).into_owned()
        + &String::from_utf8_lossy(&merge.stdout);
    assert!(
        said.contains("Both branches changed `.standards/STATE.md`"),
        "{said}"
    );
    let merged = read(repo.join(STATE));
    assert_eq!(
        merged,
        format!(
            "<<<<<<< ours: cycle {id} (ARCHITECTING)\n{ours}=======\n{theirs}>>>>>>> theirs: cycle {id} (SCOPING)\n"
        )
    );
    let unmerged = env.git(&repo, &["ls-files", "-u", "--", STATE]);
    assert_eq!(unmerged.lines().count(), 3, "stages 1, 2 and 3: {unmerged}");
}

/// D24: when only one branch changed STATE.md the driver takes it, cleanly.
#[test]
fn with_the_driver_a_one_sided_change_merges_cleanly() {
    let (env, repo) = installed();
    configure_driver(&env, &repo);
    start_cycle(&env, &repo, "Add search");
    env.commit_all(&repo, "cycle started");
    env.git(&repo, &["checkout", "-q", "-b", "side"]);
    edit_state(&repo, &[("BlockedOn", "Which database?")]);
    env.commit_all(&repo, "side");
    let theirs = read(repo.join(STATE));
    env.git(&repo, &["checkout", "-q", "main"]);
    write(repo.join("notes.txt"), "x\n");
    env.commit_all(&repo, "main: unrelated");
    let merge = env.git_status(&repo, &["merge", "-q", "--no-edit", "side"]);
    assert!(
        merge.status.success(),
        "{}",
        String::from_utf8_lossy(&merge.stderr)
    );
    assert_eq!(read(repo.join(STATE)), theirs);
    env.run(&repo, &["check"]).success();
}

/// The driver never crashes a merge: an unreadable input is a conflict with
/// the reason on stderr.
#[test]
fn the_driver_turns_bad_input_into_a_conflict() {
    let env = Env::new();
    let dir = env.dir.path();
    write(dir.join("ours"), "mine\n");
    let a = env
        .run(
            dir,
            &["merge-driver", "no-such-base", "ours", "ours", STATE],
        )
        .code(1);
    assert!(
        stderr(&a).contains("could not merge `.standards/STATE.md`"),
        "{}",
        stderr(&a)
    );
    assert_eq!(read(dir.join("ours")), "mine\n");
}
