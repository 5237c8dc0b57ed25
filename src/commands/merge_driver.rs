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
use standards_core::model::layout::STATE_PATH;
use standards_core::workflow::state_merge::{self, MergeCase};

#[derive(Debug, clap::Args)]
pub struct MergeDriverArgs {
    /// `%O`: the file holding the merge base's version.
    #[arg(value_name = "base")]
    pub base: PathBuf,
    /// `%A`: the file holding your branch's version; the result is written here.
    #[arg(value_name = "ours")]
    pub ours: PathBuf,
    /// `%B`: the file holding the other branch's version.
    #[arg(value_name = "theirs")]
    pub theirs: PathBuf,
    /// `%P`: the path being merged, named in messages.
    #[arg(value_name = "path")]
    pub path: Option<String>,
}

/// The exit status git reads as "the merge conflicted".
pub const EXIT_CONFLICT: u8 = 1;

/// The largest version of STATE.md the driver reads (1 MiB; a real one is a
/// few kilobytes). A larger side is a conflict, never read whole (issue 21:
/// three 80 MB inputs took 745 MB of memory).
pub const MAX_INPUT_BYTES: u64 = 1024 * 1024;

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
    for (what, bytes) in [
        ("the merge base's version (%O)", &base),
        ("your branch's version (%A)", &ours),
        ("the other branch's version (%B)", &theirs),
    ] {
        if let Some(line) = marker_line(bytes) {
            return Ok(Outcome::Conflict(format!(
                "{what} of `{path}` already holds conflict markers (line {line}), so git standards does not merge it: the file is left as your branch had it and marked as conflicted. Ask the user which cycle to keep, then run `git standards resolve --keep ours` or `git standards resolve --keep theirs`."
            )));
        }
    }
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

/// The 1-based number of the first line that is a conflict marker
/// (`<<<<<<<`, `>>>>>>>` or `|||||||`, alone or followed by a space).
fn marker_line(bytes: &[u8]) -> Option<usize> {
    bytes
        .split(|b| *b == b'\n')
        .position(|l| {
            let l = l.strip_suffix(b"\r").unwrap_or(l);
            [b"<<<<<<<", b">>>>>>>", b"|||||||"].iter().any(|m| {
                l.strip_prefix(&m[..])
                    .is_some_and(|rest| rest.is_empty() || rest[0] == b' ')
            })
        })
        .map(|i| i + 1)
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
        Ok(m) if m.len() > MAX_INPUT_BYTES => {
            return Err(Error::refused(
                format!(
                    "{what} `{}` is {} bytes, more than the {} bytes (1 MiB) a STATE.md may hold",
                    path.display(),
                    m.len(),
                    MAX_INPUT_BYTES
                ),
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
    // Bounded even if the file grows after the check.
    let mut bytes = Vec::new();
    let read = std::fs::File::open(&full).and_then(|f| {
        use std::io::Read as _;
        f.take(MAX_INPUT_BYTES + 1).read_to_end(&mut bytes)
    });
    match read {
        Err(e) => Err(Error::refused(
            format!("cannot read {what} `{}`: {e}", path.display()),
            None,
        )),
        Ok(_) if bytes.len() as u64 > MAX_INPUT_BYTES => Err(Error::refused(
            format!(
                "{what} `{}` is more than the {MAX_INPUT_BYTES} bytes (1 MiB) a STATE.md may hold",
                path.display()
            ),
            None,
        )),
        Ok(_) => Ok(bytes),
    }
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
    fn a_side_holding_conflict_markers_is_a_conflict_that_keeps_ours() {
        let dir = tempfile::tempdir().unwrap();
        let marked = "<<<<<<< ours\n`Id`: `o-1`\n=======\n`Id`: `t-1`\n>>>>>>> theirs\n";
        for (base, ours, theirs) in [
            ("x\n", "x\n", marked),
            ("x\n", marked, "x\n"),
            (marked, "x\n", "`Id`: `t-1`\n"),
        ] {
            let (r, result, err) = run_in(dir.path(), base, ours, theirs);
            assert!(matches!(
                r,
                Err(Error::Exit {
                    code: EXIT_CONFLICT
                })
            ));
            assert_eq!(result, ours, "ours is left as it was");
            assert!(
                err.contains("already holds conflict markers (line 1)"),
                "{err}"
            );
        }
        assert_eq!(marker_line(b"a\n>>>>>>>\n"), Some(2));
        assert_eq!(marker_line(b"a <<<<<<< b\n<<<<<<<<\n"), None);
    }

    #[test]
    fn a_side_larger_than_the_limit_is_a_conflict_read_only_up_to_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let big = "x".repeat(MAX_INPUT_BYTES as usize + 1);
        let (r, result, err) = run_in(dir.path(), "x\n", "mine\n", &big);
        assert!(matches!(
            r,
            Err(Error::Exit {
                code: EXIT_CONFLICT
            })
        ));
        assert_eq!(result, "mine\n");
        assert!(err.contains("more than the 1048576 bytes (1 MiB)"), "{err}");
        let exact = "x".repeat(MAX_INPUT_BYTES as usize);
        let (r, _, err) = run_in(dir.path(), &exact, &exact, "y\n");
        assert!(r.is_ok(), "{err}");
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
