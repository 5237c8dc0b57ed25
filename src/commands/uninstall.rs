//! `git standards uninstall`: Project Uninstallation (RT §7.8, D3, D6, D21,
//! D22). Archives the whole `.standards/` first, then removes, through the
//! journal, what the installer (this one or the Node.js runtime) put into the
//! project: STANDARDS hook handlers and installer-owned settings in client
//! files, marked role skills, the managed blocks in `AGENTS.md`/`CLAUDE.md`,
//! client folders recorded as created once nothing else is left in them, and
//! `.standards/` last.
//!
//! What lies outside `.standards/` is planned by the client rules of
//! `install --client none` ([`super::clients::removal`]), so both give the
//! user's files back the same way.

use serde_json::Value;

use crate::commands::paths::PathView;
use crate::commands::reset::{refuse_links, require_runtime};
use crate::commands::{audit, Context};
use crate::error::{Error, Result};
use crate::repo::archive::{self, Archived};
use crate::repo::journal::{self, Change};
use crate::repo::{failpoint, Project};
use standards_core::audit::{Event, EventKind};
use standards_core::model::layout::{
    DOCS_DIR, INSTALLATION_PATH, STANDARDS_DIR, USER_STYLES_DIR,
};
use standards_core::model::tree::{Node, Text, Tree};

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

/// One planned change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Op {
    Remove { path: String },
    Update { path: String, content: String },
}

impl Op {
    pub fn path(&self) -> &str {
        match self {
            Op::Remove { path } | Op::Update { path, .. } => path,
        }
    }
}

/// The client folders removed when recorded as created and left empty are
/// planned by [`super::clients::removal`], with every other client rule.
fn client_name(c: standards_core::invocation::Client) -> &'static str {
    match c {
        standards_core::invocation::Client::Codex => "Codex",
        standards_core::invocation::Client::Claude => "Claude Code",
    }
}

const CLAUDE_SETTINGS: &str = ".claude/settings.json";
const CODEX_HOOKS: &str = ".codex/hooks.json";

/// What `uninstall` will do.
#[derive(Debug, Clone)]
pub struct Plan {
    pub ops: Vec<Op>,
    pub warnings: Vec<String>,
    pub clients: Vec<&'static str>,
    pub records: usize,
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

fn count_md(project: &Project, rel: &str) -> usize {
    let mut n = 0;
    let mut stack = vec![project.root.join(rel)];
    while let Some(dir) = stack.pop() {
        let Ok(read) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in read.flatten() {
            match e.file_type() {
                Ok(k) if k.is_dir() => stack.push(e.path()),
                Ok(k) if k.is_file() && e.file_name().to_string_lossy().ends_with(".md") => n += 1,
                _ => {}
            }
        }
    }
    n
}

/// Computes the plan. Writes nothing.
pub fn preview(project: &Project) -> Result<Plan> {
    project.require_workdir()?;
    crate::commands::reset::refuse_node_transaction(project, "uninstall")?;
    let tree = project.worktree()?;
    let runtime = !matches!(tree.node(STANDARDS_DIR), Node::Missing);
    let record = if runtime {
        require_runtime(&tree, project, "uninstall")?;
        let text = check_record(&tree)?;
        refuse_links(project, STANDARDS_DIR, "uninstall")?;
        text
    } else {
        // No record: only detection matters, with nothing owned.
        "{}".to_string()
    };
    // Everything outside `.standards/` goes by the client rules that
    // `install --client none` uses (issue 24): one rule, the same bytes back.
    let list = super::clients::disk_lister(&project.root);
    let removal = super::clients::removal(&tree, &record, &list)?;
    let integration = !removal.clients.is_empty()
        || removal
            .ops
            .iter()
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
            ops: Vec::new(),
            warnings: Vec::new(),
            clients,
            records: 0,
            cycle: None,
            runtime,
        });
    }
    let mut ops: Vec<Op> = removal
        .ops
        .iter()
        .map(|op| match op {
            super::clients::Op::Write { path, content } => Op::Update {
                path: path.clone(),
                content: content.clone(),
            },
            super::clients::Op::RemoveFile { path } | super::clients::Op::RemoveDir { path } => {
                Op::Remove { path: path.clone() }
            }
        })
        .collect();
    let later_warnings = removal.warnings;
    ops.push(Op::Remove {
        path: STANDARDS_DIR.into(),
    });
    let records = count_md(project, DOCS_DIR);
    let styles = count_md(project, USER_STYLES_DIR);
    let mut warnings = Vec::new();
    if records > 0 {
        warnings.push(format!(
            "deletes {records} cycle record{} in `.standards/docs/` (scope, design, development, verification, review, documentation, and synchronization records); `archive show` reads them back",
            if records == 1 { "" } else { "s" }
        ));
    }
    if styles > 0 {
        warnings.push(format!(
            "deletes {styles} user style{} in `.standards/user-styles/`; the archive keeps a copy, but copy any you want to keep in the working tree first",
            if styles == 1 { "" } else { "s" }
        ));
    }
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
        ops,
        warnings,
        clients,
        records,
        cycle,
        runtime,
    })
}

/// Runs `uninstall` from the command line.
pub fn run(ctx: &mut Context, request: &Request) -> Result<()> {
    let project = Project::discover(&ctx.cwd)?;
    // Issue 21: held from reading the plan's inputs to the last write (a
    // preview, or a refusal to run unconfirmed, writes nothing, not even the
    // lock file).
    let interactive = !request.json && super::confirm::interactive();
    let _lock = if request.dry_run || !(request.yes || interactive) {
        None
    } else {
        Some(journal::lock(&project, "uninstall")?)
    };
    journal::refuse_if_pending(&project)?;
    if !request.dry_run {
        // Like every other writer: never mid-conflict (issue 22, item 7).
        crate::commands::conflicts::refuse_during_conflict(ctx, &project, "uninstall")?;
    }
    let plan = preview(&project)?;
    let root = project.root.display().to_string();
    let view = ctx.path_view(&project);
    let w = |e: std::io::Error| Error::io("<stderr>", e);
    if !plan.runtime && plan.ops.is_empty() {
        writeln!(ctx.err, "No STANDARDS installation found in {root}.").map_err(w)?;
        if request.json {
            let value = result_json(&plan, None, request.dry_run);
            super::print_result(ctx.out, true, "", value)?;
        }
        return Ok(());
    }
    if request.dry_run {
        if request.json {
            return super::print_result(ctx.out, true, "", result_json(&plan, None, true));
        }
        return print_plan(ctx, &view, &plan, &root, None, true);
    }
    if !request.yes {
        if !interactive {
            return Err(Error::refused(
                "uninstall deletes `.standards/` (workflow state, context, cycle records, user styles) and needs confirmation; outside a terminal nothing can ask",
                Some("preview with `git standards uninstall --dry-run`, then run `git standards uninstall --yes`".to_string()),
            ));
        }
        print_plan(ctx, &view, &plan, &root, None, true)?;
        let question = format!("Uninstall STANDARDS from {root}? [y/N] ");
        if !super::confirm::ask(ctx.err, &mut std::io::stdin().lock(), &question)? {
            writeln!(ctx.err, "Uninstall cancelled; no files were changed.").map_err(w)?;
            return Ok(());
        }
    }
    let archived = apply(ctx, &project, &plan)?;
    if request.json {
        let value = result_json(&plan, Some(&archived), false);
        return super::print_result(ctx.out, true, "", value);
    }
    print_plan(ctx, &view, &plan, &root, Some(&archived), false)
}

/// The `--json` result of an uninstall (issue 25).
fn result_json(plan: &Plan, archived: Option<&Archived>, dry_run: bool) -> Value {
    let paths: Vec<Value> = plan
        .ops
        .iter()
        .map(|op| {
            serde_json::json!({
                "action": match op { Op::Remove { .. } => "remove", Op::Update { .. } => "update" },
                "path": op.path(),
            })
        })
        .collect();
    serde_json::json!({
        "ok": true,
        "command": "uninstall",
        "dryRun": dry_run,
        "changed": !dry_run && !plan.ops.is_empty(),
        "cycle": plan.cycle,
        "clients": plan.clients,
        "paths": paths,
        "records": plan.records,
        "archive": archived.map(|a| a.at()),
        "warnings": plan.warnings,
    })
}

/// Archives `.standards/`, then applies the plan through the journal.
pub fn apply(_ctx: &mut Context, project: &Project, plan: &Plan) -> Result<Archived> {
    let _lock = journal::lock(project, "uninstall")?;
    journal::refuse_if_pending(project)?;
    let name = plan
        .cycle
        .clone()
        .filter(|id| archive::valid_name(id))
        .unwrap_or_else(|| archive::timestamp_name("uninstall"));
    let archived = archive::store(project, &name, "uninstall")?;
    failpoint::hit("uninstall:archived");
    let changes = plan
        .ops
        .iter()
        .map(|op| match op {
            Op::Remove { path } => Change::remove(path.clone()),
            Op::Update { path, content } => Change::write(path.clone(), content.as_bytes()),
        })
        .collect();
    let archived_event =
        crate::commands::reset::archived_event(&archived, "uninstall", plan.cycle.as_deref());
    let mut event = Event::new(EventKind::Uninstalled)
        .detail("archive", archived.reference.clone())
        .detail("archive_commit", archived.commit.to_string())
        .detail(
            "removed",
            plan.ops
                .iter()
                .map(|op| op.path().to_string())
                .collect::<Vec<_>>(),
        );
    if let Some(c) = &plan.cycle {
        event = event.cycle(c.clone());
    }
    // Issue 21: the events are the journal's last steps (see reset).
    let mut changes: Vec<Change> = changes;
    changes.push(audit::journalled(project, archived_event).0);
    changes.push(audit::journalled(project, event).0);
    journal::write_all(
        project,
        "uninstall",
        changes,
        serde_json::json!({ "archive": archived.at(), "cycle": plan.cycle }),
    )?;
    Ok(archived)
}

fn print_plan(
    ctx: &mut Context,
    view: &PathView,
    plan: &Plan,
    root: &str,
    archived: Option<&Archived>,
    preview: bool,
) -> Result<()> {
    let w = Error::stdout;
    let out = &mut *ctx.out;
    writeln!(
        out,
        "{} STANDARDS from {root}",
        if preview {
            "Would uninstall"
        } else {
            "Uninstalled"
        }
    )
    .map_err(w)?;
    writeln!(
        out,
        "{} paths: {}; clients: {}",
        if preview { "Planned" } else { "Changed" },
        plan.ops.len(),
        if plan.clients.is_empty() {
            "none remaining".to_string()
        } else {
            plan.clients.join(", ")
        }
    )
    .map_err(w)?;
    for op in &plan.ops {
        let verb = match (op, preview) {
            (Op::Remove { .. }, true) => "Remove",
            (Op::Remove { .. }, false) => "Removed",
            (Op::Update { .. }, true) => "Update",
            (Op::Update { .. }, false) => "Updated",
        };
        writeln!(out, "{verb}: {}", view.show(op.path())).map_err(w)?;
    }
    if preview {
        writeln!(out, "This is a preview; nothing changed. Removing `.standards/` deletes the saved workflow state, context, cycle records and user styles.").map_err(w)?;
    } else {
        if let Some(a) = archived {
            writeln!(out, "Archive: {}", a.at()).map_err(w)?;
        }
        writeln!(out, "The workflow state, context, cycle records and user styles were removed with `.standards/`; project work outside it was preserved.").map_err(w)?;
    }
    for warning in &plan.warnings {
        writeln!(ctx.err, "Warning: {warning}").map_err(|e| Error::io("<stderr>", e))?;
    }
    if let Some(a) = archived {
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
