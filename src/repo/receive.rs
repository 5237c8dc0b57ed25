//! What the server hooks (`hook pre-receive`, `hook update`) read from the
//! receiving repository, usually bare: the policy as the target side holds
//! it (never from the pushed commits), branch tips before the push, and
//! whether the pushed objects can be read (git's quarantine, D23 on the
//! server).

use gix::bstr::ByteSlice;

use crate::error::Error;
use crate::repo::Project;
use standards_core::setup::config::{self, Branches, Config, CONFIG_PATH};

fn git_err(context: &str, e: impl std::fmt::Display) -> Error {
    Error::Git(format!("{context}: {e}"))
}

/// The branch HEAD names (in a bare repository: the default branch clones
/// check out), if HEAD is symbolic.
pub fn head_branch(repo: &gix::Repository) -> Option<String> {
    let name = repo.head_name().ok()??;
    name.as_bstr()
        .to_str()
        .ok()?
        .strip_prefix("refs/heads/")
        .map(str::to_string)
}

/// The commit `refs/heads/<branch>` points at now (before the push lands).
pub fn branch_tip(project: &Project, branch: &str) -> Result<Option<gix::ObjectId>, Error> {
    tip_in(&project.repo, branch)
}

fn tip_in(repo: &gix::Repository, branch: &str) -> Result<Option<gix::ObjectId>, Error> {
    match repo
        .try_find_reference(format!("refs/heads/{branch}").as_str())
        .map_err(|e| git_err("cannot read a branch", e))?
    {
        Some(mut r) => Ok(Some(
            r.peel_to_id()
                .map_err(|e| git_err("cannot read a branch", e))?
                .detach(),
        )),
        None => Ok(None),
    }
}

/// The committed `.standards/config.toml` of the project at `dir` in
/// `commit`; an absent file is the empty configuration.
fn config_at(
    repo: &gix::Repository,
    commit: gix::ObjectId,
    dir: &str,
) -> Result<Option<Config>, Error> {
    let path = if dir.is_empty() {
        CONFIG_PATH.to_string()
    } else {
        format!("{dir}/{CONFIG_PATH}")
    };
    let tree = repo
        .find_commit(commit)
        .map_err(|e| git_err("cannot read a commit", e))?
        .tree()
        .map_err(|e| git_err("cannot read a tree", e))?;
    let Some(entry) = tree
        .lookup_entry_by_path(&path)
        .map_err(|e| git_err("cannot read a tree", e))?
    else {
        return Ok(None);
    };
    let shown = format!("{path} (on the receiving repository's main branch)");
    if !entry.mode().is_blob() {
        return Err(Error::Invalid {
            path: shown,
            message: "it is not a regular file".into(),
        });
    }
    let data = entry
        .object()
        .map_err(|e| git_err("cannot read a blob", e))?
        .detach()
        .data;
    let text = String::from_utf8(data).map_err(|_| Error::Invalid {
        path: shown.clone(),
        message: "it is not valid UTF-8".into(),
    })?;
    config::parse(&text, &shown)
        .map(Some)
        .map_err(|e| Error::Invalid {
            path: format!("{}:{}", e.path, e.line),
            message: match e.key {
                Some(key) => format!("`{key}`: {}", e.message),
                None => e.message,
            },
        })
}

/// The main branch and the protected patterns as the receiving repository
/// holds them (D23): its git config `standards.mainBranch` and
/// `standards.protectedBranches`, else the `.standards/config.toml`
/// committed on its default branch (HEAD) as it is before the push (the top
/// project's, else the first project's that has one), else HEAD's branch,
/// else `init.defaultBranch`, else `main`. Nothing is read from the pushed
/// commits: a pushed config.toml takes effect once it is on the main branch.
pub fn target_branches(project: &Project) -> Result<Branches, Error> {
    let repo = &project.repo;
    let head = head_branch(repo);
    let mut file = Config::default();
    if let Some(tip) = head
        .as_deref()
        .map(|h| tip_in(repo, h))
        .transpose()?
        .flatten()
    {
        let mut dirs = crate::repo::projects::in_commit(project, tip)?;
        dirs.sort_by_key(|d| (!d.is_empty(), d.clone()));
        for dir in dirs {
            if let Some(found) = config_at(repo, tip, &dir)? {
                file = found;
                break;
            }
        }
    }
    crate::repo::config::resolve_branches(repo, file, head)
}

/// Keeps the object view [`see_quarantine`] made alive (a temporary folder
/// whose `info/alternates` names the object folders git exported).
pub struct Quarantine {
    _dir: Option<tempfile::TempDir>,
}

/// Makes the pushed objects readable during pre-receive. git keeps them in a
/// quarantine folder until the hook accepts the push, and tells the hook
/// through `GIT_OBJECT_DIRECTORY` (the quarantine) and
/// `GIT_ALTERNATE_OBJECT_DIRECTORIES` (the repository's own objects); gix
/// reads neither variable, so without this every pushed commit would be
/// missing. The repository's object store is replaced by one rooted at a
/// temporary folder (outside the repository: nothing is written there) whose
/// `info/alternates` lists those folders and the repository's own.
pub fn see_quarantine(project: &mut Project) -> Result<Quarantine, Error> {
    let repo = &mut project.repo;
    let Some(objects) = std::env::var_os("GIT_OBJECT_DIRECTORY").filter(|v| !v.is_empty()) else {
        return Ok(Quarantine { _dir: None });
    };
    let mut dirs = vec![std::path::PathBuf::from(objects)];
    if let Some(alternates) = std::env::var_os("GIT_ALTERNATE_OBJECT_DIRECTORIES") {
        dirs.extend(std::env::split_paths(&alternates).filter(|p| !p.as_os_str().is_empty()));
    }
    dirs.push(repo.common_dir().join("objects"));
    let mut lines = String::new();
    for dir in &dirs {
        let dir = std::path::absolute(dir).map_err(|e| Error::io(dir, e))?;
        let text = dir.to_str().filter(|t| !t.contains(['\n', '"'])).ok_or_else(|| {
            Error::refused(
                format!(
                    "the object folder `{}` that git names for the pushed objects cannot be listed as an alternate (its name is not plain UTF-8 or holds a newline or quote)",
                    dir.display()
                ),
                Some("move the repository to a folder with a plain name, then push again".into()),
            )
        })?;
        if dir.is_dir() {
            lines.push_str(text);
            lines.push('\n');
        }
    }
    let tmp = tempfile::Builder::new()
        .prefix("git-standards-objects-")
        .tempdir()
        .map_err(|e| Error::io(std::env::temp_dir(), e))?;
    let info = tmp.path().join("info");
    std::fs::create_dir(&info).map_err(|e| Error::io(&info, e))?;
    std::fs::write(info.join("alternates"), lines).map_err(|e| Error::io(&info, e))?;
    let handle = gix::odb::at_opts(
        tmp.path(),
        repo.object_hash(),
        None,
        gix::odb::store::init::Options::default(),
    )
    .map_err(|e| git_err("cannot open the pushed objects", e))?;
    repo.objects = gix::OdbHandle::from(handle);
    Ok(Quarantine { _dir: Some(tmp) })
}

/// Whether `id` names a commit this process can read: the pushed objects sit
/// in git's quarantine (`GIT_QUARANTINE_PATH`) until pre-receive accepts, and
/// are read through `GIT_OBJECT_DIRECTORY` and
/// `GIT_ALTERNATE_OBJECT_DIRECTORIES`.
pub fn can_read_commit(project: &Project, id: gix::ObjectId) -> bool {
    project.repo.find_commit(id).is_ok()
}
