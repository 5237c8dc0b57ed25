//! Issue 26: this repository as a plugin marketplace for Claude Code and
//! Codex. The committed files are exactly what `setup::plugins` generates
//! from the skill sources and hook definitions of the per-repository install
//! (`UPDATE_PLUGINS=1 cargo test --locked --test tests plugins::` rewrites
//! them), versioned with the crate, and each manifest carries the fields
//! its client documents.

use std::path::Path;

use serde_json::Value;

use crate::common::{read, write, Env};
use standards_core::setup::plugins::{self, PLUGIN, PLUGIN_DIR, PLUGIN_KEY};

const VERSION: &str = env!("CARGO_PKG_VERSION");

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn json(path: &str) -> Value {
    serde_json::from_str(&read(root().join(path))).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn committed_plugin_files_match_their_sources() {
    let files = plugins::files(VERSION);
    if std::env::var_os("UPDATE_PLUGINS").is_some() {
        // Skill files of roles no longer shipped go first.
        let _ = std::fs::remove_dir_all(root().join(PLUGIN_DIR).join("skills"));
        for (path, text) in &files {
            write(root().join(path), text);
        }
    }
    let mut stale = Vec::new();
    for (path, text) in &files {
        if std::fs::read_to_string(root().join(path)).ok().as_deref() != Some(text.as_str()) {
            stale.push(path.clone());
        }
    }
    // Nothing extra in the plugin folder either.
    let mut on_disk = Vec::new();
    let mut stack = vec![root().join(PLUGIN_DIR)];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            if e.file_type().unwrap().is_dir() {
                stack.push(e.path());
            } else {
                on_disk.push(
                    e.path()
                        .strip_prefix(root())
                        .unwrap()
                        .to_string_lossy()
                        .into_owned(),
                );
            }
        }
    }
    for path in on_disk {
        if !files.iter().any(|(p, _)| *p == path) {
            stale.push(format!("{path} (not generated)"));
        }
    }
    assert!(
        stale.is_empty(),
        "the plugin files are stale: {stale:?}; regenerate them with `UPDATE_PLUGINS=1 cargo test --locked --test tests plugins::` and commit the result"
    );
}

#[test]
fn the_claude_manifests_carry_the_documented_fields() {
    let market = json(".claude-plugin/marketplace.json");
    assert!(market["name"].as_str().is_some_and(kebab));
    assert!(market["owner"]["name"].is_string());
    let entry = &market["plugins"][0];
    assert_eq!(entry["name"], PLUGIN);
    assert_eq!(entry["version"], VERSION);
    let source = entry["source"].as_str().unwrap();
    assert!(source.starts_with("./"), "{source}");
    let dir = root().join(source);
    let plugin = json(&format!("{PLUGIN_DIR}/.claude-plugin/plugin.json"));
    assert!(dir.join(".claude-plugin/plugin.json").is_file());
    assert_eq!(plugin["name"], PLUGIN);
    assert!(kebab(plugin["name"].as_str().unwrap()));
    assert_eq!(plugin["version"], VERSION);
    assert!(plugin["description"].is_string());
    assert!(plugin["author"]["name"].is_string());
    // Claude Code reads skills/<name>/SKILL.md, and the hooks file the
    // manifest's `hooks` names (a path relative to the plugin root):
    // https://code.claude.com/docs/en/plugins-reference#plugin-manifest-schema
    for s in standards_core::assets::skills::SKILLS {
        let skill = read(dir.join("skills").join(s.role).join("SKILL.md"));
        assert!(
            skill.starts_with("---\ndisable-model-invocation: true\n"),
            "{}",
            s.role
        );
        assert!(skill.contains(&format!("\nname: {}\n", s.role)));
    }
    assert_eq!(plugin["hooks"], "./hooks/claude.json");
    check_hooks(&json(&format!("{PLUGIN_DIR}/hooks/claude.json")), "claude");
    // No default `hooks/hooks.json`: Codex reads that file from any plugin
    // too (openai/codex#19705, "Discovers plugin hook sources from each
    // plugin's default `hooks/hooks.json`"), and would run Claude Code's
    // commands beside its own.
    assert!(!dir.join("hooks/hooks.json").exists());
}

#[test]
fn the_codex_manifests_carry_the_documented_fields() {
    let market = json(".agents/plugins/marketplace.json");
    assert!(market["name"].as_str().is_some_and(kebab));
    let entry = &market["plugins"][0];
    assert_eq!(entry["name"], PLUGIN);
    assert_eq!(entry["source"]["source"], "local");
    let path = entry["source"]["path"].as_str().unwrap();
    assert!(path.starts_with("./") && !path.contains(".."), "{path}");
    assert_eq!(entry["policy"]["installation"], "AVAILABLE");
    assert_eq!(entry["policy"]["authentication"], "ON_INSTALL");
    assert!(entry["category"].is_string());
    let dir = root().join(path);
    let plugin = json(&format!("{PLUGIN_DIR}/.codex-plugin/plugin.json"));
    assert!(dir.join(".codex-plugin/plugin.json").is_file());
    assert_eq!(plugin["name"], PLUGIN);
    assert_eq!(plugin["version"], VERSION);
    assert!(plugin["interface"]["displayName"].is_string());
    // The manifest's component keys, paths relative to the plugin root
    // starting with `./`: `skills`, and `hooks` for its lifecycle config
    // (https://developers.openai.com/codex/plugins/build, "hooks":
    // "./hooks/hooks.json" in its manifest example).
    for key in ["skills", "hooks"] {
        let rel = plugin[key].as_str().unwrap();
        assert!(rel.starts_with("./"), "{key}: {rel}");
        assert!(dir.join(rel).exists(), "{key}: {rel}");
    }
    assert_eq!(plugin["hooks"], "./hooks/codex.json");
    check_hooks(&json(&format!("{PLUGIN_DIR}/hooks/codex.json")), "codex");
}

fn kebab(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// A hooks file: the documented events, each group a list of `command`
/// handlers with a timeout, every command one of ours for `client`.
fn check_hooks(v: &Value, client: &str) {
    let events = v["hooks"].as_object().unwrap();
    let names: Vec<&String> = events.keys().collect();
    assert_eq!(
        names,
        ["SessionStart", "PreToolUse", "UserPromptSubmit", "Stop"]
    );
    for groups in events.values() {
        for g in groups.as_array().unwrap() {
            for h in g["hooks"].as_array().unwrap() {
                assert_eq!(h["type"], "command");
                assert!(h["timeout"].as_u64().is_some_and(|t| t > 0));
                let c = h["command"].as_str().unwrap();
                assert!(c.contains("git standards hook "), "{c}");
                assert!(c.ends_with(&format!("--client {client}")), "{c}");
            }
        }
    }
}

/// The plugin's skills are the per-repository install's, byte for byte but
/// the front-matter line that keeps them explicit.
#[test]
fn plugin_skills_are_the_installed_skills() {
    let (env, repo) = Env::repo();
    env.run(&repo, &["install", "--client", "both"]).success();
    for s in standards_core::assets::skills::SKILLS {
        for (file, _) in s.files {
            let installed = read(repo.join(".claude/skills").join(s.role).join(file));
            let shipped = read(
                root()
                    .join(PLUGIN_DIR)
                    .join("skills")
                    .join(s.role)
                    .join(file),
            );
            assert_eq!(
                shipped.replacen("disable-model-invocation: true\n", "", 1),
                installed,
                "{}/{file}",
                s.role
            );
        }
    }
}

/// With the plugin enabled in a client's settings, install registers no
/// hooks of its own there (never twice), and says why.
#[test]
fn install_registers_no_hooks_where_the_plugin_is_enabled() {
    let (env, repo) = Env::repo();
    write(
        repo.join(".claude/settings.json"),
        format!("{{\n  \"enabledPlugins\": {{\n    \"{PLUGIN_KEY}\": true\n  }}\n}}\n"),
    );
    write(
        repo.join(".codex/config.toml"),
        format!("[plugins.\"{PLUGIN_KEY}\"]\nenabled = true\n"),
    );
    let out = crate::common::stdout(&env.run(&repo, &["install", "--client", "both"]).success());
    assert!(out.contains("plugin"), "{out}");
    let settings: Value = serde_json::from_str(&read(repo.join(".claude/settings.json"))).unwrap();
    assert!(settings.get("hooks").is_none(), "{settings}");
    assert!(!repo.join(".codex/hooks.json").exists());
    // Turned off again, the next install registers them.
    write(
        repo.join(".codex/config.toml"),
        format!("[plugins.\"{PLUGIN_KEY}\"]\nenabled = false\n"),
    );
    env.run(&repo, &["install"]).success();
    let codex: Value = serde_json::from_str(&read(repo.join(".codex/hooks.json"))).unwrap();
    assert_eq!(codex["hooks"].as_object().unwrap().len(), 4);
}

/// Codex with the plugin enabled but plugin hooks turned off (`[features]
/// plugin_hooks = false`): the plugin's hooks do not run, so install
/// registers its own, says so, and takes them away once plugin hooks are on.
#[test]
fn codex_plugin_hooks_turned_off_get_the_per_repository_hooks() {
    let (env, repo) = Env::repo();
    let config = |hooks: bool| {
        format!(
            "[features]\nplugin_hooks = {hooks}\n\n[plugins.\"{PLUGIN_KEY}\"]\nenabled = true\n"
        )
    };
    write(repo.join(".codex/config.toml"), config(false));
    let out = crate::common::stdout(&env.run(&repo, &["install", "--client", "codex"]).success());
    assert!(out.contains("plugin_hooks = false"), "{out}");
    let codex: Value = serde_json::from_str(&read(repo.join(".codex/hooks.json"))).unwrap();
    assert_eq!(codex["hooks"].as_object().unwrap().len(), 4, "{codex}");
    write(repo.join(".codex/config.toml"), config(true));
    let out = crate::common::stdout(&env.run(&repo, &["install"]).success());
    assert!(out.contains("its hooks run from the plugin"), "{out}");
    let codex: Value = serde_json::from_str(&read(repo.join(".codex/hooks.json"))).unwrap();
    assert!(
        codex["hooks"].as_object().is_none_or(|h| h.is_empty()),
        "{codex}"
    );
}

/// Claude Code names a plugin's skills with the plugin's prefix
/// (https://code.claude.com/docs/en/plugins: `/plugin-name:hello`). Where the
/// project's settings enable the plugin, every printed Claude Code
/// invocation (install's first steps, the transition commands, `status`,
/// the session-start context) is `/standards:<role>`; the per-repository
/// skills stay `/<role>`, and Codex's lines are `$<role>` either way.
#[test]
fn invocations_match_the_skill_delivery_in_use() {
    use crate::common::stdout;
    for plugin in [true, false] {
        let (env, repo) = Env::repo();
        if plugin {
            write(
                repo.join(".claude/settings.json"),
                format!("{{\n  \"enabledPlugins\": {{\n    \"{PLUGIN_KEY}\": true\n  }}\n}}\n"),
            );
        }
        let install = stdout(&env.run(&repo, &["install", "--client", "both"]).success());
        env.commit_all(&repo, "install");
        let start = stdout(
            &env.run(&repo, &["start", "--request", "Add search"])
                .success(),
        );
        let status = stdout(&env.run(&repo, &["status"]).success());
        let json: Value =
            serde_json::from_str(&stdout(&env.run(&repo, &["status", "--json"]).success()))
                .unwrap();
        let payload = serde_json::json!({"session_id": "s", "cwd": repo,
            "hook_event_name": "SessionStart", "source": "startup"});
        let session = stdout(
            &env.run_stdin(
                &repo,
                &["hook", "session-start", "--client", "claude"],
                &payload.to_string(),
            )
            .success(),
        );
        let skill = json["next"]["invocation"]["skill"].as_str().unwrap();
        let claude = json["next"]["invocation"]["claudeCode"].as_str().unwrap();
        let typed = if plugin {
            format!("/standards:{skill} ")
        } else {
            format!("/{skill} ")
        };
        assert!(claude.contains(&typed), "{plugin}: {claude}");
        assert!(
            json["next"]["invocation"]["codex"]
                .as_str()
                .unwrap()
                .contains(&format!("${skill} ")),
            "{json}"
        );
        for (what, out) in [
            ("start", &start),
            ("status", &status),
            ("session", &session),
        ] {
            assert!(out.contains(typed.trim_end()), "{plugin} {what}: {out}");
            assert_eq!(out.contains("/standards:"), plugin, "{what}: {out}");
        }
        assert_eq!(install.contains("`/standards:"), plugin, "{install}");
    }
}
