//! Everything that touches git or the filesystem: discovery, snapshots of the
//! working tree, the index and commits, and atomic writes.

pub mod agent;
pub mod archive;
pub mod board;
pub mod bounded;
pub mod change_plan;
pub mod commit;
pub mod config;
pub mod conflicts;
mod dirtree;
pub mod failpoint;
pub mod handles;
pub mod history;
pub mod hooks;
pub mod index;
pub mod journal;
pub mod merge_tree;
pub mod notes;
pub mod notes_config;
pub mod notes_gc;
pub mod notes_sync;
pub mod objects;
pub mod projects;
pub mod reads;
pub mod receive;
pub mod refs;
pub mod scan_cache;
pub mod scratch;
mod snapshot;
pub mod staged;
pub mod trail;
pub mod worktree;
pub mod write;

use std::path::{Path, PathBuf};

pub use dirtree::DirTree;
/// The ID of a git object (a commit, tree or blob), as `repo` hands it out.
pub use gix::ObjectId;
pub use snapshot::{resolve_commit, ObjectTree, SharedBlobs};
pub use worktree::WorktreeTree;

use crate::error::Error;

/// git's `color.standards`, else `color.ui`, as configured for the repository
/// at `start`; `None` when unset or outside a repository.
/// The repository it found is kept for the command's own
/// [`Project::discover`] from the same folder: one discovery per process.
pub fn color_setting(start: &Path) -> Option<String> {
    let start = std::path::absolute(start).ok()?;
    let repo = discover_from_environment(&start).ok()?;
    let value = {
        let config = repo.config_snapshot();
        ["color.standards", "color.ui"]
            .iter()
            .find_map(|key| config.string(*key).map(|v| v.to_string()))
    };
    DISCOVERED.with(|d| *d.borrow_mut() = Some((start, repo)));
    value
}

/// gix's discovery with git's environment (`GIT_DIR`, the quarantine's
/// object folders), after making a relative `GIT_DIR` absolute: git runs a
/// push's hooks in the git folder with `GIT_DIR=.`, which gix takes for a
/// working tree and looks for `./.git` in (so every push into a non-bare
/// repository with the hooks installed failed to open it).
fn discover_from_environment(start: &Path) -> Result<gix::Repository, impl std::fmt::Display> {
    if let Some(dir) = std::env::var_os("GIT_DIR").filter(|v| !v.is_empty()) {
        let dir = PathBuf::from(dir);
        if dir.is_relative() {
            let joined = start.join(&dir);
            let absolute = std::fs::canonicalize(&joined).unwrap_or(joined);
            // Before any thread starts: discovery is the process's first step.
            std::env::set_var("GIT_DIR", absolute);
        }
    }
    gix::discover_with_environment_overrides(start)
}

thread_local! {
    /// The repository [`color_setting`] discovered, and from where.
    static DISCOVERED: std::cell::RefCell<Option<(PathBuf, gix::Repository)>> =
        const { std::cell::RefCell::new(None) };
}

/// The repository discovered from `start` earlier in this process, if any
/// (taken: a second discovery opens it anew).
fn discovered_at(start: &Path) -> Option<gix::Repository> {
    DISCOVERED.with(|d| {
        let mut d = d.borrow_mut();
        match d.take() {
            Some((at, repo)) if at == start => Some(repo),
            other => {
                *d = other;
                None
            }
        }
    })
}

/// The repository formats gix (and so git-standards) cannot read, said as
/// such instead of "not inside a git repository" or "the repository is
/// damaged" (issue 22): SHA-256 object IDs and the reftable ref storage.
/// `value` reads the repository's configuration.
fn unsupported(place: &Path, value: &dyn Fn(&str) -> Option<String>) -> Option<Error> {
    let place = place.display();
    let lower = |key: &str| value(key).map(|v| v.to_ascii_lowercase());
    if let Some(format) = lower("extensions.objectFormat").filter(|f| f != "sha1") {
        return Some(Error::refused(
            format!(
                "the repository at `{place}` uses {format} object IDs (`extensions.objectFormat = {format}`): git-standards works only in SHA-1 repositories so far, so nothing was read or changed"
            ),
            None,
        ));
    }
    if let Some(storage) = lower("extensions.refStorage").filter(|f| f != "files") {
        return Some(Error::refused(
            format!(
                "the repository at `{place}` stores its refs as {storage} (`extensions.refStorage = {storage}`): git-standards reads only the files ref storage so far, so nothing was read or changed"
            ),
            Some("work in a clone that stores its refs as files: `git clone --ref-format=files <this repository> <new folder>` (or convert this one with `git refs migrate --ref-format=files`, which git 2.48 or later can do when the repository has reflogs)".into()),
        ));
    }
    None
}

/// When discovery failed: whether a git folder is there whose configuration
/// asks for a format gix cannot open (it fails on SHA-256 before any
/// configuration can be asked).
fn unsupported_format(start: &Path) -> Option<Error> {
    let git_dir = match std::env::var_os("GIT_DIR").filter(|v| !v.is_empty()) {
        Some(dir) => start.join(dir),
        None => {
            let (path, _) = gix::discover::upwards(start).ok()?;
            path.into_repository_and_work_tree_directories().0
        }
    };
    let common = std::fs::read_to_string(git_dir.join("commondir"))
        .ok()
        .map(|c| git_dir.join(c.trim()))
        .unwrap_or_else(|| git_dir.clone());
    let file =
        gix::config::File::from_path_no_includes(common.join("config"), gix::config::Source::Local)
            .ok()?;
    unsupported(&common, &|key| file.string(key).map(|v| v.to_string()))
}

/// A discovered repository and the STANDARDS project root inside it (D1).
///
/// Its fields are private: every git access goes through a function of
/// `repo` (this module is the only door to git), so one behaviour (shallow
/// clones, locks, `GIT_INDEX_FILE`) has one implementation.
pub struct Project {
    repo: gix::Repository,
    /// Absolute top of the working tree (`None` for a bare repository).
    workdir: Option<PathBuf>,
    /// Absolute project root: the nearest folder at or above the start that holds
    /// `.standards/`, else the working-tree top.
    root: PathBuf,
    /// The project root relative to the working-tree top (`""` at the top), `/`-separated.
    root_in_repo: String,
}

impl Project {
    /// Absolute project root: the nearest folder at or above the start that
    /// holds `.standards/`, else the working-tree top (the git folder in a
    /// bare repository).
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Absolute top of the working tree (`None` for a bare repository).
    pub fn workdir(&self) -> Option<&Path> {
        self.workdir.as_deref()
    }

    /// The project root relative to the working-tree top (`""` at the top),
    /// `/`-separated.
    pub fn root_in_repo(&self) -> &str {
        &self.root_in_repo
    }

    /// This worktree's private git folder (`HEAD`, the index, `MERGE_HEAD`;
    /// `.git/worktrees/<name>` in a linked worktree).
    pub fn git_dir(&self) -> &Path {
        self.repo.git_dir()
    }

    /// The git folder every worktree shares (refs, objects, config, hooks).
    pub fn common_dir(&self) -> &Path {
        self.repo.common_dir()
    }

    /// The opened repository, for the functions of `repo` alone; the test
    /// `layering::no_command_reaches_the_raw_repository` holds that.
    pub(in crate::repo) fn gix_repo(&self) -> &gix::Repository {
        &self.repo
    }

    /// Discovers the repository from `start`, honouring `GIT_DIR`,
    /// `GIT_WORK_TREE` and `GIT_INDEX_FILE` as git hooks export them.
    pub fn discover(start: &Path) -> Result<Project, Error> {
        let start = std::path::absolute(start).map_err(|e| Error::io(start, e))?;
        if !start.is_dir() {
            let what = if start.exists() {
                "it is not a folder"
            } else {
                "no such folder"
            };
            return Err(Error::usage(format!(
                "cannot change to `{}`: {what}",
                start.display()
            )));
        }
        let mut repo = match discovered_at(&start) {
            Some(repo) => repo,
            None => discover_from_environment(&start).map_err(|e| {
                unsupported_format(&start).unwrap_or_else(|| Error::NotARepository {
                    path: start.clone(),
                    reason: e.to_string(),
                })
            })?,
        };
        // gix opens a reftable repository but cannot read one of its refs.
        let refused = {
            let config = repo.config_snapshot();
            unsupported(repo.git_dir(), &|key| {
                config.string(key).map(|v| v.to_string())
            })
        };
        if let Some(e) = refused {
            return Err(e);
        }
        // No cache of decoded objects: every command reads a blob once (the
        // scan keeps verdicts by blob ID), so a cache would only raise the
        // peak memory (by about 2 MiB on the medium bench, at no speed cost).
        repo.object_cache_size_if_unset(0);
        // With `GIT_DIR` but neither `GIT_WORK_TREE` nor `core.worktree`, git
        // takes the current folder as the top of the working tree, where gix
        // takes the parent of the git folder: follow git (issue 7, item 5).
        if std::env::var_os("GIT_DIR").is_some() && std::env::var_os("GIT_WORK_TREE").is_none() {
            let (configured, bare) = {
                let config = repo.config_snapshot();
                (
                    config.string("core.worktree").is_some(),
                    config.boolean("core.bare") == Some(true),
                )
            };
            // Except in the git folder itself (a push's hooks run there):
            // git has no working tree to offer then, and the project is the
            // one the git folder belongs to.
            let in_git_dir =
                std::fs::canonicalize(&start).ok() == std::fs::canonicalize(repo.git_dir()).ok();
            if !configured && !bare && !in_git_dir {
                repo.set_workdir(Some(start.clone()))
                    .map_err(|e| Error::io(&start, std::io::Error::other(e.to_string())))?;
            }
        }
        let workdir = match repo.workdir() {
            Some(w) => Some(std::path::absolute(w).map_err(|e| Error::io(w, e))?),
            None => None,
        };
        let workdir = workdir.map(|w| std::fs::canonicalize(&w).unwrap_or(w));
        let canonical_start = std::fs::canonicalize(&start).unwrap_or(start);
        let (root, root_in_repo) = match &workdir {
            Some(top) => {
                let mut found = None;
                if canonical_start.starts_with(top) {
                    for dir in canonical_start.ancestors() {
                        if dir.join(".standards").is_dir() {
                            found = Some(dir.to_path_buf());
                            break;
                        }
                        if dir == top {
                            break;
                        }
                    }
                }
                let root = found.unwrap_or_else(|| top.clone());
                let rel = root
                    .strip_prefix(top)
                    .map(|p| p.to_string_lossy().replace('\\', "/"))
                    .unwrap_or_default();
                (root, rel)
            }
            None => (repo.git_dir().to_path_buf(), String::new()),
        };
        Ok(Project {
            repo,
            workdir,
            root,
            root_in_repo,
        })
    }

    /// The project that [`Project::discover`] finds from the folder `dir`
    /// (repository-relative, `""` at the top) of this working tree, sharing
    /// the opened repository (and so its index) instead of opening it again.
    pub fn at_folder(&self, dir: &str) -> Result<Project, Error> {
        let top = self.require_workdir()?;
        let start = if dir.is_empty() {
            top.to_path_buf()
        } else {
            top.join(dir)
        };
        if !start.is_dir() {
            return Err(Error::usage(format!(
                "cannot change to `{}`: no such folder",
                start.display()
            )));
        }
        let start = std::fs::canonicalize(&start).unwrap_or(start);
        let mut root = top.to_path_buf();
        if start.starts_with(top) {
            for folder in start.ancestors() {
                if folder.join(".standards").is_dir() {
                    root = folder.to_path_buf();
                    break;
                }
                if folder == top {
                    break;
                }
            }
        }
        let root_in_repo = root
            .strip_prefix(top)
            .map(|p| p.to_string_lossy().replace('\\', "/"))
            .unwrap_or_default();
        Ok(Project {
            repo: self.repo.clone(),
            workdir: self.workdir.clone(),
            root,
            root_in_repo,
        })
    }

    /// The project at the folder `dir` (repository-relative, `""` at the
    /// top) as commits hold it, sharing the opened repository: for reading
    /// commits (`at_rev`), also in a bare repository, where
    /// [`Project::at_folder`] has no working tree to look in.
    pub fn in_folder(&self, dir: &str) -> Project {
        Project {
            repo: self.repo.clone(),
            workdir: self.workdir.clone(),
            root: match &self.workdir {
                Some(top) if !dir.is_empty() => top.join(dir),
                Some(top) => top.clone(),
                None => self.root.clone(),
            },
            root_in_repo: dir.to_string(),
        }
    }

    /// Keeps up to `bytes` of decoded objects for the life of this handle
    /// (and of the projects [`Project::in_folder`] makes from it): for a
    /// command that reads the same trees at many tips, as the board does,
    /// where every other command reads each object once.
    pub fn keep_objects(&mut self, bytes: usize) {
        self.repo.object_cache_size(bytes);
    }

    /// Reads the index without verifying its checksum, as git itself reads
    /// it (only `git fsck` verifies it): the SHA-1 of a large index is most
    /// of the pre-commit hook's fast exit and a tenth of `check --staged`.
    /// For commands that only read the index: gix would also write an index
    /// without its checksum, so a command that writes one never calls this.
    pub fn trust_index_checksum(&mut self) {
        let mut config = self.repo.config_snapshot_mut();
        if config
            .set_value(&gix::config::tree::Index::SKIP_HASH, "true")
            .is_ok()
        {
            let _ = config.commit();
        }
    }

    /// The working-tree root, or a refusal for a bare repository.
    pub fn require_workdir(&self) -> Result<&Path, Error> {
        self.workdir.as_deref().ok_or_else(|| Error::Refused {
            message: "this is a bare repository: it has no working tree to read or write".into(),
            hint: Some("use the read-only forms (`--ref <rev>`) in a bare repository".into()),
        })
    }

    /// Repository path of a project-relative path.
    pub fn repo_path(&self, project_path: &str) -> String {
        if self.root_in_repo.is_empty() {
            project_path.to_string()
        } else {
            format!("{}/{}", self.root_in_repo, project_path)
        }
    }

    /// The working tree as a snapshot.
    pub fn worktree(&self) -> Result<WorktreeTree, Error> {
        let top = self.require_workdir()?.to_path_buf();
        WorktreeTree::open(
            &self.repo,
            top,
            self.root.clone(),
            self.root_in_repo.clone(),
        )
    }

    /// The index (what the next commit will hold) as a snapshot.
    pub fn index(&self) -> Result<ObjectTree, Error> {
        ObjectTree::from_index(&self.repo, &self.root_in_repo)
    }

    /// Any revision (`HEAD`, a branch, a tag, an ID, `main~2`) as a snapshot.
    pub fn at_rev(&self, rev: &str) -> Result<ObjectTree, Error> {
        ObjectTree::from_rev(&self.repo, rev, &self.root_in_repo)
    }

    /// Whether a project file for which `want` holds has uncommitted changes:
    /// it differs between the working tree (tracked, or untracked and not
    /// ignored) and the index, or between the index and HEAD.
    pub fn has_changes(&self, want: &dyn Fn(&str) -> bool) -> Result<bool, Error> {
        let work = self.worktree()?;
        let index = self.index()?;
        let head = self.head()?;
        let clean = match &self.workdir {
            Some(top) => snapshot::stat_clean_paths(&self.repo, top, &self.root_in_repo, want),
            None => Default::default(),
        };
        snapshot::differs(&work, &index, head.as_ref(), want, &|p| clean.contains(p))
    }

    /// HEAD as a snapshot, or `None` in a repository without commits.
    /// A HEAD that names a commit which cannot be read is a refusal naming
    /// `git fsck`, not "no history" (issue 7, item 5).
    pub fn head(&self) -> Result<Option<ObjectTree>, Error> {
        let head = self.repo.head().map_err(|e| Error::Refused {
            message: format!("cannot read HEAD: {e}"),
            hint: Some("the repository is damaged; run `git fsck`".into()),
        })?;
        if head.is_unborn() {
            return Ok(None);
        }
        match self.repo.head_commit() {
            Ok(_) => self.at_rev("HEAD").map(Some),
            Err(e) => Err(Error::Refused {
                message: format!("cannot read the commit HEAD names: {e}"),
                hint: Some(
                    "the repository is damaged (a missing or corrupt object); run `git fsck` to find it"
                        .into(),
                ),
            }),
        }
    }
}

/// Helpers for the unit tests of `repo`'s modules (last in the file: the
/// hint registry's scan reads a file only up to its first test item).
#[cfg(test)]
pub(crate) mod test_support {
    use std::path::Path;

    /// Runs `git` in `dir` for a unit test, with neither the user's nor the
    /// system's configuration and a fixed identity.
    pub(crate) fn test_git(dir: &Path, args: &[&str]) -> std::process::Output {
        std::process::Command::new("git")
            .current_dir(dir)
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_SYSTEM", "/dev/null")
            .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
            .args(args)
            .output()
            .unwrap()
    }
}
