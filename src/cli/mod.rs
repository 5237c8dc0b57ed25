//! Argument parsing, output and exit codes. The only layer that knows about
//! clap, the terminal and process exit statuses.

mod args;
mod dispatch;
mod exit;
pub mod manual;
#[cfg(test)]
mod skill_commands;
pub mod style;
pub mod values;

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;

pub use args::{Cli, Command};
pub use exit::{
    report_error, report_error_colored, report_error_from, report_error_json, EXIT_INTERNAL,
    EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE,
};

use crate::commands::Context;
use crate::error::Error;

/// Entry point of the binary: parse, run, map the result to an exit code.
pub fn main() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    let parsed = match pre_commit_shim_line(&args) {
        Some(cli) => Ok(cli),
        None => Cli::try_parse(),
    };
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) if e.use_stderr() && is_hook(std::env::args_os().skip(1)) => {
            // The stop hook never exits 2 except to block (RT §5.1, HK-003).
            let _ = writeln!(
                std::io::stderr(),
                "error: the hook takes exactly one argument, the event `stop`\n{}",
                crate::commands::hook::USAGE
            );
            return ExitCode::from(EXIT_PROBLEMS);
        }
        Err(e) => {
            let code = if e.use_stderr() { EXIT_USAGE } else { EXIT_OK };
            let _ = e.print();
            let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
            if e.use_stderr() && wants_json(&args) {
                // A script that asked for JSON gets JSON on this path too.
                let _ = writeln!(std::io::stdout(), "{}", usage_error_json(&e, &args));
            }
            return ExitCode::from(code);
        }
    };
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    // git's own colour settings count when `--color` is left at `auto`; the
    // stop hook prints for agents, never for a terminal, so it reads none.
    let configured = match (&cli.color, &cli.command) {
        (args::ColorChoice::Auto, Some(command))
            if !matches!(
                command,
                Command::Hook(crate::commands::hook::HookCommand::Stop(_))
            ) =>
        {
            let start = cli.directory.clone().unwrap_or_else(|| ".".into());
            crate::commands::git_color_setting(&start)
        }
        _ => None,
    };
    let colors = Colors {
        out: style::enabled(cli.color, configured.as_deref(), style::auto_for(&stdout)),
        err: style::enabled(cli.color, configured.as_deref(), style::auto_for(&stderr)),
    };
    let mut out = stdout.lock();
    let mut err = stderr.lock();
    let code = run(cli, &mut out, &mut err, colors);
    let _ = out.flush();
    ExitCode::from(code)
}

/// The command lines the pre-commit hook runs on every commit, `hook
/// pre-commit` and `hook pre-commit --hook <name>`, as clap would parse
/// them, without building clap's command tree (every subcommand with its
/// help: about 1 ms of CPU per commit, issue 27). `None` for any other form,
/// which clap parses (and refuses) as before: a global option, `--hook=`,
/// an empty name or one that starts with `-`, a word more, non-UTF-8.
fn pre_commit_shim_line(args: &[std::ffi::OsString]) -> Option<Cli> {
    let words: Vec<&str> = args.iter().map(|a| a.to_str()).collect::<Option<_>>()?;
    let hook = match words.as_slice() {
        ["hook", "pre-commit"] => "pre-commit",
        ["hook", "pre-commit", "--hook", name] if !name.is_empty() && !name.starts_with('-') => {
            name
        }
        _ => return None,
    };
    Some(Cli {
        directory: None,
        color: args::ColorChoice::Auto,
        command: Some(Command::Hook(
            crate::commands::hook::HookCommand::PreCommit(
                crate::commands::hook::HookPreCommitArgs {
                    hook: hook.to_string(),
                },
            ),
        )),
    })
}

/// Whether the command line asks for JSON (`--json` before any `--`).
fn wants_json(args: &[std::ffi::OsString]) -> bool {
    args.iter()
        .take_while(|a| *a != "--")
        .any(|a| a == "--json")
}

/// The refusal object for a command line clap rejected: its message, and
/// the help of the subcommand it names.
fn usage_error_json(e: &clap::Error, args: &[std::ffi::OsString]) -> String {
    let rendered = e.render().to_string();
    // The first paragraph of clap's message, on one line.
    let message: Vec<&str> = rendered
        .lines()
        .take_while(|l| !l.trim().is_empty())
        .map(str::trim)
        .collect();
    let message = match message.join(" ").trim_start_matches("error: ") {
        "" => "the command line is not valid".to_string(),
        m => m.to_string(),
    };
    let command = expanded_command();
    let mut path = vec!["git standards".to_string()];
    let mut current = &command;
    let mut words = args.iter().take_while(|a| *a != "--");
    while let Some(arg) = words.next() {
        let Some(arg) = arg.to_str() else { break };
        // The global options that take a value: the value is no subcommand.
        if arg == "-C" || arg == "--color" {
            words.next();
            continue;
        }
        if let Some(sub) = current.find_subcommand(arg) {
            path.push(sub.get_name().to_string());
            current = sub;
        }
    }
    let value = serde_json::json!({
        "ok": false,
        "error": message,
        "hint": format!("run `{} --help` for its usage", path.join(" ")),
    });
    serde_json::to_string_pretty(&value).unwrap_or_default()
}

/// Whether each stream may carry colours.
#[derive(Debug, Clone, Copy, Default)]
pub struct Colors {
    pub out: bool,
    pub err: bool,
}

/// Runs a parsed command line, writing to the given streams; returns the exit code.
pub fn run(cli: Cli, out: &mut dyn Write, err: &mut dyn Write, colors: Colors) -> u8 {
    let cwd = match &cli.directory {
        Some(dir) => dir.clone(),
        None => match std::env::current_dir() {
            Ok(d) => d,
            Err(e) => {
                let _ = writeln!(err, "error: cannot read the current folder: {e}");
                return EXIT_INTERNAL;
            }
        },
    };
    let mut ctx = Context {
        cwd,
        out,
        err,
        color: colors.out,
    };
    let Some(command) = cli.command else {
        return match ctx.out.write_all(args::OVERVIEW.as_bytes()) {
            Ok(()) => EXIT_OK,
            Err(e) => report_error(&Error::stdout(e), ctx.err),
        };
    };
    let json = command.json_output();
    let result = dispatch::dispatch(command, &mut ctx);
    match result {
        Ok(()) => EXIT_OK,
        // The reader of our output went away (`| head`): nothing left to do.
        Err(e) if e.is_broken_pipe() => EXIT_OK,
        Err(e) => {
            // Problems and `Exit` outcomes were already printed as the command's
            // own JSON (check's problems, status's conflict).
            if json && !matches!(e, Error::ProblemsFound { .. } | Error::Exit { .. }) {
                let _ = report_error_json(&e, ctx.out);
            }
            // Hints quote commands with project-relative paths: from a
            // subfolder, git must be pointed at the project root.
            let view = crate::repo::Project::discover(&ctx.cwd)
                .ok()
                .map(|p| crate::support::paths::PathView::of(&ctx.cwd, &p));
            report_error_from(&e, ctx.err, colors.err, view.as_ref())
        }
    }
}

/// Whether the command line (without the program name) names the `hook`
/// subcommand: its first word after the global options `-C <path>` and
/// `--color <when>`.
fn is_hook(args: impl IntoIterator<Item = std::ffi::OsString>) -> bool {
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let arg = arg.to_string_lossy();
        match arg.as_ref() {
            "-C" | "--color" => {
                args.next();
            }
            a if a.starts_with("-C") || a.starts_with("--color=") => {}
            // `hook pre-commit`, `hook pre-receive` and `hook update` are git's
            // hooks, which get clap's own errors (and `--json` its JSON).
            a => {
                return a == "hook"
                    && args.next().is_none_or(|next| {
                        !["pre-commit", "pre-receive", "update"].contains(&&*next.to_string_lossy())
                    })
            }
        }
    }
    false
}

/// The clap definition, for the man page generator and tests. Each
/// subcommand's arguments (and nested subcommands) are deferred until clap
/// builds it; [`expanded_command`] has them all.
pub fn command() -> clap::Command {
    <Cli as clap::CommandFactory>::command()
}

/// The clap definition built: every subcommand with its arguments and nested
/// subcommands, and clap's own `help` subcommand and `--help` flags, for code
/// and tests that walk the tree.
pub fn expanded_command() -> clap::Command {
    let mut command = command();
    command.build();
    command
}

#[cfg(test)]
mod tests {
    use super::args::ColorChoice;
    use super::style::enabled;

    #[test]
    fn clap_definition_is_consistent() {
        super::command().debug_assert();
    }

    /// The pre-commit hook's command lines skip clap and must come out as
    /// clap makes them; every other form is left to clap.
    #[test]
    fn the_pre_commit_shim_lines_parse_as_clap_parses_them() {
        use clap::Parser as _;
        let os = |words: &[&str]| -> Vec<std::ffi::OsString> {
            words.iter().map(std::ffi::OsString::from).collect()
        };
        for words in [
            &["hook", "pre-commit"][..],
            &["hook", "pre-commit", "--hook", "pre-commit"],
            &["hook", "pre-commit", "--hook", "pre-merge-commit"],
            &["hook", "pre-commit", "--hook", "a name with spaces"],
        ] {
            let fast = super::pre_commit_shim_line(&os(words)).expect("a shim line");
            let clap = super::Cli::try_parse_from(
                std::iter::once("git-standards").chain(words.iter().copied()),
            )
            .unwrap();
            assert_eq!(format!("{fast:?}"), format!("{clap:?}"), "{words:?}");
        }
        for words in [
            &["hook", "pre-commit", "--hook", ""][..],
            &["hook", "pre-commit", "--hook", "-x"],
            &["hook", "pre-commit", "--hook=pre-commit"],
            &["hook", "pre-commit", "--hook"],
            &["hook", "pre-commit", "--color", "never"],
            &["-C", "sub", "hook", "pre-commit"],
            &["hook", "pre-commit", "extra"],
            &["hook", "stop"],
            &["check", "--staged"],
            &[],
        ] {
            assert!(
                super::pre_commit_shim_line(&os(words)).is_none(),
                "{words:?}"
            );
        }
    }

    #[test]
    fn colour_choice_and_terminal() {
        // NO_COLOR and CLICOLOR are anstream's reading of the environment,
        // tested through the binary (tests/output.rs).
        assert!(enabled(ColorChoice::Auto, None, true));
        assert!(!enabled(ColorChoice::Auto, None, false));
        assert!(enabled(ColorChoice::Always, None, false));
        assert!(!enabled(ColorChoice::Never, None, true));
    }

    #[test]
    fn git_colour_settings_apply_at_auto_only() {
        assert!(enabled(ColorChoice::Auto, Some("always"), false));
        assert!(!enabled(ColorChoice::Auto, Some("false"), true));
        assert!(!enabled(ColorChoice::Auto, Some("never"), true));
        assert!(enabled(ColorChoice::Auto, Some("auto"), true));
        assert!(enabled(ColorChoice::Auto, Some("true"), true));
        assert!(!enabled(ColorChoice::Auto, Some("true"), false));
        assert!(!enabled(ColorChoice::Never, Some("always"), true));
        assert!(enabled(ColorChoice::Always, Some("never"), false));
    }

    #[test]
    fn hook_invocations_are_recognised_after_global_options() {
        let is_hook = |args: &[&str]| super::is_hook(args.iter().map(Into::into));
        assert!(is_hook(&["hook", "pre-tool-use"]));
        assert!(is_hook(&["hook"]));
        assert!(is_hook(&[
            "-C", "x", "--color", "never", "hook", "stop", "extra"
        ]));
        assert!(is_hook(&["-Cx", "--color=never", "hook"]));
        assert!(!is_hook(&["check", "hook"]));
        assert!(!is_hook(&["--bogus", "hook"]));
        assert!(!is_hook(&[]));
        // git's own hooks get clap's errors, and JSON when asked for.
        for git_hook in ["pre-commit", "pre-receive", "update"] {
            assert!(!is_hook(&["hook", git_hook, "--bogus"]));
        }
    }

    /// Issue 15: every value flag takes its values in any case (`--format GITHUB`,
    /// `--keep Ours`), like `--color` and the record types.
    #[test]
    fn every_value_flag_ignores_case() {
        fn walk(cmd: &clap::Command, path: &str, bad: &mut Vec<String>) {
            for arg in cmd.get_arguments() {
                let enumerated = !arg.get_possible_values().is_empty();
                let boolean = matches!(
                    arg.get_action(),
                    clap::ArgAction::SetTrue | clap::ArgAction::SetFalse
                );
                if enumerated && !boolean && !arg.is_ignore_case_set() {
                    bad.push(format!("{path} --{}", arg.get_id()));
                }
            }
            for sub in cmd.get_subcommands() {
                walk(sub, &format!("{path} {}", sub.get_name()), bad);
            }
        }
        let mut bad = Vec::new();
        let mut cmd = super::command();
        cmd.build();
        walk(&cmd, "git standards", &mut bad);
        assert!(bad.is_empty(), "values not accepted in any case: {bad:?}");
    }

    #[test]
    fn staged_and_ref_conflict() {
        let e = super::command()
            .try_get_matches_from(["git-standards", "status", "--staged", "--ref", "HEAD"])
            .unwrap_err();
        assert_eq!(e.kind(), clap::error::ErrorKind::ArgumentConflict);
    }
}
