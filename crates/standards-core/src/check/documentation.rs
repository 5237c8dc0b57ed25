//! DC: the documentation record (`Artifact: DOCUMENTATION`, fixed path
//! `.standards/docs/documentation/<id>.md`, local prefix `DOC`).
//!
//! The record is also subject to PV-001..PV-008, RH-001..RH-009, AC-010
//! (completing state `DOCUMENTING`) and CP-001/CP-002/CP-005/CP-006; only the
//! rules below are specific to it.

use crate::model::vocab::{ArtifactType, CycleMode, HandoffKind, IdPrefix, WorkflowState};
use crate::records::record::entry_headings;

use super::context::DOCUMENTATION_PHASES;
use super::{Cx, RuleInfo, Sink};

pub const RULES: &[RuleInfo] = &[
    RuleInfo::rule("DC-001", "Documentation entries use DOC numbering"),
    // DC-002 reports nothing of its own: it narrows CP-002, which asks it
    // through [`status_exempt`] (completion.rs).
    RuleInfo::precondition("DC-002", "Documentation status exemption"),
];

pub fn check(cx: &Cx, sink: &mut Sink) {
    if cx.active_id().is_none() {
        return;
    }
    for record in cx
        .own_records()
        .filter(|r| r.artifact() == ArtifactType::Documentation)
    {
        synchronization_numbering(&record.path, &record.text, sink);
    }
}

/// DC-001: a documentation record numbers its entries `DOC-NNN`; a
/// `### D-NNN` heading is synchronization numbering (entry headings are found
/// as the catalogue defines them, check-rules §1.8, not fence-aware).
fn synchronization_numbering(path: &str, text: &str, sink: &mut Sink) {
    let mut found: Vec<String> = Vec::new();
    for id in entry_headings(text, IdPrefix::D) {
        if !found.contains(&id) {
            found.push(id);
        }
    }
    if found.is_empty() {
        return;
    }
    let list = found
        .iter()
        .map(|id| format!("`### {id}`"))
        .collect::<Vec<_>>()
        .join(", ");
    sink.push_hinted(
        "DC-001",
        path.to_string(),
        format!(
            "the documentation record defines {list}; `D-NNN` entries belong to the synchronization record, documentation entries are numbered `DOC-NNN`"
        ),
        Some(format!(
            "Documenter: renumber each entry with `git standards id next DOC {path}` and update references to it"
        )),
    );
}

/// DC-002: whether a *required* documentation record need only exist, not be
/// `COMPLETE`. True when `WorkflowState` is not `AWAITING_USER_SIGNOFF` and
/// either the cycle is not a `DOCUMENTATION` cycle, or the handoff is a
/// `RESUME`, `FAILURE` or `USER_REWORK` while the state is a DOCUMENTATION
/// phase. So a STANDARD cycle's documentation record must be `COMPLETE` only at
/// sign-off readiness, while a DOCUMENTATION cycle's `FORWARD` past
/// `DOCUMENTING` requires it.
pub fn status_exempt(cx: &Cx) -> bool {
    cx.doc().is_some_and(|doc| {
        status_exempt_in(
            doc.cycle_mode.value,
            doc.workflow_state.value,
            doc.handoff.kind(),
        )
    })
}

/// [`status_exempt`] on the values it reads: the cycle mode, the workflow
/// state and the handoff kind (`None` when it is not a valid kind).
pub fn status_exempt_in(mode: CycleMode, ws: WorkflowState, kind: Option<HandoffKind>) -> bool {
    if ws == WorkflowState::AwaitingUserSignoff {
        return false;
    }
    mode != CycleMode::Documentation
        || (matches!(
            kind,
            Some(HandoffKind::Resume | HandoffKind::Failure | HandoffKind::UserRework)
        ) && DOCUMENTATION_PHASES.contains(&ws))
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::*;
    use super::super::Cx;
    use super::status_exempt;
    use crate::check::{Options, Sink};
    use crate::model::tree::MemTree;

    fn exempt(tree: &MemTree) -> bool {
        let mut sink = Sink::default();
        let cx = Cx::new(tree, None, Options::default(), &mut sink);
        status_exempt(&cx)
    }

    #[test]
    fn f_doc_is_clean() {
        assert_eq!(rules_with_prefix(&f_doc(), "DC"), Vec::<&str>::new());
    }

    #[test]
    fn dc_001_synchronization_numbering() {
        let t = edit(f_doc(), &doc_path("documentation"), |s| {
            format!("{s}\n## Discrepancies, Dependencies, and Remaining Work\n\n### D-001 — Stale example\n\n### D-001 — again\n")
        });
        let found = problems_with_prefix(&t, "DC");
        assert_eq!(found, [("DC-001", doc_path("documentation"))]);
        // DOC entries and D mentions that are not headings are fine here.
        let t = edit(f_doc(), &doc_path("documentation"), |s| {
            format!("{s}\n### DOC-001 — Stale example\n\nSee D-001 and #### D-002.\n")
        });
        assert_eq!(rules_with_prefix(&t, "DC"), Vec::<&str>::new());
    }

    #[test]
    fn dc_002_exemption() {
        // Sign-off readiness never exempts.
        assert!(!exempt(&f_doc()));
        assert!(!exempt(&f_ir()));
        // A STANDARD cycle before sign-off readiness is exempt.
        assert!(exempt(&f_std()));
        // DOCUMENTATION: FORWARD past DOCUMENTING requires COMPLETE ...
        let t = state(
            f_doc(),
            &[
                ("WorkflowState", "REVIEWING_FINAL"),
                ("From", "DOCUMENTING"),
            ],
        );
        assert!(!exempt(&t));
        // ... while RESUME, FAILURE and USER_REWORK within the route do not.
        for kind in ["RESUME", "FAILURE", "USER_REWORK"] {
            let t = state(
                f_doc(),
                &[("WorkflowState", "REVIEWING_FINAL"), ("Kind", kind)],
            );
            assert!(exempt(&t), "{kind}");
        }
    }
}
