//! Interrupted operations (D22): a command killed at any write step leaves a
//! journal; every writing command then refuses naming `git standards recover`,
//! which completes the operation or rolls it back.

use std::collections::BTreeMap;
use std::path::Path;

use crate::common::{stderr, stdout, write, Env};

/// Every file and folder below `root` with its bytes, `.git` excluded.
pub fn tree_bytes(root: &Path) -> BTreeMap<String, Option<Vec<u8>>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let e = e.unwrap();
            if e.file_name() == ".git" {
                continue;
            }
            let rel = e
                .path()
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            let kind = e.file_type().unwrap();
            if kind.is_symlink() {
                let target = std::fs::read_link(e.path()).unwrap();
                out.insert(
                    rel + " -> link",
                    Some(target.to_string_lossy().as_bytes().to_vec()),
                );
            } else if kind.is_dir() {
                out.insert(rel + "/", None);
                stack.push(e.path());
            } else {
                out.insert(rel, Some(std::fs::read(e.path()).unwrap()));
            }
        }
    }
    out
}

/// The failpoint names to try for a command: each point, and for the
/// per-step points each arrival up to `steps`.
pub fn arms(points: &[&str], steps: usize) -> Vec<String> {
    let mut out = Vec::new();
    for p in points {
        if p.ends_with(":step-applied")
            || p.ends_with(":step-recorded")
            || p.ends_with(":step-undone")
        {
            for n in 1..=steps {
                out.push(format!("{p}@{n}"));
            }
        } else {
            out.push(p.to_string());
        }
    }
    out
}

/// Runs the binary with a failpoint armed; returns whether it died there.
pub fn killed_at(env: &Env, dir: &Path, args: &[&str], point: &str) -> bool {
    let out = env
        .cmd(dir)
        .args(args)
        .env(git_standards::repo::failpoint::VARIABLE, point)
        .output()
        .unwrap();
    !out.status.success() && out.status.code().is_none()
}

#[test]
fn nothing_to_recover_is_not_an_error() {
    let (env, repo) = Env::repo();
    let a = env.run(&repo, &["recover"]).success();
    assert!(stderr(&a).contains("Nothing to recover"), "{}", stderr(&a));
}

#[test]
fn an_install_killed_at_any_step_is_refused_then_completed_or_rolled_back() {
    use git_standards::commands::install::FAILPOINTS;
    let (env, done) = Env::repo();
    write(done.join("README.md"), "# hello\n");
    env.run(&done, &["install"]).success();
    let installed = tree_bytes(&done);
    for point in arms(FAILPOINTS, 8) {
        for rollback in [false, true] {
            let (env, repo) = Env::repo();
            write(repo.join("README.md"), "# hello\n");
            let before = tree_bytes(&repo);
            assert!(killed_at(&env, &repo, &["install"], &point), "{point}");
            if repo.join(".git/standards/journal").exists() {
                let refusal = env.run(&repo, &["install"]).failure();
                assert!(
                    stderr(&refusal).contains("git standards recover"),
                    "{point}: {}",
                    stderr(&refusal)
                );
                let args: &[&str] = if rollback {
                    &["recover", "--rollback"]
                } else {
                    &["recover"]
                };
                let a = env.run(&repo, args).success();
                let said = stdout(&a);
                assert_eq!(
                    said.trim(),
                    if rollback { "rolled-back" } else { "completed" }
                );
                assert_eq!(
                    tree_bytes(&repo),
                    if rollback {
                        before.clone()
                    } else {
                        installed.clone()
                    },
                    "{point} rollback={rollback}"
                );
            } else {
                // Killed before the journal began (nothing written) or after it closed (all written).
                let now = tree_bytes(&repo);
                assert!(now == before || now == installed, "{point}: {now:?}");
            }
            assert!(!repo.join(".git/standards/journal").exists());
            env.run(&repo, &["install"]).success();
            assert_eq!(tree_bytes(&repo), installed, "{point}");
        }
    }
}

/// Copies a folder tree (a prepared repository) to `to`.
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        let kind = e.file_type().unwrap();
        if kind.is_dir() {
            copy_tree(&e.path(), &target);
        } else if kind.is_symlink() {
            #[cfg(unix)]
            std::os::unix::fs::symlink(std::fs::read_link(e.path()).unwrap(), &target).unwrap();
        } else {
            std::fs::copy(e.path(), &target).unwrap();
        }
    }
}

/// A small deterministic pseudo-random sequence (no dependency needed).
pub struct Lcg(pub u64);

impl Lcg {
    pub fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n.max(1)
    }
}

/// How one interrupted run ended up after `recover`.
#[derive(Debug, PartialEq, Eq)]
pub enum Ended {
    /// Nothing had changed (killed before the journal began, or rolled back).
    Before,
    /// The operation is complete (it finished, or recover completed it).
    After,
}

/// Kills `args` by the failpoint `point` or (with `None`) by SIGKILL after
/// `delay`, then recovers (rolling back when `rollback`), and says how it ended.
pub fn interrupt_and_recover(
    env: &Env,
    repo: &Path,
    args: &[&str],
    point: Option<&str>,
    delay: std::time::Duration,
    rollback: bool,
) -> (Ended, bool) {
    let check_refusal = point.is_some();
    match point {
        Some(p) => {
            killed_at(env, repo, args, p);
        }
        None => {
            let mut child = env
                .cmd(repo)
                .args(args)
                .env(git_standards::repo::journal::NO_FSYNC, "1")
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap();
            std::thread::sleep(delay);
            let _ = child.kill();
            let _ = child.wait();
        }
    }
    let journaled = repo.join(".git/standards/journal").exists();
    if journaled && check_refusal {
        let other = env.run(repo, &["install"]).failure();
        assert!(
            stderr(&other).contains("git standards recover"),
            "{}",
            stderr(&other)
        );
    }
    if journaled {
        let args: &[&str] = if rollback {
            &["recover", "--rollback"]
        } else {
            &["recover"]
        };
        let said = stdout(&env.run(repo, args).success());
        assert_eq!(
            said.trim(),
            if rollback { "rolled-back" } else { "completed" }
        );
        assert!(!repo.join(".git/standards/journal").exists());
        return (
            if rollback {
                Ended::Before
            } else {
                Ended::After
            },
            true,
        );
    }
    (Ended::After, false)
}

#[test]
fn every_writing_command_refuses_while_a_journal_is_pending() {
    let (env, repo) = Env::repo();
    env.run(&repo, &["install"]).success();
    write(repo.join(".standards/CONTEXT.md"), "ctx\n");
    assert!(killed_at(
        &env,
        &repo,
        &["reset", "--yes"],
        "reset:journal-begun"
    ));
    for args in [
        &["install"][..],
        &["reset", "--yes"],
        &["uninstall", "--yes"],
        &["artifact", "init", "scope"],
        &["archive", "restore", "x", "y"],
    ] {
        let a = env.run(&repo, args).failure();
        let err = stderr(&a);
        assert!(
            err.contains("interrupted `git standards reset`")
                && err.contains("git standards recover --rollback"),
            "{args:?}: {err}"
        );
    }
    env.run(&repo, &["recover"]).success();
    assert!(!repo.join(".standards/CONTEXT.md").exists());
}

/// A kill inside the ref update of `reset --commit` leaves git's
/// `refs/heads/main.lock`; `recover` breaks that stale lock (its owner is
/// dead) and completes, where it used to stop with an internal error.
#[test]
fn recover_breaks_a_ref_lock_left_by_the_killed_operation() {
    let (env, repo) = Env::repo();
    write(repo.join("src/app.py"), "print('hi')\n");
    env.run(&repo, &["install"]).success();
    write(repo.join(".standards/CONTEXT.md"), "# Project Context\n");
    env.commit_all(&repo, "install");
    assert!(killed_at(
        &env,
        &repo,
        &["reset", "--yes", "--commit"],
        "reset:journal-begun"
    ));
    let before = env.git(&repo, &["rev-parse", "HEAD"]);
    write(repo.join(".git/refs/heads/main.lock"), "");
    let a = env.run(&repo, &["recover"]).success();
    assert!(stdout(&a).contains("completed"), "{}", stderr(&a));
    assert!(!repo.join(".git/refs/heads/main.lock").exists());
    let after = env.git(&repo, &["rev-parse", "HEAD"]);
    assert_ne!(before, after, "the reset commit was made");
    let trailers = env.git(&repo, &["log", "-1", "--format=%B"]);
    assert!(trailers.contains("Standards-Reset:"), "{trailers}");
}

/// Issue 25, `--json` on every command: nothing to recover, a completed
/// recovery and the refusal outside a repository are each one JSON object on
/// stdout, with the text form's exit codes.
#[test]
fn json_reports_nothing_the_recovery_and_the_refusal() {
    let parse = |a: &assert_cmd::assert::Assert| -> serde_json::Value {
        serde_json::from_str(&stdout(a)).unwrap_or_else(|e| panic!("{e}: {}", stdout(a)))
    };
    let (env, repo) = Env::repo();
    let v = parse(&env.run(&repo, &["recover", "--json"]).success());
    assert_eq!(v["ok"], true);
    assert_eq!(v["outcome"], "nothing");
    assert!(v["operation"].is_null());

    env.run(&repo, &["install"]).success();
    write(repo.join(".standards/CONTEXT.md"), "ctx\n");
    assert!(killed_at(
        &env,
        &repo,
        &["reset", "--yes"],
        "reset:journal-begun"
    ));
    let v = parse(&env.run(&repo, &["recover", "--json"]).success());
    assert_eq!(v["ok"], true, "{v}");
    assert_eq!(v["command"], "recover");
    assert_eq!(v["outcome"], "completed");
    assert_eq!(v["operation"], "reset");
    assert!(v["steps"].as_u64().unwrap() >= 1, "{v}");
    assert!(!repo.join(".git/standards/journal").exists());
    assert!(!repo.join(".standards/CONTEXT.md").exists());

    let outside = repo.join("..").join("not-a-repo");
    std::fs::create_dir_all(&outside).unwrap();
    let text = env.run(&outside, &["recover"]).get_output().status.code();
    let a = env.run(&outside, &["recover", "--json"]);
    assert_eq!(a.get_output().status.code(), text);
    assert_ne!(text, Some(0));
    let v = parse(&a);
    assert_eq!(v["ok"], false);
    assert!(v["error"].as_str().is_some_and(|e| !e.is_empty()), "{v}");
    assert!(v.get("hint").is_some(), "{v}");
}

/// Issue 24: the journal's ref update waits for git's `<ref>.lock` through
/// gix's own lock (git's `core.filesRefLockTimeout` backoff) and never
/// breaks a lock outside `recover`: `reset --commit` against a held
/// `refs/heads/main.lock` refuses naming it, leaves it and HEAD as they
/// were; once the other git is done, the same command goes through.
#[test]
fn a_held_ref_lock_is_refused_and_left_to_its_owner() {
    let (env, repo) = Env::repo();
    write(repo.join("src/app.py"), "print('hi')\n");
    env.run(&repo, &["install"]).success();
    write(repo.join(".standards/CONTEXT.md"), "# Project Context\n");
    env.commit_all(&repo, "install");
    let before = env.git(&repo, &["rev-parse", "HEAD"]);
    write(repo.join(".git/refs/heads/main.lock"), "held");
    let a = env.run(&repo, &["reset", "--yes", "--commit"]).code(1);
    let err = stderr(&a);
    assert!(err.contains("refs/heads/main.lock` exists"), "{err}");
    assert_eq!(
        std::fs::read_to_string(repo.join(".git/refs/heads/main.lock")).unwrap(),
        "held",
        "a lock is never broken outside recover"
    );
    assert_eq!(env.git(&repo, &["rev-parse", "HEAD"]), before);
    std::fs::remove_file(repo.join(".git/refs/heads/main.lock")).unwrap();
    let a = env.run(&repo, &["reset", "--yes", "--commit"]).success();
    assert_ne!(
        env.git(&repo, &["rev-parse", "HEAD"]),
        before,
        "{}",
        stderr(&a)
    );
    let trailers = env.git(&repo, &["log", "-1", "--format=%B"]);
    assert!(trailers.contains("Standards-Reset:"), "{trailers}");
}
