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
mod tests {
    use super::super::acceptance::test_support::*;
    use crate::check::Options;
    use crate::model::layout::STATE_PATH;
    use crate::model::tree::MemTree;

    fn rh(t: &MemTree) -> Vec<&'static str> {
        rules_with(t, "RH")
    }

    fn review(body: &str) -> (String, String) {
        (
            format!(".standards/docs/reviews/{ID}/implementation.md"),
            format!(
                "<!-- STANDARDS\nArtifact: REVIEW\nCycle: {ID}\nReviewKind: IMPLEMENTATION\n-->\n\n# Review Report\n\n`Cycle`: `{ID}` `ReviewKind`: `IMPLEMENTATION`\n`Status`: `IN_PROGRESS` `User Style`: `NONE`\n\n## Findings\n\n### F-001 — Missing escape\n\n{body}\n"
            ),
        )
    }

    fn documentation(body: &str) -> (String, String) {
        (
            format!(".standards/docs/documentation/{ID}.md"),
            format!(
                "<!-- STANDARDS\nArtifact: DOCUMENTATION\nCycle: {ID}\n-->\n\n# Documentation Record\n\n`Cycle`: `{ID}` `Status`: `IN_PROGRESS`\n`Collaboration`: `AUTONOMOUS` `Target`: `ACTIVE_CHANGE` `Target Detail`:\n`active cycle` `User Style`: `NONE`\n\n## Discrepancies\n\n{body}\n"
            ),
        )
    }

    fn with(files: &[(String, String)]) -> MemTree {
        let mut t = f_std();
        for (p, c) in files {
            t.insert(p, c);
        }
        t
    }

    #[test]
    fn f_std_has_no_header_or_reference_problems() {
        assert!(rh(&f_std()).is_empty());
    }

    #[test]
    fn rh_001_visible_cycle() {
        let mut t = f_std();
        let p = report_path();
        let text = read(&t, &p);
        t.insert(
            &p,
            text.replacen(&format!("`Cycle`: `{ID}`"), "`Cycle`: `other-cycle`", 1),
        );
        assert_eq!(rh(&t), ["RH-001"]);
        t.insert(&p, text.replacen(&format!("`Cycle`: `{ID}` "), "", 1));
        assert_eq!(rh(&t), ["RH-001"]);
        // Without a title there is no header at all.
        t.insert(
            &p,
            text.replacen("# Verification Report", "Verification Report", 1),
        );
        assert_eq!(rh(&t), ["RH-001", "RH-003"]);
    }

    #[test]
    fn rh_002_and_003_status_is_reported_once() {
        let mut t = f_std();
        let p = report_path();
        let text = read(&t, &p);
        // SC-PROV-010: the template's choices give exactly one problem on the report.
        t.insert(
            &p,
            text.replacen("`COMPLETE`", "`IN_PROGRESS | BLOCKED | COMPLETE`", 1),
        );
        let on_report: Vec<_> = problems(&t, Options::default())
            .into_iter()
            .filter(|(_, f, _)| *f == p)
            .collect();
        assert_eq!(on_report.len(), 1, "{on_report:?}");
        assert_eq!(on_report[0].0, "RH-002");
        // SC-PROV-009: a wrong case is an invalid status.
        t.insert(&p, text.replacen("`COMPLETE`", "`Complete`", 1));
        assert_eq!(rh(&t), ["RH-003"]);
        t.insert(&p, text.replacen("`Status`:\n`COMPLETE`", "", 1));
        assert_eq!(rh(&t), ["RH-003"]);
        t.insert(
            &p,
            text.replacen("`User Style`: `NONE`", "`User Style`: `<identifier>`", 1),
        );
        assert_eq!(rh(&t), ["RH-002"]);
        // The protocol's User Styles rule: a saved selector has no `|` and is not blank.
        for bad in ["team|compact", " "] {
            t.insert(
                &p,
                text.replacen("`User Style`: `NONE`", &format!("`User Style`: `{bad}`"), 1),
            );
            assert_eq!(rh(&t), ["RH-002"], "{bad:?}");
        }
        t.insert(
            &p,
            text.replacen("`User Style`: `NONE`", "`User Style`: `team-compact.md`", 1),
        );
        assert!(rh(&t).is_empty());
        // Only the first occurrence of a field counts.
        t.insert(
            &p,
            text.replacen(
                "`Assessment Target`: `NONE`",
                "`Assessment Target`: `NONE` `Mode`: `VERIFY | REVERIFY`",
                1,
            ),
        );
        assert!(rh(&t).is_empty());
    }

    #[test]
    fn rh_002_a_fresh_record_is_one_problem_naming_every_unfilled_field() {
        let mut t = f_std();
        let p = report_path();
        t.insert(
            &p,
            crate::assets::new_record(crate::model::vocab::ArtifactType::Verification, None, ID),
        );
        let on_report: Vec<_> = problems(&t, Options::default())
            .into_iter()
            .filter(|(_, f, _)| *f == p)
            .collect();
        assert_eq!(on_report.len(), 1, "{on_report:?}");
        let (rule, _, message) = &on_report[0];
        assert_eq!(*rule, "RH-002");
        assert!(
            message.starts_with("not filled in yet: the header fields "),
            "{message}"
        );
        for field in ["`Mode` (`VERIFY | REVERIFY`)", "`Status`", "`User Style`"] {
            assert!(message.contains(field), "{field}: {message}");
        }
        // One field alone reads in the singular.
        let text = read(&t, &p)
            .replacen("`VERIFY | REVERIFY`", "`VERIFY`", 1)
            .replacen("`NONE | <identifier>`", "`NONE`", 1);
        t.insert(&p, text);
        let on_report: Vec<_> = problems(&t, Options::default())
            .into_iter()
            .filter(|(_, f, _)| *f == p)
            .collect();
        assert_eq!(on_report.len(), 1, "{on_report:?}");
        assert!(
            on_report[0]
                .2
                .contains("header field `Status` (`IN_PROGRESS | BLOCKED | COMPLETE`) still holds the template's list of choices"),
            "{on_report:?}"
        );
    }

    #[test]
    fn rh_003_does_not_apply_to_the_plan() {
        let mut t = f_std();
        edit(&mut t, &plan_path(), |s| {
            s.replace("`Status`: `COMPLETE` ", "")
        });
        assert!(!rh(&t).contains(&"RH-003"));
    }

    #[test]
    fn rh_004_entry_defined_twice() {
        let (p, text) = review("### F-001 — again\n\n### F-001: third\n\nF-001.");
        let t = with(&[(p, text)]);
        assert_eq!(rh(&t), ["RH-004"]);
        let dup: Vec<_> = problems(&t, Options::default())
            .into_iter()
            .filter(|(r, _, _)| *r == "RH-004")
            .collect();
        assert_eq!(dup.len(), 1);
        assert!(dup[0].2.contains("3 entries"));
        // Plan steps too.
        let mut t = f_std();
        edit(&mut t, &plan_path(), |s| {
            s.replace("### DEV-002 — Search box", "### DEV-001 — Search box")
        });
        assert!(rh(&t).contains(&"RH-004"));
    }

    #[test]
    fn sc_ref_001_bare_foreign_and_dangling_anchor() {
        let review_path = format!(".standards/docs/reviews/{ID}/implementation.md");
        let (rp, rt) = review("AC-001.");
        let (dp, dt) = documentation(&format!(
            "### D-001 — Old style\n\nSee F-001, {review_path}#F-001 and {review_path}#F-007. AC-001 AC-002"
        ));
        let t = with(&[(rp, rt), (dp.clone(), dt)]);
        assert_eq!(rh(&t), ["RH-005", "RH-009"]);
        let on_doc: Vec<_> = problems(&t, Options::default())
            .into_iter()
            .filter(|(r, f, _)| r.starts_with("RH") && *f == dp)
            .collect();
        // F-001 bare and the #F-007 anchor; `#F-001` is fine; the heading is no mention.
        assert_eq!(on_doc.len(), 2, "{on_doc:?}");
    }

    #[test]
    fn sc_ref_002_003_004_relative_links_and_labels() {
        let (rp, rt) = review("AC-001.");
        let (dp, dt) = documentation(&format!(
            "See [F-001](../reviews/{ID}/implementation.md#F-001)."
        ));
        assert!(rh(&with(&[(rp.clone(), rt.clone()), (dp, dt)])).is_empty());
        // SC-REF-003: the plan may link the finding too.
        let mut t = with(&[(rp.clone(), rt.clone())]);
        edit(&mut t, &plan_path(), |s| {
            s + &format!("\nFixes [F-001](../reviews/{ID}/implementation.md#F-001).\n")
        });
        assert!(rh(&t).is_empty());
        // SC-REF-004: a label that disagrees with its target is a bare mention.
        edit(&mut t, &plan_path(), |s| {
            s + &format!("Also [F-001](../reviews/{ID}/implementation.md#F-002).\n")
        });
        assert_eq!(rh(&t), ["RH-005", "RH-009"]);
    }

    #[test]
    fn sc_ref_005_006_own_entries_and_steps() {
        let (rp, rt) = review("F-001 is fixed by DEV-001. AC-001.");
        assert!(rh(&with(&[(rp, rt)])).is_empty());
        let (rp, rt) = review("F-001 is fixed by DEV-001. F-004 is fixed by DEV-009.");
        assert_eq!(rh(&with(&[(rp, rt)])), ["RH-006", "RH-007"]);
    }

    #[test]
    fn rh_007_needs_an_own_plan() {
        let (rp, rt) = review("Fixed by DEV-009.");
        let mut t = with(&[(rp, rt)]);
        assert_eq!(rh(&t), ["RH-007"]);
        // Without an own plan there is nothing to compare with.
        set(&mut t, "Development", "NONE");
        t.remove(&plan_path());
        assert!(!rh(&t).contains(&"RH-007"));
        // With `Development` NONE, the first own plan still counts.
        let mut t = with(&[review("Fixed by DEV-009.")]);
        set(&mut t, "Development", "NONE");
        assert!(rh(&t).contains(&"RH-007"));
        let _ = STATE_PATH;
    }

    #[test]
    fn rh_008_reference_to_a_non_record() {
        let (dp, dt) = documentation("See docs/notes.md#F-001 and missing.md#DOC-001.");
        let t = with(&[(dp, dt), ("docs/notes.md".into(), "### F-001\n".into())]);
        assert_eq!(rh(&t), ["RH-008"]);
        let count = problems(&t, Options::default())
            .into_iter()
            .filter(|(r, _, _)| *r == "RH-008")
            .count();
        assert_eq!(count, 2);
    }

    #[test]
    fn a_record_of_another_cycle_resolves() {
        let other = "<!-- STANDARDS\nArtifact: REVIEW\nCycle: old-1\nReviewKind: IMPLEMENTATION\n-->\n# Review\n### F-002 — x\n";
        let (dp, dt) =
            documentation("See docs/old/review.md#F-002 and ../../../docs/old/review.md#F-003.");
        let t = with(&[(dp, dt), ("docs/old/review.md".into(), other.into())]);
        assert_eq!(rh(&t), ["RH-009"]);
    }

    #[test]
    fn odd_records_do_not_panic() {
        for body in [
            "",
            "# T",
            "## only\n### F-001\n### F-001",
            "# T\n`Status`: `",
            "# T\n`Status`: ``",
            "[F-001](",
            "x.md#F-99999999999999999999999999999999",
            "### DEV-001\u{feff}\n\u{2028}D-001 [D-001](é.md#D-001) DEV-0000000000000000000001",
        ] {
            let path = format!(".standards/docs/documentation/{ID}.md");
            let text = format!("<!-- STANDARDS\nArtifact: DOCUMENTATION\nCycle: {ID}\n-->\n{body}");
            let _ = rh(&with(&[(path, text)]));
        }
    }
}
