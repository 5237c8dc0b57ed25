//! What a newcomer meets first: the overview, forgiving spellings, quiet
//! output, JSON on refusals, grouped hints and git's colour settings.

use std::path::PathBuf;

use crate::common::{stderr, stdout, write, Env};

fn installed() -> (Env, PathBuf) {
    let (env, repo) = Env::repo();
    write(repo.join("src/app.py"), "print('hi')\n");
    env.run(&repo, &["install"]).success();
    (env, repo)
}

#[test]
fn no_arguments_print_an_overview_that_starts_with_demo_and_install() {
    let env = Env::new();
    let a = env.run(env.dir.path(), &[]).success();
    let text = stdout(&a);
    let demo = text.find("git standards demo").expect("names the demo");
    let install = text.find("git standards install").expect("names install");
    assert!(demo < install, "{text}");
    assert!(text.lines().count() < 20, "short: {text}");
}

#[test]
fn values_are_accepted_in_any_case() {
    let (env, repo) = installed();
    env.run(&repo, &["install", "--mode", "BROWNFIELD", "--dry-run"])
        .success();
    env.run(&repo, &["--color", "NEVER", "status"]).success();
    env.run(&repo, &["completions", "BASH"]).success();
    // Record types and prefixes parse in lower case; the refusal that follows
    // is about the missing cycle, not the spelling.
    for args in [
        &["artifact", "init", "scope"][..],
        &["artifact", "init", "review", "--kind", "implementation"][..],
    ] {
        let a = env.run(&repo, args).code(1);
        assert!(
            !stderr(&a).contains("invalid value"),
            "{args:?}: {}",
            stderr(&a)
        );
    }
    let a = env.run(&repo, &["id", "next", "ac", "README.md"]);
    assert!(!stderr(&a).contains("invalid value"), "{}", stderr(&a));
}

#[test]
fn review_without_kind_points_at_the_help() {
    let (env, repo) = installed();
    let a = env.run(&repo, &["artifact", "init", "REVIEW"]).code(2);
    assert!(
        stderr(&a).contains("git standards artifact init --help"),
        "{}",
        stderr(&a)
    );
}

#[test]
fn quiet_check_and_status_print_one_line() {
    let (env, repo) = installed();
    let a = env.run(&repo, &["check", "-q"]).success();
    assert_eq!(stdout(&a).lines().count(), 1, "{}", stdout(&a));
    assert!(stdout(&a).starts_with("check passed"));
    let a = env.run(&repo, &["status", "--quiet"]).success();
    assert_eq!(stdout(&a).lines().count(), 1, "{}", stdout(&a));
    assert!(stdout(&a).contains("no cycle"), "{}", stdout(&a));
    // Broken state: still one line, and exit 1.
    write(repo.join(".standards/MODE.md"), "nonsense\n");
    let a = env.run(&repo, &["check", "-q"]).code(1);
    assert_eq!(stdout(&a).lines().count(), 1, "{}", stdout(&a));
    assert!(stdout(&a).starts_with("check failed"));
}

#[test]
fn check_json_prints_an_object_when_it_refuses() {
    let (env, repo) = Env::repo();
    let a = env.run(&repo, &["check", "--json"]).code(1);
    let v: serde_json::Value =
        serde_json::from_str(&stdout(&a)).unwrap_or_else(|e| panic!("{e}: {}", stdout(&a)));
    assert_eq!(v["ok"], false);
    assert!(v["error"]
        .as_str()
        .unwrap()
        .contains("no STANDARDS runtime"));
    let (env, repo) = installed();
    env.commit_all(&repo, "install");
    let a = env
        .run(&repo, &["check", "--json", "--ref", "nosuch"])
        .code(1);
    let v: serde_json::Value = serde_json::from_str(&stdout(&a)).unwrap();
    assert_eq!(v["error"], "unknown revision `nosuch`");
}

#[test]
fn a_repeated_hint_is_printed_once_per_rule_and_file() {
    let p = crate::fixture::Project::brown();
    p.start_cycle("TESTING", "STANDARD", "FULL_DELIVERABLE");
    p.init(&["VERIFICATION"]);
    let a = p.env.run(&p.root, &["check"]).code(1);
    let text = stdout(&a);
    let rh002 = text.lines().filter(|l| l.contains("[RH-002]")).count();
    assert_eq!(rh002, 1, "one RH-002 problem for the fresh record: {text}");
    let problems = text.lines().filter(|l| l.ends_with(']')).count();
    let hints = text
        .lines()
        .filter(|l| l.trim_start().starts_with("hint:"))
        .count();
    assert_eq!(
        hints,
        problems - (rh002 - 1),
        "one RH-002 hint for the file: {text}"
    );
    let mut seen = std::collections::HashSet::new();
    for hint in text.lines().filter(|l| l.trim_start().starts_with("hint:")) {
        assert!(seen.insert(hint), "the hint `{hint}` repeats: {text}");
    }
}

#[test]
fn colours_follow_git_config_at_auto() {
    let (env, repo) = installed();
    write(repo.join(".standards/MODE.md"), "nonsense\n");
    env.git(&repo, &["config", "color.standards", "always"]);
    let a = env.run(&repo, &["check"]).code(1);
    assert!(
        stdout(&a).contains("\u{1b}[31mcheck failed"),
        "{}",
        stdout(&a)
    );
    let a = env.run(&repo, &["--color", "never", "check"]).code(1);
    assert!(!stdout(&a).contains('\u{1b}'));
    env.git(&repo, &["config", "color.standards", "never"]);
    env.git(&repo, &["config", "color.ui", "always"]);
    let a = env.run(&repo, &["check"]).code(1);
    assert!(
        !stdout(&a).contains('\u{1b}'),
        "color.standards wins over color.ui"
    );
}

fn json_of(a: &assert_cmd::assert::Assert) -> serde_json::Value {
    serde_json::from_str(&stdout(a)).unwrap_or_else(|e| panic!("not JSON ({e}): {}", stdout(a)))
}

#[test]
fn the_runtime_tools_print_json_on_success_and_refusal() {
    let (env, repo) = Env::repo();
    // No runtime: each refuses with a JSON error object.
    for args in [
        &["cycle", "new", "--request", "Add a report", "--json"][..],
        &["artifact", "init", "SCOPE", "--json"][..],
        &["id", "next", "AC", "README.md", "--json"][..],
    ] {
        let a = env.run(&repo, args).code(1);
        let v = json_of(&a);
        assert_eq!(v["ok"], false, "{args:?}");
        assert!(
            v["error"].is_string() && v.get("hint").is_some(),
            "{args:?}: {v}"
        );
    }
    let p = crate::fixture::Project::brown();
    let a = p
        .env
        .run(
            &p.root,
            &["cycle", "new", "--request", "Add a report", "--json"],
        )
        .success();
    assert!(json_of(&a)["id"]
        .as_str()
        .unwrap()
        .starts_with("add-a-report-"));
    // A validation refusal (REVIEW without --kind) is JSON too.
    let a = p
        .env
        .run(&p.root, &["artifact", "init", "REVIEW", "--json"])
        .code(2);
    assert_eq!(json_of(&a)["ok"], false);
    p.start_cycle("TESTING", "STANDARD", "FULL_DELIVERABLE");
    let a = p
        .env
        .run(&p.root, &["artifact", "init", "VERIFICATION", "--json"])
        .success();
    let v = json_of(&a);
    assert_eq!(v["created"], true);
    let path = v["path"].as_str().unwrap().to_string();
    let a = p
        .env
        .run(&p.root, &["artifact", "init", "VERIFICATION", "--json"])
        .success();
    assert_eq!(json_of(&a)["created"], false);
    assert!(path.starts_with(".standards/docs/verification/"), "{path}");
    let scope = p.init(&["SCOPE"]);
    let a = p
        .env
        .run(&p.root, &["id", "next", "AC", &scope, "--json"])
        .success();
    let v = json_of(&a);
    assert_eq!(v["id"], "AC-001");
    assert_eq!(v["file"], scope.as_str());
    // A refusal after validation (the wrong record for the prefix) is JSON as well.
    let a = p
        .env
        .run(&p.root, &["id", "next", "AC", &path, "--json"])
        .code(1);
    assert_eq!(json_of(&a)["ok"], false);
}

#[test]
fn install_says_what_it_would_do_why_the_mode_and_what_comes_next() {
    let (env, repo) = Env::repo();
    write(repo.join("src/app.py"), "print('hi')\n");
    let a = env.run(&repo, &["install", "--dry-run"]).success();
    let out = stdout(&a);
    assert!(out.contains("Would install STANDARDS"), "{out}");
    assert!(!out.contains("Dry run: Installed"), "{out}");
    assert!(
        out.contains("inferred from `src`") && out.contains("--mode greenfield"),
        "the mode names the file that decided it and the override: {out}"
    );
    let a = env.run(&repo, &["install"]).success();
    let out = stdout(&a);
    assert!(
        out.contains("First steps: commit what install wrote (`git add .standards && "),
        "{out}"
    );
    assert!(
        out.contains("`/auditor`") && out.contains("`$auditor`"),
        "{out}"
    );
    // A reinstall with nothing to change says so in one line.
    let a = env.run(&repo, &["install", "--client", "none"]).success();
    let out = stdout(&a);
    let lines: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("STANDARDS") || l.starts_with("kept"))
        .collect();
    assert_eq!(lines.len(), 1, "{}", stdout(&a));
    assert!(lines[0].contains("up to date"), "{}", stdout(&a));
    let (env, repo) = Env::repo();
    let a = env
        .run(&repo, &["install", "--mode", "greenfield"])
        .success();
    let out = stdout(&a);
    assert!(
        !out.contains("inferred"),
        "a chosen mode is not inferred: {out}"
    );
    assert!(
        out.contains("`/scoper`") && out.contains("`$scoper`"),
        "{out}"
    );
}
