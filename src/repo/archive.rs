//! Cycle archives (D21): before reset or uninstall deletes anything, the whole
//! current `.standards/` folder (tracked files as they are on disk, and
//! untracked files that are not ignored) is committed under
//! `refs/standards/archive/<name>`, built from objects with gix (no checkout,
//! no index change). A later archive of the same name gets the previous one as
//! its parent, so nothing archived is ever replaced. The tool never deletes an
//! archive.

use std::collections::BTreeSet;
use std::path::Path;

use gix::bstr::ByteSlice;

use crate::error::{Error, Result};
use crate::repo::Project;
use standards_core::model::layout::STANDARDS_DIR;

/// Where archives live.
pub const PREFIX: &str = "refs/standards/archive/";

/// The identity of archive commits when the user has none configured (D18).
const TOOL_NAME: &str = "git-standards";
const TOOL_EMAIL: &str = "git-standards@localhost";

/// A stored archive commit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Archived {
    /// The full ref name.
    pub reference: String,
    pub commit: gix::ObjectId,
    pub previous: Option<gix::ObjectId>,
    /// How many files it holds.
    pub files: usize,
}

impl Archived {
    /// `<ref>@<commit>`, the form of the `Standards-Archive` trailer.
    pub fn at(&self) -> String {
        format!("{}@{}", self.reference, self.commit)
    }
}

/// The longest archive name: its ref is a file named after it, with room
/// for git's `.lock` suffix within the file system's 255 bytes.
pub const MAX_NAME: usize = 200;

/// Whether `name` can be an archive name: one valid ref component of at
/// most [`MAX_NAME`] bytes (a longer cycle ID archives under a
/// `reset-<time>` name instead of failing, issue 21).
pub fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_NAME
        && !name.contains('/')
        && gix::refs::FullName::try_from(format!("{PREFIX}{name}")).is_ok()
}

/// `reset-<UTC timestamp>`: the name when no cycle was ever started.
pub fn timestamp_name(prefix: &str) -> String {
    format!("{prefix}-{}", chrono::Utc::now().format("%Y%m%dT%H%M%SZ"))
}

/// One file to archive: project-relative path, bytes, executable or link.
struct File {
    path: String,
    bytes: Vec<u8>,
    kind: gix::objs::tree::EntryKind,
}

/// The files under `.standards/` that the archive keeps: every regular file or
/// link on disk that is tracked, or untracked and not ignored.
fn collect(project: &Project) -> Result<Vec<File>> {
    let work = project.worktree()?;
    let prefix = format!("{STANDARDS_DIR}/");
    let mut wanted: BTreeSet<String> = work
        .untracked(&|p: &str| p.starts_with(&prefix))?
        .into_iter()
        .collect();
    let index = project
        .repo
        .index_or_empty()
        .map_err(|e| Error::Git(format!("cannot read the index: {e}")))?;
    let root_prefix = if project.root_in_repo.is_empty() {
        String::new()
    } else {
        format!("{}/", project.root_in_repo)
    };
    for entry in index.entries() {
        let p = entry.path(&index).to_str_lossy().into_owned();
        if let Some(rel) = p.strip_prefix(&root_prefix) {
            if rel.starts_with(&prefix) {
                wanted.insert(rel.to_string());
            }
        }
    }
    let mut files = Vec::new();
    for path in wanted {
        let full = project.root.join(&path);
        let Ok(meta) = std::fs::symlink_metadata(&full) else {
            continue; // a tracked file deleted from disk: HEAD still has it
        };
        let kind = if meta.file_type().is_symlink() {
            gix::objs::tree::EntryKind::Link
        } else if meta.is_file() && is_executable(&meta) {
            gix::objs::tree::EntryKind::BlobExecutable
        } else if meta.is_file() {
            gix::objs::tree::EntryKind::Blob
        } else {
            continue;
        };
        let bytes = if kind == gix::objs::tree::EntryKind::Link {
            let target = std::fs::read_link(&full).map_err(|e| Error::io(&full, e))?;
            target.to_string_lossy().into_owned().into_bytes()
        } else {
            std::fs::read(&full).map_err(|e| Error::io(&full, e))?
        };
        files.push(File { path, bytes, kind });
    }
    Ok(files)
}

#[cfg(unix)]
fn is_executable(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
fn is_executable(_: &std::fs::Metadata) -> bool {
    false
}

/// The signature for tool-made commits: the user's identity, else the tool's (D18).
pub fn signature(repo: &gix::Repository) -> gix::actor::Signature {
    let now = gix::date::Time::now_local_or_utc();
    let user = repo
        .committer()
        .and_then(|r| r.ok())
        .and_then(|s| s.to_owned().ok());
    user.unwrap_or_else(|| gix::actor::Signature {
        name: TOOL_NAME.into(),
        email: TOOL_EMAIL.into(),
        time: now,
    })
}

/// Writes a tree holding `files` (project-relative paths).
fn write_tree(repo: &gix::Repository, files: &[File]) -> Result<gix::ObjectId> {
    let git = |what: &str, e: &dyn std::fmt::Display| Error::Git(format!("{what}: {e}"));
    let empty = repo
        .write_object(gix::objs::Tree::empty())
        .map_err(|e| git("cannot write the empty tree", &e))?
        .detach();
    let mut editor = repo
        .edit_tree(empty)
        .map_err(|e| git("cannot edit a tree", &e))?;
    for f in files {
        let blob = repo
            .write_blob(&f.bytes)
            .map_err(|e| git("cannot write a blob", &e))?
            .detach();
        editor
            .upsert(f.path.as_str(), f.kind, blob)
            .map_err(|e| git(&format!("cannot add `{}` to the archive", f.path), &e))?;
    }
    Ok(editor
        .write()
        .map_err(|e| git("cannot write the archive tree", &e))?
        .detach())
}

/// The current tip of a ref, if it exists.
pub fn tip(project: &Project, name: &str) -> Result<Option<gix::ObjectId>> {
    tip_in(&project.repo, name)
}

fn tip_in(repo: &gix::Repository, name: &str) -> Result<Option<gix::ObjectId>> {
    match repo.try_find_reference(name) {
        Ok(Some(mut r)) => Ok(Some(
            r.peel_to_id()
                .map_err(|e| Error::Git(format!("cannot read `{name}`: {e}")))?
                .detach(),
        )),
        Ok(None) => Ok(None),
        Err(e) => Err(Error::Git(format!("cannot read `{name}`: {e}"))),
    }
}

/// Archives the current `.standards/` under `refs/standards/archive/<name>`
/// for `operation` (`reset`, `uninstall`). The ref moves by compare-and-swap,
/// so a concurrent archive of the same name is never overwritten.
pub fn store(project: &Project, name: &str, operation: &str) -> Result<Archived> {
    if !valid_name(name) {
        return Err(Error::Internal(format!("`{name}` is not an archive name")));
    }
    let repo = &project.repo;
    let files = collect(project)?;
    let tree = write_tree(repo, &files)?;
    let reference = format!("{PREFIX}{name}");
    let branch = match repo.head_name() {
        Ok(Some(n)) => n.shorten().to_string(),
        _ => "(detached HEAD)".to_string(),
    };
    let head = match repo.head_id() {
        Ok(id) => id.to_string(),
        Err(_) => "(no commit yet)".to_string(),
    };
    for _attempt in 0..5 {
        let previous = tip_in(repo, &reference)?;
        let message = format!(
            "standards: archive .standards/ before {operation}\n\nBranch: {branch}\nHEAD: {head}\nOperation: {operation}\nProject: {}\nTool: git-standards {}\n",
            if project.root_in_repo.is_empty() { "." } else { &project.root_in_repo },
            env!("CARGO_PKG_VERSION")
        );
        let sig = signature(repo);
        let commit = gix::objs::Commit {
            tree,
            parents: previous.into_iter().collect(),
            author: sig.clone(),
            committer: sig,
            encoding: None,
            message: message.into(),
            extra_headers: Vec::new(),
        };
        let commit = repo
            .write_object(&commit)
            .map_err(|e| Error::Git(format!("cannot write the archive commit: {e}")))?
            .detach();
        use gix::refs::transaction::PreviousValue;
        let expected = match previous {
            Some(p) => PreviousValue::MustExistAndMatch(gix::refs::Target::Object(p)),
            None => PreviousValue::MustNotExist,
        };
        match repo.reference(
            reference.as_str(),
            commit,
            expected,
            format!("standards: archive before {operation}"),
        ) {
            Ok(_) => {
                return Ok(Archived {
                    reference,
                    commit,
                    previous,
                    files: files.len(),
                })
            }
            Err(e) if e.is_conflict() => continue,
            Err(e) => return Err(Error::Git(format!("cannot update `{reference}`: {e}"))),
        }
    }
    Err(Error::refused(
        format!("`{reference}` kept moving while git standards tried to archive into it"),
        Some("retry when no other git standards command is running".into()),
    ))
}

/// One archive as `archive list` shows it.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Listed {
    pub name: String,
    #[serde(rename = "ref")]
    pub reference: String,
    pub commit: String,
    /// Commit time, `YYYY-MM-DDTHH:MM:SSZ`.
    pub time: String,
    /// How many archive commits the ref holds (one per reset or uninstall).
    pub versions: usize,
    pub files: usize,
    pub operation: String,
    pub branch: String,
}

/// Every archive, sorted by name.
pub fn list(project: &Project) -> Result<Vec<Listed>> {
    let repo = &project.repo;
    let git = |e: &dyn std::fmt::Display| Error::Git(format!("cannot list the archives: {e}"));
    let refs = repo.references().map_err(|e| git(&e))?;
    let mut out = Vec::new();
    for r in refs.prefixed(PREFIX).map_err(|e| git(&e))? {
        let mut r = r.map_err(|e| git(&e))?;
        let reference = r.name().as_bstr().to_string();
        let id = r.peel_to_id().map_err(|e| git(&e))?.detach();
        let commit = repo.find_commit(id).map_err(|_| {
            Error::refused(
                format!("refusing archive `{reference}`: it points at {id}, which is not a commit"),
                Some(format!("inspect it with `git cat-file -t {reference}`; an archive ref must point at a commit")),
            )
        })?;
        let message = commit.message_raw_sloppy().to_str_lossy().into_owned();
        let field = |key: &str| {
            message
                .lines()
                .find_map(|l| l.strip_prefix(&format!("{key}: ")))
                .unwrap_or("")
                .to_string()
        };
        let seconds = commit.time().map(|t| t.seconds).unwrap_or_default();
        let time = chrono::DateTime::from_timestamp(seconds, 0)
            .map(|t| t.format("%Y-%m-%dT%H:%M:%SZ").to_string())
            .unwrap_or_default();
        let mut versions = 0;
        let mut cursor = Some(id);
        while let Some(c) = cursor {
            versions += 1;
            cursor = repo
                .find_commit(c)
                .ok()
                .and_then(|c| c.parent_ids().next().map(|p| p.detach()));
        }
        let files = files_in(repo, id, &reference)?.len();
        out.push(Listed {
            name: reference.trim_start_matches(PREFIX).to_string(),
            reference,
            commit: id.to_string(),
            time,
            versions,
            files,
            operation: field("Operation"),
            branch: field("Branch"),
        });
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(out)
}

/// The full ref an archive name (`<name>`, `<name>~<n>` or the full ref)
/// stands for, as refusals name it.
pub fn label(name: &str) -> String {
    let base = match name.rsplit_once('~') {
        Some((b, n)) if n.parse::<usize>().is_ok() => b,
        _ => name,
    };
    format!("{PREFIX}{}", base.strip_prefix(PREFIX).unwrap_or(base))
}

/// The commit an archive name (`<name>`, `refs/standards/archive/<name>`, or
/// `<name>~<n>` for an older version) points at.
pub fn resolve(project: &Project, name: &str) -> Result<gix::ObjectId> {
    let repo = &project.repo;
    let (base, back) = match name.rsplit_once('~') {
        Some((b, n)) if n.parse::<usize>().is_ok() => (b, n.parse::<usize>().unwrap_or(0)),
        _ => (name, 0),
    };
    let short = base.strip_prefix(PREFIX).unwrap_or(base);
    let reference = format!("{PREFIX}{short}");
    let not_found = || {
        Error::refused(
            format!("there is no archive `{short}` (no ref `{reference}`)"),
            Some("`git standards archive list` shows the archives".into()),
        )
    };
    if !valid_name(short) {
        return Err(not_found());
    }
    let mut id = tip_in(repo, &reference)?.ok_or_else(not_found)?;
    for step in 0..back {
        let commit = repo
            .find_commit(id)
            .map_err(|e| Error::Git(format!("cannot read archive `{short}`: {e}")))?;
        id = commit
            .parent_ids()
            .next()
            .map(|p| p.detach())
            .ok_or_else(|| {
                Error::refused(
                    format!("archive `{short}` has only {} version(s)", step + 1),
                    None,
                )
            })?;
    }
    Ok(id)
}

/// An archived file.
#[derive(Debug, Clone)]
pub struct ArchivedFile {
    pub path: String,
    pub id: gix::ObjectId,
    pub mode: gix::objs::tree::EntryKind,
}

impl ArchivedFile {
    /// Whether the archive holds it as a symbolic link.
    pub fn is_link(&self) -> bool {
        self.mode == gix::objs::tree::EntryKind::Link
    }
}

/// HFS+ ignores these code points when it compares names, so `.g\u{200c}it`
/// is `.git` there (git's `is_hfs_dotgit`).
fn hfs_ignorable(c: char) -> bool {
    matches!(c as u32,
        0x200c..=0x200f | 0x202a..=0x202e | 0x206a..=0x206f | 0xfeff)
}

/// A name as NTFS and HFS+ compare it: ignorable code points dropped,
/// an alternate data stream (`::$INDEX_ALLOCATION`) cut off, trailing dots
/// and spaces trimmed, lower case.
fn folded(name: &str) -> String {
    let name: String = name.chars().filter(|c| !hfs_ignorable(*c)).collect();
    let name = name.split(':').next().unwrap_or("");
    name.trim_end_matches(['.', ' ']).to_lowercase()
}

/// Why one tree entry name may not be written into a working tree, as
/// git's fsck and `verify_path` refuse it: `.git` in any case and in its
/// NTFS (`.git.`, `.git `, `git~1`, `.git::$INDEX_ALLOCATION`) and HFS+
/// (ignorable code points) spellings, `.`, `..`, an empty name, a name
/// holding `/`, `\` or NUL, and a `.gitmodules` (or `.gitattributes`,
/// `.gitignore`, `.mailmap`) that is a symbolic link. `None` for a safe name.
pub fn unsafe_entry_name(name: &[u8], is_link: bool) -> Option<&'static str> {
    if name.is_empty() || name == b"." || name == b".." {
        return Some("an empty, `.` or `..` name");
    }
    if name.contains(&b'/') || name.contains(&0) {
        return Some("a name holding `/` or NUL");
    }
    let text = String::from_utf8_lossy(name);
    // NTFS also splits at backslashes: `a\.git` is `.git` inside `a`.
    for part in text.split('\\') {
        let f = folded(part);
        if f == ".git" || f == "git~1" {
            return Some("a `.git` folder (or a spelling of it that NTFS or HFS+ reads as `.git`)");
        }
        if f == "." || f == ".." {
            return Some("an empty, `.` or `..` name");
        }
        if is_link
            && [
                ".gitmodules",
                "gitmod~1",
                ".gitattributes",
                "gitatt~1",
                ".gitignore",
                "gitign~1",
                ".mailmap",
            ]
            .contains(&f.as_str())
        {
            return Some("a symbolic link named like a git control file (`.gitmodules`, `.gitattributes`, `.gitignore`, `.mailmap`)");
        }
    }
    if text.contains('\\') {
        return Some("a name holding `\\`, which Windows reads as a folder separator");
    }
    None
}

/// The first entry of `path` (its components, `/`-separated) that may not
/// be written, with the reason.
pub fn unsafe_path(path: &[u8], is_link: bool) -> Option<&'static str> {
    let parts: Vec<&[u8]> = path.split(|b| *b == b'/').collect();
    let last = parts.len().saturating_sub(1);
    parts
        .iter()
        .enumerate()
        .find_map(|(i, part)| unsafe_entry_name(part, is_link && i == last))
}

/// The refusal for an archive whose tree holds a path that must never be
/// written (issue 21): a planted `.git` would make a nested repository whose
/// configuration runs programs.
pub fn unsafe_archive(label: &str, path: &str, why: &str) -> Error {
    Error::refused(
        format!("refusing archive `{label}`: its tree holds `{path}`, {why}, which could plant a git repository or hooks in the working tree; nothing was read from it"),
        Some(format!("an archive made by git standards never holds such a path; inspect it with `git ls-tree -r {label}`, and delete the ref with `git update-ref -d {label}` if it is not yours")),
    )
}

/// Every file in the archive commit `commit`, sorted by path. `label` (the
/// ref) names the archive in a refusal: a tree holding a path git refuses to
/// check out (`.git` and its NTFS/HFS+ spellings, a `.gitmodules` link) is
/// refused whole.
pub fn files(project: &Project, commit: gix::ObjectId, label: &str) -> Result<Vec<ArchivedFile>> {
    files_in(&project.repo, commit, label)
}

fn files_in(
    repo: &gix::Repository,
    commit: gix::ObjectId,
    label: &str,
) -> Result<Vec<ArchivedFile>> {
    let git = |e: &dyn std::fmt::Display| Error::Git(format!("cannot read the archive: {e}"));
    let not_an_archive = |what: String| {
        Error::refused(
            format!("refusing archive `{label}`: {what}"),
            Some(format!(
                "inspect it with `git cat-file -t {commit}`; an archive ref must point at a commit"
            )),
        )
    };
    let tree = repo
        .find_commit(commit)
        .map_err(|e| not_an_archive(format!("{commit} is not a commit ({e})")))?
        .tree()
        .map_err(|e| not_an_archive(format!("its tree cannot be read ({e})")))?;
    let mut out = Vec::new();
    let mut recorder = gix::traverse::tree::Recorder::default();
    tree.traverse()
        .breadthfirst(&mut recorder)
        .map_err(|e| git(&e))?;
    for entry in recorder.records {
        let is_link = entry.mode.is_link();
        if let Some(why) = unsafe_path(&entry.filepath, is_link) {
            return Err(unsafe_archive(label, &entry.filepath.to_str_lossy(), why));
        }
        if entry.mode.is_tree() {
            continue;
        }
        out.push(ArchivedFile {
            path: entry.filepath.to_str_lossy().into_owned(),
            id: entry.oid,
            mode: entry.mode.kind(),
        });
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(out)
}

/// Refuses an archive ref (as fetched, before it moves into place) whose
/// commits, along the first-parent chain that `<name>~<n>` reads, hold a
/// path [`files`] refuses, or that is not a commit. At most `limit` commits
/// are read; a longer chain is refused.
pub fn validate(project: &Project, tip: gix::ObjectId, label: &str, limit: usize) -> Result<()> {
    let repo = &project.repo;
    let mut cursor = Some(tip);
    let mut seen = 0;
    while let Some(c) = cursor {
        seen += 1;
        if seen > limit {
            return Err(Error::refused(
                format!("refusing archive `{label}`: it has more than {limit} versions"),
                Some(format!("inspect it with `git log --oneline {tip}`")),
            ));
        }
        files_in(repo, c, label)?;
        cursor = repo
            .find_commit(c)
            .ok()
            .and_then(|c| c.parent_ids().next().map(|p| p.detach()));
    }
    Ok(())
}

/// The bytes of one archived object.
pub fn blob(project: &Project, id: gix::ObjectId) -> Result<Vec<u8>> {
    Ok(project
        .repo
        .find_object(id)
        .map_err(|e| Error::Git(format!("cannot read an archived file: {e}")))?
        .detach()
        .data)
}

/// Files of `all` selected by `path`: the file itself, or everything under a
/// folder. A path may omit the leading `.standards/`.
pub fn select<'a>(all: &'a [ArchivedFile], path: &str) -> Vec<&'a ArchivedFile> {
    let path = path.trim_end_matches('/');
    let pick = |p: &str| -> Vec<&'a ArchivedFile> {
        all.iter()
            .filter(|f| f.path == p || f.path.starts_with(&format!("{p}/")))
            .collect()
    };
    let direct = pick(path);
    if !direct.is_empty() || path.starts_with(&format!("{STANDARDS_DIR}/")) {
        return direct;
    }
    pick(&format!("{STANDARDS_DIR}/{path}"))
}

/// Whether the project-relative `path` exists on disk (links not followed).
pub fn occupied(root: &Path, path: &str) -> bool {
    std::fs::symlink_metadata(root.join(path)).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn git_folders_in_any_spelling_are_unsafe() {
        for name in [
            ".git",
            ".GIT",
            ".Git",
            ".git.",
            ".git ",
            ".git. .",
            "git~1",
            "GIT~1",
            ".git::$INDEX_ALLOCATION",
            ".g\u{200c}it",
            "\u{feff}.git",
            ".gi\u{200d}T",
            "a\\.git",
            ".",
            "..",
            "",
        ] {
            assert!(
                unsafe_entry_name(name.as_bytes(), false).is_some(),
                "{name:?}"
            );
        }
        for name in [
            ".gitmodules",
            ".GITMODULES.",
            "gitmod~1",
            ".gitattributes",
            ".gitignore",
        ] {
            assert!(
                unsafe_entry_name(name.as_bytes(), true).is_some(),
                "{name:?}"
            );
            assert!(
                unsafe_entry_name(name.as_bytes(), false).is_none(),
                "{name:?}"
            );
        }
        for name in [
            "git", ".gitx", "x.git", ".github", "STATE.md", "git~2x", "docs",
        ] {
            assert!(
                unsafe_entry_name(name.as_bytes(), false).is_none(),
                "{name:?}"
            );
        }
        assert!(unsafe_path(b".standards/docs/.git/config", false).is_some());
        assert!(unsafe_path(b".standards/.GIT./hooks/x", false).is_some());
        assert!(unsafe_path(b".standards/docs/.gitmodules", true).is_some());
        assert!(unsafe_path(b".standards/.gitmodules/x", true).is_none());
        assert!(unsafe_path(b".standards/docs/a.md", false).is_none());
    }

    #[test]
    fn names_are_single_ref_components() {
        assert!(valid_name("add-search-20260927T190146Z-7bef0f04"));
        assert!(valid_name("reset-20260101T000000Z"));
        assert!(!valid_name(""));
        assert!(!valid_name("a/b"));
        assert!(!valid_name("a..b"));
        assert!(!valid_name("a b"));
        assert!(valid_name(&"a".repeat(MAX_NAME)));
        assert!(!valid_name(&"a".repeat(300)));
    }

    #[test]
    fn selection_takes_files_and_folders_with_or_without_the_prefix() {
        let f = |p: &str| ArchivedFile {
            path: p.into(),
            id: gix::ObjectId::null(gix::hash::Kind::Sha1),
            mode: gix::objs::tree::EntryKind::Blob,
        };
        let all = [
            f(".standards/STATE.md"),
            f(".standards/docs/a/x.md"),
            f(".standards/docs/b.md"),
            f(".standards/docsy.md"),
        ];
        let names = |v: Vec<&ArchivedFile>| v.iter().map(|f| f.path.clone()).collect::<Vec<_>>();
        assert_eq!(
            names(select(&all, "docs")),
            [".standards/docs/a/x.md", ".standards/docs/b.md"]
        );
        assert_eq!(
            names(select(&all, ".standards/STATE.md")),
            [".standards/STATE.md"]
        );
        assert!(select(&all, "nothing").is_empty());
    }
}
