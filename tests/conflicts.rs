//! Merges of two cycles' state (D24), conflicts in `.standards/` while a merge
//! is in progress, and the user's `resolve` decision, on real repositories
//! with the `git` CLI as witness.

use std::path::{Path, PathBuf};

use crate::common::{read, set_field, stderr, stdout, write, Env};

const STATE: &str = ".standards/STATE.md";

/// A greenfield install, committed on `main`.
fn installed() -> (Env, PathBuf) {
    let (env, repo) = Env::repo();
    env.run(&repo, &["install"]).success();
    env.commit_all(&repo, "install");
    (env, repo)
}

fn edit_state(repo: &Path, changes: &[(&str, &str)]) {
    let mut s = read(repo.join(STATE));
    for (name, value) in changes {
        s = set_field(&s, name, value);
    }
    write(repo.join(STATE), s);
}

/// Starts a new cycle for `request` in SCOPING (as the Scoper does) and
/// returns its ID; nothing is committed.
fn start_cycle(env: &Env, repo: &Path, request: &str) -> String {
    let a = env
        .run(repo, &["cycle", "new", "--request", request])
        .success();
    let id = stdout(&a).trim().to_string();
    edit_state(
        repo,
        &[
            ("WorkflowState", "SCOPING"),
            ("CycleMode", "STANDARD"),
            ("Id", &id),
            ("Request", request),
            ("CompletionPolicy", "FULL_DELIVERABLE"),
        ],
    );
    id
}

/// Configures the merge driver the way `hooks install` does, with this binary.
fn configure_driver(env: &Env, repo: &Path) {
    write(
        repo.join(".gitattributes"),
        ".standards/STATE.md merge=standards\n",
    );
    env.commit_all(repo, "merge driver attributes");
    let driver = format!("'{}' merge-driver %O %A %B %P", Env::bin().display());
    env.git(repo, &["config", "merge.standards.driver", &driver]);
    env.git(
        repo,
        &["config", "merge.standards.name", "STANDARDS STATE.md"],
    );
}

/// Two branches from one cycle in SCOPING: `main` hands it to ARCHITECTING,
/// `side` records a BlockedOn question. The edits sit on different lines.
fn handoff_and_blocked_on(env: &Env, repo: &Path) -> String {
    let id = start_cycle(env, repo, "Add search");
    env.commit_all(repo, "cycle started");
    env.git(repo, &["checkout", "-q", "-b", "side"]);
    edit_state(repo, &[("BlockedOn", "Which database backs the search?")]);
    env.commit_all(repo, "side: blocked on a question");
    env.git(repo, &["checkout", "-q", "main"]);
    edit_state(
        repo,
        &[
            ("WorkflowState", "ARCHITECTING"),
            ("Kind", "FORWARD"),
            ("From", "SCOPING"),
        ],
    );
    env.commit_all(repo, "main: handed to the Architect");
    id
}

/// D24: git alone combines the two edits into a state neither branch had.
#[test]
fn without_the_driver_git_combines_different_lines_silently() {
    let (env, repo) = installed();
    handoff_and_blocked_on(&env, &repo);
    let merge = env.git_status(&repo, &["merge", "-q", "--no-edit", "side"]);
    assert!(merge.status.success(), "git merges the lines silently");
    let merged = read(repo.join(STATE));
    assert!(merged.contains("`ARCHITECTING`") && merged.contains("Which database"));
}

/// D24: with the driver configured the same merge conflicts, and the file
/// holds both whole versions labelled with cycle and state.
#[test]
fn with_the_driver_the_same_merge_conflicts_and_labels_both_sides() {
    let (env, repo) = installed();
    configure_driver(&env, &repo);
    let id = handoff_and_blocked_on(&env, &repo);
    let ours = env.git(&repo, &["show", "main:.standards/STATE.md"]);
    let theirs = env.git(&repo, &["show", "side:.standards/STATE.md"]);
    let merge = env.git_status(&repo, &["merge", "-q", "--no-edit", "side"]);
    assert!(!merge.status.success(), "the driver reports a conflict");
    let said = String::from_utf8_lossy(&merge.stderr).into_owned()
        + &String::from_utf8_lossy(&merge.stdout);
    assert!(
        said.contains("Both branches changed `.standards/STATE.md`"),
        "{said}"
    );
    let merged = read(repo.join(STATE));
    assert_eq!(
        merged,
        format!(
            "<<<<<<< ours: cycle {id} (ARCHITECTING)\n{ours}=======\n{theirs}>>>>>>> theirs: cycle {id} (SCOPING)\n"
        )
    );
    let unmerged = env.git(&repo, &["ls-files", "-u", "--", STATE]);
    assert_eq!(unmerged.lines().count(), 3, "stages 1, 2 and 3: {unmerged}");
}

/// D24: when only one branch changed STATE.md the driver takes it, cleanly.
#[test]
fn with_the_driver_a_one_sided_change_merges_cleanly() {
    let (env, repo) = installed();
    configure_driver(&env, &repo);
    start_cycle(&env, &repo, "Add search");
    env.commit_all(&repo, "cycle started");
    env.git(&repo, &["checkout", "-q", "-b", "side"]);
    edit_state(&repo, &[("BlockedOn", "Which database?")]);
    env.commit_all(&repo, "side");
    let theirs = read(repo.join(STATE));
    env.git(&repo, &["checkout", "-q", "main"]);
    write(repo.join("notes.txt"), "x\n");
    env.commit_all(&repo, "main: unrelated");
    let merge = env.git_status(&repo, &["merge", "-q", "--no-edit", "side"]);
    assert!(
        merge.status.success(),
        "{}",
        String::from_utf8_lossy(&merge.stderr)
    );
    assert_eq!(read(repo.join(STATE)), theirs);
    env.run(&repo, &["check"]).success();
}

/// The driver never crashes a merge: an unreadable input is a conflict with
/// the reason on stderr.
#[test]
fn the_driver_turns_bad_input_into_a_conflict() {
    let env = Env::new();
    let dir = env.dir.path();
    write(dir.join("ours"), "mine\n");
    let a = env
        .run(
            dir,
            &["merge-driver", "no-such-base", "ours", "ours", STATE],
        )
        .code(1);
    assert!(
        stderr(&a).contains("could not merge `.standards/STATE.md`"),
        "{}",
        stderr(&a)
    );
    assert_eq!(read(dir.join("ours")), "mine\n");
}

/// `main` and `side` each started their own cycle from the fresh install,
/// each with its scope record; merging `side` into `main` conflicts in
/// STATE.md. Returns (main's cycle, side's cycle).
fn two_cycles_conflicting(env: &Env, repo: &Path) -> (String, String) {
    env.git(repo, &["checkout", "-q", "-b", "side"]);
    let side = start_cycle(env, repo, "Add side search");
    env.run(repo, &["artifact", "init", "SCOPE"]).success();
    env.commit_all(repo, "side: cycle started");
    env.git(repo, &["checkout", "-q", "main"]);
    let main = start_cycle(env, repo, "Add main export");
    env.run(repo, &["artifact", "init", "SCOPE"]).success();
    env.commit_all(repo, "main: cycle started");
    let merge = env.git_status(repo, &["merge", "-q", "side"]);
    assert!(!merge.status.success(), "the merge must conflict");
    (main, side)
}

/// The audit trail's events of one kind (`git standards log --json --event`).
fn events(env: &Env, repo: &Path, kind: &str) -> Vec<serde_json::Value> {
    let a = env.run(repo, &["log", "--json", "--event", kind]).success();
    stdout(&a)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn said(a: &assert_cmd::assert::Assert) -> String {
    format!("{}{}", stdout(a), stderr(a))
}

/// Issue 10 point 3: mid-merge, `check`, `status` and `status --staged`
/// report the conflict first and name both cycles; every writing command refuses.
#[test]
fn mid_merge_every_reader_names_both_cycles_and_every_writer_refuses() {
    let (env, repo) = installed();
    let (main, side) = two_cycles_conflicting(&env, &repo);
    let unmerged = env.git(&repo, &["ls-files", "-u", "--", STATE]);
    assert_eq!(unmerged.lines().count(), 3, "{unmerged}");

    for args in [
        &["check"][..],
        &["check", "--staged"],
        &["status"],
        &["status", "--staged"],
    ] {
        let a = env.run(&repo, args).code(1);
        let out = said(&a);
        assert!(
            out.contains(&main) && out.contains(&side),
            "{args:?}:\n{out}"
        );
        assert!(
            out.contains("Add main export") && out.contains("Add side search"),
            "{args:?}:\n{out}"
        );
        assert!(
            stdout(&a).starts_with("Merge conflict during a merge"),
            "{args:?} reports the conflict first:\n{}",
            stdout(&a)
        );
        assert!(
            out.contains("MERGE_HEAD, the branch being merged"),
            "{args:?}:\n{out}"
        );
    }

    for args in [
        &["status", "--json"][..],
        &["status", "--staged", "--json"],
        &["check", "--json"],
    ] {
        let a = env.run(&repo, args).code(1);
        let v: serde_json::Value = serde_json::from_str(&stdout(&a)).unwrap();
        assert_eq!(v["ok"], false, "{args:?}");
        let file = &v["conflict"]["files"][0];
        assert_eq!(v["conflict"]["operation"], "merge", "{args:?}: {v}");
        assert_eq!(file["path"], STATE, "{args:?}");
        assert_eq!(file["ours"]["cycle"], main.as_str(), "{args:?}");
        assert_eq!(file["theirs"]["cycle"], side.as_str(), "{args:?}");
        assert_eq!(file["theirs"]["request"], "Add side search", "{args:?}");
        assert_eq!(file["theirs"]["workflowState"], "SCOPING", "{args:?}");
    }

    let scope = format!(".standards/docs/scope/{main}.md");
    let before = crate::common::files_below(&repo);
    for args in [
        &["cycle", "new", "--request", "Another"][..],
        &["artifact", "init", "ARCHITECTURE"],
        &["id", "next", "AC", &scope],
        &["install"],
    ] {
        let a = env.run(&repo, args).code(1);
        let err = stderr(&a);
        assert!(
            err.contains("refusing to change the workflow"),
            "{args:?}: {err}"
        );
        assert!(
            err.contains(&main) && err.contains(&side),
            "{args:?}: {err}"
        );
        assert!(err.contains("No role may choose a side"), "{args:?}: {err}");
    }
    assert_eq!(crate::common::files_below(&repo), before, "nothing written");
    let refused = events(&env, &repo, "conflict-refused");
    let commands: Vec<&str> = refused
        .iter()
        .map(|e| e["command"].as_str().unwrap())
        .collect();
    assert_eq!(
        commands,
        ["cycle new", "artifact init", "id next", "install"],
        "one event per refusal"
    );
    assert_eq!(refused[0]["cycles"], serde_json::json!([main, side]));
    assert_eq!(refused[0]["operation"], "merge");
}

/// Issue 10 point 4: `resolve --keep theirs` is refused outside a terminal
/// without `--yes` (printing the exact command), then keeps side's STATE.md,
/// stages it, names the cycle that stopped being tracked and its records,
/// leaves both cycles' records in place, and `check` passes.
#[test]
fn resolve_keep_theirs_keeps_both_cycles_records_and_check_passes() {
    let (env, repo) = installed();
    let (main, side) = two_cycles_conflicting(&env, &repo);
    let theirs = env.git(&repo, &["show", "side:.standards/STATE.md"]);
    let before = read(repo.join(STATE));

    let a = env.run(&repo, &["resolve", "--keep", "theirs"]).code(1);
    assert!(
        stderr(&a).contains("`git standards resolve --keep theirs --yes`"),
        "{}",
        stderr(&a)
    );
    assert_eq!(read(repo.join(STATE)), before, "nothing written");

    assert!(
        events(&env, &repo, "conflict-resolved").is_empty(),
        "a refusal records no decision"
    );
    let a = env
        .run(&repo, &["resolve", "--keep", "theirs", "--yes"])
        .success();
    let resolved = events(&env, &repo, "conflict-resolved");
    assert_eq!(resolved.len(), 1);
    assert_eq!(resolved[0]["choice"], "theirs");
    assert_eq!(resolved[0]["kept"], side.as_str());
    assert_eq!(resolved[0]["dropped"], main.as_str());
    let out = stdout(&a);
    assert!(
        out.contains(&format!("now tracks cycle {side} (SCOPING)")),
        "{out}"
    );
    assert!(
        out.contains(&format!("Cycle {main} (SCOPING), from ours (HEAD, the branch being merged into), stopped being tracked")),
        "{out}"
    );
    let main_scope = format!(".standards/docs/scope/{main}.md");
    let side_scope = format!(".standards/docs/scope/{side}.md");
    assert!(out.contains(&format!("  {main_scope}")), "{out}");
    assert!(out.contains("Finish a merge with `git commit`"), "{out}");

    assert_eq!(read(repo.join(STATE)), theirs);
    assert!(repo.join(&main_scope).is_file() && repo.join(&side_scope).is_file());
    // git agrees: nothing unmerged, STATE.md staged as theirs.
    assert_eq!(env.git(&repo, &["ls-files", "-u"]), "");
    assert_eq!(env.git(&repo, &["show", ":.standards/STATE.md"]), theirs);
    assert_eq!(env.git(&repo, &["diff", "--name-only"]), "");

    let a = env.run(&repo, &["check"]);
    assert!(a.get_output().status.success(), "{}", said(&a));
    env.run(&repo, &["check", "--staged"]).success();
    // Until the merge is committed, writers still refuse; afterwards they work.
    let a = env.run(&repo, &["cycle", "new", "--request", "x"]).code(1);
    assert!(
        stderr(&a).contains("a merge that changes `.standards/` is in progress"),
        "{}",
        stderr(&a)
    );
    env.git(&repo, &["commit", "-q", "--no-edit"]);
    env.run(&repo, &["check", "--ref", "HEAD"]).success();
    env.run(&repo, &["id", "next", "AC", &side_scope]).success();
}

/// `resolve` refuses while another `.standards/` file still holds a conflict,
/// listing it, and refuses when STATE.md is not in conflict.
#[test]
fn resolve_refuses_while_other_files_conflict_and_without_a_conflict() {
    let (env, repo) = installed();
    let a = env
        .run(&repo, &["resolve", "--keep", "ours", "--yes"])
        .code(1);
    assert!(
        stderr(&a).contains("has no merge conflict to resolve"),
        "{}",
        stderr(&a)
    );

    env.git(&repo, &["checkout", "-q", "-b", "side"]);
    write(repo.join(".standards/CONTEXT.md"), "# Context\n\nside\n");
    start_cycle(&env, &repo, "Side");
    env.commit_all(&repo, "side");
    env.git(&repo, &["checkout", "-q", "main"]);
    write(repo.join(".standards/CONTEXT.md"), "# Context\n\nmain\n");
    start_cycle(&env, &repo, "Main");
    env.commit_all(&repo, "main");
    assert!(!env
        .git_status(&repo, &["merge", "-q", "side"])
        .status
        .success());
    let before = read(repo.join(STATE));
    let a = env
        .run(&repo, &["resolve", "--keep", "ours", "--yes"])
        .code(1);
    let err = stderr(&a);
    assert!(
        err.contains("other `.standards/` files still hold conflicts: `.standards/CONTEXT.md`"),
        "{err}"
    );
    assert_eq!(read(repo.join(STATE)), before);
}

/// D22 crash points and issue 21 item 4: a `resolve` killed at any write
/// step (before its journal, at each of its journal's points, each step's
/// included: the event first, STATE.md, the index; inside the event's notes
/// update; after it), then `recover`, and `resolve` again while the conflict
/// is still there: the chosen side is kept, nothing of either cycle is lost,
/// and the resolution has exactly one `conflict-resolved` event. (Before,
/// the event was appended alone first: a kill after it and the re-run
/// recorded the decision twice.)
#[test]
fn resolve_killed_at_any_step_is_completed_with_exactly_one_event() {
    let mut points: Vec<String> = Vec::new();
    for point in git_standards::commands::resolve::FAILPOINTS {
        if point.ends_with(":step-applied") || point.ends_with(":step-recorded") {
            points.extend((1..=3).map(|n| format!("{point}@{n}")));
        } else {
            points.push(point.to_string());
        }
    }
    points.push("audit:ref-locked".into());
    for point in &points {
        let (env, repo) = installed();
        let (_main, side) = two_cycles_conflicting(&env, &repo);
        let theirs = env.git(&repo, &["show", "side:.standards/STATE.md"]);
        let before = events(&env, &repo, "conflict-resolved").len();
        let out = env
            .cmd(&repo)
            .args(["resolve", "--keep", "theirs", "--yes"])
            .env("GIT_STANDARDS_FAILPOINT", point)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), None, "{point}: the process was killed");
        env.run(&repo, &["recover"]).success();
        if !env.git(&repo, &["ls-files", "-u"]).is_empty() {
            let a = env.run(&repo, &["resolve", "--keep", "theirs", "--yes"]);
            assert!(a.get_output().status.success(), "{point}: {}", said(&a));
            assert!(stdout(&a).contains(&side), "{point}");
        }
        assert_eq!(read(repo.join(STATE)), theirs, "{point}");
        assert_eq!(env.git(&repo, &["ls-files", "-u"]), "", "{point}");
        assert_eq!(
            env.git(&repo, &["diff", "--name-only"]),
            "",
            "{point}: STATE.md is staged as written"
        );
        assert_eq!(
            events(&env, &repo, "conflict-resolved").len(),
            before + 1,
            "{point}: exactly one event for the one resolution"
        );
    }
}

/// Issue 10 point 3: at turn end during a conflict, `hook stop` sends the
/// agent back once to tell the user which cycles are involved and wait,
/// never to choose a side.
#[test]
fn hook_stop_during_a_conflict_tells_the_agent_to_wait_for_the_user() {
    let (env, repo) = installed();
    let (main, side) = two_cycles_conflicting(&env, &repo);
    let mut hook = env.cmd(&repo);
    hook.args(["hook", "stop"])
        .env("TMPDIR", env.dir.path().join("tmp"));
    let out = assert_cmd::Command::from_std(hook)
        .write_stdin(r#"{"stop_hook_active": false}"#)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&main) && err.contains(&side), "{err}");
    assert!(err.contains("Stop working on the cycle now"), "{err}");
    assert!(err.contains("wait for the user's decision"), "{err}");
    assert!(err.contains("Never choose a side yourself"), "{err}");
}

/// After `git add` the stages are gone but the markers stay: `resolve` still
/// names both sides and keeps the chosen one's whole version, rebuilt from
/// git's markers.
#[test]
fn resolve_after_git_add_rebuilds_the_kept_version_from_the_markers() {
    let (env, repo) = installed();
    let (main, _side) = two_cycles_conflicting(&env, &repo);
    let ours = env.git(&repo, &["show", "main:.standards/STATE.md"]);
    env.git(&repo, &["add", STATE]);
    assert_eq!(env.git(&repo, &["ls-files", "-u"]), "");
    let a = env.run(&repo, &["cycle", "new", "--request", "x"]).code(1);
    assert!(stderr(&a).contains("conflict markers"), "{}", stderr(&a));
    let a = env
        .run(&repo, &["resolve", "--keep", "ours", "--yes"])
        .success();
    assert!(
        stdout(&a).contains(&format!("now tracks cycle {main}")),
        "{}",
        stdout(&a)
    );
    assert_eq!(read(repo.join(STATE)), ours);
    assert_eq!(env.git(&repo, &["show", ":.standards/STATE.md"]), ours);
    env.run(&repo, &["check"]).success();
}

/// During a rebase git's "ours" is the branch being rebased onto: the
/// report says so, and `resolve --keep theirs` keeps the replayed commit's cycle.
#[test]
fn during_a_rebase_the_sides_are_labelled_by_the_operation() {
    let (env, repo) = installed();
    env.git(&repo, &["checkout", "-q", "-b", "side"]);
    let side = start_cycle(&env, &repo, "Add side search");
    env.commit_all(&repo, "side: cycle started");
    env.git(&repo, &["checkout", "-q", "main"]);
    let main = start_cycle(&env, &repo, "Add main export");
    env.commit_all(&repo, "main: cycle started");
    env.git(&repo, &["checkout", "-q", "side"]);
    assert!(!env
        .git_status(&repo, &["rebase", "-q", "main"])
        .status
        .success());

    let a = env.run(&repo, &["check"]).code(1);
    let out = stdout(&a);
    assert!(out.starts_with("Merge conflict during a rebase"), "{out}");
    assert!(
        out.contains(&format!(
            "ours (HEAD, the branch being rebased onto): cycle {main}"
        )),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "theirs (REBASE_HEAD, your commit being replayed): cycle {side}"
        )),
        "{out}"
    );
    env.run(&repo, &["artifact", "init", "SCOPE"]).code(1);
    let a = env
        .run(&repo, &["resolve", "--keep", "theirs", "--yes"])
        .success();
    assert!(
        stdout(&a).contains(&format!("now tracks cycle {side}")),
        "{}",
        stdout(&a)
    );
    assert!(
        stdout(&a).contains("`git rebase --continue`"),
        "{}",
        stdout(&a)
    );
    env.run(&repo, &["check"]).success();
}

/// Nothing the user wrote is lost: a STATE.md already edited by hand out of
/// its conflict is not overwritten by `resolve`.
#[test]
fn resolve_refuses_to_overwrite_a_state_resolved_by_hand() {
    let (env, repo) = installed();
    two_cycles_conflicting(&env, &repo);
    let by_hand = env
        .git(&repo, &["show", "main:.standards/STATE.md"])
        .replace("Add main export", "Add main export, edited by hand");
    write(repo.join(STATE), &by_hand);
    let a = env
        .run(&repo, &["resolve", "--keep", "theirs", "--yes"])
        .code(1);
    assert!(
        stderr(&a).contains("looks resolved by hand"),
        "{}",
        stderr(&a)
    );
    assert_eq!(read(repo.join(STATE)), by_hand);
    assert!(events(&env, &repo, "conflict-resolved").is_empty());
}

/// On a terminal `resolve` asks; only "y" goes ahead. The terminal comes from
/// util-linux `script` (the test is skipped where it is missing).
#[test]
fn resolve_asks_on_a_terminal() {
    if std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("skipped: `script` (util-linux) is not installed");
        return;
    }
    let (env, repo) = installed();
    let (_main, side) = two_cycles_conflicting(&env, &repo);
    let before = read(repo.join(STATE));
    let on_terminal = |answer: &str| {
        let command = format!("'{}' resolve --keep theirs", Env::bin().display());
        let mut cmd = env.sealed("script", &repo);
        cmd.args(["-qec", &command, "/dev/null"]);
        assert_cmd::Command::from_std(cmd)
            .write_stdin(answer)
            .output()
            .unwrap()
    };
    let out = on_terminal("n\n");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "{said}");
    assert!(said.contains("Continue? [y/N]"), "{said}");
    assert!(said.contains("the user did not confirm"), "{said}");
    assert_eq!(read(repo.join(STATE)), before);
    let out = on_terminal("y\n");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{said}");
    assert!(said.contains(&format!("now tracks cycle {side}")), "{said}");
}

/// The other writing commands use the same guard: `reset` and `archive
/// restore` refuse mid-conflict too.
#[test]
fn reset_and_archive_restore_refuse_during_a_conflict() {
    let (env, repo) = installed();
    let (main, side) = two_cycles_conflicting(&env, &repo);
    let before = crate::common::files_below(&repo);
    for args in [
        &["reset", "--yes"][..],
        &["archive", "restore", "x", ".standards/STATE.md"],
    ] {
        let a = env.run(&repo, args).code(1);
        let err = stderr(&a);
        assert!(
            err.contains("refusing to change the workflow"),
            "{args:?}: {err}"
        );
        assert!(
            err.contains(&main) && err.contains(&side),
            "{args:?}: {err}"
        );
    }
    assert_eq!(crate::common::files_below(&repo), before);
}

/// End to end: the driver as `hooks install` configures it (`git standards
/// merge-driver ...`, found on PATH) turns the silent line merge into a conflict.
#[test]
fn the_driver_installed_by_hooks_install_stops_the_silent_merge() {
    let (env, repo) = installed();
    env.run(&repo, &["hooks", "install", "--merge-driver"])
        .success();
    assert_eq!(
        env.git(&repo, &["config", "merge.standards.driver"]).trim(),
        "git standards merge-driver %O %A %B %P"
    );
    env.commit_all(&repo, "hooks installed");
    let id = handoff_and_blocked_on(&env, &repo);
    let out = crate::hooks::git(&env, &repo, &["merge", "-q", "--no-edit", "side"]);
    assert!(!out.status.success(), "{}", crate::hooks::said(&out));
    let merged = read(repo.join(STATE));
    assert!(
        merged.starts_with(&format!("<<<<<<< ours: cycle {id} (ARCHITECTING)\n")),
        "{merged}"
    );
    let a = env.run(&repo, &["check"]).code(1);
    assert!(
        stdout(&a).contains("Merge conflict during a merge"),
        "{}",
        stdout(&a)
    );
}

/// When both sides track the same cycle (the driver's D24 conflict), `resolve`
/// says that the other side's version of its state was set aside, not that a
/// cycle stopped being tracked.
#[test]
fn resolve_of_one_cycles_two_states_sets_the_other_version_aside() {
    let (env, repo) = installed();
    configure_driver(&env, &repo);
    handoff_and_blocked_on(&env, &repo);
    let theirs = env.git(&repo, &["show", "side:.standards/STATE.md"]);
    assert!(!env
        .git_status(&repo, &["merge", "-q", "--no-edit", "side"])
        .status
        .success());
    let a = env
        .run(&repo, &["resolve", "--keep", "theirs", "--yes"])
        .success();
    let out = stdout(&a);
    assert!(out.contains("Both sides track the same cycle; the version from ours (HEAD, the branch being merged into) (ARCHITECTING) was set aside."), "{out}");
    assert!(!out.contains("stopped being tracked"), "{out}");
    assert_eq!(read(repo.join(STATE)), theirs);
    env.run(&repo, &["check"]).success();
}

/// Issue 29 item 4: a conflict in a `.standards/` file other than STATE.md
/// (here CONTEXT.md, while STATE.md merges cleanly) describes each side from
/// that side's own STATE.md: its commit's cycle, state and request, never
/// "no active cycle" while a cycle is active.
#[test]
fn a_conflict_outside_state_describes_each_side_from_its_own_state() {
    let (env, repo) = installed();
    let id = start_cycle(&env, &repo, "Add search");
    write(
        repo.join(".standards/CONTEXT.md"),
        "# Project Context\n\nbase\n",
    );
    env.commit_all(&repo, "cycle started");
    env.git(&repo, &["checkout", "-q", "-b", "side"]);
    write(
        repo.join(".standards/CONTEXT.md"),
        "# Project Context\n\nside\n",
    );
    edit_state(&repo, &[("BlockedOn", "Which database backs the search?")]);
    env.commit_all(&repo, "side: context and a question");
    env.git(&repo, &["checkout", "-q", "main"]);
    write(
        repo.join(".standards/CONTEXT.md"),
        "# Project Context\n\nmain\n",
    );
    edit_state(
        &repo,
        &[
            ("WorkflowState", "ARCHITECTING"),
            ("Kind", "FORWARD"),
            ("From", "SCOPING"),
        ],
    );
    env.commit_all(&repo, "main: context and a handoff");
    let merge = env.git_status(&repo, &["merge", "-q", "side"]);
    assert!(!merge.status.success(), "CONTEXT.md must conflict");
    // STATE.md merged cleanly: only CONTEXT.md is unmerged.
    let unmerged = env.git(&repo, &["diff", "--name-only", "--diff-filter=U"]);
    assert_eq!(unmerged.trim(), ".standards/CONTEXT.md");

    let a = env.run(&repo, &["check"]).code(1);
    let out = said(&a);
    assert!(!out.contains("no active cycle"), "{out}");
    assert!(!out.contains("no WorkflowState"), "{out}");
    assert!(
        out.contains(&format!(
            "ours (HEAD, the branch being merged into): cycle {id}, WorkflowState ARCHITECTING, request \"Add search\""
        )),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "theirs (MERGE_HEAD, the branch being merged): cycle {id}, WorkflowState SCOPING, request \"Add search\""
        )),
        "{out}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&env.run(&repo, &["check", "--json"]).code(1))).unwrap();
    let file = &json["conflict"]["files"][0];
    assert_eq!(file["path"], ".standards/CONTEXT.md");
    assert_eq!(file["ours"]["workflowState"], "ARCHITECTING");
    assert_eq!(file["theirs"]["workflowState"], "SCOPING");
    assert_eq!(file["theirs"]["cycle"], id.as_str());
}

/// Issue 25, `--json` on every command: `resolve --json` never asks; without
/// --yes it refuses as one JSON object (exit 1, nothing written), with --yes
/// it reports the kept and dropped cycles and the dropped cycle's records.
#[test]
fn resolve_json_reports_the_refusal_and_the_resolution() {
    let parse = |a: &assert_cmd::assert::Assert| -> serde_json::Value {
        serde_json::from_str(&stdout(a)).unwrap_or_else(|e| panic!("{e}: {}", stdout(a)))
    };
    let (env, repo) = installed();
    let (main, side) = two_cycles_conflicting(&env, &repo);
    let theirs = env.git(&repo, &["show", "side:.standards/STATE.md"]);
    let before = read(repo.join(STATE));

    let v = parse(
        &env.run(&repo, &["resolve", "--keep", "theirs", "--json"])
            .code(1),
    );
    assert_eq!(v["ok"], false);
    assert!(v["error"].as_str().unwrap().contains("confirmation"), "{v}");
    assert!(
        v["hint"]
            .as_str()
            .unwrap()
            .contains("git standards resolve --keep theirs --yes"),
        "{v}"
    );
    assert_eq!(read(repo.join(STATE)), before, "nothing written");

    let v = parse(
        &env.run(&repo, &["resolve", "--keep", "theirs", "--yes", "--json"])
            .success(),
    );
    assert_eq!(v["ok"], true, "{v}");
    assert_eq!(v["command"], "resolve");
    assert_eq!(v["keep"], "theirs");
    assert_eq!(v["kept"], side.as_str());
    assert_eq!(v["dropped"], main.as_str());
    assert!(
        v["records"]
            .as_array()
            .unwrap()
            .contains(&serde_json::json!(format!(
                ".standards/docs/scope/{main}.md"
            ))),
        "{v}"
    );
    assert_eq!(v["staged"], true);
    assert_eq!(read(repo.join(STATE)), theirs);
    let staged = env.git(
        &repo,
        &["diff", "--cached", "--name-only", "--diff-filter=U"],
    );
    assert!(!staged.contains(".standards/STATE.md"), "{staged}");
}
