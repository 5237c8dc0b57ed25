//! Lines that look like a structured field but are not one (issue 25,
//! item 3): `Status: DONE`, `**Status:** DONE`, `` `Status`: DONE `` or
//! `` `status`: `DONE` `` are not read as the field `` `Status`: `DONE` ``,
//! so `check` names them instead of ignoring them.

use crate::model::fields;
use crate::records::record;

/// One line that starts like the field `name` without being that field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldLike {
    /// 1-based line number in the text.
    pub line: usize,
    /// The field it looks like, as the format spells it.
    pub name: &'static str,
    /// The line as written, trimmed.
    pub written: String,
    /// The value after the colon, markup removed (empty when there is none).
    pub value: String,
}

impl FieldLike {
    /// The accepted form of this line: `` `Name`: `value` `` (a placeholder
    /// when nothing usable follows the colon).
    pub fn accepted(&self) -> String {
        let value = if self.value.is_empty() || self.value.contains('`') {
            "<value>"
        } else {
            &self.value
        };
        format!("`{}`: {}", self.name, fields::render_code_span(value))
    }
}

/// The lines of `text` that start like one of `names` (after a list marker
/// or a quote, in any letter case, wrapped in `**`, `__`, `*`, `_` or
/// backticks, with a colon after the name) but do not start with the field
/// pair of that exact name. Fenced code, HTML comments (the provenance
/// block among them) and table rows are not read.
pub fn field_like_lines(text: &str, names: &[&'static str]) -> Vec<FieldLike> {
    let masked = record::mask_comments(&record::mask_fences(text));
    let mut names = names.to_vec();
    names.sort_by_key(|n| std::cmp::Reverse(n.len()));
    let mut out = Vec::new();
    for (n, line) in masked.lines().enumerate() {
        let start = strip_markers(line.trim_start());
        if start.starts_with('|') {
            continue;
        }
        let Some((name, value)) = looks_like(start, &names) else {
            continue;
        };
        let accepted = fields::scan(start)
            .first()
            .is_some_and(|f| f.pair.start == 0 && f.name == name);
        if accepted {
            continue;
        }
        out.push(FieldLike {
            line: n + 1,
            name,
            written: line.trim().to_string(),
            value,
        });
    }
    out
}

/// The line after its block quote and list markers (`>`, `-`, `*`, `+`, `1.`, `1)`).
fn strip_markers(mut s: &str) -> &str {
    loop {
        let before = s;
        for m in ["> ", "- ", "* ", "+ "] {
            if let Some(r) = s.strip_prefix(m) {
                s = r.trim_start();
            }
        }
        let digits = s.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 {
            if let Some(r) = s[digits..]
                .strip_prefix(". ")
                .or_else(|| s[digits..].strip_prefix(") "))
            {
                s = r.trim_start();
            }
        }
        if s == before {
            return s;
        }
    }
}

const WRAPPERS: [&str; 5] = ["**", "__", "`", "*", "_"];

/// The field name `line` starts with, and the value after its colon.
fn looks_like(line: &str, names: &[&'static str]) -> Option<(&'static str, String)> {
    let mut s = line;
    for w in WRAPPERS {
        if let Some(r) = s.strip_prefix(w) {
            s = r;
            break;
        }
    }
    let name = names.iter().copied().find(|n| {
        s.get(..n.len()).is_some_and(|h| h.eq_ignore_ascii_case(n))
            && s[n.len()..]
                .chars()
                .next()
                .is_some_and(|c| !c.is_ascii_alphanumeric())
    })?;
    let mut rest = &s[name.len()..];
    for w in WRAPPERS {
        if let Some(r) = rest.strip_prefix(w) {
            rest = r;
            break;
        }
    }
    let rest = rest.trim_start().strip_prefix(':')?;
    let mut value = rest.trim();
    for w in WRAPPERS {
        value = value.strip_prefix(w).unwrap_or(value).trim();
    }
    for w in WRAPPERS {
        value = value.strip_suffix(w).unwrap_or(value).trim();
    }
    Some((name, value.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const NAMES: &[&str] = &["Status", "Depends On", "User Style", "User Style Locked"];

    fn found(text: &str) -> Vec<(usize, &'static str, String)> {
        field_like_lines(text, NAMES)
            .into_iter()
            .map(|f| (f.line, f.name, f.value))
            .collect()
    }

    #[test]
    fn the_accepted_form_is_not_reported() {
        let text = "# R\n\n`Status`: `DONE` `Depends On`: `NONE`\n- `User Style`: `NONE`\n`Cycle`: `x` `Status`: `OPEN`\n";
        assert_eq!(found(text), []);
    }

    #[test]
    fn prose_markup_and_case_are_reported_with_their_value() {
        let text = "Status: DONE\n- **Status:** RESOLVED\n`Status`: DONE\n`status`: `DONE`\n> * __Depends On__: DEV-001\n1. User Style Locked: `true`\n`Status` : `OPEN`\n";
        assert_eq!(
            found(text),
            [
                (1, "Status", "DONE".to_string()),
                (2, "Status", "RESOLVED".to_string()),
                (3, "Status", "DONE".to_string()),
                (4, "Status", "DONE".to_string()),
                (5, "Depends On", "DEV-001".to_string()),
                (6, "User Style Locked", "true".to_string()),
                (7, "Status", "OPEN".to_string()),
            ]
        );
        let f = &field_like_lines("**Status:** RESOLVED\n", NAMES)[0];
        assert_eq!(f.accepted(), "`Status`: `RESOLVED`");
        assert_eq!(f.written, "**Status:** RESOLVED");
        let f = &field_like_lines("Status:\n", NAMES)[0];
        assert_eq!(f.accepted(), "`Status`: `<value>`");
    }

    #[test]
    fn fences_comments_tables_and_other_words_are_not_read() {
        let text = "<!-- STANDARDS\nStatus: x\n-->\n```\nStatus: DONE\n```\n| Status: x |\nStatuses: many\nThe Status: is prose\nStatus of the work is good\n";
        assert_eq!(found(text), []);
    }
}
