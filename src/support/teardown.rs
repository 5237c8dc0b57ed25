//! The teardown path that `reset` and `uninstall` share (RT §7.7, §7.8, D6,
//! D21, D22): the refusals that guard deleting workflow data, then preview
//! -> confirmation -> archive -> journal (the plan's steps, then the
//! `archived` event and the operation's own) -> report. Each command
//! supplies only what differs: its plan, its words and its event.

use crate::commands::{self, Context};
use crate::error::{Error, Result};
use crate::repo::archive::{self, Archived};
use crate::repo::commit::CommitId;
use crate::repo::journal::{self, Change};
use crate::repo::{change_plan, failpoint, Project};
use crate::support::audit;
use crate::support::paths::PathView;
use standards_core::audit::{Event, EventKind};
use standards_core::model::layout::{DOCS_DIR, MARKER, PROTOCOL_PATH, STANDARDS_DIR};
use standards_core::model::tree::{Node, Text, Tree};
use standards_core::setup::change::{ChangePlan, Step};
use standards_core::setup::install::{read_installed_version, Version};
use standards_core::workflow::conflicts;

/// What a teardown command supplies to the shared path.
pub trait Teardown {
    /// The command's plan: its [`ChangePlan`] and what it reports.
    type Plan;

    /// `reset` or `uninstall`: the operation's name in the journal, the
    /// failpoints, the archive and the messages.
    fn name(&self) -> &'static str;
    fn changes<'p>(&self, plan: &'p Self::Plan) -> &'p ChangePlan;
    /// The cycle STATE.md names (the archive's name when it is a valid one).
    fn cycle<'p>(&self, plan: &'p Self::Plan) -> Option<&'p str>;
    /// Computes the plan; writes nothing.
    fn preview(&self, project: &Project) -> Result<Self::Plan>;
    /// The message when there is nothing to tear down (then nothing runs).
    fn nothing_to_do(&self, plan: &Self::Plan, root: &str) -> Option<String>;
    /// The refusal to run unconfirmed outside a terminal.
    fn unconfirmed(&self, plan: &Self::Plan) -> Error;
    /// The confirmation question.
    fn question(&self, root: &str) -> String;
    /// The lines above the steps (what, where, the summary).
    fn header(&self, plan: &Self::Plan, root: &str, preview: bool) -> Vec<String>;
    /// The verb of a write in the report (`Write`, `Update`) and in `--json`.
    fn write_verb(&self, preview: bool) -> &'static str;
    /// The lines below the steps.
    fn footer(&self, plan: &Self::Plan, landed: Option<&Landed>, preview: bool) -> Vec<String>;
    /// The warnings (their text may say what will happen or what did).
    fn warnings(&self, plan: &Self::Plan, done: bool) -> Vec<String>;
    /// The `--json` result.
    fn json(&self, plan: &Self::Plan, landed: Option<&Landed>, dry_run: bool) -> serde_json::Value;
    /// Under the lock, after the plan is read and before the archive: what
    /// the command must check or build first (a refusal writes nothing).
    fn prepare(&self, project: &Project, plan: &Self::Plan) -> Result<Extra>;
    /// Once the archive is stored: the journal's extra changes (after the
    /// plan's steps), the operation's event and the journal's summary.
    fn finish(
        &self,
        project: &Project,
        plan: &Self::Plan,
        archived: &Archived,
        extra: Extra,
    ) -> Result<Finish>;
}

/// What [`Teardown::prepare`] hands to [`Teardown::finish`].
#[derive(Debug, Default)]
pub struct Extra {
    /// The commit `--commit` builds on (reset).
    pub base: Option<CommitId>,
}

/// What [`Teardown::finish`] adds to the journal.
pub struct Finish {
    /// Changes after the plan's steps (the index and HEAD of a commit).
    pub changes: Vec<Change>,
    /// The operation's event, journalled after the `archived` event.
    pub event: Event,
    /// The journal's summary.
    pub summary: serde_json::Value,
    /// The commit the changes make, if any.
    pub commit: Option<CommitId>,
}

/// What a teardown did.
#[derive(Debug, Clone)]
pub struct Landed {
    pub archive: Archived,
    pub commit: Option<CommitId>,
}

/// Runs a teardown command: plan, then the preview, a confirmation or the
/// refusal to run unconfirmed, then [`land`] and the report. `json`: one
/// JSON object on stdout instead of the report, and never a prompt.
pub fn run<T: Teardown>(
    ctx: &mut Context,
    command: &T,
    dry_run: bool,
    yes: bool,
    json: bool,
) -> Result<()> {
    let name = command.name();
    let project = Project::discover(&ctx.cwd)?;
    let interactive = !json && crate::support::confirm::interactive();
    // Issue 21: held from reading the plan's inputs to the last write (a
    // preview, or a refusal to run unconfirmed, writes nothing, not even the
    // lock file).
    let _lock = if dry_run || !(yes || interactive) {
        None
    } else {
        Some(journal::lock(&project, name)?)
    };
    journal::refuse_if_pending(&project)?;
    if !dry_run {
        // D15: never in the middle of a conflict (it leaves the conflict-refused event).
        crate::support::conflicts::refuse_during_conflict(ctx, &project, name)?;
    }
    let plan = command.preview(&project)?;
    let root = project.root().display().to_string();
    let view = ctx.path_view(&project);
    let w = |e: std::io::Error| Error::io("<stderr>", e);
    if let Some(message) = command.nothing_to_do(&plan, &root) {
        writeln!(ctx.err, "{message}").map_err(w)?;
        if json {
            let value = command.json(&plan, None, dry_run);
            commands::print_result(ctx.out, true, "", value)?;
        }
        return Ok(());
    }
    if dry_run {
        if json {
            let value = command.json(&plan, None, true);
            return commands::print_result(ctx.out, true, "", value);
        }
        return report(ctx, command, &view, &plan, &root, None);
    }
    if !yes {
        if !interactive {
            return Err(command.unconfirmed(&plan));
        }
        report(ctx, command, &view, &plan, &root, None)?;
        let question = command.question(&root);
        if !crate::support::confirm::ask(ctx.err, &mut std::io::stdin().lock(), &question)? {
            let mut cancelled = name.to_string();
            cancelled[..1].make_ascii_uppercase();
            writeln!(ctx.err, "{cancelled} cancelled; no files were changed.").map_err(w)?;
            return Ok(());
        }
    }
    let landed = land(&project, command, &plan)?;
    if json {
        let value = command.json(&plan, Some(&landed), false);
        return commands::print_result(ctx.out, true, "", value);
    }
    report(ctx, command, &view, &plan, &root, Some(&landed))
}

/// Archives `.standards/`, then applies the plan through the journal with
/// the command's extra changes and the events as its last steps (issue 21:
/// a teardown that landed has them after any crash and `recover`, exactly
/// once). No prompt: the caller has the user's approval.
pub fn land<T: Teardown>(project: &Project, command: &T, plan: &T::Plan) -> Result<Landed> {
    let name = command.name();
    let _lock = journal::lock(project, name)?;
    journal::refuse_if_pending(project)?;
    let extra = command.prepare(project, plan)?;
    let cycle = command.cycle(plan);
    let archive_name = cycle
        .filter(|id| archive::valid_name(id))
        .map(str::to_string)
        .unwrap_or_else(|| archive::timestamp_name(name));
    let archived = archive::store(project, &archive_name, name)?;
    failpoint::hit(&format!("{name}:archived"));
    let finish = command.finish(project, plan, &archived, extra)?;
    let mut changes = change_plan::journal_changes(command.changes(plan));
    changes.extend(finish.changes);
    changes.push(audit::journalled(project, archived_event(&archived, name, cycle)).0);
    changes.push(audit::journalled(project, finish.event).0);
    journal::write_all(project, name, changes, finish.summary)?;
    Ok(Landed {
        archive: archived,
        commit: finish.commit,
    })
}

/// The `archived` event of a teardown (journalled with its writes).
fn archived_event(archived: &Archived, operation: &str, cycle: Option<&str>) -> Event {
    let mut event = Event::new(EventKind::Archived)
        .detail("ref", archived.reference.clone())
        .detail("archive_commit", archived.commit.to_string())
        .detail("operation", operation)
        .detail("files", archived.files);
    if let Some(c) = cycle {
        event = event.cycle(c);
    }
    event
}

/// The plan's steps as `--json` entries: `remove`, or the write verb.
pub fn json_paths<T: Teardown>(command: &T, plan: &T::Plan) -> Vec<serde_json::Value> {
    command
        .changes(plan)
        .changes()
        .map(|step| {
            serde_json::json!({
                "action": if step.is_remove() { "remove".to_string() } else { command.write_verb(true).to_lowercase() },
                "path": step.path(),
            })
        })
        .collect()
}

/// The report: the header, one line per step, the footer on stdout; the
/// warnings and where the archive is on stderr.
fn report<T: Teardown>(
    ctx: &mut Context,
    command: &T,
    view: &PathView,
    plan: &T::Plan,
    root: &str,
    landed: Option<&Landed>,
) -> Result<()> {
    let preview = landed.is_none();
    let out = &mut *ctx.out;
    let w = Error::stdout;
    for line in command.header(plan, root, preview) {
        writeln!(out, "{line}").map_err(w)?;
    }
    for step in command.changes(plan).changes() {
        let verb = match (step, preview) {
            (Step::Remove { .. }, true) => "Remove",
            (Step::Remove { .. }, false) => "Removed",
            (_, p) => command.write_verb(p),
        };
        writeln!(out, "{verb}: {}", view.show(step.path())).map_err(w)?;
    }
    for line in command.footer(plan, landed, preview) {
        writeln!(out, "{line}").map_err(w)?;
    }
    let e = |e: std::io::Error| Error::io("<stderr>", e);
    for warning in command.warnings(plan, !preview) {
        writeln!(ctx.err, "Warning: {warning}").map_err(e)?;
    }
    if let Some(a) = landed.map(|l| &l.archive) {
        writeln!(
            ctx.err,
            "Archived the previous .standards/ ({} files) as {}; `git standards archive show {}` reads it back.",
            a.files,
            a.reference,
            a.reference.trim_start_matches(archive::PREFIX)
        )
        .map_err(e)?;
    }
    Ok(())
}

/// Checks that `.standards/` is a STANDARDS runtime of this binary's version
/// (D6; RT §7.7 steps 2-3).
pub fn require_runtime(tree: &dyn Tree, project: &Project, command: &str) -> Result<()> {
    match tree.node(STANDARDS_DIR) {
        Node::Missing => {
            return Err(Error::NotInstalled {
                root: project.root().to_path_buf(),
            })
        }
        Node::Dir => {}
        Node::Symlink => {
            return Err(Error::refused(
                format!("refusing to {command}: `.standards` is a symbolic link"),
                Some("git standards never follows it; replace it with a real folder".into()),
            ))
        }
        _ => {
            return Err(Error::refused(
                format!("refusing to {command}: `.standards` is not a folder"),
                None,
            ))
        }
    }
    match tree.text(PROTOCOL_PATH) {
        Text::Ok(t) if t.contains(MARKER) => {}
        _ => {
            return Err(Error::refused(
                format!("refusing to {command}: `.standards/` is not a STANDARDS runtime (its PROTOCOL.md lacks the framework marker)"),
                Some("git standards never deletes or rewrites a `.standards/` it does not own".into()),
            ))
        }
    }
    let installed = read_installed_version(tree)?;
    let binary = Version::current();
    if installed == binary {
        return Ok(());
    }
    let (why, hint) = if installed.0 != binary.0 {
        (
            format!("the installed runtime is version {installed} and this git-standards is {binary}: different major versions"),
            format!("run `git standards {command}` with git-standards {installed}"),
        )
    } else if installed < binary {
        (
            format!("the installed runtime is version {installed}, older than this git-standards {binary}"),
            format!("upgrade it first with `git standards install`, then run `git standards {command}` again (or use git-standards {installed})"),
        )
    } else {
        (
            format!("the installed runtime is version {installed}, newer than this git-standards {binary}"),
            format!("install git-standards {installed} and run `git standards {command}` with it"),
        )
    };
    Err(Error::refused(
        format!(
            "refusing to {command}: {why}; the fresh files come from the binary's own templates"
        ),
        Some(hint),
    ))
}

/// Refuses while the Node.js installer's staging folder of an interrupted run
/// is in the project root (RT §7.3 interruption markers; our own interrupted
/// runs leave a journal instead, which `refuse_if_pending` reports).
pub fn refuse_node_transaction(project: &Project, command: &str) -> Result<()> {
    let Ok(entries) = std::fs::read_dir(project.root()) else {
        return Ok(());
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if [
            ".standards-install-",
            ".standards-reset-",
            ".standards-uninstall-",
        ]
        .iter()
        .any(|p| name.starts_with(p))
        {
            return Err(Error::refused(
                format!("refusing to {command}: an interrupted installer transaction of the Node.js runtime was left at `{name}`"),
                Some(format!("its `operations.json` maps each `backup-<n>` to the file that run replaced: restore what you need, delete `{name}`, then run `git standards {command}` again")),
            ));
        }
    }
    Ok(())
}

/// Refuses unmerged or conflict-marked files under `.standards/`.
pub fn refuse_conflicts(tree: &dyn Tree, command: &str) -> Result<()> {
    let found = conflicts::find(tree);
    if found.is_empty() {
        return Ok(());
    }
    Err(Error::refused(
        format!(
            "refusing to {command}: `.standards/` has unresolved merge conflicts in {}",
            conflicts::describe(&found)
        ),
        Some(format!("resolve them first (keep exactly one cycle in STATE.md and remove every conflict marker), then run `git standards {command}` again")),
    ))
}

/// Refuses a symbolic link or special file at or anywhere inside `rel`.
pub fn refuse_links(project: &Project, rel: &str, command: &str) -> Result<()> {
    let mut stack = vec![rel.to_string()];
    while let Some(p) = stack.pop() {
        let full = project.root().join(&p);
        let meta = match std::fs::symlink_metadata(&full) {
            Ok(m) => m,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(Error::io(&full, e)),
        };
        if meta.file_type().is_symlink() {
            return Err(Error::refused(
                format!(
                    "refusing to {command}: `{p}` is a symbolic link, in what {command} deletes"
                ),
                Some(format!(
                    "replace `{p}` with a regular file or folder (or move it away), then retry"
                )),
            ));
        }
        if meta.is_dir() {
            for entry in std::fs::read_dir(&full).map_err(|e| Error::io(&full, e))? {
                let entry = entry.map_err(|e| Error::io(&full, e))?;
                stack.push(format!("{p}/{}", entry.file_name().to_string_lossy()));
            }
        } else if !meta.is_file() {
            return Err(Error::refused(
                format!("refusing to {command}: `{p}` is not a regular file or folder"),
                None,
            ));
        }
    }
    Ok(())
}

/// The Markdown files below the project folder `rel` (none when it is missing).
pub fn count_markdown(project: &Project, rel: &str) -> Result<usize> {
    let mut n = 0;
    let mut stack = vec![project.root().join(rel)];
    while let Some(dir) = stack.pop() {
        let Ok(read) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in read {
            let entry = entry.map_err(|e| Error::io(&dir, e))?;
            let kind = entry.file_type().map_err(|e| Error::io(entry.path(), e))?;
            if kind.is_dir() {
                stack.push(entry.path());
            } else if kind.is_file() && entry.file_name().to_string_lossy().ends_with(".md") {
                n += 1;
            }
        }
    }
    Ok(n)
}

/// The record kinds by the folder under `.standards/docs/` that holds them.
const RECORD_KINDS: [(&str, &str); 7] = [
    ("scope", "scope"),
    ("specs", "design"),
    ("development", "development"),
    ("verification", "verification"),
    ("reviews", "review"),
    ("documentation", "documentation"),
    ("synchronization", "synchronization"),
];

/// The cycle records under `.standards/docs/` by kind: only the kinds
/// present, in the protocol's order, then any other Markdown file there.
pub fn count_records(project: &Project) -> Result<Vec<(&'static str, usize)>> {
    let mut kinds = Vec::new();
    let mut known = 0;
    for (folder, kind) in RECORD_KINDS {
        let n = count_markdown(project, &format!("{DOCS_DIR}/{folder}"))?;
        known += n;
        if n > 0 {
            kinds.push((kind, n));
        }
    }
    let other = count_markdown(project, DOCS_DIR)? - known;
    if other > 0 {
        kinds.push(("other", other));
    }
    Ok(kinds)
}

/// Issue 25, item 8: the records warning of `reset` and `uninstall` names
/// only the kinds present, and says what will happen before the teardown
/// and what happened after it.
pub fn records_warning(
    records: usize,
    record_kinds: &[(&str, usize)],
    done: bool,
) -> Option<String> {
    if records == 0 {
        return None;
    }
    let s = |n: usize| if n == 1 { "" } else { "s" };
    let kinds: Vec<String> = record_kinds
        .iter()
        .map(|(kind, n)| format!("{n} {kind}"))
        .collect();
    let kinds = match kinds.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    };
    let (verb, reads) = if done {
        ("deleted", "`archive show` reads them back")
    } else {
        (
            "deletes",
            "the archive keeps them and `archive show` reads them back",
        )
    };
    Some(format!(
        "{verb} {} cycle record{} in `.standards/docs/` ({kinds} record{}); {reads}",
        records,
        s(records),
        s(records),
    ))
}
