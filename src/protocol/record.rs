//! Cycle records: header fields, sections and identifiers (RF §1, §7).

use std::ops::Range;

use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag, TagEnd};

use super::fields::{self, Field};
use super::text::strip_bom;
use super::vocab::IdPrefix;

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

/// A template placeholder still awaiting its value (RF §1.3).
pub fn is_unfilled(value: &str) -> bool {
    value.contains(" | ") || is_angle_placeholder(value)
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
                if let Ok(n) = text[digits_start..j].parse::<u64>() {
                    out.push(n);
                }
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
        assert_eq!(format_identifier(IdPrefix::Ac, 7), "AC-007");
        assert_eq!(format_identifier(IdPrefix::F, 1000), "F-1000");
    }
}
