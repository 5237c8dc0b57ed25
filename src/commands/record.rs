//! `git standards record add` and `git standards record set`: the structural
//! edits of a cycle record that the tool owns (issue 25). `add` writes a
//! numbered item (an `AC-NNN` condition, a `DEV-NNN` step, an `F-NNN`
//! finding, a `D-NNN` discrepancy, a `DOC-NNN` entry) with the next free
//! identifier, as `id next` hands them out, at the end of its section;
//! `set` changes header or item fields, validated against the record
//! format's vocabulary. Everything else in the file keeps its bytes.
//!
//! Both run under the per-worktree lock from reading the record to the last
//! rename, refuse during a merge conflict in `.standards/`, and write the
//! record and its `record-edited` event through the journal.

use std::path::PathBuf;

use clap::builder::{PossibleValuesParser, TypedValueParser};

use crate::commands::{id, Context};
use crate::error::{Error, Result};
use crate::repo::journal::{self, Change};
use crate::support::{audit, runtime};
use standards_core::audit::{Event, EventKind};
use standards_core::model::tree::{obstacle, Node, Obstacle, Tree};
use standards_core::model::vocab::{ArtifactType, CycleMode, IdPrefix};
use standards_core::records::edit::{self, EditError};
use standards_core::records::numbering;
use standards_core::records::provenance::{self, Marking};

/// `git standards record <add|set>`.
#[derive(Debug, clap::Subcommand)]
pub enum RecordCommand {
    /// Add a numbered item to a record with the next free identifier and print it.
    ///
    /// The item goes at the end of its section, in the record format's form:
    /// an `AC` condition is a list item under `## Work` of the scope; `DEV`
    /// steps go under `## Build Steps` of the development plan, `F` findings
    /// under `## Findings` of a review report, `DOC` entries under `## Discrepancies,
    /// Dependencies, and Remaining Work` of the documentation record, `D`
    /// discrepancies under `## Discrepancies and Dispositions` of the
    /// synchronization record. A missing section is created where the format
    /// puts it. Fields not given with --set get their starting value (a step
    /// `PENDING`, depending on `NONE`; a finding, discrepancy or entry `OPEN`)
    /// or a placeholder that `git standards check` reports until it is
    /// replaced (PR-049). The identifier is numbered as `git standards id
    /// next` would. Every other byte of the record is kept.
    ///
    /// With --json: `{"ok": true, "id", "file", "dryRun", "diff"}`; a refusal
    /// prints `{"ok": false, "error", "hint"}`.
    Add(AddArgs),
    /// Set header or item fields of a record: `record set <file> [<ID>] Field=VALUE...`.
    ///
    /// Without an ID the fields are the record's header fields (for example
    /// the plan's `Status=APPROVED` and `User Style Locked=true`, a report's
    /// `Status=COMPLETE`); with an ID (`DEV-002`, `F-001`, `D-001`,
    /// `DOC-001`) they are that item's fields (a step's `Status=DONE`, a
    /// finding's `Status=RESOLVED`). Every value is checked against the
    /// record format's vocabulary first; an unknown field or value is a usage
    /// error naming the allowed ones. Only the values change; a field the
    /// header or item lacks is added after its last field.
    ///
    /// With --json: `{"ok": true, "file", "item", "changes": [{"field", "old",
    /// "new"}], "dryRun", "diff"}`; a refusal prints `{"ok": false, "error",
    /// "hint"}`.
    Set(SetArgs),
}

/// Identifier prefixes, spelled as in records.
fn prefix_parser() -> impl TypedValueParser<Value = IdPrefix> {
    PossibleValuesParser::new(["AC", "DEV", "F", "D", "DOC"])
        .map(|s| s.parse::<IdPrefix>().expect("a listed prefix"))
}

#[derive(Debug, clap::Args)]
pub struct AddArgs {
    /// The record: relative to the current folder or the project root, or absolute.
    #[arg(value_name = "file")]
    pub file: PathBuf,
    /// The identifier prefix of the item.
    #[arg(value_name = "PREFIX", ignore_case = true, value_parser = prefix_parser())]
    pub prefix: IdPrefix,
    /// The item's title (one line): a step's outcome, a finding's defect, a condition's text.
    #[arg(long, value_name = "text")]
    pub title: String,
    /// An item field's value, `Field=VALUE` (repeatable), e.g. `--set Acceptance=AC-001,AC-002`.
    #[arg(long = "set", value_name = "Field=VALUE")]
    pub set: Vec<String>,
    /// Print the change as a diff and write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, clap::Args)]
pub struct SetArgs {
    /// The record: relative to the current folder or the project root, or absolute.
    #[arg(value_name = "file")]
    pub file: PathBuf,
    /// An item ID (`DEV-002`), then `Field=VALUE` pairs; without an ID, header fields.
    #[arg(value_name = "ID|Field=VALUE", required = true, num_args = 1..)]
    pub target: Vec<String>,
    /// Print the change as a diff and write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

impl RecordCommand {
    pub fn json(&self) -> bool {
        match self {
            RecordCommand::Add(a) => a.json,
            RecordCommand::Set(a) => a.json,
        }
    }
}

/// The crash points of a record edit: the journal's.
pub const FAILPOINTS: &[&str] = &[
    "record-edit:journal-staged",
    "record-edit:journal-begun",
    "record-edit:step-applied",
    "record-edit:step-recorded",
    "record-edit:journal-closing",
];

/// What to run instead of `artifact init --set` on a record that exists.
pub fn existing_record_hint(shown: &str) -> String {
    format!("change its fields with `git standards record set {shown} Field=VALUE` and add items with `git standards record add {shown} <PREFIX> --title \"<text>\"`")
}

/// Runs `record add` or `record set`.
pub fn run(ctx: &mut Context, command: RecordCommand) -> Result<()> {
    match command {
        RecordCommand::Add(a) => add(ctx, a),
        RecordCommand::Set(a) => set(ctx, a),
    }
}

fn usage(e: EditError, file: &str) -> Error {
    Error::usage(format!("{e} (in `{file}`)"))
}

/// A record whose item (or the place for a new one) lies inside a fenced
/// code block: the file needs a hand edit, so a refusal naming it.
fn in_fence(e: EditError, file: &str) -> Error {
    Error::refused(
        format!("cannot edit `{file}`: {e}"),
        Some(format!(
            "close the fence (a line of ``` or ~~~) in `{file}` where the block should end, then run the command again"
        )),
    )
}

/// `Field=VALUE` arguments, split.
fn assignments(args: &[String]) -> Result<Vec<(String, String)>> {
    args.iter()
        .map(|a| edit::parse_assignment(a).map_err(|e| Error::usage(e.to_string())))
        .collect()
}

/// An `AC-001`-like item ID: its prefix.
fn item_prefix(text: &str) -> Option<IdPrefix> {
    let (prefix, digits) = text.rsplit_once('-')?;
    let prefix = prefix.parse::<IdPrefix>().ok()?;
    (digits.len() >= 3 && digits.bytes().all(|b| b.is_ascii_digit())).then_some(prefix)
}

/// The project path of the user's file, or a refusal naming it.
fn locate(ctx: &Context, rt: &runtime::Runtime, file: &std::path::Path) -> Result<String> {
    let cwd = std::path::absolute(&ctx.cwd).map_err(|e| Error::io(&ctx.cwd, e))?;
    // A link is never followed to its target: the record is named by its own path.
    if std::fs::symlink_metadata(cwd.join(file)).is_ok_and(|m| m.file_type().is_symlink()) {
        return Err(Error::refused(
            format!(
                "`{}` is a symbolic link; records are regular files and are never written through links",
                file.display()
            ),
            Some("pass the path of the record itself".to_string()),
        ));
    }
    id::project_path(&cwd, &rt.root, file).ok_or_else(|| {
        Error::refused(
            format!(
                "`{}` is outside the project at `{}`",
                file.display(),
                rt.root.display()
            ),
            Some("pass a record inside the project, relative to the current folder or to the project root".to_string()),
        )
    })
}

/// The record's text, refusing anything that is not a regular Markdown
/// file inside the project reached through real folders.
fn read(tree: &dyn Tree, rel: &str) -> Result<String> {
    if let Some(why) = id::not_a_record_path(rel) {
        return Err(Error::refused(
            format!("cannot edit `{rel}`: {why}"),
            Some("records live under `.standards/docs/` (or are the project document `Active Work.Scope` names)".to_string()),
        ));
    }
    if let Some(found) = obstacle(tree, rel) {
        let what = match found {
            Obstacle::Symlink(_) => "is a symbolic link; records are edited only through real folders inside the repository",
            Obstacle::NotAFolder(_) => "is not a folder",
        };
        return Err(Error::refused(
            format!("cannot edit `{rel}`: `{}` {what}", found.component()),
            None,
        ));
    }
    match tree.node(rel) {
        Node::Missing => Err(Error::refused(
            format!("`{rel}` does not exist"),
            Some("create the record first with `git standards artifact init <TYPE>`".to_string()),
        )),
        Node::Dir => Err(Error::refused(format!("`{rel}` is a folder, not a record"), None)),
        Node::Symlink => Err(Error::refused(
            format!("`{rel}` is a symbolic link; records are regular files and are never written through links"),
            Some("pass the path of the record itself".to_string()),
        )),
        Node::Unreadable(why) => Err(Error::refused(format!("cannot read `{rel}`: {why}"), None)),
        Node::File(_) if !rel.ends_with(".md") => Err(Error::refused(
            format!("cannot edit `{rel}`: records are Markdown files (`*.md`)"),
            None,
        )),
        Node::File(bytes) => String::from_utf8(bytes)
            .map_err(|_| Error::refused(format!("cannot read `{rel}`: it is not UTF-8 text"), None)),
    }
}

fn diff(path: &str, old: &str, new: &str) -> String {
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{path}"), &format!("b/{path}"))
        .to_string()
}

/// Opens the project under the lock and makes the checks every writer makes.
fn open(ctx: &mut Context, command: &str) -> Result<(runtime::Runtime, journal::OperationLock)> {
    let (rt, lock) = runtime::open_locked(&ctx.cwd, Some(command), "record-edit")?;
    journal::refuse_if_pending(&rt.project)?;
    crate::support::conflicts::refuse_during_conflict(ctx, &rt.project, command)?;
    Ok((rt, lock))
}

/// One field change, for the event and the JSON output.
fn change_json(field: &str, old: &Option<String>, new: &str) -> serde_json::Value {
    serde_json::json!({"field": field, "old": old, "new": new})
}

/// Writes `new` over `rel` with its event through the journal, or prints
/// the diff for --dry-run. Returns the diff.
#[allow(clippy::too_many_arguments)]
fn write(
    rt: &runtime::Runtime,
    rel: &str,
    old: &str,
    new: &str,
    dry_run: bool,
    event: Event,
) -> Result<String> {
    let shown = diff(&rt.project.repo_path(rel), old, new);
    if dry_run || old == new {
        return Ok(shown);
    }
    let mut event = event.detail("path", rt.project.repo_path(rel));
    if let Some(cycle) = audit::active_cycle(&rt.tree) {
        event = event.cycle(cycle);
    }
    journal::write_all(
        &rt.project,
        "record-edit",
        vec![
            Change::write(rel, new.as_bytes()),
            audit::journalled(&rt.project, event).0,
        ],
        serde_json::json!({"record": rel}),
    )?;
    Ok(shown)
}

fn add(ctx: &mut Context, a: AddArgs) -> Result<()> {
    let sets = assignments(&a.set)?;
    for (name, value) in &sets {
        edit::validate_item(a.prefix, name, value)
            .map_err(|e| usage(e, &a.file.display().to_string()))?;
    }
    let title = a.title.trim().to_string();
    if title.is_empty() || title.contains(['\n', '\r']) {
        return Err(Error::usage(format!(
            "--title must be one line of text, not `{}`",
            a.title
        )));
    }
    let (rt, _lock) = open(ctx, "record add")?;
    let rel = locate(ctx, &rt, &a.file)?;
    let head = rt.project.head()?;
    // The same identifier `id next` prints, with its refusals (wrong record
    // type, malformed provenance, links, paths outside the records).
    let new_id = id::next(
        &rt.tree,
        head.as_ref().map(|h| h as &dyn Tree),
        &rel,
        a.prefix,
    )?;
    let text = read(&rt.tree, &rel)?;
    let expedited = runtime::load_state(&rt.tree)
        .map(|s| s.cycle_mode.value == CycleMode::Expedited)
        .unwrap_or(false);
    let new =
        edit::add_item(&text, a.prefix, &new_id, &title, &sets, expedited).map_err(
            |e| match e {
                EditError::InFence { .. } => in_fence(e, &rel),
                other => usage(other, &rel),
            },
        )?;
    let changes: Vec<serde_json::Value> =
        sets.iter().map(|(f, v)| change_json(f, &None, v)).collect();
    let event = Event::new(EventKind::RecordEdited)
        .detail("item", new_id.clone())
        .detail("edit", "add")
        .detail("title", title.clone())
        .detail("changes", changes.clone());
    let shown_diff = write(&rt, &rel, &text, &new, a.dry_run, event)?;
    let shown = ctx.shown(&rt.project, &rel);
    if a.json {
        return super::print_result(
            ctx.out,
            true,
            "",
            serde_json::json!({"ok": true, "id": new_id, "file": rel, "dryRun": a.dry_run, "diff": shown_diff}),
        );
    }
    if a.dry_run {
        write!(ctx.out, "{shown_diff}").map_err(Error::stdout)?;
        writeln!(
            ctx.err,
            "Dry run: {new_id} would be added to {shown}; nothing was written."
        )
        .map_err(|e| Error::io("<stderr>", e))?;
        return Ok(());
    }
    super::print_result(ctx.out, false, &new_id, serde_json::Value::Null)?;
    writeln!(
        ctx.err,
        "Added {new_id} to {shown}; write its content below its heading, and change its fields with `git standards record set {shown} {new_id} Field=VALUE`."
    )
    .map_err(|e| Error::io("<stderr>", e))
}

fn set(ctx: &mut Context, a: SetArgs) -> Result<()> {
    let file = a.file.display().to_string();
    let (item, rest) = match a.target.split_first() {
        Some((first, rest)) if !first.contains('=') => match item_prefix(first) {
            Some(prefix) => (Some((prefix, first.clone())), rest),
            None => {
                return Err(Error::usage(format!(
                    "`{first}` is neither an item ID (`DEV-002`, `F-001`, `D-001`, `DOC-001`) nor `Field=VALUE`"
                )))
            }
        },
        _ => (None, &a.target[..]),
    };
    let sets = assignments(rest)?;
    if sets.is_empty() {
        return Err(Error::usage(
            "name at least one `Field=VALUE` to set, e.g. `git standards record set <file> DEV-001 Status=DONE`",
        ));
    }
    if let Some((prefix, _)) = &item {
        for (name, value) in &sets {
            edit::validate_item(*prefix, name, value).map_err(|e| usage(e, &file))?;
        }
    }
    let (rt, _lock) = open(ctx, "record set")?;
    let rel = locate(ctx, &rt, &a.file)?;
    let text = read(&rt.tree, &rel)?;
    let marking = provenance::parse(&text);
    let artifact: Option<ArtifactType> = match (&item, &marking) {
        (Some((prefix, _)), _) => {
            numbering::check_owner(*prefix, &marking).map_err(|e| {
                Error::refused(
                    format!("cannot set fields of `{}` in `{rel}`: {e}", item.as_ref().map(|i| i.1.as_str()).unwrap_or("")),
                    Some(format!("`{prefix}` items live in the cycle's {} record", prefix.owning_artifact())),
                )
            })?;
            None
        }
        (None, Marking::Valid(p)) => Some(p.artifact),
        (None, Marking::Unmarked) => {
            return Err(Error::refused(
                format!("`{rel}` has no STANDARDS provenance block, so it has no record header to set"),
                Some("header fields belong to the records `git standards artifact init` creates".to_string()),
            ))
        }
        (None, Marking::Malformed(why)) => {
            return Err(Error::refused(
                format!("cannot edit `{rel}`: its provenance block is malformed ({why})"),
                Some("fix the provenance block at the top of the file (see `.standards/PROTOCOL.md`); git standards never repairs it".to_string()),
            ))
        }
    };
    let mut new = text.clone();
    let mut changes = Vec::new();
    for (name, value) in &sets {
        let edited = match (&item, artifact) {
            (Some((prefix, id)), _) => edit::set_item_field(&new, *prefix, id, name, value),
            (None, Some(artifact)) => edit::set_header_field(&new, artifact, name, value),
            (None, None) => unreachable!("a header edit has a record type"),
        };
        let edited = edited.map_err(|e| match e {
            EditError::NoItem { .. } | EditError::NoTitle(_) => Error::refused(
                format!("{e} (`{rel}`)"),
                Some(format!(
                    "add it with `git standards record add {rel} <PREFIX> --title \"<text>\"`"
                )),
            ),
            EditError::InFence { .. } => in_fence(e, &rel),
            other => usage(other, &rel),
        })?;
        if edited.old.as_deref() != Some(value.as_str()) {
            changes.push(change_json(name, &edited.old, value));
        }
        new = edited.text;
    }
    let item_id = item.as_ref().map(|(_, id)| id.clone());
    let event = Event::new(EventKind::RecordEdited)
        .detail("item", item_id.clone())
        .detail("edit", "set")
        .detail("changes", changes.clone());
    let shown_diff = write(&rt, &rel, &text, &new, a.dry_run, event)?;
    let shown = ctx.shown(&rt.project, &rel);
    if a.json {
        return super::print_result(
            ctx.out,
            true,
            "",
            serde_json::json!({"ok": true, "file": rel, "item": item_id, "changes": changes, "dryRun": a.dry_run, "diff": shown_diff}),
        );
    }
    if a.dry_run {
        write!(ctx.out, "{shown_diff}").map_err(Error::stdout)?;
        writeln!(ctx.err, "Dry run: nothing was written to {shown}.")
            .map_err(|e| Error::io("<stderr>", e))?;
        return Ok(());
    }
    let what = item_id.map_or("the header".to_string(), |id| id.to_string());
    if changes.is_empty() {
        writeln!(
            ctx.out,
            "{shown}: {what} already has these values; nothing changed."
        )
    } else {
        let list: Vec<String> = changes
            .iter()
            .map(|c| {
                format!(
                    "{}={}",
                    c["field"].as_str().unwrap_or(""),
                    c["new"].as_str().unwrap_or("")
                )
            })
            .collect();
        writeln!(ctx.out, "{shown}: set {} in {what}.", list.join(", "))
    }
    .map_err(Error::stdout)
}
