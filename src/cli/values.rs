//! Value parsers shared by the subcommands' arguments: one-line texts and
//! ref-like names, refused with exit 2 before any command runs (issue 21).

/// A non-blank text value.
pub fn text_value(s: &str) -> std::result::Result<String, String> {
    if s.trim().is_empty() {
        Err("the text must not be empty".into())
    } else {
        one_line_value(s)
    }
}

/// How a control character is named in a refusal: its code point, and for
/// the common ones what it is.
fn control_name(c: char) -> String {
    let what = match c {
        '\n' => " (a line feed)",
        '\r' => " (a carriage return)",
        '\t' => " (a tab)",
        '\u{1b}' => " (an escape)",
        '\u{2028}' => " (a line separator)",
        '\u{2029}' => " (a paragraph separator)",
        _ => "",
    };
    format!("U+{:04X}{what}", c as u32)
}

/// A value written into one line of a record or STATE.md (issue 21): a
/// control character (a line break above all) would write a second,
/// field-looking line, so it is refused, naming the character.
pub fn one_line_value(s: &str) -> std::result::Result<String, String> {
    match s
        .chars()
        .enumerate()
        .find(|(_, c)| c.is_control() || matches!(c, '\u{2028}' | '\u{2029}'))
    {
        Some((i, c)) => Err(format!(
            "it holds the control character {} at character {}; the value is written on one line, so write it without line breaks or other control characters",
            control_name(c),
            i + 1
        )),
        None => Ok(s.to_string()),
    }
}

/// `cycle new --request`: a blank value is left to the command, which says
/// a request is required; any other is a [`one_line_value`].
pub fn request_value(s: &str) -> std::result::Result<String, String> {
    if s.trim().is_empty() {
        Ok(s.to_string())
    } else {
        one_line_value(s)
    }
}

/// The longest ref-like argument (a branch, revision, cycle ID or remote):
/// git cannot store a longer ref name component in a file.
pub const MAX_REF_ARG: usize = 1024;

/// A branch, revision, cycle ID or remote name: not empty, one line, at most
/// [`MAX_REF_ARG`] bytes, no path component longer than 255 bytes (the file
/// system's limit for a loose ref), so that git is never asked to read a
/// ref it cannot name (issue 21: bad input is refused with exit 2).
pub fn ref_value(s: &str) -> std::result::Result<String, String> {
    if s.is_empty() {
        return Err("the value must not be empty".into());
    }
    one_line_value(s)?;
    if s.len() > MAX_REF_ARG {
        return Err(format!(
            "it is {} bytes long; a branch, revision or name here is at most {MAX_REF_ARG} bytes",
            s.len()
        ));
    }
    if let Some(long) = s.split('/').find(|p| p.len() > 255) {
        return Err(format!(
            "its part `{}...` is {} bytes long; git cannot store a ref name part longer than 255 bytes",
            &long[..long.char_indices().nth(16).map_or(long.len(), |(i, _)| i)],
            long.len()
        ));
    }
    Ok(s.to_string())
}

/// A branch name (`main`, `refs/heads/main`): a [`ref_value`] that is also
/// a valid branch ref name, so `HEAD~1` or `a..b` is refused with exit 2
/// rather than looked up as a branch.
pub fn branch_value(s: &str) -> std::result::Result<String, String> {
    ref_value(s)?;
    let short = s.strip_prefix("refs/heads/").unwrap_or(s);
    match crate::repo::refs::check_ref_name(&format!("refs/heads/{short}")) {
        Ok(_) => Ok(s.to_string()),
        Err(e) => Err(format!(
            "it is not a valid branch name ({e}); name a branch such as `main`"
        )),
    }
}
