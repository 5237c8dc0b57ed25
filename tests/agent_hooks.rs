//! Issue 26: the agent clients' session-start, edit-guard and prompt hooks,
//! fed each client's documented hook input on standard input, with their
//! documented answers and exit codes checked, and the git CLI and the other
//! commands as witnesses.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::common::{read, stderr, stdout, write, Env};

const STATE: &str = ".standards/STATE.md";

fn installed(client: &str) -> (Env, PathBuf) {
    let (env, repo) = Env::repo();
    write(repo.join("app.py"), "print(\"hi\")\n");
    env.run(&repo, &["install", "--client", client]).success();
    env.commit_all(&repo, "install");
    (env, repo)
}

fn code(a: &assert_cmd::assert::Assert) -> i32 {
    a.get_output().status.code().expect("exit code")
}

fn hook(
    env: &Env,
    dir: &Path,
    kind: &str,
    client: &str,
    payload: &Value,
) -> assert_cmd::assert::Assert {
    env.run_stdin(
        dir,
        &["hook", kind, "--client", client],
        &payload.to_string(),
    )
}

fn answer(a: &assert_cmd::assert::Assert) -> Value {
    serde_json::from_str(&stdout(a)).unwrap_or_else(|e| panic!("{e}: {}", stdout(a)))
}

fn session_payload(dir: &Path) -> Value {
    json!({"session_id": "s1", "transcript_path": null, "cwd": dir,
           "hook_event_name": "SessionStart", "source": "startup", "model": "m"})
}

fn edit_payload(dir: &Path, file: &Path) -> Value {
    json!({"session_id": "s1", "cwd": dir, "hook_event_name": "PreToolUse",
           "tool_name": "Edit", "tool_use_id": "t1",
           "tool_input": {"file_path": file, "old_string": "a", "new_string": "b"}})
}

fn patch_payload(dir: &Path, patch: &str) -> Value {
    json!({"session_id": "s1", "turn_id": "t", "cwd": dir, "hook_event_name": "PreToolUse",
           "tool_name": "apply_patch", "tool_use_id": "t1",
           "tool_input": {"command": patch}})
}

/// A shell call as both clients' PreToolUse payloads carry it: `tool_name`
/// `Bash`, the command in `tool_input.command` (Claude Code adds a
/// `description`, Codex a `turn_id`).
fn bash_payload(dir: &Path, command: &str) -> Value {
    json!({"session_id": "s1", "turn_id": "t", "cwd": dir, "hook_event_name": "PreToolUse",
           "tool_name": "Bash", "tool_use_id": "t1",
           "tool_input": {"command": command, "description": "run it"}})
}

/// The edit guard's decision on a shell command: whether it denied.
fn denies(env: &Env, dir: &Path, client: &str, command: &str) -> bool {
    let a = hook(env, dir, "edit-guard", client, &bash_payload(dir, command));
    assert_eq!(code(&a), 0, "{command}: {}", stderr(&a));
    if stdout(&a).is_empty() {
        return false;
    }
    let v = answer(&a)["hookSpecificOutput"].clone();
    assert_eq!(v["permissionDecision"], "deny", "{command}");
    true
}

fn prompt_payload(dir: &Path, prompt: &str) -> Value {
    json!({"session_id": "s1", "cwd": dir, "hook_event_name": "UserPromptSubmit",
           "prompt": prompt})
}

/// The events of the trail, as `log --json` prints them.
fn events(env: &Env, repo: &Path) -> Vec<Value> {
    stdout(&env.run(repo, &["log", "--json"]).success())
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn session_start_tells_a_fresh_chat_where_the_workflow_stands() {
    for client in ["claude", "codex"] {
        let (env, repo) = installed(client);
        let a = hook(
            &env,
            &repo,
            "session-start",
            client,
            &session_payload(&repo),
        );
        assert_eq!(code(&a), 0, "{}", stderr(&a));
        let v = answer(&a);
        assert_eq!(v["hookSpecificOutput"]["hookEventName"], "SessionStart");
        let context = v["hookSpecificOutput"]["additionalContext"]
            .as_str()
            .unwrap();
        // The same facts `status -q` gives.
        let line = stdout(&env.run(&repo, &["status", "-q"]).success());
        let state = line.split(',').next().unwrap();
        assert!(context.contains(&format!("- State: {state}")), "{context}");
        assert!(context.contains("- Cycle: no cycle yet"), "{context}");

        // A started cycle: its ID, its state, and the next invocation in
        // the client's own form.
        env.run(&repo, &["start", "--request", "Add search"])
            .success();
        let status: Value =
            serde_json::from_str(&stdout(&env.run(&repo, &["status", "--json"]).success()))
                .unwrap();
        let a = hook(
            &env,
            &repo.join("."),
            "session-start",
            client,
            &session_payload(&repo),
        );
        let context = answer(&a)["hookSpecificOutput"]["additionalContext"]
            .as_str()
            .unwrap()
            .to_string();
        let id = status["activeWork"]["id"].as_str().unwrap();
        assert!(
            context.contains(&format!("- Cycle: active cycle {id}")),
            "{context}"
        );
        let state = status["workflowState"].as_str().unwrap();
        assert!(context.contains(&format!("- State: {state}")), "{context}");
        let mark = if client == "claude" {
            "/auditor"
        } else {
            "$auditor"
        };
        assert!(context.contains(mark), "{context}");

        // A blocking question is named.
        env.run(&repo, &["block", "--on", "Which index?"]).success();
        let a = hook(
            &env,
            &repo,
            "session-start",
            client,
            &session_payload(&repo),
        );
        let context = answer(&a)["hookSpecificOutput"]["additionalContext"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(context.contains("Which index?"), "{context}");
    }
}

#[test]
fn session_start_outside_a_project_says_nothing_and_a_broken_call_never_blocks() {
    let (env, repo) = Env::repo();
    let a = hook(
        &env,
        &repo,
        "session-start",
        "claude",
        &session_payload(&repo),
    );
    assert_eq!(code(&a), 0);
    assert!(stdout(&a).is_empty());
    let (env, repo) = installed("claude");
    // Not a JSON object: the hook's own error, exit 1 (non-blocking), no answer.
    let a = env.run_stdin(
        &repo,
        &["hook", "session-start", "--client", "claude"],
        "[1]",
    );
    assert_eq!(code(&a), 1);
    assert!(stdout(&a).is_empty());
    assert!(stderr(&a).contains("not a JSON object"), "{}", stderr(&a));
    // A STATE.md broken by hand: the hook reports its error, still exit 1.
    write(repo.join(STATE), "garbage\n");
    let a = hook(
        &env,
        &repo,
        "session-start",
        "claude",
        &session_payload(&repo),
    );
    assert_eq!(code(&a), 1, "{}", stdout(&a));
    assert!(
        stderr(&a).contains("STANDARDS hook error"),
        "{}",
        stderr(&a)
    );
}

#[test]
fn the_edit_guard_denies_a_direct_edit_of_state_md_with_the_command_to_use() {
    let (env, repo) = installed("both");
    let state = repo.join(STATE);
    let before = read(&state);
    // Claude Code's Edit, Write and MultiEdit name the file in file_path.
    for tool in ["Edit", "Write", "MultiEdit"] {
        let mut p = edit_payload(&repo, &state);
        p["tool_name"] = json!(tool);
        let a = hook(&env, &repo, "edit-guard", "claude", &p);
        assert_eq!(code(&a), 0, "{}", stderr(&a));
        let v = answer(&a)["hookSpecificOutput"].clone();
        assert_eq!(v["hookEventName"], "PreToolUse");
        assert_eq!(v["permissionDecision"], "deny");
        let reason = v["permissionDecisionReason"].as_str().unwrap();
        assert!(reason.contains("git standards handoff"), "{reason}");
        assert!(reason.contains("merge conflict"), "{reason}");
    }
    // Codex's apply_patch, with a path relative to a subfolder session.
    std::fs::create_dir_all(repo.join("src/deep")).unwrap();
    let patch =
        "*** Begin Patch\n*** Update File: ../../.standards/STATE.md\n@@\n-a\n+b\n*** End Patch\n";
    let a = hook(
        &env,
        &repo.join("src/deep"),
        "edit-guard",
        "codex",
        &patch_payload(&repo.join("src/deep"), patch),
    );
    assert_eq!(
        answer(&a)["hookSpecificOutput"]["permissionDecision"],
        "deny"
    );
    // Through a symbolic link to the project.
    let link = env.dir.path().join("link");
    std::os::unix::fs::symlink(&repo, &link).unwrap();
    let a = hook(
        &env,
        &link,
        "edit-guard",
        "claude",
        &edit_payload(&link, &link.join(STATE)),
    );
    assert_eq!(
        answer(&a)["hookSpecificOutput"]["permissionDecision"],
        "deny"
    );
    // Every other file is allowed, silently: the code, another record,
    // a patch that only adds elsewhere, a STATE.md outside any project.
    for file in [
        repo.join("app.py"),
        repo.join(".standards/MODE.md"),
        repo.join("docs/STATE.md"),
    ] {
        let a = hook(
            &env,
            &repo,
            "edit-guard",
            "claude",
            &edit_payload(&repo, &file),
        );
        assert_eq!(code(&a), 0);
        assert!(stdout(&a).is_empty(), "{file:?}: {}", stdout(&a));
    }
    write(repo.join("vendor/.standards/STATE.md"), "not ours\n");
    let a = hook(
        &env,
        &repo,
        "edit-guard",
        "claude",
        &edit_payload(&repo, &repo.join("vendor/.standards/STATE.md")),
    );
    assert!(stdout(&a).is_empty());
    let a = hook(
        &env,
        &repo,
        "edit-guard",
        "codex",
        &patch_payload(
            &repo,
            "*** Begin Patch\n*** Add File: notes.md\n+x\n*** End Patch",
        ),
    );
    assert!(stdout(&a).is_empty());
    // Nothing was written by the guard.
    assert_eq!(read(&state), before);
    // A guard that cannot decide fails open: exit 1, no answer.
    let a = env.run_stdin(
        &repo,
        &["hook", "edit-guard", "--client", "codex"],
        "not json",
    );
    assert_eq!(code(&a), 1);
    assert!(stdout(&a).is_empty());
}

/// A cycle started, two branches blocked on different questions, and git's
/// merge of the two stopped on STATE.md's conflict.
fn conflict_on_state(env: &Env, repo: &Path) {
    env.run(repo, &["start", "--request", "Add search"])
        .success();
    env.commit_all(repo, "start");
    env.git(repo, &["checkout", "-q", "-b", "other"]);
    env.run(repo, &["block", "--on", "Ours?"]).success();
    env.commit_all(repo, "ours");
    env.git(repo, &["checkout", "-q", "-"]);
    env.run(repo, &["block", "--on", "Theirs?"]).success();
    env.commit_all(repo, "theirs");
    assert!(!env.git_status(repo, &["merge", "other"]).status.success());
}

#[test]
fn the_edit_guard_allows_hand_edits_that_resolve_a_state_conflict() {
    let (env, repo) = installed("claude");
    // git's own merge conflicts on the same line.
    conflict_on_state(&env, &repo);
    assert!(read(repo.join(STATE)).contains("<<<<<<<"));
    let state = repo.join(STATE);
    let a = hook(
        &env,
        &repo,
        "edit-guard",
        "claude",
        &edit_payload(&repo, &state),
    );
    assert_eq!(code(&a), 0, "{}", stderr(&a));
    assert!(stdout(&a).is_empty(), "{}", stdout(&a));
    // Resolved and committed, the guard is back.
    env.run(&repo, &["resolve", "--keep", "ours", "--yes"])
        .success();
    env.git(&repo, &["commit", "-q", "--no-edit"]);
    let a = hook(
        &env,
        &repo,
        "edit-guard",
        "claude",
        &edit_payload(&repo, &state),
    );
    assert_eq!(
        answer(&a)["hookSpecificOutput"]["permissionDecision"],
        "deny"
    );
}

/// Issue 26: a shell command that would write STATE.md is denied like an
/// Edit, for both clients, however the path is spelled; reads and writes
/// elsewhere pass; during a merge conflict on STATE.md the shell may
/// resolve it by hand, as Edit may.
#[test]
fn the_edit_guard_denies_shell_writes_of_state_md_and_lets_reads_pass() {
    let (env, repo) = installed("both");
    let before = read(repo.join(STATE));
    let absolute = format!("echo x > '{}'", repo.join(STATE).display());
    for client in ["claude", "codex"] {
        for command in [
            "echo '`WorkflowState`: `SIGNED_OFF`' > .standards/STATE.md",
            "sed -i 's/DISCOVERY/SIGNED_OFF/' ./.standards/STATE.md",
            "echo x | tee \".standards/STATE.md\"",
            "cp /tmp/x .standards/STATE.md",
            "mv /tmp/x .standards/STATE.md",
            "cat > .standards/STATE.md <<'EOF'\nx\nEOF",
            "python3 -c \"open('.standards/STATE.md', 'w').write('x')\"",
            "git checkout -- .standards/STATE.md",
            absolute.as_str(),
        ] {
            assert!(denies(&env, &repo, client, command), "{client}: {command}");
        }
    }
    // From a subfolder session, the path relative to it.
    std::fs::create_dir_all(repo.join("src/deep")).unwrap();
    assert!(denies(
        &env,
        &repo.join("src/deep"),
        "codex",
        "sed -i s/a/b/ ../../.standards/STATE.md"
    ));
    assert!(denies(
        &env,
        &repo.join("src"),
        "claude",
        "cd .. && echo x > .standards/STATE.md"
    ));
    // Reads, writes elsewhere and the transition commands pass silently.
    for command in [
        "cat .standards/STATE.md",
        "grep -n WorkflowState .standards/STATE.md",
        "sed -n '1,20p' .standards/STATE.md",
        "git diff -- .standards/STATE.md",
        "git log -p -- .standards/STATE.md | head",
        "git show HEAD:.standards/STATE.md > /tmp/old-state.md",
        "cp .standards/STATE.md /tmp/state-copy.md",
        "python3 -c \"print(open('.standards/STATE.md').read())\"",
        "echo 'see .standards/STATE.md' > notes.md",
        "git commit -m 'do not echo x > .standards/STATE.md'",
        "git standards handoff --to DOCUMENTING --reason 'done'",
        "cargo test 2>&1 | tee /tmp/test.log",
        "echo x > vendor/.standards/STATE.md",
    ] {
        assert!(!denies(&env, &repo, "claude", command), "{command}");
        assert!(!denies(&env, &repo, "codex", command), "{command}");
    }
    // The guard only decides; nothing ran.
    assert_eq!(read(repo.join(STATE)), before);

    // A merge conflict on STATE.md: the shell may resolve it by hand.
    conflict_on_state(&env, &repo);
    let resolve = "git checkout --ours -- .standards/STATE.md";
    assert!(!denies(&env, &repo, "claude", resolve));
    assert!(!denies(
        &env,
        &repo,
        "codex",
        "sed -i '/^<<<<<<< /d' .standards/STATE.md"
    ));
    env.run(&repo, &["resolve", "--keep", "ours", "--yes"])
        .success();
    env.git(&repo, &["commit", "-q", "--no-edit"]);
    assert!(denies(&env, &repo, "claude", resolve));
}

#[test]
fn a_prompt_records_a_human_turn_without_its_text_unless_configured() {
    let (env, repo) = installed("both");
    env.run(&repo, &["start", "--request", "Add search"])
        .success();
    let secret = "my password is hunter2";
    for client in ["claude", "codex"] {
        let a = hook(
            &env,
            &repo,
            "prompt-submit",
            client,
            &prompt_payload(&repo, secret),
        );
        assert_eq!(code(&a), 0, "{}", stderr(&a));
        // Nothing on stdout: the prompt reaches the agent unchanged.
        assert!(stdout(&a).is_empty(), "{}", stdout(&a));
    }
    let turns: Vec<Value> = events(&env, &repo)
        .into_iter()
        .filter(|e| e["event"] == "human-turn")
        .collect();
    assert_eq!(turns.len(), 2);
    assert_eq!(turns[0]["client"], "claude");
    assert_eq!(turns[1]["client"], "codex");
    assert_eq!(turns[0]["session"], "s1");
    assert_eq!(turns[0]["workflow_state"], "AUDITING");
    assert!(turns[0]["cycle"].is_string());
    assert!(turns[0].get("prompt").is_none());
    // git itself holds no trace of the prompt's text.
    let notes = env.git(&repo, &["log", "-p", "refs/notes/standards"]);
    assert!(notes.contains("human-turn"));
    assert!(!notes.contains("hunter2"));
    // Configured to keep prompts, the text is stored.
    env.git(&repo, &["config", "standards.recordPrompts", "true"]);
    hook(
        &env,
        &repo,
        "prompt-submit",
        "claude",
        &prompt_payload(&repo, "yes, sign it off"),
    )
    .success();
    let last = events(&env, &repo)
        .into_iter()
        .rfind(|e| e["event"] == "human-turn")
        .unwrap();
    assert_eq!(last["prompt"], "yes, sign it off");
}

#[test]
fn a_prompt_hook_that_cannot_record_never_blocks_the_prompt() {
    let (env, repo) = installed("claude");
    // Another operation was interrupted: no write may land until `recover`.
    let journal = repo.join(".git/standards/journal");
    std::fs::create_dir_all(&journal).unwrap();
    write(journal.join("plan.json"), "{}");
    let a = hook(
        &env,
        &repo,
        "prompt-submit",
        "claude",
        &prompt_payload(&repo, "hi"),
    );
    assert_eq!(code(&a), 1, "{}", stderr(&a));
    assert!(stdout(&a).is_empty());
    assert!(stderr(&a).contains("not recorded"), "{}", stderr(&a));
    // Broken input too: exit 1, never 2 (which would erase the prompt).
    let a = env.run_stdin(&repo, &["hook", "prompt-submit", "--client", "claude"], "");
    assert_eq!(code(&a), 1);
}

/// An installed repository (with `client_args`) holding the check base
/// `f-ir`: a cycle at AWAITING_USER_SIGNOFF whose contract holds, committed.
pub(crate) fn at_signoff(client_args: &[&str]) -> (Env, PathBuf) {
    let (env, repo) = Env::repo();
    write(repo.join("app.py"), "print(\"hi\")\n");
    let mut args = vec!["install"];
    args.extend_from_slice(client_args);
    env.run(&repo, &args).success();
    crate::transitions::copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/check/bases/f-ir"),
        &repo,
    );
    env.commit_all(&repo, "at sign-off");
    env.run(&repo, &["check"]).success();
    (env, repo)
}

fn signed_off_event(env: &Env, repo: &Path) -> Value {
    events(env, repo)
        .into_iter()
        .rfind(|e| e["event"] == "signed-off")
        .expect("a signed-off event")
}

#[test]
fn signoff_needs_a_person_where_the_prompt_hook_is_installed() {
    let (env, repo) = at_signoff(&["--client", "claude"]);
    let before = read(repo.join(STATE));
    // The agent alone: no person spoke since the cycle reached sign-off readiness.
    let a = env.run(&repo, &["signoff", "--reply", "yes"]).code(1);
    let err = stderr(&a);
    assert!(err.contains("no person has spoken"), "{err}");
    assert!(err.contains("--no-human-turn-check"), "{err}");
    assert_eq!(read(repo.join(STATE)), before);
    // The refusal in JSON too.
    let a = env.run(&repo, &["signoff", "--json"]).code(1);
    assert_eq!(answer(&a)["ok"], false);
    // The person speaks (the client's prompt hook); the agent relays the reply.
    hook(
        &env,
        &repo,
        "prompt-submit",
        "claude",
        &prompt_payload(&repo, "Yes, ship it."),
    )
    .success();
    let a = env.run(&repo, &["signoff"]).code(1);
    assert!(stderr(&a).contains("--reply"), "{}", stderr(&a));
    let turn = events(&env, &repo)
        .into_iter()
        .rfind(|e| e["event"] == "human-turn")
        .unwrap();
    env.run(&repo, &["signoff", "--reply", "Yes, ship it.\nThanks"])
        .success();
    assert!(read(repo.join(STATE)).contains("SIGNED_OFF"));
    let e = signed_off_event(&env, &repo);
    assert_eq!(e["reply"], "Yes, ship it.\nThanks");
    assert_eq!(e["human_turn"]["result"], "passed");
    assert_eq!(e["human_turn"]["event"], turn["id"]);
    // Bound to the content: git's own tree IDs at HEAD.
    let git = |rev: &str| env.git(&repo, &["rev-parse", rev]).trim().to_string();
    assert_eq!(e["bound"]["commit"], git("HEAD"));
    assert_eq!(e["bound"]["project_tree"], git("HEAD^{tree}"));
    assert_eq!(e["bound"]["docs_tree"], git("HEAD:.standards/docs"));
    assert_eq!(e["bound"]["uncommitted"], false);
}

#[test]
fn signoff_override_and_teams_without_the_hook_are_recorded_as_such() {
    let (env, repo) = at_signoff(&["--client", "codex"]);
    env.run(&repo, &["signoff", "--no-human-turn-check"])
        .success();
    let e = signed_off_event(&env, &repo);
    assert_eq!(e["human_turn"]["result"], "overridden");
    assert_eq!(e["human_turn"]["prompt_hook"], true);
    assert!(e["reply"].is_null());

    let (env, repo) = at_signoff(&["--client", "none"]);
    env.run(&repo, &["signoff", "--reply", "ok"]).success();
    let e = signed_off_event(&env, &repo);
    assert_eq!(e["human_turn"]["result"], "not-checked");
    assert_eq!(e["reply"], "ok");
}

#[test]
fn with_recorded_prompts_the_reply_must_be_the_persons_words() {
    let (env, repo) = at_signoff(&["--client", "claude"]);
    env.git(&repo, &["config", "standards.recordPrompts", "true"]);
    hook(
        &env,
        &repo,
        "prompt-submit",
        "claude",
        &prompt_payload(&repo, "Looks good: sign it off."),
    )
    .success();
    let a = env.run(&repo, &["signoff", "--reply", "I approve"]).code(1);
    assert!(
        stderr(&a).contains("not what the person wrote"),
        "{}",
        stderr(&a)
    );
    env.run(&repo, &["signoff", "--reply", "sign it off"])
        .success();
}

#[test]
fn verify_reports_changes_made_after_sign_off_until_the_reset() {
    let (env, repo) = at_signoff(&[]);
    env.run(&repo, &["signoff"]).success();
    env.commit_all(&repo, "signed off");
    // A reset commit alone passes.
    env.run(&repo, &["reset", "--yes", "--commit"]).success();
    env.run(&repo, &["verify", "HEAD~2..HEAD"]).success();

    let (env, repo) = at_signoff(&[]);
    env.run(&repo, &["signoff"]).success();
    env.commit_all(&repo, "signed off");
    write(repo.join("app.py"), "print(\"changed after sign-off\")\n");
    env.commit_all(&repo, "a late change");
    let a = env.run(&repo, &["verify", "HEAD~2..HEAD"]).code(1);
    let out = stdout(&a);
    assert!(out.contains("SO-001"), "{out}");
    assert!(out.contains("app.py"), "{out}");
    // JSON says the same.
    let a = env
        .run(&repo, &["verify", "HEAD~2..HEAD", "--format", "json"])
        .code(1);
    assert!(stdout(&a).contains("SO-001"));
}

/// `verify` over the last `n` commits: the SO-001 problem's text, or `None`
/// when the range passes.
fn so_001(env: &Env, repo: &Path, n: usize) -> Option<String> {
    let range = format!("HEAD~{n}..HEAD");
    let a = env.run(repo, &["verify", &range]);
    let out = stdout(&a);
    if code(&a) == 0 {
        assert!(!out.contains("SO-001"), "{out}");
        return None;
    }
    assert_eq!(code(&a), 1, "{out}{}", stderr(&a));
    assert!(out.contains("SO-001"), "{out}");
    Some(out)
}

/// Issue 26: the commit that records the sign-off carries the sign-off
/// alone. A change committed together with it, amended or folded into it
/// afterwards, staged before it, or committed between the sign-off and its
/// commit is held against the tree the `signed-off` event recorded; the
/// ordinary ways (the sign-off committed alone, a rebase onto a newer main,
/// a clone without the notes) pass or fall back to the parent.
#[test]
fn the_commit_that_records_the_sign_off_carries_nothing_else() {
    let late = "print(\"changed after sign-off\")\n";
    // Ordinary: the sign-off committed alone.
    let (env, repo) = at_signoff(&[]);
    env.run(&repo, &["signoff"]).success();
    env.commit_all(&repo, "signed off");
    assert_eq!(so_001(&env, &repo, 1), None);

    // Committed together with the sign-off.
    let (env, repo) = at_signoff(&[]);
    env.run(&repo, &["signoff"]).success();
    write(repo.join("app.py"), late);
    env.commit_all(&repo, "signed off");
    let out = so_001(&env, &repo, 1).expect("the change in the sign-off commit");
    assert!(out.contains("app.py"), "{out}");
    assert!(out.contains("records the sign-off"), "{out}");
    let signed = signed_off_event(&env, &repo)["bound"]["project_tree"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(out.contains(&signed[..12]), "{out}");
    // A fresh clone without the notes: held against the parent instead.
    let clone = repo.with_file_name("clone-without-notes");
    env.git(
        repo.parent().unwrap(),
        &[
            "clone",
            "-q",
            repo.to_str().unwrap(),
            clone.to_str().unwrap(),
        ],
    );
    let out = so_001(&env, &clone, 1).expect("the change, without the notes");
    assert!(out.contains("against its parent"), "{out}");

    // `git commit --amend` after the sign-off commit.
    let (env, repo) = at_signoff(&[]);
    env.run(&repo, &["signoff"]).success();
    env.commit_all(&repo, "signed off");
    write(repo.join("app.py"), late);
    env.git(&repo, &["commit", "-q", "-a", "--amend", "--no-edit"]);
    assert!(so_001(&env, &repo, 1).unwrap().contains("app.py"));

    // A rebase that folds a later change into the sign-off commit.
    let (env, repo) = at_signoff(&[]);
    env.run(&repo, &["signoff"]).success();
    env.commit_all(&repo, "signed off");
    write(repo.join("app.py"), late);
    env.commit_all(&repo, "a late change");
    assert!(so_001(&env, &repo, 2).is_some());
    let out = env
        .sealed("git", &repo)
        .args(["rebase", "-q", "-i", "HEAD~2"])
        .env("GIT_SEQUENCE_EDITOR", "sed -i -e '2s/^pick/fixup/'")
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        env.git(&repo, &["rev-list", "--count", "HEAD~1..HEAD"])
            .trim(),
        "1"
    );
    assert!(read(repo.join("app.py")).contains("after sign-off"));
    assert!(so_001(&env, &repo, 1).unwrap().contains("app.py"));

    // A change staged before the sign-off, committed with it.
    let (env, repo) = at_signoff(&[]);
    write(repo.join("app.py"), late);
    env.git(&repo, &["add", "app.py"]);
    env.run(&repo, &["signoff"]).success();
    env.commit_all(&repo, "signed off");
    assert!(so_001(&env, &repo, 1).unwrap().contains("app.py"));

    // Committed between the sign-off and its commit (STATE.md left out).
    let (env, repo) = at_signoff(&[]);
    env.run(&repo, &["signoff"]).success();
    write(repo.join("app.py"), late);
    env.git(&repo, &["commit", "-q", "-m", "a late change", "app.py"]);
    env.commit_all(&repo, "signed off");
    let out = so_001(&env, &repo, 2).unwrap();
    assert!(out.contains("before the commit that records it"), "{out}");

    // Ordinary: the signed-off branch rebased onto a main that moved on.
    let (env, repo) = at_signoff(&[]);
    env.git(&repo, &["switch", "-q", "-c", "work"]);
    env.run(&repo, &["signoff"]).success();
    env.commit_all(&repo, "signed off");
    env.git(&repo, &["switch", "-q", "main"]);
    write(repo.join("other.py"), "print(\"main moved on\")\n");
    env.commit_all(&repo, "main moves on");
    env.git(&repo, &["switch", "-q", "work"]);
    env.git(&repo, &["rebase", "-q", "main"]);
    assert_eq!(so_001(&env, &repo, 1), None);
}

/// The commit that records the sign-off is held against the recorded tree
/// path by path (its own changes looked up in that tree, not the two trees
/// compared whole): a nested file that became a folder is named with the
/// file now below it, an untouched file is not, and a file the commit
/// restores to its content at sign-off is not either.
#[test]
fn the_sign_off_commit_is_compared_with_the_recorded_tree_path_by_path() {
    let (env, repo) = at_signoff(&[]);
    write(repo.join("lib/a/b.py"), "print(\"b\")\n");
    write(repo.join("lib/same.py"), "print(\"same\")\n");
    env.commit_all(&repo, "nested code");
    env.run(&repo, &["signoff"]).success();
    std::fs::remove_file(repo.join("lib/a/b.py")).unwrap();
    write(repo.join("lib/a/b.py/c.py"), "print(\"c\")\n");
    env.commit_all(&repo, "signed off");
    let out = so_001(&env, &repo, 1).expect("the file turned folder");
    assert!(out.contains("lib/a/b.py/c.py"), "{out}");
    assert!(out.contains("lib/a/b.py"), "{out}");
    assert!(!out.contains("lib/same.py"), "{out}");
    assert!(out.contains("records the sign-off"), "{out}");

    // A change committed between the sign-off and its commit, undone by
    // the sign-off commit: that commit brings back the signed-off content,
    // so only the commit in between is named.
    let (env, repo) = at_signoff(&[]);
    env.run(&repo, &["signoff"]).success();
    let signed = read(repo.join("app.py"));
    write(repo.join("app.py"), "print(\"late\")\n");
    env.git(&repo, &["commit", "-q", "-m", "a late change", "app.py"]);
    write(repo.join("app.py"), &signed);
    env.commit_all(&repo, "signed off");
    assert_eq!(so_001(&env, &repo, 1), None);
    let out = so_001(&env, &repo, 2).expect("the commit in between");
    assert!(out.contains("before the commit that records it"), "{out}");
}

/// A payload that cannot be read (standard input is a folder) is each
/// hook's own error, reported by its fail-safe (exit 1, a message), never
/// taken as an empty payload that the guard would let through unseen.
#[test]
fn an_unreadable_payload_is_each_hooks_own_error() {
    let (env, repo) = installed("claude");
    // Without --client an empty payload counts as `{}`, so only the read
    // error itself can make these exit 1.
    for name in ["session-start", "edit-guard", "prompt-submit", "stop"] {
        let out = env
            .cmd(&repo)
            .args(["hook", name])
            .stdin(std::fs::File::open(&repo).unwrap())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{name}: {out:?}");
        assert!(!out.stderr.is_empty(), "{name}: {out:?}");
        assert!(out.stdout.is_empty(), "{name}: {out:?}");
    }
}
