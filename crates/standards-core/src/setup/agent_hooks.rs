//! The agent-client hooks as data and pure decisions (issue 26): which hook
//! events we register for each client, with their commands, matchers and
//! time budgets, and what each handler answers, in the client's documented
//! output format.
//!
//! Claude Code and Codex share one wire format: a JSON payload on standard
//! input (`session_id`, `cwd`, `hook_event_name`, and per event `source`,
//! `tool_name` + `tool_input`, `prompt`, `stop_hook_active`), and on exit 0 a
//! JSON object on standard output whose `hookSpecificOutput` carries
//! `additionalContext` (SessionStart) or `permissionDecision` +
//! `permissionDecisionReason` (PreToolUse). Any exit status other than 0
//! and 2 is a non-blocking error for both clients: that is how every handler
//! here fails, except where blocking is the point (the edit guard's deny, the
//! stop hook's exit 2).

use serde_json::{json, Map, Value};

use crate::invocation::Client;
use crate::workflow::summary::Summary;

use super::clients::{merge_hooks, HookMerge};

/// The git config key that makes the prompt hook keep the prompt's text in
/// its `human-turn` event (off by default: only that a person spoke is kept).
pub const RECORD_PROMPTS_KEY: &str = "standards.recordPrompts";

/// One handler we register: the hook event, its matcher, the command and the
/// time budget (seconds) the client enforces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookDef {
    pub event: &'static str,
    pub matcher: Option<&'static str>,
    pub command: String,
    pub timeout: u64,
}

/// The handler kinds, by their `git standards hook` subcommand.
pub const SESSION_START: &str = "session-start";
pub const EDIT_GUARD: &str = "edit-guard";
pub const PROMPT_SUBMIT: &str = "prompt-submit";
pub const STOP: &str = "stop";

/// Time budgets. The session start reads STATE.md and the stop hook runs a
/// check; the guard and the prompt hook sit in the user's path, so they are
/// short: the client cancels a handler past its budget, which both clients
/// treat as a non-blocking error.
pub const SESSION_START_TIMEOUT: u64 = 15;
pub const EDIT_GUARD_TIMEOUT: u64 = 10;
pub const PROMPT_SUBMIT_TIMEOUT: u64 = 10;

/// The Claude Code tools that write a file named by `tool_input.file_path`,
/// and its shell (`Bash`, the command in `tool_input.command`).
pub const CLAUDE_EDIT_TOOLS: &str = "Edit|Write|MultiEdit|Bash";
/// Codex's file edits go through `apply_patch` (its hooks also accept the
/// aliases `Edit` and `Write` for it); its shell calls reach hooks as `Bash`
/// with the command in `tool_input.command`, as Claude Code's
/// (<https://developers.openai.com/codex/hooks#pretooluse>).
pub const CODEX_EDIT_TOOLS: &str = "apply_patch|Edit|Write|Bash";
/// The shell tool's name in both clients' PreToolUse payloads.
pub const SHELL_TOOL: &str = "Bash";

/// The command of one handler for a client: Claude Code runs hooks in the
/// project it names in `CLAUDE_PROJECT_DIR`; Codex where the session is (the
/// handler finds the project upwards).
pub fn command(client: Client, kind: &str) -> String {
    match client {
        Client::Claude => {
            format!(
                "cd \"${{CLAUDE_PROJECT_DIR:-.}}\" && git standards hook {kind} --client claude"
            )
        }
        Client::Codex => format!("git standards hook {kind} --client codex"),
    }
}

/// Every handler we register for `client`, in the order they are written.
pub fn hook_set(client: Client) -> Vec<HookDef> {
    let edit = match client {
        Client::Claude => CLAUDE_EDIT_TOOLS,
        Client::Codex => CODEX_EDIT_TOOLS,
    };
    vec![
        HookDef {
            event: "SessionStart",
            matcher: None,
            command: command(client, SESSION_START),
            timeout: SESSION_START_TIMEOUT,
        },
        HookDef {
            event: "PreToolUse",
            matcher: Some(edit),
            command: command(client, EDIT_GUARD),
            timeout: EDIT_GUARD_TIMEOUT,
        },
        HookDef {
            event: "UserPromptSubmit",
            matcher: None,
            command: command(client, PROMPT_SUBMIT),
            timeout: PROMPT_SUBMIT_TIMEOUT,
        },
        HookDef {
            event: "Stop",
            matcher: None,
            command: command(client, STOP),
            timeout: super::clients::HOOK_TIMEOUT,
        },
    ]
}

impl HookDef {
    /// The handler object (`type`, `command`, `timeout`).
    pub fn handler(&self) -> Value {
        json!({"type": "command", "command": self.command, "timeout": self.timeout})
    }

    /// The matcher group holding the handler.
    pub fn group(&self) -> Value {
        let mut group = Map::new();
        if let Some(m) = self.matcher {
            group.insert("matcher".into(), json!(m));
        }
        group.insert("hooks".into(), json!([self.handler()]));
        Value::Object(group)
    }
}

/// Removes every STANDARDS handler (ours and the Node runtime's), then adds
/// `set` (when given), one group per handler, after the user's own groups.
pub fn merge_hook_set(
    settings: &mut Map<String, Value>,
    set: Option<&[HookDef]>,
    file: &str,
) -> Result<HookMerge, String> {
    let found = merge_hooks(settings, None, file)?;
    if let Some(set) = set.filter(|s| !s.is_empty()) {
        let hooks = settings
            .entry("hooks")
            .or_insert_with(|| Value::Object(Map::new()));
        let events = hooks.as_object_mut().expect("checked or created above");
        for def in set {
            events
                .entry(def.event)
                .or_insert_with(|| Value::Array(Vec::new()))
                .as_array_mut()
                .expect("merge_hooks checked every event is an array")
                .push(def.group());
        }
    }
    Ok(found)
}

/// The handlers of ours a settings object holds for the command of `kind`
/// (used to tell whether the prompt hook is registered).
pub fn registers(settings: &Value, kind: &str) -> bool {
    let needle = format!("git standards hook {kind}");
    settings
        .get("hooks")
        .and_then(Value::as_object)
        .into_iter()
        .flat_map(|events| events.values())
        .filter_map(Value::as_array)
        .flatten()
        .filter_map(|group| group.get("hooks").and_then(Value::as_array))
        .flatten()
        .filter_map(|h| h.get("command").and_then(Value::as_str))
        .any(|c| {
            c.split(&needle)
                .nth(1)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with(' '))
        })
}

// ---------------------------------------------------------------------------
// Session start

/// The context a fresh session starts with: where the workflow stands, who
/// acts next and how, and what blocks it, from the same summary `git
/// standards status` shows.
pub fn session_context(s: &Summary, client: Option<Client>) -> String {
    let mut text = String::from("STANDARDS workflow state (from `git standards status`):\n");
    let cycle = match (&s.active_work, &s.last_cycle) {
        (Some(w), _) => format!("active cycle {}", w.id),
        (None, Some(last)) => format!("no active cycle (last cycle {})", last.id),
        (None, None) => "no cycle yet".to_string(),
    };
    text.push_str(&format!("- Cycle: {cycle}\n"));
    text.push_str(&format!("- State: {}\n", s.workflow_state));
    text.push_str(&format!("- Owner: {}\n", s.next.owner));
    match &s.next.invocation {
        Some(inv) => {
            let line = match client {
                Some(Client::Codex) => inv.codex.clone(),
                Some(Client::Claude) => inv.claude_code.clone(),
                None => format!("{} (Codex: {})", inv.claude_code, inv.codex),
            };
            text.push_str(&format!("- Next invocation: {line}\n"));
        }
        None => {
            text.push_str("- Next invocation: none; the user decides next\n");
            for o in &s.next.user_options {
                text.push_str(&format!("  - {}: `{}`\n", o.action, o.command));
            }
        }
    }
    let blocked = s
        .active_work
        .as_ref()
        .and_then(|w| w.blocked_on.clone())
        .or_else(|| s.pending_cycle.blocked_on.clone());
    if let Some(q) = blocked {
        text.push_str(&format!("- Blocked on the user's answer to: {q}\n"));
    }
    for b in &s.next.blocked_by {
        text.push_str(&format!("- Blocked by: {b}\n"));
    }
    for p in s.problems.iter().take(5) {
        text.push_str(&format!("- Problem: {p}\n"));
    }
    text.push_str("Read `.standards/PROTOCOL.md` before acting on the workflow; change the state only with the `git standards` transition commands, never by editing `.standards/STATE.md`.\n");
    text
}

/// The SessionStart answer: the context as `additionalContext`.
pub fn session_answer(context: &str) -> Value {
    json!({
        "hookSpecificOutput": {
            "hookEventName": "SessionStart",
            "additionalContext": context,
        }
    })
}

// ---------------------------------------------------------------------------
// Edit guard

/// The files a tool call would write, as the payload names them (absolute,
/// or relative to the payload's `cwd`): `tool_input.file_path` for Claude
/// Code's Edit, Write and MultiEdit (and `notebook_path`), and every file an
/// `apply_patch` envelope adds, updates, deletes or moves to (Codex puts the
/// patch in `tool_input.command`; any string field holding a patch counts).
pub fn edit_targets(tool_input: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for key in ["file_path", "notebook_path", "path"] {
        if let Some(p) = tool_input.get(key).and_then(Value::as_str) {
            out.push(p.to_string());
        }
    }
    let mut strings = Vec::new();
    match tool_input {
        Value::String(s) => strings.push(s.as_str()),
        Value::Object(map) => strings.extend(map.values().filter_map(Value::as_str)),
        _ => {}
    }
    for s in strings {
        out.extend(patch_paths(s));
    }
    out
}

/// The files a shell tool call would write (`tool_name` `Bash`, the command
/// in `tool_input.command`), read lexically by
/// [`super::shell_writes::targets`]: absolute, or relative to the payload's
/// `cwd`. Any other tool names none here.
pub fn shell_targets(payload: &Value) -> Vec<String> {
    if payload.get("tool_name").and_then(Value::as_str) != Some(SHELL_TOOL) {
        return Vec::new();
    }
    payload
        .get("tool_input")
        .and_then(|i| i.get("command"))
        .and_then(Value::as_str)
        .map(super::shell_writes::targets)
        .unwrap_or_default()
}

/// The files an `apply_patch` envelope names (`*** Add File: `, `*** Update
/// File: `, `*** Delete File: `, `*** Move to: `), header lines read with
/// their surrounding whitespace trimmed, as Codex reads them.
pub fn patch_paths(patch: &str) -> Vec<String> {
    const HEADERS: [&str; 4] = [
        "*** Add File:",
        "*** Update File:",
        "*** Delete File:",
        "*** Move to:",
    ];
    patch
        .lines()
        .filter_map(|line| {
            let line = line.trim();
            HEADERS
                .iter()
                .find_map(|h| line.strip_prefix(h))
                .map(|p| p.trim().to_string())
                .filter(|p| !p.is_empty())
        })
        .collect()
}

/// Lexically normalises a `/`-separated absolute path: `.` dropped, `..`
/// taking off the component before it.
pub fn normalize(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    format!("/{}", parts.join("/"))
}

/// Why a direct edit of STATE.md is refused, and what to run instead.
pub fn deny_reason(state: Option<&Summary>) -> String {
    let mut text = String::from(
        "STANDARDS: do not edit `.standards/STATE.md` directly. The workflow state changes only through the transition commands, which check the move and record it in the audit trail: `git standards handoff --to <STATE> --reason <text>` (hand the cycle to the next role), `git standards fail --type <FailureType> --reason <text>`, `git standards rework`, `git standards resume`, `git standards block --on <question>`, `git standards unblock`, and for the user's decisions `git standards start`, `signoff --reply <text>`, `cancel`, `policy`, `promote`, `next-mode` (`git standards <command> --help` shows each).",
    );
    if let Some(s) = state {
        text.push_str(&format!(
            " Now: {} (owned by the {}); `git standards status` shows the next step.",
            s.workflow_state, s.next.owner
        ));
    } else {
        text.push_str(" `git standards status` shows the current state and the next step.");
    }
    text.push_str(" A hand edit is allowed only to resolve a merge conflict in STATE.md.");
    text
}

/// The PreToolUse deny answer.
pub fn deny_answer(reason: &str) -> Value {
    json!({
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": reason,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patch_headers_name_every_file_a_patch_touches() {
        let patch = "*** Begin Patch\n*** Update File: src/a.rs\n@@\n-x\n+y\n  *** Add File: .standards/STATE.md \n+hi\n*** Delete File: old.md\n*** Update File: b.md\n*** Move to: c.md\n*** End Patch\n";
        assert_eq!(
            patch_paths(patch),
            ["src/a.rs", ".standards/STATE.md", "old.md", "b.md", "c.md"]
        );
        assert!(patch_paths("*** Update File:   \n+*** not a header").is_empty());
    }

    #[test]
    fn edit_targets_read_claude_and_codex_inputs() {
        let claude =
            json!({"file_path": "/p/.standards/STATE.md", "old_string": "a", "new_string": "b"});
        assert_eq!(edit_targets(&claude), ["/p/.standards/STATE.md"]);
        let codex = json!({"command": "*** Begin Patch\n*** Update File: .standards/STATE.md\n*** End Patch"});
        assert_eq!(edit_targets(&codex), [".standards/STATE.md"]);
        let raw = json!("*** Begin Patch\n*** Add File: x\n*** End Patch");
        assert_eq!(edit_targets(&raw), ["x"]);
        assert!(edit_targets(&json!({"command": "ls"})).is_empty());
        assert!(edit_targets(&json!(null)).is_empty());
    }

    #[test]
    fn shell_targets_read_the_bash_command_of_either_client() {
        // Claude Code's and Codex's documented PreToolUse payloads for a
        // shell call: `tool_name` `Bash`, the command in `tool_input`.
        let claude = json!({"session_id": "s", "cwd": "/p", "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "sed -i s/a/b/ .standards/STATE.md", "description": "edit"}});
        let codex = json!({"session_id": "s", "turn_id": "t", "cwd": "/p", "hook_event_name": "PreToolUse", "model": "gpt-5", "tool_name": "Bash", "tool_input": {"command": "echo x > .standards/STATE.md"}, "tool_use_id": "c"});
        assert_eq!(shell_targets(&claude), [".standards/STATE.md"]);
        assert_eq!(shell_targets(&codex), [".standards/STATE.md"]);
        // Another tool's command (an `apply_patch` envelope) is no shell.
        let patch = json!({"tool_name": "apply_patch", "tool_input": {"command": "echo x > .standards/STATE.md"}});
        assert!(shell_targets(&patch).is_empty());
        assert!(shell_targets(&json!({"tool_name": "Bash"})).is_empty());
    }

    #[test]
    fn normalize_resolves_dots() {
        assert_eq!(
            normalize("/a/b/../.standards/./STATE.md"),
            "/a/.standards/STATE.md"
        );
        assert_eq!(normalize("/../x"), "/x");
        assert_eq!(normalize("/a//b/"), "/a/b");
    }

    #[test]
    fn hook_sets_register_four_events_with_budgets() {
        for client in [Client::Claude, Client::Codex] {
            let set = hook_set(client);
            let events: Vec<&str> = set.iter().map(|d| d.event).collect();
            assert_eq!(
                events,
                ["SessionStart", "PreToolUse", "UserPromptSubmit", "Stop"]
            );
            for d in &set {
                assert!(d.command.contains(super::super::clients::OUR_HOOK_MARK));
                assert!(d
                    .command
                    .ends_with(&format!("--client {}", client.as_str())));
                assert!(d.timeout > 0 && d.timeout <= 120);
            }
        }
        // The stop command stays the one older installs registered.
        assert_eq!(
            command(Client::Claude, STOP),
            super::super::clients::CLAUDE_HOOK_COMMAND
        );
        assert_eq!(
            command(Client::Codex, STOP),
            super::super::clients::CODEX_HOOK_COMMAND
        );
    }

    #[test]
    fn merging_a_set_keeps_user_groups_and_replaces_ours() {
        let mut m = super::super::clients::parse_object(
            r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"audit.sh"}]},{"matcher":"Edit|Write","hooks":[{"type":"command","command":"node .standards/bin/hook.mjs pre-tool-use"}]}]}}"#,
            "s",
        )
        .unwrap();
        let set = hook_set(Client::Claude);
        let found = merge_hook_set(&mut m, Some(&set), "s").unwrap();
        assert_eq!(found.node_events, ["PreToolUse"]);
        let pre = m["hooks"]["PreToolUse"].as_array().unwrap();
        assert_eq!(pre.len(), 2);
        assert_eq!(pre[0]["hooks"][0]["command"], "audit.sh");
        assert_eq!(pre[1]["matcher"], CLAUDE_EDIT_TOOLS);
        let v = Value::Object(m.clone());
        for kind in [SESSION_START, EDIT_GUARD, PROMPT_SUBMIT, STOP] {
            assert!(registers(&v, kind), "{kind}");
        }
        assert!(!registers(&v, "prompt"));
        // Twice changes nothing; removal leaves the user's group alone.
        let again = merge_hook_set(&mut m, Some(&set), "s").unwrap();
        assert_eq!(again.before.len(), 4);
        assert_eq!(Value::Object(m.clone()), v);
        merge_hook_set(&mut m, None, "s").unwrap();
        assert_eq!(
            Value::Object(m),
            json!({"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"audit.sh"}]}]}})
        );
    }

    #[test]
    fn answers_take_the_documented_shapes() {
        let a = deny_answer("why");
        assert_eq!(a["hookSpecificOutput"]["hookEventName"], "PreToolUse");
        assert_eq!(a["hookSpecificOutput"]["permissionDecision"], "deny");
        assert_eq!(a["hookSpecificOutput"]["permissionDecisionReason"], "why");
        let s = session_answer("ctx");
        assert_eq!(s["hookSpecificOutput"]["hookEventName"], "SessionStart");
        assert_eq!(s["hookSpecificOutput"]["additionalContext"], "ctx");
        let r = deny_reason(None);
        for words in ["git standards handoff", "signoff --reply", "merge conflict"] {
            assert!(r.contains(words), "{words}");
        }
    }
}
