//! The in-memory merge of two commits, as `verify --into` needs it: what a
//! merge would hold, computed without a checkout or an index. gix 0.90 has a
//! tree merge only behind its `merge` feature (gix-merge, blob diffs,
//! attributes and filters: a large share of a fresh CI build), so this runs
//! `git merge-tree --write-tree` (git 2.38 or newer), as D17 allows where we
//! do not take gix's equivalent.

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
    let out = Command::new("git")
        .arg("--git-dir")
        .arg(project.gix_repo().git_dir())
        .args([
            "merge-tree",
            "--write-tree",
            "--name-only",
            "--no-messages",
            "-z",
        ])
        .arg(ours.to_string())
        .arg(theirs.to_string())
        .env_remove("GIT_INDEX_FILE")
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
