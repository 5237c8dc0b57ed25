//! Bounded, link-aware reads of a project folder for invocation discovery
//! (RT §6.2): a path and the file it resolves to must both stay inside the
//! folder they are allowed in, folders on the way must be real folders where
//! the spec says so, and files are at most 2 MiB of UTF-8.

use std::path::{Path, PathBuf};

use standards_core::invocation::{DirStatus, Files};

/// The largest file discovery reads.
pub const MAX_BYTES: u64 = 2 * 1024 * 1024;

/// A project folder read from the filesystem.
pub struct ProjectFiles {
    root: PathBuf,
}

impl ProjectFiles {
    /// `root` is canonicalised so resolved paths can be compared with it.
    pub fn new(root: &Path) -> std::io::Result<ProjectFiles> {
        Ok(ProjectFiles {
            root: std::fs::canonicalize(root)?,
        })
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    fn logical(&self, rel: &str) -> Result<PathBuf, String> {
        if rel.starts_with('/')
            || rel.contains('\\')
            || rel.split('/').any(|s| s == ".." || s == ".")
        {
            return Err(format!("`{rel}` is not a plain project-relative path"));
        }
        Ok(if rel.is_empty() {
            self.root.clone()
        } else {
            self.root.join(rel)
        })
    }

    /// The canonical path of `rel`, required to lie inside `allowed`.
    fn resolved_inside(&self, rel: &str, allowed: &str) -> Result<PathBuf, String> {
        let inside =
            |p: &str| allowed.is_empty() || p == allowed || p.starts_with(&format!("{allowed}/"));
        if !inside(rel) {
            return Err(format!(
                "`{rel}` is outside its permitted folder `{allowed}`"
            ));
        }
        let path = self.logical(rel)?;
        let real =
            std::fs::canonicalize(&path).map_err(|e| format!("cannot resolve `{rel}`: {e}"))?;
        let base = std::fs::canonicalize(self.logical(allowed)?)
            .map_err(|e| format!("cannot resolve `{allowed}`: {e}"))?;
        if !real.starts_with(&base) || !real.starts_with(&self.root) {
            return Err(format!(
                "`{rel}` is a symlink that leads outside its permitted folder `{}`",
                if allowed.is_empty() { "." } else { allowed }
            ));
        }
        Ok(real)
    }
}

impl Files for ProjectFiles {
    fn dir(&self, rel: &str) -> DirStatus {
        let Ok(path) = self.logical(rel) else {
            return DirStatus::NotDir(format!("`{rel}` is not a plain project-relative path"));
        };
        let _ = path;
        let mut at = self.root.clone();
        let mut shown = String::new();
        for seg in rel.split('/').filter(|s| !s.is_empty()) {
            at.push(seg);
            if !shown.is_empty() {
                shown.push('/');
            }
            shown.push_str(seg);
            match std::fs::symlink_metadata(&at) {
                Err(_) => return DirStatus::Missing,
                Ok(m) if m.file_type().is_symlink() => {
                    return DirStatus::NotDir(format!(
                        "`{shown}` is a symbolic link, not a real folder"
                    ))
                }
                Ok(m) if !m.is_dir() => {
                    return DirStatus::NotDir(format!("`{shown}` is not a folder"))
                }
                Ok(_) => {}
            }
        }
        DirStatus::Dir
    }

    fn read(&self, rel: &str, allowed: &str) -> Result<Option<String>, String> {
        let path = self.logical(rel)?;
        if std::fs::symlink_metadata(&path).is_err() {
            return Ok(None);
        }
        let real = self.resolved_inside(rel, allowed)?;
        let meta = std::fs::metadata(&real).map_err(|e| format!("cannot read `{rel}`: {e}"))?;
        if !meta.is_file() {
            return Err(format!("`{rel}` is not a regular file"));
        }
        if meta.len() > MAX_BYTES {
            return Err(format!("`{rel}` is larger than 2 MiB"));
        }
        let bytes = std::fs::read(&real).map_err(|e| format!("cannot read `{rel}`: {e}"))?;
        if bytes.len() as u64 > MAX_BYTES {
            return Err(format!("`{rel}` is larger than 2 MiB"));
        }
        let text = String::from_utf8(bytes).map_err(|_| format!("`{rel}` is not UTF-8 text"))?;
        let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
        Ok(Some(text.replace("\r\n", "\n")))
    }

    fn children(&self, rel: &str) -> Result<Vec<String>, String> {
        let path = self.logical(rel)?;
        let mut names = Vec::new();
        for entry in std::fs::read_dir(&path).map_err(|e| format!("cannot list `{rel}`: {e}"))? {
            let entry = entry.map_err(|e| format!("cannot list `{rel}`: {e}"))?;
            match entry.file_name().into_string() {
                Ok(n) => names.push(n),
                Err(n) => return Err(format!("`{rel}` holds a name that is not UTF-8: {n:?}")),
            }
        }
        names.sort();
        Ok(names)
    }

    fn regular_file_inside(&self, rel: &str, allowed: &str) -> Result<(), String> {
        let real = self.resolved_inside(rel, allowed)?;
        let meta = std::fs::metadata(&real).map_err(|e| format!("cannot read `{rel}`: {e}"))?;
        if !meta.is_file() {
            return Err(format!("`{rel}` is not a regular file"));
        }
        std::fs::File::open(&real).map_err(|e| format!("cannot read `{rel}`: {e}"))?;
        Ok(())
    }
}
