//! Install planning (RT §7.6, decisions D2, D8, D10): the first install, a
//! reinstall and an upgrade of the runtime in `.standards/`, as a
//! [`ChangePlan`]. Mode inference, the version rules, the repairs of a
//! damaged runtime and the migration from the Node runtime are decided here
//! from a [`Tree`] and a [`RootListing`]; `install` reads them from disk and
//! git, and applies the plan through the journal.

use crate::assets;
use crate::check::runtime::{has_records, missing_file_hint, HeldBy, Snapshot};
use crate::model::layout::{
    CHAPTERS_DIR, FRAMEWORK_NAME, INSTALLATION_PATH, MARKER, MODE_PATH, PROTOCOL_PATH,
    STANDARDS_DIR, STATE_PATH, VERSION_PATH,
};
use crate::model::mode::ModeError;
use crate::model::state::StateError;
use crate::model::tree::{obstacle, Node, Text, Tree};
use crate::model::vocab::{CycleMode, ProjectMode};
use crate::model::{mode, state};
use crate::setup::change::{ChangePlan, Step};
use crate::setup::migration;
use crate::workflow::conflicts;

/// Why install refuses to plan.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InstallError {
    /// What is wrong, and what to do.
    #[error("{message}")]
    Refused {
        message: String,
        hint: Option<String>,
    },
    /// A runtime file that cannot be read as it must be.
    #[error("{path}: {message}")]
    Invalid { path: String, message: String },
    /// `.standards/` is missing from the working tree, but the index or HEAD
    /// (named) holds an installed runtime: a first install would replace it.
    #[error("`.standards/` is missing from the working tree, but {0} holds an installed runtime")]
    AbsentRuntime(String),
    #[error(transparent)]
    State(#[from] StateError),
    #[error(transparent)]
    Mode(#[from] ModeError),
}

impl InstallError {
    pub fn refused(message: impl Into<String>, hint: Option<String>) -> InstallError {
        InstallError::Refused {
            message: message.into(),
            hint,
        }
    }
}

type Result<T> = std::result::Result<T, InstallError>;

/// What the user asked of the runtime part of install.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Asked {
    /// `--mode`: the mode of a first install, checked against an installed one.
    pub mode: Option<ProjectMode>,
}

/// The Node runtime's tool folder, removed on install (D2).
pub const LEGACY_BIN: &str = ".standards/bin";

/// Names that leave a project greenfield (RT §7.6.2).
const GREENFIELD_NAMES: [&str; 33] = [
    ".git",
    ".github",
    ".gitignore",
    ".DS_Store",
    ".idea",
    ".vscode",
    "node_modules",
    ".agents",
    ".claude",
    ".codex",
    ".standards",
    ".editorconfig",
    ".prettierrc",
    ".prettierrc.json",
    "tsconfig.json",
    "README.md",
    "LICENSE",
    "LICENSE.md",
    "CHANGELOG.md",
    "CONTRIBUTING.md",
    "CODE_OF_CONDUCT.md",
    "AGENTS.md",
    "CLAUDE.md",
    "package.json",
    "package-lock.json",
    "pnpm-lock.yaml",
    "pnpm-workspace.yaml",
    "yarn.lock",
    "pyproject.toml",
    "Cargo.toml",
    "Cargo.lock",
    "go.mod",
    "go.sum",
];

/// The names in the project root that make it BROWNFIELD (RT §7.6.2), sorted.
pub fn brownfield_evidence<'a>(root_names: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    let mut found: Vec<&str> = root_names
        .into_iter()
        .filter(|n| !GREENFIELD_NAMES.contains(n))
        .collect();
    found.sort_unstable();
    found
}

/// How the mode of a first install was chosen, said next to it.
pub fn mode_reason(mode: ProjectMode, root_names: &[String]) -> String {
    let evidence = brownfield_evidence(root_names.iter().map(String::as_str));
    let shown: Vec<String> = evidence.iter().take(5).map(|n| format!("`{n}`")).collect();
    let more = evidence.len().saturating_sub(shown.len());
    match mode {
        ProjectMode::Brownfield => format!(
            "inferred from {}{} in the project folder; choose with `--mode greenfield`",
            shown.join(", "),
            if more > 0 { format!(" and {more} more") } else { String::new() }
        ),
        ProjectMode::Greenfield => {
            "inferred: the project folder holds no project files yet; choose with `--mode brownfield`"
                .to_string()
        }
    }
}

/// Infers the project mode from the names directly in the project root.
pub fn infer_mode<'a>(root_names: impl IntoIterator<Item = &'a str>) -> ProjectMode {
    if root_names
        .into_iter()
        .all(|n| GREENFIELD_NAMES.contains(&n))
    {
        ProjectMode::Greenfield
    } else {
        ProjectMode::Brownfield
    }
}

/// What `install` will do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    pub kind: InstallKind,
    pub mode: ProjectMode,
    /// The runtime files, PROTOCOL.md (the ownership marker) last.
    pub changes: ChangePlan,
    /// Runtime files of an installed runtime that were missing and that git
    /// holds no copy of: recreated by this install (issue 15, item 1).
    pub restored: Vec<&'static str>,
    /// What an upgrade from an older Node runtime migrated, one report line
    /// each (issue 29, item 1): fields added to STATE.md, records moved.
    pub migrated: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InstallKind {
    First,
    Reinstall,
    Upgrade {
        from: Version,
    },
    /// Over a runtime the Node runtime installed (its `.standards/bin/`, or a
    /// PROTOCOL.md that never names `git standards`): the Node release
    /// numbers are not ours, so any of them (0.1.0 to 0.11.0) upgrades.
    FromNode {
        from: Version,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Version(pub u64, pub u64, pub u64);

impl Version {
    pub fn parse(s: &str) -> Option<Version> {
        let mut it = s.split('.');
        let mut part = || -> Option<u64> {
            let p = it.next()?;
            if p.is_empty()
                || !p.bytes().all(|b| b.is_ascii_digit())
                || (p.len() > 1 && p.starts_with('0'))
            {
                return None;
            }
            p.parse().ok()
        };
        let v = Version(part()?, part()?, part()?);
        it.next().is_none().then_some(v)
    }

    /// This release's version (the core is released with the binary, at the
    /// same version; the binary's tests check it).
    pub fn current() -> Version {
        Version::parse(env!("CARGO_PKG_VERSION")).expect("the crate version is MAJOR.MINOR.PATCH")
    }
}

impl std::fmt::Display for Version {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}.{}", self.0, self.1, self.2)
    }
}

/// `VERSION.json` as install writes it (RF §11.1).
pub fn version_json(v: Version) -> String {
    format!("{{\n  \"framework\": \"{FRAMEWORK_NAME}\",\n  \"version\": \"{v}\"\n}}\n")
}

/// The starting `INSTALLATION.json` (RF §11.2). No client files are installed
/// yet (D10), so it records no created paths and no hooks.
pub fn installation_json() -> String {
    format!(
        "{{\n  \"framework\": \"{FRAMEWORK_NAME}\",\n  \"managedClientSettings\": {{\n    \".claude/settings.json\": {{\n      \"skillOverrides\": {{}}\n    }}\n  }}\n}}\n"
    )
}

pub fn read_installed_version(tree: &dyn Tree) -> Result<Version> {
    let invalid = |message: String| InstallError::Invalid {
        path: VERSION_PATH.into(),
        message,
    };
    let Text::Ok(text) = tree.text(VERSION_PATH) else {
        return Err(invalid("cannot be read as text".into()));
    };
    let value: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| invalid(format!("is not valid JSON ({e})")))?;
    if value.get("framework").and_then(|v| v.as_str()) != Some(FRAMEWORK_NAME) {
        return Err(invalid(format!("`framework` must be \"{FRAMEWORK_NAME}\"")));
    }
    let version = value.get("version").and_then(|v| v.as_str()).unwrap_or("");
    Version::parse(version)
        .ok_or_else(|| invalid(format!("`version` \"{version}\" is not MAJOR.MINOR.PATCH")))
}

fn check_installation_json(tree: &dyn Tree) -> Result<()> {
    let invalid = |message: String| InstallError::Invalid {
        path: INSTALLATION_PATH.into(),
        message,
    };
    let Text::Ok(text) = tree.text(INSTALLATION_PATH) else {
        return Err(invalid("cannot be read as text".into()));
    };
    let value: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| invalid(format!("is not valid JSON ({e})")))?;
    if value.get("framework").and_then(|v| v.as_str()) != Some(FRAMEWORK_NAME) {
        return Err(invalid(format!("`framework` must be \"{FRAMEWORK_NAME}\"")));
    }
    if !value
        .get("managedClientSettings")
        .is_some_and(|v| v.is_object())
    {
        return Err(invalid("`managedClientSettings` must be an object".into()));
    }
    Ok(())
}

/// What install sees in the project root folder itself.
#[derive(Debug, Clone, Default)]
pub struct RootListing {
    /// The names directly in the project root (mode inference, interrupted transactions).
    pub names: Vec<String>,
    /// `.standards/` exists and is an empty folder: nothing there to adopt or
    /// overwrite, so it is a first install. This is how a project is put in a
    /// subfolder of a repository (D1 finds the nearest folder holding `.standards/`).
    pub empty_standards: bool,
    /// Where a committed runtime exists although the working tree has no
    /// `.standards/` (`"the index"` or `"HEAD"`): a sparse checkout or a
    /// deleted folder, never a first install (issue 7, item 2).
    pub committed_runtime: Option<String>,
    /// Chapter-folder files whose working copy equals the index's copy: git
    /// can give them back, so install may remove them (issue 7, item 1).
    pub recoverable: std::collections::BTreeSet<String>,
    /// For each runtime file the working tree lacks, the copy git holds
    /// (absent: none). A committed copy is restored with git, never recreated.
    pub held: std::collections::BTreeMap<&'static str, HeldBy>,
}

/// Computes the plan against the working tree. Pure apart from reading `tree`.
pub fn plan(tree: &dyn Tree, root: &RootListing, request: &Asked) -> Result<Plan> {
    let root_names = &root.names;
    // The Node.js installer (and git-standards before the journal) staged its
    // work in these folders; our own interrupted runs leave a journal instead.
    if let Some(name) = root_names.iter().find(|n| {
        n.starts_with(".standards-install-")
            || n.starts_with(".standards-reset-")
            || n.starts_with(".standards-uninstall-")
    }) {
        return Err(InstallError::refused(
            format!("an interrupted STANDARDS installer transaction was left at `{name}`"),
            Some(format!(
                "an older installer (the Node.js runtime, or git-standards before 0.1) left it; if it holds `operations.json`, each `backup-<n>` there is a file that run replaced: restore what you need, then delete `{name}` and retry"
            )),
        ));
    }
    let binary = Version::current();
    let absent = match tree.node(STANDARDS_DIR) {
        Node::Missing => true,
        Node::Dir => root.empty_standards,
        _ => false,
    };
    if let (true, Some(source)) = (absent, &root.committed_runtime) {
        return Err(InstallError::AbsentRuntime(source.clone()));
    }
    let mut migrated = None;
    let ((kind, mode), restored) = match tree.node(STANDARDS_DIR) {
        Node::Missing => {
            let inferred = infer_mode(root_names.iter().map(String::as_str));
            (
                (InstallKind::First, request.mode.unwrap_or(inferred)),
                Vec::new(),
            )
        }
        Node::Dir if root.empty_standards => {
            let inferred = infer_mode(root_names.iter().map(String::as_str));
            (
                (InstallKind::First, request.mode.unwrap_or(inferred)),
                Vec::new(),
            )
        }
        Node::Dir => inspect_installed(tree, root, request, binary, &mut migrated)?,
        Node::Symlink => {
            return Err(InstallError::refused(
                "refusing to install: `.standards` is a symbolic link",
                Some(
                    "replace it with a real folder inside the repository, or remove it".to_string(),
                ),
            ))
        }
        Node::File(_) | Node::Unreadable(_) => {
            return Err(InstallError::refused(
                "refusing to install: `.standards` exists but is not a folder",
                Some("move the file out of the way".to_string()),
            ))
        }
    };

    let mut ops = Vec::new();
    let put = |path: &str, content: String, ops: &mut Vec<Step>| match tree.node(path) {
        Node::Missing => ops.push(Step::Create {
            path: path.into(),
            content,
        }),
        Node::File(bytes) if bytes == content.as_bytes() => {
            ops.push(Step::Keep { path: path.into() })
        }
        Node::File(_) => ops.push(Step::Replace {
            path: path.into(),
            content,
        }),
        _ => ops.push(Step::Replace {
            path: path.into(),
            content,
        }),
    };
    let mut migrated_lines: Vec<String> = migrated
        .as_ref()
        .map(|m| {
            m.additions
                .iter()
                .map(migration::Addition::describe)
                .collect()
        })
        .unwrap_or_default();
    // Releases before 0.5.0 kept the cycle records under `docs/`.
    if let InstallKind::FromNode { from } = kind {
        if from < Version(0, 5, 0) {
            let moves = migration::moved_records(&tree.markdown_files());
            for (from_path, to) in &moves {
                let Node::File(bytes) = tree.node(from_path) else {
                    continue;
                };
                let content = String::from_utf8(bytes).map_err(|_| InstallError::Invalid {
                    path: from_path.clone(),
                    message: "is not UTF-8 text, so it cannot be moved as a cycle record".into(),
                })?;
                if tree.node(to) != Node::Missing {
                    return Err(InstallError::refused(
                        format!("refusing to upgrade: the cycle record `{from_path}` moves to `{to}`, which already exists"),
                        Some("keep one of the two (move the other out of the project), then run `git standards install` again".to_string()),
                    ));
                }
                if let Some(found) = obstacle(tree, to) {
                    return Err(InstallError::refused(
                        format!("refusing to upgrade: `{}` is not a normal folder inside the project, so `{to}` cannot be written safely", found.component()),
                        Some(format!("replace `{}` with a real folder (or remove it), then run `git standards install` again", found.component())),
                    ));
                }
                ops.push(Step::Create {
                    path: to.clone(),
                    content,
                });
                ops.push(Step::Remove {
                    path: from_path.clone(),
                });
                migrated_lines.push(format!("moved the cycle record `{from_path}` to `{to}`, where releases since 0.5.0 keep it"));
            }
            let base = match (&migrated, tree.text(STATE_PATH)) {
                (Some(m), _) => Some(m.text.clone()),
                (None, Text::Ok(t)) => Some(t),
                _ => None,
            };
            if let Some((text, line)) =
                base.and_then(|b| migration::relocate_development(&b, &moves))
            {
                migrated_lines.push(line);
                match &mut migrated {
                    Some(m) => m.text = text,
                    None => {
                        migrated = Some(migration::Migrated {
                            text,
                            additions: Vec::new(),
                        })
                    }
                }
            }
        }
    }
    if kind == InstallKind::First {
        put(INSTALLATION_PATH, installation_json(), &mut ops);
        put(MODE_PATH, mode::render(mode), &mut ops);
        put(STATE_PATH, state::fresh_template(mode), &mut ops);
    } else {
        for path in [INSTALLATION_PATH, MODE_PATH, STATE_PATH] {
            let content = match (path, &migrated) {
                (STATE_PATH, Some(m)) if !restored.contains(&path) => {
                    ops.push(Step::Replace {
                        path: path.into(),
                        content: m.text.clone(),
                    });
                    continue;
                }
                _ if !restored.contains(&path) => {
                    ops.push(Step::Keep { path: path.into() });
                    continue;
                }
                (INSTALLATION_PATH, _) => installation_json(),
                (MODE_PATH, _) => mode::render(mode),
                _ => state::fresh_template(mode),
            };
            ops.push(Step::Create {
                path: path.into(),
                content,
            });
        }
    }
    if tree.exists(LEGACY_BIN) {
        ops.push(Step::Remove {
            path: LEGACY_BIN.into(),
        });
    }
    for (name, text) in assets::CHAPTERS {
        put(
            &format!("{CHAPTERS_DIR}/{name}"),
            text.to_string(),
            &mut ops,
        );
    }
    // The chapter folder is framework-owned and replaced whole: drop chapters we no longer ship.
    // Only files git holds an unchanged copy of are removed; never anything
    // reached through a link (issue 7, item 1).
    for path in tree.markdown_files() {
        if let Some(name) = path.strip_prefix(&format!("{CHAPTERS_DIR}/")) {
            if !assets::CHAPTERS.iter().any(|(n, _)| *n == name) {
                if let Some(found) = obstacle(tree, &path) {
                    return Err(InstallError::refused(
                        format!(
                            "refusing to install: `{}` is not a normal folder inside the project, so `{path}` cannot be removed safely",
                            found.component()
                        ),
                        Some(format!("replace `{}` with a real folder (or remove it), then run `git standards install` again", found.component())),
                    ));
                }
                match tree.node(&path) {
                    Node::File(_) if root.recoverable.contains(&path) => {
                        ops.push(Step::Remove { path })
                    }
                    Node::File(_) => ops.push(Step::Leave { path }),
                    Node::Missing => {}
                    Node::Symlink => {
                        return Err(InstallError::refused(
                            format!("refusing to install: `{path}` is a symbolic link in the framework's chapter folder"),
                            Some(format!("remove the link `{path}`, then run `git standards install` again")),
                        ))
                    }
                    _ => ops.push(Step::Leave { path }),
                }
            }
        }
    }
    put(VERSION_PATH, version_json(binary), &mut ops);
    // Last, so the ownership marker appears only once everything else is in place.
    put(PROTOCOL_PATH, assets::PROTOCOL.to_string(), &mut ops);
    Ok(Plan {
        kind,
        mode,
        changes: ops.into_iter().collect(),
        restored,
        migrated: migrated_lines,
    })
}

/// Runtime files of an installed runtime that `inspect_installed` may
/// recreate, in the order it looks at them.
pub const REPAIRABLE: [&str; 4] = [VERSION_PATH, INSTALLATION_PATH, MODE_PATH, STATE_PATH];

/// The missing runtime files install recreates: only those git holds no copy
/// of, MODE.md only with `--mode` (the project mode is never guessed for an
/// installed project), STATE.md only while no cycle records exist. Anything
/// else is a refusal whose hint names the command that does bring it back.
fn repairs(tree: &dyn Tree, root: &RootListing, request: &Asked) -> Result<Vec<&'static str>> {
    let records = has_records(tree);
    let mut restored = Vec::new();
    for path in REPAIRABLE {
        if tree.exists(path) {
            continue;
        }
        let held = root.held.get(path).copied().unwrap_or(HeldBy::Nothing);
        let recreatable = held == HeldBy::Nothing
            && match path {
                MODE_PATH => request.mode.is_some(),
                STATE_PATH => !records,
                _ => true,
            };
        if !recreatable {
            let why = match held {
                HeldBy::Index => "; the index holds it, and install never recreates a committed file",
                HeldBy::Head => "; HEAD holds it, and install never recreates a committed file",
                _ if path == MODE_PATH => "; git holds no copy of it, and the project mode of an installed project is never guessed",
                _ => "; git holds no copy of it, and `.standards/docs/` holds cycle records whose state a fresh STATE.md would lose",
            };
            return Err(InstallError::refused(
                format!("refusing to install: `{path}` is missing from the installed runtime{why}"),
                Some(missing_file_hint(path, Snapshot::Worktree, held, records)),
            ));
        }
        restored.push(path);
    }
    Ok(restored)
}

fn inspect_installed(
    tree: &dyn Tree,
    root: &RootListing,
    request: &Asked,
    binary: Version,
    migrated: &mut Option<migration::Migrated>,
) -> Result<((InstallKind, ProjectMode), Vec<&'static str>)> {
    let found = conflicts::find(tree);
    if !found.is_empty() {
        return Err(InstallError::refused(
            format!("refusing to install: `.standards/` has unresolved merge conflicts in {}", conflicts::describe(&found)),
            Some("resolve the conflicts (keep exactly one cycle in STATE.md), commit, then install again".to_string()),
        ));
    }
    let protocol = tree.text(PROTOCOL_PATH);
    let why = match &protocol {
        Text::Ok(text) if text.contains(MARKER) => None,
        Text::Ok(_) => Some("its PROTOCOL.md lacks the framework marker"),
        Text::Missing => Some("it has no PROTOCOL.md"),
        Text::Unreadable(_) => Some("its PROTOCOL.md cannot be read"),
    };
    if let Some(why) = why {
        return Err(InstallError::refused(
            format!(
                "refusing to install: `.standards/` exists but is not a STANDARDS runtime ({why})"
            ),
            Some(
                "move the folder away if it is yours; git standards never adopts or overwrites it"
                    .to_string(),
            ),
        ));
    }
    let restored = repairs(tree, root, request)?;
    let node = tree.exists(LEGACY_BIN)
        || matches!(&protocol, Text::Ok(text) if migration::installed_by_node(text));
    let installed_mode = match request.mode {
        Some(requested) if restored.contains(&MODE_PATH) => requested,
        _ => {
            let mode_text = match tree.text(MODE_PATH) {
                Text::Ok(t) => t,
                _ => {
                    return Err(InstallError::Invalid {
                        path: MODE_PATH.into(),
                        message: "cannot be read as text".into(),
                    })
                }
            };
            mode::parse(&mode_text)?
        }
    };
    let state_text = match tree.text(STATE_PATH) {
        Text::Ok(t) => t,
        Text::Missing if restored.contains(&STATE_PATH) => state::fresh_template(installed_mode),
        _ => {
            return Err(InstallError::Invalid {
                path: STATE_PATH.into(),
                message: "cannot be read as text".into(),
            })
        }
    };
    // A STATE.md an older Node release wrote lacks the fields later releases
    // added: add them with the values that release implied (issue 29).
    *migrated = migration::migrate_state(&state_text).map_err(|e| {
        InstallError::refused(
            format!("refusing to upgrade: `{STATE_PATH}` {e}"),
            Some(format!(
                "add one of these to the `## Active Work` section of `{STATE_PATH}`, before `Id`: {}; then run `git standards install` again",
                e.choices.join(", or ")
            )),
        )
    })?;
    let state_text = match migrated {
        Some(m) => m.text.clone(),
        None => state_text,
    };
    let doc = state::StateDoc::parse(&state_text)?;
    if installed_mode == ProjectMode::Greenfield {
        for (field, value) in [
            ("CycleMode", doc.cycle_mode.value),
            ("PendingCycleMode", doc.pending_cycle_mode.value),
        ] {
            if matches!(value, CycleMode::Expedited | CycleMode::Documentation) {
                return Err(InstallError::refused(
                    format!("inconsistent runtime: a GREENFIELD project cannot have `{field}` `{value}`"),
                    Some("greenfield projects run only STANDARD cycles; fix STATE.md or MODE.md first".to_string()),
                ));
            }
        }
    }
    if !restored.contains(&INSTALLATION_PATH) {
        check_installation_json(tree)?;
    }
    // A lost VERSION.json is written for this binary: the chapters are
    // replaced by this version's either way.
    let installed = if restored.contains(&VERSION_PATH) {
        binary
    } else {
        read_installed_version(tree)?
    };
    if node && installed != binary {
        // The Node release numbers run ahead of ours: every one upgrades.
        // (A VERSION.json naming this very version is ours, whatever the
        // Node remnants beside it: a reinstall, as before.)
        return Ok((
            (InstallKind::FromNode { from: installed }, installed_mode),
            restored,
        ));
    }
    if installed.0 != binary.0 {
        return Err(InstallError::refused(
            format!("the installed runtime is version {installed}; this git-standards is {binary}, and there is no migration between major versions"),
            Some(format!("install git-standards {}.x to work with this project", installed.0)),
        ));
    }
    if installed > binary {
        return Err(InstallError::refused(
            format!("downgrading the runtime from {installed} to {binary} is unsupported"),
            Some(format!("install git-standards {installed} or newer")),
        ));
    }
    if let Some(requested) = request.mode {
        if requested != installed_mode {
            return Err(InstallError::refused(
                format!("the project is installed as {installed_mode}; install cannot change the mode to {requested}"),
                Some(format!("only a project reset chooses the mode again, and it archives and deletes the workflow state and cycle records: preview it with `git standards reset --mode {0} --dry-run`, then run `git standards reset --mode {0} --yes`", requested.to_string().to_lowercase())),
            ));
        }
    }
    let kind = if installed == binary {
        InstallKind::Reinstall
    } else {
        InstallKind::Upgrade { from: installed }
    };
    Ok(((kind, installed_mode), restored))
}

impl Plan {
    /// Writes `INSTALLATION.json` with `text` (the client part's record).
    pub fn set_manifest(&mut self, tree: &dyn Tree, text: String) {
        let op = match tree.node(INSTALLATION_PATH) {
            Node::File(bytes) if bytes == text.as_bytes() => Step::Keep {
                path: INSTALLATION_PATH.into(),
            },
            Node::Missing => Step::Create {
                path: INSTALLATION_PATH.into(),
                content: text,
            },
            _ => Step::Replace {
                path: INSTALLATION_PATH.into(),
                content: text,
            },
        };
        if let Some(slot) = self
            .changes
            .steps
            .iter_mut()
            .find(|o| o.path() == INSTALLATION_PATH)
        {
            *slot = op;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::tree::MemTree;

    fn names(v: &[&str]) -> RootListing {
        RootListing {
            names: v.iter().map(|s| s.to_string()).collect(),
            ..RootListing::default()
        }
    }

    #[test]
    fn mode_inference() {
        assert_eq!(
            infer_mode(["README.md", ".git", "Cargo.toml"]),
            ProjectMode::Greenfield
        );
        assert_eq!(infer_mode(["src", ".git"]), ProjectMode::Brownfield);
        assert_eq!(
            infer_mode(["readme.md"]),
            ProjectMode::Brownfield,
            "case-sensitive"
        );
        assert_eq!(infer_mode([]), ProjectMode::Greenfield);
    }

    #[test]
    fn first_install_creates_exactly_the_runtime() {
        let p = plan(&MemTree::new(), &names(&[".git"]), &Asked::default()).unwrap();
        assert_eq!(p.kind, InstallKind::First);
        assert_eq!(p.mode, ProjectMode::Greenfield);
        let created: Vec<&str> = p.changes.steps.iter().map(Step::path).collect();
        assert_eq!(
            created,
            [
                INSTALLATION_PATH,
                MODE_PATH,
                STATE_PATH,
                ".standards/protocol/expedited.md",
                ".standards/protocol/installation.md",
                ".standards/protocol/user-decisions.md",
                VERSION_PATH,
                PROTOCOL_PATH
            ]
        );
        assert!(p
            .changes
            .steps
            .iter()
            .all(|op| matches!(op, Step::Create { .. })));
    }

    fn installed(mode: ProjectMode) -> MemTree {
        let mut t = MemTree::new();
        for op in plan(
            &MemTree::new(),
            &RootListing::default(),
            &Asked { mode: Some(mode) },
        )
        .unwrap()
        .changes
        .steps
        {
            if let Step::Create { path, content } = op {
                t.insert(&path, content);
            }
        }
        t
    }

    #[test]
    fn reinstall_keeps_state_and_verifies() {
        let t = installed(ProjectMode::Brownfield);
        let p = plan(&t, &names(&[".standards", "src"]), &Asked::default()).unwrap();
        assert_eq!(p.kind, InstallKind::Reinstall);
        assert!(
            p.changes
                .steps
                .iter()
                .all(|op| matches!(op, Step::Keep { .. })),
            "{:?}",
            p.changes.steps
        );
    }

    #[test]
    fn reinstall_refuses_another_mode_conflicts_and_foreign_folders() {
        let t = installed(ProjectMode::Brownfield);
        let e = plan(
            &t,
            &RootListing::default(),
            &Asked {
                mode: Some(ProjectMode::Greenfield),
            },
        )
        .unwrap_err();
        assert!(e.to_string().contains("cannot change the mode"));

        let mut conflicted = t.clone();
        conflicted.insert(
            STATE_PATH,
            "<<<<<<< ours\n`Id`: `a`\n=======\n`Id`: `b`\n>>>>>>> theirs\n",
        );
        let e = plan(&conflicted, &RootListing::default(), &Asked::default()).unwrap_err();
        assert!(e.to_string().contains("unresolved merge conflicts"), "{e}");

        let foreign = MemTree::new().with(".standards/notes.md", "mine");
        assert!(plan(&foreign, &RootListing::default(), &Asked::default())
            .unwrap_err()
            .to_string()
            .contains("not a STANDARDS runtime"));

        let e = plan(
            &MemTree::new(),
            &names(&[".standards-install-abc"]),
            &Asked::default(),
        )
        .unwrap_err();
        assert!(e.to_string().contains("interrupted"));
    }

    #[test]
    fn upgrade_and_version_rules() {
        let mut t = installed(ProjectMode::Brownfield);
        let mut older = Version::current();
        older.2 = older.2.wrapping_sub(1);
        if older < Version::current() {
            t.insert(VERSION_PATH, version_json(older));
            let p = plan(&t, &RootListing::default(), &Asked::default()).unwrap();
            assert_eq!(p.kind, InstallKind::Upgrade { from: older });
        }
        let newer = Version(Version::current().0, Version::current().1 + 1, 0);
        t.insert(VERSION_PATH, version_json(newer));
        assert!(plan(&t, &RootListing::default(), &Asked::default())
            .unwrap_err()
            .to_string()
            .contains("downgrading"));
        t.insert(
            VERSION_PATH,
            version_json(Version(Version::current().0 + 1, 0, 0)),
        );
        assert!(plan(&t, &RootListing::default(), &Asked::default())
            .unwrap_err()
            .to_string()
            .contains("major"));
        assert_eq!(Version::parse("01.2.3"), None);
        assert_eq!(Version::parse("1.2"), None);
    }

    #[test]
    fn a_missing_runtime_file_git_holds_no_copy_of_is_recreated_and_said() {
        for path in [VERSION_PATH, INSTALLATION_PATH, STATE_PATH] {
            let mut t = installed(ProjectMode::Brownfield);
            t.remove(path);
            let p = plan(&t, &RootListing::default(), &Asked::default()).unwrap();
            assert_eq!(p.restored, [path]);
            assert_eq!(p.kind, InstallKind::Reinstall);
            assert!(
                p.changes
                    .steps
                    .iter()
                    .any(|o| matches!(o, Step::Create { path: c, .. } if c == path)),
                "{path}: {:?}",
                p.changes.steps
            );
        }
        // MODE.md only with the mode said: an installed project's mode is never guessed.
        let mut t = installed(ProjectMode::Greenfield);
        t.remove(MODE_PATH);
        let Err(InstallError::Refused { hint, .. }) =
            plan(&t, &RootListing::default(), &Asked::default())
        else {
            panic!("MODE.md recreated without --mode")
        };
        assert!(hint
            .unwrap()
            .contains("git standards install --mode greenfield"));
        let with_mode = Asked {
            mode: Some(ProjectMode::Greenfield),
        };
        let p = plan(&t, &RootListing::default(), &with_mode).unwrap();
        assert_eq!(p.restored, [MODE_PATH]);
        assert!(p.changes.steps.contains(&Step::Create {
            path: MODE_PATH.into(),
            content: mode::render(ProjectMode::Greenfield)
        }));
    }

    #[test]
    fn a_missing_runtime_file_that_git_holds_or_a_lost_cycle_is_refused_with_its_restore() {
        for (held, command) in [
            (HeldBy::Index, "`git restore .standards/STATE.md`"),
            (
                HeldBy::Head,
                "`git restore --source=HEAD --staged --worktree .standards/STATE.md`",
            ),
        ] {
            let mut t = installed(ProjectMode::Brownfield);
            t.remove(STATE_PATH);
            let listing = RootListing {
                held: [(STATE_PATH, held)].into_iter().collect(),
                ..RootListing::default()
            };
            let Err(InstallError::Refused { message, hint }) =
                plan(&t, &listing, &Asked::default())
            else {
                panic!("a committed STATE.md was recreated")
            };
            assert!(
                message.contains("never recreates a committed file"),
                "{message}"
            );
            assert!(hint.unwrap().contains(command));
        }
        let mut t = installed(ProjectMode::Brownfield);
        t.remove(STATE_PATH);
        t.insert(".standards/docs/scope/c-1.md", "# Scope\n");
        assert!(plan(&t, &RootListing::default(), &Asked::default()).is_err());
    }

    #[test]
    fn only_unchanged_tracked_chapters_are_removed_and_never_through_links() {
        let old = format!("{CHAPTERS_DIR}/retired.md");
        let mine = format!("{CHAPTERS_DIR}/my-notes.md");
        let t = installed(ProjectMode::Brownfield)
            .with(&old, "old chapter")
            .with(&mine, "user notes");
        let listing = RootListing {
            recoverable: [old.clone()].into_iter().collect(),
            ..RootListing::default()
        };
        let p = plan(&t, &listing, &Asked::default()).unwrap();
        assert!(p
            .changes
            .steps
            .contains(&Step::Remove { path: old.clone() }));
        assert!(p
            .changes
            .steps
            .contains(&Step::Leave { path: mine.clone() }));
        // A chapter below a linked folder refuses the whole install.
        let mut linked = installed(ProjectMode::Brownfield);
        linked.insert_node(&format!("{CHAPTERS_DIR}/sub"), Node::Symlink);
        linked.insert(&format!("{CHAPTERS_DIR}/sub/x.md"), "x");
        let e = plan(&linked, &listing, &Asked::default()).unwrap_err();
        assert!(e.to_string().contains("not a normal folder"), "{e}");
    }

    #[test]
    fn legacy_node_tools_are_removed() {
        let mut t = installed(ProjectMode::Brownfield);
        t.insert(".standards/bin/check.mjs", "// node");
        let p = plan(&t, &RootListing::default(), &Asked::default()).unwrap();
        assert!(p.changes.steps.contains(&Step::Remove {
            path: LEGACY_BIN.into()
        }));
    }

    #[test]
    fn greenfield_refuses_expedited_or_documentation() {
        let mut t = installed(ProjectMode::Greenfield);
        let s = state::fresh_template(ProjectMode::Greenfield).replace(
            "`PendingCycleMode`: `UNSET`",
            "`PendingCycleMode`: `DOCUMENTATION`",
        );
        t.insert(STATE_PATH, s);
        assert!(plan(&t, &RootListing::default(), &Asked::default())
            .unwrap_err()
            .to_string()
            .contains("GREENFIELD"));
    }

    #[test]
    fn an_empty_standards_folder_is_a_first_install() {
        let empty = RootListing {
            names: vec![".standards".into()],
            empty_standards: true,
            ..RootListing::default()
        };
        // The tree shows the empty folder as a folder with nothing in it.
        let mut t = MemTree::new();
        t.insert_node(STANDARDS_DIR, Node::Dir);
        let p = plan(&t, &empty, &Asked::default()).unwrap();
        assert_eq!(p.kind, InstallKind::First);
        assert_eq!(p.mode, ProjectMode::Greenfield);
        // A folder with anything in it is never adopted.
        let e = plan(&t, &names(&[".standards"]), &Asked::default()).unwrap_err();
        assert!(e.to_string().contains("not a STANDARDS runtime"), "{e}");
    }
}
