//! `git standards install`: first install, reinstall and upgrade of the runtime
//! (RT §7.6, decisions D2, D8, D10).

use std::io::Write;

use crate::commands::paths::PathView;
use crate::commands::{audit, Context};
use crate::error::{Error, Result};
use crate::repo::{journal, notes_config, trail, Project};
use standards_core::assets;
use standards_core::audit::{Event, EventKind};
use standards_core::check::runtime::{has_records, missing_file_hint, HeldBy, Snapshot};
use standards_core::model::layout::{
    CHAPTERS_DIR, FRAMEWORK_NAME, INSTALLATION_PATH, MARKER, MODE_PATH, PROTOCOL_PATH,
    STANDARDS_DIR, STATE_PATH, VERSION_PATH,
};
use standards_core::model::tree::{obstacle, Node, Text, Tree};
use standards_core::model::vocab::{CycleMode, ProjectMode};
use standards_core::model::{mode, state};
use standards_core::setup::migration;
use standards_core::workflow::conflicts;

/// A validated install request.
#[derive(Debug, Clone, Default)]
pub struct Request {
    pub mode: Option<ProjectMode>,
    pub dry_run: bool,
    /// The agent-client part (`--client`, `--hooks`/`--no-hooks`).
    pub clients: super::clients::Request,
    /// Print one JSON object on stdout instead of the report (never asks).
    pub json: bool,
}

/// The Node runtime's tool folder, removed on install (D2).
const LEGACY_BIN: &str = ".standards/bin";

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
fn mode_reason(mode: ProjectMode, root_names: &[String]) -> String {
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

/// One planned change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Op {
    Create {
        path: String,
        content: String,
    },
    Replace {
        path: String,
        content: String,
    },
    /// A framework-owned file or folder that this version no longer ships.
    Remove {
        path: String,
    },
    Keep {
        path: String,
    },
    /// A file in the chapter folder that this version does not ship but that
    /// git holds no unchanged copy of (untracked or edited): the user's, kept.
    Leave {
        path: String,
    },
}

impl Op {
    pub fn path(&self) -> &str {
        match self {
            Op::Create { path, .. }
            | Op::Replace { path, .. }
            | Op::Remove { path }
            | Op::Keep { path }
            | Op::Leave { path } => path,
        }
    }
}

/// What `install` will do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    pub kind: InstallKind,
    pub mode: ProjectMode,
    pub ops: Vec<Op>,
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

pub(crate) fn read_installed_version(tree: &dyn Tree) -> Result<Version> {
    let invalid = |message: String| Error::Invalid {
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
    let invalid = |message: String| Error::Invalid {
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

/// The refusal for a runtime that is committed but absent from the working tree.
fn refuse_absent_runtime(source: &str) -> Error {
    Error::refused(
        format!("refusing to install: `.standards/` is missing from the working tree, but {source} holds an installed runtime; a first install would replace the committed workflow state"),
        Some(format!("bring it back with `{}` (or, in a sparse checkout, `git sparse-checkout add .standards`), then run `git standards install` again", crate::commands::runtime::restore_command(source))),
    )
}

/// Computes the plan against the working tree. Pure apart from reading `tree`.
pub fn plan(tree: &dyn Tree, root: &RootListing, request: &Request) -> Result<Plan> {
    let root_names = &root.names;
    // The Node.js installer (and git-standards before the journal) staged its
    // work in these folders; our own interrupted runs leave a journal instead.
    if let Some(name) = root_names.iter().find(|n| {
        n.starts_with(".standards-install-")
            || n.starts_with(".standards-reset-")
            || n.starts_with(".standards-uninstall-")
    }) {
        return Err(Error::refused(
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
        return Err(refuse_absent_runtime(source));
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
            return Err(Error::refused(
                "refusing to install: `.standards` is a symbolic link",
                Some(
                    "replace it with a real folder inside the repository, or remove it".to_string(),
                ),
            ))
        }
        Node::File(_) | Node::Unreadable(_) => {
            return Err(Error::refused(
                "refusing to install: `.standards` exists but is not a folder",
                Some("move the file out of the way".to_string()),
            ))
        }
    };

    let mut ops = Vec::new();
    let put = |path: &str, content: String, ops: &mut Vec<Op>| match tree.node(path) {
        Node::Missing => ops.push(Op::Create {
            path: path.into(),
            content,
        }),
        Node::File(bytes) if bytes == content.as_bytes() => {
            ops.push(Op::Keep { path: path.into() })
        }
        Node::File(_) => ops.push(Op::Replace {
            path: path.into(),
            content,
        }),
        _ => ops.push(Op::Replace {
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
                let content = String::from_utf8(bytes).map_err(|_| Error::Invalid {
                    path: from_path.clone(),
                    message: "is not UTF-8 text, so it cannot be moved as a cycle record".into(),
                })?;
                if tree.node(to) != Node::Missing {
                    return Err(Error::refused(
                        format!("refusing to upgrade: the cycle record `{from_path}` moves to `{to}`, which already exists"),
                        Some("keep one of the two (move the other out of the project), then run `git standards install` again".to_string()),
                    ));
                }
                if let Some(found) = obstacle(tree, to) {
                    return Err(Error::refused(
                        format!("refusing to upgrade: `{}` is not a normal folder inside the project, so `{to}` cannot be written safely", found.component()),
                        Some(format!("replace `{}` with a real folder (or remove it), then run `git standards install` again", found.component())),
                    ));
                }
                ops.push(Op::Create {
                    path: to.clone(),
                    content,
                });
                ops.push(Op::Remove {
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
                    ops.push(Op::Replace {
                        path: path.into(),
                        content: m.text.clone(),
                    });
                    continue;
                }
                _ if !restored.contains(&path) => {
                    ops.push(Op::Keep { path: path.into() });
                    continue;
                }
                (INSTALLATION_PATH, _) => installation_json(),
                (MODE_PATH, _) => mode::render(mode),
                _ => state::fresh_template(mode),
            };
            ops.push(Op::Create {
                path: path.into(),
                content,
            });
        }
    }
    if tree.exists(LEGACY_BIN) {
        ops.push(Op::Remove {
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
                    return Err(Error::refused(
                        format!(
                            "refusing to install: `{}` is not a normal folder inside the project, so `{path}` cannot be removed safely",
                            found.component()
                        ),
                        Some(format!("replace `{}` with a real folder (or remove it), then run `git standards install` again", found.component())),
                    ));
                }
                match tree.node(&path) {
                    Node::File(_) if root.recoverable.contains(&path) => {
                        ops.push(Op::Remove { path })
                    }
                    Node::File(_) => ops.push(Op::Leave { path }),
                    Node::Missing => {}
                    Node::Symlink => {
                        return Err(Error::refused(
                            format!("refusing to install: `{path}` is a symbolic link in the framework's chapter folder"),
                            Some(format!("remove the link `{path}`, then run `git standards install` again")),
                        ))
                    }
                    _ => ops.push(Op::Leave { path }),
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
        ops,
        restored,
        migrated: migrated_lines,
    })
}

/// Runtime files of an installed runtime that `inspect_installed` may
/// recreate, in the order it looks at them.
const REPAIRABLE: [&str; 4] = [VERSION_PATH, INSTALLATION_PATH, MODE_PATH, STATE_PATH];

/// The missing runtime files install recreates: only those git holds no copy
/// of, MODE.md only with `--mode` (the project mode is never guessed for an
/// installed project), STATE.md only while no cycle records exist. Anything
/// else is a refusal whose hint names the command that does bring it back.
fn repairs(tree: &dyn Tree, root: &RootListing, request: &Request) -> Result<Vec<&'static str>> {
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
            return Err(Error::refused(
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
    request: &Request,
    binary: Version,
    migrated: &mut Option<migration::Migrated>,
) -> Result<((InstallKind, ProjectMode), Vec<&'static str>)> {
    let found = conflicts::find(tree);
    if !found.is_empty() {
        return Err(Error::refused(
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
        return Err(Error::refused(
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
                    return Err(Error::Invalid {
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
            return Err(Error::Invalid {
                path: STATE_PATH.into(),
                message: "cannot be read as text".into(),
            })
        }
    };
    // A STATE.md an older Node release wrote lacks the fields later releases
    // added: add them with the values that release implied (issue 29).
    *migrated = migration::migrate_state(&state_text).map_err(|e| {
        Error::refused(
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
                return Err(Error::refused(
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
        return Err(Error::refused(
            format!("the installed runtime is version {installed}; this git-standards is {binary}, and there is no migration between major versions"),
            Some(format!("install git-standards {}.x to work with this project", installed.0)),
        ));
    }
    if installed > binary {
        return Err(Error::refused(
            format!("downgrading the runtime from {installed} to {binary} is unsupported"),
            Some(format!("install git-standards {installed} or newer")),
        ));
    }
    if let Some(requested) = request.mode {
        if requested != installed_mode {
            return Err(Error::refused(
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

/// Runs `install`.
pub fn run(ctx: &mut Context, request: &Request) -> Result<()> {
    if !request.json {
        return install(ctx, request);
    }
    // `--json` (issue 25): the report's lines in one object; never asks.
    let mut request = request.clone();
    request.clients.no_prompt = true;
    let mut lines = Vec::new();
    {
        let mut inner = Context {
            cwd: ctx.cwd.clone(),
            out: &mut lines,
            err: &mut *ctx.err,
            color: false,
        };
        install(&mut inner, &request)?;
    }
    let lines = String::from_utf8_lossy(&lines);
    let value = serde_json::json!({
        "ok": true,
        "command": "install",
        "dryRun": request.dry_run,
        "lines": lines.lines().collect::<Vec<_>>(),
    });
    super::print_result(ctx.out, true, "", value)
}

fn install(ctx: &mut Context, request: &Request) -> Result<()> {
    let project = Project::discover(&ctx.cwd)?;
    let root = project.require_workdir()?.to_path_buf();
    // Issue 21: held from reading the installed files to the last write (a
    // preview writes nothing, not even the lock file).
    let _lock = if request.dry_run {
        None
    } else {
        Some(journal::lock(&project, "install")?)
    };
    journal::refuse_if_pending(&project)?;
    crate::commands::conflicts::refuse_during_conflict(ctx, &project, "install")?;
    // Install always targets the project root found by D1.
    let root = if project.root().starts_with(&root) {
        project.root().to_path_buf()
    } else {
        root
    };
    let tree = project.worktree()?;
    let mut names: Vec<String> = std::fs::read_dir(&root)
        .map_err(|e| Error::io(&root, e))?
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let listing_names = names;
    let standards = root.join(STANDARDS_DIR);
    let empty_standards = std::fs::symlink_metadata(&standards).is_ok_and(|m| m.is_dir())
        && std::fs::read_dir(&standards)
            .map_err(|e| Error::io(&standards, e))?
            .next()
            .is_none();
    let index = project.index()?;
    let committed_runtime = crate::commands::runtime::committed_runtime(&project, &tree)?;
    let head = project.head()?;
    let held = REPAIRABLE
        .into_iter()
        .filter(|p| !tree.exists(p))
        .filter_map(|p| {
            if index.exists(p) {
                Some((p, HeldBy::Index))
            } else if head.as_ref().is_some_and(|h| h.exists(p)) {
                Some((p, HeldBy::Head))
            } else {
                None
            }
        })
        .collect();
    let recoverable = tree
        .markdown_files()
        .into_iter()
        .filter(|p| p.starts_with(&format!("{CHAPTERS_DIR}/")))
        .filter(|p| matches!(index.node(p), Node::File(_)) && tree.node(p) == index.node(p))
        .collect();
    let planned = plan(
        &tree,
        &RootListing {
            names: listing_names.clone(),
            empty_standards,
            committed_runtime,
            recoverable,
            held,
        },
        request,
    );
    let mut plan = planned?;
    let clients = plan_clients(&tree, &root, &plan, &request.clients)?;
    plan.set_manifest(&tree, clients.manifest.clone());

    // Everything is validated: the audit trail's git settings come first, so
    // the event (a step of the journal below) names what was really set. A
    // config that cannot be written is a warning with the commands to run,
    // never a failed install.
    let settings = match trail::configure(&project, request.dry_run) {
        Ok(settings) => settings,
        Err(e) => {
            let _ = writeln!(
                ctx.err,
                "warning: the audit trail's git settings were not set: {e}\nwarning: set them with: {}",
                notes_config::commands().join(" && ")
            );
            Vec::new()
        }
    };
    if !request.dry_run {
        // The client files first, PROTOCOL.md (the ownership marker) next,
        // the events last (issue 21): the install lands with its events,
        // after a crash through `recover`, or not at all.
        let mut all = super::clients::changes(&clients);
        all.extend(changes(&plan));
        all.extend(events(&project, &plan, &settings, &clients));
        journal::write_all(&project, "install", all, serde_json::Value::Null)?;
    }
    let inferred = (plan.kind == InstallKind::First && request.mode.is_none())
        .then(|| mode_reason(plan.mode, &listing_names));
    let view = PathView::new(&ctx.cwd, &root);
    print_plan(
        ctx.out,
        &plan,
        &root,
        request.dry_run,
        inferred.as_deref(),
        &view,
    )?;
    for path in &plan.restored {
        let path = view.show(path);
        writeln!(
            ctx.out,
            "{}",
            if request.dry_run {
                format!("Would restore `{path}`: it is missing and git holds no copy of it, so it would be recreated from this version's template.")
            } else {
                format!("Restored `{path}`: it was missing and git holds no copy of it, so it was recreated from this version's template.")
            }
        )
        .map_err(Error::stdout)?;
    }
    for op in &plan.ops {
        if let Op::Leave { path } = op {
            let path = view.show(path);
            let _ = writeln!(
                ctx.err,
                "Left `{path}` in place: this version no longer ships it, but git has no unchanged copy of it, so it may be yours; delete it yourself if it is not."
            );
        }
    }
    print_settings(ctx, &settings, request.dry_run)?;
    super::clients::print(ctx.out, &clients, request.dry_run, &view)?;
    if plan.kind == InstallKind::First && !request.dry_run {
        // The first cycle's first role: SCOPING for greenfield, AUDITING for brownfield.
        let role = match plan.mode {
            ProjectMode::Greenfield => "scoper",
            ProjectMode::Brownfield => "auditor",
        };
        let written = written_roots(&plan, &clients)
            .iter()
            .map(|p| super::runtime::shell_word(&view.show(p)))
            .collect::<Vec<_>>()
            .join(" ");
        writeln!(
            ctx.out,
            "First steps: commit what install wrote (`git add {written} && git commit -m \"Install STANDARDS\"`), then start the first cycle with `git standards start --request \"<what you want done>\"`; it hands the cycle to the {role}, invoked as `/{role}` in Claude Code or `${role}` in Codex."
        )
        .map_err(Error::stdout)?;
    }
    Ok(())
}

/// The install's events as steps of its journal: `installed` or `upgraded`,
/// then `clients-installed` when client files changed.
fn events(
    project: &Project,
    plan: &Plan,
    settings: &[notes_config::Setting],
    clients: &super::clients::Plan,
) -> Vec<journal::Change> {
    std::iter::once(install_event(plan, settings))
        .chain(super::clients::event(clients))
        .map(|event| audit::journalled(project, event).0)
        .collect()
}

/// The top-level paths an install wrote, `.standards` first (issue 25, item
/// 7): what the first commit adds, so no client file is left untracked.
/// Every one exists once the install is done: each holds a written file.
fn written_roots(plan: &Plan, clients: &super::clients::Plan) -> Vec<String> {
    let runtime = plan.ops.iter().filter_map(|op| match op {
        Op::Create { path, .. } | Op::Replace { path, .. } => Some(path.as_str()),
        _ => None,
    });
    let client = clients.ops.iter().filter_map(|op| match op {
        super::clients::Op::Write { path, .. } => Some(path.as_str()),
        _ => None,
    });
    let mut roots: Vec<String> = Vec::new();
    for path in runtime.chain(client) {
        let top = path.split('/').next().unwrap_or(path).to_string();
        if !roots.contains(&top) {
            roots.push(top);
        }
    }
    roots.sort_by_key(|r| (r != standards_core::model::layout::STANDARDS_DIR, r.clone()));
    roots
}

/// `installed` for a first install, `upgraded` for an upgrade or a reinstall.
fn install_event(plan: &Plan, settings: &[notes_config::Setting]) -> Event {
    let changed: Vec<&str> = plan
        .ops
        .iter()
        .filter(|op| !matches!(op, Op::Keep { .. } | Op::Leave { .. }))
        .map(Op::path)
        .collect();
    let set: Vec<String> = settings
        .iter()
        .filter(|s| s.outcome == notes_config::Outcome::Set)
        .map(notes_config::Setting::assignment)
        .collect();
    let version = Version::current().to_string();
    match plan.kind {
        InstallKind::First => Event::new(EventKind::Installed)
            .detail("version", version)
            .detail("mode", plan.mode.to_string())
            .detail("created", changed)
            .detail("config", set),
        InstallKind::Upgrade { from } => Event::new(EventKind::Upgraded)
            .detail("from", from.to_string())
            .detail("version", version)
            .detail("mode", plan.mode.to_string())
            .detail("changed", changed)
            .detail("config", set),
        InstallKind::FromNode { from } => Event::new(EventKind::Upgraded)
            .detail("from", format!("node {from}"))
            .detail("version", version)
            .detail("mode", plan.mode.to_string())
            .detail("changed", changed)
            .detail("migrated", plan.migrated.clone())
            .detail("config", set),
        InstallKind::Reinstall => Event::new(EventKind::Upgraded)
            .detail("from", version.clone())
            .detail("version", version)
            .detail("mode", plan.mode.to_string())
            .detail("changed", changed)
            .detail("config", set),
    }
}

/// The git settings of the audit trail: what was set on stdout, a kept
/// different value as a warning on stderr.
fn print_settings(
    ctx: &mut Context,
    settings: &[notes_config::Setting],
    dry_run: bool,
) -> Result<()> {
    use notes_config::Outcome;
    for s in settings {
        match &s.outcome {
            Outcome::Set => {
                let verb = if dry_run { "would set" } else { "set" };
                writeln!(ctx.out, "{verb:<14} git config {}", s.assignment())
                    .map_err(Error::stdout)?;
            }
            Outcome::AlreadySet => {}
            Outcome::KeptOther(other) => {
                let _ = writeln!(
                    ctx.err,
                    "warning: git config {} is `{other}`, not `{}`; it was kept, but the audit trail's notes may then not merge line by line (set it with `git config {} {}`)",
                    s.key, s.value, s.key, s.value
                );
            }
        }
    }
    Ok(())
}

/// The client part (`commands::clients`), planned against the manifest this
/// install starts from.
fn plan_clients(
    tree: &dyn Tree,
    root: &std::path::Path,
    plan: &Plan,
    request: &super::clients::Request,
) -> Result<super::clients::Plan> {
    let manifest = match (plan.kind, tree.text(INSTALLATION_PATH)) {
        (InstallKind::First, _) => installation_json(),
        (_, Text::Ok(t)) => t,
        _ => installation_json(),
    };
    let list = super::clients::disk_lister(root);
    super::clients::plan(tree, &manifest, request, &list)
}

impl Plan {
    /// Writes `INSTALLATION.json` with `text` (the client part's record).
    fn set_manifest(&mut self, tree: &dyn Tree, text: String) {
        let op = match tree.node(INSTALLATION_PATH) {
            Node::File(bytes) if bytes == text.as_bytes() => Op::Keep {
                path: INSTALLATION_PATH.into(),
            },
            Node::Missing => Op::Create {
                path: INSTALLATION_PATH.into(),
                content: text,
            },
            _ => Op::Replace {
                path: INSTALLATION_PATH.into(),
                content: text,
            },
        };
        if let Some(slot) = self.ops.iter_mut().find(|o| o.path() == INSTALLATION_PATH) {
            *slot = op;
        }
    }
}

/// The failpoints of `install` (D22): the journal's, under `install:`.
pub const FAILPOINTS: &[&str] = &[
    "install:journal-staged",
    "install:journal-begun",
    "install:step-applied",
    "install:step-recorded",
    "install:journal-closing",
];

/// The plan as journal changes, in the plan's order: PROTOCOL.md (the
/// ownership marker) is written last. Every install (first, reinstall,
/// upgrade) writes through the journal, so a run killed midway is completed
/// or rolled back by `git standards recover` (D22).
fn changes(plan: &Plan) -> Vec<journal::Change> {
    plan.ops
        .iter()
        .filter_map(|op| match op {
            Op::Create { path, content } | Op::Replace { path, content } => {
                Some(journal::Change::write(path.clone(), content.as_bytes()))
            }
            Op::Remove { path } => Some(journal::Change::remove(path.clone())),
            Op::Keep { .. } | Op::Leave { .. } => None,
        })
        .collect()
}

fn print_plan(
    out: &mut dyn Write,
    plan: &Plan,
    root: &std::path::Path,
    dry_run: bool,
    inferred: Option<&str>,
    view: &PathView,
) -> Result<()> {
    let w = |e: std::io::Error| Error::io("<stdout>", e);
    let changed = plan
        .ops
        .iter()
        .filter(|op| !matches!(op, Op::Keep { .. } | Op::Leave { .. }))
        .count();
    let left = plan.ops.iter().any(|op| matches!(op, Op::Leave { .. }));
    if plan.kind == InstallKind::Reinstall && changed == 0 && !left {
        // Nothing to report file by file: one line says so.
        return writeln!(
            out,
            "Verified STANDARDS {} in {}: up to date, nothing {}.",
            Version::current(),
            root.display(),
            if dry_run { "would change" } else { "changed" }
        )
        .map_err(w);
    }
    let verb = |op: &Op| match (op, dry_run) {
        (Op::Create { .. }, false) => "created",
        (Op::Create { .. }, true) => "would create",
        (Op::Replace { .. }, false) => "replaced",
        (Op::Replace { .. }, true) => "would replace",
        (Op::Remove { .. }, false) => "removed",
        (Op::Remove { .. }, true) => "would remove",
        (Op::Keep { .. }, _) => "kept",
        (Op::Leave { .. }, _) => "left (yours)",
    };
    for op in &plan.ops {
        writeln!(out, "{:<14} {}", verb(op), view.show(op.path())).map_err(w)?;
    }
    let action = match (plan.kind, changed, dry_run) {
        (InstallKind::First, _, false) => "Installed".to_string(),
        (InstallKind::First, _, true) => "Would install".to_string(),
        (InstallKind::Upgrade { from }, _, false) => format!("Upgraded from {from} to"),
        (InstallKind::Upgrade { from }, _, true) => format!("Would upgrade from {from} to"),
        (InstallKind::FromNode { from }, _, false) => {
            format!("Upgraded from the Node runtime {from} to")
        }
        (InstallKind::FromNode { from }, _, true) => {
            format!("Would upgrade from the Node runtime {from} to")
        }
        (InstallKind::Reinstall, 0, _) => "Verified".to_string(),
        (InstallKind::Reinstall, _, false) => "Updated".to_string(),
        (InstallKind::Reinstall, _, true) => "Would update".to_string(),
    };
    writeln!(
        out,
        "{action} STANDARDS {} in {}",
        Version::current(),
        root.display()
    )
    .map_err(w)?;
    match inferred {
        Some(reason) => writeln!(
            out,
            "Mode: {} ({reason}); changed paths: {changed}",
            plan.mode
        ),
        None => writeln!(out, "Mode: {}; changed paths: {changed}", plan.mode),
    }
    .map_err(w)?;
    for line in &plan.migrated {
        let verb = if dry_run { "would migrate" } else { "migrated" };
        match line.strip_prefix("moved ") {
            Some(rest) => writeln!(out, "{verb:<14} {rest}"),
            None => writeln!(out, "{verb:<14} {}: {line}", view.show(STATE_PATH)),
        }
        .map_err(w)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use standards_core::model::tree::MemTree;

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
        let p = plan(&MemTree::new(), &names(&[".git"]), &Request::default()).unwrap();
        assert_eq!(p.kind, InstallKind::First);
        assert_eq!(p.mode, ProjectMode::Greenfield);
        let created: Vec<&str> = p.ops.iter().map(Op::path).collect();
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
        assert!(p.ops.iter().all(|op| matches!(op, Op::Create { .. })));
    }

    fn installed(mode: ProjectMode) -> MemTree {
        let mut t = MemTree::new();
        for op in plan(
            &MemTree::new(),
            &RootListing::default(),
            &Request {
                mode: Some(mode),
                dry_run: false,
                ..Request::default()
            },
        )
        .unwrap()
        .ops
        {
            if let Op::Create { path, content } = op {
                t.insert(&path, content);
            }
        }
        t
    }

    #[test]
    fn reinstall_keeps_state_and_verifies() {
        let t = installed(ProjectMode::Brownfield);
        let p = plan(&t, &names(&[".standards", "src"]), &Request::default()).unwrap();
        assert_eq!(p.kind, InstallKind::Reinstall);
        assert!(
            p.ops.iter().all(|op| matches!(op, Op::Keep { .. })),
            "{:?}",
            p.ops
        );
    }

    #[test]
    fn reinstall_refuses_another_mode_conflicts_and_foreign_folders() {
        let t = installed(ProjectMode::Brownfield);
        let e = plan(
            &t,
            &RootListing::default(),
            &Request {
                mode: Some(ProjectMode::Greenfield),
                dry_run: false,
                ..Request::default()
            },
        )
        .unwrap_err();
        assert!(e.to_string().contains("cannot change the mode"));

        let mut conflicted = t.clone();
        conflicted.insert(
            STATE_PATH,
            "<<<<<<< ours\n`Id`: `a`\n=======\n`Id`: `b`\n>>>>>>> theirs\n",
        );
        let e = plan(&conflicted, &RootListing::default(), &Request::default()).unwrap_err();
        assert!(e.to_string().contains("unresolved merge conflicts"), "{e}");

        let foreign = MemTree::new().with(".standards/notes.md", "mine");
        assert!(plan(&foreign, &RootListing::default(), &Request::default())
            .unwrap_err()
            .to_string()
            .contains("not a STANDARDS runtime"));

        let e = plan(
            &MemTree::new(),
            &names(&[".standards-install-abc"]),
            &Request::default(),
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
            let p = plan(&t, &RootListing::default(), &Request::default()).unwrap();
            assert_eq!(p.kind, InstallKind::Upgrade { from: older });
        }
        let newer = Version(Version::current().0, Version::current().1 + 1, 0);
        t.insert(VERSION_PATH, version_json(newer));
        assert!(plan(&t, &RootListing::default(), &Request::default())
            .unwrap_err()
            .to_string()
            .contains("downgrading"));
        t.insert(
            VERSION_PATH,
            version_json(Version(Version::current().0 + 1, 0, 0)),
        );
        assert!(plan(&t, &RootListing::default(), &Request::default())
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
            let p = plan(&t, &RootListing::default(), &Request::default()).unwrap();
            assert_eq!(p.restored, [path]);
            assert_eq!(p.kind, InstallKind::Reinstall);
            assert!(
                p.ops
                    .iter()
                    .any(|o| matches!(o, Op::Create { path: c, .. } if c == path)),
                "{path}: {:?}",
                p.ops
            );
        }
        // MODE.md only with the mode said: an installed project's mode is never guessed.
        let mut t = installed(ProjectMode::Greenfield);
        t.remove(MODE_PATH);
        let Err(Error::Refused { hint, .. }) =
            plan(&t, &RootListing::default(), &Request::default())
        else {
            panic!("MODE.md recreated without --mode")
        };
        assert!(hint
            .unwrap()
            .contains("git standards install --mode greenfield"));
        let with_mode = Request {
            mode: Some(ProjectMode::Greenfield),
            ..Request::default()
        };
        let p = plan(&t, &RootListing::default(), &with_mode).unwrap();
        assert_eq!(p.restored, [MODE_PATH]);
        assert!(p.ops.contains(&Op::Create {
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
            let Err(Error::Refused { message, hint }) = plan(&t, &listing, &Request::default())
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
        assert!(plan(&t, &RootListing::default(), &Request::default()).is_err());
    }

    #[test]
    fn a_committed_runtime_missing_from_the_working_tree_is_never_reinstalled_fresh() {
        for source in ["the index", "HEAD"] {
            let listing = RootListing {
                committed_runtime: Some(source.into()),
                ..names(&[".git"])
            };
            let e = plan(&MemTree::new(), &listing, &Request::default()).unwrap_err();
            let Error::Refused { message, hint } = e else {
                panic!("not a refusal")
            };
            assert!(message.contains(source), "{message}");
            let hint = hint.unwrap();
            let restore = match source {
                "HEAD" => "git restore --source=HEAD --staged --worktree .standards",
                _ => "git restore .standards",
            };
            assert!(hint.contains(restore), "{hint}");
            assert!(
                hint.contains("git sparse-checkout add .standards"),
                "{hint}"
            );
        }
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
        let p = plan(&t, &listing, &Request::default()).unwrap();
        assert!(p.ops.contains(&Op::Remove { path: old.clone() }));
        assert!(p.ops.contains(&Op::Leave { path: mine.clone() }));
        // A chapter below a linked folder refuses the whole install.
        let mut linked = installed(ProjectMode::Brownfield);
        linked.insert_node(&format!("{CHAPTERS_DIR}/sub"), Node::Symlink);
        linked.insert(&format!("{CHAPTERS_DIR}/sub/x.md"), "x");
        let e = plan(&linked, &listing, &Request::default()).unwrap_err();
        assert!(e.to_string().contains("not a normal folder"), "{e}");
    }

    #[test]
    fn legacy_node_tools_are_removed() {
        let mut t = installed(ProjectMode::Brownfield);
        t.insert(".standards/bin/check.mjs", "// node");
        let p = plan(&t, &RootListing::default(), &Request::default()).unwrap();
        assert!(p.ops.contains(&Op::Remove {
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
        assert!(plan(&t, &RootListing::default(), &Request::default())
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
        let p = plan(&t, &empty, &Request::default()).unwrap();
        assert_eq!(p.kind, InstallKind::First);
        assert_eq!(p.mode, ProjectMode::Greenfield);
        // A folder with anything in it is never adopted.
        let e = plan(&t, &names(&[".standards"]), &Request::default()).unwrap_err();
        assert!(e.to_string().contains("not a STANDARDS runtime"), "{e}");
    }

    #[test]
    fn every_planned_change_goes_to_the_journal_with_the_marker_last() {
        let p = plan(
            &MemTree::new(),
            &RootListing::default(),
            &Request::default(),
        )
        .unwrap();
        let changes = changes(&p);
        assert_eq!(changes.len(), p.ops.len());
        assert!(
            matches!(changes.last(), Some(journal::Change::Write { path, .. }) if path == PROTOCOL_PATH)
        );
    }
}
