//! Benchmark: `git standards log` over a trail of 10,000 events (100 cycles
//! of 99 events plus 100 project events), read from a real repository's
//! notes through the library, as the binary runs it.
//!
//! Run with `cargo bench --bench log`. Prints one line per scenario: events
//! printed, median and max wall time over the runs.

use std::time::{Duration, Instant};

use git_standards::repo::notes::{self, Anchor, ANCHORS_DIR, NOTES_REF};
use standards_core::audit::{Event, EventKind, Stamp};

const CYCLES: usize = 100;
const PER_CYCLE: usize = 99;
const PROJECT: usize = 100;

fn stamp(n: usize) -> Stamp {
    Stamp {
        ts: format!(
            "2026-12-01T{:02}:{:02}:{:02}.{:06}Z",
            n / 3600 % 24,
            n / 60 % 60,
            n % 60,
            n
        ),
        id: format!("{n:016x}"),
        actor: "Bench Person <bench@example.com>".into(),
        tool: "git-standards 0.1.0".into(),
        commit: Some("0123456789abcdef0123456789abcdef01234567".into()),
        argv: vec!["artifact".into(), "init".into(), "VERIFICATION".into()],
    }
}

/// A repository whose notes ref holds the whole trail in one notes commit.
fn trail() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().expect("temp dir");
    let ok = std::process::Command::new("git")
        .args(["init", "-q"])
        .current_dir(dir.path())
        .status()
        .expect("git runs")
        .success();
    assert!(ok);
    let repo = gix::open(dir.path()).expect("open");
    let repo = notes::writer(&repo);
    let mut state =
        gix::note::plumbing::State::new(gix::ObjectId::empty_tree(repo.object_hash()), &repo)
            .expect("state");
    let mut anchors = Vec::new();
    let mut n = 0;
    let mut add = |anchor: Anchor, count: usize, n: &mut usize| {
        let mut lines = Vec::new();
        for _ in 0..count {
            *n += 1;
            let mut e = Event::new(EventKind::RecordCreated)
                .detail("path", format!(".standards/docs/verification/{n}.md"))
                .detail("blob", "89abcdef0123456789abcdef0123456789abcdef");
            if let Anchor::Cycle(c) = &anchor {
                e = e.cycle(c.as_str());
            }
            lines.push(e.to_line(&stamp(*n)));
        }
        lines.sort();
        let text = lines.join("\n") + "\n";
        let anchor_id = repo.write_blob(anchor.bytes()).expect("anchor").detach();
        let blob = repo.write_blob(text.as_bytes()).expect("note").detach();
        state.edit(anchor_id, Some(blob), &repo).expect("edit");
        anchors.push(anchor_id);
    };
    let mut first_cycle = String::new();
    for c in 0..CYCLES {
        let id = format!("bench-{c}-20261201T000000Z-{c:08x}");
        if c == 0 {
            first_cycle = id.clone();
        }
        add(Anchor::Cycle(id), PER_CYCLE, &mut n);
    }
    add(Anchor::Project, PROJECT, &mut n);
    let mut tree = state.write(&repo).expect("tree");
    let mut editor = repo.edit_tree(tree).expect("editor");
    for a in &anchors {
        editor
            .upsert(
                format!("{ANCHORS_DIR}/{a}"),
                gix::objs::tree::EntryKind::Blob,
                *a,
            )
            .expect("anchor entry");
    }
    tree = editor.write().expect("tree").detach();
    let commit = notes::write_commit(&repo, "bench", tree, &[]).expect("commit");
    assert!(matches!(
        notes::move_ref(&repo, NOTES_REF, None, commit, "bench").expect("ref"),
        notes::Moved::Done
    ));
    (dir, first_cycle)
}

fn measure(name: &str, runs: usize, mut f: impl FnMut() -> usize) {
    let events = f(); // warm-up
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect();
    times.sort();
    println!(
        "{name:<36} events {events:>6}  median {:>8.2} ms  max {:>8.2} ms",
        times[times.len() / 2].as_secs_f64() * 1e3,
        times.last().expect("runs").as_secs_f64() * 1e3
    );
}

fn run_log(dir: &std::path::Path, args: &[&str]) -> usize {
    use clap::Parser;
    let mut argv = vec![
        "git-standards",
        "-C",
        dir.to_str().expect("UTF-8 path"),
        "log",
    ];
    argv.extend_from_slice(args);
    let cli = git_standards::cli::Cli::try_parse_from(argv).expect("arguments");
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = git_standards::cli::run(cli, &mut out, &mut err, Default::default());
    assert_eq!(code, 0, "{}", String::from_utf8_lossy(&err));
    out.iter().filter(|b| **b == b'\n').count()
}

fn main() {
    let (dir, cycle) = trail();
    let total = CYCLES * PER_CYCLE + PROJECT;
    assert_eq!(run_log(dir.path(), &[]), total);
    measure("log (readable, 10,000 events)", 10, || {
        run_log(dir.path(), &[])
    });
    measure("log --json (10,000 events)", 10, || {
        run_log(dir.path(), &["--json"])
    });
    measure("log --cycle <id> (one lookup)", 10, || {
        run_log(dir.path(), &["--cycle", &cycle])
    });
    measure("log --event --actor --limit", 10, || {
        run_log(
            dir.path(),
            &[
                "--event",
                "record-created",
                "--actor",
                "bench*",
                "--limit",
                "20",
            ],
        )
    });
}
