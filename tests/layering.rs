//! Issue 24: `src/repo/` is the only door to git. Outside it no source names
//! a gix item or reaches the raw repository (`Project::gix_repo`, private to
//! `repo`).

use std::path::{Path, PathBuf};

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Each `(file, line number, line)` outside `src/repo/` whose code (not a comment) holds `needle`.
fn offenders(needle: &str) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    sources(&root.join("src"), &mut files);
    let mut found = Vec::new();
    for file in files {
        let rel = file
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if rel.starts_with("src/repo/") {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.trim_start();
            if code.starts_with("//") {
                continue;
            }
            if code.contains(needle) {
                found.push(format!("{rel}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    found
}

#[test]
fn no_source_outside_repo_names_gix() {
    let found = offenders("gix::");
    assert!(
        found.is_empty(),
        "git is reached only through `src/repo/`; move these into a function there:\n{}",
        found.join("\n")
    );
}

#[test]
fn no_command_reaches_the_raw_repository() {
    let found = offenders("gix_repo()");
    assert!(
        found.is_empty(),
        "`Project::gix_repo` belongs to `src/repo/`; add a function there:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_guard_sees_what_it_guards() {
    // The scan reads real sources: `src/repo/` does hold what the guard
    // refuses elsewhere, so a scan that read nothing would fail here.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let repo = std::fs::read_to_string(root.join("src/repo/mod.rs")).unwrap();
    assert!(repo.contains("gix::"));
    assert!(repo.contains("fn gix_repo("));
    assert!(!offenders("fn ").is_empty());
}
