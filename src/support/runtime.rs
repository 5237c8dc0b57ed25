//! What the runtime tools (`cycle`, `artifact`, `id`) share: locating an
//! installed project (RT §1.1, decision D1) and reading STATE.md the way
//! `check` reads it (RT §1.3, decisions D12 and D15).

use std::path::{Path, PathBuf};

use crate::error::{Error, Result, SubProject};
use crate::repo::{journal, projects, Project, WorktreeTree};
use crate::support::paths::PathView;
use standards_core::model::layout::{
    MARKER, PROTOCOL_PATH, SCAN_SKIPPED, STANDARDS_DIR, STATE_PATH,
};
use standards_core::model::state::StateDoc;
use standards_core::model::tree::{obstacle, Node, Obstacle, Text, Tree};
use standards_core::workflow::conflicts;

/// An installed project and its working-tree snapshot.
pub struct Runtime {
    pub project: Project,
    /// Absolute project root (the folder holding `.standards/`).
    pub root: PathBuf,
    pub tree: WorktreeTree,
}

/// Discovers the project from `cwd` and requires an installed runtime: a
/// `.standards/PROTOCOL.md` that carries the framework marker.
pub fn open(cwd: &std::path::Path) -> Result<Runtime> {
    open_for(cwd, None)
}

/// [`open`] for a command that, run at the top of a repository whose projects
/// live in subfolders, names them with the `git standards -C <folder>
/// <command>` to run instead ([`projects_elsewhere`]).
pub fn open_for(cwd: &std::path::Path, command: Option<&str>) -> Result<Runtime> {
    let project = Project::discover(cwd)?;
    project.require_workdir()?;
    open_project(cwd, project, command)
}

/// [`open_for`] for a command that writes: takes the worktree's workflow lock
/// for `operation` before anything of `.standards/` is read, and hands it
/// back to be held until the command's last write (issue 21: two writers
/// never both act on the same old state).
pub fn open_locked(
    cwd: &std::path::Path,
    command: Option<&str>,
    operation: &str,
) -> Result<(Runtime, journal::OperationLock)> {
    let project = Project::discover(cwd)?;
    project.require_workdir()?;
    let lock = journal::lock(&project, operation)?;
    Ok((open_project(cwd, project, command)?, lock))
}

fn open_project(cwd: &std::path::Path, project: Project, command: Option<&str>) -> Result<Runtime> {
    let root = project.root().to_path_buf();
    let tree = project.worktree()?;
    require_installed_in(&project, &tree).map_err(|e| match command {
        Some(command) => projects_elsewhere(cwd, &project, Snapshot::Worktree, command, e),
        None => e,
    })?;
    refuse_missing_state(&project, &tree)?;
    Ok(Runtime {
        project,
        root,
        tree,
    })
}

/// Refuses when the working tree lacks STATE.md, with the hint that brings
/// it back from where git holds it (or `install`, when git holds no copy), as
/// `check` says for RT-001. (A missing MODE.md is a problem `status` lists.)
pub fn refuse_missing_state(project: &Project, tree: &dyn Tree) -> Result<()> {
    use standards_core::check::runtime::{has_records, missing_file_hint, HeldBy, Snapshot};
    for path in [STATE_PATH] {
        if !matches!(tree.node(path), Node::Missing) {
            continue;
        }
        let held = if project.index()?.exists(path) {
            HeldBy::Index
        } else if project.head()?.is_some_and(|h| h.exists(path)) {
            HeldBy::Head
        } else {
            HeldBy::Nothing
        };
        return Err(Error::refused(
            format!("`{path}` is missing, so the STANDARDS runtime is incomplete"),
            Some(missing_file_hint(
                path,
                Snapshot::Worktree,
                held,
                has_records(tree),
            )),
        ));
    }
    Ok(())
}

/// Where the runtime is committed (`"the index"` or `"HEAD"`) when the
/// working tree lacks `.standards/PROTOCOL.md`.
pub fn committed_runtime(project: &Project, tree: &dyn Tree) -> Result<Option<String>> {
    if tree.exists(PROTOCOL_PATH) {
        return Ok(None);
    }
    if project.index()?.exists(PROTOCOL_PATH) {
        return Ok(Some("the index".into()));
    }
    if project.head()?.is_some_and(|h| h.exists(PROTOCOL_PATH)) {
        return Ok(Some("HEAD".into()));
    }
    Ok(None)
}

/// [`require_installed`] in a repository: a runtime that is committed but
/// missing from the working tree (a sparse checkout, `rm -rf .standards`) is
/// restored with git, never installed afresh (issue 7, item 2).
pub fn require_installed_in(project: &Project, tree: &dyn Tree) -> Result<()> {
    let missing = require_installed(tree, project.root());
    if missing.is_err() {
        if let Some(source) = committed_runtime(project, tree)? {
            return Err(absent_runtime(&source));
        }
    }
    missing
}

/// The refusal for a runtime that `source` holds but the working tree lacks.
pub fn absent_runtime(source: &str) -> Error {
    Error::refused(
        format!("`{PROTOCOL_PATH}` is missing from the working tree, but {source} holds the installed runtime"),
        Some(format!("bring it back with `{}` (in a sparse checkout: `git sparse-checkout add .standards`); do not run `git standards install`, which would start the workflow state afresh", restore_command(source))),
    )
}

/// The git command that brings `.standards/` back from `source` (`"the
/// index"` or `"HEAD"`): `git restore` alone restores from the index, which
/// lacks the folder when only HEAD holds it.
pub fn restore_command(source: &str) -> &'static str {
    if source == "HEAD" {
        "git restore --source=HEAD --staged --worktree .standards"
    } else {
        "git restore .standards"
    }
}

/// Refuses unless `.standards/PROTOCOL.md` carries the framework marker.
pub fn require_installed(tree: &dyn Tree, root: &std::path::Path) -> Result<()> {
    let problem = match obstacle(tree, PROTOCOL_PATH) {
        Some(Obstacle::Symlink(c)) => {
            format!("`{c}` is a symbolic link, not a real folder of the repository")
        }
        Some(Obstacle::NotAFolder(c)) => format!("`{c}` is not a folder"),
        None => match tree.text(PROTOCOL_PATH) {
            Text::Ok(text) if text.contains(MARKER) => return Ok(()),
            Text::Ok(_) => {
                format!("`{PROTOCOL_PATH}` does not carry the framework marker `{MARKER}`")
            }
            Text::Missing => format!("`{PROTOCOL_PATH}` is missing"),
            Text::Unreadable(why) => format!("`{PROTOCOL_PATH}` cannot be read: {why}"),
        },
    };
    Err(Error::refused(
        format!(
            "no installed STANDARDS runtime was found at `{}`: {problem}",
            root.display()
        ),
        Some("run `git standards install` to install the runtime in this repository".to_string()),
    ))
}

/// Reads and structurally validates `.standards/STATE.md`: refuses when it is
/// missing or unreadable, when anything under `.standards/` has unresolved merge
/// conflicts (markers or unmerged index entries, D15), and when it is structurally invalid (D12: a normal
/// refusal naming the line, not an unexpected error).
pub fn load_state(tree: &dyn Tree) -> Result<StateDoc> {
    let text = match tree.text(STATE_PATH) {
        Text::Ok(text) => text,
        Text::Missing => {
            return Err(Error::refused(
                format!("`{STATE_PATH}` is missing, so the STANDARDS runtime is incomplete"),
                Some(format!(
                    "restore it from history (`git restore --source=HEAD {STATE_PATH}`); if git holds no copy of it, `git standards install` recreates it"
                )),
            ))
        }
        Text::Unreadable(why) => {
            return Err(Error::refused(
                format!("`{STATE_PATH}` cannot be read: {why}"),
                Some(format!("restore it from history (`git restore --source=HEAD {STATE_PATH}`)")),
            ))
        }
    };
    // D15: no tool acts while anything under `.standards/` is conflicted.
    let conflicted = conflicts::find(tree);
    if !conflicted.is_empty() {
        let how = if conflicted.iter().any(|c| c.unmerged) {
            "unmerged index entries"
        } else {
            "conflict markers"
        };
        let only_state = conflicted.iter().all(|c| c.path == STATE_PATH);
        let (what, hint) = if conflicted.iter().any(|c| c.path == STATE_PATH) {
            (
                if only_state { "STATE.md has unresolved merge conflicts".to_string() } else { format!("`{STATE_PATH}` and other files have unresolved merge conflicts") },
                "resolve the conflict so STATE.md describes exactly one cycle, `git add` it, then retry",
            )
        } else {
            (
                "`.standards/` has unresolved merge conflicts".to_string(),
                "stop and ask the user to resolve the conflicts; no role may act on conflicted workflow files",
            )
        };
        return Err(Error::refused(
            format!("{what} ({how}) in {}", conflicts::describe(&conflicted)),
            Some(hint.to_string()),
        ));
    }
    Ok(StateDoc::parse(&text)?)
}

/// A short description of the active cycle, e.g. ``cycle `x` (`SCOPING`)``.
pub fn describe_cycle(state: &StateDoc) -> String {
    format!(
        "`{}` (WorkflowState `{}`)",
        state.active_work.id.value, state.workflow_state.value
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use standards_core::model::state::fresh_template;
    use standards_core::model::tree::MemTree;
    use standards_core::model::vocab::ProjectMode;

    #[test]
    fn an_installed_runtime_needs_the_marker() {
        let root = std::path::Path::new("/p");
        let t = MemTree::new().with(PROTOCOL_PATH, format!("# Protocol\n{MARKER}\n"));
        assert!(require_installed(&t, root).is_ok());
        let mut linked = MemTree::new();
        linked.insert_node(".standards", standards_core::model::tree::Node::Symlink);
        for (t, why) in [
            (MemTree::new(), "is missing"),
            (
                MemTree::new().with(PROTOCOL_PATH, "# Protocol\n"),
                "framework marker",
            ),
            (linked, "`.standards` is a symbolic link"),
        ] {
            let e = require_installed(&t, root).unwrap_err();
            assert!(
                e.to_string().contains("no installed STANDARDS runtime"),
                "{e}"
            );
            assert!(e.to_string().contains(why), "{e}");
            match e {
                Error::Refused { hint, .. } => {
                    assert!(hint.unwrap().contains("git standards install"))
                }
                other => panic!("{other:?}"),
            }
        }
    }

    #[test]
    fn state_refusals() {
        let e = load_state(&MemTree::new()).unwrap_err();
        assert!(e.to_string().contains("is missing"), "{e}");

        let conflicted = MemTree::new().with(
            STATE_PATH,
            "<<<<<<< ours\n`Id`: `a-1`\n=======\n`Id`: `b-2`\n>>>>>>> theirs\n",
        );
        let e = load_state(&conflicted).unwrap_err();
        assert!(
            e.to_string()
                .contains("unresolved merge conflicts (conflict markers)"),
            "{e}"
        );
        assert!(e.to_string().contains("cycles a-1, b-2"), "{e}");

        let mut unmerged = MemTree::new().with(STATE_PATH, fresh_template(ProjectMode::Brownfield));
        unmerged.mark_unmerged(STATE_PATH);
        let e = load_state(&unmerged).unwrap_err();
        assert!(e.to_string().contains("unmerged index entries"), "{e}");

        let invalid = MemTree::new().with(
            STATE_PATH,
            fresh_template(ProjectMode::Brownfield).replace("`AUDITING`", "`DONE`"),
        );
        let e = load_state(&invalid).unwrap_err();
        assert!(matches!(e, Error::State(_)));
        assert!(e.to_string().starts_with(".standards/STATE.md:3:"), "{e}");

        let ok = MemTree::new().with(STATE_PATH, fresh_template(ProjectMode::Brownfield));
        assert!(!load_state(&ok).unwrap().has_active_cycle());
    }

    #[test]
    fn a_conflicted_record_blocks_the_tools_too() {
        let mut tree = MemTree::new()
            .with(STATE_PATH, fresh_template(ProjectMode::Brownfield))
            .with(
                ".standards/docs/scope/c.md",
                "<<<<<<< ours\na\n=======\nb\n>>>>>>> theirs\n",
            );
        let e = load_state(&tree).unwrap_err().to_string();
        assert!(
            e.contains("`.standards/` has unresolved merge conflicts (conflict markers)"),
            "{e}"
        );
        assert!(e.contains(".standards/docs/scope/c.md"), "{e}");
        tree.remove(".standards/docs/scope/c.md");
        tree.mark_unmerged(".standards/MODE.md");
        let e = load_state(&tree).unwrap_err().to_string();
        assert!(e.contains("unmerged index entries"), "{e}");
    }
}

/// Which snapshot a command read, for [`projects_elsewhere`].
#[derive(Debug, Clone, Copy)]
pub enum Snapshot<'a> {
    Worktree,
    Index,
    Rev(&'a str),
}

impl Snapshot<'_> {
    /// The options that select this snapshot on a command line, each after
    /// a space (` --staged`, ` --ref <rev>`); empty for the working tree.
    pub fn flag(&self) -> String {
        match self {
            Snapshot::Worktree => String::new(),
            Snapshot::Index => " --staged".to_string(),
            Snapshot::Rev(rev) => format!(" --ref {}", shell_word(rev)),
        }
    }
}

/// Issue 15: at the top of a repository whose STANDARDS projects live in
/// subfolders, "no runtime is installed" (with a hint to install a second
/// one) is the wrong answer. When `error` is that refusal and `snapshot`
/// holds no `.standards/` at the top but projects below it, the refusal
/// that names those folders and the `git standards -C <folder> <command>`
/// to run instead; otherwise `error` unchanged. Only called on the failure
/// path, so a working project pays nothing.
pub fn projects_elsewhere(
    cwd: &Path,
    project: &Project,
    snapshot: Snapshot,
    command: &str,
    error: Error,
) -> Error {
    if !project.root_in_repo().is_empty()
        || !matches!(error, Error::NotInstalled { .. } | Error::Refused { .. })
    {
        return error;
    }
    let found = match subfolder_projects(project, snapshot) {
        Ok(Some((source, folders))) if !folders.is_empty() => (source, folders),
        _ => return error,
    };
    let (source, folders) = found;
    let top = project
        .workdir()
        .unwrap_or_else(|| project.git_dir())
        .to_path_buf();
    let view = PathView::new(cwd, &top);
    let projects = folders
        .into_iter()
        .map(|folder| {
            let shown = view.show(&folder);
            SubProject {
                command: format!("git standards -C {} {command}", shell_word(&shown)),
                folder,
                shown,
            }
        })
        .collect();
    Error::ProjectsInSubfolders {
        top,
        snapshot: source,
        projects,
    }
}

/// The snapshot's description and its project folders below the top, or
/// `None` when the top itself has a `.standards/` (then the refusal is about
/// that one).
fn subfolder_projects(
    project: &Project,
    snapshot: Snapshot,
) -> Result<Option<(String, Vec<String>)>> {
    let (source, mut folders) = match snapshot {
        Snapshot::Worktree => {
            let Some(top) = project.workdir() else {
                return Ok(None);
            };
            if std::fs::symlink_metadata(top.join(STANDARDS_DIR)).is_ok() {
                return Ok(None);
            }
            let mut folders = projects::in_index(project)?;
            scan_worktree(top, "", 0, &mut folders);
            ("the working tree".to_string(), folders)
        }
        Snapshot::Index => {
            let tree = project.index()?;
            if !matches!(tree.node(STANDARDS_DIR), Node::Missing) {
                return Ok(None);
            }
            (tree.describe(), projects::in_index(project)?)
        }
        Snapshot::Rev(rev) => {
            let tree = project.at_rev(rev)?;
            let Some(commit) = tree.commit else {
                return Ok(None);
            };
            if !matches!(tree.node(STANDARDS_DIR), Node::Missing) {
                return Ok(None);
            }
            (tree.describe(), projects::in_commit(project, commit)?)
        }
    };
    folders.retain(|f| !f.is_empty());
    folders.sort();
    folders.dedup();
    Ok(Some((source, folders)))
}

/// How deep below the top a project not yet in the index is looked for.
const SCAN_DEPTH: usize = 3;

/// Folders below `dir` (repository-relative `rel`) holding a `.standards/`
/// folder that the index does not know yet (a fresh install in a subfolder).
/// Symbolic links are never followed; hidden folders, `node_modules` and
/// nested repositories are skipped.
fn scan_worktree(dir: &Path, rel: &str, depth: usize, found: &mut Vec<String>) {
    if depth >= SCAN_DEPTH {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        let name = entry.file_name().to_string_lossy().into_owned();
        if !kind.is_dir() || name.starts_with('.') || SCAN_SKIPPED.contains(&name.as_str()) {
            continue;
        }
        let path = entry.path();
        let child = if rel.is_empty() {
            name
        } else {
            format!("{rel}/{name}")
        };
        if std::fs::symlink_metadata(path.join(".git")).is_ok() {
            continue;
        }
        match std::fs::symlink_metadata(path.join(STANDARDS_DIR)) {
            Ok(meta) if meta.is_dir() => found.push(child),
            _ => scan_worktree(&path, &child, depth + 1, found),
        }
    }
}

/// `word` as one shell word: as it is when it is plain, else single-quoted.
pub fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "._/-+=:,@".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod shell_tests {
    #[test]
    fn shell_words() {
        assert_eq!(super::shell_word("app"), "app");
        assert_eq!(super::shell_word("../web/api"), "../web/api");
        assert_eq!(super::shell_word("my app"), "'my app'");
        assert_eq!(super::shell_word("it's"), r"'it'\''s'");
    }
}
