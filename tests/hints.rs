//! Every hint that names a command works in the situation that printed it
//! (issue 15, item 1): for each refusal and problem whose hint names a `git`
//! or `git standards` command, a situation puts a real repository in that
//! state, the binary prints the hint, the test runs the hinted commands in
//! the order the hint names them, and the original problem is gone.
//!
//! The commands come from the registry in code,
//! [`git_standards::hints::hinted_commands`]; the guard at the end checks
//! that the registry counts every place of the binary's and the core's
//! sources that names a command, and that every registered command has a row
//! in [`TABLE`]. Neither names a source file, so moving code changes nothing.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common::{write, Env};

/// How a row's command is shown to work.
#[derive(Clone, Copy)]
enum Situation {
    /// A conformance case of `fixtures/check/cases/` made real; `check`
    /// reports the rule with the command in its hint, the hinted commands
    /// run, and the rule's problem on that file is gone.
    Case(&'static str, &'static str),
    /// A conformance case whose hint names a command that hands the role
    /// what the fix needs (a fresh ID, the record to fill): the commands
    /// succeed, an ID they print is not in the file yet, and the problem
    /// stays until the role edits the file.
    Guides(&'static str, &'static str),
    /// A situation written out below.
    Custom(fn()),
    /// Not a hint: text that documents a command (the rule catalogue).
    Prose,
    /// Named by a message no situation here runs, and why: run as written
    /// by another test file (named), git's own command, or a placeholder the
    /// printing code fills (the registry lists it, so the gap is visible; a
    /// row with a situation replaces it).
    Uncovered(&'static str),
}

/// Reasons for [`Situation::Uncovered`] rows.
const AGENT_HOOKS: &str = "run in the situation that prints it by tests/agent_hooks.rs";
const RECORDS: &str = "run as written by tests/record.rs, in the situation that prints it";
const GIT: &str = "git's own command, named for a person to inspect or repair with; git defines it";
const PLACEHOLDER: &str =
    "a format string: the printing code fills the placeholder with a command another row covers";
const SYNOPSIS: &str = "a synopsis naming the command's shape, not a command to run as written";

use Situation::{Case, Custom, Guides, Prose, Uncovered};

/// (the command as the source spells it, a situation that prints it).
const TABLE: &[(&str, Situation)] = &[
    ("git standards --help", Custom(usage_error_help)),
    ("git standards install", Custom(not_installed)),
    (
        "git standards artifact init --help",
        Custom(review_without_kind),
    ),
    ("git restore .standards/STATE.md", Custom(invalid_state)),
    (
        "git standards id next AC {}",
        Guides("AC-001-defined-twice", "AC-001"),
    ),
    (
        "git standards id next AC {path}",
        Guides("PR-043-standard-scope-without-conditions", "PR-043"),
    ),
    (
        "git standards id next DEV {path}",
        Guides("PR-044-complete-plan-without-steps", "PR-044"),
    ),
    (
        "git standards artifact init {}",
        Case("CP-001-verification-report-missing", "CP-001"),
    ),
    (
        "git standards id next DOC {path}",
        Guides(
            "DC-001-synchronization-numbering-in-documentation-record",
            "DC-001",
        ),
    ),
    (
        "git standards id next {prefix} {}",
        Guides("RH-004-finding-defined-twice", "RH-004"),
    ),
    (
        "git restore --source=HEAD --staged --worktree .standards/STATE.md",
        Case("GT-001-signed-off-cycle-reopened", "GT-001"),
    ),
    (
        "git standards start --request \\\"...\\\"",
        Case("GT-001-signed-off-cycle-reopened", "GT-001"),
    ),
    (
        "git standards id next AC {}",
        Guides("GT-004-retired-id-reused", "GT-004"),
    ),
    ("git standards check", Prose),
    (
        "git standards reset --dry-run",
        Case("PR-020-mode-reverted-to-greenfield", "PR-020"),
    ),
    (
        "git standards reset --yes",
        Case("PR-020-mode-reverted-to-greenfield", "PR-020"),
    ),
    (
        "git standards id next {} {path}",
        Guides("PR-042-new-finding-fills-a-gap", "PR-042"),
    ),
    (
        "git standards install",
        Case("PR-038-chapter-missing", "PR-038"),
    ),
    (
        "git standards reset --mode greenfield --dry-run",
        Case("PR-004-greenfield-retained-cancellation", "PR-004"),
    ),
    (
        "git standards reset --mode greenfield --yes",
        Case("PR-004-greenfield-retained-cancellation", "PR-004"),
    ),
    (
        "git standards artifact init {}",
        Custom(active_path_missing),
    ),
    (
        "git standards artifact init DEVELOPMENT",
        Custom(plan_missing),
    ),
    ("git restore {path}", Custom(runtime_file_in_the_index)),
    (
        "git restore --source=HEAD --staged --worktree {path}",
        Custom(runtime_file_only_in_head),
    ),
    ("git restore --staged {path}", Custom(runtime_file_unstaged)),
    ("git add {path}", Custom(runtime_file_unstaged)),
    (
        "git standards install --mode greenfield",
        Custom(runtime_file_nowhere),
    ),
    ("git standards install", Custom(runtime_file_nowhere)),
    ("git standards resolve --keep ours", Custom(state_conflict)),
    (
        "git standards resolve --keep theirs",
        Custom(state_conflict),
    ),
    ("git add", Custom(state_conflict)),
    (
        "git restore --source=HEAD --staged --worktree .standards/STATE.md",
        Custom(typed_cycle_id),
    ),
    (
        "git standards artifact init VERIFICATION",
        Guides("VF-013-checkpoint-not-assessed", "VF-013"),
    ),
    ("git add .standards", Custom(index_without_runtime)),
    ("git fetch --deepen=1", Custom(shallow_parent)),
    ("git fsck", Custom(missing_parent_object)),
    (
        "git add {written} && git commit -m \\\"Install STANDARDS\\\"",
        Custom(first_steps),
    ),
    (
        "git standards start --request \\\"<what you want done>\\\"",
        Custom(first_steps),
    ),
    ("git config {} {}", Custom(kept_notes_setting)),
    (
        "git sparse-checkout add .standards",
        Custom(sparse_checkout),
    ),
    ("git standards install", Custom(absent_runtime)),
    (
        "git standards reset --mode {0} --dry-run",
        Custom(install_other_mode),
    ),
    (
        "git standards reset --mode {0} --yes",
        Custom(install_other_mode),
    ),
    ("git standards install", Custom(tool_without_runtime)),
    (
        "git restore --source=HEAD {STATE_PATH}",
        Custom(tool_without_state),
    ),
    (
        "git add .standards",
        Custom(status_of_an_index_without_runtime),
    ),
    ("git standards install", Custom(status_of_a_standards_file)),
    (
        "git restore --source=HEAD {STATE_PATH}",
        Custom(status_without_state),
    ),
    (
        "git restore --staged {STATE_PATH}",
        Custom(status_of_an_invalid_staged_state),
    ),
    (
        "git standards resolve --keep ours",
        Custom(status_of_a_conflict),
    ),
    (
        "git standards resolve --keep theirs",
        Custom(status_of_a_conflict),
    ),
    (
        "git standards start --request \\\"<request>\\\"",
        Custom(record_without_cycle),
    ),
    (
        "git restore --source=HEAD --staged --worktree .standards/STATE.md",
        Custom(record_of_a_typed_id),
    ),
    ("git standards cancel", Custom(cycle_new_while_active)),
    (
        "git standards cycle new --request \\\"<request text>\\\"",
        Custom(cycle_new_while_active),
    ),
    ("git standards check", Custom(record_fields_to_fill)),
    (
        "git standards artifact init {}",
        Custom(id_next_without_record),
    ),
    ("git standards cancel --yes", Custom(greenfield_cancel)),
    (
        "git standards start --request \\\"<request>\\\" --policy <policy>",
        Custom(policy_without_a_cycle),
    ),
    (
        "git standards promote --reason \\\"<reason>\\\"",
        Custom(policy_in_expedited),
    ),
    ("git standards unblock", Custom(blocked)),
    (
        "git standards signoff --reply \\\"<the user's reply>\\\"",
        Custom(awaiting_signoff),
    ),
    ("git standards cancel", Custom(awaiting_signoff)),
    (
        "git standards signoff --reply \\\"<the user's reply>\\\"",
        Custom(signoff_option_where_the_prompt_hook_is_installed),
    ),
    ("git standards cancel", Custom(next_mode_during_expedited)),
    (
        "git standards promote --reason \\\"<why>\\\"",
        Custom(next_mode_during_expedited),
    ),
    (
        "git standards next-mode standard",
        Custom(greenfield_next_mode),
    ),
    (
        "git standards promote --reason \\\"<the standard guarantee now needed>\\\"",
        Custom(expedited_without_an_owner),
    ),
    (
        "git standards block --on \\\"<question>\\\"",
        Custom(documentation_without_an_owner),
    ),
    (
        "git standards rework --type <FailureType> --request \\\"<request>\\\"",
        Custom(rework_at_signoff),
    ),
    ("git standards rework", Custom(rework_at_signoff)),
    ("git standards fail", Custom(owned_problems)),
    ("git standards fail", Custom(misdirected_handoff)),
    (
        "git standards fail --type <FailureType> --reason \\\"<text>\\\"",
        Custom(misdirected_handoff),
    ),
    ("git standards status", Custom(handoff_off_the_route)),
    ("git standards status", Custom(signoff_with_obligations)),
    ("git standards check", Custom(owned_problems)),
    ("git standards check", Custom(recovery_without_a_frame)),
    ("git standards check", Custom(resume_outside_the_owner)),
    ("git standards check", Custom(malformed_baseline)),
    ("git standards check", Custom(transition_without_mode)),
    ("git standards check", Custom(cycle_without_mode)),
    ("git standards check", Custom(frame_without_resume_at)),
    ("git standards resume", Custom(unplanned_recovery)),
    ("git standards resume", Custom(checkpoint_during_recovery)),
    (
        "git standards resume --rerun-through <STATE>",
        Custom(unplanned_recovery),
    ),
    (
        "git standards handoff --to <next rerun state> --reason \\\"<text>\\\"",
        Custom(checkpoint_during_recovery),
    ),
    (
        "git standards handoff --to <next rerun state> --reason \\\"<text>\\\"",
        Custom(rerun_not_at_boundary),
    ),
    (
        "git standards cadence incremental",
        Custom(checkpoint_without_incremental),
    ),
    (
        "git standards start --request \\\"<request>\\\"",
        Custom(move_without_a_cycle),
    ),
    (
        "git standards handoff --to <STATE> --reason \\\"<text>\\\"",
        Custom(resume_without_a_frame),
    ),
    (
        "git standards reset --mode greenfield --dry-run",
        Custom(greenfield_cancel_by_reset),
    ),
    (
        "git standards reset --mode greenfield --yes",
        Custom(greenfield_cancel_by_reset),
    ),
    ("git standards cycle new", Custom(start_with_a_made_up_id)),
    ("git add", Custom(resolve_with_other_conflicts)),
    (
        "git standards resolve",
        Custom(resolve_with_other_conflicts),
    ),
    ("git standards status", Custom(resolve_without_a_conflict)),
    ("git add {STATE_PATH}", Custom(resolve_over_a_hand_edit)),
    (
        "git checkout -m {STATE_PATH}",
        Custom(resolve_over_a_hand_edit),
    ),
    ("git add", Custom(conflict_refusal_keeps)),
    (
        "git standards resolve --keep ours",
        Custom(conflict_refusal_keeps),
    ),
    (
        "git standards resolve --keep theirs",
        Custom(conflict_refusal_keeps),
    ),
    ("git add {repo_path}", Custom(resolve_with_a_locked_index)),
    ("git commit", Custom(merge_in_progress)),
    ("git merge --abort", Custom(merge_in_progress)),
    ("git rebase --continue", Custom(rebase_in_progress)),
    ("git rebase --abort", Custom(rebase_in_progress)),
    (
        "git cherry-pick --continue",
        Custom(cherry_pick_in_progress),
    ),
    ("git cherry-pick --abort", Custom(cherry_pick_in_progress)),
    ("git revert --continue", Custom(revert_in_progress)),
    ("git revert --abort", Custom(revert_in_progress)),
    ("git am", Custom(am_in_progress)),
    ("git am --continue", Custom(am_in_progress)),
    ("git am --abort", Custom(am_in_progress)),
    (
        "git standards{dash_c} signoff --reply \\\"<the user's reply>\\\"",
        Custom(merge_of_an_active_cycle),
    ),
    (
        "git standards{dash_c} cancel",
        Custom(merge_of_an_active_cycle),
    ),
    ("git merge --abort", Custom(line_merged_state)),
    ("git standards hooks install", Custom(line_merged_state)),
    (
        "git standards resolve --keep ours",
        Custom(line_merged_state),
    ),
    (
        "git standards resolve --keep theirs",
        Custom(line_merged_state),
    ),
    (
        "git standards reset --dry-run",
        Custom(reset_without_confirmation),
    ),
    (
        "git restore --staged <path>",
        Custom(reset_commit_with_other_changes),
    ),
    ("git standards archive show {}", Custom(reset_archive)),
    ("git standards install", Custom(reset_again)),
    ("git standards {command}", Custom(reset_again)),
    (
        "git standards uninstall --dry-run",
        Custom(uninstall_without_confirmation),
    ),
    (
        "git standards uninstall --yes",
        Custom(uninstall_without_confirmation),
    ),
    (
        "git standards archive show {}",
        Custom(uninstall_without_confirmation),
    ),
    (
        "git restore --source=HEAD {INSTALLATION_PATH}",
        Custom(uninstall_incomplete_runtime),
    ),
    (
        "git restore --source=HEAD .standards",
        Custom(uninstall_incomplete_runtime),
    ),
    ("git add", Custom(stop_during_a_conflict)),
    ("git standards resolve", Custom(stop_during_a_conflict)),
    (
        "git standards resolve --keep ours",
        Custom(stop_during_a_conflict),
    ),
    (
        "git standards resolve --keep theirs",
        Custom(stop_during_a_conflict),
    ),
    ("git fetch --unshallow", Custom(verify_shallow)),
    ("git fetch --deepen=<n>", Custom(verify_shallow)),
    (
        "git fetch origin {main}:refs/remotes/origin/{main}",
        Custom(verify_without_main),
    ),
    (
        "git standards verify <base>..HEAD",
        Custom(verify_without_main),
    ),
    (
        "git fetch origin {branch}:refs/remotes/origin/{branch}",
        Custom(verify_into_an_unknown_branch),
    ),
    (
        "git standards resolve --keep ours|theirs",
        Custom(verify_state_changed_on_both_sides),
    ),
    (
        "git standards verify",
        Custom(verify_summary_over_its_limit),
    ),
    ("git push --no-verify", Prose),
    ("git standards verify", Prose),
    (
        "git standards verify {range}",
        Custom(server_refusal_verify),
    ),
    ("git standards hooks install", Custom(server_hook_outdated)),
    // Printed by the agent hooks and sign-off; run in their situations by `tests/agent_hooks.rs`.
    ("git standards", Uncovered(SYNOPSIS)),
    ("git standards <command> --help", Uncovered(SYNOPSIS)),
    ("git standards block --on <question>", Uncovered(SYNOPSIS)),
    (
        "git standards fail --type <FailureType> --reason <text>",
        Uncovered(SYNOPSIS),
    ),
    (
        "git standards handoff --to <STATE> --reason <text>",
        Uncovered(SYNOPSIS),
    ),
    ("git standards hook --help", Uncovered(AGENT_HOOKS)),
    ("git standards hook prompt-submit", Uncovered(AGENT_HOOKS)),
    ("git standards signoff --no-human-turn-check", Uncovered(AGENT_HOOKS)),
    (
        "git standards signoff --reply \\\"<the user's words>\\\"",
        Uncovered(AGENT_HOOKS),
    ),
    (
        "git standards signoff --reply \\\"<their words>\\\"",
        Uncovered(AGENT_HOOKS),
    ),
    // Run as written by `tests/record.rs`, in the situations that print them.
    ("git standards artifact init", Uncovered(RECORDS)),
    ("git standards artifact init <TYPE>", Uncovered(RECORDS)),
    (
        "git standards record add {rel} <PREFIX> --title \\\"<text>\\\"",
        Uncovered(RECORDS),
    ),
    (
        "git standards record add {shown} <PREFIX> --title \\\"<text>\\\"",
        Uncovered(RECORDS),
    ),
    (
        "git standards record set <file> DEV-001 Status=DONE",
        Uncovered(RECORDS),
    ),
    ("git standards record set {shown} Field=VALUE", Uncovered(RECORDS)),
    (
        "git standards record set {shown} {new_id} Field=VALUE",
        Uncovered(RECORDS),
    ),
    ("git cat-file -p {c}", Uncovered(GIT)),
    ("git cat-file -p {id}", Uncovered(GIT)),
    ("git cat-file -t {commit}", Uncovered(GIT)),
    ("git cat-file -t {reference}", Uncovered(GIT)),
    (
        "git clone --ref-format=files <this repository> <new folder>",
        Uncovered(GIT),
    ),
    ("git diff HEAD -- .standards/STATE.md", Uncovered(GIT)),
    ("git fetch {remote}", Uncovered(GIT)),
    ("git log --oneline", Uncovered(GIT)),
    ("git log --oneline {tip}", Uncovered(GIT)),
    ("git log <ref>", Uncovered(GIT)),
    ("git log {tracking}", Uncovered(GIT)),
    ("git ls-remote {remote}", Uncovered(GIT)),
    (
        "git ls-remote {remote} 'refs/standards/archive/*'",
        Uncovered(GIT),
    ),
    ("git ls-tree -r {label}", Uncovered(GIT)),
    ("git merge", Uncovered(GIT)),
    ("git merge-tree", Uncovered(GIT)),
    ("git merge-tree --write-tree", Uncovered(GIT)),
    ("git push {remote}", Uncovered(GIT)),
    ("git refs migrate --ref-format=files", Uncovered(GIT)),
    ("git remote -v", Custom(board_unknown_remote)),
    ("git reset", Uncovered(GIT)),
    ("git show-ref {}", Uncovered(GIT)),
    ("git standards -C {} status", Custom(demo_tour)),
    ("git standards <TAB>", Uncovered(SYNOPSIS)),
    ("git standards archive list", Custom(archives_listed)),
    ("git standards reset --yes", Custom(archives_listed)),
    ("git standards uninstall --yes", Custom(archives_listed)),
    ("git standards archive show {name}", Custom(archives_listed)),
    ("git standards archive show {name} {}", Uncovered("run with a record name by tests/reset.rs and tests/json_everywhere.rs")),
    ("git standards check --json", Uncovered("run by tests/check.rs and tests/json_everywhere.rs")),
    ("git standards check --ref main --json", Uncovered("an example in `git standards --help`; `check --ref <branch> --json` runs in tests/board.rs")),
    ("git standards demo", Custom(demo_tour)),
    ("git standards hooks uninstall", Uncovered(AGENT_HOOKS)),
    ("git standards hooks uninstall\\", Uncovered(AGENT_HOOKS)),
    (
        "git standards install --client claude|codex|both",
        Uncovered("a synopsis of three commands, each run by tests/clients.rs"),
    ),
    ("git standards install --hooks", Custom(node_handlers_removed_with_hooks_off)),
    ("git standards log", Custom(demo_tour)),
    ("git standards manpages --install", Uncovered("run by tests/completions.rs")),
    ("git standards manpages --install DIR", Uncovered("run with a folder by tests/completions.rs")),
    ("git standards notes sync", Uncovered("run against a local bare remote by tests/notes_sync.rs")),
    ("git standards notes sync <remote>", Uncovered("run against a local bare remote by tests/notes_sync.rs")),
    ("git standards notes sync {remote}", Uncovered("run against a local bare remote by tests/notes_sync.rs")),
    ("git standards recover", Uncovered("run after a killed write by tests/recover.rs and tests/crash.rs")),
    ("git standards recover --rollback", Uncovered("run after a killed write by tests/recover.rs")),
    (
        "git standards reset --yes --commit",
        Custom(changed_after_signoff),
    ),
    ("git standards start", Custom(demo_tour)),
    ("git standards signoff", Custom(demo_tour)),
    ("git standards status --ref <branch>", Custom(demo_tour)),
    ("git standards verify --into <main branch>", Uncovered("run with a branch by tests/verify.rs and tests/merge_guard.rs")),
    ("git standards {op}", Uncovered(PLACEHOLDER)),
    ("git standards {rest}", Uncovered(PLACEHOLDER)),
    ("git standards {}", Uncovered(PLACEHOLDER)),
    ("git status", Uncovered(GIT)),
    ("git switch -c <name>", Uncovered(GIT)),
    ("git update-ref -d {label}", Uncovered(GIT)),
    ("git {}", Uncovered(PLACEHOLDER)),
];

// ---------------------------------------------------------------------------
// Running hints.

/// The commands a hint names, in its order: each backquoted span that starts
/// with `git `.
fn commands_in(hint: &str) -> Vec<String> {
    hint.split('`')
        .skip(1)
        .step_by(2)
        .filter(|s| s.starts_with("git ") && s.len() > "git ".len())
        .map(str::to_string)
        .collect()
}

/// Runs one hinted command through the shell, with the binary under test as
/// the `git-standards` that `git standards` finds on `PATH`.
fn run_hinted(env: &Env, dir: &Path, command: &str) -> Output {
    let bin = Env::bin();
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    env.sealed("sh", dir)
        .args(["-c", command])
        .env("PATH", path)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("sh runs")
}

/// Runs every command `hint` names; each must succeed. Returns them.
fn run_all(env: &Env, dir: &Path, hint: &str) -> Vec<String> {
    let commands = commands_in(hint);
    assert!(!commands.is_empty(), "the hint names no command: {hint}");
    run_each(env, dir, &commands, hint);
    commands
}

/// Runs `commands` (taken from `hint`) in order; each must succeed.
fn run_each(env: &Env, dir: &Path, commands: &[impl AsRef<str>], hint: &str) {
    for c in commands {
        let c = c.as_ref();
        let out = run_hinted(env, dir, c);
        assert!(
            out.status.success(),
            "the hinted `{c}` failed (hint: {hint}):\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// The `hint:` line of a refusal on stderr.
fn refusal_hint(out: &Output) -> String {
    assert_eq!(
        out.status.code(),
        Some(1),
        "not a refusal: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let err = String::from_utf8_lossy(&out.stderr);
    err.lines()
        .find_map(|l| l.strip_prefix("hint: "))
        .unwrap_or_else(|| panic!("no hint: {err}"))
        .to_string()
}

fn output(env: &Env, dir: &Path, args: &[&str]) -> Output {
    env.cmd(dir)
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap()
}

/// The problems `check --json` reports: (rule, file, hint).
fn problems(env: &Env, dir: &Path, args: &[&str]) -> Vec<(String, String, String)> {
    let mut all = vec!["check", "--json"];
    all.extend_from_slice(args);
    let out = output(env, dir, &all);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "check --json printed no JSON ({e}): {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    v["problems"]
        .as_array()
        .map(|ps| {
            ps.iter()
                .map(|p| {
                    (
                        p["rule"].as_str().unwrap().to_string(),
                        p["file"].as_str().unwrap().to_string(),
                        p["hint"].as_str().unwrap_or("").to_string(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

/// `check` (with `args`) reports `rule`; its hint names commands that all
/// succeed; afterwards that problem is gone. Returns the commands run.
fn check_hint_repairs(env: &Env, dir: &Path, args: &[&str], rule: &str) -> Vec<String> {
    let before = problems(env, dir, args);
    let (_, file, hint) = before
        .iter()
        .find(|(r, _, h)| r == rule && !commands_in(h).is_empty())
        .unwrap_or_else(|| panic!("no {rule} problem with a command in its hint: {before:?}"))
        .clone();
    let commands = run_all(env, dir, &hint);
    let after = problems(env, dir, args);
    assert!(
        !after.iter().any(|(r, f, _)| r == rule && f == &file),
        "{rule} on {file} is still reported after {commands:?}: {after:?}"
    );
    commands
}

/// `check` reports `rule` with commands in its hint; each succeeds, and an
/// identifier one prints is not used in the problem's file yet.
fn check_hint_guides(env: &Env, dir: &Path, rule: &str) {
    let before = problems(env, dir, &[]);
    let (_, file, hint) = before
        .iter()
        .find(|(r, _, h)| r == rule && !commands_in(h).is_empty())
        .unwrap_or_else(|| panic!("no {rule} problem with a command in its hint: {before:?}"))
        .clone();
    for c in commands_in(&hint) {
        let out = run_hinted(env, dir, &c);
        assert!(
            out.status.success(),
            "the hinted `{c}` failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        if c.starts_with("git standards id next") {
            let id = String::from_utf8_lossy(&out.stdout).trim().to_string();
            let text = std::fs::read_to_string(dir.join(&file)).unwrap();
            assert!(
                !id.is_empty() && !text.contains(&id),
                "`{c}` printed `{id}`, used in {file}"
            );
        }
    }
}

// ---------------------------------------------------------------------------
// Conformance cases made real.

fn files_of(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    crate::common::contents_below(dir)
}

/// The case `name` as a real repository: the install of its mode and its
/// base, committed with its `head/` overlay when it has a last commit, then
/// its `tree/` overlay and removals in the working tree.
fn real_case(name: &str) -> (Env, PathBuf) {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/check");
    let dir = fixtures.join("cases").join(name);
    let spec = std::fs::read_to_string(dir.join("case")).unwrap();
    let get = |key: &str| {
        spec.lines()
            .filter_map(|l| l.split_once(':'))
            .find(|(k, _)| k.trim() == key)
            .map(|(_, v)| v.trim().to_string())
    };
    let (env, repo) = Env::repo();
    let mode = get("mode").unwrap_or_else(|| "brownfield".into());
    env.run(&repo, &["install", "--mode", &mode]).success();
    let base = get("base")
        .map(|b| files_of(&fixtures.join("bases").join(b)))
        .unwrap_or_default();
    for (p, c) in &base {
        write(repo.join(p), c);
    }
    let head = files_of(&dir.join("head"));
    if !head.is_empty() || get("head").as_deref() == Some("base") {
        for (p, c) in &head {
            write(repo.join(p), c);
        }
        env.commit_all(&repo, "the case's last commit");
        let installed = env.git(&repo, &["show", "HEAD:.standards/MODE.md"]);
        let _ = installed;
        for p in head.keys() {
            match base.get(p) {
                Some(c) => write(repo.join(p), c),
                None => {
                    // Back to the install's copy, or gone.
                    let _ = std::fs::remove_file(repo.join(p));
                }
            }
        }
        // The install's own files that the head overlay changed.
        for p in head.keys().filter(|p| !base.contains_key(*p)) {
            if p.starts_with(".standards/") && !repo.join(p).exists() {
                let fresh = fresh_install_file(&mode, p);
                if let Some(c) = fresh {
                    write(repo.join(p), c);
                }
            }
        }
    }
    for (p, c) in files_of(&dir.join("tree")) {
        write(repo.join(&p), c);
    }
    for p in get("remove").unwrap_or_default().split_whitespace() {
        std::fs::remove_file(repo.join(p)).unwrap();
    }
    (env, repo)
}

/// A file as a fresh install of `mode` writes it.
fn fresh_install_file(mode: &str, path: &str) -> Option<Vec<u8>> {
    let (env, repo) = Env::repo();
    env.run(&repo, &["install", "--mode", mode]).success();
    std::fs::read(repo.join(path)).ok()
}

// ---------------------------------------------------------------------------
// The situations written out.

fn installed() -> (Env, PathBuf) {
    let (env, repo) = Env::repo();
    write(repo.join("app.py"), "print('hi')\n");
    env.run(&repo, &["install"]).success();
    (env, repo)
}

fn committed() -> (Env, PathBuf) {
    let (env, repo) = installed();
    env.commit_all(&repo, "install");
    (env, repo)
}

fn usage_error_help() {
    let (env, repo) = Env::repo();
    let out = output(&env, &repo, &["status", "--no-such-flag"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    // clap prints its own usage hint; the library's usage errors ours.
    let out = output(&env, &repo, &["artifact", "init", "REVIEW"]);
    assert_eq!(out.status.code(), Some(2), "{err}");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    let hint = err
        .lines()
        .find_map(|l| l.strip_prefix("hint: "))
        .unwrap_or_else(|| panic!("{err}"));
    let out = run_hinted(&env, &repo, "git-standards --help");
    assert!(out.status.success());
    assert!(!commands_in(hint).is_empty(), "{hint}");
    for c in commands_in(hint) {
        // `git standards --help` opens the manual through `man`; the same text
        // without `man` is the binary's own `--help`.
        let c = c.replacen("git standards", "git-standards", 1);
        let out = run_hinted(&env, &repo, &c);
        assert!(out.status.success(), "{c}");
        assert!(String::from_utf8_lossy(&out.stdout).contains("Usage"));
    }
}

/// `artifact init REVIEW` without `--kind`: the usage error names the help
/// that lists the kinds, and that help runs and names them.
fn review_without_kind() {
    let (env, repo) = installed();
    let out = output(&env, &repo, &["artifact", "init", "REVIEW"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    let message = err.lines().next().unwrap_or_default();
    let commands = run_all(&env, &repo, message);
    assert_eq!(commands, ["git standards artifact init --help"], "{err}");
    let out = run_hinted(&env, &repo, "git standards artifact init --help");
    let help = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        help.contains("--kind") && help.contains("FINAL_DELIVERABLE"),
        "{help}"
    );
}

fn not_installed() {
    let (env, repo) = Env::repo();
    let hint = refusal_hint(&output(&env, &repo, &["status"]));
    run_all(&env, &repo, &hint);
    env.run(&repo, &["status"]).success();
}

/// An upgrade from the Node runtime with hooks off: install removes the
/// Node stop handler and pre-tool-use guard (their tool goes with
/// `.standards/bin/`) and names `install --hooks` to put ours in their
/// place; run as written, it does, and our guard then refuses an agent's
/// edit of STATE.md as the Node one did.
fn node_handlers_removed_with_hooks_off() {
    let (env, repo) = Env::repo();
    env.run(&repo, &["install", "--client", "claude", "--no-hooks"])
        .success();
    write(repo.join(".standards/bin/hook.mjs"), "// node\n");
    let settings = repo.join(".claude/settings.json");
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    let node = |event: &str| serde_json::json!([{"hooks": [{"type": "command", "command": format!("node \"${{CLAUDE_PROJECT_DIR}}/.standards/bin/hook.mjs\" {event}")}]}]);
    json["hooks"] = serde_json::json!({"Stop": node("stop"), "PreToolUse": node("pre-tool-use")});
    write(&settings, serde_json::to_string_pretty(&json).unwrap());
    env.commit_all(&repo, "node hooks");

    let out = output(&env, &repo, &["install", "--no-hooks"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let named: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("`git standards install --hooks`"))
        .collect();
    assert_eq!(named.len(), 2, "the stop handler and the guard: {text}");
    let after = std::fs::read_to_string(&settings).unwrap();
    assert!(
        !after.contains("hook.mjs") && !after.contains("edit-guard"),
        "{after}"
    );
    for line in named {
        run_all(&env, &repo, line);
    }
    let now: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    let command = |event: &str| now["hooks"][event][0]["hooks"][0]["command"].to_string();
    assert!(command("Stop").contains("git standards hook stop"), "{now}");
    assert!(
        command("PreToolUse").contains("git standards hook edit-guard"),
        "{now}"
    );
    let payload = serde_json::json!({
        "session_id": "s", "cwd": repo, "hook_event_name": "PreToolUse",
        "tool_name": "Edit",
        "tool_input": {"file_path": repo.join(".standards/STATE.md"), "old_string": "a", "new_string": "b"}
    });
    let answer = env.run_stdin(
        &repo,
        &["hook", "edit-guard", "--client", "claude"],
        &payload.to_string(),
    );
    let answer: serde_json::Value = serde_json::from_slice(&answer.get_output().stdout).unwrap();
    assert_eq!(answer["hookSpecificOutput"]["permissionDecision"], "deny");
}

fn invalid_state() {
    let (env, repo) = committed();
    write(
        repo.join(".standards/STATE.md"),
        "`WorkflowState`: `NOPE`\n",
    );
    let out = output(&env, &repo, &["cycle", "new", "--request", "x"]);
    let hint = refusal_hint(&out);
    run_all(&env, &repo, &hint);
    env.run(&repo, &["cycle", "new", "--request", "x"])
        .success();
}

/// PV-012: an unmarked development plan at the plan's path. The hint's
/// first step (moving the file away) is done by hand, then its command runs.
fn plan_missing() {
    let p = crate::fixture::Project::brown();
    let id = p.start_cycle("DEVELOPING", "STANDARD", "FULL_DELIVERABLE");
    let plan = format!(".standards/docs/development/{id}.md");
    p.write(&plan, "# My plan\n\nSteps.\n");
    p.set_state(&[("Development", plan.as_str())]);
    let before = problems(&p.env, &p.root, &[]);
    let (_, _, hint) = before
        .iter()
        .find(|(r, _, _)| r == "PV-012")
        .unwrap_or_else(|| panic!("{before:?}"))
        .clone();
    std::fs::rename(p.path(&plan), p.path("my-plan.md")).unwrap();
    run_all(&p.env, &p.root, &hint);
    let after = problems(&p.env, &p.root, &[]);
    assert!(
        !after.iter().any(|(r, _, _)| r == "PV-012" || r == "PV-011"),
        "{after:?}"
    );
}

/// PV-011: Active Work names a record that does not exist; `artifact init`
/// writes the fixed path, which the field is then set to.
fn active_path_missing() {
    let (env, repo) = real_case("PV-011-scope-missing");
    let before = problems(&env, &repo, &[]);
    let (_, _, hint) = before
        .iter()
        .find(|(r, _, _)| r == "PV-011")
        .unwrap_or_else(|| panic!("{before:?}"))
        .clone();
    run_all(&env, &repo, &hint);
    let fixed = hint
        .split('`')
        .find(|s| s.starts_with(".standards/docs/scope/"))
        .unwrap_or_else(|| panic!("the hint names the path it writes: {hint}"));
    assert!(repo.join(fixed).is_file(), "{fixed}");
    let state = repo.join(".standards/STATE.md");
    let text = std::fs::read_to_string(&state).unwrap();
    write(&state, crate::common::set_field(&text, "Scope", fixed));
    let after = problems(&env, &repo, &[]);
    assert!(!after.iter().any(|(r, _, _)| r == "PV-011"), "{after:?}");
}

fn remove(repo: &Path, path: &str) {
    std::fs::remove_file(repo.join(path)).unwrap();
}

fn runtime_file_in_the_index() {
    let (env, repo) = committed();
    remove(&repo, ".standards/VERSION.json");
    let commands = check_hint_repairs(&env, &repo, &[], "RT-001");
    assert_eq!(commands, ["git restore .standards/VERSION.json"]);
    // install refuses the same way and names the same command.
    remove(&repo, ".standards/STATE.md");
    let hint = refusal_hint(&output(&env, &repo, &["install"]));
    assert_eq!(
        run_all(&env, &repo, &hint),
        ["git restore .standards/STATE.md"]
    );
    env.run(&repo, &["check"]).success();
}

fn runtime_file_only_in_head() {
    let (env, repo) = committed();
    env.git(&repo, &["rm", "-q", ".standards/MODE.md"]);
    let hint = refusal_hint(&output(&env, &repo, &["install"]));
    run_all(&env, &repo, &hint);
    env.git(&repo, &["rm", "-q", ".standards/MODE.md"]);
    check_hint_repairs(&env, &repo, &[], "RT-001");
    env.run(&repo, &["check", "--staged"]).success();
    // A STATE.md that is not UTF-8 (RT-002) comes back the same way.
    write(repo.join(".standards/STATE.md"), b"\xff\xfe");
    check_hint_repairs(&env, &repo, &[], "RT-002");
}

fn runtime_file_unstaged() {
    let (env, repo) = committed();
    env.git(&repo, &["rm", "-q", "--cached", ".standards/VERSION.json"]);
    let commands = check_hint_repairs(&env, &repo, &["--staged"], "RT-001");
    assert_eq!(commands, ["git restore --staged .standards/VERSION.json"]);
    // Never committed: the working tree's copy is staged.
    let (env, repo) = installed();
    env.git(&repo, &["add", "."]);
    env.git(&repo, &["rm", "-q", "--cached", ".standards/VERSION.json"]);
    let commands = check_hint_repairs(&env, &repo, &["--staged"], "RT-001");
    assert_eq!(commands, ["git add .standards/VERSION.json"]);
}

fn runtime_file_nowhere() {
    for path in [
        ".standards/VERSION.json",
        ".standards/INSTALLATION.json",
        ".standards/STATE.md",
        ".standards/MODE.md",
    ] {
        // A greenfield project, so the hint's `--mode greenfield` is its mode.
        let (env, repo) = Env::repo();
        env.run(&repo, &["install"]).success();
        remove(&repo, path);
        let commands = check_hint_repairs(&env, &repo, &[], "RT-001");
        assert!(
            commands[0].starts_with("git standards install"),
            "{commands:?}"
        );
        env.run(&repo, &["check"]).success();
        // Said by the repair itself.
        remove(&repo, path);
        let mut args = vec!["install"];
        if path.ends_with("MODE.md") {
            args.extend(["--mode", "greenfield"]);
        }
        let a = env.run(&repo, &args).success();
        let out = crate::common::stdout(&a);
        assert!(out.contains(&format!("Restored `{path}`")), "{out}");
    }
}

/// Two branches' STATE.md in conflict.
fn conflicted() -> (Env, PathBuf) {
    let p = crate::fixture::Project::brown();
    p.commit("install");
    p.env.git(&p.root, &["checkout", "-q", "-b", "other"]);
    p.start_cycle_for("Their request", "AUDITING", "STANDARD", "FULL_DELIVERABLE");
    p.commit("theirs");
    p.env.git(&p.root, &["checkout", "-q", "main"]);
    p.start_cycle_for("Our request", "AUDITING", "STANDARD", "FULL_DELIVERABLE");
    p.commit("ours");
    let out = p.env.git_status(&p.root, &["merge", "-q", "other"]);
    assert!(!out.status.success(), "the merge conflicts");
    (p.env, p.root)
}

fn state_conflict() {
    for keep in ["ours", "theirs"] {
        let (env, repo) = conflicted();
        let before = problems(&env, &repo, &[]);
        let (_, _, hint) = before
            .iter()
            .find(|(r, f, _)| r == "RT-003" && f == ".standards/STATE.md")
            .unwrap_or_else(|| panic!("{before:?}"))
            .clone();
        let command = commands_in(&hint)
            .into_iter()
            .find(|c| c.ends_with(keep))
            .unwrap();
        // The user's decision, given on the command line outside a terminal.
        let out = run_hinted(&env, &repo, &format!("{command} --yes"));
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(problems(&env, &repo, &[]).is_empty());
    }
    // Resolved by hand, then `git add`ed: the tools work again.
    let (env, repo) = conflicted();
    let hint = refusal_hint(&output(&env, &repo, &["cycle", "new", "--request", "x"]));
    assert!(
        commands_in(&hint).contains(&"git add".to_string()),
        "{hint}"
    );
    env.git(&repo, &["checkout", "--ours", ".standards/STATE.md"]);
    run_hinted(&env, &repo, "git add .standards/STATE.md");
    let out = output(&env, &repo, &["cycle", "new", "--request", "x"]);
    assert_ne!(refusal_hint_or_none(&out), Some(hint));
}

fn refusal_hint_or_none(out: &Output) -> Option<String> {
    String::from_utf8_lossy(&out.stderr)
        .lines()
        .find_map(|l| l.strip_prefix("hint: "))
        .map(str::to_string)
}

fn typed_cycle_id() {
    // The case's typed ID over a last commit that holds the issued state.
    let (env, repo) = real_case("ST-014-typed-cycle-id");
    let state = repo.join(".standards/STATE.md");
    let typed = std::fs::read(&state).unwrap();
    write(
        &state,
        fresh_install_file("brownfield", ".standards/STATE.md").unwrap(),
    );
    env.commit_all(&repo, "the last commit");
    write(&state, typed);
    check_hint_repairs(&env, &repo, &[], "ST-014");
}

fn index_without_runtime() {
    let (env, repo) = installed();
    env.commit_all(&repo, "nothing yet");
    env.git(&repo, &["rm", "-rq", "--cached", ".standards"]);
    let hint = refusal_hint(&output(&env, &repo, &["check", "--staged"]));
    run_all(&env, &repo, &hint);
    env.run(&repo, &["check", "--staged"]).success();
}

fn two_commits() -> (Env, PathBuf) {
    let (env, repo) = committed();
    write(repo.join("app.py"), "print('again')\n");
    env.commit_all(&repo, "second");
    (env, repo)
}

fn shallow_parent() {
    let (env, origin) = two_commits();
    let clone = env.dir.path().join("clone");
    env.git(
        env.dir.path(),
        &[
            "clone",
            "-q",
            "--depth",
            "1",
            &format!("file://{}", origin.display()),
            clone.to_str().unwrap(),
        ],
    );
    let hint = refusal_hint(&output(&env, &clone, &["check", "--ref", "HEAD"]));
    let commands = commands_in(&hint);
    let out = run_hinted(&env, &clone, &commands[0]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    env.run(&clone, &["check", "--ref", "HEAD"]).success();
}

fn missing_parent_object() {
    let (env, repo) = two_commits();
    let parent = env.git(&repo, &["rev-parse", "HEAD~1"]).trim().to_string();
    let object = repo
        .join(".git/objects")
        .join(&parent[..2])
        .join(&parent[2..]);
    std::fs::remove_file(object).unwrap();
    let hint = refusal_hint(&output(&env, &repo, &["check", "--ref", "HEAD"]));
    assert_eq!(commands_in(&hint), ["git fsck"]);
    // fsck diagnoses, it cannot repair: it names the missing commit.
    let out = run_hinted(&env, &repo, "git fsck");
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(said.contains(&parent), "{said}");
}

/// Issue 25, item 7: the commit the first steps name adds every path the
/// install wrote (the clients' files too), so nothing it wrote is left
/// untracked.
fn first_steps() {
    for clients in [&["install"][..], &["install", "--client", "both"]] {
        let (env, repo) = Env::repo();
        let a = env.run(&repo, clients).success();
        let out = crate::common::stdout(&a);
        let line = out
            .lines()
            .find(|l| l.starts_with("First steps"))
            .unwrap_or_else(|| panic!("{out}"));
        let commands = commands_in(line);
        let commands: Vec<_> = commands
            .iter()
            .filter(|c| c.starts_with("git add") || c.starts_with("git standards"))
            .collect();
        assert_eq!(commands.len(), 2, "{line}");
        run_each(&env, &repo, &commands[..1], line);
        let left = env.git(&repo, &["status", "--porcelain", "--untracked-files=all"]);
        assert_eq!(left, "", "{line}");
        run_each(&env, &repo, &commands[1..], line);
        let a = env.run(&repo, &["status", "--json"]).success();
        assert!(crate::common::stdout(&a).contains("<what you want done>"));
    }
}

/// `board --remote` naming no remote: the hinted `git remote -v` lists the
/// remotes, and the board runs with one of them.
fn board_unknown_remote() {
    let (env, repo) = committed();
    env.git(
        &repo,
        &["remote", "add", "origin", "https://example.invalid/r.git"],
    );
    let out = output(&env, &repo, &["board", "--remote", "upstream"]);
    let hint = refusal_hint(&out);
    assert_eq!(run_all(&env, &repo, &hint), ["git remote -v"]);
    let listed = run_hinted(&env, &repo, "git remote -v");
    assert!(String::from_utf8_lossy(&listed.stdout).contains("origin"));
    env.run(&repo, &["board", "--remote", "origin"]).success();
}

fn kept_notes_setting() {
    let (env, repo) = Env::repo();
    env.git(&repo, &["config", "notes.rewriteMode", "overwrite"]);
    let a = env.run(&repo, &["install"]).success();
    let err = crate::common::stderr(&a);
    let command = commands_in(&err)
        .into_iter()
        .find(|c| c.starts_with("git config"))
        .unwrap_or_else(|| panic!("{err}"));
    let out = run_hinted(&env, &repo, &command);
    assert!(out.status.success());
    let a = env.run(&repo, &["install"]).success();
    assert!(!crate::common::stderr(&a).contains("warning"));
}

fn sparse_checkout() {
    let (env, repo) = committed();
    env.git(
        &repo,
        &["sparse-checkout", "set", "--no-cone", "/*", "!/.standards/"],
    );
    for args in [&["install"][..], &["status"]] {
        let hint = refusal_hint(&output(&env, &repo, args));
        let command = commands_in(&hint)
            .into_iter()
            .find(|c| c.starts_with("git sparse-checkout"))
            .unwrap();
        let out = run_hinted(&env, &repo, &command);
        assert!(out.status.success());
        env.run(&repo, &["status"]).success();
        env.git(
            &repo,
            &["sparse-checkout", "set", "--no-cone", "/*", "!/.standards/"],
        );
    }
}

fn absent_runtime() {
    for staged in [false, true] {
        let (env, repo) = committed();
        let state = std::fs::read(repo.join(".standards/STATE.md")).unwrap();
        if staged {
            env.git(&repo, &["rm", "-rq", ".standards"]);
        } else {
            std::fs::remove_dir_all(repo.join(".standards")).unwrap();
        }
        let hint = refusal_hint(&output(&env, &repo, &["install"]));
        let commands = commands_in(&hint);
        let commands: Vec<_> = commands
            .iter()
            .filter(|c| !c.starts_with("git sparse-checkout"))
            .collect();
        assert_eq!(commands.len(), 2, "{hint}");
        run_each(&env, &repo, &commands, &hint);
        assert_eq!(
            std::fs::read(repo.join(".standards/STATE.md")).unwrap(),
            state
        );
    }
}

fn install_other_mode() {
    let (env, repo) = committed();
    let hint = refusal_hint(&output(&env, &repo, &["install", "--mode", "greenfield"]));
    run_all(&env, &repo, &hint);
    let mode = std::fs::read_to_string(repo.join(".standards/MODE.md")).unwrap();
    assert!(mode.contains("GREENFIELD"), "{mode}");
    env.run(&repo, &["install", "--mode", "greenfield"])
        .success();
}

fn tool_without_runtime() {
    let (env, repo) = Env::repo();
    let hint = refusal_hint(&output(&env, &repo, &["cycle", "new", "--request", "x"]));
    run_all(&env, &repo, &hint);
    env.run(&repo, &["cycle", "new", "--request", "x"])
        .success();
}

fn tool_without_state() {
    let (env, repo) = committed();
    remove(&repo, ".standards/STATE.md");
    let hint = refusal_hint(&output(&env, &repo, &["cycle", "new", "--request", "x"]));
    let first = commands_in(&hint).remove(0);
    let out = run_hinted(&env, &repo, &first);
    assert!(out.status.success(), "{first}");
    env.run(&repo, &["cycle", "new", "--request", "x"])
        .success();
}

fn status_of_an_index_without_runtime() {
    let (env, repo) = installed();
    let hint = refusal_hint(&output(&env, &repo, &["status", "--staged"]));
    run_all(&env, &repo, &hint);
    env.run(&repo, &["status", "--staged"]).success();
}

fn status_of_a_standards_file() {
    let (env, repo) = Env::repo();
    write(repo.join(".standards"), "mine\n");
    let hint = refusal_hint(&output(&env, &repo, &["status"]));
    // "move it out of the way", then the command.
    std::fs::rename(repo.join(".standards"), repo.join("mine.txt")).unwrap();
    run_all(&env, &repo, &hint);
    env.run(&repo, &["status"]).success();
}

fn status_without_state() {
    let (env, repo) = committed();
    remove(&repo, ".standards/STATE.md");
    let hint = refusal_hint(&output(&env, &repo, &["status"]));
    run_all(&env, &repo, &hint);
    env.run(&repo, &["status"]).success();
    // Never committed: the hint is the install that recreates it, for status
    // and for the runtime tools alike.
    for args in [&["status"][..], &["cycle", "new", "--request", "x"]] {
        let (env, repo) = installed();
        remove(&repo, ".standards/STATE.md");
        let hint = refusal_hint(&output(&env, &repo, args));
        assert_eq!(
            run_all(&env, &repo, &hint),
            ["git standards install"],
            "{args:?}"
        );
        env.run(&repo, args).success();
    }
}

fn status_of_an_invalid_staged_state() {
    let (env, repo) = committed();
    write(
        repo.join(".standards/STATE.md"),
        "`WorkflowState`: `NOPE`\n",
    );
    env.git(&repo, &["add", ".standards/STATE.md"]);
    let hint = refusal_hint(&output(&env, &repo, &["status", "--staged"]));
    run_all(&env, &repo, &hint);
    env.run(&repo, &["status", "--staged"]).success();
}

fn status_of_a_conflict() {
    for keep in ["ours", "theirs"] {
        let (env, repo) = conflicted();
        let hint = refusal_hint(&output(&env, &repo, &["status"]));
        let command = commands_in(&hint)
            .into_iter()
            .find(|c| c.ends_with(keep))
            .unwrap_or_else(|| panic!("{hint}"));
        // The user's decision, given on the command line outside a terminal.
        let out = run_hinted(&env, &repo, &format!("{command} --yes"));
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        env.run(&repo, &["status"]).success();
    }
}

fn record_without_cycle() {
    let (env, repo) = installed();
    let hint = refusal_hint(&output(&env, &repo, &["artifact", "init", "SCOPE"]));
    run_all(&env, &repo, &hint);
    env.run(&repo, &["artifact", "init", "SCOPE"]).success();
}

fn record_of_a_typed_id() {
    let p = crate::fixture::Project::brown();
    p.start_cycle("AUDITING", "STANDARD", "FULL_DELIVERABLE");
    p.commit("the cycle");
    p.set_state(&[("Id", "my cycle!")]);
    let hint = refusal_hint(&output(&p.env, &p.root, &["artifact", "init", "SCOPE"]));
    run_all(&p.env, &p.root, &hint);
    p.env.run(&p.root, &["artifact", "init", "SCOPE"]).success();
}

/// `artifact init` names the header fields to fill and says `check` reports
/// them until then: it does, naming the same fields.
fn record_fields_to_fill() {
    let (env, repo) = installed();
    env.run(&repo, &["start", "--request", "First"]).success();
    let a = env
        .run(
            &repo,
            &["artifact", "init", "REVIEW", "--kind", "IMPLEMENTATION"],
        )
        .success();
    let said = format!("{}{}", crate::common::stdout(&a), crate::common::stderr(&a));
    let line = said
        .lines()
        .find(|l| l.starts_with("Next:"))
        .unwrap_or_else(|| panic!("{said}"));
    assert_eq!(commands_in(line), ["git standards check"], "{line}");
    let out = run_hinted(&env, &repo, "git standards check");
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(report.contains("[RH-002]"), "{report}");
    let field = line.split('`').nth(1).unwrap();
    assert!(report.contains(field), "`{field}` is reported: {report}");
}

fn cycle_new_while_active() {
    let (env, repo) = committed();
    env.run(&repo, &["start", "--request", "First"]).success();
    let hint = refusal_hint(&output(&env, &repo, &["cycle", "new", "--request", "x"]));
    run_all(&env, &repo, &hint);
}

fn id_next_without_record() {
    let p = crate::fixture::Project::brown();
    let id = p.start_cycle("DEVELOPING", "STANDARD", "FULL_DELIVERABLE");
    let plan = format!(".standards/docs/development/{id}.md");
    let hint = refusal_hint(&output(&p.env, &p.root, &["id", "next", "DEV", &plan]));
    run_all(&p.env, &p.root, &hint);
    p.env.run(&p.root, &["id", "next", "DEV", &plan]).success();
}

fn greenfield_cancel() {
    let (env, repo) = Env::repo();
    env.run(&repo, &["install"]).success();
    env.commit_all(&repo, "install");
    env.run(&repo, &["start", "--request", "First"]).success();
    let hint = refusal_hint(&output(&env, &repo, &["cancel"]));
    run_all(&env, &repo, &hint);
    let state = std::fs::read_to_string(repo.join(".standards/STATE.md")).unwrap();
    assert!(state.contains("`Id`: `UNSET`"), "the reset ran: {state}");
}

// ---------------------------------------------------------------------------
// The table, run.

#[test]
fn every_hinted_command_works_in_its_situation() {
    let mut done = BTreeSet::new();
    let mut failed = Vec::new();
    for (command, situation) in TABLE {
        let key = match situation {
            Case(case, rule) | Guides(case, rule) => format!("case {case} {rule}"),
            Custom(f) => format!("custom {:p}", *f as *const ()),
            Prose | Uncovered(_) => continue,
        };
        if !done.insert(key) {
            continue;
        }
        let result = std::panic::catch_unwind(|| match situation {
            Case(case, rule) => {
                let (env, repo) = real_case(case);
                check_hint_repairs(&env, &repo, &[], rule);
            }
            Guides(case, rule) => {
                let (env, repo) = real_case(case);
                check_hint_guides(&env, &repo, rule);
            }
            Custom(f) => f(),
            Prose | Uncovered(_) => {}
        });
        if result.is_err() {
            failed.push(format!("`{command}`"));
        }
    }
    assert!(failed.is_empty(), "hints that do not work: {failed:#?}");
}

/// The commands named in the sources of the binary and of the core, with
/// the number of places naming each: backquoted spans starting with `git `
/// in lines holding a string literal, outside comments and test modules
/// (`#[cfg(test)]` and the `tests.rs` files). The roots are the two crates'
/// source folders, whatever their files.
fn hinted_commands_in_sources() -> BTreeMap<String, usize> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut stack: Vec<PathBuf> = ["src", "crates/standards-core/src"]
        .iter()
        .map(|r| manifest.join(r))
        .collect();
    let mut found = BTreeMap::new();
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            if p.extension().is_none_or(|x| x != "rs")
                || p.file_name().is_some_and(|n| n == "tests.rs")
            {
                continue;
            }
            let text = std::fs::read_to_string(&p).unwrap();
            let code = text.split("#[cfg(test)]").next().unwrap();
            for line in code.lines() {
                let t = line.trim_start();
                if t.starts_with("//") || !t.contains('"') {
                    continue;
                }
                for c in commands_in(line) {
                    *found.entry(c).or_insert(0) += 1;
                }
            }
        }
    }
    found
}

#[test]
fn every_hint_naming_a_command_is_in_the_table() {
    let registry: BTreeMap<String, usize> = git_standards::hints::hinted_commands()
        .iter()
        .map(|(c, n)| (c.to_string(), *n))
        .collect();
    let found = hinted_commands_in_sources();
    let differ: Vec<_> = found
        .keys()
        .chain(registry.keys())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .filter(|c| found.get(*c) != registry.get(*c))
        .map(|c| (c, found.get(c), registry.get(c)))
        .collect();
    assert!(
        differ.is_empty(),
        "the registry (src/hints.rs) does not count what the sources name; (command, places in the sources, places registered): {differ:#?}"
    );
    let table: BTreeSet<String> = TABLE.iter().map(|(c, _)| c.to_string()).collect();
    let missing: Vec<_> = registry.keys().filter(|c| !table.contains(*c)).collect();
    assert!(
        missing.is_empty(),
        "hinted commands that no row runs (add a row to TABLE): {missing:#?}"
    );
    let stale: Vec<_> = table
        .iter()
        .filter(|c| !registry.contains_key(*c))
        .collect();
    assert!(stale.is_empty(), "rows whose hint is gone: {stale:#?}");
}

/// From a subfolder, a hint's git commands carry `-C` to the project root
/// (git reads their paths from the folder it runs in), and they work there:
/// in a refusal and in `check`'s text output alike. `--json` keeps the
/// project-relative spelling.
#[test]
fn hinted_git_commands_work_from_a_subfolder() {
    let (env, repo) = committed();
    let sub = repo.join("src/deep");
    std::fs::create_dir_all(&sub).unwrap();

    std::fs::remove_file(repo.join(".standards/STATE.md")).unwrap();
    let hint = refusal_hint(&output(&env, &sub, &["status"]));
    let commands = run_all(&env, &sub, &hint);
    assert!(
        commands
            .iter()
            .any(|c| c.starts_with("git -C ../.. restore ")),
        "{commands:?}"
    );
    env.run(&sub, &["status"]).success();

    std::fs::remove_file(repo.join(".standards/MODE.md")).unwrap();
    let out = output(&env, &sub, &["check"]);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let hint = text
        .lines()
        .find_map(|l| l.trim_start().strip_prefix("hint: "))
        .unwrap_or_else(|| panic!("no hint: {text}"));
    let commands = run_all(&env, &sub, hint);
    assert!(
        commands.iter().all(|c| c.starts_with("git -C ../.. ")),
        "{commands:?}"
    );
    env.run(&sub, &["check"]).success();

    std::fs::remove_file(repo.join(".standards/MODE.md")).unwrap();
    let json = problems(&env, &sub, &[]);
    assert!(
        json.iter()
            .any(|(_, _, h)| h.contains("`git restore") && !h.contains("-C")),
        "{json:?}"
    );
}

/// The conflict report of `status` and `check` names the conflicted files
/// as seen from the current folder, like `git status` does.
#[test]
fn the_conflict_report_shows_paths_from_a_subfolder() {
    let (env, repo) = conflicted();
    let sub = repo.join("src");
    std::fs::create_dir_all(&sub).unwrap();
    for args in [&["status"][..], &["check"][..]] {
        let out = output(&env, &sub, args);
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(
            text.contains("  `../.standards/STATE.md` ("),
            "{args:?}: {text}"
        );
        let top = String::from_utf8_lossy(&output(&env, &repo, args).stdout).into_owned();
        assert!(top.contains("  `.standards/STATE.md` ("), "{args:?}: {top}");
    }
}

// ---------------------------------------------------------------------------
// The transition commands' hints (crates/standards-core/src/workflow/moves and transition).

/// A brownfield project holding the base `name` of `fixtures/check/bases/`,
/// committed; `check` passes on it.
fn base(name: &str) -> (Env, PathBuf) {
    let (env, repo) = installed();
    let from = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/check/bases")
        .join(name);
    crate::transitions::copy_dir(&from, &repo);
    env.commit_all(&repo, name);
    env.run(&repo, &["check"]).success();
    (env, repo)
}

/// The F-STD cycle (brownfield, STANDARD, FULL_DELIVERABLE) in `state`.
fn f_std_in(state: &str) -> (Env, PathBuf) {
    crate::transitions::f_std(&[("WorkflowState", state)])
}

/// A committed brownfield install with a cycle started by `start` in `mode`.
fn started(mode: &str) -> (Env, PathBuf) {
    let (env, repo) = committed();
    env.run(
        &repo,
        &[
            "start",
            "--request",
            "Fix the login timeout",
            "--mode",
            mode,
        ],
    )
    .success();
    (env, repo)
}

/// The value of the first `name` field of STATE.md.
fn state_field(repo: &Path, name: &str) -> String {
    use standards_core::model::fields;
    let text = std::fs::read_to_string(repo.join(".standards/STATE.md")).unwrap();
    let found = fields::scan(&text);
    fields::first(&found, name)
        .unwrap_or_else(|| panic!("no `{name}` in STATE.md"))
        .value
        .clone()
}

/// The stderr of a refusal (exit 1).
fn refusal_text(out: &Output) -> String {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "not a refusal: {err}");
    err
}

/// The command `hint` names that is `prefix` or starts with `prefix `: the
/// row fails when the hint stops naming it.
fn named(hint: &str, prefix: &str) -> String {
    commands_in(hint)
        .into_iter()
        .find(|c| c == prefix || c.starts_with(&format!("{prefix} ")))
        .unwrap_or_else(|| panic!("the hint does not name `{prefix}`: {hint}"))
}

/// Runs `command` (a hinted command, placeholders filled); it must succeed.
fn run_ok(env: &Env, dir: &Path, command: &str, hint: &str) -> Output {
    let out = run_hinted(env, dir, command);
    assert!(
        out.status.success(),
        "the hinted `{command}` failed (hint: {hint}):\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// A guiding `git standards check`: it runs and reports each of `rules`.
fn check_reports(env: &Env, dir: &Path, hint: &str, rules: &[&str]) {
    let command = named(hint, "git standards check");
    assert_eq!(command, "git standards check", "{hint}");
    let out = run_hinted(env, dir, &command);
    let report = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(1),
        "check reports problems: {report}"
    );
    for rule in rules {
        assert!(report.contains(&format!("[{rule}]")), "{rule}: {report}");
    }
}

/// A handoff while `check` reports a problem in a file the Tester owns: `check`
/// lists that problem, and a defect another role owns goes through `fail`.
fn owned_problems() {
    let (env, repo) = f_std_in("TESTING");
    let report =
        repo.join(".standards/docs/verification/add-user-search-20260927T190146Z-7bef0f04.md");
    let text = std::fs::read_to_string(&report).unwrap();
    write(&report, text.replace("AC-001", "AC-009"));
    let args = [
        "handoff",
        "--to",
        "REVIEWING_IMPLEMENTATION",
        "--reason",
        "Verified.",
    ];
    let out = output(&env, &repo, &args);
    let err = refusal_text(&out);
    let hint = refusal_hint(&out);
    // The rules the refusal names, as `[RULE]`, are the ones check lists.
    let rules: Vec<&str> = err
        .split('[')
        .skip(1)
        .filter_map(|s| s.split_once(']').map(|(r, _)| r))
        .filter(|r| r.len() == 6 && r.as_bytes()[2] == b'-')
        .collect();
    assert!(!rules.is_empty(), "{err}");
    check_reports(&env, &repo, &hint, &rules);
    // The Tester finds the design at fault: the failure handoff is recorded.
    let fail = named(&hint, "git standards fail");
    run_ok(
        &env,
        &repo,
        &format!("{fail} --type ARCHITECTURE --reason \"Retry behavior is not designed.\""),
        &hint,
    );
    assert_eq!(state_field(&repo, "WorkflowState"), "ARCHITECTING");
}

/// A handoff while `Recovery` is active without a frame (RC-001).
fn recovery_without_a_frame() {
    let (env, repo) = real_case("RC-001-active-without-frames");
    let out = output(
        &env,
        &repo,
        &[
            "handoff",
            "--to",
            "REVIEWING_IMPLEMENTATION",
            "--reason",
            "x",
        ],
    );
    let err = refusal_text(&out);
    assert!(err.contains("(RC-001)"), "{err}");
    check_reports(&env, &repo, &err, &["RC-001"]);
    // A checkpoint is refused for the recovery; check reports the stack.
    let hint = refusal_hint(&output(
        &env,
        &repo,
        &[
            "handoff",
            "--checkpoint",
            "--to",
            "DEVELOPING",
            "--reason",
            "Increment 1 needs work.",
        ],
    ));
    check_reports(&env, &repo, &hint, &["RC-001"]);
}

/// `resume` in a state that is not the active frame's owner (RC-015).
fn resume_outside_the_owner() {
    let (env, repo) = real_case("RC-015-owner-does-not-hold-state");
    let hint = refusal_hint(&output(&env, &repo, &["resume"]));
    assert!(hint.contains("(RC-015)"), "{hint}");
    check_reports(&env, &repo, &hint, &["RC-015"]);
}

/// `start` over a malformed `BaselineReconciliation` (ST-027): check reports
/// it; corrected by hand, the start goes through.
fn malformed_baseline() {
    let (env, repo) = real_case("ST-027-baseline-not-a-list");
    let args = ["start", "--request", "Add user search"];
    let hint = refusal_hint(&output(&env, &repo, &args));
    check_reports(&env, &repo, &hint, &["ST-027"]);
    let state = repo.join(".standards/STATE.md");
    let text = std::fs::read_to_string(&state).unwrap();
    write(
        &state,
        crate::common::set_field(&text, "BaselineReconciliation", "NONE"),
    );
    env.run(&repo, &args).success();
}

/// A move while MODE.md is missing or unreadable: the hint is the one `check`
/// gives for it, so it names the command that works where git holds a copy;
/// for a folder in its place, `check` reports what is wrong (RT-002).
fn transition_without_mode() {
    let handoff = ["handoff", "--to", "SCOPING", "--reason", "Audited."];
    // Committed: restored from HEAD.
    let (env, repo) = started("STANDARD");
    env.commit_all(&repo, "the cycle");
    remove(&repo, ".standards/MODE.md");
    let hint = refusal_hint(&output(&env, &repo, &handoff));
    run_all(&env, &repo, &hint);
    assert!(repo.join(".standards/MODE.md").is_file());
    let out = output(&env, &repo, &handoff);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("MODE.md"), "{err}");
    // Never committed (a greenfield install): recreated by `install`.
    let (env, repo) = Env::repo();
    env.run(&repo, &["install"]).success();
    env.run(&repo, &["start", "--request", "Build the greeting app"])
        .success();
    remove(&repo, ".standards/MODE.md");
    let hint = refusal_hint(&output(&env, &repo, &["block", "--on", "Which greeting?"]));
    let install = named(&hint, "git standards install");
    run_ok(&env, &repo, &install, &hint);
    env.run(&repo, &["block", "--on", "Which greeting?"])
        .success();
    // A folder: nothing restores it; check says what is wrong.
    let (env, repo) = started("STANDARD");
    remove(&repo, ".standards/MODE.md");
    std::fs::create_dir(repo.join(".standards/MODE.md")).unwrap();
    let hint = refusal_hint(&output(&env, &repo, &handoff));
    check_reports(&env, &repo, &hint, &["RT-002"]);
}

/// A move that needs a cycle before any started: `start` begins one.
fn move_without_a_cycle() {
    let (env, repo) = committed();
    let args = ["block", "--on", "Which users may search?"];
    let hint = refusal_hint(&output(&env, &repo, &args));
    let start = named(&hint, "git standards start").replace("<request>", "Add user search");
    run_ok(&env, &repo, &start, &hint);
    assert_eq!(state_field(&repo, "Request"), "Add user search");
    env.run(&repo, &args).success();
}

/// A question while another waits, a handoff while blocked, and a saved
/// request blocked with the user's choices: `unblock` clears each.
fn blocked() {
    let (env, repo) = started("STANDARD");
    env.run(&repo, &["block", "--on", "Which users may search?"])
        .success();
    let second = ["block", "--on", "Which fields are searched?"];
    let hint = refusal_hint(&output(&env, &repo, &second));
    run_ok(&env, &repo, &named(&hint, "git standards unblock"), &hint);
    env.run(&repo, &second).success();
    let handoff = ["handoff", "--to", "SCOPING", "--reason", "Audited."];
    let hint = refusal_hint(&output(&env, &repo, &handoff));
    run_ok(&env, &repo, &named(&hint, "git standards unblock"), &hint);
    assert_eq!(state_field(&repo, "BlockedOn"), "NONE");
    let out = output(&env, &repo, &handoff);
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("blocked on a user question"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A greenfield project cannot start an expedited cycle: the request is
    // saved with that choice, and a bare `start` waits for the decision.
    let (env, repo) = Env::repo();
    env.run(&repo, &["install"]).success();
    env.commit_all(&repo, "install");
    env.run(
        &repo,
        &["start", "--request", "Build the app", "--mode", "expedited"],
    )
    .success();
    let hint = refusal_hint(&output(&env, &repo, &["start"]));
    run_ok(&env, &repo, &named(&hint, "git standards unblock"), &hint);
    assert_eq!(state_field(&repo, "PendingCycleRequest"), "UNSET");
    assert_eq!(state_field(&repo, "PendingCycleBlockedOn"), "NONE");
}

/// At `AWAITING_USER_SIGNOFF`, `start`, `handoff` and `next-mode` name the
/// user's actions: after `signoff --reply` or `cancel` the refusal is gone.
fn awaiting_signoff() {
    let moves: [&[&str]; 3] = [
        &["start", "--request", "Add user export"],
        &["handoff", "--to", "SIGNED_OFF", "--reason", "Done."],
        &["next-mode", "documentation"],
    ];
    for args in moves {
        for action in ["git standards signoff --reply", "git standards cancel"] {
            let (env, repo) = base("f-ir");
            let out = output(&env, &repo, args);
            let refused = refusal_text(&out);
            let hint = refusal_hint(&out);
            let command = named(&hint, action);
            if action == "git standards cancel" {
                assert_eq!(command, action, "{hint}");
            }
            run_ok(&env, &repo, &command, &hint);
            let out = output(&env, &repo, args);
            let after = String::from_utf8_lossy(&out.stderr).into_owned();
            let first = |s: &str| s.lines().next().unwrap_or("").to_string();
            assert_ne!(first(&after), first(&refused), "{args:?} after {action}");
            if args[0] != "handoff" {
                assert!(out.status.success(), "{args:?} after {action}: {after}");
            }
        }
    }
    // Before sign-off readiness the hints name `cancel`, not `signoff`.
    for args in [moves[0], moves[2]] {
        let (env, repo) = f_std_in("REVIEWING_IMPLEMENTATION");
        let hint = refusal_hint(&output(&env, &repo, args));
        assert!(
            !commands_in(&hint).iter().any(|c| c.contains("signoff")),
            "{hint}"
        );
        run_ok(&env, &repo, &named(&hint, "git standards cancel"), &hint);
        env.run(&repo, args).success();
    }
}

/// Where the prompt hook is installed, plain `signoff` is refused (no person
/// spoke, then no reply); the sign-off that `status` offers, in text and in
/// `--json`, and that the refusals name, is the `--reply` form, and it works
/// once the person has spoken.
fn signoff_option_where_the_prompt_hook_is_installed() {
    let (env, repo) = crate::agent_hooks::at_signoff(&["--client", "both"]);
    let offered = "git standards signoff --reply \"<the user's reply>\"";
    let text = String::from_utf8_lossy(&output(&env, &repo, &["status"]).stdout).into_owned();
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("sign off"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(line.ends_with(offered), "{line}");
    let json: serde_json::Value =
        serde_json::from_slice(&output(&env, &repo, &["status", "--json"]).stdout).unwrap();
    let options = json["next"]["userOptions"].as_array().unwrap();
    assert_eq!(options[0]["command"], offered, "{json:#}");
    let hint = refusal_hint(&output(
        &env,
        &repo,
        &["start", "--request", "Add user export"],
    ));
    let command = named(&hint, "git standards signoff");
    assert_eq!(command, offered, "{hint}");
    // The agent alone is refused; the person speaks through the client's hook.
    assert_eq!(run_hinted(&env, &repo, &command).status.code(), Some(1));
    env.run_stdin(
        &repo,
        &["hook", "prompt-submit", "--client", "claude"],
        &serde_json::json!({"session_id": "s1", "cwd": repo, "hook_event_name": "UserPromptSubmit", "prompt": "Yes, sign it off."}).to_string(),
    )
    .success();
    assert_eq!(
        run_hinted(&env, &repo, "git standards signoff")
            .status
            .code(),
        Some(1),
        "without the reply"
    );
    run_ok(&env, &repo, &command, &hint);
    assert_eq!(state_field(&repo, "WorkflowState"), "SIGNED_OFF");
}

/// The demo's sentences name commands: refused inside a git hook's
/// environment it names `git standards demo`, which runs outside it; the tour
/// runs the cycle "from `git standards start` to `git standards signoff`" and
/// `git standards log`; a kept demo names `git standards -C <dir> status`, and
/// `git standards status --ref <branch>` reads a branch there.
fn demo_tour() {
    let (env, repo) = committed();
    let kept = env.dir.path().join("kept-demo");
    let refused = env
        .cmd(&repo)
        .args(["demo", "--keep"])
        .arg(env.dir.path().join("refused-demo"))
        .env("GIT_DIR", repo.join(".git"))
        .output()
        .unwrap();
    let hint = refusal_hint(&refused);
    let command = named(&hint, "git standards demo");
    assert_eq!(command, "git standards demo", "{hint}");
    let out = run_ok(
        &env,
        &repo,
        &format!("{command} --keep {}", kept.display()),
        &hint,
    );
    let tour = String::from_utf8_lossy(&out.stdout).into_owned();
    let intro = tour
        .lines()
        .find(|l| l.starts_with("A whole greenfield cycle follows"))
        .unwrap_or_else(|| panic!("{tour}"));
    assert_eq!(
        commands_in(intro),
        ["git standards start", "git standards signoff"],
        "{intro}"
    );
    for ran in [
        "$ git standards start --request",
        "$ git standards signoff\n",
        "$ git standards log\n",
    ] {
        assert!(tour.contains(ran), "{ran:?} in {tour}");
    }
    let last = tour.lines().last().unwrap();
    let status = named(last, "git standards -C");
    run_ok(&env, &repo, &status, last);
    let by_ref = tour
        .lines()
        .find(|l| l.contains("git standards status --ref <branch>"))
        .unwrap();
    let out = run_ok(&env, &kept, "git standards status --ref main", by_ref);
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("Workflow state"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    run_ok(&env, &kept, "git standards log", &tour);
}

/// Without archives, `archive list` names the commands that make one, in
/// the form that runs without a terminal; an unknown archive's refusal names
/// `archive list`, and an unknown file's names `archive show <name>`.
fn archives_listed() {
    let (env, repo) = committed();
    let out = output(&env, &repo, &["archive", "list"]);
    assert!(out.status.success());
    let said = String::from_utf8_lossy(&out.stderr).into_owned();
    let makers = commands_in(&said);
    assert_eq!(
        makers,
        ["git standards reset --yes", "git standards uninstall --yes"],
        "{said}"
    );
    // A cycle's state for the reset to archive.
    env.run(&repo, &["start", "--request", "First"]).success();
    env.commit_all(&repo, "a cycle");
    run_ok(&env, &repo, &makers[0], &said);
    let hint = refusal_hint(&output(&env, &repo, &["archive", "show", "nosuch"]));
    let listed = run_ok(
        &env,
        &repo,
        &named(&hint, "git standards archive list"),
        &hint,
    );
    let listed = String::from_utf8_lossy(&listed.stdout).into_owned();
    let name = listed.split('\t').next().unwrap().to_string();
    assert!(!name.is_empty(), "{listed}");
    let hint = refusal_hint(&output(
        &env,
        &repo,
        &["archive", "show", &name, "no-such-file.md"],
    ));
    let show = named(&hint, "git standards archive show");
    assert_eq!(show, format!("git standards archive show {name}"), "{hint}");
    let files = run_ok(&env, &repo, &show, &hint);
    assert!(
        String::from_utf8_lossy(&files.stdout).contains("STATE.md"),
        "{}",
        String::from_utf8_lossy(&files.stdout)
    );
    env.commit_all(&repo, "reset");
    run_ok(&env, &repo, &makers[1], &said);
    let listed = run_ok(&env, &repo, "git standards archive list", &said);
    assert_eq!(String::from_utf8_lossy(&listed.stdout).lines().count(), 2);
}

/// At `AWAITING_USER_SIGNOFF` a correction is the user's rework: the bare
/// `rework` of the handoff's hint and the template of the failure's hint.
fn rework_at_signoff() {
    let (env, repo) = base("f-ir");
    let hint = refusal_hint(&output(
        &env,
        &repo,
        &["handoff", "--to", "SIGNED_OFF", "--reason", "Done."],
    ));
    let rework = named(&hint, "git standards rework");
    assert_eq!(rework, "git standards rework", "{hint}");
    run_ok(
        &env,
        &repo,
        &format!("{rework} --type SCOPING --request \"Add user search by name\""),
        &hint,
    );
    assert_eq!(state_field(&repo, "WorkflowState"), "SCOPING");
    let (env, repo) = base("f-ir");
    let hint = refusal_hint(&output(
        &env,
        &repo,
        &[
            "fail",
            "--type",
            "SCOPING",
            "--reason",
            "Search is case-blind.",
        ],
    ));
    let rework = named(&hint, "git standards rework")
        .replace("<FailureType>", "SCOPING")
        .replace("<request>", "Add case-sensitive user search");
    run_ok(&env, &repo, &rework, &hint);
    assert_eq!(
        state_field(&repo, "Request"),
        "Add case-sensitive user search"
    );
    assert_eq!(state_field(&repo, "WorkflowState"), "SCOPING");
}

/// A handoff to the state it leaves and one past the route's next state:
/// a defect owned by another role goes through `fail`.
fn misdirected_handoff() {
    for to in ["TESTING", "DOCUMENTING"] {
        let (env, repo) = f_std_in("TESTING");
        let hint = refusal_hint(&output(
            &env,
            &repo,
            &["handoff", "--to", to, "--reason", "x"],
        ));
        let fail = named(&hint, "git standards fail");
        let command = if to == "TESTING" {
            assert_eq!(fail, "git standards fail", "{hint}");
            format!("{fail} --type ARCHITECTURE --reason \"Retry is not designed.\"")
        } else {
            fail.replace("<FailureType>", "ARCHITECTURE")
                .replace("<text>", "Retry is not designed.")
        };
        run_ok(&env, &repo, &command, &hint);
        assert_eq!(state_field(&repo, "WorkflowState"), "ARCHITECTING");
        assert_eq!(state_field(&repo, "FailureType"), "ARCHITECTURE");
    }
}

/// A handoff from a state off the cycle's route: `status` shows the cycle
/// mode and policy the route follows.
fn handoff_off_the_route() {
    let p = crate::fixture::Project::brown();
    p.start_cycle("DOCUMENTING", "STANDARD", "IMPLEMENTATION_REVIEWED");
    p.commit("the cycle");
    let hint = refusal_hint(&output(
        &p.env,
        &p.root,
        &["handoff", "--to", "REVIEWING_FINAL", "--reason", "x"],
    ));
    let status = named(&hint, "git standards status");
    let out = run_ok(&p.env, &p.root, &status, &hint);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Cycle mode"), "{text}");
    assert!(text.contains("STANDARD"), "{text}");
    assert!(text.contains("IMPLEMENTATION_REVIEWED"), "{text}");
}

/// Sign-off with an outstanding obligation: `status` lists it; once its
/// owner removed it, the sign-off goes through.
fn signoff_with_obligations() {
    let (env, repo) = base("f-ir");
    let state = repo.join(".standards/STATE.md");
    let text = std::fs::read_to_string(&state).unwrap();
    let open = "## Outstanding Obligations\n\n`Active`: `true`\n\n### Obligation 1\n\n`Owner`: `DEVELOPING` `FailureType`: `IMPLEMENTATION`\n`Reason`: `The search ignores accents.`\n";
    let closed = "## Outstanding Obligations\n\n`Active`: `false`\n";
    assert!(text.contains(closed), "{text}");
    write(&state, text.replace(closed, open));
    let hint = refusal_hint(&output(&env, &repo, &["signoff"]));
    let out = run_ok(&env, &repo, &named(&hint, "git standards status"), &hint);
    let listed = String::from_utf8_lossy(&out.stdout);
    assert!(listed.contains("Obligation 1"), "{listed}");
    assert!(listed.contains("The search ignores accents."), "{listed}");
    write(&state, text);
    env.run(&repo, &["signoff"]).success();
}

/// A frame whose owner has not planned the resumption: `resume` closes it,
/// `resume --rerun-through <STATE>` plans the rerun; at the rerun boundary a
/// handoff is refused and `resume` pops the frame.
fn unplanned_recovery() {
    let fail = [
        "fail",
        "--type",
        "ARCHITECTURE",
        "--reason",
        "Retry behavior is not defined by the current technical design.",
    ];
    let handoff = ["handoff", "--to", "DEVELOPING", "--reason", "Designed."];
    let (env, repo) = f_std_in("TESTING");
    env.run(&repo, &fail).success();
    let hint = refusal_hint(&output(&env, &repo, &handoff));
    let resume = named(&hint, "git standards resume");
    assert_eq!(resume, "git standards resume", "{hint}");
    run_ok(&env, &repo, &resume, &hint);
    assert_eq!(state_field(&repo, "WorkflowState"), "TESTING");
    assert_eq!(state_field(&repo, "Active"), "false");

    let (env, repo) = f_std_in("TESTING");
    env.run(&repo, &fail).success();
    let hint = refusal_hint(&output(&env, &repo, &handoff));
    let plan = commands_in(&hint)
        .into_iter()
        .find(|c| c.starts_with("git standards resume --rerun-through "))
        .unwrap_or_else(|| panic!("{hint}"))
        .replace("<STATE>", "DEVELOPING");
    run_ok(&env, &repo, &plan, &hint);
    assert_eq!(state_field(&repo, "WorkflowState"), "DEVELOPING");
    assert_eq!(state_field(&repo, "RerunThrough"), "DEVELOPING");
    // DEVELOPING is the boundary: `resume`, not a handoff.
    let hint = refusal_hint(&output(
        &env,
        &repo,
        &["handoff", "--to", "TESTING", "--reason", "Rerun done."],
    ));
    let resume = named(&hint, "git standards resume");
    assert_eq!(resume, "git standards resume", "{hint}");
    run_ok(&env, &repo, &resume, &hint);
    assert_eq!(state_field(&repo, "WorkflowState"), "TESTING");
    assert_eq!(state_field(&repo, "Active"), "false");
}

/// The F-STD cycle after a design defect found in TESTING, the rerun planned
/// through TESTING: the workflow is in DEVELOPING.
fn rerun_through_testing() -> (Env, PathBuf) {
    let (env, repo) = f_std_in("TESTING");
    env.run(
        &repo,
        &[
            "fail",
            "--type",
            "ARCHITECTURE",
            "--reason",
            "Retry behavior is not defined by the current technical design.",
        ],
    )
    .success();
    env.run(&repo, &["resume", "--rerun-through", "TESTING"])
        .success();
    assert_eq!(state_field(&repo, "WorkflowState"), "DEVELOPING");
    (env, repo)
}

/// A checkpoint during recovery names the one move that continues it: at
/// the frame's owner and at the rerun boundary `resume`, inside the rerun
/// the handoff to the next rerun state.
fn checkpoint_during_recovery() {
    let checkpoint = |to| {
        [
            "handoff",
            "--checkpoint",
            "--to",
            to,
            "--reason",
            "Increment 1 is ready for assessment.",
        ]
    };
    let only = |hint: &str, prefix: &str| {
        let commands = commands_in(hint);
        assert_eq!(commands.len(), 1, "{hint}");
        named(hint, prefix)
    };
    // At the owner, nothing planned yet.
    let (env, repo) = f_std_in("TESTING");
    env.run(
        &repo,
        &[
            "fail",
            "--type",
            "ARCHITECTURE",
            "--reason",
            "Retry is not designed.",
        ],
    )
    .success();
    let hint = refusal_hint(&output(&env, &repo, &checkpoint("DEVELOPING")));
    let resume = only(&hint, "git standards resume");
    run_ok(&env, &repo, &resume, &hint);
    assert_eq!(state_field(&repo, "WorkflowState"), "TESTING");
    assert_eq!(state_field(&repo, "Active"), "false");
    // Inside the rerun.
    let (env, repo) = rerun_through_testing();
    let hint = refusal_hint(&output(&env, &repo, &checkpoint("TESTING")));
    let handoff = only(&hint, "git standards handoff")
        .replace("<next rerun state>", "TESTING")
        .replace("<text>", "Rerun done.");
    run_ok(&env, &repo, &handoff, &hint);
    assert_eq!(state_field(&repo, "WorkflowState"), "TESTING");
    // At the boundary.
    let hint = refusal_hint(&output(&env, &repo, &checkpoint("DEVELOPING")));
    let resume = only(&hint, "git standards resume");
    assert_eq!(resume, "git standards resume", "{hint}");
    run_ok(&env, &repo, &resume, &hint);
    assert_eq!(state_field(&repo, "Active"), "false");
}

/// `resume` in the rerun before its boundary: the handoff to the next rerun
/// state continues it, and at the boundary `resume` pops the frame.
fn rerun_not_at_boundary() {
    let (env, repo) = rerun_through_testing();
    let hint = refusal_hint(&output(&env, &repo, &["resume"]));
    let handoff = named(&hint, "git standards handoff")
        .replace("<next rerun state>", "TESTING")
        .replace("<text>", "Rerun done.");
    run_ok(&env, &repo, &handoff, &hint);
    assert_eq!(state_field(&repo, "WorkflowState"), "TESTING");
    env.run(&repo, &["resume"]).success();
    assert_eq!(state_field(&repo, "Active"), "false");
}

/// `resume` without a recovery frame: a normal handoff.
fn resume_without_a_frame() {
    let (env, repo) = f_std_in("TESTING");
    let hint = refusal_hint(&output(&env, &repo, &["resume"]));
    let handoff = named(&hint, "git standards handoff")
        .replace("<STATE>", "REVIEWING_IMPLEMENTATION")
        .replace("<text>", "Full verification passed.");
    run_ok(&env, &repo, &handoff, &hint);
    assert_eq!(
        state_field(&repo, "WorkflowState"),
        "REVIEWING_IMPLEMENTATION"
    );
}

/// A checkpoint while the plan verifies after implementation: the user's
/// switch is recorded for the Developer, who applies it to the plan; then
/// the checkpoint is no longer refused for the cadence, only for the plan's
/// increments the Developer has yet to write.
fn checkpoint_without_incremental() {
    let (env, repo) = f_std_in("DEVELOPING");
    let args = [
        "handoff",
        "--checkpoint",
        "--to",
        "TESTING",
        "--reason",
        "Increment 1 is ready for assessment.",
    ];
    let hint = refusal_hint(&output(&env, &repo, &args));
    let command = named(&hint, "git standards cadence");
    assert_eq!(command, "git standards cadence incremental");
    run_ok(&env, &repo, &command, &hint);
    assert_eq!(
        state_field(&repo, "PendingVerificationCadence"),
        "INCREMENTAL"
    );
    // The Developer applies it at the next safe point.
    let plan =
        repo.join(".standards/docs/development/add-user-search-20260927T190146Z-7bef0f04.md");
    let text = std::fs::read_to_string(&plan).unwrap();
    write(
        &plan,
        crate::common::set_field(&text, "Verification Cadence", "INCREMENTAL"),
    );
    let out = output(&env, &repo, &args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !err.contains("needs the effective cadence INCREMENTAL"),
        "{err}"
    );
    // What is left is the Developer's: the plan's increments (DV-021).
    assert!(err.contains("[DV-021]"), "{err}");
}

/// In an expedited cycle a scoping defect and a scoping rework have no owner:
/// the promotion the hints name brings the standard route back.
fn expedited_without_an_owner() {
    // (A user's rework that needs the Scoper promotes the cycle itself,
    // issue 23; `gates::an_expedited_cycle_is_promoted_where_the_protocol_promotes_it`.)
    let moves: [&[&str]; 1] = [&[
        "fail",
        "--type",
        "SCOPING",
        "--reason",
        "The timeout is unspecified.",
    ]];
    for args in moves {
        let (env, repo) = started("EXPEDITED");
        let hint = refusal_hint(&output(&env, &repo, args));
        let promote = named(&hint, "git standards promote").replace(
            "<the standard guarantee now needed>",
            "The timeout needs a scoped acceptance criterion.",
        );
        run_ok(&env, &repo, &promote, &hint);
        assert_eq!(state_field(&repo, "CycleMode"), "STANDARD");
        assert_eq!(
            state_field(&repo, "PromotionReason"),
            "The timeout needs a scoped acceptance criterion."
        );
        let out = output(&env, &repo, args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("the expedited path skips"), "{args:?}: {err}");
    }
}

/// In a documentation cycle an implementation defect has no owner: the
/// user decides, asked with `block`.
fn documentation_without_an_owner() {
    let (env, repo) = started("DOCUMENTATION");
    let hint = refusal_hint(&output(
        &env,
        &repo,
        &[
            "fail",
            "--type",
            "IMPLEMENTATION",
            "--reason",
            "The retry is broken.",
        ],
    ));
    let block = named(&hint, "git standards block")
        .replace("<question>", "Should a standard cycle fix the retry?");
    run_ok(&env, &repo, &block, &hint);
    assert_eq!(
        state_field(&repo, "BlockedOn"),
        "Should a standard cycle fix the retry?"
    );
}

/// A policy without a cycle: `start` takes it.
fn policy_without_a_cycle() {
    let (env, repo) = committed();
    let hint = refusal_hint(&output(&env, &repo, &["policy", "implementation-reviewed"]));
    let start = named(&hint, "git standards start")
        .replace("<request>", "Add user search")
        .replace("<policy>", "implementation-reviewed");
    run_ok(&env, &repo, &start, &hint);
    assert_eq!(
        state_field(&repo, "CompletionPolicy"),
        "IMPLEMENTATION_REVIEWED"
    );
}

/// A policy in an expedited cycle: after the promotion the policy changes.
fn policy_in_expedited() {
    let (env, repo) = started("EXPEDITED");
    let hint = refusal_hint(&output(&env, &repo, &["policy", "full-deliverable"]));
    let promote = named(&hint, "git standards promote")
        .replace("<reason>", "The user wants the full deliverable.");
    run_ok(&env, &repo, &promote, &hint);
    assert_eq!(state_field(&repo, "CompletionPolicy"), "FULL_DELIVERABLE");
    env.run(&repo, &["policy", "implementation-reviewed"])
        .success();
    assert_eq!(
        state_field(&repo, "CompletionPolicy"),
        "IMPLEMENTATION_REVIEWED"
    );
}

/// A next-cycle mode during an expedited cycle: `cancel` ends it, then the
/// mode is saved; an expedited cycle needing more is promoted.
fn next_mode_during_expedited() {
    let args = ["next-mode", "documentation"];
    let (env, repo) = started("EXPEDITED");
    let hint = refusal_hint(&output(&env, &repo, &args));
    let promote = named(&hint, "git standards promote")
        .replace("<why>", "The timeout needs the standard guarantees.");
    run_ok(&env, &repo, &promote, &hint);
    assert_eq!(state_field(&repo, "CycleMode"), "STANDARD");
    let (env, repo) = started("EXPEDITED");
    let hint = refusal_hint(&output(&env, &repo, &args));
    run_ok(&env, &repo, &named(&hint, "git standards cancel"), &hint);
    env.run(&repo, &args).success();
    assert_eq!(state_field(&repo, "PendingCycleMode"), "DOCUMENTATION");
}

/// A greenfield project accepts only STANDARD as the next mode.
fn greenfield_next_mode() {
    let (env, repo) = Env::repo();
    env.run(&repo, &["install"]).success();
    env.commit_all(&repo, "install");
    let hint = refusal_hint(&output(&env, &repo, &["next-mode", "expedited"]));
    run_ok(&env, &repo, &named(&hint, "git standards next-mode"), &hint);
    assert_eq!(state_field(&repo, "PendingCycleMode"), "STANDARD");
}

/// The pure `cancel` refuses a greenfield cycle, naming the reset preview.
/// The binary never prints it (`cancel` runs that reset itself in a
/// greenfield project), so the refusal is taken from the library on the real
/// project's STATE.md, and its command runs through the binary there.
fn greenfield_cancel_by_reset() {
    use standards_core::model::{state::StateDoc, vocab::ProjectMode};
    use standards_core::workflow::{moves, transition};
    let (env, repo) = Env::repo();
    env.run(&repo, &["install"]).success();
    env.commit_all(&repo, "install");
    env.run(&repo, &["start", "--request", "Build the greeting app"])
        .success();
    let text = std::fs::read_to_string(repo.join(".standards/STATE.md")).unwrap();
    let doc = StateDoc::parse(&text).unwrap();
    let refusal = moves::signoff::cancel(&doc, &transition::Facts::new(ProjectMode::Greenfield))
        .expect_err("a greenfield cycle is not cancelled in place");
    let hint = refusal.hint.unwrap();
    let preview = named(&hint, "git standards reset");
    assert_eq!(preview, "git standards reset --mode greenfield --dry-run");
    run_ok(&env, &repo, &preview, &hint);
    assert_eq!(
        std::fs::read_to_string(repo.join(".standards/STATE.md")).unwrap(),
        text,
        "a preview changes nothing"
    );
    // Issue 25, item 6: the run itself is named in the form that works
    // without a terminal.
    let commands = commands_in(&hint);
    assert_eq!(
        commands,
        [
            "git standards reset --mode greenfield --dry-run",
            "git standards reset --mode greenfield --yes"
        ],
        "{hint}"
    );
    run_ok(&env, &repo, &commands[1], &hint);
    assert_eq!(state_field(&repo, "Id"), "UNSET");
}

/// `begin` takes only a new generated ID, which `cycle new` prints. The
/// binary's `start` always generates one, so the refusal is taken from the
/// library on the real project's STATE.md.
fn start_with_a_made_up_id() {
    use standards_core::model::{state::StateDoc, vocab::ProjectMode};
    use standards_core::workflow::moves::start;
    use standards_core::workflow::transition;
    let (env, repo) = committed();
    let text = std::fs::read_to_string(repo.join(".standards/STATE.md")).unwrap();
    let doc = StateDoc::parse(&text).unwrap();
    let facts = transition::Facts::new(ProjectMode::Brownfield);
    let request = start::StartRequest {
        request: Some("Add user search".into()),
        ..Default::default()
    };
    let start::StartPlan::Ready(begin) = start::plan_start(&doc, &facts, &request).unwrap() else {
        panic!("the start is not blocked")
    };
    let refusal = start::begin(&doc, &begin, "my-cycle").unwrap_err();
    let command = named(&refusal.message, "git standards cycle new");
    assert_eq!(command, "git standards cycle new");
    let out = run_ok(
        &env,
        &repo,
        &format!("{command} --request \"Add user search\""),
        &refusal.message,
    );
    let id = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let t = start::begin(&doc, &begin, &id).unwrap();
    assert_eq!(t.doc.active_work.id.value, id);
}

/// A move while STATE.md names a cycle without a cycle mode (ST-016).
fn cycle_without_mode() {
    let (env, repo) = real_case("ST-016-active-cycle-without-mode");
    let hint = refusal_hint(&output(
        &env,
        &repo,
        &["block", "--on", "Which users may search?"],
    ));
    check_reports(&env, &repo, &hint, &["ST-016"]);
}

/// `resume` of a frame without a `ResumeAt` (RC-003).
fn frame_without_resume_at() {
    let (env, repo) = real_case("RC-003-frame-without-resume-at");
    let err = refusal_text(&output(&env, &repo, &["resume"]));
    assert!(err.contains("no valid `ResumeAt`"), "{err}");
    check_reports(&env, &repo, &err, &["RC-003"]);
}

// ---------------------------------------------------------------------------
// Merge-conflict resolution (src/commands/resolve.rs, src/repo/conflicts.rs).

/// Runs a hinted git command with an editor that accepts the prepared
/// message, as the user's would when they save it.
fn run_ok_with_editor(env: &Env, dir: &Path, command: &str, hint: &str) {
    let bin = Env::bin();
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = env
        .sealed("sh", dir)
        .args(["-c", command])
        .env("PATH", path)
        .env("GIT_EDITOR", "true")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("sh runs");
    assert!(
        out.status.success(),
        "the hinted `{command}` failed (hint: {hint}):\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Whether the project still holds a `.standards/` conflict.
fn has_conflict(env: &Env, repo: &Path) -> bool {
    let st = problems(env, repo, &[]);
    st.iter().any(|(r, _, _)| r == "RT-003")
}

/// STATE.md in conflict, and beside it `.standards/docs/notes.md` too.
fn conflicted_with_notes() -> (Env, PathBuf) {
    let p = crate::fixture::Project::brown();
    p.write(".standards/docs/notes.md", "base\n");
    p.commit("install");
    p.env.git(&p.root, &["checkout", "-q", "-b", "other"]);
    p.start_cycle_for("Their request", "AUDITING", "STANDARD", "FULL_DELIVERABLE");
    p.write(".standards/docs/notes.md", "theirs\n");
    p.commit("theirs");
    p.env.git(&p.root, &["checkout", "-q", "main"]);
    p.start_cycle_for("Our request", "AUDITING", "STANDARD", "FULL_DELIVERABLE");
    p.write(".standards/docs/notes.md", "ours\n");
    p.commit("ours");
    let out = p.env.git_status(&p.root, &["merge", "-q", "other"]);
    assert!(!out.status.success(), "the merge conflicts");
    (p.env, p.root)
}

/// `resolve` while another `.standards/` file is in conflict: that file is
/// resolved and `git add`ed, then `resolve` again goes through.
fn resolve_with_other_conflicts() {
    let (env, repo) = conflicted_with_notes();
    let keep = ["resolve", "--keep", "ours", "--yes"];
    let hint = refusal_hint(&output(&env, &repo, &keep));
    let add = named(&hint, "git add");
    assert_eq!(add, "git add", "{hint}");
    write(repo.join(".standards/docs/notes.md"), "ours and theirs\n");
    run_ok(&env, &repo, "git add .standards/docs/notes.md", &hint);
    let again = named(&hint, "git standards resolve");
    run_ok(&env, &repo, &format!("{again} --keep ours --yes"), &hint);
    assert!(!has_conflict(&env, &repo));
    assert_eq!(state_field(&repo, "Request"), "Our request");
}

/// `resolve` without a STATE.md conflict: `status` shows the workflow.
fn resolve_without_a_conflict() {
    let (env, repo) = committed();
    let hint = refusal_hint(&output(
        &env,
        &repo,
        &["resolve", "--keep", "ours", "--yes"],
    ));
    let status = named(&hint, "git standards status");
    let out = run_ok(&env, &repo, &status, &hint);
    assert!(!out.stdout.is_empty());
}

/// STATE.md edited out of its conflict by hand: `git add` takes that
/// resolution; `git checkout -m` brings the conflict back for `resolve`.
fn resolve_over_a_hand_edit() {
    let keep = ["resolve", "--keep", "theirs", "--yes"];
    let edit = |env: &Env, repo: &Path| {
        let ours = env.git(repo, &["show", ":2:.standards/STATE.md"]);
        let text = crate::common::set_field(&ours, "Request", "Our request, merged by hand");
        write(repo.join(".standards/STATE.md"), text);
    };
    let (env, repo) = conflicted();
    edit(&env, &repo);
    let hint = refusal_hint(&output(&env, &repo, &keep));
    run_ok(&env, &repo, &named(&hint, "git add"), &hint);
    assert!(!has_conflict(&env, &repo));
    assert_eq!(state_field(&repo, "Request"), "Our request, merged by hand");

    let (env, repo) = conflicted();
    edit(&env, &repo);
    let hint = refusal_hint(&output(&env, &repo, &keep));
    run_ok(&env, &repo, &named(&hint, "git checkout -m"), &hint);
    env.run(&repo, &keep).success();
    assert!(!has_conflict(&env, &repo));
    assert_eq!(state_field(&repo, "Request"), "Their request");
}

/// A workflow command during a STATE.md conflict: the user's `resolve
/// --keep` choices named by the refusal and the conflict report end it.
fn conflict_refusal_keeps() {
    for keep in ["ours", "theirs"] {
        let (env, repo) = conflicted();
        let args = ["cycle", "new", "--request", "x"];
        let out = output(&env, &repo, &args);
        let err = refusal_text(&out);
        let hint = refusal_hint(&out);
        let command = named(&hint, &format!("git standards resolve --keep {keep}"));
        assert!(err.contains(&format!("`{command}`")), "{err}");
        run_ok(&env, &repo, &format!("{command} --yes"), &hint);
        assert!(!has_conflict(&env, &repo));
        let out = output(&env, &repo, &args);
        assert!(
            !String::from_utf8_lossy(&out.stderr).contains("merge conflicts"),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    // Resolved by hand and `git add`ed.
    let (env, repo) = conflicted();
    let hint = refusal_hint(&output(&env, &repo, &["cycle", "new", "--request", "x"]));
    assert!(hint.contains("`git add`ing them"), "{hint}");
    env.git(&repo, &["checkout", "--theirs", ".standards/STATE.md"]);
    run_ok(&env, &repo, "git add .standards/STATE.md", &hint);
    assert!(!has_conflict(&env, &repo));
}

/// `resolve` while git's index is locked: the kept side is written, and
/// once the lock is gone the hinted `git add` stages it.
fn resolve_with_a_locked_index() {
    let (env, repo) = conflicted();
    let lock = repo.join(".git/index.lock");
    write(&lock, "");
    let hint = refusal_hint(&output(
        &env,
        &repo,
        &["resolve", "--keep", "theirs", "--yes"],
    ));
    std::fs::remove_file(&lock).unwrap();
    let add = named(&hint, "git add");
    assert_eq!(add, "git add .standards/STATE.md", "{hint}");
    run_ok(&env, &repo, &add, &hint);
    assert!(!has_conflict(&env, &repo));
    assert_eq!(state_field(&repo, "Request"), "Their request");
}

/// An operation of `op` ("merge", "rebase", "cherry-pick", "revert", "am")
/// stopped on a conflict in `app.py` while its incoming change starts a
/// cycle: `.standards/` holds no conflict but changes.
fn operation_in_progress(op: &str) -> (Env, PathBuf) {
    let (env, repo) = committed();
    let patch = repo.parent().unwrap().join("theirs.patch");
    let git = |args: &[&str]| env.git(&repo, args);
    let ours = |env: &Env| {
        write(repo.join("app.py"), "print('ours')\n");
        env.commit_all(&repo, "ours");
    };
    if op == "revert" {
        write(repo.join("app.py"), "print('theirs')\n");
        env.run(&repo, &["start", "--request", "Add user search"])
            .success();
        env.commit_all(&repo, "theirs");
        ours(&env);
    } else {
        git(&["checkout", "-q", "-b", "other"]);
        write(repo.join("app.py"), "print('theirs')\n");
        env.run(&repo, &["start", "--request", "Add user search"])
            .success();
        env.commit_all(&repo, "theirs");
        git(&["checkout", "-q", "main"]);
        ours(&env);
    }
    let args: Vec<String> = match op {
        "merge" => vec!["merge".into(), "other".into()],
        "rebase" => {
            git(&["checkout", "-q", "other"]);
            vec!["rebase".into(), "main".into()]
        }
        "cherry-pick" => vec!["cherry-pick".into(), "other".into()],
        "revert" => vec!["revert".into(), "--no-edit".into(), "HEAD~1".into()],
        "am" => {
            let text = git(&["format-patch", "-1", "other", "--stdout"]);
            std::fs::write(&patch, text).unwrap();
            vec!["am".into(), "-3".into(), patch.display().to_string()]
        }
        _ => unreachable!(),
    };
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = env.git_status(&repo, &args);
    assert!(!out.status.success(), "{op} stops on app.py");
    (env, repo)
}

/// A workflow command during an operation that changes `.standards/`: the
/// hint's finishing command and its abort each end the refusal.
fn operation_finish(op: &str, name: &str, finish: &str, abort: &str) {
    let args = ["cycle", "new", "--request", "x"];
    for (i, prefix) in [finish, abort].into_iter().enumerate() {
        let (env, repo) = operation_in_progress(op);
        let out = output(&env, &repo, &args);
        let err = refusal_text(&out);
        assert!(err.contains(&format!("{name} that changes")), "{err}");
        let hint = refusal_hint(&out);
        let command = named(&hint, prefix);
        assert_eq!(command, prefix, "{hint}");
        if i == 0 {
            // The user settles app.py first.
            env.git(&repo, &["checkout", "--theirs", "app.py"]);
            env.git(&repo, &["add", "app.py"]);
        }
        run_ok_with_editor(&env, &repo, &command, &hint);
        let out = output(&env, &repo, &args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("is in progress"), "after `{command}`: {err}");
    }
}

fn merge_in_progress() {
    operation_finish("merge", "a merge", "git commit", "git merge --abort");
}

fn rebase_in_progress() {
    operation_finish(
        "rebase",
        "a rebase",
        "git rebase --continue",
        "git rebase --abort",
    );
}

fn cherry_pick_in_progress() {
    operation_finish(
        "cherry-pick",
        "a cherry-pick",
        "git cherry-pick --continue",
        "git cherry-pick --abort",
    );
}

fn revert_in_progress() {
    operation_finish(
        "revert",
        "a revert",
        "git revert --continue",
        "git revert --abort",
    );
}

/// `git am` names the operation in progress; its `--continue` and
/// `--abort` end it.
fn am_in_progress() {
    operation_finish("am", "`git am`", "git am --continue", "git am --abort");
}

// ---------------------------------------------------------------------------
// The merge guard (crates/standards-core/src/setup/merge_guard.rs).

/// `feature` holds the f-ir cycle awaiting the user's sign-off: the guard
/// refuses its merge into `main`; after the user's `signoff` or `cancel`
/// and the hinted reset on `feature`, the merge may go ahead.
fn merge_of_an_active_cycle() {
    // At the top of the repository, and in a project folder (`-C app`).
    for dir in ["", "app"] {
        let dash_c = if dir.is_empty() {
            String::new()
        } else {
            format!(" -C {dir}")
        };
        for action in ["signoff --reply", "cancel"] {
            let action = format!("git standards{dash_c} {action}");
            let (env, repo) = Env::repo();
            let project = repo.join(dir);
            // An existing `.standards/` folder makes `app/` the project.
            std::fs::create_dir_all(project.join(".standards")).unwrap();
            write(project.join("app.py"), "print('hi')\n");
            env.run(&project, &["install"]).success();
            env.commit_all(&repo, "install");
            env.git(&repo, &["checkout", "-q", "-b", "feature"]);
            let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/check/bases/f-ir");
            crate::transitions::copy_dir(&from, &project);
            env.commit_all(&repo, "f-ir");
            env.git(&repo, &["checkout", "-q", "main"]);
            let guard = ["merge-guard", "feature", "--into", "main"];
            let hint = refusal_hint(&output(&env, &repo, &guard));
            let command = named(&hint, &action);
            if action.ends_with("cancel") {
                assert_eq!(command, action, "{hint}");
            } else {
                assert_eq!(
                    command,
                    format!("{action} \"<the user's reply>\""),
                    "{hint}"
                );
            }
            env.git(&repo, &["checkout", "-q", "feature"]);
            run_ok(&env, &repo, &command, &hint);
            env.commit_all(&repo, &action);
            env.git(&repo, &["checkout", "-q", "main"]);
            let hint = refusal_hint(&output(&env, &repo, &guard));
            assert!(!hint.contains(&action), "{hint}");
            let reset = named(&hint, &format!("git standards{dash_c} reset"));
            // Issue 25, item 6: the form that runs without a terminal.
            assert_eq!(
                reset,
                format!("git standards{dash_c} reset --yes --commit"),
                "{hint}"
            );
            env.git(&repo, &["checkout", "-q", "feature"]);
            run_ok(&env, &repo, &reset, &hint);
            env.git(&repo, &["checkout", "-q", "main"]);
            env.run(&repo, &guard).success();
        }
    }
}

/// MG-001 (issue 22): in a clone without the STATE.md merge driver, git
/// line-merges two branches' STATE.md; `check --staged` names the way out:
/// abort, register the driver, merge again, and keep one whole side.
fn line_merged_state() {
    for keep in ["ours", "theirs"] {
        let (env, repo) = installed();
        env.commit_all(&repo, "install");
        let state = std::fs::read_to_string(repo.join(".standards/STATE.md")).unwrap();
        env.git(&repo, &["checkout", "-q", "-b", "side"]);
        write(
            repo.join(".standards/STATE.md"),
            state.replacen('\n', "\n<!-- side -->\n", 1),
        );
        env.commit_all(&repo, "side");
        env.git(&repo, &["checkout", "-q", "main"]);
        write(
            repo.join(".standards/STATE.md"),
            format!("{state}<!-- main -->\n"),
        );
        env.commit_all(&repo, "main");
        write(
            repo.join(".gitattributes"),
            ".standards/STATE.md merge=standards\n",
        );
        env.commit_all(&repo, "attributes, without the driver");
        env.git(&repo, &["merge", "-q", "--no-commit", "side"]);
        let found = problems(&env, &repo, &["--staged"]);
        let (_, _, hint) = found
            .iter()
            .find(|(rule, _, _)| rule == "MG-001")
            .unwrap_or_else(|| panic!("{found:?}"))
            .clone();
        let commands = commands_in(&hint);
        assert_eq!(
            commands,
            [
                "git merge --abort",
                "git standards hooks install",
                "git standards resolve --keep ours",
                "git standards resolve --keep theirs"
            ],
            "{hint}"
        );
        run_ok(&env, &repo, &commands[0], &hint);
        run_ok(&env, &repo, &commands[1], &hint);
        // Merge again: now STATE.md conflicts, and `resolve` keeps one side.
        let merge = env.git_status(&repo, &["merge", "-q", "side"]);
        assert!(!merge.status.success(), "the driver makes it a conflict");
        let resolve = named(&hint, &format!("git standards resolve --keep {keep}"));
        run_ok(&env, &repo, &format!("{resolve} --yes"), &hint);
        let kept = env.git(
            &repo,
            &[
                "show",
                &format!(
                    "{}:.standards/STATE.md",
                    if keep == "ours" { "main" } else { "side" }
                ),
            ],
        );
        assert_eq!(
            std::fs::read_to_string(repo.join(".standards/STATE.md")).unwrap(),
            kept
        );
    }
}

// ---------------------------------------------------------------------------
// `reset` (src/commands/reset.rs).

/// A committed brownfield project with a cycle started: something to reset.
fn with_a_cycle() -> (Env, PathBuf) {
    let (env, repo) = started("STANDARD");
    env.commit_all(&repo, "the cycle");
    (env, repo)
}

/// `reset` outside a terminal: the hinted preview changes nothing, the
/// hinted confirmed command resets.
fn reset_without_confirmation() {
    let (env, repo) = with_a_cycle();
    let before = files_of(&repo.join(".standards"));
    let hint = refusal_hint(&output(&env, &repo, &["reset"]));
    let preview = named(&hint, "git standards reset --dry-run");
    assert_eq!(preview, "git standards reset --dry-run", "{hint}");
    run_ok(&env, &repo, &preview, &hint);
    assert_eq!(files_of(&repo.join(".standards")), before);
    let run = commands_in(&hint).pop().unwrap();
    assert_eq!(run, "git standards reset --mode brownfield --yes", "{hint}");
    run_ok(&env, &repo, &run, &hint);
    assert_eq!(state_field(&repo, "Id"), "UNSET");
}

/// `reset --commit` with another file staged: unstaged, the reset commits.
fn reset_commit_with_other_changes() {
    let (env, repo) = with_a_cycle();
    write(repo.join("app.py"), "print('staged')\n");
    env.git(&repo, &["add", "app.py"]);
    let args = ["reset", "--commit", "--yes"];
    let hint = refusal_hint(&output(&env, &repo, &args));
    let restore = named(&hint, "git restore --staged").replace("<path>", "app.py");
    run_ok(&env, &repo, &restore, &hint);
    env.run(&repo, &args).success();
    let message = env.git(&repo, &["log", "-1", "--format=%B"]);
    assert!(message.contains("Standards-Reset:"), "{message}");
    assert_eq!(env.git(&repo, &["diff", "--cached", "--name-only"]), "");
}

/// A reset archives the previous `.standards/`: the named `archive show`
/// reads it back.
fn reset_archive() {
    let (env, repo) = with_a_cycle();
    let a = env.run(&repo, &["reset", "--yes"]).success();
    archive_line_reads_back(&env, &repo, &a.get_output().stderr);
}

/// The `Archived …` line of a command's `stderr` names an `archive show`
/// that lists the archived STATE.md.
fn archive_line_reads_back(env: &Env, repo: &Path, stderr: &[u8]) {
    let err = String::from_utf8_lossy(stderr).into_owned();
    let line = err
        .lines()
        .find(|l| l.starts_with("Archived"))
        .unwrap_or_else(|| panic!("{err}"));
    let show = named(line, "git standards archive show");
    let out = run_ok(env, repo, &show, line);
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("STATE.md"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// The refusals that end in "then run `git standards reset` again": an
/// older runtime (upgraded by the hinted `install`), a Node.js installer
/// transaction left behind (deleted), conflicts under `.standards/`
/// (resolved). The runtimes of another major version or a newer one name
/// another git-standards binary, which a test cannot run.
fn reset_again() {
    // An older runtime.
    let (env, repo) = with_a_cycle();
    let version = repo.join(".standards/VERSION.json");
    let text = std::fs::read_to_string(&version).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let current = v["version"].as_str().unwrap().to_string();
    let (major, _) = current.split_once('.').unwrap();
    write(&version, text.replace(&current, &format!("{major}.0.0")));
    assert_ne!(current, format!("{major}.0.0"), "the binary is newer");
    let hint = refusal_hint(&output(&env, &repo, &["reset", "--yes"]));
    run_ok(&env, &repo, &named(&hint, "git standards install"), &hint);
    let again = named(&hint, "git standards reset");
    assert_eq!(again, "git standards reset", "{hint}");
    run_ok(&env, &repo, &format!("{again} --yes"), &hint);
    assert_eq!(state_field(&repo, "Id"), "UNSET");
    // A Node.js installer's transaction.
    let (env, repo) = with_a_cycle();
    let left = repo.join(".standards-reset-1234");
    std::fs::create_dir(&left).unwrap();
    write(left.join("operations.json"), "[]\n");
    let hint = refusal_hint(&output(&env, &repo, &["reset", "--yes"]));
    std::fs::remove_dir_all(&left).unwrap();
    let again = named(&hint, "git standards reset");
    run_ok(&env, &repo, &format!("{again} --yes"), &hint);
    assert_eq!(state_field(&repo, "Id"), "UNSET");
    // The same transaction stops `uninstall`, which shares the check.
    let (env, repo) = with_a_cycle();
    let left = repo.join(".standards-uninstall-1234");
    std::fs::create_dir(&left).unwrap();
    let hint = refusal_hint(&output(&env, &repo, &["uninstall", "--yes"]));
    std::fs::remove_dir_all(&left).unwrap();
    let again = named(&hint, "git standards uninstall");
    assert_eq!(again, "git standards uninstall", "{hint}");
    run_ok(&env, &repo, &format!("{again} --yes"), &hint);
    assert!(uninstalled(&repo));
    // Conflicts, seen by the preview.
    let (env, repo) = conflicted();
    let hint = refusal_hint(&output(&env, &repo, &["reset", "--dry-run"]));
    env.git(&repo, &["checkout", "--ours", ".standards/STATE.md"]);
    env.git(&repo, &["add", ".standards/STATE.md"]);
    let again = named(&hint, "git standards reset");
    run_ok(&env, &repo, &format!("{again} --dry-run"), &hint);
}

// ---------------------------------------------------------------------------
// `uninstall` (src/commands/uninstall.rs).

/// Whether anything of the installation is left in the working tree.
fn uninstalled(repo: &Path) -> bool {
    !repo.join(".standards").exists()
}

/// `uninstall` outside a terminal: the preview changes nothing, the
/// confirmed command uninstalls and its archive line reads back.
fn uninstall_without_confirmation() {
    let (env, repo) = with_a_cycle();
    let before = files_of(&repo);
    let hint = refusal_hint(&output(&env, &repo, &["uninstall"]));
    let preview = named(&hint, "git standards uninstall --dry-run");
    run_ok(&env, &repo, &preview, &hint);
    assert_eq!(files_of(&repo), before);
    let run = named(&hint, "git standards uninstall --yes");
    assert_eq!(run, "git standards uninstall --yes", "{hint}");
    let out = run_ok(&env, &repo, &run, &hint);
    assert!(uninstalled(&repo));
    archive_line_reads_back(&env, &repo, &out.stderr);
}

/// `uninstall` with INSTALLATION.json deleted, and with `.standards/` gone
/// while the integration stays: restored from history, uninstall runs.
fn uninstall_incomplete_runtime() {
    let (env, repo) = committed();
    remove(&repo, ".standards/INSTALLATION.json");
    let hint = refusal_hint(&output(&env, &repo, &["uninstall", "--yes"]));
    let restore = named(&hint, "git restore");
    assert_eq!(
        restore, "git restore --source=HEAD .standards/INSTALLATION.json",
        "{hint}"
    );
    run_ok(&env, &repo, &restore, &hint);
    env.run(&repo, &["uninstall", "--yes"]).success();
    assert!(uninstalled(&repo));

    let (env, repo) = installed();
    env.run(&repo, &["install", "--client", "claude"]).success();
    env.commit_all(&repo, "install for Claude");
    std::fs::remove_dir_all(repo.join(".standards")).unwrap();
    let hint = refusal_hint(&output(&env, &repo, &["uninstall", "--yes"]));
    let restore = named(&hint, "git restore");
    assert_eq!(restore, "git restore --source=HEAD .standards", "{hint}");
    run_ok(&env, &repo, &restore, &hint);
    env.run(&repo, &["uninstall", "--yes"]).success();
    assert!(uninstalled(&repo));
    assert!(!repo.join(".claude/skills").exists());
}

// ---------------------------------------------------------------------------
// The stop hook (src/commands/hook.rs).

/// What the stop hook for Claude says (stdout and stderr) in session `id`.
fn stop_hook(env: &Env, repo: &Path, id: &str) -> String {
    let mut cmd = env.cmd(repo);
    cmd.args(["hook", "stop", "--client", "claude"]);
    let out = assert_cmd::Command::from_std(cmd)
        .write_stdin(format!("{{\"session_id\":\"{id}\"}}"))
        .output()
        .unwrap();
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The stop hook during a STATE.md conflict names the user's decisions and
/// the commands the agent must leave to the user: each ends the conflict
/// (`git add` after the user's hand resolution), and the hook stops asking.
fn stop_during_a_conflict() {
    let guidance = "the user decides with `git standards resolve --keep";
    for (i, prefix) in [
        "git standards resolve --keep ours",
        "git standards resolve --keep theirs",
        "git standards resolve",
        "git add",
    ]
    .into_iter()
    .enumerate()
    {
        let (env, repo) = conflicted();
        let said = stop_hook(&env, &repo, &format!("before-{i}"));
        assert!(said.contains(guidance), "{said}");
        // The exact command, not a longer one it begins.
        assert!(
            commands_in(&said).iter().any(|c| c == prefix),
            "{prefix}: {said}"
        );
        let command = match prefix {
            "git add" => {
                env.git(&repo, &["checkout", "--theirs", ".standards/STATE.md"]);
                format!("{prefix} .standards/STATE.md")
            }
            "git standards resolve" => format!("{prefix} --keep theirs --yes"),
            _ => format!("{prefix} --yes"),
        };
        run_ok(&env, &repo, &command, &said);
        assert!(!has_conflict(&env, &repo));
        let said = stop_hook(&env, &repo, &format!("after-{i}"));
        assert!(!said.contains(guidance), "after `{command}`: {said}");
    }
}

// ---------------------------------------------------------------------------
// `verify` (src/commands/verify/).

/// A committed brownfield project whose `feature` branch holds two commits
/// past the install while `main` moved on; returns it and the install
/// commit, where `feature` starts.
fn feature_branch() -> (Env, PathBuf, String) {
    let (env, repo) = committed();
    let base = env.git(&repo, &["rev-parse", "HEAD"]).trim().to_string();
    env.git(&repo, &["checkout", "-q", "-b", "feature"]);
    for n in ["one", "two"] {
        write(repo.join("app.py"), format!("print('{n}')\n"));
        env.commit_all(&repo, n);
    }
    env.git(&repo, &["checkout", "-q", "main"]);
    write(repo.join("notes.txt"), "main moves on\n");
    env.commit_all(&repo, "main moves on");
    (env, repo, base)
}

/// A clone of `repo`'s `feature` with `how` (extra `git clone` flags).
fn clone_feature(env: &Env, repo: &Path, name: &str, how: &[&str]) -> PathBuf {
    let parent = repo.parent().unwrap();
    let url = format!("file://{}", repo.display());
    let mut args = vec!["clone", "-q", "--branch", "feature"];
    args.extend_from_slice(how);
    args.extend([url.as_str(), name]);
    env.git(parent, &args);
    parent.join(name)
}

/// `verify` in a shallow clone: each hinted fetch deepens it enough.
fn verify_shallow() {
    let (env, repo, _) = feature_branch();
    for (name, prefix) in [
        ("unshallowed", "git fetch --unshallow"),
        ("deepened", "git fetch --deepen=<n>"),
    ] {
        let clone = clone_feature(&env, &repo, name, &["--depth", "1", "--no-single-branch"]);
        let hint = refusal_hint(&output(&env, &clone, &["verify"]));
        let fetch = named(&hint, prefix).replace("<n>", "5");
        run_ok(&env, &clone, &fetch, &hint);
        env.run(&clone, &["verify"]).success();
    }
}

/// `verify` in a clone of `feature` alone: the hinted fetch of the main
/// branch and the hinted explicit range each let it run.
fn verify_without_main() {
    let (env, repo, base) = feature_branch();
    let clone = clone_feature(&env, &repo, "fetched", &["--single-branch"]);
    let hint = refusal_hint(&output(&env, &clone, &["verify"]));
    run_ok(
        &env,
        &clone,
        &named(&hint, "git fetch origin main:refs/remotes/origin/main"),
        &hint,
    );
    env.run(&clone, &["verify"]).success();

    let clone = clone_feature(&env, &repo, "ranged", &["--single-branch"]);
    let hint = refusal_hint(&output(&env, &clone, &["verify"]));
    let range = named(&hint, "git standards verify").replace("<base>", &base);
    let out = run_ok(&env, &clone, &range, &hint);
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("2 commits checked"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// `verify --into` a branch the clone lacks: the hinted fetch brings it.
fn verify_into_an_unknown_branch() {
    let (env, repo, base) = feature_branch();
    let clone = clone_feature(&env, &repo, "into", &["--single-branch"]);
    let args = ["verify", &format!("{base}..HEAD"), "--into", "main"];
    let hint = refusal_hint(&output(&env, &clone, &args));
    run_ok(
        &env,
        &clone,
        &named(&hint, "git fetch origin main:refs/remotes/origin/main"),
        &hint,
    );
    env.run(&clone, &args).success();
}

/// `verify --into main` of a branch that changed STATE.md as `main` did:
/// during the merge, the named `resolve --keep` with either side ends the
/// STATE.md conflict.
fn verify_state_changed_on_both_sides() {
    for keep in ["ours", "theirs"] {
        let p = crate::fixture::Project::brown();
        p.commit("install");
        p.env.git(&p.root, &["checkout", "-q", "-b", "other"]);
        p.start_cycle_for("Their request", "AUDITING", "STANDARD", "FULL_DELIVERABLE");
        p.commit("theirs");
        p.env.git(&p.root, &["checkout", "-q", "main"]);
        p.start_cycle_for("Our request", "AUDITING", "STANDARD", "FULL_DELIVERABLE");
        p.commit("ours");
        let (env, repo) = (p.env, p.root);
        let out = output(
            &env,
            &repo,
            &[
                "verify",
                "main..other",
                "--into",
                "main",
                "--format",
                "json",
            ],
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let text = v["into"]["stateConflict"]
            .as_str()
            .unwrap_or_else(|| panic!("{v}"))
            .to_string();
        let resolve = named(&text, "git standards resolve --keep").replace("ours|theirs", keep);
        let _ = env.git_status(&repo, &["merge", "-q", "other"]);
        assert!(has_conflict(&env, &repo), "the merge conflicts on STATE.md");
        run_ok(&env, &repo, &format!("{resolve} --yes"), &text);
        assert!(!has_conflict(&env, &repo));
        let request = if keep == "ours" {
            "Our request"
        } else {
            "Their request"
        };
        assert_eq!(state_field(&repo, "Request"), request);
    }
}

/// A GitHub step summary past 1 MiB (two commits with 600 KB subjects): it
/// omits the second row, and the `verify` it names, run locally, reports
/// every commit.
fn verify_summary_over_its_limit() {
    let (env, repo) = committed();
    let base = env.git(&repo, &["rev-parse", "HEAD"]).trim().to_string();
    let message = repo.parent().unwrap().join("message.txt");
    let mut ids = Vec::new();
    for n in ["one", "two"] {
        write(repo.join("app.py"), format!("print('{n}')\n"));
        std::fs::write(&message, format!("{n} {}\n", "x".repeat(600 * 1024))).unwrap();
        env.git(&repo, &["add", "-A"]);
        env.git(&repo, &["commit", "-q", "-F", message.to_str().unwrap()]);
        ids.push(
            env.git(&repo, &["rev-parse", "--short", "HEAD"])
                .trim()
                .to_string(),
        );
    }
    let summary = repo.parent().unwrap().join("summary.md");
    let range = format!("{base}..HEAD");
    let out = env
        .cmd(&repo)
        .args(["verify", &range])
        .env("GITHUB_ACTIONS", "true")
        .env("GITHUB_STEP_SUMMARY", &summary)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&summary).unwrap();
    assert!(text.contains(&format!("| `{}` |", ids[0])), "the first row");
    assert!(
        !text.contains(&format!("| `{}` |", ids[1])),
        "the second row is omitted"
    );
    let line = text
        .lines()
        .find(|l| l.contains("more rows omitted"))
        .unwrap_or_else(|| panic!("no omission line"));
    let verify = named(line, "git standards verify");
    assert_eq!(verify, "git standards verify", "{line}");
    let out = run_ok(
        &env,
        &repo,
        &format!("{verify} {range} --format text"),
        line,
    );
    let report = String::from_utf8_lossy(&out.stdout);
    for id in &ids {
        assert!(report.contains(id.as_str()), "{id} in {report:.200}");
    }
}

/// The server refuses a pushed commit that fails `verify`; the hinted
/// `git standards verify <range>` runs as written in the pusher's clone and
/// shows the problem the server saw.
fn server_refusal_verify() {
    let (env, repo, _bare) = crate::server_hook::origin();
    env.git(&repo, &["checkout", "-q", "-b", "broken"]);
    let state = crate::common::read(repo.join(".standards/STATE.md"));
    write(
        repo.join(".standards/STATE.md"),
        crate::common::set_field(&state, "WorkflowState", "NOT_A_STATE"),
    );
    env.commit_all(&repo, "break the state");
    let out = crate::server_hook::push(&env, &repo, &["broken"]);
    let text = crate::hooks::said(&out);
    assert!(!out.status.success(), "{text}");
    let hint = text
        .lines()
        .find_map(|l| l.split("hint: ").nth(1))
        .unwrap_or_else(|| panic!("{text}"));
    let commands = commands_in(hint);
    assert_eq!(commands.len(), 1, "{hint}");
    assert!(commands[0].starts_with("git standards verify "), "{hint}");
    let out = run_hinted(&env, &repo, &commands[0]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("break the state: "),
        "{out:?}"
    );
}

/// `hooks status` in a bare repository names `git standards hooks install`
/// for a pre-receive hook of another version; run there, it updates it.
fn server_hook_outdated() {
    let (env, _repo, bare) = crate::server_hook::origin();
    let path = bare.join("hooks/pre-receive");
    let current = crate::common::read(&path);
    // Our marker over another body: the shim of another version.
    let (head, rest) = current.split_at(current.find('\n').unwrap() + 1);
    let (_, body) = rest.split_at(rest.find('\n').unwrap() + 1);
    let body = format!("{body}# another version\n");
    use sha2::Digest;
    let sum: String = sha2::Sha256::digest(body.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    write(
        &path,
        format!("{head}# git-standards-hook: pre-receive sha256={sum}\n{body}"),
    );
    let status = crate::common::stdout(&env.run(&bare, &["hooks", "status"]).success());
    let hint = status
        .lines()
        .find(|l| l.starts_with("pre-receive: installed by another version"))
        .unwrap_or_else(|| panic!("{status}"));
    run_all(&env, &bare, hint);
    let status = crate::common::stdout(&env.run(&bare, &["hooks", "status"]).success());
    assert!(status.contains("pre-receive: installed\n"), "{status}");
}

/// SO-001: code changed after sign-off; the hint's reset (the way to a new
/// cycle) runs as written.
fn changed_after_signoff() {
    let (env, repo) = crate::agent_hooks::at_signoff(&[]);
    env.run(&repo, &["signoff"]).success();
    env.commit_all(&repo, "signed off");
    write(repo.join("app.py"), "print(\"late\")\n");
    env.commit_all(&repo, "late change");
    let out = output(&env, &repo, &["verify", "HEAD~2..HEAD", "--format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    fn find(v: &serde_json::Value) -> Option<String> {
        match v {
            serde_json::Value::Object(m)
                if m.get("rule").and_then(|r| r.as_str()) == Some("SO-001") =>
            {
                m.get("hint").and_then(|h| h.as_str()).map(String::from)
            }
            serde_json::Value::Object(m) => m.values().find_map(find),
            serde_json::Value::Array(a) => a.iter().find_map(find),
            _ => None,
        }
    }
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let hint = find(&json).expect("an SO-001 hint");
    let reset = named(&hint, "git standards reset");
    assert_eq!(reset, "git standards reset --yes --commit", "{hint}");
    run_ok(&env, &repo, &reset, &hint);
}

/// A row without a situation says why, and a test file it names exists,
/// so a reason cannot point at a file that was renamed or deleted.
#[test]
fn every_uncovered_row_says_why() {
    for (command, situation) in TABLE {
        let Uncovered(why) = situation else { continue };
        assert!(why.len() > 20, "`{command}`: say why no situation runs it");
        for word in why.split(|c: char| c.is_whitespace() || c == ',' || c == ';') {
            if let Some(file) = word.strip_prefix("tests/") {
                let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("tests")
                    .join(file.trim_end_matches(['.', ')']));
                assert!(
                    path.is_file(),
                    "`{command}` names {word}, which does not exist"
                );
            }
        }
    }
}
