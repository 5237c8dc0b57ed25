use super::super::testing::*;
use crate::model::layout::STATE_PATH;
use crate::model::vocab::ProjectMode;

const ID: &str = "add-search-20261003T120000Z-1234abcd";

/// A STATE.md with the given head and handoff values; everything else clean.
fn state(ws: &str, mode: &str, policy: &str, kind: &str, from: &str, ft: &str) -> String {
    format!(
        "# S.T.A.N.D.A.R.D.S. Workflow State

`WorkflowState`: `{ws}` `CycleMode`: `{mode}` `PendingCycleMode`: `UNSET`
`PendingCycleRequest`: `UNSET` `PendingCycleBlockedOn`: `NONE`

## Active Work

`CompletionPolicy`: `{policy}` `Id`: `{ID}` `Request`: `Add search.` `Scope`: `NONE`
`Architecture`: `NONE` `Development`: `NONE` `PromotionReason`: `NONE`
`AuditTarget`: `NONE` `BlockedOn`: `NONE` `PendingVerificationCadence`: `NONE`

`BaselineReconciliation`: `NONE`

## Handoff

`Kind`: `{kind}` `From`: `{from}` `FailureType`: `{ft}` `Reason`: `Moved.`

## Recovery

`Active`: `false`

## Outstanding Obligations

`Active`: `false`
"
    )
}

/// The TR rules that fire (other families may rightly fire on these minimal states).
fn rules(text: String) -> Vec<&'static str> {
    let mut t = installed_tree(ProjectMode::Brownfield);
    t.insert(STATE_PATH, text);
    rules_of(&t)
        .into_iter()
        .filter(|r| r.starts_with("TR"))
        .collect()
}

fn doc_rules(ws: &str, kind: &str, from: &str, ft: &str) -> Vec<&'static str> {
    rules(state(ws, "DOCUMENTATION", "NONE", kind, from, ft))
}

#[test]
fn the_documentation_route_forward_step_by_step() {
    let route = [
        "AUDITING",
        "SCOPING",
        "ARCHITECTING",
        "DOCUMENTING",
        "REVIEWING_FINAL",
        "SYNCHRONIZING",
        "AWAITING_USER_SIGNOFF",
    ];
    for w in route.windows(2) {
        assert_eq!(
            doc_rules(w[1], "FORWARD", w[0], "NONE"),
            Vec::<&str>::new(),
            "{w:?}"
        );
    }
    assert_eq!(
        doc_rules("ARCHITECTING", "FORWARD", "AUDITING", "NONE"),
        ["TR-021"]
    );
    assert_eq!(
        doc_rules("AUDITING", "FORWARD", "AWAITING_USER_SIGNOFF", "NONE"),
        ["TR-021"]
    );
}

#[test]
fn documentation_resume_and_failures() {
    assert!(doc_rules("REVIEWING_FINAL", "RESUME", "DOCUMENTING", "NONE").is_empty());
    assert_eq!(
        doc_rules("SCOPING", "RESUME", "AWAITING_USER_SIGNOFF", "NONE"),
        ["TR-024"]
    );
    assert_eq!(
        doc_rules("SCOPING", "RESUME", "NONE", "NONE"),
        ["TR-022", "TR-024"]
    );
    assert_eq!(
        doc_rules("SCOPING", "RESUME", "DOCUMENTING", "SCOPING"),
        ["TR-023"]
    );
    // Same-state corrections by the owner are clean (SC-DOC-027).
    assert!(doc_rules("REVIEWING_FINAL", "FAILURE", "REVIEWING_FINAL", "REVIEW").is_empty());
    assert!(doc_rules("AUDITING", "USER_REWORK", "AUDITING", "PROJECT_CONTEXT").is_empty());
    assert_eq!(
        doc_rules("DOCUMENTING", "FAILURE", "DOCUMENTING", "IMPLEMENTATION"),
        ["TR-025", "TR-029"]
    );
    assert_eq!(
        doc_rules(
            "AWAITING_USER_SIGNOFF",
            "FAILURE",
            "AWAITING_USER_SIGNOFF",
            "DOCUMENTATION"
        ),
        ["TR-029"]
    );
}

#[test]
fn forward_into_signoff_comes_from_the_last_required_phase() {
    let s = |policy, from| {
        rules(state(
            "AWAITING_USER_SIGNOFF",
            "STANDARD",
            policy,
            "FORWARD",
            from,
            "NONE",
        ))
    };
    assert!(s("IMPLEMENTATION_REVIEWED", "REVIEWING_IMPLEMENTATION").is_empty());
    assert!(s("FULL_DELIVERABLE", "SYNCHRONIZING").is_empty());
    assert_eq!(s("IMPLEMENTATION_REVIEWED", "TESTING"), ["TR-012"]);
    assert_eq!(
        s("FULL_DELIVERABLE", "REVIEWING_IMPLEMENTATION"),
        ["TR-012", "TR-013"]
    );
    let e = |from| {
        rules(state(
            "AWAITING_USER_SIGNOFF",
            "EXPEDITED",
            "NONE",
            "FORWARD",
            from,
            "NONE",
        ))
    };
    assert!(e("REVIEWING_IMPLEMENTATION").is_empty());
    assert_eq!(e("DEVELOPING"), ["TR-012"]);
}

#[test]
fn completion_change_routes() {
    let c = |ws, from, policy| {
        rules(state(
            ws,
            "STANDARD",
            policy,
            "COMPLETION_CHANGE",
            from,
            "NONE",
        ))
    };
    assert!(c(
        "REVIEWING_IMPLEMENTATION",
        "DOCUMENTING",
        "IMPLEMENTATION_REVIEWED"
    )
    .is_empty());
    assert!(c("DOCUMENTING", "AWAITING_USER_SIGNOFF", "FULL_DELIVERABLE").is_empty());
    // The policy is deliberately not compared with the route.
    assert!(c(
        "DOCUMENTING",
        "AWAITING_USER_SIGNOFF",
        "IMPLEMENTATION_REVIEWED"
    )
    .iter()
    .all(|r| *r != "TR-008"));
    assert_eq!(
        c(
            "REVIEWING_IMPLEMENTATION",
            "TESTING",
            "IMPLEMENTATION_REVIEWED"
        ),
        ["TR-008"]
    );
    assert_eq!(
        rules(state(
            "REVIEWING_IMPLEMENTATION",
            "STANDARD",
            "IMPLEMENTATION_REVIEWED",
            "COMPLETION_CHANGE",
            "DOCUMENTING",
            "REVIEW"
        )),
        ["TR-009"]
    );
    let reasonless = state(
        "REVIEWING_IMPLEMENTATION",
        "STANDARD",
        "IMPLEMENTATION_REVIEWED",
        "COMPLETION_CHANGE",
        "DOCUMENTING",
        "NONE",
    );
    assert_eq!(
        rules(reasonless.replace("`Moved.`", "` \u{feff} `")),
        ["TR-011"]
    );
    assert_eq!(rules(reasonless.replace("`Moved.`", "`NONE`")), ["TR-011"]);
    assert_eq!(
        rules(reasonless.replacen("`Active`: `false`", "`Active`: `true`", 1)),
        ["TR-010"]
    );
}

#[test]
fn failures_go_to_their_owner() {
    let f = |ws, ft| {
        rules(state(
            ws,
            "STANDARD",
            "FULL_DELIVERABLE",
            "FAILURE",
            "TESTING",
            ft,
        ))
    };
    // The owner of REVIEW is either review state.
    assert_eq!(f("REVIEWING_FINAL", "REVIEW"), Vec::<&str>::new());
    assert_eq!(f("ARCHITECTING", "SCOPING"), ["TR-029"]);
    assert_eq!(f("ARCHITECTING", "NONE"), ["TR-004"]);
    // An unknown From or type: TR-002/TR-003, not TR-029.
    assert_eq!(
        rules(state(
            "ARCHITECTING",
            "STANDARD",
            "FULL_DELIVERABLE",
            "FAILURE",
            "LATER",
            "SCOPING"
        )),
        ["TR-002"]
    );
    assert_eq!(f("ARCHITECTING", "DESIGN"), ["TR-003"]);
}

#[test]
fn shorter_policy_downstream_needs_the_recovery_flag() {
    let s = state(
        "SYNCHRONIZING",
        "STANDARD",
        "IMPLEMENTATION_REVIEWED",
        "FAILURE",
        "REVIEWING_IMPLEMENTATION",
        "SYNCHRONIZATION",
    );
    assert_eq!(rules(s.clone()), ["TR-014"]);
    let with_frame = s.replace(
            "## Recovery\n\n`Active`: `false`",
            "## Recovery\n\n`Active`: `true`\n\n### Frame 1\n\n`From`: `REVIEWING_IMPLEMENTATION` `Owner`: `SYNCHRONIZING` `FailureType`: `SYNCHRONIZATION` `Reason`: `A defect.` `ResumeAt`: `REVIEWING_IMPLEMENTATION` `RerunThrough`: `NONE`",
        );
    assert!(!rules(with_frame).contains(&"TR-014"));
}
