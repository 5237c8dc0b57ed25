//! Output that reads like git (issue 15, points 2, 5 and 6): fresh records
//! read as "not filled in yet", paths shown relative to the current folder,
//! and the projects of a repository named from its top.

use std::path::Path;

use crate::common::{stderr, stdout, write, Env};
use crate::fixture::Project;

fn json_of(a: &assert_cmd::assert::Assert) -> serde_json::Value {
    serde_json::from_str(&stdout(a)).unwrap_or_else(|e| panic!("not JSON ({e}): {}", stdout(a)))
}

/// Every record type of one cycle, created with `artifact init`.
const RECORDS: &[&[&str]] = &[
    &["SCOPE"],
    &["ARCHITECTURE"],
    &["DEVELOPMENT"],
    &["VERIFICATION"],
    &["REVIEW", "--kind", "IMPLEMENTATION"],
    &["REVIEW", "--kind", "FINAL_DELIVERABLE"],
    &["DOCUMENTATION"],
    &["SYNCHRONIZATION"],
];

#[test]
fn fresh_records_give_one_unfilled_problem_each_naming_the_fields() {
    let p = Project::brown();
    p.start_cycle("TESTING", "STANDARD", "FULL_DELIVERABLE");
    for args in RECORDS {
        p.init(args);
    }
    let a = p.run(&["check"]).code(1);
    let text = stdout(&a);
    let rh002: Vec<&str> = text.lines().filter(|l| l.ends_with("[RH-002]")).collect();
    // Six of the eight records carry a header of choices (scope and design have none).
    assert_eq!(rh002.len(), 6, "{text}");
    let mut files = std::collections::HashSet::new();
    for line in &rh002 {
        let (file, message) = line.split_once(": ").unwrap();
        assert!(files.insert(file), "{file} is reported twice: {text}");
        assert!(
            message.starts_with("not filled in yet: the header field"),
            "{line}"
        );
        assert!(message.contains("`Status` (`"), "{line}");
    }
    let verification = rh002.iter().find(|l| l.contains("/verification/")).unwrap();
    assert!(
        verification.contains(
            "`Mode` (`VERIFY | REVERIFY`), `Status` (`IN_PROGRESS | BLOCKED | COMPLETE`) and `User Style` (`NONE | <identifier>`) still hold the template's choices"
        ),
        "{verification}"
    );
    // The hint once per rule and file.
    let hints = text
        .lines()
        .filter(|l| l.starts_with("    hint:") && l.contains("replaces each of these values"))
        .count();
    assert_eq!(hints, 6, "{text}");
    // The JSON names the same one problem per record.
    let v = json_of(&p.run(&["check", "--json"]).code(1));
    let rh002 = v["problems"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["rule"] == "RH-002")
        .count();
    assert_eq!(rh002, 6, "{v}");
    // `-q`: the summary line alone, with the exit status.
    let a = p.run(&["check", "-q"]).code(1);
    assert_eq!(stdout(&a).lines().count(), 1, "{}", stdout(&a));
    assert!(stdout(&a).starts_with("check failed: "), "{}", stdout(&a));
    assert!(stderr(&a).is_empty(), "{}", stderr(&a));
    let a = p.run(&["status", "-q"]).success();
    assert_eq!(stdout(&a).lines().count(), 1, "{}", stdout(&a));
}

#[test]
fn artifact_init_names_the_fields_the_role_fills_next() {
    let p = Project::brown();
    p.start_cycle("TESTING", "STANDARD", "FULL_DELIVERABLE");
    let a = p.run(&["artifact", "init", "VERIFICATION"]).success();
    assert_eq!(stdout(&a).lines().count(), 1, "stdout stays the path alone");
    assert_eq!(
        stderr(&a),
        "Next: the Tester fills in the header fields `Mode` (`VERIFY | REVERIFY`), `Status` (`IN_PROGRESS | BLOCKED | COMPLETE`) and `User Style` (`NONE | <identifier>`), choosing one value each; `git standards check` reports them as not filled in yet until then.\n"
    );
    let v = json_of(
        &p.run(&[
            "artifact",
            "init",
            "REVIEW",
            "--kind",
            "IMPLEMENTATION",
            "--json",
        ])
        .success(),
    );
    assert_eq!(v["owner"], "Reviewer");
    assert_eq!(
        v["unfilled"],
        serde_json::json!([
            {"field": "Status", "value": "IN_PROGRESS | BLOCKED | COMPLETE"},
            {"field": "User Style", "value": "NONE | <identifier>"},
        ])
    );
    // A record without a header: the owner writes its content.
    let a = p.run(&["artifact", "init", "SCOPE"]).success();
    assert!(
        stderr(&a).starts_with("Next: the Scoper writes the record's content"),
        "{}",
        stderr(&a)
    );
    // Filled in, a re-run has nothing to add.
    let path = stdout(&p.run(&["artifact", "init", "VERIFICATION"]).success());
    let path = path.trim_end();
    let text = p
        .read(path)
        .replace("`VERIFY | REVERIFY`", "`VERIFY`")
        .replace("`IN_PROGRESS | BLOCKED | COMPLETE`", "`IN_PROGRESS`")
        .replace("`NONE | <identifier>`", "`NONE`");
    p.write(path, text);
    let a = p.run(&["artifact", "init", "VERIFICATION"]).success();
    assert!(stderr(&a).is_empty(), "{}", stderr(&a));
    let v = json_of(
        &p.run(&["artifact", "init", "VERIFICATION", "--json"])
            .success(),
    );
    assert_eq!(v["unfilled"], serde_json::json!([]));
}

/// What `git status --short` shows for the untracked `file` from `dir`:
/// git's own spelling of the path, relative to the current folder.
fn git_shows(env: &Env, dir: &Path, file: &str) -> String {
    let out = env.git(dir, &["status", "--short", "--untracked-files=all"]);
    out.lines()
        .filter_map(|l| l.strip_prefix("?? "))
        .find(|p| p.ends_with(file))
        .unwrap_or_else(|| panic!("git does not list {file}: {out}"))
        .to_string()
}

#[test]
fn paths_are_shown_relative_to_the_current_folder_as_git_shows_them() {
    let p = Project::brown();
    p.commit("install");
    let id = p.start_cycle("TESTING", "STANDARD", "FULL_DELIVERABLE");
    let deep = p.path("src/deep");
    std::fs::create_dir_all(&deep).unwrap();
    // artifact init prints the path as git does from there.
    let a = p
        .run_in(&deep, &["artifact", "init", "VERIFICATION"])
        .success();
    let printed = stdout(&a).trim_end().to_string();
    let file = format!("{id}.md");
    assert_eq!(printed, git_shows(&p.env, &deep, &file));
    assert_eq!(
        printed,
        format!("../../.standards/docs/verification/{id}.md")
    );
    assert!(deep.join(&printed).is_file());
    // --json keeps the project-relative path.
    let v = json_of(
        &p.run_in(&deep, &["artifact", "init", "VERIFICATION", "--json"])
            .success(),
    );
    assert_eq!(v["path"], format!(".standards/docs/verification/{id}.md"));
    // check names the file the same way; its JSON does not.
    let a = p.run_in(&deep, &["check"]).code(1);
    assert!(
        stdout(&a)
            .lines()
            .any(|l| l.starts_with(&format!("{printed}: not filled in yet"))),
        "{}",
        stdout(&a)
    );
    assert!(
        stdout(&a)
            .lines()
            .filter(|l| l.ends_with(']'))
            .all(|l| l.starts_with("../../.standards/")),
        "{}",
        stdout(&a)
    );
    let v = json_of(&p.run_in(&deep, &["check", "--json"]).code(1));
    let files: Vec<&str> = v["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["file"].as_str().unwrap())
        .collect();
    assert!(
        files.contains(&format!(".standards/docs/verification/{id}.md").as_str()),
        "{v}"
    );
    assert!(files.iter().all(|f| f.starts_with(".standards/")), "{v}");
    // Inside `.standards/`, a path below it loses the shared start, as in git.
    let inside = p.path(".standards/docs");
    let a = p.run_in(&inside, &["check"]).code(1);
    assert!(
        stdout(&a)
            .lines()
            .any(|l| l.starts_with(&format!("verification/{id}.md: "))),
        "{}",
        stdout(&a)
    );
    assert!(stdout(&a).contains("\n../STATE.md: "), "{}", stdout(&a));
    assert_eq!(
        git_shows(&p.env, &inside, &file),
        format!("verification/{id}.md")
    );
    // status: the files that problems name, and the record paths.
    write(p.path(".standards/MODE.md"), "nonsense\n");
    let a = p.run_in(&deep, &["status"]).success();
    assert!(
        stdout(&a).contains("error: ../../.standards/MODE.md:1:"),
        "{}",
        stdout(&a)
    );
    // At the root nothing changes.
    let a = p.run(&["status"]).success();
    assert!(
        stdout(&a).contains("error: .standards/MODE.md:1:"),
        "{}",
        stdout(&a)
    );
}

/// A repository whose STANDARDS projects live in the subfolders `folders`
/// (none at the top), committed.
fn projects_in_subfolders(folders: &[&str]) -> (Env, std::path::PathBuf) {
    let (env, repo) = Env::repo();
    write(repo.join("README.md"), "# Monorepo\n");
    for folder in folders {
        let app = repo.join(folder);
        // D1: a folder holding `.standards/` is a project root.
        std::fs::create_dir_all(app.join(".standards")).unwrap();
        env.run(&app, &["install", "--client", "none"]).success();
    }
    assert!(!repo.join(".standards").exists());
    env.commit_all(&repo, "install in subfolders");
    (env, repo)
}

#[test]
fn at_the_top_status_and_check_name_the_one_project_in_a_subfolder() {
    let (env, repo) = projects_in_subfolders(&["app"]);
    for command in ["status", "check"] {
        let a = env.run(&repo, &[command]).code(1);
        let err = stderr(&a);
        assert!(
            err.contains("a STANDARDS project lives in the subfolder `app`"),
            "{command}: {err}"
        );
        assert!(
            err.contains(&format!("`git standards -C app {command}`")),
            "{command}: {err}"
        );
        assert!(!err.contains("git standards install"), "{command}: {err}");
        // The hint's command works.
        env.run(&repo, &["-C", "app", command]).success();
        // JSON: one object naming the project and the command.
        let a = env.run(&repo, &[command, "--json"]).code(1);
        let v = json_of(&a);
        assert_eq!(v["ok"], false);
        assert_eq!(
            v["projects"],
            serde_json::json!([{"folder": "app", "command": format!("git standards -C app {command} --json")}]),
            "{v}"
        );
    }
    // From a folder beside the project, the folder is named from there.
    let docs = repo.join("docs");
    std::fs::create_dir_all(&docs).unwrap();
    let a = env.run(&docs, &["status"]).code(1);
    assert!(
        stderr(&a).contains("`git standards -C ../app status`"),
        "{}",
        stderr(&a)
    );
    let v = json_of(&env.run(&docs, &["status", "--json"]).code(1));
    assert_eq!(
        v["projects"][0]["folder"], "app",
        "JSON stays repository-relative"
    );
    // A commit's projects, for `--ref`.
    let a = env.run(&repo, &["check", "--ref", "HEAD"]).code(1);
    assert!(
        stderr(&a).contains("`git standards -C app check --ref HEAD`"),
        "{}",
        stderr(&a)
    );
    // The runtime tools name it too, with their own command line.
    let a = env
        .run(&repo, &["cycle", "new", "--request", "Add a report"])
        .code(1);
    assert!(
        stderr(&a).contains("`git standards -C app cycle new --request 'Add a report'`"),
        "{}",
        stderr(&a)
    );
    let v = json_of(
        &env.run(
            &repo,
            &[
                "artifact",
                "init",
                "review",
                "--kind",
                "implementation",
                "--json",
            ],
        )
        .code(1),
    );
    assert_eq!(
        v["projects"][0]["command"],
        "git standards -C app artifact init REVIEW --kind IMPLEMENTATION --json",
        "{v}"
    );
    // A repository with no project anywhere still says to install.
    let (env, repo) = Env::repo();
    let a = env.run(&repo, &["status"]).code(1);
    assert!(
        stderr(&a).contains("git standards install"),
        "{}",
        stderr(&a)
    );
}

#[test]
fn at_the_top_status_and_check_name_every_project_in_subfolders() {
    let (env, repo) = projects_in_subfolders(&["app", "services/my api"]);
    // One more, installed but not yet staged: the working tree has it too.
    let web = repo.join("web");
    std::fs::create_dir_all(web.join(".standards")).unwrap();
    env.run(&web, &["install", "--client", "none"]).success();
    let a = env.run(&repo, &["check"]).code(1);
    let err = stderr(&a);
    assert!(
        err.contains("3 STANDARDS projects live in the subfolders `app`, `services/my api`, `web`"),
        "{err}"
    );
    assert!(
        err.contains("`git standards -C app check`, `git standards -C 'services/my api' check` or `git standards -C web check`"),
        "{err}"
    );
    let v = json_of(&env.run(&repo, &["status", "--json"]).code(1));
    let folders: Vec<&str> = v["projects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["folder"].as_str().unwrap())
        .collect();
    assert_eq!(folders, ["app", "services/my api", "web"], "{v}");
    // The index and a commit hold only the committed two.
    let v = json_of(&env.run(&repo, &["check", "--staged", "--json"]).code(1));
    assert_eq!(v["projects"].as_array().unwrap().len(), 2, "{v}");
    let a = env.run(&repo, &["status", "--ref", "HEAD"]).code(1);
    assert!(
        stderr(&a).contains("2 STANDARDS projects live in the subfolders `app`, `services/my api`"),
        "{}",
        stderr(&a)
    );
}

/// Words of gix's own error texts that must never reach a person.
const INTERNALS: &[&str] = &[
    "input=",
    "couldn't",
    "Error {",
    "gix",
    "caused by",
    "Some(",
    "Kind::",
];

fn no_internals(a: &assert_cmd::assert::Assert, what: &str) {
    let said = format!("{}{}", stdout(a), stderr(a));
    for word in INTERNALS {
        assert!(!said.contains(word), "{what} leaks `{word}`: {said}");
    }
}

#[test]
fn bad_revisions_and_refs_are_refused_in_plain_words() {
    let p = Project::brown();
    p.commit("install");
    let tree = p.env.git(&p.root, &["rev-parse", "HEAD^{tree}"]);
    let tree = tree.trim();
    for args in [
        &["check", "--ref", "nosuch"][..],
        &["check", "--ref", "HEAD~7"],
        &["status", "--ref", "nosuch"],
        &["status", "--json", "--ref", "main..x"],
        &["verify", "nosuch"],
        &["verify", "nosuch..HEAD"],
        &["verify", "HEAD..nosuch", "--format", "json"],
    ] {
        let a = p.run(args).code(1);
        no_internals(&a, &format!("{args:?}"));
        assert!(
            format!("{}{}", stdout(&a), stderr(&a)).contains("unknown revision `"),
            "{args:?}: {}",
            stderr(&a)
        );
    }
    for args in [&["check", "--ref", tree][..], &["verify", tree]] {
        let a = p.run(args).code(1);
        no_internals(&a, &format!("{args:?}"));
        assert!(
            stderr(&a).contains("names a tree, not a commit"),
            "{}",
            stderr(&a)
        );
    }
    let a = p.run(&["verify", "HEAD", "--into", "nosuch"]).code(1);
    no_internals(&a, "verify --into nosuch");
    for args in [
        &["archive", "show", "nosuch"][..],
        &["archive", "show", "bad..name"],
    ] {
        let a = p.run(args).code(1);
        no_internals(&a, &format!("{args:?}"));
        assert!(stderr(&a).contains("there is no archive"), "{}", stderr(&a));
    }
    let a = p.run(&["log", "--cycle", "nosuch"]).success();
    no_internals(&a, "log --cycle nosuch");
}

#[test]
fn verify_format_and_log_event_take_values_in_any_case() {
    let p = Project::brown();
    p.commit("install");
    let a = p.run(&["verify", "HEAD", "--format", "JSON"]).success();
    assert!(json_of(&a).is_object());
    let a = p.run(&["verify", "HEAD", "--format", "Github"]);
    assert!(!stderr(&a).contains("invalid value"), "{}", stderr(&a));
    let a = p.run(&["log", "--event", "INSTALLED"]).success();
    assert!(stdout(&a).contains("  installed  "), "{}", stdout(&a));
    p.run(&["status", "--ref", "HEAD", "-q"]).success();
}

#[test]
fn install_reset_uninstall_and_archive_restore_show_paths_from_a_subfolder() {
    let (env, repo) = Env::repo();
    let src = repo.join("src");
    write(src.join("app.py"), "print('hi')\n");
    let a = env.run(&src, &["install", "--client", "claude"]).success();
    let out = stdout(&a);
    assert!(
        out.contains("created        ../.standards/STATE.md\n"),
        "{out}"
    );
    assert!(out.contains("wrote          ../CLAUDE.md\n"), "{out}");
    assert!(
        !out.contains(" .standards/"),
        "no path is shown from the top: {out}"
    );
    // The first step's `git add` works from where install ran, and names
    // every path install wrote (issue 25, item 7).
    assert!(
        out.contains("`git add ../.standards ../.claude ../AGENTS.md ../CLAUDE.md && git commit"),
        "{out}"
    );
    env.git(&src, &["add", "../.standards"]);
    env.commit_all(&repo, "install");
    let id = stdout(
        &env.run(&src, &["start", "--request", "Add a report"])
            .success(),
    );
    assert!(!id.is_empty());
    let scope = stdout(&env.run(&src, &["artifact", "init", "SCOPE"]).success());
    let scope = scope.trim_end();
    assert!(scope.starts_with("../.standards/docs/scope/"), "{scope}");
    env.commit_all(&repo, "scope");
    let a = env.run(&src, &["reset", "--dry-run"]).success();
    assert!(
        stdout(&a).contains("Remove: ../.standards/docs\n")
            && stdout(&a).contains("Write: ../.standards/STATE.md\n"),
        "{}",
        stdout(&a)
    );
    env.run(&src, &["reset", "--yes"]).success();
    let list = stdout(&env.run(&src, &["archive", "list"]).success());
    let name = list.split('\t').next().unwrap().to_string();
    // `archive show` keeps the archive's own paths, which `restore` takes.
    let shown = stdout(&env.run(&src, &["archive", "show", &name]).success());
    let archived = shown
        .lines()
        .find(|l| l.starts_with(".standards/docs/scope/"))
        .unwrap_or_else(|| panic!("{shown}"))
        .to_string();
    let a = env
        .run(&src, &["archive", "restore", &name, &archived])
        .success();
    assert_eq!(stdout(&a), format!("restored       {scope}\n"));
    assert!(src.join(scope).is_file());
    let a = env.run(&src, &["uninstall", "--dry-run"]).success();
    assert!(
        stdout(&a).contains("Remove: ../CLAUDE.md\n"),
        "{}",
        stdout(&a)
    );
}

/// A command line clap rejects still answers `--json` with the refusal
/// object (design rule: JSON on every path of a command that has `--json`),
/// naming the subcommand's help; the readable error stays on stderr, exit 2.
#[test]
fn usage_errors_answer_json_when_json_was_asked_for() {
    let p = Project::brown();
    let cases: &[(&[&str], &str, &str)] = &[
        (
            &["check", "--json", "--bogus"],
            "--bogus",
            "git standards check --help",
        ),
        (
            &["artifact", "init", "--json"],
            "<TYPE>",
            "git standards artifact init --help",
        ),
        (
            &["log", "--json", "--limit", "many"],
            "many",
            "git standards log --help",
        ),
        // A folder named like a subcommand is the value of `-C`, not a subcommand.
        (
            &["-C", "status", "check", "--json", "--bogus"],
            "--bogus",
            "git standards check --help",
        ),
    ];
    for (args, named, help) in cases {
        let a = p.run(args).code(2);
        let v = json_of(&a);
        assert_eq!(v["ok"], false, "{args:?}");
        let error = v["error"].as_str().unwrap();
        assert!(
            error.contains(named) && !error.contains('\n'),
            "{args:?}: {error}"
        );
        assert!(v["hint"].as_str().unwrap().contains(help), "{args:?}: {v}");
        assert!(stderr(&a).starts_with("error: "), "{args:?}");
    }
    // Without `--json` (or after `--`) stdout stays empty.
    let a = p.run(&["check", "--bogus"]).code(2);
    assert_eq!(stdout(&a), "");
}

/// Issue 24: at `--color auto` the environment decides as anstream reads it
/// (the CLICOLOR conventions): `CLICOLOR_FORCE` colours a pipe, a non-empty
/// `NO_COLOR` wins over it, `CLICOLOR=0` turns colour off; `--color` and
/// git's `color.ui` decide before the environment.
#[test]
fn colour_at_auto_follows_no_color_and_clicolor() {
    let (env, repo) = Env::repo();
    // `status` outside an installed project: a refusal, `error:` on stderr.
    let err = |flags: &[&str], vars: &[(&str, &str)]| {
        let mut cmd = env.cmd(&repo);
        cmd.args(flags).arg("status");
        for (k, v) in vars {
            cmd.env(k, v);
        }
        let out = cmd.output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{out:?}");
        String::from_utf8(out.stderr).unwrap()
    };
    let red = "\x1b[31merror:\x1b[0m ";
    assert!(err(&[], &[]).starts_with("error: "), "a pipe: no colour");
    assert!(err(&[], &[("CLICOLOR_FORCE", "1")]).starts_with(red));
    assert!(err(&[], &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "")]).starts_with(red));
    let off = err(&[], &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]);
    assert!(off.starts_with("error: "), "{off:?}");
    assert!(err(&[], &[("CLICOLOR", "0")]).starts_with("error: "));
    assert!(err(&["--color", "always"], &[("NO_COLOR", "1")]).starts_with(red));
    assert!(err(&["--color", "never"], &[("CLICOLOR_FORCE", "1")]).starts_with("error: "));
    env.git(&repo, &["config", "color.ui", "never"]);
    assert!(err(&[], &[("CLICOLOR_FORCE", "1")]).starts_with("error: "));
    env.git(&repo, &["config", "color.ui", "always"]);
    assert!(err(&[], &[("NO_COLOR", "1")]).starts_with(red));
}
