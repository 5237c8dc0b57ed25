//! The transition commands on real repositories: the protocol's recovery
//! examples replayed command by command with STATE.md compared with a fixture
//! after each step (`UPDATE_TRANSITIONS=1` rewrites the fixtures), the
//! refusals that need a repository (merge conflicts, owned problems, the
//! check gate), the next-role invocation, and `status`'s Next block.

use std::path::{Path, PathBuf};

use crate::common::{read, set_field, stderr, stdout, write, Env};

const STATE: &str = ".standards/STATE.md";

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/transitions")
}

pub(crate) fn copy_dir(from: &Path, to: &Path) {
    for e in std::fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        let target = to.join(p.file_name().unwrap());
        if p.is_dir() {
            std::fs::create_dir_all(&target).unwrap();
            copy_dir(&p, &target);
        } else {
            std::fs::copy(&p, &target).unwrap();
        }
    }
}

/// A brownfield repository holding the F-STD cycle (scope, design, plan and
/// report of `add-user-search`), with STATE.md edited by `changes`, committed.
pub(crate) fn f_std(changes: &[(&str, &str)]) -> (Env, PathBuf) {
    let (env, repo) = Env::repo();
    write(repo.join("app.py"), "print(\"hi\")\n");
    env.run(&repo, &["install"]).success();
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/check/bases/f-std"),
        &repo,
    );
    let mut s = read(repo.join(STATE));
    // A state moved by `changes` without its own handoff gets the forward
    // handoff that reaches it on the brownfield route, so the set-up is a
    // state the protocol allows (PR-001, PR-006).
    let moved_to = changes.iter().find(|(n, _)| *n == "WorkflowState");
    if let (Some((_, ws)), false) = (moved_to, changes.iter().any(|(n, _)| *n == "Kind")) {
        let from = match *ws {
            "SCOPING" => Some("AUDITING"),
            "ARCHITECTING" => Some("SCOPING"),
            "DEVELOPING" => Some("ARCHITECTING"),
            "TESTING" => Some("DEVELOPING"),
            "REVIEWING_IMPLEMENTATION" => Some("TESTING"),
            "DOCUMENTING" => Some("REVIEWING_IMPLEMENTATION"),
            "REVIEWING_FINAL" => Some("DOCUMENTING"),
            "SYNCHRONIZING" => Some("REVIEWING_FINAL"),
            "AWAITING_USER_SIGNOFF" => Some("SYNCHRONIZING"),
            _ => None,
        };
        match from {
            Some(from) => {
                s = set_field(&s, "Kind", "FORWARD");
                s = set_field(&s, "From", from);
            }
            None => {
                s = set_field(&s, "Kind", "INITIAL");
                s = set_field(&s, "From", "NONE");
            }
        }
    }
    for (n, v) in changes {
        s = set_field(&s, n, v);
    }
    write(repo.join(STATE), s);
    env.commit_all(&repo, "F-STD");
    env.run(&repo, &["check"]).success();
    (env, repo)
}

/// Runs each step, compares STATE.md with `fixtures/transitions/<name>/<n>.md`
/// and checks the state it lands in; `check` passes after every step.
fn replay(name: &str, env: &Env, repo: &Path, steps: &[(&[&str], &str)]) {
    let dir = fixtures().join(name);
    let update = std::env::var_os("UPDATE_TRANSITIONS").is_some_and(|v| v == "1");
    for (i, (args, lands_in)) in steps.iter().enumerate() {
        let a = env.run(repo, args);
        let out = a.get_output().clone();
        assert!(
            out.status.success(),
            "{name} step {} `{}` failed:\n{}",
            i + 1,
            args.join(" "),
            String::from_utf8_lossy(&out.stderr)
        );
        let state = read(repo.join(STATE));
        let fixture = dir.join(format!("{:02}.md", i + 1));
        if update {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&fixture, &state).unwrap();
        }
        let expected = std::fs::read_to_string(&fixture)
            .unwrap_or_else(|_| panic!("missing fixture {}", fixture.display()));
        assert_eq!(
            state,
            expected,
            "{name} step {} `{}`",
            i + 1,
            args.join(" ")
        );
        assert!(
            state.contains(&format!("`WorkflowState`: `{lands_in}`")),
            "{name} step {}: expected {lands_in}",
            i + 1
        );
        let c = env.run(repo, &["check"]);
        assert!(
            c.get_output().status.success(),
            "{name} step {}: check fails:\n{}",
            i + 1,
            stdout(&c)
        );
        env.commit_all(repo, &format!("{name} step {}", i + 1));
    }
}

#[test]
fn recovery_example_architecture_defect_discovered_during_testing() {
    let (env, repo) = f_std(&[("WorkflowState", "TESTING")]);
    replay(
        "architecture-defect-during-testing",
        &env,
        &repo,
        &[
            (
                &[
                    "fail",
                    "--type",
                    "architecture",
                    "--reason",
                    "Retry behavior is not defined by the current technical design.",
                ],
                "ARCHITECTING",
            ),
            (&["resume", "--rerun-through", "developing"], "DEVELOPING"),
            (&["resume"], "TESTING"),
        ],
    );
}

#[test]
fn recovery_example_scoping_defect_discovered_during_implementation_review() {
    let (env, repo) = f_std(&[]);
    replay(
        "scoping-defect-during-implementation-review",
        &env,
        &repo,
        &[
            (
                &[
                    "fail",
                    "--type",
                    "SCOPING",
                    "--reason",
                    "AC-001 does not say whether search is case-sensitive.",
                ],
                "SCOPING",
            ),
            (&["resume", "--rerun-through", "Testing"], "ARCHITECTING"),
            (
                &["handoff", "--to", "developing", "--reason", "Design rerun."],
                "DEVELOPING",
            ),
            (
                &[
                    "handoff",
                    "--to",
                    "testing",
                    "--reason",
                    "Implementation rerun.",
                ],
                "TESTING",
            ),
            (&["resume"], "REVIEWING_IMPLEMENTATION"),
        ],
    );
}

#[test]
fn recovery_example_invalid_project_context_discovered_during_architecture() {
    let (env, repo) = f_std(&[("WorkflowState", "ARCHITECTING")]);
    replay(
        "invalid-context-during-architecture",
        &env,
        &repo,
        &[
            (
                &[
                    "fail",
                    "--type",
                    "project-context",
                    "--reason",
                    "CONTEXT.md does not describe the search index.",
                ],
                "AUDITING",
            ),
            (&["resume"], "ARCHITECTING"),
        ],
    );
}

#[test]
fn recovery_example_nested_recovery() {
    let (env, repo) = f_std(&[("WorkflowState", "TESTING")]);
    replay(
        "nested-recovery",
        &env,
        &repo,
        &[
            (
                &[
                    "fail",
                    "--type",
                    "PROJECT_CONTEXT",
                    "--reason",
                    "The search index is not in the project context.",
                ],
                "AUDITING",
            ),
            (
                &[
                    "rework",
                    "--type",
                    "scoping",
                    "--request",
                    "Add user search by name and email",
                ],
                "SCOPING",
            ),
            (&["resume", "--rerun-through", "DEVELOPING"], "ARCHITECTING"),
            (
                &["handoff", "--to", "DEVELOPING", "--reason", "Design rerun."],
                "DEVELOPING",
            ),
            (&["resume"], "AUDITING"),
            (&["resume"], "TESTING"),
        ],
    );
}

#[test]
fn the_next_role_invocation_is_printed_for_both_clients() {
    let (env, repo) = f_std(&[("WorkflowState", "TESTING")]);
    let a = env
        .run(
            &repo,
            &[
                "fail",
                "--type",
                "ARCHITECTURE",
                "--reason",
                "Retry is undefined.",
            ],
        )
        .success();
    let out = stdout(&a);
    assert!(out.starts_with("Next role: Architect\n"), "{out}");
    assert!(out.contains("Codex:       $architect Continue the active recovery"));
    assert!(out.contains("Claude Code: /architect Continue the active recovery"));
    assert!(
        stderr(&a).contains("pushed recovery frame 1"),
        "{}",
        stderr(&a)
    );
    // A same-role move prints no invocation; the user's options at sign-off.
    let (env, repo) = f_std(&[("WorkflowState", "TESTING")]);
    let a = env
        .run(
            &repo,
            &[
                "fail",
                "--type",
                "VERIFICATION",
                "--reason",
                "A test is flaky.",
            ],
        )
        .success();
    assert_eq!(stdout(&a), "");
}

#[test]
fn every_move_is_refused_during_a_merge_conflict() {
    let (env, repo) = f_std(&[("WorkflowState", "TESTING")]);
    let s = read(repo.join(STATE));
    write(
        repo.join(STATE),
        format!("<<<<<<< ours\n{s}=======\n{s}>>>>>>> theirs\n"),
    );
    let before = read(repo.join(STATE));
    for args in [
        &[
            "handoff",
            "--to",
            "REVIEWING_IMPLEMENTATION",
            "--reason",
            "x",
        ][..],
        &["fail", "--type", "ARCHITECTURE", "--reason", "x"],
        &["signoff"],
        &["cancel"],
        &["block", "--on", "x"],
        &["start", "--request", "x"],
    ] {
        let a = env.run(&repo, args).code(1);
        assert!(
            stderr(&a).contains("unresolved merge conflicts"),
            "{args:?}: {}",
            stderr(&a)
        );
        assert_eq!(read(repo.join(STATE)), before, "{args:?} changed STATE.md");
    }
}

#[test]
fn problems_in_owned_files_and_check_rejections_are_refused() {
    // The Tester's report loses its acceptance row: check reports it on a
    // Tester-owned file, so the Tester's forward handoff is refused.
    let (env, repo) = f_std(&[("WorkflowState", "TESTING")]);
    let report =
        repo.join(".standards/docs/verification/add-user-search-20260927T190146Z-7bef0f04.md");
    let text = read(&report);
    write(&report, text.replace("AC-001", "AC-009"));
    let before = read(repo.join(STATE));
    let a = env
        .run(
            &repo,
            &[
                "handoff",
                "--to",
                "reviewing_implementation",
                "--reason",
                "Verified.",
            ],
        )
        .code(1);
    let err = stderr(&a);
    assert!(err.contains("files the Tester owns"), "{err}");
    assert!(err.contains("Runtime Tools and Hooks"), "{err}");
    assert_eq!(read(repo.join(STATE)), before);

    // A fresh greenfield cycle cannot leave SCOPING before the scope path is
    // recorded: check would reject the new state (CP-007).
    let (env, repo) = Env::repo();
    env.run(&repo, &["install"]).success();
    env.commit_all(&repo, "install");
    env.run(&repo, &["start", "--request", "Build the greeting app"])
        .success();
    let before = read(repo.join(STATE));
    let a = env
        .run(
            &repo,
            &["handoff", "--to", "ARCHITECTING", "--reason", "Scope done."],
        )
        .code(1);
    assert!(stderr(&a).contains("CP-007"), "{}", stderr(&a));
    assert_eq!(read(repo.join(STATE)), before);
    // Values are checked before anything is read.
    let a = env
        .run(&repo, &["handoff", "--to", "DONE", "--reason", "x"])
        .code(2);
    assert!(
        stderr(&a).contains("not a valid workflow state"),
        "{}",
        stderr(&a)
    );
}

#[test]
fn start_prints_the_entry_role_and_status_shows_the_next_block() {
    let (env, repo) = Env::repo();
    env.run(&repo, &["install"]).success();
    env.commit_all(&repo, "install");
    let a = env
        .run(&repo, &["start", "--request", "Build the greeting app"])
        .success();
    assert!(
        stdout(&a).starts_with("Next role: Scoper\n"),
        "{}",
        stdout(&a)
    );
    let s = read(repo.join(STATE));
    assert!(
        s.contains("`WorkflowState`: `SCOPING` `CycleMode`: `STANDARD`"),
        "{s}"
    );
    assert!(s.contains("`CompletionPolicy`: `FULL_DELIVERABLE`"));
    assert!(s.contains("`Kind`: `INITIAL`"));
    let st = stdout(&env.run(&repo, &["status"]).success());
    assert!(st.contains("\nNext\n"), "{st}");
    assert!(st.contains("$scoper Continue the active workflow"), "{st}");
    assert!(st.contains("/scoper Continue the active workflow"), "{st}");
    let v: serde_json::Value =
        serde_json::from_str(&stdout(&env.run(&repo, &["status", "--json"]).success())).unwrap();
    assert_eq!(v["next"]["owner"], "Scoper");
    assert_eq!(v["next"]["invocation"]["skill"], "scoper");
    assert_eq!(v["next"]["blockedBy"], serde_json::json!([]));
    // A blocking question shows in the Next block.
    env.run(&repo, &["block", "--on", "Which greeting?"])
        .success();
    let v: serde_json::Value =
        serde_json::from_str(&stdout(&env.run(&repo, &["status", "--json"]).success())).unwrap();
    assert!(v["next"]["blockedBy"][0]
        .as_str()
        .unwrap()
        .contains("Which greeting?"));
    // GREENFIELD cancellation is a reset: previewed without --yes, nothing changes.
    let before = read(repo.join(STATE));
    let a = env.run(&repo, &["cancel"]).code(1);
    assert!(
        stderr(&a).contains("Greenfield Bootstrap Cancellation"),
        "{}",
        stderr(&a)
    );
    assert!(
        stderr(&a).contains("git standards cancel --yes"),
        "{}",
        stderr(&a)
    );
    assert!(
        stdout(&a).contains("Would reset STANDARDS"),
        "{}",
        stdout(&a)
    );
    assert_eq!(read(repo.join(STATE)), before);
    // With the user's approval it runs the reset: a fresh greenfield state,
    // the old tree archived, the cancellation audited.
    env.run(&repo, &["cancel", "--yes"]).success();
    assert_eq!(
        read(repo.join(STATE)),
        standards_core::model::state::fresh_template(
            standards_core::model::vocab::ProjectMode::Greenfield
        )
    );
    assert!(env
        .git(&repo, &["for-each-ref", "refs/standards/archive/"])
        .contains("build-the-greeting-app-"));
    let log = events(&env, &repo);
    assert!(log.iter().any(|e| e["event"] == "cancelled"), "{log:#?}");
}

/// The events `git standards log --json` prints, parsed.
fn events(env: &Env, repo: &Path) -> Vec<serde_json::Value> {
    stdout(&env.run(repo, &["log", "--json"]).success())
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn every_transition_appends_one_audit_event_with_the_state_before_and_after() {
    let (env, repo) = f_std(&[("WorkflowState", "TESTING")]);
    let before = events(&env, &repo).len();
    env.run(
        &repo,
        &[
            "fail",
            "--type",
            "ARCHITECTURE",
            "--reason",
            "Retry is undefined.",
        ],
    )
    .success();
    env.run(&repo, &["resume"]).success();
    // A refused move appends nothing.
    env.run(&repo, &["signoff"]).code(1);
    let all = events(&env, &repo);
    assert_eq!(all.len(), before + 2, "{all:#?}");
    let failed = &all[before];
    assert_eq!(failed["event"], "failed");
    assert_eq!(failed["state"]["before"], "TESTING");
    assert_eq!(failed["state"]["after"], "ARCHITECTING");
    assert_eq!(failed["cycle"], "add-user-search-20260927T190146Z-7bef0f04");
    assert_eq!(failed["handoff"]["kind"], "FAILURE");
    let resumed = &all[before + 1];
    assert_eq!(resumed["event"], "resumed");
    assert_eq!(resumed["state"]["before"], "ARCHITECTING");
    assert_eq!(resumed["state"]["after"], "TESTING");
    assert_eq!(resumed["resume_at"], "TESTING");
}

#[test]
fn user_decisions_are_refused_when_their_audit_event_cannot_be_written_first() {
    let (env, repo) = f_std(&[("WorkflowState", "TESTING")]);
    // A held lock on the notes ref makes every append fail.
    let lock = repo.join(".git/refs/notes/standards.lock");
    std::fs::create_dir_all(lock.parent().unwrap()).unwrap();
    write(&lock, "");
    let before = read(repo.join(STATE));
    let a = env
        .run(&repo, &["policy", "implementation-reviewed"])
        .code(1);
    assert!(
        stderr(&a).contains("audit event could not be recorded"),
        "{}",
        stderr(&a)
    );
    assert_eq!(read(repo.join(STATE)), before, "nothing was changed");
    // Any other move is journalled with its event (issue 21): it is undone
    // and refused too, never reported done with its event lost.
    let a = env.run(&repo, &["block", "--on", "Which index?"]).code(1);
    assert!(
        stderr(&a).contains("audit event could not be recorded"),
        "{}",
        stderr(&a)
    );
    assert!(stderr(&a).contains("nothing was changed"), "{}", stderr(&a));
    assert_eq!(read(repo.join(STATE)), before, "nothing was changed");
    assert!(!repo.join(".git/standards/journal").exists());
}

#[test]
fn a_crash_at_any_write_step_leaves_the_old_or_the_new_state() {
    for point in git_standards::commands::transition::FAILPOINTS {
        let (env, repo) = f_std(&[("WorkflowState", "TESTING")]);
        let before = read(repo.join(STATE));
        let out = env
            .cmd(&repo)
            .args(["fail", "--type", "ARCHITECTURE", "--reason", "Retry."])
            .env("GIT_STANDARDS_FAILPOINT", point)
            .output()
            .unwrap();
        assert!(
            !out.status.success(),
            "{point}: the process was not stopped"
        );
        let after = read(repo.join(STATE));
        if point.ends_with("before-write") {
            assert_eq!(after, before, "{point}");
        } else {
            assert!(
                after.contains("`WorkflowState`: `ARCHITECTING`") && after.contains("### Frame 1"),
                "{point}: a torn STATE.md:\n{after}"
            );
        }
        env.run(&repo, &["check"]).success();
    }
}

#[test]
fn moves_are_refused_while_an_interrupted_write_awaits_recover() {
    let (env, repo) = f_std(&[("WorkflowState", "TESTING")]);
    let out = env
        .cmd(&repo)
        .args(["reset", "--yes"])
        .env("GIT_STANDARDS_FAILPOINT", "reset:step-applied")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let before = read(repo.join(STATE));
    for args in [
        &["block", "--on", "x"][..],
        &["cancel"],
        &["fail", "--type", "ARCHITECTURE", "--reason", "x"],
    ] {
        let a = env.run(&repo, args).code(1);
        assert!(
            stderr(&a).contains("git standards recover"),
            "{args:?}: {}",
            stderr(&a)
        );
        assert_eq!(read(repo.join(STATE)), before, "{args:?}");
    }
}

/// The expedited sign-off fixture (SC-FXT-002) in a brownfield repository,
/// committed at `AWAITING_USER_SIGNOFF`.
fn expedited_at_signoff() -> (Env, PathBuf) {
    let (env, repo) = Env::repo();
    write(repo.join("app.py"), "print(\"hi\")\n");
    env.run(&repo, &["install"]).success();
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/check/cases/valid-expedited-signoff-fixture/tree"),
        &repo,
    );
    env.commit_all(&repo, "at sign-off");
    env.run(&repo, &["check"]).success();
    (env, repo)
}

#[test]
fn expedited_rework_that_needs_the_scoper_promotes_with_the_changed_request() {
    // Issue 23: Expedited Promotion (steps 1-3): the user's rework at
    // readiness authorizes the promotion, and the request keeps its change.
    let (env, repo) = expedited_at_signoff();
    replay(
        "expedited-rework-promotes",
        &env,
        &repo,
        &[(
            &[
                "rework",
                "--type",
                "scoping",
                "--request",
                "Fix the date format and let users pick their locale",
            ],
            "AUDITING",
        )],
    );
}

#[test]
fn incremental_cadence_in_an_expedited_cycle_promotes_and_stays_pending() {
    // Issue 23: Switch verification cadence (step 1).
    let (env, repo) = expedited_at_signoff();
    replay(
        "expedited-incremental-promotes",
        &env,
        &repo,
        &[(&["cadence", "incremental"], "AUDITING")],
    );
    let s = read(repo.join(STATE));
    assert!(
        s.contains("`PendingVerificationCadence`: `INCREMENTAL`"),
        "{s}"
    );
    assert!(s.contains("`Kind`: `PROMOTE`"), "{s}");
}
