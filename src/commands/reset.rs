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

use crate::commands::Context;
use crate::error::{Error, Result};
use crate::repo::archive::Archived;
use crate::repo::commit::{self, Staged};
use crate::repo::Project;
use crate::support::teardown::{self, Extra, Finish, Landed, Teardown};
use standards_core::audit::{Event, EventKind};
use standards_core::model::layout::{CONTEXT_PATH, DOCS_DIR, MODE_PATH, STATE_PATH};
use standards_core::model::tree::{Node, Text, Tree};
use standards_core::model::vocab::ProjectMode;
use standards_core::model::{fields, mode, state};
use standards_core::setup::change::{ChangePlan, Step};
use standards_core::setup::install::infer_mode;

#[derive(Debug, clap::Args)]
pub struct ResetArgs {
    /// Project mode after the reset; inferred from the project's files when absent.
    #[arg(long, value_enum, ignore_case = true)]
    pub mode: Option<crate::commands::install::ModeArg>,
    /// Print the planned changes and diffs without changing anything.
    #[arg(long)]
    pub dry_run: bool,
    /// Do not ask for confirmation (required outside a terminal).
    #[arg(long)]
    pub yes: bool,
    /// Commit the reset (only the paths it changed) with Standards-Reset and Standards-Archive trailers.
    #[arg(long)]
    pub commit: bool,
    /// Print one JSON object on stdout instead of the report, and never ask (a reset to run needs --yes): {"ok": true, "command": "reset", "dryRun", "changed", "mode", "cycle", "paths": [{action: remove|write, path}], "records", "recordKinds": {kind: count}, "archive" (<ref>@<commit> or null), "commit" (or null), "warnings"}; a refusal prints {"ok": false, "error", "hint"}.
    #[arg(long)]
    pub json: bool,
}

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
    /// Removes `.standards/docs/` and CONTEXT.md, writes STATE.md and MODE.md.
    pub changes: ChangePlan,
    /// Markdown files under `.standards/docs/` (the cycle records it deletes).
    pub records: usize,
    /// Those records by kind, only the kinds present, in the protocol's order.
    pub record_kinds: Vec<(&'static str, usize)>,
    pub cycle: Option<Cycle>,
    pub warnings: Vec<String>,
    /// Unified diffs of STATE.md and MODE.md (empty when unchanged).
    pub diffs: Vec<String>,
}

/// The exact command that runs this reset without a prompt.
pub fn command_line(plan: &Plan, request: &Request) -> String {
    format!(
        "git standards reset --mode {}{} --yes",
        plan.mode.to_string().to_lowercase(),
        if request.commit { " --commit" } else { "" }
    )
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
    teardown::refuse_node_transaction(project, "reset")?;
    let tree = project.worktree()?;
    teardown::require_runtime(&tree, project, "reset")?;
    teardown::refuse_conflicts(&tree, "reset")?;
    let mut names: Vec<String> = std::fs::read_dir(project.root())
        .map_err(|e| Error::io(project.root(), e))?
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mode = request
        .mode
        .unwrap_or_else(|| infer_mode(names.iter().map(String::as_str)));
    let mut changes = ChangePlan::default();
    let mut warnings = Vec::new();
    let mut diffs = Vec::new();
    let mut records = 0;
    let mut record_kinds = Vec::new();
    if !matches!(tree.node(DOCS_DIR), Node::Missing) {
        teardown::refuse_links(project, DOCS_DIR, "reset")?;
        record_kinds = teardown::count_records(project)?;
        records = record_kinds.iter().map(|(_, n)| n).sum();
        changes.push(Step::remove(DOCS_DIR));
    }
    if !matches!(tree.node(CONTEXT_PATH), Node::Missing) {
        teardown::refuse_links(project, CONTEXT_PATH, "reset")?;
        changes.push(Step::remove(CONTEXT_PATH));
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
            changes.push(Step::put(
                path,
                fresh,
                current.as_deref().map(str::as_bytes),
            ));
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
        changes,
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

/// [`run`]; with `json` one JSON object on stdout instead of the report,
/// and never a prompt (a reset to run needs --yes).
pub fn run_json(ctx: &mut Context, request: &Request, json: bool) -> Result<()> {
    teardown::run(ctx, &Reset(request), request.dry_run, request.yes, json)
}

/// `reset` on the shared teardown path.
struct Reset<'a>(&'a Request);

impl Teardown for Reset<'_> {
    type Plan = Plan;

    fn name(&self) -> &'static str {
        "reset"
    }

    fn changes<'p>(&self, plan: &'p Plan) -> &'p ChangePlan {
        &plan.changes
    }

    fn cycle<'p>(&self, plan: &'p Plan) -> Option<&'p str> {
        plan.cycle.as_ref().map(|c| c.id.as_str())
    }

    fn preview(&self, project: &Project) -> Result<Plan> {
        preview(project, self.0)
    }

    fn nothing_to_do(&self, plan: &Plan, root: &str) -> Option<String> {
        plan.changes.is_noop().then(|| {
            format!(
                "STANDARDS in {root} is already a fresh {} workflow; nothing to reset.",
                plan.mode.to_string().to_lowercase()
            )
        })
    }

    fn unconfirmed(&self, plan: &Plan) -> Error {
        Error::refused(
            format!(
                "reset deletes workflow data and needs confirmation{}; outside a terminal nothing can ask",
                match plan.cycle.as_ref().filter(|c| c.active) {
                    Some(c) => format!(" (cycle `{}` is active in `{}`)", c.id, c.state),
                    None => String::new(),
                }
            ),
            Some(format!(
                "preview with `git standards reset --dry-run`, then run `{}`",
                command_line(plan, self.0)
            )),
        )
    }

    fn question(&self, root: &str) -> String {
        format!("Reset STANDARDS in {root}? [y/N] ")
    }

    fn header(&self, plan: &Plan, root: &str, preview: bool) -> Vec<String> {
        vec![
            format!(
                "{} STANDARDS in {root}",
                if preview { "Would reset" } else { "Reset" }
            ),
            format!(
                "Mode: {}; {} paths: {}",
                plan.mode,
                if preview { "planned" } else { "changed" },
                plan.changes.steps.len()
            ),
            format!(
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
            ),
        ]
    }

    fn write_verb(&self, preview: bool) -> &'static str {
        if preview {
            "Write"
        } else {
            "Wrote"
        }
    }

    fn footer(&self, plan: &Plan, landed: Option<&Landed>, preview: bool) -> Vec<String> {
        let mut lines = Vec::new();
        if preview {
            // The diffs end with their own newline.
            lines.extend(
                plan.diffs
                    .iter()
                    .map(|d| d.trim_end_matches('\n').to_string()),
            );
            lines.push("This was a preview: no file, ref, note or setting changed.".into());
        } else {
            if let Some(l) = landed {
                lines.push(format!("Archive: {}", l.archive.at()));
                if let Some(c) = l.commit {
                    lines.push(format!("Commit: {c}"));
                }
            }
            lines.push("The workflow starts fresh; skills, hooks, client settings and user styles were kept.".into());
        }
        lines
    }

    fn warnings(&self, plan: &Plan, done: bool) -> Vec<String> {
        plan.warnings
            .iter()
            .cloned()
            .chain(teardown::records_warning(
                plan.records,
                &plan.record_kinds,
                done,
            ))
            .collect()
    }

    fn json(&self, plan: &Plan, landed: Option<&Landed>, dry_run: bool) -> serde_json::Value {
        let kinds: serde_json::Map<String, serde_json::Value> = plan
            .record_kinds
            .iter()
            .map(|(k, n)| (k.to_string(), serde_json::json!(n)))
            .collect();
        serde_json::json!({
            "ok": true,
            "command": "reset",
            "dryRun": dry_run,
            "changed": !dry_run && !plan.changes.is_noop(),
            "mode": plan.mode.to_string(),
            "cycle": plan.cycle.as_ref().map(|c| c.id.clone()),
            "paths": teardown::json_paths(self, plan),
            "records": plan.records,
            "recordKinds": kinds,
            "archive": landed.map(|l| l.archive.at()),
            "commit": landed.and_then(|l| l.commit).map(|c| c.to_string()),
            "warnings": self.warnings(plan, !dry_run),
        })
    }

    fn prepare(&self, project: &Project, plan: &Plan) -> Result<Extra> {
        Ok(Extra {
            base: if self.0.commit {
                Some(commit_base(project, plan)?)
            } else {
                None
            },
        })
    }

    fn finish(
        &self,
        project: &Project,
        plan: &Plan,
        archived: &Archived,
        extra: Extra,
    ) -> Result<Finish> {
        let mut changes = Vec::new();
        let mut commit = None;
        if let Some(base) = extra.base {
            let cycle = plan
                .cycle
                .as_ref()
                .map_or("none".to_string(), |c| c.id.clone());
            let message = format!(
                "standards: reset the workflow to a fresh {} installation\n\nStandards-Reset: {cycle}\nStandards-Archive: {}\n",
                plan.mode.to_string().to_lowercase(),
                archived.at()
            );
            let planned = commit::commit_plan(project, &plan.changes, base, &message)?;
            changes = planned.changes();
            commit = Some(planned.new);
        }
        let removed: Vec<String> = plan
            .changes
            .steps
            .iter()
            .filter(|s| s.is_remove())
            .map(|s| s.path().to_string())
            .collect();
        let mut event = Event::new(EventKind::Reset)
            .detail("archive", archived.reference.clone())
            .detail("archive_commit", archived.commit.to_string())
            .detail("mode", plan.mode.to_string())
            .detail("removed", removed)
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
        Ok(Finish {
            changes,
            event,
            summary: serde_json::json!({
                "archive": archived.at(),
                "cycle": plan.cycle.as_ref().map(|c| c.id.clone()),
                "mode": plan.mode.to_string(),
            }),
            commit,
        })
    }
}

/// HEAD's commit, checked for `--commit`: HEAD has a commit, nothing outside
/// the reset's paths is staged, and the index has no unmerged entries.
fn commit_base(project: &Project, plan: &Plan) -> Result<commit::CommitId> {
    let Some(head) = commit::head(project) else {
        return Err(Error::refused(
            "refusing to reset with --commit: HEAD has no commit yet",
            Some("commit the installation first, or reset without --commit".to_string()),
        ));
    };
    match commit::staged(project, head, &plan.changes)? {
        Staged::Clean => Ok(head),
        Staged::Unmerged(path) => Err(Error::refused(
            format!("refusing to reset with --commit: `{path}` is unmerged"),
            Some("finish the merge first".to_string()),
        )),
        Staged::Others(others) => Err(Error::refused(
            format!(
                "refusing to reset with --commit: other changes are staged ({}); the reset commit holds only the paths it changes",
                others.iter().take(5).map(|p| format!("`{p}`")).collect::<Vec<_>>().join(", ")
            ),
            Some("commit or unstage them (`git restore --staged <path>`) first, or reset without --commit".to_string()),
        )),
    }
}
