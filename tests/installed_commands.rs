//! Every `git standards ...` runtime-tool command that the INSTALLED text
//! names (everything `install --client both` writes: PROTOCOL.md, its
//! chapters, the role skills and their modes, AGENTS.md, CLAUDE.md) runs as
//! written in the situation that names it: a role skill's record commands on
//! that role's record of an active cycle, the protocol's on the record its
//! placeholder names (issue 25). The commands are read from the installed
//! files, not from a list here; only the values of placeholders (`<plan>`,
//! `<request>`, `<ID>`) are filled in, as an agent fills them in.
//!
//! Covered here: `artifact init`, `id next`, `record add`, `record set`,
//! `check`, `status`, `invocation`, `cycle new`, `--version`. Transitions,
//! which need their gates to pass, are run by the scripted agent walk; the
//! installer commands (`reset`, `uninstall`, `recover`, `archive`) by their
//! own tests; `protocol_commands` checks that every named command parses.

use crate::common::{files_below, shell_words, stdout, Env};

/// Every code span of `text` that is a `git standards` command.
fn commands(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('`') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('`') else { break };
        let span = &after[..close];
        if let Some(command) = span.strip_prefix("git standards ") {
            out.push(command.trim().to_string());
        }
        rest = &after[close + 1..];
    }
    out
}

/// The record type a placeholder or a prefix names, given the file that
/// names it (a role skill's `<report>` is that role's report).
fn record_for(placeholder: &str, source: &str) -> &'static str {
    let role = source
        .split("/skills/")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .unwrap_or("");
    match (placeholder, role) {
        ("<plan>", _) | ("DEV", _) => "DEVELOPMENT",
        ("<scope>", _) | ("AC", _) => "SCOPE",
        ("F", _) | ("<report>", "reviewer") => "REVIEW",
        ("<report>", "tester") => "VERIFICATION",
        ("DOC", _) | ("<record>", "documenter") => "DOCUMENTATION",
        ("D", _) | ("<record>", "synchronizer") => "SYNCHRONIZATION",
        _ => "",
    }
}

/// A synopsis written for people (`[<ID>]`, `<AC\|DEV\|...>`,
/// `Field=VALUE`) rather than a command an agent runs as it stands.
fn is_synopsis(command: &str) -> bool {
    command.contains('[') || command.contains("\\|") || command.contains("Field=VALUE")
}

/// The value an agent gives a placeholder (`<plan>` is left for [`fill`]).
fn value_of(placeholder: &str) -> &'static str {
    match placeholder {
        "<TYPE>" => "SCOPE",
        "<prefix>" | "<PREFIX>" => "DEV",
        "<request>" | "<new request>" | "<changed request>" | "<request text>" => "Add search",
        "<question>" => "Which index?",
        "<role>" | "<next role>" | "<owner role>" => "developer",
        "<codex|claude>" | "<client>" => "codex",
        _ => "text",
    }
}

/// The command with its placeholders filled in for `records` (type -> path),
/// or `None` when it names a record this situation does not hold.
fn fill(command: &str, source: &str, records: &[(&str, String)]) -> Option<Vec<String>> {
    const PATHS: [&str; 5] = ["<plan>", "<scope>", "<report>", "<record>", "<file>"];
    // Placeholders may hold spaces (`<next role>`): replace them first.
    let mut text = String::new();
    let mut rest = command;
    while let Some(open) = rest.find('<') {
        let Some(close) = rest[open..].find('>') else {
            break;
        };
        let placeholder = &rest[open..open + close + 1];
        text.push_str(&rest[..open]);
        if PATHS.contains(&placeholder) {
            text.push_str(placeholder);
        } else {
            text.push_str(value_of(placeholder));
        }
        rest = &rest[open + close + 1..];
    }
    text.push_str(rest);
    let words = shell_words(&text);
    // The record a record command works on: its placeholder, else its prefix.
    let prefix = words
        .iter()
        .find(|w| matches!(w.as_str(), "AC" | "DEV" | "F" | "D" | "DOC"))
        .cloned();
    let mut out = Vec::new();
    for w in words {
        if PATHS.contains(&w.as_str()) {
            let mut t = record_for(&w, source);
            if t.is_empty() {
                t = record_for(prefix.as_deref()?, source);
            }
            out.push(
                records
                    .iter()
                    .find(|(k, _)| *k == t)
                    .map(|(_, p)| p.clone())?,
            );
        } else {
            out.push(w);
        }
    }
    Some(out)
}

/// Names of a tool in prose (`` `git standards cycle new` ``), not commands.
const BARE: &[&str] = &[
    "artifact init",
    "cycle new",
    "id next",
    "record add",
    "record set",
    "start",
];

const RUN: &[&str] = &[
    "artifact",
    "id",
    "record",
    "check",
    "status",
    "invocation",
    "cycle",
    "--version",
];

#[test]
fn every_runtime_tool_command_of_the_installed_text_runs_in_its_situation() {
    let (env, repo) = Env::repo();
    std::fs::write(repo.join("app.py"), "print('hi')\n").unwrap();
    env.run(&repo, &["install", "--client", "both"]).success();
    // The installed text, read before any cycle exists.
    let mut named: Vec<(String, String)> = Vec::new();
    for rel in files_below(&repo) {
        if rel.starts_with(".git/") || rel == "app.py" {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(repo.join(&rel)) else {
            continue;
        };
        for c in commands(&text) {
            named.push((rel.clone(), c));
        }
    }
    assert!(
        named.iter().any(|(f, _)| f.contains("skills/developer/")),
        "the skills were installed and read"
    );
    env.commit_all(&repo, "install");
    let runnable = |command: &str| {
        let first = command.split_whitespace().next().unwrap_or("");
        RUN.contains(&first)
            && !is_synopsis(command)
            && !BARE.contains(&command)
            && !command.contains("hook")
    };
    let run = |source: &str, command: &str, words: Vec<String>| -> Option<String> {
        let args: Vec<&str> = words.iter().map(String::as_str).collect();
        let out = env.cmd(&repo).args(&args).output().unwrap();
        let code = out.status.code();
        // `check` exits 1 for problems found (the skeletons' placeholders):
        // that is its report, not a refusal.
        let ok = code == Some(0) || (args[0] == "check" && code == Some(1));
        (!ok).then(|| {
            format!(
                "{source}: `git standards {command}` (run as {args:?}) exited {code:?}: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            )
        })
    };
    let mut ran = 0;
    let mut failed = Vec::new();
    // `cycle new` is named for the moment before a cycle starts.
    for (source, command) in named.iter().filter(|(_, c)| c.starts_with("cycle new")) {
        if runnable(command) {
            ran += 1;
            failed.extend(run(source, command, fill(command, source, &[]).unwrap()));
        }
    }
    env.run(&repo, &["start", "--request", "Add search"])
        .success();
    // Every record of the cycle, with a first item of each kind.
    let mut records: Vec<(&str, String)> = Vec::new();
    for (t, extra) in [
        ("SCOPE", None),
        ("ARCHITECTURE", None),
        ("DEVELOPMENT", None),
        ("VERIFICATION", None),
        ("REVIEW", Some("IMPLEMENTATION")),
        ("DOCUMENTATION", None),
        ("SYNCHRONIZATION", None),
    ] {
        let mut args = vec!["artifact", "init", t, "--skeleton"];
        if let Some(kind) = extra {
            args.extend(["--kind", kind]);
        }
        let a = env.run(&repo, &args).success();
        records.push((t, stdout(&a).trim().to_string()));
    }
    for (source, command) in named.iter().filter(|(_, c)| !c.starts_with("cycle new")) {
        if !runnable(command) {
            continue;
        }
        match fill(command, source, &records) {
            Some(words) => {
                ran += 1;
                failed.extend(run(source, command, words));
            }
            None => failed.push(format!(
                "{source}: `{command}`: names no record of this situation"
            )),
        }
    }
    assert!(ran >= 20, "only {ran} commands ran: {named:#?}");
    assert!(
        failed.is_empty(),
        "named commands that do not run: {failed:#?}"
    );
}

/// The extraction itself: spans only, quoted words kept whole.
#[test]
fn commands_are_read_from_code_spans() {
    let text = "Run `git standards record set <plan> Status=APPROVED \"User Style Locked=true\"`, not git standards prose.";
    assert_eq!(
        commands(text),
        ["record set <plan> Status=APPROVED \"User Style Locked=true\""]
    );
    assert_eq!(
        shell_words("record set <plan> Status=APPROVED \"User Style Locked=true\""),
        [
            "record",
            "set",
            "<plan>",
            "Status=APPROVED",
            "User Style Locked=true"
        ]
    );
    let records = vec![("DEVELOPMENT", "p.md".to_string())];
    assert_eq!(
        fill(
            "record add <plan> DEV --title \"<outcome>\"",
            "x/skills/developer/SKILL.md",
            &records
        )
        .unwrap(),
        ["record", "add", "p.md", "DEV", "--title", "text"]
    );
    assert!(fill(
        "record add <report> F",
        "x/skills/reviewer/SKILL.md",
        &records
    )
    .is_none());
    assert!(is_synopsis("record set <file> [<ID>] Field=VALUE"));
}
