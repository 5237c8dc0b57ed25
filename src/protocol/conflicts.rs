//! Unresolved merge conflicts in `.standards/` (RT-003, RT-004, decision D15).

use super::fields;
use super::layout::STANDARDS_DIR;
use super::text::mask_html_comments;
use super::tree::{Text, Tree};

/// A conflicted file and the cycles its sides name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conflict {
    pub path: String,
    /// Unmerged index entries (`true`) or only markers in the content (`false`).
    pub unmerged: bool,
    /// Distinct `Id` values found in the file (the cycles involved), in order.
    pub cycles: Vec<String>,
}

/// Whether some line starts with seven `<` and a space.
pub fn has_markers(text: &str) -> bool {
    text.lines().any(|l| l.starts_with("<<<<<<< "))
}

/// Every conflicted file under `.standards/`: unmerged index entries, plus any
/// file whose content carries conflict markers (D15: every file, any depth,
/// because `git add` clears the stages but not the markers).
pub fn find(tree: &dyn Tree) -> Vec<Conflict> {
    let mut out: Vec<Conflict> = tree
        .unmerged()
        .into_iter()
        .map(|path| Conflict {
            cycles: cycles_in(tree, &path),
            path,
            unmerged: true,
        })
        .collect();
    let prefix = format!("{STANDARDS_DIR}/");
    for path in standards_files(tree, &prefix) {
        if out.iter().any(|c| c.path == path) {
            continue;
        }
        if let Text::Ok(text) = tree.text(&path) {
            if has_markers(&text) {
                out.push(Conflict {
                    cycles: ids(&text),
                    path,
                    unmerged: false,
                });
            }
        }
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

fn standards_files(tree: &dyn Tree, prefix: &str) -> Vec<String> {
    let mut files: Vec<String> = tree
        .markdown_files()
        .into_iter()
        .filter(|p| p.starts_with(prefix))
        .collect();
    for extra in super::layout::RUNTIME_FILES {
        if !files.iter().any(|f| f == extra) {
            files.push(extra.to_string());
        }
    }
    files.sort();
    files
}

fn cycles_in(tree: &dyn Tree, path: &str) -> Vec<String> {
    match tree.text(path) {
        Text::Ok(text) => ids(&text),
        _ => Vec::new(),
    }
}

/// The cycle IDs a file names, outside HTML comments (STATE.md's template
/// comment shows a `SourceCycle` placeholder that names no cycle).
fn ids(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for f in fields::scan(&mask_html_comments(text)) {
        let is_id = f.name == "Id" || f.name == "Cycle" || f.name == "SourceCycle";
        if is_id && f.value != "UNSET" && !out.contains(&f.value) {
            out.push(f.value);
        }
    }
    out
}

/// A one-line description of conflicts for refusals.
pub fn describe(conflicts: &[Conflict]) -> String {
    conflicts
        .iter()
        .map(|c| {
            if c.cycles.is_empty() {
                format!("`{}`", c.path)
            } else {
                format!("`{}` (cycles {})", c.path, c.cycles.join(", "))
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::tree::MemTree;

    #[test]
    fn markers_anywhere_under_standards_and_unmerged_entries() {
        let state = "<<<<<<< ours\n`Id`: `a-1`\n=======\n`Id`: `b-2`\n>>>>>>> theirs\n";
        let mut t = MemTree::new()
            .with(".standards/STATE.md", state)
            .with(".standards/docs/scope/x.md", "<<<<<<< HEAD\nx\n")
            .with("README.md", "<<<<<<< HEAD\n");
        t.mark_unmerged(".standards/MODE.md");
        let found = find(&t);
        let paths: Vec<_> = found.iter().map(|c| c.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                ".standards/MODE.md",
                ".standards/STATE.md",
                ".standards/docs/scope/x.md"
            ]
        );
        assert_eq!(found[1].cycles, ["a-1", "b-2"]);
        assert!(describe(&found).contains("cycles a-1, b-2"));
    }

    #[test]
    fn placeholders_in_comments_are_not_cycles() {
        let state = "<<<<<<< ours\n`Id`: `a-1`\n=======\n`Id`: `b-2`\n>>>>>>> theirs\n<!--\n- `SourceCycle`: `<cancelled-cycle-id>`\n-->\n";
        let t = MemTree::new().with(".standards/STATE.md", state);
        assert_eq!(find(&t)[0].cycles, ["a-1", "b-2"]);
    }

    #[test]
    fn clean_tree_has_no_conflicts() {
        let t = MemTree::new().with(".standards/STATE.md", "x <<<<<<< not at line start\n");
        assert!(find(&t).is_empty());
    }
}
