//! Closing or planning the active recovery frame (Recovery Mechanics).

use crate::model::state::StateDoc;
use crate::model::state_edit::{Field as F, StateEditor as Editor};
use crate::model::vocab::{HandoffKind, WorkflowState};
use crate::workflow::moves::{
    active_mode, frame_state, order_route, position, refuse_blocked, refuse_owned_problems,
};
use crate::workflow::topology;
use crate::workflow::transition::{
    finish, Facts, MoveKind, Refusal, Transition, RECOVERY_MECHANICS,
};

use WorkflowState as W;

/// `resume [--rerun-through <state>] [--to <state>]`.
pub fn resume(
    doc: &StateDoc,
    facts: &Facts,
    rerun_through: Option<WorkflowState>,
    first: Option<WorkflowState>,
    reason: Option<&str>,
) -> Result<Transition, Refusal> {
    active_mode(doc, "a resume")?;
    refuse_blocked(doc, "a resume")?;
    let Some(frame) = doc.recovery.entries.last() else {
        return Err(Refusal::new(
            RECOVERY_MECHANICS,
            "there is no recovery frame to resume from; recovery ends only when the stack is empty, and it is",
        )
        .hint("a normal handoff is `git standards handoff --to <STATE> --reason \"<text>\"`"));
    };
    let last = doc.recovery.entries.len() - 1;
    let from = doc.workflow_state.value;
    let owner = frame_state(doc, last, "Owner")?;
    let resume_at = frame_state(doc, last, "ResumeAt")?;
    let failure = frame.get("FailureType").unwrap_or("?").to_string();
    let label = frame.label.clone();
    let rerun = frame.get("RerunThrough").unwrap_or("NONE").to_string();
    let route = order_route(doc, facts);
    let pop = |e: &mut Editor, reason: String, summary: String| -> Result<Transition, Refusal> {
        e.pop_frame()?;
        e.handoff(HandoffKind::Resume, from.as_str(), None, &reason)?
            .set(F::WorkflowState, resume_at.as_str())?;
        let e = std::mem::replace(e, Editor::new(doc));
        finish(MoveKind::Resume, doc, e, summary)
    };
    let default_reason = |what: &str| {
        reason.map(str::to_string).unwrap_or_else(|| {
            format!("Recovery frame {label} ({failure}) {what}; resuming at {resume_at}.")
        })
    };

    if rerun != "NONE" {
        let through: WorkflowState = rerun.parse().map_err(|_| {
            Refusal::new(
                RECOVERY_MECHANICS,
                format!("recovery frame {label} has an invalid `RerunThrough` `{rerun}`"),
            )
        })?;
        if rerun_through.is_some() || first.is_some() {
            return Err(Refusal::new(
                RECOVERY_MECHANICS,
                format!("only the active frame owner plans resumption, and recovery frame {label}'s rerun through `{through}` is already planned"),
            ));
        }
        if from != through {
            return Err(Refusal::new(
                RECOVERY_MECHANICS,
                format!("recovery frame {label} pops at its rerun boundary `{through}`, and the workflow is in `{from}`"),
            )
            .hint("continue the rerun with `git standards handoff --to <next rerun state> --reason \"<text>\"`"));
        }
        refuse_owned_problems(doc, facts)?;
        let mut e = Editor::new(doc);
        let summary = format!(
            "Rerun through `{through}` done: popped recovery frame {label} and resumed at `{resume_at}`."
        );
        return pop(&mut e, default_reason("rerun done"), summary);
    }

    if from != owner {
        return Err(Refusal::new(
            RECOVERY_MECHANICS,
            format!("only the owner `{owner}` of the active recovery frame {label} plans resumption, and the workflow is in `{from}`"),
        )
        .hint("`git standards check` reports the inconsistency (RC-015)"));
    }
    refuse_owned_problems(doc, facts)?;
    match rerun_through {
        None => {
            if first.is_some() {
                return Err(Refusal::new(
                    RECOVERY_MECHANICS,
                    "`--to` names the first rerun state and needs `--rerun-through`",
                ));
            }
            let mut e = Editor::new(doc);
            let summary = format!(
                "Closed recovery frame {label} without rerun: popped it and resumed at `{resume_at}`."
            );
            pop(&mut e, default_reason("corrected without rerun"), summary)
        }
        Some(through) => {
            let (Some(po), Some(pb)) = (position(route, owner), position(route, through)) else {
                return Err(Refusal::new(
                    RECOVERY_MECHANICS,
                    format!(
                        "`{through}` is not a rerun state of the {} topology ({})",
                        doc.cycle_mode.value,
                        topology::list(route)
                    ),
                ));
            };
            if through == W::AwaitingUserSignoff || pb <= po {
                return Err(Refusal::new(
                    RECOVERY_MECHANICS,
                    format!("the rerun boundary must be a workflow role's state after the owner `{owner}`, never `AWAITING_USER_SIGNOFF`; `{through}` is not"),
                ));
            }
            let start = first.unwrap_or(route[po + 1]);
            match position(route, start) {
                Some(ps) if ps > po && ps <= pb => {}
                _ => {
                    return Err(Refusal::new(
                        RECOVERY_MECHANICS,
                        format!("the first rerun state must lie after `{owner}` and no later than `{through}`; `{start}` does not"),
                    ))
                }
            }
            let kind = if start == route[po + 1] {
                HandoffKind::Forward
            } else {
                HandoffKind::Resume
            };
            let reason = reason.map(str::to_string).unwrap_or_else(|| {
                format!("Recovery frame {label} ({failure}) corrected; rerun through {through}.")
            });
            let mut e = Editor::new(doc);
            e.set_rerun_through(through)?;
            e.handoff(kind, from.as_str(), None, &reason)?
                .set(F::WorkflowState, start.as_str())?;
            let summary = format!(
                "Set recovery frame {label}'s rerun through `{through}` and handed off `{from}` -> `{start}` ({kind})."
            );
            finish(MoveKind::Resume, doc, e, summary)
        }
    }
}
