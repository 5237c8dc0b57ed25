//! Issue 21 items 1, 4, 5 and 9: writers of one worktree are serialised
//! (one workflow lock from reading `.standards/` to the last rename), so two
//! moves started together never both act on the same old state; every
//! landed operation has exactly one audit event, also after a kill and
//! `recover`; a leftover notes ref lock never silently drops an event; and a
//! refused or killed operation leaves no journal debris.
//!
//! Concurrent processes are released together by the `GIT_STANDARDS_PAUSE`
//! barrier (each waits at `<operation>:locking`, just before it takes the
//! lock, until the test creates `go`), in a bounded number of trials.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Child, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::{read, write, Env};
use crate::transitions::f_std;

const STATE: &str = ".standards/STATE.md";

/// Every event of the trail, parsed (none before the first one).
pub fn events(env: &Env, repo: &Path) -> Vec<serde_json::Value> {
    let a = env.run(repo, &["log", "--json"]).success();
    String::from_utf8_lossy(&a.get_output().stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn ids(events: &[serde_json::Value]) -> BTreeSet<String> {
    events
        .iter()
        .map(|e| e["id"].as_str().unwrap().to_string())
        .collect()
}

/// The events added since `before`.
fn new_events(env: &Env, repo: &Path, before: &BTreeSet<String>) -> Vec<serde_json::Value> {
    events(env, repo)
        .into_iter()
        .filter(|e| !before.contains(e["id"].as_str().unwrap()))
        .collect()
}

fn field(state: &str, name: &str) -> String {
    let key = format!("`{name}`: `");
    let line = state
        .lines()
        .find(|l| l.contains(&key))
        .unwrap_or_else(|| panic!("no {name} in {state}"));
    let rest = &line[line.find(&key).unwrap() + key.len()..];
    rest[..rest.find('`').unwrap()].to_string()
}

/// How many trials a concurrency test runs: `default`, or more for a
/// measurement (`GIT_STANDARDS_TEST_TRIALS`, the figures of docs/guide.md).
fn trials(default: usize) -> usize {
    std::env::var("GIT_STANDARDS_TEST_TRIALS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A barrier folder for one trial.
fn barrier(env: &Env, trial: usize) -> PathBuf {
    let dir = env.dir.path().join(format!("barrier-{trial}"));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Starts `git standards <args>` held at `<operation>:locking` of `barrier`.
fn spawn(env: &Env, repo: &Path, barrier: &Path, operation: &str, args: &[&str]) -> Child {
    env.cmd(repo)
        .args(args)
        .env(
            "GIT_STANDARDS_PAUSE",
            format!("{operation}:locking={}", barrier.display()),
        )
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits until `n` processes arrived at the barrier, then releases them all
/// and collects their outputs.
fn release(barrier: &Path, children: Vec<Child>) -> Vec<Output> {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let arrived = std::fs::read_dir(barrier)
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .file_name()
                    .to_string_lossy()
                    .starts_with("arrived-")
            })
            .count();
        if arrived >= children.len() {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the processes never reached the barrier"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    write(barrier.join("go"), "");
    let outs: Vec<Output> = children
        .into_iter()
        .map(|c| c.wait_with_output().unwrap())
        .collect();
    for o in &outs {
        assert!(!err(o).contains("panicked"), "{}", err(o));
        assert_ne!(o.status.code(), Some(3), "{}", err(o));
    }
    outs
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The events of one trial in the order they were applied: a chain of state
/// changes from `start`, each event's `before` the previous one's `after`.
fn chain<'a>(start: &str, events: &'a [serde_json::Value]) -> Vec<&'a serde_json::Value> {
    let mut left: Vec<&serde_json::Value> = events.iter().collect();
    let mut at = start.to_string();
    let mut out = Vec::new();
    while !left.is_empty() {
        let i = left
            .iter()
            .position(|e| e["state"]["before"] == at.as_str())
            .unwrap_or_else(|| panic!("no event continues from {at}: {left:#?}"));
        let e = left.remove(i);
        at = e["state"]["after"].as_str().unwrap().to_string();
        out.push(e);
    }
    out
}

/// Two `block --on` started together: exactly one wins; its question is the
/// one in STATE.md and the only new event; the other exits 1 saying the cycle
/// is already blocked. (Without the lock both read `BlockedOn: NONE`, both
/// exit 0 with an event, and one question vanishes from STATE.md.)
#[test]
fn two_blocks_started_together_record_exactly_one_question() {
    let (env, repo) = f_std(&[("WorkflowState", "TESTING")]);
    let original = read(repo.join(STATE));
    for trial in 0..trials(12) {
        write(repo.join(STATE), &original);
        let before = ids(&events(&env, &repo));
        let b = barrier(&env, trial);
        let children = vec![
            spawn(&env, &repo, &b, "block", &["block", "--on", "Question A?"]),
            spawn(&env, &repo, &b, "block", &["block", "--on", "Question B?"]),
        ];
        let outs = release(&b, children);
        let won: Vec<usize> = (0..2).filter(|&i| outs[i].status.success()).collect();
        assert_eq!(
            won.len(),
            1,
            "trial {trial}: {:?}",
            outs.iter().map(err).collect::<Vec<_>>()
        );
        let (w, l) = (won[0], 1 - won[0]);
        let question = ["Question A?", "Question B?"][w];
        assert_eq!(
            outs[l].status.code(),
            Some(1),
            "trial {trial}: {}",
            err(&outs[l])
        );
        assert!(
            err(&outs[l]).contains("already blocked on"),
            "trial {trial}: {}",
            err(&outs[l])
        );
        let state = read(repo.join(STATE));
        assert_eq!(field(&state, "BlockedOn"), question, "trial {trial}");
        let added = new_events(&env, &repo, &before);
        assert_eq!(added.len(), 1, "trial {trial}: {added:#?}");
        assert_eq!(added[0]["event"], "blocked");
        assert_eq!(added[0]["question"], question);
    }
}

/// `fail` and `cancel` started together: they run one after the other. The
/// moves that exit 0 are exactly the trail's new events, chained state to
/// state, and the last one's state is STATE.md's; a refused one exits 1 and
/// leaves no event. (Without the lock both exit 0 from TESTING and the
/// later rename erases the other move.)
#[test]
fn fail_and_cancel_started_together_are_applied_one_after_the_other() {
    let (env, repo) = f_std(&[("WorkflowState", "TESTING")]);
    let original = read(repo.join(STATE));
    for trial in 0..trials(12) {
        write(repo.join(STATE), &original);
        let before = ids(&events(&env, &repo));
        let b = barrier(&env, trial);
        let children = vec![
            spawn(
                &env,
                &repo,
                &b,
                "fail",
                &["fail", "--type", "ARCHITECTURE", "--reason", "Retry."],
            ),
            spawn(&env, &repo, &b, "cancel", &["cancel"]),
        ];
        let outs = release(&b, children);
        let kinds = ["failed", "cancelled"];
        let succeeded: BTreeSet<&str> = (0..2)
            .filter(|&i| outs[i].status.success())
            .map(|i| kinds[i])
            .collect();
        for (i, o) in outs.iter().enumerate() {
            if !o.status.success() {
                assert_eq!(o.status.code(), Some(1), "trial {trial}: {}", err(o));
                assert!(err(o).contains("refused"), "trial {trial} {i}: {}", err(o));
            }
        }
        assert!(
            succeeded.contains("cancelled"),
            "trial {trial}: cancel is always allowed once"
        );
        let added = new_events(&env, &repo, &before);
        let order = chain("TESTING", &added);
        let recorded: BTreeSet<&str> = order.iter().map(|e| e["event"].as_str().unwrap()).collect();
        assert_eq!(recorded, succeeded, "trial {trial}");
        assert_eq!(
            order.len(),
            succeeded.len(),
            "trial {trial}: one event per move"
        );
        let state = read(repo.join(STATE));
        assert_eq!(
            field(&state, "WorkflowState"),
            order.last().unwrap()["state"]["after"].as_str().unwrap(),
            "trial {trial}"
        );
        assert_eq!(field(&state, "WorkflowState"), "CANCELLED", "trial {trial}");
    }
}

/// `reset --yes` and `block` started together: never a mixed state. Either
/// the block ran first (both exit 0, the reset's fresh state holds no
/// question) or the reset did (the block is refused: no active cycle).
#[test]
fn reset_and_block_started_together_leave_a_whole_state() {
    for trial in 0..trials(6) {
        let (env, repo) = f_std(&[("WorkflowState", "TESTING")]);
        let before = ids(&events(&env, &repo));
        let b = barrier(&env, trial);
        let children = vec![
            spawn(&env, &repo, &b, "reset", &["reset", "--yes"]),
            spawn(&env, &repo, &b, "block", &["block", "--on", "Which index?"]),
        ];
        let outs = release(&b, children);
        assert!(outs[0].status.success(), "trial {trial}: {}", err(&outs[0]));
        let blocked = outs[1].status.success();
        if !blocked {
            assert_eq!(
                outs[1].status.code(),
                Some(1),
                "trial {trial}: {}",
                err(&outs[1])
            );
            assert!(
                err(&outs[1]).contains("refused"),
                "trial {trial}: {}",
                err(&outs[1])
            );
        }
        let state = read(repo.join(STATE));
        assert_eq!(field(&state, "WorkflowState"), "AUDITING", "trial {trial}");
        assert_eq!(field(&state, "BlockedOn"), "NONE", "trial {trial}");
        let mut kinds: Vec<String> = new_events(&env, &repo, &before)
            .iter()
            .map(|e| e["event"].as_str().unwrap().to_string())
            .collect();
        kinds.sort();
        let mut expected = vec!["archived".to_string(), "reset".to_string()];
        if blocked {
            expected.push("blocked".to_string());
        }
        expected.sort();
        assert_eq!(kinds, expected, "trial {trial}");
        assert!(
            !repo.join(".git/standards/journal").exists(),
            "trial {trial}"
        );
    }
}

/// What `.git/standards/` holds of journals (not the lock file, not caches).
fn journal_debris(repo: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(repo.join(".git/standards"))
        .map(|d| {
            d.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .filter(|n| n.starts_with("journal") && n != "journal.lock")
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// Item 9: an `archive restore` refused because a folder on the way is a
/// symbolic link is refused before its journal exists, so the next writer
/// is not told of an "interrupted" restore, and nothing is written through
/// the link. (Before, the refusal came from the write step, its undo failed
/// on the same link, and the journal stayed.)
#[test]
fn a_refused_archive_restore_leaves_no_journal() {
    let (env, repo) = f_std(&[("WorkflowState", "TESTING")]);
    env.run(&repo, &["reset", "--yes"]).success();
    let outside = env.dir.path().join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    let _ = std::fs::remove_dir_all(repo.join(".standards/docs"));
    std::os::unix::fs::symlink(&outside, repo.join(".standards/docs")).unwrap();
    let name = "add-user-search-20260927T190146Z-7bef0f04";
    let a = env
        .run(&repo, &["archive", "restore", name, ".standards/docs"])
        .code(1);
    let e = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
    assert!(e.contains("is a symbolic link"), "{e}");
    assert!(!e.contains("recover"), "{e}");
    assert_eq!(journal_debris(&repo), Vec::<String>::new());
    assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 0);
    // The next writer is not refused for an interrupted operation.
    std::fs::remove_file(repo.join(".standards/docs")).unwrap();
    env.run(&repo, &["archive", "restore", name, ".standards/docs"])
        .success();
}

/// Item 9: a reset killed while it staged its journal leaves a
/// `journal.new-*` folder; `recover` (and the next writer) removes it.
#[test]
fn a_reset_killed_while_staging_leaves_no_staging_folder_after_recover() {
    for then in [&["recover"][..], &["block", "--on", "Which index?"][..]] {
        let (env, repo) = f_std(&[("WorkflowState", "TESTING")]);
        let out = env
            .cmd(&repo)
            .args(["reset", "--yes"])
            .env("GIT_STANDARDS_FAILPOINT", "reset:journal-staged")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), None, "the reset was killed");
        let left = journal_debris(&repo);
        assert!(
            left.len() == 1 && left[0].starts_with("journal.new-"),
            "{left:?}"
        );
        env.run(&repo, then).success();
        assert_eq!(journal_debris(&repo), Vec::<String>::new(), "{then:?}");
    }
}

/// The new events of one trial that a command recorded for itself.
fn events_of(added: &[serde_json::Value], command: &str) -> usize {
    added.iter().filter(|e| e["command"] == command).count()
}

/// Kills `args` at `point` (or lets it finish when the point is never
/// reached); returns whether it was killed.
pub fn killed(env: &Env, repo: &Path, args: &[&str], point: &str) -> bool {
    let out = env
        .cmd(repo)
        .args(args)
        .env("GIT_STANDARDS_FAILPOINT", point)
        .output()
        .unwrap();
    match out.status.code() {
        None => true,
        Some(0) => false,
        Some(c) => panic!("{args:?} at {point}: exit {c}: {}", err(&out)),
    }
}

/// Item 4: a move killed at every durable write (the journal's staging, its
/// appearance, each step including the event's, the notes ref's lock inside
/// the event write, the journal's removal) and then `recover`: a move whose
/// STATE.md landed has its event exactly once, a move that did not land has
/// none, and no journal or ref lock is left. Both orders: `block` (event
/// after the write) and `policy` (a user decision: event first, D20).
/// (Before, a transition killed after its rename lost its event.)
#[test]
fn a_move_killed_at_any_write_has_its_event_exactly_once_after_recover() {
    let moves: [(&str, &[&str]); 2] = [
        ("block", &["block", "--on", "Which index?"]),
        ("policy", &["policy", "implementation-reviewed"]),
    ];
    let (env, repo) = f_std(&[("WorkflowState", "TESTING")]);
    let original = read(repo.join(STATE));
    let mut landed_kills = 0;
    for (command, args) in moves {
        let points: Vec<String> = [
            "transition:before-write",
            "journal-staged",
            "journal-begun",
            "step-applied@1",
            "step-recorded@1",
            "step-applied@2",
            "step-recorded@2",
            "journal-closing",
            "audit:ref-locked",
            "transition:after-write",
        ]
        .iter()
        .map(|p| {
            if p.contains(':') {
                p.to_string()
            } else {
                format!("{command}:{p}")
            }
        })
        .collect();
        for point in &points {
            write(repo.join(STATE), &original);
            let before = ids(&events(&env, &repo));
            assert!(
                killed(&env, &repo, args, point),
                "{point} was never reached"
            );
            env.run(&repo, &["recover"]).success();
            let landed = read(repo.join(STATE)) != original;
            landed_kills += usize::from(landed);
            let added = new_events(&env, &repo, &before);
            assert_eq!(
                events_of(&added, command),
                usize::from(landed),
                "{point}: landed {landed}: {added:#?}"
            );
            assert_eq!(journal_debris(&repo), Vec::<String>::new(), "{point}");
            assert!(
                !repo.join(".git/refs/notes/standards.lock").exists(),
                "{point}"
            );
            // The next move runs as usual.
            write(repo.join(STATE), &original);
            env.run(&repo, &["block", "--on", "Next?"]).success();
        }
    }
    assert!(landed_kills >= 8, "{landed_kills}");
}

/// Kills `git standards <operation> --yes` at every point (after its
/// archive, while staging, after each step including both event writes,
/// inside each event's notes update, at the journal's removal), then runs
/// `recover`: an operation that landed (`landed`) has its `archived` and
/// `kind` events exactly once each, one that did not has neither, and no
/// journal or ref lock is left. Returns the number of kills.
fn teardown_killed_everywhere(operation: &str, kind: &str, landed: fn(&Path) -> bool) -> usize {
    let mut points: Vec<String> = [
        "archived",
        "journal-staged",
        "journal-begun",
        "journal-closing",
    ]
    .iter()
    .map(|p| format!("{operation}:{p}"))
    .collect();
    points.extend(["audit:ref-locked@1".into(), "audit:ref-locked@2".into()]);
    points.extend((1..=12).map(|n| format!("{operation}:step-applied@{n}")));
    let mut kills = 0;
    for point in &points {
        let (env, repo) = f_std(&[("WorkflowState", "TESTING")]);
        let before = ids(&events(&env, &repo));
        let original = read(repo.join(STATE));
        if !killed(&env, &repo, &[operation, "--yes"], point) {
            // Past the last step: the operation simply finished.
            assert!(point.contains("step-applied"), "{point} was never reached");
            continue;
        }
        kills += 1;
        env.run(&repo, &["recover"]).success();
        let landed = landed(&repo);
        if !landed {
            assert_eq!(read(repo.join(STATE)), original, "{point}: a mixed state");
        }
        let added = new_events(&env, &repo, &before);
        let count = |k: &str| added.iter().filter(|e| e["event"] == k).count();
        let once = usize::from(landed);
        assert_eq!(count(kind), once, "{point}: {added:#?}");
        assert_eq!(count("archived"), once, "{point}: {added:#?}");
        assert_eq!(journal_debris(&repo), Vec::<String>::new(), "{point}");
        assert!(
            !repo.join(".git/refs/notes/standards.lock").exists(),
            "{point}"
        );
    }
    kills
}

/// Item 4: a reset killed at every point and then `recover`: a reset that
/// landed has its `archived` and `reset` events exactly once each, one that
/// did not has neither. (Before, a reset killed after its journal closed
/// lost its events, and `recover` found nothing.)
#[test]
fn a_reset_killed_at_any_write_has_its_events_exactly_once_after_recover() {
    let kills = teardown_killed_everywhere("reset", "reset", |repo| {
        field(&read(repo.join(STATE)), "WorkflowState") == "AUDITING"
    });
    assert!(kills >= 10, "{kills}");
}

/// Item 4: the same for `uninstall` and its `uninstalled` event.
#[test]
fn an_uninstall_killed_at_any_write_has_its_events_exactly_once_after_recover() {
    let kills = teardown_killed_everywhere("uninstall", "uninstalled", |repo| {
        !repo.join(STATE).exists()
    });
    assert!(kills >= 8, "{kills}");
}

/// Item 5: a `refs/notes/standards.lock` that no writer holds (left by a
/// killed process, older than any live git's) is reported, not blamed on
/// "other writers": a move refuses (exit 1, nothing changed, its event not
/// lost but never written without its move) and names `recover`, which
/// removes the lock; then the move records its event.
#[test]
fn a_stale_notes_ref_lock_is_reported_and_recover_removes_it() {
    let (env, repo) = f_std(&[("WorkflowState", "TESTING")]);
    let original = read(repo.join(STATE));
    let lock = repo.join(".git/refs/notes/standards.lock");
    std::fs::create_dir_all(lock.parent().unwrap()).unwrap();
    write(&lock, "");
    let old = std::time::SystemTime::now() - Duration::from_secs(60);
    std::fs::File::options()
        .write(true)
        .open(&lock)
        .unwrap()
        .set_modified(old)
        .unwrap();
    let before = ids(&events(&env, &repo));
    let a = env.run(&repo, &["block", "--on", "Which index?"]).code(1);
    let e = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
    assert!(e.contains("standards.lock"), "{e}");
    assert!(e.contains("by a process that is gone"), "{e}");
    assert!(e.contains("git standards recover"), "{e}");
    assert!(!e.contains("other writers"), "{e}");
    assert_eq!(read(repo.join(STATE)), original, "nothing was changed");
    assert_eq!(journal_debris(&repo), Vec::<String>::new());
    // A user decision (its event first, D20) names the same way out.
    let a = env
        .run(&repo, &["policy", "implementation-reviewed"])
        .code(1);
    let e = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
    assert!(e.contains("by a process that is gone"), "{e}");
    assert!(e.contains("git standards recover"), "{e}");
    assert_eq!(read(repo.join(STATE)), original, "nothing was changed");
    assert!(lock.exists(), "only recover removes it");
    let a = env.run(&repo, &["recover"]).success();
    let e = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
    assert!(e.contains("Removed") && e.contains("standards.lock"), "{e}");
    assert!(!lock.exists());
    env.run(&repo, &["block", "--on", "Which index?"]).success();
    let added = new_events(&env, &repo, &before);
    assert_eq!(events_of(&added, "block"), 1, "{added:#?}");
}

/// A writer that cannot get the lock within its wait refuses (exit 1,
/// nothing changed) and names the command holding it. The holder is a
/// `block` held at its journal's staging point, which it reaches only with
/// the lock (the wait is shortened for the test).
#[test]
fn a_writer_refused_by_the_lock_names_the_operation_holding_it() {
    let (env, repo) = f_std(&[("WorkflowState", "TESTING")]);
    let original = read(repo.join(STATE));
    let b = barrier(&env, 0);
    let holder = env
        .cmd(&repo)
        .args(["block", "--on", "Which index?"])
        .env(
            "GIT_STANDARDS_PAUSE",
            format!("block:journal-staged={}", b.display()),
        )
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while std::fs::read_dir(&b).unwrap().count() == 0 {
        assert!(Instant::now() < deadline, "the holder never took the lock");
        std::thread::sleep(Duration::from_millis(5));
    }
    let out = env
        .cmd(&repo)
        .args(["fail", "--type", "ARCHITECTURE", "--reason", "Retry."])
        .env("GIT_STANDARDS_LOCK_WAIT_MS", "300")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", err(&out));
    let e = err(&out);
    assert!(
        e.contains(&format!("`git standards block` (process {})", holder.id())),
        "{e}"
    );
    assert!(e.contains("nothing was changed"), "{e}");
    assert_eq!(read(repo.join(STATE)), original);
    write(b.join("go"), "");
    let held = holder.wait_with_output().unwrap();
    assert!(held.status.success(), "{}", err(&held));
    assert_eq!(field(&read(repo.join(STATE)), "BlockedOn"), "Which index?");
}
