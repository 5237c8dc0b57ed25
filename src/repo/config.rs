//! Reading `.standards/config.toml` and the git config values that choose the
//! main branch (D19, D23). The decisions are `standards_core::setup::config`'s.

use gix::bstr::ByteSlice;

use crate::error::Error;
use crate::repo::Project;
use standards_core::model::tree::{Node, Tree};
use standards_core::setup::config::{self, BranchInputs, Branches, Config, CONFIG_PATH};
use standards_core::workflow::next::Branch;

fn invalid(e: config::ConfigError) -> Error {
    Error::Invalid {
        path: format!("{}:{}", e.path, e.line),
        message: match e.key {
            Some(key) => format!("`{key}`: {}", e.message),
            None => e.message,
        },
    }
}

/// The project's config.toml: from the working tree when there is one (what
/// the user edits), else from HEAD; an absent file is the empty configuration.
pub fn read_file(project: &Project) -> Result<Config, Error> {
    let shown = project.repo_path(CONFIG_PATH);
    let node = match &project.workdir {
        Some(_) => super::handles::Folders::new(project.root.clone()).read(CONFIG_PATH),
        None => match project.head()? {
            Some(head) => head.node(CONFIG_PATH),
            None => Node::Missing,
        },
    };
    parse_node(node, shown)
}

/// The project's config.toml as committed in `commit` (the target side of a
/// merge: issue 22, item 4); an absent file is the empty configuration.
pub fn read_file_at(project: &Project, commit: gix::ObjectId) -> Result<Config, Error> {
    let tree = super::projects::at_rev(project, &commit.to_string(), &project.root_in_repo)?;
    let shown = format!(
        "{} (as committed in {})",
        project.repo_path(CONFIG_PATH),
        &commit.to_string()[..12]
    );
    parse_node(tree.node(CONFIG_PATH), shown)
}

fn parse_node(node: Node, shown: String) -> Result<Config, Error> {
    match node {
        Node::Missing => Ok(Config::default()),
        Node::File(bytes) => {
            let text = String::from_utf8(bytes).map_err(|_| Error::Invalid {
                path: shown.clone(),
                message: "it is not valid UTF-8".into(),
            })?;
            config::parse(&text, &shown).map_err(invalid)
        }
        Node::Symlink => Err(Error::Invalid {
            path: shown,
            message: "it is a symbolic link; config.toml must be a regular file".into(),
        }),
        Node::Dir => Err(Error::Invalid {
            path: shown,
            message: "it is a folder, not a file".into(),
        }),
        Node::Unreadable(why) => Err(Error::Invalid {
            path: shown,
            message: why,
        }),
    }
}

/// The main branch and the protected patterns for this clone (D23).
pub fn branches(project: &Project) -> Result<Branches, Error> {
    branches_with(project, read_file(project)?)
}

/// [`branches`] with config.toml as committed in `commit`, the tip of the
/// branch merged into: the incoming side never chooses the policy it is
/// judged by (issue 22, item 4).
pub fn branches_at(project: &Project, commit: gix::ObjectId) -> Result<Branches, Error> {
    branches_with(project, read_file_at(project, commit)?)
}

fn branches_with(project: &Project, file: Config) -> Result<Branches, Error> {
    resolve_branches(&project.repo, file, remote_head(&project.repo))
}

/// D23's order over one repository's git config, a config.toml already read,
/// and the branch standing for the remote's HEAD (a clone's `origin/HEAD`, a
/// server's own HEAD).
pub(crate) fn resolve_branches(
    repo: &gix::Repository,
    file: Config,
    remote_head: Option<String>,
) -> Result<Branches, Error> {
    let snapshot = repo.config_snapshot();
    let string = |key: &str| snapshot.string(key).map(|v| v.to_str_lossy().into_owned());
    let git_main_branch = string("standards.mainBranch");
    if let Some(name) = &git_main_branch {
        config::check_branch_name(name).map_err(|why| Error::Invalid {
            path: "git config standards.mainBranch".into(),
            message: why,
        })?;
    }
    let git_protected_branches = snapshot
        .plumbing()
        .strings("standards.protectedBranches")
        .map(|values| {
            values
                .iter()
                .flat_map(|v| {
                    v.to_str_lossy()
                        .split([',', ' '])
                        .filter(|p| !p.is_empty())
                        .map(str::to_string)
                        .collect::<Vec<_>>()
                })
                .collect()
        });
    Ok(Branches::resolve(BranchInputs {
        git_main_branch,
        file,
        remote_head,
        init_default_branch: string("init.defaultBranch"),
        git_protected_branches,
    }))
}

/// Where HEAD stands relative to the main branch (issue 25, item 4): on it,
/// on another branch, or detached.
pub fn head_branch(project: &Project) -> Result<Branch, Error> {
    let main = branches(project)?.main;
    let head = project
        .repo
        .head_name()
        .map_err(|e| Error::Git(format!("cannot read HEAD: {e}")))?;
    Ok(match head {
        None => Branch::Detached { main },
        Some(name) => match name.as_bstr().to_str_lossy().strip_prefix("refs/heads/") {
            Some(name) if name == main => Branch::Main { main },
            Some(name) => Branch::Other {
                name: name.to_string(),
                main,
            },
            None => Branch::Unknown,
        },
    })
}

/// The branch `refs/remotes/<remote>/HEAD` points at: `origin` first, else
/// the only remote.
fn remote_head(repo: &gix::Repository) -> Option<String> {
    let names = repo.remote_names();
    let remote = if names.iter().any(|n| n.as_ref() as &[u8] == b"origin") {
        "origin".to_string()
    } else if names.len() == 1 {
        names.iter().next()?.to_string()
    } else {
        return None;
    };
    let head = repo
        .try_find_reference(format!("refs/remotes/{remote}/HEAD").as_str())
        .ok()??;
    match head.target() {
        gix::refs::TargetRef::Symbolic(name) => name
            .as_bstr()
            .to_str()
            .ok()?
            .strip_prefix(&format!("refs/remotes/{remote}/"))
            .map(str::to_string),
        gix::refs::TargetRef::Object(_) => None,
    }
}
