//! `git standards record add|set` and `artifact init --set|--skeleton`: the
//! structural record edits the tool owns (issue 25), driven through the real
//! binary, with `check`, `git` and a hand edit as witnesses.

use crate::common::{stderr, stdout};
use crate::fixture::{Project, STATE};

fn events(p: &Project) -> Vec<serde_json::Value> {
    let a = p.run(&["log", "--json"]).success();
    stdout(&a)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|e: &serde_json::Value| e["event"] == "record-edited")
        .collect()
}

fn problems(p: &Project) -> Vec<(String, String)> {
    let a = p.run(&["check", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&a)).unwrap();
    v["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["rule"].as_str().unwrap().to_string(),
                p["message"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn init_sets_header_values_and_writes_a_skeleton_that_check_reports_until_replaced() {
    let p = Project::brown();
    p.start_cycle("DEVELOPING", "STANDARD", "FULL_DELIVERABLE");
    let plan = p.init(&[
        "DEVELOPMENT",
        "--set",
        "Mode=AUTONOMOUS",
        "--set",
        "Status=PROPOSED",
        "--set",
        "User Style=NONE",
        "--set",
        "User Style Locked=false",
        "--skeleton",
    ]);
    let text = p.read(&plan);
    assert!(text.contains("`Mode`: `AUTONOMOUS`") && text.contains("`Status`: `PROPOSED`"));
    assert!(
        text.contains("### DEV-001 — <concise implementation outcome>"),
        "{text}"
    );
    assert!(text.contains("- `Request`: `Add user search`"), "{text}");
    let found = problems(&p);
    assert!(
        found
            .iter()
            .any(|(r, m)| r == "PR-049" && m.contains("<concise implementation outcome>")),
        "{found:?}"
    );
    // The agent replaces the placeholders: PR-049 goes away.
    p.write(
        &plan,
        text.replace("<concise implementation outcome>", "Search by name")
            .replace("<AC-NNN, ... | EXPEDITED_REQUEST>", "AC-001"),
    );
    assert!(!problems(&p).iter().any(|(r, _)| r == "PR-049"));
}

#[test]
fn init_set_is_validated_against_the_record_type() {
    let p = Project::brown();
    p.start_cycle("DEVELOPING", "STANDARD", "FULL_DELIVERABLE");
    let before = p.snapshot();
    let e = p.usage_error(&["artifact", "init", "DEVELOPMENT", "--set", "Mode=FAST"]);
    assert!(
        e.contains("`Mode`") && e.contains("`STEPWISE`") && e.contains("DEVELOPMENT"),
        "{e}"
    );
    let e = p.usage_error(&["artifact", "init", "DEVELOPMENT", "--set", "Severity=P1"]);
    assert!(
        e.contains("no field `Severity`") && e.contains("`Verification Cadence`"),
        "{e}"
    );
    let e = p.usage_error(&["artifact", "init", "SCOPE", "--set", "Status=X"]);
    assert!(e.contains("SCOPE record has no header fields"), "{e}");
    let e = p.usage_error(&["artifact", "init", "DEVELOPMENT", "--set", "Mode"]);
    assert!(e.contains("`Field=VALUE`"), "{e}");
    assert_eq!(p.snapshot(), before);
    // On an existing record --set changes nothing and names `record set`.
    let plan = p.init(&["DEVELOPMENT"]);
    let before = p.snapshot();
    let e = p.refused(&["artifact", "init", "DEVELOPMENT", "--set", "Mode=STEPWISE"]);
    assert!(
        e.contains("already exists") && e.contains(&format!("record set {plan}")),
        "{e}"
    );
    assert_eq!(p.snapshot(), before);
}

#[test]
fn add_numbers_like_id_next_and_keeps_every_other_byte() {
    let p = Project::brown();
    let id = p.start_cycle("REVIEWING_IMPLEMENTATION", "STANDARD", "FULL_DELIVERABLE");
    let report = p.init(&["REVIEW", "--kind", "IMPLEMENTATION"]);
    p.append(&report, "\n## Findings\n\n### F-001 — old\n\n`Severity`: `P2` `Status`: `RESOLVED` `Owner`: `Developer` `FailureType`: `IMPLEMENTATION`\n\n## Progress and Conclusion\n\nHand-written ✓ text.\n");
    p.commit("report");
    let expected = p.line(&["id", "next", "F", &report]);
    let before = p.read(&report);
    let a = p
        .run(&[
            "record",
            "add",
            &report,
            "F",
            "--title",
            "Search ignores case",
            "--set",
            "Severity=P1",
            "--set",
            "Owner=Developer",
            "--set",
            "FailureType=IMPLEMENTATION",
        ])
        .success();
    assert_eq!(stdout(&a).trim(), expected);
    assert_eq!(expected, "F-002");
    let after = p.read(&report);
    let at = after.find("\n\n### F-002").unwrap();
    assert_eq!(&after[..at], &before[..at]);
    assert!(after.ends_with("\n\n## Progress and Conclusion\n\nHand-written ✓ text.\n"));
    assert!(after.contains("### F-002 — Search ignores case\n\n`Severity`: `P1` `Status`: `OPEN` `Owner`: `Developer`\n`FailureType`: `IMPLEMENTATION`"));
    // git sees one change, to the report only.
    let changed = p.env.git(&p.root, &["status", "--porcelain"]);
    assert_eq!(changed.trim(), format!("M {report}"));
    // Its event names the item.
    let e = events(&p);
    assert_eq!(e.len(), 1);
    assert_eq!(e[0]["item"], "F-002");
    assert_eq!(e[0]["edit"], "add");
    assert_eq!(e[0]["cycle"], id.as_str());
    // The open finding is what check reads: completing the report is refused by PR-045.
    p.run(&[
        "record",
        "set",
        &report,
        "Status=COMPLETE",
        "User Style=NONE",
    ])
    .success();
    assert!(problems(&p)
        .iter()
        .any(|(r, m)| r == "PR-045" && m.contains("F-002")));
    p.run(&["record", "set", &report, "F-002", "Status=RESOLVED"])
        .success();
    assert!(!problems(&p).iter().any(|(r, _)| r == "PR-045"));
}

#[test]
fn set_flips_statuses_validated_against_the_vocabulary() {
    let p = Project::brown();
    p.start_cycle("DEVELOPING", "EXPEDITED", "NONE");
    let plan = p.init(&["DEVELOPMENT", "--skeleton"]);
    let text = p.read(&plan);
    assert!(text.contains("`Acceptance`: `EXPEDITED_REQUEST`"), "{text}");
    p.run(&[
        "record",
        "add",
        &plan,
        "DEV",
        "--title",
        "Index",
        "--set",
        "Depends On=DEV-001",
    ])
    .success();
    let before = p.snapshot();
    let e = p.usage_error(&["record", "set", &plan, "DEV-002", "Status=FINISHED"]);
    assert!(
        e.contains("`PENDING`, `IN_PROGRESS`, `DONE`") && e.contains("development step"),
        "{e}"
    );
    let e = p.usage_error(&["record", "set", &plan, "DEV-002", "Colour=red"]);
    assert!(
        e.contains("no field `Colour`") && e.contains("`Depends On`"),
        "{e}"
    );
    let e = p.usage_error(&["record", "set", &plan, "Status=SHIPPED"]);
    assert!(e.contains("`APPROVED`") && e.contains("DEVELOPMENT"), "{e}");
    let e = p.refused(&["record", "set", &plan, "DEV-007", "Status=DONE"]);
    assert!(
        e.contains("no development step `DEV-007`") && e.contains("record add"),
        "{e}"
    );
    let e = p.refused(&["record", "set", &plan, "F-001", "Status=RESOLVED"]);
    assert!(e.contains("REVIEW"), "{e}");
    assert_eq!(p.snapshot(), before);
    assert!(events(&p).len() == 1);

    // --dry-run shows the diff and writes nothing.
    let a = p
        .run(&[
            "record",
            "set",
            &plan,
            "DEV-002",
            "Status=IN_PROGRESS",
            "--dry-run",
        ])
        .success();
    assert!(
        stdout(&a).contains("+`Status`: `IN_PROGRESS` `Depends On`: `DEV-001`"),
        "{}",
        stdout(&a)
    );
    assert!(stderr(&a).contains("Dry run"));
    assert_eq!(p.snapshot(), before);

    let a = p
        .run(&["record", "set", &plan, "DEV-002", "Status=DONE", "--json"])
        .success();
    let v: serde_json::Value = serde_json::from_str(stdout(&a).trim()).unwrap();
    assert_eq!(v["ok"], true);
    assert_eq!(v["changes"][0]["old"], "PENDING");
    assert_eq!(v["changes"][0]["new"], "DONE");
    let steps = standards_core::records::plan::steps(&p.read(&plan));
    assert_eq!(steps[0].status(), Some("PENDING"));
    assert_eq!(steps[1].status(), Some("DONE"));
    // The same value again changes nothing and journals no event.
    let n = events(&p).len();
    let a = p
        .run(&["record", "set", &plan, "DEV-002", "Status=DONE"])
        .success();
    assert!(stdout(&a).contains("nothing changed"));
    assert_eq!(events(&p).len(), n);
    let last = events(&p).pop().unwrap();
    assert_eq!(last["changes"][0]["field"], "Status");
}

#[test]
fn refusals_print_json_and_change_nothing() {
    let p = Project::brown();
    p.start_cycle("DEVELOPING", "STANDARD", "FULL_DELIVERABLE");
    let plan = p.init(&["DEVELOPMENT"]);
    let before = p.snapshot();
    for args in [
        vec![
            "record",
            "add",
            "../outside.md",
            "DEV",
            "--title",
            "x",
            "--json",
        ],
        vec!["record", "add", STATE, "DEV", "--title", "x", "--json"],
        vec![
            "record",
            "add",
            ".git/config",
            "DEV",
            "--title",
            "x",
            "--json",
        ],
        vec!["record", "add", &plan, "AC", "--title", "x", "--json"],
        vec!["record", "set", &plan, "Cycle=other", "--json"],
        vec!["record", "set", &plan, "nonsense", "--json"],
    ] {
        let a = p.run(&args);
        let code = a.get_output().status.code().unwrap();
        assert!(code == 1 || code == 2, "{args:?}: {code}");
        let v: serde_json::Value = serde_json::from_str(stdout(&a).trim())
            .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", stdout(&a)));
        assert_eq!(v["ok"], false, "{args:?}");
        assert!(v["error"].as_str().is_some_and(|e| !e.is_empty()));
    }
    assert_eq!(p.snapshot(), before);
}

#[test]
fn items_inside_a_fenced_block_are_refused_naming_the_file() {
    let p = Project::brown();
    p.start_cycle("DEVELOPING", "STANDARD", "FULL_DELIVERABLE");
    let plan = p.init(&["DEVELOPMENT", "--skeleton"]);
    p.run(&["record", "set", &plan, "DEV-001", "Status=IN_PROGRESS"])
        .success();
    // A hand edit leaves a fence open above the steps: it runs to the end
    // of the file, so DEV-001 is now part of a code block.
    let text = p.read(&plan);
    let at = text.find("## Build Steps").unwrap();
    p.write(
        &plan,
        format!(
            "{}```text\nan example left open\n\n{}",
            &text[..at],
            &text[at..]
        ),
    );
    let before = p.snapshot();
    let n = events(&p).len();
    let e = p.refused(&["record", "set", &plan, "DEV-001", "Status=DONE"]);
    assert!(
        e.contains(&format!("cannot edit `{plan}`"))
            && e.contains("`### DEV-001` sits inside a fenced code block")
            && e.contains("never closed"),
        "{e}"
    );
    let e = p.refused(&["record", "add", &plan, "DEV", "--title", "More"]);
    assert!(
        e.contains(&format!("cannot edit `{plan}`")) && e.contains("would land inside"),
        "{e}"
    );
    let a = p.run(&["record", "add", &plan, "DEV", "--title", "More", "--json"]);
    assert_eq!(a.get_output().status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_str(stdout(&a).trim()).unwrap();
    assert_eq!(v["ok"], false);
    assert!(v["error"].as_str().unwrap().contains(&plan), "{v}");
    // Nothing written, no event.
    assert_eq!(p.snapshot(), before);
    assert_eq!(events(&p).len(), n);
    // Closing the fence (the hint's hand edit) makes both work again.
    let text = p.read(&plan);
    p.write(
        &plan,
        text.replace("an example left open\n", "an example left open\n```\n"),
    );
    p.run(&["record", "set", &plan, "DEV-001", "Status=DONE"])
        .success();
    p.run(&["record", "add", &plan, "DEV", "--title", "More"])
        .success();
    let steps = standards_core::records::plan::steps(&p.read(&plan));
    assert_eq!(steps.len(), 2);
    assert_eq!(steps[0].status(), Some("DONE"));
}

#[cfg(unix)]
#[test]
fn a_record_reached_through_a_link_is_refused() {
    let p = Project::brown();
    p.start_cycle("DEVELOPING", "STANDARD", "FULL_DELIVERABLE");
    let plan = p.init(&["DEVELOPMENT"]);
    std::os::unix::fs::symlink(p.path(&plan), p.path(".standards/docs/link.md")).unwrap();
    let before = p.read(&plan);
    let e = p.refused(&[
        "record",
        "set",
        ".standards/docs/link.md",
        "Status=PROPOSED",
    ]);
    assert!(e.contains("symbolic link"), "{e}");
    assert_eq!(p.read(&plan), before);
}

#[test]
fn edits_are_refused_during_a_merge_conflict_in_standards() {
    let p = Project::brown();
    p.start_cycle("DEVELOPING", "STANDARD", "FULL_DELIVERABLE");
    let plan = p.init(&["DEVELOPMENT"]);
    p.commit("plan");
    p.env.git(&p.root, &["checkout", "-q", "-b", "other"]);
    p.set_state(&[("BlockedOn", "Which index?")]);
    p.commit("other");
    p.env.git(&p.root, &["checkout", "-q", "main"]);
    p.set_state(&[("BlockedOn", "Which database?")]);
    p.commit("main");
    let _ = p.env.git_status(&p.root, &["merge", "-q", "other"]);
    let before = p.read(&plan);
    let e = p.refused(&["record", "set", &plan, "Status=PROPOSED"]);
    assert!(e.contains("conflict"), "{e}");
    assert_eq!(p.read(&plan), before);
}

/// The hint of `artifact init --set` on an existing record runs as written
/// once its placeholders are given values.
#[test]
fn the_existing_record_hint_runs() {
    let p = Project::brown();
    p.start_cycle("SYNCHRONIZING", "STANDARD", "FULL_DELIVERABLE");
    let record = p.init(&["SYNCHRONIZATION"]);
    let e = p.refused(&[
        "artifact",
        "init",
        "SYNCHRONIZATION",
        "--set",
        "Status=IN_PROGRESS",
    ]);
    let hint = e.split("hint: ").nth(1).unwrap();
    let commands: Vec<&str> = hint
        .split('`')
        .filter(|s| s.starts_with("git standards "))
        .collect();
    assert_eq!(commands.len(), 2, "{hint}");
    let set = commands[0].replace("Field=VALUE", "Status=IN_PROGRESS");
    let add = commands[1]
        .replace("<PREFIX>", "D")
        .replace("\"<text>\"", "Stale-link");
    for command in [set, add] {
        let words: Vec<&str> = command
            .trim_start_matches("git standards ")
            .split(' ')
            .collect();
        p.run(&words).success();
    }
    let text = p.read(&record);
    assert!(
        text.contains("`Status`: `IN_PROGRESS`") && text.contains("### D-001 — Stale-link"),
        "{text}"
    );
}

/// A `record set` killed at every durable write (the journal's staging and
/// appearance, each step's application and record, the notes ref's lock
/// inside the event, the journal's removal), then `recover`: the record is
/// either as before or as edited, byte for byte, and an edit that landed has
/// its `record-edited` event exactly once; one that did not has none.
#[test]
fn a_record_set_killed_at_any_write_has_its_event_exactly_once_after_recover() {
    use crate::serialise::{events, killed};
    let p = Project::brown();
    p.start_cycle("DEVELOPING", "EXPEDITED", "NONE");
    let plan = p.init(&["DEVELOPMENT", "--skeleton"]);
    p.commit("plan");
    let original = p.read(&plan);
    let edited = original.replacen("`Status`: `PENDING`", "`Status`: `DONE`", 1);
    assert_ne!(original, edited);
    let count = || {
        events(&p.env, &p.root)
            .iter()
            .filter(|e| e["event"] == "record-edited")
            .count()
    };
    let mut points: Vec<String> = ["journal-staged", "journal-begun", "journal-closing"]
        .iter()
        .map(|s| format!("record-edit:{s}"))
        .collect();
    for n in 1..=2 {
        points.push(format!("record-edit:step-applied@{n}"));
        points.push(format!("record-edit:step-recorded@{n}"));
    }
    points.push("audit:ref-locked@1".to_string());
    let mut landed_kills = 0;
    for point in &points {
        p.write(&plan, &original);
        let before = count();
        assert!(
            killed(
                &p.env,
                &p.root,
                &["record", "set", &plan, "DEV-001", "Status=DONE"],
                point
            ),
            "{point} was never reached"
        );
        p.run(&["recover"]).success();
        let now = p.read(&plan);
        assert!(
            now == original || now == edited,
            "{point}: a mixed record:\n{now}"
        );
        let landed = now == edited;
        landed_kills += usize::from(landed);
        assert_eq!(count(), before + usize::from(landed), "{point}");
        assert!(
            !p.path(".git/standards/journal").exists(),
            "{point}: the journal is left"
        );
    }
    assert!(landed_kills >= 3, "{landed_kills}");
}
