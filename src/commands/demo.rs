//! `git standards demo`: a guided tour of the tool in a throwaway repository.
//! It creates the repository with gix, installs the runtime with the real
//! `install` command and shows the result with the real `status` command.

use std::path::{Path, PathBuf};

use crate::commands::{artifact, check, cycle, install, status, Context};
use crate::error::{Error, Result};
use crate::protocol::layout::{self, STATE_PATH};
use crate::protocol::state::StateDoc;
use crate::protocol::vocab::{ArtifactType, CompletionPolicy, CycleMode};
use crate::repo::{write, Project};

/// A validated demo request.
#[derive(Debug, Clone, Default)]
pub struct Request {
    /// Build the demo in this folder (relative to the command's folder) and keep it.
    pub keep: Option<PathBuf>,
}

/// Runs `demo`.
pub fn run(ctx: &mut Context, request: &Request) -> Result<()> {
    // `temp` removes the folder when dropped, also when a step fails.
    let (temp, dir) = match &request.keep {
        Some(dir) => {
            let dir = ctx.cwd.join(dir);
            let created = prepare_kept_folder(&dir)?;
            let dir = canonical(&dir)?;
            let what = if created {
                "Created the folder"
            } else {
                "Using the empty folder"
            };
            say(
                ctx,
                &format!(
                    "{what} {} for the demo; it is kept afterwards.",
                    dir.display()
                ),
            )?;
            (None, dir)
        }
        None => {
            let temp = tempfile::Builder::new()
                .prefix("git-standards-demo-")
                .tempdir()
                .map_err(|e| Error::io(std::env::temp_dir(), e))?;
            let dir = canonical(temp.path())?;
            say(
                ctx,
                &format!(
                    "Created the temporary folder {} for the demo; it is removed at the end.",
                    dir.display()
                ),
            )?;
            (Some(temp), dir)
        }
    };

    let repo = gix::init(&dir).map_err(|e| {
        Error::Git(format!(
            "cannot create a git repository in `{}`: {e}",
            dir.display()
        ))
    })?;
    let branch = match repo.head_name() {
        Ok(Some(name)) => name.shorten().to_string(),
        _ => "main".to_string(),
    };
    drop(repo);
    say(
        ctx,
        &format!("Initialised an empty git repository there on the branch `{branch}`, with no commits yet."),
    )?;
    ensure_commands_reach(&dir)?;

    say(
        ctx,
        "\nInstalling the STANDARDS runtime, as `git standards install` does in any repository:",
    )?;
    let installed = capture(ctx, &dir, |inner| {
        install::run(inner, &install::Request::default())
    })?;
    indent(ctx, &installed)?;
    say(
        ctx,
        "\nThe runtime is the `.standards/` folder: the protocol the agents follow, MODE.md with the project mode, and STATE.md with the workflow state.",
    )?;

    say(
        ctx,
        "\nReading the workflow state back, as `git standards status` does:",
    )?;
    let shown = capture(ctx, &dir, |inner| {
        status::run(
            inner,
            &status::Request {
                source: status::Source::Worktree,
                format: status::Format::Text,
            },
        )
    })?;
    indent(ctx, &shown)?;
    say(
        ctx,
        "\nEvery STANDARDS role reads and updates this state; `git standards status --ref <branch>` shows it for any branch without a checkout.",
    )?;

    say(
        ctx,
        "\nChecking the state against every protocol rule, as `git standards check` does:",
    )?;
    show_check(ctx, &dir)?;

    let request = "Add user search";
    say(
        ctx,
        &format!("\nAsking for a new cycle ID, as the Scoper does with `git standards cycle new --request \"{request}\"`:"),
    )?;
    let printed = capture(ctx, &dir, |inner| {
        cycle::run_new(
            inner,
            &cycle::NewRequest {
                request: request.to_string(),
            },
        )
    })?;
    indent(ctx, &printed)?;
    let id = String::from_utf8_lossy(&printed).trim().to_string();

    say(
        ctx,
        "\nStarting the cycle: the Scoper records the ID, the request, the STANDARD cycle mode, the FULL_DELIVERABLE completion policy and the scope path in STATE.md (only those fields change):",
    )?;
    start_cycle(&dir, &id, request)?;
    let created = capture(ctx, &dir, |inner| {
        artifact::run_init(
            inner,
            &artifact::InitRequest {
                artifact: ArtifactType::Scope,
                kind: None,
            },
        )
    })?;
    say(
        ctx,
        "Then it creates the cycle's scope record with `git standards artifact init SCOPE`:",
    )?;
    indent(ctx, &created)?;

    say(ctx, "\nThe state now shows the active cycle:")?;
    let shown = capture(ctx, &dir, |inner| {
        status::run(
            inner,
            &status::Request {
                source: status::Source::Worktree,
                format: status::Format::Text,
            },
        )
    })?;
    indent(ctx, &shown)?;
    say(ctx, "\nAnd `git standards check` reads the new record too:")?;
    show_check(ctx, &dir)?;

    match temp {
        Some(temp) => {
            temp.close().map_err(|e| Error::io(&dir, e))?;
            say(
                ctx,
                &format!("\nRemoved the demo folder {}.", dir.display()),
            )?;
        }
        None => say(
            ctx,
            &format!(
                "\nThe demo repository stays in {}; look around with `git standards -C {} status`.",
                dir.display(),
                dir.display()
            ),
        )?,
    }
    Ok(())
}

/// Creates the `--keep` folder, or accepts an existing empty one; says whether
/// it created it. Refuses anything else: the demo never writes into existing content.
fn prepare_kept_folder(dir: &Path) -> Result<bool> {
    match std::fs::metadata(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
            Ok(true)
        }
        Err(e) => Err(Error::io(dir, e)),
        Ok(m) if !m.is_dir() => Err(Error::refused(
            format!(
                "refusing to build the demo in `{}`: it exists and is not a folder",
                dir.display()
            ),
            Some("name a new folder, or an empty one, with `--keep`".to_string()),
        )),
        Ok(_) => {
            let mut entries = std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))?;
            if entries.next().is_some() {
                return Err(Error::refused(
                    format!(
                        "refusing to build the demo in `{}`: the folder is not empty",
                        dir.display()
                    ),
                    Some("name a new folder, or an empty one, with `--keep`".to_string()),
                ));
            }
            Ok(false)
        }
    }
}

fn canonical(dir: &Path) -> Result<PathBuf> {
    std::fs::canonicalize(dir).map_err(|e| Error::io(dir, e))
}

/// The commands discover their repository as git does, honouring `GIT_DIR`
/// and `GIT_WORK_TREE`. Make sure that finds the demo repository and not the
/// one those variables name, so the demo never installs into a real project.
fn ensure_commands_reach(dir: &Path) -> Result<()> {
    let project = Project::discover(dir)?;
    let git_dir = std::fs::canonicalize(project.repo.git_dir()).ok();
    if project.workdir.as_deref() != Some(dir) || git_dir.as_deref() != Some(&dir.join(".git")) {
        return Err(Error::refused(
            "refusing to run the demo: `GIT_DIR` or `GIT_WORK_TREE` in the environment points git at another repository",
            Some("run `git standards demo` outside git hooks, or unset `GIT_DIR` and `GIT_WORK_TREE`".to_string()),
        ));
    }
    Ok(())
}

fn say(ctx: &mut Context, sentence: &str) -> Result<()> {
    writeln!(ctx.out, "{sentence}").map_err(Error::stdout)
}

/// Runs a command in `dir` and returns what it printed on stdout.
fn capture(
    ctx: &mut Context,
    dir: &Path,
    command: impl FnOnce(&mut Context) -> Result<()>,
) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    let mut inner = Context {
        cwd: dir.to_path_buf(),
        out: &mut out,
        err: &mut *ctx.err,
        color: ctx.color,
    };
    command(&mut inner)?;
    Ok(out)
}

/// Writes a command's output indented under the sentence that introduced it.
fn indent(ctx: &mut Context, output: &[u8]) -> Result<()> {
    for line in String::from_utf8_lossy(output).lines() {
        if line.is_empty() {
            writeln!(ctx.out)
        } else {
            writeln!(ctx.out, "    {line}")
        }
        .map_err(Error::stdout)?;
    }
    Ok(())
}

/// Prints `check`'s text report for the working tree in `dir`, pass or fail.
fn show_check(ctx: &mut Context, dir: &Path) -> Result<()> {
    let project = Project::discover(dir)?;
    let (report, source, _) =
        check::evaluate(&project, &check::Source::Worktree, Default::default())?;
    let mut out = Vec::new();
    check::print_text(&mut out, &report, &source, ctx.color)?;
    indent(ctx, &out)
}

/// Records a started cycle in STATE.md the way the Scoper does: only the named
/// fields change, every other byte stays.
fn start_cycle(dir: &Path, id: &str, request: &str) -> Result<()> {
    let path = dir.join(STATE_PATH);
    let text = std::fs::read_to_string(&path).map_err(|e| Error::io(&path, e))?;
    let mut doc = StateDoc::parse(&text)?;
    doc = doc.update(doc.active_work.id.span.clone(), id)?;
    doc = doc.update(doc.active_work.request.span.clone(), request)?;
    doc = doc.update(doc.cycle_mode.span.clone(), CycleMode::Standard.as_str())?;
    doc = doc.update(
        doc.active_work.completion_policy.span.clone(),
        CompletionPolicy::FullDeliverable.as_str(),
    )?;
    doc = doc.update(
        doc.active_work.scope.span.clone(),
        &layout::record_path(ArtifactType::Scope, None, id),
    )?;
    write::atomic_write(
        dir,
        STATE_PATH,
        doc.render().as_bytes(),
        write::Existing::Replace,
    )
}
