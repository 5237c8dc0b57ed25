//! `git standards artifact init` (scenarios SC-ART, RT §3, RF §6, §7).

use crate::common::stderr;
use crate::fixture::{snapshot, Project, STATE};

/// SC-ART-001: the verification report, with its embedded header.
#[test]
fn sc_art_001_creates_the_verification_report() {
    let p = Project::brown();
    let id = p.start_cycle("TESTING", "STANDARD", "FULL_DELIVERABLE");
    let path = p.init(&["VERIFICATION"]);
    assert_eq!(path, format!(".standards/docs/verification/{id}.md"));
    let text = p.read(&path);
    assert!(
        text.starts_with(&format!(
            "<!-- STANDARDS\nArtifact: VERIFICATION\nCycle: {id}\n-->\n\n# Verification Report\n"
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!("`Cycle`: `{id}` `Mode`: `VERIFY | REVERIFY`")),
        "{text}"
    );
    assert_eq!(
        text,
        standards_core::assets::new_record(
            standards_core::model::vocab::ArtifactType::Verification,
            None,
            &id
        )
    );
    assert!(text.ends_with("`Assessment Target`: `NONE`\n"), "{text:?}");
}

/// SC-ART-002: a re-run prints the same path and leaves the file byte-identical.
#[test]
fn sc_art_002_rerun_is_idempotent() {
    let p = Project::brown();
    p.start_cycle("TESTING", "STANDARD", "FULL_DELIVERABLE");
    let path = p.init(&["VERIFICATION"]);
    p.append(&path, "\n## Acceptance Evidence\n| AC-001 | t | passed |\n");
    let before = p.snapshot();
    assert_eq!(p.init(&["VERIFICATION"]), path);
    assert_eq!(p.snapshot(), before);
}

/// SC-ART-003: the final-deliverable review carries its kind twice.
#[test]
fn sc_art_003_final_deliverable_review() {
    let p = Project::brown();
    let id = p.start_cycle("REVIEWING_FINAL", "STANDARD", "FULL_DELIVERABLE");
    let path = p.init(&["REVIEW", "--kind", "FINAL_DELIVERABLE"]);
    assert_eq!(
        path,
        format!(".standards/docs/reviews/{id}/final-deliverable.md")
    );
    let text = p.read(&path);
    assert!(text.starts_with(&format!(
        "<!-- STANDARDS\nArtifact: REVIEW\nCycle: {id}\nReviewKind: FINAL_DELIVERABLE\n-->\n"
    )));
    assert!(
        text.contains(&format!(
            "`Cycle`: `{id}` `ReviewKind`: `FINAL_DELIVERABLE`"
        )),
        "{text}"
    );
    // `--kind=VALUE` works too, and the other kind has its own file.
    let other = p.init(&["REVIEW", "--kind=IMPLEMENTATION"]);
    assert_eq!(
        other,
        format!(".standards/docs/reviews/{id}/implementation.md")
    );
}

/// SC-ART-004 and SC-ART-007, plus the other argument rules of RT §3.1
/// (usage errors exit 2 here).
#[test]
fn sc_art_004_and_007_usage_errors() {
    let p = Project::brown();
    p.start_cycle("REVIEWING_IMPLEMENTATION", "STANDARD", "FULL_DELIVERABLE");
    let before = p.snapshot();
    let err = p.usage_error(&["artifact", "init", "REVIEW"]);
    assert!(
        err.contains("REVIEW needs `--kind IMPLEMENTATION` or `--kind FINAL_DELIVERABLE`"),
        "{err}"
    );
    // SC-ART-007: no custom directory option.
    let err = p.usage_error(&["artifact", "init", "DEVELOPMENT", "--dir", "plans"]);
    assert!(err.contains("--dir"), "{err}");
    // `--kind` only for REVIEW, checked before the value.
    for kind in ["IMPLEMENTATION", "BOGUS"] {
        let err = p.usage_error(&["artifact", "init", "SCOPE", "--kind", kind]);
        assert!(err.contains("`--kind` is only for REVIEW"), "{err}");
    }
    let err = p.usage_error(&["artifact", "init", "REVIEW", "--kind", "bogus"]);
    assert!(err.contains("not a review kind"), "{err}");
    for args in [
        &["artifact"][..],
        &["artifact", "init"],
        &["artifact", "create", "SCOPE"],
        &["artifact", "init", "PLAN"],
        &["artifact", "init", "REVIEW", "--kind"],
        &[
            "artifact",
            "init",
            "REVIEW",
            "--kind",
            "IMPLEMENTATION",
            "--kind",
            "IMPLEMENTATION",
        ],
        &["artifact", "init", "SCOPE", "ARCHITECTURE"],
    ] {
        p.usage_error(args);
    }
    assert_eq!(p.snapshot(), before, "nothing written");
}

/// SC-ART-005: a scope record is the provenance block alone.
#[test]
fn sc_art_005_scope_is_the_block_alone() {
    let p = Project::brown();
    let id = p.start_cycle("SCOPING", "STANDARD", "FULL_DELIVERABLE");
    let path = p.init(&["SCOPE"]);
    assert_eq!(path, format!(".standards/docs/scope/{id}.md"));
    assert_eq!(
        p.read(&path),
        format!("<!-- STANDARDS\nArtifact: SCOPE\nCycle: {id}\n-->\n")
    );
    let design = p.init(&["ARCHITECTURE"]);
    assert_eq!(design, format!(".standards/docs/specs/{id}.md"));
    assert_eq!(
        p.read(&design),
        format!("<!-- STANDARDS\nArtifact: ARCHITECTURE\nCycle: {id}\n-->\n")
    );
}

/// SC-ART-006: the development plan.
#[test]
fn sc_art_006_development_plan() {
    let p = Project::brown();
    let id = p.start_cycle("DEVELOPING", "STANDARD", "FULL_DELIVERABLE");
    let path = p.init(&["DEVELOPMENT"]);
    assert_eq!(path, format!(".standards/docs/development/{id}.md"));
    let text = p.read(&path);
    assert!(text.contains("\n# Development Plan\n"), "{text}");
    assert!(text.contains(&format!(
        "`Cycle`: `{id}` `Mode`: `AUTONOMOUS | STEPWISE | CODE_WITH_ME`"
    )));
}

/// SC-ART-008: no active cycle.
#[test]
fn sc_art_008_refuses_without_an_active_cycle() {
    let p = Project::brown();
    let before = p.snapshot();
    let err = p.refused(&["artifact", "init", "SCOPE"]);
    assert!(err.contains("no active cycle"), "{err}");
    assert!(err.contains("hint: start a cycle first"), "{err}");
    assert_eq!(p.snapshot(), before);
    // An ended cycle is not active either.
    p.start_cycle("SCOPING", "STANDARD", "FULL_DELIVERABLE");
    p.set_state(&[("WorkflowState", "CANCELLED"), ("CycleMode", "UNSET")]);
    let err = p.refused(&["artifact", "init", "SCOPE"]);
    assert!(
        err.contains("no active cycle") && err.contains("CANCELLED"),
        "{err}"
    );
}

/// SC-ART-009: an unmarked file at the path is a collision and stays unchanged.
#[test]
fn sc_art_009_collision_with_an_unmarked_file() {
    let p = Project::brown();
    let id = p.start_cycle("TESTING", "STANDARD", "FULL_DELIVERABLE");
    let path = format!(".standards/docs/verification/{id}.md");
    p.write(&path, "# Notes kept by the team\n");
    let err = p.refused(&["artifact", "init", "VERIFICATION"]);
    assert!(
        err.contains(&path) && err.contains("no STANDARDS provenance block"),
        "{err}"
    );
    assert!(
        err.contains("left unchanged") && err.contains("collision"),
        "{err}"
    );
    assert_eq!(p.read(&path), "# Notes kept by the team\n");
}

#[test]
fn other_collisions_are_named_and_left_untouched() {
    let p = Project::brown();
    let id = p.start_cycle("TESTING", "STANDARD", "FULL_DELIVERABLE");
    let path = format!(".standards/docs/verification/{id}.md");
    for (content, expected) in [
        (
            "<!-- STANDARDS\nArtifact: VERIFICATION\nCycle: x\n".to_string(),
            "malformed",
        ),
        (
            "<!-- STANDARDS\nArtifact: VERIFICATION\nCycle: other-20260101T000000Z-00000000\n-->\n"
                .to_string(),
            "belongs to the cycle `other-20260101T000000Z-00000000`",
        ),
        (
            format!("<!-- STANDARDS\nArtifact: SCOPE\nCycle: {id}\n-->\n"),
            "is a SCOPE record",
        ),
    ] {
        p.write(&path, &content);
        let err = p.refused(&["artifact", "init", "VERIFICATION"]);
        assert!(err.contains(expected), "{err}");
        assert_eq!(p.read(&path), content);
    }
    // A different review kind at the implementation path.
    let review = format!(".standards/docs/reviews/{id}/implementation.md");
    let final_block = format!(
        "<!-- STANDARDS\nArtifact: REVIEW\nCycle: {id}\nReviewKind: FINAL_DELIVERABLE\n-->\n"
    );
    p.write(&review, &final_block);
    let err = p.refused(&["artifact", "init", "REVIEW", "--kind", "IMPLEMENTATION"]);
    assert!(
        err.contains("REVIEW/IMPLEMENTATION") && err.contains("FINAL_DELIVERABLE review"),
        "{err}"
    );
    assert_eq!(p.read(&review), final_block);
    // A folder at the path.
    std::fs::create_dir_all(p.path(&format!(".standards/docs/development/{id}.md"))).unwrap();
    let err = p.refused(&["artifact", "init", "DEVELOPMENT"]);
    assert!(err.contains("is a folder"), "{err}");
}

/// A records folder that links out of the repository: nothing is written
/// outside, and the error names the link.
#[test]
fn refuses_a_records_folder_that_is_a_symlink_out_of_the_repository() {
    let p = Project::brown();
    p.start_cycle("SCOPING", "STANDARD", "FULL_DELIVERABLE");
    let outside = p.env.dir.path().join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    std::os::unix::fs::symlink(&outside, p.path(".standards/docs")).unwrap();
    let before = p.snapshot();
    for args in [&["SCOPE"][..], &["REVIEW", "--kind", "FINAL_DELIVERABLE"]] {
        let mut all = vec!["artifact", "init"];
        all.extend_from_slice(args);
        let err = p.refused(&all);
        assert!(
            err.contains("`.standards/docs` is a symbolic link, not a normal folder"),
            "{err}"
        );
        assert!(err.contains("hint: "), "{err}");
    }
    assert!(snapshot(&outside).is_empty(), "nothing written outside");
    assert_eq!(p.snapshot(), before);

    // A link deeper down, to a folder inside the repository, is refused too.
    std::fs::remove_file(p.path(".standards/docs")).unwrap();
    std::fs::create_dir_all(p.path("elsewhere")).unwrap();
    std::fs::create_dir_all(p.path(".standards/docs")).unwrap();
    std::os::unix::fs::symlink(p.path("elsewhere"), p.path(".standards/docs/scope")).unwrap();
    let err = p.refused(&["artifact", "init", "SCOPE"]);
    assert!(
        err.contains("`.standards/docs/scope` is a symbolic link"),
        "{err}"
    );
    assert!(snapshot(&p.path("elsewhere")).is_empty());
}

#[test]
fn refuses_when_a_records_folder_is_a_file() {
    let p = Project::brown();
    let id = p.start_cycle("TESTING", "STANDARD", "FULL_DELIVERABLE");
    p.write(".standards/docs/verification", "not a folder\n");
    let before = p.snapshot();
    let err = p.refused(&["artifact", "init", "VERIFICATION"]);
    assert!(
        err.contains(&format!(
            "refusing to create `.standards/docs/verification/{id}.md`: `.standards/docs/verification` is not a normal folder"
        )),
        "{err}"
    );
    assert_eq!(p.snapshot(), before);
    // Other records are unaffected.
    p.init(&["SCOPE"]);
}

#[test]
fn a_symlink_at_the_record_path_is_left_alone() {
    let p = Project::brown();
    let id = p.start_cycle("SCOPING", "STANDARD", "FULL_DELIVERABLE");
    let outside = p.env.dir.path().join("outside.md");
    std::fs::create_dir_all(p.path(".standards/docs/scope")).unwrap();
    std::os::unix::fs::symlink(&outside, p.path(&format!(".standards/docs/scope/{id}.md")))
        .unwrap();
    let err = p.refused(&["artifact", "init", "SCOPE"]);
    assert!(err.contains("symbolic link"), "{err}");
    assert!(!outside.exists(), "nothing written through the link");
}

/// SC-ART-010: BOM, a double-backtick Request and a moved BlockedOn are all
/// structurally fine.
#[test]
fn sc_art_010_state_with_bom_code_span_request_and_moved_field() {
    let p = f_std();
    let state = p.state();
    let state = state.replace(
        "`Request`: `Add user search`",
        "`Request`: `` Add `user` search ``",
    );
    let state = state.replace("`BlockedOn`: `NONE` ", "");
    let state = state.replace(
        "`BaselineReconciliation`: `NONE`\n",
        "`BaselineReconciliation`: `NONE`\n\n`BlockedOn`: `NONE`\n",
    );
    assert!(state.contains("`` Add `user` search ``") && state.contains("\n`BlockedOn`: `NONE`\n"));
    p.write(STATE, format!("\u{feff}{state}"));
    let id = p.state_id();
    assert_eq!(
        p.init(&["DOCUMENTATION"]),
        format!(".standards/docs/documentation/{id}.md")
    );
}

/// SC-ART-011: the later records of a cycle whose implementation review exists.
#[test]
fn sc_art_011_later_records_after_the_implementation_review() {
    let p = f_std();
    let id = p.state_id();
    let review = p.init(&["REVIEW", "--kind", "IMPLEMENTATION"]);
    p.set(&review, "Status", "COMPLETE");
    p.append(&review, "\n## Findings\nAC-001 and AC-002 assessed.\n");
    p.set_state(&[("WorkflowState", "DOCUMENTING")]);
    assert_eq!(
        p.init(&["DOCUMENTATION"]),
        format!(".standards/docs/documentation/{id}.md")
    );
    assert_eq!(
        p.init(&["REVIEW", "--kind", "FINAL_DELIVERABLE"]),
        format!(".standards/docs/reviews/{id}/final-deliverable.md")
    );
    assert_eq!(
        p.init(&["SYNCHRONIZATION"]),
        format!(".standards/docs/synchronization/{id}.md")
    );
    assert!(p.read(&review).contains("AC-001 and AC-002 assessed."));
}

/// SC-ART-012: a DOCUMENTATION cycle omits three records; nothing is created.
#[test]
fn sc_art_012_documentation_cycles_omit_three_records() {
    let p = Project::brown();
    let id = p.start_cycle_for(
        "Document the existing greeting command.",
        "AUDITING",
        "DOCUMENTATION",
        "NONE",
    );
    let before = p.snapshot();
    for (args, label, path) in [
        (
            &["DEVELOPMENT"][..],
            "DEVELOPMENT",
            format!(".standards/docs/development/{id}.md"),
        ),
        (
            &["VERIFICATION"][..],
            "VERIFICATION",
            format!(".standards/docs/verification/{id}.md"),
        ),
        (
            &["REVIEW", "--kind", "IMPLEMENTATION"][..],
            "REVIEW/IMPLEMENTATION",
            format!(".standards/docs/reviews/{id}/implementation.md"),
        ),
    ] {
        let mut all = vec!["artifact", "init"];
        all.extend_from_slice(args);
        let err = p.refused(&all);
        assert!(
            err.contains("DOCUMENTATION cycle") && err.contains(label),
            "{err}"
        );
        assert!(err.contains("omits"), "{err}");
        assert!(!p.path(&path).exists());
    }
    assert_eq!(p.snapshot(), before);
}

#[test]
fn refuses_a_conflicted_or_invalid_or_missing_state() {
    let p = Project::brown();
    p.start_cycle("SCOPING", "STANDARD", "FULL_DELIVERABLE");
    let state = p.state();
    p.write(
        STATE,
        format!("<<<<<<< ours\n{state}=======\n{state}>>>>>>> theirs\n"),
    );
    let err = p.refused(&["artifact", "init", "SCOPE"]);
    assert!(err.contains("unresolved merge conflicts"), "{err}");
    p.write(STATE, state.replace("## Handoff", "## Hand-off"));
    let err = p.refused(&["artifact", "init", "SCOPE"]);
    assert!(err.starts_with("error: .standards/STATE.md:"), "{err}");
    assert!(err.contains("Handoff"), "{err}");
    std::fs::remove_file(p.path(STATE)).unwrap();
    let err = p.refused(&["artifact", "init", "SCOPE"]);
    assert!(err.contains("missing"), "{err}");
    assert!(!p.path(".standards/docs").exists());
}

#[test]
fn refuses_without_an_installed_runtime() {
    let (env, repo) = crate::common::Env::repo();
    let a = env.run(&repo, &["artifact", "init", "SCOPE"]).code(1);
    assert!(
        stderr(&a).contains("no installed STANDARDS runtime"),
        "{}",
        stderr(&a)
    );
}

#[test]
fn works_from_a_subdirectory_and_prints_the_path_from_there() {
    let p = Project::green();
    let id = p.start_cycle("SCOPING", "STANDARD", "FULL_DELIVERABLE");
    std::fs::create_dir_all(p.path("src/deep")).unwrap();
    let a = p
        .run_in(&p.path("src/deep"), &["artifact", "init", "SCOPE"])
        .success();
    // As git shows paths: relative to the current folder (issue 15).
    assert_eq!(
        crate::common::stdout(&a),
        format!("../../.standards/docs/scope/{id}.md\n")
    );
    assert!(p.path(&format!(".standards/docs/scope/{id}.md")).is_file());
    assert!(!p.path("src/deep/.standards").exists());
}

/// F-STD (scenarios §0.2): a consistent STANDARD cycle at implementation review.
fn f_std() -> Project {
    let p = Project::brown();
    let id = p.start_cycle("REVIEWING_IMPLEMENTATION", "STANDARD", "FULL_DELIVERABLE");
    let scope = p.init(&["SCOPE"]);
    p.append(
        &scope,
        "# Search\n## Work\n### 1. Search\n**Done when:**\n- `AC-001`: Users can search by name.\n- `AC-002`: The guide explains search.\n## Retired Acceptance Identifiers\n- `AC-003`: Retired because it was split.\n",
    );
    let design = p.init(&["ARCHITECTURE"]);
    p.append(
        &design,
        "# Technical Design\n## Acceptance Coverage\n- `AC-001`: Name index.\n- `AC-002`: No architectural impact; Documenter owns it.\n",
    );
    let plan = p.init(&["DEVELOPMENT"]);
    p.set(&plan, "Mode", "AUTONOMOUS");
    p.set(&plan, "User Style", "NONE");
    p.set(&plan, "User Style Locked", "true");
    p.set(&plan, "Status", "COMPLETE");
    p.append(
        &plan,
        "\n## Build Steps\n\n### DEV-001 — Search endpoint\n`Status`: `DONE` `Depends On`: `NONE`\n`Acceptance`: `AC-001`\n\n### DEV-002 — Search box\n`Status`: `DONE` `Depends On`: `DEV-001`\n`Acceptance`: `AC-001`\n",
    );
    let report = p.init(&["VERIFICATION"]);
    p.set(&report, "Mode", "VERIFY");
    p.set(&report, "Status", "COMPLETE");
    p.set(&report, "User Style", "NONE");
    p.append(
        &report,
        "\n## Acceptance Evidence\n| AC-001 | test/search.test.js | passed |\n| AC-002 | pending Documenter | pending |\n",
    );
    p.set_state(&[
        ("Scope", &scope),
        ("Architecture", &design),
        ("Development", &plan),
    ]);
    assert!(p.state().contains(&id));
    p
}

impl Project {
    /// `Active Work.Id` of STATE.md.
    fn state_id(&self) -> String {
        let state = self.state();
        let start = state.find("`Id`: `").unwrap() + "`Id`: `".len();
        let end = start + state[start..].find('`').unwrap();
        state[start..end].to_string()
    }
}

/// The scope, design and plan records' paths go into their empty `Active
/// Work` field with the record (one journaled operation, only that field's
/// bytes); a field naming another artifact is the role's choice and stays.
#[test]
fn scope_design_and_plan_paths_are_recorded_in_active_work() {
    let p = Project::brown();
    let id = p.start_cycle("SCOPING", "STANDARD", "FULL_DELIVERABLE");
    p.set_state(&[("Kind", "FORWARD"), ("From", "AUDITING")]);
    p.commit("cycle");
    let before = p.state();
    let a = p.run(&["artifact", "init", "SCOPE", "--json"]);
    assert!(a.get_output().status.success(), "{}", stderr(&a));
    let v: serde_json::Value = serde_json::from_slice(&a.get_output().stdout).unwrap();
    let scope = format!(".standards/docs/scope/{id}.md");
    assert_eq!(
        (&v["path"], &v["created"], &v["stateField"]),
        (
            &scope.clone().into(),
            &true.into(),
            &"Active Work.Scope".into()
        )
    );
    assert_eq!(
        p.state(),
        before.replace("`Scope`: `NONE`", &format!("`Scope`: `{scope}`"))
    );
    let log = String::from_utf8(p.run(&["log", "--json"]).get_output().stdout.clone()).unwrap();
    assert!(
        log.lines().any(|l| l.contains("\"record-created\"")
            && l.contains("\"state_field\":\"Active Work.Scope\"")),
        "{log}"
    );
    // A re-run changes nothing.
    let again = p.run(&["artifact", "init", "SCOPE", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&again.get_output().stdout).unwrap();
    assert_eq!(v["stateField"], serde_json::Value::Null);
    assert_eq!(v["created"], false);
    p.run(&["check"]).success();

    // The Architect chose a project document: the new record does not replace it.
    p.set_state(&[("Architecture", "docs/design.md")]);
    let a = p.run(&["artifact", "init", "ARCHITECTURE"]);
    assert!(a.get_output().status.success());
    assert!(stderr(&a).contains("`Active Work.Architecture` names `docs/design.md`"));
    assert!(p.state().contains("`Architecture`: `docs/design.md`"));

    // A plan created earlier by hand gets its path recorded by the re-run.
    let plan = format!(".standards/docs/development/{id}.md");
    p.write(
        &plan,
        standards_core::assets::new_record(
            standards_core::model::vocab::ArtifactType::Development,
            None,
            &id,
        ),
    );
    assert_eq!(p.init(&["DEVELOPMENT"]), plan);
    assert!(p.state().contains(&format!("`Development`: `{plan}`")));
    let log = String::from_utf8(p.run(&["log", "--json"]).get_output().stdout.clone()).unwrap();
    assert!(log.contains("\"record-path-recorded\""), "{log}");

    // A verification report has no field: STATE.md stays as it is.
    let state = p.state();
    p.init(&["VERIFICATION"]);
    assert_eq!(p.state(), state);
}
