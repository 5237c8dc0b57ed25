//! The index, decoded once per process and shared by its readers, like gix's
//! own shared index, but able to let go of its cache-tree: only the pre-commit
//! hook's fast exit reads the cache-tree, and it is as large as the entries'
//! paths (8.5 MB on a 200,000-file index), held for the whole run while the
//! records are read (issue 14, peak memory).
//!
//! A snapshot is reused while the index file's size, modification time and
//! inode stay the same, so a command that rewrites the index reads it anew.

use std::cell::RefCell;
use std::path::PathBuf;
use std::rc::Rc;

use crate::error::Error;

/// What identifies one version of the index file on disk (`None`: absent).
pub type Stamp = Option<(u64, std::time::SystemTime, u64)>;

struct Cached {
    path: PathBuf,
    stamp: Stamp,
    index: gix::worktree::Index,
}

thread_local! {
    static CACHE: RefCell<Option<Cached>> = const { RefCell::new(None) };
    /// The index this thread decoded last, for [`alive`].
    static LAST: RefCell<std::rc::Weak<gix::fs::FileSnapshot<gix::index::File>>> =
        const { RefCell::new(std::rc::Weak::new()) };
}

static DECODES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Whether the index this thread decoded last is still held by anyone (a
/// test seam, with [`decodes`]: see `repo::reads`).
pub fn alive() -> bool {
    LAST.with_borrow(|last| last.strong_count() > 0)
}

/// How many times this process decoded an index file.
pub fn decodes() -> usize {
    DECODES.load(std::sync::atomic::Ordering::Relaxed)
}

fn stamp(path: &std::path::Path) -> Stamp {
    use std::os::unix::fs::MetadataExt as _;
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.len(), meta.modified().ok()?, meta.ino()))
}

/// The repository's index, decoded on first use (empty when there is no
/// index file); the cache-tree is there unless [`entries`] dropped it.
pub fn shared(repo: &gix::Repository) -> Result<gix::worktree::Index, Error> {
    let path = repo.index_path();
    let now = stamp(&path);
    let hit = CACHE.with_borrow(|cache| {
        cache
            .as_ref()
            .filter(|c| c.path == path && c.stamp == now)
            .map(|c| c.index.clone())
    });
    if let Some(index) = hit {
        return Ok(index);
    }
    let file = match now {
        None => {
            gix::index::File::from_state(gix::index::State::new(repo.object_hash()), path.clone())
        }
        Some(_) => repo.open_index().map_err(super::snapshot::index_err)?,
    };
    let index = gix::worktree::Index::new(gix::fs::FileSnapshot::new(file));
    DECODES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    LAST.with_borrow_mut(|last| *last = Rc::downgrade(&index));
    CACHE.with_borrow_mut(|cache| {
        *cache = Some(Cached {
            path,
            stamp: now,
            index: index.clone(),
        })
    });
    Ok(index)
}

/// The stamp of the repository's index file as it is now.
pub fn current_stamp(repo: &gix::Repository) -> Stamp {
    stamp(&repo.index_path())
}

thread_local! {
    static HELD: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Lets go of the decoded index this thread keeps: the next [`shared`]
/// decodes the file again. For a reader that took what it needs (issue 27,
/// item 3: 24 MB at 200,000 entries, held while the blobs were read).
/// Nothing is let go after [`hold`].
pub fn release() {
    if !HELD.get() {
        CACHE.with_borrow_mut(|cache| *cache = None);
    }
}

/// Keeps the decoded index for the rest of this thread's run, whoever lets
/// go of it: a run that checks several projects of one index (the
/// pre-commit hook) decodes it once for them all, as before the readers
/// let go of it.
pub fn hold() {
    HELD.set(true);
}

/// [`shared`], without the cache-tree and the resolve-undo records, which
/// no snapshot reader uses: they are dropped when nobody else holds the
/// index at the moment (the hook's fast exit has let go of it by then).
pub fn entries(repo: &gix::Repository) -> Result<gix::worktree::Index, Error> {
    // Loaded (or found current) into the cache, and held only there.
    let index = shared(repo)?;
    drop(index);
    let pruned = CACHE.with_borrow_mut(|cache| {
        let cached = cache.as_mut()?;
        // `get_mut` refuses while a weak pointer exists: the seam's is
        // set again after.
        LAST.with_borrow_mut(|last| *last = std::rc::Weak::new());
        if let Some(file) = Rc::get_mut(&mut cached.index) {
            file.remove_tree();
            file.remove_resolve_undo();
        }
        LAST.with_borrow_mut(|last| *last = Rc::downgrade(&cached.index));
        Some(cached.index.clone())
    });
    pruned.map_or_else(|| shared(repo), Ok)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_index_is_decoded_once_loses_its_cache_tree_and_is_read_anew_when_rewritten() {
        let dir = tempfile::tempdir().unwrap();
        let git = |args: &[&str]| {
            let o = crate::repo::test_support::test_git(dir.path(), args);
            assert!(o.status.success(), "{args:?}: {o:?}");
        };
        git(&["init", "-q"]);
        std::fs::create_dir(dir.path().join("a")).unwrap();
        std::fs::write(dir.path().join("a/x.md"), "x\n").unwrap();
        git(&["add", "-A"]);
        git(&["commit", "-q", "-m", "one"]);
        let repo = gix::open(dir.path()).unwrap();
        let first = super::shared(&repo).unwrap();
        assert!(first.tree().is_some(), "git commit wrote a cache-tree");
        let again = super::shared(&repo).unwrap();
        assert!(std::rc::Rc::ptr_eq(&first, &again), "decoded once");
        // Held elsewhere: the cache-tree stays.
        assert!(super::entries(&repo).unwrap().tree().is_some());
        drop((first, again));
        let entries = super::entries(&repo).unwrap();
        assert!(entries.tree().is_none());
        assert_eq!(entries.entries().len(), 1);
        drop(entries);
        std::fs::write(dir.path().join("b.md"), "b\n").unwrap();
        git(&["add", "b.md"]);
        assert_eq!(
            super::shared(&repo).unwrap().entries().len(),
            2,
            "read anew"
        );
    }
}
