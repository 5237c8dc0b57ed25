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

pub mod changes;
pub mod route;

use std::ops::Range;

use crate::check::{self, Options, Report};
use crate::model::fields::{self, render_code_span};
use crate::model::layout::{CONTEXT_PATH, MODE_PATH, STATE_PATH};
use crate::model::mode;
use crate::model::state::{Baseline, StateDoc};
use crate::model::tree::{Text, Tree, WithFile};
use crate::model::vocab::{
    ArtifactType, CompletionPolicy, CycleMode, FailureType, HandoffKind, ProjectMode, Role,
    WorkflowState,
};
use crate::records::plan::{increment_mentions, Cadence};
use crate::workflow::topology;

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
    fn new(rule: &'static str, message: impl Into<String>) -> Refusal {
        Refusal {
            rule,
            message: message.into(),
            hint: None,
        }
    }

    fn hint(mut self, hint: impl Into<String>) -> Refusal {
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

// ---------------------------------------------------------------------------
// Field edits

/// The STATE.md fields a move may set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum F {
    WorkflowState,
    CycleMode,
    PendingCycleMode,
    PendingCycleRequest,
    PendingCycleBlockedOn,
    Id,
    Request,
    CompletionPolicy,
    Scope,
    Architecture,
    Development,
    PromotionReason,
    AuditTarget,
    BlockedOn,
    PendingCadence,
    Kind,
    From,
    FailureType,
    Reason,
}

fn locate(doc: &StateDoc, field: F) -> (Range<usize>, String) {
    let aw = &doc.active_work;
    let h = &doc.handoff;
    match field {
        F::WorkflowState => (
            doc.workflow_state.span.clone(),
            doc.workflow_state.value.to_string(),
        ),
        F::CycleMode => (
            doc.cycle_mode.span.clone(),
            doc.cycle_mode.value.to_string(),
        ),
        F::PendingCycleMode => (
            doc.pending_cycle_mode.span.clone(),
            doc.pending_cycle_mode.value.to_string(),
        ),
        F::PendingCycleRequest => (
            doc.pending_cycle_request.span.clone(),
            doc.pending_cycle_request.value.clone(),
        ),
        F::PendingCycleBlockedOn => (
            doc.pending_cycle_blocked_on.span.clone(),
            doc.pending_cycle_blocked_on.value.clone(),
        ),
        F::Id => (aw.id.span.clone(), aw.id.value.clone()),
        F::Request => (aw.request.span.clone(), aw.request.value.clone()),
        F::CompletionPolicy => (
            aw.completion_policy.span.clone(),
            aw.completion_policy.value.to_string(),
        ),
        F::Scope => (aw.scope.span.clone(), aw.scope.value.clone()),
        F::Architecture => (aw.architecture.span.clone(), aw.architecture.value.clone()),
        F::Development => (aw.development.span.clone(), aw.development.value.clone()),
        F::PromotionReason => (
            aw.promotion_reason.span.clone(),
            aw.promotion_reason.value.clone(),
        ),
        F::AuditTarget => (aw.audit_target.span.clone(), aw.audit_target.value.clone()),
        F::BlockedOn => (aw.blocked_on.span.clone(), aw.blocked_on.value.clone()),
        F::PendingCadence => (
            aw.pending_verification_cadence.span.clone(),
            aw.pending_verification_cadence.value.to_string(),
        ),
        F::Kind => (h.kind.span.clone(), h.kind.value.clone()),
        F::From => (h.from.span.clone(), h.from.value.clone()),
        F::FailureType => (h.failure_type.span.clone(), h.failure_type.value.clone()),
        F::Reason => (h.reason.span.clone(), h.reason.value.clone()),
    }
}

/// A frame to push onto the recovery stack.
struct NewFrame {
    from: WorkflowState,
    owner: WorkflowState,
    failure: FailureType,
    reason: String,
}

/// Collects the byte edits of one move, all located in the original
/// document, and applies them together: a move passes through no
/// intermediate state (which might not even parse), and every byte outside
/// the edited spans stays as it was.
struct Editor {
    doc: StateDoc,
    edits: Vec<(Range<usize>, String)>,
}

impl Editor {
    fn new(doc: &StateDoc) -> Editor {
        Editor {
            doc: doc.clone(),
            edits: Vec::new(),
        }
    }

    fn put(&mut self, range: Range<usize>, text: String) {
        self.edits.retain(|(r, _)| *r != range);
        self.edits.push((range, text));
    }

    fn set(&mut self, field: F, value: &str) -> Result<&mut Self, Refusal> {
        let (span, current) = locate(&self.doc, field);
        if current == value {
            self.edits.retain(|(r, _)| *r != span);
        } else {
            self.put(span, render_code_span(value));
        }
        Ok(self)
    }

    fn handoff(
        &mut self,
        kind: HandoffKind,
        from: &str,
        failure: Option<FailureType>,
        reason: &str,
    ) -> Result<&mut Self, Refusal> {
        self.set(F::Kind, kind.as_str())?
            .set(F::From, from)?
            .set(F::FailureType, failure.map_or("NONE", |f| f.as_str()))?
            .set(F::Reason, reason)
    }

    fn stack(&self, section: &str) -> &crate::model::state::Stack {
        if section == RECOVERY {
            &self.doc.recovery
        } else {
            &self.doc.obligations
        }
    }

    fn set_active(&mut self, section: &str, active: bool) {
        let flag = &self.stack(section).active;
        let span = flag.span.clone();
        if flag.value == active {
            self.edits.retain(|(r, _)| *r != span);
        } else {
            self.put(span, format!("`{active}`"));
        }
    }

    /// Appends entries at the end of a stack section and marks it active.
    fn append_entries(&mut self, section: &str, entries: &[String]) -> Result<(), Refusal> {
        if entries.is_empty() {
            return Ok(());
        }
        let body = self
            .doc
            .section_body(section)
            .ok_or_else(|| invalid_section(section))?;
        let source = self.doc.render();
        let before = &source[..body.end];
        let lead = if before.ends_with("\n\n") {
            ""
        } else if before.ends_with('\n') {
            "\n"
        } else {
            "\n\n"
        };
        let trail = if body.end < source.len() { "\n" } else { "" };
        let text = format!("{lead}{}{trail}", entries.join("\n"));
        self.put(body.end..body.end, text);
        self.set_active(section, true);
        Ok(())
    }

    /// Removes the entries of a stack section from the `keep`-th on (all of
    /// them for 0) and marks it inactive when none is left.
    fn truncate(&mut self, section: &str, keep: usize) -> Result<(), Refusal> {
        let stack = self.stack(section);
        let left = stack.entries.len().min(keep);
        if let Some(first_removed) = stack.entries.get(keep) {
            let body = self
                .doc
                .section_body(section)
                .ok_or_else(|| invalid_section(section))?;
            let source = self.doc.render();
            let mut start = self.doc.line_offset(first_removed.line);
            if body.end == source.len() && source[..start].ends_with("\n\n") {
                start -= 1;
            }
            self.put(start..body.end, String::new());
        }
        self.set_active(section, left > 0);
        Ok(())
    }

    fn push_frame(&mut self, frame: &NewFrame) -> Result<usize, Refusal> {
        let n = self.doc.recovery.entries.len() + 1;
        let text = format!(
            "### Frame {n}\n\n`From`: `{}` `Owner`: `{}` `FailureType`: `{}`\n`Reason`: {}\n`ResumeAt`: `{}` `RerunThrough`: `NONE`\n",
            frame.from,
            frame.owner,
            frame.failure,
            render_code_span(&frame.reason),
            frame.from,
        );
        self.append_entries(RECOVERY, &[text])?;
        Ok(n)
    }

    fn pop_frame(&mut self) -> Result<(), Refusal> {
        let keep = self.doc.recovery.entries.len().saturating_sub(1);
        self.truncate(RECOVERY, keep)
    }

    fn set_rerun_through(&mut self, state: WorkflowState) -> Result<(), Refusal> {
        let frame = self
            .doc
            .recovery
            .entries
            .last()
            .ok_or_else(|| Refusal::new(RECOVERY_MECHANICS, "there is no recovery frame"))?;
        let Some((_, field)) = frame.fields.iter().find(|(n, _)| n == "RerunThrough") else {
            return Err(Refusal::new(
                RECOVERY_MECHANICS,
                format!(
                    "recovery frame {} has no `RerunThrough` field to set",
                    frame.label
                ),
            )
            .hint("add `RerunThrough`: `NONE` to the frame (check reports it as RC-008)"));
        };
        let span = field.span.clone();
        self.put(span, render_code_span(state.as_str()));
        Ok(())
    }

    fn set_baseline(&mut self, entries: &[(String, String)]) -> Result<(), Refusal> {
        let text = if entries.is_empty() {
            " `NONE`".to_string()
        } else {
            let items: Vec<String> = entries
                .iter()
                .map(|(id, request)| {
                    format!(
                        "- `SourceCycle`: {}\n  `Request`: {}",
                        render_code_span(id),
                        render_code_span(request)
                    )
                })
                .collect();
            format!("\n\n{}", items.join("\n"))
        };
        let span = self.doc.active_work.baseline_span.clone();
        if self.doc.render()[span.clone()] != text {
            self.put(span, text);
        }
        Ok(())
    }

    /// Applies every edit and parses the result.
    fn build(mut self) -> Result<StateDoc, Refusal> {
        if self.edits.is_empty() {
            return Ok(self.doc);
        }
        self.edits.sort_by_key(|(r, _)| (r.start, r.end));
        let source = self.doc.render();
        let mut out = String::with_capacity(source.len() + 256);
        let mut at = 0;
        for (range, text) in &self.edits {
            if range.start < at {
                return Err(Refusal::new(
                    "Workflow State Reference",
                    "internal error: two edits of one move overlap; nothing was written",
                ));
            }
            out.push_str(&source[at..range.start]);
            out.push_str(text);
            at = range.end;
        }
        out.push_str(&source[at..]);
        StateDoc::parse(&out).map_err(invalid)
    }
}

const RECOVERY: &str = "Recovery";
const OBLIGATIONS: &str = "Outstanding Obligations";

// Protocol sections named by refusals.
const HANDOFF_RULES: &str = "Handoff Rules";
const FORWARD_TRANSITIONS: &str = "Forward Transitions";
const CHECKPOINT_HANDOFFS: &str = "Checkpoint Handoffs";
const FAILURE_HANDOFFS: &str = "Failure Handoffs";
const RECOVERY_MECHANICS: &str = "Recovery Mechanics";
const RUNTIME_TOOLS: &str = "Runtime Tools and Hooks";
const STATE_UPDATE_RULES: &str = "State-update rules";
const START_A_CYCLE: &str = "Start a cycle";
const CHANGE_POLICY: &str = "Change completion policy";
const SWITCH_CADENCE: &str = "Switch verification cadence";
const PROMOTION: &str = "Expedited Promotion";
const SIGN_OFF: &str = "Sign off";
const CANCEL: &str = "Cancel an active cycle";
const REWORK: &str = "Rework an active cycle";
const OBLIGATIONS_RULE: &str = "Outstanding Obligations";
const DOCUMENTATION_CONTRACT: &str = "Documentation Cycle Contract";
const CHOOSE_NEXT_MODE: &str = "Choose the next cycle's mode";

fn invalid(e: crate::model::state::StateError) -> Refusal {
    Refusal::new(
        "Workflow State Reference",
        format!("the move would leave STATE.md structurally invalid: {e}"),
    )
    .hint("nothing was written; fix STATE.md (`git standards check` names the problem) and retry")
}

fn invalid_section(name: &str) -> Refusal {
    Refusal::new(
        "Workflow State Reference",
        format!("STATE.md does not have exactly one `## {name}` section"),
    )
}

fn finish(
    kind: MoveKind,
    before: &StateDoc,
    editor: Editor,
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

// ---------------------------------------------------------------------------
// Shared preconditions

/// The active cycle's mode, or a refusal when no cycle is active.
fn active_mode(doc: &StateDoc, what: &str) -> Result<CycleMode, Refusal> {
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

fn require_reason(text: &str, what: &str) -> Result<String, Refusal> {
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
fn order_route(doc: &StateDoc, facts: &Facts) -> &'static [WorkflowState] {
    let mode = doc.cycle_mode.value;
    let policy = match mode {
        CycleMode::Standard => CompletionPolicy::FullDeliverable,
        _ => CompletionPolicy::None,
    };
    topology::forward_route(mode, policy, facts.project).unwrap_or(&[])
}

fn position(route: &[WorkflowState], s: WorkflowState) -> Option<usize> {
    route.iter().position(|x| *x == s)
}

fn refuse_owned_problems(doc: &StateDoc, facts: &Facts) -> Result<(), Refusal> {
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

fn refuse_blocked(doc: &StateDoc, what: &str) -> Result<(), Refusal> {
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

fn frame_state(doc: &StateDoc, i: usize, name: &str) -> Result<WorkflowState, Refusal> {
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

// ---------------------------------------------------------------------------
// Start a cycle

/// `start` options.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StartRequest {
    /// The request; `None` to use the saved `PendingCycleRequest`.
    pub request: Option<String>,
    pub mode: Option<CycleMode>,
    pub policy: Option<CompletionPolicy>,
    /// The user confirmed that the cancelled cycle left no project changes.
    pub cancelled_left_no_changes: bool,
}

/// What `start` decided before an ID exists.
#[derive(Debug, Clone)]
pub enum StartPlan {
    /// The mode is not legal: the request is saved as blocked (a transition
    /// of kind [`MoveKind::StartBlocked`]) with the decision the user must make.
    Blocked(Box<Transition>),
    /// The cycle can start; [`begin`] persists it once an ID exists.
    Ready(Begin),
}

/// A cycle that may start, everything decided but its ID.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Begin {
    pub request: String,
    pub mode: CycleMode,
    pub policy: CompletionPolicy,
    pub entry: WorkflowState,
    baseline: Vec<(String, String)>,
}

/// Steps 1–3 of **Start a cycle**: the reconciliation obligation, the mode,
/// and a block instead of a start when the mode is not legal.
pub fn plan_start(doc: &StateDoc, facts: &Facts, req: &StartRequest) -> Result<StartPlan, Refusal> {
    let installed = doc.active_work.id.value == "UNSET"
        && doc.active_work.request.value == "UNSET"
        && doc.cycle_mode.value == CycleMode::Unset;
    let ws = doc.workflow_state.value;
    if !(installed || ws.is_terminal()) {
        return Err(Refusal::new(
            START_A_CYCLE,
            format!(
                "a cycle is still active: `{}` in `{ws}`; a cycle starts only from the installed state, `SIGNED_OFF` or `CANCELLED`",
                doc.active_work.id.value
            ),
        )
        // `signoff` works only at sign-off readiness: elsewhere it is not named.
        .hint(if ws == W::AwaitingUserSignoff {
            "finish it (`git standards signoff`) or cancel it (`git standards cancel`) first"
        } else {
            "finish it (the roles carry it to `AWAITING_USER_SIGNOFF`, where the user signs it off) or cancel it (`git standards cancel`) first"
        }));
    }
    let saved = &doc.pending_cycle_request.value;
    let request = match &req.request {
        Some(r) if !r.trim().is_empty() => r.trim().to_string(),
        Some(_) => return Err(Refusal::new(START_A_CYCLE, "the request must not be empty")),
        None if saved != "UNSET" => match saved.find(CHOICES_TAG) {
            // The saved request carries the choices that blocked it: the
            // user decides anew, never by silent fallback to the default.
            Some(i) if req.mode.is_none() && req.policy.is_none() => {
                return Err(Refusal::new(
                    START_A_CYCLE,
                    format!(
                        "the saved request was blocked with the user's choices {}; it starts only once the user decides",
                        &saved[i..]
                    ),
                )
                .hint("pass the decided `--mode` and/or `--policy`, or drop the request with `git standards unblock`"))
            }
            Some(i) => {
                let end = saved[i..].find(']').map_or(saved.len(), |j| i + j + 1);
                format!("{}{}", saved[..i].trim_end(), &saved[end..])
            }
            None => saved.clone(),
        },
        None => {
            return Err(Refusal::new(
                START_A_CYCLE,
                "a cycle needs a request, and no request is saved in `PendingCycleRequest`",
            )
            .hint("pass `--request \"<what the user asked for>\"`"))
        }
    };

    // Step 1: the reconciliation obligation.
    let mut baseline: Vec<(String, String)> = match &doc.active_work.baseline {
        Baseline::None => Vec::new(),
        Baseline::Entries(e) => e
            .iter()
            .map(|e| (e.source_cycle.value.clone(), e.request.value.clone()))
            .collect(),
        Baseline::Malformed(why) => {
            return Err(Refusal::new(
                "Baseline Reconciliation Format",
                format!("`BaselineReconciliation` is malformed ({why}), so its obligations cannot be carried"),
            )
            .hint("correct the list by hand (`git standards check` reports it as ST-027), then retry"))
        }
    };
    if ws == W::Cancelled && !installed && !req.cancelled_left_no_changes {
        let id = doc.active_work.id.value.clone();
        if id != "UNSET" && baseline.iter().all(|(s, _)| *s != id) {
            baseline.push((id, doc.active_work.request.value.clone()));
        }
    }
    let reconciling = !baseline.is_empty();

    // Step 2: the mode.
    let pending = doc.pending_cycle_mode.value;
    let mode = req
        .mode
        .or((pending != CycleMode::Unset).then_some(pending))
        .unwrap_or(CycleMode::Standard);
    let source = if req.mode.is_some() {
        "the requested mode"
    } else if pending != CycleMode::Unset {
        "the pending mode preference"
    } else {
        "the default mode"
    };
    let mut conflict: Option<String> = None;
    if mode == CycleMode::Unset {
        return Err(Refusal::new(
            START_A_CYCLE,
            "`UNSET` is not a cycle mode to start",
        ));
    }
    if facts.project == ProjectMode::Greenfield && mode != CycleMode::Standard {
        conflict = Some(format!(
            "{source} `{mode}` is not supported in a GREENFIELD project, which supports only STANDARD cycles"
        ));
    } else if reconciling && mode == CycleMode::Expedited {
        conflict = Some(format!(
            "{source} `EXPEDITED` cannot start while baseline reconciliation is open for {} cancelled cycle(s): the cycle must start with the Auditor (STANDARD or DOCUMENTATION)",
            baseline.len()
        ));
    } else if let Some(p) = req.policy.filter(|_| mode != CycleMode::Standard) {
        conflict = Some(format!(
            "the completion policy `{p}` needs a STANDARD cycle, but {source} is `{mode}`"
        ));
    }
    if req.policy == Some(CompletionPolicy::None) {
        conflict = Some("`NONE` is not a completion policy a standard cycle can choose".into());
    }

    if let Some(question) = conflict {
        // Step 3: save the request and the decision; nothing else changes.
        let mut saved_request = request.clone();
        let mut notes = Vec::new();
        if let Some(m) = req.mode {
            notes.push(format!("requested mode {m}"));
        }
        if let Some(p) = req.policy {
            notes.push(format!("requested completion policy {p}"));
        }
        if !notes.is_empty() {
            saved_request = format!("{saved_request} {CHOICES_TAG}{}.]", notes.join(", "));
        }
        let question = format!(
            "{question}. Choose a supported mode, change or clear the preference, revise the request, or drop it."
        );
        let mut e = Editor::new(doc);
        e.set(F::PendingCycleRequest, &saved_request)?
            .set(F::PendingCycleBlockedOn, &question)?;
        let summary = format!("The cycle was not started: {question}");
        return finish(MoveKind::StartBlocked, doc, e, summary)
            .map(|t| StartPlan::Blocked(Box::new(t)));
    }

    let policy = match mode {
        CycleMode::Standard => req.policy.unwrap_or(CompletionPolicy::FullDeliverable),
        _ => CompletionPolicy::None,
    };
    let entry = if reconciling || mode == CycleMode::Documentation {
        W::Auditing
    } else if mode == CycleMode::Expedited {
        W::Developing
    } else {
        topology::installed_state(facts.project)
    };
    let request = if policy == CompletionPolicy::ImplementationReviewed {
        with_policy_instruction(&request, policy)
    } else {
        request
    };
    Ok(StartPlan::Ready(Begin {
        request,
        mode,
        policy,
        entry,
        baseline,
    }))
}

/// Step 5 of **Start a cycle**: persists the new cycle in one update.
pub fn begin(doc: &StateDoc, begin: &Begin, id: &str) -> Result<Transition, Refusal> {
    let first = doc.active_work.id.value == "UNSET";
    if id == doc.active_work.id.value || !crate::model::cycle_id::is_generated(id) {
        return Err(Refusal::new(
            "Cycle IDs",
            format!("`{id}` cannot be the new cycle's ID: every cycle gets a new ID from `git standards cycle new`"),
        ));
    }
    let mut e = Editor::new(doc);
    e.set(F::Id, id)?
        .set(F::Request, &begin.request)?
        .set(F::Scope, "NONE")?
        .set(F::Architecture, "NONE")?
        .set(F::Development, "NONE")?
        .set(F::PromotionReason, "NONE")?
        .set(F::AuditTarget, "NONE")?
        .set(F::BlockedOn, "NONE")?
        .set(F::PendingCadence, "NONE")?
        .set(F::CompletionPolicy, begin.policy.as_str())?
        .set(F::CycleMode, begin.mode.as_str())?
        .set(F::PendingCycleMode, "UNSET")?
        .set(F::PendingCycleRequest, "UNSET")?
        .set(F::PendingCycleBlockedOn, "NONE")?;
    e.set_baseline(&begin.baseline)?;
    let mut reason = if first {
        format!("First cycle started as a {} cycle.", begin.mode)
    } else {
        format!(
            "New {} cycle started after `{}`.",
            begin.mode, doc.workflow_state.value
        )
    };
    if !begin.baseline.is_empty() {
        reason.push_str(&format!(
            " Baseline reconciliation is open for {} cancelled cycle(s).",
            begin.baseline.len()
        ));
    }
    if first {
        e.handoff(HandoffKind::Initial, "NONE", None, &reason)?;
    } else {
        let from = doc.workflow_state.value.as_str();
        e.handoff(HandoffKind::NewCycle, from, None, &reason)?;
    }
    e.truncate(RECOVERY, 0)?;
    e.truncate(OBLIGATIONS, 0)?;
    e.set(F::WorkflowState, begin.entry.as_str())?;
    let summary = format!(
        "Started the {} cycle `{id}` ({}) in `{}`.",
        begin.mode, begin.policy, begin.entry
    );
    finish(MoveKind::Start, doc, e, summary)
}

const POLICY_TAG: &str = "[Completion policy: ";
/// Marks the explicit choices saved with a blocked request (Start a cycle, step 3).
const CHOICES_TAG: &str = "[Start choices: ";

/// The request with its policy instruction set to `policy` (an earlier one replaced).
fn with_policy_instruction(request: &str, policy: CompletionPolicy) -> String {
    let base = match request.find(POLICY_TAG) {
        Some(i) => {
            let end = request[i..].find(']').map_or(request.len(), |j| i + j + 1);
            format!("{}{}", request[..i].trim_end(), &request[end..])
        }
        None => request.to_string(),
    };
    format!(
        "{} {POLICY_TAG}{policy}, chosen explicitly by the user.]",
        base.trim_end()
    )
}

// ---------------------------------------------------------------------------
// Forward and checkpoint handoffs

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
        .hint("use `git standards signoff`, `git standards rework` or `git standards cancel`"));
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

// ---------------------------------------------------------------------------
// Failures and rework

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

// ---------------------------------------------------------------------------
// Resume

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

// ---------------------------------------------------------------------------
// User decisions

/// `promote --reason <text>`: expedited to standard (expedited.md).
pub fn promote(doc: &StateDoc, facts: &Facts, reason: &str) -> Result<Transition, Refusal> {
    let mode = active_mode(doc, "a promotion")?;
    let reason = require_reason(reason, "the promotion reason")?;
    if mode != CycleMode::Expedited {
        return Err(Refusal::new(
            PROMOTION,
            format!("only an EXPEDITED cycle can be promoted, and this cycle is {mode}"),
        ));
    }
    if facts.project != ProjectMode::Brownfield {
        return Err(Refusal::new(
            PROMOTION,
            "an expedited cycle exists only in a BROWNFIELD project",
        ));
    }
    let from = doc.workflow_state.value;
    let mut e = Editor::new(doc);
    // Frames whose owner has not finished become obligations, in stack order.
    let open: Vec<(String, String, String)> = doc
        .recovery
        .entries
        .iter()
        .filter(|f| f.get("RerunThrough").unwrap_or("NONE") == "NONE")
        .map(|f| {
            (
                f.get("Owner").unwrap_or("NONE").to_string(),
                f.get("FailureType").unwrap_or("NONE").to_string(),
                f.get("Reason").unwrap_or("NONE").to_string(),
            )
        })
        .collect();
    e.truncate(RECOVERY, 0)?;
    let existing = doc.obligations.entries.len();
    let entries: Vec<String> = open
        .iter()
        .enumerate()
        .map(|(i, (owner, failure, why))| {
            format!(
                "### Obligation {}\n\n`Owner`: {} `FailureType`: {}\n`Reason`: {}\n",
                existing + i + 1,
                render_code_span(owner),
                render_code_span(failure),
                render_code_span(why)
            )
        })
        .collect();
    e.append_entries(OBLIGATIONS, &entries)?;
    e.set(F::CycleMode, "STANDARD")?
        .set(F::CompletionPolicy, "FULL_DELIVERABLE")?
        .set(F::PromotionReason, &reason)?
        .handoff(HandoffKind::Promote, from.as_str(), None, &reason)?
        .set(F::WorkflowState, "AUDITING")?;
    let summary = format!(
        "Promoted the cycle to STANDARD (FULL_DELIVERABLE) at `AUDITING`; {} recovery frame(s) became outstanding obligations.",
        open.len()
    );
    finish(MoveKind::Promote, doc, e, summary)
}

/// `policy full-deliverable|implementation-reviewed` (user-decisions.md,
/// Change completion policy).
pub fn policy(
    doc: &StateDoc,
    facts: &Facts,
    policy: CompletionPolicy,
    user_reason: Option<&str>,
) -> Result<Transition, Refusal> {
    if policy == CompletionPolicy::None {
        return Err(Refusal::new(
            CHANGE_POLICY,
            "`NONE` is not a policy to choose; choose FULL_DELIVERABLE or IMPLEMENTATION_REVIEWED",
        ));
    }
    if !doc.has_active_cycle() {
        return Err(Refusal::new(
            CHANGE_POLICY,
            "there is no active cycle: a policy is chosen when a cycle starts, and no policy preference is saved for the next one",
        )
        .hint("pass it to `git standards start --request \"<request>\" --policy <policy>`"));
    }
    match doc.cycle_mode.value {
        CycleMode::Standard => {}
        CycleMode::Expedited => {
            return Err(Refusal::new(
                CHANGE_POLICY,
                "an EXPEDITED cycle keeps `CompletionPolicy: NONE` and runs through implementation review to sign-off; a standard policy first needs a promotion",
            )
            .hint("the user authorizes `git standards promote --reason \"<reason>\"`, which sets FULL_DELIVERABLE"))
        }
        other => {
            return Err(Refusal::new(
                CHANGE_POLICY,
                format!("a {other} cycle keeps `CompletionPolicy: NONE` and its fixed route; a standard policy neither converts it nor removes a phase"),
            ))
        }
    }
    let old = doc.active_work.completion_policy.value;
    let from = doc.workflow_state.value;
    if old == policy {
        return finish(
            MoveKind::Policy,
            doc,
            Editor::new(doc),
            format!("The completion policy is already {policy}; nothing changed."),
        );
    }
    if doc.recovery.active.value
        || !doc.recovery.entries.is_empty()
        || doc.obligations.active.value
        || !doc.obligations.entries.is_empty()
    {
        return Err(Refusal::new(
            CHANGE_POLICY,
            "a policy change needs an empty recovery stack and no outstanding obligations",
        )
        .hint("finish the recovery first; the policy is kept"));
    }
    let target = match from {
        W::Scoping
        | W::Architecting
        | W::Auditing
        | W::Developing
        | W::Testing
        | W::ReviewingImplementation => from,
        W::Documenting if policy == CompletionPolicy::ImplementationReviewed => {
            let h = doc.handoff.kind();
            let hf = doc.handoff.from_state();
            let entered = matches!(
                (h, hf),
                (Some(HandoffKind::Forward), Some(W::ReviewingImplementation))
                    | (Some(HandoffKind::CompletionChange), Some(W::AwaitingUserSignoff))
            );
            if !entered || facts.documentation_started {
                return Err(Refusal::new(
                    CHANGE_POLICY,
                    "from `DOCUMENTING` the shorter policy is possible only before the Documenter starts its normal work (entered by a FORWARD from REVIEWING_IMPLEMENTATION or a COMPLETION_CHANGE, with no documentation record yet)",
                ));
            }
            W::ReviewingImplementation
        }
        W::AwaitingUserSignoff if policy == CompletionPolicy::FullDeliverable => W::Documenting,
        _ => {
            return Err(Refusal::new(
                CHANGE_POLICY,
                format!("`{from}` has no permitted route from {old} to {policy}: the policy can change in SCOPING through REVIEWING_IMPLEMENTATION, from FULL_DELIVERABLE to IMPLEMENTATION_REVIEWED in an unstarted DOCUMENTING, or back to FULL_DELIVERABLE at AWAITING_USER_SIGNOFF"),
            ))
        }
    };
    if target != from {
        refuse_blocked(doc, "a state-changing policy change")?;
    }
    let mut request = with_policy_instruction(&doc.active_work.request.value, policy);
    if let Some(r) = user_reason.map(str::trim).filter(|r| !r.is_empty()) {
        request = format!("{} Reason given: {r}]", request.trim_end_matches(']'));
    }
    let mut e = Editor::new(doc);
    e.set(F::CompletionPolicy, policy.as_str())?
        .set(F::Request, &request)?;
    let summary = if target != from {
        let reason = format!("Completion policy changed from {old} to {policy}.");
        e.handoff(HandoffKind::CompletionChange, from.as_str(), None, &reason)?
            .set(F::WorkflowState, target.as_str())?;
        format!("Changed the completion policy from {old} to {policy}: `{from}` -> `{target}` (COMPLETION_CHANGE).")
    } else {
        format!("Changed the completion policy from {old} to {policy}; the state stays `{from}`.")
    };
    finish(MoveKind::Policy, doc, e, summary)
}

/// `cadence incremental|after-implementation` (user-decisions.md, Switch
/// verification cadence): records the pending request for the Developer.
/// A promotion a user decision authorizes, recording with it what the
/// decision changed: the reworked request, or the pending cadence.
fn promote_with(
    doc: &StateDoc,
    facts: &Facts,
    reason: &str,
    request: Option<&str>,
    pending_cadence: Option<&str>,
) -> Result<Transition, Refusal> {
    let promoted = promote(doc, facts, reason)?;
    let mut e = Editor::new(&promoted.doc);
    if let Some(request) = request {
        e.set(F::Request, request)?;
    }
    if let Some(cadence) = pending_cadence {
        e.set(F::PendingCadence, cadence)?;
    }
    let mut summary = promoted.summary;
    if request.is_some() {
        summary.push_str(" The reworked request is recorded.");
    }
    if let Some(cadence) = pending_cadence {
        summary.push_str(&format!(" The cadence {cadence} stays pending."));
    }
    finish(MoveKind::Promote, doc, e, summary)
}

pub fn cadence(doc: &StateDoc, facts: &Facts, cadence: Cadence) -> Result<Transition, Refusal> {
    let mode = active_mode(doc, "a cadence switch")?;
    match mode {
        CycleMode::Documentation => {
            return Err(Refusal::new(
                SWITCH_CADENCE,
                "a DOCUMENTATION cycle schedules no implementation or Tester assessment, so it has no verification cadence",
            ))
        }
        CycleMode::Expedited if cadence == Cadence::Incremental => {
            // Switch verification cadence (step 1): "an explicit `INCREMENTAL`
            // request authorizes Expedited Promotion ... Keep the request
            // pending through the promotion".
            return promote_with(
                doc,
                facts,
                "The user requested INCREMENTAL verification, which the expedited path does not allow.",
                None,
                Some(Cadence::Incremental.as_str()),
            );
        }
        _ => {}
    }
    let from = doc.workflow_state.value;
    let recovering = doc.recovery.active.value || !doc.recovery.entries.is_empty();
    let past = matches!(
        from,
        W::ReviewingImplementation
            | W::Documenting
            | W::ReviewingFinal
            | W::Synchronizing
            | W::AwaitingUserSignoff
    );
    let effective = facts
        .effective_cadence
        .unwrap_or(Cadence::AfterImplementation);
    let (value, summary) = if mode == CycleMode::Expedited {
        (
            "NONE",
            "An expedited cycle always verifies after implementation; no switch is pending."
                .to_string(),
        )
    } else if past && !recovering {
        ("NONE", format!("Nothing is left to schedule in `{from}`, so the switch has no effect; any pending request was cleared."))
    } else if facts.effective_cadence.is_some() && effective == cadence {
        ("NONE", format!("{} is already the effective cadence; any pending request for the other cadence was cleared.", cadence.as_str()))
    } else {
        (
            cadence.as_str(),
            format!(
                "Recorded the pending cadence {}; the Developer applies it at the next safe point.",
                cadence.as_str()
            ),
        )
    };
    let mut e = Editor::new(doc);
    e.set(F::PendingCadence, value)?;
    finish(MoveKind::Cadence, doc, e, summary)
}

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

/// `block --on <question>`: a blocking user question (State-update rules 3).
pub fn block(doc: &StateDoc, question: &str) -> Result<Transition, Refusal> {
    active_mode(doc, "a blocking question")?;
    let question = require_reason(question, "the question")?;
    let current = &doc.active_work.blocked_on.value;
    if current != "NONE" {
        return Err(Refusal::new(
            STATE_UPDATE_RULES,
            format!("the cycle is already blocked on: {current}"),
        )
        .hint("record one question at a time: clear it with `git standards unblock` after the answer, or ask both in one `--on`"));
    }
    let mut e = Editor::new(doc);
    e.set(F::BlockedOn, &question)?;
    finish(
        MoveKind::Block,
        doc,
        e,
        format!("Recorded the blocking question: {question}"),
    )
}

/// `unblock`: clears `BlockedOn`; before a cycle, drops the blocked request.
pub fn unblock(doc: &StateDoc) -> Result<Transition, Refusal> {
    let mut e = Editor::new(doc);
    let summary = if doc.has_active_cycle() && doc.active_work.blocked_on.value != "NONE" {
        e.set(F::BlockedOn, "NONE")?;
        "Cleared the blocking question.".to_string()
    } else if !doc.has_active_cycle() && doc.pending_cycle_blocked_on.value != "NONE" {
        e.set(F::PendingCycleRequest, "UNSET")?
            .set(F::PendingCycleBlockedOn, "NONE")?;
        "Dropped the blocked next-cycle request; no cycle was started.".to_string()
    } else {
        return Err(Refusal::new(
            STATE_UPDATE_RULES,
            "nothing is blocked: `BlockedOn` and `PendingCycleBlockedOn` are both `NONE`",
        ));
    };
    finish(MoveKind::Unblock, doc, e, summary)
}

// ---------------------------------------------------------------------------
// Choose the next cycle's mode

/// `next-mode <mode>` (user-decisions.md, Choose the next cycle's mode): the
/// user's preference for the next cycle, written to `PendingCycleMode`
/// (`UNSET` withdraws it). Only while no cycle is active: the section allows
/// it "while no cycle is active" or before the first cycle received its
/// request, Cycle Modes rule 1 requires the pending fields clear when a cycle
/// ends, and rule 6 ("selecting a mode for the next cycle never changes an
/// active cycle") is read as forbidding any effect on the active cycle, not
/// as allowing a preference to be queued during it. A GREENFIELD project
/// accepts only `STANDARD` (rule 3). When a request waits in
/// `PendingCycleRequest`, the checks of **Start a cycle** run again on it with
/// the new preference: it starts (with `id`) when they pass, and otherwise
/// stays saved with the decision the user must make.
pub fn next_mode(
    doc: &StateDoc,
    facts: &Facts,
    mode: CycleMode,
    cancelled_left_no_changes: bool,
    id: &str,
) -> Result<Transition, Refusal> {
    if doc.has_active_cycle() {
        return Err(Refusal::new(
            CHOOSE_NEXT_MODE,
            format!(
                "the cycle `{}` is active in `{}`: a next-cycle mode is chosen only while no cycle is active, and choosing it never changes the active cycle (Cycle Modes rule 6)",
                doc.active_work.id.value, doc.workflow_state.value
            ),
        )
        // `signoff` works only at sign-off readiness: elsewhere it is not named.
        .hint(match (doc.cycle_mode.value, doc.workflow_state.value == W::AwaitingUserSignoff) {
            (CycleMode::Expedited, true) => "choose it after `git standards signoff` or `git standards cancel`; an expedited cycle that needs the standard guarantees is promoted (`git standards promote --reason \"<why>\"`)",
            (CycleMode::Expedited, false) => "choose it after the cycle is signed off at `AWAITING_USER_SIGNOFF` or cancelled (`git standards cancel`); an expedited cycle that needs the standard guarantees is promoted (`git standards promote --reason \"<why>\"`)",
            (_, true) => "choose it after the cycle is signed off (`git standards signoff`) or cancelled (`git standards cancel`)",
            (_, false) => "choose it after the cycle is signed off at `AWAITING_USER_SIGNOFF` or cancelled (`git standards cancel`)",
        }));
    }
    if facts.project == ProjectMode::Greenfield
        && !matches!(mode, CycleMode::Standard | CycleMode::Unset)
    {
        return Err(Refusal::new(
            CHOOSE_NEXT_MODE,
            format!("a GREENFIELD project supports only STANDARD cycles, so the preference `{mode}` cannot be saved (Cycle Modes rule 3); nothing was saved"),
        )
        .hint("choose `git standards next-mode standard`, or leave the preference unset"));
    }
    let current = doc.pending_cycle_mode.value;
    let mut e = Editor::new(doc);
    e.set(F::PendingCycleMode, mode.as_str())?;
    let chosen = if mode == CycleMode::Unset {
        format!("Withdrew the next-cycle mode preference `{current}`")
    } else {
        format!("Saved `{mode}` as the next cycle's mode")
    };
    if current == mode {
        let summary = format!("`PendingCycleMode` is already `{mode}`; nothing changed.");
        return finish(MoveKind::NextMode, doc, e, summary);
    }
    if doc.pending_cycle_request.value == "UNSET" {
        return finish(MoveKind::NextMode, doc, e, format!("{chosen}."));
    }
    // A saved request is checked again with the new preference.
    let with_mode = e.build()?;
    let request = StartRequest {
        request: None,
        mode: None,
        policy: None,
        cancelled_left_no_changes,
    };
    match plan_start(&with_mode, facts, &request) {
        Ok(StartPlan::Ready(b)) => {
            let mut t = begin(&with_mode, &b, id)?;
            t.summary = format!(
                "{chosen}; the saved request now passes the checks of Start a cycle. {}",
                t.summary
            );
            Ok(t)
        }
        Ok(StartPlan::Blocked(t)) => Ok(Transition {
            kind: MoveKind::NextMode,
            before: doc.workflow_state.value,
            after: t.doc.workflow_state.value,
            changed: t.doc.render() != doc.render(),
            summary: format!(
                "{chosen}; the saved request still cannot start: {}",
                t.doc.pending_cycle_blocked_on.value
            ),
            doc: t.doc,
        }),
        // The saved request carries explicit choices only the user can
        // revise: the preference is saved and the request keeps waiting.
        Err(r) => Ok(Transition {
            kind: MoveKind::NextMode,
            before: doc.workflow_state.value,
            after: with_mode.workflow_state.value,
            changed: true,
            summary: format!(
                "{chosen}; the saved request still waits for the user's decision: {}",
                r.message
            ),
            doc: with_mode,
        }),
    }
}

// ---------------------------------------------------------------------------
// Active Work artifact paths

/// What `artifact init` does with the `Active Work` path field of the record
/// it creates (Active Work: Scoper, Architect and Developer persist their
/// artifact path; Workflow Artifact Provenance: only the development plan's
/// and the new scope and design records' paths go into STATE.md).
#[derive(Debug, Clone)]
pub enum RecordPath {
    /// The field is `NONE`: the new STATE.md names the record.
    Set {
        field: &'static str,
        doc: Box<StateDoc>,
    },
    /// The field already names this record.
    Recorded { field: &'static str },
    /// The field names another artifact (an unmarked project document the
    /// role chose, or a stale path): the role's choice stays, untouched.
    Elsewhere {
        field: &'static str,
        current: String,
    },
    /// The record has no path field, or this cycle keeps it `NONE`.
    NoField { why: &'static str },
}

/// The `Active Work` field that names a record of `artifact` at `path`.
pub fn record_path(
    doc: &StateDoc,
    artifact: ArtifactType,
    path: &str,
) -> Result<RecordPath, Refusal> {
    let (field, name) = match artifact {
        ArtifactType::Scope => (F::Scope, "Active Work.Scope"),
        ArtifactType::Architecture => (F::Architecture, "Active Work.Architecture"),
        ArtifactType::Development => (F::Development, "Active Work.Development"),
        _ => {
            return Ok(RecordPath::NoField {
                why: "its path derives from the cycle ID, so STATE.md has no field for it",
            })
        }
    };
    if doc.cycle_mode.value == CycleMode::Expedited && field != F::Development {
        return Ok(RecordPath::NoField {
            why: "an EXPEDITED cycle keeps `Scope` and `Architecture` `NONE` until it is promoted",
        });
    }
    let (_, current) = locate(doc, field);
    if current == path {
        return Ok(RecordPath::Recorded { field: name });
    }
    if current != "NONE" {
        return Ok(RecordPath::Elsewhere {
            field: name,
            current,
        });
    }
    let mut e = Editor::new(doc);
    e.set(field, path)?;
    Ok(RecordPath::Set {
        field: name,
        doc: Box::new(e.build()?),
    })
}

// ---------------------------------------------------------------------------
// One move, checked against the whole project

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

/// The role that owns a project file, for "problems in files the current
/// role owns": the Auditor's context, each role's cycle records at their
/// fixed folders, and the artifacts `Active Work` names.
pub fn file_owner(doc: &StateDoc, path: &str) -> Option<Role> {
    let clean = |p: &str| p.trim_start_matches("./").to_string();
    let aw = &doc.active_work;
    for (field, role) in [
        (&aw.scope.value, Role::Scoper),
        (&aw.architecture.value, Role::Architect),
        (&aw.development.value, Role::Developer),
    ] {
        if field != "NONE" && clean(field) == path {
            return Some(role);
        }
    }
    if path == CONTEXT_PATH {
        return Some(Role::Auditor);
    }
    let rest = path.strip_prefix(".standards/docs/")?;
    let folder = rest.split('/').next()?;
    Some(match folder {
        "scope" => Role::Scoper,
        "specs" => Role::Architect,
        "development" => Role::Developer,
        "verification" => Role::Tester,
        "reviews" => Role::Reviewer,
        "documentation" => Role::Documenter,
        "synchronization" => Role::Synchronizer,
        _ => return None,
    })
}

/// The facts a move needs, read from the project tree and `check`'s report.
pub fn facts(tree: &dyn Tree, doc: &StateDoc, report: &Report) -> Result<Facts, Refusal> {
    let project = match tree.text(MODE_PATH) {
        Text::Ok(text) => mode::parse(&text).map_err(|e| {
            Refusal::new(
                "Project Modes",
                format!("MODE.md is invalid, so the topology is unknown: {e}"),
            )
            .hint("MODE.md must hold `ProjectMode`: `GREENFIELD` or `BROWNFIELD`")
        })?,
        _ => {
            // `check` knows whether the last commit holds a copy,
            // so its hint names the command that works here (RT-001, RT-002); a
            // folder or a symbolic link has no command that repairs it.
            let hint = report
                .problems
                .iter()
                .find(|p| p.file == MODE_PATH && p.rule.starts_with("RT-"))
                .and_then(|p| p.hint.clone())
                .unwrap_or_else(|| {
                    "`git standards check` reports what is wrong with it (RT-002)".to_string()
                });
            return Err(Refusal::new(
                "Project Modes",
                format!("`{MODE_PATH}` is missing or unreadable, so the topology is unknown"),
            )
            .hint(hint));
        }
    };
    let role = doc.workflow_state.value.owner();
    let owned_problems = report
        .problems
        .iter()
        .filter(|p| role != Role::User && file_owner(doc, &p.file) == Some(role))
        .map(|p| format!("{}: {} [{}]", p.file, p.message, p.rule))
        .collect();
    let plan = &doc.active_work.development.value;
    let effective_cadence = if plan == "NONE" {
        None
    } else {
        match tree.text(plan.trim_start_matches("./")) {
            Text::Ok(text) => fields::scan(&text)
                .iter()
                .find(|f| f.name == "Verification Cadence")
                .and_then(|f| Cadence::parse(&f.value)),
            _ => None,
        }
    };
    let documentation_started = tree.exists(&format!(
        ".standards/docs/documentation/{}.md",
        doc.active_work.id.value
    ));
    Ok(Facts {
        project,
        owned_problems,
        effective_cadence,
        documentation_started,
    })
}

/// Moves on a whole project: the facts come from `tree` and one `check`
/// run (compared with `head`), and a move is refused when `check` on the new
/// state reports a problem it did not report before (Runtime Tools and
/// Hooks: the tool never writes a state the checker rejects).
pub struct Gate<'a> {
    tree: &'a dyn Tree,
    head: Option<&'a dyn Tree>,
    doc: &'a StateDoc,
    before: Report,
    facts: Facts,
}

impl<'a> Gate<'a> {
    pub fn new(
        tree: &'a dyn Tree,
        head: Option<&'a dyn Tree>,
        doc: &'a StateDoc,
    ) -> Result<Gate<'a>, Refusal> {
        let before = check::run(tree, head, Options::default());
        let facts = facts(tree, doc, &before)?;
        Ok(Gate {
            tree,
            head,
            doc,
            before,
            facts,
        })
    }

    /// `check`'s report on the project before any move.
    pub fn report(&self) -> &Report {
        &self.before
    }

    pub fn facts(&self) -> &Facts {
        &self.facts
    }

    /// The move, or why it is refused.
    pub fn apply(&self, mv: &Move) -> Result<Transition, Refusal> {
        let t = apply(self.doc, &self.facts, mv)?;
        if !t.changed {
            return Ok(t);
        }
        let after_tree = WithFile {
            base: self.tree,
            path: STATE_PATH,
            content: t.doc.render().as_bytes(),
        };
        let after = check::run(&after_tree, self.head, Options::default());
        // A handoff gives the next role its work: what `check` asks of the
        // files that role owns in the new state (a Tester's report that does
        // not yet show the checkpoint's increment) is the next role's to do,
        // not a problem of the gate being passed (Checkpoint Handoffs).
        let receiver = t.after.owner();
        let theirs = |p: &check::Problem| {
            matches!(
                t.kind,
                MoveKind::Handoff | MoveKind::Checkpoint | MoveKind::Resume
            ) && receiver != Role::User
                && receiver != t.before.owner()
                && file_owner(&t.doc, &p.file) == Some(receiver)
        };
        let after = Report {
            problems: after
                .problems
                .iter()
                .filter(|p| !theirs(p))
                .cloned()
                .collect(),
            notes: after.notes,
        };
        // Issue 23: a forward handoff, a checkpoint or a resume passes its
        // gate only when `check` reports no problem in the state it leaves,
        // whether the problem is new or not; sign-off requires that `check`
        // reports none at all, before the move and after it.
        if gate_covers_all(t.kind) {
            let mut all: Vec<String> = Vec::new();
            let before = (t.kind == MoveKind::Signoff).then_some(&self.before.problems);
            for p in before.into_iter().flatten().chain(after.problems.iter()) {
                let line = format!("{}: {} [{}]", p.file, p.message, p.rule);
                if !all.contains(&line) {
                    all.push(line);
                }
            }
            if !all.is_empty() {
                return Err(gate_refusal(t.kind, self.doc, &all));
            }
        }
        let new: Vec<String> = after
            .problems
            .iter()
            .filter(|p| {
                !self
                    .before
                    .problems
                    .iter()
                    .any(|b| b.rule == p.rule && b.file == p.file)
            })
            .map(|p| format!("{}: {} [{}]", p.file, p.message, p.rule))
            .collect();
        if !new.is_empty() {
            return Err(Refusal::new(
                RUNTIME_TOOLS,
                format!(
                    "the move would leave a state `check` rejects ({} new problem(s)): {}",
                    new.len(),
                    new.join("; ")
                ),
            )
            .hint(
                "the roles that own these files complete them first; the move was not recorded",
            ));
        }
        Ok(t)
    }
}

/// Whether the move's gate covers every problem `check` reports, not only
/// the ones the move would newly create: "Before every state-changing
/// handoff, `check` must report no problems in files the current role
/// owns", and sign-off needs a project `check` accepts (Standard Cycle
/// Completion, sign-off step).
fn gate_covers_all(kind: MoveKind) -> bool {
    matches!(
        kind,
        MoveKind::Handoff | MoveKind::Checkpoint | MoveKind::Resume | MoveKind::Signoff
    )
}

/// The refusal of a move whose gate a problem breaks, naming the fix or the
/// failure route.
fn gate_refusal(kind: MoveKind, doc: &StateDoc, problems: &[String]) -> Refusal {
    let role = doc.workflow_state.value.owner();
    if kind == MoveKind::Signoff {
        return Refusal::new(
            SIGN_OFF,
            format!(
                "sign-off re-checks the completion contract against the current files, and `check` reports {} problem(s): {}",
                problems.len(),
                problems.join("; ")
            ),
        )
        .hint(
            "the owning role completes or corrects its record first (`git standards check` lists them); a defect goes back to its owner through `git standards rework --type <FailureType> --request \"<request>\"`",
        );
    }
    Refusal::new(
        RUNTIME_TOOLS,
        format!(
            "the {} would leave a state `check` rejects ({} problem(s), whether new or not): {}",
            kind.name(),
            problems.len(),
            problems.join("; ")
        ),
    )
    .hint(format!(
        "the {role} fixes what it owns (`git standards check` lists the problems); a defect in a file another role owns goes through `git standards fail`"
    ))
}

/// One move through a [`Gate`].
pub fn gated(
    tree: &dyn Tree,
    head: Option<&dyn Tree>,
    doc: &StateDoc,
    mv: &Move,
) -> Result<Transition, Refusal> {
    Gate::new(tree, head, doc)?.apply(mv)
}

#[cfg(test)]
mod tests;
