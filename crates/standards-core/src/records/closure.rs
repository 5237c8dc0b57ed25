//! The implementation review's `## Implementation-Reviewed Closure` section
//! (RF §7.5.1; check-rules §1.12 and RV-002..RV-012).
//!
//! Before the section is read, the review text is *masked*: every construct
//! that CommonMark does not render as prose is replaced by spaces, so a
//! commented-out or example closure cannot supply a heading or a field. The
//! reference approximates CommonMark here with a line scanner; following
//! decision D14 we take the block structure from pulldown-cmark's events and
//! their source offsets instead, and the SC-CLOS scenarios are the acceptance
//! tests (see the tests at the end of this file; where a scenario pins a quirk
//! of the reference's scanner that CommonMark parses differently, the test
//! follows CommonMark and says so).
//!
//! [`assess`] then applies the closure rules to the masked text and returns
//! [`Finding`]s; the `check` family `review` turns them into problems.

use std::ops::Range;

use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag, TagEnd};

use crate::model::fields::{self, is_js_whitespace, Field};
use crate::model::text::strip_bom;
use crate::model::vocab::ReviewKind;
use crate::records::record::{is_unfilled, normalize_section_name};

/// The closure section's heading, as written in the Reviewer template.
pub const HEADING: &str = "Implementation-Reviewed Closure";

/// The closure fields, in the order RV-005 checks them.
pub const FIELDS: [&str; 9] = [
    "Policy",
    "Eligibility",
    "User Choice",
    "User Reason",
    "Assessed Inputs",
    "Evidence",
    "Unmet Requirements",
    "Omitted Phases",
    "Omitted Guarantees",
];

/// The values `Eligibility` may take.
pub const ELIGIBILITY: [&str; 3] = ["NOT_ASSESSED", "INELIGIBLE", "ELIGIBLE"];

/// The phases the shorter policy omits, sorted (RV-009).
pub const OMITTED_PHASES: [&str; 3] = ["DOCUMENTING", "REVIEWING_FINAL", "SYNCHRONIZING"];

/// Fields an `ELIGIBLE` closure must not leave `NONE` (RV-010).
pub const ELIGIBLE_NEEDS: [&str; 4] = [
    "User Choice",
    "Assessed Inputs",
    "Evidence",
    "Omitted Guarantees",
];

/// How many times the reparse for duplicate link reference definitions may run.
const MAX_DEFINITION_PASSES: usize = 64;

/// Masks `text` for the closure check (check-rules §1.12).
///
/// The result has exactly the bytes of `text` except that every character of
/// the following is replaced by spaces (one space per byte, so byte offsets and
/// line numbers stay valid); line breaks (`\n` and `\r`) are always kept:
///
/// - a leading byte-order mark;
/// - fenced and indented code blocks, in any container;
/// - HTML blocks of all seven CommonMark kinds, in any container;
/// - link reference definitions (including later definitions of an already
///   defined label, which the parser itself discards);
/// - HTML comments inside paragraphs and headings (not other inline HTML: a
///   `<!--` inside a tag's quoted attribute or inside a code span opens nothing).
///
/// Container markers, paragraphs, headings, thematic breaks and blank lines are
/// kept. The function never fails: any text has a CommonMark reading.
pub fn mask(text: &str) -> String {
    let mut hidden = vec![false; text.len()];
    let (body, _) = strip_bom(text);
    let offset = text.len() - body.len();
    hidden[..offset].fill(true);
    for range in masked_ranges(body) {
        hidden[range.start + offset..range.end + offset].fill(true);
    }
    let mut out = String::with_capacity(text.len());
    for (i, c) in text.char_indices() {
        if hidden[i] && c != '\n' && c != '\r' {
            out.extend(std::iter::repeat_n(' ', c.len_utf8()));
        } else {
            out.push(c);
        }
    }
    out
}

/// The text pulldown-cmark parses in place of `text`: the same bytes, except
/// that the end tags of raw-text HTML blocks (`</pre>`, `</script>`,
/// `</style>`, `</textarea>`) are lowercased. CommonMark matches those end tags
/// case-insensitively, but pulldown-cmark 0.13 looks only for lowercase ones,
/// so a `<SCRIPT>` block closed by `</SCRIPT>` would run to the end of its
/// container. Lowercasing ASCII letters keeps every offset.
fn cmark_source(text: &str) -> String {
    const TAGS: [&[u8]; 4] = [b"pre>", b"script>", b"style>", b"textarea>"];
    let mut bytes = text.as_bytes().to_vec();
    let mut i = 0;
    while i + 2 < bytes.len() {
        if bytes[i] == b'<' && bytes[i + 1] == b'/' {
            let rest = &bytes[i + 2..];
            if let Some(tag) = TAGS
                .iter()
                .find(|t| rest.len() >= t.len() && rest[..t.len()].eq_ignore_ascii_case(t))
            {
                let end = i + 2 + tag.len();
                bytes[i + 2..end].make_ascii_lowercase();
                i = end;
                continue;
            }
        }
        i += 1;
    }
    // Only ASCII letters changed, so the bytes are still valid UTF-8.
    String::from_utf8(bytes).unwrap_or_else(|_| text.to_string())
}

/// Byte ranges of `text` (no BOM) that [`mask`] blanks.
fn masked_ranges(text: &str) -> Vec<Range<usize>> {
    let source = cmark_source(text);
    let text = source.as_str();
    let parser = Parser::new_ext(text, Options::empty());
    let mut out: Vec<Range<usize>> = parser
        .reference_definitions()
        .iter()
        .map(|(_, def)| def.span.clone())
        .collect();
    // Ranges of what the first parse renders (leaf blocks and inline content);
    // a later pass may only add a definition that lies outside all of them.
    let mut rendered: Vec<Range<usize>> = Vec::new();
    for (event, range) in parser.into_offset_iter() {
        match &event {
            Event::Start(Tag::CodeBlock(_)) | Event::Start(Tag::HtmlBlock) => {
                out.push(range.clone())
            }
            Event::InlineHtml(html) if html.starts_with("<!--") => out.push(range.clone()),
            _ => {}
        }
        let container = matches!(
            event,
            Event::Start(Tag::List(_) | Tag::Item | Tag::BlockQuote(_))
                | Event::End(TagEnd::List(_) | TagEnd::Item | TagEnd::BlockQuote(_))
        );
        if !container && !range.is_empty() {
            rendered.push(range);
        }
    }
    out.extend(repeated_definitions(text, &out, &rendered));
    out
}

/// Link reference definitions whose label was already defined: CommonMark
/// consumes them like any definition, but pulldown-cmark keeps only the first
/// definition of a label. Blanking the known definitions and parsing again
/// reveals the next one of each label; a span is accepted only where the first
/// parse rendered nothing, so a reparse can never hide real content.
fn repeated_definitions(
    text: &str,
    known: &[Range<usize>],
    rendered: &[Range<usize>],
) -> Vec<Range<usize>> {
    let mut definitions: Vec<Range<usize>> = Parser::new_ext(text, Options::empty())
        .reference_definitions()
        .iter()
        .map(|(_, d)| d.span.clone())
        .collect();
    let mut found = Vec::new();
    let mut work = text.to_string();
    for _ in 0..MAX_DEFINITION_PASSES {
        for span in &definitions {
            work = blank(&work, span.clone());
        }
        let next: Vec<Range<usize>> = Parser::new_ext(&work, Options::empty())
            .reference_definitions()
            .iter()
            .map(|(_, d)| d.span.clone())
            .filter(|span| {
                !known.contains(span)
                    && !found.contains(span)
                    && !rendered
                        .iter()
                        .any(|r| r.start < span.end && span.start < r.end)
            })
            .collect();
        if next.is_empty() {
            break;
        }
        found.extend(next.iter().cloned());
        definitions = next;
    }
    found
}

/// `text` with `range` replaced by spaces (line breaks kept).
fn blank(text: &str, range: Range<usize>) -> String {
    let mut out = String::with_capacity(text.len());
    for (i, c) in text.char_indices() {
        if range.contains(&i) && c != '\n' && c != '\r' {
            out.extend(std::iter::repeat_n(' ', c.len_utf8()));
        } else {
            out.push(c);
        }
    }
    out
}

/// A top-level `##` section of a masked text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    /// Normalised name (check-rules §1.7): closing hashes and one trailing colon
    /// removed, trimmed, lowercased; read from the masked heading, so a comment
    /// inside the heading breaks the name.
    pub name: String,
    /// 1-based line of the heading.
    pub line: usize,
    /// Byte range of the body: from the line after the heading to the next
    /// top-level ATX `##` heading or the end.
    pub body: Range<usize>,
}

/// Every top-level ATX level-2 section of `text`, named from `masked`
/// (`masked` must be [`mask`]`(text)`).
///
/// Only ATX headings (`## Name`) at the top level open sections: RF §1.4
/// defines sections by `## ` lines, so a setext underline (which the templates'
/// thematic breaks could create under a field line) and headings inside block
/// quotes or list items neither open nor end one.
pub fn sections(text: &str, masked: &str) -> Vec<Section> {
    let (body, _) = strip_bom(text);
    let offset = text.len() - body.len();
    let source = cmark_source(body);
    let mut depth = 0usize;
    let mut heads: Vec<Range<usize>> = Vec::new();
    for (event, range) in Parser::new_ext(&source, Options::empty()).into_offset_iter() {
        match event {
            Event::Start(Tag::List(_) | Tag::Item | Tag::BlockQuote(_)) => depth += 1,
            Event::End(TagEnd::List(_) | TagEnd::Item | TagEnd::BlockQuote(_)) => {
                depth = depth.saturating_sub(1)
            }
            Event::Start(Tag::Heading {
                level: HeadingLevel::H2,
                ..
            }) if depth == 0 => {
                let range = range.start + offset..range.end + offset;
                let source = text[range.clone()].trim_end_matches(['\n', '\r']);
                if !source.contains('\n') {
                    heads.push(range);
                }
            }
            _ => {}
        }
    }
    let line_start = |at: usize| text[..at].rfind('\n').map_or(0, |n| n + 1);
    let line_end = |at: usize| text[at..].find('\n').map_or(text.len(), |n| at + n + 1);
    heads
        .iter()
        .enumerate()
        .map(|(i, range)| {
            let heading = masked
                .get(range.clone())
                .unwrap_or_default()
                .trim_end_matches(['\n', '\r'])
                .trim_start_matches(' ')
                .trim_start_matches('#');
            let start = line_end(range.start);
            let end = heads
                .get(i + 1)
                .map_or(text.len(), |next| line_start(next.start));
            Section {
                name: normalize_section_name(heading),
                line: fields::line_of(text, range.start),
                body: start.min(end)..end,
            }
        })
        .collect()
}

/// What is wrong with one closure field (RV-005).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldDefect {
    Missing,
    /// Written this many times.
    Repeated(usize),
    /// Empty or only whitespace.
    Empty,
    /// Still a template placeholder (the value is given).
    Placeholder(String),
}

/// One closure problem, in the catalogue's terms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Finding {
    /// RV-002: sign-off readiness under `IMPLEMENTATION_REVIEWED` needs the section.
    Missing,
    /// RV-003: more than one current section (heading lines given).
    Repeated(Vec<usize>),
    /// RV-004: a final-deliverable review holds the section (heading line given).
    NotImplementationReview(usize),
    /// RV-005: a field is not written exactly once with a concrete value.
    Field(&'static str, FieldDefect),
    /// RV-006: `Policy` is not `IMPLEMENTATION_REVIEWED`.
    Policy(String),
    /// RV-007: `Eligibility` is outside the three values.
    EligibilityValue(String),
    /// RV-008: sign-off readiness needs `ELIGIBLE` (`None`: no usable value).
    NotEligible(Option<String>),
    /// RV-009: `Omitted Phases` is not exactly the three omitted phases.
    OmittedPhases(String),
    /// RV-010: an `ELIGIBLE` closure leaves this field `NONE`.
    EligibleWithoutValue(&'static str),
    /// RV-011: an `ELIGIBLE` closure names unmet requirements.
    EligibleWithUnmet(String),
    /// RV-012: an `INELIGIBLE` closure names no unmet requirement.
    IneligibleWithoutGaps,
}

impl Finding {
    /// The catalogue rule this finding belongs to.
    pub fn rule(&self) -> &'static str {
        match self {
            Finding::Missing => "RV-002",
            Finding::Repeated(_) => "RV-003",
            Finding::NotImplementationReview(_) => "RV-004",
            Finding::Field(..) => "RV-005",
            Finding::Policy(_) => "RV-006",
            Finding::EligibilityValue(_) => "RV-007",
            Finding::NotEligible(_) => "RV-008",
            Finding::OmittedPhases(_) => "RV-009",
            Finding::EligibleWithoutValue(_) => "RV-010",
            Finding::EligibleWithUnmet(_) => "RV-011",
            Finding::IneligibleWithoutGaps => "RV-012",
        }
    }
}

/// The closure check's result for one review.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Assessment {
    /// Every current closure section (normally zero or one).
    pub sections: Vec<Section>,
    /// Findings in catalogue order.
    pub findings: Vec<Finding>,
}

/// Applies RV-002..RV-012 to a review text.
///
/// `required` is sign-off readiness under `IMPLEMENTATION_REVIEWED` (the
/// implementation review of a `STANDARD` cycle at `AWAITING_USER_SIGNOFF`);
/// `kind` is the review's kind from its provenance block.
pub fn assess(text: &str, required: bool, kind: ReviewKind) -> Assessment {
    let masked = mask(text);
    let want = HEADING.to_lowercase();
    let sections: Vec<Section> = sections(text, &masked)
        .into_iter()
        .filter(|s| s.name == want)
        .collect();
    let mut findings = Vec::new();
    match sections.as_slice() {
        [] => {
            if required {
                findings.push(Finding::Missing);
            }
        }
        [_, _, ..] => findings.push(Finding::Repeated(sections.iter().map(|s| s.line).collect())),
        [section] if kind == ReviewKind::FinalDeliverable => {
            findings.push(Finding::NotImplementationReview(section.line))
        }
        [section] => field_findings(&masked[section.body.clone()], required, &mut findings),
    }
    Assessment { sections, findings }
}

/// RV-005..RV-012 on one (masked) section body.
fn field_findings(body: &str, required: bool, findings: &mut Vec<Finding>) {
    let pairs = fields::scan(body);
    // RV-005: each field exactly once, concrete; a failing field counts as absent.
    let value = |name: &'static str, findings: &mut Vec<Finding>| -> Option<String> {
        let found: Vec<&Field> = fields::values(&pairs, name).collect();
        let defect = match found.as_slice() {
            [] => FieldDefect::Missing,
            [one] => {
                let v = one.value.trim_matches(is_js_whitespace);
                if v.is_empty() {
                    FieldDefect::Empty
                } else if is_unfilled(v) {
                    FieldDefect::Placeholder(v.to_string())
                } else {
                    return Some(v.to_string());
                }
            }
            many => FieldDefect::Repeated(many.len()),
        };
        findings.push(Finding::Field(name, defect));
        None
    };
    let mut values: Vec<(&'static str, Option<String>)> = Vec::new();
    for name in FIELDS {
        let v = value(name, findings);
        values.push((name, v));
    }
    let get = |name: &str| -> Option<&str> {
        values
            .iter()
            .find(|(n, _)| *n == name)
            .and_then(|(_, v)| v.as_deref())
    };
    // RV-006
    if let Some(policy) = get("Policy").filter(|p| *p != "IMPLEMENTATION_REVIEWED") {
        findings.push(Finding::Policy(policy.to_string()));
    }
    // RV-007
    let eligibility = get("Eligibility");
    if let Some(e) = eligibility.filter(|e| !ELIGIBILITY.contains(e)) {
        findings.push(Finding::EligibilityValue(e.to_string()));
    }
    // RV-008
    if required && eligibility != Some("ELIGIBLE") {
        findings.push(Finding::NotEligible(eligibility.map(str::to_string)));
    }
    // RV-009
    if let Some(phases) = get("Omitted Phases") {
        let mut listed: Vec<&str> = phases
            .split(',')
            .map(|p| p.trim_matches(is_js_whitespace))
            .collect();
        listed.sort_unstable();
        if listed != OMITTED_PHASES {
            findings.push(Finding::OmittedPhases(phases.to_string()));
        }
    }
    let unmet = get("Unmet Requirements");
    if eligibility == Some("ELIGIBLE") {
        // RV-010
        for name in ELIGIBLE_NEEDS {
            if get(name) == Some("NONE") {
                findings.push(Finding::EligibleWithoutValue(name));
            }
        }
        // RV-011
        if let Some(u) = unmet.filter(|u| *u != "NONE") {
            findings.push(Finding::EligibleWithUnmet(u.to_string()));
        }
    }
    // RV-012
    if eligibility == Some("INELIGIBLE") && unmet == Some("NONE") {
        findings.push(Finding::IneligibleWithoutGaps);
    }
}

/// The SC-CLOS scenarios (`shared/spec/scenarios.md` §14), one test each.
/// Unless a scenario says otherwise the check is `required` for an
/// `IMPLEMENTATION` review, and every text is checked with LF and with CRLF
/// line endings, which must agree.
#[cfg(test)]
mod sc_clos {
    use super::*;
    use ReviewKind::{FinalDeliverable, Implementation};

    /// The fields of the valid section A, in template order.
    fn a_fields() -> Vec<(&'static str, &'static str)> {
        vec![
            ("Policy", "IMPLEMENTATION_REVIEWED"),
            ("Eligibility", "ELIGIBLE"),
            (
                "User Choice",
                "The user chose the shorter policy in the session of 27 September.",
            ),
            ("User Reason", "NONE"),
            (
                "Assessed Inputs",
                "Scope, design, plan and verification report of this cycle.",
            ),
            (
                "Evidence",
                "Verification rows for AC-001 and AC-002; review checks.",
            ),
            ("Unmet Requirements", "NONE"),
            (
                "Omitted Phases",
                "DOCUMENTING, REVIEWING_FINAL, SYNCHRONIZING",
            ),
            (
                "Omitted Guarantees",
                "Normal documentation, final review and independent reconciliation.",
            ),
        ]
    }

    fn field_line(name: &str, value: &str) -> String {
        format!("`{name}`: `{value}`\n")
    }

    /// A section: the heading and one line per field.
    fn section_with(fields: &[(&str, &str)]) -> String {
        let mut s = format!("## {HEADING}\n\n");
        for (n, v) in fields {
            s.push_str(&field_line(n, v));
        }
        s
    }

    /// A with one field's value replaced.
    fn a_with(name: &str, value: &str) -> String {
        let fields: Vec<_> = a_fields()
            .into_iter()
            .map(|(n, v)| (n, if n == name { value } else { v }))
            .collect();
        section_with(&fields)
    }

    fn a() -> String {
        section_with(&a_fields())
    }

    /// A without its Evidence line (A−E).
    fn a_minus_e() -> String {
        let fields: Vec<_> = a_fields()
            .into_iter()
            .filter(|(n, _)| *n != "Evidence")
            .collect();
        section_with(&fields)
    }

    /// A with Eligibility INELIGIBLE (A′): a valid, contradictory second section.
    fn a_prime() -> String {
        let fields: Vec<_> = a_fields()
            .into_iter()
            .map(|(n, v)| match n {
                "Eligibility" => (n, "INELIGIBLE"),
                "Unmet Requirements" => (n, "Documenter owns the user guide."),
                _ => (n, v),
            })
            .collect();
        section_with(&fields)
    }

    fn hidden_evidence() -> String {
        field_line("Evidence", "Hidden evidence.")
            .trim_end()
            .to_string()
    }

    /// Findings for `text` with LF and with CRLF line endings, asserted equal.
    fn run(text: &str, required: bool, kind: ReviewKind) -> Vec<Finding> {
        let lf = assess(text, required, kind).findings;
        let crlf_text = text.replace("\r\n", "\n").replace('\n', "\r\n");
        let crlf = assess(&crlf_text, required, kind).findings;
        assert_eq!(lf, crlf, "LF and CRLF disagree for:\n{text}");
        lf
    }

    fn req(text: &str) -> Vec<Finding> {
        run(text, true, Implementation)
    }

    fn rules(findings: &[Finding]) -> Vec<&'static str> {
        findings.iter().map(Finding::rule).collect()
    }

    fn has_field(findings: &[Finding], name: &str) -> bool {
        findings
            .iter()
            .any(|f| matches!(f, Finding::Field(n, _) if *n == name))
    }

    fn evidence_problem(findings: &[Finding]) -> bool {
        has_field(findings, "Evidence")
    }

    fn repeated(findings: &[Finding]) -> bool {
        matches!(findings.first(), Some(Finding::Repeated(_)))
    }

    fn quote(block: &str) -> String {
        block
            .lines()
            .map(|l| {
                if l.is_empty() {
                    ">".to_string()
                } else {
                    format!("> {l}")
                }
            })
            .collect::<Vec<_>>()
            .join("\n")
            + "\n"
    }

    fn item(block: &str) -> String {
        block
            .lines()
            .enumerate()
            .map(|(i, l)| match (i, l.is_empty()) {
                (0, _) => format!("- {l}"),
                (_, true) => String::new(),
                _ => format!("  {l}"),
            })
            .collect::<Vec<_>>()
            .join("\n")
            + "\n"
    }

    /// `marker` placed before A gives nothing; between A and A′ it hides nothing.
    fn literal_marker(marker: &str) {
        assert_eq!(
            req(&format!("{marker}\n\n{}", a())),
            [],
            "before A: {marker:?}"
        );
        let between = req(&format!("{}\n{marker}\n\n{}", a(), a_prime()));
        assert!(
            repeated(&between),
            "between A and A′: {marker:?} gave {between:?}"
        );
    }

    #[test]
    fn sc_clos_001_a_alone_passes() {
        assert_eq!(req(&a()), []);
        assert_eq!(assess(&a(), true, Implementation).sections.len(), 1);
    }

    #[test]
    fn sc_clos_002_missing_section_when_required() {
        assert_eq!(
            req("# Review Report\n\n## Findings\n\nNone.\n"),
            [Finding::Missing]
        );
    }

    #[test]
    fn sc_clos_003_missing_section_when_not_required() {
        for kind in [Implementation, FinalDeliverable] {
            assert_eq!(run("# Review Report\n", false, kind), []);
        }
    }

    #[test]
    fn sc_clos_004_section_in_a_final_deliverable_review() {
        assert_eq!(rules(&run(&a(), false, FinalDeliverable)), ["RV-004"]);
    }

    #[test]
    fn sc_clos_005_not_eligible_only_matters_when_required() {
        let not_assessed = a_with("Eligibility", "NOT_ASSESSED");
        let ineligible = section_with(
            &a_fields()
                .into_iter()
                .map(|(n, v)| match n {
                    "Eligibility" => (n, "INELIGIBLE"),
                    "Unmet Requirements" => (n, "Documenter must update the guide."),
                    _ => (n, v),
                })
                .collect::<Vec<_>>(),
        );
        for text in [&not_assessed, &ineligible] {
            assert_eq!(run(text, false, Implementation), []);
            assert_eq!(rules(&req(text)), ["RV-008"]);
        }
    }

    #[test]
    fn sc_clos_006_ineligible_without_unmet_requirements() {
        let text = a_with("Eligibility", "INELIGIBLE");
        assert_eq!(
            run(&text, false, Implementation),
            [Finding::IneligibleWithoutGaps]
        );
    }

    #[test]
    fn sc_clos_007_every_field_needs_exactly_one_concrete_value() {
        for (name, value) in a_fields() {
            let line = field_line(name, value);
            let variants = [
                String::new(),
                format!("`{name}`: ``\n"),
                format!("`{name}`: `   `\n"),
                field_line(name, "<fill in>"),
                field_line(name, "A | B"),
                format!("{line}{line}"),
            ];
            for v in variants {
                let text = a().replace(&line, &v);
                let findings = req(&text);
                assert!(has_field(&findings, name), "{name} as {v:?}: {findings:?}");
            }
        }
        let twice = a().replace("`Evidence`", "`Evidence`: `x`\n`Evidence`");
        assert!(req(&twice).contains(&Finding::Field("Evidence", FieldDefect::Repeated(2))));
        assert!(
            req(&a_with("Evidence", "<fill in>")).contains(&Finding::Field(
                "Evidence",
                FieldDefect::Placeholder("<fill in>".into())
            ))
        );
        assert!(req(&a_with("Evidence", "   "))
            .contains(&Finding::Field("Evidence", FieldDefect::Empty)));
    }

    #[test]
    fn sc_clos_008_fields_outside_the_section_do_not_count() {
        let text = format!("{}\n\n{}", hidden_evidence(), a_minus_e());
        assert_eq!(
            req(&text),
            [Finding::Field("Evidence", FieldDefect::Missing)]
        );
    }

    #[test]
    fn sc_clos_009_wrong_policy() {
        for policy in ["NONE", "FULL_DELIVERABLE", "UNKNOWN"] {
            let findings = req(&a_with("Policy", policy));
            assert_eq!(findings.first(), Some(&Finding::Policy(policy.into())));
        }
    }

    #[test]
    fn sc_clos_010_eligibility_outside_the_values() {
        let findings = req(&a_with("Eligibility", "PASSED"));
        assert_eq!(
            findings.first(),
            Some(&Finding::EligibilityValue("PASSED".into()))
        );
    }

    #[test]
    fn sc_clos_011_eligible_needs_filled_fields() {
        for name in ELIGIBLE_NEEDS {
            let findings = req(&a_with(name, "NONE"));
            assert_eq!(findings, [Finding::EligibleWithoutValue(name)], "{name}");
        }
    }

    #[test]
    fn sc_clos_012_omitted_phases_must_be_the_three() {
        for phases in [
            "NONE",
            "DOCUMENTING",
            "DOCUMENTING, REVIEWING_FINAL, REVIEWING_FINAL",
            "DOCUMENTING, REVIEWING_FINAL, SYNCHRONIZING, TESTING",
        ] {
            assert_eq!(
                req(&a_with("Omitted Phases", phases)),
                [Finding::OmittedPhases(phases.into())]
            );
        }
        assert_eq!(
            req(&a_with(
                "Omitted Phases",
                "SYNCHRONIZING ,DOCUMENTING,  REVIEWING_FINAL"
            )),
            []
        );
    }

    #[test]
    fn sc_clos_013_eligible_with_unmet_requirements() {
        let findings = req(&a_with("Unmet Requirements", "The guide is stale."));
        assert_eq!(
            findings,
            [Finding::EligibleWithUnmet("The guide is stale.".into())]
        );
    }

    #[test]
    fn sc_clos_014_commented_or_fenced_examples_do_not_count() {
        assert_eq!(req(&format!("<!--\n{}-->\n", a())), [Finding::Missing]);
        assert_eq!(
            req(&format!("~~~markdown\n{}~~~\n", a())),
            [Finding::Missing]
        );
    }

    #[test]
    fn sc_clos_015_commented_field_line() {
        let text = a().replace(
            &field_line("Evidence", a_fields()[5].1),
            &format!("<!-- {} -->\n", field_line("Evidence", "x").trim_end()),
        );
        assert_eq!(
            req(&text),
            [Finding::Field("Evidence", FieldDefect::Missing)]
        );
    }

    #[test]
    fn sc_clos_016_two_current_sections() {
        assert_eq!(rules(&req(&format!("{}\n{}", a(), a_prime()))), ["RV-003"]);
    }

    #[test]
    fn sc_clos_017_comment_opened_before_the_section() {
        for indent in 0..=3 {
            let pad = " ".repeat(indent);
            let closed_after = format!("{pad}<!--\n{}-->\n", a());
            let never_closed = format!("{pad}<!-- never closed\n{}", a());
            assert_eq!(req(&closed_after), [Finding::Missing], "indent {indent}");
            assert_eq!(req(&never_closed), [Finding::Missing], "indent {indent}");
        }
    }

    #[test]
    fn sc_clos_018_fence_inside_a_comment_does_not_leak() {
        let text = format!("<!--\n```\n{}-->\n\n{}", a(), a());
        assert_eq!(req(&text), []);
    }

    #[test]
    fn sc_clos_019_literal_marker_examples() {
        for marker in [
            "~~~html\n<!--\n~~~",
            "```html\n<!--\n```",
            "````\n```\n<!--\n````",
            "   ~~~html\n   <!--\n   ~~~",
            "Inline `<!--` in a code span.",
            "Double ``a ` and <!--`` span.",
            "Example `code\nspan <!--` across lines.",
            "Escaped \\<!-- opener.",
            "Example: <!--",
            "Paragraph line\n\u{feff}<!--",
            "    <!--",
            "\t<!--",
            "<span title=\"<!--\">example</span>",
        ] {
            literal_marker(marker);
        }
    }

    #[test]
    fn sc_clos_020_comments_inside_an_eligibility_code_span_are_literal() {
        for value in [
            "ELI<!-- note -->GIBLE",
            "<!-- note -->ELIGIBLE",
            "ELIGIBLE<!-- note -->",
        ] {
            let findings = req(&a_with("Eligibility", value));
            assert_eq!(
                findings.first(),
                Some(&Finding::EligibilityValue(value.into())),
                "{value}"
            );
        }
    }

    #[test]
    fn sc_clos_021_literal_opener_inside_a_value() {
        assert_eq!(
            req(&a_with("Evidence", "Verified literal <!-- handling.")),
            []
        );
    }

    #[test]
    fn sc_clos_022_comment_inside_the_heading_breaks_it() {
        let text = a().replace("## Implementation", "## Imple<!-- note -->mentation");
        assert_eq!(req(&text), [Finding::Missing]);
    }

    #[test]
    fn sc_clos_023_comments_between_and_after_fields() {
        let multi_line = a().replace(
            &format!("## {HEADING}\n\n"),
            &format!("## {HEADING}\n\n<!-- a note with a ` backtick\nspanning lines -->\n"),
        );
        assert_eq!(req(&multi_line), []);
        let inline = a().replace(
            "`Policy`: `IMPLEMENTATION_REVIEWED`",
            "`Policy`: `IMPLEMENTATION_REVIEWED` <!-- chosen by the user -->",
        );
        assert_eq!(req(&inline), []);
    }

    #[test]
    fn sc_clos_024_comment_before_the_heading_on_its_line() {
        let text = a().replace("## Implementation", "<!-- note -->## Implementation");
        assert_eq!(req(&text), [Finding::Missing]);
    }

    #[test]
    fn sc_clos_025_short_comments_and_attribute_markers() {
        for prefix in ["<!-->", "<!--->", "<span title=\"<!--\">example</span>"] {
            let line = format!(
                "Example: {prefix} {} <!-- note -->\n",
                field_line("Evidence", "again").trim_end()
            );
            let findings = req(&format!("{}{line}", a()));
            assert_eq!(
                findings,
                [Finding::Field("Evidence", FieldDefect::Repeated(2))],
                "{prefix}"
            );
        }
    }

    #[test]
    fn sc_clos_026_closing_tags_with_attributes_are_not_tags() {
        let hidden = hidden_evidence();
        for name in ["span", "DIV", "custom-element"] {
            for q in ['"', '\''] {
                for end in [">", "/>"] {
                    let line = format!("Example: </{name} title={q}<!-- {hidden} -->{q}{end}\n");
                    assert!(
                        evidence_problem(&req(&format!("{}\n{line}", a_minus_e()))),
                        "{line}"
                    );
                    assert_eq!(req(&format!("{}\n{line}", a())), [], "{line}");
                }
            }
            let line = format!("Example: </{name} > <!-- {hidden} -->\n");
            assert!(
                evidence_problem(&req(&format!("{}\n{line}", a_minus_e()))),
                "{line}"
            );
            assert_eq!(req(&format!("{}\n{line}", a())), [], "{line}");
        }
    }

    #[test]
    fn sc_clos_027_raw_html_blocks_with_attributes() {
        let hidden = hidden_evidence();
        for name in ["div", "details", "BLOCKQUOTE"] {
            for q in ['"', '\''] {
                let block = format!("<{name} title={q}\n<!-- marker\n{hidden}\n{q}>\n</{name}>\n");
                assert_eq!(req(&format!("{block}\n{}", a())), [], "{block}");
                assert!(
                    repeated(&req(&format!("{}\n{block}\n{}", a(), a_prime()))),
                    "{block}"
                );
                assert!(
                    evidence_problem(&req(&format!("{}\n{block}", a_minus_e()))),
                    "{block}"
                );
            }
        }
    }

    #[test]
    fn sc_clos_028_blank_line_ends_an_html_block() {
        assert_eq!(req(&format!("<details>\n\n{}</details>\n", a())), []);
    }

    #[test]
    fn sc_clos_029_incomplete_inline_tag_then_a_real_comment() {
        let text = format!("<span title=\"\n<!--\n\">\n\n{}", a());
        assert_eq!(req(&text), [Finding::Missing]);
    }

    #[test]
    fn sc_clos_030_html_blocks_with_their_own_end() {
        for (open, close) in [
            ("<pre>", "</pre>"),
            ("<SCRIPT>", "</SCRIPT>"),
            ("<style>", "</style>"),
            ("<textarea>", "</textarea>"),
            ("<?instruction", "?>"),
            ("<!DOCTYPE html", ">"),
            ("<![CDATA[", "]]>"),
        ] {
            let raw = format!("{open}\n<!--\n\n{}{close}\n", a());
            for block in [raw.clone(), quote(&raw), item(&raw)] {
                assert_eq!(req(&block), [Finding::Missing], "alone:\n{block}");
                assert_eq!(req(&format!("{block}\n{}", a())), [], "then A:\n{block}");
                let twice = req(&format!("{}\n{block}\n{}", a(), a()));
                assert!(repeated(&twice), "A, block, A:\n{block}\n{twice:?}");
            }
        }
    }

    #[test]
    fn sc_clos_031_custom_element_block_with_attribute_marker() {
        let raw = format!("<custom-element title=\"<!--\">\n{}\n", hidden_evidence());
        for block in [raw.clone(), quote(&raw), item(&raw)] {
            assert!(
                evidence_problem(&req(&format!("{}\n{block}", a_minus_e()))),
                "{block}"
            );
            assert_eq!(req(&format!("{block}\n{}", a())), [], "{block}");
        }
    }

    #[test]
    fn sc_clos_032_container_ends_an_unclosed_attribute() {
        for opener in ["> <details title=\"", "- <details title=\""] {
            assert_eq!(req(&format!("{opener}\n\n{}", a())), [], "{opener}");
        }
    }

    /// The paragraph, marker line and indented contradiction of SC-CLOS-033..035.
    fn contradiction(first: &str, marker: &str, blank: bool) -> String {
        let indent = " ".repeat(marker.len() + 1);
        let gap = if blank { "\n" } else { "" };
        format!(
            "{first}\n{gap}{marker} <!-- marker`\n{indent}{}\n",
            field_line("Eligibility", "INELIGIBLE").trim_end()
        )
    }

    #[test]
    fn sc_clos_033_ordered_marker_that_cannot_interrupt() {
        for marker in ["0.", "2.", "9)", "123456789."] {
            let raw = contradiction("Example: `start", marker, false);
            for block in [raw.clone(), quote(&raw), item(&raw)] {
                let findings = req(&format!("{}\n{block}", a()));
                assert_eq!(
                    findings.first(),
                    Some(&Finding::Field("Eligibility", FieldDefect::Repeated(2))),
                    "{block}"
                );
            }
        }
        // Departure (D14): SC-CLOS-033 also lists `01.` and `001)`, because the
        // reference's scanner only lets the literal `1` interrupt a paragraph.
        // CommonMark reads both as start number 1, so the item interrupts, its
        // comment is real and hides the contradiction.
        for marker in ["01.", "001)"] {
            let raw = contradiction("Example: `start", marker, false);
            for block in [raw.clone(), quote(&raw), item(&raw)] {
                assert_eq!(req(&format!("{}\n{block}", a())), [], "{block}");
            }
        }
    }

    #[test]
    fn sc_clos_034_any_number_starts_a_list_after_a_blank_line() {
        for marker in ["0.", "2.", "9)", "01.", "001)", "123456789."] {
            let raw = contradiction("Example: `start", marker, true);
            for block in [raw.clone(), quote(&raw), item(&raw)] {
                assert_eq!(req(&format!("{}\n{block}", a())), [], "{block}");
            }
        }
    }

    #[test]
    fn sc_clos_035_markers_that_interrupt() {
        for first in [
            "1. Example: `start",
            "- Example: `start",
            "> Example: `start",
        ] {
            let text = format!("{}\n{}", a(), contradiction(first, "2.", false));
            assert_eq!(req(&text), [], "{text}");
        }
        for marker in ["1.", "1)"] {
            let raw = contradiction("Example: `start", marker, false);
            for block in [raw.clone(), quote(&raw), item(&raw)] {
                assert_eq!(req(&format!("{}\n{block}", a())), [], "{block}");
            }
        }
    }

    #[test]
    fn sc_clos_036_comments_in_containers_hide_fields() {
        let h = hidden_evidence();
        for container in [
            format!("- <!--\n  {h}\n  -->\n"),
            format!("1. <!--\n   {h}\n   -->\n"),
            format!("> <!--\n> {h}\n> -->\n"),
            format!("> - <!--\n>   {h}\n>   -->\n"),
            format!("- outer\n  - <!--\n    {h}\n    -->\n"),
            format!("Example: `open\n- <!--\n  {h}\n  -->\n"),
            format!("Example: `open\n> <!--\n> {h}\n> -->\n"),
        ] {
            assert!(
                evidence_problem(&req(&format!("{}\n{container}", a_minus_e()))),
                "{container}"
            );
            assert_eq!(req(&format!("{}\n{container}", a())), [], "{container}");
        }
        // A thematic break right under the fields (a setext underline in
        // CommonMark) neither ends the section nor hides the fields.
        let container = format!("- <!--\n  {h}\n  -->\n");
        assert!(evidence_problem(&req(&format!(
            "{}---\n\n{container}",
            a_minus_e()
        ))));
        assert_eq!(req(&format!("{}---\n\n{container}", a())), []);
    }

    #[test]
    fn sc_clos_037_comments_stay_inside_their_container() {
        for opener in ["- <!--", "> <!--", "> - <!--", "- outer\n  - <!--"] {
            assert_eq!(req(&format!("{opener}\n\n{}", a())), [], "{opener}");
            assert!(
                repeated(&req(&format!("{}\n{opener}\n\n{}", a(), a()))),
                "{opener}"
            );
        }
    }

    #[test]
    fn sc_clos_038_unicode_whitespace_line_ends_the_item() {
        for ws in ['\u{a0}', '\u{2003}', '\u{2028}', '\u{2029}', '\u{feff}'] {
            let text = format!(
                "{}\n- <!--\n{ws}\n   {}\n",
                a(),
                field_line("Eligibility", "INELIGIBLE").trim_end()
            );
            assert_eq!(
                req(&text).first(),
                Some(&Finding::Field("Eligibility", FieldDefect::Repeated(2))),
                "U+{:04X}",
                ws as u32
            );
        }
    }

    #[test]
    fn sc_clos_039_indented_unicode_whitespace_stays_in_the_item() {
        for ws in ['\u{a0}', '\u{2003}', '\u{2028}', '\u{2029}', '\u{feff}'] {
            let text = format!(
                "{}\n- <!--\n  {ws}\n   {}\n",
                a(),
                field_line("Eligibility", "INELIGIBLE").trim_end()
            );
            assert_eq!(req(&text), [], "U+{:04X}", ws as u32);
        }
    }

    #[test]
    fn sc_clos_040_unicode_only_item_interrupts_a_paragraph() {
        for ws in ['\u{a0}', '\u{2003}', '\u{2028}', '\u{2029}', '\u{feff}'] {
            let text = format!(
                "{}\nExample: `open\n- {ws}\n  <!-- marker`\n   {}\n",
                a(),
                field_line("Eligibility", "INELIGIBLE").trim_end()
            );
            assert_eq!(req(&text), [], "U+{:04X}", ws as u32);
        }
    }

    #[test]
    fn sc_clos_041_blank_lines_keep_the_comment_in_the_item() {
        for blank in ["", "  ", "\t", " \t ", "\t  "] {
            let text = format!(
                "{}\n- <!--\n{blank}\n   {}\n",
                a(),
                field_line("Eligibility", "INELIGIBLE").trim_end()
            );
            assert_eq!(req(&text), [], "{blank:?}");
        }
    }

    #[test]
    fn sc_clos_042_definitions_with_backticks_do_not_leak() {
        let example = format!("Example: <!-- {} -->", hidden_evidence());
        for def in [
            "[ref]: /url \"ti`tle\"",
            "[ref]: /url 'ti`tle'",
            "[ref]: /url (ti`tle)",
            "[ref]: /url\n\"ti`tle\"",
            "[ref]:\n/url \"ti`tle\"",
            "[ref]: /url \"ti`tle\ncontinued\"",
            "[re`f]: /url",
            "[ref]: /u`rl",
            "[ref]: </u`rl> \"title\"",
            "[ref]: /u(r(l)) \"ti`tle\"",
            "[ref]: /url \"ti\\\"t`le\"",
            "[one]: /x \"o`ne\"\n[two]: /y \"t`wo\"",
        ] {
            let raw = format!("{def}\n{example}\n");
            for block in [raw.clone(), quote(&raw), item(&raw)] {
                assert!(
                    evidence_problem(&req(&format!("{}\n{block}", a_minus_e()))),
                    "{block}"
                );
                assert_eq!(req(&format!("{}\n{block}", a())), [], "{block}");
            }
        }
    }

    #[test]
    fn sc_clos_043_malformed_definitions_stay_text() {
        let example = format!(
            "Example: <!-- {} -->",
            field_line("Evidence", "Visible evidence.").trim_end()
        );
        for def in [
            "[ref]: /url \"ti`tle\" trailing",
            "[ref]: /u(rl \"ti`tle\"",
            "[ref]: </url \"ti`tle\"",
            "[ ]: /url \"ti`tle\"",
            "Intro text\n[ref]: /url \"ti`tle\"",
        ] {
            let text = format!("{}\n{def}\n{example}\n", a_minus_e());
            assert_eq!(req(&text), [], "{def}");
        }
    }

    #[test]
    fn sc_clos_044_destination_only_definition_stays_valid() {
        let text = format!(
            "{}\n[ref`]: /url\n\"invalid title\" trailing\nExample: <!-- {} -->\n",
            a_minus_e(),
            hidden_evidence()
        );
        assert_eq!(
            req(&text),
            [Finding::Field("Evidence", FieldDefect::Missing)]
        );
    }

    #[test]
    fn sc_clos_045_field_in_a_definition_title() {
        let text = format!("{}\n[ref]: /url \"{}\"\n", a_minus_e(), hidden_evidence());
        assert_eq!(
            req(&text),
            [Finding::Field("Evidence", FieldDefect::Missing)]
        );
    }

    #[test]
    fn sc_clos_046_invalid_closers_do_not_close() {
        let comment = format!("<!-- {} -->", hidden_evidence());
        for (open, other) in [("~~~", '`'), ("```", '~'), ("~~~~", '`'), ("````", '~')] {
            let shorter = &open[1..];
            for closer in [
                format!("{open}{other}"),
                format!("{open} text"),
                shorter.to_string(),
            ] {
                let code = format!("{open}\n{closer}\n{comment}\n");
                assert!(
                    evidence_problem(&req(&format!("{}\n{code}", a_minus_e()))),
                    "{code}"
                );
                assert_eq!(req(&format!("{}\n{code}", a())), [], "{code}");
                assert_eq!(
                    req(&format!("{code}\n{}", a())),
                    [Finding::Missing],
                    "{code}"
                );
                assert_eq!(req(&format!("{code}{open}\n\n{}", a())), [], "{code}");
            }
        }
    }

    #[test]
    fn sc_clos_047_backtick_in_a_backtick_info_string() {
        let text = format!("```invalid`info\n{}", a());
        assert_eq!(req(&text), []);
        assert_eq!(assess(&text, true, Implementation).sections.len(), 1);
    }

    #[test]
    fn sc_clos_048_line_separators_in_info_strings_and_closers() {
        for fence in ["~~~", "```"] {
            for sep in ['\u{2028}', '\u{2029}'] {
                let held = format!("{fence}md{sep}info\n{}{fence}\n", a());
                assert_eq!(req(&held), [Finding::Missing]);
                assert_eq!(req(&format!("{held}\n{}", a())), []);
                let bad_closer = format!("{fence}\n{}{fence}{sep}\n\n{}", a(), a());
                assert_eq!(req(&bad_closer), [Finding::Missing]);
            }
        }
    }

    #[test]
    fn sc_clos_049_code_in_containers() {
        let code_lines = format!("<!--\n{}", hidden_evidence());
        let indented = |prefix: &str, cont: &str| {
            let mut lines = code_lines.lines();
            let first = lines.next().unwrap_or_default();
            let mut s = format!("{prefix}{first}\n");
            for l in lines {
                s.push_str(&format!("{cont}{l}\n"));
            }
            s
        };
        for block in [
            indented("    ", "    "),
            indented("\t", "\t"),
            indented("-     ", "      "),
            indented(">     ", ">     "),
            format!("- ```\n  <!--\n  {}\n  ```\n", hidden_evidence()),
            format!("> ```\n> <!--\n> {}\n> ```\n", hidden_evidence()),
            format!("> - ```\n>   <!--\n>   {}\n>   ```\n", hidden_evidence()),
        ] {
            assert!(
                evidence_problem(&req(&format!("{}\n{block}", a_minus_e()))),
                "{block}"
            );
            assert_eq!(req(&format!("{}\n{block}", a())), [], "{block}");
            assert_eq!(req(&format!("{block}\n{}", a())), [], "{block}");
            assert!(
                repeated(&req(&format!("{}\n{block}\n{}", a(), a()))),
                "{block}"
            );
        }
    }

    #[test]
    fn sc_clos_050_lazy_continuation_keeps_the_code_span() {
        for first in ["- Example: `first", "> Example: `first"] {
            let text = format!("{first}\ncontinued <!--`\n\n{}", a());
            assert_eq!(req(&text), [], "{first}");
        }
    }

    #[test]
    fn sc_clos_051_bom_crlf_closing_hashes_and_history() {
        let current = a().replace(&format!("## {HEADING}"), &format!("## {HEADING}: ##"));
        let history = format!(
            "## Closure Assessment History\n\n### Earlier assessment\n\n{}",
            a_prime().lines().skip(2).collect::<Vec<_>>().join("\n")
        );
        let text =
            format!("\u{feff}# Review Report\n\n{current}\n{history}\n").replace('\n', "\r\n");
        let result = assess(&text, true, Implementation);
        assert_eq!(result.findings, []);
        assert_eq!(result.sections.len(), 1);
        let masked = mask(&text);
        let body = &masked[result.sections[0].body.clone()];
        assert!(
            body.contains("`ELIGIBLE`") && !body.contains("INELIGIBLE"),
            "{body}"
        );
    }

    #[test]
    fn sc_clos_052_template_block_starts_unassessed() {
        let template = format!(
            "## {HEADING}\n\n`Policy`: `IMPLEMENTATION_REVIEWED` `Eligibility`: `NOT_ASSESSED` `User Choice`:\n`NONE` `User Reason`: `NONE` `Assessed Inputs`: `NONE` `Evidence`: `NONE`\n`Unmet Requirements`: `NONE` `Omitted Phases`:\n`DOCUMENTING, REVIEWING_FINAL, SYNCHRONIZING` `Omitted Guarantees`:\n`Normal documentation, final review, and independent reconciliation omitted.`\n"
        );
        assert_eq!(run(&template, false, Implementation), []);
        assert_eq!(
            req(&template),
            [Finding::NotEligible(Some("NOT_ASSESSED".into()))]
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn same_shape(text: &str) {
        let masked = mask(text);
        assert_eq!(masked.len(), text.len(), "{text:?}");
        let lines = |s: &str| s.matches('\n').count() + s.matches('\r').count();
        assert_eq!(lines(&masked), lines(text), "{text:?}");
    }

    #[test]
    fn masking_keeps_offsets_and_line_breaks() {
        let text = "\u{feff}# T\r\n<!-- é\r\nü -->\r\n```\r\n`A`: `b`\r\n```\r\nkeep `A`: `c` <!-- ö -->\r\n";
        same_shape(text);
        let masked = mask(text);
        assert!(masked.starts_with("   # T\r\n"));
        assert!(!masked.contains("`b`") && masked.contains("keep `A`: `c`"));
        assert!(!masked.contains('ö'));
    }

    #[test]
    fn unclosed_and_odd_inputs_never_panic() {
        for text in [
            "",
            "\u{feff}",
            "<!--",
            "<!-- unclosed\n\n## x",
            "- a\n  - b\n    - <!--\n\t- c\n",
            "> > > ```\n> > > x",
            "\t\t<!--\r\n\r",
            "[a]: /x\n[a]: /y \"`Evidence`: `h`\"\n[a]: /z\n",
            "##\n## \n##\t#\n",
            "<pre>\n\u{2028}\u{2029}\r\r\n",
            "`unclosed ``code `span",
            "é<!--ü-->ö\n",
        ] {
            same_shape(text);
            let _ = assess(text, true, ReviewKind::Implementation);
        }
    }

    #[test]
    fn random_markdown_keeps_its_shape() {
        const TOKENS: [&str; 32] = [
            "<!--",
            "-->",
            "```",
            "~~~",
            "\n",
            "\r\n",
            "\t",
            "    ",
            "> ",
            "- ",
            "1. ",
            "2) ",
            "[a]: /x ",
            "[a]:",
            "\"",
            "`",
            "``",
            "<div>",
            "</PRE>",
            "<pre>",
            "<?",
            "?>",
            "é",
            "\u{feff}",
            "\u{2028}",
            "## Implementation-Reviewed Closure",
            "`Evidence`: `x`",
            "<span title=\"",
            "\\",
            "---",
            "text ",
            "]]>",
        ];
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut longest = 0;
        for _ in 0..3000 {
            let mut text = String::new();
            for _ in 0..next() % 24 {
                text.push_str(TOKENS[(next() % TOKENS.len() as u64) as usize]);
            }
            longest = longest.max(text.len());
            same_shape(&text);
            let result = assess(&text, true, ReviewKind::Implementation);
            assert!(result.sections.iter().all(|s| s.body.end <= text.len()));
        }
        assert!(longest > 100, "the generator produced only short texts");
    }

    #[test]
    fn repeated_definitions_are_masked_too() {
        let text = "[x]: /a\n[x]: /b \"`Evidence`: `hidden`\"\n[x]: /c \"`Policy`: `X`\"\n\ntext `Id`: `v`\n";
        let masked = mask(text);
        assert!(
            !masked.contains("Evidence") && !masked.contains("Policy"),
            "{masked}"
        );
        assert!(masked.contains("`Id`: `v`"));
    }

    #[test]
    fn sections_follow_commonmark_headings() {
        let text = "# T\n## One\na\n  ## Two ##\nb\n> ## Quoted\nc\nSetext\n---\n## Three:\n";
        let masked = mask(text);
        let names: Vec<_> = sections(text, &masked)
            .into_iter()
            .map(|s| s.name)
            .collect();
        assert_eq!(names, ["one", "two", "three"]);
    }
}
