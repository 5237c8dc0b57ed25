//! The three-way rule for `.standards/STATE.md` (decision D24).
//!
//! Git's line merge combines two branches' STATE.md edits silently when they
//! touch different lines, producing a workflow state neither branch had. So
//! STATE.md is merged as one value: when only one side changed it, that side
//! wins; when both changed it differently, the result is conflict markers
//! around both whole versions, each labelled with its cycle ID and workflow
//! state, and the user decides. The merge driver and `verify --into` share
//! this one function.

use crate::model::fields;
use crate::model::text::mask_html_comments;

/// Which of the three-way cases a merge fell into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MergeCase {
    /// Neither side changed the file: the base stands.
    Unchanged,
    /// Only "ours" changed it (or both made the same change): ours stands.
    OursOnly,
    /// Only "theirs" changed it: theirs stands.
    TheirsOnly,
    /// Both sides made byte-identical changes: that version stands.
    SameChange,
    /// Both changed it and the versions differ: the user must choose.
    Conflict,
}

impl MergeCase {
    /// Whether the merge produced a result without the user's decision.
    pub fn is_clean(self) -> bool {
        self != MergeCase::Conflict
    }

    /// A stable kebab-case name for JSON output.
    pub fn name(self) -> &'static str {
        match self {
            MergeCase::Unchanged => "unchanged",
            MergeCase::OursOnly => "ours-only",
            MergeCase::TheirsOnly => "theirs-only",
            MergeCase::SameChange => "same-change",
            MergeCase::Conflict => "conflict",
        }
    }
}

/// What one version of STATE.md says about the cycle it tracks, read
/// leniently: a damaged or half-edited file still yields whatever fields it has.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SideSummary {
    /// The Active Work `Id` (for a record, its `Cycle`), `None` when absent or `UNSET`.
    pub cycle: Option<String>,
    /// The Active Work `Request`, `None` when absent or `UNSET`.
    pub request: Option<String>,
    /// The `WorkflowState` value as written, `None` when absent.
    pub workflow_state: Option<String>,
}

impl SideSummary {
    /// Reads the fields from bytes that need not be UTF-8 or well formed.
    pub fn read(bytes: &[u8]) -> SideSummary {
        let text = String::from_utf8_lossy(bytes);
        let masked = mask_html_comments(&text);
        let found = fields::scan(&masked);
        let value = |name: &str| {
            fields::first(&found, name)
                .map(|f| f.value.clone())
                .filter(|v| !v.is_empty() && v != "UNSET")
        };
        SideSummary {
            cycle: value("Id").or_else(|| value("Cycle")),
            request: value("Request"),
            workflow_state: value("WorkflowState"),
        }
    }

    /// "cycle <id> (<state>)", or "no active cycle (<state>)", on one line.
    pub fn label(&self) -> String {
        let cycle = match &self.cycle {
            Some(id) => format!("cycle {id}"),
            None => "no active cycle".to_string(),
        };
        let state = self.workflow_state.as_deref().unwrap_or("no WorkflowState");
        one_line(&format!("{cycle} ({state})"))
    }
}

/// The result of merging three versions of STATE.md.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StateMerge {
    pub case: MergeCase,
    /// The merged bytes: one whole version, or both inside conflict markers.
    pub bytes: Vec<u8>,
    pub ours: SideSummary,
    pub theirs: SideSummary,
}

/// Merges three versions of STATE.md by the D24 rule. Never fails: any bytes,
/// valid or not, give a result (a merge driver that crashes aborts the merge).
pub fn merge(base: &[u8], ours: &[u8], theirs: &[u8]) -> StateMerge {
    let ours_summary = SideSummary::read(ours);
    let theirs_summary = SideSummary::read(theirs);
    let (case, bytes) = if ours == theirs {
        let case = if ours == base {
            MergeCase::Unchanged
        } else {
            MergeCase::SameChange
        };
        (case, ours.to_vec())
    } else if theirs == base {
        (MergeCase::OursOnly, ours.to_vec())
    } else if ours == base {
        (MergeCase::TheirsOnly, theirs.to_vec())
    } else {
        (
            MergeCase::Conflict,
            conflict_text(ours, &ours_summary, theirs, &theirs_summary),
        )
    };
    StateMerge {
        case,
        bytes,
        ours: ours_summary,
        theirs: theirs_summary,
    }
}

/// Both whole versions between git-style markers. The markers start at line
/// starts (so `workflow::conflicts::has_markers` finds them) and follow the
/// line ending "ours" uses.
fn conflict_text(
    ours: &[u8],
    ours_s: &SideSummary,
    theirs: &[u8],
    theirs_s: &SideSummary,
) -> Vec<u8> {
    let eol: &[u8] = if ours.windows(2).any(|w| w == b"\r\n") {
        b"\r\n"
    } else {
        b"\n"
    };
    let mut out = Vec::with_capacity(ours.len() + theirs.len() + 160);
    let push_line = |out: &mut Vec<u8>, line: &str| {
        out.extend_from_slice(line.as_bytes());
        out.extend_from_slice(eol);
    };
    push_line(&mut out, &format!("<<<<<<< ours: {}", ours_s.label()));
    push_body(&mut out, ours, eol);
    push_line(&mut out, "=======");
    push_body(&mut out, theirs, eol);
    push_line(&mut out, &format!(">>>>>>> theirs: {}", theirs_s.label()));
    out
}

/// A whole version verbatim, ending with a line break so the next marker
/// starts a line.
fn push_body(out: &mut Vec<u8>, body: &[u8], eol: &[u8]) {
    out.extend_from_slice(body);
    if !body.is_empty() && !body.ends_with(b"\n") {
        out.extend_from_slice(eol);
    }
}

/// Control characters (line breaks included) become spaces so a label can
/// never end its marker line early.
fn one_line(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workflow::conflicts::has_markers;
    use proptest::prelude::*;

    const BASE: &str = "# S.T.A.N.D.A.R.D.S. Workflow State\n\n`WorkflowState`: `SCOPING` `CycleMode`: `STANDARD`\n\n## Active Work\n\n`Id`: `add-x-1` `Request`: `Add x`\n\n`BlockedOn`: `NONE`\n";

    fn edit(from: &str, to: &str) -> String {
        assert!(BASE.contains(from));
        BASE.replacen(from, to, 1)
    }

    #[test]
    fn only_one_side_changed_takes_that_side() {
        let theirs = edit("`SCOPING`", "`ARCHITECTING`");
        let m = merge(BASE.as_bytes(), BASE.as_bytes(), theirs.as_bytes());
        assert_eq!(m.case, MergeCase::TheirsOnly);
        assert_eq!(m.bytes, theirs.as_bytes());

        let m = merge(BASE.as_bytes(), theirs.as_bytes(), BASE.as_bytes());
        assert_eq!(m.case, MergeCase::OursOnly);
        assert_eq!(m.bytes, theirs.as_bytes());
        assert!(m.case.is_clean());
    }

    #[test]
    fn unchanged_and_identical_changes_are_clean() {
        let m = merge(BASE.as_bytes(), BASE.as_bytes(), BASE.as_bytes());
        assert_eq!(m.case, MergeCase::Unchanged);
        assert_eq!(m.bytes, BASE.as_bytes());
        let both = edit("`NONE`", "`Which database?`");
        let m = merge(BASE.as_bytes(), both.as_bytes(), both.as_bytes());
        assert_eq!(m.case, MergeCase::SameChange);
        assert_eq!(m.bytes, both.as_bytes());
    }

    /// The D24 example: edits on different lines that git would combine.
    #[test]
    fn edits_on_different_lines_conflict_with_labelled_whole_versions() {
        let ours = edit("`SCOPING`", "`ARCHITECTING`");
        let theirs = edit("`BlockedOn`: `NONE`", "`BlockedOn`: `Which database?`")
            .replace("`add-x-1`", "`add-y-2`");
        let m = merge(BASE.as_bytes(), ours.as_bytes(), theirs.as_bytes());
        assert_eq!(m.case, MergeCase::Conflict);
        assert!(!m.case.is_clean());
        let text = String::from_utf8(m.bytes).unwrap();
        let expected = format!(
            "<<<<<<< ours: cycle add-x-1 (ARCHITECTING)\n{ours}=======\n{theirs}>>>>>>> theirs: cycle add-y-2 (SCOPING)\n"
        );
        assert_eq!(text, expected);
        assert!(has_markers(&text));
        assert_eq!(m.ours.request.as_deref(), Some("Add x"));
        assert_eq!(m.theirs.cycle.as_deref(), Some("add-y-2"));
    }

    #[test]
    fn labels_survive_damaged_input() {
        let m = merge(b"", b"\xff\xfe garbage", b"`Id`: `a\nb`");
        assert_eq!(m.case, MergeCase::Conflict);
        let text = String::from_utf8_lossy(&m.bytes).into_owned();
        assert!(text.starts_with("<<<<<<< ours: no active cycle (no WorkflowState)\n"));
        assert!(m.bytes.windows(10).any(|w| w == b"\xff\xfe garbage"));
        assert!(text.ends_with(">>>>>>> theirs: cycle a b (no WorkflowState)\n"));
    }

    #[test]
    fn unset_and_commented_ids_name_no_cycle() {
        let s =
            SideSummary::read(b"<!-- `Id`: `x-1` -->\n`WorkflowState`: `READY`\n`Id`: `UNSET`\n");
        assert_eq!(s.cycle, None);
        assert_eq!(s.label(), "no active cycle (READY)");
    }

    #[test]
    fn crlf_files_get_crlf_markers_and_missing_final_newline_is_added() {
        let m = merge(b"a\r\n", b"`Id`: `o-1`\r\nx", b"`Id`: `t-2`\r\n");
        let text = String::from_utf8(m.bytes).unwrap();
        assert_eq!(
            text,
            "<<<<<<< ours: cycle o-1 (no WorkflowState)\r\n`Id`: `o-1`\r\nx\r\n=======\r\n`Id`: `t-2`\r\n>>>>>>> theirs: cycle t-2 (no WorkflowState)\r\n"
        );
    }

    #[test]
    fn a_label_cannot_break_its_marker_line() {
        let s = SideSummary {
            cycle: Some("a\nb".into()),
            request: None,
            workflow_state: Some("X\r".into()),
        };
        assert_eq!(s.label(), "cycle a b (X )");
    }

    proptest! {
        /// D24 is a function of byte equality alone, and a clean result is
        /// always one of the inputs, verbatim.
        #[test]
        fn the_case_follows_byte_equality(
            base in proptest::collection::vec(any::<u8>(), 0..64),
            ours in proptest::collection::vec(any::<u8>(), 0..64),
            theirs in proptest::collection::vec(any::<u8>(), 0..64),
        ) {
            let m = merge(&base, &ours, &theirs);
            let expected = if ours == theirs && ours == base {
                MergeCase::Unchanged
            } else if ours == theirs {
                MergeCase::SameChange
            } else if theirs == base {
                MergeCase::OursOnly
            } else if ours == base {
                MergeCase::TheirsOnly
            } else {
                MergeCase::Conflict
            };
            prop_assert_eq!(m.case, expected);
            match m.case {
                MergeCase::TheirsOnly => prop_assert_eq!(&m.bytes, &theirs),
                MergeCase::Conflict => {}
                _ => prop_assert_eq!(&m.bytes, &ours),
            }
        }

        /// A conflict holds both whole versions, in order, between markers
        /// that begin lines, whatever the input bytes.
        #[test]
        fn a_conflict_holds_both_versions_verbatim(
            ours in "[ -~\n]{0,80}",
            theirs in "[ -~\n]{0,80}",
        ) {
            prop_assume!(ours != theirs && !ours.is_empty() && !theirs.is_empty());
            let m = merge(b"base that neither side kept", ours.as_bytes(), theirs.as_bytes());
            prop_assert_eq!(m.case, MergeCase::Conflict);
            let text = String::from_utf8(m.bytes).unwrap();
            let first_nl = text.find('\n').unwrap();
            prop_assert!(text[..first_nl].starts_with("<<<<<<< ours: "));
            let body = &text[first_nl + 1..];
            prop_assert!(body.starts_with(&ours));
            let after_ours = &body[ours.len()..];
            let after_ours = after_ours.strip_prefix('\n').filter(|_| !ours.ends_with('\n')).unwrap_or(after_ours);
            let rest = after_ours.strip_prefix("=======\n").unwrap();
            prop_assert!(rest.starts_with(&theirs));
            let tail = &rest[theirs.len()..];
            let tail = tail.strip_prefix('\n').filter(|_| !theirs.ends_with('\n')).unwrap_or(tail);
            prop_assert!(tail.starts_with(">>>>>>> theirs: "));
            prop_assert_eq!(tail.matches('\n').count(), 1);
            prop_assert!(has_markers(&text));
        }

        /// Labels are always one line, for any field values.
        #[test]
        fn labels_are_one_line(id in "\\PC{0,20}", state in any::<String>()) {
            let s = SideSummary { cycle: Some(id), request: None, workflow_state: Some(state) };
            prop_assert!(!s.label().contains('\n') && !s.label().contains('\r'));
        }
    }
}
