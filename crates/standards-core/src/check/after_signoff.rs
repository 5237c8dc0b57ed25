//! SO-001 (issue 26): nothing changes after sign-off. The user signed off the
//! cycle as it stood; code or records changed after that, and before the
//! reset commit that returns `.standards/` to a fresh installation, were never
//! signed off. Decided per commit from its first parent's and its own
//! STATE.md and the project paths the commit changed (`verify`); the commit
//! that records the sign-off itself is held against the content the
//! `signed-off` event recorded ([`check_signoff_commit`]).

use crate::check::{Problem, RuleSource};
use crate::model::layout::STANDARDS_DIR;
use crate::model::state::StateDoc;
use crate::model::vocab::WorkflowState;

pub const RULE: &str = "SO-001";

/// The most changed paths a problem names.
const SHOWN: usize = 5;

/// The problem of a commit whose parent holds a signed-off cycle, when the
/// commit changes what was signed off: while the cycle stays `SIGNED_OFF`,
/// any project path but STATE.md; in the commit that leaves `SIGNED_OFF`
/// (the reset, or a new cycle's start), any path outside `.standards/`.
/// `changed` are the project-relative paths that differ from the parent.
pub fn check(parent_state: &str, state: Option<&str>, changed: &[String]) -> Option<Problem> {
    let parent = StateDoc::parse(parent_state).ok()?;
    if parent.workflow_state.value != WorkflowState::SignedOff {
        return None;
    }
    let cycle = parent.active_work.id.value.clone();
    let still = state
        .and_then(|t| StateDoc::parse(t).ok())
        .is_some_and(|d| {
            d.workflow_state.value == WorkflowState::SignedOff && d.active_work.id.value == cycle
        });
    let after: Vec<&String> = changed.iter().filter(|p| covered(p, still)).collect();
    let what = if still {
        "while the cycle stays signed off"
    } else {
        "in the commit that leaves the signed-off state"
    };
    problem(&cycle, &after, what)
}

/// The cycle whose sign-off a commit records: its STATE.md holds the cycle
/// `SIGNED_OFF` and its first parent's (`None`: no STATE.md there) does not.
pub fn signed_off_in(parent_state: Option<&str>, state: &str) -> Option<String> {
    let doc = StateDoc::parse(state).ok()?;
    if doc.workflow_state.value != WorkflowState::SignedOff {
        return None;
    }
    let cycle = doc.active_work.id.value.clone();
    let before = parent_state.and_then(|t| StateDoc::parse(t).ok());
    if before.is_some_and(|d| {
        d.workflow_state.value == WorkflowState::SignedOff && d.active_work.id.value == cycle
    }) {
        return None;
    }
    Some(cycle)
}

/// The cycle a STATE.md holds at `AWAITING_USER_SIGNOFF`: a commit of it
/// made after the cycle's recorded sign-off (on top of the commit the
/// sign-off was bound to) was made between the sign-off and its commit.
pub fn awaiting_in(state: &str) -> Option<String> {
    let doc = StateDoc::parse(state).ok()?;
    (doc.workflow_state.value == WorkflowState::AwaitingUserSignoff && doc.has_active_cycle())
        .then(|| doc.active_work.id.value.clone())
}

/// SO-001 for a commit around the sign-off of `cycle`: `changed` are the
/// project-relative paths where it differs from the content the user signed
/// off, and `what` says which commit it is and what it was held against
/// (the tree the `signed-off` event recorded, or the commit's parent where
/// no event is at hand). The sign-off move writes STATE.md alone, so any
/// other change — committed together with the sign-off, amended or folded
/// into it later, staged before it, or committed between the sign-off and
/// its commit — was not what the user signed off.
pub fn check_signoff_commit(cycle: &str, changed: &[String], what: &str) -> Option<Problem> {
    let after: Vec<&String> = changed.iter().filter(|p| covered(p, true)).collect();
    problem(cycle, &after, what)
}

/// The paths of `changed` (project-relative, differing from the signed-off
/// commit) that the sign-off does not cover (see [`covered`]); the board
/// lists them per branch.
pub fn uncovered_changes(changed: &[String], still: bool) -> Vec<String> {
    changed
        .iter()
        .filter(|p| covered(p, still))
        .cloned()
        .collect()
}

/// Whether a change of `p` changes what was signed off: while the cycle
/// stays signed off (`still`), code and records; in the commit that leaves
/// it, anything outside `.standards/`.
fn covered(p: &str, still: bool) -> bool {
    let in_standards = p == STANDARDS_DIR || p.starts_with(&format!("{STANDARDS_DIR}/"));
    if !still && in_standards {
        // The reset, or a new cycle's start.
        return false;
    }
    if in_standards {
        // Records only: the runtime, the team's config and STATE.md
        // are not what the user signed off.
        return p.starts_with(".standards/docs/") || p == ".standards/CONTEXT.md";
    }
    !is_client_file(p)
}

/// The SO-001 problem naming the first of `after`, if any.
fn problem(cycle: &str, after: &[&String], what: &str) -> Option<Problem> {
    let first = after.first()?;
    let mut shown: Vec<String> = after.iter().take(SHOWN).map(|p| format!("`{p}`")).collect();
    if after.len() > SHOWN {
        shown.push(format!("and {} more", after.len() - SHOWN));
    }
    Some(Problem {
        rule: RULE,
        file: (*first).clone(),
        line: None,
        message: format!(
            "changed after the user signed off the cycle `{cycle}` ({what}): {}; the sign-off does not cover these changes",
            shown.join(", ")
        ),
        hint: Some("move them to a new cycle (after `git standards reset --yes --commit`), or revert them; a change the user must see needs their sign-off".into()),
        source: RuleSource::of(RULE),
    })
}

/// The agent-client files `install` manages (not the project's work).
fn is_client_file(p: &str) -> bool {
    matches!(p, "AGENTS.md" | "CLAUDE.md")
        || [".claude/", ".agents/", ".codex/"]
            .iter()
            .any(|d| p.starts_with(d))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::testing;
    use crate::model::fields;
    use crate::model::layout::STATE_PATH;
    use crate::model::tree::{Text, Tree};
    use crate::model::vocab::ProjectMode;

    fn set(text: &str, name: &str, value: &str) -> String {
        let found = fields::scan(text);
        let f = fields::first(&found, name).unwrap();
        format!(
            "{}{}{}",
            &text[..f.span.start],
            fields::render_code_span(value),
            &text[f.span.end..]
        )
    }

    fn state(s: &str, id: &str) -> String {
        let Text::Ok(text) = testing::installed_tree(ProjectMode::Brownfield).text(STATE_PATH)
        else {
            panic!("no STATE.md")
        };
        set(&set(&text, "WorkflowState", s), "Id", id)
    }

    #[test]
    fn changes_after_sign_off_are_reported_until_the_reset() {
        let signed = state("SIGNED_OFF", "c-1");
        let paths = |p: &[&str]| p.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        // Still signed off: code, records, anything but STATE.md.
        let p = check(&signed, Some(&signed), &paths(&["src/a.rs"])).unwrap();
        assert_eq!(p.rule, RULE);
        assert_eq!(p.file, "src/a.rs");
        assert!(p.message.contains("c-1"), "{}", p.message);
        assert!(check(&signed, Some(&signed), &paths(&[".standards/docs/x.md"])).is_some());
        assert!(check(&signed, Some(&signed), &paths(&[STATE_PATH])).is_none());
        // The runtime, the team's config and the client files are not the work.
        let runtime = paths(&[
            ".standards/config.toml",
            ".standards/PROTOCOL.md",
            ".standards/VERSION.json",
            ".claude/settings.json",
            "AGENTS.md",
        ]);
        assert!(check(&signed, Some(&signed), &runtime).is_none());
        assert!(check(&signed, Some(&signed), &paths(&[".standards/CONTEXT.md"])).is_some());
        assert!(check(&signed, Some(&signed), &[]).is_none());
        // The reset: `.standards/` changes are the reset; code is not.
        let fresh = state("AUDITING", "UNSET");
        assert!(check(
            &signed,
            Some(&fresh),
            &paths(&[".standards/STATE.md", ".standards/docs/x.md"])
        )
        .is_none());
        assert!(check(
            &signed,
            Some(&fresh),
            &paths(&[".standards/STATE.md", "app.py"])
        )
        .is_some());
        assert!(check(&signed, None, &paths(&["app.py"])).is_some());
        // Before sign-off nothing is reported here.
        let open = state("AWAITING_USER_SIGNOFF", "c-1");
        assert!(check(&open, Some(&signed), &paths(&["src/a.rs"])).is_none());
        // Many paths: five named, the rest counted.
        let many: Vec<String> = (0..8).map(|i| format!("f{i}")).collect();
        assert!(check(&signed, Some(&signed), &many)
            .unwrap()
            .message
            .contains("and 3 more"));
    }

    #[test]
    fn the_commit_that_records_the_sign_off_may_change_nothing_else() {
        let open = state("AWAITING_USER_SIGNOFF", "c-1");
        let signed = state("SIGNED_OFF", "c-1");
        assert_eq!(signed_off_in(Some(&open), &signed).as_deref(), Some("c-1"));
        assert_eq!(signed_off_in(None, &signed).as_deref(), Some("c-1"));
        // Already signed off before: that is `check`'s case.
        assert!(signed_off_in(Some(&signed), &signed).is_none());
        // Another cycle signed off before: this one is new.
        let other = state("SIGNED_OFF", "c-0");
        assert_eq!(signed_off_in(Some(&other), &signed).as_deref(), Some("c-1"));
        assert!(signed_off_in(Some(&open), &open).is_none());
        assert!(signed_off_in(Some(&open), "not a state").is_none());

        let paths = |p: &[&str]| p.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(check_signoff_commit("c-1", &paths(&[STATE_PATH]), "x").is_none());
        assert!(check_signoff_commit("c-1", &paths(&[STATE_PATH, "AGENTS.md"]), "x").is_none());
        let p =
            check_signoff_commit("c-1", &paths(&[STATE_PATH, "app.py"]), "against `abc`").unwrap();
        assert_eq!(p.rule, RULE);
        assert_eq!(p.file, "app.py");
        assert!(p.message.contains("(against `abc`)"), "{}", p.message);
        assert!(check_signoff_commit("c-1", &paths(&[".standards/docs/r.md"]), "x").is_some());
        assert_eq!(awaiting_in(&open).as_deref(), Some("c-1"));
        assert!(awaiting_in(&signed).is_none());
    }
}
