//! `git standards id next`: prints the next free record-local identifier of
//! a prefix in a record (RT §4, RF §1.5). It never edits the file.
//!
//! The file's last committed version is read from the HEAD snapshot (RT §1.7).
//! When the path is absent at HEAD and the file has a valid provenance block,
//! every committed Markdown file with an identical block (same type, cycle and
//! review kind) at another path stands in for it: that finds a record renamed
//! or moved since the last commit, whether or not the move was staged. An
//! unmarked file (an `AC` scope document) has no such identity, so only its own
//! committed path is read.

use std::path::{Component, Path, PathBuf};

use crate::commands::Context;
use crate::error::{Error, Result};
use crate::support::runtime;
use clap::{Subcommand, ValueEnum};
use standards_core::model::tree::{obstacle, Node, Obstacle, Text, Tree};
use standards_core::model::vocab::IdPrefix;
use standards_core::records::numbering::{self, OwnerError};
use standards_core::records::provenance;

#[derive(Debug, Subcommand)]
pub enum IdCommand {
    /// Print the next free identifier of a prefix in a record; never edits it.
    ///
    /// Counts every use of the prefix in the file and in its last committed
    /// version, except references into other records (`other.md#F-003`).
    Next(IdNextArgs),
}

#[derive(Debug, clap::Args)]
pub struct IdNextArgs {
    /// The identifier prefix.
    #[arg(value_enum, ignore_case = true, value_name = "AC|DEV|F|D|DOC")]
    pub prefix: PrefixArg,
    /// The record: relative to the current folder or the project root, or absolute.
    #[arg(value_name = "file")]
    pub file: PathBuf,
    /// Print `{"ok": true, "id": "<identifier>", "file": "<project path>"}`; a refusal prints `{"ok": false, "error", "hint"}`.
    #[arg(long)]
    pub json: bool,
}

/// Identifier prefixes, spelled exactly as in records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PrefixArg {
    #[value(name = "AC")]
    Ac,
    #[value(name = "DEV")]
    Dev,
    #[value(name = "F")]
    F,
    #[value(name = "D")]
    D,
    #[value(name = "DOC")]
    Doc,
}

impl From<PrefixArg> for IdPrefix {
    fn from(p: PrefixArg) -> Self {
        match p {
            PrefixArg::Ac => IdPrefix::Ac,
            PrefixArg::Dev => IdPrefix::Dev,
            PrefixArg::F => IdPrefix::F,
            PrefixArg::D => IdPrefix::D,
            PrefixArg::Doc => IdPrefix::Doc,
        }
    }
}

/// A validated `id next` request.
#[derive(Debug, Clone)]
pub struct NextRequest {
    pub prefix: IdPrefix,
    /// As the user typed it: relative to the current folder or the project
    /// root, or absolute.
    pub file: PathBuf,
}

/// Removes `.` and resolves `..` without touching the file system, as a shell
/// path resolution would (an absolute path stays absolute).
fn normalize_lexically(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// Resolves symbolic links in the longest existing leading part of the
/// absolute path `path` and appends the rest unchanged.
fn resolve_existing_part(path: &Path) -> PathBuf {
    let mut existing = path.to_path_buf();
    let mut rest = Vec::new();
    loop {
        if let Ok(real) = std::fs::canonicalize(&existing) {
            let mut out = real;
            out.extend(rest.iter().rev());
            return out;
        }
        match (
            existing.file_name().map(|n| n.to_os_string()),
            existing.parent(),
        ) {
            (Some(name), Some(parent)) => {
                rest.push(name);
                existing = parent.to_path_buf();
            }
            _ => return path.to_path_buf(),
        }
    }
}

/// `path` relative to `root` with `/` separators, if it lies strictly inside.
fn inside(path: &Path, root: &Path) -> Option<String> {
    let rel = path.strip_prefix(root).ok()?;
    let mut parts = Vec::new();
    for c in rel.components() {
        match c {
            Component::Normal(s) => parts.push(s.to_str()?),
            _ => return None,
        }
    }
    (!parts.is_empty()).then(|| parts.join("/"))
}

/// The project-relative path of a user-supplied path (RT §1.6), or `None`
/// when it lies outside the project. `root` must be canonical.
pub fn project_path(cwd: &Path, root: &Path, user: &Path) -> Option<String> {
    let absolute = normalize_lexically(&cwd.join(user));
    let resolved = resolve_existing_part(&absolute);
    if let Some(rel) = inside(&resolved, root) {
        if user.is_absolute() || resolved.exists() {
            return Some(rel);
        }
    }
    if user.is_relative() {
        return inside(&normalize_lexically(&root.join(user)), root);
    }
    None
}

/// Why `rel` can never hold a record's identifiers: git's own files, the
/// installed runtime (everything under `.standards/` but `docs/`) (issue 7,
/// item 5). Files that are not Markdown are refused once read.
pub(crate) fn not_a_record_path(rel: &str) -> Option<&'static str> {
    if rel.split('/').any(|c| c == ".git") {
        return Some("it is inside git's own `.git` folder");
    }
    if rel.starts_with(".standards/") && !rel.starts_with(".standards/docs/") {
        return Some("it is a file of the installed runtime, not a record");
    }
    None
}

/// The next identifier for `prefix` in the project file `rel`, reading the
/// file from `tree` and its committed versions from `head`.
pub fn next(
    tree: &dyn Tree,
    head: Option<&dyn Tree>,
    rel: &str,
    prefix: IdPrefix,
) -> Result<String> {
    let create_hint = || {
        format!(
            "create the record first, e.g. `git standards artifact init {}`, then number its entries",
            prefix.owning_artifact()
        )
    };
    if let Some(why) = not_a_record_path(rel) {
        return Err(Error::refused(
            format!("cannot number `{prefix}` identifiers in `{rel}`: {why}"),
            Some(format!(
                "number identifiers in the cycle's {} record, a Markdown file under `.standards/docs/` or elsewhere in the project",
                prefix.owning_artifact()
            )),
        ));
    }
    if let Some(found) = obstacle(tree, rel) {
        let what = match found {
            Obstacle::Symlink(_) => "is a symbolic link; records are read only through real folders inside the repository",
            Obstacle::NotAFolder(_) => "is not a folder",
        };
        return Err(Error::refused(
            format!("cannot read `{rel}`: `{}` {what}", found.component()),
            None,
        ));
    }
    let text = match tree.node(rel) {
        Node::Missing => {
            return Err(Error::refused(
                format!("`{rel}` does not exist; it must be created before numbering its entries"),
                Some(create_hint()),
            ))
        }
        Node::Dir => {
            return Err(Error::refused(
                format!("`{rel}` is a folder, not a record"),
                None,
            ))
        }
        Node::Symlink => {
            return Err(Error::refused(
                format!("`{rel}` is a symbolic link; records are regular files"),
                Some("pass the path of the file itself".to_string()),
            ))
        }
        Node::Unreadable(why) => {
            return Err(Error::refused(format!("cannot read `{rel}`: {why}"), None))
        }
        Node::File(_) if !rel.ends_with(".md") => {
            return Err(Error::refused(
                format!("cannot number `{prefix}` identifiers in `{rel}`: records are Markdown files (`*.md`)"),
                Some(create_hint()),
            ))
        }
        Node::File(bytes) => String::from_utf8(bytes).map_err(|_| {
            Error::refused(format!("cannot read `{rel}`: it is not UTF-8 text"), None)
        })?,
    };
    let marking = provenance::parse(&text);
    if let Err(e) = numbering::check_owner(prefix, &marking) {
        let hint = match &e {
            OwnerError::Malformed(_) => "fix the provenance block at the top of the file (see `.standards/PROTOCOL.md`); git standards never repairs it".to_string(),
            OwnerError::WrongType { expected, .. } | OwnerError::Unmarked { expected, .. } => {
                format!("number `{prefix}` identifiers in the cycle's {expected} record")
            }
        };
        return Err(Error::refused(
            format!("cannot number `{prefix}` identifiers in `{rel}`: {e}"),
            Some(hint),
        ));
    }
    let committed: Vec<String> = match head.map(|h| (h, h.text(rel))) {
        Some((_, Text::Ok(old))) => vec![old],
        Some((h, Text::Missing)) => match marking.valid() {
            Some(p) => numbering::committed_aliases(h, rel, p)
                .into_iter()
                .map(|(_, text)| text)
                .collect(),
            None => Vec::new(),
        },
        _ => Vec::new(),
    };
    let texts = std::iter::once(text.as_str()).chain(committed.iter().map(String::as_str));
    numbering::next_identifier(prefix, texts).ok_or_else(|| {
        Error::refused(
            format!(
                "`{rel}` already uses the largest possible `{prefix}` number; there is no next one"
            ),
            None,
        )
    })
}

/// Runs `id next`.
pub fn run_next(ctx: &mut Context, request: &NextRequest, json: bool) -> Result<()> {
    let rt = runtime::open(&ctx.cwd)?;
    crate::support::conflicts::refuse_during_conflict(ctx, &rt.project, "id next")?;
    let cwd = std::path::absolute(&ctx.cwd).map_err(|e| Error::io(&ctx.cwd, e))?;
    let Some(rel) = project_path(&cwd, &rt.root, &request.file) else {
        return Err(Error::refused(
            format!(
                "`{}` is outside the project at `{}`",
                request.file.display(),
                rt.root.display()
            ),
            Some("pass a file inside the project, relative to the current folder or to the project root".to_string()),
        ));
    };
    // A repository without commits has no committed version (RT §1.7); an
    // unreadable HEAD is a refusal, not a reason to hand out a used ID.
    let head = rt.project.head()?;
    let id = next(
        &rt.tree,
        head.as_ref().map(|h| h as &dyn Tree),
        &rel,
        request.prefix,
    )?;
    super::print_result(
        ctx.out,
        json,
        &id,
        serde_json::json!({"ok": true, "id": id, "file": rel}),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use standards_core::model::tree::MemTree;

    const SCOPE: &str = ".standards/docs/scope/c-1.md";
    const BLOCK: &str = "<!-- STANDARDS\nArtifact: SCOPE\nCycle: c-1\n-->\n";

    #[test]
    fn counts_the_file_and_its_committed_version() {
        let now = MemTree::new().with(SCOPE, format!("{BLOCK}- `AC-001`: One.\n"));
        assert_eq!(next(&now, None, SCOPE, IdPrefix::Ac).unwrap(), "AC-002");
        let head = MemTree::new().with(
            SCOPE,
            format!("{BLOCK}- `AC-001`: One.\n- `AC-006`: Six.\n"),
        );
        assert_eq!(
            next(&now, Some(&head), SCOPE, IdPrefix::Ac).unwrap(),
            "AC-007"
        );
    }

    #[test]
    fn follows_a_renamed_record_to_its_committed_path() {
        let now = MemTree::new().with("docs/scope.md", format!("{BLOCK}- `AC-001`: One.\n"));
        let head = MemTree::new()
            .with(
                SCOPE,
                format!("{BLOCK}- `AC-001`: One.\n- `AC-004`: Four.\n"),
            )
            .with(
                "other.md",
                "<!-- STANDARDS\nArtifact: SCOPE\nCycle: c-2\n-->\n- `AC-009`\n",
            );
        assert_eq!(
            next(&now, Some(&head), "docs/scope.md", IdPrefix::Ac).unwrap(),
            "AC-005"
        );
        // An unmarked document has no identity to follow.
        let now = MemTree::new().with("docs/scope.md", "- `AC-001`: One.\n");
        let head = MemTree::new().with("old.md", "- `AC-004`: Four.\n");
        assert_eq!(
            next(&now, Some(&head), "docs/scope.md", IdPrefix::Ac).unwrap(),
            "AC-002"
        );
    }

    #[test]
    fn refusals_name_the_file_and_the_reason() {
        let t = MemTree::new()
            .with(SCOPE, BLOCK)
            .with("plain.md", "### F-001\n")
            .with("broken.md", "<!-- STANDARDS\nArtifact: SCOPE\n");
        let e = next(&t, None, "missing.md", IdPrefix::Ac)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("`missing.md` does not exist") && e.contains("created before numbering"),
            "{e}"
        );
        let e = next(&t, None, SCOPE, IdPrefix::Dev)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("DEVELOPMENT") && e.contains("SCOPE") && e.contains(SCOPE),
            "{e}"
        );
        let e = next(&t, None, "plain.md", IdPrefix::F)
            .unwrap_err()
            .to_string();
        assert!(e.contains("not a STANDARDS record"), "{e}");
        let e = next(&t, None, "broken.md", IdPrefix::Ac)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("`broken.md`") && e.contains("never closed"),
            "{e}"
        );
        let e = next(&t, None, ".standards", IdPrefix::Ac)
            .unwrap_err()
            .to_string();
        assert!(e.contains("is a folder"), "{e}");
        let mut linked = MemTree::new();
        linked.insert_node("docs", Node::Symlink);
        let e = next(&linked, None, "docs/scope.md", IdPrefix::Ac)
            .unwrap_err()
            .to_string();
        assert!(e.contains("`docs` is a symbolic link"), "{e}");
        for (path, why) in [
            (".git/config", "`.git` folder"),
            (".standards/STATE.md", "installed runtime"),
            (".standards/protocol/x.md", "installed runtime"),
        ] {
            let t = MemTree::new().with(path, "AC-001");
            let e = next(&t, None, path, IdPrefix::Ac).unwrap_err().to_string();
            assert!(e.contains(why), "{path}: {e}");
        }
        let t = MemTree::new().with("notes.txt", "AC-001");
        let e = next(&t, None, "notes.txt", IdPrefix::Ac)
            .unwrap_err()
            .to_string();
        assert!(e.contains("Markdown"), "{e}");
        let big = MemTree::new().with("plain.md", format!("AC-{}", u64::MAX));
        assert!(next(&big, None, "plain.md", IdPrefix::Ac).is_err());
    }

    #[test]
    fn user_paths_resolve_against_the_folder_then_the_root() {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap().join("repo");
        std::fs::create_dir_all(root.join("sub/deeper")).unwrap();
        std::fs::write(root.join("sub/here.md"), "x").unwrap();
        let sub = root.join("sub");
        let p = |cwd: &Path, user: &str| project_path(cwd, &root, Path::new(user));
        assert_eq!(p(&sub, "here.md").as_deref(), Some("sub/here.md"));
        assert_eq!(
            p(&sub, "./deeper/../here.md").as_deref(),
            Some("sub/here.md")
        );
        // Not found below the folder: taken relative to the project root.
        assert_eq!(p(&sub, "docs/new.md").as_deref(), Some("docs/new.md"));
        assert_eq!(p(&root, "sub/here.md").as_deref(), Some("sub/here.md"));
        assert_eq!(
            p(&sub, root.join("sub/here.md").to_str().unwrap()).as_deref(),
            Some("sub/here.md")
        );
        assert_eq!(p(&sub, "../../outside.md"), None);
        assert_eq!(p(&sub, "/etc/passwd"), None);
        assert_eq!(p(&root, "."), None);
        #[cfg(unix)]
        {
            let link = root.parent().unwrap().join("link");
            std::os::unix::fs::symlink(&root, &link).unwrap();
            assert_eq!(
                p(&sub, link.join("sub/here.md").to_str().unwrap()).as_deref(),
                Some("sub/here.md")
            );
            // An absolute path through the link to a file not yet created still lands inside.
            assert_eq!(
                p(&sub, link.join("new.md").to_str().unwrap()).as_deref(),
                Some("new.md")
            );
            let outside = root.parent().unwrap().join("outside");
            std::fs::create_dir_all(&outside).unwrap();
            std::fs::write(outside.join("o.md"), "x").unwrap();
            std::os::unix::fs::symlink(&outside, root.join("out")).unwrap();
            assert_eq!(p(&root, root.join("out/o.md").to_str().unwrap()), None);
            // Relative through the link: kept lexically, and the snapshot refuses to read it.
            assert_eq!(p(&root, "out/o.md").as_deref(), Some("out/o.md"));
        }
    }
}
