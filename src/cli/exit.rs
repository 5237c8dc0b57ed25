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

/// The exit code and hint of an error: the one place that decides them.
fn classify(error: &Error) -> (u8, Option<String>) {
    match error {
        Error::Usage(_) => (EXIT_USAGE, Some("run `git standards --help` for usage".into())),
        Error::Refused { hint, .. } => (EXIT_PROBLEMS, hint.clone()),
        Error::ProblemsFound { .. } => (EXIT_PROBLEMS, None),
        Error::AlreadyExists { .. } => (EXIT_PROBLEMS, None),
        Error::Exit { code } => (*code, None),
        Error::NotARepository { .. } => {
            (EXIT_PROBLEMS, Some("run the command inside a git repository, or pass `-C <path>`".into()))
        }
        Error::NotInstalled { .. } => (EXIT_PROBLEMS, Some("run `git standards install` first".into())),
        Error::ProjectsInSubfolders { projects, .. } => {
            let commands = projects
                .iter()
                .map(|p| format!("`{}`", p.command))
                .collect::<Vec<_>>();
            let (which, or) = match commands.split_last() {
                Some((last, [])) => ("the project", last.clone()),
                Some((last, rest)) => ("a project", format!("{} or {last}", rest.join(", "))),
                None => ("a project", String::new()),
            };
            (EXIT_PROBLEMS, Some(format!("run the command inside {which}'s folder, or name it with `-C <folder>`: {or}")))
        }
        Error::Invalid { .. } => (EXIT_PROBLEMS, None),
        Error::State(_) => (
            EXIT_PROBLEMS,
            Some("fix STATE.md by hand or restore it from the last commit (`git restore .standards/STATE.md`)".into()),
        ),
        Error::Mode(_) => (EXIT_PROBLEMS, Some("MODE.md must hold exactly `ProjectMode`: `GREENFIELD` or `BROWNFIELD`".into())),
        Error::Io { .. } => (EXIT_PROBLEMS, None),
        Error::Git(_) | Error::Internal(_) => (EXIT_INTERNAL, Some("this is unexpected; please report it".into())),
    }
}

/// The message with its source chain, one `caused by` per line.
fn message(error: &Error) -> String {
    let mut text = error.to_string();
    let mut source = std::error::Error::source(error);
    while let Some(s) = source {
        // A cause the message already quotes (as `Error::Io` does) is not repeated.
        let cause = s.to_string();
        if !text.contains(&cause) {
            text.push_str(&format!("\n  caused by: {cause}"));
        }
        source = s.source();
    }
    text
}

/// Prints `error: <message>` (and `hint: ...`) on stderr and returns the exit code.
pub fn report_error(error: &Error, err: &mut dyn Write) -> u8 {
    report_error_colored(error, err, false)
}

/// [`report_error`], with `error:` in red when `color` is set (a terminal).
pub fn report_error_colored(error: &Error, err: &mut dyn Write, color: bool) -> u8 {
    report_error_from(error, err, color, None)
}

/// [`report_error_colored`], with the git commands of the hint made runnable
/// from the current folder (`view`: from there onto the project root).
pub fn report_error_from(
    error: &Error,
    err: &mut dyn Write,
    color: bool,
    view: Option<&crate::support::paths::PathView>,
) -> u8 {
    let (code, hint) = classify(error);
    let hint = match (hint, view) {
        (Some(hint), Some(view)) => Some(view.runnable(&hint)),
        (hint, _) => hint,
    };
    if matches!(error, Error::ProblemsFound { .. } | Error::Exit { .. }) {
        return code;
    }
    let red = super::style::paint(super::style::ERROR, "error:", color);
    let _ = writeln!(err, "{red} {}", message(error));
    if let Some(hint) = hint {
        let _ = writeln!(err, "hint: {hint}");
    }
    code
}

/// The `--json` form of an error, for commands whose output scripts parse:
/// `{"ok": false, "error": "<message>", "hint": "<hint>" | null}` on stdout.
pub fn report_error_json(error: &Error, out: &mut dyn Write) -> std::io::Result<()> {
    let (_, hint) = classify(error);
    let mut value = serde_json::json!({
        "ok": false,
        "error": message(error),
        "hint": hint,
    });
    // Where the projects are, for a script to pick one (`folder` is
    // repository-relative, `command` runs the same command there).
    if let Error::ProjectsInSubfolders { projects, .. } = error {
        value["projects"] = serde_json::to_value(projects).map_err(std::io::Error::other)?;
    }
    let text = serde_json::to_string_pretty(&value).map_err(std::io::Error::other)?;
    writeln!(out, "{text}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_errors_carry_message_and_hint() {
        let mut out = Vec::new();
        let e = Error::refused("no way", Some("try this".to_string()));
        report_error_json(&e, &mut out).unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(
            v,
            serde_json::json!({"ok": false, "error": "no way", "hint": "try this"})
        );
        let mut err = Vec::new();
        assert_eq!(report_error(&e, &mut err), EXIT_PROBLEMS);
        assert_eq!(
            String::from_utf8(err).unwrap(),
            "error: no way\nhint: try this\n"
        );
    }

    #[test]
    fn broken_pipe_only_on_stdout() {
        let pipe = || std::io::Error::from(std::io::ErrorKind::BrokenPipe);
        assert!(Error::stdout(pipe()).is_broken_pipe());
        assert!(!Error::io("x.md", pipe()).is_broken_pipe());
        assert!(!Error::stdout(std::io::Error::other("disk full")).is_broken_pipe());
    }
}
