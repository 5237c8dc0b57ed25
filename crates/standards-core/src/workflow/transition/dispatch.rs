//! One move as the commands request it, run by the move function of its family.

use crate::model::state::StateDoc;
use crate::model::vocab::{CompletionPolicy, CycleMode, FailureType, WorkflowState};
use crate::records::plan::Cadence;
use crate::workflow::moves::decisions::{block, cadence, next_mode, policy, promote, unblock};
use crate::workflow::moves::failure::{fail, rework};
use crate::workflow::moves::forward::handoff;
use crate::workflow::moves::recovery::resume;
use crate::workflow::moves::signoff::{cancel, signoff};
use crate::workflow::moves::start::{begin, plan_start, StartPlan, StartRequest};
use crate::workflow::transition::{Facts, Refusal, Transition};

/// A move as the commands request it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Move {
    /// `start`; `id` is the freshly generated cycle ID (unused when the start blocks).
    Start {
        request: StartRequest,
        id: String,
    },
    Handoff {
        to: WorkflowState,
        reason: String,
        checkpoint: bool,
    },
    Fail {
        failure: FailureType,
        reason: String,
        to: Option<WorkflowState>,
    },
    Rework {
        failure: FailureType,
        request: String,
        to: Option<WorkflowState>,
    },
    Resume {
        rerun_through: Option<WorkflowState>,
        first: Option<WorkflowState>,
        reason: Option<String>,
    },
    Promote {
        reason: String,
    },
    Policy {
        policy: CompletionPolicy,
        reason: Option<String>,
    },
    Cadence(Cadence),
    Signoff,
    Cancel,
    Block {
        question: String,
    },
    Unblock,
    /// `next-mode`; `id` is a freshly generated cycle ID, used only when a
    /// saved request waits and the new preference lets it start.
    NextMode {
        mode: CycleMode,
        cancelled_left_no_changes: bool,
        id: String,
    },
}

impl Move {
    /// The subcommand that requests this move.
    pub fn command(&self) -> &'static str {
        match self {
            Move::Start { .. } => "start",
            Move::Handoff { .. } => "handoff",
            Move::Fail { .. } => "fail",
            Move::Rework { .. } => "rework",
            Move::Resume { .. } => "resume",
            Move::Promote { .. } => "promote",
            Move::Policy { .. } => "policy",
            Move::Cadence(_) => "cadence",
            Move::Signoff => "signoff",
            Move::Cancel => "cancel",
            Move::Block { .. } => "block",
            Move::Unblock => "unblock",
            Move::NextMode { .. } => "next-mode",
        }
    }
}

/// Dispatches a move to its pure function.
pub fn apply(doc: &StateDoc, facts: &Facts, mv: &Move) -> Result<Transition, Refusal> {
    match mv {
        Move::Start { request, id } => match plan_start(doc, facts, request)? {
            StartPlan::Blocked(t) => Ok(*t),
            StartPlan::Ready(b) => begin(doc, &b, id),
        },
        Move::Handoff {
            to,
            reason,
            checkpoint,
        } => handoff(doc, facts, *to, reason, *checkpoint),
        Move::Fail {
            failure,
            reason,
            to,
        } => fail(doc, facts, *failure, reason, *to),
        Move::Rework {
            failure,
            request,
            to,
        } => rework(doc, facts, *failure, request, *to),
        Move::Resume {
            rerun_through,
            first,
            reason,
        } => resume(doc, facts, *rerun_through, *first, reason.as_deref()),
        Move::Promote { reason } => promote(doc, facts, reason),
        Move::Policy { policy: p, reason } => policy(doc, facts, *p, reason.as_deref()),
        Move::Cadence(c) => cadence(doc, facts, *c),
        Move::Signoff => signoff(doc, facts),
        Move::Cancel => cancel(doc, facts),
        Move::Block { question } => block(doc, question),
        Move::Unblock => unblock(doc),
        Move::NextMode {
            mode,
            cancelled_left_no_changes,
            id,
        } => next_mode(doc, facts, *mode, *cancelled_left_no_changes, id),
    }
}
