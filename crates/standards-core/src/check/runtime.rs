//! RT: runtime files and merge conflicts.

use crate::model::layout::{DOCS_DIR, MARKER, MODE_PATH, PROTOCOL_PATH, RUNTIME_FILES, STATE_PATH};
use crate::model::tree::{Node, Text, Tree};
use crate::records::verdicts::ContentCache;
use crate::workflow::conflicts;

use super::{Cx, RuleInfo, Sink};

pub const RULES: &[RuleInfo] = &[
    RuleInfo::precondition("RT-000", "Installed runtime"),
    RuleInfo::rule("RT-001", "Runtime file missing"),
    RuleInfo::rule("RT-002", "Runtime file unreadable"),
    RuleInfo::rule("RT-003", "Unmerged index entries"),
    RuleInfo::rule("RT-004", "Conflict markers"),
    RuleInfo::rule("RT-005", "MODE.md project mode"),
];

/// RT-000: `.standards/PROTOCOL.md` exists and carries the framework marker.
pub fn installed(tree: &dyn Tree) -> bool {
    matches!(tree.text(PROTOCOL_PATH), Text::Ok(t) if t.contains(MARKER))
}

/// The snapshot a missing runtime file is missing from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Snapshot {
    Worktree,
    Index,
    /// A commit: it cannot change, so no command repairs it.
    Commit,
}

/// Which copy git holds of a file the snapshot lacks: the one to restore.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeldBy {
    /// The index (for a working-tree snapshot).
    Index,
    /// HEAD but not the index.
    Head,
    /// The working tree (for an index snapshot): staging it repairs the index.
    Worktree,
    /// Nothing in git: only `install` can recreate it.
    Nothing,
}

/// Whether the snapshot holds cycle records under `.standards/docs/`: a
/// missing STATE.md is then a lost cycle, which no template replaces.
pub fn has_records(tree: &dyn Tree) -> bool {
    let prefix = format!("{DOCS_DIR}/");
    tree.markdown_files().iter().any(|p| p.starts_with(&prefix))
}

/// The hint for the runtime file `path` missing from `snapshot`, naming the
/// command that brings it back in that situation (issue 15, item 1). A
/// committed copy is always restored with git, never recreated: MODE.md and
/// STATE.md hold workflow state.
pub fn missing_file_hint(path: &str, snapshot: Snapshot, held: HeldBy, records: bool) -> String {
    match (snapshot, held) {
        (Snapshot::Commit, _) => format!(
            "this commit cannot change; restore `{path}` in the working tree and commit it, and later commits pass"
        ),
        (Snapshot::Worktree, HeldBy::Index) => {
            format!("restore it from the index: `git restore {path}`")
        }
        (Snapshot::Worktree, HeldBy::Head) => format!(
            "restore it from the last commit: `git restore --source=HEAD --staged --worktree {path}`"
        ),
        (Snapshot::Index, HeldBy::Head | HeldBy::Index) => {
            format!("stage the last commit's copy again: `git restore --staged {path}`")
        }
        (Snapshot::Index, HeldBy::Worktree) => {
            format!("stage the working tree's copy: `git add {path}`")
        }
        (_, _) => {
            let then_stage = if snapshot == Snapshot::Index {
                format!(", then stage it with `git add {path}`")
            } else {
                String::new()
            };
            if path == MODE_PATH {
                format!("git holds no copy of it; recreate it with the project's mode: `git standards install --mode greenfield` (or `--mode brownfield`){then_stage}")
            } else if path == STATE_PATH && records {
                format!("git holds no copy of it and `{DOCS_DIR}/` holds cycle records, so no template can stand in for the lost cycle state; rewrite STATE.md from the records by hand (the protocol's State Format)")
            } else if path == PROTOCOL_PATH {
                "git holds no copy of it; restore it from a backup (install never adopts a folder without it)".to_string()
            } else {
                format!("git holds no copy of it; run `git standards install` to recreate it{then_stage}")
            }
        }
    }
}

/// RT-001..RT-004. Returns `true` when a conflict stops the run. `head` (the
/// last commit) decides which command the hint of a missing file names.
pub fn check_files_and_conflicts(
    tree: &dyn Tree,
    head: Option<&dyn Tree>,
    sink: &mut Sink,
    cache: Option<&ContentCache>,
) -> bool {
    for path in RUNTIME_FILES {
        match tree.node(path) {
            Node::File(bytes) => {
                if std::str::from_utf8(&bytes).is_err() && path.ends_with(".md") {
                    let committed = head.is_some_and(|h| {
                        matches!(h.node(path), Node::File(b) if std::str::from_utf8(&b).is_ok())
                    });
                    let hint = if committed {
                        format!("restore it from the last commit: `git restore --source=HEAD --staged --worktree {path}`")
                    } else {
                        "the last commit holds no readable copy; rewrite it as UTF-8 text by hand"
                            .to_string()
                    };
                    sink.push_hinted(
                        "RT-002",
                        path,
                        "cannot be read: it is not valid UTF-8 text",
                        Some(hint),
                    );
                }
            }
            Node::Missing => {
                sink.push_hinted(
                    "RT-001",
                    path,
                    "this runtime file is missing",
                    Some(missing_file_hint(
                        path,
                        Snapshot::Worktree,
                        if head.is_some_and(|h| h.exists(path)) {
                            HeldBy::Head
                        } else {
                            HeldBy::Nothing
                        },
                        has_records(tree),
                    )),
                );
            }
            Node::Dir => {
                sink.push("RT-002", path, "cannot be read: it is a folder, not a file");
            }
            Node::Symlink => {
                sink.push(
                    "RT-002",
                    path,
                    "cannot be read: it is a symbolic link, not a regular file",
                );
            }
            Node::Unreadable(why) => {
                sink.push("RT-002", path, format!("cannot be read: {why}"));
            }
        }
    }
    // A linked records folder is never followed, in any snapshot: the
    // working tree, the index and `--ref` give the same verdict (issue 21).
    if tree.node(DOCS_DIR) == Node::Symlink {
        sink.push(
            "RT-002",
            DOCS_DIR,
            "cannot be read: it is a symbolic link, not a folder; git standards never follows links, so no record under it is read (replace the link with a real folder holding the records)",
        );
    }
    let found = conflicts::find_cached(tree, cache);
    for c in &found {
        let rule = if c.unmerged { "RT-003" } else { "RT-004" };
        let what = if c.unmerged {
            "has unresolved merge conflicts (unmerged index entries)"
        } else {
            "contains merge conflict markers"
        };
        let cycles = if c.cycles.is_empty() {
            String::new()
        } else {
            format!("; the sides name the cycles {}", c.cycles.join(", "))
        };
        // Both sides' cycle, state and request (read from stages 2 and 3).
        let cycles = match conflicts::describe_sides(c, ("ours", "theirs")) {
            Some(sides) => format!("{cycles} ({sides})"),
            None => cycles,
        };
        let hint = if c.path == STATE_PATH {
            "stop and ask the user which cycle to keep; the user decides with `git standards resolve --keep ours` or `git standards resolve --keep theirs` (or resolves it by hand and `git add`s it); no role may act until then"
        } else {
            "stop and ask the user to resolve the conflict; no role may act on this file until then"
        };
        sink.push_hinted(
            rule,
            c.path.clone(),
            format!("{what}{cycles}"),
            Some(hint.to_string()),
        );
    }
    !found.is_empty()
}

/// RT-005.
pub fn check(cx: &Cx, sink: &mut Sink) {
    if let Some(e) = &cx.mode_error {
        sink.push_hinted(
            "RT-005",
            MODE_PATH,
            format!("line {}: {}", e.line, e.message),
            Some(
                "MODE.md must hold exactly one `ProjectMode`: `GREENFIELD` or `BROWNFIELD`".into(),
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::*;
    use crate::model::tree::MemTree;
    use crate::model::vocab::ProjectMode;

    #[test]
    fn rt_001_missing_runtime_file() {
        let mut t = installed_tree(ProjectMode::Brownfield);
        t.remove(crate::model::layout::VERSION_PATH);
        assert_eq!(rules_of(&t), ["RT-001"]);
    }

    #[test]
    fn rt_002_folder_or_bad_bytes() {
        let mut t = installed_tree(ProjectMode::Brownfield);
        t.remove(MODE_PATH);
        t.insert(&format!("{MODE_PATH}/x"), "x");
        assert!(rules_of(&t).contains(&"RT-002"));
        let mut t = installed_tree(ProjectMode::Brownfield);
        t.insert(STATE_PATH, b"\xff\xfe");
        assert!(rules_of(&t).contains(&"RT-002"));
    }

    #[test]
    fn rt_003_unmerged_entries_stop_the_run() {
        let mut t = installed_tree(ProjectMode::Brownfield);
        t.mark_unmerged(".standards/docs/scope/x.md");
        t.insert(MODE_PATH, "broken");
        assert_eq!(rules_of(&t), ["RT-003"], "the conflict stop skips RT-005");
    }

    #[test]
    fn rt_004_markers_name_the_cycles() {
        let mut t = installed_tree(ProjectMode::Brownfield);
        t.insert(
            STATE_PATH,
            "<<<<<<< ours\n`Id`: `a-1`\n=======\n`Id`: `b-2`\n>>>>>>> theirs\n",
        );
        let r = super::super::run(&t, None, Default::default());
        assert_eq!(r.rules(), ["RT-004"]);
        assert!(r.problems[0].message.contains("a-1, b-2"));
        assert!(r.problems[0]
            .message
            .contains("ours holds cycle a-1 (no WorkflowState); theirs holds cycle b-2"));
        assert!(r.problems[0]
            .hint
            .as_deref()
            .unwrap()
            .contains("git standards resolve --keep ours"));
    }

    #[test]
    fn rt_005_bad_mode() {
        let mut t = installed_tree(ProjectMode::Brownfield);
        t.insert(MODE_PATH, "`ProjectMode`: `HYBRID`\n");
        assert_eq!(rules_of(&t), ["RT-005"]);
    }

    #[test]
    fn rt_000_marker_decides_installation() {
        assert!(installed(&installed_tree(ProjectMode::Greenfield)));
        assert!(!installed(
            &MemTree::new().with(PROTOCOL_PATH, "# not ours")
        ));
    }
}
