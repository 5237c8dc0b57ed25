//! References between records (check-rules §1.8, RF §1.5).
//!
//! `AC` and `DEV` identifiers of the active cycle are written bare; `F`, `D`
//! and `DOC` identifiers exist in several records, so a reference from another
//! record names the file: `.standards/docs/reviews/<id>/implementation.md#F-003`,
//! or a path relative to the referring file (as in a Markdown link). These are
//! pure text functions; which records exist is the caller's business.

use std::ops::Range;

use crate::model::fields::is_js_whitespace;
use crate::model::layout;
use crate::model::vocab::IdPrefix;

/// The prefixes that must name their record when used from another record.
pub const QUALIFIED_PREFIXES: [IdPrefix; 3] = [IdPrefix::F, IdPrefix::D, IdPrefix::Doc];

/// A `<file>.md#<ID>` reference found in a record's raw text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QualifiedRef {
    /// The file part as written, ending in `.md`.
    pub file: String,
    /// The referenced identifier, e.g. `F-003`.
    pub id: String,
    pub prefix: IdPrefix,
    /// Byte range of the whole reference in the text.
    pub range: Range<usize>,
}

fn is_path_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'/' | b'-')
}

/// An `F`, `D` or `DOC` identifier starting at `at`: the prefix, `-`, and every
/// following digit (at least three). Returns the prefix and the end offset.
fn qualified_id_at(text: &str, at: usize) -> Option<(IdPrefix, usize)> {
    let rest = text.get(at..)?;
    // `F` and `D` are tried before `DOC`; `D` only matches when `-` follows it.
    let (prefix, after) = if let Some(r) = rest.strip_prefix("F-") {
        (IdPrefix::F, r)
    } else if let Some(r) = rest.strip_prefix("D-") {
        (IdPrefix::D, r)
    } else if let Some(r) = rest.strip_prefix("DOC-") {
        (IdPrefix::Doc, r)
    } else {
        return None;
    };
    let digits = after.bytes().take_while(u8::is_ascii_digit).count();
    (digits >= 3).then(|| (prefix, text.len() - after.len() + digits))
}

/// Every qualified reference in `text`, in order (check-rules §1.8): a run of
/// letters, digits, `_`, `.`, `/`, `-` ending in `.md`, then `#`, then an `F`,
/// `D` or `DOC` identifier. Not fence-aware: link targets and examples count.
pub fn qualified_references(text: &str) -> Vec<QualifiedRef> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    // Where the previous reference ended: a file part never reaches back over it.
    let mut floor = 0;
    let mut search = 0;
    while let Some(found) = text[search..].find(".md#") {
        let dot = search + found;
        let hash = dot + 3;
        let mut start = dot;
        while start > floor && is_path_byte(bytes[start - 1]) {
            start -= 1;
        }
        match qualified_id_at(text, hash + 1) {
            Some((prefix, end)) if start < dot => {
                out.push(QualifiedRef {
                    file: text[start..hash].to_string(),
                    id: text[hash + 1..end].to_string(),
                    prefix,
                    range: start..end,
                });
                floor = end;
                search = end;
            }
            _ => search = dot + 1,
        }
    }
    out
}

/// The candidate record paths a reference's file part may name, in the order
/// they are tried (check-rules §1.8): "from root" is the file part without
/// leading `/`; "relative" joins it to the referring record's folder and
/// normalises it. A file part starting with `./` or `../` tries relative first.
/// A relative candidate that climbs out of the project is dropped.
pub fn candidate_paths(referring: &str, file: &str) -> Vec<String> {
    let from_root = file.trim_start_matches('/').to_string();
    let folder = referring.rsplit_once('/').map(|(dir, _)| dir).unwrap_or("");
    let joined = if folder.is_empty() {
        file.to_string()
    } else {
        format!("{folder}/{file}")
    };
    let relative = layout::normalize(&joined);
    let relative_first = file.starts_with("./") || file.starts_with("../");
    let mut out = Vec::new();
    let ordered = if relative_first {
        [relative, Some(from_root)]
    } else {
        [Some(from_root), relative]
    };
    for candidate in ordered.into_iter().flatten() {
        if !out.contains(&candidate) {
            out.push(candidate);
        }
    }
    out
}

/// `text` with the labels of self-naming links blanked (check-rules §1.8): in
/// `[F-001](../reviews/<id>/implementation.md#F-001)` the label already names
/// its record, so it is not a bare mention. The destination has no spaces or
/// `)` and ends in `.md#` plus the same identifier; a link whose label and
/// target differ is left as it is. Offsets are kept (the label becomes spaces).
pub fn without_link_labels(text: &str) -> String {
    let mut out = text.as_bytes().to_vec();
    let mut i = 0;
    while let Some(found) = text[i..].find('[') {
        let open = i + found;
        i = open + 1;
        let Some((_, label_end)) = qualified_id_at(text, open + 1) else {
            continue;
        };
        let Some(dest) = text[label_end..].strip_prefix("](") else {
            continue;
        };
        let dest_start = label_end + 2;
        // The destination runs to the first `)`; a space before it means no link.
        let Some(close) = dest.find(|c: char| c == ')' || is_js_whitespace(c)) else {
            continue;
        };
        if !dest[close..].starts_with(')') {
            continue;
        }
        let dest = &dest[..close];
        let Some(md) = dest.rfind(".md#") else {
            continue;
        };
        let target = &dest[md + 4..];
        let label = &text[open + 1..label_end];
        let target_is_id = qualified_id_at(target, 0).is_some_and(|(_, end)| end == target.len());
        if target_is_id && target == label {
            for b in &mut out[open + 1..label_end] {
                *b = b' ';
            }
            i = dest_start + close + 1;
        }
    }
    // Only ASCII identifier bytes were replaced, so the text stays UTF-8.
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// `text` without the lines that are `###` entry headings of an `F`, `D`,
/// `DOC` or `DEV` identifier (check-rules §1.8): a heading defines its entry,
/// it does not mention it. Removed lines become empty lines.
pub fn without_entry_heading_lines(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let content = line.trim_end_matches(['\n', '\r']);
        if is_entry_heading(content) {
            out.push_str(&line[content.len()..]);
        } else {
            out.push_str(line);
        }
    }
    out
}

/// `###`, whitespace, then an `F`, `D`, `DOC` or `DEV` identifier ending at a word boundary.
fn is_entry_heading(line: &str) -> bool {
    let Some(rest) = line.strip_prefix("###") else {
        return false;
    };
    if !rest.starts_with([' ', '\t']) {
        return false;
    }
    let rest = rest.trim_start_matches([' ', '\t']);
    let end = if let Some(after) = rest.strip_prefix("DEV-") {
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        (digits >= 3).then_some(4 + digits)
    } else {
        qualified_id_at(rest, 0).map(|(_, end)| end)
    };
    end.is_some_and(|end| {
        rest[end..]
            .chars()
            .next()
            .is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_'))
    })
}

/// The prefix of an identifier such as `DOC-004`.
pub fn prefix_of(id: &str) -> Option<IdPrefix> {
    id.split_once('-').and_then(|(p, _)| p.parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refs(text: &str) -> Vec<(String, String)> {
        qualified_references(text)
            .into_iter()
            .map(|r| (r.file, r.id))
            .collect()
    }

    #[test]
    fn qualified_references_take_the_whole_path_run() {
        let text = "See .standards/docs/reviews/c/implementation.md#F-003, \
                    [F-001](../reviews/c/implementation.md#F-001) and (x.md#DOC-0042).";
        assert_eq!(
            refs(text),
            [
                (
                    ".standards/docs/reviews/c/implementation.md".into(),
                    "F-003".into()
                ),
                ("../reviews/c/implementation.md".into(), "F-001".into()),
                ("x.md".into(), "DOC-0042".into()),
            ]
        );
    }

    #[test]
    fn qualified_reference_edge_cases() {
        // No file name before `.md`, too few digits, another prefix, no `#`.
        assert!(refs(".md#F-001 a.md#F-01 a.md#AC-001 a.md F-001 a.md#DEV-001").is_empty());
        // The file part starts after the previous reference.
        assert_eq!(
            refs("a.md#F-001/b.md#D-002"),
            [
                ("a.md".into(), "F-001".into()),
                ("/b.md".into(), "D-002".into())
            ]
        );
        // A failed `.md#` does not hide a later one in the same word.
        assert_eq!(refs("a.md#x.md#D-123"), [("x.md".into(), "D-123".into())]);
        // Letters after the digits do not stop the match; a huge number is fine.
        assert_eq!(
            refs("r.md#F-001a r.md#F-99999999999999999999999"),
            [
                ("r.md".into(), "F-001".into()),
                ("r.md".into(), "F-99999999999999999999999".into())
            ]
        );
        assert!(refs("").is_empty());
        // Non-ASCII letters are not path characters, so nothing precedes `.md` here.
        assert!(refs("é/ü.md#F-001").is_empty());
        assert_eq!(refs("é/a.md#F-001"), [("/a.md".into(), "F-001".into())]);
    }

    #[test]
    fn candidates_in_order() {
        let from = ".standards/docs/documentation/c.md";
        assert_eq!(
            candidate_paths(from, "../reviews/c/implementation.md"),
            [
                ".standards/docs/reviews/c/implementation.md",
                "../reviews/c/implementation.md"
            ]
        );
        assert_eq!(
            candidate_paths(from, "/.standards/docs/x.md"),
            [
                ".standards/docs/x.md",
                ".standards/docs/documentation/.standards/docs/x.md"
            ]
        );
        assert_eq!(candidate_paths("top.md", "a.md"), ["a.md"]);
        assert_eq!(candidate_paths("top.md", "../../a.md"), ["../../a.md"]);
    }

    #[test]
    fn link_labels_are_blanked_only_when_they_name_their_target() {
        let text = "Fixes [F-001](../r/implementation.md#F-001). Also [F-001](../r/implementation.md#F-002).";
        let out = without_link_labels(text);
        assert_eq!(out.len(), text.len());
        assert_eq!(
            crate::records::record::bare_mentions(&out, IdPrefix::F),
            ["F-001"]
        );
        assert!(out.starts_with("Fixes [     ](../r/implementation.md#F-001)"));
        // Spaces in the destination, or a target that is not a record, keep the label.
        for kept in [
            "[F-001](a b.md#F-001)",
            "[F-001](a.txt#F-001)",
            "[D-001](a.md#D-0012)",
            "[F-001]",
            "[F-001](a.md#F-001",
        ] {
            assert_eq!(without_link_labels(kept), kept);
        }
        assert_eq!(
            without_link_labels("[DOC-007](x/y.md#DOC-007)"),
            "[       ](x/y.md#DOC-007)"
        );
    }

    #[test]
    fn entry_heading_lines_are_removed() {
        let text = "### F-001 — x\nF-002\n###\tDEV-003\n### DOC-004a\n#### D-005\n### D-006\r\n";
        let out = without_entry_heading_lines(text);
        assert_eq!(out, "\nF-002\n\n### DOC-004a\n#### D-005\n\r\n");
    }

    #[test]
    fn prefixes() {
        assert_eq!(prefix_of("DOC-004"), Some(IdPrefix::Doc));
        assert_eq!(prefix_of("X-004"), None);
    }
}
