//! Snapshots of the project: the working tree, the index, and commits.

use std::collections::{BTreeMap, BTreeSet};

use gix::bstr::ByteSlice;
use gix::index::entry::Stage;

use super::handles;
use super::worktree::WorktreeTree;

use crate::error::Error;
use crate::protocol::tree::{Node, Stages, Tree};

/// The index is the user's file: a damaged one is a refusal with a way out, not an internal error.
pub(super) fn index_err(e: impl std::fmt::Display) -> Error {
    Error::Refused {
        message: format!("cannot read the git index: {e}"),
        hint: Some(
            "the index file is damaged (`git status` fails too); `git reset` rebuilds it from HEAD and keeps your working tree"
                .into(),
        ),
    }
}

/// A missing or corrupt object: the repository is damaged, which is a
/// refusal naming `git fsck`, not an internal error (issue 7, item 6).
fn object_err(context: &str, e: impl std::fmt::Display) -> Error {
    Error::Refused {
        message: format!("{context}: {e}"),
        hint: Some(
            "the repository is damaged (a missing or corrupt object); run `git fsck` to find it"
                .into(),
        ),
    }
}

pub(super) fn git_err(context: &str, e: impl std::fmt::Display) -> Error {
    Error::Git(format!("{context}: {e}"))
}

/// Unmerged paths under `.standards/` of the repository's current index, project-relative.
pub(super) fn unmerged_standards(
    repo: &gix::Repository,
    root_in_repo: &str,
) -> Result<Vec<String>, Error> {
    let index = repo.index_or_empty().map_err(index_err)?;
    let prefix = repo_prefix(root_in_repo, ".standards/");
    let mut out = BTreeSet::new();
    for e in index
        .prefixed_entries(prefix.as_bytes().as_bstr())
        .unwrap_or_default()
    {
        if e.stage() != Stage::Unconflicted {
            let path = e.path(&index).to_str_lossy();
            out.insert(strip_root(&path, root_in_repo).to_string());
        }
    }
    Ok(out.into_iter().collect())
}

/// The stages of the unmerged project-relative `path` in the repository's
/// current index, `None` when it has none (git-facts §4).
pub(super) fn unmerged_stages(
    repo: &gix::Repository,
    root_in_repo: &str,
    path: &str,
) -> Option<Stages> {
    let index = repo.index_or_empty().ok()?;
    let full = repo_prefix(root_in_repo, path);
    let blob = |stage| {
        index
            .entry_by_path_and_stage(full.as_bytes().as_bstr(), stage)
            .and_then(|e| repo.find_blob(e.id).ok())
            .map(|mut b| b.take_data())
    };
    let stages = Stages {
        base: blob(Stage::Base),
        ours: blob(Stage::Ours),
        theirs: blob(Stage::Theirs),
    };
    (stages != Stages::default()).then_some(stages)
}

fn repo_prefix(root_in_repo: &str, rest: &str) -> String {
    if root_in_repo.is_empty() {
        rest.to_string()
    } else {
        format!("{root_in_repo}/{rest}")
    }
}

pub(super) fn strip_root<'a>(path: &'a str, root_in_repo: &str) -> &'a str {
    if root_in_repo.is_empty() {
        path
    } else {
        path.strip_prefix(root_in_repo)
            .and_then(|p| p.strip_prefix('/'))
            .unwrap_or(path)
    }
}

#[derive(Clone, Copy)]
enum Kind {
    Blob,
    Symlink,
    Other,
}

/// A tree of blobs from the object database: the index or a commit.
pub struct ObjectTree {
    repo: gix::Repository,
    description: String,
    entries: BTreeMap<String, (gix::ObjectId, Kind)>,
    unmerged: Vec<String>,
    /// For the index snapshot, the project root in the repository: where the
    /// stages of its unmerged paths are read.
    index_root: Option<String>,
    /// The commit this tree comes from, if any.
    pub commit: Option<gix::ObjectId>,
}

impl ObjectTree {
    /// The staged content. A conflicted path shows its "ours" stage; its
    /// conflict is reported through [`Tree::unmerged`].
    pub(super) fn from_index(repo: &gix::Repository, root_in_repo: &str) -> Result<Self, Error> {
        let index = repo.index_or_empty().map_err(index_err)?;
        let mut entries = BTreeMap::new();
        let prefix = repo_prefix(root_in_repo, "");
        for e in index.entries() {
            let path = e.path(&index).to_str_lossy();
            if !path.starts_with(&prefix) {
                continue;
            }
            let rel = strip_root(&path, root_in_repo).to_string();
            let kind = if e.mode.is_submodule() {
                Kind::Other
            } else if e.mode == gix::index::entry::Mode::SYMLINK {
                Kind::Symlink
            } else {
                Kind::Blob
            };
            match e.stage() {
                Stage::Unconflicted | Stage::Ours => {
                    entries.insert(rel, (e.id, kind));
                }
                Stage::Base | Stage::Theirs => {
                    entries.entry(rel).or_insert((e.id, kind));
                }
            }
        }
        Ok(ObjectTree {
            repo: repo.clone(),
            description: "the index".into(),
            entries,
            unmerged: unmerged_standards(repo, root_in_repo)?,
            index_root: Some(root_in_repo.to_string()),
            commit: None,
        })
    }

    pub(super) fn from_rev(
        repo: &gix::Repository,
        rev: &str,
        root_in_repo: &str,
    ) -> Result<Self, Error> {
        let id = repo.rev_parse_single(rev).map_err(|_| {
            if repo.head_id().is_err() && repo.references().is_ok_and(|r| r.all().is_ok_and(|mut all| all.next().is_none())) {
                Error::Refused {
                    message: format!("cannot resolve `{rev}`: the repository has no commits yet"),
                    hint: Some("commit first, or read the working tree (without `--ref`)".into()),
                }
            } else {
                Error::Refused {
                    // gix's own text (`couldn't parse revision, input="..."`) names its internals.
                    message: format!("unknown revision `{rev}`"),
                    hint: Some("name a branch, tag or commit that exists in this repository (see `git log --oneline`)".into()),
                }
            }
        })?;
        let commit = id
            .object()
            .map_err(|e| object_err("cannot read the object", e))?
            .peel_to_commit()
            .map_err(|_| Error::Refused {
                message: format!("`{rev}` does not name a commit"),
                hint: Some(
                    "name a branch, tag or commit (a tree or blob has no history to check)".into(),
                ),
            })?;
        let tree = commit
            .tree()
            .map_err(|e| object_err("cannot read the commit's tree", e))?;
        let short = commit.id.to_hex_with_len(7).to_string();
        Self::from_tree(
            repo,
            tree,
            root_in_repo,
            format!("commit {short} (`{rev}`)"),
            Some(commit.id),
        )
    }

    /// The project below `root_in_repo` of a tree object (a commit's, or a
    /// merge result that no commit holds yet).
    pub(super) fn from_tree(
        repo: &gix::Repository,
        tree: gix::Tree<'_>,
        root_in_repo: &str,
        description: String,
        commit: Option<gix::ObjectId>,
    ) -> Result<Self, Error> {
        let mut entries = BTreeMap::new();
        let sub = if root_in_repo.is_empty() {
            Some(tree)
        } else {
            match tree
                .lookup_entry_by_path(root_in_repo)
                .map_err(|e| object_err("cannot read the tree", e))?
            {
                Some(e) if e.mode().is_tree() => Some(
                    e.object()
                        .map_err(|e| object_err("cannot read the tree", e))?
                        .into_tree(),
                ),
                _ => None,
            }
        };
        if let Some(tree) = sub {
            let mut rec = gix::traverse::tree::Recorder::default();
            tree.traverse()
                .breadthfirst(&mut rec)
                .map_err(|e| object_err("cannot walk the tree", e))?;
            for r in rec.records {
                let kind = if r.mode.is_blob() {
                    Kind::Blob
                } else if r.mode.is_link() {
                    Kind::Symlink
                } else if r.mode.is_tree() {
                    continue;
                } else {
                    Kind::Other
                };
                entries.insert(r.filepath.to_str_lossy().into_owned(), (r.oid, kind));
            }
        }
        Ok(ObjectTree {
            repo: repo.clone(),
            description,
            entries,
            unmerged: Vec::new(),
            index_root: None,
            commit,
        })
    }
}

impl ObjectTree {
    /// The project-relative paths of every entry, sorted.
    pub fn paths(&self) -> impl Iterator<Item = &str> {
        self.entries.keys().map(String::as_str)
    }

    /// The object ID at `path`, if an entry is there.
    pub fn entry_id(&self, path: &str) -> Option<gix::ObjectId> {
        self.entries.get(path).map(|(id, _)| *id)
    }

    /// Whether `path` holds the same object, of the same kind, in both trees.
    pub fn same_entry(&self, other: &ObjectTree, path: &str) -> bool {
        match (self.entries.get(path), other.entries.get(path)) {
            (None, None) => true,
            (Some((a, ka)), Some((b, kb))) => {
                a == b && std::mem::discriminant(ka) == std::mem::discriminant(kb)
            }
            _ => false,
        }
    }
}

/// Whether a file for which `want` holds differs between the working tree
/// (tracked files and untracked files that are not ignored) and the index, or
/// between the index and `head`: what `git status -- <pathspecs>` would list.
/// Working-tree files are compared byte for byte with the staged blobs.
pub fn differs(
    work: &WorktreeTree,
    index: &ObjectTree,
    head: Option<&ObjectTree>,
    want: &dyn Fn(&str) -> bool,
    stat_clean: &dyn Fn(&str) -> bool,
) -> Result<bool, Error> {
    let mut paths: BTreeSet<&str> = index.paths().filter(|p| want(p)).collect();
    if let Some(head) = head {
        paths.extend(head.paths().filter(|p| want(p)));
    }
    let untracked = work.untracked(want)?;
    if !untracked.is_empty() {
        return Ok(true);
    }
    let empty = ObjectTree {
        repo: index.repo.clone(),
        description: String::new(),
        entries: BTreeMap::new(),
        unmerged: Vec::new(),
        index_root: None,
        commit: None,
    };
    let head = head.unwrap_or(&empty);
    Ok(paths
        .into_iter()
        .any(|p| !index.same_entry(head, p) || (!stat_clean(p) && work.node(p) != index.node(p))))
}

/// Project paths whose index entry's stat data (size, mtime, inode, ...)
/// still match the file on disk and are not racy (RT §5.2 step 3, as git
/// itself decides): such files are unchanged without reading them.
pub fn stat_clean_paths(
    repo: &gix::Repository,
    workdir: &std::path::Path,
    root_in_repo: &str,
) -> std::collections::HashSet<String> {
    let mut out = std::collections::HashSet::new();
    let Ok(index) = repo.index_or_empty() else {
        return out;
    };
    let stamp = index.timestamp();
    let options = gix::index::entry::stat::Options::default();
    for e in index.entries() {
        if e.stage_raw() != 0 || e.stat.is_racy(stamp, options) {
            continue;
        }
        let path = e.path(&index).to_str_lossy().into_owned();
        let Ok(meta) = gix::index::fs::Metadata::from_path_no_follow(&workdir.join(&path)) else {
            continue;
        };
        let Ok(now) = gix::index::entry::Stat::from_fs(&meta) else {
            continue;
        };
        if now.matches(&e.stat, options) {
            let in_root = root_in_repo.is_empty() || path.starts_with(&format!("{root_in_repo}/"));
            if in_root {
                out.insert(strip_root(&path, root_in_repo).to_string());
            }
        }
    }
    out
}

impl Tree for ObjectTree {
    fn describe(&self) -> String {
        self.description.clone()
    }

    fn node(&self, path: &str) -> Node {
        match self.entries.get(path) {
            Some((id, Kind::Blob)) => match self.repo.find_header(*id) {
                Ok(h) if h.size() > handles::MAX_FILE_BYTES => Node::Unreadable(format!(
                    "it is {} MiB, larger than the {} MiB git standards reads from one file",
                    h.size() / (1024 * 1024),
                    handles::MAX_FILE_BYTES / (1024 * 1024)
                )),
                _ => match self.repo.find_blob(*id) {
                    Ok(mut blob) => Node::File(blob.take_data()),
                    Err(e) => Node::Unreadable(format!(
                        "cannot read blob {id}: {e} (the repository is damaged; run `git fsck`)"
                    )),
                },
            },
            Some((_, Kind::Symlink)) => Node::Symlink,
            Some((_, Kind::Other)) => Node::Unreadable("it is a submodule, not a file".into()),
            None => {
                let prefix = format!("{path}/");
                let is_dir = self
                    .entries
                    .range(prefix.clone()..)
                    .next()
                    .is_some_and(|(k, _)| k.starts_with(&prefix));
                if is_dir {
                    Node::Dir
                } else {
                    Node::Missing
                }
            }
        }
    }

    fn markdown_files(&self) -> Vec<String> {
        self.entries
            .iter()
            .filter(|(k, (_, kind))| k.ends_with(".md") && matches!(kind, Kind::Blob))
            .map(|(k, _)| k.clone())
            .collect()
    }

    fn unmerged(&self) -> Vec<String> {
        self.unmerged.clone()
    }

    /// Only the index snapshot has stages; a commit's tree never does.
    fn stages(&self, path: &str) -> Option<Stages> {
        if self.unmerged.iter().any(|p| p == path) {
            unmerged_stages(&self.repo, self.index_root.as_deref()?, path)
        } else {
            None
        }
    }
}
