//! `git standards merge-guard [<branch>] [--into <branch>]` (D23): refuse to
//! merge a branch whose committed `.standards/` is not a fresh installation
//! into the main branch or a protected branch. Covers every project of the
//! repository (each folder holding `.standards/` on either side).

use std::collections::BTreeSet;

use crate::cli::values::{branch_value, ref_value};
use crate::commands::Context;
use crate::error::{Error, Result};
use crate::repo::{projects, refs, ObjectId, Project};
use standards_core::audit::{Event, EventKind};
use standards_core::setup::config::Branches;
use standards_core::setup::fresh::{self, Freshness};
use standards_core::setup::merge_guard::{self, Side, Verdict};

#[derive(Debug, clap::Args)]
pub struct MergeGuardArgs {
    /// The branch (or commit) to be merged.
    #[arg(value_name = "branch", value_parser = ref_value)]
    pub branch: Option<String>,
    /// The branch merged into (default: the current branch).
    #[arg(long, value_name = "branch", value_parser = branch_value)]
    pub into: Option<String>,
    /// Print nothing when the merge may go ahead.
    #[arg(long, short)]
    pub quiet: bool,
    /// Print one JSON object on stdout: {"ok": true, "command": "merge-guard", "target", "merges": [the sentences saying why each merge may go ahead]}; a refusal prints {"ok": false, "error", "hint"} and exits 1.
    #[arg(long)]
    pub json: bool,
    /// For the reference-transaction hook: `--into`'s branch moves from this commit to <branch>; plain commits pass, other arriving history is judged.
    #[arg(long, value_name = "commit", hide = true)]
    pub from: Option<String>,
}

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
    /// Print one JSON object on stdout: `{"ok": true, "target", "merges"}`
    /// when the merge may go ahead (a refusal is the usual error object).
    pub json: bool,
    /// The reference-transaction hook's mode: `--into`'s branch moves from
    /// this commit (all zeros: it is created) to `incoming`. Plain commits
    /// (and amends, and rewinds) pass; any other move, the history arriving
    /// from another line of work, is judged (issue 22).
    pub from: Option<String>,
}

/// A git operation in progress that brings another line of work onto the
/// current branch, as its state file in the git directory shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operation {
    Merge,
    Squash,
    CherryPick,
}

impl Operation {
    const ALL: [Operation; 3] = [Operation::Merge, Operation::Squash, Operation::CherryPick];

    fn file(self) -> &'static str {
        match self {
            Operation::Merge => "MERGE_HEAD",
            Operation::Squash => "SQUASH_MSG",
            Operation::CherryPick => "CHERRY_PICK_HEAD",
        }
    }

    /// The command that ends it and puts the branch back as it was.
    pub fn way_out(self) -> &'static str {
        match self {
            Operation::Merge => "git merge --abort",
            Operation::Squash => "git reset --merge",
            Operation::CherryPick => "git cherry-pick --abort",
        }
    }
}

/// The operation in progress, if any.
pub fn operation_in_progress(project: &Project) -> Option<Operation> {
    let dir = project.git_dir();
    Operation::ALL
        .into_iter()
        .find(|op| dir.join(op.file()).is_file())
}

/// What is merged in.
#[derive(Debug, Clone)]
pub enum Incoming {
    /// A commit, with the name the user gave it.
    Commit { name: String, id: ObjectId },
    /// The staged result (the pre-merge-commit hook without a name, a squash
    /// merge or a cherry-pick), with the name of what it came from.
    Index { name: String },
}

impl Incoming {
    pub fn name(&self) -> &str {
        match self {
            Incoming::Commit { name, .. } => name,
            Incoming::Index { name } => name,
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

/// The current branch's short name, if HEAD is on a branch.
pub fn current_branch(project: &Project) -> Result<Option<String>> {
    let head = refs::head_ref(project)?;
    Ok(head.and_then(|name| name.strip_prefix("refs/heads/").map(str::to_string)))
}

/// Resolves a revision to a commit ID, refusing with a clear message.
pub fn resolve_commit(project: &Project, rev: &str) -> Result<ObjectId> {
    refs::commit_id(project, rev)
}

/// The merge in progress: every `MERGE_HEAD` line, else the branches that
/// `GIT_REFLOG_ACTION` (`merge <name>...`, exported to pre-merge-commit, when
/// `MERGE_HEAD` does not exist yet) names, else the staged merge result.
fn incoming_in_progress(project: &Project) -> Result<Vec<Incoming>> {
    let merge_head = project.git_dir().join("MERGE_HEAD");
    if let Ok(text) = std::fs::read_to_string(&merge_head) {
        let mut out = Vec::new();
        for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
            // The branch the user merged, so the hint names where to reset.
            let id = resolve_commit(project, line)?;
            out.push(Incoming::Commit {
                name: name_of(project, id),
                id,
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
    Ok(vec![Incoming::Index {
        name: "the staged merge result".into(),
    }])
}

/// Judges merging `incoming` into `target` for every project on either side.
pub fn evaluate(project: &Project, incoming: &Incoming, target: &str) -> Result<Report> {
    evaluate_at(project, incoming, target, None, false)
}

fn tip_of(project: &Project, name: &str) -> Result<Option<ObjectId>> {
    refs::tip(project, name, "the branch")
}

/// [`evaluate`] with the target's tip given (the reference-transaction hook
/// knows the value the branch moves from), and `hooked` when a git command
/// is on its way to change the branch. The policy (main and protected
/// branches) comes from the target side (issue 22, item 4): config.toml as
/// committed on the target branch whenever an operation is in progress, a
/// hook runs or the target is not the branch checked out; only a check of
/// the current branch, with nothing in progress, reads the working tree's
/// file (what the user is editing).
fn evaluate_at(
    project: &Project,
    incoming: &Incoming,
    target: &str,
    tip: Option<ObjectId>,
    hooked: bool,
) -> Result<Report> {
    let upstream = tip_of(project, &format!("refs/remotes/origin/{target}"))?;
    // The local branch, else the remote-tracking one (CI checkouts).
    let target_tip = match tip {
        Some(tip) => Some(tip),
        None => tip_of(project, &format!("refs/heads/{target}"))?.or(upstream),
    };
    let committed = hooked
        || operation_in_progress(project).is_some()
        || current_branch(project)?.as_deref() != Some(target);
    let branches = match target_tip {
        Some(tip) if committed => crate::repo::config::branches_at(project, tip)?,
        _ => crate::repo::config::branches(project)?,
    };
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
    let mut dirs: BTreeSet<String> = BTreeSet::new();
    match incoming {
        Incoming::Commit { id, .. } => dirs.extend(projects::in_commit(project, *id)?),
        Incoming::Index { .. } => dirs.extend(projects::in_index(project)?),
    }
    if let Some(tip) = target_tip {
        dirs.extend(projects::in_commit(project, tip)?);
    }
    for dir in dirs {
        let incoming_fresh = match incoming {
            Incoming::Commit { id, .. } => {
                fresh::judge(&projects::at_rev(project, &id.to_string(), &dir)?)
            }
            Incoming::Index { .. } => fresh::judge(&projects::at_index(project, &dir)?),
        };
        let target_fresh = match target_tip {
            Some(tip) => fresh::judge(&projects::at_rev(project, &tip.to_string(), &dir)?),
            None => Freshness::Absent,
        };
        let mut verdict = merge_guard::judge(
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
        // What arrives is judged: a history whose `.standards/` is the one
        // the target (or its upstream) already holds brings no cycle, so a
        // cycle run on the main branch itself does not stop other work.
        if !verdict.is_accepted() {
            let arriving = match incoming {
                Incoming::Commit { id, .. } => {
                    Some(projects::standards_entries_at(project, *id, &dir)?)
                }
                Incoming::Index { .. } => projects::standards_entries_in_index(project, &dir)?,
            };
            if let Some(arriving) = arriving {
                for held in [target_tip, upstream].into_iter().flatten() {
                    if projects::standards_entries_at(project, held, &dir)? == arriving {
                        verdict = Verdict::Accepted {
                            why: format!(
                                "`{}` brings no change to `{target}`'s .standards/",
                                incoming.name()
                            ),
                        };
                        break;
                    }
                }
            }
        }
        report.projects.push((dir, verdict));
    }
    Ok(report)
}

/// The refusal as the library's error: every project's message, and the hint
/// of the first.
pub fn refusal_error(report: &Report) -> Option<Error> {
    refusal_error_after(report, None)
}

/// [`refusal_error`] whose hint starts with `way_out`, the command that ends
/// the operation in progress (`git merge --abort`).
fn refusal_error_after(report: &Report, way_out: Option<&str>) -> Option<Error> {
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
    let hint = match way_out {
        Some(cmd) => format!("run `{cmd}` first; then {hint}"),
        None => hint,
    };
    Some(Error::refused(message, Some(hint)))
}

/// The local branch whose tip is `id`, else its short ID: the name a
/// refusal gives a commit that arrives without one.
fn name_of(project: &Project, id: ObjectId) -> String {
    refs::local_branch_at(project, id).unwrap_or_else(|| id.to_string()[..12].to_string())
}

/// `git standards hook pre-commit`'s part (issue 22, items 1 and 2): while a
/// merge, a squash merge or a cherry-pick is in progress on the main branch
/// (or a protected one), what it brings is judged before `git commit` lands
/// it: the branches in `MERGE_HEAD`, else the staged result, which passes
/// when its `.standards/` is the one the branch already holds.
pub fn pre_commit_guard(ctx: &mut Context, project: &Project) -> Result<()> {
    let Some(op) = operation_in_progress(project) else {
        return Ok(());
    };
    let Some(target) = current_branch(project)? else {
        return Ok(());
    };
    let git_dir = project.git_dir();
    let incoming = match op {
        Operation::Merge => incoming_in_progress(project)?,
        Operation::Squash | Operation::CherryPick => {
            let text = std::fs::read_to_string(git_dir.join(op.file())).unwrap_or_default();
            // SQUASH_MSG lists the squashed commits (`commit <id>`), newest
            // first; CHERRY_PICK_HEAD holds the picked commit.
            let first = text
                .lines()
                .map(|l| l.trim().strip_prefix("commit ").unwrap_or(l.trim()))
                .find_map(refs::parse_id);
            let name = match (op, first) {
                (Operation::Squash, Some(id)) => {
                    format!("the squash merge of `{}`", name_of(project, id))
                }
                (_, Some(id)) => format!("the cherry-pick of `{}`", name_of(project, id)),
                (Operation::Squash, None) => "the squash merge".into(),
                _ => "the cherry-pick".into(),
            };
            vec![Incoming::Index { name }]
        }
    };
    guard(
        ctx,
        project,
        &target,
        &incoming,
        None,
        true,
        Some(op.way_out()),
        true,
        false,
    )
}

/// The reference-transaction hook's judgement of one branch update.
fn ref_update(
    ctx: &mut Context,
    project: &Project,
    target: &str,
    request: &Request,
    from: &str,
) -> Result<()> {
    let Some(new_rev) = &request.incoming else {
        return Err(Error::usage(
            "`--from <commit>` needs the commit the branch moves to, as the branch argument (merge-guard <new> --into <branch> --from <old>)",
        ));
    };
    let new = resolve_commit(project, new_rev)?;
    let old = if !from.is_empty() && from.bytes().all(|b| b == b'0') {
        None
    } else {
        Some(resolve_commit(project, from)?)
    };
    let action = std::env::var("GIT_REFLOG_ACTION")
        .ok()
        .filter(|a| !a.trim().is_empty());
    let op = operation_in_progress(project);
    let plain = action.is_none() && op.is_none();
    if old.is_none() && plain {
        // The first commit of a branch made by `git commit` (an unborn
        // main): nothing arrives from another line of work.
        let root = refs::parents(project, new)?.is_empty();
        if root {
            return Ok(());
        }
    }
    if let Some(old) = old {
        // Moving back along the branch's own history brings nothing.
        if new == old || refs::merge_base(project, new, old) == Some(new) {
            return Ok(());
        }
        // A plain commit or an amend of the checked-out branch: git names
        // no action and no operation is in progress (git verified: 2.47 sets
        // GIT_REFLOG_ACTION for merge, pull and rebase, never for `git
        // commit`). The pre-commit hook judged it.
        // A commit that another ref already holds is not one `git commit`
        // just made: it arrives from that line of work (`git reset --hard
        // <branch>`, `git update-ref`), however its parents look.
        if plain && current_branch(project)?.as_deref() == Some(target) {
            let parents = |id: ObjectId| refs::parents(project, id);
            let of_new = parents(new)?;
            if (of_new == [old] || of_new == parents(old)?)
                && !refs::held_by_another_ref(project, new, &format!("refs/heads/{target}"), old)
            {
                return Ok(());
            }
        }
    }
    // The name the user gave: a word of the action that names `new`.
    let named = action.as_deref().and_then(|a| {
        a.split_whitespace()
            .skip(1)
            .filter(|w| !w.starts_with('-') && *w != ".")
            .find(|w| resolve_commit(project, w).ok() == Some(new))
            .map(str::to_string)
    });
    let name = named.unwrap_or_else(|| name_of(project, new));
    let git_dir = project.git_dir();
    let way_out = if git_dir.join("rebase-merge").is_dir() || git_dir.join("rebase-apply").is_dir()
    {
        Some("git rebase --abort")
    } else if let Some(op) = op {
        Some(op.way_out())
    } else if current_branch(project)?.as_deref() == Some(target) && action.is_some() {
        // A refused fast-forward leaves the working tree and index at the
        // new commit while the branch stays: this puts them back.
        Some("git reset --merge")
    } else {
        None
    };
    let incoming = [Incoming::Commit { name, id: new }];
    guard(
        ctx,
        project,
        target,
        &incoming,
        old,
        true,
        way_out,
        request.quiet,
        false,
    )
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
    if let Some(from) = &request.from {
        return ref_update(ctx, &project, &target, request, from);
    }
    let (incoming, way_out) = match &request.incoming {
        Some(rev) => (
            vec![Incoming::Commit {
                name: rev.clone(),
                id: resolve_commit(&project, rev)?,
            }],
            None,
        ),
        None => {
            // The pre-merge-commit hook: git keeps the refused merge in
            // progress (and says "use 'git commit'"), so the way out comes first.
            let merging = operation_in_progress(&project) == Some(Operation::Merge)
                || std::env::var("GIT_REFLOG_ACTION").is_ok_and(|a| a.starts_with("merge"));
            (
                incoming_in_progress(&project)?,
                merging.then_some(Operation::Merge.way_out()),
            )
        }
    };
    let hooked = request.incoming.is_none();
    guard(
        ctx,
        &project,
        &target,
        &incoming,
        None,
        hooked,
        way_out,
        request.quiet,
        request.json,
    )
}

/// Judges each incoming commit, records each refusal in the audit trail, and
/// says why a merge may go ahead unless `quiet`.
#[allow(clippy::too_many_arguments)]
fn guard(
    ctx: &mut Context,
    project: &Project,
    target: &str,
    incoming: &[Incoming],
    tip: Option<ObjectId>,
    hooked: bool,
    way_out: Option<&str>,
    quiet: bool,
    json: bool,
) -> Result<()> {
    let target = target.to_string();
    let mut first_error = None;
    // With `json` the sentences go into the result instead of stderr.
    let mut said: Vec<String> = Vec::new();
    for inc in incoming {
        let report = evaluate_at(project, inc, &target, tip, hooked)?;
        if let Some(e) = refusal_error_after(&report, way_out) {
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
                crate::support::audit::append_after(ctx, project, event);
            }
            first_error.get_or_insert(e);
            continue;
        }
        if quiet && !json {
            continue;
        }
        let mut say = |ctx: &mut Context, text: String| {
            if json {
                said.push(text);
                Ok(())
            } else {
                writeln!(ctx.err, "{text}").map_err(|e| Error::io("<stderr>", e))
            }
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
        None if json => crate::commands::print_result(
            ctx.out,
            true,
            "",
            serde_json::json!({
                "ok": true,
                "command": "merge-guard",
                "target": target,
                "merges": said,
            }),
        ),
        None => Ok(()),
    }
}

/// STATE.md's object among a project's `.standards/` entries.
fn state_blob(entries: &[projects::StandardsEntry]) -> Option<ObjectId> {
    entries
        .iter()
        .find(|(path, _, _)| path == "STATE.md")
        .map(|(_, _, id)| *id)
}

fn state_at(project: &Project, commit: ObjectId, dir: &str) -> Result<Option<ObjectId>> {
    Ok(state_blob(&projects::standards_entries_at(
        project, commit, dir,
    )?))
}

/// "cycle <id> (<state>)" of one version of STATE.md.
fn state_label(project: &Project, id: Option<ObjectId>) -> String {
    match id {
        Some(id) => refs::object_bytes(project, id)
            .map(|data| standards_core::workflow::state_merge::SideSummary::read(&data).label())
            .unwrap_or_else(|| "unreadable".into()),
        None => "no STATE.md".into(),
    }
}

/// MG-001 (issue 22, item 5) for merging `theirs` into `ours` with STATE.md
/// `result`: independent of the merge driver, a result that neither parent
/// holds after both changed the file is refused.
fn line_merge(
    project: &Project,
    dir: &str,
    ours: (&str, ObjectId),
    theirs: (&str, ObjectId),
    result: Option<ObjectId>,
    hint: String,
) -> Result<Option<standards_core::check::Problem>> {
    let base = refs::merge_base(project, ours.1, theirs.1);
    let base = match base {
        Some(b) => state_at(project, b, dir)?,
        None => None,
    };
    let (ours_state, theirs_state) = (
        state_at(project, ours.1, dir)?,
        state_at(project, theirs.1, dir)?,
    );
    if !merge_guard::is_line_merge(base, ours_state, theirs_state, result) {
        return Ok(None);
    }
    Ok(Some(standards_core::check::Problem {
        rule: merge_guard::LINE_MERGE_RULE,
        file: ".standards/STATE.md".into(),
        line: None,
        message: merge_guard::line_merge_message(
            ours.0,
            &state_label(project, ours_state),
            theirs.0,
            &state_label(project, theirs_state),
        ),
        hint: Some(hint),
        source: standards_core::check::RuleSource::Protocol,
    }))
}

/// MG-001 on the staged result of a merge in progress (`check --staged`, so
/// the pre-commit hook): `None` without a merge, or while STATE.md is still
/// in conflict (the conflict report covers that).
pub fn staged_line_merge(project: &Project) -> Result<Option<standards_core::check::Problem>> {
    let Ok(text) = std::fs::read_to_string(project.git_dir().join("MERGE_HEAD")) else {
        return Ok(None);
    };
    let Some(theirs) = text.lines().find_map(|l| refs::parse_id(l.trim())) else {
        return Ok(None);
    };
    let Some(ours) = refs::head_id(project) else {
        return Ok(None);
    };
    let Some(staged) = projects::standards_entries_in_index(project, project.root_in_repo())?
    else {
        return Ok(None);
    };
    let ours_name = current_branch(project)?.unwrap_or_else(|| "HEAD".into());
    let theirs_name = name_of(project, theirs);
    line_merge(
        project,
        project.root_in_repo(),
        (&ours_name, ours),
        (&theirs_name, theirs),
        state_blob(&staged),
        "git merged the two versions line by line because this clone has no STATE.md merge driver: run `git merge --abort`, then `git standards hooks install` (it registers the driver), then merge again; STATE.md then conflicts and `git standards resolve --keep ours` or `git standards resolve --keep theirs` keeps one whole side".into(),
    )
}

/// MG-001 on a committed merge (`verify`) for the project at `dir`: its
/// first parent is "ours", its second "theirs".
pub fn commit_line_merge(
    project: &Project,
    commit: ObjectId,
    dir: &str,
) -> Result<Option<standards_core::check::Problem>> {
    let parents = refs::parents(project, commit)?;
    let [ours, theirs, ..] = parents.as_slice() else {
        return Ok(None);
    };
    let result = state_at(project, commit, dir)?;
    line_merge(
        project,
        dir,
        (&name_of(project, *ours), *ours),
        (&name_of(project, *theirs), *theirs),
        result,
        "the merge commit holds a state neither branch had: redo the merge with the STATE.md merge driver registered (`git standards hooks install`) and keep one whole side with `git standards resolve --keep ours` or `git standards resolve --keep theirs`".into(),
    )
}
