//! The clap definition of `git standards`. Doc comments are the help text.

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

use crate::commands::{self, Context};
use crate::error::Result;

/// Git-native runtime of the S.T.A.N.D.A.R.D.S. agent workflow.
///
/// Reads each branch's committed `.standards/` folder as the workflow state:
/// from the working tree, the index, HEAD or any ref, without a checkout.
///
/// Exit status: 0 success; 1 problems found or operation refused; 2 usage
/// error; 3 internal error.
#[derive(Debug, Parser)]
#[command(
    name = "git-standards",
    bin_name = "git standards",
    version,
    propagate_version = true
)]
pub struct Cli {
    /// Run as if started in <path>.
    #[arg(short = 'C', value_name = "path", global = true)]
    pub directory: Option<PathBuf>,

    /// When to use colours.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto, global = true)]
    pub color: ColorChoice,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// Colours on a terminal, unless NO_COLOR is set.
    Auto,
    Always,
    Never,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Install or upgrade the STANDARDS runtime in this repository.
    Install(InstallArgs),
}

#[derive(Debug, clap::Args)]
pub struct InstallArgs {
    /// Project mode for a first install; inferred from the project's files when absent.
    #[arg(long, value_enum)]
    pub mode: Option<ModeArg>,
    /// Show what would change without writing anything.
    #[arg(long)]
    pub dry_run: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ModeArg {
    Greenfield,
    Brownfield,
}

impl From<ModeArg> for crate::protocol::vocab::ProjectMode {
    fn from(m: ModeArg) -> Self {
        match m {
            ModeArg::Greenfield => Self::Greenfield,
            ModeArg::Brownfield => Self::Brownfield,
        }
    }
}

pub(super) fn dispatch(command: Command, ctx: &mut Context) -> Result<()> {
    match command {
        Command::Install(a) => commands::install::run(
            ctx,
            &commands::install::Request {
                mode: a.mode.map(Into::into),
                dry_run: a.dry_run,
            },
        ),
    }
}
