//! Issue 23: protocol gates that cannot be walked around. Each test builds
//! the situation an agent could reach on a real repository and drives the
//! binary: an empty cycle is refused at the earliest handoff whose gate it
//! breaks, sign-off re-checks the completion contract, a problem that
//! already exists is carried through no gate it breaks, a complete review
//! with an open finding is not handed forward, the first incremental
//! checkpoint is possible, and a laundered cycle fails `check` and `verify`.

use std::path::{Path, PathBuf};

use crate::common::{read, set_field, stderr, write, Env};
use crate::transitions::copy_dir;

const STATE: &str = ".standards/STATE.md";
const ID: &str = "add-user-search-20260927T190146Z-7bef0f04";
const GREEN_ID: &str = "build-the-greeting-app-full-deliverable-20260927T190146Z-5a6b7c8d";

/// An installed repository holding the check base `base`, with STATE.md
/// fields set by `changes`, committed.
fn project(base: &str, greenfield: bool, changes: &[(&str, &str)]) -> (Env, PathBuf) {
    let (env, repo) = Env::repo();
    if !greenfield {
        write(repo.join("app.py"), "print(\"hi\")\n");
    }
    env.run(&repo, &["install"]).success();
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/check/bases")
            .join(base),
        &repo,
    );
    let mut s = read(repo.join(STATE));
    for (n, v) in changes {
        s = set_field(&s, n, v);
    }
    write(repo.join(STATE), s);
    env.commit_all(&repo, base);
    (env, repo)
}

fn edit(repo: &Path, rel: &str, f: impl FnOnce(String) -> String) {
    let text = read(repo.join(rel));
    write(repo.join(rel), f(text));
}

/// Runs a move that must be refused (exit 1) and leave STATE.md as it was;
/// returns stderr.
fn refused(env: &Env, repo: &Path, args: &[&str]) -> String {
    let before = read(repo.join(STATE));
    let a = env.run(repo, args).code(1);
    assert_eq!(read(repo.join(STATE)), before, "`{}` wrote", args.join(" "));
    stderr(&a)
}

#[test]
fn an_empty_scope_is_refused_at_the_scopers_handoff() {
    // Item 1: a STANDARD scope with no acceptance condition.
    let (env, repo) = project(
        "f-std",
        false,
        &[
            ("WorkflowState", "SCOPING"),
            ("Kind", "FORWARD"),
            ("From", "AUDITING"),
        ],
    );
    let scope = format!(".standards/docs/scope/{ID}.md");
    edit(&repo, &scope, |t| {
        let cut = t.find("# Search").unwrap();
        format!("{}# Search\n\nUsers can search.\n", &t[..cut])
    });
    env.commit_all(&repo, "empty scope");
    let err = refused(
        &env,
        &repo,
        &["handoff", "--to", "ARCHITECTING", "--reason", "Scoped."],
    );
    assert!(err.contains("PR-043"), "{err}");
    assert!(err.contains("git standards check"), "{err}");
}

#[test]
fn a_complete_plan_without_steps_is_refused_at_the_developers_handoff() {
    // Item 1: the plan says COMPLETE and has no DEV-NNN step.
    let (env, repo) = project(
        "f-std",
        false,
        &[
            ("WorkflowState", "DEVELOPING"),
            ("Kind", "FORWARD"),
            ("From", "ARCHITECTING"),
        ],
    );
    let plan = format!(".standards/docs/development/{ID}.md");
    edit(&repo, &plan, |t| {
        t[..t.find("### DEV-001").unwrap()].to_string()
    });
    let err = refused(
        &env,
        &repo,
        &["handoff", "--to", "TESTING", "--reason", "Implemented."],
    );
    assert!(err.contains("PR-044"), "{err}");
}

#[test]
fn a_complete_review_with_an_open_finding_is_not_handed_forward() {
    // Item 5: the Reviewer's gate says no material finding is open.
    let (env, repo) = project("f-std", false, &[]);
    let review = format!(".standards/docs/reviews/{ID}/implementation.md");
    std::fs::create_dir_all(repo.join(&review).parent().unwrap()).unwrap();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/check/cases/PR-045-complete-review-with-open-finding/tree")
            .join(&review),
        repo.join(&review),
    )
    .unwrap();
    let err = refused(
        &env,
        &repo,
        &["handoff", "--to", "DOCUMENTING", "--reason", "Reviewed."],
    );
    assert!(err.contains("PR-045"), "{err}");
    // Resolving the finding passes the gate.
    edit(&repo, &review, |t| {
        t.replace("`Status`: `OPEN`", "`Status`: `RESOLVED`")
    });
    env.run(
        &repo,
        &["handoff", "--to", "DOCUMENTING", "--reason", "Reviewed."],
    )
    .success();
}

#[test]
fn signoff_rechecks_the_completion_contract() {
    // Item 3: the implementation-reviewed closure is no longer ELIGIBLE.
    let (env, repo) = project("f-ir", false, &[]);
    env.run(&repo, &["check"]).success();
    let review = format!(".standards/docs/reviews/{ID}/implementation.md");
    edit(&repo, &review, |t| {
        t.replace("`Eligibility`: `ELIGIBLE`", "`Eligibility`: `INELIGIBLE`")
    });
    env.run(&repo, &["check"]).code(1);
    let err = refused(&env, &repo, &["signoff"]);
    assert!(err.contains("Sign off"), "{err}");
    assert!(err.contains(&review), "{err}");

    // The full-deliverable cycle: the synchronization record is reopened.
    let (env, repo) = project("f-life-green", true, &[]);
    env.run(&repo, &["check"]).success();
    let sync = format!(".standards/docs/synchronization/{GREEN_ID}.md");
    edit(&repo, &sync, |t| {
        t.replacen("`Status`: `COMPLETE`", "`Status`: `IN_PROGRESS`", 1)
    });
    env.run(&repo, &["check"]).code(1);
    let err = refused(&env, &repo, &["signoff"]);
    assert!(err.contains(&sync), "{err}");
    // Restored, the sign-off goes through and check passes after it.
    edit(&repo, &sync, |t| {
        t.replacen("`Status`: `IN_PROGRESS`", "`Status`: `COMPLETE`", 1)
    });
    env.run(&repo, &["signoff"]).success();
    env.run(&repo, &["check"]).success();
}

#[test]
fn a_problem_that_already_exists_is_carried_through_no_gate() {
    // Item 4: the verification report was reopened before the Synchronizer's
    // handoff to readiness; the problem exists before the move, and the
    // handoff is refused all the same.
    let (env, repo) = project(
        "f-life-green",
        true,
        &[
            ("WorkflowState", "SYNCHRONIZING"),
            ("Kind", "FORWARD"),
            ("From", "REVIEWING_FINAL"),
        ],
    );
    env.run(&repo, &["check"]).success();
    let report = format!(".standards/docs/verification/{GREEN_ID}.md");
    edit(&repo, &report, |t| set_field(&t, "Status", "IN_PROGRESS"));
    env.commit_all(&repo, "the report is reopened");
    env.run(&repo, &["check"]).code(1);
    let err = refused(
        &env,
        &repo,
        &[
            "handoff",
            "--to",
            "AWAITING_USER_SIGNOFF",
            "--reason",
            "Reconciled.",
        ],
    );
    assert!(err.contains(&report), "{err}");
    assert!(err.contains("git standards fail"), "{err}");
}

#[test]
fn the_first_incremental_checkpoint_is_possible() {
    // Item 6: the Tester writes the increment's assessment after the
    // checkpoint; the Developer's handoff does not wait for it.
    let (env, repo) = project(
        "f-inc",
        false,
        &[
            ("WorkflowState", "DEVELOPING"),
            ("Kind", "FORWARD"),
            ("From", "ARCHITECTING"),
        ],
    );
    std::fs::remove_file(repo.join(format!(".standards/docs/verification/{ID}.md"))).unwrap();
    env.commit_all(&repo, "before the first increment");
    env.run(&repo, &["check"]).success();
    env.run(
        &repo,
        &[
            "handoff",
            "--to",
            "TESTING",
            "--checkpoint",
            "--reason",
            "Increment 1 is ready for assessment.",
        ],
    )
    .success();
    assert!(read(repo.join(STATE)).contains("`WorkflowState`: `TESTING`"));
    // What is left is the Tester's own work, in the Tester's own file.
    let a = env.run(&repo, &["check"]).code(1);
    let out = crate::common::stdout(&a);
    assert!(out.contains("VF-013"), "{out}");
}

#[test]
fn a_laundered_cycle_fails_check_and_verify() {
    // Item 2: one hand edit of STATE.md to the end of the route.
    let (env, repo) = project("f-std", false, &[]);
    let laundered = Path::new(env!("CARGO_MANIFEST_DIR")).join(
        "fixtures/check/cases/PR-046-signed-off-straight-from-implementation-review/tree/.standards/STATE.md",
    );
    // The move that would make it is refused: sign-off needs readiness.
    edit(&repo, STATE, |t| {
        let t = set_field(&t, "WorkflowState", "AWAITING_USER_SIGNOFF");
        set_field(&t, "From", "SYNCHRONIZING")
    });
    let err = refused(&env, &repo, &["signoff"]);
    assert!(err.contains("PR-046") || err.contains("CP-"), "{err}");
    // Written by hand and committed, check and verify both report the route.
    write(repo.join(STATE), read(&laundered));
    let a = env.run(&repo, &["check"]).code(1);
    assert!(crate::common::stdout(&a).contains("PR-046"));
    env.commit_all(&repo, "signed off");
    let a = env.run(&repo, &["verify", "HEAD~1..HEAD"]).code(1);
    let out = crate::common::stdout(&a);
    assert!(out.contains("PR-046"), "{out}");
}

/// The value of the first `name` field of STATE.md.
fn state_field(repo: &Path, name: &str) -> String {
    let s = read(repo.join(STATE));
    let found = standards_core::model::fields::scan(&s);
    standards_core::model::fields::first(&found, name)
        .unwrap()
        .value
        .clone()
}

/// An installed brownfield repository with an EXPEDITED cycle started.
fn expedited() -> (Env, PathBuf) {
    let (env, repo) = Env::repo();
    write(repo.join("app.py"), "print(\"hi\")\n");
    env.run(&repo, &["install"]).success();
    env.commit_all(&repo, "install");
    env.run(
        &repo,
        &[
            "start",
            "--request",
            "Fix the login timeout",
            "--mode",
            "expedited",
        ],
    )
    .success();
    (env, repo)
}

#[test]
fn an_expedited_cycle_is_promoted_where_the_protocol_promotes_it() {
    // Item 7: `cadence incremental` promotes and keeps the request pending.
    let (env, repo) = expedited();
    env.run(&repo, &["cadence", "incremental"]).success();
    assert_eq!(state_field(&repo, "CycleMode"), "STANDARD");
    assert_eq!(state_field(&repo, "WorkflowState"), "AUDITING");
    assert_eq!(state_field(&repo, "Kind"), "PROMOTE");
    assert_eq!(
        state_field(&repo, "PendingVerificationCadence"),
        "INCREMENTAL"
    );
    env.run(&repo, &["check"]).success();

    // A rework that needs the Scoper promotes and records the changed request.
    let (env, repo) = expedited();
    env.run(
        &repo,
        &[
            "rework",
            "--type",
            "SCOPING",
            "--request",
            "Fix the login timeout and let users stay signed in",
        ],
    )
    .success();
    assert_eq!(state_field(&repo, "CycleMode"), "STANDARD");
    assert_eq!(state_field(&repo, "WorkflowState"), "AUDITING");
    assert_eq!(
        state_field(&repo, "Request"),
        "Fix the login timeout and let users stay signed in"
    );
    env.run(&repo, &["check"]).success();
}

#[test]
fn a_documentation_cycle_without_project_context_does_not_reach_the_documenter() {
    // Item 4: `.standards/CONTEXT.md` is missing before ARCHITECTING ->
    // DOCUMENTING; the problem exists before the move and still refuses it.
    let (env, repo) = project(
        "f-doc",
        false,
        &[
            ("WorkflowState", "ARCHITECTING"),
            ("Kind", "FORWARD"),
            ("From", "SCOPING"),
        ],
    );
    let doc_id = "document-the-existing-greeting-command-20260927T190146Z-3c9a1d2e";
    for rel in [
        format!(".standards/docs/documentation/{doc_id}.md"),
        format!(".standards/docs/reviews/{doc_id}/final-deliverable.md"),
        format!(".standards/docs/synchronization/{doc_id}.md"),
        ".standards/CONTEXT.md".to_string(),
    ] {
        std::fs::remove_file(repo.join(rel)).unwrap();
    }
    env.commit_all(&repo, "no project context");
    let a = env.run(&repo, &["check"]).code(1);
    assert!(crate::common::stdout(&a).contains(".standards/CONTEXT.md"));
    let err = refused(
        &env,
        &repo,
        &["handoff", "--to", "DOCUMENTING", "--reason", "Designed."],
    );
    assert!(err.contains(".standards/CONTEXT.md"), "{err}");
}

#[test]
fn a_question_can_be_open_at_signoff_readiness() {
    // Item 7: the user may be asked at AWAITING_USER_SIGNOFF; sign-off waits
    // for the answer.
    let (env, repo) = project("f-ir", false, &[]);
    env.run(
        &repo,
        &["block", "--on", "Should the CSV export ship in this cycle?"],
    )
    .success();
    env.run(&repo, &["check"]).success();
    env.commit_all(&repo, "asked at readiness");
    env.run(&repo, &["check"]).success();
    refused(&env, &repo, &["signoff"]);
    env.run(&repo, &["unblock"]).success();
    env.run(&repo, &["signoff"]).success();
    env.run(&repo, &["check"]).success();
    // The reference checker reports every question at readiness.
    let (env, repo) = project("f-ir", false, &[]);
    env.run(
        &repo,
        &["block", "--on", "Should the CSV export ship in this cycle?"],
    )
    .success();
    let a = env.run(&repo, &["check", "--compat"]).code(1);
    assert!(crate::common::stdout(&a).contains("ST-026"));
}

#[test]
fn an_empty_design_or_verification_record_is_refused_at_its_owners_handoff() {
    // Item 1, the later records: with one acceptance condition defined, a
    // design record holding only its provenance block, or a COMPLETE
    // verification report holding only its header, is refused at the handoff
    // that leaves its owner's state.
    let (env, repo) = project(
        "f-std",
        false,
        &[
            ("WorkflowState", "ARCHITECTING"),
            ("Kind", "FORWARD"),
            ("From", "SCOPING"),
        ],
    );
    let design = format!(".standards/docs/specs/{ID}.md");
    edit(&repo, &design, |t| {
        t[..t.find("# Technical Design").unwrap()].to_string()
    });
    env.commit_all(&repo, "empty design");
    let err = refused(
        &env,
        &repo,
        &["handoff", "--to", "DEVELOPING", "--reason", "Designed."],
    );
    assert!(err.contains(&design), "{err}");
    assert!(err.contains("AC-001") && err.contains("[AC-009]"), "{err}");

    let (env, repo) = project(
        "f-std",
        false,
        &[
            ("WorkflowState", "TESTING"),
            ("Kind", "FORWARD"),
            ("From", "DEVELOPING"),
        ],
    );
    let report = format!(".standards/docs/verification/{ID}.md");
    edit(&repo, &report, |t| {
        t[..t.find("## Acceptance Evidence").unwrap()].to_string()
    });
    env.commit_all(&repo, "empty report");
    let err = refused(
        &env,
        &repo,
        &[
            "handoff",
            "--to",
            "REVIEWING_IMPLEMENTATION",
            "--reason",
            "Verified.",
        ],
    );
    assert!(err.contains(&report), "{err}");
    assert!(err.contains("[AC-010]"), "{err}");
}
