//! Benchmark: the release binary against git's own floor for the same data.
//!
//! Run with `cargo bench --bench floor` (sizes `small,medium` by default), or
//! choose sizes and rounds: `BENCH_SIZES=small,medium,large BENCH_ROUNDS=5
//! cargo bench --bench floor` (`cargo bench --bench floor -- large` also works).
//! `growth` (the sizes `medium` and `medium-10x-files`) adds a table of how
//! each command grew with ten times the unrelated files, beside its floor's
//! growth.
//! `BENCH_KEEP=1` keeps each generated repository and prints its path (for
//! profiling one command by hand); `BENCH_ROUNDS=0` then only generates it.
//!
//! For each size it generates a valid repository (C closed cycles of complete
//! records with provenance, K unrelated files of which a tenth are Markdown,
//! H commits, 10,000 audit events in `refs/notes/standards`), then runs every
//! case once per round, the cases interleaved, and prints medians: wall time
//! and peak RSS of each command, of its reference (git's floor, or the command
//! the issue's target compares it with), the ratio, and the target.
//!
//! `BENCH_KEEP=1` keeps each generated repository (its path is printed) for
//! profiling with `strace -c -f`, `valgrind --tool=callgrind` or `/usr/bin/time -v`.
//!
//! Peak RSS is what `/usr/bin/time -f %M` reports (the child's `ru_maxrss`,
//! which covers the descendants it waited for: a shell pipeline's floor is its
//! largest process, and a `git commit` includes its hooks); about 1 MiB of it
//! is `time` itself. Wall time includes `time`'s own fork and exec, equally on
//! both sides of every ratio.

use std::ffi::OsStr;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_git-standards");
const EVENTS: usize = 10_000;

struct Size {
    name: &'static str,
    cycles: usize,
    files: usize,
    commits: usize,
}

const SIZES: &[Size] = &[
    Size {
        name: "small",
        cycles: 5,
        files: 1_000,
        commits: 150,
    },
    Size {
        name: "medium",
        cycles: 50,
        files: 20_000,
        commits: 500,
    },
    // The medium size with ten times the unrelated files: the growth the
    // issue bounds (cost should follow records, not the repository's size).
    Size {
        name: "medium-10x-files",
        cycles: 50,
        files: 200_000,
        commits: 500,
    },
    Size {
        name: "large",
        cycles: 500,
        files: 200_000,
        commits: 5_000,
    },
];

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
        .env("PATH", search_path())
        .env("NO_COLOR", "1")
        .env("LC_ALL", "C");
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

fn git(root: &Path, args: &[&str]) -> Vec<u8> {
    let out = sealed("git", root)
        .args(args)
        .stderr(Stdio::inherit())
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?} failed");
    out.stdout
}

fn cycle_id(j: usize) -> String {
    let day = 1 + j % 28;
    let month = 1 + (j / 28) % 12;
    format!(
        "feature-{j}-2025{month:02}{day:02}T120000Z-{:08x}",
        j * 2654435761 % (1 << 32)
    )
}

fn provenance(artifact: &str, cycle: &str) -> String {
    format!("<!-- STANDARDS\nArtifact: {artifact}\nCycle: {cycle}\n-->\n")
}

/// A closed cycle's records, a few KiB each, as the roles write them.
fn cycle_records(j: usize) -> Vec<(String, String)> {
    let id = cycle_id(j);
    let conditions = 8 + j % 17;
    let mut scope = provenance("SCOPE", &id);
    let _ = write!(
        scope,
        "# Scope: feature {j}\n\n`Cycle`: `{id}`\n\n## Request\n\nAdd feature {j} to the \
         service so that users can find, filter and export the records they own.\n\n## Work\n\n"
    );
    for n in 1..=conditions {
        let _ = writeln!(
            scope,
            "- `AC-{n:03}`: Condition {n} of feature {j} is observable from the public API \
             and covered by an automated test that fails without the change."
        );
    }
    scope.push_str("\n## Out of scope\n\n- Anything not named above.\n");
    let mut plan = provenance("DEVELOPMENT", &id);
    let _ = write!(
        plan,
        "\n# Development Plan\n\n`Cycle`: `{id}`\n\n## Build Steps\n"
    );
    for s in 1..=conditions {
        let _ = write!(
            plan,
            "\n### DEV-{s:03} — Step {s}\n`Status`: `DONE` `Acceptance`: `AC-{s:03}`\n\n\
             Implement step {s}: change the handler, add the migration, extend the tests.\n"
        );
    }
    let mut spec = provenance("ARCHITECTURE", &id);
    let _ = write!(
        spec,
        "# Architecture: feature {j}\n\n`Cycle`: `{id}`\n\n## Decisions\n\n\
         - `D-001`: Keep the handler thin; the query lives in the repository layer.\n\
         - `D-002`: Exports stream rows instead of building the whole file in memory.\n"
    );
    let mut verification = provenance("VERIFICATION", &id);
    let _ = write!(
        verification,
        "# Verification\n\n`Cycle`: `{id}`\n\n## Results\n\n"
    );
    for n in 1..=conditions {
        let _ = writeln!(
            verification,
            "- `AC-{n:03}`: PASS (suite `feature_{j}::ac_{n:03}`)"
        );
    }
    let review = format!(
        "<!-- STANDARDS\nArtifact: REVIEW\nCycle: {id}\nReviewKind: FINAL_DELIVERABLE\n-->\n\
         # Final review\n\n`Cycle`: `{id}`\n\nEvery acceptance condition is met; no findings.\n"
    );
    vec![
        (format!(".standards/docs/scope/{id}.md"), scope),
        (format!(".standards/docs/specs/{id}.md"), spec),
        (format!(".standards/docs/development/{id}.md"), plan),
        (
            format!(".standards/docs/verification/{id}.md"),
            verification,
        ),
        (
            format!(".standards/docs/reviews/{id}/final-deliverable.md"),
            review,
        ),
    ]
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

/// Every file of the working tree under `dir`, relative to `root`.
fn walk(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable folder") {
        let entry = entry.expect("folder entry");
        let path = entry.path();
        if entry.file_type().unwrap().is_dir() {
            walk(root, &path, out);
        } else {
            out.push(path.strip_prefix(root).unwrap().to_path_buf());
        }
    }
}

/// Generates the repository: installs the runtime, writes the history with
/// `git fast-import`, checks it out, and writes the audit events.
fn generate(size: &Size) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    git(root, &["init", "-q", "-b", "main"]);
    let install = sealed(BIN, root)
        .args(["install", "--mode", "brownfield"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("install runs");
    assert!(install.success(), "git standards install failed");
    let mut installed = Vec::new();
    walk(root, &root.join(".standards"), &mut installed);
    for extra in [".gitattributes", ".gitignore"] {
        if root.join(extra).is_file() {
            installed.push(PathBuf::from(extra));
        }
    }

    let mut stream = Vec::new();
    let mut time = 1_735_689_600u64; // 2025-01-01
    let mut next_cycle = 0;
    for commit in 0..size.commits {
        time += 3600;
        let _ = write!(
            stream,
            "commit refs/heads/main\ncommitter Bench <bench@example.com> {time} +0000\n\
             data 11\ncommit {commit:>4}\n"
        );
        if commit == 0 {
            for path in &installed {
                let bytes = std::fs::read(root.join(path)).unwrap();
                data(&mut stream, path.to_str().unwrap(), &bytes);
            }
            for i in 0..size.files {
                let (path, text) = unrelated(i, 0);
                data(&mut stream, &path, text.as_bytes());
            }
        } else {
            let (path, text) = unrelated((commit * 7919) % size.files, commit);
            data(&mut stream, &path, text.as_bytes());
            // Cycles land spread over the history, the last well before HEAD~100.
            while next_cycle < size.cycles && next_cycle * (size.commits - 1) / size.cycles < commit
            {
                for (path, text) in cycle_records(next_cycle) {
                    data(&mut stream, &path, text.as_bytes());
                }
                next_cycle += 1;
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
    git(root, &["reset", "-q", "--hard", "main"]);
    write_events(root, size.cycles);
    dir
}

/// `EVENTS` audit events spread over the cycles' notes (and the project's),
/// written with `git notes` as the tool stores them: one sorted note per anchor.
fn write_events(root: &Path, cycles: usize) {
    let anchors = cycles + 1;
    let mut notes = vec![Vec::new(); anchors];
    for e in 0..EVENTS {
        let a = e % anchors;
        let cycle = if a == 0 {
            "null".to_string()
        } else {
            format!("\"{}\"", cycle_id(a - 1))
        };
        let (s, m) = ((e / 60) % 60, (e / 3600) % 24);
        notes[a].push(format!(
            r#"{{"ts":"2025-06-{:02}T{m:02}:{s:02}:{:02}.000000Z","id":"{e:016x}","event":"record-created","actor":"Bench <bench@example.com>","tool":"git-standards 0.1.0","cycle":{cycle},"state":{{"before":"SCOPING","after":"SCOPING"}},"commit":null,"argv":["artifact"],"path":".standards/docs/scope/x.md"}}"#,
            1 + e / 86_400 % 28,
            e % 60
        ));
    }
    let file = root.join(".git/bench-note");
    for (a, lines) in notes.iter_mut().enumerate() {
        lines.sort();
        std::fs::write(&file, lines.join("\n") + "\n").unwrap();
        let anchor = if a == 0 {
            "git-standards audit anchor v1\nproject\n".to_string()
        } else {
            format!("git-standards audit anchor v1\ncycle {}\n", cycle_id(a - 1))
        };
        let mut child = sealed("git", root)
            .args(["hash-object", "-w", "--stdin"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(anchor.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        let blob = String::from_utf8(out.stdout).unwrap();
        git(
            root,
            &[
                "notes",
                "--ref=standards",
                "add",
                "-f",
                "-F",
                file.to_str().unwrap(),
                blob.trim(),
            ],
        );
    }
    std::fs::remove_file(file).unwrap();
}

/// One run: wall time, peak RSS (KiB) and exit code.
#[derive(Clone)]
struct Run {
    wall: Duration,
    rss_kib: u64,
    code: i32,
    stderr: String,
}

const TIME: &str = "/usr/bin/time";

/// `program args` under `/usr/bin/time -f %M`, which reports the child's
/// `ru_maxrss`. (Taking `wait4`'s rusage here instead would report at least
/// this benchmark process's own RSS: Linux carries the parent's high-water
/// mark over `fork`/`exec` into the child's maximum.)
fn timed(root: &Path, program: impl AsRef<OsStr>, args: &[&str]) -> Command {
    let mut c = sealed(TIME, root);
    c.arg("-f")
        .arg("%M")
        .arg("-o")
        .arg(root.join(".git/bench-rss"))
        .arg(program)
        .args(args);
    c
}

fn run(mut cmd: Command, root: &Path) -> Run {
    cmd.stdout(Stdio::null()).stderr(Stdio::piped());
    let start = Instant::now();
    let out = cmd.output().expect("command starts");
    let wall = start.elapsed();
    let report = std::fs::read_to_string(root.join(".git/bench-rss")).unwrap_or_default();
    let rss_kib = report
        .lines()
        .last()
        .and_then(|l| l.trim().parse().ok())
        .unwrap_or(0);
    Run {
        wall,
        rss_kib,
        code: out.status.code().unwrap_or(-1),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn sh(root: &Path, script: &str) -> Command {
    timed(root, "sh", &["-c", script])
}

fn tool(root: &Path, args: &[&str]) -> Command {
    timed(root, BIN, args)
}

const WORKTREE_FLOOR: &str = "git ls-files -z --cached --others --exclude-standard -- '*.md' >/dev/null \
     && git ls-files -z --cached --others --exclude-standard -- .standards | xargs -0 cat >/dev/null";
const INDEX_FLOOR: &str =
    "git ls-files -s | awk '$4 ~ /^\\.standards\\// || $4 ~ /\\.md$/ {print $2}' \
     | git cat-file --batch >/dev/null";
const COMMIT_FLOOR: &str =
    "git ls-tree -r HEAD | awk '$4 ~ /^\\.standards\\// || $4 ~ /\\.md$/ {print $3}' \
     | git cat-file --batch >/dev/null";

/// A measured case: the command, its reference, and the target ratio.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Case {
    Check,
    Staged,
    /// `check` and `check --staged` with the scan cache off: a first run.
    CheckNoCache,
    StagedNoCache,
    AtRef,
    Status,
    Verify,
    Log,
    CommitUnrelated,
    CommitMarkdown,
    WorktreeFloor,
    IndexFloor,
    CommitFloor,
    PlainCommitUnrelated,
    PlainCommitMarkdown,
    EmptyHookCommitUnrelated,
    EmptyHookCommitMarkdown,
}

const CASES: &[Case] = &[
    Case::WorktreeFloor,
    Case::Check,
    Case::CheckNoCache,
    Case::IndexFloor,
    Case::Staged,
    Case::StagedNoCache,
    Case::CommitFloor,
    Case::AtRef,
    Case::Status,
    Case::Verify,
    Case::Log,
    Case::PlainCommitUnrelated,
    Case::CommitUnrelated,
    Case::PlainCommitMarkdown,
    Case::CommitMarkdown,
    Case::EmptyHookCommitUnrelated,
    Case::EmptyHookCommitMarkdown,
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
    empty: tempfile::TempDir,
}

impl HookFolders {
    fn new() -> HookFolders {
        let empty = tempfile::tempdir().unwrap();
        let hook = empty.path().join("pre-commit");
        std::fs::write(&hook, "#!/bin/sh\nexit 0\n").unwrap();
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755)).unwrap();
        HookFolders {
            none: tempfile::tempdir().unwrap(),
            empty,
        }
    }
}

fn command(case: Case, root: &Path, hooks: &HookFolders) -> Command {
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
    match case {
        Case::Check => tool(root, &["check"]),
        Case::Staged => tool(root, &["check", "--staged"]),
        Case::CheckNoCache => without_scan_cache(tool(root, &["check"])),
        Case::StagedNoCache => without_scan_cache(tool(root, &["check", "--staged"])),
        Case::AtRef => tool(root, &["check", "--ref", "HEAD"]),
        Case::Status => tool(root, &["status"]),
        Case::Verify => tool(root, &["verify", "HEAD~100..HEAD"]),
        Case::Log => tool(root, &["log"]),
        Case::CommitUnrelated | Case::CommitMarkdown => commit(None),
        Case::PlainCommitUnrelated | Case::PlainCommitMarkdown => commit(Some(hooks.none.path())),
        Case::EmptyHookCommitUnrelated | Case::EmptyHookCommitMarkdown => {
            commit(Some(hooks.empty.path()))
        }
        Case::WorktreeFloor => sh(root, WORKTREE_FLOOR),
        Case::IndexFloor => sh(root, INDEX_FLOOR),
        Case::CommitFloor => sh(root, COMMIT_FLOOR),
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

fn median(runs: &[Run], f: impl Fn(&Run) -> f64) -> f64 {
    let mut v: Vec<f64> = runs.iter().map(f).collect();
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

/// Median wall time (ms) and peak RSS (MiB) of each case of one size.
type Medians = std::collections::HashMap<Case, (f64, f64)>;

fn measure(size: &Size, rounds: usize) -> Medians {
    let started = Instant::now();
    let repo = generate(size);
    let (_guard, kept) = if std::env::var_os("BENCH_KEEP").is_some() {
        let path = repo.keep();
        eprintln!("{}: kept the repository at {}", size.name, path.display());
        (None, path)
    } else {
        let path = repo.path().to_path_buf();
        (Some(repo), path)
    };
    let root = kept.as_path();
    eprintln!(
        "{}: generated in {:.1} s",
        size.name,
        started.elapsed().as_secs_f64()
    );
    let check = sealed(BIN, root).arg("check").output().unwrap();
    if !check.status.success() {
        let text = String::from_utf8_lossy(&check.stdout).to_string()
            + &String::from_utf8_lossy(&check.stderr);
        let head: Vec<&str> = text.lines().take(8).collect();
        eprintln!(
            "{}: the generated repository fails `check`:\n{}",
            size.name,
            head.join("\n")
        );
    }
    let hooks = sealed(BIN, root)
        .args(["hooks", "install"])
        .output()
        .unwrap();
    assert!(hooks.status.success(), "hooks install failed");
    if rounds == 0 {
        return Medians::new();
    }
    let hook_folders = HookFolders::new();
    let mut runs: Vec<Vec<Run>> = vec![Vec::new(); CASES.len()];
    // Round 0 warms the caches and is not counted.
    for round in 0..=rounds {
        for (n, &case) in CASES.iter().enumerate() {
            // A number of its own for each staged change, so no two commits
            // stage the same file with the same text (which leaves nothing to commit).
            let change = round * CASES.len() + n;
            match case {
                Case::CommitUnrelated
                | Case::PlainCommitUnrelated
                | Case::EmptyHookCommitUnrelated => stage(root, false, change, size.files),
                Case::CommitMarkdown
                | Case::PlainCommitMarkdown
                | Case::EmptyHookCommitMarkdown => stage(root, true, change, size.files),
                _ => {}
            }
            let r = run(command(case, root, &hook_folders), root);
            if round > 0 {
                runs[n].push(r);
            }
        }
    }
    let get = |case: Case| &runs[CASES.iter().position(|&c| c == case).unwrap()];
    println!(
        "\n## {} ({} cycles, {} files, {} commits, {} events), medians of {rounds} interleaved rounds\n",
        size.name, size.cycles, size.files, size.commits, EVENTS
    );
    println!("| command | exit | ms | RSS MiB | reference | ms | RSS MiB | time ratio | RSS ratio | target |");
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    let rows: &[(&str, Case, &str, Case, &str)] = &[
        (
            "check",
            Case::Check,
            "worktree floor",
            Case::WorktreeFloor,
            "<= 1.5x, RSS <= 1.25x",
        ),
        (
            "check, no scan cache",
            Case::CheckNoCache,
            "worktree floor",
            Case::WorktreeFloor,
            "(none: a first run)",
        ),
        (
            "check --staged",
            Case::Staged,
            "index floor",
            Case::IndexFloor,
            "<= 1.5x, RSS <= 1.25x",
        ),
        (
            "check --staged, no scan cache",
            Case::StagedNoCache,
            "index floor",
            Case::IndexFloor,
            "(none: a first run)",
        ),
        (
            "check --ref HEAD",
            Case::AtRef,
            "commit floor",
            Case::CommitFloor,
            "<= 1.5x, RSS <= 1.25x",
        ),
        (
            "status",
            Case::Status,
            "worktree floor",
            Case::WorktreeFloor,
            "(none)",
        ),
        (
            "verify HEAD~100..HEAD",
            Case::Verify,
            "check",
            Case::Check,
            "<= 5x (medium)",
        ),
        (
            "log (10,000 events)",
            Case::Log,
            "check",
            Case::Check,
            "< 0.5x (medium)",
        ),
        (
            "commit, hooks, unrelated",
            Case::CommitUnrelated,
            "commit, no hooks",
            Case::PlainCommitUnrelated,
            "<= 1.1x",
        ),
        (
            "commit, hooks, Markdown",
            Case::CommitMarkdown,
            "commit, no hooks",
            Case::PlainCommitMarkdown,
            "<= 1.5x",
        ),
        (
            "commit, hooks, unrelated",
            Case::CommitUnrelated,
            "commit, empty hook",
            Case::EmptyHookCommitUnrelated,
            "(none: what the hook adds beyond any hook)",
        ),
        (
            "commit, empty hook, unrelated",
            Case::EmptyHookCommitUnrelated,
            "commit, no hooks",
            Case::PlainCommitUnrelated,
            "(none: git's cost of any hook)",
        ),
    ];
    for &(name, case, ref_name, reference, target) in rows {
        let (a, b) = (get(case), get(reference));
        let ms = |r: &[Run]| median(r, |r| r.wall.as_secs_f64() * 1e3);
        let mib = |r: &[Run]| median(r, |r| r.rss_kib as f64 / 1024.0);
        let codes: Vec<i32> = a.iter().map(|r| r.code).collect();
        let exit = if codes.iter().all(|&c| c == codes[0]) {
            codes[0].to_string()
        } else {
            format!("{codes:?}")
        };
        println!(
            "| {name} | {exit} | {:.1} | {:.1} | {ref_name} | {:.1} | {:.1} | {:.2} | {:.2} | {target} |",
            ms(a),
            mib(a),
            ms(b),
            mib(b),
            ms(a) / ms(b),
            mib(a) / mib(b),
        );
    }
    for (case, case_runs) in CASES.iter().zip(&runs) {
        if let Some(failed) = case_runs.iter().find(|r| r.code != 0) {
            let head: Vec<&str> = failed.stderr.lines().take(6).collect();
            println!("\n{case:?} exited {}: {}", failed.code, head.join("\n    "));
        }
    }
    CASES
        .iter()
        .zip(&runs)
        .map(|(&case, r)| {
            let ms = median(r, |r| r.wall.as_secs_f64() * 1e3);
            let mib = median(r, |r| r.rss_kib as f64 / 1024.0);
            (case, (ms, mib))
        })
        .collect()
}

/// How each command grew from `medium` to `medium-10x-files`, beside the
/// growth of the git floor it is compared with: the floor's growth is what
/// git itself must pay for the same ten times more files.
fn print_growth(base: &Medians, grown: &Medians) {
    println!("\n## growth with 10x unrelated files (medium to medium-10x-files)\n");
    println!("| command | ms | ms at 10x | growth | floor | floor growth | target |");
    println!("| --- | --- | --- | --- | --- | --- | --- |");
    let rows: &[(&str, Case, &str, Case, &str)] = &[
        (
            "check",
            Case::Check,
            "worktree floor",
            Case::WorktreeFloor,
            "<= 2x",
        ),
        (
            "check --staged",
            Case::Staged,
            "index floor",
            Case::IndexFloor,
            "<= 2x",
        ),
        (
            "check --ref HEAD",
            Case::AtRef,
            "commit floor",
            Case::CommitFloor,
            "<= 2x",
        ),
        (
            "status",
            Case::Status,
            "worktree floor",
            Case::WorktreeFloor,
            "(none)",
        ),
    ];
    for &(name, case, floor_name, floor, target) in rows {
        let (Some(a), Some(b)) = (base.get(&case), grown.get(&case)) else {
            continue;
        };
        let (Some(fa), Some(fb)) = (base.get(&floor), grown.get(&floor)) else {
            continue;
        };
        println!(
            "| {name} | {:.1} | {:.1} | {:.2} | {floor_name} | {:.2} | {target} |",
            a.0,
            b.0,
            b.0 / a.0,
            fb.0 / fa.0
        );
    }
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
        vec!["small".into(), "medium".into()]
    };
    let rounds = std::env::var("BENCH_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(5);
    // `growth` is shorthand for the two sizes its table compares.
    let wanted: Vec<String> = wanted
        .into_iter()
        .flat_map(|w| match w.as_str() {
            "growth" => vec!["medium".to_string(), "medium-10x-files".to_string()],
            _ => vec![w],
        })
        .collect();
    let mut measured: Vec<(&str, Medians)> = Vec::new();
    for name in &wanted {
        let Some(size) = SIZES.iter().find(|s| s.name == name) else {
            let names: Vec<&str> = SIZES.iter().map(|s| s.name).collect();
            eprintln!(
                "unknown size `{name}`: choose from {}, or growth",
                names.join(", ")
            );
            std::process::exit(2);
        };
        measured.push((size.name, measure(size, rounds)));
    }
    let find = |name: &str| measured.iter().find(|(n, m)| *n == name && !m.is_empty());
    if let (Some((_, base)), Some((_, grown))) = (find("medium"), find("medium-10x-files")) {
        print_growth(base, grown);
    }
}
