//! `git standards check` on real temporary repositories (SC-CHK and robustness).

use std::path::Path;

use crate::common::{read, stderr, stdout, write, Env};

const ID: &str = "add-user-search-20260927T190146Z-7bef0f04";

/// Copies a fixture base (`fixtures/check/bases/<name>`) over `repo`.
pub fn lay_base(repo: &Path, name: &str) {
    let base = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/check/bases")
        .join(name);
    let mut stack = vec![base.clone()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(&base).unwrap();
                write(repo.join(rel), std::fs::read(&p).unwrap());
            }
        }
    }
}

/// P-BROWN: a brownfield project installed in a git repository.
fn brownfield() -> (Env, std::path::PathBuf) {
    let (env, repo) = Env::repo();
    write(repo.join("app.py"), "print(\"hi\")\n");
    env.run(&repo, &["install"]).success();
    (env, repo)
}

fn json(a: &assert_cmd::assert::Assert) -> serde_json::Value {
    serde_json::from_str(&stdout(a)).unwrap_or_else(|e| panic!("not JSON ({e}): {}", stdout(a)))
}

fn rules(v: &serde_json::Value) -> Vec<String> {
    v["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["rule"].as_str().unwrap().to_string())
        .collect()
}

/// SC-CHK-001: P-BROWN with no edits passes.
#[test]
fn sc_chk_001_fresh_brownfield_passes() {
    let (env, repo) = brownfield();
    let a = env.run(&repo, &["check"]).success();
    assert!(stdout(&a).contains("check passed"), "{}", stdout(&a));
    env.commit_all(&repo, "install");
    let a = env.run(&repo, &["check", "--json"]).success();
    let v = json(&a);
    assert_eq!(v["ok"], true);
    assert!(v["checked"]["comparedWith"]
        .as_str()
        .unwrap()
        .contains("HEAD"));
}

/// SC-CHK-002: F-STD passes with exit 0.
#[test]
fn sc_chk_002_f_std_passes() {
    let (env, repo) = brownfield();
    lay_base(&repo, "f-std");
    env.run(&repo, &["check"]).success();
}

/// SC-CHK-003: conflict markers in STATE.md are exactly one problem, and the check stops there.
#[test]
fn sc_chk_003_conflict_markers_in_state_stop_the_check() {
    let (env, repo) = brownfield();
    let mut state = read(repo.join(".standards/STATE.md"));
    state.push_str("<<<<<<< ours\n=======\n>>>>>>> theirs\n");
    write(repo.join(".standards/STATE.md"), state);
    let a = env.run(&repo, &["check", "--json"]).code(1);
    let v = json(&a);
    assert_eq!(v["ok"], false);
    assert_eq!(rules(&v), ["RT-004"]);
    assert_eq!(v["problems"][0]["file"], ".standards/STATE.md");
}

/// SC-CHK-004: a conflict block in `.standards/CONTEXT.md` is reported on that file.
#[test]
fn sc_chk_004_conflict_markers_anywhere_in_standards() {
    let (env, repo) = brownfield();
    write(
        repo.join(".standards/CONTEXT.md"),
        "# Project Context\n<<<<<<< ours\na\n=======\nb\n>>>>>>> theirs\n",
    );
    let a = env.run(&repo, &["check"]).code(1);
    assert!(
        stdout(&a).contains(".standards/CONTEXT.md: contains merge conflict markers"),
        "{}",
        stdout(&a)
    );
}

/// SC-CHK-005: a real `git merge` conflict in the report is exactly one problem that tells the agent to ask the user.
#[test]
fn sc_chk_005_real_merge_conflict_in_a_record() {
    let (env, repo) = brownfield();
    lay_base(&repo, "f-std");
    env.commit_all(&repo, "f-std");
    let report = repo.join(format!(".standards/docs/verification/{ID}.md"));
    let original = read(&report);
    env.git(&repo, &["checkout", "-q", "-b", "side"]);
    write(&report, format!("{original}\nSide evidence.\n"));
    env.commit_all(&repo, "side");
    env.git(&repo, &["checkout", "-q", "main"]);
    write(&report, format!("{original}\nMain evidence.\n"));
    env.commit_all(&repo, "main");
    assert!(!env
        .git_status(&repo, &["merge", "-q", "side"])
        .status
        .success());
    let a = env.run(&repo, &["check", "--json"]).code(1);
    let v = json(&a);
    assert_eq!(v["problems"].as_array().unwrap().len(), 1, "{v}");
    assert_eq!(
        v["problems"][0]["file"],
        format!(".standards/docs/verification/{ID}.md")
    );
    assert!(v["problems"][0]["hint"]
        .as_str()
        .unwrap()
        .contains("ask the user"));
}

/// SC-CHK-006 and SC-CHK-007: malformed provenance under `.standards/docs/` is reported;
/// `.standards/NOTES.md` is not scanned. The reference runs SC-CHK-006 without git; our
/// project root is a git work tree (D1), so "no git" here means no commit yet.
#[test]
fn sc_chk_006_007_malformed_records_under_docs_are_scanned() {
    for with_commit in [false, true] {
        let (env, repo) = brownfield();
        lay_base(&repo, "f-std");
        let bad = "<!-- STANDARDS\nArtifact: NOPE\nCycle: c-1\n-->\n";
        write(repo.join(".standards/docs/stray/broken.md"), bad);
        write(repo.join(".standards/NOTES.md"), bad);
        if with_commit {
            env.commit_all(&repo, "records");
        }
        let a = env.run(&repo, &["check", "--json"]).code(1);
        let v = json(&a);
        let files: Vec<&str> = v["problems"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["file"].as_str().unwrap())
            .collect();
        assert!(files.contains(&".standards/docs/stray/broken.md"), "{v}");
        assert!(!files.contains(&".standards/NOTES.md"), "{v}");
    }
}

/// SC-CHK-012: a marked file outside `.standards/` with an unknown Artifact is malformed provenance on that file.
#[test]
fn sc_chk_012_marked_files_anywhere_outside_standards() {
    let (env, repo) = brownfield();
    write(
        repo.join("docs/notes/broken.md"),
        "<!-- STANDARDS\nArtifact: VERIFICATON\nCycle: c-1\n-->\n",
    );
    let a = env.run(&repo, &["check", "--json"]).code(1);
    let v = json(&a);
    assert_eq!(rules(&v), ["PV-001"]);
    assert_eq!(v["problems"][0]["file"], "docs/notes/broken.md");
}

#[test]
fn ignored_markdown_is_not_scanned() {
    let (env, repo) = brownfield();
    write(repo.join(".gitignore"), "scratch/\n");
    write(
        repo.join("scratch/broken.md"),
        "<!-- STANDARDS\nArtifact: NOPE\nCycle: c\n-->\n",
    );
    env.run(&repo, &["check"]).success();
}

/// SC-CHK-010: check run through a symlinked project path answers `ok: true`.
#[test]
fn sc_chk_010_through_a_symlinked_project_path() {
    let (env, repo) = brownfield();
    let link = env.dir.path().join("link");
    std::os::unix::fs::symlink(&repo, &link).unwrap();
    let a = env.run(&link, &["check", "--json"]).success();
    assert_eq!(json(&a)["ok"], true);
}

#[test]
fn staged_and_ref_sources_are_read_without_checkout() {
    let (env, repo) = brownfield();
    env.commit_all(&repo, "install");
    // Break MODE.md in the index only; the working tree is fine.
    write(repo.join(".standards/MODE.md"), "`ProjectMode`: `HYBRID`\n");
    env.git(&repo, &["add", ".standards/MODE.md"]);
    write(
        repo.join(".standards/MODE.md"),
        "# S.T.A.N.D.A.R.D.S. Project Mode\n\n`ProjectMode`: `BROWNFIELD`\n",
    );
    env.run(&repo, &["check"]).success();
    let a = env.run(&repo, &["check", "--staged", "--json"]).code(1);
    assert_eq!(rules(&json(&a)), ["RT-005"]);
    // A commit on another branch, checked by name.
    env.git(&repo, &["stash", "-q"]);
    env.git(&repo, &["checkout", "-q", "-b", "broken"]);
    write(repo.join(".standards/MODE.md"), "`ProjectMode`: `HYBRID`\n");
    env.commit_all(&repo, "break mode");
    env.git(&repo, &["checkout", "-q", "main"]);
    let a = env
        .run(&repo, &["check", "--ref", "broken", "--json"])
        .code(1);
    assert_eq!(rules(&json(&a)), ["RT-005"]);
    env.run(&repo, &["check", "--ref", "main"]).success();
    let a = env
        .run(&repo, &["check", "--ref", "no-such-branch"])
        .code(1);
    assert!(stderr(&a).contains("no-such-branch"));
}

#[test]
fn missing_runtime_is_a_refusal_with_a_json_error() {
    let (env, repo) = Env::repo();
    let a = env.run(&repo, &["check", "--json"]).code(1);
    assert_eq!(json(&a)["ok"], false);
    assert!(
        stderr(&a).contains("no STANDARDS runtime is installed"),
        "{}",
        stderr(&a)
    );
    assert!(stderr(&a).contains("git standards install"));
}

#[test]
fn bad_inputs_never_crash() {
    let (env, repo) = brownfield();
    lay_base(&repo, "f-std");
    // Non-UTF-8 bytes in a marked record and in STATE-adjacent files.
    write(
        repo.join("notes/binary.md"),
        b"<!-- STANDARDS\n\xff\xfe\n-->\n",
    );
    // A record path that is a folder, and a record that is a symlink.
    std::fs::create_dir_all(repo.join("docs/folder.md")).unwrap();
    std::os::unix::fs::symlink(repo.join("app.py"), repo.join("docs/link.md")).unwrap();
    // A 50 MB record outside .standards with a block at the top.
    let mut big = String::from(
        "<!-- STANDARDS\nArtifact: SCOPE\nCycle: other-20250101T000000Z-00000000\n-->\n# Big\n",
    );
    let line = "- filler line for a very large record that must not crash the checker\n";
    while big.len() < 50 * 1024 * 1024 {
        big.push_str(line);
    }
    write(repo.join("docs/big.md"), big);
    let a = env.run(&repo, &["check", "--json"]).success();
    let v = json(&a);
    assert_eq!(v["ok"], true, "{v}");
    let notes = v["notes"].as_array().unwrap();
    assert!(
        notes
            .iter()
            .any(|n| n.as_str().unwrap().contains("notes/binary.md")),
        "{v}"
    );

    // A missing .standards entirely is a clear refusal.
    std::fs::remove_dir_all(repo.join(".standards")).unwrap();
    let a = env.run(&repo, &["check"]).code(1);
    assert!(stderr(&a).contains("no STANDARDS runtime"));
}

#[test]
fn state_md_is_never_rewritten_by_check() {
    let (env, repo) = brownfield();
    lay_base(&repo, "f-std");
    let before = std::fs::read(repo.join(".standards/STATE.md")).unwrap();
    env.run(&repo, &["check"]).success();
    assert_eq!(
        std::fs::read(repo.join(".standards/STATE.md")).unwrap(),
        before
    );
}

#[test]
fn text_output_groups_by_file_with_hints_and_a_summary() {
    let (env, repo) = brownfield();
    std::fs::remove_file(repo.join(".standards/VERSION.json")).unwrap();
    write(repo.join(".standards/MODE.md"), "`ProjectMode`: `X`\n");
    let a = env.run(&repo, &["check"]).code(1);
    let out = stdout(&a);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with(".standards/MODE.md: "), "{out}");
    assert!(
        lines.iter().any(
            |l| l.starts_with(".standards/VERSION.json: this runtime file is missing [RT-001]")
        ),
        "{out}"
    );
    assert!(
        lines.iter().any(|l| l.trim_start().starts_with("hint: ")),
        "{out}"
    );
    assert_eq!(
        *lines.last().unwrap(),
        "check failed: 2 problems in 2 files (the working tree)"
    );
    assert!(!out.contains('\u{1b}'), "no colour when not a terminal");
}

#[test]
fn discovery_in_a_linked_worktree_and_with_git_dir_set() {
    let (env, repo) = brownfield();
    env.commit_all(&repo, "install");
    let linked = env.dir.path().join("linked");
    env.git(
        &repo,
        &[
            "worktree",
            "add",
            "-q",
            "-b",
            "feature",
            linked.to_str().unwrap(),
        ],
    );
    // The linked checkout has its own index and working tree.
    write(
        linked.join(".standards/MODE.md"),
        "`ProjectMode`: `HYBRID`\n",
    );
    let a = env.run(&linked, &["check", "--json"]).code(1);
    assert_eq!(rules(&json(&a)), ["RT-005"]);
    env.run(&repo, &["check"]).success();
    // As a hook in a linked worktree sees it: GIT_DIR names the worktree's git dir, cwd its root.
    let git_dir = env
        .git(&linked, &["rev-parse", "--absolute-git-dir"])
        .trim()
        .to_string();
    let mut cmd = env.cmd(&linked);
    cmd.env("GIT_DIR", &git_dir).args(["check", "--json"]);
    let out = cmd.output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("RT-005"));
    // From a subfolder with -C pointing at the main checkout.
    std::fs::create_dir_all(linked.join("src/deep")).unwrap();
    env.run(
        &linked.join("src/deep"),
        &["-C", repo.to_str().unwrap(), "check"],
    )
    .success();
}

#[test]
fn version_and_help() {
    let env = Env::new();
    let a = env.run(env.dir.path(), &["--version"]).success();
    assert_eq!(
        stdout(&a),
        format!("git-standards {}\n", env!("CARGO_PKG_VERSION"))
    );
    let a = env.run(env.dir.path(), &["--help"]).success();
    assert!(stdout(&a).contains("EXIT STATUS"), "{}", stdout(&a));
    let a = env.run(env.dir.path(), &["no-such-command"]).code(2);
    assert!(stderr(&a).contains("no-such-command"));
}

#[test]
fn snapshots_without_a_runtime_and_damaged_repositories_are_explained() {
    let (env, repo) = Env::repo();
    // No commits yet.
    let a = env.run(&repo, &["check", "--ref", "HEAD"]).code(1);
    assert!(
        stderr(&a).contains("the repository has no commits yet"),
        "{}",
        stderr(&a)
    );
    // An empty --ref is a usage error.
    env.run(&repo, &["check", "--ref="]).code(2);
    // A commit before the install, and an index without the runtime.
    write(repo.join("app.py"), "x\n");
    env.commit_all(&repo, "before");
    env.run(&repo, &["install"]).success();
    env.commit_all(&repo, "install");
    let a = env.run(&repo, &["check", "--ref", "HEAD~1"]).code(1);
    assert!(
        stderr(&a).contains("holds no STANDARDS runtime"),
        "{}",
        stderr(&a)
    );
    env.git(&repo, &["rm", "-q", "-r", "--cached", ".standards"]);
    let a = env.run(&repo, &["check", "--staged"]).code(1);
    assert!(
        stderr(&a).contains("the index holds no STANDARDS runtime"),
        "{}",
        stderr(&a)
    );
    assert!(stderr(&a).contains("git add .standards"));
    // A damaged index is the user's to repair: exit 1 with a way out, not 3.
    write(repo.join(".git/index"), "garbage");
    let a = env.run(&repo, &["check", "--staged"]).code(1);
    assert!(
        stderr(&a).contains("cannot read the git index"),
        "{}",
        stderr(&a)
    );
    assert!(stderr(&a).contains("git reset"));
}

/// `check --json` names each problem's source, and `--compat` leaves the
/// protocol rules (PR family) out: a state the reference checker passed but
/// the protocol forbids (a FORWARD from SCOPING into REVIEWING_IMPLEMENTATION).
#[test]
fn compat_reports_only_the_reference_rules() {
    let (env, repo) = brownfield();
    lay_base(&repo, "f-std");
    env.commit_all(&repo, "cycle at implementation review");
    let a = env.run(&repo, &["check", "--json"]).success();
    assert_eq!(json(&a)["checked"]["compat"], false);
    let state = repo.join(".standards/STATE.md");
    write(
        &state,
        crate::common::set_field(&read(&state), "From", "SCOPING"),
    );
    let a = env.run(&repo, &["check", "--json"]).code(1);
    let v = json(&a);
    assert_eq!(rules(&v), ["PR-001"], "{v}");
    assert_eq!(v["problems"][0]["source"], "protocol");
    let full = v["checked"]["rules"].as_u64().unwrap();
    let a = env.run(&repo, &["check", "--json", "--compat"]).success();
    let v = json(&a);
    assert_eq!(v["ok"], true, "{v}");
    assert_eq!(v["checked"]["compat"], true);
    let reference = v["checked"]["rules"].as_u64().unwrap();
    assert_eq!(
        full - reference,
        standards_core::check::protocol_rules::CATALOGUE.len() as u64
    );
    // A reference problem keeps its source in both modes.
    std::fs::remove_file(repo.join(".standards/VERSION.json")).unwrap();
    for extra in [&[][..], &["--compat"][..]] {
        let mut args = vec!["check", "--json"];
        args.extend_from_slice(extra);
        let v = json(&env.run(&repo, &args).code(1));
        let rt = v["problems"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["rule"] == "RT-001")
            .unwrap_or_else(|| panic!("{v}"));
        assert_eq!(rt["source"], "reference");
    }
}

/// Issue 25, item 3: in every family of structured fields (the plan's header
/// and steps, a verification report's header, a finding, a documentation
/// entry, a discrepancy) a line that looks like a field but is not written
/// as one is reported by RH-010 with its line and the accepted form, never
/// silently ignored; written as fields, the same values raise no RH-010.
#[test]
fn field_lines_written_another_way_are_reported_in_every_record_family() {
    let p = crate::fixture::Project::brown();
    p.start_cycle("DEVELOPING", "STANDARD", "FULL_DELIVERABLE");
    let plan = p.init(&["DEVELOPMENT", "--skeleton"]);
    let verification = p.init(&["VERIFICATION"]);
    let review = p.init(&["REVIEW", "--kind", "IMPLEMENTATION"]);
    let documentation = p.init(&["DOCUMENTATION"]);
    let synchronization = p.init(&["SYNCHRONIZATION"]);
    let rh010 = |p: &crate::fixture::Project| -> Vec<(String, String, String)> {
        let out = p.run(&["check", "--json"]);
        let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
        v["problems"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|x| x["rule"] == "RH-010")
            .map(|x| {
                (
                    x["file"].as_str().unwrap().to_string(),
                    x["message"].as_str().unwrap().to_string(),
                    x["hint"].as_str().unwrap_or("").to_string(),
                )
            })
            .collect()
    };
    assert_eq!(rh010(&p), [], "fresh records hold fields only");
    let cases: [(&str, &str, &str, &str); 8] = [
        (&plan, "Mode: STEPWISE", "Mode", "`Mode`: `STEPWISE`"),
        (&plan, "Status: DONE", "Status", "`Status`: `DONE`"),
        (
            &plan,
            "**Depends On:** NONE",
            "Depends On",
            "`Depends On`: `NONE`",
        ),
        (
            &plan,
            "`Acceptance`: AC-001",
            "Acceptance",
            "`Acceptance`: `AC-001`",
        ),
        (
            &verification,
            "status: COMPLETE",
            "Status",
            "`Status`: `COMPLETE`",
        ),
        (
            &review,
            "- **Status:** RESOLVED",
            "Status",
            "`Status`: `RESOLVED`",
        ),
        (
            &documentation,
            "Owner: DEVELOPER",
            "Owner",
            "`Owner`: `DEVELOPER`",
        ),
        (
            &synchronization,
            "FailureType: IMPLEMENTATION",
            "FailureType",
            "`FailureType`: `IMPLEMENTATION`",
        ),
    ];
    for (path, line, name, accepted) in cases {
        let before = p.read(path);
        p.write(
            path,
            format!(
                "{before}\n### {} — x\n\n{line}\n",
                match path {
                    _ if path == review => "F-001",
                    _ if path == documentation => "DOC-001",
                    _ if path == synchronization => "D-001",
                    _ => "DEV-009",
                }
            ),
        );
        let found = rh010(&p);
        assert_eq!(found.len(), 1, "{line}: {found:#?}");
        let (at, message, hint) = &found[0];
        assert_eq!(at, path);
        let n = p.read(path).lines().count();
        assert!(
            message.starts_with(&format!("line {n}: `{line}` looks like the field `{name}`")),
            "{message}"
        );
        assert!(hint.contains(accepted), "{hint}");
        // Written as the field, it is read, and RH-010 has nothing to say.
        p.write(path, format!("{before}\n{accepted}\n"));
        assert_eq!(rh010(&p), [], "{accepted}");
        p.write(path, before);
    }
}
