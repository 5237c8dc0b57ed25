//! `git standards hooks install|uninstall|status`: the git hooks, the STATE.md
//! merge driver (D24) and what another hook manager needs instead.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::commands::Context;
use crate::error::{Error, Result};
use crate::repo::hooks::{self, HookFile, Manager, ATTRIBUTE_LINE};
use crate::repo::{failpoint, projects, Project};
use clap::Subcommand;
use standards_core::audit::{Event, EventKind};

#[derive(Debug, Subcommand)]
pub enum HooksCommand {
    /// Install the git hooks and the STATE.md merge driver.
    ///
    /// Without options: pre-commit (`check --staged` for every project, and the merge guard while a merge, squash merge or cherry-pick is in progress), pre-merge-commit (the merge guard, then the same check), reference-transaction (refuses to move the main branch, or a protected one, to arriving history that fails the merge guard: fast-forwards, pulls, rebases, cherry-picks; plain commits pass) and the merge driver (a `.standards/STATE.md merge=standards` line in each project's `.gitattributes`, plus `merge.standards.driver = git standards merge-driver %O %A %B %P` in the repository's config). Name options to choose; --pre-push runs `verify` and the merge guard on what is pushed.
    ///
    /// Hooks go where git runs them: `core.hooksPath`, else the common git directory's `hooks/` (shared by linked worktrees). Each is a shim marked with its fingerprint. A hook you already have is kept as `<hook>.local` and runs first; its exit status stops the hook as before. When pre-commit, lefthook or husky manages the hooks, nothing is written: the snippet for that manager is printed instead. Running it again changes nothing.
    #[command(verbatim_doc_comment)]
    Install(HooksInstallArgs),
    /// Remove what `hooks install` added and put back the hooks that were there, byte for byte.
    Uninstall(HooksUninstallArgs),
    /// Show each hook, the merge driver, the `.gitattributes` lines and any hook manager.
    Status(HooksStatusArgs),
}

#[derive(Debug, clap::Args)]
pub struct HooksStatusArgs {
    /// Print one JSON object on stdout: {"ok": true, "command": "hooks status", "items": [{name, state}]}, one item per line of the text output; a refusal prints {"ok": false, "error", "hint"}.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, clap::Args)]
pub struct HooksInstallArgs {
    #[arg(long)]
    pub pre_commit: bool,
    #[arg(long)]
    pub pre_merge_commit: bool,
    #[arg(long)]
    pub pre_push: bool,
    #[arg(long)]
    pub reference_transaction: bool,
    #[arg(long)]
    pub merge_driver: bool,
    /// Print one JSON object on stdout: {"ok": true, "command": "hooks install", "messages": [the text form's lines, which stderr still shows], "snippet": the hook manager's configuration or null}; a refusal prints {"ok": false, "error", "hint"}.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, clap::Args)]
pub struct HooksUninstallArgs {
    /// Print one JSON object on stdout: {"ok": true, "command": "hooks uninstall", "messages": [the text form's lines, which stderr still shows], "snippet": null}; a refusal prints {"ok": false, "error", "hint"}.
    #[arg(long)]
    pub json: bool,
}

/// Where a test may kill `hooks install` (`GIT_STANDARDS_FAILPOINT`).
pub const FAILPOINTS: &[&str] = &[
    "hooks-install:chain",
    "hooks-install:shim",
    "hooks-install:driver",
    "hooks-install:attributes",
];

/// What `install` sets up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selection {
    pub hooks: Vec<&'static str>,
    pub merge_driver: bool,
}

impl Selection {
    /// pre-commit, pre-merge-commit, reference-transaction (the only local
    /// hook that sees fast-forwards, pulls and cherry-picks: issue 22) and
    /// the merge driver.
    pub fn default_set() -> Selection {
        Selection {
            hooks: vec!["pre-commit", "pre-merge-commit", "reference-transaction"],
            merge_driver: true,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    Install(Selection),
    Uninstall,
    /// With `json`, one JSON object on stdout instead of the lines.
    Status {
        json: bool,
    },
}

/// What install did, so uninstall restores exactly what was there. Kept in
/// the common git directory (hooks are shared by linked worktrees).
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
struct Record {
    /// Hooks whose previous file is kept as `<hook>.local`.
    chained: Vec<String>,
    /// `.gitattributes` files (repository-relative) install created, and those it appended to.
    created_attributes: Vec<String>,
    appended_attributes: Vec<String>,
}

fn record_path(project: &Project) -> PathBuf {
    project.common_dir().join("standards").join("hooks.json")
}

fn read_record(project: &Project) -> Result<Record> {
    let path = record_path(project);
    match std::fs::read(&path) {
        Ok(bytes) => serde_json::from_slice(&bytes).map_err(|e| Error::Invalid {
            path: path.display().to_string(),
            message: format!("cannot read the hooks record: {e}"),
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Record::default()),
        Err(e) => Err(Error::io(&path, e)),
    }
}

fn write_record(project: &Project, record: &Record) -> Result<()> {
    let path = record_path(project);
    let dir = std::path::absolute(path.parent().unwrap_or(Path::new(".")))
        .map_err(|e| Error::io(&path, e))?;
    std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
    let bytes = serde_json::to_vec_pretty(record).map_err(|e| Error::Internal(e.to_string()))?;
    crate::repo::write::atomic_write(
        &dir,
        "hooks.json",
        &bytes,
        crate::repo::write::Existing::Replace,
    )
}

/// Issue 22, item 5: a clone's local git config is never cloned, so a fresh
/// clone has the `.gitattributes` line (`merge=standards`) without
/// `merge.standards.driver`, and git line-merges STATE.md. Every writing
/// command (through the conflict guard they all call), `install` and `hooks
/// install` register the driver when `.gitattributes` names it and no driver
/// is configured, with a note; a driver the user configured is kept.
pub fn register_driver_if_named(ctx: &mut Context, project: &Project) -> Result<()> {
    let Some(top) = project.workdir() else {
        return Ok(());
    };
    let names_it = |path: &Path| {
        std::fs::read_to_string(path).is_ok_and(|text| {
            text.lines()
                .any(|l| !l.trim_start().starts_with('#') && l.contains("merge=standards"))
        })
    };
    if !names_it(&top.join(".gitattributes")) && !names_it(&project.root().join(".gitattributes")) {
        return Ok(());
    }
    if hooks::driver_configured(project)?.is_some() {
        return Ok(());
    }
    hooks::configure_driver(project)?;
    say(
        ctx,
        format!(
            "Registered the STATE.md merge driver in this clone (git config merge.standards.driver = `{}`), as .gitattributes asks: a clone does not copy it, and without it git line-merges two branches' STATE.md (D24).",
            hooks::DRIVER
        ),
    )
}

fn say(ctx: &mut Context, text: impl AsRef<str>) -> Result<()> {
    writeln!(ctx.err, "{}", text.as_ref()).map_err(|e| Error::io("<stderr>", e))
}

fn read_bytes(path: &Path) -> Result<Option<Vec<u8>>> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => Ok(Some(
            format!(
                "symlink to {}",
                std::fs::read_link(path)
                    .map(|p| p.display().to_string())
                    .unwrap_or_default()
            )
            .into_bytes(),
        )),
        Ok(_) => std::fs::read(path)
            .map(Some)
            .map_err(|e| Error::io(path, e)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Error::io(path, e)),
    }
}

fn exists(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok()
}

/// Project folders of the working tree (the index's and the current one).
fn project_dirs(project: &Project) -> Result<Vec<String>> {
    let mut dirs = projects::in_index(project)?;
    if project.root().join(".standards").is_dir()
        && !dirs.iter().any(|d| d == project.root_in_repo())
    {
        dirs.push(project.root_in_repo().to_string());
    }
    dirs.sort();
    dirs.dedup();
    Ok(dirs)
}

fn attributes_rel(dir: &str) -> String {
    if dir.is_empty() {
        ".gitattributes".to_string()
    } else {
        format!("{dir}/.gitattributes")
    }
}

fn has_line(text: &str) -> bool {
    text.lines().any(|l| l.trim() == ATTRIBUTE_LINE)
}

pub fn run(ctx: &mut Context, action: &Action) -> Result<()> {
    if let Action::Status { json: true } = action {
        return status_json(ctx);
    }
    let project = Project::discover(&ctx.cwd)?;
    if project.workdir().is_none() {
        // A bare repository (a server): the server hooks instead (issue 22).
        use crate::commands::server_hook;
        return match action {
            Action::Install(_) => server_hook::install(ctx, &project),
            Action::Uninstall => server_hook::uninstall(ctx, &project),
            Action::Status { .. } => server_hook::status(ctx, &project),
        };
    }
    if !matches!(action, Action::Status { .. }) {
        crate::repo::journal::refuse_if_pending(&project)?;
    }
    match action {
        Action::Install(selection) => install(ctx, &project, selection),
        Action::Uninstall => uninstall(ctx, &project),
        Action::Status { .. } => status(ctx, &project),
    }
}

/// `hooks install --json` and `hooks uninstall --json` (issue 25): what the
/// text form says on stderr, one line each, as `messages` (still printed on
/// stderr too), and what it prints on stdout (the configuration snippet for a
/// hook manager) as `snippet`, null when there is none.
pub fn run_json(ctx: &mut Context, action: &Action) -> Result<()> {
    let mut out = Vec::new();
    let mut err = Vec::new();
    let result = {
        let mut inner = Context {
            cwd: ctx.cwd.clone(),
            out: &mut out,
            err: &mut err,
            color: false,
        };
        run(&mut inner, action)
    };
    ctx.err
        .write_all(&err)
        .map_err(|e| Error::io("<stderr>", e))?;
    result?;
    let command = match action {
        Action::Install(_) => "hooks install",
        Action::Uninstall => "hooks uninstall",
        Action::Status { .. } => return status_json(ctx),
    };
    let messages = String::from_utf8_lossy(&err);
    let snippet = String::from_utf8_lossy(&out);
    let value = serde_json::json!({
        "ok": true,
        "command": command,
        "messages": messages.lines().collect::<Vec<_>>(),
        "snippet": (!snippet.is_empty()).then(|| snippet.to_string()),
    });
    crate::commands::print_result(ctx.out, true, "", value)
}

/// `hooks status --json` (issue 25): the status lines, each `<name>: <state>`,
/// as `{"ok": true, "command": "hooks status", "items": [{name, state}]}`.
fn status_json(ctx: &mut Context) -> Result<()> {
    let mut text = Vec::new();
    {
        let mut inner = Context {
            cwd: ctx.cwd.clone(),
            out: &mut text,
            err: &mut *ctx.err,
            color: false,
        };
        run(&mut inner, &Action::Status { json: false })?;
    }
    let text = String::from_utf8_lossy(&text);
    let items: Vec<serde_json::Value> = text
        .lines()
        .map(|l| match l.split_once(": ") {
            Some((name, state)) => serde_json::json!({"name": name, "state": state}),
            None => serde_json::json!({"name": l, "state": null}),
        })
        .collect();
    let value = serde_json::json!({"ok": true, "command": "hooks status", "items": items});
    crate::commands::print_result(ctx.out, true, "", value)
}

fn install(ctx: &mut Context, project: &Project, selection: &Selection) -> Result<()> {
    let mut changed: Vec<String> = Vec::new();
    let top = project.require_workdir()?.to_path_buf();
    let (dir, from_config) = hooks::hooks_dir(project, Some(&top))?;
    let mut record = read_record(project)?;
    let manager = hooks::detect_manager(Some(&top), &dir);
    if let Some(manager) = manager.filter(|_| !selection.hooks.is_empty()) {
        say(
            ctx,
            format!(
                "{} manages this repository's hooks, so no hook file was written; add this to its configuration:",
                manager.name()
            ),
        )?;
        ctx.out
            .write_all(hooks::snippet(manager).as_bytes())
            .map_err(Error::stdout)?;
    } else {
        // Refuse before changing anything: every hook must be installable.
        for name in &selection.hooks {
            let path = dir.join(name);
            let local = dir.join(format!("{name}.local"));
            let current = read_bytes(&path)?;
            if hooks::classify(name, current.as_deref()) == HookFile::Foreign && exists(&local) {
                return Err(Error::refused(
                    format!(
                        "cannot install the {name} hook: `{}` holds another hook and `{}` exists too, so there is no place to keep the first",
                        path.display(),
                        local.display()
                    ),
                    Some(format!("merge the two into `{}` yourself, then run the install again", path.display())),
                ));
            }
        }
        for name in &selection.hooks {
            let path = dir.join(name);
            let current = read_bytes(&path)?;
            match hooks::classify(name, current.as_deref()) {
                HookFile::Current => {
                    say(ctx, format!("The {name} hook is already installed."))?;
                    continue;
                }
                HookFile::Foreign => {
                    let local = dir.join(format!("{name}.local"));
                    // The record first: a crash after it leaves the hook in
                    // place, and the next install moves it.
                    if !record.chained.iter().any(|c| c == name) {
                        record.chained.push(name.to_string());
                    }
                    write_record(project, &record)?;
                    failpoint::hit("hooks-install:chain");
                    std::fs::rename(&path, &local).map_err(|e| Error::io(&path, e))?;
                    failpoint::hit("hooks-install:shim");
                    say(
                        ctx,
                        format!(
                            "Kept your {name} hook as `{}`; it runs first, and its failure stops the commit as before.",
                            local.display()
                        ),
                    )?;
                }
                HookFile::Absent | HookFile::Outdated => {}
            }
            hooks::write_hook(&dir, name, &hooks::shim(name))?;
            changed.push(name.to_string());
            say(
                ctx,
                format!("Installed the {name} hook in `{}`.", dir.display()),
            )?;
        }
        if from_config && !selection.hooks.is_empty() {
            say(
                ctx,
                format!(
                    "(core.hooksPath is set: git runs hooks from `{}`.)",
                    dir.display()
                ),
            )?;
        }
    }
    if selection.merge_driver {
        if hooks::driver_configured(project)?.as_deref() != Some(hooks::DRIVER) {
            changed.push("merge-driver".into());
        }
        failpoint::hit("hooks-install:driver");
        hooks::configure_driver(project)?;
        for dir in project_dirs(project)? {
            let rel = attributes_rel(&dir);
            let existing = read_bytes(&top.join(&rel))?;
            let text = match &existing {
                Some(bytes) => String::from_utf8_lossy(bytes).into_owned(),
                None => String::new(),
            };
            if has_line(&text) {
                continue;
            }
            let mut new = text.clone();
            if !new.is_empty() && !new.ends_with('\n') {
                new.push('\n');
            }
            new.push_str(ATTRIBUTE_LINE);
            new.push('\n');
            // The record first, so an interrupted install is still undone.
            let list = if existing.is_some() {
                &mut record.appended_attributes
            } else {
                &mut record.created_attributes
            };
            if !list.contains(&rel) {
                list.push(rel.clone());
            }
            write_record(project, &record)?;
            failpoint::hit("hooks-install:attributes");
            crate::repo::write::atomic_write(
                &top,
                &rel,
                new.as_bytes(),
                crate::repo::write::Existing::Replace,
            )?;
            say(ctx, format!("Added `{ATTRIBUTE_LINE}` to `{rel}`; commit it so every clone merges STATE.md as one value."))?;
        }
        say(
            ctx,
            format!(
                "Configured the STATE.md merge driver (`merge.standards.driver = {}`).",
                hooks::DRIVER
            ),
        )?;
    }
    if !changed.is_empty() {
        let event = Event::new(EventKind::HooksInstalled)
            .detail("hooks", changed)
            .detail("folder", dir.display().to_string());
        // Issue 21: never exit 0 having dropped the event.
        crate::support::audit::append_or_fail(ctx, project, event, "the hooks were installed")?;
    }
    Ok(())
}

fn uninstall(ctx: &mut Context, project: &Project) -> Result<()> {
    let mut removed: Vec<String> = Vec::new();
    let top = project.workdir().map(Path::to_path_buf);
    let (dir, _) = hooks::hooks_dir(project, top.as_deref())?;
    let mut record = read_record(project)?;
    for name in hooks::HOOKS {
        let path = dir.join(name);
        let local = dir.join(format!("{name}.local"));
        let current = read_bytes(&path)?;
        match hooks::classify(name, current.as_deref()) {
            HookFile::Current | HookFile::Outdated => {
                std::fs::remove_file(&path).map_err(|e| Error::io(&path, e))?;
                removed.push(name.to_string());
                if record.chained.iter().any(|c| c == name) && exists(&local) {
                    std::fs::rename(&local, &path).map_err(|e| Error::io(&local, e))?;
                    say(ctx, format!("Removed the {name} hook and put yours back."))?;
                } else {
                    say(ctx, format!("Removed the {name} hook."))?;
                }
                record.chained.retain(|c| c != name);
            }
            HookFile::Foreign => say(
                ctx,
                format!(
                    "Left `{}` alone: it is not a git-standards hook (or was edited).",
                    path.display()
                ),
            )?,
            HookFile::Absent => {}
        }
    }
    hooks::forget_passed_commit(project);
    if hooks::remove_driver(project)? {
        removed.push("merge-driver".into());
        say(ctx, "Removed the STATE.md merge driver configuration.")?;
    }
    if let Some(top) = &top {
        for rel in record
            .created_attributes
            .clone()
            .into_iter()
            .chain(record.appended_attributes.clone())
        {
            let path = top.join(&rel);
            let Some(bytes) = read_bytes(&path)? else {
                continue;
            };
            let text = String::from_utf8_lossy(&bytes).into_owned();
            let kept: Vec<&str> = text
                .lines()
                .filter(|l| l.trim() != ATTRIBUTE_LINE)
                .collect();
            if kept.is_empty() && record.created_attributes.contains(&rel) {
                std::fs::remove_file(&path).map_err(|e| Error::io(&path, e))?;
                say(
                    ctx,
                    format!("Removed `{rel}`, which hooks install had created."),
                )?;
            } else if kept.len() != text.lines().count() {
                let mut new = kept.join("\n");
                if !new.is_empty() {
                    new.push('\n');
                }
                crate::repo::write::atomic_write(
                    top,
                    &rel,
                    new.as_bytes(),
                    crate::repo::write::Existing::Replace,
                )?;
                say(ctx, format!("Removed `{ATTRIBUTE_LINE}` from `{rel}`."))?;
            }
        }
    }
    record.created_attributes.clear();
    record.appended_attributes.clear();
    let path = record_path(project);
    if record.chained.is_empty() {
        if exists(&path) {
            std::fs::remove_file(&path).map_err(|e| Error::io(&path, e))?;
        }
    } else {
        write_record(project, &record)?;
    }
    if !removed.is_empty() {
        let event = Event::new(EventKind::HooksUninstalled).detail("hooks", removed);
        crate::support::audit::append_or_fail(ctx, project, event, "the hooks were removed")?;
    }
    Ok(())
}

fn status(ctx: &mut Context, project: &Project) -> Result<()> {
    let top = project.workdir().map(Path::to_path_buf);
    let (dir, from_config) = hooks::hooks_dir(project, top.as_deref())?;
    let record = read_record(project)?;
    let out = &mut *ctx.out;
    let line = |out: &mut dyn Write, text: String| writeln!(out, "{text}").map_err(Error::stdout);
    line(
        out,
        format!(
            "hooks folder: {}{}",
            dir.display(),
            if from_config { " (core.hooksPath)" } else { "" }
        ),
    )?;
    for name in hooks::HOOKS {
        let current = read_bytes(&dir.join(name))?;
        let state = match hooks::classify(name, current.as_deref()) {
            // Issue 22: the only local door for fast-forwards and pulls.
            HookFile::Absent if name == "reference-transaction" => "not installed: fast-forwards, pulls and cherry-picks onto the main branch go unguarded (run `git standards hooks install`)".to_string(),
            HookFile::Absent => "not installed".to_string(),
            HookFile::Current => "installed".to_string(),
            HookFile::Outdated => {
                "installed by another version (run `git standards hooks install` to update)"
                    .to_string()
            }
            HookFile::Foreign => "another hook (not git-standards)".to_string(),
        };
        let chained = if record.chained.iter().any(|c| c == name)
            && exists(&dir.join(format!("{name}.local")))
        {
            format!(", runs your {name}.local first")
        } else {
            String::new()
        };
        line(out, format!("{name}: {state}{chained}"))?;
    }
    let driver = match hooks::driver_configured(project)? {
        Some(cmd) => format!("configured (`{cmd}`)"),
        None => "not configured".to_string(),
    };
    line(out, format!("merge driver: {driver}"))?;
    if let Some(top) = &top {
        for d in project_dirs(project)? {
            let rel = attributes_rel(&d);
            let has = read_bytes(&top.join(&rel))?
                .map(|b| has_line(&String::from_utf8_lossy(&b)))
                .unwrap_or(false);
            line(
                out,
                format!(
                    "{rel}: {}",
                    if has {
                        ATTRIBUTE_LINE
                    } else {
                        "no merge=standards line"
                    }
                ),
            )?;
        }
    }
    let manager = hooks::detect_manager(top.as_deref(), &dir).map(Manager::name);
    line(out, format!("hook manager: {}", manager.unwrap_or("none")))
}
