//! SO-001 in `verify` (issue 26): a commit whose first parent holds a
//! signed-off cycle may change nothing the sign-off covered, up to the reset
//! commit; and the commit that records the sign-off may bring nothing but
//! the sign-off, held against the content the `signed-off` event recorded.
//! The decisions are `standards_core::check::after_signoff`'s; this reads the
//! two STATE.md texts, the recorded event and the paths that differ.

use serde_json::Value;

use crate::error::Result;
use crate::repo::{agent, history, ObjectId, ObjectTree, Project};
use standards_core::check::{after_signoff, Problem};
use standards_core::model::layout::STATE_PATH;
use standards_core::model::tree::{Text, Tree};

/// The SO-001 problems of commit `id` (first parent `parent_id`, whose
/// project snapshot is `parent`) for the project folder `dir`.
pub fn problems(
    project: &Project,
    parent_id: ObjectId,
    parent: &ObjectTree,
    id: ObjectId,
    tree: &ObjectTree,
    dir: &str,
) -> Result<Vec<Problem>> {
    let text = |t: &ObjectTree| match t.text(STATE_PATH) {
        Text::Ok(t) => Some(t),
        _ => None,
    };
    let (before, now) = (text(parent), text(tree));
    let mut out = Vec::new();
    // Cheap first: only a signed-off STATE.md can give a problem.
    if let Some(before) = before.as_deref().filter(|b| b.contains("SIGNED_OFF")) {
        let changed = agent::changed_paths(project, parent_id, id, dir)?;
        out.extend(after_signoff::check(before, now.as_deref(), &changed));
    }
    let Some(now) = now.as_deref() else {
        return Ok(out);
    };
    if now.contains("SIGNED_OFF") && before.as_deref() != Some(now) {
        if let Some(cycle) = after_signoff::signed_off_in(before.as_deref(), now) {
            out.extend(signoff_commit(project, &cycle, parent_id, id, dir)?);
            return Ok(out);
        }
    }
    if now.contains("AWAITING_USER_SIGNOFF") {
        if let Some(cycle) = after_signoff::awaiting_in(now) {
            out.extend(before_its_commit(project, &cycle, parent_id, id, dir)?);
        }
    }
    Ok(out)
}

/// The tree and the commit (each where the repository holds it) that the
/// latest `signed-off` event of `cycle` recorded: HEAD's at sign-off.
fn recorded(project: &Project, cycle: &str) -> Result<(Option<ObjectId>, Option<ObjectId>)> {
    let events = agent::cycle_events(project, cycle)?;
    let event = events
        .iter()
        .rfind(|e| e.get("event").and_then(Value::as_str) == Some("signed-off"));
    let at = |key: &str, kind: &str| {
        event
            .and_then(|e| e["bound"][key].as_str())
            .and_then(|hex| agent::stored(project, hex, kind))
    };
    Ok((at("project_tree", "tree"), at("commit", "commit")))
}

/// SO-001 for commit `id`, which records the sign-off of `cycle`: what the
/// commit itself changes (against its parent) where it also differs from
/// the project tree the cycle's latest `signed-off` event recorded (a change
/// committed with the sign-off, amended or folded into it, or staged before
/// it). Only the commit's own changes, so that a rebase onto a newer main
/// does not blame the new base's changes on it. Without the event (the
/// notes not fetched) or its tree, against the parent alone: the sign-off
/// move writes STATE.md alone.
fn signoff_commit(
    project: &Project,
    cycle: &str,
    parent_id: ObjectId,
    id: ObjectId,
    dir: &str,
) -> Result<Option<Problem>> {
    let own = agent::changed_paths(project, parent_id, id, dir)?;
    let Some(signed) = recorded(project, cycle)?.0 else {
        return Ok(after_signoff::check_signoff_commit(
            cycle,
            &own,
            "in the commit that records the sign-off, against its parent: no `signed-off` event with a stored tree is at hand",
        ));
    };
    // Only the commit's own paths are compared: the recorded tree may come
    // from another repository and differ from this one everywhere.
    let changed = agent::differing_paths(
        project,
        Some(signed),
        agent::folder_tree(project, id, dir)?,
        own,
    )?;
    let short = signed.to_string();
    Ok(after_signoff::check_signoff_commit(
        cycle,
        &changed,
        &format!(
            "in the commit that records the sign-off, against the project tree `{}` the `signed-off` event recorded",
            &short[..12.min(short.len())]
        ),
    ))
}

/// SO-001 for commit `id`, whose STATE.md holds `cycle` still awaiting
/// sign-off: when it was built on the commit the cycle's latest sign-off
/// was bound to (HEAD at sign-off), it was made after the sign-off and
/// before the commit that records it, and its own changes were not signed
/// off.
fn before_its_commit(
    project: &Project,
    cycle: &str,
    parent_id: ObjectId,
    id: ObjectId,
    dir: &str,
) -> Result<Option<Problem>> {
    let Some(at_signoff) = recorded(project, cycle)?.1.filter(|c| *c != id) else {
        return Ok(None);
    };
    let after = history::merge_base(project, at_signoff, id)
        .ok()
        .flatten()
        .is_some_and(|b| b == at_signoff);
    if !after {
        return Ok(None);
    }
    let own = agent::changed_paths(project, parent_id, id, dir)?;
    Ok(after_signoff::check_signoff_commit(
        cycle,
        &own,
        "committed after the sign-off, before the commit that records it",
    ))
}
