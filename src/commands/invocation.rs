//! `git standards invocation <role>`: read-only discovery of a role's
//! invocation options (RT §6, decisions D10, D11).

use std::path::{Path, PathBuf};

use crate::commands::Context;
use crate::error::{Error, Result};
use crate::repo::bounded::ProjectFiles;
use crate::repo::Project;
use clap::ValueEnum;
use standards_core::invocation::output::{self, Discovery};
use standards_core::invocation::{metadata, Client};
use standards_core::model::vocab::Role;

#[derive(Debug, clap::Args)]
pub struct InvocationArgs {
    /// The role's skill name: navigator, scoper, architect, auditor, developer, tester, reviewer, documenter or synchronizer.
    #[arg(value_name = "role", allow_hyphen_values = true)]
    pub role: String,
    /// The client whose installed skill copy to read.
    #[arg(long, value_enum, ignore_case = true, value_name = "codex|claude")]
    pub client: Option<ClientArg>,
    /// Print the result as JSON (keys described above).
    #[arg(long)]
    pub json: bool,
    /// The project folder (default: the project holding the current folder).
    #[arg(long, value_name = "path")]
    pub project: Option<PathBuf>,
}

/// An agent client.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ClientArg {
    Codex,
    Claude,
}

impl From<ClientArg> for standards_core::invocation::Client {
    fn from(c: ClientArg) -> Self {
        match c {
            ClientArg::Codex => standards_core::invocation::Client::Codex,
            ClientArg::Claude => standards_core::invocation::Client::Claude,
        }
    }
}

/// A validated `invocation` request.
#[derive(Debug, Clone)]
pub struct Request {
    pub role: String,
    pub client: Option<Client>,
    pub json: bool,
    pub project: Option<PathBuf>,
}

/// The project root: `--project`, else the project holding the current
/// folder (D1: the nearest folder with `.standards/`, else the repository's
/// top), else the current folder. Discovery needs no installed runtime.
fn project_root(cwd: &Path, project: Option<&Path>) -> PathBuf {
    if let Some(p) = project {
        return cwd.join(p);
    }
    if let Ok(p) = Project::discover(cwd) {
        if p.workdir().is_some() {
            return p.root().to_path_buf();
        }
    }
    let start = std::fs::canonicalize(cwd).unwrap_or_else(|_| cwd.to_path_buf());
    start
        .ancestors()
        .find(|d| d.join(".standards").is_dir())
        .map(Path::to_path_buf)
        .unwrap_or(start)
}

/// Which client's copy of the skill to read (RT §6.2): the one asked for,
/// else the only one installed. Two copies are never merged.
fn choose_client(
    root: &Path,
    role: &str,
    asked: Option<Client>,
) -> std::result::Result<Client, String> {
    if let Some(c) = asked {
        return Ok(c);
    }
    let present =
        |c: Client| std::fs::symlink_metadata(root.join(c.skills_dir()).join(role)).is_ok();
    match (present(Client::Codex), present(Client::Claude)) {
        (true, true) => Err(format!(
            "`{role}` is installed for both clients (.agents/skills and .claude/skills); pass --client codex or --client claude"
        )),
        (true, false) => Ok(Client::Codex),
        (false, true) => Ok(Client::Claude),
        (false, false) => Err(format!(
            "no installed skill was found for the role `{role}` in .agents/skills or .claude/skills"
        )),
    }
}

/// Discovers `request.role` in the project found from `cwd`.
pub fn discover(cwd: &Path, request: &Request) -> Discovery {
    let root = project_root(cwd, request.project.as_deref());
    let files = match ProjectFiles::new(&root) {
        Ok(f) => f,
        Err(e) => {
            return output::discover(
                &NoFiles,
                &request.role,
                Err(format!(
                    "the project folder `{}` cannot be used: {e}",
                    root.display()
                )),
            )
        }
    };
    let client = if metadata::is_role_id(&request.role) {
        choose_client(files.root(), &request.role, request.client)
    } else {
        request.client.ok_or_else(String::new)
    };
    output::discover(&files, &request.role, client)
}

/// The nine roles whose skills `invocation` reads (D10).
const ROLES: [Role; 9] = [
    Role::Scoper,
    Role::Architect,
    Role::Auditor,
    Role::Developer,
    Role::Tester,
    Role::Reviewer,
    Role::Documenter,
    Role::Synchronizer,
    Role::Navigator,
];

/// Runs `invocation`: prints the result; exit 1 unless the catalog is complete.
pub fn run(ctx: &mut Context, request: &Request) -> Result<()> {
    // Issue 25: a well-formed name that is none of the nine roles is a usage
    // error (exit 2). A name that is no role identifier at all (`../escape`)
    // stays an unavailable catalog, exit 1, as SC-INV-039 specifies.
    if metadata::is_role_id(&request.role) && !ROLES.iter().any(|r| r.skill() == request.role) {
        let roles: Vec<&str> = ROLES.iter().map(|r| r.skill()).collect();
        return Err(Error::Usage(format!(
            "unknown role `{}`: the roles are {}",
            request.role,
            roles.join(", ")
        )));
    }
    let d = discover(&ctx.cwd, request);
    let text = if request.json {
        let mut t = serde_json::to_string_pretty(&output::to_json(&d))
            .map_err(|e| Error::Internal(e.to_string()))?;
        t.push('\n');
        t
    } else {
        output::to_text(&d)
    };
    ctx.out
        .write_all(text.as_bytes())
        .map_err(|e| Error::io("<stdout>", e))?;
    if d.catalog.is_some() {
        Ok(())
    } else {
        Err(Error::Exit { code: 1 })
    }
}

/// A project that cannot be read: every lookup fails.
struct NoFiles;

impl standards_core::invocation::Files for NoFiles {
    fn dir(&self, _: &str) -> standards_core::invocation::DirStatus {
        standards_core::invocation::DirStatus::Missing
    }
    fn read(&self, rel: &str, _: &str) -> std::result::Result<Option<String>, String> {
        Err(format!("cannot read `{rel}`"))
    }
    fn children(&self, rel: &str) -> std::result::Result<Vec<String>, String> {
        Err(format!("cannot list `{rel}`"))
    }
    fn regular_file_inside(&self, rel: &str, _: &str) -> std::result::Result<(), String> {
        Err(format!("cannot read `{rel}`"))
    }
}
