//! The library's error type. `cli::exit` is the one place that turns it into a
//! message, a hint and an exit code.

use std::path::{Path, PathBuf};

use crate::protocol::mode::ModeError;
use crate::protocol::state::StateError;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Bad arguments (exit 2).
    #[error("{0}")]
    Usage(String),

    /// The operation was refused; nothing was changed (exit 1).
    #[error("{message}")]
    Refused {
        message: String,
        hint: Option<String>,
    },

    /// `check`/`verify` found problems, already printed (exit 1).
    #[error("{count} problem(s) found")]
    ProblemsFound { count: usize },

    /// The command already wrote its messages and chose its own exit status:
    /// the stop hook, which exits 2 only to send the agent back and 1 on its
    /// own failures (RT §5.2).
    #[error("exit status {code}")]
    Exit { code: u8 },

    /// A file to be created exclusively already exists (exit 1; nothing was changed).
    #[error("refusing to overwrite `{path}`: the file already exists")]
    AlreadyExists { path: String },

    #[error("not inside a git repository (searched from `{path}`): {reason}")]
    NotARepository { path: PathBuf, reason: String },

    #[error("no STANDARDS runtime is installed at `{root}`")]
    NotInstalled { root: PathBuf },

    #[error("{path}: {message}")]
    Invalid { path: String, message: String },

    #[error(transparent)]
    State(#[from] StateError),

    #[error(transparent)]
    Mode(#[from] ModeError),

    #[error("`{path}`: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    /// A git operation failed unexpectedly (exit 3).
    #[error("git: {0}")]
    Git(String),

    /// A bug or an impossible situation (exit 3).
    #[error("internal error: {0}")]
    Internal(String),
}

/// The path [`Error::Io`] names for a failed write to standard output.
pub const STDOUT: &str = "<stdout>";

impl Error {
    pub fn io(path: impl AsRef<Path>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.as_ref().to_path_buf(),
            source,
        }
    }

    /// A failed write of a command's results to standard output.
    pub fn stdout(source: std::io::Error) -> Self {
        Error::io(STDOUT, source)
    }

    /// Whether this is a write to standard output that failed because the
    /// reader went away (`git standards status | head -1`): not an error.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, Error::Io { path, source }
            if path.as_os_str() == STDOUT && source.kind() == std::io::ErrorKind::BrokenPipe)
    }

    pub fn usage(message: impl Into<String>) -> Self {
        Error::Usage(message.into())
    }

    pub fn refused(message: impl Into<String>, hint: impl Into<Option<String>>) -> Self {
        Error::Refused {
            message: message.into(),
            hint: hint.into(),
        }
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;
