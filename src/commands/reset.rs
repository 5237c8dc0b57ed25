//! `git standards reset`: Project Reset (RT §7.7, D6, D21, D22). Returns the
//! workflow to a fresh installation: deletes `.standards/CONTEXT.md` and
//! `.standards/docs/`, rewrites `STATE.md` and `MODE.md` from this binary's
//! templates, keeps everything else. Before deleting, it archives the whole
//! `.standards/` under `refs/standards/archive/<cycle-id>`; every change goes
//! through the journal; `--commit` commits exactly the paths it changed.
//!
//! Library use (the greenfield bootstrap cancellation of `cancel`): build a
//! [`Request`] with `mode: Some(ProjectMode::Greenfield)` and `yes: true` once
//! the user approved, and call [`run`]; [`preview`] computes the same plan
//! without writing, for a dry run shown before approval.

use crate::commands::install::{self, Version};
use crate::commands::paths::PathView;
use crate::commands::{audit, Context};
use crate::error::{Error, Result};
use crate::repo::archive::{self, Archived};
use crate::repo::journal::{self, Change};
use crate::repo::{failpoint, Project};
use standards_core::audit::{Event, EventKind};
use standards_core::model::layout::{
    CONTEXT_PATH, DOCS_DIR, MARKER, MODE_PATH, PROTOCOL_PATH, STANDARDS_DIR, STATE_PATH,
};
use standards_core::model::tree::{Node, Text, Tree};
use standards_core::model::vocab::ProjectMode;
use standards_core::model::{fields, mode, state};
use standards_core::workflow::conflicts;

/// The failpoints of `reset`: after the archive, then the journal's.
pub const FAILPOINTS: &[&str] = &[
    "reset:archived",
    "reset:journal-staged",
    "reset:journal-begun",
    "reset:step-applied",
    "reset:step-recorded",
    "reset:journal-closing",
];

/// A validated reset request.
#[derive(Debug, Clone, Default)]
pub struct Request {
    /// The mode after the reset; inferred from the project's files when absent.
    pub mode: Option<ProjectMode>,
    pub dry_run: bool,
    /// Skip the confirmation (required outside a terminal).
    pub yes: bool,
    /// Commit the reset (only the paths it changed).
    pub commit: bool,
}

/// One planned change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Op {
    Remove { path: String },
    Write { path: String, content: String },
}

impl Op {
    pub fn path(&self) -> &str {
        match self {
            Op::Remove { path } | Op::Write { path, .. } => path,
        }
    }
}

/// The cycle STATE.md names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cycle {
    pub id: String,
    /// The workflow state as written (`UNKNOWN` when STATE.md has none).
    pub state: String,
    /// Not `SIGNED_OFF` or `CANCELLED`.
    pub active: bool,
}

/// What `reset` will do.
#[derive(Debug, Clone)]
pub struct Plan {
    pub mode: ProjectMode,
    pub ops: Vec<Op>,
    /// Markdown files under `.standards/docs/` (the cycle records it deletes).
    pub records: usize,
    /// Those records by kind, only the kinds present, in the protocol's order.
    pub record_kinds: Vec<(&'static str, usize)>,
    pub cycle: Option<Cycle>,
    pub warnings: Vec<String>,
    /// Unified diffs of STATE.md and MODE.md (empty when unchanged).
    pub diffs: Vec<String>,
}

/// What a reset did.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub plan: Plan,
    pub archive: Option<Archived>,
    pub commit: Option<gix::ObjectId>,
}

/// The exact command that runs this reset without a prompt.
pub fn command_line(plan: &Plan, request: &Request) -> String {
    format!(
        "git standards reset --mode {}{} --yes",
        plan.mode.to_string().to_lowercase(),
        if request.commit { " --commit" } else { "" }
    )
}

/// Checks that `.standards/` is a STANDARDS runtime of this binary's version
/// (D6; RT §7.7 steps 2-3). Shared with `uninstall`.
pub(crate) fn require_runtime(tree: &dyn Tree, project: &Project, command: &str) -> Result<()> {
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
    let installed = install::read_installed_version(tree)?;
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
pub(crate) fn refuse_node_transaction(project: &Project, command: &str) -> Result<()> {
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
pub(crate) fn refuse_conflicts(tree: &dyn Tree, command: &str) -> Result<()> {
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
pub(crate) fn refuse_links(project: &Project, rel: &str, command: &str) -> Result<()> {
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

/// The cycle named in STATE.md, read leniently (a damaged STATE.md does not
/// prevent a reset, RT §7.7 step 4).
fn cycle_of(tree: &dyn Tree) -> Option<Cycle> {
    let Text::Ok(text) = tree.text(STATE_PATH) else {
        return None;
    };
    if let Ok(doc) = state::StateDoc::parse(&text) {
        let id = doc.active_work.id.value.clone();
        return (id != "UNSET").then(|| Cycle {
            active: doc.has_active_cycle(),
            state: doc.workflow_state.value.to_string(),
            id,
        });
    }
    let found = fields::scan(&text);
    let id = fields::first(&found, "Id")?.value.clone();
    if id == "UNSET" {
        return None;
    }
    let state = fields::first(&found, "WorkflowState")
        .map(|f| f.value.clone())
        .unwrap_or_else(|| "UNKNOWN".into());
    Some(Cycle {
        active: state != "SIGNED_OFF" && state != "CANCELLED",
        state,
        id,
    })
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
fn count_records(project: &Project) -> Result<Vec<(&'static str, usize)>> {
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

/// Issue 25, item 8: the records warning names only the kinds present, and
/// says what will happen before the reset and what happened after it.
fn records_warning(plan: &Plan, done: bool) -> Option<String> {
    if plan.records == 0 {
        return None;
    }
    let s = |n: usize| if n == 1 { "" } else { "s" };
    let kinds: Vec<String> = plan
        .record_kinds
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
        plan.records,
        s(plan.records),
        s(plan.records),
    ))
}

fn count_markdown(project: &Project, rel: &str) -> Result<usize> {
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

fn diff(path: &str, old: &str, new: &str) -> String {
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{path}"), &format!("b/{path}"))
        .to_string()
}

/// Computes the plan. Writes nothing.
pub fn preview(project: &Project, request: &Request) -> Result<Plan> {
    project.require_workdir()?;
    refuse_node_transaction(project, "reset")?;
    let tree = project.worktree()?;
    require_runtime(&tree, project, "reset")?;
    refuse_conflicts(&tree, "reset")?;
    let mut names: Vec<String> = std::fs::read_dir(project.root())
        .map_err(|e| Error::io(project.root(), e))?
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mode = request
        .mode
        .unwrap_or_else(|| install::infer_mode(names.iter().map(String::as_str)));
    let mut ops = Vec::new();
    let mut warnings = Vec::new();
    let mut diffs = Vec::new();
    let mut records = 0;
    let mut record_kinds = Vec::new();
    if !matches!(tree.node(DOCS_DIR), Node::Missing) {
        refuse_links(project, DOCS_DIR, "reset")?;
        record_kinds = count_records(project)?;
        records = record_kinds.iter().map(|(_, n)| n).sum();
        ops.push(Op::Remove {
            path: DOCS_DIR.into(),
        });
    }
    if !matches!(tree.node(CONTEXT_PATH), Node::Missing) {
        refuse_links(project, CONTEXT_PATH, "reset")?;
        ops.push(Op::Remove {
            path: CONTEXT_PATH.into(),
        });
    }
    for (path, fresh) in [
        (MODE_PATH, mode::render(mode)),
        (STATE_PATH, state::fresh_template(mode)),
    ] {
        let current = match tree.node(path) {
            Node::Missing => None,
            Node::File(bytes) => Some(String::from_utf8_lossy(&bytes).into_owned()),
            _ => {
                return Err(Error::refused(
                    format!("refusing to reset: `{path}` exists but is not a regular file"),
                    Some(format!("move `{path}` out of the way, then retry")),
                ))
            }
        };
        if current.as_deref() != Some(fresh.as_str()) {
            diffs.push(diff(path, current.as_deref().unwrap_or(""), &fresh));
            ops.push(Op::Write {
                path: path.into(),
                content: fresh,
            });
        }
    }
    let cycle = cycle_of(&tree);
    if let Some(c) = cycle.as_ref().filter(|c| c.active) {
        warnings.insert(
            0,
            format!(
                "cycle `{}` is active (`WorkflowState` `{}`): the reset ends it without recording a terminal state; sign it off or cancel it first, or confirm with --yes",
                c.id, c.state
            ),
        );
    }
    Ok(Plan {
        mode,
        ops,
        records,
        cycle,
        record_kinds,
        warnings,
        diffs,
    })
}

/// Runs `reset` from the command line: preview, confirmation, then the reset.
pub fn run(ctx: &mut Context, request: &Request) -> Result<()> {
    run_json(ctx, request, false)
}

/// The `--json` result of a reset (issue 25): what it removed and wrote,
/// the records by kind, the archive and the commit.
fn result_json(plan: &Plan, outcome: Option<&Outcome>, dry_run: bool) -> serde_json::Value {
    let paths: Vec<serde_json::Value> = plan
        .ops
        .iter()
        .map(|op| {
            serde_json::json!({
                "action": match op { Op::Remove { .. } => "remove", Op::Write { .. } => "write" },
                "path": op.path(),
            })
        })
        .collect();
    let kinds: serde_json::Map<String, serde_json::Value> = plan
        .record_kinds
        .iter()
        .map(|(k, n)| (k.to_string(), serde_json::json!(n)))
        .collect();
    let warnings: Vec<String> = plan
        .warnings
        .iter()
        .cloned()
        .chain(records_warning(plan, !dry_run))
        .collect();
    serde_json::json!({
        "ok": true,
        "command": "reset",
        "dryRun": dry_run,
        "changed": !dry_run && !plan.ops.is_empty(),
        "mode": plan.mode.to_string(),
        "cycle": plan.cycle.as_ref().map(|c| c.id.clone()),
        "paths": paths,
        "records": plan.records,
        "recordKinds": kinds,
        "archive": outcome.and_then(|o| o.archive.as_ref()).map(|a| a.at()),
        "commit": outcome.and_then(|o| o.commit).map(|c| c.to_string()),
        "warnings": warnings,
    })
}

/// [`run`]; with `json` one JSON object on stdout instead of the report,
/// and never a prompt (a reset to run needs --yes).
pub fn run_json(ctx: &mut Context, request: &Request, json: bool) -> Result<()> {
    let project = Project::discover(&ctx.cwd)?;
    let interactive = !json && super::confirm::interactive();
    // Issue 21: held from reading the plan's inputs to the last write (a
    // preview, or a refusal to run unconfirmed, writes nothing, not even the
    // lock file).
    let _lock = if request.dry_run || !(request.yes || interactive) {
        None
    } else {
        Some(journal::lock(&project, "reset")?)
    };
    journal::refuse_if_pending(&project)?;
    if !request.dry_run {
        // D15: never reset in the middle of a conflict (it leaves the conflict-refused event).
        crate::commands::conflicts::refuse_during_conflict(ctx, &project, "reset")?;
    }
    let plan = preview(&project, request)?;
    let root = project.root().display().to_string();
    let view = ctx.path_view(&project);
    let w = |e: std::io::Error| Error::io("<stderr>", e);
    if plan.ops.is_empty() {
        writeln!(
            ctx.err,
            "STANDARDS in {root} is already a fresh {} workflow; nothing to reset.",
            plan.mode.to_string().to_lowercase()
        )
        .map_err(w)?;
        if json {
            let value = result_json(&plan, None, request.dry_run);
            super::print_result(ctx.out, true, "", value)?;
        }
        return Ok(());
    }
    if request.dry_run {
        if json {
            let value = result_json(&plan, None, true);
            return super::print_result(ctx.out, true, "", value);
        }
        print_plan(ctx, &view, &plan, &root, None, true)?;
        return Ok(());
    }
    if !request.yes {
        if !interactive {
            return Err(Error::refused(
                format!(
                    "reset deletes workflow data and needs confirmation{}; outside a terminal nothing can ask",
                    match plan.cycle.as_ref().filter(|c| c.active) {
                        Some(c) => format!(" (cycle `{}` is active in `{}`)", c.id, c.state),
                        None => String::new(),
                    }
                ),
                Some(format!(
                    "preview with `git standards reset --dry-run`, then run `{}`",
                    command_line(&plan, request)
                )),
            ));
        }
        print_plan(ctx, &view, &plan, &root, None, true)?;
        let question = format!("Reset STANDARDS in {root}? [y/N] ");
        if !super::confirm::ask(ctx.err, &mut std::io::stdin().lock(), &question)? {
            writeln!(ctx.err, "Reset cancelled; no files were changed.").map_err(w)?;
            return Ok(());
        }
    }
    let outcome = apply(ctx, &project, plan, request)?;
    if json {
        let value = result_json(&outcome.plan, Some(&outcome), false);
        return super::print_result(ctx.out, true, "", value);
    }
    print_plan(ctx, &view, &outcome.plan, &root, Some(&outcome), false)
}

/// Archives, then applies the plan through the journal (and commits it with
/// `--commit`), then appends the audit events. No prompt: the caller has the
/// user's approval.
pub fn apply(
    _ctx: &mut Context,
    project: &Project,
    plan: Plan,
    request: &Request,
) -> Result<Outcome> {
    let _lock = journal::lock(project, "reset")?;
    journal::refuse_if_pending(project)?;
    let commit_base = if request.commit {
        Some(commit_base(project, &plan)?)
    } else {
        None
    };
    let name = plan
        .cycle
        .as_ref()
        .map(|c| c.id.clone())
        .filter(|id| archive::valid_name(id))
        .unwrap_or_else(|| archive::timestamp_name("reset"));
    let archived = archive::store(project, &name, "reset")?;
    failpoint::hit("reset:archived");
    let mut changes: Vec<Change> = plan
        .ops
        .iter()
        .map(|op| match op {
            Op::Remove { path } => Change::remove(path.clone()),
            Op::Write { path, content } => Change::write(path.clone(), content.as_bytes()),
        })
        .collect();
    let mut commit = None;
    if let Some(base) = commit_base {
        let (index, head_ref, old, new) = commit_changes(project, &plan, &archived, base)?;
        changes.push(Change::WriteGitFile {
            name: "index".into(),
            content: index,
        });
        changes.push(Change::MoveRef {
            name: head_ref,
            old: Some(old),
            new,
        });
        commit = Some(new);
    }
    let cycle = plan.cycle.as_ref().map(|c| c.id.as_str());
    let archived_event = archived_event(&archived, "reset", cycle);
    let mut event = Event::new(EventKind::Reset)
        .detail("archive", archived.reference.clone())
        .detail("archive_commit", archived.commit.to_string())
        .detail("mode", plan.mode.to_string())
        .detail(
            "removed",
            plan.ops
                .iter()
                .filter(|op| matches!(op, Op::Remove { .. }))
                .map(|op| op.path().to_string())
                .collect::<Vec<_>>(),
        )
        .detail("records", plan.records);
    if let Some(c) = &plan.cycle {
        event = event.cycle(c.id.clone()).state_change(
            c.state.clone(),
            if plan.mode == ProjectMode::Greenfield {
                "SCOPING"
            } else {
                "AUDITING"
            },
        );
    }
    if let Some(c) = commit {
        event = event.detail("reset_commit", c.to_string());
    }
    // Issue 21: the events are the journal's last steps, so a reset that
    // landed has them after any crash and `recover`, exactly once.
    changes.push(audit::journalled(project, archived_event).0);
    changes.push(audit::journalled(project, event).0);
    journal::write_all(
        project,
        "reset",
        changes,
        serde_json::json!({
            "archive": archived.at(),
            "cycle": plan.cycle.as_ref().map(|c| c.id.clone()),
            "mode": plan.mode.to_string(),
        }),
    )?;
    Ok(Outcome {
        plan,
        archive: Some(archived),
        commit,
    })
}

/// The `archived` event of reset and uninstall (journalled with their writes).
pub(crate) fn archived_event(archived: &Archived, operation: &str, cycle: Option<&str>) -> Event {
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

/// HEAD's commit, checked for `--commit`: HEAD has a commit, nothing outside
/// the reset's paths is staged, and the index has no unmerged entries.
fn commit_base(project: &Project, plan: &Plan) -> Result<gix::ObjectId> {
    let repo = project.gix_repo();
    let head = repo.head_id().map_err(|_| {
        Error::refused(
            "refusing to reset with --commit: HEAD has no commit yet",
            Some("commit the installation first, or reset without --commit".to_string()),
        )
    })?;
    let head_files = tree_files(repo, head.detach())?;
    let index = repo
        .index_or_empty()
        .map_err(|e| Error::Git(format!("cannot read the index: {e}")))?;
    let mut staged = std::collections::BTreeMap::new();
    for e in index.entries() {
        let path = e.path(&index).to_string();
        if e.stage_raw() != 0 {
            return Err(Error::refused(
                format!("refusing to reset with --commit: `{path}` is unmerged"),
                Some("finish the merge first".to_string()),
            ));
        }
        staged.insert(path, (e.id, e.mode.bits()));
    }
    let ours = |p: &str| {
        plan.ops.iter().any(|op| {
            let full = project.repo_path(op.path());
            p == full || p.starts_with(&format!("{full}/"))
        })
    };
    let mut others: Vec<String> = Vec::new();
    for (path, entry) in &staged {
        if !ours(path) && head_files.get(path) != Some(entry) {
            others.push(path.clone());
        }
    }
    for path in head_files.keys() {
        if !ours(path) && !staged.contains_key(path) {
            others.push(path.clone());
        }
    }
    if !others.is_empty() {
        others.sort();
        others.dedup();
        return Err(Error::refused(
            format!(
                "refusing to reset with --commit: other changes are staged ({}); the reset commit holds only the paths it changes",
                others.iter().take(5).map(|p| format!("`{p}`")).collect::<Vec<_>>().join(", ")
            ),
            Some("commit or unstage them (`git restore --staged <path>`) first, or reset without --commit".to_string()),
        ));
    }
    Ok(head.detach())
}

/// Every blob path of a commit's tree with its id and mode bits.
fn tree_files(
    repo: &gix::Repository,
    commit: gix::ObjectId,
) -> Result<std::collections::BTreeMap<String, (gix::ObjectId, u32)>> {
    let git = |e: &dyn std::fmt::Display| Error::Git(format!("cannot read HEAD: {e}"));
    let tree = repo
        .find_commit(commit)
        .map_err(|e| git(&e))?
        .tree()
        .map_err(|e| git(&e))?;
    let mut recorder = gix::traverse::tree::Recorder::default();
    tree.traverse()
        .breadthfirst(&mut recorder)
        .map_err(|e| git(&e))?;
    Ok(recorder
        .records
        .into_iter()
        .filter(|r| !r.mode.is_tree())
        .map(|r| (r.filepath.to_string(), (r.oid, u32::from(r.mode.value()))))
        .collect())
}

/// The reset commit and the index that matches it: HEAD's tree and the index
/// with the planned removals and writes, nothing else.
fn commit_changes(
    project: &Project,
    plan: &Plan,
    archived: &Archived,
    head: gix::ObjectId,
) -> Result<(Vec<u8>, String, gix::ObjectId, gix::ObjectId)> {
    let repo = project.gix_repo();
    let git = |what: &str, e: &dyn std::fmt::Display| Error::Git(format!("{what}: {e}"));
    let head_tree = repo
        .find_commit(head)
        .map_err(|e| git("cannot read HEAD", &e))?
        .tree_id()
        .map_err(|e| git("cannot read HEAD", &e))?
        .detach();
    let mut editor = repo
        .edit_tree(head_tree)
        .map_err(|e| git("cannot edit HEAD's tree", &e))?;
    let snapshot = repo
        .index_or_empty()
        .map_err(|e| git("cannot read the index", &e))?;
    let mut index: gix::index::File = (**snapshot).clone();
    let mut blobs = Vec::new();
    for op in &plan.ops {
        let full = project.repo_path(op.path());
        match op {
            Op::Remove { .. } => {
                editor
                    .remove(full.as_str())
                    .map_err(|e| git("cannot edit HEAD's tree", &e))?;
            }
            Op::Write { content, .. } => {
                let id = repo
                    .write_blob(content.as_bytes())
                    .map_err(|e| git("cannot write a blob", &e))?
                    .detach();
                editor
                    .upsert(full.as_str(), gix::objs::tree::EntryKind::Blob, id)
                    .map_err(|e| git("cannot edit HEAD's tree", &e))?;
                blobs.push((full.clone(), id));
            }
        }
        index.remove_entries(|_, path, _| {
            let p = path.to_string();
            p == full || p.starts_with(&format!("{full}/"))
        });
    }
    for (path, id) in &blobs {
        index.dangerously_push_entry(
            Default::default(),
            *id,
            gix::index::entry::Flags::empty(),
            gix::index::entry::Mode::FILE,
            path.as_str().into(),
        );
    }
    index.sort_entries();
    // The cached trees no longer match the entries (gix writes them as they are).
    index.remove_tree();
    let tree = editor
        .write()
        .map_err(|e| git("cannot write the reset tree", &e))?
        .detach();
    let cycle = plan
        .cycle
        .as_ref()
        .map_or("none".to_string(), |c| c.id.clone());
    let message = format!(
        "standards: reset the workflow to a fresh {} installation\n\nStandards-Reset: {cycle}\nStandards-Archive: {}\n",
        plan.mode.to_string().to_lowercase(),
        archived.at()
    );
    let sig = archive::signature(repo);
    let commit = gix::objs::Commit {
        tree,
        parents: [head].into_iter().collect(),
        author: sig.clone(),
        committer: sig,
        encoding: None,
        message: message.into(),
        extra_headers: Vec::new(),
    };
    let new = repo
        .write_object(&commit)
        .map_err(|e| git("cannot write the reset commit", &e))?
        .detach();
    let head_ref = match repo.head_name() {
        Ok(Some(name)) => name.as_bstr().to_string(),
        _ => "HEAD".to_string(),
    };
    let mut bytes = Vec::new();
    index
        .write_to(&mut bytes, gix::index::write::Options::default())
        .map_err(|e| git("cannot write the index", &e))?;
    Ok((bytes, head_ref, head, new))
}

fn print_plan(
    ctx: &mut Context,
    view: &PathView,
    plan: &Plan,
    root: &str,
    outcome: Option<&Outcome>,
    preview: bool,
) -> Result<()> {
    let out = &mut *ctx.out;
    let w = Error::stdout;
    writeln!(
        out,
        "{} STANDARDS in {root}",
        if preview { "Would reset" } else { "Reset" }
    )
    .map_err(w)?;
    writeln!(
        out,
        "Mode: {}; {} paths: {}",
        plan.mode,
        if preview { "planned" } else { "changed" },
        plan.ops.len()
    )
    .map_err(w)?;
    writeln!(
        out,
        "Cycle records: {}; cycle: {}",
        plan.records,
        match &plan.cycle {
            None => "none".to_string(),
            Some(c) => format!(
                "`{}` ({}, {})",
                c.id,
                c.state,
                if c.active { "active" } else { "finished" }
            ),
        }
    )
    .map_err(w)?;
    for op in &plan.ops {
        let verb = match (op, preview) {
            (Op::Remove { .. }, true) => "Remove",
            (Op::Remove { .. }, false) => "Removed",
            (Op::Write { .. }, true) => "Write",
            (Op::Write { .. }, false) => "Wrote",
        };
        writeln!(out, "{verb}: {}", view.show(op.path())).map_err(w)?;
    }
    if preview {
        for d in &plan.diffs {
            write!(out, "{d}").map_err(w)?;
        }
        writeln!(
            out,
            "This was a preview: no file, ref, note or setting changed."
        )
        .map_err(w)?;
    } else {
        if let Some(a) = outcome.and_then(|o| o.archive.as_ref()) {
            writeln!(out, "Archive: {}", a.at()).map_err(w)?;
        }
        if let Some(c) = outcome.and_then(|o| o.commit) {
            writeln!(out, "Commit: {c}").map_err(w)?;
        }
        writeln!(
            out,
            "The workflow starts fresh; skills, hooks, client settings and user styles were kept."
        )
        .map_err(w)?;
    }
    for warning in plan
        .warnings
        .iter()
        .cloned()
        .chain(records_warning(plan, !preview))
    {
        writeln!(ctx.err, "Warning: {warning}").map_err(|e| Error::io("<stderr>", e))?;
    }
    if let Some(a) = outcome.and_then(|o| o.archive.as_ref()) {
        writeln!(
            ctx.err,
            "Archived the previous .standards/ ({} files) as {}; `git standards archive show {}` reads it back.",
            a.files,
            a.reference,
            a.reference.trim_start_matches(archive::PREFIX)
        )
        .map_err(|e| Error::io("<stderr>", e))?;
    }
    Ok(())
}
