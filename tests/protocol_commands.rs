//! Every `git standards ...` command that the installed protocol files name
//! exists, with every option they give it: the protocol tells an agent to stop
//! when a tool is missing, so a named command that the CLI rejects stops every
//! agent that follows the text (issue 9, point 6).

use std::path::Path;

/// Commands the protocol names that another piece of work adds (the agent
/// clients' `invocation`). The test fails once one exists, so the entry is
/// removed and the command checked like the others.
const AWAITED: &[&str] = &[];

/// Every `git standards` mention in a text: the words after it up to the
/// end of the code span or line.
fn mentions(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, _) in text.match_indices("git standards") {
        let rest = &text[i + "git standards".len()..];
        let end = rest.find(['`', '\n']).unwrap_or(rest.len());
        out.push(rest[..end].trim().to_string());
    }
    out
}

/// Checks one mention against the clap definition; `Err` says what is wrong.
fn check(root: &clap::Command, mention: &str) -> Result<(), String> {
    let mut cmd = root.clone();
    let mut path = Vec::new();
    let mut tokens = mention.split_whitespace().peekable();
    while let Some(word) = tokens.peek() {
        let word = word.trim_end_matches([',', '.', ')', ';', ':']);
        if !word.chars().next().is_some_and(|c| c.is_ascii_lowercase()) {
            break;
        }
        if cmd.get_subcommands().next().is_none() {
            break; // positional values or prose after a leaf command
        }
        // `list\|show\|restore`: each alternative must be a subcommand.
        if word.contains('|') {
            for alt in word.split('|').map(|a| a.trim_matches('\\')) {
                if cmd.find_subcommand(alt).is_none() {
                    return Err(format!(
                        "`git standards {}` has no subcommand `{alt}`",
                        path.join(" ")
                    ));
                }
            }
            return Ok(());
        }
        match cmd.find_subcommand(word) {
            Some(sub) => {
                path.push(word.to_string());
                cmd = sub.clone();
                tokens.next();
            }
            None if path.is_empty() && AWAITED.contains(&word) => return Ok(()),
            None => {
                return Err(format!(
                    "`git standards {}` has no subcommand `{word}`",
                    path.join(" ")
                ))
            }
        }
    }
    for token in tokens {
        let token = token.trim_start_matches(['[', '(']);
        let Some(flag) = token.strip_prefix("--") else {
            if let Some(short) = token.strip_prefix('-').filter(|s| s.len() == 1) {
                let c = short.chars().next().unwrap();
                let known = cmd
                    .get_arguments()
                    .chain(root.get_arguments())
                    .any(|a| a.get_short() == Some(c))
                    || c == 'h'
                    || c == 'V';
                if !known {
                    return Err(format!(
                        "`git standards {}` has no option `-{c}`",
                        path.join(" ")
                    ));
                }
            }
            continue;
        };
        let name: String = flag
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
            .collect();
        if name.is_empty() {
            continue;
        }
        let known = name == "help"
            || name == "version"
            || cmd
                .get_arguments()
                .chain(root.get_arguments())
                .any(|a| a.get_long() == Some(name.as_str()));
        if !known {
            return Err(format!(
                "`git standards {}` has no option `--{name}`",
                path.join(" ")
            ));
        }
    }
    Ok(())
}

fn protocol_files() -> Vec<std::path::PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/standards-core/src/assets");
    let mut out = Vec::new();
    let mut stack = vec![dir];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "md") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_command_the_installed_protocol_names_is_accepted_by_the_cli() {
    let root = git_standards::cli::expanded_command();
    let mut problems = Vec::new();
    let mut checked = 0;
    for file in protocol_files() {
        let text = std::fs::read_to_string(&file).unwrap();
        for m in mentions(&text) {
            checked += 1;
            if let Err(e) = check(&root, &m) {
                problems.push(format!(
                    "{}: `git standards {m}`: {e}",
                    file.file_name().unwrap().to_string_lossy()
                ));
            }
        }
    }
    assert!(checked > 20, "only {checked} mentions found");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn awaited_commands_do_not_exist_yet() {
    let root = git_standards::cli::expanded_command();
    for name in AWAITED {
        assert!(
            root.find_subcommand(name).is_none(),
            "`git standards {name}` exists now: remove it from AWAITED so its mentions are checked"
        );
    }
}

#[test]
fn the_checker_rejects_what_the_cli_does_not_accept() {
    let root = git_standards::cli::expanded_command();
    assert!(check(&root, "reset --mode greenfield --dry-run").is_ok());
    assert!(check(&root, "cycle new --request \"<request>\"").is_ok());
    assert!(check(&root, "reset --force").is_err());
    assert!(check(&root, "frobnicate").is_err());
    assert!(check(&root, "cycle old").is_err());
    assert!(check(
        &root,
        "install [--mode greenfield\\|brownfield] [--dry-run]"
    )
    .is_ok());
    assert!(check(&root, "archive list\\|show\\|restore").is_ok());
    assert!(check(&root, "archive list\\|purge").is_err());
}
