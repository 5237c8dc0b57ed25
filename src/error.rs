//! The library's error type. `cli::exit` is the one place that turns it into a
//! message, a hint and an exit code.

use std::path::{Path, PathBuf};

use standards_core::model::mode::ModeError;
use standards_core::model::state::StateError;

/// A STANDARDS project found in a subfolder of the repository.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SubProject {
    /// The folder holding its `.standards/`, relative to the repository's top.
    pub folder: String,
    /// The same folder as a person reads it from the current folder.
    #[serde(skip)]
    pub shown: String,
    /// The command line that runs the same command on that project.
    pub command: String,
}

fn in_subfolders(top: &Path, source: &str, projects: &[SubProject]) -> String {
    let folders = projects
        .iter()
        .map(|p| format!("`{}`", p.shown))
        .collect::<Vec<_>>()
        .join(", ");
    let (count, live) = match projects.len() {
        1 => ("a STANDARDS project".to_string(), "lives in the subfolder"),
        n => (format!("{n} STANDARDS projects"), "live in the subfolders"),
    };
    format!(
        "no STANDARDS runtime is installed at the top of the repository `{}` in {source}, but {count} {live} {folders}",
        top.display()
    )
}

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

    /// No runtime at the repository's top, but STANDARDS projects live in
    /// subfolders (issue 15): the message names them, the hint the `-C` to use.
    #[error("{}", in_subfolders(.top, .snapshot, .projects))]
    ProjectsInSubfolders {
        /// The top of the working tree (or the repository, when bare).
        top: PathBuf,
        /// The snapshot searched: "the working tree", "the index", "commit ...".
        snapshot: String,
        projects: Vec<SubProject>,
    },

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

/// A refusal of the core's client planning is a refusal (exit 1), with its hint.
impl From<standards_core::setup::client_plan::Refusal> for Error {
    fn from(r: standards_core::setup::client_plan::Refusal) -> Self {
        Error::refused(r.message, r.hint)
    }
}

/// Install planning's refusals and invalid files keep their kind (and exit code).
impl From<standards_core::setup::install::InstallError> for Error {
    fn from(e: standards_core::setup::install::InstallError) -> Self {
        use standards_core::setup::install::InstallError;
        match e {
            InstallError::Refused { message, hint } => Error::refused(message, hint),
            InstallError::Invalid { path, message } => Error::Invalid { path, message },
            InstallError::State(e) => Error::State(e),
            InstallError::Mode(e) => Error::Mode(e),
            // `install` words this one itself, with the command that helps.
            e @ InstallError::AbsentRuntime(_) => Error::refused(e.to_string(), None),
        }
    }
}
