//! Issue 14, items 2, 4 and 5: the streamed, filtered object snapshots give
//! the same answers as git's full listing; the pre-commit hook's fast exit
//! reads no blob; verify reads an unchanged record once across commits.

use std::path::Path;

use git_standards::repo::Project;
use proptest::prelude::*;
use standards_core::model::tree::{Node, Tree};

use crate::common::{write, Env};

/// `git ls-tree -r` of `rev` (or `git ls-files -s` for the index): every
/// entry with its mode and object, the independent witness.
fn git_listing(env: &Env, repo: &Path, rev: Option<&str>) -> Vec<(String, String, String)> {
    let out = match rev {
        Some(rev) => env.git(repo, &["ls-tree", "-r", "-z", rev]),
        None => env.git(repo, &["ls-files", "-s", "-z"]),
    };
    out.split('\0')
        .filter(|l| !l.is_empty())
        .map(|line| {
            let (meta, path) = line.split_once('\t').unwrap();
            let words: Vec<&str> = meta.split(' ').collect();
            // ls-tree: mode type id; ls-files -s: mode id stage.
            let (mode, id) = match rev {
                Some(_) => (words[0], words[2]),
                None => (words[0], words[1]),
            };
            (path.to_string(), mode.to_string(), id.to_string())
        })
        .collect()
}

/// What a full listing says is at `path`.
fn expected(listing: &[(String, String, String)], path: &str) -> &'static str {
    match listing.iter().find(|(p, _, _)| p == path) {
        Some((_, mode, _)) if mode == "120000" => "symlink",
        Some((_, mode, _)) if mode == "160000" => "unreadable",
        Some(_) => "file",
        None if listing
            .iter()
            .any(|(p, _, _)| p.starts_with(&format!("{path}/"))) =>
        {
            "dir"
        }
        None => "missing",
    }
}

fn kind(node: &Node) -> &'static str {
    match node {
        Node::File(_) => "file",
        Node::Dir => "dir",
        Node::Symlink => "symlink",
        Node::Missing => "missing",
        Node::Unreadable(_) => "unreadable",
    }
}

/// Every question a reader may ask of `tree`, answered as the full listing does.
fn agrees(tree: &git_standards::repo::ObjectTree, listing: &[(String, String, String)]) {
    let mut asked: Vec<String> = Vec::new();
    for (path, _, _) in listing {
        asked.push(path.clone());
        let mut at = path.as_str();
        while let Some((parent, _)) = at.rsplit_once('/') {
            asked.push(parent.to_string());
            at = parent;
        }
        asked.push(format!("{path}.md"));
        asked.push(format!("{path}/x.md"));
    }
    asked.extend(["nothing.md", ".standards", ".standards/none.md"].map(String::from));
    for path in &asked {
        assert_eq!(
            kind(&tree.node(path)),
            expected(listing, path),
            "{} at {path}",
            tree.describe()
        );
        let id = listing
            .iter()
            .find(|(p, _, _)| p == path)
            .map(|(_, _, id)| id.clone());
        assert_eq!(
            tree.entry_id(path).map(|i| i.to_string()),
            id,
            "{} id at {path}",
            tree.describe()
        );
    }
    let markdown: Vec<String> = listing
        .iter()
        .filter(|(p, mode, _)| p.ends_with(".md") && (mode == "100644" || mode == "100755"))
        .map(|(p, _, _)| p.clone())
        .collect();
    assert_eq!(tree.markdown_files(), markdown, "{}", tree.describe());
    let kept: Vec<String> = listing
        .iter()
        .map(|(p, _, _)| p.clone())
        .filter(|p| p == ".standards" || p.starts_with(".standards/") || p.ends_with(".md"))
        .collect();
    assert_eq!(
        tree.paths().map(String::from).collect::<Vec<_>>(),
        kept,
        "{}",
        tree.describe()
    );
}

const NAMES: &[&str] = &[
    ".standards/STATE.md",
    ".standards/docs/scope/a.md",
    ".standards/docs/x.txt",
    ".standards/config.toml",
    "README.md",
    "src/lib.rs",
    "src/notes.md",
    "src/deep/er/plan.md",
    "docs.md/inner.txt",
    "docs.md/inner.md",
    "a/b/c/d.rs",
    "a/b/e.md",
    "tools/.standards/x.md",
];

fn files_strategy() -> impl Strategy<Value = Vec<Vec<(usize, u8)>>> {
    // Three commits, each a set of (name, content version); version 0 deletes.
    prop::collection::vec(prop::collection::vec((0..NAMES.len(), 0u8..4), 1..8), 3)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 8, .. ProptestConfig::default() })]

    /// Item 2: the filtered, lazy snapshots of the index and of commits, and
    /// the entries verify derives from the parent's by changed folders only,
    /// answer every path exactly as git's full listing does.
    #[test]
    fn streamed_snapshots_answer_like_the_full_listing(commits in files_strategy()) {
        let (env, repo) = Env::repo();
        let mut made = 0;
        for changes in &commits {
            for (name, version) in changes {
                let path = repo.join(NAMES[*name]);
                if *version == 0 {
                    let _ = std::fs::remove_file(&path);
                } else {
                    write(&path, format!("{} v{version}\n", NAMES[*name]));
                }
            }
            if made == 1 {
                // A symbolic link named like Markdown, and one in `.standards/`.
                let _ = std::os::unix::fs::symlink("README.md", repo.join("link.md"));
                let _ = std::os::unix::fs::symlink("STATE.md", repo.join(".standards/link"));
            }
            env.commit_all(&repo, &format!("commit {made}"));
            made += 1;
        }
        let project = Project::discover(&repo).unwrap();
        let mut parent: Option<git_standards::repo::ObjectTree> = None;
        for n in (0..made).rev() {
            let rev = format!("HEAD~{n}");
            let listing = git_listing(&env, &repo, Some(&rev));
            // Lazily (nothing materialised: every answer by path lookup).
            let lazy = project.at_rev(&rev).unwrap();
            for (path, _, _) in &listing {
                prop_assert_eq!(kind(&lazy.node(path)), expected(&listing, path));
            }
            // Walked whole.
            let walked = project.at_rev(&rev).unwrap();
            walked.load().unwrap();
            agrees(&walked, &listing);
            // Derived from the parent's entries through the changed folders.
            let derived = project.at_rev(&rev).unwrap();
            if let Some(p) = &parent {
                derived.derive_from(p).unwrap();
            }
            agrees(&derived, &listing);
            prop_assert_eq!(derived.content_digest(), walked.content_digest());
            parent = Some(walked);
        }
        // The index, with a staged change on top.
        write(repo.join("src/staged.md"), "staged\n");
        env.git(&repo, &["add", "src/staged.md"]);
        agrees(&project.index().unwrap(), &git_listing(&env, &repo, None));
    }
}

/// The debug binary's count of files and blobs read (`files read: <n>`).
fn reads(stderr: &[u8]) -> usize {
    let err = String::from_utf8_lossy(stderr);
    err.lines()
        .find_map(|l| l.strip_prefix("files read: "))
        .unwrap_or_else(|| panic!("no count in {err}"))
        .parse()
        .unwrap()
}

/// Item 5: `hook pre-commit` decides from object IDs alone. With nothing
/// relevant staged it reads no blob, whether or not the index's cache-tree
/// is valid; a staged Markdown or `.standards/` change runs the check.
#[test]
fn the_pre_commit_fast_exit_reads_no_blob() {
    let (env, repo) = Env::repo();
    env.run(&repo, &["install"]).success();
    for d in 0..20 {
        for f in 0..10 {
            let ext = if f % 2 == 0 { "md" } else { "rs" };
            write(repo.join(format!("d{d}/f{f}.{ext}")), format!("{d} {f}\n"));
        }
    }
    env.commit_all(&repo, "files");
    let hook = |expect_code: i32| -> usize {
        let mut cmd = env.cmd(&repo);
        cmd.args(["hook", "pre-commit"])
            .env("GIT_STANDARDS_COUNT_READS", "1");
        let out = cmd.output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(expect_code),
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        reads(&out.stderr)
    };
    // Nothing staged at all.
    assert_eq!(hook(0), 0);
    // An unrelated file staged: the cache-tree is invalid on its way.
    write(repo.join("d3/f1.rs"), "changed\n");
    env.git(&repo, &["add", "d3/f1.rs"]);
    assert_eq!(hook(0), 0);
    // The same with a valid cache-tree (as `git commit` leaves it for its hooks).
    env.git(&repo, &["write-tree"]);
    assert_eq!(hook(0), 0);
    // A Markdown file staged with the very content HEAD has: still nothing to check.
    env.git(&repo, &["reset", "-q"]);
    write(repo.join("d4/f2.md"), "4 2\n");
    env.git(&repo, &["add", "d4/f2.md"]);
    assert_eq!(hook(0), 0);
    // A Markdown change staged: the check runs and reads.
    write(repo.join("d4/f2.md"), "changed\n");
    env.git(&repo, &["add", "d4/f2.md"]);
    assert!(hook(0) > 0);
    env.git(&repo, &["write-tree"]);
    assert!(hook(0) > 0);
    // A mode change of a Markdown file counts too.
    env.git(&repo, &["reset", "-q", "--hard"]);
    env.git(&repo, &["update-index", "--chmod=+x", "d5/f0.md"]);
    assert!(hook(0) > 0);
    // A staged `.standards/` change that breaks the protocol is refused.
    env.git(&repo, &["reset", "-q", "--hard"]);
    write(repo.join(".standards/MODE.md"), "not a mode\n");
    env.git(&repo, &["add", ".standards/MODE.md"]);
    env.git(&repo, &["write-tree"]);
    assert!(hook(1) > 0);
}

/// The installed hook through a real `git commit`: an unrelated commit
/// passes without a check; a staged breakage is refused, as before.
#[test]
fn a_commit_through_the_installed_hook() {
    let (env, repo) = Env::repo();
    env.run(&repo, &["install"]).success();
    env.commit_all(&repo, "installed");
    env.run(&repo, &["hooks", "install"]).success();
    let bin = Env::bin();
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let commit = |msg: &str| {
        let mut cmd = env.sealed("git", &repo);
        cmd.args(["commit", "-q", "-m", msg]).env("PATH", &path);
        cmd.output().unwrap()
    };
    write(repo.join("src/main.rs"), "fn main() {}\n");
    env.git(&repo, &["add", "src/main.rs"]);
    let out = commit("unrelated");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    write(repo.join(".standards/MODE.md"), "not a mode\n");
    env.git(&repo, &["add", ".standards/MODE.md"]);
    let out = commit("broken");
    assert_eq!(out.status.code(), Some(1));
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(text.contains("RT-005"), "{text}");
}

/// Item 4: `verify` shares the scan's verdicts by blob ID across commits. A
/// range whose every commit changes an unrelated Markdown file (so no
/// commit's verdict can be reused whole) still parses each unchanged record
/// once, and reads each blob once.
#[test]
fn verify_parses_an_unchanged_record_once_across_commits() {
    let (env, repo) = Env::repo();
    env.run(&repo, &["install"]).success();
    let records = 4;
    for r in 0..records {
        write(
            repo.join(format!("docs/rec{r}.md")),
            format!("<!-- STANDARDS\nArtifact: SCOPE\nCycle: c{r}\n-->\n# Record {r}\n"),
        );
    }
    env.commit_all(&repo, "records");
    let commits = 6;
    for c in 0..commits {
        write(repo.join("notes.md"), format!("note {c}\n"));
        env.commit_all(&repo, &format!("note {c}"));
    }
    let range = format!("HEAD~{commits}..HEAD");
    let mut cmd = env.cmd(&repo);
    cmd.args(["verify", "--format", "json", &range])
        .env("GIT_STANDARDS_COUNT_READS", "1");
    let out = cmd.output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    let parsed: usize = err
        .lines()
        .find_map(|l| l.strip_prefix("records parsed: "))
        .unwrap_or_else(|| panic!("no count in {err}"))
        .parse()
        .unwrap();
    assert_eq!(parsed, records, "{err}");
    // Every commit was checked (none reused whole): the notes differ.
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let checked = json["commits"].as_array().unwrap();
    assert_eq!(checked.len(), commits, "{json}");
    assert!(checked.iter().all(|c| c["reusedFrom"].is_null()), "{json}");
    // Blobs: the runtime files and records once, plus one note per commit.
    let read = reads(&out.stderr);
    let blobs = env
        .git(&repo, &["ls-tree", "-r", "HEAD"])
        .lines()
        .filter(|l| l.contains(" blob "))
        .count();
    assert!(
        read <= blobs + 2 * commits,
        "{read} reads for {blobs} blobs"
    );
}
