//! "Is this `.standards/` a fresh installation?" (D23): what a branch must
//! hold before it merges into the main branch, and what main must always hold.
//!
//! Fresh means: no `CONTEXT.md`, no `.standards/docs/`, a valid MODE.md, and a
//! STATE.md in the installed state of that mode with no cycle in it. STATE.md
//! is compared field by field, not byte for byte, so a template the Node
//! runtime wrote (or one re-wrapped by an editor) passes. User styles,
//! `config.toml` and every other unlisted file are allowed.

use crate::model::layout::{CONTEXT_PATH, DOCS_DIR, MODE_PATH, STANDARDS_DIR, STATE_PATH};
use crate::model::state::{Baseline, StateDoc};
use crate::model::tree::{Node, Text, Tree};
use crate::model::vocab::{
    CompletionPolicy, CycleMode, PendingCadence, ProjectMode, WorkflowState,
};

/// A cycle recorded in STATE.md.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CycleInfo {
    pub id: String,
    pub state: WorkflowState,
    /// Not yet signed off or cancelled.
    pub active: bool,
}

/// The verdict on one snapshot's `.standards/`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Freshness {
    /// No `.standards/` folder at all.
    Absent,
    /// A fresh installation of this mode.
    Fresh { mode: ProjectMode },
    /// Installed, with something a fresh installation does not hold.
    NotFresh {
        /// What differs, one sentence each, most important first.
        reasons: Vec<String>,
        /// The cycle STATE.md names, if it names one.
        cycle: Option<CycleInfo>,
        /// The workflow state, when STATE.md could be read.
        state: Option<WorkflowState>,
    },
}

impl Freshness {
    pub fn is_fresh(&self) -> bool {
        matches!(self, Freshness::Fresh { .. })
    }
}

/// The workflow state a fresh installation of `mode` starts in (RF §4.1, §4.2).
pub fn initial_state(mode: ProjectMode) -> WorkflowState {
    match mode {
        ProjectMode::Greenfield => WorkflowState::Scoping,
        ProjectMode::Brownfield => WorkflowState::Auditing,
    }
}

/// Judges `tree`'s `.standards/`.
pub fn judge(tree: &dyn Tree) -> Freshness {
    if matches!(tree.node(STANDARDS_DIR), Node::Missing) {
        return Freshness::Absent;
    }
    let mut reasons = Vec::new();
    let mut cycle = None;
    let mut state_value = None;
    let mode = match tree.text(MODE_PATH) {
        Text::Ok(text) => match crate::model::mode::parse(&text) {
            Ok(mode) => Some(mode),
            Err(e) => {
                reasons.push(format!("MODE.md is invalid ({e})"));
                None
            }
        },
        Text::Missing => {
            reasons.push("MODE.md is missing".into());
            None
        }
        Text::Unreadable(why) => {
            reasons.push(format!("MODE.md cannot be read: {why}"));
            None
        }
    };
    match tree.text(STATE_PATH) {
        Text::Ok(text) => match StateDoc::parse(&text) {
            Ok(doc) => {
                state_value = Some(doc.workflow_state.value);
                if doc.active_work.id.value != "UNSET" {
                    cycle = Some(CycleInfo {
                        id: doc.active_work.id.value.clone(),
                        state: doc.workflow_state.value,
                        active: doc.has_active_cycle(),
                    });
                }
                let differing = differing_fields(&doc, mode);
                if !differing.is_empty() {
                    reasons.insert(
                        0,
                        format!(
                            "STATE.md is not in the installed state: {}",
                            differing.join(", ")
                        ),
                    );
                }
            }
            Err(e) => reasons.insert(0, format!("STATE.md is invalid ({e})")),
        },
        Text::Missing => reasons.insert(0, "STATE.md is missing".into()),
        Text::Unreadable(why) => reasons.insert(0, format!("STATE.md cannot be read: {why}")),
    }
    if !matches!(tree.node(CONTEXT_PATH), Node::Missing) {
        reasons.push("it holds CONTEXT.md (the audited project context)".into());
    }
    if !matches!(tree.node(DOCS_DIR), Node::Missing) {
        reasons.push("it holds cycle records under .standards/docs/".into());
    }
    match (reasons.is_empty(), mode) {
        (true, Some(mode)) => Freshness::Fresh { mode },
        _ => Freshness::NotFresh {
            reasons,
            cycle,
            state: state_value,
        },
    }
}

/// `field is X, not Y` for each STATE.md field that differs from the fresh
/// template of `mode` (RF §4.2's list; the Handoff reason is free text and
/// not compared). Without a valid mode, the workflow state may be either
/// initial state.
fn differing_fields(doc: &StateDoc, mode: Option<ProjectMode>) -> Vec<String> {
    let mut out = Vec::new();
    let diff = |name: &str, actual: &str, expected: &str| {
        (actual != expected).then(|| format!("`{name}` is `{actual}`, not `{expected}`"))
    };
    let mut expect =
        |name: &str, actual: &str, expected: &str| out.extend(diff(name, actual, expected));
    let ws = doc.workflow_state.value;
    match mode {
        Some(mode) => expect("WorkflowState", ws.as_str(), initial_state(mode).as_str()),
        None if matches!(ws, WorkflowState::Scoping | WorkflowState::Auditing) => {}
        None => expect("WorkflowState", ws.as_str(), "SCOPING` or `AUDITING"),
    }
    let unset = CycleMode::Unset.as_str();
    expect("CycleMode", doc.cycle_mode.value.as_str(), unset);
    expect(
        "PendingCycleMode",
        doc.pending_cycle_mode.value.as_str(),
        unset,
    );
    expect(
        "PendingCycleRequest",
        &doc.pending_cycle_request.value,
        "UNSET",
    );
    expect(
        "PendingCycleBlockedOn",
        &doc.pending_cycle_blocked_on.value,
        "NONE",
    );
    let aw = &doc.active_work;
    expect("Id", &aw.id.value, "UNSET");
    expect("Request", &aw.request.value, "UNSET");
    expect(
        "CompletionPolicy",
        aw.completion_policy.value.as_str(),
        CompletionPolicy::None.as_str(),
    );
    for (name, value) in [
        ("Scope", &aw.scope.value),
        ("Architecture", &aw.architecture.value),
        ("Development", &aw.development.value),
        ("PromotionReason", &aw.promotion_reason.value),
        ("AuditTarget", &aw.audit_target.value),
        ("BlockedOn", &aw.blocked_on.value),
    ] {
        expect(name, value, "NONE");
    }
    expect(
        "PendingVerificationCadence",
        aw.pending_verification_cadence.value.as_str(),
        PendingCadence::None.as_str(),
    );
    expect("Handoff.Kind", &doc.handoff.kind.value, "INITIAL");
    expect("Handoff.From", &doc.handoff.from.value, "NONE");
    expect(
        "Handoff.FailureType",
        &doc.handoff.failure_type.value,
        "NONE",
    );
    if !matches!(doc.active_work.baseline, Baseline::None) {
        out.push("`BaselineReconciliation` is not `NONE`".into());
    }
    for (name, stack) in [
        ("Recovery", &doc.recovery),
        ("Outstanding Obligations", &doc.obligations),
    ] {
        if stack.active.value {
            out.push(format!("`{name}.Active` is `true`, not `false`"));
        }
        if !stack.entries.is_empty() {
            out.push(format!("{name} holds {} entries", stack.entries.len()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::testing::installed_tree;
    use crate::model::state::fresh_template;
    use crate::model::tree::MemTree;

    fn not_fresh(tree: &MemTree) -> (Vec<String>, Option<CycleInfo>) {
        match judge(tree) {
            Freshness::NotFresh { reasons, cycle, .. } => (reasons, cycle),
            other => panic!("expected not fresh, got {other:?}"),
        }
    }

    fn set(text: &str, name: &str, value: &str) -> String {
        let found = crate::model::fields::scan(text);
        let f = crate::model::fields::first(&found, name).unwrap();
        format!("{}`{value}`{}", &text[..f.span.start], &text[f.span.end..])
    }

    #[test]
    fn a_new_install_of_either_mode_is_fresh() {
        for mode in ProjectMode::ALL {
            assert_eq!(
                judge(&installed_tree(*mode)),
                Freshness::Fresh { mode: *mode }
            );
        }
    }

    #[test]
    fn no_standards_folder_is_absent() {
        assert_eq!(
            judge(&MemTree::new().with("README.md", "x")),
            Freshness::Absent
        );
    }

    #[test]
    fn a_node_written_template_passes_field_by_field() {
        // Same fields, different layout: CRLF line ends, fields re-wrapped, another reason.
        let text = fresh_template(ProjectMode::Brownfield)
            .replace(
                "`CycleMode`: `UNSET` `PendingCycleMode`",
                "`CycleMode`: `UNSET`\n`PendingCycleMode`",
            )
            .replace(
                "Initial brownfield workflow state",
                "Fresh brownfield state",
            )
            .replace('\n', "\r\n");
        let mut tree = installed_tree(ProjectMode::Brownfield);
        tree.insert(STATE_PATH, &text);
        assert!(judge(&tree).is_fresh(), "{:?}", judge(&tree));
    }

    #[test]
    fn user_styles_config_and_other_files_are_allowed() {
        let mut tree = installed_tree(ProjectMode::Greenfield);
        tree.insert(".standards/user-styles/developer/terse.md", "# Terse\n");
        tree.insert(".standards/config.toml", "main-branch = \"main\"\n");
        tree.insert(".standards/NOTES.txt", "x");
        assert!(judge(&tree).is_fresh());
    }

    #[test]
    fn context_docs_and_each_state_field_are_named() {
        let mut tree = installed_tree(ProjectMode::Brownfield);
        tree.insert(CONTEXT_PATH, "# Context\n");
        tree.insert(".standards/docs/scope/c-1.md", "x");
        let (reasons, cycle) = not_fresh(&tree);
        assert_eq!(reasons.len(), 2, "{reasons:?}");
        assert!(reasons[0].contains("CONTEXT.md") && reasons[1].contains("docs"));
        assert_eq!(cycle, None);

        let template = fresh_template(ProjectMode::Brownfield);
        for (field, value) in [
            ("BlockedOn", "A question"),
            ("PendingCycleMode", "STANDARD"),
            ("Scope", ".standards/docs/scope/x.md"),
            ("Kind", "FORWARD"),
            ("BaselineReconciliation", "x"),
        ] {
            let mut tree = installed_tree(ProjectMode::Brownfield);
            tree.insert(STATE_PATH, set(&template, field, value));
            let (reasons, _) = not_fresh(&tree);
            assert!(reasons[0].contains(field), "{field}: {reasons:?}");
        }
    }

    #[test]
    fn the_mode_decides_the_initial_state() {
        let mut tree = installed_tree(ProjectMode::Greenfield);
        tree.insert(STATE_PATH, fresh_template(ProjectMode::Brownfield));
        let (reasons, _) = not_fresh(&tree);
        assert!(
            reasons[0].contains("`WorkflowState` is `AUDITING`, not `SCOPING`"),
            "{reasons:?}"
        );
    }

    #[test]
    fn a_finished_cycle_is_named_with_its_state() {
        let mut text = fresh_template(ProjectMode::Brownfield);
        text = set(&text, "WorkflowState", "SIGNED_OFF");
        text = set(&text, "Id", "c-1");
        text = set(&text, "Request", "Add login");
        text = set(&text, "Kind", "SIGNOFF");
        let mut tree = installed_tree(ProjectMode::Brownfield);
        tree.insert(STATE_PATH, text);
        let (_, cycle) = not_fresh(&tree);
        assert_eq!(
            cycle,
            Some(CycleInfo {
                id: "c-1".into(),
                state: WorkflowState::SignedOff,
                active: false
            })
        );
    }

    #[test]
    fn broken_or_missing_files_are_not_fresh() {
        let mut tree = installed_tree(ProjectMode::Brownfield);
        tree.insert(STATE_PATH, "<<<<<<< ours\n");
        assert!(not_fresh(&tree).0[0].contains("STATE.md is invalid"));
        let mut tree = installed_tree(ProjectMode::Brownfield);
        tree.remove(MODE_PATH);
        assert!(not_fresh(&tree)
            .0
            .iter()
            .any(|r| r.contains("MODE.md is missing")));
        let tree = MemTree::new().with(".standards/config.toml", "");
        assert!(not_fresh(&tree).0[0].contains("STATE.md is missing"));
    }
}
