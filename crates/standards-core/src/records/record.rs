//! Cycle records: header fields, sections and identifiers (RF §1, §7).

use std::ops::Range;

use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag, TagEnd};

use crate::model::fields::{self, Field};
use crate::model::text::strip_bom;
use crate::model::vocab::IdPrefix;

/// The header region of a record (check-rules §1.6): after a leading HTML
/// comment (one optional BOM first), from the first `# ` line to the first
/// following `## ` line. Returns the byte range in `text`, or `None` without an H1.
pub fn header_range(text: &str) -> Option<Range<usize>> {
    let mut start = 0;
    if let Some(rest) = strip_bom(text).0.strip_prefix("<!--") {
        let bom = text.len() - strip_bom(text).0.len();
        let close = rest.find("-->")?;
        start = bom + 4 + close + 3;
    }
    let mut pos = start;
    let mut h1_end = None;
    for line in text[start..].split_inclusive('\n') {
        if line.starts_with("# ") {
            h1_end = Some(pos + line.len());
            break;
        }
        pos += line.len();
    }
    let begin = h1_end?;
    let mut end = text.len();
    let mut pos = begin;
    for line in text[begin..].split_inclusive('\n') {
        if line.starts_with("## ") {
            end = pos;
            break;
        }
        pos += line.len();
    }
    Some(begin..end)
}

/// The header's field pairs, with spans relative to `text`.
pub fn header_fields(text: &str) -> Vec<Field> {
    let Some(range) = header_range(text) else {
        return Vec::new();
    };
    fields::scan(&text[range.clone()])
        .into_iter()
        .map(|mut f| {
            f.pair = f.pair.start + range.start..f.pair.end + range.start;
            f.span = f.span.start + range.start..f.span.end + range.start;
            f
        })
        .collect()
}

/// The header fields (first occurrence of each name) whose value is still the
/// template's placeholder: what the record's owner must fill in (RH-002, and
/// what `artifact init` names after creating a record).
pub fn unfilled_header_fields(text: &str) -> Vec<Field> {
    let mut seen: Vec<String> = Vec::new();
    let mut out = Vec::new();
    for f in header_fields(text) {
        if seen.contains(&f.name) {
            continue;
        }
        seen.push(f.name.clone());
        if is_unfilled_field(&f.name, &f.value) {
            out.push(f);
        }
    }
    out
}

/// Whether the header field `name` still holds a template placeholder.
/// record-formats §1.3: for `Target Detail` only the whole-value `<…>`
/// placeholder counts (a capability may well read `input A | B`); the format's
/// own rule for this field wins over the catalogue's general one.
pub fn is_unfilled_field(name: &str, value: &str) -> bool {
    if name == "Target Detail" {
        is_angle_placeholder(value)
    } else {
        is_unfilled(value)
    }
}

/// A template placeholder still awaiting its value (RF §1.3).
pub fn is_unfilled(value: &str) -> bool {
    value.contains(" | ") || is_angle_placeholder(value)
}

/// A `User Style` value a record can save (protocol, User Styles; D25):
/// nonblank, no `|` anywhere (stricter than [`is_unfilled`]'s ` | `), and not
/// a `<…>` placeholder. `check` (RH-002) and discovery's selectors both use it.
pub fn is_saveable_style(value: &str) -> bool {
    !fields::js_trim(value).is_empty() && !value.contains('|') && !is_angle_placeholder(value)
}

/// The whole value is `<…>`.
pub fn is_angle_placeholder(value: &str) -> bool {
    value.len() >= 2 && value.starts_with('<') && value.ends_with('>')
}

/// A level-2 section of a record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    /// Normalised name: trailing `#`s and one trailing colon removed, lowercased.
    pub name: String,
    pub heading_line: usize,
    /// From after the heading line to the next H2 or the end.
    pub body: Range<usize>,
}

/// Every H2 section, found with a CommonMark parse (so headings inside fences,
/// HTML blocks or indented code are not sections).
pub fn sections(text: &str) -> Vec<Section> {
    let mut heads: Vec<(Range<usize>, String)> = Vec::new();
    let mut current: Option<(Range<usize>, String)> = None;
    for (event, range) in Parser::new_ext(text, Options::empty()).into_offset_iter() {
        match event {
            Event::Start(Tag::Heading {
                level: HeadingLevel::H2,
                ..
            }) => current = Some((range, String::new())),
            Event::End(TagEnd::Heading(HeadingLevel::H2)) => {
                if let Some(h) = current.take() {
                    heads.push(h);
                }
            }
            Event::Text(t) | Event::Code(t) => {
                if let Some((_, name)) = current.as_mut() {
                    name.push_str(&t);
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    for (i, (range, name)) in heads.iter().enumerate() {
        let body_start = if text[..range.end].ends_with('\n') {
            range.end
        } else {
            text[range.end..]
                .find('\n')
                .map(|n| range.end + n + 1)
                .unwrap_or(text.len())
        };
        let body_end = heads.get(i + 1).map(|(r, _)| r.start).unwrap_or(text.len());
        out.push(Section {
            name: normalize_section_name(name),
            heading_line: fields::line_of(text, range.start),
            body: body_start.min(body_end)..body_end,
        });
    }
    out
}

/// The first section named `name` (compared case-insensitively).
pub fn section<'a>(all: &'a [Section], name: &str) -> Option<&'a Section> {
    let want = name.to_lowercase();
    all.iter().find(|s| s.name == want)
}

pub fn normalize_section_name(raw: &str) -> String {
    let mut name = raw.trim_end();
    let without_hashes = name.trim_end_matches('#');
    if without_hashes.len() != name.len() && without_hashes.ends_with(char::is_whitespace) {
        name = without_hashes.trim_end();
    }
    let name = name.strip_suffix(':').unwrap_or(name);
    name.trim().to_lowercase()
}

/// Byte ranges of fenced code blocks (fences included).
pub fn fenced_ranges(text: &str) -> Vec<Range<usize>> {
    Parser::new_ext(text, Options::empty())
        .into_offset_iter()
        .filter_map(|(e, r)| match e {
            Event::Start(Tag::CodeBlock(pulldown_cmark::CodeBlockKind::Fenced(_))) => Some(r),
            _ => None,
        })
        .collect()
}

/// Every number `N` of `<PREFIX>-N` (≥ 3 digits) in `text` that is not a
/// reference into another record (RT §4.2 step 5): not preceded by a letter,
/// digit, `_`, `#` or `-`, and not followed by a digit. The scan is textual on
/// purpose: retired IDs, earlier cycles' IDs and fenced examples all count, so a
/// number is never handed out twice (D11).
pub fn identifier_numbers(text: &str, prefix: IdPrefix) -> Vec<u64> {
    let p = prefix.as_str().as_bytes();
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i + p.len() < b.len() {
        if &b[i..i + p.len()] == p && b[i + p.len()] == b'-' {
            let before_ok = i == 0
                || !(b[i - 1].is_ascii_alphanumeric() || matches!(b[i - 1], b'_' | b'#' | b'-'));
            let digits_start = i + p.len() + 1;
            let mut j = digits_start;
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            if before_ok && j - digits_start >= 3 {
                // A number too wide for u64 still counts, as the largest one, so
                // `id next` refuses rather than handing out a used identifier.
                out.push(text[digits_start..j].parse::<u64>().unwrap_or(u64::MAX));
            }
            i = j.max(i + 1);
        } else {
            i += 1;
        }
    }
    out
}

/// `PREFIX-NNN`, zero-padded to at least three digits.
pub fn format_identifier(prefix: IdPrefix, n: u64) -> String {
    format!("{}-{n:03}", prefix.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_follows_the_provenance_block() {
        let text = "<!-- STANDARDS\nArtifact: DEVELOPMENT\nCycle: c\n-->\n\n# Development Plan\n\n`Cycle`: `c` `Mode`: `AUTONOMOUS | STEPWISE`\n\n## Build Steps\n`Status`: `DONE`\n";
        let fields = header_fields(text);
        let names: Vec<_> = fields.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["Cycle", "Mode"]);
        assert!(is_unfilled(&fields[1].value));
        assert_eq!(&text[fields[0].span.clone()], "`c`");
        assert!(header_fields("no title\n`Cycle`: `c`").is_empty());
    }

    #[test]
    fn unfilled_values() {
        assert!(is_unfilled("NONE | <identifier>"));
        assert!(is_unfilled("<style-name>"));
        assert!(!is_unfilled("NONE"));
        assert!(!is_unfilled("a|b"));
    }

    #[test]
    fn sections_ignore_fenced_headings_and_normalise_names() {
        let text = "# T\n## Goal:\nx\n```\n## Not A Section\n```\n## Previous Cycles ##\ny\n";
        let s = sections(text);
        let names: Vec<_> = s.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["goal", "previous cycles"]);
        assert_eq!(&text[s[1].body.clone()], "y\n");
        assert_eq!(s[0].heading_line, 2);
        assert_eq!(fenced_ranges(text).len(), 1);
    }

    #[test]
    fn identifier_numbers_skip_references() {
        let text = "### F-001\nsee other.md#F-009 and F-0010 xF-004 F-02 F-003";
        assert_eq!(identifier_numbers(text, IdPrefix::F), vec![1, 10, 3]);
        assert_eq!(identifier_numbers("DOC-005 D-002", IdPrefix::D), vec![2]);
        assert_eq!(
            identifier_numbers("AC-999999999999999999999999", IdPrefix::Ac),
            vec![u64::MAX]
        );
        assert_eq!(format_identifier(IdPrefix::Ac, 7), "AC-007");
        assert_eq!(format_identifier(IdPrefix::F, 1000), "F-1000");
    }
}

/// Byte ranges of every line inside a fenced code block (fences included),
/// as CommonMark (pulldown-cmark) parses them.
pub fn fenced_lines(text: &str) -> Vec<Range<usize>> {
    let fences = fenced_ranges(text);
    let mut out = Vec::new();
    let mut pos = 0;
    for line in text.split_inclusive('\n') {
        let r = pos..pos + line.len();
        if fences.iter().any(|f| f.start <= r.start && r.start < f.end) {
            out.push(r);
        }
        pos += line.len();
    }
    out
}

/// `text` with fenced lines blanked (spaces, line breaks kept), so offsets and
/// line numbers stay valid and fenced examples are not content.
pub fn mask_fences(text: &str) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for r in fenced_lines(text) {
        for b in &mut bytes[r] {
            if *b != b'\n' && *b != b'\r' {
                *b = b' ';
            }
        }
    }
    // Only ASCII bytes were written over whole lines, so the result stays UTF-8.
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// `text` with HTML comments (`<!-- ... -->`, an unclosed one to the end)
/// blanked, line breaks kept, so offsets and line numbers stay valid.
pub fn mask_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find("<!--") {
        out.push_str(&rest[..open]);
        let after = &rest[open..];
        let end = after.find("-->").map_or(after.len(), |e| e + 3);
        out.extend(
            after[..end]
                .chars()
                .map(|c| if c == '\n' { '\n' } else { ' ' }),
        );
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// Whether a line is an H2 heading by the catalogue's rule (§1.7): `##`, whitespace, text.
pub fn h2_name(line: &str) -> Option<String> {
    let line = line.trim_end_matches(['\n', '\r']);
    let rest = line.strip_prefix("##")?;
    if !rest.starts_with([' ', '\t']) || rest.trim().is_empty() {
        return None;
    }
    Some(normalize_section_name(rest.trim()))
}

/// The body of the first section named `name` with fenced lines blanked, or
/// `None` when the record has no such section (check-rules §1.7).
pub fn section_body(text: &str, name: &str) -> Option<String> {
    section_bodies(text, name).into_iter().next()
}

/// The bodies of every section named `name`, fenced lines blanked.
pub fn section_bodies(text: &str, name: &str) -> Vec<String> {
    let masked = mask_fences(text);
    section_ranges(&masked, name)
        .into_iter()
        .map(|r| masked[r].to_string())
        .collect()
}

/// The byte ranges of the bodies of every H2 section named `name`, in a text
/// whose fences are already masked ([`mask_fences`] keeps offsets, so the
/// ranges are valid in the original too). A body runs from after its heading
/// line to the next H2 of any name, or the end.
pub fn section_ranges(masked: &str, name: &str) -> Vec<Range<usize>> {
    let want = name.to_lowercase();
    let mut out = Vec::new();
    let mut current: Option<usize> = None;
    let mut pos = 0;
    for line in masked.split_inclusive('\n') {
        if let Some(heading) = h2_name(line) {
            if let Some(start) = current.take() {
                out.push(start..pos);
            }
            if heading == want {
                current = Some(pos + line.len());
            }
        }
        pos += line.len();
    }
    out.extend(current.map(|start| start..masked.len()));
    out
}

/// Every bare mention of `prefix` identifiers (check-rules §1.8): not preceded
/// by a letter, digit, `_`, `#`, `.`, `/` or `-`; at least three digits, not
/// followed by a digit. Deduplicated, in first-seen order.
pub fn bare_mentions(text: &str, prefix: IdPrefix) -> Vec<String> {
    let p = prefix.as_str().as_bytes();
    let b = text.as_bytes();
    let mut out: Vec<String> = Vec::new();
    let mut seen: std::collections::HashSet<&str> = std::collections::HashSet::new();
    let mut i = 0;
    while i + p.len() < b.len() {
        if &b[i..i + p.len()] == p && b[i + p.len()] == b'-' {
            let before_ok = i == 0
                || !(b[i - 1].is_ascii_alphanumeric()
                    || matches!(b[i - 1], b'_' | b'#' | b'.' | b'/' | b'-'));
            let start = i + p.len() + 1;
            let mut j = start;
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            if before_ok && j - start >= 3 && seen.insert(&text[i..j]) {
                out.push(text[i..j].to_string());
            }
            i = j.max(i + 1);
        } else {
            i += 1;
        }
    }
    out
}

/// `### <ID>` entry headings of `prefix` (check-rules §1.8), in order, with repeats;
/// not fence-aware, as the catalogue specifies.
pub fn entry_headings(text: &str, prefix: IdPrefix) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        let Some(rest) = line.strip_prefix("###") else {
            continue;
        };
        if !rest.starts_with([' ', '\t']) {
            continue;
        }
        let rest = rest.trim_start();
        let Some(after) = rest
            .strip_prefix(prefix.as_str())
            .and_then(|r| r.strip_prefix('-'))
        else {
            continue;
        };
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        let boundary = after[digits..]
            .chars()
            .next()
            .is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_'));
        if digits >= 3 && boundary {
            out.push(format!("{}-{}", prefix.as_str(), &after[..digits]));
        }
    }
    out
}

#[cfg(test)]
mod helper_tests {
    use super::*;

    #[test]
    fn sections_and_fences() {
        let text = "# T\n## Goal\nAC-001\n```\n## Fake\nAC-009\n```\n## goal:\nsecond\n## Other\n";
        let bodies = section_bodies(text, "Goal");
        assert_eq!(bodies.len(), 2);
        assert!(bodies[0].contains("AC-001") && !bodies[0].contains("AC-009"));
        assert_eq!(bodies[1], "second\n");
        assert_eq!(section_body(text, "missing"), None);
        assert_eq!(h2_name("### x"), None);
        assert_eq!(
            h2_name("##\tPrevious Cycles ##").as_deref(),
            Some("previous cycles")
        );
    }

    #[test]
    fn bare_mentions_and_entry_headings() {
        let text = "AC-001, x.md#AC-002, a/AC-003, `AC-004`, AC-0001 AC-01 AC-001";
        assert_eq!(
            bare_mentions(text, IdPrefix::Ac),
            ["AC-001", "AC-004", "AC-0001"]
        );
        let rec = "### F-001: a\n### F-001a\n###F-002\n### F-003 — x\n### F-001\n";
        assert_eq!(
            entry_headings(rec, IdPrefix::F),
            ["F-001", "F-003", "F-001"]
        );
    }
}
