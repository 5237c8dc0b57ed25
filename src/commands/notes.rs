//! `git standards notes sync [<remote>]`: fetch, merge and push the audit
//! trail and the archive refs, never forced (D17, D21, git-facts 11).

use std::collections::BTreeMap;

use crate::cli::values::ref_value;
use crate::commands::Context;
use crate::error::{Error, Result};
use crate::repo::notes::{self, NOTES_REF};
use crate::repo::notes_sync::{self, Git, MergePlan, Merged, ARCHIVE_PREFIX};
use crate::repo::{archive, failpoint, refs, trail, ObjectId, Project};
use clap::Subcommand;

#[derive(Debug, Subcommand)]
pub enum NotesCommand {
    /// Fetch, merge and push the audit trail (`refs/notes/standards`) and the archive refs (`refs/standards/archive/*`).
    ///
    /// Git neither fetches nor pushes notes by default; this is the one command a team needs. It fetches the remote's trail into `refs/notes/remotes/<remote>/standards` (never with a forced refspec), merges it into `refs/notes/standards` line by line (`cat_sort_uniq`: the union of both clones' events) with a two-parent notes commit, and pushes without force. When the push is rejected because someone pushed in between, it fetches, merges and pushes again, a few times at most. Archive refs under `refs/standards/archive/` travel both ways too, never forced: an archive that diverged is reported, not overwritten.
    ///
    /// Only `refs/notes/standards` and `refs/standards/archive/*` are fetched, first into `refs/quarantine/standards/<remote>/`, and checked before they move into place: a trail that is not a notes commit, or that does not descend from what was fetched last, is refused; an archive whose tree holds `.git` (in any case, or a spelling NTFS or HFS+ reads as `.git`) or a `.gitmodules` symbolic link is refused and never fetched. An event once in the local trail is never removed: when the remote deleted events, the union keeps them, a warning says how many, and the push restores them.
    ///
    /// Exit status: 0 when both sides hold the union; 1 when the remote refused (for example a host that does not accept `refs/notes/*`), a ref diverged, or a fetched ref was refused.
    #[command(verbatim_doc_comment)]
    Sync(NotesSyncArgs),
}

#[derive(Debug, clap::Args)]
pub struct NotesSyncArgs {
    /// The remote to sync with.
    #[arg(value_name = "remote", default_value = "origin", value_parser = ref_value)]
    pub remote: String,
    /// Show what would move without fetching, merging or pushing.
    #[arg(long)]
    pub dry_run: bool,
    /// Print one JSON object on stdout instead of the report: {"ok": true, "command": "notes sync", "remote", "dryRun", "actions": [{action: fetched|merged|fast-forward|pushed|up to date|nothing|would fetch|would merge|would push|would compare, detail}]}; a refusal prints {"ok": false, "error", "hint"}.
    #[arg(long)]
    pub json: bool,
}

/// The crash points of a sync (D22 tests): after the fetch, after the merge.
pub const FAILPOINTS: &[&str] = &["notes-sync:fetched", "notes-sync:merged"];

/// The most versions of one fetched archive that are validated; a longer
/// history is refused.
pub const MAX_ARCHIVE_VERSIONS: usize = 10_000;

/// How many fetch-merge-push rounds a sync tries when pushes keep being rejected.
pub const MAX_ROUNDS: usize = 5;

/// A validated `notes sync` request.
#[derive(Debug, Clone)]
pub struct SyncRequest {
    pub remote: String,
    pub dry_run: bool,
    /// Print one JSON object on stdout instead of the report lines.
    pub json: bool,
}

fn say(ctx: &mut Context, verb: &str, text: &str) -> Result<()> {
    writeln!(ctx.out, "{verb:<14} {text}").map_err(Error::stdout)
}

fn short(id: ObjectId) -> String {
    id.to_hex_with_len(12).to_string()
}

/// Local refs under `refs/standards/`, by name.
fn local_archives(project: &Project) -> Result<BTreeMap<String, ObjectId>> {
    Ok(refs::refs_under(project, ARCHIVE_PREFIX)?
        .into_iter()
        .filter_map(|(name, id)| Some((name, id.ok()?)))
        .collect())
}

pub fn run_sync(ctx: &mut Context, request: &SyncRequest) -> Result<()> {
    if !request.json {
        return sync(ctx, request);
    }
    // `--json` (issue 25): the report lines become the `actions` of one object.
    let mut lines = Vec::new();
    let mut inner = Context {
        cwd: ctx.cwd.clone(),
        out: &mut lines,
        err: &mut *ctx.err,
        color: false,
    };
    sync(&mut inner, request)?;
    let value = serde_json::json!({
        "ok": true,
        "command": "notes sync",
        "remote": request.remote,
        "dryRun": request.dry_run,
        "actions": actions(&String::from_utf8_lossy(&lines)),
    });
    super::print_result(ctx.out, true, "", value)
}

/// The report lines of [`say`] as `{action, detail}` objects: every verb is
/// shorter than its 14-column field, so the detail starts at column 15.
fn actions(report: &str) -> Vec<serde_json::Value> {
    report
        .lines()
        .map(|line| {
            let (verb, text) = match (line.get(..14), line.get(15..)) {
                (Some(verb), Some(text)) => (verb.trim_end(), text),
                _ => (line.trim_end(), ""),
            };
            serde_json::json!({ "action": verb, "detail": text })
        })
        .collect()
}

fn sync(ctx: &mut Context, request: &SyncRequest) -> Result<()> {
    let project = &Project::discover(&ctx.cwd)?;
    let remote = request.remote.as_str();
    if !refs::has_remote(project, remote) {
        return Err(Error::usage(format!(
            "`{remote}` is not a configured remote of this repository (see `git remote -v`)"
        )));
    }
    let git = trail::git(project);
    trail::notes_commit(project, NOTES_REF, "this repository's")?;
    if request.dry_run {
        return dry_run(ctx, project, &git, remote);
    }
    let tracking = notes_sync::tracking_ref(remote);
    let mut diverged: Vec<String> = Vec::new();
    let mut refused: Vec<String> = Vec::new();
    for round in 1..=MAX_ROUNDS {
        let remote_refs = git.ls_remote(remote)?;
        let remote_has_notes = remote_refs.iter().any(|(n, _)| n == NOTES_REF);
        let before = trail::tip(project, &tracking)?;
        let fetched = fetch_validated(
            ctx,
            project,
            &git,
            remote,
            &remote_refs,
            &mut diverged,
            &mut refused,
        )?;
        failpoint::hit("notes-sync:fetched");
        if fetched != before {
            if let Some(id) = fetched {
                say(ctx, "fetched", &format!("{tracking} {}", short(id)))?;
            }
        }
        // Merge the remote's trail into ours: the union, never a loss.
        if let (true, Some(theirs)) = (remote_has_notes, fetched) {
            let message = format!("Merged notes from {tracking} into {NOTES_REF}");
            match trail::merge(project, theirs, &message)? {
                Merged::UpToDate => {}
                Merged::FastForward { to } => say(
                    ctx,
                    "fast-forward",
                    &format!("{NOTES_REF} to {}", short(to)),
                )?,
                Merged::Commit {
                    commit,
                    incoming,
                    dropped,
                } => {
                    say(
                        ctx,
                        "merged",
                        &format!(
                            "{NOTES_REF}: {incoming} event line(s) from {remote} (notes commit {})",
                            short(commit)
                        ),
                    )?;
                    if dropped > 0 {
                        writeln!(
                            ctx.err,
                            "warning: the trail on `{remote}` deleted {dropped} event line(s) that its own history holds (someone rewrote `{NOTES_REF}` there); every one is kept here and pushed back"
                        )
                        .map_err(|e| Error::io("<stderr>", e))?;
                    }
                }
            }
        }
        failpoint::hit("notes-sync:merged");
        // Push, never forced.
        let mut specs = Vec::new();
        if trail::tip(project, NOTES_REF)?.is_some() {
            specs.push(format!("{NOTES_REF}:{NOTES_REF}"));
        }
        if !local_archives(project)?.is_empty() {
            specs.push(format!("{ARCHIVE_PREFIX}*:{ARCHIVE_PREFIX}*"));
        }
        if specs.is_empty() {
            writeln!(
                ctx.err,
                "Nothing to sync: neither side has an audit trail or archive refs."
            )
            .map_err(|e| Error::io("<stderr>", e))?;
            return finish(diverged, refused, remote);
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
            return finish(diverged, refused, remote);
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

/// Deletes every ref under the quarantine prefix (leftovers of a killed sync included).
fn clear_quarantine(project: &Project, git: &Git, prefix: &str) -> Result<()> {
    for name in refs::ref_names_under(project, prefix)? {
        let ran = git.run(&["update-ref", "--no-deref", "-d", &name])?;
        if !ran.ok {
            return Err(Error::Git(format!(
                "cannot delete `{name}`: {}",
                ran.stderr.trim()
            )));
        }
    }
    Ok(())
}

/// Moves `name` from `previous` to `to` by compare-and-swap.
fn move_ref(project: &Project, name: &str, previous: Option<ObjectId>, to: ObjectId) -> Result<()> {
    refs::move_ref(project, name, previous, to, "standards: notes sync").map_err(|e| {
        Error::refused(
            format!("`{name}` moved while `notes sync` validated what it fetched: {e}"),
            Some("run `git standards notes sync` again".to_string()),
        )
    })?;
    Ok(())
}

/// Fetches the remote's trail and archives into a quarantine namespace,
/// validates them, and moves only what is valid into place (issue 21): the
/// trail into its remote-tracking ref when it descends from what was fetched
/// last, each archive into `refs/standards/archive/` when no tree of its
/// history holds a path git refuses to check out (`.git`...) and it is new
/// or a fast-forward. Returns the remote-tracking tip.
fn fetch_validated(
    ctx: &mut Context,
    project: &Project,
    git: &Git,
    remote: &str,
    remote_refs: &[(String, ObjectId)],
    diverged: &mut Vec<String>,
    refused: &mut Vec<String>,
) -> Result<Option<ObjectId>> {
    let quarantine = notes_sync::quarantine(remote);
    clear_quarantine(project, git, &quarantine)?;
    let result = fetch_into_place(ctx, project, git, remote, remote_refs, diverged, refused);
    let cleared = clear_quarantine(project, git, &quarantine);
    let tip = result?;
    cleared?;
    Ok(tip)
}

fn fetch_into_place(
    ctx: &mut Context,
    project: &Project,
    git: &Git,
    remote: &str,
    remote_refs: &[(String, ObjectId)],
    diverged: &mut Vec<String>,
    refused: &mut Vec<String>,
) -> Result<Option<ObjectId>> {
    let quarantine = notes_sync::quarantine(remote);
    let tracking = notes_sync::tracking_ref(remote);
    let q_notes = format!("{quarantine}notes");
    let q_archives = format!("{quarantine}archive/");
    let mut specs = Vec::new();
    if remote_refs.iter().any(|(n, _)| n == NOTES_REF) {
        specs.push(format!("{NOTES_REF}:{q_notes}"));
    }
    if remote_refs.iter().any(|(n, _)| n != NOTES_REF) {
        specs.push(format!("{ARCHIVE_PREFIX}*:{q_archives}*"));
    }
    if !specs.is_empty() {
        // Into an emptied namespace: nothing is forced.
        let mut args = vec!["fetch", "--no-tags", "--no-write-fetch-head", "--", remote];
        args.extend(specs.iter().map(String::as_str));
        let ran = git.run(&args)?;
        if !ran.ok {
            return Err(Error::refused(
                format!("`git fetch {remote}` failed: {}", ran.stderr.trim()),
                Some(format!("check the remote with `git fetch {remote}`, then run `git standards notes sync {remote}` again")),
            ));
        }
    }
    // The trail: a notes commit that descends from what was fetched last.
    let before = trail::tip(project, &tracking)?;
    let mut tip = before;
    if let Some(id) = trail::notes_commit(project, &q_notes, &format!("the remote `{remote}`'s"))
        .map_err(|e| match e {
            Error::Refused { message, hint } => Error::Refused {
                message: message.replace(&q_notes, NOTES_REF),
                hint,
            },
            other => other,
        })?
    {
        if let Some(b) = before {
            if !trail::descends(project, b, id)? {
                return Err(Error::refused(
                    format!("the remote's trail was rewritten, so `{tracking}` cannot move to it without force: the remote's `{NOTES_REF}` ({}) does not descend from what was fetched last ({})", short(id), short(b)),
                    Some(format!("someone forced `{NOTES_REF}` on `{remote}`; compare `git log {tracking}` with the remote before deciding; nothing was changed here")),
                ));
            }
        }
        if before != Some(id) {
            move_ref(project, &tracking, before, id)?;
        }
        tip = Some(id);
    }
    // The archives: validated, then created or fast-forwarded, never forced.
    let mut fetched = Vec::new();
    for (name, id) in refs::refs_under(project, &q_archives)? {
        let target = format!("{ARCHIVE_PREFIX}{}", &name[q_archives.len()..]);
        fetched.push((target, id));
    }
    for (target, id) in fetched {
        let id = match id {
            Ok(id) => id,
            Err(e) => {
                let line = format!("refusing archive `{target}`: it cannot be resolved ({e})");
                if !refused.contains(&line) {
                    refused.push(line);
                }
                continue;
            }
        };
        if let Err(e) = archive::validate(project, id, &target, MAX_ARCHIVE_VERSIONS) {
            let line = e.to_string();
            if !refused.contains(&line) {
                refused.push(line);
            }
            continue;
        }
        let local = archive::tip(project, &target)?;
        match local {
            None => {
                move_ref(project, &target, None, id)?;
                say(ctx, "fetched", &format!("{target} {}", short(id)))?;
            }
            Some(l) if l == id => {}
            Some(l) if refs::is_commit(project, l) && trail::descends(project, l, id)? => {
                move_ref(project, &target, Some(l), id)?;
                say(ctx, "fetched", &format!("{target} {}", short(id)))?;
            }
            Some(l) if refs::is_commit(project, l) && trail::descends(project, id, l)? => {}
            Some(_) => {
                let line =
                    format!("{target}: neither history contains the other (non-fast-forward)");
                if !diverged.contains(&line) {
                    diverged.push(line);
                }
            }
        }
    }
    Ok(tip)
}

/// Archive refs that could not travel are reported last, as a refusal:
/// hostile ones first (never fetched), then diverged ones (never forced).
fn finish(diverged: Vec<String>, refused: Vec<String>, remote: &str) -> Result<()> {
    if !refused.is_empty() {
        let mut message = format!(
            "{} archive ref(s) from `{remote}` were refused and not fetched: {}",
            refused.len(),
            refused.join("; ")
        );
        if !diverged.is_empty() {
            message.push_str(&format!(
                "; archive refs that differ between here and `{remote}` were left as they are on both sides (never forced): {}",
                diverged.join("; ")
            ));
        }
        return Err(Error::refused(
            message,
            Some(format!("the trail and every other ref synced; ask whoever controls `{remote}` to delete the refused refs there; `git ls-remote {remote} 'refs/standards/archive/*'` lists the archive refs it holds")),
        ));
    }
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
fn dry_run(ctx: &mut Context, project: &Project, git: &Git, remote: &str) -> Result<()> {
    let remote_refs: BTreeMap<String, ObjectId> = git.ls_remote(remote)?.into_iter().collect();
    let local = trail::tip(project, NOTES_REF)?;
    let theirs = remote_refs.get(NOTES_REF).copied();
    let known = |id: ObjectId| refs::is_commit(project, id);
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
        (l, Some(r)) => match trail::plan(project, l, Some(r))? {
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
    let ours = local_archives(project)?;
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
