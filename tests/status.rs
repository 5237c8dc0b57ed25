//! `git standards status` on real temporary repositories.

use std::path::Path;

use serde_json::Value;

use crate::common::{read, stderr, stdout, write, Env};

const STATE: &str = ".standards/STATE.md";
const MODE: &str = ".standards/MODE.md";

fn fixture(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/state")
        .join(format!("{name}.md"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A repository with the runtime installed (brownfield: it has a source file).
fn installed() -> (Env, std::path::PathBuf) {
    let (env, repo) = Env::repo();
    write(repo.join("src/app.py"), "print('hi')\n");
    env.run(&repo, &["install"]).success();
    (env, repo)
}

fn json(env: &Env, dir: &Path, args: &[&str]) -> Value {
    let a = env.run(dir, args).success();
    assert!(stderr(&a).is_empty(), "{}", stderr(&a));
    serde_json::from_str(&stdout(&a)).unwrap_or_else(|e| panic!("{e}: {}", stdout(&a)))
}

fn state_with(repo: &Path, from: &str, to: &str) -> String {
    let text = read(repo.join(STATE));
    assert!(text.contains(from), "{from} not in STATE.md");
    text.replace(from, to)
}

#[test]
fn fresh_install_shows_the_initial_state_as_text_and_json() {
    let (env, repo) = installed();
    let a = env.run(&repo, &["status"]).success();
    let out = stdout(&a);
    assert!(stderr(&a).is_empty());
    assert!(out.starts_with("Status of the working tree\n"), "{out}");
    assert!(out.contains("  Project mode        BROWNFIELD\n"), "{out}");
    assert!(
        out.contains("  Workflow state      AUDITING, owned by the Auditor\n"),
        "{out}"
    );
    assert!(out.contains("  Cycle mode          UNSET\n"), "{out}");
    assert!(out.contains("  No active cycle.\n"), "{out}");
    assert!(out.contains("  Kind                INITIAL\n"), "{out}");
    assert!(
        out.contains("Initial brownfield workflow state; cycle mode not yet selected."),
        "{out}"
    );
    assert!(out.contains("No recovery in progress."), "{out}");
    assert!(!out.contains('\x1b'), "no colours when not on a terminal");
    assert!(!out.contains("Next cycle"), "pending fields only when set");

    let v = json(&env, &repo, &["status", "--json"]);
    assert_eq!(v["ok"], true);
    assert_eq!(v["source"], "the working tree");
    assert_eq!(v["commit"], Value::Null);
    assert_eq!(v["projectMode"], "BROWNFIELD");
    assert_eq!(v["workflowState"], "AUDITING");
    assert_eq!(v["owner"], "Auditor");
    assert_eq!(v["cycleMode"], "UNSET");
    assert_eq!(v["completionPolicy"], "NONE");
    assert_eq!(
        v["pendingCycle"],
        serde_json::json!({"mode": "UNSET", "request": null, "blockedOn": null})
    );
    assert_eq!(v["activeWork"], Value::Null);
    assert_eq!(v["lastCycle"], Value::Null);
    assert_eq!(v["handoff"]["kind"], "INITIAL");
    assert_eq!(v["handoff"]["from"], "NONE");
    assert_eq!(v["recovery"], serde_json::json!([]));
    assert_eq!(v["obligations"], serde_json::json!([]));
    assert_eq!(v["baselineReconciliation"], serde_json::json!([]));
    assert_eq!(v["problems"], serde_json::json!([]));
}

#[test]
fn working_tree_index_and_head_are_each_read() {
    let (env, repo) = installed();
    env.commit_all(&repo, "install");
    let head = env.git(&repo, &["rev-parse", "HEAD"]);
    // HEAD: AUDITING; staged: ARCHITECTING; on disk: DEVELOPING.
    write(
        repo.join(STATE),
        state_with(
            &repo,
            "`WorkflowState`: `AUDITING`",
            "`WorkflowState`: `ARCHITECTING`",
        ),
    );
    env.git(&repo, &["add", STATE]);
    write(
        repo.join(STATE),
        state_with(
            &repo,
            "`WorkflowState`: `ARCHITECTING`",
            "`WorkflowState`: `DEVELOPING`",
        ),
    );

    let wt = json(&env, &repo, &["status", "--json"]);
    assert_eq!(
        (wt["workflowState"].as_str(), wt["owner"].as_str()),
        (Some("DEVELOPING"), Some("Developer"))
    );
    let staged = json(&env, &repo, &["status", "--staged", "--json"]);
    assert_eq!(staged["source"], "the index");
    assert_eq!(staged["workflowState"], "ARCHITECTING");
    let at_head = json(&env, &repo, &["status", "--ref", "HEAD", "--json"]);
    assert_eq!(at_head["workflowState"], "AUDITING");
    assert_eq!(at_head["commit"], head.trim());
    assert_eq!(at_head["source"], format!("commit {} (`HEAD`)", &head[..7]));

    let text = stdout(&env.run(&repo, &["status", "--staged"]).success());
    assert!(text.starts_with("Status of the index\n"), "{text}");
    assert!(
        text.contains("ARCHITECTING, owned by the Architect"),
        "{text}"
    );
}

#[test]
fn ref_reads_a_branch_that_is_not_checked_out() {
    let (env, repo) = installed();
    env.commit_all(&repo, "install");
    env.git(&repo, &["checkout", "-q", "-b", "feature"]);
    write(repo.join(STATE), fixture("mid-cycle-nested-recovery"));
    env.commit_all(&repo, "feature work");
    let feature = env.git(&repo, &["rev-parse", "feature"]);
    env.git(&repo, &["checkout", "-q", "main"]);
    let on_disk = read(repo.join(STATE));

    let v = json(&env, &repo, &["status", "--ref", "feature", "--json"]);
    assert_eq!(v["commit"], feature.trim());
    assert_eq!(
        v["activeWork"]["id"],
        "add-user-search-20260927T190146Z-7bef0f04"
    );
    assert_eq!(v["recovery"].as_array().unwrap().len(), 3);
    // The working tree still holds main's state: nothing was checked out.
    assert_eq!(read(repo.join(STATE)), on_disk);
    assert_eq!(
        json(&env, &repo, &["status", "--json"])["activeWork"],
        Value::Null
    );
    assert_eq!(
        env.git(&repo, &["symbolic-ref", "--short", "HEAD"]).trim(),
        "main"
    );
}

#[test]
fn ref_works_in_a_bare_repository() {
    let (env, repo) = installed();
    env.commit_all(&repo, "install");
    let bare = env.dir.path().join("bare.git");
    env.git(
        env.dir.path(),
        &[
            "clone",
            "-q",
            "--bare",
            repo.to_str().unwrap(),
            bare.to_str().unwrap(),
        ],
    );
    let v = json(&env, &bare, &["status", "--ref", "main", "--json"]);
    assert_eq!(v["workflowState"], "AUDITING");
    let a = env.run(&bare, &["status"]).code(1);
    assert!(stderr(&a).contains("bare repository"), "{}", stderr(&a));
}

#[test]
fn works_from_a_subdirectory_and_with_dash_c() {
    let (env, repo) = installed();
    let v = json(&env, &repo.join("src"), &["status", "--json"]);
    assert_eq!(v["workflowState"], "AUDITING");
    let v = json(
        &env,
        env.dir.path(),
        &["-C", repo.join("src").to_str().unwrap(), "status", "--json"],
    );
    assert_eq!(v["workflowState"], "AUDITING");
}

#[test]
fn nested_recovery_frames_are_shown_newest_first() {
    let (env, repo) = installed();
    write(repo.join(STATE), fixture("mid-cycle-nested-recovery"));
    let out = stdout(&env.run(&repo, &["status"]).success());
    let at = |needle: &str| {
        out.find(needle)
            .unwrap_or_else(|| panic!("`{needle}` missing in:\n{out}"))
    };
    assert!(at("Frame 3 (active)") < at("Frame 2\n") && at("Frame 2\n") < at("Frame 1\n"));
    assert!(out.contains("Recovery (newest first)"), "{out}");
    assert!(
        out.contains("  Id                  add-user-search-20260927T190146Z-7bef0f04\n"),
        "{out}"
    );
    assert!(
        out.contains("  Request             Add a `--json` flag to search\n"),
        "{out}"
    );
    assert!(
        out.contains("    Owner             SCOPING (Scoper)\n"),
        "{out}"
    );
    assert!(
        out.contains("    Resume at         ARCHITECTING\n"),
        "{out}"
    );
    assert!(
        !out.contains('\r'),
        "CRLF line endings of the file do not leak"
    );

    let v = json(&env, &repo, &["status", "--json"]);
    let frames: Vec<_> = v["recovery"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["frame"].as_str().unwrap(), f["owner"].as_str().unwrap()))
        .collect();
    assert_eq!(
        frames,
        [("3", "SCOPING"), ("2", "ARCHITECTING"), ("1", "DEVELOPING")]
    );
    assert_eq!(
        v["recovery"][0]["reason"],
        "AC-002 contradicts the pagination constraint."
    );
    assert_eq!(v["recovery"][1]["ownerRole"], "Architect");
    assert_eq!(v["handoff"]["kind"], "FAILURE");
}

#[test]
fn baseline_reconciliation_entries_are_listed() {
    let (env, repo) = installed();
    write(repo.join(STATE), fixture("baseline-reconciliation"));
    let out = stdout(&env.run(&repo, &["status"]).success());
    assert!(
        out.contains("  Source cycle        paging-20260901T080000Z-0a1b2c3d\n    Request           Add paging to the result list\n"),
        "{out}"
    );
    assert!(out.contains("  Audit target        src/search\n"), "{out}");
    let v = json(&env, &repo, &["status", "--json"]);
    assert_eq!(
        v["baselineReconciliation"],
        serde_json::json!([
            {"sourceCycle": "paging-20260901T080000Z-0a1b2c3d", "request": "Add paging to the result list"},
            {"sourceCycle": "export-csv-20260910T120000Z-deadbeef", "request": "Export results as CSV"}
        ])
    );
}

#[test]
fn expedited_promotion_shows_reason_and_obligations() {
    let (env, repo) = installed();
    write(repo.join(STATE), fixture("expedited-promoted-obligations"));
    let out = stdout(&env.run(&repo, &["status"]).success());
    assert!(
        out.contains("  Promotion reason    The fix needs a new session store.\n"),
        "{out}"
    );
    assert!(
        out.contains("  Obligation 1\n    Owner             TESTING (Tester)\n    Failure type      VERIFICATION\n    Reason            Session expiry is untested.\n"),
        "{out}"
    );
    assert!(
        out.contains("  Obligation 2\n    Owner             REVIEWING_IMPLEMENTATION (Reviewer)\n"),
        "{out}"
    );
    let v = json(&env, &repo, &["status", "--json"]);
    assert_eq!(
        v["activeWork"]["promotionReason"],
        "The fix needs a new session store."
    );
    assert_eq!(v["obligations"][1]["ownerRole"], "Reviewer");
    assert_eq!(v["obligations"][1]["reason"], "Review the cookie flags.");
    assert_eq!(v["handoff"]["kind"], "PROMOTE");
}

#[test]
fn signed_off_state_shows_the_last_cycle() {
    let (env, repo) = installed();
    write(repo.join(STATE), fixture("signed-off"));
    let out = stdout(&env.run(&repo, &["status"]).success());
    assert!(
        out.contains("  No active cycle. The last cycle ended SIGNED_OFF:\n    Id                add-user-search-20260927T190146Z-7bef0f04\n"),
        "{out}"
    );
    assert!(out.contains("SIGNED_OFF, owned by the user"), "{out}");
}

/// Expected values per fixture: (workflowState, owner, active cycle id,
/// frames, obligations, baseline entries).
type Expected = (
    &'static str,
    &'static str,
    Option<&'static str>,
    usize,
    usize,
    usize,
);

fn expected(name: &str) -> Expected {
    match name {
        "fresh-greenfield" => ("SCOPING", "Scoper", None, 0, 0, 0),
        "fresh-brownfield" => ("AUDITING", "Auditor", None, 0, 0, 0),
        "mid-cycle-nested-recovery" => (
            "SCOPING",
            "Scoper",
            Some("add-user-search-20260927T190146Z-7bef0f04"),
            3,
            0,
            0,
        ),
        "baseline-reconciliation" => (
            "AUDITING",
            "Auditor",
            Some("add-user-search-20260927T190146Z-7bef0f04"),
            0,
            0,
            2,
        ),
        "expedited-promoted-obligations" => (
            "SCOPING",
            "Scoper",
            Some("fix-login-20261001T101010Z-00ff00ff"),
            0,
            2,
            0,
        ),
        "signed-off" => ("SIGNED_OFF", "user", None, 0, 0, 0),
        other => panic!("fixtures/state/{other}.md has no expectations in tests/status.rs"),
    }
}

#[test]
fn every_state_fixture_prints_every_json_field() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/state");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert!(names.len() >= 6, "{names:?}");
    let (env, repo) = installed();
    for name in names {
        write(repo.join(STATE), fixture(&name));
        let v = json(&env, &repo, &["status", "--json"]);
        let (state, owner, id, frames, obligations, baseline) = expected(&name);
        let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            [
                "ok",
                "source",
                "commit",
                "projectMode",
                "workflowState",
                "owner",
                "cycleMode",
                "completionPolicy",
                "pendingCycle",
                "activeWork",
                "lastCycle",
                "handoff",
                "recovery",
                "obligations",
                "baselineReconciliation",
                "problems",
                "next"
            ],
            "{name}"
        );
        assert_eq!(v["ok"], true, "{name}");
        assert_eq!(v["workflowState"], state, "{name}");
        assert_eq!(v["owner"], owner, "{name}");
        assert_eq!(v["activeWork"]["id"].as_str(), id, "{name}");
        assert_eq!(v["recovery"].as_array().unwrap().len(), frames, "{name}");
        assert_eq!(
            v["obligations"].as_array().unwrap().len(),
            obligations,
            "{name}"
        );
        assert_eq!(
            v["baselineReconciliation"].as_array().unwrap().len(),
            baseline,
            "{name}"
        );
        for key in ["mode", "request", "blockedOn"] {
            assert!(
                v["pendingCycle"].get(key).is_some(),
                "{name}: pendingCycle.{key}"
            );
        }
        for key in ["kind", "from", "failureType", "reason"] {
            assert!(v["handoff"][key].is_string(), "{name}: handoff.{key}");
        }
        if let Some(work) = v["activeWork"].as_object() {
            for key in [
                "id",
                "request",
                "scope",
                "architecture",
                "development",
                "blockedOn",
                "promotionReason",
                "auditTarget",
                "pendingVerificationCadence",
            ] {
                assert!(work.contains_key(key), "{name}: activeWork.{key}");
            }
        }
        assert_eq!(v["problems"], serde_json::json!([]), "{name}");
    }
}

#[test]
fn missing_runtime_is_a_clear_refusal() {
    let (env, repo) = Env::repo();
    let a = env.run(&repo, &["status"]).code(1);
    let err = stderr(&a);
    assert!(
        err.contains("error: no STANDARDS runtime is installed at"),
        "{err}"
    );
    assert!(
        err.contains("hint: run `git standards install` first"),
        "{err}"
    );
    assert!(stdout(&a).is_empty());

    let a = env.run(&repo, &["status", "--json"]).code(1);
    let v: Value = serde_json::from_str(&stdout(&a)).unwrap();
    assert_eq!(v["ok"], false);
    assert!(v["error"]
        .as_str()
        .unwrap()
        .contains("no STANDARDS runtime"));
    assert_eq!(v["hint"], "run `git standards install` first");
}

#[test]
fn invalid_state_is_refused_with_file_line_and_message() {
    let (env, repo) = installed();
    write(
        repo.join(STATE),
        state_with(
            &repo,
            "`WorkflowState`: `AUDITING`",
            "`WorkflowState`: `DONE`",
        ),
    );
    let a = env.run(&repo, &["status"]).code(1);
    let err = stderr(&a);
    assert!(
        err.contains("error: STATE.md in the working tree is invalid (ST-003): .standards/STATE.md:3: `WorkflowState`: `DONE` is not a valid workflow state"),
        "{err}"
    );
    assert!(err.contains("hint: fix it by hand"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(stdout(&a).is_empty());

    let a = env.run(&repo, &["status", "--json"]).code(1);
    let v: Value = serde_json::from_str(&stdout(&a)).unwrap();
    assert_eq!(v["ok"], false);
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains(".standards/STATE.md:3: `WorkflowState`: `DONE`"),
        "{v}"
    );
    assert!(stderr(&a).contains("error: STATE.md in the working tree is invalid"));
}

#[test]
fn non_utf8_state_is_refused() {
    let (env, repo) = installed();
    let mut bytes = read(repo.join(STATE)).into_bytes();
    bytes.splice(0..0, [0xff, 0xfe, 0x00]);
    write(repo.join(STATE), &bytes);
    let a = env.run(&repo, &["status"]).code(1);
    let err = stderr(&a);
    assert!(
        err.contains("cannot read `.standards/STATE.md` from the working tree: it is not valid UTF-8 (bad byte at offset 0)"),
        "{err}"
    );
    assert!(err.contains("hint: STATE.md must be UTF-8 text"), "{err}");
}

#[test]
fn invalid_mode_is_an_error_line_and_the_rest_still_renders() {
    let (env, repo) = installed();
    write(repo.join(MODE), "# Mode\n\n`ProjectMode`: `HYBRID`\n");
    let a = env.run(&repo, &["status"]).success();
    let out = stdout(&a);
    assert!(
        out.contains(
            "error: .standards/MODE.md:3: `ProjectMode`: `HYBRID` is not a valid project mode"
        ),
        "{out}"
    );
    assert!(out.contains("Workflow state      AUDITING"), "{out}");
    assert!(out.contains("Last handoff"), "{out}");
    let v = json(&env, &repo, &["status", "--json"]);
    assert_eq!(v["projectMode"], Value::Null);
    assert_eq!(v["problems"].as_array().unwrap().len(), 1);

    std::fs::remove_file(repo.join(MODE)).unwrap();
    let v = json(&env, &repo, &["status", "--json"]);
    assert_eq!(v["problems"][0], ".standards/MODE.md: the file is missing");
}

#[test]
fn conflicted_state_after_a_real_merge_names_both_cycles() {
    let (env, repo) = installed();
    env.commit_all(&repo, "install");
    let with_id = |id: &str| state_with(&repo, "`Id`: `UNSET`", &format!("`Id`: `{id}`"));
    env.git(&repo, &["checkout", "-q", "-b", "side"]);
    write(repo.join(STATE), with_id("side-20260101T000000Z-00000001"));
    env.commit_all(&repo, "side");
    env.git(&repo, &["checkout", "-q", "main"]);
    write(repo.join(STATE), with_id("main-20260101T000000Z-00000002"));
    env.commit_all(&repo, "main");
    let merge = env.git_status(&repo, &["merge", "-q", "side"]);
    assert!(!merge.status.success(), "the merge must conflict");

    let a = env.run(&repo, &["status"]).code(1);
    let err = stderr(&a);
    assert!(
        err.contains("unresolved merge conflicts in `.standards/STATE.md` (cycles main-20260101T000000Z-00000002, side-20260101T000000Z-00000001)"),
        "{err}"
    );
    assert!(
        err.contains("hint: stop and tell the user which cycles are involved"),
        "{err}"
    );
    let a = env.run(&repo, &["status", "--staged", "--json"]).code(1);
    let v: Value = serde_json::from_str(&stdout(&a)).unwrap();
    assert_eq!(v["ok"], false);
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("`.standards/STATE.md`"),
        "{v}"
    );
}

#[test]
fn staged_and_ref_together_are_a_usage_error() {
    let (env, repo) = installed();
    let a = env
        .run(&repo, &["status", "--staged", "--ref", "HEAD"])
        .code(2);
    assert!(stderr(&a).contains("cannot be used with"), "{}", stderr(&a));
}

#[test]
fn unknown_ref_is_refused() {
    let (env, repo) = installed();
    env.commit_all(&repo, "install");
    let a = env
        .run(&repo, &["status", "--ref", "no-such-branch"])
        .code(1);
    assert!(
        stderr(&a).contains("unknown revision `no-such-branch`") && !stderr(&a).contains("input="),
        "{}",
        stderr(&a)
    );
    env.git(&repo, &["checkout", "-q", "--orphan", "empty"]);
    env.git(&repo, &["rm", "-rq", "--cached", "."]);
    env.git(&repo, &["commit", "-q", "--allow-empty", "-m", "empty"]);
    let a = env.run(&repo, &["status", "--ref", "empty"]).code(1);
    let err = stderr(&a);
    assert!(
        err.contains("no STANDARDS runtime is installed in commit"),
        "{err}"
    );
    assert!(err.contains("predates the installation"), "{err}");
}

#[test]
fn colours_follow_the_terminal_the_flag_and_no_color() {
    let (env, repo) = installed();
    let piped = stdout(&env.run(&repo, &["status"]).success());
    assert!(!piped.contains('\x1b'));
    let forced = stdout(&env.run(&repo, &["--color", "always", "status"]).success());
    assert!(
        forced.starts_with("\x1b[1mStatus of the working tree\x1b[0m\n"),
        "{forced:?}"
    );
    let json = stdout(
        &env.run(&repo, &["--color", "always", "status", "--json"])
            .success(),
    );
    assert!(!json.contains('\x1b'), "never colours in JSON");

    // On a real terminal (through `script`), `auto` colours unless NO_COLOR is set.
    if std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("`script` is not installed; the terminal part of this test is skipped");
        return;
    }
    let on_tty = |no_color: Option<&str>| {
        let command = format!("'{}' status", Env::bin().display());
        let mut cmd = env.sealed("script", &repo);
        cmd.args(["-qec", &command, "/dev/null"]);
        // A terminal names itself; `TERM=dumb` (or none) means no colours, as for git.
        cmd.env("TERM", "xterm");
        if let Some(v) = no_color {
            cmd.env("NO_COLOR", v);
        }
        let out = cmd.output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    assert!(on_tty(None).contains("\x1b[1mWorkflow\x1b[0m"));
    assert!(!on_tty(Some("1")).contains('\x1b'));
}

#[test]
fn piping_into_head_is_a_clean_exit() {
    let (env, repo) = installed();
    write(repo.join(STATE), fixture("mid-cycle-nested-recovery"));
    let out = env
        .sealed("bash", &repo)
        .args([
            "-c",
            "set -o pipefail; \"$0\" status | head -1",
            Env::bin().to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "Status of the working tree\n"
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    // A reader that is already gone: the first write fails with EPIPE.
    for args in [&["status"][..], &["status", "--json"]] {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let out = env.cmd(&repo).args(args).stdout(writer).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert!(
            out.stderr.is_empty(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// A project on `main` whose branch `feature` holds a cycle awaiting sign-off.
fn awaiting_signoff_on(branch: &str) -> (Env, std::path::PathBuf) {
    let (env, repo) = installed();
    env.commit_all(&repo, "install");
    if branch != "main" {
        env.git(&repo, &["checkout", "-q", "-b", branch]);
    }
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/check/bases/f-ir");
    crate::transitions::copy_dir(&from, &repo);
    env.commit_all(&repo, "a cycle awaiting sign-off");
    (env, repo)
}

/// A transition's `--json` object (its summary sentence is on stderr).
fn moved(env: &Env, dir: &Path, args: &[&str]) -> Value {
    let a = env.run(dir, args).success();
    serde_json::from_str(&stdout(&a)).unwrap_or_else(|e| panic!("{e}: {}", stdout(&a)))
}

fn reset_option(next: &Value) -> Option<&Value> {
    next["userOptions"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|o| o["action"] == "reset before merging")
}

/// Issue 25, item 4: after `signoff` or `cancel` on a branch that is not the
/// main branch, the printed next step and `status` (text and `--json`) name
/// the reset before merging, as a command that runs as written without a
/// terminal; once it ran, the merge guard accepts the branch and the option
/// is gone. On the main branch itself nothing names it.
#[test]
fn a_finished_cycle_on_a_branch_says_reset_before_merging() {
    for action in ["signoff", "cancel"] {
        let (env, repo) = awaiting_signoff_on("feature");
        let v = moved(&env, &repo, &[action, "--json"]);
        let option = reset_option(&v["next"]).unwrap_or_else(|| panic!("{v:#}"));
        assert_eq!(option["command"], "git standards reset --yes --commit");
        assert!(
            option["then"]
                .as_str()
                .unwrap()
                .contains("merge into `main`"),
            "{v:#}"
        );
        assert_eq!(v["warnings"], serde_json::json!([]), "{v:#}");
        let st = json(&env, &repo, &["status", "--json"]);
        assert_eq!(reset_option(&st["next"]), Some(option), "{st:#}");
        let text = stdout(&env.run(&repo, &["status"]).success());
        assert!(
            text.contains("reset before merging")
                && text.contains("git standards reset --yes --commit; then merge into `main`"),
            "{text}"
        );
        env.commit_all(&repo, action);
        let guard = ["merge-guard", "feature", "--into", "main"];
        env.run(&repo, &guard).failure();
        // The command as printed, in a process without a terminal.
        let command = option["command"].as_str().unwrap();
        let args: Vec<&str> = command.split(' ').skip(2).collect();
        env.run(&repo, &args).success();
        env.git(&repo, &["checkout", "-q", "main"]);
        env.run(&repo, &guard).success();
        env.git(&repo, &["checkout", "-q", "feature"]);
        let st = json(&env, &repo, &["status", "--json"]);
        assert_eq!(reset_option(&st["next"]), None, "fresh again: {st:#}");
    }
    // The text output of the move prints it too.
    let (env, repo) = awaiting_signoff_on("feature");
    let out = stdout(&env.run(&repo, &["signoff"]).success());
    assert!(
        out.contains("reset before merging: git standards reset --yes --commit"),
        "{out}"
    );
    // On the main branch no reset is offered before a merge.
    let (env, repo) = awaiting_signoff_on("main");
    let v = moved(&env, &repo, &["signoff", "--json"]);
    assert_eq!(reset_option(&v["next"]), None, "{v:#}");
    let st = json(&env, &repo, &["status", "--json"]);
    assert_eq!(reset_option(&st["next"]), None, "{st:#}");
}

/// Issue 25, item 4: starting a cycle on the main branch or on a detached
/// HEAD warns on stderr and in `--json` `warnings`; on a branch it does not.
#[test]
fn starting_a_cycle_on_main_or_a_detached_head_warns() {
    let start = ["start", "--request", "Fix the typo.", "--json"];
    let (env, repo) = installed();
    env.commit_all(&repo, "install");
    let a = env.run(&repo, &start).success();
    let v: Value = serde_json::from_str(&stdout(&a)).unwrap();
    let w = v["warnings"][0].as_str().unwrap_or_else(|| panic!("{v:#}"));
    assert!(
        w.contains("main branch `main`") && w.contains("git switch -c <name>"),
        "{w}"
    );
    assert!(
        stderr(&a).contains(&format!("warning: {w}")),
        "{}",
        stderr(&a)
    );

    let (env, repo) = installed();
    env.commit_all(&repo, "install");
    env.git(&repo, &["checkout", "-q", "--detach"]);
    let a = env.run(&repo, &start).success();
    let v: Value = serde_json::from_str(&stdout(&a)).unwrap();
    let w = v["warnings"][0].as_str().unwrap_or_else(|| panic!("{v:#}"));
    assert!(w.contains("detached HEAD"), "{w}");
    assert!(stderr(&a).contains("warning: "), "{}", stderr(&a));

    let (env, repo) = installed();
    env.commit_all(&repo, "install");
    env.git(&repo, &["checkout", "-q", "-b", "feature"]);
    let a = env.run(&repo, &start).success();
    let v: Value = serde_json::from_str(&stdout(&a)).unwrap();
    assert_eq!(v["warnings"], serde_json::json!([]), "{v:#}");
    assert!(!stderr(&a).contains("warning"), "{}", stderr(&a));
}
