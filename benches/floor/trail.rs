//! The audit trail: `log` of 10,000 events against git's floor for reading
//! the same notes, loose and packed, and the cost of writing one event
//! after 100 and after 10,000 cycles.
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
use std::path::Path;

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

pub fn section(rounds: usize) {
    let started = std::time::Instant::now();
    let base = tempfile::tempdir().unwrap();
    let mut walker = walk::Walk::install(base.path());
    walker.cycles(3);
    let walked = events(base.path());

    // `log` of 10,000 events, loose and packed.
    let log_repo = tempfile::tempdir().unwrap();
    copy(base.path(), log_repo.path());
    synthesize(log_repo.path(), 10_000, Some(10_000), walked);
    let total = events(log_repo.path());
    let loose = tempfile::tempdir().unwrap();
    let packed = tempfile::tempdir().unwrap();
    copy(log_repo.path(), loose.path());
    copy(log_repo.path(), packed.path());
    unpack_all(loose.path());
    git(packed.path(), &["repack", "-adq"]);
    git(packed.path(), &["prune-packed"]);
    let notes_count = git_text(loose.path(), &["notes", "--ref=standards", "list"])
        .lines()
        .count();
    eprintln!(
        "trail: the log trail ({total} events) generated in {:.1} s",
        started.elapsed().as_secs_f64()
    );

    // Storage: the trail after 100 and after 10,000 cycles.
    let mut storage = Vec::new();
    for cycles in [100usize, 10_000] {
        let dir = tempfile::tempdir().unwrap();
        copy(base.path(), dir.path());
        synthesize(dir.path(), cycles - 3, None, 0);
        // As git's gc leaves a trail (the tool runs `git gc --auto`).
        git(dir.path(), &["repack", "-adq"]);
        git(dir.path(), &["prune-packed"]);
        storage.push((cycles, dir));
    }
    eprintln!(
        "trail: the 100- and 10,000-cycle trails generated in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    let storage_events: Vec<usize> = storage.iter().map(|(_, d)| events(d.path())).collect();

    let log_cases: [(&str, &Path, bool); 4] = [
        ("loose", loose.path(), false),
        ("loose", loose.path(), true),
        ("packed", packed.path(), false),
        ("packed", packed.path(), true),
    ];
    let mut log_stats = vec![Stats::default(); 4];
    let mut write_stats = vec![Stats::default(); 2];
    let mut write_bytes: Vec<Vec<f64>> = vec![Vec::new(); 2];
    let mut write_files: Vec<Vec<f64>> = vec![Vec::new(); 2];
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
        for (n, (_, dir)) in storage.iter().enumerate() {
            let root = dir.path();
            let payload = serde_json::json!({
                "session_id": "bench",
                "hook_event_name": "UserPromptSubmit",
                "cwd": root,
                "prompt": format!("Continue with round {round}."),
            })
            .to_string();
            let before = objects_size(root);
            let r = run(
                timed(root, BIN, &["hook", "prompt-submit", "--client", "claude"]),
                root,
                Some(payload.as_bytes()),
            );
            let after = objects_size(root);
            if round > 0 {
                write_stats[n].push(&r);
                write_bytes[n].push(after.0 as f64 - before.0 as f64);
                write_files[n].push(after.1 as f64 - before.1 as f64);
            }
        }
    }
    let written: Vec<usize> = storage.iter().map(|(_, d)| events(d.path())).collect();

    println!("\n### Audit trail\n");
    println!(
        "`log` reads {total} events ({} walked with the binary, the rest added as cycles in the \
         tool's layout: {notes_count} notes). Loose: {}; packed: {}. Medians [min–max] of \
         {rounds} interleaved rounds after a warm-up round; ratios on CPU (user+sys).\n",
        walked,
        count_objects(loose.path()),
        count_objects(packed.path()),
    );
    println!("| command | trail | exit | CPU ms | wall ms | RSS MiB (max) | floor CPU ms | floor wall ms | floor RSS MiB | CPU ratio | target | verdict |");
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for pair in 0..2 {
        let (name, _, _) = log_cases[pair * 2];
        let (a, b) = (&log_stats[pair * 2], &log_stats[pair * 2 + 1]);
        let ratio = median(&a.cpu) / median(&b.cpu);
        println!(
            "| git standards log | {name} | {} | {} | {} | {:.1} ({:.1}) | {} | {} | {:.1} | {ratio:.2} | CPU ≤ 1.5x | {} |",
            a.exit(),
            Stats::spread(&a.cpu),
            Stats::spread(&a.wall),
            median(&a.rss),
            a.max_rss(),
            Stats::spread(&b.cpu),
            Stats::spread(&b.wall),
            median(&b.rss),
            verdict(&[(ratio <= 1.5, format!("CPU {ratio:.2}x"))]),
        );
    }
    println!(
        "\nThe floor: `{LOG_FLOOR}` (floor exit codes: loose {}, packed {}).",
        log_stats[1].exit(),
        log_stats[3].exit()
    );

    println!(
        "\nWriting one event (`git standards hook prompt-submit --client claude`, a `human-turn` \
         event on the open cycle's note) into a trail of 100 cycles ({} events) and of 10,000 \
         cycles ({} events), packed as `git gc` leaves it; {rounds} writes each after a \
         warm-up write, interleaved. Bytes and files are what each write added under \
         `.git/objects`. The writes landed: {} and {} events afterwards.\n",
        storage_events[0], storage_events[1], written[0], written[1]
    );
    println!("| cycles so far | exit | CPU ms | wall ms | RSS MiB | bytes added | files added |");
    println!("| --- | --- | --- | --- | --- | --- | --- |");
    for (n, (cycles, _)) in storage.iter().enumerate() {
        let s = &write_stats[n];
        println!(
            "| {cycles} | {} | {} | {} | {:.1} | {} | {} |",
            s.exit(),
            Stats::spread(&s.cpu),
            Stats::spread(&s.wall),
            median(&s.rss),
            Stats::spread(&write_bytes[n]),
            Stats::spread(&write_files[n]),
        );
    }
    let cpu = median(&write_stats[1].cpu) / median(&write_stats[0].cpu);
    let bytes = median(&write_bytes[1]) / median(&write_bytes[0]);
    println!(
        "\nIndependent of the cycles so far (target: at 10,000 cycles ≤ 1.25x the figure at 100, \
         CPU and bytes): {}.",
        verdict(&[
            (cpu <= 1.25, format!("CPU {cpu:.2}x")),
            (bytes <= 1.25, format!("bytes {bytes:.2}x")),
        ])
    );
    let (size, _) = objects_size(storage[1].1.path());
    println!(
        "The whole 10,000-cycle trail, packed: {:.1} MiB under `.git/objects` ({} events, {:.0} bytes per event).",
        size as f64 / 1048576.0,
        written[1],
        size as f64 / written[1] as f64
    );
    eprintln!(
        "trail: measured in {:.1} s",
        started.elapsed().as_secs_f64()
    );
}
