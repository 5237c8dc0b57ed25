//! Dispatch: each parsed subcommand, its arguments turned into the command's
//! request, run with a [`Context`].

use std::path::PathBuf;

use super::args::Command;
use crate::commands::archive::ArchiveCommand;
use crate::commands::artifact::ArtifactCommand;
use crate::commands::cycle::CycleCommand;
use crate::commands::hook::HookCommand;
use crate::commands::hooks::HooksCommand;
use crate::commands::id::IdCommand;
use crate::commands::notes::NotesCommand;
use crate::commands::resolve::KeepArg;
use crate::commands::verify::VerifyFormat;
use crate::commands::{self, Context};
use crate::error::{Error, Result};

/// Runs a parsed subcommand.
pub(super) fn dispatch(command: Command, ctx: &mut Context) -> Result<()> {
    match command {
        Command::Check(a) => {
            let source = match (a.staged, a.rev) {
                (true, _) => commands::check::Source::Staged,
                (false, Some(rev)) => commands::check::Source::Rev(rev),
                (false, None) => commands::check::Source::Worktree,
            };
            commands::check::run(
                ctx,
                &commands::check::Request {
                    source,
                    json: a.json,
                    quiet: a.quiet,
                    options: standards_core::check::Options {
                        compat: a.compat,
                        ..Default::default()
                    },
                    allow_shallow: a.allow_shallow,
                    hook: a.hook,
                },
            )
        }
        Command::Install(a) => commands::install::run(
            ctx,
            &commands::install::Request {
                mode: a.mode.map(Into::into),
                dry_run: a.dry_run,
                clients: standards_core::setup::client_plan::Request {
                    choice: a.client.map(Into::into),
                    hooks: if a.no_hooks {
                        Some(false)
                    } else if a.hooks {
                        Some(true)
                    } else {
                        None
                    },
                    no_prompt: false,
                },
                json: a.json,
            },
        ),
        Command::Cycle(CycleCommand::New(a)) => {
            let json = a.json;
            commands::cycle::run_new(ctx, &commands::cycle::cycle_new_request(a)?, json)
        }
        Command::Artifact(ArtifactCommand::Init(a)) => {
            let json = a.json;
            let fill = commands::artifact::Fill::parse(a.artifact.into(), &a.set, a.skeleton)?;
            commands::artifact::run_init(
                ctx,
                &commands::artifact::artifact_init_request(a)?,
                &fill,
                json,
            )
        }
        Command::Record(a) => commands::record::run(ctx, a),
        Command::Id(IdCommand::Next(a)) => commands::id::run_next(
            ctx,
            &commands::id::NextRequest {
                prefix: a.prefix.into(),
                file: a.file,
            },
            a.json,
        ),
        Command::Status(a) => commands::status::run(
            ctx,
            &commands::status::Request {
                source: match (a.staged, a.rev) {
                    (_, Some(rev)) => commands::status::Source::Rev(rev),
                    (true, None) => commands::status::Source::Index,
                    (false, None) => commands::status::Source::Worktree,
                },
                format: match (a.json, a.quiet) {
                    (true, _) => commands::status::Format::Json,
                    (false, true) => commands::status::Format::Line,
                    (false, false) => commands::status::Format::Text,
                },
            },
        ),
        Command::Start(a) => commands::transition::start(
            ctx,
            a.request,
            a.mode,
            a.policy,
            a.cancelled_left_no_changes,
            a.json,
        ),
        Command::Handoff(a) => {
            commands::transition::handoff(ctx, a.to, a.reason, a.checkpoint, a.json)
        }
        Command::Fail(a) => commands::transition::fail(ctx, a.failure, a.reason, a.to, a.json),
        Command::Rework(a) => commands::transition::rework(ctx, a.failure, a.request, a.to, a.json),
        Command::Resume(a) => {
            commands::transition::resume(ctx, a.rerun_through, a.to, a.reason, a.json)
        }
        Command::Promote(a) => commands::transition::promote(ctx, a.reason, a.json),
        Command::Policy(a) => commands::transition::policy(ctx, a.policy, a.reason, a.json),
        Command::Cadence(a) => commands::transition::cadence(ctx, a.cadence, a.json),
        Command::Signoff(a) => commands::signoff::run(
            ctx,
            commands::signoff::Request {
                reply: a.reply,
                no_human_turn_check: a.no_human_turn_check,
            },
            a.json,
        ),
        Command::Cancel(a) => commands::transition::cancel(ctx, a.yes, a.json),
        Command::Block(a) => commands::transition::block(ctx, a.question, a.json),
        Command::Unblock(a) => commands::transition::unblock(ctx, a.json),
        Command::NextMode(a) => {
            commands::transition::next_mode(ctx, a.mode, a.cancelled_left_no_changes, a.json)
        }
        Command::Board(a) => commands::board::run(ctx, a),
        Command::Log(a) => commands::log::run(ctx, &commands::log::log_request(a)?),
        Command::Notes(NotesCommand::Sync(a)) => commands::notes::run_sync(
            ctx,
            &commands::notes::SyncRequest {
                remote: a.remote,
                dry_run: a.dry_run,
                json: a.json,
            },
        ),
        Command::Invocation(a) => commands::invocation::run(
            ctx,
            &commands::invocation::Request {
                role: a.role,
                client: a.client.map(Into::into),
                json: a.json,
                project: a.project,
            },
        ),
        Command::Demo(a) => commands::demo::run(ctx, &commands::demo::Request { keep: a.keep }),
        Command::Verify(a) => {
            use commands::verify::Format;
            let format = match a.format {
                Some(VerifyFormat::Text) => Format::Text,
                Some(VerifyFormat::Json) => Format::Json,
                Some(VerifyFormat::Github) => Format::Github,
                Some(VerifyFormat::Gitlab) => Format::Gitlab,
                Some(VerifyFormat::Sarif) => Format::Sarif,
                None if std::env::var("GITHUB_ACTIONS").as_deref() == Ok("true") => Format::Github,
                None => Format::Text,
            };
            commands::verify::run(
                ctx,
                &commands::verify::Request {
                    range: a.range,
                    into: a.into,
                    format,
                    progress: std::io::IsTerminal::is_terminal(&std::io::stderr()),
                    step_summary: std::env::var_os("GITHUB_STEP_SUMMARY")
                        .filter(|v| !v.is_empty())
                        .map(PathBuf::from),
                },
            )
        }
        Command::Hooks(c) => {
            use commands::hooks::{Action, Selection};
            let json = match &c {
                HooksCommand::Install(a) => a.json,
                HooksCommand::Uninstall(a) => a.json,
                HooksCommand::Status(_) => false,
            };
            let action = match c {
                HooksCommand::Install(a) => {
                    let any = a.pre_commit
                        || a.pre_merge_commit
                        || a.pre_push
                        || a.reference_transaction
                        || a.merge_driver;
                    Action::Install(if any {
                        let mut hooks = Vec::new();
                        for (on, name) in [
                            (a.pre_commit, "pre-commit"),
                            (a.pre_merge_commit, "pre-merge-commit"),
                            (a.pre_push, "pre-push"),
                            (a.reference_transaction, "reference-transaction"),
                        ] {
                            if on {
                                hooks.push(name);
                            }
                        }
                        Selection {
                            hooks,
                            merge_driver: a.merge_driver,
                        }
                    } else {
                        Selection::default_set()
                    })
                }
                HooksCommand::Uninstall(_) => Action::Uninstall,
                HooksCommand::Status(a) => Action::Status { json: a.json },
            };
            if json {
                commands::hooks::run_json(ctx, &action)
            } else {
                commands::hooks::run(ctx, &action)
            }
        }
        Command::MergeGuard(a) => commands::merge_guard::run(
            ctx,
            &commands::merge_guard::Request {
                incoming: a.branch,
                into: a.into,
                quiet: a.quiet,
                json: a.json,
                from: a.from,
            },
        ),
        Command::Manpages(a) => commands::manpages::run(
            ctx,
            &commands::manpages::Request {
                install: a.install,
                pages: super::manual::pages().into_iter().collect(),
            },
        ),
        Command::Completions(a) => {
            commands::completions::run(ctx, &super::manual::completions(a.shell))
        }
        Command::Reset(a) => commands::reset::run_json(
            ctx,
            &commands::reset::Request {
                mode: a.mode.map(Into::into),
                dry_run: a.dry_run,
                yes: a.yes,
                commit: a.commit,
            },
            a.json,
        ),
        Command::Archive(ArchiveCommand::List { json }) => commands::archive::run_list(ctx, json),
        Command::Archive(ArchiveCommand::Show { name, path, json }) => {
            commands::archive::run_show(ctx, &name, path.as_deref(), json)
        }
        Command::Archive(ArchiveCommand::Restore { name, paths, json }) => {
            commands::archive::run_restore(ctx, &name, &paths, json)
        }
        Command::Uninstall(a) => commands::uninstall::run(
            ctx,
            &commands::uninstall::Request {
                dry_run: a.dry_run,
                yes: a.yes,
                json: a.json,
            },
        ),
        Command::Recover(a) => commands::recover::run(
            ctx,
            &commands::recover::Request {
                rollback: a.rollback,
                json: a.json,
            },
        ),
        Command::Hook(HookCommand::Stop(a)) => {
            commands::hook::run_on_stdin(ctx, commands::hook::run_stop, a.client.map(Into::into))
        }
        Command::Hook(HookCommand::SessionStart(a)) => commands::hook::run_on_stdin(
            ctx,
            commands::agent_hook::run_session_start,
            a.client.map(Into::into),
        ),
        Command::Hook(HookCommand::EditGuard(a)) => commands::hook::run_on_stdin(
            ctx,
            commands::agent_hook::run_edit_guard,
            a.client.map(Into::into),
        ),
        Command::Hook(HookCommand::PromptSubmit(a)) => commands::hook::run_on_stdin(
            ctx,
            commands::agent_hook::run_prompt_submit,
            a.client.map(Into::into),
        ),
        Command::Hook(HookCommand::PreCommit(a)) => {
            commands::hook::run_pre_commit(ctx, a.hook, &mut |e, err| {
                super::report_error(e, err);
            })
        }
        Command::Hook(HookCommand::PreReceive(a)) => {
            use std::io::Read;
            let mut bytes = Vec::new();
            std::io::stdin()
                .read_to_end(&mut bytes)
                .map_err(|e| Error::io("<stdin>", e))?;
            // Ref names are bytes to git; one that is not UTF-8 is shown lossily.
            let updates = commands::server_hook::parse_updates(&String::from_utf8_lossy(&bytes))?;
            commands::server_hook::run(
                ctx,
                &commands::server_hook::Request {
                    hook: commands::server_hook::Hook::PreReceive,
                    updates,
                    json: a.json,
                },
            )
        }
        Command::Hook(HookCommand::Update(a)) => {
            let update = commands::server_hook::update(&a.refname, &a.old, &a.new)?;
            commands::server_hook::run(
                ctx,
                &commands::server_hook::Request {
                    hook: commands::server_hook::Hook::Update,
                    updates: vec![update],
                    json: a.json,
                },
            )
        }
        Command::Resolve(a) => {
            use std::io::IsTerminal;
            let request = commands::resolve::Request {
                keep: match a.keep {
                    KeepArg::Ours => commands::resolve::Keep::Ours,
                    KeepArg::Theirs => commands::resolve::Keep::Theirs,
                },
                yes: a.yes,
                json: a.json,
            };
            let stdin = std::io::stdin();
            if stdin.is_terminal() && std::io::stderr().is_terminal() {
                commands::resolve::run(ctx, &request, Some(&mut stdin.lock()))
            } else {
                commands::resolve::run(ctx, &request, None)
            }
        }
        Command::MergeDriver(a) => commands::merge_driver::run(
            ctx,
            &commands::merge_driver::Request {
                base: a.base,
                ours: a.ours,
                theirs: a.theirs,
                path: a.path,
            },
        ),
    }
}
