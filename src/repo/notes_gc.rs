//! Keeping the object count of the audit trail bounded (issue 27).
//!
//! Every append writes a few loose objects through gix, and gix never
//! packs. Git's own commands end a write with `git maintenance run --auto`,
//! whose default task is `git gc --auto`: pack the loose objects once their
//! estimate passes `gc.auto` (6700 by default; 0 or less turns it off). An
//! append does the same after it moved the ref and released the writer
//! lock: it estimates the loose objects as git does (the files of one
//! fanout folder, `objects/17`, times 256) and only when that passes
//! `gc.auto` runs `git gc --auto --quiet`, which checks again, takes git's
//! own gc lock and, by `gc.autoDetach` (default on), finishes in the
//! background. `maintenance.auto=false` turns it off too, as it does for git.

use std::process::{Command, Stdio};

/// git's default `gc.auto`.
pub const DEFAULT_GC_AUTO: i64 = 6700;

/// The loose objects of `objects/17` git's estimate counts: names of the
/// rest of an object ID's hex digits.
pub fn loose_in_sample(objects: &std::path::Path, hex_len: usize) -> usize {
    let Ok(dir) = std::fs::read_dir(objects.join("17")) else {
        return 0;
    };
    dir.filter_map(|e| e.ok())
        .filter(|e| {
            let name = e.file_name();
            let name = name.as_encoded_bytes();
            name.len() == hex_len - 2 && name.iter().all(u8::is_ascii_hexdigit)
        })
        .count()
}

/// Whether git would pack now: the sample holds more than `gc.auto / 256`
/// (rounded up) objects, as git's `too_many_loose_objects` decides.
pub fn over_threshold(in_sample: usize, gc_auto: i64) -> bool {
    if gc_auto <= 0 {
        return false;
    }
    let limit = (gc_auto as u64).div_ceil(256);
    in_sample as u64 > limit
}

/// What the configuration says: `None` when automatic gc is off.
fn gc_auto(repo: &gix::Repository) -> Option<i64> {
    let config = repo.config_snapshot();
    if config.boolean("maintenance.auto") == Some(false) {
        return None;
    }
    let value = config.integer("gc.auto").unwrap_or(DEFAULT_GC_AUTO);
    (value > 0).then_some(value)
}

/// After a write of the trail: runs `git gc --auto --quiet` when git would.
/// Never fails the command: the write already landed, and a gc that cannot
/// run leaves the objects loose, as they were.
pub fn after_write(repo: &gix::Repository) {
    let Some(threshold) = gc_auto(repo) else {
        return;
    };
    let objects = repo.objects.store_ref().path().to_path_buf();
    let hex_len = repo.object_hash().len_in_hex();
    if !over_threshold(loose_in_sample(&objects, hex_len), threshold) {
        return;
    }
    // stdout and stderr go nowhere: a detached gc keeps its copies open and
    // writes its own errors to `gc.log`; this command's output stays its own.
    let _ = Command::new("git")
        .arg("--git-dir")
        .arg(repo.git_dir())
        .args(["gc", "--auto", "--quiet"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_estimate_is_gits() {
        // gc.auto=6700: more than 27 objects in the sample folder.
        assert!(!over_threshold(27, 6700));
        assert!(over_threshold(28, 6700));
        // gc.auto=1 rounds up to one object.
        assert!(!over_threshold(1, 1));
        assert!(over_threshold(2, 1));
        // 0 or negative: never.
        assert!(!over_threshold(usize::MAX, 0));
        assert!(!over_threshold(usize::MAX, -1));
    }
}
