//! Small text helpers shared by the parsers.

/// Removes one leading U+FEFF; says whether it was there.
pub fn strip_bom(text: &str) -> (&str, bool) {
    match text.strip_prefix('\u{feff}') {
        Some(rest) => (rest, true),
        None => (text, false),
    }
}

/// Replaces every HTML comment (`<!--` to the next `-->`, multi-line) with
/// spaces, keeping line breaks and byte offsets, so spans found in the masked
/// text are valid in the original. A `<!--` that is never closed is not a
/// comment (check-rules §1.3), so it and the rest of the text stay as they are.
pub fn mask_html_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find("<!--") {
        out.push_str(&rest[..open]);
        let after = &rest[open..];
        let Some(close) = after[4..].find("-->").map(|i| i + 4 + 3) else {
            out.push_str(after);
            return out;
        };
        out.extend(
            after[..close]
                .bytes()
                .map(|b| if b == b'\n' { '\n' } else { ' ' }),
        );
        rest = &after[close..];
    }
    out.push_str(rest);
    out
}

/// [`mask_html_comments`] as discovery reads a record header (RT §6.3, RF
/// §1.2): a `<!--` inside a code span is literal text, because the span opens
/// first (CommonMark). A code span here is a run of backticks closed by a run
/// of the same length on the same line; offsets and line breaks are kept.
pub fn mask_html_comments_outside_code_spans(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = bytes.to_vec();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'`' {
            let run = bytes[i..].iter().take_while(|b| **b == b'`').count();
            let line_end = text[i..].find('\n').map_or(text.len(), |n| i + n);
            i = match closing_run(&text[i + run..line_end], run) {
                Some(close) => i + run + close + run,
                None => i + run,
            };
            continue;
        }
        if bytes[i..].starts_with(b"<!--") {
            let Some(close) = text[i + 4..].find("-->") else {
                break; // never closed: not a comment (check-rules §1.3)
            };
            let end = i + 4 + close + 3;
            for b in &mut out[i..end] {
                if *b != b'\n' {
                    *b = b' ';
                }
            }
            i = end;
            continue;
        }
        i += 1;
    }
    // Whole characters were written over with ASCII spaces, so this stays UTF-8.
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Where a run of exactly `len` backticks starts in `text`.
fn closing_run(text: &str, len: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'`' {
            let run = bytes[i..].iter().take_while(|b| **b == b'`').count();
            if run == len {
                return Some(i);
            }
            i += run;
        } else {
            i += 1;
        }
    }
    None
}

/// Decodes bytes as UTF-8, naming the first bad byte offset on failure.
pub fn decode(bytes: &[u8]) -> Result<&str, usize> {
    std::str::from_utf8(bytes).map_err(|e| e.valid_up_to())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masking_keeps_offsets_and_lines() {
        let text = "a <!-- x\ny --> b `Id`: `v`";
        let masked = mask_html_comments(text);
        assert_eq!(masked.len(), text.len());
        assert_eq!(masked.lines().count(), 2);
        assert!(masked.ends_with(" b `Id`: `v`"));
        assert!(!masked.contains('x'));
    }

    #[test]
    fn an_unclosed_opener_is_text() {
        assert_eq!(mask_html_comments("a <!-- b"), "a <!-- b");
        assert_eq!(mask_html_comments("<!--x--> a <!-- b"), "         a <!-- b");
    }

    #[test]
    fn a_comment_opener_inside_a_code_span_is_text() {
        let text = "`User Style`: `tony<!--literal-->` <!-- old\r`Mode`: `X` --> `Mode`: `Y`";
        let masked = mask_html_comments_outside_code_spans(text);
        assert_eq!(masked.len(), text.len());
        assert!(masked.starts_with("`User Style`: `tony<!--literal-->` "));
        assert!(!masked.contains("`X`"));
        assert!(masked.ends_with("`Mode`: `Y`"));
        // The plain masker reads the opener inside the span as a comment.
        assert!(!mask_html_comments(text).contains("literal"));
        // A span left open does not hide a later comment.
        assert_eq!(
            mask_html_comments_outside_code_spans("a ` <!--x--> b"),
            "a `          b"
        );
        assert_eq!(
            mask_html_comments_outside_code_spans("— <!--é--> —"),
            format!("— {} —", " ".repeat(9))
        );
        assert_eq!(
            mask_html_comments_outside_code_spans("``a`<!--x-->``"),
            "``a`<!--x-->``"
        );
    }

    #[test]
    fn bom_is_removed_once() {
        assert_eq!(strip_bom("\u{feff}\u{feff}x"), ("\u{feff}x", true));
        assert_eq!(decode(b"ab\xffc"), Err(2));
    }
}
