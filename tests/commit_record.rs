//! Issue 27, item 5: the pre-commit hook records the `git commit` it passed
//! (`<git dir>/standards/pre-commit`: the process ID and start time of that
//! `git commit`, HEAD's commit and branch), and the reference-transaction
//! hook that the same process runs passes its branch update from that
//! record, without a `git rev-parse` or the binary. Real `git` runs the
//! hooks `git standards hooks install` writes; a wrapper on PATH logs every
//! start of the binary, so each test sees which path decided. A record that
//! belongs to another process (a finished commit's, a hand edit, a process
//! the commit started, a second worktree's) must move nothing the guard
//! refuses.

use std::path::{Path, PathBuf};

use crate::common::{read, write, Env};
use crate::hooks::{bin_dir, git_with_first_on_path, said};
use crate::merge_guard::signed_off;

/// A brownfield install on `main` with the default hooks installed and
/// committed, and a logging `git-standards` first on PATH.
struct Setup {
    env: Env,
    repo: PathBuf,
    wrapper: PathBuf,
}

impl Setup {
    fn new() -> Setup {
        let (env, repo) = Env::repo();
        let wrapper = env.dir.path().join("wrapper");
        std::fs::create_dir_all(&wrapper).unwrap();
        let script = wrapper.join("git-standards");
        write(
            &script,
            format!(
                "#!/bin/sh\nprintf '%s\\n' \"$*\" >>'{}'\nexec '{}' \"$@\"\n",
                wrapper.join("log").display(),
                bin_dir().join("git-standards").display()
            ),
        );
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        let s = Setup { env, repo, wrapper };
        write(s.repo.join("app.py"), "print(\"hi\")\n");
        s.env.run(&s.repo, &["install"]).success();
        s.env.run(&s.repo, &["hooks", "install"]).success();
        s.ok(&s.repo, &["add", "-A"]);
        s.ok(&s.repo, &["commit", "-q", "-m", "install"]);
        s
    }

    fn git(&self, dir: &Path, args: &[&str]) -> std::process::Output {
        git_with_first_on_path(&self.env, dir, &self.wrapper, args)
    }

    fn ok(&self, dir: &Path, args: &[&str]) {
        let out = self.git(dir, args);
        assert!(out.status.success(), "git {args:?}:\n{}", said(&out));
    }

    /// The guard refuses: the command fails, says so, and `main` stays.
    fn refused(&self, dir: &Path, args: &[&str]) {
        let before = self.tip("main");
        let out = self.git(dir, args);
        assert!(
            !out.status.success(),
            "git {args:?} must be refused:\n{}",
            said(&out)
        );
        assert!(
            said(&out).contains("may not merge into `main`"),
            "git {args:?}:\n{}",
            said(&out)
        );
        assert_eq!(self.tip("main"), before, "git {args:?} moved main");
    }

    fn tip(&self, rev: &str) -> String {
        self.env
            .git(&self.repo, &["rev-parse", rev])
            .trim()
            .to_string()
    }

    /// The binary's starts since the last call (their arguments).
    fn starts(&self) -> Vec<String> {
        let log = self.wrapper.join("log");
        let text = std::fs::read_to_string(&log).unwrap_or_default();
        let _ = std::fs::remove_file(&log);
        text.lines().map(str::to_string).collect()
    }

    /// `feature`: a signed-off cycle two commits on top of `main`, which
    /// then moves on.
    fn unreset_feature(&self) {
        let repo = &self.repo;
        self.ok(repo, &["checkout", "-q", "-b", "feature"]);
        let state = read(repo.join(".standards/STATE.md"));
        write(repo.join(".standards/STATE.md"), signed_off(&state));
        write(repo.join("app.py"), "print(\"login\")\n");
        self.ok(repo, &["add", "-A"]);
        self.ok(repo, &["commit", "-q", "-m", "login, signed off"]);
        // A second commit: neither a child nor a sibling of main's tip
        // (the guard passes those as a commit or an amend of main).
        write(repo.join("app.py"), "print(\"login 2\")\n");
        self.ok(repo, &["commit", "-q", "-am", "login 2"]);
        self.ok(repo, &["checkout", "-q", "main"]);
        write(repo.join("README.txt"), "main moves on\n");
        self.ok(repo, &["add", "-A"]);
        self.ok(repo, &["commit", "-q", "-m", "main moves on"]);
    }
}

/// The record's four fields.
fn record(git_dir: &Path) -> Vec<String> {
    read(git_dir.join("standards/pre-commit"))
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

/// Field 22 of `/proc/<pid>/stat`, if that process exists.
fn start_of(pid: &str) -> Option<String> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let (_, rest) = stat.rsplit_once(") ")?;
    rest.split_whitespace().nth(19).map(str::to_string)
}

fn only_pre_commit(starts: &[String], what: &str) {
    assert!(
        !starts.is_empty(),
        "{what}: the pre-commit hook did not run"
    );
    assert!(
        starts.iter().all(|s| s.starts_with("hook pre-commit")),
        "{what}: the binary started for more than the pre-commit hook: {starts:?}"
    );
}

#[test]
fn plain_commits_and_amends_pass_on_the_pre_commit_record_alone() {
    let s = Setup::new();
    let git_dir = s.repo.join(".git");
    s.starts();
    let before = s.tip("HEAD");
    write(s.repo.join("app.py"), "print(\"more\")\n");
    s.ok(&s.repo, &["commit", "-q", "-am", "more"]);
    only_pre_commit(&s.starts(), "a plain commit");
    let fields = record(&git_dir);
    assert_eq!(fields.len(), 4, "{fields:?}");
    assert_eq!(fields[2], before, "the record holds HEAD before the commit");
    assert_eq!(fields[3], "main");
    // The commit that wrote it is gone: the record is stale from now on.
    assert_ne!(start_of(&fields[0]), Some(fields[1].clone()));

    // An amend: the rev-parse shortcut cannot pass it (its parent is not
    // the old tip), so only the record spares the binary.
    s.ok(&s.repo, &["commit", "-q", "--amend", "-m", "more, amended"]);
    only_pre_commit(&s.starts(), "an amend");
    assert_eq!(
        s.env.git(&s.repo, &["log", "-1", "--format=%s"]).trim(),
        "more, amended"
    );

    // Without the pre-commit hook (`--no-verify`) there is no record for
    // that commit: the binary judges the amend, and passes it.
    s.ok(
        &s.repo,
        &["commit", "-q", "--amend", "--no-verify", "-m", "again"],
    );
    let starts = s.starts();
    assert!(
        starts.iter().any(|l| l.starts_with("merge-guard")),
        "{starts:?}"
    );
    assert_eq!(
        s.env.git(&s.repo, &["log", "-1", "--format=%s"]).trim(),
        "again"
    );

    // A cycle committed on main (a `.standards/` change) passes the same way.
    let state = read(s.repo.join(".standards/STATE.md"));
    write(s.repo.join(".standards/STATE.md"), signed_off(&state));
    s.ok(&s.repo, &["add", "-A"]);
    s.ok(&s.repo, &["commit", "-q", "-m", "cycle on main"]);
    only_pre_commit(&s.starts(), "a cycle committed on main");
}

#[test]
fn a_linked_worktree_keeps_its_own_record() {
    let s = Setup::new();
    let other = s.env.dir.path().join("other");
    s.ok(
        &s.repo,
        &[
            "worktree",
            "add",
            "-q",
            "-b",
            "topic",
            other.to_str().unwrap(),
        ],
    );
    s.starts();
    // The first commit (HEAD unborn) left none: nothing to pass from.
    let main_record = s.repo.join(".git/standards/pre-commit");
    assert!(!main_record.exists());
    write(other.join("lib.py"), "x = 1\n");
    s.ok(&other, &["add", "lib.py"]);
    s.ok(&other, &["commit", "-q", "-m", "lib"]);
    s.ok(&other, &["commit", "-q", "--amend", "-m", "lib, amended"]);
    only_pre_commit(&s.starts(), "commits in a linked worktree");
    let own = s.repo.join(".git/worktrees/other");
    assert_eq!(record(&own)[3], "topic");
    assert!(!main_record.exists());
    // main's worktree commits next, with its own record.
    write(s.repo.join("app.py"), "print(\"main\")\n");
    s.ok(&s.repo, &["commit", "-q", "-am", "main"]);
    only_pre_commit(&s.starts(), "a commit in the main worktree");
    assert_eq!(record(&s.repo.join(".git"))[3], "main");
    assert_eq!(record(&own)[3], "topic");
    // `hooks uninstall` takes this worktree's record away with the hooks.
    s.env.run(&s.repo, &["hooks", "uninstall"]).success();
    assert!(!main_record.exists());
}

#[test]
fn a_record_of_another_process_moves_no_branch() {
    let s = Setup::new();
    s.unreset_feature();
    let git_dir = s.repo.join(".git");
    let feature = s.tip("feature");
    let main = s.tip("main");

    // The finished commit's record, edited to name main's tip: stale.
    let stale = record(&git_dir);
    write(
        git_dir.join("standards/pre-commit"),
        format!("{} {} {main} main\n", stale[0], stale[1]),
    );
    s.refused(&s.repo, &["update-ref", "refs/heads/main", &feature]);
    s.refused(&s.repo, &["reset", "-q", "--hard", "feature"]);
    s.ok(&s.repo, &["reset", "-q", "--hard", "main"]);

    // A record naming a live process that is not the one moving the branch
    // (this test's own process, with its real start time).
    let me = std::process::id().to_string();
    let start = start_of(&me).unwrap();
    write(
        git_dir.join("standards/pre-commit"),
        format!("{me} {start} {main} main\n"),
    );
    s.refused(&s.repo, &["update-ref", "refs/heads/main", &feature]);
    s.refused(&s.repo, &["reset", "-q", "--hard", "feature"]);
    s.ok(&s.repo, &["reset", "-q", "--hard", "main"]);
    s.ok(&s.repo, &["checkout", "-q", "feature"]);
    s.refused(&s.repo, &["branch", "-f", "main", "feature"]);
    s.ok(&s.repo, &["checkout", "-q", "main"]);

    // Inside a commit whose pre-commit passed (so its record is current), a
    // process the commit starts (a commit-msg hook) moves main: it is not
    // the commit, so the guard judges the move and refuses it.
    let hook = git_dir.join("hooks/commit-msg");
    write(
        &hook,
        format!("#!/bin/sh\nexec git update-ref refs/heads/main {feature}\n"),
    );
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755)).unwrap();
    write(s.repo.join("app.py"), "print(\"during\")\n");
    s.refused(&s.repo, &["commit", "-q", "-am", "during"]);
    std::fs::remove_file(&hook).unwrap();
    s.ok(&s.repo, &["reset", "-q", "--hard", "main"]);

    // The doors that name an action are judged whatever the record says.
    s.refused(&s.repo, &["merge", "-q", "--no-ff", "-m", "m", "feature"]);
    let _ = s.git(&s.repo, &["merge", "--abort"]);
    s.ok(&s.repo, &["reset", "-q", "--hard", "main"]);
    s.refused(&s.repo, &["cherry-pick", "feature~1"]);
    let _ = s.git(&s.repo, &["cherry-pick", "--abort"]);
    s.ok(&s.repo, &["reset", "-q", "--hard", "main"]);
    s.ok(&s.repo, &["merge", "-q", "--squash", "feature"]);
    s.refused(&s.repo, &["commit", "-q", "-m", "squash"]);
    s.ok(&s.repo, &["reset", "-q", "--hard", "main"]);
    assert_eq!(s.tip("main"), main);
}

/// A commit one step ahead of `main` (a child of its tip) or beside it (a
/// sibling, as an amend looks) that another branch already holds is
/// arriving history, not a commit `git commit` just made: moving `main` to
/// it with `git branch -f`, `git reset --hard`, `git update-ref` or a push is judged by the guard like a fast-forward, with or without a
/// pre-commit record. A commit made with `--no-verify` (no record) still
/// passes as a plain commit.
#[test]
fn a_child_or_sibling_of_main_taken_from_another_branch_is_judged() {
    let s = Setup::new();
    let repo = &s.repo;
    write(repo.join("README.txt"), "main moves on\n");
    s.ok(repo, &["add", "-A"]);
    s.ok(repo, &["commit", "-q", "-m", "main moves on"]);
    let main = s.tip("main");
    // child: one commit on top of main, a signed-off cycle (never reset).
    s.ok(repo, &["checkout", "-q", "-b", "child"]);
    let state = read(repo.join(".standards/STATE.md"));
    write(repo.join(".standards/STATE.md"), signed_off(&state));
    write(repo.join("app.py"), "print(\"child\")\n");
    s.ok(repo, &["add", "-A"]);
    s.ok(repo, &["commit", "-q", "-m", "child, signed off"]);
    // sibling: the same on main's parent, so it looks like an amend of main.
    s.ok(repo, &["checkout", "-q", "-b", "sibling", "main~1"]);
    let state = read(repo.join(".standards/STATE.md"));
    write(repo.join(".standards/STATE.md"), signed_off(&state));
    s.ok(repo, &["add", "-A"]);
    s.ok(repo, &["commit", "-q", "-m", "sibling, signed off"]);
    let child = s.tip("child");
    let sibling = s.tip("sibling");
    assert_eq!(s.tip("child~1"), main);
    assert_eq!(s.tip("sibling~1"), s.tip("main~1"));

    // main not checked out.
    s.refused(repo, &["branch", "-f", "main", "child"]);
    s.refused(repo, &["branch", "-f", "main", "sibling"]);
    s.refused(repo, &["update-ref", "refs/heads/main", &child]);
    // A push runs the hook in the git folder with `GIT_DIR=.`: the guard
    // opens the repository there, refuses main and lets another branch be.
    s.refused(repo, &["push", "-q", ".", "child:main"]);
    s.ok(repo, &["push", "-q", ".", "child:elsewhere"]);
    assert_eq!(s.tip("elsewhere"), child);
    // The same from a clone: the pushed objects wait in git's quarantine.
    let clone = s.env.dir.path().join("clone");
    s.ok(
        repo,
        &[
            "clone",
            "-q",
            repo.to_str().unwrap(),
            clone.to_str().unwrap(),
        ],
    );
    s.ok(&clone, &["checkout", "-q", "-b", "more", "origin/child"]);
    write(clone.join("app.py"), "print(\"more\")\n");
    s.ok(&clone, &["commit", "-q", "--no-verify", "-am", "more"]);
    s.refused(&clone, &["push", "-q", "origin", "more:main"]);
    s.ok(&clone, &["push", "-q", "origin", "more:more"]);
    // main checked out, with a fresh pre-commit record of a finished commit.
    s.ok(repo, &["checkout", "-q", "main"]);
    for target in [&child, &sibling] {
        s.refused(repo, &["reset", "-q", "--hard", target]);
        s.ok(repo, &["reset", "-q", "--hard", &main]);
        s.refused(repo, &["update-ref", "refs/heads/main", target]);
    }
    // Only a remote-tracking branch holds it (the local branch is gone).
    s.ok(repo, &["update-ref", "refs/remotes/origin/child", &child]);
    s.ok(repo, &["branch", "-q", "-D", "child"]);
    s.refused(repo, &["reset", "-q", "--hard", &child]);
    s.ok(repo, &["reset", "-q", "--hard", &main]);
    assert_eq!(s.tip("main"), main);

    // A commit of main's own made without the pre-commit hook passes: no
    // other ref holds it.
    write(repo.join("app.py"), "print(\"quick fix\")\n");
    s.ok(repo, &["commit", "-q", "--no-verify", "-am", "quick fix"]);
    assert_eq!(s.tip("main~1"), main);
    s.ok(
        repo,
        &[
            "commit",
            "-q",
            "--no-verify",
            "--amend",
            "-m",
            "quick fix, reworded",
        ],
    );
    assert_eq!(s.tip("main~1"), main);
}
