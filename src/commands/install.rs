//! `git standards install`: first install, reinstall and upgrade of the runtime
//! (RT §7.6, decisions D2, D8, D10). The planning is the core's
//! [`standards_core::setup::install`] and [`standards_core::setup::client_plan`];
//! this reads the project, applies the plans through the journal and reports.

use std::io::Write;

use crate::commands::Context;
use crate::error::{Error, Result};
use crate::repo::{change_plan, journal, notes_config, trail, Project};
use crate::support::audit;
use crate::support::paths::PathView;
use clap::ValueEnum;
use standards_core::audit::{Event, EventKind};
use standards_core::check::runtime::HeldBy;
use standards_core::model::layout::{CHAPTERS_DIR, INSTALLATION_PATH, STANDARDS_DIR, STATE_PATH};
use standards_core::model::tree::{Node, Text, Tree};
use standards_core::model::vocab::ProjectMode;
use standards_core::setup::change::Step;
use standards_core::setup::client_plan;
use standards_core::setup::install::{
    installation_json, mode_reason, Asked, InstallError, InstallKind, Plan, RootListing, Version,
    REPAIRABLE,
};

#[derive(Debug, clap::Args)]
pub struct InstallArgs {
    /// Project mode for a first install; inferred from the project's files when absent. A reinstall recreates a runtime file that is missing and that git holds no copy of (and says so); a lost MODE.md only with `--mode`, which is never guessed for an installed project.
    #[arg(long, value_enum, ignore_case = true)]
    pub mode: Option<ModeArg>,
    /// Show what would change without writing anything.
    #[arg(long)]
    pub dry_run: bool,
    /// Agent clients to set up: role skills, explicit-invocation settings, the stop hook and the AGENTS.md/CLAUDE.md blocks. `none` removes what install added for every client. Without it: the installed clients; on a first setup, the clients whose folders (.claude/, .agents/, .codex/) exist, else none (on a terminal, you are asked).
    #[arg(
        long,
        value_enum,
        ignore_case = true,
        value_name = "claude|codex|both|none"
    )]
    pub client: Option<ClientChoiceArg>,
    /// Leave out the stop hook (`git standards hook stop`), or remove it.
    #[arg(long, conflicts_with = "hooks")]
    pub no_hooks: bool,
    /// Add the stop hook (the default on a first setup; a reinstall keeps the recorded choice).
    #[arg(long)]
    pub hooks: bool,
    /// Print one JSON object on stdout instead of the report, and never ask which clients to set up: {"ok": true, "command": "install", "dryRun", "lines": [the text report's lines]}; a refusal prints {"ok": false, "error", "hint"}.
    #[arg(long)]
    pub json: bool,
}

/// `install --client`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ClientChoiceArg {
    Claude,
    Codex,
    Both,
    None,
}

impl From<ClientChoiceArg> for standards_core::setup::client_plan::Choice {
    fn from(c: ClientChoiceArg) -> Self {
        match c {
            ClientChoiceArg::Claude => Self::Claude,
            ClientChoiceArg::Codex => Self::Codex,
            ClientChoiceArg::Both => Self::Both,
            ClientChoiceArg::None => Self::None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ModeArg {
    Greenfield,
    Brownfield,
}

impl From<ModeArg> for standards_core::model::vocab::ProjectMode {
    fn from(m: ModeArg) -> Self {
        match m {
            ModeArg::Greenfield => Self::Greenfield,
            ModeArg::Brownfield => Self::Brownfield,
        }
    }
}

/// A validated install request.
#[derive(Debug, Clone, Default)]
pub struct Request {
    pub mode: Option<ProjectMode>,
    pub dry_run: bool,
    /// The agent-client part (`--client`, `--hooks`/`--no-hooks`).
    pub clients: client_plan::Request,
    /// Print one JSON object on stdout instead of the report (never asks).
    pub json: bool,
}

/// The refusal for a runtime that is committed but absent from the working tree.
fn refuse_absent_runtime(source: &str) -> Error {
    Error::refused(
        format!("refusing to install: `.standards/` is missing from the working tree, but {source} holds an installed runtime; a first install would replace the committed workflow state"),
        Some(format!("bring it back with `{}` (or, in a sparse checkout, `git sparse-checkout add .standards`), then run `git standards install` again", crate::support::runtime::restore_command(source))),
    )
}

/// Plans the runtime part of an install (the core's planner); a committed
/// runtime missing from the working tree is refused with the command that
/// brings it back.
pub fn plan(tree: &dyn Tree, root: &RootListing, request: &Request) -> Result<Plan> {
    standards_core::setup::install::plan(tree, root, &Asked { mode: request.mode }).map_err(|e| {
        match e {
            InstallError::AbsentRuntime(source) => refuse_absent_runtime(&source),
            other => other.into(),
        }
    })
}

/// Runs `install`.
pub fn run(ctx: &mut Context, request: &Request) -> Result<()> {
    if !request.json {
        return install(ctx, request);
    }
    // `--json` (issue 25): the report's lines in one object; never asks.
    let mut request = request.clone();
    request.clients.no_prompt = true;
    let mut lines = Vec::new();
    {
        let mut inner = Context {
            cwd: ctx.cwd.clone(),
            out: &mut lines,
            err: &mut *ctx.err,
            color: false,
        };
        install(&mut inner, &request)?;
    }
    let lines = String::from_utf8_lossy(&lines);
    let value = serde_json::json!({
        "ok": true,
        "command": "install",
        "dryRun": request.dry_run,
        "lines": lines.lines().collect::<Vec<_>>(),
    });
    super::print_result(ctx.out, true, "", value)
}

fn install(ctx: &mut Context, request: &Request) -> Result<()> {
    let project = Project::discover(&ctx.cwd)?;
    let root = project.require_workdir()?.to_path_buf();
    // Issue 21: held from reading the installed files to the last write (a
    // preview writes nothing, not even the lock file).
    let _lock = if request.dry_run {
        None
    } else {
        Some(journal::lock(&project, "install")?)
    };
    journal::refuse_if_pending(&project)?;
    crate::support::conflicts::refuse_during_conflict(ctx, &project, "install")?;
    // Install always targets the project root found by D1.
    let root = if project.root().starts_with(&root) {
        project.root().to_path_buf()
    } else {
        root
    };
    let tree = project.worktree()?;
    let mut names: Vec<String> = std::fs::read_dir(&root)
        .map_err(|e| Error::io(&root, e))?
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let listing_names = names;
    let standards = root.join(STANDARDS_DIR);
    let empty_standards = std::fs::symlink_metadata(&standards).is_ok_and(|m| m.is_dir())
        && std::fs::read_dir(&standards)
            .map_err(|e| Error::io(&standards, e))?
            .next()
            .is_none();
    let index = project.index()?;
    let committed_runtime = crate::support::runtime::committed_runtime(&project, &tree)?;
    let head = project.head()?;
    let held = REPAIRABLE
        .into_iter()
        .filter(|p| !tree.exists(p))
        .filter_map(|p| {
            if index.exists(p) {
                Some((p, HeldBy::Index))
            } else if head.as_ref().is_some_and(|h| h.exists(p)) {
                Some((p, HeldBy::Head))
            } else {
                None
            }
        })
        .collect();
    let recoverable = tree
        .markdown_files()
        .into_iter()
        .filter(|p| p.starts_with(&format!("{CHAPTERS_DIR}/")))
        .filter(|p| matches!(index.node(p), Node::File(_)) && tree.node(p) == index.node(p))
        .collect();
    let planned = plan(
        &tree,
        &RootListing {
            names: listing_names.clone(),
            empty_standards,
            committed_runtime,
            recoverable,
            held,
        },
        request,
    );
    let mut plan = planned?;
    let clients = plan_clients(&tree, &root, &plan, &request.clients)?;
    plan.set_manifest(&tree, clients.manifest.clone());

    // Everything is validated: the audit trail's git settings come first, so
    // the event (a step of the journal below) names what was really set. A
    // config that cannot be written is a warning with the commands to run,
    // never a failed install.
    let settings = match trail::configure(&project, request.dry_run) {
        Ok(settings) => settings,
        Err(e) => {
            let _ = writeln!(
                ctx.err,
                "warning: the audit trail's git settings were not set: {e}\nwarning: set them with: {}",
                notes_config::commands().join(" && ")
            );
            Vec::new()
        }
    };
    if !request.dry_run {
        // The client files first, PROTOCOL.md (the ownership marker) next,
        // the events last (issue 21): the install lands with its events,
        // after a crash through `recover`, or not at all.
        let mut all = change_plan::journal_changes(&clients.changes);
        all.extend(change_plan::journal_changes(&plan.changes));
        all.extend(events(&project, &plan, &settings, &clients));
        journal::write_all(&project, "install", all, serde_json::Value::Null)?;
    }
    let inferred = (plan.kind == InstallKind::First && request.mode.is_none())
        .then(|| mode_reason(plan.mode, &listing_names));
    let view = PathView::new(&ctx.cwd, &root);
    print_plan(
        ctx.out,
        &plan,
        &root,
        request.dry_run,
        inferred.as_deref(),
        &view,
    )?;
    for path in &plan.restored {
        let path = view.show(path);
        writeln!(
            ctx.out,
            "{}",
            if request.dry_run {
                format!("Would restore `{path}`: it is missing and git holds no copy of it, so it would be recreated from this version's template.")
            } else {
                format!("Restored `{path}`: it was missing and git holds no copy of it, so it was recreated from this version's template.")
            }
        )
        .map_err(Error::stdout)?;
    }
    for op in &plan.changes.steps {
        if let Step::Leave { path } = op {
            let path = view.show(path);
            let _ = writeln!(
                ctx.err,
                "Left `{path}` in place: this version no longer ships it, but git has no unchanged copy of it, so it may be yours; delete it yourself if it is not."
            );
        }
    }
    print_settings(ctx, &settings, request.dry_run)?;
    super::clients::print(ctx.out, &clients, request.dry_run, &view)?;
    if plan.kind == InstallKind::First && !request.dry_run {
        // The first cycle's first role: SCOPING for greenfield, AUDITING for brownfield.
        let role = match plan.mode {
            ProjectMode::Greenfield => "scoper",
            ProjectMode::Brownfield => "auditor",
        };
        let written = written_roots(&plan, &clients)
            .iter()
            .map(|p| crate::support::runtime::shell_word(&view.show(p)))
            .collect::<Vec<_>>()
            .join(" ");
        // Issue 26: with the Claude Code plugin, its skills are typed
        // with the plugin's prefix.
        let claude = if standards_core::setup::plugins::claude_plugin_in(&tree) {
            format!("/{}:{role}", standards_core::setup::plugins::PLUGIN)
        } else {
            format!("/{role}")
        };
        writeln!(
            ctx.out,
            "First steps: commit what install wrote (`git add {written} && git commit -m \"Install STANDARDS\"`), then start the first cycle with `git standards start --request \"<what you want done>\"`; it hands the cycle to the {role}, invoked as `{claude}` in Claude Code or `${role}` in Codex."
        )
        .map_err(Error::stdout)?;
    }
    Ok(())
}

/// The install's events as steps of its journal: `installed` or `upgraded`,
/// then `clients-installed` when client files changed.
fn events(
    project: &Project,
    plan: &Plan,
    settings: &[notes_config::Setting],
    clients: &client_plan::Plan,
) -> Vec<journal::Change> {
    std::iter::once(install_event(plan, settings))
        .chain(client_plan::event(clients))
        .map(|event| audit::journalled(project, event).0)
        .collect()
}

/// The top-level paths an install wrote, `.standards` first (issue 25, item
/// 7): what the first commit adds, so no client file is left untracked.
/// Every one exists once the install is done: each holds a written file.
fn written_roots(plan: &Plan, clients: &client_plan::Plan) -> Vec<String> {
    let runtime = plan.changes.steps.iter().filter_map(|op| match op {
        Step::Create { path, .. } | Step::Replace { path, .. } => Some(path.as_str()),
        _ => None,
    });
    let client = clients
        .changes
        .changes()
        .filter(|op| op.is_write())
        .map(Step::path);
    let mut roots: Vec<String> = Vec::new();
    for path in runtime.chain(client) {
        let top = path.split('/').next().unwrap_or(path).to_string();
        if !roots.contains(&top) {
            roots.push(top);
        }
    }
    roots.sort_by_key(|r| (r != standards_core::model::layout::STANDARDS_DIR, r.clone()));
    roots
}

/// `installed` for a first install, `upgraded` for an upgrade or a reinstall.
fn install_event(plan: &Plan, settings: &[notes_config::Setting]) -> Event {
    let changed: Vec<&str> = plan
        .changes
        .steps
        .iter()
        .filter(|op| !matches!(op, Step::Keep { .. } | Step::Leave { .. }))
        .map(Step::path)
        .collect();
    let set: Vec<String> = settings
        .iter()
        .filter(|s| s.outcome == notes_config::Outcome::Set)
        .map(notes_config::Setting::assignment)
        .collect();
    let version = Version::current().to_string();
    match plan.kind {
        InstallKind::First => Event::new(EventKind::Installed)
            .detail("version", version)
            .detail("mode", plan.mode.to_string())
            .detail("created", changed)
            .detail("config", set),
        InstallKind::Upgrade { from } => Event::new(EventKind::Upgraded)
            .detail("from", from.to_string())
            .detail("version", version)
            .detail("mode", plan.mode.to_string())
            .detail("changed", changed)
            .detail("config", set),
        InstallKind::FromNode { from } => Event::new(EventKind::Upgraded)
            .detail("from", format!("node {from}"))
            .detail("version", version)
            .detail("mode", plan.mode.to_string())
            .detail("changed", changed)
            .detail("migrated", plan.migrated.clone())
            .detail("config", set),
        InstallKind::Reinstall => Event::new(EventKind::Upgraded)
            .detail("from", version.clone())
            .detail("version", version)
            .detail("mode", plan.mode.to_string())
            .detail("changed", changed)
            .detail("config", set),
    }
}

/// The git settings of the audit trail: what was set on stdout, a kept
/// different value as a warning on stderr.
fn print_settings(
    ctx: &mut Context,
    settings: &[notes_config::Setting],
    dry_run: bool,
) -> Result<()> {
    use notes_config::Outcome;
    for s in settings {
        match &s.outcome {
            Outcome::Set => {
                let verb = if dry_run { "would set" } else { "set" };
                writeln!(ctx.out, "{verb:<14} git config {}", s.assignment())
                    .map_err(Error::stdout)?;
            }
            Outcome::AlreadySet => {}
            Outcome::KeptOther(other) => {
                let _ = writeln!(
                    ctx.err,
                    "warning: git config {} is `{other}`, not `{}`; it was kept, but the audit trail's notes may then not merge line by line (set it with `git config {} {}`)",
                    s.key, s.value, s.key, s.value
                );
            }
        }
    }
    Ok(())
}

/// The client part (`commands::clients`), planned against the manifest this
/// install starts from.
fn plan_clients(
    tree: &dyn Tree,
    root: &std::path::Path,
    plan: &Plan,
    request: &client_plan::Request,
) -> Result<client_plan::Plan> {
    let manifest = match (plan.kind, tree.text(INSTALLATION_PATH)) {
        (InstallKind::First, _) => installation_json(),
        (_, Text::Ok(t)) => t,
        _ => installation_json(),
    };
    let list = super::clients::disk_lister(root);
    Ok(client_plan::plan(
        tree,
        &manifest,
        request,
        &list,
        &super::clients::ask_on_terminal,
    )?)
}

/// The failpoints of `install` (D22): the journal's, under `install:`.
pub const FAILPOINTS: &[&str] = &[
    "install:journal-staged",
    "install:journal-begun",
    "install:step-applied",
    "install:step-recorded",
    "install:journal-closing",
];

fn print_plan(
    out: &mut dyn Write,
    plan: &Plan,
    root: &std::path::Path,
    dry_run: bool,
    inferred: Option<&str>,
    view: &PathView,
) -> Result<()> {
    let w = |e: std::io::Error| Error::io("<stdout>", e);
    let changed = plan
        .changes
        .steps
        .iter()
        .filter(|op| !matches!(op, Step::Keep { .. } | Step::Leave { .. }))
        .count();
    let left = plan
        .changes
        .steps
        .iter()
        .any(|op| matches!(op, Step::Leave { .. }));
    if plan.kind == InstallKind::Reinstall && changed == 0 && !left {
        // Nothing to report file by file: one line says so.
        return writeln!(
            out,
            "Verified STANDARDS {} in {}: up to date, nothing {}.",
            Version::current(),
            root.display(),
            if dry_run { "would change" } else { "changed" }
        )
        .map_err(w);
    }
    let verb = |op: &Step| match (op, dry_run) {
        (Step::Create { .. }, false) => "created",
        (Step::Create { .. }, true) => "would create",
        (Step::Replace { .. }, false) => "replaced",
        (Step::Replace { .. }, true) => "would replace",
        (Step::Remove { .. }, false) => "removed",
        (Step::Remove { .. }, true) => "would remove",
        (Step::Keep { .. }, _) => "kept",
        (Step::Leave { .. }, _) => "left (yours)",
    };
    for op in &plan.changes.steps {
        writeln!(out, "{:<14} {}", verb(op), view.show(op.path())).map_err(w)?;
    }
    let action = match (plan.kind, changed, dry_run) {
        (InstallKind::First, _, false) => "Installed".to_string(),
        (InstallKind::First, _, true) => "Would install".to_string(),
        (InstallKind::Upgrade { from }, _, false) => format!("Upgraded from {from} to"),
        (InstallKind::Upgrade { from }, _, true) => format!("Would upgrade from {from} to"),
        (InstallKind::FromNode { from }, _, false) => {
            format!("Upgraded from the Node runtime {from} to")
        }
        (InstallKind::FromNode { from }, _, true) => {
            format!("Would upgrade from the Node runtime {from} to")
        }
        (InstallKind::Reinstall, 0, _) => "Verified".to_string(),
        (InstallKind::Reinstall, _, false) => "Updated".to_string(),
        (InstallKind::Reinstall, _, true) => "Would update".to_string(),
    };
    writeln!(
        out,
        "{action} STANDARDS {} in {}",
        Version::current(),
        root.display()
    )
    .map_err(w)?;
    match inferred {
        Some(reason) => writeln!(
            out,
            "Mode: {} ({reason}); changed paths: {changed}",
            plan.mode
        ),
        None => writeln!(out, "Mode: {}; changed paths: {changed}", plan.mode),
    }
    .map_err(w)?;
    for line in &plan.migrated {
        let verb = if dry_run { "would migrate" } else { "migrated" };
        match line.strip_prefix("moved ") {
            Some(rest) => writeln!(out, "{verb:<14} {rest}"),
            None => writeln!(out, "{verb:<14} {}: {line}", view.show(STATE_PATH)),
        }
        .map_err(w)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use standards_core::model::layout::PROTOCOL_PATH;
    use standards_core::model::tree::MemTree;

    #[test]
    fn the_core_is_released_at_the_binarys_version() {
        assert_eq!(
            Some(Version::current()),
            Version::parse(env!("CARGO_PKG_VERSION"))
        );
    }

    fn names(v: &[&str]) -> RootListing {
        RootListing {
            names: v.iter().map(|s| s.to_string()).collect(),
            ..RootListing::default()
        }
    }

    #[test]
    fn a_committed_runtime_missing_from_the_working_tree_is_never_reinstalled_fresh() {
        for source in ["the index", "HEAD"] {
            let listing = RootListing {
                committed_runtime: Some(source.into()),
                ..names(&[".git"])
            };
            let e = plan(&MemTree::new(), &listing, &Request::default()).unwrap_err();
            let Error::Refused { message, hint } = e else {
                panic!("not a refusal")
            };
            assert!(message.contains(source), "{message}");
            let hint = hint.unwrap();
            let restore = match source {
                "HEAD" => "git restore --source=HEAD --staged --worktree .standards",
                _ => "git restore .standards",
            };
            assert!(hint.contains(restore), "{hint}");
            assert!(
                hint.contains("git sparse-checkout add .standards"),
                "{hint}"
            );
        }
    }

    #[test]
    fn every_planned_change_goes_to_the_journal_with_the_marker_last() {
        let p = plan(
            &MemTree::new(),
            &RootListing::default(),
            &Request::default(),
        )
        .unwrap();
        let changes = change_plan::journal_changes(&p.changes);
        assert_eq!(changes.len(), p.changes.steps.len());
        assert!(
            matches!(changes.last(), Some(journal::Change::Write { path, .. }) if path == PROTOCOL_PATH)
        );
    }
}
