//! Hostile paths (issue 7): every command that reads or writes, run against
//! symbolic links at every component (also swapped in mid-run by a second
//! thread), FIFOs, sockets, device files, link loops, absolute and `..`
//! paths, non-UTF-8 names, nested repositories and submodules. Each case
//! proves two things: a sentinel folder outside the repository is byte for
//! byte unchanged, and no command blocks (every run has a deadline). No
//! command may end with exit 3 (an internal error) or a signal.

use std::io::Write as _;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::fixture::{snapshot, Project};

/// The longest any single command may take here before it counts as blocked.
const DEADLINE: Duration = Duration::from_secs(30);

/// A record-looking file tree outside the repository that must never change.
struct Sentinel {
    dir: PathBuf,
    before: Vec<(String, Vec<u8>)>,
}

impl Sentinel {
    fn new(p: &Project) -> Sentinel {
        let dir = p.env.dir.path().join("outside");
        for (rel, text) in [
            (
                "secret.md",
                "<!-- STANDARDS\nArtifact: SCOPE\nCycle: x\n-->\n- `AC-001`: outside.\n",
            ),
            ("STATE.md", "outside state\n"),
            ("x.md", "outside chapter\n"),
            ("scope/keep.md", "keep\n"),
            ("docs/scope/keep.md", "keep\n"),
        ] {
            crate::common::write(dir.join(rel), text);
        }
        let before = snapshot(&dir);
        Sentinel { dir, before }
    }

    #[track_caller]
    fn unchanged(&self, case: &str) {
        assert_eq!(
            snapshot(&self.dir),
            self.before,
            "{case}: the folder outside the repository changed"
        );
    }
}

/// Runs the binary in `dir` with a deadline and `stdin`; panics if it blocks,
/// dies from a signal or reports an internal error.
fn bounded(p: &Project, dir: &Path, args: &[&str], stdin: &[u8]) -> Output {
    let tmp = p.env.dir.path().join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let mut cmd = p.env.cmd(dir);
    cmd.args(args)
        .env("TMPDIR", &tmp)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("binary runs");
    let mut input = child.stdin.take().unwrap();
    let _ = input.write_all(stdin);
    drop(input);
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > DEADLINE {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "`git standards {}` blocked for {DEADLINE:?}",
                args.join(" ")
            );
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    let code = out.status.code();
    assert!(
        code.is_some(),
        "`{}` died from a signal: {err}",
        args.join(" ")
    );
    assert_ne!(
        code,
        Some(3),
        "`{}` hit an internal error: {err}",
        args.join(" ")
    );
    out
}

/// Every command that reads or writes project files.
fn commands(scope: &str) -> Vec<Vec<String>> {
    [
        &["check"][..],
        &["check", "--staged"],
        &["check", "--ref", "HEAD"],
        &["status"],
        &["status", "--json"],
        &["install", "--dry-run"],
        &["install"],
        &["artifact", "init", "SCOPE"],
        &["artifact", "init", "ARCHITECTURE"],
        &["id", "next", "AC", scope],
        &["cycle", "new", "--request", "Hostile"],
        &["hook", "stop"],
    ]
    .iter()
    .map(|a| a.iter().map(|s| s.to_string()).collect())
    .collect()
}

/// Runs every command; the sentinel stays unchanged after each.
fn run_all(p: &Project, sentinel: &Sentinel, scope: &str, case: &str) -> usize {
    let mut runs = 0;
    for args in commands(scope) {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        bounded(p, &p.root, &args, br#"{"stop_hook_active": false}"#);
        sentinel.unchanged(&format!("{case}: {}", args.join(" ")));
        runs += 1;
    }
    runs
}

/// A brownfield project in SCOPING with its scope record committed.
fn scoping() -> (Project, String) {
    let p = Project::brown();
    p.start_cycle("SCOPING", "STANDARD", "FULL_DELIVERABLE");
    let scope = p.init(&["SCOPE"]);
    p.append(&scope, "\n- `AC-001`: One.\n");
    // A brownfield cycle starts in AUDITING; Scoping follows the audit (PR-006).
    p.set_state(&[("Scope", &scope), ("Kind", "FORWARD"), ("From", "AUDITING")]);
    crate::common::write(p.path(".standards/protocol/sub/x.md"), "chapter\n");
    p.commit("scoping");
    (p, scope)
}

/// Replaces the folder or file `rel` by a symbolic link to `target`.
fn link_over(p: &Project, rel: &str, target: &Path) {
    let path = p.path(rel);
    if path.is_dir() {
        std::fs::remove_dir_all(&path).unwrap();
    } else if path.exists() {
        std::fs::remove_file(&path).unwrap();
    }
    std::os::unix::fs::symlink(target, &path).unwrap();
}

#[test]
fn symbolic_links_at_every_component_are_never_followed() {
    let mut runs = 0;
    let components = [
        ".standards",
        ".standards/docs",
        ".standards/docs/scope",
        ".standards/protocol",
        ".standards/protocol/sub",
        ".standards/STATE.md",
        "SCOPE_RECORD",
    ];
    for component in components {
        let (p, scope) = scoping();
        let sentinel_holder = Sentinel::new(&p);
        let rel = if component == "SCOPE_RECORD" {
            scope.as_str()
        } else {
            component
        };
        let target = match rel.rsplit('/').next().unwrap() {
            "STATE.md" => sentinel_holder.dir.join("STATE.md"),
            name if name.ends_with(".md") => sentinel_holder.dir.join("secret.md"),
            "sub" | "protocol" => sentinel_holder.dir.clone(),
            "scope" => sentinel_holder.dir.join("scope"),
            "docs" => sentinel_holder.dir.join("docs"),
            _ => sentinel_holder.dir.clone(),
        };
        link_over(&p, rel, &target);
        runs += run_all(&p, &sentinel_holder, &scope, rel);
    }
    eprintln!(
        "symbolic links: {} components, {runs} command runs, sentinel unchanged",
        components.len()
    );
}

#[test]
fn fifos_sockets_devices_and_loops_neither_block_nor_pass() {
    let mut runs = 0;
    let specials: [(&str, &str); 6] = [
        ("fifo", ".standards/STATE.md"),
        ("fifo", "SCOPE_RECORD"),
        ("fifo", "docs/notes.md"),
        ("socket", "docs/socket.md"),
        ("device", "docs/zero.md"),
        ("loop", "docs/loop.md"),
    ];
    for (kind, rel) in specials {
        let (p, scope) = scoping();
        let sentinel = Sentinel::new(&p);
        let rel = if rel == "SCOPE_RECORD" {
            scope.as_str()
        } else {
            rel
        };
        let path = p.path(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let _ = std::fs::remove_file(&path);
        let _listener;
        match kind {
            "fifo" => rustix::fs::mknodat(
                rustix::fs::CWD,
                &path,
                rustix::fs::FileType::Fifo,
                rustix::fs::Mode::from_raw_mode(0o644),
                0,
            )
            .unwrap(),
            "socket" => _listener = std::os::unix::net::UnixListener::bind(&path).unwrap(),
            "device" => {
                // A character device needs privileges; a link to one does not.
                if rustix::fs::mknodat(
                    rustix::fs::CWD,
                    &path,
                    rustix::fs::FileType::CharacterDevice,
                    rustix::fs::Mode::from_raw_mode(0o644),
                    rustix::fs::makedev(1, 5),
                )
                .is_err()
                {
                    std::os::unix::fs::symlink("/dev/zero", &path).unwrap();
                }
            }
            _ => {
                std::os::unix::fs::symlink(p.path("docs/loop2.md"), &path).unwrap();
                std::os::unix::fs::symlink(&path, p.path("docs/loop2.md")).unwrap();
                std::os::unix::fs::symlink(".", p.path("docs/self")).unwrap();
            }
        }
        runs += run_all(&p, &sentinel, &scope, &format!("{kind} at {rel}"));
        // A special file where a workflow file belongs is a problem, not a pass.
        if rel.starts_with(".standards/") {
            let out = bounded(&p, &p.root, &["check"], b"");
            assert_eq!(
                out.status.code(),
                Some(1),
                "{kind} at {rel} must fail check"
            );
        }
    }
    eprintln!(
        "special files: {} cases, {runs} command runs, none blocked",
        specials.len()
    );
}

#[test]
fn absolute_and_parent_paths_stay_outside() {
    let (p, scope) = scoping();
    let sentinel = Sentinel::new(&p);
    let secret = sentinel.dir.join("secret.md");
    let secret = secret.to_str().unwrap();
    for active in [
        secret,
        "../outside/secret.md",
        "/.standards/docs/scope/x.md",
    ] {
        p.set_state(&[("Scope", active)]);
        run_all(
            &p,
            &sentinel,
            &scope,
            &format!("Active Work Scope {active}"),
        );
        let out = bounded(&p, &p.root, &["check"], b"");
        assert_eq!(out.status.code(), Some(1), "`{active}` must not pass check");
    }
    for target in [
        secret,
        "../outside/secret.md",
        ".git/config",
        ".standards/STATE.md",
    ] {
        let out = bounded(&p, &p.root, &["id", "next", "AC", target], b"");
        assert_eq!(
            out.status.code(),
            Some(1),
            "id next AC {target} must refuse"
        );
        sentinel.unchanged(target);
    }
}

#[test]
fn non_utf8_names_are_reported_not_skipped() {
    let (p, _) = scoping();
    let name = std::ffi::OsStr::from_bytes(b"docs/bad-\xff.md");
    crate::common::write(
        p.root.join(name),
        "<!-- STANDARDS\nArtifact: BOGUS\nCycle: c\n-->\n",
    );
    let out = bounded(&p, &p.root, &["check"], b"");
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    // Check's rule for a candidate it cannot read: a note naming it, never silence.
    assert!(text.contains("bad-\u{FFFD}.md"), "{text}");
    assert!(text.contains("not valid UTF-8"), "{text}");
}

#[test]
fn nested_repositories_and_submodules_are_not_scanned() {
    let (p, scope) = scoping();
    let sentinel = Sentinel::new(&p);
    let broken = "<!-- STANDARDS\nArtifact: BOGUS\nCycle: c\n-->\n";
    let nested = p.path("vendor/nested");
    std::fs::create_dir_all(&nested).unwrap();
    p.env.git(&nested, &["init", "-q"]);
    crate::common::write(nested.join("notes.md"), broken);
    // A gitlink entry as `git submodule add` leaves it, with its checkout.
    let sub = p.path("vendor/sub");
    std::fs::create_dir_all(&sub).unwrap();
    p.env.git(&sub, &["init", "-q"]);
    crate::common::write(sub.join("README.md"), broken);
    p.env.git(&sub, &["add", "-A"]);
    p.env.git(&sub, &["commit", "-qm", "sub"]);
    let head = p.env.git(&sub, &["rev-parse", "HEAD"]);
    p.env.git(
        &p.root,
        &[
            "update-index",
            "--add",
            "--cacheinfo",
            &format!("160000,{},vendor/sub", head.trim()),
        ],
    );
    let out = bounded(&p, &p.root, &["check"], b"");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    run_all(&p, &sentinel, &scope, "nested repositories");
}

/// A second thread swaps folders and files for links and FIFOs while the
/// commands run: the kernel refuses every swapped-in link (handles, not
/// names), and nothing blocks.
#[test]
fn swaps_by_a_second_thread_never_escape_or_block() {
    let (p, scope) = scoping();
    let sentinel = Sentinel::new(&p);
    let stop = Arc::new(AtomicBool::new(false));
    let docs = p.path(".standards/docs/scope");
    let parked = p.path(".standards/docs/scope-parked");
    let record = p.path(&scope);
    let outside = sentinel.dir.join("scope");
    let swapper = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            let mut swaps = 0u64;
            while !stop.load(Ordering::Relaxed) {
                // Folder -> link to the sentinel -> folder again.
                if std::fs::rename(&docs, &parked).is_ok() {
                    let _ = std::os::unix::fs::symlink(&outside, &docs);
                    std::thread::yield_now();
                    let _ = std::fs::remove_file(&docs);
                    let _ = std::fs::rename(&parked, &docs);
                }
                // Record -> FIFO -> record again.
                let saved = std::fs::read(&record).ok();
                if let Some(bytes) = saved {
                    let _ = std::fs::remove_file(&record);
                    let _ = rustix::fs::mknodat(
                        rustix::fs::CWD,
                        &record,
                        rustix::fs::FileType::Fifo,
                        rustix::fs::Mode::from_raw_mode(0o644),
                        0,
                    );
                    std::thread::yield_now();
                    let _ = std::fs::remove_file(&record);
                    let _ = std::fs::write(&record, bytes);
                }
                swaps += 1;
            }
            swaps
        })
    };
    let mut runs = 0;
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(8) {
        runs += run_all(&p, &sentinel, &scope, "swapped mid-run");
    }
    stop.store(true, Ordering::Relaxed);
    let swaps = swapper.join().unwrap();
    sentinel.unchanged("after the swaps");
    eprintln!("second-thread swaps: {swaps} swaps during {runs} command runs, sentinel unchanged, none blocked");
}

/// Issue 7 item 1: a chapter folder swapped for a link while the index still
/// lists a retired chapter below it; untracked user Markdown in the folder.
#[test]
fn install_never_removes_through_links_or_removes_user_markdown() {
    let (p, _) = scoping();
    let sentinel = Sentinel::new(&p);
    // The index lists `sub/x.md`, a chapter this version does not ship.
    link_over(&p, ".standards/protocol/sub", &sentinel.dir);
    for args in [&["install", "--dry-run"][..], &["install"]] {
        let out = bounded(&p, &p.root, args, b"");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(
            err.contains("symbolic link") || err.contains("not a normal folder"),
            "{err}"
        );
        sentinel.unchanged("install through a linked chapter folder");
    }
    // Back to a real folder: the tracked, unchanged chapter goes; the user's stays.
    std::fs::remove_file(p.path(".standards/protocol/sub")).unwrap();
    p.env
        .git(&p.root, &["checkout", "--", ".standards/protocol/sub"]);
    crate::common::write(p.path(".standards/protocol/mine.md"), "my notes\n");
    crate::common::write(
        p.path(".standards/protocol/sub/edited.md"),
        "tracked then edited\n",
    );
    p.env
        .git(&p.root, &["add", ".standards/protocol/sub/edited.md"]);
    crate::common::write(
        p.path(".standards/protocol/sub/edited.md"),
        "edited since\n",
    );
    let out = bounded(&p, &p.root, &["install"], b"");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        !p.path(".standards/protocol/sub/x.md").exists(),
        "the unchanged tracked chapter is removed"
    );
    assert_eq!(
        crate::common::read(p.path(".standards/protocol/mine.md")),
        "my notes\n"
    );
    assert_eq!(
        crate::common::read(p.path(".standards/protocol/sub/edited.md")),
        "edited since\n"
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("mine.md") && err.contains("edited.md"),
        "{err}"
    );
}

/// Issue 7 item 2: `.standards/` absent from the working tree while the index
/// or HEAD holds the runtime: install and check refuse and name the way back.
#[test]
fn a_runtime_missing_from_the_working_tree_is_restored_not_reinstalled() {
    let (p, _) = scoping();
    let state = p.state();
    std::fs::remove_dir_all(p.path(".standards")).unwrap();
    for args in [&["install"][..], &["check"], &["install", "--dry-run"]] {
        let out = bounded(&p, &p.root, args, b"");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains("git restore .standards"), "{err}");
        assert!(err.contains("git sparse-checkout add .standards"), "{err}");
        assert!(!p.path(".standards").exists(), "{args:?} wrote nothing");
    }
    // Only in HEAD (the deletion staged): still refused.
    p.env.git(&p.root, &["rm", "-rq", "--cached", ".standards"]);
    let out = bounded(&p, &p.root, &["install"], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("HEAD"));
    p.env.git(
        &p.root,
        &["restore", "--staged", "--worktree", ".standards"],
    );
    assert_eq!(p.state(), state, "git gives the committed state back");
    // A sparse checkout that excludes `.standards`.
    p.env.git(
        &p.root,
        &["sparse-checkout", "set", "--no-cone", "/*", "!/.standards/"],
    );
    assert!(!p.path(".standards/STATE.md").exists());
    let out = bounded(&p, &p.root, &["install"], b"");
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Issue 7 item 5: a damaged index, a shallow clone, a corrupt HEAD.
#[test]
fn damaged_repositories_fail_instead_of_passing() {
    let (p, _) = scoping();
    // A damaged index: check and the stop hook must not pass.
    let index = p.root.join(".git/index");
    let good = std::fs::read(&index).unwrap();
    std::fs::write(&index, b"DIRC garbage").unwrap();
    let out = bounded(&p, &p.root, &["check"], b"");
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("index"));
    let out = bounded(
        &p,
        &p.root,
        &["hook", "stop"],
        br#"{"stop_hook_active": false}"#,
    );
    assert_ne!(out.status.code(), Some(0), "the stop hook must not pass");
    std::fs::write(&index, &good).unwrap();
    // Only the trailing checksum wrong: git reads such an index (only `git
    // fsck` verifies the checksum), and so do the read-only commands; the
    // commands that write the index keep gix's verification.
    let mut bad_sum = good.clone();
    *bad_sum.last_mut().unwrap() ^= 0xff;
    std::fs::write(&index, &bad_sum).unwrap();
    p.env.git(&p.root, &["status", "--short"]);
    for args in [&["check"][..], &["check", "--staged"], &["status"]] {
        let out = bounded(&p, &p.root, args, b"");
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    std::fs::write(&index, good).unwrap();

    // A depth-1 clone whose HEAD deleted an acceptance ID.
    let scope = p.init(&["SCOPE"]);
    let text = p.read(&scope).replace("- `AC-001`: One.\n", "");
    p.write(&scope, text);
    p.commit("delete AC-001");
    let clone = p.env.dir.path().join("shallow");
    p.env.git(
        p.env.dir.path(),
        &[
            "clone",
            "-q",
            "--depth",
            "1",
            &format!("file://{}", p.root.display()),
            "shallow",
        ],
    );
    let out = bounded(&p, &clone, &["check", "--ref", "HEAD"], b"");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("shallow") && err.contains("--allow-shallow"),
        "{err}"
    );
    let out = bounded(
        &p,
        &clone,
        &["check", "--ref", "HEAD", "--allow-shallow"],
        b"",
    );
    assert_ne!(out.status.code(), Some(3));
    // In the full repository the deletion is caught.
    let out = bounded(&p, &p.root, &["check", "--ref", "HEAD"], b"");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("GT-003") || text.contains("AC-001"), "{text}");

    // A missing tree object: a refusal naming `git fsck`, not exit 3.
    let tree = p.env.git(&p.root, &["rev-parse", "HEAD^{tree}"]);
    let tree = tree.trim();
    let object = p
        .root
        .join(format!(".git/objects/{}/{}", &tree[..2], &tree[2..]));
    std::fs::remove_file(&object).unwrap();
    for args in [&["check"][..], &["check", "--ref", "HEAD"]] {
        let out = bounded(&p, &p.root, args, b"");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains("git fsck"), "{args:?}: {err}");
    }
}

/// Issue 7 items 4 and 6: endless standard input, a missing `$TMPDIR`, a
/// marker folder of another kind; the hook neither hangs nor fails open.
#[test]
fn the_stop_hook_is_bounded_and_fails_closed() {
    let (p, _) = scoping();
    crate::common::write(
        p.path("docs/broken.md"),
        "<!-- STANDARDS\nArtifact: BOGUS\nCycle: c\n-->\n",
    );
    // Endless input: cut after the cap, the check still runs.
    let mut cmd = p.env.cmd(&p.root);
    std::fs::create_dir_all(p.env.dir.path().join("tmp")).unwrap();
    cmd.args(["hook", "stop"])
        .env("TMPDIR", p.env.dir.path().join("tmp"))
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let mut input = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        let chunk = vec![b' '; 64 * 1024];
        let mut sent = 0usize;
        while input.write_all(&chunk).is_ok() {
            sent += chunk.len();
            if sent > 4 << 30 {
                break;
            }
        }
        sent
    });
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        assert!(
            started.elapsed() < DEADLINE,
            "the hook hangs on endless input"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let status = child.wait().unwrap();
    let sent = feeder.join().unwrap();
    assert_eq!(status.code(), Some(2));
    eprintln!("endless stdin: the hook exited after {sent} bytes were offered");

    // A `$TMPDIR` that does not exist: nothing is created, and the hook still blocks.
    let missing = p.env.dir.path().join("no/such/tmp");
    let mut cmd = p.env.cmd(&p.root);
    cmd.args(["hook", "stop"]).env("TMPDIR", &missing);
    let out = assert_cmd::Command::from_std(cmd)
        .write_stdin("{}")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("could not remember this turn"), "{err}");
    assert!(
        !p.env.dir.path().join("no").exists(),
        "no ancestor of $TMPDIR is created"
    );

    // A marker folder that is a link elsewhere: fail closed, write nothing there.
    let sentinel = Sentinel::new(&p);
    let tmp = p.env.dir.path().join("tmp2");
    std::fs::create_dir_all(&tmp).unwrap();
    std::os::unix::fs::symlink(&sentinel.dir, tmp.join("standards-hooks")).unwrap();
    let mut cmd = p.env.cmd(&p.root);
    cmd.args(["hook", "stop"]).env("TMPDIR", &tmp);
    let out = assert_cmd::Command::from_std(cmd)
        .write_stdin("{}")
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    sentinel.unchanged("marker folder linked elsewhere");
}

/// Issue 7 item 5: with `GIT_DIR` and no `GIT_WORK_TREE`, git takes the
/// current folder as the working tree; so does git standards.
#[test]
fn git_dir_without_a_work_tree_uses_the_current_folder_as_git_does() {
    let (p, _) = scoping();
    let elsewhere = p.env.dir.path().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let git_dir = p.root.join(".git");
    // Git sees every tracked file as deleted from `elsewhere`.
    let mut git = p.env.sealed("git", &elsewhere);
    git.args(["status", "--porcelain"]).env("GIT_DIR", &git_dir);
    let status = String::from_utf8(git.output().unwrap().stdout).unwrap();
    assert!(status.contains(" D .standards/STATE.md"), "{status}");
    let mut cmd = p.env.cmd(&elsewhere);
    cmd.args(["check"]).env("GIT_DIR", &git_dir);
    let out = cmd.output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("git restore .standards"), "{err}");
}

/// Issue 7 item 6: concurrent `artifact init` runs all print the one record
/// (the losers of the race find the winner's record instead of a raw error).
#[test]
fn concurrent_artifact_inits_all_print_the_one_record() {
    let p = Project::brown();
    p.start_cycle("ARCHITECTING", "STANDARD", "FULL_DELIVERABLE");
    let bin = crate::common::Env::bin();
    let children: Vec<_> = (0..6)
        .map(|_| {
            let mut cmd = p.env.sealed(&bin, &p.root);
            cmd.args(["artifact", "init", "ARCHITECTURE"])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped());
            cmd.spawn().unwrap()
        })
        .collect();
    let outputs: Vec<Output> = children
        .into_iter()
        .map(|c| c.wait_with_output().unwrap())
        .collect();
    let first = String::from_utf8_lossy(&outputs[0].stdout).to_string();
    for out in &outputs {
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(String::from_utf8_lossy(&out.stdout), first);
    }
}
