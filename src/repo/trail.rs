//! The audit trail's storage (`notes`, `notes_sync`, `notes_config`) as the
//! commands reach it: each function takes the [`Project`] and hands the
//! repository to the storage, so the raw repository never leaves `repo`.

use std::path::PathBuf;
use std::time::Duration;

use super::notes::{self, Anchor, Appended, Note, StaleLock, WriterLock};
use super::notes_config::{self, Setting};
use super::notes_sync::{self, Git, MergePlan, Merged};
use super::{ObjectId, Project};
use crate::error::{Error, Result};

/// The commit the notes ref `name` points at, if it exists.
pub fn tip(project: &Project, name: &str) -> Result<Option<ObjectId>> {
    notes::tip(&project.repo, name)
}

/// The user's configured identity (name, email), if any.
pub fn identity(project: &Project) -> Option<(String, String)> {
    notes::identity(&project.repo)
}

/// Adds one event line to the note on `anchor` (see [`notes::append`]).
pub fn append(project: &Project, anchor: &Anchor, line: &str, message: &str) -> Result<Appended> {
    notes::append(&project.repo, anchor, line, message)
}

/// The note on `anchor`, if any.
pub fn read_anchor(project: &Project, anchor: &Anchor) -> Result<Option<Note>> {
    notes::read_anchor(&project.repo, anchor)
}

/// Every note of the trail, texts kept up to `budget` bytes (see [`notes::read_each`]).
pub fn read_each(
    project: &Project,
    budget: usize,
    visit: impl FnMut(usize, &[u8], Option<usize>),
) -> Result<standards_core::audit::order::Listed<ObjectId>> {
    notes::read_each(&project.repo, budget, visit)
}

/// A reader of note blobs one at a time (for the texts [`read_each`] did not keep).
pub fn note_reader(project: &Project) -> notes::NoteReader {
    notes::NoteReader::new(&project.repo)
}

/// Takes the trail's writer lock (see [`WriterLock::acquire`]).
pub fn writer_lock(project: &Project) -> Result<(WriterLock, Option<StaleLock>)> {
    WriterLock::acquire(&project.repo)
}

/// A ref lock of the notes ref no writer holds, and its age (see
/// [`notes::abandoned_ref_lock`]).
pub fn abandoned_ref_lock(project: &Project) -> Option<(PathBuf, Duration)> {
    notes::abandoned_ref_lock(&project.repo)
}

/// Sets the git settings the trail needs (see [`notes_config::configure`]).
pub fn configure(project: &Project, dry_run: bool) -> Result<Vec<Setting>> {
    notes_config::configure(&project.repo, dry_run)
}

/// The `git` CLI in this repository, for fetch and push (D17).
pub fn git(project: &Project) -> Git {
    Git::new(&project.repo)
}

/// Merges the fetched trail `remote` into ours (see [`notes_sync::merge`]).
pub fn merge(project: &Project, remote: ObjectId, message: &str) -> Result<Merged> {
    notes_sync::merge(&project.repo, remote, message)
}

/// What merging `remote` into `local` would do (see [`notes_sync::plan`]).
pub fn plan(
    project: &Project,
    local: Option<ObjectId>,
    remote: Option<ObjectId>,
) -> Result<MergePlan> {
    notes_sync::plan(&project.repo, local, remote)
}

/// Whether `of` descends from `ancestor` (see [`notes_sync::descends`]).
pub fn descends(project: &Project, ancestor: ObjectId, of: ObjectId) -> Result<bool> {
    notes_sync::descends(&project.repo, ancestor, of)
}

/// The commit a trail ref points at; a ref to anything else (a blob, a
/// tree) is refused with exit 1, never read as a trail (issue 21). `whose`
/// names the trail in the refusal ("this repository's").
pub fn notes_commit(project: &Project, name: &str, whose: &str) -> Result<Option<ObjectId>> {
    let Some(id) = tip(project, name)? else {
        return Ok(None);
    };
    if super::refs::is_commit(project, id) {
        return Ok(Some(id));
    }
    let kind = super::refs::kind_of(project, id);
    Err(Error::refused(
        format!("{whose} `{name}` points at {kind} ({id}), not a notes commit: it is not an audit trail, so nothing was fetched, merged or pushed"),
        Some(format!("inspect it with `git cat-file -p {id}`; a trail ref always points at a notes commit")),
    ))
}

/// The anchor a note annotates (see [`notes::anchor_of`]), to name a note
/// that holds a bad line.
pub fn anchor_of(project: &Project, annotated: ObjectId) -> Option<Anchor> {
    notes::anchor_of(&project.repo, annotated)
}
