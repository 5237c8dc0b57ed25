//! The agent-client part of `install` and `uninstall`, planned (RT §7.6.3
//! steps 1-6, §7.8, §8, decisions D3, D9, D10): role skills for Claude Code
//! and Codex, explicit-invocation settings, the stop hook and the managed
//! blocks. Planning reads the project through a [`Tree`] (and a [`Lister`]
//! for folder names) and returns a [`ChangePlan`] with the new
//! `INSTALLATION.json`; the transforms are the pure functions of
//! [`super::clients`]. `INSTALLATION.json` records only what this created
//! or owns, so removal takes out exactly that.

use serde_json::{json, Value};

use crate::assets::skills::SKILLS;
use crate::invocation::Client;
use crate::model::layout::MARKER;
use crate::model::tree::{Node, Text, Tree};
use crate::setup::agent_hooks::{self as ah, HookDef};
use crate::setup::change::{ChangePlan, Step};
use crate::setup::clients::{self as cl, Manifest};
use crate::setup::plugins;

/// Why the client part refuses: what is wrong, and what to do.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Refusal {
    pub message: String,
    pub hint: Option<String>,
}

impl Refusal {
    pub fn new(message: impl Into<String>, hint: Option<String>) -> Refusal {
        Refusal {
            message: message.into(),
            hint,
        }
    }
}

type Result<T> = std::result::Result<T, Refusal>;

/// Asks which clients to set up, given the default (`None`: no answer).
pub type Ask<'a> = &'a dyn Fn(&[Client]) -> Option<Vec<Client>>;

pub const AGENTS_MD: &str = "AGENTS.md";
pub const CLAUDE_MD: &str = "CLAUDE.md";
pub const CLAUDE_SETTINGS: &str = ".claude/settings.json";
pub const CODEX_HOOKS: &str = ".codex/hooks.json";
pub const CODEX_CONFIG: &str = ".codex/config.toml";

/// What the user asked for with `--client`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Choice {
    Claude,
    Codex,
    Both,
    None,
}

/// The client part of an install request.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Request {
    pub choice: Option<Choice>,
    /// `--no-hooks` (false) or `--hooks` (true).
    pub hooks: Option<bool>,
    /// Never ask which clients to set up, even on a terminal (`--json`).
    pub no_prompt: bool,
}

/// What the client part will do.
#[derive(Debug, Clone, Default)]
pub struct Plan {
    /// The client files written and removed, in order.
    pub changes: ChangePlan,
    /// The new `INSTALLATION.json` text.
    pub manifest: String,
    pub clients: Vec<Client>,
    pub hooks: bool,
    pub restored: Vec<String>,
    pub warnings: Vec<String>,
    pub notices: Vec<String>,
    /// A removal plan: `clients` are the clients whose integration goes.
    pub removal: bool,
    /// The skill folders this plan writes that do not exist yet.
    pub new_skills: Vec<String>,
}

/// The skill folder (`.claude/skills/<role>`) a path lies in, if any.
pub fn skill_folder(path: &str) -> Option<String> {
    [Client::Codex, Client::Claude].into_iter().find_map(|c| {
        let rest = path.strip_prefix(&format!("{}/", c.skills_dir()))?;
        Some(format!("{}/{}", c.skills_dir(), rest.split('/').next()?))
    })
}

/// Lists the names in a project folder (empty when it does not exist).
pub type Lister<'a> = &'a dyn Fn(&str) -> Vec<String>;

/// A write of `content` at `path`: a creation when nothing is there yet.
fn write_step(tree: &dyn Tree, path: &str, content: String) -> Step {
    let path = path.to_string();
    match tree.node(&path) {
        Node::Missing => Step::Create { path, content },
        _ => Step::Replace { path, content },
    }
}

fn text_of(tree: &dyn Tree, path: &str) -> Result<Option<String>> {
    match tree.text(path) {
        Text::Ok(t) => Ok(Some(t)),
        Text::Missing => Ok(None),
        Text::Unreadable(why) => Err(Refusal::new(
            format!("refusing to install: `{path}` cannot be read ({why})"),
            None,
        )),
    }
}

/// RT §7.3 path inspection: no symbolic link and no file on the way to `path`.
fn inspect(tree: &dyn Tree, path: &str) -> Result<()> {
    let parts: Vec<&str> = path.split('/').collect();
    for i in 1..=parts.len() {
        let prefix = parts[..i].join("/");
        match tree.node(&prefix) {
            Node::Symlink => {
                return Err(Refusal::new(
                    format!("refusing symbolic link in installer path: `{prefix}`"),
                    Some("replace the link with a real folder or file, then install again".into()),
                ))
            }
            Node::File(_) if i < parts.len() => {
                return Err(Refusal::new(
                    format!("refusing to install: `{prefix}` is a file where a folder is needed"),
                    None,
                ))
            }
            _ => {}
        }
    }
    Ok(())
}

fn skill_dir(client: Client, role: &str) -> String {
    format!("{}/{role}", client.skills_dir())
}

/// Whether a role folder holds a framework-owned skill; an error for a
/// folder that is someone else's (a skill collision).
fn owned_skill(tree: &dyn Tree, client: Client, role: &str) -> Result<bool> {
    let dir = skill_dir(client, role);
    match tree.node(&dir) {
        Node::Missing => Ok(false),
        Node::Dir => match tree.text(&format!("{dir}/SKILL.md")) {
            Text::Ok(t) if t.contains(MARKER) => Ok(true),
            _ => Err(Refusal::new(
                format!("skill collision: `{dir}` exists and is not a STANDARDS skill (its SKILL.md lacks the framework marker)"),
                Some(format!("move `{dir}` away; git standards never adopts or overwrites it")),
            )),
        },
        _ => Err(Refusal::new(
            format!("skill collision: `{dir}` is not a normal folder"),
            None,
        )),
    }
}

/// The clients whose skills are installed (Codex, then Claude).
pub fn installed_clients(tree: &dyn Tree) -> Result<Vec<Client>> {
    let mut out = Vec::new();
    for client in [Client::Codex, Client::Claude] {
        inspect(tree, client.skills_dir())?;
        let mut any = false;
        for s in SKILLS {
            any |= owned_skill(tree, client, s.role)?;
        }
        if any {
            out.push(client);
        }
    }
    Ok(out)
}

pub fn client_name(c: Client) -> &'static str {
    match c {
        Client::Codex => "Codex",
        Client::Claude => "Claude Code",
    }
}

/// Plans the client part of an install. `manifest` is the installed
/// `INSTALLATION.json` (or the starting template); `list` lists a folder.
pub fn plan(
    tree: &dyn Tree,
    manifest: &str,
    request: &Request,
    list: Lister,
    ask: Ask,
) -> Result<Plan> {
    let mut m = Manifest::parse(manifest).map_err(|e| Refusal::new(e, None))?;
    let installed = installed_clients(tree)?;
    let mut p = Plan::default();
    let wanted: Vec<Client> = match request.choice {
        Some(Choice::None) => Vec::new(),
        Some(Choice::Claude) => vec![Client::Claude],
        Some(Choice::Codex) => vec![Client::Codex],
        Some(Choice::Both) => vec![Client::Codex, Client::Claude],
        None => {
            let mut found = Vec::new();
            if installed.is_empty() {
                for (c, dirs) in [
                    (Client::Codex, &[".agents", ".codex"][..]),
                    (Client::Claude, &[".claude"][..]),
                ] {
                    if dirs.iter().any(|d| tree.node(d) == Node::Dir) {
                        found.push(c);
                    }
                }
                let answer = if request.no_prompt { None } else { ask(&found) };
                if let Some(answer) = answer {
                    found = answer;
                } else {
                    p.notices.push(if found.is_empty() {
                    "No --client given and no .claude/, .agents/ or .codex/ folder: no agent client was set up; run `git standards install --client claude|codex|both` to add one.".into()
                } else {
                    format!(
                        "No --client given: setting up {} because its folder exists (choose with --client claude|codex|both|none).",
                        found.iter().map(|c| client_name(*c)).collect::<Vec<_>>().join(" and ")
                    )
                });
                }
            }
            found
        }
    };
    if request.choice == Some(Choice::None) {
        return removal(tree, manifest, list).map(|mut r| {
            r.notices.push("Removed the agent-client integration (--client none); the runtime in .standards/ stays.".into());
            r
        });
    }
    let clients: Vec<Client> = [Client::Codex, Client::Claude]
        .into_iter()
        .filter(|c| installed.contains(c) || wanted.contains(c))
        .collect();
    let hooks = request.hooks.unwrap_or_else(|| {
        if installed.is_empty() {
            true
        } else {
            m.hooks().is_none_or(|h| !h.is_empty())
        }
    });
    let write_if = |tree: &dyn Tree, p: &mut Plan, path: &str, content: String| -> Result<()> {
        inspect(tree, path)?;
        if text_of(tree, path)?.as_deref() != Some(content.as_str()) {
            p.changes.push(write_step(tree, path, content));
        }
        Ok(())
    };
    if !clients.is_empty() {
        let agents = text_of(tree, AGENTS_MD)?;
        let merged = cl::merge_block(agents.as_deref(), cl::AGENTS_BLOCK, AGENTS_MD)
            .map_err(|e| Refusal::new(e, None))?;
        write_if(tree, &mut p, AGENTS_MD, merged)?;
    }
    if clients.contains(&Client::Claude) {
        let claude = text_of(tree, CLAUDE_MD)?;
        let (merged, warnings) =
            cl::merge_claude_md(claude.as_deref()).map_err(|e| Refusal::new(e, None))?;
        p.warnings.extend(warnings);
        write_if(tree, &mut p, CLAUDE_MD, merged)?;
    }
    for &client in &clients {
        let root_dir = client.skills_dir().split('/').next().expect("a folder");
        for dir in [root_dir, client.skills_dir()] {
            inspect(tree, dir)?;
            if tree.node(dir) == Node::Missing {
                m.record_created(dir);
            }
        }
        for s in SKILLS {
            owned_skill(tree, client, s.role)?;
            for (file, text) in s.files {
                let path = format!("{}/{file}", skill_dir(client, s.role));
                inspect(tree, &path)?;
                let current = text_of(tree, &path)?;
                // A file that differs from what install last wrote there is
                // the user's: kept, with a warning. One that still matches the
                // record (an older version's text) is upgraded; one with no
                // record is framework-owned by its folder's marker and restored.
                let recorded = m.skill_digest(&path);
                if let (Some(now), Some(was)) = (&current, &recorded) {
                    if now != text && cl::digest(now.as_bytes()) != *was {
                        p.warnings.push(format!(
                            "Kept your changed skill file {path}; this version ships another text (move yours away and install again to take it)"
                        ));
                        continue;
                    }
                }
                if current.as_deref() != Some(*text) {
                    p.changes.push(write_step(tree, &path, text.to_string()));
                }
                m.record_skill_file(&path, text.as_bytes());
            }
        }
    }
    if clients.contains(&Client::Claude) {
        inspect(tree, CLAUDE_SETTINGS)?;
        let original = text_of(tree, CLAUDE_SETTINGS)?;
        if original.is_none() {
            m.record_created(CLAUDE_SETTINGS);
        }
        let before = match &original {
            Some(t) => {
                Some(cl::parse_object(t, CLAUDE_SETTINGS).map_err(|e| Refusal::new(e, None))?)
            }
            None => None,
        };
        let mut now = before.clone().unwrap_or_else(|| {
            let mut s = serde_json::Map::new();
            s.insert("$schema".into(), json!(cl::CLAUDE_SCHEMA));
            s
        });
        if !now.contains_key("skillOverrides") {
            // Ours to take out again once it is empty (issue 24).
            m.record_created_key(CLAUDE_SETTINGS, "skillOverrides");
        }
        let overrides = now.entry("skillOverrides").or_insert_with(|| json!({}));
        let Value::Object(overrides) = overrides else {
            return Err(Refusal::new(
                format!("invalid skillOverrides in {CLAUDE_SETTINGS}: it must be an object"),
                None,
            ));
        };
        let owned = m.owned_overrides();
        let mut newly = Vec::new();
        for s in SKILLS {
            let current = overrides.get(s.role).cloned();
            let ours = json!(cl::USER_INVOCABLE_ONLY);
            match (owned.iter().any(|o| o == s.role), current) {
                (true, None) => {
                    overrides.insert(s.role.into(), ours);
                    p.restored.push(format!(
                        "{CLAUDE_SETTINGS} skillOverrides.{} (missing)",
                        s.role
                    ));
                }
                (true, Some(v)) if v != ours => {
                    p.warnings.push(format!(
                        "Kept your changed setting {CLAUDE_SETTINGS} skillOverrides.{} ({v}); STANDARDS no longer manages it",
                        s.role
                    ));
                    m.disown_override(s.role);
                }
                (true, Some(_)) => {}
                (false, None) => {
                    overrides.insert(s.role.into(), ours);
                    newly.push(s.role);
                }
                (false, Some(v)) if v == ours => {}
                (false, Some(v)) => {
                    return Err(Refusal::new(
                        format!(
                            "conflicting {CLAUDE_SETTINGS} skillOverrides.{}: {v}",
                            s.role
                        ),
                        Some(format!(
                            "set it to \"{}\" or remove it, then install again",
                            cl::USER_INVOCABLE_ONLY
                        )),
                    ))
                }
            }
        }
        for role in newly {
            m.own_override(role);
        }
        let set = ah::hook_set(Client::Claude);
        // Issue 26: the plugin's hooks and ours never both run.
        let plugin = plugins::claude_enables(&Value::Object(now.clone()));
        if plugin && hooks {
            p.notices.push(format!(
                "The Claude Code plugin `{}` is enabled in {CLAUDE_SETTINGS}: its hooks run from the plugin, so install registers none there.",
                plugins::PLUGIN_KEY
            ));
        }
        let on = hooks && !plugin;
        let found = ah::merge_hook_set(&mut now, on.then_some(&set[..]), CLAUDE_SETTINGS)
            .map_err(|e| Refusal::new(e, None))?;
        note_hooks(&mut p, &m, CLAUDE_SETTINGS, &found, on, &set);
        let orig = original.as_deref().zip(before.as_ref());
        if let Some(text) = cl::settings_text(orig, &now) {
            p.changes.push(write_step(tree, CLAUDE_SETTINGS, text));
        }
    }
    if clients.contains(&Client::Codex) {
        inspect(tree, CODEX_HOOKS)?;
        let original = text_of(tree, CODEX_HOOKS)?;
        let config = text_of(tree, CODEX_CONFIG)?;
        let enabled = config.as_deref().is_some_and(plugins::codex_enables);
        let plugin = enabled
            && !config
                .as_deref()
                .is_some_and(plugins::codex_plugin_hooks_off);
        if plugin && hooks {
            p.notices.push(format!(
                "The Codex plugin `{}` is enabled in {CODEX_CONFIG}: its hooks run from the plugin, so install registers none in {CODEX_HOOKS}.",
                plugins::PLUGIN_KEY
            ));
        } else if enabled && hooks {
            p.notices.push(format!(
                "The Codex plugin `{}` is enabled in {CODEX_CONFIG} with `[features] plugin_hooks = false`: its hooks do not run, so install registers them in {CODEX_HOOKS}.",
                plugins::PLUGIN_KEY
            ));
        }
        let hooks = hooks && !plugin;
        if original.is_some() || hooks {
            let before = match &original {
                Some(t) => {
                    Some(cl::parse_object(t, CODEX_HOOKS).map_err(|e| Refusal::new(e, None))?)
                }
                None => None,
            };
            let mut now = before.clone().unwrap_or_default();
            let set = ah::hook_set(Client::Codex);
            let found = ah::merge_hook_set(&mut now, hooks.then_some(&set[..]), CODEX_HOOKS)
                .map_err(|e| Refusal::new(e, None))?;
            note_hooks(&mut p, &m, CODEX_HOOKS, &found, hooks, &set);
            if let Some(text) = cl::settings_text(original.as_deref().zip(before.as_ref()), &now) {
                for dir in [".codex", CODEX_HOOKS] {
                    if tree.node(dir) == Node::Missing {
                        m.record_created(dir);
                    }
                }
                p.changes.push(write_step(tree, CODEX_HOOKS, text));
                if hooks {
                    p.notices.push("Codex runs new or changed hooks only after you trust them: open Codex in this project and run `/hooks`.".into());
                }
            }
        }
    }
    let files: Vec<&str> = if hooks {
        clients
            .iter()
            .map(|c| match c {
                Client::Codex => CODEX_HOOKS,
                Client::Claude => CLAUDE_SETTINGS,
            })
            .collect()
    } else {
        Vec::new()
    };
    m.set_hooks(&files);
    p.manifest = m.text();
    p.clients = clients;
    p.hooks = hooks;
    for op in &p.changes.steps {
        if let (true, Some(dir)) = (op.is_write(), skill_folder(op.path())) {
            if tree.node(&dir) == Node::Missing && !p.new_skills.contains(&dir) {
                p.new_skills.push(dir);
            }
        }
    }
    Ok(p)
}

fn note_hooks(
    p: &mut Plan,
    m: &Manifest,
    file: &str,
    found: &cl::HookMerge,
    hooks: bool,
    set: &[HookDef],
) {
    let ours = |event: &str| {
        set.iter()
            .find(|d| d.event == event)
            .map(|d| d.command.clone())
            .unwrap_or_default()
    };
    if found.node_handlers > 0 {
        // Each Node handler by its kind (issue 29, item 2).
        for event in &found.node_events {
            match event.as_str() {
                "Stop" if hooks => p.notices.push(format!(
                    "Replaced the Node runtime's stop handler (`.standards/bin/hook.mjs stop`) in {file} with ours, `{}`.",
                    ours("Stop")
                )),
                "Stop" => p.notices.push(format!(
                    "Removed the Node runtime's stop handler (`.standards/bin/hook.mjs stop`) from {file}; hooks are off for this install, so none of ours replaces it (add ours with `git standards install --hooks`)."
                )),
                "PreToolUse" if hooks => p.notices.push(format!(
                    "Replaced the Node runtime's pre-tool-use guard (`.standards/bin/hook.mjs`, PreToolUse) in {file} with our edit guard, `{}`: it refuses an agent's direct edit of `.standards/STATE.md` and names the transition command to use.",
                    ours("PreToolUse")
                )),
                "PreToolUse" => p.warnings.push(format!(
                    "removed the Node runtime's pre-tool-use guard (`.standards/bin/hook.mjs`, PreToolUse) from {file}: its tool is gone with `.standards/bin/`, and hooks are off for this install, so no edit guard replaces it (add ours with `git standards install --hooks`); until then an agent's direct edits of `.standards/` are caught only by `git standards check`."
                )),
                other => p.warnings.push(format!(
                    "removed the Node runtime's {other} handler (`.standards/bin/hook.mjs`) from {file}: its tool is gone with `.standards/bin/`, and nothing replaces it."
                )),
            }
        }
    } else if hooks && m.hooks().is_some_and(|h| h.iter().any(|f| f == file)) {
        let wanted: Vec<serde_json::Value> = set.iter().map(HookDef::handler).collect();
        if found.before.is_empty() {
            p.restored.push(format!("STANDARDS hooks in {file}"));
        } else if found.before != wanted {
            let kinds: Vec<&str> = set
                .iter()
                .filter(|d| !found.before.contains(&d.handler()))
                .map(|d| d.event)
                .collect();
            p.notices.push(format!(
                "Updated the STANDARDS hooks in {file} (added or changed: {}).",
                kinds.join(", ")
            ));
        }
    }
}

/// Plans removing what install added for every client (RT §7.8 steps 3-10):
/// the skills it wrote (a changed file is kept, with a warning), the owned
/// overrides left unchanged, its hook handlers, the managed blocks, and
/// created folders left empty. The user's settings stay byte for byte.
/// `list` lists a folder's names. `uninstall` calls this, then removes
/// `.standards/` (with the record) last; `install --client none` keeps the
/// runtime and writes the returned record.
pub fn removal(tree: &dyn Tree, manifest: &str, list: Lister) -> Result<Plan> {
    let mut m = Manifest::parse(manifest).map_err(|e| Refusal::new(e, None))?;
    let created = m.created_paths();
    let mut p = Plan::default();
    for (file, is_claude) in [(AGENTS_MD, false), (CLAUDE_MD, true)] {
        inspect(tree, file)?;
        let Some(text) = text_of(tree, file)? else {
            continue;
        };
        let _ = is_claude;
        if let Some(rest) = cl::remove_block(&text, file).map_err(|e| Refusal::new(e, None))? {
            p.changes.push(if rest.is_empty() {
                Step::remove(file)
            } else {
                Step::Replace {
                    path: file.into(),
                    content: rest,
                }
            });
        }
    }
    if let Some(text) = text_of(tree, CLAUDE_SETTINGS)? {
        let before = cl::parse_object(&text, CLAUDE_SETTINGS).map_err(|e| Refusal::new(e, None))?;
        let mut now = before.clone();
        cl::merge_hooks(&mut now, None, CLAUDE_SETTINGS).map_err(|e| Refusal::new(e, None))?;
        if let Some(o) = now.get_mut("skillOverrides") {
            let Value::Object(o) = o else {
                return Err(Refusal::new(
                    format!(
                        "invalid skillOverrides in {CLAUDE_SETTINGS}: cannot compare it safely"
                    ),
                    None,
                ));
            };
            for role in m.owned_overrides() {
                match o.get(&role) {
                    Some(v) if v == &json!(cl::USER_INVOCABLE_ONLY) => {
                        o.shift_remove(&role);
                    }
                    Some(_) => p.warnings.push(format!(
                        "Preserved changed setting: {CLAUDE_SETTINGS} skillOverrides.{role}"
                    )),
                    None => {}
                }
                m.disown_override(&role);
            }
            // A `skillOverrides` install added goes once it is empty again;
            // one the user had stays, even empty (issue 24).
            let created = m.created_keys(CLAUDE_SETTINGS);
            if o.is_empty() && created.iter().any(|k| k == "skillOverrides") {
                now.shift_remove("skillOverrides");
            }
        }
        m.forget_created_keys(CLAUDE_SETTINGS);
        let only_ours = now.iter().all(|(k, v)| match k.as_str() {
            "$schema" => v == &json!(cl::CLAUDE_SCHEMA),
            "skillOverrides" => v.as_object().is_some_and(|o| o.is_empty()),
            _ => false,
        });
        if created.iter().any(|c| c == CLAUDE_SETTINGS) && only_ours {
            p.changes.push(Step::remove(CLAUDE_SETTINGS));
            m.forget_created(CLAUDE_SETTINGS);
        } else if let Some(t) = cl::settings_text(Some((&text, &before)), &now) {
            p.changes.push(Step::Replace {
                path: CLAUDE_SETTINGS.into(),
                content: t,
            });
        }
    }
    if let Some(text) = text_of(tree, CODEX_HOOKS)? {
        let before = cl::parse_object(&text, CODEX_HOOKS).map_err(|e| Refusal::new(e, None))?;
        let mut now = before.clone();
        cl::merge_hooks(&mut now, None, CODEX_HOOKS).map_err(|e| Refusal::new(e, None))?;
        if created.iter().any(|c| c == CODEX_HOOKS) && now.is_empty() {
            p.changes.push(Step::remove(CODEX_HOOKS));
            m.forget_created(CODEX_HOOKS);
        } else if let Some(t) = cl::settings_text(Some((&text, &before)), &now) {
            p.changes.push(Step::Replace {
                path: CODEX_HOOKS.into(),
                content: t,
            });
        }
    }
    let mut removed: Vec<String> = p
        .changes
        .steps
        .iter()
        .filter(|o| o.is_remove())
        .map(|o| o.path().to_string())
        .collect();
    for client in [Client::Codex, Client::Claude] {
        let mut found = false;
        // A role folder that is not ours (no marker, or not a folder) is
        // left alone: removal never needs to refuse it (`install` does,
        // before it would write there).
        let base = client.skills_dir();
        if tree.node(base) != Node::Dir {
            continue;
        }
        // Every marked folder, also of a role this version no longer ships;
        // an unmarked folder or a link is never touched.
        let mut names = list(base);
        names.sort();
        for name in names {
            let dir = format!("{base}/{name}");
            let marked = tree.node(&dir) == Node::Dir
                && matches!(tree.text(&format!("{dir}/SKILL.md")), Text::Ok(t) if t.contains(MARKER));
            if !marked {
                continue;
            }
            found = true;
            let shipped = crate::assets::skills::skill(&name).map_or(&[][..], |s| s.files);
            let gone = remove_skill_tree(
                tree,
                &dir,
                shipped,
                &|path| m.skill_digest(path),
                list,
                &mut p,
            )?;
            for path in &gone {
                m.forget_skill_file(path);
            }
            removed.extend(gone);
        }
        if found {
            p.clients.push(client);
        }
    }
    for dir in [
        ".agents/skills",
        ".claude/skills",
        ".agents",
        ".claude",
        ".codex",
    ] {
        if !created.iter().any(|c| c == dir) || tree.node(dir) == Node::Missing {
            continue;
        }
        if tree.node(dir) != Node::Dir {
            return Err(Refusal::new(
                format!("recorded folder `{dir}` is not a folder"),
                None,
            ));
        }
        let all_gone = list(dir)
            .iter()
            .all(|n| removed.iter().any(|r| r == &format!("{dir}/{n}")));
        if all_gone {
            p.changes.push(Step::remove(dir));
            removed.push(dir.into());
            m.forget_created(dir);
        }
    }
    m.set_hooks(&[]);
    p.manifest = m.text();
    p.removal = true;
    Ok(p)
}
/// Plans removing one marked skill folder. A file goes when it is this
/// version's shipped text or what install recorded writing there (an older
/// version's text the user left alone); a shipped or recorded file that
/// differs is the user's change and stays, with a warning; a file the user
/// added stays. Returns every path removed (the folder included when it empties).
fn remove_skill_tree(
    tree: &dyn Tree,
    dir: &str,
    shipped: &[(&str, &str)],
    recorded: &dyn Fn(&str) -> Option<String>,
    list: Lister,
    p: &mut Plan,
) -> Result<Vec<String>> {
    struct Walk<'a> {
        tree: &'a dyn Tree,
        base: &'a str,
        shipped: &'a [(&'a str, &'a str)],
        recorded: &'a dyn Fn(&str) -> Option<String>,
        list: Lister<'a>,
    }
    fn walk(w: &Walk<'_>, rel: &str, p: &mut Plan, removed: &mut Vec<String>) -> Result<bool> {
        let here = if rel.is_empty() {
            w.base.to_string()
        } else {
            format!("{}/{rel}", w.base)
        };
        let mut all = true;
        for name in (w.list)(&here) {
            let child_rel = if rel.is_empty() {
                name.clone()
            } else {
                format!("{rel}/{name}")
            };
            let path = format!("{}/{child_rel}", w.base);
            match w.tree.node(&path) {
                Node::Dir => {
                    if walk(w, &child_rel, p, removed)? {
                        p.changes.push(Step::remove(path.clone()));
                        removed.push(path);
                    } else {
                        all = false;
                    }
                }
                Node::File(bytes) => {
                    let shipped = w.shipped.iter().find(|(f, _)| *f == child_rel);
                    let recorded = (w.recorded)(&path);
                    let ours = shipped.is_some_and(|(_, t)| t.as_bytes() == bytes.as_slice())
                        || recorded.as_deref() == Some(cl::digest(&bytes).as_str());
                    if ours {
                        p.changes.push(Step::remove(path.clone()));
                        removed.push(path);
                    } else {
                        if shipped.is_some() || recorded.is_some() {
                            p.warnings.push(format!("Kept changed skill file {path}"));
                        } else if w.shipped.is_empty() && child_rel == "SKILL.md" {
                            p.warnings.push(format!(
                                "Kept skill file {path}: it carries the STANDARDS marker, but this version does not ship the role and has no record of writing it; delete the folder if you no longer need it"
                            ));
                        }
                        all = false;
                    }
                }
                Node::Symlink => {
                    return Err(Refusal::new(
                        format!("refusing symbolic link inside framework directory: `{path}`"),
                        None,
                    ))
                }
                _ => all = false,
            }
        }
        Ok(all)
    }
    let w = Walk {
        tree,
        base: dir,
        shipped,
        recorded,
        list,
    };
    let mut removed = Vec::new();
    if walk(&w, "", p, &mut removed)? {
        p.changes.push(Step::remove(dir));
        removed.push(dir.into());
    }
    Ok(removed)
}
/// The audit event of a client change (D20): `clients-installed` with the
/// clients and the paths written or removed; `None` when nothing changed.
pub fn event(plan: &Plan) -> Option<crate::audit::Event> {
    if plan.changes.is_noop() {
        return None;
    }
    let clients: Vec<&str> = plan.clients.iter().map(|c| c.as_str()).collect();
    let paths: Vec<&str> = plan.changes.changed_paths();
    Some(
        crate::audit::Event::new(crate::audit::EventKind::ClientsInstalled)
            .detail("clients", clients)
            .detail("paths", paths)
            .detail("removed", plan.removal)
            .detail("hooks", plan.hooks),
    )
}
