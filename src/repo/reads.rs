//! A test seam: how many project files this process read through the
//! snapshot readers. The stop hook's fast path is proven with it (it returns
//! without reading unchanged files), not with timings.

use std::sync::atomic::{AtomicUsize, Ordering};

static READS: AtomicUsize = AtomicUsize::new(0);

/// The variable that makes the debug binary report its count on stderr.
pub const ENV: &str = "GIT_STANDARDS_COUNT_READS";

/// Counts one file read.
pub fn note() {
    READS.fetch_add(1, Ordering::Relaxed);
}

/// Files read so far.
pub fn count() -> usize {
    READS.load(Ordering::Relaxed)
}

/// In debug builds with [`ENV`] set, writes `files read: <n>` (files and
/// blobs) and `records parsed: <n>` (provenance blocks the scans parsed) to `err`.
pub fn report(err: &mut dyn std::io::Write) {
    if cfg!(debug_assertions) && std::env::var_os(ENV).is_some() {
        let _ = writeln!(err, "files read: {}", count());
        let _ = writeln!(err, "records parsed: {}", crate::protocol::scan::parsed());
    }
}
