//! `git standards board` (issue 28): the release manager's board. Every
//! local and remote-tracking branch (one row per name) and every linked
//! worktree's uncommitted state, with each project's cycle, state, owner and
//! next step, the `check` verdict, and whether the branch may merge into the
//! main branch; then the collisions between branches, merged in memory.
//! The facts come from `repo` and the commands' own paths (`status`,
//! `check --ref`, the merge guard); `standards_core::board` decides and lays out.

use std::path::{Path, PathBuf};

use crate::commands::check as check_cmd;
use crate::commands::merge_guard::{self, Incoming};
use crate::commands::status;
use crate::commands::Context;
use crate::error::{Error, Result};
use crate::repo::board::{self as repo_board, Branch, MergeScratch};
use crate::repo::notes::Anchor;
use crate::repo::{
    agent, config as repo_config, projects, refs, scan_cache, trail, ObjectId, Project,
};
use standards_core::board::{
    self, table, AgeSource, Ages, Board, CheckSummary, Collision, PairCandidate, ProjectRow,
    ReadinessFacts, Refs, Row, RowKind, Upstream,
};
use standards_core::check::Options;
use standards_core::model::tree::Tree;
use standards_core::records::verdicts::ContentCache;
use standards_core::setup::fresh::{self, Freshness};
use standards_core::setup::merge_guard::{Side, Verdict};

/// The keys of `board --json`, printed after the options in `git standards board --help` and the man page.
pub const JSON_HELP: &str = r#"BOARD JSON

`git standards board --json` prints one JSON object, keys in this order:

ok: true. mainBranch: the main branch the rows are judged against. generatedAt: when the board was built (RFC 3339). states: the protocol's workflow states in order.

rows: one per branch name (the local branch and the remote-tracking branches of that name together; the main branch is always a row) and one per linked worktree: {name, kind ("branch" or "worktree"), refs: {local (refs/heads/<name> or null), remotes: [refs/remotes/<remote>/<name>]}, worktree (the worktree's folder, or null), commit (the tip, or a worktree's HEAD), upstream: {ref, ahead, behind} or null (a local branch's configured upstream, and the commits each side has that the other lacks), problem (what is wrong with the row, or null: an unreadable or conflicted .standards/, a merge base a shallow clone lacks), projects, check: {verdict ("pass", "fail" or "unknown"), problems, warnings (the check's notes)}, readiness, readinessDetail (why, and the command to run)}.

projects: one per folder holding .standards/: {folder ("." for the top), cycleId, request, mode, completionPolicy, state, owner, next (the role's skill, e.g. "/developer", or the user's command), blockedQuestion, recoveryFrames, cycleStarted, lastMove (RFC 3339), ageSource ("audit": the cycle's events in the audit trail; "commits": commit dates), afterSignoff (paths changed after the cycle was signed off, as rule SO-001 reads them)}; null where STATE.md says NONE or UNSET.

readiness: "ready" (the merge guard lets it merge into the main branch), "needs-reset", "signed-off-needs-reset", "active" (a cycle is running), "conflicts" (a merge with the main branch conflicts in .standards/), "unknown" (.standards/ could not be read).

collisions: [{a, b (row names), files (the files both change since their merge base, conflicted ones first, at most 100), conflict, conflictingHunks, inStandards (a conflicted file, or without a conflict a file both change, lies in a .standards/ folder), truncated (the file list was cut)}]: each branch against the main branch, then each pair of branches with an active cycle, at most --max-pairs merges; pairsCompared, pairsSkipped (the pairs left out), maxPairs."#;

#[derive(Debug, clap::Args)]
pub struct BoardArgs {
    /// Only the branches whose name matches this pattern (git's wildmatch, as in `feature/*` or `release/**`); repeatable. The main branch is always shown.
    #[arg(long = "ref", value_name = "pattern")]
    pub patterns: Vec<String>,
    /// Show the remote-tracking branches of this remote only (repeatable; default: every remote).
    #[arg(long, value_name = "name")]
    pub remote: Vec<String>,
    /// Compute at most this many merges between branches; the rest are counted as skipped.
    #[arg(long, value_name = "N", default_value_t = board::DEFAULT_MAX_PAIRS)]
    pub max_pairs: usize,
    /// Print one JSON object (keys: BOARD JSON below) instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Also write the board as one HTML page to this file (replaced atomically; a symbolic link is refused).
    #[arg(long, value_name = "file")]
    pub html: Option<PathBuf>,
}

/// What a branch row needs beyond the row itself.
struct Facts {
    tip: Option<ObjectId>,
    active: bool,
    unreadable: Option<String>,
    guard: Vec<(String, Verdict)>,
    standards_conflicts: Vec<String>,
}

/// The decoded objects the board keeps while it reads every branch.
const BOARD_OBJECT_CACHE_BYTES: usize = 16 * 1024 * 1024;

pub fn run(ctx: &mut Context, args: BoardArgs) -> Result<()> {
    let mut project = Project::discover(&ctx.cwd)?;
    project.trust_index_checksum();
    // Branches share most of their trees: each is decoded once.
    project.keep_objects(BOARD_OBJECT_CACHE_BYTES);
    let known = repo_board::remotes(&project);
    for r in &args.remote {
        if !known.contains(r) {
            return Err(Error::refused(
                format!("no remote named `{r}` is configured"),
                Some("`git remote -v` lists the remotes".to_string()),
            ));
        }
    }
    let chosen = if args.remote.is_empty() {
        known
    } else {
        args.remote.clone()
    };
    let main = repo_config::branches(&project)
        .map(|b| b.main)
        .unwrap_or_else(|_| "main".to_string());
    let matches = |name: &str| {
        args.patterns.is_empty()
            || args
                .patterns
                .iter()
                .any(|p| standards_core::setup::config::glob_match(p, name))
    };
    let all = repo_board::branches(&project, &chosen)?;
    if !args.patterns.is_empty() && !all.iter().any(|b| matches(&b.name)) {
        return Err(Error::refused(
            format!(
                "no branch matches {}",
                args.patterns
                    .iter()
                    .map(|p| format!("`--ref {p}`"))
                    .collect::<Vec<_>>()
                    .join(" or ")
            ),
            Some("patterns match the branch name without `refs/heads/` or the remote (`feature/*`); run without `--ref` to see every branch".to_string()),
        ));
    }
    let branches: Vec<&Branch> = all
        .iter()
        .filter(|b| b.name == main || matches(&b.name))
        .collect();
    let main_tip = all.iter().find(|b| b.name == main).and_then(Branch::tip);

    let _shared = crate::repo::SharedBlobs::start();
    // One scan cache for every tip, loaded and kept once.
    let verdicts = scan_cache::load(&project).ok();
    let generated_at = standards_core::audit::format_ts(chrono::Utc::now());
    let mut board = Board::new(&main, generated_at, args.max_pairs);
    let mut facts = Vec::new();
    for branch in &branches {
        let (row, f) = branch_row(&project, branch, &main, main_tip, &all, verdicts.as_ref());
        board.rows.push(row);
        facts.push(f);
    }
    if let Some(v) = &verdicts {
        scan_cache::store(&project, v);
    }
    if project.workdir().is_some() {
        for dir in repo_board::linked_worktrees(&project)? {
            let (row, f) = worktree_row(&project, &dir, &main, main_tip);
            if matches(&row.name) {
                board.rows.push(row);
                facts.push(f);
            }
        }
    }
    collide(&project, &mut board, &mut facts, &main)?;
    for (row, f) in board.rows.iter_mut().zip(&facts) {
        let (readiness, detail) = board::readiness(&ReadinessFacts {
            name: &row.name,
            main: &main,
            unreadable: f.unreadable.as_deref(),
            standards_conflicts: &f.standards_conflicts,
            guard: &f.guard,
        });
        row.readiness = readiness;
        row.readiness_detail = detail;
    }
    let document = board.document();
    if let Some(path) = &args.html {
        write_html(
            &ctx.cwd.join(path),
            &standards_core::board::html::render(&document),
        )?;
    }
    let text = if args.json {
        let mut t =
            serde_json::to_string_pretty(&document).map_err(|e| Error::Internal(e.to_string()))?;
        t.push('\n');
        t
    } else {
        let mut t = table::render(&board, table::WIDTH);
        if let Some(path) = &args.html {
            t.push_str(&format!("\nWrote the board to {}\n", path.display()));
        }
        t
    };
    std::io::Write::write_all(ctx.out, text.as_bytes()).map_err(Error::stdout)?;
    crate::repo::reads::report(ctx.err);
    Ok(())
}

/// Writes the page atomically next to its final place (`path` relative to
/// the folder the command runs from, as `-C` sets it); a symbolic link (or
/// anything but a file) there is refused.
fn write_html(path: &Path, page: &str) -> Result<()> {
    let full = std::path::absolute(path).map_err(|e| Error::io(path, e))?;
    let (Some(dir), Some(name)) = (full.parent(), full.file_name().and_then(|n| n.to_str())) else {
        return Err(Error::usage(format!(
            "`--html {}` names no file",
            path.display()
        )));
    };
    crate::repo::write::atomic_write(
        dir,
        name,
        page.as_bytes(),
        crate::repo::write::Existing::Replace,
    )
}

fn empty_row(name: &str, kind: RowKind) -> Row {
    Row {
        name: name.to_string(),
        kind,
        refs: Refs::default(),
        worktree: None,
        commit: None,
        upstream: None,
        problem: None,
        projects: Vec::new(),
        check: CheckSummary::UNKNOWN,
        readiness: board::Readiness::Unknown,
        readiness_detail: String::new(),
    }
}

/// The cycle's ages from its events in the audit trail: the first event,
/// and the last that moved the workflow state (else the last event).
fn audit_ages(project: &Project, cycle: &str) -> Option<Ages> {
    let note = trail::read_anchor(project, &Anchor::Cycle(cycle.to_string())).ok()??;
    let text = String::from_utf8_lossy(&note.text);
    let mut first = None;
    let mut last = None;
    let mut last_move = None;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let Ok(e) = standards_core::audit::line::parse_line_without_details(line) else {
            continue;
        };
        first = first.min(Some(e.time)).or(Some(e.time));
        last = last.max(Some(e.time));
        if e.state.is_some() {
            last_move = last_move.max(Some(e.time));
        }
    }
    let first = first?;
    Some(Ages {
        started: Some(standards_core::audit::format_ts(first)),
        last_move: last_move.or(last).map(standards_core::audit::format_ts),
        source: AgeSource::Audit,
    })
}

/// The ages from commit dates: the first commit of the branch since it
/// left the main branch, and the tip.
fn commit_ages(project: &Project, tip: ObjectId, main_tip: Option<ObjectId>) -> Ages {
    let base = main_tip.and_then(|m| refs::merge_base(project, tip, m));
    let started = match base {
        Some(base) if base != tip => crate::repo::history::Walk::new(project)
            .first_parent_chain(project, Some(base), tip)
            .ok()
            .and_then(|chain| chain.first().copied())
            .and_then(|first| repo_board::commit_time(project, first)),
        _ => None,
    };
    Ages {
        started,
        last_move: repo_board::commit_time(project, tip),
        source: AgeSource::Commits,
    }
}

/// The project row of `dir` from its status summary (or the reason there
/// is none, which becomes the row's problem), with the cycle's ages from the
/// audit trail, else from the commits up to `tip`.
fn project_row(
    project: &Project,
    dir: &str,
    summary: &Result<standards_core::workflow::summary::Summary>,
    tip: Option<ObjectId>,
    main_tip: Option<ObjectId>,
    row: &mut Row,
    facts: &mut Facts,
) -> ProjectRow {
    let prow = match summary {
        Ok(s) => {
            facts.active |= s.active_work.is_some();
            ProjectRow::from_summary(dir, s)
        }
        Err(e) => {
            let why = format!("{}: {e}", board::shown_folder(dir));
            row.add_problem(why.clone());
            facts.unreadable.get_or_insert(why);
            ProjectRow::unread(dir)
        }
    };
    let Some(cycle) = prow.cycle_id.clone() else {
        return prow;
    };
    let ages =
        audit_ages(project, &cycle).or_else(|| tip.map(|t| commit_ages(project, t, main_tip)));
    match ages {
        Some(ages) => prow.with_ages(ages),
        None => prow,
    }
}

fn repo_path(dir: &str, path: &str) -> String {
    if dir.is_empty() {
        path.to_string()
    } else {
        format!("{dir}/{path}")
    }
}

fn branch_row(
    project: &Project,
    branch: &Branch,
    main: &str,
    main_tip: Option<ObjectId>,
    all: &[Branch],
    verdicts: Option<&ContentCache>,
) -> (Row, Facts) {
    let mut row = empty_row(&branch.name, RowKind::Branch);
    row.refs = Refs {
        local: branch.local.as_ref().map(|l| l.0.clone()),
        remotes: branch.remotes.iter().map(|r| r.0.clone()).collect(),
    };
    let mut facts = Facts {
        tip: branch.tip(),
        active: false,
        unreadable: None,
        guard: Vec::new(),
        standards_conflicts: Vec::new(),
    };
    let Some(tip) = branch.tip() else {
        facts.unreadable = Some("the branch names no commit".into());
        return (row, facts);
    };
    row.commit = Some(tip.to_string());
    if let Some((full, local)) = &branch.local {
        if let Some(up) = repo_board::upstream(project, full) {
            // The upstream as read with the branches, else read now (another remote).
            let up_tip = all
                .iter()
                .flat_map(|b| b.remotes.iter())
                .find(|r| r.0 == up)
                .map(|r| r.1)
                .or_else(|| refs::tip(project, &up, "the upstream").ok().flatten());
            if let Some(up_tip) = up_tip {
                match repo_board::ahead_behind(project, *local, up_tip) {
                    Ok((ahead, behind)) => {
                        row.upstream = Some(Upstream {
                            reference: up,
                            ahead,
                            behind,
                        })
                    }
                    Err(e) => row.add_problem(format!("cannot compare with `{up}`: {e}")),
                }
            }
        }
    }
    let hex = tip.to_string();
    let folders = match projects::in_commit(project, tip) {
        Ok(f) => f,
        Err(e) => {
            let why = format!("cannot read the commit's tree: {e}");
            row.add_problem(why.clone());
            facts.unreadable = Some(why);
            return (row, facts);
        }
    };
    let shallow = refs::is_shallow(project);
    let mut checks = Vec::new();
    for dir in &folders {
        let sub = project.in_folder(dir);
        let summary = sub.at_rev(&hex).and_then(|tree| {
            status::load(
                &tree,
                &status::Source::Rev(branch.name.clone()),
                Some(hex.clone()),
                sub.root(),
            )
        });
        let mut prow = project_row(
            project,
            dir,
            &summary,
            Some(tip),
            main_tip,
            &mut row,
            &mut facts,
        );
        if prow.state.as_deref() == Some("SIGNED_OFF") {
            let state = repo_path(dir, standards_core::model::layout::STATE_PATH);
            if let Some(since) = repo_board::unchanged_since(project, tip, &state, 1000) {
                if let Ok(changed) = agent::changed_paths(project, since, tip, dir) {
                    prow = prow.with_after_signoff(board::after_signoff_paths(&changed));
                }
            }
        }
        row.projects.push(prow);
        // An unreadable scan-cache setting leaves the verdict unknown, as
        // `check` itself refuses then.
        let checked = verdicts.and_then(|v| {
            check_cmd::evaluate_cached(
                &sub,
                &check_cmd::Source::Rev(hex.clone()),
                Options::default(),
                shallow,
                v,
            )
            .ok()
        });
        checks.push(checked.map(|(r, _, _)| (r.problems.len(), r.notes.len())));
    }
    row.check = CheckSummary::combine(&checks);
    let incoming = Incoming::Commit {
        name: branch.name.clone(),
        id: tip,
    };
    match merge_guard::evaluate(project, &incoming, main) {
        Ok(report) => facts.guard = report.projects,
        Err(e) => {
            let why = format!("the merge guard cannot judge it: {e}");
            row.add_problem(why.clone());
            facts.unreadable.get_or_insert(why);
        }
    }
    (row, facts)
}

fn worktree_row(
    project: &Project,
    dir: &Path,
    main: &str,
    main_tip: Option<ObjectId>,
) -> (Row, Facts) {
    let mut facts = Facts {
        tip: None,
        active: false,
        unreadable: None,
        guard: Vec::new(),
        standards_conflicts: Vec::new(),
    };
    let wt = match Project::discover(dir) {
        Ok(wt) => wt,
        Err(e) => {
            let mut row = empty_row("(unreadable)", RowKind::Worktree);
            row.worktree = Some(dir.display().to_string());
            let why = format!("cannot open the worktree: {e}");
            row.add_problem(why.clone());
            facts.unreadable = Some(why);
            return (row, facts);
        }
    };
    let head = refs::head_ref(&wt).ok().flatten();
    let name = head
        .as_deref()
        .and_then(|h| h.strip_prefix("refs/heads/"))
        .unwrap_or("(detached)")
        .to_string();
    let mut row = empty_row(&name, RowKind::Worktree);
    row.worktree = Some(dir.display().to_string());
    row.refs.local = head.filter(|h| h.starts_with("refs/heads/"));
    let head_id = refs::head_id(&wt);
    row.commit = head_id.map(|id| id.to_string());
    let folders = match projects::in_index(&wt) {
        Ok(f) => f,
        Err(e) => {
            let why = format!("cannot read the worktree's index: {e}");
            row.add_problem(why.clone());
            facts.unreadable = Some(why);
            return (row, facts);
        }
    };
    let mut checks = Vec::new();
    for folder in &folders {
        let sub = match wt.at_folder(folder) {
            Ok(sub) => sub,
            Err(e) => {
                let why = format!("{}: {e}", board::shown_folder(folder));
                row.add_problem(why.clone());
                facts.unreadable.get_or_insert(why);
                row.projects.push(ProjectRow::unread(folder));
                checks.push(None);
                continue;
            }
        };
        let tree = sub.worktree();
        let summary = tree
            .as_ref()
            .map_err(|e| Error::refused(e.to_string(), None))
            .and_then(|t| status::load(t, &status::Source::Worktree, None, sub.root()));
        let prow = project_row(
            project, folder, &summary, head_id, main_tip, &mut row, &mut facts,
        );
        row.projects.push(prow);
        let checked = check_cmd::evaluate(&sub, &check_cmd::Source::Worktree, Options::default());
        checks.push(
            checked
                .ok()
                .map(|(r, _, _)| (r.problems.len(), r.notes.len())),
        );
        if let Ok(tree) = &tree {
            let ours = fresh::judge(tree as &dyn Tree);
            let target = match main_tip {
                Some(m) => projects::at_rev(project, &m.to_string(), folder)
                    .map(|t| fresh::judge(&t))
                    .unwrap_or(Freshness::Absent),
                None => Freshness::Absent,
            };
            let verdict = standards_core::setup::merge_guard::judge(
                Side {
                    name: &name,
                    freshness: &ours,
                },
                Side {
                    name: main,
                    freshness: &target,
                },
                folder,
            );
            facts.guard.push((folder.clone(), verdict));
        }
    }
    row.check = CheckSummary::combine(&checks);
    (row, facts)
}

/// Computes the merges of the chosen pairs and lists their collisions.
fn collide(project: &Project, board: &mut Board, facts: &mut [Facts], main: &str) -> Result<()> {
    // Only branch rows merge (a worktree's files are not committed).
    let branch_rows: Vec<usize> = board
        .rows
        .iter()
        .enumerate()
        .filter(|(i, r)| r.kind == RowKind::Branch && facts[*i].tip.is_some())
        .map(|(i, _)| i)
        .collect();
    let candidates: Vec<PairCandidate> = branch_rows
        .iter()
        .map(|&i| PairCandidate {
            name: board.rows[i].name.clone(),
            active: facts[i].active,
        })
        .collect();
    let (pairs, skipped) = board::pairs(&candidates, main, board.max_pairs);
    board.pairs_skipped = skipped;
    if pairs.is_empty() {
        return Ok(());
    }
    let scratch = MergeScratch::new()?;
    let shallow = refs::is_shallow(project);
    for (x, y) in pairs {
        let (i, j) = (branch_rows[x], branch_rows[y]);
        let (a, b) = (facts[i].tip.expect("a tip"), facts[j].tip.expect("a tip"));
        let against_main = board.rows[j].name == main;
        let Some(base) = refs::merge_base(project, a, b) else {
            let why = if shallow {
                format!(
                    "this clone is shallow and lacks the merge base of `{}` and `{}`, so their merge cannot be computed",
                    board.rows[i].name, board.rows[j].name
                )
            } else {
                format!(
                    "`{}` and `{}` share no history, so their merge cannot be computed",
                    board.rows[i].name, board.rows[j].name
                )
            };
            board.rows[i].add_problem(why);
            continue;
        };
        let changed_a = agent::changed_paths(project, base, a, "")?;
        let changed_b = agent::changed_paths(project, base, b, "")?;
        // Into the second one: a branch merges into the main branch.
        let merged = match scratch.merge(project, b, a) {
            Ok(m) => m,
            Err(e) => {
                let why = format!(
                    "cannot compute the merge with `{}`: {e}",
                    board.rows[j].name
                );
                board.rows[i].add_problem(why);
                continue;
            }
        };
        board.pairs_compared += 1;
        if against_main {
            facts[i].standards_conflicts = merged
                .conflicted
                .iter()
                .filter(|p| board::in_standards(p))
                .cloned()
                .collect();
        }
        if let Some(c) = Collision::build(
            &board.rows[i].name,
            &board.rows[j].name,
            &changed_a,
            &changed_b,
            &merged.conflicted,
            merged.hunks,
        ) {
            board.collisions.push(c);
        }
    }
    Ok(())
}
