//! Issue 24: taking the client integration out (`uninstall`, `install
//! --client none`) gives back the user's `.claude/settings.json` byte for
//! byte: a `skillOverrides` key install added goes with its entries, one the
//! user had stays with theirs, in the file's own style. Both ways share one
//! rule, so each case runs both.

use std::path::Path;

use serde_json::Value;

use crate::common::{read, write, Env};

const SETTINGS: &str = ".claude/settings.json";

/// How the integration is taken out again.
#[derive(Clone, Copy, Debug)]
enum Removal {
    Uninstall,
    ClientNone,
}

const REMOVALS: [Removal; 2] = [Removal::Uninstall, Removal::ClientNone];

/// Installs Claude Code over `settings`, checks install changed it, removes
/// the integration again and returns the settings file's text afterwards.
fn install_and_remove(settings: &str, removal: Removal) -> String {
    let (env, repo) = Env::repo();
    write(repo.join(SETTINGS), settings);
    env.commit_all(&repo, "the user's settings");
    env.run(&repo, &["install", "--client", "claude"]).success();
    let installed = read(repo.join(SETTINGS));
    assert_ne!(
        installed, settings,
        "{removal:?}: install adds its overrides"
    );
    let v: Value = serde_json::from_str(&installed).unwrap();
    assert_eq!(v["skillOverrides"]["scoper"], "user-invocable-only");
    env.commit_all(&repo, "install");
    match removal {
        Removal::Uninstall => {
            env.run(&repo, &["uninstall", "--yes"]).success();
            assert!(!repo.join(".standards").exists());
        }
        Removal::ClientNone => {
            env.run(&repo, &["install", "--client", "none"]).success();
            let record = read(repo.join(".standards/INSTALLATION.json"));
            assert!(
                !record.contains("createdKeys"),
                "the record forgets what it no longer owns: {record}"
            );
        }
    }
    assert!(!repo.join(".claude/skills").exists(), "{removal:?}");
    read(repo.join(SETTINGS))
}

#[test]
fn a_user_without_skill_overrides_gets_none_back() {
    for removal in REMOVALS {
        let settings = "{\n  \"theme\": \"dark\"\n}\n";
        assert_eq!(
            install_and_remove(settings, removal),
            settings,
            "{removal:?}"
        );
    }
}

#[test]
fn a_users_own_skill_overrides_stay_byte_for_byte() {
    for removal in REMOVALS {
        let settings =
            "{\n  \"skillOverrides\": {\n    \"my-skill\": \"off\"\n  },\n  \"theme\": \"dark\"\n}\n";
        assert_eq!(
            install_and_remove(settings, removal),
            settings,
            "{removal:?}"
        );
        // An empty one the user wrote is theirs too: it stays.
        let empty = "{\n  \"theme\": \"dark\",\n  \"skillOverrides\": {}\n}\n";
        assert_eq!(install_and_remove(empty, removal), empty, "{removal:?}");
    }
}

#[test]
fn four_space_and_compact_settings_keep_their_style() {
    for removal in REMOVALS {
        for settings in [
            "{\n    \"theme\": \"dark\",\n    \"permissions\": {\n        \"allow\": [\n            \"Read\"\n        ]\n    }\n}\n",
            "{\"theme\":\"dark\",\"permissions\":{\"allow\":[\"Read\"]}}",
            "{\"theme\": \"dark\", \"skillOverrides\": {\"mine\": \"on\"}}\n",
        ] {
            assert_eq!(
                install_and_remove(settings, removal),
                settings,
                "{removal:?}"
            );
        }
    }
}

/// A record an older git-standards wrote says nothing about the keys it
/// added, so an emptied `skillOverrides` is kept there: it may be the user's.
#[test]
fn a_record_without_created_keys_keeps_an_emptied_skill_overrides() {
    let (env, repo) = Env::repo();
    write(repo.join(SETTINGS), "{\"theme\": \"dark\"}\n");
    env.run(&repo, &["install", "--client", "claude"]).success();
    let path = repo.join(".standards/INSTALLATION.json");
    let mut record: Value = serde_json::from_str(&read(&path)).unwrap();
    assert_eq!(
        record["createdKeys"][SETTINGS],
        serde_json::json!(["skillOverrides"])
    );
    record.as_object_mut().unwrap().remove("createdKeys");
    write(&path, serde_json::to_string_pretty(&record).unwrap() + "\n");
    env.run(&repo, &["install", "--client", "none"]).success();
    let now: Value = serde_json::from_str(&read(repo.join(SETTINGS))).unwrap();
    assert_eq!(
        now,
        serde_json::json!({"theme": "dark", "skillOverrides": {}})
    );
    assert!(Path::new(&repo).join(SETTINGS).exists());
}

/// Removal leaves a skill folder that is not ours alone, even one named
/// like a role: `uninstall` removes the runtime and keeps the user's skill.
#[test]
fn uninstall_keeps_the_users_own_skill_named_like_a_role() {
    let (env, repo) = Env::repo();
    env.run(&repo, &["install", "--client", "codex"]).success();
    let mine = repo.join(".claude/skills/scoper/SKILL.md");
    write(&mine, "# my own scoper\n");
    env.commit_all(&repo, "install, and a skill of mine");
    env.run(&repo, &["uninstall", "--yes"]).success();
    assert!(!repo.join(".standards").exists());
    assert!(!repo.join(".agents/skills/scoper").exists(), "ours went");
    assert_eq!(read(&mine), "# my own scoper\n");
}
