//! SC-POL (scenarios.md §13): where each completion-policy problem lands.
//!
//! The fixture cases `fixtures/check/cases/SC-POL-*` pin which rules fire
//! (`check_conformance` runs them); the case format cannot say on which file,
//! how often, or what the message names. Here every SC-POL problem case is
//! checked once more for its exact (rule, file) list and for the identifiers,
//! fields, states and paths its messages must name. The passing scenarios are
//! the `valid-SC-POL-*` cases, each with a `-turn-end` twin ("clean").

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::common::overlay;
use standards_core::check::{self, testing::installed_tree, Options, Problem};
use standards_core::model::vocab::ProjectMode;

const ID: &str = "add-user-search-20260927T190146Z-7bef0f04";
const STATE: &str = ".standards/STATE.md";

fn report() -> String {
    format!(".standards/docs/verification/{ID}.md")
}
fn plan() -> String {
    format!(".standards/docs/development/{ID}.md")
}
fn review() -> String {
    format!(".standards/docs/reviews/{ID}/implementation.md")
}
fn final_review() -> String {
    format!(".standards/docs/reviews/{ID}/final-deliverable.md")
}
fn doc_record() -> String {
    format!(".standards/docs/documentation/{ID}.md")
}
fn sync_record() -> String {
    format!(".standards/docs/synchronization/{ID}.md")
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/check")
}

/// The problems of the fixture case `name` (the keys this group uses:
/// `base`, `mode`, `remove`, `turn-end`).
fn problems(name: &str) -> Vec<Problem> {
    let dir = fixtures().join("cases").join(name);
    let spec = std::fs::read_to_string(dir.join("case"))
        .unwrap_or_else(|_| panic!("{name}: no such fixture case"));
    let keys: HashMap<&str, &str> = spec
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim(), v.trim()))
        .collect();
    assert!(
        !keys.contains_key("head"),
        "{name}: head trees are not read here"
    );
    let mode = match keys.get("mode") {
        Some(&"greenfield") => ProjectMode::Greenfield,
        _ => ProjectMode::Brownfield,
    };
    let mut tree = installed_tree(mode);
    if let Some(base) = keys.get("base") {
        let root = fixtures().join("bases").join(base);
        overlay(&mut tree, &root);
    }
    let own = dir.join("tree");
    overlay(&mut tree, &own);
    for path in keys.get("remove").map_or("", |v| v).split_whitespace() {
        tree.remove(path);
    }
    let at_turn_end = keys.get("turn-end") == Some(&"true");
    check::run(
        &tree,
        None,
        Options {
            at_turn_end,
            ..Default::default()
        },
    )
    .problems
}

/// One expected problem: rule, file, and words its message must contain.
type Expected<'a> = (&'a str, String, &'a [&'a str]);

/// The case reports exactly `expected` (in any order), each message naming
/// its words.
fn exactly(name: &str, expected: &[Expected]) {
    let found = problems(name);
    let mut got: Vec<(&str, &str)> = found.iter().map(|p| (p.rule, p.file.as_str())).collect();
    let mut want: Vec<(&str, &str)> = expected.iter().map(|(r, f, _)| (*r, f.as_str())).collect();
    got.sort();
    want.sort();
    assert_eq!(got, want, "{name}: {found:#?}");
    for (rule, file, words) in expected {
        let matching: Vec<&Problem> = found
            .iter()
            .filter(|p| p.rule == *rule && p.file == *file)
            .collect();
        assert!(
            matching
                .iter()
                .any(|p| words.iter().all(|w| p.message.contains(w))),
            "{name}: no {rule} problem on {file} names all of {words:?}: {matching:#?}"
        );
    }
}

fn one(name: &str, rule: &str, file: String, words: &[&str]) {
    exactly(name, &[(rule, file, words)]);
}

#[test]
fn sc_pol_005_invalid_pairs_infer_no_policy() {
    // SC-POL-005: (STANDARD, UNKNOWN), (STANDARD, missing) and (UNKNOWN,
    // FULL_DELIVERABLE) cannot be represented once STATE.md is parsed; the
    // parser refuses the value instead of inferring a policy.
    one(
        "SC-POL-005-standard-with-unknown-policy",
        "ST-007",
        STATE.into(),
        &["CompletionPolicy", "UNKNOWN"],
    );
    one(
        "SC-POL-005-standard-without-policy",
        "ST-007",
        STATE.into(),
        &["CompletionPolicy"],
    );
    one(
        "SC-POL-005-unknown-mode-with-full-deliverable",
        "ST-004",
        STATE.into(),
        &["CycleMode", "UNKNOWN"],
    );
}

#[test]
fn sc_pol_010_011_policy_lifecycle() {
    // SC-POL-010
    for policy in ["full-deliverable", "implementation-reviewed"] {
        one(
            &format!("SC-POL-010-policy-{policy}-before-any-cycle"),
            "ST-013",
            STATE.into(),
            &["CompletionPolicy", &policy.to_uppercase().replace('-', "_")],
        );
    }
    // SC-POL-011
    one(
        "SC-POL-011-standard-cycle-with-policy-none",
        "ST-012",
        STATE.into(),
        &["NONE", "STANDARD"],
    );
}

#[test]
fn sc_pol_016_017_019_closure_at_signoff() {
    // SC-POL-016
    for kind in ["forward", "resume"] {
        one(
            &format!("SC-POL-016-closure-missing-{kind}"),
            "RV-002",
            review(),
            &["IMPLEMENTATION_REVIEWED", "Implementation-Reviewed Closure"],
        );
    }
    // SC-POL-017
    for kind in ["forward", "resume"] {
        one(
            &format!("SC-POL-017-not-assessed-at-signoff-{kind}"),
            "RV-008",
            review(),
            &["Eligibility", "NOT_ASSESSED"],
        );
    }
    // SC-POL-019
    one(
        "SC-POL-019-ineligible-closure-at-signoff",
        "RV-008",
        review(),
        &["Eligibility", "INELIGIBLE"],
    );
}

#[test]
fn sc_pol_021_closure_moved_to_the_final_review() {
    // SC-POL-021
    exactly(
        "SC-POL-021-closure-moved-to-the-final-review",
        &[
            ("RV-002", review(), &["Implementation-Reviewed Closure"]),
            ("RV-004", final_review(), &["final-deliverable"]),
        ],
    );
}

#[test]
fn sc_pol_022_023_eligible_closure_fields() {
    // SC-POL-022: one scenario per field.
    for (slug, field) in [
        ("user-choice", "User Choice"),
        ("assessed-inputs", "Assessed Inputs"),
        ("evidence", "Evidence"),
        ("omitted-guarantees", "Omitted Guarantees"),
    ] {
        one(
            &format!("SC-POL-022-eligible-closure-{slug}-none"),
            "RV-010",
            review(),
            &[field, "NONE", "ELIGIBLE"],
        );
    }
    // SC-POL-023
    one(
        "SC-POL-023-eligible-closure-with-unmet-requirements",
        "RV-011",
        review(),
        &[
            "Unmet Requirements",
            "The guide does not mention search yet.",
        ],
    );
}

#[test]
fn sc_pol_024_to_029_phase_gates_under_implementation_reviewed() {
    // SC-POL-024
    one(
        "SC-POL-024-report-deleted",
        "CP-001",
        report(),
        &["verification report", "missing", "TESTING"],
    );
    one(
        "SC-POL-024-review-deleted",
        "CP-001",
        review(),
        &[
            "implementation review",
            "missing",
            "REVIEWING_IMPLEMENTATION",
        ],
    );
    // SC-POL-025: exactly three phase gates, one per tail record.
    exactly(
        "SC-POL-025-full-deliverable-needs-the-three-tail-records",
        &[
            ("CP-001", doc_record(), &["missing", "DOCUMENTING"]),
            ("CP-001", final_review(), &["missing", "REVIEWING_FINAL"]),
            ("CP-001", sync_record(), &["missing", "SYNCHRONIZING"]),
        ],
    );
    // SC-POL-026
    one(
        "SC-POL-026-plan-in-progress",
        "DV-002",
        plan(),
        &["COMPLETE", "IN_PROGRESS"],
    );
    // SC-POL-027
    one(
        "SC-POL-027-report-in-progress",
        "CP-002",
        report(),
        &["IN_PROGRESS", "TESTING", "COMPLETE"],
    );
    // SC-POL-028
    one(
        "SC-POL-028-complete-correction-report",
        "VF-006",
        report(),
        &["COMPLETE", "Assessment Purpose", "CORRECTION"],
    );
    // SC-POL-029
    one(
        "SC-POL-029-review-blocked",
        "CP-002",
        review(),
        &["BLOCKED", "REVIEWING_IMPLEMENTATION", "COMPLETE"],
    );
}

#[test]
fn sc_pol_030_031_coverage_of_present_records() {
    // SC-POL-030
    one(
        "SC-POL-030-review-omits-ac-002",
        "AC-010",
        review(),
        &["COMPLETE", "AC-002"],
    );
    // SC-POL-031: an optional record that exists is still held.
    one(
        "SC-POL-031-optional-final-review-omits-ac-002",
        "AC-010",
        final_review(),
        &["COMPLETE", "AC-002"],
    );
}

#[test]
fn sc_pol_032_downstream_states_need_recovery() {
    // SC-POL-032 (SC-POL-033: the same states through a frame are clean cases).
    for state in ["DOCUMENTING", "REVIEWING_FINAL", "SYNCHRONIZING"] {
        let slug = state.to_lowercase().replace('_', "-");
        exactly(
            &format!("SC-POL-032-{slug}-without-recovery"),
            &[
                ("TR-014", STATE.into(), &[state, "IMPLEMENTATION_REVIEWED"]),
                // The FAILURE handoff itself also lacks its frame.
                ("RC-016", STATE.into(), &["FAILURE", state]),
            ],
        );
    }
}

#[test]
fn sc_pol_037_038_049_completion_change_records() {
    // SC-POL-037
    one(
        "SC-POL-037-completion-change-into-documenting-with-open-review",
        "CP-004",
        review(),
        &["COMPLETION_CHANGE", "DOCUMENTING", "IN_PROGRESS"],
    );
    // SC-POL-038, from both bases.
    for into in ["review", "documenting"] {
        one(
            &format!("SC-POL-038-completion-change-to-{into}-with-open-report"),
            "CP-002",
            report(),
            &["IN_PROGRESS", "TESTING"],
        );
    }
    // SC-POL-049
    one(
        "SC-POL-049-completion-change-without-review",
        "CP-004",
        review(),
        &["COMPLETION_CHANGE", "implementation review", "missing"],
    );
}

#[test]
fn sc_pol_039_to_047_completion_change_handoff() {
    // SC-POL-039
    one(
        "SC-POL-039-completion-change-from-testing",
        "TR-008",
        STATE.into(),
        &["COMPLETION_CHANGE", "TESTING", "REVIEWING_IMPLEMENTATION"],
    );
    // SC-POL-040
    one(
        "SC-POL-040-completion-change-into-signoff",
        "TR-008",
        STATE.into(),
        &["COMPLETION_CHANGE", "DOCUMENTING", "AWAITING_USER_SIGNOFF"],
    );
    // SC-POL-041
    // The full protocol also says a SIGNED_OFF state carries the SIGNOFF
    // handoff that reached it (PR-002).
    exactly(
        "SC-POL-041-completion-change-after-signoff",
        &[
            ("TR-008", STATE.into(), &["COMPLETION_CHANGE", "SIGNED_OFF"]),
            ("PR-002", STATE.into(), &["SIGNED_OFF", "SIGNOFF"]),
        ],
    );
    // SC-POL-042
    one(
        "SC-POL-042-completion-change-with-policy-none",
        "ST-012",
        STATE.into(),
        &["NONE", "STANDARD"],
    );
    // SC-POL-043: the expedited cycle also trips its own rules (ST-024, AC-012);
    // the route problem is the scenario's.
    let found = problems("SC-POL-043-completion-change-in-expedited-cycle");
    assert!(
        found.iter().any(|p| p.rule == "TR-008"
            && p.file == STATE
            && p.message.contains("EXPEDITED")
            && p.message.contains("STANDARD")),
        "{found:#?}"
    );
    // SC-POL-044
    one(
        "SC-POL-044-completion-change-with-failure-type",
        "TR-009",
        STATE.into(),
        &["COMPLETION_CHANGE", "FailureType", "REVIEW"],
    );
    // SC-POL-045
    one(
        "SC-POL-045-completion-change-with-reason-none",
        "TR-011",
        STATE.into(),
        &["COMPLETION_CHANGE", "Reason"],
    );
    // SC-POL-046: the flags alone are enough (RC-001/RC-017 report the empty lists).
    exactly(
        "SC-POL-046-completion-change-with-recovery-active",
        &[
            ("TR-010", STATE.into(), &["COMPLETION_CHANGE", "recovery"]),
            ("RC-001", STATE.into(), &["Recovery"]),
        ],
    );
    exactly(
        "SC-POL-046-completion-change-with-obligations-active",
        &[
            (
                "TR-010",
                STATE.into(),
                &["COMPLETION_CHANGE", "obligations"],
            ),
            ("RC-017", STATE.into(), &["Outstanding Obligations"]),
        ],
    );
    // SC-POL-047: a frame counts although the flag is false.
    exactly(
        "SC-POL-047-completion-change-with-inactive-frame",
        &[
            ("TR-010", STATE.into(), &["COMPLETION_CHANGE", "recovery"]),
            ("RC-001", STATE.into(), &["frame"]),
        ],
    );
}

#[test]
fn sc_pol_051_to_054_signoff_readiness_in_state() {
    // SC-POL-051
    one(
        "SC-POL-051-blocked-on-at-signoff",
        "ST-026",
        STATE.into(),
        &["AWAITING_USER_SIGNOFF", "BlockedOn"],
    );
    // SC-POL-052
    one(
        "SC-POL-052-pending-cadence-at-signoff",
        "CP-011",
        STATE.into(),
        &["PendingVerificationCadence", "INCREMENTAL"],
    );
    // SC-POL-053
    one(
        "SC-POL-053-baseline-unresolved-at-signoff",
        "ST-032",
        STATE.into(),
        &["AWAITING_USER_SIGNOFF", "BaselineReconciliation"],
    );
    // SC-POL-054
    one(
        "SC-POL-054-recovery-stack-at-signoff",
        "RC-023",
        STATE.into(),
        &["AWAITING_USER_SIGNOFF", "frame"],
    );
}

#[test]
fn sc_pol_056_057_064_direct_resume_to_signoff() {
    let phases = [
        ("DOCUMENTING", doc_record()),
        ("REVIEWING_FINAL", final_review()),
        ("SYNCHRONIZING", sync_record()),
    ];
    for (phase, record) in phases {
        let slug = phase.to_lowercase().replace('_', "-");
        // SC-POL-056
        one(
            &format!("SC-POL-056-direct-resume-from-{slug}-record-missing"),
            "CP-003",
            record.clone(),
            &[phase, "AWAITING_USER_SIGNOFF", "missing"],
        );
        // SC-POL-057: the Status is named.
        for status in ["IN_PROGRESS", "BLOCKED"] {
            let s = status.to_lowercase().replace('_', "-");
            one(
                &format!("SC-POL-057-direct-resume-from-{slug}-record-{s}"),
                "CP-003",
                record.clone(),
                &[phase, "AWAITING_USER_SIGNOFF", status],
            );
        }
    }
    // SC-POL-064
    one(
        "SC-POL-064-direct-resume-from-synchronizing-record-in-progress",
        "CP-003",
        sync_record(),
        &["SYNCHRONIZING", "AWAITING_USER_SIGNOFF", "IN_PROGRESS"],
    );
}

#[test]
fn sc_pol_060_065_readiness_needs_a_fresh_eligible_closure() {
    // SC-POL-060
    one(
        "SC-POL-060-frame-closed-but-not-assessed",
        "RV-008",
        review(),
        &["Eligibility", "NOT_ASSESSED"],
    );
    // SC-POL-065, both variants.
    for at in ["review", "signoff"] {
        one(
            &format!("SC-POL-065-rerun-interrupted-at-{at}-not-assessed"),
            "RV-008",
            review(),
            &["Eligibility", "NOT_ASSESSED"],
        );
    }
}

#[test]
fn sc_pol_066_to_068_forward_targets() {
    // SC-POL-066
    one(
        "SC-POL-066-forward-to-signoff-from-testing",
        "TR-012",
        STATE.into(),
        &[
            "AWAITING_USER_SIGNOFF",
            "TESTING",
            "REVIEWING_IMPLEMENTATION",
        ],
    );
    // SC-POL-067: FULL_DELIVERABLE skipping its tail is also a sign-off from
    // the wrong phase (TR-012) with the three tail records missing (CP-001).
    exactly(
        "SC-POL-067-full-deliverable-forward-to-signoff",
        &[
            ("TR-013", STATE.into(), &["FULL_DELIVERABLE", "DOCUMENTING"]),
            (
                "TR-012",
                STATE.into(),
                &["FULL_DELIVERABLE", "SYNCHRONIZING"],
            ),
            ("CP-001", doc_record(), &["missing"]),
            ("CP-001", final_review(), &["missing"]),
            ("CP-001", sync_record(), &["missing"]),
        ],
    );
    // SC-POL-068: DOCUMENTING without a frame is also off the shorter route (TR-014).
    exactly(
        "SC-POL-068-implementation-reviewed-forward-to-documenting",
        &[
            (
                "TR-013",
                STATE.into(),
                &["IMPLEMENTATION_REVIEWED", "AWAITING_USER_SIGNOFF"],
            ),
            ("TR-014", STATE.into(), &["DOCUMENTING"]),
        ],
    );
}
