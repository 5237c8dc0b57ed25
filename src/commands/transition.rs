//! The transition commands (`start`, `handoff`, `fail`, `rework`, `resume`,
//! `promote`, `policy`, `cadence`, `signoff`, `cancel`, `block`, `unblock`):
//! each builds a [`Move`], and [`record`] validates it against the whole
//! project with [`gated`], writes STATE.md atomically and prints
//! what comes next. The rules live in `standards_core::workflow::transition`.

use crate::cli::values::text_value;
use crate::commands::{cycle, print_result, reset, Context};
use crate::error::{Error, Result};
use crate::repo::config as repo_config;
use crate::repo::failpoint;
use crate::repo::journal::{self, Change};
use crate::support::{audit, conflicts, runtime};
use standards_core::audit::{Event, EventKind};
use standards_core::model::layout::MODE_PATH;
use standards_core::model::layout::STATE_PATH;
use standards_core::model::mode;
use standards_core::model::state::StateDoc;
use standards_core::model::tree::Tree;
use standards_core::model::tree::{Text, WithFile};
use standards_core::model::vocab::ProjectMode;
use standards_core::model::vocab::{CompletionPolicy, CycleMode, FailureType, WorkflowState};
use standards_core::records::plan::Cadence;
use standards_core::setup::fresh;
use standards_core::workflow::moves::start::StartRequest;
use standards_core::workflow::next::{self, BranchContext, NextStep};
use standards_core::workflow::transition::dispatch::Move;
use standards_core::workflow::transition::gate::gated;
use standards_core::workflow::transition::{changes, MoveKind, Refusal, Transition};

fn state_value(s: &str) -> std::result::Result<WorkflowState, String> {
    WorkflowState::parse_loose(s).map_err(|e| e.to_string())
}

fn failure_value(s: &str) -> std::result::Result<FailureType, String> {
    FailureType::parse_loose(s).map_err(|e| e.to_string())
}

fn mode_value(s: &str) -> std::result::Result<CycleMode, String> {
    match CycleMode::parse_loose(s) {
        Ok(CycleMode::Unset) => Err("a cycle starts STANDARD, EXPEDITED or DOCUMENTATION".into()),
        other => other.map_err(|e| e.to_string()),
    }
}

fn policy_value(s: &str) -> std::result::Result<CompletionPolicy, String> {
    match CompletionPolicy::parse_loose(s) {
        Ok(CompletionPolicy::None) => {
            Err("choose FULL_DELIVERABLE or IMPLEMENTATION_REVIEWED".into())
        }
        other => other.map_err(|e| e.to_string()),
    }
}

fn cadence_value(s: &str) -> std::result::Result<Cadence, String> {
    Cadence::parse(&s.trim().to_ascii_uppercase().replace('-', "_")).ok_or_else(|| {
        format!("`{s}` is not a verification cadence; expected INCREMENTAL or AFTER_IMPLEMENTATION")
    })
}

/// The keys of a transition command's `--json` result, printed after the options in its `--help` and man page.
pub const JSON_HELP: &str = r#"TRANSITION JSON

The transition commands (start, handoff, fail, rework, resume, promote, policy, cadence, signoff, cancel, block, unblock, next-mode) take --json: stdout then carries one JSON object instead of the next step (the summary sentence stays on stderr).

ok: true; command: the subcommand; move: what was recorded (start, start-blocked, handoff, checkpoint, fail, rework, resume, promote, policy, cadence, signoff, cancel, block, unblock, next-mode); changed: false when the move legitimately changed nothing (a repeated policy); cycle: the cycle's ID, or null before the first cycle.

before, after: the workflow state before and after the move.

fields: each STATE.md field the move changed, as {field, before, after}, in a fixed order (the head fields, Active Work, Handoff, Recovery, Outstanding Obligations): the protocol's name ("WorkflowState", "PendingCycleMode", "Active Work.Request", "Handoff.Reason", "Recovery.Active", "Recovery.Frame 1", "Outstanding Obligations.Obligation 1", "Active Work.BaselineReconciliation"); a value is the field's text, true/false for an `Active` flag, an entry's fields as an object (null when the entry did not exist before or no longer exists), "NONE" or [{SourceCycle, Request}] for the baseline list.

event: the ID of the audit event the move recorded (`git standards log --json` shows it), null when nothing was recorded (no change, or the append failed after the write, which a warning reports).

summary: the sentence also printed on stderr.

next: the next step when the text output prints one (the next role's invocation, the user's options), as `next` in STATUS JSON (`git standards status --help`); else null.

warnings: what the text output prints as `warning:` lines on stderr (a cycle started on the main branch or on a detached HEAD), else [].

A refusal prints {"ok": false, "error": "<message>", "hint": "<what to do>" or null} and exits 1 (2 for a usage error, 3 for an internal error); nothing was written."#;

#[derive(Debug, clap::Args)]
pub struct StartArgs {
    /// The user's request; optional when a blocked request is saved in `PendingCycleRequest`.
    #[arg(long, value_name = "request text", allow_hyphen_values = true, value_parser = text_value)]
    pub request: Option<String>,
    /// The cycle mode: standard, expedited or documentation (any case).
    #[arg(long, value_name = "mode", value_parser = mode_value)]
    pub mode: Option<CycleMode>,
    /// The completion policy of a STANDARD cycle: full-deliverable or implementation-reviewed.
    #[arg(long, value_name = "policy", value_parser = policy_value)]
    pub policy: Option<CompletionPolicy>,
    /// The user confirmed that the cancelled cycle left no project changes to reconcile.
    #[arg(long)]
    pub cancelled_left_no_changes: bool,
    /// Print one JSON object on stdout instead of the next step (keys: TRANSITION JSON below); a refusal prints `{"ok": false, "error", "hint"}`.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, clap::Args)]
pub struct HandoffArgs {
    /// The target workflow state, e.g. ARCHITECTING (any case).
    #[arg(long, value_name = "STATE", value_parser = state_value)]
    pub to: WorkflowState,
    /// A concise reason for `Handoff.Reason`.
    #[arg(long, value_name = "text", allow_hyphen_values = true, value_parser = text_value)]
    pub reason: String,
    /// A CHECKPOINT handoff of one increment (DEVELOPING <-> TESTING, INCREMENTAL cadence).
    #[arg(long)]
    pub checkpoint: bool,
    /// Print one JSON object on stdout instead of the next step (keys: TRANSITION JSON below); a refusal prints `{"ok": false, "error", "hint"}`.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, clap::Args)]
pub struct FailArgs {
    /// The failure type, e.g. ARCHITECTURE (any case).
    #[arg(long = "type", value_name = "FailureType", value_parser = failure_value)]
    pub failure: FailureType,
    /// The defect, concisely, for `Handoff.Reason` and the recovery frame.
    #[arg(long, value_name = "text", allow_hyphen_values = true, value_parser = text_value)]
    pub reason: String,
    /// The owning state when the type has two (REVIEW: REVIEWING_IMPLEMENTATION or REVIEWING_FINAL).
    #[arg(long, value_name = "STATE", value_parser = state_value)]
    pub to: Option<WorkflowState>,
    /// Print one JSON object on stdout instead of the next step (keys: TRANSITION JSON below); a refusal prints `{"ok": false, "error", "hint"}`.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, clap::Args)]
pub struct ReworkArgs {
    /// The failure type of the earliest invalidated work (any case).
    #[arg(long = "type", value_name = "FailureType", value_parser = failure_value)]
    pub failure: FailureType,
    /// The changed request, in full; replaces `Active Work.Request`.
    #[arg(long, value_name = "request text", allow_hyphen_values = true, value_parser = text_value)]
    pub request: String,
    /// The owning state when the type has two (REVIEW).
    #[arg(long, value_name = "STATE", value_parser = state_value)]
    pub to: Option<WorkflowState>,
    /// Print one JSON object on stdout instead of the next step (keys: TRANSITION JSON below); a refusal prints `{"ok": false, "error", "hint"}`.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, clap::Args)]
pub struct ResumeArgs {
    /// Keep the frame and rerun the affected states through this one.
    #[arg(long, value_name = "STATE", value_parser = state_value)]
    pub rerun_through: Option<WorkflowState>,
    /// The first rerun state, when it is not the owner's successor (needs --rerun-through).
    #[arg(long, value_name = "STATE", value_parser = state_value, requires = "rerun_through")]
    pub to: Option<WorkflowState>,
    /// The handoff reason (a default names the frame).
    #[arg(long, value_name = "text", allow_hyphen_values = true, value_parser = text_value)]
    pub reason: Option<String>,
    /// Print one JSON object on stdout instead of the next step (keys: TRANSITION JSON below); a refusal prints `{"ok": false, "error", "hint"}`.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, clap::Args)]
pub struct PromoteArgs {
    /// The standard guarantee now needed (kept in `PromotionReason`).
    #[arg(long, value_name = "text", allow_hyphen_values = true, value_parser = text_value)]
    pub reason: String,
    /// Print one JSON object on stdout instead of the next step (keys: TRANSITION JSON below); a refusal prints `{"ok": false, "error", "hint"}`.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, clap::Args)]
pub struct PolicyArgs {
    /// full-deliverable or implementation-reviewed (any case).
    #[arg(value_name = "policy", value_parser = policy_value)]
    pub policy: CompletionPolicy,
    /// The reason the user gave, recorded with the choice in `Active Work.Request`.
    #[arg(long, value_name = "text", allow_hyphen_values = true, value_parser = text_value)]
    pub reason: Option<String>,
    /// Print one JSON object on stdout instead of the next step (keys: TRANSITION JSON below); a refusal prints `{"ok": false, "error", "hint"}`.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, clap::Args)]
pub struct CadenceArgs {
    /// incremental or after-implementation (any case).
    #[arg(value_name = "cadence", value_parser = cadence_value)]
    pub cadence: Cadence,
    /// Print one JSON object on stdout instead of the next step (keys: TRANSITION JSON below); a refusal prints `{"ok": false, "error", "hint"}`.
    #[arg(long)]
    pub json: bool,
}

// The options of a transition command that takes no other (a plain comment:
// a doc comment would replace the subcommand's own description, since clap
// builds these arguments deferred).
#[derive(Debug, clap::Args)]
pub struct JsonArgs {
    /// Print one JSON object on stdout instead of the next step (keys: TRANSITION JSON below); a refusal prints `{"ok": false, "error", "hint"}`.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, clap::Args)]
pub struct CancelArgs {
    /// Run the greenfield reset the preview showed (only with the user's explicit approval).
    #[arg(long)]
    pub yes: bool,
    /// Print one JSON object on stdout instead of the next step (keys: TRANSITION JSON below); a refusal prints `{"ok": false, "error", "hint"}`.
    #[arg(long)]
    pub json: bool,
}

fn next_mode_value(s: &str) -> std::result::Result<CycleMode, String> {
    CycleMode::parse_loose(s).map_err(|e| e.to_string())
}

#[derive(Debug, clap::Args)]
pub struct NextModeArgs {
    /// standard, expedited, documentation, or unset to withdraw the preference (any case).
    #[arg(value_name = "mode", value_parser = next_mode_value)]
    pub mode: CycleMode,
    /// When a saved request starts: the user confirmed that the cancelled cycle left no project changes to reconcile.
    #[arg(long)]
    pub cancelled_left_no_changes: bool,
    /// Print one JSON object on stdout instead of the next step (keys: TRANSITION JSON below); a refusal prints `{"ok": false, "error", "hint"}`.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, clap::Args)]
pub struct BlockArgs {
    /// The exact question the user must answer.
    #[arg(long = "on", value_name = "question", allow_hyphen_values = true, value_parser = text_value)]
    pub question: String,
    /// Print one JSON object on stdout instead of the next step (keys: TRANSITION JSON below); a refusal prints `{"ok": false, "error", "hint"}`.
    #[arg(long)]
    pub json: bool,
}

/// The crash points of the transition commands (D22 tests iterate over them).
pub const FAILPOINTS: &[&str] = &["transition:before-write", "transition:after-write"];

fn refused(r: Refusal) -> Error {
    Error::refused(format!("refused: {r}"), r.hint)
}

/// Validates and records one move; prints the summary on stderr and the next
/// step on stdout, or with `json` one JSON object on stdout instead of the
/// next step (see [`outcome_json`]).
pub fn record(ctx: &mut Context, mv: Move, json: bool) -> Result<Transition> {
    record_with(ctx, mv, json, None)
}

/// What a move adds to its event once its own checks passed, under the
/// lock: more keys, or a refusal (the person-bound sign-off, issue 26).
pub type Binding<'a> = &'a dyn Fn(
    &crate::repo::Project,
    &dyn Tree,
    &StateDoc,
) -> Result<Vec<(String, serde_json::Value)>>;

/// [`record`], with `bind` consulted after the move's own checks.
pub fn record_with(
    ctx: &mut Context,
    mv: Move,
    json: bool,
    bind: Option<Binding>,
) -> Result<Transition> {
    // Issue 21: one writer at a time, from reading STATE.md to its rename.
    let (rt, _lock) = runtime::open_locked(&ctx.cwd, None, mv.command())?;
    // D22: no move while an interrupted multi-file write awaits `recover`.
    journal::refuse_if_pending(&rt.project)?;
    // D15: no move while `.standards/` is conflicted or a merge changes it.
    conflicts::refuse_during_conflict(ctx, &rt.project, mv.command())?;
    let doc = runtime::load_state(&rt.tree)?;
    let head = rt.project.head()?;
    let head_tree = head.as_ref().map(|h| h as &dyn Tree);
    let mv = match mv {
        Move::Start { request, .. } if !doc.has_active_cycle() => {
            let text = request
                .request
                .clone()
                .unwrap_or_else(|| doc.pending_cycle_request.value.clone());
            let id = cycle::new_id(
                &rt.tree,
                &cycle::NewRequest { request: text },
                chrono::Utc::now(),
                cycle::os_random,
            )?;
            Move::Start { request, id }
        }
        // A saved request may start once the new preference allows it.
        Move::NextMode {
            mode,
            cancelled_left_no_changes,
            ..
        } if !doc.has_active_cycle() && doc.pending_cycle_request.value != "UNSET" => {
            let id = cycle::new_id(
                &rt.tree,
                &cycle::NewRequest {
                    request: doc.pending_cycle_request.value.clone(),
                },
                chrono::Utc::now(),
                cycle::os_random,
            )?;
            Move::NextMode {
                mode,
                cancelled_left_no_changes,
                id,
            }
        }
        other => other,
    };
    let t = gated(&rt.tree, head_tree, &doc, &mv).map_err(refused)?;
    if !t.changed {
        writeln!(ctx.err, "{}", t.summary).map_err(|e| Error::io("<stderr>", e))?;
        if json {
            let value = outcome_json(mv.command(), &doc, &t, None, None);
            print_result(ctx.out, true, "", value)?;
        }
        return Ok(t);
    }
    let mut event = event_of(&doc, &t, &mv);
    if let Some(bind) = bind {
        for (key, value) in bind(&rt.project, &rt.tree, &doc)? {
            event = event.detail(key, value);
        }
    }
    // D20: the user's own decisions are evidenced first. Issue 21: the event
    // is a step of the move's journal, so the move lands with its event
    // (after a crash, through `recover`) or not at all: a move whose event
    // cannot be recorded is undone and refused, never reported done.
    let user_authority = t.kind.user_authority(t.before) || matches!(mv, Move::NextMode { .. });
    let cycle = event.cycle.clone();
    let (event_step, id) = audit::journalled(&rt.project, event);
    let state = Change::write(STATE_PATH, t.doc.render().as_bytes());
    let changes = if user_authority {
        vec![event_step, state]
    } else {
        vec![state, event_step]
    };
    failpoint::hit("transition:before-write");
    journal::write_all(
        &rt.project,
        mv.command(),
        changes,
        serde_json::json!({ "cycle": cycle, "move": t.kind.name() }),
    )?;
    failpoint::hit("transition:after-write");
    let event_id = Some(id);
    writeln!(ctx.err, "{}", t.summary).map_err(|e| Error::io("<stderr>", e))?;
    let mut step = next::next_step(&t.doc, &[]);
    if standards_core::setup::plugins::claude_plugin_in(&rt.tree) {
        step.with_claude_plugin();
    }
    let mut warnings = Vec::new();
    if matches!(
        t.kind,
        MoveKind::Start | MoveKind::Signoff | MoveKind::Cancel
    ) {
        // Issue 25, item 4: where HEAD stands decides the branch advice; a
        // branch that cannot be read (an invalid main-branch setting `check`
        // reports) gives none rather than hiding the recorded move.
        let branch = repo_config::head_branch(&rt.project).unwrap_or_default();
        if t.kind == MoveKind::Start {
            warnings.extend(next::start_warning(&branch));
        } else {
            let state = t.doc.render();
            let after = WithFile {
                base: &rt.tree,
                path: STATE_PATH,
                content: state.as_bytes(),
            };
            let ctx = BranchContext {
                branch,
                fresh: fresh::judge(&after).is_fresh(),
            };
            next::advise(&mut step, t.doc.has_active_cycle(), &ctx);
        }
    }
    for w in &warnings {
        writeln!(ctx.err, "warning: {w}").map_err(|e| Error::io("<stderr>", e))?;
    }
    let text = next_text(&t, &step);
    if json {
        let shown = (!text.is_empty()).then_some(&step);
        let mut value = outcome_json(mv.command(), &doc, &t, event_id, shown);
        value["warnings"] = serde_json::json!(warnings);
        print_result(ctx.out, true, "", value)?;
    } else {
        write!(ctx.out, "{text}").map_err(Error::stdout)?;
    }
    Ok(t)
}

/// The `--json` result of a transition command (its keys are documented in
/// the commands' help, `TRANSITION JSON`): `ok`, `command`, `move`,
/// `changed`, `cycle`, `before` and `after` (the workflow states), `fields`
/// (each changed STATE.md field with its values before and after), `event`
/// (the audit event's ID, `null` when nothing was recorded), `summary`,
/// `next` (the next step the text output prints, `null` when it prints none)
/// and `warnings` (what the text output prints as `warning:` on stderr).
pub fn outcome_json(
    command: &str,
    before: &StateDoc,
    t: &Transition,
    event: Option<String>,
    next: Option<&NextStep>,
) -> serde_json::Value {
    let cycle = t
        .doc
        .active_cycle_id()
        .or_else(|| before.active_cycle_id())
        .or_else(|| {
            (t.doc.active_work.id.value != "UNSET").then_some(&*t.doc.active_work.id.value)
        });
    serde_json::json!({
        "ok": true,
        "command": command,
        "move": t.kind.name(),
        "changed": t.changed,
        "cycle": cycle,
        "before": t.before.as_str(),
        "after": t.after.as_str(),
        "fields": changes::changed_fields(before, &t.doc),
        "event": event,
        "summary": t.summary,
        "next": next,
        "warnings": [],
    })
}

/// The audit event of a transition: its type, the cycle, the workflow state
/// before and after, and the handoff it recorded.
fn event_of(before: &StateDoc, t: &Transition, mv: &Move) -> Event {
    let kind = match t.kind {
        MoveKind::Start => EventKind::CycleStarted,
        // A start refused by the mode rules saves a blocked request.
        MoveKind::StartBlocked => EventKind::Blocked,
        MoveKind::Handoff | MoveKind::Checkpoint => EventKind::HandedOff,
        MoveKind::Fail => EventKind::Failed,
        MoveKind::Rework => EventKind::ReworkRequested,
        MoveKind::Resume => EventKind::Resumed,
        MoveKind::Promote => EventKind::Promoted,
        MoveKind::Policy => EventKind::PolicyChanged,
        MoveKind::Cadence => EventKind::CadenceChanged,
        MoveKind::Signoff => EventKind::SignedOff,
        MoveKind::Cancel => EventKind::Cancelled,
        MoveKind::Block => EventKind::Blocked,
        MoveKind::Unblock => EventKind::Unblocked,
        MoveKind::NextMode => EventKind::NextModeChosen,
    };
    let after = &t.doc;
    let h = &after.handoff;
    let mut event = Event::new(kind)
        .state_change(t.before.as_str(), t.after.as_str())
        .detail("command", mv.command())
        .detail("move", t.kind.name())
        .detail("summary", t.summary.clone());
    let cycle = after
        .active_cycle_id()
        .or_else(|| before.active_cycle_id())
        .map(str::to_string);
    if let Some(id) = cycle {
        event = event.cycle(id);
    }
    let b = &before.handoff;
    if (
        &h.kind.value,
        &h.from.value,
        &h.failure_type.value,
        &h.reason.value,
    ) != (
        &b.kind.value,
        &b.from.value,
        &b.failure_type.value,
        &b.reason.value,
    ) {
        event = event.detail(
            "handoff",
            serde_json::json!({
                "kind": h.kind.value,
                "from": h.from.value,
                "failure_type": h.failure_type.value,
                "reason": h.reason.value,
            }),
        );
    }
    event = match mv {
        Move::Start { .. } if t.kind == MoveKind::StartBlocked => event
            .detail("request", after.pending_cycle_request.value.clone())
            .detail("started", false)
            .detail("question", after.pending_cycle_blocked_on.value.clone()),
        Move::Start { .. } | Move::NextMode { .. } if t.kind == MoveKind::Start => {
            let event = event
                .detail("request", after.active_work.request.value.clone())
                .detail("mode", after.cycle_mode.value.as_str())
                .detail("policy", after.active_work.completion_policy.value.as_str())
                .detail("started", true);
            match mv {
                // The user's preference started the saved request: say so.
                Move::NextMode { mode, .. } => event.detail("next_mode", mode.as_str()),
                _ => event,
            }
        }
        Move::Start { .. } => event,
        Move::Handoff { to, .. } => event
            .detail("from", t.before.as_str())
            .detail("to", to.as_str()),
        Move::Fail {
            failure, reason, ..
        } => event
            .detail("failure_type", failure.as_str())
            .detail("reason", reason.clone()),
        Move::Rework {
            failure, request, ..
        } => event
            .detail("to", t.after.as_str())
            .detail("failure_type", failure.as_str())
            .detail("reason", request.clone()),
        Move::Resume { .. } => event.detail("resume_at", t.after.as_str()),
        Move::Promote { reason } => event
            .detail("from", before.cycle_mode.value.as_str())
            .detail("to", after.cycle_mode.value.as_str())
            .detail("reason", reason.clone()),
        Move::Policy { .. } => event
            .detail("from", before.active_work.completion_policy.value.as_str())
            .detail("to", after.active_work.completion_policy.value.as_str()),
        Move::Cadence(_) => event
            .detail(
                "from",
                before
                    .active_work
                    .pending_verification_cadence
                    .value
                    .as_str(),
            )
            .detail(
                "to",
                after
                    .active_work
                    .pending_verification_cadence
                    .value
                    .as_str(),
            ),
        Move::Cancel => event.detail("reason", "the user cancelled the cycle"),
        Move::Block { question } => event.detail("question", question.clone()),
        Move::Unblock => event.detail("answer", before.active_work.blocked_on.value.clone()),
        Move::Signoff => event,
        Move::NextMode { .. } => event
            .detail("from", before.pending_cycle_mode.value.as_str())
            .detail("to", after.pending_cycle_mode.value.as_str())
            .detail(
                "request_blocked",
                after.pending_cycle_blocked_on.value != "NONE",
            ),
    };
    event
}

/// Handoff Rules 7: the invocation after a move to a different role, the
/// user's options at sign-off readiness, the saved decision of a blocked start.
fn next_text(t: &Transition, step: &NextStep) -> String {
    if t.kind == MoveKind::StartBlocked {
        format!(
            "The user decides next: {}\n",
            t.doc.pending_cycle_blocked_on.value
        )
    } else if t.after == WorkflowState::AwaitingUserSignoff
        || (matches!(t.kind, MoveKind::Signoff | MoveKind::Cancel)
            && step.user_options.iter().any(|o| o.then.is_some()))
        || next::invocation_due(t.before.owner(), step)
        || (t.kind == MoveKind::Start && step.invocation.is_some())
    {
        next::render(step)
    } else {
        String::new()
    }
}

/// `start --request <text> [--mode <mode>] [--policy <policy>]`.
pub fn start(
    ctx: &mut Context,
    request: Option<String>,
    mode: Option<CycleMode>,
    policy: Option<CompletionPolicy>,
    cancelled_left_no_changes: bool,
    json: bool,
) -> Result<()> {
    let request = StartRequest {
        request,
        mode,
        policy,
        cancelled_left_no_changes,
    };
    record(
        ctx,
        Move::Start {
            request,
            id: String::new(),
        },
        json,
    )
    .map(drop)
}

/// `handoff --to <state> --reason <text> [--checkpoint]`.
pub fn handoff(
    ctx: &mut Context,
    to: WorkflowState,
    reason: String,
    checkpoint: bool,
    json: bool,
) -> Result<()> {
    record(
        ctx,
        Move::Handoff {
            to,
            reason,
            checkpoint,
        },
        json,
    )
    .map(drop)
}

/// `fail --type <FailureType> --reason <text> [--to <state>]`.
pub fn fail(
    ctx: &mut Context,
    failure: FailureType,
    reason: String,
    to: Option<WorkflowState>,
    json: bool,
) -> Result<()> {
    record(
        ctx,
        Move::Fail {
            failure,
            reason,
            to,
        },
        json,
    )
    .map(drop)
}

/// `rework --type <FailureType> --request <text> [--to <state>]`.
pub fn rework(
    ctx: &mut Context,
    failure: FailureType,
    request: String,
    to: Option<WorkflowState>,
    json: bool,
) -> Result<()> {
    record(
        ctx,
        Move::Rework {
            failure,
            request,
            to,
        },
        json,
    )
    .map(drop)
}

/// `resume [--rerun-through <state>] [--to <state>] [--reason <text>]`.
pub fn resume(
    ctx: &mut Context,
    rerun_through: Option<WorkflowState>,
    first: Option<WorkflowState>,
    reason: Option<String>,
    json: bool,
) -> Result<()> {
    record(
        ctx,
        Move::Resume {
            rerun_through,
            first,
            reason,
        },
        json,
    )
    .map(drop)
}

/// `promote --reason <text>`.
pub fn promote(ctx: &mut Context, reason: String, json: bool) -> Result<()> {
    record(ctx, Move::Promote { reason }, json).map(drop)
}

/// `policy <policy> [--reason <text>]`.
pub fn policy(
    ctx: &mut Context,
    policy: CompletionPolicy,
    reason: Option<String>,
    json: bool,
) -> Result<()> {
    record(ctx, Move::Policy { policy, reason }, json).map(drop)
}

/// `cadence <cadence>`.
pub fn cadence(ctx: &mut Context, cadence: Cadence, json: bool) -> Result<()> {
    record(ctx, Move::Cadence(cadence), json).map(drop)
}

/// `signoff`.
pub fn signoff(ctx: &mut Context, json: bool) -> Result<()> {
    record(ctx, Move::Signoff, json).map(drop)
}

/// `cancel [--yes]`. In a BROWNFIELD project the retained `CANCELLED`
/// state; in a GREENFIELD project Greenfield Bootstrap Cancellation: the
/// workflow reset `git standards reset --mode greenfield`, previewed without
/// `--yes` (nothing changes) and run with it, its audit event written first.
/// With `json` the reset's own report goes to stderr and stdout carries the
/// JSON result alone.
pub fn cancel(ctx: &mut Context, yes: bool, json: bool) -> Result<()> {
    let (rt, _lock) = runtime::open_locked(&ctx.cwd, None, "cancel")?;
    journal::refuse_if_pending(&rt.project)?;
    conflicts::refuse_during_conflict(ctx, &rt.project, "cancel")?;
    let doc = runtime::load_state(&rt.tree)?;
    let greenfield = matches!(
        rt.tree.text(MODE_PATH),
        Text::Ok(text) if mode::parse(&text) == Ok(ProjectMode::Greenfield)
    );
    if !(greenfield && doc.has_active_cycle()) {
        return record(ctx, Move::Cancel, json).map(drop);
    }
    let request = reset::Request {
        mode: Some(ProjectMode::Greenfield),
        dry_run: !yes,
        yes,
        commit: false,
    };
    let w = |e: std::io::Error| Error::io("<stderr>", e);
    if !yes {
        writeln!(
            ctx.err,
            "Cancelling while the project is GREENFIELD resets the workflow (Greenfield Bootstrap Cancellation): the reset deletes the saved workflow state, the Auditor's project context and every cycle record under `.standards/docs/` (archived first); user styles and any installed client integration stay. The reset it would run:"
        )
        .map_err(w)?;
        run_reset(ctx, &request, json)?;
        return Err(Error::refused(
            format!(
                "the cycle `{}` was not cancelled: the reset needs the user's explicit approval of the preview above",
                doc.active_work.id.value
            ),
            Some("with that approval run `git standards cancel --yes`, which runs the reset previewed above; if the cycle created implementation, the Developer first records MODE.md as BROWNFIELD and the cancellation keeps the cycle as CANCELLED".to_string()),
        ));
    }
    let event = Event::new(EventKind::Cancelled)
        .cycle(doc.active_work.id.value.clone())
        .state_change(doc.workflow_state.value.as_str(), "SCOPING")
        .detail("command", "cancel")
        .detail("reason", "the user cancelled the greenfield cycle")
        .detail("via", "git standards reset --mode greenfield --yes");
    let event_id = audit::append_before(ctx, &rt.project, event)?;
    run_reset(ctx, &request, json)?;
    if json {
        let after = runtime::load_state(&runtime::open(&ctx.cwd)?.tree)?;
        let t = Transition {
            kind: MoveKind::Cancel,
            before: doc.workflow_state.value,
            after: after.workflow_state.value,
            changed: true,
            summary: format!(
                "Cancelled the cycle `{}`: the greenfield workflow was reset.",
                doc.active_work.id.value
            ),
            doc: after,
        };
        let value = outcome_json("cancel", &doc, &t, Some(event_id), None);
        print_result(ctx.out, true, "", value)?;
    }
    Ok(())
}

/// The greenfield reset of `cancel`; with `json` its report goes to stderr.
fn run_reset(ctx: &mut Context, request: &reset::Request, json: bool) -> Result<()> {
    if !json {
        return reset::run(ctx, request);
    }
    let mut report = Vec::new();
    let result = {
        let mut inner = Context {
            cwd: ctx.cwd.clone(),
            out: &mut report,
            err: &mut *ctx.err,
            color: false,
        };
        reset::run(&mut inner, request)
    };
    ctx.err
        .write_all(&report)
        .map_err(|e| Error::io("<stderr>", e))?;
    result
}

/// `next-mode <mode> [--cancelled-left-no-changes]`.
pub fn next_mode(
    ctx: &mut Context,
    mode: CycleMode,
    cancelled_left_no_changes: bool,
    json: bool,
) -> Result<()> {
    let mv = Move::NextMode {
        mode,
        cancelled_left_no_changes,
        id: String::new(),
    };
    record(ctx, mv, json).map(drop)
}

/// `block --on <question>`.
pub fn block(ctx: &mut Context, question: String, json: bool) -> Result<()> {
    record(ctx, Move::Block { question }, json).map(drop)
}

/// `unblock`.
pub fn unblock(ctx: &mut Context, json: bool) -> Result<()> {
    record(ctx, Move::Unblock, json).map(drop)
}
