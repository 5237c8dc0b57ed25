//! The tool-owned workflow moves, one module per family, each a pure
//! function from the parsed STATE.md and [`Facts`] to a [`Transition`] or a
//! [`Refusal`]; and the preconditions they share.

pub mod decisions;
pub mod failure;
pub mod forward;
pub mod recovery;
pub mod signoff;
pub mod start;

use crate::model::state::StateDoc;
use crate::model::vocab::{CompletionPolicy, CycleMode, WorkflowState};
use crate::workflow::topology;
use crate::workflow::transition::{
    Facts, Refusal, HANDOFF_RULES, RECOVERY_MECHANICS, RUNTIME_TOOLS, STATE_UPDATE_RULES,
};

/// The active cycle's mode, or a refusal when no cycle is active.
pub(crate) fn active_mode(doc: &StateDoc, what: &str) -> Result<CycleMode, Refusal> {
    if !doc.has_active_cycle() || doc.cycle_mode.value == CycleMode::Unset {
        let hint = if doc.workflow_state.value.is_terminal() || doc.active_work.id.value == "UNSET"
        {
            "start a cycle with `git standards start --request \"<request>\"`"
        } else {
            "STATE.md names a cycle without a cycle mode; `git standards check` reports it"
        };
        return Err(Refusal::new(
            HANDOFF_RULES,
            format!(
                "{what} needs an active cycle, and there is none (WorkflowState `{}`, CycleMode `{}`)",
                doc.workflow_state.value, doc.cycle_mode.value
            ),
        )
        .hint(hint));
    }
    Ok(doc.cycle_mode.value)
}

pub(crate) fn require_reason(text: &str, what: &str) -> Result<String, Refusal> {
    let t = text.trim();
    if t.is_empty() {
        return Err(Refusal::new(
            "Handoff",
            format!("{what} must not be empty: the handoff records a concise reason"),
        ));
    }
    Ok(t.to_string())
}

/// The route states are ordered by: the forward route, with the full
/// deliverable tail for a standard cycle (corrective routing under
/// `IMPLEMENTATION_REVIEWED` may still enter it).
pub(crate) fn order_route(doc: &StateDoc, facts: &Facts) -> &'static [WorkflowState] {
    let mode = doc.cycle_mode.value;
    let policy = match mode {
        CycleMode::Standard => CompletionPolicy::FullDeliverable,
        _ => CompletionPolicy::None,
    };
    topology::forward_route(mode, policy, facts.project).unwrap_or(&[])
}

pub(crate) fn position(route: &[WorkflowState], s: WorkflowState) -> Option<usize> {
    route.iter().position(|x| *x == s)
}

pub(crate) fn refuse_owned_problems(doc: &StateDoc, facts: &Facts) -> Result<(), Refusal> {
    if facts.owned_problems.is_empty() {
        return Ok(());
    }
    let role = doc.workflow_state.value.owner();
    Err(Refusal::new(
        RUNTIME_TOOLS,
        format!(
            "a handoff requires that `check` reports no problem in files the {role} owns, and it reports {}: {}",
            facts.owned_problems.len(),
            facts.owned_problems.join("; ")
        ),
    )
    .hint(format!(
        "the {role} fixes these first (`git standards check` lists them); a defect another role owns goes through `git standards fail`"
    )))
}

pub(crate) fn refuse_blocked(doc: &StateDoc, what: &str) -> Result<(), Refusal> {
    let q = &doc.active_work.blocked_on.value;
    if q != "NONE" {
        return Err(Refusal::new(
            STATE_UPDATE_RULES,
            format!("{what} is not possible while the cycle is blocked on a user question: {q}"),
        )
        .hint(
            "incorporate the user's answer, then clear the question with `git standards unblock`",
        ));
    }
    Ok(())
}

pub(crate) fn frame_state(doc: &StateDoc, i: usize, name: &str) -> Result<WorkflowState, Refusal> {
    let frame = &doc.recovery.entries[i];
    frame.state(name).ok_or_else(|| {
        Refusal::new(
            RECOVERY_MECHANICS,
            format!(
                "recovery frame {} has no valid `{name}`; `git standards check` reports it",
                frame.label
            ),
        )
    })
}
