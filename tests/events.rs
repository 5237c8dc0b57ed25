//! Issue 21 item 4 for `install` (first install and upgrade) and `artifact
//! init` (a record alone, a record with its `Active Work` path, an existing
//! record's path): each is killed at every durable write (its journal's
//! staging and appearance, each step including the event writes, inside an
//! event's notes update, the journal's removal), then `git standards
//! recover` runs: an operation that landed has its event exactly once, one
//! that did not has none, and no journal or notes ref lock is left. (Before,
//! these events were appended after the journal closed, so a kill there
//! lost them and `recover` found nothing.) `resolve`'s are in
//! `tests/conflicts.rs`, the moves', reset's and uninstall's in
//! `tests/serialise.rs`.

use std::path::Path;

use standards_core::setup::install as setup_install;

use crate::common::{read, write, Env};
use crate::fixture::Project;
use crate::serialise::{events, killed};

const STATE: &str = ".standards/STATE.md";
const VERSION: &str = ".standards/VERSION.json";

/// How many events of `kind` the trail holds.
fn count(env: &Env, repo: &Path, kind: &str) -> usize {
    events(env, repo)
        .iter()
        .filter(|e| e["event"] == kind)
        .count()
}

/// How many steps the journal of `args` holds: the run is killed once its
/// journal is in place, the plan is read, and `recover --rollback` undoes it.
fn steps_of(env: &Env, repo: &Path, args: &[&str], operation: &str) -> usize {
    assert!(killed(
        env,
        repo,
        args,
        &format!("{operation}:journal-begun")
    ));
    let plan = read(repo.join(".git/standards/journal/plan.json"));
    let plan: serde_json::Value = serde_json::from_str(&plan).unwrap();
    env.run(repo, &["recover", "--rollback"]).success();
    plan["steps"].as_array().unwrap().len()
}

/// The kill points of a journaled `operation` of `steps` steps whose last
/// `events` steps write events: the journal's own, the first step, every
/// event step and the one before them, and each event's notes update.
fn points(operation: &str, steps: usize, events: usize) -> Vec<String> {
    let mut out: Vec<String> = ["journal-staged", "journal-begun", "journal-closing"]
        .iter()
        .map(|p| format!("{operation}:{p}"))
        .collect();
    let mut arms: Vec<usize> = vec![1];
    arms.extend((steps - events).max(1)..=steps);
    arms.dedup();
    for n in arms {
        out.push(format!("{operation}:step-applied@{n}"));
        out.push(format!("{operation}:step-recorded@{n}"));
    }
    out.extend((1..=events).map(|n| format!("audit:ref-locked@{n}")));
    out
}

/// After `recover`: no journal, no staging folder, no notes ref lock.
fn clean(repo: &Path, point: &str) {
    let left: Vec<String> = std::fs::read_dir(repo.join(".git/standards"))
        .map(|d| {
            d.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .filter(|n| n.starts_with("journal") && n != "journal.lock")
                .collect()
        })
        .unwrap_or_default();
    assert!(left.is_empty(), "{point}: {left:?}");
    assert!(
        !repo.join(".git/refs/notes/standards.lock").exists(),
        "{point}"
    );
}

/// A first install killed anywhere, then `recover`: installed (PROTOCOL.md,
/// the ownership marker, is its last file) with `installed` and
/// `clients-installed` once each, or not installed with neither; the next
/// install then records its own events once.
#[test]
fn a_first_install_killed_at_any_write_has_its_events_exactly_once_after_recover() {
    let (env, repo) = Env::repo();
    env.run(&repo, &["install"]).success();
    let clients = count(&env, &repo, "clients-installed");
    let events_n = 1 + clients;
    let (env, probe) = Env::repo();
    let steps = steps_of(&env, &probe, &["install"], "install");
    let mut landed_kills = 0;
    for point in points("install", steps, events_n) {
        let (env, repo) = Env::repo();
        assert!(
            killed(&env, &repo, &["install"], &point),
            "{point} was never reached"
        );
        env.run(&repo, &["recover"]).success();
        clean(&repo, &point);
        let landed = repo.join(".standards/PROTOCOL.md").is_file();
        landed_kills += usize::from(landed);
        let once = usize::from(landed);
        assert_eq!(count(&env, &repo, "installed"), once, "{point}");
        assert_eq!(
            count(&env, &repo, "clients-installed"),
            once * clients,
            "{point}"
        );
        if !landed {
            env.run(&repo, &["install"]).success();
            assert_eq!(count(&env, &repo, "installed"), 1, "{point}");
        }
    }
    assert!(landed_kills >= 4, "{landed_kills}");
}

/// An upgrade (from a version whose chapter folder is gone) killed
/// anywhere, then `recover`: upgraded (VERSION.json names this version)
/// with `upgraded` once, or not with none.
#[test]
fn an_upgrade_killed_at_any_write_has_its_event_exactly_once_after_recover() {
    let upgradable = || {
        let p = Project::brown();
        p.write(
            VERSION,
            setup_install::version_json(setup_install::Version(0, 0, 1)),
        );
        let _ = std::fs::remove_dir_all(p.path(".standards/protocol"));
        p.commit("an older version");
        p
    };
    let probe = upgradable();
    let steps = steps_of(&probe.env, &probe.root, &["install"], "install");
    let current = setup_install::version_json(setup_install::Version::current());
    let mut landed_kills = 0;
    for point in points("install", steps, 1) {
        let p = upgradable();
        let before = count(&p.env, &p.root, "upgraded");
        assert!(
            killed(&p.env, &p.root, &["install"], &point),
            "{point} was never reached"
        );
        p.run(&["recover"]).success();
        clean(&p.root, &point);
        let landed = read(p.path(VERSION)) == current;
        landed_kills += usize::from(landed);
        assert_eq!(
            count(&p.env, &p.root, "upgraded"),
            before + usize::from(landed),
            "{point}"
        );
    }
    assert!(landed_kills >= 4, "{landed_kills}");
}

/// `artifact init` killed anywhere, then `recover`, for its three writes: a
/// record alone (VERIFICATION), a record with its `Active Work` path
/// (ARCHITECTURE), and the path of a record that exists (made by hand):
/// the record (or the path) that landed has its event once, one that did
/// not has none; the next `artifact init` then records it once.
#[test]
fn an_artifact_init_killed_at_any_write_has_its_event_exactly_once_after_recover() {
    // (workflow state, artifact, the event, its journal's steps)
    let cases: [(&str, &str, &str, usize); 3] = [
        ("TESTING", "VERIFICATION", "record-created", 2),
        ("ARCHITECTING", "ARCHITECTURE", "record-created", 3),
        ("ARCHITECTING", "ARCHITECTURE", "record-path-recorded", 2),
    ];
    let mut landed_kills = 0;
    for (case, (ws, artifact, kind, steps)) in cases.into_iter().enumerate() {
        let p = Project::brown();
        let id = p.start_cycle(ws, "STANDARD", "FULL_DELIVERABLE");
        p.commit("cycle");
        let original = read(p.path(STATE));
        let record = match artifact {
            "VERIFICATION" => format!(".standards/docs/verification/{id}.md"),
            _ => format!(".standards/docs/specs/{id}.md"),
        };
        let named = |state: &str| state.contains(&format!("`Architecture`: `{record}`"));
        for point in points("artifact-init", steps, 1) {
            // Back to the start: no record (or, for the third case, the
            // record made beforehand with its field still `NONE`), STATE.md
            // as committed.
            let _ = std::fs::remove_file(p.path(&record));
            write(p.path(STATE), &original);
            if case == 2 {
                p.init(&[artifact]);
                write(p.path(STATE), &original);
            }
            let before = count(&p.env, &p.root, kind);
            assert!(
                killed(&p.env, &p.root, &["artifact", "init", artifact], &point),
                "case {case}: {point} was never reached"
            );
            p.run(&["recover"]).success();
            clean(&p.root, &point);
            let state = read(p.path(STATE));
            let landed = match case {
                0 => p.path(&record).is_file(),
                _ => named(&state),
            };
            if case == 1 {
                assert_eq!(landed, p.path(&record).is_file(), "{point}: a mixed state");
            }
            landed_kills += usize::from(landed);
            assert_eq!(
                count(&p.env, &p.root, kind),
                before + usize::from(landed),
                "case {case}: {point}"
            );
            // The next init completes it, with its event once in all.
            p.init(&[artifact]);
            assert_eq!(
                count(&p.env, &p.root, kind),
                before + 1,
                "case {case}: {point}: the re-run"
            );
        }
    }
    assert!(landed_kills >= 9, "{landed_kills}");
}

/// Points `refs/notes/standards` at a blob: every append then fails.
fn break_the_trail(env: &Env, repo: &Path) {
    let blob = env.git(repo, &["hash-object", "-w", ".standards/STATE.md"]);
    env.git(repo, &["update-ref", "refs/notes/standards", blob.trim()]);
}

/// Item 5: an operation whose event cannot be recorded never exits 0. An
/// `artifact init` is undone and refused (exit 1, no record, STATE.md as
/// it was, no journal); a reinstall likewise changes nothing; `cycle new`
/// prints no ID. (Before, each exited 0 with a printed warning.)
#[test]
fn no_writer_exits_0_when_its_event_cannot_be_recorded() {
    let p = Project::brown();
    let id = p.start_cycle("ARCHITECTING", "STANDARD", "FULL_DELIVERABLE");
    p.commit("cycle");
    let record = format!(".standards/docs/specs/{id}.md");
    let original = read(p.path(STATE));
    break_the_trail(&p.env, &p.root);
    let a = p.run(&["artifact", "init", "ARCHITECTURE"]).code(1);
    let e = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
    assert!(e.contains("could not be recorded"), "{e}");
    assert!(e.contains("nothing was changed"), "{e}");
    assert!(!p.path(&record).exists(), "the record was undone");
    assert_eq!(read(p.path(STATE)), original);
    clean(&p.root, "artifact init");
    let version = read(p.path(VERSION));
    p.write(
        VERSION,
        setup_install::version_json(setup_install::Version(0, 0, 1)),
    );
    let a = p.run(&["install"]).code(1);
    let e = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
    assert!(e.contains("could not be recorded"), "{e}");
    assert_ne!(read(p.path(VERSION)), version, "the upgrade was undone");
    clean(&p.root, "install");
    // `cycle new` needs no active cycle.
    let q = Project::brown();
    break_the_trail(&q.env, &q.root);
    let a = q.run(&["cycle", "new", "--request", "More"]).code(1);
    let e = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
    assert!(e.contains("could not be recorded"), "{e}");
    assert_eq!(String::from_utf8_lossy(&a.get_output().stdout), "");
}

/// Item 5: a `refs/notes/standards.lock` left by a process that is gone
/// (older than any live git's): `artifact init` and `cycle new` refuse
/// (exit 1, nothing written) naming `git standards recover`, which removes
/// it; then both record their events.
#[test]
fn a_stale_notes_lock_refuses_writers_until_recover() {
    let stale_lock = |p: &Project| {
        let lock = p.root.join(".git/refs/notes/standards.lock");
        write(&lock, "");
        let old = std::time::SystemTime::now() - std::time::Duration::from_secs(60);
        std::fs::File::options()
            .write(true)
            .open(&lock)
            .unwrap()
            .set_modified(old)
            .unwrap();
        lock
    };
    let refused = |p: &Project, args: &[&str]| {
        let a = p.run(args).code(1);
        let e = String::from_utf8_lossy(&a.get_output().stderr).into_owned();
        assert!(e.contains("by a process that is gone"), "{args:?}: {e}");
        assert!(e.contains("git standards recover"), "{args:?}: {e}");
        assert_eq!(String::from_utf8_lossy(&a.get_output().stdout), "");
    };
    // `cycle new`, before any cycle.
    let q = Project::brown();
    let lock = stale_lock(&q);
    refused(&q, &["cycle", "new", "--request", "More"]);
    q.run(&["recover"]).success();
    assert!(!lock.exists());
    q.run(&["cycle", "new", "--request", "More"]).success();
    assert_eq!(count(&q.env, &q.root, "cycle-id-issued"), 1);
    // `artifact init`, in a cycle.
    let p = Project::brown();
    let id = p.start_cycle("TESTING", "STANDARD", "FULL_DELIVERABLE");
    p.commit("cycle");
    let record = format!(".standards/docs/verification/{id}.md");
    let lock = stale_lock(&p);
    refused(&p, &["artifact", "init", "VERIFICATION"]);
    assert!(!p.path(&record).exists());
    clean_journal(&p.root);
    p.run(&["recover"]).success();
    assert!(!lock.exists());
    p.init(&["VERIFICATION"]);
    assert_eq!(count(&p.env, &p.root, "record-created"), 1);
}

/// No journal is left (the notes lock aside).
fn clean_journal(repo: &Path) {
    let left: Vec<String> = std::fs::read_dir(repo.join(".git/standards"))
        .map(|d| {
            d.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .filter(|n| n.starts_with("journal") && n != "journal.lock")
                .collect()
        })
        .unwrap_or_default();
    assert!(left.is_empty(), "{left:?}");
}

/// Item 5's exception: the stop hook's exit status is read by the agent
/// clients, so an audit failure never changes it (a block stays 2) and
/// is printed on stderr with the event, so that it is not lost.
#[test]
fn the_stop_hook_keeps_its_exit_status_and_prints_an_unrecorded_event() {
    let p = Project::brown();
    p.commit("install");
    p.write(".standards/MODE.md", "`ProjectMode`: `HYBRID`\n");
    break_the_trail(&p.env, &p.root);
    std::fs::create_dir_all(p.env.dir.path().join("tmp")).unwrap();
    let mut cmd = p.env.cmd(&p.root);
    cmd.args(["hook", "stop"])
        .env("TMPDIR", p.env.dir.path().join("tmp"));
    let out = assert_cmd::Command::from_std(cmd)
        .write_stdin(r#"{"stop_hook_active": false}"#)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(e.contains("the audit event could not be recorded"), "{e}");
    let json = e
        .lines()
        .find_map(|l| l.strip_prefix("warning: the event, so that it is not lost: "))
        .expect("the event is printed");
    let v: serde_json::Value = serde_json::from_str(json).unwrap();
    assert_eq!(v["event"], "check-failed");
}

/// Item 5 for the writers that cannot journal their event: `hooks install`
/// and `hooks uninstall` (git's hook folder and config) and `recover` (the
/// journal it finishes is the one being recovered) fail with exit 1 when
/// their event cannot be recorded, saying what was done and printing the
/// event. (Before, each exited 0 with a warning.)
#[test]
fn hooks_and_recover_fail_when_their_event_cannot_be_recorded() {
    let p = Project::brown();
    p.commit("install");
    break_the_trail(&p.env, &p.root);
    let said = |a: &assert_cmd::assert::Assert| {
        String::from_utf8_lossy(&a.get_output().stderr).into_owned()
    };
    let a = p.run(&["hooks", "install"]).code(1);
    let e = said(&a);
    assert!(
        e.contains("the hooks were installed, but its audit event could not be recorded"),
        "{e}"
    );
    assert!(e.contains("the event, so that it is not lost: {"), "{e}");
    assert!(
        p.path(".git/hooks/pre-commit").is_file(),
        "the hooks stay installed"
    );
    let a = p.run(&["hooks", "uninstall"]).code(1);
    assert!(
        said(&a).contains("the hooks were removed, but"),
        "{}",
        said(&a)
    );
    // An `archive restore` killed with its journal in place, then `recover`
    // with the trail broken: its `archive-restored` event is a step of the
    // journal, so the journal stays until the event can be recorded.
    let (env, repo) = crate::transitions::f_std(&[("WorkflowState", "TESTING")]);
    env.run(&repo, &["reset", "--yes"]).success();
    let _ = std::fs::remove_dir_all(repo.join(".standards/docs"));
    let name = "add-user-search-20260927T190146Z-7bef0f04";
    assert!(killed(
        &env,
        &repo,
        &["archive", "restore", name, ".standards/docs"],
        "archive-restore:step-applied@1"
    ));
    let trail = env.git(&repo, &["rev-parse", "refs/notes/standards"]);
    break_the_trail(&env, &repo);
    let a = env.run(&repo, &["recover"]).code(1);
    let e = said(&a);
    assert!(e.contains("the journal stays until it can be"), "{e}");
    env.git(&repo, &["update-ref", "refs/notes/standards", trail.trim()]);
    env.run(&repo, &["recover"]).success();
    clean_journal(&repo);
    assert!(
        repo.join(".standards/docs").is_dir(),
        "the restore was completed"
    );
    let log = env.run(&repo, &["log", "--json"]).success();
    let log = String::from_utf8_lossy(&log.get_output().stdout).into_owned();
    assert_eq!(
        log.matches("\"event\":\"archive-restored\"").count(),
        1,
        "{log}"
    );
}
