//! The in-memory merge of two commits, as `verify --into` needs it: what a
//! merge would hold, computed without a checkout or an index. gix 0.90 has a
//! tree merge only behind its `merge` feature (gix-merge, blob diffs,
//! attributes and filters: a large share of a fresh CI build), so this runs
//! `git merge-tree --write-tree` (git 2.38 or newer), as D17 allows where we
//! do not take gix's equivalent.

use std::path::Path;
use std::process::Command;

use crate::error::Error;

/// The merge result: its tree (written to the object database, as git does)
/// and the paths git could not merge.
#[derive(Debug, Clone)]
pub struct MergeTree {
    pub tree: gix::ObjectId,
    pub conflicts: Vec<String>,
}

/// Merges `theirs` into `ours`.
pub fn merge(
    project: &super::Project,
    ours: gix::ObjectId,
    theirs: gix::ObjectId,
) -> Result<MergeTree, Error> {
    merge_into(project, ours, theirs, None)
}

/// [`merge`], writing the merge's objects into the object folder `objects`
/// (a scratch folder) instead of the repository's, which git reads as an
/// alternate: the repository's object database is left as it was.
pub fn merge_aside(
    project: &super::Project,
    ours: gix::ObjectId,
    theirs: gix::ObjectId,
    objects: &Path,
) -> Result<MergeTree, Error> {
    merge_into(project, ours, theirs, Some(objects))
}

/// `git` in this repository, reading objects also from the repository's
/// object folder when `objects` is given, and writing them there.
pub(super) fn git_aside(project: &super::Project, objects: Option<&Path>) -> Command {
    let mut cmd = Command::new("git");
    cmd.arg("--git-dir")
        .arg(project.gix_repo().git_dir())
        .env_remove("GIT_INDEX_FILE");
    if let Some(objects) = objects {
        let own = project.common_dir().join("objects");
        let mut alternates = std::ffi::OsString::from(own.as_os_str());
        if let Some(more) = std::env::var_os("GIT_ALTERNATE_OBJECT_DIRECTORIES") {
            alternates.push(":");
            alternates.push(more);
        }
        cmd.env("GIT_OBJECT_DIRECTORY", objects)
            .env("GIT_ALTERNATE_OBJECT_DIRECTORIES", alternates);
    }
    cmd
}

fn merge_into(
    project: &super::Project,
    ours: gix::ObjectId,
    theirs: gix::ObjectId,
    objects: Option<&Path>,
) -> Result<MergeTree, Error> {
    let out = git_aside(project, objects)
        .args([
            "merge-tree",
            "--write-tree",
            "--name-only",
            "--no-messages",
            "-z",
        ])
        .arg(ours.to_string())
        .arg(theirs.to_string())
        .output()
        .map_err(|e| Error::Git(format!("cannot run `git merge-tree`: {e}")))?;
    let code = out.status.code();
    if !matches!(code, Some(0) | Some(1)) {
        return Err(Error::Refused {
            message: format!(
                "`git merge-tree --write-tree` failed: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            ),
            hint: Some("`verify --into` needs git 2.38 or newer on PATH".into()),
        });
    }
    let mut parts = out.stdout.split(|&b| b == 0).filter(|p| !p.is_empty());
    let tree = parts
        .next()
        .and_then(|t| gix::ObjectId::from_hex(t.trim_ascii()).ok())
        .ok_or_else(|| Error::Git("`git merge-tree` printed no tree".into()))?;
    let mut conflicts: Vec<String> = parts
        .map(|p| String::from_utf8_lossy(p).into_owned())
        .collect();
    conflicts.dedup();
    Ok(MergeTree { tree, conflicts })
}
