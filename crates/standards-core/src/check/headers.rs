//! RH: record headers and cross-record references.
//!
//! Applies to every own record of the active cycle that passed PV-007 and keeps
//! a header: the development plan, the verification report, both review
//! reports, the documentation record and the synchronization record (not the
//! scope or the design). The problems are attached to the record; its owner
//! fixes them. Protocol: Workflow Artifact Provenance (header, entry and
//! reference rules) and User Styles (concrete header values).

use std::collections::{HashMap, HashSet};

use crate::model::fields::{self, Field};
use crate::model::layout;
use crate::model::vocab::{ArtifactType, IdPrefix, ReviewKind};
use crate::records::record::{bare_mentions, entry_headings, header_fields, is_unfilled_field};
use crate::records::references::{
    candidate_paths, prefix_of, qualified_references, without_entry_heading_lines,
    without_link_labels, QUALIFIED_PREFIXES,
};
use crate::records::scan::Artifact;

use super::{Cx, OwnRecord, RuleInfo, Sink};

pub const RULES: &[RuleInfo] = &[
    RuleInfo::rule("RH-001", "Visible Cycle"),
    RuleInfo::rule("RH-002", "Unfilled header values"),
    RuleInfo::rule("RH-003", "Record status"),
    RuleInfo::rule("RH-004", "Entry defined twice"),
    RuleInfo::rule("RH-005", "Unqualified foreign identifier"),
    RuleInfo::rule("RH-006", "Own entry missing"),
    RuleInfo::rule("RH-007", "Unknown development step"),
    RuleInfo::rule("RH-008", "Qualified reference to a non-record"),
    RuleInfo::rule("RH-009", "Qualified reference to a missing entry"),
    RuleInfo::rule("RH-010", "Field written another way"),
];

/// The record statuses RH-003 accepts (the plan has its own, DV-001).
const RECORD_STATUSES: [&str; 3] = ["IN_PROGRESS", "BLOCKED", "COMPLETE"];

/// What the RH rules read about one record.
struct Rec<'a> {
    id: &'a str,
    record: &'a OwnRecord,
    header: Vec<Field>,
    /// The role that owns the record, for hints.
    owner: String,
}

pub fn check(cx: &Cx, sink: &mut Sink) {
    let Some(id) = cx.active_id() else { return };
    // RH-007 compares against the cycle's own plan, when there is one.
    let plan = cx.plan();
    let plan_steps: Option<HashSet<String>> =
        plan.map(|(_, text)| entry_headings(text, IdPrefix::Dev).into_iter().collect());
    // RH-008/RH-009 look records up by path and read their entries once each.
    let mut targets = Targets::new(cx);
    for record in cx.own_records() {
        if matches!(
            record.artifact(),
            ArtifactType::Scope | ArtifactType::Architecture
        ) {
            continue;
        }
        field_written_another_way(record, sink);
        let r = Rec {
            id,
            record,
            header: header_fields(&record.text),
            owner: record.artifact().role().to_string(),
        };
        visible_cycle(&r, sink);
        let status_unfilled = unfilled_values(&r, sink);
        if !status_unfilled {
            record_status(&r, sink);
        }
        entries_defined_twice(&r, sink);
        let body = mention_text(&record.text);
        unqualified_foreign(&r, &body, sink);
        own_entry_missing(&r, &body, sink);
        if let (Some((plan_path, _)), Some(steps)) = (plan, plan_steps.as_ref()) {
            unknown_steps(&r, &body, plan_path, steps, sink);
        }
        qualified(&r, &mut targets, sink);
    }
}

/// The text bare mentions are read from (check-rules §1.8): self-naming link
/// labels blanked, entry-heading lines removed.
fn mention_text(text: &str) -> String {
    without_entry_heading_lines(&without_link_labels(text))
}

fn record_label(r: &OwnRecord) -> String {
    match r.kind() {
        Some(k) => format!("{} {k}", r.artifact()),
        None => r.artifact().to_string(),
    }
}

/// The structured fields of a record type (Record Formats): its header's
/// and its entries'.
fn structured_fields(artifact: ArtifactType) -> &'static [&'static str] {
    match artifact {
        ArtifactType::Development => &[
            "Cycle",
            "Mode",
            "User Style",
            "User Style Locked",
            "Status",
            "Verification Cadence",
            "Current Increment",
            "Depends On",
            "Acceptance",
        ],
        ArtifactType::Verification => &[
            "Cycle",
            "Mode",
            "Status",
            "User Style",
            "Assessment Purpose",
            "Assessment Target",
        ],
        ArtifactType::Review => &[
            "Cycle",
            "ReviewKind",
            "Status",
            "User Style",
            "Severity",
            "Owner",
            "FailureType",
        ],
        ArtifactType::Documentation => &[
            "Cycle",
            "Status",
            "Collaboration",
            "Target",
            "Target Detail",
            "User Style",
            "Owner",
        ],
        ArtifactType::Synchronization => &["Cycle", "Status", "User Style", "Owner", "FailureType"],
        ArtifactType::Scope | ArtifactType::Architecture => &[],
    }
}

/// RH-010 Field written another way (issue 25, item 3): a line that starts
/// like one of the record's structured fields (`Status: DONE`,
/// `**Status:** DONE`, `` `Status`: DONE ``, `` `status`: `DONE` ``) is not
/// read as that field, so the status or value it means is not seen; one
/// problem per line, naming the accepted form.
fn field_written_another_way(record: &OwnRecord, sink: &mut Sink) {
    let names = structured_fields(record.artifact());
    for f in crate::records::fieldlike::field_like_lines(&record.text, names) {
        sink.push_hinted(
            "RH-010",
            record.path.clone(),
            format!(
                "line {}: `{}` looks like the field `{}` but is not written as one, so it is not read (a field is `` `Name`: `value` ``, both in backticks, the name as the format spells it)",
                f.line, f.written, f.name
            ),
            Some(format!(
                "{} writes it as {} (Record Formats in `.standards/PROTOCOL.md`)",
                record.artifact().role(),
                f.accepted()
            )),
        );
    }
}

/// RH-001 Visible Cycle: header `Cycle` absent or not `Active Work.Id`.
fn visible_cycle(r: &Rec, sink: &mut Sink) {
    let hint = Some(format!(
        "{} sets the header field `Cycle` to `{}`, the cycle named by the provenance block",
        r.owner, r.id
    ));
    match fields::first(&r.header, "Cycle") {
        None => {
            sink.push_hinted(
                "RH-001",
                r.record.path.clone(),
                format!(
                    "the {} record's header has no `Cycle` field, so readers cannot see which cycle owns it",
                    record_label(r.record)
                ),
                hint,
            );
        }
        Some(f) if f.value != r.id => {
            sink.push_hinted(
                "RH-001",
                r.record.path.clone(),
                format!(
                    "the header shows `Cycle` `{}`, but the provenance block and Active Work name cycle `{}`",
                    f.value, r.id
                ),
                hint,
            );
        }
        Some(_) => {}
    }
}

/// RH-002 Unfilled header values: one problem per record naming every header
/// field (first occurrence) whose value is still a template placeholder, so a
/// fresh record reads as "not filled in yet" in one line rather than one
/// problem per field. Returns whether `Status` was among them (RH-003 then
/// stays silent).
fn unfilled_values(r: &Rec, sink: &mut Sink) -> bool {
    let mut seen: Vec<&str> = Vec::new();
    let mut unfilled: Vec<&Field> = Vec::new();
    for f in &r.header {
        if seen.contains(&f.name.as_str()) {
            continue;
        }
        seen.push(&f.name);
        if is_unfilled_field(&f.name, &f.value) {
            unfilled.push(f);
        } else if f.name == "User Style" && !is_concrete_style_selector(&f.value) {
            style_selector(r, f, sink);
        }
    }
    if unfilled.is_empty() {
        return false;
    }
    sink.push_hinted(
        "RH-002",
        r.record.path.clone(),
        unfilled_message(&unfilled),
        Some(format!(
            "{} replaces each of these values with the one that applies (a value containing ` | ` or written as `<…>` counts as unfilled)",
            r.owner
        )),
    );
    unfilled.iter().any(|f| f.name == "Status")
}

/// "not filled in yet: the header fields `A` (`x | y`) and `B` (`<z>`) still
/// hold the template's choices and placeholders ...".
fn unfilled_message(unfilled: &[&Field]) -> String {
    let lists = unfilled.iter().filter(|f| f.value.contains(" | ")).count();
    let plural = unfilled.len() > 1;
    let what = match (lists, plural) {
        (0, false) => "placeholder",
        (0, true) => "placeholders",
        (n, false) if n == unfilled.len() => "list of choices",
        (n, true) if n == unfilled.len() => "choices",
        _ => "choices and placeholders",
    };
    format!(
        "not filled in yet: the header field{} {} still hold{} the template's {what} instead of one concrete value{}",
        if plural { "s" } else { "" },
        fields::listing(unfilled.iter().copied()),
        if plural { "" } else { "s" },
        if plural { " each" } else { "" },
    )
}

/// The protocol's User Styles section asks more of a saved style selector than
/// the catalogue's "unfilled" test (which only looks for ` | ` and `<…>`): it
/// must be nonblank and contain no `|` at all, so `team|compact` cannot be
/// saved either. The protocol wins, so RH-002 also reports these.
fn is_concrete_style_selector(value: &str) -> bool {
    crate::records::record::is_saveable_style(value)
}

/// RH-002 for a `User Style` value that is filled but not a usable selector.
fn style_selector(r: &Rec, f: &Field, sink: &mut Sink) {
    sink.push_hinted(
        "RH-002",
        r.record.path.clone(),
        format!(
            "header field `User Style` holds `{}`, which cannot be saved as a style selector: it must be nonblank and contain no `|`",
            f.value
        ),
        Some(format!(
            "{} saves `NONE` or a usable name of the selected style file; a file whose names all contain `|` must be renamed by the user before it can be selected",
            r.owner
        )),
    );
}

/// RH-003 Record status: not for the plan (DV-001); `Status` absent or not a record status.
fn record_status(r: &Rec, sink: &mut Sink) {
    if r.record.artifact() == ArtifactType::Development {
        return;
    }
    let hint = Some(format!(
        "{} records the header field `Status` as IN_PROGRESS, BLOCKED or COMPLETE",
        r.owner
    ));
    match fields::first(&r.header, "Status") {
        None => {
            sink.push_hinted(
                "RH-003",
                r.record.path.clone(),
                format!(
                    "the {} record's header has no `Status` field",
                    record_label(r.record)
                ),
                hint,
            );
        }
        Some(f) if !RECORD_STATUSES.contains(&f.value.as_str()) => {
            sink.push_hinted(
                "RH-003",
                r.record.path.clone(),
                format!(
                    "header `Status` is `{}`, which is not one of IN_PROGRESS, BLOCKED, COMPLETE (values are case-sensitive)",
                    f.value
                ),
                hint,
            );
        }
        Some(_) => {}
    }
}

/// RH-004 Entry defined twice: a local-prefix `###` entry heading occurs more
/// than once; one problem per identifier. The verification report has no local prefix.
fn entries_defined_twice(r: &Rec, sink: &mut Sink) {
    let Some(prefix) = r.record.artifact().local_prefix() else {
        return;
    };
    let headings = entry_headings(&r.record.text, prefix);
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for id in &headings {
        *counts.entry(id.as_str()).or_default() += 1;
    }
    let mut reported: HashSet<&str> = HashSet::new();
    for id in &headings {
        let count = counts[id.as_str()];
        if count < 2 || !reported.insert(id.as_str()) {
            continue;
        }
        sink.push_hinted(
            "RH-004",
            r.record.path.clone(),
            format!("`### {id}` heads {count} entries; an identifier names exactly one entry"),
            Some(format!(
                "{} keeps one `### {id}` entry and renumbers the others with `git standards id next {prefix} {}`",
                r.owner, r.record.path
            )),
        );
    }
}

/// An example record path for a qualified identifier in messages.
fn example_record(prefix: IdPrefix, id: &str) -> String {
    match prefix {
        IdPrefix::F => {
            layout::record_path(ArtifactType::Review, Some(ReviewKind::Implementation), id)
        }
        IdPrefix::D => layout::record_path(ArtifactType::Synchronization, None, id),
        _ => layout::record_path(ArtifactType::Documentation, None, id),
    }
}

/// RH-005 Unqualified foreign identifier: a bare `F`, `D` or `DOC` identifier
/// whose prefix is not the record's own; one problem per identifier.
fn unqualified_foreign(r: &Rec, body: &str, sink: &mut Sink) {
    let own = r.record.artifact().local_prefix();
    for prefix in QUALIFIED_PREFIXES {
        if Some(prefix) == own {
            continue;
        }
        for ident in bare_mentions(body, prefix) {
            sink.push_hinted(
                "RH-005",
                r.record.path.clone(),
                format!(
                    "{ident} is mentioned without naming its record; {prefix} identifiers exist in several records, so a bare {ident} is ambiguous here"
                ),
                Some(format!(
                    "{} writes it as `<path>#{ident}`, e.g. `{}#{ident}`, or as a link whose text is {ident}",
                    r.owner,
                    example_record(prefix, r.id)
                )),
            );
        }
    }
}

/// RH-006 Own entry missing: a review, synchronization or documentation record
/// mentions a bare identifier with its own prefix that has no `###` entry.
fn own_entry_missing(r: &Rec, body: &str, sink: &mut Sink) {
    let own = match r.record.artifact().local_prefix() {
        Some(p) if p != IdPrefix::Dev => p,
        _ => return,
    };
    let defined: HashSet<String> = entry_headings(&r.record.text, own).into_iter().collect();
    for ident in bare_mentions(body, own) {
        if defined.contains(&ident) {
            continue;
        }
        sink.push_hinted(
            "RH-006",
            r.record.path.clone(),
            format!("{ident} is mentioned, but this record has no `### {ident}` entry"),
            Some(format!(
                "{} adds the `### {ident}` entry, corrects the number, or, if {ident} is another record's entry, writes it as `<path>#{ident}`",
                r.owner
            )),
        );
    }
}

/// RH-007 Unknown development step: outside the plan, a bare `DEV` identifier
/// that is not a `### DEV-NNN` step of the cycle's own plan.
fn unknown_steps(r: &Rec, body: &str, plan_path: &str, steps: &HashSet<String>, sink: &mut Sink) {
    if r.record.artifact() == ArtifactType::Development {
        return;
    }
    for ident in bare_mentions(body, IdPrefix::Dev) {
        if steps.contains(&ident) {
            continue;
        }
        sink.push_hinted(
            "RH-007",
            r.record.path.clone(),
            format!("{ident} is mentioned, but the development plan `{plan_path}` has no `### {ident}` step"),
            Some(format!(
                "{} refers to an existing step; if the step is missing from the plan, route it to Developer",
                r.owner
            )),
        );
    }
}

/// The records qualified references may lead to, indexed by path (the first
/// artifact at a path with a valid provenance block), and each target's
/// entry headings, read once.
struct Targets<'a> {
    by_path: HashMap<&'a str, &'a Artifact>,
    entries: HashMap<(&'a str, IdPrefix), HashSet<String>>,
}

impl<'a> Targets<'a> {
    fn new(cx: &'a Cx) -> Targets<'a> {
        let mut by_path = HashMap::new();
        for a in cx.artifacts().filter(|a| a.marking.valid().is_some()) {
            by_path.entry(a.path.as_str()).or_insert(a);
        }
        Targets {
            by_path,
            entries: HashMap::new(),
        }
    }

    /// The record a qualified reference leads to: the first candidate path that
    /// holds a file with a valid provenance block, of any cycle.
    fn resolve(&self, referring: &str, file: &str) -> Option<&'a Artifact> {
        candidate_paths(referring, file)
            .iter()
            .find_map(|p| self.by_path.get(p.as_str()).copied())
    }

    fn has_entry(&mut self, target: &'a Artifact, prefix: IdPrefix, id: &str) -> bool {
        self.entries
            .entry((target.path.as_str(), prefix))
            .or_insert_with(|| entry_headings(&target.text, prefix).into_iter().collect())
            .contains(id)
    }
}

/// RH-008 Qualified reference to a non-record, and RH-009 Qualified reference
/// to a missing entry. Read from the raw text, link targets included.
fn qualified<'a>(r: &Rec, targets: &mut Targets<'a>, sink: &mut Sink) {
    for reference in qualified_references(&r.record.text) {
        let shown = format!("{}#{}", reference.file, reference.id);
        match targets.resolve(&r.record.path, &reference.file) {
            // RH-008
            None => {
                sink.push_hinted(
                    "RH-008",
                    r.record.path.clone(),
                    format!(
                        "the reference `{shown}` does not lead to a STANDARDS record: no file with a valid provenance block is at `{}`",
                        candidate_paths(&r.record.path, &reference.file).join("` or `")
                    ),
                    Some(format!(
                        "{} names the record by its path from the project root, or by a path relative to this file",
                        r.owner
                    )),
                );
            }
            // RH-009
            Some(target) => {
                let prefix = prefix_of(&reference.id).unwrap_or(reference.prefix);
                if targets.has_entry(target, prefix, &reference.id) {
                    continue;
                }
                sink.push_hinted(
                    "RH-009",
                    r.record.path.clone(),
                    format!(
                        "the reference `{shown}` points to `{}`, which has no `### {}` entry",
                        target.path, reference.id
                    ),
                    Some(format!(
                        "{} corrects the reference to an entry that exists in that record",
                        r.owner
                    )),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests;
