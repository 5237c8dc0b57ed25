//! The working tree as a snapshot (issue 14, points 3 and 4).
//!
//! One walk lists the Markdown files, opening every folder once relative to
//! its already verified parent (`O_DIRECTORY|O_NOFOLLOW`) and reading it
//! through that one handle. A tracked file whose `lstat` data still match
//! its index entry, as `git status` decides (never a racily clean one), is
//! not read from disk at all: its content is the index's blob. Only modified
//! and untracked files are read, through verified folder handles, and a file
//! that may open with a provenance block is read whole while it is open, so
//! a record is opened once however many readers ask.

use std::cell::{Cell, OnceCell, RefCell};
use std::collections::{BTreeSet, HashMap};
use std::os::fd::{AsFd, BorrowedFd};
use std::path::{Path, PathBuf};

use gix::bstr::ByteSlice;
use gix::index::entry::{Flags, Mode};
use rustix::fs::FileType;

use super::handles::{self, Folders, Listed};
use super::snapshot::{git_err, strip_root, unmerged_stages, unmerged_standards};
use crate::error::Error;
use standards_core::model::tree::{Node, Stages, Tree};

/// Walks the listed folder `listed` (project-relative `rel`) depth-first,
/// never following a link: `found` sees every entry that is not a folder
/// (with the listing of its folder, to open it relative to), the entries of
/// a folder before those of its subfolders; `enter` decides for each folder
/// whether to descend. Like git, it never descends into `.git` nor into a
/// nested repository or submodule (a folder holding `.git`). Names that are
/// not UTF-8 are passed lossily; the readers then report such a file as
/// unreadable rather than skip it.
pub(super) fn walk_handles(
    listed: &Listed,
    rel: &str,
    depth: usize,
    enter: &mut dyn FnMut(&str) -> bool,
    found: &mut dyn FnMut(&Listed, &str, FileType),
) {
    let path_of = |name: &str| {
        if rel.is_empty() {
            name.to_string()
        } else {
            format!("{rel}/{name}")
        }
    };
    let mut folders = Vec::new();
    for e in &listed.entries {
        let name = String::from_utf8_lossy(&e.name);
        if e.kind == FileType::Directory {
            if name != ".git" {
                folders.push(name);
            }
        } else {
            found(listed, &path_of(&name), e.kind);
        }
    }
    // Deeper than any real project; also bounds the open handles.
    if depth >= 256 {
        return;
    }
    for name in folders {
        let path = path_of(&name);
        if !enter(&path) {
            continue;
        }
        let Ok(sub) = handles::open_folder_at(listed.fd(), name.as_ref()) else {
            continue;
        };
        let Ok(sub) = handles::list_owned(sub) else {
            continue;
        };
        if sub.has(b".git") {
            continue;
        }
        walk_handles(&sub, &path, depth + 1, enter, found);
    }
}

/// Lists the verified folder `rel` of `folders` for a walk.
pub(super) fn list_folder(folders: &Folders, rel: &str) -> Option<Listed> {
    let fd = folders.folder(rel).ok()?;
    let own = handles::open_folder_at(&*fd, ".").ok()?;
    handles::list_owned(own).ok()
}

/// What a walk's reader sees of one file: its folder's listing, its path,
/// its kind, and two tests asked only when wanted (tracked? ignored?).
type Found<'a> = dyn FnMut(&Listed, &str, FileType, &dyn Fn() -> bool, &dyn Fn() -> bool) + 'a;

const CLEAN: u8 = 1;
const CHANGED: u8 = 2;

/// Files of at most this size that may open with a provenance block are
/// kept whole once read, so the scan and the rules share one read.
const KEEP_BUDGET: usize = 16 * 1024 * 1024;

/// A blob larger than this is not decoded for a prefix: the prefix is read
/// from disk (bounded), so a huge tracked file never sits in memory whole.
const BLOB_PREFIX_MAX: u64 = 1024 * 1024;

/// Attribute names that make git convert content between the blob and the
/// working tree: where one may apply, the blob is not the file's content.
const CONVERTING: [&str; 6] = [
    "text",
    "eol",
    "crlf",
    "filter",
    "ident",
    "working-tree-encoding",
];

/// Whether an attributes file may convert content for some path (any line
/// naming a converting attribute, set, unset or valued, even in a macro).
fn converts(text: &[u8]) -> bool {
    text.lines().any(|line| {
        let line = line.trim();
        if line.starts_with(b"#") {
            return false;
        }
        line.split(|b| b.is_ascii_whitespace()).skip(1).any(|word| {
            let word = word.trim_start_with(|c| c == '-' || c == '!');
            let name = word.split(|&b| b == b'=').next().unwrap_or_default();
            CONVERTING.iter().any(|c| c.as_bytes() == name)
        })
    })
}

/// What decides whether a tracked file's index blob is its content.
struct StatReuse {
    /// False when git converts content (`core.autocrlf`, or a converting
    /// attribute in a file outside the tree): every file is then read.
    enabled: bool,
    options: gix::index::entry::stat::Options,
    /// Folders (project-relative, `""` for the root) whose `.gitattributes`
    /// may convert: no file below them is taken from its blob.
    converting: RefCell<BTreeSet<String>>,
    /// Folders whose `.gitattributes` was read.
    seen_attributes: RefCell<BTreeSet<String>>,
    /// Folders looked at for a `.gitattributes` outside the walk.
    probed: RefCell<BTreeSet<String>>,
    /// What the walk decided for each index entry (by position): 0 not
    /// met, [`CLEAN`] or [`CHANGED`].
    decided: RefCell<Vec<u8>>,
}

/// The files on disk, read through verified folder handles ([`Folders`]):
/// reads never follow a symbolic link and never block on a FIFO or device.
pub struct WorktreeTree {
    repo: gix::Repository,
    root: PathBuf,
    root_in_repo: String,
    folders: Folders,
    /// The index as it was when the snapshot was opened; a lean snapshot
    /// lets go of it once the Markdown is listed ([`WorktreeTree::lean`]).
    index: RefCell<Option<gix::worktree::Index>>,
    /// The stamp of the index file the snapshot was opened on.
    stamp: super::index::Stamp,
    /// Whether to let go of the index once the Markdown is listed.
    lean: Cell<bool>,
    /// After a lean snapshot let go of the index: the listed Markdown files
    /// whose content is their index blob (with its size), as the walk
    /// decided; any other file is read from disk.
    clean: RefCell<Option<HashMap<String, (gix::ObjectId, u64)>>>,
    /// The unmerged `.standards/` paths of the index at open time.
    unmerged: Vec<String>,
    reuse: StatReuse,
    /// The Markdown listing: a walk of the whole tree with the ignore rules,
    /// done once per snapshot however many readers ask.
    markdown: OnceCell<Vec<String>>,
    /// Whole contents of files that may be records, read once.
    kept: RefCell<HashMap<String, Node>>,
    kept_bytes: Cell<usize>,
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
        let stamp = super::index::current_stamp(repo);
        let index = super::index::entries(repo)?;
        let unmerged = unmerged_standards(repo, &root_in_repo)?;
        let reuse = StatReuse {
            enabled: conversion_free_config(repo),
            options: repo.stat_options().unwrap_or_default(),
            converting: RefCell::new(BTreeSet::new()),
            seen_attributes: RefCell::new(BTreeSet::new()),
            probed: RefCell::new(BTreeSet::new()),
            decided: RefCell::new(Vec::new()),
        };
        // Each blob is decoded once (a record is kept whole): a cache of
        // decoded objects would only hold the ordinary files' bytes.
        let mut own = repo.clone();
        own.object_cache_size(0);
        let tree = WorktreeTree {
            repo: own,
            folders: Folders::new(root.clone()),
            root,
            root_in_repo,
            index: RefCell::new(Some(index)),
            stamp,
            lean: Cell::new(false),
            clean: RefCell::new(None),
            unmerged,
            reuse,
            markdown: OnceCell::new(),
            kept: RefCell::new(HashMap::new()),
            kept_bytes: Cell::new(0),
        };
        tree.note_tracked_attributes();
        Ok(tree)
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Lets go of the decoded index once the Markdown is listed, so it is
    /// not held while the files are read: 24 MB at 200,000 entries (issue
    /// 27, item 3). The listed files keep what the walk decided; a reader
    /// that needs the index later reads it anew, while the file is still
    /// the version the snapshot was opened on.
    pub fn lean(&self) {
        self.lean.set(true);
        if self.markdown.get().is_some() {
            self.release_index();
        }
    }

    /// Whether the decoded index is held (a test seam).
    pub fn holds_index(&self) -> bool {
        self.index.borrow().is_some()
    }

    fn release_index(&self) {
        self.lean.set(false);
        let Some(index) = self.index.borrow_mut().take() else {
            return;
        };
        let decided = self.reuse.decided.borrow();
        let prefix = self.in_repo("");
        let mut clean = HashMap::new();
        for (pos, e) in index.entries().iter().enumerate() {
            if decided.get(pos) != Some(&CLEAN) {
                continue;
            }
            let p = e.path(&index).to_str_lossy();
            let rel = if self.root_in_repo.is_empty() {
                &p[..]
            } else {
                match p
                    .strip_prefix(prefix.as_str())
                    .and_then(|r| r.strip_prefix('/'))
                {
                    Some(rel) => rel,
                    None => continue,
                }
            };
            clean.insert(rel.to_string(), (e.id, u64::from(e.stat.size)));
        }
        *self.clean.borrow_mut() = Some(clean);
        drop(decided);
        *self.reuse.decided.borrow_mut() = Vec::new();
        drop(index);
        super::index::release();
    }

    /// The decoded index: the one the snapshot holds, or, after a lean
    /// snapshot let go of it, the file read anew while it is still the
    /// version the snapshot was opened on (`None` once it changed).
    fn index(&self) -> Option<gix::worktree::Index> {
        if let Some(index) = self.index.borrow().as_ref() {
            return Some(index.clone());
        }
        if super::index::current_stamp(&self.repo) != self.stamp {
            return None;
        }
        let again = super::index::shared(&self.repo).ok()?;
        if super::index::current_stamp(&self.repo) != self.stamp {
            return None;
        }
        *self.index.borrow_mut() = Some(again.clone());
        Some(again)
    }

    fn in_repo(&self, rel: &str) -> String {
        if self.root_in_repo.is_empty() {
            rel.to_string()
        } else if rel.is_empty() {
            self.root_in_repo.clone()
        } else {
            format!("{}/{rel}", self.root_in_repo)
        }
    }

    fn tracked(&self, rel_top: &str) -> bool {
        self.index().is_some_and(|index| {
            index
                .entry_index_by_path(rel_top.as_bytes().as_bstr())
                .is_ok()
        })
    }

    /// Project-relative paths of the untracked files and symbolic links that
    /// are not ignored and for which `want` holds (`git status`'s `??` lines).
    pub fn untracked(&self, want: &dyn Fn(&str) -> bool) -> Result<Vec<String>, Error> {
        let mut out = BTreeSet::new();
        self.walk(&mut |_, rel, kind, tracked, ignored| {
            if (kind == FileType::RegularFile || kind == FileType::Symlink)
                && want(rel)
                && !tracked()
                && !ignored()
            {
                out.insert(rel.to_string());
            }
        })?;
        Ok(out.into_iter().collect())
    }

    /// Walks the tree below the root, not descending into folders git
    /// ignores: `found` sees each file with the listing of its folder and
    /// two tests, whether it is tracked and whether git ignores it.
    fn walk(&self, found: &mut Found<'_>) -> Result<(), Error> {
        let rules = self.ignore_rules()?;
        let Some(root) = list_folder(&self.folders, "") else {
            return Ok(());
        };
        walk_handles(
            &root,
            "",
            0,
            &mut |dir| !rules.ignored(&self.in_repo(dir), Mode::DIR),
            &mut |listed, rel, kind| {
                // Both asked only for the files a reader wants.
                let tracked = || self.tracked(&self.in_repo(rel));
                let is_ignored = || rules.ignored(&self.in_repo(rel), Mode::FILE);
                found(listed, rel, kind, &tracked, &is_ignored);
            },
        );
        Ok(())
    }

    /// git's ignore rules for this working tree, asked path by path.
    fn ignore_rules(&self) -> Result<IgnoreRules<'_>, Error> {
        let index = self.index().ok_or_else(|| Error::Refused {
            message: "the index changed while the working tree was being read".into(),
            hint: Some("run the command again".into()),
        })?;
        let stack = self
            .repo
            .excludes(
                &index,
                None,
                gix::worktree::stack::state::ignore::Source::WorktreeThenIdMappingIfNotSkipped,
            )
            .map_err(|e| git_err("cannot read the ignore rules", e))?;
        Ok(IgnoreRules(RefCell::new(stack)))
    }

    /// Tracked plus untracked-but-not-ignored `*.md` files, project-relative
    /// and sorted. The walk also decides, for each tracked one it meets,
    /// whether its stat data still match the index.
    fn list_markdown(&self) -> Vec<String> {
        let mut out = BTreeSet::new();
        let Some(index) = self.index() else {
            return Vec::new();
        };
        let prefix = self.in_repo("");
        for e in index.entries() {
            if e.mode.is_submodule() {
                continue;
            }
            let p = e.path(&index);
            let in_root = self.root_in_repo.is_empty()
                || (p.starts_with(prefix.as_bytes()) && p.get(prefix.len()) == Some(&b'/'));
            if in_root && p.ends_with(b".md") {
                out.insert(strip_root(&p.to_str_lossy(), &self.root_in_repo).to_string());
            }
        }
        let mut decided = vec![0u8; index.entries().len()];
        let mut folder_seen: Option<String> = None;
        // Tracked files deleted from disk are skipped by the readers (they are Missing).
        let walked = self.walk(&mut |listed, rel, kind, tracked, ignored| {
            let folder = handles::split(rel).0;
            // The files of a folder come together, before its subfolders:
            // its attributes are known before anything below it is decided.
            if folder_seen.as_deref() != Some(folder) {
                if self.reuse.enabled && listed.has(b".gitattributes") {
                    self.note_attributes(listed.fd(), folder);
                }
                folder_seen = Some(folder.to_string());
            }
            if !rel.ends_with(".md") {
                return;
            }
            if !tracked() {
                if kind == FileType::RegularFile && !ignored() {
                    out.insert(rel.to_string());
                }
                return;
            }
            if let Ok(pos) = index.entry_index_by_path(self.in_repo(rel).as_bytes().as_bstr()) {
                decided[pos] = match self.clean_entry(listed.fd(), rel) {
                    Some(_) => CLEAN,
                    None => CHANGED,
                };
            }
        });
        if walked.is_ok() {
            *self.reuse.decided.borrow_mut() = decided;
        }
        drop(index);
        if self.lean.get() && walked.is_ok() {
            self.release_index();
        }
        out.into_iter().collect()
    }

    /// The files of the tree below `prefix` that `markdown_files` would list.
    fn list_markdown_under(&self, prefix: &str) -> Vec<String> {
        let folder = prefix.trim_end_matches('/');
        let mut out = BTreeSet::new();
        let top = self.in_repo(folder);
        let Some(index) = self.index() else {
            return Vec::new();
        };
        if let Some(range) = index.prefixed_entries_range(format!("{top}/").as_bytes().as_bstr()) {
            for e in &index.entries()[range] {
                let p = e.path(&index).to_str_lossy();
                if !e.mode.is_submodule() && p.ends_with(".md") {
                    out.insert(strip_root(&p, &self.root_in_repo).to_string());
                }
            }
        }
        // One set of ignore rules serves the folder's parents and its walk.
        let Ok(rules) = self.ignore_rules() else {
            return out.into_iter().collect();
        };
        if self.ignored_folder(&rules, folder) {
            return out.into_iter().collect();
        }
        let Some(listed) = list_folder(&self.folders, folder) else {
            return out.into_iter().collect();
        };
        walk_handles(
            &listed,
            folder,
            folder.split('/').count(),
            &mut |dir| !rules.ignored(&self.in_repo(dir), Mode::DIR),
            &mut |_, rel, kind| {
                let rel_top = self.in_repo(rel);
                if kind == FileType::RegularFile
                    && rel.ends_with(".md")
                    && !self.tracked(&rel_top)
                    && !rules.ignored(&rel_top, Mode::FILE)
                {
                    out.insert(rel.to_string());
                }
            },
        );
        out.into_iter().collect()
    }

    /// Whether git ignores the folder `rel` or one of its parents.
    fn ignored_folder(&self, rules: &IgnoreRules<'_>, rel: &str) -> bool {
        let mut at = String::new();
        for part in rel.split('/').filter(|p| !p.is_empty()) {
            if !at.is_empty() {
                at.push('/');
            }
            at.push_str(part);
            if rules.ignored(&self.in_repo(&at), Mode::DIR) {
                return true;
            }
        }
        false
    }

    /// Records the converting `.gitattributes` files the index holds (the
    /// working copy may be missing; git then reads the staged one).
    fn note_tracked_attributes(&self) {
        if !self.reuse.enabled {
            return;
        }
        let Some(index) = self.index() else {
            return;
        };
        for e in index.entries() {
            let p = e.path(&index);
            if p != ".gitattributes" && !p.ends_with(b"/.gitattributes") {
                continue;
            }
            let converting = match self.repo.find_blob(e.id) {
                Ok(blob) => converts(&blob.data),
                Err(_) => true,
            };
            if converting {
                let p = p.to_str_lossy();
                let folder = handles::split(&p).0;
                self.reuse
                    .converting
                    .borrow_mut()
                    .insert(self.project_folder(folder));
            }
        }
    }

    /// A repository folder as a project-relative one; a folder above the
    /// project root (whose attributes apply to it all) is the root, `""`.
    fn project_folder(&self, folder_in_repo: &str) -> String {
        if self.root_in_repo.is_empty() {
            return folder_in_repo.to_string();
        }
        match folder_in_repo.strip_prefix(&self.root_in_repo) {
            Some("") => String::new(),
            Some(rest) if rest.starts_with('/') => rest[1..].to_string(),
            _ if self.root_in_repo.starts_with(folder_in_repo) => String::new(),
            _ => folder_in_repo.to_string(),
        }
    }

    /// Reads the `.gitattributes` of `folder` (whose handle is `dir`) once
    /// and records the folder when it may convert content.
    fn note_attributes(&self, dir: BorrowedFd<'_>, folder: &str) {
        if !self
            .reuse
            .seen_attributes
            .borrow_mut()
            .insert(folder.to_string())
        {
            return;
        }
        let rel = if folder.is_empty() {
            ".gitattributes".to_string()
        } else {
            format!("{folder}/.gitattributes")
        };
        // An unchanged tracked one is its blob, classified when the snapshot opened.
        if self.clean_entry(dir, &rel).is_some() {
            return;
        }
        let converting = match handles::read_at(dir, ".gitattributes", None) {
            Node::File(bytes) => converts(&bytes),
            Node::Missing => false,
            _ => true,
        };
        if converting {
            self.reuse
                .converting
                .borrow_mut()
                .insert(folder.to_string());
        }
    }

    /// Whether a converting attributes file applies to the folder `folder`.
    fn under_converting(&self, folder: &str) -> bool {
        self.reuse.converting.borrow().iter().any(|c| {
            c.is_empty()
                || folder == c
                || (folder.starts_with(c.as_str()) && folder.as_bytes().get(c.len()) == Some(&b'/'))
        })
    }

    /// The index entry of the tracked file `rel` when its content is its
    /// index blob: stage 0, a regular file in the index and on disk, stat
    /// data unchanged and not racy, no attribute that converts it, no flag
    /// that tells git to look elsewhere. `dir` is the verified handle of its
    /// folder, whose attributes (and its parents') were already noted.
    fn clean_entry(&self, dir: BorrowedFd<'_>, rel: &str) -> Option<usize> {
        if !self.reuse.enabled {
            return None;
        }
        let (folder, name) = handles::split(rel);
        if self.under_converting(folder) {
            return None;
        }
        let pos = self.index_position(rel)?;
        let index = self.index()?;
        let entry = &index.entries()[pos];
        if entry.stage_raw() != 0
            || !(entry.mode == Mode::FILE || entry.mode == Mode::FILE_EXECUTABLE)
            || entry
                .flags
                .intersects(Flags::ASSUME_VALID | Flags::SKIP_WORKTREE | Flags::INTENT_TO_ADD)
            || entry.stat.is_racy(index.timestamp(), self.reuse.options)
        {
            return None;
        }
        let st = handles::stat_at(dir, name).ok()?;
        if FileType::from_raw_mode(st.st_mode) != FileType::RegularFile {
            return None;
        }
        entry
            .stat
            .matches(&stat_of(&st), self.reuse.options)
            .then_some(pos)
    }

    /// Where the index holds `rel` (project-relative), if it does.
    fn index_position(&self, rel: &str) -> Option<usize> {
        self.index()?
            .entry_index_by_path(self.in_repo(rel).as_bytes().as_bstr())
            .ok()
    }

    /// The blob and size standing for `rel` when its stat data match the
    /// index (see [`WorktreeTree::clean_entry`]); `None` means: read the disk.
    fn clean_blob(&self, rel: &str) -> Option<(gix::ObjectId, u64)> {
        if !self.reuse.enabled {
            return None;
        }
        // A lean snapshot that let go of the index knows the clean files
        // the walk met; any other file is read from disk.
        if let Some(clean) = self.clean.borrow().as_ref() {
            return clean.get(rel).copied();
        }
        let pos = self.index_position(rel)?;
        let index = self.index()?;
        let found = |pos: usize| {
            let entry = &index.entries()[pos];
            (entry.id, u64::from(entry.stat.size))
        };
        // The walk decided for every tracked Markdown file it met; one it did
        // not meet (in an ignored folder, behind a link) is decided here.
        match self.reuse.decided.borrow().get(pos) {
            Some(&CLEAN) => return Some(found(pos)),
            Some(&CHANGED) => return None,
            _ => {}
        }
        let (folder, _) = handles::split(rel);
        let mut at = String::new();
        let mut parts = folder.split('/').filter(|p| !p.is_empty());
        loop {
            if self.reuse.probed.borrow_mut().insert(at.clone()) {
                let fd = self.folders.folder(&at).ok()?;
                if handles::kind_at(&*fd, ".gitattributes").is_ok() {
                    self.note_attributes(fd.as_fd(), &at);
                }
            }
            match parts.next() {
                Some(part) => {
                    if !at.is_empty() {
                        at.push('/');
                    }
                    at.push_str(part);
                }
                None => break,
            }
        }
        let fd = self.folders.folder(folder).ok()?;
        self.clean_entry(fd.as_fd(), rel).map(found)
    }

    /// The whole file `path`: its index blob when unchanged, else from disk.
    fn whole(&self, path: &str) -> Node {
        match self.clean_blob(path) {
            Some((_, size)) if size > handles::MAX_FILE_BYTES => handles::too_large(size),
            Some((id, _)) => self.blob(id).unwrap_or_else(|| self.folders.read(path)),
            None => self.folders.read(path),
        }
    }

    fn blob(&self, id: gix::ObjectId) -> Option<Node> {
        let mut blob = self.repo.find_blob(id).ok()?;
        super::reads::note();
        super::objects::note_blob();
        Some(Node::File(super::snapshot::fitted(blob.take_data())))
    }

    /// Keeps the whole content of `path` for later readers, within budget.
    fn keep(&self, path: &str, node: &Node) {
        let Node::File(bytes) = node else { return };
        let used = self.kept_bytes.get() + bytes.len();
        if used <= KEEP_BUDGET {
            self.kept_bytes.set(used);
            self.kept
                .borrow_mut()
                .insert(path.to_string(), node.clone());
        }
    }
}

/// git's ignore rules (`.gitignore` files, `info/exclude`, `core.excludesFile`),
/// asked for repository-relative paths.
struct IgnoreRules<'repo>(RefCell<gix::AttributeStack<'repo>>);

impl IgnoreRules<'_> {
    /// Whether git ignores `rel_top`, a file or (`Mode::DIR`) a folder; a path
    /// the rules cannot answer for counts as not ignored.
    fn ignored(&self, rel_top: &str, mode: Mode) -> bool {
        self.0
            .borrow_mut()
            .at_path(Path::new(rel_top), Some(mode))
            .map(|p| p.is_excluded())
            .unwrap_or(false)
    }
}

/// Whether the bytes may open a provenance block: `<!--` after an optional BOM.
fn may_be_record(bytes: &[u8]) -> bool {
    let bytes = bytes.strip_prefix("\u{feff}".as_bytes()).unwrap_or(bytes);
    bytes.starts_with(b"<!--")
}

/// The index form of `lstat` data (as `gix::index::entry::Stat::from_fs`).
#[allow(clippy::unnecessary_cast)]
fn stat_of(st: &rustix::fs::Stat) -> gix::index::entry::Stat {
    use gix::index::entry::stat::Time;
    let time = |secs: i64, nsecs: i64| Time {
        secs: secs as u32,
        nsecs: nsecs as u32,
    };
    gix::index::entry::Stat {
        mtime: time(st.st_mtime as i64, st.st_mtime_nsec as i64),
        ctime: time(st.st_ctime as i64, st.st_ctime_nsec as i64),
        dev: st.st_dev as u32,
        ino: st.st_ino as u32,
        uid: st.st_uid as u32,
        gid: st.st_gid as u32,
        size: st.st_size as u32,
    }
}

/// Whether git's configuration leaves every blob as its file: no
/// `core.autocrlf`, and no converting attribute in the attribute files
/// outside the tree (`info/attributes`, `core.attributesFile`, the system's).
fn conversion_free_config(repo: &gix::Repository) -> bool {
    let config = repo.config_snapshot();
    // `true` and `input` convert; every spelling of false leaves files alone.
    if let Some(v) = config.string("core.autocrlf") {
        let v = v.to_str_lossy().to_ascii_lowercase();
        if !matches!(v.as_str(), "false" | "no" | "off" | "0" | "") {
            return false;
        }
    }
    let mut files = vec![repo.common_dir().join("info/attributes")];
    match config.trusted_path("core.attributesFile") {
        Ok(Some(p)) => files.push(p),
        Err(_) => return false,
        Ok(None) => {
            if let Some(base) = std::env::var_os("XDG_CONFIG_HOME")
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
                .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))
            {
                files.push(base.join("git/attributes"));
            }
        }
    }
    if std::env::var_os("GIT_ATTR_NOSYSTEM").is_none() {
        files.push(PathBuf::from("/etc/gitattributes"));
    }
    // Files outside the project, read by path like git does.
    files.iter().all(|f| match std::fs::read(f) {
        Ok(bytes) => !converts(&bytes),
        Err(e) => e.kind() == std::io::ErrorKind::NotFound,
    })
}

impl Tree for WorktreeTree {
    fn describe(&self) -> String {
        "the working tree".into()
    }

    fn node(&self, path: &str) -> Node {
        if let Some(node) = self.kept.borrow().get(path) {
            return node.clone();
        }
        let node = self.whole(path);
        if path.starts_with(".standards/") {
            self.keep(path, &node);
        }
        node
    }

    /// Reads only `limit` bytes of an ordinary file; one that may open a
    /// provenance block is read whole while it is open and kept, so the
    /// scan's whole read that follows opens nothing.
    fn prefix(&self, path: &str, limit: usize) -> Node {
        if let Some(node) = self.kept.borrow().get(path) {
            return truncated(node.clone(), limit);
        }
        match self.clean_blob(path) {
            Some((id, size)) if size <= BLOB_PREFIX_MAX => {
                if let Some(node) = self.blob(id) {
                    if matches!(&node, Node::File(b) if may_be_record(b)) {
                        self.keep(path, &node);
                    }
                    return truncated(node, limit);
                }
            }
            _ => {}
        }
        let (node, whole) = self.folders.read_opening(path, limit, may_be_record);
        if let Some(whole) = whole {
            self.keep(path, &whole);
        }
        node
    }

    fn markdown_files(&self) -> Vec<String> {
        self.markdown.get_or_init(|| self.list_markdown()).clone()
    }

    /// A file whose stat data match the index holds the staged blob, so its
    /// content is named by the blob's ID; any other file has no ID here.
    fn content_id(&self, path: &str) -> Option<Vec<u8>> {
        self.clean_blob(path).map(|(id, _)| id.as_bytes().to_vec())
    }

    fn markdown_files_under(&self, prefix: &str) -> Vec<String> {
        match self.markdown.get() {
            Some(all) => all
                .iter()
                .filter(|p| p.starts_with(prefix))
                .cloned()
                .collect(),
            None => self.list_markdown_under(prefix),
        }
    }

    fn unmerged(&self) -> Vec<String> {
        self.unmerged.clone()
    }

    fn stages(&self, path: &str) -> Option<Stages> {
        unmerged_stages(&self.repo, &self.root_in_repo, path)
    }
}

fn truncated(node: Node, limit: usize) -> Node {
    match node {
        Node::File(mut bytes) => {
            bytes.truncate(limit);
            Node::File(bytes)
        }
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn converting_attributes_are_recognised_in_any_form() {
        for text in [
            "*.md text\n",
            "*.md -text\n",
            "* text=auto eol=lf\n",
            "*.md filter=lfs diff=lfs merge=lfs\n",
            "*.c ident\n",
            "*.txt working-tree-encoding=UTF-16\n",
            "[attr]mine crlf\n*.md mine\n",
            "*.md !eol\n",
        ] {
            assert!(converts(text.as_bytes()), "{text}");
        }
        for text in [
            "",
            "# *.md text\n",
            ".standards/STATE.md merge=standards\n",
            "*.png binary\n",
            "*.md diff=markdown linguist-generated\n",
            "textfile.md merge=union\n",
        ] {
            assert!(!converts(text.as_bytes()), "{text}");
        }
    }

    #[test]
    fn only_a_file_that_may_open_a_block_is_read_whole() {
        assert!(may_be_record(b"<!-- STANDARDS"));
        assert!(may_be_record("\u{feff}<!--".as_bytes()));
        assert!(!may_be_record(b"<!"));
        assert!(!may_be_record(b"# Notes"));
        assert!(!may_be_record(b""));
    }
}
