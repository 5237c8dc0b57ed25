//! The agent-client part of `install` and `uninstall` at the edges: the
//! question on a terminal, folder listings from disk and the report. The
//! planning is the core's [`standards_core::setup::client_plan`].

use std::io::Write;
use std::path::Path;

use crate::error::{Error, Result};
use crate::support::paths::PathView;
use standards_core::invocation::Client;
use standards_core::setup::client_plan::{skill_folder, Plan};

/// On a terminal (stdin and stdout both), asks which clients to set up;
/// `None` elsewhere or when the answer cannot be read.
pub fn ask_on_terminal(default: &[Client]) -> Option<Vec<Client>> {
    use std::io::IsTerminal;
    if !(std::io::stdin().is_terminal() && std::io::stdout().is_terminal()) {
        return None;
    }
    let default_name = match default {
        [] => "none",
        [Client::Claude] => "claude",
        [Client::Codex] => "codex",
        _ => "both",
    };
    loop {
        eprint!("Set up which agent clients? claude, codex, both or none [{default_name}]: ");
        let mut line = String::new();
        std::io::stdin().read_line(&mut line).ok()?;
        let answer = line.trim().to_ascii_lowercase();
        return Some(
            match if answer.is_empty() {
                default_name
            } else {
                answer.as_str()
            } {
                "claude" | "claude-code" => vec![Client::Claude],
                "codex" => vec![Client::Codex],
                "both" => vec![Client::Codex, Client::Claude],
                "none" => Vec::new(),
                _ => {
                    eprintln!("Please answer claude, codex, both or none.");
                    continue;
                }
            },
        );
    }
}
/// Lists a project folder's names from disk (empty when it is missing).
pub fn disk_lister(root: &Path) -> impl Fn(&str) -> Vec<String> + '_ {
    move |rel: &str| {
        let mut names: Vec<String> = std::fs::read_dir(root.join(rel))
            .map(|rd| {
                rd.flatten()
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default();
        names.sort();
        names
    }
}

/// Prints the client changes and the messages (RT §7.6.9).
pub fn print(out: &mut dyn Write, plan: &Plan, dry_run: bool, view: &PathView) -> Result<()> {
    let w = |e: std::io::Error| Error::io("<stdout>", e);
    // One line per skill folder (RT §7.6.3 preview entries), one per other path.
    let mut shown: Vec<String> = Vec::new();
    for op in &plan.changes.steps {
        let path = op.path();
        let skill = skill_folder(path);
        let (verb, shown_path) = match (&skill, op, dry_run) {
            (Some(dir), op, d) if op.is_write() => {
                let new = plan.new_skills.contains(dir);
                let verb = match (new, d) {
                    (true, true) => "would create skill",
                    (true, false) => "created skill",
                    (false, true) => "would update skill",
                    (false, false) => "updated skill",
                };
                (verb, dir.clone())
            }
            (Some(dir), _, d) => (
                if d {
                    "would remove skill"
                } else {
                    "removed skill"
                },
                dir.clone(),
            ),
            (None, op, false) if op.is_write() => ("wrote", path.to_string()),
            (None, op, true) if op.is_write() => ("would write", path.to_string()),
            (None, _, false) => ("removed", path.to_string()),
            (None, _, true) => ("would remove", path.to_string()),
        };
        if shown.contains(&shown_path) {
            continue;
        }
        writeln!(out, "{verb:<14} {}", view.show(&shown_path)).map_err(w)?;
        shown.push(shown_path);
    }
    let names: Vec<&str> = plan.clients.iter().map(|c| c.as_str()).collect();
    let names = if names.is_empty() {
        "none".to_string()
    } else {
        names.join(", ")
    };
    if plan.removal {
        writeln!(out, "Clients removed: {names}; none remaining").map_err(w)?;
    } else {
        writeln!(
            out,
            "Clients: {names}; hooks: {}",
            if plan.hooks { "on" } else { "off" }
        )
        .map_err(w)?;
    }
    for r in &plan.restored {
        writeln!(out, "Restored: {r}").map_err(w)?;
    }
    for x in &plan.warnings {
        writeln!(out, "Warning: {x}").map_err(w)?;
    }
    for n in &plan.notices {
        writeln!(out, "Next: {n}").map_err(w)?;
    }
    Ok(())
}
