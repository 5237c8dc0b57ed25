//! Which installed skill files are ours (issue 13; RT §7.4, §7.6, §7.8):
//! `INSTALLATION.json` records, in `skillFiles`, the SHA-256 of every skill
//! file install wrote. A file still matching its record (an older version's
//! text) is upgraded by install and removed by `uninstall` and
//! `install --client none`, also for a role this version no longer ships; a
//! file the user changed is kept with a warning; a folder without the
//! framework marker is never touched.

use std::path::Path;

use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use crate::common::{read, stderr, stdout, write, Env};

const MARKER: &str = "<!-- standards:framework-owned -->";
const MANIFEST: &str = ".standards/INSTALLATION.json";

fn sha256(text: &str) -> String {
    let hex: String = Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("sha256:{hex}")
}

fn manifest(repo: &Path) -> Value {
    serde_json::from_str(&read(repo.join(MANIFEST))).unwrap()
}

/// Records in the manifest that install wrote `text` at `path`, as an older
/// version would have.
fn record(repo: &Path, path: &str, text: &str) {
    let mut m = manifest(repo);
    m["skillFiles"][path] = json!(sha256(text));
    write(
        repo.join(MANIFEST),
        format!("{}\n", serde_json::to_string_pretty(&m).unwrap()),
    );
}

fn shipped(role: &str, file: &str) -> &'static str {
    standards_core::assets::skills::skill(role)
        .unwrap()
        .files
        .iter()
        .find(|(f, _)| *f == file)
        .unwrap()
        .1
}

fn output(a: &assert_cmd::assert::Assert) -> String {
    format!("{}{}", stdout(a), stderr(a))
}

/// Every file below `dir` with its bytes.
fn tree(dir: &Path) -> Vec<(String, Vec<u8>)> {
    crate::common::files_below(dir)
        .into_iter()
        .map(|p| {
            let bytes = std::fs::read(dir.join(&p)).unwrap();
            (p, bytes)
        })
        .collect()
}

/// A user's own skill folder (no marker) that nothing of ours may touch.
fn users_own_skill(repo: &Path) -> Vec<(String, Vec<u8>)> {
    let mine = repo.join(".claude/skills/mine");
    write(mine.join("SKILL.md"), "# My own skill\r\nNo marker here.\n");
    write(mine.join("notes/a.md"), "mine\n");
    tree(&mine)
}

#[test]
fn install_records_every_skill_file_it_writes() {
    let (env, repo) = Env::repo();
    env.run(&repo, &["install", "--client", "claude"]).success();
    let m = manifest(&repo);
    let files = m["skillFiles"].as_object().expect("skillFiles recorded");
    let path = ".claude/skills/developer/SKILL.md";
    assert_eq!(files[path], sha256(&read(repo.join(path))));
    let on_disk = crate::common::files_below(&repo.join(".claude/skills")).len();
    assert_eq!(files.len(), on_disk, "{files:?}");
}

#[test]
fn an_older_versions_skill_file_is_upgraded_by_install() {
    let (env, repo) = Env::repo();
    env.run(&repo, &["install", "--client", "claude"]).success();
    let path = ".claude/skills/developer/SKILL.md";
    let old = format!("{MARKER}\n# Developer (an older release)\n");
    write(repo.join(path), &old);
    record(&repo, path, &old);
    let a = env.run(&repo, &["install"]).success();
    assert!(!output(&a).contains("Kept"), "{}", output(&a));
    assert_eq!(read(repo.join(path)), shipped("developer", "SKILL.md"));
    assert_eq!(
        manifest(&repo)["skillFiles"][path],
        sha256(shipped("developer", "SKILL.md"))
    );
}

/// Departs from SC-INST-008, where a reinstall restores a SKILL.md the user
/// appended to: nothing the user wrote is overwritten (the brief's design
/// rules; issue 13, "keeps the ones they did, with a warning").
#[test]
fn a_skill_file_the_user_changed_is_kept_with_a_warning() {
    let (env, repo) = Env::repo();
    env.run(&repo, &["install", "--client", "claude"]).success();
    let path = ".claude/skills/developer/SKILL.md";
    let mine = format!("{}\nMy notes.\n", read(repo.join(path)));
    write(repo.join(path), &mine);
    let recorded = manifest(&repo)["skillFiles"][path].clone();
    let a = env.run(&repo, &["install"]).success();
    assert!(
        output(&a).contains(&format!("Kept your changed skill file {path}")),
        "{}",
        output(&a)
    );
    assert_eq!(read(repo.join(path)), mine);
    assert_eq!(
        manifest(&repo)["skillFiles"][path],
        recorded,
        "the record still says what install wrote"
    );
    // A second install says the same and still keeps it.
    let a = env.run(&repo, &["install"]).success();
    assert!(output(&a).contains("Kept your changed skill file"));
    assert_eq!(read(repo.join(path)), mine);
    // Removal keeps it too, and takes the rest of the folder.
    let a = env.run(&repo, &["install", "--client", "none"]).success();
    assert!(
        output(&a).contains(&format!("Kept changed skill file {path}")),
        "{}",
        output(&a)
    );
    assert_eq!(read(repo.join(path)), mine);
    assert!(!repo.join(".claude/skills/developer/modes").exists());
    assert!(!repo.join(".claude/skills/tester").exists());
}

/// A marked skill of a role this version no longer ships: `old-role` (as its
/// older version wrote it, recorded) and `gone-role` (recorded, then changed
/// by the user), with the user's unmarked folder beside them.
fn with_unshipped_roles(env: &Env, repo: &Path) -> (String, Vec<(String, Vec<u8>)>) {
    env.run(repo, &["install", "--client", "claude"]).success();
    for (path, text) in [
        (
            ".claude/skills/old-role/SKILL.md",
            format!("{MARKER}\n# Old role\n"),
        ),
        (
            ".claude/skills/old-role/modes/quick.md",
            "# Quick\n".to_string(),
        ),
        (
            ".claude/skills/gone-role/SKILL.md",
            format!("{MARKER}\n# Gone role\n"),
        ),
    ] {
        write(repo.join(path), &text);
        record(repo, path, &text);
    }
    let changed = format!("{MARKER}\n# Gone role\n\nMy addition.\n");
    write(repo.join(".claude/skills/gone-role/SKILL.md"), &changed);
    (changed, users_own_skill(repo))
}

fn assert_unshipped_roles_removed(repo: &Path, out: &str, changed: &str) {
    assert!(!repo.join(".claude/skills/old-role").exists(), "{out}");
    assert_eq!(
        read(repo.join(".claude/skills/gone-role/SKILL.md")),
        changed
    );
    assert!(
        out.contains("Kept changed skill file .claude/skills/gone-role/SKILL.md"),
        "{out}"
    );
}

#[test]
fn install_client_none_removes_marked_skills_of_roles_no_longer_shipped() {
    let (env, repo) = Env::repo();
    let (changed, mine) = with_unshipped_roles(&env, &repo);
    let a = env.run(&repo, &["install", "--client", "none"]).success();
    assert_unshipped_roles_removed(&repo, &output(&a), &changed);
    assert!(!repo.join(".claude/skills/developer").exists());
    assert_eq!(tree(&repo.join(".claude/skills/mine")), mine);
    let m = manifest(&repo);
    let files = m["skillFiles"].as_object().unwrap();
    assert!(
        files
            .keys()
            .all(|k| k == ".claude/skills/gone-role/SKILL.md"),
        "only the kept file stays recorded: {files:?}"
    );
}

#[test]
fn uninstall_removes_marked_skills_of_roles_no_longer_shipped() {
    let (env, repo) = Env::repo();
    let (changed, mine) = with_unshipped_roles(&env, &repo);
    env.commit_all(&repo, "installed");
    let a = env.run(&repo, &["uninstall", "--yes"]).success();
    assert_unshipped_roles_removed(&repo, &output(&a), &changed);
    assert!(!repo.join(".standards").exists());
    assert!(!repo.join(".claude/skills/developer").exists());
    assert_eq!(tree(&repo.join(".claude/skills/mine")), mine);
}

#[test]
fn a_marked_unshipped_skill_without_a_record_is_kept_with_a_warning() {
    let (env, repo) = Env::repo();
    env.run(&repo, &["install", "--client", "claude"]).success();
    let path = ".claude/skills/legacy-role/SKILL.md";
    write(repo.join(path), format!("{MARKER}\n# Legacy\n"));
    let a = env.run(&repo, &["install", "--client", "none"]).success();
    assert!(
        output(&a).contains(&format!("Kept skill file {path}")),
        "{}",
        output(&a)
    );
    assert_eq!(read(repo.join(path)), format!("{MARKER}\n# Legacy\n"));
}

#[test]
fn an_unmarked_folder_is_untouched_by_install_and_removal() {
    let (env, repo) = Env::repo();
    env.run(&repo, &["install", "--client", "claude"]).success();
    let mine = users_own_skill(&repo);
    env.run(&repo, &["install"]).success();
    assert_eq!(tree(&repo.join(".claude/skills/mine")), mine);
    env.run(&repo, &["install", "--client", "none"]).success();
    assert_eq!(tree(&repo.join(".claude/skills/mine")), mine);
    env.run(&repo, &["install", "--client", "claude"]).success();
    env.commit_all(&repo, "installed");
    env.run(&repo, &["uninstall", "--yes"]).success();
    assert_eq!(tree(&repo.join(".claude/skills/mine")), mine);
}

/// A skill folder install writes for the first time is "created", one whose
/// older file it upgrades is "updated", one it leaves alone is not listed.
#[test]
fn install_says_created_for_new_skills_and_updated_for_upgraded_ones() {
    let (env, repo) = Env::repo();
    let a = env.run(&repo, &["install", "--client", "claude"]).success();
    let text = stdout(&a);
    for role in ["architect", "developer", "scoper", "tester"] {
        assert!(
            text.contains(&format!("created skill  .claude/skills/{role}\n")),
            "{text}"
        );
    }
    assert!(!text.contains("updated skill"), "{text}");
    let path = ".claude/skills/developer/SKILL.md";
    let old = format!("{MARKER}\n# Developer (an older release)\n");
    write(repo.join(path), &old);
    record(&repo, path, &old);
    let a = env.run(&repo, &["install", "--dry-run"]).success();
    assert!(stdout(&a).contains("would update skill .claude/skills/developer\n"));
    let a = env.run(&repo, &["install"]).success();
    let text = stdout(&a);
    assert!(
        text.contains("updated skill  .claude/skills/developer\n"),
        "{text}"
    );
    assert!(
        !text.contains("created skill") && !text.contains("skills/tester"),
        "{text}"
    );
}
