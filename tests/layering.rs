//! Issue 24: `src/repo/` is the only door to git. Outside it no source names
//! a gix item, and only the commands still being rewritten reach the raw
//! repository (`Project::gix_repo`, crate-private).

use std::path::{Path, PathBuf};

/// Files that may still reach the repository directly until their rewrite
/// lands (issue 24: `verify` moves its walking into `repo::history`, `reset`
/// and `uninstall` move to the shared change plan).
const STILL_DIRECT: &[&str] = &[
    "src/commands/verify/",
    "src/commands/reset.rs",
    "src/commands/uninstall.rs",
];

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

/// Each `(file, line number, line)` outside `src/repo/` and the allowed
/// files whose code (not a comment) holds `needle`.
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
        if rel.starts_with("src/repo/") || STILL_DIRECT.iter().any(|a| rel.starts_with(a)) {
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
fn only_three_commands_reach_the_raw_repository() {
    let found = offenders("gix_repo()");
    assert!(
        found.is_empty(),
        "`Project::gix_repo` is only for the commands being rewritten; use a function of `src/repo/`:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_guard_sees_what_it_guards() {
    // The scan reads real sources: the allowed files do hold what the
    // guard refuses elsewhere, so a scan that read nothing would fail here.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let repo = std::fs::read_to_string(root.join("src/repo/mod.rs")).unwrap();
    assert!(repo.contains("gix::"));
    assert!(repo.contains("fn gix_repo("));
    assert!(!offenders("fn ").is_empty());
}
