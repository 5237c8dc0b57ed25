//! `git standards merge-driver %O %A %B %P`: git's merge driver for
//! `.standards/STATE.md` (decision D24).
//!
//! Git runs it during a merge with three temporary files (base, ours,
//! theirs) and the path being merged; the result goes into the "ours" file.
//! Exit 0 is a clean merge, any other status below 128 a conflict; a crash
//! would abort the whole merge, so every failure here becomes a conflict
//! with a message on stderr and the "ours" file left as git wrote it.

use std::path::{Path, PathBuf};

use crate::commands::Context;
use crate::error::{Error, Result};
use crate::protocol::layout::STATE_PATH;
use crate::protocol::state_merge::{self, MergeCase};

/// The exit status git reads as "the merge conflicted".
pub const EXIT_CONFLICT: u8 = 1;

/// The driver's four arguments, as git substitutes them.
#[derive(Debug, Clone)]
pub struct Request {
    /// `%O`: the merge base's version.
    pub base: PathBuf,
    /// `%A`: our version; the result is written here.
    pub ours: PathBuf,
    /// `%B`: their version.
    pub theirs: PathBuf,
    /// `%P`: the path being merged, for messages.
    pub path: Option<String>,
}

/// Runs the driver. Returns `Ok` for a clean merge and `Error::Exit` with
/// [`EXIT_CONFLICT`] for a conflict or any failure (already reported on stderr).
pub fn run(ctx: &mut Context, request: &Request) -> Result<()> {
    let cwd = ctx.cwd.clone();
    let outcome = std::panic::catch_unwind(|| merge_files(&cwd, request));
    let path = request.path.as_deref().unwrap_or(STATE_PATH);
    let message = match outcome {
        Ok(Ok(Outcome::Clean)) => return Ok(()),
        Ok(Ok(Outcome::Conflict(m))) => m,
        Ok(Err(e)) => format!(
            "git standards merge-driver could not merge `{path}`: {e}. The file is left as your branch had it and marked as conflicted; resolve it with `git standards resolve --keep ours|theirs`."
        ),
        Err(_) => format!(
            "git standards merge-driver failed unexpectedly on `{path}`; the file is left as your branch had it and marked as conflicted. Please report this."
        ),
    };
    let _ = writeln!(ctx.err, "{message}");
    Err(Error::Exit {
        code: EXIT_CONFLICT,
    })
}

enum Outcome {
    Clean,
    Conflict(String),
}

fn merge_files(cwd: &Path, request: &Request) -> Result<Outcome> {
    let path = request.path.as_deref().unwrap_or(STATE_PATH);
    let base = read(cwd, &request.base, "%O (the merge base's version)")?;
    let ours = read(cwd, &request.ours, "%A (your branch's version)")?;
    let theirs = read(cwd, &request.theirs, "%B (the other branch's version)")?;
    let merged = state_merge::merge(&base, &ours, &theirs);
    if merged.bytes != ours {
        write_result(cwd, &request.ours, &merged.bytes)?;
    }
    Ok(match merged.case {
        MergeCase::Conflict => Outcome::Conflict(format!(
            "Both branches changed `{path}`, so git standards does not combine them (D24): ours holds {}, theirs holds {}. Both whole versions were written between conflict markers; ask the user which cycle to keep, then run `git standards resolve --keep ours` or `git standards resolve --keep theirs`.",
            merged.ours.label(),
            merged.theirs.label()
        )),
        _ => Outcome::Clean,
    })
}

/// Reads one of git's temporary files. They are git's own files, not project
/// files, so a plain read is right; a symbolic link is refused all the same.
fn read(cwd: &Path, path: &Path, what: &str) -> Result<Vec<u8>> {
    let full = cwd.join(path);
    match std::fs::symlink_metadata(&full) {
        Ok(m) if m.file_type().is_symlink() => {
            return Err(Error::refused(
                format!("{what} `{}` is a symbolic link", path.display()),
                None,
            ))
        }
        Ok(m) if !m.is_file() => {
            return Err(Error::refused(
                format!("{what} `{}` is not a regular file", path.display()),
                None,
            ))
        }
        Ok(_) => {}
        Err(e) => {
            return Err(Error::refused(
                format!("cannot read {what} `{}`: {e}", path.display()),
                None,
            ))
        }
    }
    std::fs::read(&full).map_err(|e| {
        Error::refused(
            format!("cannot read {what} `{}`: {e}", path.display()),
            None,
        )
    })
}

/// Replaces git's "ours" temporary file atomically, keeping its mode.
fn write_result(cwd: &Path, path: &Path, bytes: &[u8]) -> Result<()> {
    let full = cwd.join(path);
    let (dir, name) = match (full.parent(), full.file_name().and_then(|n| n.to_str())) {
        (Some(dir), Some(name)) => (dir.to_path_buf(), name.to_string()),
        _ => {
            return Err(Error::refused(
                format!("cannot write the result to `{}`", path.display()),
                None,
            ))
        }
    };
    crate::repo::write::atomic_write(&dir, &name, bytes, crate::repo::write::Existing::Replace)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_in(dir: &Path, base: &str, ours: &str, theirs: &str) -> (Result<()>, String, String) {
        std::fs::write(dir.join("o"), base).unwrap();
        std::fs::write(dir.join("a"), ours).unwrap();
        std::fs::write(dir.join("b"), theirs).unwrap();
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let mut ctx = Context {
            cwd: dir.to_path_buf(),
            out: &mut out,
            err: &mut err,
            color: false,
        };
        let r = run(
            &mut ctx,
            &Request {
                base: "o".into(),
                ours: "a".into(),
                theirs: "b".into(),
                path: Some(STATE_PATH.into()),
            },
        );
        let result = std::fs::read_to_string(dir.join("a")).unwrap();
        (r, result, String::from_utf8(err).unwrap())
    }

    #[test]
    fn takes_the_one_changed_side_and_conflicts_when_both_changed() {
        let dir = tempfile::tempdir().unwrap();
        let (r, result, err) = run_in(dir.path(), "x\n", "x\n", "`Id`: `t-1`\n");
        assert!(r.is_ok());
        assert_eq!(result, "`Id`: `t-1`\n");
        assert_eq!(err, "");

        let (r, result, err) = run_in(dir.path(), "x\n", "`Id`: `o-1`\n", "`Id`: `t-1`\n");
        assert!(matches!(
            r,
            Err(Error::Exit {
                code: EXIT_CONFLICT
            })
        ));
        assert!(result.starts_with("<<<<<<< ours: cycle o-1"), "{result}");
        assert!(err.contains("ours holds cycle o-1"), "{err}");
        assert!(err.contains("theirs holds cycle t-1"), "{err}");
        assert!(err.contains("git standards resolve --keep"), "{err}");
    }

    #[test]
    fn unreadable_input_is_a_conflict_that_keeps_ours() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a"), "mine\n").unwrap();
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let mut ctx = Context {
            cwd: dir.path().to_path_buf(),
            out: &mut out,
            err: &mut err,
            color: false,
        };
        let r = run(
            &mut ctx,
            &Request {
                base: "missing".into(),
                ours: "a".into(),
                theirs: "a".into(),
                path: None,
            },
        );
        assert!(matches!(
            r,
            Err(Error::Exit {
                code: EXIT_CONFLICT
            })
        ));
        let err = String::from_utf8(err).unwrap();
        assert!(err.contains("cannot read %O"), "{err}");
        assert_eq!(
            std::fs::read_to_string(dir.path().join("a")).unwrap(),
            "mine\n"
        );
    }
}
