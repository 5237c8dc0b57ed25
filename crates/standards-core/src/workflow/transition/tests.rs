//! The moves on STATE.md alone: every refusal the issue lists, the shape of
//! each successful edit, and byte-for-byte preservation of everything else.

use super::dispatch::*;
use super::gate::*;
use super::record_path::*;
use super::*;
use crate::model::fields::{self, render_code_span};
use crate::model::state::{fresh_template, Baseline};
use crate::model::vocab::PendingCadence;
use crate::model::vocab::{ArtifactType, CompletionPolicy, CycleMode, FailureType, Role};
use crate::records::plan::Cadence;
use crate::workflow::moves::decisions::*;
use crate::workflow::moves::failure::*;
use crate::workflow::moves::forward::*;
use crate::workflow::moves::recovery::*;
use crate::workflow::moves::signoff::*;
use crate::workflow::moves::start::*;

const ID: &str = "add-user-search-20260927T190146Z-7bef0f04";
const NEW_ID: &str = "add-paging-20260928T100000Z-0a1b2c3d";

/// `text` with the first field `name` set to `value`.
fn set(text: &str, name: &str, value: &str) -> String {
    let found = fields::scan(text);
    let f = fields::first(&found, name).unwrap_or_else(|| panic!("no {name}"));
    format!(
        "{}{}{}",
        &text[..f.span.start],
        render_code_span(value),
        &text[f.span.end..]
    )
}

fn with(mode: ProjectMode, changes: &[(&str, &str)]) -> StateDoc {
    let mut t = fresh_template(mode);
    for (n, v) in changes {
        t = set(&t, n, v);
    }
    StateDoc::parse(&t).unwrap()
}

/// An active cycle in `state`.
fn active(mode: ProjectMode, cycle: &str, policy: &str, state: &str) -> StateDoc {
    with(
        mode,
        &[
            ("WorkflowState", state),
            ("CycleMode", cycle),
            ("Id", ID),
            ("Request", "Add user search"),
            ("CompletionPolicy", policy),
        ],
    )
}

fn std_brown(state: &str) -> StateDoc {
    active(
        ProjectMode::Brownfield,
        "STANDARD",
        "FULL_DELIVERABLE",
        state,
    )
}

fn facts(project: ProjectMode) -> Facts {
    Facts::new(project)
}

fn brown() -> Facts {
    facts(ProjectMode::Brownfield)
}

fn refusal(r: Result<Transition, Refusal>) -> Refusal {
    match r {
        Ok(t) => panic!("expected a refusal, got:\n{}", t.doc.render()),
        Err(r) => r,
    }
}

fn ok(r: Result<Transition, Refusal>) -> Transition {
    r.unwrap_or_else(|e| panic!("refused: {e}"))
}

fn field(doc: &StateDoc, name: &str) -> String {
    fields::scan(doc.render())
        .into_iter()
        .find(|f| f.name == name)
        .unwrap_or_else(|| panic!("no {name}"))
        .value
}

/// The lines of `after` that differ from `before` (same line count assumed).
fn changed_lines(before: &str, after: &str) -> Vec<String> {
    before
        .lines()
        .zip(after.lines())
        .filter(|(a, b)| a != b)
        .map(|(_, b)| b.to_string())
        .collect()
}

// ---- start

#[test]
fn first_greenfield_cycle_starts_in_scoping_with_initial_handoff() {
    let doc = StateDoc::parse(&fresh_template(ProjectMode::Greenfield)).unwrap();
    let t = ok(apply(
        &doc,
        &facts(ProjectMode::Greenfield),
        &Move::Start {
            request: StartRequest {
                request: Some("Build the greeting app".into()),
                ..Default::default()
            },
            id: NEW_ID.into(),
        },
    ));
    assert_eq!(t.kind, MoveKind::Start);
    let d = &t.doc;
    assert_eq!(d.workflow_state.value, W::Scoping);
    assert_eq!(d.cycle_mode.value, CycleMode::Standard);
    assert_eq!(d.active_work.id.value, NEW_ID);
    assert_eq!(
        d.active_work.completion_policy.value,
        CompletionPolicy::FullDeliverable
    );
    assert_eq!(d.handoff.kind.value, "INITIAL");
    assert_eq!(d.handoff.from.value, "NONE");
    // The comment under BaselineReconciliation and every other line stay.
    assert!(d.render().contains("<!-- When non-NONE"));
    assert_eq!(d.render().lines().count(), doc.render().lines().count());
}

#[test]
fn start_after_cancel_carries_the_baseline_and_enters_auditing() {
    let doc = with(
        ProjectMode::Brownfield,
        &[
            ("WorkflowState", "CANCELLED"),
            ("Id", ID),
            ("Request", "Add user search"),
            ("CompletionPolicy", "FULL_DELIVERABLE"),
            ("Kind", "CANCEL"),
            ("From", "DEVELOPING"),
        ],
    );
    let start = |no_changes| Move::Start {
        request: StartRequest {
            request: Some("Add paging".into()),
            mode: None,
            policy: Some(CompletionPolicy::ImplementationReviewed),
            cancelled_left_no_changes: no_changes,
        },
        id: NEW_ID.into(),
    };
    let t = ok(apply(&doc, &brown(), &start(false)));
    let d = &t.doc;
    assert_eq!(d.workflow_state.value, W::Auditing);
    assert_eq!(d.handoff.kind.value, "NEW_CYCLE");
    assert_eq!(d.handoff.from.value, "CANCELLED");
    match &d.active_work.baseline {
        Baseline::Entries(e) => {
            assert_eq!(e.len(), 1);
            assert_eq!(e[0].source_cycle.value, ID);
            assert_eq!(e[0].request.value, "Add user search");
        }
        other => panic!("{other:?}"),
    }
    assert!(d
        .active_work
        .request
        .value
        .contains("IMPLEMENTATION_REVIEWED"));
    assert!(d.render().contains("<!-- When non-NONE"), "{}", d.render());
    // Starting again from the result is refused: the cycle is active.
    let again = refusal(apply(d, &brown(), &start(false)));
    assert_eq!(again.rule, START_A_CYCLE);
    // The user's confirmation that nothing was left keeps the baseline NONE.
    let t = ok(apply(&doc, &brown(), &start(true)));
    assert_eq!(t.doc.active_work.baseline, Baseline::None);
    assert_eq!(t.doc.workflow_state.value, W::Auditing);
}

#[test]
fn an_illegal_mode_saves_the_request_as_blocked_instead_of_starting() {
    let doc = StateDoc::parse(&fresh_template(ProjectMode::Greenfield)).unwrap();
    let t = ok(apply(
        &doc,
        &facts(ProjectMode::Greenfield),
        &Move::Start {
            request: StartRequest {
                request: Some("Fix a typo".into()),
                mode: Some(CycleMode::Expedited),
                ..Default::default()
            },
            id: NEW_ID.into(),
        },
    ));
    assert_eq!(t.kind, MoveKind::StartBlocked);
    let d = &t.doc;
    assert_eq!(d.workflow_state.value, W::Scoping);
    assert_eq!(d.cycle_mode.value, CycleMode::Unset);
    assert_eq!(d.active_work.id.value, "UNSET");
    assert!(d.pending_cycle_request.value.starts_with("Fix a typo"));
    assert!(d.pending_cycle_blocked_on.value.contains("GREENFIELD"));
    assert_eq!(changed_lines(doc.render(), d.render()).len(), 1);
    // The saved choices need a decision: no silent fallback to STANDARD.
    let r = refusal(apply(
        d,
        &facts(ProjectMode::Greenfield),
        &Move::Start {
            request: StartRequest::default(),
            id: NEW_ID.into(),
        },
    ));
    assert!(
        r.message.contains("requested mode EXPEDITED"),
        "{}",
        r.message
    );
    // Deciding STANDARD starts the saved request, without the stale choice.
    let t2 = ok(apply(
        d,
        &facts(ProjectMode::Greenfield),
        &Move::Start {
            request: StartRequest {
                mode: Some(CycleMode::Standard),
                ..Default::default()
            },
            id: NEW_ID.into(),
        },
    ));
    assert_eq!(t2.kind, MoveKind::Start);
    assert_eq!(t2.doc.active_work.request.value, "Fix a typo");
    assert_eq!(t2.doc.pending_cycle_request.value, "UNSET");
    // Dropping it clears both fields.
    let dropped = ok(unblock(d));
    assert_eq!(dropped.doc.render(), doc.render());
}

#[test]
fn expedited_needs_no_open_reconciliation() {
    let doc = with(
        ProjectMode::Brownfield,
        &[
            ("WorkflowState", "CANCELLED"),
            ("Id", ID),
            ("Request", "Add user search"),
        ],
    );
    let t = ok(plan_start(
        &doc,
        &brown(),
        &StartRequest {
            request: Some("x".into()),
            mode: Some(CycleMode::Expedited),
            ..Default::default()
        },
    )
    .map(|p| match p {
        StartPlan::Blocked(t) => *t,
        StartPlan::Ready(b) => panic!("{b:?}"),
    }));
    assert!(t
        .doc
        .pending_cycle_blocked_on
        .value
        .contains("baseline reconciliation"));
}

// ---- handoff

#[test]
fn forward_handoff_changes_only_the_state_and_the_handoff() {
    let doc = std_brown("AUDITING");
    let t = ok(handoff(
        &doc,
        &brown(),
        W::Scoping,
        "Context is current.",
        false,
    ));
    assert_eq!(t.doc.workflow_state.value, W::Scoping);
    assert_eq!(field(&t.doc, "Kind"), "FORWARD");
    assert_eq!(field(&t.doc, "From"), "AUDITING");
    let changed = changed_lines(doc.render(), t.doc.render());
    assert_eq!(changed.len(), 3, "{changed:#?}");
    assert!(changed[0].starts_with("`WorkflowState`: `SCOPING`"));
}

#[test]
fn a_skipped_forward_state_is_refused() {
    let r = refusal(handoff(
        &active(
            ProjectMode::Greenfield,
            "STANDARD",
            "FULL_DELIVERABLE",
            "SCOPING",
        ),
        &facts(ProjectMode::Greenfield),
        W::Auditing,
        "x",
        false,
    ));
    assert_eq!(r.rule, FORWARD_TRANSITIONS);
    assert!(
        r.message.contains("goes to `ARCHITECTING`"),
        "{}",
        r.message
    );
}

#[test]
fn wrong_topology_for_the_cycle_mode_is_refused() {
    // Expedited: DEVELOPING -> TESTING does not exist.
    let exp = active(ProjectMode::Brownfield, "EXPEDITED", "NONE", "DEVELOPING");
    let r = refusal(handoff(&exp, &brown(), W::Testing, "x", false));
    assert_eq!(r.rule, FORWARD_TRANSITIONS);
    assert!(
        ok(handoff(
            &exp,
            &brown(),
            W::ReviewingImplementation,
            "x",
            false
        ))
        .changed
    );
    // Expedited: an architecture defect has no owner; promotion instead.
    let r = refusal(fail(&exp, &brown(), FailureType::Architecture, "x", None));
    assert_eq!(r.rule, PROMOTION);
    assert!(r.hint.unwrap().contains("git standards promote"));
    // Documentation: no implementation owner; a user decision instead.
    let doc = active(
        ProjectMode::Brownfield,
        "DOCUMENTATION",
        "NONE",
        "DOCUMENTING",
    );
    let r = refusal(fail(&doc, &brown(), FailureType::Implementation, "x", None));
    assert_eq!(r.rule, DOCUMENTATION_CONTRACT);
    assert!(r.hint.unwrap().contains("git standards block"));
    // Implementation-reviewed closes at the review.
    let ir = active(
        ProjectMode::Brownfield,
        "STANDARD",
        "IMPLEMENTATION_REVIEWED",
        "REVIEWING_IMPLEMENTATION",
    );
    assert_eq!(
        refusal(handoff(&ir, &brown(), W::Documenting, "x", false)).rule,
        FORWARD_TRANSITIONS
    );
    assert!(ok(handoff(&ir, &brown(), W::AwaitingUserSignoff, "x", false)).changed);
}

#[test]
fn a_forward_handoff_with_problems_in_owned_files_is_refused() {
    let mut f = brown();
    f.owned_problems = vec![".standards/CONTEXT.md: missing [CX-001]".into()];
    let r = refusal(handoff(&std_brown("AUDITING"), &f, W::Scoping, "x", false));
    assert_eq!(r.rule, RUNTIME_TOOLS);
    assert!(r.message.contains("CONTEXT.md"));
    // A failure handoff is not a completion gate: it is allowed.
    assert!(
        ok(fail(
            &std_brown("ARCHITECTING"),
            &f,
            FailureType::Scoping,
            "AC-002 is ambiguous.",
            None
        ))
        .changed
    );
}

#[test]
fn blocked_cycles_and_user_states_refuse_handoffs() {
    let mut text = std_brown("SCOPING").render().to_string();
    text = set(&text, "BlockedOn", "Which index?");
    let blocked = StateDoc::parse(&text).unwrap();
    assert_eq!(
        refusal(handoff(&blocked, &brown(), W::Architecting, "x", false)).rule,
        STATE_UPDATE_RULES
    );
    let r = refusal(handoff(
        &std_brown("AWAITING_USER_SIGNOFF"),
        &brown(),
        W::SignedOff,
        "x",
        false,
    ));
    assert_eq!(r.rule, HANDOFF_RULES);
    let none = StateDoc::parse(&fresh_template(ProjectMode::Brownfield)).unwrap();
    assert!(refusal(handoff(&none, &brown(), W::Scoping, "x", false))
        .message
        .contains("needs an active cycle"));
}

#[test]
fn checkpoints_need_incremental_cadence_standard_mode_no_recovery_and_one_increment() {
    let dev = std_brown("DEVELOPING");
    let mut inc = brown();
    inc.effective_cadence = Some(Cadence::Incremental);
    // Outside INCREMENTAL.
    let r = refusal(handoff(
        &dev,
        &brown(),
        W::Testing,
        "Increment 1 ready.",
        true,
    ));
    assert_eq!(r.rule, CHECKPOINT_HANDOFFS);
    assert!(r.message.contains("INCREMENTAL"));
    // Wrong pair of states.
    let r = refusal(handoff(
        &std_brown("SCOPING"),
        &inc,
        W::Architecting,
        "Increment 1 ready.",
        true,
    ));
    assert!(r.message.contains("DEVELOPING -> TESTING"));
    // No increment named, or two.
    assert!(refusal(handoff(&dev, &inc, W::Testing, "Ready.", true))
        .message
        .contains("names 0"));
    assert!(refusal(handoff(
        &dev,
        &inc,
        W::Testing,
        "Increment 1 and Increment 2.",
        true
    ))
    .message
    .contains("names 2"));
    // Expedited.
    let exp = active(ProjectMode::Brownfield, "EXPEDITED", "NONE", "DEVELOPING");
    assert!(
        refusal(handoff(&exp, &inc, W::Testing, "Increment 1.", true))
            .message
            .contains("only in STANDARD")
    );
    let t = ok(handoff(
        &dev,
        &inc,
        W::Testing,
        "Increment 1 is ready.",
        true,
    ));
    assert_eq!(t.kind, MoveKind::Checkpoint);
    assert_eq!(field(&t.doc, "Kind"), "CHECKPOINT");
    assert!(t.doc.recovery.entries.is_empty());
}

// ---- failures, recovery

#[test]
fn failures_push_a_frame_only_when_the_state_changes() {
    let t = ok(fail(
        &std_brown("TESTING"),
        &brown(),
        FailureType::Architecture,
        "Retry behavior is not defined.",
        None,
    ));
    let d = &t.doc;
    assert_eq!(d.workflow_state.value, W::Architecting);
    assert!(d.recovery.active.value);
    let f = &d.recovery.entries[0];
    assert_eq!(f.label, "1");
    assert_eq!(f.get("From"), Some("TESTING"));
    assert_eq!(f.get("Owner"), Some("ARCHITECTING"));
    assert_eq!(f.get("ResumeAt"), Some("TESTING"));
    assert_eq!(f.get("RerunThrough"), Some("NONE"));
    assert!(d
        .render()
        .ends_with("## Outstanding Obligations\n\n`Active`: `false`\n"));

    let same = ok(fail(
        &std_brown("TESTING"),
        &brown(),
        FailureType::Verification,
        "A test is flaky.",
        None,
    ));
    assert_eq!(same.doc.workflow_state.value, W::Testing);
    assert!(same.doc.recovery.entries.is_empty());
    assert_eq!(field(&same.doc, "Kind"), "FAILURE");
}

#[test]
fn a_failure_routed_to_the_wrong_owner_is_refused() {
    let r = refusal(fail(
        &std_brown("TESTING"),
        &brown(),
        FailureType::Architecture,
        "x",
        Some(W::Scoping),
    ));
    assert_eq!(r.rule, FAILURE_HANDOFFS);
    // REVIEW has two owners in STANDARD: the review must be named.
    let r = refusal(fail(
        &std_brown("SYNCHRONIZING"),
        &brown(),
        FailureType::Review,
        "x",
        None,
    ));
    assert!(r.message.contains("--to"), "{}", r.message);
    let t = ok(fail(
        &std_brown("SYNCHRONIZING"),
        &brown(),
        FailureType::Review,
        "F-001 is wrong.",
        Some(W::ReviewingFinal),
    ));
    assert_eq!(t.doc.workflow_state.value, W::ReviewingFinal);
}

#[test]
fn resume_pops_or_plans_and_only_the_owner_may() {
    let frame = ok(fail(
        &std_brown("TESTING"),
        &brown(),
        FailureType::Architecture,
        "Retry behavior is not defined.",
        None,
    ))
    .doc;
    // Forward handoff while the owner has not planned: refused.
    let r = refusal(handoff(&frame, &brown(), W::Developing, "x", false));
    assert_eq!(r.rule, RECOVERY_MECHANICS);
    // Rerun boundary at sign-off readiness or before the owner: refused.
    for bad in [W::AwaitingUserSignoff, W::Scoping, W::Architecting] {
        assert_eq!(
            refusal(resume(&frame, &brown(), Some(bad), None, None)).rule,
            RECOVERY_MECHANICS
        );
    }
    // No rerun: pop and resume.
    let popped = ok(resume(&frame, &brown(), None, None, None)).doc;
    assert_eq!(popped.workflow_state.value, W::Testing);
    assert!(!popped.recovery.active.value && popped.recovery.entries.is_empty());
    assert_eq!(field(&popped, "Kind"), "RESUME");
    assert_eq!(
        popped.render(),
        std_brown("TESTING")
            .render()
            .replace(
                "`Kind`: `INITIAL` `From`: `NONE` `FailureType`: `NONE` `Reason`:\n`Initial brownfield workflow state; cycle mode not yet selected.`",
                "`Kind`: `RESUME` `From`: `ARCHITECTING` `FailureType`: `NONE` `Reason`:\n`Recovery frame 1 (ARCHITECTURE) corrected without rerun; resuming at TESTING.`"
            ),
        "popping restores the stack bytes"
    );
    // Rerun through DEVELOPING, then the boundary pops.
    let rerun = ok(resume(&frame, &brown(), Some(W::Developing), None, None)).doc;
    assert_eq!(rerun.workflow_state.value, W::Developing);
    assert_eq!(
        rerun.recovery.entries[0].get("RerunThrough"),
        Some("DEVELOPING")
    );
    assert_eq!(field(&rerun, "Kind"), "FORWARD");
    // Only the owner plans: a second plan at the boundary is refused.
    assert!(
        refusal(resume(&rerun, &brown(), Some(W::Testing), None, None))
            .message
            .contains("already planned")
    );
    let back = ok(resume(&rerun, &brown(), None, None, None)).doc;
    assert_eq!(back.workflow_state.value, W::Testing);
    assert!(back.recovery.entries.is_empty());
    // No frame at all.
    assert!(
        refusal(resume(&std_brown("TESTING"), &brown(), None, None, None))
            .message
            .contains("no recovery frame")
    );
}

#[test]
fn rework_replaces_the_request_and_pushes_a_frame() {
    let t = ok(rework(
        &std_brown("AWAITING_USER_SIGNOFF"),
        &brown(),
        FailureType::Scoping,
        "Add user search by email too",
        None,
    ));
    let d = &t.doc;
    assert_eq!(d.workflow_state.value, W::Scoping);
    assert_eq!(d.active_work.request.value, "Add user search by email too");
    assert_eq!(field(d, "Kind"), "USER_REWORK");
    assert_eq!(
        d.recovery.entries[0].get("ResumeAt"),
        Some("AWAITING_USER_SIGNOFF")
    );
    // Expedited rework needing a skipped role promotes the cycle and keeps
    // the changed request (Expedited Promotion, steps 1 and 3).
    let exp = active(ProjectMode::Brownfield, "EXPEDITED", "NONE", "DEVELOPING");
    let t = ok(rework(
        &exp,
        &brown(),
        FailureType::Scoping,
        "Search by email too",
        None,
    ));
    assert_eq!(t.kind, MoveKind::Promote);
    assert_eq!(t.doc.workflow_state.value, W::Auditing);
    assert_eq!(t.doc.cycle_mode.value, CycleMode::Standard);
    assert_eq!(t.doc.active_work.request.value, "Search by email too");
    assert_eq!(field(&t.doc, "Kind"), "PROMOTE");
    assert_eq!(field(&t.doc, "From"), "DEVELOPING");
}

#[test]
fn incremental_cadence_in_an_expedited_cycle_promotes_and_stays_pending() {
    // Switch verification cadence (step 1).
    let exp = active(ProjectMode::Brownfield, "EXPEDITED", "NONE", "DEVELOPING");
    let t = ok(cadence(&exp, &brown(), Cadence::Incremental));
    assert_eq!(t.kind, MoveKind::Promote);
    assert_eq!(t.doc.workflow_state.value, W::Auditing);
    assert_eq!(t.doc.cycle_mode.value, CycleMode::Standard);
    assert_eq!(
        t.doc.active_work.pending_verification_cadence.value,
        PendingCadence::Incremental
    );
    // AFTER_IMPLEMENTATION is the expedited cadence already: no promotion.
    let t = ok(cadence(&exp, &brown(), Cadence::AfterImplementation));
    assert_eq!(t.kind, MoveKind::Cadence);
    assert_eq!(t.doc.cycle_mode.value, CycleMode::Expedited);
}

// ---- user decisions

#[test]
fn signoff_needs_readiness_an_empty_stack_and_no_obligations() {
    assert_eq!(
        refusal(signoff(&std_brown("SYNCHRONIZING"), &brown())).rule,
        SIGN_OFF
    );
    let with_frame = ok(rework(
        &std_brown("SYNCHRONIZING"),
        &brown(),
        FailureType::Documentation,
        "Document paging too",
        None,
    ))
    .doc;
    let text = set(
        with_frame.render(),
        "WorkflowState",
        "AWAITING_USER_SIGNOFF",
    );
    let r = refusal(signoff(&StateDoc::parse(&text).unwrap(), &brown()));
    assert_eq!(r.rule, RECOVERY_MECHANICS);
    let promoted = ok(promote(
        &StateDoc::parse(
            &fresh_template(ProjectMode::Brownfield)
                .replace("`Active`: `false`\n\n## Outstanding", "`Active`: `true`\n\n### Frame 1\n\n`From`: `REVIEWING_IMPLEMENTATION` `Owner`: `DEVELOPING` `FailureType`: `IMPLEMENTATION`\n`Reason`: `Duplicates.` `ResumeAt`: `REVIEWING_IMPLEMENTATION` `RerunThrough`: `NONE`\n\n## Outstanding")
                .replace("`WorkflowState`: `AUDITING` `CycleMode`: `UNSET`", "`WorkflowState`: `DEVELOPING` `CycleMode`: `EXPEDITED`")
                .replace("`Id`: `UNSET` `Request`: `UNSET`", &format!("`Id`: `{ID}` `Request`: `Fix duplicates`")),
        )
        .unwrap(),
        &brown(),
        "Tester-owned verification is needed.",
    ))
    .doc;
    assert_eq!(promoted.obligations.entries.len(), 1);
    assert!(promoted.recovery.entries.is_empty());
    let text = set(promoted.render(), "WorkflowState", "AWAITING_USER_SIGNOFF");
    let r = refusal(signoff(&StateDoc::parse(&text).unwrap(), &brown()));
    assert!(r.message.contains("outstanding obligation"));

    let t = ok(signoff(&std_brown("AWAITING_USER_SIGNOFF"), &brown()));
    assert_eq!(t.doc.workflow_state.value, W::SignedOff);
    assert_eq!(t.doc.cycle_mode.value, CycleMode::Unset);
    assert_eq!(
        t.doc.active_work.completion_policy.value,
        CompletionPolicy::FullDeliverable
    );
    assert_eq!(field(&t.doc, "Kind"), "SIGNOFF");
    assert!(MoveKind::Signoff.user_authority(W::AwaitingUserSignoff));
}

#[test]
fn promotion_converts_unfinished_frames_and_lands_in_standard_auditing() {
    let exp = active(
        ProjectMode::Brownfield,
        "EXPEDITED",
        "NONE",
        "REVIEWING_IMPLEMENTATION",
    );
    let failed = ok(fail(
        &exp,
        &brown(),
        FailureType::Implementation,
        "Duplicates.",
        None,
    ))
    .doc;
    let t = ok(promote(
        &failed,
        &brown(),
        "Tester-owned verification is needed.",
    ));
    let d = &t.doc;
    assert_eq!(d.workflow_state.value, W::Auditing);
    assert_eq!(d.cycle_mode.value, CycleMode::Standard);
    assert_eq!(
        d.active_work.completion_policy.value,
        CompletionPolicy::FullDeliverable
    );
    assert_eq!(
        d.active_work.promotion_reason.value,
        "Tester-owned verification is needed."
    );
    assert!(d.obligations.active.value);
    assert_eq!(d.obligations.entries[0].get("Owner"), Some("DEVELOPING"));
    assert_eq!(d.obligations.entries[0].get("Reason"), Some("Duplicates."));
    assert!(!d.recovery.active.value);
    assert!(!MoveKind::Promote.user_authority(W::Developing));
    assert!(MoveKind::Promote.user_authority(W::AwaitingUserSignoff));
    assert_eq!(
        refusal(promote(&std_brown("TESTING"), &brown(), "x")).rule,
        PROMOTION
    );
}

#[test]
fn policy_changes_follow_the_permitted_routes() {
    let t = ok(policy(
        &std_brown("TESTING"),
        &brown(),
        CompletionPolicy::ImplementationReviewed,
        Some("A demo only"),
    ));
    assert_eq!(t.doc.workflow_state.value, W::Testing);
    assert_eq!(
        field(&t.doc, "Kind"),
        "INITIAL",
        "same state keeps the handoff"
    );
    assert!(t
        .doc
        .active_work
        .request
        .value
        .contains("IMPLEMENTATION_REVIEWED"));
    assert!(t.doc.active_work.request.value.contains("A demo only"));
    // Repeating it changes nothing.
    let again = ok(policy(
        &t.doc,
        &brown(),
        CompletionPolicy::ImplementationReviewed,
        None,
    ));
    assert!(!again.changed);
    // Back again: one instruction, not two.
    let back = ok(policy(
        &t.doc,
        &brown(),
        CompletionPolicy::FullDeliverable,
        None,
    ))
    .doc;
    assert_eq!(
        back.active_work.request.value.matches(POLICY_TAG).count(),
        1
    );
    // Withdrawal at sign-off readiness resumes at DOCUMENTING.
    let ir = active(
        ProjectMode::Brownfield,
        "STANDARD",
        "IMPLEMENTATION_REVIEWED",
        "AWAITING_USER_SIGNOFF",
    );
    let w = ok(policy(
        &ir,
        &brown(),
        CompletionPolicy::FullDeliverable,
        None,
    ))
    .doc;
    assert_eq!(w.workflow_state.value, W::Documenting);
    assert_eq!(field(&w, "Kind"), "COMPLETION_CHANGE");
    assert_eq!(field(&w, "From"), "AWAITING_USER_SIGNOFF");
    // From DOCUMENTING entered by that change, the shorter policy returns to the review.
    let r = ok(policy(
        &w,
        &brown(),
        CompletionPolicy::ImplementationReviewed,
        None,
    ))
    .doc;
    assert_eq!(r.workflow_state.value, W::ReviewingImplementation);
    // Not once the Documenter started, not in REVIEWING_FINAL, not expedited.
    let mut started = brown();
    started.documentation_started = true;
    assert_eq!(
        refusal(policy(
            &w,
            &started,
            CompletionPolicy::ImplementationReviewed,
            None
        ))
        .rule,
        CHANGE_POLICY
    );
    assert_eq!(
        refusal(policy(
            &std_brown("REVIEWING_FINAL"),
            &brown(),
            CompletionPolicy::ImplementationReviewed,
            None
        ))
        .rule,
        CHANGE_POLICY
    );
    let exp = active(ProjectMode::Brownfield, "EXPEDITED", "NONE", "DEVELOPING");
    assert!(refusal(policy(
        &exp,
        &brown(),
        CompletionPolicy::FullDeliverable,
        None
    ))
    .hint
    .unwrap()
    .contains("promote"));
    assert!(MoveKind::Policy.user_authority(W::Testing));
}

#[test]
fn cadence_requests_are_recorded_for_the_developer() {
    let t = ok(cadence(
        &std_brown("DEVELOPING"),
        &brown(),
        Cadence::Incremental,
    ));
    assert_eq!(
        t.doc.active_work.pending_verification_cadence.value,
        PendingCadence::Incremental
    );
    assert_eq!(
        changed_lines(std_brown("DEVELOPING").render(), t.doc.render()).len(),
        1
    );
    let mut f = brown();
    f.effective_cadence = Some(Cadence::Incremental);
    let cleared = ok(cadence(&t.doc, &f, Cadence::Incremental)).doc;
    assert_eq!(
        cleared.active_work.pending_verification_cadence.value,
        PendingCadence::None
    );
    let doc = active(ProjectMode::Brownfield, "DOCUMENTATION", "NONE", "SCOPING");
    assert_eq!(
        refusal(cadence(&doc, &brown(), Cadence::Incremental)).rule,
        SWITCH_CADENCE
    );
    // INCREMENTAL in an expedited cycle promotes it (issue 23; see
    // incremental_cadence_in_an_expedited_cycle_promotes_and_stays_pending).
    let exp = active(ProjectMode::Brownfield, "EXPEDITED", "NONE", "DEVELOPING");
    assert_eq!(
        ok(cadence(&exp, &brown(), Cadence::Incremental)).kind,
        MoveKind::Promote
    );
}

#[test]
fn cancel_keeps_the_cycle_in_brownfield_and_refuses_in_greenfield() {
    let frame = ok(fail(
        &std_brown("TESTING"),
        &brown(),
        FailureType::Architecture,
        "x",
        None,
    ))
    .doc;
    let t = ok(cancel(&frame, &brown()));
    let d = &t.doc;
    assert_eq!(d.workflow_state.value, W::Cancelled);
    assert_eq!(d.cycle_mode.value, CycleMode::Unset);
    assert_eq!(d.active_work.id.value, ID);
    assert!(d.recovery.entries.is_empty() && !d.recovery.active.value);
    assert_eq!(field(d, "From"), "ARCHITECTING");
    let green = active(
        ProjectMode::Greenfield,
        "STANDARD",
        "FULL_DELIVERABLE",
        "SCOPING",
    );
    let r = refusal(cancel(&green, &facts(ProjectMode::Greenfield)));
    assert!(r
        .hint
        .unwrap()
        .contains("git standards reset --mode greenfield"));
    assert!(refusal(cancel(d, &brown()))
        .message
        .contains("no active cycle"));
}

#[test]
fn block_and_unblock() {
    let b = ok(block(&std_brown("SCOPING"), "Which index?")).doc;
    assert_eq!(b.active_work.blocked_on.value, "Which index?");
    assert!(refusal(block(&b, "Another?"))
        .message
        .contains("already blocked"));
    let u = ok(unblock(&b)).doc;
    assert_eq!(u.render(), std_brown("SCOPING").render());
    assert!(refusal(unblock(&u)).message.contains("nothing is blocked"));
}

#[test]
fn file_owners() {
    let d = std_brown("TESTING");
    assert_eq!(file_owner(&d, ".standards/CONTEXT.md"), Some(Role::Auditor));
    assert_eq!(
        file_owner(
            &d,
            &format!(".standards/docs/reviews/{ID}/implementation.md")
        ),
        Some(Role::Reviewer)
    );
    assert_eq!(file_owner(&d, ".standards/STATE.md"), None);
    let text = set(d.render(), "Scope", "docs/scope.md");
    assert_eq!(
        file_owner(&StateDoc::parse(&text).unwrap(), "docs/scope.md"),
        Some(Role::Scoper)
    );
}

fn next(mode: CycleMode) -> Move {
    Move::NextMode {
        mode,
        cancelled_left_no_changes: false,
        id: NEW_ID.into(),
    }
}

#[test]
fn next_mode_writes_only_the_preference_while_no_cycle_is_active() {
    let doc = StateDoc::parse(&fresh_template(ProjectMode::Brownfield)).unwrap();
    let t = ok(apply(&doc, &brown(), &next(CycleMode::Documentation)));
    assert_eq!(t.kind, MoveKind::NextMode);
    assert!(t.kind.user_authority(t.before), "the user's decision");
    assert_eq!(t.doc.pending_cycle_mode.value, CycleMode::Documentation);
    assert_eq!(t.doc.cycle_mode.value, CycleMode::Unset);
    assert_eq!(
        changed_lines(doc.render(), t.doc.render()),
        ["`WorkflowState`: `AUDITING` `CycleMode`: `UNSET` `PendingCycleMode`: `DOCUMENTATION`"]
    );
    // The same preference again changes nothing; `unset` withdraws it.
    let again = ok(apply(&t.doc, &brown(), &next(CycleMode::Documentation)));
    assert!(!again.changed);
    let withdrawn = ok(apply(&t.doc, &brown(), &next(CycleMode::Unset)));
    assert_eq!(withdrawn.doc.render(), doc.render());
    // After a finished cycle too.
    let done = with(
        ProjectMode::Brownfield,
        &[
            ("WorkflowState", "SIGNED_OFF"),
            ("Id", ID),
            ("Request", "x"),
        ],
    );
    let t = ok(apply(&done, &brown(), &next(CycleMode::Expedited)));
    assert_eq!(t.doc.pending_cycle_mode.value, CycleMode::Expedited);
    assert_eq!(t.doc.active_work.id.value, ID, "Active Work is left alone");
}

#[test]
fn next_mode_is_refused_during_a_cycle_and_for_greenfield_non_standard_modes() {
    for cycle in ["STANDARD", "DOCUMENTATION"] {
        let doc = active(ProjectMode::Brownfield, cycle, "NONE", "AUDITING");
        let r = refusal(apply(&doc, &brown(), &next(CycleMode::Expedited)));
        assert_eq!(r.rule, "Choose the next cycle's mode");
        assert!(r.message.contains("is active"), "{}", r.message);
    }
    let green = StateDoc::parse(&fresh_template(ProjectMode::Greenfield)).unwrap();
    let gf = facts(ProjectMode::Greenfield);
    for mode in [CycleMode::Expedited, CycleMode::Documentation] {
        let r = refusal(apply(&green, &gf, &next(mode)));
        assert!(r.message.contains("GREENFIELD"), "{}", r.message);
    }
    let t = ok(apply(&green, &gf, &next(CycleMode::Standard)));
    assert_eq!(t.doc.pending_cycle_mode.value, CycleMode::Standard);
}

#[test]
fn next_mode_runs_the_start_checks_again_on_a_saved_request() {
    // A cancelled cycle leaves a reconciliation obligation, so a pending
    // EXPEDITED preference blocks the next request (Start a cycle, step 3).
    let cancelled = with(
        ProjectMode::Brownfield,
        &[
            ("WorkflowState", "CANCELLED"),
            ("Id", ID),
            ("Request", "Add user search"),
            ("PendingCycleMode", "EXPEDITED"),
        ],
    );
    let blocked = ok(apply(
        &cancelled,
        &brown(),
        &Move::Start {
            request: StartRequest {
                request: Some("Fix the typo".into()),
                ..Default::default()
            },
            id: NEW_ID.into(),
        },
    ));
    assert_eq!(blocked.kind, MoveKind::StartBlocked);
    // Still EXPEDITED: nothing to re-run; DOCUMENTATION passes the checks and
    // starts the saved request with the preference consumed.
    let same = ok(apply(&blocked.doc, &brown(), &next(CycleMode::Expedited)));
    assert!(!same.changed);
    let t = ok(apply(
        &blocked.doc,
        &brown(),
        &next(CycleMode::Documentation),
    ));
    assert_eq!(t.kind, MoveKind::Start);
    let d = &t.doc;
    assert_eq!(d.cycle_mode.value, CycleMode::Documentation);
    assert_eq!(d.pending_cycle_mode.value, CycleMode::Unset);
    assert_eq!(d.pending_cycle_request.value, "UNSET");
    assert_eq!(d.active_work.id.value, NEW_ID);
    assert_eq!(d.active_work.request.value, "Fix the typo");
    assert_eq!(d.workflow_state.value, W::Auditing);
    assert!(matches!(&d.active_work.baseline, Baseline::Entries(e) if e.len() == 1));
    // A saved request with the user's own explicit choices keeps waiting.
    let green = StateDoc::parse(&fresh_template(ProjectMode::Greenfield)).unwrap();
    let gf = facts(ProjectMode::Greenfield);
    let chosen = ok(apply(
        &green,
        &gf,
        &Move::Start {
            request: StartRequest {
                request: Some("Document it".into()),
                mode: Some(CycleMode::Documentation),
                ..Default::default()
            },
            id: NEW_ID.into(),
        },
    ));
    let t = ok(apply(&chosen.doc, &gf, &next(CycleMode::Standard)));
    assert_eq!(t.kind, MoveKind::NextMode);
    assert_eq!(t.doc.pending_cycle_mode.value, CycleMode::Standard);
    assert_eq!(
        t.doc.pending_cycle_request.value,
        chosen.doc.pending_cycle_request.value
    );
    assert_eq!(t.doc.active_work.id.value, "UNSET");
    assert!(t.summary.contains("still waits"), "{}", t.summary);
}

#[test]
fn artifact_paths_fill_only_an_unset_active_work_field() {
    let doc = std_brown("SCOPING");
    let path = format!(".standards/docs/scope/{ID}.md");
    let RecordPath::Set { field, doc: new } =
        record_path(&doc, ArtifactType::Scope, &path).unwrap()
    else {
        panic!("expected the field to be set")
    };
    assert_eq!(field, "Active Work.Scope");
    assert_eq!(new.active_work.scope.value, path);
    assert_eq!(changed_lines(doc.render(), new.render()).len(), 1);
    assert!(matches!(
        record_path(&new, ArtifactType::Scope, &path).unwrap(),
        RecordPath::Recorded { .. }
    ));
    // A project document the Scoper chose stays the cycle's scope.
    let chosen = with(
        ProjectMode::Brownfield,
        &[
            ("Id", ID),
            ("CycleMode", "STANDARD"),
            ("Scope", "docs/scope.md"),
        ],
    );
    assert!(matches!(
        record_path(&chosen, ArtifactType::Scope, &path).unwrap(),
        RecordPath::Elsewhere { current, .. } if current == "docs/scope.md"
    ));
    // Records without a field, and scope and design in an expedited cycle.
    assert!(matches!(
        record_path(&doc, ArtifactType::Verification, "x").unwrap(),
        RecordPath::NoField { .. }
    ));
    let exp = active(ProjectMode::Brownfield, "EXPEDITED", "NONE", "DEVELOPING");
    assert!(matches!(
        record_path(&exp, ArtifactType::Architecture, "x").unwrap(),
        RecordPath::NoField { .. }
    ));
    assert!(matches!(
        record_path(&exp, ArtifactType::Development, "x").unwrap(),
        RecordPath::Set { .. }
    ));
}
