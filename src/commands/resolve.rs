//! `git standards resolve --keep ours|theirs [--yes]`: the user's explicit
//! decision on a STATE.md conflict (issue 10 point 4).
//!
//! It writes the chosen side's whole STATE.md, stages it, and leaves every
//! record of both cycles where it is: the cycle not kept simply stops being
//! tracked. The `conflict-resolved` event is the evidence of the user's
//! decision, so it is the first step of the resolution's journal (D20, issue
//! 21): written before STATE.md and the index, and exactly once after a
//! crash and `git standards recover`.

use std::io::BufRead;

use crate::commands::Context;
use crate::error::{Error, Result};
use crate::repo::conflicts::{self, ConflictState};
use crate::repo::failpoint;
use crate::repo::journal::{self, Change};
use crate::support::{audit, runtime};
use clap::ValueEnum;
use standards_core::audit::{Event, EventKind};
use standards_core::model::layout::{STANDARDS_DIR, STATE_PATH};
use standards_core::model::state::StateDoc;
use standards_core::model::tree::{Text, Tree};
use standards_core::workflow::conflicts::{has_markers, sides_from_markers, Conflict};
use standards_core::workflow::state_merge::SideSummary;

#[derive(Debug, clap::Args)]
pub struct ResolveArgs {
    /// The side whose STATE.md is kept.
    #[arg(long, value_enum, ignore_case = true, value_name = "ours|theirs")]
    pub keep: KeepArg,
    /// Confirm the decision without asking (required outside a terminal).
    #[arg(long)]
    pub yes: bool,
    /// Print one JSON object on stdout instead of the report, and never ask (a resolution needs --yes): {"ok": true, "command": "resolve", "keep", "kept" and "dropped" (the cycle IDs, or null), "records" (the dropped cycle's records), "staged", "lines" (the text report)}; a refusal prints {"ok": false, "error", "hint"}.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum KeepArg {
    Ours,
    Theirs,
}

/// Every crash point of `resolve`, in order (see `repo::failpoint`): before
/// its journal, the journal's own (the event, STATE.md and the index are its
/// steps: arm the `n`-th step with `resolve:step-applied@<n>`), and after it.
pub const FAILPOINTS: &[&str] = &[
    "resolve:before-write",
    "resolve:journal-staged",
    "resolve:journal-begun",
    "resolve:step-applied",
    "resolve:step-recorded",
    "resolve:journal-closing",
    "resolve:before-stage",
];

/// Which side the user keeps, in git's terms: stage 2 ("ours") or 3 ("theirs").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keep {
    Ours,
    Theirs,
}

impl Keep {
    pub fn name(self) -> &'static str {
        match self {
            Keep::Ours => "ours",
            Keep::Theirs => "theirs",
        }
    }

    fn other(self) -> Keep {
        match self {
            Keep::Ours => Keep::Theirs,
            Keep::Theirs => Keep::Ours,
        }
    }
}

#[derive(Debug, Clone)]
pub struct Request {
    pub keep: Keep,
    /// The user confirmed on the command line.
    pub yes: bool,
    /// Print one JSON object on stdout instead of the report (never asks).
    pub json: bool,
}

/// Runs `resolve`. `terminal` is the user's terminal to ask for confirmation
/// (`None` when standard input or error is not a terminal: then `--yes` is required).
pub fn run(ctx: &mut Context, request: &Request, terminal: Option<&mut dyn BufRead>) -> Result<()> {
    // With --json a command never prompts (issue 25).
    let terminal = terminal.filter(|_| !request.json);
    let (rt, _lock) = runtime::open_locked(&ctx.cwd, None, "resolve")?;
    let project = &rt.project;
    crate::repo::journal::refuse_if_pending(project)?;
    let state = conflicts::detect(project)?;
    let decision = decide(&state, &rt.tree, request.keep)?;
    let labels = state.side_labels();
    let (kept_label, dropped_label) = match request.keep {
        Keep::Ours => labels,
        Keep::Theirs => (labels.1, labels.0),
    };
    let kept = decision.kept.label();
    let dropped = decision.dropped.as_ref().map(SideSummary::label);
    // What the confirmation says about the side not kept.
    let dropped_note = match &decision.dropped {
        Some(d) if d.cycle.is_some() && d.cycle != decision.kept.cycle => {
            format!(", and {} stops being tracked", d.label())
        }
        Some(d) if d.cycle.is_some() => format!(
            ", and the other version of the same cycle's state ({}) is set aside",
            d.workflow_state.as_deref().unwrap_or("no WorkflowState")
        ),
        _ => String::new(),
    };

    if !request.yes {
        let command = format!("git standards resolve --keep {} --yes", request.keep.name());
        let Some(terminal) = terminal else {
            return Err(Error::refused(
                format!(
                    "refusing to resolve without the user's confirmation: keeping {kept_label} means STATE.md tracks {kept}{dropped_note}"
                ),
                Some(format!("this is the user's decision; to confirm it outside a terminal, run `{command}`")),
            ));
        };
        let question = format!(
            "Keep {kept_label}: STATE.md will track {kept}{dropped_note}. Every record stays in place. Continue? [y/N] "
        );
        if !crate::support::confirm::ask(ctx.err, terminal, &question)? {
            return Err(Error::refused(
                "not resolved: the user did not confirm; nothing was changed",
                Some(format!("run `{command}` once the user has decided")),
            ));
        }
    }

    // D20: the user's decision is the evidence; recorded before any write.
    let mut event = Event::new(EventKind::ConflictResolved)
        .detail("path", STATE_PATH)
        .detail("choice", request.keep.name())
        .detail("kept", decision.kept.cycle.clone())
        .detail(
            "dropped",
            decision.dropped.as_ref().and_then(|d| d.cycle.clone()),
        )
        .detail(
            "operation",
            state.in_progress.as_ref().map(|p| p.operation.slug()),
        );
    if let Some(id) = &decision.kept.cycle {
        event = event.cycle(id.as_str());
    }
    // Issue 21: the event is the first step of the resolution's journal
    // (user authority: D20's exception), STATE.md and the index follow, so
    // the resolution lands with exactly one event (after a crash, through
    // `recover`) or not at all; an event that cannot be recorded refuses it.
    // Another git command holding the index (or a killed one's lock): the
    // index is not replaced under it; the decision and STATE.md land, and
    // the user stages the file once git is done (as `git add` would).
    failpoint::hit("resolve:before-write");
    let locked = conflicts::index_lock(project);
    let mut changes = vec![
        audit::journalled(project, event).0,
        Change::write(STATE_PATH, decision.content.clone()),
    ];
    if locked.is_none() {
        changes.push(Change::WriteGitFile {
            name: "index".into(),
            content: conflicts::resolved_index(project, STATE_PATH, &decision.content)?,
        });
    }
    journal::write_all(
        project,
        "resolve",
        changes,
        serde_json::json!({ "choice": request.keep.name() }),
    )?;
    if let Some(lock) = locked {
        return Err(conflicts::index_refusal(
            project,
            STATE_PATH,
            &format!(
                "`{}` exists: another git command is changing the index, or a killed one left its lock",
                lock.display()
            ),
        ));
    }
    failpoint::hit("resolve:before-stage");
    // The index entry was made before the file was written: re-stage it so
    // git need not re-read the file (best effort: the content is already staged).
    let _ = conflicts::stage_resolved(project, STATE_PATH, &decision.content);

    let records = decision
        .dropped
        .as_ref()
        .and_then(|d| d.cycle.as_deref())
        .map(|id| records_of(&rt.tree, id))
        .unwrap_or_default();
    let mut lines: Vec<String> = Vec::new();
    let mut say = |_: &mut Context, line: String| -> Result<()> {
        lines.push(line);
        Ok(())
    };
    say(
        ctx,
        format!("Kept {kept_label}: `{STATE_PATH}` now tracks {kept} and is staged."),
    )?;
    match (&decision.dropped, dropped) {
        (None, _) => say(ctx, format!("{} had deleted `{STATE_PATH}`.", capitalized(dropped_label)))?,
        (Some(d), _) if d.cycle.is_some() && d.cycle == decision.kept.cycle => say(
            ctx,
            format!(
                "Both sides track the same cycle; the version from {dropped_label} ({}) was set aside.",
                d.workflow_state.as_deref().unwrap_or("no WorkflowState")
            ),
        )?,
        (Some(d), Some(label)) if d.cycle.is_some() => {
            say(
                ctx,
                format!(
                    "{}, from {dropped_label}, stopped being tracked; its records stay in place:",
                    capitalized(&label)
                ),
            )?;
            if records.is_empty() {
                say(
                    ctx,
                    format!("  (no record under `{STANDARDS_DIR}/docs/` names it)"),
                )?;
            }
            for r in &records {
                say(ctx, format!("  {r}"))?;
            }
        }
        _ => say(
            ctx,
            format!("{dropped_label} tracked no cycle, so no cycle stopped being tracked."),
        )?,
    }
    if let Some(p) = &state.in_progress {
        say(
            ctx,
            format!(
                "Finish {} with {}.",
                p.operation.name(),
                p.operation.finish_hint()
            ),
        )?;
    }
    let value = serde_json::json!({
        "ok": true,
        "command": "resolve",
        "keep": request.keep.name(),
        "kept": decision.kept.cycle,
        "dropped": decision.dropped.as_ref().and_then(|d| d.cycle.clone()),
        "records": records,
        "staged": true,
        "lines": lines,
    });
    super::print_result(ctx.out, request.json, &lines.join("\n"), value)
}

fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(first) => first.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// What the user chose, ready to write.
pub struct Decision {
    pub content: Vec<u8>,
    pub kept: SideSummary,
    /// The side not kept (`None` when it deleted STATE.md).
    pub dropped: Option<SideSummary>,
}

/// Checks that exactly STATE.md is in conflict and picks the chosen side's
/// whole version: from its index stage, else rebuilt from the markers.
fn decide(state: &ConflictState, tree: &dyn Tree, keep: Keep) -> Result<Decision> {
    let others: Vec<&Conflict> = state
        .conflicts
        .iter()
        .filter(|c| c.path != STATE_PATH)
        .collect();
    if !others.is_empty() {
        let list = others
            .iter()
            .map(|c| format!("`{}`", c.path))
            .collect::<Vec<_>>()
            .join(", ");
        return Err(Error::refused(
            format!("refusing to resolve STATE.md while other `.standards/` files still hold conflicts: {list}"),
            Some("resolve those files first (edit them, then `git add` them), then run `git standards resolve` again".to_string()),
        ));
    }
    let Some(conflict) = state.conflicts.iter().find(|c| c.path == STATE_PATH) else {
        return Err(Error::refused(
            format!("`{STATE_PATH}` has no merge conflict to resolve"),
            Some("`git standards status` shows the workflow state".to_string()),
        ));
    };
    let side_bytes = |k: Keep| -> Option<Vec<u8>> {
        if conflict.unmerged {
            if let Some(stages) = tree.stages(STATE_PATH) {
                return match k {
                    Keep::Ours => stages.ours,
                    Keep::Theirs => stages.theirs,
                };
            }
        }
        match tree.text(STATE_PATH) {
            Text::Ok(text) => sides_from_markers(&text).map(|(o, t)| match k {
                Keep::Ours => o.into_bytes(),
                Keep::Theirs => t.into_bytes(),
            }),
            _ => None,
        }
    };
    // Nothing the user wrote is lost: a STATE.md already edited by hand out
    // of its conflict (no markers, neither side) is the user's resolution.
    if let Text::Ok(now) = tree.text(STATE_PATH) {
        let is_side = |k: Keep| side_bytes(k).is_some_and(|b| b == now.as_bytes());
        if !has_markers(&now) && !is_side(Keep::Ours) && !is_side(Keep::Theirs) {
            return Err(Error::refused(
                format!("refusing to overwrite `{STATE_PATH}`: it holds no conflict markers and matches neither side, so it looks resolved by hand"),
                Some(format!("if that is the resolution, `git add {STATE_PATH}`; to start over from git's conflict, `git checkout -m {STATE_PATH}`")),
            ));
        }
    }
    let Some(content) = side_bytes(keep) else {
        return Err(Error::refused(
            format!("{} has no version of `{STATE_PATH}` to keep (that side deleted it, or the conflict markers cannot be read)", keep.name()),
            Some("resolve STATE.md by hand so it describes exactly one cycle, then `git add` it".to_string()),
        ));
    };
    let text = String::from_utf8(content.clone()).map_err(|_| {
        Error::refused(
            format!(
                "{}'s `{STATE_PATH}` is not UTF-8 text, so it cannot be kept",
                keep.name()
            ),
            Some("resolve STATE.md by hand, then `git add` it".to_string()),
        )
    })?;
    if let Err(e) = StateDoc::parse(&text) {
        return Err(Error::refused(
            format!("{}'s `{STATE_PATH}` is not a valid STATE.md ({}: line {}: {}), so keeping it would leave a broken workflow", keep.name(), e.rule, e.line, e.message),
            Some("resolve STATE.md by hand so it describes exactly one cycle, then `git add` it".to_string()),
        ));
    }
    Ok(Decision {
        kept: SideSummary::read(&content),
        dropped: side_bytes(keep.other()).map(|b| SideSummary::read(&b)),
        content,
    })
}

/// The records under `.standards/docs/` that belong to cycle `id` (named
/// after it, as `artifact init` names them, or carrying it as `Cycle`).
fn records_of(tree: &dyn Tree, id: &str) -> Vec<String> {
    let prefix = format!("{STANDARDS_DIR}/docs/");
    tree.markdown_files()
        .into_iter()
        .filter(|p| p.starts_with(&prefix))
        .filter(|p| {
            p.contains(id)
                || matches!(tree.text(p), Text::Ok(t) if t.contains(&format!("`Cycle`: `{id}`")))
        })
        .collect()
}
