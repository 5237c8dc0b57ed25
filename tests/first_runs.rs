//! Issue 27, item 3: a first `check` (no scan cache) reads every Markdown
//! blob; what it holds meanwhile is bounded. The staged and working-tree
//! checks let go of the decoded index once the Markdown is listed, and
//! `check --ref` walks the commit's trees through an object store it drops
//! before reading any blob. Proven with the debug binary's counters, not
//! with timings, and the snapshots' answers after letting go are checked
//! against git's own.

use std::path::Path;

use git_standards::repo::Project;
use standards_core::model::tree::{Node, Tree};

use crate::common::{write, Env};

/// Markdown files beside the runtime's: enough that reading them while the
/// index is held cannot pass for the few runtime files read before.
const NOTES: usize = 60;

/// An installed project with [`NOTES`] plain Markdown files and two records
/// in folders of code, committed, with stat data git trusts (not racy).
fn project() -> (Env, std::path::PathBuf) {
    let (env, repo) = Env::repo();
    env.run(&repo, &["install"]).success();
    for n in 0..NOTES {
        write(
            repo.join(format!("d{}/note{n}.md", n % 7)),
            format!("# Note {n}\n"),
        );
        write(repo.join(format!("d{}/code{n}.rs", n % 7)), "fn f() {}\n");
    }
    for r in 0..2 {
        write(
            repo.join(format!("d{r}/rec{r}.md")),
            format!("<!-- STANDARDS\nArtifact: SCOPE\nCycle: c{r}\n-->\n# Record {r}\n"),
        );
    }
    env.backdate_files(&repo);
    env.commit_all(&repo, "notes");
    (env, repo)
}

/// The counters a debug run of `check <args> --json` without the scan cache
/// reports, by label, and its stdout.
fn first_run(env: &Env, repo: &Path, args: &[&str]) -> (String, impl Fn(&str) -> usize) {
    let mut cmd = env.cmd(repo);
    cmd.arg("check")
        .args(args)
        .arg("--json")
        .env("GIT_STANDARDS_COUNT_READS", "1")
        .env("GIT_CONFIG_COUNT", "1")
        .env("GIT_CONFIG_KEY_0", "standards.scanCache")
        .env("GIT_CONFIG_VALUE_0", "false");
    let out = cmd.output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.code() == Some(0), "{args:?}: {stdout}{stderr}");
    let count = move |label: &str| -> usize {
        stderr
            .lines()
            .find_map(|l| l.strip_prefix(label)?.strip_prefix(": "))
            .unwrap_or_else(|| panic!("no `{label}` in {stderr}"))
            .parse()
            .unwrap()
    };
    (stdout, count)
}

/// The staged and working-tree checks read the Markdown blobs after letting
/// go of the index: it is decoded once, and only the few runtime files read
/// before the listing are read while it lives.
#[test]
fn a_first_check_reads_the_markdown_after_letting_go_of_the_index() {
    let (env, repo) = project();
    let markdown = env.git(&repo, &["ls-files", "--", "*.md"]).lines().count();
    assert!(
        markdown > NOTES,
        "git lists the notes, records and runtime files"
    );
    for args in [&["--staged"][..], &[][..]] {
        let (_, count) = first_run(&env, &repo, args);
        // Every Markdown file git lists was read, each from its blob (the
        // working tree's files are unchanged since they were staged).
        assert!(count("files read") >= markdown, "{args:?}");
        assert_eq!(count("read from disk"), 0, "{args:?}");
        assert_eq!(count("index decodes"), 1, "{args:?}");
        let held = count("blobs read while the index was decoded");
        assert!(
            held * 4 < NOTES,
            "{args:?}: {held} blobs read while the index was held"
        );
    }
}

/// The pre-commit hook checks each project of the repository; the projects
/// share one decoded index (each staged check lets go of it otherwise), and
/// each still sees its own staged content.
#[test]
fn the_pre_commit_hook_decodes_the_index_once_for_every_project() {
    let (env, repo) = Env::repo();
    for dir in ["app", "tools"] {
        std::fs::create_dir_all(repo.join(dir).join(".standards")).unwrap();
        env.run(&repo.join(dir), &["install"]).success();
        write(repo.join(dir).join("notes.md"), "# Notes\n");
    }
    env.commit_all(&repo, "two projects");
    write(repo.join("app/notes.md"), "# Notes, staged\n");
    write(
        repo.join("tools/.standards/MODE.md"),
        "`ProjectMode`: `HYBRID`\n",
    );
    env.git(&repo, &["add", "-A"]);
    let mut cmd = env.cmd(&repo);
    cmd.args(["hook", "pre-commit"])
        .env("GIT_STANDARDS_COUNT_READS", "1");
    let out = cmd.output().unwrap();
    let said =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "the broken project fails: {said}");
    assert!(said.contains("RT-005"), "{said}");
    let decodes = said
        .lines()
        .find_map(|l| l.strip_prefix("index decodes: "))
        .unwrap_or_else(|| panic!("no count in {said}"));
    assert_eq!(decodes, "1", "{said}");
}

/// `check --ref` reads every tree of the commit through a store of its own
/// and drops it before the first blob; the result is the same as the
/// staged check's on the same content, as git says the index and HEAD agree.
#[test]
fn a_first_check_of_a_commit_reads_no_blob_beside_its_walk() {
    let (env, repo) = project();
    assert_eq!(env.git(&repo, &["diff", "--cached", "--name-only"]), "");
    let (at_ref, count) = first_run(&env, &repo, &["--ref", "HEAD"]);
    let markdown = env.git(
        &repo,
        &["ls-tree", "-r", "--name-only", "HEAD", "--", "*.md"],
    );
    assert!(count("files read") >= markdown.lines().count());
    assert!(count("own object stores") >= 1);
    assert_eq!(count("blobs read beside an own store"), 0);
    let (staged, _) = first_run(&env, &repo, &["--staged"]);
    let problems = |json: &str| -> serde_json::Value {
        serde_json::from_str::<serde_json::Value>(json).unwrap()["problems"].clone()
    };
    assert_eq!(problems(&at_ref), problems(&staged));
}

/// An index snapshot that let go of the index answers from its entries as
/// before, reads the index anew for a path outside them, and refuses that
/// when another process rewrote the index in the meantime.
#[test]
fn a_lean_index_snapshot_answers_as_git_and_refuses_a_changed_index() {
    let (env, repo) = project();
    let project = Project::discover(&repo).unwrap();
    let index = project.index().unwrap();
    index.lean();
    assert!(index.holds_index(), "nothing is listed yet");
    let listed = index.markdown_files();
    assert!(!index.holds_index(), "let go once listed");
    let git_listed: Vec<String> = env
        .git(&repo, &["ls-files", "--", "*.md"])
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(listed, git_listed);
    let staged = |path: &str| env.git(&repo, &["show", &format!(":{path}")]).into_bytes();
    assert_eq!(index.node("d1/rec1.md"), Node::File(staged("d1/rec1.md")));
    // Outside the listing: the index is read anew (the file is unchanged).
    assert_eq!(index.node("d3/code3.rs"), Node::File(staged("d3/code3.rs")));
    assert_eq!(index.node("d3"), Node::Dir);
    // A second snapshot, let go of the same way, then a `git add` by another
    // process: what the listing holds is still answered, the rest refused.
    let second = project.index().unwrap();
    second.lean();
    second.markdown_files();
    write(repo.join("d4/code4.rs"), "fn g() {}\n");
    env.git(&repo, &["add", "d4/code4.rs"]);
    assert_eq!(second.node("d1/rec1.md"), Node::File(staged("d1/rec1.md")));
    match second.node("d5/code5.rs") {
        Node::Unreadable(why) => assert!(why.contains("index changed"), "{why}"),
        other => panic!("answered from a changed index: {other:?}"),
    }
}

/// A working-tree snapshot that let go of the index reads the files the walk
/// found unchanged from their blobs, and any other from disk: a file edited
/// after it was staged shows its edit, as `git diff` sees it.
#[test]
fn a_lean_worktree_snapshot_reads_what_is_on_disk() {
    let (env, repo) = project();
    // A tracked runtime file that is not Markdown (the walk decides only
    // Markdown files), edited like the note.
    let runtime = env
        .git(&repo, &["ls-files", "--", ".standards"])
        .lines()
        .find(|p| !p.ends_with(".md"))
        .expect("the runtime holds a file that is not Markdown")
        .to_string();
    write(repo.join("d2/note2.md"), "# Note 2, edited\n");
    write(repo.join(&runtime), "edited\n");
    assert_eq!(
        env.git(&repo, &["diff", "--name-only"]),
        format!("{runtime}\nd2/note2.md\n")
    );
    let project = Project::discover(&repo).unwrap();
    let tree = project.worktree().unwrap();
    tree.lean();
    let listed = tree.markdown_files();
    assert!(!tree.holds_index(), "let go once listed");
    assert!(listed.contains(&"d2/note2.md".to_string()));
    assert_eq!(
        tree.node("d2/note2.md"),
        Node::File(b"# Note 2, edited\n".to_vec())
    );
    let staged = env.git(&repo, &["show", ":d1/rec1.md"]).into_bytes();
    assert_eq!(tree.node("d1/rec1.md"), Node::File(staged));
    // The runtime file the walk did not decide is read from disk.
    assert_eq!(tree.node(&runtime), Node::File(b"edited\n".to_vec()));
    // Untracked files are found with the index read anew...
    write(repo.join("d6/new.md"), "# New\n");
    assert_eq!(
        tree.untracked(&|p| p.ends_with(".md")).unwrap(),
        ["d6/new.md"]
    );
    // ...while the file is the version the snapshot was opened on: a
    // snapshot that let go of it before another process rewrote it refuses.
    let second = project.worktree().unwrap();
    second.lean();
    second.markdown_files();
    assert!(!second.holds_index());
    env.git(&repo, &["add", "d6/new.md"]);
    let err = second.untracked(&|p| p.ends_with(".md")).unwrap_err();
    assert!(err.to_string().contains("index changed"), "{err}");
}
