//! `git standards board` (issue 28) on real repositories, with the `git` CLI
//! as witness: the row set (`git for-each-ref`), ahead/behind
//! (`git rev-list --left-right --count`), each collision's conflict verdict
//! and conflicted files (`git merge-tree --write-tree --name-only`), and an
//! object database the board leaves as it was (`git count-objects`).

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::{read, set_field, stderr, write, Env, Reads};

fn json(env: &Env, dir: &Path, args: &[&str]) -> Value {
    let mut all = vec!["board", "--json"];
    all.extend_from_slice(args);
    let a = env.run(dir, &all);
    let out = a.get_output();
    assert!(out.status.success(), "{}", stderr(&a));
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

fn row<'a>(doc: &'a Value, name: &str, kind: &str) -> &'a Value {
    doc["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == name && r["kind"] == kind)
        .unwrap_or_else(|| panic!("no {kind} row `{name}` in {doc:#}"))
}

fn start(env: &Env, repo: &Path, branch: &str, request: &str) {
    env.git(repo, &["switch", "-q", "-c", branch, "main"]);
    env.run(repo, &["start", "--request", request]).success();
}

/// main with an installation and code; branches in each state:
/// `search` and `login` (active cycles, both changing app.py: a conflict in
/// code and in STATE.md), `signed` (signed off, then a code change after the
/// sign-off), `docs` (a fresh installation and a README: ready), `config`
/// (changes `.standards/config.toml`, which main also changes: a conflict in
/// `.standards/`).
fn repository() -> (Env, PathBuf) {
    let (env, repo) = Env::repo();
    write(repo.join("app.py"), "print('hi')\n");
    env.run(&repo, &["install"]).success();
    env.commit_all(&repo, "install");
    start(&env, &repo, "search", "Add search");
    write(repo.join("app.py"), "print('search')\n");
    env.commit_all(&repo, "search");
    start(&env, &repo, "login", "Add login");
    write(repo.join("app.py"), "print('login')\n");
    env.commit_all(&repo, "login");
    env.git(&repo, &["switch", "-q", "-c", "signed", "main"]);
    let state = read(repo.join(".standards/STATE.md"));
    write(
        repo.join(".standards/STATE.md"),
        crate::merge_guard::signed_off(&state),
    );
    env.commit_all(&repo, "signed off");
    write(repo.join("lib.py"), "x = 1\n");
    env.commit_all(&repo, "after the sign-off");
    env.git(&repo, &["switch", "-q", "-c", "docs", "main"]);
    write(repo.join("README.txt"), "docs\n");
    env.commit_all(&repo, "docs");
    env.git(&repo, &["switch", "-q", "-c", "config", "main"]);
    write(
        repo.join(".standards/config.toml"),
        "main-branch = \"main\"\n",
    );
    env.commit_all(&repo, "config");
    env.git(&repo, &["switch", "-q", "main"]);
    write(
        repo.join(".standards/config.toml"),
        "protected-branches = [\"release/*\"]\n",
    );
    env.commit_all(&repo, "protect releases");
    (env, repo)
}

fn objects(env: &Env, dir: &Path) -> String {
    env.git(dir, &["count-objects", "-v"])
}

/// Every collision's verdict and conflicted files, as git's own merge-tree
/// computes them.
fn collisions_match_git(env: &Env, dir: &Path, doc: &Value) {
    let tip = |name: &str| {
        row(doc, name, "branch")["commit"]
            .as_str()
            .unwrap()
            .to_string()
    };
    for c in doc["collisions"].as_array().unwrap() {
        let (a, b) = (c["a"].as_str().unwrap(), c["b"].as_str().unwrap());
        let out = env.git_status(
            dir,
            &[
                "merge-tree",
                "--write-tree",
                "--name-only",
                "--no-messages",
                &tip(b),
                &tip(a),
            ],
        );
        let text = String::from_utf8(out.stdout).unwrap();
        let conflicted: Vec<&str> = text.lines().skip(1).filter(|l| !l.is_empty()).collect();
        assert_eq!(c["conflict"], out.status.code() == Some(1), "{a}/{b}: {c}");
        let files: Vec<&str> = c["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f.as_str().unwrap())
            .collect();
        assert_eq!(&files[..conflicted.len()], &conflicted[..], "{a}/{b}: {c}");
        assert_eq!(
            c["conflictingHunks"].as_u64().unwrap() > 0,
            !conflicted.is_empty()
        );
    }
}

#[test]
fn each_branch_shows_its_state_and_readiness_and_collisions_match_git() {
    let (env, repo) = repository();
    let before = objects(&env, &repo);
    let doc = json(&env, &repo, &[]);
    assert_eq!(objects(&env, &repo), before, "the board wrote objects");
    assert_eq!(doc["ok"], true);
    assert_eq!(doc["mainBranch"], "main");
    assert_eq!(doc["states"][0], "SCOPING");
    // The row set is git's list of branches.
    let listed = env.git(
        &repo,
        &["for-each-ref", "--format=%(refname:short)", "refs/heads"],
    );
    let mut names: Vec<&str> = doc["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    names.sort();
    let mut want: Vec<&str> = listed.lines().collect();
    want.sort();
    assert_eq!(names, want);
    for r in doc["rows"].as_array().unwrap() {
        let name = r["name"].as_str().unwrap();
        let tip = env.git(&repo, &["rev-parse", &format!("refs/heads/{name}")]);
        assert_eq!(r["commit"], tip.trim(), "{name}");
        assert_eq!(r["refs"]["local"], format!("refs/heads/{name}"));
        assert_eq!(r["problem"], Value::Null, "{name}: {r:#}");
    }

    let search = row(&doc, "search", "branch");
    assert_eq!(search["readiness"], "active");
    let p = &search["projects"][0];
    assert_eq!(p["folder"], ".");
    assert_eq!(p["request"], "Add search");
    assert_eq!(p["state"], "AUDITING");
    assert_eq!(p["owner"], "Auditor");
    assert_eq!(p["next"], "/auditor");
    assert_eq!(p["ageSource"], "audit");
    assert!(p["cycleId"].as_str().unwrap().starts_with("add-search-"));
    let detail = search["readinessDetail"].as_str().unwrap();
    assert!(
        detail.contains("`git standards reset --yes --commit`"),
        "{detail}"
    );

    let signed = row(&doc, "signed", "branch");
    assert_eq!(signed["readiness"], "signed-off-needs-reset");
    assert_eq!(signed["projects"][0]["state"], "SIGNED_OFF");
    assert_eq!(
        signed["projects"][0]["afterSignoff"],
        serde_json::json!(["lib.py"])
    );
    assert_eq!(signed["projects"][0]["ageSource"], "commits");
    assert_eq!(signed["check"]["verdict"], "pass");

    let docs = row(&doc, "docs", "branch");
    assert_eq!(docs["readiness"], "ready", "{docs:#}");
    assert_eq!(row(&doc, "main", "branch")["readiness"], "ready");

    let config = row(&doc, "config", "branch");
    assert_eq!(config["readiness"], "conflicts", "{config:#}");
    assert!(config["readinessDetail"]
        .as_str()
        .unwrap()
        .contains("`.standards/config.toml`"));

    let pair = |a: &str, b: &str| {
        doc["collisions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["a"] == a && c["b"] == b)
            .unwrap_or_else(|| panic!("no collision {a}/{b} in {doc:#}"))
            .clone()
    };
    let code = pair("login", "search");
    assert_eq!(code["conflict"], true);
    assert!(code["files"].as_array().unwrap().contains(&"app.py".into()));
    assert_eq!(code["inStandards"], true, "both started a cycle: {code}");
    let cfg = pair("config", "main");
    assert_eq!(cfg["conflict"], true);
    assert_eq!(cfg["inStandards"], true);
    assert_eq!(cfg["files"], serde_json::json!([".standards/config.toml"]));
    collisions_match_git(&env, &repo, &doc);
    // Each branch against main (5), and the two active ones with each other.
    assert_eq!(doc["pairsCompared"], 6);
    assert_eq!(doc["pairsSkipped"], 0);

    let cut = json(&env, &repo, &["--max-pairs", "2"]);
    assert_eq!(cut["pairsCompared"], 2);
    assert_eq!(cut["pairsSkipped"], 4);
    assert_eq!(cut["maxPairs"], 2);
}

#[test]
fn the_table_fits_120_columns_and_names_every_row() {
    let (env, repo) = repository();
    env.git(
        &repo,
        &[
            "branch",
            "feature/a-branch-name-much-longer-than-its-column-allows",
        ],
    );
    let a = env.run(&repo, &["board"]).success();
    let text = String::from_utf8(a.get_output().stdout.clone()).unwrap();
    for line in text.lines() {
        assert!(line.chars().count() <= 120, "{line}");
    }
    assert!(text.contains("feature/a-branch-name-muc…"), "{text}");
    assert!(text.contains("signed-off-needs-reset"), "{text}");
    assert!(text.contains("login / search: conflict"), "{text}");
}

#[test]
fn narrowing_by_pattern_keeps_the_main_branch_and_refuses_a_pattern_matching_nothing() {
    let (env, repo) = repository();
    let doc = json(&env, &repo, &["--ref", "s*"]);
    let names: Vec<&str> = doc["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["main", "search", "signed"]);
    let a = env
        .run(&repo, &["board", "--ref", "nothing/*", "--json"])
        .code(1);
    let v: Value = serde_json::from_slice(&a.get_output().stdout).unwrap();
    assert_eq!(v["ok"], false);
    assert!(
        v["error"].as_str().unwrap().contains("`--ref nothing/*`"),
        "{v}"
    );
    let a = env.run(&repo, &["board", "--remote", "nowhere"]).code(1);
    assert!(
        stderr(&a).contains("no remote named `nowhere`"),
        "{}",
        stderr(&a)
    );
    env.run(&repo, &["board", "--max-pairs", "many"]).code(2);
}

#[test]
fn a_clone_shows_remote_tracking_rows_and_how_far_a_branch_is_from_its_upstream() {
    let (env, repo) = repository();
    let clone = env.dir.path().join("clone");
    env.git(
        env.dir.path(),
        &["clone", "-q", repo.to_str().unwrap(), "clone"],
    );
    env.git(&clone, &["switch", "-q", "search"]);
    write(clone.join("extra.txt"), "1\n");
    env.commit_all(&clone, "ahead");
    env.git(&clone, &["switch", "-q", "-c", "local-only"]);
    let doc = json(&env, &clone, &[]);
    let listed = env.git(
        &clone,
        &[
            "for-each-ref",
            "--format=%(refname)",
            "refs/heads",
            "refs/remotes/origin",
        ],
    );
    let mut want: Vec<String> = listed
        .lines()
        .filter(|r| *r != "refs/remotes/origin/HEAD")
        .map(|r| {
            r.trim_start_matches("refs/heads/")
                .trim_start_matches("refs/remotes/origin/")
                .to_string()
        })
        .collect();
    want.sort();
    want.dedup();
    let mut names: Vec<String> = doc["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap().to_string())
        .collect();
    names.sort();
    assert_eq!(names, want);
    let search = row(&doc, "search", "branch");
    assert_eq!(
        search["refs"]["remotes"],
        serde_json::json!(["refs/remotes/origin/search"])
    );
    let counts = env.git(
        &clone,
        &[
            "rev-list",
            "--left-right",
            "--count",
            "search...search@{upstream}",
        ],
    );
    let (ahead, behind) = counts.trim().split_once('\t').unwrap();
    assert_eq!(search["upstream"]["ref"], "refs/remotes/origin/search");
    assert_eq!(search["upstream"]["ahead"], ahead.parse::<u64>().unwrap());
    assert_eq!(search["upstream"]["behind"], behind.parse::<u64>().unwrap());
    assert_eq!(search["upstream"]["ahead"], 1);
    // A branch only on the remote is a row of its own.
    let login = row(&doc, "login", "branch");
    assert_eq!(login["refs"]["local"], Value::Null);
    assert_eq!(login["readiness"], "active");
    assert_eq!(row(&doc, "local-only", "branch")["upstream"], Value::Null);
}

#[test]
fn a_bare_clone_and_a_shallow_clone_give_a_board() {
    let (env, repo) = repository();
    let bare = env.dir.path().join("bare.git");
    env.git(
        env.dir.path(),
        &["clone", "-q", "--bare", repo.to_str().unwrap(), "bare.git"],
    );
    let before = objects(&env, &bare);
    let doc = json(&env, &bare, &[]);
    assert_eq!(objects(&env, &bare), before);
    assert_eq!(row(&doc, "search", "branch")["readiness"], "active");
    assert_eq!(row(&doc, "config", "branch")["readiness"], "conflicts");
    collisions_match_git(&env, &bare, &doc);

    let url = format!("file://{}", repo.display());
    env.git(
        env.dir.path(),
        &[
            "clone",
            "-q",
            "--depth",
            "1",
            "--no-single-branch",
            &url,
            "shallow",
        ],
    );
    let shallow = env.dir.path().join("shallow");
    let doc = json(&env, &shallow, &[]);
    let search = row(&doc, "search", "branch");
    let problem = search["problem"].as_str().unwrap_or_default();
    assert!(problem.contains("shallow"), "{search:#}");
    // Its state is still read.
    assert_eq!(search["projects"][0]["state"], "AUDITING");
}

#[test]
fn a_linked_worktree_shows_its_uncommitted_state() {
    let (env, repo) = repository();
    let wt = env.dir.path().join("wt");
    env.git(
        &repo,
        &["worktree", "add", "-q", wt.to_str().unwrap(), "search"],
    );
    env.run(&wt, &["block", "--on", "Which index?"]).success();
    let doc = json(&env, &repo, &[]);
    let w = row(&doc, "search", "worktree");
    assert_eq!(
        w["worktree"],
        std::fs::canonicalize(&wt).unwrap().display().to_string()
    );
    assert_eq!(w["projects"][0]["blockedQuestion"], "Which index?");
    assert_eq!(w["readiness"], "active");
    let b = row(&doc, "search", "branch");
    assert_eq!(b["projects"][0]["blockedQuestion"], Value::Null);
}

#[test]
fn an_unreadable_standards_folder_is_a_row_problem_not_a_failure() {
    let (env, repo) = repository();
    env.git(&repo, &["switch", "-q", "-c", "broken", "main"]);
    let state = read(repo.join(".standards/STATE.md"));
    write(
        repo.join(".standards/STATE.md"),
        format!(
            "<<<<<<< ours\n{state}=======\n{}>>>>>>> theirs\n",
            set_field(&state, "WorkflowState", "DEVELOPING")
        ),
    );
    env.commit_all(&repo, "committed a conflict");
    env.git(&repo, &["switch", "-q", "main"]);
    let doc = json(&env, &repo, &[]);
    let broken = row(&doc, "broken", "branch");
    assert_eq!(broken["readiness"], "unknown");
    assert!(
        broken["problem"].as_str().unwrap().contains("conflict"),
        "{broken:#}"
    );
    assert_eq!(row(&doc, "search", "branch")["readiness"], "active");
}

#[test]
fn html_is_written_atomically_and_a_symbolic_link_is_refused() {
    let (env, repo) = repository();
    let page = env.dir.path().join("board.html");
    env.run(&repo, &["board", "--html", page.to_str().unwrap()])
        .success();
    let html = read(&page);
    assert!(html.starts_with("<!DOCTYPE html>"), "{html}");
    assert!(html.contains("search"), "{html}");
    let link = env.dir.path().join("link.html");
    std::os::unix::fs::symlink(&page, &link).unwrap();
    env.run(&repo, &["board", "--html", link.to_str().unwrap()])
        .code(1);
    assert_eq!(read(&page), html);
    // A relative path is taken from the folder `-C` names, as git does.
    env.run(
        env.dir.path(),
        &["-C", "repo", "board", "--html", "rel.html"],
    )
    .success();
    assert!(read(repo.join("rel.html")).starts_with("<!DOCTYPE html>"));
}

#[test]
fn branches_sharing_standards_read_each_blob_once() {
    // The read counter is a debug-build seam.
    if !cfg!(debug_assertions) {
        return;
    }
    let (env, repo) = repository();
    let count = |env: &Env| {
        let mut cmd = env.cmd(&repo);
        cmd.args(["board", "--json", "--max-pairs", "0"])
            .env("GIT_STANDARDS_COUNT_READS", "1");
        let out = cmd.output().unwrap();
        assert!(out.status.success());
        let reads = Reads::from_stderr(&String::from_utf8(out.stderr).unwrap());
        // Blobs only: the merge guard reads the checked-out config.toml
        // from disk for each row.
        reads.files - reads.disk
    };
    let alone = count(&env);
    for n in 0..4 {
        env.git(&repo, &["branch", &format!("copy-{n}"), "search"]);
    }
    assert_eq!(count(&env), alone, "copies of a branch read no blob again");
}

/// The page `board --html` writes, for the repository's real branches, opens
/// in a real browser with one row per row of `board --json`.
#[test]
fn the_html_page_of_a_real_board_renders_in_a_browser_with_every_row() {
    let (env, repo) = repository();
    let doc = json(&env, &repo, &[]);
    let page = env.dir.path().join("board.html");
    env.run(&repo, &["board", "--html", page.to_str().unwrap()])
        .success();
    let (dom, png) = match crate::board_html::render_in_chromium(&page) {
        Ok(out) => out,
        Err(crate::board_html::Skip(message)) => {
            eprintln!("{message}");
            return;
        }
    };
    let rows = doc["rows"].as_array().unwrap();
    assert_eq!(dom.matches("<tr data-row=").count(), rows.len(), "{dom}");
    for r in rows {
        let name = r["name"].as_str().unwrap();
        assert!(
            dom.contains(&format!("data-row=\"{name}\"")),
            "{name}: {dom}"
        );
    }
    assert!(!dom.contains("<script"), "a script element reached the DOM");
    let bytes = std::fs::read(&png).expect("a screenshot was written");
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n") && bytes.len() > 10_000);
}

/// The board shares walked folders and blobs between branches; each row's
/// verdict is still what `check --ref` says of that branch alone. A branch
/// that breaks a rule at its tip (a hand-edited STATE.md) is among them.
#[test]
fn each_rows_check_matches_check_of_that_branch_alone() {
    let (env, repo) = repository();
    env.git(&repo, &["switch", "-q", "-c", "broken", "login"]);
    let state = read(repo.join(".standards/STATE.md"));
    write(
        repo.join(".standards/STATE.md"),
        state.replacen(
            "`Scope`: `NONE`",
            "`Scope`: `.standards/docs/missing-scope.md`",
            1,
        ),
    );
    write(repo.join("notes.md"), "# Notes\n");
    env.commit_all(&repo, "hand edit");
    env.git(&repo, &["switch", "-q", "main"]);
    let doc = json(&env, &repo, &[]);
    let mut compared = 0;
    for r in doc["rows"].as_array().unwrap() {
        if r["projects"].as_array().unwrap().is_empty() {
            continue;
        }
        let name = r["name"].as_str().unwrap();
        let a = env.run(&repo, &["check", "--ref", name, "--json"]);
        let alone: Value = serde_json::from_slice(&a.get_output().stdout).unwrap();
        assert_eq!(
            r["check"]["problems"].as_u64().unwrap() as usize,
            alone["problems"].as_array().unwrap().len(),
            "{name}: {r} against {alone}"
        );
        assert_eq!(
            r["check"]["warnings"].as_u64().unwrap() as usize,
            alone["notes"].as_array().unwrap().len(),
            "{name}: {r} against {alone}"
        );
        compared += 1;
    }
    assert!(compared >= 5, "{doc}");
    let broken = row(&doc, "broken", "branch");
    assert!(
        broken["check"]["problems"].as_u64().unwrap() > 0,
        "{broken}"
    );
}
