//! `verify` walks a range incrementally (each commit's tree derived from its
//! parent's, verdicts shared across commits); these tests hold it to the
//! answer of checking every commit from scratch, one `check --ref <commit>`
//! process per commit, on generated histories of several shapes.

use std::collections::BTreeMap;
use std::path::Path;

use crate::common::{read, set_field, stdout, write, Env};

/// A problem as both commands print it in JSON, minus the hint of RT-001
/// (`check --ref` names where git holds a copy of the missing file, which
/// `verify` leaves to the commit it lands in).
fn key(p: &serde_json::Value) -> String {
    let hint = if p["rule"] == "RT-001" {
        serde_json::Value::Null
    } else {
        p["hint"].clone()
    };
    serde_json::json!([p["rule"], p["file"], p["line"], p["message"], hint]).to_string()
}

/// What `check --ref <id>` reports in the project folder `dir` (`""` at
/// the top), its paths repository-relative; `None` when it refuses because
/// the commit holds no runtime.
fn from_scratch(env: &Env, repo: &Path, dir: &str, id: &str) -> Option<Vec<String>> {
    let at = if dir.is_empty() {
        repo.to_path_buf()
    } else {
        repo.join(dir)
    };
    let out = env
        .cmd(&at)
        .args(["check", "--ref", id, "--json"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("check --ref {id} printed no JSON ({e}): {text}"));
    if v["ok"] == false && v.get("problems").is_none() {
        let error = v["error"].as_str().unwrap_or_default();
        assert!(
            error.contains("holds no STANDARDS runtime"),
            "check --ref {id} refused: {v}"
        );
        return None;
    }
    let problems = v["problems"].as_array().expect("problems");
    Some(
        problems
            .iter()
            .map(|p| {
                let mut p = p.clone();
                if !dir.is_empty() {
                    p["file"] = format!("{dir}/{}", p["file"].as_str().unwrap()).into();
                }
                key(&p)
            })
            .collect(),
    )
}

/// Runs `verify <range>` and checks each of its commits from scratch in
/// every project folder `dirs`: the same problems, commit by commit, and a
/// commit skipped exactly when no project of it holds a runtime. Returns
/// the number of commits compared and how many had problems.
fn same_as_from_scratch(env: &Env, repo: &Path, range: &str, dirs: &[&str]) -> (usize, usize) {
    let a = env
        .cmd(repo)
        .args(["verify", range, "--format", "json"])
        .output()
        .unwrap();
    let text = String::from_utf8(a.stdout).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("verify {range} printed no JSON ({e}): {text}"));
    let commits = v["commits"].as_array().expect("commits");
    assert!(!commits.is_empty(), "{v}");
    let mut failing = 0;
    for c in commits {
        let id = c["id"].as_str().unwrap();
        let mut incremental: Vec<String> = c["problems"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["rule"] != "MG-001")
            .map(key)
            .collect();
        let mut scratch = Vec::new();
        let mut any_runtime = false;
        for dir in dirs {
            if let Some(found) = from_scratch(env, repo, dir, id) {
                any_runtime = true;
                scratch.extend(found);
            }
        }
        incremental.sort();
        scratch.sort();
        assert_eq!(
            incremental, scratch,
            "verify {range}: commit {id} `{}` differs from `check --ref`",
            c["subject"]
        );
        assert_eq!(c["skipped"].is_null(), any_runtime, "{c}");
        failing += usize::from(!incremental.is_empty());
    }
    (commits.len(), failing)
}

fn commit(env: &Env, repo: &Path, msg: &str) {
    env.commit_all(repo, msg);
}

fn gs(env: &Env, dir: &Path, args: &[&str]) {
    env.run(dir, args).success();
}

/// A workflow move that a hand-edited state may make the command refuse:
/// the history goes on either way.
fn try_gs(env: &Env, dir: &Path, args: &[&str]) {
    let _ = env.cmd(dir).args(args).output().unwrap();
}

/// A STATE.md field edited by hand, as a person moves a state without the
/// commands.
fn edit_state(repo: &Path, field: &str, value: &str) {
    let path = repo.join(".standards/STATE.md");
    let text = read(&path);
    write(&path, set_field(&text, field, value));
}

/// Code files in several folders, so a commit that changes one leaves most
/// subtrees as they were.
fn code_base(repo: &Path) {
    for d in 0..6 {
        for f in 0..5 {
            write(
                repo.join(format!("src/m{d}/f{f}.rs")),
                format!("fn f() {{}} // {d}\n"),
            );
        }
        write(
            repo.join(format!("docs/d{d}/guide.md")),
            format!("# Guide {d}\n\ntext\n"),
        );
    }
}

/// Cycles started, records added, edited, renamed and deleted, states moved
/// by hand (including a finished cycle reopened), a cancel and a reset, a
/// runtime removed and restored, interleaved with code commits and repeated
/// content, all on one first-parent line.
#[test]
fn a_history_of_cycles_and_resets_verifies_as_checked_from_scratch() {
    let (env, repo) = Env::repo();
    code_base(&repo);
    gs(&env, &repo, &["install"]);
    commit(&env, &repo, "install");
    env.git(&repo, &["checkout", "-q", "-b", "feature"]);

    gs(&env, &repo, &["start", "--request", "Add search"]);
    commit(&env, &repo, "start search");
    write(repo.join("src/m1/f1.rs"), "fn search() {}\n");
    commit(&env, &repo, "code");
    gs(&env, &repo, &["artifact", "init", "SCOPE"]);
    commit(&env, &repo, "scope record");
    let scope = crate::common::files_below(&repo.join(".standards/docs/scope"));
    let scope = format!(".standards/docs/scope/{}", scope[0]);
    let text = read(repo.join(&scope));
    write(repo.join(&scope), format!("{text}\n## Notes\n\nmore\n"));
    commit(&env, &repo, "scope edited");
    edit_state(&repo, "WorkflowState", "ARCHITECTING");
    commit(&env, &repo, "state moved by hand");
    write(repo.join("docs/d2/guide.md"), "# Guide 2\n\nchanged\n");
    commit(&env, &repo, "plain markdown");
    // A Markdown file outside `.standards/` claiming to be a record.
    write(
        repo.join("docs/d3/claimed.md"),
        "<!-- STANDARDS\nArtifact: SCOPE\nCycle: someone-else\n-->\n# x\n",
    );
    commit(&env, &repo, "claimed markdown");
    // The scope record moved (rename detection pairs it with its old path).
    env.git(
        &repo,
        &["mv", &scope, ".standards/docs/scope/moved-scope.md"],
    );
    commit(&env, &repo, "record renamed");
    env.git(&repo, &["rm", "-q", ".standards/docs/scope/moved-scope.md"]);
    commit(&env, &repo, "record deleted");
    write(repo.join("src/m2/f2.rs"), "fn a() {}\n");
    commit(&env, &repo, "code again");
    write(repo.join("src/m2/f2.rs"), "fn b() {}\n");
    commit(&env, &repo, "code again with the same standards content");
    try_gs(&env, &repo, &["cancel"]);
    commit(&env, &repo, "cancelled");
    edit_state(&repo, "WorkflowState", "AUDITING");
    commit(&env, &repo, "cancelled cycle reopened");
    gs(&env, &repo, &["reset", "--yes"]);
    commit(&env, &repo, "reset");
    gs(&env, &repo, &["start", "--request", "Add export"]);
    commit(&env, &repo, "start export");
    gs(&env, &repo, &["artifact", "init", "SCOPE"]);
    gs(&env, &repo, &["artifact", "init", "DEVELOPMENT"]);
    commit(&env, &repo, "two records");
    // The runtime removed and restored: commits without one are skipped.
    env.git(&repo, &["rm", "-q", "-r", ".standards"]);
    commit(&env, &repo, "runtime removed");
    write(repo.join("src/m3/f3.rs"), "fn c() {}\n");
    commit(&env, &repo, "code without a runtime");
    env.git(&repo, &["checkout", "-q", "HEAD~2", "--", ".standards"]);
    commit(&env, &repo, "runtime restored");
    // A folder of code replaced by a file, and a Markdown file by a folder.
    env.git(&repo, &["rm", "-q", "-r", "src/m4"]);
    write(repo.join("src/m4"), "now a file\n");
    env.git(&repo, &["rm", "-q", "docs/d4/guide.md"]);
    write(repo.join("docs/d4/guide.md/inner.md"), "# inner\n");
    commit(&env, &repo, "kinds changed");

    let (n, failing) = same_as_from_scratch(&env, &repo, "main..feature", &[""]);
    assert_eq!(n, 20);
    assert!(failing >= 3, "the history should hold failing commits");
    // Ranges that start mid-history read their first parent from scratch.
    for range in ["feature~7..feature", "feature~12..feature~3", "feature"] {
        same_as_from_scratch(&env, &repo, range, &[""]);
    }
}

/// Merges on the first-parent line: a side branch adding records and code,
/// merged with `--no-ff`, and the main branch merged back in.
#[test]
fn merges_verify_as_checked_from_scratch() {
    let (env, repo) = Env::repo();
    code_base(&repo);
    gs(&env, &repo, &["install"]);
    commit(&env, &repo, "install");
    env.git(&repo, &["checkout", "-q", "-b", "feature"]);
    gs(&env, &repo, &["start", "--request", "Add search"]);
    commit(&env, &repo, "start");
    env.git(&repo, &["checkout", "-q", "-b", "side"]);
    gs(&env, &repo, &["artifact", "init", "SCOPE"]);
    commit(&env, &repo, "side: scope");
    write(repo.join("src/m0/side.rs"), "fn side() {}\n");
    write(repo.join("docs/d0/side.md"), "# side\n");
    commit(&env, &repo, "side: code and docs");
    env.git(&repo, &["checkout", "-q", "feature"]);
    write(repo.join("src/m5/f0.rs"), "fn feature() {}\n");
    commit(&env, &repo, "feature: code");
    env.git(
        &repo,
        &["merge", "-q", "--no-ff", "-m", "merge side", "side"],
    );
    env.git(&repo, &["checkout", "-q", "main"]);
    write(repo.join("docs/d1/main.md"), "# main moves\n");
    commit(&env, &repo, "main: docs");
    env.git(&repo, &["checkout", "-q", "feature"]);
    env.git(
        &repo,
        &["merge", "-q", "--no-ff", "-m", "sync main", "main"],
    );
    edit_state(&repo, "WorkflowState", "DEVELOPING");
    commit(&env, &repo, "state moved by hand");

    let (n, _) = same_as_from_scratch(&env, &repo, "main..feature", &[""]);
    assert_eq!(n, 5, "the first-parent line of feature");
    same_as_from_scratch(&env, &repo, "main...feature", &[""]);
    same_as_from_scratch(&env, &repo, "side..feature", &[""]);
}

/// Two projects in one repository, verified from the top: each commit's
/// problems are those of both projects checked from scratch.
#[test]
fn several_projects_verify_as_checked_from_scratch() {
    let (env, repo) = Env::repo();
    code_base(&repo);
    for dir in ["app", "svc"] {
        std::fs::create_dir_all(repo.join(dir).join(".standards")).unwrap();
        write(repo.join(dir).join("main.py"), "x\n");
        gs(&env, &repo.join(dir), &["install"]);
    }
    commit(&env, &repo, "two projects");
    env.git(&repo, &["checkout", "-q", "-b", "feature"]);
    gs(
        &env,
        &repo.join("svc"),
        &["start", "--request", "Add search"],
    );
    commit(&env, &repo, "svc starts");
    gs(&env, &repo.join("svc"), &["artifact", "init", "SCOPE"]);
    write(repo.join("app/notes.md"), "# notes\n");
    commit(&env, &repo, "svc scope, app notes");
    let state = repo.join("app/.standards/STATE.md");
    write(&state, set_field(&read(&state), "WorkflowState", "TESTING"));
    commit(&env, &repo, "app state moved by hand");
    write(repo.join("src/m1/f0.rs"), "fn x() {}\n");
    commit(&env, &repo, "code");

    let (n, failing) = same_as_from_scratch(&env, &repo, "main..feature", &["app", "svc"]);
    assert_eq!(n, 4);
    assert!(failing >= 1);
}

/// The ways around a walk that derives each commit's scan from its
/// parent's: a project deleted and brought back, the folder holding a
/// project's `.standards/` renamed (the tip's folder is the one verified;
/// the commits before hold no runtime there), Markdown with a provenance
/// block added in a folder that then becomes a file, each commit checked
/// from scratch too.
#[test]
fn projects_deleted_restored_and_renamed_verify_as_checked_from_scratch() {
    let (env, repo) = Env::repo();
    code_base(&repo);
    for dir in ["app", "svc"] {
        std::fs::create_dir_all(repo.join(dir).join(".standards")).unwrap();
        write(repo.join(dir).join("main.py"), "x\n");
        gs(&env, &repo.join(dir), &["install"]);
    }
    commit(&env, &repo, "two projects");
    env.git(&repo, &["checkout", "-q", "-b", "feature"]);
    gs(
        &env,
        &repo.join("app"),
        &["start", "--request", "Add search"],
    );
    gs(&env, &repo.join("app"), &["artifact", "init", "SCOPE"]);
    commit(&env, &repo, "app starts");
    write(
        repo.join("app/docs/deep/claimed.md"),
        "<!-- STANDARDS\nArtifact: SCOPE\nCycle: someone-else\n-->\n# x\n",
    );
    commit(&env, &repo, "claimed markdown, nested");
    env.git(&repo, &["rm", "-q", "-r", "app/docs/deep"]);
    write(repo.join("app/docs/deep"), "now a file\n");
    commit(&env, &repo, "folder became a file");
    env.git(&repo, &["rm", "-q", "-r", "svc"]);
    commit(&env, &repo, "svc deleted");
    env.git(&repo, &["checkout", "-q", "HEAD~1", "--", "svc"]);
    commit(&env, &repo, "svc restored");
    env.git(&repo, &["mv", "app", "web"]);
    commit(&env, &repo, "app renamed to web");
    write(repo.join("web/notes.md"), "# notes\n");
    commit(&env, &repo, "web notes");

    let (n, _) = same_as_from_scratch(&env, &repo, "main..feature", &["web", "svc"]);
    assert_eq!(n, 7);
    same_as_from_scratch(&env, &repo, "feature~3..feature~1", &["web", "svc"]);
}

/// A shallow clone: a range inside the fetched history verifies as checked
/// from scratch there; one reaching the boundary is refused, never clean.
#[test]
fn inside_a_shallow_clone_the_range_verifies_as_checked_from_scratch() {
    let (env, repo) = Env::repo();
    code_base(&repo);
    gs(&env, &repo, &["install"]);
    commit(&env, &repo, "install");
    env.git(&repo, &["checkout", "-q", "-b", "feature"]);
    gs(&env, &repo, &["start", "--request", "Add search"]);
    commit(&env, &repo, "start");
    gs(&env, &repo, &["artifact", "init", "SCOPE"]);
    commit(&env, &repo, "scope");
    edit_state(&repo, "WorkflowState", "TESTING");
    commit(&env, &repo, "state moved by hand");
    write(repo.join("src/m0/f0.rs"), "fn y() {}\n");
    commit(&env, &repo, "code");
    let url = format!("file://{}", repo.display());
    env.git(
        env.dir.path(),
        &[
            "clone", "-q", "--depth", "4", "--branch", "feature", &url, "shallow",
        ],
    );
    let clone = env.dir.path().join("shallow");
    same_as_from_scratch(&env, &clone, "HEAD~3..HEAD", &[""]);
    let a = env.run(&clone, &["verify", "HEAD~4..HEAD"]).code(1);
    assert!(crate::common::stderr(&a).contains("shallow clone"));
    assert!(!stdout(&a).contains("passed"));
}

/// Every commit's verdict is the one its own content gives: the same
/// history verified twice, and verified after the scan cache was dropped,
/// reports the same.
#[test]
fn a_second_run_and_a_cold_run_report_the_same() {
    let (env, repo) = Env::repo();
    code_base(&repo);
    gs(&env, &repo, &["install"]);
    commit(&env, &repo, "install");
    env.git(&repo, &["checkout", "-q", "-b", "feature"]);
    gs(&env, &repo, &["start", "--request", "Add search"]);
    commit(&env, &repo, "start");
    gs(&env, &repo, &["artifact", "init", "SCOPE"]);
    commit(&env, &repo, "scope");
    edit_state(&repo, "WorkflowState", "SIGNED_OFF");
    commit(&env, &repo, "signed off by hand");
    let run = || {
        let a = env
            .cmd(&repo)
            .args(["verify", "--format", "json"])
            .output()
            .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&a.stdout).unwrap();
        let by_commit: BTreeMap<String, serde_json::Value> = v["commits"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| (c["id"].as_str().unwrap().to_string(), c["problems"].clone()))
            .collect();
        by_commit
    };
    let first = run();
    assert_eq!(run(), first);
    let cache = repo.join(".git/standards/content-verdicts");
    assert!(cache.is_file(), "verify keeps its scan verdicts");
    std::fs::remove_file(&cache).unwrap();
    assert_eq!(run(), first);
    same_as_from_scratch(&env, &repo, "main..feature", &[""]);
}

/// `text` with each commit ID of `repo` (full, and its 12- and 7-character
/// abbreviations) replaced by `<subject>`, and each cycle ID that a
/// STATE.md of those commits names by `<cycle N>`: what stays the same from
/// run to run.
fn normalised(env: &Env, repo: &Path, text: &str) -> String {
    let mut out = text.to_string();
    let log = env.git(repo, &["log", "--all", "--format=%H %s"]);
    let mut cycles: Vec<String> = Vec::new();
    for line in log.lines() {
        let (id, subject) = line.split_once(' ').unwrap();
        for len in [40, 12, 7] {
            out = out.replace(&id[..len], &format!("<{subject}>"));
        }
        let state = env.git_status(repo, &["show", &format!("{id}:.standards/STATE.md")]);
        let state = String::from_utf8_lossy(&state.stdout).into_owned();
        if let Some(at) = state.find("`Id`: `") {
            let rest = &state[at + 7..];
            let cycle = &rest[..rest.find('`').unwrap()];
            if cycle != "UNSET" && !cycles.iter().any(|c| c == cycle) {
                cycles.push(cycle.to_string());
            }
        }
    }
    for (n, cycle) in cycles.iter().enumerate() {
        out = out.replace(cycle, &format!("<cycle {n}>"));
    }
    out
}

/// The exact output of `verify` (text and JSON) over a range whose commits
/// add, change, rename and delete records and Markdown files with provenance
/// blocks in nested folders, skip roles by hand, delete the runtime and
/// bring it back: pinned, so a change to how the range is walked cannot
/// change a byte of what it reports.
#[test]
fn the_output_of_a_range_is_pinned() {
    let (env, repo) = Env::repo();
    code_base(&repo);
    gs(&env, &repo, &["install"]);
    commit(&env, &repo, "install");
    env.git(&repo, &["checkout", "-q", "-b", "feature"]);
    gs(&env, &repo, &["start", "--request", "Add search"]);
    commit(&env, &repo, "start search");
    gs(&env, &repo, &["artifact", "init", "SCOPE"]);
    commit(&env, &repo, "scope record");
    let block =
        |cycle: &str| format!("<!-- STANDARDS\nArtifact: SCOPE\nCycle: {cycle}\n-->\n# x\n");
    write(
        repo.join("docs/d3/deep/er/claimed.md"),
        block("someone-else"),
    );
    write(repo.join("docs/d3/deep/plain.md"), "# plain\n");
    commit(&env, &repo, "claimed markdown, nested");
    write(repo.join("docs/d3/deep/er/claimed.md"), block("another"));
    commit(&env, &repo, "claimed markdown changed");
    env.git(&repo, &["mv", "docs/d3", "docs/moved"]);
    commit(&env, &repo, "folder of markdown renamed");
    write(repo.join("src/m1/f1.rs"), "fn search() {}\n");
    commit(&env, &repo, "code");
    edit_state(&repo, "WorkflowState", "DEVELOPING");
    commit(&env, &repo, "roles skipped by hand");
    env.git(&repo, &["rm", "-q", "-r", "docs/moved/deep/er"]);
    commit(&env, &repo, "nested folder deleted");
    let scope = crate::common::files_below(&repo.join(".standards/docs/scope"));
    let scope = format!(".standards/docs/scope/{}", scope[0]);
    env.git(&repo, &["mv", &scope, ".standards/docs/scope/moved.md"]);
    commit(&env, &repo, "record renamed");
    env.git(&repo, &["rm", "-q", ".standards/docs/scope/moved.md"]);
    commit(&env, &repo, "record deleted");
    env.git(&repo, &["rm", "-q", "-r", ".standards"]);
    commit(&env, &repo, "runtime removed");
    env.git(&repo, &["checkout", "-q", "HEAD~1", "--", ".standards"]);
    commit(&env, &repo, "runtime restored");

    let text = stdout(&env.run(&repo, &["verify", "main..feature"]).code(1));
    let json = stdout(
        &env.run(&repo, &["verify", "main..feature", "--format", "json"])
            .code(1),
    );
    let got = normalised(&env, &repo, &format!("{text}\n{json}"));
    assert_eq!(got, PINNED, "verify's output changed:\n{got}");
}

const PINNED: &str = r##"<start search> start search: pass
<scope record> scope record: pass
<claimed markdown, nested> claimed markdown, nested: pass
<claimed markdown changed> claimed markdown changed: pass
<folder of markdown renamed> folder of markdown renamed: pass
<code> code: pass
<roles skipped by hand> roles skipped by hand: 5 problems
    .standards/CONTEXT.md: the STANDARD cycle is at `DEVELOPING`, past the audit, but `.standards/CONTEXT.md` is missing or empty; implementation work relies on valid project context [PR-036]
    .standards/STATE.md: Active Work `Architecture` is `NONE`, but the cycle is past ARCHITECTING (it is now DEVELOPING); the technical design's path must be recorded [CP-008]
    .standards/STATE.md: line 3: the handoff is still the cycle's `INITIAL` start, but the STANDARD cycle is at `DEVELOPING`; it starts in `AUDITING` [PR-006]
    .standards/STATE.md: `WorkflowState` went from `AUDITING` in the last commit to `DEVELOPING`, but no sequence of legal moves connects them with these records: at `SCOPING` the move `handoff --to ARCHITECTING` is refused: the handoff would leave a state `check` rejects (1 problem(s), whether new or not): .standards/docs/scope/<cycle 0>.md: this STANDARD cycle is at `ARCHITECTING`, past SCOPING, but its scope defines no current acceptance condition; every verifiable completion obligation is an `AC-NNN` condition [PR-043] (protocol: Runtime Tools and Hooks) [PR-046]
    .standards/docs/scope/<cycle 0>.md: this STANDARD cycle is at `DEVELOPING`, past SCOPING, but its scope defines no current acceptance condition; every verifiable completion obligation is an `AC-NNN` condition [PR-043]
<nested folder deleted> nested folder deleted: 4 problems
    .standards/CONTEXT.md: the STANDARD cycle is at `DEVELOPING`, past the audit, but `.standards/CONTEXT.md` is missing or empty; implementation work relies on valid project context [PR-036]
    .standards/STATE.md: Active Work `Architecture` is `NONE`, but the cycle is past ARCHITECTING (it is now DEVELOPING); the technical design's path must be recorded [CP-008]
    .standards/STATE.md: line 3: the handoff is still the cycle's `INITIAL` start, but the STANDARD cycle is at `DEVELOPING`; it starts in `AUDITING` [PR-006]
    .standards/docs/scope/<cycle 0>.md: this STANDARD cycle is at `DEVELOPING`, past SCOPING, but its scope defines no current acceptance condition; every verifiable completion obligation is an `AC-NNN` condition [PR-043]
<record renamed> record renamed: 4 problems
    .standards/CONTEXT.md: the STANDARD cycle is at `DEVELOPING`, past the audit, but `.standards/CONTEXT.md` is missing or empty; implementation work relies on valid project context [PR-036]
    .standards/STATE.md: Active Work `Architecture` is `NONE`, but the cycle is past ARCHITECTING (it is now DEVELOPING); the technical design's path must be recorded [CP-008]
    .standards/STATE.md: line 3: the handoff is still the cycle's `INITIAL` start, but the STANDARD cycle is at `DEVELOPING`; it starts in `AUDITING` [PR-006]
    .standards/STATE.md: Active Work `Scope` names `.standards/docs/scope/<cycle 0>.md`, which does not exist [PV-011]
<record deleted> record deleted: 4 problems
    .standards/CONTEXT.md: the STANDARD cycle is at `DEVELOPING`, past the audit, but `.standards/CONTEXT.md` is missing or empty; implementation work relies on valid project context [PR-036]
    .standards/STATE.md: Active Work `Architecture` is `NONE`, but the cycle is past ARCHITECTING (it is now DEVELOPING); the technical design's path must be recorded [CP-008]
    .standards/STATE.md: line 3: the handoff is still the cycle's `INITIAL` start, but the STANDARD cycle is at `DEVELOPING`; it starts in `AUDITING` [PR-006]
    .standards/STATE.md: Active Work `Scope` names `.standards/docs/scope/<cycle 0>.md`, which does not exist [PV-011]
<runtime removed> runtime removed: skipped (no STANDARDS runtime in this commit)
<runtime restored> runtime restored: 4 problems
    .standards/CONTEXT.md: the STANDARD cycle is at `DEVELOPING`, past the audit, but `.standards/CONTEXT.md` is missing or empty; implementation work relies on valid project context [PR-036]
    .standards/STATE.md: Active Work `Architecture` is `NONE`, but the cycle is past ARCHITECTING (it is now DEVELOPING); the technical design's path must be recorded [CP-008]
    .standards/STATE.md: line 3: the handoff is still the cycle's `INITIAL` start, but the STANDARD cycle is at `DEVELOPING`; it starts in `AUDITING` [PR-006]
    .standards/STATE.md: Active Work `Scope` names `.standards/docs/scope/<cycle 0>.md`, which does not exist [PV-011]
verify failed: 5 of 12 commits with problems (<install>..<runtime restored>)

{
  "ok": false,
  "mainBranch": "main",
  "projects": [
    ""
  ],
  "base": "<install>",
  "tip": "<runtime restored>",
  "commits": [
    {
      "id": "<start search>",
      "subject": "start search",
      "ok": true,
      "skipped": null,
      "reusedFrom": null,
      "cycle": "<cycle 0>",
      "problems": []
    },
    {
      "id": "<scope record>",
      "subject": "scope record",
      "ok": true,
      "skipped": null,
      "reusedFrom": null,
      "cycle": "<cycle 0>",
      "problems": []
    },
    {
      "id": "<claimed markdown, nested>",
      "subject": "claimed markdown, nested",
      "ok": true,
      "skipped": null,
      "reusedFrom": null,
      "cycle": "<cycle 0>",
      "problems": []
    },
    {
      "id": "<claimed markdown changed>",
      "subject": "claimed markdown changed",
      "ok": true,
      "skipped": null,
      "reusedFrom": null,
      "cycle": "<cycle 0>",
      "problems": []
    },
    {
      "id": "<folder of markdown renamed>",
      "subject": "folder of markdown renamed",
      "ok": true,
      "skipped": null,
      "reusedFrom": null,
      "cycle": "<cycle 0>",
      "problems": []
    },
    {
      "id": "<code>",
      "subject": "code",
      "ok": true,
      "skipped": null,
      "reusedFrom": null,
      "cycle": "<cycle 0>",
      "problems": []
    },
    {
      "id": "<roles skipped by hand>",
      "subject": "roles skipped by hand",
      "ok": false,
      "skipped": null,
      "reusedFrom": null,
      "cycle": "<cycle 0>",
      "problems": [
        {
          "rule": "PR-036",
          "file": ".standards/CONTEXT.md",
          "line": null,
          "message": "the STANDARD cycle is at `DEVELOPING`, past the audit, but `.standards/CONTEXT.md` is missing or empty; implementation work relies on valid project context",
          "hint": "route a `PROJECT_CONTEXT` failure to `AUDITING` so Auditor establishes the project context"
        },
        {
          "rule": "CP-008",
          "file": ".standards/STATE.md",
          "line": null,
          "message": "Active Work `Architecture` is `NONE`, but the cycle is past ARCHITECTING (it is now DEVELOPING); the technical design's path must be recorded",
          "hint": "Architect: set `Architecture` to the technical design's path before handing off"
        },
        {
          "rule": "PR-006",
          "file": ".standards/STATE.md",
          "line": 3,
          "message": "line 3: the handoff is still the cycle's `INITIAL` start, but the STANDARD cycle is at `DEVELOPING`; it starts in `AUDITING`",
          "hint": "start the cycle in its entry state, or record the transition that moved it (a `FORWARD`, `FAILURE`, ...) in the Handoff section"
        },
        {
          "rule": "PR-046",
          "file": ".standards/STATE.md",
          "line": null,
          "message": "`WorkflowState` went from `AUDITING` in the last commit to `DEVELOPING`, but no sequence of legal moves connects them with these records: at `SCOPING` the move `handoff --to ARCHITECTING` is refused: the handoff would leave a state `check` rejects (1 problem(s), whether new or not): .standards/docs/scope/<cycle 0>.md: this STANDARD cycle is at `ARCHITECTING`, past SCOPING, but its scope defines no current acceptance condition; every verifiable completion obligation is an `AC-NNN` condition [PR-043] (protocol: Runtime Tools and Hooks)",
          "hint": "restore the last commit's `WorkflowState` `AUDITING` (and its handoff) in STATE.md; each skipped role then completes its record and records its own handoff once its gate passes"
        },
        {
          "rule": "PR-043",
          "file": ".standards/docs/scope/<cycle 0>.md",
          "line": null,
          "message": "this STANDARD cycle is at `DEVELOPING`, past SCOPING, but its scope defines no current acceptance condition; every verifiable completion obligation is an `AC-NNN` condition",
          "hint": "Scoper defines the cycle's conditions as list items such as ``- `AC-001`: <condition>`` (`git standards id next AC .standards/docs/scope/<cycle 0>.md` gives the number); past SCOPING the defect goes back to the Scoper as a `SCOPING` failure"
        }
      ]
    },
    {
      "id": "<nested folder deleted>",
      "subject": "nested folder deleted",
      "ok": false,
      "skipped": null,
      "reusedFrom": null,
      "cycle": "<cycle 0>",
      "problems": [
        {
          "rule": "PR-036",
          "file": ".standards/CONTEXT.md",
          "line": null,
          "message": "the STANDARD cycle is at `DEVELOPING`, past the audit, but `.standards/CONTEXT.md` is missing or empty; implementation work relies on valid project context",
          "hint": "route a `PROJECT_CONTEXT` failure to `AUDITING` so Auditor establishes the project context"
        },
        {
          "rule": "CP-008",
          "file": ".standards/STATE.md",
          "line": null,
          "message": "Active Work `Architecture` is `NONE`, but the cycle is past ARCHITECTING (it is now DEVELOPING); the technical design's path must be recorded",
          "hint": "Architect: set `Architecture` to the technical design's path before handing off"
        },
        {
          "rule": "PR-006",
          "file": ".standards/STATE.md",
          "line": 3,
          "message": "line 3: the handoff is still the cycle's `INITIAL` start, but the STANDARD cycle is at `DEVELOPING`; it starts in `AUDITING`",
          "hint": "start the cycle in its entry state, or record the transition that moved it (a `FORWARD`, `FAILURE`, ...) in the Handoff section"
        },
        {
          "rule": "PR-043",
          "file": ".standards/docs/scope/<cycle 0>.md",
          "line": null,
          "message": "this STANDARD cycle is at `DEVELOPING`, past SCOPING, but its scope defines no current acceptance condition; every verifiable completion obligation is an `AC-NNN` condition",
          "hint": "Scoper defines the cycle's conditions as list items such as ``- `AC-001`: <condition>`` (`git standards id next AC .standards/docs/scope/<cycle 0>.md` gives the number); past SCOPING the defect goes back to the Scoper as a `SCOPING` failure"
        }
      ]
    },
    {
      "id": "<record renamed>",
      "subject": "record renamed",
      "ok": false,
      "skipped": null,
      "reusedFrom": null,
      "cycle": "<cycle 0>",
      "problems": [
        {
          "rule": "PR-036",
          "file": ".standards/CONTEXT.md",
          "line": null,
          "message": "the STANDARD cycle is at `DEVELOPING`, past the audit, but `.standards/CONTEXT.md` is missing or empty; implementation work relies on valid project context",
          "hint": "route a `PROJECT_CONTEXT` failure to `AUDITING` so Auditor establishes the project context"
        },
        {
          "rule": "CP-008",
          "file": ".standards/STATE.md",
          "line": null,
          "message": "Active Work `Architecture` is `NONE`, but the cycle is past ARCHITECTING (it is now DEVELOPING); the technical design's path must be recorded",
          "hint": "Architect: set `Architecture` to the technical design's path before handing off"
        },
        {
          "rule": "PR-006",
          "file": ".standards/STATE.md",
          "line": 3,
          "message": "line 3: the handoff is still the cycle's `INITIAL` start, but the STANDARD cycle is at `DEVELOPING`; it starts in `AUDITING`",
          "hint": "start the cycle in its entry state, or record the transition that moved it (a `FORWARD`, `FAILURE`, ...) in the Handoff section"
        },
        {
          "rule": "PV-011",
          "file": ".standards/STATE.md",
          "line": null,
          "message": "Active Work `Scope` names `.standards/docs/scope/<cycle 0>.md`, which does not exist",
          "hint": "create it with `git standards artifact init SCOPE` or correct the path"
        }
      ]
    },
    {
      "id": "<record deleted>",
      "subject": "record deleted",
      "ok": false,
      "skipped": null,
      "reusedFrom": null,
      "cycle": "<cycle 0>",
      "problems": [
        {
          "rule": "PR-036",
          "file": ".standards/CONTEXT.md",
          "line": null,
          "message": "the STANDARD cycle is at `DEVELOPING`, past the audit, but `.standards/CONTEXT.md` is missing or empty; implementation work relies on valid project context",
          "hint": "route a `PROJECT_CONTEXT` failure to `AUDITING` so Auditor establishes the project context"
        },
        {
          "rule": "CP-008",
          "file": ".standards/STATE.md",
          "line": null,
          "message": "Active Work `Architecture` is `NONE`, but the cycle is past ARCHITECTING (it is now DEVELOPING); the technical design's path must be recorded",
          "hint": "Architect: set `Architecture` to the technical design's path before handing off"
        },
        {
          "rule": "PR-006",
          "file": ".standards/STATE.md",
          "line": 3,
          "message": "line 3: the handoff is still the cycle's `INITIAL` start, but the STANDARD cycle is at `DEVELOPING`; it starts in `AUDITING`",
          "hint": "start the cycle in its entry state, or record the transition that moved it (a `FORWARD`, `FAILURE`, ...) in the Handoff section"
        },
        {
          "rule": "PV-011",
          "file": ".standards/STATE.md",
          "line": null,
          "message": "Active Work `Scope` names `.standards/docs/scope/<cycle 0>.md`, which does not exist",
          "hint": "create it with `git standards artifact init SCOPE` or correct the path"
        }
      ]
    },
    {
      "id": "<runtime removed>",
      "subject": "runtime removed",
      "ok": true,
      "skipped": "no STANDARDS runtime in this commit",
      "reusedFrom": null,
      "cycle": null,
      "problems": []
    },
    {
      "id": "<runtime restored>",
      "subject": "runtime restored",
      "ok": false,
      "skipped": null,
      "reusedFrom": null,
      "cycle": "<cycle 0>",
      "problems": [
        {
          "rule": "PR-036",
          "file": ".standards/CONTEXT.md",
          "line": null,
          "message": "the STANDARD cycle is at `DEVELOPING`, past the audit, but `.standards/CONTEXT.md` is missing or empty; implementation work relies on valid project context",
          "hint": "route a `PROJECT_CONTEXT` failure to `AUDITING` so Auditor establishes the project context"
        },
        {
          "rule": "CP-008",
          "file": ".standards/STATE.md",
          "line": null,
          "message": "Active Work `Architecture` is `NONE`, but the cycle is past ARCHITECTING (it is now DEVELOPING); the technical design's path must be recorded",
          "hint": "Architect: set `Architecture` to the technical design's path before handing off"
        },
        {
          "rule": "PR-006",
          "file": ".standards/STATE.md",
          "line": 3,
          "message": "line 3: the handoff is still the cycle's `INITIAL` start, but the STANDARD cycle is at `DEVELOPING`; it starts in `AUDITING`",
          "hint": "start the cycle in its entry state, or record the transition that moved it (a `FORWARD`, `FAILURE`, ...) in the Handoff section"
        },
        {
          "rule": "PV-011",
          "file": ".standards/STATE.md",
          "line": null,
          "message": "Active Work `Scope` names `.standards/docs/scope/<cycle 0>.md`, which does not exist",
          "hint": "create it with `git standards artifact init SCOPE` or correct the path"
        }
      ]
    }
  ],
  "into": null,
  "summary": {
    "commits": 12,
    "failed": 5,
    "reused": 0
  }
}
"##;
