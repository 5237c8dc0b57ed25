//! Whether `.standards/` is in the middle of a conflict (issue 10, D15):
//! unmerged index entries and conflict markers (read by
//! [`standards_core::workflow::conflicts::find`]), and a merge, rebase, cherry-pick, revert or
//! `git am` in progress that changes `.standards/` (git-facts §5). While any
//! of these holds, no command may write workflow files: the user decides.

use crate::error::{Error, Result};
use crate::repo::{ObjectTree, Project};
use standards_core::model::layout::STANDARDS_DIR;
use standards_core::model::state::STATE_PATH;
use standards_core::model::tree::Text;
use standards_core::model::tree::Tree;
use standards_core::workflow::conflicts::{self, Conflict};
use standards_core::workflow::state_merge::SideSummary;

/// A git operation that stops halfway for the user.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operation {
    Merge,
    Rebase,
    CherryPick,
    Revert,
    ApplyMailbox,
}

impl Operation {
    fn from_state(state: gix::state::InProgress) -> Option<Operation> {
        use gix::state::InProgress as P;
        Some(match state {
            P::Merge => Operation::Merge,
            P::Rebase | P::RebaseInteractive => Operation::Rebase,
            P::CherryPick | P::CherryPickSequence => Operation::CherryPick,
            P::Revert | P::RevertSequence => Operation::Revert,
            P::ApplyMailbox | P::ApplyMailboxRebase => Operation::ApplyMailbox,
            // A bisect changes no content.
            P::Bisect => return None,
        })
    }

    /// "a merge", "a rebase", ...
    pub fn name(self) -> &'static str {
        match self {
            Operation::Merge => "a merge",
            Operation::Rebase => "a rebase",
            Operation::CherryPick => "a cherry-pick",
            Operation::Revert => "a revert",
            Operation::ApplyMailbox => "`git am`",
        }
    }

    /// A stable name for JSON output.
    pub fn slug(self) -> &'static str {
        match self {
            Operation::Merge => "merge",
            Operation::Rebase => "rebase",
            Operation::CherryPick => "cherry-pick",
            Operation::Revert => "revert",
            Operation::ApplyMailbox => "am",
        }
    }

    /// The pseudo-ref naming the incoming commit.
    fn head_ref(self) -> Option<&'static str> {
        match self {
            Operation::Merge => Some("MERGE_HEAD"),
            Operation::Rebase => Some("REBASE_HEAD"),
            Operation::CherryPick => Some("CHERRY_PICK_HEAD"),
            Operation::Revert => Some("REVERT_HEAD"),
            Operation::ApplyMailbox => None,
        }
    }

    /// The commit whose tree is git's "theirs" (stage 3): the incoming
    /// commit, or for a revert the parent of the reverted commit.
    fn theirs_rev(self) -> Option<&'static str> {
        match self {
            Operation::Revert => Some("REVERT_HEAD^"),
            other => other.head_ref(),
        }
    }

    /// What git's "ours" (stage 2) and "theirs" (stage 3) are in this
    /// operation: a rebase swaps them (git-facts §5).
    pub fn side_labels(self) -> (&'static str, &'static str) {
        match self {
            Operation::Merge => (
                "ours (HEAD, the branch being merged into)",
                "theirs (MERGE_HEAD, the branch being merged)",
            ),
            Operation::Rebase => (
                "ours (HEAD, the branch being rebased onto)",
                "theirs (REBASE_HEAD, your commit being replayed)",
            ),
            Operation::CherryPick => (
                "ours (HEAD)",
                "theirs (CHERRY_PICK_HEAD, the commit being picked)",
            ),
            Operation::Revert => ("ours (HEAD)", "theirs (the revert of REVERT_HEAD)"),
            Operation::ApplyMailbox => ("ours (HEAD)", "theirs (the patch being applied)"),
        }
    }

    /// How to finish or abandon it.
    pub fn finish_hint(self) -> &'static str {
        match self {
            Operation::Merge => "`git commit` (or `git merge --abort`)",
            Operation::Rebase => "`git rebase --continue` (or `git rebase --abort`)",
            Operation::CherryPick => "`git cherry-pick --continue` (or `git cherry-pick --abort`)",
            Operation::Revert => "`git revert --continue` (or `git revert --abort`)",
            Operation::ApplyMailbox => "`git am --continue` (or `git am --abort`)",
        }
    }
}

/// An operation in progress.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InProgress {
    pub operation: Operation,
    /// Whether it changes anything under `.standards/`: the index differs from
    /// HEAD there, or the incoming commit changed it.
    pub touches_standards: bool,
}

/// Everything that stops the workflow tools from writing.
#[derive(Debug, Clone, Default)]
pub struct ConflictState {
    /// Conflicted files under `.standards/` (working tree and index).
    pub conflicts: Vec<Conflict>,
    pub in_progress: Option<InProgress>,
}

impl ConflictState {
    /// Whether writing commands must refuse.
    pub fn blocks_writes(&self) -> bool {
        !self.conflicts.is_empty()
            || self
                .in_progress
                .as_ref()
                .is_some_and(|p| p.touches_standards)
    }

    /// The names of git's two sides for this state.
    pub fn side_labels(&self) -> (&'static str, &'static str) {
        match &self.in_progress {
            Some(p) => p.operation.side_labels(),
            None => ("ours", "theirs"),
        }
    }

    /// Whether there is anything to report.
    pub fn is_empty(&self) -> bool {
        self.conflicts.is_empty()
            && !self
                .in_progress
                .as_ref()
                .is_some_and(|p| p.touches_standards)
    }

    /// The report `check`, `status` and `hook stop` print first: a headline,
    /// then per file the two sides' cycle, workflow state and request.
    pub fn report_lines(&self) -> Vec<String> {
        self.report_lines_shown(&|path| path.to_string())
    }

    /// [`ConflictState::report_lines`] with each file's path shown by `show`
    /// (relative to the current folder, for a person).
    pub fn report_lines_shown(&self, show: &dyn Fn(&str) -> String) -> Vec<String> {
        let mut lines = Vec::new();
        let during = match &self.in_progress {
            Some(p) => format!(" during {}", p.operation.name()),
            None => String::new(),
        };
        if self.conflicts.is_empty() {
            if let Some(p) = self.in_progress.as_ref().filter(|p| p.touches_standards) {
                lines.push(format!(
                    "{} that changes `.standards/` is in progress; finish it with {} before any role changes the workflow.",
                    capitalize(p.operation.name()),
                    p.operation.finish_hint()
                ));
            }
            return lines;
        }
        lines.push(format!(
            "Merge conflict{during}: `.standards/` has unresolved conflicts, and only the user decides which cycle to keep."
        ));
        let labels = self.side_labels();
        for c in &self.conflicts {
            let how = if c.unmerged {
                "unmerged index entries"
            } else {
                "conflict markers"
            };
            lines.push(format!("  `{}` ({how})", show(&c.path)));
            if c.ours.is_none() && c.theirs.is_none() {
                if !c.cycles.is_empty() {
                    lines.push(format!("    cycles named: {}", c.cycles.join(", ")));
                }
                continue;
            }
            for (label, side) in [(labels.0, &c.ours), (labels.1, &c.theirs)] {
                lines.push(format!("    {label}: {}", side_text(c, side.as_ref())));
            }
        }
        if self
            .conflicts
            .iter()
            .any(|c| c.path == standards_core::model::layout::STATE_PATH)
        {
            lines.push(
                "  The user decides with `git standards resolve --keep ours` or `git standards resolve --keep theirs`; both cycles' records stay in place."
                    .to_string(),
            );
        }
        lines
    }

    /// The same report as JSON (`conflict` in `check --json` and `status --json`).
    pub fn to_json(&self) -> serde_json::Value {
        let labels = self.side_labels();
        let side = |label: &str, s: &Option<SideSummary>| match s {
            Some(s) => serde_json::json!({
                "label": label,
                "cycle": s.cycle,
                "request": s.request,
                "workflowState": s.workflow_state,
            }),
            None => serde_json::Value::Null,
        };
        serde_json::json!({
            "operation": self.in_progress.as_ref().map(|p| p.operation.slug()),
            "operationChangesStandards": self.in_progress.as_ref().is_some_and(|p| p.touches_standards),
            "files": self.conflicts.iter().map(|c| serde_json::json!({
                "path": c.path,
                "unmerged": c.unmerged,
                "cycles": c.cycles,
                "ours": side(labels.0, &c.ours),
                "theirs": side(labels.1, &c.theirs),
            })).collect::<Vec<_>>(),
        })
    }

    /// One sentence per conflicted file naming both sides' cycles.
    pub fn describe(&self) -> Vec<String> {
        let labels = self.side_labels();
        self.conflicts
            .iter()
            .map(|c| {
                let how = if c.unmerged {
                    "unmerged index entries"
                } else {
                    "conflict markers"
                };
                match conflicts::describe_sides(c, labels) {
                    Some(sides) => format!("`{}` ({how}): {sides}", c.path),
                    None => format!("{} ({how})", conflicts::describe(std::slice::from_ref(c))),
                }
            })
            .collect()
    }
}

/// The conflict state writing commands go by: conflicts in the working tree
/// or the index (markers staged but since removed from the working copy still
/// block), and the operation in progress.
pub fn detect(project: &Project) -> Result<ConflictState> {
    let mut found = match &project.workdir {
        Some(_) => conflicts::find(&project.worktree()?),
        None => Vec::new(),
    };
    for c in conflicts::find(&project.index()?) {
        if !found.iter().any(|f| f.path == c.path) {
            found.push(c);
        }
    }
    found.sort_by(|a, b| a.path.cmp(&b.path));
    let in_progress = in_progress(project)?;
    sides_from_commits(project, &mut found, in_progress.as_ref());
    Ok(ConflictState {
        conflicts: found,
        in_progress,
    })
}

/// The conflict state of one snapshot (the working tree or the index), with
/// the operation in progress: what `check` and `status` report.
pub fn state_of(project: &Project, tree: &dyn Tree) -> Result<ConflictState> {
    let mut found = conflicts::find(tree);
    let in_progress = in_progress(project)?;
    sides_from_commits(project, &mut found, in_progress.as_ref());
    Ok(ConflictState {
        conflicts: found,
        in_progress,
    })
}

/// Describes the sides of a conflict in a file other than STATE.md from the
/// STATE.md of each side's commit, when STATE.md itself merged cleanly (so
/// the snapshot holds no side of it): ours from HEAD, theirs from the
/// incoming commit of the operation in progress (issue 29, item 4). A side
/// that cannot be read stays described by the cycle the file names.
fn sides_from_commits(project: &Project, found: &mut [Conflict], op: Option<&InProgress>) {
    let pending = found.iter().any(|c| {
        c.path != STATE_PATH
            && [&c.ours, &c.theirs]
                .into_iter()
                .flatten()
                .any(|s| s.workflow_state.is_none())
    });
    if !pending {
        return;
    }
    let state_at = |rev: &str| -> Option<Vec<u8>> {
        match project.at_rev(rev).ok()?.text(STATE_PATH) {
            Text::Ok(text) => Some(text.into_bytes()),
            _ => None,
        }
    };
    let ours = state_at("HEAD");
    let theirs = op.and_then(|p| p.operation.theirs_rev()).and_then(state_at);
    conflicts::describe_from_states(found, ours.as_deref(), theirs.as_deref());
}

/// The operation in progress, if any.
pub fn in_progress(project: &Project) -> Result<Option<InProgress>> {
    Ok(match project.repo.state().and_then(Operation::from_state) {
        Some(operation) => Some(InProgress {
            operation,
            touches_standards: touches_standards(project, operation)?,
        }),
        None => None,
    })
}

fn side_text(c: &Conflict, side: Option<&SideSummary>) -> String {
    match side {
        None => "deleted the file".to_string(),
        Some(s) if c.path != STATE_PATH && s.workflow_state.is_none() => {
            conflicts::side_phrase(c, s)
        }
        Some(s) => {
            let cycle = match &s.cycle {
                Some(id) => format!("cycle {id}"),
                None => "no active cycle".to_string(),
            };
            let state = s.workflow_state.as_deref().unwrap_or("no WorkflowState");
            match &s.request {
                Some(r) => format!("{cycle}, WorkflowState {state}, request \"{r}\""),
                None => format!("{cycle}, WorkflowState {state}"),
            }
        }
    }
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(first) => first.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

fn touches_standards(project: &Project, operation: Operation) -> Result<bool> {
    let head = project.head()?;
    let index = project.index()?;
    if differs_in_standards(Some(&index), head.as_ref()) {
        return Ok(true);
    }
    let Some(head_ref) = operation.head_ref() else {
        return Ok(false);
    };
    let Ok(incoming) = project.repo.rev_parse_single(head_ref) else {
        return Ok(false);
    };
    let incoming = incoming.detach();
    // What the incoming side changed: from the merge base for a merge, from
    // the commit's parent otherwise.
    let base = match operation {
        Operation::Merge => match project.repo.head_id() {
            Ok(head_id) => project
                .repo
                .merge_base(head_id.detach(), incoming)
                .ok()
                .flatten()
                .map(|id| id.detach().to_string()),
            Err(_) => None,
        },
        _ => Some(format!("{incoming}^")),
    };
    let incoming_tree = project.at_rev(&incoming.to_string())?;
    let base_tree = base.and_then(|b| project.at_rev(&b).ok());
    Ok(differs_in_standards(
        Some(&incoming_tree),
        base_tree.as_ref(),
    ))
}

fn differs_in_standards(a: Option<&ObjectTree>, b: Option<&ObjectTree>) -> bool {
    let prefix = format!("{STANDARDS_DIR}/");
    match (a, b) {
        (Some(a), Some(b)) => a
            .paths()
            .chain(b.paths())
            .filter(|p| p.starts_with(&prefix))
            .any(|p| !a.same_entry(b, p)),
        (Some(t), None) | (None, Some(t)) => t.paths().any(|p| p.starts_with(&prefix)),
        (None, None) => false,
    }
}

/// The refusal every writing command gives while `.standards/` is in conflict
/// (or an operation that changes it is in progress); `Ok` otherwise. Commands
/// call [`crate::support::conflicts::refuse_during_conflict`], which also
/// leaves the `conflict-refused` audit event.
pub fn refuse_during_conflict(project: &Project) -> Result<()> {
    let state = detect(project)?;
    match refusal(&state) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// The refusal for `state`, if it blocks writes.
pub fn refusal(state: &ConflictState) -> Option<Error> {
    if !state.conflicts.is_empty() {
        let during = match &state.in_progress {
            Some(p) => format!(" during {}", p.operation.name()),
            None => String::new(),
        };
        return Some(Error::refused(
            format!(
                "refusing to change the workflow: `.standards/` has unresolved merge conflicts{during}. {}",
                state.describe().join(". ")
            ),
            Some(
                "stop and tell the user which cycles are involved; only the user decides, with `git standards resolve --keep ours` or `git standards resolve --keep theirs` (or by resolving the files and `git add`ing them). No role may choose a side."
                    .to_string(),
            ),
        ));
    }
    match &state.in_progress {
        Some(p) if p.touches_standards => Some(Error::refused(
            format!(
                "refusing to change the workflow: {} that changes `.standards/` is in progress",
                p.operation.name()
            ),
            Some(format!(
                "finish it with {} first, then retry",
                p.operation.finish_hint()
            )),
        )),
        _ => None,
    }
}

/// Stages the project-relative `path` as resolved: its working-tree file (just
/// written with `content`) becomes the one stage-0 entry, replacing stages
/// 1-3, as `git add <path>` would. The index is written under git's lock.
pub fn stage_resolved(project: &Project, path: &str, content: &[u8]) -> Result<()> {
    let mut index = resolved(project, path, content)?;
    index
        .write(gix::index::write::Options::default())
        .map_err(|e| index_refusal(project, path, &e))
}

/// The bytes of the git index with `path` resolved to `content` (its
/// conflict stages replaced by one entry), for a journal step that writes
/// the index (issue 21: `resolve` writes STATE.md, the index and its event
/// as one journaled operation). Stores the blob; writes nothing else.
pub fn resolved_index(project: &Project, path: &str, content: &[u8]) -> Result<Vec<u8>> {
    let index = resolved(project, path, content)?;
    let mut bytes = Vec::new();
    index
        .write_to(&mut bytes, gix::index::write::Options::default())
        .map_err(|e| index_refusal(project, path, &e))?;
    Ok(bytes)
}

/// The refusal of a written file that could not be staged.
pub fn index_refusal(project: &Project, path: &str, e: &dyn std::fmt::Display) -> Error {
    let repo_path = project.repo_path(path);
    Error::refused(
        format!("cannot update the git index: {e}"),
        Some(format!(
            "the file is written; stage it yourself with `git add {repo_path}`"
        )),
    )
}

/// Git's lock on the index when another git command holds it (or a killed
/// one left it): a writer must not replace the index then.
pub fn index_lock(project: &Project) -> Option<std::path::PathBuf> {
    let lock = project.repo.index_path().with_extension("lock");
    lock.exists().then_some(lock)
}

/// The index with `path` resolved to `content`, in memory.
fn resolved(project: &Project, path: &str, content: &[u8]) -> Result<gix::index::File> {
    use gix::bstr::{BStr, ByteSlice};
    use gix::index::entry::{Flags, Mode, Stage, Stat};

    let top = project.require_workdir()?;
    let repo_path = project.repo_path(path);
    let full = top.join(&repo_path);
    let index_err = |e: &dyn std::fmt::Display| index_refusal(project, path, e);
    let mut index = project.repo.open_index().map_err(|e| index_err(&e))?;
    let key: &BStr = repo_path.as_bytes().as_bstr();
    let mode = [Stage::Ours, Stage::Theirs, Stage::Unconflicted]
        .into_iter()
        .find_map(|s| index.entry_by_path_and_stage(key, s).map(|e| e.mode))
        .filter(|m| *m == Mode::FILE || *m == Mode::FILE_EXECUTABLE)
        .unwrap_or(Mode::FILE);
    let blob = project
        .repo
        .write_blob(content)
        .map_err(|e| {
            Error::Git(format!(
                "cannot store `{repo_path}` in the object database: {e}"
            ))
        })?
        .detach();
    // The file as it is now (before a journal writes it, git re-reads it
    // once: its size or time differ from the entry's, never its content).
    let stat = match gix::index::fs::Metadata::from_path_no_follow(&full) {
        Ok(meta) => Stat::from_fs(&meta).map_err(|e| index_err(&e))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Stat::default(),
        Err(e) => return Err(Error::io(&full, e)),
    };
    index.remove_entries(|_, p, _| p == key);
    index.dangerously_push_entry(stat, blob, Flags::empty(), mode, key);
    index.sort_entries();
    // A stale tree cache would make the next commit capture the old subtree.
    index.remove_tree();
    Ok(index)
}

#[cfg(test)]
mod tests {
    use super::*;
    use standards_core::model::tree::{MemTree, Stages};

    fn state_conflict() -> Vec<Conflict> {
        let side = |id: &str| {
            format!("`WorkflowState`: `SCOPING`\n`Id`: `{id}` `Request`: `R {id}`\n").into_bytes()
        };
        let mut t = MemTree::new();
        t.set_stages(
            standards_core::model::layout::STATE_PATH,
            Stages {
                base: None,
                ours: Some(side("o-1")),
                theirs: Some(side("t-2")),
            },
        );
        conflicts::find(&t)
    }

    #[test]
    fn a_conflict_refuses_naming_both_sides_by_the_operation() {
        let state = ConflictState {
            conflicts: state_conflict(),
            in_progress: Some(InProgress {
                operation: Operation::Rebase,
                touches_standards: true,
            }),
        };
        assert!(state.blocks_writes());
        let e = refusal(&state).unwrap().to_string();
        assert!(
            e.contains("unresolved merge conflicts during a rebase"),
            "{e}"
        );
        assert!(e.contains("ours (HEAD, the branch being rebased onto) holds cycle o-1 (SCOPING, request \"R o-1\")"), "{e}");
        assert!(
            e.contains("theirs (REBASE_HEAD, your commit being replayed) holds cycle t-2"),
            "{e}"
        );
        let lines = state.report_lines();
        assert!(lines[0].starts_with("Merge conflict during a rebase"));
        assert_eq!(lines[2], "    ours (HEAD, the branch being rebased onto): cycle o-1, WorkflowState SCOPING, request \"R o-1\"");
        let json = state.to_json();
        assert_eq!(json["operation"], "rebase");
        assert_eq!(json["files"][0]["theirs"]["cycle"], "t-2");
    }

    #[test]
    fn an_operation_in_progress_blocks_only_when_it_changes_standards() {
        let mut state = ConflictState {
            conflicts: Vec::new(),
            in_progress: Some(InProgress {
                operation: Operation::CherryPick,
                touches_standards: false,
            }),
        };
        assert!(!state.blocks_writes() && state.is_empty());
        assert!(refusal(&state).is_none());
        state.in_progress = Some(InProgress {
            operation: Operation::CherryPick,
            touches_standards: true,
        });
        let e = refusal(&state).unwrap();
        assert!(
            e.to_string()
                .contains("a cherry-pick that changes `.standards/` is in progress"),
            "{e}"
        );
        match e {
            Error::Refused { hint, .. } => {
                assert!(hint.unwrap().contains("git cherry-pick --continue"))
            }
            other => panic!("{other:?}"),
        }
        assert!(state.report_lines()[0].starts_with("A cherry-pick that changes"));
        assert!(refusal(&ConflictState::default()).is_none());
    }
}
