//! `git standards hook stop` driven as the agent clients run it: the real
//! binary, a JSON payload on standard input, real repositories and plain
//! folders (SC-HOOK-001..014, RT §5, HK-001..HK-003).
//!
//! Every run gets its own temporary folder (`TMPDIR`), so the once-per-turn
//! markers of one test never meet another's.

use std::path::{Path, PathBuf};

use assert_cmd::assert::Assert;

use crate::common::{read, stderr, stdout, write, Env};
use crate::lifecycle::set;

const BROKEN: &str = "<!-- STANDARDS\nArtifact: BOGUS\nCycle: some-cycle\n-->\n\n# Notes\n";
const HEADING: &str = "STANDARDS check found problems in the workflow files:";

/// Runs `hook stop` in `dir` with `payload` on stdin.
fn stop(env: &Env, dir: &Path, payload: &str) -> Assert {
    stop_with(env, dir, &["hook", "stop"], payload)
}

fn stop_with(env: &Env, dir: &Path, args: &[&str], payload: &str) -> Assert {
    let mut cmd = env.cmd(dir);
    // The hook never creates the temporary folder itself, only its own folder in it.
    std::fs::create_dir_all(env.dir.path().join("tmp")).unwrap();
    cmd.args(args).env("TMPDIR", env.dir.path().join("tmp"));
    assert_cmd::Command::from_std(cmd)
        .write_stdin(payload)
        .assert()
}

fn code(a: &Assert) -> i32 {
    a.get_output().status.code().expect("exit code")
}

/// Exit 2 with the stop message; returns stderr.
fn blocked(a: Assert) -> String {
    let err = stderr(&a);
    assert_eq!(code(&a), 2, "expected a block, stderr:\n{err}");
    assert!(err.starts_with(HEADING), "{err}");
    assert!(stdout(&a).is_empty(), "the hook writes nothing on stdout");
    err
}

/// Exit 0 and silence.
fn allowed(a: Assert) {
    assert_eq!(code(&a), 0, "expected exit 0, stderr:\n{}", stderr(&a));
    assert!(stderr(&a).is_empty(), "{}", stderr(&a));
}

/// P-BROWN + git: a brownfield project installed and committed.
fn p_brown_git() -> (Env, PathBuf) {
    let (env, repo) = Env::repo();
    write(repo.join("app.py"), "print(\"hi\")\n");
    env.run(&repo, &["install"]).success();
    env.commit_all(&repo, "install");
    (env, repo)
}

/// P-BROWN without git: installed in a repository whose `.git` is then removed.
fn p_brown_plain() -> (Env, PathBuf) {
    let (env, dir) = Env::repo();
    write(dir.join("app.py"), "print(\"hi\")\n");
    env.run(&dir, &["install"]).success();
    std::fs::remove_dir_all(dir.join(".git")).unwrap();
    (env, dir)
}

/// SC-HOOK-001: only the `stop` event exists; anything else is a usage error, exit 1.
#[test]
fn sc_hook_001_other_events_are_usage_errors_that_never_block() {
    let (env, repo) = p_brown_git();
    for args in [
        &["hook", "pre-tool-use"][..],
        &["hook"],
        &["hook", "stop", "extra"],
        &["hook", "--bogus"],
        &["-C", ".", "hook", "Stop"],
    ] {
        let a = stop_with(&env, &repo, args, r#"{"stop_hook_active": false}"#);
        let err = stderr(&a);
        assert_eq!(code(&a), 1, "{args:?}: {err}");
        assert!(
            err.contains("Usage: git standards hook stop"),
            "{args:?}: {err}"
        );
        // Only the `stop` event is named.
        for other in ["pre-tool-use", "<COMMAND>", "PreToolUse", "Stop\n"] {
            assert!(!err.contains(other), "{args:?}: {err}");
        }
        assert!(stdout(&a).is_empty());
    }
    // Help is not an error.
    let a = env.run(&repo, &["hook", "stop", "--help"]).success();
    assert!(stdout(&a).contains("Exit status"), "{}", stdout(&a));
}

/// SC-HOOK-002..005: a committed broken record is left alone until a
/// workflow file changes; then the agent is sent back on every turn.
#[test]
fn sc_hook_002_to_005_committed_problems_wait_for_a_workflow_change() {
    let (env, repo) = p_brown_git();
    write(repo.join("docs/notes/broken.md"), BROKEN);
    env.commit_all(&repo, "a broken note");
    // The plain check sees the problem; the hook does not look (SC-HOOK-002).
    env.run(&repo, &["check"]).code(1);
    allowed(stop(&env, &repo, r#"{"stop_hook_active": false}"#));

    // SC-HOOK-003: an untracked README.md is a workflow change.
    write(repo.join("README.md"), "# App\n");
    for turn in 1..=3 {
        let err = blocked(stop(&env, &repo, r#"{"stop_hook_active": false}"#));
        assert!(
            err.contains("- docs/notes/broken.md: malformed STANDARDS provenance block"),
            "turn {turn}: {err}"
        );
        assert!(err.contains("Do not guess a repair"), "{err}");
        assert!(err.contains("your current role owns"), "{err}");
        assert!(err.contains(".standards/PROTOCOL.md"), "{err}");
        assert!(err.contains("report the problems to the user"), "{err}");
        assert!(
            !err.contains("more. Run"),
            "no overflow line for one problem: {err}"
        );
        // SC-HOOK-004: the client is already continuing.
        allowed(stop(&env, &repo, r#"{"stop_hook_active": true}"#));
    }

    // SC-HOOK-005: the broken note is deleted (itself a change): clean.
    std::fs::remove_file(repo.join("docs/notes/broken.md")).unwrap();
    allowed(stop(&env, &repo, r#"{"stop_hook_active": false}"#));
}

/// SC-HOOK-006: no git and no `stop_hook_active`: the marker sends the agent back
/// once per (project, session, turn).
#[test]
fn sc_hook_006_without_the_flag_the_agent_is_sent_back_once_per_turn() {
    let (env, dir) = p_brown_plain();
    write(dir.join("docs/notes/broken.md"), BROKEN);
    let t1 = r#"{"session_id": "s", "turn_id": "t1"}"#;
    let err = blocked(stop(&env, &dir, t1));
    assert!(err.contains("- docs/notes/broken.md: "), "{err}");
    allowed(stop(&env, &dir, t1));
    blocked(stop(&env, &dir, r#"{"session_id": "s", "turn_id": "t2"}"#));
    // Without turn_id the prompt_id keys the turn; a non-boolean flag counts as absent.
    let p1 = r#"{"session_id": "s", "prompt_id": "p1", "stop_hook_active": "yes"}"#;
    blocked(stop(&env, &dir, p1));
    allowed(stop(&env, &dir, p1));
    // Neither: one block per session.
    blocked(stop(&env, &dir, r#"{"session_id": "s2"}"#));
    allowed(stop(&env, &dir, r#"{"session_id": "s2"}"#));
    // Any unreadable payload is `{}`: one block for the empty session.
    blocked(stop(&env, &dir, "not json"));
    allowed(stop(&env, &dir, ""));
    // The markers live in `standards-hooks/` of the temporary folder.
    let markers: Vec<_> = std::fs::read_dir(env.dir.path().join("tmp/standards-hooks"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(markers.len(), 5, "{markers:?}");
    assert!(markers
        .iter()
        .all(|m| m.len() == 32 && m.chars().all(|c| c.is_ascii_hexdigit())));
}

/// SC-HOOK-007: no git: a clean project lets the agent stop, a broken record
/// blocks, without any change to look for.
#[test]
fn sc_hook_007_outside_git_the_check_always_runs() {
    let (env, dir) = p_brown_plain();
    allowed(stop(&env, &dir, r#"{"session_id": "s"}"#));
    write(dir.join("docs/notes/broken.md"), BROKEN);
    let err = blocked(stop(&env, &dir, r#"{"session_id": "s"}"#));
    assert!(err.contains("- docs/notes/broken.md: "), "{err}");
    // Records under `.standards/docs/` are scanned; tool folders are not.
    std::fs::remove_file(dir.join("docs/notes/broken.md")).unwrap();
    write(dir.join(".claude/skills/x/notes.md"), BROKEN);
    write(dir.join("node_modules/pkg/notes.md"), BROKEN);
    allowed(stop(&env, &dir, r#"{"stop_hook_active": false}"#));
    write(dir.join(".standards/docs/notes/broken.md"), BROKEN);
    let err = blocked(stop(&env, &dir, r#"{"stop_hook_active": false}"#));
    assert!(err.contains("- .standards/docs/notes/broken.md: "), "{err}");
}

/// SC-HOOK-008: twenty problems (`f0.md`..`f19.md`): fifteen lines, then five more
/// counted with the hint to run check.
#[test]
fn sc_hook_008_twenty_problems_show_fifteen_and_count_the_rest() {
    let (env, dir) = p_brown_plain();
    for i in 0..20 {
        write(dir.join(format!("f{i}.md")), BROKEN);
    }
    let err = blocked(stop(&env, &dir, r#"{"stop_hook_active": false}"#));
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("- f")).count(),
        15,
        "{err}"
    );
    assert_eq!(
        lines[16], "- ...and 5 more. Run `git standards check` to see them all.",
        "{err}"
    );
    assert_eq!(lines[17], "", "{err}");
    assert!(lines[18].starts_with("Do not guess a repair"), "{err}");
}

/// SC-HOOK-009: the Claude and Codex configurations that start the hook from
/// the project are not shipped yet (client integration, decision D10). The
/// equivalent is pinned here: the binary's `hook stop` run from a sub-folder
/// finds the project itself (D1), as the Codex command's upward search and
/// Claude's project-directory variable did.
#[test]
fn sc_hook_009_run_from_a_sub_folder() {
    let (env, repo) = p_brown_git();
    let deep = repo.join("src/deep");
    std::fs::create_dir_all(&deep).unwrap();
    allowed(stop(&env, &deep, r#"{"session_id": "s"}"#));
    write(repo.join("docs/broken.md"), BROKEN);
    let err = blocked(stop(&env, &deep, r#"{"stop_hook_active": false}"#));
    assert!(err.contains("- docs/broken.md: "), "{err}");
    // The same through `-C`, as a client running `git -C <dir> standards hook stop` would.
    let err = blocked(stop_with(
        &env,
        env.dir.path(),
        &["-C", deep.to_str().unwrap(), "hook", "stop"],
        r#"{"stop_hook_active": false}"#,
    ));
    assert!(err.contains("- docs/broken.md: "), "{err}");
}

/// A git repository whose project is installed in `app/` (SC-HOOK-010):
/// installed in its own repository, whose `.git` is then removed so `app/`
/// becomes a plain folder of the outer repository. A cycle is started and
/// its scope defines AC-001; everything is committed.
fn project_in_sub_folder() -> (Env, PathBuf, PathBuf, String) {
    let (env, repo) = Env::repo();
    write(repo.join("README.md"), "# Monorepo\n");
    let app = repo.join("app");
    std::fs::create_dir_all(&app).unwrap();
    env.git(&app, &["init", "-q", "-b", "main"]);
    write(app.join("app.py"), "print(\"hi\")\n");
    env.run(&app, &["install"]).success();
    std::fs::remove_dir_all(app.join(".git")).unwrap();
    assert!(!repo.join(".standards").exists());
    env.commit_all(&repo, "install in app/");

    let id = stdout(
        &env.run(&app, &["cycle", "new", "--request", "Add user search"])
            .success(),
    )
    .trim()
    .to_string();
    let state_path = app.join(".standards/STATE.md");
    let mut state = read(&state_path);
    for (name, value) in [
        ("WorkflowState", "SCOPING"),
        // A brownfield cycle starts in AUDITING; Scoping follows the audit.
        ("Kind", "FORWARD"),
        ("From", "AUDITING"),
        ("CycleMode", "STANDARD"),
        ("Id", id.as_str()),
        ("Request", "Add user search"),
        ("CompletionPolicy", "FULL_DELIVERABLE"),
    ] {
        state = set(&state, name, value);
    }
    write(&state_path, &state);
    let scope = stdout(&env.run(&app, &["artifact", "init", "SCOPE"]).success())
        .trim()
        .to_string();
    let mut text = read(app.join(&scope));
    text.push_str("\n# Search\n\n## Work\n\n### 1. Search\n\n**Done when:**\n\n- `AC-001`: Users can search by name.\n");
    write(app.join(&scope), text);
    write(&state_path, set(&read(&state_path), "Scope", &scope));
    env.run(&app, &["check"]).success();
    env.commit_all(&repo, "cycle started with AC-001");
    env.run(&app, &["check"]).success();
    (env, repo, app, scope)
}

/// SC-HOOK-010 and SC-HOOK-011.
#[test]
fn sc_hook_010_011_project_installed_in_a_sub_folder_of_the_repository() {
    let (env, _repo, app, scope) = project_in_sub_folder();
    let deep = app.join("src/deep");
    std::fs::create_dir_all(&deep).unwrap();
    let codex = r#"{"session_id": "s", "turn_id": "t1", "stop_hook_active": false, "hook_event_name": "Stop"}"#;
    // SC-HOOK-010: committed and clean.
    allowed(stop(&env, &deep, codex));
    // A workflow change that keeps the project clean still lets it stop.
    write(app.join("docs/usage.md"), "# Usage\n");
    allowed(stop(&env, &deep, codex));

    // SC-HOOK-011: AC-001 deleted from the scope; the check compares with the
    // last commit of the sub-folder project.
    let text = read(app.join(&scope)).replace("- `AC-001`: Users can search by name.\n", "");
    write(app.join(&scope), text);
    let err = blocked(stop(&env, &deep, codex));
    let line = err
        .lines()
        .find(|l| l.starts_with(&format!("- {scope}: ")) && l.contains("AC-001"))
        .unwrap_or_else(|| panic!("no AC-001 problem on the scope: {err}"));
    assert!(line.contains("last commit"), "{line}");
    assert!(
        !err.contains("app/.standards"),
        "paths are project-relative: {err}"
    );
}

/// SC-HOOK-012: the project reached through a symbolic link, as the working
/// folder and through `-C`.
#[cfg(unix)]
#[test]
fn sc_hook_012_a_project_reached_through_a_symlink() {
    let (env, repo) = p_brown_git();
    let link = env.dir.path().join("link");
    std::os::unix::fs::symlink(&repo, &link).unwrap();
    write(repo.join("docs/notes/broken.md"), BROKEN);
    let err = blocked(stop(&env, &link, r#"{"stop_hook_active": false}"#));
    assert!(err.contains("- docs/notes/broken.md: "), "{err}");
    let err = blocked(stop_with(
        &env,
        env.dir.path(),
        &["-C", "link", "hook", "stop"],
        r#"{"stop_hook_active": false}"#,
    ));
    assert!(err.contains("- docs/notes/broken.md: "), "{err}");

    // Without git, through a link to the project folder; the marker is keyed
    // on the resolved root, so the link and the real path share it.
    let (env, dir) = p_brown_plain();
    let link = env.dir.path().join("plain-link");
    std::os::unix::fs::symlink(&dir, &link).unwrap();
    write(dir.join("docs/notes/broken.md"), BROKEN);
    blocked(stop(&env, &link, r#"{"session_id": "s", "turn_id": "t"}"#));
    allowed(stop(&env, &dir, r#"{"session_id": "s", "turn_id": "t"}"#));
}

/// SC-HOOK-013: the hook never traps the agent: its own failures are a
/// diagnostic on stderr and exit 1, never 2.
#[test]
fn sc_hook_013_hook_failures_never_block() {
    // No installed runtime: a diagnostic and exit 1.
    let (env, repo) = Env::repo();
    let a = stop(&env, &repo, r#"{"stop_hook_active": false}"#);
    assert_eq!(code(&a), 1);
    assert!(
        stderr(&a).starts_with("STANDARDS hook error: no installed STANDARDS runtime"),
        "{}",
        stderr(&a)
    );
    let a = stop(&env, env.dir.path(), "{}");
    assert_eq!(code(&a), 1, "{}", stderr(&a));
    assert!(stderr(&a).starts_with("STANDARDS hook error: "));

    // A runtime whose PROTOCOL.md lost the framework marker.
    let (env, repo) = p_brown_git();
    write(repo.join(".standards/PROTOCOL.md"), "# Protocol\n");
    let a = stop(&env, &repo, r#"{"stop_hook_active": false}"#);
    assert_eq!(code(&a), 1);
    assert!(stderr(&a).contains("framework marker"), "{}", stderr(&a));

    // A bare repository has no working tree to check.
    let bare = env.dir.path().join("bare.git");
    env.git(env.dir.path(), &["init", "-q", "--bare", "bare.git"]);
    let a = stop(&env, &bare, r#"{"stop_hook_active": false}"#);
    assert_eq!(code(&a), 1, "{}", stderr(&a));
    assert!(stderr(&a).contains("bare repository"), "{}", stderr(&a));

    // Standard input that cannot be read (a folder): an I/O error, exit 1.
    let (env, repo) = p_brown_git();
    write(repo.join("docs/notes/broken.md"), BROKEN);
    let mut cmd = env.cmd(&repo);
    cmd.args(["hook", "stop"])
        .env("TMPDIR", env.dir.path().join("tmp"))
        .stdin(std::fs::File::open(&repo).unwrap());
    let out = cmd.output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.starts_with("STANDARDS hook error: "), "{err}");
    assert!(err.contains("<stdin>"), "{err}");
    assert!(out.stdout.is_empty());
}

/// SC-HOOK-014: inside git the hook checks only when something under
/// `.standards/` or a `*.md` file differs between the working tree, the index
/// and HEAD; the once-per-turn marker is per (project, session, turn).
#[test]
fn sc_hook_014_which_changes_make_the_hook_check() {
    let (env, repo) = p_brown_git();
    write(repo.join("docs/notes/broken.md"), BROKEN);
    write(repo.join(".gitignore"), "ignored/\n");
    env.commit_all(&repo, "a broken note");
    let payload = r#"{"stop_hook_active": false}"#;
    // Changes outside `.standards/` and `*.md` do not count ...
    write(repo.join("app.py"), "print(\"changed\")\n");
    write(repo.join("notes.txt"), "untracked\n");
    allowed(stop(&env, &repo, payload));
    // ... nor do ignored Markdown files.
    write(repo.join("ignored/draft.md"), "# Draft\n");
    allowed(stop(&env, &repo, payload));
    env.commit_all(&repo, "app change");

    // A change to a non-Markdown file under `.standards/` counts.
    let version = read(repo.join(".standards/VERSION.json"));
    write(repo.join(".standards/VERSION.json"), format!("{version}\n"));
    blocked(stop(&env, &repo, payload));
    env.git(&repo, &["checkout", "--", ".standards/VERSION.json"]);
    allowed(stop(&env, &repo, payload));

    // A staged change whose working copy equals the index counts (index vs HEAD).
    write(repo.join("docs/other.md"), "# Other\n");
    env.git(&repo, &["add", "docs/other.md"]);
    blocked(stop(&env, &repo, payload));
    env.commit_all(&repo, "other");
    allowed(stop(&env, &repo, payload));

    // A deleted tracked Markdown file counts.
    std::fs::remove_file(repo.join("docs/other.md")).unwrap();
    blocked(stop(&env, &repo, payload));
    env.commit_all(&repo, "other removed");
    allowed(stop(&env, &repo, payload));

    // A modified tracked Markdown file anywhere counts, the broken one included.
    write(
        repo.join("docs/notes/broken.md"),
        format!("{BROKEN}\nMore.\n"),
    );
    blocked(stop(&env, &repo, payload));

    // The marker remembers (project, session, turn): another project in the
    // same session and turn is sent back on its own.
    let (env, one) = p_brown_plain();
    write(one.join("docs/notes/broken.md"), BROKEN);
    let two = env.dir.path().join("two");
    std::fs::create_dir_all(&two).unwrap();
    env.git(&two, &["init", "-q", "-b", "main"]);
    write(two.join("app.py"), "print(\"hi\")\n");
    env.run(&two, &["install"]).success();
    std::fs::remove_dir_all(two.join(".git")).unwrap();
    write(two.join("docs/notes/broken.md"), BROKEN);
    let same = r#"{"session_id": "s", "turn_id": "t"}"#;
    blocked(stop(&env, &one, same));
    blocked(stop(&env, &two, same));
    allowed(stop(&env, &one, same));
    allowed(stop(&env, &two, same));
}

#[test]
fn a_repository_without_commits_counts_every_staged_file_as_changed() {
    let (env, repo) = Env::repo();
    write(repo.join("app.py"), "print(\"hi\")\n");
    env.run(&repo, &["install"]).success();
    allowed(stop(&env, &repo, r#"{"stop_hook_active": false}"#));
    write(repo.join("docs/notes/broken.md"), BROKEN);
    env.git(&repo, &["add", "-A"]);
    blocked(stop(&env, &repo, r#"{"stop_hook_active": false}"#));
}

/// A fixture case of `fixtures/check/cases/` (see `tests/check_conformance.rs`).
struct FixtureCase {
    name: String,
    keys: std::collections::HashMap<String, String>,
}

impl FixtureCase {
    fn load(name: &str) -> FixtureCase {
        let text = read(cases_dir().join(name).join("case"));
        let keys = text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .filter_map(|l| l.split_once(':'))
            .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
            .collect();
        FixtureCase {
            name: name.to_string(),
            keys,
        }
    }

    fn words(&self, key: &str) -> Vec<&str> {
        self.keys
            .get(key)
            .map(|v| v.split_whitespace().collect())
            .unwrap_or_default()
    }

    /// The case as a plain project folder: a real install (git removed, so
    /// the hook always checks and has no last commit, as the case has none),
    /// its base and its tree laid over it.
    fn lay(&self, env: &Env) -> PathBuf {
        assert_eq!(self.keys.get("turn-end").map(String::as_str), Some("true"));
        assert!(
            !self.keys.contains_key("head") && !cases_dir().join(&self.name).join("head").exists(),
            "{}: a plain folder has no last commit",
            self.name
        );
        assert!(!self.keys.contains_key("unmerged"), "{}", self.name);
        let dir = env.dir.path().join(&self.name);
        std::fs::create_dir_all(&dir).unwrap();
        env.git(&dir, &["init", "-q", "-b", "main"]);
        let mode = self.keys.get("mode").map_or("brownfield", String::as_str);
        env.run(&dir, &["install", "--mode", mode]).success();
        std::fs::remove_dir_all(dir.join(".git")).unwrap();
        if let Some(base) = self.keys.get("base") {
            crate::check::lay_base(&dir, base);
        }
        lay_tree(&cases_dir().join(&self.name).join("tree"), &dir);
        for p in self.words("remove") {
            std::fs::remove_file(dir.join(p)).unwrap();
        }
        dir
    }
}

fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/check/cases")
}

fn lay_tree(from: &Path, to: &Path) {
    if !from.is_dir() {
        return;
    }
    for e in std::fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        let target = to.join(p.file_name().unwrap());
        if p.is_dir() {
            lay_tree(&p, &target);
        } else {
            write(&target, std::fs::read(&p).unwrap());
        }
    }
}

/// SC-HOOK-020..032 through the real binary: every turn-end fixture case that
/// names an SC-HOOK scenario, plus the existing turn-end cases SC-HOOK-031
/// cites (SC-INC-025, SC-PROV-008), laid out as a project and stopped on. A
/// case that expects no problem lets the agent stop; any other sends it back,
/// citing each `files:` record and sparing each `clean:` one.
#[test]
fn sc_hook_020_to_032_the_stop_hook_on_the_turn_end_cases() {
    let mut names: Vec<String> = std::fs::read_dir(cases_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| {
            let text = read(cases_dir().join(n).join("case"));
            text.contains("SC-HOOK-") && text.contains("turn-end: true")
        })
        .collect();
    names.sort();
    for cited in [
        // SC-INC-025: the receiving Tester targets Increment 2.
        "HK-008-turn-end-skips-checkpoint-assessment-check",
        // SC-PROV-008: a type mismatch at the verification path during rework.
        "PV-004-architecture-record-at-the-verification-path-in-recovery-turn-end",
    ] {
        names.push(cited.to_string());
    }
    let scenarios: std::collections::BTreeSet<String> = names
        .iter()
        .flat_map(|n| {
            let text = read(cases_dir().join(n).join("case"));
            (20..=32)
                .map(|i| format!("SC-HOOK-0{i}"))
                .filter(|id| text.contains(id.as_str()))
                .collect::<Vec<_>>()
        })
        .collect();
    // Every turn-end holding scenario except SC-HOOK-021 and SC-HOOK-029, which
    // are plain checks, has a case here.
    for i in [20, 22, 23, 24, 25, 26, 27, 28, 30, 31, 32] {
        assert!(
            scenarios.contains(&format!("SC-HOOK-0{i}")),
            "no turn-end case names SC-HOOK-0{i}"
        );
    }

    let env = Env::new();
    for name in &names {
        let case = FixtureCase::load(name);
        let dir = case.lay(&env);
        let a = stop(&env, &dir, r#"{"stop_hook_active": false}"#);
        if case.keys.get("expect").map(String::as_str) == Some("none") {
            assert_eq!(code(&a), 0, "{name}: the hook must let go:\n{}", stderr(&a));
            continue;
        }
        let err = stderr(&a);
        assert_eq!(
            code(&a),
            2,
            "{name}: the hook must send the agent back:\n{err}"
        );
        for pair in case.words("files") {
            let (_, file) = pair.split_once('=').unwrap();
            assert!(
                err.lines().any(|l| l.starts_with(&format!("- {file}: "))),
                "{name}: stderr must cite {file}:\n{err}"
            );
        }
        for file in case.words("clean") {
            assert!(
                !err.lines().any(|l| l.starts_with(&format!("- {file}: "))),
                "{name}: stderr must spare {file}:\n{err}"
            );
        }
    }
}
