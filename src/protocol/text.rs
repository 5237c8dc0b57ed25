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
    fn bom_is_removed_once() {
        assert_eq!(strip_bom("\u{feff}\u{feff}x"), ("\u{feff}x", true));
        assert_eq!(decode(b"ab\xffc"), Err(2));
    }
}
