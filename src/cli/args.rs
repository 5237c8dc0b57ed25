//! The top of the clap definition of `git standards`: [`Cli`] and the
//! [`Command`] enum. Each subcommand's `Args` lives in its command's module
//! (`crate::commands`); doc comments are the help text.

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

use crate::commands::archive::ArchiveCommand;
use crate::commands::artifact::ArtifactCommand;
use crate::commands::board::BoardArgs;
use crate::commands::check::CheckArgs;
use crate::commands::completions::CompletionsArgs;
use crate::commands::cycle::CycleCommand;
use crate::commands::demo::DemoArgs;
use crate::commands::hook::HookCommand;
use crate::commands::hooks::HooksCommand;
use crate::commands::id::IdCommand;
use crate::commands::install::InstallArgs;
use crate::commands::invocation::InvocationArgs;
use crate::commands::log::LogArgs;
use crate::commands::manpages::ManpagesArgs;
use crate::commands::merge_driver::MergeDriverArgs;
use crate::commands::merge_guard::MergeGuardArgs;
use crate::commands::notes::NotesCommand;
use crate::commands::recover::RecoverArgs;
use crate::commands::reset::ResetArgs;
use crate::commands::resolve::ResolveArgs;
use crate::commands::status::StatusArgs;
use crate::commands::transition::{
    BlockArgs, CadenceArgs, CancelArgs, FailArgs, HandoffArgs, JsonArgs, NextModeArgs, PolicyArgs,
    PromoteArgs, ResumeArgs, ReworkArgs, StartArgs,
};
use crate::commands::uninstall::UninstallArgs;
use crate::commands::verify::{VerifyArgs, VerifyFormat};

/// The top-level reference, printed after the list of subcommands, so that
/// `--help` shows the commands first. Each subcommand's JSON keys are in its
/// own long help (`git standards status --help`: STATUS JSON).
const TOP_LEVEL_REFERENCE: &str = r#"EXIT STATUS

0: success.

1: problems found, or the operation was refused; nothing was changed.

2: usage error (unknown subcommand or option, bad value).

3: internal error; please report it.

`git standards hook stop` is the exception, because agent clients read its status: 0 lets the agent stop, 2 sends it back with the problems, and 1 reports the hook's own usage or internal errors.

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

/// `defer`: each subcommand's arguments are built only when the command
/// line names it (or a help, a man page or a completion script needs the whole
/// tree), not all of them on every run: building them touched 0.6 to 1 MiB of
/// code, strings and heap in each short run (Cargo.toml's release profile).
#[derive(Debug, Subcommand)]
#[command(defer = true)]
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
    /// Structured record edits: `git standards record add <file> <PREFIX> --title <text>`, `git standards record set <file> [<ID>] Field=VALUE...`.
    #[command(subcommand)]
    Record(crate::commands::record::RecordCommand),
    /// Show the workflow state of the working tree, the index or any commit.
    ///
    /// Reads `.standards/STATE.md` and `.standards/MODE.md` from one snapshot and shows the project mode, the workflow state and its owner, the cycle, the last handoff, the recovery stack (newest frame first), outstanding obligations, baseline reconciliation entries, and Next: the role to invoke (for Codex and Claude Code) or the user's options, and what blocks the work.
    ///
    /// Exits 0 when it could show the state, even when it lists problems (for example an invalid MODE.md); exits 1 when no runtime is installed in the snapshot, or when STATE.md is missing, not UTF-8, invalid or has unresolved merge conflicts. The --json keys are described under STATUS JSON below.
    #[command(verbatim_doc_comment, after_long_help = crate::commands::status::JSON_HELP)]
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
    #[command(verbatim_doc_comment, after_long_help = crate::commands::transition::JSON_HELP)]
    Start(StartArgs),
    /// Hand the cycle to the next state: a forward handoff, or a checkpoint with --checkpoint.
    ///
    /// The target must be the next state of the cycle's route (Forward Transitions), or during a recovery rerun a later state up to the frame's `RerunThrough` (a jump is recorded as RESUME). Refused while `check` reports a problem in files the current role owns, while the cycle is blocked on a user question, while an outstanding obligation of the current state is open, and when `check` would reject the new state. A checkpoint goes DEVELOPING -> TESTING or back, only with the plan's cadence INCREMENTAL, no recovery, and a reason naming one `Increment N`. Prints the next role's invocation for Codex and Claude Code.
    #[command(verbatim_doc_comment, after_long_help = crate::commands::transition::JSON_HELP)]
    Handoff(HandoffArgs),
    /// Route a defect to the state that owns it (Failure Handoffs).
    ///
    /// The failure type names the owner (REVIEW: say which review with --to). A move to another state pushes a recovery frame that resumes at the current state; a same-state failure records the handoff without a frame. In an EXPEDITED cycle only IMPLEMENTATION and REVIEW exist (promote instead); a DOCUMENTATION cycle has no IMPLEMENTATION or VERIFICATION owner (block on a user decision instead).
    #[command(verbatim_doc_comment, after_long_help = crate::commands::transition::JSON_HELP)]
    Fail(FailArgs),
    /// Record the user's changed request and route it to the earliest owner it invalidates (USER_REWORK).
    ///
    /// Replaces `Active Work.Request`, then routes like `fail`, pushing a recovery frame when the state changes. Allowed in any nonterminal state, `AWAITING_USER_SIGNOFF` included.
    #[command(verbatim_doc_comment, after_long_help = crate::commands::transition::JSON_HELP)]
    Rework(ReworkArgs),
    /// Close or plan the active recovery frame (Recovery Mechanics).
    ///
    /// Run by the frame's owner: without --rerun-through it pops the frame and returns to its `ResumeAt` (RESUME); with --rerun-through it sets the frame's `RerunThrough` and hands off to the first rerun state (the owner's successor, or --to). At the rerun boundary (the state named in `RerunThrough`) it pops the frame and returns to `ResumeAt`.
    #[command(verbatim_doc_comment, after_long_help = crate::commands::transition::JSON_HELP)]
    Resume(ResumeArgs),
    /// Promote an EXPEDITED cycle to STANDARD (FULL_DELIVERABLE) at AUDITING.
    ///
    /// Open recovery frames whose owner has not finished become outstanding obligations; the reason is kept in `PromotionReason`. At AWAITING_USER_SIGNOFF it is the user's decision, audited before the write.
    #[command(verbatim_doc_comment, after_long_help = crate::commands::transition::JSON_HELP)]
    Promote(PromoteArgs),
    /// Change the completion policy of the active STANDARD cycle.
    ///
    /// In SCOPING through REVIEWING_IMPLEMENTATION the state stays; from an unstarted DOCUMENTING the shorter policy returns to REVIEWING_IMPLEMENTATION, and at AWAITING_USER_SIGNOFF withdrawing it resumes at DOCUMENTING (COMPLETION_CHANGE). Needs an empty recovery stack and no obligations. The user's decision: audited before the write.
    #[command(verbatim_doc_comment, after_long_help = crate::commands::transition::JSON_HELP)]
    Policy(PolicyArgs),
    /// Record the user's verification cadence request for the Developer (`PendingVerificationCadence`).
    #[command(after_long_help = crate::commands::transition::JSON_HELP)]
    Cadence(CadenceArgs),
    /// Sign off the cycle at AWAITING_USER_SIGNOFF (the user's decision, audited before the write).
    ///
    /// Refused while recovery frames or outstanding obligations remain.
    ///
    /// A sign-off is bound to a person and to the content. The agent relays the person's reply verbatim with --reply; it is kept in the `signed-off` event. Where the agent clients' prompt hook is registered (`git standards hook prompt-submit` in `.claude/settings.json` or `.codex/hooks.json`), sign-off is refused unless a person spoke (a `human-turn` event) while the cycle was at AWAITING_USER_SIGNOFF, after it last reached that state; then --reply is required, and with git config `standards.recordPrompts` the reply must be part of what the person wrote. A person signing off at a terminal, or a team without the hook, passes --no-human-turn-check: the event records that the check was overridden. The event also records HEAD's commit, the tree IDs of the project and of `.standards/docs/` there, and whether the working tree had uncommitted changes; `git standards verify` reports changes made after sign-off (SO-001).
    #[command(verbatim_doc_comment, after_long_help = crate::commands::transition::JSON_HELP)]
    Signoff(crate::commands::signoff::SignoffArgs),
    /// Cancel the active cycle (the user's decision, audited before the write).
    ///
    /// In a BROWNFIELD project the cycle is kept as CANCELLED and its changes are reconciled when the next cycle starts. In a GREENFIELD project cancellation is a workflow reset (Greenfield Bootstrap Cancellation): without --yes it previews `git standards reset --mode greenfield` and changes nothing (exit 1); with --yes, given the user's approval of that preview, it runs the reset (the `.standards/` tree is archived first).
    #[command(verbatim_doc_comment, after_long_help = crate::commands::transition::JSON_HELP)]
    Cancel(CancelArgs),
    /// Record a blocking user question in `Active Work.BlockedOn`.
    #[command(after_long_help = crate::commands::transition::JSON_HELP)]
    Block(BlockArgs),
    /// Clear the blocking question; before a cycle, drop the blocked next-cycle request.
    #[command(after_long_help = crate::commands::transition::JSON_HELP)]
    Unblock(JsonArgs),
    /// Choose the next cycle's mode: the user's preference in `PendingCycleMode` (`unset` withdraws it).
    ///
    /// user-decisions.md, Choose the next cycle's mode: only on the user's explicit instruction, audited before the write, and only while no cycle is active (the installed state before the first request, `SIGNED_OFF` or `CANCELLED`). Nothing else changes: `CycleMode` stays `UNSET` and `Active Work` is left alone. A GREENFIELD project accepts only `standard`. The next `start` consumes the preference (without --mode it is the cycle's mode, checked against the project mode, the request and an open baseline reconciliation) and clears it.
    ///
    /// While a cycle is active the command is refused. Cycle Modes rule 6 ("selecting a mode for the next cycle never changes an active cycle") could be read as allowing a preference to be queued during a cycle; the command follows the section's own wording ("while no cycle is active"), which rule 2 defers to and which rule 1 supports (all pending-cycle fields must be clear when a cycle ends, so a queued preference could not survive to the next cycle).
    ///
    /// When a request waits in `PendingCycleRequest`, the checks of Start a cycle run again on it with the new preference: if they pass, the saved request starts as the new cycle (the output is then that of `start`; add --cancelled-left-no-changes only when the user confirmed it, as for `start`); otherwise it stays saved with the decision the user must make in `PendingCycleBlockedOn`.
    #[command(verbatim_doc_comment, after_long_help = crate::commands::transition::JSON_HELP)]
    NextMode(NextModeArgs),
    /// Show the audit trail: every recorded event, oldest first.
    ///
    /// Reads the events from git notes under `refs/notes/standards` and prints one line per event, like `git log --oneline`: time (UTC), event type, cycle (`-` outside any cycle) and its own keys, at most 100 characters (a long cycle ID or summary is cut with `…`). With --format full, each line is whole: time, actor, cycle, event type and every key. Sorted by time, then event ID. Every filter given must hold. With --json, prints each event's stored JSON line unchanged (JSON Lines); --format and --json together are a usage error.
    ///
    /// A stored line that is not a valid event (edited by hand, or fetched from a remote) is reported on stderr with its note (anchor) and line number, and skipped: every valid event is still printed and the exit status stays 0. With --json the report is one JSON object per bad line on stderr: {"warning", "note" (the annotated anchor's ID), "cycle" (null for the project anchor), "line", "problem"}.
    #[command(verbatim_doc_comment, after_long_help = standards_core::audit::schema_help())]
    Log(LogArgs),
    /// The release manager's board: every branch's cycle, state, owner, check verdict and merge readiness, and the collisions between branches.
    ///
    /// One row per branch name (the local branch and the remote-tracking branches of that name together; a local branch ahead of or behind its upstream says so), one per linked worktree (its uncommitted files), in a bare repository too. Each row shows every project folder's cycle, request, mode, workflow state and owner, the next invocation, a blocking question, open recovery frames, how long ago the cycle last moved (from the audit trail, else commit dates), the `check` verdict at the tip, and the readiness to merge into the main branch: ready (the merge guard passes), needs-reset, signed-off-needs-reset, active, conflicts (a merge with the main branch conflicts in .standards/) or unknown. Then each branch is merged with the main branch, and each pair of branches with an active cycle with each other, in memory (`git merge-tree`, its objects in a scratch folder, never in the repository): the files both change, whether the merge conflicts and in how many hunks. A row that cannot be read says what is wrong (`problem`) instead of stopping the board. The table fits 120 columns.
    #[command(verbatim_doc_comment, after_long_help = crate::commands::board::JSON_HELP)]
    Board(BoardArgs),
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
            Command::Board(a) => a.json,
            Command::Cycle(CycleCommand::New(a)) => a.json,
            Command::Artifact(ArtifactCommand::Init(a)) => a.json,
            Command::Id(IdCommand::Next(a)) => a.json,
            Command::Record(a) => a.json(),
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
