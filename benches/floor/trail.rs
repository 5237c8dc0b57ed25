//! The audit trail: `log` of 10,000 events against git's floor for reading
//! the same notes, loose and packed (and of 100,000 events, packed, to show
//! how memory grows), and the cost of writing one event after 100, 1,000
//! and 10,000 cycles beside git's own `git notes append` of one line to the
//! same note of a copy of the same trail.
//!
//! A scratch project walks three cycles with the binary (a STANDARD one, an
//! EXPEDITED one, a STANDARD one left open), so its trail is the tool's own.
//! More cycles are added as the tool itself stores them: each a note, on
//! the cycle's anchor blob, holding the event lines of one of the walked
//! cycles with a new cycle ID, time and event ID, written through the
//! library's own notes code (`gix::note::plumbing::State` and
//! `repo::notes::keep_anchors`, the anchors folder fanned out as the tool
//! fans it) in one notes commit. Walking 10,000 cycles with `start` and
//! `reset` would take hours; the layout is the same.

use git_standards::repo::notes::{self, Anchor, Staged, NOTES_REF};
use std::path::{Path, PathBuf};

use super::{git, git_text, median, run, sealed, timed, tool_ok, verdict, walk, Stats, BIN};

pub const LOG_FLOOR: &str =
    "git notes --ref=standards list | cut -d' ' -f1 | git cat-file --batch >/dev/null";

/// The event lines of the walked cycles, by cycle ID, in walk order.
fn templates(root: &Path) -> Vec<(String, Vec<String>)> {
    let list = git_text(root, &["notes", "--ref=standards", "list"]);
    let mut by_cycle: Vec<(String, Vec<String>)> = Vec::new();
    for line in list.lines() {
        let blob = line.split(' ').next().unwrap();
        let text = git_text(root, &["cat-file", "blob", blob]);
        for event in text.lines() {
            let value: serde_json::Value = serde_json::from_str(event).expect("an event line");
            let Some(cycle) = value["cycle"].as_str() else {
                continue;
            };
            match by_cycle.iter_mut().find(|(c, _)| c == cycle) {
                Some((_, lines)) => lines.push(event.to_string()),
                None => by_cycle.push((cycle.to_string(), vec![event.to_string()])),
            }
        }
    }
    // Oldest cycle first (IDs carry their start time after the slug).
    by_cycle.sort_by_key(|(_, lines)| lines.iter().min().cloned());
    by_cycle
}

/// `line` with a new cycle ID, time and event ID.
fn rewrite(line: &str, old_cycle: &str, new_cycle: &str, n: usize) -> String {
    let line = line.replace(old_cycle, new_cycle);
    let mut value: serde_json::Value = serde_json::from_str(&line).unwrap();
    let (day, hour) = (1 + (n / 86_400) % 28, (n / 3600) % 24);
    value["ts"] = format!(
        "2025-{:02}-{day:02}T{hour:02}:{:02}:{:02}.{:06}Z",
        1 + (n / (86_400 * 28)) % 12,
        (n / 60) % 60,
        n % 60,
        n % 1_000_000
    )
    .into();
    value["id"] = format!("{:016x}", (n as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)).into();
    serde_json::to_string(&value).unwrap()
}

/// Adds `cycles` cycles to the trail of `root` in one notes commit, as the
/// tool lays them out; stops adding events once the trail holds
/// `cap` of them. Returns the events added.
fn synthesize(root: &Path, cycles: usize, cap: Option<usize>, already: usize) -> usize {
    let sources = templates(root);
    let finished: Vec<&(String, Vec<String>)> = sources.iter().take(2).collect();
    let repo = gix::open(root).expect("open");
    let repo = notes::writer(&repo);
    let tip = notes::tip(&repo, NOTES_REF).unwrap().expect("a trail");
    let tree = repo.find_commit(tip).unwrap().tree_id().unwrap().detach();
    let mut state = gix::note::plumbing::State::new(tree, &repo).expect("notes state");
    let mut pairs = Vec::new();
    let mut added = 0;
    for k in 0..cycles {
        let (old, lines) = finished[k % finished.len()];
        let month = 1 + k % 12;
        let day = 1 + (k / 12) % 28;
        let id = format!(
            "feature-{k}-2025{month:02}{day:02}T{:02}0000Z-{:08x}",
            k % 24,
            (k as u64).wrapping_mul(2_654_435_761) % (1 << 32)
        );
        let mut text: Vec<String> = Vec::new();
        for line in lines {
            if cap.is_some_and(|c| already + added >= c) {
                break;
            }
            text.push(rewrite(line, old, &id, already + added));
            added += 1;
        }
        if text.is_empty() {
            break;
        }
        text.sort();
        text.dedup();
        let anchor = Anchor::Cycle(id);
        let anchor_blob = repo.write_blob(anchor.bytes()).unwrap().detach();
        let blob = repo
            .write_blob((text.join("\n") + "\n").as_bytes())
            .unwrap()
            .detach();
        state.edit(anchor_blob, Some(blob), &repo).unwrap();
        pairs.push((anchor_blob, anchor_blob));
    }
    let staged = Staged::new(&repo);
    let notes_root = state.write(&staged).unwrap();
    let tree = notes::keep_anchors(&repo, &staged, notes_root, &pairs).unwrap();
    let commit = notes::write_commit(&repo, "bench: more cycles", tree, &[tip]).unwrap();
    assert!(matches!(
        notes::move_ref(&repo, NOTES_REF, Some(tip), commit, "bench").unwrap(),
        notes::Moved::Done
    ));
    added
}

fn events(root: &Path) -> usize {
    tool_ok(root, &["log", "--json"]).lines().count()
}

fn copy(from: &Path, to: &Path) {
    let ok = std::process::Command::new("cp")
        .args(["-a", &format!("{}/.", from.display())])
        .arg(to)
        .status()
        .unwrap()
        .success();
    assert!(ok, "cp -a");
}

/// Every object of `root` loose: what a writer that never packs leaves.
fn unpack_all(root: &Path) {
    git(root, &["repack", "-adq"]);
    let pack_dir = root.join(".git/objects/pack");
    for entry in std::fs::read_dir(&pack_dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "pack") {
            let moved = std::env::temp_dir().join(format!(
                "bench-unpack-{}-{}",
                std::process::id(),
                path.file_name().unwrap().to_string_lossy()
            ));
            std::fs::rename(&path, &moved).unwrap();
            let _ = std::fs::remove_file(path.with_extension("idx"));
            let _ = std::fs::remove_file(path.with_extension("rev"));
            let status = sealed("git", root)
                .args(["unpack-objects", "-q"])
                .stdin(std::fs::File::open(&moved).unwrap())
                .status()
                .unwrap();
            assert!(status.success(), "unpack-objects");
            std::fs::remove_file(moved).unwrap();
        }
    }
}

fn count_objects(root: &Path) -> String {
    let text = git_text(root, &["count-objects", "-v"]);
    let get = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(&format!("{key}: ")))
            .unwrap_or("?")
            .to_string()
    };
    format!(
        "{} loose objects, {} in {} pack(s)",
        get("count"),
        get("in-pack"),
        get("packs")
    )
}

/// Bytes and files under `.git/objects`.
fn objects_size(root: &Path) -> (u64, u64) {
    fn walk(dir: &Path, total: &mut (u64, u64)) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let entry = entry.unwrap();
            let meta = entry.metadata().unwrap();
            if meta.is_dir() {
                walk(&entry.path(), total);
            } else {
                total.0 += meta.len();
                total.1 += 1;
            }
        }
    }
    let mut total = (0, 0);
    walk(&root.join(".git/objects"), &mut total);
    total
}

/// The cycle the walk left open: the cycle of its newest event.
fn open_cycle(root: &Path) -> String {
    let newest = tool_ok(root, &["log", "--json", "--limit", "1"]);
    let value: serde_json::Value = serde_json::from_str(newest.trim()).expect("an event");
    value["cycle"]
        .as_str()
        .expect("the walk's newest event is in its open cycle")
        .to_string()
}

/// A `human-turn` event line on `cycle`, as git's own write appends it.
fn git_line(cycle: &str, round: usize) -> String {
    serde_json::json!({
        "ts": format!("2026-12-02T12:00:{:02}.000000Z", round % 60),
        "id": format!("{:016x}", (round as u64 + 1).wrapping_mul(0x2545_f491_4f6c_dd1d)),
        "event": "human-turn",
        "actor": "Bench <bench@example.com>",
        "cycle": cycle,
        "client": "claude",
    })
    .to_string()
}

/// The trail repositories, kept when `BENCH_KEEP` is set (their paths are
/// printed), else removed at the end.
fn place(dir: tempfile::TempDir, what: &str, keep: bool) -> (Option<tempfile::TempDir>, PathBuf) {
    if keep {
        let path = dir.keep();
        eprintln!("trail: kept {what} at {}", path.display());
        (None, path)
    } else {
        let path = dir.path().to_path_buf();
        (Some(dir), path)
    }
}

/// One event write's figures: CPU and wall of the runs, bytes and files added.
#[derive(Clone, Default)]
struct Writes {
    stats: Stats,
    bytes: Vec<f64>,
    files: Vec<f64>,
}

impl Writes {
    fn measure(
        &mut self,
        root: &Path,
        cmd: std::process::Command,
        stdin: Option<&[u8]>,
        counted: bool,
    ) {
        let before = objects_size(root);
        let r = run(cmd, root, stdin);
        let after = objects_size(root);
        assert_eq!(r.code, 0, "a write failed: {}", r.stderr);
        if counted {
            self.stats.push(&r);
            self.bytes.push(after.0 as f64 - before.0 as f64);
            self.files.push(after.1 as f64 - before.1 as f64);
        }
    }
}

pub const WRITE_SIZES: [usize; 3] = [100, 1_000, 10_000];

pub fn section(rounds: usize) {
    let started = std::time::Instant::now();
    let keep = std::env::var_os("BENCH_KEEP").is_some();
    let base = tempfile::tempdir().unwrap();
    let mut walker = walk::Walk::install(base.path());
    walker.cycles(3);
    let walked = events(base.path());
    let cycle = open_cycle(base.path());
    let anchor = Anchor::Cycle(cycle.clone())
        .id(gix::hash::Kind::Sha1)
        .unwrap()
        .to_string();

    // `log` of 10,000 events, loose and packed; of 100,000, packed.
    let log_repo = tempfile::tempdir().unwrap();
    copy(base.path(), log_repo.path());
    synthesize(log_repo.path(), 10_000, Some(10_000), walked);
    let total = events(log_repo.path());
    let (_loose, loose) = place(
        tempfile::tempdir().unwrap(),
        "the loose 10,000-event trail",
        keep,
    );
    let (_packed, packed) = place(
        tempfile::tempdir().unwrap(),
        "the packed 10,000-event trail",
        keep,
    );
    copy(log_repo.path(), &loose);
    copy(log_repo.path(), &packed);
    unpack_all(&loose);
    git(&packed, &["repack", "-adq"]);
    git(&packed, &["prune-packed"]);
    let (_big, big) = place(
        tempfile::tempdir().unwrap(),
        "the packed 100,000-event trail",
        keep,
    );
    copy(base.path(), &big);
    synthesize(&big, 100_000, Some(100_000), walked);
    git(&big, &["repack", "-adq"]);
    git(&big, &["prune-packed"]);
    let big_total = events(&big);
    let notes_count = git_text(&loose, &["notes", "--ref=standards", "list"])
        .lines()
        .count();
    let big_notes = git_text(&big, &["notes", "--ref=standards", "list"])
        .lines()
        .count();
    eprintln!(
        "trail: the log trails ({total} and {big_total} events) generated in {:.1} s",
        started.elapsed().as_secs_f64()
    );

    // Storage: the trail after 100, 1,000 and 10,000 cycles, twice each:
    // one copy for the tool's writes, one for git's.
    let mut storage = Vec::new();
    for cycles in WRITE_SIZES {
        let (ours_guard, ours) = place(
            tempfile::tempdir().unwrap(),
            &format!("the {cycles}-cycle trail (the tool's writes)"),
            keep,
        );
        copy(base.path(), &ours);
        synthesize(&ours, cycles - 3, None, 0);
        // As git's gc leaves a trail (the tool runs `git gc --auto`).
        git(&ours, &["repack", "-adq"]);
        git(&ours, &["prune-packed"]);
        let (gits_guard, gits) = place(
            tempfile::tempdir().unwrap(),
            &format!("the {cycles}-cycle trail (git's writes)"),
            keep,
        );
        copy(&ours, &gits);
        storage.push((cycles, ours, gits, ours_guard, gits_guard));
    }
    eprintln!(
        "trail: the 100-, 1,000- and 10,000-cycle trails generated in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    let storage_events: Vec<usize> = storage.iter().map(|s| events(&s.1)).collect();
    if rounds == 0 {
        eprintln!("trail: BENCH_ROUNDS=0, nothing measured");
        return;
    }

    let log_cases: [(&str, &Path, bool); 6] = [
        ("loose", &loose, false),
        ("loose", &loose, true),
        ("packed", &packed, false),
        ("packed", &packed, true),
        ("packed, 100,000 events", &big, false),
        ("packed, 100,000 events", &big, true),
    ];
    let mut log_stats = vec![Stats::default(); log_cases.len()];
    let mut ours = vec![Writes::default(); storage.len()];
    let mut gits = vec![Writes::default(); storage.len()];
    for round in 0..=rounds {
        for (n, (_, root, floor)) in log_cases.iter().enumerate() {
            let cmd = if *floor {
                timed(root, "sh", &["-c", LOG_FLOOR])
            } else {
                timed(root, BIN, &["log"])
            };
            let r = run(cmd, root, None);
            if round > 0 {
                log_stats[n].push(&r);
            }
        }
        for (n, (_, mine, theirs, _, _)) in storage.iter().enumerate() {
            let payload = serde_json::json!({
                "session_id": "bench",
                "hook_event_name": "UserPromptSubmit",
                "cwd": mine,
                "prompt": format!("Continue with round {round}."),
            })
            .to_string();
            ours[n].measure(
                mine,
                timed(mine, BIN, &["hook", "prompt-submit", "--client", "claude"]),
                Some(payload.as_bytes()),
                round > 0,
            );
            let line = git_line(&cycle, round);
            gits[n].measure(
                theirs,
                timed(
                    theirs,
                    "git",
                    &["notes", "--ref=standards", "append", "-m", &line, &anchor],
                ),
                None,
                round > 0,
            );
        }
    }
    let written: Vec<usize> = storage.iter().map(|s| events(&s.1)).collect();
    let written_by_git: Vec<usize> = storage.iter().map(|s| events(&s.2)).collect();

    println!("\n### Audit trail\n");
    println!(
        "`log` reads {total} events ({} walked with the binary, the rest added as cycles in the \
         tool's layout: {notes_count} notes). Loose: {}; packed: {}. The 100,000-event trail \
         ({big_total} events, {big_notes} notes) is packed: {}. Medians [min–max] of \
         {rounds} interleaved rounds after a warm-up round; ratios on CPU (user+sys).\n",
        walked,
        count_objects(&loose),
        count_objects(&packed),
        count_objects(&big),
    );
    println!("| command | trail | exit | CPU ms | wall ms | RSS MiB (max) | floor CPU ms | floor wall ms | floor RSS MiB | CPU ratio | target | verdict |");
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for pair in 0..log_cases.len() / 2 {
        let (name, _, _) = log_cases[pair * 2];
        let (a, b) = (&log_stats[pair * 2], &log_stats[pair * 2 + 1]);
        let ratio = median(&a.cpu) / median(&b.cpu);
        let (target, judged) = if pair < 2 {
            (
                "CPU ≤ 1.5x",
                verdict(&[(ratio <= 1.5, format!("CPU {ratio:.2}x"))]),
            )
        } else {
            // Bounded memory: from the packed 10,000-event trail to this
            // one, peak RSS grows no more than git's own read of the notes
            // grows (whose pages of the pack and its index it maps).
            let (small, small_floor) = (&log_stats[2], &log_stats[3]);
            let ours = median(&a.rss) - median(&small.rss);
            let gits = median(&b.rss) - median(&small_floor.rss);
            (
                "RSS growth from the packed 10,000 ≤ the floor's",
                verdict(&[(
                    ours <= gits,
                    format!("RSS +{ours:.1} MiB, the floor +{gits:.1} MiB"),
                )]),
            )
        };
        println!(
            "| git standards log | {name} | {} | {} | {} | {:.1} ({:.1}) | {} | {} | {:.1} | {ratio:.2} | {target} | {judged} |",
            a.exit(),
            Stats::spread(&a.cpu),
            Stats::spread(&a.wall),
            median(&a.rss),
            a.max_rss(),
            Stats::spread(&b.cpu),
            Stats::spread(&b.wall),
            median(&b.rss),
        );
    }
    println!(
        "\nThe floor: `{LOG_FLOOR}` (floor exit codes: {}).",
        (0..log_cases.len() / 2)
            .map(|p| format!("{} {}", log_cases[p * 2].0, log_stats[p * 2 + 1].exit()))
            .collect::<Vec<_>>()
            .join(", ")
    );

    println!(
        "\nWriting one event (`git standards hook prompt-submit --client claude`, a `human-turn` \
         event on the open cycle's note) into trails of {} cycles ({} events before), packed as \
         `git gc` leaves them; the floor is git's own write of one line to the same note on a \
         copy of the same trail: `git notes --ref=standards append -m <line> <anchor>` (the \
         line a `human-turn` event of the same shape, the anchor the open cycle's anchor blob). \
         {rounds} writes each after a warm-up write, interleaved. Bytes and files are what each \
         write added under `.git/objects`. The writes landed: {} events afterwards (ours), {} \
         (git's).\n",
        WRITE_SIZES.map(|c| c.to_string()).join(", "),
        storage_events
            .iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join(", "),
        written
            .iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join(", "),
        written_by_git
            .iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join(", "),
    );
    println!("| cycles so far | exit | CPU ms | wall ms | RSS MiB | bytes added | files added | git's CPU ms | git's bytes added | git's files added | bytes vs git's |");
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for (n, (cycles, ..)) in storage.iter().enumerate() {
        let (s, g) = (&ours[n], &gits[n]);
        println!(
            "| {cycles} | {} | {} | {} | {:.1} | {} | {} | {} | {} | {} | {:.2}x |",
            s.stats.exit(),
            Stats::spread(&s.stats.cpu),
            Stats::spread(&s.stats.wall),
            median(&s.stats.rss),
            Stats::spread(&s.bytes),
            Stats::spread(&s.files),
            Stats::spread(&g.stats.cpu),
            Stats::spread(&g.bytes),
            Stats::spread(&g.files),
            median(&s.bytes) / median(&g.bytes),
        );
    }
    let last = storage.len() - 1;
    let cpu = median(&ours[last].stats.cpu) / median(&ours[0].stats.cpu);
    let bytes = median(&ours[last].bytes) / median(&ours[0].bytes);
    let vs_git = median(&ours[last].bytes) / median(&gits[last].bytes);
    println!(
        "\nIndependent of the cycles so far (the issue's target: at 10,000 cycles ≤ 1.25x the \
         figure at 100, CPU and bytes): {}. Against git's own write at 10,000 cycles: bytes \
         {vs_git:.2}x.",
        verdict(&[
            (cpu <= 1.25, format!("CPU {cpu:.2}x")),
            (bytes <= 1.25, format!("bytes {bytes:.2}x")),
        ])
    );
    let (size, _) = objects_size(&storage[last].1);
    println!(
        "The whole 10,000-cycle trail, packed: {:.1} MiB under `.git/objects` ({} events, {:.0} bytes per event).",
        size as f64 / 1048576.0,
        written[last],
        size as f64 / written[last] as f64
    );
    eprintln!(
        "trail: measured in {:.1} s",
        started.elapsed().as_secs_f64()
    );
}
