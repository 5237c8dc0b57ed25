//! `git standards completions <shell>`: prints the shell completion script
//! that `cli::manual` generates from the clap definition.

use super::Context;
use crate::error::{Error, Result};

#[derive(Debug, clap::Args)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum, ignore_case = true)]
    pub shell: crate::cli::manual::Shell,
}

/// Prints `script`, the completion script for the chosen shell.
pub fn run(ctx: &mut Context, script: &str) -> Result<()> {
    ctx.out.write_all(script.as_bytes()).map_err(Error::stdout)
}
