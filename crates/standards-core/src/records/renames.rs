//! Rename detection between the last commit and a snapshot, the way
//! `git diff -M` pairs a new path with a deleted one (check-rules §1.16).

use similar::{ChangeTag, TextDiff};

use crate::model::tree::{ScanKey, Text, Tree};

/// Git's default rename threshold: half the content must be kept.
const THRESHOLD: f64 = 0.5;

/// How much of `old` survives in `new`, from 0 to 1, by lines.
pub fn similarity(old: &str, new: &str) -> f64 {
    if old.is_empty() && new.is_empty() {
        return 1.0;
    }
    let diff = TextDiff::from_lines(old, new);
    let kept: usize = diff
        .iter_all_changes()
        .filter(|c| c.tag() == ChangeTag::Equal)
        .map(|c| c.value().len())
        .sum();
    kept as f64 * 2.0 / (old.len() + new.len()) as f64
}

/// When `path` is new since `head` (absent there), the committed path it was
/// renamed from: among the files `head` has and `tree` no longer has, the most
/// similar one, if at least half of it survives. Only Markdown files are paired.
pub fn renamed_from(tree: &dyn Tree, head: &dyn Tree, path: &str) -> Option<String> {
    if head.exists(path) {
        return None;
    }
    let Text::Ok(current) = tree.text(path) else {
        return None;
    };
    let mut best: Option<(f64, String)> = None;
    for old in maybe_gone(tree, head) {
        if tree.exists(&old) {
            continue;
        }
        let Text::Ok(old_text) = head.text(&old) else {
            continue;
        };
        let score = similarity(&old_text, &current);
        if score >= THRESHOLD && best.as_ref().is_none_or(|(s, _)| score > *s) {
            best = Some((score, old));
        }
    }
    best.map(|(_, p)| p)
}

/// The Markdown files of `head` that `tree` may no longer have, sorted:
/// when `tree` was derived from `head` (a history walk's commit and its
/// parent, as their [`ScanKey`]s tell), only those among the paths whose
/// entries differ; otherwise every one.
fn maybe_gone(tree: &dyn Tree, head: &dyn Tree) -> Vec<String> {
    if let (
        Some(ScanKey {
            from: Some((from, changed)),
            ..
        }),
        Some(parent),
    ) = (tree.scan_key(), head.scan_key())
    {
        if from == parent.id {
            return changed
                .iter()
                .filter(|(p, _)| p.ends_with(".md") && head.content_id(p).is_some())
                .map(|(p, _)| p.clone())
                .collect();
        }
    }
    head.markdown_files()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::tree::MemTree;

    #[test]
    fn a_moved_file_is_found_and_an_unrelated_one_is_not() {
        let body = "# Plan\n\n### DEV-001\n`Status`: `DONE`\n\n### DEV-002\n`Status`: `PENDING`\n";
        let head = MemTree::new()
            .with("old/plan.md", body)
            .with("other.md", "something else entirely\n");
        let tree = MemTree::new()
            .with("new/plan.md", format!("{body}extra line\n"))
            .with("fresh.md", "unrelated text\n");
        assert_eq!(
            renamed_from(&tree, &head, "new/plan.md").as_deref(),
            Some("old/plan.md")
        );
        assert_eq!(renamed_from(&tree, &head, "fresh.md"), None);
        // A path that exists at HEAD is not a rename.
        let head2 = head.clone().with("new/plan.md", body);
        assert_eq!(renamed_from(&tree, &head2, "new/plan.md"), None);
        // A source that still exists is a copy, not a rename.
        let tree2 = tree.clone().with("old/plan.md", body);
        assert_eq!(renamed_from(&tree2, &head, "new/plan.md"), None);
    }

    #[test]
    fn similarity_bounds() {
        assert_eq!(similarity("a\nb\n", "a\nb\n"), 1.0);
        assert_eq!(similarity("a\n", "b\n"), 0.0);
        assert!(similarity("a\nb\nc\nd\n", "a\nb\nc\nx\n") > 0.5);
    }
}
