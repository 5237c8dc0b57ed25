//! One module per subcommand: its clap `Args` and its `run`, which takes a
//! validated request and a [`Context`]. Helpers they share live in
//! [`crate::support`].

pub mod agent_hook;
pub mod archive;
pub mod artifact;
pub mod board;
pub mod check;
pub mod clients;
pub mod completions;
pub mod cycle;
pub mod demo;
pub mod hook;
pub mod hooks;
pub mod id;
pub mod install;
pub mod invocation;
pub mod log;
pub mod manpages;
pub mod merge_driver;
pub mod merge_guard;
pub mod notes;
pub mod record;
pub mod recover;
pub mod reset;
pub mod resolve;
pub mod server_hook;
pub mod signoff;
pub mod status;
pub mod transition;
pub mod uninstall;
pub mod verify;

use std::io::Write;
use std::path::PathBuf;

/// What every command gets: where it runs and where it writes.
pub struct Context<'a> {
    /// The folder the command runs from (`-C` applied).
    pub cwd: PathBuf,
    /// Results (stdout).
    pub out: &'a mut dyn Write,
    /// Messages (stderr).
    pub err: &'a mut dyn Write,
    /// Whether colours may be used on stdout.
    pub color: bool,
}

impl Context<'_> {
    /// How this command shows `project`'s paths to a person ([`crate::support::paths::PathView`]).
    pub fn path_view(&self, project: &crate::repo::Project) -> crate::support::paths::PathView {
        crate::support::paths::PathView::of(&self.cwd, project)
    }

    /// One project-relative path as a person reads it from the current folder.
    pub fn shown(&self, project: &crate::repo::Project, path: &str) -> String {
        self.path_view(project).show(path)
    }
}

/// A runtime tool's one result: the bare value on a line for scripts that
/// read text, or `value` (which has `"ok": true`) as one JSON object with `--json`.
pub fn print_result(
    out: &mut dyn Write,
    json: bool,
    text: &str,
    value: serde_json::Value,
) -> crate::Result<()> {
    let line = if json {
        serde_json::to_string(&value).map_err(|e| crate::Error::Internal(e.to_string()))?
    } else {
        text.to_string()
    };
    writeln!(out, "{line}").map_err(crate::Error::stdout)
}

/// git's colour setting for this tool: `color.standards`, else `color.ui`, from
/// the repository at `start` (or the user's and system configuration outside
/// one). `None` when neither is set.
pub fn git_color_setting(start: &std::path::Path) -> Option<String> {
    crate::repo::color_setting(start)
}
