//! An object store of one's own, for a pass that reads many objects once
//! (issue 27, item 3).
//!
//! gix maps each pack file whole and keeps it mapped for the life of its
//! object store, so every page a read touches stays in the process's
//! resident set until the store is dropped. Walking every tree of a commit
//! at 200,000 files touches about 18 MiB of the pack and its index; read
//! through the repository's own store, those pages stayed resident while
//! the Markdown blobs were read after the walk (another 31 MiB), and the
//! first `check --ref` peaked at 65.6 MiB. A pass that reads through
//! [`own_store`] unmaps what it touched when it ends; the page cache keeps
//! the data, so later reads of the same objects cost no disk read.

use std::sync::atomic::{AtomicUsize, Ordering};

static OPENED: AtomicUsize = AtomicUsize::new(0);
static LIVE: AtomicUsize = AtomicUsize::new(0);

/// `repo` with an object store of its own, opened as its current one is
/// (same objects folder, hash, replacements, multi-pack index use and
/// refresh mode), shared with nothing else: dropping it unmaps the packs it
/// read. `None` when the folder cannot be opened anew (the caller then reads
/// through `repo`, which reports any problem as before).
pub fn own_store(repo: &gix::Repository) -> Option<OwnStore> {
    let store = repo.objects.store_ref();
    let options = gix::odb::store::init::Options {
        use_multi_pack_index: store.use_multi_pack_index(),
        loose_compression: repo.objects.loose_compression,
        ..Default::default()
    };
    let fresh = gix::odb::at_opts(
        store.path(),
        store.object_hash(),
        store.replacements().collect::<Vec<_>>(),
        options,
    )
    .ok()?;
    let mut fresh = fresh.into_inner();
    fresh.refresh = repo.objects.refresh;
    fresh.max_recursion_depth = repo.objects.max_recursion_depth;
    fresh.ignore_replacements = repo.objects.ignore_replacements;
    let mut own = repo.clone();
    // Cloning the handle keeps its cache settings; its store is replaced.
    let mut objects = repo.objects.clone();
    **objects = fresh;
    own.objects = objects;
    OPENED.fetch_add(1, Ordering::Relaxed);
    LIVE.fetch_add(1, Ordering::Relaxed);
    Some(OwnStore(own))
}

/// A repository handle whose object store is its own (see [`own_store`]).
pub struct OwnStore(gix::Repository);

impl std::ops::Deref for OwnStore {
    type Target = gix::Repository;
    fn deref(&self) -> &gix::Repository {
        &self.0
    }
}

impl Drop for OwnStore {
    fn drop(&mut self) {
        LIVE.fetch_sub(1, Ordering::Relaxed);
    }
}

static BLOBS_BESIDE: AtomicUsize = AtomicUsize::new(0);
static BLOBS_WITH_INDEX: AtomicUsize = AtomicUsize::new(0);

/// Counts a blob read by a snapshot, and whether a store of [`own_store`]
/// or the decoded index was alive at the time (a pass that should have
/// ended before, a lean snapshot's index let go of).
pub fn note_blob() {
    if LIVE.load(Ordering::Relaxed) > 0 {
        BLOBS_BESIDE.fetch_add(1, Ordering::Relaxed);
    }
    if super::index::alive() {
        BLOBS_WITH_INDEX.fetch_add(1, Ordering::Relaxed);
    }
}

/// Blobs the snapshots read while the decoded index was alive.
pub fn blobs_with_index() -> usize {
    BLOBS_WITH_INDEX.load(Ordering::Relaxed)
}

/// Blobs the snapshots read while a store of [`own_store`] was alive.
pub fn blobs_beside() -> usize {
    BLOBS_BESIDE.load(Ordering::Relaxed)
}

/// Stores [`own_store`] opened in this process (a test seam, reported with
/// the read count: see `repo::reads`).
pub fn opened() -> usize {
    OPENED.load(Ordering::Relaxed)
}
