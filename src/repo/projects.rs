//! Which folders of a commit hold a STANDARDS project (a `.standards/`
//! folder), for the checks that cover the whole repository: the merge guard
//! and `verify`.

use std::collections::BTreeSet;

use gix::bstr::ByteSlice;

use super::Project;
use crate::error::Error;

fn git_err(context: &str, e: impl std::fmt::Display) -> Error {
    Error::Git(format!("{context}: {e}"))
}

/// Project folders (repository-relative, `""` for the top) whose
/// `.standards/` is a folder in the tree of `commit`, sorted.
pub fn in_commit(project: &Project, commit: gix::ObjectId) -> Result<Vec<String>, Error> {
    let repo = &project.repo;
    let tree = repo
        .find_commit(commit)
        .map_err(|e| git_err("cannot read the commit", e))?
        .tree_id()
        .map_err(|e| git_err("cannot read the commit's tree", e))?
        .detach();
    let mut out = BTreeSet::new();
    find_projects(repo, tree, &mut String::new(), &mut out)?;
    Ok(out.into_iter().collect())
}

/// Adds to `out` the folders below `prefix` (empty or ending in `/`) of the
/// tree `id` that hold a `.standards` folder. Only folder names are looked
/// at, and a `.standards/` is never entered (one inside it is not a project).
fn find_projects(
    repo: &gix::Repository,
    id: gix::ObjectId,
    prefix: &mut String,
    out: &mut BTreeSet<String>,
) -> Result<(), Error> {
    let tree = repo
        .find_tree(id)
        .map_err(|e| git_err("cannot read a tree", e))?;
    for entry in tree.iter() {
        let entry = entry.map_err(|e| git_err("cannot read a tree", e))?;
        if !entry.mode().is_tree() {
            continue;
        }
        let name = entry.filename().to_str_lossy();
        if name == ".standards" {
            out.insert(prefix.strip_suffix('/').unwrap_or_default().to_string());
            continue;
        }
        let len = prefix.len();
        prefix.push_str(&name);
        prefix.push('/');
        find_projects(repo, entry.object_id(), prefix, out)?;
        prefix.truncate(len);
    }
    Ok(())
}

/// Project folders of the index (staged paths below a `.standards/`), sorted.
pub fn in_index(project: &Project) -> Result<Vec<String>, Error> {
    let repo = &project.repo;
    let index = super::index::shared(repo)?;
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
pub fn at_rev(project: &Project, rev: &str, dir: &str) -> Result<super::ObjectTree, Error> {
    super::ObjectTree::from_rev(&project.repo, rev, dir)
}

/// The project at `dir` of the index (a merge result before it is committed).
pub fn at_index(project: &Project, dir: &str) -> Result<super::ObjectTree, Error> {
    super::ObjectTree::from_index(&project.repo, dir)
}

/// The project at `dir` of a tree object no commit may hold yet (an
/// in-memory merge result).
pub fn at_tree(
    project: &super::Project,
    tree: gix::ObjectId,
    dir: &str,
    description: String,
) -> Result<super::ObjectTree, Error> {
    let repo = project.gix_repo();
    let tree = repo
        .find_tree(tree)
        .map_err(|e| git_err("cannot read the tree", e))?;
    super::ObjectTree::from_tree(repo, tree, dir, description, None)
}

/// One file below a project's `.standards/`: its path inside the folder and
/// its object (mode included, so a file turned into a link differs).
pub type StandardsEntry = (gix::bstr::BString, u32, gix::ObjectId);

/// Every file below `<dir>/.standards/` of `commit`, sorted: equal lists mean
/// the two commits hold the same `.standards/` (issue 22: a history that
/// brings no change to it brings no cycle).
pub fn standards_entries_at(
    project: &Project,
    commit: gix::ObjectId,
    dir: &str,
) -> Result<Vec<StandardsEntry>, Error> {
    let repo = &project.repo;
    let mut tree = repo
        .find_commit(commit)
        .map_err(|e| git_err("cannot read the commit", e))?
        .tree()
        .map_err(|e| git_err("cannot read the commit's tree", e))?;
    let path = if dir.is_empty() {
        ".standards".to_string()
    } else {
        format!("{dir}/.standards")
    };
    let Some(entry) = tree
        .peel_to_entry_by_path(&path)
        .map_err(|e| git_err("cannot read a tree", e))?
    else {
        return Ok(Vec::new());
    };
    if !entry.mode().is_tree() {
        return Ok(vec![(
            gix::bstr::BString::from(""),
            entry.mode().value() as u32,
            entry.object_id(),
        )]);
    }
    let mut out = Vec::new();
    collect(repo, entry.object_id(), &mut String::new(), &mut out)?;
    out.sort();
    Ok(out)
}

fn collect(
    repo: &gix::Repository,
    id: gix::ObjectId,
    prefix: &mut String,
    out: &mut Vec<StandardsEntry>,
) -> Result<(), Error> {
    let tree = repo
        .find_tree(id)
        .map_err(|e| git_err("cannot read a tree", e))?;
    for entry in tree.iter() {
        let entry = entry.map_err(|e| git_err("cannot read a tree", e))?;
        let len = prefix.len();
        prefix.push_str(&entry.filename().to_str_lossy());
        if entry.mode().is_tree() {
            prefix.push('/');
            collect(repo, entry.object_id(), prefix, out)?;
        } else {
            out.push((
                prefix.as_str().into(),
                entry.mode().value() as u32,
                entry.object_id(),
            ));
        }
        prefix.truncate(len);
    }
    Ok(())
}

/// [`standards_entries_at`] for the index; `None` while any of its entries
/// is unmerged (then it equals no commit).
pub fn standards_entries_in_index(
    project: &Project,
    dir: &str,
) -> Result<Option<Vec<StandardsEntry>>, Error> {
    let index = super::index::shared(&project.repo)?;
    let prefix = if dir.is_empty() {
        ".standards/".to_string()
    } else {
        format!("{dir}/.standards/")
    };
    let mut out = Vec::new();
    for e in index.entries() {
        let path = e.path(&index);
        let Some(rest) = path.strip_prefix(prefix.as_bytes()) else {
            continue;
        };
        if e.stage() != gix::index::entry::Stage::Unconflicted {
            return Ok(None);
        }
        let Some(mode) = e.mode.to_tree_entry_mode() else {
            return Ok(None);
        };
        out.push((rest.into(), mode.value() as u32, e.id));
    }
    out.sort();
    Ok(Some(out))
}
