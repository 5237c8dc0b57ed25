//! Issue 14, point 4: a tracked file whose stat data match the index is its
//! index blob, so `check` does not read it from disk; a modified or racily
//! clean one is read. Proven with the read counter (`crate::repo::reads`),
//! not with timings, and the two paths give the same problems.

use std::path::Path;

use crate::check::lay_base;
use crate::common::{write, Env};

const ID: &str = "add-user-search-20260927T190146Z-7bef0f04";

/// `check --json` in `repo`: its problems and how many files it read from disk.
fn check(env: &Env, repo: &Path) -> (serde_json::Value, usize) {
    let (problems, reads) = env.counted_check(repo, &[]);
    (problems, reads.disk)
}

fn sh(env: &Env, repo: &Path, script: &str) {
    let o = env
        .sealed("sh", repo)
        .args(["-c", script])
        .output()
        .unwrap();
    assert!(o.status.success(), "{script}: {o:?}");
}

/// F-STD with a scope that repeats AC-001, a record outside
/// `.standards/` with a malformed block, and 200 ordinary Markdown files,
/// all committed with stat data older than the index (not racy).
fn project() -> (Env, std::path::PathBuf) {
    let (env, repo) = Env::repo();
    write(repo.join("app.py"), "print(\"hi\")\n");
    env.run(&repo, &["install"]).success();
    lay_base(&repo, "f-std");
    let scope = format!(".standards/docs/scope/{ID}.md");
    let mut text = crate::common::read(repo.join(&scope));
    text.push_str("\n- `AC-001`: Defined a second time.\n");
    write(repo.join(&scope), text);
    write(
        repo.join("docs/design/odd.md"),
        "<!-- STANDARDS\nArtifact: NOT-A-TYPE\nCycle: x\n-->\n# Odd\n",
    );
    for d in 0..20 {
        for f in 0..10 {
            write(
                repo.join(format!("docs/d{d}/notes-{f}.md")),
                format!("# Notes {d}.{f}\n\nOrdinary documentation.\n"),
            );
        }
    }
    env.backdate_files(&repo);
    env.commit_all(&repo, "a project with problems");
    (env, repo)
}

#[test]
fn check_reads_no_unchanged_tracked_markdown_and_reads_a_modified_or_racy_one() {
    let (env, repo) = project();
    let (problems, reads) = check(&env, &repo);
    assert!(!problems.as_array().unwrap().is_empty());
    assert_eq!(reads, 0, "check read {reads} unchanged files from disk");

    // A modified file is read (its stat data changed), and only it.
    write(repo.join("docs/d3/notes-4.md"), "# Changed\n");
    let (_, reads) = check(&env, &repo);
    assert_eq!(reads, 1, "a modified file must be read, alone");

    // Racily clean: the entry is not older than the index, so its stat data
    // cannot prove it unchanged and it is read too.
    sh(
        &env,
        &repo,
        "git checkout -q -- docs/d3/notes-4.md \
         && touch -d @1600000000 docs/d3/notes-4.md && touch -d @4000000000 docs/d5/notes-5.md \
         && git update-index --refresh -q >/dev/null",
    );
    let (_, reads) = check(&env, &repo);
    assert!(
        (1..=2).contains(&reads),
        "the racily clean file must be read ({reads} reads)"
    );
}

#[test]
fn reusing_stat_data_and_reading_every_file_give_the_same_problems() {
    let (env, repo) = project();
    let (reused, reads) = check(&env, &repo);
    assert_eq!(reads, 0);
    let rules: Vec<&str> = reused
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["rule"].as_str().unwrap())
        .collect();
    assert!(rules.iter().any(|r| r.starts_with("AC-")), "{rules:?}");
    assert!(rules.contains(&"PV-001"), "{rules:?}");
    // An index older than every file makes every entry racy: all are read.
    sh(&env, &repo, "touch -d @1500000000 .git/index");
    let (read, reads) = check(&env, &repo);
    assert!(reads > 200, "only {reads} files were read");
    assert_eq!(reused, read);
}
