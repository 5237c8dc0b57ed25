//! Forward and checkpoint handoffs (Forward Transitions, Checkpoint Handoffs).

use crate::model::state::StateDoc;
use crate::model::state_edit::{Field as F, StateEditor as Editor};
use crate::model::vocab::{CycleMode, HandoffKind, WorkflowState};
use crate::records::plan::{increment_mentions, Cadence};
use crate::workflow::moves::{
    active_mode, frame_state, order_route, position, refuse_blocked, refuse_owned_problems,
    require_reason,
};
use crate::workflow::topology;
use crate::workflow::transition::{
    finish, Facts, MoveKind, Refusal, Transition, CHECKPOINT_HANDOFFS, FORWARD_TRANSITIONS,
    HANDOFF_RULES, OBLIGATIONS_RULE, RECOVERY_MECHANICS,
};

use WorkflowState as W;

/// `handoff --to <state> --reason <text> [--checkpoint]`.
pub fn handoff(
    doc: &StateDoc,
    facts: &Facts,
    to: WorkflowState,
    reason: &str,
    checkpoint: bool,
) -> Result<Transition, Refusal> {
    let mode = active_mode(doc, "a handoff")?;
    let reason = require_reason(reason, "the handoff reason")?;
    let from = doc.workflow_state.value;
    if from == W::AwaitingUserSignoff {
        return Err(Refusal::new(
            HANDOFF_RULES,
            "`AWAITING_USER_SIGNOFF` belongs to the user, whose actions are sign-off, rework or cancellation",
        )
        .hint("the user signs off (`git standards signoff --reply \"<the user's reply>\"`, relaying their reply), reworks (`git standards rework`) or cancels (`git standards cancel`)"));
    }
    refuse_blocked(doc, "a handoff")?;
    if checkpoint {
        return checkpoint_handoff(doc, facts, mode, to, &reason);
    }
    let recovering = doc.recovery.active.value || !doc.recovery.entries.is_empty();
    let route = order_route(doc, facts);
    let (kind, summary) = if recovering {
        rerun_handoff(doc, route, to)?
    } else {
        let policy = doc.active_work.completion_policy.value;
        let expected = topology::next_state(mode, policy, facts.project, from);
        if expected != Some(to) {
            let route_text = topology::forward_route(mode, policy, facts.project)
                .map(topology::list)
                .unwrap_or_else(|| "none".into());
            let msg = match expected {
                Some(next) => format!(
                    "the normal forward handoff from `{from}` goes to `{next}`, not `{to}` (a {mode} cycle with {policy} in a {} project follows {route_text})",
                    facts.project
                ),
                None => format!(
                    "`{from}` has no forward handoff in a {mode} cycle with {policy} in a {} project (route: {route_text})",
                    facts.project
                ),
            };
            let hint = if to == from {
                "a handoff changes the state; a defect goes to its owner with `git standards fail`"
                    .to_string()
            } else {
                match expected {
                    Some(next) => format!("hand off to `{next}`; a defect owned by another role goes through `git standards fail --type <FailureType> --reason \"<text>\"`"),
                    None => "check the cycle mode and policy (`git standards status`)".to_string(),
                }
            };
            return Err(Refusal::new(FORWARD_TRANSITIONS, msg).hint(hint));
        }
        (
            HandoffKind::Forward,
            format!("Handed off `{from}` -> `{to}` (FORWARD)."),
        )
    };
    refuse_open_obligation(doc, from)?;
    refuse_owned_problems(doc, facts)?;
    let mut e = Editor::new(doc);
    e.handoff(kind, from.as_str(), None, &reason)?
        .set(F::WorkflowState, to.as_str())?;
    finish(MoveKind::Handoff, doc, e, summary)
}

/// An obligation owned by the current state blocks its normal forward handoff.
fn refuse_open_obligation(doc: &StateDoc, from: WorkflowState) -> Result<(), Refusal> {
    if let Some(o) = doc
        .obligations
        .entries
        .iter()
        .find(|o| o.state("Owner") == Some(from))
    {
        return Err(Refusal::new(
            OBLIGATIONS_RULE,
            format!(
                "obligation {} is owned by `{from}` and still open: {}",
                o.label,
                o.get("Reason").unwrap_or("(no reason)")
            ),
        )
        .hint("correct and verify it, remove the entry from `## Outstanding Obligations`, then hand off"));
    }
    Ok(())
}

/// A handoff during recovery: the rerun states between the owner and
/// `RerunThrough` follow the route (a jump over unaffected phases is a
/// `RESUME`); the owner plans and the boundary pops with `resume`.
fn rerun_handoff(
    doc: &StateDoc,
    route: &[WorkflowState],
    to: WorkflowState,
) -> Result<(HandoffKind, String), Refusal> {
    let from = doc.workflow_state.value;
    let Some(frame) = doc.recovery.entries.last() else {
        return Err(Refusal::new(
            RECOVERY_MECHANICS,
            "`Recovery` is active but holds no frame; `git standards check` reports it (RC-001)",
        ));
    };
    let last = doc.recovery.entries.len() - 1;
    let owner = frame_state(doc, last, "Owner")?;
    let rerun = frame.get("RerunThrough").unwrap_or("NONE");
    if rerun == "NONE" {
        return Err(Refusal::new(
            RECOVERY_MECHANICS,
            format!(
                "recovery frame {} is open and its owner `{owner}` has not planned the resumption, so there is no forward handoff from `{from}`",
                frame.label
            ),
        )
        .hint("the owner closes it with `git standards resume` (no rerun) or `git standards resume --rerun-through <STATE>`"));
    }
    let through: WorkflowState = rerun.parse().map_err(|_| {
        Refusal::new(
            RECOVERY_MECHANICS,
            format!(
                "recovery frame {} has an invalid `RerunThrough` `{rerun}`",
                frame.label
            ),
        )
    })?;
    if from == through {
        return Err(Refusal::new(
            RECOVERY_MECHANICS,
            format!(
                "`{from}` is the rerun boundary of recovery frame {}: it pops the frame and resumes at `{}` instead of a forward handoff",
                frame.label,
                frame.get("ResumeAt").unwrap_or("?")
            ),
        )
        .hint("run `git standards resume`"));
    }
    let (Some(pf), Some(pt), Some(pb)) = (
        position(route, from),
        position(route, to),
        position(route, through),
    ) else {
        return Err(Refusal::new(
            RECOVERY_MECHANICS,
            format!(
                "the rerun from `{from}` to `{to}` through `{through}` leaves the {} topology ({})",
                doc.cycle_mode.value,
                topology::list(route)
            ),
        ));
    };
    if !(pf < pt && pt <= pb) {
        return Err(Refusal::new(
            RECOVERY_MECHANICS,
            format!(
                "during the rerun of recovery frame {} the next state must lie after `{from}` and no later than the boundary `{through}`; `{to}` does not",
                frame.label
            ),
        )
        .hint(format!("hand off to `{}`", route[pf + 1])));
    }
    let kind = if pt == pf + 1 {
        HandoffKind::Forward
    } else {
        HandoffKind::Resume
    };
    Ok((
        kind,
        format!(
            "Handed off `{from}` -> `{to}` ({kind}) in the rerun of recovery frame {} through `{through}`.",
            frame.label
        ),
    ))
}

fn checkpoint_handoff(
    doc: &StateDoc,
    facts: &Facts,
    mode: CycleMode,
    to: WorkflowState,
    reason: &str,
) -> Result<Transition, Refusal> {
    let from = doc.workflow_state.value;
    if mode != CycleMode::Standard {
        return Err(Refusal::new(
            CHECKPOINT_HANDOFFS,
            format!("a checkpoint exists only in STANDARD cycles, and this cycle is {mode}"),
        ));
    }
    if doc.recovery.active.value || !doc.recovery.entries.is_empty() {
        return Err(Refusal::new(
            CHECKPOINT_HANDOFFS,
            "no checkpoint during recovery: the saved FAILURE, FORWARD and RESUME route applies",
        )
        // The one move that continues it here: `resume` at the owner or the
        // rerun boundary, a handoff inside the rerun.
        .hint(match doc.recovery.entries.last().map(|f| f.get("RerunThrough").unwrap_or("NONE")) {
            None => "`git standards check` reports the recovery stack (RC-001)",
            Some(through) if through != "NONE" && through != from.as_str() => "continue the rerun with `git standards handoff --to <next rerun state> --reason \"<text>\"`",
            Some(_) => "continue the recovery with `git standards resume`",
        }));
    }
    if facts.effective_cadence != Some(Cadence::Incremental) {
        let what = match facts.effective_cadence {
            Some(c) => format!(
                "the development plan's `Verification Cadence` is `{}`",
                c.as_str()
            ),
            None => "no development plan names an effective `Verification Cadence`".to_string(),
        };
        return Err(Refusal::new(
            CHECKPOINT_HANDOFFS,
            format!("a checkpoint needs the effective cadence INCREMENTAL, but {what}"),
        )
        .hint("without incremental cadence hand off normally; the user switches cadence with `git standards cadence incremental`"));
    }
    if !matches!(
        (from, to),
        (W::Developing, W::Testing) | (W::Testing, W::Developing)
    ) {
        return Err(Refusal::new(
            CHECKPOINT_HANDOFFS,
            format!("a checkpoint goes only DEVELOPING -> TESTING or TESTING -> DEVELOPING, not `{from}` -> `{to}`"),
        ));
    }
    let mentions = increment_mentions(reason);
    if mentions.len() != 1 {
        return Err(Refusal::new(
            CHECKPOINT_HANDOFFS,
            format!(
                "a checkpoint's reason names its increment exactly once as `Increment N`; this one names {}",
                mentions.len()
            ),
        )
        .hint("for example `--reason \"Increment 2 is ready for assessment.\"`"));
    }
    refuse_owned_problems(doc, facts)?;
    let mut e = Editor::new(doc);
    e.handoff(HandoffKind::Checkpoint, from.as_str(), None, reason)?
        .set(F::WorkflowState, to.as_str())?;
    let summary = format!(
        "Checkpoint `{from}` -> `{to}` for Increment {}.",
        mentions[0]
    );
    finish(MoveKind::Checkpoint, doc, e, summary)
}
