//! SO-001 in `verify` (issue 26): a commit whose first parent holds a
//! signed-off cycle may change nothing the sign-off covered, up to the reset
//! commit. The decision is `standards_core::check::after_signoff`'s; this
//! reads the two STATE.md texts and the paths the commit changed.

use crate::error::Result;
use crate::repo::{agent, ObjectTree, Project};
use standards_core::check::{after_signoff, Problem};
use standards_core::model::layout::STATE_PATH;
use standards_core::model::tree::{Text, Tree};

/// The SO-001 problem of commit `id` (first parent `parent_id`, whose
/// project snapshot is `parent`) for the project folder `dir`, if any.
pub fn problems(
    project: &Project,
    parent_id: crate::repo::ObjectId,
    parent: &ObjectTree,
    id: crate::repo::ObjectId,
    tree: &ObjectTree,
    dir: &str,
) -> Result<Vec<Problem>> {
    let Text::Ok(before) = parent.text(STATE_PATH) else {
        return Ok(Vec::new());
    };
    // Cheap first: only a signed-off parent can give a problem.
    if !before.contains("SIGNED_OFF") {
        return Ok(Vec::new());
    }
    let now = match tree.text(STATE_PATH) {
        Text::Ok(t) => Some(t),
        _ => None,
    };
    let changed = agent::changed_paths(project, parent_id, id, dir)?;
    Ok(after_signoff::check(&before, now.as_deref(), &changed)
        .into_iter()
        .collect())
}
