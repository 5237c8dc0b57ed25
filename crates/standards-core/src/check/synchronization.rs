//! SY: the synchronization record (`Artifact: SYNCHRONIZATION`, fixed path
//! `.standards/docs/synchronization/<id>.md`, local prefix `D`).
//!
//! The catalogue defines no rule of its own for this record: it is held by the
//! rules every record shares — PV-001..PV-008 (provenance and placement),
//! RH-001..RH-009 (header; bare `D` mentions need `### D-NNN` entries, `F` and
//! `DOC` mentions must be qualified), AC-010 (coverage once `SYNCHRONIZING` is
//! passed) — and by the completion procedure in `completion.rs`: CP-001/CP-002
//! as a required record, CP-003 after a direct return from `SYNCHRONIZING` to
//! sign-off under `IMPLEMENTATION_REVIEWED`, and in DOCUMENTATION cycles CP-005
//! as a corrective-return source and CP-006 after a `RESUME` from
//! `SYNCHRONIZING`. This module therefore registers no rule; its tests pin
//! those obligations on the synchronization record.

#[cfg(test)]
mod tests {
    use super::super::fixtures::*;

    fn cp(tree: &crate::model::tree::MemTree) -> Vec<(&'static str, String)> {
        problems_with_prefix(tree, "CP")
    }

    fn sync_status(tree: crate::model::tree::MemTree, status: &str) -> crate::model::tree::MemTree {
        let status = status.to_string();
        edit(tree, &doc_path("synchronization"), move |s| {
            set_field(&s, "Status", &status)
        })
    }

    #[test]
    fn required_in_full_deliverable_and_documentation_cycles() {
        let sync = format!(".standards/docs/synchronization/{GREEN_ID}.md");
        let mut t = f_life_green();
        t.remove(&sync);
        assert_eq!(cp(&t), [("CP-001", sync.clone())]);
        let t = edit(f_life_green(), &sync, |s| {
            set_field(&s, "Status", "BLOCKED")
        });
        assert_eq!(cp(&t), [("CP-002", sync)]);
        let t = sync_status(f_doc(), "IN_PROGRESS");
        assert_eq!(cp(&t), [("CP-002", doc_path("synchronization"))]);
    }

    #[test]
    fn direct_return_from_synchronizing_under_the_shorter_policy() {
        // SC-POL-056/057/058
        let sync = std_path("synchronization");
        let t = state(f_ir(), &[("Kind", "RESUME"), ("From", "SYNCHRONIZING")]);
        assert_eq!(cp(&t), [("CP-003", sync.clone())]);
        let record = format!(
            "<!-- STANDARDS\nArtifact: SYNCHRONIZATION\nCycle: {STD_ID}\n-->\n\n# Synchronization Record\n\n`Cycle`: `{STD_ID}` `Status`: `IN_PROGRESS`\n`User Style`: `NONE`\n\nAC-001 and AC-002 reconciled.\n"
        );
        let mut t = t;
        t.insert(&sync, &record);
        assert_eq!(cp(&t), [("CP-003", sync.clone())]);
        t.insert(&sync, record.replace("`IN_PROGRESS`", "`COMPLETE`"));
        assert_eq!(cp(&t), []);
    }

    #[test]
    fn corrective_return_and_resume_from_synchronizing() {
        // SC-DOC-051..053: a corrective return may leave the record IN_PROGRESS,
        // but not remove it.
        let t = state(
            sync_status(f_doc(), "IN_PROGRESS"),
            &[
                ("WorkflowState", "REVIEWING_FINAL"),
                ("Kind", "RESUME"),
                ("From", "SYNCHRONIZING"),
            ],
        );
        let t = edit(t, &doc_final_review(), |s| {
            set_field(&s, "Status", "IN_PROGRESS")
        });
        assert_eq!(cp(&t), []);
        let mut gone = t.clone();
        gone.remove(&doc_path("synchronization"));
        assert_eq!(cp(&gone), [("CP-005", doc_path("synchronization"))]);
        // SC-DOC-055: RESUME from SYNCHRONIZING into sign-off readiness needs it COMPLETE.
        let t = state(
            sync_status(f_doc(), "IN_PROGRESS"),
            &[("Kind", "RESUME"), ("From", "SYNCHRONIZING")],
        );
        assert_eq!(cp(&t), [("CP-002", doc_path("synchronization"))]);
    }
}
