//! `git standards notes sync [<remote>]`: fetch, merge and push the audit
//! trail and the archive refs, never forced (D17, D21, git-facts 11).

use std::collections::BTreeMap;

use gix::hash::ObjectId;

use crate::commands::Context;
use crate::error::{Error, Result};
use crate::repo::notes::{self, NOTES_REF};
use crate::repo::notes_sync::{self, Git, MergePlan, Merged, ARCHIVE_PREFIX};
use crate::repo::Project;

/// How many fetch-merge-push rounds a sync tries when pushes keep being rejected.
pub const MAX_ROUNDS: usize = 5;

/// A validated `notes sync` request.
#[derive(Debug, Clone)]
pub struct SyncRequest {
    pub remote: String,
    pub dry_run: bool,
}

fn say(ctx: &mut Context, verb: &str, text: &str) -> Result<()> {
    writeln!(ctx.out, "{verb:<14} {text}").map_err(Error::stdout)
}

fn short(id: ObjectId) -> String {
    id.to_hex_with_len(12).to_string()
}

/// Local refs under `refs/standards/`, by name.
fn local_archives(repo: &gix::Repository) -> Result<BTreeMap<String, ObjectId>> {
    let platform = repo
        .references()
        .map_err(|e| Error::Git(format!("cannot list references: {e}")))?;
    let mut out = BTreeMap::new();
    for r in platform
        .prefixed(ARCHIVE_PREFIX)
        .map_err(|e| Error::Git(format!("cannot list references: {e}")))?
    {
        let mut r = r.map_err(|e| Error::Git(format!("cannot read a reference: {e}")))?;
        let name = r.name().as_bstr().to_string();
        if let Ok(id) = r.peel_to_id() {
            out.insert(name, id.detach());
        }
    }
    Ok(out)
}

pub fn run_sync(ctx: &mut Context, request: &SyncRequest) -> Result<()> {
    let project = Project::discover(&ctx.cwd)?;
    let repo = &project.repo;
    let remote = request.remote.as_str();
    if !repo.remote_names().iter().any(|n| *n == remote) {
        return Err(Error::usage(format!(
            "`{remote}` is not a configured remote of this repository (see `git remote -v`)"
        )));
    }
    let git = Git::new(repo);
    if request.dry_run {
        return dry_run(ctx, repo, &git, remote);
    }
    let tracking = notes_sync::tracking_ref(remote);
    let mut diverged: Vec<String> = Vec::new();
    for round in 1..=MAX_ROUNDS {
        let remote_refs = git.ls_remote(remote)?;
        let remote_has_notes = remote_refs.iter().any(|(n, _)| n == NOTES_REF);
        let remote_has_archives = remote_refs.iter().any(|(n, _)| n != NOTES_REF);
        // Fetch: the trail into its remote-tracking ref, archives into place; never forced.
        let mut specs = Vec::new();
        if remote_has_notes {
            specs.push(format!("{NOTES_REF}:{tracking}"));
        }
        if remote_has_archives {
            specs.push(format!("{ARCHIVE_PREFIX}*:{ARCHIVE_PREFIX}*"));
        }
        let before = notes::tip(repo, &tracking)?;
        if !specs.is_empty() {
            let mut args = vec!["fetch", "--no-tags", "--no-write-fetch-head", "--", remote];
            args.extend(specs.iter().map(String::as_str));
            let ran = git.run(&args)?;
            if !ran.ok {
                let rejected = notes_sync::fetch_rejections(&ran.stderr);
                if rejected.is_empty() {
                    return Err(Error::refused(
                        format!("`git fetch {remote}` failed: {}", ran.stderr.trim()),
                        Some(format!("check the remote with `git fetch {remote}`, then run `git standards notes sync {remote}` again")),
                    ));
                }
                if let Some(line) = rejected.iter().find(|l| l.contains(&tracking)) {
                    return Err(Error::refused(
                        format!("the remote's trail was rewritten, so `{tracking}` cannot move to it without force: {line}"),
                        Some(format!("someone forced `{NOTES_REF}` on `{remote}`; compare `git log {tracking}` with the remote before deciding; nothing was changed here")),
                    ));
                }
                for line in rejected {
                    if !diverged.contains(&line) {
                        diverged.push(line);
                    }
                }
            }
        }
        let fetched = notes::tip(repo, &tracking)?;
        if fetched != before {
            if let Some(id) = fetched {
                say(ctx, "fetched", &format!("{tracking} {}", short(id)))?;
            }
        }
        // Merge the remote's trail into ours.
        if let (true, Some(theirs)) = (remote_has_notes, fetched) {
            let message = format!("Merged notes from {tracking} into {NOTES_REF}");
            match notes_sync::merge(repo, theirs, &message)? {
                Merged::UpToDate => {}
                Merged::FastForward { to } => say(
                    ctx,
                    "fast-forward",
                    &format!("{NOTES_REF} to {}", short(to)),
                )?,
                Merged::Commit { commit, incoming } => say(
                    ctx,
                    "merged",
                    &format!(
                        "{NOTES_REF}: {incoming} event line(s) from {remote} (notes commit {})",
                        short(commit)
                    ),
                )?,
            }
        }
        // Push, never forced.
        let mut specs = Vec::new();
        if notes::tip(repo, NOTES_REF)?.is_some() {
            specs.push(format!("{NOTES_REF}:{NOTES_REF}"));
        }
        if !local_archives(repo)?.is_empty() {
            specs.push(format!("{ARCHIVE_PREFIX}*:{ARCHIVE_PREFIX}*"));
        }
        if specs.is_empty() {
            writeln!(
                ctx.err,
                "Nothing to sync: neither side has an audit trail or archive refs."
            )
            .map_err(|e| Error::io("<stderr>", e))?;
            return finish(diverged, remote);
        }
        let mut args = vec!["push", "--porcelain", "--", remote];
        args.extend(specs.iter().map(String::as_str));
        let ran = git.run(&args)?;
        let pushed = notes_sync::parse_push(&ran.stdout);
        if !ran.ok && pushed.is_empty() {
            return Err(Error::refused(
                format!("`git push {remote}` failed: {}", ran.stderr.trim()),
                Some(format!("check that you may push to `{remote}`, then run `git standards notes sync {remote}` again")),
            ));
        }
        let mut retry = false;
        for p in &pushed {
            if !p.rejected() {
                if p.flag != '=' {
                    say(ctx, "pushed", &format!("{} to {remote}", p.remote))?;
                }
                continue;
            }
            if p.remote == NOTES_REF && p.needs_fetch() {
                retry = true;
            } else if p.remote == NOTES_REF {
                return Err(Error::refused(
                    format!("the remote `{remote}` refused `{NOTES_REF}`: {}; some hosts and server hooks do not accept `refs/notes/*`", p.summary),
                    Some(format!("ask the host's administrators to allow pushes to `{NOTES_REF}`, or share the trail through another remote with `git standards notes sync <remote>`; the local trail is unchanged and complete")),
                ));
            } else {
                let line = format!("{} -> {}: {}", p.local, p.remote, p.summary);
                if !diverged.contains(&line) {
                    diverged.push(line);
                }
            }
        }
        if !retry {
            return finish(diverged, remote);
        }
        if round < MAX_ROUNDS {
            writeln!(ctx.err, "The push of {NOTES_REF} was rejected because {remote} moved on; fetching and merging again (round {} of {MAX_ROUNDS}).", round + 1)
                .map_err(|e| Error::io("<stderr>", e))?;
            notes::backoff(round + 2);
        }
    }
    Err(Error::refused(
        format!("the push of `{NOTES_REF}` to `{remote}` was rejected {MAX_ROUNDS} times because others kept pushing in between"),
        Some(format!("run `git standards notes sync {remote}` again; every event is kept locally meanwhile")),
    ))
}

/// Archive refs that could not travel are reported last, as a refusal.
fn finish(diverged: Vec<String>, remote: &str) -> Result<()> {
    if diverged.is_empty() {
        return Ok(());
    }
    Err(Error::refused(
        format!(
            "archive refs differ between here and `{remote}` and were left as they are on both sides (never forced): {}",
            diverged.join("; ")
        ),
        Some("archives are never rewritten; compare both histories (`git log <ref>` here and on the remote) and keep both under different names if needed".to_string()),
    ))
}

/// `--dry-run`: asks the remote for its refs only and says what would move.
fn dry_run(ctx: &mut Context, repo: &gix::Repository, git: &Git, remote: &str) -> Result<()> {
    let remote_refs: BTreeMap<String, ObjectId> = git.ls_remote(remote)?.into_iter().collect();
    let local = notes::tip(repo, NOTES_REF)?;
    let theirs = remote_refs.get(NOTES_REF).copied();
    let known = |id: ObjectId| repo.find_commit(id).is_ok();
    let tracking = notes_sync::tracking_ref(remote);
    match (local, theirs) {
        (None, None) => say(
            ctx,
            "nothing",
            &format!("{NOTES_REF} exists on neither side"),
        )?,
        (Some(l), None) => say(
            ctx,
            "would push",
            &format!("{NOTES_REF} {} (new on {remote})", short(l)),
        )?,
        (l, Some(r)) if !known(r) => {
            say(ctx, "would fetch", &format!("{tracking} {}", short(r)))?;
            let then = if l.is_some() {
                "merge it into"
            } else {
                "create"
            };
            say(
                ctx,
                "would merge",
                &format!("then {then} {NOTES_REF} and push the result"),
            )?;
        }
        (l, Some(r)) => match notes_sync::plan(repo, l, Some(r))? {
            MergePlan::UpToDate if l == Some(r) => {
                say(ctx, "up to date", &format!("{NOTES_REF} {}", short(r)))?
            }
            MergePlan::UpToDate => say(
                ctx,
                "would push",
                &format!(
                    "{NOTES_REF} {} over {} (fast-forward)",
                    short(l.expect("a local tip")),
                    short(r)
                ),
            )?,
            MergePlan::FastForward { to } => {
                say(ctx, "would fetch", &format!("{tracking} {}", short(to)))?;
                say(
                    ctx,
                    "fast-forward",
                    &format!("{NOTES_REF} to {} (nothing to push)", short(to)),
                )?;
            }
            MergePlan::Merge {
                incoming, outgoing, ..
            } => {
                say(ctx, "would fetch", &format!("{tracking} {}", short(r)))?;
                say(ctx, "would merge", &format!("{incoming} event line(s) from {remote} into {NOTES_REF} (two-parent notes commit)"))?;
                say(
                    ctx,
                    "would push",
                    &format!("{NOTES_REF} with {outgoing} event line(s) {remote} lacks"),
                )?;
            }
        },
    }
    let ours = local_archives(repo)?;
    for (name, r) in remote_refs.iter().filter(|(n, _)| n.as_str() != NOTES_REF) {
        match ours.get(name) {
            None => say(ctx, "would fetch", &format!("{name} {}", short(*r)))?,
            Some(l) if l == r => {}
            Some(_) => say(ctx, "would compare", &format!("{name}: it differs between here and {remote}; it moves only if one contains the other"))?,
        }
    }
    for (name, l) in ours.iter().filter(|(n, _)| !remote_refs.contains_key(*n)) {
        say(
            ctx,
            "would push",
            &format!("{name} {} (new on {remote})", short(*l)),
        )?;
    }
    writeln!(ctx.err, "Dry run: nothing was fetched, merged or pushed.")
        .map_err(|e| Error::io("<stderr>", e))
}
