//! The verification report (RF §7.4; check-rules §1.11): what the header says
//! is being assessed (`Assessment Purpose`, `Assessment Target`, `Status`),
//! the "Increment Assessments" table, and the evidence sections.
//!
//! Pure text functions: nothing here reads files or decides what is a problem.

use crate::model::fields::{self, Field};
use crate::records::plan::{
    exactly_once, increment_target, is_positive_integer, js_trim, lf, Once,
};
use crate::records::record::{fenced_lines, h2_name, header_fields, section_body};

/// `Assessment Purpose` (RF §7.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    Full,
    Increment,
    Correction,
}

impl Purpose {
    pub const NAMES: [&'static str; 3] = ["FULL", "INCREMENT", "CORRECTION"];

    pub fn parse(s: &str) -> Option<Purpose> {
        match s {
            "FULL" => Some(Purpose::Full),
            "INCREMENT" => Some(Purpose::Increment),
            "CORRECTION" => Some(Purpose::Correction),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Purpose::Full => "FULL",
            Purpose::Increment => "INCREMENT",
            Purpose::Correction => "CORRECTION",
        }
    }
}

/// An increment assessment's disposition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Disposition {
    Verified,
    Blocked,
    Superseded,
}

impl Disposition {
    pub const NAMES: [&'static str; 3] = ["VERIFIED", "BLOCKED", "SUPERSEDED"];

    pub fn parse(s: &str) -> Option<Disposition> {
        match s {
            "VERIFIED" => Some(Disposition::Verified),
            "BLOCKED" => Some(Disposition::Blocked),
            "SUPERSEDED" => Some(Disposition::Superseded),
            _ => None,
        }
    }
}

/// A row of "Increment Assessments" whose first cell is a positive integer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AssessmentRow {
    /// Every cell, trimmed; the first is the increment number.
    pub cells: Vec<String>,
}

impl AssessmentRow {
    pub fn number(&self) -> &str {
        &self.cells[0]
    }

    /// Outcome, evidence and disposition, when the row has exactly four cells
    /// and the fourth is a known disposition (VF-007).
    pub fn parts(&self) -> Option<(&str, &str, Disposition)> {
        match self.cells.as_slice() {
            [_, outcome, evidence, disposition] => {
                Disposition::parse(disposition).map(|d| (outcome.as_str(), evidence.as_str(), d))
            }
            _ => None,
        }
    }
}

/// The rows of the first "Increment Assessments" section (fenced lines
/// blanked). A line is split at `|` and its first and last pieces dropped, so
/// only rows that start and end with `|` have cells; rows whose first cell is
/// not a positive integer (headers, separators, prose) are skipped.
pub fn assessment_rows(text: &str) -> Vec<AssessmentRow> {
    let Some(section) = section_body(&lf(text), "Increment Assessments") else {
        return Vec::new();
    };
    section
        .lines()
        .filter_map(|line| {
            let pieces: Vec<&str> = line.split('|').collect();
            if pieces.len() < 3 {
                return None;
            }
            let cells: Vec<String> = pieces[1..pieces.len() - 1]
                .iter()
                .map(|c| js_trim(c).to_string())
                .collect();
            is_positive_integer(&cells[0]).then_some(AssessmentRow { cells })
        })
        .collect()
}

/// The body of the first section `name` with fenced content kept (the
/// "Execution Evidence" reading); H2 lines inside fences still do not count
/// as headings. `None` when there is no such section.
pub fn section_with_fences(text: &str, name: &str) -> Option<String> {
    let text = lf(text);
    let fenced = fenced_lines(&text);
    let want = name.to_lowercase();
    let mut body: Option<String> = None;
    let mut pos = 0;
    for line in text.split_inclusive('\n') {
        let in_fence = fenced.iter().any(|r| r.start == pos);
        pos += line.len();
        let heading = if in_fence { None } else { h2_name(line) };
        match (&mut body, heading) {
            (Some(_), Some(_)) => break,
            (Some(b), None) => b.push_str(line),
            (None, Some(h)) if h == want => body = Some(String::new()),
            (None, _) => {}
        }
    }
    body
}

/// Whether `word` occurs in `text` as a whole word (ASCII word boundaries).
pub fn contains_word(text: &str, word: &str) -> bool {
    let is_word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let b = text.as_bytes();
    text.match_indices(word).any(|(i, w)| {
        (i == 0 || !is_word(b[i - 1])) && b.get(i + w.len()).is_none_or(|c| !is_word(*c))
    })
}

/// A verification report read once: header and increment assessments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// Header field pairs (check-rules §1.6).
    pub header: Vec<Field>,
    pub rows: Vec<AssessmentRow>,
    /// "Execution Evidence", fenced content included; `None` without the section.
    pub execution_evidence: Option<String>,
    /// "Acceptance Evidence", fenced lines blanked; `None` without the section.
    pub acceptance_evidence: Option<String>,
}

impl Report {
    pub fn parse(text: &str) -> Report {
        let text = lf(text);
        Report {
            header: header_fields(&text),
            rows: assessment_rows(&text),
            execution_evidence: section_with_fences(&text, "Execution Evidence"),
            acceptance_evidence: section_body(&text, "Acceptance Evidence"),
        }
    }

    /// Header `Status` (first occurrence).
    pub fn status(&self) -> Option<&str> {
        fields::first(&self.header, "Status").map(|f| f.value.as_str())
    }

    /// `Assessment Purpose` under the exactly-once rule.
    pub fn purpose_field(&self) -> Once<'_> {
        exactly_once(&self.header, "Assessment Purpose")
    }

    /// The purpose, when present once with a valid value (an invalid purpose
    /// counts as none, VF-001).
    pub fn purpose(&self) -> Option<Purpose> {
        self.purpose_field().value().and_then(Purpose::parse)
    }

    /// `Assessment Target` under the exactly-once rule.
    pub fn target_field(&self) -> Once<'_> {
        exactly_once(&self.header, "Assessment Target")
    }

    pub fn target(&self) -> Option<&str> {
        self.target_field().value()
    }

    /// The increment the target names, when it is exactly `Increment N`.
    pub fn target_increment(&self) -> Option<&str> {
        self.target().and_then(increment_target)
    }

    /// Whether the report assesses increment `n`: purpose `INCREMENT` and target `Increment n`.
    pub fn assesses_increment(&self, n: &str) -> bool {
        self.purpose() == Some(Purpose::Increment) && self.target_increment() == Some(n)
    }

    /// The last well-formed assessment row for increment `n`.
    pub fn assessment(&self, n: &str) -> Option<(&str, &str, Disposition)> {
        self.rows
            .iter()
            .filter(|r| r.number() == n)
            .filter_map(AssessmentRow::parts)
            .next_back()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const REPORT: &str = "<!-- STANDARDS\nArtifact: VERIFICATION\nCycle: c\n-->\n\n# Verification Report\n\n`Status`: `IN_PROGRESS` `Assessment Purpose`: `INCREMENT`\n`Assessment Target`: `Increment 1`\n\n## Acceptance Evidence\n\n| AC-004 | DEV-002 | AWAITING_IMPLEMENTATION |\n```\nAWAITING_FENCED\n```\n\n## Increment Assessments\n\n| Increment | Outcome | Evidence | Disposition |\n| --- | --- | --- | --- |\n| 1 | Endpoint | run 1 | BLOCKED |\n| 1 | Endpoint | run 2 | VERIFIED |\n| 2 | too | few |\n| 01 | x | y | VERIFIED |\nno pipes here\n|\n| 3 |\n\n## Execution Evidence\n\n```text\n$ cargo test\n## not a heading\nexit 0\n```\n\n## Resume or Handoff\n";

    #[test]
    fn header_and_rows() {
        let r = Report::parse(REPORT);
        assert_eq!(r.status(), Some("IN_PROGRESS"));
        assert_eq!(r.purpose(), Some(Purpose::Increment));
        assert_eq!(r.target_increment(), Some("1"));
        assert!(r.assesses_increment("1") && !r.assesses_increment("2"));
        let numbers: Vec<_> = r.rows.iter().map(|r| r.number()).collect();
        assert_eq!(numbers, ["1", "1", "2", "3"]);
        assert_eq!(r.rows[2].parts(), None);
        assert_eq!(r.rows[3].cells, ["3"]);
        assert_eq!(
            r.assessment("1"),
            Some(("Endpoint", "run 2", Disposition::Verified))
        );
        assert_eq!(r.assessment("2"), None);
    }

    #[test]
    fn evidence_sections() {
        let r = Report::parse(REPORT);
        let exec = r.execution_evidence.unwrap();
        assert!(exec.contains("$ cargo test") && exec.contains("## not a heading"));
        assert!(!exec.contains("Resume"));
        let acc = r.acceptance_evidence.unwrap();
        assert!(contains_word(&acc, "AWAITING_IMPLEMENTATION"));
        assert!(!acc.contains("AWAITING_FENCED"));
        assert_eq!(section_with_fences("# T\n", "Execution Evidence"), None);
    }

    #[test]
    fn whole_words() {
        assert!(contains_word(
            "a AWAITING_IMPLEMENTATION.",
            "AWAITING_IMPLEMENTATION"
        ));
        assert!(!contains_word(
            "NOT_AWAITING_IMPLEMENTATION",
            "AWAITING_IMPLEMENTATION"
        ));
        assert!(!contains_word(
            "AWAITING_IMPLEMENTATIONS",
            "AWAITING_IMPLEMENTATION"
        ));
        assert!(contains_word(
            "é AWAITING_IMPLEMENTATION",
            "AWAITING_IMPLEMENTATION"
        ));
    }

    #[test]
    fn odd_reports_do_not_panic() {
        for text in [
            "",
            "# V\n",
            "## Increment Assessments\n||\n|",
            "## Increment Assessments\r\n| 1 | a | b | VERIFIED |\r\n",
        ] {
            let r = Report::parse(text);
            let _ = (r.purpose(), r.target_increment(), r.assessment("1"));
        }
        let crlf = Report::parse("## Increment Assessments\r\n| 1 | a | b | VERIFIED |\r\n");
        assert_eq!(
            crlf.assessment("1"),
            Some(("a", "b", Disposition::Verified))
        );
    }
}
