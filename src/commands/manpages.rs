//! `git standards manpages`: installs the manual pages where `man` finds them,
//! so `git standards --help` (which git turns into `man git-standards`) works
//! right after `cargo install`.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use super::Context;
use crate::error::{Error, Result};

#[derive(Debug, clap::Args)]
pub struct ManpagesArgs {
    /// Write the pages into <DIR>/man1/ (default: the `share/man` beside the binary's folder).
    #[arg(long, value_name = "DIR", num_args = 0..=1)]
    pub install: Option<Option<PathBuf>>,
}

pub struct Request {
    /// `None`: list the pages; `Some(None)`: install beside the binary;
    /// `Some(Some(dir))`: install into `dir/man1/`.
    pub install: Option<Option<PathBuf>>,
    /// The rendered pages, by file name (rendering is the CLI layer's: it owns clap).
    pub pages: Vec<(String, String)>,
}

pub fn run(ctx: &mut Context, request: &Request) -> Result<()> {
    let default = default_dir();
    let Some(choice) = &request.install else {
        for (name, _) in &request.pages {
            writeln!(ctx.out, "{name}").map_err(Error::stdout)?;
        }
        let shown = default
            .as_ref()
            .map(|d| d.display().to_string())
            .unwrap_or_else(|_| "DIR".into());
        writeln!(
            ctx.err,
            "Run `git standards manpages --install` to write these pages into `{shown}/man1/`."
        )
        .map_err(Error::stdout)?;
        return Ok(());
    };
    let dir = match choice {
        Some(dir) => ctx.cwd.join(dir),
        None => default?,
    };
    let man1 = dir.join("man1");
    std::fs::create_dir_all(&man1).map_err(|e| Error::io(&man1, e))?;
    for (name, page) in &request.pages {
        write_page(&man1, name, page.as_bytes())?;
    }
    writeln!(
        ctx.err,
        "Installed {} manual pages into `{}`.",
        request.pages.len(),
        man1.display()
    )
    .map_err(Error::stdout)?;
    if !on_manpath(&dir) {
        writeln!(
            ctx.err,
            "hint: `man` may not look in `{}`; add it with `export MANPATH=\"{}:$MANPATH\"`",
            dir.display(),
            dir.display()
        )
        .map_err(Error::stdout)?;
    }
    Ok(())
}

/// `share/man` beside the binary's folder (`~/.cargo/bin/git-standards` ->
/// `~/.cargo/share/man`), which man-db derives from `PATH`.
fn default_dir() -> Result<PathBuf> {
    let exe = std::env::current_exe().map_err(|e| Error::io("<current executable>", e))?;
    let exe = std::fs::canonicalize(&exe).unwrap_or(exe);
    exe.parent()
        .and_then(Path::parent)
        .map(|prefix| prefix.join("share/man"))
        .ok_or_else(|| {
            Error::refused(
                format!(
                    "cannot tell where to install the pages for `{}`",
                    exe.display()
                ),
                Some("name the folder: `git standards manpages --install DIR`".into()),
            )
        })
}

/// Whether `dir` is one `man` searches: on `MANPATH`, or the `share/man` of a
/// folder on `PATH` (as man-db derives it).
fn on_manpath(dir: &Path) -> bool {
    let dir = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    let same = |p: &Path| std::fs::canonicalize(p).is_ok_and(|p| p == dir);
    if let Some(manpath) = std::env::var_os("MANPATH") {
        if std::env::split_paths(&manpath).any(|p| same(&p)) {
            return true;
        }
    }
    std::env::var_os("PATH").is_some_and(|path| {
        std::env::split_paths(&path).any(|bin| {
            bin.parent()
                .is_some_and(|prefix| same(&prefix.join("share/man")) || same(&prefix.join("man")))
        })
    })
}

/// One page, written through a temporary file in the same folder and a rename.
fn write_page(man1: &Path, name: &str, bytes: &[u8]) -> Result<()> {
    let target = man1.join(name);
    let mut tmp = tempfile::Builder::new()
        .prefix(".git-standards-")
        .suffix(".tmp")
        .tempfile_in(man1)
        .map_err(|e| Error::io(man1, e))?;
    tmp.write_all(bytes).map_err(|e| Error::io(&target, e))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // Pages are for every user of the machine, like the binary.
        tmp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(0o644))
            .map_err(|e| Error::io(&target, e))?;
    }
    tmp.persist(&target)
        .map_err(|e| Error::io(&target, e.error))?;
    Ok(())
}
