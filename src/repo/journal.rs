//! The journal of multi-file writes (D22): an operation that changes several
//! files (and maybe refs) first writes its plan, the new contents and backups
//! of everything it replaces or deletes into `<git-dir>/standards/journal/`,
//! then applies the changes one by one, recording progress, and removes the
//! journal at the end. A process killed at any moment leaves the journal
//! behind; every later writing command refuses ([`refuse_if_pending`]) until
//! `git standards recover` completes the operation or rolls it back.
//!
//! Every step is idempotent in both directions (a write puts the staged bytes,
//! a removal deletes what is there, a rollback puts the backup back, a ref moves
//! only from its expected value), so recovery needs no knowledge of how far the
//! killed process got: completing re-applies every step, rolling back undoes
//! every step in reverse order. That also holds after a recovery that was itself
//! killed.
//!
//! Layout of the journal folder:
//! - `plan.json`: operation, tool version, start time, project root, the steps;
//! - `stage-<i>`: the new bytes of write step `i`;
//! - `backup-<i>`: what step `i` replaces or deletes (a file or a folder copy);
//! - `progress`: one line per applied step (for reporting only).
//!
//! The journal appears with one rename of a fully written folder, so it is
//! complete or absent; it disappears with one rename before deletion.
//!
//! Usage from a command:
//! ```ignore
//! refuse_if_pending(&project)?;
//! let changes = vec![Change::write(".standards/STATE.md", text), Change::remove(".standards/docs")];
//! Journal::begin(&project, "reset", changes, serde_json::json!({}))?.run()?;
//! ```

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::repo::{failpoint, handles, notes, write, Project};

/// The folder name inside `<git-dir>/standards/`.
const JOURNAL: &str = "journal";
/// The lock file beside the journal: held while an operation runs, so a live
/// journal is never mistaken for an interrupted one.
const LOCK: &str = "journal.lock";
/// How long a writer waits for another one to finish before refusing.
const LOCK_WAIT: std::time::Duration = std::time::Duration::from_secs(30);
/// The folder beside `.standards/` when there is no git directory (D22).
pub const OUTSIDE_GIT: &str = ".standards-journal";
const PLAN: &str = "plan.json";
const PROGRESS: &str = "progress";

/// The failpoints every journaled operation passes, as suffixes of
/// `<operation>:`. `step-applied` and `step-recorded` are reached once per
/// step; arm the `n`-th with `<operation>:step-applied@<n>`.
pub const POINTS: &[&str] = &[
    "journal-staged",
    "journal-begun",
    "step-applied",
    "step-recorded",
    "journal-closing",
];

/// One change of a journaled operation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// Write `content` to the project-relative `path` (created or replaced).
    Write { path: String, content: Vec<u8> },
    /// Create the project-relative file `path` with `content`; the operation
    /// is refused ([`Error::AlreadyExists`], nothing written) when something
    /// is already there once the journal holds the operation lock.
    Create { path: String, content: Vec<u8> },
    /// Delete the project-relative file or folder `path` (a no-op when absent).
    Remove { path: String },
    /// Replace a file of the git directory itself (the index: `index`).
    WriteGitFile { name: String, content: Vec<u8> },
    /// Move a ref from `old` (`None`: it must not exist) to `new`.
    MoveRef {
        name: String,
        old: Option<gix::ObjectId>,
        new: gix::ObjectId,
    },
    /// Record the operation's audit event (its stored `line`, whose ID is
    /// `id`) on the anchor of `cycle` (issue 21): journalled with the writes,
    /// so a crash and `recover` leave a landed operation with its event,
    /// once (the append skips an event ID the note already holds). Never undone.
    Event {
        cycle: Option<String>,
        line: String,
        id: String,
        message: String,
    },
}

impl Change {
    pub fn write(path: impl Into<String>, content: impl Into<Vec<u8>>) -> Change {
        Change::Write {
            path: path.into(),
            content: content.into(),
        }
    }

    pub fn create(path: impl Into<String>, content: impl Into<Vec<u8>>) -> Change {
        Change::Create {
            path: path.into(),
            content: content.into(),
        }
    }

    pub fn remove(path: impl Into<String>) -> Change {
        Change::Remove { path: path.into() }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(tag = "action", rename_all = "kebab-case")]
enum Step {
    Write {
        path: String,
        /// Whether `backup-<i>` holds the file this write replaces.
        backup: bool,
        /// Parent folders the write creates, outermost first (removed on rollback).
        #[serde(default)]
        created_parents: Vec<String>,
    },
    Remove {
        path: String,
        backup: bool,
    },
    WriteGitFile {
        name: String,
        backup: bool,
    },
    MoveRef {
        name: String,
        old: Option<String>,
        new: String,
    },
    Event {
        cycle: Option<String>,
        line: String,
        id: String,
        message: String,
    },
}

/// The plan file.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct PlanFile {
    format: u32,
    operation: String,
    version: String,
    started: String,
    root: PathBuf,
    git_dir: Option<PathBuf>,
    /// Names this journal's temporary folders in the project, so a recovery
    /// finds (and deletes) what a killed removal or restore left.
    token: String,
    steps: Vec<Step>,
    #[serde(default)]
    detail: serde_json::Value,
}

/// Where the journal of this project's worktree lives: inside the worktree's
/// own git directory, so two worktrees never see each other's journals.
pub fn location(project: &Project) -> PathBuf {
    location_for(Some(project.repo.git_dir()), &project.root)
}

/// [`location`] from its parts; `None` for a project outside any git repository.
pub fn location_for(git_dir: Option<&Path>, root: &Path) -> PathBuf {
    match git_dir {
        Some(g) => g.join("standards").join(JOURNAL),
        None => root.join(OUTSIDE_GIT),
    }
}

/// An interrupted operation found on disk.
#[derive(Debug, Clone)]
pub struct Pending {
    pub operation: String,
    pub started: String,
    pub version: String,
    pub steps: usize,
    pub applied: usize,
    pub dir: PathBuf,
    /// What the operation recorded about itself (for its audit event).
    pub detail: serde_json::Value,
}

/// An exclusive lock on this worktree's workflow (its journal and every
/// read-modify-write of `.standards/`), held by the one operation that may
/// write; released when dropped (or when its process dies, which is what
/// tells an interrupted journal from a live one). A command takes it with
/// [`lock`] before it reads its inputs and keeps it to its last rename; the
/// journal's own functions, called by the same thread meanwhile, reuse it.
///
/// This is an OS lock on a file that stays, not git's lock-file protocol
/// (`gix::lock`, an exclusively created `<file>.lock`): a killed git-style
/// holder leaves its `.lock` behind and every later writer would refuse
/// until someone deletes it, while the kernel releases this lock when its
/// holder dies. That release is what tells an interrupted journal (for
/// `recover`) from a running operation, so it cannot become a `gix::lock`.
pub struct OperationLock {
    /// `None` for a nested use of a lock this thread already holds.
    file: Option<std::fs::File>,
    path: PathBuf,
}

thread_local! {
    /// The lock files this thread holds (a command and its journal share one).
    static HELD: std::cell::RefCell<Vec<PathBuf>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl Drop for OperationLock {
    fn drop(&mut self) {
        if self.file.is_some() {
            HELD.with(|h| h.borrow_mut().retain(|p| p != &self.path));
        }
    }
}

impl OperationLock {
    /// Takes the lock beside `journal`, waiting (bounded) for another writer;
    /// `operation` is recorded in the lock file so a refused writer names it.
    fn acquire(journal: &Path, operation: &str) -> Result<OperationLock> {
        OperationLock::acquire_within(journal, operation, lock_wait())
    }

    /// [`OperationLock::acquire`], waiting at most `wait`.
    fn acquire_within(
        journal: &Path,
        operation: &str,
        wait: std::time::Duration,
    ) -> Result<OperationLock> {
        let parent = journal.parent().expect("the journal has a parent folder");
        let path = parent.join(LOCK);
        if HELD.with(|h| h.borrow().contains(&path)) {
            return Ok(OperationLock { file: None, path });
        }
        std::fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .open(&path)
            .map_err(|e| Error::io(&path, e))?;
        let locked = super::handles::lock_within(&file, wait, std::time::Duration::from_millis(5))
            .map_err(|e| Error::io(&path, e))?;
        if !locked {
            let holder = std::fs::read_to_string(&path).unwrap_or_default();
            let holder = match holder.split_once(' ') {
                Some((op, pid)) if !op.is_empty() => {
                    format!("`git standards {op}` (process {})", pid.trim())
                }
                _ => "another git standards operation".to_string(),
            };
            return Err(Error::refused(
                format!(
                    "{holder} has been writing this worktree for more than {} s (it holds `{}`); nothing was changed",
                    wait.as_secs(),
                    path.display()
                ),
                Some("wait for it to finish and run the command again".into()),
            ));
        }
        {
            use std::io::{Seek, Write};
            let _ = file.set_len(0);
            let _ = file.rewind();
            let _ = write!(file, "{operation} {}", std::process::id());
        }
        HELD.with(|h| h.borrow_mut().push(path.clone()));
        Ok(OperationLock {
            file: Some(file),
            path,
        })
    }
}

/// How long a writer waits for the workflow lock: [`LOCK_WAIT`]; a debug
/// build (the binary the tests drive) takes `GIT_STANDARDS_LOCK_WAIT_MS`, so
/// a test of the refusal needs no 30-second wait.
fn lock_wait() -> std::time::Duration {
    #[cfg(debug_assertions)]
    if let Some(ms) = std::env::var("GIT_STANDARDS_LOCK_WAIT_MS")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        return std::time::Duration::from_millis(ms);
    }
    LOCK_WAIT
}

/// Takes this worktree's workflow lock for `operation` (waiting, bounded, for
/// another writer, then refusing with its name): every command that reads
/// `.standards/` to decide what to write holds it from that read to its last
/// rename, so two writers never both act on the same old state.
pub fn lock(project: &Project, operation: &str) -> Result<OperationLock> {
    failpoint::hit(&format!("{operation}:locking"));
    let journal = location(project);
    let lock = OperationLock::acquire(&journal, operation)?;
    if lock.file.is_some() {
        if let Some(parent) = journal.parent() {
            // Holding the lock, no writer is staging: what a killed one staged goes.
            clean_leftovers(parent);
        }
    }
    Ok(lock)
}

/// [`lock`] for a writer with a time budget of its own (the agents' prompt
/// hook, which must answer its client in seconds): waits at most `wait`.
pub fn lock_within(
    project: &Project,
    operation: &str,
    wait: std::time::Duration,
) -> Result<OperationLock> {
    let journal = location(project);
    let lock = OperationLock::acquire_within(&journal, operation, wait.min(lock_wait()))?;
    if lock.file.is_some() {
        if let Some(parent) = journal.parent() {
            clean_leftovers(parent);
        }
    }
    Ok(lock)
}

/// The interrupted operation of this worktree, if any. A journal whose
/// operation is still running (its lock is held) is waited for, not reported.
pub fn pending(project: &Project) -> Result<Option<Pending>> {
    let dir = location(project);
    if !exists(&dir)? {
        return Ok(None);
    }
    let _lock = OperationLock::acquire(&dir, "check")?;
    pending_locked(&dir)
}

fn exists(dir: &Path) -> Result<bool> {
    match std::fs::symlink_metadata(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(Error::io(dir, e)),
        Ok(_) => Ok(true),
    }
}

/// [`pending`] for a caller that holds the lock.
fn pending_locked(dir: &Path) -> Result<Option<Pending>> {
    let dir = dir.to_path_buf();
    if !exists(&dir)? {
        return Ok(None);
    }
    let plan = read_plan(&dir)?;
    Ok(Some(Pending {
        operation: plan.operation.clone(),
        started: plan.started.clone(),
        version: plan.version.clone(),
        steps: plan.steps.len(),
        applied: read_progress(&dir),
        dir,
        detail: plan.detail,
    }))
}

/// Refuses when an interrupted operation left its journal: every writing
/// command calls this first (D22).
pub fn refuse_if_pending(project: &Project) -> Result<()> {
    match pending(project)? {
        None => Ok(()),
        Some(p) => Err(pending_refusal(&p)),
    }
}

fn pending_refusal(p: &Pending) -> Error {
    Error::refused(
        format!(
            "an interrupted `git standards {}` (started {}) left its journal at `{}` ({} of {} steps applied); nothing else may write until it is finished",
            p.operation,
            p.started,
            p.dir.display(),
            p.applied,
            p.steps
        ),
        Some(format!(
            "run `git standards recover` to complete the {}, or `git standards recover --rollback` to undo it",
            p.operation
        )),
    )
}

/// A journaled operation in progress.
pub struct Journal {
    dir: PathBuf,
    root: PathBuf,
    git_dir: Option<PathBuf>,
    repo: Option<gix::Repository>,
    operation: String,
    token: String,
    steps: Vec<Step>,
    /// Held until the operation ends (`run` or drop).
    _lock: Option<OperationLock>,
    /// Run by `recover`: the operation that wrote the journal is dead, so a
    /// ref lock it was holding when killed may be broken (see [`move_ref`]).
    recovering: bool,
}

impl Journal {
    /// Writes the journal (plan, new contents, backups) and puts it in place.
    /// Nothing in the project changes yet. Refuses when another journal exists.
    pub fn begin(
        project: &Project,
        operation: &str,
        changes: Vec<Change>,
        detail: serde_json::Value,
    ) -> Result<Journal> {
        let dir = location(project);
        let lock = OperationLock::acquire(&dir, operation)?;
        if let Some(p) = pending_locked(&dir)? {
            return Err(pending_refusal(&p));
        }
        let git_dir = Some(project.repo.git_dir().to_path_buf());
        let mut journal = Journal::begin_at(
            dir,
            project.root.clone(),
            git_dir,
            Some(project.repo.clone()),
            operation,
            changes,
            detail,
        )?;
        journal._lock = Some(lock);
        Ok(journal)
    }

    fn begin_at(
        dir: PathBuf,
        root: PathBuf,
        git_dir: Option<PathBuf>,
        repo: Option<gix::Repository>,
        operation: &str,
        changes: Vec<Change>,
        detail: serde_json::Value,
    ) -> Result<Journal> {
        let parent = dir.parent().expect("the journal has a parent folder");
        std::fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
        clean_leftovers(parent);
        let token = random_suffix()?;
        let staging = parent.join(format!("{JOURNAL}.new-{token}"));
        std::fs::create_dir(&staging).map_err(|e| Error::io(&staging, e))?;
        let staged = (|| -> Result<Vec<Step>> {
            let mut steps = Vec::with_capacity(changes.len());
            for (i, change) in changes.into_iter().enumerate() {
                steps.push(stage(&staging, i, &root, git_dir.as_deref(), change)?);
            }
            let plan = PlanFile {
                format: 1,
                operation: operation.to_string(),
                version: env!("CARGO_PKG_VERSION").to_string(),
                started: chrono::Utc::now().format("%Y-%m-%dT%H:%M:%SZ").to_string(),
                root: root.clone(),
                git_dir: git_dir.clone(),
                token: token.clone(),
                steps: steps.clone(),
                detail,
            };
            let text = serde_json::to_string_pretty(&plan)
                .map_err(|e| Error::Internal(format!("cannot serialise the journal plan: {e}")))?;
            write_durable(&staging.join(PLAN), text.as_bytes())?;
            sync_dir(&staging);
            Ok(steps)
        })();
        let steps = match staged {
            Ok(s) => s,
            Err(e) => {
                let _ = std::fs::remove_dir_all(&staging);
                return Err(e);
            }
        };
        failpoint::hit(&format!("{operation}:journal-staged"));
        // A rename onto an existing journal (never empty) fails: at most one operation at a time.
        if let Err(e) = std::fs::rename(&staging, &dir) {
            let _ = std::fs::remove_dir_all(&staging);
            if dir.exists() {
                return Err(Error::refused(
                    format!(
                        "another STANDARDS operation started a journal at `{}` meanwhile",
                        dir.display()
                    ),
                    Some("wait for it to finish, or run `git standards recover`".into()),
                ));
            }
            return Err(Error::io(&dir, e));
        }
        sync_dir(parent);
        failpoint::hit(&format!("{operation}:journal-begun"));
        Ok(Journal {
            dir,
            root,
            git_dir,
            repo,
            operation: operation.to_string(),
            token,
            steps,
            _lock: None,
            recovering: false,
        })
    }

    /// Applies every step, then removes the journal. On an error the steps
    /// are undone and the journal removed; if the undo fails too, the journal
    /// stays for `git standards recover`.
    pub fn run(self) -> Result<()> {
        let applied = (|| -> Result<()> {
            for i in 0..self.steps.len() {
                self.apply(i)?;
                failpoint::hit(&format!("{}:step-applied", self.operation));
                append_progress(&self.dir, i)?;
                failpoint::hit(&format!("{}:step-recorded", self.operation));
            }
            Ok(())
        })();
        match applied {
            Ok(()) => self.close(),
            Err(e) => match self.rollback_steps() {
                Ok(()) => {
                    self.close()?;
                    Err(e)
                }
                Err(undo) => Err(Error::refused(
                    format!(
                        "{e}; undoing the partial `{}` failed too ({undo})",
                        self.operation
                    ),
                    Some(format!(
                        "the backups are in `{}`; run `git standards recover --rollback` once the cause is fixed",
                        self.dir.display()
                    )),
                )),
            },
        }
    }

    fn close(&self) -> Result<()> {
        failpoint::hit(&format!("{}:journal-closing", self.operation));
        close_dir(&self.dir)
    }

    fn step_path(&self, rel: &str) -> PathBuf {
        self.root.join(rel)
    }

    /// The temporary name beside step `i`'s path, the same in every run.
    fn scratch(&self, i: usize) -> String {
        format!(".git-standards-{}-{i}", self.token)
    }

    fn apply(&self, i: usize) -> Result<()> {
        match &self.steps[i] {
            Step::Write { path, .. } => {
                let bytes = read_stage(&self.dir, i)?;
                put_file(&self.root, path, &bytes, &self.scratch(i))
            }
            Step::Remove { path, .. } => remove_any(&self.root, path, &self.scratch(i)),
            Step::WriteGitFile { name, .. } => {
                let git_dir = self.git_dir()?;
                let bytes = read_stage(&self.dir, i)?;
                put_file(git_dir, name, &bytes, &self.scratch(i))
            }
            Step::MoveRef { name, old, new } => {
                let old = parse_id(old.as_deref())?;
                let new = parse_id(Some(new))?.expect("a new id");
                move_ref(self.repo()?, name, old, Some(new), self.recovering)
            }
            Step::Event {
                cycle,
                line,
                id,
                message,
            } => {
                let anchor = notes::Anchor::for_cycle(cycle.as_deref());
                notes::append_once(self.repo()?, &anchor, line, id, message)
                    .map(drop)
                    .map_err(|e| self.event_failed(e))
            }
        }
    }

    /// The error of an event step that could not be recorded: `run` then
    /// undoes the operation, `recover` keeps its journal.
    fn event_failed(&self, e: Error) -> Error {
        let then = if self.recovering {
            "the journal stays until it can be"
        } else {
            "so the whole operation is undone and nothing was changed"
        };
        let (message, hint) = match e {
            Error::Refused { message, hint } => (message, hint),
            other => (other.to_string(), None),
        };
        Error::refused(
            format!(
                "the audit event could not be recorded in `{}` for `git standards {}`, {then}: {message}",
                notes::NOTES_REF,
                self.operation
            ),
            hint.or_else(|| Some(format!("check `git show-ref {}` and `git fsck`, then run the command again", notes::NOTES_REF))),
        )
    }

    fn undo(&self, i: usize) -> Result<()> {
        let backup = self.dir.join(format!("backup-{i}"));
        match &self.steps[i] {
            Step::Write {
                path,
                backup: had,
                created_parents,
            } => {
                if *had {
                    restore(&backup, &self.root, path, &self.scratch(i))
                } else {
                    remove_any(&self.root, path, &self.scratch(i))?;
                    for dir in created_parents.iter().rev() {
                        let _ = std::fs::remove_dir(self.step_path(dir));
                    }
                    Ok(())
                }
            }
            Step::Remove { path, backup: had } => {
                if *had {
                    restore(&backup, &self.root, path, &self.scratch(i))
                } else {
                    Ok(())
                }
            }
            Step::WriteGitFile { name, backup: had } => {
                let git_dir = self.git_dir()?.to_path_buf();
                if *had {
                    restore(&backup, &git_dir, name, &self.scratch(i))
                } else {
                    remove_any(&git_dir, name, &self.scratch(i))
                }
            }
            Step::MoveRef { name, old, new } => {
                let old = parse_id(old.as_deref())?;
                let new = parse_id(Some(new))?;
                move_ref(self.repo()?, name, new, old, self.recovering)
            }
            // An event once written is never removed (a rollback is recorded by `recover`'s own event).
            Step::Event { .. } => Ok(()),
        }
    }

    fn rollback_steps(&self) -> Result<()> {
        for i in (0..self.steps.len()).rev() {
            self.undo(i)?;
        }
        Ok(())
    }

    fn git_dir(&self) -> Result<&Path> {
        self.git_dir
            .as_deref()
            .ok_or_else(|| Error::Internal("a journal outside git cannot write git files".into()))
    }

    fn repo(&self) -> Result<&gix::Repository> {
        self.repo
            .as_ref()
            .ok_or_else(|| Error::Internal("a journal outside git cannot move refs".into()))
    }
}

/// Runs a whole journaled operation: [`Journal::begin`] then [`Journal::run`].
pub fn write_all(
    project: &Project,
    operation: &str,
    changes: Vec<Change>,
    detail: serde_json::Value,
) -> Result<()> {
    if changes.is_empty() {
        // Nothing to write: no journal, but still no writing past an interrupted one.
        return refuse_if_pending(project);
    }
    Journal::begin(project, operation, changes, detail)?.run()
}

/// Which way `recover` went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Completed,
    RolledBack,
}

/// The interrupted operation, recovered.
#[derive(Debug, Clone)]
pub struct Recovered {
    pub pending: Pending,
    pub direction: Direction,
}

/// Completes the interrupted operation (re-applying every step), or with
/// `rollback` undoes it (every step in reverse), then removes the journal.
/// `None` when nothing was interrupted.
pub fn recover(project: &Project, rollback: bool) -> Result<Option<Recovered>> {
    let location = location(project);
    let lock = OperationLock::acquire(&location, "recover")?;
    if let Some(parent) = location.parent() {
        // What a writer killed while it staged its journal left (issue 21).
        clean_leftovers(parent);
    }
    let Some(found) = pending_locked(&location)? else {
        return Ok(None);
    };
    let plan = read_plan(&found.dir)?;
    if plan.version != env!("CARGO_PKG_VERSION") {
        return Err(Error::refused(
            format!(
                "the interrupted `{}` was started by git-standards {}; this is {}",
                plan.operation,
                plan.version,
                env!("CARGO_PKG_VERSION")
            ),
            Some(format!(
                "recover with git-standards {} (its journal format is its own)",
                plan.version
            )),
        ));
    }
    let journal = Journal {
        dir: found.dir.clone(),
        root: plan.root.clone(),
        git_dir: plan.git_dir.clone(),
        repo: Some(project.repo.clone()),
        operation: plan.operation.clone(),
        token: plan.token.clone(),
        steps: plan.steps.clone(),
        _lock: Some(lock),
        recovering: true,
    };
    let point = |what: &str| failpoint::hit(&format!("recover:{what}"));
    if rollback {
        for i in (0..journal.steps.len()).rev() {
            journal.undo(i)?;
            point("step-undone");
        }
    } else {
        for i in 0..journal.steps.len() {
            journal.apply(i)?;
            point("step-applied");
        }
    }
    point("journal-closing");
    close_dir(&journal.dir)?;
    Ok(Some(Recovered {
        pending: found,
        direction: if rollback {
            Direction::RolledBack
        } else {
            Direction::Completed
        },
    }))
}

/// The failpoints of `recover` itself.
pub const RECOVER_POINTS: &[&str] = &[
    "recover:step-applied",
    "recover:step-undone",
    "recover:journal-closing",
];

fn stage(
    staging: &Path,
    i: usize,
    root: &Path,
    git_dir: Option<&Path>,
    change: Change,
) -> Result<Step> {
    let backup = staging.join(format!("backup-{i}"));
    Ok(match change {
        Change::Write { path, content } => {
            write::validate_relative(&path)?;
            let had = back_up(&root.join(&path), &path, &backup, false)?;
            write_durable(&staging.join(format!("stage-{i}")), &content)?;
            Step::Write {
                created_parents: absent_parents(root, &path)?,
                path,
                backup: had,
            }
        }
        Change::Create { path, content } => {
            write::validate_relative(&path)?;
            match std::fs::symlink_metadata(root.join(&path)) {
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Ok(_) => return Err(Error::AlreadyExists { path }),
                Err(e) => return Err(Error::io(root.join(&path), e)),
            }
            write_durable(&staging.join(format!("stage-{i}")), &content)?;
            // Applied and undone as a write of a file that did not exist.
            Step::Write {
                created_parents: absent_parents(root, &path)?,
                path,
                backup: false,
            }
        }
        Change::Remove { path } => {
            write::validate_relative(&path)?;
            let had = back_up(&root.join(&path), &path, &backup, true)?;
            Step::Remove { path, backup: had }
        }
        Change::WriteGitFile { name, content } => {
            write::validate_relative(&name)?;
            let git_dir = git_dir.ok_or_else(|| {
                Error::Internal("a journal outside git cannot write git files".into())
            })?;
            let had = back_up(&git_dir.join(&name), &name, &backup, false)?;
            write_durable(&staging.join(format!("stage-{i}")), &content)?;
            Step::WriteGitFile { name, backup: had }
        }
        Change::MoveRef { name, old, new } => Step::MoveRef {
            name,
            old: old.map(|o| o.to_string()),
            new: new.to_string(),
        },
        Change::Event {
            cycle,
            line,
            id,
            message,
        } => Step::Event {
            cycle,
            line,
            id,
            message,
        },
    })
}

/// The parent folders of `rel` that do not exist yet, outermost first. A
/// parent that is a symbolic link or not a folder is refused here, while the
/// journal is staged, so such a refusal leaves no journal behind (issue 21).
fn absent_parents(root: &Path, rel: &str) -> Result<Vec<String>> {
    let parts: Vec<&str> = rel.split('/').collect();
    let mut out = Vec::new();
    for n in 1..parts.len() {
        let prefix = parts[..n].join("/");
        match std::fs::symlink_metadata(root.join(&prefix)) {
            Ok(m) if m.file_type().is_symlink() || !m.is_dir() => {
                let what = if m.file_type().is_symlink() {
                    "a symbolic link"
                } else {
                    "not a folder"
                };
                return Err(Error::refused(
                    format!("refusing to write `{rel}`: `{prefix}` is {what}, not a normal folder; nothing was changed"),
                    Some(format!("move `{prefix}` out of the way and run the command again")),
                ));
            }
            Ok(_) => continue,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => out.push(prefix),
            Err(e) => return Err(Error::io(root.join(&prefix), e)),
        }
    }
    Ok(out)
}

/// Copies what is at `source` into `backup` (a file, or with `folders` a whole
/// folder). Returns whether anything was there. Refuses symbolic links.
fn back_up(source: &Path, shown: &str, backup: &Path, folders: bool) -> Result<bool> {
    let meta = match std::fs::symlink_metadata(source) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(Error::io(source, e)),
    };
    if meta.file_type().is_symlink() {
        return Err(Error::refused(
            format!("refusing to replace or delete `{shown}`: it is a symbolic link"),
            Some("replace the link with a regular file or folder first".into()),
        ));
    }
    if meta.is_dir() {
        if !folders {
            return Err(Error::refused(
                format!("refusing to write `{shown}`: it is a folder"),
                Some(format!("move `{shown}` out of the way")),
            ));
        }
        copy_tree(source, backup, shown)?;
    } else if meta.is_file() {
        copy_file(source, backup)?;
    } else {
        return Err(Error::refused(
            format!("refusing to replace or delete `{shown}`: it is not a regular file or folder"),
            None,
        ));
    }
    Ok(true)
}

fn copy_file(from: &Path, to: &Path) -> Result<()> {
    std::fs::copy(from, to).map_err(|e| Error::io(from, e))?;
    let f = std::fs::File::open(to).map_err(|e| Error::io(to, e))?;
    sync(&f).map_err(|e| Error::io(to, e))
}

/// Copies a folder tree, refusing symbolic links and special files inside it.
fn copy_tree(from: &Path, to: &Path, shown: &str) -> Result<()> {
    std::fs::create_dir(to).map_err(|e| Error::io(to, e))?;
    let mut entries: Vec<_> = std::fs::read_dir(from)
        .map_err(|e| Error::io(from, e))?
        .collect::<std::io::Result<_>>()
        .map_err(|e| Error::io(from, e))?;
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let kind = entry.file_type().map_err(|e| Error::io(entry.path(), e))?;
        let name = entry.file_name();
        let inner = format!("{shown}/{}", name.to_string_lossy());
        if kind.is_symlink() {
            return Err(Error::refused(
                format!("refusing to delete `{shown}`: it holds the symbolic link `{inner}`"),
                Some("move the link out of the folder first".into()),
            ));
        } else if kind.is_dir() {
            copy_tree(&entry.path(), &to.join(&name), &inner)?;
        } else if kind.is_file() {
            copy_file(&entry.path(), &to.join(&name))?;
        } else {
            return Err(Error::refused(
                format!("refusing to delete `{shown}`: `{inner}` is not a regular file or folder"),
                None,
            ));
        }
    }
    Ok(())
}

/// Puts `backup` (a file or folder) back at `base/rel`, replacing what is
/// there; `scratch` names the temporary sibling folders (the same in every run).
fn restore(backup: &Path, base: &Path, rel: &str, scratch: &str) -> Result<()> {
    let meta = std::fs::symlink_metadata(backup).map_err(|e| Error::io(backup, e))?;
    if meta.is_dir() {
        remove_any(base, rel, scratch)?;
        write::prepare_parents(base, rel)?;
        // Copy into a sibling, then rename: a kill midway leaves the target absent, never half.
        let target = base.join(rel);
        let parent = target.parent().expect("a relative path has a parent");
        let temp = parent.join(format!("{scratch}-restoring"));
        discard(&temp)?;
        copy_tree(backup, &temp, rel)?;
        std::fs::rename(&temp, &target).map_err(|e| Error::io(&target, e))
    } else {
        let bytes = std::fs::read(backup).map_err(|e| Error::io(backup, e))?;
        put_file(base, rel, &bytes, scratch)?;
        let perms = meta.permissions();
        std::fs::set_permissions(base.join(rel), perms).map_err(|e| Error::io(base.join(rel), e))
    }
}

/// Writes `bytes` to `base/rel` atomically through the temporary sibling
/// `<scratch>-writing` and a rename. Unlike `write::atomic_write`'s unique
/// temporary names, this name is the same in every run of the step, so a
/// recovery deletes what a killed write left behind. Everything happens
/// through verified folder handles (`handles::Folders`, issue 7): parents are
/// created and opened without following links, a link or folder at the target
/// is refused, and a replaced file keeps its permissions.
fn put_file(base: &Path, rel: &str, bytes: &[u8], scratch: &str) -> Result<()> {
    handles::Folders::new(base).put_with_scratch(rel, bytes, &format!("{scratch}-writing"))
}

/// Deletes the file or folder `base/rel` if present, never following links
/// (a link is removed itself, not its target). A folder is first renamed to
/// the sibling `<scratch>-removing`, so a kill leaves the path whole or absent;
/// a rerun deletes what such a kill left there. All through folder handles.
fn remove_any(base: &Path, rel: &str, scratch: &str) -> Result<()> {
    let folders = handles::Folders::new(base);
    let (dir, name) = handles::split(rel);
    let sibling = |suffix: &str| {
        if dir.is_empty() {
            format!("{scratch}-{suffix}")
        } else {
            format!("{dir}/{scratch}-{suffix}")
        }
    };
    folders.discard(&sibling("removing"))?;
    folders.discard(&sibling("restoring"))?;
    folders.discard(&sibling("writing"))?;
    let parent = match folders.folder(dir) {
        Ok(fd) => fd,
        Err(handles::Blocked::Missing(_)) => return Ok(()),
        Err(b) => return Err(b.refusal(rel)),
    };
    match handles::kind_at(&*parent, name) {
        Err(rustix::io::Errno::NOENT) => Ok(()),
        Err(e) => Err(Error::io(base.join(rel), std::io::Error::from(e))),
        Ok(rustix::fs::FileType::Directory) => {
            let doomed = format!("{scratch}-removing");
            folders.rename_within(dir, name, &doomed)?;
            folders.discard(&sibling("removing"))
        }
        Ok(_) => folders.discard(rel),
    }
}

/// Deletes a temporary folder of ours if it exists.
fn discard(path: &Path) -> Result<()> {
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(Error::io(path, e)),
        Ok(m) if m.is_dir() => std::fs::remove_dir_all(path).map_err(|e| Error::io(path, e)),
        Ok(_) => std::fs::remove_file(path).map_err(|e| Error::io(path, e)),
    }
}

fn parse_id(hex: Option<&str>) -> Result<Option<gix::ObjectId>> {
    hex.map(|h| {
        gix::ObjectId::from_hex(h.as_bytes())
            .map_err(|e| Error::Internal(format!("journal: bad object id `{h}`: {e}")))
    })
    .transpose()
}

/// Moves `name` from `from` to `to` (`None`: absent), idempotently: already at
/// `to` is success; anywhere but `from` or `to` is a refusal.
fn move_ref(
    repo: &gix::Repository,
    name: &str,
    from: Option<gix::ObjectId>,
    to: Option<gix::ObjectId>,
    break_stale_lock: bool,
) -> Result<()> {
    use gix::refs::transaction::{Change as RefChange, LogChange, PreviousValue, RefEdit, RefLog};
    use gix::refs::Target;
    let current = match repo.try_find_reference(name) {
        Ok(Some(mut r)) => Some(
            r.peel_to_id()
                .map_err(|e| Error::Git(format!("cannot read `{name}`: {e}")))?
                .detach(),
        ),
        Ok(None) => None,
        Err(e) => return Err(Error::Git(format!("cannot read `{name}`: {e}"))),
    };
    if current == to {
        return Ok(());
    }
    if current != from {
        return Err(Error::refused(
            format!(
                "`{name}` moved to {} while the operation was interrupted; it was expected at {}",
                current.map_or("nothing".to_string(), |c| c.to_string()),
                from.map_or("nothing".to_string(), |c| c.to_string())
            ),
            Some(format!(
                "put `{name}` back, or finish by hand; the journal stays"
            )),
        ));
    }
    let expected = match from {
        Some(id) => PreviousValue::MustExistAndMatch(Target::Object(id)),
        None => PreviousValue::MustNotExist,
    };
    let full: gix::refs::FullName = name
        .try_into()
        .map_err(|e| Error::Internal(format!("bad ref name `{name}`: {e}")))?;
    let change = match to {
        Some(id) => RefChange::Update {
            log: LogChange {
                mode: RefLog::AndReference,
                force_create_reflog: false,
                message: "git standards".into(),
            },
            expected,
            new: Target::Object(id),
        },
        None => RefChange::Delete {
            expected,
            log: RefLog::AndReference,
        },
    };
    let edit = RefEdit {
        change,
        name: full,
        deref: false,
    };
    // A killed process can leave git's `<ref>.lock` behind. A live git holds
    // one for milliseconds, so wait a little: gix takes `<ref>.lock` through
    // `gix::lock` and retries with backoff for `core.filesRefLockTimeout`,
    // set to two seconds here. Then, only when recovering (the operation
    // that took it is dead), break it; otherwise refuse and name it.
    let lock = repo.common_dir().join(format!("{name}.lock"));
    let mut waiting = repo.clone();
    {
        let mut config = waiting.config_snapshot_mut();
        config
            .set_value(&gix::config::tree::Core::FILES_REF_LOCK_TIMEOUT, "2000")
            .map_err(|e| Error::Internal(format!("cannot set the ref lock timeout: {e}")))?;
        config
            .commit()
            .map_err(|e| Error::Internal(format!("cannot set the ref lock timeout: {e}")))?;
    }
    let mut broken = false;
    loop {
        let err = match waiting.edit_reference(edit.clone()) {
            Ok(_) => return Ok(()),
            Err(e) => e,
        };
        if !lock.exists() {
            return Err(Error::Git(format!("cannot move `{name}`: {err}")));
        }
        if break_stale_lock && !broken {
            std::fs::remove_file(&lock).map_err(|e| Error::io(&lock, e))?;
            broken = true;
            continue;
        }
        return Err(Error::refused(
            format!("cannot move `{name}`: `{}` exists", lock.display()),
            Some(
                "another git command holds the ref, or a killed one left its lock: if no git command is running, delete the lock file and run the command again (or `git standards recover`)"
                    .into(),
            ),
        ));
    }
}

fn read_plan(dir: &Path) -> Result<PlanFile> {
    let path = dir.join(PLAN);
    let text = std::fs::read_to_string(&path).map_err(|e| Error::io(&path, e))?;
    serde_json::from_str(&text).map_err(|e| Error::Invalid {
        path: path.display().to_string(),
        message: format!("the journal plan is damaged ({e}); it is not safe to recover automatically: restore from the backups in this folder by hand"),
    })
}

fn read_stage(dir: &Path, i: usize) -> Result<Vec<u8>> {
    let path = dir.join(format!("stage-{i}"));
    std::fs::read(&path).map_err(|e| Error::io(&path, e))
}

fn read_progress(dir: &Path) -> usize {
    std::fs::read_to_string(dir.join(PROGRESS))
        .map(|t| t.lines().filter(|l| l.parse::<usize>().is_ok()).count())
        .unwrap_or(0)
}

fn append_progress(dir: &Path, i: usize) -> Result<()> {
    use std::io::Write as _;
    let path = dir.join(PROGRESS);
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .map_err(|e| Error::io(&path, e))?;
    writeln!(f, "{i}").map_err(|e| Error::io(&path, e))?;
    sync(&f).map_err(|e| Error::io(&path, e))
}

fn write_durable(path: &Path, bytes: &[u8]) -> Result<()> {
    use std::io::Write as _;
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(|e| Error::io(path, e))?;
    f.write_all(bytes).map_err(|e| Error::io(path, e))?;
    sync(&f).map_err(|e| Error::io(path, e))
}

/// The test-only variable that skips fsync in debug builds: a `kill -9`
/// keeps the page cache, so the crash tests need no disk flush, and on a
/// loaded machine each flush costs milliseconds. Release builds always flush.
pub const NO_FSYNC: &str = "GIT_STANDARDS_TEST_NO_FSYNC";

fn sync(f: &std::fs::File) -> std::io::Result<()> {
    #[cfg(debug_assertions)]
    if std::env::var_os(NO_FSYNC).is_some_and(|v| v == "1") {
        return Ok(());
    }
    f.sync_all()
}

fn sync_dir(dir: &Path) {
    if let Ok(f) = std::fs::File::open(dir) {
        let _ = sync(&f);
    }
}

/// Removes a journal: one rename makes it disappear, then the deletion.
fn close_dir(dir: &Path) -> Result<()> {
    let parent = dir.parent().expect("the journal has a parent folder");
    let done = parent.join(format!("{JOURNAL}.done-{}", random_suffix()?));
    std::fs::rename(dir, &done).map_err(|e| Error::io(dir, e))?;
    sync_dir(parent);
    let _ = std::fs::remove_dir_all(&done);
    Ok(())
}

/// Deletes journals that were already closed but not yet deleted when their
/// process died, and staging folders of journals that never began.
fn clean_leftovers(parent: &Path) {
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        // The caller holds the operation lock: a staging folder is then the
        // leftover of a writer killed before its journal appeared, whatever its age.
        if name.starts_with(&format!("{JOURNAL}.done-"))
            || name.starts_with(&format!("{JOURNAL}.new-"))
        {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

fn random_suffix() -> Result<String> {
    let mut random = [0u8; 6];
    getrandom::fill(&mut random)
        .map_err(|e| Error::Internal(format!("no randomness for a temporary name: {e}")))?;
    Ok(random.iter().map(|b| format!("{b:02x}")).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_writer_waits_for_the_lock_instead_of_seeing_an_interrupted_journal() {
        let dir = tempfile::tempdir().unwrap();
        let journal = dir.path().join("standards").join(JOURNAL);
        let held = OperationLock::acquire(&journal, "test").unwrap();
        // The holding thread's nested uses share its lock.
        drop(OperationLock::acquire(&journal, "test").unwrap());
        let (tx, rx) = std::sync::mpsc::channel();
        let waiter = {
            let journal = journal.clone();
            std::thread::spawn(move || {
                let lock = OperationLock::acquire(&journal, "test");
                tx.send(()).unwrap();
                lock.map(|_| ())
            })
        };
        assert!(
            rx.recv_timeout(std::time::Duration::from_millis(200))
                .is_err(),
            "the second writer must wait while the first holds the lock"
        );
        drop(held);
        rx.recv_timeout(std::time::Duration::from_secs(10)).unwrap();
        waiter.join().unwrap().unwrap();
    }

    fn journal(root: &Path, changes: Vec<Change>) -> Journal {
        let dir = location_for(None, root);
        Journal::begin_at(
            dir,
            root.to_path_buf(),
            None,
            None,
            "test",
            changes,
            serde_json::Value::Null,
        )
        .unwrap()
    }

    fn snapshot(root: &Path) -> Vec<(String, Vec<u8>)> {
        let mut out = Vec::new();
        let mut stack = vec![root.to_path_buf()];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap().flatten() {
                let rel = e
                    .path()
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                if rel.starts_with(OUTSIDE_GIT) {
                    continue;
                }
                if e.file_type().unwrap().is_dir() {
                    out.push((rel + "/", Vec::new()));
                    stack.push(e.path());
                } else {
                    out.push((rel, std::fs::read(e.path()).unwrap()));
                }
            }
        }
        out.sort();
        out
    }

    fn fixture() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let r = dir.path();
        std::fs::create_dir_all(r.join(".standards/docs/a")).unwrap();
        std::fs::write(r.join(".standards/docs/a/one.md"), "one").unwrap();
        std::fs::write(r.join(".standards/docs/two.md"), "two").unwrap();
        std::fs::write(r.join(".standards/STATE.md"), "old state").unwrap();
        dir
    }

    fn changes() -> Vec<Change> {
        vec![
            Change::remove(".standards/docs"),
            Change::write(".standards/STATE.md", "new state"),
            Change::write(".standards/new/deep/file.md", "created"),
        ]
    }

    #[test]
    fn a_create_never_replaces_a_file_and_rolls_back_to_nothing() {
        let dir = fixture();
        let r = dir.path();
        let e = Journal::begin_at(
            location_for(None, r),
            r.to_path_buf(),
            None,
            None,
            "test",
            vec![
                Change::write(".standards/STATE.md", "new state"),
                Change::create(".standards/docs/two.md", "mine"),
            ],
            serde_json::Value::Null,
        )
        .err()
        .expect("an existing file is refused");
        assert!(matches!(e, Error::AlreadyExists { .. }), "{e:?}");
        assert_eq!(
            std::fs::read(r.join(".standards/docs/two.md")).unwrap(),
            b"two"
        );
        assert_eq!(
            std::fs::read(r.join(".standards/STATE.md")).unwrap(),
            b"old state"
        );
        assert!(!location_for(None, r).exists(), "no journal is left");
        let before = snapshot(r);
        let j = journal(r, vec![Change::create(".standards/new/x.md", "x")]);
        j.apply(0).unwrap();
        assert_eq!(std::fs::read(r.join(".standards/new/x.md")).unwrap(), b"x");
        j.rollback_steps().unwrap();
        let _ = std::fs::remove_dir_all(location_for(None, r));
        assert_eq!(snapshot(r), before);
    }

    #[test]
    fn run_applies_everything_and_removes_the_journal() {
        let dir = fixture();
        journal(dir.path(), changes()).run().unwrap();
        let r = dir.path();
        assert!(!r.join(".standards/docs").exists());
        assert_eq!(
            std::fs::read(r.join(".standards/STATE.md")).unwrap(),
            b"new state"
        );
        assert!(r.join(".standards/new/deep/file.md").is_file());
        assert!(!location_for(None, r).exists());
    }

    #[test]
    fn after_any_prefix_of_steps_both_directions_work() {
        for applied in 0..=3 {
            for rollback in [false, true] {
                let dir = fixture();
                let before = snapshot(dir.path());
                let j = journal(dir.path(), changes());
                for i in 0..applied {
                    j.apply(i).unwrap();
                }
                // A half-applied later step: a stray temporary of a removal.
                if rollback {
                    j.rollback_steps().unwrap();
                    assert_eq!(snapshot(dir.path()), before, "applied {applied}");
                } else {
                    for i in 0..3 {
                        j.apply(i).unwrap();
                    }
                    assert_eq!(
                        std::fs::read(dir.path().join(".standards/STATE.md")).unwrap(),
                        b"new state"
                    );
                    assert!(!dir.path().join(".standards/docs").exists());
                }
                // Recovering twice (a recovery killed and rerun) changes nothing more.
                if rollback {
                    j.rollback_steps().unwrap();
                    assert_eq!(snapshot(dir.path()), before);
                }
            }
        }
    }

    #[test]
    fn a_second_journal_is_refused_and_symlinks_are_never_backed_up() {
        let dir = fixture();
        let _first = journal(dir.path(), vec![Change::write("x.md", "x")]);
        let e = Journal::begin_at(
            location_for(None, dir.path()),
            dir.path().to_path_buf(),
            None,
            None,
            "test",
            vec![],
            serde_json::Value::Null,
        )
        .err()
        .unwrap();
        assert!(e.to_string().contains("another STANDARDS operation"), "{e}");
        #[cfg(unix)]
        {
            let other = fixture();
            std::os::unix::fs::symlink("/etc", other.path().join(".standards/docs/link")).unwrap();
            let e = Journal::begin_at(
                location_for(None, other.path()),
                other.path().to_path_buf(),
                None,
                None,
                "test",
                vec![Change::remove(".standards/docs")],
                serde_json::Value::Null,
            )
            .err()
            .unwrap();
            assert!(e.to_string().contains("symbolic link"), "{e}");
            assert!(!location_for(None, other.path()).exists());
        }
    }
}
