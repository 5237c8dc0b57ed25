//! `git standards artifact init`: creates one record of the active cycle at
//! its fixed path and prints that path (RT §3, RF §6, §7). The header comes
//! from the templates embedded in the binary (decision D5). An existing file
//! is never overwritten.

use crate::commands::Context;
use crate::error::{Error, Result};
use crate::repo::journal::{self, Change};
use crate::repo::write;
use crate::support::{audit, runtime};
use clap::{Subcommand, ValueEnum};
use standards_core::assets;
use standards_core::audit::{Event, EventKind};
use standards_core::model::fields::Field;
use standards_core::model::state::StateDoc;
use standards_core::model::tree::{obstacle, Node, Obstacle, Tree};
use standards_core::model::vocab::{ArtifactType, CycleMode, ReviewKind};
use standards_core::model::{cycle_id, layout};
use standards_core::records::edit;
use standards_core::records::provenance::{self, Marking, Provenance};
use standards_core::records::record;
use standards_core::workflow::transition::record_path::{record_path, RecordPath};

#[derive(Debug, Subcommand)]
pub enum ArtifactCommand {
    /// Create the active cycle's record of a type at its fixed path and print the path.
    ///
    /// Never overwrites: a re-run for the same record prints the path and
    /// leaves the file unchanged; any other file at the path is a collision.
    ///
    /// SCOPE, ARCHITECTURE and DEVELOPMENT records are named in STATE.md's
    /// `Active Work` (`Scope`, `Architecture`, `Development`), which the owning
    /// role must fill before its gate passes: when that field is `NONE`, the
    /// command writes the record's path there, together with the record as
    /// one journaled operation (only that field's bytes change; a re-run
    /// completes a record that exists without its path). A field that names
    /// another artifact, such as an unmarked project document the role chose,
    /// is left as it is and a note says so; an EXPEDITED cycle keeps `Scope`
    /// and `Architecture` `NONE`. Other records have no field.
    ///
    /// The path is relative to the current folder (as git prints paths); with
    /// `--json` it is relative to the project's top. A line on stderr names
    /// the header fields that still hold the template's choices, which the
    /// record's owner fills in next (`--json`: `owner` and `unfilled`).
    Init(ArtifactInitArgs),
}

#[derive(Debug, clap::Args)]
pub struct ArtifactInitArgs {
    /// The record type.
    #[arg(value_enum, ignore_case = true, value_name = "TYPE")]
    pub artifact: ArtifactArg,
    /// The review kind; required for REVIEW and only for REVIEW
    /// (IMPLEMENTATION or FINAL_DELIVERABLE).
    #[arg(long, value_name = "IMPLEMENTATION|FINAL_DELIVERABLE")]
    pub kind: Option<String>,
    /// A header value, `Field=VALUE` (repeatable), checked against the record type's vocabulary, e.g. `--set Mode=AUTONOMOUS`.
    #[arg(long = "set", value_name = "Field=VALUE")]
    pub set: Vec<String>,
    /// Also write the record's sections with one item of each structured part (an AC condition, a DEV step, a finding, an evidence row, a discrepancy), whose placeholders `check` reports until they are replaced.
    #[arg(long)]
    pub skeleton: bool,
    /// Print `{"ok": true, "path": "<record>", "created": <bool>, "stateField": "Active Work.<field>" | null}` (stateField: the field this run wrote the path to); a refusal prints `{"ok": false, "error", "hint"}`.
    #[arg(long)]
    pub json: bool,
}

/// Record types, spelled exactly as in provenance blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ArtifactArg {
    #[value(name = "SCOPE")]
    Scope,
    #[value(name = "ARCHITECTURE")]
    Architecture,
    #[value(name = "DEVELOPMENT")]
    Development,
    #[value(name = "VERIFICATION")]
    Verification,
    #[value(name = "REVIEW")]
    Review,
    #[value(name = "DOCUMENTATION")]
    Documentation,
    #[value(name = "SYNCHRONIZATION")]
    Synchronization,
}

impl From<ArtifactArg> for ArtifactType {
    fn from(a: ArtifactArg) -> Self {
        match a {
            ArtifactArg::Scope => ArtifactType::Scope,
            ArtifactArg::Architecture => ArtifactType::Architecture,
            ArtifactArg::Development => ArtifactType::Development,
            ArtifactArg::Verification => ArtifactType::Verification,
            ArtifactArg::Review => ArtifactType::Review,
            ArtifactArg::Documentation => ArtifactType::Documentation,
            ArtifactArg::Synchronization => ArtifactType::Synchronization,
        }
    }
}

/// `artifact init` arguments as a validated request (RT §3.1): REVIEW needs a
/// kind and only REVIEW takes one; these come before the kind's value check.
pub fn artifact_init_request(
    a: ArtifactInitArgs,
) -> Result<crate::commands::artifact::InitRequest> {
    let artifact = ArtifactType::from(a.artifact);
    let kind = match (artifact, a.kind) {
        (ArtifactType::Review, None) => {
            return Err(Error::usage(
                "REVIEW needs `--kind IMPLEMENTATION` or `--kind FINAL_DELIVERABLE` (see `git standards artifact init --help`)",
            ))
        }
        (ArtifactType::Review, Some(kind)) => Some(kind.to_ascii_uppercase().parse::<ReviewKind>().map_err(|_| {
            Error::usage(format!(
                "`{kind}` is not a review kind: use `--kind IMPLEMENTATION` or `--kind FINAL_DELIVERABLE`"
            ))
        })?),
        (other, Some(_)) => {
            return Err(Error::usage(format!(
                "`--kind` is only for REVIEW; a {other} record has no review kind"
            )))
        }
        (_, None) => None,
    };
    Ok(crate::commands::artifact::InitRequest { artifact, kind })
}

/// A validated `artifact init` request: `kind` is set exactly for `REVIEW`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InitRequest {
    pub artifact: ArtifactType,
    pub kind: Option<ReviewKind>,
}

impl InitRequest {
    /// `TYPE`, or `REVIEW/KIND` for reviews.
    pub fn label(&self) -> String {
        match self.kind {
            Some(kind) => format!("{}/{kind}", self.artifact),
            None => self.artifact.to_string(),
        }
    }

    fn command(&self) -> String {
        match self.kind {
            Some(kind) => format!(
                "git standards artifact init {} --kind {kind}",
                self.artifact
            ),
            None => format!("git standards artifact init {}", self.artifact),
        }
    }
}

/// What `artifact init` writes beyond the template's header: header values
/// (`--set Field=VALUE`, validated against the record type's vocabulary) and
/// the one-item skeleton of the record's structured parts (`--skeleton`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Fill {
    pub sets: Vec<(String, String)>,
    pub skeleton: bool,
}

impl Fill {
    /// Parses and validates `--set` values for a record type: an unknown
    /// field or a value outside the vocabulary is a usage error naming the
    /// field, the allowed values and the record type.
    pub fn parse(artifact: ArtifactType, sets: &[String], skeleton: bool) -> Result<Fill> {
        let mut out = Vec::new();
        for text in sets {
            let (name, value) =
                edit::parse_assignment(text).map_err(|e| Error::usage(format!("--set: {e}")))?;
            edit::validate_header(artifact, &name, &value)
                .map_err(|e| Error::usage(format!("--set {name}={value}: {e}")))?;
            out.push((name, value));
        }
        Ok(Fill {
            sets: out,
            skeleton,
        })
    }

    fn is_empty(&self) -> bool {
        self.sets.is_empty() && !self.skeleton
    }

    /// The new record's text with the header values and the skeleton.
    fn apply(&self, content: &str, artifact: ArtifactType, doc: &StateDoc) -> Result<String> {
        let mut text = content.to_string();
        for (name, value) in &self.sets {
            text = edit::set_header_field(&text, artifact, name, value)
                .map_err(|e| Error::usage(format!("--set {name}={value}: {e}")))?
                .text;
        }
        if self.skeleton {
            let aw = &doc.active_work;
            text.push_str(&edit::skeleton(
                artifact,
                doc.cycle_mode.value == CycleMode::Expedited,
                (&aw.scope.value, &aw.architecture.value, &aw.request.value),
            ));
        }
        Ok(text)
    }
}

/// What `artifact init` does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Plan {
    /// Create the record at `path` (project-relative) with `content`.
    Create { path: String, content: String },
    /// This cycle's record of that type is already there: leave it untouched.
    Exists { path: String },
}

impl Plan {
    pub fn path(&self) -> &str {
        match self {
            Plan::Create { path, .. } | Plan::Exists { path } => path,
        }
    }
}

/// Decides what `artifact init` does against `tree`.
pub fn plan(tree: &dyn Tree, request: &InitRequest) -> Result<Plan> {
    let state = runtime::load_state(tree)?;
    let Some(id) = state.active_cycle_id() else {
        let why = if state.active_work.id.value == "UNSET" {
            "`Active Work.Id` is `UNSET`".to_string()
        } else {
            format!(
                "the last cycle `{}` is `{}`",
                state.active_work.id.value, state.workflow_state.value
            )
        };
        return Err(Error::refused(
            format!(
                "there is no active cycle ({why}), so there is no cycle to create a {} record for",
                request.label()
            ),
            Some(
                "start a cycle first with `git standards start --request \"<request>\"`"
                    .to_string(),
            ),
        ));
    };
    if !cycle_id::is_lenient(id) {
        return Err(Error::refused(
            format!("STATE.md's `Active Work.Id` `{id}` is not a valid cycle ID, so no record path can be formed from it"),
            Some("cycle IDs are never typed or edited: put back the issued one from the last commit (`git restore --source=HEAD --staged --worktree .standards/STATE.md`); a new cycle gets its ID from `start`".to_string()),
        ));
    }
    let omitted = matches!(
        (request.artifact, request.kind),
        (ArtifactType::Development, _)
            | (ArtifactType::Verification, _)
            | (ArtifactType::Review, Some(ReviewKind::Implementation))
    );
    if state.cycle_mode.value == CycleMode::Documentation && omitted {
        return Err(Error::refused(
            format!(
                "the cycle `{id}` is a DOCUMENTATION cycle, which omits the {} record: a documentation cycle creates no current-cycle record for an omitted owner",
                request.label()
            ),
            Some("a documentation cycle runs AUDITING, SCOPING, ARCHITECTING, DOCUMENTING, REVIEWING_FINAL and SYNCHRONIZING; create only their records".to_string()),
        ));
    }

    let path = layout::record_path(request.artifact, request.kind, id);
    let wanted = Provenance {
        artifact: request.artifact,
        cycle: id.to_string(),
        review_kind: request.kind,
    };
    if let Some(found) = obstacle(tree, &path) {
        let (what, hint) = match &found {
            Obstacle::Symlink(c) => (
                "is a symbolic link, not a normal folder",
                format!("records are never written through links: replace `{c}` with a real folder inside the repository"),
            ),
            Obstacle::NotAFolder(c) => (
                "is not a normal folder",
                format!("move `{c}` out of the way so a folder can take its place"),
            ),
        };
        return Err(Error::refused(
            format!(
                "refusing to create `{path}`: `{}` {what}",
                found.component()
            ),
            Some(hint),
        ));
    }
    let collision = |why: String| {
        Error::refused(
            format!(
                "`{path}` already exists and is not cycle `{id}`'s {} record: {why}; it was left unchanged",
                request.label()
            ),
            Some(format!(
                "resolve the collision (move or rename that entry), then run `{}` again",
                request.command()
            )),
        )
    };
    match tree.node(&path) {
        Node::Missing => Ok(Plan::Create {
            content: assets::new_record(request.artifact, request.kind, id),
            path,
        }),
        Node::File(bytes) => match String::from_utf8(bytes) {
            Err(_) => Err(collision("it is not UTF-8 text".into())),
            Ok(text) => match provenance::parse(&text) {
                Marking::Valid(p) if p == wanted => Ok(Plan::Exists { path }),
                Marking::Valid(p) => Err(collision(describe_other(&p, &wanted))),
                Marking::Unmarked => Err(collision("it has no STANDARDS provenance block".into())),
                Marking::Malformed(reason) => Err(collision(format!(
                    "its provenance block is malformed ({reason})"
                ))),
            },
        },
        Node::Symlink => Err(collision(
            "it is a symbolic link; records are regular files".into(),
        )),
        Node::Dir => Err(collision("it is a folder".into())),
        Node::Unreadable(why) => Err(collision(format!("it cannot be read ({why})"))),
    }
}

/// How a valid block differs from the wanted one.
fn describe_other(found: &Provenance, wanted: &Provenance) -> String {
    if found.cycle != wanted.cycle {
        format!("it belongs to the cycle `{}`", found.cycle)
    } else if found.artifact != wanted.artifact {
        format!("it is a {} record", found.artifact)
    } else {
        match found.review_kind {
            Some(kind) => format!("it is a {kind} review"),
            None => "its review kind differs".to_string(),
        }
    }
}

/// The crash points of `artifact init` creating a record alone: the record
/// and its event, journaled (issue 21), so the journal's points.
pub const FAILPOINTS: &[&str] = JOURNAL_FAILPOINTS;

/// The crash points of `artifact init` creating a record whose path it also
/// writes into `Active Work` (D22: the two files through the journal).
pub const JOURNAL_FAILPOINTS: &[&str] = &[
    "artifact-init:journal-staged",
    "artifact-init:journal-begun",
    "artifact-init:step-applied",
    "artifact-init:step-recorded",
    "artifact-init:journal-closing",
];

/// Runs `artifact init`: creates the record (never over an existing file)
/// and, for the scope, design and development records, writes its path into
/// the `Active Work` field when that is `NONE`, in one journaled operation;
/// a field naming another artifact (the role's choice) is left as it is.
pub fn run_init(ctx: &mut Context, request: &InitRequest, fill: &Fill, json: bool) -> Result<()> {
    let command = request.command();
    let command = command.trim_start_matches("git standards ");
    let json_flag = if json { " --json" } else { "" };
    let (rt, _lock) = runtime::open_locked(
        &ctx.cwd,
        Some(&format!("{command}{json_flag}")),
        "artifact-init",
    )?;
    // D22: never write beside an interrupted multi-file operation.
    crate::repo::journal::refuse_if_pending(&rt.project)?;
    crate::support::conflicts::refuse_during_conflict(ctx, &rt.project, "artifact init")?;
    let mut plan = plan(&rt.tree, request)?;
    let doc = runtime::load_state(&rt.tree)?;
    match &mut plan {
        Plan::Create { content, .. } if !fill.is_empty() => {
            *content = fill.apply(content, request.artifact, &doc)?;
        }
        Plan::Exists { path } if !fill.is_empty() => {
            let shown = ctx.shown(&rt.project, path);
            return Err(Error::refused(
                format!("`{shown}` already exists; `--set` and `--skeleton` only shape a new record, and the existing one was left unchanged"),
                Some(super::record::existing_record_hint(&shown)),
            ));
        }
        _ => {}
    }
    let field = record_path(&doc, request.artifact, plan.path())
        .map_err(|r| Error::refused(format!("refused: {r}"), r.hint))?;
    let new_state = match &field {
        RecordPath::Set { doc, .. } => Some(doc.render().to_string()),
        _ => None,
    };
    let mut wrote_state = false;
    let cycle = audit::active_cycle(&rt.tree);
    let set_field = match &field {
        RecordPath::Set { field, .. } => Some(*field),
        _ => None,
    };
    if let Plan::Create { path, content } = &plan {
        // Issue 21: the event is the journal's last step, so the record lands
        // with its event (after a crash, through `recover`) or not at all.
        let event = created_event(&rt.project, request, path, content, set_field, &cycle);
        let mut changes = vec![Change::create(path.clone(), content.as_bytes())];
        if let Some(state) = &new_state {
            changes.push(Change::write(layout::STATE_PATH, state.as_bytes()));
        }
        changes.push(audit::journalled(&rt.project, event).0);
        let created = journal::write_all(
            &rt.project,
            "artifact-init",
            changes,
            serde_json::json!({"record": path}),
        )
        .map(|()| wrote_state = new_state.is_some());
        match created {
            Ok(()) => {}
            // Another program created the file meanwhile (every `artifact
            // init` holds the workflow lock): if what it wrote is this
            // record, that is success; otherwise the usual collision.
            Err(Error::AlreadyExists { .. }) => {
                let again = runtime::open(&ctx.cwd)?;
                plan = self::plan(&again.tree, request)?;
                if let Plan::Create { path, .. } = &plan {
                    return Err(Error::refused(
                        format!("`{path}` appeared and vanished again while it was being created"),
                        Some(
                            "another program is changing `.standards/docs/`; run the command again"
                                .to_string(),
                        ),
                    ));
                }
            }
            Err(e) => return Err(e),
        }
    }
    let mut filled = false;
    if let Plan::Exists { path } = &plan {
        // An init killed between linking the record and removing its
        // temporary name left that name behind: the re-run removes it.
        if let Some((dir, _)) = path.rsplit_once('/') {
            write::sweep_stale(&rt.root, dir);
        }
        // A record that exists while its field is still `NONE` (created by
        // hand or by an older version): one file changes, STATE.md, with
        // its event as the journal's last step.
        if let (Some(state), Some(field), false) = (&new_state, set_field, wrote_state) {
            let now = runtime::load_state(&runtime::open(&ctx.cwd)?.tree)?;
            if now.render() == doc.render() {
                let mut event = Event::new(EventKind::RecordPathRecorded)
                    .detail("path", rt.project.repo_path(path))
                    .detail("type", request.artifact.to_string())
                    .detail("state_field", field);
                if let Some(cycle) = &cycle {
                    event = event.cycle(cycle.as_str());
                }
                journal::write_all(
                    &rt.project,
                    "artifact-init",
                    vec![
                        Change::write(layout::STATE_PATH, state.as_bytes()),
                        audit::journalled(&rt.project, event).0,
                    ],
                    serde_json::json!({"record": path}),
                )?;
                filled = true;
            }
        }
    }
    let state_field = match &field {
        RecordPath::Set { field, .. } if wrote_state || filled => Some(*field),
        _ => None,
    };
    if let RecordPath::Elsewhere { field, current } = &field {
        writeln!(
            ctx.err,
            "`{field}` names `{current}`, not this record; it was left as it is (the owning role decides which artifact the cycle uses, and changes the field when it adopts this record)."
        )
        .map_err(|e| Error::io("<stderr>", e))?;
    }
    let created = matches!(plan, Plan::Create { .. });
    let text = match &plan {
        Plan::Create { content, .. } => Some(content.clone()),
        Plan::Exists { path } => match rt.tree.node(path) {
            standards_core::model::tree::Node::File(bytes) => String::from_utf8(bytes).ok(),
            _ => None,
        },
    };
    let unfilled = text
        .as_deref()
        .map(record::unfilled_header_fields)
        .unwrap_or_default();
    let owner = request.artifact.role().to_string();
    let shown = ctx.shown(&rt.project, plan.path());
    super::print_result(
        ctx.out,
        json,
        &shown,
        serde_json::json!({
            "ok": true,
            "path": plan.path(),
            "created": created,
            "stateField": state_field,
            "owner": owner,
            "unfilled": unfilled
                .iter()
                .map(|f| serde_json::json!({"field": f.name, "value": f.value}))
                .collect::<Vec<_>>(),
        }),
    )?;
    if !json {
        if let Some(next) = next_step(&owner, &unfilled, created) {
            writeln!(ctx.err, "{next}").map_err(|e| Error::io("<stderr>", e))?;
        }
    }
    Ok(())
}

/// The `record-created` event of a record `artifact init` creates.
fn created_event(
    project: &crate::repo::Project,
    request: &InitRequest,
    path: &str,
    content: &str,
    state_field: Option<&'static str>,
    cycle: &Option<String>,
) -> Event {
    let blob = crate::repo::refs::blob_id(project, content.as_bytes())
        .map(|id| id.to_string())
        .ok();
    let mut event = Event::new(EventKind::RecordCreated)
        .detail("path", project.repo_path(path))
        .detail("blob", blob)
        .detail("type", request.artifact.to_string());
    if let Some(kind) = request.kind {
        event = event.detail("kind", kind.to_string());
    }
    if let Some(field) = state_field {
        event = event.detail("state_field", field);
    }
    if let Some(cycle) = cycle {
        event = event.cycle(cycle.as_str());
    }
    event
}

/// What the owner does next with the record: the header fields that still
/// hold the template's choices, each with them; `None` when a record that
/// was already there has nothing left to fill.
fn next_step(owner: &str, unfilled: &[Field], created: bool) -> Option<String> {
    if unfilled.is_empty() {
        return created.then(|| {
            format!("Next: the {owner} writes the record's content below its provenance block.")
        });
    }
    let list = standards_core::model::fields::listing(unfilled);
    let (noun, them) = if unfilled.len() == 1 {
        ("field", "it")
    } else {
        ("fields", "them")
    };
    Some(format!(
        "Next: the {owner} fills in the header {noun} {list}, choosing one value each; `git standards check` reports {them} as not filled in yet until then."
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use standards_core::model::layout::STATE_PATH;
    use standards_core::model::state::fresh_template;
    use standards_core::model::tree::MemTree;
    use standards_core::model::vocab::ProjectMode;

    const ID: &str = "search-20260927T190146Z-7bef0f04";

    fn state(workflow: &str, mode: &str, id: &str) -> String {
        fresh_template(ProjectMode::Brownfield)
            .replace(
                "`WorkflowState`: `AUDITING`",
                &format!("`WorkflowState`: `{workflow}`"),
            )
            .replace("`CycleMode`: `UNSET`", &format!("`CycleMode`: `{mode}`"))
            .replace("`Id`: `UNSET`", &format!("`Id`: `{id}`"))
    }

    fn active(mode: &str) -> MemTree {
        MemTree::new().with(STATE_PATH, state("TESTING", mode, ID))
    }

    fn req(artifact: ArtifactType, kind: Option<ReviewKind>) -> InitRequest {
        InitRequest { artifact, kind }
    }

    #[test]
    fn creates_each_record_at_its_fixed_path() {
        let t = active("STANDARD");
        for artifact in ArtifactType::ALL {
            let kinds: &[Option<ReviewKind>] = if *artifact == ArtifactType::Review {
                &[
                    Some(ReviewKind::Implementation),
                    Some(ReviewKind::FinalDeliverable),
                ]
            } else {
                &[None]
            };
            for kind in kinds {
                let r = req(*artifact, *kind);
                match plan(&t, &r).unwrap() {
                    Plan::Create { path, content } => {
                        assert_eq!(path, layout::record_path(*artifact, *kind, ID));
                        assert_eq!(content, assets::new_record(*artifact, *kind, ID));
                    }
                    other => panic!("{other:?}"),
                }
            }
        }
    }

    #[test]
    fn an_existing_record_of_this_cycle_is_kept() {
        let path = layout::record_path(ArtifactType::Verification, None, ID);
        let t = active("STANDARD").with(
            &path,
            assets::new_record(ArtifactType::Verification, None, ID) + "\nfilled in\n",
        );
        assert_eq!(
            plan(&t, &req(ArtifactType::Verification, None)).unwrap(),
            Plan::Exists { path }
        );
    }

    #[test]
    fn collisions_say_what_is_there() {
        let path = layout::record_path(ArtifactType::Verification, None, ID);
        let cases = [
            (
                "# Notes kept by the team\n".to_string(),
                "no STANDARDS provenance block",
            ),
            (
                "<!-- STANDARDS\nArtifact: VERIFICATION\n".to_string(),
                "malformed",
            ),
            (
                assets::new_record(ArtifactType::Verification, None, "other-1"),
                "belongs to the cycle `other-1`",
            ),
            (
                assets::new_record(ArtifactType::Scope, None, ID),
                "it is a SCOPE record",
            ),
        ];
        for (content, expected) in cases {
            let t = active("STANDARD").with(&path, &content);
            let e = plan(&t, &req(ArtifactType::Verification, None))
                .unwrap_err()
                .to_string();
            assert!(e.contains(expected), "{e}");
            assert!(e.contains("left unchanged"), "{e}");
            assert!(e.contains(&path), "{e}");
        }
        let review =
            layout::record_path(ArtifactType::Review, Some(ReviewKind::Implementation), ID);
        let t = active("STANDARD").with(
            &review,
            assets::new_record(ArtifactType::Review, Some(ReviewKind::FinalDeliverable), ID),
        );
        let e = plan(
            &t,
            &req(ArtifactType::Review, Some(ReviewKind::Implementation)),
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("it is a FINAL_DELIVERABLE review"), "{e}");
        assert!(e.contains("REVIEW/IMPLEMENTATION"), "{e}");
        let t = active("STANDARD").with(&path, b"\xff\xfe");
        assert!(plan(&t, &req(ArtifactType::Verification, None))
            .unwrap_err()
            .to_string()
            .contains("not UTF-8"));
        let mut t = active("STANDARD");
        t.insert_node(&path, Node::Symlink);
        assert!(plan(&t, &req(ArtifactType::Verification, None))
            .unwrap_err()
            .to_string()
            .contains("symbolic link"));
    }

    #[test]
    fn obstacles_on_the_way_are_named() {
        let mut t = active("STANDARD");
        t.insert_node(".standards/docs", Node::Symlink);
        let e = plan(&t, &req(ArtifactType::Scope, None))
            .unwrap_err()
            .to_string();
        assert!(e.contains("`.standards/docs` is a symbolic link"), "{e}");
        let t = active("STANDARD").with(".standards/docs/verification", "a file");
        let e = plan(&t, &req(ArtifactType::Verification, None))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("`.standards/docs/verification` is not a normal folder"),
            "{e}"
        );
    }

    #[test]
    fn documentation_cycles_omit_three_records() {
        let t = active("DOCUMENTATION");
        for (r, label) in [
            (req(ArtifactType::Development, None), "DEVELOPMENT"),
            (req(ArtifactType::Verification, None), "VERIFICATION"),
            (
                req(ArtifactType::Review, Some(ReviewKind::Implementation)),
                "REVIEW/IMPLEMENTATION",
            ),
        ] {
            let e = plan(&t, &r).unwrap_err().to_string();
            assert!(
                e.contains("DOCUMENTATION cycle") && e.contains(label),
                "{e}"
            );
        }
        for r in [
            req(ArtifactType::Scope, None),
            req(ArtifactType::Documentation, None),
            req(ArtifactType::Review, Some(ReviewKind::FinalDeliverable)),
            req(ArtifactType::Synchronization, None),
        ] {
            assert!(plan(&t, &r).is_ok());
        }
    }

    #[test]
    fn needs_an_active_cycle_with_a_usable_id() {
        let t = MemTree::new().with(STATE_PATH, fresh_template(ProjectMode::Brownfield));
        let e = plan(&t, &req(ArtifactType::Scope, None))
            .unwrap_err()
            .to_string();
        assert!(e.contains("no active cycle") && e.contains("UNSET"), "{e}");
        let t = MemTree::new().with(STATE_PATH, state("SIGNED_OFF", "UNSET", ID));
        let e = plan(&t, &req(ArtifactType::Scope, None))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("no active cycle") && e.contains("SIGNED_OFF"),
            "{e}"
        );
        let t = MemTree::new().with(STATE_PATH, state("SCOPING", "STANDARD", "bad/id"));
        let e = plan(&t, &req(ArtifactType::Scope, None))
            .unwrap_err()
            .to_string();
        assert!(e.contains("not a valid cycle ID"), "{e}");
    }
}
