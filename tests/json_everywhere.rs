//! Issue 25, CLI conventions: `--json` on every command and every path. The
//! subcommands come from the parser itself, so a new one cannot land
//! without a row here: each one with `--json` answers one JSON object with
//! `"ok": false` when it fails (outside a repository, and on a usage error,
//! exit 2) and `"ok": true` when it succeeds (a walk through a real
//! repository below); each one without `--json` says why here.

use std::path::Path;

use serde_json::Value;

use crate::common::{stdout, write, Env};

/// Leaf subcommands without `--json`, and why.
const WITHOUT_JSON: &[(&str, &str)] = &[
    (
        "completions",
        "prints a shell script for the shell to source",
    ),
    ("manpages", "prints or installs roff manual pages"),
    ("demo", "a guided tour, written for a person to read"),
    (
        "merge-driver",
        "git's merge driver: git reads its exit code and the file it wrote",
    ),
    ("verify", "`--format json` (with text and github)"),
    (
        "hook session-start",
        "the agent client's hook protocol decides what it prints",
    ),
    (
        "hook edit-guard",
        "the agent client's hook protocol decides what it prints",
    ),
    (
        "hook prompt-submit",
        "the agent client's hook protocol decides what it prints",
    ),
    (
        "hook pre-commit",
        "git's pre-commit hook: its exit code decides; `check --staged --json` is the JSON form",
    ),
    (
        "hook stop",
        "the agent client's hook protocol decides what it prints",
    ),
];

/// Each leaf with `--json`: arguments that parse, so the failure outside a
/// repository is the command's own (the success runs in [`walk`]).
const WITH_JSON: &[(&str, &[&str])] = &[
    ("install", &["install"]),
    ("check", &["check"]),
    ("cycle new", &["cycle", "new", "--request", "x"]),
    ("artifact init", &["artifact", "init", "SCOPE"]),
    ("id next", &["id", "next", "AC", "scope.md"]),
    (
        "record add",
        &["record", "add", "plan.md", "DEV", "--title", "x"],
    ),
    ("record set", &["record", "set", "plan.md", "Status=DONE"]),
    ("status", &["status"]),
    ("hook pre-receive", &["hook", "pre-receive"]),
    (
        "hook update",
        &["hook", "update", "refs/heads/main", "0", "0"],
    ),
    ("invocation", &["invocation", "scoper"]),
    ("start", &["start", "--request", "x"]),
    ("handoff", &["handoff", "--to", "SCOPING", "--reason", "x"]),
    ("fail", &["fail", "--type", "SCOPING", "--reason", "x"]),
    ("rework", &["rework", "--type", "SCOPING", "--request", "x"]),
    ("resume", &["resume"]),
    ("promote", &["promote", "--reason", "x"]),
    ("policy", &["policy", "full-deliverable"]),
    ("cadence", &["cadence", "incremental"]),
    ("signoff", &["signoff"]),
    ("cancel", &["cancel", "--yes"]),
    ("block", &["block", "--on", "x"]),
    ("unblock", &["unblock"]),
    ("next-mode", &["next-mode", "standard"]),
    ("log", &["log"]),
    ("board", &["board"]),
    ("notes sync", &["notes", "sync"]),
    ("resolve", &["resolve", "--keep", "ours", "--yes"]),
    ("merge-guard", &["merge-guard"]),
    ("hooks install", &["hooks", "install"]),
    ("hooks status", &["hooks", "status"]),
    ("hooks uninstall", &["hooks", "uninstall"]),
    ("reset", &["reset", "--yes"]),
    ("uninstall", &["uninstall", "--yes"]),
    ("archive list", &["archive", "list"]),
    ("archive show", &["archive", "show", "x"]),
    ("archive restore", &["archive", "restore", "x", "STATE.md"]),
    ("recover", &["recover"]),
];

/// Every leaf subcommand (`hook update`, `status`...) and whether it takes `--json`.
fn leaves() -> Vec<(String, bool)> {
    fn walk(c: &clap::Command, prefix: &str, out: &mut Vec<(String, bool)>) {
        for s in c.get_subcommands().filter(|s| s.get_name() != "help") {
            let name = format!("{prefix}{}", s.get_name());
            if s.has_subcommands() {
                walk(s, &format!("{name} "), out);
            } else {
                let json = s.get_arguments().any(|a| a.get_long() == Some("json"));
                out.push((name, json));
            }
        }
    }
    let mut out = Vec::new();
    walk(&git_standards::cli::expanded_command(), "", &mut out);
    out
}

/// One JSON object on stdout, with `ok` as expected and the exit code
/// that goes with it.
fn answer(env: &Env, dir: &Path, args: &[&str], ok: bool) -> Value {
    let mut all = args.to_vec();
    all.push("--json");
    let out = env.cmd(dir).args(&all).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let v: Value = serde_json::from_str(&text).unwrap_or_else(|e| {
        panic!(
            "{all:?}: stdout is not one JSON object ({e}): {text}\nstderr: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    assert_eq!(v["ok"], ok, "{all:?}: {v:#}");
    let code = out.status.code();
    if ok {
        assert_eq!(code, Some(0), "{all:?}: {v:#}");
    } else {
        assert!(matches!(code, Some(1 | 2)), "{all:?}: {code:?} {v:#}");
        assert!(v["error"].is_string(), "{all:?}: {v:#}");
    }
    v
}

#[test]
fn every_subcommand_has_json_or_says_why_not() {
    let leaves = leaves();
    for (name, json) in &leaves {
        let listed = WITH_JSON.iter().any(|(n, _)| n == name);
        let exempt = WITHOUT_JSON.iter().any(|(n, _)| n == name);
        assert!(
            *json && listed || !*json && exempt,
            "`{name}` (--json: {json}) must be in WITH_JSON when it takes --json, else in WITHOUT_JSON with the reason"
        );
    }
    let named = WITH_JSON.iter().map(|(n, _)| n);
    for name in named.chain(WITHOUT_JSON.iter().map(|(n, _)| n)) {
        assert!(
            leaves.iter().any(|(n, _)| n == name),
            "`{name}` is no subcommand"
        );
    }
}

/// The failure paths: outside a repository (each command's own refusal,
/// exit 1), and a usage error (exit 2), both one JSON object with
/// `"ok": false` and the error.
#[test]
fn every_json_command_fails_in_json() {
    let env = Env::new();
    let outside = env.dir.path().join("not-a-repository");
    std::fs::create_dir_all(&outside).unwrap();
    for (name, args) in WITH_JSON {
        if *name == "hook pre-receive" {
            // Reads the pushed refs from standard input first; below.
            continue;
        }
        if *name == "invocation" {
            // Its own result object (runtime-tools §6.8): outside a project
            // the catalog is unavailable, exit 1.
            let out = env
                .cmd(&outside)
                .args(["invocation", "scoper", "--json"])
                .output()
                .unwrap();
            let v: Value = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(
                (v["catalogStatus"].as_str(), out.status.code()),
                (Some("unavailable"), Some(1)),
                "{v:#}"
            );
        } else {
            answer(&env, &outside, args, false);
        }
        let mut bad = args.to_vec();
        bad.push("--no-such-option");
        let v = answer(&env, &outside, &bad, false);
        assert!(
            v["error"].as_str().unwrap().contains("--no-such-option"),
            "{name}: {v:#}"
        );
    }
    let out = env.run_stdin(
        &outside,
        &["hook", "pre-receive", "--json"],
        "0 0 refs/heads/main\n",
    );
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["ok"], false, "{v:#}");
}

/// The success paths, walked through one real repository: install, a cycle
/// from start to cancel and a sign-off, the records commands, the hooks, the
/// notes shared with a local bare remote, a resolved conflict, a reset and an
/// archive read back, the merge guard, and the uninstall.
#[test]
fn every_json_command_succeeds_in_json() {
    let (env, repo) = Env::repo();
    write(repo.join("app.py"), "print('hi')\n");
    let ok = |args: &[&str]| answer(&env, &repo, args, true);
    ok(&["install"]);
    env.commit_all(&repo, "install");
    ok(&["status"]);
    ok(&["check"]);
    ok(&["recover"]);
    ok(&["hooks", "status"]);
    ok(&["hooks", "install"]);
    ok(&["hooks", "uninstall"]);
    ok(&["merge-guard"]);
    ok(&["cycle", "new", "--request", "Fix the typo"]);
    ok(&["start", "--request", "Fix the typo", "--mode", "expedited"]);
    // `invocation --json` prints the result object of its own contract
    // (runtime-tools §6.8, exit 1 while the catalog is unavailable); its
    // failures carry `"ok": false` like every other command's.
    let out = env
        .cmd(&repo)
        .args(["invocation", "developer", "--json"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["schemaVersion"], 1, "{v:#}");
    assert_eq!(v["role"], "developer", "{v:#}");
    ok(&["block", "--on", "Which file?"]);
    ok(&["unblock"]);
    let plan = ok(&["artifact", "init", "DEVELOPMENT"])["path"]
        .as_str()
        .unwrap()
        .to_string();
    ok(&["id", "next", "DEV", &plan]);
    ok(&["record", "add", &plan, "DEV", "--title", "Fix it"]);
    ok(&["record", "set", &plan, "DEV-001", "Status=DONE"]);
    ok(&[
        "fail",
        "--type",
        "IMPLEMENTATION",
        "--reason",
        "The test fails.",
    ]);
    ok(&["promote", "--reason", "It needs a review."]);
    ok(&["policy", "full-deliverable"]);
    let board = ok(&["board"]);
    assert!(
        board["rows"]
            .as_array()
            .is_some_and(|rows| !rows.is_empty()),
        "{board}"
    );
    ok(&["cadence", "incremental"]);
    ok(&["cancel", "--yes"]);
    ok(&["next-mode", "standard"]);
    let log = stdout(&env.run(&repo, &["log", "--json"]).success());
    for line in log.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        assert!(v["event"].is_string(), "{v}");
    }
    // A cycle at sign-off readiness: rework, resume and handoff, then signoff.
    let (env2, ready) = crate::agent_hooks::at_signoff(&[]);
    let ok2 = |args: &[&str]| answer(&env2, &ready, args, true);
    ok2(&[
        "rework",
        "--type",
        "IMPLEMENTATION",
        "--request",
        "Keep the old name.",
    ]);
    ok2(&["resume"]);
    let (env3, ready) = crate::agent_hooks::at_signoff(&[]);
    answer(&env3, &ready, &["signoff"], true);
    // The notes shared with a bare remote on disk.
    env.bare_origin(&repo);
    ok(&["notes", "sync"]);
    // A STATE.md conflict, resolved.
    env.commit_all(&repo, "cancelled");
    let main = env.git(&repo, &["rev-parse", "--abbrev-ref", "HEAD"]);
    let main = main.trim();
    env.git(&repo, &["checkout", "-q", "-b", "other"]);
    ok(&["start", "--request", "Other work", "--mode", "expedited"]);
    env.commit_all(&repo, "other");
    env.git(&repo, &["checkout", "-q", main]);
    ok(&["start", "--request", "Main work", "--mode", "expedited"]);
    env.commit_all(&repo, "main");
    env.sealed("git", &repo)
        .args(["merge", "other"])
        .output()
        .unwrap();
    ok(&["resolve", "--keep", "ours", "--yes"]);
    env.git(&repo, &["merge", "--abort"]);
    // Reset, the archive read back, and the uninstall.
    let reset = ok(&["reset", "--yes"]);
    let archive = reset["archive"].as_str().unwrap();
    let name = archive
        .split('@')
        .next()
        .unwrap()
        .trim_start_matches("refs/standards/archive/")
        .to_string();
    ok(&["archive", "list"]);
    ok(&["archive", "show", &name]);
    let record = plan.trim_start_matches(".standards/");
    ok(&["archive", "restore", &name, record]);
    assert!(repo.join(&plan).is_file(), "restored");
    ok(&["uninstall", "--yes"]);
    // The server hooks, on a push of the repository's own history.
    let head = env.git(&repo, &["rev-parse", "HEAD"]);
    let zero = "0".repeat(40);
    ok(&["hook", "update", "refs/heads/topic", &zero, head.trim()]);
    let out = env.run_stdin(
        &repo,
        &["hook", "pre-receive", "--json"],
        &format!("{zero} {} refs/heads/topic\n", head.trim()),
    );
    let v: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["ok"], true, "{v:#}");
}
