//! The plain-Markdown verdicts kept between runs: the blob IDs of Markdown
//! content that holds no provenance block at its start, so a later `check`
//! neither inflates nor reads those files again (issue 14). A blob's content
//! never changes under its ID, so a verdict stays true; the file names the
//! version of the test that reached it, and a file from another version, or
//! one that does not read back whole, is ignored and replaced.
//!
//! It lives in the common git directory (`standards/plain-markdown`), shared
//! by every worktree, and `git config standards.scanCache false` turns it off.

use std::path::Path;

use crate::error::Error;
use crate::protocol::scan::{KnownPlain, ScanCache, PLAIN_VERDICT_VERSION};
use crate::protocol::tree::Node;
use crate::repo::handles::Folders;
use crate::repo::Project;

/// The cache file, relative to the common git directory.
pub const FILE: &str = "standards/plain-markdown";

/// The git config switch (a boolean, on unless set false).
pub const CONFIG_KEY: &str = "standards.scanCache";

/// The first line of the file: what wrote it, and the shape of what follows.
fn header(id_len: usize, count: usize) -> String {
    format!(
        "git-standards plain-markdown v{PLAIN_VERDICT_VERSION} {} {id_len} {count}\n",
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

/// A scan cache that knows what the last run found plain (an empty one when
/// the cache is off, absent, from another version or damaged).
pub fn load(project: &Project) -> Result<ScanCache, Error> {
    if !enabled(project)? {
        return Ok(ScanCache::default());
    }
    Ok(match read(project.repo.common_dir()) {
        Some(known) => ScanCache::with_known_plain(known),
        None => ScanCache::default(),
    })
}

/// Keeps what `cache` learnt for the next run. Best effort: a cache that
/// cannot be written (a read-only repository, a link in the way) is only a
/// slower next run, so nothing is reported.
pub fn store(project: &Project, cache: &ScanCache) {
    if !enabled(project).unwrap_or(false) {
        return;
    }
    if let Some(known) = cache.plain_to_keep() {
        let _ = write(project.repo.common_dir(), &known);
    }
}

fn read(common_dir: &Path) -> Option<KnownPlain> {
    let Node::File(bytes) = super::reads::uncounted(|| Folders::new(common_dir).read(FILE)) else {
        return None;
    };
    decode(bytes)
}

fn write(common_dir: &Path, known: &KnownPlain) -> Result<(), Error> {
    Folders::new(common_dir).write_cache(FILE, &encode(known))
}

fn encode(known: &KnownPlain) -> Vec<u8> {
    let mut out = header(known.id_len(), known.len()).into_bytes();
    out.extend_from_slice(known.as_bytes());
    out
}

/// The set in `bytes`, if they are exactly what [`encode`] writes for this
/// version: a torn or foreign file is no set at all.
fn decode(mut bytes: Vec<u8>) -> Option<KnownPlain> {
    let end = bytes.iter().position(|&b| b == b'\n')?;
    let line = std::str::from_utf8(&bytes[..end]).ok()?;
    let (rest, count) = line.rsplit_once(' ')?;
    let (_, id_len) = rest.rsplit_once(' ')?;
    let (id_len, count): (usize, usize) = (id_len.parse().ok()?, count.parse().ok()?);
    if header(id_len, count).as_bytes() != &bytes[..=end] {
        return None;
    }
    let ids = bytes.split_off(end + 1);
    if id_len == 0 || ids.len() != id_len.checked_mul(count)? {
        return None;
    }
    // An all-zero ID is no blob's: zeros where IDs belong mean a torn write.
    if ids
        .chunks_exact(id_len)
        .any(|id| id.iter().all(|&b| b == 0))
    {
        return None;
    }
    KnownPlain::from_sorted(id_len, ids)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(ids: &[&[u8; 3]]) -> KnownPlain {
        KnownPlain::from_sorted(3, ids.iter().flat_map(|id| id.iter().copied()).collect()).unwrap()
    }

    #[test]
    fn a_set_reads_back_as_written() {
        let known = set(&[b"abc", b"abd", b"zzz"]);
        assert_eq!(decode(encode(&known)), Some(known));
        let empty = KnownPlain::from_sorted(3, Vec::new()).unwrap();
        assert_eq!(decode(encode(&empty)), Some(empty));
    }

    #[test]
    fn a_torn_foreign_or_damaged_file_is_no_set() {
        let bytes = encode(&set(&[b"abc", b"abd"]));
        // Cut short, or longer than its header says.
        assert_eq!(decode(bytes[..bytes.len() - 1].to_vec()), None);
        assert_eq!(decode([bytes.as_slice(), b"abe"].concat()), None);
        // Another version of the test wrote it.
        let other = String::from_utf8_lossy(&bytes).replacen(
            &format!("v{PLAIN_VERDICT_VERSION} "),
            &format!("v{} ", PLAIN_VERDICT_VERSION + 1),
            1,
        );
        assert_eq!(decode(other.into_bytes()), None);
        // Out of order, or zeros where a write was lost.
        let swapped = [header(3, 2).as_bytes(), b"abdabc"].concat();
        assert_eq!(decode(swapped), None);
        let zeros = [header(3, 2).as_bytes(), b"\0\0\0abc"].concat();
        assert_eq!(decode(zeros), None);
        assert_eq!(decode(b"no header".to_vec()), None);
        assert_eq!(decode(Vec::new()), None);
    }
}
