//! ST: STATE.md structure and values.

use crate::protocol::layout::STATE_PATH;

use super::{Cx, RuleInfo, Sink};

pub const RULES: &[RuleInfo] = &[
    RuleInfo::rule("ST-001", "Title"),
    RuleInfo::rule("ST-002", "Head fields present once"),
    RuleInfo::rule("ST-003", "WorkflowState value"),
    RuleInfo::rule("ST-004", "CycleMode value"),
    RuleInfo::rule("ST-005", "Pending and terminal consistency"),
    RuleInfo::rule("ST-006", "Active Work section"),
    RuleInfo::rule("ST-007", "Active Work fields"),
    RuleInfo::rule("ST-008", "Inactive cycles keep no pending cadence"),
    RuleInfo::rule("ST-009", "BaselineReconciliation present"),
    RuleInfo::rule("ST-010", "Handoff section and fields"),
    RuleInfo::rule("ST-011", "Recovery and obligations sections"),
];

const FIX_HINT: &str = "fix STATE.md so it matches the Workflow State Reference in PROTOCOL.md, or restore it from the last commit";

pub fn check(cx: &Cx, sink: &mut Sink) {
    // ST-001..ST-011: the first structural failure is the only STATE problem.
    if let Some(Err(e)) = &cx.state {
        sink.push_hinted(
            e.rule,
            STATE_PATH,
            format!("line {}: {}", e.line, e.message),
            Some(FIX_HINT.into()),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use crate::protocol::layout::STATE_PATH;
    use crate::protocol::state::fresh_template;
    use crate::protocol::vocab::ProjectMode;

    fn with_state(f: impl Fn(String) -> String) -> Vec<&'static str> {
        let mut t = installed_tree(ProjectMode::Brownfield);
        t.insert(STATE_PATH, f(fresh_template(ProjectMode::Brownfield)));
        rules_of(&t)
    }

    #[test]
    fn structural_rules_each_fire() {
        assert_eq!(with_state(|_| "# Other\n".into()), ["ST-001"]);
        assert_eq!(
            with_state(|s| s.replace("`WorkflowState`: `AUDITING` ", "")),
            ["ST-002"]
        );
        assert_eq!(
            with_state(|s| s.replace("`AUDITING`", "`LOST`")),
            ["ST-003"]
        );
        assert_eq!(
            with_state(|s| s.replace("`CycleMode`: `UNSET`", "`CycleMode`: `X`")),
            ["ST-004"]
        );
        assert_eq!(
            with_state(|s| s.replace(
                "`PendingCycleBlockedOn`: `NONE`",
                "`PendingCycleBlockedOn`: `Q`"
            )),
            ["ST-005"]
        );
        assert_eq!(
            with_state(|s| s.replace("## Active Work", "## Work")),
            ["ST-006"]
        );
        assert_eq!(
            with_state(|s| s.replace("`AuditTarget`: `NONE`", "")),
            ["ST-007"]
        );
        assert_eq!(
            with_state(|s| s.replace(
                "`PendingVerificationCadence`: `NONE`",
                "`PendingVerificationCadence`: `INCREMENTAL`"
            )),
            ["ST-008"]
        );
        assert_eq!(
            with_state(|s| s.replace("`BaselineReconciliation`: `NONE`", "")),
            ["ST-009"]
        );
        assert_eq!(
            with_state(|s| s.replace("`Reason`:\n`Initial", "`Why`:\n`Initial")),
            ["ST-010"]
        );
        assert_eq!(
            with_state(|s| s.replace(
                "## Outstanding Obligations\n\n`Active`: `false`",
                "## Outstanding Obligations\n"
            )),
            ["ST-011"]
        );
    }
}
