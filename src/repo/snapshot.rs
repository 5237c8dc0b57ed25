//! Snapshots of the project: the working tree, the index, and commits.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use gix::bstr::ByteSlice;
use gix::index::entry::Stage;

use crate::error::Error;
use crate::protocol::tree::{Node, Tree};

fn git_err(context: &str, e: impl std::fmt::Display) -> Error {
    Error::Git(format!("{context}: {e}"))
}

/// Unmerged paths under `.standards/` of the repository's current index, project-relative.
fn unmerged_standards(repo: &gix::Repository, root_in_repo: &str) -> Result<Vec<String>, Error> {
    let index = repo
        .index_or_empty()
        .map_err(|e| git_err("cannot read the index", e))?;
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

fn repo_prefix(root_in_repo: &str, rest: &str) -> String {
    if root_in_repo.is_empty() {
        rest.to_string()
    } else {
        format!("{root_in_repo}/{rest}")
    }
}

fn strip_root<'a>(path: &'a str, root_in_repo: &str) -> &'a str {
    if root_in_repo.is_empty() {
        path
    } else {
        path.strip_prefix(root_in_repo)
            .and_then(|p| p.strip_prefix('/'))
            .unwrap_or(path)
    }
}

/// The files on disk. Reads never follow a symbolic link.
pub struct WorktreeTree {
    repo: gix::Repository,
    top: PathBuf,
    root: PathBuf,
    root_in_repo: String,
}

impl WorktreeTree {
    pub(super) fn open(
        repo: &gix::Repository,
        top: PathBuf,
        root: PathBuf,
        root_in_repo: String,
    ) -> Result<Self, Error> {
        Ok(WorktreeTree {
            repo: repo.clone(),
            top,
            root,
            root_in_repo,
        })
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    fn walk_untracked(
        &self,
        tracked: &BTreeSet<String>,
        out: &mut BTreeSet<String>,
    ) -> Result<(), Error> {
        let index = self
            .repo
            .index_or_empty()
            .map_err(|e| git_err("cannot read the index", e))?;
        let mut excludes = self
            .repo
            .excludes(
                &index,
                None,
                gix::worktree::stack::state::ignore::Source::WorktreeThenIdMappingIfNotSkipped,
            )
            .map_err(|e| git_err("cannot read the ignore rules", e))?;
        let mut stack = vec![self.root.clone()];
        while let Some(dir) = stack.pop() {
            let Ok(read) = std::fs::read_dir(&dir) else {
                continue;
            };
            for entry in read.flatten() {
                let path = entry.path();
                let Ok(kind) = entry.file_type() else {
                    continue;
                };
                let Ok(rel_top) = path.strip_prefix(&self.top) else {
                    continue;
                };
                let rel_top = rel_top.to_string_lossy().replace('\\', "/");
                if kind.is_dir() {
                    if entry.file_name() == ".git" {
                        continue;
                    }
                    let ignored = excludes
                        .at_path(Path::new(&rel_top), Some(gix::index::entry::Mode::DIR))
                        .map(|p| p.is_excluded())
                        .unwrap_or(false);
                    if !ignored {
                        stack.push(path);
                    }
                } else if kind.is_file() && rel_top.ends_with(".md") && !tracked.contains(&rel_top)
                {
                    let ignored = excludes
                        .at_path(Path::new(&rel_top), Some(gix::index::entry::Mode::FILE))
                        .map(|p| p.is_excluded())
                        .unwrap_or(false);
                    if !ignored {
                        out.insert(strip_root(&rel_top, &self.root_in_repo).to_string());
                    }
                }
            }
        }
        Ok(())
    }
}

impl Tree for WorktreeTree {
    fn describe(&self) -> String {
        "the working tree".into()
    }

    fn node(&self, path: &str) -> Node {
        if path.is_empty()
            || path
                .split('/')
                .any(|c| c.is_empty() || c == "." || c == "..")
        {
            return Node::Missing;
        }
        let mut current = self.root.clone();
        let parts: Vec<&str> = path.split('/').collect();
        for (i, part) in parts.iter().enumerate() {
            current.push(part);
            let meta = match std::fs::symlink_metadata(&current) {
                Ok(m) => m,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Node::Missing,
                Err(e) if e.raw_os_error() == Some(20) => return Node::Missing, // ENOTDIR
                Err(e) => return Node::Unreadable(e.to_string()),
            };
            let last = i + 1 == parts.len();
            if meta.file_type().is_symlink() {
                return Node::Symlink;
            }
            if !last && !meta.is_dir() {
                return Node::Missing;
            }
            if last {
                if meta.is_dir() {
                    return Node::Dir;
                }
                if !meta.is_file() {
                    return Node::Unreadable("it is not a regular file".into());
                }
                return match std::fs::read(&current) {
                    Ok(bytes) => Node::File(bytes),
                    Err(e) => Node::Unreadable(e.to_string()),
                };
            }
        }
        Node::Missing
    }

    fn markdown_files(&self) -> Vec<String> {
        let mut out = BTreeSet::new();
        let mut tracked = BTreeSet::new();
        if let Ok(index) = self.repo.index_or_empty() {
            for e in index.entries() {
                let p = e.path(&index).to_str_lossy().into_owned();
                tracked.insert(p.clone());
                let in_root = self.root_in_repo.is_empty()
                    || p.starts_with(&format!("{}/", self.root_in_repo));
                if in_root && p.ends_with(".md") {
                    out.insert(strip_root(&p, &self.root_in_repo).to_string());
                }
            }
        }
        // Tracked files deleted from disk are skipped by the readers (they are Missing).
        let _ = self.walk_untracked(&tracked, &mut out);
        out.into_iter().collect()
    }

    fn unmerged(&self) -> Vec<String> {
        unmerged_standards(&self.repo, &self.root_in_repo).unwrap_or_default()
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
    /// The commit this tree comes from, if any.
    pub commit: Option<gix::ObjectId>,
}

impl ObjectTree {
    /// The staged content. A conflicted path shows its "ours" stage; its
    /// conflict is reported through [`Tree::unmerged`].
    pub(super) fn from_index(repo: &gix::Repository, root_in_repo: &str) -> Result<Self, Error> {
        let index = repo
            .index_or_empty()
            .map_err(|e| git_err("cannot read the index", e))?;
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
            commit: None,
        })
    }

    pub(super) fn from_rev(
        repo: &gix::Repository,
        rev: &str,
        root_in_repo: &str,
    ) -> Result<Self, Error> {
        let id = repo.rev_parse_single(rev).map_err(|e| Error::Refused {
            message: format!("cannot resolve the revision `{rev}`: {e}"),
            hint: Some("name a branch, tag or commit that exists in this repository".into()),
        })?;
        let commit = id
            .object()
            .map_err(|e| git_err("cannot read the object", e))?
            .peel_to_commit()
            .map_err(|e| Error::Refused {
                message: format!("`{rev}` does not name a commit: {e}"),
                hint: None,
            })?;
        let tree = commit
            .tree()
            .map_err(|e| git_err("cannot read the commit's tree", e))?;
        let mut entries = BTreeMap::new();
        let sub = if root_in_repo.is_empty() {
            Some(tree)
        } else {
            match tree
                .lookup_entry_by_path(root_in_repo)
                .map_err(|e| git_err("cannot read the tree", e))?
            {
                Some(e) if e.mode().is_tree() => Some(
                    e.object()
                        .map_err(|e| git_err("cannot read the tree", e))?
                        .into_tree(),
                ),
                _ => None,
            }
        };
        if let Some(tree) = sub {
            let mut rec = gix::traverse::tree::Recorder::default();
            tree.traverse()
                .breadthfirst(&mut rec)
                .map_err(|e| git_err("cannot walk the tree", e))?;
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
        let short = commit.id.to_hex_with_len(7).to_string();
        Ok(ObjectTree {
            repo: repo.clone(),
            description: format!("commit {short} (`{rev}`)"),
            entries,
            unmerged: Vec::new(),
            commit: Some(commit.id),
        })
    }
}

impl Tree for ObjectTree {
    fn describe(&self) -> String {
        self.description.clone()
    }

    fn node(&self, path: &str) -> Node {
        match self.entries.get(path) {
            Some((id, Kind::Blob)) => match self.repo.find_blob(*id) {
                Ok(mut blob) => Node::File(blob.take_data()),
                Err(e) => Node::Unreadable(format!("cannot read blob {id}: {e}")),
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
}
