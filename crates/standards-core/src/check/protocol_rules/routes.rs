//! PR rules decided by STATE.md (and MODE.md) of one snapshot: routes,
//! handoff records, entry states, terminal states, recovery frames and
//! outstanding obligations.

use crate::model::layout::STATE_PATH;
use crate::model::state::{Baseline, StateDoc};
use crate::model::vocab::{
    CompletionPolicy, CycleMode, FailureType, HandoffKind, ProjectMode, WorkflowState,
};
use crate::workflow::topology;

use super::super::{Cx, Sink};

use HandoffKind as K;
use WorkflowState as W;

pub fn check(cx: &Cx, sink: &mut Sink) {
    let Some(doc) = cx.doc() else { return };
    pr_001_forward_follows_the_route(cx, doc, sink);
    pr_002_signoff_from_readiness(doc, sink);
    pr_003_cancellation_record(doc, sink);
    pr_004_no_retained_cancellation_in_greenfield(cx, doc, sink);
    pr_005_cycle_start_source(doc, sink);
    pr_006_entry_state(cx, doc, sink);
    pr_007_inapplicable_handoff_fields(doc, sink);
    pr_008_promotion_source(doc, sink);
    pr_009_promotion_clears_recovery(doc, sink);
    pr_010_promotion_reason_recorded_once(doc, sink);
    pr_011_expedited_frames_stay_on_route(doc, sink);
    pr_012_rerun_through_a_working_state(doc, sink);
    pr_013_obligation_fields(doc, sink);
    pr_014_obligations_only_after_promotion(doc, sink);
    pr_015_obligation_owner_from_expedited(doc, sink);
    pr_016_no_forward_over_own_obligation(doc, sink);
    pr_017_signed_off_without_blocker(doc, sink);
    pr_018_signed_off_without_baseline(doc, sink);
    pr_019_audit_target_only_while_auditing(doc, sink);
    pr_039_no_shorter_policy_with_obligations(doc, sink);
    pr_040_promotion_invents_no_scope_or_design(doc, sink);
    pr_047_promotion_never_selects_the_shorter_policy(doc, sink);
}

fn active(doc: &StateDoc) -> bool {
    doc.has_active_cycle()
}

fn baseline_has_entries(doc: &StateDoc) -> bool {
    matches!(&doc.active_work.baseline, Baseline::Entries(e) if !e.is_empty())
}

/// The forward routes a standard cycle may be on. A cycle that started in
/// `GREENFIELD` keeps its greenfield route after Developer switches MODE.md
/// to `BROWNFIELD`, so a brownfield project accepts both; a policy chosen in
/// the same state keeps the handoff, so both policies' routes count too.
fn standard_routes(project: ProjectMode) -> Vec<&'static [WorkflowState]> {
    let mut out = Vec::with_capacity(4);
    let projects: &[ProjectMode] = match project {
        ProjectMode::Greenfield => &[ProjectMode::Greenfield],
        ProjectMode::Brownfield => &[ProjectMode::Greenfield, ProjectMode::Brownfield],
    };
    for p in projects {
        for policy in [
            CompletionPolicy::FullDeliverable,
            CompletionPolicy::ImplementationReviewed,
        ] {
            if let Some(route) = topology::forward_route(CycleMode::Standard, policy, *p) {
                out.push(route);
            }
        }
    }
    out
}

/// PR-001: a `FORWARD` handoff moves exactly one step along the cycle's fixed
/// route (PROTOCOL.md Forward Transitions; "a normal `FORWARD` still follows
/// the fixed route"). DOCUMENTATION cycles are TR-021's; the sign-off and
/// implementation-review successors outside recovery are TR-012's and
/// TR-013's.
fn pr_001_forward_follows_the_route(cx: &Cx, doc: &StateDoc, sink: &mut Sink) {
    if !active(doc) || doc.handoff.kind() != Some(K::Forward) {
        return;
    }
    let ws = doc.workflow_state.value;
    let mode = doc.cycle_mode.value;
    let recovering = doc.recovery.active.value;
    let routes = match mode {
        CycleMode::Standard => match cx.mode {
            Some(project) => standard_routes(project),
            None => return,
        },
        CycleMode::Expedited => vec![topology::expedited_route()],
        _ => return,
    };
    let Some(from) = doc.handoff.from_state() else {
        if doc.handoff.from.value != "NONE" {
            return; // TR-002: not a workflow state at all
        }
        sink.push_hinted(
            "PR-001",
            STATE_PATH,
            format!(
                "line {}: a `FORWARD` handoff needs the state it left in `From`, but `From` is `{}`",
                doc.handoff.from.line, doc.handoff.from.value
            ),
            Some("record the state the forward handoff left in `Handoff.From`".into()),
        );
        return;
    };
    if !recovering
        && (ws == W::AwaitingUserSignoff
            || (mode == CycleMode::Standard && from == W::ReviewingImplementation))
    {
        return; // TR-012 / TR-013
    }
    let legal = routes
        .iter()
        .any(|route| topology::successor(route, from) == Some(ws));
    if !legal {
        let mut next: Vec<WorkflowState> = routes
            .iter()
            .filter_map(|route| topology::successor(route, from))
            .collect();
        next.sort();
        next.dedup();
        let expected = if next.is_empty() {
            format!("`{from}` has no forward successor on the {mode} route")
        } else {
            format!("the route leads from `{from}` to {}", topology::list(&next))
        };
        sink.push_hinted(
            "PR-001",
            STATE_PATH,
            format!(
                "line {}: the `FORWARD` handoff from `{from}` lands in `{ws}`, but {expected}; a forward handoff moves one step along the cycle's fixed route",
                doc.workflow_state.line
            ),
            Some("a recovery-directed jump is a `RESUME`, a correction is a `FAILURE` or `USER_REWORK`; otherwise restore the state the route requires".into()),
        );
    }
}

/// PR-002: `SIGNED_OFF` is reached only by a `SIGNOFF` from
/// `AWAITING_USER_SIGNOFF`, and a `SIGNOFF` handoff means the cycle is
/// `SIGNED_OFF` (user-decisions.md, Sign off).
fn pr_002_signoff_from_readiness(doc: &StateDoc, sink: &mut Sink) {
    let ws = doc.workflow_state.value;
    let kind = doc.handoff.kind();
    if ws != W::SignedOff && kind != Some(K::Signoff) {
        return;
    }
    let from = doc.handoff.from_state();
    let problem = if ws != W::SignedOff {
        Some(format!(
            "the handoff is a `SIGNOFF`, but the state is `{ws}`; a sign-off leaves the cycle `SIGNED_OFF`"
        ))
    } else if kind != Some(K::Signoff) {
        Some(format!(
            "the state is `SIGNED_OFF`, but the last handoff is `{}`, not `SIGNOFF`",
            doc.handoff.kind.value
        ))
    } else if from != Some(W::AwaitingUserSignoff) {
        Some(format!(
            "the sign-off came from `{}`; sign-off is possible only from `AWAITING_USER_SIGNOFF`",
            doc.handoff.from.value
        ))
    } else {
        None
    };
    if let Some(message) = problem {
        sink.push_hinted(
            "PR-002",
            STATE_PATH,
            format!("line {}: {message}", doc.workflow_state.line),
            Some("only the user signs off, from `AWAITING_USER_SIGNOFF`, recording `Handoff.Kind: SIGNOFF` with `From: AWAITING_USER_SIGNOFF` (user-decisions.md, Sign off)".into()),
        );
    }
}

/// PR-003: `CANCELLED` is reached only by a `CANCEL` from a nonterminal state,
/// and a `CANCEL` handoff means the cycle is `CANCELLED` (user-decisions.md,
/// Cancel an active cycle).
fn pr_003_cancellation_record(doc: &StateDoc, sink: &mut Sink) {
    let ws = doc.workflow_state.value;
    let kind = doc.handoff.kind();
    if ws != W::Cancelled && kind != Some(K::Cancel) {
        return;
    }
    let problem = if ws != W::Cancelled {
        Some(format!(
            "the handoff is a `CANCEL`, but the state is `{ws}`; a cancellation leaves the cycle `CANCELLED`"
        ))
    } else if kind != Some(K::Cancel) {
        Some(format!(
            "the state is `CANCELLED`, but the last handoff is `{}`, not `CANCEL`",
            doc.handoff.kind.value
        ))
    } else {
        match doc.handoff.from_state() {
            Some(from) if !from.is_terminal() => None,
            _ => Some(format!(
                "the cancellation records `From` `{}`; it must name the interrupted nonterminal state",
                doc.handoff.from.value
            )),
        }
    };
    if let Some(message) = problem {
        sink.push_hinted(
            "PR-003",
            STATE_PATH,
            format!("line {}: {message}", doc.workflow_state.line),
            Some("a cancellation records `WorkflowState: CANCELLED` with `Handoff.Kind: CANCEL` and `From` set to the interrupted state (user-decisions.md, Cancel an active cycle)".into()),
        );
    }
}

/// PR-004: a `GREENFIELD` project never keeps a retained `CANCELLED` cycle:
/// Greenfield Bootstrap Cancellation resets it, or switches to `BROWNFIELD`
/// first when implementation exists.
fn pr_004_no_retained_cancellation_in_greenfield(cx: &Cx, doc: &StateDoc, sink: &mut Sink) {
    if cx.mode != Some(ProjectMode::Greenfield) {
        return;
    }
    let ws = doc.workflow_state.value;
    let after_cancel =
        doc.handoff.kind() == Some(K::NewCycle) && doc.handoff.from_state() == Some(W::Cancelled);
    if ws == W::Cancelled || after_cancel {
        let what = if ws == W::Cancelled {
            "the cycle is `CANCELLED`".to_string()
        } else {
            "the cycle started after a retained `CANCELLED`".to_string()
        };
        sink.push_hinted(
            "PR-004",
            STATE_PATH,
            format!(
                "line {}: {what} while MODE.md is `GREENFIELD`; cancelling while still `GREENFIELD` resets the workflow instead of leaving a terminal cycle",
                doc.workflow_state.line
            ),
            Some("follow Greenfield Bootstrap Cancellation (user-decisions.md): when no implementation exists, preview `git standards reset --mode greenfield --dry-run`, then run `git standards reset --mode greenfield --yes`, otherwise switch MODE.md to `BROWNFIELD` before cancelling".into()),
        );
    }
}

/// PR-005: a cycle's first handoff records where it started: `INITIAL` from
/// `NONE` for the first cycle, `NEW_CYCLE` from `SIGNED_OFF` or `CANCELLED`
/// after a terminal state (user-decisions.md, Start a cycle, step 5).
/// DOCUMENTATION cycles are TR-018's and TR-019's.
fn pr_005_cycle_start_source(doc: &StateDoc, sink: &mut Sink) {
    if doc.cycle_mode.value == CycleMode::Documentation {
        return;
    }
    let from = doc.handoff.from_state();
    let problem = match doc.handoff.kind() {
        Some(K::Initial) if doc.handoff.from.value != "NONE" => Some(format!(
            "the `INITIAL` handoff records `From` `{}`; the first cycle keeps `From: NONE`",
            doc.handoff.from.value
        )),
        Some(K::NewCycle) if !from.is_some_and(WorkflowState::is_terminal) => Some(format!(
            "the `NEW_CYCLE` handoff records `From` `{}`; a new cycle starts only from `SIGNED_OFF` or a retained `CANCELLED`",
            doc.handoff.from.value
        )),
        _ => None,
    };
    if let Some(message) = problem {
        sink.push_hinted(
            "PR-005",
            STATE_PATH,
            format!("line {}: {message}", doc.handoff.from.line),
            Some("a cycle can start only from the installed state, from `SIGNED_OFF`, or from a retained `CANCELLED` (user-decisions.md, Start a cycle)".into()),
        );
    }
}

/// PR-006: a cycle whose handoff still records its start is in its mode's
/// entry state: `STANDARD` starts in `SCOPING` (`GREENFIELD`) or `AUDITING`
/// (`BROWNFIELD`, or an open baseline reconciliation), `EXPEDITED` in
/// `DEVELOPING` (Project Modes; user-decisions.md, Start a cycle, step 5).
/// DOCUMENTATION cycles are TR-017's.
fn pr_006_entry_state(cx: &Cx, doc: &StateDoc, sink: &mut Sink) {
    if !active(doc) || !matches!(doc.handoff.kind(), Some(K::Initial | K::NewCycle)) {
        return;
    }
    let ws = doc.workflow_state.value;
    let allowed: &[WorkflowState] = match (doc.cycle_mode.value, cx.mode) {
        (CycleMode::Standard, Some(ProjectMode::Brownfield)) => &[W::Auditing],
        (CycleMode::Standard, Some(ProjectMode::Greenfield)) if baseline_has_entries(doc) => {
            &[W::Auditing]
        }
        (CycleMode::Standard, Some(ProjectMode::Greenfield)) => &[W::Scoping],
        (CycleMode::Expedited, _) => &[W::Developing],
        _ => return,
    };
    if !allowed.contains(&ws) {
        sink.push_hinted(
            "PR-006",
            STATE_PATH,
            format!(
                "line {}: the handoff is still the cycle's `{}` start, but the {} cycle is at `{ws}`; it starts in `{}`",
                doc.workflow_state.line,
                doc.handoff.kind.value,
                doc.cycle_mode.value,
                topology::list(allowed)
            ),
            Some("start the cycle in its entry state, or record the transition that moved it (a `FORWARD`, `FAILURE`, ...) in the Handoff section".into()),
        );
    }
}

/// PR-007: handoff fields that do not apply to the kind are `NONE`, and the
/// source state is recorded where it applies (Workflow State Reference ›
/// Handoff: "Use `NONE` for inapplicable fields").
fn pr_007_inapplicable_handoff_fields(doc: &StateDoc, sink: &mut Sink) {
    let Some(kind) = doc.handoff.kind() else {
        return;
    };
    let documentation = doc.cycle_mode.value == CycleMode::Documentation;
    // FailureType applies only to FAILURE and USER_REWORK. COMPLETION_CHANGE
    // and CHECKPOINT are TR-009's and TR-027's; in DOCUMENTATION cycles the
    // normal kinds are TR-020's and TR-023's.
    let failure_must_be_none = match kind {
        K::Promote | K::Signoff | K::Cancel => true,
        K::Initial | K::NewCycle | K::Forward | K::Resume => !documentation,
        _ => false,
    };
    if failure_must_be_none && doc.handoff.failure_type.value != "NONE" {
        sink.push_hinted(
            "PR-007",
            STATE_PATH,
            format!(
                "line {}: a `{kind}` handoff carries `FailureType` `{}`; only `FAILURE` and `USER_REWORK` have a failure type",
                doc.handoff.failure_type.line, doc.handoff.failure_type.value
            ),
            Some("set `Handoff.FailureType` to `NONE`".into()),
        );
    }
    // From applies to every kind but INITIAL; the kinds other rules own are skipped.
    let from_needed = match kind {
        K::Promote => true,
        K::Failure | K::UserRework | K::Resume => !documentation,
        _ => false,
    };
    if from_needed && doc.handoff.from_state().is_none() {
        sink.push_hinted(
            "PR-007",
            STATE_PATH,
            format!(
                "line {}: a `{kind}` handoff records `From` `{}`; it must name the state the transition left",
                doc.handoff.from.line, doc.handoff.from.value
            ),
            Some("record the interrupted or left state in `Handoff.From`".into()),
        );
    }
}

/// PR-008: a promotion leaves an expedited state: `From` is `DEVELOPING`,
/// `REVIEWING_IMPLEMENTATION` or `AWAITING_USER_SIGNOFF` (expedited.md,
/// Expedited Promotion: "`From` set to the interrupted state").
fn pr_008_promotion_source(doc: &StateDoc, sink: &mut Sink) {
    if doc.handoff.kind() != Some(K::Promote) {
        return;
    }
    let Some(from) = doc.handoff.from_state() else {
        return; // PR-007
    };
    if !topology::expedited_route().contains(&from) {
        sink.push_hinted(
            "PR-008",
            STATE_PATH,
            format!(
                "line {}: the promotion records `From` `{from}`, which is not a state of an expedited cycle ({})",
                doc.handoff.from.line,
                topology::list(topology::expedited_route())
            ),
            Some("only an expedited cycle is promoted, from the state it was interrupted in".into()),
        );
    }
}

/// PR-009: promotion empties the expedited recovery stack (expedited.md,
/// Expedited Promotion, step 5), and any later frame would replace the
/// `PROMOTE` handoff with the failure that pushed it.
fn pr_009_promotion_clears_recovery(doc: &StateDoc, sink: &mut Sink) {
    if doc.handoff.kind() != Some(K::Promote) {
        return;
    }
    if doc.recovery.active.value || !doc.recovery.entries.is_empty() {
        sink.push_hinted(
            "PR-009",
            STATE_PATH,
            format!(
                "line {}: the handoff is still the `PROMOTE`, but recovery is active with {} frame(s); promotion turns unfinished frames into outstanding obligations and empties the stack",
                doc.recovery.active.line,
                doc.recovery.entries.len()
            ),
            Some("move each frame with `RerunThrough: NONE` into `Outstanding Obligations` (Owner, FailureType, Reason), then set `Recovery.Active: false` with no frames".into()),
        );
    }
}

/// PR-010: the promotion's reason is stored as `Active Work.PromotionReason`
/// ("store the same reason in `Active Work.PromotionReason`").
fn pr_010_promotion_reason_recorded_once(doc: &StateDoc, sink: &mut Sink) {
    if doc.handoff.kind() != Some(K::Promote) {
        return;
    }
    let stored = &doc.active_work.promotion_reason.value;
    if stored == "NONE" {
        return; // TR-006
    }
    if stored.trim() != doc.handoff.reason.value.trim() {
        sink.push_hinted(
            "PR-010",
            STATE_PATH,
            format!(
                "line {}: `Active Work.PromotionReason` differs from the `PROMOTE` handoff's `Reason`; the promotion stores the same reason in both",
                doc.active_work.promotion_reason.line
            ),
            Some("copy the handoff's reason into `Active Work.PromotionReason`".into()),
        );
    }
}

/// PR-011: an expedited cycle's frames stay on the expedited route:
/// "Expedited recovery reruns only expedited states" (Recovery Mechanics).
fn pr_011_expedited_frames_stay_on_route(doc: &StateDoc, sink: &mut Sink) {
    if doc.cycle_mode.value != CycleMode::Expedited {
        return;
    }
    let route = topology::expedited_route();
    for frame in &doc.recovery.entries {
        for field in ["From", "Owner", "ResumeAt", "RerunThrough"] {
            let Some(value) = frame.get(field) else {
                continue;
            };
            if field == "RerunThrough" && value == "NONE" {
                continue;
            }
            let Ok(state) = value.parse::<WorkflowState>() else {
                continue; // RC-003 / RC-008
            };
            let on_route = route.contains(&state)
                && !(field != "From" && field != "ResumeAt" && state == W::AwaitingUserSignoff);
            if !on_route {
                sink.push_hinted(
                    "PR-011",
                    STATE_PATH,
                    format!(
                        "line {}: Frame {} has `{field}` `{state}`, which an expedited cycle does not have (its states are {})",
                        frame.line,
                        frame.label,
                        topology::list(route)
                    ),
                    Some("work that needs a skipped role or guarantee promotes the cycle (expedited.md, Expedited Promotion) instead of routing into a skipped state".into()),
                );
            }
        }
    }
}

/// PR-012: `RerunThrough` names a working state whose gate ends the rerun,
/// never `AWAITING_USER_SIGNOFF` or a terminal state (Recovery Mechanics,
/// rules 5 and 7). DOCUMENTATION frames are RC-013's.
fn pr_012_rerun_through_a_working_state(doc: &StateDoc, sink: &mut Sink) {
    if doc.cycle_mode.value == CycleMode::Documentation {
        return;
    }
    for frame in &doc.recovery.entries {
        if let Some(state) = frame.state("RerunThrough") {
            if matches!(state, W::AwaitingUserSignoff | W::SignedOff | W::Cancelled) {
                sink.push_hinted(
                    "PR-012",
                    STATE_PATH,
                    format!(
                        "line {}: Frame {} reruns through `{state}`, which has no gate to pass; `RerunThrough` is the last rerun state before the return to `ResumeAt`",
                        frame.line, frame.label
                    ),
                    Some("the frame owner sets `RerunThrough` to the last working state that must be re-established, or `NONE`".into()),
                );
            }
        }
    }
}

/// PR-013: an obligation has `Owner`, `FailureType` and `Reason` and
/// "deliberately has no `From`, `ResumeAt`, or `RerunThrough`".
fn pr_013_obligation_fields(doc: &StateDoc, sink: &mut Sink) {
    for entry in &doc.obligations.entries {
        for field in ["From", "ResumeAt", "RerunThrough"] {
            if entry.get(field).is_some() {
                sink.push_hinted(
                    "PR-013",
                    STATE_PATH,
                    format!(
                        "line {}: Obligation {} carries `{field}`; an outstanding obligation has only `Owner`, `FailureType` and `Reason`",
                        entry.line, entry.label
                    ),
                    Some(format!("remove `{field}` from the obligation; its routing ended with the promotion")),
                );
            }
        }
    }
}

/// PR-014: "Only Expedited Promotion adds entries": obligations exist only in
/// a promoted `STANDARD` cycle, which keeps its `PromotionReason`.
/// DOCUMENTATION cycles are RC-019's; terminal states RC-023's.
fn pr_014_obligations_only_after_promotion(doc: &StateDoc, sink: &mut Sink) {
    if doc.obligations.entries.is_empty() || !active(doc) {
        return;
    }
    let problem = match doc.cycle_mode.value {
        CycleMode::Expedited => Some("the cycle is still `EXPEDITED`, and only the promotion to `STANDARD` adds obligations".to_string()),
        CycleMode::Standard if doc.active_work.promotion_reason.value == "NONE" => Some(
            "`Active Work.PromotionReason` is `NONE`, so this cycle was never promoted, and only Expedited Promotion adds obligations".to_string(),
        ),
        _ => None,
    };
    if let Some(why) = problem {
        sink.push_hinted(
            "PR-014",
            STATE_PATH,
            format!(
                "line {}: Outstanding Obligations holds {} entr{}, but {why}",
                doc.obligations.active.line,
                doc.obligations.entries.len(),
                if doc.obligations.entries.len() == 1 { "y" } else { "ies" }
            ),
            Some("outside promotion a recovery frame is the lasting record of a correction; route the defect as a `FAILURE` instead".into()),
        );
    }
}

/// PR-015: obligations are converted expedited frames, so their owner is one
/// of the two expedited failure targets (`DEVELOPING`,
/// `REVIEWING_IMPLEMENTATION`) with a matching failure type.
fn pr_015_obligation_owner_from_expedited(doc: &StateDoc, sink: &mut Sink) {
    for entry in &doc.obligations.entries {
        let (Some(owner), Some(failure)) = (
            entry.state("Owner"),
            entry
                .get("FailureType")
                .and_then(|f| f.parse::<FailureType>().ok()),
        ) else {
            continue; // RC-020 / RC-021
        };
        if !topology::failure_targets(CycleMode::Expedited, failure).contains(&owner) {
            sink.push_hinted(
                "PR-015",
                STATE_PATH,
                format!(
                    "line {}: Obligation {} is owned by `{owner}` for `{failure}`, but obligations come only from expedited frames, which route `IMPLEMENTATION` to `DEVELOPING` and `REVIEW` to `REVIEWING_IMPLEMENTATION`",
                    entry.line, entry.label
                ),
                Some("a defect found after promotion is routed as a `FAILURE` with a recovery frame, not added as an obligation".into()),
            );
        }
    }
}

/// PR-016: an owner passes no normal forward handoff (or checkpoint) while an
/// obligation owned by its state remains (expedited.md, Outstanding
/// Obligations, "How they are discharged").
fn pr_016_no_forward_over_own_obligation(doc: &StateDoc, sink: &mut Sink) {
    if !active(doc) || !matches!(doc.handoff.kind(), Some(K::Forward | K::Checkpoint)) {
        return;
    }
    let Some(from) = doc.handoff.from_state() else {
        return;
    };
    for entry in &doc.obligations.entries {
        if entry.state("Owner") == Some(from) {
            sink.push_hinted(
                "PR-016",
                STATE_PATH,
                format!(
                    "line {}: the `{}` handoff left `{from}` while Obligation {} owned by `{from}` is still open; an owner corrects and removes its obligations before a normal handoff",
                    entry.line, doc.handoff.kind.value, entry.label
                ),
                Some(format!("return the work to `{from}` to correct and verify the obligation, then remove it and renumber the rest")),
            );
        }
    }
}

/// PR-017: a signed-off cycle carries no unresolved user question: sign-off
/// readiness needs `BlockedOn: NONE` and sign-off changes nothing else.
fn pr_017_signed_off_without_blocker(doc: &StateDoc, sink: &mut Sink) {
    if doc.workflow_state.value == W::SignedOff && doc.active_work.blocked_on.value != "NONE" {
        sink.push_hinted(
            "PR-017",
            STATE_PATH,
            format!(
                "line {}: the cycle is `SIGNED_OFF` but `Active Work.BlockedOn` still holds a question; sign-off is possible only with no blocking user question",
                doc.active_work.blocked_on.line
            ),
            Some("a question about the next cycle goes to `PendingCycleBlockedOn`; a question about this cycle had to be settled before sign-off".into()),
        );
    }
}

/// PR-018: a signed-off cycle has no unresolved baseline reconciliation
/// (Standard Cycle Completion: "`Active Work.BaselineReconciliation` must be
/// `NONE`"; sign-off keeps Active Work).
fn pr_018_signed_off_without_baseline(doc: &StateDoc, sink: &mut Sink) {
    if doc.workflow_state.value == W::SignedOff && baseline_has_entries(doc) {
        sink.push_hinted(
            "PR-018",
            STATE_PATH,
            format!(
                "line {}: the cycle is `SIGNED_OFF` with baseline reconciliation entries still listed; only Auditor clears them, before sign-off readiness",
                doc.active_work.baseline_line
            ),
            Some("the signed-off state must come from a sign-off-ready state, where `BaselineReconciliation` is `NONE`".into()),
        );
    }
}

/// PR-019: `AuditTarget` is transient: it names an in-progress targeted audit,
/// so outside recovery it is `NONE` in every state but `AUDITING` (Workflow
/// State Reference › Active Work). A retained `CANCELLED` keeps Active Work as
/// it was, so terminal states are left alone.
fn pr_019_audit_target_only_while_auditing(doc: &StateDoc, sink: &mut Sink) {
    if !active(doc)
        || doc.recovery.active.value
        || doc.workflow_state.value == W::Auditing
        || doc.active_work.audit_target.value == "NONE"
    {
        return;
    }
    sink.push_hinted(
        "PR-019",
        STATE_PATH,
        format!(
            "line {}: `Active Work.AuditTarget` is set while the cycle is at `{}` with no recovery to return to an audit; Auditor clears it when the targeted audit completes",
            doc.active_work.audit_target.line, doc.workflow_state.value
        ),
        Some("set `AuditTarget` to `NONE`: the audit it named has ended".into()),
    );
}

/// PR-039: promotion sets `FULL_DELIVERABLE`, and a later choice of
/// `IMPLEMENTATION_REVIEWED` "needs ... outstanding obligations inactive with
/// no entries" (user-decisions.md, Change completion policy, step 2), so the
/// shorter policy never coexists with an obligation.
fn pr_039_no_shorter_policy_with_obligations(doc: &StateDoc, sink: &mut Sink) {
    if !active(doc)
        || doc.active_work.completion_policy.value != CompletionPolicy::ImplementationReviewed
        || doc.obligations.entries.is_empty()
    {
        return;
    }
    sink.push_hinted(
        "PR-039",
        STATE_PATH,
        format!(
            "line {}: the cycle is under `IMPLEMENTATION_REVIEWED` while {} outstanding obligation(s) remain; promotion selects `FULL_DELIVERABLE`, and the shorter policy can be chosen only once no obligation is left",
            doc.active_work.completion_policy.line,
            doc.obligations.entries.len()
        ),
        Some("restore `CompletionPolicy: FULL_DELIVERABLE`; the user may choose the shorter policy after the obligations are discharged".into()),
    );
}

/// PR-040: promotion keeps every record but "Do not invent a `Scope` or an
/// `Architecture`": an expedited cycle has neither, so while the handoff is
/// still the `PROMOTE`, both are `NONE`.
fn pr_040_promotion_invents_no_scope_or_design(doc: &StateDoc, sink: &mut Sink) {
    if doc.handoff.kind() != Some(K::Promote) {
        return;
    }
    for (name, field) in [
        ("Scope", &doc.active_work.scope),
        ("Architecture", &doc.active_work.architecture),
    ] {
        if field.value != "NONE" {
            sink.push_hinted(
                "PR-040",
                STATE_PATH,
                format!(
                    "line {}: the promoted cycle names `{name}` `{}` although the handoff is still the `PROMOTE` in `AUDITING`; promotion invents no scope or design, their owners produce them later on the standard route",
                    field.line, field.value
                ),
                Some(format!("set `Active Work.{name}` to `NONE`; {} records the path when its work begins", if name == "Scope" { "Scoper" } else { "Architect" })),
            );
        }
    }
}

/// PR-047: "Promotion never selects `IMPLEMENTATION_REVIEWED`"; the user may
/// choose it separately, and that choice is recorded "in `Active Work.Request`
/// as a workflow instruction" (Change completion policy, step 4). So while
/// the handoff is still the `PROMOTE`, the shorter policy stands only when
/// the request records the user's choice of it.
fn pr_047_promotion_never_selects_the_shorter_policy(doc: &StateDoc, sink: &mut Sink) {
    if doc.handoff.kind() != Some(K::Promote)
        || doc.active_work.completion_policy.value != CompletionPolicy::ImplementationReviewed
        // With outstanding obligations PR-039 reports the shorter policy.
        || !doc.obligations.entries.is_empty()
        || doc
            .active_work
            .request
            .value
            .contains("IMPLEMENTATION_REVIEWED")
    {
        return;
    }
    sink.push_hinted(
        "PR-047",
        STATE_PATH,
        format!(
            "line {}: the cycle was just promoted and is under `IMPLEMENTATION_REVIEWED`, but the request records no user choice of that policy; promotion selects `FULL_DELIVERABLE`",
            doc.active_work.completion_policy.line
        ),
        Some("restore `CompletionPolicy: FULL_DELIVERABLE`; when the user chooses the shorter policy, the policy command records the choice in the request".into()),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_brownfield_project_accepts_both_standard_prefixes() {
        // A cycle that started GREENFIELD keeps its route after MODE.md
        // becomes BROWNFIELD: AUDITING -> DEVELOPING stays a forward step.
        let step = |project, from, to| {
            standard_routes(project)
                .iter()
                .any(|r| topology::successor(r, from) == Some(to))
        };
        assert!(step(ProjectMode::Brownfield, W::Auditing, W::Developing));
        assert!(step(
            ProjectMode::Brownfield,
            W::Architecting,
            W::Developing
        ));
        assert!(!step(
            ProjectMode::Greenfield,
            W::Architecting,
            W::Developing
        ));
        assert!(step(ProjectMode::Greenfield, W::Architecting, W::Auditing));
        // Either policy's successor of the implementation review.
        assert!(step(
            ProjectMode::Brownfield,
            W::ReviewingImplementation,
            W::Documenting
        ));
        assert!(step(
            ProjectMode::Brownfield,
            W::ReviewingImplementation,
            W::AwaitingUserSignoff
        ));
        assert!(!step(
            ProjectMode::Brownfield,
            W::Scoping,
            W::ReviewingImplementation
        ));
    }
}
