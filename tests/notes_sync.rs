//! `git standards notes sync`: two clones and a bare remote, the `git` CLI as witness.

use std::path::{Path, PathBuf};

use crate::common::{stderr, stdout, write, Env};

pub(crate) struct Team {
    pub(crate) env: Env,
    pub(crate) remote: PathBuf,
    pub(crate) a: PathBuf,
    pub(crate) b: PathBuf,
}

/// A bare remote, clone `a` that installed and pushed `main`, and clone `b`.
pub(crate) fn team() -> Team {
    let env = Env::new();
    let root = env.dir.path().to_path_buf();
    let remote = root.join("remote.git");
    env.git(
        &root,
        &[
            "init",
            "-q",
            "--bare",
            "-b",
            "main",
            remote.to_str().unwrap(),
        ],
    );
    let a = root.join("a");
    std::fs::create_dir_all(&a).unwrap();
    env.git(&a, &["init", "-q", "-b", "main"]);
    write(a.join("app.py"), "print(1)\n");
    env.run(&a, &["install"]).success();
    env.commit_all(&a, "install");
    env.git(&a, &["remote", "add", "origin", remote.to_str().unwrap()]);
    env.git(&a, &["push", "-q", "origin", "main"]);
    env.git(&root, &["clone", "-q", remote.to_str().unwrap(), "b"]);
    let b = root.join("b");
    Team { env, remote, a, b }
}

impl Team {
    pub(crate) fn log(&self, dir: &Path) -> Vec<serde_json::Value> {
        let a = self.env.run(dir, &["log", "--json"]).success();
        stdout(&a)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    pub(crate) fn sync(&self, dir: &Path) -> String {
        let a = self.env.run(dir, &["notes", "sync"]);
        let out = stdout(&a);
        assert!(
            a.get_output().status.success(),
            "sync failed: {out}{}",
            stderr(&a)
        );
        out
    }

    pub(crate) fn cycle(&self, dir: &Path, request: &str) -> String {
        let a = self
            .env
            .run(dir, &["cycle", "new", "--request", request])
            .success();
        stdout(&a).trim().to_string()
    }

    /// The remote's ref, or `""` when it does not exist.
    fn remote_ref(&self, name: &str) -> String {
        let out = self
            .env
            .git_status(&self.remote, &["rev-parse", "--verify", "-q", name]);
        String::from_utf8(out.stdout).unwrap()
    }

    /// Every note of a repository as `(annotated id, text)`, read by git.
    pub(crate) fn notes(&self, dir: &Path) -> Vec<(String, String)> {
        self.env
            .git(dir, &["notes", "--ref=standards", "list"])
            .lines()
            .map(|l| {
                let annotated = l.split_whitespace().nth(1).unwrap().to_string();
                let text = self
                    .env
                    .git(dir, &["notes", "--ref=standards", "show", &annotated]);
                (annotated, text)
            })
            .collect()
    }
}

fn ids(events: &[serde_json::Value]) -> Vec<String> {
    events
        .iter()
        .map(|e| e["id"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn two_clones_that_each_append_hold_the_union_after_syncing_both_ways() {
    let t = team();
    t.cycle(&t.a, "From A");
    let out = t.sync(&t.a);
    assert!(
        out.contains("pushed         refs/notes/standards to origin"),
        "{out}"
    );
    t.cycle(&t.b, "From B");
    t.env.run(&t.b, &["install"]).success();
    let out = t.sync(&t.b);
    assert!(out.contains("merged"), "{out}");
    let out = t.sync(&t.a);
    assert!(out.contains("fast-forward"), "{out}");
    let (la, lb) = (t.log(&t.a), t.log(&t.b));
    assert_eq!(la, lb);
    let kinds: Vec<&str> = la.iter().map(|e| e["event"].as_str().unwrap()).collect();
    let mut sorted = kinds.clone();
    sorted.sort();
    assert_eq!(
        sorted,
        [
            "cycle-id-issued",
            "cycle-id-issued",
            "installed",
            "upgraded"
        ]
    );
    // B's merge is a two-parent notes commit; nothing was forced.
    let parents = t.env.git(
        &t.b,
        &["rev-list", "--parents", "-1", "refs/notes/standards"],
    );
    assert_eq!(parents.split_whitespace().count(), 3, "{parents}");
    let tip = t.env.git(&t.a, &["rev-parse", "refs/notes/standards"]);
    assert_eq!(t.remote_ref("refs/notes/standards"), tip);
    assert_eq!(t.env.git(&t.b, &["rev-parse", "refs/notes/standards"]), tip);
    // A second sync changes nothing.
    let again = t.sync(&t.a);
    assert!(
        !again.contains("pushed") && !again.contains("merged"),
        "{again}"
    );
    for dir in [&t.a, &t.b, &t.remote] {
        t.env.git(dir, &["fsck", "--strict"]);
    }
}

/// Plain git's `notes merge -s cat_sort_uniq` and `notes sync` give the same
/// notes from the same two histories.
#[test]
fn plain_git_notes_merge_agrees_with_notes_sync() {
    let t = team();
    t.sync(&t.a);
    t.sync(&t.b);
    // Diverge, with both sides changing the same note (the project anchor) and their own ones.
    t.env.run(&t.a, &["install"]).success();
    t.cycle(&t.a, "A side");
    t.sync(&t.a);
    t.env.run(&t.b, &["install"]).success();
    t.cycle(&t.b, "B side");
    // A copy of B merged by git itself.
    let root = t.env.dir.path();
    let copy = root.join("b-copy");
    let status = std::process::Command::new("cp")
        .args(["-a", t.b.to_str().unwrap(), copy.to_str().unwrap()])
        .status()
        .unwrap();
    assert!(status.success());
    t.env.git(
        &copy,
        &[
            "fetch",
            "-q",
            "origin",
            "refs/notes/standards:refs/notes/remotes/origin/standards",
        ],
    );
    t.env.git(
        &copy,
        &[
            "notes",
            "--ref=standards",
            "merge",
            "-q",
            "-s",
            "cat_sort_uniq",
            "refs/notes/remotes/origin/standards",
        ],
    );
    t.sync(&t.b);
    assert_eq!(t.notes(&copy), t.notes(&t.b));
    assert_eq!(t.log(&copy), t.log(&t.b));
    let merged = t.log(&t.b);
    assert_eq!(merged.len(), 5, "installed, 2 upgraded, 2 cycle IDs");
    // And git's own merge commit also has both parents.
    let parents = t.env.git(
        &copy,
        &["rev-list", "--parents", "-1", "refs/notes/standards"],
    );
    assert_eq!(parents.split_whitespace().count(), 3);
}

#[test]
fn a_host_that_refuses_refs_notes_gets_a_clear_message() {
    let t = team();
    let hook = t.remote.join("hooks/pre-receive");
    write(
        &hook,
        "#!/bin/sh\nwhile read old new ref; do case \"$ref\" in refs/notes/*) echo 'notes are not accepted here' >&2; exit 1;; esac; done\nexit 0\n",
    );
    let status = std::process::Command::new("chmod")
        .args(["+x", hook.to_str().unwrap()])
        .status()
        .unwrap();
    assert!(status.success());
    let before = t.env.git(&t.a, &["rev-parse", "refs/notes/standards"]);
    let a = t.env.run(&t.a, &["notes", "sync"]).code(1);
    let err = stderr(&a);
    assert!(err.contains("refused `refs/notes/standards`"), "{err}");
    assert!(err.contains("do not accept `refs/notes/*`"), "{err}");
    assert!(err.contains("hint: ask the host's administrators"), "{err}");
    assert_eq!(
        t.env.git(&t.a, &["rev-parse", "refs/notes/standards"]),
        before
    );
    assert_eq!(t.remote_ref("refs/notes/standards"), "");
}

/// Another clone pushes between our fetch and our push (from a pre-push
/// hook): the push is rejected, and sync fetches, merges and pushes again.
#[test]
fn a_rejected_push_is_fetched_merged_and_retried() {
    let t = team();
    t.sync(&t.a);
    t.sync(&t.b);
    t.cycle(&t.a, "A waits");
    let marker = t.env.dir.path().join("raced");
    let bin = Env::bin();
    let hook = t.a.join(".git/hooks/pre-push");
    write(
        &hook,
        format!(
            "#!/bin/sh\n[ -e '{m}' ] && exit 0\ntouch '{m}'\nunset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE\ncd '{b}' && '{bin}' cycle new --request 'B races' >/dev/null && '{bin}' notes sync >/dev/null 2>&1\nexit 0\n",
            m = marker.display(),
            b = t.b.display(),
            bin = bin.display()
        ),
    );
    let status = std::process::Command::new("chmod")
        .args(["+x", hook.to_str().unwrap()])
        .status()
        .unwrap();
    assert!(status.success());
    let a = t.env.run(&t.a, &["notes", "sync"]);
    let err = stderr(&a);
    let a = a.success();
    assert!(marker.exists(), "the race happened");
    assert!(err.contains("fetching and merging again"), "{err}");
    assert!(stdout(&a).contains("merged"), "{}", stdout(&a));
    t.sync(&t.b);
    let (la, lb) = (t.log(&t.a), t.log(&t.b));
    assert_eq!(ids(&la), ids(&lb));
    assert_eq!(la.len(), 3, "installed and both cycle IDs");
}

#[test]
fn a_dry_run_says_what_would_move_and_moves_nothing() {
    let t = team();
    let a = t.env.run(&t.a, &["notes", "sync", "--dry-run"]).success();
    assert!(
        stdout(&a).contains("would push     refs/notes/standards"),
        "{}",
        stdout(&a)
    );
    assert!(stderr(&a).contains("Dry run: nothing was fetched, merged or pushed."));
    assert_eq!(t.remote_ref("refs/notes/standards"), "");
    t.sync(&t.a);
    t.cycle(&t.b, "B");
    let b_tip = t.env.git(&t.b, &["rev-parse", "refs/notes/standards"]);
    let a = t.env.run(&t.b, &["notes", "sync", "--dry-run"]).success();
    let out = stdout(&a);
    assert!(
        out.contains("would fetch    refs/notes/remotes/origin/standards"),
        "{out}"
    );
    assert!(out.contains("would merge"), "{out}");
    assert_eq!(
        t.env.git(&t.b, &["rev-parse", "refs/notes/standards"]),
        b_tip
    );
    assert!(t
        .env
        .git_status(
            &t.b,
            &[
                "rev-parse",
                "--verify",
                "-q",
                "refs/notes/remotes/origin/standards"
            ]
        )
        .stdout
        .is_empty());
    // Once fetched, the dry run counts the events each side lacks.
    t.env.git(
        &t.b,
        &[
            "fetch",
            "-q",
            "origin",
            "refs/notes/standards:refs/notes/remotes/origin/standards",
        ],
    );
    let a = t.env.run(&t.b, &["notes", "sync", "--dry-run"]).success();
    let out = stdout(&a);
    assert!(
        out.contains("would merge    1 event line(s) from origin"),
        "{out}"
    );
    assert!(
        out.contains("would push     refs/notes/standards with 1 event line(s) origin lacks"),
        "{out}"
    );
    assert_eq!(
        t.env.git(&t.b, &["rev-parse", "refs/notes/standards"]),
        b_tip
    );
}

#[test]
fn archive_refs_travel_both_ways_and_a_diverged_one_is_never_forced() {
    let t = team();
    t.env
        .git(&t.a, &["update-ref", "refs/standards/archive/one", "HEAD"]);
    t.sync(&t.a);
    assert_eq!(
        t.remote_ref("refs/standards/archive/one"),
        t.env.git(&t.a, &["rev-parse", "HEAD"])
    );
    t.sync(&t.b);
    assert_eq!(
        t.env
            .git(&t.b, &["rev-parse", "refs/standards/archive/one"]),
        t.env.git(&t.a, &["rev-parse", "HEAD"])
    );
    // B archives under a name A also uses, with another history.
    t.env
        .git(&t.a, &["commit", "-q", "--allow-empty", "-m", "a2"]);
    t.env
        .git(&t.a, &["update-ref", "refs/standards/archive/two", "HEAD"]);
    t.env
        .git(&t.b, &["commit", "-q", "--allow-empty", "-m", "b2"]);
    t.env
        .git(&t.b, &["update-ref", "refs/standards/archive/two", "HEAD"]);
    t.sync(&t.a);
    let a_two = t
        .env
        .git(&t.a, &["rev-parse", "refs/standards/archive/two"]);
    let b_two = t
        .env
        .git(&t.b, &["rev-parse", "refs/standards/archive/two"]);
    let a = t.env.run(&t.b, &["notes", "sync"]).code(1);
    let err = stderr(&a);
    assert!(err.contains("refs/standards/archive/two"), "{err}");
    assert!(err.contains("never forced"), "{err}");
    assert_eq!(
        t.env
            .git(&t.b, &["rev-parse", "refs/standards/archive/two"]),
        b_two
    );
    assert_eq!(t.remote_ref("refs/standards/archive/two"), a_two);
    // The trail itself still synced.
    assert_eq!(
        t.env.git(&t.b, &["rev-parse", "refs/notes/standards"]),
        t.remote_ref("refs/notes/standards")
    );
}

#[test]
fn an_unknown_remote_is_a_usage_error() {
    let t = team();
    let a = t.env.run(&t.a, &["notes", "sync", "upstream"]).code(2);
    assert!(
        stderr(&a).contains("`upstream` is not a configured remote"),
        "{}",
        stderr(&a)
    );
}

/// A sync killed after its fetch or its merge leaves a consistent trail, and
/// the next sync completes it.
#[test]
fn a_sync_killed_midway_is_completed_by_the_next_one() {
    for point in git_standards::commands::notes::FAILPOINTS {
        let t = team();
        t.sync(&t.a);
        t.cycle(&t.a, "A");
        t.sync(&t.a);
        t.cycle(&t.b, "B");
        let out = t
            .env
            .cmd(&t.b)
            .args(["notes", "sync"])
            .env(git_standards::repo::failpoint::VARIABLE, point)
            .output()
            .unwrap();
        assert!(!out.status.success(), "{point}: the failpoint fires");
        t.env.git(&t.b, &["fsck", "--strict"]);
        t.sync(&t.b);
        t.sync(&t.a);
        assert_eq!(t.log(&t.a), t.log(&t.b), "{point}");
        assert_eq!(t.log(&t.a).len(), 3, "{point}");
    }
}

#[test]
fn a_rewritten_remote_trail_is_refused_not_forced() {
    let t = team();
    t.sync(&t.a);
    t.cycle(&t.a, "A");
    t.sync(&t.a);
    // B replaces the remote's trail with an unrelated one, by force.
    t.env
        .git(&t.b, &["update-ref", "-d", "refs/notes/standards"]);
    t.cycle(&t.b, "B rewrites");
    t.env.git(
        &t.b,
        &["push", "-q", "--force", "origin", "refs/notes/standards"],
    );
    t.cycle(&t.a, "A again");
    let before = t.env.git(&t.a, &["rev-parse", "refs/notes/standards"]);
    let a = t.env.run(&t.a, &["notes", "sync"]).code(1);
    let err = stderr(&a);
    assert!(err.contains("the remote's trail was rewritten"), "{err}");
    assert_eq!(
        t.env.git(&t.a, &["rev-parse", "refs/notes/standards"]),
        before
    );
    assert_eq!(t.log(&t.a).len(), 3, "nothing local was lost");
}

/// `git mktree` in `dir` from `(mode, type, id, name)` entries, NUL-separated
/// so that any name travels (git's own `mktree` does not check names).
fn mktree(env: &Env, dir: &Path, entries: &[(&str, &str, &str, &str)]) -> String {
    use std::io::Write as _;
    let mut input = Vec::new();
    for (mode, kind, id, name) in entries {
        write!(input, "{mode} {kind} {id}\t{name}\0").unwrap();
    }
    let mut child = env
        .sealed("git", dir)
        .args(["mktree", "-z"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&input).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

fn hash_blob(env: &Env, dir: &Path, text: &str) -> String {
    let file = dir.join("blob-input");
    std::fs::write(&file, text).unwrap();
    let id = env.git(dir, &["hash-object", "-w", file.to_str().unwrap()]);
    std::fs::remove_file(&file).unwrap();
    id.trim().to_string()
}

/// An archive commit in the bare repository `git_dir` whose tree plants a
/// nested repository at `.standards/docs/<dot_git>/` with a `core.fsmonitor`
/// that would run `marker`'s `touch` at the next `git status` there.
fn planted_archive(env: &Env, git_dir: &Path, dot_git: &str, marker: &Path) -> String {
    let config = format!(
        "[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tfsmonitor = \"touch {}\"\n",
        marker.display()
    );
    let config = hash_blob(env, git_dir, &config);
    let head = hash_blob(env, git_dir, "ref: refs/heads/main\n");
    let state = hash_blob(env, git_dir, "# state\n");
    let inner = mktree(
        env,
        git_dir,
        &[
            ("100644", "blob", &config, "config"),
            ("100644", "blob", &head, "HEAD"),
        ],
    );
    let docs = mktree(env, git_dir, &[("040000", "tree", &inner, dot_git)]);
    let standards = mktree(
        env,
        git_dir,
        &[
            ("100644", "blob", &state, "STATE.md"),
            ("040000", "tree", &docs, "docs"),
        ],
    );
    let root = mktree(
        env,
        git_dir,
        &[("040000", "tree", &standards, ".standards")],
    );
    env.git(git_dir, &["commit-tree", &root, "-m", "archive"])
        .trim()
        .to_string()
}

/// Issue 21 items 2 and 3, the hostile remote: its trail was rewritten (a
/// newer notes commit that deletes every event and adds malformed lines) and
/// it holds archives that plant a nested repository whose `core.fsmonitor`
/// runs a program. `notes sync` keeps every local event (and pushes them
/// back), refuses the archives (exit 1, naming ref and path) without
/// fetching them, and `log` keeps working, reporting the bad lines.
#[test]
fn a_hostile_remote_can_neither_wipe_the_trail_nor_plant_a_repository() {
    let t = team();
    t.sync(&t.a);
    for request in ["One", "Two", "Three"] {
        t.cycle(&t.a, request);
    }
    t.sync(&t.a);
    t.cycle(&t.a, "Local only, not yet pushed");
    let before = ids(&t.log(&t.a));
    assert_eq!(before.len(), 5);
    // The remote rewrites every note on its trail: events gone, junk added.
    let listed = t.env.git(&t.remote, &["notes", "--ref=standards", "list"]);
    assert!(!listed.is_empty());
    for line in listed.lines() {
        let annotated = line.split_whitespace().nth(1).unwrap();
        t.env.git(
            &t.remote,
            &[
                "notes",
                "--ref=standards",
                "add",
                "-f",
                "-m",
                "{not an event\n\u{1b}[2Jnot json either",
                annotated,
            ],
        );
    }
    let marker = t.env.dir.path().join("fsmonitor-ran");
    for (name, dot_git) in [
        ("evil", ".git"),
        ("evil-ntfs", "GIT~1"),
        ("evil-dots", ".Git. "),
    ] {
        let commit = planted_archive(&t.env, &t.remote, dot_git, &marker);
        t.env.git(
            &t.remote,
            &[
                "update-ref",
                &format!("refs/standards/archive/{name}"),
                &commit,
            ],
        );
    }
    // A ref outside the two namespaces the tool owns is never fetched.
    t.env.git(
        &t.remote,
        &["update-ref", "refs/standards/other", "refs/heads/main"],
    );
    let a = t.env.run(&t.a, &["notes", "sync"]).code(1);
    let err = stderr(&a);
    let other = t.env.git_status(
        &t.a,
        &["rev-parse", "-q", "--verify", "refs/standards/other"],
    );
    assert!(!other.status.success(), "refs/standards/other was fetched");
    for (name, dot_git) in [
        ("evil", ".git"),
        ("evil-ntfs", "GIT~1"),
        ("evil-dots", ".Git. "),
    ] {
        assert!(
            err.contains(&format!(
                "refusing archive `refs/standards/archive/{name}`: its tree holds `.standards/docs/{dot_git}`"
            )),
            "{err}"
        );
        let here = t.env.git_status(
            &t.a,
            &[
                "rev-parse",
                "-q",
                "--verify",
                &format!("refs/standards/archive/{name}"),
            ],
        );
        assert!(!here.status.success(), "{name} was not fetched into place");
    }
    assert!(err.contains("deleted 4 event line(s)"), "{err}");
    let quarantined = t.env.git(&t.a, &["for-each-ref", "refs/quarantine/"]);
    assert_eq!(quarantined, "", "the quarantine is emptied");
    // Every local event survives, and went back to the remote.
    let after = t.env.run(&t.a, &["log", "--json"]).success();
    let events: Vec<serde_json::Value> = stdout(&after)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let after_ids = ids(&events);
    for id in &before {
        assert!(after_ids.contains(id), "event {id} was lost");
    }
    assert_eq!(after_ids.len(), before.len());
    let warnings = stderr(&after);
    assert!(warnings.contains("not valid JSON"), "{warnings}");
    assert_eq!(
        warnings.lines().count(),
        8,
        "two bad lines per note: {warnings}"
    );
    let readable = t.env.run(&t.a, &["log"]).success();
    assert!(
        !stderr(&readable).contains('\u{1b}'),
        "no escape reaches the terminal"
    );
    assert_eq!(
        t.env.git(&t.a, &["rev-parse", "refs/notes/standards"]),
        t.remote_ref("refs/notes/standards"),
        "the union was pushed back"
    );
    // A clone that syncs now gets every event back.
    let _ = t.env.run(&t.b, &["notes", "sync"]).code(1);
    let b_ids = ids(&t.log(&t.b));
    for id in &before {
        assert!(b_ids.contains(id), "clone b misses {id}");
    }
    // An archive planted by hand is refused by list, show and restore alike.
    t.env.git(
        &t.a,
        &[
            "fetch",
            "-q",
            "origin",
            "refs/standards/archive/evil:refs/standards/archive/evil",
        ],
    );
    for args in [
        vec!["archive", "list"],
        vec!["archive", "list", "--json"],
        vec!["archive", "show", "evil"],
        vec!["archive", "show", "evil", "docs"],
        vec!["archive", "restore", "evil", "docs"],
        vec!["archive", "restore", "evil", ".standards/docs/.git/config"],
    ] {
        let out = t.env.run(&t.a, &args).code(1);
        assert!(
            stderr(&out).contains(
                "refusing archive `refs/standards/archive/evil`: its tree holds `.standards/docs/.git`"
            ),
            "{args:?}: {}",
            stderr(&out)
        );
    }
    assert!(!t.a.join(".standards/docs/.git").exists());
    t.env.git(&t.a, &["status", "--short"]);
    assert!(!marker.exists(), "no planted fsmonitor ever ran");
}

/// Issue 21 item 6: a trail ref that points at a blob is refused (exit 1),
/// never an internal error, on either side of a sync.
#[test]
fn a_trail_ref_pointing_at_a_blob_is_refused_not_an_internal_error() {
    let t = team();
    t.sync(&t.a);
    let blob = hash_blob(&t.env, &t.remote, "not a notes commit\n");
    t.env
        .git(&t.remote, &["update-ref", "refs/notes/standards", &blob]);
    let a = t.env.run(&t.a, &["notes", "sync"]).code(1);
    assert!(
        stderr(&a).contains("`refs/notes/standards` points at a blob"),
        "{}",
        stderr(&a)
    );
    t.env.run(&t.a, &["log"]).success();
    let local = hash_blob(&t.env, &t.a, "local blob\n");
    t.env
        .git(&t.a, &["update-ref", "refs/notes/standards", &local]);
    for args in [
        vec!["notes", "sync"],
        vec!["notes", "sync", "--dry-run"],
        vec!["log"],
        vec!["log", "--json"],
    ] {
        let out = t.env.run(&t.a, &args).code(1);
        assert!(
            stderr(&out).contains("points at a blob"),
            "{args:?}: {}",
            stderr(&out)
        );
    }
}

/// Issue 25, `--json` on every command: the dry run, the sync and the refusal
/// of an unknown remote are each one JSON object on stdout, with the text
/// form's exit codes; the actions are the text report's lines.
#[test]
fn json_reports_the_dry_run_the_sync_and_the_refusal() {
    let t = team();
    let parse = |a: &assert_cmd::assert::Assert| -> serde_json::Value {
        serde_json::from_str(&stdout(a)).unwrap_or_else(|e| panic!("{e}: {}", stdout(a)))
    };
    let text = stdout(&t.env.run(&t.a, &["notes", "sync", "--dry-run"]).success());
    let v = parse(
        &t.env
            .run(&t.a, &["notes", "sync", "--dry-run", "--json"])
            .success(),
    );
    assert_eq!(v["ok"], true, "{v}");
    assert_eq!(v["command"], "notes sync");
    assert_eq!(v["remote"], "origin");
    assert_eq!(v["dryRun"], true);
    let actions = v["actions"].as_array().unwrap();
    assert_eq!(actions.len(), text.lines().count(), "{v}\n{text}");
    assert_eq!(actions[0]["action"], "would push", "{v}");
    assert!(
        actions[0]["detail"]
            .as_str()
            .unwrap()
            .starts_with("refs/notes/standards "),
        "{v}"
    );
    assert_eq!(
        t.remote_ref("refs/notes/standards"),
        "",
        "a dry run pushes nothing"
    );

    let v = parse(&t.env.run(&t.a, &["notes", "sync", "--json"]).success());
    assert_eq!(v["ok"], true, "{v}");
    assert_eq!(v["dryRun"], false);
    let pushed = t.env.git(&t.a, &["rev-parse", "refs/notes/standards"]);
    assert_eq!(t.remote_ref("refs/notes/standards"), pushed);
    assert!(
        v["actions"]
            .as_array()
            .unwrap()
            .contains(&serde_json::json!({
                "action": "pushed",
                "detail": "refs/notes/standards to origin"
            })),
        "{v}"
    );

    let v = parse(
        &t.env
            .run(&t.a, &["notes", "sync", "upstream", "--json"])
            .code(2),
    );
    assert_eq!(v["ok"], false);
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("`upstream` is not a configured remote"),
        "{v}"
    );
    assert!(v.get("hint").is_some(), "{v}");
}
