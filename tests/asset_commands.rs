//! Every `git standards …` command line the project shows a user or an agent
//! parses with our command-line definition: each code span in the embedded
//! assets (role skills, mode files, the installed protocol text, every file
//! under `crates/standards-core/src/assets/`), each code span in a string of
//! the Rust sources of both crates (hints, messages, managed blocks), and the
//! stop-hook commands install registers.
//! Placeholders (`<role>`, `<TYPE>`) take a value the argument accepts,
//! optional parts (`[--json]`) are included, and of alternatives (`ours|theirs`)
//! the first is taken.

use std::path::{Path, PathBuf};

use clap::Parser;
use git_standards::cli::Cli;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            files(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// The text of every inline code span on each line of `text`.
fn code_spans(text: &str) -> Vec<String> {
    text.lines()
        .flat_map(|line| line.split('`').skip(1).step_by(2))
        .map(str::to_string)
        .collect()
}

/// The command lines (after `git standards `) in `text`'s code spans. In a
/// Rust source only spans inside one string literal count, and a format
/// string (with `{`) cannot be read before it is filled.
fn command_lines(text: &str, rust: bool) -> Vec<String> {
    let mut out = Vec::new();
    let sources: Vec<String> = if rust {
        text.lines().map(str::to_string).collect()
    } else {
        vec![text.to_string()]
    };
    for source in sources {
        for span in code_spans(&source) {
            let Some(rest) = span.trim().strip_prefix("git standards ") else {
                continue;
            };
            if rust && (rest.contains('{') || rest.contains('"')) {
                continue;
            }
            // `\|` is a bar inside a Markdown table; a `\` before a closing
            // backtick escapes it in a shell string.
            out.push(rest.replace("\\|", "|").trim_end_matches('\\').to_string());
        }
    }
    out
}

/// Splits like a shell (quotes group, a pipe or `&&` ends the command); a
/// `<…>` placeholder is one token even with spaces inside.
fn tokens(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut angle = false;
    let mut any = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => cur.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                any = true;
            }
            (None, '<') => {
                angle = true;
                cur.push(c);
            }
            (None, '>') => {
                angle = false;
                cur.push(c);
            }
            (None, ' ') if angle => cur.push('_'),
            (None, ' ') => {
                if !cur.is_empty() || any {
                    out.push(std::mem::take(&mut cur));
                }
                any = false;
                if matches!(chars.peek(), Some('|' | '&' | ';' | '>')) {
                    return out;
                }
            }
            (None, '[' | ']') => {}
            (None, c) => cur.push(c),
        }
    }
    if !cur.is_empty() || any {
        out.push(cur);
    }
    out
}

/// A value `arg` accepts, for a placeholder named `name`.
fn sample(arg: Option<&clap::Arg>, name: &str) -> String {
    if let Some(v) = arg.and_then(|a| a.get_possible_values().into_iter().next()) {
        return v.get_name().to_string();
    }
    match name {
        "range" => "main..HEAD".into(),
        "remote" => "origin".into(),
        _ if name.contains("branch") => "main".into(),
        _ if name.ends_with("file")
            || ["scope", "plan", "design", "report", "record"].contains(&name) =>
        {
            "x.md".into()
        }
        _ => name.into(),
    }
}

/// An argument vector with the positions where a placeholder was filled in.
struct Argv {
    args: Vec<String>,
    filled: Vec<usize>,
}

/// The argument vector for `line`, placeholders filled in through the clap
/// definition; `None` for a line that shows no concrete command (`<TAB>`).
fn argv(line: &str) -> Option<Argv> {
    let words: Vec<String> = tokens(line)
        .into_iter()
        .map(|w| w.trim_end_matches([',', ':', ')']).to_string())
        .filter(|w| !w.is_empty())
        .collect();
    let top = git_standards::cli::expanded_command();
    let mut cmd = &top;
    let mut out = Argv {
        args: vec!["git-standards".to_string()],
        filled: Vec::new(),
    };
    let push = |out: &mut Argv, (v, placeholder): (String, bool)| {
        if placeholder {
            out.filled.push(out.args.len());
        }
        out.args.push(v);
    };
    let mut positional = 0;
    let mut i = 0;
    while i < words.len() {
        let w = &words[i];
        i += 1;
        if let Some(flag) = w.strip_prefix("--").filter(|f| !f.is_empty()) {
            // Of flag alternatives (`--staged|--ref <rev>`) the last takes the value.
            let flag = flag.rsplit("|--").next().unwrap_or(flag);
            let (name, inline) = match flag.split_once('=') {
                Some((n, v)) => (n.to_string(), Some(v.to_string())),
                None => (flag.to_string(), None),
            };
            out.args.push(format!("--{name}"));
            let arg = cmd.get_arguments().find(|a| a.get_long() == Some(&name));
            let takes = arg.is_some_and(|a| a.get_action().takes_values());
            if let Some(v) = inline {
                push(&mut out, value(arg, &v));
            } else if takes && i < words.len() {
                push(&mut out, value(arg, &words[i]));
                i += 1;
            }
            continue;
        }
        if let Some(short) = w.strip_prefix('-').and_then(|s| s.chars().next()) {
            if w.len() == 2 {
                out.args.push(w.clone());
                let arg = cmd.get_arguments().find(|a| a.get_short() == Some(short));
                if arg.is_some_and(|a| a.get_action().takes_values()) && i < words.len() {
                    push(&mut out, value(arg, &words[i]));
                    i += 1;
                }
                continue;
            }
        }
        if w == "..." || w == "…" {
            continue;
        }
        if positional == 0 && cmd.has_subcommands() {
            if w.starts_with('<') {
                return None; // `git standards <subcommand>`, `<TAB>`
            }
            let first = w.split('|').next().unwrap_or(w);
            if let Some(sub) = cmd.find_subcommand(first) {
                cmd = sub;
                out.args.push(first.to_string());
                continue;
            }
        }
        let arg = cmd.get_positionals().nth(positional);
        positional += 1;
        push(&mut out, value(arg, w));
    }
    (out.args.len() > 1).then_some(out)
}

/// A concrete value for a written one (and whether it was a placeholder):
/// the first of alternatives, a sample for a placeholder.
fn value(arg: Option<&clap::Arg>, written: &str) -> (String, bool) {
    if written == "..." || written == "…" {
        return (sample(arg, "x"), true);
    }
    let inner = written.strip_prefix('<').and_then(|w| w.strip_suffix('>'));
    let text = inner.unwrap_or(written);
    let first = text.split('|').next().unwrap_or(text);
    if inner.is_some() && !text.contains('|') {
        let name = first.replace('_', " ").replace(' ', "-").to_lowercase();
        return (sample(arg, &name), true);
    }
    (first.to_string(), false)
}

/// Values tried, in turn, for a placeholder whose argument checks its value
/// itself (a workflow state, a failure type, a policy, a cadence, a mode).
const CANDIDATES: [&str; 8] = [
    "DEVELOPING",
    "IMPLEMENTATION",
    "FULL_DELIVERABLE",
    "INCREMENTAL",
    "STANDARD",
    "DEVELOPMENT",
    "AC",
    "x",
];

fn parses(line: &str) -> Result<(), String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let Some(mut argv) = argv(line) else {
        return Ok(());
    };
    let mut tried = vec![0usize; argv.args.len()];
    loop {
        let e = match Cli::try_parse_from(&argv.args) {
            Ok(_) => return Ok(()),
            Err(e) => e,
        };
        match e.kind() {
            // The line names the command; a required part may follow in prose.
            ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::MissingRequiredArgument
            | ErrorKind::MissingSubcommand
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => return Ok(()),
            ErrorKind::InvalidValue | ErrorKind::ValueValidation => {
                let bad = match e.get(ContextKind::InvalidValue) {
                    Some(ContextValue::String(v)) => v.clone(),
                    _ => String::new(),
                };
                let at = argv
                    .filled
                    .iter()
                    .copied()
                    .find(|&i| argv.args[i] == bad && tried[i] < CANDIDATES.len());
                if let Some(i) = at {
                    argv.args[i] = CANDIDATES[tried[i]].to_string();
                    tried[i] += 1;
                    continue;
                }
            }
            _ => {}
        }
        return Err(format!("{:?}: {}", argv.args, e.render()));
    }
}

#[test]
fn every_command_line_in_the_assets_and_messages_parses() {
    let mut paths = Vec::new();
    files(&root().join("src"), &mut paths);
    files(&root().join("crates/standards-core/src"), &mut paths);
    paths.sort();
    let mut failures = Vec::new();
    let mut checked = 0;
    let mut assets = 0;
    for path in &paths {
        let rust = path.extension().is_some_and(|e| e == "rs");
        let in_assets = path.starts_with(root().join("crates/standards-core/src/assets"));
        if !rust && !in_assets {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        for line in command_lines(&text, rust) {
            checked += 1;
            assets += usize::from(in_assets);
            if let Err(e) = parses(&line) {
                failures.push(format!(
                    "{}: `git standards {line}`: {e}",
                    path.strip_prefix(root()).unwrap().display()
                ));
            }
        }
    }
    use standards_core::setup::clients::{CLAUDE_HOOK_COMMAND, CODEX_HOOK_COMMAND};
    for hook in [CLAUDE_HOOK_COMMAND, CODEX_HOOK_COMMAND] {
        let line = hook
            .split("git standards ")
            .nth(1)
            .expect("a git standards command");
        checked += 1;
        if let Err(e) = parses(line) {
            failures.push(format!("stop hook `{hook}`: {e}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} command lines do not parse:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        assets > 150,
        "only {assets} command lines found in the assets"
    );
}

#[test]
fn the_reader_fills_placeholders_and_catches_what_does_not_exist() {
    assert!(parses("invocation <role> --client <codex|claude> --json").is_ok());
    assert!(parses("artifact init <TYPE>").is_ok());
    assert!(parses("resolve --keep ours|theirs [--yes]").is_ok());
    assert!(parses("status | head -1").is_ok());
    assert!(parses("-C 'my app' reset --commit").is_ok());
    assert!(parses("check --no-such-flag").is_err());
    assert!(parses("no-such-command").is_err());
    assert!(parses("artifact init NOTATYPE").is_err());
    assert!(parses("handoff --to NOWHERE --reason x").is_err());
}
