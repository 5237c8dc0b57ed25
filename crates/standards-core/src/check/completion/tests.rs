use super::super::fixtures::*;
use super::*;
use crate::model::tree::MemTree;

fn cp(tree: &MemTree) -> Vec<(&'static str, String)> {
    problems_with_prefix(tree, "CP")
}

fn hk(tree: &MemTree) -> Vec<(&'static str, String)> {
    problems(tree, true)
        .into_iter()
        .filter(|(r, _)| r.starts_with("HK"))
        .collect()
}

fn situation(state: WorkflowState) -> Situation {
    Situation {
        mode: CycleMode::Standard,
        policy: CompletionPolicy::FullDeliverable,
        state,
        kind: Some(HandoffKind::Forward),
        from: None,
        recovering: false,
        full_boundary: state.rank() >= 3,
        corrective_return: false,
        just_left: None,
        at_turn_end: false,
    }
}

const REPORT: &str = ".standards/docs/verification/add-user-search-20260927T190146Z-7bef0f04.md";

#[test]
fn sc_pol_001_to_007_required_phases() {
    use CompletionPolicy as P;
    // SC-POL-001: STANDARD / IMPLEMENTATION_REVIEWED, in this order.
    let ir = vec![
        W::Scoping,
        W::Architecting,
        W::Auditing,
        W::Developing,
        W::Testing,
        W::ReviewingImplementation,
    ];
    assert_eq!(
        required_phases(CycleMode::Standard, P::ImplementationReviewed),
        Some(ir.clone())
    );
    // SC-POL-002: FULL_DELIVERABLE adds the three tail phases.
    let mut fd = ir;
    fd.extend([W::Documenting, W::ReviewingFinal, W::Synchronizing]);
    assert_eq!(
        required_phases(CycleMode::Standard, P::FullDeliverable),
        Some(fd)
    );
    // SC-POL-003
    assert_eq!(
        required_phases(CycleMode::Expedited, P::None),
        Some(vec![W::Developing, W::ReviewingImplementation])
    );
    // SC-POL-004
    assert_eq!(
        required_phases(CycleMode::Documentation, P::None),
        Some(DOCUMENTATION_PHASES.to_vec())
    );
    // SC-POL-005: invalid pairs give no answer, never an inferred policy.
    // (STANDARD, missing), (STANDARD, UNKNOWN) and (UNKNOWN, ...) cannot
    // be typed here: STATE.md parsing refuses them (ST-007 / ST-004, see
    // the fixture cases SC-POL-005-*).
    for (m, p) in [
        (CycleMode::Standard, P::None),
        (CycleMode::Expedited, P::FullDeliverable),
        (CycleMode::Expedited, P::ImplementationReviewed),
        (CycleMode::Documentation, P::FullDeliverable),
        (CycleMode::Documentation, P::ImplementationReviewed),
    ] {
        assert_eq!(required_phases(m, p), None, "{m} {p}");
    }
    // SC-POL-006: no cycle mode, no required phases, whatever the policy.
    for p in P::ALL {
        assert_eq!(required_phases(CycleMode::Unset, *p), Some(Vec::new()));
    }
    // SC-POL-007: every call returns a fresh list.
    let mut first = required_phases(CycleMode::Expedited, P::None).unwrap_or_default();
    first.clear();
    assert_eq!(
        required_phases(CycleMode::Expedited, P::None).map(|v| v.len()),
        Some(2)
    );
}

#[test]
fn sc_pol_008_required_records() {
    // SC-POL-008: five fixed records per ID, whatever the policy; the
    // required ones follow the policy, in inventory order.
    //
    // Known difference: the reference's inventory puts the final-deliverable
    // review before the documentation record. Our list follows
    // check-rules §1.14 (verification, implementation review,
    // documentation, final-deliverable review, synchronization), the order
    // CP-000 reports in; the records themselves are the same. The
    // inventory is a constant, so it cannot depend on the policy.
    use CompletionPolicy as P;
    let names = |m, p| -> Vec<&str> { required_records(m, p).iter().map(Slot::name).collect() };
    let all: Vec<_> = FIXED_RECORDS
        .iter()
        .map(|s| (s.name(), s.path("x")))
        .collect();
    assert_eq!(
        all,
        [
            (
                "verification report",
                ".standards/docs/verification/x.md".into()
            ),
            (
                "implementation review",
                ".standards/docs/reviews/x/implementation.md".into()
            ),
            (
                "documentation record",
                ".standards/docs/documentation/x.md".into()
            ),
            (
                "final-deliverable review",
                ".standards/docs/reviews/x/final-deliverable.md".into()
            ),
            (
                "synchronization record",
                ".standards/docs/synchronization/x.md".into()
            ),
        ]
    );
    assert_eq!(names(CycleMode::Standard, P::FullDeliverable).len(), 5);
    assert_eq!(
        names(CycleMode::Standard, P::ImplementationReviewed),
        ["verification report", "implementation review"]
    );
    assert_eq!(
        names(CycleMode::Expedited, P::None),
        ["implementation review"]
    );
    assert_eq!(
        names(CycleMode::Documentation, P::None),
        [
            "documentation record",
            "final-deliverable review",
            "synchronization record"
        ]
    );
    assert!(names(CycleMode::Standard, P::None).is_empty());
}

#[test]
fn demands_follow_the_phase_ranks() {
    let at = |ws| -> Vec<&str> {
        demands(&situation(ws))
            .iter()
            .map(|d| d.slot.name())
            .collect()
    };
    assert!(at(W::Testing).is_empty());
    assert_eq!(at(W::ReviewingImplementation), ["verification report"]);
    assert_eq!(
        at(W::Documenting),
        ["verification report", "implementation review"]
    );
    assert_eq!(at(W::AwaitingUserSignoff).len(), 5);
    // A STANDARD documentation record need only exist before sign-off readiness (DC-002).
    let doc = demands(&situation(W::ReviewingFinal))
        .into_iter()
        .find(|d| d.slot.artifact == ArtifactType::Documentation);
    assert_eq!(doc.map(|d| d.must_be_complete), Some(false));
    // Recovery outside the full boundary suspends the procedure.
    let mut s = situation(W::Developing);
    s.recovering = true;
    assert!(demands(&s).is_empty());
    // At the full boundary during recovery only the verification report counts.
    let mut s = situation(W::AwaitingUserSignoff);
    s.recovering = true;
    s.kind = Some(HandoffKind::Resume);
    let names: Vec<_> = demands(&s).iter().map(|d| d.slot.name()).collect();
    assert_eq!(names, ["verification report"]);
}

#[test]
fn valid_bases_are_complete() {
    for (name, tree) in [
        ("f-std", f_std()),
        ("f-ir", f_ir()),
        ("f-doc", f_doc()),
        ("f-life-green", f_life_green()),
    ] {
        assert_eq!(cp(&tree), [], "{name}");
        assert_eq!(problems(&tree, true), [], "{name} at turn end");
    }
}

#[test]
fn cp_001_and_002_generic_gates() {
    // SC-POL-024: the report deleted, then the review deleted.
    let mut t = f_ir();
    t.remove(REPORT);
    assert_eq!(cp(&t), [("CP-001", REPORT.to_string())]);
    let mut t = f_ir();
    t.remove(IR_REVIEW);
    assert_eq!(cp(&t), [("CP-001", IR_REVIEW.to_string())]);
    // SC-POL-025: FULL_DELIVERABLE needs the three tail records.
    let t = state(
        f_ir(),
        &[
            ("CompletionPolicy", "FULL_DELIVERABLE"),
            ("From", "SYNCHRONIZING"),
        ],
    );
    let rules: Vec<_> = cp(&t).into_iter().map(|(r, _)| r).collect();
    assert_eq!(rules, ["CP-001", "CP-001", "CP-001"]);
    // SC-POL-027 / SC-POL-029
    let t = edit(f_ir(), REPORT, |s| set_field(&s, "Status", "IN_PROGRESS"));
    assert_eq!(cp(&t), [("CP-002", REPORT.to_string())]);
    let t = edit(f_ir(), IR_REVIEW, |s| set_field(&s, "Status", "BLOCKED"));
    assert_eq!(cp(&t), [("CP-002", IR_REVIEW.to_string())]);
    // Something else at the path is PV's to report.
    let mut t = f_ir();
    t.insert(REPORT, "# notes\n");
    assert_eq!(cp(&t), []);
}

#[test]
fn cp_003_direct_return_to_signoff() {
    for (from, dir) in [
        ("DOCUMENTING", "documentation"),
        ("SYNCHRONIZING", "synchronization"),
    ] {
        let t = state(f_ir(), &[("Kind", "RESUME"), ("From", from)]);
        assert_eq!(cp(&t), [("CP-003", std_path(dir))], "{from}");
    }
    let t = state(f_ir(), &[("Kind", "RESUME"), ("From", "REVIEWING_FINAL")]);
    assert_eq!(cp(&t), [("CP-003", std_final_review_path())]);
    // SC-POL-055: a RESUME from implementation review itself needs nothing more.
    let t = state(
        f_ir(),
        &[("Kind", "RESUME"), ("From", "REVIEWING_IMPLEMENTATION")],
    );
    assert_eq!(cp(&t), []);
}

#[test]
fn cp_004_completion_change() {
    let change = |ws: &str, from: &str, policy: &str| {
        state(
            f_ir(),
            &[
                ("WorkflowState", ws),
                ("CompletionPolicy", policy),
                ("Kind", "COMPLETION_CHANGE"),
                ("From", from),
            ],
        )
    };
    // SC-POL-034 / SC-POL-035
    let into_review = change(
        "REVIEWING_IMPLEMENTATION",
        "DOCUMENTING",
        "IMPLEMENTATION_REVIEWED",
    );
    let into_docs = change("DOCUMENTING", "AWAITING_USER_SIGNOFF", "FULL_DELIVERABLE");
    assert_eq!(cp(&into_review), []);
    assert_eq!(cp(&into_docs), []);
    // SC-POL-036 / SC-POL-037
    let open = |t: MemTree| edit(t, IR_REVIEW, |s| set_field(&s, "Status", "IN_PROGRESS"));
    assert_eq!(cp(&open(into_review.clone())), []);
    assert_eq!(cp(&open(into_docs)), [("CP-004", IR_REVIEW.to_string())]);
    // SC-POL-049: the review deleted.
    let mut t = into_review;
    t.remove(IR_REVIEW);
    assert_eq!(cp(&t), [("CP-004", IR_REVIEW.to_string())]);
}

#[test]
fn cp_005_and_006_documentation_returns() {
    let doc_record = doc_path("documentation");
    let open = |t: MemTree, path: &str| edit(t, path, |s| set_field(&s, "Status", "IN_PROGRESS"));
    // SC-DOC-052: a corrective return may leave the source record IN_PROGRESS ...
    let t = state(
        open(open(f_doc(), &doc_record), &doc_final_review()),
        &[
            ("WorkflowState", "REVIEWING_FINAL"),
            ("Kind", "RESUME"),
            ("From", "DOCUMENTING"),
        ],
    );
    assert_eq!(cp(&t), []);
    // ... SC-DOC-053: but not without it.
    let mut gone = t.clone();
    gone.remove(&doc_record);
    assert_eq!(cp(&gone), [("CP-005", doc_record.clone())]);
    // SC-DOC-049/050: a RESUME from REVIEWING_FINAL needs the final review COMPLETE.
    let t = state(
        open(f_doc(), &doc_final_review()),
        &[
            ("WorkflowState", "DOCUMENTING"),
            ("Kind", "RESUME"),
            ("From", "REVIEWING_FINAL"),
        ],
    );
    assert_eq!(cp(&t), [("CP-006", doc_final_review())]);
    let mut gone = t;
    gone.remove(&doc_final_review());
    assert_eq!(cp(&gone), [("CP-006", doc_final_review())]);
    // SC-DOC-012: FORWARD past DOCUMENTING needs the documentation record COMPLETE.
    let t = state(
        open(f_doc(), &doc_record),
        &[
            ("WorkflowState", "REVIEWING_FINAL"),
            ("From", "DOCUMENTING"),
        ],
    );
    assert_eq!(cp(&t), [("CP-002", doc_record)]);
}

#[test]
fn cp_007_to_009_recorded_paths() {
    let none = |field: &str| state(f_std(), &[(field, "NONE")]);
    assert_eq!(cp(&none("Scope")), [("CP-007", STATE.to_string())]);
    assert_eq!(cp(&none("Architecture")), [("CP-008", STATE.to_string())]);
    assert_eq!(cp(&none("Development")), [("CP-009", STATE.to_string())]);
    // SC-DOC-011 / SC-DOC-047
    let t = state(f_doc(), &[("Scope", "NONE")]);
    assert!(cp(&t).contains(&("CP-007", STATE.to_string())));
    let t = state(
        f_doc(),
        &[
            ("WorkflowState", "AUDITING"),
            ("Kind", "RESUME"),
            ("From", "SCOPING"),
            ("Scope", "NONE"),
        ],
    );
    assert!(cp(&t).contains(&("CP-007", STATE.to_string())));
    let t = state(
        f_doc(),
        &[
            ("WorkflowState", "AUDITING"),
            ("Kind", "RESUME"),
            ("From", "ARCHITECTING"),
            ("Architecture", "NONE"),
        ],
    );
    assert!(cp(&t).contains(&("CP-008", STATE.to_string())));
}

#[test]
fn cp_010_documentation_context() {
    let mut t = f_doc();
    t.remove(CONTEXT_PATH);
    assert_eq!(cp(&t), [("CP-010", CONTEXT_PATH.to_string())]);
    let mut t = f_doc();
    t.insert(CONTEXT_PATH, " \n\u{feff}\t\n");
    assert_eq!(cp(&t), [("CP-010", CONTEXT_PATH.to_string())]);
    // Not yet due while the audit runs.
    let mut t = state(
        f_doc(),
        &[
            ("WorkflowState", "AUDITING"),
            ("Kind", "INITIAL"),
            ("From", "NONE"),
        ],
    );
    t.remove(CONTEXT_PATH);
    assert!(!cp(&t).iter().any(|(r, _)| *r == "CP-010"));
}

#[test]
fn cp_011_pending_cadence_at_the_boundary() {
    // SC-POL-052
    let t = state(f_ir(), &[("PendingVerificationCadence", "INCREMENTAL")]);
    assert_eq!(cp(&t), [("CP-011", STATE.to_string())]);
    let t = state(
        f_std(),
        &[
            ("WorkflowState", "TESTING"),
            ("PendingVerificationCadence", "INCREMENTAL"),
        ],
    );
    assert_eq!(cp(&t), []);
}

#[test]
fn hk_004_to_006_holding() {
    let phases = [W::Testing, W::ReviewingImplementation, W::Documenting];
    // No recovery, DOCUMENTING after a FORWARD: plain check holds all three,
    // the hook spares the current state's own record (HK-004).
    let mut s = situation(W::Documenting);
    s.from = Some(W::ReviewingImplementation);
    s.just_left = s.from;
    let held = |s: &Situation| phases.map(|p| holding_rule(s, p));
    assert_eq!(held(&s), [Some("AC-010"); 3]);
    s.at_turn_end = true;
    assert_eq!(held(&s), [Some("AC-010"), Some("AC-010"), None]);
    // During recovery the plain check holds the current state's record, the
    // hook the record of the state the last handoff left (HK-005).
    let mut s = situation(W::Architecting);
    s.recovering = true;
    s.full_boundary = false;
    s.kind = Some(HandoffKind::Failure);
    s.from = Some(W::Testing);
    s.just_left = Some(W::Testing);
    assert_eq!(holding_rule(&s, W::Testing), None);
    s.at_turn_end = true;
    assert_eq!(holding_rule(&s, W::Testing), Some("HK-005"));
    // A USER_REWORK source is never held, and nothing is in SCOPING (HK-006).
    s.kind = Some(HandoffKind::UserRework);
    s.just_left = None;
    assert_eq!(holding_rule(&s, W::Testing), None);
    s.state = W::Scoping;
    assert_eq!(held_records(&s), []);
}

#[test]
fn hk_007_partial_assessment_key() {
    let mut s = situation(W::Testing);
    assert_eq!(partial_assessment_rule(&s), Some("AC-011"));
    s.at_turn_end = true;
    assert_eq!(partial_assessment_rule(&s), None);
    s.state = W::Developing;
    s.just_left = Some(W::Testing);
    assert_eq!(partial_assessment_rule(&s), Some("HK-007"));
    s.mode = CycleMode::Documentation;
    assert_eq!(partial_assessment_rule(&s), None);
}

#[test]
fn hk_008_suppressed_rules() {
    for id in ["VF-012", "VF-013", "VF-018", "VF-019", "VF-020"] {
        assert!(turn_end_suppresses(id));
    }
    for id in ["VF-011", "VF-014", "VF-016", "AC-010", "CP-002"] {
        assert!(!turn_end_suppresses(id));
    }
}

/// SC-HOOK base: F-STD + review + documentation record, both COMPLETE and
/// covering AC-001/AC-002, with AC-005 added to the scope.
fn hook_base() -> MemTree {
    let review = format!(
            "<!-- STANDARDS\nArtifact: REVIEW\nCycle: {STD_ID}\nReviewKind: IMPLEMENTATION\n-->\n\n# Review Report\n\n`Cycle`: `{STD_ID}` `ReviewKind`: `IMPLEMENTATION`\n`Status`: `COMPLETE` `User Style`: `NONE`\n\n## Contract and Evidence Assessment\n\nAC-001 and AC-002 are satisfied.\n"
        );
    let doc = format!(
            "<!-- STANDARDS\nArtifact: DOCUMENTATION\nCycle: {STD_ID}\n-->\n\n# Documentation Record\n\n`Cycle`: `{STD_ID}` `Status`: `COMPLETE`\n`Collaboration`: `AUTONOMOUS` `Target`: `ACTIVE_CHANGE` `Target Detail`:\n`The search feature of this cycle.` `User Style`: `NONE`\n\n## Documentation Work and Evidence\n\nAC-001 and AC-002 are documented in the guide.\n"
        );
    let mut t = edit(f_std(), &std_path("scope"), |s| {
        s.replace(
            "\n## Retired",
            "- `AC-005`: Results are paged.\n\n## Retired",
        )
    });
    t.insert(IR_REVIEW, review);
    t.insert(&std_path("documentation"), doc);
    t
}

/// `frames` as the Recovery section body.
fn with_frames(tree: MemTree, frames: &[[&str; 6]]) -> MemTree {
    edit(tree, STATE, |s| {
        let start = s.find("## Recovery").unwrap_or(s.len());
        let end = s.find("## Outstanding Obligations").unwrap_or(s.len());
        let mut body = format!("## Recovery\n\n`Active`: `{}`\n", !frames.is_empty());
        for (i, [from, owner, ft, reason, resume, rerun]) in frames.iter().enumerate() {
            body.push_str(&format!(
                    "\n### Frame {}\n\n`From`: `{from}` `Owner`: `{owner}` `FailureType`: `{ft}`\n`Reason`: `{reason}` `ResumeAt`: `{resume}` `RerunThrough`: `{rerun}`\n",
                    i + 1
                ));
        }
        body.push('\n');
        format!("{}{body}{}", &s[..start], &s[end..])
    })
}

const RW: [&str; 6] = [
    "AWAITING_USER_SIGNOFF",
    "SCOPING",
    "SCOPING",
    "Paging was added.",
    "AWAITING_USER_SIGNOFF",
    "SYNCHRONIZING",
];

#[test]
fn sc_hook_024_failure_from_testing_holds_the_report() {
    let t = with_frames(
        state(
            hook_base(),
            &[
                ("WorkflowState", "ARCHITECTING"),
                ("Kind", "FAILURE"),
                ("From", "TESTING"),
                ("FailureType", "ARCHITECTURE"),
            ],
        ),
        &[
            RW,
            [
                "TESTING",
                "ARCHITECTING",
                "ARCHITECTURE",
                "A defect.",
                "TESTING",
                "NONE",
            ],
        ],
    );
    assert_eq!(hk(&t), [("HK-005", REPORT.to_string())]);
    // The plain check does not hold the report there.
    assert!(!problems(&t, false).iter().any(|(r, _)| r.starts_with("HK")));
}

#[test]
fn turn_end_holds_duplicates_like_ac_010() {
    // AC-010 checks every own record, PV-007 duplicates included; at turn end
    // HK-005 takes over the held gap and must not drop the duplicate.
    let mut t = with_frames(
        state(
            hook_base(),
            &[
                ("WorkflowState", "ARCHITECTING"),
                ("Kind", "FAILURE"),
                ("From", "TESTING"),
                ("FailureType", "ARCHITECTURE"),
            ],
        ),
        &[
            RW,
            [
                "TESTING",
                "ARCHITECTING",
                "ARCHITECTURE",
                "A defect.",
                "TESTING",
                "NONE",
            ],
        ],
    );
    let copy = read(&t, REPORT);
    t.insert("archive/report.md", copy);
    let gaps: Vec<_> = problems(&t, true)
        .into_iter()
        .filter(|(r, _)| *r == "HK-005" || *r == "AC-010")
        .collect();
    assert_eq!(
        gaps,
        [
            ("HK-005", REPORT.to_string()),
            ("HK-005", "archive/report.md".to_string())
        ]
    );
    // The same for a partial assessment after the Tester's checkpoint (HK-007).
    let mut t = edit(
        state(
            f_std(),
            &[
                ("WorkflowState", "DEVELOPING"),
                ("Kind", "CHECKPOINT"),
                ("From", "TESTING"),
            ],
        ),
        REPORT,
        |s| {
            set_field(
                &set_field(&s, "Assessment Purpose", "INCREMENT"),
                "Assessment Target",
                "Increment 1",
            )
            .replace("| AC-002 | pending Documenter | pending |\n", "")
        },
    );
    let copy = read(&t, REPORT);
    t.insert("archive/report.md", copy);
    let gaps: Vec<_> = problems(&t, true)
        .into_iter()
        .filter(|(r, _)| *r == "HK-007" || *r == "AC-011")
        .collect();
    assert_eq!(
        gaps,
        [
            ("HK-007", REPORT.to_string()),
            ("HK-007", "archive/report.md".to_string())
        ]
    );
}

#[test]
fn sc_hook_020_025_026_nothing_held() {
    // 020: TESTING after a FORWARD from DEVELOPING (no record of DEVELOPING to hold).
    let t = with_frames(
        state(
            hook_base(),
            &[
                ("WorkflowState", "TESTING"),
                ("Kind", "FORWARD"),
                ("From", "DEVELOPING"),
            ],
        ),
        &[RW],
    );
    assert_eq!(hk(&t), []);
    // 025: a USER_REWORK source is not held.
    let t = with_frames(
        state(
            hook_base(),
            &[
                ("WorkflowState", "DEVELOPING"),
                ("Kind", "USER_REWORK"),
                ("From", "TESTING"),
                ("FailureType", "IMPLEMENTATION"),
            ],
        ),
        &[
            RW,
            [
                "TESTING",
                "DEVELOPING",
                "IMPLEMENTATION",
                "A defect.",
                "TESTING",
                "NONE",
            ],
        ],
    );
    assert_eq!(hk(&t), []);
    // 026: nothing is held in SCOPING.
    let t = with_frames(
        state(
            hook_base(),
            &[
                ("WorkflowState", "SCOPING"),
                ("Kind", "RESUME"),
                ("From", "DOCUMENTING"),
            ],
        ),
        &[RW],
    );
    assert_eq!(hk(&t), []);
}

fn situation_of(tree: &MemTree, at_turn_end: bool) -> Situation {
    let mut sink = Sink::default();
    let cx = Cx::new(
        tree,
        None,
        crate::check::Options {
            at_turn_end,
            ..Default::default()
        },
        &mut sink,
    );
    Situation::of(&cx).expect("an active cycle")
}

#[test]
fn sc_hook_022_023_reviewer_entry_holds_the_report_not_the_review() {
    // At the full boundary the report is AC-010's (held rule 1) in both
    // modes; the hook only spares the review, the current state's record.
    for kind in ["FORWARD", "RESUME"] {
        let t = with_frames(
            state(
                hook_base(),
                &[
                    ("WorkflowState", "REVIEWING_IMPLEMENTATION"),
                    ("Kind", kind),
                    ("From", "TESTING"),
                ],
            ),
            &[RW],
        );
        let hook = situation_of(&t, true);
        assert_eq!(holding_rule(&hook, W::Testing), Some("AC-010"), "{kind}");
        assert_eq!(
            holding_rule(&hook, W::ReviewingImplementation),
            None,
            "{kind}"
        );
        assert_eq!(hk(&t), [], "{kind}");
    }
    // SC-HOOK-028: without recovery the plain check still holds the review.
    let t = state(
        hook_base(),
        &[
            ("WorkflowState", "REVIEWING_IMPLEMENTATION"),
            ("Kind", "RESUME"),
            ("From", "TESTING"),
        ],
    );
    let plain = situation_of(&t, false);
    assert_eq!(
        holding_rule(&plain, W::ReviewingImplementation),
        Some("AC-010")
    );
    assert_eq!(
        holding_rule(&situation_of(&t, true), W::ReviewingImplementation),
        None
    );
}

#[test]
fn sc_hook_027_documenting_spares_only_the_documentation_record() {
    let t = state(
        hook_base(),
        &[
            ("WorkflowState", "DOCUMENTING"),
            ("Kind", "FORWARD"),
            ("From", "REVIEWING_IMPLEMENTATION"),
        ],
    );
    let hook = situation_of(&t, true);
    let held: Vec<_> = held_records(&hook)
        .iter()
        .map(|(s, r)| (s.name(), *r))
        .collect();
    assert_eq!(
        held,
        [
            ("verification report", "AC-010"),
            ("implementation review", "AC-010")
        ]
    );
    let plain: Vec<_> = held_records(&situation_of(&t, false))
        .iter()
        .map(|(s, _)| s.name())
        .collect();
    assert_eq!(
        plain,
        [
            "verification report",
            "implementation review",
            "documentation record"
        ]
    );
}

#[test]
fn hk_007_partial_assessment_at_turn_end() {
    let t = edit(
        state(
            f_std(),
            &[
                ("WorkflowState", "DEVELOPING"),
                ("Kind", "CHECKPOINT"),
                ("From", "TESTING"),
            ],
        ),
        REPORT,
        |s| {
            set_field(
                &set_field(&s, "Assessment Purpose", "INCREMENT"),
                "Assessment Target",
                "Increment 1",
            )
            .replace("| AC-002 | pending Documenter | pending |\n", "")
        },
    );
    assert_eq!(hk(&t), [("HK-007", REPORT.to_string())]);
    assert!(!problems(&t, false).iter().any(|(r, _)| r.starts_with("HK")));
}
