//! What `git standards board` reads from git: every branch (local and
//! remote-tracking, each ref read once), upstreams and how far a branch is
//! from its upstream, linked worktrees, commit times, the commit that signed
//! a cycle off, and the in-memory merge of two commits (its objects written
//! to a scratch folder, never into the repository's object database).

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use gix::bstr::ByteSlice;

use super::{merge_tree, ObjectId, Project};
use crate::error::Error;

fn git_err(context: &str, e: impl std::fmt::Display) -> Error {
    Error::Git(format!("{context}: {e}"))
}

/// One branch name and the refs that carry it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Branch {
    /// The name without `refs/heads/` or `refs/remotes/<remote>/`.
    pub name: String,
    /// `refs/heads/<name>` and its commit, if the local branch exists.
    pub local: Option<(String, ObjectId)>,
    /// `refs/remotes/<remote>/<name>` and their commits.
    pub remotes: Vec<(String, ObjectId)>,
}

impl Branch {
    /// The commit the row shows: the local branch's, else the first
    /// remote-tracking branch's.
    pub fn tip(&self) -> Option<ObjectId> {
        self.local
            .as_ref()
            .map(|l| l.1)
            .or_else(|| self.remotes.first().map(|r| r.1))
    }
}

/// The configured remotes, sorted.
pub fn remotes(project: &Project) -> Vec<String> {
    let mut names: Vec<String> = project
        .repo
        .remote_names()
        .iter()
        .map(|n| n.to_string())
        .collect();
    names.sort();
    names
}

/// Every local branch and every remote-tracking branch of `remotes`, one
/// entry per name, sorted by name. Each ref is read once; a symbolic ref
/// (`refs/remotes/origin/HEAD`) is no branch.
pub fn branches(project: &Project, remotes: &[String]) -> Result<Vec<Branch>, Error> {
    let platform = project
        .repo
        .references()
        .map_err(|e| git_err("cannot list references", e))?;
    let mut by_name: std::collections::BTreeMap<String, Branch> = Default::default();
    let mut found: Vec<(String, bool, String, ObjectId)> = Vec::new();
    for prefix in ["refs/heads/", "refs/remotes/"] {
        for r in platform
            .prefixed(prefix)
            .map_err(|e| git_err("cannot list references", e))?
        {
            let r = r.map_err(|e| git_err("cannot read a reference", e))?;
            let full = r.name().as_bstr().to_string();
            let id = match r.target().try_id() {
                Some(id) => id.to_owned(),
                None => continue,
            };
            let rest = &full[prefix.len()..];
            if prefix == "refs/heads/" {
                found.push((rest.to_string(), true, full.clone(), id));
            } else {
                // The longest remote name the ref starts with.
                let remote = remotes
                    .iter()
                    .filter(|n| rest.starts_with(&format!("{n}/")))
                    .max_by_key(|n| n.len());
                if let Some(remote) = remote {
                    let name = &rest[remote.len() + 1..];
                    found.push((name.to_string(), false, full.clone(), id));
                }
            }
        }
    }
    for (name, local, full, id) in found {
        let branch = by_name.entry(name.clone()).or_insert_with(|| Branch {
            name,
            local: None,
            remotes: Vec::new(),
        });
        if local {
            branch.local = Some((full, id));
        } else {
            branch.remotes.push((full, id));
        }
    }
    Ok(by_name.into_values().collect())
}

/// The remote-tracking ref the local branch `full` (`refs/heads/<name>`)
/// follows, as `git rev-parse <name>@{upstream}` names it.
pub fn upstream(project: &Project, full: &str) -> Option<String> {
    let name: &gix::refs::FullNameRef = full.try_into().ok()?;
    project
        .repo
        .branch_remote_tracking_ref_name(name, gix::remote::Direction::Fetch)?
        .ok()
        .map(|n| n.as_bstr().to_string())
}

/// How many commits `a` has that `b` lacks, and how many `b` has that `a`
/// lacks (`git rev-list --left-right --count a...b`).
pub fn ahead_behind(project: &Project, a: ObjectId, b: ObjectId) -> Result<(usize, usize), Error> {
    let count = |tip: ObjectId, hidden: ObjectId| -> Result<usize, Error> {
        let walk = project
            .repo
            .rev_walk([tip])
            .with_hidden([hidden])
            .all()
            .map_err(|e| git_err("cannot walk the history", e))?;
        let mut n = 0;
        for info in walk {
            info.map_err(|e| git_err("cannot walk the history", e))?;
            n += 1;
        }
        Ok(n)
    };
    if a == b {
        return Ok((0, 0));
    }
    Ok((count(a, b)?, count(b, a)?))
}

/// The commit time of `id`, as RFC 3339 (UTC).
pub fn commit_time(project: &Project, id: ObjectId) -> Option<String> {
    let commit = project.repo.find_commit(id).ok()?;
    let seconds = commit.time().ok()?.seconds;
    chrono::DateTime::from_timestamp(seconds, 0).map(standards_core::audit::format_ts)
}

/// The object ID of the file `path` (repository-relative) in `commit`.
fn entry_at(project: &Project, commit: ObjectId, path: &str) -> Option<ObjectId> {
    let tree = project.repo.find_commit(commit).ok()?.tree().ok()?;
    let entry = tree.lookup_entry_by_path(path).ok()??;
    (!entry.mode().is_tree()).then(|| entry.object_id())
}

/// The oldest commit of `tip`'s first-parent line that holds the same
/// `path` (the signed-off STATE.md) as `tip`, without a different one in
/// between: where the cycle was signed off. Looks back at most `limit`
/// commits; `None` when `tip` lacks the file.
pub fn unchanged_since(
    project: &Project,
    tip: ObjectId,
    path: &str,
    limit: usize,
) -> Option<ObjectId> {
    let want = entry_at(project, tip, path)?;
    let mut since = tip;
    for _ in 0..limit {
        let Some(parent) = project
            .repo
            .find_commit(since)
            .ok()
            .and_then(|c| c.parent_ids().next().map(|p| p.detach()))
        else {
            break;
        };
        if entry_at(project, parent, path) != Some(want) {
            break;
        }
        since = parent;
    }
    Some(since)
}

/// The top folders of the linked worktrees (not the main one).
pub fn linked_worktrees(project: &Project) -> Result<Vec<PathBuf>, Error> {
    let proxies = project
        .repo
        .worktrees()
        .map_err(|e| git_err("cannot list the worktrees", e))?;
    let mut out = Vec::new();
    for p in proxies {
        if let Ok(base) = p.base() {
            out.push(base);
        }
    }
    out.sort();
    Ok(out)
}

/// A merge computed aside: the paths left in conflict and the number of
/// conflicting hunks in them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Merged {
    pub conflicted: Vec<String>,
    pub hunks: usize,
}

/// A scratch object folder for the board's merges, removed when dropped.
pub struct MergeScratch {
    dir: tempfile::TempDir,
}

impl MergeScratch {
    pub fn new() -> Result<MergeScratch, Error> {
        let dir = tempfile::Builder::new()
            .prefix("git-standards-board-")
            .tempdir()
            .map_err(|e| Error::io(std::env::temp_dir(), e))?;
        std::fs::create_dir_all(dir.path().join("objects"))
            .map_err(|e| Error::io(dir.path(), e))?;
        Ok(MergeScratch { dir })
    }

    fn objects(&self) -> PathBuf {
        self.dir.path().join("objects")
    }

    /// Merges `theirs` into `ours` as `git merge-tree --write-tree` does,
    /// its objects written to the scratch folder; counts the conflicting
    /// hunks (`<<<<<<<` lines) of each conflicted file, one for a file
    /// without markers (deleted on one side, binary).
    pub fn merge(
        &self,
        project: &Project,
        ours: ObjectId,
        theirs: ObjectId,
    ) -> Result<Merged, Error> {
        let objects = self.objects();
        let merged = merge_tree::merge_aside(project, ours, theirs, &objects)?;
        let hunks = if merged.conflicts.is_empty() {
            0
        } else {
            count_hunks(project, &objects, merged.tree, &merged.conflicts)?
        };
        Ok(Merged {
            conflicted: merged.conflicts,
            hunks,
        })
    }
}

/// The conflicting hunks of `paths` in the merge result `tree`, read with
/// one `git cat-file --batch` from the scratch folder.
fn count_hunks(
    project: &Project,
    objects: &Path,
    tree: ObjectId,
    paths: &[String],
) -> Result<usize, Error> {
    let mut child = merge_tree::git_aside(project, Some(objects))
        .args(["cat-file", "--batch"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| Error::Git(format!("cannot read the merge result with git: {e}")))?;
    let mut input = Vec::new();
    for p in paths {
        input.extend_from_slice(format!("{tree}:{p}\n").as_bytes());
    }
    let mut stdin = child.stdin.take().expect("piped");
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let out = child
        .wait_with_output()
        .map_err(|e| Error::Git(format!("cannot read the merge result with git: {e}")))?;
    let _ = writer.join();
    let mut rest: &[u8] = &out.stdout;
    let mut hunks = 0;
    for _ in paths {
        let Some(nl) = rest.iter().position(|b| *b == b'\n') else {
            break;
        };
        let header = rest[..nl].to_str_lossy().into_owned();
        rest = &rest[nl + 1..];
        let size = header
            .rsplit(' ')
            .next()
            .and_then(|s| s.parse::<usize>().ok())
            .filter(|_| !header.ends_with(" missing") && header.contains(" blob "));
        match size {
            Some(size) if size <= rest.len() => {
                let body = &rest[..size];
                rest = rest.get(size + 1..).unwrap_or_default();
                let n = body
                    .split(|b| *b == b'\n')
                    .filter(|l| l.starts_with(b"<<<<<<< ") || *l == b"<<<<<<<")
                    .count();
                hunks += n.max(1);
            }
            _ => hunks += 1,
        }
    }
    Ok(hunks)
}
