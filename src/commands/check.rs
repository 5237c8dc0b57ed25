//! `git standards check`: every protocol rule on a snapshot, compared with the
//! last commit.

use std::collections::BTreeMap;
use std::io::Write;

use crate::commands::Context;
use crate::error::{Error, Result};
use crate::protocol::check::{self, runtime, Options, Report};
use crate::protocol::tree::Tree;
use crate::repo::{ObjectTree, Project};

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
    pub options: Options,
}

/// Runs the checker on the chosen snapshot and returns its report and a description.
pub fn evaluate(
    project: &Project,
    source: &Source,
    options: Options,
) -> Result<(Report, String, Option<String>)> {
    let run = |tree: &dyn Tree, head: Option<&ObjectTree>| -> Result<Report> {
        if !runtime::installed(tree) {
            // RT-000, said for the snapshot that lacks it.
            return Err(match source {
                Source::Worktree => Error::NotInstalled { root: project.root.clone() },
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
        Ok(check::run(tree, head.map(|h| h as &dyn Tree), options))
    };
    match source {
        Source::Worktree => {
            let tree = project.worktree()?;
            let head = project.head()?;
            let against = head.as_ref().map(|h| h.describe());
            Ok((run(&tree, head.as_ref())?, tree.describe(), against))
        }
        Source::Staged => {
            let tree = project.index()?;
            let head = project.head()?;
            let against = head.as_ref().map(|h| h.describe());
            Ok((run(&tree, head.as_ref())?, tree.describe(), against))
        }
        Source::Rev(rev) => {
            let tree = project.at_rev(rev)?;
            let parent = project.at_rev(&format!("{rev}^")).ok();
            let against = parent.as_ref().map(|h| h.describe());
            Ok((run(&tree, parent.as_ref())?, tree.describe(), against))
        }
    }
}

pub fn run(ctx: &mut Context, request: &Request) -> Result<()> {
    let project = Project::discover(&ctx.cwd)?;
    let (report, source, against) = evaluate(&project, &request.source, request.options)?;
    if request.json {
        print_json(
            ctx.out,
            &report,
            &source,
            against.as_deref(),
            request.options,
        )?;
    } else {
        print_text(ctx.out, &report, &source, ctx.color)?;
    }
    if report.ok() {
        Ok(())
    } else {
        Err(Error::ProblemsFound {
            count: report.problems.len(),
        })
    }
}

fn out_err(e: std::io::Error) -> Error {
    Error::io("<stdout>", e)
}

/// Text: problems grouped by file as `file: message` (with an indented hint),
/// then notes, then one summary line.
pub fn print_text(out: &mut dyn Write, report: &Report, source: &str, color: bool) -> Result<()> {
    let mut by_file: BTreeMap<&str, Vec<&check::Problem>> = BTreeMap::new();
    for p in &report.problems {
        by_file.entry(p.file.as_str()).or_default().push(p);
    }
    let (bold, reset) = if color {
        ("\u{1b}[1m", "\u{1b}[0m")
    } else {
        ("", "")
    };
    for (file, problems) in &by_file {
        for p in problems {
            writeln!(out, "{bold}{file}{reset}: {} [{}]", p.message, p.rule).map_err(out_err)?;
            if let Some(hint) = &p.hint {
                writeln!(out, "    hint: {hint}").map_err(out_err)?;
            }
        }
    }
    for note in &report.notes {
        writeln!(out, "note: {note}").map_err(out_err)?;
    }
    let n = report.problems.len();
    if n == 0 {
        writeln!(out, "check passed: no problems in {source}").map_err(out_err)?;
    } else {
        let files = by_file.len();
        writeln!(
            out,
            "check failed: {n} problem{} in {files} file{} ({source})",
            if n == 1 { "" } else { "s" },
            if files == 1 { "" } else { "s" }
        )
        .map_err(out_err)?;
    }
    Ok(())
}

/// JSON: `{ "ok", "problems": [{rule, file, message, source, hint}], "notes", "checked": {...} }`.
pub fn print_json(
    out: &mut dyn Write,
    report: &Report,
    source: &str,
    against: Option<&str>,
    options: Options,
) -> Result<()> {
    let value = serde_json::json!({
        "ok": report.ok(),
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
