//! The audit trail in `refs/notes/standards` (D16-D20), with the `git` CLI as witness.

use std::path::Path;

use crate::common::{stderr, Env};
use crate::fixture::Project;

/// The anchor blob ID of a cycle, computed by git itself.
pub fn cycle_anchor(env: &Env, repo: &Path, cycle: &str) -> String {
    hash_anchor(
        env,
        repo,
        &format!("git-standards audit anchor v1\ncycle {cycle}\n"),
    )
}

#[allow(dead_code)]
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
pub fn events(env: &Env, repo: &Path, anchor: &str) -> Vec<serde_json::Value> {
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
    let events = events(&p.env, &p.root, &anchor);
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
fn a_failed_append_prints_the_event_and_keeps_the_exit_status() {
    let p = Project::brown();
    // A notes ref that points at a blob cannot be appended to.
    let blob = p
        .env
        .git(&p.root, &["hash-object", "-w", ".standards/STATE.md"]);
    p.env.git(
        &p.root,
        &["update-ref", "refs/notes/standards", blob.trim()],
    );
    let a = p.run(&["cycle", "new", "--request", "Add search"]);
    let a = a.success();
    let err = stderr(&a);
    assert!(
        err.contains("the audit event could not be recorded"),
        "{err}"
    );
    let json = err
        .lines()
        .find_map(|l| l.strip_prefix("warning: the event, so that it is not lost: "))
        .expect("the event's JSON is printed");
    let v: serde_json::Value = serde_json::from_str(json).unwrap();
    assert_eq!(v["event"], "cycle-id-issued");
}
