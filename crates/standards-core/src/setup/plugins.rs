//! This repository as a plugin marketplace for Claude Code and Codex (issue
//! 26): every file of the shipped plugin, generated from the same skill
//! sources and hook definitions as the per-repository install, versioned
//! with the crate. The repository's copies are checked against this by a
//! test (`UPDATE_PLUGINS=1` regenerates them).
//!
//! Layout (as the clients document it):
//! - `.claude-plugin/marketplace.json`: the Claude Code marketplace
//!   (`name`, `owner`, `plugins[]` with `name`, `source`, `description`,
//!   `version`);
//! - `.agents/plugins/marketplace.json`: the Codex repository marketplace
//!   (`name`, `interface`, `plugins[]` with `name`, `source` {`source`:
//!   `local`, `path`}, `policy` {`installation`, `authentication`},
//!   `category`);
//! - `plugins/standards/.claude-plugin/plugin.json` and
//!   `plugins/standards/.codex-plugin/plugin.json`: the manifests;
//! - `plugins/standards/skills/<role>/...`: the nine role skills;
//! - `plugins/standards/hooks/claude.json` and
//!   `plugins/standards/hooks/codex.json`, each named by its client's
//!   manifest (`hooks`, a path relative to the plugin root). Neither is the
//!   default `hooks/hooks.json`: both clients read that file from any
//!   plugin (Codex: "Discovers plugin hook sources from each plugin's default
//!   `hooks/hooks.json`", openai/codex#19705), so a file there would run one
//!   client's commands in the other as well. Codex runs plugin hooks unless
//!   `[features] plugin_hooks = false` (the feature that gates them).

use serde_json::{json, Value};

use crate::assets::skills::SKILLS;
use crate::invocation::Client;

use super::agent_hooks::{hook_set, HookDef};
use super::clients::to_json_text;

/// The marketplace's name and the plugin's: a team enables
/// `standards@git-standards`.
pub const MARKETPLACE: &str = "git-standards";
pub const PLUGIN: &str = "standards";
/// The plugin folder, relative to the repository root.
pub const PLUGIN_DIR: &str = "plugins/standards";
/// The key a team sets in `.claude/settings.json` `enabledPlugins`.
pub const PLUGIN_KEY: &str = "standards@git-standards";
/// Each client's hooks file, relative to the plugin folder (see the module
/// documentation for why neither is `hooks/hooks.json`).
pub const CLAUDE_HOOKS: &str = "hooks/claude.json";
pub const CODEX_HOOKS: &str = "hooks/codex.json";

const DESCRIPTION: &str = "The S.T.A.N.D.A.R.D.S. agent workflow for git-standards: the nine role skills (invoked only explicitly) and the hooks (session state, the STATE.md edit guard, the human-turn record, the stop check). Needs the `git-standards` binary on PATH.";

fn hooks_file(set: &[HookDef]) -> Value {
    let mut events = serde_json::Map::new();
    for d in set {
        events
            .entry(d.event)
            .or_insert_with(|| json!([]))
            .as_array_mut()
            .expect("an array")
            .push(d.group());
    }
    json!({ "description": "git-standards hooks (see `git standards hook --help`)", "hooks": events })
}

/// A skill file as the plugin ships it: Claude Code loads plugin skills
/// without the repository's `skillOverrides`, so SKILL.md carries
/// `disable-model-invocation: true` in its front matter instead (explicit
/// invocation only, as the protocol requires).
fn plugin_skill_text(file: &str, text: &str) -> String {
    if file != "SKILL.md" {
        return text.to_string();
    }
    match text.strip_prefix("---\n") {
        Some(rest) => format!("---\ndisable-model-invocation: true\n{rest}"),
        None => text.to_string(),
    }
}

/// Every file of the marketplace and the plugin, path and content, for the
/// crate version `version`.
pub fn files(version: &str) -> Vec<(String, String)> {
    let author = json!({"name": "git-standards"});
    let claude_marketplace = json!({
        "name": MARKETPLACE,
        "owner": author,
        "metadata": {"description": "The git-standards agent-client plugin.", "version": version},
        "plugins": [{
            "name": PLUGIN,
            "source": format!("./{PLUGIN_DIR}"),
            "description": DESCRIPTION,
            "version": version,
        }],
    });
    let codex_marketplace = json!({
        "name": MARKETPLACE,
        "interface": {"displayName": "git-standards"},
        "plugins": [{
            "name": PLUGIN,
            "source": {"source": "local", "path": format!("./{PLUGIN_DIR}")},
            "policy": {"installation": "AVAILABLE", "authentication": "ON_INSTALL"},
            "category": "Coding",
        }],
    });
    let claude_plugin = json!({
        "name": PLUGIN,
        "version": version,
        "description": DESCRIPTION,
        "author": author,
        "license": "MIT OR Apache-2.0",
        "keywords": ["workflow", "git", "agents"],
        "hooks": format!("./{CLAUDE_HOOKS}"),
    });
    let codex_plugin = json!({
        "name": PLUGIN,
        "version": version,
        "description": DESCRIPTION,
        "author": author,
        "license": "MIT OR Apache-2.0",
        "keywords": ["workflow", "git", "agents"],
        "skills": "./skills/",
        "hooks": format!("./{CODEX_HOOKS}"),
        "interface": {
            "displayName": "S.T.A.N.D.A.R.D.S.",
            "shortDescription": "Role skills and workflow hooks for git-standards",
            "developerName": "git-standards",
            "category": "Coding",
        },
    });
    let mut out = vec![
        (
            ".claude-plugin/marketplace.json".to_string(),
            to_json_text(&claude_marketplace),
        ),
        (
            ".agents/plugins/marketplace.json".to_string(),
            to_json_text(&codex_marketplace),
        ),
        (
            format!("{PLUGIN_DIR}/.claude-plugin/plugin.json"),
            to_json_text(&claude_plugin),
        ),
        (
            format!("{PLUGIN_DIR}/.codex-plugin/plugin.json"),
            to_json_text(&codex_plugin),
        ),
        (
            format!("{PLUGIN_DIR}/{CLAUDE_HOOKS}"),
            to_json_text(&hooks_file(&hook_set(Client::Claude))),
        ),
        (
            format!("{PLUGIN_DIR}/{CODEX_HOOKS}"),
            to_json_text(&hooks_file(&hook_set(Client::Codex))),
        ),
    ];
    for s in SKILLS {
        for (file, text) in s.files {
            out.push((
                format!("{PLUGIN_DIR}/skills/{}/{file}", s.role),
                plugin_skill_text(file, text),
            ));
        }
    }
    out
}

/// Whether a Claude settings object enables our plugin (`enabledPlugins`
/// holds [`PLUGIN_KEY`] set to `true`).
pub fn claude_enables(settings: &Value) -> bool {
    settings
        .get("enabledPlugins")
        .and_then(|p| p.get(PLUGIN_KEY))
        .and_then(Value::as_bool)
        == Some(true)
}

/// Whether the project's Claude Code settings in `tree` enable our plugin:
/// then the role skills are the plugin's, typed `/standards:<role>`.
pub fn claude_plugin_in(tree: &dyn crate::model::tree::Tree) -> bool {
    match tree.text(super::client_plan::CLAUDE_SETTINGS) {
        crate::model::tree::Text::Ok(text) => serde_json::from_str::<Value>(&text)
            .map(|v| claude_enables(&v))
            .unwrap_or(false),
        _ => false,
    }
}

/// Whether a Codex `config.toml` enables our plugin: a
/// `[plugins."standards@git-standards"]` table whose `enabled` is not false.
pub fn codex_enables(config: &str) -> bool {
    let Ok(value) = config.parse::<toml::Table>() else {
        return false;
    };
    value
        .get("plugins")
        .and_then(|p| p.get(PLUGIN_KEY))
        .and_then(|t| t.as_table())
        .is_some_and(|t| t.get("enabled").and_then(|e| e.as_bool()) != Some(false))
}

/// Whether a Codex `config.toml` turns plugin hooks off (`[features]
/// plugin_hooks = false`): then the plugin's skills load but its hooks do
/// not run, and the per-repository hooks are the ones to register.
pub fn codex_plugin_hooks_off(config: &str) -> bool {
    let Ok(value) = config.parse::<toml::Table>() else {
        return false;
    };
    value
        .get("features")
        .and_then(|f| f.get("plugin_hooks"))
        .and_then(|v| v.as_bool())
        == Some(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skills_stay_explicit_in_the_plugin() {
        let text = plugin_skill_text("SKILL.md", "---\nname: x\n---\nbody\n");
        assert_eq!(
            text,
            "---\ndisable-model-invocation: true\nname: x\n---\nbody\n"
        );
        assert_eq!(plugin_skill_text("agents/openai.yaml", "a: b\n"), "a: b\n");
    }

    #[test]
    fn plugin_enablement_is_read_from_each_clients_settings() {
        assert!(claude_enables(
            &json!({"enabledPlugins": {PLUGIN_KEY: true}})
        ));
        assert!(!claude_enables(
            &json!({"enabledPlugins": {PLUGIN_KEY: false}})
        ));
        assert!(!claude_enables(
            &json!({"enabledPlugins": {"other@x": true}})
        ));
        assert!(codex_enables(
            "[plugins.\"standards@git-standards\"]\nenabled = true\n"
        ));
        assert!(codex_enables("[plugins.\"standards@git-standards\"]\n"));
        assert!(!codex_enables(
            "[plugins.\"standards@git-standards\"]\nenabled = false\n"
        ));
        assert!(!codex_enables("model = \"x\"\n"));
        assert!(!codex_enables("not toml ["));
        assert!(codex_plugin_hooks_off("[features]\nplugin_hooks = false\n"));
        assert!(!codex_plugin_hooks_off("[features]\nplugin_hooks = true\n"));
        assert!(!codex_plugin_hooks_off("[features]\nhooks = true\n"));
        assert!(!codex_plugin_hooks_off("not toml ["));
    }
}
