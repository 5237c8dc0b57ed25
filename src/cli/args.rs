//! The clap definition of `git standards`. Doc comments are the help text.

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

use crate::commands::{self, Context};
use crate::error::{Error, Result};
use standards_core::model::vocab::{
    ArtifactType, CompletionPolicy, CycleMode, FailureType, IdPrefix, ReviewKind, WorkflowState,
};
use standards_core::records::plan::Cadence;

/// The top-level reference, printed after the list of subcommands, so that
/// `--help` shows the commands first.
const TOP_LEVEL_REFERENCE: &str = r#"EXIT STATUS

0: success.

1: problems found, or the operation was refused; nothing was changed.

2: usage error (unknown subcommand or option, bad value).

3: internal error; please report it.

`git standards hook stop` is the exception, because agent clients read its status: 0 lets the agent stop, 2 sends it back with the problems, and 1 reports the hook's own usage or internal errors.

STATUS JSON

`git standards status --json` prints one JSON object; on success it has all the keys below. Vocabulary values keep the protocol's spelling, `UNSET` and `NONE` included; free-text and path fields are null where STATE.md says `NONE` or `UNSET`.

ok: true. When the status cannot be shown, the object is {"ok": false, "error": "<message>", "hint": "<what to do>" or null} and the exit status is 1 (or 3); when STATE.md or MODE.md is in a merge conflict it also has "conflict", the same object as in `git standards check --json`, naming both sides' cycle, request and workflow state; run at the top of a repository whose projects live only in subfolders, it has "projects": [{"folder": "<folder, relative to the repository's top>", "command": "git standards -C <folder> ..."}] (`git standards check --json` too).

source: the snapshot read: "the working tree", "the index", or "commit <short id> (`<rev>`)".

commit: the full commit ID with --ref, else null.

projectMode: GREENFIELD or BROWNFIELD from MODE.md; null when MODE.md is missing or invalid (the reason is in problems).

workflowState, owner: the workflow state and the role that acts in it (Scoper, Architect, Auditor, Developer, Tester, Reviewer, Documenter, Synchronizer, or user).

cycleMode, completionPolicy: the cycle's mode and completion policy.

pendingCycle: {mode, request, blockedOn}: the next-cycle preference and the blocked next-cycle request with its question.

activeWork: {id, request, scope, architecture, development, blockedOn, promotionReason, auditTarget, pendingVerificationCadence}, or null when no cycle is active.

lastCycle: {id, request, outcome} of the cycle that a terminal state (outcome SIGNED_OFF or CANCELLED) ended, else null.

handoff: {kind, from, failureType, reason}: the last handoff, as written.

recovery: the recovery frames, newest (the active one) first: [{frame, from, owner, ownerRole, failureType, reason, resumeAt, rerunThrough}]; a field missing from the file is null.

obligations: the outstanding obligations: [{obligation, owner, ownerRole, failureType, reason}].

baselineReconciliation: the cancelled cycles awaiting baseline reconciliation: [{sourceCycle, request}].

problems: what is wrong but did not stop the report, as "file:line: message" strings.

next: {owner, state, invocation, userOptions, blockedBy}: the role that owns the current state ("user" when the user decides), its invocation {skill, heading, codex, claudeCode} for Codex (`$skill ...`) and Claude Code (`/skill ...`) or null, the user's options [{action, command, then}] at AWAITING_USER_SIGNOFF or without a cycle (`then`, when present, is what follows the command: a reset before merging a branch other than the main one), and what blocks the work (a user question, an open recovery frame, outstanding obligations, merge conflicts) as sentences.

TRANSITION JSON

The transition commands (start, handoff, fail, rework, resume, promote, policy, cadence, signoff, cancel, block, unblock, next-mode) take --json: stdout then carries one JSON object instead of the next step (the summary sentence stays on stderr).

ok: true; command: the subcommand; move: what was recorded (start, start-blocked, handoff, checkpoint, fail, rework, resume, promote, policy, cadence, signoff, cancel, block, unblock, next-mode); changed: false when the move legitimately changed nothing (a repeated policy); cycle: the cycle's ID, or null before the first cycle.

before, after: the workflow state before and after the move.

fields: each STATE.md field the move changed, as {field, before, after}, in a fixed order (the head fields, Active Work, Handoff, Recovery, Outstanding Obligations): the protocol's name ("WorkflowState", "PendingCycleMode", "Active Work.Request", "Handoff.Reason", "Recovery.Active", "Recovery.Frame 1", "Outstanding Obligations.Obligation 1", "Active Work.BaselineReconciliation"); a value is the field's text, true/false for an `Active` flag, an entry's fields as an object (null when the entry did not exist before or no longer exists), "NONE" or [{SourceCycle, Request}] for the baseline list.

event: the ID of the audit event the move recorded (`git standards log --json` shows it), null when nothing was recorded (no change, or the append failed after the write, which a warning reports).

summary: the sentence also printed on stderr.

next: the next step when the text output prints one (the next role's invocation, the user's options), as `next` in STATUS JSON; else null.

warnings: what the text output prints as `warning:` lines on stderr (a cycle started on the main branch or on a detached HEAD), else [].

A refusal prints {"ok": false, "error": "<message>", "hint": "<what to do>" or null} and exits 1 (2 for a usage error, 3 for an internal error); nothing was written.

EXAMPLES

`git standards demo`: try the workflow in a throwaway repository.

`git standards install`: install the runtime into this repository's `.standards/`.

`git standards status`: the workflow state, its owner and the cycle.

`git standards check --staged`: check what the next commit will hold, as the pre-commit hook does.

`git standards check --ref main --json`: check a branch tip without a checkout, for CI."#;

/// Git-native runtime of the S.T.A.N.D.A.R.D.S. agent workflow.
///
/// Reads each branch's `.standards/` folder as the workflow state: from the working tree, the index, HEAD or any ref, without a checkout. Git runs it as `git standards <subcommand>`; `git standards --help` opens the manual page git-standards(1), which holds this text.
///
/// Paths printed for a person are relative to the current folder, as git prints them (`../.standards/STATE.md` from `src/`); `--json` output keeps them relative to the project's top (the folder holding `.standards/`), the audit trail and the reset preview's diffs keep the repository's paths, as `git log` and `git diff` do, and `archive show` lists the archive's own paths, which `archive show` and `archive restore` take back.
#[derive(Debug, Parser)]
#[command(
    name = "git-standards",
    bin_name = "git standards",
    version,
    propagate_version = true,
    verbatim_doc_comment,
    after_long_help = TOP_LEVEL_REFERENCE
)]
pub struct Cli {
    /// Run as if started in <path>.
    #[arg(short = 'C', value_name = "path", global = true)]
    pub directory: Option<PathBuf>,

    /// When to use colours.
    #[arg(long, value_enum, ignore_case = true, default_value_t = ColorChoice::Auto, global = true)]
    pub color: ColorChoice,

    /// Without a subcommand, a short overview is printed.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// What `git standards` alone prints: where to start, not the whole manual.
pub const OVERVIEW: &str = "\
usage: git standards <subcommand> [<options>]

Start here:
   git standards demo        try the workflow in a throwaway repository
   git standards install     install the runtime into this repository's .standards/

Every day:
   git standards status      the workflow state, its owner and the cycle
   git standards check       check the state and the active cycle's records
   git standards log         the audit trail: who did what, when
   git standards notes sync  share the audit trail with the remote (git does not push notes)

`git standards help` lists every subcommand; `git standards --help` opens the manual.
";

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// Colours on a terminal, unless NO_COLOR is set.
    Auto,
    Always,
    Never,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Install or upgrade the STANDARDS runtime in this repository.
    Install(InstallArgs),
    /// Check the workflow state and the active cycle's records against every protocol rule.
    ///
    /// Checks the working tree (or the index, or a commit) and compares it with
    /// the last commit where the rules call for it. Prints one problem per line
    /// as `file: message [RULE-ID]` grouped by file, then a summary. Exit status
    /// 0 when there is no problem, 1 when there is any.
    ///
    /// By default every rule of the installed protocol is checked: the
    /// reference checker's catalogue and the further protocol rules (the PR
    /// family, listed in docs/rules.md). With --compat only the reference
    /// catalogue is checked, as the Node runtime did.
    ///
    /// Markdown blobs found to hold no provenance block, and `.standards/`
    /// blobs found to hold no conflict markers, are remembered by ID in the
    /// common git directory (`standards/content-verdicts`), so later checks,
    /// the hooks and `verify` do not read them again; `git config
    /// standards.scanCache false` turns this off.
    ///
    /// With --json, prints one object: `ok` (bool), `problems` (array of
    /// objects with `rule`, `file`, `message`, `source` (`reference` for the
    /// reference catalogue, `protocol` for the PR family) and, when known,
    /// `hint`), `notes` (array of strings), `checked` (`source`,
    /// `comparedWith`, `rules`: the number of rules evaluated, `compat`) and
    /// `conflict`: null, or during a merge
    /// conflict or an operation in progress that changes `.standards/`,
    /// `{operation, operationChangesStandards, files: [{path, unmerged,
    /// cycles, ours, theirs}]}` where each side is null (it deleted the file)
    /// or `{label, cycle, request, workflowState}`. A conflict is also printed
    /// first in the text form, naming both sides' cycles.
    Check(CheckArgs),
    /// Cycle IDs: `git standards cycle new --request "<request text>"`.
    #[command(subcommand)]
    Cycle(CycleCommand),
    /// Records of the active cycle: `git standards artifact init <TYPE> [--kind <KIND>]`.
    #[command(subcommand)]
    Artifact(ArtifactCommand),
    /// Record-local identifiers: `git standards id next <PREFIX> <file>`.
    #[command(subcommand)]
    Id(IdCommand),
    /// Show the workflow state of the working tree, the index or any commit.
    ///
    /// Reads `.standards/STATE.md` and `.standards/MODE.md` from one snapshot and shows the project mode, the workflow state and its owner, the cycle, the last handoff, the recovery stack (newest frame first), outstanding obligations, baseline reconciliation entries, and Next: the role to invoke (for Codex and Claude Code) or the user's options, and what blocks the work.
    ///
    /// Exits 0 when it could show the state, even when it lists problems (for example an invalid MODE.md); exits 1 when no runtime is installed in the snapshot, or when STATE.md is missing, not UTF-8, invalid or has unresolved merge conflicts. The --json keys are described under STATUS JSON in `git standards --help`.
    #[command(verbatim_doc_comment)]
    Status(StatusArgs),
    /// The agents' stop hook: `git standards hook stop`.
    #[command(subcommand)]
    Hook(HookCommand),
    /// Discover a role's invocation options without changing any file.
    ///
    /// Reads the role's installed skill (`.agents/skills/<role>/` for Codex, `.claude/skills/<role>/` for Claude Code): the `<!-- standards:invocation -->` metadata block of its SKILL.md and of each `modes/*.md`, the workflow facts those blocks name (MODE.md, STATE.md, the active cycle's records) and the user-style file names in `.standards/user-styles/<role>/`. It never writes, never applies a default and never starts a cycle. Style and mode file contents are never printed.
    ///
    /// Without --client the one installed copy is used; with both installed, --client is required (copies are never merged).
    ///
    /// JSON OUTPUT (--json), keys in this order: schemaVersion (1), role, client ("codex", "claude" or null), catalogStatus ("complete" or "unavailable"), complete (true only when the catalog is complete and no diagnostic was raised), groups, userStyles (null when unavailable), diagnostics ([{code, source, message}], sorted), skillFile (only when the catalog was assembled), ok (true when the catalog was assembled and the exit status is 0, false otherwise). A well-formed role name that is none of the nine roles is a usage error (exit 2; with --json, {"ok": false, "error", "hint"}).
    ///
    /// A group: id, label, source, selectionRules, defaultForNew and inferFromRequest (when declared), options, selected, savedValue, savedArgument (when declared), locked ("true", "false" or "unknown"). An option: id, label, description, selection (user, state or assessment), when, requiresAssessment, argument, instructionFile (when present), condition ("true", "false", "unknown"), assessmentRequired, selectability (user, locked, assessment-required, state-controlled, informational, unavailable or unknown).
    ///
    /// A resolution (selected, savedValue, savedArgument): {status, value, source} when known; {status, value, source, reason} when invalid; else {status, value: null, reason}. Status is one of known, unknown, invalid, conversation, assessment, none, conflict. userStyles: {directory, status ("complete" or "unknown"), options [{id, file, selector, selectorReason}], savedValue, selected, locked}. A style's selector is the name to save or invoke it by; null with the reason "ambiguous name", "no record-compatible name" or "selection unverified".
    ///
    /// Exit status: 0 when the catalog is complete, 1 when it is unavailable (the result is printed either way). Exit 0 does not mean an option is selectable or that a workflow gate passed.
    #[command(verbatim_doc_comment)]
    Invocation(InvocationArgs),
    /// Start a cycle: validate its mode and policy, generate its ID and record it in STATE.md.
    ///
    /// Works from the installed state, `SIGNED_OFF` or `CANCELLED` (user-decisions.md, Start a cycle). The mode is --mode, else the pending preference, else STANDARD; the policy of a STANDARD cycle is --policy, else FULL_DELIVERABLE. When the mode is not legal (EXPEDITED or DOCUMENTATION in a GREENFIELD project, EXPEDITED while baseline reconciliation is open, a policy for a non-standard cycle) nothing starts: the request and the decision the user must make are saved in `PendingCycleRequest` and `PendingCycleBlockedOn`. After a cancelled cycle its ID and request join `BaselineReconciliation`, unless --cancelled-left-no-changes. Prints the first role's invocation.
    #[command(verbatim_doc_comment)]
    Start(StartArgs),
    /// Hand the cycle to the next state: a forward handoff, or a checkpoint with --checkpoint.
    ///
    /// The target must be the next state of the cycle's route (Forward Transitions), or during a recovery rerun a later state up to the frame's `RerunThrough` (a jump is recorded as RESUME). Refused while `check` reports a problem in files the current role owns, while the cycle is blocked on a user question, while an outstanding obligation of the current state is open, and when `check` would reject the new state. A checkpoint goes DEVELOPING -> TESTING or back, only with the plan's cadence INCREMENTAL, no recovery, and a reason naming one `Increment N`. Prints the next role's invocation for Codex and Claude Code.
    #[command(verbatim_doc_comment)]
    Handoff(HandoffArgs),
    /// Route a defect to the state that owns it (Failure Handoffs).
    ///
    /// The failure type names the owner (REVIEW: say which review with --to). A move to another state pushes a recovery frame that resumes at the current state; a same-state failure records the handoff without a frame. In an EXPEDITED cycle only IMPLEMENTATION and REVIEW exist (promote instead); a DOCUMENTATION cycle has no IMPLEMENTATION or VERIFICATION owner (block on a user decision instead).
    #[command(verbatim_doc_comment)]
    Fail(FailArgs),
    /// Record the user's changed request and route it to the earliest owner it invalidates (USER_REWORK).
    ///
    /// Replaces `Active Work.Request`, then routes like `fail`, pushing a recovery frame when the state changes. Allowed in any nonterminal state, `AWAITING_USER_SIGNOFF` included.
    #[command(verbatim_doc_comment)]
    Rework(ReworkArgs),
    /// Close or plan the active recovery frame (Recovery Mechanics).
    ///
    /// Run by the frame's owner: without --rerun-through it pops the frame and returns to its `ResumeAt` (RESUME); with --rerun-through it sets the frame's `RerunThrough` and hands off to the first rerun state (the owner's successor, or --to). At the rerun boundary (the state named in `RerunThrough`) it pops the frame and returns to `ResumeAt`.
    #[command(verbatim_doc_comment)]
    Resume(ResumeArgs),
    /// Promote an EXPEDITED cycle to STANDARD (FULL_DELIVERABLE) at AUDITING.
    ///
    /// Open recovery frames whose owner has not finished become outstanding obligations; the reason is kept in `PromotionReason`. At AWAITING_USER_SIGNOFF it is the user's decision, audited before the write.
    #[command(verbatim_doc_comment)]
    Promote(PromoteArgs),
    /// Change the completion policy of the active STANDARD cycle.
    ///
    /// In SCOPING through REVIEWING_IMPLEMENTATION the state stays; from an unstarted DOCUMENTING the shorter policy returns to REVIEWING_IMPLEMENTATION, and at AWAITING_USER_SIGNOFF withdrawing it resumes at DOCUMENTING (COMPLETION_CHANGE). Needs an empty recovery stack and no obligations. The user's decision: audited before the write.
    #[command(verbatim_doc_comment)]
    Policy(PolicyArgs),
    /// Record the user's verification cadence request for the Developer (`PendingVerificationCadence`).
    Cadence(CadenceArgs),
    /// Sign off the cycle at AWAITING_USER_SIGNOFF (the user's decision, audited before the write).
    ///
    /// Refused while recovery frames or outstanding obligations remain.
    ///
    /// A sign-off is bound to a person and to the content. The agent relays the person's reply verbatim with --reply; it is kept in the `signed-off` event. Where the agent clients' prompt hook is registered (`git standards hook prompt-submit` in `.claude/settings.json` or `.codex/hooks.json`), sign-off is refused unless a person spoke (a `human-turn` event) while the cycle was at AWAITING_USER_SIGNOFF, after it last reached that state; then --reply is required, and with git config `standards.recordPrompts` the reply must be part of what the person wrote. A person signing off at a terminal, or a team without the hook, passes --no-human-turn-check: the event records that the check was overridden. The event also records HEAD's commit, the tree IDs of the project and of `.standards/docs/` there, and whether the working tree had uncommitted changes; `git standards verify` reports changes made after sign-off (SO-001).
    #[command(verbatim_doc_comment)]
    Signoff(SignoffArgs),
    /// Cancel the active cycle (the user's decision, audited before the write).
    ///
    /// In a BROWNFIELD project the cycle is kept as CANCELLED and its changes are reconciled when the next cycle starts. In a GREENFIELD project cancellation is a workflow reset (Greenfield Bootstrap Cancellation): without --yes it previews `git standards reset --mode greenfield` and changes nothing (exit 1); with --yes, given the user's approval of that preview, it runs the reset (the `.standards/` tree is archived first).
    #[command(verbatim_doc_comment)]
    Cancel(CancelArgs),
    /// Record a blocking user question in `Active Work.BlockedOn`.
    Block(BlockArgs),
    /// Clear the blocking question; before a cycle, drop the blocked next-cycle request.
    Unblock(JsonArgs),
    /// Choose the next cycle's mode: the user's preference in `PendingCycleMode` (`unset` withdraws it).
    ///
    /// user-decisions.md, Choose the next cycle's mode: only on the user's explicit instruction, audited before the write, and only while no cycle is active (the installed state before the first request, `SIGNED_OFF` or `CANCELLED`). Nothing else changes: `CycleMode` stays `UNSET` and `Active Work` is left alone. A GREENFIELD project accepts only `standard`. The next `start` consumes the preference (without --mode it is the cycle's mode, checked against the project mode, the request and an open baseline reconciliation) and clears it.
    ///
    /// While a cycle is active the command is refused. Cycle Modes rule 6 ("selecting a mode for the next cycle never changes an active cycle") could be read as allowing a preference to be queued during a cycle; the command follows the section's own wording ("while no cycle is active"), which rule 2 defers to and which rule 1 supports (all pending-cycle fields must be clear when a cycle ends, so a queued preference could not survive to the next cycle).
    ///
    /// When a request waits in `PendingCycleRequest`, the checks of Start a cycle run again on it with the new preference: if they pass, the saved request starts as the new cycle (the output is then that of `start`; add --cancelled-left-no-changes only when the user confirmed it, as for `start`); otherwise it stays saved with the decision the user must make in `PendingCycleBlockedOn`.
    #[command(verbatim_doc_comment)]
    NextMode(NextModeArgs),
    /// Show the audit trail: every recorded event, oldest first.
    ///
    /// Reads the events from git notes under `refs/notes/standards` and prints one line per event: time (UTC), actor, cycle (`-` outside any cycle), event type and its own keys. Sorted by time, then event ID. Every filter given must hold. With --json, prints each event's stored JSON line unchanged (JSON Lines).
    ///
    /// A stored line that is not a valid event (edited by hand, or fetched from a remote) is reported on stderr with its note (anchor) and line number, and skipped: every valid event is still printed and the exit status stays 0. With --json the report is one JSON object per bad line on stderr: {"warning", "note" (the annotated anchor's ID), "cycle" (null for the project anchor), "line", "problem"}.
    #[command(verbatim_doc_comment, after_long_help = standards_core::audit::schema_help())]
    Log(LogArgs),
    /// Share the audit trail with a remote: `git standards notes sync [<remote>]`.
    #[command(subcommand)]
    Notes(NotesCommand),
    /// Try git standards in a throwaway repository.
    ///
    /// Creates a git repository in a temporary folder, installs the STANDARDS runtime there, shows its status, and removes the folder again. Nothing outside that folder changes.
    #[command(verbatim_doc_comment)]
    Demo(DemoArgs),
    /// Git's merge driver for `.standards/STATE.md`: `git standards merge-driver %O %A %B %P`.
    ///
    /// Git's line merge would combine two branches' STATE.md edits when they touch different lines, producing a state neither branch had. This driver treats STATE.md as one value: when only one side changed it, it takes that side; when both changed it, it writes both whole versions between conflict markers, labelled with each side's cycle ID and workflow state, and exits 1 so the user decides (`git standards resolve --keep ours|theirs`).
    ///
    /// Configure it with `.gitattributes` (`.standards/STATE.md merge=standards`) and `git config merge.standards.driver 'git standards merge-driver %O %A %B %P'` (`git standards hooks install` does both).
    ///
    /// A side larger than 1 MiB (1048576 bytes) is never read whole, and a side that already holds conflict markers is never merged: both are a conflict that leaves the file as your branch had it.
    ///
    /// Exit status: 0 merged cleanly; 1 conflict, or an input it could not read, too large or holding conflict markers (the file is then left as your branch had it, marked as conflicted, with the reason on stderr).
    #[command(verbatim_doc_comment)]
    MergeDriver(MergeDriverArgs),
    /// Resolve a STATE.md merge conflict by the user's decision: `git standards resolve --keep ours|theirs`.
    ///
    /// Writes the kept side's whole `.standards/STATE.md` (git's "ours" is stage 2, "theirs" stage 3; during a rebase "ours" is the branch being rebased onto), stages it, and leaves every record of both cycles in place; it prints which cycle stopped being tracked and where its records are. The decision is recorded as a `conflict-resolved` audit event before anything is written.
    ///
    /// Refused while other `.standards/` files still hold conflicts (it lists them), when STATE.md has no conflict, and when the kept version is not a valid STATE.md. It asks for confirmation on a terminal; elsewhere it needs --yes.
    #[command(verbatim_doc_comment)]
    Resolve(ResolveArgs),
    /// Refuse to merge a branch that still holds cycle state into the main branch.
    ///
    /// A branch may merge into the main branch (or a protected branch) only when its committed `.standards/` is a fresh installation: no CONTEXT.md, no `.standards/docs/`, STATE.md in the installed state of its MODE.md's mode, no cycle. Reset the branch first (`git standards reset --yes --commit`); when the target has no `.standards/` at all, `git standards uninstall --yes` is the other way out (both forms run without a terminal, as in a hook or CI). Every project of the repository is checked.
    ///
    /// The main branch is git config `standards.mainBranch`, else `main-branch` in `.standards/config.toml`, else the remote's HEAD branch, else `init.defaultBranch`, else `main`; protected branches are the glob patterns `protected-branches` (or git config `standards.protectedBranches`).
    ///
    /// Without <branch> it judges the merge in progress (MERGE_HEAD, or the branch git names to the pre-merge-commit hook), else the staged merge result. Exit status 0 when the merge may go ahead (also when the target is not guarded), 1 when it is refused.
    #[command(verbatim_doc_comment)]
    MergeGuard(MergeGuardArgs),
    /// Check every commit of a range against its first parent, and optionally the merge into a branch.
    ///
    /// For CI and the pre-push hook. The default range runs from the merge-base with the main branch to HEAD, along first parents; `A..B` runs from A (excluded) to B, `A...B` from their merge-base, and a single revision B from its merge-base with the main branch. Each commit is checked as `git standards check --ref <commit>` would; a commit whose `.standards/` and Markdown files, and whose parent's, equal those of a commit already checked reuses that verdict, and a blob is read once per run. Commits without a STANDARDS runtime are skipped.
    ///
    /// With --into <branch>, the tip's merge into <branch> is computed in memory (`git merge-tree --write-tree`) and checked against <branch>, the merge guard judges the tip (see `git standards merge-guard`), and STATE.md counts as conflicting when both sides changed it since their merge-base (D24), because forges run no merge driver.
    ///
    /// A shallow clone whose range reaches the shallow boundary is refused (fetch with `fetch-depth: 0`, or `git fetch --deepen`); it is never reported as clean.
    ///
    /// Prints one verdict line per commit (short ID, subject, pass or the problems) and a summary. Exit status 0 when everything passes, 1 when any commit or the merge fails.
    ///
    /// FORMATS
    ///
    /// text: the lines above. github (the default when GITHUB_ACTIONS=true): the text, then `::error` workflow commands, at most 10, most important first (the merge, then the commits oldest first), a `::notice` counting the rest, and the full table appended to $GITHUB_STEP_SUMMARY (at most 1 MiB). gitlab: a Code Quality report (a JSON array of {description, check_name, fingerprint, severity, location: {path, lines: {begin}}}); the fingerprint hashes rule, path and cycle ID, never a line number. sarif: a SARIF 2.1.0 log for GitHub code scanning (`github/codeql-action/upload-sarif`): one run whose results carry `ruleId` (the rule IDs above; `merge-guard`, `state-merge`, `merge-conflict` for the merge), level `error`, the message, and the file and line. Annotations, Code Quality issues and SARIF results point at the line the problem is on (line 1 when the rule names none).
    ///
    /// JSON
    ///
    /// {ok, mainBranch, projects (the project folders checked, "" for the top: the project -C names, else every project of the tip), base (commit ID or null), tip, commits: [{id, subject, ok, skipped (reason or null), reusedFrom (commit ID or null), cycle (ID or null), problems: [{rule, file, line (or null), message, hint}]}], into: null or {branch, target, ok, guarded, guard: [{project, message, hint}], stateConflict (text or null), conflicts: [path], problems: [...]}, summary: {commits, failed, reused}}. Refusals print {ok: false, error, hint}.
    #[command(verbatim_doc_comment)]
    Verify(VerifyArgs),
    /// Install, remove or show the git hooks and the STATE.md merge driver.
    #[command(subcommand)]
    Hooks(HooksCommand),
    /// Install the manual pages where `man` finds them.
    ///
    /// `git standards --help` makes git open `man git-standards`; after `cargo install`, run `git standards manpages --install` once so that works. Without `--install`, lists the pages.
    ///
    /// EXAMPLES
    ///
    /// `git standards manpages --install`: writes the pages into `share/man/man1/` beside the binary's folder (for `~/.cargo/bin/git-standards`, `~/.cargo/share/man/man1/`), where `man` looks for the programs on `PATH`.
    ///
    /// `git standards manpages --install ~/.local/share/man`: writes them into `~/.local/share/man/man1/`.
    #[command(verbatim_doc_comment)]
    Manpages(ManpagesArgs),
    /// Print a shell completion script.
    ///
    /// The script completes both `git-standards <TAB>` and `git standards <TAB>` (inside git's own completion for bash, zsh and fish).
    ///
    /// EXAMPLES
    ///
    /// bash: `git standards completions bash > ~/.local/share/bash-completion/completions/git-standards`, and source it from `~/.bashrc` after git's completion (`source ~/.local/share/bash-completion/completions/git-standards`).
    ///
    /// zsh: `git standards completions zsh > ~/.zfunc/_git-standards` with `fpath=(~/.zfunc $fpath)` before `compinit`.
    ///
    /// fish: `git standards completions fish > ~/.config/fish/completions/git-standards.fish`.
    #[command(verbatim_doc_comment)]
    Completions(CompletionsArgs),
    /// Return the workflow to a fresh installation (Project Reset), archiving everything it deletes.
    ///
    /// Deletes `.standards/CONTEXT.md` and `.standards/docs/` (every cycle record) and rewrites `.standards/STATE.md` and `.standards/MODE.md` from this binary's templates; the mode is --mode, else inferred from the project's files as a first install infers it. Keeps everything else: PROTOCOL.md, the chapters, VERSION.json, INSTALLATION.json, user styles, config.toml, any other file, client integration, and all project files outside `.standards/`. Run it on a branch once its cycle is signed off or cancelled, before merging, so the main branch keeps a fresh installation.
    ///
    /// Before deleting anything it stores the whole current `.standards/` (uncommitted and untracked files included) as a commit under `refs/standards/archive/<cycle-id>` (`reset-<UTC time>` when no cycle was started; a later reset of the same cycle adds a commit on top) and prints the ref; `git standards archive show` reads it back. Push archives with `git push origin 'refs/standards/*:refs/standards/*'`.
    ///
    /// Refuses a `.standards/` without the framework marker, a VERSION.json other than this binary's version (upgrade with `git standards install` first), unmerged or conflict-marked files under `.standards/`, and symbolic links in what it deletes. An active cycle (not SIGNED_OFF or CANCELLED) is named in a warning. Without --yes it asks on a terminal and refuses elsewhere, printing the exact command to run. --dry-run prints every planned change, the cycle-record count, the cycle and its state, and a diff of STATE.md and MODE.md, and changes nothing.
    ///
    /// --commit commits the reset on the current branch, with only the `.standards/` paths it changed and the trailers `Standards-Reset: <cycle-id or none>` and `Standards-Archive: <ref>@<commit>`; it refuses when anything else is staged. Git's commit hooks do not run for it.
    #[command(verbatim_doc_comment)]
    Reset(ResetArgs),
    /// Remove STANDARDS from the project (Project Uninstallation), archiving `.standards/` first.
    ///
    /// Removes the whole `.standards/` folder (workflow state, Auditor context, every cycle record, user styles, config.toml and anything else in it) and what the installer added outside it: STANDARDS hook handlers (ours and the Node.js runtime's `.standards/bin/hook.mjs`) in `.claude/settings.json` and `.codex/hooks.json`, installer-owned `skillOverrides` that still hold the installer's value (a changed one is kept, with a warning), marked role skills in `.agents/skills/` and `.claude/skills/`, the managed blocks in AGENTS.md and CLAUDE.md (a file left empty is deleted), and client files and folders that INSTALLATION.json records as created once nothing else is left in them. Project work, other skills, hooks and settings, the binary and git history stay.
    ///
    /// Before removing anything it stores the whole `.standards/` as a commit under `refs/standards/archive/<cycle-id>` (`uninstall-<UTC time>` without a cycle); `git standards archive show` reads it back. Works in either mode, with or without an active cycle; it signs off, cancels and reverts nothing. Refuses a `.standards/` without the framework marker, a missing or unknown INSTALLATION.json, symbolic links inside `.standards/`, and a VERSION.json other than this binary's version. Without --yes it asks on a terminal and refuses elsewhere. There is no forced or client-only uninstall.
    #[command(verbatim_doc_comment)]
    Uninstall(UninstallArgs),
    /// Read back the archives that reset and uninstall store under `refs/standards/archive/`.
    ///
    /// Each archive is a commit (one per reset or uninstall of that cycle, the newest on top) holding the whole `.standards/` as it was, uncommitted and untracked files included. Name an older version as `<name>~1`, `<name>~2`. Archives are ordinary git refs: share them with `git push origin 'refs/standards/*:refs/standards/*'` and fetch them with `git fetch origin 'refs/standards/*:refs/standards/*'`. git standards never deletes one.
    #[command(subcommand, verbatim_doc_comment)]
    Archive(ArchiveCommand),
    /// Finish an operation that was interrupted while it wrote files.
    ///
    /// `install`, `reset`, `uninstall` and the other commands that change several files write through a journal in the git directory (`.git/standards/journal/`, one per worktree): the plan, backups of everything they replace or delete, then the changes. A command killed midway leaves the journal, and every writing command refuses until `git standards recover` completes the operation (the default) or, with --rollback, undoes it and puts every file back as it was. It says which it did. Nothing to recover is not an error.
    #[command(verbatim_doc_comment)]
    Recover(RecoverArgs),
}

#[derive(Debug, clap::Args)]
pub struct ManpagesArgs {
    /// Write the pages into <DIR>/man1/ (default: the `share/man` beside the binary's folder).
    #[arg(long, value_name = "DIR", num_args = 0..=1)]
    pub install: Option<Option<PathBuf>>,
}

#[derive(Debug, clap::Args)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum, ignore_case = true)]
    pub shell: super::manual::Shell,
}

#[derive(Debug, Subcommand)]
pub enum ArchiveCommand {
    /// List the archives: name, commit, time, files, versions, operation and branch.
    List {
        /// Print one JSON object: {"ok": true, "archives": [{name, ref, commit, time, versions, files, operation, branch}]}.
        #[arg(long)]
        json: bool,
    },
    /// List an archive's files, or print one archived file byte for byte.
    Show {
        /// The archive (`<cycle-id>`, `reset-<time>`, optionally `~<n>` for an older version).
        #[arg(value_parser = ref_value)]
        name: String,
        /// A file (or folder) in the archive; `.standards/` may be left out.
        path: Option<String>,
        /// Print one JSON object: {"ok": true, "command": "archive show", "archive", "commit", "files": [path]} for a listing, or {..., "file", "size", "content" (the file's text; null when it is not UTF-8)} for one file; a refusal prints {"ok": false, "error", "hint"}.
        #[arg(long)]
        json: bool,
    },
    /// Write archived files back into the working tree; refuses to overwrite anything.
    Restore {
        /// The archive (`<cycle-id>`, `reset-<time>`, optionally `~<n>`).
        #[arg(value_parser = ref_value)]
        name: String,
        /// Files or folders to restore; `.standards/` may be left out.
        #[arg(required = true)]
        paths: Vec<String>,
        /// Print one JSON object: {"ok": true, "command": "archive restore", "archive", "commit", "restored": [path as archived]}; a refusal prints {"ok": false, "error", "hint"}.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Debug, clap::Args)]
pub struct ResetArgs {
    /// Project mode after the reset; inferred from the project's files when absent.
    #[arg(long, value_enum, ignore_case = true)]
    pub mode: Option<ModeArg>,
    /// Print the planned changes and diffs without changing anything.
    #[arg(long)]
    pub dry_run: bool,
    /// Do not ask for confirmation (required outside a terminal).
    #[arg(long)]
    pub yes: bool,
    /// Commit the reset (only the paths it changed) with Standards-Reset and Standards-Archive trailers.
    #[arg(long)]
    pub commit: bool,
    /// Print one JSON object on stdout instead of the report, and never ask (a reset to run needs --yes): {"ok": true, "command": "reset", "dryRun", "changed", "mode", "cycle", "paths": [{action: remove|write, path}], "records", "recordKinds": {kind: count}, "archive" (<ref>@<commit> or null), "commit" (or null), "warnings"}; a refusal prints {"ok": false, "error", "hint"}.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, clap::Args)]
pub struct UninstallArgs {
    /// Print the planned changes without changing anything.
    #[arg(long)]
    pub dry_run: bool,
    /// Do not ask for confirmation (required outside a terminal).
    #[arg(long)]
    pub yes: bool,
    /// Print one JSON object on stdout instead of the report, and never ask (an uninstall to run needs --yes): {"ok": true, "command": "uninstall", "dryRun", "changed", "cycle", "clients", "paths": [{action: remove|update, path}], "records", "archive" (<ref>@<commit> or null), "warnings"}; a refusal prints {"ok": false, "error", "hint"}.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, clap::Args)]
pub struct RecoverArgs {
    /// Undo the interrupted operation instead of completing it.
    #[arg(long)]
    pub rollback: bool,
    /// Print one JSON object on stdout instead of the outcome word: {"ok": true, "command": "recover", "outcome": completed|rolled-back|nothing, "operation" (null when nothing), "started", "applied", "steps"}; a refusal prints {"ok": false, "error", "hint"}.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Subcommand)]
pub enum HooksCommand {
    /// Install the git hooks and the STATE.md merge driver.
    ///
    /// Without options: pre-commit (`check --staged` for every project, and the merge guard while a merge, squash merge or cherry-pick is in progress), pre-merge-commit (the merge guard, then the same check), reference-transaction (refuses to move the main branch, or a protected one, to arriving history that fails the merge guard: fast-forwards, pulls, rebases, cherry-picks; plain commits pass) and the merge driver (a `.standards/STATE.md merge=standards` line in each project's `.gitattributes`, plus `merge.standards.driver = git standards merge-driver %O %A %B %P` in the repository's config). Name options to choose; --pre-push runs `verify` and the merge guard on what is pushed.
    ///
    /// Hooks go where git runs them: `core.hooksPath`, else the common git directory's `hooks/` (shared by linked worktrees). Each is a shim marked with its fingerprint. A hook you already have is kept as `<hook>.local` and runs first; its exit status stops the hook as before. When pre-commit, lefthook or husky manages the hooks, nothing is written: the snippet for that manager is printed instead. Running it again changes nothing.
    #[command(verbatim_doc_comment)]
    Install(HooksInstallArgs),
    /// Remove what `hooks install` added and put back the hooks that were there, byte for byte.
    Uninstall(HooksUninstallArgs),
    /// Show each hook, the merge driver, the `.gitattributes` lines and any hook manager.
    Status(HooksStatusArgs),
}

#[derive(Debug, clap::Args)]
pub struct HooksStatusArgs {
    /// Print one JSON object on stdout: {"ok": true, "command": "hooks status", "items": [{name, state}]}, one item per line of the text output; a refusal prints {"ok": false, "error", "hint"}.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, clap::Args)]
pub struct HooksInstallArgs {
    #[arg(long)]
    pub pre_commit: bool,
    #[arg(long)]
    pub pre_merge_commit: bool,
    #[arg(long)]
    pub pre_push: bool,
    #[arg(long)]
    pub reference_transaction: bool,
    #[arg(long)]
    pub merge_driver: bool,
    /// Print one JSON object on stdout: {"ok": true, "command": "hooks install", "messages": [the text form's lines, which stderr still shows], "snippet": the hook manager's configuration or null}; a refusal prints {"ok": false, "error", "hint"}.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, clap::Args)]
pub struct HooksUninstallArgs {
    /// Print one JSON object on stdout: {"ok": true, "command": "hooks uninstall", "messages": [the text form's lines, which stderr still shows], "snippet": null}; a refusal prints {"ok": false, "error", "hint"}.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, clap::Args)]
pub struct VerifyArgs {
    /// The commits to check: `A..B`, `A...B`, or one revision (default: HEAD), from the merge-base with the main branch.
    #[arg(value_name = "range", value_parser = ref_value)]
    pub range: Option<String>,
    /// Also check the merge of the range's tip into this branch.
    #[arg(long, value_name = "branch", value_parser = branch_value)]
    pub into: Option<String>,
    /// Output format (default: github when GITHUB_ACTIONS=true, else text).
    #[arg(long, value_enum, ignore_case = true)]
    pub format: Option<VerifyFormat>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum VerifyFormat {
    Text,
    Json,
    Github,
    Gitlab,
    Sarif,
}

#[derive(Debug, clap::Args)]
pub struct MergeGuardArgs {
    /// The branch (or commit) to be merged.
    #[arg(value_name = "branch", value_parser = ref_value)]
    pub branch: Option<String>,
    /// The branch merged into (default: the current branch).
    #[arg(long, value_name = "branch", value_parser = branch_value)]
    pub into: Option<String>,
    /// Print nothing when the merge may go ahead.
    #[arg(long, short)]
    pub quiet: bool,
    /// Print one JSON object on stdout: {"ok": true, "command": "merge-guard", "target", "merges": [the sentences saying why each merge may go ahead]}; a refusal prints {"ok": false, "error", "hint"} and exits 1.
    #[arg(long)]
    pub json: bool,
    /// For the reference-transaction hook: `--into`'s branch moves from this commit to <branch>; plain commits pass, other arriving history is judged.
    #[arg(long, value_name = "commit", hide = true)]
    pub from: Option<String>,
}

#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// Print the result as JSON.
    #[arg(long, conflicts_with = "quiet")]
    pub json: bool,
    /// Print only the summary line; the exit status tells the result.
    #[arg(short, long)]
    pub quiet: bool,
    /// Check the index (what the next commit will hold) instead of the working tree.
    #[arg(long, conflicts_with = "rev")]
    pub staged: bool,
    /// Check a commit, branch or tag (read without a checkout), compared with its first parent.
    #[arg(long = "ref", value_name = "rev", value_parser = ref_value)]
    pub rev: Option<String>,
    /// With `--ref` in a shallow clone whose commit's parent was not fetched:
    /// check without the history rules instead of refusing.
    #[arg(long)]
    pub allow_shallow: bool,
    /// Report only the reference checker's rules (as the Node runtime did), leaving out the protocol rules it never enforced (the PR family).
    #[arg(long)]
    pub compat: bool,
    /// Name the git hook that runs this check (the scripts in `git-hooks/` pass `pre-commit` or `pre-merge-commit`): when problems are found, a `check-failed` event is recorded in the audit trail.
    #[arg(long, value_name = "name", value_parser = ref_value)]
    pub hook: Option<String>,
}

#[derive(Debug, clap::Args)]
pub struct InvocationArgs {
    /// The role's skill name: navigator, scoper, architect, auditor, developer, tester, reviewer, documenter or synchronizer.
    #[arg(value_name = "role", allow_hyphen_values = true)]
    pub role: String,
    /// The client whose installed skill copy to read.
    #[arg(long, value_enum, ignore_case = true, value_name = "codex|claude")]
    pub client: Option<ClientArg>,
    /// Print the result as JSON (keys described above).
    #[arg(long)]
    pub json: bool,
    /// The project folder (default: the project holding the current folder).
    #[arg(long, value_name = "path")]
    pub project: Option<PathBuf>,
}

/// An agent client.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ClientArg {
    Codex,
    Claude,
}

impl From<ClientArg> for standards_core::invocation::Client {
    fn from(c: ClientArg) -> Self {
        match c {
            ClientArg::Codex => standards_core::invocation::Client::Codex,
            ClientArg::Claude => standards_core::invocation::Client::Claude,
        }
    }
}

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
    /// Reads the tool call from standard input: Claude Code's Edit, Write and MultiEdit name the file in `tool_input.file_path`; Codex's `apply_patch` carries the patch in `tool_input.command` (every `*** Add File:`, `*** Update File:`, `*** Delete File:` and `*** Move to:` path counts, relative to the payload's `cwd`). When a target is the STATE.md of an installed project, it prints `{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "<the transition commands to use instead>"}}` (the reason also on stderr). While STATE.md has an unresolved merge conflict the edit is allowed: resolving a conflict is the protocol's one hand edit. Any other call is allowed with no output.
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
    pub client: Option<ClientArg>,
}

#[derive(Debug, clap::Args)]
pub struct HookStopArgs {
    /// The client that runs the hook, which decides the payload check and the answer's form.
    #[arg(long, value_enum, ignore_case = true, value_name = "claude|codex")]
    pub client: Option<ClientArg>,
}

#[derive(Debug, clap::Args)]
pub struct LogArgs {
    /// Only this cycle's events (one lookup of the cycle's anchor).
    #[arg(long, value_name = "id", value_parser = text_value)]
    pub cycle: Option<String>,
    /// Only events of this type; repeat for several.
    #[arg(long = "event", value_name = "type", value_parser = event_names(), ignore_case = true)]
    pub events: Vec<String>,
    /// Only events at or after this time: YYYY-MM-DD, YYYY-MM-DDTHH:MM:SS (UTC) or RFC 3339.
    #[arg(long, value_name = "date")]
    pub since: Option<String>,
    /// Only events before this time; a date alone includes that whole day.
    #[arg(long, value_name = "date")]
    pub until: Option<String>,
    /// Only events whose actor matches: a case-insensitive substring, or a glob with `*` and `?`.
    #[arg(long, value_name = "pattern")]
    pub actor: Option<String>,
    /// Only the newest N matching events (still printed oldest first).
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// Print each event's JSON line (JSON Lines) instead of readable lines.
    #[arg(long)]
    pub json: bool,
}

fn event_names() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(
        standards_core::audit::EventKind::ALL
            .iter()
            .map(|k| k.name()),
    )
}

#[derive(Debug, Subcommand)]
pub enum NotesCommand {
    /// Fetch, merge and push the audit trail (`refs/notes/standards`) and the archive refs (`refs/standards/archive/*`).
    ///
    /// Git neither fetches nor pushes notes by default; this is the one command a team needs. It fetches the remote's trail into `refs/notes/remotes/<remote>/standards` (never with a forced refspec), merges it into `refs/notes/standards` line by line (`cat_sort_uniq`: the union of both clones' events) with a two-parent notes commit, and pushes without force. When the push is rejected because someone pushed in between, it fetches, merges and pushes again, a few times at most. Archive refs under `refs/standards/archive/` travel both ways too, never forced: an archive that diverged is reported, not overwritten.
    ///
    /// Only `refs/notes/standards` and `refs/standards/archive/*` are fetched, first into `refs/quarantine/standards/<remote>/`, and checked before they move into place: a trail that is not a notes commit, or that does not descend from what was fetched last, is refused; an archive whose tree holds `.git` (in any case, or a spelling NTFS or HFS+ reads as `.git`) or a `.gitmodules` symbolic link is refused and never fetched. An event once in the local trail is never removed: when the remote deleted events, the union keeps them, a warning says how many, and the push restores them.
    ///
    /// Exit status: 0 when both sides hold the union; 1 when the remote refused (for example a host that does not accept `refs/notes/*`), a ref diverged, or a fetched ref was refused.
    #[command(verbatim_doc_comment)]
    Sync(NotesSyncArgs),
}

#[derive(Debug, clap::Args)]
pub struct NotesSyncArgs {
    /// The remote to sync with.
    #[arg(value_name = "remote", default_value = "origin", value_parser = ref_value)]
    pub remote: String,
    /// Show what would move without fetching, merging or pushing.
    #[arg(long)]
    pub dry_run: bool,
    /// Print one JSON object on stdout instead of the report: {"ok": true, "command": "notes sync", "remote", "dryRun", "actions": [{action: fetched|merged|fast-forward|pushed|up to date|nothing|would fetch|would merge|would push|would compare, detail}]}; a refusal prints {"ok": false, "error", "hint"}.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Subcommand)]
pub enum CycleCommand {
    /// Print a new, unused cycle ID for a request; changes no file.
    ///
    /// The ID is `<slug>-<UTC time>-<8 random hex digits>`. Refused while a
    /// cycle is active: a new ID is only generated before the first cycle or
    /// after sign-off or cancellation.
    New(CycleNewArgs),
}

#[derive(Debug, clap::Args)]
pub struct CycleNewArgs {
    /// The user's request the cycle will serve (its words form the ID's slug).
    #[arg(
        long,
        value_name = "request text",
        required = true,
        allow_hyphen_values = true,
        value_parser = request_value
    )]
    pub request: String,
    /// Print `{"ok": true, "id": "<cycle id>"}`; a refusal prints `{"ok": false, "error", "hint"}`.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Subcommand)]
pub enum ArtifactCommand {
    /// Create the active cycle's record of a type at its fixed path and print the path.
    ///
    /// Never overwrites: a re-run for the same record prints the path and
    /// leaves the file unchanged; any other file at the path is a collision.
    ///
    /// SCOPE, ARCHITECTURE and DEVELOPMENT records are named in STATE.md's
    /// `Active Work` (`Scope`, `Architecture`, `Development`), which the owning
    /// role must fill before its gate passes: when that field is `NONE`, the
    /// command writes the record's path there, together with the record as
    /// one journaled operation (only that field's bytes change; a re-run
    /// completes a record that exists without its path). A field that names
    /// another artifact, such as an unmarked project document the role chose,
    /// is left as it is and a note says so; an EXPEDITED cycle keeps `Scope`
    /// and `Architecture` `NONE`. Other records have no field.
    ///
    /// The path is relative to the current folder (as git prints paths); with
    /// `--json` it is relative to the project's top. A line on stderr names
    /// the header fields that still hold the template's choices, which the
    /// record's owner fills in next (`--json`: `owner` and `unfilled`).
    Init(ArtifactInitArgs),
}

#[derive(Debug, clap::Args)]
pub struct ArtifactInitArgs {
    /// The record type.
    #[arg(value_enum, ignore_case = true, value_name = "TYPE")]
    pub artifact: ArtifactArg,
    /// The review kind; required for REVIEW and only for REVIEW
    /// (IMPLEMENTATION or FINAL_DELIVERABLE).
    #[arg(long, value_name = "IMPLEMENTATION|FINAL_DELIVERABLE")]
    pub kind: Option<String>,
    /// Print `{"ok": true, "path": "<record>", "created": <bool>, "stateField": "Active Work.<field>" | null}` (stateField: the field this run wrote the path to); a refusal prints `{"ok": false, "error", "hint"}`.
    #[arg(long)]
    pub json: bool,
}

/// Record types, spelled exactly as in provenance blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ArtifactArg {
    #[value(name = "SCOPE")]
    Scope,
    #[value(name = "ARCHITECTURE")]
    Architecture,
    #[value(name = "DEVELOPMENT")]
    Development,
    #[value(name = "VERIFICATION")]
    Verification,
    #[value(name = "REVIEW")]
    Review,
    #[value(name = "DOCUMENTATION")]
    Documentation,
    #[value(name = "SYNCHRONIZATION")]
    Synchronization,
}

impl From<ArtifactArg> for ArtifactType {
    fn from(a: ArtifactArg) -> Self {
        match a {
            ArtifactArg::Scope => ArtifactType::Scope,
            ArtifactArg::Architecture => ArtifactType::Architecture,
            ArtifactArg::Development => ArtifactType::Development,
            ArtifactArg::Verification => ArtifactType::Verification,
            ArtifactArg::Review => ArtifactType::Review,
            ArtifactArg::Documentation => ArtifactType::Documentation,
            ArtifactArg::Synchronization => ArtifactType::Synchronization,
        }
    }
}

#[derive(Debug, Subcommand)]
pub enum IdCommand {
    /// Print the next free identifier of a prefix in a record; never edits it.
    ///
    /// Counts every use of the prefix in the file and in its last committed
    /// version, except references into other records (`other.md#F-003`).
    Next(IdNextArgs),
}

#[derive(Debug, clap::Args)]
pub struct IdNextArgs {
    /// The identifier prefix.
    #[arg(value_enum, ignore_case = true, value_name = "AC|DEV|F|D|DOC")]
    pub prefix: PrefixArg,
    /// The record: relative to the current folder or the project root, or absolute.
    #[arg(value_name = "file")]
    pub file: PathBuf,
    /// Print `{"ok": true, "id": "<identifier>", "file": "<project path>"}`; a refusal prints `{"ok": false, "error", "hint"}`.
    #[arg(long)]
    pub json: bool,
}

/// Identifier prefixes, spelled exactly as in records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PrefixArg {
    #[value(name = "AC")]
    Ac,
    #[value(name = "DEV")]
    Dev,
    #[value(name = "F")]
    F,
    #[value(name = "D")]
    D,
    #[value(name = "DOC")]
    Doc,
}

impl From<PrefixArg> for IdPrefix {
    fn from(p: PrefixArg) -> Self {
        match p {
            PrefixArg::Ac => IdPrefix::Ac,
            PrefixArg::Dev => IdPrefix::Dev,
            PrefixArg::F => IdPrefix::F,
            PrefixArg::D => IdPrefix::D,
            PrefixArg::Doc => IdPrefix::Doc,
        }
    }
}

const CYCLE_NEW_USAGE: &str = "Usage: git standards cycle new --request \"<request text>\"";

/// `cycle new` arguments as a validated request: the request text must not be blank.
fn cycle_new_request(a: CycleNewArgs) -> Result<commands::cycle::NewRequest> {
    if a.request.trim().is_empty() {
        return Err(Error::usage(format!(
            "a request is required: `--request` must name the change in words\n{CYCLE_NEW_USAGE}"
        )));
    }
    Ok(commands::cycle::NewRequest { request: a.request })
}

/// `artifact init` arguments as a validated request (RT §3.1): REVIEW needs a
/// kind and only REVIEW takes one; these come before the kind's value check.
fn artifact_init_request(a: ArtifactInitArgs) -> Result<commands::artifact::InitRequest> {
    let artifact = ArtifactType::from(a.artifact);
    let kind = match (artifact, a.kind) {
        (ArtifactType::Review, None) => {
            return Err(Error::usage(
                "REVIEW needs `--kind IMPLEMENTATION` or `--kind FINAL_DELIVERABLE` (see `git standards artifact init --help`)",
            ))
        }
        (ArtifactType::Review, Some(kind)) => Some(kind.to_ascii_uppercase().parse::<ReviewKind>().map_err(|_| {
            Error::usage(format!(
                "`{kind}` is not a review kind: use `--kind IMPLEMENTATION` or `--kind FINAL_DELIVERABLE`"
            ))
        })?),
        (other, Some(_)) => {
            return Err(Error::usage(format!(
                "`--kind` is only for REVIEW; a {other} record has no review kind"
            )))
        }
        (_, None) => None,
    };
    Ok(commands::artifact::InitRequest { artifact, kind })
}

impl Command {
    /// Whether errors must also be reported as JSON on stdout (`--json`).
    pub fn json_output(&self) -> bool {
        match self {
            Command::Status(a) => a.json,
            Command::Check(a) => a.json,
            Command::Archive(ArchiveCommand::List { json })
            | Command::Archive(ArchiveCommand::Show { json, .. })
            | Command::Archive(ArchiveCommand::Restore { json, .. }) => *json,
            Command::Verify(a) => a.format == Some(VerifyFormat::Json),
            Command::Log(a) => a.json,
            Command::Cycle(CycleCommand::New(a)) => a.json,
            Command::Artifact(ArtifactCommand::Init(a)) => a.json,
            Command::Id(IdCommand::Next(a)) => a.json,
            Command::Start(a) => a.json,
            Command::Handoff(a) => a.json,
            Command::Fail(a) => a.json,
            Command::Rework(a) => a.json,
            Command::Resume(a) => a.json,
            Command::Promote(a) => a.json,
            Command::Policy(a) => a.json,
            Command::Cadence(a) => a.json,
            Command::Signoff(a) => a.json,
            Command::Unblock(a) => a.json,
            Command::Cancel(a) => a.json,
            Command::Block(a) => a.json,
            Command::NextMode(a) => a.json,
            Command::Invocation(a) => a.json,
            Command::MergeGuard(a) => a.json,
            Command::Reset(a) => a.json,
            Command::Hooks(HooksCommand::Status(a)) => a.json,
            Command::Hooks(HooksCommand::Install(a)) => a.json,
            Command::Hooks(HooksCommand::Uninstall(a)) => a.json,
            Command::Uninstall(a) => a.json,
            Command::Recover(a) => a.json,
            Command::Install(a) => a.json,
            Command::Resolve(a) => a.json,
            Command::Notes(NotesCommand::Sync(a)) => a.json,
            Command::Hook(HookCommand::PreReceive(a)) => a.json,
            Command::Hook(HookCommand::Update(a)) => a.json,
            _ => false,
        }
    }
}

/// `log` arguments as a validated request: dates parse, the limit is positive.
fn log_request(a: LogArgs) -> Result<commands::log::Request> {
    use standards_core::audit::filter::{parse_time, Bound};
    let time = |text: Option<String>, bound, flag: &str| -> Result<_> {
        text.map(|t| parse_time(&t, bound).map_err(|e| Error::usage(format!("{flag}: {e}"))))
            .transpose()
    };
    if a.limit == Some(0) {
        return Err(Error::usage("--limit must be at least 1"));
    }
    Ok(commands::log::Request {
        filter: standards_core::audit::Filter {
            cycle: a.cycle,
            // Accepted in any case, printed and matched as the trail spells them.
            events: a.events.iter().map(|e| e.to_ascii_lowercase()).collect(),
            since: time(a.since, Bound::Start, "--since")?,
            until: time(a.until, Bound::End, "--until")?,
            actor: a.actor,
            limit: a.limit,
        },
        json: a.json,
    })
}

#[derive(Debug, clap::Args)]
pub struct StatusArgs {
    /// Read the index (what the next commit will hold) instead of the working tree.
    #[arg(long, conflicts_with = "rev")]
    pub staged: bool,
    /// Read a commit, branch or tag from the object database, without a checkout.
    #[arg(long = "ref", value_name = "rev", value_parser = ref_value)]
    pub rev: Option<String>,
    /// Print one JSON object (keys: see `git standards --help`) instead of the dashboard.
    #[arg(long, conflicts_with = "quiet")]
    pub json: bool,
    /// Print one line (the workflow state, its owner and the cycle) instead of the dashboard.
    #[arg(short, long)]
    pub quiet: bool,
}

fn state_value(s: &str) -> std::result::Result<WorkflowState, String> {
    WorkflowState::parse_loose(s).map_err(|e| e.to_string())
}

fn failure_value(s: &str) -> std::result::Result<FailureType, String> {
    FailureType::parse_loose(s).map_err(|e| e.to_string())
}

fn mode_value(s: &str) -> std::result::Result<CycleMode, String> {
    match CycleMode::parse_loose(s) {
        Ok(CycleMode::Unset) => Err("a cycle starts STANDARD, EXPEDITED or DOCUMENTATION".into()),
        other => other.map_err(|e| e.to_string()),
    }
}

fn policy_value(s: &str) -> std::result::Result<CompletionPolicy, String> {
    match CompletionPolicy::parse_loose(s) {
        Ok(CompletionPolicy::None) => {
            Err("choose FULL_DELIVERABLE or IMPLEMENTATION_REVIEWED".into())
        }
        other => other.map_err(|e| e.to_string()),
    }
}

fn cadence_value(s: &str) -> std::result::Result<Cadence, String> {
    Cadence::parse(&s.trim().to_ascii_uppercase().replace('-', "_")).ok_or_else(|| {
        format!("`{s}` is not a verification cadence; expected INCREMENTAL or AFTER_IMPLEMENTATION")
    })
}

/// A non-blank text value.
fn text_value(s: &str) -> std::result::Result<String, String> {
    if s.trim().is_empty() {
        Err("the text must not be empty".into())
    } else {
        one_line_value(s)
    }
}

/// How a control character is named in a refusal: its code point, and for
/// the common ones what it is.
fn control_name(c: char) -> String {
    let what = match c {
        '\n' => " (a line feed)",
        '\r' => " (a carriage return)",
        '\t' => " (a tab)",
        '\u{1b}' => " (an escape)",
        '\u{2028}' => " (a line separator)",
        '\u{2029}' => " (a paragraph separator)",
        _ => "",
    };
    format!("U+{:04X}{what}", c as u32)
}

/// A value written into one line of a record or STATE.md (issue 21): a
/// control character (a line break above all) would write a second,
/// field-looking line, so it is refused, naming the character.
pub fn one_line_value(s: &str) -> std::result::Result<String, String> {
    match s
        .chars()
        .enumerate()
        .find(|(_, c)| c.is_control() || matches!(c, '\u{2028}' | '\u{2029}'))
    {
        Some((i, c)) => Err(format!(
            "it holds the control character {} at character {}; the value is written on one line, so write it without line breaks or other control characters",
            control_name(c),
            i + 1
        )),
        None => Ok(s.to_string()),
    }
}

/// `cycle new --request`: a blank value is left to the command, which says
/// a request is required; any other is a [`one_line_value`].
fn request_value(s: &str) -> std::result::Result<String, String> {
    if s.trim().is_empty() {
        Ok(s.to_string())
    } else {
        one_line_value(s)
    }
}

/// The longest ref-like argument (a branch, revision, cycle ID or remote):
/// git cannot store a longer ref name component in a file.
pub const MAX_REF_ARG: usize = 1024;

/// A branch, revision, cycle ID or remote name: not empty, one line, at most
/// [`MAX_REF_ARG`] bytes, no path component longer than 255 bytes (the file
/// system's limit for a loose ref), so that git is never asked to read a
/// ref it cannot name (issue 21: bad input is refused with exit 2).
fn ref_value(s: &str) -> std::result::Result<String, String> {
    if s.is_empty() {
        return Err("the value must not be empty".into());
    }
    one_line_value(s)?;
    if s.len() > MAX_REF_ARG {
        return Err(format!(
            "it is {} bytes long; a branch, revision or name here is at most {MAX_REF_ARG} bytes",
            s.len()
        ));
    }
    if let Some(long) = s.split('/').find(|p| p.len() > 255) {
        return Err(format!(
            "its part `{}...` is {} bytes long; git cannot store a ref name part longer than 255 bytes",
            &long[..long.char_indices().nth(16).map_or(long.len(), |(i, _)| i)],
            long.len()
        ));
    }
    Ok(s.to_string())
}

/// A branch name (`main`, `refs/heads/main`): a [`ref_value`] that is also
/// a valid branch ref name, so `HEAD~1` or `a..b` is refused with exit 2
/// rather than looked up as a branch.
fn branch_value(s: &str) -> std::result::Result<String, String> {
    ref_value(s)?;
    let short = s.strip_prefix("refs/heads/").unwrap_or(s);
    match gix::refs::FullName::try_from(format!("refs/heads/{short}")) {
        Ok(_) => Ok(s.to_string()),
        Err(e) => Err(format!(
            "it is not a valid branch name ({e}); name a branch such as `main`"
        )),
    }
}

#[derive(Debug, clap::Args)]
pub struct StartArgs {
    /// The user's request; optional when a blocked request is saved in `PendingCycleRequest`.
    #[arg(long, value_name = "request text", allow_hyphen_values = true, value_parser = text_value)]
    pub request: Option<String>,
    /// The cycle mode: standard, expedited or documentation (any case).
    #[arg(long, value_name = "mode", value_parser = mode_value)]
    pub mode: Option<CycleMode>,
    /// The completion policy of a STANDARD cycle: full-deliverable or implementation-reviewed.
    #[arg(long, value_name = "policy", value_parser = policy_value)]
    pub policy: Option<CompletionPolicy>,
    /// The user confirmed that the cancelled cycle left no project changes to reconcile.
    #[arg(long)]
    pub cancelled_left_no_changes: bool,
    /// Print one JSON object on stdout instead of the next step (keys: TRANSITION JSON in `git standards --help`); a refusal prints `{"ok": false, "error", "hint"}`.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, clap::Args)]
pub struct HandoffArgs {
    /// The target workflow state, e.g. ARCHITECTING (any case).
    #[arg(long, value_name = "STATE", value_parser = state_value)]
    pub to: WorkflowState,
    /// A concise reason for `Handoff.Reason`.
    #[arg(long, value_name = "text", allow_hyphen_values = true, value_parser = text_value)]
    pub reason: String,
    /// A CHECKPOINT handoff of one increment (DEVELOPING <-> TESTING, INCREMENTAL cadence).
    #[arg(long)]
    pub checkpoint: bool,
    /// Print one JSON object on stdout instead of the next step (keys: TRANSITION JSON in `git standards --help`); a refusal prints `{"ok": false, "error", "hint"}`.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, clap::Args)]
pub struct FailArgs {
    /// The failure type, e.g. ARCHITECTURE (any case).
    #[arg(long = "type", value_name = "FailureType", value_parser = failure_value)]
    pub failure: FailureType,
    /// The defect, concisely, for `Handoff.Reason` and the recovery frame.
    #[arg(long, value_name = "text", allow_hyphen_values = true, value_parser = text_value)]
    pub reason: String,
    /// The owning state when the type has two (REVIEW: REVIEWING_IMPLEMENTATION or REVIEWING_FINAL).
    #[arg(long, value_name = "STATE", value_parser = state_value)]
    pub to: Option<WorkflowState>,
    /// Print one JSON object on stdout instead of the next step (keys: TRANSITION JSON in `git standards --help`); a refusal prints `{"ok": false, "error", "hint"}`.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, clap::Args)]
pub struct ReworkArgs {
    /// The failure type of the earliest invalidated work (any case).
    #[arg(long = "type", value_name = "FailureType", value_parser = failure_value)]
    pub failure: FailureType,
    /// The changed request, in full; replaces `Active Work.Request`.
    #[arg(long, value_name = "request text", allow_hyphen_values = true, value_parser = text_value)]
    pub request: String,
    /// The owning state when the type has two (REVIEW).
    #[arg(long, value_name = "STATE", value_parser = state_value)]
    pub to: Option<WorkflowState>,
    /// Print one JSON object on stdout instead of the next step (keys: TRANSITION JSON in `git standards --help`); a refusal prints `{"ok": false, "error", "hint"}`.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, clap::Args)]
pub struct ResumeArgs {
    /// Keep the frame and rerun the affected states through this one.
    #[arg(long, value_name = "STATE", value_parser = state_value)]
    pub rerun_through: Option<WorkflowState>,
    /// The first rerun state, when it is not the owner's successor (needs --rerun-through).
    #[arg(long, value_name = "STATE", value_parser = state_value, requires = "rerun_through")]
    pub to: Option<WorkflowState>,
    /// The handoff reason (a default names the frame).
    #[arg(long, value_name = "text", allow_hyphen_values = true, value_parser = text_value)]
    pub reason: Option<String>,
    /// Print one JSON object on stdout instead of the next step (keys: TRANSITION JSON in `git standards --help`); a refusal prints `{"ok": false, "error", "hint"}`.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, clap::Args)]
pub struct PromoteArgs {
    /// The standard guarantee now needed (kept in `PromotionReason`).
    #[arg(long, value_name = "text", allow_hyphen_values = true, value_parser = text_value)]
    pub reason: String,
    /// Print one JSON object on stdout instead of the next step (keys: TRANSITION JSON in `git standards --help`); a refusal prints `{"ok": false, "error", "hint"}`.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, clap::Args)]
pub struct PolicyArgs {
    /// full-deliverable or implementation-reviewed (any case).
    #[arg(value_name = "policy", value_parser = policy_value)]
    pub policy: CompletionPolicy,
    /// The reason the user gave, recorded with the choice in `Active Work.Request`.
    #[arg(long, value_name = "text", allow_hyphen_values = true, value_parser = text_value)]
    pub reason: Option<String>,
    /// Print one JSON object on stdout instead of the next step (keys: TRANSITION JSON in `git standards --help`); a refusal prints `{"ok": false, "error", "hint"}`.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, clap::Args)]
pub struct CadenceArgs {
    /// incremental or after-implementation (any case).
    #[arg(value_name = "cadence", value_parser = cadence_value)]
    pub cadence: Cadence,
    /// Print one JSON object on stdout instead of the next step (keys: TRANSITION JSON in `git standards --help`); a refusal prints `{"ok": false, "error", "hint"}`.
    #[arg(long)]
    pub json: bool,
}

/// The options of a transition command that takes no other.
#[derive(Debug, clap::Args)]
pub struct SignoffArgs {
    /// The person's reply that decided the sign-off, verbatim (kept in the `signed-off` event).
    #[arg(long, value_name = "text", allow_hyphen_values = true, value_parser = reply_value)]
    pub reply: Option<String>,
    /// Sign off without a recorded human turn (a person at a terminal, or a team without the prompt hook); the event records the override.
    #[arg(long)]
    pub no_human_turn_check: bool,
    /// Print one JSON object on stdout instead of the next step (keys: TRANSITION JSON in `git standards --help`); a refusal prints `{"ok": false, "error", "hint"}`.
    #[arg(long)]
    pub json: bool,
}

/// A person's reply: any text that is not blank, kept verbatim.
fn reply_value(s: &str) -> std::result::Result<String, String> {
    if s.trim().is_empty() {
        Err("the reply must not be empty: relay the person's words".into())
    } else {
        Ok(s.to_string())
    }
}

#[derive(Debug, clap::Args)]
pub struct JsonArgs {
    /// Print one JSON object on stdout instead of the next step (keys: TRANSITION JSON in `git standards --help`); a refusal prints `{"ok": false, "error", "hint"}`.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, clap::Args)]
pub struct CancelArgs {
    /// Run the greenfield reset the preview showed (only with the user's explicit approval).
    #[arg(long)]
    pub yes: bool,
    /// Print one JSON object on stdout instead of the next step (keys: TRANSITION JSON in `git standards --help`); a refusal prints `{"ok": false, "error", "hint"}`.
    #[arg(long)]
    pub json: bool,
}

fn next_mode_value(s: &str) -> std::result::Result<CycleMode, String> {
    CycleMode::parse_loose(s).map_err(|e| e.to_string())
}

#[derive(Debug, clap::Args)]
pub struct NextModeArgs {
    /// standard, expedited, documentation, or unset to withdraw the preference (any case).
    #[arg(value_name = "mode", value_parser = next_mode_value)]
    pub mode: CycleMode,
    /// When a saved request starts: the user confirmed that the cancelled cycle left no project changes to reconcile.
    #[arg(long)]
    pub cancelled_left_no_changes: bool,
    /// Print one JSON object on stdout instead of the next step (keys: TRANSITION JSON in `git standards --help`); a refusal prints `{"ok": false, "error", "hint"}`.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, clap::Args)]
pub struct BlockArgs {
    /// The exact question the user must answer.
    #[arg(long = "on", value_name = "question", allow_hyphen_values = true, value_parser = text_value)]
    pub question: String,
    /// Print one JSON object on stdout instead of the next step (keys: TRANSITION JSON in `git standards --help`); a refusal prints `{"ok": false, "error", "hint"}`.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, clap::Args)]
pub struct ResolveArgs {
    /// The side whose STATE.md is kept.
    #[arg(long, value_enum, ignore_case = true, value_name = "ours|theirs")]
    pub keep: KeepArg,
    /// Confirm the decision without asking (required outside a terminal).
    #[arg(long)]
    pub yes: bool,
    /// Print one JSON object on stdout instead of the report, and never ask (a resolution needs --yes): {"ok": true, "command": "resolve", "keep", "kept" and "dropped" (the cycle IDs, or null), "records" (the dropped cycle's records), "staged", "lines" (the text report)}; a refusal prints {"ok": false, "error", "hint"}.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum KeepArg {
    Ours,
    Theirs,
}

#[derive(Debug, clap::Args)]
pub struct MergeDriverArgs {
    /// `%O`: the file holding the merge base's version.
    #[arg(value_name = "base")]
    pub base: PathBuf,
    /// `%A`: the file holding your branch's version; the result is written here.
    #[arg(value_name = "ours")]
    pub ours: PathBuf,
    /// `%B`: the file holding the other branch's version.
    #[arg(value_name = "theirs")]
    pub theirs: PathBuf,
    /// `%P`: the path being merged, named in messages.
    #[arg(value_name = "path")]
    pub path: Option<String>,
}

#[derive(Debug, clap::Args)]
pub struct DemoArgs {
    /// Build the demo in <dir>, which must be new or empty, and keep it afterwards.
    #[arg(long, value_name = "dir")]
    pub keep: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
pub struct InstallArgs {
    /// Project mode for a first install; inferred from the project's files when absent. A reinstall recreates a runtime file that is missing and that git holds no copy of (and says so); a lost MODE.md only with `--mode`, which is never guessed for an installed project.
    #[arg(long, value_enum, ignore_case = true)]
    pub mode: Option<ModeArg>,
    /// Show what would change without writing anything.
    #[arg(long)]
    pub dry_run: bool,
    /// Agent clients to set up: role skills, explicit-invocation settings, the stop hook and the AGENTS.md/CLAUDE.md blocks. `none` removes what install added for every client. Without it: the installed clients; on a first setup, the clients whose folders (.claude/, .agents/, .codex/) exist, else none (on a terminal, you are asked).
    #[arg(
        long,
        value_enum,
        ignore_case = true,
        value_name = "claude|codex|both|none"
    )]
    pub client: Option<ClientChoiceArg>,
    /// Leave out the stop hook (`git standards hook stop`), or remove it.
    #[arg(long, conflicts_with = "hooks")]
    pub no_hooks: bool,
    /// Add the stop hook (the default on a first setup; a reinstall keeps the recorded choice).
    #[arg(long)]
    pub hooks: bool,
    /// Print one JSON object on stdout instead of the report, and never ask which clients to set up: {"ok": true, "command": "install", "dryRun", "lines": [the text report's lines]}; a refusal prints {"ok": false, "error", "hint"}.
    #[arg(long)]
    pub json: bool,
}

/// `install --client`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ClientChoiceArg {
    Claude,
    Codex,
    Both,
    None,
}

impl From<ClientChoiceArg> for commands::clients::Choice {
    fn from(c: ClientChoiceArg) -> Self {
        match c {
            ClientChoiceArg::Claude => Self::Claude,
            ClientChoiceArg::Codex => Self::Codex,
            ClientChoiceArg::Both => Self::Both,
            ClientChoiceArg::None => Self::None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ModeArg {
    Greenfield,
    Brownfield,
}

impl From<ModeArg> for standards_core::model::vocab::ProjectMode {
    fn from(m: ModeArg) -> Self {
        match m {
            ModeArg::Greenfield => Self::Greenfield,
            ModeArg::Brownfield => Self::Brownfield,
        }
    }
}

/// `hook pre-commit`: the fast exit, else `check --staged --hook <name>` for
/// each staged project through the one opened repository; a project that
/// fails (problems, or an error, reported here) does not stop the others.
fn pre_commit(ctx: &mut Context, hook: String) -> Result<()> {
    let mut project = crate::repo::Project::discover(&ctx.cwd)?;
    project.trust_index_checksum();
    let request = commands::check::Request {
        source: commands::check::Source::Staged,
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
        if let Err(e) = commands::merge_guard::pre_commit_guard(ctx, &project) {
            if e.is_broken_pipe() {
                return Err(e);
            }
            failed = true;
            super::report_error(&e, ctx.err);
        }
    }
    for found in commands::hook::pre_commit_projects(&project)? {
        let result = found.and_then(|p| {
            let mut sub = Context {
                cwd: p.root.clone(),
                out: &mut *ctx.out,
                err: &mut *ctx.err,
                color: ctx.color,
            };
            commands::check::run_project(&mut sub, &p, &request)
        });
        match result {
            Ok(()) => {}
            Err(e) if e.is_broken_pipe() => return Err(e),
            Err(e) => {
                failed = true;
                super::report_error(&e, ctx.err);
            }
        }
    }
    crate::repo::reads::report(ctx.err);
    if failed {
        Err(Error::Exit { code: 1 })
    } else {
        Ok(())
    }
}

pub(super) fn dispatch(command: Command, ctx: &mut Context) -> Result<()> {
    match command {
        Command::Check(a) => {
            let source = match (a.staged, a.rev) {
                (true, _) => commands::check::Source::Staged,
                (false, Some(rev)) => commands::check::Source::Rev(rev),
                (false, None) => commands::check::Source::Worktree,
            };
            commands::check::run(
                ctx,
                &commands::check::Request {
                    source,
                    json: a.json,
                    quiet: a.quiet,
                    options: standards_core::check::Options {
                        compat: a.compat,
                        ..Default::default()
                    },
                    allow_shallow: a.allow_shallow,
                    hook: a.hook,
                },
            )
        }
        Command::Install(a) => commands::install::run(
            ctx,
            &commands::install::Request {
                mode: a.mode.map(Into::into),
                dry_run: a.dry_run,
                clients: commands::clients::Request {
                    choice: a.client.map(Into::into),
                    hooks: if a.no_hooks {
                        Some(false)
                    } else if a.hooks {
                        Some(true)
                    } else {
                        None
                    },
                    no_prompt: false,
                },
                json: a.json,
            },
        ),
        Command::Cycle(CycleCommand::New(a)) => {
            let json = a.json;
            commands::cycle::run_new(ctx, &cycle_new_request(a)?, json)
        }
        Command::Artifact(ArtifactCommand::Init(a)) => {
            let json = a.json;
            commands::artifact::run_init(ctx, &artifact_init_request(a)?, json)
        }
        Command::Id(IdCommand::Next(a)) => commands::id::run_next(
            ctx,
            &commands::id::NextRequest {
                prefix: a.prefix.into(),
                file: a.file,
            },
            a.json,
        ),
        Command::Status(a) => commands::status::run(
            ctx,
            &commands::status::Request {
                source: match (a.staged, a.rev) {
                    (_, Some(rev)) => commands::status::Source::Rev(rev),
                    (true, None) => commands::status::Source::Index,
                    (false, None) => commands::status::Source::Worktree,
                },
                format: match (a.json, a.quiet) {
                    (true, _) => commands::status::Format::Json,
                    (false, true) => commands::status::Format::Line,
                    (false, false) => commands::status::Format::Text,
                },
            },
        ),
        Command::Start(a) => commands::transition::start(
            ctx,
            a.request,
            a.mode,
            a.policy,
            a.cancelled_left_no_changes,
            a.json,
        ),
        Command::Handoff(a) => {
            commands::transition::handoff(ctx, a.to, a.reason, a.checkpoint, a.json)
        }
        Command::Fail(a) => commands::transition::fail(ctx, a.failure, a.reason, a.to, a.json),
        Command::Rework(a) => commands::transition::rework(ctx, a.failure, a.request, a.to, a.json),
        Command::Resume(a) => {
            commands::transition::resume(ctx, a.rerun_through, a.to, a.reason, a.json)
        }
        Command::Promote(a) => commands::transition::promote(ctx, a.reason, a.json),
        Command::Policy(a) => commands::transition::policy(ctx, a.policy, a.reason, a.json),
        Command::Cadence(a) => commands::transition::cadence(ctx, a.cadence, a.json),
        Command::Signoff(a) => commands::signoff::run(
            ctx,
            commands::signoff::Request {
                reply: a.reply,
                no_human_turn_check: a.no_human_turn_check,
            },
            a.json,
        ),
        Command::Cancel(a) => commands::transition::cancel(ctx, a.yes, a.json),
        Command::Block(a) => commands::transition::block(ctx, a.question, a.json),
        Command::Unblock(a) => commands::transition::unblock(ctx, a.json),
        Command::NextMode(a) => {
            commands::transition::next_mode(ctx, a.mode, a.cancelled_left_no_changes, a.json)
        }
        Command::Log(a) => commands::log::run(ctx, &log_request(a)?),
        Command::Notes(NotesCommand::Sync(a)) => commands::notes::run_sync(
            ctx,
            &commands::notes::SyncRequest {
                remote: a.remote,
                dry_run: a.dry_run,
                json: a.json,
            },
        ),
        Command::Invocation(a) => commands::invocation::run(
            ctx,
            &commands::invocation::Request {
                role: a.role,
                client: a.client.map(Into::into),
                json: a.json,
                project: a.project,
            },
        ),
        Command::Demo(a) => commands::demo::run(ctx, &commands::demo::Request { keep: a.keep }),
        Command::Verify(a) => {
            use commands::verify::Format;
            let format = match a.format {
                Some(VerifyFormat::Text) => Format::Text,
                Some(VerifyFormat::Json) => Format::Json,
                Some(VerifyFormat::Github) => Format::Github,
                Some(VerifyFormat::Gitlab) => Format::Gitlab,
                Some(VerifyFormat::Sarif) => Format::Sarif,
                None if std::env::var("GITHUB_ACTIONS").as_deref() == Ok("true") => Format::Github,
                None => Format::Text,
            };
            commands::verify::run(
                ctx,
                &commands::verify::Request {
                    range: a.range,
                    into: a.into,
                    format,
                    progress: std::io::IsTerminal::is_terminal(&std::io::stderr()),
                    step_summary: std::env::var_os("GITHUB_STEP_SUMMARY")
                        .filter(|v| !v.is_empty())
                        .map(PathBuf::from),
                },
            )
        }
        Command::Hooks(c) => {
            use commands::hooks::{Action, Selection};
            let json = match &c {
                HooksCommand::Install(a) => a.json,
                HooksCommand::Uninstall(a) => a.json,
                HooksCommand::Status(_) => false,
            };
            let action = match c {
                HooksCommand::Install(a) => {
                    let any = a.pre_commit
                        || a.pre_merge_commit
                        || a.pre_push
                        || a.reference_transaction
                        || a.merge_driver;
                    Action::Install(if any {
                        let mut hooks = Vec::new();
                        for (on, name) in [
                            (a.pre_commit, "pre-commit"),
                            (a.pre_merge_commit, "pre-merge-commit"),
                            (a.pre_push, "pre-push"),
                            (a.reference_transaction, "reference-transaction"),
                        ] {
                            if on {
                                hooks.push(name);
                            }
                        }
                        Selection {
                            hooks,
                            merge_driver: a.merge_driver,
                        }
                    } else {
                        Selection::default_set()
                    })
                }
                HooksCommand::Uninstall(_) => Action::Uninstall,
                HooksCommand::Status(a) => Action::Status { json: a.json },
            };
            if json {
                commands::hooks::run_json(ctx, &action)
            } else {
                commands::hooks::run(ctx, &action)
            }
        }
        Command::MergeGuard(a) => commands::merge_guard::run(
            ctx,
            &commands::merge_guard::Request {
                incoming: a.branch,
                into: a.into,
                quiet: a.quiet,
                json: a.json,
                from: a.from,
            },
        ),
        Command::Manpages(a) => commands::manpages::run(
            ctx,
            &commands::manpages::Request {
                install: a.install,
                pages: super::manual::pages().into_iter().collect(),
            },
        ),
        Command::Completions(a) => ctx
            .out
            .write_all(super::manual::completions(a.shell).as_bytes())
            .map_err(Error::stdout),
        Command::Reset(a) => commands::reset::run_json(
            ctx,
            &commands::reset::Request {
                mode: a.mode.map(Into::into),
                dry_run: a.dry_run,
                yes: a.yes,
                commit: a.commit,
            },
            a.json,
        ),
        Command::Archive(ArchiveCommand::List { json }) => commands::archive::run_list(ctx, json),
        Command::Archive(ArchiveCommand::Show { name, path, json }) => {
            commands::archive::run_show(ctx, &name, path.as_deref(), json)
        }
        Command::Archive(ArchiveCommand::Restore { name, paths, json }) => {
            commands::archive::run_restore(ctx, &name, &paths, json)
        }
        Command::Uninstall(a) => commands::uninstall::run(
            ctx,
            &commands::uninstall::Request {
                dry_run: a.dry_run,
                yes: a.yes,
                json: a.json,
            },
        ),
        Command::Recover(a) => commands::recover::run(
            ctx,
            &commands::recover::Request {
                rollback: a.rollback,
                json: a.json,
            },
        ),
        Command::Hook(HookCommand::Stop(a)) => {
            let client = a.client.map(Into::into);
            match commands::hook::read_stdin_bounded() {
                Ok(bytes) => commands::hook::run_stop(ctx, &mut bytes.as_slice(), client),
                Err(e) => commands::hook::run_stop(ctx, &mut FailingRead(Some(e)), client),
            }
        }
        Command::Hook(HookCommand::SessionStart(a)) => {
            let bytes = commands::hook::read_stdin_bounded().unwrap_or_default();
            commands::agent_hook::run_session_start(
                ctx,
                &mut bytes.as_slice(),
                a.client.map(Into::into),
            )
        }
        Command::Hook(HookCommand::EditGuard(a)) => {
            let bytes = commands::hook::read_stdin_bounded().unwrap_or_default();
            commands::agent_hook::run_edit_guard(
                ctx,
                &mut bytes.as_slice(),
                a.client.map(Into::into),
            )
        }
        Command::Hook(HookCommand::PromptSubmit(a)) => {
            let bytes = commands::hook::read_stdin_bounded().unwrap_or_default();
            commands::agent_hook::run_prompt_submit(
                ctx,
                &mut bytes.as_slice(),
                a.client.map(Into::into),
            )
        }
        Command::Hook(HookCommand::PreCommit(a)) => pre_commit(ctx, a.hook),
        Command::Hook(HookCommand::PreReceive(a)) => {
            use std::io::Read;
            let mut bytes = Vec::new();
            std::io::stdin()
                .read_to_end(&mut bytes)
                .map_err(|e| Error::io("<stdin>", e))?;
            // Ref names are bytes to git; one that is not UTF-8 is shown lossily.
            let updates = commands::server_hook::parse_updates(&String::from_utf8_lossy(&bytes))?;
            commands::server_hook::run(
                ctx,
                &commands::server_hook::Request {
                    hook: commands::server_hook::Hook::PreReceive,
                    updates,
                    json: a.json,
                },
            )
        }
        Command::Hook(HookCommand::Update(a)) => {
            let update = commands::server_hook::update(&a.refname, &a.old, &a.new)?;
            commands::server_hook::run(
                ctx,
                &commands::server_hook::Request {
                    hook: commands::server_hook::Hook::Update,
                    updates: vec![update],
                    json: a.json,
                },
            )
        }
        Command::Resolve(a) => {
            use std::io::IsTerminal;
            let request = commands::resolve::Request {
                keep: match a.keep {
                    KeepArg::Ours => commands::resolve::Keep::Ours,
                    KeepArg::Theirs => commands::resolve::Keep::Theirs,
                },
                yes: a.yes,
                json: a.json,
            };
            let stdin = std::io::stdin();
            if stdin.is_terminal() && std::io::stderr().is_terminal() {
                commands::resolve::run(ctx, &request, Some(&mut stdin.lock()))
            } else {
                commands::resolve::run(ctx, &request, None)
            }
        }
        Command::MergeDriver(a) => commands::merge_driver::run(
            ctx,
            &commands::merge_driver::Request {
                base: a.base,
                ours: a.ours,
                theirs: a.theirs,
                path: a.path,
            },
        ),
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
