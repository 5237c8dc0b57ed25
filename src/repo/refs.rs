//! Reading refs and commits for the commands: HEAD, branch tips, parents,
//! merge bases, objects, and moving a ref by compare-and-swap. Every function
//! takes the [`Project`], so the raw repository never leaves `repo`.

use std::collections::{BTreeMap, BTreeSet};

use super::{ObjectId, Project};
use crate::error::Error;

fn git_err(context: &str, e: impl std::fmt::Display) -> Error {
    Error::Git(format!("{context}: {e}"))
}

/// An object ID written in full hexadecimal, else `None`.
pub fn parse_id(hex: &str) -> Option<ObjectId> {
    ObjectId::from_hex(hex.as_bytes()).ok()
}

/// The ID git gives a blob holding `bytes` in this repository (nothing is
/// written).
pub fn blob_id(project: &Project, bytes: &[u8]) -> Result<ObjectId, Error> {
    gix::objs::compute_hash(project.repo.object_hash(), gix::objs::Kind::Blob, bytes)
        .map_err(|e| git_err("cannot hash a blob", e))
}

/// The commit HEAD points at, or `None` in a repository without commits.
pub fn head_id(project: &Project) -> Option<ObjectId> {
    project.repo.head_id().ok().map(|id| id.detach())
}

/// The full name of the ref HEAD points at (`refs/heads/main`), or `None`
/// when HEAD is detached.
pub fn head_ref(project: &Project) -> Result<Option<String>, Error> {
    let head = project
        .repo
        .head_name()
        .map_err(|e| git_err("cannot read HEAD", e))?;
    Ok(head.map(|name| name.as_bstr().to_string()))
}

/// The commit (or other object) the ref `name` peels to, or `None` when no
/// such ref exists. `what` names the ref in an error ("the branch").
pub fn tip(project: &Project, name: &str, what: &str) -> Result<Option<ObjectId>, Error> {
    let context = format!("cannot read {what}");
    match project
        .repo
        .try_find_reference(name)
        .map_err(|e| git_err(&context, e))?
    {
        Some(mut r) => Ok(Some(
            r.peel_to_id().map_err(|e| git_err(&context, e))?.detach(),
        )),
        None => Ok(None),
    }
}

/// The short name of a local branch whose tip is `id`, if any (the first in
/// git's order).
pub fn local_branch_at(project: &Project, id: ObjectId) -> Option<String> {
    let refs = project.repo.references().ok()?;
    for mut r in refs.local_branches().ok()?.flatten() {
        if r.peel_to_id().ok().map(|i| i.detach()) == Some(id) {
            return Some(r.name().shorten().to_string());
        }
    }
    None
}

/// The parents of the commit `id`, in order.
pub fn parents(project: &Project, id: ObjectId) -> Result<Vec<ObjectId>, Error> {
    Ok(project
        .repo
        .find_commit(id)
        .map_err(|e| git_err("cannot read the commit", e))?
        .parent_ids()
        .map(|p| p.detach())
        .collect())
}

/// The first parent of the commit `rev` names: `None` when `rev` names no
/// commit or the commit is a root.
pub fn first_parent_of(project: &Project, rev: &str) -> Option<ObjectId> {
    let commit = project
        .repo
        .rev_parse_single(rev)
        .ok()
        .and_then(|id| id.object().ok())
        .and_then(|o| o.peel_to_commit().ok())?;
    let parent = commit.parent_ids().next().map(|p| p.detach());
    parent
}

/// The best common ancestor of two commits, if they have one that can be
/// read.
pub fn merge_base(project: &Project, a: ObjectId, b: ObjectId) -> Option<ObjectId> {
    project
        .repo
        .merge_base(a, b)
        .ok()
        .flatten()
        .map(|b| b.detach())
}

/// Whether a ref other than `except` (a full ref name) already holds the
/// commit `id`: a tag or any ref pointing at it, or a branch or
/// remote-tracking branch whose history contains it. A commit `git commit`
/// has just made is held by none; one a branch update takes from another
/// line of work (`git branch -f`, `git reset --hard <branch>`, `git
/// update-ref`) is. `outside` is a commit whose history cannot hold `id`
/// (the branch's old tip, when `id` is its child or sibling): one walk from
/// every other branch tip, hidden behind it, visits only the commits the
/// other branches have beyond it. A ref that cannot be read is skipped; a
/// walk that fails counts as holding it (the caller then judges the update).
pub fn held_by_another_ref(
    project: &Project,
    id: ObjectId,
    except: &str,
    outside: ObjectId,
) -> bool {
    let Ok(platform) = project.repo.references() else {
        return true;
    };
    let Ok(all) = platform.all() else {
        return true;
    };
    let mut tips = BTreeSet::new();
    for mut r in all.flatten() {
        let name = r.name().as_bstr().to_string();
        if name == except {
            continue;
        }
        let Ok(tip) = r.peel_to_id().map(|t| t.detach()) else {
            continue;
        };
        if tip == id {
            return true;
        }
        let history = name.starts_with("refs/heads/") || name.starts_with("refs/remotes/");
        if history && tip != outside && is_commit(project, tip) {
            tips.insert(tip);
        }
    }
    if tips.is_empty() {
        return false;
    }
    let walk = match project.repo.rev_walk(tips).with_hidden([outside]).all() {
        Ok(walk) => walk,
        Err(_) => return true,
    };
    for info in walk {
        match info {
            Ok(info) if info.id == id => return true,
            Ok(_) => {}
            Err(_) => return true,
        }
    }
    false
}

/// The bytes of the object `id`, or `None` when it cannot be read.
pub fn object_bytes(project: &Project, id: ObjectId) -> Option<Vec<u8>> {
    project.repo.find_object(id).ok().map(|o| o.detach().data)
}

/// Whether `id` names a commit this repository can read.
pub fn is_commit(project: &Project, id: ObjectId) -> bool {
    project.repo.find_commit(id).is_ok()
}

/// What `id` names, as a refusal says it: "a blob", "a tree", ..., or "a
/// missing object".
pub fn kind_of(project: &Project, id: ObjectId) -> String {
    project
        .repo
        .find_object(id)
        .map(|o| format!("a {}", o.kind))
        .unwrap_or_else(|_| "a missing object".to_string())
}

/// Whether this clone's history is cut off (`.git/shallow`).
pub fn is_shallow(project: &Project) -> bool {
    project.repo.is_shallow().unwrap_or(false)
}

/// Whether git has an operation in progress (a merge, rebase, cherry-pick,
/// revert or bisect).
pub fn operation_in_progress(project: &Project) -> bool {
    project.repo.state().is_some()
}

/// Whether `name` is a configured remote.
pub fn has_remote(project: &Project, name: &str) -> bool {
    project.repo.remote_names().iter().any(|n| *n == name)
}

/// The refs whose full name starts with `prefix`, by name, each with the
/// object it peels to or why it cannot be peeled.
pub fn refs_under(
    project: &Project,
    prefix: &str,
) -> Result<BTreeMap<String, Result<ObjectId, String>>, Error> {
    let platform = project
        .repo
        .references()
        .map_err(|e| git_err("cannot list references", e))?;
    let mut out = BTreeMap::new();
    for r in platform
        .prefixed(prefix)
        .map_err(|e| git_err("cannot list references", e))?
    {
        let mut r = r.map_err(|e| git_err("cannot read a reference", e))?;
        let name = r.name().as_bstr().to_string();
        let id = r
            .peel_to_id()
            .map(|id| id.detach())
            .map_err(|e| e.to_string());
        out.insert(name, id);
    }
    Ok(out)
}

/// The names of the refs under `prefix` that can be read (a broken one is
/// skipped).
pub fn ref_names_under(project: &Project, prefix: &str) -> Result<Vec<String>, Error> {
    let platform = project
        .repo
        .references()
        .map_err(|e| git_err("cannot list references", e))?;
    Ok(platform
        .prefixed(prefix)
        .map_err(|e| git_err("cannot list references", e))?
        .flatten()
        .map(|r| r.name().as_bstr().to_string())
        .collect())
}

/// Moves the ref `name` from `previous` (`None`: it must not exist) to `to`
/// by compare-and-swap, with `message` in its reflog. The error is git's
/// reason, for the caller's refusal.
pub fn move_ref(
    project: &Project,
    name: &str,
    previous: Option<ObjectId>,
    to: ObjectId,
    message: &str,
) -> Result<(), String> {
    use gix::refs::transaction::PreviousValue;
    let expected = match previous {
        Some(p) => PreviousValue::MustExistAndMatch(gix::refs::Target::Object(p)),
        None => PreviousValue::MustNotExist,
    };
    project
        .repo
        .reference(name, to, expected, message)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// Whether `name` is a valid full ref name (`refs/heads/<branch>`); the
/// error says what git finds wrong with it.
pub fn check_ref_name(name: &str) -> Result<(), String> {
    gix::refs::FullName::try_from(name)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// The commit `rev` (`HEAD`, a branch, an ID, `main~2`) names, refusing with
/// a clear message when it names none.
pub fn commit_id(project: &Project, rev: &str) -> Result<ObjectId, Error> {
    super::resolve_commit(&project.repo, rev).map(|c| c.id)
}
