//! Failures and rework (Failure Handoffs; user-decisions.md, Rework an active cycle).

use crate::model::state::StateDoc;
use crate::model::state_edit::{Field as F, NewFrame, StateEditor as Editor};
use crate::model::vocab::{CycleMode, FailureType, HandoffKind, WorkflowState};
use crate::workflow::moves::decisions::promote_with;
use crate::workflow::moves::{active_mode, require_reason};
use crate::workflow::topology;
use crate::workflow::transition::{
    finish, Facts, MoveKind, Refusal, Transition, DOCUMENTATION_CONTRACT, FAILURE_HANDOFFS,
    HANDOFF_RULES, PROMOTION, REWORK,
};

use WorkflowState as W;

fn route_failure(
    doc: &StateDoc,
    mode: CycleMode,
    failure: FailureType,
    to: Option<WorkflowState>,
) -> Result<WorkflowState, Refusal> {
    let targets = topology::failure_targets(mode, failure);
    if targets.is_empty() {
        let (rule, hint) = match mode {
            CycleMode::Expedited => (
                PROMOTION,
                "a defect or guarantee owned by a role the expedited path skips needs promotion: `git standards promote --reason \"<the standard guarantee now needed>\"`",
            ),
            _ => (
                DOCUMENTATION_CONTRACT,
                "work for a role the documentation cycle omits needs a user decision: `git standards block --on \"<question>\"`",
            ),
        };
        return Err(Refusal::new(
            rule,
            format!(
                "a {failure} correction has no owner in a {mode} cycle: {} is not part of its topology",
                failure
                    .owning_states()
                    .iter()
                    .map(|s| format!("`{s}`"))
                    .collect::<Vec<_>>()
                    .join(" or ")
            ),
        )
        .hint(hint));
    }
    let current = doc.workflow_state.value;
    match to {
        Some(t) if targets.contains(&t) => Ok(t),
        Some(t) => Err(Refusal::new(
            FAILURE_HANDOFFS,
            format!(
                "a {failure} failure routes to {}, the owner of the defective work, not to `{t}`",
                topology::list(targets)
            ),
        )
        .hint(format!(
            "the failure type names the owner; for `{t}` use the failure type it owns"
        ))),
        None if targets.len() == 1 => Ok(targets[0]),
        None if targets.contains(&current) => Ok(current),
        None => Err(Refusal::new(
            HANDOFF_RULES,
            format!(
                "a {failure} failure targets the Reviewer state matching the affected review: say which with `--to {}`",
                targets.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("` or `--to ")
            ),
        )),
    }
}

/// `fail --type <FailureType> --reason <text> [--to <state>]`.
pub fn fail(
    doc: &StateDoc,
    _facts: &Facts,
    failure: FailureType,
    reason: &str,
    to: Option<WorkflowState>,
) -> Result<Transition, Refusal> {
    let mode = active_mode(doc, "a failure handoff")?;
    let reason = require_reason(reason, "the failure reason")?;
    let from = doc.workflow_state.value;
    if from == W::AwaitingUserSignoff {
        return Err(Refusal::new(
            REWORK,
            "at `AWAITING_USER_SIGNOFF` corrections are the user's rework, not a role's failure handoff",
        )
        .hint("use `git standards rework --type <FailureType> --request \"<request>\"`"));
    }
    let target = route_failure(doc, mode, failure, to)?;
    let mut e = Editor::new(doc);
    e.handoff(HandoffKind::Failure, from.as_str(), Some(failure), &reason)?;
    let summary = if target == from {
        format!("Recorded the same-state {failure} failure in `{from}` (no recovery frame).")
    } else {
        let n = e.push_frame(&NewFrame {
            from,
            owner: target,
            failure,
            reason: reason.clone(),
        })?;
        e.set(F::WorkflowState, target.as_str())?;
        format!(
            "Routed the {failure} failure `{from}` -> `{target}` and pushed recovery frame {n} (ResumeAt `{from}`)."
        )
    };
    finish(MoveKind::Fail, doc, e, summary)
}

/// `rework --type <FailureType> --request <text> [--to <state>]`: the user's
/// changed request, routed to the earliest invalidated owner.
pub fn rework(
    doc: &StateDoc,
    facts: &Facts,
    failure: FailureType,
    request: &str,
    to: Option<WorkflowState>,
) -> Result<Transition, Refusal> {
    let mode = active_mode(doc, "rework")?;
    let request = require_reason(request, "the reworked request")?;
    let from = doc.workflow_state.value;
    if mode == CycleMode::Expedited && topology::failure_targets(mode, failure).is_empty() {
        // Expedited Promotion (step 1): the user's rework whose changed
        // contract needs an omitted role authorizes the promotion, and the
        // promoted cycle keeps the changed request (step 3).
        let reason =
            format!("The user's rework needs {failure} work, which the expedited path omits.");
        return promote_with(doc, facts, &reason, Some(&request), None);
    }
    let target = route_failure(doc, mode, failure, to)?;
    let reason = format!("The user changed the request; {failure} work is reworked.");
    let mut e = Editor::new(doc);
    e.set(F::Request, &request)?.handoff(
        HandoffKind::UserRework,
        from.as_str(),
        Some(failure),
        &reason,
    )?;
    let summary = if target == from {
        format!("Recorded user rework ({failure}) in `{from}` (no recovery frame).")
    } else {
        let n = e.push_frame(&NewFrame {
            from,
            owner: target,
            failure,
            reason,
        })?;
        e.set(F::WorkflowState, target.as_str())?;
        format!(
            "Routed user rework ({failure}) `{from}` -> `{target}` and pushed recovery frame {n} (ResumeAt `{from}`)."
        )
    };
    finish(MoveKind::Rework, doc, e, summary)
}
