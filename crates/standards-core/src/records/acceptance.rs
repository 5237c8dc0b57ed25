//! The scope's acceptance inventory (check-rules §1.9, RF §7.1).

use crate::model::vocab::IdPrefix;
use crate::records::record::{h2_name, mask_fences};

/// Where a definition stands in the scope.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Standing {
    Current,
    Retired,
    /// Under `## Previous Cycles` (history of earlier cycles).
    Previous,
}

/// Acceptance-condition definitions of a scope, by standing, in document order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Inventory {
    pub current: Vec<String>,
    pub retired: Vec<String>,
    pub previous: Vec<String>,
    /// IDs defined more than once within the same standing, with that standing.
    pub duplicates: Vec<(String, Standing)>,
}

impl Inventory {
    pub fn of(&self, standing: Standing) -> &[String] {
        match standing {
            Standing::Current => &self.current,
            Standing::Retired => &self.retired,
            Standing::Previous => &self.previous,
        }
    }

    /// Every ID in any list.
    pub fn known(&self) -> impl Iterator<Item = &String> {
        self.current
            .iter()
            .chain(&self.retired)
            .chain(&self.previous)
    }

    pub fn is_current(&self, id: &str) -> bool {
        self.current.iter().any(|c| c == id)
    }
}

/// Reads the inventory of a scope text.
pub fn inventory(text: &str) -> Inventory {
    let masked = mask_fences(text);
    let mut inv = Inventory::default();
    // Membership per standing, so duplicates are found in linear time.
    let mut listed: std::collections::HashSet<(String, Standing)> = Default::default();
    let mut duplicated: std::collections::HashSet<(String, Standing)> = Default::default();
    let mut standing = Standing::Current;
    for line in masked.lines() {
        if let Some(name) = h2_name(line) {
            if standing != Standing::Previous {
                standing = match name.as_str() {
                    "retired acceptance identifiers" => Standing::Retired,
                    "previous cycles" => Standing::Previous,
                    _ => Standing::Current,
                };
            }
            continue;
        }
        for id in defined_ids(line) {
            let list = match standing {
                Standing::Current => &mut inv.current,
                Standing::Retired => &mut inv.retired,
                Standing::Previous => &mut inv.previous,
            };
            if !listed.insert((id.clone(), standing)) {
                if duplicated.insert((id.clone(), standing)) {
                    inv.duplicates.push((id, standing));
                }
            } else {
                list.push(id);
            }
        }
    }
    inv
}

/// Bare AC mentions in the non-fenced text before the first `## Previous Cycles`.
pub fn scope_mentions(text: &str) -> Vec<String> {
    crate::records::record::bare_mentions(
        &mask_fences(&without_previous_cycles(text)),
        IdPrefix::Ac,
    )
}

/// The text before the first non-fenced `## Previous Cycles` heading (fenced text kept).
pub fn without_previous_cycles(text: &str) -> String {
    let masked = mask_fences(text);
    let mut end = text.len();
    let mut pos = 0;
    for line in masked.split_inclusive('\n') {
        if h2_name(line).as_deref() == Some("previous cycles") {
            end = pos;
            break;
        }
        pos += line.len();
    }
    text[..end].to_string()
}

/// The AC IDs a list-item line defines: marker, optional task box, a group of
/// IDs (each optionally wrapped in `*`, `_`, backticks; joined by `,`, `and`,
/// `&`), then `:`, an em or en dash, or `-` plus whitespace.
pub fn defined_ids(line: &str) -> Vec<String> {
    let s = line.trim_start();
    let rest = if let Some(r) = s.strip_prefix(['-', '*', '+']) {
        r
    } else {
        let digits = s.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            return Vec::new();
        }
        match s[digits..].strip_prefix(['.', ')']) {
            Some(r) => r,
            None => return Vec::new(),
        }
    };
    if !rest.starts_with(char::is_whitespace) {
        return Vec::new();
    }
    let mut rest = rest.trim_start();
    for box_ in ["[ ]", "[x]", "[X]"] {
        if let Some(r) = rest.strip_prefix(box_) {
            if r.starts_with(char::is_whitespace) {
                rest = r.trim_start();
            }
            break;
        }
    }
    let mut ids = Vec::new();
    loop {
        let wrapped = rest.trim_start_matches(['*', '_', '`']);
        let Some(after) = wrapped.strip_prefix("AC-") else {
            return Vec::new();
        };
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        if digits < 3 {
            return Vec::new();
        }
        ids.push(format!("AC-{}", &after[..digits]));
        rest = after[digits..].trim_start_matches(['*', '_', '`']);
        let trimmed = rest.trim_start();
        if let Some(r) = trimmed
            .strip_prefix(',')
            .or_else(|| trimmed.strip_prefix('&'))
        {
            rest = r.trim_start();
            continue;
        }
        // "optional whitespace plus `,`, `and` or `&`" (check-rules §1.9): no
        // space is needed after the separator, `and` included.
        if let Some(r) = trimmed.strip_prefix("and") {
            rest = r.trim_start();
            continue;
        }
        let ends = trimmed.starts_with(':')
            || trimmed.starts_with('\u{2014}')
            || trimmed.starts_with('\u{2013}')
            || (trimmed.starts_with('-') && trimmed[1..].starts_with(char::is_whitespace));
        return if ends { ids } else { Vec::new() };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn definition_forms() {
        assert_eq!(defined_ids("- `AC-001`: Users can search."), ["AC-001"]);
        assert_eq!(defined_ids("1. AC-002 — text"), ["AC-002"]);
        assert_eq!(defined_ids("- [ ] **AC-003**: text"), ["AC-003"]);
        assert_eq!(
            defined_ids("- `AC-003`, `AC-004`: shared"),
            ["AC-003", "AC-004"]
        );
        assert_eq!(
            defined_ids("* AC-005 and AC-006 - text"),
            ["AC-005", "AC-006"]
        );
        assert_eq!(
            defined_ids("+ AC-007 & _AC-008_ – text"),
            ["AC-007", "AC-008"]
        );
        assert!(defined_ids("| AC-001 | row |").is_empty());
        assert!(defined_ids("AC-001: prose").is_empty());
        assert!(defined_ids("- AC-001 is mentioned").is_empty());
        assert!(defined_ids("-AC-001: no space").is_empty());
    }

    #[test]
    fn inventory_by_section() {
        let text = "# S\n## Work\n- `AC-001`: a\n- `AC-002`: b\n- `AC-001`: again\n```\n- `AC-009`: example\n```\n## Retired Acceptance Identifiers\n- `AC-003`: gone\n## Previous Cycles\n- `AC-010`: old\n## Work\n- `AC-011`: still history\n";
        let inv = inventory(text);
        assert_eq!(inv.current, ["AC-001", "AC-002"]);
        assert_eq!(inv.retired, ["AC-003"]);
        assert_eq!(inv.previous, ["AC-010", "AC-011"]);
        assert_eq!(inv.duplicates, [("AC-001".to_string(), Standing::Current)]);
        assert_eq!(scope_mentions(text), ["AC-001", "AC-002", "AC-003"]);
    }
}
