//! Installed STANDARDS projects for the runtime-tool tests: the shared
//! fixtures of `shared/spec/scenarios.md` §0.2 (P-BROWN, P-GREEN, +git,
//! startCycle, init) driven through the real binary.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use assert_cmd::assert::Assert;

use crate::common::{read, stderr, stdout, write, Env};

pub const STATE: &str = ".standards/STATE.md";

/// A temporary git repository with STANDARDS installed.
pub struct Project {
    pub env: Env,
    pub root: PathBuf,
}

/// `true` when `id` has the generated form `<slug>-<YYYYMMDD>T<HHMMSS>Z-<8 hex>`.
pub fn is_generated(id: &str) -> bool {
    standards_core::model::cycle_id::is_generated(id)
}

pub use crate::common::set_field;

impl Project {
    /// P-BROWN: `app.py` plus an install (BROWNFIELD, AUDITING).
    pub fn brown() -> Project {
        let (env, root) = Env::repo();
        write(root.join("app.py"), "print(\"hi\")\n");
        env.run(&root, &["install"]).success();
        Project { env, root }
    }

    /// P-GREEN: an install into an empty repository (GREENFIELD, SCOPING).
    pub fn green() -> Project {
        let (env, root) = Env::repo();
        env.run(&root, &["install"]).success();
        Project { env, root }
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.root.join(rel)
    }

    /// Runs the binary at the project root.
    pub fn run(&self, args: &[&str]) -> Assert {
        self.env.run(&self.root, args)
    }

    /// Runs the binary in `dir`.
    pub fn run_in(&self, dir: &Path, args: &[&str]) -> Assert {
        self.env.run(dir, args)
    }

    /// Runs a command that must succeed and print exactly one line; returns it.
    pub fn line(&self, args: &[&str]) -> String {
        let a = self.run(args);
        let out = stdout(&a);
        assert!(
            a.get_output().status.success(),
            "{args:?} failed: {}",
            stderr(&a)
        );
        assert!(
            stderr(&a).is_empty(),
            "{args:?} wrote to stderr: {}",
            stderr(&a)
        );
        assert!(
            out.ends_with('\n') && out.matches('\n').count() == 1,
            "{args:?} must print one line, printed {out:?}"
        );
        out.trim_end().to_string()
    }

    /// Runs a command that must be refused (exit 1); returns stderr.
    pub fn refused(&self, args: &[&str]) -> String {
        let a = self.run(args).code(1);
        assert!(stdout(&a).is_empty(), "a refusal prints nothing on stdout");
        let err = stderr(&a);
        assert!(err.starts_with("error: "), "{err}");
        err
    }

    /// Runs a command that must be a usage error (exit 2); returns stderr.
    pub fn usage_error(&self, args: &[&str]) -> String {
        let a = self.run(args).code(2);
        assert!(stdout(&a).is_empty());
        stderr(&a)
    }

    pub fn read(&self, rel: &str) -> String {
        read(self.path(rel))
    }

    pub fn write(&self, rel: &str, text: impl AsRef<[u8]>) {
        write(self.path(rel), text)
    }

    pub fn append(&self, rel: &str, text: &str) {
        let mut all = self.read(rel);
        all.push_str(text);
        self.write(rel, all);
    }

    pub fn state(&self) -> String {
        self.read(STATE)
    }

    /// Sets fields of STATE.md, in order.
    pub fn set_state(&self, fields: &[(&str, &str)]) {
        let mut text = self.state();
        for (name, value) in fields {
            text = set_field(&text, name, value);
        }
        self.write(STATE, text);
    }

    /// Sets a field of any file.
    pub fn set(&self, rel: &str, name: &str, value: &str) {
        let text = set_field(&self.read(rel), name, value);
        self.write(rel, text);
    }

    /// startCycle(state, mode, policy): a new ID recorded in STATE.md with the
    /// request `Add user search`. Returns the ID.
    pub fn start_cycle(&self, state: &str, mode: &str, policy: &str) -> String {
        self.start_cycle_for("Add user search", state, mode, policy)
    }

    pub fn start_cycle_for(&self, request: &str, state: &str, mode: &str, policy: &str) -> String {
        let id = self.line(&["cycle", "new", "--request", request]);
        assert!(is_generated(&id), "{id}");
        let policy = if mode == "STANDARD" { policy } else { "NONE" };
        self.set_state(&[
            ("Id", &id),
            ("Request", request),
            ("CycleMode", mode),
            ("CompletionPolicy", policy),
            ("WorkflowState", state),
        ]);
        id
    }

    /// init(TYPE [--kind K]): must succeed; returns the printed path.
    pub fn init(&self, args: &[&str]) -> String {
        let mut all = vec!["artifact", "init"];
        all.extend_from_slice(args);
        let a = self.run(&all).success();
        // stdout is the path alone; stderr may name the fields to fill next.
        let out = stdout(&a);
        assert!(
            out.ends_with('\n') && out.matches('\n').count() == 1,
            "{all:?} must print one line, printed {out:?}"
        );
        let err = stderr(&a);
        assert!(
            err.is_empty() || (err.starts_with("Next: ") && err.matches('\n').count() == 1),
            "{all:?} wrote to stderr: {err}"
        );
        let path = out.trim_end().to_string();
        assert!(self.path(&path).is_file(), "{path} was not created");
        path
    }

    /// `git add -A && git commit`.
    pub fn commit(&self, msg: &str) {
        self.env.commit_all(&self.root, msg);
    }

    /// Every file below the project (including empty folders, marked with a
    /// trailing `/`) with its bytes, `.git` excluded: to prove nothing changed.
    pub fn snapshot(&self) -> Vec<(String, Vec<u8>)> {
        snapshot(&self.root)
    }
}

/// Every entry below `dir` with its bytes (`.git` skipped; folders end in `/`,
/// symbolic links are listed with their target).
pub fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let e = e.unwrap();
            if e.file_name() == ".git" {
                continue;
            }
            let p = e.path();
            let rel = p.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
            let kind = e.file_type().unwrap();
            if kind.is_symlink() {
                let target = std::fs::read_link(&p).unwrap();
                out.push((
                    format!("{rel}@"),
                    target.to_string_lossy().as_bytes().to_vec(),
                ));
            } else if kind.is_dir() {
                out.push((format!("{rel}/"), Vec::new()));
                stack.push(p);
            } else {
                out.push((rel, std::fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}
