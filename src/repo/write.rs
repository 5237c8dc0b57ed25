//! Atomic, symlink-safe writes inside the project.

use std::io::Write as _;
use std::path::{Component, Path, PathBuf};

use crate::error::Error;

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

/// Walks `rel`'s parent folders from `root`, creating missing ones one level at a
/// time and refusing a symbolic link or a non-folder on the way. Returns the
/// folders it created, outermost first.
pub fn prepare_parents(root: &Path, rel: &str) -> Result<Vec<PathBuf>, Error> {
    validate_relative(rel)?;
    let mut created = Vec::new();
    let mut current = root.to_path_buf();
    let parts: Vec<&str> = rel.split('/').collect();
    let mut shown = String::new();
    for part in &parts[..parts.len() - 1] {
        current.push(part);
        if !shown.is_empty() {
            shown.push('/');
        }
        shown.push_str(part);
        match std::fs::symlink_metadata(&current) {
            Ok(m) if m.file_type().is_symlink() => {
                return Err(Error::Refused {
                    message: format!(
                    "refusing to write `{rel}`: `{shown}` is a symbolic link, not a normal folder"
                ),
                    hint: Some("replace the link with a real folder inside the repository".into()),
                })
            }
            Ok(m) if !m.is_dir() => {
                return Err(Error::Refused {
                    message: format!("refusing to write `{rel}`: `{shown}` is not a normal folder"),
                    hint: Some(format!("move `{shown}` out of the way")),
                })
            }
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                std::fs::create_dir(&current).map_err(|e| Error::io(&current, e))?;
                created.push(current.clone());
            }
            Err(e) => return Err(Error::io(&current, e)),
        }
    }
    Ok(created)
}

/// A temporary file beside the target, removed when dropped. Created with the
/// default mode, so the user's umask applies (unlike `tempfile`'s 0600).
struct TempFile {
    path: PathBuf,
    file: std::fs::File,
}

impl TempFile {
    fn create(dir: &Path) -> Result<TempFile, Error> {
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or_default();
        let mut last = None;
        for attempt in 0..16u32 {
            let path = dir.join(format!(
                ".git-standards-{}-{stamp}-{attempt}.tmp",
                std::process::id()
            ));
            match std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&path)
            {
                Ok(file) => return Ok(TempFile { path, file }),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
                Err(e) => return Err(Error::io(dir, e)),
            }
        }
        Err(Error::io(
            dir,
            last.unwrap_or_else(|| std::io::Error::other("no free temporary name")),
        ))
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        // After a rename this path is gone; after a hard link the target keeps the data.
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Writes `bytes` to `root/rel` through a temporary file in the same folder and a
/// rename, so readers see the old or the new content, never a mix.
pub fn atomic_write(root: &Path, rel: &str, bytes: &[u8], existing: Existing) -> Result<(), Error> {
    prepare_parents(root, rel)?;
    let target = root.join(rel);
    match std::fs::symlink_metadata(&target) {
        Ok(m) if m.file_type().is_symlink() => {
            return Err(Error::Refused {
                message: format!("refusing to write `{rel}`: it is a symbolic link"),
                hint: Some("replace the link with a regular file".into()),
            })
        }
        Ok(m) if m.is_dir() => {
            return Err(Error::Refused {
                message: format!("refusing to write `{rel}`: it is a folder"),
                hint: None,
            })
        }
        Ok(_) if existing == Existing::Refuse => {
            return Err(Error::Refused {
                message: format!("refusing to overwrite `{rel}`: the file already exists"),
                hint: None,
            })
        }
        _ => {}
    }
    let dir = target.parent().expect("a relative path has a parent");
    let keep_mode = match existing {
        Existing::Replace => std::fs::metadata(&target).ok().map(|m| m.permissions()),
        Existing::Refuse => None,
    };
    let mut tmp = TempFile::create(dir)?;
    tmp.file
        .write_all(bytes)
        .map_err(|e| Error::io(&target, e))?;
    if let Some(mode) = keep_mode {
        // A replaced file keeps its permissions; a new one gets the umask's.
        tmp.file
            .set_permissions(mode)
            .map_err(|e| Error::io(&target, e))?;
    }
    tmp.file.sync_all().map_err(|e| Error::io(&target, e))?;
    match existing {
        // A hard link fails if anything appeared at the target meanwhile: no clobbering.
        Existing::Refuse => {
            std::fs::hard_link(&tmp.path, &target).map_err(|e| Error::io(&target, e))?
        }
        Existing::Replace => {
            std::fs::rename(&tmp.path, &target).map_err(|e| Error::io(&target, e))?
        }
    }
    Ok(())
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
