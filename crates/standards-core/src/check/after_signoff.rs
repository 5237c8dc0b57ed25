//! SO-001 (issue 26): nothing changes after sign-off. The user signed off the
//! cycle as it stood; code or records changed after that, and before the
//! reset commit that returns `.standards/` to a fresh installation, were never
//! signed off. Decided per commit from its first parent's and its own
//! STATE.md and the project paths the commit changed (`verify`).

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
    let after = uncovered_changes(changed, still);
    if after.is_empty() {
        return None;
    }
    let mut shown: Vec<String> = after.iter().take(SHOWN).map(|p| format!("`{p}`")).collect();
    if after.len() > SHOWN {
        shown.push(format!("and {} more", after.len() - SHOWN));
    }
    let what = if still {
        "while the cycle stays signed off"
    } else {
        "in the commit that leaves the signed-off state"
    };
    Some(Problem {
        rule: RULE,
        file: after[0].clone(),
        line: None,
        message: format!(
            "changed after the user signed off the cycle `{cycle}` ({what}): {}; the sign-off does not cover these changes",
            shown.join(", ")
        ),
        hint: Some("move them to a new cycle (after `git standards reset --yes --commit`), or revert them; a change the user must see needs their sign-off".into()),
        source: RuleSource::of(RULE),
    })
}

/// The paths of `changed` (project-relative, differing from the signed-off
/// commit) that changed what the user signed off, so the sign-off does not
/// cover them: while the cycle stays signed off (`still`), any path but the
/// runtime, `config.toml` and STATE.md (records in `.standards/docs/` and
/// CONTEXT.md count); in the commit that leaves `SIGNED_OFF`, any path
/// outside `.standards/`. Agent-client files never count.
pub fn uncovered_changes(changed: &[String], still: bool) -> Vec<String> {
    let outside = |p: &&String| {
        let p = p.as_str();
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
    };
    changed.iter().filter(outside).cloned().collect()
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
}
