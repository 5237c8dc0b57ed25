//! The content verdicts kept between runs ([`standards_core::records::verdicts`]):
//! the blob IDs of Markdown that holds no provenance block at its start and
//! of `.standards/` files that hold no conflict markers, so a later `check`
//! neither inflates nor reads that content again (issue 14). A blob's content
//! never changes under its ID, so a verdict stays true; the file names the
//! version of the tests that reached it, and a file from another version, or
//! one that does not read back whole, is ignored and replaced.
//!
//! It lives in the common git directory (`standards/content-verdicts`),
//! shared by every worktree; `git config standards.scanCache false` turns it
//! off.

use std::path::Path;

use crate::error::Error;
use crate::repo::handles::Folders;
use crate::repo::Project;
use standards_core::model::tree::Node;
use standards_core::records::verdicts::{ContentCache, IdSet, Kept, VERDICT_VERSION};

/// The cache file, relative to the common git directory.
pub const FILE: &str = "standards/content-verdicts";

/// The git config switch (a boolean, on unless set false).
pub const CONFIG_KEY: &str = "standards.scanCache";

/// The first line of the file: what wrote it, and the shape of what follows
/// (the ID length, then how many plain and unmarked IDs, in that order).
fn header(id_len: usize, plain: usize, unmarked: usize) -> String {
    format!(
        "git-standards content-verdicts v{VERDICT_VERSION} {} {id_len} {plain} {unmarked}\n",
        env!("CARGO_PKG_VERSION")
    )
}

/// Whether this clone keeps the cache; a value that is no boolean is an
/// error, as git's own switches are.
pub fn enabled(project: &Project) -> Result<bool, Error> {
    let config = project.repo.config_snapshot();
    match config.try_boolean(CONFIG_KEY) {
        Ok(on) => Ok(on.unwrap_or(true)),
        Err(_) => Err(Error::Invalid {
            path: format!("git config {CONFIG_KEY}"),
            message: format!(
                "`{}` is not a boolean; set it to true or false (unset, the cache is on)",
                config.string(CONFIG_KEY).unwrap_or_default()
            ),
        }),
    }
}

/// A cache that knows what the last run kept (an empty one when the cache
/// is off, absent, from another version or damaged).
pub fn load(project: &Project) -> Result<ContentCache, Error> {
    if !enabled(project)? {
        return Ok(ContentCache::default());
    }
    Ok(match read(project.repo.common_dir()) {
        Some(known) => ContentCache::with_known(known),
        None => ContentCache::default(),
    })
}

/// Keeps what `cache` learnt for the next run. Best effort: a cache that
/// cannot be written (a read-only repository, a link in the way) is only a
/// slower next run, so nothing is reported.
pub fn store(project: &Project, cache: &ContentCache) {
    if !enabled(project).unwrap_or(false) {
        return;
    }
    if let Some(known) = cache.to_keep() {
        let _ = write(project.repo.common_dir(), &known);
    }
}

fn read(common_dir: &Path) -> Option<Kept> {
    let Node::File(bytes) = super::reads::uncounted(|| Folders::new(common_dir).read(FILE)) else {
        return None;
    };
    decode(bytes)
}

fn write(common_dir: &Path, known: &Kept) -> Result<(), Error> {
    Folders::new(common_dir).write_cache(FILE, &encode(known))
}

fn encode(known: &Kept) -> Vec<u8> {
    let id_len = known.plain.id_len().max(known.unmarked.id_len());
    let mut out = header(id_len, known.plain.len(), known.unmarked.len()).into_bytes();
    out.extend_from_slice(known.plain.as_bytes());
    out.extend_from_slice(known.unmarked.as_bytes());
    out
}

/// The sets in `bytes`, if they are exactly what [`encode`] writes for this
/// version: a torn or foreign file is no set at all.
fn decode(mut bytes: Vec<u8>) -> Option<Kept> {
    let end = bytes.iter().position(|&b| b == b'\n')?;
    let line = std::str::from_utf8(&bytes[..end]).ok()?;
    let mut numbers = line.rsplitn(4, ' ');
    let unmarked: usize = numbers.next()?.parse().ok()?;
    let plain: usize = numbers.next()?.parse().ok()?;
    let id_len: usize = numbers.next()?.parse().ok()?;
    if header(id_len, plain, unmarked).as_bytes() != &bytes[..=end] || id_len == 0 {
        return None;
    }
    let mut ids = bytes.split_off(end + 1);
    let plain_bytes = id_len.checked_mul(plain)?;
    if ids.len() != plain_bytes.checked_add(id_len.checked_mul(unmarked)?)? {
        return None;
    }
    // An all-zero ID is no blob's: zeros where IDs belong mean a torn write.
    if ids
        .chunks_exact(id_len)
        .any(|id| id.iter().all(|&b| b == 0))
    {
        return None;
    }
    let unmarked = ids.split_off(plain_bytes);
    Some(Kept {
        plain: IdSet::from_sorted(id_len, ids)?,
        unmarked: IdSet::from_sorted(id_len, unmarked)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(ids: &[&[u8; 3]]) -> IdSet {
        IdSet::from_sorted(3, ids.iter().flat_map(|id| id.iter().copied()).collect()).unwrap()
    }

    fn kept() -> Kept {
        Kept {
            plain: set(&[b"abc", b"abd", b"zzz"]),
            unmarked: set(&[b"abd", b"mmm"]),
        }
    }

    #[test]
    fn the_sets_read_back_as_written() {
        assert_eq!(decode(encode(&kept())), Some(kept()));
        let only_unmarked = Kept {
            plain: IdSet::default(),
            unmarked: set(&[b"mmm"]),
        };
        assert_eq!(
            decode(encode(&only_unmarked)).map(|k| k.unmarked),
            Some(set(&[b"mmm"]))
        );
    }

    #[test]
    fn a_torn_foreign_or_damaged_file_is_no_set() {
        let bytes = encode(&kept());
        // Cut short, or longer than its header says.
        assert_eq!(decode(bytes[..bytes.len() - 1].to_vec()), None);
        assert_eq!(decode([bytes.as_slice(), b"abe"].concat()), None);
        // Another version of the tests wrote it.
        let other = String::from_utf8_lossy(&bytes).replacen(
            &format!("v{VERDICT_VERSION} "),
            &format!("v{} ", VERDICT_VERSION + 1),
            1,
        );
        assert_eq!(decode(other.into_bytes()), None);
        // Out of order, or zeros where a write was lost.
        let swapped = [header(3, 2, 0).as_bytes(), b"abdabc"].concat();
        assert_eq!(decode(swapped), None);
        let zeros = [header(3, 2, 0).as_bytes(), b"\0\0\0abc"].concat();
        assert_eq!(decode(zeros), None);
        let zero_len = [header(0, 0, 0).as_bytes()].concat();
        assert_eq!(decode(zero_len), None);
        assert_eq!(decode(b"no header".to_vec()), None);
        assert_eq!(decode(Vec::new()), None);
    }
}
