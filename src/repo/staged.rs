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
    let cache = index.tree().filter(|t| t.num_entries.is_some());
    if cache.is_some_and(|t| t.id == head_tree) {
        return Ok(true);
    }
    let mut committed = Vec::new();
    let mut skipped = HashSet::new();
    walk(
        repo,
        head_tree,
        cache,
        &mut BString::default(),
        &mut committed,
        &mut skipped,
    )?;
    let mut staged: Vec<Kept> = Vec::new();
    for e in index.entries() {
        let path = e.path(&index);
        if !hook_path(path) || under_skipped(path, &skipped) {
            continue;
        }
        if e.stage() != Stage::Unconflicted {
            return Ok(false);
        }
        let Some(mode) = e.mode.to_tree_entry_mode() else {
            return Ok(false);
        };
        staged.push((path.to_owned(), mode.kind(), e.id));
    }
    staged.sort();
    committed.sort();
    Ok(staged == committed)
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
) -> Result<(), Error> {
    let tree = repo
        .find_tree(id)
        .map_err(|e| git_err("cannot read a tree of HEAD", e))?;
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
                walk(repo, entry.object_id(), child, prefix, out, skipped)?;
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
