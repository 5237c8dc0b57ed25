//! `git standards uninstall`: Project Uninstallation (RT §7.8, D3, D6, D21,
//! D22). Archives the whole `.standards/` first, then removes, through the
//! journal, what the installer (this one or the Node.js runtime) put into the
//! project: STANDARDS hook handlers and installer-owned settings in client
//! files, marked role skills, the managed blocks in `AGENTS.md`/`CLAUDE.md`,
//! client folders recorded as created once nothing else is left in them, and
//! `.standards/` last.
//!
//! What lies outside `.standards/` is planned by the client rules of
//! `install --client none` ([`client_plan::removal`]), so both give the
//! user's files back the same way.

use serde_json::Value;

use crate::commands::Context;
use crate::error::{Error, Result};
use crate::repo::archive::Archived;
use crate::repo::Project;
use crate::support::teardown::{self, Extra, Finish, Landed, Teardown};
use standards_core::audit::{Event, EventKind};
use standards_core::invocation::Client;
use standards_core::model::layout::{INSTALLATION_PATH, STANDARDS_DIR, USER_STYLES_DIR};
use standards_core::model::tree::{Node, Text, Tree};
use standards_core::setup::change::{ChangePlan, Step};
use standards_core::setup::client_plan;

#[derive(Debug, clap::Args)]
pub struct UninstallArgs {
    /// Print the planned changes without changing anything.
    #[arg(long)]
    pub dry_run: bool,
    /// Do not ask for confirmation (required outside a terminal).
    #[arg(long)]
    pub yes: bool,
    /// Print one JSON object on stdout instead of the report, and never ask (an uninstall to run needs --yes): {"ok": true, "command": "uninstall", "dryRun", "changed", "cycle", "clients", "paths": [{action: remove|update, path}], "records", "archive" (<ref>@<commit> or null), "warnings"}; a refusal prints {"ok": false, "error", "hint"}.
    #[arg(long)]
    pub json: bool,
}

/// The failpoints of `uninstall`: after the archive, then the journal's.
pub const FAILPOINTS: &[&str] = &[
    "uninstall:archived",
    "uninstall:journal-staged",
    "uninstall:journal-begun",
    "uninstall:step-applied",
    "uninstall:step-recorded",
    "uninstall:journal-closing",
];

/// A validated uninstall request.
#[derive(Debug, Clone, Default)]
pub struct Request {
    pub dry_run: bool,
    pub yes: bool,
    /// One JSON object on stdout instead of the report, and never a prompt.
    pub json: bool,
}

const CLAUDE_SETTINGS: &str = ".claude/settings.json";
const CODEX_HOOKS: &str = ".codex/hooks.json";

fn client_name(c: Client) -> &'static str {
    match c {
        Client::Codex => "Codex",
        Client::Claude => "Claude Code",
    }
}

/// What `uninstall` will do.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The client files (by [`client_plan::removal`]), then `.standards/`.
    pub changes: ChangePlan,
    pub warnings: Vec<String>,
    pub clients: Vec<&'static str>,
    pub records: usize,
    /// Those records by kind, only the kinds present, in the protocol's order.
    pub record_kinds: Vec<(&'static str, usize)>,
    /// Markdown files under `.standards/user-styles/`.
    pub styles: usize,
    /// The cycle STATE.md names, for the archive's name.
    pub cycle: Option<String>,
    pub runtime: bool,
}

/// Checks INSTALLATION.json (RF §11.2) before anything is removed by what it
/// records, and returns its text: a record this version cannot read fully is
/// a refusal, never a guess about what the user owns.
fn check_record(tree: &dyn Tree) -> Result<String> {
    let invalid = |message: String| Error::Invalid {
        path: INSTALLATION_PATH.into(),
        message,
    };
    let Text::Ok(text) = tree.text(INSTALLATION_PATH) else {
        return Err(Error::refused(
            "incomplete runtime: `.standards/INSTALLATION.json` is missing or unreadable; uninstall cannot determine settings ownership",
            Some(format!("restore it from history (`git restore --source=HEAD {INSTALLATION_PATH}`)")),
        ));
    };
    let value: Value =
        serde_json::from_str(&text).map_err(|e| invalid(format!("is not valid JSON ({e})")))?;
    let Value::Object(top) = value else {
        return Err(invalid("must hold a JSON object".into()));
    };
    for key in top.keys() {
        if ![
            "framework",
            "createdPaths",
            "managedClientSettings",
            "hooks",
            standards_core::setup::clients::SKILL_FILES,
            standards_core::setup::clients::CREATED_KEYS,
        ]
        .contains(&key.as_str())
        {
            return Err(Error::refused(
                format!("refusing to uninstall: `{INSTALLATION_PATH}` records `{key}`, which this git-standards does not understand"),
                Some("uninstall with the git-standards version that wrote it".into()),
            ));
        }
    }
    let created = match top.get("createdPaths") {
        None => Vec::new(),
        Some(Value::Array(a)) => a
            .iter()
            .map(|v| {
                v.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| invalid("`createdPaths` must list strings".into()))
            })
            .collect::<Result<_>>()?,
        Some(_) => return Err(invalid("`createdPaths` must be an array".into())),
    };
    for c in &created {
        let allowed = [
            ".agents",
            ".agents/skills",
            ".claude",
            ".claude/skills",
            CLAUDE_SETTINGS,
            ".codex",
            CODEX_HOOKS,
        ];
        if !allowed.contains(&c.as_str()) {
            return Err(invalid(format!(
                "`createdPaths` names `{c}`, which the installer never creates"
            )));
        }
    }
    let managed = top
        .get("managedClientSettings")
        .and_then(Value::as_object)
        .ok_or_else(|| invalid("`managedClientSettings` must be an object".into()))?;
    if managed.keys().any(|k| k != CLAUDE_SETTINGS) {
        return Err(Error::refused(
            format!("refusing to uninstall: `{INSTALLATION_PATH}` manages settings files this git-standards does not understand"),
            Some("uninstall with the git-standards version that wrote it".into()),
        ));
    }
    if let Some(over) = managed
        .get(CLAUDE_SETTINGS)
        .and_then(|c| c.get("skillOverrides"))
    {
        if !over.is_object() {
            return Err(invalid(
                "`managedClientSettings` must map `skillOverrides` to an object".into(),
            ));
        }
    }
    match top.get(standards_core::setup::clients::SKILL_FILES) {
        None => {}
        Some(Value::Object(o)) if o.values().all(Value::is_string) => {}
        Some(_) => {
            return Err(invalid(format!(
                "`{}` must map skill file paths to digests",
                standards_core::setup::clients::SKILL_FILES
            )))
        }
    }
    Ok(text)
}

/// Computes the plan. Writes nothing.
pub fn preview(project: &Project) -> Result<Plan> {
    project.require_workdir()?;
    teardown::refuse_node_transaction(project, "uninstall")?;
    let tree = project.worktree()?;
    let runtime = !matches!(tree.node(STANDARDS_DIR), Node::Missing);
    let record = if runtime {
        teardown::require_runtime(&tree, project, "uninstall")?;
        let text = check_record(&tree)?;
        teardown::refuse_links(project, STANDARDS_DIR, "uninstall")?;
        text
    } else {
        // No record: only detection matters, with nothing owned.
        "{}".to_string()
    };
    // Everything outside `.standards/` goes by the client rules that
    // `install --client none` uses (issue 24): one rule, the same bytes back.
    let list = super::clients::disk_lister(project.root());
    let removal = client_plan::removal(&tree, &record, &list)?;
    let integration = !removal.clients.is_empty()
        || removal
            .changes
            .changes()
            .any(|op| ["AGENTS.md", "CLAUDE.md"].contains(&op.path()));
    let clients: Vec<&'static str> = removal.clients.iter().map(|c| client_name(*c)).collect();
    if !runtime {
        if integration {
            return Err(Error::refused(
                "incomplete runtime: STANDARDS skills or integration blocks exist without `.standards/INSTALLATION.json`; cannot determine settings ownership",
                Some("restore `.standards/` from history (`git restore --source=HEAD .standards`), then uninstall".to_string()),
            ));
        }
        return Ok(Plan {
            changes: ChangePlan::default(),
            warnings: Vec::new(),
            clients,
            records: 0,
            record_kinds: Vec::new(),
            styles: 0,
            cycle: None,
            runtime,
        });
    }
    let mut changes = removal.changes;
    let later_warnings = removal.warnings;
    changes.push(Step::remove(STANDARDS_DIR));
    let record_kinds = teardown::count_records(project)?;
    let records = record_kinds.iter().map(|(_, n)| n).sum();
    let styles = teardown::count_markdown(project, USER_STYLES_DIR)?;
    let mut warnings = Vec::new();
    warnings.extend(later_warnings);
    let cycle = match tree.text(standards_core::model::layout::STATE_PATH) {
        Text::Ok(t) => {
            standards_core::model::fields::first(&standards_core::model::fields::scan(&t), "Id")
                .map(|f| f.value.clone())
                .filter(|v| v != "UNSET")
        }
        _ => None,
    };
    Ok(Plan {
        changes,
        warnings,
        clients,
        records,
        record_kinds,
        styles,
        cycle,
        runtime,
    })
}

/// Runs `uninstall` from the command line.
pub fn run(ctx: &mut Context, request: &Request) -> Result<()> {
    teardown::run(ctx, &Uninstall, request.dry_run, request.yes, request.json)
}

/// `uninstall` on the shared teardown path.
struct Uninstall;

impl Teardown for Uninstall {
    type Plan = Plan;

    fn name(&self) -> &'static str {
        "uninstall"
    }

    fn changes<'p>(&self, plan: &'p Plan) -> &'p ChangePlan {
        &plan.changes
    }

    fn cycle<'p>(&self, plan: &'p Plan) -> Option<&'p str> {
        plan.cycle.as_deref()
    }

    fn preview(&self, project: &Project) -> Result<Plan> {
        preview(project)
    }

    fn nothing_to_do(&self, plan: &Plan, root: &str) -> Option<String> {
        (!plan.runtime && plan.changes.is_noop())
            .then(|| format!("No STANDARDS installation found in {root}."))
    }

    fn unconfirmed(&self, _plan: &Plan) -> Error {
        Error::refused(
            "uninstall deletes `.standards/` (workflow state, context, cycle records, user styles) and needs confirmation; outside a terminal nothing can ask",
            Some("preview with `git standards uninstall --dry-run`, then run `git standards uninstall --yes`".to_string()),
        )
    }

    fn question(&self, root: &str) -> String {
        format!("Uninstall STANDARDS from {root}? [y/N] ")
    }

    fn header(&self, plan: &Plan, root: &str, preview: bool) -> Vec<String> {
        vec![
            format!(
                "{} STANDARDS from {root}",
                if preview {
                    "Would uninstall"
                } else {
                    "Uninstalled"
                }
            ),
            format!(
                "{} paths: {}; clients: {}",
                if preview { "Planned" } else { "Changed" },
                plan.changes.steps.len(),
                if plan.clients.is_empty() {
                    "none remaining".to_string()
                } else {
                    plan.clients.join(", ")
                }
            ),
        ]
    }

    fn write_verb(&self, preview: bool) -> &'static str {
        if preview {
            "Update"
        } else {
            "Updated"
        }
    }

    fn footer(&self, _plan: &Plan, landed: Option<&Landed>, preview: bool) -> Vec<String> {
        if preview {
            return vec!["This is a preview; nothing changed. Removing `.standards/` deletes the saved workflow state, context, cycle records and user styles.".into()];
        }
        let mut lines: Vec<String> = landed
            .map(|l| format!("Archive: {}", l.archive.at()))
            .into_iter()
            .collect();
        lines.push("The workflow state, context, cycle records and user styles were removed with `.standards/`; project work outside it was preserved.".into());
        lines
    }

    /// Issue 25, item 8, as for `reset`: the records warning names the kinds
    /// present, and after the uninstall says what was deleted.
    fn warnings(&self, plan: &Plan, done: bool) -> Vec<String> {
        let s = if plan.styles == 1 { "" } else { "s" };
        let styles = (plan.styles > 0).then(|| {
            if done {
                format!("deleted {} user style{s} in `.standards/user-styles/`; the archive keeps a copy", plan.styles)
            } else {
                format!("deletes {} user style{s} in `.standards/user-styles/`; the archive keeps a copy, but copy any you want to keep in the working tree first", plan.styles)
            }
        });
        teardown::records_warning(plan.records, &plan.record_kinds, done)
            .into_iter()
            .chain(styles)
            .chain(plan.warnings.iter().cloned())
            .collect()
    }

    /// The `--json` result of an uninstall (issue 25).
    fn json(&self, plan: &Plan, landed: Option<&Landed>, dry_run: bool) -> Value {
        serde_json::json!({
            "ok": true,
            "command": "uninstall",
            "dryRun": dry_run,
            "changed": !dry_run && !plan.changes.is_noop(),
            "cycle": plan.cycle,
            "clients": plan.clients,
            "paths": teardown::json_paths(self, plan),
            "records": plan.records,
            "recordKinds": plan
                .record_kinds
                .iter()
                .map(|(k, n)| (k.to_string(), serde_json::json!(n)))
                .collect::<serde_json::Map<String, Value>>(),
            "archive": landed.map(|l| l.archive.at()),
            "warnings": self.warnings(plan, !dry_run),
        })
    }

    fn prepare(&self, _project: &Project, _plan: &Plan) -> Result<Extra> {
        Ok(Extra::default())
    }

    fn finish(
        &self,
        _project: &Project,
        plan: &Plan,
        archived: &Archived,
        _extra: Extra,
    ) -> Result<Finish> {
        let mut event = Event::new(EventKind::Uninstalled)
            .detail("archive", archived.reference.clone())
            .detail("archive_commit", archived.commit.to_string())
            .detail("removed", plan.changes.changed_paths());
        if let Some(c) = &plan.cycle {
            event = event.cycle(c.clone());
        }
        Ok(Finish {
            changes: Vec::new(),
            event,
            summary: serde_json::json!({ "archive": archived.at(), "cycle": plan.cycle }),
            commit: None,
        })
    }
}
