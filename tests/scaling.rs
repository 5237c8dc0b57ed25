//! Scaling of the rules' inputs (issue 7): a record with a million
//! identifiers, a 200 MB STATE.md, 100,000 headings, a 500 MB notes file.
//! Each gets an answer or a clear error, within a deadline and with bounded
//! memory (the child's peak resident size, read from `/proc`, is printed and
//! capped). Timing growth factors live in `benches/scaling.rs`, not here.

use std::process::{Output, Stdio};
use std::time::{Duration, Instant};

use crate::fixture::Project;

const DEADLINE: Duration = Duration::from_secs(120);

/// Runs the binary, sampling its peak resident size (KiB) until it exits.
fn measured(p: &Project, args: &[&str], stdin: &[u8]) -> (Output, u64, Duration) {
    let tmp = p.env.dir.path().join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let mut cmd = p.env.cmd(&p.root);
    cmd.args(args)
        .env("TMPDIR", &tmp)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let started = Instant::now();
    let mut child = cmd.spawn().unwrap();
    {
        use std::io::Write as _;
        let mut input = child.stdin.take().unwrap();
        let _ = input.write_all(stdin);
    }
    let status = format!("/proc/{}/status", child.id());
    let mut peak = 0u64;
    // Drain the pipes while sampling, so a large output cannot stall the child.
    let mut out_pipe = child.stdout.take().unwrap();
    let mut err_pipe = child.stderr.take().unwrap();
    let out_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = std::io::Read::read_to_end(&mut out_pipe, &mut v);
        v
    });
    let err_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = std::io::Read::read_to_end(&mut err_pipe, &mut v);
        v
    });
    loop {
        if let Ok(text) = std::fs::read_to_string(&status) {
            if let Some(kb) = text
                .lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|n| n.parse().ok())
            {
                peak = peak.max(kb);
            }
        }
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if started.elapsed() > DEADLINE {
            let _ = child.kill();
            panic!("`{}` did not finish in {DEADLINE:?}", args.join(" "));
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let status = child.wait().unwrap();
    let took = started.elapsed();
    let out = Output {
        status,
        stdout: out_reader.join().unwrap(),
        stderr: err_reader.join().unwrap(),
    };
    assert_ne!(
        out.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.code().is_some(), "killed by a signal");
    (out, peak, took)
}

/// A project in SCOPING whose scope record defines `n` acceptance conditions.
fn scope_with(n: usize) -> (Project, String) {
    let p = Project::brown();
    p.start_cycle("SCOPING", "STANDARD", "FULL_DELIVERABLE");
    let scope = p.init(&["SCOPE"]);
    let mut text = p.read(&scope);
    text.reserve(n * 24);
    for i in 1..=n {
        text.push_str(&format!("- `AC-{i:03}`: condition {i}.\n"));
    }
    p.write(&scope, text);
    p.set_state(&[("Scope", &scope)]);
    (p, scope)
}

/// A million identifiers: `id next` reads and numbers them all; `check`
/// reads them too (its growth factor, linear since the de-duplication became
/// a set, is in `benches/scaling.rs`; in a debug build a full check of a
/// million takes minutes, so this test checks a tenth of them).
#[test]
fn a_record_with_a_million_identifiers_gets_an_answer() {
    let (p, scope) = scope_with(1_000_000);
    let size = std::fs::metadata(p.path(&scope)).unwrap().len();
    let (out, peak, took) = measured(&p, &["id", "next", "AC", &scope], b"");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "AC-1000001");
    assert!(peak < 1024 * 1024, "peak {peak} KiB");
    eprintln!(
        "1,000,000 AC IDs ({} MiB scope): id next in {took:?}, peak RSS {} MiB",
        size >> 20,
        peak >> 10
    );
    let (p, _) = scope_with(100_000);
    let (out, peak, took) = measured(&p, &["check"], b"");
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(peak < 1024 * 1024, "peak {peak} KiB");
    eprintln!(
        "100,000 AC IDs: check exit {:?} in {took:?}, peak RSS {} MiB",
        out.status.code(),
        peak >> 10
    );
}

#[test]
fn a_200_mb_state_file_is_a_clear_error_with_bounded_memory() {
    let p = Project::brown();
    let state = p.path(".standards/STATE.md");
    let file = std::fs::OpenOptions::new()
        .append(true)
        .open(&state)
        .unwrap();
    file.set_len(200 << 20).unwrap();
    for args in [&["check"][..], &["status"]] {
        let (out, peak, took) = measured(&p, args, b"");
        let err = String::from_utf8_lossy(&out.stderr).to_string()
            + &String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(err.contains("larger than the 64 MiB"), "{args:?}: {err}");
        assert!(peak < 256 * 1024, "{args:?}: peak {peak} KiB");
        eprintln!(
            "200 MiB STATE.md: {args:?} refused in {took:?}, peak RSS {} MiB",
            peak >> 10
        );
    }
}

#[test]
fn a_record_with_100000_headings_gets_an_answer() {
    let p = Project::brown();
    p.start_cycle("SCOPING", "STANDARD", "FULL_DELIVERABLE");
    let scope = p.init(&["SCOPE"]);
    let mut text = p.read(&scope);
    for i in 0..100_000 {
        text.push_str(&format!("## Section {i}\n\n### F-{i:06}\n\ntext\n\n"));
    }
    p.write(&scope, text);
    p.set_state(&[("Scope", &scope)]);
    let (out, peak, took) = measured(&p, &["check"], b"");
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(peak < 1024 * 1024, "peak {peak} KiB");
    eprintln!(
        "100,000 headings: check exit {:?} in {took:?}, peak RSS {} MiB",
        out.status.code(),
        peak >> 10
    );
}

#[test]
fn a_500_mb_notes_file_is_read_only_as_far_as_its_start() {
    let p = Project::brown();
    p.commit("installed");
    let notes = p.path("docs/notes.md");
    crate::common::write(&notes, "# Notes\n");
    std::fs::OpenOptions::new()
        .append(true)
        .open(&notes)
        .unwrap()
        .set_len(500 << 20)
        .unwrap();
    for (args, stdin) in [(&["check"][..], &b""[..]), (&["hook", "stop"], &b"{}"[..])] {
        let (out, peak, took) = measured(&p, args, stdin);
        assert!(
            matches!(out.status.code(), Some(0..=2)),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        // The old hook read it whole: 1.47 GB.
        assert!(peak < 128 * 1024, "{args:?}: peak {peak} KiB");
        eprintln!(
            "500 MiB notes.md: {args:?} exit {:?} in {took:?}, peak RSS {} MiB",
            out.status.code(),
            peak >> 10
        );
    }
}
