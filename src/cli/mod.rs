//! Argument parsing, output and exit codes. The only layer that knows about
//! clap, the terminal and process exit statuses.

mod args;
mod exit;

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use clap::Parser;

pub use args::{Cli, Command};
pub use exit::{report_error, EXIT_INTERNAL, EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE};

use crate::commands::Context;

/// Entry point of the binary: parse, run, map the result to an exit code.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_USAGE } else { EXIT_OK };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    let color = color_enabled(cli.color, stdout.is_terminal());
    let mut out = stdout.lock();
    let mut err = stderr.lock();
    let code = run(cli, &mut out, &mut err, color);
    let _ = out.flush();
    ExitCode::from(code)
}

/// Runs a parsed command line, writing to the given streams; returns the exit code.
pub fn run(cli: Cli, out: &mut dyn Write, err: &mut dyn Write, color: bool) -> u8 {
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
        color,
    };
    let result = args::dispatch(cli.command, &mut ctx);
    match result {
        Ok(()) => EXIT_OK,
        Err(e) => report_error(&e, ctx.err),
    }
}

fn color_enabled(choice: args::ColorChoice, is_terminal: bool) -> bool {
    match choice {
        args::ColorChoice::Always => true,
        args::ColorChoice::Never => false,
        args::ColorChoice::Auto => {
            is_terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        }
    }
}

/// The clap definition, for the man page generator and tests.
pub fn command() -> clap::Command {
    <Cli as clap::CommandFactory>::command()
}

#[cfg(test)]
mod tests {
    #[test]
    fn clap_definition_is_consistent() {
        super::command().debug_assert();
    }
}
