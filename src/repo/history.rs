//! The commit graph as `verify` walks it: branch tips, merge-bases,
//! first-parent chains (refused at a shallow boundary, never cut short),
//! commits' parents and subjects, and the project's tree at each commit of a
//! walk, derived from its parent's by reading only the folders that changed.

use gix::bstr::ByteSlice;

use super::{snapshot, ObjectTree, Project};
use crate::error::Error;

/// A commit's (or any object's) ID.
pub use gix::ObjectId;

fn git_err(context: &str, e: impl std::fmt::Display) -> Error {
    Error::Git(format!("{context}: {e}"))
}

const SHALLOW_HINT: &str = "fetch the whole history: `git fetch --unshallow` (or `git fetch --deepen=<n>`); in GitHub Actions set `fetch-depth: 0` on actions/checkout, in GitLab CI `GIT_DEPTH: 0`";

/// The refusal for a walk that reaches the shallow boundary: an incomplete
/// range is never reported as clean.
pub fn shallow_refusal(what: &str) -> Error {
    Error::refused(
        format!("this is a shallow clone and {what}: the range reaches the shallow boundary, so it cannot be verified (an incomplete range is never reported as clean)"),
        Some(SHALLOW_HINT.to_string()),
    )
}

/// Whether the repository is a shallow clone.
pub fn is_shallow(project: &Project) -> bool {
    project.repo.is_shallow().unwrap_or(false)
}

/// The commits the shallow file lists (their parents are missing here).
fn shallow_commits(project: &Project) -> Result<Vec<ObjectId>, Error> {
    Ok(project
        .repo
        .shallow_commits()
        .map_err(|e| git_err("cannot read the shallow file", e))?
        .map(|c| c.iter().copied().collect())
        .unwrap_or_default())
}

/// The commit the branch `name` points at: the local branch, else the
/// remote-tracking one (CI checkouts often have only `origin/<name>`).
pub fn branch_tip(project: &Project, name: &str) -> Result<Option<ObjectId>, Error> {
    for full in [
        format!("refs/heads/{name}"),
        format!("refs/remotes/origin/{name}"),
    ] {
        if let Some(mut r) = project
            .repo
            .try_find_reference(full.as_str())
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

/// The merge-base of `a` and `b`; in a shallow clone a failure to find it
/// is the shallow refusal.
pub fn merge_base(project: &Project, a: ObjectId, b: ObjectId) -> Result<Option<ObjectId>, Error> {
    match project.repo.merge_base(a, b) {
        Ok(Some(id)) => Ok(Some(id.detach())),
        Ok(None) => Ok(None),
        Err(e) if is_shallow(project) => Err(shallow_refusal(&format!(
            "cannot find the merge-base ({e})"
        ))),
        Err(e) => Err(git_err("cannot compute the merge-base", e)),
    }
}

/// In a shallow clone merge-base answers cannot be trusted near the
/// boundary: walks the tip's first parents until a commit `main_tip`
/// reaches, refusing when the walk meets the boundary first.
pub fn shallow_fork_point(
    project: &Project,
    main_tip: ObjectId,
    tip: ObjectId,
    main: &str,
) -> Result<ObjectId, Error> {
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
    let shallow = shallow_commits(project).unwrap_or_default();
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

/// The bytes of the blob at `path` (repository-relative) in `commit`;
/// `None` when no file is there.
pub fn blob_at(project: &Project, commit: ObjectId, path: &str) -> Result<Option<Vec<u8>>, Error> {
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

/// One commit as a walk needs it.
#[derive(Debug, Clone)]
pub struct CommitInfo {
    pub id: ObjectId,
    /// Its parents, the first parent first.
    pub parents: Vec<ObjectId>,
    /// The first line of its message.
    pub subject: String,
    /// Its root tree.
    tree: ObjectId,
}

impl CommitInfo {
    pub fn first_parent(&self) -> Option<ObjectId> {
        self.parents.first().copied()
    }
}

/// Decoded objects a history walk reads again and again (the tree of a
/// folder a commit changed is read as the next commit's "before"): enough
/// for the trees of a few commits, not for the blobs, which the scan keeps
/// verdicts on by ID.
const WALK_OBJECT_CACHE_BYTES: usize = 4 * 1024 * 1024;

/// A walk over commits: reads each commit once and the project's trees
/// incrementally, through one repository handle whose cache of decoded
/// objects lives as long as the walk.
pub struct Walk {
    repo: gix::Repository,
}

impl Walk {
    pub fn new(project: &Project) -> Walk {
        let mut repo = project.repo.clone();
        repo.object_cache_size(WALK_OBJECT_CACHE_BYTES);
        Walk { repo }
    }

    /// The first-parent chain from `tip` down to (not including) `base` (the
    /// whole history without one), oldest first. Refuses when it runs into the
    /// shallow boundary. The commits it reads stay in the walk's cache.
    pub fn first_parent_chain(
        &self,
        project: &Project,
        base: Option<ObjectId>,
        tip: ObjectId,
    ) -> Result<Vec<ObjectId>, Error> {
        let shallow = shallow_commits(project)?;
        let mut chain = Vec::new();
        let refuse_shallow = |id: ObjectId| {
            shallow_refusal(&format!(
                "commit {} has no parents here",
                id.to_hex_with_len(7)
            ))
        };
        if let Some(base) = base {
            // `base..tip --first-parent`: what the tip's first parents reach and the base does not.
            let walk = self
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
                let commit = self.repo.find_commit(id).map_err(|e| {
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

    /// The commit `id`: its parents, subject and tree.
    pub fn commit(&self, id: ObjectId) -> Result<CommitInfo, Error> {
        let commit = self
            .repo
            .find_commit(id)
            .map_err(|e| git_err("cannot read a commit", e))?;
        let subject = commit
            .message_raw()
            .ok()
            .map(|m| {
                m.lines()
                    .next()
                    .unwrap_or_default()
                    .to_str_lossy()
                    .into_owned()
            })
            .unwrap_or_default();
        let tree = commit
            .tree_id()
            .map_err(|e| git_err("cannot read the commit's tree", e))?
            .detach();
        Ok(CommitInfo {
            id,
            parents: commit.parent_ids().map(|p| p.detach()).collect(),
            subject,
            tree,
        })
    }

    /// The project at `dir` (repository-relative) of `commit`, its entries
    /// materialised: from `parent`'s (the snapshot of the same project at
    /// the commit's first parent, as this walk made it) by reading only the
    /// subtrees whose IDs differ, else walked whole.
    pub fn project_tree(
        &self,
        commit: &CommitInfo,
        dir: &str,
        parent: Option<&ObjectTree>,
    ) -> Result<ObjectTree, Error> {
        let short = commit.id.to_hex_with_len(7).to_string();
        let root = self
            .repo
            .find_tree(commit.tree)
            .map_err(|e| snapshot::object_err("cannot read the commit's tree", e))?;
        let tree = ObjectTree::from_tree(
            &self.repo,
            root,
            dir,
            format!("commit {short} (`{}`)", commit.id),
            Some(commit.id),
        )?;
        if let Some(parent) = parent {
            tree.derive_with(&self.repo, parent)?;
        }
        tree.load()?;
        tree.keyed();
        Ok(tree)
    }
}
