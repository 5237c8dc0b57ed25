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
//! ref (git-facts 9.4), retried with jitter a bounded number of times. This
//! tool's writers of the ref also hold an OS lock ([`WriterLock`]), which the
//! kernel releases when a writer dies: a `refs/notes/standards.lock` that a
//! killed writer left behind is then told from a live one and removed.

use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use gix::hash::ObjectId;
use gix::refs::transaction::PreviousValue;
use gix::refs::Target;

use crate::error::{Error, Result};
use standards_core::audit::merge_note_text;
use standards_core::audit::order::Listed;

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
            // Bad input, not an internal error (issue 21): exit 1.
            let commit = repo.find_commit(c).map_err(|_| {
                let kind = repo
                    .find_object(c)
                    .map(|o| format!("a {}", o.kind))
                    .unwrap_or_else(|_| "a missing object".to_string());
                Error::refused(
                    format!("`{NOTES_REF}` points at {kind} ({c}), not a notes commit: it is not an audit trail"),
                    Some(format!("inspect it with `git cat-file -p {c}`; a trail ref always points at a notes commit")),
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

/// The failpoints of an append (see `crate::repo::failpoint`).
pub const FAILPOINTS: &[&str] = &["audit:ref-locked"];

/// Moves `name` from `expected` to `new` only if it still points at `expected`.
/// Between taking git's ref lock and committing, a writer killed at the
/// failpoint `audit:ref-locked` leaves the lock as a real kill would.
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
    let full: gix::refs::FullName = name
        .try_into()
        .map_err(|e| git(&format!("`{name}` is not a valid ref name"), e))?;
    let edit = gix::refs::transaction::RefEdit::update(full, new, constraint, message);
    let fail = gix::lock::acquire::Fail::Immediately;
    let moved = (|| -> std::result::Result<(), gix::Error> {
        let committer = repo.committer().transpose()?;
        let transaction = repo.refs.transaction().prepare(Some(edit), fail, fail)?;
        super::failpoint::hit("audit:ref-locked");
        transaction.commit(committer)?;
        Ok(())
    })();
    match moved {
        Ok(()) => Ok(Moved::Done),
        Err(e) if e.is_conflict() || e.is_retryable() => Ok(Moved::Raced(describe_race(&e))),
        Err(e) => Err(git(&format!("cannot update `{name}`"), e)),
    }
}

/// The OS lock file (in the common git folder) that this tool's writers of
/// the notes ref hold; while one moves the ref it records its process in it.
pub const WRITER_LOCK: &str = "git-standards-notes.lock";
/// How long a writer waits for the others (each holds the lock for milliseconds).
const WRITER_WAIT: Duration = Duration::from_secs(30);
/// A live git holds a ref lock for milliseconds; one this old is not being written.
const LIVE_REF_LOCK: Duration = Duration::from_secs(1);

/// A ref lock that a killed writer left and that was removed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaleLock {
    pub path: PathBuf,
    /// The process that was moving the ref when it died.
    pub pid: u32,
}

impl std::fmt::Display for StaleLock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Removed `{}`: git standards process {} was killed while it updated the audit trail (its own event was not recorded; every other event is kept).",
            self.path.display(),
            self.pid
        )
    }
}

/// Exclusive among this tool's writers of the notes ref, in every worktree;
/// the kernel releases it when the holder dies. An OS lock, not a
/// `gix::lock` file: the ref itself is locked by gix (`<ref>.lock`), and
/// this lock exists to prove a killed writer dead so its `<ref>.lock` may
/// be removed, which a lock file that a kill leaves behind cannot prove.
pub struct WriterLock {
    file: std::fs::File,
}

impl WriterLock {
    /// Waits (bounded) for the other writers, then removes the ref lock of a
    /// writer that died while it moved the ref, if one is left.
    pub fn acquire(repo: &gix::Repository) -> Result<(WriterLock, Option<StaleLock>)> {
        let path = repo.common_dir().join(WRITER_LOCK);
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .open(&path)
            .map_err(|e| Error::io(&path, e))?;
        let locked = super::handles::lock_within(&file, WRITER_WAIT, Duration::from_millis(2))
            .map_err(|e| Error::io(&path, e))?;
        if !locked {
            return Err(Error::Git(format!(
                "another git standards process has held `{}` for more than {} s",
                path.display(),
                WRITER_WAIT.as_secs()
            )));
        }
        let mut lock = WriterLock { file };
        let stale = lock
            .clear_dead_writer(repo)
            .map_err(|e| Error::io(&path, e))?;
        Ok((lock, stale))
    }

    /// Moves the ref (see [`move_ref`]) with this process recorded as the one
    /// holding git's ref lock, so that a kill in between can be cleaned up.
    pub fn move_ref(
        &mut self,
        repo: &gix::Repository,
        name: &str,
        expected: Option<ObjectId>,
        new: ObjectId,
        message: &str,
    ) -> Result<Moved> {
        let pid = std::process::id();
        self.record(&format!("{pid} {}\n", start_time(pid).unwrap_or(0)))
            .map_err(|e| Error::Git(format!("cannot write `{WRITER_LOCK}`: {e}")))?;
        let moved = move_ref(repo, name, expected, new, message);
        self.record("")
            .map_err(|e| Error::Git(format!("cannot write `{WRITER_LOCK}`: {e}")))?;
        moved
    }

    fn record(&mut self, text: &str) -> std::io::Result<()> {
        self.file.set_len(0)?;
        self.file.rewind()?;
        self.file.write_all(text.as_bytes())
    }

    /// The writer recorded as moving the ref. Holding the lock proves it is
    /// gone (the kernel released its lock); its pid and start time are checked too.
    fn clear_dead_writer(&mut self, repo: &gix::Repository) -> std::io::Result<Option<StaleLock>> {
        let mut text = String::new();
        self.file.rewind()?;
        self.file.read_to_string(&mut text)?;
        let mut words = text.split_whitespace().map(str::parse::<u64>);
        let (Some(Ok(pid)), Some(Ok(start))) = (words.next(), words.next()) else {
            return Ok(None);
        };
        let Ok(pid) = u32::try_from(pid) else {
            return Ok(None);
        };
        if pid == std::process::id() || (start != 0 && start_time(pid) == Some(start)) {
            // Still running (it handed its descriptor on): never break its lock.
            return Ok(None);
        }
        let ref_lock = repo.common_dir().join(format!("{NOTES_REF}.lock"));
        let removed = remove_unless_live(&ref_lock)?;
        self.record("")?;
        Ok(removed.then_some(StaleLock {
            path: ref_lock,
            pid,
        }))
    }
}

/// Removes `lock` unless it is gone or younger than a live git's ref lock
/// (waiting for it to age, or to vanish, first).
fn remove_unless_live(lock: &Path) -> std::io::Result<bool> {
    let deadline = std::time::Instant::now() + 2 * LIVE_REF_LOCK;
    loop {
        let meta = match std::fs::symlink_metadata(lock) {
            Ok(m) => m,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
            Err(e) => return Err(e),
        };
        let age = meta
            .modified()
            .ok()
            .and_then(|t| t.elapsed().ok())
            .unwrap_or_default();
        if age >= LIVE_REF_LOCK || std::time::Instant::now() >= deadline {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    match std::fs::remove_file(lock) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(e),
    }
}

/// When process `pid` started (in clock ticks since boot, Linux `/proc`),
/// so that a reused pid is not taken for the writer that died.
fn start_time(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) may hold spaces; fields after it are plain.
    let after_name = &stat[stat.rfind(')')? + 1..];
    after_name.split_whitespace().nth(19)?.parse().ok()
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
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Appended {
    /// The new notes commit.
    pub commit: ObjectId,
    /// How many tries it took (1 without a race).
    pub attempts: usize,
    /// The ref lock of a killed writer that this append removed first.
    pub stale_lock: Option<StaleLock>,
}

/// Adds `line` (one event, no newline) to the note on `anchor`: the note
/// stays sorted and unique, exactly as `cat_sort_uniq` would leave it.
pub fn append(
    repo: &gix::Repository,
    anchor: &Anchor,
    line: &str,
    message: &str,
) -> Result<Appended> {
    append_inner(repo, anchor, line, None, message)
}

/// [`append`] of the event whose ID is `id`, unless the note already holds
/// it: a journalled event replayed by `recover` is never recorded twice.
pub fn append_once(
    repo: &gix::Repository,
    anchor: &Anchor,
    line: &str,
    id: &str,
    message: &str,
) -> Result<Appended> {
    append_inner(repo, anchor, line, Some(id), message)
}

/// Whether the note text holds the event `id` (its `"id"` key; a value
/// holding the same characters is JSON-escaped, so never matches).
fn holds_event(text: &[u8], id: &str) -> bool {
    let needle = format!("\"id\":\"{id}\"");
    text.split(|b| *b == b'\n')
        .any(|l| l.windows(needle.len()).any(|w| w == needle.as_bytes()))
}

/// A ref lock that no writer of this tool holds (the caller holds the
/// [`WriterLock`]) and that is older than any live git's: the leftover of a
/// killed process. `None` when absent or young.
pub fn abandoned_ref_lock(repo: &gix::Repository) -> Option<(PathBuf, Duration)> {
    let path = repo.common_dir().join(format!("{NOTES_REF}.lock"));
    let age = std::fs::symlink_metadata(&path)
        .ok()?
        .modified()
        .ok()?
        .elapsed()
        .unwrap_or_default();
    (age >= LIVE_REF_LOCK).then_some((path, age))
}

/// The refusal for an abandoned ref lock: it names the lock and `recover`.
fn abandoned_error(path: &Path, age: Duration) -> Error {
    Error::refused(
        format!(
            "`{}` was left {} s ago by a process that is gone (no git standards writer holds it, and git holds a ref lock for milliseconds), so the audit trail cannot be written",
            path.display(),
            age.as_secs()
        ),
        Some("run `git standards recover`, which removes it".into()),
    )
}

fn append_inner(
    repo: &gix::Repository,
    anchor: &Anchor,
    line: &str,
    once: Option<&str>,
    message: &str,
) -> Result<Appended> {
    debug_assert!(!line.contains('\n'));
    let repo = &writer(repo);
    let anchor_blob = repo
        .write_blob(anchor.bytes())
        .map_err(|e| git("cannot write an audit anchor", e))?
        .detach();
    let (mut lock, stale_lock) = WriterLock::acquire(repo)?;
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
        if once.is_some_and(|id| holds_event(&old, id)) {
            return Ok(Appended {
                commit: tip.unwrap_or_else(|| repo.object_hash().null()),
                attempts: attempt,
                stale_lock,
            });
        }
        let text = merge_note_text(&old, line.as_bytes());
        let blob = repo
            .write_blob(&text)
            .map_err(|e| git("cannot write a note blob", e))?
            .detach();
        let staged = Staged::new(repo);
        state
            .edit(anchor_blob, Some(blob), repo)
            .map_err(|e| git("cannot edit the notes tree", e))?;
        let notes_root = state
            .write(&staged)
            .map_err(|e| git("cannot write the notes tree", e))?;
        let tree = keep_anchors(repo, &staged, notes_root, &[(anchor_blob, anchor_blob)])?;
        let commit = write_commit(repo, message, tree, tip.as_slice())?;
        match lock.move_ref(repo, NOTES_REF, tip, commit, message)? {
            Moved::Done => {
                drop(lock);
                super::notes_gc::after_write(repo);
                return Ok(Appended {
                    commit,
                    attempts: attempt,
                    stale_lock,
                });
            }
            Moved::Raced(why) => {
                // Only a git outside this tool can hold the ref lock now; one
                // that holds it longer than any live git does is gone.
                if let Some((path, age)) = abandoned_ref_lock(repo) {
                    return Err(abandoned_error(&path, age));
                }
                last_race = why;
                backoff(attempt);
            }
        }
    }
    Err(Error::Git(format!(
        "`{NOTES_REF}` kept moving under other writers: gave up after {MAX_ATTEMPTS} attempts (last: {last_race})"
    )))
}

/// Objects written while a notes tree is built, held in memory until the
/// final tree is known: only what that tree reaches is then written to the
/// repository, so a tree that is rewritten once more in the same step (the
/// root, when an anchor is added) never lands as garbage.
pub struct Staged<'r> {
    repo: &'r gix::Repository,
    objects: std::cell::RefCell<std::collections::HashMap<ObjectId, (gix::objs::Kind, Vec<u8>)>>,
}

impl<'r> Staged<'r> {
    pub fn new(repo: &'r gix::Repository) -> Staged<'r> {
        Staged {
            repo,
            objects: Default::default(),
        }
    }

    /// Writes the staged objects that `root` reaches to the repository.
    pub fn flush(&self, root: ObjectId) -> Result<()> {
        let objects = self.objects.borrow();
        let mut stack = vec![root];
        while let Some(id) = stack.pop() {
            let Some((kind, data)) = objects.get(&id) else {
                continue; // already in the repository
            };
            gix::objs::Write::write_buf_with_known_id(self.repo, *kind, data, id)
                .map_err(|e| git("cannot write the notes tree", e))?;
            if *kind == gix::objs::Kind::Tree {
                let tree = gix::objs::TreeRef::from_bytes(data, self.repo.object_hash())
                    .map_err(|e| git("cannot decode a notes tree", e))?;
                stack.extend(
                    tree.entries
                        .iter()
                        .filter(|e| e.mode.is_tree())
                        .map(|e| e.oid.to_owned()),
                );
            }
        }
        Ok(())
    }
}

impl gix::objs::Find for Staged<'_> {
    fn try_find<'a>(
        &self,
        id: &gix::hash::oid,
        buffer: &'a mut Vec<u8>,
    ) -> gix::Result<Option<gix::objs::Data<'a>>> {
        if let Some((kind, data)) = self.objects.borrow().get(id) {
            buffer.clear();
            buffer.extend_from_slice(data);
            return Ok(Some(gix::objs::Data {
                kind: *kind,
                object_hash: self.repo.object_hash(),
                data: buffer.as_slice(),
            }));
        }
        gix::objs::Find::try_find(self.repo, id, buffer)
    }
}

impl gix::objs::Write for Staged<'_> {
    fn write_buf_with_known_id(
        &self,
        kind: gix::objs::Kind,
        from: &[u8],
        id: ObjectId,
    ) -> gix::Result<ObjectId> {
        self.objects
            .borrow_mut()
            .entry(id)
            .or_insert_with(|| (kind, from.to_vec()));
        Ok(id)
    }

    fn write_stream(
        &self,
        kind: gix::objs::Kind,
        _size: u64,
        from: &mut dyn Read,
    ) -> gix::Result<ObjectId> {
        let mut data = Vec::new();
        from.read_to_end(&mut data)
            .map_err(|e| gix::Error::from_error(e))?;
        let id = gix::objs::compute_hash(self.repo.object_hash(), kind, &data)?;
        self.write_buf_with_known_id(kind, &data, id)
    }

    fn write_stream_with_known_id(
        &self,
        kind: gix::objs::Kind,
        _size: u64,
        from: &mut dyn Read,
        id: ObjectId,
    ) -> gix::Result<ObjectId> {
        let mut data = Vec::new();
        from.read_to_end(&mut data)
            .map_err(|e| gix::Error::from_error(e))?;
        self.write_buf_with_known_id(kind, &data, id)
    }
}

/// The anchors folder of a notes root tree: the ID of its `anchors` entry,
/// when that is a tree.
fn anchors_tree<F: gix::objs::Find>(
    objects: &F,
    root: ObjectId,
    hash: gix::hash::Kind,
) -> Result<Option<ObjectId>> {
    use gix::objs::FindExt as _;
    let mut buf = Vec::new();
    let tree = objects
        .find_tree(&root, &mut buf)
        .map_err(|e| git("cannot read the notes tree", e))?;
    let _ = hash;
    Ok(tree
        .entries
        .iter()
        .find(|e| e.filename == ANCHORS_DIR.as_bytes() && e.mode.is_tree())
        .map(|e| e.oid.to_owned()))
}

/// The final notes root: `notes_root` (staged) with the anchors folder
/// holding every `(anchor, blob)` pair it lacks, written to the repository.
///
/// The anchors folder is laid out like a notes tree (a mapping from anchor
/// ID to the same blob): flat while small, fanned out into `ab/cdef...`
/// folders by git's own progressive heuristic as it grows, so adding an
/// anchor rewrites two small trees, never one that grows with every cycle.
/// A flat folder written by an older release is read as it is, and the
/// first anchor added to it fans it out (migration on write).
pub fn keep_anchors(
    repo: &gix::Repository,
    staged: &Staged<'_>,
    notes_root: ObjectId,
    anchors: &[(ObjectId, ObjectId)],
) -> Result<ObjectId> {
    let hash = repo.object_hash();
    let current = anchors_tree(staged, notes_root, hash)?;
    let mut state = gix::note::plumbing::State::new(
        current.unwrap_or_else(|| ObjectId::empty_tree(hash)),
        staged,
    )
    .map_err(|e| git("cannot read the audit anchors", e))?;
    for (anchor, blob) in anchors {
        let present = state
            .get(anchor, staged)
            .map_err(|e| git("cannot read the audit anchors", e))?
            .is_some();
        if !present {
            state
                .edit(*anchor, Some(*blob), staged)
                .map_err(|e| git("cannot edit the audit anchors", e))?;
        }
    }
    let written = state
        .write(staged)
        .map_err(|e| git("cannot write the audit anchors", e))?;
    let root = if Some(written) == current {
        notes_root
    } else {
        let mut buf = Vec::new();
        let tree = {
            use gix::objs::FindExt as _;
            staged
                .find_tree(&notes_root, &mut buf)
                .map_err(|e| git("cannot read the notes tree", e))?
                .to_owned()
        };
        let mut editor = gix::objs::tree::Editor::new(tree, staged, hash);
        editor
            .upsert([ANCHORS_DIR], gix::objs::tree::EntryKind::Tree, written)
            .map_err(|e| git("cannot edit the notes tree", e))?;
        editor
            .write(|t| gix::objs::Write::write(staged, t))
            .map_err(|e| git("cannot write the notes tree", e))?
    };
    staged.flush(root)?;
    Ok(root)
}

/// One note of the trail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    /// The annotated object (an anchor blob, for notes this tool wrote).
    pub annotated: ObjectId,
    /// The anchor, when the annotated object is one and was looked up.
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
    list_mapping(repo, root)
}

/// The `(name, blob)` pairs of a tree laid out like a notes tree: full-hex
/// names, flat or under any mix of two-digit fanout folders. Other entries
/// are skipped. Sorted by name.
fn list_mapping(repo: &gix::Repository, root: ObjectId) -> Result<Vec<(ObjectId, ObjectId)>> {
    let hex_len = repo.object_hash().len_in_hex();
    let mut out = Vec::new();
    let mut stack = vec![(root, String::new())];
    let mut buf = Vec::new();
    while let Some((tree, prefix)) = stack.pop() {
        let decoded = {
            use gix::objs::FindExt as _;
            repo.objects
                .find_tree(&tree, &mut buf)
                .map_err(|e| git("cannot read the notes tree", e))?
        };
        for entry in &decoded.entries {
            let name: &[u8] = entry.filename;
            if !name.iter().all(u8::is_ascii_hexdigit) {
                continue;
            }
            let len = prefix.len() + name.len();
            if entry.mode.is_tree() && name.len() == 2 && len < hex_len {
                let mut path = prefix.clone();
                path.push_str(std::str::from_utf8(name).expect("hex digits"));
                stack.push((entry.oid.to_owned(), path));
            } else if entry.mode.is_blob() && len == hex_len {
                let mut path = Vec::with_capacity(hex_len);
                path.extend_from_slice(prefix.as_bytes());
                path.extend_from_slice(name);
                if let Ok(id) = ObjectId::from_hex(&path) {
                    out.push((id, entry.oid.to_owned()));
                }
            }
        }
    }
    out.sort();
    Ok(out)
}

/// The anchors a notes commit keeps reachable: `(anchor ID, blob ID)`, from
/// a flat anchors folder or a fanned-out one.
pub fn list_anchors(repo: &gix::Repository, commit: ObjectId) -> Result<Vec<(ObjectId, ObjectId)>> {
    let root = root_tree(repo, Some(commit))?;
    match anchors_tree(repo, root, repo.object_hash())? {
        Some(tree) => list_mapping(repo, tree),
        None => Ok(Vec::new()),
    }
}

fn read_blob(repo: &gix::Repository, id: ObjectId) -> Result<Vec<u8>> {
    Ok(repo
        .find_blob(id)
        .map_err(|e| git(&format!("cannot read blob {id}"), e))?
        .take_data())
}

/// The anchor an annotated object is, if it is one and exists.
pub fn anchor_of(repo: &gix::Repository, annotated: ObjectId) -> Option<Anchor> {
    let blob = repo.find_blob(annotated).ok()?;
    Anchor::parse(&blob.data)
}

/// The delta base cache of [`read_each`]: the note blobs of a packed trail
/// are deltas of one another, and without a cache every read inflates its
/// whole delta chain again (git keeps a delta base cache for the same
/// reason; the gix build here has no pack cache of its own). The texts a
/// reader keeps serve as bases from where they sit (no second copy). The
/// texts read past the budget are not cached: a cache of the last 16 of
/// them, or of 8 MiB, saved no time on a 100,000-event trail (its texts
/// are read again in time order, which packs do not follow).
#[derive(Default)]
struct NoteBases {
    /// The note texts kept so far.
    text: Vec<u8>,
    /// (pack, offset) -> (kind, compressed size, range in `text`).
    entries:
        std::collections::HashMap<(u32, u64), (gix::objs::Kind, usize, std::ops::Range<usize>)>,
    /// The object the last decode produced, until its text is kept.
    pending: Option<((u32, u64), gix::objs::Kind, usize)>,
}

/// [`NoteBases`] as the object database holds it (it must be `Send`).
#[derive(Clone, Default)]
struct SharedBases(std::sync::Arc<std::sync::Mutex<NoteBases>>);

impl SharedBases {
    fn lock(&self) -> std::sync::MutexGuard<'_, NoteBases> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Keeps `data` (the object just read) and returns its range.
    fn keep(&self, data: &[u8]) -> std::ops::Range<usize> {
        let mut bases = self.lock();
        let start = bases.text.len();
        bases.text.extend_from_slice(data);
        let range = start..bases.text.len();
        if let Some((key, kind, size)) = bases.pending.take() {
            bases.entries.insert(key, (kind, size, range.clone()));
        }
        range
    }
}

impl gix::odb::pack::cache::DecodeEntry for SharedBases {
    fn put(
        &mut self,
        pack_id: u32,
        offset: u64,
        _data: &[u8],
        kind: gix::objs::Kind,
        compressed_size: usize,
    ) {
        // Called with the object a read is about to return: [`SharedBases::keep`]
        // stores its bytes once.
        self.lock().pending = Some(((pack_id, offset), kind, compressed_size));
    }

    fn get(
        &mut self,
        pack_id: u32,
        offset: u64,
        out: &mut Vec<u8>,
    ) -> Option<(gix::objs::Kind, usize)> {
        let bases = self.lock();
        let (kind, compressed_size, range) = bases.entries.get(&(pack_id, offset))?;
        out.clear();
        out.extend_from_slice(&bases.text[range.clone()]);
        Some((*kind, *compressed_size))
    }
}

/// Note blobs read one at a time through [`NoteBases`].
pub struct NoteReader {
    reader: gix::Repository,
    bases: SharedBases,
    buf: Vec<u8>,
}

impl NoteReader {
    pub fn new(repo: &gix::Repository) -> NoteReader {
        let bases = SharedBases::default();
        let mut reader = repo.clone();
        let cache = bases.clone();
        reader
            .objects
            .set_pack_cache(move || Box::new(cache.clone()));
        NoteReader {
            reader,
            bases,
            buf: Vec::new(),
        }
    }

    /// The text of the note blob `blob`.
    pub fn read(&mut self, blob: ObjectId) -> Result<Vec<u8>> {
        self.read_with(blob, false, |text, _| text.to_vec())
    }

    /// Reads `blob` and hands its text to `visit`, with where it now sits
    /// among the kept texts when `keep`.
    fn read_with<R>(
        &mut self,
        blob: ObjectId,
        keep: bool,
        visit: impl FnOnce(&[u8], Option<usize>) -> R,
    ) -> Result<R> {
        use gix::objs::FindExt as _;
        self.bases.lock().pending = None;
        let data = self
            .reader
            .objects
            .find_blob(&blob, &mut self.buf)
            .map_err(|e| git(&format!("cannot read blob {blob}"), e))?;
        if keep {
            let range = self.bases.keep(data.data);
            let bases = self.bases.lock();
            Ok(visit(&bases.text[range.clone()], Some(range.start)))
        } else {
            Ok(visit(data.data, None))
        }
    }

    /// How many bytes of text are kept.
    fn kept(&self) -> usize {
        self.bases.lock().text.len()
    }
}

/// Reads every note of the trail (none when the ref does not exist) with
/// only the reads git's own floor does: the notes trees and each note blob,
/// in the order cheapest to read. `visit` gets each note's place in
/// `notes` (by annotated object), its text, and where the text sits in `kept`
/// when it is kept: texts are kept while they fit in `budget` bytes; the
/// others are handed over and dropped, for a [`NoteReader`] to read again.
/// The anchors are not looked up ([`anchor_of`] names one when needed).
pub fn read_each(
    repo: &gix::Repository,
    budget: usize,
    mut visit: impl FnMut(usize, &[u8], Option<usize>),
) -> Result<Listed<ObjectId>> {
    let Some(tip) = tip(repo, NOTES_REF)? else {
        return Ok(Listed {
            notes: Vec::new(),
            kept: Vec::new(),
        });
    };
    let mut reader = NoteReader::new(repo);
    let notes = list_notes(&reader.reader, tip)?;
    for i in pack_order(&reader.reader, &notes) {
        let keep = reader.kept() < budget;
        reader.read_with(notes[i].1, keep, |text, at| visit(i, text, at))?;
    }
    let kept = std::mem::take(&mut reader.bases.lock().text);
    Ok(Listed { notes, kept })
}

/// The order to read the note blobs of `listed` in: loose ones first, then
/// by pack and place in the pack. A delta's base comes before it in its
/// pack, so when the base is itself a note it was decoded just before and
/// [`NoteBases`] holds it: no note's delta chain is walked twice. The
/// order read changes nothing else (the texts keep `listed`'s order).
fn pack_order(repo: &gix::Repository, listed: &[(ObjectId, ObjectId)]) -> Vec<usize> {
    let dir = repo.objects.store_ref().path().join("pack");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "idx"))
                .collect()
        })
        .unwrap_or_default();
    paths.sort();
    let indices: Vec<gix::odb::pack::index::File> = paths
        .iter()
        .filter_map(|p| gix::odb::pack::index::File::at(p, repo.object_hash()).ok())
        .collect();
    let mut places: Vec<(usize, u64, usize)> = listed
        .iter()
        .enumerate()
        .map(|(i, (_, blob))| {
            indices
                .iter()
                .enumerate()
                .find_map(|(n, index)| {
                    let at = index.lookup(blob)?;
                    Some((n + 1, index.pack_offset_at_index(at), i))
                })
                .unwrap_or((0, 0, i))
        })
        .collect();
    places.sort_unstable();
    places.into_iter().map(|(_, _, i)| i).collect()
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
