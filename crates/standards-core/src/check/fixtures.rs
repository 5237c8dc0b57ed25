//! Test-only cycle fixtures for the review, documentation, synchronization and
//! completion rules: the conformance bases under `fixtures/check/bases/`
//! (F-STD, F-IR, F-DOC and a finished greenfield FULL_DELIVERABLE cycle) laid
//! over an in-memory install, plus small editing helpers.

use std::path::Path;

use crate::model::fields;
use crate::model::layout::STATE_PATH;
use crate::model::tree::{MemTree, Text, Tree};
use crate::model::vocab::ProjectMode;

use super::testing::installed_tree;
use super::{run, Options};

pub const STATE: &str = STATE_PATH;
pub const STD_ID: &str = "add-user-search-20260927T190146Z-7bef0f04";
pub const DOC_ID: &str = "document-the-existing-greeting-command-20260927T190146Z-3c9a1d2e";
pub const GREEN_ID: &str = "build-the-greeting-app-full-deliverable-20260927T190146Z-5a6b7c8d";
pub const IR_REVIEW: &str =
    ".standards/docs/reviews/add-user-search-20260927T190146Z-7bef0f04/implementation.md";

pub fn std_final_review_path() -> String {
    format!(".standards/docs/reviews/{STD_ID}/final-deliverable.md")
}

pub fn std_path(dir: &str) -> String {
    format!(".standards/docs/{dir}/{STD_ID}.md")
}

pub fn doc_path(dir: &str) -> String {
    format!(".standards/docs/{dir}/{DOC_ID}.md")
}

pub fn doc_final_review() -> String {
    format!(".standards/docs/reviews/{DOC_ID}/final-deliverable.md")
}

fn overlay(tree: &mut MemTree, dir: &Path, root: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        panic!("fixture folder {} is missing", dir.display())
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            overlay(tree, &path, root);
        } else if let (Ok(rel), Ok(bytes)) = (path.strip_prefix(root), std::fs::read(&path)) {
            tree.insert(&rel.to_string_lossy().replace('\\', "/"), bytes);
        }
    }
}

/// The install of `mode` with the base `name` laid over it.
pub fn base(name: &str, mode: ProjectMode) -> MemTree {
    // The fixtures live at the workspace root, beside the binary's tests.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/check/bases")
        .join(name);
    let mut tree = installed_tree(mode);
    overlay(&mut tree, &root, &root);
    tree
}

pub fn f_std() -> MemTree {
    base("f-std", ProjectMode::Brownfield)
}

pub fn f_ir() -> MemTree {
    base("f-ir", ProjectMode::Brownfield)
}

pub fn f_doc() -> MemTree {
    base("f-doc", ProjectMode::Brownfield)
}

pub fn f_life_green() -> MemTree {
    base("f-life-green", ProjectMode::Greenfield)
}

pub fn read(tree: &MemTree, path: &str) -> String {
    match tree.text(path) {
        Text::Ok(t) => t,
        other => panic!("{path}: {other:?}"),
    }
}

/// `tree` with the file at `path` rewritten by `f`.
pub fn edit(mut tree: MemTree, path: &str, f: impl FnOnce(String) -> String) -> MemTree {
    let text = read(&tree, path);
    tree.insert(path, f(text));
    tree
}

/// `text` with the value of the first `name` field replaced by `value`.
pub fn set_field(text: &str, name: &str, value: &str) -> String {
    let found = fields::scan(text);
    let Some(field) = fields::first(&found, name) else {
        panic!("no `{name}` field in:\n{text}")
    };
    format!(
        "{}{}{}",
        &text[..field.span.start],
        fields::render_code_span(value),
        &text[field.span.end..]
    )
}

/// STATE.md of `tree` with each `(field, value)` set.
pub fn state(tree: MemTree, changes: &[(&str, &str)]) -> MemTree {
    edit(tree, STATE, |mut s| {
        for (name, value) in changes {
            s = set_field(&s, name, value);
        }
        s
    })
}

fn report(tree: &MemTree, at_turn_end: bool) -> Vec<(&'static str, String)> {
    run(
        tree,
        None,
        Options {
            at_turn_end,
            ..Default::default()
        },
    )
    .problems
    .into_iter()
    .map(|p| (p.rule, p.file))
    .collect()
}

/// The rules with `prefix` that a plain check reports, deduplicated.
pub fn rules_with_prefix(tree: &MemTree, prefix: &str) -> Vec<&'static str> {
    let mut v: Vec<_> = report(tree, false)
        .into_iter()
        .map(|(r, _)| r)
        .filter(|r| r.starts_with(prefix))
        .collect();
    v.dedup();
    v
}

/// (rule, file) of every problem with `prefix`, plain check.
pub fn problems_with_prefix(tree: &MemTree, prefix: &str) -> Vec<(&'static str, String)> {
    report(tree, false)
        .into_iter()
        .filter(|(r, _)| r.starts_with(prefix))
        .collect()
}

/// (rule, file) of every problem, at turn end when `at_turn_end`.
pub fn problems(tree: &MemTree, at_turn_end: bool) -> Vec<(&'static str, String)> {
    report(tree, at_turn_end)
}
