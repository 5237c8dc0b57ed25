//! `install --client`, `hook stop --client` and the removal of what install
//! added, against real repositories (RT §7.6, §7.8, §8; SC-INST, SC-UNIN, SC-HOOK).

use std::path::Path;

use serde_json::{json, Value};

use crate::common::{files_below, read, stderr, stdout, write, Env};

fn json_of(path: impl AsRef<Path>) -> Value {
    serde_json::from_str(&read(path)).unwrap()
}

/// Every file below `root` with its bytes, `.git` skipped.
fn snapshot(root: &Path) -> Vec<(String, Vec<u8>)> {
    files_below(root)
        .into_iter()
        .map(|p| {
            let full = root.join(&p);
            let bytes = match std::fs::read_link(&full) {
                Ok(target) => target.to_string_lossy().into_owned().into_bytes(),
                Err(_) => std::fs::read(&full).unwrap(),
            };
            (p, bytes)
        })
        .collect()
}

const ROLES: [&str; 9] = [
    "architect",
    "auditor",
    "developer",
    "documenter",
    "navigator",
    "reviewer",
    "scoper",
    "synchronizer",
    "tester",
];

#[test]
fn sc_inst_001_002_003_both_clients_on_a_first_install() {
    let (env, repo) = Env::repo();
    env.run(&repo, &["install", "--client", "both"]).success();
    assert!(read(repo.join(".agents/skills/scoper/agents/openai.yaml"))
        .contains("allow_implicit_invocation: false"));
    assert!(read(repo.join(".claude/skills/scoper/SKILL.md"))
        .contains("<!-- standards:framework-owned -->"));
    assert!(read(repo.join("CLAUDE.md")).contains("@AGENTS.md"));
    assert!(read(repo.join("AGENTS.md")).contains(".standards/PROTOCOL.md"));
    let record = json_of(repo.join(".standards/INSTALLATION.json"));
    assert_eq!(
        record["createdPaths"],
        json!([
            ".agents",
            ".agents/skills",
            ".claude",
            ".claude/skills",
            ".claude/settings.json",
            ".codex",
            ".codex/hooks.json"
        ])
    );
    assert_eq!(
        record["hooks"],
        json!([".codex/hooks.json", ".claude/settings.json"])
    );
    let owned = record["managedClientSettings"][".claude/settings.json"]["skillOverrides"]
        .as_object()
        .unwrap()
        .clone();
    let settings = json_of(repo.join(".claude/settings.json"));
    assert_eq!(
        settings["$schema"],
        "https://json.schemastore.org/claude-code-settings.json"
    );
    for role in ROLES {
        assert_eq!(owned[role], "user-invocable-only");
        assert_eq!(settings["skillOverrides"][role], "user-invocable-only");
    }
    let codex = json_of(repo.join(".codex/hooks.json"));
    // Issue 26: the Stop hook of SC-INST-001 and the session-start, edit
    // guard and prompt hooks, each event once.
    for hooks in [&codex["hooks"], &settings["hooks"]] {
        let events: Vec<&String> = hooks.as_object().unwrap().keys().collect();
        assert_eq!(
            events,
            ["SessionStart", "PreToolUse", "UserPromptSubmit", "Stop"],
            "{hooks}"
        );
    }
    assert_eq!(
        codex["hooks"]["PreToolUse"][0]["matcher"],
        "apply_patch|Edit|Write|Bash"
    );
    assert_eq!(
        settings["hooks"]["PreToolUse"][0]["matcher"],
        "Edit|Write|MultiEdit|Bash"
    );
    let command = codex["hooks"]["Stop"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap();
    assert!(command.contains("git standards hook stop --client codex"));
    assert_eq!(codex["hooks"]["Stop"][0]["hooks"][0]["timeout"], 120);
    assert!(settings["hooks"]["Stop"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .contains("git standards hook stop --client claude"));
    assert!(!files_below(&repo)
        .iter()
        .any(|p| p.starts_with(".standards-install-")));
    // SC-INST-007: a reinstall changes nothing.
    let before = snapshot(&repo);
    let out = stdout(&env.run(&repo, &["install"]).success());
    assert!(out.contains("Verified"), "{out}");
    assert!(out.contains("Clients: codex, claude; hooks: on"), "{out}");
    assert_eq!(snapshot(&repo), before);
}

#[test]
fn sc_inst_005_an_existing_project_keeps_its_files_and_its_compatible_setting() {
    let (env, repo) = Env::repo();
    write(repo.join("src/app.js"), "x\n");
    write(repo.join("AGENTS.md"), "# Project\nKeep\n");
    write(repo.join("CLAUDE.md"), "# Claude notes\n@AGENTS.md\n");
    write(
        repo.join(".claude/settings.json"),
        "{\"theme\": \"dark\", \"skillOverrides\": {\"scoper\": \"user-invocable-only\"}}\n",
    );
    env.run(&repo, &["install", "--client", "both"]).success();
    assert!(read(repo.join("AGENTS.md")).starts_with("# Project\nKeep\n\n<!-- standards:start -->"));
    assert_eq!(read(repo.join("CLAUDE.md")), "# Claude notes\n@AGENTS.md\n");
    assert_eq!(json_of(repo.join(".claude/settings.json"))["theme"], "dark");
    let record = json_of(repo.join(".standards/INSTALLATION.json"));
    let owned = record["managedClientSettings"][".claude/settings.json"]["skillOverrides"]
        .as_object()
        .unwrap();
    assert_eq!(owned.len(), 8);
    assert!(!owned.contains_key("scoper"));
    assert_eq!(
        record["createdPaths"],
        json!([
            ".agents",
            ".agents/skills",
            ".claude/skills",
            ".codex",
            ".codex/hooks.json"
        ])
    );
    assert_eq!(read(repo.join("src/app.js")), "x\n");
}

#[test]
fn refusals_change_nothing_sc_inst_010_013_017_018() {
    type Setup<'a> = &'a dyn Fn(&Path);
    let cases: [(&str, Setup); 4] = [
        ("skill collision", &|r| {
            write(r.join(".agents/skills/scoper/SKILL.md"), "# mine\n")
        }),
        (
            "conflicting .claude/settings.json skillOverrides.scoper",
            &|r| {
                write(
                    r.join(".claude/settings.json"),
                    "{\"skillOverrides\": {\"scoper\": \"on\"}}",
                )
            },
        ),
        ("invalid STANDARDS block in AGENTS.md", &|r| {
            write(r.join("AGENTS.md"), "<!-- standards:start -->\n")
        }),
        ("refusing symbolic link", &|r| {
            std::fs::create_dir_all(r.join("elsewhere")).unwrap();
            std::os::unix::fs::symlink(r.join("elsewhere"), r.join(".claude")).unwrap();
        }),
    ];
    for (message, setup) in cases {
        let (env, repo) = Env::repo();
        setup(&repo);
        let before = snapshot(&repo);
        let a = env.run(&repo, &["install", "--client", "both"]).failure();
        assert!(stderr(&a).contains(message), "{message}: {}", stderr(&a));
        assert_eq!(snapshot(&repo), before, "{message}");
        assert!(!repo.join(".standards").exists());
    }
}

const USER_SETTINGS: &str = r#"{
    "theme": "dark",
    "hooks": {
        "Stop": [ { "hooks": [ { "type": "command", "command": "npm run lint" } ] } ]
    },
    "skillOverrides": {
        "architect": "user-invocable-only", "auditor": "user-invocable-only",
        "developer": "user-invocable-only", "documenter": "user-invocable-only",
        "navigator": "user-invocable-only", "reviewer": "user-invocable-only",
        "scoper": "user-invocable-only", "synchronizer": "user-invocable-only",
        "tester": "user-invocable-only"
    }
}
"#;

#[test]
fn user_settings_stay_byte_for_byte_when_nothing_of_ours_changes_them() {
    let (env, repo) = Env::repo();
    write(repo.join(".claude/settings.json"), USER_SETTINGS);
    env.run(&repo, &["install", "--client", "claude", "--no-hooks"])
        .success();
    assert_eq!(read(repo.join(".claude/settings.json")), USER_SETTINGS);
    env.run(&repo, &["install"]).success();
    assert_eq!(read(repo.join(".claude/settings.json")), USER_SETTINGS);
    let out = stdout(&env.run(&repo, &["install", "--client", "none"]).success());
    assert!(out.contains("Clients removed: claude"), "{out}");
    assert_eq!(read(repo.join(".claude/settings.json")), USER_SETTINGS);
    assert!(!repo.join(".claude/skills").exists());
    assert!(!repo.join("CLAUDE.md").exists() && !repo.join("AGENTS.md").exists());
}

#[test]
fn sc_inst_030_user_hooks_and_settings_survive_install_reinstall_and_removal() {
    let (env, repo) = Env::repo();
    let settings = json!({"theme": "dark", "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "npm run lint"}]}]}});
    let codex = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "audit.sh"}]}]}});
    let pretty = |v: &Value| format!("{}\n", serde_json::to_string_pretty(v).unwrap());
    write(repo.join(".claude/settings.json"), pretty(&settings));
    write(repo.join(".codex/hooks.json"), pretty(&codex));
    write(repo.join(".codex/config.toml"), "model = \"x\"\n");
    env.run(&repo, &["install", "--client", "both"]).success();
    let s = json_of(repo.join(".claude/settings.json"));
    let keys: Vec<&str> = s.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, ["theme", "hooks", "skillOverrides"], "order kept");
    let stop = s["hooks"]["Stop"].as_array().unwrap();
    assert_eq!(stop.len(), 2);
    assert_eq!(stop[0]["hooks"][0]["command"], "npm run lint");
    // The user's own PreToolUse group comes first, untouched; our edit guard follows.
    let pre = &json_of(repo.join(".codex/hooks.json"))["hooks"]["PreToolUse"];
    assert_eq!(pre[0], codex["hooks"]["PreToolUse"][0]);
    assert_eq!(pre.as_array().unwrap().len(), 2);
    let installed = snapshot(&repo);
    env.run(&repo, &["install"]).success();
    assert_eq!(snapshot(&repo), installed, "a reinstall keeps every byte");
    env.run(&repo, &["install", "--client", "none"]).success();
    assert_eq!(read(repo.join(".codex/hooks.json")), pretty(&codex));
    // Issue 24: the `skillOverrides` key install added goes with its entries.
    assert_eq!(read(repo.join(".claude/settings.json")), pretty(&settings));
    assert_eq!(read(repo.join(".codex/config.toml")), "model = \"x\"\n");
}

#[test]
fn sc_unin_006_crlf_blocks_and_a_user_import_are_restored() {
    let (env, repo) = Env::repo();
    write(repo.join("AGENTS.md"), "# Project\r\nKeep me\r\n");
    write(
        repo.join("CLAUDE.md"),
        "# Personal guidance\r\n@AGENTS.md\r\n",
    );
    env.run(&repo, &["install", "--client", "both"]).success();
    let agents = read(repo.join("AGENTS.md"));
    assert!(!agents.replace("\r\n", "").contains('\n'), "CRLF kept");
    write(repo.join("AGENTS.md"), format!("{agents}\r\nMine\r\n"));
    env.run(&repo, &["install", "--client", "none"]).success();
    assert_eq!(
        read(repo.join("AGENTS.md")),
        "# Project\r\nKeep me\r\n\r\nMine\r\n"
    );
    assert_eq!(
        read(repo.join("CLAUDE.md")),
        "# Personal guidance\r\n@AGENTS.md\r\n"
    );
}

#[test]
fn changed_values_are_kept_with_a_warning_and_missing_ones_restored() {
    let (env, repo) = Env::repo();
    env.run(&repo, &["install", "--client", "claude"]).success();
    let path = repo.join(".claude/settings.json");
    let mut s = json_of(&path);
    s["skillOverrides"]["developer"] = json!("auto");
    s["skillOverrides"]
        .as_object_mut()
        .unwrap()
        .remove("tester");
    write(&path, serde_json::to_string_pretty(&s).unwrap());
    let out = stdout(&env.run(&repo, &["install"]).success());
    assert!(
        out.contains("Restored: .claude/settings.json skillOverrides.tester (missing)"),
        "{out}"
    );
    assert!(
        out.contains(
            "Warning: Kept your changed setting .claude/settings.json skillOverrides.developer"
        ),
        "{out}"
    );
    let s = json_of(&path);
    assert_eq!(s["skillOverrides"]["developer"], "auto");
    assert_eq!(s["skillOverrides"]["tester"], "user-invocable-only");
    // A changed skill file survives the removal, with a warning.
    let skill = repo.join(".claude/skills/developer/SKILL.md");
    write(&skill, format!("{}\nMy notes.\n", read(&skill)));
    let out = stdout(&env.run(&repo, &["install", "--client", "none"]).success());
    assert!(
        out.contains("Warning: Kept changed skill file .claude/skills/developer/SKILL.md"),
        "{out}"
    );
    assert!(read(&skill).ends_with("My notes.\n"));
    assert!(!repo.join(".claude/skills/developer/modes").exists());
    assert!(!repo.join(".claude/skills/tester").exists());
    assert_eq!(
        json_of(&path)["skillOverrides"],
        json!({"developer": "auto"})
    );
}

#[test]
fn without_client_the_existing_folders_decide_and_say_so() {
    let (env, repo) = Env::repo();
    let out = stdout(&env.run(&repo, &["install"]).success());
    assert!(out.contains("no agent client was set up"), "{out}");
    assert!(!repo.join(".claude").exists() && !repo.join(".agents").exists());
    let (env, repo) = Env::repo();
    std::fs::create_dir_all(repo.join(".claude")).unwrap();
    let out = stdout(&env.run(&repo, &["install"]).success());
    assert!(
        out.contains("setting up Claude Code because its folder exists"),
        "{out}"
    );
    assert!(repo.join(".claude/skills/navigator/SKILL.md").is_file());
    assert!(!repo.join(".agents").exists());
}

const NODE_CLAUDE: &str = r#"{
  "theme": "dark",
  "hooks": {
    "Stop": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "node \"${CLAUDE_PROJECT_DIR}/.standards/bin/hook.mjs\" stop",
            "timeout": 120
          }
        ]
      }
    ]
  }
}
"#;

const NODE_CODEX: &str = r#"{
  "hooks": {
    "Stop": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "d=\"$PWD\"; while [ ! -f \"$d/.standards/bin/hook.mjs\" ] && [ \"$d\" != / ]; do d=$(dirname \"$d\"); done; node \"$d/.standards/bin/hook.mjs\" stop",
            "timeout": 120
          }
        ]
      }
    ]
  }
}
"#;

/// Runs a hook command the way a client does: `sh -c`, with `git-standards`
/// on PATH so that `git standards` finds it.
fn run_client_command(env: &Env, dir: &Path, command: &str, payload: &str) -> std::process::Output {
    use std::io::Write;
    let bin_dir = Env::bin().parent().unwrap().to_path_buf();
    let path = format!("{}:{}", bin_dir.display(), std::env::var("PATH").unwrap());
    let mut child = env
        .sealed("sh", dir)
        .args(["-c", command])
        .env("PATH", path)
        .env("CLAUDE_PROJECT_DIR", dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(payload.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn a_node_installed_project_is_upgraded_to_our_hook_with_no_dead_handler() {
    let (env, repo) = Env::repo();
    env.run(&repo, &["install", "--client", "both", "--no-hooks"])
        .success();
    // What the Node runtime leaves: its tools and its hook in both clients.
    write(repo.join(".standards/bin/hook.mjs"), "// node\n");
    write(repo.join(".claude/settings.json"), {
        let mut s: Value = serde_json::from_str(NODE_CLAUDE).unwrap();
        s["skillOverrides"] = json_of(repo.join(".claude/settings.json"))["skillOverrides"].clone();
        serde_json::to_string_pretty(&s).unwrap()
    });
    write(repo.join(".codex/hooks.json"), NODE_CODEX);
    let record_path = repo.join(".standards/INSTALLATION.json");
    let mut record = json_of(&record_path);
    record["hooks"] = json!([".codex/hooks.json", ".claude/settings.json"]);
    write(&record_path, serde_json::to_string_pretty(&record).unwrap());
    env.commit_all(&repo, "node install");

    let out = stdout(&env.run(&repo, &["install"]).success());
    assert!(out.contains("Node runtime"), "{out}");
    assert!(!repo.join(".standards/bin").exists());
    for file in [".claude/settings.json", ".codex/hooks.json"] {
        let text = read(repo.join(file));
        assert!(!text.contains("hook.mjs"), "{file}: {text}");
        let v: Value = serde_json::from_str(&text).unwrap();
        let stop = v["hooks"]["Stop"].as_array().unwrap();
        assert_eq!(stop.len(), 1, "{file}");
    }
    assert_eq!(json_of(repo.join(".claude/settings.json"))["theme"], "dark");
    env.commit_all(&repo, "upgraded");

    // The registered commands run our hook: a problem sends the agent back.
    write(
        repo.join("docs/broken.md"),
        "<!-- STANDARDS\nArtifact: SCOPE\n-->\n# x\n",
    );
    let claude = json_of(repo.join(".claude/settings.json"))["hooks"]["Stop"][0]["hooks"][0]
        ["command"]
        .as_str()
        .unwrap()
        .to_string();
    let o = run_client_command(
        &env,
        &repo.join("docs"),
        &claude,
        r#"{"stop_hook_active": false, "session_id": "s"}"#,
    );
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(String::from_utf8_lossy(&o.stderr).contains("docs/broken.md"));
    let codex = json_of(repo.join(".codex/hooks.json"))["hooks"]["Stop"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .to_string();
    let o = run_client_command(
        &env,
        &repo.join("docs"),
        &codex,
        r#"{"stop_hook_active": false, "turn_id": "t"}"#,
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let answer: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(answer["decision"], "block");
    assert!(answer["reason"]
        .as_str()
        .unwrap()
        .contains("docs/broken.md"));
}

#[test]
fn hook_stop_client_rejects_a_payload_that_is_not_a_json_object() {
    let (env, repo) = Env::repo();
    env.run(&repo, &["install"]).success();
    for client in ["claude", "codex"] {
        for payload in ["not json", "[1]", ""] {
            let mut cmd = env.cmd(&repo);
            cmd.args(["hook", "stop", "--client", client]);
            let a = assert_cmd::Command::from_std(cmd)
                .write_stdin(payload)
                .assert()
                .code(1);
            let err = String::from_utf8(a.get_output().stderr.clone()).unwrap();
            assert!(err.contains("STANDARDS hook error"), "{err}");
            assert!(err.contains("not a JSON object"), "{err}");
        }
    }
    // Without --client the old lenient reading stays: nothing changed, exit 0.
    env.commit_all(&repo, "installed");
    let mut cmd = env.cmd(&repo);
    cmd.args(["hook", "stop"]);
    assert_cmd::Command::from_std(cmd)
        .write_stdin("not json")
        .assert()
        .code(0);
    // An unknown client is the hook's usage error: exit 1, never 2.
    let mut cmd = env.cmd(&repo);
    cmd.args(["hook", "stop", "--client", "cursor"]);
    assert_cmd::Command::from_std(cmd)
        .write_stdin("{}")
        .assert()
        .code(1);
}

#[test]
fn the_hook_returns_without_reading_20000_unchanged_files() {
    let (env, repo) = Env::repo();
    env.run(&repo, &["install"]).success();
    for d in 0..100 {
        for f in 0..200 {
            let ext = if f % 2 == 0 { "md" } else { "txt" };
            write(repo.join(format!("d{d}/f{f}.{ext}")), format!("{d} {f}\n"));
        }
    }
    env.backdate_files(&repo);
    env.commit_all(&repo, "20000 files");
    // (exit code, files and blobs read, files read from disk)
    let reads = |payload: &str| -> (i32, usize, usize) {
        let mut cmd = env.cmd(&repo);
        cmd.args(["hook", "stop", "--client", "claude"])
            .env("GIT_STANDARDS_COUNT_READS", "1");
        let a = assert_cmd::Command::from_std(cmd)
            .write_stdin(payload)
            .assert();
        let err = String::from_utf8(a.get_output().stderr.clone()).unwrap();
        let reads = crate::common::Reads::from_stderr(&err);
        (
            a.get_output().status.code().unwrap(),
            reads.files,
            reads.disk,
        )
    };
    let (code, n, _) = reads("{\"stop_hook_active\": false}");
    assert_eq!(code, 0);
    assert!(n <= 2, "the fast path read {n} files");
    // The seam counts: once a workflow file changed, check runs and reads
    // it, and only it, from disk: the 9,999 unchanged Markdown files are
    // their blobs, which this first check finds plain.
    write(repo.join("d0/f0.md"), "changed\n");
    let (_, n, disk) = reads("{\"stop_hook_active\": false}");
    assert!((1..10).contains(&disk), "check read {disk} files from disk");
    assert!(n > 9_999, "the first check read only {n} files and blobs");
    // The next check knows those blobs are plain and reads none of them:
    // only the runtime's own files and the changed one.
    write(repo.join("d0/f0.md"), "changed again\n");
    let (_, n, _) = reads("{\"stop_hook_active\": false}");
    assert!((1..50).contains(&n), "check read {n} files and blobs");
}

#[test]
fn sc_unin_001_uninstall_removes_exactly_what_install_added() {
    let (env, repo) = Env::repo();
    write(repo.join("app.js"), "x\n");
    env.run(&repo, &["install", "--client", "both"]).success();
    env.commit_all(&repo, "installed");
    env.run(&repo, &["uninstall", "--yes"]).success();
    for gone in [
        ".standards",
        ".agents",
        ".claude",
        ".codex",
        "AGENTS.md",
        "CLAUDE.md",
    ] {
        assert!(!repo.join(gone).exists(), "{gone}");
    }
    assert_eq!(read(repo.join("app.js")), "x\n");
}

/// Issue 29 item 2: a Node install with its stop handler and its
/// pre-tool-use guard: install reports each handler by its kind and
/// replaces the guard with our edit guard, which then refuses an edit of
/// STATE.md as the Node guard did.
#[test]
fn each_node_handler_is_reported_by_its_kind_and_the_guard_is_replaced_by_ours() {
    let (env, repo) = Env::repo();
    env.run(&repo, &["install", "--client", "claude", "--no-hooks"])
        .success();
    write(repo.join(".standards/bin/hook.mjs"), "// node\n");
    let mut settings: Value = serde_json::from_str(NODE_CLAUDE).unwrap();
    settings["hooks"]["PreToolUse"] = json!([{
        "matcher": "Edit|Write|MultiEdit",
        "hooks": [{
            "type": "command",
            "command": "node \"${CLAUDE_PROJECT_DIR}/.standards/bin/hook.mjs\" pre-tool-use",
            "timeout": 30
        }]
    }]);
    settings["skillOverrides"] =
        json_of(repo.join(".claude/settings.json"))["skillOverrides"].clone();
    write(
        repo.join(".claude/settings.json"),
        serde_json::to_string_pretty(&settings).unwrap(),
    );
    let record_path = repo.join(".standards/INSTALLATION.json");
    let mut record = json_of(&record_path);
    record["hooks"] = json!([".claude/settings.json"]);
    write(&record_path, serde_json::to_string_pretty(&record).unwrap());
    env.commit_all(&repo, "node install");

    let dry = stdout(&env.run(&repo, &["install", "--dry-run"]).success());
    let out = stdout(&env.run(&repo, &["install"]).success());
    for out in [&dry, &out] {
        assert!(!out.contains("stop-hook handler(s)"), "{out}");
        let stop: Vec<&str> = out
            .lines()
            .filter(|l| l.contains("Node runtime's stop handler"))
            .collect();
        assert_eq!(stop.len(), 1, "{out}");
        assert!(
            stop[0].starts_with("Next: Replaced")
                && stop[0].contains("git standards hook stop --client claude"),
            "{out}"
        );
        let guard: Vec<&str> = out
            .lines()
            .filter(|l| l.contains("pre-tool-use guard"))
            .collect();
        assert_eq!(guard.len(), 1, "{out}");
        assert!(guard[0].starts_with("Next: Replaced"), "{out}");
        assert!(
            guard[0].contains("git standards hook edit-guard --client claude"),
            "{out}"
        );
        assert!(!out.contains("Warning:"), "{out}");
    }
    let now = json_of(repo.join(".claude/settings.json"));
    let pre = now["hooks"]["PreToolUse"].as_array().unwrap();
    assert_eq!(pre.len(), 1, "{now}");
    assert_eq!(pre[0]["matcher"], "Edit|Write|MultiEdit|Bash");
    assert!(pre[0]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .ends_with("git standards hook edit-guard --client claude"));
    assert_eq!(now["hooks"]["Stop"].as_array().unwrap().len(), 1);
    assert!(!read(repo.join(".claude/settings.json")).contains("hook.mjs"));
    // The replacement guards as the Node one did: an Edit of STATE.md is denied.
    let state = repo.join(".standards/STATE.md");
    let payload = json!({
        "session_id": "s", "cwd": repo, "hook_event_name": "PreToolUse",
        "tool_name": "Edit",
        "tool_input": {"file_path": state, "old_string": "a", "new_string": "b"},
    });
    let a = env.run_stdin(
        &repo,
        &["hook", "edit-guard", "--client", "claude"],
        &payload.to_string(),
    );
    let answer: Value = serde_json::from_str(&stdout(&a)).unwrap();
    assert_eq!(answer["hookSpecificOutput"]["permissionDecision"], "deny");
}

/// With hooks off, the Node guard is removed with nothing in its place: a warning.
#[test]
fn a_node_guard_removed_with_hooks_off_is_a_warning() {
    let (env, repo) = Env::repo();
    env.run(&repo, &["install", "--client", "claude", "--no-hooks"])
        .success();
    let mut settings = json_of(repo.join(".claude/settings.json"));
    settings["hooks"] = json!({"PreToolUse": [{
        "matcher": "Edit|Write|MultiEdit",
        "hooks": [{"type": "command", "command": "node .standards/bin/hook.mjs pre-tool-use"}]
    }]});
    write(
        repo.join(".claude/settings.json"),
        serde_json::to_string_pretty(&settings).unwrap(),
    );
    env.commit_all(&repo, "node guard");
    let out = stdout(&env.run(&repo, &["install", "--no-hooks"]).success());
    let guard: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("pre-tool-use guard"))
        .collect();
    assert_eq!(guard.len(), 1, "{out}");
    assert!(guard[0].starts_with("Warning: removed"), "{out}");
    assert!(guard[0].contains("hooks are off"), "{out}");
    assert!(json_of(repo.join(".claude/settings.json"))
        .get("hooks")
        .is_none());
}

/// Issue 29 item 3: settings written with 2 spaces, 4 spaces, tabs or on one
/// line keep their style: install adds our entries in it (git's diff shows
/// only added lines, and the comma the entry before them needs), and taking
/// the integration out again gives back the user's bytes.
#[test]
fn settings_in_every_style_change_only_our_entries_and_come_back_byte_for_byte() {
    let claude = json!({
        "theme": "dark",
        "permissions": {"allow": ["Bash(npm test)", "Read"], "deny": []},
        "hooks": {"PostToolUse": [{"matcher": "Edit", "hooks": [{"type": "command", "command": "npm run lint"}]}]},
        // Removal leaves an emptied `skillOverrides` object in place (it
        // never deletes a key the user may have had), so the user has one.
        "skillOverrides": {}
    });
    let codex = json!({
        "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "make check", "timeout": 30}]}]}
    });
    let pretty = |v: &Value, unit: &str| {
        let mut out = Vec::new();
        let f = serde_json::ser::PrettyFormatter::with_indent(unit.as_bytes());
        serde::Serialize::serialize(v, &mut serde_json::Serializer::with_formatter(&mut out, f))
            .unwrap();
        String::from_utf8(out).unwrap() + "\n"
    };
    type Style = Box<dyn Fn(&Value) -> String>;
    let styles: Vec<(&str, Style)> = vec![
        ("2 spaces", Box::new(move |v| pretty(v, "  "))),
        ("4 spaces", Box::new(move |v| pretty(v, "    "))),
        ("tabs", Box::new(move |v| pretty(v, "\t"))),
        ("compact", Box::new(|v| serde_json::to_string(v).unwrap())),
    ];
    for (name, style) in &styles {
        let (env, repo) = Env::repo();
        let files = [
            (".claude/settings.json", style(&claude)),
            (".codex/hooks.json", style(&codex)),
        ];
        for (path, text) in &files {
            write(repo.join(path), text);
        }
        env.commit_all(&repo, "user settings");
        env.run(&repo, &["install", "--client", "both"]).success();
        for (path, text) in &files {
            let now = read(repo.join(path));
            assert!(
                now.contains("git standards hook stop"),
                "{name} {path}: {now}"
            );
            assert_eq!(now.ends_with('\n'), text.ends_with('\n'), "{name} {path}");
            if *name == "compact" {
                assert!(!now.contains('\n'), "{name} {path}: {now}");
                continue;
            }
            let diff = env.git(&repo, &["diff", "-U0", "--", path]);
            let removed: Vec<&str> = diff
                .lines()
                .filter(|l| l.starts_with('-') && !l.starts_with("---"))
                .collect();
            let added: Vec<&str> = diff
                .lines()
                .filter(|l| l.starts_with('+') && !l.starts_with("+++"))
                .collect();
            // A removed line only ever comes back with a comma after it, or
            // opened up for the entries we add (`{}` becoming `{`).
            for line in &removed {
                let with_comma = format!("+{},", &line[1..]);
                let opened = format!("+{}", line[1..].replace("{}", "{"));
                assert!(
                    added.contains(&with_comma.as_str())
                        || (line.ends_with("{}") && added.contains(&opened.as_str())),
                    "{name} {path}: {diff}"
                );
            }
            assert!(removed.len() <= 2, "{name} {path}: {diff}");
            let indent = match *name {
                "tabs" => "\t",
                "4 spaces" => "    ",
                _ => "  ",
            };
            for line in &added {
                let body = &line[1..];
                let lead = body.len() - body.trim_start().len();
                assert_eq!(lead % indent.len(), 0, "{name} {path}: {body:?}");
                assert!(
                    body[..lead].chars().all(|c| indent.contains(c)),
                    "{name} {path}: {body:?}"
                );
            }
        }
        env.run(&repo, &["install", "--client", "none"]).success();
        for (path, text) in &files {
            assert_eq!(read(repo.join(path)), *text, "{name} {path}");
        }
    }
}
