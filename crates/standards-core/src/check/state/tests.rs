use super::super::testing::*;
use crate::model::layout::STATE_PATH;
use crate::model::state::fresh_template;
use crate::model::vocab::ProjectMode;

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

const ID: &str = "add-search-20261003T120000Z-1234abcd";

/// The fresh brownfield template turned into an active cycle.
fn active(ws: &str, mode: &str, policy: &str) -> String {
    fresh_template(ProjectMode::Brownfield)
        .replace("`AUDITING`", &format!("`{ws}`"))
        .replace("`CycleMode`: `UNSET`", &format!("`CycleMode`: `{mode}`"))
        .replace("`Id`: `UNSET`", &format!("`Id`: `{ID}`"))
        .replace("`Request`: `UNSET`", "`Request`: `Add search.`")
        .replace(
            "`CompletionPolicy`: `NONE`",
            &format!("`CompletionPolicy`: `{policy}`"),
        )
}

fn problems(mode: ProjectMode, text: String) -> Vec<(&'static str, String)> {
    let mut t = installed_tree(mode);
    t.insert(STATE_PATH, text);
    // These states are built to pin single ST rules, not whole valid
    // histories, so only the reference catalogue is run on them.
    let reference = super::super::Options {
        compat: true,
        ..Default::default()
    };
    super::super::run(&t, None, reference)
        .problems
        .into_iter()
        .map(|p| (p.rule, p.message))
        .collect()
}

#[test]
fn terminal_states_keep_any_policy() {
    for policy in ["NONE", "FULL_DELIVERABLE", "IMPLEMENTATION_REVIEWED"] {
        for ws in ["SIGNED_OFF", "CANCELLED"] {
            let text = active(ws, "UNSET", policy);
            assert!(
                problems(ProjectMode::Brownfield, text).is_empty(),
                "{ws} {policy}"
            );
        }
    }
    assert_eq!(
        with_state(|_| active("DEVELOPING", "EXPEDITED", "FULL_DELIVERABLE")),
        ["ST-012"]
    );
    assert_eq!(
        with_state(|_| active("AUDITING", "DOCUMENTATION", "IMPLEMENTATION_REVIEWED")),
        ["ST-012"]
    );
}

#[test]
fn greenfield_reports_each_forbidden_mode_once() {
    let text = fresh_template(ProjectMode::Greenfield).replace(
        "`PendingCycleMode`: `UNSET`",
        "`PendingCycleMode`: `EXPEDITED`",
    );
    let found = problems(ProjectMode::Greenfield, text);
    assert_eq!(found.len(), 1);
    assert!(found[0].1.contains("`PendingCycleMode` is `EXPEDITED`"));
    // Both fields naming the same mode make one problem naming both.
    let text = active("SCOPING", "DOCUMENTATION", "NONE").replace(
        "`PendingCycleMode`: `UNSET`",
        "`PendingCycleMode`: `DOCUMENTATION`",
    );
    let found: Vec<_> = problems(ProjectMode::Greenfield, text)
        .into_iter()
        .filter(|p| p.0 == "ST-020")
        .collect();
    assert_eq!(found.len(), 1);
    assert!(found[0]
        .1
        .contains("`CycleMode` and `PendingCycleMode` are"));
    // Two different modes make two problems.
    let text = active("SCOPING", "EXPEDITED", "NONE").replace(
        "`PendingCycleMode`: `UNSET`",
        "`PendingCycleMode`: `DOCUMENTATION`",
    );
    let n = problems(ProjectMode::Greenfield, text)
        .into_iter()
        .filter(|p| p.0 == "ST-020")
        .count();
    assert_eq!(n, 2);
}

#[test]
fn pre_cycle_rules_need_no_cycle_and_a_known_mode() {
    let moved = |s: String| s.replace("`AUDITING`", "`TESTING`");
    assert_eq!(with_state(moved), ["ST-017"]);
    // Unknown project mode: ST-017 is skipped (RT-005 reports MODE.md).
    let mut t = installed_tree(ProjectMode::Brownfield);
    t.insert(
        STATE_PATH,
        fresh_template(ProjectMode::Brownfield).replace("`AUDITING`", "`TESTING`"),
    );
    t.insert(crate::model::layout::MODE_PATH, "nothing");
    assert_eq!(rules_of(&t), ["RT-005"]);
    // One problem per path field.
    let paths = |s: String| {
        s.replace("`Scope`: `NONE`", "`Scope`: `a.md`")
            .replace("`Development`: `NONE`", "`Development`: `b.md`")
    };
    let t = {
        let mut t = installed_tree(ProjectMode::Brownfield);
        t.insert(STATE_PATH, paths(fresh_template(ProjectMode::Brownfield)));
        t
    };
    let r = super::super::run(&t, None, Default::default());
    assert_eq!(r.problems.len(), 2);
    assert!(r.problems.iter().all(|p| p.rule == "ST-019"));
}

#[test]
fn baseline_repeats_collapse_and_skip_further_checks() {
    let entry = |id: &str| format!("\n- `SourceCycle`: `{id}`\n  `Request`: `Earlier.`");
    let list = [
        entry("ghost-1"),
        entry("ghost-1"),
        entry("ghost-1"),
        entry(ID),
    ]
    .concat();
    let text = active("AUDITING", "STANDARD", "FULL_DELIVERABLE").replace(
        "`BaselineReconciliation`: `NONE`",
        &format!("`BaselineReconciliation`:{list}"),
    );
    let mut found: Vec<&str> = problems(ProjectMode::Brownfield, text)
        .iter()
        .map(|p| p.0)
        .collect();
    found.sort();
    // One ST-028 for the three repeats, one ST-030 for the first ghost,
    // one ST-029 for the active cycle's own ID (which is well formed).
    assert_eq!(found, ["ST-028", "ST-029", "ST-030"]);
}

#[test]
fn expedited_and_documentation_field_rules() {
    let exp = active("DEVELOPING", "EXPEDITED", "NONE")
        .replace("`Scope`: `NONE`", "`Scope`: `s.md`")
        .replace("`Architecture`: `NONE`", "`Architecture`: `a.md`");
    let found = problems(ProjectMode::Brownfield, exp);
    let st024: Vec<_> = found.iter().filter(|p| p.0 == "ST-024").collect();
    assert_eq!(st024.len(), 1, "one problem for both fields");
    assert!(st024[0]
        .1
        .contains("`Scope` is `s.md` and `Architecture` is `a.md`"));
    let doc = active("AUDITING", "DOCUMENTATION", "NONE")
        .replace("`PromotionReason`: `NONE`", "`PromotionReason`: `More.`")
        .replace(
            "`PendingVerificationCadence`: `NONE`",
            "`PendingVerificationCadence`: `AFTER_IMPLEMENTATION`",
        );
    assert_eq!(with_state(|_| doc.clone()), ["ST-022", "ST-023"]);
}

#[test]
fn signoff_readiness_rules() {
    let ready = active("AWAITING_USER_SIGNOFF", "DOCUMENTATION", "NONE")
        .replace("`BlockedOn`: `NONE`", "`BlockedOn`: `Which audience?`");
    assert!(with_state(|_| ready.clone()).contains(&"ST-026"));
    // An expedited cycle with a baseline gets ST-031, not ST-032.
    let exp = active("AWAITING_USER_SIGNOFF", "EXPEDITED", "NONE").replace(
            "`BaselineReconciliation`: `NONE`",
            "`BaselineReconciliation`:\n- `SourceCycle`: `old-20261001T120000Z-1234abcd` `Request`: `Old.`",
        );
    let rules = with_state(|_| exp.clone());
    assert!(rules.contains(&"ST-031") && !rules.contains(&"ST-032"));
}
