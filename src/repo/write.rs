//! Atomic, symlink-safe writes inside the project (through verified folder
//! handles, [`super::handles`]).

use std::path::{Component, Path, PathBuf};

use super::handles::{self, Folders};
use crate::error::Error;

/// The crash points inside every atomic write (`GIT_STANDARDS_FAILPOINT`):
/// after creating missing folders, and with the temporary file written and
/// synced but not yet in place.
pub const FAILPOINTS: &[&str] = &["write:folders-created", "write:temp-synced"];

/// What to do when the target already exists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Existing {
    /// Fail if anything is at the path (exclusive create).
    Refuse,
    /// Replace a regular file atomically.
    Replace,
}

/// Checks a project-relative path: relative, no `..`, no empty parts.
pub fn validate_relative(rel: &str) -> Result<(), Error> {
    let p = Path::new(rel);
    if rel.is_empty()
        || p.is_absolute()
        || p.components().any(|c| !matches!(c, Component::Normal(_)))
    {
        return Err(Error::Refused {
            message: format!("refusing the path `{rel}`: it must stay inside the project"),
            hint: None,
        });
    }
    Ok(())
}

/// Walks `rel`'s parent folders from `root` through handles, creating missing
/// ones one level at a time and refusing a symbolic link or a non-folder on
/// the way. Returns the folders it created, outermost first.
pub fn prepare_parents(root: &Path, rel: &str) -> Result<Vec<PathBuf>, Error> {
    validate_relative(rel)?;
    let (dir, _) = handles::split(rel);
    let (_, created) = Folders::new(root)
        .create_folders(dir)
        .map_err(|b| b.refusal(rel))?;
    Ok(created.into_iter().map(|c| root.join(c)).collect())
}

/// Writes `bytes` to `root/rel` through a temporary file in the same folder and a
/// rename, so readers see the old or the new content, never a mix. Every
/// folder on the way is opened without following links and the temporary
/// file is created and renamed relative to the verified folder handle
/// ([`Folders::atomic_write`]; use a shared [`Folders`] to write many files).
/// A create (`Existing::Refuse`) that finds a file fails with
/// [`Error::AlreadyExists`]; folders a failed write created are removed.
pub fn atomic_write(root: &Path, rel: &str, bytes: &[u8], existing: Existing) -> Result<(), Error> {
    Folders::new(root).atomic_write(rel, bytes, existing == Existing::Replace)
}

/// Removes the temporary files that killed writers left in the folder
/// `rel_dir` below `root` (a command that finds its work already done calls
/// this, so no debris outlives the next run). Returns how many it removed.
pub fn sweep_stale(root: &Path, rel_dir: &str) -> usize {
    Folders::new(root).sweep(rel_dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_and_refuses_links_and_escapes() {
        let dir = tempfile::tempdir().unwrap();
        atomic_write(dir.path(), "a/b/c.txt", b"x", Existing::Refuse).unwrap();
        assert_eq!(std::fs::read(dir.path().join("a/b/c.txt")).unwrap(), b"x");
        assert!(atomic_write(dir.path(), "a/b/c.txt", b"y", Existing::Refuse).is_err());
        atomic_write(dir.path(), "a/b/c.txt", b"y", Existing::Replace).unwrap();
        assert_eq!(std::fs::read(dir.path().join("a/b/c.txt")).unwrap(), b"y");
        assert!(validate_relative("../x").is_err());
        assert!(validate_relative("/x").is_err());
        #[cfg(unix)]
        {
            let outside = tempfile::tempdir().unwrap();
            std::os::unix::fs::symlink(outside.path(), dir.path().join("link")).unwrap();
            let err = atomic_write(dir.path(), "link/x.md", b"x", Existing::Refuse).unwrap_err();
            assert!(err.to_string().contains("symbolic link"));
            assert!(!outside.path().join("x.md").exists());
        }
    }

    #[cfg(unix)]
    #[test]
    fn modes_follow_the_umask_and_replacements_keep_theirs() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        atomic_write(dir.path(), "new.md", b"x", Existing::Refuse).unwrap();
        let mode = std::fs::metadata(dir.path().join("new.md"))
            .unwrap()
            .permissions()
            .mode()
            & 0o777;
        assert_ne!(
            mode, 0o600,
            "a new file gets the umask's mode, not tempfile's 0600"
        );
        assert_eq!(mode & 0o600, 0o600);
        std::fs::set_permissions(
            dir.path().join("new.md"),
            std::fs::Permissions::from_mode(0o640),
        )
        .unwrap();
        atomic_write(dir.path(), "new.md", b"y", Existing::Replace).unwrap();
        let mode = std::fs::metadata(dir.path().join("new.md"))
            .unwrap()
            .permissions()
            .mode()
            & 0o777;
        assert_eq!(mode, 0o640);
        let leftovers: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
            .collect();
        assert!(leftovers.is_empty(), "no temporary file is left behind");
    }
}
