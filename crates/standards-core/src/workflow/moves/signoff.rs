//! Ending a cycle by the user's decision: sign-off and cancellation.

use crate::model::state::StateDoc;
use crate::model::state_edit::{Field as F, StateEditor as Editor, OBLIGATIONS, RECOVERY};
use crate::model::vocab::{HandoffKind, ProjectMode, WorkflowState};
use crate::workflow::transition::{
    finish, Facts, MoveKind, Refusal, Transition, CANCEL, RECOVERY_MECHANICS, SIGN_OFF,
};

use WorkflowState as W;

/// `signoff` (user-decisions.md, Sign off).
pub fn signoff(doc: &StateDoc, _facts: &Facts) -> Result<Transition, Refusal> {
    let from = doc.workflow_state.value;
    if from != W::AwaitingUserSignoff || !doc.has_active_cycle() {
        return Err(Refusal::new(
            SIGN_OFF,
            format!("sign-off is possible only from `AWAITING_USER_SIGNOFF`, and the workflow is in `{from}`"),
        ));
    }
    if doc.recovery.active.value || !doc.recovery.entries.is_empty() {
        return Err(Refusal::new(
            RECOVERY_MECHANICS,
            format!(
                "the recovery stack holds {} frame(s); recovery ends only when the stack is empty",
                doc.recovery.entries.len()
            ),
        ));
    }
    if doc.obligations.active.value || !doc.obligations.entries.is_empty() {
        return Err(Refusal::new(
            SIGN_OFF,
            format!(
                "{} outstanding obligation(s) are open; the user cannot sign off while any remains",
                doc.obligations.entries.len()
            ),
        )
        .hint("the owners correct them first (`git standards status` lists them)"));
    }
    let mut e = Editor::new(doc);
    e.set(F::CycleMode, "UNSET")?
        .set(F::PendingCadence, "NONE")?
        .handoff(
            HandoffKind::Signoff,
            from.as_str(),
            None,
            "The user signed off the cycle.",
        )?
        .set(F::WorkflowState, "SIGNED_OFF")?;
    let summary = format!("Signed off the cycle `{}`.", doc.active_work.id.value);
    finish(MoveKind::Signoff, doc, e, summary)
}

/// `cancel` in a BROWNFIELD project: the retained `CANCELLED` state.
/// (A GREENFIELD cancellation resets the workflow instead; see the command.)
pub fn cancel(doc: &StateDoc, facts: &Facts) -> Result<Transition, Refusal> {
    if !doc.has_active_cycle() {
        return Err(Refusal::new(
            CANCEL,
            format!(
                "there is no active cycle to cancel (WorkflowState `{}`)",
                doc.workflow_state.value
            ),
        ));
    }
    if facts.project == ProjectMode::Greenfield {
        return Err(Refusal::new(
            "Greenfield Bootstrap Cancellation",
            "a GREENFIELD cycle is cancelled by resetting the workflow, not by a retained CANCELLED state",
        )
        .hint("preview `git standards reset --mode greenfield --dry-run`, then, with the user's approval, run `git standards reset --mode greenfield --yes`"));
    }
    let from = doc.workflow_state.value;
    let mut e = Editor::new(doc);
    e.truncate(RECOVERY, 0)?;
    e.truncate(OBLIGATIONS, 0)?;
    e.set(F::CycleMode, "UNSET")?
        .set(F::PendingCadence, "NONE")?
        .handoff(
            HandoffKind::Cancel,
            from.as_str(),
            None,
            "The user cancelled the cycle.",
        )?
        .set(F::WorkflowState, "CANCELLED")?;
    let summary = format!(
        "Cancelled the cycle `{}` in `{from}`; its project changes are reconciled when the next cycle starts.",
        doc.active_work.id.value
    );
    finish(MoveKind::Cancel, doc, e, summary)
}
