//! `git standards reset` and `git standards archive` on real repositories
//! (RT §7.7, D6, D21, D22), with the git CLI as the witness.

use std::path::Path;

use crate::common::{read, stderr, stdout, write, Env};
use crate::recover::tree_bytes;

pub const CYCLE: &str = "add-search-20260101T000000Z-0123abcd";

/// An installed, committed project with an active cycle, committed records,
/// a staged edit, an unstaged edit, an untracked record and Auditor context.
pub fn project_with_cycle() -> (Env, std::path::PathBuf) {
    let (env, repo) = Env::repo();
    write(repo.join("README.md"), "# project\n");
    write(repo.join("src/app.py"), "print('work')\n");
    env.run(&repo, &["install", "--mode", "greenfield"])
        .success();
    let state = read(repo.join(".standards/STATE.md"))
        .replace("`Id`: `UNSET`", &format!("`Id`: `{CYCLE}`"))
        .replace("`CycleMode`: `UNSET`", "`CycleMode`: `STANDARD`");
    write(repo.join(".standards/STATE.md"), state);
    write(repo.join(".standards/CONTEXT.md"), "context\n");
    write(
        repo.join(format!(".standards/docs/scope/{CYCLE}.md")),
        "scope v1\n",
    );
    write(
        repo.join(format!(".standards/docs/specs/{CYCLE}.md")),
        "spec\n",
    );
    write(
        repo.join(".standards/user-styles/developer/terse.md"),
        "style\n",
    );
    env.commit_all(&repo, "cycle work");
    // Uncommitted: a staged edit, an unstaged edit, an untracked record.
    write(
        repo.join(format!(".standards/docs/scope/{CYCLE}.md")),
        "scope v2 staged\n",
    );
    env.git(&repo, &["add", ".standards/docs"]);
    write(
        repo.join(format!(".standards/docs/specs/{CYCLE}.md")),
        "spec edited, unstaged\n",
    );
    write(
        repo.join(format!(".standards/docs/development/{CYCLE}.md")),
        "untracked plan\n",
    );
    (env, repo)
}

/// Everything git knows that a command could change: refs (notes included),
/// the config, the index, HEAD.
fn git_state(env: &Env, repo: &Path) -> (String, Vec<u8>, Vec<u8>, String) {
    (
        env.git(repo, &["for-each-ref", "--format=%(refname) %(objectname)"]),
        std::fs::read(repo.join(".git/config")).unwrap(),
        std::fs::read(repo.join(".git/index")).unwrap(),
        env.git(repo, &["rev-parse", "HEAD"]),
    )
}

#[test]
fn a_dry_run_changes_no_file_ref_note_or_setting() {
    let (env, repo) = project_with_cycle();
    env.git(
        &repo,
        &["notes", "--ref=standards", "add", "-m", "note", "HEAD"],
    );
    let files = tree_bytes(&repo);
    let git = git_state(&env, &repo);
    let git_dir = tree_bytes(&repo.join(".git"));
    let a = env.run(&repo, &["reset", "--dry-run"]).success();
    let out = stdout(&a);
    assert!(out.contains("Would reset STANDARDS"), "{out}");
    assert!(out.contains("Remove: .standards/docs"), "{out}");
    assert!(out.contains("Remove: .standards/CONTEXT.md"), "{out}");
    assert!(out.contains("Write: .standards/STATE.md"), "{out}");
    assert!(out.contains("Cycle records: 3"), "{out}");
    assert!(
        out.contains(&format!("`{CYCLE}` (SCOPING, active)")),
        "{out}"
    );
    assert!(
        out.contains(&format!("-`CompletionPolicy`: `NONE` `Id`: `{CYCLE}`")),
        "{out}"
    );
    assert!(
        out.contains("+`CompletionPolicy`: `NONE` `Id`: `UNSET`"),
        "{out}"
    );
    assert!(
        stderr(&a).contains("deletes 3 cycle records"),
        "{}",
        stderr(&a)
    );
    assert_eq!(tree_bytes(&repo), files);
    assert_eq!(git_state(&env, &repo), git);
    // Not even an object was written: the whole git directory is byte-identical.
    assert_eq!(tree_bytes(&repo.join(".git")), git_dir);
}

#[test]
fn reset_archives_every_removed_record_byte_for_byte_and_keeps_the_rest() {
    let (env, repo) = project_with_cycle();
    write(repo.join(".gitignore"), ".standards/docs/scratch.md\n");
    write(repo.join(".standards/docs/scratch.md"), "ignored\n");
    let before = tree_bytes(&repo);
    let a = env.run(&repo, &["reset", "--yes"]).success();
    let err = stderr(&a);
    let reference = format!("refs/standards/archive/{CYCLE}");
    assert!(err.contains(&reference), "{err}");
    assert!(
        err.contains("is active"),
        "the active cycle is named: {err}"
    );
    assert!(!repo.join(".standards/docs").exists());
    assert!(!repo.join(".standards/CONTEXT.md").exists());
    assert_eq!(
        read(repo.join(".standards/STATE.md")),
        standards_core::model::state::fresh_template(
            standards_core::model::vocab::ProjectMode::Brownfield
        ),
        "mode inferred from the project's files: src/ makes it brownfield"
    );
    // Kept: user styles, protocol, project work.
    for kept in [
        ".standards/user-styles/developer/terse.md",
        ".standards/PROTOCOL.md",
        ".standards/VERSION.json",
        ".standards/INSTALLATION.json",
        "src/app.py",
        "README.md",
    ] {
        assert_eq!(tree_bytes(&repo).get(kept), before.get(kept), "{kept}");
    }
    // Every removed file, uncommitted and untracked ones included, reads back exactly.
    for (path, bytes) in &before {
        let Some(bytes) = bytes else { continue };
        if !path.starts_with(".standards/") || path.ends_with("scratch.md") {
            continue;
        }
        let shown = env.run(&repo, &["archive", "show", CYCLE, path]).success();
        assert_eq!(&shown.get_output().stdout, bytes, "{path}");
        // The git CLI sees the same object.
        let witness = env.git(&repo, &["show", &format!("{reference}:{path}")]);
        assert_eq!(witness.as_bytes(), bytes.as_slice(), "{path}");
    }
    let listed = stdout(&env.run(&repo, &["archive", "show", CYCLE]).success());
    assert!(
        !listed.contains("scratch.md"),
        "ignored files are not archived: {listed}"
    );
    let msg = env.git(&repo, &["log", "-1", "--format=%B", &reference]);
    assert!(
        msg.contains("Branch: main") && msg.contains("Operation: reset"),
        "{msg}"
    );
    assert!(msg.contains(&format!(
        "Tool: git-standards {}",
        env!("CARGO_PKG_VERSION")
    )));
    assert!(msg.contains(&format!(
        "HEAD: {}",
        env.git(&repo, &["rev-parse", "HEAD"]).trim()
    )));
    let fsck = env.git_status(&repo, &["fsck", "--strict"]);
    assert!(
        fsck.status.success(),
        "{}",
        String::from_utf8_lossy(&fsck.stderr)
    );

    // Restore refuses to overwrite and puts a removed record back.
    let restored = env
        .run(
            &repo,
            &[
                "archive",
                "restore",
                CYCLE,
                &format!("docs/specs/{CYCLE}.md"),
            ],
        )
        .success();
    assert!(stdout(&restored).contains("restored"));
    assert_eq!(
        read(repo.join(format!(".standards/docs/specs/{CYCLE}.md"))),
        "spec edited, unstaged\n"
    );
    let refused = env
        .run(&repo, &["archive", "restore", CYCLE, ".standards/STATE.md"])
        .failure();
    assert!(
        stderr(&refused).contains("already exists"),
        "{}",
        stderr(&refused)
    );

    // The list names it, in text and JSON.
    let json = stdout(&env.run(&repo, &["archive", "list", "--json"]).success());
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["archives"][0]["name"], CYCLE);
    assert_eq!(v["archives"][0]["versions"], 1);
    assert_eq!(v["archives"][0]["operation"], "reset");
}

#[test]
fn a_second_reset_of_the_same_cycle_stacks_on_the_first_archive() {
    let (env, repo) = project_with_cycle();
    env.run(&repo, &["reset", "--yes"]).success();
    let reference = format!("refs/standards/archive/{CYCLE}");
    let first = env.git(&repo, &["rev-parse", &reference]);
    // The same cycle comes back (a branch that still had it) and is reset again.
    let state = read(repo.join(".standards/STATE.md"))
        .replace("`Id`: `UNSET`", &format!("`Id`: `{CYCLE}`"));
    write(repo.join(".standards/STATE.md"), state);
    write(repo.join(".standards/docs/x.md"), "second\n");
    env.run(&repo, &["reset", "--yes"]).success();
    let parent = env.git(&repo, &["rev-parse", &format!("{reference}~1")]);
    assert_eq!(parent, first);
    let old = env
        .run(
            &repo,
            &[
                "archive",
                "show",
                &format!("{CYCLE}~1"),
                &format!("docs/specs/{CYCLE}.md"),
            ],
        )
        .success();
    assert_eq!(stdout(&old), "spec edited, unstaged\n");
    // Without a cycle ever started, the name is a timestamp.
    let (env, repo) = Env::repo();
    env.run(&repo, &["install"]).success();
    write(repo.join(".standards/CONTEXT.md"), "ctx\n");
    env.run(&repo, &["reset", "--yes"]).success();
    let refs = env.git(
        &repo,
        &[
            "for-each-ref",
            "--format=%(refname)",
            "refs/standards/archive/",
        ],
    );
    assert!(
        refs.trim().starts_with("refs/standards/archive/reset-2"),
        "{refs}"
    );
}

#[test]
fn reset_commit_holds_only_its_paths_and_the_trailers() {
    let (env, repo) = project_with_cycle();
    env.git(&repo, &["reset", "-q"]); // unstage the staged record edit
    let head = env.git(&repo, &["rev-parse", "HEAD"]);
    // Another staged change is refused.
    write(repo.join("src/app.py"), "print('more work')\n");
    env.git(&repo, &["add", "src/app.py"]);
    let refused = env.run(&repo, &["reset", "--yes", "--commit"]).failure();
    assert!(
        stderr(&refused).contains("other changes are staged"),
        "{}",
        stderr(&refused)
    );
    assert!(
        stderr(&refused).contains("src/app.py"),
        "{}",
        stderr(&refused)
    );
    assert_eq!(env.git(&repo, &["rev-parse", "HEAD"]), head);
    assert!(repo.join(".standards/docs").exists(), "nothing changed");
    env.git(&repo, &["restore", "--staged", "src/app.py"]);

    let a = env.run(&repo, &["reset", "--yes", "--commit"]).success();
    let commit = env.git(&repo, &["rev-parse", "HEAD"]);
    assert_ne!(commit, head);
    assert!(stdout(&a).contains(commit.trim()), "{}", stdout(&a));
    let archive = env.git(
        &repo,
        &["rev-parse", &format!("refs/standards/archive/{CYCLE}")],
    );
    let trailers = env.git(&repo, &["log", "-1", "--format=%(trailers)"]);
    assert!(
        trailers.contains(&format!("Standards-Reset: {CYCLE}")),
        "{trailers}"
    );
    assert!(
        trailers.contains(&format!(
            "Standards-Archive: refs/standards/archive/{CYCLE}@{}",
            archive.trim()
        )),
        "{trailers}"
    );
    let changed = env.git(&repo, &["diff", "--name-only", "HEAD~1", "HEAD"]);
    let mut changed: Vec<&str> = changed.lines().collect();
    changed.sort();
    assert_eq!(
        changed,
        [
            ".standards/CONTEXT.md",
            ".standards/MODE.md",
            ".standards/STATE.md",
            &format!(".standards/docs/scope/{CYCLE}.md"),
            &format!(".standards/docs/specs/{CYCLE}.md"),
        ]
    );
    // The index matches the commit; the unstaged project edit stays unstaged.
    let status = env.git(&repo, &["status", "--porcelain"]);
    assert_eq!(status, " M src/app.py\n", "{status}");
    let fsck = env.git_status(&repo, &["fsck", "--strict"]);
    assert!(fsck.status.success());
}

#[test]
fn without_yes_outside_a_terminal_it_refuses_with_the_exact_command() {
    let (env, repo) = project_with_cycle();
    let before = tree_bytes(&repo);
    let a = env.run(&repo, &["reset", "--commit"]).failure();
    let err = stderr(&a);
    assert!(
        err.contains("git standards reset --mode brownfield --commit --yes"),
        "{err}"
    );
    assert!(err.contains(CYCLE), "the active cycle is named: {err}");
    assert_eq!(tree_bytes(&repo), before);
    assert!(env
        .git(&repo, &["for-each-ref", "refs/standards"])
        .is_empty());
    // The printed command works.
    env.git(&repo, &["reset", "-q"]);
    env.run(
        &repo,
        &["reset", "--mode", "brownfield", "--commit", "--yes"],
    )
    .success();
}

#[test]
fn refusals_change_nothing() {
    fn refused(env: &Env, repo: &Path, needle: &str) {
        let files = tree_bytes(repo);
        let a = env.run(repo, &["reset", "--yes"]).failure();
        assert!(stderr(&a).contains(needle), "{needle}: {}", stderr(&a));
        assert_eq!(tree_bytes(repo), files);
        assert!(env
            .git(repo, &["for-each-ref", "refs/standards"])
            .is_empty());
    }
    // A symbolic link in what reset deletes.
    #[cfg(unix)]
    {
        let (env, repo) = project_with_cycle();
        std::os::unix::fs::symlink("/etc/hostname", repo.join(".standards/docs/link.md")).unwrap();
        refused(&env, &repo, "symbolic link");
        let (env, repo) = project_with_cycle();
        std::fs::remove_file(repo.join(".standards/CONTEXT.md")).unwrap();
        std::os::unix::fs::symlink("../README.md", repo.join(".standards/CONTEXT.md")).unwrap();
        refused(&env, &repo, "symbolic link");
    }
    // D6: older, newer and another major version.
    for (version, needle) in [
        ("0.0.1", "git standards install"),
        ("0.99.0", "newer"),
        ("1.0.0", "major"),
    ] {
        let (env, repo) = project_with_cycle();
        write(
            repo.join(".standards/VERSION.json"),
            format!(
                "{{\n  \"framework\": \"S.T.A.N.D.A.R.D.S.\",\n  \"version\": \"{version}\"\n}}\n"
            ),
        );
        refused(&env, &repo, needle);
    }
    // Conflict markers under .standards/.
    let (env, repo) = project_with_cycle();
    let state = read(repo.join(".standards/STATE.md"));
    write(
        repo.join(".standards/STATE.md"),
        format!("<<<<<<< ours\n{state}=======\n{state}>>>>>>> theirs\n"),
    );
    refused(&env, &repo, "unresolved merge conflicts");
    // An unmerged STATE.md from a real merge.
    let (env, repo) = project_with_cycle();
    env.commit_all(&repo, "all");
    env.git(&repo, &["checkout", "-q", "-b", "other"]);
    let s = read(repo.join(".standards/STATE.md"));
    write(
        repo.join(".standards/STATE.md"),
        s.replace("`Request`: `UNSET`", "`Request`: `other`"),
    );
    env.commit_all(&repo, "other");
    env.git(&repo, &["checkout", "-q", "main"]);
    write(
        repo.join(".standards/STATE.md"),
        s.replace("`Request`: `UNSET`", "`Request`: `main`"),
    );
    env.commit_all(&repo, "main");
    let _ = env.git_status(&repo, &["merge", "-q", "other"]);
    refused(&env, &repo, "unresolved merge conflicts");
    // A Node.js installer's interrupted transaction in the project root.
    let (env, repo) = project_with_cycle();
    write(repo.join(".standards-reset-ab12cd/operations.json"), "[]\n");
    refused(&env, &repo, "interrupted installer transaction");
    // No runtime, or a foreign .standards/.
    let (env, repo) = Env::repo();
    let a = env.run(&repo, &["reset", "--yes"]).failure();
    assert!(
        stderr(&a).contains("no STANDARDS runtime"),
        "{}",
        stderr(&a)
    );
    write(repo.join(".standards/notes.md"), "mine\n");
    refused(&env, &repo, "framework marker");
}

#[test]
fn a_fresh_installation_has_nothing_to_reset() {
    let (env, repo) = Env::repo();
    env.run(&repo, &["install"]).success();
    let before = tree_bytes(&repo);
    let a = env.run(&repo, &["reset"]).success();
    assert!(stderr(&a).contains("nothing to reset"), "{}", stderr(&a));
    assert_eq!(tree_bytes(&repo), before);
    assert!(env
        .git(&repo, &["for-each-ref", "refs/standards"])
        .is_empty());
}

/// Checks that no record was lost: each `.standards/` file of `before` is on
/// disk unchanged or (once the reset is complete) in the archive byte for byte.
fn no_record_lost(
    env: &Env,
    repo: &Path,
    before: &std::collections::BTreeMap<String, Option<Vec<u8>>>,
) -> crate::recover::Ended {
    use crate::recover::Ended;
    let now = tree_bytes(repo);
    if &now == before {
        return Ended::Before;
    }
    assert!(
        !repo.join(".standards/docs").exists(),
        "a partial reset: {:?}",
        now.keys()
    );
    // Read the archive in-process (gix), as an independent reader of the ref.
    let git = gix::open(repo).unwrap();
    let tip = git
        .find_reference(format!("refs/standards/archive/{CYCLE}").as_str())
        .expect("the archive exists once anything was deleted")
        .peel_to_id()
        .unwrap();
    let tree = git.find_commit(tip).unwrap().tree().unwrap();
    let _ = env;
    for (path, bytes) in before {
        let Some(bytes) = bytes else { continue };
        if !path.starts_with(".standards/") {
            assert_eq!(now.get(path), Some(&Some(bytes.clone())), "{path}");
            continue;
        }
        if now.get(path) == Some(&Some(bytes.clone())) {
            continue;
        }
        let entry = tree
            .lookup_entry_by_path(path)
            .unwrap()
            .unwrap_or_else(|| panic!("{path} lost"));
        let blob = git.find_object(entry.oid()).unwrap();
        assert_eq!(&blob.data, bytes, "{path}");
    }
    Ended::After
}

#[test]
fn a_reset_killed_anywhere_is_recovered_with_no_record_lost() {
    use crate::recover::{arms, copy_tree, interrupt_and_recover, Ended, Lcg};
    use git_standards::commands::reset::FAILPOINTS;
    let (env, template) = project_with_cycle();
    env.git(&template, &["reset", "-q"]);
    let before = tree_bytes(&template);
    let head = env.git(&template, &["rev-parse", "HEAD"]);
    // How long a whole reset takes, to spread the random kills over it.
    let timing = env.dir.path().join("timing");
    copy_tree(&template, &timing);
    let started = std::time::Instant::now();
    env.run(&timing, &["reset", "--yes", "--commit"]).success();
    // Capped: on a loaded machine the timing run is slow, and most of a
    // late kill's wait would be spent after the run had finished anyway.
    let span = (started.elapsed().as_micros() as u64).min(150_000);

    let points: Vec<Option<String>> = arms(FAILPOINTS, 6).into_iter().map(Some).collect();
    let mut random = Lcg(0x5eed);
    let mut trials = 0;
    let mut seen = (0, 0, 0);
    for (n, point) in points
        .iter()
        .cloned()
        .chain((0..100).map(|_| None))
        .enumerate()
    {
        let repo = env.dir.path().join(format!("trial-{n}"));
        copy_tree(&template, &repo);
        let rollback = random.below(2) == 0;
        let commit = random.below(2) == 0;
        let args: &[&str] = if commit {
            &["reset", "--yes", "--commit"]
        } else {
            &["reset", "--yes"]
        };
        let delay = std::time::Duration::from_micros(random.below(span));
        let (_, journaled) =
            interrupt_and_recover(&env, &repo, args, point.as_deref(), delay, rollback);
        let ended = no_record_lost(&env, &repo, &before);
        let now_head = format!("{}\n", gix::open(&repo).unwrap().head_id().unwrap());
        match ended {
            Ended::Before => {
                assert_eq!(now_head, head, "{point:?}");
                seen.0 += 1;
            }
            Ended::After => {
                if commit && now_head != head {
                    let status = env.git(&repo, &["status", "--porcelain", "--", ".standards"]);
                    assert_eq!(status, "", "{point:?}: the index matches the reset commit");
                }
                seen.1 += 1;
            }
        }
        if journaled {
            seen.2 += 1;
        }
        // Afterwards the project works again: another reset is accepted.
        if point.is_some() {
            env.run(&repo, &["reset", "--yes"]).success();
        }
        std::fs::remove_dir_all(&repo).unwrap();
        trials += 1;
    }
    assert!(trials >= 100 + points.len());
    assert!(seen.2 > 0, "some kills left a journal: {seen:?}");
}

/// Greenfield Bootstrap Cancellation (user-decisions.md) end to end: a
/// greenfield cycle with no implementation, the approval question recorded in
/// `BlockedOn`, the preview, then the approved reset; the result is a fresh
/// greenfield state with no CANCELLED and no records, and `check` passes.
#[test]
fn greenfield_bootstrap_cancellation_runs_end_to_end_with_reset() {
    let (env, repo) = Env::repo();
    write(repo.join("README.md"), "# idea\n");
    env.run(&repo, &["install"]).success();
    let fresh = read(repo.join(".standards/STATE.md"));
    let id = stdout(
        &env.run(&repo, &["cycle", "new", "--request", "Build a todo app"])
            .success(),
    )
    .trim()
    .to_string();
    let state = fresh
        .replace("`Id`: `UNSET`", &format!("`Id`: `{id}`"))
        .replace("`CycleMode`: `UNSET`", "`CycleMode`: `STANDARD`")
        .replace(
            "`CompletionPolicy`: `NONE`",
            "`CompletionPolicy`: `FULL_DELIVERABLE`",
        )
        .replace("`Request`: `UNSET`", "`Request`: `Build a todo app`");
    write(repo.join(".standards/STATE.md"), &state);
    env.run(&repo, &["artifact", "init", "scope"]).success();
    env.commit_all(&repo, "scoping started");
    // Step 3: the pending approval is recorded while waiting.
    let waiting = state.replace(
        "`BlockedOn`: `NONE`",
        "`BlockedOn`: `approve git standards reset --mode greenfield --yes in this project`",
    );
    write(repo.join(".standards/STATE.md"), &waiting);
    // Step 2: the preview may run before approval and changes nothing.
    let before = tree_bytes(&repo);
    let preview = env
        .run(&repo, &["reset", "--mode", "greenfield", "--dry-run"])
        .success();
    assert!(
        stdout(&preview).contains(&format!("`{id}` (SCOPING, active)")),
        "{}",
        stdout(&preview)
    );
    assert!(stdout(&preview).contains("Mode: GREENFIELD"));
    assert_eq!(tree_bytes(&repo), before);
    // Step 4: the approved command, as the chapter names it.
    let a = env
        .run(&repo, &["reset", "--mode", "greenfield", "--yes"])
        .success();
    assert!(
        stderr(&a).contains(&format!("refs/standards/archive/{id}")),
        "{}",
        stderr(&a)
    );
    // Step 5: the fresh state is the result; no CANCELLED, no records.
    assert_eq!(read(repo.join(".standards/STATE.md")), fresh);
    assert!(read(repo.join(".standards/MODE.md")).contains("GREENFIELD"));
    assert!(!repo.join(".standards/docs").exists());
    let status = stdout(&env.run(&repo, &["status", "--json"]).success());
    let v: serde_json::Value = serde_json::from_str(&status).unwrap();
    assert_eq!(v["workflowState"], "SCOPING");
    assert!(v["activeWork"].is_null(), "{status}");
    env.run(&repo, &["check"]).success();
    // The scope record the cycle had written is still readable.
    let scope = stdout(
        &env.run(
            &repo,
            &["archive", "show", &id, &format!("docs/scope/{id}.md")],
        )
        .success(),
    );
    assert!(scope.contains(&id), "{scope}");
    // The next request starts a first greenfield cycle from the fresh state.
    env.run(&repo, &["cycle", "new", "--request", "Another idea"])
        .success();
}

/// The same cancellation through `git standards cancel`, which runs this
/// reset: without `--yes` it previews and changes nothing, with it the cycle
/// is gone, archived, and the state is fresh.
#[test]
fn cancel_in_greenfield_runs_the_reset() {
    let (env, repo) = Env::repo();
    env.run(&repo, &["install", "--mode", "greenfield"])
        .success();
    let fresh = read(repo.join(".standards/STATE.md"));
    let id = stdout(
        &env.run(&repo, &["cycle", "new", "--request", "Try"])
            .success(),
    )
    .trim()
    .to_string();
    let state = fresh
        .replace("`Id`: `UNSET`", &format!("`Id`: `{id}`"))
        .replace("`CycleMode`: `UNSET`", "`CycleMode`: `STANDARD`")
        .replace(
            "`CompletionPolicy`: `NONE`",
            "`CompletionPolicy`: `FULL_DELIVERABLE`",
        )
        .replace("`Request`: `UNSET`", "`Request`: `Try`");
    write(repo.join(".standards/STATE.md"), &state);
    env.run(&repo, &["artifact", "init", "scope"]).success();
    env.commit_all(&repo, "cycle");
    let before = tree_bytes(&repo);
    let a = env.run(&repo, &["cancel"]).failure();
    assert!(
        stdout(&a).contains("Would reset STANDARDS"),
        "{}",
        stdout(&a)
    );
    assert_eq!(tree_bytes(&repo), before, "the preview changes nothing");
    env.run(&repo, &["cancel", "--yes"]).success();
    assert_eq!(read(repo.join(".standards/STATE.md")), fresh);
    assert!(!repo.join(".standards/docs").exists());
    let refs = env.git(
        &repo,
        &[
            "for-each-ref",
            "--format=%(refname)",
            "refs/standards/archive/",
        ],
    );
    assert_eq!(refs.trim(), format!("refs/standards/archive/{id}"));
}

/// Issue 25, item 8: the records warning names only the kinds present (here
/// scope, design and development), says "deletes" in a preview and
/// "deleted" once the records are gone, and the counts match the files.
#[test]
fn the_records_warning_names_the_kinds_present_in_the_right_tense() {
    let (env, repo) = project_with_cycle();
    let expected =
        "cycle records in `.standards/docs/` (1 scope, 1 design and 1 development records)";
    let a = env.run(&repo, &["reset", "--dry-run"]).success();
    let err = stderr(&a);
    assert!(
        err.contains(&format!("Warning: deletes 3 {expected}")),
        "{err}"
    );
    assert!(!err.contains("synchronization"), "{err}");
    assert!(repo.join(".standards/docs").exists());
    let a = env.run(&repo, &["reset", "--yes"]).success();
    let err = stderr(&a);
    assert!(
        err.contains(&format!("Warning: deleted 3 {expected}")),
        "{err}"
    );
    assert!(!err.contains("Warning: deletes"), "{err}");
    assert!(!repo.join(".standards/docs").exists());
}

/// Issue 25, `--json` on every command: a preview, the reset and the
/// refusal to run unconfirmed each print one JSON object on stdout whose
/// paths, records and archive match what git and the files show.
#[test]
fn json_reports_the_preview_the_reset_and_the_refusal() {
    let (env, repo) = project_with_cycle();
    let parse = |a: &assert_cmd::assert::Assert| -> serde_json::Value {
        serde_json::from_str(&stdout(a)).unwrap_or_else(|e| panic!("{e}: {}", stdout(a)))
    };
    let v = parse(&env.run(&repo, &["reset", "--json"]).code(1));
    assert_eq!(v["ok"], false, "{v:#}");
    assert!(v["hint"].as_str().unwrap().contains("--yes"), "{v:#}");
    let v = parse(&env.run(&repo, &["reset", "--dry-run", "--json"]).success());
    assert_eq!(
        (v["ok"].clone(), v["dryRun"].clone(), v["changed"].clone()),
        (true.into(), true.into(), false.into()),
        "{v:#}"
    );
    assert_eq!(v["records"], 3, "{v:#}");
    assert_eq!(
        v["recordKinds"],
        serde_json::json!({"scope": 1, "design": 1, "development": 1}),
        "{v:#}"
    );
    assert!(
        repo.join(".standards/docs").exists(),
        "a preview changes nothing"
    );
    let a = env.run(&repo, &["reset", "--yes", "--json"]).success();
    let v = parse(&a);
    assert_eq!(v["changed"], true, "{v:#}");
    assert_eq!(v["cycle"], CYCLE, "{v:#}");
    assert!(v["paths"]
        .as_array()
        .unwrap()
        .contains(&serde_json::json!({"action": "remove", "path": ".standards/docs"})));
    let archive = v["archive"].as_str().unwrap();
    let (reference, commit) = archive.split_once('@').unwrap();
    assert_eq!(env.git(&repo, &["rev-parse", reference]).trim(), commit);
    assert!(!repo.join(".standards/docs").exists());
    assert!(
        v["warnings"][1]
            .as_str()
            .unwrap()
            .starts_with("deleted 3 cycle records"),
        "{v:#}"
    );
}

/// Issue 25, `--json` on every command: `archive show --json` lists the files
/// or carries one file's text, `archive restore --json` names what it wrote,
/// and their refusals are one JSON object each, with the text form's exit codes.
#[test]
fn archive_show_and_restore_json_report_the_files_and_the_refusals() {
    let parse = |a: &assert_cmd::assert::Assert| -> serde_json::Value {
        serde_json::from_str(&stdout(a)).unwrap_or_else(|e| panic!("{e}: {}", stdout(a)))
    };
    let (env, repo) = project_with_cycle();
    let state = read(repo.join(".standards/STATE.md"));
    env.run(&repo, &["reset", "--yes"]).success();

    let v = parse(
        &env.run(&repo, &["archive", "show", CYCLE, "--json"])
            .success(),
    );
    assert_eq!(v["ok"], true, "{v}");
    assert_eq!(v["command"], "archive show");
    let commit = env.git(
        &repo,
        &["rev-parse", &format!("refs/standards/archive/{CYCLE}")],
    );
    assert_eq!(v["commit"], commit.trim());
    let listed = stdout(&env.run(&repo, &["archive", "show", CYCLE]).success());
    let files: Vec<&str> = v["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap())
        .collect();
    assert_eq!(files, listed.lines().collect::<Vec<_>>());
    assert!(files.contains(&".standards/CONTEXT.md"), "{v}");

    let v = parse(
        &env.run(&repo, &["archive", "show", CYCLE, "STATE.md", "--json"])
            .success(),
    );
    assert_eq!(v["file"], ".standards/STATE.md", "{v}");
    assert_eq!(v["content"], state.as_str());
    assert_eq!(v["size"], state.len());

    let text = env
        .run(&repo, &["archive", "show", CYCLE, "nosuch.md"])
        .code(1);
    let v = parse(
        &env.run(&repo, &["archive", "show", CYCLE, "nosuch.md", "--json"])
            .code(1),
    );
    assert_eq!(v["ok"], false);
    assert!(stderr(&text).contains("has no file `nosuch.md`"));
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("has no file `nosuch.md`"),
        "{v}"
    );
    assert!(v["hint"].as_str().unwrap().contains("archive show"), "{v}");

    let v = parse(
        &env.run(
            &repo,
            &["archive", "restore", CYCLE, "CONTEXT.md", "--json"],
        )
        .success(),
    );
    assert_eq!(v["ok"], true, "{v}");
    assert_eq!(v["command"], "archive restore");
    assert_eq!(v["restored"], serde_json::json!([".standards/CONTEXT.md"]));
    assert_eq!(read(repo.join(".standards/CONTEXT.md")), "context\n");

    let v = parse(
        &env.run(
            &repo,
            &["archive", "restore", CYCLE, "CONTEXT.md", "--json"],
        )
        .code(1),
    );
    assert_eq!(v["ok"], false);
    assert!(
        v["error"].as_str().unwrap().contains("already exists"),
        "{v}"
    );
    assert_eq!(read(repo.join(".standards/CONTEXT.md")), "context\n");
}
