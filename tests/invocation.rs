//! `git standards invocation` against installed skills (RT §6; SC-INV).

use serde_json::Value;

use crate::common::{files_below, read, stderr, stdout, write, Env};

fn json(a: &assert_cmd::assert::Assert) -> Value {
    serde_json::from_str(&stdout(a)).unwrap_or_else(|e| panic!("{e}: {}", stdout(a)))
}

fn installed(client: &str) -> (Env, std::path::PathBuf) {
    let (env, repo) = Env::repo();
    env.run(&repo, &["install", "--client", client]).success();
    (env, repo)
}

#[test]
fn sc_inv_004_two_installed_copies_need_a_client_and_are_never_merged() {
    let (env, repo) = installed("both");
    write(
        repo.join(".claude/skills/developer/modes/pair.md"),
        "<!-- standards:invocation -->\n```json\n{\"schemaVersion\":1,\"kind\":\"mode\",\"group\":\"collaboration\",\"id\":\"PAIR\",\"label\":\"Pair\",\"description\":\"Pair.\",\"selection\":\"user\"}\n```\n",
    );
    let a = env
        .run(&repo, &["invocation", "developer", "--json"])
        .code(1);
    let j = json(&a);
    assert_eq!(j["catalogStatus"], "unavailable");
    assert!(j["diagnostics"][0]["message"]
        .as_str()
        .unwrap()
        .contains("--client"));
    let count = |client: &str| {
        let a = env
            .run(
                &repo,
                &["invocation", "developer", "--client", client, "--json"],
            )
            .success();
        json(&a)["groups"][0]["options"].as_array().unwrap().len()
    };
    assert_eq!(count("codex"), 3);
    assert_eq!(count("claude"), 4);
}

#[test]
fn sc_inv_037_038_repeatable_from_another_folder_and_writes_nothing() {
    let (env, repo) = installed("codex");
    std::fs::create_dir_all(repo.join("src/deep")).unwrap();
    let before: Vec<(String, String)> = files_below(&repo)
        .into_iter()
        .map(|p| (p.clone(), read(repo.join(&p))))
        .collect();
    let deep = repo.join("src/deep");
    let one = stdout(
        &env.run(&deep, &["invocation", "navigator", "--json"])
            .success(),
    );
    let two = stdout(
        &env.run(&deep, &["invocation", "navigator", "--json"])
            .success(),
    );
    assert_eq!(one, two);
    let j: Value = serde_json::from_str(&one).unwrap();
    assert_eq!(j["complete"], true);
    assert_eq!(j["client"], "codex");
    assert_eq!(j["skillFile"], ".agents/skills/navigator/SKILL.md");
    let after: Vec<(String, String)> = files_below(&repo)
        .into_iter()
        .map(|p| (p.clone(), read(repo.join(&p))))
        .collect();
    assert_eq!(before, after);
    let help = stdout(&env.run(&repo, &["invocation", "--help"]).success());
    assert!(help.contains("Usage: git standards invocation"), "{help}");
    let other = env.dir.path().join("elsewhere");
    std::fs::create_dir_all(&other).unwrap();
    let text = stdout(
        &env.run(
            &other,
            &[
                "invocation",
                "navigator",
                "--project",
                repo.to_str().unwrap(),
            ],
        )
        .success(),
    );
    assert!(text.contains("GRILL_ME"), "{text}");
    assert!(text
        .ends_with("Discovery does not invoke a role, apply defaults, or waive workflow gates.\n"));
}

#[test]
fn sc_inv_039_bad_arguments_and_a_bad_role() {
    let (env, repo) = installed("codex");
    let a = env
        .run(&repo, &["invocation", "navigator", "--write"])
        .failure();
    assert!(stderr(&a).contains("--write"));
    let a = env
        .run(&repo, &["invocation", "../escape", "--json"])
        .code(1);
    assert_eq!(json(&a)["catalogStatus"], "unavailable");
}

#[test]
fn sc_inv_029_030_links_leaving_their_folder() {
    let (env, repo) = installed("codex");
    let outside = env.dir.path().join("outside.md");
    write(&outside, "# outside\n");
    let mode = repo.join(".agents/skills/developer/modes/linked.md");
    std::os::unix::fs::symlink(&outside, &mode).unwrap();
    let j = json(
        &env.run(&repo, &["invocation", "developer", "--json"])
            .code(1),
    );
    assert_eq!(j["catalogStatus"], "unavailable");
    assert!(j["diagnostics"][0]["message"]
        .as_str()
        .unwrap()
        .contains("leads outside its permitted folder"));
    std::fs::remove_file(&mode).unwrap();
    let styles = repo.join(".standards/user-styles/navigator");
    write(styles.join("tony.md"), "x");
    std::os::unix::fs::symlink(&outside, styles.join("away.md")).unwrap();
    let j = json(
        &env.run(&repo, &["invocation", "navigator", "--json"])
            .success(),
    );
    assert_eq!(j["userStyles"]["status"], "unknown");
    let options = j["userStyles"]["options"].as_array().unwrap();
    assert_eq!(options.len(), 1);
    assert_eq!(options[0]["id"], "tony");
    assert_eq!(options[0]["selector"], Value::Null);
    assert_eq!(options[0]["selectorReason"], "selection unverified");
    // SC-INV-027: a link that stays inside the folder is a style.
    std::fs::remove_file(styles.join("away.md")).unwrap();
    std::os::unix::fs::symlink(styles.join("tony.md"), styles.join("alias.md")).unwrap();
    write(styles.join("nested/alice.md"), "x");
    let j = json(
        &env.run(&repo, &["invocation", "navigator", "--json"])
            .success(),
    );
    let ids: Vec<&str> = j["userStyles"]["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["alias", "tony"]);
}

#[test]
fn sc_inv_047_navigator_needs_no_workflow_files() {
    let (env, repo) = installed("claude");
    for f in ["PROTOCOL.md", "STATE.md", "MODE.md"] {
        std::fs::remove_file(repo.join(".standards").join(f)).unwrap();
    }
    let j = json(
        &env.run(&repo, &["invocation", "navigator", "--json"])
            .success(),
    );
    assert_eq!(j["complete"], true);
    assert_eq!(j["client"], "claude");
    std::fs::remove_dir_all(repo.join(".standards")).unwrap();
    let j = json(
        &env.run(&repo, &["invocation", "navigator", "--json"])
            .success(),
    );
    assert_eq!(j["complete"], true, "SC-INV-005");
    assert_eq!(j["groups"][0]["selected"]["status"], "conversation");
}

/// Issue 25: `--json` results say `ok` like every other command's, and a
/// well-formed name that is none of the nine roles is a usage error (exit 2)
/// with the `{"ok": false, "error", "hint"}` object under --json.
#[test]
fn json_results_carry_ok_and_an_unknown_role_is_a_usage_error() {
    let (env, repo) = installed("codex");
    let j = json(
        &env.run(&repo, &["invocation", "navigator", "--json"])
            .success(),
    );
    assert_eq!(j["ok"], true, "{j:#}");
    let j = json(
        &env.run(&repo, &["invocation", "../escape", "--json"])
            .code(1),
    );
    assert_eq!(j["ok"], false, "{j:#}");
    assert_eq!(j["catalogStatus"], "unavailable");
    let a = env.run(&repo, &["invocation", "wizard"]).code(2);
    assert!(
        stderr(&a).contains("unknown role `wizard`: the roles are scoper, architect"),
        "{}",
        stderr(&a)
    );
    assert!(stdout(&a).is_empty());
    let a = env.run(&repo, &["invocation", "wizard", "--json"]).code(2);
    let j = json(&a);
    assert_eq!(j["ok"], false, "{j:#}");
    assert!(
        j["error"]
            .as_str()
            .unwrap()
            .contains("unknown role `wizard`"),
        "{j:#}"
    );
    assert!(j.get("hint").is_some(), "{j:#}");
}
