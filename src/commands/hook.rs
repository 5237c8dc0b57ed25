//! `git standards hook stop`: the agents' stop hook (RT §5, check-rules
//! HK-001..HK-003, decisions D1, D3, D7).
//!
//! Claude Code and Codex run it when an agent ends its turn, with a JSON
//! payload on standard input. It runs the turn-end variant of `check` when
//! workflow files changed and sends the agent back once per turn (exit 2,
//! the problems on stderr). It never traps the agent: every failure of its own
//! is a message on stderr and exit 1, which both clients treat as
//! non-blocking.
//!
//! The pure parts (the payload, the marker name, the message) are functions
//! of their inputs; [`stop`] composes them with the repository and the
//! filesystem.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use sha2::{Digest, Sha256};

use crate::commands::check::{self, Source};
use crate::commands::Context;
use crate::error::{Error, Result};
use crate::repo::conflicts as repo_conflicts;
use crate::repo::{DirTree, Project};
use crate::support::{audit, runtime};
use clap::Subcommand;
use standards_core::audit::{Event, EventKind};
use standards_core::check::{Options, Problem, Report};
use standards_core::invocation::Client;
use standards_core::model::layout::STANDARDS_DIR;

#[derive(Debug, Subcommand)]
pub enum HookCommand {
    /// Check the workflow files when an agent ends its turn; send it back once with the problems.
    ///
    /// Claude Code and Codex run this as their Stop hook, with the client's JSON payload on standard input (keys read: `stop_hook_active`, `session_id`, `turn_id`, `prompt_id`; anything unreadable counts as `{}`).
    ///
    /// It lets the agent stop at once when `stop_hook_active` is true, or when nothing under `.standards/` and no `*.md` file differs between the working tree, the index and HEAD. Otherwise it runs the turn-end variant of `git standards check`. Outside a git repository it always checks the folder holding `.standards/`.
    ///
    /// With problems it writes them (at most 15) and guidance on stderr and exits 2, which sends the agent back. A client that does not send `stop_hook_active` is sent back once per turn: a marker in the temporary folder `standards-hooks/` remembers the turn.
    ///
    /// Exit status: 0 the agent may stop; 2 the agent is sent back; 1 the hook's own error or wrong arguments (never 2, so a broken hook never traps the agent).
    ///
    /// With --client, the payload must be a JSON object (anything else is exit 1), and the answer takes the client's form: for `claude`, the problems on stderr and exit 2; for `codex`, `{"decision": "block", "reason": "<problems>"}` on stdout and exit 0 (the problems also on stderr).
    #[command(verbatim_doc_comment)]
    Stop(HookStopArgs),
    /// Tell a starting agent session where the workflow stands (the client's SessionStart hook).
    ///
    /// Reads the client's JSON payload on standard input (`cwd` says where the session is) and prints, on standard output, `{"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "<context>"}}`: the cycle, the workflow state, its owner, the next invocation (or the user's options) and any blocking question, as `git standards status` shows them; during a merge conflict, the conflict and what to do. Outside an installed project it prints nothing.
    ///
    /// Exit status: 0; 1 on its own error (a message on stderr; both clients go on without the context).
    #[command(verbatim_doc_comment)]
    SessionStart(HookClientArgs),
    /// Refuse an agent's direct edit of `.standards/STATE.md` (the client's PreToolUse hook on its edit tools).
    ///
    /// Reads the tool call from standard input: Claude Code's Edit, Write and MultiEdit name the file in `tool_input.file_path`; Codex's `apply_patch` carries the patch in `tool_input.command` (every `*** Add File:`, `*** Update File:`, `*** Delete File:` and `*** Move to:` path counts, relative to the payload's `cwd`). A shell call (`tool_name` `Bash` in both clients, the command in `tool_input.command`) is read lexically for the files it would write: output redirections, `tee`, in-place editors (`sed -i`, `perl -i`), the destinations of `cp`, `mv`, `install`, `ln`, `rsync`, `dd of=`, `rm`, `git checkout`/`git restore` paths (restoring STATE.md by hand rolls the workflow back unrecorded), `sh -c` strings and inline interpreter code that writes; reads (`cat`, `grep`, `sed -n`, `git diff`) and commands it cannot follow pass. When a target is the STATE.md of an installed project, it prints `{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "<the transition commands to use instead>"}}` (the reason also on stderr). While STATE.md has an unresolved merge conflict the edit is allowed: resolving a conflict is the protocol's one hand edit. Any other call is allowed with no output.
    ///
    /// Exit status: 0 (allowed, or denied through the JSON answer); 1 when it cannot decide (a message on stderr; the clients then let the call run: a broken guard never stops every edit, and `git standards check` and the stop hook still report a hand-edited STATE.md).
    #[command(verbatim_doc_comment)]
    EditGuard(HookClientArgs),
    /// Record that a person spoke to the agent (the client's UserPromptSubmit hook): a `human-turn` audit event.
    ///
    /// The event names the client, the session and the workflow state, and hangs on the active cycle; `git standards signoff` looks for one since the cycle reached AWAITING_USER_SIGNOFF. The prompt's text is not stored unless git config `standards.recordPrompts` is true (then at most 4000 characters of it). Nothing is printed on standard output, so the prompt reaches the agent unchanged.
    ///
    /// Exit status: 0; 1 when the event could not be recorded (a warning on stderr; the prompt still goes through, never blocked).
    #[command(verbatim_doc_comment)]
    PromptSubmit(HookClientArgs),
    /// The git pre-commit hook's check: `check --staged` for every project whose runtime is staged.
    ///
    /// The installed pre-commit (and pre-merge-commit) hook runs this from the top of the working tree. It exits at once, reading no file, when nothing under any `.standards/` and no `*.md` file is staged differently from HEAD (decided from the object IDs of the index and HEAD's tree). Otherwise it runs `git standards check --staged --hook <name>` for each folder whose `.standards/PROTOCOL.md` is staged, printing each report.
    ///
    /// Exit status: 0 when every check passed (or nothing relevant is staged), 1 when one found problems or could not run; a failed check leaves a `check-failed` event in the audit trail.
    PreCommit(HookPreCommitArgs),
    /// The server's pre-receive hook: refuse pushes that bring cycle state into the main branch, or commits that fail `verify`.
    ///
    /// Reads git's `<old-id> <new-id> <ref>` lines on standard input, in the receiving (usually bare) repository. For each pushed branch: when it is the main branch or a protected branch, the merge guard (see `git standards merge-guard`) judges the new tip against the branch's current tip; and `git standards verify` checks the new commits (from the old tip, from the merge-base with the main branch for a new branch, from where old and new meet after a force push). Deletions and tags are accepted unchecked.
    ///
    /// The policy is the receiving repository's, never the pushed commits': git config `standards.mainBranch` and `standards.protectedBranches`, else the `.standards/config.toml` committed on its HEAD branch before the push, else the HEAD branch, else `init.defaultBranch`, else `main`.
    ///
    /// Messages start with `git-standards: ` (the pusher sees them after `remote: `). `git standards hooks install` in a bare repository installs this hook. With --json, also a JSON object on stdout: {ok, mainBranch, protectedBranches, refs: [{ref, old, new, ok, skipped, guarded, guard: [{project, message, hint}], verify (verify's JSON, or null)}]}.
    ///
    /// Exit status: 0 the push may land; 1 a ref is refused (git then refuses the whole push), or the input cannot be read.
    #[command(verbatim_doc_comment)]
    PreReceive(HookServerArgs),
    /// The server's update hook (`<ref> <old-id> <new-id>`): the pre-receive checks for one ref.
    ///
    /// For servers that run per-ref hooks; the same checks and messages as `git standards hook pre-receive`, for the one ref named by the arguments.
    #[command(verbatim_doc_comment)]
    Update(HookUpdateArgs),
}

#[derive(Debug, clap::Args)]
pub struct HookServerArgs {
    /// Also print the verdicts as a JSON object on stdout.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, clap::Args)]
pub struct HookUpdateArgs {
    /// The ref being updated (`refs/heads/<branch>`).
    #[arg(value_name = "ref")]
    pub refname: String,
    /// Its current object ID (all zeros: it is created).
    #[arg(value_name = "old-id")]
    pub old: String,
    /// Its new object ID (all zeros: it is deleted).
    #[arg(value_name = "new-id")]
    pub new: String,
    /// Also print the verdict as a JSON object on stdout.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, clap::Args)]
pub struct HookPreCommitArgs {
    /// The git hook running the check, as recorded in a `check-failed` event.
    #[arg(long, value_name = "name", default_value = "pre-commit", value_parser = clap::builder::NonEmptyStringValueParser::new())]
    pub hook: String,
}

#[derive(Debug, clap::Args)]
pub struct HookClientArgs {
    /// The client that runs the hook: the payload must then be a JSON object.
    #[arg(long, value_enum, ignore_case = true, value_name = "claude|codex")]
    pub client: Option<crate::commands::invocation::ClientArg>,
}

#[derive(Debug, clap::Args)]
pub struct HookStopArgs {
    /// The client that runs the hook, which decides the payload check and the answer's form.
    #[arg(long, value_enum, ignore_case = true, value_name = "claude|codex")]
    pub client: Option<crate::commands::invocation::ClientArg>,
}

/// `hook pre-commit`: the fast exit, else `check --staged --hook <name>` for
/// each staged project through the one opened repository; a project that
/// fails (problems, or an error, reported through `report`) does not stop
/// the others.
pub fn run_pre_commit(
    ctx: &mut Context,
    hook: String,
    report: &mut dyn FnMut(&Error, &mut dyn std::io::Write),
) -> Result<()> {
    let mut project = crate::repo::Project::discover(&ctx.cwd)?;
    project.trust_index_checksum();
    let request = crate::commands::check::Request {
        source: crate::commands::check::Source::Staged,
        json: false,
        quiet: false,
        options: Default::default(),
        allow_shallow: false,
        hook: Some(hook),
    };
    let mut failed = false;
    if request.hook.as_deref() == Some("pre-commit") {
        // A merge, squash merge or cherry-pick concluded with `git commit`
        // (issue 22): the merge guard judges what it brings.
        if let Err(e) = crate::commands::merge_guard::pre_commit_guard(ctx, &project) {
            if e.is_broken_pipe() {
                return Err(e);
            }
            failed = true;
            report(&e, ctx.err);
        }
    }
    let projects = crate::commands::hook::pre_commit_projects(&project)?;
    if projects.len() > 1 {
        // One decoded index serves every project's staged check.
        crate::repo::index::hold();
    }
    for found in projects {
        let result = found.and_then(|p| {
            let mut sub = Context {
                cwd: p.root().to_path_buf(),
                out: &mut *ctx.out,
                err: &mut *ctx.err,
                color: ctx.color,
            };
            crate::commands::check::run_project(&mut sub, &p, &request)
        });
        match result {
            Ok(()) => {}
            Err(e) if e.is_broken_pipe() => return Err(e),
            Err(e) => {
                failed = true;
                report(&e, ctx.err);
            }
        }
    }
    crate::repo::reads::report(ctx.err);
    if failed {
        return Err(Error::Exit { code: 1 });
    }
    // The commit's reference-transaction hook passes its branch update from
    // this record (no operation in progress: a merge, squash or cherry-pick
    // concluded here is judged there as before).
    if request.hook.as_deref() == Some("pre-commit")
        && crate::commands::merge_guard::operation_in_progress(&project).is_none()
    {
        crate::repo::hooks::record_passed_commit(&project);
    }
    Ok(())
}

/// A client hook's handler: its payload, and the client that sent it.
pub type Handler = fn(&mut Context, &mut dyn Read, Option<Client>) -> Result<()>;

/// Runs a client hook on standard input: the payload read within its
/// bounds, or a reader that fails with the read's error, which the handler
/// reports by its own fail-safe (never an unreadable payload taken as `{}`).
pub fn run_on_stdin(ctx: &mut Context, handler: Handler, client: Option<Client>) -> Result<()> {
    match read_stdin_bounded() {
        Ok(bytes) => handler(ctx, &mut bytes.as_slice(), client),
        Err(e) => handler(ctx, &mut FailingRead(Some(e)), client),
    }
}

/// A reader that fails once with a stored error (standard input that could not be read).
struct FailingRead(Option<std::io::Error>);

impl std::io::Read for FailingRead {
    fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
        match self.0.take() {
            Some(e) => Err(e),
            None => Ok(0),
        }
    }
}

/// The usage line (RT §5.1, decision D4).
pub const USAGE: &str = "Usage: git standards hook stop";
/// The command that shows every problem (the overflow line's hint).
pub const CHECK_COMMAND: &str = "git standards check";
/// At most this many problem lines in the stop message (RT §5.3).
pub const MAX_PROBLEM_LINES: usize = 15;
/// The most payload bytes the hook reads: clients send a few hundred; a
/// longer (or endless) input is cut here and then counts as `{}`.
pub const MAX_PAYLOAD_BYTES: usize = 64 * 1024;
/// How long the hook waits for the client to close standard input.
pub const PAYLOAD_WAIT: Duration = Duration::from_secs(5);

/// Reads the payload from standard input: at most [`MAX_PAYLOAD_BYTES`], and
/// no longer than [`PAYLOAD_WAIT`] (a client that never closes the pipe, or a
/// terminal, must not hang the hook): what arrived by then is the payload. A
/// read error is kept for [`run_stop`] to report.
pub fn read_stdin_bounded() -> std::io::Result<Vec<u8>> {
    let (send, receive) = std::sync::mpsc::channel();
    let sent = send.clone();
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let mut stdin = std::io::stdin().lock();
        let mut chunk = [0u8; 4096];
        loop {
            match stdin.read(&mut chunk) {
                Ok(0) => break,
                Ok(n) => {
                    bytes.extend_from_slice(&chunk[..n]);
                    if bytes.len() > MAX_PAYLOAD_BYTES {
                        break;
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => {
                    let _ = sent.send(Err(e));
                    return;
                }
            }
        }
        let _ = sent.send(Ok(bytes));
    });
    drop(send);
    receive
        .recv_timeout(PAYLOAD_WAIT)
        .unwrap_or_else(|_| Ok(Vec::new()))
}

/// The folder of once-per-turn markers, inside the OS temporary folder.
pub const MARKER_DIR: &str = "standards-hooks";
/// Markers older than this are deleted.
pub const MARKER_MAX_AGE: Duration = Duration::from_secs(24 * 60 * 60);
/// The first line of the stop message.
pub const HEADING: &str = "STANDARDS check found problems in the workflow files:";
/// The guidance paragraph that ends the stop message.
pub const GUIDANCE: &str = "Do not guess a repair. Fix now the problems in work your current role owns. Route problems owned by another role as `.standards/PROTOCOL.md` describes (its failure handoffs). If you are unsure, or you are acting as Navigator, report the problems to the user and stop.";

/// The keys of the client's payload the hook reads (RT §5.1).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Payload {
    /// `stop_hook_active` when it is a boolean; `None` when it is absent or
    /// not a boolean (then the once-per-turn marker guards against loops).
    pub stop_hook_active: Option<bool>,
    pub session_id: Option<String>,
    pub turn_id: Option<String>,
    pub prompt_id: Option<String>,
}

impl Payload {
    /// Parses standard input. Empty or whitespace input, invalid JSON (or
    /// UTF-8) and a JSON value that is not an object all count as `{}`.
    /// Identifier keys take strings (numbers in their JSON spelling); other
    /// values count as absent.
    pub fn parse(input: &[u8]) -> Payload {
        let Ok(serde_json::Value::Object(map)) = serde_json::from_slice(input) else {
            return Payload::default();
        };
        let text = |key: &str| match map.get(key) {
            Some(serde_json::Value::String(s)) => Some(s.clone()),
            Some(serde_json::Value::Number(n)) => Some(n.to_string()),
            _ => None,
        };
        Payload {
            stop_hook_active: map.get("stop_hook_active").and_then(|v| v.as_bool()),
            session_id: text("session_id"),
            turn_id: text("turn_id"),
            prompt_id: text("prompt_id"),
        }
    }

    /// The turn the marker is keyed on: `turn_id`, else `prompt_id`, else
    /// the word `session` (empty values count as absent).
    pub fn turn(&self) -> &str {
        [&self.turn_id, &self.prompt_id]
            .into_iter()
            .flatten()
            .map(String::as_str)
            .find(|s| !s.is_empty())
            .unwrap_or("session")
    }
}

/// The once-per-turn marker's file name: the first 32 lowercase hex digits of
/// SHA-256 over `<root>` NUL `<session_id or empty>` NUL `<turn>` (HK-002).
pub fn marker_name(root: &str, payload: &Payload) -> String {
    let mut hasher = Sha256::new();
    hasher.update(root.as_bytes());
    hasher.update([0]);
    hasher.update(payload.session_id.as_deref().unwrap_or("").as_bytes());
    hasher.update([0]);
    hasher.update(payload.turn().as_bytes());
    let digest = hasher.finalize();
    digest
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<String>()
        .chars()
        .take(32)
        .collect()
}

/// The stop message (RT §5.3): the heading, at most 15 problems in check's
/// order, a line counting the rest, an empty line and the guidance.
pub fn stop_message(problems: &[Problem]) -> String {
    let mut text = format!("{HEADING}\n");
    for p in problems.iter().take(MAX_PROBLEM_LINES) {
        text.push_str(&format!("- {}: {}\n", p.file, p.message));
    }
    let rest = problems.len().saturating_sub(MAX_PROBLEM_LINES);
    if rest > 0 {
        text.push_str(&format!(
            "- ...and {rest} more. Run `{CHECK_COMMAND}` to see them all.\n"
        ));
    }
    text.push('\n');
    text.push_str(GUIDANCE);
    text.push('\n');
    text
}

/// Whether a change to a project path makes the hook check: the pathspecs
/// `.standards` and `*.md` of RT §5.2 step 3 (`*` matches `/` in a pathspec,
/// so any `.md` file at any depth).
pub fn is_workflow_path(path: &str) -> bool {
    path == STANDARDS_DIR || path.starts_with(".standards/") || path.ends_with(".md")
}

/// What the hook decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Let the agent stop (exit 0).
    Allow,
    /// Send the agent back with this message on stderr (exit 2).
    Block(String),
}

/// Where the hook found the project.
enum Located {
    /// Inside a git repository (D1).
    Repo(Box<Project>),
    /// Not in a repository: the folder holding `.standards/` (RT §1.4 step 2).
    Folder(DirTree),
}

impl Located {
    fn root(&self) -> &Path {
        match self {
            Located::Repo(p) => p.root(),
            Located::Folder(t) => t.root(),
        }
    }
}

/// Locates the installed project from `cwd` (RT §5.2 step 1): the repository
/// when there is one, otherwise the nearest folder holding `.standards/`;
/// either way `.standards/PROTOCOL.md` must carry the framework marker.
fn locate(cwd: &Path) -> Result<Located> {
    match Project::discover(cwd) {
        Ok(mut project) => {
            // The stop hook only reads the index.
            project.trust_index_checksum();
            project.require_workdir()?;
            let tree = project.worktree()?;
            runtime::require_installed_in(&project, &tree)?;
            Ok(Located::Repo(Box::new(project)))
        }
        Err(Error::NotARepository { .. }) => {
            let start = std::fs::canonicalize(cwd).map_err(|e| Error::io(cwd, e))?;
            let root = DirTree::find_root(&start).ok_or_else(|| {
                Error::refused(
                    format!(
                        "no installed STANDARDS runtime was found at or above `{}`",
                        start.display()
                    ),
                    None,
                )
            })?;
            let tree = DirTree::new(root);
            runtime::require_installed(&tree, tree.root())?;
            Ok(Located::Folder(tree))
        }
        Err(e) => Err(e),
    }
}

/// The folder of once-per-turn markers.
pub fn marker_dir() -> PathBuf {
    std::env::temp_dir().join(MARKER_DIR)
}

/// Claims the marker `name` in `dir` (HK-002): creates the folder if needed
/// (only the folder itself: its parent, the temporary folder, must exist),
/// deletes markers older than a day (ignoring races), then creates the marker
/// exclusively. `Ok(true)` when this call created it, `Ok(false)` when it
/// already existed, and `Err(why)` when no marker can be kept there: the
/// folder is a link or not a folder, belongs to another user, or is not
/// writable. Everything happens through the folder's handle, so a folder
/// swapped for a link meanwhile is never written through.
pub fn claim_marker(dir: &Path, name: &str, now: SystemTime) -> std::result::Result<bool, String> {
    use rustix::fs::{self as rfs, AtFlags, Mode, OFlags};
    let shown = dir.display();
    match rfs::mkdir(dir, Mode::from_raw_mode(0o700)) {
        Ok(()) | Err(rustix::io::Errno::EXIST) => {}
        Err(e) => return Err(format!("cannot create the marker folder `{shown}`: {e}")),
    }
    let fd = rfs::open(
        dir,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::empty(),
    )
    .map_err(|e| {
        format!("`{shown}` is not a folder of its own (a symbolic link or a file?): {e}")
    })?;
    let st = rfs::fstat(&fd).map_err(|e| format!("cannot inspect `{shown}`: {e}"))?;
    let me = rustix::process::geteuid().as_raw();
    if st.st_uid != me {
        return Err(format!(
            "the marker folder `{shown}` belongs to another user (uid {}), so it is not used",
            st.st_uid
        ));
    }
    if let Ok(entries) = crate::repo::handles::list(&fd) {
        for entry in entries {
            // Only our own markers are removed: 32 hex digits, regular files.
            let Ok(file) = std::str::from_utf8(&entry.name) else {
                continue;
            };
            if !is_marker_name(file) || entry.kind != rfs::FileType::RegularFile {
                continue;
            }
            let old = rfs::statat(&fd, file, AtFlags::SYMLINK_NOFOLLOW).is_ok_and(|m| {
                let modified =
                    SystemTime::UNIX_EPOCH + Duration::from_secs(m.st_mtime.max(0) as u64);
                now.duration_since(modified)
                    .is_ok_and(|a| a > MARKER_MAX_AGE)
            });
            if old {
                let _ = rfs::unlinkat(&fd, file, AtFlags::empty());
            }
        }
    }
    match rfs::openat(
        &fd,
        name,
        OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::from_raw_mode(0o600),
    ) {
        Ok(_) => Ok(true),
        Err(rustix::io::Errno::EXIST) => Ok(false),
        Err(e) => Err(format!("cannot create a marker in `{shown}`: {e}")),
    }
}

/// Whether a file name is one of the hook's markers: 32 lowercase hex digits.
fn is_marker_name(name: &str) -> bool {
    name.len() == 32
        && name
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// The hook's procedure (RT §5.2) on the payload `input`, from `cwd`.
pub fn stop(cwd: &Path, input: &[u8], markers: &Path) -> Result<Outcome> {
    decide(cwd, input, markers).map(|(outcome, _)| outcome)
}

/// A blocking check in a repository, for its `check-failed` audit event.
struct Failure {
    project: Box<Project>,
    problems: usize,
    rules: Vec<&'static str>,
    cycle: Option<String>,
}

/// [`stop`], also returning what the audit event of a block needs.
fn decide(cwd: &Path, input: &[u8], markers: &Path) -> Result<(Outcome, Option<Failure>)> {
    let payload = Payload::parse(input);
    let located = locate(cwd)?;
    if payload.stop_hook_active == Some(true) {
        return Ok((Outcome::Allow, None));
    }
    let options = Options {
        at_turn_end: true,
        ..Default::default()
    };
    let mut cycle = None;
    let report: Report = match &located {
        Located::Repo(project) => {
            // When git cannot answer, check anyway (HK-001).
            if !project.has_changes(&is_workflow_path).unwrap_or(true) {
                return Ok((Outcome::Allow, None));
            }
            cycle = project
                .worktree()
                .ok()
                .and_then(|t| audit::active_cycle(&t));
            check::evaluate(project, &Source::Worktree, options)?.0
        }
        // Outside git the check always runs, with nothing to compare with.
        Located::Folder(tree) => standards_core::check::run(tree, None, options),
    };
    if report.ok() {
        return Ok((Outcome::Allow, None));
    }
    // Issue 10: a conflict is the user's to decide; the agent only reports it.
    let conflict = match &located {
        Located::Repo(project)
            if report
                .problems
                .iter()
                .any(|p| p.rule == "RT-003" || p.rule == "RT-004") =>
        {
            Some(repo_conflicts::state_of(project, &project.worktree()?)?)
        }
        _ => None,
    };
    let mut message = match conflict {
        Some(state) if !state.conflicts.is_empty() => conflict_stop_message(&state),
        _ => stop_message(&report.problems),
    };
    if payload.stop_hook_active.is_none() {
        let root = located.root().to_string_lossy();
        match claim_marker(markers, &marker_name(&root, &payload), SystemTime::now()) {
            Ok(true) => {}
            Ok(false) => return Ok((Outcome::Allow, None)),
            // A gate fails closed: the check failed, so the agent goes back,
            // told why the once-per-turn guard is not working (issue 7, item 6).
            Err(why) => message.push_str(&format!(
                "\nThe hook could not remember this turn ({why}), so it may send the agent back again; fix the folder or set TMPDIR to a private folder.\n"
            )),
        }
    }
    let failure = match located {
        Located::Repo(project) => {
            let mut rules: Vec<&'static str> = report.problems.iter().map(|p| p.rule).collect();
            rules.sort_unstable();
            rules.dedup();
            Some(Failure {
                project,
                problems: report.problems.len(),
                rules,
                cycle,
            })
        }
        Located::Folder(_) => None,
    };
    Ok((Outcome::Block(message), failure))
}

/// The guidance of the stop message during a merge conflict.
pub const CONFLICT_GUIDANCE: &str = "Stop working on the cycle now. Tell the user which cycles are involved (above) and wait for the user's decision. Never choose a side yourself: do not edit the conflicted files, do not run `git add` or `git standards resolve`; the user decides with `git standards resolve --keep ours` or `git standards resolve --keep theirs`.";

/// The stop message while `.standards/` is in conflict: both sides' cycles,
/// then [`CONFLICT_GUIDANCE`].
pub fn conflict_stop_message(state: &repo_conflicts::ConflictState) -> String {
    let mut text = String::from("STANDARDS: the workflow files are in a merge conflict.\n");
    for line in state.report_lines() {
        text.push_str(&line);
        text.push('\n');
    }
    text.push('\n');
    text.push_str(CONFLICT_GUIDANCE);
    text.push('\n');
    text
}

/// `git standards hook stop`: reads the payload from `input`, decides, writes
/// the stop message or the hook's own error to stderr. Always returns
/// [`Error::Exit`] unless the agent may stop: 2 to block, 1 on a failure.
pub fn run_stop(ctx: &mut Context, input: &mut dyn Read, client: Option<Client>) -> Result<()> {
    let mut bytes = Vec::new();
    let outcome = input
        .take(MAX_PAYLOAD_BYTES as u64)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io("<stdin>", e))
        .and_then(|_| match client {
            // A client always sends an object; anything else is a broken call.
            Some(_)
                if !matches!(
                    serde_json::from_slice(&bytes),
                    Ok(serde_json::Value::Object(_))
                ) =>
            {
                Err(Error::usage(
                    "the payload on standard input is not a JSON object",
                ))
            }
            _ => decide(&ctx.cwd, &bytes, &marker_dir()),
        });
    crate::repo::reads::report(ctx.err);
    match outcome {
        Ok((Outcome::Allow, _)) => Ok(()),
        Ok((Outcome::Block(message), failure)) => {
            let _ = ctx.err.write_all(message.as_bytes());
            if let Some(f) = failure {
                let mut event = Event::new(EventKind::CheckFailed)
                    .detail("hook", "stop")
                    .detail("source", "the working tree")
                    .detail("problems", f.problems)
                    .detail("rules", f.rules);
                if let Some(cycle) = f.cycle {
                    event = event.cycle(cycle);
                }
                audit::append_after(ctx, &f.project, event);
            }
            if client == Some(Client::Codex) {
                // Codex reads a block decision from stdout; its reason continues the turn.
                let answer = serde_json::json!({"decision": "block", "reason": message});
                let _ = writeln!(ctx.out, "{answer}");
                return Ok(());
            }
            Err(Error::Exit { code: 2 })
        }
        Err(e) => {
            let _ = writeln!(ctx.err, "STANDARDS hook error: {e}");
            Err(Error::Exit { code: 1 })
        }
    }
}

/// The projects `git standards hook pre-commit` checks, as folders of the
/// working tree opened through `project`'s repository; none when the hook
/// may exit at once (issue 14, item 5): nothing that the hook's pathspecs
/// (`*.md`, `.standards`, `*/.standards/*`) keep is staged differently from
/// HEAD, decided from object IDs without reading a blob.
/// A folder that cannot be opened is an error of its own, so the other
/// projects are still checked.
pub fn pre_commit_projects(project: &Project) -> Result<Vec<Result<Project>>> {
    if crate::repo::staged::relevant_unchanged(project)? {
        return Ok(Vec::new());
    }
    Ok(crate::repo::staged::staged_projects(project)?
        .iter()
        .map(|dir| project.at_folder(dir))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(file: &str, message: &str) -> Problem {
        Problem {
            rule: "PV-001",
            file: file.into(),
            line: None,
            message: message.into(),
            hint: None,
            source: standards_core::check::RuleSource::Reference,
        }
    }

    #[test]
    fn payloads_that_are_not_objects_are_empty() {
        for input in [
            &b""[..],
            b"   \n",
            b"not json",
            b"[1, 2]",
            b"\"text\"",
            b"null",
            b"{\"stop_hook_active\": tru",
            b"\xff\xfe",
        ] {
            assert_eq!(Payload::parse(input), Payload::default(), "{input:?}");
        }
    }

    #[test]
    fn payload_keys() {
        let p = Payload::parse(
            br#"{"session_id": "s", "turn_id": "t1", "prompt_id": "p", "stop_hook_active": false, "cwd": "/x"}"#,
        );
        assert_eq!(p.stop_hook_active, Some(false));
        assert_eq!(p.session_id.as_deref(), Some("s"));
        assert_eq!(p.turn(), "t1");
        let p = Payload::parse(br#"{"stop_hook_active": true, "prompt_id": "p"}"#);
        assert_eq!(p.stop_hook_active, Some(true));
        assert_eq!(p.turn(), "p");
        // Not a boolean: the marker decides.
        let p = Payload::parse(br#"{"stop_hook_active": "true", "turn_id": ""}"#);
        assert_eq!(p.stop_hook_active, None);
        assert_eq!(p.turn(), "session");
        let p = Payload::parse(br#"{"session_id": 7, "turn_id": {"a": 1}}"#);
        assert_eq!(p.session_id.as_deref(), Some("7"));
        assert_eq!(p.turn(), "session");
    }

    #[test]
    fn marker_names_hash_root_session_and_turn() {
        let p = Payload {
            session_id: Some("s".into()),
            turn_id: Some("t1".into()),
            ..Payload::default()
        };
        let name = marker_name("/proj", &p);
        // printf '/proj\0s\0t1' | sha256sum | cut -c1-32
        assert_eq!(name, "5f435f5ad4ddaa559954a3b832a517e1");
        assert_eq!(name.len(), 32);
        assert!(name
            .chars()
            .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()));
        let t2 = Payload {
            turn_id: Some("t2".into()),
            ..p.clone()
        };
        assert_ne!(marker_name("/proj", &t2), name);
        assert_ne!(marker_name("/other", &p), name);
        // No session and no turn: `<root>\0\0session`.
        assert_eq!(
            marker_name("/proj", &Payload::default()),
            marker_name(
                "/proj",
                &Payload {
                    session_id: Some(String::new()),
                    prompt_id: Some("session".into()),
                    ..Payload::default()
                }
            )
        );
    }

    #[test]
    fn sc_hook_008_at_most_fifteen_problem_lines_then_the_rest_counted() {
        let problems: Vec<Problem> = (0..20)
            .map(|i| problem(&format!("f{i}.md"), "malformed provenance"))
            .collect();
        let text = stop_message(&problems);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], HEADING);
        assert_eq!(lines.iter().filter(|l| l.starts_with("- f")).count(), 15);
        assert_eq!(lines[1], "- f0.md: malformed provenance");
        assert_eq!(lines[15], "- f14.md: malformed provenance");
        assert_eq!(
            lines[16],
            "- ...and 5 more. Run `git standards check` to see them all."
        );
        assert_eq!(lines[17], "");
        assert_eq!(lines[18], GUIDANCE);
        assert_eq!(lines.len(), 19);
        assert!(text.ends_with(".\n"));
        // Exactly fifteen: no overflow line.
        let text = stop_message(&problems[..15]);
        assert!(!text.contains("more."), "{text}");
        assert_eq!(text.lines().count(), 1 + 15 + 1 + 1);
    }

    #[test]
    fn the_guidance_forbids_guessing_and_routes_the_rest() {
        for words in [
            "Do not guess a repair",
            "your current role owns",
            "another role",
            ".standards/PROTOCOL.md",
            "Navigator",
            "report the problems to the user",
        ] {
            assert!(GUIDANCE.contains(words), "{words}");
        }
    }

    #[test]
    fn workflow_paths_follow_the_pathspecs() {
        for p in [
            ".standards/STATE.md",
            ".standards/VERSION.json",
            "README.md",
            "docs/notes/broken.md",
            ".claude/skills/x/SKILL.md",
        ] {
            assert!(is_workflow_path(p), "{p}");
        }
        for p in ["app.py", "docs/readme.txt", "standards/x.json", "x.md.bak"] {
            assert!(!is_workflow_path(p), "{p}");
        }
    }

    #[test]
    fn markers_are_created_once_and_expire_after_a_day() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join(MARKER_DIR);
        let now = SystemTime::now();
        let (a, b) = (
            "0000000000000000000000000000000a",
            "0000000000000000000000000000000b",
        );
        assert_eq!(claim_marker(&dir, a, now), Ok(true));
        assert_eq!(claim_marker(&dir, a, now), Ok(false));
        assert_eq!(claim_marker(&dir, b, now), Ok(true));
        // A day and a minute later both are gone, so the turn may block again.
        let later = now + MARKER_MAX_AGE + Duration::from_secs(60);
        assert_eq!(claim_marker(&dir, a, later), Ok(true));
        assert!(!dir.join(b).exists());
        // A marker folder that cannot be created is an error (the hook then
        // fails closed), and missing ancestors are never created.
        let file = tmp.path().join("not-a-folder");
        std::fs::write(&file, "x").unwrap();
        assert!(claim_marker(&file.join(MARKER_DIR), a, now).is_err());
        let deep = tmp.path().join("no/such/tmp");
        assert!(claim_marker(&deep.join(MARKER_DIR), a, now).is_err());
        assert!(!tmp.path().join("no").exists());
    }

    #[test]
    fn markers_never_touch_other_files_or_follow_a_linked_folder() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("markers");
        std::fs::create_dir_all(&dir).unwrap();
        let day_after = SystemTime::now() + Duration::from_secs(3 * 24 * 3600);
        std::fs::write(dir.join("notes.txt"), "mine").unwrap();
        let stale = "0123456789abcdef0123456789abcdef";
        std::fs::write(dir.join(stale), "").unwrap();
        assert_eq!(
            claim_marker(&dir, "fedcba9876543210fedcba9876543210", day_after),
            Ok(true)
        );
        assert!(
            dir.join("notes.txt").exists(),
            "a user file is never deleted"
        );
        assert!(!dir.join(stale).exists(), "a stale marker is deleted");

        let elsewhere = tmp.path().join("elsewhere");
        std::fs::create_dir_all(&elsewhere).unwrap();
        std::fs::write(elsewhere.join(stale), "").unwrap();
        let linked = tmp.path().join("linked");
        std::os::unix::fs::symlink(&elsewhere, &linked).unwrap();
        assert!(claim_marker(&linked, "00000000000000000000000000000000", day_after).is_err());
        assert!(
            elsewhere.join(stale).exists(),
            "nothing is deleted through a link"
        );
        assert_eq!(
            std::fs::read_dir(&elsewhere).unwrap().count(),
            1,
            "nothing is created through a link"
        );
    }
}
