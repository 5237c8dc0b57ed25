//! `log`'s outputs pinned byte for byte (issue 27): every format, filter and
//! bad-line report over a trail written by hand with the `git` CLI (notes in
//! every form a hand edit or a fetch can leave: unsorted, duplicated across
//! notes, other time zones, other key orders, escapes, control characters,
//! invalid lines, invalid UTF-8, a note on an object that is no anchor).
//! `fixtures/log/pinned.txt` holds what the binary printed before `log` was
//! rewritten for speed; `UPDATE_LOG=1 cargo test --test tests log_pinned`
//! rewrites it (only for a deliberate change of the output).
//!
//! A second, larger trail of generated lines checks the order against the
//! lines git itself reads back, sorted here by time, then `ts` and `id`.

use std::path::Path;

use crate::audit::{cycle_anchor, project_anchor};
use crate::common::{write, Env, Rng};

const PINNED: &str = "fixtures/log/pinned.txt";

const SEARCH: &str = "add-search-20261201T092653Z-723e4025";
const EXPORT: &str = "rewrite-the-export-of-every-record-and-the-index-20261202T101010Z-0badf00d";

/// Stores `text` exactly (no clean-up of blank lines or spaces) as the note
/// on `object`, as a hand edit or a fetched trail can leave it.
fn put_note(env: &Env, repo: &Path, object: &str, text: &[u8]) {
    let path = repo.join(".git/note-text");
    write(&path, text);
    let blob = env.git(repo, &["hash-object", "-w", path.to_str().unwrap()]);
    std::fs::remove_file(&path).unwrap();
    env.git(
        repo,
        &[
            "notes",
            "--ref=standards",
            "add",
            "-f",
            "-C",
            blob.trim(),
            object,
        ],
    );
}

/// A blob holding `text`, written with git.
fn blob(env: &Env, repo: &Path, text: &str) -> String {
    let path = repo.join(".git/blob-text");
    write(&path, text);
    let id = env.git(repo, &["hash-object", "-w", path.to_str().unwrap()]);
    std::fs::remove_file(&path).unwrap();
    id.trim().to_string()
}

fn lines(lines: &[&str]) -> Vec<u8> {
    let mut text = lines.join("\n").into_bytes();
    text.push(b'\n');
    text
}

/// The hand-written trail: three anchors, a note on a plain blob.
fn trail() -> (Env, std::path::PathBuf) {
    let (env, repo) = Env::repo();
    let search = cycle_anchor(&env, &repo, SEARCH);
    let export = cycle_anchor(&env, &repo, EXPORT);
    let project = project_anchor(&env, &repo);
    // The anchors must exist for `log` to name them in a bad-line report.
    for text in [
        format!("git-standards audit anchor v1\ncycle {SEARCH}\n"),
        format!("git-standards audit anchor v1\ncycle {EXPORT}\n"),
        "git-standards audit anchor v1\nproject\n".to_string(),
    ] {
        blob(&env, &repo, &text);
    }
    let long = "the search ".repeat(20);
    let search_lines = [
        format!(
            r#"{{"ts":"2026-12-01T09:26:53.000001Z","id":"00a1","event":"cycle-id-issued","actor":"Test Author <author@example.com>","tool":"git-standards 0.1.0","argv":["cycle","new"],"cycle":"{SEARCH}","commit":null,"request":"Add search: {long}"}}"#
        ),
        format!(
            r#"{{"ts":"2026-12-01T09:27:00.000000Z","id":"00a2","event":"state-changed","actor":"Test Author <author@example.com>","cycle":"{SEARCH}","state":{{"before":"SCOPING","after":"PLANNING"}},"reason":"The scope is agreed.","commit":"0123456789abcdef0123456789abcdef01234567"}}"#
        ),
        // Same time as the next line of the export note: ordered by `id`.
        format!(
            r#"{{"ts":"2026-12-01T10:00:00.000000Z","id":"00b9","event":"human-turn","actor":"Test Author <author@example.com>","cycle":"{SEARCH}","client":"claude"}}"#
        ),
        // Another time zone: the same instant as 09:30 UTC, sorted by time.
        format!(
            r#"{{"ts":"2026-12-01T11:30:00+02:00","id":"00a3","event":"blocked","actor":"Ünïcödé Nämé <u@example.org>","cycle":"{SEARCH}","reason":"waits for the\nindex \u001b[31mred\u001b[0m\ttab","items":["a","b","c","d","e"],"n":3,"ok":true,"obj":{{"k":[1,2]}},"none":null}}"#
        ),
        // Another key order and spacing: read by the full parser.
        format!(
            r#"{{ "id":"00a4", "ts":"2026-12-01T09:45:00Z", "event":"unblocked", "cycle":"{SEARCH}" }}"#
        ),
        // An escaped `id`: the key has escapes.
        format!(
            r#"{{"ts":"2026-12-01T09:50:00.000000Z","id":"00\u0061","event":"handoff","actor":"A","cycle":"{SEARCH}","to":"ARCHITECTING","reason":"日本語のテキスト{long}"}}"#
        ),
        "not json at all".to_string(),
        "[1,2,3]".to_string(),
        r#"{"ts":"yesterday","id":"x","event":"reset"}"#.to_string(),
        r#"{"id":"no-ts","event":"reset"}"#.to_string(),
        r#"{"ts":"2026-12-01T09:00:00Z","id":"s","event":"reset","state":"DONE"}"#.to_string(),
        r#"{"ts":"2026-12-01T09:00:00Z","id":"s","event":"reset","state":{"before":"A"}}"#
            .to_string(),
        r#"{"ts":"2026-12-01T09:00:00Z","id":"s","event":7}"#.to_string(),
        r#"{"ts":"2026-12-01T09:00:00Z","id":"s","event":"reset"} trailing"#.to_string(),
    ];
    let mut search_text = Vec::new();
    // Hand-edited: not sorted, a blank line, invalid UTF-8, no final newline.
    for (i, l) in search_lines.iter().enumerate().rev() {
        search_text.extend_from_slice(l.as_bytes());
        search_text.push(b'\n');
        if i == 3 {
            search_text.extend_from_slice(b"\n\xff\xfe not utf-8\n");
        }
    }
    search_text.extend_from_slice(
        format!(r#"{{"ts":"2026-12-01T09:26:53.000001Z","id":"00a0","event":"note","actor":"","cycle":"{SEARCH}"}}"#).as_bytes(),
    );
    put_note(&env, &repo, &search, &search_text);
    let export_lines = [
        format!(
            r#"{{"ts":"2026-12-01T10:00:00.000000Z","id":"00b1","event":"cycle-id-issued","actor":"Other Person <other@example.org>","cycle":"{EXPORT}","request":"Rewrite the export"}}"#
        ),
        format!(
            r#"{{"ts":"2026-12-01T10:00:00.000000Z","id":"00b1","event":"cycle-id-issued","actor":"Other Person <other@example.org>","cycle":"{EXPORT}","request":"Rewrite the export"}}"#
        ),
        format!(
            r#"{{"ts":"2026-12-01T10:05:00.500000Z","id":"00b2","event":"a-very-long-event-type-from-a-newer-tool","actor":"Other Person <other@example.org>","cycle":"{EXPORT}","state":{{"before":"PLANNING","after":"ARCHITECTING"}},"paths":["x"]}}"#
        ),
        format!(
            r#"{{"ts":"2026-12-02T00:00:00.000000Z","id":"00b3","event":"reset","actor":"Other Person <other@example.org>","cycle":"{EXPORT}","commit":null,"archive":"refs/standards/archive/{EXPORT}"}}"#
        ),
    ];
    let export_refs: Vec<&str> = export_lines.iter().map(String::as_str).collect();
    put_note(&env, &repo, &export, &lines(&export_refs));
    let project_lines = [
        r#"{"ts":"2026-11-30T08:00:00.000000Z","id":"0001","event":"installed","actor":"Test Author <author@example.com>","created":["a","b","c","d"],"config":[]}"#,
        r#"{"ts":"2026-12-03T08:00:00.000000Z","id":"0002","event":"upgraded","actor":"Test Author <author@example.com>","cycle":null,"from":"0.1.0","to":"0.2.0"}"#,
        // The same line as in the export note: printed once.
        r#"{"ts":"2026-12-01T10:00:00.000000Z","id":"00b1","event":"cycle-id-issued","actor":"Other Person <other@example.org>","cycle":"rewrite-the-export-of-every-record-and-the-index-20261202T101010Z-0badf00d","request":"Rewrite the export"}"#,
        r#"{"ts":"2026-12-01T12:00:00.000000Z","id":"0003","event":"check-failed","actor":"Bot <bot@example.com>","rules":["R1","R2"],"reason":"\u0007bell \r carriage"}"#,
    ];
    put_note(&env, &repo, &project, &lines(&project_lines));
    // A note on a blob that is no anchor.
    let plain = blob(&env, &repo, "just a file\n");
    put_note(
        &env,
        &repo,
        &plain,
        &lines(&[
            r#"{"ts":"2026-12-01T09:59:59.999999Z","id":"0100","event":"foreign","actor":"Someone"}"#,
            "{broken",
        ]),
    );
    (env, repo)
}

const CASES: &[&[&str]] = &[
    &["log"],
    &["log", "--color", "always"],
    &["log", "--format", "full"],
    &["log", "--format", "full", "--color", "always"],
    &["log", "--json"],
    &["log", "--limit", "3"],
    &["log", "--json", "--limit", "2"],
    &["log", "--format", "full", "--limit", "1"],
    &["log", "--cycle", SEARCH],
    &["log", "--cycle", SEARCH, "--json"],
    &["log", "--cycle", EXPORT, "--format", "full"],
    &["log", "--cycle", "no-such-cycle"],
    &["log", "--cycle", "no-such-cycle", "--json"],
    &["log", "--event", "reset", "--event", "STATE-CHANGED"],
    &["log", "--event", "reset", "--json"],
    &[
        "log",
        "--since",
        "2026-12-01T10:00:00",
        "--until",
        "2026-12-01",
    ],
    &["log", "--since", "2026-12-02"],
    &[
        "log",
        "--until",
        "2026-12-01T09:30:00+00:00",
        "--format",
        "full",
    ],
    &["log", "--actor", "*@example.org"],
    &["log", "--actor", "OTHER", "--json", "--limit", "1"],
    &["log", "--actor", "nobody"],
];

/// Every case's stdout, stderr and exit code, as one text.
fn outputs(env: &Env, repo: &Path) -> String {
    outputs_keeping(env, repo, None)
}

/// [`outputs`], with `log` keeping at most `keep` bytes of note text from
/// its first reading (`GIT_STANDARDS_LOG_KEEP`, read by debug builds):
/// past it, texts are dropped and read again when the output reaches them.
fn outputs_keeping(env: &Env, repo: &Path, keep: Option<usize>) -> String {
    let mut all = String::new();
    for args in CASES {
        let mut cmd = env.cmd(repo);
        if let Some(keep) = keep {
            cmd.env("GIT_STANDARDS_LOG_KEEP", keep.to_string());
        }
        let out = cmd.args(*args).output().unwrap();
        all.push_str(&format!("$ git standards {}\n", args.join(" ")));
        all.push_str("--- stdout\n");
        all.push_str(&String::from_utf8_lossy(&out.stdout));
        all.push_str("--- stderr\n");
        all.push_str(&String::from_utf8_lossy(&out.stderr));
        all.push_str(&format!("--- exit {}\n\n", out.status.code().unwrap_or(-1)));
    }
    all
}

#[test]
fn log_outputs_are_pinned_byte_for_byte() {
    let (env, repo) = trail();
    let got = outputs(&env, &repo);
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(PINNED);
    if std::env::var_os("UPDATE_LOG").is_some_and(|v| v == "1") {
        write(&path, &got);
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap();
    same(&got, &want);
    // With no text kept (every note read twice) or some: the same bytes.
    for keep in [0, 700] {
        same(&outputs_keeping(&env, &repo, Some(keep)), &want);
    }
    // Packed as `git gc` leaves a trail (the notes are read in pack order),
    // then with one note rewritten loose on top: the same bytes.
    env.git(&repo, &["repack", "-adq"]);
    env.git(&repo, &["prune-packed"]);
    assert!(!env
        .git(&repo, &["count-objects", "-v"])
        .contains("\nin-pack: 0\n"));
    same(&outputs(&env, &repo), &want);
    same(&outputs_keeping(&env, &repo, Some(0)), &want);
    let project = project_anchor(&env, &repo);
    let text = env.git(&repo, &["notes", "--ref=standards", "show", &project]);
    put_note(&env, &repo, &project, text.as_bytes());
    same(&outputs(&env, &repo), &want);
}

fn same(got: &str, want: &str) {
    if got != want {
        let first = got
            .lines()
            .zip(want.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(got.lines().count().min(want.lines().count()));
        panic!(
            "`log` printed something else than {PINNED} (first difference at line {}):\n got: {:?}\nwant: {:?}",
            first + 1,
            got.lines().nth(first),
            want.lines().nth(first)
        );
    }
}

/// Many notes of canonical lines, some stored sorted as the tool leaves
/// them, some in hand-edited order, with times that interleave across notes
/// and repeat: `log --json` prints every valid line once, in the order of
/// (time, `ts`, `id`) that this test computes from what git reads back
/// (lines with equal keys in the order git lists them).
#[test]
fn log_order_over_many_notes_is_the_order_of_the_lines_git_reads() {
    let (env, repo) = Env::repo();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for n in 0..24 {
        let cycle = format!("gen-{n}-20261201T000000Z-{n:08x}");
        let anchor = blob(
            &env,
            &repo,
            &format!("git-standards audit anchor v1\ncycle {cycle}\n"),
        );
        let mut text: Vec<String> = Vec::new();
        for i in 0..(5 + rng.next() % 40) {
            // Few distinct seconds: many equal times across notes.
            let second = rng.next() % 50;
            let micros = if rng.next().is_multiple_of(3) {
                0
            } else {
                rng.next() % 1000
            };
            let ts = if rng.next().is_multiple_of(7) {
                // Same instant, another offset: other text, other byte order.
                format!("2026-12-01T11:00:{second:02}.{micros:06}+02:00")
            } else {
                format!("2026-12-01T09:00:{second:02}.{micros:06}Z")
            };
            text.push(format!(
                r#"{{"ts":"{ts}","id":"{:04x}","event":"human-turn","actor":"A","cycle":"{cycle}","i":{i}}}"#,
                rng.next() % 0x1_0000
            ));
        }
        if n % 3 != 0 {
            // As the tool stores a note: sorted bytewise, unique.
            text.sort();
            text.dedup();
        }
        let refs: Vec<&str> = text.iter().map(String::as_str).collect();
        put_note(&env, &repo, &anchor, &lines(&refs));
    }
    // What git reads back, sorted here.
    let mut want: Vec<(chrono::DateTime<chrono::Utc>, String, String, String)> = Vec::new();
    for l in env
        .git(&repo, &["notes", "--ref=standards", "list"])
        .lines()
    {
        let note = l.split(' ').next().unwrap();
        for line in env.git(&repo, &["cat-file", "blob", note]).lines() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let ts = v["ts"].as_str().unwrap().to_string();
            let time = chrono::DateTime::parse_from_rfc3339(&ts)
                .unwrap()
                .with_timezone(&chrono::Utc);
            want.push((
                time,
                ts,
                v["id"].as_str().unwrap().to_string(),
                line.to_string(),
            ));
        }
    }
    // Equal keys keep the order git lists them in (by annotated object,
    // then line by line).
    want.sort_by(|a, b| (a.0, &a.1, &a.2).cmp(&(b.0, &b.1, &b.2)));
    let want: Vec<String> = want.into_iter().map(|w| w.3).collect();
    assert!(want.len() > 300, "{}", want.len());
    // Equal lines in different notes are printed once (they sort together).
    let mut unique = want.clone();
    unique.dedup();
    // Every text kept, none, or some (the rest read again).
    for keep in [None, Some(0), Some(4000)] {
        let mut cmd = env.cmd(&repo);
        if let Some(keep) = keep {
            cmd.env("GIT_STANDARDS_LOG_KEEP", keep.to_string());
        }
        let out = cmd.args(["log", "--json"]).output().unwrap();
        assert!(out.status.success());
        let got: Vec<&str> = std::str::from_utf8(&out.stdout).unwrap().lines().collect();
        same_lines(&got, &unique, keep);
    }
    // The readable form prints the same events, one line each, in order.
    let out = env
        .cmd(&repo)
        .args(["log", "--format", "full"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), unique.len());
    for (line, json) in text.lines().zip(&unique) {
        let v: serde_json::Value = serde_json::from_str(json).unwrap();
        let i = v["i"].to_string();
        assert!(
            line.ends_with(&format!("  human-turn  i={i}")),
            "{line} / {json}"
        );
        assert!(line.contains(v["cycle"].as_str().unwrap()), "{line}");
    }
}

fn same_lines(got: &[&str], unique: &[String], keep: Option<usize>) {
    if let Some(i) = (0..got.len().max(unique.len()))
        .find(|i| got.get(*i).copied() != unique.get(*i).map(String::as_str))
    {
        panic!(
            "keeping {keep:?}: line {i} of {} (want {}): got {:?}, want {:?}",
            got.len(),
            unique.len(),
            got.get(i),
            unique.get(i)
        );
    }
}

/// A second process rewrites a note and repacks the trail while `log` is
/// between its two readings (no text kept, so every note is read again):
/// `log` prints the trail as its first reading listed it, whole and in
/// order, and the next `log` prints the new line.
#[test]
fn a_trail_rewritten_between_the_two_readings_prints_as_first_read() {
    let (env, repo) = trail();
    let before = env
        .cmd(&repo)
        .args(["log", "--json"])
        .env("GIT_STANDARDS_LOG_KEEP", "0")
        .output()
        .unwrap();
    assert!(before.status.success());
    let barrier = env.dir.path().join("barrier");
    std::fs::create_dir_all(&barrier).unwrap();
    let held = env
        .cmd(&repo)
        .args(["log", "--json"])
        .env("GIT_STANDARDS_LOG_KEEP", "0")
        .env(
            "GIT_STANDARDS_PAUSE",
            format!("log:read={}", barrier.display()),
        )
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !std::fs::read_dir(&barrier).unwrap().any(|e| {
        e.unwrap()
            .file_name()
            .to_string_lossy()
            .starts_with("arrived-")
    }) {
        assert!(std::time::Instant::now() < deadline, "log never paused");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let project = project_anchor(&env, &repo);
    let mut text = env.git(&repo, &["notes", "--ref=standards", "show", &project]);
    let added = r#"{"ts":"2026-12-04T08:00:00.000000Z","id":"0009","event":"upgraded","actor":"Test Author <author@example.com>","from":"0.2.0","to":"0.3.0"}"#;
    text.push_str(added);
    text.push('\n');
    put_note(&env, &repo, &project, text.as_bytes());
    env.git(&repo, &["repack", "-adq"]);
    write(barrier.join("go"), "");
    let during = held.wait_with_output().unwrap();
    assert!(
        during.status.success(),
        "{}",
        String::from_utf8_lossy(&during.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&during.stdout),
        String::from_utf8_lossy(&before.stdout)
    );
    assert_eq!(during.stderr, before.stderr);
    let after = env.cmd(&repo).args(["log", "--json"]).output().unwrap();
    let after = String::from_utf8(after.stdout).unwrap();
    assert_eq!(after.lines().last(), Some(added));
}
