//! Scratch repositories, for `git standards demo`: create one in an empty
//! folder, commit its whole working tree with a fixed demo identity, switch
//! and fast-forward its branches.

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// Creates a git repository in `dir` and returns the branch its HEAD names
/// (`init.defaultBranch`, else `main`).
pub fn init(dir: &Path) -> Result<String> {
    let repo = gix::init(dir).map_err(|e| {
        Error::Git(format!(
            "cannot create a git repository in `{}`: {e}",
            dir.display()
        ))
    })?;
    Ok(match repo.head_name() {
        Ok(Some(name)) => name.shorten().to_string(),
        _ => "main".to_string(),
    })
}

/// Commits every file of the working tree at `dir` (the top of a scratch
/// repository) on HEAD as "STANDARDS demo", and writes the index to match,
/// so `git status` is clean afterwards. Returns the new commit's ID.
pub fn commit_all(dir: &Path, message: &str) -> Result<String> {
    let git = |e: &dyn std::fmt::Display| {
        Error::Git(format!("cannot commit in the demo repository: {e}"))
    };
    let repo = gix::open(dir).map_err(|e| git(&e))?;
    let empty = repo
        .write_object(gix::objs::Tree::empty())
        .map_err(|e| git(&e))?
        .detach();
    let mut editor = repo.edit_tree(empty).map_err(|e| git(&e))?;
    let mut files = Vec::new();
    list_files(dir, dir, &mut files)?;
    for rel in files {
        let bytes = std::fs::read(dir.join(&rel)).map_err(|e| Error::io(dir.join(&rel), e))?;
        let blob = repo.write_blob(bytes).map_err(|e| git(&e))?.detach();
        editor
            .upsert(rel.as_str(), gix::objs::tree::EntryKind::Blob, blob)
            .map_err(|e| git(&e))?;
    }
    let tree = editor.write().map_err(|e| git(&e))?.detach();
    let parents: Vec<gix::ObjectId> = repo
        .head_id()
        .ok()
        .map(|id| id.detach())
        .into_iter()
        .collect();
    if let Some(parent) = parents.first() {
        let parent_tree = repo
            .find_commit(*parent)
            .and_then(|c| c.tree_id())
            .map_err(|e| git(&e))?
            .detach();
        if parent_tree == tree {
            return Err(Error::Internal(format!(
                "the demo's step `{message}` changed no file; it would be an empty commit"
            )));
        }
    }
    let time = format!("{} +0000", chrono::Utc::now().timestamp());
    let who = gix::actor::SignatureRef {
        name: "STANDARDS demo".into(),
        email: "demo@example.invalid".into(),
        time: &time,
    };
    let id = repo
        .commit_as(who, who, "HEAD", message, tree, parents)
        .map_err(|e| git(&e))?
        .detach();
    let mut index = repo.index_from_tree(&tree).map_err(|e| git(&e))?;
    index.write(Default::default()).map_err(|e| git(&e))?;
    Ok(id.to_string())
}

/// Every regular file below `dir` (outside `.git`), as `/`-separated paths
/// relative to `root`, sorted.
fn list_files(root: &Path, dir: &Path, out: &mut Vec<String>) -> Result<()> {
    let entries = std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))?;
    let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for p in paths {
        if p.file_name().is_some_and(|n| n == ".git") {
            continue;
        }
        let meta = std::fs::symlink_metadata(&p).map_err(|e| Error::io(&p, e))?;
        if meta.is_dir() {
            list_files(root, &p, out)?;
        } else if meta.is_file() {
            let rel = p
                .strip_prefix(root)
                .expect("below root")
                .to_string_lossy()
                .replace('\\', "/");
            out.push(rel);
        }
    }
    Ok(())
}

fn git_error(e: &dyn std::fmt::Display) -> Error {
    Error::Git(format!("cannot update the demo repository: {e}"))
}

/// The branch HEAD is on.
pub fn current_branch(dir: &Path) -> Result<String> {
    let repo = gix::open(dir).map_err(|e| git_error(&e))?;
    Ok(match repo.head_name() {
        Ok(Some(name)) => name.shorten().to_string(),
        _ => "main".to_string(),
    })
}

/// Points HEAD at `branch` (created at HEAD's commit when `create`); the
/// working tree and index stay, as `git switch` leaves them when both
/// branches hold the same commit.
pub fn switch_to(dir: &Path, branch: &str, create: bool) -> Result<()> {
    use gix::refs::transaction::{Change, LogChange, PreviousValue, RefEdit, RefLog};
    use gix::refs::Target;
    let repo = gix::open(dir).map_err(|e| git_error(&e))?;
    let name = format!("refs/heads/{branch}");
    if create {
        let head = repo.head_id().map_err(|e| git_error(&e))?.detach();
        repo.reference(
            name.as_str(),
            head,
            PreviousValue::MustNotExist,
            "branch: Created from HEAD",
        )
        .map_err(|e| git_error(&e))?;
    }
    let target: gix::refs::FullName = name.as_str().try_into().map_err(|e| git_error(&e))?;
    repo.edit_reference(RefEdit {
        change: Change::Update {
            log: LogChange {
                mode: RefLog::AndReference,
                force_create_reflog: false,
                message: format!("checkout: moving to {branch}").into(),
            },
            expected: PreviousValue::Any,
            new: Target::Symbolic(target),
        },
        name: "HEAD".try_into().map_err(|e| git_error(&e))?,
        deref: false,
    })
    .map_err(|e| git_error(&e))?;
    Ok(())
}

/// `git switch <main> && git merge --ff-only <branch>`: `main` must be an
/// ancestor of `branch` (the demo never moves it), so it moves to the
/// branch's commit, whose files the working tree already holds.
pub fn fast_forward(dir: &Path, main: &str, branch: &str) -> Result<()> {
    use gix::refs::transaction::PreviousValue;
    let repo = gix::open(dir).map_err(|e| git_error(&e))?;
    let tip = repo
        .find_reference(format!("refs/heads/{branch}").as_str())
        .map_err(|e| git_error(&e))?
        .id()
        .detach();
    let old = repo
        .find_reference(format!("refs/heads/{main}").as_str())
        .map_err(|e| git_error(&e))?
        .id()
        .detach();
    let base = repo
        .merge_base(old, tip)
        .map_err(|e| git_error(&e))?
        .map(|id| id.detach());
    if base != Some(old) {
        return Err(Error::Internal(format!(
            "`{main}` moved during the demo; it is no ancestor of `{branch}`"
        )));
    }
    repo.reference(
        format!("refs/heads/{main}").as_str(),
        tip,
        PreviousValue::MustExistAndMatch(old.into()),
        format!("merge {branch}: Fast-forward"),
    )
    .map_err(|e| git_error(&e))?;
    drop(repo);
    switch_to(dir, main, false)
}
