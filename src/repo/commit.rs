//! Building a commit of a [`ChangePlan`] without touching the working tree
//! (`reset --commit`): HEAD's tree and the index with exactly the plan's
//! writes and removals, as journal changes that move HEAD's branch and
//! replace the index together with the plan's files.

use std::collections::BTreeMap;

use standards_core::setup::change::{ChangePlan, Step};

use super::journal::Change;
use super::Project;
use crate::error::{Error, Result};

/// A commit's id, as the commands see it.
pub type CommitId = gix::ObjectId;

/// What the index holds beside HEAD, seen from a plan about to be committed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Staged {
    /// Only paths the plan covers differ from HEAD: a commit of the plan
    /// holds nothing else.
    Clean,
    /// An unmerged entry (the first one).
    Unmerged(String),
    /// Paths outside the plan that differ from HEAD, sorted.
    Others(Vec<String>),
}

/// HEAD's commit, `None` while the branch has none.
pub fn head(project: &Project) -> Option<gix::ObjectId> {
    project.repo.head_id().ok().map(|id| id.detach())
}

/// Compares the index with HEAD's tree outside the repository paths the
/// plan covers (project paths, so a project in a subfolder works).
pub fn staged(project: &Project, head: gix::ObjectId, plan: &ChangePlan) -> Result<Staged> {
    let head_files = tree_files(&project.repo, head)?;
    let index = project
        .repo
        .index_or_empty()
        .map_err(|e| Error::Git(format!("cannot read the index: {e}")))?;
    let mut staged = BTreeMap::new();
    for e in index.entries() {
        let path = e.path(&index).to_string();
        if e.stage_raw() != 0 {
            return Ok(Staged::Unmerged(path));
        }
        staged.insert(path, (e.id, e.mode.bits()));
    }
    let ours = |p: &str| {
        plan.changes().any(|step| {
            let full = project.repo_path(step.path());
            p == full || p.starts_with(&format!("{full}/"))
        })
    };
    let mut others: Vec<String> = Vec::new();
    for (path, entry) in &staged {
        if !ours(path) && head_files.get(path) != Some(entry) {
            others.push(path.clone());
        }
    }
    for path in head_files.keys() {
        if !ours(path) && !staged.contains_key(path) {
            others.push(path.clone());
        }
    }
    if others.is_empty() {
        return Ok(Staged::Clean);
    }
    others.sort();
    others.dedup();
    Ok(Staged::Others(others))
}

/// Every blob path of a commit's tree with its id and mode bits.
fn tree_files(
    repo: &gix::Repository,
    commit: gix::ObjectId,
) -> Result<BTreeMap<String, (gix::ObjectId, u32)>> {
    let git = |e: &dyn std::fmt::Display| Error::Git(format!("cannot read HEAD: {e}"));
    let tree = repo
        .find_commit(commit)
        .map_err(|e| git(&e))?
        .tree()
        .map_err(|e| git(&e))?;
    let mut recorder = gix::traverse::tree::Recorder::default();
    tree.traverse()
        .breadthfirst(&mut recorder)
        .map_err(|e| git(&e))?;
    Ok(recorder
        .records
        .into_iter()
        .filter(|r| !r.mode.is_tree())
        .map(|r| (r.filepath.to_string(), (r.oid, u32::from(r.mode.value()))))
        .collect())
}

/// A commit of a plan, written to the object database but not yet on any
/// ref: [`PlannedCommit::changes`] lands it with the journal.
#[derive(Debug, Clone)]
pub struct PlannedCommit {
    /// The index that matches the commit.
    pub index: Vec<u8>,
    /// The ref HEAD names (`HEAD` itself when detached).
    pub head_ref: String,
    pub old: gix::ObjectId,
    pub new: gix::ObjectId,
}

impl PlannedCommit {
    /// The journal changes that replace the index and move the ref.
    pub fn changes(&self) -> Vec<Change> {
        vec![
            Change::WriteGitFile {
                name: "index".into(),
                content: self.index.clone(),
            },
            Change::MoveRef {
                name: self.head_ref.clone(),
                old: Some(self.old),
                new: self.new,
            },
        ]
    }
}

/// Writes the commit of `plan` on `head` with `message`, and the index that
/// matches it: HEAD's tree and the index with the plan's removals and
/// writes, nothing else.
pub fn commit_plan(
    project: &Project,
    plan: &ChangePlan,
    head: gix::ObjectId,
    message: &str,
) -> Result<PlannedCommit> {
    let repo = &project.repo;
    let git = |what: &str, e: &dyn std::fmt::Display| Error::Git(format!("{what}: {e}"));
    let head_tree = repo
        .find_commit(head)
        .map_err(|e| git("cannot read HEAD", &e))?
        .tree_id()
        .map_err(|e| git("cannot read HEAD", &e))?
        .detach();
    let mut editor = repo
        .edit_tree(head_tree)
        .map_err(|e| git("cannot edit HEAD's tree", &e))?;
    let snapshot = repo
        .index_or_empty()
        .map_err(|e| git("cannot read the index", &e))?;
    let mut index: gix::index::File = (**snapshot).clone();
    let mut blobs = Vec::new();
    for step in plan.changes() {
        let full = project.repo_path(step.path());
        match step {
            Step::Remove { .. } => {
                editor
                    .remove(full.as_str())
                    .map_err(|e| git("cannot edit HEAD's tree", &e))?;
            }
            _ => {
                let content = step.content().unwrap_or_default();
                let id = repo
                    .write_blob(content.as_bytes())
                    .map_err(|e| git("cannot write a blob", &e))?
                    .detach();
                editor
                    .upsert(full.as_str(), gix::objs::tree::EntryKind::Blob, id)
                    .map_err(|e| git("cannot edit HEAD's tree", &e))?;
                blobs.push((full.clone(), id));
            }
        }
        index.remove_entries(|_, path, _| {
            let p = path.to_string();
            p == full || p.starts_with(&format!("{full}/"))
        });
    }
    for (path, id) in &blobs {
        index.dangerously_push_entry(
            Default::default(),
            *id,
            gix::index::entry::Flags::empty(),
            gix::index::entry::Mode::FILE,
            path.as_str().into(),
        );
    }
    index.sort_entries();
    // The cached trees no longer match the entries (gix writes them as they are).
    index.remove_tree();
    let tree = editor
        .write()
        .map_err(|e| git("cannot write the commit's tree", &e))?
        .detach();
    let sig = super::archive::signature(repo);
    let commit = gix::objs::Commit {
        tree,
        parents: [head].into_iter().collect(),
        author: sig.clone(),
        committer: sig,
        encoding: None,
        message: message.into(),
        extra_headers: Vec::new(),
    };
    let new = repo
        .write_object(&commit)
        .map_err(|e| git("cannot write the commit", &e))?
        .detach();
    let head_ref = match repo.head_name() {
        Ok(Some(name)) => name.as_bstr().to_string(),
        _ => "HEAD".to_string(),
    };
    let mut bytes = Vec::new();
    index
        .write_to(&mut bytes, gix::index::write::Options::default())
        .map_err(|e| git("cannot write the index", &e))?;
    Ok(PlannedCommit {
        index: bytes,
        head_ref,
        old: head,
        new,
    })
}
