//! `--json` on every transition command: each one run over a success and its
//! refusals, stdout parsed as exactly one JSON object (the summary stays on
//! stderr), the audit event it names found in the trail, and STATE.md left
//! as it was by every refusal.

use std::path::Path;

use serde_json::Value;

use crate::common::{read, stderr, stdout, write, Env};
use crate::transitions::{copy_dir, f_std};

const STATE: &str = ".standards/STATE.md";

/// Runs `args --json`; returns the parsed stdout and the exit code. Panics
/// when stdout is not exactly one JSON object.
fn run_json(env: &Env, repo: &Path, args: &[&str]) -> (Value, i32) {
    let mut all = args.to_vec();
    all.push("--json");
    let a = env.run(repo, &all);
    let out = stdout(&a);
    let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| {
        panic!(
            "`{}` printed no single JSON object ({e}):\n{out}\nstderr:\n{}",
            all.join(" "),
            stderr(&a)
        )
    });
    assert!(v.is_object(), "{v}");
    (v, a.get_output().status.code().unwrap())
}

/// A success: `ok`, the command, the states, and an event in the trail.
fn ok(env: &Env, repo: &Path, args: &[&str], before: &str, after: &str) -> Value {
    let (v, code) = run_json(env, repo, args);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(v["ok"], true, "{v:#}");
    assert_eq!(v["command"], args[0], "{v:#}");
    assert_eq!(v["before"], before, "{v:#}");
    assert_eq!(v["after"], after, "{v:#}");
    assert!(v["summary"].as_str().is_some_and(|s| !s.is_empty()));
    if v["changed"] == true {
        let id = v["event"].as_str().expect("an event ID");
        let log = stdout(&env.run(repo, &["log", "--json"]).success());
        assert!(
            log.lines().any(|l| l.contains(&format!("\"id\":\"{id}\""))),
            "event {id} is not in the trail:\n{log}"
        );
    }
    v
}

/// A refusal: `{"ok": false, "error", "hint"}`, exit 1, STATE.md untouched.
fn refused(env: &Env, repo: &Path, args: &[&str], says: &str) -> Value {
    let before = read(repo.join(STATE));
    let (v, code) = run_json(env, repo, args);
    assert_eq!(code, 1, "{v:#}");
    assert_eq!(v["ok"], false, "{v:#}");
    assert!(
        v["error"].as_str().unwrap().contains(says),
        "`{}`: {v:#}",
        args.join(" ")
    );
    assert!(v.as_object().unwrap().contains_key("hint"), "{v:#}");
    assert_eq!(read(repo.join(STATE)), before, "{}", args.join(" "));
    v
}

/// The change of one field in a success's `fields`.
fn field<'a>(v: &'a Value, name: &str) -> &'a Value {
    v["fields"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["field"] == name)
        .unwrap_or_else(|| panic!("no change of `{name}`: {v:#}"))
}

#[test]
fn recovery_moves_print_one_json_object_on_success_and_refusal() {
    let (env, repo) = f_std(&[]);
    let r = "REVIEWING_IMPLEMENTATION";
    refused(
        &env,
        &repo,
        &["handoff", "--to", "SYNCHRONIZING", "--reason", "x"],
        "SYNCHRONIZING",
    );
    refused(&env, &repo, &["resume"], "recovery");
    let v = ok(
        &env,
        &repo,
        &["fail", "--type", "SCOPING", "--reason", "AC-001 is vague."],
        r,
        "SCOPING",
    );
    assert_eq!(v["move"], "fail");
    assert_eq!(v["cycle"], "add-user-search-20260927T190146Z-7bef0f04");
    assert_eq!(field(&v, "WorkflowState")["after"], "SCOPING");
    assert_eq!(field(&v, "Handoff.Kind")["after"], "FAILURE");
    assert_eq!(field(&v, "Recovery.Active")["after"], true);
    let frame = field(&v, "Recovery.Frame 1");
    assert_eq!(frame["before"], Value::Null);
    assert_eq!(frame["after"]["Owner"], "SCOPING");
    assert_eq!(v["next"]["invocation"]["skill"], "scoper", "{v:#}");
    refused(
        &env,
        &repo,
        &[
            "fail", "--type", "REVIEW", "--reason", "x", "--to", "SCOPING",
        ],
        "",
    );
    refused(
        &env,
        &repo,
        &["policy", "implementation-reviewed"],
        "recovery",
    );
    let v = ok(
        &env,
        &repo,
        &["resume", "--rerun-through", "TESTING"],
        "SCOPING",
        "ARCHITECTING",
    );
    assert_eq!(
        field(&v, "Recovery.Frame 1")["after"]["RerunThrough"],
        "TESTING"
    );
    ok(
        &env,
        &repo,
        &["handoff", "--to", "DEVELOPING", "--reason", "Design rerun."],
        "ARCHITECTING",
        "DEVELOPING",
    );
    ok(
        &env,
        &repo,
        &[
            "handoff",
            "--to",
            "TESTING",
            "--reason",
            "Implementation rerun.",
        ],
        "DEVELOPING",
        "TESTING",
    );
    let v = ok(&env, &repo, &["resume"], "TESTING", r);
    assert_eq!(field(&v, "Recovery.Frame 1")["after"], Value::Null);

    // Blocking questions.
    refused(&env, &repo, &["unblock"], "nothing is blocked");
    let v = ok(&env, &repo, &["block", "--on", "Which index?"], r, r);
    assert_eq!(field(&v, "Active Work.BlockedOn")["after"], "Which index?");
    assert_eq!(
        v["next"],
        Value::Null,
        "a same-state move prints no next step"
    );
    refused(
        &env,
        &repo,
        &["block", "--on", "Another?"],
        "already blocked",
    );
    ok(&env, &repo, &["unblock"], r, r);

    // User decisions: the policy (a repeat changes nothing and records nothing).
    let v = ok(&env, &repo, &["policy", "implementation-reviewed"], r, r);
    assert_eq!(
        field(&v, "Active Work.CompletionPolicy")["after"],
        "IMPLEMENTATION_REVIEWED"
    );
    let v = ok(&env, &repo, &["policy", "implementation-reviewed"], r, r);
    assert_eq!(
        (&v["changed"], &v["event"]),
        (&Value::Bool(false), &Value::Null)
    );
    assert_eq!(v["fields"], serde_json::json!([]));
    ok(&env, &repo, &["policy", "full-deliverable"], r, r);

    // Cadence, promotion, sign-off, rework.
    let v = ok(&env, &repo, &["cadence", "incremental"], r, r);
    assert_eq!(v["move"], "cadence");
    refused(&env, &repo, &["promote", "--reason", "x"], "EXPEDITED");
    refused(&env, &repo, &["signoff"], "AWAITING_USER_SIGNOFF");
    refused(
        &env,
        &repo,
        &[
            "rework",
            "--type",
            "REVIEW",
            "--request",
            "x",
            "--to",
            "SCOPING",
        ],
        "",
    );
    let v = ok(
        &env,
        &repo,
        &[
            "rework",
            "--type",
            "IMPLEMENTATION",
            "--request",
            "Search by name, email and phone.",
        ],
        r,
        "DEVELOPING",
    );
    assert_eq!(
        field(&v, "Active Work.Request")["after"],
        "Search by name, email and phone."
    );

    // A retained cancellation, then a new cycle that carries its reconciliation.
    let v = ok(&env, &repo, &["cancel"], "DEVELOPING", "CANCELLED");
    assert_eq!(field(&v, "CycleMode")["after"], "UNSET");
    refused(&env, &repo, &["cancel"], "");
    refused(
        &env,
        &repo,
        &["handoff", "--to", "TESTING", "--reason", "x"],
        "active cycle",
    );
    let v = ok(
        &env,
        &repo,
        &["start", "--request", "Search by phone."],
        "CANCELLED",
        "AUDITING",
    );
    assert_eq!(v["move"], "start");
    let id = v["cycle"].as_str().unwrap();
    assert_eq!(field(&v, "Active Work.Id")["after"], id);
    let baseline = &field(&v, "Active Work.BaselineReconciliation")["after"];
    assert_eq!(
        baseline[0]["SourceCycle"],
        "add-user-search-20260927T190146Z-7bef0f04"
    );
    assert_eq!(v["next"]["invocation"]["skill"], "auditor", "{v:#}");
    refused(
        &env,
        &repo,
        &["start", "--request", "More."],
        "still active",
    );
}

#[test]
fn start_blocked_expedited_promotion_and_signoff_in_json() {
    // A start the mode rules block is a success that saves the request.
    let (env, repo) = Env::repo();
    env.run(&repo, &["install"]).success();
    env.commit_all(&repo, "install");
    let v = ok(
        &env,
        &repo,
        &[
            "start",
            "--request",
            "Document it.",
            "--mode",
            "documentation",
        ],
        "SCOPING",
        "SCOPING",
    );
    assert_eq!(v["move"], "start-blocked");
    assert_eq!(v["cycle"], Value::Null);
    assert_eq!(
        field(&v, "PendingCycleRequest")["after"],
        "Document it. [Start choices: requested mode DOCUMENTATION.]"
    );
    refused(&env, &repo, &["start"], "the user decides");
    let v = ok(&env, &repo, &["unblock"], "SCOPING", "SCOPING");
    assert_eq!(field(&v, "PendingCycleBlockedOn")["after"], "NONE");
    refused(&env, &repo, &["promote", "--reason", "x"], "active cycle");
    refused(&env, &repo, &["cadence", "incremental"], "active cycle");

    // GREENFIELD cancellation: the preview is a refusal with only JSON on
    // stdout; with --yes the reset is the success.
    ok(
        &env,
        &repo,
        &["start", "--request", "Build the greeting app"],
        "SCOPING",
        "SCOPING",
    );
    let v = refused(&env, &repo, &["cancel"], "was not cancelled");
    assert!(v["hint"].as_str().unwrap().contains("cancel --yes"));
    let v = ok(&env, &repo, &["cancel", "--yes"], "SCOPING", "SCOPING");
    assert_eq!(v["move"], "cancel");
    assert_eq!(field(&v, "Active Work.Id")["after"], "UNSET");

    // An expedited cycle is promoted at AUDITING.
    let (env, repo) = Env::repo();
    write(repo.join("app.py"), "print(\"hi\")\n");
    env.run(&repo, &["install"]).success();
    env.commit_all(&repo, "install");
    ok(
        &env,
        &repo,
        &["start", "--request", "Fix the typo.", "--mode", "expedited"],
        "AUDITING",
        "DEVELOPING",
    );
    refused(&env, &repo, &["signoff"], "");
    let v = ok(
        &env,
        &repo,
        &["promote", "--reason", "The fix needs a design."],
        "DEVELOPING",
        "AUDITING",
    );
    assert_eq!(field(&v, "CycleMode")["after"], "STANDARD");
    assert_eq!(
        field(&v, "Active Work.PromotionReason")["after"],
        "The fix needs a design."
    );

    // Sign-off of the expedited sign-off fixture.
    let (env, repo) = Env::repo();
    write(repo.join("app.py"), "print(\"hi\")\n");
    env.run(&repo, &["install"]).success();
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/check/cases/valid-expedited-signoff-fixture/tree"),
        &repo,
    );
    env.commit_all(&repo, "at sign-off");
    let a = "AWAITING_USER_SIGNOFF";
    let v = ok(&env, &repo, &["signoff"], a, "SIGNED_OFF");
    assert_eq!(v["move"], "signoff");
    assert_eq!(v["cycle"], "fix-date-format-20260902T090000Z-5e6f7a8b");
    refused(&env, &repo, &["signoff"], "");
}

#[test]
fn next_mode_saves_the_preference_and_start_consumes_it() {
    let (env, repo) = Env::repo();
    write(repo.join("app.py"), "print(\"hi\")\n");
    env.run(&repo, &["install"]).success();
    env.commit_all(&repo, "install");
    let before = read(repo.join(STATE));
    let v = ok(
        &env,
        &repo,
        &["next-mode", "documentation"],
        "AUDITING",
        "AUDITING",
    );
    assert_eq!(v["move"], "next-mode");
    assert_eq!(
        v["fields"],
        serde_json::json!([{"field": "PendingCycleMode", "before": "UNSET", "after": "DOCUMENTATION"}])
    );
    // Only the preference's bytes changed.
    let after = read(repo.join(STATE));
    assert_eq!(
        after,
        before.replace(
            "`PendingCycleMode`: `UNSET`",
            "`PendingCycleMode`: `DOCUMENTATION`"
        )
    );
    let log = stdout(&env.run(&repo, &["log", "--json"]).success());
    let event: Value = serde_json::from_str(
        log.lines()
            .find(|l| l.contains("\"next-mode-chosen\""))
            .expect("a next-mode-chosen event"),
    )
    .unwrap();
    assert_eq!(
        (&event["from"], &event["to"]),
        (&"UNSET".into(), &"DOCUMENTATION".into())
    );
    env.run(&repo, &["check"]).success();
    // `start` consumes it.
    let v = ok(
        &env,
        &repo,
        &["start", "--request", "Document the API."],
        "AUDITING",
        "AUDITING",
    );
    assert_eq!(field(&v, "CycleMode")["after"], "DOCUMENTATION");
    assert_eq!(field(&v, "PendingCycleMode")["after"], "UNSET");
    // Refused while the cycle is active, and unknown values are usage errors.
    refused(&env, &repo, &["next-mode", "standard"], "is active");
    env.run(&repo, &["next-mode", "fast"]).code(2);

    // After a cancellation a pending EXPEDITED preference blocks the next
    // request (reconciliation needs Auditor); choosing STANDARD runs the
    // start checks again and starts the saved request.
    ok(&env, &repo, &["cancel"], "AUDITING", "CANCELLED");
    ok(
        &env,
        &repo,
        &["next-mode", "expedited"],
        "CANCELLED",
        "CANCELLED",
    );
    let v = ok(
        &env,
        &repo,
        &["start", "--request", "Fix the typo."],
        "CANCELLED",
        "CANCELLED",
    );
    assert_eq!(v["move"], "start-blocked");
    let v = ok(
        &env,
        &repo,
        &["next-mode", "standard"],
        "CANCELLED",
        "AUDITING",
    );
    assert_eq!(v["move"], "start");
    assert_eq!(field(&v, "Active Work.Request")["after"], "Fix the typo.");
    assert_eq!(field(&v, "CycleMode")["after"], "STANDARD");
    assert_eq!(field(&v, "PendingCycleMode")["after"], "UNSET");
    assert_eq!(field(&v, "PendingCycleRequest")["after"], "UNSET");
    assert_eq!(v["next"]["invocation"]["skill"], "auditor", "{v:#}");
    env.run(&repo, &["check"]).success();

    // GREENFIELD accepts only STANDARD, and saves nothing else.
    let (env, repo) = Env::repo();
    env.run(&repo, &["install"]).success();
    env.commit_all(&repo, "install");
    // Without a cycle the user's options name the command.
    let st: Value =
        serde_json::from_str(&stdout(&env.run(&repo, &["status", "--json"]).success())).unwrap();
    assert!(
        st["next"]["userOptions"]
            .as_array()
            .unwrap()
            .iter()
            .any(|o| o["command"] == "git standards next-mode <mode|unset>"),
        "{st:#}"
    );
    refused(&env, &repo, &["next-mode", "expedited"], "GREENFIELD");
    refused(&env, &repo, &["next-mode", "documentation"], "GREENFIELD");
    ok(
        &env,
        &repo,
        &["next-mode", "standard"],
        "SCOPING",
        "SCOPING",
    );
    ok(&env, &repo, &["next-mode", "unset"], "SCOPING", "SCOPING");
}
