//! Reading event lines back, and the `cat_sort_uniq` merge of note texts.

use serde_json::{Map, Value};

use super::StateChange;

/// One event line as read from the trail. Unknown event types (from a newer
/// tool) are kept: `event` is the name as written.
#[derive(Debug, Clone, PartialEq)]
pub struct Recorded {
    /// The line exactly as stored (canonical JSON).
    pub line: String,
    pub ts: String,
    pub time: chrono::DateTime<chrono::Utc>,
    pub id: String,
    pub event: String,
    pub actor: String,
    pub cycle: Option<String>,
    pub state: Option<StateChange>,
    pub commit: Option<String>,
    /// The whole object, common keys included.
    pub fields: Map<String, Value>,
}

/// Parses one stored line; the error says what is wrong with it.
pub fn parse_line(line: &str) -> Result<Recorded, String> {
    let value: Value = serde_json::from_str(line).map_err(|e| format!("not valid JSON ({e})"))?;
    let Value::Object(fields) = value else {
        return Err("not a JSON object".into());
    };
    let text = |key: &str| -> Result<String, String> {
        match fields.get(key) {
            Some(Value::String(s)) => Ok(s.clone()),
            Some(_) => Err(format!("`{key}` is not a string")),
            None => Err(format!("`{key}` is missing")),
        }
    };
    let optional = |key: &str| -> Result<Option<String>, String> {
        match fields.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(format!("`{key}` is not a string")),
        }
    };
    let ts = text("ts")?;
    let time = chrono::DateTime::parse_from_rfc3339(&ts)
        .map_err(|e| format!("`ts` is not an RFC 3339 time ({e})"))?
        .with_timezone(&chrono::Utc);
    let state = match fields.get("state") {
        None | Some(Value::Null) => None,
        Some(Value::Object(s)) => match (s.get("before"), s.get("after")) {
            (Some(Value::String(b)), Some(Value::String(a))) => Some(StateChange {
                before: b.clone(),
                after: a.clone(),
            }),
            _ => return Err("`state` needs string `before` and `after`".into()),
        },
        Some(_) => return Err("`state` is not an object".into()),
    };
    let id = text("id")?;
    let event = text("event")?;
    let actor = optional("actor")?.unwrap_or_else(|| "unknown".into());
    let cycle = optional("cycle")?;
    let commit = optional("commit")?;
    Ok(Recorded {
        line: line.to_string(),
        time,
        id,
        event,
        actor,
        cycle,
        commit,
        state,
        fields,
        ts,
    })
}

impl Recorded {
    /// The event-specific keys as `key=value`, joined for one readable line.
    pub fn summary(&self) -> String {
        let mut parts = Vec::new();
        if let Some(s) = &self.state {
            parts.push(format!("{} -> {}", s.before, s.after));
        }
        for (key, value) in &self.fields {
            if super::COMMON_KEYS.contains(&key.as_str()) {
                continue;
            }
            let shown = match value {
                Value::String(s) => s.clone(),
                Value::Array(items) => {
                    let mut shown: Vec<String> = items
                        .iter()
                        .take(3)
                        .map(|v| match v {
                            Value::String(s) => s.clone(),
                            other => other.to_string(),
                        })
                        .collect();
                    if items.len() > 3 {
                        shown.push(format!("(+{} more)", items.len() - 3));
                    }
                    shown.join(",")
                }
                other => other.to_string(),
            };
            parts.push(format!("{key}={shown}"));
        }
        one_line(&parts.join(" "))
    }
}

/// Control characters shown as escapes, so one event stays one line (and a
/// stored line cannot send terminal escape sequences).
pub fn one_line(s: &str) -> String {
    s.chars()
        .flat_map(|c| {
            if c.is_control() {
                c.escape_default().collect::<Vec<_>>()
            } else {
                vec![c]
            }
        })
        .collect()
}

/// git's `cat_sort_uniq` notes merge: both texts' lines, empty lines dropped,
/// sorted bytewise, duplicates removed, each ending in `\n`.
pub fn merge_note_text(a: &[u8], b: &[u8]) -> Vec<u8> {
    let mut lines: Vec<&[u8]> = a
        .split(|c| *c == b'\n')
        .chain(b.split(|c| *c == b'\n'))
        .filter(|l| !l.is_empty())
        .collect();
    lines.sort_unstable();
    lines.dedup();
    let mut out = Vec::with_capacity(a.len() + b.len());
    for line in lines {
        out.extend_from_slice(line);
        out.push(b'\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn lines() -> impl Strategy<Value = Vec<u8>> {
        proptest::collection::vec("[a-c\\n]{0,4}", 0..6).prop_map(|v| v.join("\n").into_bytes())
    }

    proptest! {
        /// `cat_sort_uniq` is a valid merge: order and repetition of merges do not matter.
        #[test]
        fn merge_is_commutative_associative_and_idempotent(a in lines(), b in lines(), c in lines()) {
            prop_assert_eq!(merge_note_text(&a, &b), merge_note_text(&b, &a));
            prop_assert_eq!(
                merge_note_text(&merge_note_text(&a, &b), &c),
                merge_note_text(&a, &merge_note_text(&b, &c))
            );
            let ab = merge_note_text(&a, &b);
            prop_assert_eq!(merge_note_text(&ab, &ab), ab.clone());
            prop_assert_eq!(merge_note_text(&ab, b""), ab);
        }

        /// Any values give one line that reads back to the same event.
        #[test]
        fn any_event_is_one_line_that_parses_back(
            cycle in "\\PC{0,12}|[\\n\\r\\t\"\\\\]{1,3}",
            key in "[a-z_]{1,8}",
            value in any::<String>(),
        ) {
            prop_assume!(!crate::audit::COMMON_KEYS.contains(&key.as_str()));
            let stamp = crate::audit::Stamp {
                ts: "2026-12-01T09:04:53.123456Z".into(),
                id: "0123456789abcdef".into(),
                actor: "unknown".into(),
                tool: "t".into(),
                commit: None,
                argv: vec![value.clone()],
            };
            let line = crate::audit::Event::new(crate::audit::EventKind::Reset)
                .cycle(cycle.as_str())
                .detail(key.as_str(), value.as_str())
                .to_line(&stamp);
            prop_assert!(!line.contains('\n') && !line.contains('\r'));
            let r = parse_line(&line).unwrap();
            prop_assert_eq!(r.cycle.as_deref(), Some(cycle.as_str()));
            prop_assert_eq!(r.fields.get(&key), Some(&Value::from(value)));
        }
    }

    #[test]
    fn merge_is_sorted_unique_and_newline_terminated() {
        assert_eq!(merge_note_text(b"b\na\n", b"c\na"), b"a\nb\nc\n".to_vec());
        assert_eq!(merge_note_text(b"", b""), Vec::<u8>::new());
        assert_eq!(merge_note_text(b"\n\nx", b""), b"x\n".to_vec());
    }

    #[test]
    fn parses_and_reports_bad_lines() {
        let r = parse_line(r#"{"ts":"2026-12-01T09:04:53.123456Z","id":"1","event":"reset","actor":"A","commit":null,"archive":"refs/standards/archive/x"}"#).unwrap();
        assert_eq!(r.event, "reset");
        assert_eq!(r.commit, None);
        assert_eq!(r.summary(), "archive=refs/standards/archive/x");
        let r = parse_line(r#"{"ts":"2026-12-01T09:04:53.123456Z","id":"1","event":"installed","created":["a","b","c","d","e"],"config":[],"n":2}"#).unwrap();
        assert_eq!(r.summary(), "created=a,b,c,(+2 more) config= n=2");
        assert!(parse_line("{oops")
            .unwrap_err()
            .starts_with("not valid JSON"));
        assert_eq!(parse_line("[1]").unwrap_err(), "not a JSON object");
        assert_eq!(
            parse_line(r#"{"ts":"x","id":"1","event":"reset"}"#)
                .unwrap_err()
                .split(' ')
                .take(5)
                .collect::<Vec<_>>()
                .join(" "),
            "`ts` is not an RFC"
        );
    }
}
