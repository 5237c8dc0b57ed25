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

use git_standards::commands::install;

use crate::common::{read, write, Env};
use crate::fixture::Project;

const STATE: &str = ".standards/STATE.md";
const VERSION: &str = ".standards/VERSION.json";

/// Every event of the trail, parsed (none before the first one).
fn events(env: &Env, repo: &Path) -> Vec<serde_json::Value> {
    let a = env.run(repo, &["log", "--json"]).success();
    String::from_utf8_lossy(&a.get_output().stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// How many events of `kind` the trail holds.
fn count(env: &Env, repo: &Path, kind: &str) -> usize {
    events(env, repo)
        .iter()
        .filter(|e| e["event"] == kind)
        .count()
}

/// Runs `args` armed to die at `point`; whether it was killed there.
fn killed(env: &Env, repo: &Path, args: &[&str], point: &str) -> bool {
    let out = env
        .cmd(repo)
        .args(args)
        .env("GIT_STANDARDS_FAILPOINT", point)
        .output()
        .unwrap();
    match out.status.code() {
        None => true,
        Some(0) => false,
        Some(c) => panic!(
            "{args:?} at {point}: exit {c}: {}",
            String::from_utf8_lossy(&out.stderr)
        ),
    }
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
        p.write(VERSION, install::version_json(install::Version(0, 0, 1)));
        let _ = std::fs::remove_dir_all(p.path(".standards/protocol"));
        p.commit("an older version");
        p
    };
    let probe = upgradable();
    let steps = steps_of(&probe.env, &probe.root, &["install"], "install");
    let current = install::version_json(install::Version::current());
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
