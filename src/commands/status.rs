//! `git standards status`: a dashboard of the workflow state held by one
//! snapshot (the working tree, the index or any commit). It reads the snapshot,
//! lets [`summary::summarize`] decide what to show, and formats the result.

use std::io::Write;
use std::path::Path;

use serde::Serialize;

use crate::cli::style;
use crate::cli::values::ref_value;
use crate::commands::Context;
use crate::error::{Error, Result};
use crate::repo::{config as repo_config, conflicts as repo_conflicts, Project};
use crate::support::paths::PathView;
use crate::support::runtime;
use standards_core::model::layout::{MARKER, MODE_PATH, PROTOCOL_PATH, STANDARDS_DIR, STATE_PATH};
use standards_core::model::mode;
use standards_core::model::state::StateDoc;
use standards_core::model::tree::{Node, Text, Tree};
use standards_core::model::vocab::Role;
use standards_core::setup::fresh;
use standards_core::workflow::conflicts;
use standards_core::workflow::next::{self, BranchContext};
use standards_core::workflow::summary::{self, Summary};

/// The keys of `status --json`, printed after the options in `git standards status --help` and the man page.
pub const JSON_HELP: &str = r#"STATUS JSON

`git standards status --json` prints one JSON object; on success it has all the keys below. Vocabulary values keep the protocol's spelling, `UNSET` and `NONE` included; free-text and path fields are null where STATE.md says `NONE` or `UNSET`.

ok: true. When the status cannot be shown, the object is {"ok": false, "error": "<message>", "hint": "<what to do>" or null} and the exit status is 1 (or 3); when STATE.md or MODE.md is in a merge conflict it also has "conflict", the same object as in `git standards check --json`, naming both sides' cycle, request and workflow state; run at the top of a repository whose projects live only in subfolders, it has "projects": [{"folder": "<folder, relative to the repository's top>", "command": "git standards -C <folder> ..."}] (`git standards check --json` too).

source: the snapshot read: "the working tree", "the index", or "commit <short id> (`<rev>`)".

commit: the full commit ID with --ref, else null.

projectMode: GREENFIELD or BROWNFIELD from MODE.md; null when MODE.md is missing or invalid (the reason is in problems).

workflowState, owner: the workflow state and the role that acts in it (Scoper, Architect, Auditor, Developer, Tester, Reviewer, Documenter, Synchronizer, or user).

cycleMode, completionPolicy: the cycle's mode and completion policy.

pendingCycle: {mode, request, blockedOn}: the next-cycle preference and the blocked next-cycle request with its question.

activeWork: {id, request, scope, architecture, development, blockedOn, promotionReason, auditTarget, pendingVerificationCadence}, or null when no cycle is active.

lastCycle: {id, request, outcome} of the cycle that a terminal state (outcome SIGNED_OFF or CANCELLED) ended, else null.

handoff: {kind, from, failureType, reason}: the last handoff, as written.

recovery: the recovery frames, newest (the active one) first: [{frame, from, owner, ownerRole, failureType, reason, resumeAt, rerunThrough}]; a field missing from the file is null.

obligations: the outstanding obligations: [{obligation, owner, ownerRole, failureType, reason}].

baselineReconciliation: the cancelled cycles awaiting baseline reconciliation: [{sourceCycle, request}].

problems: what is wrong but did not stop the report, as "file:line: message" strings.

next: {owner, state, invocation, userOptions, blockedBy}: the role that owns the current state ("user" when the user decides), its invocation {skill, heading, codex, claudeCode} for Codex (`$skill ...`) and Claude Code (`/skill ...`) or null, the user's options [{action, command, then}] at AWAITING_USER_SIGNOFF or without a cycle (`then`, when present, is what follows the command: a reset before merging a branch other than the main one), and what blocks the work (a user question, an open recovery frame, outstanding obligations, merge conflicts) as sentences."#;

#[derive(Debug, clap::Args)]
pub struct StatusArgs {
    /// Read the index (what the next commit will hold) instead of the working tree.
    #[arg(long, conflicts_with = "rev")]
    pub staged: bool,
    /// Read a commit, branch or tag from the object database, without a checkout.
    #[arg(long = "ref", value_name = "rev", value_parser = ref_value)]
    pub rev: Option<String>,
    /// Print one JSON object (keys: STATUS JSON below) instead of the dashboard.
    #[arg(long, conflicts_with = "quiet")]
    pub json: bool,
    /// Print one line (the workflow state, its owner and the cycle) instead of the dashboard.
    #[arg(short, long)]
    pub quiet: bool,
}

/// Which snapshot to read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// The files on disk.
    Worktree,
    /// The staged content.
    Index,
    /// A commit, branch or tag, read from the object database.
    Rev(String),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
    /// One line: the state, its owner and the cycle (`-q`).
    Line,
}

/// A validated status request.
#[derive(Debug, Clone)]
pub struct Request {
    pub source: Source,
    pub format: Format,
}

/// Runs `status`.
pub fn run(ctx: &mut Context, request: &Request) -> Result<()> {
    let mut project = Project::discover(&ctx.cwd)?;
    project.trust_index_checksum();
    let summary = summary_of(ctx, &project, request).map_err(|e| {
        let snapshot = match &request.source {
            Source::Worktree => runtime::Snapshot::Worktree,
            Source::Index => runtime::Snapshot::Index,
            Source::Rev(rev) => runtime::Snapshot::Rev(rev),
        };
        let flag = snapshot.flag();
        let format = match request.format {
            Format::Text => "",
            Format::Json => " --json",
            Format::Line => " -q",
        };
        runtime::projects_elsewhere(
            &ctx.cwd,
            &project,
            snapshot,
            &format!("status{flag}{format}"),
            e,
        )
    })?;
    match request.format {
        Format::Text => {
            let view = ctx.path_view(&project);
            write_text_in(ctx.out, &summary, ctx.color, &view)
        }
        Format::Json => write_json(ctx.out, &summary),
        Format::Line => write_line(ctx.out, &summary),
    }
    .map_err(Error::stdout)
}

/// The summary of the chosen snapshot, or the refusal that explains why
/// there is none.
fn summary_of(ctx: &mut Context, project: &Project, request: &Request) -> Result<Summary> {
    Ok(match &request.source {
        Source::Worktree => {
            let tree = project.worktree()?;
            // Committed but absent from the working tree (a sparse checkout):
            // restore it with git, never install afresh.
            if let Some(held) = crate::support::runtime::committed_runtime(project, &tree)? {
                return Err(crate::support::runtime::absent_runtime(&held));
            }
            if standards_core::check::runtime::installed(&tree) {
                crate::support::runtime::refuse_missing_state(project, &tree)?;
            }
            let conflict = report_conflict(ctx, project, &tree, request.format)?;
            let summary = load(&tree, &request.source, None, project.root())?;
            with_branch(project, &tree, with_notice(summary, conflict))
        }
        Source::Index => {
            let tree = project.index()?;
            let conflict = report_conflict(ctx, project, &tree, request.format)?;
            let summary = load(&tree, &request.source, None, project.root())?;
            with_branch(project, &tree, with_notice(summary, conflict))
        }
        Source::Rev(rev) => {
            let tree = project.at_rev(rev)?;
            let commit = tree.commit.map(|c| c.to_string());
            load(&tree, &request.source, commit, project.root())?
        }
    })
}

/// Issue 10: a conflict is reported before anything else, naming both sides'
/// cycles (from index stages 2 and 3). A conflicted STATE.md or MODE.md
/// leaves no dashboard to show: the report is the output and status exits 1.
/// Otherwise the conflict state (if any) is returned to be listed first.
fn report_conflict(
    ctx: &mut Context,
    project: &Project,
    tree: &dyn Tree,
    format: Format,
) -> Result<Option<repo_conflicts::ConflictState>> {
    if !crate::repo::refs::operation_in_progress(project)
        && tree.unmerged().is_empty()
        && !conflicts_by_marker(tree)
    {
        return Ok(None);
    }
    let state = repo_conflicts::state_of(project, tree)?;
    if state.is_empty() {
        return Ok(None);
    }
    let fatal = state
        .conflicts
        .iter()
        .any(|c| c.path == STATE_PATH || c.path == MODE_PATH);
    if !fatal {
        return Ok(Some(state));
    }
    let message = format!(
        "cannot show the status of {}: unresolved merge conflicts in {}. {}",
        tree.describe(),
        conflicts::describe(&state.conflicts),
        state.describe().join(". ")
    );
    let hint = "stop and tell the user which cycles are involved; the user decides with `git standards resolve --keep ours` or `git standards resolve --keep theirs`";
    match format {
        // `-q`: the one refusal line on stderr names both cycles.
        Format::Line => Err(Error::refused(message, Some(hint.to_string()))),
        Format::Text => {
            let view = ctx.path_view(project);
            for line in state.report_lines_shown(&|p| view.show(p)) {
                writeln!(ctx.out, "{line}").map_err(Error::stdout)?;
            }
            Err(Error::refused(message, Some(hint.to_string())))
        }
        Format::Json => {
            let value = serde_json::json!({
                "ok": false,
                "error": message,
                "hint": hint,
                "conflict": state.to_json(),
            });
            let text =
                serde_json::to_string_pretty(&value).map_err(|e| Error::Internal(e.to_string()))?;
            writeln!(ctx.out, "{text}").map_err(Error::stdout)?;
            writeln!(ctx.err, "error: {message}\nhint: {hint}")
                .map_err(|e| Error::io("<stderr>", e))?;
            Err(Error::Exit { code: 1 })
        }
    }
}

/// Whether any `.standards/` file of `tree` holds conflict markers (cheap
/// enough for every status: STATE.md and MODE.md are read anyway).
fn conflicts_by_marker(tree: &dyn Tree) -> bool {
    [STATE_PATH, MODE_PATH]
        .iter()
        .any(|p| matches!(tree.text(p), Text::Ok(t) if conflicts::has_markers(&t)))
}

/// Lists a non-fatal conflict (a record, or an operation in progress) first
/// among the summary's problems.
fn with_notice(mut summary: Summary, conflict: Option<repo_conflicts::ConflictState>) -> Summary {
    if let Some(state) = conflict {
        if state.conflicts.is_empty() {
            let mut problems = state.report_lines();
            problems.append(&mut summary.problems);
            summary.problems = problems;
        }
    }
    summary
}

/// Issue 25, item 4: on a branch other than the main one, a finished cycle
/// whose `.standards/` is not a fresh installation is reset before merging.
/// The branch facts come from `repo/`; the decision is `next::advise`'s. A
/// branch that cannot be read (an invalid main-branch setting `check`
/// reports) gives no advice rather than no dashboard.
fn with_branch(project: &Project, tree: &dyn Tree, mut summary: Summary) -> Summary {
    let ctx = BranchContext {
        branch: repo_config::head_branch(project).unwrap_or_default(),
        fresh: fresh::judge(tree).is_fresh(),
    };
    next::advise(&mut summary.next, summary.active_work.is_some(), &ctx);
    summary
}

/// Reads STATE.md and MODE.md from `tree` and summarises them. Refuses a
/// snapshot without a runtime, with a conflicted STATE.md or MODE.md, or with a
/// STATE.md that is missing, unreadable or invalid; anything else wrong is
/// listed among the summary's problems.
pub fn load(
    tree: &dyn Tree,
    source: &Source,
    commit: Option<String>,
    root: &Path,
) -> Result<Summary> {
    let src = tree.describe();
    match tree.node(STANDARDS_DIR) {
        Node::Dir => {}
        Node::Missing => {
            return Err(match source {
                Source::Worktree => Error::NotInstalled {
                    root: root.to_path_buf(),
                },
                Source::Index => Error::refused(
                    "no STANDARDS runtime is installed in the index: it holds no `.standards/` folder",
                    Some("stage the runtime with `git add .standards`, after installing it with `git standards install` if needed".to_string()),
                ),
                Source::Rev(rev) => Error::refused(
                    format!("no STANDARDS runtime is installed in {src}: it has no `.standards/` folder"),
                    Some(format!("`{rev}` predates the installation; name a commit made after `git standards install`")),
                ),
            })
        }
        _ => {
            return Err(Error::refused(
                format!("`.standards` in {src} is not a folder, so no STANDARDS runtime can be read from it"),
                Some("move it out of the way and run `git standards install`".to_string()),
            ))
        }
    }

    let found = conflicts::find(tree);
    let (fatal, other): (Vec<_>, Vec<_>) = found
        .into_iter()
        .partition(|c| c.path == STATE_PATH || c.path == MODE_PATH);
    if !fatal.is_empty() {
        let mut all = fatal;
        all.extend(other);
        return Err(Error::refused(
            format!(
                "cannot show the status of {src}: unresolved merge conflicts in {}",
                conflicts::describe(&all)
            ),
            // The working tree and the index are reported by
            // `report_conflict` first; this is a commit holding the markers.
            Some(match source {
                Source::Rev(rev) => format!("`{rev}` was committed with conflict markers; remove them on its branch so STATE.md holds exactly one cycle, and commit the fix"),
                _ => "resolve the conflict so STATE.md holds exactly one cycle, then stage the result".to_string(),
            }),
        ));
    }
    let conflict_problems = other
        .iter()
        .map(|c| {
            format!(
                "{} has unresolved merge conflicts",
                conflicts::describe(std::slice::from_ref(c))
            )
        })
        .collect();

    let fix_hint = match source {
        Source::Worktree => format!("fix it by hand, or restore the committed version with `git restore --source=HEAD {STATE_PATH}`"),
        Source::Index => format!("fix the working copy and stage it again, or unstage it with `git restore --staged {STATE_PATH}`"),
        Source::Rev(rev) => format!("`{rev}` holds an invalid STATE.md; fix it on that branch and commit the fix"),
    };
    let state_text = match tree.text(STATE_PATH) {
        Text::Ok(text) => text,
        Text::Missing if !is_framework_owned(tree) => {
            return Err(Error::refused(
                format!("`.standards/` in {src} is not a STANDARDS runtime: it has no STATE.md and no framework-owned PROTOCOL.md"),
                Some("move the folder away if it is yours, then run `git standards install`".to_string()),
            ))
        }
        Text::Missing => {
            return Err(Error::refused(
                format!("incomplete STANDARDS runtime in {src}: `{STATE_PATH}` is missing"),
                Some(match source {
                    Source::Rev(_) => "that commit has no workflow state to show".to_string(),
                    _ => format!(
                        "restore it from history with `git restore --source=HEAD {STATE_PATH}`"
                    ),
                }),
            ))
        }
        Text::Unreadable(why) => {
            return Err(Error::refused(
                format!("cannot read `{STATE_PATH}` from {src}: {why}"),
                Some(format!("STATE.md must be UTF-8 text; {fix_hint}")),
            ))
        }
    };
    let doc = StateDoc::parse(&state_text).map_err(|e| {
        Error::refused(
            format!("STATE.md in {src} is invalid ({}): {e}", e.rule),
            Some(fix_hint.clone()),
        )
    })?;
    let project_mode = match tree.text(MODE_PATH) {
        Text::Ok(text) => mode::parse(&text).map_err(|e| e.to_string()),
        Text::Missing => Err(format!("{MODE_PATH}: the file is missing")),
        Text::Unreadable(why) => Err(format!("{MODE_PATH}: cannot be read: {why}")),
    };
    let mut summary = summary::summarize(&src, commit, &doc, project_mode, conflict_problems);
    if standards_core::setup::plugins::claude_plugin_in(tree) {
        summary.next.with_claude_plugin();
    }
    Ok(summary)
}

fn is_framework_owned(tree: &dyn Tree) -> bool {
    matches!(tree.text(PROTOCOL_PATH), Text::Ok(text) if text.contains(MARKER))
}

/// The `--json` form: `{"ok": true, ...summary}`.
#[derive(Serialize)]
struct JsonOk<'a> {
    ok: bool,
    #[serde(flatten)]
    summary: &'a Summary,
}

fn write_json(out: &mut dyn Write, summary: &Summary) -> std::io::Result<()> {
    let text = serde_json::to_string_pretty(&JsonOk { ok: true, summary })
        .map_err(std::io::Error::other)?;
    writeln!(out, "{text}")
}

/// Where values start in the text form (labels are padded up to it).
const VALUE_COLUMN: usize = 22;

struct Dashboard<'a> {
    out: &'a mut dyn Write,
    color: bool,
}

impl Dashboard<'_> {
    fn heading(&mut self, title: &str) -> std::io::Result<()> {
        writeln!(
            self.out,
            "{}",
            style::paint(style::HEADING, title, self.color)
        )
    }

    fn row(&mut self, indent: usize, label: &str, value: &str) -> std::io::Result<()> {
        let pad = VALUE_COLUMN.saturating_sub(indent + 1);
        writeln!(
            self.out,
            "{:indent$}{label:<pad$} {}",
            "",
            printable(value),
            indent = indent
        )
    }

    fn line(&mut self, indent: usize, text: &str) -> std::io::Result<()> {
        writeln!(
            self.out,
            "{:indent$}{}",
            "",
            printable(text),
            indent = indent
        )
    }
}

/// The value with control characters replaced, so a STATE.md value cannot
/// drive the terminal.
fn printable(value: &str) -> String {
    value
        .chars()
        .map(|c| if c.is_control() { '\u{fffd}' } else { c })
        .collect()
}

fn or_missing(value: &Option<String>) -> &str {
    value.as_deref().unwrap_or("(missing)")
}

fn or_none(value: &Option<String>) -> &str {
    value.as_deref().unwrap_or("NONE")
}

fn with_role(state: &Option<String>, role: Option<Role>) -> String {
    match (state, role) {
        (Some(s), Some(r)) => format!("{s} ({r})"),
        (s, _) => or_missing(s).to_string(),
    }
}

fn owned_by(role: Role) -> String {
    match role {
        Role::User => "owned by the user".to_string(),
        r => format!("owned by the {r}"),
    }
}

/// `-q`: `DEVELOPING, owned by the Developer; cycle <id>` on one line.
pub fn write_line(out: &mut dyn Write, s: &Summary) -> std::io::Result<()> {
    let cycle = match (&s.active_work, &s.last_cycle) {
        (Some(w), _) => format!("cycle {}", w.id),
        (None, Some(last)) => format!("last cycle {}", last.id),
        (None, None) => "no cycle".to_string(),
    };
    writeln!(out, "{}, {}; {cycle}", s.workflow_state, owned_by(s.owner))
}

/// The human dashboard.
pub fn write_text(out: &mut dyn Write, s: &Summary, color: bool) -> std::io::Result<()> {
    write_text_in(out, s, color, &PathView::identity())
}

/// [`write_text`] with the record paths and the files that problems name
/// shown through `view` (relative to the current folder).
pub fn write_text_in(
    out: &mut dyn Write,
    s: &Summary,
    color: bool,
    view: &PathView,
) -> std::io::Result<()> {
    let mut t = Dashboard { out, color };
    let path = |value: &Option<String>| match value {
        Some(p) => view.show(p),
        None => "NONE".to_string(),
    };
    t.heading(&format!("Status of {}", s.source))?;

    writeln!(t.out)?;
    t.heading("Workflow")?;
    match s.project_mode {
        Some(m) => t.row(2, "Project mode", m.as_str())?,
        None => t.row(
            2,
            "Project mode",
            "unknown (MODE.md is invalid; see Problems)",
        )?,
    }
    t.row(
        2,
        "Workflow state",
        &format!("{}, {}", s.workflow_state, owned_by(s.owner)),
    )?;
    t.row(2, "Cycle mode", s.cycle_mode.as_str())?;
    t.row(2, "Completion policy", s.completion_policy.as_str())?;
    if s.pending_cycle.is_set() {
        let p = &s.pending_cycle;
        t.row(2, "Next cycle mode", p.mode.as_str())?;
        if let Some(r) = &p.request {
            t.row(2, "Next cycle request", r)?;
        }
        if let Some(b) = &p.blocked_on {
            t.row(2, "Next cycle blocked", b)?;
        }
    }

    writeln!(t.out)?;
    t.heading("Active work")?;
    match (&s.active_work, &s.last_cycle) {
        (Some(w), _) => {
            t.row(2, "Id", &w.id)?;
            t.row(2, "Request", or_none(&w.request))?;
            t.row(2, "Scope", &path(&w.scope))?;
            t.row(2, "Architecture", &path(&w.architecture))?;
            t.row(2, "Development", &path(&w.development))?;
            if let Some(b) = &w.blocked_on {
                t.row(2, "Blocked on", b)?;
            }
            if let Some(r) = &w.promotion_reason {
                t.row(2, "Promotion reason", r)?;
            }
            if let Some(a) = &w.audit_target {
                t.row(2, "Audit target", a)?;
            }
            if w.pending_verification_cadence != standards_core::model::vocab::PendingCadence::None
            {
                t.row(
                    2,
                    "Pending cadence",
                    &format!(
                        "{} (verification cadence switch awaiting the user)",
                        w.pending_verification_cadence
                    ),
                )?;
            }
        }
        (None, Some(last)) => {
            t.line(
                2,
                &format!("No active cycle. The last cycle ended {}:", last.outcome),
            )?;
            t.row(4, "Id", &last.id)?;
            t.row(4, "Request", or_none(&last.request))?;
        }
        (None, None) => t.line(2, "No active cycle.")?,
    }

    writeln!(t.out)?;
    t.heading("Last handoff")?;
    t.row(2, "Kind", &s.handoff.kind)?;
    t.row(2, "From", &s.handoff.from)?;
    t.row(2, "Failure type", &s.handoff.failure_type)?;
    t.row(2, "Reason", &s.handoff.reason)?;

    writeln!(t.out)?;
    if s.recovery.is_empty() {
        t.heading("Recovery")?;
        t.line(2, "No recovery in progress.")?;
    } else {
        t.heading("Recovery (newest first)")?;
        for (i, f) in s.recovery.iter().enumerate() {
            let active = if i == 0 { " (active)" } else { "" };
            t.line(2, &format!("Frame {}{active}", f.frame))?;
            t.row(4, "From", or_missing(&f.from))?;
            t.row(4, "Owner", &with_role(&f.owner, f.owner_role))?;
            t.row(4, "Failure type", or_missing(&f.failure_type))?;
            t.row(4, "Reason", or_missing(&f.reason))?;
            t.row(4, "Resume at", or_missing(&f.resume_at))?;
            t.row(4, "Rerun through", or_missing(&f.rerun_through))?;
        }
    }

    writeln!(t.out)?;
    t.heading("Outstanding obligations")?;
    if s.obligations.is_empty() {
        t.line(2, "None.")?;
    }
    for o in &s.obligations {
        t.line(2, &format!("Obligation {}", o.obligation))?;
        t.row(4, "Owner", &with_role(&o.owner, o.owner_role))?;
        t.row(4, "Failure type", or_missing(&o.failure_type))?;
        t.row(4, "Reason", or_missing(&o.reason))?;
    }

    writeln!(t.out)?;
    t.heading("Baseline reconciliation")?;
    if s.baseline_reconciliation.is_empty() {
        t.line(2, "None.")?;
    }
    for b in &s.baseline_reconciliation {
        t.row(2, "Source cycle", &b.source_cycle)?;
        t.row(4, "Request", &b.request)?;
    }

    writeln!(t.out)?;
    t.heading("Next")?;
    let n = &s.next;
    match &n.invocation {
        Some(inv) => {
            t.row(2, "Role", &format!("{} (owns {})", n.owner, n.state))?;
            t.row(2, "Codex", &inv.codex)?;
            t.row(2, "Claude Code", &inv.claude_code)?;
        }
        None => {
            t.row(2, "Role", "the user decides")?;
            for o in &n.user_options {
                match &o.then {
                    Some(then) => t.row(2, o.action, &format!("{}; {then}", o.command))?,
                    None => t.row(2, o.action, &o.command)?,
                }
            }
        }
    }
    if n.blocked_by.is_empty() {
        t.row(2, "Blocked by", "nothing")?;
    }
    for b in &n.blocked_by {
        t.row(2, "Blocked by", b)?;
    }

    if !s.problems.is_empty() {
        writeln!(t.out)?;
        t.heading("Problems")?;
        for p in &s.problems {
            t.line(2, &format!("error: {}", view.show_leading(p)))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use standards_core::model::state::fresh_template;
    use standards_core::model::tree::MemTree;
    use standards_core::model::vocab::ProjectMode;

    fn installed(state: &str) -> MemTree {
        MemTree::new()
            .with(STATE_PATH, state)
            .with(MODE_PATH, mode::render(ProjectMode::Brownfield))
    }

    fn load_wt(tree: &MemTree) -> Result<Summary> {
        load(tree, &Source::Worktree, None, Path::new("/p"))
    }

    fn text(s: &Summary, color: bool) -> String {
        let mut buf = Vec::new();
        write_text(&mut buf, s, color).unwrap();
        String::from_utf8(buf).unwrap()
    }

    #[test]
    fn missing_runtime_is_not_installed_per_source() {
        let e = load_wt(&MemTree::new()).unwrap_err();
        assert!(matches!(e, Error::NotInstalled { .. }), "{e}");
        let e = load(
            &MemTree::new(),
            &Source::Rev("v1".into()),
            None,
            Path::new("/p"),
        )
        .unwrap_err();
        assert!(
            e.to_string()
                .contains("no STANDARDS runtime is installed in"),
            "{e}"
        );
    }

    #[test]
    fn invalid_state_names_file_line_and_rule() {
        let t = installed(&fresh_template(ProjectMode::Brownfield).replace("`AUDITING`", "`DONE`"));
        let e = load_wt(&t).unwrap_err().to_string();
        assert!(e.contains("(ST-003)"), "{e}");
        assert!(
            e.contains(".standards/STATE.md:3: `WorkflowState`: `DONE`"),
            "{e}"
        );

        let t = installed("").with(STATE_PATH, b"\xff\xfe".as_slice());
        let e = load_wt(&t).unwrap_err().to_string();
        assert!(e.contains("not valid UTF-8"), "{e}");

        let mut t = installed("").with(PROTOCOL_PATH, format!("{MARKER}\n# Protocol\n"));
        t.remove(STATE_PATH);
        let e = load_wt(&t).unwrap_err().to_string();
        assert!(e.contains("`.standards/STATE.md` is missing"), "{e}");

        let foreign = MemTree::new().with(".standards/notes.md", "mine");
        let e = load_wt(&foreign).unwrap_err().to_string();
        assert!(e.contains("is not a STANDARDS runtime"), "{e}");
    }

    #[test]
    fn conflicts_in_state_refuse_elsewhere_are_problems() {
        let state = format!(
            "<<<<<<< ours\n`Id`: `a-1`\n=======\n`Id`: `b-2`\n>>>>>>> theirs\n{}",
            fresh_template(ProjectMode::Brownfield)
        );
        let e = load_wt(&installed(&state)).unwrap_err().to_string();
        assert!(e.contains("STATE.md` (cycles a-1, b-2)"), "{e}");

        let t = installed(&fresh_template(ProjectMode::Brownfield))
            .with(".standards/docs/scope/x.md", "<<<<<<< HEAD\n`Id`: `c-3`\n");
        let s = load_wt(&t).unwrap();
        assert_eq!(
            s.problems,
            ["`.standards/docs/scope/x.md` (cycles c-3) has unresolved merge conflicts"]
        );
    }

    #[test]
    fn invalid_mode_is_a_problem_and_the_dashboard_renders() {
        let t = installed(&fresh_template(ProjectMode::Brownfield))
            .with(MODE_PATH, "`ProjectMode`: `HYBRID`\n");
        let s = load_wt(&t).unwrap();
        assert_eq!(s.project_mode, None);
        let out = text(&s, false);
        assert!(out.contains("Project mode        unknown"), "{out}");
        assert!(
            out.contains("error: .standards/MODE.md:1: `ProjectMode`: `HYBRID`"),
            "{out}"
        );
        assert!(
            out.contains("Workflow state      AUDITING, owned by the Auditor"),
            "{out}"
        );
    }

    #[test]
    fn text_shows_frames_newest_first_and_colours_only_headings() {
        let t = installed(include_str!(
            "../../fixtures/state/mid-cycle-nested-recovery.md"
        ));
        let s = load_wt(&t).unwrap();
        let plain = text(&s, false);
        assert!(
            plain.starts_with("Status of an in-memory tree\n"),
            "{plain}"
        );
        assert!(!plain.contains('\x1b'));
        let f3 = plain.find("Frame 3 (active)").unwrap();
        let f2 = plain.find("Frame 2\n").unwrap();
        let f1 = plain.find("Frame 1\n").unwrap();
        assert!(f3 < f2 && f2 < f1, "{plain}");
        assert!(
            plain.contains("    Owner             SCOPING (Scoper)"),
            "{plain}"
        );
        let coloured = text(&s, true);
        assert!(coloured.contains("\x1b[1mRecovery (newest first)\x1b[0m"));
        assert_eq!(
            coloured.replace("\x1b[1m", "").replace("\x1b[0m", ""),
            plain
        );
    }

    #[test]
    fn control_characters_in_values_are_not_sent_to_the_terminal() {
        let t = installed(&fresh_template(ProjectMode::Brownfield).replace(
            "Initial brownfield workflow state",
            "Initial \x1b[31mred\x1b[0m state",
        ));
        let out = text(&load_wt(&t).unwrap(), false);
        assert!(!out.contains('\x1b'), "{out}");
        assert!(out.contains("Initial \u{fffd}[31mred"), "{out}");
    }

    #[test]
    fn json_starts_with_ok_and_keeps_summary_keys() {
        let s = load_wt(&installed(&fresh_template(ProjectMode::Greenfield))).unwrap();
        let mut buf = Vec::new();
        write_json(&mut buf, &s).unwrap();
        let v: serde_json::Value = serde_json::from_slice(&buf).unwrap();
        let keys: Vec<_> = v.as_object().unwrap().keys().take(3).cloned().collect();
        assert_eq!(keys, ["ok", "source", "commit"]);
        assert_eq!(v["ok"], true);
        assert_eq!(v["activeWork"], serde_json::Value::Null);
        assert!(buf.ends_with(b"}\n"));
    }
}
