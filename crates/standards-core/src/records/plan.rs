//! The development plan (RF §7.3; check-rules §1.10, §1.11): build steps with
//! their fields, dependencies and Self-Check evidence, the plan's verification
//! cadence and `Current Increment`, its `### Increment N` entries, and the
//! `Increment N` references that targets and checkpoint reasons make.
//!
//! Pure text functions: nothing here reads files or decides what is a problem;
//! `check` (DV, VF rules) and later commands interpret what they return.

use std::borrow::Cow;

use crate::model::fields::{self, is_js_whitespace, Field};
use crate::model::vocab::IdPrefix;
use crate::records::record::{header_fields, mask_fences, section_body};

/// The text with CRLF line ends turned into LF: the catalogue splits lines on
/// LF with an optional CR (check-rules §1.1), so a CR never belongs to a line.
pub fn lf(text: &str) -> Cow<'_, str> {
    if text.contains('\r') {
        Cow::Owned(text.replace("\r\n", "\n"))
    } else {
        Cow::Borrowed(text)
    }
}

pub use crate::model::fields::js_trim;

/// How a field that must occur exactly once with a nonempty value was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Once<'a> {
    Missing,
    /// Occurs this many times (two or more).
    Repeated(usize),
    /// Occurs once, but its value is empty or only whitespace.
    Blank,
    Value(&'a str),
}

impl<'a> Once<'a> {
    /// The value, when the field occurs exactly once with a nonempty value.
    pub fn value(self) -> Option<&'a str> {
        match self {
            Once::Value(v) => Some(v),
            _ => None,
        }
    }

    /// Says what is wrong, for a message; `None` when there is a usable value.
    pub fn defect(self) -> Option<String> {
        match self {
            Once::Missing => Some("is missing".into()),
            Once::Repeated(n) => Some(format!("appears {n} times")),
            Once::Blank => Some("is empty".into()),
            Once::Value(_) => None,
        }
    }
}

/// Reads `name` from `fields` under the exactly-once-and-nonempty rule.
pub fn exactly_once<'a>(fields: &'a [Field], name: &str) -> Once<'a> {
    let mut found = fields.iter().filter(|f| f.name == name);
    let Some(first) = found.next() else {
        return Once::Missing;
    };
    let more = found.count();
    if more > 0 {
        Once::Repeated(more + 1)
    } else if js_trim(&first.value).is_empty() {
        Once::Blank
    } else {
        Once::Value(&first.value)
    }
}

/// A digit string without a leading zero (check-rules §1.11). Compared as
/// text, never converted, so any length is fine.
pub fn is_positive_integer(s: &str) -> bool {
    s.bytes().next().is_some_and(|b| (b'1'..=b'9').contains(&b))
        && s.bytes().all(|b| b.is_ascii_digit())
}

/// Exactly `PREFIX-NNN` with at least three ASCII digits.
pub fn is_identifier(s: &str, prefix: IdPrefix) -> bool {
    s.strip_prefix(prefix.as_str())
        .and_then(|r| r.strip_prefix('-'))
        .is_some_and(|d| d.len() >= 3 && d.bytes().all(|b| b.is_ascii_digit()))
}

/// The number `N` of a value that is exactly `Increment N` (one space, `N` a
/// positive integer): an assessment or suspended-assignment target.
pub fn increment_target(value: &str) -> Option<&str> {
    value
        .strip_prefix("Increment ")
        .filter(|n| is_positive_integer(n))
}

/// Every `Increment N` mention in a checkpoint's `Handoff.Reason` (TR-028):
/// the word `Increment` in any ASCII case at a word boundary, one space, and a
/// positive integer ending at a word boundary. Repeats count separately.
pub fn increment_mentions(text: &str) -> Vec<&str> {
    const WORD: &[u8] = b"increment";
    let b = text.as_bytes();
    let is_word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut out = Vec::new();
    let mut i = 0;
    while i + WORD.len() < b.len() {
        let starts = b[i..i + WORD.len()].eq_ignore_ascii_case(WORD)
            && (i == 0 || !is_word(b[i - 1]))
            && b[i + WORD.len()] == b' ';
        if starts {
            let digits = i + WORD.len() + 1;
            let mut end = digits;
            while end < b.len() && b[end].is_ascii_digit() {
                end += 1;
            }
            let bounded = end == b.len() || !is_word(b[end]);
            if end > digits && b[digits] != b'0' && bounded {
                out.push(&text[digits..end]);
                i = end;
                continue;
            }
        }
        i += 1;
    }
    out
}

/// Splits a comma-separated identifier list (DV-012, DV-013): whitespace
/// around commas is ignored, nothing else is trimmed, and every item must be
/// exactly `PREFIX-NNN`. `None` when any item is not.
pub fn identifier_list(value: &str, prefix: IdPrefix) -> Option<Vec<String>> {
    let pieces: Vec<&str> = value.split(',').collect();
    let last = pieces.len() - 1;
    let mut out = Vec::with_capacity(pieces.len());
    for (i, piece) in pieces.iter().enumerate() {
        let mut item = *piece;
        if i > 0 {
            item = item.trim_start_matches(is_js_whitespace);
        }
        if i < last {
            item = item.trim_end_matches(is_js_whitespace);
        }
        if !is_identifier(item, prefix) {
            return None;
        }
        out.push(item.to_string());
    }
    Some(out)
}

/// The plan's `Verification Cadence` (RF §7.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cadence {
    AfterImplementation,
    Incremental,
}

impl Cadence {
    pub const NAMES: [&'static str; 2] = ["AFTER_IMPLEMENTATION", "INCREMENTAL"];

    pub fn parse(s: &str) -> Option<Cadence> {
        match s {
            "AFTER_IMPLEMENTATION" => Some(Cadence::AfterImplementation),
            "INCREMENTAL" => Some(Cadence::Incremental),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Cadence::AfterImplementation => "AFTER_IMPLEMENTATION",
            Cadence::Incremental => "INCREMENTAL",
        }
    }
}

/// Plan `Status` values (RF §7.3).
pub const PLAN_STATUSES: [&str; 4] = ["PROPOSED", "APPROVED", "IN_PROGRESS", "COMPLETE"];
/// Step `Status` values.
pub const STEP_STATUSES: [&str; 3] = ["PENDING", "IN_PROGRESS", "DONE"];

/// One `### DEV-NNN` build step (check-rules §1.10).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// `DEV-NNN` as written in the heading.
    pub id: String,
    /// The step's field pairs outside fenced code, in order.
    pub fields: Vec<Field>,
    /// The step's text after its heading line, fenced content included.
    pub raw: String,
}

impl Step {
    /// The first occurrence of a field: later prose (a test's `Status`) never overrides it.
    pub fn field(&self, name: &str) -> Option<&str> {
        fields::first(&self.fields, name).map(|f| f.value.as_str())
    }

    pub fn status(&self) -> Option<&str> {
        self.field("Status")
    }

    /// `Depends On` targets in listed order: absent or `NONE` means none;
    /// otherwise the trimmed value split at commas, spaces around them ignored.
    /// Items are not validated, so an unknown or malformed one stays visible.
    pub fn depends_on(&self) -> Vec<String> {
        let value = js_trim(self.field("Depends On").unwrap_or("NONE"));
        if value == "NONE" {
            return Vec::new();
        }
        value.split(',').map(|t| js_trim(t).to_string()).collect()
    }

    /// The saved Self-Check evidence (check-rules §1.11): the text after a line
    /// that is exactly `**Self-Check**` up to the next line starting with `**`,
    /// trimmed; `None` when there is no such line or the text is empty.
    pub fn self_check(&self) -> Option<String> {
        let text = after_label_line(&self.raw, "**Self-Check**")?;
        let mut body = String::new();
        for line in text.split('\n') {
            if line.starts_with("**") {
                break;
            }
            body.push_str(line);
            body.push('\n');
        }
        let body = js_trim(&body);
        (!body.is_empty()).then(|| body.to_string())
    }
}

/// The text after the first line consisting of `label` (trailing whitespace
/// allowed), or `None` when no line is.
fn after_label_line<'t>(text: &'t str, label: &str) -> Option<&'t str> {
    let mut pos = 0;
    for line in text.split_inclusive('\n') {
        let bare = line.trim_end_matches('\n');
        if let Some(rest) = bare.strip_prefix(label) {
            if rest.chars().all(is_js_whitespace) {
                return Some(&text[pos + line.len()..]);
            }
        }
        pos += line.len();
    }
    None
}

/// The `DEV-NNN` of a step heading line: `###`, whitespace, the identifier
/// at a word boundary.
fn step_heading(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("###")?;
    let trimmed = rest.trim_start_matches(|c: char| c != '\n' && is_js_whitespace(c));
    if trimmed.len() == rest.len() {
        return None;
    }
    let digits = trimmed.strip_prefix("DEV-")?;
    let n = digits.bytes().take_while(u8::is_ascii_digit).count();
    let boundary = digits[n..]
        .bytes()
        .next()
        .is_none_or(|c| !(c.is_ascii_alphanumeric() || c == b'_'));
    (n >= 3 && boundary).then(|| &trimmed[..4 + n])
}

/// Every build step of a plan, in order (check-rules §1.10). Fenced lines are
/// blanked before headings and fields are read; a step runs to the next step
/// heading, cut at the first line starting with `## ` (a later section).
pub fn steps(text: &str) -> Vec<Step> {
    let text = lf(text);
    let masked = mask_fences(&text);
    // Byte offsets of every step heading line (start, end of line incl. newline).
    let mut heads: Vec<(usize, usize, String)> = Vec::new();
    let mut pos = 0;
    for line in masked.split_inclusive('\n') {
        if let Some(id) = step_heading(line.trim_end_matches('\n')) {
            heads.push((pos, pos + line.len(), id.to_string()));
        }
        pos += line.len();
    }
    let mut out = Vec::with_capacity(heads.len());
    for (i, (_, body_start, id)) in heads.iter().enumerate() {
        let next = heads.get(i + 1).map_or(masked.len(), |h| h.0);
        let mut end = next;
        let mut at = *body_start;
        for line in masked[*body_start..next].split_inclusive('\n') {
            if line.starts_with("## ") {
                end = at;
                break;
            }
            at += line.len();
        }
        out.push(Step {
            id: id.clone(),
            fields: fields::scan(&masked[*body_start..end]),
            raw: text[*body_start..end].to_string(),
        });
    }
    out
}

/// One `### Increment <label>` entry of "Verification Increments" (check-rules §1.11).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Increment {
    /// The heading's text after `### Increment `, trailing whitespace removed.
    pub label: String,
    /// Field pairs before the first line starting with `**Ready Outcome**`.
    pub metadata: Vec<Field>,
    /// The trimmed text after the first line consisting of `**Ready Outcome**`
    /// (check-rules §1.11); `None` when the entry has no such line.
    pub ready_outcome: Option<String>,
}

impl Increment {
    /// `Development Steps` under the exactly-once rule.
    pub fn development_steps(&self) -> Once<'_> {
        exactly_once(&self.metadata, "Development Steps")
    }

    /// `Acceptance` under the exactly-once rule.
    pub fn acceptance(&self) -> Once<'_> {
        exactly_once(&self.metadata, "Acceptance")
    }

    /// The listed steps, when the field is present once and well formed.
    pub fn step_ids(&self) -> Vec<String> {
        self.development_steps()
            .value()
            .and_then(|v| identifier_list(v, IdPrefix::Dev))
            .unwrap_or_default()
    }
}

/// The `### Increment` entries of the plan's first "Verification Increments"
/// section (fenced lines blanked), in order.
pub fn increments(text: &str) -> Vec<Increment> {
    let text = lf(text);
    let Some(section) = section_body(&text, "Verification Increments") else {
        return Vec::new();
    };
    let mut entries: Vec<(String, String)> = Vec::new();
    for line in section.split_inclusive('\n') {
        let bare = line.trim_end_matches('\n');
        if let Some(label) = bare.strip_prefix("### Increment ") {
            entries.push((
                label.trim_end_matches(is_js_whitespace).to_string(),
                String::new(),
            ));
        } else if let Some((_, body)) = entries.last_mut() {
            body.push_str(line);
        }
    }
    entries
        .into_iter()
        .map(|(label, body)| {
            let metadata_end = line_start_with(&body, "**Ready Outcome**").unwrap_or(body.len());
            let ready_outcome =
                after_label_line(&body, "**Ready Outcome**").map(|rest| js_trim(rest).to_string());
            Increment {
                label,
                metadata: fields::scan(&body[..metadata_end]),
                ready_outcome,
            }
        })
        .collect()
}

/// Byte offset of the first line starting with `prefix`.
fn line_start_with(text: &str, prefix: &str) -> Option<usize> {
    let mut pos = 0;
    for line in text.split_inclusive('\n') {
        if line.starts_with(prefix) {
            return Some(pos);
        }
        pos += line.len();
    }
    None
}

/// A development plan read once: header, steps and increments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// Header field pairs (check-rules §1.6).
    pub header: Vec<Field>,
    pub steps: Vec<Step>,
    pub increments: Vec<Increment>,
}

impl Plan {
    pub fn parse(text: &str) -> Plan {
        Plan {
            header: header_fields(&lf(text)),
            steps: steps(text),
            increments: increments(text),
        }
    }

    /// A header field's first occurrence.
    pub fn header_field(&self, name: &str) -> Option<&str> {
        fields::first(&self.header, name).map(|f| f.value.as_str())
    }

    /// Header `Status` (first occurrence).
    pub fn status(&self) -> Option<&str> {
        self.header_field("Status")
    }

    /// Header `User Style Locked` (first occurrence).
    pub fn user_style_locked(&self) -> Option<&str> {
        self.header_field("User Style Locked")
    }

    /// `Verification Cadence` under the exactly-once rule.
    pub fn cadence_field(&self) -> Once<'_> {
        exactly_once(&self.header, "Verification Cadence")
    }

    /// The effective cadence: present once with a valid value.
    pub fn cadence(&self) -> Option<Cadence> {
        self.cadence_field().value().and_then(Cadence::parse)
    }

    /// `Current Increment` under the exactly-once rule.
    pub fn current_field(&self) -> Once<'_> {
        exactly_once(&self.header, "Current Increment")
    }

    /// `Current Increment` when present once and nonempty (valid or not).
    pub fn current(&self) -> Option<&str> {
        self.current_field().value()
    }

    /// The increment entry with this label; when the label is repeated (a
    /// defect, DV-016) the last entry, as the reference reads it.
    pub fn increment(&self, label: &str) -> Option<&Increment> {
        self.increments.iter().rev().find(|i| i.label == label)
    }

    /// Whether an increment entry has this label.
    pub fn defines_increment(&self, label: &str) -> bool {
        self.increment(label).is_some()
    }

    /// The first step with this ID.
    pub fn step(&self, id: &str) -> Option<&Step> {
        self.steps.iter().find(|s| s.id == id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLAN: &str = "<!-- STANDARDS\nArtifact: DEVELOPMENT\nCycle: c\n-->\n\n# Development Plan\n\n`Status`: `IN_PROGRESS` `User Style Locked`: `true`\n`Verification Cadence`: `INCREMENTAL` `Current Increment`: `1`\n\n## Build Steps\n\n### DEV-001 — Endpoint\n\n`Status`: `DONE` `Depends On`: `NONE`\n\n**Self-Check**\n\n`cargo test` passed.\n\n**Implementation Notes**\n\nThe endpoint answers with `Status`: `200`.\n\n### DEV-002 — Box\n\n`Depends On`: ` DEV-001 ,DEV-009 `\n\n```\n### DEV-003 — fenced example\n`Status`: `DONE`\n```\n\n## Verification Increments\n\n### Increment 1\n\n`Development Steps`: `DEV-001` `Acceptance`: `AC-001`\n\n**Ready Outcome**\n\nSearch answers.\n\n### Increment 2  \n`Development Steps`: `DEV-001, DEV-002` `Development Steps`: `DEV-002`\n**Ready Outcome**\n\n## Plan Notes\n";

    #[test]
    fn steps_read_first_fields_and_skip_fenced_headings() {
        let steps = steps(PLAN);
        let ids: Vec<_> = steps.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(ids, ["DEV-001", "DEV-002"]);
        assert_eq!(steps[0].status(), Some("DONE"));
        assert_eq!(steps[0].depends_on(), Vec::<String>::new());
        assert_eq!(
            steps[0].self_check().as_deref(),
            Some("`cargo test` passed.")
        );
        // The fenced `Status` of the example step is not DEV-002's.
        assert_eq!(steps[1].status(), None);
        assert_eq!(steps[1].depends_on(), ["DEV-001", "DEV-009"]);
        assert_eq!(steps[1].self_check(), None);
        // A step stops at the next section.
        assert!(!steps[1].raw.contains("Increment"));
        assert!(steps[1].raw.contains("fenced example"));
    }

    #[test]
    fn self_check_needs_its_own_line_and_text() {
        let step = |raw: &str| Step {
            id: "DEV-001".into(),
            fields: Vec::new(),
            raw: raw.into(),
        };
        assert_eq!(
            step("**Self-Check**  \n\n**Notes**\nx\n").self_check(),
            None
        );
        assert_eq!(step("**Self-Check**: ran it\n").self_check(), None);
        assert_eq!(
            step("**Self-Check**\n```text\n$ make test\nexit 0\n```\n")
                .self_check()
                .as_deref(),
            Some("```text\n$ make test\nexit 0\n```")
        );
    }

    #[test]
    fn increments_and_their_fields() {
        let plan = Plan::parse(PLAN);
        assert_eq!(plan.cadence(), Some(Cadence::Incremental));
        assert_eq!(plan.current(), Some("1"));
        assert_eq!(plan.status(), Some("IN_PROGRESS"));
        assert_eq!(plan.user_style_locked(), Some("true"));
        let inc = &plan.increments;
        assert_eq!(inc.len(), 2);
        assert_eq!(inc[0].label, "1");
        assert_eq!(inc[0].step_ids(), ["DEV-001"]);
        assert_eq!(inc[0].acceptance(), Once::Value("AC-001"));
        assert_eq!(inc[0].ready_outcome.as_deref(), Some("Search answers."));
        assert_eq!(inc[1].label, "2");
        assert_eq!(inc[1].development_steps(), Once::Repeated(2));
        assert!(inc[1].step_ids().is_empty());
        assert_eq!(inc[1].ready_outcome.as_deref(), Some(""));
        assert!(plan.defines_increment("2") && !plan.defines_increment("3"));
    }

    #[test]
    fn odd_plans_do_not_panic() {
        for text in [
            "",
            "# Development Plan\n",
            "### DEV-001",
            "###",
            "## Verification Increments\n### Increment ",
            "## Verification Increments\n### Increment 99999999999999999999999999\n**Ready Outcome**",
            "\r\n### DEV-001\r\n`Status`: `DONE`\r\n",
            "### DEV-001 é\n`Depends On`: ``\n",
        ] {
            let plan = Plan::parse(text);
            for s in &plan.steps {
                let _ = (s.depends_on(), s.self_check());
            }
        }
        let big =
            Plan::parse("## Verification Increments\n### Increment 99999999999999999999999999\n");
        assert_eq!(big.increments[0].label, "99999999999999999999999999");
        assert!(is_positive_integer(&big.increments[0].label));
        let crlf = steps("### DEV-001\r\n`Status`: `DONE`\r\n**Self-Check**\r\nok\r\n");
        assert_eq!(crlf[0].status(), Some("DONE"));
        assert_eq!(crlf[0].self_check().as_deref(), Some("ok"));
    }

    #[test]
    fn heading_forms() {
        assert_eq!(step_heading("### DEV-001 — x"), Some("DEV-001"));
        assert_eq!(step_heading("###\tDEV-0001"), Some("DEV-0001"));
        assert_eq!(step_heading("### DEV-001a"), None);
        assert_eq!(step_heading("### DEV-01"), None);
        assert_eq!(step_heading("###DEV-001"), None);
        assert_eq!(step_heading("#### DEV-001"), None);
    }

    #[test]
    fn exactly_once_reading() {
        let f = fields::scan("`A`: `x` `B`: `  ` `C`: `1` `C`: `2`");
        assert_eq!(exactly_once(&f, "A"), Once::Value("x"));
        assert_eq!(exactly_once(&f, "B"), Once::Blank);
        assert_eq!(exactly_once(&f, "C"), Once::Repeated(2));
        assert_eq!(exactly_once(&f, "D"), Once::Missing);
        assert_eq!(Once::Missing.defect().as_deref(), Some("is missing"));
    }

    #[test]
    fn numbers_targets_and_lists() {
        assert!(
            is_positive_integer("10") && !is_positive_integer("01") && !is_positive_integer("")
        );
        assert!(!is_positive_integer("1a"));
        assert_eq!(increment_target("Increment 12"), Some("12"));
        assert_eq!(increment_target("Increment 0"), None);
        assert_eq!(increment_target("increment 1"), None);
        assert_eq!(increment_target("Increment 1 "), None);
        assert_eq!(
            identifier_list("DEV-001, DEV-002 ,DEV-0003", IdPrefix::Dev),
            Some(vec!["DEV-001".into(), "DEV-002".into(), "DEV-0003".into()])
        );
        assert_eq!(identifier_list(" DEV-001", IdPrefix::Dev), None);
        assert_eq!(identifier_list("DEV-001,", IdPrefix::Dev), None);
        assert_eq!(identifier_list("AC-01", IdPrefix::Ac), None);
        assert_eq!(identifier_list("DEV-001 DEV-002", IdPrefix::Dev), None);
    }

    #[test]
    fn checkpoint_reason_mentions() {
        assert_eq!(increment_mentions("Increment 1 ready."), ["1"]);
        assert_eq!(increment_mentions("increment 12; INCREMENT 3"), ["12", "3"]);
        assert_eq!(
            increment_mentions("Increment 1 and Increment 1"),
            ["1", "1"]
        );
        assert!(increment_mentions("Ready.").is_empty());
        assert!(increment_mentions("Increment 01, Increment 2a, Increment  3").is_empty());
        assert!(increment_mentions("Increments 1, xIncrement 2, Increment 4_").is_empty());
        assert_eq!(increment_mentions("(Increment 7)"), ["7"]);
        assert!(increment_mentions("Increment").is_empty());
        assert!(increment_mentions("Increment ").is_empty());
    }
}
