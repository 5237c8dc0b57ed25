//! The audit trail's storage at scale (issue 27): the anchors folder and the
//! notes fan out as git's own notes do, a flat trail written by an older
//! release is read and migrated on write, flat and fanned trails merge both
//! ways, `log` streams many events in order, and git's `gc --auto` keeps the
//! loose objects bounded. The `git` CLI is the witness throughout.

use std::collections::BTreeSet;
use std::path::Path;

use crate::audit::cycle_anchor;
use crate::common::{stderr, stdout, Env};
use crate::fixture::Project;
use crate::notes_sync::team;

const REF: &str = "refs/notes/standards";

/// One event line in the canonical form, `n` seconds after a fixed start.
fn event_line(n: usize, id: &str, cycle: &str) -> String {
    let start = chrono::DateTime::parse_from_rfc3339("2025-01-01T00:00:00Z").unwrap();
    let ts = (start + chrono::Duration::seconds(n as i64)).format("%Y-%m-%dT%H:%M:%S%.6fZ");
    format!(
        r#"{{"ts":"{ts}","id":"{id}","event":"cycle-id-issued","actor":"Gen <gen@example.com>","tool":"git-standards 0.0.0","cycle":"{cycle}","commit":null,"argv":["cycle","new"],"request":"r {n}"}}"#
    )
}

/// Writes blobs through one `git hash-object -w --stdin-paths`; their IDs in order.
fn write_blobs(env: &Env, dir: &Path, texts: &[String]) -> Vec<String> {
    let tmp = tempfile::tempdir().unwrap();
    let mut paths = String::new();
    for (i, text) in texts.iter().enumerate() {
        let path = tmp.path().join(i.to_string());
        std::fs::write(&path, text).unwrap();
        paths.push_str(path.to_str().unwrap());
        paths.push('\n');
    }
    let list = tmp.path().join("list");
    std::fs::write(&list, paths).unwrap();
    let out = env
        .sealed("git", dir)
        .args(["hash-object", "-w", "--stdin-paths"])
        .stdin(std::fs::File::open(&list).unwrap())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// `git mktree` of `entries` (`mode type id\tname` lines).
fn mktree(env: &Env, dir: &Path, entries: &[String]) -> String {
    use std::io::Write as _;
    let mut child = env
        .sealed("git", dir)
        .arg("mktree")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = entries.join("\n");
    input.push('\n');
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

/// What [`plant_flat`] wrote: per cycle, its ID, anchor and event ID.
struct Planted {
    cycles: Vec<(String, String, String)>,
}

/// Adds `n` cycles with one event each to the trail in the layout an older
/// release wrote (one flat anchors folder, flat notes at the root), as one
/// notes commit on top of the current one. Existing entries are kept.
/// Cycle `i`'s event is `first_second + i * stride` seconds after a fixed start.
fn plant_flat(
    env: &Env,
    dir: &Path,
    prefix: &str,
    n: usize,
    (first_second, stride): (usize, usize),
) -> Planted {
    let mut texts = Vec::new();
    let mut cycles = Vec::new();
    for i in 0..n {
        let cycle = format!("{prefix}-{i}");
        let id = format!("{prefix}{i:0>15}");
        let id = id[id.len() - 16..].to_string();
        texts.push(format!("git-standards audit anchor v1\ncycle {cycle}\n"));
        texts.push(format!(
            "{}\n",
            event_line(first_second + i * stride, &id, &cycle)
        ));
        cycles.push((cycle, String::new(), id));
    }
    let ids = write_blobs(env, dir, &texts);
    let tip = env
        .git_status(dir, &["rev-parse", "--verify", "-q", REF])
        .stdout;
    let tip = String::from_utf8(tip).unwrap().trim().to_string();
    // The entries already there, flattened (an older release never fanned out).
    let mut anchors = Vec::new();
    let mut notes = Vec::new();
    if !tip.is_empty() {
        for line in env.git(dir, &["ls-tree", "-r", &tip]).lines() {
            let (meta, path) = line.split_once('\t').unwrap();
            let blob = meta.split_whitespace().nth(2).unwrap();
            match path.strip_prefix("anchors/") {
                Some(a) => anchors.push(format!("100644 blob {blob}\t{}", a.replace('/', ""))),
                None => notes.push(format!("100644 blob {blob}\t{}", path.replace('/', ""))),
            }
        }
    }
    for (i, c) in cycles.iter_mut().enumerate() {
        let (anchor, note) = (&ids[2 * i], &ids[2 * i + 1]);
        anchors.push(format!("100644 blob {anchor}\t{anchor}"));
        notes.push(format!("100644 blob {note}\t{anchor}"));
        c.1 = anchor.clone();
    }
    let anchors_tree = mktree(env, dir, &anchors);
    notes.push(format!("040000 tree {anchors_tree}\tanchors"));
    let root = mktree(env, dir, &notes);
    let mut args = vec!["commit-tree", root.as_str(), "-m", "planted"];
    if !tip.is_empty() {
        args.extend(["-p", tip.as_str()]);
    }
    let commit = env.git(dir, &args).trim().to_string();
    env.git(dir, &["update-ref", REF, &commit]);
    Planted { cycles }
}

/// Every path of the notes tree, as git lists it.
fn paths(env: &Env, dir: &Path) -> Vec<String> {
    env.git(dir, &["ls-tree", "-r", "--name-only", REF])
        .lines()
        .map(str::to_string)
        .collect()
}

/// Whether every note and every anchor sits in a two-digit fanout folder.
fn fanned_out(paths: &[String]) -> bool {
    paths.iter().all(|p| {
        let rest = p.strip_prefix("anchors/").unwrap_or(p);
        rest.len() == 41 && rest.as_bytes()[2] == b'/'
    })
}

fn log_ids(env: &Env, dir: &Path, args: &[&str]) -> Vec<String> {
    let mut all = vec!["log", "--json"];
    all.extend_from_slice(args);
    let a = env.run(dir, &all).success();
    stdout(&a)
        .lines()
        .map(|l| {
            let v: serde_json::Value =
                serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}"));
            v["id"].as_str().unwrap().to_string()
        })
        .collect()
}

#[test]
fn a_flat_trail_of_an_older_release_is_read_then_fanned_out_by_the_next_new_cycle() {
    let p = Project::brown();
    let planted = plant_flat(&p.env, &p.root, "old", 300, (0, 1));
    let before = paths(&p.env, &p.root);
    assert!(before
        .iter()
        .any(|x| x.starts_with("anchors/") && x.len() == 48));
    // Read as it is: every planted event, oldest first, and a single lookup.
    let ids = log_ids(&p.env, &p.root, &[]);
    assert_eq!(ids.len(), 301, "300 planted and the install");
    let planted_ids: Vec<String> = planted.cycles.iter().map(|c| c.2.clone()).collect();
    assert_eq!(
        ids[..300],
        planted_ids[..],
        "the planted times are the oldest"
    );
    let (cycle, _, id) = &planted.cycles[123];
    assert_eq!(log_ids(&p.env, &p.root, &["--cycle", cycle]), [id.as_str()]);
    assert_eq!(paths(&p.env, &p.root), before, "reading writes nothing");

    // An event on an existing cycle leaves the anchors folder as it is.
    let new_id = p.line(&["cycle", "new", "--request", "after the planted ones"]);
    let after = paths(&p.env, &p.root);
    // A new anchor fans the folder out: git's progressive fanout at 302 entries.
    assert!(fanned_out(&after), "{:?}", &after[..5]);
    assert_eq!(after.len(), before.len() + 2);
    // Git reads every note at its new place: old anchors and the new one.
    for (_, anchor, id) in planted.cycles.iter().step_by(37) {
        let note = p
            .env
            .git(&p.root, &["notes", "--ref=standards", "show", anchor]);
        assert!(note.contains(id.as_str()), "{note}");
    }
    let anchor = cycle_anchor(&p.env, &p.root, &new_id);
    let note = p
        .env
        .git(&p.root, &["notes", "--ref=standards", "show", &anchor]);
    assert!(note.contains("\"event\":\"cycle-id-issued\""), "{note}");
    assert!(after.contains(&format!("anchors/{}/{}", &anchor[..2], &anchor[2..])));
    let listed = p.env.git(&p.root, &["notes", "--ref=standards", "list"]);
    assert_eq!(listed.lines().count(), 302);
    assert_eq!(log_ids(&p.env, &p.root, &[]).len(), 302);
    // The fanned-out anchors keep every anchor alive through gc and prune.
    p.env
        .git(&p.root, &["commit", "-qam", "x", "--allow-empty"]);
    p.env.git(
        &p.root,
        &["-c", "gc.reflogExpire=now", "gc", "-q", "--prune=now"],
    );
    p.env.git(&p.root, &["notes", "--ref=standards", "prune"]);
    let listed = p.env.git(&p.root, &["notes", "--ref=standards", "list"]);
    assert_eq!(listed.lines().count(), 302);
    p.env.git(&p.root, &["fsck", "--strict", "--no-dangling"]);
}

#[test]
fn an_event_on_an_existing_anchor_leaves_the_anchors_folder_as_it_is() {
    let p = Project::brown();
    plant_flat(&p.env, &p.root, "old", 40, (0, 1));
    let id = p.line(&["cycle", "new", "--request", "x"]);
    let anchors_of = |p: &Project| {
        p.env
            .git(&p.root, &["rev-parse", &format!("{REF}:anchors")])
            .trim()
            .to_string()
    };
    let before = anchors_of(&p);
    // Another event on an anchor that exists (a reinstall's, on the project anchor).
    p.run(&["install"]).success();
    assert_eq!(anchors_of(&p), before);
    let anchor = cycle_anchor(&p.env, &p.root, &id);
    p.env
        .git(&p.root, &["notes", "--ref=standards", "show", &anchor]);
}

#[test]
fn flat_and_fanned_out_trails_merge_both_ways_through_notes_sync() {
    let t = team();
    // A: an older release's flat trail, published.
    let a1 = plant_flat(&t.env, &t.a, "a", 60, (0, 1));
    t.sync(&t.a);
    // B: another flat trail, then a new cycle fans it out; B merges A's flat one.
    let b1 = plant_flat(&t.env, &t.b, "b", 300, (1000, 1));
    let b_new = t.cycle(&t.b, "From B");
    assert!(fanned_out(&paths(&t.env, &t.b)));
    let out = t.sync(&t.b);
    assert!(out.contains("merged"), "{out}");
    // A writes flat again (an older release) and merges B's fanned-out trail.
    let a2 = plant_flat(&t.env, &t.a, "a2", 10, (2000, 1));
    let out = t.sync(&t.a);
    assert!(out.contains("merged"), "{out}");
    t.sync(&t.b);
    let (la, lb) = (t.log(&t.a), t.log(&t.b));
    assert_eq!(la, lb);
    // Every event and every anchor of both sides, with git as witness.
    let want: BTreeSet<String> = a1
        .cycles
        .iter()
        .chain(&b1.cycles)
        .chain(&a2.cycles)
        .map(|c| c.2.clone())
        .collect();
    let got: BTreeSet<String> = la
        .iter()
        .map(|e| e["id"].as_str().unwrap().to_string())
        .collect();
    assert!(got.is_superset(&want));
    for dir in [&t.a, &t.b] {
        let all = paths(&t.env, dir);
        assert!(fanned_out(&all), "{:?}", &all[..3]);
        let anchors: BTreeSet<String> = all
            .iter()
            .filter_map(|p| p.strip_prefix("anchors/"))
            .map(|p| p.replace('/', ""))
            .collect();
        for (_, anchor, _) in a1.cycles.iter().chain(&b1.cycles).chain(&a2.cycles) {
            assert!(anchors.contains(anchor), "{anchor}");
        }
        assert!(anchors.contains(&cycle_anchor(&t.env, dir, &b_new)));
        let listed = t.env.git(dir, &["notes", "--ref=standards", "list"]);
        assert_eq!(listed.lines().count(), 60 + 300 + 10 + 2);
        t.env.git(dir, &["fsck", "--strict"]);
    }
    // A fresh clone that fetches the trail with git reads the same notes.
    let c = t.env.dir.path().join("c");
    t.env.git(
        t.env.dir.path(),
        &["clone", "-q", t.remote.to_str().unwrap(), "c"],
    );
    t.env
        .git(&c, &["fetch", "-q", "origin", &format!("{REF}:{REF}")]);
    let list = |dir: &Path| t.env.git(dir, &["notes", "--ref=standards", "list"]);
    assert_eq!(list(&c), list(&t.a));
    t.env
        .git(&c, &["notes", "--ref=standards", "show", &a1.cycles[7].1]);
}

#[test]
fn log_streams_thousands_of_events_in_time_order_across_notes() {
    let p = Project::brown();
    // Two planted trails whose times interleave, so order is across notes.
    let even = plant_flat(&p.env, &p.root, "even", 1000, (0, 2));
    let odd = plant_flat(&p.env, &p.root, "odd", 1000, (1, 2));
    let ids = log_ids(&p.env, &p.root, &[]);
    assert_eq!(ids.len(), 2001);
    let want: Vec<String> = even
        .cycles
        .iter()
        .zip(&odd.cycles)
        .flat_map(|(e, o)| [e.2.clone(), o.2.clone()])
        .collect();
    assert_eq!(ids[..2000], want[..]);
    // `--limit` keeps the newest, printed oldest first.
    let last = log_ids(&p.env, &p.root, &["--limit", "3"]);
    assert_eq!(last, ids[ids.len() - 3..]);
    // Readable output: one line per event, the same count.
    let a = p.run(&["log"]).success();
    assert_eq!(stdout(&a).lines().count(), 2001);
    // A reader that goes away early is a clean exit.
    let out = p
        .env
        .sealed("sh", &p.root)
        .arg("-c")
        .arg(format!("'{}' log --json | head -1", Env::bin().display()))
        .output()
        .unwrap();
    let first = String::from_utf8(out.stdout).unwrap();
    assert!(first.contains(&want[0]), "{first}");
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("error"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Three files whose blobs land in git's sample folder `objects/17`.
fn blobs_in_the_sample_folder(p: &Project) {
    let mut found = 0;
    for i in 0.. {
        let text = format!("filler {i}\n");
        let id = gix::objs::compute_hash(
            gix::hash::Kind::Sha1,
            gix::objs::Kind::Blob,
            text.as_bytes(),
        )
        .unwrap()
        .to_string();
        if id.starts_with("17") {
            p.write(&format!("filler/{i}.txt"), &text);
            found += 1;
            if found == 3 {
                break;
            }
        }
    }
    p.env.git(&p.root, &["add", "-A"]);
    p.env
        .git(&p.root, &["-c", "gc.auto=0", "commit", "-qm", "fillers"]);
}

fn loose_and_packs(p: &Project) -> (usize, usize) {
    let v = p.env.git(&p.root, &["count-objects", "-v"]);
    let field = |name: &str| -> usize {
        v.lines()
            .find_map(|l| l.strip_prefix(&format!("{name}: ")))
            .unwrap()
            .parse()
            .unwrap()
    };
    (field("count"), field("packs"))
}

fn sample_folder(p: &Project) -> usize {
    std::fs::read_dir(p.root.join(".git/objects/17"))
        .map(|d| d.count())
        .unwrap_or(0)
}

#[test]
fn an_append_runs_git_gc_auto_when_the_loose_objects_pass_gc_auto() {
    let p = Project::brown();
    blobs_in_the_sample_folder(&p);
    assert!(sample_folder(&p) >= 3);
    let (loose, packs) = loose_and_packs(&p);
    assert_eq!(packs, 0);
    // gc.auto=1: more than one object in the sample folder is too many.
    p.env.git(&p.root, &["config", "gc.auto", "1"]);
    p.env.git(&p.root, &["config", "gc.autoDetach", "false"]);
    let id = p.line(&["cycle", "new", "--request", "packs"]);
    let (after, packs) = loose_and_packs(&p);
    assert!(packs >= 1, "git gc --auto ran");
    assert!(after < loose, "{after} loose objects, {loose} before");
    assert_eq!(sample_folder(&p), 0);
    // Nothing is lost: git and log read the packed trail.
    let anchor = cycle_anchor(&p.env, &p.root, &id);
    p.env
        .git(&p.root, &["notes", "--ref=standards", "show", &anchor]);
    assert_eq!(log_ids(&p.env, &p.root, &[]).len(), 2);
    p.env.git(&p.root, &["fsck", "--strict"]);
}

#[test]
fn gc_auto_0_and_maintenance_auto_false_leave_the_loose_objects_alone() {
    for (key, value) in [("gc.auto", "0"), ("maintenance.auto", "false")] {
        let p = Project::brown();
        blobs_in_the_sample_folder(&p);
        if key != "gc.auto" {
            p.env.git(&p.root, &["config", "gc.auto", "1"]);
        }
        p.env.git(&p.root, &["config", key, value]);
        p.env.git(&p.root, &["config", "gc.autoDetach", "false"]);
        let (loose, _) = loose_and_packs(&p);
        p.line(&["cycle", "new", "--request", "stays loose"]);
        let (after, packs) = loose_and_packs(&p);
        assert_eq!(packs, 0, "{key}={value}");
        assert!(after > loose, "{key}={value}: {after} <= {loose}");
        assert!(sample_folder(&p) >= 3);
    }
}

#[test]
fn below_gc_auto_nothing_is_packed() {
    // git's default gc.auto (6700) on a small repository: no pack, as with git.
    let p = Project::brown();
    p.env.git(&p.root, &["config", "gc.autoDetach", "false"]);
    for i in 0..3 {
        p.line(&["cycle", "new", "--request", &format!("r {i}")]);
    }
    assert_eq!(loose_and_packs(&p).1, 0);
    let err = stderr(&p.run(&["log"]).success());
    assert_eq!(err, "");
}
