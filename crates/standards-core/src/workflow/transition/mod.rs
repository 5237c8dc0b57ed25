//! Tool-owned workflow transitions (PROTOCOL.md Handoff Rules, Forward
//! Transitions, Checkpoint Handoffs, Failure Handoffs, Recovery Mechanics,
//! User Decisions and Intervention; user-decisions.md; expedited.md).
//!
//! Each move is a pure function from the parsed STATE.md (and the few facts
//! it needs from elsewhere: the project mode, `check`'s problems in files the
//! current role owns, the plan's cadence) to the new STATE.md, or a
//! [`Refusal`] that names the protocol rule the move would break. The new
//! document is produced by span edits of the old one, so every byte the move
//! does not change stays as it was (a hand-edited or Node-written STATE.md
//! stays valid input and keeps its layout).
//!
//! The moves themselves live in [`crate::workflow::moves`], one module per
//! family; [`dispatch`] runs a requested [`dispatch::Move`], and [`gate`]
//! checks it against the whole project. STATE.md is edited through the
//! byte-preserving span editor of [`crate::model::state_edit`].

pub mod changes;
pub mod dispatch;
pub mod gate;
pub mod record_path;
pub mod route;

use crate::model::state::StateDoc;
use crate::model::state_edit::{EditError, StateEditor};
use crate::model::vocab::{ProjectMode, WorkflowState};
use crate::records::plan::Cadence;

use WorkflowState as W;

/// Why a move is not legal: the protocol rule (section) it breaks, what is
/// wrong, and what to do instead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The protocol section whose rule the move breaks, e.g. `Forward Transitions`.
    pub rule: &'static str,
    pub message: String,
    pub hint: Option<String>,
}

impl Refusal {
    pub(crate) fn new(rule: &'static str, message: impl Into<String>) -> Refusal {
        Refusal {
            rule,
            message: message.into(),
            hint: None,
        }
    }

    pub(crate) fn hint(mut self, hint: impl Into<String>) -> Refusal {
        self.hint = Some(hint.into());
        self
    }
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} (protocol: {})", self.message, self.rule)
    }
}

/// What a move needs to know besides STATE.md.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Facts {
    pub project: ProjectMode,
    /// `check`'s problems in files the current role owns, as `file: message [RULE]`.
    pub owned_problems: Vec<String>,
    /// The development plan's effective `Verification Cadence`, if a plan says.
    pub effective_cadence: Option<Cadence>,
    /// Whether the cycle's documentation record exists (its normal phase started).
    pub documentation_started: bool,
}

impl Facts {
    pub fn new(project: ProjectMode) -> Facts {
        Facts {
            project,
            owned_problems: Vec::new(),
            effective_cadence: None,
            documentation_started: false,
        }
    }
}

/// Which move a transition is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoveKind {
    Start,
    /// `start` that saved the request as blocked instead of starting.
    StartBlocked,
    Handoff,
    Checkpoint,
    Fail,
    Rework,
    Resume,
    Promote,
    Policy,
    Cadence,
    Signoff,
    Cancel,
    Block,
    Unblock,
    /// `next-mode`: the user's preference for the next cycle's mode.
    NextMode,
}

impl MoveKind {
    /// The kebab-case name used for audit events and JSON.
    pub fn name(self) -> &'static str {
        match self {
            MoveKind::Start => "start",
            MoveKind::StartBlocked => "start-blocked",
            MoveKind::Handoff => "handoff",
            MoveKind::Checkpoint => "checkpoint",
            MoveKind::Fail => "fail",
            MoveKind::Rework => "rework",
            MoveKind::Resume => "resume",
            MoveKind::Promote => "promote",
            MoveKind::Policy => "policy",
            MoveKind::Cadence => "cadence",
            MoveKind::Signoff => "signoff",
            MoveKind::Cancel => "cancel",
            MoveKind::Block => "block",
            MoveKind::Unblock => "unblock",
            MoveKind::NextMode => "next-mode",
        }
    }

    /// D20: the user's own decisions, whose audit event is the evidence and is
    /// appended before the state write (sign-off, cancel, a policy change, a
    /// promotion at sign-off).
    pub fn user_authority(self, before: WorkflowState) -> bool {
        match self {
            MoveKind::Signoff | MoveKind::Cancel | MoveKind::Policy | MoveKind::NextMode => true,
            MoveKind::Promote => before == W::AwaitingUserSignoff,
            _ => false,
        }
    }
}

/// The result of a legal move.
#[derive(Debug, Clone)]
pub struct Transition {
    pub kind: MoveKind,
    pub before: WorkflowState,
    pub after: WorkflowState,
    /// The new STATE.md.
    pub doc: StateDoc,
    /// False when the move legitimately changes nothing (a repeated policy).
    pub changed: bool,
    /// What was recorded, as a sentence.
    pub summary: String,
}

/// The span editor's failures, as refusals naming the protocol section.
impl From<EditError> for Refusal {
    fn from(e: EditError) -> Refusal {
        match e {
            EditError::MissingSection(name) => invalid_section(name),
            EditError::NoRecoveryFrame => {
                Refusal::new(RECOVERY_MECHANICS, "there is no recovery frame")
            }
            EditError::NoRerunThrough { frame } => Refusal::new(
                RECOVERY_MECHANICS,
                format!("recovery frame {frame} has no `RerunThrough` field to set"),
            )
            .hint("add `RerunThrough`: `NONE` to the frame (check reports it as RC-008)"),
            EditError::Overlap => Refusal::new(
                "Workflow State Reference",
                "internal error: two edits of one move overlap; nothing was written",
            ),
            EditError::Invalid(e) => invalid(e),
        }
    }
}

// Protocol sections named by refusals.
pub(crate) const HANDOFF_RULES: &str = "Handoff Rules";
pub(crate) const FORWARD_TRANSITIONS: &str = "Forward Transitions";
pub(crate) const CHECKPOINT_HANDOFFS: &str = "Checkpoint Handoffs";
pub(crate) const FAILURE_HANDOFFS: &str = "Failure Handoffs";
pub(crate) const RECOVERY_MECHANICS: &str = "Recovery Mechanics";
pub(crate) const RUNTIME_TOOLS: &str = "Runtime Tools and Hooks";
pub(crate) const STATE_UPDATE_RULES: &str = "State-update rules";
pub(crate) const START_A_CYCLE: &str = "Start a cycle";
pub(crate) const CHANGE_POLICY: &str = "Change completion policy";
pub(crate) const SWITCH_CADENCE: &str = "Switch verification cadence";
pub(crate) const PROMOTION: &str = "Expedited Promotion";
pub(crate) const SIGN_OFF: &str = "Sign off";
pub(crate) const CANCEL: &str = "Cancel an active cycle";
pub(crate) const REWORK: &str = "Rework an active cycle";
pub(crate) const OBLIGATIONS_RULE: &str = "Outstanding Obligations";
pub(crate) const DOCUMENTATION_CONTRACT: &str = "Documentation Cycle Contract";
pub(crate) const CHOOSE_NEXT_MODE: &str = "Choose the next cycle's mode";

pub(crate) fn invalid(e: crate::model::state::StateError) -> Refusal {
    Refusal::new(
        "Workflow State Reference",
        format!("the move would leave STATE.md structurally invalid: {e}"),
    )
    .hint("nothing was written; fix STATE.md (`git standards check` names the problem) and retry")
}

pub(crate) fn invalid_section(name: &str) -> Refusal {
    Refusal::new(
        "Workflow State Reference",
        format!("STATE.md does not have exactly one `## {name}` section"),
    )
}

pub(crate) fn finish(
    kind: MoveKind,
    before: &StateDoc,
    editor: StateEditor,
    summary: String,
) -> Result<Transition, Refusal> {
    let doc = editor.build()?;
    let changed = doc.render() != before.render();
    Ok(Transition {
        kind,
        before: before.workflow_state.value,
        after: doc.workflow_state.value,
        doc,
        changed,
        summary,
    })
}

#[cfg(test)]
mod tests;
