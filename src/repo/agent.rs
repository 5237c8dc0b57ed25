//! What the agent hooks and the person-bound sign-off (issue 26) read from
//! git: the prompt-recording setting, a cycle's stored events, and the tree
//! IDs a sign-off binds itself to.

use crate::error::Error;
use crate::repo::notes::{self, Anchor};
use crate::repo::Project;
use standards_core::setup::agent_hooks::RECORD_PROMPTS_KEY;

/// git config `standards.recordPrompts` (a boolean as git reads it; unset,
/// or a value that is not a boolean, is off).
pub fn record_prompts(project: &Project) -> bool {
    project
        .repo
        .config_snapshot()
        .boolean(RECORD_PROMPTS_KEY)
        .unwrap_or(false)
}

/// The events stored on the cycle's anchor, as JSON objects (a line that is
/// not one is skipped: `log` reports those).
pub fn cycle_events(project: &Project, cycle: &str) -> Result<Vec<serde_json::Value>, Error> {
    let Some(note) = notes::read_anchor(&project.repo, &Anchor::for_cycle(Some(cycle)))? else {
        return Ok(Vec::new());
    };
    Ok(String::from_utf8_lossy(&note.text)
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v.is_object())
        .collect())
}

/// The content a sign-off is bound to: HEAD's tree for the project folder
/// and for its `.standards/docs/` (`None` where there is none), and whether
/// the working tree differs from HEAD anywhere in the project.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bound {
    pub commit: Option<String>,
    pub project_tree: Option<String>,
    pub docs_tree: Option<String>,
    pub uncommitted: bool,
}

/// Reads [`Bound`] for the project.
pub fn bound(project: &Project) -> Result<Bound, Error> {
    let git = |what: &str, e: &dyn std::fmt::Display| Error::Internal(format!("{what}: {e}"));
    let head = project.repo.head_id().ok().map(|id| id.detach());
    let mut out = Bound {
        commit: head.map(|h| h.to_string()),
        project_tree: None,
        docs_tree: None,
        uncommitted: project.has_changes(&|_| true).unwrap_or(true),
    };
    let Some(head) = head else {
        return Ok(out);
    };
    let tree = project
        .repo
        .find_commit(head)
        .map_err(|e| git("cannot read HEAD", &e))?
        .tree()
        .map_err(|e| git("cannot read HEAD's tree", &e))?;
    let at = |path: &str| -> Result<Option<String>, Error> {
        if path.is_empty() {
            return Ok(Some(tree.id.to_string()));
        }
        Ok(tree
            .lookup_entry_by_path(path)
            .map_err(|e| git("cannot read HEAD's tree", &e))?
            .filter(|e| e.mode().is_tree())
            .map(|e| e.object_id().to_string()))
    };
    let root = project.root_in_repo.trim_end_matches('/');
    let docs = if root.is_empty() {
        ".standards/docs".to_string()
    } else {
        format!("{root}/.standards/docs")
    };
    out.project_tree = at(root)?;
    out.docs_tree = at(&docs)?;
    Ok(out)
}
