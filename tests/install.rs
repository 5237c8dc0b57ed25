//! `git standards install` on real temporary repositories.

use crate::common::{files_below, read, stderr, stdout, write, Env};

const RUNTIME: [&str; 8] = [
    ".standards/INSTALLATION.json",
    ".standards/MODE.md",
    ".standards/PROTOCOL.md",
    ".standards/STATE.md",
    ".standards/VERSION.json",
    ".standards/protocol/expedited.md",
    ".standards/protocol/installation.md",
    ".standards/protocol/user-decisions.md",
];

#[test]
fn first_install_in_an_empty_repository_creates_exactly_the_runtime() {
    let (env, repo) = Env::repo();
    let a = env.run(&repo, &["install"]).success();
    assert_eq!(files_below(&repo), RUNTIME);
    let out = stdout(&a);
    assert!(out.contains("created        .standards/STATE.md"), "{out}");
    assert!(out.contains("Installed STANDARDS"), "{out}");
    assert!(out.contains("Mode: GREENFIELD"), "{out}");
    assert!(read(repo.join(".standards/MODE.md")).contains("`ProjectMode`: `GREENFIELD`"));
    assert!(read(repo.join(".standards/STATE.md")).contains("`WorkflowState`: `SCOPING`"));
    assert!(
        read(repo.join(".standards/PROTOCOL.md")).contains("<!-- standards:framework-owned -->")
    );
    let version = read(repo.join(".standards/VERSION.json"));
    assert_eq!(
        version,
        format!(
            "{{\n  \"framework\": \"S.T.A.N.D.A.R.D.S.\",\n  \"version\": \"{}\"\n}}\n",
            env!("CARGO_PKG_VERSION")
        )
    );
}

#[test]
fn project_content_makes_it_brownfield_and_mode_overrides() {
    let (env, repo) = Env::repo();
    write(repo.join("app.py"), "print('hi')\n");
    env.run(&repo, &["install"]).success();
    assert!(read(repo.join(".standards/STATE.md")).contains("`WorkflowState`: `AUDITING`"));

    let (env, repo) = Env::repo();
    write(repo.join("app.py"), "print('hi')\n");
    env.run(&repo, &["install", "--mode", "greenfield"])
        .success();
    assert!(read(repo.join(".standards/MODE.md")).contains("GREENFIELD"));
}

#[test]
fn install_works_from_a_subdirectory_and_with_dash_c() {
    let (env, repo) = Env::repo();
    write(repo.join("src/deep/x.txt"), "x");
    env.run(&repo.join("src/deep"), &["install"]).success();
    assert!(repo.join(".standards/STATE.md").is_file());
    assert!(!repo.join("src/deep/.standards").exists());

    let (env, repo) = Env::repo();
    env.run(env.dir.path(), &["-C", repo.to_str().unwrap(), "install"])
        .success();
    assert!(repo.join(".standards/STATE.md").is_file());
}

#[test]
fn dry_run_writes_nothing() {
    let (env, repo) = Env::repo();
    let a = env.run(&repo, &["install", "--dry-run"]).success();
    assert!(stdout(&a).contains("would create   .standards/PROTOCOL.md"));
    assert!(files_below(&repo).is_empty());
}

#[test]
fn reinstall_keeps_user_files_and_replaces_framework_files() {
    let (env, repo) = Env::repo();
    env.run(&repo, &["install"]).success();
    let state = read(repo.join(".standards/STATE.md"))
        .replace("`BlockedOn`: `NONE`", "`BlockedOn`: `Which DB?`");
    write(repo.join(".standards/STATE.md"), &state);
    write(repo.join(".standards/CONTEXT.md"), "# Project Context\n");
    write(repo.join(".standards/docs/scope/x.md"), "mine\n");
    write(
        repo.join(".standards/user-styles/developer/tony.md"),
        "style\n",
    );
    write(
        repo.join(".standards/PROTOCOL.md"),
        "<!-- standards:framework-owned -->\nedited by hand\n",
    );
    write(repo.join(".standards/bin/check.mjs"), "// node runtime\n");

    let a = env.run(&repo, &["install"]).success();
    let out = stdout(&a);
    assert!(
        out.contains("replaced       .standards/PROTOCOL.md"),
        "{out}"
    );
    assert!(out.contains("removed        .standards/bin"), "{out}");
    assert!(out.contains("kept           .standards/STATE.md"), "{out}");
    assert!(out.contains("Updated STANDARDS"), "{out}");
    assert_eq!(read(repo.join(".standards/STATE.md")), state);
    assert_eq!(
        read(repo.join(".standards/CONTEXT.md")),
        "# Project Context\n"
    );
    assert_eq!(read(repo.join(".standards/docs/scope/x.md")), "mine\n");
    assert_eq!(
        read(repo.join(".standards/user-styles/developer/tony.md")),
        "style\n"
    );
    assert!(!read(repo.join(".standards/PROTOCOL.md")).contains("edited by hand"));
    assert!(!repo.join(".standards/bin").exists());

    let a = env.run(&repo, &["install"]).success();
    assert!(stdout(&a).contains("Verified STANDARDS"));
}

#[test]
fn refuses_a_symlinked_standards_folder() {
    let (env, repo) = Env::repo();
    let outside = env.dir.path().join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    std::os::unix::fs::symlink(&outside, repo.join(".standards")).unwrap();
    let a = env.run(&repo, &["install"]).code(1);
    assert!(stderr(&a).contains("symbolic link"), "{}", stderr(&a));
    assert!(
        std::fs::read_dir(&outside).unwrap().next().is_none(),
        "nothing written through the link"
    );
}

#[test]
fn refuses_a_conflicted_state_and_names_the_cycles() {
    let (env, repo) = Env::repo();
    write(repo.join("app.py"), "print('hi')\n");
    env.run(&repo, &["install"]).success();
    env.commit_all(&repo, "install");
    let state = read(repo.join(".standards/STATE.md"));
    let with_id = |id: &str| state.replace("`Id`: `UNSET`", &format!("`Id`: `{id}`"));
    env.git(&repo, &["checkout", "-q", "-b", "side"]);
    write(
        repo.join(".standards/STATE.md"),
        with_id("side-20260101T000000Z-00000001"),
    );
    env.commit_all(&repo, "side");
    env.git(&repo, &["checkout", "-q", "main"]);
    write(
        repo.join(".standards/STATE.md"),
        with_id("main-20260101T000000Z-00000002"),
    );
    env.commit_all(&repo, "main");
    let merge = env.git_status(&repo, &["merge", "-q", "side"]);
    assert!(!merge.status.success(), "the merge must conflict");

    let before = read(repo.join(".standards/STATE.md"));
    let a = env.run(&repo, &["install"]).code(1);
    let err = stderr(&a);
    assert!(err.contains("unresolved merge conflicts"), "{err}");
    assert!(
        err.contains("main-20260101T000000Z-00000002")
            && err.contains("side-20260101T000000Z-00000001"),
        "{err}"
    );
    assert_eq!(
        read(repo.join(".standards/STATE.md")),
        before,
        "nothing written"
    );
}

#[test]
fn refuses_a_foreign_standards_folder() {
    let (env, repo) = Env::repo();
    write(repo.join(".standards/notes.md"), "mine\n");
    let a = env.run(&repo, &["install"]).code(1);
    assert!(stderr(&a).contains("not a STANDARDS runtime"));
    assert_eq!(files_below(&repo), [".standards/notes.md"]);
}

#[test]
fn outside_a_repository_is_a_clear_error() {
    let env = Env::new();
    let a = env.run(env.dir.path(), &["install"]).code(1);
    assert!(
        stderr(&a).contains("not inside a git repository"),
        "{}",
        stderr(&a)
    );
}

#[test]
fn an_empty_standards_folder_puts_the_project_in_a_subfolder() {
    let (env, repo) = Env::repo();
    std::fs::create_dir_all(repo.join("app/.standards")).unwrap();
    write(repo.join("app/main.py"), "print('hi')\n");
    let a = env.run(&repo.join("app"), &["install"]).success();
    assert!(stdout(&a).contains("Installed STANDARDS"), "{}", stdout(&a));
    assert!(repo.join("app/.standards/STATE.md").is_file());
    assert!(!repo.join(".standards").exists());
    assert!(read(repo.join("app/.standards/MODE.md")).contains("BROWNFIELD"));
    // Commands run anywhere below app/ find it (D1).
    std::fs::create_dir_all(repo.join("app/src")).unwrap();
    env.run(&repo.join("app/src"), &["check"]).success();
}

/// Issue 25, `--json` on every command: `install --dry-run --json` and
/// `install --json` print the report's lines as one JSON object and never
/// ask; the refusal outside a repository is one JSON object with the text
/// form's exit code.
#[test]
fn json_reports_the_preview_the_install_and_the_refusal() {
    let parse = |a: &assert_cmd::assert::Assert| -> serde_json::Value {
        serde_json::from_str(&stdout(a)).unwrap_or_else(|e| panic!("{e}: {}", stdout(a)))
    };
    let (env, repo) = Env::repo();
    write(repo.join("README.md"), "# hello\n");
    let v = parse(
        &env.run(&repo, &["install", "--dry-run", "--json"])
            .success(),
    );
    assert_eq!(v["ok"], true, "{v}");
    assert_eq!(v["command"], "install");
    assert_eq!(v["dryRun"], true);
    assert!(!v["lines"].as_array().unwrap().is_empty(), "{v}");
    assert!(
        !repo.join(".standards").exists(),
        "a preview writes nothing"
    );

    let v = parse(&env.run(&repo, &["install", "--json"]).success());
    assert_eq!(v["ok"], true, "{v}");
    assert_eq!(v["dryRun"], false);
    assert!(
        v["lines"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l.as_str().unwrap().starts_with("First steps:")),
        "{v}"
    );
    assert!(repo.join(".standards/PROTOCOL.md").exists());

    let outside = repo.parent().unwrap().join("not-a-repo");
    std::fs::create_dir_all(&outside).unwrap();
    let text = env.run(&outside, &["install"]).get_output().status.code();
    let a = env.run(&outside, &["install", "--json"]);
    assert_ne!(text, Some(0));
    assert_eq!(a.get_output().status.code(), text);
    let v = parse(&a);
    assert_eq!(v["ok"], false);
    assert!(v["error"].as_str().is_some_and(|e| !e.is_empty()), "{v}");
    assert!(v.get("hint").is_some(), "{v}");
    assert!(!outside.join(".standards").exists());
}
