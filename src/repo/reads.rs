//! A test seam: how many project files this process read through the
//! snapshot readers. The stop hook's fast path is proven with it (it returns
//! without reading unchanged files), not with timings.

use std::sync::atomic::{AtomicUsize, Ordering};

static READS: AtomicUsize = AtomicUsize::new(0);
static DISK_READS: AtomicUsize = AtomicUsize::new(0);

/// The variable that makes the debug binary report its count on stderr.
pub const ENV: &str = "GIT_STANDARDS_COUNT_READS";

/// Counts one file read.
pub fn note() {
    READS.fetch_add(1, Ordering::Relaxed);
}

/// Counts one file read from the working tree (also counted by [`note`]).
pub fn note_disk() {
    DISK_READS.fetch_add(1, Ordering::Relaxed);
    note();
}

/// Runs `read` without counting what it reads: for the tool's own files in
/// the git directory (a cache), which are no project files.
pub fn uncounted<T>(read: impl FnOnce() -> T) -> T {
    let (files, disk) = (count(), disk_count());
    let out = read();
    READS.store(files, Ordering::Relaxed);
    DISK_READS.store(disk, Ordering::Relaxed);
    out
}

/// Files read from the working tree so far (not blobs).
pub fn disk_count() -> usize {
    DISK_READS.load(Ordering::Relaxed)
}

/// Files read so far.
pub fn count() -> usize {
    READS.load(Ordering::Relaxed)
}

/// In debug builds with [`ENV`] set, writes `files read: <n>` (files and
/// blobs), `read from disk: <n>` (files only), `records parsed: <n>`
/// (provenance blocks the scans parsed), `own object stores: <n>` (opened
/// for one pass, see `repo::objects`) and `blobs read beside an own store:
/// <n>` (read while such a pass was still open), `index decodes: <n>` and
/// `blobs read while the index was decoded: <n>` to `err`.
pub fn report(err: &mut dyn std::io::Write) {
    if cfg!(debug_assertions) && std::env::var_os(ENV).is_some() {
        let _ = writeln!(err, "files read: {}", count());
        let _ = writeln!(err, "read from disk: {}", disk_count());
        let _ = writeln!(
            err,
            "records parsed: {}",
            standards_core::records::scan::parsed()
        );
        let _ = writeln!(err, "own object stores: {}", super::objects::opened());
        let _ = writeln!(
            err,
            "blobs read beside an own store: {}",
            super::objects::blobs_beside()
        );
        let _ = writeln!(err, "index decodes: {}", super::index::decodes());
        let _ = writeln!(
            err,
            "blobs read while the index was decoded: {}",
            super::objects::blobs_with_index()
        );
    }
}
