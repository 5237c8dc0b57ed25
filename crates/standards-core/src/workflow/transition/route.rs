//! Route judgement (issue 23): whether the workflow state the last commit
//! recorded can reach the current one by legal moves, with the records the
//! current snapshot holds.
//!
//! A state change made by hand skips the gates of the moves in between; a
//! commit that squashes several legal moves does not. Forward progress is
//! decidable: from the committed state, the only moves that advance the
//! cycle along its route are the forward handoff (or the checkpoint
//! `DEVELOPING -> TESTING`) and, at the end, sign-off. The judgement replays
//! them with the pure move functions and the gates of [`super::Gate`] on
//! the current records, and names the first gate that refuses. A change
//! backwards (a failure, a rework), a recovery, a promotion or a new cycle is
//! left to the rules that hold those moves.

use super::dispatch::{apply, Move};
use super::gate::Gate;
use crate::model::layout::STATE_PATH;
use crate::model::state::StateDoc;
use crate::model::tree::{Tree, WithFile};
use crate::model::vocab::{ProjectMode, WorkflowState};
use crate::workflow::topology;

use WorkflowState as W;

/// Why the route from `then` to `now` is not legal: the state whose move
/// was refused, the move and the refusal's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    pub from: WorkflowState,
    pub to: WorkflowState,
    /// The state where a move on the way was refused.
    pub at: WorkflowState,
    /// The refused move (`handoff --to X` or `signoff`).
    pub step: String,
    pub refusal: String,
}

/// Judges the change of `WorkflowState` from `then` (the last commit) to
/// `now` (the snapshot `tree` holds). `None` when the change is legal, not a
/// forward change of the same cycle, or outside what the replay decides.
pub fn judge(
    tree: &dyn Tree,
    project: ProjectMode,
    now: &StateDoc,
    then: &StateDoc,
    cache: Option<&crate::check::ContentCache>,
) -> Option<Skipped> {
    let (from, to) = (then.workflow_state.value, now.workflow_state.value);
    if from == to
        || !then.has_active_cycle()
        || now.active_work.id.value != then.active_work.id.value
        || then.recovery.active.value
        || !then.recovery.entries.is_empty()
        || then.cycle_mode.value != now.cycle_mode.value && to != W::SignedOff
    {
        return None;
    }
    let mode = then.cycle_mode.value;
    let policy = then.active_work.completion_policy.value;
    let route = topology::forward_route(mode, policy, project)?;
    let at = |s: WorkflowState| route.iter().position(|x| *x == s);
    let start = at(from)?;
    let end = match to {
        W::SignedOff => route.len(),
        _ => at(to)?,
    };
    if end <= start {
        return None; // backwards: a failure or a rework, held elsewhere
    }
    let mut doc = then.clone();
    for _ in 0..=route.len() + 1 {
        let here = doc.workflow_state.value;
        if here == to {
            return None;
        }
        let rendered = doc.render();
        let snapshot = WithFile {
            base: tree,
            path: STATE_PATH,
            content: rendered.as_bytes(),
        };
        // No last commit inside the replay: the lineage rules belong to the
        // outer check, and the replay must not judge its own route.
        let gate = Gate::new_cached(&snapshot, None, &doc, cache).ok()?;
        // A question answered since the last commit was cleared by `unblock`.
        if doc.active_work.blocked_on.value != "NONE" && now.active_work.blocked_on.value == "NONE"
        {
            doc = apply(&doc, gate.facts(), &Move::Unblock).ok()?.doc;
            continue;
        }
        let (mv, step) = if here == W::AwaitingUserSignoff {
            (Move::Signoff, "signoff".to_string())
        } else {
            let next = topology::successor(route, here)?;
            (
                Move::Handoff {
                    to: next,
                    reason: "Route judgement.".into(),
                    checkpoint: false,
                },
                format!("handoff --to {next}"),
            )
        };
        // The last move into the current state is judged by the current
        // check itself, except sign-off, whose gate is the readiness it left.
        let last = match &mv {
            Move::Handoff { to: next, .. } => *next == to,
            _ => false,
        };
        let result = if last {
            apply(&doc, gate.facts(), &mv)
        } else {
            gate.apply(&mv)
        };
        let result = match (result, &mv) {
            // An incremental checkpoint also reaches TESTING.
            (Err(e), Move::Handoff { to: W::Testing, .. }) => {
                let cp = Move::Handoff {
                    to: W::Testing,
                    reason: "Route judgement.".into(),
                    checkpoint: true,
                };
                let r = if last {
                    apply(&doc, gate.facts(), &cp)
                } else {
                    gate.apply(&cp)
                };
                r.map_err(|_| e)
            }
            (r, _) => r,
        };
        match result {
            Ok(t) => doc = t.doc,
            Err(refusal) => {
                return Some(Skipped {
                    from,
                    to,
                    at: here,
                    step,
                    refusal: refusal.to_string(),
                })
            }
        }
    }
    None
}
