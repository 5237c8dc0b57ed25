//! Every check scenario of the behaviour catalogue is named by a test: a Rust
//! test (by `SC-GROUP-NNN` or `sc_group_nnn`) or a fixture case under
//! `fixtures/check/cases/`. The list of scenario IDs is the manifest
//! `fixtures/check/scenarios.txt`; IDs that deliberately have no test are listed,
//! with the reason, in `fixtures/check/scenarios-without-tests.txt`.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn ids(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect()
}

/// The text of every file below `dir` with one of `extensions` (or a file named `case`).
fn corpus(dir: &Path, extensions: &[&str], out: &mut String) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            corpus(&path, extensions, out);
        } else {
            let name = path.file_name().unwrap().to_string_lossy();
            let ext = path
                .extension()
                .map(|e| e.to_string_lossy().into_owned())
                .unwrap_or_default();
            if name == "case" || extensions.contains(&ext.as_str()) {
                out.push_str(&std::fs::read_to_string(&path).unwrap_or_default());
                out.push('\n');
            }
        }
    }
}

#[test]
fn every_check_scenario_is_named_by_a_test() {
    let root = root();
    let mut text = String::new();
    corpus(&root.join("src"), &["rs"], &mut text);
    corpus(&root.join("crates/standards-core/src"), &["rs"], &mut text);
    corpus(&root.join("tests"), &["rs"], &mut text);
    corpus(&root.join("fixtures/check/cases"), &[], &mut text);
    for entry in std::fs::read_dir(root.join("fixtures/check/cases")).unwrap() {
        text.push_str(&entry.unwrap().file_name().to_string_lossy());
        text.push('\n');
    }
    let exempt = ids(&root.join("fixtures/check/scenarios-without-tests.txt"));
    let mut missing = Vec::new();
    for id in ids(&root.join("fixtures/check/scenarios.txt")) {
        let snake = id.to_lowercase().replace('-', "_");
        let named = text.contains(&id) || text.contains(&snake);
        if exempt.contains(&id) {
            assert!(
                !named,
                "{id} is listed as without a test, but a test names it: drop it from the list"
            );
        } else if !named {
            missing.push(id);
        }
    }
    assert!(
        missing.is_empty(),
        "{} scenario(s) have no test naming them: {missing:?}",
        missing.len()
    );
}
