//! `git standards merge-guard [<branch>] [--into <branch>]` (D23): refuse to
//! merge a branch whose committed `.standards/` is not a fresh installation
//! into the main branch or a protected branch. Covers every project of the
//! repository (each folder holding `.standards/` on either side).

use std::collections::BTreeSet;

use crate::audit::{Event, EventKind};
use crate::commands::Context;
use crate::error::{Error, Result};
use crate::protocol::config::Branches;
use crate::protocol::fresh::{self, Freshness};
use crate::protocol::merge_guard::{self, Side, Verdict};
use crate::repo::{projects, Project};

#[derive(Debug, Clone, Default)]
pub struct Request {
    /// The branch or commit to merge; `None`: the merge in progress
    /// (`MERGE_HEAD`, or what `GIT_REFLOG_ACTION` names in the
    /// pre-merge-commit hook), else the staged merge result.
    pub incoming: Option<String>,
    /// The branch merged into; `None`: the current branch.
    pub into: Option<String>,
    /// Say nothing when the merge is allowed (hooks).
    pub quiet: bool,
}

/// What is merged in.
#[derive(Debug, Clone)]
pub enum Incoming {
    /// A commit, with the name the user gave it.
    Commit { name: String, id: gix::ObjectId },
    /// The staged merge result (the pre-merge-commit hook without a name).
    Index,
}

impl Incoming {
    pub fn name(&self) -> &str {
        match self {
            Incoming::Commit { name, .. } => name,
            Incoming::Index => "the staged merge result",
        }
    }
}

/// The guard's answer for every project.
#[derive(Debug, Clone)]
pub struct Report {
    pub incoming: String,
    pub target: String,
    /// Whether the target is the main branch or a protected branch.
    pub guarded: bool,
    pub branches: Branches,
    /// (project folder, verdict), one per project on either side.
    pub projects: Vec<(String, Verdict)>,
}

impl Report {
    pub fn refusals(&self) -> impl Iterator<Item = (&str, &merge_guard::Refusal)> {
        self.projects.iter().filter_map(|(dir, v)| match v {
            Verdict::Refused(r) => Some((dir.as_str(), r)),
            Verdict::Accepted { .. } => None,
        })
    }

    pub fn accepted(&self) -> bool {
        self.refusals().next().is_none()
    }
}

fn git_err(context: &str, e: impl std::fmt::Display) -> Error {
    Error::Git(format!("{context}: {e}"))
}

/// The current branch's short name, if HEAD is on a branch.
pub fn current_branch(project: &Project) -> Result<Option<String>> {
    let head = project
        .repo
        .head_name()
        .map_err(|e| git_err("cannot read HEAD", e))?;
    Ok(head.and_then(|name| {
        let name = name.as_bstr().to_string();
        name.strip_prefix("refs/heads/").map(str::to_string)
    }))
}

/// Resolves a revision to a commit ID, refusing with a clear message.
pub fn resolve_commit(project: &Project, rev: &str) -> Result<gix::ObjectId> {
    crate::repo::resolve_commit(&project.repo, rev).map(|c| c.id)
}

/// The merge in progress: every `MERGE_HEAD` line, else the branches that
/// `GIT_REFLOG_ACTION` (`merge <name>...`, exported to pre-merge-commit, when
/// `MERGE_HEAD` does not exist yet) names, else the staged merge result.
fn incoming_in_progress(project: &Project) -> Result<Vec<Incoming>> {
    let merge_head = project.repo.git_dir().join("MERGE_HEAD");
    if let Ok(text) = std::fs::read_to_string(&merge_head) {
        let mut out = Vec::new();
        for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
            out.push(Incoming::Commit {
                name: line[..line.len().min(12)].to_string(),
                id: resolve_commit(project, line)?,
            });
        }
        if !out.is_empty() {
            return Ok(out);
        }
    }
    if let Ok(action) = std::env::var("GIT_REFLOG_ACTION") {
        if let Some(rest) = action.strip_prefix("merge ") {
            let named: Vec<Incoming> = rest
                .split_whitespace()
                .filter(|w| !w.starts_with('-'))
                .filter_map(|w| {
                    resolve_commit(project, w).ok().map(|id| Incoming::Commit {
                        name: w.to_string(),
                        id,
                    })
                })
                .collect();
            if !named.is_empty() {
                return Ok(named);
            }
        }
    }
    Ok(vec![Incoming::Index])
}

/// Judges merging `incoming` into `target` for every project on either side.
pub fn evaluate(project: &Project, incoming: &Incoming, target: &str) -> Result<Report> {
    let branches = crate::repo::config::branches(project)?;
    let guarded = branches.is_guarded(target);
    let mut report = Report {
        incoming: incoming.name().to_string(),
        target: target.to_string(),
        guarded,
        branches,
        projects: Vec::new(),
    };
    if !guarded {
        return Ok(report);
    }
    let repo = &project.repo;
    // The local branch, else the remote-tracking one (CI checkouts).
    let mut target_tip = None;
    for name in [
        format!("refs/heads/{target}"),
        format!("refs/remotes/origin/{target}"),
    ] {
        if let Some(mut r) = repo
            .try_find_reference(name.as_str())
            .map_err(|e| git_err("cannot read the branch", e))?
        {
            let id = r
                .peel_to_id()
                .map_err(|e| git_err("cannot read the branch", e))?;
            target_tip = Some(id.detach());
            break;
        }
    }
    let mut dirs: BTreeSet<String> = BTreeSet::new();
    match incoming {
        Incoming::Commit { id, .. } => dirs.extend(projects::in_commit(repo, *id)?),
        Incoming::Index => dirs.extend(projects::in_index(repo)?),
    }
    if let Some(tip) = target_tip {
        dirs.extend(projects::in_commit(repo, tip)?);
    }
    for dir in dirs {
        let incoming_fresh = match incoming {
            Incoming::Commit { id, .. } => {
                fresh::judge(&projects::at_rev(repo, &id.to_string(), &dir)?)
            }
            Incoming::Index => fresh::judge(&projects::at_index(repo, &dir)?),
        };
        let target_fresh = match target_tip {
            Some(tip) => fresh::judge(&projects::at_rev(repo, &tip.to_string(), &dir)?),
            None => Freshness::Absent,
        };
        let verdict = merge_guard::judge(
            Side {
                name: incoming.name(),
                freshness: &incoming_fresh,
            },
            Side {
                name: target,
                freshness: &target_fresh,
            },
            &dir,
        );
        report.projects.push((dir, verdict));
    }
    Ok(report)
}

/// The refusal as the library's error: every project's message, and the hint
/// of the first.
pub fn refusal_error(report: &Report) -> Option<Error> {
    let refusals: Vec<_> = report.refusals().collect();
    let (_, first) = refusals.first()?;
    let message = refusals
        .iter()
        .map(|(_, r)| r.message.clone())
        .collect::<Vec<_>>()
        .join("\n");
    let hint = if refusals.len() == 1 {
        first.hint()
    } else {
        refusals
            .iter()
            .map(|(dir, r)| {
                let dir = if dir.is_empty() { "." } else { dir };
                format!("for `{dir}`: {}", r.hint())
            })
            .collect::<Vec<_>>()
            .join("\n      ")
    };
    Some(Error::refused(message, Some(hint)))
}

pub fn run(ctx: &mut Context, request: &Request) -> Result<()> {
    let project = Project::discover(&ctx.cwd)?;
    let target = match &request.into {
        Some(t) => t.strip_prefix("refs/heads/").unwrap_or(t).to_string(),
        None => current_branch(&project)?.ok_or_else(|| {
            Error::usage(
                "HEAD is not on a branch: name the branch merged into with `--into <branch>`",
            )
        })?,
    };
    let incoming = match &request.incoming {
        Some(rev) => vec![Incoming::Commit {
            name: rev.clone(),
            id: resolve_commit(&project, rev)?,
        }],
        None => incoming_in_progress(&project)?,
    };
    let mut first_error = None;
    for inc in &incoming {
        let report = evaluate(&project, inc, &target)?;
        if let Some(e) = refusal_error(&report) {
            for (dir, refusal) in report.refusals() {
                let mut event = Event::new(EventKind::MergeRefused)
                    .detail("reason", refusal.message.clone())
                    .detail("rule", "D23")
                    .detail("branch", report.incoming.clone())
                    .detail("target", target.clone())
                    .detail("project", dir.to_string());
                if let Some(c) = &refusal.cycle {
                    event = event.cycle(c.id.clone());
                }
                crate::commands::audit::append_after(ctx, &project, event);
            }
            first_error.get_or_insert(e);
            continue;
        }
        if request.quiet {
            continue;
        }
        let say = |ctx: &mut Context, text: String| {
            writeln!(ctx.err, "{text}").map_err(|e| Error::io("<stderr>", e))
        };
        if !report.guarded {
            say(
                ctx,
                format!(
                    "`{target}` is neither the main branch (`{}`, from {}) nor a protected branch: the merge guard does not apply.",
                    report.branches.main,
                    report.branches.source.describe()
                ),
            )?;
        } else if report.projects.is_empty() {
            say(
                ctx,
                format!(
                    "Neither `{}` nor `{target}` holds a STANDARDS project: `{}` may merge.",
                    report.incoming, report.incoming
                ),
            )?;
        } else {
            for (dir, verdict) in &report.projects {
                if let Verdict::Accepted { why } = verdict {
                    let dir = if dir.is_empty() { "." } else { dir.as_str() };
                    say(
                        ctx,
                        format!(
                            "`{}` may merge into `{target}` ({dir}: {why}).",
                            report.incoming
                        ),
                    )?;
                }
            }
        }
    }
    match first_error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}
