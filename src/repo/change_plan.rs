//! The one conversion of a [`ChangePlan`] into the journal's changes (D22):
//! every writing command that plans with the core's change plan lands it
//! through here, in the plan's order.

use standards_core::setup::change::{ChangePlan, Step};

use super::journal::Change;

/// The plan's writes and removals as journal changes, in order; kept and
/// left files are no change.
pub fn journal_changes(plan: &ChangePlan) -> Vec<Change> {
    plan.steps
        .iter()
        .filter_map(|step| match step {
            Step::Create { path, content } | Step::Replace { path, content } => {
                Some(Change::write(path.clone(), content.as_bytes()))
            }
            Step::Remove { path } => Some(Change::remove(path.clone())),
            Step::Keep { .. } | Step::Leave { .. } => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_and_removals_become_changes_in_order() {
        let plan: ChangePlan = [
            Step::Keep { path: "k".into() },
            Step::remove("d"),
            Step::Leave { path: "l".into() },
            Step::put("w", "x".into(), Some(b"y")),
        ]
        .into_iter()
        .collect();
        let changes = journal_changes(&plan);
        assert_eq!(changes.len(), 2);
        assert!(matches!(&changes[0], Change::Remove { path } if path == "d"));
        assert!(
            matches!(&changes[1], Change::Write { path, content } if path == "w" && content == b"x")
        );
    }
}
