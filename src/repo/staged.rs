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
    let index = super::index::shared(repo)?;
    Ok(compare(repo, &index, head_tree)?.0)
}

/// [`relevant_unchanged`] for `index` against HEAD's tree `head_tree`, and
/// how many of HEAD's trees it read.
fn compare(
    repo: &gix::Repository,
    index: &gix::index::File,
    head_tree: gix::ObjectId,
) -> Result<(bool, usize), Error> {
    // The root is invalid after any `git add`, but its valid children still
    // spare their folders: a cache-tree is used from the root down whatever
    // the root's own state (issue 27: dropping it for an invalid root read
    // every tree of HEAD on every plain commit).
    let cache = index.tree();
    if cache.is_some_and(|t| t.num_entries.is_some() && t.id == head_tree) {
        return Ok((true, 0));
    }
    let mut committed = Vec::new();
    let mut skipped = HashSet::new();
    let mut read = 0;
    walk(
        repo,
        head_tree,
        cache,
        &mut BString::default(),
        &mut committed,
        &mut skipped,
        &mut read,
    )?;
    let mut staged: Vec<Kept> = Vec::new();
    for e in index.entries() {
        let path = e.path(index);
        if !hook_path(path) || under_skipped(path, &skipped) {
            continue;
        }
        if e.stage() != Stage::Unconflicted {
            return Ok((false, read));
        }
        let Some(mode) = e.mode.to_tree_entry_mode() else {
            return Ok((false, read));
        };
        staged.push((path.to_owned(), mode.kind(), e.id));
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
fn walk(
    repo: &gix::Repository,
    id: gix::ObjectId,
    cache: Option<&gix::index::extension::Tree>,
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
            let child = cache.and_then(|c| {
                c.children
                    .iter()
                    .find(|c| c.name.as_slice() == name.as_bytes())
            });
            if child.is_some_and(|c| c.num_entries.is_some() && c.id == entry.object_id()) {
                skipped.insert(prefix.clone());
            } else {
                prefix.push(b'/');
                walk(repo, entry.object_id(), child, prefix, out, skipped, read)?;
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

#[cfg(test)]
mod tests {
    use super::hook_path;

    #[test]
    fn a_plain_commit_reads_only_the_trees_on_the_way_to_its_change() {
        let dir = tempfile::tempdir().unwrap();
        let git = |args: &[&str]| {
            let o = std::process::Command::new("git")
                .current_dir(dir.path())
                .env("GIT_CONFIG_GLOBAL", "/dev/null")
                .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
                .args(args)
                .output()
                .unwrap();
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
