//! `git standards demo`: a throwaway repository, installed and shown.

use std::path::Path;

use crate::common::{files_below, read, stderr, stdout, write, Env};

/// Entries of a folder, sorted.
fn entries(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn demo_installs_shows_status_and_removes_its_folder() {
    let env = Env::new();
    let tmp = env.dir.path().join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let a = env
        .cmd(env.dir.path())
        .arg("demo")
        .env("TMPDIR", &tmp)
        .output()
        .unwrap();
    let a = assert_cmd::assert::Assert::new(a).success();
    let out = stdout(&a);
    assert!(stderr(&a).is_empty(), "{}", stderr(&a));

    let first = out.lines().next().unwrap();
    let folder = first
        .strip_prefix("Created the temporary folder ")
        .and_then(|r| r.strip_suffix(" for the demo; it is removed at the end."))
        .unwrap_or_else(|| panic!("unexpected first line: {first}"));
    let canonical_tmp = std::fs::canonicalize(&tmp).unwrap();
    assert!(Path::new(folder).starts_with(&canonical_tmp), "{folder}");
    for sentence in [
        "Initialised an empty git repository there on the branch `main`, with no commits yet.\n",
        "Installing the STANDARDS runtime, as `git standards install` does in any repository:\n",
        "    created        .standards/STATE.md\n",
        "Reading the workflow state back, as `git standards status` does:\n",
        "    Status of the working tree\n",
        "      Workflow state      SCOPING, owned by the Scoper\n",
        "      Project mode        GREENFIELD\n",
        "Checking the state against every protocol rule, as `git standards check` does:\n",
        "$ git standards start --request \"Build the greeting app\"\n",
        "    Next role: Scoper\n",
        "$ git standards artifact init SCOPE\n",
        "$ git standards handoff --to ARCHITECTING --reason \"The scope is complete.\"\n",
        "    Codex:       $architect Continue the active workflow",
        "then run: /tester Continue the active workflow",
        "$ git standards handoff --to AWAITING_USER_SIGNOFF --reason \"The records agree.\"\n",
        "    The user decides next:\n",
        "$ git standards signoff\n",
        "      Workflow state      SIGNED_OFF, owned by the user\n",
        "$ git switch -c greeting-app\n",
        "$ git standards reset --yes --commit\n",
        "$ git standards merge-guard greeting-app --into main\n",
        "    `greeting-app` may merge into `main`",
        "$ git merge --ff-only greeting-app\n",
        "$ git standards log\n",
    ] {
        assert!(out.contains(sentence), "missing {sentence:?} in:\n{out}");
    }
    // Every step passed check and was committed.
    assert_eq!(
        out.matches("  check passed; committed ").count(),
        20,
        "{out}"
    );
    assert!(
        out.ends_with(&format!("\nRemoved the demo folder {folder}.\n")),
        "{out}"
    );
    assert!(!Path::new(folder).exists(), "the demo folder is removed");
    assert!(entries(&tmp).is_empty(), "nothing left in TMPDIR");
}

#[test]
fn keep_builds_a_real_repository_in_a_new_folder() {
    let env = Env::new();
    let a = env
        .run(env.dir.path(), &["demo", "--keep", "tour"])
        .success();
    let dir = env.dir.path().join("tour");
    let out = stdout(&a);
    assert!(
        out.contains("for the demo; it is kept afterwards."),
        "{out}"
    );
    assert!(out.contains("The demo repository stays in"), "{out}");
    assert_eq!(entries(&dir), [".git", ".standards", "README.md", "app.py"]);
    assert!(files_below(&dir).contains(&".standards/STATE.md".to_string()));
    // git itself accepts the repository gix created.
    assert_eq!(
        env.git(&dir, &["rev-parse", "--is-inside-work-tree"])
            .trim(),
        "true"
    );
    assert_eq!(
        env.git(&dir, &["symbolic-ref", "HEAD"]).trim(),
        "refs/heads/main"
    );
    // Every step is a commit (none empty), then the reset's; git sees a clean
    // tree, and each commit checks clean.
    assert_eq!(env.git(&dir, &["status", "--porcelain"]), "");
    let commits = env.git(&dir, &["rev-list", "HEAD"]);
    assert_eq!(commits.lines().count(), 21);
    for c in commits.lines() {
        env.run(&dir, &["check", "--ref", c]).success();
        let changed = env.git(&dir, &["diff-tree", "--root", "--name-only", "-r", c]);
        assert!(changed.lines().count() > 1, "{c} is an empty commit");
    }
    env.git(&dir, &["fsck", "--no-dangling"]);
    // The cycle's branch merged into main after its reset: main holds a fresh
    // installation, which the merge guard lets in.
    assert_eq!(
        env.git(&dir, &["rev-parse", "main"]),
        env.git(&dir, &["rev-parse", "greeting-app"])
    );
    let status = stdout(&env.run(&dir, &["status"]).success());
    assert!(
        status.contains("AUDITING, owned by the Auditor"),
        "{status}"
    );
    env.run(&dir, &["merge-guard", "greeting-app", "--into", "main"])
        .success();
    // The transitions and the reset left their audit events.
    let log = stdout(&env.run(&dir, &["log"]).success());
    for event in [
        "cycle-started",
        "handed-off",
        "signed-off",
        "archived",
        "reset",
    ] {
        assert!(log.contains(event), "{event} missing from:\n{log}");
    }
    // The cycle's records are in the signed-off commit and the archive.
    let signed = env.git(&dir, &["ls-tree", "-r", "--name-only", "HEAD~1"]);
    for folder in ["scope", "synchronization"] {
        assert!(
            signed.contains(&format!(".standards/docs/{folder}/build-the-greeting-app-")),
            "{signed}"
        );
    }
    assert!(env
        .git(&dir, &["for-each-ref", "refs/standards/archive/"])
        .contains("build-the-greeting-app-"));
    assert!(!dir.join(".standards/docs").exists());
    env.run(&dir, &["check"]).success();

    // An existing empty folder is fine too.
    let empty = env.dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let a = env
        .run(env.dir.path(), &["demo", "--keep", empty.to_str().unwrap()])
        .success();
    assert!(stdout(&a).contains("Using the empty folder"));
    assert!(empty.join(".standards/STATE.md").is_file());
}

/// Issue 15, item 7: the demo shows the STATE.md lines a move changed, and
/// they are the lines git's own diff of that commit shows; the kept
/// repository answers the guide's `--ref` and `--staged` examples (docs/guide.md).
#[test]
fn the_demo_prints_the_real_state_diff_and_keeps_a_repository_for_ref_and_staged() {
    let env = Env::new();
    let a = env
        .run(env.dir.path(), &["demo", "--keep", "tour"])
        .success();
    let dir = env.dir.path().join("tour");
    let out = stdout(&a);
    let (_, after) = out
        .split_once("lines that hold its fields")
        .unwrap_or_else(|| panic!("no diff announced: {out}"));
    let shown: Vec<&str> = after
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with("    -") || l.starts_with("    +"))
        .map(|l| &l[4..])
        .collect();
    assert!(shown.len() >= 2, "the diff is printed: {out}");
    let commit = env
        .git(
            &dir,
            &["log", "--format=%H", "--grep", "Hand off to ARCHITECTING"],
        )
        .trim()
        .to_string();
    let git_diff = env.git(
        &dir,
        &[
            "diff",
            "-U0",
            &format!("{commit}~1"),
            &commit,
            "--",
            ".standards/STATE.md",
        ],
    );
    let git_lines: Vec<&str> = git_diff
        .lines()
        .filter(|l| {
            (l.starts_with('-') || l.starts_with('+'))
                && !l.starts_with("---")
                && !l.starts_with("+++")
        })
        .collect();
    let (mut shown, mut git_lines) = (shown, git_lines);
    shown.sort();
    git_lines.sort();
    assert_eq!(shown, git_lines, "{git_diff}");

    // The guide: `status --ref <branch>` and `check --ref` read history without a checkout.
    let a = env.run(&dir, &["status", "--ref", "HEAD~3"]).success();
    assert!(stdout(&a).contains("Status of commit"), "{}", stdout(&a));
    env.run(&dir, &["check", "--ref", "main"]).success();
    // The guide: `check --staged` and `status --staged` read the index: a
    // staged broken state fails there while the last commit still passes.
    env.run(&dir, &["check", "--staged"]).success();
    let state = dir.join(".standards/STATE.md");
    let text = read(&state);
    assert!(text.contains("`AUDITING`"), "{text}");
    crate::common::write(&state, text.replace("`AUDITING`", "`NOT_A_STATE`"));
    env.git(&dir, &["add", ".standards/STATE.md"]);
    env.run(&dir, &["check", "--staged"]).code(1);
    env.run(&dir, &["status", "--staged"]).code(1);
    env.run(&dir, &["check", "--ref", "HEAD"]).success();
}

#[test]
fn keep_refuses_a_folder_with_content_or_a_file() {
    let env = Env::new();
    let busy = env.dir.path().join("busy");
    write(busy.join("notes.txt"), "mine\n");
    let a = env.run(env.dir.path(), &["demo", "--keep", "busy"]).code(1);
    let err = stderr(&a);
    assert!(
        err.contains("refusing to build the demo in") && err.contains("the folder is not empty"),
        "{err}"
    );
    assert!(err.contains("hint: name a new folder"), "{err}");
    assert_eq!(entries(&busy), ["notes.txt"]);
    assert_eq!(read(busy.join("notes.txt")), "mine\n");
    assert!(stdout(&a).is_empty());

    let file = env.dir.path().join("file");
    write(&file, "x");
    let a = env.run(env.dir.path(), &["demo", "--keep", "file"]).code(1);
    assert!(stderr(&a).contains("it exists and is not a folder"));
    assert_eq!(read(&file), "x");
}

#[test]
fn demo_never_installs_into_the_repository_git_dir_names() {
    let (env, repo) = Env::repo();
    let a = env
        .cmd(env.dir.path())
        .args(["demo", "--keep", "tour"])
        .env("GIT_DIR", repo.join(".git"))
        .output()
        .unwrap();
    let a = assert_cmd::assert::Assert::new(a).code(1);
    assert!(
        stderr(&a).contains("`GIT_DIR` or `GIT_WORK_TREE`"),
        "{}",
        stderr(&a)
    );
    assert!(!repo.join(".standards").exists());
    assert!(!env.dir.path().join("tour/.standards").exists());
}

#[test]
fn demo_into_a_closed_pipe_exits_cleanly_and_cleans_up() {
    let env = Env::new();
    let tmp = env.dir.path().join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = env
        .cmd(env.dir.path())
        .arg("demo")
        .env("TMPDIR", &tmp)
        .stdout(writer)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(entries(&tmp).is_empty(), "the temporary folder is removed");
}
