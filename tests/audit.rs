//! The audit trail in `refs/notes/standards` (D16-D20), with the `git` CLI as witness.

use std::path::Path;

use crate::common::{stderr, stdout, Env};
use crate::fixture::{Project, STATE};

/// The anchor blob ID of a cycle, computed by git itself.
pub fn cycle_anchor(env: &Env, repo: &Path, cycle: &str) -> String {
    hash_anchor(
        env,
        repo,
        &format!("git-standards audit anchor v1\ncycle {cycle}\n"),
    )
}

pub fn project_anchor(env: &Env, repo: &Path) -> String {
    hash_anchor(env, repo, "git-standards audit anchor v1\nproject\n")
}

fn hash_anchor(env: &Env, repo: &Path, text: &str) -> String {
    let path = repo.join(".git/anchor-bytes");
    std::fs::write(&path, text).unwrap();
    let id = env.git(repo, &["hash-object", path.to_str().unwrap()]);
    std::fs::remove_file(path).unwrap();
    id.trim().to_string()
}

/// The note on an anchor, as `git notes show` prints it.
pub fn note(env: &Env, repo: &Path, anchor: &str) -> String {
    env.git(repo, &["notes", "--ref=standards", "show", anchor])
}

/// The event lines of the note on an anchor, parsed.
pub fn anchor_events(env: &Env, repo: &Path, anchor: &str) -> Vec<serde_json::Value> {
    note(env, repo, anchor)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

#[test]
fn cycle_new_records_cycle_id_issued_on_the_cycle_anchor() {
    let p = Project::brown();
    let id = p.line(&["cycle", "new", "--request", "Add search"]);
    let anchor = cycle_anchor(&p.env, &p.root, &id);
    let events = anchor_events(&p.env, &p.root, &anchor);
    assert_eq!(events.len(), 1);
    let e = &events[0];
    assert_eq!(e["event"], "cycle-id-issued");
    assert_eq!(e["cycle"], id.as_str());
    assert_eq!(e["request"], "Add search");
    assert_eq!(e["actor"], "Test Author <author@example.com>");
    assert_eq!(
        e["argv"],
        serde_json::json!(["cycle", "new", "--request", "Add search"])
    );
    let keys: Vec<&str> = e.as_object().unwrap().keys().map(|k| k.as_str()).collect();
    assert_eq!(
        keys,
        ["ts", "id", "event", "actor", "tool", "cycle", "commit", "argv", "request"]
    );
    // The anchor is kept reachable by the notes tree itself, and the repository stays sound.
    let tree = p
        .env
        .git(&p.root, &["ls-tree", "-r", "refs/notes/standards"]);
    assert!(tree.contains(&format!("anchors/{anchor}")), "{tree}");
    p.env.git(&p.root, &["fsck", "--strict"]);
}

#[test]
fn a_cycle_id_whose_event_cannot_be_recorded_is_refused() {
    let p = Project::brown();
    // A notes ref that points at a blob cannot be appended to.
    let blob = p
        .env
        .git(&p.root, &["hash-object", "-w", ".standards/STATE.md"]);
    p.env.git(
        &p.root,
        &["update-ref", "refs/notes/standards", blob.trim()],
    );
    // Issue 21: `cycle new`'s products are the ID and its event; an ID
    // whose event was dropped is never handed out with exit 0.
    let a = p.run(&["cycle", "new", "--request", "Add search"]).code(1);
    let err = stderr(&a);
    assert!(
        err.contains("the audit event could not be recorded"),
        "{err}"
    );
    assert!(err.contains("so nothing was changed"), "{err}");
    assert_eq!(
        String::from_utf8_lossy(&a.get_output().stdout),
        "",
        "no ID without its event"
    );
}

/// `log --json`: every stdout line parsed on its own.
pub fn log_json(p: &Project, args: &[&str]) -> Vec<serde_json::Value> {
    let mut all = vec!["log", "--json"];
    all.extend_from_slice(args);
    let a = p.run(&all).success();
    stdout(&a)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

fn kinds(events: &[serde_json::Value]) -> Vec<String> {
    events
        .iter()
        .map(|e| e["event"].as_str().unwrap().to_string())
        .collect()
}

/// Every note of the trail as `(annotated id, text)`, read by git.
fn git_notes(env: &Env, repo: &Path) -> Vec<(String, String)> {
    env.git(repo, &["notes", "--ref=standards", "list"])
        .lines()
        .map(|l| {
            let annotated = l.split_whitespace().nth(1).unwrap().to_string();
            let text = note(env, repo, &annotated);
            (annotated, text)
        })
        .collect()
}

fn gc_and_prune(env: &Env, repo: &Path) {
    env.git(repo, &["reflog", "expire", "--expire=now", "--all"]);
    env.git(repo, &["gc", "-q", "--prune=now"]);
    env.git(repo, &["notes", "--ref=standards", "prune"]);
}

#[test]
fn install_records_installed_and_sets_the_notes_configuration_once() {
    let (env, repo) = Env::repo();
    let a = env.run(&repo, &["install"]).success();
    let out = stdout(&a);
    for line in [
        "set            git config notes.standards.mergeStrategy=cat_sort_uniq",
        "set            git config notes.rewriteRef=refs/notes/standards",
        "set            git config notes.rewriteMode=cat_sort_uniq",
    ] {
        assert!(out.contains(line), "{out}");
    }
    let config = |key: &str| env.git(&repo, &["config", "--get-all", key]);
    assert_eq!(config("notes.standards.mergeStrategy"), "cat_sort_uniq\n");
    assert_eq!(config("notes.rewriteRef"), "refs/notes/standards\n");
    assert_eq!(config("notes.rewriteMode"), "cat_sort_uniq\n");
    let events = anchor_events(&env, &repo, &project_anchor(&env, &repo));
    assert_eq!(events.len(), 1);
    assert_eq!(events[0]["event"], "installed");
    assert_eq!(events[0]["commit"], serde_json::Value::Null, "unborn HEAD");
    assert_eq!(events[0]["mode"], "GREENFIELD");
    assert_eq!(events[0]["config"].as_array().unwrap().len(), 3);
    assert!(events[0]["created"]
        .as_array()
        .unwrap()
        .contains(&".standards/STATE.md".into()));

    // Idempotent: a reinstall sets nothing again and records `upgraded`.
    env.commit_all(&repo, "install");
    let a = env.run(&repo, &["install"]).success();
    assert!(!stdout(&a).contains("git config"), "{}", stdout(&a));
    assert_eq!(config("notes.rewriteRef"), "refs/notes/standards\n");
    let events = anchor_events(&env, &repo, &project_anchor(&env, &repo));
    assert_eq!(events.len(), 2);
    assert_eq!(events[1]["event"], "upgraded");
    assert_eq!(events[1]["config"], serde_json::json!([]));
    let head = env.git(&repo, &["rev-parse", "HEAD"]);
    assert_eq!(events[1]["commit"], head.trim());
}

#[test]
fn install_keeps_a_different_notes_setting_the_user_chose_and_a_dry_run_sets_nothing() {
    let (env, repo) = Env::repo();
    env.git(&repo, &["config", "notes.rewriteMode", "concatenate"]);
    env.git(&repo, &["config", "notes.rewriteRef", "refs/notes/*"]);
    let a = env.run(&repo, &["install", "--dry-run"]).success();
    assert!(stdout(&a)
        .contains("would set      git config notes.standards.mergeStrategy=cat_sort_uniq"));
    assert!(env
        .git_status(&repo, &["config", "notes.standards.mergeStrategy"])
        .stdout
        .is_empty());
    assert!(env
        .git_status(&repo, &["show-ref", "refs/notes/standards"])
        .stdout
        .is_empty());
    let a = env.run(&repo, &["install"]).success();
    assert!(
        stderr(&a).contains("git config notes.rewriteMode is `concatenate`"),
        "{}",
        stderr(&a)
    );
    assert!(
        !stdout(&a).contains("notes.rewriteRef"),
        "a glob already covers it"
    );
    assert_eq!(
        env.git(&repo, &["config", "notes.rewriteMode"]),
        "concatenate\n"
    );
    assert_eq!(
        env.git(&repo, &["config", "--get-all", "notes.rewriteRef"]),
        "refs/notes/*\n"
    );
}

#[test]
fn artifact_init_records_the_path_and_blob_of_the_created_record() {
    let p = Project::brown();
    let id = p.start_cycle("TESTING", "STANDARD", "FULL_DELIVERABLE");
    let path = p.init(&["VERIFICATION"]);
    let events = log_json(&p, &["--cycle", &id]);
    assert_eq!(kinds(&events), ["cycle-id-issued", "record-created"]);
    let e = &events[1];
    assert_eq!(e["path"], path.as_str());
    let blob = p.env.git(&p.root, &["hash-object", &path]);
    assert_eq!(e["blob"], blob.trim());
    assert_eq!(e["type"], "VERIFICATION");
    // A re-run creates nothing and records nothing.
    p.init(&["VERIFICATION"]);
    assert_eq!(log_json(&p, &["--cycle", &id]).len(), 2);
}

#[test]
fn refusals_for_unresolved_conflicts_record_conflict_refused() {
    let p = Project::brown();
    p.append(STATE, "<<<<<<< ours\nx\n=======\ny\n>>>>>>> theirs\n");
    p.refused(&["cycle", "new", "--request", "More"]);
    let events = log_json(&p, &["--event", "conflict-refused"]);
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(events[0]["command"], "cycle new");
    assert_eq!(events[0]["rule"], "D15");
    assert_eq!(events[0]["paths"], serde_json::json!([STATE]));
    assert!(events[0]["reason"]
        .as_str()
        .unwrap()
        .contains("unresolved merge conflicts"));
}

#[test]
fn a_blocking_stop_hook_records_check_failed() {
    let p = Project::brown();
    p.commit("install");
    p.write(".standards/MODE.md", "`ProjectMode`: `HYBRID`\n");
    let mut cmd = p.env.cmd(&p.root);
    cmd.args(["hook", "stop"])
        .env("TMPDIR", p.env.dir.path().join("tmp"));
    std::fs::create_dir_all(p.env.dir.path().join("tmp")).unwrap();
    assert_cmd::Command::from_std(cmd)
        .write_stdin(r#"{"stop_hook_active": false}"#)
        .assert()
        .code(2);
    let events = log_json(&p, &["--event", "check-failed"]);
    assert_eq!(events.len(), 1);
    assert_eq!(events[0]["hook"], "stop");
    assert!(events[0]["problems"].as_u64().unwrap() >= 1);
    assert!(events[0]["rules"]
        .as_array()
        .unwrap()
        .contains(&"RT-005".into()));
}

/// D16, proved on git itself: a note on an object that nothing references
/// is lost to `gc` and `notes prune`; an anchor kept as a non-note entry of
/// the notes tree survives both, and so does a note git itself adds.
#[test]
fn d16_anchors_kept_in_the_notes_tree_survive_gc_and_notes_prune() {
    let p = Project::brown();
    p.commit("install");
    // The trap: a note on an unreferenced blob, in another notes ref.
    let path = p.root.join(".git/loose");
    std::fs::write(&path, "loose anchor\n").unwrap();
    let loose = p
        .env
        .git(&p.root, &["hash-object", "-w", path.to_str().unwrap()]);
    std::fs::remove_file(&path).unwrap();
    p.env.git(
        &p.root,
        &["notes", "--ref=control", "add", "-m", "lost", loose.trim()],
    );
    // Git writes a note of its own into our ref: non-note entries stay.
    p.env.git(
        &p.root,
        &["notes", "--ref=standards", "add", "-m", "by git", "HEAD"],
    );
    p.env
        .git(&p.root, &["notes", "--ref=standards", "remove", "HEAD"]);
    let tree = p.env.git(
        &p.root,
        &["ls-tree", "-r", "--name-only", "refs/notes/standards"],
    );
    let anchor = project_anchor(&p.env, &p.root);
    assert!(tree.contains(&format!("anchors/{anchor}")), "{tree}");
    let before = git_notes(&p.env, &p.root);
    gc_and_prune(&p.env, &p.root);
    p.env.git(&p.root, &["notes", "--ref=control", "prune"]);
    assert_eq!(
        p.env.git(&p.root, &["notes", "--ref=control", "list"]),
        "",
        "the trap is real"
    );
    assert_eq!(git_notes(&p.env, &p.root), before);
    assert_eq!(kinds(&log_json(&p, &[])), ["installed"]);
    p.env.git(&p.root, &["fsck", "--strict", "--no-dangling"]);
}

#[test]
fn a_squash_merged_and_deleted_cycle_branch_keeps_every_event_after_gc_and_notes_prune() {
    let p = Project::brown();
    p.commit("install");
    p.env.git(&p.root, &["checkout", "-q", "-b", "cycle"]);
    let id = p.start_cycle("TESTING", "STANDARD", "FULL_DELIVERABLE");
    p.commit("start");
    p.init(&["VERIFICATION"]);
    p.commit("verification");
    let before = log_json(&p, &[]);
    assert_eq!(
        kinds(&before),
        ["installed", "cycle-id-issued", "record-created"]
    );
    let notes_before = git_notes(&p.env, &p.root);
    p.env.git(&p.root, &["checkout", "-q", "main"]);
    p.env.git(&p.root, &["merge", "-q", "--squash", "cycle"]);
    p.env.git(&p.root, &["commit", "-q", "-m", "squashed"]);
    p.env.git(&p.root, &["branch", "-q", "-D", "cycle"]);
    gc_and_prune(&p.env, &p.root);
    // The cycle's commits are gone; its events are not.
    let recorded = before[2]["commit"].as_str().unwrap().to_string();
    assert!(!p
        .env
        .git_status(&p.root, &["cat-file", "-e", &recorded])
        .status
        .success());
    assert_eq!(log_json(&p, &[]), before);
    assert_eq!(log_json(&p, &["--cycle", &id]).len(), 2);
    assert_eq!(git_notes(&p.env, &p.root), notes_before);
}

#[test]
fn amend_and_rebase_keep_events_visible() {
    let p = Project::brown();
    p.commit("install");
    p.env.git(&p.root, &["checkout", "-q", "-b", "work"]);
    let id = p.line(&["cycle", "new", "--request", "Amend me"]);
    p.write("a.txt", "a\n");
    p.commit("a");
    let before = log_json(&p, &[]);
    p.write("a.txt", "amended\n");
    p.env
        .git(&p.root, &["commit", "-q", "-a", "--amend", "-m", "a2"]);
    p.env.git(&p.root, &["checkout", "-q", "main"]);
    p.write("b.txt", "b\n");
    p.commit("b");
    p.env.git(&p.root, &["checkout", "-q", "work"]);
    p.env.git(&p.root, &["rebase", "-q", "main"]);
    gc_and_prune(&p.env, &p.root);
    assert_eq!(log_json(&p, &[]), before);
    assert_eq!(kinds(&log_json(&p, &["--cycle", &id])), ["cycle-id-issued"]);
}

/// Eight writers append to the same note at once: none loses an event and
/// the notes history stays one line of commits, one per event.
#[test]
fn eight_processes_times_fifty_appends_leave_exactly_400_events() {
    let p = Project::brown();
    p.commit("install");
    std::thread::scope(|s| {
        for _ in 0..8 {
            s.spawn(|| {
                for _ in 0..50 {
                    let out = p.env.cmd(&p.root).arg("install").output().unwrap();
                    assert!(
                        out.status.success(),
                        "{}",
                        String::from_utf8_lossy(&out.stderr)
                    );
                    let err = String::from_utf8_lossy(&out.stderr);
                    assert!(err.is_empty(), "{err}");
                }
            });
        }
    });
    let events = log_json(&p, &["--event", "upgraded"]);
    assert_eq!(events.len(), 400);
    let ids: std::collections::BTreeSet<&str> =
        events.iter().map(|e| e["id"].as_str().unwrap()).collect();
    assert_eq!(ids.len(), 400);
    let lines = note(&p.env, &p.root, &project_anchor(&p.env, &p.root));
    assert_eq!(lines.lines().count(), 401);
    let count = p
        .env
        .git(&p.root, &["rev-list", "--count", "refs/notes/standards"]);
    assert_eq!(count.trim(), "401");
    let merges = p
        .env
        .git(&p.root, &["rev-list", "--merges", "refs/notes/standards"]);
    assert_eq!(merges, "");
    p.env.git(&p.root, &["fsck", "--strict"]);
}

/// Runs `cycle new --request <request>` killed (abort, as SIGKILL leaves it)
/// while its audit append holds git's lock on the notes ref.
fn killed_holding_the_ref_lock(p: &Project, request: &str) {
    let out = p
        .env
        .cmd(&p.root)
        .args(["cycle", "new", "--request", request])
        .env("GIT_STANDARDS_FAILPOINT", "audit:ref-locked")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), None, "the append was killed");
    assert!(
        p.root.join(".git/refs/notes/standards.lock").exists(),
        "the kill left git's ref lock"
    );
}

fn requests(p: &Project) -> Vec<String> {
    log_json(p, &["--event", "cycle-id-issued"])
        .iter()
        .map(|e| e["request"].as_str().unwrap().to_string())
        .collect()
}

/// A writer killed while it held `refs/notes/standards.lock` left it
/// behind: the next append sees that writer is dead (its OS lock is free),
/// removes the lock, says so, and records its event; no other event is lost.
#[test]
fn an_append_killed_holding_the_ref_lock_does_not_lose_later_events() {
    let p = Project::brown();
    p.line(&["cycle", "new", "--request", "Before"]);
    for round in 0..3 {
        killed_holding_the_ref_lock(&p, "Killed");
        let a = p
            .run(&["cycle", "new", "--request", &format!("After {round}")])
            .success();
        let err = stderr(&a);
        assert!(
            err.contains("standards.lock`: git standards process")
                && err.contains("was killed while it updated the audit trail"),
            "{err}"
        );
        assert!(!err.contains("could not be recorded"), "{err}");
        assert!(!p.root.join(".git/refs/notes/standards.lock").exists());
    }
    assert_eq!(requests(&p), ["Before", "After 0", "After 1", "After 2"]);
    p.env.git(&p.root, &["fsck", "--strict"]);
}

#[test]
fn recover_removes_the_ref_lock_of_a_killed_append() {
    let p = Project::brown();
    p.line(&["cycle", "new", "--request", "Before"]);
    killed_holding_the_ref_lock(&p, "Killed");
    let a = p.run(&["recover"]).success();
    assert!(
        stderr(&a).contains("was killed while it updated the audit trail"),
        "{}",
        stderr(&a)
    );
    assert!(!p.root.join(".git/refs/notes/standards.lock").exists());
    let a = p.run(&["cycle", "new", "--request", "After"]).success();
    assert!(!stderr(&a).contains("Removed"), "{}", stderr(&a));
    assert_eq!(requests(&p), ["Before", "After"]);
}

/// A ref lock is never broken for a writer that is still running: not for
/// one recorded in the writer lock file with its real start time (this test
/// process stands in for it), and not for a lock no writer of ours recorded
/// (a live `git notes`); the append then gives up, and `cycle new`
/// refuses (exit 1) rather than hand out an ID without its event.
#[test]
fn the_ref_lock_of_a_live_writer_is_never_broken() {
    let p = Project::brown();
    p.line(&["cycle", "new", "--request", "Before"]);
    let lock = p.root.join(".git/refs/notes/standards.lock");
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap();
    let start: u64 = stat[stat.rfind(')').unwrap() + 1..]
        .split_whitespace()
        .nth(19)
        .unwrap()
        .parse()
        .unwrap();
    for owner in [format!("{} {start}\n", std::process::id()), String::new()] {
        std::fs::write(p.root.join(".git/git-standards-notes.lock"), &owner).unwrap();
        std::fs::write(&lock, "").unwrap();
        // Issue 21: refused (exit 1), never exit 0 with a dropped event.
        let a = p.run(&["cycle", "new", "--request", "Blocked"]).code(1);
        assert!(
            stderr(&a).contains("could not be recorded"),
            "{owner:?}: {}",
            stderr(&a)
        );
        assert!(lock.exists(), "{owner:?}: a live writer's lock was broken");
    }
    std::fs::remove_file(&lock).unwrap();
    assert_eq!(requests(&p), ["Before"]);
}

#[test]
fn a_hand_edited_invalid_line_is_reported_and_the_other_events_print() {
    let p = Project::brown();
    p.line(&["cycle", "new", "--request", "One"]);
    p.env.git(&p.root, &["config", "user.name", "Ann"]);
    p.run(&["install"]).success();
    let anchor = project_anchor(&p.env, &p.root);
    let text = note(&p.env, &p.root, &anchor);
    let broken = text.replacen("{\"ts\"", "{ts", 1);
    let file = p.root.join(".git/edited-note");
    std::fs::write(&file, &broken).unwrap();
    p.env.git(
        &p.root,
        &[
            "notes",
            "--ref=standards",
            "add",
            "-f",
            "-F",
            file.to_str().unwrap(),
            &anchor,
        ],
    );
    for json in [false, true] {
        let mut args = vec!["log"];
        if json {
            args.push("--json");
        }
        // Issue 21: a bad line is a warning, never a reason to fail the trail.
        let a = p.run(&args).success();
        let out = stdout(&a);
        let err = stderr(&a);
        assert_eq!(out.lines().count(), 2, "{out}");
        assert!(
            err.contains(&format!(
                "the note on the project anchor ({anchor}), line 1: not valid JSON"
            )),
            "{err}"
        );
        if json {
            for l in out.lines() {
                serde_json::from_str::<serde_json::Value>(l).unwrap();
            }
            let warning: serde_json::Value = serde_json::from_str(err.trim()).unwrap();
            assert_eq!(warning["note"], anchor.as_str(), "{err}");
            assert_eq!(warning["line"], 1, "{err}");
            assert_eq!(warning["cycle"], serde_json::Value::Null, "{err}");
        } else {
            assert!(err.starts_with("warning: "), "{err}");
        }
    }
}

#[test]
fn log_filters_and_readable_lines() {
    let p = Project::brown();
    let one = p.line(&["cycle", "new", "--request", "One"]);
    let two = p.line(&["cycle", "new", "--request", "Two"]);
    let all = log_json(&p, &[]);
    assert_eq!(
        kinds(&all),
        ["installed", "cycle-id-issued", "cycle-id-issued"]
    );
    let ts: Vec<&str> = all.iter().map(|e| e["ts"].as_str().unwrap()).collect();
    assert!(ts.windows(2).all(|w| w[0] <= w[1]), "oldest first");
    assert!(ts[0].len() == "2026-12-01T09:04:53.123456Z".len() && ts[0].ends_with('Z'));
    assert_eq!(log_json(&p, &["--cycle", &two])[0]["cycle"], two.as_str());
    assert_eq!(
        log_json(&p, &["--event", "installed", "--event", "reset"]).len(),
        1
    );
    assert_eq!(log_json(&p, &["--limit", "1"])[0]["cycle"], two.as_str());
    assert_eq!(log_json(&p, &["--actor", "test author"]).len(), 3);
    assert_eq!(log_json(&p, &["--actor", "*@example.org"]).len(), 0);
    assert_eq!(log_json(&p, &["--since", "2999-01-01"]).len(), 0);
    assert_eq!(log_json(&p, &["--until", "2000-01-01"]).len(), 0);
    assert_eq!(
        log_json(&p, &["--since", "2000-01-01", "--until", "2999-01-01"]).len(),
        3
    );
    let a = p
        .run(&["log", "--format", "full", "--color", "never"])
        .success();
    let out = stdout(&a);
    let line = out.lines().find(|l| l.contains(&one)).unwrap();
    assert!(
        line.contains("  Test Author <author@example.com>  "),
        "{line}"
    );
    assert!(line.contains("cycle-id-issued  request=One"), "{line}");
    let a = p.run(&["log", "--color", "never"]).success();
    let out = stdout(&a);
    let line = out.lines().find(|l| l.contains(&one)).unwrap();
    assert!(
        line.contains(&format!("  cycle-id-issued  {one}  request=One")),
        "{line}"
    );
    // Bad filters are usage errors.
    p.run(&["log", "--event", "nonsense"]).code(2);
    p.run(&["log", "--since", "yesterday"]).code(2);
    p.run(&["log", "--limit", "0"]).code(2);
}

#[test]
fn log_without_a_trail_says_so() {
    let (env, repo) = Env::repo();
    let a = env.run(&repo, &["log"]).success();
    assert_eq!(stdout(&a), "");
    assert!(
        stderr(&a).contains("no audit events are recorded"),
        "{}",
        stderr(&a)
    );
    let a = env.run(&repo, &["log", "--json"]).success();
    assert_eq!(stdout(&a), "");
}

#[test]
fn without_an_identity_the_actor_is_unknown_and_the_notes_commit_still_lands() {
    let (env, repo) = Env::repo();
    let mut cmd = env.cmd(&repo);
    for var in [
        "GIT_AUTHOR_NAME",
        "GIT_AUTHOR_EMAIL",
        "GIT_COMMITTER_NAME",
        "GIT_COMMITTER_EMAIL",
        "EMAIL",
    ] {
        cmd.env_remove(var);
    }
    let out = cmd.arg("install").output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let events = anchor_events(&env, &repo, &project_anchor(&env, &repo));
    assert_eq!(events[0]["actor"], "unknown");
}

#[test]
fn a_locked_git_config_leaves_the_install_standing_with_a_warning() {
    let (env, repo) = Env::repo();
    std::fs::write(repo.join(".git/config.lock"), "").unwrap();
    let a = env.run(&repo, &["install"]).success();
    let err = stderr(&a);
    assert!(err.contains("another git process is changing it"), "{err}");
    assert!(
        err.contains("git config notes.standards.mergeStrategy cat_sort_uniq && git config --add notes.rewriteRef refs/notes/standards && git config notes.rewriteMode cat_sort_uniq"),
        "{err}"
    );
    assert!(repo.join(".standards/STATE.md").is_file());
    std::fs::remove_file(repo.join(".git/config.lock")).unwrap();
    assert_eq!(
        kinds(&anchor_events(&env, &repo, &project_anchor(&env, &repo))),
        ["installed"]
    );
}

#[test]
fn log_json_errors_are_json_too() {
    let env = Env::new();
    let a = env.run(env.dir.path(), &["log", "--json"]).code(1);
    let v: serde_json::Value = serde_json::from_str(&stdout(&a)).unwrap();
    assert_eq!(v["ok"], false);
    assert!(v["error"]
        .as_str()
        .unwrap()
        .contains("not inside a git repository"));
}
