//! Sharing the trail between clones (D17, git-facts 10-11): the `git` CLI
//! fetches and pushes (gix 0.90 cannot push), never with a forced refspec;
//! the merge is done here with `cat_sort_uniq` semantics, as a two-parent
//! notes commit moved by compare-and-swap.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::process::Command;

use gix::hash::ObjectId;

use crate::error::{Error, Result};
use crate::repo::notes::{self, Moved, MAX_ATTEMPTS, NOTES_REF};
use standards_core::audit::merge_note_text;

/// The prefix of the archive refs that travel with the trail (D21): only
/// the refs this tool owns are fetched and pushed (issue 21).
pub const ARCHIVE_PREFIX: &str = crate::repo::archive::PREFIX;

/// Where a fetch lands before validation: nothing fetched moves into place
/// (`refs/notes/remotes/...`, `refs/standards/archive/...`) before its
/// objects are checked (issue 21).
pub fn quarantine(remote: &str) -> String {
    format!("refs/quarantine/standards/{remote}/")
}

/// Where a remote's trail is fetched to.
pub fn tracking_ref(remote: &str) -> String {
    format!("refs/notes/remotes/{remote}/standards")
}

fn git_err(what: &str, e: impl std::fmt::Display) -> Error {
    Error::Git(format!("{what}: {e}"))
}

/// What merging `remote` into `local` does. Every plan keeps every event
/// line the local trail holds (union semantics, issue 21): a remote whose
/// newer commits deleted lines never takes them away here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MergePlan {
    /// The local trail already holds everything the remote has.
    UpToDate,
    /// The local ref moves to the remote tip: it descends from the local tip
    /// and holds every local event line and anchor.
    FastForward { to: ObjectId },
    /// A two-parent notes commit holding the union of both trails.
    Merge {
        local: ObjectId,
        remote: ObjectId,
        /// Event lines the remote adds to the local trail.
        incoming: usize,
        /// Event lines only the local trail has.
        outgoing: usize,
        /// Event lines the common history of both holds that the remote
        /// deleted: the remote rewrote its trail (kept here all the same).
        dropped: usize,
    },
}

/// The note blobs of a notes commit by annotated object (empty for none).
fn notes_map(
    repo: &gix::Repository,
    tip: Option<ObjectId>,
) -> Result<BTreeMap<ObjectId, ObjectId>> {
    match tip {
        None => Ok(BTreeMap::new()),
        Some(c) => Ok(notes::list_notes(repo, c)?.into_iter().collect()),
    }
}

fn blob(repo: &gix::Repository, id: Option<ObjectId>) -> Result<Vec<u8>> {
    match id {
        None => Ok(Vec::new()),
        Some(id) => Ok(repo
            .find_blob(id)
            .map_err(|e| git_err(&format!("cannot read note blob {id}"), e))?
            .take_data()),
    }
}

/// The distinct non-empty lines of a note.
fn line_set(text: &[u8]) -> BTreeSet<&[u8]> {
    text.split(|b| *b == b'\n')
        .filter(|l| !l.is_empty())
        .collect()
}

fn is_ancestor(repo: &gix::Repository, ancestor: ObjectId, of: ObjectId) -> Result<bool> {
    if ancestor == of {
        return Ok(true);
    }
    Ok(repo
        .merge_base(ancestor, of)
        .map_err(|e| git_err("cannot compute a merge base of notes commits", e))?
        .is_some_and(|b| b.detach() == ancestor))
}

/// Whether `ancestor` is `of` or one of its ancestors (both commits).
pub fn descends(repo: &gix::Repository, ancestor: ObjectId, of: ObjectId) -> Result<bool> {
    is_ancestor(repo, ancestor, of)
}

/// The anchors a notes commit keeps reachable, flat or fanned out.
fn anchors(repo: &gix::Repository, commit: ObjectId) -> Result<BTreeSet<ObjectId>> {
    Ok(notes::list_anchors(repo, commit)?
        .into_iter()
        .map(|(anchor, _)| anchor)
        .collect())
}

/// Decides how `remote` merges into `local`, reading objects only.
pub fn plan(
    repo: &gix::Repository,
    local: Option<ObjectId>,
    remote: Option<ObjectId>,
) -> Result<MergePlan> {
    let Some(r) = remote else {
        return Ok(MergePlan::UpToDate);
    };
    let Some(l) = local else {
        return Ok(MergePlan::FastForward { to: r });
    };
    if is_ancestor(repo, r, l)? {
        return Ok(MergePlan::UpToDate);
    }
    let base = repo
        .merge_base(l, r)
        .map_err(|e| git_err("cannot compute a merge base of notes commits", e))?
        .map(|b| b.detach());
    let (bm, lm, rm) = (
        notes_map(repo, base)?,
        notes_map(repo, Some(l))?,
        notes_map(repo, Some(r))?,
    );
    let (mut incoming, mut outgoing, mut dropped) = (0, 0, 0);
    let ids: BTreeSet<_> = bm.keys().chain(lm.keys()).chain(rm.keys()).collect();
    for id in ids {
        let (bb, lb, rb) = (
            bm.get(id).copied(),
            lm.get(id).copied(),
            rm.get(id).copied(),
        );
        if lb == rb && bb == rb {
            continue;
        }
        let (bt, lt, rt) = (blob(repo, bb)?, blob(repo, lb)?, blob(repo, rb)?);
        let (bs, ls, rs) = (line_set(&bt), line_set(&lt), line_set(&rt));
        incoming += rs.difference(&ls).count();
        outgoing += ls.difference(&rs).count();
        dropped += bs.difference(&rs).count();
    }
    let anchors_kept = anchors(repo, l)?.is_subset(&anchors(repo, r)?);
    if outgoing == 0 && anchors_kept && is_ancestor(repo, l, r)? {
        return Ok(MergePlan::FastForward { to: r });
    }
    Ok(MergePlan::Merge {
        local: l,
        remote: r,
        incoming,
        outgoing,
        dropped,
    })
}

/// The union of both trails, note by note (`cat_sort_uniq`): no line of
/// either side is ever dropped, whatever either history did (issue 21).
fn merged_tree(repo: &gix::Repository, local: ObjectId, remote: ObjectId) -> Result<ObjectId> {
    let (lm, rm) = (
        notes_map(repo, Some(local))?,
        notes_map(repo, Some(remote))?,
    );
    let local_tree = repo
        .find_commit(local)
        .and_then(|c| c.tree_id().map(|t| t.detach()))
        .map_err(|e| git_err("cannot read the local notes commit", e))?;
    let mut state = gix::note::plumbing::State::new(local_tree, repo)
        .map_err(|e| git_err("cannot read the notes tree", e))?;
    for id in lm.keys().chain(rm.keys()).collect::<BTreeSet<_>>() {
        let (l, r) = (lm.get(id).copied(), rm.get(id).copied());
        let result = match (l, r) {
            (_, None) => continue,
            (l, r) if l == r => continue,
            (None, r) => r,
            (l, r) => {
                let lt = blob(repo, l)?;
                let text = merge_note_text(&lt, &blob(repo, r)?);
                if text == lt {
                    continue;
                }
                Some(
                    repo.write_blob(&text)
                        .map_err(|e| git_err("cannot write a note blob", e))?
                        .detach(),
                )
            }
        };
        state
            .edit(*id, result, repo)
            .map_err(|e| git_err("cannot edit the notes tree", e))?;
    }
    let staged = notes::Staged::new(repo);
    let tree = state
        .write(&staged)
        .map_err(|e| git_err("cannot write the notes tree", e))?;
    // Every anchor either side keeps stays reachable from the merged tree
    // (history keeps them anyway), whichever layout each side wrote.
    let remote_anchors = notes::list_anchors(repo, remote)?;
    notes::keep_anchors(repo, &staged, tree, &remote_anchors)
}

/// What a merge did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Merged {
    UpToDate,
    FastForward {
        to: ObjectId,
    },
    Commit {
        commit: ObjectId,
        incoming: usize,
        /// Event lines the remote had deleted, kept all the same.
        dropped: usize,
    },
}

/// Merges the notes commit `remote` into `refs/notes/standards` under CAS,
/// redoing the merge when a local append moved the ref meanwhile.
pub fn merge(repo: &gix::Repository, remote: ObjectId, message: &str) -> Result<Merged> {
    let repo = &notes::writer(repo);
    let (mut lock, _) = notes::WriterLock::acquire(repo)?;
    let mut last = String::new();
    for attempt in 1..=MAX_ATTEMPTS {
        let local = notes::tip(repo, NOTES_REF)?;
        let (new, outcome) = match plan(repo, local, Some(remote))? {
            MergePlan::UpToDate => return Ok(Merged::UpToDate),
            MergePlan::FastForward { to } => (to, Merged::FastForward { to }),
            MergePlan::Merge {
                local,
                incoming,
                dropped,
                ..
            } => {
                let tree = merged_tree(repo, local, remote)?;
                let commit = notes::write_commit(repo, message, tree, &[local, remote])?;
                (
                    commit,
                    Merged::Commit {
                        commit,
                        incoming,
                        dropped,
                    },
                )
            }
        };
        match lock.move_ref(repo, NOTES_REF, local, new, message)? {
            Moved::Done => {
                drop(lock);
                crate::repo::notes_gc::after_write(repo);
                return Ok(outcome);
            }
            Moved::Raced(why) => {
                last = why;
                notes::backoff(attempt);
            }
        }
    }
    Err(Error::Git(format!(
        "`{NOTES_REF}` kept moving during the merge: gave up after {MAX_ATTEMPTS} attempts (last: {last})"
    )))
}

/// The `git` CLI, in this repository, with its output captured.
pub struct Git {
    git_dir: PathBuf,
    work_dir: Option<PathBuf>,
}

/// A finished `git` run.
pub struct Ran {
    pub ok: bool,
    pub stdout: String,
    pub stderr: String,
}

impl Git {
    pub fn new(repo: &gix::Repository) -> Git {
        Git {
            git_dir: repo.git_dir().to_path_buf(),
            work_dir: repo.workdir().map(|p| p.to_path_buf()),
        }
    }

    pub fn run(&self, args: &[&str]) -> Result<Ran> {
        let mut cmd = Command::new("git");
        cmd.arg("--git-dir").arg(&self.git_dir);
        if let Some(w) = &self.work_dir {
            cmd.arg("--work-tree").arg(w);
        }
        cmd.args(args);
        let out = cmd.output().map_err(|e| {
            Error::refused(
                format!("cannot run `git {}`: {e}", args.join(" ")),
                Some("`notes sync` needs the git command on PATH to fetch and push".to_string()),
            )
        })?;
        Ok(Ran {
            ok: out.status.success(),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        })
    }

    /// The remote's trail and archive refs: `(ref name, id)`.
    pub fn ls_remote(&self, remote: &str) -> Result<Vec<(String, ObjectId)>> {
        let ran = self.run(&[
            "ls-remote",
            "--",
            remote,
            NOTES_REF,
            &format!("{ARCHIVE_PREFIX}*"),
        ])?;
        if !ran.ok {
            return Err(Error::refused(
                format!(
                    "cannot list the refs of the remote `{remote}`: {}",
                    ran.stderr.trim()
                ),
                Some(format!("check the remote with `git ls-remote {remote}`")),
            ));
        }
        Ok(ran
            .stdout
            .lines()
            .filter_map(|l| {
                let (id, name) = l.split_once('\t')?;
                let id = ObjectId::from_hex(id.trim().as_bytes()).ok()?;
                let name = name.trim();
                (name == NOTES_REF || name.starts_with(ARCHIVE_PREFIX))
                    .then(|| (name.to_string(), id))
            })
            .collect())
    }
}

/// One line of `git push --porcelain`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PushedRef {
    /// `' '` fast-forward, `*` new, `=` up to date, `!` rejected, ...
    pub flag: char,
    pub local: String,
    pub remote: String,
    pub summary: String,
}

impl PushedRef {
    pub fn rejected(&self) -> bool {
        self.flag == '!'
    }

    /// Rejected because the remote moved on (fetch, merge and retry): the
    /// client saw it (`fetch first`, `non-fast-forward`), or the server's
    /// compare-and-swap of the ref lost against a concurrent push.
    pub fn needs_fetch(&self) -> bool {
        const MOVED_ON: &[&str] = &[
            "fetch first",
            "non-fast-forward",
            "stale info",
            "failed to update ref",
            "failed to lock",
            "cannot lock ref",
            "incorrect old value",
        ];
        self.rejected() && MOVED_ON.iter().any(|m| self.summary.contains(m))
    }
}

/// Parses `git push --porcelain` output.
pub fn parse_push(stdout: &str) -> Vec<PushedRef> {
    stdout
        .lines()
        .filter_map(|l| {
            let mut parts = l.splitn(3, '\t');
            let flag = parts.next()?;
            let refs = parts.next()?;
            let summary = parts.next().unwrap_or("").to_string();
            let mut chars = flag.chars();
            let flag = chars.next()?;
            if chars.next().is_some() {
                return None;
            }
            let (local, remote) = refs.split_once(':')?;
            Some(PushedRef {
                flag,
                local: local.to_string(),
                remote: remote.to_string(),
                summary,
            })
        })
        .collect()
}

/// The `[rejected]` lines of a fetch's stderr, one per refused ref.
pub fn fetch_rejections(stderr: &str) -> Vec<String> {
    stderr
        .lines()
        .filter(|l| l.contains("[rejected]") || l.contains("[remote rejected]"))
        .map(|l| l.trim_start_matches([' ', '!']).trim().to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn push_porcelain_lines() {
        let out = "To /tmp/remote.git\n!\trefs/notes/standards:refs/notes/standards\t[rejected] (fetch first)\n*\trefs/standards/archive/a:refs/standards/archive/a\t[new reference]\n!\trefs/notes/x:refs/notes/x\t[remote rejected] (pre-receive hook declined)\nDone\n";
        let refs = parse_push(out);
        assert_eq!(refs.len(), 3);
        assert!(refs[0].needs_fetch());
        assert!(!refs[1].rejected());
        assert!(refs[2].rejected() && !refs[2].needs_fetch());
        let lost = parse_push("!\trefs/notes/standards:refs/notes/standards\t[remote rejected] (failed to update ref)\n");
        assert!(lost[0].needs_fetch());
    }

    #[test]
    fn fetch_rejections_are_found() {
        let err = "From ../r\n ! [rejected]        refs/standards/a -> refs/standards/a  (non-fast-forward)\n * [new ref] x -> y\n";
        assert_eq!(
            fetch_rejections(err),
            ["[rejected]        refs/standards/a -> refs/standards/a  (non-fast-forward)"]
        );
    }
}
