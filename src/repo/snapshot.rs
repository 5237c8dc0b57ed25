//! Snapshots of the project: the working tree, the index, and commits.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use std::os::fd::OwnedFd;

use gix::bstr::ByteSlice;
use gix::index::entry::Stage;
use rustix::fs::FileType;

use super::handles::{self, Folders};

use crate::error::Error;
use crate::protocol::tree::{Node, Stages, Tree};

/// The index is the user's file: a damaged one is a refusal with a way out, not an internal error.
fn index_err(e: impl std::fmt::Display) -> Error {
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

fn git_err(context: &str, e: impl std::fmt::Display) -> Error {
    Error::Git(format!("{context}: {e}"))
}

/// Unmerged paths under `.standards/` of the repository's current index, project-relative.
fn unmerged_standards(repo: &gix::Repository, root_in_repo: &str) -> Result<Vec<String>, Error> {
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
fn unmerged_stages(repo: &gix::Repository, root_in_repo: &str, path: &str) -> Option<Stages> {
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

fn strip_root<'a>(path: &'a str, root_in_repo: &str) -> &'a str {
    if root_in_repo.is_empty() {
        path
    } else {
        path.strip_prefix(root_in_repo)
            .and_then(|p| p.strip_prefix('/'))
            .unwrap_or(path)
    }
}

/// Walks the folder `fd` (project-relative `rel`) depth-first through
/// handles, never following a link: `found` sees every entry that is not a
/// folder, `enter` decides for each folder whether to descend. Like git, it
/// never descends into `.git` nor into a nested repository or submodule (a
/// folder holding `.git`). Names that are not UTF-8 are passed lossily; the
/// readers then report such a file as unreadable rather than skip it.
pub(super) fn walk_handles(
    fd: &OwnedFd,
    rel: &str,
    depth: usize,
    enter: &mut dyn FnMut(&str) -> bool,
    found: &mut dyn FnMut(&str, FileType),
) {
    // Deeper than any real project; also bounds the open handles.
    if depth > 256 {
        return;
    }
    let Ok(entries) = handles::list(fd) else {
        return;
    };
    for e in entries {
        let name = String::from_utf8_lossy(&e.name);
        let path = if rel.is_empty() {
            name.to_string()
        } else {
            format!("{rel}/{name}")
        };
        if e.kind == FileType::Directory {
            if name == ".git" {
                continue;
            }
            let Ok(sub) = handles::open_folder_at(fd, name.as_ref()) else {
                continue;
            };
            if handles::kind_at(&sub, ".git").is_ok() {
                continue;
            }
            if enter(&path) {
                walk_handles(&sub, &path, depth + 1, enter, found);
            }
        } else {
            found(&path, e.kind);
        }
    }
}

/// The files on disk, read through verified folder handles ([`Folders`]):
/// reads never follow a symbolic link and never block on a FIFO or device.
pub struct WorktreeTree {
    repo: gix::Repository,
    root: PathBuf,
    root_in_repo: String,
    folders: Folders,
    /// The Markdown listing: a walk of the whole tree with the ignore rules,
    /// done once per snapshot however many readers ask.
    markdown: std::cell::OnceCell<Vec<String>>,
}

impl WorktreeTree {
    /// The working tree below `root`. A damaged index is a refusal here, so
    /// no reader silently sees an empty listing (issue 7, item 5).
    pub(super) fn open(
        repo: &gix::Repository,
        _top: PathBuf,
        root: PathBuf,
        root_in_repo: String,
    ) -> Result<Self, Error> {
        repo.index_or_empty().map_err(index_err)?;
        Ok(WorktreeTree {
            repo: repo.clone(),
            folders: Folders::new(root.clone()),
            root,
            root_in_repo,
            markdown: std::cell::OnceCell::new(),
        })
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Project-relative paths of the untracked files and symbolic links that
    /// are not ignored and for which `want` holds (`git status`'s `??` lines).
    pub fn untracked(&self, want: &dyn Fn(&str) -> bool) -> Result<Vec<String>, Error> {
        let index = self.repo.index_or_empty().map_err(index_err)?;
        let tracked: BTreeSet<String> = index
            .entries()
            .iter()
            .map(|e| e.path(&index).to_str_lossy().into_owned())
            .collect();
        let mut out = BTreeSet::new();
        self.walk_untracked(&tracked, &mut out, want, true)?;
        Ok(out.into_iter().collect())
    }

    /// Adds to `out` the project-relative paths of the untracked, not ignored
    /// regular files (and, with `links`, symbolic links) for which `want` holds.
    fn walk_untracked(
        &self,
        tracked: &BTreeSet<String>,
        out: &mut BTreeSet<String>,
        want: &dyn Fn(&str) -> bool,
        links: bool,
    ) -> Result<(), Error> {
        let index = self.repo.index_or_empty().map_err(index_err)?;
        let excludes = std::cell::RefCell::new(
            self.repo
                .excludes(
                    &index,
                    None,
                    gix::worktree::stack::state::ignore::Source::WorktreeThenIdMappingIfNotSkipped,
                )
                .map_err(|e| git_err("cannot read the ignore rules", e))?,
        );
        let root_in_repo = self.root_in_repo.clone();
        let in_repo = |rel: &str| {
            if root_in_repo.is_empty() {
                rel.to_string()
            } else {
                format!("{root_in_repo}/{rel}")
            }
        };
        let ignored = |rel_top: &str, mode| {
            excludes
                .borrow_mut()
                .at_path(Path::new(rel_top), Some(mode))
                .map(|p| p.is_excluded())
                .unwrap_or(false)
        };
        let Ok(root) = self.folders.folder("") else {
            return Ok(());
        };
        walk_handles(
            &root,
            "",
            0,
            &mut |dir| !ignored(&in_repo(dir), gix::index::entry::Mode::DIR),
            &mut |rel, kind| {
                let rel_top = in_repo(rel);
                if (kind == FileType::RegularFile || (links && kind == FileType::Symlink))
                    && !tracked.contains(&rel_top)
                    && want(rel)
                    && !ignored(&rel_top, gix::index::entry::Mode::FILE)
                {
                    out.insert(rel.to_string());
                }
            },
        );
        Ok(())
    }
}

impl Tree for WorktreeTree {
    fn describe(&self) -> String {
        "the working tree".into()
    }

    fn node(&self, path: &str) -> Node {
        self.folders.read(path)
    }

    fn prefix(&self, path: &str, limit: usize) -> Node {
        self.folders.read_prefix(path, limit)
    }

    fn markdown_files(&self) -> Vec<String> {
        self.markdown.get_or_init(|| self.list_markdown()).clone()
    }

    fn unmerged(&self) -> Vec<String> {
        unmerged_standards(&self.repo, &self.root_in_repo).unwrap_or_default()
    }

    fn stages(&self, path: &str) -> Option<Stages> {
        unmerged_stages(&self.repo, &self.root_in_repo, path)
    }
}

impl WorktreeTree {
    /// Tracked plus untracked-but-not-ignored `*.md` files, project-relative and sorted.
    fn list_markdown(&self) -> Vec<String> {
        let mut out = BTreeSet::new();
        let mut tracked = BTreeSet::new();
        if let Ok(index) = self.repo.index_or_empty() {
            for e in index.entries() {
                let p = e.path(&index).to_str_lossy().into_owned();
                tracked.insert(p.clone());
                if e.mode.is_submodule() {
                    continue;
                }
                let in_root = self.root_in_repo.is_empty()
                    || p.starts_with(&format!("{}/", self.root_in_repo));
                if in_root && p.ends_with(".md") {
                    out.insert(strip_root(&p, &self.root_in_repo).to_string());
                }
            }
        }
        // Tracked files deleted from disk are skipped by the readers (they are Missing).
        let _ = self.walk_untracked(&tracked, &mut out, &|p| p.ends_with(".md"), false);
        out.into_iter().collect()
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
        let commit = resolve_commit(repo, rev)?;
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

/// The commit `rev` names, refused in words a person can act on: gix's own
/// text (`couldn't parse revision, input="..."`) names its internals, so it
/// never reaches the user. The one place every `--ref`, range and `--into`
/// is resolved.
pub fn resolve_commit<'r>(repo: &'r gix::Repository, rev: &str) -> Result<gix::Commit<'r>, Error> {
    let id = repo.rev_parse_single(rev).map_err(|_| {
        let no_commits = repo.head_id().is_err()
            && repo
                .references()
                .is_ok_and(|r| r.all().is_ok_and(|mut all| all.next().is_none()));
        if no_commits {
            Error::Refused {
                message: format!("cannot resolve `{rev}`: the repository has no commits yet"),
                hint: Some("commit first, or read the working tree (without `--ref`)".into()),
            }
        } else {
            Error::Refused {
                message: format!("unknown revision `{rev}`"),
                hint: Some("name a branch, tag or commit that exists in this repository (see `git log --oneline`)".into()),
            }
        }
    })?;
    let object = id
        .object()
        .map_err(|e| object_err("cannot read the object", e))?;
    let kind = object.kind;
    object.peel_to_commit().map_err(|_| Error::Refused {
        message: format!("`{rev}` names a {kind}, not a commit"),
        hint: Some("name a branch, tag or commit (a tree or blob has no history to check)".into()),
    })
}
