//! Manual pages and shell completions, generated from the one clap definition.
//!
//! clap_mangen renders the pages; a small pass over its roff then turns the
//! doc comments' conventions into man-page structure: a paragraph that is an
//! upper-case heading alone (`EXIT STATUS`, `EXAMPLES`) becomes a section, and
//! `code` becomes bold. It also names the value of short-only options in the
//! SYNOPSIS, which clap_mangen leaves out (`[-C ]`).

use std::collections::BTreeMap;

use clap::Command;

/// Every page, by file name (`git-standards.1`, `git-standards-check.1`, ...).
pub fn pages() -> BTreeMap<String, String> {
    let mut cmd = super::command().disable_help_subcommand(true);
    cmd.build();
    let mut pages = BTreeMap::new();
    walk(&cmd, &mut pages);
    pages
}

fn walk(cmd: &Command, pages: &mut BTreeMap<String, String>) {
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        walk(sub, pages);
    }
    let man = clap_mangen::Man::new(cmd.clone())
        .source(format!("git-standards {}", env!("CARGO_PKG_VERSION")));
    let mut page = Vec::new();
    man.render(&mut page)
        .expect("rendering into memory cannot fail");
    let page = String::from_utf8(page).expect("clap_mangen writes UTF-8");
    pages.insert(man.get_filename(), polish(cmd, &page));
}

/// The structural pass described in the module comment.
fn polish(cmd: &Command, roff: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    // clap_mangen puts `after_long_help` under `.SH EXTRA`, as plain lines
    // separated by blank ones: its headings become sections of their own.
    let mut in_extra = false;
    let mut after_heading = false;
    for line in roff.lines() {
        if line == ".SH EXTRA" {
            in_extra = true;
            out.push(line.to_string());
            continue;
        }
        if line.starts_with(".SH ") {
            in_extra = false;
        }
        if in_extra
            && is_heading(line)
            && out.last().is_some_and(|l| l.is_empty() || l == ".SH EXTRA")
        {
            out.pop();
            out.push(format!(".SH {line}"));
            after_heading = true;
            continue;
        }
        if std::mem::take(&mut after_heading) && line.is_empty() {
            continue;
        }
        if is_heading(line) && out.last().is_some_and(|l| l == ".PP") {
            out.pop();
            out.push(format!(".SH {line}"));
            continue;
        }
        if line.starts_with(".SH SYNOPSIS") || !line.starts_with('.') {
            out.push(code_to_bold(line));
        } else {
            out.push(line.to_string());
        }
    }
    let mut text = out.join("\n");
    text.push('\n');
    for arg in cmd.get_arguments() {
        if let (Some(short), None, Some(names)) =
            (arg.get_short(), arg.get_long(), arg.get_value_names())
        {
            let value = names
                .iter()
                .map(|n| format!("\\fI{}\\fR", n.as_str().replace('-', "\\-")))
                .collect::<Vec<_>>()
                .join(" ");
            text = text.replace(
                &format!("[\\fB\\-{short} \\fR]"),
                &format!("[\\fB\\-{short}\\fR {value}]"),
            );
        }
    }
    text
}

/// `EXIT STATUS`, `STATUS JSON`, `EXAMPLES`: upper-case words alone on a line.
fn is_heading(line: &str) -> bool {
    line.len() >= 4
        && line.chars().any(|c| c.is_ascii_uppercase())
        && line
            .chars()
            .all(|c| c.is_ascii_uppercase() || c == ' ' || c == '-')
}

/// Turns each pair of backticks on a text line into roff bold.
fn code_to_bold(line: &str) -> String {
    if line.matches('`').count() < 2 {
        return line.to_string();
    }
    let mut out = String::with_capacity(line.len() + 16);
    let mut open = false;
    let pairs = line.matches('`').count() / 2 * 2;
    let mut seen = 0;
    for c in line.chars() {
        if c == '`' && seen < pairs {
            seen += 1;
            out.push_str(if open { "\\fR" } else { "\\fB" });
            open = !open;
        } else {
            out.push(c);
        }
    }
    out
}

/// Shells `git standards completions` writes scripts for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Shell {
    Bash,
    Zsh,
    Fish,
}

/// The completion script for `shell`: completes `git-standards ...` directly
/// and `git standards ...` inside git's own completion.
pub fn completions(shell: Shell) -> String {
    let mut script = Vec::new();
    let generator = match shell {
        Shell::Bash => clap_complete::Shell::Bash,
        Shell::Zsh => clap_complete::Shell::Zsh,
        Shell::Fish => clap_complete::Shell::Fish,
    };
    // A fresh definition: clap_complete names the subcommands itself and
    // cannot work with the space in `git standards`.
    let mut fresh = super::command()
        .disable_help_subcommand(true)
        .bin_name("git-standards");
    fresh.build();
    let mut fresh = with_value_lists(fresh);
    clap_complete::generate(generator, &mut fresh, "git-standards", &mut script);
    let mut script = String::from_utf8(script).expect("clap_complete writes UTF-8");
    if shell == Shell::Bash {
        // clap_complete names a subcommand's state `git__standards__subcmd__x`
        // while walking the words and `git__subcmd__standards__subcmd__x` where
        // it completes them (a binary name with a hyphen), so no subcommand's
        // options or values were ever completed: one spelling for both.
        script = script.replace("git__subcmd__standards", "git__standards");
        // clap_complete knows no list that changes with the repository: the
        // value of `--ref` is completed from git's refs when asked.
        script = script.replace(
            &format!("COMPREPLY=($(compgen -W \"{REF_SENTINEL}\" -- \"${{cur}}\"))"),
            "COMPREPLY=($(compgen -W \"$(git for-each-ref --format='%(refname:short)' 2>/dev/null)\" -- \"${cur}\"))",
        );
    }
    if shell == Shell::Fish {
        script = script.replace(
            &format!("-f -a \"{REF_SENTINEL}\\t''\""),
            "-f -a \"(git for-each-ref --format='%(refname:short)' 2>/dev/null)\"",
        );
    }
    if shell == Shell::Zsh {
        script = script.replace(&format!(":({REF_SENTINEL})"), ":_git_standards_refs");
        script.push_str(
            "
_git_standards_refs () {
    local -a refs
    refs=(${(f)\"$(git for-each-ref --format='%(refname:short)' 2>/dev/null)\"})
    _describe 'ref' refs
}
",
        );
    }
    let mut cmd = super::command().disable_help_subcommand(true);
    cmd.build();
    let cmd = with_value_lists(cmd);
    let paths = word_paths(&cmd);
    match shell {
        Shell::Bash => script.push_str(&bash_git_shim(&paths)),
        // git's zsh completion calls `_git-<command>` for a command it does not
        // know, with `words` starting at the command: the function clap_complete
        // names `_git-standards` serves both `git-standards` and `git standards`.
        Shell::Zsh => {}
        Shell::Fish => script.push_str(&fish_git_lines(&paths)),
    }
    script
}

/// Stands for "a ref of this repository" in the generated scripts until it
/// is replaced by each shell's call to `git for-each-ref`.
const REF_SENTINEL: &str = "__GIT_STANDARDS_REFS__";

/// The values an option or positional takes, by its value name: workflow
/// states, failure types, roles; `rev` stands for the repository's refs.
fn value_list(value_name: &str) -> Option<Vec<&'static str>> {
    use standards_core::model::vocab::{FailureType, WorkflowState};
    let list: Vec<&'static str> = match value_name {
        "STATE" => WorkflowState::ALL.iter().map(|s| s.as_str()).collect(),
        "FailureType" => FailureType::ALL.iter().map(|s| s.as_str()).collect(),
        "role" => standards_core::assets::skills::SKILLS
            .iter()
            .map(|s| s.role)
            .collect(),
        "rev" => vec![REF_SENTINEL],
        _ => return None,
    };
    Some(list)
}

/// The definition with every listed value attached to its argument, for the
/// completion scripts only (parsing keeps its own value parsers). `cmd` must
/// be built: a subcommand's arguments are deferred until then.
fn with_value_lists(cmd: Command) -> Command {
    let ids: Vec<(String, Vec<&'static str>)> = cmd
        .get_arguments()
        .filter_map(|a| {
            let name = a.get_value_names()?.first()?.to_string();
            Some((a.get_id().to_string(), value_list(&name)?))
        })
        .collect();
    let mut cmd = cmd;
    for (id, values) in ids {
        cmd = cmd.mut_arg(id, |a| {
            a.value_parser(clap::builder::PossibleValuesParser::new(values))
        });
    }
    let subs: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    for name in subs {
        cmd = cmd.mut_subcommand(name, with_value_lists);
    }
    cmd
}

/// For each subcommand path (`""`, `"cycle"`, `"cycle new"`), the words that
/// may follow it: its subcommands or positional values, then its long options.
fn word_paths(cmd: &Command) -> Vec<(String, Vec<String>, Vec<String>)> {
    fn walk(cmd: &Command, path: &str, out: &mut Vec<(String, Vec<String>, Vec<String>)>) {
        // Subcommands, then the values a positional argument takes (`bash`, `SCOPE`).
        let subs: Vec<String> = cmd
            .get_subcommands()
            .filter(|s| !s.is_hide_set())
            .map(|s| s.get_name().to_string())
            .chain(
                cmd.get_positionals()
                    .flat_map(|a| a.get_possible_values())
                    .filter(|v| !v.is_hide_set())
                    .map(|v| v.get_name().to_string()),
            )
            .collect();
        let longs: Vec<String> = cmd
            .get_arguments()
            .filter(|a| !a.is_hide_set())
            .filter_map(|a| a.get_long().map(|l| format!("--{l}")))
            .collect();
        out.push((path.to_string(), subs, longs));
        for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
            let child = if path.is_empty() {
                sub.get_name().to_string()
            } else {
                format!("{path} {}", sub.get_name())
            };
            walk(sub, &child, out);
        }
    }
    let mut out = Vec::new();
    walk(cmd, "", &mut out);
    out
}

/// `_git_standards`, which git's bash completion calls for `git standards`.
fn bash_git_shim(paths: &[(String, Vec<String>, Vec<String>)]) -> String {
    let mut arms = String::new();
    for (path, subs, longs) in paths {
        let words: Vec<&str> = subs.iter().chain(longs).map(String::as_str).collect();
        arms.push_str(&format!(
            "        \"{path}\") __gitcomp \"{}\" ;;\n",
            words.join(" ")
        ));
    }
    let known: Vec<&str> = paths.iter().map(|(p, _, _)| p.as_str()).collect();
    format!(
        r#"
# `git standards <TAB>` inside git's own bash completion, which calls
# `_git_standards` with `words`, `cword` and `__gitcomp` set.
_git_standards ()
{{
    local i path="" start=0 candidate
    for ((i = 1; i < cword; i++)); do
        if [ "${{words[i]}}" = standards ]; then start=$i; break; fi
    done
    for ((i = start + 1; i < cword; i++)); do
        case "${{words[i]}}" in
        -*) ;;
        *)
            candidate="${{path:+$path }}${{words[i]}}"
            case " {known} " in
            *"|$candidate|"*) path="$candidate" ;;
            esac
            ;;
        esac
    done
    case "${{words[cword-1]}}" in
    --to|--rerun-through) __gitcomp "{states}"; return ;;
    --type) __gitcomp "{types}"; return ;;
    --ref) __gitcomp "$(git for-each-ref --format='%(refname:short)' 2>/dev/null)"; return ;;
    esac
    case "$path" in
{arms}    esac
}}
"#,
        states = value_list("STATE").unwrap_or_default().join(" "),
        types = value_list("FailureType").unwrap_or_default().join(" "),
        known = known
            .iter()
            .map(|p| format!("|{p}|"))
            .collect::<Vec<_>>()
            .join(" "),
    )
}

/// `git standards ...` lines for fish's git completion.
fn fish_git_lines(paths: &[(String, Vec<String>, Vec<String>)]) -> String {
    let top: Vec<&str> = paths
        .iter()
        .find(|(p, _, _)| p.is_empty())
        .map(|(_, subs, _)| subs.iter().map(String::as_str).collect())
        .unwrap_or_default();
    let mut out = String::from("\n# `git standards <TAB>` inside fish's git completion.\n");
    out.push_str(&format!(
        "complete -c git -f -n '__fish_git_using_command standards; and not __fish_seen_subcommand_from {}' -a '{}'\n",
        top.join(" "),
        top.join(" ")
    ));
    for (option, values) in [
        ("to", value_list("STATE").unwrap_or_default().join(" ")),
        (
            "rerun-through",
            value_list("STATE").unwrap_or_default().join(" "),
        ),
        (
            "type",
            value_list("FailureType").unwrap_or_default().join(" "),
        ),
        (
            "ref",
            "(git for-each-ref --format='%(refname:short)' 2>/dev/null)".to_string(),
        ),
    ] {
        out.push_str(&format!(
            "complete -c git -n '__fish_git_using_command standards' -l {option} -x -a \"{values}\"\n"
        ));
    }
    for (path, subs, longs) in paths.iter().filter(|(p, _, _)| !p.is_empty()) {
        let last = path.rsplit(' ').next().unwrap_or(path);
        let condition =
            format!("__fish_git_using_command standards; and __fish_seen_subcommand_from {last}");
        if !subs.is_empty() {
            out.push_str(&format!(
                "complete -c git -f -n '{condition}' -a '{}'\n",
                subs.join(" ")
            ));
        }
        for long in longs {
            out.push_str(&format!(
                "complete -c git -f -n '{condition}' -l {}\n",
                long.trim_start_matches("--")
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_become_sections_and_code_bold() {
        let pages = pages();
        let main = &pages["git-standards.1"];
        assert!(main.contains(".SH EXIT STATUS"), "{main}");
        assert!(pages["git-standards-status.1"].contains(".SH STATUS JSON"));
        assert!(pages["git-standards-handoff.1"].contains(".SH TRANSITION JSON"));
        assert!(main.contains(".SH EXAMPLES"));
        assert!(!main.contains('`'), "no literal backticks: {main}");
        assert!(main.contains("[\\fB\\-C\\fR \\fIpath\\fR]"), "{main}");
    }

    #[test]
    fn code_spans_pair_up() {
        assert_eq!(
            code_to_bold("run `a` and `b`"),
            "run \\fBa\\fR and \\fBb\\fR"
        );
        assert_eq!(code_to_bold("odd ` alone"), "odd ` alone");
        assert_eq!(code_to_bold("`a` then `"), "\\fBa\\fR then `");
    }

    #[test]
    fn headings_are_upper_case_lines_only() {
        assert!(is_heading("EXIT STATUS"));
        assert!(is_heading("EXAMPLES"));
        assert!(!is_heading("0: success."));
        assert!(!is_heading("OK"));
        assert!(!is_heading("Exit status"));
    }
}
