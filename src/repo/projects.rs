//! Which folders of a commit hold a STANDARDS project (a `.standards/`
//! folder), for the checks that cover the whole repository: the merge guard
//! and `verify`.

use std::collections::BTreeSet;

use gix::bstr::ByteSlice;

use crate::error::Error;

fn git_err(context: &str, e: impl std::fmt::Display) -> Error {
    Error::Git(format!("{context}: {e}"))
}

/// Project folders (repository-relative, `""` for the top) whose
/// `.standards/` is a folder in the tree of `commit`, sorted.
pub fn in_commit(repo: &gix::Repository, commit: gix::ObjectId) -> Result<Vec<String>, Error> {
    let tree = repo
        .find_commit(commit)
        .map_err(|e| git_err("cannot read the commit", e))?
        .tree()
        .map_err(|e| git_err("cannot read the commit's tree", e))?;
    let mut rec = gix::traverse::tree::Recorder::default();
    tree.traverse()
        .breadthfirst(&mut rec)
        .map_err(|e| git_err("cannot walk the tree", e))?;
    Ok(rec
        .records
        .iter()
        .filter(|r| r.mode.is_tree())
        .filter_map(|r| project_of(&r.filepath.to_str_lossy()))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect())
}

/// Project folders of the index (staged paths below a `.standards/`), sorted.
pub fn in_index(repo: &gix::Repository) -> Result<Vec<String>, Error> {
    let index = repo
        .index_or_empty()
        .map_err(|e| git_err("cannot read the index", e))?;
    let mut out = BTreeSet::new();
    for e in index.entries() {
        let path = e.path(&index).to_str_lossy();
        // The outermost `.standards/` of the path names the project.
        let found = path
            .match_indices(".standards/")
            .find(|(i, _)| *i == 0 || path.as_bytes()[i - 1] == b'/');
        if let Some((i, _)) = found {
            out.insert(path[..i.saturating_sub(1)].to_string());
        }
    }
    Ok(out.into_iter().collect())
}

/// The project at `dir` (repository-relative) of any revision, as a snapshot.
pub fn at_rev(repo: &gix::Repository, rev: &str, dir: &str) -> Result<super::ObjectTree, Error> {
    super::ObjectTree::from_rev(repo, rev, dir)
}

/// The project at `dir` of the index (a merge result before it is committed).
pub fn at_index(repo: &gix::Repository, dir: &str) -> Result<super::ObjectTree, Error> {
    super::ObjectTree::from_index(repo, dir)
}

/// The project at `dir` of a tree object no commit may hold yet (an
/// in-memory merge result).
pub fn at_tree(
    repo: &gix::Repository,
    tree: gix::ObjectId,
    dir: &str,
    description: String,
) -> Result<super::ObjectTree, Error> {
    let tree = repo
        .find_tree(tree)
        .map_err(|e| git_err("cannot read the tree", e))?;
    super::ObjectTree::from_tree(repo, tree, dir, description, None)
}

/// `a/b/.standards` -> `a/b`; `.standards` -> ``; anything else -> None.
fn project_of(tree_path: &str) -> Option<String> {
    if tree_path == ".standards" {
        return Some(String::new());
    }
    let dir = tree_path.strip_suffix("/.standards")?;
    // A `.standards` inside another project's `.standards/` is not a project.
    (!dir.split('/').any(|c| c == ".standards")).then(|| dir.to_string())
}

#[cfg(test)]
mod tests {
    #[test]
    fn project_folders() {
        assert_eq!(super::project_of(".standards"), Some(String::new()));
        assert_eq!(
            super::project_of("my app/.standards"),
            Some("my app".into())
        );
        assert_eq!(super::project_of(".standards/docs/.standards"), None);
        assert_eq!(super::project_of("src/standards"), None);
    }
}
