//! Issue 14: the content verdicts kept in the common git directory
//! (`standards/content-verdicts`). A run that learnt which blobs hold no
//! provenance block (or, under `.standards/`, no conflict markers) leaves
//! their IDs there, and the next run reads none of them; the problems found
//! stay the same. Proven with the read counter, with `git` as the witness
//! of what is staged.

use std::path::Path;

use crate::common::{write, Env};

const CACHE: &str = ".git/standards/content-verdicts";

/// `check` with `args` in `repo`: its problems and how many files and blobs it read.
fn check(env: &Env, repo: &Path, args: &[&str]) -> (serde_json::Value, usize) {
    let (problems, reads) = env.counted_check(repo, args);
    (problems, reads.files)
}

/// The `key` of each problem.
fn each(problems: &serde_json::Value, key: &str) -> Vec<String> {
    problems
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p[key].as_str().unwrap().to_string())
        .collect()
}

/// An installed project with 60 ordinary Markdown files, committed.
fn project() -> (Env, std::path::PathBuf) {
    let (env, repo) = Env::repo();
    env.run(&repo, &["install"]).success();
    for n in 0..60 {
        write(
            repo.join(format!("docs/notes-{n}.md")),
            format!("# Notes {n}\n\nOrdinary documentation.\n"),
        );
    }
    env.backdate_files(&repo);
    env.commit_all(&repo, "a project with notes");
    (env, repo)
}

#[test]
fn a_second_check_reads_none_of_the_markdown_the_first_found_plain() {
    let (env, repo) = project();
    assert!(!repo.join(CACHE).exists());
    for args in [&["--staged"][..], &["--ref", "HEAD"], &[]] {
        let _ = std::fs::remove_file(repo.join(CACHE));
        let (first, cold) = check(&env, &repo, args);
        assert!(repo.join(CACHE).is_file(), "{args:?} kept no verdicts");
        let (second, warm) = check(&env, &repo, args);
        assert_eq!(first, second, "{args:?}: the verdicts changed the problems");
        // The working tree too: its clean files are read from their blobs.
        assert!(cold >= warm + 60, "{args:?}: {cold} reads, then {warm}");
    }
}

#[test]
fn a_run_that_learns_nothing_leaves_the_file_alone() {
    let (env, repo) = project();
    check(&env, &repo, &["--staged"]);
    let before = std::fs::read(repo.join(CACHE)).unwrap();
    let modified = std::fs::metadata(repo.join(CACHE))
        .unwrap()
        .modified()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    check(&env, &repo, &["--staged"]);
    assert_eq!(std::fs::read(repo.join(CACHE)).unwrap(), before);
    assert_eq!(
        std::fs::metadata(repo.join(CACHE))
            .unwrap()
            .modified()
            .unwrap(),
        modified,
        "an unchanged cache was rewritten"
    );
}

#[test]
fn a_block_added_to_a_file_once_found_plain_is_still_checked() {
    let (env, repo) = project();
    let (clean, _) = check(&env, &repo, &["--staged"]);
    assert_eq!(clean.as_array().unwrap().len(), 0, "{clean}");
    // The same path, new content: a new blob, which no verdict names.
    write(
        repo.join("docs/notes-7.md"),
        "<!-- STANDARDS\nArtifact: NOT-A-TYPE\nCycle: x\n-->\n# Notes 7\n",
    );
    env.git(&repo, &["add", "docs/notes-7.md"]);
    for args in [&["--staged"][..], &[]] {
        let (problems, _) = check(&env, &repo, args);
        let files = each(&problems, "file");
        assert!(
            files.iter().any(|f| f == "docs/notes-7.md"),
            "{args:?}: {problems}"
        );
    }
}

#[test]
fn a_damaged_or_foreign_cache_is_ignored_and_replaced() {
    let (env, repo) = project();
    let (expected, cold) = check(&env, &repo, &["--staged"]);
    let good = std::fs::read(repo.join(CACHE)).unwrap();
    let damaged = [
        b"garbage".to_vec(),
        good[..good.len() - 3].to_vec(),
        String::from_utf8_lossy(&good)
            .replacen("content-verdicts v", "content-verdicts v9", 1)
            .into_bytes(),
    ];
    for bytes in damaged {
        write(repo.join(CACHE), &bytes);
        let (problems, reads) = check(&env, &repo, &["--staged"]);
        assert_eq!(problems, expected);
        assert_eq!(reads, cold, "a damaged cache must not spare a read");
        assert_eq!(std::fs::read(repo.join(CACHE)).unwrap(), good);
    }
}

#[test]
fn the_git_config_switch_turns_it_off() {
    let (env, repo) = project();
    env.git(&repo, &["config", "standards.scanCache", "false"]);
    let (_, cold) = check(&env, &repo, &["--staged"]);
    let (_, again) = check(&env, &repo, &["--staged"]);
    assert!(!repo.join(CACHE).exists());
    assert_eq!(cold, again);
}

#[test]
fn a_link_in_place_of_the_cache_is_never_written_through() {
    let (env, repo) = project();
    let outside = env.dir.path().join("outside");
    write(&outside, "mine\n");
    std::fs::create_dir_all(repo.join(".git/standards")).unwrap();
    std::os::unix::fs::symlink(&outside, repo.join(CACHE)).unwrap();
    let (problems, _) = check(&env, &repo, &["--staged"]);
    assert_eq!(problems.as_array().unwrap().len(), 0, "{problems}");
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), "mine\n");
    assert!(std::fs::symlink_metadata(repo.join(CACHE))
        .unwrap()
        .file_type()
        .is_symlink());
}

#[test]
fn linked_worktrees_share_one_cache_and_verify_uses_it() {
    let (env, repo) = project();
    let linked = env.dir.path().join("linked");
    env.git(
        &repo,
        &[
            "worktree",
            "add",
            "-q",
            linked.to_str().unwrap(),
            "-b",
            "side",
        ],
    );
    check(&env, &linked, &["--staged"]);
    assert!(
        repo.join(CACHE).is_file(),
        "the common git directory holds it"
    );
    assert!(!repo
        .join(".git/worktrees/linked/standards/content-verdicts")
        .exists());
    let (_, warm) = check(&env, &repo, &["--staged"]);
    std::fs::remove_file(repo.join(CACHE)).unwrap();
    let (_, cold) = check(&env, &repo, &["--staged"]);
    assert!(cold >= warm + 60, "{cold} reads cold, {warm} warm");
    std::fs::remove_file(repo.join(CACHE)).unwrap();
    env.run(&repo, &["verify", "HEAD"]).success();
    assert!(repo.join(CACHE).is_file(), "verify keeps what it learnt");
}

#[test]
fn a_switch_that_is_no_boolean_is_an_error_naming_it() {
    let (env, repo) = project();
    env.git(&repo, &["config", "standards.scanCache", "sometimes"]);
    let out = env.run(&repo, &["check", "--staged"]);
    let out = out.get_output();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_ne!(out.status.code(), Some(0), "{err}");
    assert!(err.contains("standards.scanCache"), "{err}");
    assert!(!repo.join(CACHE).exists());
}

/// The counts in the cache file's first line: (plain, unmarked).
fn counts(repo: &Path) -> (usize, usize) {
    let bytes = std::fs::read(repo.join(CACHE)).unwrap();
    let end = bytes.iter().position(|&b| b == b'\n').unwrap();
    let line = String::from_utf8_lossy(&bytes[..end]).into_owned();
    let words: Vec<&str> = line.split(' ').collect();
    let n = words.len();
    (words[n - 2].parse().unwrap(), words[n - 1].parse().unwrap())
}

#[test]
fn markers_written_into_a_file_known_unmarked_are_found() {
    let (env, repo) = project();
    check(&env, &repo, &["--staged"]);
    let tracked = env.git(&repo, &["ls-files", "--", ".standards/*.md"]);
    let (plain, unmarked) = counts(&repo);
    assert!(plain >= 60, "{plain} plain IDs");
    assert!(
        unmarked >= tracked.lines().count(),
        "{unmarked} unmarked IDs for\n{tracked}"
    );
    // New content under the same path: a new blob, read and judged again.
    let mut text = crate::common::read(repo.join(".standards/STATE.md"));
    text.push_str("<<<<<<< ours\nA\n=======\nB\n>>>>>>> theirs\n");
    write(repo.join(".standards/STATE.md"), text);
    env.git(&repo, &["add", ".standards/STATE.md"]);
    for args in [&["--staged"][..], &[]] {
        let (problems, _) = check(&env, &repo, args);
        let rules = each(&problems, "rule");
        assert!(rules.iter().any(|r| r == "RT-004"), "{args:?}: {problems}");
    }
}
