//! Suspended assignments (RF §7.8; check-rules §1.11, DV-019, VF-010 and the
//! VF-000 "saved assignments" definitions): `### Suspended Assignment <label>`
//! entries that the Developer keeps under "Plan Notes" and the Tester under
//! "Resume or Handoff", each tied to a recovery frame by number and reason.
//!
//! Entries are read by the shared parser in `records::assignments`; this
//! module adds what DV-019/VF-010 validate (each field exactly once, purposes,
//! targets and numbering) and the VF-000 matching of frames to entries.

use crate::model::fields::Field;
use crate::records::plan::{exactly_once, increment_target, is_positive_integer, lf, Once};

pub use crate::records::assignments::Holder;

/// The purposes a holder may save, spelled as in records.
fn purposes(holder: Holder) -> Vec<&'static str> {
    holder.purposes().iter().map(|p| p.as_str()).collect()
}

const REQUIRED: [&str; 6] = [
    "Purpose",
    "Target",
    "Recovery Frame",
    "Recovery Reason",
    "Assessed Inputs",
    "Next Action",
];

/// One `### Suspended Assignment <label>` entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assignment {
    /// The heading text after `### Suspended Assignment `, trailing whitespace removed.
    pub label: String,
    /// Every field pair of the entry (all occurrences count).
    pub fields: Vec<Field>,
}

impl Assignment {
    fn once(&self, name: &str) -> Once<'_> {
        exactly_once(&self.fields, name)
    }

    /// `Purpose`, when present once with a value allowed for `holder`.
    pub fn purpose(&self, holder: Holder) -> Option<&str> {
        self.once("Purpose")
            .value()
            .filter(|p| purposes(holder).contains(p))
    }

    /// `Target`, when present once and nonempty.
    pub fn target(&self) -> Option<&str> {
        self.once("Target").value()
    }

    /// `Recovery Frame`, when present once and nonempty.
    pub fn frame(&self) -> Option<&str> {
        self.once("Recovery Frame").value()
    }

    /// `Recovery Reason`, when present once and nonempty.
    pub fn reason(&self) -> Option<&str> {
        self.once("Recovery Reason").value()
    }
}

/// The entries of the holder's section in `text` (its first such section,
/// fenced lines blanked), in order.
pub fn entries(text: &str, holder: Holder) -> Vec<Assignment> {
    crate::records::assignments::parse(&lf(text), holder)
        .into_iter()
        .map(|a| Assignment {
            label: a.label,
            fields: a.fields,
        })
        .collect()
}

/// Every defect of the entries (DV-019 for the Developer, VF-010 for the
/// Tester), one message per defect, in entry order; each message names its entry.
pub fn defects(entries: &[Assignment], holder: Holder) -> Vec<String> {
    let mut out = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    for entry in entries {
        let mut defect = |what: String| {
            out.push(format!("Suspended Assignment {}: {what}", entry.label));
        };
        if !is_positive_integer(&entry.label) {
            defect("its number must be a positive integer such as `1`".into());
        }
        if seen.contains(&entry.label.as_str()) {
            defect(
                "this number is used by an earlier entry; numbers are unique and never reused"
                    .into(),
            );
        }
        seen.push(&entry.label);
        for name in REQUIRED {
            if let Some(what) = entry.once(name).defect() {
                defect(format!(
                    "`{name}` {what}; it needs exactly one concrete value"
                ));
            }
        }
        let purpose = entry.once("Purpose").value();
        if let Some(p) = purpose.filter(|p| !purposes(holder).contains(p)) {
            defect(format!(
                "`Purpose` `{p}` is not a {} purpose; use {}",
                holder.role(),
                purposes(holder).join(", ")
            ));
        }
        let purpose = entry.purpose(holder);
        if let Some(frame) = entry.frame().filter(|f| !is_positive_integer(f)) {
            defect(format!(
                "`Recovery Frame` `{frame}` must be the frame's number, a positive integer"
            ));
        }
        let target = entry.target();
        if purpose == Some("INCREMENT") && target.and_then(increment_target).is_none() {
            defect("an INCREMENT assignment needs `Target` `Increment N`".into());
        }
        if purpose == Some(holder.whole().as_str()) && target != Some("NONE") {
            defect(format!(
                "a {} assignment covers the whole role, so its `Target` must be `NONE`",
                holder.whole()
            ));
        }
        if purpose == Some("CORRECTION") && target == Some("NONE") {
            defect(
                "a CORRECTION assignment must name the specific correction in `Target`, not `NONE`"
                    .into(),
            );
        }
    }
    out
}

/// The saved assignment of a frame (VF-000): the latest entry whose `Recovery
/// Frame` is the frame's label, kept only when its `Recovery Reason` is the
/// frame's `Reason` (frame numbers are reused after a pop, reasons tell them apart).
pub fn saved_for<'e>(
    entries: &'e [Assignment],
    frame_label: &str,
    frame_reason: Option<&str>,
) -> Option<&'e Assignment> {
    latest(entries, frame_label).filter(|a| a.reason().is_some() && a.reason() == frame_reason)
}

/// The latest entry whose `Recovery Frame` is `frame_label`, whatever its reason.
pub fn latest<'e>(entries: &'e [Assignment], frame_label: &str) -> Option<&'e Assignment> {
    entries
        .iter()
        .rev()
        .find(|a| a.frame() == Some(frame_label))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sa(n: &str, frame: &str, purpose: &str, target: &str, reason: &str) -> String {
        format!(
            "### Suspended Assignment {n}\n\n`Recovery Frame`: `{frame}` `Recovery Reason`: `{reason}`\n`Purpose`: `{purpose}`\n`Target`: `{target}`\n`Assessed Inputs`: `plan at abc123`\n`Next Action`: `rerun the suite`\n\n"
        )
    }

    #[test]
    fn reads_entries_of_the_holders_section_only() {
        let text = format!(
            "# Verification Report\n\n## Resume or Handoff\n\n{}{}```\n{}```\n## Plan Notes\n{}",
            sa("1", "1", "INCREMENT", "Increment 1", "A defect."),
            sa("2", "1", "FULL", "NONE", "A defect."),
            sa("9", "9", "FULL", "NONE", "fenced"),
            sa("3", "3", "DEVELOPMENT", "NONE", "other"),
        );
        let e = entries(&text, Holder::Tester);
        let labels: Vec<_> = e.iter().map(|a| a.label.as_str()).collect();
        assert_eq!(labels, ["1", "2"]);
        assert!(defects(&e, Holder::Tester).is_empty());
        assert_eq!(latest(&e, "1").map(|a| a.label.as_str()), Some("2"));
        assert_eq!(
            saved_for(&e, "1", Some("A defect.")).map(|a| a.label.as_str()),
            Some("2")
        );
        assert!(saved_for(&e, "1", Some("Another defect.")).is_none());
        assert!(saved_for(&e, "1", None).is_none());
        assert_eq!(entries(&text, Holder::Developer)[0].label, "3");
    }

    #[test]
    fn every_defect_is_named() {
        let text = format!(
            "## Plan Notes\n{}{}{}### Suspended Assignment x\n`Purpose`: `CORRECTION` `Purpose`: `CORRECTION`\n",
            sa("1", "0", "FULL", "Increment 1", "r"),
            sa("1", "1", "INCREMENT", "Step 3", "r"),
            sa("2", "2", "CORRECTION", "NONE", "r"),
        );
        let d = defects(&entries(&text, Holder::Developer), Holder::Developer);
        let has = |s: &str| d.iter().any(|m| m.contains(s));
        assert!(has(
            "Suspended Assignment 1: `Purpose` `FULL` is not a Developer purpose"
        ));
        assert!(has("`Recovery Frame` `0`"));
        assert!(has("Suspended Assignment 1: this number is used"));
        assert!(has("INCREMENT assignment needs"));
        assert!(has("CORRECTION assignment must name"));
        assert!(has("Suspended Assignment x: its number"));
        assert!(has("Suspended Assignment x: `Purpose` appears 2 times"));
        assert!(has("Suspended Assignment x: `Next Action` is missing"));
        let whole = format!(
            "## Resume or Handoff\n{}",
            sa("1", "1", "FULL", "Increment 2", "r")
        );
        let d = defects(&entries(&whole, Holder::Tester), Holder::Tester);
        assert_eq!(d.len(), 1, "{d:?}");
        assert!(d[0].contains("`Target` must be `NONE`"));
    }

    #[test]
    fn odd_input_does_not_panic() {
        for text in [
            "",
            "## Plan Notes",
            "## Plan Notes\n### Suspended Assignment ",
            "## Plan Notes\r\n### Suspended Assignment 1\r\n`Purpose`: ``\r\n",
        ] {
            let e = entries(text, Holder::Developer);
            let _ = defects(&e, Holder::Developer);
        }
    }
}
