//! Snapshots of the project: the working tree, the index, and commits.

use std::collections::{BTreeMap, BTreeSet};

use gix::bstr::ByteSlice;
use gix::index::entry::Stage;

use super::handles;
use super::worktree::WorktreeTree;

use crate::error::Error;
use standards_core::model::tree::{Node, ScanKey, Stages, Tree};

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
pub(super) fn object_err(context: &str, e: impl std::fmt::Display) -> Error {
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
    let index = super::index::shared(repo)?;
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
    let index = super::index::shared(repo).ok()?;
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

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Blob,
    Symlink,
    Other,
}

impl Kind {
    fn of_tree_entry(mode: gix::objs::tree::EntryMode) -> Option<Kind> {
        if mode.is_tree() {
            None
        } else if mode.is_blob() {
            Some(Kind::Blob)
        } else if mode.is_link() {
            Some(Kind::Symlink)
        } else {
            Some(Kind::Other)
        }
    }

    fn of_index_entry(mode: gix::index::entry::Mode) -> Kind {
        if mode.is_submodule() {
            Kind::Other
        } else if mode == gix::index::entry::Mode::SYMLINK {
            Kind::Symlink
        } else {
            Kind::Blob
        }
    }
}

/// The project paths every reader of an object snapshot walks: the runtime
/// folder and the Markdown files (RT §1.4). Only these are materialised; any
/// other path is looked up on demand.
pub fn in_filter(path: &str) -> bool {
    path == ".standards" || path.starts_with(".standards/") || path.ends_with(".md")
}

/// The materialised entries of a snapshot: the paths [`in_filter`] keeps.
type Entries = BTreeMap<String, (gix::ObjectId, Kind)>;

/// Where the entries of an object snapshot come from.
enum Source {
    /// The index, shared (a snapshot of the file at open time), and the
    /// stamp of that file. A lean snapshot lets go of it once its entries
    /// are materialised ([`ObjectTree::lean`]).
    Index(
        std::cell::RefCell<Option<gix::worktree::Index>>,
        super::index::Stamp,
    ),
    /// The project's tree of a commit or merge result; `None` when the
    /// commit has no folder at the project root.
    Tree(Option<gix::ObjectId>),
}

/// Blob bytes kept for the run, so a record that several rules read is
/// inflated once; bounded, so a large repository does not hold all its
/// Markdown in memory.
#[derive(Default)]
struct BlobCache {
    kept: std::collections::HashMap<gix::ObjectId, std::rc::Rc<Vec<u8>>>,
    bytes: usize,
    /// The last blob read for a prefix: the scan reads a record's opening and
    /// then the whole of it.
    last: Option<(gix::ObjectId, std::rc::Rc<Vec<u8>>)>,
}

const BLOB_CACHE_BYTES: usize = 2 * 1024 * 1024;

/// The most blob bytes the snapshots of one [`SharedBlobs`] keep.
const SHARED_BLOB_BYTES: usize = 64 * 1024 * 1024;

std::thread_local! {
    /// Blobs every snapshot of this thread shares while a [`SharedBlobs`]
    /// lives: the board reads many branches whose `.standards/` hold the same
    /// blobs, and each is inflated once.
    static SHARED: std::cell::RefCell<Option<BlobCache>> = const { std::cell::RefCell::new(None) };
    /// The kept entries of each folder walked while a [`SharedBlobs`] lives,
    /// by tree ID and place: branches differ in a few folders and share the
    /// rest, so each shared folder is walked once for the whole board.
    static SHARED_WALKS: std::cell::RefCell<Option<SharedWalks>> = const { std::cell::RefCell::new(None) };
}

/// A walked folder's kept entries (full paths), by its tree ID, whether the
/// walk was inside `.standards/`, and its path (the filter reads the path).
type SharedWalks = std::collections::HashMap<
    (gix::ObjectId, bool, String),
    std::rc::Rc<Vec<(String, gix::ObjectId, Kind)>>,
>;

/// While this lives, every object snapshot of the thread reads a blob
/// through one cache keyed by object ID (bounded at 64 MiB), so a blob that
/// several branches, commits or rules read is inflated once.
pub struct SharedBlobs(());

impl SharedBlobs {
    pub fn start() -> SharedBlobs {
        SHARED.with(|s| *s.borrow_mut() = Some(BlobCache::default()));
        SHARED_WALKS.with(|s| *s.borrow_mut() = Some(SharedWalks::default()));
        SharedBlobs(())
    }
}

impl Drop for SharedBlobs {
    fn drop(&mut self) {
        SHARED.with(|s| *s.borrow_mut() = None);
        SHARED_WALKS.with(|s| *s.borrow_mut() = None);
    }
}

fn shared_blob(id: &gix::ObjectId) -> Option<std::rc::Rc<Vec<u8>>> {
    SHARED.with(|s| s.borrow().as_ref().and_then(|c| c.kept.get(id).cloned()))
}

fn share_blob(id: gix::ObjectId, bytes: &std::rc::Rc<Vec<u8>>) {
    SHARED.with(|s| {
        if let Some(cache) = s.borrow_mut().as_mut() {
            if cache.bytes + bytes.len() <= SHARED_BLOB_BYTES && !cache.kept.contains_key(&id) {
                cache.bytes += bytes.len();
                cache.kept.insert(id, bytes.clone());
            }
        }
    });
}

/// A tree of blobs from the object database: the index or a commit.
///
/// Entries are streamed through [`in_filter`] on first need (never all the
/// paths of a large repository), and a path outside the filter is looked up
/// in the index or the tree when a reader asks for it. A snapshot used only
/// as the comparison side (HEAD, the parent) is never walked unless a reader
/// asks for its file list: [`Tree::node`] goes straight to the path.
pub struct ObjectTree {
    repo: gix::Repository,
    description: String,
    source: Source,
    /// The project root in the repository (`""` at the top).
    root_in_repo: String,
    entries: std::cell::OnceCell<std::rc::Rc<Entries>>,
    unmerged: Vec<String>,
    /// For the index snapshot, the project root in the repository: where the
    /// stages of its unmerged paths are read.
    index_root: Option<String>,
    blobs: std::cell::RefCell<BlobCache>,
    digest: std::cell::OnceCell<[u8; 32]>,
    /// The Markdown files of the entries, listed once.
    markdown: std::cell::OnceCell<std::rc::Rc<Vec<String>>>,
    /// The commit this tree comes from, if any.
    pub commit: Option<gix::ObjectId>,
    /// Whether to let go of the decoded index once the entries are materialised.
    lean: std::cell::Cell<bool>,
    /// Whether the snapshot tells the scan its key ([`Tree::scan_key`]):
    /// set for a history walk's snapshots, which compute their digest anyway.
    keyed: std::cell::Cell<bool>,
    /// For a snapshot derived from its parent's: the parent's digest and the
    /// paths whose entries differ, each with whether it is a Markdown file here.
    derived: std::cell::OnceCell<([u8; 32], standards_core::model::tree::Changed)>,
}

/// Adds to `out` the entries of the tree `id` below `prefix` (project-relative,
/// empty or ending in `/`) that [`in_filter`] keeps; `all` inside `.standards/`.
/// Subtrees are always entered (a Markdown file may be anywhere), but only
/// kept entries are materialised.
fn walk_tree(
    repo: &gix::Repository,
    id: gix::ObjectId,
    prefix: &mut String,
    all: bool,
    out: &mut Entries,
) -> Result<(), Error> {
    let sharing = SHARED_WALKS.with(|s| s.borrow().is_some());
    if !sharing {
        return walk_tree_once(repo, id, prefix, all, out);
    }
    let key = (id, all, prefix.clone());
    let kept = SHARED_WALKS.with(|s| s.borrow().as_ref().and_then(|w| w.get(&key).cloned()));
    let kept = match kept {
        Some(kept) => kept,
        None => {
            let mut own = Entries::new();
            walk_tree_once(repo, id, prefix, all, &mut own)?;
            let kept: std::rc::Rc<Vec<_>> = std::rc::Rc::new(
                own.into_iter()
                    .map(|(path, (oid, kind))| (path, oid, kind))
                    .collect(),
            );
            SHARED_WALKS.with(|s| {
                if let Some(w) = s.borrow_mut().as_mut() {
                    w.insert(key, kept.clone());
                }
            });
            kept
        }
    };
    for (path, oid, kind) in kept.iter() {
        out.insert(path.clone(), (*oid, *kind));
    }
    Ok(())
}

/// [`walk_tree`] reading the tree `id` itself (its subfolders through
/// [`walk_tree`], so they are shared too).
fn walk_tree_once(
    repo: &gix::Repository,
    id: gix::ObjectId,
    prefix: &mut String,
    all: bool,
    out: &mut Entries,
) -> Result<(), Error> {
    let tree = repo
        .find_tree(id)
        .map_err(|e| object_err("cannot read the tree", e))?;
    for entry in tree.iter() {
        let entry = entry.map_err(|e| object_err("cannot read the tree", e))?;
        let name = entry.filename().to_str_lossy();
        let len = prefix.len();
        prefix.push_str(&name);
        match Kind::of_tree_entry(entry.mode()) {
            None => {
                let inside = all || prefix == ".standards";
                prefix.push('/');
                walk_tree(repo, entry.object_id(), prefix, inside, out)?;
            }
            Some(kind) => {
                if all || in_filter(prefix) {
                    out.insert(prefix.clone(), (entry.object_id(), kind));
                }
            }
        }
        prefix.truncate(len);
    }
    Ok(())
}

/// One change to a snapshot's entries, from its parent's to its own.
enum EntryChange {
    Insert(String, gix::ObjectId, Kind),
    /// The entry at the path, or with `true` every entry below it.
    Remove(String, bool),
}

/// Lists the changes that turn `before`, the entries of the tree `old`, into
/// those of the tree `new`, reading only the subtrees whose IDs differ (an
/// unchanged folder is one comparison, whatever it holds). Only changes to
/// entries [`in_filter`] keeps are listed: a commit that changes code alone
/// lists none.
fn tree_changes(
    repo: &gix::Repository,
    old: gix::ObjectId,
    new: gix::ObjectId,
    prefix: &mut String,
    all: bool,
    before: &Entries,
    out: &mut Vec<EntryChange>,
) -> Result<(), Error> {
    if old == new {
        return Ok(());
    }
    let read = |id| -> Result<Vec<(String, gix::objs::tree::EntryMode, gix::ObjectId)>, Error> {
        let tree = repo
            .find_tree(id)
            .map_err(|e| object_err("cannot read the tree", e))?;
        tree.iter()
            .map(|e| {
                e.map(|e| {
                    (
                        e.filename().to_str_lossy().into_owned(),
                        e.mode(),
                        e.object_id(),
                    )
                })
                .map_err(|e| object_err("cannot read the tree", e))
            })
            .collect()
    };
    let was_kept = |path: &str, folder: bool| {
        if folder {
            let below = format!("{path}/");
            before
                .range::<str, _>((
                    std::ops::Bound::Included(below.as_str()),
                    std::ops::Bound::Unbounded,
                ))
                .next()
                .is_some_and(|(k, _)| k.starts_with(&below))
        } else {
            before.contains_key(path)
        }
    };
    let old_entries = read(old)?;
    let new_entries = read(new)?;
    let mut gone: std::collections::HashMap<&str, (gix::objs::tree::EntryMode, gix::ObjectId)> =
        old_entries
            .iter()
            .map(|(n, m, id)| (n.as_str(), (*m, *id)))
            .collect();
    for (name, mode, id) in &new_entries {
        let len = prefix.len();
        prefix.push_str(name);
        let was = gone.remove(name.as_str());
        let inside = all || prefix == ".standards";
        match (was, Kind::of_tree_entry(*mode)) {
            (Some((m, i)), _) if m == *mode && i == *id => {}
            (Some((m, i)), None) if m.is_tree() => {
                prefix.push('/');
                tree_changes(repo, i, *id, prefix, inside, before, out)?;
            }
            (was, now) => {
                if let Some((m, _)) = was {
                    if was_kept(prefix, m.is_tree()) {
                        out.push(EntryChange::Remove(prefix.clone(), m.is_tree()));
                    }
                }
                match now {
                    None => {
                        prefix.push('/');
                        let mut added = Entries::new();
                        walk_tree(repo, *id, prefix, inside, &mut added)?;
                        out.extend(
                            added
                                .into_iter()
                                .map(|(path, (id, kind))| EntryChange::Insert(path, id, kind)),
                        );
                    }
                    Some(kind) => {
                        if all || in_filter(prefix) {
                            out.push(EntryChange::Insert(prefix.clone(), *id, kind));
                        }
                    }
                }
            }
        }
        prefix.truncate(len);
    }
    for (name, (mode, _)) in gone {
        let path = format!("{prefix}{name}");
        if was_kept(&path, mode.is_tree()) {
            out.push(EntryChange::Remove(path, mode.is_tree()));
        }
    }
    Ok(())
}

/// Whether the entry at `path` is one of [`Tree::markdown_files`]: a file
/// (not a link or a submodule) whose name ends in `.md`. The scan derived
/// from a parent's marks changed paths with it, so both agree.
fn is_markdown_file(path: &str, kind: Kind) -> bool {
    path.ends_with(".md") && kind == Kind::Blob
}

/// Applies `changes`, in order, to `out`; returns every path whose entry
/// was inserted or removed, sorted, each once.
fn apply_changes(changes: Vec<EntryChange>, out: &mut Entries) -> Vec<String> {
    let mut touched = Vec::new();
    for change in changes {
        match change {
            EntryChange::Insert(path, id, kind) => {
                touched.push(path.clone());
                out.insert(path, (id, kind));
            }
            EntryChange::Remove(path, folder) => remove_entry(&path, folder, out, &mut touched),
        }
    }
    touched.sort_unstable();
    touched.dedup();
    touched
}

/// Removes the entry at `path`, or with `folder` every entry below it;
/// adds the paths removed to `removed`.
fn remove_entry(path: &str, folder: bool, out: &mut Entries, removed: &mut Vec<String>) {
    if folder {
        let below = format!("{path}/");
        let doomed: Vec<String> = out
            .range(below.clone()..)
            .take_while(|(k, _)| k.starts_with(&below))
            .map(|(k, _)| k.clone())
            .collect();
        for k in doomed {
            out.remove(&k);
            removed.push(k);
        }
    } else if out.remove(path).is_some() {
        removed.push(path.to_string());
    }
}

impl ObjectTree {
    /// The staged content. A conflicted path shows its "ours" stage; its
    /// conflict is reported through [`Tree::unmerged`].
    pub(super) fn from_index(repo: &gix::Repository, root_in_repo: &str) -> Result<Self, Error> {
        let stamp = super::index::current_stamp(repo);
        let index = super::index::entries(repo)?;
        Ok(ObjectTree {
            repo: repo.clone(),
            description: "the index".into(),
            source: Source::Index(std::cell::RefCell::new(Some(index)), stamp),
            root_in_repo: root_in_repo.to_string(),
            entries: std::cell::OnceCell::new(),
            unmerged: unmerged_standards(repo, root_in_repo)?,
            index_root: Some(root_in_repo.to_string()),
            blobs: Default::default(),
            digest: Default::default(),
            markdown: Default::default(),
            commit: None,
            lean: Default::default(),
            keyed: Default::default(),
            derived: Default::default(),
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
        let sub = if root_in_repo.is_empty() {
            Some(tree.id)
        } else {
            match tree
                .lookup_entry_by_path(root_in_repo)
                .map_err(|e| object_err("cannot read the tree", e))?
            {
                Some(e) if e.mode().is_tree() => Some(e.object_id()),
                _ => None,
            }
        };
        if let Some(id) = sub.filter(|_| !root_in_repo.is_empty()) {
            repo.find_tree(id)
                .map_err(|e| object_err("cannot read the tree", e))?;
        }
        Ok(ObjectTree {
            repo: repo.clone(),
            description,
            source: Source::Tree(sub),
            root_in_repo: root_in_repo.to_string(),
            entries: std::cell::OnceCell::new(),
            unmerged: Vec::new(),
            index_root: None,
            blobs: Default::default(),
            digest: Default::default(),
            markdown: Default::default(),
            commit,
            lean: Default::default(),
            keyed: Default::default(),
            derived: Default::default(),
        })
    }

    /// The ID of the project's tree, for a snapshot of a tree.
    pub fn tree_id(&self) -> Option<gix::ObjectId> {
        match self.source {
            Source::Tree(id) => id,
            Source::Index(..) => None,
        }
    }

    /// For an index snapshot: once its entries are materialised, let go of
    /// the decoded index (and the process's shared copy of it), so it is
    /// not held while the blobs are read: 24 MB at 200,000 entries (issue
    /// 27, item 3). A path outside the entries is then looked up in the
    /// index read anew, refused when the file changed since the snapshot.
    pub fn lean(&self) {
        self.lean.set(true);
        if self.entries.get().is_some() {
            self.release_index();
        }
    }

    /// Lets go of the index once: one read anew later is kept.
    fn release_index(&self) {
        self.lean.set(false);
        if let Source::Index(index, _) = &self.source {
            if index.borrow_mut().take().is_some() {
                super::index::release();
            }
        }
    }

    /// Whether the decoded index is held (a test seam).
    pub fn holds_index(&self) -> bool {
        matches!(&self.source, Source::Index(index, _) if index.borrow().is_some())
    }

    /// Materialises the entries now from `parent`'s, when both are trees
    /// and `parent`'s are already materialised: only the subtrees whose IDs
    /// differ are read (`verify` walks a history this way). Otherwise the
    /// entries are walked on first need as usual.
    pub fn derive_from(&self, parent: &ObjectTree) -> Result<(), Error> {
        self.derive_with(&self.repo, parent)
    }

    /// [`ObjectTree::derive_from`], reading the changed trees through `repo`
    /// (a history walk's handle, whose object cache outlives one snapshot).
    pub(super) fn derive_with(
        &self,
        repo: &gix::Repository,
        parent: &ObjectTree,
    ) -> Result<(), Error> {
        if self.entries.get().is_some() {
            return Ok(());
        }
        let (Some(new), Some(old), Some(old_entries)) =
            (self.tree_id(), parent.tree_id(), parent.entries.get())
        else {
            return Ok(());
        };
        if matches!(self.source, Source::Index(..)) {
            return Ok(());
        }
        let mut changes = Vec::new();
        tree_changes(
            repo,
            old,
            new,
            &mut String::new(),
            false,
            old_entries,
            &mut changes,
        )?;
        if changes.is_empty() {
            // The same listing: shared, with what was computed from it.
            let _ = self.entries.set(old_entries.clone());
            if let Some(digest) = parent.digest.get() {
                let _ = self.digest.set(*digest);
            }
            if let Some(markdown) = parent.markdown.get() {
                let _ = self.markdown.set(markdown.clone());
            }
        } else {
            let mut out = (**old_entries).clone();
            let touched = apply_changes(changes, &mut out);
            if let Some(digest) = parent.digest.get() {
                let changed = touched
                    .into_iter()
                    .map(|path| {
                        let markdown = out
                            .get(&path)
                            .is_some_and(|(_, kind)| is_markdown_file(&path, *kind));
                        (path, markdown)
                    })
                    .collect();
                let _ = self.derived.set((*digest, std::rc::Rc::new(changed)));
            }
            let _ = self.entries.set(std::rc::Rc::new(out));
        }
        Ok(())
    }

    /// Tells the artifact scan this snapshot's key ([`Tree::scan_key`]), so
    /// a scan sharing a cache with its parent's judges only what changed.
    pub(super) fn keyed(&self) {
        self.keyed.set(true);
    }

    /// Materialises the entries now, so a damaged tree is an error here
    /// rather than an empty listing later.
    pub fn load(&self) -> Result<(), Error> {
        if self.entries.get().is_none() {
            let entries = self.walk()?;
            let _ = self.entries.set(std::rc::Rc::new(entries));
            if self.lean.get() {
                self.release_index();
            }
        }
        Ok(())
    }

    fn walk(&self) -> Result<Entries, Error> {
        let mut out = Entries::new();
        match &self.source {
            Source::Tree(None) => {}
            Source::Tree(Some(id)) => {
                // Every tree of the project is read once: through a store
                // dropped after the walk, so the pages they touched are not
                // still mapped while the blobs are read (see `repo::objects`).
                let own = super::objects::own_store(&self.repo);
                let repo = own.as_deref().unwrap_or(&self.repo);
                walk_tree(repo, *id, &mut String::new(), false, &mut out)?;
            }
            Source::Index(index, _) => {
                let index = self.held_index(index)?;
                let index = &index;
                let prefix = repo_prefix(&self.root_in_repo, "");
                for e in index.entries() {
                    let path = e.path(index);
                    if !path.starts_with(prefix.as_bytes()) {
                        continue;
                    }
                    let rel = &path[prefix.len()..];
                    let keep = rel.starts_with(b".standards/")
                        || rel.ends_with(b".md")
                        || rel == b".standards";
                    if !keep {
                        continue;
                    }
                    let rel = rel.to_str_lossy().into_owned();
                    let kind = Kind::of_index_entry(e.mode);
                    match e.stage() {
                        Stage::Unconflicted | Stage::Ours => {
                            out.insert(rel, (e.id, kind));
                        }
                        Stage::Base | Stage::Theirs => {
                            out.entry(rel).or_insert((e.id, kind));
                        }
                    }
                }
            }
        }
        Ok(out)
    }

    fn entries(&self) -> &Entries {
        let entries = self.entries.get_or_init(|| {
            // A damaged tree reads as empty here; the commands that must
            // refuse it call [`ObjectTree::load`] first.
            std::rc::Rc::new(self.walk().unwrap_or_default())
        });
        if self.lean.get() {
            self.release_index();
        }
        entries
    }

    /// The decoded index of an index snapshot: the one it holds, or, after
    /// a lean snapshot let go of it, the file read anew when it is still the
    /// version the snapshot was taken of.
    fn held_index(
        &self,
        index: &std::cell::RefCell<Option<gix::worktree::Index>>,
    ) -> Result<gix::worktree::Index, Error> {
        if let Some(index) = index.borrow().as_ref() {
            return Ok(index.clone());
        }
        let Source::Index(_, stamp) = &self.source else {
            unreachable!("only an index snapshot holds an index");
        };
        let changed = || Error::Refused {
            message: "the index changed while it was being read".into(),
            hint: Some("run the command again".into()),
        };
        if super::index::current_stamp(&self.repo) != *stamp {
            return Err(changed());
        }
        let again = super::index::shared(&self.repo)?;
        if super::index::current_stamp(&self.repo) != *stamp {
            return Err(changed());
        }
        *index.borrow_mut() = Some(again.clone());
        Ok(again)
    }

    /// What is at the project path `path`: from the materialised entries when
    /// they answer it, else looked up in the index or the tree directly
    /// (never materialising anything); `None` when nothing is there.
    fn lookup(&self, path: &str) -> Result<Option<Found>, String> {
        if let Some(entries) = self.entries.get() {
            if let Some((id, kind)) = entries.get(path) {
                return Ok(Some(Found::Entry(*id, *kind)));
            }
            // Everything below `.standards/` is materialised.
            if path.starts_with(".standards/") || path == ".standards" {
                let below = format!("{path}/");
                let is_dir = entries
                    .range(below.clone()..)
                    .next()
                    .is_some_and(|(k, _)| k.starts_with(&below));
                return Ok(is_dir.then_some(Found::Dir));
            }
        }
        match &self.source {
            Source::Index(index, _) => {
                let index = self.held_index(index).map_err(|e| e.to_string())?;
                let index = &index;
                let full = repo_prefix(&self.root_in_repo, path);
                let full = full.as_bytes().as_bstr();
                for stage in [Stage::Unconflicted, Stage::Ours, Stage::Base, Stage::Theirs] {
                    if let Some(e) = index.entry_by_path_and_stage(full, stage) {
                        return Ok(Some(Found::Entry(e.id, Kind::of_index_entry(e.mode))));
                    }
                }
                let below = format!("{full}/");
                Ok(index
                    .prefixed_entries(below.as_bytes().as_bstr())
                    .is_some_and(|e| !e.is_empty())
                    .then_some(Found::Dir))
            }
            Source::Tree(None) => Ok(None),
            Source::Tree(Some(root)) => {
                if path.is_empty() {
                    return Ok(Some(Found::Dir));
                }
                let damaged = |e: &dyn std::fmt::Display| {
                    format!("cannot read the tree holding it: {e} (the repository is damaged; run `git fsck`)")
                };
                let tree = self.repo.find_tree(*root).map_err(|e| damaged(&e))?;
                let entry = tree.lookup_entry_by_path(path).map_err(|e| damaged(&e))?;
                Ok(entry.map(|entry| match Kind::of_tree_entry(entry.mode()) {
                    None => Found::Dir,
                    Some(kind) => Found::Entry(entry.object_id(), kind),
                }))
            }
        }
    }

    /// The bytes of the blob `id`, from the run's cache when it was read before.
    fn blob(&self, id: gix::ObjectId) -> Result<std::rc::Rc<Vec<u8>>, Node> {
        {
            let cache = self.blobs.borrow();
            if let Some(bytes) = cache.kept.get(&id) {
                return Ok(bytes.clone());
            }
            if let Some((last, bytes)) = &cache.last {
                if *last == id {
                    return Ok(bytes.clone());
                }
            }
        }
        if let Some(bytes) = shared_blob(&id) {
            return Ok(bytes);
        }
        if let Ok(h) = self.repo.find_header(id) {
            if h.size() > handles::MAX_FILE_BYTES {
                return Err(Node::Unreadable(format!(
                    "it is {} MiB, larger than the {} MiB git standards reads from one file",
                    h.size() / (1024 * 1024),
                    handles::MAX_FILE_BYTES / (1024 * 1024)
                )));
            }
        }
        match self.repo.find_blob(id) {
            Ok(mut blob) => {
                super::reads::note();
                super::objects::note_blob();
                let bytes = std::rc::Rc::new(fitted(blob.take_data()));
                share_blob(id, &bytes);
                Ok(bytes)
            }
            Err(e) => Err(Node::Unreadable(format!(
                "cannot read blob {id}: {e} (the repository is damaged; run `git fsck`)"
            ))),
        }
    }
}

/// `bytes` holding no spare capacity: a decoded blob comes in the buffer its
/// delta chain was resolved in, often several times its size, and the kept
/// blobs would otherwise hold that memory for the whole run.
pub(super) fn fitted(mut bytes: Vec<u8>) -> Vec<u8> {
    bytes.shrink_to_fit();
    bytes
}

/// What [`ObjectTree::lookup`] found at a path.
enum Found {
    Entry(gix::ObjectId, Kind),
    Dir,
}

impl ObjectTree {
    /// The project-relative paths of the entries [`in_filter`] keeps, sorted.
    pub fn paths(&self) -> impl Iterator<Item = &str> {
        self.entries().keys().map(String::as_str)
    }

    /// The object ID at `path`, if a file entry is there.
    pub fn entry_id(&self, path: &str) -> Option<gix::ObjectId> {
        match self.lookup(path) {
            Ok(Some(Found::Entry(id, _))) => Some(id),
            _ => None,
        }
    }

    /// Whether `path` holds the same object, of the same kind, in both trees.
    pub fn same_entry(&self, other: &ObjectTree, path: &str) -> bool {
        match (self.lookup(path), other.lookup(path)) {
            (Ok(None | Some(Found::Dir)), Ok(None | Some(Found::Dir))) => true,
            (Ok(Some(Found::Entry(a, ka))), Ok(Some(Found::Entry(b, kb)))) => a == b && ka == kb,
            _ => false,
        }
    }

    /// A digest of the materialised entries (paths, kinds and object IDs):
    /// two snapshots with the same digest give every rule the same input.
    pub fn content_digest(&self) -> [u8; 32] {
        *self.digest.get_or_init(|| {
            use sha2::Digest;
            let mut hasher = sha2::Sha256::new();
            for (path, (id, kind)) in self.entries() {
                hasher.update(path.as_bytes());
                hasher.update([0, *kind as u8]);
                hasher.update(id.as_bytes());
            }
            hasher.finalize().into()
        })
    }

    /// Whether the entries [`in_filter`] keeps are the same in both
    /// snapshots (their paths, kinds and object IDs).
    pub fn same_filtered(&self, other: &ObjectTree) -> bool {
        self.entries() == other.entries()
    }
}

/// Whether a file for which `want` holds differs between the working tree
/// (tracked files and untracked files that are not ignored) and the index, or
/// between the index and `head`: what `git status -- <pathspecs>` would list.
/// Only paths that [`in_filter`] keeps are compared (`want` narrows them).
/// Working-tree files are compared byte for byte with the staged blobs.
pub fn differs(
    work: &WorktreeTree,
    index: &ObjectTree,
    head: Option<&ObjectTree>,
    want: &dyn Fn(&str) -> bool,
    stat_clean: &dyn Fn(&str) -> bool,
) -> Result<bool, Error> {
    let want = |p: &str| in_filter(p) && want(p);
    let mut paths: BTreeSet<&str> = index.paths().filter(|p| want(p)).collect();
    if let Some(head) = head {
        paths.extend(head.paths().filter(|p| want(p)));
    }
    let untracked = work.untracked(&want)?;
    if !untracked.is_empty() {
        return Ok(true);
    }
    Ok(paths.into_iter().any(|p| {
        let staged = match head {
            Some(head) => !index.same_entry(head, p),
            None => index.entry_id(p).is_some(),
        };
        staged || (!stat_clean(p) && work.node(p) != index.node(p))
    }))
}

/// Project paths for which `want` holds whose index entry's stat data (size,
/// mtime, inode, ...) still match the file on disk and are not racy (RT §5.2
/// step 3, as git itself decides): such files are unchanged without reading
/// them. Only those paths are looked at on disk.
pub fn stat_clean_paths(
    repo: &gix::Repository,
    workdir: &std::path::Path,
    root_in_repo: &str,
    want: &dyn Fn(&str) -> bool,
) -> std::collections::HashSet<String> {
    let mut out = std::collections::HashSet::new();
    let Ok(index) = super::index::shared(repo) else {
        return out;
    };
    let stamp = index.timestamp();
    let options = gix::index::entry::stat::Options::default();
    let prefix = repo_prefix(root_in_repo, "");
    for e in index.entries() {
        let full = e.path(&index);
        if e.stage_raw() != 0 || !full.starts_with(prefix.as_bytes()) {
            continue;
        }
        let rel = full[prefix.len()..].to_str_lossy();
        if !want(&rel) || e.stat.is_racy(stamp, options) {
            continue;
        }
        let path = full.to_str_lossy();
        let Ok(meta) = gix::index::fs::Metadata::from_path_no_follow(&workdir.join(&*path)) else {
            continue;
        };
        let Ok(now) = gix::index::entry::Stat::from_fs(&meta) else {
            continue;
        };
        if now.matches(&e.stat, options) {
            out.insert(rel.into_owned());
        }
    }
    out
}

impl Tree for ObjectTree {
    fn describe(&self) -> String {
        self.description.clone()
    }

    fn node(&self, path: &str) -> Node {
        let found = match self.lookup(path) {
            Ok(found) => found,
            Err(why) => return Node::Unreadable(why),
        };
        match found {
            Some(Found::Entry(id, Kind::Blob)) => match self.blob(id) {
                Ok(bytes) => {
                    let mut cache = self.blobs.borrow_mut();
                    if !cache.kept.contains_key(&id)
                        && cache.bytes + bytes.len() <= BLOB_CACHE_BYTES
                    {
                        cache.bytes += bytes.len();
                        cache.kept.insert(id, bytes.clone());
                    }
                    Node::File(std::rc::Rc::unwrap_or_clone(bytes))
                }
                Err(node) => node,
            },
            Some(Found::Entry(_, Kind::Symlink)) => Node::Symlink,
            Some(Found::Entry(_, Kind::Other)) => {
                Node::Unreadable("it is a submodule, not a file".into())
            }
            Some(Found::Dir) => Node::Dir,
            None => Node::Missing,
        }
    }

    fn prefix(&self, path: &str, limit: usize) -> Node {
        match self.lookup(path) {
            Ok(Some(Found::Entry(id, Kind::Blob))) => match self.blob(id) {
                Ok(bytes) => {
                    let head = bytes[..bytes.len().min(limit)].to_vec();
                    self.blobs.borrow_mut().last = Some((id, bytes));
                    Node::File(head)
                }
                Err(node) => node,
            },
            _ => self.node(path),
        }
    }

    fn content_id(&self, path: &str) -> Option<Vec<u8>> {
        match self.lookup(path) {
            Ok(Some(Found::Entry(id, Kind::Blob))) => Some(id.as_bytes().to_vec()),
            _ => None,
        }
    }

    /// Without reading the file: a path the lookup cannot answer (a damaged
    /// tree) exists, as [`Tree::node`] reads it as unreadable, not missing.
    fn exists(&self, path: &str) -> bool {
        !matches!(self.lookup(path), Ok(None))
    }

    fn markdown_files(&self) -> Vec<String> {
        let listed = self.markdown.get_or_init(|| {
            std::rc::Rc::new(
                self.entries()
                    .iter()
                    .filter(|(k, (_, kind))| is_markdown_file(k, *kind))
                    .map(|(k, _)| k.clone())
                    .collect(),
            )
        });
        listed.to_vec()
    }

    /// Read from the sorted entries at `prefix`, not from the whole listing.
    fn markdown_files_under(&self, prefix: &str) -> Vec<String> {
        self.entries()
            .range::<str, _>((
                std::ops::Bound::Included(prefix),
                std::ops::Bound::Unbounded,
            ))
            .take_while(|(k, _)| k.starts_with(prefix))
            .filter(|(k, (_, kind))| is_markdown_file(k, *kind))
            .map(|(k, _)| k.clone())
            .collect()
    }

    fn unmerged(&self) -> Vec<String> {
        self.unmerged.clone()
    }

    fn scan_key(&self) -> Option<ScanKey> {
        if !self.keyed.get() {
            return None;
        }
        Some(ScanKey {
            id: self.content_digest(),
            from: self.derived.get().cloned(),
        })
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
