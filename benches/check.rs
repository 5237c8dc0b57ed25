//! Benchmark: how long `check` takes, and how much memory it needs, on a large
//! project held in memory (no disk or git noise), and on a real repository
//! through the library's snapshots.
//!
//! Run with `cargo bench --bench check`. Prints one line per scenario:
//! files in the tree, median and max wall time over the runs, and the
//! process's peak resident memory afterwards.
//!
//! `cargo bench --bench check -- --records-only` runs only the long-record
//! scenario (entry counts from `RECORD_SIZES=1000,4000`; `COMPAT=1` for the
//! reference rules alone; `PART=state|review|plan|context` makes only that
//! part long), which shows whether the rules stay linear in entry count.

use std::time::{Duration, Instant};

use standards_core::check::{self, testing::installed_tree, Options};
use standards_core::model::tree::MemTree;
use standards_core::model::vocab::ProjectMode;

const ID: &str = "add-user-search-20260927T190146Z-7bef0f04";

fn block(artifact: &str, cycle: &str) -> String {
    format!("<!-- STANDARDS\nArtifact: {artifact}\nCycle: {cycle}\n-->\n")
}

/// An active STANDARD cycle with a 400-condition scope, plus `history` records
/// of earlier cycles and `plain` ordinary Markdown files.
fn large_project(history: usize, plain: usize) -> MemTree {
    let mut t = installed_tree(ProjectMode::Brownfield);
    let state = standards_core::model::state::fresh_template(ProjectMode::Brownfield)
        .replace("`Id`: `UNSET`", &format!("`Id`: `{ID}`"))
        .replace("`Request`: `UNSET`", "`Request`: `Add user search`")
        .replace("`CycleMode`: `UNSET`", "`CycleMode`: `STANDARD`")
        .replace(
            "`CompletionPolicy`: `NONE`",
            "`CompletionPolicy`: `FULL_DELIVERABLE`",
        )
        .replace(
            "`Scope`: `NONE`",
            &format!("`Scope`: `.standards/docs/scope/{ID}.md`"),
        );
    t.insert(".standards/STATE.md", state);
    let mut scope = block("SCOPE", ID);
    scope.push_str("# Search\n\n## Work\n\n");
    for n in 1..=400 {
        scope.push_str(&format!(
            "- `AC-{n:03}`: Condition number {n} is observable.\n"
        ));
    }
    t.insert(&format!(".standards/docs/scope/{ID}.md"), scope);
    for i in 0..history {
        let cycle = format!("old-{i}-20250101T000000Z-{i:08x}");
        let mut text = block("DEVELOPMENT", &cycle);
        text.push_str(&format!(
            "\n# Development Plan\n\n`Cycle`: `{cycle}`\n\n## Build Steps\n"
        ));
        for s in 1..=20 {
            text.push_str(&format!(
                "\n### DEV-{s:03} — Step {s}\n`Status`: `DONE` `Acceptance`: `AC-{s:03}`\n"
            ));
        }
        t.insert(&format!(".standards/docs/development/{cycle}.md"), text);
    }
    for i in 0..plain {
        t.insert(
            &format!("docs/page-{i}.md"),
            format!("# Page {i}\n\nOrdinary documentation, AC-{i:03} mentioned.\n"),
        );
    }
    t
}

/// A cycle awaiting sign-off whose records and state are `n` entries long:
/// `n` findings citing each other by qualified reference, `n` baseline
/// sources, `n` obligations, `n` increments and `n` context entries, so the
/// PR rules that walk entries show whether they stay linear.
fn long_records(n0: usize) -> MemTree {
    let part = std::env::var("PART").unwrap_or_default();
    let n_for = |p: &str| if part.is_empty() || part == p { n0 } else { 1 };
    let mut t = installed_tree(ProjectMode::Brownfield);
    let n = n_for("state");
    let sources: String = (0..n)
        .map(|i| {
            format!(
                "- `SourceCycle`: `old-{i}-20250101T000000Z-{i:08x}`\n  `Request`: `Old work {i}.`\n"
            )
        })
        .collect();
    let obligations: String = (1..=n)
        .map(|i| {
            format!("### Obligation {i}\n\n`Owner`: `DEVELOPING` `FailureType`: `IMPLEMENTATION`\n`Reason`: `Defect {i}.`\n\n")
        })
        .collect();
    let state = standards_core::model::state::fresh_template(ProjectMode::Brownfield)
        .replace("`Id`: `UNSET`", &format!("`Id`: `{ID}`"))
        .replace("`Request`: `UNSET`", "`Request`: `Add user search`")
        .replace("`CycleMode`: `UNSET`", "`CycleMode`: `STANDARD`")
        .replace(
            "`WorkflowState`: `AUDITING`",
            "`WorkflowState`: `DEVELOPING`",
        )
        .replace(
            "`CompletionPolicy`: `NONE`",
            "`CompletionPolicy`: `FULL_DELIVERABLE`",
        )
        .replace(
            "`PromotionReason`: `NONE`",
            "`PromotionReason`: `Needs an architecture decision.`",
        )
        .replace(
            "`BaselineReconciliation`: `NONE`\n",
            &format!("`BaselineReconciliation`:\n\n{sources}"),
        )
        .replace(
            "## Outstanding Obligations\n\n`Active`: `false`",
            &format!("## Outstanding Obligations\n\n`Active`: `true`\n\n{obligations}"),
        );
    t.insert(".standards/STATE.md", state);
    let n = n_for("review");
    let review_path = format!(".standards/docs/reviews/{ID}/implementation.md");
    let mut review = format!(
        "<!-- STANDARDS\nArtifact: REVIEW\nCycle: {ID}\nReviewKind: IMPLEMENTATION\n-->\n\n# Review Report\n\n`Cycle`: `{ID}` `ReviewKind`: `IMPLEMENTATION`\n`Status`: `IN_PROGRESS` `User Style`: `NONE`\n\n## Findings\n\n"
    );
    for i in 1..=n {
        review.push_str(&format!(
            "### F-{i:03} — Defect {i}\n\n`Severity`: `P2` `Status`: `OPEN` `Owner`: `DEVELOPER` `FailureType`: `IMPLEMENTATION`\n\nSee {review_path}#F-{:03} and F-{i:03}.\n\n",
            (i % n) + 1
        ));
    }
    t.insert(&review_path, review);
    let n = n_for("plan");
    let mut plan = block("DEVELOPMENT", ID);
    plan.push_str(&format!(
        "\n# Development Plan\n\n`Cycle`: `{ID}` `Mode`: `AUTONOMOUS`\n`User Style`: `NONE` `User Style Locked`: `true`\n`Status`: `IN_PROGRESS` `Verification Cadence`: `INCREMENTAL` `Current Increment`: `1`\n\n## Build Steps\n\n### DEV-001 — Step\n\n`Status`: `DONE` `Depends On`: `NONE`\n\n## Verification Increments\n\n"
    ));
    for i in 1..=n {
        plan.push_str(&format!(
            "### Increment {i}\n\n`Development Steps`: `DEV-001` `Acceptance`: `AC-001`\n\n**Ready Outcome**\n\nOutcome {i}.\n\n"
        ));
    }
    t.insert(&format!(".standards/docs/development/{ID}.md"), plan);
    let n = n_for("context");
    let context: String = (0..n)
        .map(|i| format!("- `Cycle: old-{i}-20250101T000000Z-{i:08x}; src/{i}.rs` — old work.\n"))
        .collect();
    t.insert(
        ".standards/CONTEXT.md",
        format!("# Project Context\n\n## Active-Cycle Non-Baseline Work\n\n{context}"),
    );
    t
}

fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

fn measure(name: &str, files: usize, runs: usize, mut f: impl FnMut()) {
    f(); // warm-up
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect();
    times.sort();
    let median = times[times.len() / 2];
    let max = *times.last().expect("at least one run");
    println!(
        "{name:<40} files {files:>6}  median {:>8.2} ms  max {:>8.2} ms  peak RSS {} KiB",
        median.as_secs_f64() * 1e3,
        max.as_secs_f64() * 1e3,
        peak_rss_kib()
            .map(|k| k.to_string())
            .unwrap_or_else(|| "n/a".into())
    );
}

/// A real repository on disk: `files` committed files in 100 folders (one in
/// ten Markdown), an installed runtime, and an F-STD-like active cycle.
fn real_repository(files: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    let git = |args: &[&str]| {
        let ok = std::process::Command::new("git")
            .args(args)
            .current_dir(root)
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_SYSTEM", "/dev/null")
            .env("GIT_AUTHOR_NAME", "bench")
            .env("GIT_AUTHOR_EMAIL", "bench@example.com")
            .env("GIT_COMMITTER_NAME", "bench")
            .env("GIT_COMMITTER_EMAIL", "bench@example.com")
            .output()
            .expect("git runs")
            .status
            .success();
        assert!(ok, "git {args:?}");
    };
    git(&["init", "-q", "-b", "main"]);
    for i in 0..files {
        let folder = root.join(format!("src/m{:03}", i % 100));
        std::fs::create_dir_all(&folder).unwrap();
        let name = if i % 10 == 0 {
            format!("notes-{i}.md")
        } else {
            format!("f{i}.rs")
        };
        std::fs::write(folder.join(name), format!("// file {i}\n")).unwrap();
    }
    std::fs::write(root.join(".gitignore"), "target/\n").unwrap();
    let tree = large_project(50, 0);
    use standards_core::model::tree::{Node, Tree};
    for path in tree
        .markdown_files()
        .into_iter()
        .chain([".standards/VERSION.json", ".standards/INSTALLATION.json"].map(String::from))
    {
        if let Node::File(bytes) = tree.node(&path) {
            let target = root.join(&path);
            std::fs::create_dir_all(target.parent().unwrap()).unwrap();
            std::fs::write(target, bytes).unwrap();
        }
    }
    git(&["add", "-A"]);
    git(&["commit", "-q", "-m", "bench"]);
    dir
}

fn main() {
    let sizes: Vec<usize> = std::env::var("RECORD_SIZES")
        .ok()
        .map(|v| v.split(',').filter_map(|n| n.parse().ok()).collect())
        .unwrap_or_else(|| vec![1_000, 4_000, 16_000]);
    let compat = std::env::var_os("COMPAT").is_some();
    for n in sizes {
        let tree = long_records(n);
        measure(
            &format!("check, records of {n} entries"),
            tree.markdown_files_len(),
            5,
            || {
                let report = check::run(
                    &tree,
                    Some(&tree),
                    Options {
                        compat,
                        ..Options::default()
                    },
                );
                std::hint::black_box(report);
            },
        );
    }
    if std::env::args().any(|a| a == "--records-only") {
        return;
    }
    for files in [1_000, 20_000] {
        let repo = real_repository(files);
        let project = git_standards::repo::Project::discover(repo.path()).expect("a repository");
        let total = files + 60;
        measure("check, real repository (working tree)", total, 5, || {
            let r = git_standards::commands::check::evaluate(
                &project,
                &git_standards::commands::check::Source::Worktree,
                Options::default(),
            )
            .expect("check runs");
            std::hint::black_box(r);
        });
        measure("check, real repository (--staged)", total, 5, || {
            let r = git_standards::commands::check::evaluate(
                &project,
                &git_standards::commands::check::Source::Staged,
                Options::default(),
            )
            .expect("check runs");
            std::hint::black_box(r);
        });
    }
    for (history, plain) in [(10, 100), (200, 2_000), (1_000, 10_000)] {
        let tree = large_project(history, plain);
        let files = tree.markdown_files_len();
        measure(
            &format!("check, in memory ({history} old plans)"),
            files,
            9,
            || {
                let report = check::run(&tree, Some(&tree), Options::default());
                std::hint::black_box(report);
            },
        );
    }
}

trait Count {
    fn markdown_files_len(&self) -> usize;
}

impl Count for MemTree {
    fn markdown_files_len(&self) -> usize {
        use standards_core::model::tree::Tree;
        self.markdown_files().len()
    }
}
