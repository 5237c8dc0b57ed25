//! Field pairs: `` `Name`: `value` `` (RF §1.1, check-rules §1.2).
//!
//! A field pair is lexical, not structural: it is found anywhere in the text it
//! is extracted from (tables, lists, comments), so this is a small exact scanner
//! rather than a Markdown parse. The value is a CommonMark code span that may use
//! several backticks so it can contain backticks itself.

use std::ops::Range;

/// One field pair found in a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    pub name: String,
    /// The value with CommonMark's one-space padding rule applied.
    pub value: String,
    /// Byte range of the whole pair, from the name's backtick to the value's closing run.
    pub pair: Range<usize>,
    /// Byte range of the value's code span, backtick runs included.
    pub span: Range<usize>,
}

/// "`A` (`x`), `B` (`y`) and `C` (`z`)": fields with their values, for messages.
pub fn listing<'a>(fields: impl IntoIterator<Item = &'a Field>) -> String {
    let shown: Vec<String> = fields
        .into_iter()
        .map(|f| format!("`{}` (`{}`)", f.name, f.value))
        .collect();
    match shown.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// Every field pair of `text`, in document order.
pub fn scan(text: &str) -> Vec<Field> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'`' {
            if let Some(field) = pair_at(text, i) {
                i = field.pair.end;
                out.push(field);
                continue;
            }
        }
        i += 1;
    }
    out
}

/// Every value of the field `name` in `text`, in order.
pub fn values<'a>(fields: &'a [Field], name: &'a str) -> impl Iterator<Item = &'a Field> + 'a {
    fields.iter().filter(move |f| f.name == name)
}

/// The first occurrence of `name`.
pub fn first<'a>(fields: &'a [Field], name: &str) -> Option<&'a Field> {
    fields.iter().find(|f| f.name == name)
}

fn pair_at(text: &str, start: usize) -> Option<Field> {
    let bytes = text.as_bytes();
    // `Name`
    let mut i = start + 1;
    if !bytes.get(i)?.is_ascii_alphabetic() {
        return None;
    }
    while i < bytes.len() && (bytes[i].is_ascii_alphabetic() || bytes[i] == b' ') {
        i += 1;
    }
    if bytes.get(i) != Some(&b'`') || bytes.get(i + 1) != Some(&b':') {
        return None;
    }
    let name = &text[start + 1..i];
    i += 2;
    // Optional whitespace, line breaks included (ECMAScript \s).
    while i < text.len() {
        let c = text[i..].chars().next()?;
        if is_js_whitespace(c) {
            i += c.len_utf8();
        } else {
            break;
        }
    }
    let (span, value) = code_span_at(text, i)?;
    Some(Field {
        name: name.to_string(),
        value,
        pair: start..span.end,
        span,
    })
}

/// A code span opening exactly at `at` with a maximal backtick run, closed by the
/// next run of exactly the same length. Returns its byte range and its value.
pub fn code_span_at(text: &str, at: usize) -> Option<(Range<usize>, String)> {
    let bytes = text.as_bytes();
    if bytes.get(at) != Some(&b'`') || (at > 0 && bytes[at - 1] == b'`') {
        return None;
    }
    let mut open_end = at;
    while open_end < bytes.len() && bytes[open_end] == b'`' {
        open_end += 1;
    }
    let n = open_end - at;
    let mut j = open_end;
    while j < bytes.len() {
        if bytes[j] == b'`' {
            let run_start = j;
            while j < bytes.len() && bytes[j] == b'`' {
                j += 1;
            }
            if j - run_start == n {
                let raw = &text[open_end..run_start];
                return Some((at..j, strip_padding(raw).to_string()));
            }
        } else {
            j += 1;
        }
    }
    None
}

/// CommonMark: one leading and one trailing space go when both exist and the
/// content is not only spaces.
fn strip_padding(raw: &str) -> &str {
    if raw.len() >= 2 && raw.starts_with(' ') && raw.ends_with(' ') && raw.chars().any(|c| c != ' ')
    {
        &raw[1..raw.len() - 1]
    } else {
        raw
    }
}

/// Renders `value` as a code span that reads back as exactly `value`.
pub fn render_code_span(value: &str) -> String {
    let longest = longest_backtick_run(value);
    let fence = "`".repeat(longest + 1);
    let needs_padding = value.starts_with('`')
        || value.ends_with('`')
        || (value.len() >= 2
            && value.starts_with(' ')
            && value.ends_with(' ')
            && value.chars().any(|c| c != ' '));
    if needs_padding {
        format!("{fence} {value} {fence}")
    } else {
        format!("{fence}{value}{fence}")
    }
}

fn longest_backtick_run(s: &str) -> usize {
    let mut best = 0;
    let mut run = 0;
    for b in s.bytes() {
        if b == b'`' {
            run += 1;
            best = best.max(run);
        } else {
            run = 0;
        }
    }
    best
}

/// ECMAScript's `trim`: removes [`is_js_whitespace`] from both ends (check-rules §1.1).
pub fn js_trim(s: &str) -> &str {
    s.trim_matches(is_js_whitespace)
}

/// ECMAScript's `\s`: the whitespace the reference treats as whitespace.
pub fn is_js_whitespace(c: char) -> bool {
    matches!(
        c,
        '\u{9}' | '\u{a}' | '\u{b}' | '\u{c}' | '\u{d}' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200a}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202f}'
                | '\u{205f}'
                | '\u{3000}'
                | '\u{feff}'
    )
}

/// Line numbers of many offsets in one text: the newline positions, found
/// once, so each lookup is a binary search instead of [`line_of`]'s scan
/// from the start (which makes a loop over entries quadratic).
#[derive(Debug, Clone)]
pub struct LineIndex {
    newlines: Vec<usize>,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        LineIndex {
            newlines: text
                .bytes()
                .enumerate()
                .filter(|(_, b)| *b == b'\n')
                .map(|(i, _)| i)
                .collect(),
        }
    }

    /// The same as [`line_of`] for the text the index was built from.
    pub fn line(&self, at: usize) -> usize {
        self.newlines.partition_point(|&nl| nl < at) + 1
    }
}

/// 1-based line number of byte offset `at` in `text`.
pub fn line_of(text: &str, at: usize) -> usize {
    text.as_bytes()[..at.min(text.len())]
        .iter()
        .filter(|b| **b == b'\n')
        .count()
        + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_index_agrees_with_line_of() {
        for text in ["", "a", "\n", "a\nb", "a\n\nb\n", "\r\nx\r\n"] {
            let index = LineIndex::new(text);
            for at in 0..=text.len() + 1 {
                assert_eq!(index.line(at), line_of(text, at), "{text:?} at {at}");
            }
        }
    }

    fn pairs(text: &str) -> Vec<(String, String)> {
        scan(text).into_iter().map(|f| (f.name, f.value)).collect()
    }

    #[test]
    fn several_fields_share_a_line() {
        assert_eq!(
            pairs("`WorkflowState`: `SCOPING` `CycleMode`: `UNSET`"),
            vec![
                ("WorkflowState".into(), "SCOPING".into()),
                ("CycleMode".into(), "UNSET".into())
            ]
        );
    }

    #[test]
    fn names_may_hold_spaces_and_values_may_wrap() {
        assert_eq!(
            pairs("`User Style Locked`:\n`false`\n`Reason`: `two\nlines`"),
            vec![
                ("User Style Locked".into(), "false".into()),
                ("Reason".into(), "two\nlines".into())
            ]
        );
    }

    #[test]
    fn double_backtick_values_carry_backticks() {
        assert_eq!(
            pairs("`Request`: ``Add a `--json` flag``"),
            vec![("Request".into(), "Add a `--json` flag".into())]
        );
        assert_eq!(
            pairs("`Request`: `` `x` ``"),
            vec![("Request".into(), "`x`".into())]
        );
    }

    #[test]
    fn closing_run_must_match_exactly() {
        // The single-backtick value is not closed by the double run.
        assert_eq!(pairs("`A`: `x``y`"), vec![("A".into(), "x``y".into())]);
        assert_eq!(pairs("`A`: `unclosed"), vec![]);
    }

    #[test]
    fn names_start_with_a_letter_and_hold_no_dots() {
        assert!(pairs("`1x`: `v`").is_empty());
        assert!(pairs("`Active Work.Id`: `v`").is_empty());
        assert!(
            pairs("`A` : `v`").is_empty(),
            "the colon must follow the backtick"
        );
    }

    #[test]
    fn rendering_reads_back() {
        for v in ["plain", "has `tick`", "`edge", " padded ", "``double``"] {
            let span = render_code_span(v);
            let (_, back) = code_span_at(&span, 0).unwrap();
            assert_eq!(back, v, "span {span}");
        }
    }

    #[test]
    fn spans_point_into_the_text() {
        let text = "x `Id`: `abc` y";
        let f = &scan(text)[0];
        assert_eq!(&text[f.span.clone()], "`abc`");
        assert_eq!(&text[f.pair.clone()], "`Id`: `abc`");
        assert_eq!(line_of("a\nb\nc", 4), 3);
    }
}
