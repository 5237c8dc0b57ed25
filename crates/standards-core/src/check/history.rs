//! GT: comparisons with the last commit (check-rules §4 GT).
//!
//! Each rule compares the working tree with the last commit and is skipped
//! silently when there is no commit to compare with. GT-001 and GT-002 read
//! the committed STATE.md, and only when it passes the structural checks.

use crate::model::layout::STATE_PATH;
use crate::model::state::StateDoc;
use crate::model::vocab::CycleMode;

use super::{Cx, RuleInfo, Sink};

pub const RULES: &[RuleInfo] = &[
    RuleInfo::rule("GT-001", "Finished cycle reopened"),
    RuleInfo::rule("GT-002", "Documentation cycle converted in place"),
];

pub fn check(cx: &Cx, sink: &mut Sink) {
    gt_001_002_state_history(cx, sink);
}

/// The same cycle in both snapshots, still running now.
///
/// The catalogue compares `Id` values as text, so an `UNSET` ID in both
/// snapshots would count as "the same cycle" (check-rules §6.8). The protocol
/// speaks of an active cycle carrying a finished cycle's ID (user-decisions.md,
/// Cycle IDs; Cycle Modes rule 6), and `UNSET` names no cycle: such states are
/// left to the pre-cycle rules (ST-013, ST-015, ST-017), which report them.
fn same_running_cycle(now: &StateDoc, then: &StateDoc) -> bool {
    let id = &now.active_work.id.value;
    id != "UNSET" && *id == then.active_work.id.value && !now.workflow_state.value.is_terminal()
}

/// GT-001 and GT-002.
fn gt_001_002_state_history(cx: &Cx, sink: &mut Sink) {
    let (Some(now), Some(then)) = (cx.doc(), cx.committed_state.as_ref()) else {
        return;
    };
    if cx.head.is_none() || !same_running_cycle(now, then) {
        return;
    }
    let id = &now.active_work.id.value;
    // GT-001: a finished cycle is never reopened.
    if then.workflow_state.value.is_terminal() {
        sink.push_hinted(
            "GT-001",
            STATE_PATH,
            format!(
                "line {}: cycle `{id}` is `{}` in the last commit but is now at `{}` again; a finished cycle stays finished and its ID is never reused",
                now.workflow_state.line, then.workflow_state.value, now.workflow_state.value
            ),
            Some("restore STATE.md from the last commit (`git restore --source=HEAD --staged --worktree .standards/STATE.md`); new work then starts a new cycle with `git standards start --request \"...\"`, which issues a fresh ID (user-decisions.md, Start a cycle)".into()),
        );
    }
    // GT-002: a documentation cycle keeps its mode, and nothing becomes one.
    let (was, is) = (then.cycle_mode.value, now.cycle_mode.value);
    if was != is && (was == CycleMode::Documentation || is == CycleMode::Documentation) {
        sink.push_hinted(
            "GT-002",
            STATE_PATH,
            format!(
                "line {}: cycle `{id}` was `{was}` in the last commit and is now `{is}`; a DOCUMENTATION cycle is never converted in place",
                now.cycle_mode.line
            ),
            Some(format!(
                "set `CycleMode` back to `{was}`; if the work needs another mode, the user cancels this cycle and starts a separate one"
            )),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::super::{run, Options};
    use crate::model::layout::STATE_PATH;
    use crate::model::state::fresh_template;
    use crate::model::vocab::ProjectMode;

    const ID: &str = "document-greeting-20261003T120000Z-1234abcd";

    fn state(ws: &str, mode: &str, id: &str, kind: &str, from: &str) -> String {
        fresh_template(ProjectMode::Brownfield)
            .replace("`AUDITING`", &format!("`{ws}`"))
            .replace("`CycleMode`: `UNSET`", &format!("`CycleMode`: `{mode}`"))
            .replace("`Id`: `UNSET`", &format!("`Id`: `{id}`"))
            .replace("`Request`: `UNSET`", "`Request`: `Document it.`")
            .replace("`Kind`: `INITIAL`", &format!("`Kind`: `{kind}`"))
            .replace("`From`: `NONE`", &format!("`From`: `{from}`"))
    }

    fn compare(now: String, then: String) -> Vec<&'static str> {
        let mut tree = installed_tree(ProjectMode::Brownfield);
        let mut head = tree.clone();
        tree.insert(STATE_PATH, now);
        head.insert(STATE_PATH, then);
        // Synthetic handoffs pin GT-001/GT-002 alone: the reference catalogue only.
        let reference = Options {
            compat: true,
            ..Options::default()
        };
        run(&tree, Some(&head), reference).rules()
    }

    #[test]
    fn reopening_a_finished_cycle() {
        let active = state("AUDITING", "DOCUMENTATION", ID, "INITIAL", "NONE");
        for terminal in ["SIGNED_OFF", "CANCELLED"] {
            let then = state(terminal, "UNSET", ID, "SIGNOFF", "AWAITING_USER_SIGNOFF");
            let rules = compare(active.clone(), then.clone());
            // The committed mode is UNSET, so the conversion rule fires too.
            assert_eq!(rules, ["GT-001", "GT-002"], "{terminal}");
            // Terminal now as well: nothing is reopened.
            assert!(compare(then.clone(), then).is_empty());
        }
    }

    #[test]
    fn a_new_cycle_after_a_finished_one_is_fine() {
        let then = state(
            "SIGNED_OFF",
            "UNSET",
            ID,
            "SIGNOFF",
            "AWAITING_USER_SIGNOFF",
        );
        let other = "next-20261004T120000Z-abcdef12";
        let now = state(
            "AUDITING",
            "DOCUMENTATION",
            other,
            "NEW_CYCLE",
            "SIGNED_OFF",
        );
        assert!(compare(now, then).is_empty());
    }

    #[test]
    fn documentation_mode_conversion_both_ways() {
        let doc = state("AUDITING", "DOCUMENTATION", ID, "INITIAL", "NONE");
        let std = state("AUDITING", "STANDARD", ID, "INITIAL", "NONE").replace(
            "`CompletionPolicy`: `NONE`",
            "`CompletionPolicy`: `FULL_DELIVERABLE`",
        );
        assert_eq!(compare(std.clone(), doc.clone()), ["GT-002"]);
        assert_eq!(compare(doc.clone(), std.clone()), ["GT-002"]);
        assert!(compare(doc.clone(), doc).is_empty());
    }

    #[test]
    fn unset_ids_are_not_a_reused_cycle() {
        let fresh = fresh_template(ProjectMode::Brownfield);
        let then = fresh.replace("`AUDITING`", "`CANCELLED`");
        assert!(!compare(fresh, then).contains(&"GT-001"));
    }

    #[test]
    fn no_commit_no_comparison() {
        let mut tree = installed_tree(ProjectMode::Brownfield);
        tree.insert(
            STATE_PATH,
            state("AUDITING", "DOCUMENTATION", ID, "INITIAL", "NONE"),
        );
        assert!(rules_of(&tree).is_empty());
    }
}
