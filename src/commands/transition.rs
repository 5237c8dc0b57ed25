//! The transition commands (`start`, `handoff`, `fail`, `rework`, `resume`,
//! `promote`, `policy`, `cadence`, `signoff`, `cancel`, `block`, `unblock`):
//! each builds a [`Move`], and [`record`] validates it against the whole
//! project with [`transition::gated`], writes STATE.md atomically and prints
//! what comes next. The rules live in `protocol::transition`.

use crate::commands::{cycle, runtime, Context};
use crate::error::{Error, Result};
use crate::protocol::layout::STATE_PATH;
use crate::protocol::next::{self, NextStep};
use crate::protocol::plan::Cadence;
use crate::protocol::transition::{self, Move, MoveKind, Refusal, StartRequest, Transition};
use crate::protocol::tree::Tree;
use crate::protocol::vocab::{CompletionPolicy, CycleMode, FailureType, WorkflowState};
use crate::repo::{failpoint, write};

/// The crash points of the transition commands (D22 tests iterate over them).
pub const FAILPOINTS: &[&str] = &["transition:before-write", "transition:after-write"];

fn refused(r: Refusal) -> Error {
    Error::refused(format!("refused: {r}"), r.hint)
}

/// Validates and records one move; prints the summary on stderr and the next
/// step on stdout.
pub fn record(ctx: &mut Context, mv: Move) -> Result<Transition> {
    let rt = runtime::open(&ctx.cwd)?;
    // D15: refuses while anything under `.standards/` is conflicted.
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
        other => other,
    };
    let t = transition::gated(&rt.tree, head_tree, &doc, &mv).map_err(refused)?;
    if !t.changed {
        writeln!(ctx.err, "{}", t.summary).map_err(|e| Error::io("<stderr>", e))?;
        return Ok(t);
    }
    failpoint::hit("transition:before-write");
    write::atomic_write(
        &rt.root,
        STATE_PATH,
        t.doc.render().as_bytes(),
        write::Existing::Replace,
    )?;
    failpoint::hit("transition:after-write");
    writeln!(ctx.err, "{}", t.summary).map_err(|e| Error::io("<stderr>", e))?;
    let step = next::next_step(&t.doc, &[]);
    print_next(ctx, &t, &step)?;
    Ok(t)
}

/// Handoff Rules 7: the invocation after a move to a different role, the
/// user's options at sign-off readiness, the saved decision of a blocked start.
fn print_next(ctx: &mut Context, t: &Transition, step: &NextStep) -> Result<()> {
    let text = if t.kind == MoveKind::StartBlocked {
        format!(
            "The user decides next: {}\n",
            t.doc.pending_cycle_blocked_on.value
        )
    } else if t.after == WorkflowState::AwaitingUserSignoff
        || next::invocation_due(t.before.owner(), step)
        || (t.kind == MoveKind::Start && step.invocation.is_some())
    {
        next::render(step)
    } else {
        String::new()
    };
    write!(ctx.out, "{text}").map_err(Error::stdout)
}

/// `start --request <text> [--mode <mode>] [--policy <policy>]`.
pub fn start(
    ctx: &mut Context,
    request: Option<String>,
    mode: Option<CycleMode>,
    policy: Option<CompletionPolicy>,
    cancelled_left_no_changes: bool,
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
    )
    .map(drop)
}

/// `handoff --to <state> --reason <text> [--checkpoint]`.
pub fn handoff(
    ctx: &mut Context,
    to: WorkflowState,
    reason: String,
    checkpoint: bool,
) -> Result<()> {
    record(
        ctx,
        Move::Handoff {
            to,
            reason,
            checkpoint,
        },
    )
    .map(drop)
}

/// `fail --type <FailureType> --reason <text> [--to <state>]`.
pub fn fail(
    ctx: &mut Context,
    failure: FailureType,
    reason: String,
    to: Option<WorkflowState>,
) -> Result<()> {
    record(
        ctx,
        Move::Fail {
            failure,
            reason,
            to,
        },
    )
    .map(drop)
}

/// `rework --type <FailureType> --request <text> [--to <state>]`.
pub fn rework(
    ctx: &mut Context,
    failure: FailureType,
    request: String,
    to: Option<WorkflowState>,
) -> Result<()> {
    record(
        ctx,
        Move::Rework {
            failure,
            request,
            to,
        },
    )
    .map(drop)
}

/// `resume [--rerun-through <state>] [--to <state>] [--reason <text>]`.
pub fn resume(
    ctx: &mut Context,
    rerun_through: Option<WorkflowState>,
    first: Option<WorkflowState>,
    reason: Option<String>,
) -> Result<()> {
    record(
        ctx,
        Move::Resume {
            rerun_through,
            first,
            reason,
        },
    )
    .map(drop)
}

/// `promote --reason <text>`.
pub fn promote(ctx: &mut Context, reason: String) -> Result<()> {
    record(ctx, Move::Promote { reason }).map(drop)
}

/// `policy <policy> [--reason <text>]`.
pub fn policy(ctx: &mut Context, policy: CompletionPolicy, reason: Option<String>) -> Result<()> {
    record(ctx, Move::Policy { policy, reason }).map(drop)
}

/// `cadence <cadence>`.
pub fn cadence(ctx: &mut Context, cadence: Cadence) -> Result<()> {
    record(ctx, Move::Cadence(cadence)).map(drop)
}

/// `signoff`.
pub fn signoff(ctx: &mut Context) -> Result<()> {
    record(ctx, Move::Signoff).map(drop)
}

/// `cancel`.
pub fn cancel(ctx: &mut Context) -> Result<()> {
    record(ctx, Move::Cancel).map(drop)
}

/// `block --on <question>`.
pub fn block(ctx: &mut Context, question: String) -> Result<()> {
    record(ctx, Move::Block { question }).map(drop)
}

/// `unblock`.
pub fn unblock(ctx: &mut Context) -> Result<()> {
    record(ctx, Move::Unblock).map(drop)
}
