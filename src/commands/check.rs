//! `git standards check`: every protocol rule on a snapshot, compared with the
//! last commit.

use std::collections::BTreeMap;
use std::io::Write;

use crate::cli::style;
use crate::cli::values::ref_value;
use crate::commands::Context;
use crate::error::{Error, Result};
use crate::repo::{conflicts, scan_cache, ObjectTree, Project};
use crate::support::paths::PathView;
use crate::support::{audit, runtime as tools};
use standards_core::audit::{Event, EventKind};
use standards_core::check::{self, runtime, Options, Report};
use standards_core::model::tree::Tree;
use standards_core::records::verdicts::ContentCache;

#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// Print the result as JSON.
    #[arg(long, conflicts_with = "quiet")]
    pub json: bool,
    /// Print only the summary line; the exit status tells the result.
    #[arg(short, long)]
    pub quiet: bool,
    /// Check the index (what the next commit will hold) instead of the working tree.
    #[arg(long, conflicts_with = "rev")]
    pub staged: bool,
    /// Check a commit, branch or tag (read without a checkout), compared with its first parent.
    #[arg(long = "ref", value_name = "rev", value_parser = ref_value)]
    pub rev: Option<String>,
    /// With `--ref` in a shallow clone whose commit's parent was not fetched:
    /// check without the history rules instead of refusing.
    #[arg(long)]
    pub allow_shallow: bool,
    /// Report only the reference checker's rules (as the Node runtime did), leaving out the protocol rules it never enforced (the PR family).
    #[arg(long)]
    pub compat: bool,
    /// Name the git hook that runs this check (the scripts in `git-hooks/` pass `pre-commit` or `pre-merge-commit`): when problems are found, a `check-failed` event is recorded in the audit trail.
    #[arg(long, value_name = "name", value_parser = ref_value)]
    pub hook: Option<String>,
}

/// Which snapshot to check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// The working tree, compared with HEAD.
    Worktree,
    /// The index (what the next commit holds), compared with HEAD: the pre-commit check.
    Staged,
    /// A commit, compared with its first parent.
    Rev(String),
}

#[derive(Debug, Clone)]
pub struct Request {
    pub source: Source,
    pub json: bool,
    /// Only the summary line (and the exit status).
    pub quiet: bool,
    pub options: Options,
    /// With `--ref` in a shallow clone: check without the history rules when
    /// the commit's parent was not fetched, instead of refusing.
    pub allow_shallow: bool,
    /// The git hook running the check (`--hook`): a failed check then leaves
    /// a `check-failed` audit event.
    pub hook: Option<String>,
}

/// Runs the checker on the chosen snapshot and returns its report and a description.
pub fn evaluate(
    project: &Project,
    source: &Source,
    options: Options,
) -> Result<(Report, String, Option<String>)> {
    evaluate_with(project, source, options, false)
}

/// The commit `rev`'s first parent as a snapshot: `None` for a root commit; a
/// refusal when the parent is missing, because the clone is shallow (unless
/// `allow_shallow`) or the object database is damaged. Skipping the history
/// rules silently would pass a deleted acceptance ID (issue 7, item 5).
fn first_parent(project: &Project, rev: &str, allow_shallow: bool) -> Result<Option<ObjectTree>> {
    let Some(parent) = crate::repo::refs::first_parent_of(project, rev) else {
        return Ok(None);
    };
    match project.at_rev(&parent.to_string()) {
        Ok(tree) => Ok(Some(tree)),
        Err(_) if allow_shallow => Ok(None),
        Err(_) if crate::repo::refs::is_shallow(project) => Err(Error::refused(
            format!("cannot compare `{rev}` with its parent {}: this clone is shallow and the parent was not fetched, so the history rules cannot run", parent.to_hex_with_len(7)),
            Some("fetch more history (`git fetch --deepen=1`, or `--unshallow`), or pass `--allow-shallow` to check without the history rules".to_string()),
        )),
        Err(e) => Err(Error::refused(
            format!("cannot read the parent {} of `{rev}`: {e}", parent.to_hex_with_len(7)),
            Some("the object database is damaged; run `git fsck` to find the missing objects".to_string()),
        )),
    }
}

/// [`evaluate`], choosing what a missing parent commit means.
pub fn evaluate_with(
    project: &Project,
    source: &Source,
    options: Options,
    allow_shallow: bool,
) -> Result<(Report, String, Option<String>)> {
    // What earlier runs found plain is not read again (issue 14).
    let verdicts = scan_cache::load(project)?;
    let checked = evaluate_cached(project, source, options, allow_shallow, &verdicts)?;
    scan_cache::store(project, &verdicts);
    Ok(checked)
}

/// [`evaluate_with`] with the scan cache the caller loaded, and keeps: the
/// board checks many tips in one run, loading and keeping the cache once
/// instead of once per tip.
pub fn evaluate_cached(
    project: &Project,
    source: &Source,
    options: Options,
    allow_shallow: bool,
    verdicts: &ContentCache,
) -> Result<(Report, String, Option<String>)> {
    let run = |tree: &dyn Tree, head: Option<&ObjectTree>| -> Result<Report> {
        if !runtime::installed(tree) {
            // RT-000, said for the snapshot that lacks it.
            return Err(match source {
                Source::Worktree => Error::NotInstalled { root: project.root().to_path_buf() },
                Source::Staged => Error::refused(
                    "the index holds no STANDARDS runtime: `.standards/PROTOCOL.md` with the framework marker is not staged",
                    Some("stage the runtime with `git add .standards`, or check the working tree (without `--staged`)".to_string()),
                ),
                Source::Rev(rev) => Error::refused(
                    format!("{} holds no STANDARDS runtime: it has no `.standards/PROTOCOL.md` with the framework marker", tree.describe()),
                    Some(format!("check a commit made after the runtime was installed; `{rev}` predates it or lies on another line of history")),
                ),
            });
        }
        Ok(check::run_cached(
            tree,
            head.map(|h| h as &dyn Tree),
            options,
            Some(verdicts),
        ))
    };
    let (mut report, described, against) = evaluate_snapshot(project, source, &run, allow_shallow)?;
    restore_hints(project, source, &mut report)?;
    if *source == Source::Staged {
        // Issue 22, item 5: a line-merged STATE.md, whatever merged it.
        report
            .problems
            .extend(crate::commands::merge_guard::staged_line_merge(project)?);
    }
    Ok((report, described, against))
}

/// Each RT-001 hint names the command that brings the file back from where
/// git holds it, which only the repository knows (the index is no part of a
/// working-tree check).
fn restore_hints(project: &Project, source: &Source, report: &mut Report) -> Result<()> {
    use runtime::{missing_file_hint, HeldBy, Snapshot};
    if !report.problems.iter().any(|p| p.rule == "RT-001") {
        return Ok(());
    }
    let head = project.head()?;
    let in_head = |path: &str| head.as_ref().is_some_and(|h| h.exists(path));
    let (snapshot, index, worktree) = match source {
        Source::Worktree => (Snapshot::Worktree, Some(project.index()?), None),
        Source::Staged => (Snapshot::Index, None, Some(project.worktree()?)),
        Source::Rev(_) => (Snapshot::Commit, None, None),
    };
    let records = match source {
        Source::Worktree => runtime::has_records(&project.worktree()?),
        Source::Staged => runtime::has_records(&project.index()?),
        Source::Rev(_) => false,
    };
    for problem in report.problems.iter_mut().filter(|p| p.rule == "RT-001") {
        let path = problem.file.as_str();
        let held = if index.as_ref().is_some_and(|i| i.exists(path)) {
            HeldBy::Index
        } else if in_head(path) {
            HeldBy::Head
        } else if worktree.as_ref().is_some_and(|w| w.exists(path)) {
            HeldBy::Worktree
        } else {
            HeldBy::Nothing
        };
        problem.hint = Some(missing_file_hint(path, snapshot, held, records));
    }
    Ok(())
}

/// Checks one snapshot against the commit it is compared with.
type CheckOne<'a> = dyn Fn(&dyn Tree, Option<&ObjectTree>) -> Result<Report> + 'a;

/// The report of the chosen snapshot, before the repository refines its hints.
fn evaluate_snapshot(
    project: &Project,
    source: &Source,
    run: &CheckOne,
    allow_shallow: bool,
) -> Result<(Report, String, Option<String>)> {
    match source {
        Source::Worktree => {
            let tree = project.worktree()?;
            // The index is not held while the files are read (issue 27).
            tree.lean();
            if !runtime::installed(&tree) {
                // Committed but absent from the working tree: restore, never reinstall.
                if let Some(source) = crate::support::runtime::committed_runtime(project, &tree)? {
                    return Err(crate::support::runtime::absent_runtime(&source));
                }
            }
            let head = project.head()?;
            let against = head.as_ref().map(|h| h.describe());
            Ok((run(&tree, head.as_ref())?, tree.describe(), against))
        }
        Source::Staged => {
            let tree = project.index()?;
            // The index is not held while the blobs are read (issue 27).
            tree.lean();
            let head = project.head()?;
            let against = head.as_ref().map(|h| h.describe());
            Ok((run(&tree, head.as_ref())?, tree.describe(), against))
        }
        Source::Rev(rev) => {
            let tree = project.at_rev(rev)?;
            // The checked commit is walked now, so a damaged tree is a
            // refusal; the parent is read only where the history rules look.
            tree.load()?;
            let parent = first_parent(project, rev, allow_shallow)?;
            let against = parent.as_ref().map(|h| h.describe());
            Ok((run(&tree, parent.as_ref())?, tree.describe(), against))
        }
    }
}

pub fn run(ctx: &mut Context, request: &Request) -> Result<()> {
    let mut project = Project::discover(&ctx.cwd)?;
    project.trust_index_checksum();
    let result = run_project(ctx, &project, request);
    crate::repo::reads::report(ctx.err);
    result
}

/// [`run`] on a project already opened (the pre-commit hook checks each
/// project of the repository through one opened repository).
pub fn run_project(ctx: &mut Context, project: &Project, request: &Request) -> Result<()> {
    let (report, source, against) = evaluate_with(
        project,
        &request.source,
        request.options,
        request.allow_shallow,
    )
    .map_err(|e| {
        let snapshot = match &request.source {
            Source::Worktree => tools::Snapshot::Worktree,
            Source::Staged => tools::Snapshot::Index,
            Source::Rev(rev) => tools::Snapshot::Rev(rev),
        };
        let flag = snapshot.flag();
        let json = if request.json { " --json" } else { "" };
        tools::projects_elsewhere(
            &ctx.cwd,
            project,
            snapshot,
            &format!("check{flag}{json}"),
            e,
        )
    })?;
    let conflict = conflict_report(project, &request.source, &report)?;
    if request.json {
        print_json(
            ctx.out,
            &report,
            &source,
            against.as_deref(),
            conflict.as_ref(),
            request.options,
        )?;
    } else if request.quiet {
        print_summary(ctx.out, &report, &source, ctx.color)?;
    } else {
        // An operation in progress without a conflict is only in the JSON: the
        // pre-commit hook that concludes a merge runs this very check.
        let view = ctx.path_view(project);
        if let Some(conflict) = conflict.as_ref().filter(|c| !c.conflicts.is_empty()) {
            for line in conflict.report_lines_shown(&|p| view.show(p)) {
                writeln!(ctx.out, "{line}").map_err(out_err)?;
            }
        }
        print_text_in(ctx.out, &report, &source, ctx.color, &view)?;
    }
    if report.ok() {
        Ok(())
    } else {
        if let Some(hook) = &request.hook {
            record_failure(ctx, project, request, hook, &report, &source);
        }
        Err(Error::ProblemsFound {
            count: report.problems.len(),
        })
    }
}

/// The conflict report printed before the problems (issue 10): both sides'
/// cycles and the operation in progress. Only read when the report names a
/// conflict or git has an operation in progress, so a clean check pays nothing.
fn conflict_report(
    project: &Project,
    source: &Source,
    report: &Report,
) -> Result<Option<conflicts::ConflictState>> {
    let flagged = report
        .problems
        .iter()
        .any(|p| p.rule == "RT-003" || p.rule == "RT-004");
    if !flagged && !crate::repo::refs::operation_in_progress(project) {
        return Ok(None);
    }
    let state = match source {
        Source::Worktree => conflicts::state_of(project, &project.worktree()?)?,
        Source::Staged => conflicts::state_of(project, &project.index()?)?,
        Source::Rev(_) => return Ok(None),
    };
    Ok((!state.is_empty()).then_some(state))
}

/// The `check-failed` event of a git hook's check (D20: after the report).
fn record_failure(
    ctx: &mut Context,
    project: &Project,
    request: &Request,
    hook: &str,
    report: &Report,
    source: &str,
) {
    let mut rules: Vec<&str> = report.problems.iter().map(|p| p.rule).collect();
    rules.sort_unstable();
    rules.dedup();
    let cycle = match &request.source {
        Source::Worktree => project
            .worktree()
            .ok()
            .and_then(|t| audit::active_cycle(&t)),
        Source::Staged => project.index().ok().and_then(|t| audit::active_cycle(&t)),
        Source::Rev(rev) => project
            .at_rev(rev)
            .ok()
            .and_then(|t| audit::active_cycle(&t)),
    };
    let mut event = Event::new(EventKind::CheckFailed)
        .detail("hook", hook)
        .detail("source", source)
        .detail("problems", report.problems.len())
        .detail("rules", rules);
    if let Some(cycle) = cycle {
        event = event.cycle(cycle);
    }
    audit::append_after(ctx, project, event);
}

fn out_err(e: std::io::Error) -> Error {
    Error::io("<stdout>", e)
}

/// Text: problems grouped by file as `file: message` (with an indented hint,
/// given once per file and rule when the same hint repeats), then notes, then
/// one summary line.
pub fn print_text(out: &mut dyn Write, report: &Report, source: &str, color: bool) -> Result<()> {
    print_text_in(out, report, source, color, &PathView::identity())
}

/// [`print_text`] with the files shown through `view` (relative to the
/// current folder).
pub fn print_text_in(
    out: &mut dyn Write,
    report: &Report,
    source: &str,
    color: bool,
    view: &PathView,
) -> Result<()> {
    let by_file = by_file(report);
    let (bold, reset) = style::codes(style::HEADING, color);
    for (file, problems) in &by_file {
        let mut hinted: Vec<(&str, &str)> = Vec::new();
        for (i, p) in problems.iter().enumerate() {
            let file = view.show(file);
            writeln!(out, "{bold}{file}{reset}: {} [{}]", p.message, p.rule).map_err(out_err)?;
            let Some(hint) = &p.hint else { continue };
            // The same rule's same hint is printed once, after its last problem in the file.
            let repeats_later = problems[i + 1..]
                .iter()
                .any(|q| q.rule == p.rule && q.hint.as_deref() == Some(hint.as_str()));
            if repeats_later || hinted.contains(&(p.rule, hint.as_str())) {
                continue;
            }
            hinted.push((p.rule, hint.as_str()));
            writeln!(out, "    hint: {}", view.runnable(hint)).map_err(out_err)?;
        }
    }
    for note in &report.notes {
        writeln!(out, "note: {note}").map_err(out_err)?;
    }
    print_summary(out, report, source, color)
}

fn by_file(report: &Report) -> BTreeMap<&str, Vec<&check::Problem>> {
    let mut by_file: BTreeMap<&str, Vec<&check::Problem>> = BTreeMap::new();
    for p in &report.problems {
        by_file.entry(p.file.as_str()).or_default().push(p);
    }
    by_file
}

/// The one summary line: `check passed: ...` or, in red on a terminal,
/// `check failed: N problems in M files (...)`.
pub fn print_summary(
    out: &mut dyn Write,
    report: &Report,
    source: &str,
    color: bool,
) -> Result<()> {
    let n = report.problems.len();
    if n == 0 {
        return writeln!(out, "check passed: no problems in {source}").map_err(out_err);
    }
    let files = by_file(report).len();
    let (red, reset) = style::codes(style::ERROR, color);
    writeln!(
        out,
        "{red}check failed{reset}: {n} problem{} in {files} file{} ({source})",
        if n == 1 { "" } else { "s" },
        if files == 1 { "" } else { "s" }
    )
    .map_err(out_err)
}

/// JSON: `{ "ok", "conflict", "problems": [{rule, file, line (when the rule names one), message, source, hint}], "notes", "checked": {...} }`.
pub fn print_json(
    out: &mut dyn Write,
    report: &Report,
    source: &str,
    against: Option<&str>,
    conflict: Option<&conflicts::ConflictState>,
    options: Options,
) -> Result<()> {
    let value = serde_json::json!({
        "ok": report.ok(),
        "conflict": conflict.map(|c| c.to_json()),
        "problems": report.problems,
        "notes": report.notes,
        "checked": {
            "source": source,
            "comparedWith": against,
            "rules": check::registry_for(options).len(),
            "compat": options.compat,
        },
    });
    let text = serde_json::to_string_pretty(&value).map_err(|e| Error::Internal(e.to_string()))?;
    writeln!(out, "{text}").map_err(out_err)
}
