//! `git standards verify [<range>] [--into <branch>] [--format ...]`: every
//! commit of a range checked against its first parent, and (with `--into`)
//! the in-memory merge of the tip into a branch, for CI and `pre-push`.

mod after_signoff;
pub mod format;

use std::collections::HashMap;
use std::rc::Rc;

use gix::bstr::ByteSlice;

use crate::commands::merge_guard::{self, Incoming};
use crate::commands::Context;
use crate::error::{Error, Result};
use crate::repo::{merge_tree, projects, ObjectTree, Project};
use standards_core::check::{self, Options, Problem, Report};
use standards_core::model::layout::STATE_PATH;
use standards_core::model::tree::{Node, Tree};

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
    pub id: gix::ObjectId,
    pub subject: String,
    pub problems: Rc<Vec<Problem>>,
    /// The earlier commit of this run whose verdict was reused: the same
    /// `.standards/` and Markdown content, against the same parent content.
    pub reused_from: Option<gix::ObjectId>,
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
    pub target: gix::ObjectId,
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
    pub base: Option<gix::ObjectId>,
    pub tip: gix::ObjectId,
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

fn git_err(context: &str, e: impl std::fmt::Display) -> Error {
    Error::Git(format!("{context}: {e}"))
}

const SHALLOW_HINT: &str = "fetch the whole history: `git fetch --unshallow` (or `git fetch --deepen=<n>`); in GitHub Actions set `fetch-depth: 0` on actions/checkout, in GitLab CI `GIT_DEPTH: 0`";

/// The commit the main branch points at: the local branch, else the
/// remote-tracking one (CI checkouts often have only `origin/<main>`).
fn main_tip(project: &Project, main: &str) -> Result<Option<gix::ObjectId>> {
    for name in [
        format!("refs/heads/{main}"),
        format!("refs/remotes/origin/{main}"),
    ] {
        if let Some(mut r) = project
            .repo
            .try_find_reference(name.as_str())
            .map_err(|e| git_err("cannot read a branch", e))?
        {
            let id = r
                .peel_to_id()
                .map_err(|e| git_err("cannot read a branch", e))?;
            return Ok(Some(id.detach()));
        }
    }
    Ok(None)
}

fn merge_base(
    project: &Project,
    a: gix::ObjectId,
    b: gix::ObjectId,
) -> Result<Option<gix::ObjectId>> {
    match project.repo.merge_base(a, b) {
        Ok(Some(id)) => Ok(Some(id.detach())),
        Ok(None) => Ok(None),
        Err(e) if is_shallow(project) => Err(shallow_refusal(&format!(
            "cannot find the merge-base ({e})"
        ))),
        Err(e) => Err(git_err("cannot compute the merge-base", e)),
    }
}

fn is_shallow(project: &Project) -> bool {
    project.repo.is_shallow().unwrap_or(false)
}

fn shallow_refusal(what: &str) -> Error {
    Error::refused(
        format!("this is a shallow clone and {what}: the range reaches the shallow boundary, so it cannot be verified (an incomplete range is never reported as clean)"),
        Some(SHALLOW_HINT.to_string()),
    )
}

/// (base, tip) of the requested range.
fn resolve_range(
    project: &Project,
    range: Option<&str>,
    main: &str,
) -> Result<(Option<gix::ObjectId>, gix::ObjectId)> {
    let resolve = |rev: &str| {
        merge_guard::resolve_commit(project, rev).map_err(|e| {
            if is_shallow(project) {
                shallow_refusal(&format!("`{rev}` cannot be resolved ({e})"))
            } else {
                e
            }
        })
    };
    let from_main = |tip: gix::ObjectId| -> Result<Option<gix::ObjectId>> {
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

/// In a shallow clone merge-base answers cannot be trusted near the
/// boundary: walk the tip's first parents until a commit the main branch
/// reaches, refusing when the walk meets the boundary first.
fn shallow_fork_point(
    project: &Project,
    main_tip: gix::ObjectId,
    tip: gix::ObjectId,
    main: &str,
) -> Result<gix::ObjectId> {
    let repo = &project.repo;
    let mut on_main = std::collections::HashSet::new();
    let mut stack = vec![main_tip];
    while let Some(id) = stack.pop() {
        if !on_main.insert(id) {
            continue;
        }
        if let Ok(c) = repo.find_commit(id) {
            stack.extend(c.parent_ids().map(|p| p.detach()));
        }
    }
    let shallow: Vec<gix::ObjectId> = repo
        .shallow_commits()
        .ok()
        .flatten()
        .map(|c| c.iter().copied().collect())
        .unwrap_or_default();
    let mut current = tip;
    loop {
        if on_main.contains(&current) {
            return Ok(current);
        }
        let parent = repo
            .find_commit(current)
            .ok()
            .and_then(|c| c.parent_ids().next().map(|p| p.detach()));
        match parent {
            Some(p) if !shallow.contains(&current) => current = p,
            _ => {
                return Err(shallow_refusal(&format!(
                    "the history between `{main}` and the tip is cut off at commit {}",
                    current.to_hex_with_len(7)
                )))
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

/// The first-parent chain from `tip` down to (not including) `base`, oldest
/// first. Refuses when it runs into the shallow boundary.
fn first_parent_chain(
    project: &Project,
    base: Option<gix::ObjectId>,
    tip: gix::ObjectId,
) -> Result<Vec<gix::ObjectId>> {
    let shallow: Vec<gix::ObjectId> = project
        .repo
        .shallow_commits()
        .map_err(|e| git_err("cannot read the shallow file", e))?
        .map(|c| c.iter().copied().collect())
        .unwrap_or_default();
    let mut chain = Vec::new();
    let refuse_shallow = |id: gix::ObjectId| {
        shallow_refusal(&format!(
            "commit {} has no parents here",
            id.to_hex_with_len(7)
        ))
    };
    if let Some(base) = base {
        // `base..tip --first-parent`: what the tip's first parents reach and the base does not.
        let walk = project
            .repo
            .rev_walk([tip])
            .first_parent_only()
            .with_hidden([base])
            .all()
            .map_err(|e| git_err("cannot walk the history", e))?;
        for info in walk {
            let info = info.map_err(|e| {
                if shallow.is_empty() {
                    git_err("cannot walk the history", e)
                } else {
                    shallow_refusal(&format!("the history cannot be walked ({e})"))
                }
            })?;
            if shallow.contains(&info.id) {
                return Err(refuse_shallow(info.id));
            }
            chain.push(info.id);
        }
    } else {
        let mut current = Some(tip);
        while let Some(id) = current {
            if shallow.contains(&id) {
                return Err(refuse_shallow(id));
            }
            let commit = project.repo.find_commit(id).map_err(|e| {
                if shallow.is_empty() {
                    git_err("cannot read a commit", e)
                } else {
                    shallow_refusal(&format!("commit {} is missing", id.to_hex_with_len(7)))
                }
            })?;
            chain.push(id);
            current = commit.parent_ids().next().map(|p| p.detach());
        }
    }
    chain.reverse();
    Ok(chain)
}

/// What a commit's verdict depends on: a digest of its `.standards/` and
/// Markdown entries (paths and blob IDs), and of its first parent's.
type PairKey = ([u8; 32], Option<[u8; 32]>);
/// The commit that was checked and what it found.
type Checked = (gix::ObjectId, Rc<Vec<Problem>>);

/// A snapshot whose blobs come from a cache shared by the whole run, so a blob
/// that many commits hold is read once.
struct CachedTree<'a> {
    inner: &'a ObjectTree,
    cache: &'a std::cell::RefCell<HashMap<gix::ObjectId, Node>>,
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
    fn markdown_files(&self) -> Vec<String> {
        self.inner.markdown_files()
    }
    fn unmerged(&self) -> Vec<String> {
        self.inner.unmerged()
    }
}

fn subject(project: &Project, id: gix::ObjectId) -> String {
    project
        .repo
        .find_commit(id)
        .ok()
        .and_then(|c| {
            c.message_raw().ok().map(|m| {
                m.lines()
                    .next()
                    .unwrap_or_default()
                    .to_str_lossy()
                    .into_owned()
            })
        })
        .unwrap_or_default()
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
    base: Option<gix::ObjectId>,
    tip: gix::ObjectId,
    into: Option<&str>,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Outcome> {
    let mut chain = first_parent_chain(project, base, tip)?;
    if chain.is_empty() {
        // The tip is the start (on the main branch itself): check the tip alone.
        chain.push(tip);
    }
    let repo = &project.repo;
    // D1's project when it holds `.standards/`, else every project of the tip.
    // (A bare repository has no D1 project: every project of the tip.)
    let dirs = if project.workdir.is_some() && project.root.join(".standards").is_dir() {
        vec![project.root_in_repo.clone()]
    } else {
        let found = projects::in_commit(repo, tip)?;
        if found.is_empty() {
            vec![project.root_in_repo.clone()]
        } else {
            found
        }
    };
    let cache = std::cell::RefCell::new(HashMap::new());
    // The scan's verdicts by blob ID: an unchanged record is parsed once per
    // run, and content an earlier run found plain is not read at all.
    let verdicts = crate::repo::scan_cache::load(project)?;
    let mut seen: HashMap<(String, PairKey), Checked> = HashMap::new();
    let mut commits = Vec::with_capacity(chain.len());
    let mut parents: HashMap<String, (gix::ObjectId, ObjectTree)> = HashMap::new();
    let total = chain.len();
    for (n, id) in chain.into_iter().enumerate() {
        progress(n, total);
        let commit = repo
            .find_commit(id)
            .map_err(|e| git_err("cannot read a commit", e))?;
        let parent_id = commit.parent_ids().next().map(|p| p.detach());
        let mut problems: Vec<Problem> = Vec::new();
        let mut installed = false;
        let mut reused_from = None;
        let mut all_reused = true;
        let mut cycle = None;
        for dir in &dirs {
            let tree = projects::at_rev(repo, &id.to_string(), dir)?;
            let parent = match (parent_id, parents.remove(dir)) {
                (Some(p), Some((pid, snap))) if p == pid => Some(snap),
                (Some(p), _) => {
                    let snap = projects::at_rev(repo, &p.to_string(), dir)?;
                    snap.load()?;
                    Some(snap)
                }
                (None, _) => None,
            };
            // Only the folders that changed since the parent are read.
            match &parent {
                Some(p) => tree.derive_from(p)?,
                None => tree.load()?,
            }
            tree.load()?;
            let cached_tree = CachedTree {
                inner: &tree,
                cache: &cache,
            };
            if check::runtime::installed(&cached_tree) {
                installed = true;
                cycle = cycle.or_else(|| cycle_of(&cached_tree));
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
                problems.extend(in_repo(
                    dir,
                    merge_guard::commit_line_merge(project, id, dir)?
                        .into_iter()
                        .collect(),
                ));
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
            subject: subject(project, id),
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

fn blob_at(project: &Project, commit: gix::ObjectId, path: &str) -> Result<Option<Vec<u8>>> {
    let tree = project
        .repo
        .find_commit(commit)
        .map_err(|e| git_err("cannot read a commit", e))?
        .tree()
        .map_err(|e| git_err("cannot read a tree", e))?;
    match tree
        .lookup_entry_by_path(path)
        .map_err(|e| git_err("cannot read a tree", e))?
    {
        Some(entry) if entry.mode().is_blob() => Ok(Some(
            entry
                .object()
                .map_err(|e| git_err("cannot read a blob", e))?
                .detach()
                .data,
        )),
        _ => Ok(None),
    }
}

/// D24 for a merge no driver runs (forges): when both sides changed STATE.md
/// since the merge-base, the result is the user's decision, whatever git's
/// line merge made of it.
fn state_conflict(
    project: &Project,
    path: &str,
    base: Option<gix::ObjectId>,
    ours: gix::ObjectId,
    theirs: gix::ObjectId,
) -> Result<Option<String>> {
    let read = |id: Option<gix::ObjectId>| -> Result<Vec<u8>> {
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
    tip: gix::ObjectId,
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
    let merged = merge_tree::merge(&project.repo, target, tip)?;
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
            &project.repo,
            merged.tree,
            dir,
            format!("the merge of {} into `{branch}`", tip.to_hex_with_len(7)),
        )?;
        let target_tree = projects::at_rev(&project.repo, &target.to_string(), dir)?;
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
