//! The pre-commit hook's fast exit (issue 14, item 5): whether anything the
//! staged check reads is staged differently from HEAD, decided from object
//! IDs alone (no blob is read).
//!
//! The index's entries that the hook's pathspecs keep are compared with
//! HEAD's. HEAD's tree is walked, but a folder whose tree ID the index's
//! cache-tree extension records (and still holds valid) equal to HEAD's is
//! skipped whole: after `git commit` refreshed the cache-tree, only the
//! folders on the way to a staged change are read. Without a valid
//! cache-tree the walk covers HEAD's whole tree, which is still correct.

use std::collections::HashSet;

use gix::bstr::{BStr, BString, ByteSlice, ByteVec};
use gix::index::entry::Stage;
use gix::objs::tree::EntryKind;

use crate::error::Error;

fn git_err(context: &str, e: impl std::fmt::Display) -> Error {
    Error::Git(format!("{context}: {e}"))
}

/// The hook's pathspecs `*.md`, `.standards` and `*/.standards/*`, on a
/// repository-relative path (`*` matches `/` in a pathspec).
pub fn hook_path(path: &[u8]) -> bool {
    path.ends_with(b".md")
        || path == b".standards"
        || path.starts_with(b".standards/")
        || contains_standards_folder(path)
}

/// Whether `path` has a `/.standards/` component. Run on every index entry,
/// so it looks at each `/` instead of building a substring searcher per call.
fn contains_standards_folder(path: &[u8]) -> bool {
    path.iter()
        .enumerate()
        .any(|(i, &c)| c == b'/' && path[i..].starts_with(b"/.standards/"))
}

/// One entry the pathspecs keep: its path, kind and object.
type Kept = (BString, EntryKind, gix::ObjectId);

/// Whether every index entry that [`hook_path`] keeps is HEAD's entry (same
/// path, kind and object) and HEAD has no other: then no rule of the staged
/// check can judge differently from HEAD and the hook may exit at once.
/// `false` without a HEAD commit, and for any unmerged entry it keeps.
pub fn relevant_unchanged(project: &super::Project) -> Result<bool, Error> {
    let repo = &project.repo;
    let head = match repo.head_commit() {
        Ok(commit) => commit,
        Err(_) => return Ok(false),
    };
    let head_tree = head
        .tree_id()
        .map_err(|e| git_err("cannot read HEAD's tree", e))?
        .detach();
    // The index file as it is on disk, without decoding every entry and
    // cache-tree node into gix's structures (a third of the hook's CPU on a
    // 20,000-file index, issue 27); gix decodes what the raw reader leaves.
    if let Ok(bytes) = std::fs::read(repo.index_path()) {
        if let Some(raw) = raw::Index::parse(&bytes) {
            return Ok(compare_with(repo, &raw, head_tree)?.0);
        }
    }
    let index = super::index::shared(repo)?;
    Ok(compare(repo, &index, head_tree)?.0)
}

/// What the comparison needs of an index: its entries that [`hook_path`]
/// keeps, and its cache-tree.
trait Staged {
    /// A node of the cache-tree.
    type Node<'a>: Copy
    where
        Self: 'a;
    fn root(&self) -> Option<Self::Node<'_>>;
    /// The node's tree ID while it is valid.
    fn valid_id(&self, node: Self::Node<'_>) -> Option<gix::ObjectId>;
    fn child<'a>(&'a self, node: Self::Node<'a>, name: &[u8]) -> Option<Self::Node<'a>>;
    /// Calls `each` with every kept entry's path, stage (0: merged), mode
    /// and object, until it returns `false`.
    fn kept(
        &self,
        each: &mut dyn FnMut(&BStr, u16, gix::index::entry::Mode, gix::ObjectId) -> bool,
    );
}

impl Staged for gix::index::File {
    type Node<'a> = &'a gix::index::extension::Tree;
    fn root(&self) -> Option<Self::Node<'_>> {
        self.tree()
    }
    fn valid_id(&self, node: Self::Node<'_>) -> Option<gix::ObjectId> {
        node.num_entries.map(|_| node.id)
    }
    fn child<'a>(&'a self, node: Self::Node<'a>, name: &[u8]) -> Option<Self::Node<'a>> {
        node.children.iter().find(|c| c.name.as_slice() == name)
    }
    fn kept(
        &self,
        each: &mut dyn FnMut(&BStr, u16, gix::index::entry::Mode, gix::ObjectId) -> bool,
    ) {
        for e in self.entries() {
            let path = e.path(self);
            if hook_path(path) {
                let stage = match e.stage() {
                    Stage::Unconflicted => 0,
                    Stage::Base => 1,
                    Stage::Ours => 2,
                    Stage::Theirs => 3,
                };
                if !each(path, stage, e.mode, e.id) {
                    return;
                }
            }
        }
    }
}

/// [`relevant_unchanged`] for `index` against HEAD's tree `head_tree`, and
/// how many of HEAD's trees it read.
fn compare(
    repo: &gix::Repository,
    index: &gix::index::File,
    head_tree: gix::ObjectId,
) -> Result<(bool, usize), Error> {
    compare_with(repo, index, head_tree)
}

fn compare_with<S: Staged>(
    repo: &gix::Repository,
    index: &S,
    head_tree: gix::ObjectId,
) -> Result<(bool, usize), Error> {
    // The root is invalid after any `git add`, but its valid children still
    // spare their folders: a cache-tree is used from the root down whatever
    // the root's own state (issue 27: dropping it for an invalid root read
    // every tree of HEAD on every plain commit).
    let cache = index.root();
    if cache.is_some_and(|t| index.valid_id(t) == Some(head_tree)) {
        return Ok((true, 0));
    }
    let mut committed = Vec::new();
    let mut skipped = HashSet::new();
    let mut read = 0;
    walk(
        repo,
        index,
        head_tree,
        cache,
        &mut BString::default(),
        &mut committed,
        &mut skipped,
        &mut read,
    )?;
    let mut staged: Vec<Kept> = Vec::new();
    let mut same = true;
    index.kept(&mut |path, stage, mode, id| {
        if under_skipped(path, &skipped) {
            return true;
        }
        if stage != 0 {
            same = false;
            return false;
        }
        let Some(mode) = mode.to_tree_entry_mode() else {
            same = false;
            return false;
        };
        staged.push((path.to_owned(), mode.kind(), id));
        true
    });
    if !same {
        return Ok((false, read));
    }
    staged.sort();
    committed.sort();
    Ok((staged == committed, read))
}

/// Whether a folder above `path` was skipped as unchanged.
fn under_skipped(path: &BStr, skipped: &HashSet<BString>) -> bool {
    if skipped.is_empty() {
        return false;
    }
    path.rfind_iter(b"/")
        .any(|slash| skipped.contains(&path[..slash]))
}

/// Adds to `out` the entries [`hook_path`] keeps of HEAD's tree `id` below
/// `prefix` (empty or ending in `/`), skipping (and adding to `skipped`) each
/// folder the valid cache-tree `cache` records with the same tree ID.
#[allow(clippy::too_many_arguments)]
fn walk<'a, S: Staged>(
    repo: &gix::Repository,
    index: &'a S,
    id: gix::ObjectId,
    cache: Option<S::Node<'a>>,
    prefix: &mut BString,
    out: &mut Vec<Kept>,
    skipped: &mut HashSet<BString>,
    read: &mut usize,
) -> Result<(), Error> {
    let tree = repo
        .find_tree(id)
        .map_err(|e| git_err("cannot read a tree of HEAD", e))?;
    *read += 1;
    for entry in tree.iter() {
        let entry = entry.map_err(|e| git_err("cannot read a tree of HEAD", e))?;
        let name = entry.filename();
        let len = prefix.len();
        prefix.push_str(name);
        let kind = entry.mode().kind();
        if kind == EntryKind::Tree {
            let child = cache.and_then(|c| index.child(c, name.as_bytes()));
            if child.is_some_and(|c| index.valid_id(c) == Some(entry.object_id())) {
                skipped.insert(prefix.clone());
            } else {
                prefix.push(b'/');
                walk(
                    repo,
                    index,
                    entry.object_id(),
                    child,
                    prefix,
                    out,
                    skipped,
                    read,
                )?;
            }
        } else if hook_path(prefix) {
            out.push((prefix.clone(), kind, entry.object_id()));
        }
        prefix.truncate(len);
    }
    Ok(())
}

/// The folders (repository-relative, `""` at the top) whose
/// `.standards/PROTOCOL.md` is in the index, at any stage: the projects the
/// hook checks (as `git ls-files -- '.standards/PROTOCOL.md'
/// '*/.standards/PROTOCOL.md'` lists them).
pub fn staged_projects(project: &super::Project) -> Result<Vec<String>, Error> {
    let repo = &project.repo;
    let index = super::index::shared(repo)?;
    let mut out = std::collections::BTreeSet::new();
    for e in index.entries() {
        let path = e.path(&index);
        if path == ".standards/PROTOCOL.md" {
            out.insert(String::new());
        } else if let Some(dir) = path.strip_suffix(b"/.standards/PROTOCOL.md") {
            out.insert(dir.to_str_lossy().into_owned());
        }
    }
    Ok(out.into_iter().collect())
}

/// The index file read as bytes for the fast exit: only the entries that
/// [`hook_path`] keeps are kept, and the cache-tree stays in the file's
/// bytes, indexed once (gix's decoding builds every entry and one value per
/// cache-tree folder: a third of the hook's CPU on a 20,000-file index).
/// Versions 2 to 4 (git's index-format.txt); `None`, for gix to decode, on a
/// split index (`link`), a sparse index (`sdir`, or a folder entry) or
/// anything this reader does not expect.
mod raw {
    use gix::bstr::{BStr, BString, ByteSlice};

    pub(super) struct Index<'a> {
        /// The kept entries: path, stage, mode bits, object.
        kept: Vec<(BString, u16, u32, gix::ObjectId)>,
        /// The cache-tree folders in the file's order (depth first).
        nodes: Vec<Node<'a>>,
    }

    #[derive(Clone, Copy)]
    struct Node<'a> {
        name: &'a [u8],
        /// The tree ID, while the folder is valid.
        id: Option<gix::ObjectId>,
        /// The index of the first node after this folder's subtree.
        end: usize,
    }

    fn u32_at(data: &[u8], at: usize) -> Option<u32> {
        Some(u32::from_be_bytes(data.get(at..at + 4)?.try_into().ok()?))
    }

    fn u16_at(data: &[u8], at: usize) -> Option<u16> {
        Some(u16::from_be_bytes(data.get(at..at + 2)?.try_into().ok()?))
    }

    /// Git's offset varint (index v4 path prefixes).
    fn varint(data: &[u8], at: &mut usize) -> Option<usize> {
        let mut c = *data.get(*at)?;
        *at += 1;
        let mut value = usize::from(c & 0x7f);
        while c & 0x80 != 0 {
            c = *data.get(*at)?;
            *at += 1;
            value = value.checked_add(1)?.checked_mul(128)? + usize::from(c & 0x7f);
        }
        Some(value)
    }

    impl<'a> Index<'a> {
        pub(super) fn parse(data: &'a [u8]) -> Option<Index<'a>> {
            const HASH: usize = 20;
            if data.len() < 12 + HASH || &data[..4] != b"DIRC" {
                return None;
            }
            let version = u32_at(data, 4)?;
            if !(2..=4).contains(&version) {
                return None;
            }
            let count = u32_at(data, 8)?;
            let end = data.len() - HASH;
            let body = &data[..end];
            let mut at = 12;
            let mut kept = Vec::new();
            let mut previous: Vec<u8> = Vec::new();
            for _ in 0..count {
                let start = at;
                let mode = u32_at(body, start + 24)?;
                let id = gix::ObjectId::from_bytes_or_panic(body.get(start + 40..start + 60)?);
                let flags = u16_at(body, start + 60)?;
                let mut fixed = 62;
                if flags & 0x4000 != 0 {
                    if version < 3 {
                        return None;
                    }
                    fixed = 64;
                }
                // A folder entry: a sparse index, for gix.
                if mode == 0o040000 {
                    return None;
                }
                at = start + fixed;
                let path: &[u8] = if version == 4 {
                    let strip = varint(body, &mut at)?;
                    let nul = body.get(at..)?.find_byte(0)?;
                    let keep = previous.len().checked_sub(strip)?;
                    previous.truncate(keep);
                    previous.extend_from_slice(&body[at..at + nul]);
                    at += nul + 1;
                    &previous
                } else {
                    let len = usize::from(flags & 0x0fff);
                    let len = if len == 0x0fff {
                        body.get(at..)?.find_byte(0)?
                    } else {
                        len
                    };
                    let path = body.get(at..at + len)?;
                    if *body.get(at + len)? != 0 {
                        return None;
                    }
                    at = start + ((fixed + len + 8) & !7);
                    path
                };
                if super::hook_path(path) {
                    kept.push((BString::from(path), (flags >> 12) & 3, mode, id));
                }
            }
            let mut nodes = Vec::new();
            while at < end {
                let signature = body.get(at..at + 4)?;
                let size = usize::try_from(u32_at(body, at + 4)?).ok()?;
                let ext = body.get(at + 8..(at + 8).checked_add(size)?)?;
                match signature {
                    b"link" | b"sdir" => return None,
                    b"TREE" => nodes = tree(ext)?,
                    _ => {}
                }
                at += 8 + size;
            }
            (at == end).then_some(Index { kept, nodes })
        }
    }

    /// The cache-tree extension's folders: `<name> NUL <entries> SP
    /// <subtrees> LF [<id>]`, depth first (`-1` entries: invalid, no ID).
    fn tree(mut data: &[u8]) -> Option<Vec<Node<'_>>> {
        let mut nodes: Vec<Node<'_>> = Vec::new();
        // Open folders and how many of their subtrees are still to come.
        let mut open: Vec<(usize, usize)> = Vec::new();
        while !data.is_empty() {
            let nul = data.find_byte(0)?;
            let name = &data[..nul];
            data = &data[nul + 1..];
            let space = data.find_byte(b' ')?;
            let entries: i64 = std::str::from_utf8(&data[..space]).ok()?.parse().ok()?;
            data = &data[space + 1..];
            let newline = data.find_byte(b'\n')?;
            let subtrees: usize = std::str::from_utf8(&data[..newline]).ok()?.parse().ok()?;
            data = &data[newline + 1..];
            let id = if entries >= 0 {
                u32::try_from(entries).ok()?;
                let id = gix::ObjectId::from_bytes_or_panic(data.get(..20)?);
                data = &data[20..];
                Some(id)
            } else {
                None
            };
            match open.last_mut() {
                Some((_, left)) => *left = left.checked_sub(1)?,
                // A second root.
                None if !nodes.is_empty() => return None,
                None => {}
            }
            nodes.push(Node { name, id, end: 0 });
            let this = nodes.len() - 1;
            if subtrees > 0 {
                open.push((this, subtrees));
            } else {
                nodes[this].end = this + 1;
            }
            while let Some(&(node, 0)) = open.last() {
                nodes[node].end = nodes.len();
                open.pop();
            }
        }
        open.is_empty().then_some(nodes)
    }

    impl super::Staged for Index<'_> {
        type Node<'b>
            = usize
        where
            Self: 'b;
        fn root(&self) -> Option<usize> {
            (!self.nodes.is_empty()).then_some(0)
        }
        fn valid_id(&self, node: usize) -> Option<gix::ObjectId> {
            self.nodes[node].id
        }
        fn child(&self, node: usize, name: &[u8]) -> Option<usize> {
            let mut child = node + 1;
            while child < self.nodes[node].end {
                if self.nodes[child].name == name {
                    return Some(child);
                }
                child = self.nodes[child].end;
            }
            None
        }
        fn kept(
            &self,
            each: &mut dyn FnMut(&BStr, u16, gix::index::entry::Mode, gix::ObjectId) -> bool,
        ) {
            for (path, stage, mode, id) in &self.kept {
                let mode = gix::index::entry::Mode::from_bits_truncate(*mode);
                if !each(path.as_bstr(), *stage, mode, *id) {
                    return;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::hook_path;

    #[test]
    fn a_plain_commit_reads_only_the_trees_on_the_way_to_its_change() {
        let dir = tempfile::tempdir().unwrap();
        let git = |args: &[&str]| {
            let o = crate::repo::test_support::test_git(dir.path(), args);
            assert!(o.status.success(), "{args:?}: {o:?}");
        };
        git(&["init", "-q"]);
        for (path, text) in [
            ("a/x/1.rs", "one\n"),
            ("b/y/2.md", "two\n"),
            ("c/3.md", "three\n"),
            (".standards/STATE.md", "state\n"),
        ] {
            let full = dir.path().join(path);
            std::fs::create_dir_all(full.parent().unwrap()).unwrap();
            std::fs::write(full, text).unwrap();
        }
        git(&["add", "-A"]);
        git(&["commit", "-q", "-m", "one"]);
        let compare = || {
            let repo = gix::open(dir.path()).unwrap();
            let head = repo.head_commit().unwrap().tree_id().unwrap().detach();
            let index = repo.open_index().unwrap();
            super::compare(&repo, &index, head).unwrap()
        };
        assert_eq!(compare(), (true, 0), "the cache-tree is HEAD's tree");
        // `git add` invalidates the root and `a/x`: only those trees are
        // read, `b`, `c` and `.standards` are skipped as unchanged.
        std::fs::write(dir.path().join("a/x/1.rs"), "changed\n").unwrap();
        git(&["add", "a/x/1.rs"]);
        assert_eq!(compare(), (true, 3));
        // A staged Markdown change is seen below a skipped sibling too.
        std::fs::write(dir.path().join("b/y/2.md"), "changed\n").unwrap();
        git(&["add", "b/y/2.md"]);
        assert!(!compare().0);
    }

    /// The raw reader gives gix's answer (and reads the same trees of HEAD)
    /// in every index version and state the hook meets; a split index is
    /// left to gix.
    #[test]
    fn the_raw_reader_answers_as_gix_does() {
        for version in ["2", "3", "4"] {
            let dir = tempfile::tempdir().unwrap();
            let root = dir.path();
            let output = |args: &[&str]| crate::repo::test_support::test_git(root, args);
            let run = |args: &[&str]| -> String {
                String::from_utf8_lossy(&output(args).stdout)
                    .trim()
                    .to_string()
            };
            let git = |args: &[&str]| {
                let o = output(args);
                assert!(o.status.success(), "{args:?}: {o:?}");
            };
            git(&["init", "-q", "-b", "main"]);
            for (path, text) in [
                ("a/x/1.rs", "one\n"),
                ("b/y/2.md", "two\n"),
                ("c/3.md", "three\n"),
                ("d/e/f/g.txt", "deep\n"),
                (".standards/STATE.md", "state\n"),
                ("sub/.standards/config.toml", "x = 1\n"),
            ] {
                let full = root.join(path);
                std::fs::create_dir_all(full.parent().unwrap()).unwrap();
                std::fs::write(full, text).unwrap();
            }
            git(&["add", "-A"]);
            git(&["update-index", "--index-version", version]);
            git(&["commit", "-q", "-m", "one"]);
            let same = |what: &str, expected: Option<bool>| {
                let repo = gix::open(root).unwrap();
                let head = repo.head_commit().unwrap().tree_id().unwrap().detach();
                let index = repo.open_index().unwrap();
                let by_gix = super::compare(&repo, &index, head).unwrap();
                let bytes = std::fs::read(repo.index_path()).unwrap();
                let raw = super::raw::Index::parse(&bytes)
                    .unwrap_or_else(|| panic!("v{version} {what}: the raw reader gave up"));
                let by_raw = super::compare_with(&repo, &raw, head).unwrap();
                assert_eq!(by_raw, by_gix, "v{version} {what}");
                if let Some(expected) = expected {
                    assert_eq!(by_raw.0, expected, "v{version} {what}");
                }
            };
            same("as committed", Some(true));
            std::fs::write(root.join("a/x/1.rs"), "changed\n").unwrap();
            git(&["add", "a/x/1.rs"]);
            same("an unrelated change", Some(true));
            std::fs::write(root.join("d/e/f/g.txt"), "changed\n").unwrap();
            git(&["add", "d/e/f/g.txt"]);
            same("two unrelated changes", Some(true));
            std::fs::write(root.join("b/y/2.md"), "changed\n").unwrap();
            git(&["add", "b/y/2.md"]);
            same("a Markdown change", Some(false));
            git(&["reset", "-q"]);
            same("after reset", None);
            git(&["read-tree", "HEAD"]);
            same("read-tree HEAD", Some(true));
            std::fs::write(root.join("new.md"), "new\n").unwrap();
            git(&["add", "-N", "new.md"]);
            same("an intent-to-add Markdown file", Some(false));
            git(&["rm", "-q", "--cached", "new.md"]);
            same("intent-to-add undone", None);
            git(&["rm", "-q", "--cached", "c/3.md"]);
            same("a Markdown file removed", Some(false));
            git(&["reset", "-q"]);
            git(&["update-index", "--chmod=+x", "sub/.standards/config.toml"]);
            same("a mode change under .standards", Some(false));
            git(&["reset", "-q"]);
            // An unmerged STATE.md.
            git(&["checkout", "-q", "-b", "other"]);
            std::fs::write(root.join(".standards/STATE.md"), "theirs\n").unwrap();
            git(&["commit", "-q", "-am", "theirs"]);
            git(&["checkout", "-q", "main"]);
            std::fs::write(root.join(".standards/STATE.md"), "ours\n").unwrap();
            git(&["commit", "-q", "-am", "ours"]);
            let _ = run(&["merge", "-q", "other"]);
            same("an unmerged STATE.md", Some(false));
            git(&["merge", "--abort"]);
            same("merge aborted", Some(true));
            // A split index is gix's to read.
            git(&["update-index", "--split-index"]);
            std::fs::write(root.join("a/x/1.rs"), "again\n").unwrap();
            git(&["add", "a/x/1.rs"]);
            let bytes = std::fs::read(root.join(".git/index")).unwrap();
            assert!(super::raw::Index::parse(&bytes).is_none(), "v{version}");
            git(&["update-index", "--no-split-index"]);
            // A path longer than the 12-bit length field (which gix cannot
            // read), before the others: the entries after it still count.
            let blob = run(&["hash-object", "-w", "c/3.md"]);
            let long = format!("a/{}.md", "l".repeat(5000));
            git(&[
                "update-index",
                "--add",
                "--cacheinfo",
                &format!("100644,{blob},{long}"),
            ]);
            git(&["commit", "-q", "-m", "long"]);
            let raw_only = || {
                let repo = gix::open(root).unwrap();
                let head = repo.head_commit().unwrap().tree_id().unwrap().detach();
                let bytes = std::fs::read(repo.index_path()).unwrap();
                let raw = super::raw::Index::parse(&bytes).expect("a long path");
                super::compare_with(&repo, &raw, head).unwrap().0
            };
            std::fs::write(root.join("a/x/1.rs"), "long\n").unwrap();
            git(&["add", "a/x/1.rs"]);
            assert!(raw_only(), "v{version}");
            std::fs::write(root.join("c/3.md"), "long\n").unwrap();
            git(&["add", "c/3.md"]);
            assert!(!raw_only(), "v{version}");
        }
    }

    #[test]
    fn the_hook_pathspecs() {
        for kept in [
            "a.md",
            "deep/er/b.md",
            ".standards",
            ".standards/STATE.md",
            ".standards/x.toml",
            "sub/.standards/config.toml",
        ] {
            assert!(hook_path(kept.as_bytes()), "{kept}");
        }
        for other in ["src/main.rs", "sub/.standards", "standards/x", "a.mdx"] {
            assert!(!hook_path(other.as_bytes()), "{other}");
        }
    }
}
