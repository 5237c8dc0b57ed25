//! `git standards archive list|show|restore`: reads back what reset and
//! uninstall archived under `refs/standards/archive/` (D21).

use crate::cli::values::ref_value;
use crate::commands::Context;
use crate::error::{Error, Result};
use crate::repo::archive;
use crate::repo::journal::{self, Change};
use crate::repo::Project;
use clap::Subcommand;
use standards_core::audit::{Event, EventKind};

#[derive(Debug, Subcommand)]
pub enum ArchiveCommand {
    /// List the archives: name, commit, time, files, versions, operation and branch.
    List {
        /// Print one JSON object: {"ok": true, "archives": [{name, ref, commit, time, versions, files, operation, branch}]}.
        #[arg(long)]
        json: bool,
    },
    /// List an archive's files, or print one archived file byte for byte.
    Show {
        /// The archive (`<cycle-id>`, `reset-<time>`, optionally `~<n>` for an older version).
        #[arg(value_parser = ref_value)]
        name: String,
        /// A file (or folder) in the archive; `.standards/` may be left out.
        path: Option<String>,
        /// Print one JSON object: {"ok": true, "command": "archive show", "archive", "commit", "files": [path]} for a listing, or {..., "file", "size", "content" (the file's text; null when it is not UTF-8)} for one file; a refusal prints {"ok": false, "error", "hint"}.
        #[arg(long)]
        json: bool,
    },
    /// Write archived files back into the working tree; refuses to overwrite anything.
    Restore {
        /// The archive (`<cycle-id>`, `reset-<time>`, optionally `~<n>`).
        #[arg(value_parser = ref_value)]
        name: String,
        /// Files or folders to restore; `.standards/` may be left out.
        #[arg(required = true)]
        paths: Vec<String>,
        /// Print one JSON object: {"ok": true, "command": "archive restore", "archive", "commit", "restored": [path as archived]}; a refusal prints {"ok": false, "error", "hint"}.
        #[arg(long)]
        json: bool,
    },
}

/// The failpoints of `archive restore` (the journal's).
pub const FAILPOINTS: &[&str] = &[
    "archive-restore:journal-staged",
    "archive-restore:journal-begun",
    "archive-restore:step-applied",
    "archive-restore:step-recorded",
    "archive-restore:journal-closing",
];

/// `archive list [--json]`.
pub fn run_list(ctx: &mut Context, json: bool) -> Result<()> {
    let project = Project::discover(&ctx.cwd)?;
    let all = archive::list(&project)?;
    if json {
        let value = serde_json::json!({ "ok": true, "archives": all });
        writeln!(ctx.out, "{value:#}").map_err(Error::stdout)?;
        return Ok(());
    }
    if all.is_empty() {
        writeln!(
            ctx.err,
            "No archives: `git standards reset --yes` and `git standards uninstall --yes` create them under {}.",
            archive::PREFIX
        )
        .map_err(|e| Error::io("<stderr>", e))?;
        return Ok(());
    }
    for a in &all {
        writeln!(
            ctx.out,
            "{}\t{}\t{}\t{} file(s)\t{} version(s)\t{} on {}",
            a.name,
            &a.commit[..12],
            a.time,
            a.files,
            a.versions,
            a.operation,
            a.branch
        )
        .map_err(Error::stdout)?;
    }
    Ok(())
}

/// The refusal of `show` and `restore` when the archive holds no such path.
fn no_such_file(name: &str, path: &str) -> Error {
    Error::refused(
        format!("archive `{name}` has no file `{path}`"),
        Some(format!(
            "`git standards archive show {name}` lists its files"
        )),
    )
}

/// `archive show <name> [<path>]`: lists the archived files, or prints one
/// file's bytes exactly as archived.
pub fn run_show(ctx: &mut Context, name: &str, path: Option<&str>, json: bool) -> Result<()> {
    let project = Project::discover(&ctx.cwd)?;
    let commit = archive::resolve(&project, name)?;
    let files = archive::files(&project, commit, &archive::label(name))?;
    // `--json` (issue 25): the listed files, or the one file's text.
    let list = |ctx: &mut Context, files: &[&archive::ArchivedFile]| -> Result<()> {
        if json {
            let value = serde_json::json!({
                "ok": true,
                "command": "archive show",
                "archive": name,
                "commit": commit.to_string(),
                "files": files.iter().map(|f| f.path.as_str()).collect::<Vec<_>>(),
            });
            return super::print_result(ctx.out, true, "", value);
        }
        for f in files {
            writeln!(ctx.out, "{}", f.path).map_err(Error::stdout)?;
        }
        Ok(())
    };
    match path {
        None => list(ctx, &files.iter().collect::<Vec<_>>())?,
        Some(path) => {
            let picked = archive::select(&files, path);
            match picked.as_slice() {
                [] => return Err(no_such_file(name, path)),
                [one]
                    if one.path.trim_end_matches('/') == path.trim_end_matches('/')
                        || one.path == format!(".standards/{}", path.trim_end_matches('/')) =>
                {
                    let bytes = archive::blob(&project, one.id)?;
                    if json {
                        let value = serde_json::json!({
                            "ok": true,
                            "command": "archive show",
                            "archive": name,
                            "commit": commit.to_string(),
                            "file": one.path,
                            "size": bytes.len(),
                            "content": std::str::from_utf8(&bytes).ok(),
                        });
                        return super::print_result(ctx.out, true, "", value);
                    }
                    ctx.out.write_all(&bytes).map_err(Error::stdout)?;
                }
                many => list(ctx, many)?,
            }
        }
    }
    Ok(())
}

/// `archive restore <name> <path>...`: writes archived files back into the
/// working tree, refusing to overwrite anything that exists.
pub fn run_restore(ctx: &mut Context, name: &str, paths: &[String], json: bool) -> Result<()> {
    let project = Project::discover(&ctx.cwd)?;
    project.require_workdir()?;
    // Issue 21: held from checking the targets to the last write.
    let _lock = journal::lock(&project, "archive-restore")?;
    journal::refuse_if_pending(&project)?;
    crate::support::conflicts::refuse_during_conflict(ctx, &project, "archive restore")?;
    let commit = archive::resolve(&project, name)?;
    let files = archive::files(&project, commit, &archive::label(name))?;
    let mut changes = Vec::new();
    let mut chosen: Vec<String> = Vec::new();
    for path in paths {
        let picked = archive::select(&files, path);
        if picked.is_empty() {
            return Err(no_such_file(name, path));
        }
        for f in picked {
            if chosen.contains(&f.path) {
                continue;
            }
            if f.is_link() {
                return Err(Error::refused(
                    format!(
                        "refusing to restore `{}`: it was archived as a symbolic link",
                        f.path
                    ),
                    Some(format!(
                        "read its target with `git standards archive show {name} {}`",
                        f.path
                    )),
                ));
            }
            if archive::occupied(project.root(), &f.path) {
                return Err(Error::refused(
                    format!("refusing to restore `{}`: something already exists there", f.path),
                    Some(format!("move it away first, or read the archived copy with `git standards archive show {name} {}`", f.path)),
                ));
            }
            changes.push(Change::write(
                f.path.clone(),
                archive::blob(&project, f.id)?,
            ));
            chosen.push(f.path.clone());
        }
    }
    // Issue 21: the event is the journal's last step, so the files land with
    // their event (after a crash, through `recover`) or not at all.
    if !changes.is_empty() {
        let event = Event::new(EventKind::ArchiveRestored)
            .detail("archive", name)
            .detail("archive_commit", commit.to_string())
            .detail("paths", chosen.clone());
        changes.push(crate::support::audit::journalled(&project, event).0);
    }
    journal::write_all(
        &project,
        "archive-restore",
        changes,
        serde_json::json!({ "archive": name, "paths": chosen }),
    )?;
    // The restored files as the working tree has them (relative to the current
    // folder); `archive show` keeps the archive's own paths, which `show` and
    // `restore` take back.
    let view = ctx.path_view(&project);
    if json {
        let value = serde_json::json!({
            "ok": true,
            "command": "archive restore",
            "archive": name,
            "commit": commit.to_string(),
            "restored": chosen,
        });
        super::print_result(ctx.out, true, "", value)?;
    } else {
        for p in &chosen {
            writeln!(ctx.out, "restored       {}", view.show(p)).map_err(Error::stdout)?;
        }
    }
    writeln!(
        ctx.err,
        "Restored {} file(s) from archive `{name}`; nothing was overwritten.",
        chosen.len()
    )
    .map_err(|e| Error::io("<stderr>", e))?;
    Ok(())
}
