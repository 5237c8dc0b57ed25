//! The committed manual pages in `man/man1/` are generated from the clap
//! definition. `UPDATE_MAN=1 cargo test man` rewrites them.

use std::collections::BTreeMap;
use std::path::PathBuf;

/// Every page: the main one and one per subcommand, by file name.
fn render_all() -> BTreeMap<String, String> {
    git_standards::cli::manual::pages()
}

fn man_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("man/man1")
}

#[test]
fn committed_man_pages_match_the_clap_definition() {
    let pages = render_all();
    let dir = man_dir();
    let committed: Vec<String> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".1"))
                .collect()
        })
        .unwrap_or_default();
    if std::env::var_os("UPDATE_MAN").is_some_and(|v| v == "1") {
        std::fs::create_dir_all(&dir).unwrap();
        for name in committed.iter().filter(|n| !pages.contains_key(*n)) {
            std::fs::remove_file(dir.join(name)).unwrap();
        }
        for (name, page) in &pages {
            std::fs::write(dir.join(name), page).unwrap();
        }
        return;
    }
    let mut stale: Vec<String> = pages
        .iter()
        .filter(|(name, page)| std::fs::read_to_string(dir.join(name)).ok().as_ref() != Some(*page))
        .map(|(name, _)| name.clone())
        .collect();
    stale.extend(committed.into_iter().filter(|n| !pages.contains_key(n)));
    assert!(
        stale.is_empty(),
        "the manual pages in man/man1/ are stale: {stale:?}; regenerate them with `UPDATE_MAN=1 cargo test --locked man::` and commit the result"
    );
}

#[test]
fn main_page_lists_subcommands_and_exit_codes_and_the_status_page_its_json() {
    let pages = render_all();
    let main = &pages["git-standards.1"];
    assert!(main.contains(".TH git-standards 1"), "{main}");
    for sub in ["install", "status", "demo"] {
        assert!(
            main.contains(&format!("git\\-standards\\-{sub}(1)")),
            "the main page must list `{sub}`"
        );
        assert!(pages.contains_key(&format!("git-standards-{sub}.1")));
    }
    for code in [
        "0: success.",
        "1: problems found",
        "2: usage error",
        "3: internal error",
    ] {
        assert!(main.contains(code), "exit code `{code}` is undocumented");
    }
    for key in [
        "ok:",
        "source:",
        "commit:",
        "projectMode:",
        "workflowState, owner:",
        "cycleMode, completionPolicy:",
        "pendingCycle:",
        "activeWork:",
        "lastCycle:",
        "handoff:",
        "recovery:",
        "obligations:",
        "baselineReconciliation:",
        "problems:",
    ] {
        // The keys live in the status page, under STATUS JSON.
        assert!(
            pages["git-standards-status.1"].contains(key),
            "status JSON key `{key}` is undocumented"
        );
    }
    let status = &pages["git-standards-status.1"];
    assert!(
        status.contains("\\-\\-staged")
            && status.contains("\\-\\-ref")
            && status.contains("\\-\\-json")
    );
}

#[test]
fn top_level_help_lists_the_commands_before_the_reference() {
    let out = std::process::Command::new(crate::common::Env::bin())
        .arg("--help")
        .env("COLUMNS", "100")
        .output()
        .unwrap();
    assert!(out.status.success());
    let help = String::from_utf8(out.stdout).unwrap();
    let line_of = |needle: &str| {
        help.lines()
            .position(|l| l.starts_with(needle))
            .unwrap_or_else(|| panic!("`{needle}` is missing from --help:\n{help}"))
    };
    let commands = line_of("Commands:");
    assert!(
        commands < 20,
        "the command list starts at line {commands}:\n{help}"
    );
    for section in ["EXIT STATUS", "EXAMPLES"] {
        assert!(
            line_of(section) > commands,
            "{section} comes before the commands"
        );
    }
    // The JSON keys live with their commands, after their options.
    for (args, section) in [
        (&["status", "--help"][..], "STATUS JSON"),
        (&["handoff", "--help"][..], "TRANSITION JSON"),
        (&["signoff", "--help"][..], "TRANSITION JSON"),
        (&["next-mode", "--help"][..], "TRANSITION JSON"),
    ] {
        let out = std::process::Command::new(crate::common::Env::bin())
            .args(args)
            .env("COLUMNS", "100")
            .output()
            .unwrap();
        assert!(out.status.success());
        let help = String::from_utf8(out.stdout).unwrap();
        let line_of = |needle: &str| {
            help.lines()
                .position(|l| l.starts_with(needle))
                .unwrap_or_else(|| panic!("`{needle}` is missing from {args:?}:\n{help}"))
        };
        assert!(
            line_of(section) > line_of("Options:"),
            "{args:?}: {section} comes before the options"
        );
    }
}
