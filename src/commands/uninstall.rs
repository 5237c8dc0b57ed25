//! `git standards uninstall`: Project Uninstallation (RT §7.8, D3, D6, D21,
//! D22). Archives the whole `.standards/` first, then removes, through the
//! journal, what the installer (this one or the Node.js runtime) put into the
//! project: STANDARDS hook handlers and installer-owned settings in client
//! files, marked role skills, the managed blocks in `AGENTS.md`/`CLAUDE.md`,
//! client folders recorded as created once nothing else is left in them, and
//! `.standards/` last.
//!
//! What lies outside `.standards/` is planned by the entries of
//! [`INTEGRATIONS`], in order: the client-integration work adds an entry for
//! each kind of file it installs, and the preview, archive, journal and
//! output need no change.

use serde_json::{Map, Value};

use crate::commands::paths::PathView;
use crate::commands::reset::{refuse_links, require_runtime};
use crate::commands::{audit, Context};
use crate::error::{Error, Result};
use crate::repo::archive::{self, Archived};
use crate::repo::journal::{self, Change};
use crate::repo::{failpoint, Project};
use standards_core::audit::{Event, EventKind};
use standards_core::model::layout::{
    DOCS_DIR, INSTALLATION_PATH, MARKER, STANDARDS_DIR, USER_STYLES_DIR,
};
use standards_core::model::tree::{Node, Text, Tree};
use standards_core::setup::clients;

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

/// What the installer recorded in INSTALLATION.json (RF §11.2).
#[derive(Debug, Clone, Default)]
pub struct Ownership {
    /// `createdPaths`: client files and folders the installer created.
    pub created: Vec<String>,
    /// Owned `skillOverrides` values in `.claude/settings.json`.
    pub skill_overrides: Map<String, Value>,
    /// `skillFiles`: each skill file install wrote, with the digest of its text.
    pub skill_files: Map<String, Value>,
}

/// What an integration planner sees.
pub struct Scope<'a> {
    pub project: &'a Project,
    pub tree: &'a dyn Tree,
    /// `None` when there is no `.standards/` (then only detection matters).
    pub ownership: Option<&'a Ownership>,
}

/// What an integration planner found.
#[derive(Debug, Clone, Default)]
pub struct Found {
    pub ops: Vec<Op>,
    pub warnings: Vec<String>,
    /// Marked skills or managed blocks: STANDARDS integration that needs a runtime to remove safely.
    pub integration: bool,
    /// Clients whose marked skills were found.
    pub clients: Vec<&'static str>,
}

/// One kind of installed file outside `.standards/`.
pub struct Integration {
    pub name: &'static str,
    pub plan: fn(&Scope<'_>) -> Result<Found>,
}

/// Everything uninstall removes outside `.standards/`, in the preview order of RT §7.8.
pub const INTEGRATIONS: &[Integration] = &[
    Integration {
        name: "managed blocks in AGENTS.md and CLAUDE.md",
        plan: plan_managed_blocks,
    },
    Integration {
        name: "Claude Code settings",
        plan: plan_claude_settings,
    },
    Integration {
        name: "Codex hooks",
        plan: plan_codex_hooks,
    },
    Integration {
        name: "role skills",
        plan: plan_skills,
    },
];

/// The client folders removed when recorded as created and left empty, in order (RT §7.8 step 10).
const CREATED_DIRS: [&str; 5] = [
    ".agents/skills",
    ".claude/skills",
    ".agents",
    ".claude",
    ".codex",
];

const CLAUDE_SETTINGS: &str = ".claude/settings.json";
const CODEX_HOOKS: &str = ".codex/hooks.json";
const SCHEMA_URL: &str = "https://json.schemastore.org/claude-code-settings.json";

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

/// Removes every STANDARDS handler from a settings object's `hooks` (RT §7.6.8 step 1).
/// Returns whether anything was removed.
fn strip_handlers(settings: &mut Map<String, Value>, file: &str) -> Result<bool> {
    let Some(hooks) = settings.get_mut("hooks") else {
        return Ok(false);
    };
    let invalid = || {
        Error::Invalid {
        path: file.into(),
        message: "`hooks` must be an object whose values are arrays; uninstall cannot tell its own handlers apart safely".into(),
    }
    };
    let events = hooks.as_object_mut().ok_or_else(invalid)?;
    let mut removed = false;
    for groups in events.values_mut() {
        let groups = groups.as_array_mut().ok_or_else(invalid)?;
        groups.retain_mut(|group| {
            let Some(list) = group.get_mut("hooks").and_then(Value::as_array_mut) else {
                return true;
            };
            let before = list.len();
            list.retain(|h| !clients::is_standards_handler(h));
            if list.len() != before {
                removed = true;
                return !list.is_empty();
            }
            true
        });
    }
    events.retain(|_, groups| groups.as_array().is_none_or(|g| !g.is_empty()));
    if events.is_empty() {
        settings.remove("hooks");
    }
    Ok(removed)
}

fn read_json(tree: &dyn Tree, path: &str) -> Result<Option<(String, Map<String, Value>)>> {
    match tree.node(path) {
        Node::Missing => Ok(None),
        Node::File(bytes) => {
            let value: Value = serde_json::from_slice(&bytes).map_err(|e| Error::Invalid {
                path: path.into(),
                message: format!("is not valid JSON ({e}); uninstall cannot compare it safely"),
            })?;
            match value {
                Value::Object(m) => Ok(Some((String::from_utf8_lossy(&bytes).into_owned(), m))),
                _ => Err(Error::Invalid {
                    path: path.into(),
                    message: "must hold a JSON object".into(),
                }),
            }
        }
        _ => Err(Error::refused(
            format!("refusing to uninstall: `{path}` is not a regular file"),
            None,
        )),
    }
}

/// The settings file in the style it was found in (issue 29, item 3): only
/// our entries change.
fn render_json(text: &str, before: &Map<String, Value>, now: &Map<String, Value>) -> String {
    clients::settings_text(Some((text, before)), now).unwrap_or_else(|| text.to_string())
}

fn recorded(scope: &Scope<'_>, path: &str) -> bool {
    scope
        .ownership
        .is_some_and(|o| o.created.iter().any(|c| c == path))
}

fn plan_claude_settings(scope: &Scope<'_>) -> Result<Found> {
    let mut found = Found::default();
    let Some((text, mut settings)) = read_json(scope.tree, CLAUDE_SETTINGS)? else {
        return Ok(found);
    };
    let original = settings.clone();
    strip_handlers(&mut settings, CLAUDE_SETTINGS)?;
    if let Some(owned) = scope.ownership.map(|o| &o.skill_overrides) {
        if let Some(overrides) = settings.get_mut("skillOverrides") {
            let overrides = overrides.as_object_mut().ok_or_else(|| Error::Invalid {
                path: CLAUDE_SETTINGS.into(),
                message: "`skillOverrides` is not an object; uninstall cannot compare it safely"
                    .into(),
            })?;
            for (role, value) in owned {
                match overrides.get(role) {
                    Some(v) if v == value => {
                        overrides.remove(role);
                    }
                    Some(_) => found.warnings.push(format!(
                        "Preserved changed setting: {CLAUDE_SETTINGS} skillOverrides.{role}"
                    )),
                    None => {}
                }
            }
        }
    }
    let only_empty = settings.iter().all(|(k, v)| match k.as_str() {
        "$schema" => v.as_str() == Some(SCHEMA_URL),
        "skillOverrides" => v.as_object().is_some_and(Map::is_empty),
        _ => false,
    });
    if recorded(scope, CLAUDE_SETTINGS) && only_empty {
        found.ops.push(Op::Remove {
            path: CLAUDE_SETTINGS.into(),
        });
    } else if settings != original {
        found.ops.push(Op::Update {
            path: CLAUDE_SETTINGS.into(),
            content: render_json(&text, &original, &settings),
        });
    }
    Ok(found)
}

fn plan_codex_hooks(scope: &Scope<'_>) -> Result<Found> {
    let mut found = Found::default();
    let Some((text, mut hooks)) = read_json(scope.tree, CODEX_HOOKS)? else {
        return Ok(found);
    };
    let original = hooks.clone();
    let removed = strip_handlers(&mut hooks, CODEX_HOOKS)?;
    if recorded(scope, CODEX_HOOKS) && hooks.is_empty() {
        found.ops.push(Op::Remove {
            path: CODEX_HOOKS.into(),
        });
    } else if removed {
        found.ops.push(Op::Update {
            path: CODEX_HOOKS.into(),
            content: render_json(&text, &original, &hooks),
        });
    }
    Ok(found)
}

/// The text without its managed block (RT §7.8 step 4), or `None` when it
/// has none: the rule `install --client none` uses, so both give back the
/// user's bytes.
pub fn without_block(text: &str, path: &str) -> Result<Option<String>> {
    clients::remove_block(text, path).map_err(|message| Error::Invalid {
        path: path.into(),
        message,
    })
}

fn plan_managed_blocks(scope: &Scope<'_>) -> Result<Found> {
    let mut found = Found::default();
    for path in ["AGENTS.md", "CLAUDE.md"] {
        let Text::Ok(text) = scope.tree.text(path) else {
            continue;
        };
        if let Some(rest) = without_block(&text, path)? {
            found.integration = true;
            if rest.trim().is_empty() {
                found.ops.push(Op::Remove { path: path.into() });
            } else {
                found.ops.push(Op::Update {
                    path: path.into(),
                    content: rest,
                });
            }
        }
    }
    Ok(found)
}

fn plan_skills(scope: &Scope<'_>) -> Result<Found> {
    let mut found = Found::default();
    for (dir, client) in [
        (".agents/skills", "Codex"),
        (".claude/skills", "Claude Code"),
    ] {
        let full = scope.project.root().join(dir);
        match std::fs::symlink_metadata(&full) {
            Ok(m) if m.is_dir() => {}
            _ => continue, // absent, or not ours to follow
        }
        let mut names: Vec<String> = std::fs::read_dir(&full)
            .map_err(|e| Error::io(&full, e))?
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        for name in names {
            let folder = format!("{dir}/{name}");
            let real_dir = std::fs::symlink_metadata(scope.project.root().join(&folder))
                .is_ok_and(|m| m.is_dir());
            if !real_dir {
                continue; // unrelated files and links are never followed or deleted
            }
            let marked = matches!(scope.tree.text(&format!("{folder}/SKILL.md")), Text::Ok(t) if t.contains(MARKER));
            if !marked {
                continue;
            }
            refuse_links(scope.project, &folder, "uninstall")?;
            // A shipped skill loses exactly the files install wrote and the
            // user left unchanged; a changed one stays, with a warning.
            let list = super::clients::disk_lister(scope.project.root());
            // A role this version no longer ships loses what install recorded
            // writing there and the user left unchanged.
            let recorded = |path: &str| {
                scope
                    .ownership
                    .and_then(|o| o.skill_files.get(path))
                    .and_then(Value::as_str)
                    .map(String::from)
            };
            let (paths, warnings) =
                super::clients::skill_removal(scope.tree, &folder, &name, &recorded, &list)?;
            found
                .ops
                .extend(paths.into_iter().map(|path| Op::Remove { path }));
            found.warnings.extend(warnings);
            found.integration = true;
            if !found.clients.contains(&client) {
                found.clients.push(client);
            }
        }
    }
    Ok(found)
}

fn read_ownership(tree: &dyn Tree) -> Result<Ownership> {
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
    let skill_overrides = managed
        .get(CLAUDE_SETTINGS)
        .and_then(|c| c.get("skillOverrides"))
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let skill_files = match top.get(standards_core::setup::clients::SKILL_FILES) {
        None => Map::new(),
        Some(Value::Object(o)) if o.values().all(Value::is_string) => o.clone(),
        Some(_) => {
            return Err(invalid(format!(
                "`{}` must map skill file paths to digests",
                standards_core::setup::clients::SKILL_FILES
            )))
        }
    };
    Ok(Ownership {
        created,
        skill_overrides,
        skill_files,
    })
}

fn count_md(project: &Project, rel: &str) -> usize {
    let mut n = 0;
    let mut stack = vec![project.root().join(rel)];
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
    let ownership = if runtime {
        require_runtime(&tree, project, "uninstall")?;
        let o = read_ownership(&tree)?;
        refuse_links(project, STANDARDS_DIR, "uninstall")?;
        Some(o)
    } else {
        None
    };
    let scope = Scope {
        project,
        tree: &tree,
        ownership: ownership.as_ref(),
    };
    let mut ops = Vec::new();
    let mut later_warnings = Vec::new();
    let mut clients = Vec::new();
    let mut integration = false;
    for entry in INTEGRATIONS {
        let found = (entry.plan)(&scope)?;
        ops.extend(found.ops);
        later_warnings.extend(found.warnings);
        integration |= found.integration;
        for c in found.clients {
            if !clients.contains(&c) {
                clients.push(c);
            }
        }
    }
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
    if let Some(o) = &ownership {
        for dir in CREATED_DIRS {
            if !o.created.iter().any(|c| c == dir) {
                continue;
            }
            let full = project.root().join(dir);
            match std::fs::symlink_metadata(&full) {
                Err(_) => continue,
                Ok(m) if !m.is_dir() => {
                    return Err(Error::refused(
                        format!("refusing to uninstall: `{dir}` was recorded as a created folder but is not one"),
                        None,
                    ))
                }
                Ok(_) => {}
            }
            let all_planned = std::fs::read_dir(&full)
                .map_err(|e| Error::io(&full, e))?
                .flatten()
                .all(|e| {
                    let child = format!("{dir}/{}", e.file_name().to_string_lossy());
                    ops.iter()
                        .any(|op| matches!(op, Op::Remove { path } if *path == child))
                });
            if all_planned {
                ops.push(Op::Remove { path: dir.into() });
            }
        }
    }
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
    let root = project.root().display().to_string();
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn managed_blocks_come_out_with_their_line_ending() {
        let text = "# Mine\n\n<!-- standards:start -->\nread .standards/PROTOCOL.md\n<!-- standards:end -->\n\nmore\n";
        assert_eq!(
            without_block(text, "AGENTS.md").unwrap().unwrap(),
            "# Mine\n\nmore\n"
        );
        let only = "<!-- standards:start -->\nx\n<!-- standards:end -->\n";
        assert_eq!(without_block(only, "AGENTS.md").unwrap().unwrap(), "");
        assert_eq!(without_block("plain\n", "AGENTS.md").unwrap(), None);
        assert!(without_block("<!-- standards:end -->\n", "AGENTS.md").is_err());
        assert!(without_block("<!-- standards:start -->\n", "AGENTS.md").is_err());
    }

    #[test]
    fn only_standards_handlers_are_stripped() {
        let mut m: Map<String, Value> = serde_json::from_str(r#"{"hooks":{"Stop":[
            {"hooks":[{"type":"command","command":"node .standards/bin/hook.mjs"}]},
            {"hooks":[{"type":"command","command":"mine.sh"},{"type":"command","command":"git standards hook stop"}]}
        ]},"other":1}"#).unwrap();
        assert!(strip_handlers(&mut m, "x").unwrap());
        assert_eq!(
            Value::Object(m),
            serde_json::json!({"hooks":{"Stop":[{"hooks":[{"type":"command","command":"mine.sh"}]}]},"other":1})
        );
        let mut only: Map<String, Value> = serde_json::from_str(
            r#"{"hooks":{"Stop":[{"hooks":[{"command":"git standards hook stop"}]}]}}"#,
        )
        .unwrap();
        strip_handlers(&mut only, "x").unwrap();
        assert!(only.is_empty());
    }
}
