//! The agent clients' hooks beyond the stop hook (issue 26): `git standards
//! hook session-start`, `hook edit-guard` and `hook prompt-submit`. Each maps
//! to an existing command, has a time budget (the `timeout` registered with
//! the client, [`standards_core::setup::agent_hooks`]) and fails safe:
//!
//! - **session-start** (`status`): prints the workflow state as the
//!   client's `additionalContext`. It cannot block anything; when it fails it
//!   says so on stderr and exits 1, a non-blocking error: the session starts
//!   without the context, as it would without the hook.
//! - **edit-guard** (the transition commands): denies an Edit/Write/MultiEdit
//!   or `apply_patch` call, or a shell (`Bash`) command whose redirections,
//!   in-place editors, copy targets or `git checkout`/`restore` paths name
//!   it ([`standards_core::setup::shell_writes`]), that would write a
//!   project's `.standards/STATE.md`,
//!   naming the command to use, with the documented `permissionDecision`
//!   `deny`; it allows it while STATE.md has an unresolved merge conflict
//!   (hand edits resolve conflicts). Blocking is its point, but only when it
//!   positively found such a target: when it cannot decide (an unreadable
//!   payload, no project) it fails open (exit 1, non-blocking), because a
//!   broken guard must not stop every edit of every session, and `check` and
//!   the stop hook still catch a hand edit of STATE.md.
//! - **prompt-submit** (`log`'s trail): records a `human-turn` event through
//!   the journal under the workflow lock. It never blocks or changes the
//!   prompt (exit 2 would erase it): on any failure it warns on stderr and
//!   exits 1, and the prompt goes on.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::Value;

use crate::commands::hook::{self, CONFLICT_GUIDANCE};
use crate::commands::status::{self, Source};
use crate::commands::Context;
use crate::error::{Error, Result};
use crate::repo::conflicts as repo_conflicts;
use crate::repo::journal;
use crate::repo::Project;
use crate::support::audit;
use standards_core::audit::{Event, EventKind};
use standards_core::invocation::Client;
use standards_core::model::layout::{MARKER, STATE_PATH};
use standards_core::model::tree::{Text, Tree};
use standards_core::setup::agent_hooks as ah;
use standards_core::workflow::conflicts::has_markers;

/// How long the prompt hook waits for the workflow lock: well inside its
/// registered budget, so it answers its client itself.
pub const PROMPT_LOCK_WAIT: Duration = Duration::from_secs(4);
/// The prompt text kept in a `human-turn` event (with
/// `standards.recordPrompts`) is cut at this many characters.
pub const MAX_PROMPT_CHARS: usize = 4000;

/// Reads the payload (bounded like the stop hook's) and checks it is a JSON
/// object when a client is named.
fn payload(input: &mut dyn Read, client: Option<Client>) -> Result<Value> {
    let mut bytes = Vec::new();
    input
        .take(hook::MAX_PAYLOAD_BYTES as u64)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io("<stdin>", e))?;
    match serde_json::from_slice::<Value>(&bytes) {
        Ok(v @ Value::Object(_)) => Ok(v),
        _ if client.is_some() => Err(Error::usage(
            "the payload on standard input is not a JSON object",
        )),
        _ => Ok(Value::Object(Default::default())),
    }
}

/// The folder the client says the session is in (`cwd`), else ours.
fn session_dir(ctx: &Context, p: &Value) -> PathBuf {
    p.get("cwd")
        .and_then(Value::as_str)
        .map(PathBuf::from)
        .filter(|d| d.is_absolute() && d.is_dir())
        .unwrap_or_else(|| ctx.cwd.clone())
}

/// A hook's own failure: a message on stderr and exit 1, which both clients
/// treat as a non-blocking error.
fn fail_open(ctx: &mut Context, e: Error) -> Result<()> {
    let _ = writeln!(ctx.err, "STANDARDS hook error: {e}");
    Err(Error::Exit { code: 1 })
}

fn print_json(ctx: &mut Context, v: &Value) -> Result<()> {
    writeln!(ctx.out, "{v}").map_err(Error::stdout)
}

/// The installed project at `dir`, or `None` when there is none (the hook
/// then has nothing to say).
fn installed_project(dir: &Path) -> Result<Option<Project>> {
    let mut project = match Project::discover(dir) {
        Ok(p) => p,
        Err(Error::NotARepository { .. }) => return Ok(None),
        Err(e) => return Err(e),
    };
    project.trust_index_checksum();
    if project.require_workdir().is_err() {
        return Ok(None);
    }
    let tree = project.worktree()?;
    let installed = matches!(tree.text(standards_core::model::layout::PROTOCOL_PATH), Text::Ok(t) if t.contains(MARKER));
    Ok(installed.then_some(project))
}

/// Whether `.standards/STATE.md` is in an unresolved merge conflict: an
/// unmerged index entry or conflict markers in the file.
fn state_conflicted(tree: &dyn Tree) -> bool {
    tree.unmerged().iter().any(|p| p == STATE_PATH)
        || matches!(tree.text(STATE_PATH), Text::Ok(t) if has_markers(&t))
}

// ---------------------------------------------------------------------------

/// `git standards hook session-start`.
pub fn run_session_start(
    ctx: &mut Context,
    input: &mut dyn Read,
    client: Option<Client>,
) -> Result<()> {
    let outcome = payload(input, client).and_then(|p| {
        let dir = session_dir(ctx, &p);
        session_context(&dir, client)
    });
    crate::repo::reads::report(ctx.err);
    match outcome {
        Ok(None) => Ok(()),
        Ok(Some(text)) => print_json(ctx, &ah::session_answer(&text)),
        Err(e) => fail_open(ctx, e),
    }
}

/// The context for a session starting in `dir`; `None` outside an
/// installed project.
fn session_context(dir: &Path, client: Option<Client>) -> Result<Option<String>> {
    let Some(project) = installed_project(dir)? else {
        return Ok(None);
    };
    let tree = project.worktree()?;
    if state_conflicted(&tree) || !tree.unmerged().is_empty() {
        let state = repo_conflicts::state_of(&project, &tree)?;
        if !state.conflicts.is_empty() {
            let mut text = String::from("STANDARDS: the workflow files are in a merge conflict.\n");
            for line in state.report_lines() {
                text.push_str(&line);
                text.push('\n');
            }
            text.push_str(CONFLICT_GUIDANCE);
            text.push('\n');
            return Ok(Some(text));
        }
    }
    let summary = status::load(&tree, &Source::Worktree, None, project.root())?;
    Ok(Some(ah::session_context(&summary, client)))
}

// ---------------------------------------------------------------------------

/// What the edit guard decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Guard {
    Allow,
    Deny(String),
}

/// `git standards hook edit-guard`.
pub fn run_edit_guard(
    ctx: &mut Context,
    input: &mut dyn Read,
    client: Option<Client>,
) -> Result<()> {
    let outcome = payload(input, client).and_then(|p| {
        let dir = session_dir(ctx, &p);
        edit_guard(&dir, &p)
    });
    crate::repo::reads::report(ctx.err);
    match outcome {
        Ok(Guard::Allow) => Ok(()),
        Ok(Guard::Deny(reason)) => {
            let _ = writeln!(ctx.err, "{reason}");
            print_json(ctx, &ah::deny_answer(&reason))
        }
        Err(e) => fail_open(ctx, e),
    }
}

/// A path as the file system names it: the longest existing ancestor
/// canonicalised (links resolved), the rest appended.
fn resolved(path: &Path) -> PathBuf {
    let mut missing = Vec::new();
    let mut at = path.to_path_buf();
    loop {
        if let Ok(real) = std::fs::canonicalize(&at) {
            let mut out = real;
            for part in missing.iter().rev() {
                out.push(part);
            }
            return out;
        }
        match (at.file_name().map(|n| n.to_os_string()), at.parent()) {
            (Some(name), Some(parent)) => {
                missing.push(name);
                at = parent.to_path_buf();
            }
            _ => return path.to_path_buf(),
        }
    }
}

/// Decides one tool call from the session in `dir`.
pub fn edit_guard(dir: &Path, payload: &Value) -> Result<Guard> {
    let input = payload.get("tool_input").cloned().unwrap_or(Value::Null);
    let mut targets = ah::edit_targets(&input);
    targets.extend(ah::shell_targets(payload));
    for target in targets {
        let joined = if Path::new(&target).is_absolute() {
            PathBuf::from(&target)
        } else {
            dir.join(&target)
        };
        let path = resolved(Path::new(&ah::normalize(&joined.to_string_lossy())));
        if !path.ends_with(STATE_PATH) {
            continue;
        }
        let Some(project_dir) = path.parent().and_then(Path::parent) else {
            continue;
        };
        if !project_dir.is_dir() {
            // A folder a shell command would make first: no project yet.
            continue;
        }
        let Some(project) = installed_project(project_dir)? else {
            continue;
        };
        if resolved(project.root()) != project_dir {
            // The file is not the STATE.md of the project holding it.
            continue;
        }
        let tree = project.worktree()?;
        if state_conflicted(&tree) {
            // The protocol's one hand edit: resolving a merge conflict.
            continue;
        }
        let summary = status::load(&tree, &Source::Worktree, None, project.root()).ok();
        return Ok(Guard::Deny(ah::deny_reason(summary.as_ref())));
    }
    Ok(Guard::Allow)
}

// ---------------------------------------------------------------------------

/// `git standards hook prompt-submit`.
pub fn run_prompt_submit(
    ctx: &mut Context,
    input: &mut dyn Read,
    client: Option<Client>,
) -> Result<()> {
    let outcome = payload(input, client).and_then(|p| {
        let dir = session_dir(ctx, &p);
        human_turn(&dir, &p, client)
    });
    crate::repo::reads::report(ctx.err);
    match outcome {
        Ok(()) => Ok(()),
        Err(e) => {
            let _ = writeln!(
                ctx.err,
                "STANDARDS hook warning: this turn was not recorded as a person's (`human-turn`): {e}"
            );
            Err(Error::Exit { code: 1 })
        }
    }
}

/// Records the `human-turn` event through the journal, under the lock.
fn human_turn(dir: &Path, payload: &Value, client: Option<Client>) -> Result<()> {
    let Some(project) = installed_project(dir)? else {
        return Ok(());
    };
    let operation = "hook prompt-submit";
    let _lock = journal::lock_within(&project, operation, PROMPT_LOCK_WAIT)?;
    let tree = project.worktree()?;
    let doc = match tree.text(STATE_PATH) {
        Text::Ok(t) => standards_core::model::state::StateDoc::parse(&t).ok(),
        _ => None,
    };
    let mut event = Event::new(EventKind::HumanTurn)
        .detail("client", client.map(Client::as_str))
        .detail(
            "session",
            payload
                .get("session_id")
                .and_then(Value::as_str)
                .map(String::from),
        )
        .detail(
            "workflow_state",
            doc.as_ref()
                .map(|d| d.workflow_state.value.as_str().to_string()),
        );
    if let Some(cycle) = doc
        .as_ref()
        .and_then(|d| d.active_cycle_id())
        .map(str::to_string)
    {
        event = event.cycle(cycle);
    }
    if crate::repo::agent::record_prompts(&project) {
        if let Some(prompt) = payload.get("prompt").and_then(Value::as_str) {
            let kept: String = prompt.chars().take(MAX_PROMPT_CHARS).collect();
            event = event.detail("prompt", kept);
        }
    }
    let (change, _) = audit::journalled(&project, event);
    journal::write_all(
        &project,
        operation,
        vec![change],
        serde_json::json!({ "hook": "prompt-submit" }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolved_keeps_missing_tails_and_resolves_links() {
        let tmp = tempfile::tempdir().unwrap();
        let real = std::fs::canonicalize(tmp.path()).unwrap();
        std::fs::create_dir(real.join("p")).unwrap();
        std::os::unix::fs::symlink(real.join("p"), real.join("link")).unwrap();
        assert_eq!(
            resolved(&real.join("link/.standards/STATE.md")),
            real.join("p/.standards/STATE.md")
        );
        assert_eq!(resolved(&real.join("p")), real.join("p"));
    }
}
