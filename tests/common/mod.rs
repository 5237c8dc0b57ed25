//! A sealed environment for driving the real binary against real git repositories.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

use assert_cmd::assert::Assert;
use assert_fs::TempDir;

/// A temporary folder with a sealed git configuration.
pub struct Env {
    pub dir: TempDir,
    home: PathBuf,
}

impl Env {
    pub fn new() -> Env {
        let dir = TempDir::new().expect("temp dir");
        let home = dir.path().join(".home");
        std::fs::create_dir_all(&home).unwrap();
        Env { dir, home }
    }

    /// A new repository at `<tmp>/repo` on branch `main`.
    pub fn repo() -> (Env, PathBuf) {
        let env = Env::new();
        let repo = env.dir.path().join("repo");
        std::fs::create_dir_all(&repo).unwrap();
        env.git(&repo, &["init", "-q", "-b", "main"]);
        (env, repo)
    }

    fn seal(&self, cmd: &mut Command) {
        for var in [
            "GIT_DIR",
            "GIT_WORK_TREE",
            "GIT_INDEX_FILE",
            "GIT_CEILING_DIRECTORIES",
            "NO_COLOR",
            "CLICOLOR",
            "CLICOLOR_FORCE",
            // On GitHub's runners `verify` would default to the github format
            // and append to the job's real step summary.
            "GITHUB_ACTIONS",
            "GITHUB_STEP_SUMMARY",
        ] {
            cmd.env_remove(var);
        }
        cmd.env("HOME", &self.home)
            .env("XDG_CONFIG_HOME", self.home.join(".config"))
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_SYSTEM", "/dev/null")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_AUTHOR_NAME", "Test Author")
            .env("GIT_AUTHOR_EMAIL", "author@example.com")
            .env("GIT_COMMITTER_NAME", "Test Committer")
            .env("GIT_COMMITTER_EMAIL", "committer@example.com")
            .env("GIT_AUTHOR_DATE", "2026-01-01T00:00:00Z")
            .env("GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z");
    }

    /// Runs `git` in `dir`; panics when it fails. Returns stdout.
    pub fn git(&self, dir: &Path, args: &[&str]) -> String {
        let mut cmd = Command::new("git");
        self.seal(&mut cmd);
        let out = cmd.current_dir(dir).args(args).output().expect("git runs");
        assert!(
            out.status.success(),
            "git {args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    }

    /// Runs `git` in `dir` without asserting success.
    pub fn git_status(&self, dir: &Path, args: &[&str]) -> std::process::Output {
        let mut cmd = Command::new("git");
        self.seal(&mut cmd);
        cmd.current_dir(dir).args(args).output().expect("git runs")
    }

    /// A bare repository `remote.git` beside the test's repositories, added
    /// to `repo` as `origin`; returns its path.
    pub fn bare_origin(&self, repo: &Path) -> PathBuf {
        let remote = self.dir.path().join("remote.git");
        self.git(
            self.dir.path(),
            &["init", "-q", "--bare", remote.to_str().unwrap()],
        );
        self.git(repo, &["remote", "add", "origin", remote.to_str().unwrap()]);
        remote
    }

    /// `git add -A && git commit -m <msg>`.
    pub fn commit_all(&self, dir: &Path, msg: &str) {
        self.git(dir, &["add", "-A"]);
        self.git(dir, &["commit", "-q", "--allow-empty", "-m", msg]);
    }

    /// The binary, sealed, started in `dir`.
    pub fn cmd(&self, dir: &Path) -> Command {
        let mut cmd = Command::new(assert_cmd::cargo::cargo_bin!("git-standards"));
        self.seal(&mut cmd);
        cmd.current_dir(dir);
        cmd
    }

    /// Any program, sealed like the binary, started in `dir`.
    pub fn sealed(&self, program: impl AsRef<std::ffi::OsStr>, dir: &Path) -> Command {
        let mut cmd = Command::new(program);
        self.seal(&mut cmd);
        cmd.current_dir(dir);
        cmd
    }

    /// The binary's path.
    pub fn bin() -> PathBuf {
        PathBuf::from(assert_cmd::cargo::cargo_bin!("git-standards"))
    }

    /// Runs the binary in `dir` with `args`.
    pub fn run(&self, dir: &Path, args: &[&str]) -> Assert {
        let mut cmd = self.cmd(dir);
        cmd.args(args);
        Assert::new(cmd.output().expect("binary runs"))
    }

    /// Runs the binary in `dir` with `args` and `input` on standard input
    /// (an agent client's hook payload).
    pub fn run_stdin(&self, dir: &Path, args: &[&str], input: &str) -> Assert {
        let mut cmd = self.cmd(dir);
        cmd.args(args);
        assert_cmd::Command::from_std(cmd)
            .write_stdin(input)
            .assert()
    }

    /// Dates every file of the working tree `dir` (not `.git`) long before
    /// any index written now: git then trusts their stat data (they are not
    /// racily clean), and so does the working-tree snapshot.
    pub fn backdate_files(&self, dir: &Path) {
        let o = self
            .sealed("sh", dir)
            .args([
                "-c",
                "find . -path ./.git -prune -o -type f -exec touch -d @1600000000 {} +",
            ])
            .output()
            .unwrap();
        assert!(o.status.success(), "{o:?}");
    }

    /// `check <args> --json` in `dir` with the read counter on: its problems
    /// and what it read.
    pub fn counted_check(&self, dir: &Path, args: &[&str]) -> (serde_json::Value, Reads) {
        let mut cmd = self.cmd(dir);
        cmd.arg("check")
            .args(args)
            .arg("--json")
            .env("GIT_STANDARDS_COUNT_READS", "1");
        let out = cmd.output().expect("binary runs");
        let stdout = String::from_utf8(out.stdout).unwrap();
        let reads = Reads::from_stderr(&String::from_utf8(out.stderr).unwrap());
        let v: serde_json::Value =
            serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {stdout}"));
        (v["problems"].clone(), reads)
    }
}

/// What a debug binary run with `GIT_STANDARDS_COUNT_READS` reported reading.
#[derive(Debug, Clone, Copy)]
pub struct Reads {
    /// Files and blobs.
    pub files: usize,
    /// Files read from the working tree.
    pub disk: usize,
}

impl Reads {
    pub fn from_stderr(stderr: &str) -> Reads {
        let count = |label: &str| -> usize {
            stderr
                .lines()
                .find_map(|l| l.strip_prefix(label))
                .unwrap_or_else(|| panic!("no `{label}` count in {stderr}"))
                .parse()
                .unwrap()
        };
        Reads {
            files: count("files read: "),
            disk: count("read from disk: "),
        }
    }
}

/// A small deterministic generator (xorshift): the same seed gives the same
/// sequence on every run, so a failure reproduces from its seed.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

pub fn read(path: impl AsRef<Path>) -> String {
    std::fs::read_to_string(path.as_ref())
        .unwrap_or_else(|e| panic!("{}: {e}", path.as_ref().display()))
}

pub fn write(path: impl AsRef<Path>, text: impl AsRef<[u8]>) {
    let path = path.as_ref();
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    std::fs::write(path, text).unwrap();
}

/// stdout of a finished command as text.
pub fn stdout(a: &Assert) -> String {
    String::from_utf8(a.get_output().stdout.clone()).unwrap()
}

pub fn stderr(a: &Assert) -> String {
    String::from_utf8(a.get_output().stderr.clone()).unwrap()
}

/// Every file below `root` (relative, sorted), skipping `.git`.
pub fn files_below(root: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let e = e.unwrap();
            let p = e.path();
            if e.file_name() == ".git" {
                continue;
            }
            if e.file_type().unwrap().is_dir() {
                stack.push(p);
            } else {
                out.push(
                    p.strip_prefix(root)
                        .unwrap()
                        .to_string_lossy()
                        .replace('\\', "/"),
                );
            }
        }
    }
    out.sort();
    out
}

/// Every file below `dir` by its `/`-separated path relative to `dir`, with
/// its bytes (empty when `dir` does not exist).
pub fn contents_below(dir: &Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    let mut out = std::collections::BTreeMap::new();
    if !dir.is_dir() {
        return out;
    }
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p
                    .strip_prefix(dir)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    out
}

/// Lays every file below `dir` over `tree`, at its path relative to `dir`
/// (nothing when `dir` does not exist).
pub fn overlay(tree: &mut standards_core::model::tree::MemTree, dir: &Path) {
    for (rel, bytes) in contents_below(dir) {
        tree.insert(&rel, bytes);
    }
}

/// An in-memory install of `mode` with the fixture base `fixtures/check/bases/<name>` laid over it.
pub fn base_tree(
    name: &str,
    mode: standards_core::model::vocab::ProjectMode,
) -> standards_core::model::tree::MemTree {
    let mut tree = standards_core::check::testing::installed_tree(mode);
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/check/bases")
        .join(name);
    assert!(dir.is_dir(), "no fixture base {name}");
    overlay(&mut tree, &dir);
    tree
}

/// `text` with the value of its first `name` field replaced by `value` (a
/// code span that reads back as exactly `value`).
pub fn set_field(text: &str, name: &str, value: &str) -> String {
    use standards_core::model::fields;
    let found = fields::scan(text);
    let f = fields::first(&found, name).unwrap_or_else(|| panic!("no `{name}` field in:\n{text}"));
    format!(
        "{}{}{}",
        &text[..f.span.start],
        fields::render_code_span(value),
        &text[f.span.end..]
    )
}

/// Splits at spaces, keeping `"double quoted"` words whole (quotes removed).
pub fn shell_words(command: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    for c in command.chars() {
        match c {
            '"' => quoted = !quoted,
            ' ' if !quoted => {
                if !word.is_empty() {
                    out.push(std::mem::take(&mut word));
                }
            }
            c => word.push(c),
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}
