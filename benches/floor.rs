//! Benchmark: the release binary against git's own floor for the same data.
//!
//! `cargo bench --bench floor` measures the sizes `small` and `medium` and the
//! audit-trail section (`trail`); on 2 cores it finishes in well under ten
//! minutes. Choose what to run with arguments or `BENCH_SIZES`:
//! `cargo bench --bench floor -- large` (200,000 files, 5,000 commits, 500
//! cycles; about half an hour), `-- growth` (`medium` and
//! `medium-10x-files`, plus a table of how each command grew with ten times
//! the files), `-- trail` (only the trail section). `BENCH_ROUNDS` (5) sets
//! the measured rounds, `BENCH_COLD_ROUNDS` (3) the cold ones (0: none),
//! `BENCH_KEEP=1` keeps each generated repository and prints its path (with
//! `BENCH_ROUNDS=0` it only generates).
//!
//! Each size's history is real: a scratch repository walks its cycles with
//! this binary's own commands (`start`, `artifact init`, `record add`,
//! `record set`, `block`, `handoff`, `signoff`, `reset --yes --commit`;
//! one in three cycles STANDARD through every role, the rest EXPEDITED,
//! the last left open mid-development), and `git fast-import` replays
//! those commits, unchanged, interleaved with commits that modify and add
//! unrelated files (a third of them Markdown) over a first commit of
//! `files` unrelated files. The walk's audit trail, archive refs and config
//! come along with `git fetch`. So `HEAD~100..HEAD` holds cycles that start,
//! add records and reset; the runner prints what the range holds and that
//! `check`, `verify` of the range and `git fsck --connectivity-only` pass.
//!
//! Every case runs once per round, the cases interleaved, after one
//! unmeasured warm-up round; the tables give medians with [min–max]. CPU
//! time (user + system, from `getrusage(RUSAGE_CHILDREN)` around each run,
//! so it includes the children a command waits for: a floor's whole
//! pipeline, a commit's hooks) is the basis of every warm ratio, because
//! the machine may be shared; wall time is shown beside it. Cold rows
//! (after `sync; echo 3 > /proc/sys/vm/drop_caches`, and without the scan
//! cache) are judged on wall time, since waiting for the disk is their
//! point. Peak RSS is `/usr/bin/time -f %M` (the largest process of the
//! tree it waited for; about 1 MiB of it is `time` itself). Every floor is
//! printed as the exact command line that ran.

#[path = "floor/trail.rs"]
mod trail;
#[path = "floor/walk.rs"]
mod walk;

use std::ffi::OsStr;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

pub const BIN: &str = env!("CARGO_BIN_EXE_git-standards");

struct Size {
    name: &'static str,
    cycles: usize,
    files: usize,
    commits: usize,
}

const SIZES: &[Size] = &[
    Size {
        name: "small",
        cycles: 6,
        files: 1_000,
        commits: 200,
    },
    Size {
        name: "medium",
        cycles: 30,
        files: 20_000,
        commits: 600,
    },
    // The medium size with ten times the unrelated files: the growth the
    // issue bounds (cost should follow records, not the repository's size).
    Size {
        name: "medium-10x-files",
        cycles: 30,
        files: 200_000,
        commits: 600,
    },
    Size {
        name: "large",
        cycles: 500,
        files: 200_000,
        commits: 6_000,
    },
];

/// A command run with a sealed git environment (no user or system config).
pub fn sealed(program: impl AsRef<OsStr>, root: &Path) -> Command {
    let mut c = Command::new(program);
    c.current_dir(root)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_SYSTEM", "/dev/null")
        .env("GIT_AUTHOR_NAME", "Bench")
        .env("GIT_AUTHOR_EMAIL", "bench@example.com")
        .env("GIT_COMMITTER_NAME", "Bench")
        .env("GIT_COMMITTER_EMAIL", "bench@example.com")
        .env("PATH", search_path())
        .env("NO_COLOR", "1")
        .env("LC_ALL", "C")
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE");
    c
}

/// `PATH` with the benchmarked binary first, so the installed hooks run it.
fn search_path() -> std::ffi::OsString {
    let bin = Path::new(BIN)
        .parent()
        .expect("binary folder")
        .to_path_buf();
    let rest = std::env::var_os("PATH").unwrap_or_default();
    std::env::join_paths(std::iter::once(bin).chain(std::env::split_paths(&rest)))
        .expect("a valid PATH")
}

pub fn git(root: &Path, args: &[&str]) -> Vec<u8> {
    let out = sealed("git", root)
        .args(args)
        .stderr(Stdio::inherit())
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?} failed");
    out.stdout
}

fn git_text(root: &Path, args: &[&str]) -> String {
    String::from_utf8(git(root, args))
        .expect("UTF-8")
        .trim()
        .to_string()
}

/// Runs the binary; it must succeed. Its standard output.
pub fn tool_ok(root: &Path, args: &[&str]) -> String {
    let out = sealed(BIN, root).args(args).output().expect("binary runs");
    assert!(
        out.status.success(),
        "git standards {args:?} failed ({}):\n{}{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// Path and content of unrelated file `i` (one in ten is Markdown).
fn unrelated(i: usize, version: usize) -> (String, String) {
    let folder = format!("src/d{:02}/m{:03}", i % 97, (i / 97) % 1000);
    if i.is_multiple_of(10) {
        let mut text = format!("# Notes {i}\n\nOrdinary documentation (version {version}).\n\n");
        for p in 0..(4 + i % 9) {
            let _ = writeln!(
                text,
                "Paragraph {p} explains how module {i} is configured and tested; AC-{:03} \
                 is mentioned only in passing.\n",
                p + 1
            );
        }
        (format!("{folder}/notes-{i}.md"), text)
    } else {
        let mut text = format!("// file {i}, version {version}\n");
        for l in 0..(10 + i % 40) {
            let _ = writeln!(text, "pub fn item_{l}() -> usize {{ {l} * {i} }}");
        }
        (format!("{folder}/f{i}.rs"), text)
    }
}

fn data(stream: &mut Vec<u8>, path: &str, text: &[u8]) {
    let _ = write!(stream, "M 100644 inline {path}\ndata {}\n", text.len());
    stream.extend_from_slice(text);
    stream.push(b'\n');
}

/// What the measured range `HEAD~100..HEAD` of a generated history holds.
#[derive(Default)]
struct Composition {
    starts: usize,
    work: usize,
    resets: usize,
    unrelated: usize,
    markdown: usize,
    added_files: usize,
}

/// One commit of the walk: its changes against the previous walk commit.
struct WalkCommit {
    did: walk::Did,
    message: String,
    /// `(mode, blob, path)`; `None` for a deletion.
    changes: Vec<(Option<(String, String)>, String)>,
}

/// The walk's commits after its root, read back from the repository they
/// were fetched into.
fn walk_commits(root: &Path, dids: &[walk::Did]) -> (String, Vec<WalkCommit>) {
    let list = git_text(root, &["rev-list", "--reverse", "refs/bench/walk"]);
    let ids: Vec<&str> = list.lines().collect();
    assert_eq!(ids.len(), dids.len() + 1, "one walk commit per step");
    let mut out = Vec::new();
    for (n, pair) in ids.windows(2).enumerate() {
        let raw = git(
            root,
            &["diff-tree", "-r", "-z", "--no-renames", pair[0], pair[1]],
        );
        let mut fields = raw.split(|b| *b == 0).filter(|f| !f.is_empty());
        let mut changes = Vec::new();
        while let (Some(meta), Some(path)) = (fields.next(), fields.next()) {
            let meta = String::from_utf8_lossy(meta);
            let words: Vec<&str> = meta.trim_start_matches(':').split(' ').collect();
            let path = String::from_utf8_lossy(path).into_owned();
            if words[4] == "D" {
                changes.push((None, path));
            } else {
                changes.push((Some((words[1].to_string(), words[3].to_string())), path));
            }
        }
        let message = git_text(root, &["log", "-1", "--format=%B", pair[1]]);
        out.push(WalkCommit {
            did: dids[n],
            message,
            changes,
        });
    }
    (ids[0].to_string(), out)
}

/// Generates the repository of one size; returns it and what its measured
/// range holds.
fn generate(size: &Size) -> (tempfile::TempDir, Composition) {
    let started = Instant::now();
    let scratch = tempfile::tempdir().expect("temp dir");
    let mut walker = walk::Walk::install(scratch.path());
    walker.cycles(size.cycles);
    let dids = walker.commits.clone();
    eprintln!(
        "{}: walked {} cycles ({} commits) with the binary in {:.1} s",
        size.name,
        size.cycles,
        dids.len(),
        started.elapsed().as_secs_f64()
    );
    assert!(
        dids.len() < size.commits,
        "the walk needs fewer commits than the history"
    );

    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    git(root, &["init", "-q", "-b", "main"]);
    let from = scratch.path().to_str().unwrap();
    git(
        root,
        &[
            "fetch",
            "-q",
            "--no-tags",
            from,
            "+refs/heads/main:refs/bench/walk",
            "+refs/notes/standards:refs/notes/standards",
            "+refs/standards/*:refs/standards/*",
        ],
    );
    // The settings `install` made (the notes merge strategy and rewrite).
    let config = git(scratch.path(), &["config", "--local", "--list"]);
    for line in String::from_utf8_lossy(&config).lines() {
        if let Some((key, value)) = line.split_once('=') {
            if key.starts_with("notes.") || key.starts_with("standards.") {
                git(root, &["config", key, value]);
            }
        }
    }
    let (walk_root, commits) = walk_commits(root, &dids);

    // Slot 0 is the root: the walk's root tree plus the unrelated files. The
    // walk's commits follow in order, the last at HEAD, with the unrelated
    // commits spread evenly between them; a sign-off and its reset stay
    // adjacent (a change between them is one the sign-off does not cover).
    let total = size.commits;
    let mut units: Vec<Vec<usize>> = Vec::new();
    for (j, c) in commits.iter().enumerate() {
        match units.last_mut() {
            Some(unit) if c.did == walk::Did::Reset => unit.push(j),
            _ => units.push(vec![j]),
        }
    }
    let unrelated_commits = total - 1 - commits.len();
    let mut plan: Vec<Option<usize>> = vec![None]; // slot 0
    for (u, unit) in units.iter().enumerate() {
        let gap = (u + 1) * unrelated_commits / units.len() - u * unrelated_commits / units.len();
        plan.extend(std::iter::repeat_n(None, gap));
        plan.extend(unit.iter().map(|&j| Some(j)));
    }
    assert_eq!(plan.len(), total);
    let mut stream = Vec::new();
    let mut time = 1_735_689_600u64; // 2025-01-01
    let mut added = 0;
    let mut composition = Composition::default();
    for (slot, step) in plan.iter().enumerate() {
        time += 3600;
        let in_range = slot >= total - 100;
        let walk_commit = step.map(|j| &commits[j]);
        let message = match walk_commit {
            Some(c) => c.message.clone(),
            None if slot == 0 => "Install STANDARDS; the service's sources".to_string(),
            None => format!("Unrelated change {slot}"),
        };
        let _ = write!(
            stream,
            "commit refs/heads/main\nauthor Bench <bench@example.com> {time} +0000\n\
             committer Bench <bench@example.com> {time} +0000\ndata {}\n{message}\n",
            message.len() + 1
        );
        if slot == 0 {
            let listing = git(root, &["ls-tree", "-r", "-z", &walk_root]);
            for entry in listing.split(|b| *b == 0).filter(|e| !e.is_empty()) {
                let entry = String::from_utf8_lossy(entry);
                let (meta, path) = entry.split_once('\t').unwrap();
                let words: Vec<&str> = meta.split(' ').collect();
                let _ = writeln!(stream, "M {} {} {path}", words[0], words[2]);
            }
            for i in 0..size.files {
                let (path, text) = unrelated(i, 0);
                data(&mut stream, &path, text.as_bytes());
            }
        } else if let Some(c) = walk_commit {
            for (change, path) in &c.changes {
                match change {
                    Some((mode, blob)) => {
                        let _ = writeln!(stream, "M {mode} {blob} {path}");
                    }
                    None => {
                        let _ = writeln!(stream, "D {path}");
                    }
                }
            }
            if in_range {
                match c.did {
                    walk::Did::Start => composition.starts += 1,
                    walk::Did::Work | walk::Did::Signoff => composition.work += 1,
                    walk::Did::Reset => composition.resets += 1,
                }
            }
        } else {
            // Two existing files change (every other time one is Markdown);
            // every fifth such commit adds a file (every tenth a Markdown one).
            let a = (slot * 7919) % size.files;
            let b = if slot % 2 == 0 {
                (slot * 104_729) % (size.files / 10) * 10
            } else {
                (slot * 104_729 + 1) % size.files
            };
            for i in [a, b] {
                let (path, text) = unrelated(i, slot);
                data(&mut stream, &path, text.as_bytes());
            }
            let adds = slot % 5 == 0;
            if adds {
                let i = size.files + added * 5 + if slot % 10 == 0 { 5 } else { 1 };
                added += 1;
                let (path, text) = unrelated(i, slot);
                data(&mut stream, &path, text.as_bytes());
            }
            if in_range {
                composition.unrelated += 1;
                if a.is_multiple_of(10) || b.is_multiple_of(10) {
                    composition.markdown += 1;
                }
                if adds {
                    composition.added_files += 1;
                }
            }
        }
    }
    let mut child = sealed("git", root)
        .args(["fast-import", "--quiet"])
        .stdin(Stdio::piped())
        .spawn()
        .expect("fast-import runs");
    child.stdin.take().unwrap().write_all(&stream).unwrap();
    assert!(child.wait().unwrap().success(), "fast-import failed");
    git(root, &["update-ref", "-d", "refs/bench/walk"]);
    git(root, &["reset", "-q", "--hard", "main"]);
    eprintln!(
        "{}: generated {} commits, {} files in {:.1} s",
        size.name,
        total,
        git_text(root, &["ls-files"]).lines().count(),
        started.elapsed().as_secs_f64()
    );
    drop(scratch);
    (dir, composition)
}

/// Records added in the range: `.standards/docs/` paths the range's
/// commits add (`git log --diff-filter=A`), counted by git itself.
fn records_added(root: &Path) -> usize {
    git_text(
        root,
        &[
            "log",
            "--format=",
            "--name-only",
            "--diff-filter=A",
            "HEAD~100..HEAD",
            "--",
            ".standards/docs/",
        ],
    )
    .lines()
    .filter(|l| !l.is_empty())
    .count()
}

/// One run: wall time, CPU time (user + system of the whole tree), peak RSS
/// (KiB) and exit code.
#[derive(Clone)]
struct Run {
    wall: Duration,
    cpu: Duration,
    rss_kib: u64,
    code: i32,
    stderr: String,
}

const TIME: &str = "/usr/bin/time";

/// `program args` under `/usr/bin/time -f %M`, which reports the child's
/// `ru_maxrss`. (Taking `wait4`'s rusage here instead would report at least
/// this benchmark process's own RSS: Linux carries the parent's high-water
/// mark over `fork`/`exec` into the child's maximum.)
pub fn timed(root: &Path, program: impl AsRef<OsStr>, args: &[&str]) -> Command {
    let mut c = sealed(TIME, root);
    c.arg("-f")
        .arg("%M")
        .arg("-o")
        .arg(rss_file(root))
        .arg(program)
        .args(args);
    c
}

fn rss_file(root: &Path) -> PathBuf {
    std::env::temp_dir().join(format!(
        "bench-rss-{}-{}",
        std::process::id(),
        root.file_name().unwrap().to_string_lossy()
    ))
}

/// User + system time of every child reaped so far (and their reaped children).
fn children_cpu() -> Duration {
    // SAFETY: getrusage only writes the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let rc = unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) };
    assert_eq!(rc, 0, "getrusage");
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

fn run(mut cmd: Command, root: &Path, stdin: Option<&[u8]>) -> Run {
    cmd.stdout(Stdio::null()).stderr(Stdio::piped());
    if stdin.is_some() {
        cmd.stdin(Stdio::piped());
    } else {
        cmd.stdin(Stdio::null());
    }
    let _ = std::fs::remove_file(rss_file(root));
    let cpu_before = children_cpu();
    let start = Instant::now();
    let mut child = cmd.spawn().expect("command starts");
    if let Some(bytes) = stdin {
        child.stdin.take().unwrap().write_all(bytes).unwrap();
    }
    let out = child.wait_with_output().expect("command ends");
    let wall = start.elapsed();
    let cpu = children_cpu() - cpu_before;
    let report = std::fs::read_to_string(rss_file(root)).unwrap_or_default();
    let rss_kib = report
        .lines()
        .last()
        .and_then(|l| l.trim().parse().ok())
        .unwrap_or(0);
    Run {
        wall,
        cpu,
        rss_kib,
        code: out.status.code().unwrap_or(-1),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Drops the page cache, dentries and inodes; false when not permitted.
fn drop_caches() -> bool {
    let _ = Command::new("sync").status();
    std::fs::write("/proc/sys/vm/drop_caches", "3\n").is_ok()
}

pub const WORKTREE_FLOOR: &str = "git ls-files -z --cached --others --exclude-standard -- '*.md' >/dev/null \
     && git ls-files -z --cached --others --exclude-standard -- .standards | xargs -0 cat >/dev/null";
pub const INDEX_FLOOR: &str =
    "git ls-files -s | awk '$4 ~ /^\\.standards\\// || $4 ~ /\\.md$/ {print $2}' \
     | git cat-file --batch >/dev/null";
pub const COMMIT_FLOOR: &str =
    "git ls-tree -r HEAD | awk '$4 ~ /^\\.standards\\// || $4 ~ /\\.md$/ {print $3}' \
     | git cat-file --batch >/dev/null";
const PLAIN_COMMIT: &str = "git -c core.hooksPath=<empty folder> commit -q -m 'bench commit'";
const EMPTY_HOOK_COMMIT: &str =
    "git -c core.hooksPath=<folder with a pre-commit `#!/bin/sh` `exit 0`> commit -q -m 'bench commit'";
const EMPTY_GUARD_COMMIT: &str = "git -c core.hooksPath=<folder with a pre-commit and a reference-transaction, each `#!/bin/sh` `exit 0`> commit -q -m 'bench commit'";
const HOOKED_COMMIT: &str =
    "git commit -q -m 'bench commit' (hooks of `git standards hooks install`)";

/// A measured case.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Case {
    Check,
    Staged,
    AtRef,
    Status,
    Verify,
    CommitUnrelated,
    CommitMarkdown,
    WorktreeFloor,
    IndexFloor,
    CommitFloor,
    PlainCommitUnrelated,
    PlainCommitMarkdown,
    EmptyHookCommitUnrelated,
    /// The two hooks a commit runs of ours, each only `exit 0`: git's own
    /// cost of having a merge guard that sees every branch update.
    EmptyGuardCommitUnrelated,
    // Cold: page cache dropped before the run; the tool without its scan cache.
    ColdCheck,
    ColdStaged,
    ColdAtRef,
    ColdWorktreeFloor,
    ColdIndexFloor,
    ColdCommitFloor,
}

const WARM: &[Case] = &[
    Case::WorktreeFloor,
    Case::Check,
    Case::IndexFloor,
    Case::Staged,
    Case::CommitFloor,
    Case::AtRef,
    Case::Status,
    Case::Verify,
    Case::PlainCommitUnrelated,
    Case::CommitUnrelated,
    Case::EmptyHookCommitUnrelated,
    Case::EmptyGuardCommitUnrelated,
    Case::PlainCommitMarkdown,
    Case::CommitMarkdown,
];

const COLD: &[Case] = &[
    Case::ColdIndexFloor,
    Case::ColdStaged,
    Case::ColdWorktreeFloor,
    Case::ColdCheck,
    Case::ColdCommitFloor,
    Case::ColdAtRef,
];

/// Stages a change before a timed commit (not timed itself).
/// `change` numbers the staged change: a new one picks another file and text.
fn stage(root: &Path, markdown: bool, change: usize, files: usize) {
    let i = (change * 37) % (files / 10) * 10 + if markdown { 0 } else { 3 };
    let (path, text) = unrelated(i, 100_000 + change);
    std::fs::write(root.join(&path), text).unwrap();
    git(root, &["add", "--", &path]);
}

/// The hook folders of the reference commits: none at all, and a
/// `pre-commit` that only exits 0 (what git itself pays for running any
/// pre-commit hook: a fork and exec, and reading the index again after it).
struct HookFolders {
    none: tempfile::TempDir,
    /// A `pre-commit` that only exits 0.
    empty: tempfile::TempDir,
    /// A `pre-commit` and a `reference-transaction` that only exit 0.
    empty_guard: tempfile::TempDir,
}

impl HookFolders {
    fn new() -> HookFolders {
        let folder = |hooks: &[&str]| {
            let folder = tempfile::tempdir().unwrap();
            for name in hooks {
                let hook = folder.path().join(name);
                std::fs::write(&hook, "#!/bin/sh\nexit 0\n").unwrap();
                use std::os::unix::fs::PermissionsExt as _;
                std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755)).unwrap();
            }
            folder
        };
        HookFolders {
            none: folder(&[]),
            empty: folder(&["pre-commit"]),
            empty_guard: folder(&["pre-commit", "reference-transaction"]),
        }
    }
}

/// `cmd` with `standards.scanCache` false (as `git -c` would set it): what
/// a first run pays, before the cache knows which Markdown is plain.
fn without_scan_cache(mut cmd: Command) -> Command {
    cmd.env("GIT_CONFIG_COUNT", "1")
        .env("GIT_CONFIG_KEY_0", "standards.scanCache")
        .env("GIT_CONFIG_VALUE_0", "false");
    cmd
}

struct Setup {
    hooks: HookFolders,
    /// `verify`'s fixed range: the generated `HEAD~100..HEAD`, by ID, so
    /// the measured commits made since do not move it.
    range: String,
}

fn command(case: Case, root: &Path, setup: &Setup) -> Command {
    let commit = |folder: Option<&Path>| match folder {
        None => timed(root, "git", &["commit", "-q", "-m", "bench commit"]),
        Some(folder) => {
            let path = format!("core.hooksPath={}", folder.display());
            timed(
                root,
                "git",
                &["-c", &path, "commit", "-q", "-m", "bench commit"],
            )
        }
    };
    let tool = |args: &[&str]| timed(root, BIN, args);
    let sh = |script: &str| timed(root, "sh", &["-c", script]);
    match case {
        Case::Check => tool(&["check"]),
        Case::Staged => tool(&["check", "--staged"]),
        Case::AtRef => tool(&["check", "--ref", "HEAD"]),
        Case::Status => tool(&["status"]),
        Case::Verify => tool(&["verify", &setup.range]),
        Case::CommitUnrelated | Case::CommitMarkdown => commit(None),
        Case::PlainCommitUnrelated | Case::PlainCommitMarkdown => {
            commit(Some(setup.hooks.none.path()))
        }
        Case::EmptyHookCommitUnrelated => commit(Some(setup.hooks.empty.path())),
        Case::EmptyGuardCommitUnrelated => commit(Some(setup.hooks.empty_guard.path())),
        Case::WorktreeFloor | Case::ColdWorktreeFloor => sh(WORKTREE_FLOOR),
        Case::IndexFloor | Case::ColdIndexFloor => sh(INDEX_FLOOR),
        Case::CommitFloor | Case::ColdCommitFloor => sh(COMMIT_FLOOR),
        Case::ColdCheck => without_scan_cache(tool(&["check"])),
        Case::ColdStaged => without_scan_cache(tool(&["check", "--staged"])),
        Case::ColdAtRef => without_scan_cache(tool(&["check", "--ref", "HEAD"])),
    }
}

/// The command line a case runs, as printed beside the tables.
fn shown(case: Case, setup: &Setup) -> String {
    match case {
        Case::Check => "git standards check".into(),
        Case::Staged => "git standards check --staged".into(),
        Case::AtRef => "git standards check --ref HEAD".into(),
        Case::Status => "git standards status".into(),
        Case::Verify => format!("git standards verify {}", setup.range),
        Case::CommitUnrelated | Case::CommitMarkdown => HOOKED_COMMIT.into(),
        Case::PlainCommitUnrelated | Case::PlainCommitMarkdown => PLAIN_COMMIT.into(),
        Case::EmptyHookCommitUnrelated => EMPTY_HOOK_COMMIT.into(),
        Case::EmptyGuardCommitUnrelated => EMPTY_GUARD_COMMIT.into(),
        Case::WorktreeFloor | Case::ColdWorktreeFloor => WORKTREE_FLOOR.into(),
        Case::IndexFloor | Case::ColdIndexFloor => INDEX_FLOOR.into(),
        Case::CommitFloor | Case::ColdCommitFloor => COMMIT_FLOOR.into(),
        Case::ColdCheck => "git -c standards.scanCache=false standards check".into(),
        Case::ColdStaged => "git -c standards.scanCache=false standards check --staged".into(),
        Case::ColdAtRef => "git -c standards.scanCache=false standards check --ref HEAD".into(),
    }
}

pub fn median(values: &[f64]) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    if v.is_empty() {
        return f64::NAN;
    }
    v[v.len() / 2]
}

/// The figures of one case's runs.
#[derive(Clone, Default)]
pub struct Stats {
    pub wall: Vec<f64>,
    pub cpu: Vec<f64>,
    pub rss: Vec<f64>,
    pub codes: Vec<i32>,
}

impl Stats {
    fn push(&mut self, r: &Run) {
        self.wall.push(r.wall.as_secs_f64() * 1e3);
        self.cpu.push(r.cpu.as_secs_f64() * 1e3);
        self.rss.push(r.rss_kib as f64 / 1024.0);
        self.codes.push(r.code);
    }

    pub fn exit(&self) -> String {
        if self.codes.iter().all(|&c| c == self.codes[0]) {
            self.codes[0].to_string()
        } else {
            format!("{:?}", self.codes)
        }
    }

    pub fn spread(v: &[f64]) -> String {
        let min = v.iter().cloned().fold(f64::INFINITY, f64::min);
        let max = v.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        format!("{:.1} [{:.1}–{:.1}]", median(v), min, max)
    }

    pub fn max_rss(&self) -> f64 {
        self.rss.iter().cloned().fold(0.0, f64::max)
    }
}

/// What a row is judged on.
#[derive(Clone, Copy, PartialEq)]
pub enum Basis {
    Cpu,
    Wall,
}

/// A row of a size's table: a case beside its reference, and its target.
struct Row {
    name: &'static str,
    case: Case,
    reference: &'static str,
    against: Case,
    basis: Basis,
    /// The time ratio's bound, or `None` when the row only reports.
    time: Option<f64>,
    /// The RSS ratio's bound (judged at 200,000 files).
    rss: Option<f64>,
    /// Peak RSS under 64 MiB on every run, judged at 200,000 files.
    rss_cap: bool,
    note: &'static str,
}

const ROWS: &[Row] = &[
    Row {
        name: "check",
        case: Case::Check,
        reference: "worktree floor",
        against: Case::WorktreeFloor,
        basis: Basis::Cpu,
        time: Some(1.5),
        rss: Some(1.25),
        rss_cap: true,
        note: "",
    },
    Row {
        name: "check --staged",
        case: Case::Staged,
        reference: "index floor",
        against: Case::IndexFloor,
        basis: Basis::Cpu,
        time: Some(1.5),
        rss: Some(1.25),
        rss_cap: true,
        note: "",
    },
    Row {
        name: "check --ref HEAD",
        case: Case::AtRef,
        reference: "commit floor",
        against: Case::CommitFloor,
        basis: Basis::Cpu,
        time: Some(1.5),
        rss: Some(1.25),
        rss_cap: true,
        note: "",
    },
    Row {
        name: "status",
        case: Case::Status,
        reference: "worktree floor",
        against: Case::WorktreeFloor,
        basis: Basis::Cpu,
        time: None,
        rss: None,
        rss_cap: false,
        note: "no target",
    },
    Row {
        name: "verify of 100 commits",
        case: Case::Verify,
        reference: "one check",
        against: Case::Check,
        basis: Basis::Cpu,
        time: Some(5.0),
        rss: None,
        rss_cap: false,
        note: "",
    },
    Row {
        name: "commit with hooks, unrelated file",
        case: Case::CommitUnrelated,
        reference: "plain commit",
        against: Case::PlainCommitUnrelated,
        basis: Basis::Cpu,
        time: Some(1.1),
        rss: None,
        rss_cap: false,
        note: "",
    },
    Row {
        name: "commit with hooks, unrelated file",
        case: Case::CommitUnrelated,
        reference: "commit, empty pre-commit",
        against: Case::EmptyHookCommitUnrelated,
        basis: Basis::Cpu,
        time: None,
        rss: None,
        rss_cap: false,
        note: "what ours adds beyond any hook",
    },
    Row {
        name: "commit, empty pre-commit, unrelated",
        case: Case::EmptyHookCommitUnrelated,
        reference: "plain commit",
        against: Case::PlainCommitUnrelated,
        basis: Basis::Cpu,
        time: None,
        rss: None,
        rss_cap: false,
        note: "git's own cost of any hook",
    },
    Row {
        name: "commit with hooks, unrelated file",
        case: Case::CommitUnrelated,
        reference: "commit, empty pre-commit and reference-transaction",
        against: Case::EmptyGuardCommitUnrelated,
        basis: Basis::Cpu,
        time: None,
        rss: None,
        rss_cap: false,
        note: "what ours adds beyond the hooks a guard needs",
    },
    Row {
        name: "commit, empty pre-commit and reference-transaction, unrelated",
        case: Case::EmptyGuardCommitUnrelated,
        reference: "plain commit",
        against: Case::PlainCommitUnrelated,
        basis: Basis::Cpu,
        time: None,
        rss: None,
        rss_cap: false,
        note: "git's own cost of the hooks a guard needs",
    },
    Row {
        name: "commit with hooks, Markdown file",
        case: Case::CommitMarkdown,
        reference: "plain commit",
        against: Case::PlainCommitMarkdown,
        basis: Basis::Cpu,
        time: Some(1.5),
        rss: None,
        rss_cap: false,
        note: "",
    },
    Row {
        name: "check --staged, cold, no scan cache",
        case: Case::ColdStaged,
        reference: "index floor, cold",
        against: Case::ColdIndexFloor,
        basis: Basis::Wall,
        time: Some(1.5),
        rss: Some(1.25),
        rss_cap: true,
        note: "",
    },
    Row {
        name: "check, cold, no scan cache",
        case: Case::ColdCheck,
        reference: "worktree floor, cold",
        against: Case::ColdWorktreeFloor,
        basis: Basis::Wall,
        time: None,
        rss: Some(1.25),
        rss_cap: true,
        note: "no time target",
    },
    Row {
        name: "check --ref HEAD, cold, no scan cache",
        case: Case::ColdAtRef,
        reference: "commit floor, cold",
        against: Case::ColdCommitFloor,
        basis: Basis::Wall,
        time: None,
        rss: Some(1.25),
        rss_cap: true,
        note: "no time target",
    },
];

type Measured = std::collections::HashMap<Case, Stats>;

/// A verdict: "met"/"missed" with the figures it was judged on.
pub fn verdict(parts: &[(bool, String)]) -> String {
    if parts.is_empty() {
        return "—".into();
    }
    let all = parts.iter().all(|(ok, _)| *ok);
    let why: Vec<&str> = parts.iter().map(|(_, s)| s.as_str()).collect();
    format!(
        "**{}** ({})",
        if all { "met" } else { "missed" },
        why.join("; ")
    )
}

fn measure(size: &Size, rounds: usize, cold_rounds: usize) -> Option<Measured> {
    let (repo, composition) = generate(size);
    let (_guard, kept) = if std::env::var_os("BENCH_KEEP").is_some() {
        let path = repo.keep();
        eprintln!("{}: kept the repository at {}", size.name, path.display());
        (None, path)
    } else {
        let path = repo.path().to_path_buf();
        (Some(repo), path)
    };
    let root = kept.as_path();
    tool_ok(root, &["hooks", "install"]);
    let range = format!(
        "{}..{}",
        git_text(root, &["rev-parse", "--short=12", "HEAD~100"]),
        git_text(root, &["rev-parse", "--short=12", "HEAD"])
    );
    // Validity: check, verify of the range, and git's connectivity check.
    let validity: Vec<(String, i32)> = [
        ("git standards check", vec!["check"]),
        (
            "git standards verify HEAD~100..HEAD",
            vec!["verify", "HEAD~100..HEAD"],
        ),
    ]
    .into_iter()
    .map(|(name, args)| {
        let out = sealed(BIN, root).args(&args).output().unwrap();
        if !out.status.success() {
            let text = String::from_utf8_lossy(&out.stdout).to_string()
                + &String::from_utf8_lossy(&out.stderr);
            let head: Vec<&str> = text.lines().take(8).collect();
            eprintln!("{}: `{name}` fails:\n{}", size.name, head.join("\n"));
        }
        (name.to_string(), out.status.code().unwrap_or(-1))
    })
    .chain(std::iter::once({
        let ok = sealed("git", root)
            .args([
                "fsck",
                "--connectivity-only",
                "--no-dangling",
                "--no-progress",
            ])
            .stdout(Stdio::null())
            .status()
            .unwrap();
        (
            "git fsck --connectivity-only".to_string(),
            ok.code().unwrap_or(-1),
        )
    }))
    .collect();
    let records = records_added(root);

    println!(
        "\n### {} ({} cycles, {} files, {} commits)\n",
        size.name, size.cycles, size.files, size.commits
    );
    println!(
        "`HEAD~100..HEAD` (`{range}`) holds {} walk commits: {} start a cycle, {} are a role's \
         work, {} reset (Project Reset, archiving the records); git counts {records} record files \
         added in it (`git log --diff-filter=A HEAD~100..HEAD -- .standards/docs/`). The other {} \
         change unrelated files ({} of them Markdown; {} add a file). The audit trail holds the \
         walk's {} events.",
        composition.starts + composition.work + composition.resets,
        composition.starts,
        composition.work,
        composition.resets,
        composition.unrelated,
        composition.markdown,
        composition.added_files,
        tool_ok(root, &["log", "--json"]).lines().count(),
    );
    let checks: Vec<String> = validity
        .iter()
        .map(|(name, code)| format!("`{name}` exit {code}"))
        .collect();
    println!("Validity: {}.", checks.join(", "));
    if validity.iter().any(|(_, c)| *c != 0) {
        println!("\n**The generated repository is not valid; its figures are not reported.**");
        return None;
    }
    if rounds == 0 {
        return Some(Measured::new());
    }
    let setup = Setup {
        hooks: HookFolders::new(),
        range,
    };
    let mut measured = Measured::new();
    let mut failures = Vec::new();
    // Round 0 warms the caches and is not counted.
    for round in 0..=rounds {
        for (n, &case) in WARM.iter().enumerate() {
            // A number of its own for each staged change, so no two commits
            // stage the same file with the same text (which leaves nothing to commit).
            let change = round * WARM.len() + n;
            match case {
                Case::CommitUnrelated
                | Case::PlainCommitUnrelated
                | Case::EmptyHookCommitUnrelated
                | Case::EmptyGuardCommitUnrelated => stage(root, false, change, size.files),
                Case::CommitMarkdown | Case::PlainCommitMarkdown => {
                    stage(root, true, change, size.files)
                }
                _ => {}
            }
            let r = run(command(case, root, &setup), root, None);
            if r.code != 0 {
                failures.push((case, r.code, r.stderr.clone()));
            }
            if round > 0 {
                measured.entry(case).or_default().push(&r);
            }
        }
    }
    let cold_ok = cold_rounds > 0 && drop_caches();
    if cold_rounds > 0 && !cold_ok {
        println!("\nCold rows left out: writing `/proc/sys/vm/drop_caches` is not permitted here.");
    }
    if cold_ok {
        for _ in 0..cold_rounds {
            for &case in COLD {
                assert!(drop_caches(), "drop_caches");
                let r = run(command(case, root, &setup), root, None);
                if r.code != 0 {
                    failures.push((case, r.code, r.stderr.clone()));
                }
                measured.entry(case).or_default().push(&r);
            }
        }
    }
    println!(
        "\nMedians [min–max] of {rounds} interleaved warm rounds{}. Ratios: CPU (user+sys) for warm \
         rows, wall for cold rows.\n",
        if cold_ok {
            format!(" and {cold_rounds} cold rounds (page cache dropped before each cold run)")
        } else {
            String::new()
        }
    );
    println!(
        "| command | exit | CPU ms | wall ms | RSS MiB (max) | reference | CPU ms | wall ms | RSS MiB \
         | ratio | RSS ratio | target | verdict |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for row in ROWS {
        let (Some(a), Some(b)) = (measured.get(&row.case), measured.get(&row.against)) else {
            continue;
        };
        let pick = |s: &Stats| match row.basis {
            Basis::Cpu => median(&s.cpu),
            Basis::Wall => median(&s.wall),
        };
        let ratio = pick(a) / pick(b);
        let rss_ratio = median(&a.rss) / median(&b.rss);
        let basis = if row.basis == Basis::Cpu {
            "CPU"
        } else {
            "wall"
        };
        let mut target = Vec::new();
        let mut parts = Vec::new();
        if let Some(t) = row.time {
            target.push(format!("{basis} ≤ {t}x"));
            parts.push((ratio <= t, format!("{basis} {ratio:.2}x")));
        }
        // The issue bounds memory at 200,000 files, where it matters.
        if let Some(t) = row.rss.filter(|_| size.files >= 200_000) {
            target.push(format!("RSS ≤ {t}x"));
            parts.push((rss_ratio <= t, format!("RSS {rss_ratio:.2}x")));
        }
        if row.rss_cap && size.files >= 200_000 {
            target.push("RSS < 64 MiB every run".into());
            parts.push((
                a.max_rss() < 64.0,
                format!("max RSS {:.1} MiB", a.max_rss()),
            ));
        }
        if target.is_empty() {
            target.push(format!("none ({})", row.note));
        } else if !row.note.is_empty() {
            target.push(format!("({})", row.note));
        }
        println!(
            "| {} | {} | {} | {} | {:.1} ({:.1}) | {} | {} | {} | {:.1} | {ratio:.2} | {rss_ratio:.2} | {} | {} |",
            row.name,
            a.exit(),
            Stats::spread(&a.cpu),
            Stats::spread(&a.wall),
            median(&a.rss),
            a.max_rss(),
            row.reference,
            Stats::spread(&b.cpu),
            Stats::spread(&b.wall),
            median(&b.rss),
            target.join(", "),
            verdict(&parts),
        );
    }
    println!("\nThe exact command lines:\n");
    let mut seen = Vec::new();
    for &case in WARM.iter().chain(if cold_ok { COLD } else { &[] }) {
        let line = shown(case, &setup);
        if !seen.contains(&line) {
            println!("- `{line}`");
            seen.push(line);
        }
    }
    for (case, code, stderr) in failures.iter().take(5) {
        let head: Vec<&str> = stderr.lines().take(6).collect();
        println!("\n{case:?} exited {code}: {}", head.join("\n    "));
    }
    Some(measured)
}

/// How each command grew from `medium` to `medium-10x-files`, beside the
/// growth of the git floor it is compared with (CPU medians).
fn print_growth(base: &Measured, grown: &Measured) {
    println!("\n### Growth with 10x unrelated files (medium to medium-10x-files), CPU\n");
    println!(
        "| command | CPU ms | CPU ms at 10x | growth | floor | floor growth | target | verdict |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- | --- |");
    let rows: &[(&str, Case, &str, Case)] = &[
        ("check", Case::Check, "worktree floor", Case::WorktreeFloor),
        (
            "check --staged",
            Case::Staged,
            "index floor",
            Case::IndexFloor,
        ),
        (
            "check --ref HEAD",
            Case::AtRef,
            "commit floor",
            Case::CommitFloor,
        ),
        (
            "status",
            Case::Status,
            "worktree floor",
            Case::WorktreeFloor,
        ),
    ];
    for &(name, case, floor_name, floor) in rows {
        let (Some(a), Some(b), Some(fa), Some(fb)) = (
            base.get(&case),
            grown.get(&case),
            base.get(&floor),
            grown.get(&floor),
        ) else {
            continue;
        };
        let (a, b) = (median(&a.cpu), median(&b.cpu));
        let growth = b / a;
        let (target, judged) = if case == Case::Status {
            ("none".to_string(), "—".to_string())
        } else {
            (
                "≤ 2x".to_string(),
                verdict(&[(growth <= 2.0, format!("{growth:.2}x"))]),
            )
        };
        println!(
            "| {name} | {a:.1} | {b:.1} | {growth:.2} | {floor_name} | {:.2} | {target} | {judged} |",
            median(&fb.cpu) / median(&fa.cpu)
        );
    }
}

/// The machine and the code measured.
fn print_conditions() {
    let sh = |script: &str| {
        Command::new("sh")
            .args(["-c", script])
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
            .unwrap_or_default()
    };
    let manifest = env!("CARGO_MANIFEST_DIR");
    println!("## Conditions\n");
    println!("- Date: {}", sh("date -u '+%Y-%m-%d %H:%M UTC'"));
    println!(
        "- Code: `{}`{}",
        sh(&format!("git -C '{manifest}' rev-parse --short=12 HEAD")),
        if sh(&format!(
            "git -C '{manifest}' status --porcelain -- src crates"
        ))
        .is_empty()
        {
            String::new()
        } else {
            " (with uncommitted changes under src/ or crates/)".to_string()
        }
    );
    println!(
        "- Machine: {} cores ({}), {}; kernel {}; {}",
        sh("nproc"),
        sh("grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'"),
        sh("free -g | awk '/Mem:/ {print $2\" GiB RAM\"}'"),
        sh("uname -r"),
        sh("git --version")
    );
    println!(
        "- Load average at the start: {}",
        sh("cut -d' ' -f1-3 /proc/loadavg")
    );
}

fn main() {
    let from_args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let wanted: Vec<String> = if !from_args.is_empty() {
        from_args
            .iter()
            .flat_map(|a| a.split(','))
            .map(String::from)
            .collect()
    } else if let Ok(list) = std::env::var("BENCH_SIZES") {
        list.split(',').map(|s| s.trim().to_string()).collect()
    } else {
        vec!["small".into(), "medium".into(), "trail".into()]
    };
    let number = |name: &str, default: usize| {
        std::env::var(name)
            .ok()
            .and_then(|r| r.parse().ok())
            .unwrap_or(default)
    };
    let rounds = number("BENCH_ROUNDS", 5);
    let cold_rounds = number("BENCH_COLD_ROUNDS", 3);
    // `growth` is shorthand for the two sizes its table compares.
    let wanted: Vec<String> = wanted
        .into_iter()
        .flat_map(|w| match w.as_str() {
            "growth" => vec!["medium".to_string(), "medium-10x-files".to_string()],
            _ => vec![w],
        })
        .collect();
    for name in &wanted {
        if name != "trail" && !SIZES.iter().any(|s| s.name == name) {
            let names: Vec<&str> = SIZES.iter().map(|s| s.name).collect();
            eprintln!(
                "unknown size `{name}`: choose from {}, growth or trail",
                names.join(", ")
            );
            std::process::exit(2);
        }
    }
    let started = Instant::now();
    print_conditions();
    let mut measured: Vec<(&str, Measured)> = Vec::new();
    for name in &wanted {
        if name == "trail" {
            trail::section(rounds);
            continue;
        }
        let size = SIZES.iter().find(|s| s.name == name).unwrap();
        if let Some(m) = measure(size, rounds, cold_rounds) {
            measured.push((size.name, m));
        }
    }
    let find = |name: &str| measured.iter().find(|(n, m)| *n == name && !m.is_empty());
    if let (Some((_, base)), Some((_, grown))) = (find("medium"), find("medium-10x-files")) {
        print_growth(base, grown);
    }
    println!(
        "\nLoad average at the end: {}; the whole run took {:.0} s.",
        std::fs::read_to_string("/proc/loadavg")
            .unwrap_or_default()
            .split(' ')
            .take(3)
            .collect::<Vec<_>>()
            .join(" "),
        started.elapsed().as_secs_f64()
    );
}
