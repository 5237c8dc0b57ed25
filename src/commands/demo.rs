//! `git standards demo`: a guided tour of the tool in a throwaway repository.
//! It creates the repository with gix (`repo::scratch`), installs the
//! runtime with the real `install` command and shows the result with the real `status` command.

use std::path::{Path, PathBuf};

use crate::commands::{
    artifact, check, install, log, merge_guard, reset, status, transition, Context,
};
use crate::error::{Error, Result};
use crate::repo::{scratch, write, Project};
use standards_core::model::fields;
use standards_core::model::layout;
use standards_core::model::vocab::{ArtifactType, ReviewKind, WorkflowState};

#[derive(Debug, clap::Args)]
pub struct DemoArgs {
    /// Build the demo in <dir>, which must be new or empty, and keep it afterwards.
    #[arg(long, value_name = "dir")]
    pub keep: Option<PathBuf>,
}

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

    let branch = scratch::init(&dir)?;
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
    show_status(ctx, &dir)?;
    say(
        ctx,
        "\nEvery STANDARDS role reads and updates this state; `git standards status --ref <branch>` shows it for any branch without a checkout.",
    )?;

    say(
        ctx,
        "\nChecking the state against every protocol rule, as `git standards check` does:",
    )?;
    show_check(ctx, &dir)?;

    walk_a_cycle(ctx, &dir)?;

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
    let git_dir = std::fs::canonicalize(project.git_dir()).ok();
    if project.workdir() != Some(dir) || git_dir.as_deref() != Some(&dir.join(".git")) {
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

/// Prints `status`'s dashboard for the working tree in `dir`, indented.
fn show_status(ctx: &mut Context, dir: &Path) -> Result<()> {
    let shown = capture(ctx, dir, |inner| {
        status::run(
            inner,
            &status::Request {
                source: status::Source::Worktree,
                format: status::Format::Text,
            },
        )
    })?;
    indent(ctx, &shown)
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

/// The small example records the demo fills in, one per role.
mod examples {
    pub const SCOPE: &str = "\n# Greeting\n\n## Work\n\n### 1. Greet\n\n**Done when:**\n\n- `AC-001`: Running the app prints a greeting.\n";
    pub const DESIGN: &str = "\n# Technical Design\n\n## Acceptance Coverage\n\n- `AC-001`: `app.py` prints the greeting with `print`.\n";
    pub const CONTEXT: &str = "# Project Context\n\n## Project Baseline\n\n- The project is new: it holds no implementation yet.\n";
    pub const PLAN: &str = "\n## Build Steps\n\n### DEV-001 — Print the greeting\n\n`Status`: `DONE` `Depends On`: `NONE`\n`Acceptance`: `AC-001`\n\n**Self-Check**\n\n`python3 app.py` prints the greeting.\n";
    pub const APP: &str = "print(\"Hello, world!\")\n";
    pub const REPORT: &str = "\n## Assessed Inputs\n\n- `app.py` at this commit.\n\n## Acceptance Evidence\n\n| AC / technical criterion | Tests or checks | Disposition and evidence |\n| --- | --- | --- |\n| AC-001 | `python3 app.py` | verified: prints the greeting |\n\n## Scenario Budget\n\n| Source file | Reused coverage | Active-change allocations | User additions |\n| --- | --- | --- | --- |\n| app.py | none | one run | none |\n\n## Execution Evidence\n\n`python3 app.py` exited 0.\n\n## Resume or Handoff\n\nVerification is complete.\n";
    pub const REVIEW: &str = "\n## Assessed Inputs and Scope\n\n- The plan, the report and `app.py`.\n\n## Contract and Evidence Assessment\n\n| Obligation / criterion | Assessed evidence | Current disposition |\n| --- | --- | --- |\n| AC-001 | report row AC-001 | satisfied |\n\n## Checks and Results\n\nRan `python3 app.py`.\n\n## Findings\n\nNo material findings.\n\n## Questions, Limitations, and Later Dependencies\n\nNONE\n\n## Progress and Conclusion\n\nThe implementation satisfies AC-001.\n";
    pub const DOCUMENTATION: &str = "\n## Assessed Inputs and Boundary\n\n- `app.py`.\n\n## Documentation Work and Evidence\n\n- AC-001: the README explains how to run the app.\n\n## Checks and Applicability\n\nNONE\n\n## Discrepancies, Dependencies, and Remaining Work\n\nNONE\n\n## Resume and Conclusion\n\nDocumentation is complete.\n";
    pub const README: &str = "# Greeting app\n\nRun `python3 app.py` to print a greeting.\n";
    pub const FINAL_REVIEW: &str = "\n## Assessed Inputs and Scope\n\n- The whole deliverable.\n\n## Contract and Evidence Assessment\n\n| Obligation / criterion | Assessed evidence | Current disposition |\n| --- | --- | --- |\n| AC-001 | code, report, README | satisfied |\n\n## Checks and Results\n\nRead the README and ran the app.\n\n## Findings\n\nNo material findings.\n\n## Questions, Limitations, and Later Dependencies\n\nNONE\n\n## Progress and Conclusion\n\nThe deliverable is complete.\n";
    pub const SYNC: &str = "\n## Assessed Inputs\n\n- Every record of the cycle.\n\n## Completion and Evidence References\n\n- AC-001: verified in the report, documented, reviewed.\n\n## Discrepancies and Dispositions\n\nNONE\n\n## Limitations and Remaining Work\n\nNONE\n\n## Resume and Synchronization Conclusion\n\nThe records agree.\n";
}

/// Walks a whole greenfield cycle with the transition commands, each role's
/// record filled from [`examples`]; `check` passes and a commit is made at
/// every step.
fn walk_a_cycle(ctx: &mut Context, dir: &Path) -> Result<()> {
    let mut step = Stepper {
        n: 0,
        shown_diff: false,
    };
    step.commit(ctx, dir, "Install the STANDARDS runtime")?;
    let main = scratch::current_branch(dir)?;
    say(
        ctx,
        &format!("\nA cycle runs on its own branch, so `{main}` keeps a fresh installation:"),
    )?;
    say(ctx, &format!("\n$ git switch -c {BRANCH}"))?;
    scratch::switch_to(dir, BRANCH, true)?;
    indent(
        ctx,
        format!("Switched to a new branch '{BRANCH}'\n").as_bytes(),
    )?;
    say(
        ctx,
        "\nA whole greenfield cycle follows, from `git standards start` to `git standards signoff`. Each role's record is filled from a small example, `check` passes after every step, and every step is committed.",
    )?;
    let request = "Build the greeting app";
    step.run(
        ctx,
        dir,
        &format!("git standards start --request \"{request}\""),
        |c| transition::start(c, Some(request.into()), None, None, false, false),
    )?;
    // `artifact init` records each new scope, design and plan path in `Active Work`.
    step.record(ctx, dir, ArtifactType::Scope, None, &[], examples::SCOPE)?;
    step.commit(ctx, dir, "Scoper: the scope, AC-001")?;

    step.handoff(
        ctx,
        dir,
        WorkflowState::Architecting,
        "The scope is complete.",
    )?;
    step.record(
        ctx,
        dir,
        ArtifactType::Architecture,
        None,
        &[],
        examples::DESIGN,
    )?;
    step.commit(ctx, dir, "Architect: the technical design")?;

    step.handoff(ctx, dir, WorkflowState::Auditing, "The design is complete.")?;
    write_file(dir, layout::CONTEXT_PATH, examples::CONTEXT)?;
    step.commit(ctx, dir, "Auditor: the project context")?;

    step.handoff(
        ctx,
        dir,
        WorkflowState::Developing,
        "The project context is current.",
    )?;
    step.record(
        ctx,
        dir,
        ArtifactType::Development,
        None,
        &[
            ("Mode", "AUTONOMOUS"),
            ("User Style", "NONE"),
            ("User Style Locked", "true"),
            ("Status", "COMPLETE"),
        ],
        examples::PLAN,
    )?;
    write_file(dir, "app.py", examples::APP)?;
    // The first implementation makes the project BROWNFIELD for good.
    write_file(
        dir,
        layout::MODE_PATH,
        &standards_core::model::mode::render(standards_core::model::vocab::ProjectMode::Brownfield),
    )?;
    step.commit(
        ctx,
        dir,
        "Developer: app.py, the plan; MODE.md is now BROWNFIELD",
    )?;

    step.handoff(ctx, dir, WorkflowState::Testing, "DEV-001 is implemented.")?;
    step.record(
        ctx,
        dir,
        ArtifactType::Verification,
        None,
        &[
            ("Mode", "VERIFY"),
            ("Status", "COMPLETE"),
            ("User Style", "NONE"),
        ],
        examples::REPORT,
    )?;
    step.commit(ctx, dir, "Tester: the verification report")?;

    step.handoff(
        ctx,
        dir,
        WorkflowState::ReviewingImplementation,
        "AC-001 is verified.",
    )?;
    step.record(
        ctx,
        dir,
        ArtifactType::Review,
        Some(ReviewKind::Implementation),
        &[("Status", "COMPLETE"), ("User Style", "NONE")],
        examples::REVIEW,
    )?;
    step.commit(ctx, dir, "Reviewer: the implementation review")?;

    step.handoff(
        ctx,
        dir,
        WorkflowState::Documenting,
        "The implementation review passed.",
    )?;
    step.record(
        ctx,
        dir,
        ArtifactType::Documentation,
        None,
        &[
            ("Status", "COMPLETE"),
            ("Collaboration", "AUTONOMOUS"),
            ("Target", "ACTIVE_CHANGE"),
            ("Target Detail", "the active cycle"),
            ("User Style", "NONE"),
        ],
        examples::DOCUMENTATION,
    )?;
    write_file(dir, "README.md", examples::README)?;
    step.commit(
        ctx,
        dir,
        "Documenter: README.md and the documentation record",
    )?;

    step.handoff(
        ctx,
        dir,
        WorkflowState::ReviewingFinal,
        "The documentation is complete.",
    )?;
    step.record(
        ctx,
        dir,
        ArtifactType::Review,
        Some(ReviewKind::FinalDeliverable),
        &[("Status", "COMPLETE"), ("User Style", "NONE")],
        examples::FINAL_REVIEW,
    )?;
    step.commit(ctx, dir, "Reviewer: the final-deliverable review")?;

    step.handoff(
        ctx,
        dir,
        WorkflowState::Synchronizing,
        "The final review passed.",
    )?;
    step.record(
        ctx,
        dir,
        ArtifactType::Synchronization,
        None,
        &[("Status", "COMPLETE"), ("User Style", "NONE")],
        examples::SYNC,
    )?;
    step.commit(ctx, dir, "Synchronizer: the synchronization record")?;

    step.handoff(
        ctx,
        dir,
        WorkflowState::AwaitingUserSignoff,
        "The records agree.",
    )?;
    step.run(ctx, dir, "git standards signoff", |c| {
        transition::signoff(c, false)
    })?;
    step.commit(ctx, dir, "The user signed off")?;

    say(
        ctx,
        "\nThe state after sign-off, as `git standards status` shows it:",
    )?;
    show_status(ctx, dir)?;
    say(
        ctx,
        &format!("\nBefore the branch merges into `{main}`, the cycle's state is reset there: its records stay in the branch's history and in an archive ref, and `{main}` receives a fresh installation. `--yes` confirms without a terminal, `--commit` commits the reset:"),
    )?;
    step.run(ctx, dir, "git standards reset --yes --commit", |c| {
        reset::run(
            c,
            &reset::Request {
                mode: None,
                dry_run: false,
                yes: true,
                commit: true,
            },
        )
    })?;
    say(
        ctx,
        &format!("\nThe merge guard lets only a fresh installation into `{main}` (the `pre-merge-commit` and `reference-transaction` hooks of `git standards hooks install` run it on every merge):"),
    )?;
    step.run(
        ctx,
        dir,
        &format!("git standards merge-guard {BRANCH} --into {main}"),
        |c| {
            merge_guard::run(
                c,
                &merge_guard::Request {
                    incoming: Some(BRANCH.to_string()),
                    into: Some(main.clone()),
                    ..Default::default()
                },
            )
        },
    )?;
    say(ctx, &format!("\n$ git switch {main}"))?;
    say(ctx, &format!("\n$ git merge --ff-only {BRANCH}"))?;
    scratch::fast_forward(dir, &main, BRANCH)?;
    indent(
        ctx,
        format!("Fast-forwarded `{main}` to `{BRANCH}`.\n").as_bytes(),
    )?;
    say(
        ctx,
        "\nEvery transition, the reset and the archive left an audit event in git notes, on no branch; `git standards log` lists them:",
    )?;
    step.run(ctx, dir, "git standards log", |c| {
        log::run(c, &log::Request::default())
    })?;
    Ok(())
}

/// The branch the demo's cycle runs on.
const BRANCH: &str = "greeting-app";

struct Stepper {
    n: usize,
    /// Whether a move's STATE.md diff was shown (once is enough to see it).
    shown_diff: bool,
}

impl Stepper {
    /// Runs one command in the demo repository, showing its output.
    fn run(
        &mut self,
        ctx: &mut Context,
        dir: &Path,
        shown: &str,
        command: impl FnOnce(&mut Context) -> Result<()>,
    ) -> Result<()> {
        say(ctx, &format!("\n$ {shown}"))?;
        let mut err = Vec::new();
        let mut out = Vec::new();
        {
            let mut inner = Context {
                cwd: dir.to_path_buf(),
                out: &mut out,
                err: &mut err,
                color: ctx.color,
            };
            command(&mut inner)?;
        }
        indent(ctx, &err)?;
        indent(ctx, &out)?;
        Ok(())
    }

    fn handoff(
        &mut self,
        ctx: &mut Context,
        dir: &Path,
        to: WorkflowState,
        reason: &str,
    ) -> Result<()> {
        let before = read_file(dir, layout::STATE_PATH)?;
        self.run(
            ctx,
            dir,
            &format!("git standards handoff --to {to} --reason \"{reason}\""),
            |c| transition::handoff(c, to, reason.to_string(), false, false),
        )?;
        if !self.shown_diff {
            self.shown_diff = true;
            let after = read_file(dir, layout::STATE_PATH)?;
            say(
                ctx,
                "\nThe move rewrote only the STATE.md lines that hold its fields; every other byte stayed (`git diff HEAD -- .standards/STATE.md`):",
            )?;
            let changed = changed_lines(&before, &after);
            indent(ctx, changed.as_bytes())?;
        }
        self.commit(ctx, dir, &format!("Hand off to {to}"))
    }

    /// `artifact init`, then the role fills the header fields and appends its content.
    fn record(
        &mut self,
        ctx: &mut Context,
        dir: &Path,
        artifact: ArtifactType,
        kind: Option<ReviewKind>,
        header: &[(&str, &str)],
        body: &str,
    ) -> Result<String> {
        let shown = match kind {
            Some(k) => format!("git standards artifact init {artifact} --kind {k}"),
            None => format!("git standards artifact init {artifact}"),
        };
        say(ctx, &format!("\n$ {shown}"))?;
        // The path on stdout, then the fields the role fills next (stderr).
        let (mut printed, mut next) = (Vec::new(), Vec::new());
        artifact::run_init(
            &mut Context {
                cwd: dir.to_path_buf(),
                out: &mut printed,
                err: &mut next,
                color: ctx.color,
            },
            &artifact::InitRequest { artifact, kind },
            &artifact::Fill::default(),
            false,
        )?;
        indent(ctx, &printed)?;
        indent(ctx, &next)?;
        let rel = String::from_utf8_lossy(&printed).trim().to_string();
        let mut text = read_file(dir, &rel)?;
        for (name, value) in header {
            text = set_first_field(&text, name, value);
        }
        text.push_str(body);
        write_file(dir, &rel, &text)?;
        Ok(rel)
    }

    /// Checks the working tree (it must pass) and commits everything.
    fn commit(&mut self, ctx: &mut Context, dir: &Path, message: &str) -> Result<()> {
        let project = Project::discover(dir)?;
        let (report, _, _) =
            check::evaluate(&project, &check::Source::Worktree, Default::default())?;
        if !report.ok() {
            let mut out = Vec::new();
            check::print_text(&mut out, &report, "the demo", false)?;
            return Err(Error::Internal(format!(
                "the demo's step `{message}` does not pass `check`:\n{}",
                String::from_utf8_lossy(&out)
            )));
        }
        self.n += 1;
        let id = scratch::commit_all(dir, message)?;
        say(
            ctx,
            &format!("  check passed; committed {} \"{message}\"", &id[..7]),
        )
    }
}

/// The lines that differ between `before` and `after`, as `-`/`+` lines in
/// the order a diff shows them (no context lines).
fn changed_lines(before: &str, after: &str) -> String {
    let diff = similar::TextDiff::from_lines(before, after);
    let mut out = String::new();
    for change in diff.iter_all_changes() {
        let sign = match change.tag() {
            similar::ChangeTag::Equal => continue,
            similar::ChangeTag::Delete => '-',
            similar::ChangeTag::Insert => '+',
        };
        out.push(sign);
        out.push_str(change.value().trim_end_matches('\n'));
        out.push('\n');
    }
    out
}

/// The value of the first `name` field of `text` set to `value`.
fn set_first_field(text: &str, name: &str, value: &str) -> String {
    let found = fields::scan(text);
    match fields::first(&found, name) {
        Some(f) => format!(
            "{}{}{}",
            &text[..f.span.start],
            fields::render_code_span(value),
            &text[f.span.end..]
        ),
        None => text.to_string(),
    }
}

fn read_file(dir: &Path, rel: &str) -> Result<String> {
    let path = dir.join(rel);
    std::fs::read_to_string(&path).map_err(|e| Error::io(&path, e))
}

fn write_file(dir: &Path, rel: &str, text: &str) -> Result<()> {
    let existing = if dir.join(rel).exists() {
        write::Existing::Replace
    } else {
        write::Existing::Refuse
    };
    write::atomic_write(dir, rel, text.as_bytes(), existing)
}
