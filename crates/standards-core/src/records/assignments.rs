//! Suspended assignments (RF §7.8, check-rules §1.11 and VF-000).
//!
//! Before corrective routing replaces a Developer or Tester assignment, the
//! role saves it in its own record as a `### Suspended Assignment <label>`
//! entry: the Developer under the development plan's `## Plan Notes`, the
//! Tester under the verification report's `## Resume or Handoff`. Each entry
//! carries six fields:
//!
//! ```markdown
//! ### Suspended Assignment 1
//!
//! `Recovery Frame`: `1` `Recovery Reason`: `<the frame's exact Reason>`
//! `Purpose`: `INCREMENT` `Target`: `Increment 2`
//! `Assessed Inputs`: `<content identities>` `Next Action`: `<how to resume>`
//! ```
//!
//! Entries are appended and never renumbered; the latest entry for a frame is
//! that frame's saved assignment, and it only counts when its `Recovery
//! Reason` is the frame's `Reason` (frame numbers are reused after pops).
//!
//! This module only reads: [`parse`] finds the entries of one record with
//! every occurrence of every field (the rules that validate entries need
//! repeats and gaps), and [`saved_for`] / [`matching`] pick a frame's entry.
//! Reading conventions:
//! - the section is the first H2 of that name (check-rules §1.7): found and
//!   read with fenced lines blanked, so fenced examples are not entries;
//! - an entry heading is a line of `###`, spaces or tabs, the words
//!   `Suspended Assignment` ending at a word boundary, then the label: the rest
//!   of the line without surrounding spaces, tabs or a trailing CR (as
//!   `### Frame N` labels in STATE.md). An empty label still makes an entry,
//!   so validation can report it;
//! - an entry's fields are the field pairs from the end of its heading line to
//!   the next entry heading or the end of the section.

use std::fmt;
use std::ops::Range;
use std::str::FromStr;

use crate::model::fields::{self, Field};
use crate::model::vocab::{Role, UnknownValue, WorkflowState};
use crate::records::record::{mask_fences, section_ranges};

/// The six fields of an entry, in the order RF §7.8 writes them.
pub const FIELDS: [&str; 6] = [
    "Recovery Frame",
    "Recovery Reason",
    "Purpose",
    "Target",
    "Assessed Inputs",
    "Next Action",
];

/// The role whose record holds the entries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Holder {
    /// The development plan, section `## Plan Notes`.
    Developer,
    /// The verification report, section `## Resume or Handoff`.
    Tester,
}

impl Holder {
    /// The record section that holds this role's entries.
    pub fn section(self) -> &'static str {
        match self {
            Holder::Developer => "Plan Notes",
            Holder::Tester => "Resume or Handoff",
        }
    }

    /// The role itself.
    pub fn role(self) -> Role {
        match self {
            Holder::Developer => Role::Developer,
            Holder::Tester => Role::Tester,
        }
    }

    /// The purpose that stands for the role's whole assignment, saved with
    /// target `NONE`: Developer's `DEVELOPMENT`, Tester's `FULL`.
    pub fn whole(self) -> Purpose {
        match self {
            Holder::Developer => Purpose::Development,
            Holder::Tester => Purpose::Full,
        }
    }

    /// The purposes this role may save (DV-019, VF-010).
    pub fn purposes(self) -> &'static [Purpose] {
        match self {
            Holder::Developer => &[
                Purpose::Development,
                Purpose::Increment,
                Purpose::Correction,
            ],
            Holder::Tester => &[Purpose::Full, Purpose::Increment, Purpose::Correction],
        }
    }

    /// Whose saved assignment a recovery frame interrupted, by the frame's
    /// `From` state (VF-000): `DEVELOPING` → Developer, `TESTING` → Tester;
    /// other states save none.
    pub fn interrupted_at(state: WorkflowState) -> Option<Holder> {
        match state {
            WorkflowState::Developing => Some(Holder::Developer),
            WorkflowState::Testing => Some(Holder::Tester),
            _ => None,
        }
    }
}

/// `Purpose` of a suspended assignment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Purpose {
    /// Developer's whole implementation assignment (target `NONE`).
    Development,
    /// Tester's whole assessment (target `NONE`).
    Full,
    /// One increment (target `Increment N`).
    Increment,
    /// One specific correction (target names it).
    Correction,
}

impl Purpose {
    pub const ALL: &'static [Purpose] = &[
        Purpose::Development,
        Purpose::Full,
        Purpose::Increment,
        Purpose::Correction,
    ];
    pub const NAMES: &'static [&'static str] = &["DEVELOPMENT", "FULL", "INCREMENT", "CORRECTION"];

    pub fn as_str(self) -> &'static str {
        match self {
            Purpose::Development => "DEVELOPMENT",
            Purpose::Full => "FULL",
            Purpose::Increment => "INCREMENT",
            Purpose::Correction => "CORRECTION",
        }
    }
}

impl FromStr for Purpose {
    type Err = UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Purpose::ALL
            .iter()
            .copied()
            .find(|p| p.as_str() == s)
            .ok_or_else(|| UnknownValue {
                what: "assignment purpose",
                found: s.to_string(),
                allowed: Purpose::NAMES,
            })
    }
}

impl fmt::Display for Purpose {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One `### Suspended Assignment <label>` entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SuspendedAssignment {
    /// The heading's label, e.g. `1` (not validated here).
    pub label: String,
    /// 1-based line of the heading in the record.
    pub line: usize,
    /// Every field pair of the entry in document order; spans are byte ranges
    /// of the record text.
    pub fields: Vec<Field>,
}

impl SuspendedAssignment {
    /// Every value of `name`, in order.
    pub fn values<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.fields
            .iter()
            .filter(move |f| f.name == name)
            .map(|f| f.value.as_str())
    }

    /// The first value of `name`.
    pub fn first(&self, name: &str) -> Option<&str> {
        fields::first(&self.fields, name).map(|f| f.value.as_str())
    }

    /// The value of `name` when it occurs exactly once.
    pub fn once(&self, name: &str) -> Option<&str> {
        let mut all = self.fields.iter().filter(|f| f.name == name);
        match (all.next(), all.next()) {
            (Some(f), None) => Some(f.value.as_str()),
            _ => None,
        }
    }

    /// `Recovery Frame`: the label of the frame this assignment belongs to.
    pub fn recovery_frame(&self) -> Option<&str> {
        self.first("Recovery Frame")
    }

    /// `Recovery Reason`: the `Reason` of that frame when it was saved.
    pub fn recovery_reason(&self) -> Option<&str> {
        self.first("Recovery Reason")
    }

    /// `Purpose`, when it is one of the four values.
    pub fn purpose(&self) -> Option<Purpose> {
        self.first("Purpose").and_then(|p| p.parse().ok())
    }

    /// `Target` as written (`NONE`, `Increment N` or a correction).
    pub fn target(&self) -> Option<&str> {
        self.first("Target")
    }
}

/// The suspended assignments saved in `record` (a plan for
/// [`Holder::Developer`], a verification report for [`Holder::Tester`]), in
/// document order. A record without the section has none.
pub fn parse(record: &str, holder: Holder) -> Vec<SuspendedAssignment> {
    let masked = mask_fences(record);
    let Some(body) = section_ranges(&masked, holder.section()).into_iter().next() else {
        return Vec::new();
    };
    let mut heads: Vec<(Range<usize>, String)> = Vec::new(); // heading line, label
    let mut pos = body.start;
    for line in masked[body.clone()].split_inclusive('\n') {
        if let Some(label) = entry_label(line) {
            heads.push((pos..pos + line.len(), label));
        }
        pos += line.len();
    }
    heads
        .iter()
        .enumerate()
        .map(|(i, (heading, label))| {
            let end = heads.get(i + 1).map_or(body.end, |(next, _)| next.start);
            let fields = fields::scan(&masked[heading.end..end])
                .into_iter()
                .map(|mut f| {
                    f.pair = f.pair.start + heading.end..f.pair.end + heading.end;
                    f.span = f.span.start + heading.end..f.span.end + heading.end;
                    f
                })
                .collect();
            SuspendedAssignment {
                label: label.clone(),
                line: fields::line_of(record, heading.start),
                fields,
            }
        })
        .collect()
}

/// A frame's saved assignment: the latest entry whose `Recovery Frame` is the
/// frame's label (compared as text, so `1 (scope)` never matches `1`).
pub fn saved_for<'a>(
    entries: &'a [SuspendedAssignment],
    frame_label: &str,
) -> Option<&'a SuspendedAssignment> {
    entries
        .iter()
        .rev()
        .find(|e| e.recovery_frame() == Some(frame_label))
}

/// The frame's match in VF-000's sense: its saved assignment, kept only when
/// that entry's `Recovery Reason` is exactly the frame's `Reason`. An older
/// entry for the same label never stands in for a stale latest one.
pub fn matching<'a>(
    entries: &'a [SuspendedAssignment],
    frame_label: &str,
    frame_reason: &str,
) -> Option<&'a SuspendedAssignment> {
    saved_for(entries, frame_label).filter(|e| e.recovery_reason() == Some(frame_reason))
}

/// `N` of a target written `Increment N`, N a positive integer without a
/// leading zero (check-rules §1.11).
pub fn increment_target(target: &str) -> Option<u64> {
    crate::records::plan::increment_target(target).and_then(|n| n.parse().ok())
}

/// The label of a `### Suspended Assignment <label>` line.
fn entry_label(line: &str) -> Option<String> {
    let line = line.trim_end_matches(['\n', '\r']);
    let rest = line.strip_prefix("###")?;
    if !rest.starts_with([' ', '\t']) {
        return None;
    }
    let rest = rest
        .trim_start_matches([' ', '\t'])
        .strip_prefix("Suspended Assignment")?;
    if rest.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    Some(rest.trim_matches([' ', '\t']).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLAN: &str = "<!-- STANDARDS\nArtifact: DEVELOPMENT\nCycle: c\n-->\n\n# Development Plan\n\n`Status`: `IN_PROGRESS`\n\n## Build Steps\n\n### Suspended Assignment 9\n\n`Recovery Frame`: `1`\n\n## Plan Notes\n\nResume notes.\n\n```markdown\n### Suspended Assignment 7\n`Recovery Frame`: `1`\n```\n\n### Suspended Assignment 1\r\n\n`Recovery Frame`: `1` `Recovery Reason`: `Old defect.`\n`Purpose`: `DEVELOPMENT` `Target`: `NONE`\n`Assessed Inputs`: `plan at abc123` `Next Action`: `Finish DEV-002.`\n\n### Suspended Assignments overview\n\n### Suspended Assignment 2 \n\n`Recovery Frame`: `1` `Recovery Reason`: `New defect.`\n`Purpose`: `INCREMENT` `Target`: `Increment 2` `Target`: `Increment 3`\n\n### Suspended Assignment\n\n`Recovery Frame`: `2`\n\n## Later\n\n### Suspended Assignment 8\n\n`Recovery Frame`: `1`\n";

    #[test]
    fn entries_come_from_the_holder_section_only() {
        let entries = parse(PLAN, Holder::Developer);
        let labels: Vec<_> = entries.iter().map(|e| e.label.as_str()).collect();
        assert_eq!(
            labels,
            ["1", "2", ""],
            "fenced, other-section and `Assignments` headings are not entries"
        );
        assert_eq!(entries[0].line, 25);
        assert_eq!(
            PLAN.split('\n').nth(24),
            Some("### Suspended Assignment 1\r")
        );
        assert!(
            parse(PLAN, Holder::Tester).is_empty(),
            "no Resume or Handoff section"
        );
    }

    #[test]
    fn fields_keep_every_occurrence_with_record_spans() {
        let entries = parse(PLAN, Holder::Developer);
        let first = &entries[0];
        assert_eq!(first.purpose(), Some(Purpose::Development));
        assert_eq!(first.target(), Some("NONE"));
        assert_eq!(first.once("Next Action"), Some("Finish DEV-002."));
        for f in &first.fields {
            let (_, value) = fields::code_span_at(PLAN, f.span.start).expect("span");
            assert_eq!(value, f.value);
        }
        let second = &entries[1];
        assert_eq!(
            second.values("Target").collect::<Vec<_>>(),
            ["Increment 2", "Increment 3"]
        );
        assert_eq!(second.once("Target"), None);
        assert_eq!(second.first("Target"), Some("Increment 2"));
        assert_eq!(
            second.first("Assessed Inputs"),
            None,
            "the overview heading does not end the entry, and has no fields"
        );
    }

    #[test]
    fn the_latest_entry_of_a_frame_is_its_saved_assignment() {
        let entries = parse(PLAN, Holder::Developer);
        assert_eq!(
            saved_for(&entries, "1").map(|e| e.label.as_str()),
            Some("2")
        );
        assert_eq!(saved_for(&entries, "2").map(|e| e.label.as_str()), Some(""));
        assert!(saved_for(&entries, "3").is_none());
        assert!(matching(&entries, "1", "New defect.").is_some());
        assert!(
            matching(&entries, "1", "Old defect.").is_none(),
            "a stale latest entry is not replaced by an older one"
        );
        assert!(matching(&entries, "2", "Any.").is_none(), "no reason saved");
    }

    #[test]
    fn purposes_targets_and_holders() {
        assert_eq!("CORRECTION".parse::<Purpose>(), Ok(Purpose::Correction));
        let err = "correction".parse::<Purpose>().unwrap_err();
        assert!(err
            .to_string()
            .contains("DEVELOPMENT, FULL, INCREMENT, CORRECTION"));
        assert!(!Holder::Developer.purposes().contains(&Purpose::Full));
        for holder in [Holder::Developer, Holder::Tester] {
            assert!(holder.purposes().contains(&holder.whole()));
        }
        assert_eq!(Holder::Tester.whole(), Purpose::Full);
        assert_eq!(Holder::Developer.role().to_string(), "Developer");
        assert!(!Holder::Tester.purposes().contains(&Purpose::Development));
        assert_eq!(
            Holder::interrupted_at(WorkflowState::Testing),
            Some(Holder::Tester)
        );
        assert_eq!(Holder::interrupted_at(WorkflowState::Architecting), None);
        assert_eq!(increment_target("Increment 12"), Some(12));
        for bad in [
            "Increment 0",
            "Increment 01",
            "Increment",
            "increment 1",
            "Increment 1 ",
        ] {
            assert_eq!(increment_target(bad), None, "{bad}");
        }
    }

    /// The nested-recovery conformance base saves, for every frame that
    /// interrupted a Developer or Tester, an assignment matching that frame.
    #[test]
    fn the_nested_recovery_fixture_saves_matching_assignments() {
        const BASE: &str = "fixtures/check/bases/nested-recovery";
        let state =
            include_str!("../../../../fixtures/check/bases/nested-recovery/.standards/STATE.md");
        let plan = include_str!("../../../../fixtures/check/bases/nested-recovery/.standards/docs/development/add-user-search-20260927T190146Z-7bef0f04.md");
        let report = include_str!("../../../../fixtures/check/bases/nested-recovery/.standards/docs/verification/add-user-search-20260927T190146Z-7bef0f04.md");
        let doc =
            crate::model::state::StateDoc::parse(state).unwrap_or_else(|e| panic!("{BASE}: {e}"));
        let (plan, report) = (
            parse(plan, Holder::Developer),
            parse(report, Holder::Tester),
        );
        let mut checked = 0;
        for frame in &doc.recovery.entries {
            let Some(holder) = frame.state("From").and_then(Holder::interrupted_at) else {
                continue;
            };
            let entries = match holder {
                Holder::Developer => &plan,
                Holder::Tester => &report,
            };
            let saved = matching(entries, &frame.label, frame.get("Reason").unwrap_or(""))
                .unwrap_or_else(|| panic!("{BASE}: frame {} has no saved assignment", frame.label));
            assert!(saved
                .purpose()
                .is_some_and(|p| holder.purposes().contains(&p)));
            for field in FIELDS {
                assert!(
                    saved.once(field).is_some_and(|v| !v.trim().is_empty()),
                    "{field}"
                );
            }
            checked += 1;
        }
        assert_eq!(checked, 2, "both frames interrupt a Developer or Tester");
    }

    #[test]
    fn a_report_section_ends_at_the_next_h2() {
        let report = "# Verification Report\n\n## Resume or Handoff:\n\n### Suspended Assignment 1\n`Purpose`: `FULL`\n## Execution Evidence\n`Purpose`: `INCREMENT`\n";
        let entries = parse(report, Holder::Tester);
        assert_eq!(entries.len(), 1);
        assert_eq!(entries[0].values("Purpose").collect::<Vec<_>>(), ["FULL"]);
    }
}
