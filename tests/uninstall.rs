//! `git standards uninstall` on real repositories (RT §7.8, D3, D21, D22).

use std::path::Path;

use crate::common::{read, stderr, stdout, write, Env};
use crate::recover::tree_bytes;
use crate::reset::{project_with_cycle, CYCLE};

fn outside_standards(root: &Path) -> std::collections::BTreeMap<String, Option<Vec<u8>>> {
    tree_bytes(root)
        .into_iter()
        .filter(|(p, _)| !p.starts_with(".standards"))
        .collect()
}

#[test]
fn uninstall_after_reset_leaves_project_work_byte_for_byte() {
    let (env, repo) = project_with_cycle();
    env.run(&repo, &["reset", "--yes"]).success();
    let work = outside_standards(&repo);
    let dry = tree_bytes(&repo);
    let a = env.run(&repo, &["uninstall", "--dry-run"]).success();
    assert!(
        stdout(&a).contains("Would uninstall STANDARDS"),
        "{}",
        stdout(&a)
    );
    assert!(stdout(&a).contains("Remove: .standards"), "{}", stdout(&a));
    assert!(stderr(&a).contains("1 user style"), "{}", stderr(&a));
    assert_eq!(tree_bytes(&repo), dry, "a dry run changes nothing");
    let refused = env.run(&repo, &["uninstall"]).failure();
    assert!(
        stderr(&refused).contains("git standards uninstall --yes"),
        "{}",
        stderr(&refused)
    );
    let a = env.run(&repo, &["uninstall", "--yes"]).success();
    assert!(
        stdout(&a).contains("Uninstalled STANDARDS"),
        "{}",
        stdout(&a)
    );
    assert!(!repo.join(".standards").exists());
    assert_eq!(outside_standards(&repo), work);
    // The uninstall archive stacks on the reset's (same cycle? no: the reset left no cycle).
    let refs = env.git(
        &repo,
        &[
            "for-each-ref",
            "--format=%(refname)",
            "refs/standards/archive/",
        ],
    );
    assert!(
        refs.contains(&format!("refs/standards/archive/{CYCLE}")),
        "{refs}"
    );
    assert!(refs.contains("refs/standards/archive/uninstall-"), "{refs}");
    let name = refs
        .lines()
        .find(|l| l.contains("uninstall-"))
        .unwrap()
        .trim_start_matches("refs/standards/archive/");
    let style = env
        .run(
            &repo,
            &["archive", "show", name, "user-styles/developer/terse.md"],
        )
        .success();
    assert_eq!(stdout(&style), "style\n");
    let log = stdout(&env.run(&repo, &["log"]).success());
    assert!(log.contains("uninstalled"), "{log}");
    // Nothing left: a second uninstall has nothing to do.
    let again = env.run(&repo, &["uninstall", "--yes"]).success();
    assert!(
        stderr(&again).contains("No STANDARDS installation found"),
        "{}",
        stderr(&again)
    );
}

#[test]
fn uninstall_removes_node_handlers_blocks_and_marked_skills_and_keeps_the_users() {
    let (env, repo) = Env::repo();
    write(repo.join("src/main.rs"), "fn main() {}\n");
    env.run(&repo, &["install"]).success();
    write(
        repo.join(".standards/INSTALLATION.json"),
        r#"{
  "framework": "S.T.A.N.D.A.R.D.S.",
  "createdPaths": [".claude", ".claude/skills", ".codex", ".codex/hooks.json"],
  "managedClientSettings": {
    ".claude/settings.json": {
      "skillOverrides": { "developer": "user-invocable-only", "tester": "user-invocable-only" }
    }
  }
}
"#,
    );
    write(
        repo.join(".claude/settings.json"),
        r#"{
  "skillOverrides": { "developer": "user-invocable-only", "tester": "on", "mine": "x" },
  "hooks": {
    "Stop": [
      { "hooks": [ { "type": "command", "command": "node \"$CLAUDE_PROJECT_DIR/.standards/bin/hook.mjs\"" } ] },
      { "hooks": [ { "type": "command", "command": "./my-hook.sh" } ] }
    ]
  }
}
"#,
    );
    write(
        repo.join(".codex/hooks.json"),
        r#"{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"git standards hook stop","timeout":120}]}]}}"#,
    );
    write(
        repo.join(".claude/skills/developer/SKILL.md"),
        "<!-- standards:framework-owned -->\n# developer\n",
    );
    write(
        repo.join(".claude/skills/mine/SKILL.md"),
        "# my own skill\n",
    );
    write(
        repo.join("AGENTS.md"),
        "# Agents\n\n<!-- standards:start -->\nRead .standards/PROTOCOL.md.\n<!-- standards:end -->\n\nMy rules.\n",
    );
    write(
        repo.join("CLAUDE.md"),
        "<!-- standards:start -->\n@AGENTS.md\n<!-- standards:end -->\n",
    );
    env.commit_all(&repo, "installed with clients");

    let out = env.run(&repo, &["uninstall", "--yes"]).success();
    assert!(!repo.join(".standards").exists());
    assert!(!repo.join("CLAUDE.md").exists(), "left empty, so deleted");
    assert_eq!(read(repo.join("AGENTS.md")), "# Agents\n\nMy rules.\n");
    // A SKILL.md that differs from the one this version ships may be the
    // user's work: it stays, with a warning (issue 13).
    assert!(repo.join(".claude/skills/developer/SKILL.md").exists());
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.get_output().stdout),
        String::from_utf8_lossy(&out.get_output().stderr)
    );
    assert!(
        text.contains("Kept changed skill file .claude/skills/developer/SKILL.md"),
        "{text}"
    );
    assert_eq!(
        read(repo.join(".claude/skills/mine/SKILL.md")),
        "# my own skill\n"
    );
    assert!(
        !repo.join(".codex").exists(),
        "recorded as created and now empty"
    );
    let settings: serde_json::Value =
        serde_json::from_str(&read(repo.join(".claude/settings.json"))).unwrap();
    assert_eq!(
        settings,
        serde_json::json!({
            "skillOverrides": { "tester": "on", "mine": "x" },
            "hooks": { "Stop": [ { "hooks": [ { "type": "command", "command": "./my-hook.sh" } ] } ] }
        })
    );
    assert_eq!(read(repo.join("src/main.rs")), "fn main() {}\n");
}

#[test]
fn uninstall_refuses_links_and_unknown_ownership_and_changes_nothing() {
    #[cfg(unix)]
    {
        let (env, repo) = project_with_cycle();
        std::os::unix::fs::symlink("/etc", repo.join(".standards/docs/etc")).unwrap();
        let before = tree_bytes(&repo);
        let a = env.run(&repo, &["uninstall", "--yes"]).failure();
        assert!(stderr(&a).contains("symbolic link"), "{}", stderr(&a));
        assert_eq!(tree_bytes(&repo), before);
    }
    let (env, repo) = project_with_cycle();
    write(
        repo.join(".standards/INSTALLATION.json"),
        "{\"framework\": \"S.T.A.N.D.A.R.D.S.\", \"managedClientSettings\": {}, \"futureKey\": 1}\n",
    );
    let before = tree_bytes(&repo);
    let a = env.run(&repo, &["uninstall", "--yes"]).failure();
    assert!(stderr(&a).contains("futureKey"), "{}", stderr(&a));
    assert_eq!(tree_bytes(&repo), before);
    assert!(env
        .git(&repo, &["for-each-ref", "refs/standards"])
        .is_empty());
}

#[test]
fn an_uninstall_killed_anywhere_is_recovered_with_no_record_lost() {
    use crate::recover::{arms, copy_tree, interrupt_and_recover, Ended, Lcg};
    use git_standards::commands::uninstall::FAILPOINTS;
    let (env, template) = project_with_cycle();
    let before = tree_bytes(&template);
    let work = outside_standards(&template);
    let points: Vec<Option<String>> = arms(FAILPOINTS, 2).into_iter().map(Some).collect();
    let mut random = Lcg(0xdead);
    let mut journaled = 0;
    for (n, point) in points
        .iter()
        .cloned()
        .chain((0..100).map(|_| None))
        .enumerate()
    {
        let repo = env.dir.path().join(format!("u-{n}"));
        copy_tree(&template, &repo);
        let rollback = random.below(2) == 0;
        let delay = std::time::Duration::from_micros(random.below(120_000));
        let (_, j) = interrupt_and_recover(
            &env,
            &repo,
            &["uninstall", "--yes"],
            point.as_deref(),
            delay,
            rollback,
        );
        journaled += usize::from(j);
        let now = tree_bytes(&repo);
        assert_eq!(
            outside_standards(&repo),
            work,
            "{point:?}: project work untouched"
        );
        let ended = if now == before {
            Ended::Before
        } else {
            Ended::After
        };
        if ended == Ended::After {
            assert!(
                !repo.join(".standards").exists(),
                "{point:?}: a partial uninstall"
            );
            // Every removed file is in the archive, byte for byte.
            let git = gix::open(&repo).unwrap();
            let tip = git
                .find_reference(format!("refs/standards/archive/{CYCLE}").as_str())
                .unwrap()
                .peel_to_id()
                .unwrap();
            let tree = git.find_commit(tip).unwrap().tree().unwrap();
            for (path, bytes) in &before {
                let (true, Some(bytes)) = (path.starts_with(".standards/"), bytes) else {
                    continue;
                };
                let entry = tree
                    .lookup_entry_by_path(path)
                    .unwrap()
                    .unwrap_or_else(|| panic!("{path} lost"));
                assert_eq!(&git.find_object(entry.oid()).unwrap().data, bytes, "{path}");
            }
        }
        std::fs::remove_dir_all(&repo).unwrap();
    }
    assert!(journaled > 0);
}

/// Issue 25, `--json` on every command: the refusal to run unconfirmed, the
/// preview and the uninstall each print one JSON object on stdout, and the
/// archive it names is a real ref.
#[test]
fn json_reports_the_refusal_the_preview_and_the_uninstall() {
    let (env, repo) = project_with_cycle();
    let parse = |a: &assert_cmd::assert::Assert| -> serde_json::Value {
        serde_json::from_str(&stdout(a)).unwrap_or_else(|e| panic!("{e}: {}", stdout(a)))
    };
    let v = parse(&env.run(&repo, &["uninstall", "--json"]).code(1));
    assert_eq!(v["ok"], false, "{v:#}");
    assert!(
        v["hint"]
            .as_str()
            .unwrap()
            .contains("`git standards uninstall --yes`"),
        "{v:#}"
    );
    let v = parse(
        &env.run(&repo, &["uninstall", "--dry-run", "--json"])
            .success(),
    );
    assert_eq!(v["dryRun"], true, "{v:#}");
    assert_eq!(v["changed"], false, "{v:#}");
    assert_eq!(v["cycle"], CYCLE, "{v:#}");
    assert!(
        repo.join(".standards").exists(),
        "a preview changes nothing"
    );
    let v = parse(&env.run(&repo, &["uninstall", "--yes", "--json"]).success());
    assert_eq!(
        (v["ok"].clone(), v["changed"].clone()),
        (true.into(), true.into()),
        "{v:#}"
    );
    assert!(
        v["paths"]
            .as_array()
            .unwrap()
            .contains(&serde_json::json!({"action": "remove", "path": ".standards"})),
        "{v:#}"
    );
    let (reference, commit) = v["archive"].as_str().unwrap().split_once('@').unwrap();
    assert_eq!(env.git(&repo, &["rev-parse", reference]).trim(), commit);
    assert!(!repo.join(".standards").exists());
}

/// Issue 24: uninstall removes the managed block and our handlers with the
/// same rule as `install --client none`, so the user's AGENTS.md comes back
/// byte for byte (it used to keep an extra blank line) and a settings file
/// keeps its own indentation (it used to be re-indented with two spaces).
#[test]
fn uninstall_gives_back_the_users_agents_md_and_settings_style() {
    let (env, repo) = Env::repo();
    let agents = "# Our agents\n\nBe brief.\n";
    let hooks = "{\n    \"hooks\": {\n        \"PreToolUse\": [\n            {\n                \"matcher\": \"Bash\",\n                \"hooks\": [\n                    {\n                        \"type\": \"command\",\n                        \"command\": \"audit.sh\"\n                    }\n                ]\n            }\n        ]\n    }\n}\n";
    write(repo.join("AGENTS.md"), agents);
    write(repo.join(".codex/hooks.json"), hooks);
    env.commit_all(&repo, "the user's files");
    env.run(&repo, &["install", "--client", "codex"]).success();
    assert_ne!(
        read(repo.join("AGENTS.md")),
        agents,
        "install adds its block"
    );
    assert_ne!(
        read(repo.join(".codex/hooks.json")),
        hooks,
        "and its handler"
    );
    env.commit_all(&repo, "install");
    env.run(&repo, &["uninstall", "--yes"]).success();
    assert_eq!(read(repo.join("AGENTS.md")), agents);
    assert_eq!(read(repo.join(".codex/hooks.json")), hooks);
}

/// Issue 25, item 8, as for `reset` (one shared warning): uninstall's records
/// warning names only the kinds present, says "deletes" in a preview and
/// "deleted" once `.standards/` is gone, in text and in `--json`.
#[test]
fn the_records_warning_names_the_kinds_present_in_the_right_tense() {
    let (env, repo) = project_with_cycle();
    let expected =
        "cycle records in `.standards/docs/` (1 scope, 1 design and 1 development records)";
    let err = stderr(&env.run(&repo, &["uninstall", "--dry-run"]).success());
    assert!(
        err.contains(&format!("Warning: deletes 3 {expected}")),
        "{err}"
    );
    assert!(err.contains("Warning: deletes 1 user style"), "{err}");
    assert!(!err.contains("synchronization"), "{err}");
    let out = env
        .run(&repo, &["uninstall", "--dry-run", "--json"])
        .success();
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        v["recordKinds"],
        serde_json::json!({"scope": 1, "design": 1, "development": 1}),
        "{v:#}"
    );
    assert!(
        v["warnings"][0].as_str().unwrap().starts_with("deletes 3"),
        "{v:#}"
    );
    assert!(
        repo.join(".standards/docs").exists(),
        "a preview changes nothing"
    );
    let err = stderr(&env.run(&repo, &["uninstall", "--yes"]).success());
    assert!(!repo.join(".standards").exists());
    assert!(
        err.contains(&format!("Warning: deleted 3 {expected}")),
        "{err}"
    );
    assert!(err.contains("Warning: deleted 1 user style"), "{err}");
    assert!(!err.contains("Warning: deletes"), "{err}");
}
