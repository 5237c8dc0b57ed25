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
    /// Check the workflow state and the active cycle's records against every protocol rule.
    ///
    /// Checks the working tree (or the index, or a commit) and compares it with
    /// the last commit where the rules call for it. Prints one problem per line
    /// as `file: message [RULE-ID]` grouped by file, then a summary. Exit status
    /// 0 when there is no problem, 1 when there is any.
    ///
    /// With --json, prints one object: `ok` (bool), `problems` (array of
    /// objects with `rule`, `file`, `message` and, when known, `hint`), `notes`
    /// (array of strings) and `checked` (`source`, `comparedWith`, `rules`: the
    /// number of rules evaluated).
    Check(CheckArgs),
}

#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
    /// Check the index (what the next commit will hold) instead of the working tree.
    #[arg(long, conflicts_with = "rev")]
    pub staged: bool,
    /// Check a commit, branch or tag (read without a checkout), compared with its first parent.
    #[arg(long = "ref", value_name = "rev")]
    pub rev: Option<String>,
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
        Command::Check(a) => {
            let source = match (a.staged, a.rev) {
                (true, _) => commands::check::Source::Staged,
                (false, Some(rev)) => commands::check::Source::Rev(rev),
                (false, None) => commands::check::Source::Worktree,
            };
            commands::check::run(
                ctx,
                &commands::check::Request {
                    source,
                    json: a.json,
                    options: Default::default(),
                },
            )
        }
        Command::Install(a) => commands::install::run(
            ctx,
            &commands::install::Request {
                mode: a.mode.map(Into::into),
                dry_run: a.dry_run,
            },
        ),
    }
}
