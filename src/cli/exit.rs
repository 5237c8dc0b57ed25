//! Exit codes and the single mapping from errors to messages.

use std::io::Write;

use crate::error::Error;

/// Success.
pub const EXIT_OK: u8 = 0;
/// Problems found (check) or the operation was refused.
pub const EXIT_PROBLEMS: u8 = 1;
/// Usage error.
pub const EXIT_USAGE: u8 = 2;
/// Internal error.
pub const EXIT_INTERNAL: u8 = 3;

/// Prints `error: <message>` (and `hint: ...`) on stderr and returns the exit code.
pub fn report_error(error: &Error, err: &mut dyn Write) -> u8 {
    let (code, hint): (u8, Option<String>) = match error {
        Error::Usage(_) => (EXIT_USAGE, Some("run `git standards --help` for usage".into())),
        Error::Refused { hint, .. } => (EXIT_PROBLEMS, hint.clone()),
        Error::ProblemsFound { .. } => return EXIT_PROBLEMS,
        Error::NotARepository { .. } => {
            (EXIT_PROBLEMS, Some("run the command inside a git repository, or pass `-C <path>`".into()))
        }
        Error::NotInstalled { .. } => (EXIT_PROBLEMS, Some("run `git standards install` first".into())),
        Error::Invalid { .. } => (EXIT_PROBLEMS, None),
        Error::State(_) => (
            EXIT_PROBLEMS,
            Some("fix STATE.md by hand or restore it from the last commit (`git restore .standards/STATE.md`)".into()),
        ),
        Error::Mode(_) => (EXIT_PROBLEMS, Some("MODE.md must hold exactly `ProjectMode`: `GREENFIELD` or `BROWNFIELD`".into())),
        Error::Io { .. } => (EXIT_PROBLEMS, None),
        Error::Git(_) | Error::Internal(_) => (EXIT_INTERNAL, Some("this is unexpected; please report it".into())),
    };
    let _ = writeln!(err, "error: {error}");
    let mut source = std::error::Error::source(error);
    while let Some(s) = source {
        let _ = writeln!(err, "  caused by: {s}");
        source = s.source();
    }
    if let Some(hint) = hint {
        let _ = writeln!(err, "hint: {hint}");
    }
    code
}
