//! `git standards recover`: finishes an operation that was interrupted (killed,
//! power loss) after it began writing, from the journal it left (D22).

use crate::commands::Context;
use crate::error::{Error, Result};
use crate::repo::journal::{self, Direction};
use crate::repo::{trail, Project};
use crate::support::audit;
use standards_core::audit::{Event, EventKind};

#[derive(Debug, clap::Args)]
pub struct RecoverArgs {
    /// Undo the interrupted operation instead of completing it.
    #[arg(long)]
    pub rollback: bool,
    /// Print one JSON object on stdout instead of the outcome word: {"ok": true, "command": "recover", "outcome": completed|rolled-back|nothing, "operation" (null when nothing), "started", "applied", "steps"}; a refusal prints {"ok": false, "error", "hint"}.
    #[arg(long)]
    pub json: bool,
}

/// A validated recover request.
#[derive(Debug, Clone, Default)]
pub struct Request {
    /// Undo the interrupted operation instead of completing it.
    pub rollback: bool,
    /// Print one JSON object on stdout instead of the one-word outcome.
    pub json: bool,
}

/// The failpoints `recover` passes (see [`journal::RECOVER_POINTS`]).
pub const FAILPOINTS: &[&str] = journal::RECOVER_POINTS;

/// Runs `recover`.
pub fn run(ctx: &mut Context, request: &Request) -> Result<()> {
    let project = Project::discover(&ctx.cwd)?;
    let w = |e: std::io::Error| Error::io("<stderr>", e);
    // An audit append killed while it held the notes ref's lock left it
    // behind; that writer is dead once its OS lock is free (D20).
    let (writer, stale) = trail::writer_lock(&project)?;
    if let Some(stale) = stale {
        writeln!(ctx.err, "{stale}").map_err(w)?;
    } else if let Some((path, age)) = trail::abandoned_ref_lock(&project) {
        // Issue 21: a ref lock no writer of ours holds, older than any live
        // git's, was left by a process that is gone (every append refuses).
        match std::fs::remove_file(&path) {
            Ok(()) => writeln!(
                ctx.err,
                "Removed `{}`: it was left {} s ago by a process that is gone; no git standards writer held it (every event is kept).",
                path.display(),
                age.as_secs()
            )
            .map_err(w)?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(Error::io(&path, e)),
        }
    }
    drop(writer);
    match journal::recover(&project, request.rollback)? {
        None => {
            writeln!(
                ctx.err,
                "Nothing to recover: no interrupted STANDARDS operation in {}.",
                project.root().display()
            )
            .map_err(w)?;
            if request.json {
                let value = serde_json::json!({
                    "ok": true,
                    "command": "recover",
                    "outcome": "nothing",
                    "operation": null,
                });
                super::print_result(ctx.out, true, "", value)?;
            }
        }
        Some(done) => {
            let p = &done.pending;
            let what = match done.direction {
                Direction::Completed => "Completed",
                Direction::RolledBack => "Rolled back",
            };
            writeln!(
                ctx.err,
                "{what} the interrupted `git standards {}` (started {}; {} of {} steps had been applied).",
                p.operation, p.started, p.applied, p.steps
            )
            .map_err(w)?;
            let outcome = match done.direction {
                Direction::Completed => "completed",
                Direction::RolledBack => "rolled-back",
            };
            if !request.json {
                writeln!(ctx.out, "{outcome}").map_err(Error::stdout)?;
            }
            let mut event = Event::new(EventKind::Recovered)
                .detail("operation", p.operation.clone())
                .detail("outcome", outcome)
                .detail("started", p.started.clone())
                .detail("applied", p.applied)
                .detail("steps", p.steps)
                .detail("journal", p.detail.clone());
            if let Some(c) = p.detail.get("cycle").and_then(|c| c.as_str()) {
                event = event.cycle(c);
            }
            // Issue 21: never exit 0 having dropped the event.
            let what = match done.direction {
                Direction::Completed => "completed",
                Direction::RolledBack => "rolled back",
            };
            audit::append_or_fail(
                ctx,
                &project,
                event,
                &format!("the interrupted `git standards {}` was {what}", p.operation),
            )?;
            let value = serde_json::json!({
                "ok": true,
                "command": "recover",
                "outcome": outcome,
                "operation": p.operation,
                "started": p.started,
                "applied": p.applied,
                "steps": p.steps,
            });
            if request.json {
                super::print_result(ctx.out, true, "", value)?;
            }
        }
    }
    Ok(())
}
