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

/// The paths of the project folder `dir` (repository-relative, `""` at the
/// top) that differ between the trees of commits `old` and `new`, relative
/// to the folder: identical subtrees are skipped by their object IDs, so
/// the cost follows the change, not the repository.
pub fn changed_paths(
    project: &Project,
    old: gix::ObjectId,
    new: gix::ObjectId,
    dir: &str,
) -> Result<Vec<String>, Error> {
    diff_trees(
        project,
        folder_tree(project, old, dir)?,
        folder_tree(project, new, dir)?,
    )
}

/// The tree of the project folder `dir` in commit `commit` (`None` where
/// the commit has no such folder).
pub fn folder_tree(
    project: &Project,
    commit: gix::ObjectId,
    dir: &str,
) -> Result<Option<gix::ObjectId>, Error> {
    let git = |e: &dyn std::fmt::Display| Error::Internal(format!("cannot read a tree: {e}"));
    let tree = project
        .repo
        .find_commit(commit)
        .map_err(|e| git(&e))?
        .tree()
        .map_err(|e| git(&e))?;
    if dir.is_empty() {
        return Ok(Some(tree.id));
    }
    Ok(tree
        .lookup_entry_by_path(dir)
        .map_err(|e| git(&e))?
        .filter(|e| e.mode().is_tree())
        .map(|e| e.object_id()))
}

/// The object named by the hexadecimal ID `hex` when the repository holds
/// it as a `kind` ("tree" or "commit"): what a recorded event names may be
/// gone (never fetched, or pruned).
pub fn stored(project: &Project, hex: &str, kind: &str) -> Option<gix::ObjectId> {
    let id = gix::ObjectId::from_hex(hex.as_bytes()).ok()?;
    let object = project.repo.find_header(id).ok()?;
    (object.kind().to_string() == kind).then_some(id)
}

/// Those of `paths` (relative to the trees) whose file differs between the
/// trees `a` and `b` (`None`: no tree): a blob in one and not the other, or
/// two different blobs; the same answer as keeping the `paths` that
/// [`diff_trees`] lists, at the cost of looking up `paths` alone, not of
/// walking two trees that may differ everywhere (a tree recorded in another
/// repository).
pub fn differing_paths(
    project: &Project,
    a: Option<gix::ObjectId>,
    b: Option<gix::ObjectId>,
    paths: Vec<String>,
) -> Result<Vec<String>, Error> {
    if a == b {
        return Ok(Vec::new());
    }
    let repo = &project.repo;
    let git = |e: &dyn std::fmt::Display| Error::Internal(format!("cannot read a tree: {e}"));
    let tree = |id: Option<gix::ObjectId>| -> Result<Option<gix::Tree<'_>>, Error> {
        id.map(|id| repo.find_tree(id).map_err(|e| git(&e)))
            .transpose()
    };
    let (ta, tb) = (tree(a)?, tree(b)?);
    let blob = |t: &Option<gix::Tree<'_>>, path: &str| -> Result<Option<gix::ObjectId>, Error> {
        let Some(t) = t else { return Ok(None) };
        Ok(t.lookup_entry_by_path(path)
            .map_err(|e| git(&e))?
            .filter(|e| !e.mode().is_tree())
            .map(|e| e.object_id()))
    };
    let mut out = Vec::new();
    for path in paths {
        if blob(&ta, &path)? != blob(&tb, &path)? {
            out.push(path);
        }
    }
    Ok(out)
}

/// The paths that differ between the trees `a` and `b` (`None`: no tree),
/// relative to them.
pub fn diff_trees(
    project: &Project,
    a: Option<gix::ObjectId>,
    b: Option<gix::ObjectId>,
) -> Result<Vec<String>, Error> {
    let repo = &project.repo;
    let git = |e: &dyn std::fmt::Display| Error::Internal(format!("cannot read a tree: {e}"));
    type Entries = std::collections::BTreeMap<String, (gix::ObjectId, bool)>;
    let entries = |id: Option<gix::ObjectId>| -> Result<Entries, Error> {
        let mut out = Entries::new();
        let Some(id) = id else {
            return Ok(out);
        };
        let tree = repo.find_tree(id).map_err(|e| git(&e))?;
        for entry in tree.iter() {
            let entry = entry.map_err(|e| git(&e))?;
            out.insert(
                entry.filename().to_string(),
                (entry.object_id(), entry.mode().is_tree()),
            );
        }
        Ok(out)
    };
    fn walk(
        entries: &dyn Fn(Option<gix::ObjectId>) -> Result<Entries, Error>,
        a: Option<gix::ObjectId>,
        b: Option<gix::ObjectId>,
        prefix: &str,
        out: &mut Vec<String>,
    ) -> Result<(), Error> {
        if a == b {
            return Ok(());
        }
        let (ea, eb) = (entries(a)?, entries(b)?);
        let names: std::collections::BTreeSet<&String> = ea.keys().chain(eb.keys()).collect();
        for name in names {
            let (x, y) = (ea.get(name), eb.get(name));
            if x == y {
                continue;
            }
            let path = format!("{prefix}{name}");
            let tree = |e: Option<&(gix::ObjectId, bool)>| e.filter(|e| e.1).map(|e| e.0);
            let (ta, tb) = (tree(x), tree(y));
            if ta.is_some() || tb.is_some() {
                walk(entries, ta, tb, &format!("{path}/"), out)?;
            }
            let blob = |e: Option<&(gix::ObjectId, bool)>| e.filter(|e| !e.1).map(|e| e.0);
            if blob(x) != blob(y) {
                out.push(path);
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    walk(&entries, a, b, "", &mut out)?;
    Ok(out)
}
