//! `git standards verify [<range>] [--into <branch>] [--format ...]`: every
//! commit of a range checked against its first parent, and (with `--into`)
//! the in-memory merge of the tip into a branch, for CI and `pre-push`.

mod after_signoff;
pub mod format;

use std::collections::HashMap;
use std::rc::Rc;

use crate::cli::values::{branch_value, ref_value};
use crate::commands::merge_guard::{self, Incoming};
use crate::commands::Context;
use crate::error::{Error, Result};
use crate::repo::history::{
    self, blob_at, branch_tip as main_tip, is_shallow, merge_base, shallow_fork_point,
    shallow_refusal, ObjectId,
};
use crate::repo::{merge_tree, projects, ObjectTree, Project};
use clap::ValueEnum;
use standards_core::check::{self, Options, Problem, Report};
use standards_core::model::layout::{PROTOCOL_PATH, STATE_PATH};
use standards_core::model::tree::{Node, ScanKey, Tree};

#[derive(Debug, clap::Args)]
pub struct VerifyArgs {
    /// The commits to check: `A..B`, `A...B`, or one revision (default: HEAD), from the merge-base with the main branch.
    #[arg(value_name = "range", value_parser = ref_value)]
    pub range: Option<String>,
    /// Also check the merge of the range's tip into this branch.
    #[arg(long, value_name = "branch", value_parser = branch_value)]
    pub into: Option<String>,
    /// Output format (default: github when GITHUB_ACTIONS=true, else text).
    #[arg(long, value_enum, ignore_case = true)]
    pub format: Option<VerifyFormat>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum VerifyFormat {
    Text,
    Json,
    Github,
    Gitlab,
    Sarif,
}

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
    Github,
    Gitlab,
    Sarif,
}

#[derive(Debug, Clone)]
pub struct Request {
    /// `A..B`, `A...B` (from their merge-base), or one revision `B` (from its
    /// merge-base with the main branch); `None`: HEAD.
    pub range: Option<String>,
    pub into: Option<String>,
    pub format: Format,
    /// Show a progress line on stderr (a terminal and a long range).
    pub progress: bool,
    /// `$GITHUB_STEP_SUMMARY`, for `--format github`.
    pub step_summary: Option<std::path::PathBuf>,
}

/// One commit's verdict.
#[derive(Debug, Clone)]
pub struct CommitVerdict {
    pub id: ObjectId,
    pub subject: String,
    pub problems: Rc<Vec<Problem>>,
    /// The earlier commit of this run whose verdict was reused: the same
    /// `.standards/` and Markdown content, against the same parent content.
    pub reused_from: Option<ObjectId>,
    /// Why the commit was not checked (it holds no STANDARDS runtime).
    pub skipped: Option<String>,
    /// The cycle STATE.md names, for fingerprints.
    pub cycle: Option<String>,
}

impl CommitVerdict {
    pub fn ok(&self) -> bool {
        self.problems.is_empty()
    }
    pub fn short(&self) -> String {
        self.id.to_hex_with_len(7).to_string()
    }
}

/// The `--into` part.
#[derive(Debug, Clone)]
pub struct IntoVerdict {
    pub branch: String,
    pub target: ObjectId,
    /// Paths git cannot merge.
    pub conflicts: Vec<String>,
    /// D24: (STATE.md path, why) for each project whose STATE.md both
    /// sides changed (the merge driver's conflict).
    pub state_conflicts: Vec<(String, String)>,
    /// The check of the merge result against the target.
    pub problems: Vec<Problem>,
    /// The merge guard's refusals: (project folder, message, hint).
    pub refusals: Vec<(String, String, String)>,
    pub guarded: bool,
}

impl IntoVerdict {
    pub fn ok(&self) -> bool {
        self.conflicts.is_empty()
            && self.state_conflicts.is_empty()
            && self.problems.is_empty()
            && self.refusals.is_empty()
    }
}

/// Everything `verify` found.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub main_branch: String,
    pub base: Option<ObjectId>,
    pub tip: ObjectId,
    /// The project folders checked (repository-relative, `""` at the top).
    pub projects: Vec<String>,
    /// Oldest first.
    pub commits: Vec<CommitVerdict>,
    pub into: Option<IntoVerdict>,
}

impl Outcome {
    pub fn ok(&self) -> bool {
        self.commits.iter().all(CommitVerdict::ok) && self.into.as_ref().is_none_or(IntoVerdict::ok)
    }
    pub fn failed(&self) -> usize {
        self.commits.iter().filter(|c| !c.ok()).count()
    }
    pub fn reused(&self) -> usize {
        self.commits
            .iter()
            .filter(|c| c.reused_from.is_some())
            .count()
    }
}

/// (base, tip) of the requested range.
fn resolve_range(
    project: &Project,
    range: Option<&str>,
    main: &str,
) -> Result<(Option<ObjectId>, ObjectId)> {
    let resolve = |rev: &str| {
        merge_guard::resolve_commit(project, rev).map_err(|e| {
            if is_shallow(project) {
                shallow_refusal(&format!("`{rev}` cannot be resolved ({e})"))
            } else {
                e
            }
        })
    };
    let from_main = |tip: ObjectId| -> Result<Option<ObjectId>> {
        let Some(main_tip) = main_tip(project, main)? else {
            return Err(Error::refused(
                format!("the main branch `{main}` exists neither as a local branch nor as `origin/{main}`, so the range has no start"),
                Some(format!("fetch the main branch (`git fetch origin {main}:refs/remotes/origin/{main}`), give the range explicitly from the commit the branch started at (`git standards verify <base>..HEAD`), or name the main branch in `.standards/config.toml` (`main-branch`)")),
            ));
        };
        if is_shallow(project) {
            return shallow_fork_point(project, main_tip, tip, main).map(Some);
        }
        merge_base(project, main_tip, tip)
    };
    match range {
        None => {
            let tip = resolve("HEAD")?;
            Ok((from_main(tip)?, tip))
        }
        Some(r) => {
            if let Some((a, b)) = r.split_once("...") {
                let (a, b) = (resolve(or_head(a))?, resolve(or_head(b))?);
                Ok((merge_base(project, a, b)?, b))
            } else if let Some((a, b)) = r.split_once("..") {
                Ok((Some(resolve(or_head(a))?), resolve(or_head(b))?))
            } else {
                let tip = resolve(r)?;
                Ok((from_main(tip)?, tip))
            }
        }
    }
}

fn or_head(s: &str) -> &str {
    if s.is_empty() {
        "HEAD"
    } else {
        s
    }
}

/// What a commit's verdict depends on: a digest of its `.standards/` and
/// Markdown entries (paths and blob IDs), and of its first parent's.
type PairKey = ([u8; 32], Option<[u8; 32]>);
/// The commit that was checked and what it found.
type Checked = (ObjectId, Rc<Vec<Problem>>);

/// A snapshot whose blobs come from a cache shared by the whole run, so a blob
/// that many commits hold is read once.
struct CachedTree<'a> {
    inner: &'a ObjectTree,
    cache: &'a std::cell::RefCell<HashMap<ObjectId, Node>>,
}

impl Tree for CachedTree<'_> {
    fn describe(&self) -> String {
        self.inner.describe()
    }
    fn node(&self, path: &str) -> Node {
        let Some(id) = self.inner.entry_id(path) else {
            return self.inner.node(path);
        };
        if let Some(node) = self.cache.borrow().get(&id) {
            return node.clone();
        }
        let node = self.inner.node(path);
        self.cache.borrow_mut().insert(id, node.clone());
        node
    }
    fn content_id(&self, path: &str) -> Option<Vec<u8>> {
        self.inner.content_id(path)
    }
    fn exists(&self, path: &str) -> bool {
        self.inner.exists(path)
    }
    fn markdown_files(&self) -> Vec<String> {
        self.inner.markdown_files()
    }
    fn markdown_files_under(&self, prefix: &str) -> Vec<String> {
        self.inner.markdown_files_under(prefix)
    }
    fn unmerged(&self) -> Vec<String> {
        self.inner.unmerged()
    }
    fn scan_key(&self) -> Option<ScanKey> {
        self.inner.scan_key()
    }
}

fn cycle_of(tree: &dyn Tree) -> Option<String> {
    match tree.text(STATE_PATH) {
        standards_core::model::tree::Text::Ok(text) => {
            let found = standards_core::model::fields::scan(&text);
            standards_core::model::fields::first(&found, "Id")
                .map(|f| f.value.clone())
                .filter(|v| v != "UNSET")
        }
        _ => None,
    }
}

/// What verify reads from every commit's runtime files, by content ID: the
/// protocol file (over 100 KiB) and STATE.md rarely change along a range.
#[derive(Default)]
struct ByContent {
    installed: HashMap<Vec<u8>, bool>,
    cycle: HashMap<Vec<u8>, Option<String>>,
}

impl ByContent {
    fn installed(&mut self, tree: &dyn Tree) -> bool {
        match tree.content_id(PROTOCOL_PATH) {
            Some(id) => *self
                .installed
                .entry(id)
                .or_insert_with(|| check::runtime::installed(tree)),
            None => check::runtime::installed(tree),
        }
    }

    fn cycle(&mut self, tree: &dyn Tree) -> Option<String> {
        match tree.content_id(STATE_PATH) {
            Some(id) => self
                .cycle
                .entry(id)
                .or_insert_with(|| cycle_of(tree))
                .clone(),
            None => cycle_of(tree),
        }
    }
}

/// Checks every commit of the range and, with `into`, the merge.
pub fn evaluate(
    project: &Project,
    request: &Request,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Outcome> {
    let branches = crate::repo::config::branches(project)?;
    let (base, tip) = resolve_range(project, request.range.as_deref(), &branches.main)?;
    evaluate_span(
        project,
        branches.main,
        base,
        tip,
        request.into.as_deref(),
        progress,
    )
}

/// Checks the first-parent chain from `tip` down to (not including) `base`
/// (the whole history without one) and, with `into`, the merge; for callers
/// that know the range as commits (the server hooks, where the main branch
/// is the receiving repository's).
pub fn evaluate_span(
    project: &Project,
    main_branch: String,
    base: Option<ObjectId>,
    tip: ObjectId,
    into: Option<&str>,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Outcome> {
    let walk = history::Walk::new(project);
    let mut chain = walk.first_parent_chain(project, base, tip)?;
    if chain.is_empty() {
        // The tip is the start (on the main branch itself): check the tip alone.
        chain.push(tip);
    }
    // D1's project when it holds `.standards/`, else every project of the tip.
    // (A bare repository has no D1 project: every project of the tip.)
    let dirs = if project.workdir().is_some() && project.root().join(".standards").is_dir() {
        vec![project.root_in_repo().to_string()]
    } else {
        let found = projects::in_commit(project, tip)?;
        if found.is_empty() {
            vec![project.root_in_repo().to_string()]
        } else {
            found
        }
    };
    let cache = std::cell::RefCell::new(HashMap::new());
    // The scan's verdicts by blob ID: an unchanged record is parsed once per
    // run, and content an earlier run found plain is not read at all.
    let verdicts = crate::repo::scan_cache::load(project)?;
    let mut seen: HashMap<(String, PairKey), Checked> = HashMap::new();
    let mut memo = ByContent::default();
    let mut commits = Vec::with_capacity(chain.len());
    let mut parents: HashMap<String, (ObjectId, ObjectTree)> = HashMap::new();
    let total = chain.len();
    for (n, id) in chain.into_iter().enumerate() {
        progress(n, total);
        let commit = walk.commit(id)?;
        let parent_id = commit.first_parent();
        let mut problems: Vec<Problem> = Vec::new();
        let mut installed = false;
        let mut reused_from = None;
        let mut all_reused = true;
        let mut cycle = None;
        for dir in &dirs {
            let parent = match (parent_id, parents.remove(dir)) {
                (Some(p), Some((pid, snap))) if p == pid => Some(snap),
                (Some(p), _) => Some(walk.project_tree(&walk.commit(p)?, dir, None)?),
                (None, _) => None,
            };
            // Only the folders that changed since the parent are read.
            let tree = walk.project_tree(&commit, dir, parent.as_ref())?;
            // Only the folders that changed since the parent are read.
            let cached_tree = CachedTree {
                inner: &tree,
                cache: &cache,
            };
            if memo.installed(&cached_tree) {
                installed = true;
                cycle = cycle.or_else(|| memo.cycle(&cached_tree));
                let key = (
                    dir.clone(),
                    (
                        tree.content_digest(),
                        parent.as_ref().map(ObjectTree::content_digest),
                    ),
                );
                let found = match seen.get(&key) {
                    Some((from, found)) => {
                        reused_from = reused_from.or(Some(*from));
                        found.clone()
                    }
                    None => {
                        all_reused = false;
                        let report: Report = match &parent {
                            Some(p) => {
                                let cached_parent = CachedTree {
                                    inner: p,
                                    cache: &cache,
                                };
                                check::run_cached(
                                    &cached_tree,
                                    Some(&cached_parent),
                                    Options::default(),
                                    Some(&verdicts),
                                )
                            }
                            None => check::run_cached(
                                &cached_tree,
                                None,
                                Options::default(),
                                Some(&verdicts),
                            ),
                        };
                        let found = Rc::new(in_repo(dir, report.problems));
                        seen.insert(key, (id, found.clone()));
                        found
                    }
                };
                problems.extend(found.iter().cloned());
                // Issue 22: a merge whose STATE.md git line-merged (MG-001).
                if commit.parents.len() > 1 {
                    problems.extend(in_repo(
                        dir,
                        merge_guard::commit_line_merge(project, id, dir)?
                            .into_iter()
                            .collect(),
                    ));
                }
                // Issue 26: nothing changes after sign-off (SO-001).
                if let (Some(pid), Some(p)) = (parent_id, &parent) {
                    problems.extend(in_repo(
                        dir,
                        after_signoff::problems(project, pid, p, id, &tree, dir)?,
                    ));
                }
            }
            parents.insert(dir.clone(), (id, tree));
        }
        commits.push(CommitVerdict {
            id,
            subject: commit.subject.clone(),
            problems: Rc::new(problems),
            reused_from: reused_from.filter(|_| installed && all_reused),
            skipped: (!installed).then(|| "no STANDARDS runtime in this commit".to_string()),
            cycle,
        });
    }
    progress(total, total);
    crate::repo::scan_cache::store(project, &verdicts);
    let into = match into {
        Some(branch) => Some(evaluate_into(project, branch, tip, &dirs)?),
        None => None,
    };
    Ok(Outcome {
        main_branch,
        base,
        tip,
        projects: dirs,
        commits,
        into,
    })
}

/// Problems with repository-relative paths (the project folder prefixed).
fn in_repo(dir: &str, problems: Vec<Problem>) -> Vec<Problem> {
    problems
        .into_iter()
        .map(|mut p| {
            if !dir.is_empty() {
                p.file = format!("{dir}/{}", p.file);
            }
            p
        })
        .collect()
}

/// D24 for a merge no driver runs (forges): when both sides changed STATE.md
/// since the merge-base, the result is the user's decision, whatever git's
/// line merge made of it.
fn state_conflict(
    project: &Project,
    path: &str,
    base: Option<ObjectId>,
    ours: ObjectId,
    theirs: ObjectId,
) -> Result<Option<String>> {
    let read = |id: Option<ObjectId>| -> Result<Vec<u8>> {
        Ok(match id {
            Some(id) => blob_at(project, id, path)?.unwrap_or_default(),
            None => Vec::new(),
        })
    };
    let (b, o, t) = (read(base)?, read(Some(ours))?, read(Some(theirs))?);
    Ok(both_changed(&b, &o, &t))
}

/// The D24 three-way case "both changed it, differently", described
/// (`standards_core::workflow::state_merge` is the rule the merge driver applies too).
fn both_changed(base: &[u8], ours: &[u8], theirs: &[u8]) -> Option<String> {
    let merged = standards_core::workflow::state_merge::merge(base, ours, theirs);
    (!merged.case.is_clean()).then(|| {
        format!(
            "both branches changed STATE.md since their merge-base (target: {}; incoming: {}); git's line merge would combine them into a state neither branch had, so the user must choose one (`git standards resolve --keep ours|theirs` during the merge)",
            merged.ours.label(),
            merged.theirs.label()
        )
    })
}

fn evaluate_into(
    project: &Project,
    branch: &str,
    tip: ObjectId,
    dirs: &[String],
) -> Result<IntoVerdict> {
    let branch = branch
        .strip_prefix("refs/heads/")
        .unwrap_or(branch)
        .to_string();
    let target = main_tip(project, &branch)?.ok_or_else(|| {
        Error::refused(
            format!("the branch `{branch}` exists neither locally nor as `origin/{branch}`"),
            Some(format!(
                "fetch it first (`git fetch origin {branch}:refs/remotes/origin/{branch}`)"
            )),
        )
    })?;
    let merged = merge_tree::merge(project, target, tip)?;
    let base = merge_base(project, target, tip)?;
    let mut state_conflicts = Vec::new();
    let mut problems = Vec::new();
    for dir in dirs {
        let state = if dir.is_empty() {
            STATE_PATH.to_string()
        } else {
            format!("{dir}/{STATE_PATH}")
        };
        if let Some(why) = state_conflict(project, &state, base, target, tip)? {
            state_conflicts.push((state, why));
        }
        let merged_tree = projects::at_tree(
            project,
            merged.tree,
            dir,
            format!("the merge of {} into `{branch}`", tip.to_hex_with_len(7)),
        )?;
        let target_tree = projects::at_rev(project, &target.to_string(), dir)?;
        if check::runtime::installed(&merged_tree) {
            let report = check::run(&merged_tree, Some(&target_tree), Options::default());
            problems.extend(in_repo(dir, report.problems));
        }
    }
    // The guard judges the branch tip into the target, for every project.
    let guard = merge_guard::evaluate(
        project,
        &Incoming::Commit {
            name: tip.to_hex_with_len(7).to_string(),
            id: tip,
        },
        &branch,
    )?;
    let refusals = guard
        .refusals()
        .map(|(dir, r)| (dir.to_string(), r.message.clone(), r.hint()))
        .collect();
    Ok(IntoVerdict {
        branch,
        target,
        conflicts: merged.conflicts,
        state_conflicts,
        problems,
        refusals,
        guarded: guard.guarded,
    })
}

pub fn run(ctx: &mut Context, request: &Request) -> Result<()> {
    let mut project = Project::discover(&ctx.cwd)?;
    project.trust_index_checksum();
    let show_progress = request.progress;
    let err = &mut *ctx.err;
    let mut progress = |n: usize, total: usize| {
        if show_progress && total >= 20 {
            let _ = if n < total {
                write!(err, "\rverify: {n}/{total} commits")
            } else {
                write!(err, "\r\x1b[K")
            };
            let _ = err.flush();
        }
    };
    let outcome = evaluate(&project, request, &mut progress)?;
    crate::repo::reads::report(err);
    let out = &mut *ctx.out;
    match request.format {
        Format::Text => format::text(out, &outcome)?,
        Format::Json => format::json(out, &outcome)?,
        Format::Github => {
            format::text(out, &outcome)?;
            format::github(out, &outcome)?;
            if let Some(path) = &request.step_summary {
                let summary = format::step_summary(&outcome, format::STEP_SUMMARY_LIMIT);
                use std::io::Write as _;
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .and_then(|mut f| f.write_all(summary.as_bytes()))
                    .map_err(|e| Error::io(path, e))?;
            }
        }
        Format::Gitlab => format::gitlab(out, &outcome)?,
        Format::Sarif => format::sarif(out, &outcome)?,
    }
    if outcome.ok() {
        Ok(())
    } else {
        Err(Error::ProblemsFound {
            count: outcome.failed() + usize::from(outcome.into.as_ref().is_some_and(|i| !i.ok())),
        })
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn d24_both_changed_only_when_both_sides_differ() {
        let base = b"`Id`: `UNSET` `WorkflowState`: `AUDITING`";
        let ours = b"`Id`: `a` `WorkflowState`: `SCOPING`";
        let theirs = b"`Id`: `b` `WorkflowState`: `DEVELOPING`";
        assert_eq!(super::both_changed(base, ours, base), None);
        assert_eq!(super::both_changed(base, base, theirs), None);
        assert_eq!(super::both_changed(base, ours, ours), None);
        let said = super::both_changed(base, ours, theirs).unwrap();
        assert!(
            said.contains("cycle a (SCOPING)") && said.contains("cycle b (DEVELOPING)"),
            "{said}"
        );
    }
}
