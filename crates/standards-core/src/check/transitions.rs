//! TR: handoffs, transitions and topology (check-rules §4 TR).
//!
//! Every rule reads the parsed STATE.md only and reports on it. TR-027 and
//! TR-028 (checkpoint increments) belong to the verification workflow and are
//! not here. Legal routes come from [`crate::workflow::topology`].

use crate::model::layout::STATE_PATH;
use crate::model::state::StateDoc;
use crate::model::vocab::{CompletionPolicy, CycleMode, FailureType, HandoffKind, WorkflowState};
use crate::workflow::topology::{self, DOCUMENTATION_ROUTE};

use super::{Cx, RuleInfo, Sink};

pub const RULES: &[RuleInfo] = &[
    RuleInfo::rule("TR-001", "Handoff kind"),
    RuleInfo::rule("TR-002", "Handoff source"),
    RuleInfo::rule("TR-003", "Failure type value"),
    RuleInfo::rule("TR-004", "FAILURE needs a type"),
    RuleInfo::rule("TR-005", "USER_REWORK needs a type"),
    RuleInfo::rule("TR-006", "PROMOTE needs a reason"),
    RuleInfo::rule("TR-007", "PROMOTE lands in standard AUDITING"),
    RuleInfo::rule("TR-008", "COMPLETION_CHANGE route"),
    RuleInfo::rule("TR-009", "COMPLETION_CHANGE failure type"),
    RuleInfo::rule("TR-010", "COMPLETION_CHANGE outside recovery"),
    RuleInfo::rule("TR-011", "COMPLETION_CHANGE reason"),
    RuleInfo::rule("TR-012", "Forward sign-off source"),
    RuleInfo::rule("TR-013", "Implementation-review success target"),
    RuleInfo::rule("TR-014", "Shorter policy downstream needs recovery"),
    RuleInfo::rule("TR-015", "Expedited topology"),
    RuleInfo::rule("TR-016", "Documentation states"),
    RuleInfo::rule("TR-017", "Documentation entry state"),
    RuleInfo::rule("TR-018", "Documentation INITIAL source"),
    RuleInfo::rule("TR-019", "Documentation NEW_CYCLE source"),
    RuleInfo::rule("TR-020", "Documentation normal handoffs carry no failure"),
    RuleInfo::rule("TR-021", "Documentation forward route"),
    RuleInfo::rule("TR-022", "No handoff from omitted states"),
    RuleInfo::rule("TR-023", "Documentation RESUME failure type"),
    RuleInfo::rule("TR-024", "Documentation RESUME source"),
    RuleInfo::rule("TR-025", "No omitted-owner failures"),
    RuleInfo::rule("TR-026", "Documentation review failures"),
    RuleInfo::rule("TR-029", "Failure and rework route to the owner"),
];

const NONE: &str = "NONE";

/// The handoff as the rules read it: raw values plus their parsed forms.
struct Hand<'a> {
    doc: &'a StateDoc,
    ws: WorkflowState,
    mode: CycleMode,
    policy: CompletionPolicy,
    kind: Option<HandoffKind>,
    from: Option<WorkflowState>,
    from_raw: &'a str,
    failure: Option<FailureType>,
    failure_raw: &'a str,
}

impl<'a> Hand<'a> {
    fn new(doc: &'a StateDoc) -> Self {
        Hand {
            doc,
            ws: doc.workflow_state.value,
            mode: doc.cycle_mode.value,
            policy: doc.active_work.completion_policy.value,
            kind: doc.handoff.kind(),
            from: doc.handoff.from_state(),
            from_raw: &doc.handoff.from.value,
            failure: doc.handoff.failure_type(),
            failure_raw: &doc.handoff.failure_type.value,
        }
    }

    fn is(&self, kinds: &[HandoffKind]) -> bool {
        self.kind.is_some_and(|k| kinds.contains(&k))
    }

    fn kind_line(&self) -> usize {
        self.doc.handoff.kind.line
    }

    fn source_line(&self) -> usize {
        self.doc.handoff.from.line
    }

    fn failure_line(&self) -> usize {
        self.doc.handoff.failure_type.line
    }

    /// `Recovery.Active` is false and no frame is written.
    fn no_recovery(&self) -> bool {
        !self.doc.recovery.active.value && self.doc.recovery.entries.is_empty()
    }
}

fn at(line: usize, message: impl std::fmt::Display) -> String {
    format!("line {line}: {message}")
}

fn push(sink: &mut Sink, rule: &'static str, message: String, hint: impl Into<String>) {
    sink.push_hinted(rule, STATE_PATH, message, Some(hint.into()));
}

pub fn check(cx: &Cx, sink: &mut Sink) {
    let Some(doc) = cx.doc() else { return };
    let h = Hand::new(doc);
    tr_014_shorter_policy_downstream(&h, sink);
    tr_008_011_completion_change(&h, sink);
    tr_012_forward_signoff_source(&h, sink);
    tr_013_implementation_review_target(&h, sink);
    if h.mode == CycleMode::Documentation {
        tr_016_026_documentation(&h, sink);
    }
    if h.mode == CycleMode::Expedited {
        tr_015_expedited_topology(&h, sink);
    }
    tr_001_003_vocabulary(&h, sink);
    tr_004_007_kind_requirements(&h, sink);
    tr_029_failure_owner(&h, sink);
}

/// TR-001, TR-002, TR-003: the handoff's values are in their vocabularies.
fn tr_001_003_vocabulary(h: &Hand, sink: &mut Sink) {
    let hint = "write the values of the transition that led here (PROTOCOL.md, Workflow State Reference › Handoff); use `NONE` for a field that does not apply";
    // TR-001
    if h.kind.is_none() {
        push(
            sink,
            "TR-001",
            at(
                h.kind_line(),
                format!(
                    "`Handoff.Kind` `{}` is not a handoff kind (expected one of {})",
                    h.doc.handoff.kind.value,
                    HandoffKind::NAMES.join(", ")
                ),
            ),
            hint,
        );
    }
    // TR-002
    if h.from_raw != NONE && h.from.is_none() {
        push(
            sink,
            "TR-002",
            at(
                h.source_line(),
                format!(
                    "`Handoff.From` `{}` is neither `NONE` nor a workflow state",
                    h.from_raw
                ),
            ),
            hint,
        );
    }
    // TR-003
    if h.failure_raw != NONE && h.failure.is_none() {
        push(
            sink,
            "TR-003",
            at(
                h.failure_line(),
                format!(
                    "`Handoff.FailureType` `{}` is neither `NONE` nor a failure type (expected one of {})",
                    h.failure_raw,
                    FailureType::NAMES.join(", ")
                ),
            ),
            hint,
        );
    }
}

/// TR-004..TR-007: what FAILURE, USER_REWORK and PROMOTE handoffs must carry.
fn tr_004_007_kind_requirements(h: &Hand, sink: &mut Sink) {
    // TR-004
    if h.is(&[HandoffKind::Failure]) && h.failure_raw == NONE {
        push(
            sink,
            "TR-004",
            at(
                h.failure_line(),
                "a `FAILURE` handoff has `FailureType` `NONE`; a failure names the type of defect it routes",
            ),
            "set `FailureType` to the defect's type; its owning state is where the failure goes (PROTOCOL.md, Failure Handoffs)",
        );
    }
    // TR-005
    if h.is(&[HandoffKind::UserRework]) && h.failure_raw == NONE {
        push(
            sink,
            "TR-005",
            at(
                h.failure_line(),
                "a `USER_REWORK` handoff has `FailureType` `NONE`; rework names the type of the earliest invalidated work",
            ),
            "set `FailureType` to the type whose owner redoes the work (PROTOCOL.md, Rework an active cycle)",
        );
    }
    if !h.is(&[HandoffKind::Promote]) {
        return;
    }
    // TR-006
    let reason = &h.doc.active_work.promotion_reason;
    if reason.value == NONE {
        push(
            sink,
            "TR-006",
            at(
                reason.line,
                "the handoff is a `PROMOTE`, but `Active Work.PromotionReason` is `NONE`",
            ),
            "store the promotion's reason (the standard guarantee now needed) in `PromotionReason` as well as in `Handoff.Reason` (expedited.md, Expedited Promotion)",
        );
    }
    // TR-007
    if !(h.mode == CycleMode::Standard && h.ws == WorkflowState::Auditing) {
        let why = if h.mode == CycleMode::Documentation {
            "; a DOCUMENTATION cycle is never promoted"
        } else {
            ""
        };
        push(
            sink,
            "TR-007",
            at(
                h.kind_line(),
                format!(
                    "a `PROMOTE` handoff must leave the cycle STANDARD at `AUDITING`, but it is `{}` at `{}`{why}",
                    h.mode, h.ws
                ),
            ),
            "a promotion sets `CycleMode` `STANDARD`, `WorkflowState` `AUDITING` and `CompletionPolicy` `FULL_DELIVERABLE` together (expedited.md, Expedited Promotion); otherwise record the transition that really happened",
        );
    }
}

/// TR-008..TR-011: a COMPLETION_CHANGE handoff is one of the two policy
/// routes of an active STANDARD cycle, outside recovery, with a reason.
fn tr_008_011_completion_change(h: &Hand, sink: &mut Sink) {
    if !h.is(&[HandoffKind::CompletionChange]) {
        return;
    }
    let doc = h.doc;
    // TR-008: the policy itself is deliberately not compared with the route
    // (a later same-state choice keeps the saved handoff; check-rules §6.17).
    let mut wrong = Vec::new();
    if doc.active_work.id.value == "UNSET" || h.ws.is_terminal() {
        wrong.push("no cycle is active".to_string());
    } else if h.mode != CycleMode::Standard {
        wrong.push(format!("the cycle is `{}`, not STANDARD", h.mode));
    }
    let route = h
        .from
        .and_then(|from| topology::completion_change(from, h.ws));
    if route.is_none() {
        wrong.push(format!(
            "`{}` → `{}` is not a policy route (only `DOCUMENTING` → `REVIEWING_IMPLEMENTATION` and `AWAITING_USER_SIGNOFF` → `DOCUMENTING` are)",
            h.from_raw, h.ws
        ));
    }
    if !wrong.is_empty() {
        push(
            sink,
            "TR-008",
            at(
                h.kind_line(),
                format!(
                    "the `COMPLETION_CHANGE` handoff is not a permitted policy change: {}",
                    wrong.join("; ")
                ),
            ),
            "a completion-policy change moves the state only on its two routes in an active STANDARD cycle (user-decisions.md, Change completion policy); otherwise record the transition that really happened",
        );
    }
    // TR-009
    if h.failure_raw != NONE {
        push(
            sink,
            "TR-009",
            at(
                h.failure_line(),
                format!(
                    "a `COMPLETION_CHANGE` handoff carries `FailureType` `{}`; a policy change is not a failure",
                    h.failure_raw
                ),
            ),
            "set `FailureType` to `NONE`; a defect is routed to its owner with a `FAILURE` handoff instead",
        );
    }
    // TR-010
    let recovery = &doc.recovery;
    let obligations = &doc.obligations;
    if recovery.active.value
        || !recovery.entries.is_empty()
        || obligations.active.value
        || !obligations.entries.is_empty()
    {
        push(
            sink,
            "TR-010",
            at(
                h.kind_line(),
                "a `COMPLETION_CHANGE` handoff while recovery or outstanding obligations are active or hold entries; a policy change needs both inactive and empty",
            ),
            "finish the recovery and discharge the obligations first; keep the policy and routing meanwhile (user-decisions.md, Change completion policy)",
        );
    }
    // TR-011
    let reason = &doc.handoff.reason.value;
    if crate::model::fields::js_trim(reason).is_empty() || reason == NONE {
        push(
            sink,
            "TR-011",
            at(
                doc.handoff.reason.line,
                "a `COMPLETION_CHANGE` handoff has no `Reason`",
            ),
            "write a short `Reason` naming the old and the new policy",
        );
    }
}

/// TR-012: a normal forward handoff into sign-off readiness comes from the
/// last phase the mode and policy require.
fn tr_012_forward_signoff_source(h: &Hand, sink: &mut Sink) {
    if !h.is(&[HandoffKind::Forward])
        || !h.no_recovery()
        || h.ws != WorkflowState::AwaitingUserSignoff
    {
        return;
    }
    let Some(last) = topology::last_required_phase(h.mode, h.policy) else {
        return;
    };
    if h.from != Some(last) {
        let under = if h.mode == CycleMode::Standard {
            format!("STANDARD with `{}`", h.policy)
        } else {
            h.mode.to_string()
        };
        push(
            sink,
            "TR-012",
            at(
                h.source_line(),
                format!(
                    "a `FORWARD` handoff into `AWAITING_USER_SIGNOFF` comes from `{}`, but under {under} only `{last}` hands over to sign-off readiness",
                    h.from_raw
                ),
            ),
            format!(
                "the cycle reaches sign-off readiness only after `{last}` passes its gate; return to the state whose work is unfinished, or record the recovery transition that really happened"
            ),
        );
    }
}

/// TR-013: a passing implementation review forwards to the state the policy names.
fn tr_013_implementation_review_target(h: &Hand, sink: &mut Sink) {
    if !h.is(&[HandoffKind::Forward])
        || !h.no_recovery()
        || h.mode != CycleMode::Standard
        || h.from != Some(WorkflowState::ReviewingImplementation)
    {
        return;
    }
    if topology::required_phases(h.mode, h.policy).is_none_or(|p| p.is_empty()) {
        return;
    }
    let expected = match h.policy {
        CompletionPolicy::ImplementationReviewed => WorkflowState::AwaitingUserSignoff,
        _ => WorkflowState::Documenting,
    };
    if h.ws != expected {
        push(
            sink,
            "TR-013",
            at(
                h.doc.workflow_state.line,
                format!(
                    "after the implementation review, `{}` forwards to `{expected}`, but `WorkflowState` is `{}`",
                    h.policy, h.ws
                ),
            ),
            format!(
                "set `WorkflowState` to `{expected}`; a different boundary needs the user's explicit policy choice (user-decisions.md, Change completion policy)"
            ),
        );
    }
}

/// TR-014: under IMPLEMENTATION_REVIEWED the full-deliverable phases are
/// reachable only through recovery.
fn tr_014_shorter_policy_downstream(h: &Hand, sink: &mut Sink) {
    if h.mode == CycleMode::Standard
        && h.policy == CompletionPolicy::ImplementationReviewed
        && matches!(
            h.ws,
            WorkflowState::Documenting
                | WorkflowState::ReviewingFinal
                | WorkflowState::Synchronizing
        )
        && !h.doc.recovery.active.value
    {
        push(
            sink,
            "TR-014",
            at(
                h.doc.workflow_state.line,
                format!(
                    "`WorkflowState` is `{}` under `IMPLEMENTATION_REVIEWED` with recovery inactive; that policy omits the phase from its normal route",
                    h.ws
                ),
            ),
            "enter this state only as a recovery correction (with its frame), or have the user withdraw `IMPLEMENTATION_REVIEWED` from `AWAITING_USER_SIGNOFF` (user-decisions.md, Change completion policy)",
        );
    }
}

/// TR-015: an EXPEDITED cycle stays on its three states.
fn tr_015_expedited_topology(h: &Hand, sink: &mut Sink) {
    let route = topology::expedited_route();
    if !route.contains(&h.ws) {
        push(
            sink,
            "TR-015",
            at(
                h.doc.workflow_state.line,
                format!(
                    "`WorkflowState` `{}` is not on the EXPEDITED route ({})",
                    h.ws,
                    topology::list(route)
                ),
            ),
            "work that needs an omitted role or guarantee promotes the cycle (expedited.md, Expedited Promotion); otherwise return to the expedited state that owns the work",
        );
    }
}

/// TR-016..TR-026: the DOCUMENTATION topology, in catalogue order.
fn tr_016_026_documentation(h: &Hand, sink: &mut Sink) {
    let phases = topology::documentation_phases();
    let route_list = topology::list(DOCUMENTATION_ROUTE);
    let blocked_hint = "a DOCUMENTATION cycle never enters an omitted state: record the user's decision in `BlockedOn` (keep a documentation-only scope, or cancel and start a separate cycle)";
    // TR-016
    if !DOCUMENTATION_ROUTE.contains(&h.ws) && !h.ws.is_terminal() {
        push(
            sink,
            "TR-016",
            at(
                h.doc.workflow_state.line,
                format!(
                    "`WorkflowState` `{}` is not on the DOCUMENTATION route ({route_list})",
                    h.ws
                ),
            ),
            blocked_hint,
        );
    }
    let entry = h.is(&[HandoffKind::Initial, HandoffKind::NewCycle]);
    // TR-017
    if entry && h.ws != WorkflowState::Auditing {
        push(
            sink,
            "TR-017",
            at(
                h.doc.workflow_state.line,
                format!(
                    "the `{}` handoff starts a DOCUMENTATION cycle, which begins at `AUDITING`, but `WorkflowState` is `{}`",
                    h.doc.handoff.kind.value, h.ws
                ),
            ),
            "a documentation cycle starts with Auditor; record the forward handoffs that led here, or set `WorkflowState` to `AUDITING`",
        );
    }
    // TR-018
    if h.is(&[HandoffKind::Initial]) && h.from_raw != NONE {
        push(
            sink,
            "TR-018",
            at(
                h.source_line(),
                format!(
                    "an `INITIAL` handoff has `From` `{}`; the first cycle comes from no state",
                    h.from_raw
                ),
            ),
            "set `From` to `NONE`, or record the transition that really happened",
        );
    }
    // TR-019
    if h.is(&[HandoffKind::NewCycle])
        && !matches!(
            h.from,
            Some(WorkflowState::SignedOff | WorkflowState::Cancelled)
        )
    {
        push(
            sink,
            "TR-019",
            at(
                h.source_line(),
                format!(
                    "a `NEW_CYCLE` handoff has `From` `{}`; a new cycle follows `SIGNED_OFF` or `CANCELLED`",
                    h.from_raw
                ),
            ),
            "set `From` to the terminal state the previous cycle ended in",
        );
    }
    // TR-020
    if h.is(&[
        HandoffKind::Initial,
        HandoffKind::NewCycle,
        HandoffKind::Forward,
    ]) && h.failure_raw != NONE
    {
        push(
            sink,
            "TR-020",
            at(
                h.failure_line(),
                format!(
                    "a `{}` handoff carries `FailureType` `{}`; only failures and rework name a defect type",
                    h.doc.handoff.kind.value, h.failure_raw
                ),
            ),
            "set `FailureType` to `NONE`",
        );
    }
    // TR-021: the fixed route, during recovery too.
    if h.is(&[HandoffKind::Forward]) {
        let next = h
            .from
            .and_then(|from| topology::successor(DOCUMENTATION_ROUTE, from));
        if next != Some(h.ws) {
            let why = match (h.from, next) {
                (Some(from), None) if DOCUMENTATION_ROUTE.contains(&from) => {
                    format!("`{from}` ends the route")
                }
                (_, None) => format!("`{}` is not on the route", h.from_raw),
                (_, Some(next)) => format!("the next state after `{}` is `{next}`", h.from_raw),
            };
            push(
                sink,
                "TR-021",
                at(
                    h.kind_line(),
                    format!(
                        "a `FORWARD` handoff from `{}` to `{}` leaves the DOCUMENTATION route ({route_list}): {why}",
                        h.from_raw, h.ws
                    ),
                ),
                "a normal forward handoff moves one step along the fixed route even during recovery; a recovery-directed jump is a `RESUME`",
            );
        }
    }
    // TR-022
    if h.is(&[
        HandoffKind::Failure,
        HandoffKind::UserRework,
        HandoffKind::Resume,
    ]) && !h.from.is_some_and(|f| DOCUMENTATION_ROUTE.contains(&f))
    {
        push(
            sink,
            "TR-022",
            at(
                h.source_line(),
                format!(
                    "a `{}` handoff comes from `{}`, which is not a state of the DOCUMENTATION route",
                    h.doc.handoff.kind.value, h.from_raw
                ),
            ),
            "set `From` to the documentation state the transition left",
        );
    }
    if h.is(&[HandoffKind::Resume]) {
        // TR-023
        if h.failure_raw != NONE {
            push(
                sink,
                "TR-023",
                at(
                    h.failure_line(),
                    format!(
                        "a `RESUME` handoff carries `FailureType` `{}`; a return names no new defect",
                        h.failure_raw
                    ),
                ),
                "set `FailureType` to `NONE`; the defect stays recorded in its recovery frame",
            );
        }
        // TR-024
        if !h.from.is_some_and(|f| phases.contains(&f)) {
            push(
                sink,
                "TR-024",
                at(
                    h.source_line(),
                    format!(
                        "a `RESUME` handoff comes from `{}`; in a DOCUMENTATION cycle only its working states ({}) hand work back with `RESUME`",
                        h.from_raw,
                        topology::list(phases)
                    ),
                ),
                "set `From` to the documentation state that finished its correction or rerun",
            );
        }
    }
    let corrective = h.is(&[HandoffKind::Failure, HandoffKind::UserRework]);
    // TR-025
    if corrective
        && matches!(
            h.failure,
            Some(FailureType::Implementation | FailureType::Verification)
        )
    {
        push(
            sink,
            "TR-025",
            at(
                h.failure_line(),
                format!(
                    "a `{}` handoff routes a defect of type `{}`, whose owner a DOCUMENTATION cycle omits",
                    h.doc.handoff.kind.value, h.failure_raw
                ),
            ),
            blocked_hint,
        );
    }
    // TR-026
    if corrective && h.failure == Some(FailureType::Review) && h.ws != WorkflowState::ReviewingFinal
    {
        push(
            sink,
            "TR-026",
            at(
                h.doc.workflow_state.line,
                format!(
                    "a `REVIEW` {} in a DOCUMENTATION cycle goes to `REVIEWING_FINAL`, but `WorkflowState` is `{}`",
                    if h.is(&[HandoffKind::Failure]) { "failure" } else { "rework" },
                    h.ws
                ),
            ),
            "route the review correction to `REVIEWING_FINAL`; the implementation review is omitted in this mode",
        );
    }
}

/// TR-029: a failure or rework lands in a state that owns its type, also for
/// a same-state correction.
fn tr_029_failure_owner(h: &Hand, sink: &mut Sink) {
    if !h.is(&[HandoffKind::Failure, HandoffKind::UserRework]) || h.from.is_none() {
        return;
    }
    let Some(failure) = h.failure else { return };
    let owners = failure.owning_states();
    if !owners.contains(&h.ws) {
        let owner_list = owners
            .iter()
            .map(|s| format!("`{s}`"))
            .collect::<Vec<_>>()
            .join(" or ");
        push(
            sink,
            "TR-029",
            at(
                h.doc.workflow_state.line,
                format!(
                    "the `{}` handoff routes a defect of type `{failure}`, which {owner_list} owns, but `WorkflowState` is `{}`",
                    h.doc.handoff.kind.value, h.ws
                ),
            ),
            format!(
                "route the correction to {owner_list} (PROTOCOL.md, Failure Handoffs), or change `FailureType` to the type of the defect actually being routed"
            ),
        );
    }
}

#[cfg(test)]
mod tests;
