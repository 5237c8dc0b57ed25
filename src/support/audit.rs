//! Recording audit events (D20): the stamp every event gets, and the two
//! orders of writing: after the action (the usual case, never fails the
//! command) and before it (user-authority events: the event is the evidence).

use crate::commands::Context;
use crate::error::{Error, Result};
use crate::repo::journal::Change;
use crate::repo::notes::{self, Anchor};
use crate::repo::{refs, trail, Project};
use standards_core::audit::{format_ts, tool, Event, Stamp};
use standards_core::model::layout::STATE_PATH;
use standards_core::model::state::StateDoc;
use standards_core::model::tree::{Text, Tree};

/// The stamp of an event recorded now by this process.
pub fn stamp(project: &Project) -> Stamp {
    let mut id = [0u8; 8];
    if getrandom::fill(&mut id).is_err() {
        // Never fail an append for this: the time's nanoseconds and the pid still separate events.
        let nanos = chrono::Utc::now().timestamp_subsec_nanos();
        id[..4].copy_from_slice(&nanos.to_be_bytes());
        id[4..].copy_from_slice(&std::process::id().to_be_bytes());
    }
    Stamp {
        ts: format_ts(chrono::Utc::now()),
        id: id.iter().map(|b| format!("{b:02x}")).collect(),
        actor: match trail::identity(project) {
            Some((name, email)) => format!("{name} <{email}>"),
            None => "unknown".into(),
        },
        tool: tool(),
        commit: refs::head_id(project).map(|id| id.to_string()),
        argv: std::env::args_os()
            .skip(1)
            .map(|a| a.to_string_lossy().into_owned())
            .collect(),
    }
}

/// The event as it will be stored: a project in a subfolder is named.
fn finish(project: &Project, event: Event) -> Event {
    if project.root_in_repo().is_empty() {
        event
    } else {
        let path = project.root_in_repo().to_string();
        event.detail("project", path)
    }
}

/// The event as stored, its line and its ID.
fn prepare(project: &Project, event: Event) -> (Event, String, String) {
    let event = finish(project, event);
    let stamp = stamp(project);
    let line = event.to_line(&stamp);
    (event, line, stamp.id)
}

fn store(project: &Project, event: &Event, line: &str) -> Result<notes::Appended> {
    let anchor = Anchor::for_cycle(event.cycle.as_deref());
    trail::append(
        project,
        &anchor,
        line,
        &format!("standards: {}", event.kind),
    )
}

/// Says on stderr that an append removed the ref lock of a killed writer.
fn report_stale_lock(ctx: &mut Context, appended: &notes::Appended) {
    if let Some(stale) = &appended.stale_lock {
        let _ = writeln!(ctx.err, "{stale}");
    }
}

/// The event as a step of the operation's journal (issue 21: the event is
/// written with the operation, and a crash and `recover` leave it recorded
/// exactly once), with its ID.
pub fn journalled(project: &Project, event: Event) -> (Change, String) {
    let (event, line, id) = prepare(project, event);
    let change = Change::Event {
        cycle: event.cycle.clone(),
        message: format!("standards: {}", event.kind),
        line,
        id: id.clone(),
    };
    (change, id)
}

/// Appends the event to the trail now; returns the stored line.
pub fn record(project: &Project, event: Event) -> Result<String> {
    let (event, line, _) = prepare(project, event);
    store(project, &event, &line)?;
    Ok(line)
}

/// D20: the command's write already happened; record its event. A failed
/// append is reported on stderr with the event's JSON, so nothing is silently
/// lost, and the command's result and exit status stand. Returns the
/// event's ID once it is stored.
///
/// Issue 21 allows this only where the exit status belongs to someone else:
/// the agent hooks (`hook stop`'s `check-failed`, whose 0/2 the clients read:
/// an audit failure must never block an agent) and the refusals' own events
/// (the exit is already 1). A command's own operation records its event as
/// a journal step ([`journalled`]), first ([`append_before`]) or, when
/// neither can be, fails without it ([`append_or_fail`]).
pub fn append_after(ctx: &mut Context, project: &Project, event: Event) -> Option<String> {
    let (event, line, id) = prepare(project, event);
    match store(project, &event, &line) {
        Ok(appended) => report_stale_lock(ctx, &appended),
        Err(e) => {
            let _ = writeln!(
            ctx.err,
            "warning: the audit event could not be recorded in `{}`: {e}\nwarning: the event, so that it is not lost: {line}",
            notes::NOTES_REF
        );
            return None;
        }
    }
    Some(id)
}

/// Issue 21: the command's write already happened and cannot carry its
/// event in a journal (`hooks install` and `uninstall`, `recover`): record
/// the event now; when it cannot be, the command fails (exit 1) saying what
/// was done and printing the event, so it is neither lost nor reported as
/// recorded. `done` says what landed ("the hooks were installed").
pub fn append_or_fail(
    ctx: &mut Context,
    project: &Project,
    event: Event,
    done: &str,
) -> Result<String> {
    let (event, line, id) = prepare(project, event);
    match store(project, &event, &line) {
        Ok(appended) => {
            report_stale_lock(ctx, &appended);
            Ok(id)
        }
        Err(e) => {
            let hint = match &e {
                Error::Refused { hint: Some(h), .. } => h.clone(),
                _ => format!(
                    "check `git show-ref {}` and `git fsck`; the event is printed above",
                    notes::NOTES_REF
                ),
            };
            let _ = writeln!(ctx.err, "the event, so that it is not lost: {line}");
            Err(Error::refused(
                format!(
                    "{done}, but its audit event could not be recorded in `{}`: {e}",
                    notes::NOTES_REF
                ),
                Some(hint),
            ))
        }
    }
}

/// D20, user-authority events: the event is the evidence, so it is recorded
/// first, and the command refuses (changing nothing) when it cannot be. Also
/// for a command whose product is the event itself (`cycle new`, issue 21:
/// never exit 0 having dropped an event).
/// Returns the stored event's ID.
pub fn append_before(ctx: &mut Context, project: &Project, event: Event) -> Result<String> {
    let (event, line, id) = prepare(project, event);
    let appended = store(project, &event, &line).map_err(|e| {
        // A refusal that knows its way out (an abandoned ref lock: `recover`) keeps it.
        let hint = match &e {
            Error::Refused { hint: Some(h), .. } => h.clone(),
            _ => format!(
                "this action needs its audit event first; check `git show-ref {}` and `git fsck`, then run the command again",
                notes::NOTES_REF
            ),
        };
        Error::refused(
            format!(
                "the audit event could not be recorded in `{}`, so nothing was changed: {e}",
                notes::NOTES_REF
            ),
            Some(hint),
        )
    })?;
    report_stale_lock(ctx, &appended);
    Ok(id)
}

/// The active cycle's ID in a snapshot's STATE.md, if it names one; a
/// missing or unreadable STATE.md has none (an event never fails for it).
pub fn active_cycle(tree: &dyn Tree) -> Option<String> {
    match tree.text(STATE_PATH) {
        Text::Ok(text) => StateDoc::parse(&text)
            .ok()
            .and_then(|s| s.active_cycle_id().map(str::to_string)),
        _ => None,
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use standards_core::audit::EventKind;

    fn project() -> (tempfile::TempDir, Project) {
        let dir = tempfile::tempdir().unwrap();
        crate::repo::scratch::init(dir.path()).unwrap();
        let project = Project::discover(dir.path()).unwrap();
        (dir, project)
    }

    fn run<T>(dir: &std::path::Path, f: impl FnOnce(&mut Context) -> T) -> (T, String) {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let mut ctx = Context {
            cwd: dir.to_path_buf(),
            out: &mut out,
            err: &mut err,
            color: false,
        };
        let value = f(&mut ctx);
        (value, String::from_utf8(err).unwrap())
    }

    /// Points the notes ref at a blob (written with the git CLI): every
    /// append then fails.
    fn break_the_trail(project: &Project) {
        let dir = project.workdir().unwrap();
        let git = |args: &[&str], input: &[u8]| {
            use std::io::Write;
            let mut child = std::process::Command::new("git")
                .arg("-C")
                .arg(dir)
                .args(args)
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped())
                .spawn()
                .unwrap();
            child.stdin.take().unwrap().write_all(input).unwrap();
            let out = child.wait_with_output().unwrap();
            assert!(out.status.success(), "git {args:?}");
            String::from_utf8(out.stdout).unwrap().trim().to_string()
        };
        let blob = git(&["hash-object", "-w", "--stdin"], b"not a commit");
        git(&["update-ref", notes::NOTES_REF, &blob], b"");
        let tip = trail::tip(project, notes::NOTES_REF).unwrap();
        assert_eq!(tip.map(|id| id.to_string()), Some(blob));
    }

    #[test]
    fn append_before_records_first_and_refuses_when_it_cannot() {
        let (dir, project) = project();
        let event = Event::new(EventKind::SignedOff).cycle("c-1");
        let (result, err) = run(dir.path(), |ctx| {
            append_before(ctx, &project, event.clone())
        });
        result.unwrap();
        assert_eq!(err, "");
        let note = trail::read_anchor(&project, &Anchor::Cycle("c-1".into()))
            .unwrap()
            .unwrap();
        assert!(String::from_utf8(note.text)
            .unwrap()
            .contains("\"event\":\"signed-off\""));

        break_the_trail(&project);
        let (result, _) = run(dir.path(), |ctx| {
            append_before(ctx, &project, event.clone())
        });
        let e = result.unwrap_err();
        assert!(matches!(e, Error::Refused { .. }), "{e:?}");
        assert!(e.to_string().contains("so nothing was changed"), "{e}");
    }

    #[test]
    fn append_after_reports_a_failure_with_the_event_and_never_fails() {
        let (dir, project) = project();
        break_the_trail(&project);
        let (id, err) = run(dir.path(), |ctx| {
            append_after(
                ctx,
                &project,
                Event::new(EventKind::Reset).detail("archive", "refs/standards/archive/x"),
            )
        });
        assert_eq!(id, None, "a lost event has no ID to report");
        let json = err
            .lines()
            .find_map(|l| l.strip_prefix("warning: the event, so that it is not lost: "))
            .unwrap();
        let v: serde_json::Value = serde_json::from_str(json).unwrap();
        assert_eq!(v["event"], "reset");
        assert_eq!(v["archive"], "refs/standards/archive/x");
        assert_eq!(v["commit"], serde_json::Value::Null);
    }
}
