//! The server side of D23 (issue 22): `git standards hook pre-receive` (git's
//! `<old> <new> <ref>` lines on standard input) and `hook update <ref> <old>
//! <new>` (servers that run per-ref hooks). A push that brings a branch whose
//! `.standards/` is not a fresh installation into the main branch or a
//! protected branch is refused, and so is any pushed branch whose new
//! commits fail `verify`, whatever the client ran (`git push --no-verify`,
//! a client without hooks). The policy is the receiving repository's (see
//! [`receive::target_branches`]), never the pushed commits'.
//!
//! Also `hooks install|uninstall|status` in a bare repository, which manage
//! these hooks instead of the client ones.

use std::collections::BTreeSet;

use crate::commands::verify::{self, Outcome};
use crate::commands::Context;
use crate::error::{Error, Result};
use crate::repo::hooks::{self, HookFile};
use crate::repo::{projects, receive, refs, ObjectId, Project};
use standards_core::setup::config::Branches;
use standards_core::setup::fresh::{self, Freshness};
use standards_core::setup::merge_guard::{self, Side, Verdict};

/// How every line this hook prints starts: git shows it after `remote: `.
pub const PREFIX: &str = "git-standards: ";

/// One ref update git asks about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Update {
    pub old: ObjectId,
    pub new: ObjectId,
    pub name: String,
}

/// Parses pre-receive's standard input: one `<old> <new> <ref>` per line.
pub fn parse_updates(text: &str) -> Result<Vec<Update>> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [old, new, name] = fields.as_slice() else {
            return Err(Error::usage(format!(
                "line {} of standard input is not `<old-id> <new-id> <ref>` (git's pre-receive input): `{line}`",
                n + 1
            )));
        };
        out.push(update(name, old, new)?);
    }
    Ok(out)
}

/// One update from the update hook's arguments (or a pre-receive line).
pub fn update(name: &str, old: &str, new: &str) -> Result<Update> {
    let id = |what: &str, hex: &str| {
        refs::parse_id(hex).ok_or_else(|| {
            Error::usage(format!(
                "the {what} object ID `{hex}` for `{name}` is not a full hexadecimal object ID"
            ))
        })
    };
    if !name.starts_with("refs/") {
        return Err(Error::usage(format!(
            "`{name}` is not a full ref name (`refs/heads/<branch>`, `refs/tags/<tag>`)"
        )));
    }
    Ok(Update {
        old: id("old", old)?,
        new: id("new", new)?,
        name: name.to_string(),
    })
}

/// What the hook decided about one ref.
#[derive(Debug)]
pub struct RefVerdict {
    pub update: Update,
    /// Why the ref was not checked (a deletion, a tag), when it was not.
    pub skipped: Option<String>,
    pub guarded: bool,
    /// The merge guard's refusals: (project folder, message, hint).
    pub refusals: Vec<(String, String, String)>,
    pub verify: Option<Outcome>,
}

impl RefVerdict {
    pub fn ok(&self) -> bool {
        self.refusals.is_empty() && self.verify.as_ref().is_none_or(Outcome::ok)
    }
}

fn short(id: ObjectId) -> String {
    id.to_hex_with_len(7).to_string()
}

/// The way out of a refusal, for the person who pushed.
fn push_hint(refusal: &merge_guard::Refusal, branch: &str) -> String {
    let fixes = refusal
        .fixes
        .iter()
        .map(|f| format!("`{f}`"))
        .collect::<Vec<_>>()
        .join(" or ");
    let first = refusal
        .first
        .as_ref()
        .map(|f| format!("{f}; then "))
        .unwrap_or_default();
    format!("{first}on the branch you pushed run {fixes}, then push to `{branch}` again")
}

/// D23 for `new` arriving on the guarded `branch`, whose tip was `old`.
fn guard(
    project: &Project,
    branch: &str,
    old: Option<ObjectId>,
    new: ObjectId,
) -> Result<Vec<(String, String, String)>> {
    let mut dirs: BTreeSet<String> = projects::in_commit(project, new)?.into_iter().collect();
    if let Some(old) = old {
        dirs.extend(projects::in_commit(project, old)?);
    }
    let incoming_name = short(new);
    let mut out = Vec::new();
    for dir in dirs {
        let incoming = fresh::judge(&projects::at_rev(project, &new.to_string(), &dir)?);
        let target = match old {
            Some(old) => fresh::judge(&projects::at_rev(project, &old.to_string(), &dir)?),
            None => Freshness::Absent,
        };
        let verdict = merge_guard::judge(
            Side {
                name: &incoming_name,
                freshness: &incoming,
            },
            Side {
                name: branch,
                freshness: &target,
            },
            &dir,
        );
        if let Verdict::Refused(r) = verdict {
            let hint = push_hint(&r, branch);
            out.push((dir, r.message, hint));
        }
    }
    Ok(out)
}

/// Judges one ref update.
pub fn judge_update(project: &Project, branches: &Branches, u: &Update) -> Result<RefVerdict> {
    let mut verdict = RefVerdict {
        update: u.clone(),
        skipped: None,
        guarded: false,
        refusals: Vec::new(),
        verify: None,
    };
    if u.new.is_null() {
        verdict.skipped = Some("deleted".into());
        return Ok(verdict);
    }
    let Some(branch) = u.name.strip_prefix("refs/heads/") else {
        verdict.skipped = Some("not a branch".into());
        return Ok(verdict);
    };
    if !receive::can_read_commit(project, u.new) {
        return Err(Error::refused(
            format!(
                "the pushed commit {} of `{}` cannot be read here (it is not a commit, or git's quarantine folder `GIT_QUARANTINE_PATH` is not visible to this process)",
                u.new, u.name
            ),
            Some("run the hook as git does, from the receiving repository with git's environment (`GIT_DIR`, `GIT_OBJECT_DIRECTORY`, `GIT_ALTERNATE_OBJECT_DIRECTORIES`) unchanged".into()),
        ));
    }
    let old = (!u.old.is_null()).then_some(u.old);
    verdict.guarded = branches.is_guarded(branch);
    if verdict.guarded {
        verdict.refusals = guard(project, branch, old, u.new)?;
    }
    // The range: what the branch had, else the fork from the main branch.
    let base = match old {
        Some(old) => Some(old),
        None => match receive::branch_tip(project, &branches.main)? {
            Some(main) if branch != branches.main => refs::merge_base(project, main, u.new),
            _ => None,
        },
    };
    // A force push: from where the old and new tips meet.
    let base = match base {
        Some(b) if b != u.new => refs::merge_base(project, b, u.new),
        other => other,
    };
    if base == Some(u.new) {
        return Ok(verdict);
    }
    let outcome = verify::evaluate_span(
        project,
        branches.main.clone(),
        base,
        u.new,
        None,
        &mut |_, _| {},
    )?;
    verdict.verify = Some(outcome);
    Ok(verdict)
}

/// Which hook is running.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hook {
    PreReceive,
    Update,
}

pub struct Request {
    pub hook: Hook,
    pub updates: Vec<Update>,
    pub json: bool,
}

pub fn run(ctx: &mut Context, request: &Request) -> Result<()> {
    let mut project = Project::discover(&ctx.cwd)?;
    let _quarantine = receive::see_quarantine(&mut project)?;
    let branches = receive::target_branches(&project)?;
    let mut verdicts = Vec::new();
    for u in &request.updates {
        verdicts.push(judge_update(&project, &branches, u)?);
    }
    report(ctx, &branches, &verdicts, request.json)?;
    if verdicts.iter().all(RefVerdict::ok) {
        Ok(())
    } else {
        Err(Error::Exit { code: 1 })
    }
}

/// Where the main branch came from, as the server knows it: HEAD here is
/// the receiving repository's, which clones see as the remote's.
fn source(branches: &Branches) -> &'static str {
    match branches.source {
        standards_core::setup::config::MainBranchSource::RemoteHead => {
            "this repository's HEAD branch"
        }
        other => other.describe(),
    }
}

fn err_line(ctx: &mut Context, text: &str) -> Result<()> {
    for line in text.lines() {
        writeln!(ctx.err, "{PREFIX}{line}").map_err(|e| Error::io("<stderr>", e))?;
    }
    Ok(())
}

fn report(
    ctx: &mut Context,
    branches: &Branches,
    verdicts: &[RefVerdict],
    json: bool,
) -> Result<()> {
    for v in verdicts {
        let u = &v.update;
        let range = if u.old.is_null() {
            format!("new, at {}", short(u.new))
        } else {
            format!("{}..{}", short(u.old), short(u.new))
        };
        if let Some(why) = &v.skipped {
            err_line(ctx, &format!("{}: accepted ({why})", u.name))?;
            continue;
        }
        let commits = v.verify.as_ref().map(|o| o.commits.len()).unwrap_or(0);
        if v.ok() {
            err_line(
                ctx,
                &format!(
                    "{} ({range}): accepted ({commits} commit{} verified{})",
                    u.name,
                    if commits == 1 { "" } else { "s" },
                    if v.guarded {
                        ", merge guard passed"
                    } else {
                        ""
                    }
                ),
            )?;
            continue;
        }
        err_line(ctx, &format!("{} ({range}): refused", u.name))?;
        for (_, message, hint) in &v.refusals {
            err_line(ctx, &format!("  {message}"))?;
            err_line(ctx, &format!("  hint: {hint}"))?;
        }
        if let Some(o) = &v.verify {
            for c in o.commits.iter().filter(|c| !c.ok()) {
                for p in c.problems.iter() {
                    let at = p.line.map(|l| format!(":{l}")).unwrap_or_default();
                    err_line(
                        ctx,
                        &format!(
                            "  {} {}: {}{at}: {} [{}]",
                            c.short(),
                            c.subject,
                            p.file,
                            p.message,
                            p.rule
                        ),
                    )?;
                }
            }
            if !o.ok() {
                err_line(
                    ctx,
                    &format!(
                        "  hint: see every problem with `git standards verify {range}` in your clone, fix them in new commits, then push again",
                        range = match o.base {
                            Some(b) => format!("{}..{}", short(b), short(o.tip)),
                            None => short(o.tip),
                        }
                    ),
                )?;
            }
        }
    }
    if verdicts.iter().any(|v| !v.ok()) {
        err_line(
            ctx,
            &format!(
                "this repository's server hook enforces the STANDARDS merge guard (main branch `{}`, {}); `git push --no-verify` skips only your own hooks",
                branches.main,
                source(branches)
            ),
        )?;
    }
    if json {
        let refs: Vec<_> = verdicts
            .iter()
            .map(|v| {
                serde_json::json!({
                    "ref": v.update.name,
                    "old": v.update.old.to_string(),
                    "new": v.update.new.to_string(),
                    "ok": v.ok(),
                    "skipped": v.skipped,
                    "guarded": v.guarded,
                    "guard": v.refusals.iter().map(|(dir, message, hint)| serde_json::json!({
                        "project": dir, "message": message, "hint": hint,
                    })).collect::<Vec<_>>(),
                    "verify": v.verify.as_ref().map(verify::format::json_value),
                })
            })
            .collect();
        let value = serde_json::json!({
            "ok": verdicts.iter().all(RefVerdict::ok),
            "mainBranch": branches.main,
            "protectedBranches": branches.protected,
            "refs": refs,
        });
        let text =
            serde_json::to_string_pretty(&value).map_err(|e| Error::Internal(e.to_string()))?;
        writeln!(ctx.out, "{text}").map_err(Error::stdout)?;
    }
    Ok(())
}

/// The hooks `hooks install` writes in a bare repository.
pub const SERVER_HOOKS: [&str; 2] = ["pre-receive", "update"];

/// `hooks install` in a bare repository: the pre-receive hook. Not the
/// update hook, which would judge the same refs a second time; a server
/// that runs only per-ref hooks calls `git standards hook update` itself
/// (docs/guide.md, Server hooks).
pub fn install(ctx: &mut Context, project: &Project) -> Result<()> {
    let (dir, _) = hooks::hooks_dir(project, None)?;
    let name = "pre-receive";
    let path = dir.join(name);
    let current = read(&path)?;
    match hooks::classify(name, current.as_deref()) {
        HookFile::Current => {
            say(ctx, &format!("The {name} hook is already installed."))?;
            return Ok(());
        }
        HookFile::Foreign => {
            let local = dir.join(format!("{name}.local"));
            if std::fs::symlink_metadata(&local).is_ok() {
                return Err(Error::refused(
                    format!(
                        "cannot install the {name} hook: `{}` holds another hook and `{}` exists too, so there is no place to keep the first",
                        path.display(),
                        local.display()
                    ),
                    Some(format!("merge the two into `{}` yourself, then run the install again", path.display())),
                ));
            }
            std::fs::rename(&path, &local).map_err(|e| Error::io(&path, e))?;
            say(
                ctx,
                &format!(
                    "Kept your {name} hook as `{}`; it runs first, and its refusal stops the push as before.",
                    local.display()
                ),
            )?;
        }
        HookFile::Absent | HookFile::Outdated => {}
    }
    hooks::write_hook(&dir, name, &hooks::shim(name))?;
    say(
        ctx,
        &format!(
            "This is a bare repository: installed the server's {name} hook in `{}`. Pushes into the main branch or a protected branch must bring a fresh installation, and every pushed commit must pass `git standards verify`.",
            dir.display()
        ),
    )
}

/// `hooks uninstall` in a bare repository.
pub fn uninstall(ctx: &mut Context, project: &Project) -> Result<()> {
    let (dir, _) = hooks::hooks_dir(project, None)?;
    for name in SERVER_HOOKS {
        let path = dir.join(name);
        let local = dir.join(format!("{name}.local"));
        match hooks::classify(name, read(&path)?.as_deref()) {
            HookFile::Current | HookFile::Outdated => {
                std::fs::remove_file(&path).map_err(|e| Error::io(&path, e))?;
                if std::fs::symlink_metadata(&local).is_ok() {
                    std::fs::rename(&local, &path).map_err(|e| Error::io(&local, e))?;
                    say(ctx, &format!("Removed the {name} hook and put yours back."))?;
                } else {
                    say(ctx, &format!("Removed the {name} hook."))?;
                }
            }
            HookFile::Foreign => say(
                ctx,
                &format!(
                    "Left `{}` alone: it is not a git-standards hook (or was edited).",
                    path.display()
                ),
            )?,
            HookFile::Absent => {}
        }
    }
    Ok(())
}

/// `hooks status` in a bare repository.
pub fn status(ctx: &mut Context, project: &Project) -> Result<()> {
    let (dir, from_config) = hooks::hooks_dir(project, None)?;
    let mut lines = vec![
        "bare repository: server hooks".to_string(),
        format!(
            "hooks folder: {}{}",
            dir.display(),
            if from_config { " (core.hooksPath)" } else { "" }
        ),
    ];
    for name in SERVER_HOOKS {
        let state = match hooks::classify(name, read(&dir.join(name))?.as_deref()) {
            HookFile::Absent => "not installed",
            HookFile::Current => "installed",
            HookFile::Outdated => {
                "installed by another version (run `git standards hooks install` to update)"
            }
            HookFile::Foreign => "another hook (not git-standards)",
        };
        lines.push(format!("{name}: {state}"));
    }
    let branches = receive::target_branches(project)?;
    lines.push(format!(
        "main branch: {} ({})",
        branches.main,
        source(&branches)
    ));
    for line in lines {
        writeln!(ctx.out, "{line}").map_err(Error::stdout)?;
    }
    Ok(())
}

fn read(path: &std::path::Path) -> Result<Option<Vec<u8>>> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => Ok(Some(b"symlink".to_vec())),
        Ok(_) => std::fs::read(path)
            .map(Some)
            .map_err(|e| Error::io(path, e)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Error::io(path, e)),
    }
}

fn say(ctx: &mut Context, text: &str) -> Result<()> {
    writeln!(ctx.err, "{text}").map_err(|e| Error::io("<stderr>", e))
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: &str = "1111111111111111111111111111111111111111";
    const Z: &str = "0000000000000000000000000000000000000000";

    #[test]
    fn pre_receive_lines_parse_and_bad_ones_say_which() {
        let u = parse_updates(&format!(
            "{Z} {A} refs/heads/main\n\n{A} {Z} refs/tags/v1\n"
        ))
        .unwrap();
        assert_eq!(u.len(), 2);
        assert!(u[0].old.is_null() && !u[0].new.is_null());
        assert_eq!(u[1].name, "refs/tags/v1");
        let e = parse_updates(&format!("{A} refs/heads/main\n")).unwrap_err();
        assert!(e.to_string().contains("line 1 of standard input"), "{e}");
        let e = parse_updates(&format!("{A} xyz refs/heads/main\n")).unwrap_err();
        assert!(e.to_string().contains("`xyz`"), "{e}");
        let e = update("main", A, A).unwrap_err();
        assert!(e.to_string().contains("not a full ref name"), "{e}");
    }
}
