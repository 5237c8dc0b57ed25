//! Who acts next, how to invoke them, and what blocks them (PROTOCOL.md
//! Handoff Rules 7–8, Independent Tester/Reviewer Session, User Decisions and
//! Intervention). Pure: `status` and the transition commands both print it.

use serde::Serialize;

use crate::model::state::StateDoc;
use crate::model::vocab::{CompletionPolicy, CycleMode, Role, WorkflowState};

/// The next step of one snapshot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NextStep {
    /// The role that owns the current state (`user` in user-owned states).
    #[serde(serialize_with = "role_name")]
    pub owner: Role,
    pub state: WorkflowState,
    /// The copy/paste invocation of the owning role; `None` when the user acts.
    pub invocation: Option<Invocation>,
    /// What the user can do when the user acts (sign-off readiness, no cycle).
    pub user_options: Vec<UserOption>,
    /// What stops the work now: a user question, an open recovery frame, open
    /// obligations, merge conflicts.
    pub blocked_by: Vec<String>,
}

/// The base invocation of a role for both clients.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Invocation {
    /// The skill identifier, e.g. `architect`.
    pub skill: &'static str,
    /// `Next role: Architect`.
    pub heading: String,
    /// The line for Codex (`$architect ...`).
    pub codex: String,
    /// The line for Claude Code (`/architect ...`).
    pub claude_code: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct UserOption {
    pub action: &'static str,
    pub command: String,
    /// What follows the command, when it is one step of several.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub then: Option<String>,
}

impl UserOption {
    fn new(action: &'static str, command: impl Into<String>) -> UserOption {
        UserOption {
            action,
            command: command.into(),
            then: None,
        }
    }
}

/// Where HEAD stands, as `repo/` reads it (issue 25, item 4).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Branch {
    /// Not known, or not the question (a named commit): no advice.
    #[default]
    Unknown,
    /// HEAD is on the main branch (D23).
    Main { main: String },
    /// HEAD is on another branch.
    Other { name: String, main: String },
    /// HEAD is detached.
    Detached { main: String },
}

/// The branch facts the next step depends on: where HEAD is, and whether the
/// shown `.standards/` is a fresh installation (`setup::fresh`, the merge
/// guard's definition).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BranchContext {
    pub branch: Branch,
    pub fresh: bool,
}

/// Adds the reset that must come before a merge (D23, PROTOCOL.md Branches
/// and merges): with no active cycle, on a branch other than the main one,
/// while `.standards/` is not a fresh installation, the merge guard would
/// refuse the merge; the user resets first.
pub fn advise(next: &mut NextStep, active: bool, ctx: &BranchContext) {
    let main = match &ctx.branch {
        Branch::Other { main, .. } | Branch::Detached { main } => main,
        Branch::Unknown | Branch::Main { .. } => return,
    };
    if active || ctx.fresh {
        return;
    }
    next.user_options.push(UserOption {
        action: "reset before merging",
        command: "git standards reset --yes --commit".into(),
        then: Some(format!(
            "then merge into `{main}` (`git merge` or the pull request)"
        )),
    });
}

/// The warning printed when a cycle starts where its state would land on the
/// main branch: on the main branch itself or on a detached HEAD.
pub fn start_warning(branch: &Branch) -> Option<String> {
    match branch {
        Branch::Main { main } => Some(format!(
            "this cycle starts on the main branch `{main}`: the cycle's state must be reset before `{main}` is shared (`git standards reset --yes --commit` after sign-off); consider a branch: `git switch -c <name>`"
        )),
        Branch::Detached { main } => Some(format!(
            "this cycle starts on a detached HEAD: its commits belong to no branch, and the cycle's state must be reset before it merges into `{main}`; consider a branch: `git switch -c <name>`"
        )),
        Branch::Unknown | Branch::Other { .. } => None,
    }
}

fn role_name<S: serde::Serializer>(role: &Role, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(role.as_str())
}

const TESTER_PREFIX: &str = "Use the existing independent Tester chat, or open a fresh chat separate from Developer's implementation conversation, then run:";
const REVIEWER_PREFIX: &str = "Open a fresh chat separate from the conversations that produced the artifacts under review, then run:";

/// The invocation of the role owning `state` (Handoff Rules 8): the recovery
/// wording while frames are open, the independent-session prefix and the
/// review kind for Tester and Reviewer states.
pub fn invocation(state: WorkflowState, recovering: bool) -> Option<Invocation> {
    let role = state.owner();
    if role == Role::User {
        return None;
    }
    let mut text = if recovering {
        "Continue the active recovery from `.standards/STATE.md`. Read the persisted Active Work, relevant project context and owned artifacts, and the active recovery frame before proceeding.".to_string()
    } else {
        "Continue the active workflow from `.standards/STATE.md`. Read the persisted Active Work, relevant project context and owned artifacts, and recovery context before proceeding.".to_string()
    };
    match state {
        WorkflowState::ReviewingImplementation => text.push_str(" Review kind: IMPLEMENTATION."),
        WorkflowState::ReviewingFinal => text.push_str(" Review kind: FINAL_DELIVERABLE."),
        _ => {}
    }
    let prefix = match state {
        WorkflowState::Testing => Some(TESTER_PREFIX),
        WorkflowState::ReviewingImplementation | WorkflowState::ReviewingFinal => {
            Some(REVIEWER_PREFIX)
        }
        _ => None,
    };
    let skill = role.skill();
    let line = |sigil: char| match prefix {
        Some(p) => format!("{p} {sigil}{skill} {text}"),
        None => format!("{sigil}{skill} {text}"),
    };
    Some(Invocation {
        skill,
        heading: format!("Next role: {role}"),
        codex: line('$'),
        claude_code: line('/'),
    })
}

impl NextStep {
    /// The Claude Code line as the plugin's skills are typed: Claude Code
    /// names a plugin's skills with the plugin's prefix (`/standards:scoper`,
    /// <https://code.claude.com/docs/en/plugins>), where the per-repository
    /// skills are `/scoper`.
    pub fn with_claude_plugin(&mut self) {
        if let Some(inv) = &mut self.invocation {
            let plain = format!("/{} ", inv.skill);
            let named = format!("/{}:{} ", crate::setup::plugins::PLUGIN, inv.skill);
            inv.claude_code = inv.claude_code.replacen(&plain, &named, 1);
        }
    }
}

/// The next step of `doc`; `conflicts` are the conflicted files under
/// `.standards/` that did not stop the reading.
pub fn next_step(doc: &StateDoc, conflicts: &[String]) -> NextStep {
    let state = doc.workflow_state.value;
    let recovering = doc.recovery.active.value || !doc.recovery.entries.is_empty();
    let active = doc.has_active_cycle();
    let mut blocked_by: Vec<String> = conflicts
        .iter()
        .map(|c| format!("merge conflict: {c}"))
        .collect();
    if active && doc.active_work.blocked_on.value != "NONE" {
        blocked_by.push(format!(
            "user question (`BlockedOn`): {}",
            doc.active_work.blocked_on.value
        ));
    }
    if !active && doc.pending_cycle_blocked_on.value != "NONE" {
        blocked_by.push(format!(
            "next-cycle decision (`PendingCycleBlockedOn`): {}",
            doc.pending_cycle_blocked_on.value
        ));
    }
    if let Some(frame) = doc.recovery.entries.last() {
        let rerun = frame.get("RerunThrough").unwrap_or("NONE");
        let plan = if rerun == "NONE" {
            format!(
                "its owner `{}` corrects the defect, then runs `git standards resume`",
                frame.get("Owner").unwrap_or("?")
            )
        } else {
            format!("rerun through `{rerun}`, then `git standards resume` pops it")
        };
        blocked_by.push(format!(
            "recovery frame {} ({} from `{}`) resumes at `{}`: {plan}",
            frame.label,
            frame.get("FailureType").unwrap_or("?"),
            frame.get("From").unwrap_or("?"),
            frame.get("ResumeAt").unwrap_or("?"),
        ));
    }
    for o in &doc.obligations.entries {
        blocked_by.push(format!(
            "outstanding obligation {} owned by `{}` ({}): {}",
            o.label,
            o.get("Owner").unwrap_or("?"),
            o.get("FailureType").unwrap_or("?"),
            o.get("Reason").unwrap_or("?")
        ));
    }

    let mut user_options = Vec::new();
    let (owner, invocation) = if !active {
        if doc.pending_cycle_blocked_on.value != "NONE" {
            user_options.push(UserOption::new(
                "decide and start the saved request",
                "git standards start [--mode <mode>] [--policy <policy>]",
            ));
            user_options.push(UserOption::new(
                "change preference",
                "git standards next-mode <mode|unset>",
            ));
            user_options.push(UserOption::new(
                "drop the saved request",
                "git standards unblock",
            ));
        } else {
            user_options.push(UserOption::new(
                "start a cycle",
                "git standards start --request \"<request>\"",
            ));
            user_options.push(UserOption::new(
                "next cycle's mode",
                "git standards next-mode <mode|unset>",
            ));
        }
        (Role::User, None)
    } else if state == WorkflowState::AwaitingUserSignoff {
        user_options.push(UserOption::new(
            "sign off",
            "git standards signoff --reply \"<the user's reply>\"",
        ));
        user_options.push(UserOption::new(
            "rework",
            "git standards rework --type <FailureType> --request \"<changed request>\"",
        ));
        user_options.push(UserOption::new("cancel", "git standards cancel"));
        if doc.cycle_mode.value == CycleMode::Expedited {
            user_options.push(UserOption::new(
                "promote to a standard cycle",
                "git standards promote --reason \"<the standard guarantee needed>\"",
            ));
        }
        if doc.active_work.completion_policy.value == CompletionPolicy::ImplementationReviewed {
            user_options.push(UserOption::new(
                "withdraw IMPLEMENTATION_REVIEWED and resume the full workflow",
                "git standards policy full-deliverable",
            ));
        }
        (Role::User, None)
    } else {
        (state.owner(), invocation(state, recovering))
    };
    NextStep {
        owner,
        state,
        invocation,
        user_options,
        blocked_by,
    }
}

/// Whether a transition from a state owned by `before` must present the next
/// invocation (Handoff Rules 7): only for a different workflow role, with no
/// unresolved blocking question.
pub fn invocation_due(before: Role, next: &NextStep) -> bool {
    next.invocation.is_some()
        && next.owner != before
        && !next
            .blocked_by
            .iter()
            .any(|b| b.starts_with("user question") || b.starts_with("merge conflict"))
}

/// The text block: heading and both clients' lines, or the user's options.
pub fn render(next: &NextStep) -> String {
    let mut out = String::new();
    if let Some(inv) = &next.invocation {
        out.push_str(&format!(
            "{}\n\nCodex:       {}\nClaude Code: {}\n",
            inv.heading, inv.codex, inv.claude_code
        ));
    } else if !next.user_options.is_empty() {
        out.push_str("The user decides next:\n");
        for o in &next.user_options {
            let then = o
                .then
                .as_deref()
                .map(|t| format!("; {t}"))
                .unwrap_or_default();
            out.push_str(&format!(
                "  {:<14} {}{then}\n",
                format!("{}:", o.action),
                o.command
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::state::fresh_template;
    use crate::model::vocab::ProjectMode;

    #[test]
    fn invocations_for_both_clients_with_session_prefix_and_review_kind() {
        let a = invocation(WorkflowState::Architecting, false).unwrap();
        assert_eq!(a.heading, "Next role: Architect");
        assert!(a
            .codex
            .starts_with("$architect Continue the active workflow"));
        assert!(a
            .claude_code
            .starts_with("/architect Continue the active workflow"));
        let t = invocation(WorkflowState::Testing, true).unwrap();
        assert!(t.codex.starts_with(TESTER_PREFIX));
        assert!(t.codex.contains("$tester Continue the active recovery"));
        assert!(t.codex.contains("the active recovery frame"));
        let r = invocation(WorkflowState::ReviewingFinal, false).unwrap();
        assert!(r.claude_code.starts_with(REVIEWER_PREFIX));
        assert!(r.claude_code.ends_with("Review kind: FINAL_DELIVERABLE."));
        assert!(invocation(WorkflowState::AwaitingUserSignoff, false).is_none());
    }

    #[test]
    fn the_claude_plugin_line_names_the_skill_with_the_plugins_prefix() {
        let mut n = NextStep {
            owner: Role::Tester,
            state: WorkflowState::Testing,
            invocation: invocation(WorkflowState::Testing, false),
            user_options: Vec::new(),
            blocked_by: Vec::new(),
        };
        let codex = n.invocation.as_ref().unwrap().codex.clone();
        n.with_claude_plugin();
        let inv = n.invocation.unwrap();
        assert!(
            inv.claude_code.contains(" /standards:tester Continue"),
            "{}",
            inv.claude_code
        );
        assert!(!inv.claude_code.contains(" /tester "));
        assert_eq!(inv.codex, codex);
    }

    #[test]
    fn conflicts_and_questions_block_and_suppress_the_invocation() {
        let text = fresh_template(ProjectMode::Brownfield)
            .replace(
                "`WorkflowState`: `AUDITING` `CycleMode`: `UNSET`",
                "`WorkflowState`: `SCOPING` `CycleMode`: `STANDARD`",
            )
            .replace(
                "`Id`: `UNSET` `Request`: `UNSET`",
                "`Id`: `a-20260101T000000Z-00000000` `Request`: `x`",
            )
            .replace(
                "`CompletionPolicy`: `NONE`",
                "`CompletionPolicy`: `FULL_DELIVERABLE`",
            )
            .replace("`BlockedOn`: `NONE`", "`BlockedOn`: `Which index?`");
        let doc = StateDoc::parse(&text).unwrap();
        let n = next_step(
            &doc,
            &["`.standards/docs/x.md` has unresolved merge conflicts".into()],
        );
        assert_eq!(n.owner, Role::Scoper);
        assert!(n.blocked_by[0].starts_with("merge conflict: "));
        assert!(n.blocked_by[1].contains("Which index?"));
        assert!(!invocation_due(Role::Auditor, &n));
        let clear = next_step(&doc, &[]);
        assert!(
            !invocation_due(Role::Auditor, &clear),
            "still blocked on the question"
        );
    }

    #[test]
    fn no_cycle_offers_start() {
        let doc = StateDoc::parse(&fresh_template(ProjectMode::Greenfield)).unwrap();
        let n = next_step(&doc, &[]);
        assert_eq!(n.owner, Role::User);
        assert!(n.invocation.is_none());
        assert!(n.user_options[0].command.contains("git standards start"));
        assert!(render(&n).contains("start a cycle"));
    }

    #[test]
    fn a_reset_is_advised_only_off_main_with_no_cycle_and_a_used_runtime() {
        let doc = StateDoc::parse(&fresh_template(ProjectMode::Greenfield)).unwrap();
        let other = Branch::Other {
            name: "feature".into(),
            main: "trunk".into(),
        };
        let advised = |branch: Branch, active: bool, fresh: bool| {
            let mut n = next_step(&doc, &[]);
            advise(&mut n, active, &BranchContext { branch, fresh });
            n.user_options.iter().any(|o| o.then.is_some())
        };
        assert!(advised(other.clone(), false, false));
        assert!(advised(
            Branch::Detached {
                main: "trunk".into()
            },
            false,
            false
        ));
        assert!(!advised(other.clone(), true, false), "a cycle is active");
        assert!(!advised(other.clone(), false, true), "already fresh");
        assert!(!advised(
            Branch::Main {
                main: "trunk".into()
            },
            false,
            false
        ));
        assert!(!advised(Branch::Unknown, false, false));
        let mut n = next_step(&doc, &[]);
        advise(
            &mut n,
            false,
            &BranchContext {
                branch: other,
                fresh: false,
            },
        );
        assert!(render(&n).contains(
            "git standards reset --yes --commit; then merge into `trunk` (`git merge` or the pull request)"
        ));
    }

    #[test]
    fn starting_on_main_or_detached_warns() {
        let main = start_warning(&Branch::Main {
            main: "trunk".into(),
        })
        .unwrap();
        assert!(main.contains("`trunk`") && main.contains("git switch -c <name>"));
        let detached = start_warning(&Branch::Detached {
            main: "trunk".into(),
        })
        .unwrap();
        assert!(detached.contains("detached HEAD"));
        let other = Branch::Other {
            name: "f".into(),
            main: "trunk".into(),
        };
        assert_eq!(start_warning(&other), None);
        assert_eq!(start_warning(&Branch::Unknown), None);
    }
}
