//! Benchmark: `git standards board --json` at 100 branches against git's
//! floor for the same data.
//!
//! Run with `cargo bench --bench board` (`BENCH_ROUNDS=9` for more rounds,
//! `BENCH_BRANCHES=200` for another count, `BENCH_KEEP=1` to keep the
//! repository and print its path).
//!
//! It generates a medium repository (the runtime installed, 2,000 unrelated
//! files, one commit) and 100 branches off main written with
//! `git fast-import`: a fifth with no cycle (reset, only code changed), a
//! fifth signed off, the rest with an active cycle at states spread over the
//! workflow. Every branch changes two code files picked so that some pairs
//! overlap, and a branch in a cycle has its own STATE.md while every other
//! `.standards/` blob is main's, as on real branches.
//!
//! The floor is git reading the same refs and files, as shell commands:
//! `git for-each-ref --format='%(objectname) %(refname)' refs/heads refs/remotes`
//! then `git cat-file --batch` fed the blob ids of every branch's
//! `.standards/` files (one line per branch and file, shared blobs repeated),
//! the list computed once beforehand with `git ls-tree -r`.
//!
//! Cases run interleaved, once per round, and the table prints medians.
//! Warm rows skip a first, uncounted round. Cold rows drop the page cache
//! (`sync; echo 3 > /proc/sys/vm/drop_caches`) before every run, when this
//! process may; otherwise the output says so and shows warm rows only.
//!
//! The binary is called by path; when it has no `board` subcommand the bench
//! says so and exits 0.
//!
//! `sealed` and `median` are copies of the same helpers in `benches/floor.rs`
//! (each bench is its own crate, with no shared module).

use std::ffi::OsStr;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_git-standards");
const FILES: usize = 2_000;

/// A command run with a sealed git environment (no user or system config).
fn sealed(program: impl AsRef<OsStr>, root: &Path) -> Command {
    let mut c = Command::new(program);
    c.current_dir(root)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_SYSTEM", "/dev/null")
        .env("GIT_AUTHOR_NAME", "Bench")
        .env("GIT_AUTHOR_EMAIL", "bench@example.com")
        .env("GIT_COMMITTER_NAME", "Bench")
        .env("GIT_COMMITTER_EMAIL", "bench@example.com")
        .env("NO_COLOR", "1")
        .env("LC_ALL", "C");
    c
}

fn git(root: &Path, args: &[&str]) -> Vec<u8> {
    let out = sealed("git", root)
        .args(args)
        .stderr(Stdio::inherit())
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?} failed");
    out.stdout
}

fn tool(root: &Path, args: &[&str]) -> std::process::Output {
    sealed(BIN, root)
        .args(args)
        .output()
        .expect("the binary runs")
}

/// Unrelated code file `i`, at `version`.
fn code(i: usize, version: usize) -> (String, String) {
    let mut text = format!("// file {i}, version {version}\n");
    for l in 0..(10 + i % 30) {
        let _ = writeln!(text, "pub fn item_{l}() -> usize {{ {l} * {i} }}");
    }
    (format!("src/d{:02}/f{i}.rs", i % 40), text)
}

fn data(stream: &mut Vec<u8>, path: &str, text: &[u8]) {
    let _ = write!(stream, "M 100644 inline {path}\ndata {}\n", text.len());
    stream.extend_from_slice(text);
    stream.push(b'\n');
}

const STATES: &[&str] = &[
    "AUDITING",
    "ARCHITECTING",
    "DEVELOPING",
    "TESTING",
    "REVIEWING_IMPLEMENTATION",
    "DOCUMENTING",
    "REVIEWING_FINAL",
    "AWAITING_USER_SIGNOFF",
];

/// Generates main and `branches` branches; returns the repository.
fn generate(branches: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    git(root, &["init", "-q", "-b", "main"]);
    let install = tool(root, &["install", "--mode", "brownfield"]);
    assert!(install.status.success(), "git standards install failed");
    for i in 0..FILES {
        let (path, text) = code(i, 0);
        std::fs::create_dir_all(root.join(&path).parent().unwrap()).unwrap();
        std::fs::write(root.join(path), text).unwrap();
    }
    git(root, &["add", "-A"]);
    git(root, &["commit", "-q", "-m", "install and code"]);
    // One real cycle start gives the STATE.md every cycle branch varies.
    let start = tool(root, &["start", "--request", "Bench feature 0"]);
    assert!(start.status.success(), "git standards start failed");
    let active = std::fs::read_to_string(root.join(".standards/STATE.md")).unwrap();
    git(root, &["checkout", "-q", "--", "."]);
    git(root, &["clean", "-q", "-fd"]);
    let id_at = active.find("`Id`: `").expect("an Id field") + 7;
    let id = &active[id_at..id_at + active[id_at..].find('`').unwrap()];
    let started = active
        .lines()
        .find(|l| l.starts_with("`WorkflowState`: `"))
        .expect("a WorkflowState line")
        .to_string();

    let mut stream = Vec::new();
    let time = 1_764_600_000u64;
    for b in 0..branches {
        let name = format!("refs/heads/bench/b{b:03}");
        let _ = write!(
            stream,
            "commit {name}\ncommitter Bench <bench@example.com> {} +0000\ndata 13\nbench branch\nfrom refs/heads/main^0\n",
            time + b as u64 * 60
        );
        for i in [(b * 7) % FILES, (b * 13 + 5) % 97] {
            let (path, text) = code(i, 1 + b);
            data(&mut stream, &path, text.as_bytes());
        }
        let state = match b % 5 {
            0 => None,
            1 => Some("SIGNED_OFF"),
            _ => Some(STATES[b % STATES.len()]),
        };
        if let Some(state) = state {
            let text = active
                .replace(
                    &started,
                    &started.replacen(started.split('`').nth(3).unwrap(), state, 1),
                )
                .replace("Bench feature 0", &format!("Bench feature {b}"))
                .replace(
                    id,
                    &id.replace("bench-feature-0", &format!("bench-feature-{b}")),
                );
            data(&mut stream, ".standards/STATE.md", text.as_bytes());
        }
    }
    let mut child = sealed("git", root)
        .args(["fast-import", "--quiet"])
        .stdin(Stdio::piped())
        .spawn()
        .expect("fast-import runs");
    child.stdin.take().unwrap().write_all(&stream).unwrap();
    assert!(child.wait().unwrap().success(), "fast-import failed");
    dir
}

/// The blob ids of every branch's `.standards/` files, one line each.
fn floor_list(root: &Path) -> (String, usize) {
    let refs = String::from_utf8(git(
        root,
        &[
            "for-each-ref",
            "--format=%(refname)",
            "refs/heads",
            "refs/remotes",
        ],
    ))
    .unwrap();
    let mut list = String::new();
    let mut unique = std::collections::BTreeSet::new();
    for r in refs.lines() {
        let tree = String::from_utf8(git(root, &["ls-tree", "-r", r, "--", ".standards"])).unwrap();
        for line in tree.lines() {
            if let Some(id) = line.split_whitespace().nth(2) {
                list.push_str(id);
                list.push('\n');
                unique.insert(id.to_string());
            }
        }
    }
    (list, unique.len())
}

const FLOOR: &str = "git for-each-ref --format='%(objectname) %(refname)' refs/heads refs/remotes \
                     >/dev/null && git cat-file --batch <.git/bench-floor-list >/dev/null";

#[derive(Clone, Copy, PartialEq, Debug)]
enum Case {
    Floor,
    BoardNoPairs,
    BoardPairs,
}

const CASES: &[Case] = &[Case::Floor, Case::BoardNoPairs, Case::BoardPairs];

fn command(case: Case, root: &Path) -> Command {
    match case {
        Case::Floor => {
            let mut c = sealed("sh", root);
            c.args(["-c", FLOOR]);
            c
        }
        Case::BoardNoPairs => {
            let mut c = sealed(BIN, root);
            c.args(["board", "--json", "--max-pairs", "0"]);
            c
        }
        Case::BoardPairs => {
            let mut c = sealed(BIN, root);
            c.args(["board", "--json"]);
            c
        }
    }
}

/// One run: wall time and exit code.
fn run(case: Case, root: &Path) -> (Duration, i32) {
    let mut cmd = command(case, root);
    cmd.stdout(Stdio::null()).stderr(Stdio::null());
    let start = Instant::now();
    let status = cmd.status().expect("the case runs");
    (start.elapsed(), status.code().unwrap_or(-1))
}

/// Drops the page cache; false when this process may not.
fn drop_caches() -> bool {
    let _ = Command::new("sync").status();
    std::fs::write("/proc/sys/vm/drop_caches", "3\n").is_ok()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn main() {
    let rounds: usize = std::env::var("BENCH_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(5)
        .max(1);
    let branches: usize = std::env::var("BENCH_BRANCHES")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(100);
    let probe = tempfile::tempdir().unwrap();
    let help = tool(probe.path(), &["board", "--help"]);
    if !help.status.success() {
        println!(
            "skipped: {BIN} has no `board` subcommand (`board --help` exited {:?}); \
             build a binary with it to run this benchmark",
            help.status.code()
        );
        return;
    }
    let started = Instant::now();
    let repo = generate(branches);
    let (_guard, root) = if std::env::var_os("BENCH_KEEP").is_some() {
        let path = repo.keep();
        eprintln!("kept the repository at {}", path.display());
        (None, path)
    } else {
        let path = repo.path().to_path_buf();
        (Some(repo), path)
    };
    let root = root.as_path();
    let (list, unique) = floor_list(root);
    std::fs::write(root.join(".git/bench-floor-list"), &list).unwrap();
    eprintln!(
        "generated {branches} branches in {:.1} s; the floor reads {} blob lines ({unique} distinct)",
        started.elapsed().as_secs_f64(),
        list.lines().count()
    );

    // Cold: the page cache dropped before every run, when permitted.
    let cold_ok = drop_caches();
    let mut cold: Vec<Vec<(Duration, i32)>> = vec![Vec::new(); CASES.len()];
    if cold_ok {
        for _ in 0..rounds {
            for (n, &case) in CASES.iter().enumerate() {
                drop_caches();
                cold[n].push(run(case, root));
            }
        }
    }
    // Warm: round 0 fills the caches and is not counted.
    let mut warm: Vec<Vec<(Duration, i32)>> = vec![Vec::new(); CASES.len()];
    for round in 0..=rounds {
        for (n, &case) in CASES.iter().enumerate() {
            let r = run(case, root);
            if round > 0 {
                warm[n].push(r);
            }
        }
    }

    println!(
        "\n## board at {branches} branches ({FILES} files), medians of {rounds} interleaved rounds\n"
    );
    if !cold_ok {
        println!(
            "Cold rows left out: this process may not write /proc/sys/vm/drop_caches \
             (sync; echo 3 > /proc/sys/vm/drop_caches was refused), so only warm rows are shown.\n"
        );
    }
    println!("| cache | command | exit | ms | floor ms | ratio | target | met |");
    println!("| --- | --- | --- | --- | --- | --- | --- | --- |");
    let ms =
        |runs: &[(Duration, i32)]| median(runs.iter().map(|r| r.0.as_secs_f64() * 1e3).collect());
    let mut sets = vec![("warm", &warm)];
    if cold_ok {
        sets.insert(0, ("cold", &cold));
    }
    for (label, runs) in sets {
        let floor = ms(&runs[0]);
        for (n, name, target) in [
            (1, "board --json --max-pairs 0", Some(2.0)),
            (2, "board --json (default pairs)", None),
        ] {
            let codes: Vec<i32> = runs[n].iter().map(|r| r.1).collect();
            let exit = if codes.iter().all(|&c| c == codes[0]) {
                codes[0].to_string()
            } else {
                format!("{codes:?}")
            };
            let t = ms(&runs[n]);
            let ratio = t / floor;
            let (target, met) = match target {
                _ if codes.iter().any(|&c| c != 0) => ("(failed)".to_string(), "-"),
                Some(x) => (
                    format!("<= {x}x"),
                    if ratio <= x { "met" } else { "missed" },
                ),
                None => ("(none)".to_string(), "-"),
            };
            println!("| {label} | {name} | {exit} | {t:.1} | {floor:.1} | {ratio:.2} | {target} | {met} |");
        }
    }
    println!("\nfloor: {FLOOR}");
}
