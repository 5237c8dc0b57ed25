//! The audit trail's storage: git notes under `refs/notes/standards` (D16).
//!
//! Events hang on content-addressed anchors, not on commits: one blob per cycle
//! whose bytes derive from the cycle ID alone (every clone computes the same
//! ID), and one project blob for events outside any cycle. Each anchor blob is
//! also a non-note entry `anchors/<anchor id>` of the notes tree, so the notes
//! ref keeps it reachable: `git gc` never drops it and `git notes prune` never
//! sees a note on a missing object. Squash merges, rebases and deleted
//! branches do not touch the notes ref at all.
//!
//! Appends are read-modify-write under one compare-and-swap update of the
//! ref (git-facts 9.4), retried with jitter a bounded number of times.

use std::time::Duration;

use gix::hash::ObjectId;
use gix::refs::transaction::PreviousValue;
use gix::refs::Target;

use crate::audit::merge_note_text;
use crate::error::{Error, Result};

/// The notes ref holding the trail.
pub const NOTES_REF: &str = "refs/notes/standards";
/// The non-note subtree of the notes tree that keeps anchor blobs reachable.
pub const ANCHORS_DIR: &str = "anchors";
/// How many times an append re-reads and retries after losing a race.
pub const MAX_ATTEMPTS: usize = 50;
/// The first line of every anchor blob.
const ANCHOR_HEADER: &str = "git-standards audit anchor v1\n";

/// What a note hangs on.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Anchor {
    /// Events outside any cycle.
    Project,
    /// One cycle's events.
    Cycle(String),
}

impl Anchor {
    /// The anchor for an event: its cycle's, else the project's.
    pub fn for_cycle(cycle: Option<&str>) -> Anchor {
        match cycle {
            Some(c) => Anchor::Cycle(c.to_string()),
            None => Anchor::Project,
        }
    }

    /// The blob's bytes: derived from the cycle ID alone.
    pub fn bytes(&self) -> Vec<u8> {
        match self {
            Anchor::Project => format!("{ANCHOR_HEADER}project\n"),
            Anchor::Cycle(id) => format!("{ANCHOR_HEADER}cycle {id}\n"),
        }
        .into_bytes()
    }

    /// The blob ID, computed without touching the object database.
    pub fn id(&self, hash: gix::hash::Kind) -> Result<ObjectId> {
        gix::objs::compute_hash(hash, gix::objs::Kind::Blob, &self.bytes())
            .map_err(|e| git("cannot hash an audit anchor", e))
    }

    /// Reads an anchor back from its blob's bytes.
    pub fn parse(bytes: &[u8]) -> Option<Anchor> {
        let rest = std::str::from_utf8(bytes)
            .ok()?
            .strip_prefix(ANCHOR_HEADER)?;
        let rest = rest.strip_suffix('\n')?;
        if rest == "project" {
            return Some(Anchor::Project);
        }
        rest.strip_prefix("cycle ")
            .filter(|id| !id.is_empty() && !id.contains('\n'))
            .map(|id| Anchor::Cycle(id.to_string()))
    }
}

impl std::fmt::Display for Anchor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Anchor::Project => f.write_str("the project anchor"),
            Anchor::Cycle(id) => write!(f, "the anchor of cycle {id}"),
        }
    }
}

fn git(what: &str, e: impl std::fmt::Display) -> Error {
    Error::Git(format!("{what}: {e}"))
}

/// The commit a ref points at, or `None` when it does not exist.
pub fn tip(repo: &gix::Repository, name: &str) -> Result<Option<ObjectId>> {
    let Some(mut r) = repo
        .try_find_reference(name)
        .map_err(|e| git(&format!("cannot read `{name}`"), e))?
    else {
        return Ok(None);
    };
    let id = r
        .peel_to_id()
        .map_err(|e| git(&format!("cannot resolve `{name}`"), e))?
        .detach();
    Ok(Some(id))
}

/// The root tree of a notes commit (the empty tree for none).
fn root_tree(repo: &gix::Repository, tip: Option<ObjectId>) -> Result<ObjectId> {
    match tip {
        None => Ok(ObjectId::empty_tree(repo.object_hash())),
        Some(c) => {
            let commit = repo.find_commit(c).map_err(|e| {
                git(
                    &format!("`{NOTES_REF}` does not point at a commit ({c})"),
                    e,
                )
            })?;
            Ok(commit
                .tree_id()
                .map_err(|e| git("cannot read a notes commit's tree", e))?
                .detach())
        }
    }
}

/// The configured identity (`user.name`, `user.email`, or git's environment
/// variables), or `None` (D18).
pub fn identity(repo: &gix::Repository) -> Option<(String, String)> {
    let sig = repo.author()?.ok()?;
    let (name, email) = (sig.name.to_string(), sig.email.to_string());
    (!name.trim().is_empty()).then_some((name, email))
}

/// A handle that can always write commits and reflogs: with the user's
/// identity, or with the tool's when none is configured (D18: never fail for
/// lack of an identity). The event's `actor` is taken from the original.
pub fn writer(repo: &gix::Repository) -> gix::Repository {
    let mut repo = repo.clone();
    if repo.committer().is_none() || repo.author().is_none() {
        let mut config = gix::config::File::new(gix::config::file::Metadata::api());
        for (key, value) in [
            ("gitoxide.committer.nameFallback", "git-standards"),
            (
                "gitoxide.committer.emailFallback",
                "git-standards@localhost",
            ),
            ("gitoxide.author.nameFallback", "git-standards"),
            ("gitoxide.author.emailFallback", "git-standards@localhost"),
        ] {
            let _ = config.set_raw_value(key, value);
        }
        let _ = repo.config_snapshot_mut().append(config);
    }
    repo
}

/// Writes a notes commit (use a [`writer`] handle).
pub fn write_commit(
    repo: &gix::Repository,
    message: &str,
    tree: ObjectId,
    parents: &[ObjectId],
) -> Result<ObjectId> {
    Ok(repo
        .new_commit(message, tree, parents.iter().copied())
        .map_err(|e| git("cannot write a notes commit", e))?
        .id)
}

/// How a CAS move of the notes ref ended.
pub enum Moved {
    Done,
    /// Another writer moved the ref first, or held its lock: redo the step.
    Raced(String),
}

/// Moves `name` from `expected` to `new` only if it still points at `expected`.
pub fn move_ref(
    repo: &gix::Repository,
    name: &str,
    expected: Option<ObjectId>,
    new: ObjectId,
    message: &str,
) -> Result<Moved> {
    let constraint = match expected {
        Some(c) => PreviousValue::MustExistAndMatch(Target::Object(c)),
        None => PreviousValue::MustNotExist,
    };
    match repo.reference(name, new, constraint, message) {
        Ok(_) => Ok(Moved::Done),
        Err(e) if e.is_conflict() || e.is_retryable() => Ok(Moved::Raced(describe_race(&e))),
        Err(e) => Err(git(&format!("cannot update `{name}`"), e)),
    }
}

fn describe_race(e: &gix::Error) -> String {
    use gix::refs::file::transaction::prepare::{MustNotExist, ReferenceOutOfDate};
    if let Some(ood) = e.downcast_any_ref::<ReferenceOutOfDate>() {
        return format!("{} moved to {}", ood.full_name, ood.actual);
    }
    if let Some(m) = e.downcast_any_ref::<MustNotExist>() {
        return format!("{} was created at {}", m.full_name, m.actual);
    }
    format!("another process held the lock of the ref ({e})")
}

/// A short random pause before retry `attempt` (1-based): up to 2^attempt ms, at most 64.
pub fn backoff(attempt: usize) {
    let mut byte = [0u8; 1];
    let _ = getrandom::fill(&mut byte);
    let cap = 1u64 << attempt.min(6);
    std::thread::sleep(Duration::from_millis(u64::from(byte[0]) % (cap + 1)));
}

/// The result of a successful append.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Appended {
    /// The new notes commit.
    pub commit: ObjectId,
    /// How many tries it took (1 without a race).
    pub attempts: usize,
}

/// Adds `line` (one event, no newline) to the note on `anchor`: the note
/// stays sorted and unique, exactly as `cat_sort_uniq` would leave it.
pub fn append(
    repo: &gix::Repository,
    anchor: &Anchor,
    line: &str,
    message: &str,
) -> Result<Appended> {
    debug_assert!(!line.contains('\n'));
    let repo = &writer(repo);
    let anchor_blob = repo
        .write_blob(anchor.bytes())
        .map_err(|e| git("cannot write an audit anchor", e))?
        .detach();
    let anchor_path = format!("{ANCHORS_DIR}/{anchor_blob}");
    let mut last_race = String::new();
    for attempt in 1..=MAX_ATTEMPTS {
        let tip = tip(repo, NOTES_REF)?;
        let root = root_tree(repo, tip)?;
        let mut state = gix::note::plumbing::State::new(root, repo)
            .map_err(|e| git("cannot read the notes tree", e))?;
        let old = match state
            .get(&anchor_blob, repo)
            .map_err(|e| git("cannot read a note", e))?
        {
            Some(blob) => repo
                .find_blob(blob)
                .map_err(|e| git("cannot read a note blob", e))?
                .take_data(),
            None => Vec::new(),
        };
        let text = merge_note_text(&old, line.as_bytes());
        let blob = repo
            .write_blob(&text)
            .map_err(|e| git("cannot write a note blob", e))?
            .detach();
        let edit = state
            .replace(anchor_blob, blob, repo)
            .map_err(|e| git("cannot edit the notes tree", e))?;
        let tree = keep_anchor(repo, edit.tree, &anchor_path, anchor_blob)?;
        let commit = write_commit(repo, message, tree, tip.as_slice())?;
        match move_ref(repo, NOTES_REF, tip, commit, message)? {
            Moved::Done => {
                return Ok(Appended {
                    commit,
                    attempts: attempt,
                })
            }
            Moved::Raced(why) => {
                last_race = why;
                backoff(attempt);
            }
        }
    }
    Err(Error::Git(format!(
        "`{NOTES_REF}` kept moving under other writers: gave up after {MAX_ATTEMPTS} attempts (last: {last_race})"
    )))
}

/// The notes tree with the anchor's non-note entry added (if missing).
fn keep_anchor(
    repo: &gix::Repository,
    tree: ObjectId,
    path: &str,
    anchor: ObjectId,
) -> Result<ObjectId> {
    let present = repo
        .find_tree(tree)
        .map_err(|e| git("cannot read the notes tree", e))?
        .lookup_entry_by_path(path)
        .map_err(|e| git("cannot read the notes tree", e))?
        .is_some_and(|e| e.object_id() == anchor);
    if present {
        return Ok(tree);
    }
    let mut editor = repo
        .edit_tree(tree)
        .map_err(|e| git("cannot edit the notes tree", e))?;
    editor
        .upsert(path, gix::objs::tree::EntryKind::Blob, anchor)
        .map_err(|e| git("cannot edit the notes tree", e))?;
    Ok(editor
        .write()
        .map_err(|e| git("cannot write the notes tree", e))?
        .detach())
}

/// One note of the trail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    /// The annotated object (an anchor blob, for notes this tool wrote).
    pub annotated: ObjectId,
    /// The anchor, when the annotated object is one.
    pub anchor: Option<Anchor>,
    pub text: Vec<u8>,
}

impl Note {
    /// How a report names the note: its anchor, else the annotated ID.
    pub fn describe(&self) -> String {
        match &self.anchor {
            Some(a) => format!("the note on {a} ({})", self.annotated),
            None => format!("the note on {}", self.annotated),
        }
    }
}

/// Every note under the notes tree of `commit`: (annotated ID, note blob ID).
/// Accepts any fanout; skips non-note entries (the anchors folder).
pub fn list_notes(repo: &gix::Repository, commit: ObjectId) -> Result<Vec<(ObjectId, ObjectId)>> {
    let root = root_tree(repo, Some(commit))?;
    let hex_len = repo.object_hash().len_in_hex();
    let mut out = Vec::new();
    let mut stack = vec![(root, String::new())];
    while let Some((tree, prefix)) = stack.pop() {
        let tree = repo
            .find_tree(tree)
            .map_err(|e| git("cannot read the notes tree", e))?;
        let decoded = tree
            .decode()
            .map_err(|e| git("cannot decode the notes tree", e))?;
        for entry in &decoded.entries {
            let Ok(name) = std::str::from_utf8(entry.filename) else {
                continue;
            };
            if !name.bytes().all(|b| b.is_ascii_hexdigit()) {
                continue;
            }
            let path = format!("{prefix}{name}");
            if entry.mode.is_tree() && name.len() == 2 && path.len() < hex_len {
                stack.push((entry.oid.to_owned(), path));
            } else if entry.mode.is_blob() && path.len() == hex_len {
                if let Ok(id) = ObjectId::from_hex(path.as_bytes()) {
                    out.push((id, entry.oid.to_owned()));
                }
            }
        }
    }
    out.sort();
    Ok(out)
}

fn read_blob(repo: &gix::Repository, id: ObjectId) -> Result<Vec<u8>> {
    Ok(repo
        .find_blob(id)
        .map_err(|e| git(&format!("cannot read blob {id}"), e))?
        .take_data())
}

/// The anchor an annotated object is, if it is one and exists.
fn anchor_of(repo: &gix::Repository, annotated: ObjectId) -> Option<Anchor> {
    let blob = repo.find_blob(annotated).ok()?;
    Anchor::parse(&blob.data)
}

/// Every note of the trail (empty when the ref does not exist).
pub fn read_all(repo: &gix::Repository) -> Result<Vec<Note>> {
    let Some(tip) = tip(repo, NOTES_REF)? else {
        return Ok(Vec::new());
    };
    list_notes(repo, tip)?
        .into_iter()
        .map(|(annotated, blob)| {
            Ok(Note {
                annotated,
                anchor: anchor_of(repo, annotated),
                text: read_blob(repo, blob)?,
            })
        })
        .collect()
}

/// The note on one anchor: a single lookup.
pub fn read_anchor(repo: &gix::Repository, anchor: &Anchor) -> Result<Option<Note>> {
    let Some(tip) = tip(repo, NOTES_REF)? else {
        return Ok(None);
    };
    let annotated = anchor.id(repo.object_hash())?;
    let mut state = gix::note::plumbing::State::new(root_tree(repo, Some(tip))?, repo)
        .map_err(|e| git("cannot read the notes tree", e))?;
    let Some(blob) = state
        .get(&annotated, repo)
        .map_err(|e| git("cannot read a note", e))?
    else {
        return Ok(None);
    };
    Ok(Some(Note {
        annotated,
        anchor: Some(anchor.clone()),
        text: read_blob(repo, blob)?,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchors_derive_from_the_cycle_id_alone() {
        let a = Anchor::Cycle("x-20260101T000000Z-00000000".into());
        assert_eq!(Anchor::parse(&a.bytes()), Some(a.clone()));
        assert_eq!(
            Anchor::parse(&Anchor::Project.bytes()),
            Some(Anchor::Project)
        );
        let sha1 = gix::hash::Kind::Sha1;
        assert_eq!(a.id(sha1).unwrap(), a.id(sha1).unwrap());
        assert_ne!(a.id(sha1).unwrap(), Anchor::Project.id(sha1).unwrap());
        assert_eq!(Anchor::parse(b"something else"), None);
    }
}
