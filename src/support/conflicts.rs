//! The one guard every writing command calls first: no workflow file is
//! written while `.standards/` is in conflict (issue 10, D15), and the
//! refusal leaves a `conflict-refused` audit event (D20: after the outcome).

use crate::commands::Context;
use crate::error::Result;
use crate::repo::conflicts;
use crate::repo::Project;
use crate::support::audit;
use standards_core::audit::{Event, EventKind};

/// Refuses (naming both sides' cycles) while `.standards/` holds unresolved
/// conflicts or an operation that changes it is in progress. `command` names
/// the refusing command in the audit event, e.g. `"cycle new"`.
pub fn refuse_during_conflict(ctx: &mut Context, project: &Project, command: &str) -> Result<()> {
    let state = conflicts::detect(project)?;
    let Some(refusal) = conflicts::refusal(&state) else {
        // Every writer passes here: the clone gets its merge driver (issue 22).
        return crate::commands::hooks::register_driver_if_named(ctx, project);
    };
    let paths: Vec<String> = state.conflicts.iter().map(|c| c.path.clone()).collect();
    let cycles: Vec<String> = state
        .conflicts
        .iter()
        .flat_map(|c| c.cycles.iter().cloned())
        .fold(Vec::new(), |mut all, id| {
            if !all.contains(&id) {
                all.push(id);
            }
            all
        });
    let mut event = Event::new(EventKind::ConflictRefused)
        .detail("command", command)
        .detail("reason", refusal.to_string())
        .detail("rule", "D15")
        .detail("paths", paths)
        .detail("cycles", cycles.clone())
        .detail(
            "operation",
            state.in_progress.as_ref().map(|p| p.operation.slug()),
        );
    if let Some(first) = cycles.first() {
        event = event.cycle(first.as_str());
    }
    audit::append_after(ctx, project, event);
    Err(refusal)
}
