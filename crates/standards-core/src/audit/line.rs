//! Reading event lines back, and the `cat_sort_uniq` merge of note texts.

use std::fmt;

use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, Visitor};
use serde_json::Value;

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
    /// The event-specific keys (every key but the common ones), in the
    /// order they first appear; a repeated key keeps its last value, as a
    /// JSON object would.
    pub details: Vec<(String, Value)>,
}

/// The keys a line is read by. `tool` and `argv` are read past without being
/// kept: `log` never shows them, and the stored line keeps them anyway.
enum Key {
    /// A common key `log` uses: its slot in [`SLOT_KEYS`].
    Kept(usize),
    Skipped,
    Detail(String),
}

/// Reads a key; `details: false` reads event-specific keys past too.
struct KeySeed {
    details: bool,
}

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = Key;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Key, D::Error> {
        d.deserialize_str(self)
    }
}

impl Visitor<'_> for KeySeed {
    type Value = Key;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a key")
    }
    fn visit_str<E: de::Error>(self, key: &str) -> Result<Key, E> {
        Ok(match SLOT_KEYS.iter().position(|k| *k == key) {
            Some(i) => Key::Kept(i),
            None if super::COMMON_KEYS.contains(&key) || !self.details => Key::Skipped,
            None => Key::Detail(key.to_string()),
        })
    }
}

/// The top-level object, read key by key: the common keys into their own
/// slots (last one wins, as in a JSON object), the rest into `details`.
#[derive(Default)]
struct Slots {
    common: [Option<Value>; 7],
    details: Vec<(String, Value)>,
}

/// The common keys `log` reads; the other common keys (`tool`, `argv`) are
/// skipped.
const SLOT_KEYS: [&str; 7] = ["ts", "id", "event", "actor", "cycle", "state", "commit"];

impl Slots {
    fn get(&self, key: &str) -> Option<&Value> {
        let i = SLOT_KEYS.iter().position(|k| *k == key)?;
        self.common[i].as_ref()
    }
}

struct SlotsVisitor {
    details: bool,
}

impl<'de> Visitor<'de> for SlotsVisitor {
    type Value = Slots;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Slots, A::Error> {
        let mut slots = Slots::default();
        while let Some(key) = map.next_key_seed(KeySeed {
            details: self.details,
        })? {
            match key {
                Key::Skipped => {
                    map.next_value::<IgnoredAny>()?;
                }
                Key::Kept(i) => slots.common[i] = Some(map.next_value()?),
                Key::Detail(k) => {
                    let value: Value = map.next_value()?;
                    match slots.details.iter_mut().find(|(d, _)| *d == k) {
                        Some(slot) => slot.1 = value,
                        None => slots.details.push((k, value)),
                    }
                }
            }
        }
        Ok(slots)
    }
}

/// Parses one stored line; the error says what is wrong with it. Only the
/// values `log` uses are built (a trail of ten thousand events is read in
/// one go): the common keys, and each event-specific key.
pub fn parse_line(line: &str) -> Result<Recorded, String> {
    parse(line, true)
}

/// [`parse_line`] without the event-specific keys (`details` stays empty):
/// the same lines are valid and the same errors found, for a reader that
/// never shows them (`log --json` prints the stored line).
pub fn parse_line_without_details(line: &str) -> Result<Recorded, String> {
    parse(line, false)
}

/// [`parse_line`] of a line's stored bytes (a note may hold any bytes).
pub fn parse_bytes(raw: &[u8]) -> Result<Recorded, String> {
    std::str::from_utf8(raw)
        .map_err(|_| "not UTF-8".to_string())
        .and_then(parse_line)
}

/// [`parse_line_without_details`] of a line's stored bytes.
pub fn parse_bytes_without_details(raw: &[u8]) -> Result<Recorded, String> {
    std::str::from_utf8(raw)
        .map_err(|_| "not UTF-8".to_string())
        .and_then(parse_line_without_details)
}

fn parse(line: &str, details: bool) -> Result<Recorded, String> {
    let slots = if line.trim_start().starts_with('{') {
        let mut de = serde_json::Deserializer::from_str(line);
        de::Deserializer::deserialize_map(&mut de, SlotsVisitor { details })
            .and_then(|slots| de.end().map(|()| slots))
            .map_err(|e| format!("not valid JSON ({e})"))?
    } else {
        let value: Value =
            serde_json::from_str(line).map_err(|e| format!("not valid JSON ({e})"))?;
        debug_assert!(!value.is_object());
        return Err("not a JSON object".into());
    };
    let text = |key: &str| -> Result<String, String> {
        match slots.get(key) {
            Some(Value::String(s)) => Ok(s.clone()),
            Some(_) => Err(format!("`{key}` is not a string")),
            None => Err(format!("`{key}` is missing")),
        }
    };
    let optional = |key: &str| -> Result<Option<String>, String> {
        match slots.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(format!("`{key}` is not a string")),
        }
    };
    let ts = text("ts")?;
    let time = chrono::DateTime::parse_from_rfc3339(&ts)
        .map_err(|e| format!("`ts` is not an RFC 3339 time ({e})"))?
        .with_timezone(&chrono::Utc);
    let state = match slots.get("state") {
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
        details: slots.details,
        ts,
    })
}

impl Recorded {
    /// The value of an event-specific key.
    pub fn detail(&self, key: &str) -> Option<&Value> {
        self.details.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// The event-specific keys as `key=value`, joined for one readable line.
    pub fn summary(&self) -> String {
        let mut out = String::new();
        if let Some(s) = &self.state {
            out.push_str(&s.before);
            out.push_str(" -> ");
            out.push_str(&s.after);
        }
        for (key, value) in &self.details {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(key);
            out.push('=');
            match value {
                Value::String(s) => out.push_str(s),
                Value::Array(items) => {
                    for (i, v) in items.iter().take(3).enumerate() {
                        if i > 0 {
                            out.push(',');
                        }
                        match v {
                            Value::String(s) => out.push_str(s),
                            other => out.push_str(&other.to_string()),
                        }
                    }
                    if items.len() > 3 {
                        let _ = fmt::Write::write_fmt(
                            &mut out,
                            format_args!(",(+{} more)", items.len() - 3),
                        );
                    }
                }
                other => out.push_str(&other.to_string()),
            }
        }
        one_line(&out).into_owned()
    }
}

/// Control characters shown as escapes, so one event stays one line (and a
/// stored line cannot send terminal escape sequences).
pub fn one_line(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.chars().any(char::is_control) {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
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
            prop_assert_eq!(r.detail(&key), Some(&Value::from(value)));
        }
    }

    /// The plain reading of a line, through a whole `Value`: what the
    /// key-by-key reader must agree with.
    fn plain(line: &str) -> Result<(Vec<String>, String), String> {
        let value: Value =
            serde_json::from_str(line).map_err(|e| format!("not valid JSON ({e})"))?;
        let Value::Object(fields) = value else {
            return Err("not a JSON object".into());
        };
        let details = fields
            .iter()
            .filter(|(k, _)| !crate::audit::COMMON_KEYS.contains(&k.as_str()))
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        let id = match fields.get("id") {
            Some(Value::String(s)) => s.clone(),
            _ => String::new(),
        };
        Ok((details, id))
    }

    fn json_text() -> impl Strategy<Value = String> {
        let key = prop_oneof![
            Just("ts".to_string()),
            Just("id".to_string()),
            Just("event".to_string()),
            Just("tool".to_string()),
            Just("argv".to_string()),
            Just("state".to_string()),
            "[a-c]{1,2}",
        ];
        let value = prop_oneof![
            Just("\"2026-12-01T09:04:53Z\"".to_string()),
            Just("\"x\\ny\"".to_string()),
            Just("null".to_string()),
            Just("[1,\"a\",[2]]".to_string()),
            Just("{\"before\":\"A\",\"after\":\"B\"}".to_string()),
            Just("7".to_string()),
            Just("{".to_string()),
        ];
        proptest::collection::vec((key, value), 0..8).prop_map(|pairs| {
            let body: Vec<String> = pairs.iter().map(|(k, v)| format!("\"{k}\":{v}")).collect();
            format!("{{{}}}", body.join(","))
        })
    }

    proptest! {
        /// Reading key by key agrees with reading the whole object: the same
        /// lines are valid JSON objects, and the same event-specific keys
        /// come out, in the same order with the same (last) values.
        #[test]
        fn key_by_key_reading_agrees_with_the_whole_object(line in json_text()) {
            match (parse_line(&line), plain(&line)) {
                (Ok(r), Ok((details, id))) => {
                    let ours: Vec<String> =
                        r.details.iter().map(|(k, v)| format!("{k}={v}")).collect();
                    prop_assert_eq!(ours, details);
                    prop_assert_eq!(r.id, id);
                }
                (Err(e), Err(p)) => {
                    prop_assert_eq!(e.starts_with("not valid JSON"), p.starts_with("not valid JSON"));
                }
                (Err(e), Ok(_)) => prop_assert!(!e.starts_with("not valid JSON") && e != "not a JSON object", "{}", e),
                (Ok(_), Err(p)) => prop_assert!(false, "accepted a line the plain reading refuses: {}", p),
            }
        }
    }

    proptest! {
        /// Reading without the event-specific keys accepts and refuses the
        /// same lines, with the same errors, and keeps every other value.
        #[test]
        fn reading_without_details_agrees(line in json_text()) {
            match (parse_line(&line), parse_line_without_details(&line)) {
                (Ok(full), Ok(lite)) => {
                    prop_assert!(lite.details.is_empty());
                    prop_assert_eq!(Recorded { details: Vec::new(), ..full }, lite);
                }
                (Err(a), Err(b)) => prop_assert_eq!(a, b),
                (a, b) => prop_assert!(false, "{:?} / {:?}", a, b),
            }
        }
    }

    #[test]
    fn the_slots_are_common_keys_and_only_tool_and_argv_are_skipped() {
        let skipped: Vec<&str> = crate::audit::COMMON_KEYS
            .iter()
            .copied()
            .filter(|k| !SLOT_KEYS.contains(k))
            .collect();
        assert_eq!(skipped, ["tool", "argv"]);
        assert!(SLOT_KEYS
            .iter()
            .all(|k| crate::audit::COMMON_KEYS.contains(k)));
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
