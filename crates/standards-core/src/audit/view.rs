//! A borrowed reading of an event line, for `log`: the values `log` shows,
//! as slices of the stored line, found by one pass over its bytes with no
//! allocation.
//!
//! The fast reading accepts only the compact form the tool writes (no
//! whitespace between tokens, no repeated key, strings, integers, `true`,
//! `false`, `null`, arrays of those, and `state` as an object of two
//! strings). Anything else (another form, a float, a nested value, a lone
//! surrogate escape, an invalid line) is left to [`super::parse_line`]:
//! [`EventView::fast`] returns `None` and the caller reads the line the slow
//! way, whose [`Recorded`] then gives the same view with
//! [`EventView::of`]. Both readings of a line agree (a property test below
//! checks it), so the output does not depend on which one read a line.

use std::borrow::Cow;

use chrono::{DateTime, Utc};
use serde_json::Value;

use super::Recorded;

/// An instant as (seconds since the Unix epoch, nanoseconds), ordered as
/// `chrono` orders `DateTime<Utc>` (a leap second's nanoseconds exceed
/// 999,999,999).
pub type Instant = (i64, u32);

/// The instant of a time.
pub fn instant(t: &DateTime<Utc>) -> Instant {
    (t.timestamp(), t.timestamp_subsec_nanos())
}

/// The instant of a `ts` in the tool's form, `YYYY-MM-DDTHH:MM:SS[.f]Z`
/// (one to nine fraction digits, seconds below 60), read without `chrono`;
/// `None` for any other form (read it with `chrono`).
pub fn fast_instant(ts: &[u8]) -> Option<Instant> {
    fn num(b: &[u8]) -> Option<u32> {
        let mut n = 0u32;
        for &c in b {
            if !c.is_ascii_digit() {
                return None;
            }
            n = n * 10 + u32::from(c - b'0');
        }
        Some(n)
    }
    if ts.len() < 20
        || ts[4] != b'-'
        || ts[7] != b'-'
        || ts[10] != b'T'
        || ts[13] != b':'
        || ts[16] != b':'
    {
        return None;
    }
    let year = num(&ts[0..4])? as i64;
    let month = num(&ts[5..7])?;
    let day = num(&ts[8..10])?;
    let (hour, minute, second) = (num(&ts[11..13])?, num(&ts[14..16])?, num(&ts[17..19])?);
    let nanos = match &ts[19..] {
        b"Z" => 0,
        [b'.', frac @ .., b'Z'] if (1..=9).contains(&frac.len()) => {
            num(frac)? * 10u32.pow(9 - frac.len() as u32)
        }
        _ => return None,
    };
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days_in_month = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return None,
    };
    if day == 0 || day > days_in_month || hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    // Days from the civil date (Howard Hinnant's algorithm).
    let (y, m) = if month <= 2 {
        (year - 1, month + 9)
    } else {
        (year, month - 3)
    };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * i64::from(m) + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    let secs = days * 86_400 + i64::from(hour) * 3600 + i64::from(minute) * 60 + i64::from(second);
    Some((secs, nanos))
}

/// A value as `log` shows it in a summary.
#[derive(Debug, Clone, PartialEq)]
pub enum Val<'a> {
    /// A JSON string: its text between the quotes, escapes still in it when
    /// `escaped`.
    Str { raw: &'a str, escaped: bool },
    /// An integer, `true`, `false`, `null` or an object: shown as written.
    Scalar(&'a str),
    /// An array: its text between the brackets.
    Array(&'a str),
    /// A value read by the full parser.
    Json(&'a Value),
}

/// The text of a string value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Text<'a> {
    raw: &'a str,
    escaped: bool,
}

impl<'a> Text<'a> {
    fn plain(raw: &'a str) -> Text<'a> {
        Text {
            raw,
            escaped: false,
        }
    }

    /// The value as stored, and whether it holds an escape: what
    /// [`Text::get`] is a function of (a key for a reader that memoises it).
    pub fn stored(&self) -> (&'a str, bool) {
        (self.raw, self.escaped)
    }

    /// The string, unescaped (borrowed when it holds no escape).
    pub fn get(&self) -> Cow<'a, str> {
        if self.escaped {
            let mut out = String::with_capacity(self.raw.len());
            unescape(self.raw, &mut out);
            Cow::Owned(out)
        } else {
            Cow::Borrowed(self.raw)
        }
    }

    /// Appends the string, unescaped.
    pub fn push_to(&self, out: &mut String) {
        if self.escaped {
            unescape(self.raw, out);
        } else {
            out.push_str(self.raw);
        }
    }

    /// Whether the string equals `other`.
    pub fn is(&self, other: &str) -> bool {
        if self.escaped {
            self.get() == other
        } else {
            self.raw == other
        }
    }
}

/// One event line, read for `log`.
#[derive(Debug, Clone, PartialEq)]
pub struct EventView<'a> {
    /// The stored line.
    pub line: &'a str,
    pub ts: Text<'a>,
    pub instant: Instant,
    /// The time when the line was read by `chrono` (another form of `ts`).
    time: Option<DateTime<Utc>>,
    pub id: Text<'a>,
    pub event: Text<'a>,
    /// `None`: absent or null (shown as `unknown`).
    pub actor: Option<Text<'a>>,
    pub cycle: Option<Text<'a>>,
    pub state: Option<(Text<'a>, Text<'a>)>,
    /// The event-specific keys in order (empty when read without them).
    pub details: Vec<(Text<'a>, Val<'a>)>,
}

/// The keys a line holds that [`EventView`] keeps.
#[derive(Clone, Copy, PartialEq)]
enum Common {
    Ts,
    Id,
    Event,
    Actor,
    Cycle,
    State,
    Commit,
    Tool,
    Argv,
}

fn common(key: &str) -> Option<Common> {
    Some(match key {
        "ts" => Common::Ts,
        "id" => Common::Id,
        "event" => Common::Event,
        "actor" => Common::Actor,
        "cycle" => Common::Cycle,
        "state" => Common::State,
        "commit" => Common::Commit,
        "tool" => Common::Tool,
        "argv" => Common::Argv,
        _ => return None,
    })
}

/// A scanner over a line's bytes; every method returns `None` for anything
/// the fast reading leaves to the full parser.
struct Scan<'a> {
    s: &'a str,
    at: usize,
}

impl<'a> Scan<'a> {
    fn peek(&self) -> Option<u8> {
        self.s.as_bytes().get(self.at).copied()
    }

    fn eat(&mut self, b: u8) -> Option<()> {
        (self.peek()? == b).then(|| self.at += 1)
    }

    /// A string: `(text between the quotes, holds escapes)`.
    fn string(&mut self) -> Option<Text<'a>> {
        self.eat(b'"')?;
        let bytes = self.s.as_bytes();
        let start = self.at;
        let mut escaped = false;
        let mut i = start;
        loop {
            // Eight plain bytes at a time (no quote, backslash or control).
            while let Some(word) = bytes.get(i..i + 8) {
                let word = u64::from_le_bytes(word.try_into().expect("eight bytes"));
                if special(word) {
                    break;
                }
                i += 8;
            }
            let b = *bytes.get(i)?;
            match b {
                b'"' => break,
                b'\\' => {
                    escaped = true;
                    match *bytes.get(i + 1)? {
                        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => i += 2,
                        b'u' => {
                            let hex = bytes.get(i + 2..i + 6)?;
                            let code =
                                u32::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok()?;
                            // Surrogates (pairs or lone) are left to serde_json.
                            if !hex.iter().all(u8::is_ascii_hexdigit)
                                || (0xD800..=0xDFFF).contains(&code)
                            {
                                return None;
                            }
                            i += 6;
                        }
                        _ => return None,
                    }
                }
                0..=0x1f => return None,
                _ => i += 1,
            }
        }
        self.at = i + 1;
        Some(Text {
            raw: &self.s[start..i],
            escaped,
        })
    }

    /// An integer (no fraction, exponent or `-0`), `true`, `false` or `null`.
    fn scalar(&mut self) -> Option<&'a str> {
        let bytes = self.s.as_bytes();
        let start = self.at;
        for word in [&b"true"[..], b"false", b"null"] {
            if bytes[start..].starts_with(word) {
                self.at += word.len();
                return Some(&self.s[start..self.at]);
            }
        }
        let mut i = start;
        if bytes.get(i) == Some(&b'-') {
            i += 1;
        }
        let digits = i;
        while bytes.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        let n = i - digits;
        // No leading zero, no `-0`, at most 18 digits (shown as written).
        if n == 0 || n > 18 || (bytes[digits] == b'0' && (n > 1 || digits > start)) {
            return None;
        }
        if matches!(bytes.get(i), Some(b'.' | b'e' | b'E')) {
            return None;
        }
        self.at = i;
        Some(&self.s[start..i])
    }

    /// Skips one value of any kind. Inside an object or a nested array the
    /// value is shown as written (`serde_json`'s compact form), so there its
    /// strings must be escaped as `serde_json` escapes them and its objects
    /// must not repeat a key.
    fn skip(&mut self, depth: u32) -> Option<()> {
        if depth > 64 {
            return None;
        }
        match self.peek()? {
            b'"' => {
                let t = self.string()?;
                if t.escaped && !canonical_escapes(t.raw) {
                    return None;
                }
            }
            b'[' => {
                self.at += 1;
                if self.eat(b']').is_none() {
                    loop {
                        self.skip(depth + 1)?;
                        if self.eat(b',').is_some() {
                            continue;
                        }
                        self.eat(b']')?;
                        break;
                    }
                }
            }
            b'{' => {
                self.at += 1;
                let mut keys: [&str; 16] = [""; 16];
                let mut n = 0;
                if self.eat(b'}').is_none() {
                    loop {
                        let key = self.string()?;
                        if (key.escaped && !canonical_escapes(key.raw))
                            || n == keys.len()
                            || keys[..n].contains(&key.raw)
                        {
                            return None;
                        }
                        keys[n] = key.raw;
                        n += 1;
                        self.eat(b':')?;
                        self.skip(depth + 1)?;
                        if self.eat(b',').is_some() {
                            continue;
                        }
                        self.eat(b'}')?;
                        break;
                    }
                }
            }
            _ => {
                self.scalar()?;
            }
        }
        Some(())
    }

    /// An array's next item: a string (shown unescaped) or any other value
    /// (shown as written).
    fn item(&mut self) -> Option<Text<'a>> {
        if self.peek()? == b'"' {
            self.string()
        } else {
            let start = self.at;
            self.skip(1)?;
            Some(Text::plain(&self.s[start..self.at]))
        }
    }

    /// A value the fast reading takes.
    fn value(&mut self) -> Option<Val<'a>> {
        match self.peek()? {
            b'"' => {
                let t = self.string()?;
                Some(Val::Str {
                    raw: t.raw,
                    escaped: t.escaped,
                })
            }
            b'[' => {
                self.at += 1;
                let start = self.at;
                if self.eat(b']').is_none() {
                    loop {
                        self.item()?;
                        if self.eat(b',').is_some() {
                            continue;
                        }
                        self.eat(b']')?;
                        break;
                    }
                }
                Some(Val::Array(&self.s[start..self.at - 1]))
            }
            b'{' => {
                let start = self.at;
                self.skip(0)?;
                Some(Val::Scalar(&self.s[start..self.at]))
            }
            _ => self.scalar().map(Val::Scalar),
        }
    }
}

/// Whether any byte of `word` is a quote, a backslash or a control
/// character (below 0x20): the bytes a string's scan stops at.
fn special(word: u64) -> bool {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    let zero = |v: u64| v.wrapping_sub(LO) & !v & HI;
    let quote = zero(word ^ (LO * u64::from(b'"')));
    let backslash = zero(word ^ (LO * u64::from(b'\\')));
    let control = word.wrapping_sub(LO * 0x20) & !word & HI;
    quote | backslash | control != 0
}

/// Whether the escapes in a string's text are the ones `serde_json` writes:
/// `\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t`, and `\u00xx` (lower-case
/// hex) for the other control characters.
fn canonical_escapes(raw: &str) -> bool {
    let b = raw.as_bytes();
    let mut i = 0;
    while let Some(at) = memchr_backslash(&b[i..]) {
        let j = i + at;
        match b.get(j + 1) {
            Some(b'"' | b'\\' | b'b' | b'f' | b'n' | b'r' | b't') => i = j + 2,
            Some(b'u') => {
                let Some(hex) = b.get(j + 2..j + 6) else {
                    return false;
                };
                let lower = |c: &u8| c.is_ascii_digit() || (b'a'..=b'f').contains(c);
                if !(hex[0] == b'0' && hex[1] == b'0' && hex[2..].iter().all(lower)) {
                    return false;
                }
                let code = u8::from_str_radix(std::str::from_utf8(&hex[2..]).unwrap_or("zz"), 16)
                    .unwrap_or(0xff);
                if code >= 0x20 || matches!(code, 8 | 9 | 10 | 12 | 13) {
                    return false;
                }
                i = j + 6;
            }
            _ => return false,
        }
    }
    true
}

fn memchr_backslash(b: &[u8]) -> Option<usize> {
    b.iter().position(|c| *c == b'\\')
}

impl<'a> EventView<'a> {
    /// The fast reading of `line` (see the module's documentation); `None`
    /// leaves the line to the full parser. `details: false` reads the
    /// event-specific keys past without keeping them.
    pub fn fast(line: &'a str, details: bool) -> Option<EventView<'a>> {
        let mut scan = Scan { s: line, at: 0 };
        scan.eat(b'{')?;
        let mut ts = None;
        let mut id = None;
        let mut event = None;
        let mut actor = None;
        let mut cycle = None;
        let mut state = None;
        // Which common keys were seen, to leave a repeated one to serde.
        let mut seen = 0u16;
        let mut kept: Vec<(Text<'a>, Val<'a>)> = Vec::new();
        if scan.eat(b'}').is_none() {
            loop {
                let key = scan.string()?;
                scan.eat(b':')?;
                let slot = if key.escaped { None } else { common(key.raw) };
                match slot {
                    Some(c) => {
                        let bit = 1u16 << (c as u16);
                        if seen & bit != 0 {
                            return None;
                        }
                        seen |= bit;
                        match c {
                            Common::State => {
                                if scan.eat(b'n').is_some() {
                                    scan.at -= 1;
                                    if scan.scalar()? != "null" {
                                        return None;
                                    }
                                } else {
                                    state = Some(Self::state(&mut scan)?);
                                }
                            }
                            _ => {
                                let v = scan.value()?;
                                let text = match v {
                                    Val::Str { raw, escaped } => Some(Text { raw, escaped }),
                                    Val::Scalar("null") => None,
                                    // Not a string: the full parser words the error.
                                    _ if matches!(c, Common::Tool | Common::Argv) => None,
                                    _ => return None,
                                };
                                match c {
                                    Common::Ts => ts = Some(text?),
                                    Common::Id => id = Some(text?),
                                    Common::Event => event = Some(text?),
                                    Common::Actor => actor = text,
                                    Common::Cycle => cycle = text,
                                    _ => {}
                                }
                            }
                        }
                    }
                    None => {
                        let v = scan.value()?;
                        if details {
                            // A repeated key (even spelt with escapes) is left to serde.
                            if key.escaped || kept.iter().any(|(k, _)| k.raw == key.raw) {
                                return None;
                            }
                            kept.push((key, v));
                        }
                    }
                }
                if scan.eat(b',').is_some() {
                    continue;
                }
                scan.eat(b'}')?;
                break;
            }
        }
        if scan.at != line.len() {
            return None;
        }
        let ts = ts?;
        if ts.escaped {
            return None;
        }
        let instant = fast_instant(ts.raw.as_bytes())?;
        Some(EventView {
            line,
            ts,
            instant,
            time: None,
            id: id?,
            event: event?,
            actor,
            cycle,
            state,
            details: kept,
        })
    }

    /// `{"before":"...","after":"..."}`, in either order, nothing else.
    fn state(scan: &mut Scan<'a>) -> Option<(Text<'a>, Text<'a>)> {
        scan.eat(b'{')?;
        let (mut before, mut after) = (None, None);
        for _ in 0..2 {
            let key = scan.string()?;
            scan.eat(b':')?;
            let value = scan.string()?;
            let slot = match (key.escaped, key.raw) {
                (false, "before") => &mut before,
                (false, "after") => &mut after,
                _ => return None,
            };
            if slot.replace(value).is_some() {
                return None;
            }
            if scan.eat(b',').is_none() {
                break;
            }
        }
        scan.eat(b'}')?;
        Some((before?, after?))
    }

    /// The view of an event the full parser read.
    pub fn of(e: &'a Recorded) -> EventView<'a> {
        EventView {
            line: &e.line,
            ts: Text::plain(&e.ts),
            instant: instant(&e.time),
            time: Some(e.time),
            id: Text::plain(&e.id),
            event: Text::plain(&e.event),
            actor: Some(Text::plain(&e.actor)),
            cycle: e.cycle.as_deref().map(Text::plain),
            state: e
                .state
                .as_ref()
                .map(|s| (Text::plain(&s.before), Text::plain(&s.after))),
            details: e
                .details
                .iter()
                .map(|(k, v)| (Text::plain(k), Val::Json(v)))
                .collect(),
        }
    }

    /// The time in UTC as `YYYY-MM-DD HH:MM:SSZ`.
    pub fn push_time(&self, out: &mut String) {
        match &self.time {
            None => {
                // The tool's form: the text itself.
                out.push_str(&self.ts.raw[..10]);
                out.push(' ');
                out.push_str(&self.ts.raw[11..19]);
                out.push('Z');
            }
            Some(t) => {
                use chrono::{Datelike as _, Timelike as _};
                use std::fmt::Write as _;
                let _ = write!(
                    out,
                    "{:04}-{:02}-{:02} {:02}:{:02}:{:02}Z",
                    t.year(),
                    t.month(),
                    t.day(),
                    t.hour(),
                    t.minute(),
                    t.second()
                );
            }
        }
    }

    /// The actor as shown: `unknown` when absent.
    pub fn actor(&self) -> Cow<'a, str> {
        self.actor
            .as_ref()
            .map_or(Cow::Borrowed("unknown"), Text::get)
    }

    /// [`Recorded::summary`] of this event, appended to `out` (control
    /// characters still raw: escape with [`super::line::one_line`]).
    pub fn push_summary(&self, out: &mut String) {
        self.push_summary_within(out, usize::MAX);
    }

    /// [`EventView::push_summary`], stopped between two values once more
    /// than `bytes` bytes are appended: what is appended is then a prefix of
    /// the summary of more than `bytes / 4` characters, all that a line cut
    /// to fewer characters shows of it.
    pub fn push_summary_within(&self, out: &mut String, bytes: usize) {
        let start = out.len();
        if let Some((before, after)) = &self.state {
            before.push_to(out);
            out.push_str(" -> ");
            after.push_to(out);
        }
        for (key, value) in &self.details {
            if out.len() - start > bytes {
                return;
            }
            if out.len() > start {
                out.push(' ');
            }
            key.push_to(out);
            out.push('=');
            match value {
                Val::Str { raw, escaped } => Text {
                    raw,
                    escaped: *escaped,
                }
                .push_to(out),
                Val::Scalar(s) => out.push_str(s),
                Val::Array(inner) => push_array(inner, out),
                Val::Json(Value::String(s)) => out.push_str(s),
                Val::Json(Value::Array(items)) => {
                    for (i, v) in items.iter().take(3).enumerate() {
                        if i > 0 {
                            out.push(',');
                        }
                        match v {
                            Value::String(s) => out.push_str(s),
                            other => out.push_str(&other.to_string()),
                        }
                    }
                    more(items.len(), out);
                }
                Val::Json(other) => out.push_str(&other.to_string()),
            }
        }
    }
}

fn more(count: usize, out: &mut String) {
    if count > 3 {
        use std::fmt::Write as _;
        let _ = write!(out, ",(+{} more)", count - 3);
    }
}

/// The first three items of an array the fast reading took, then how many
/// more.
fn push_array(inner: &str, out: &mut String) {
    let mut scan = Scan { s: inner, at: 0 };
    let mut count = 0;
    while scan.at < inner.len() {
        let Some(item) = scan.item() else {
            debug_assert!(false, "an array the fast reading took");
            break;
        };
        if count < 3 {
            if count > 0 {
                out.push(',');
            }
            item.push_to(out);
        }
        count += 1;
        let _ = scan.eat(b',');
    }
    more(count, out);
}

/// Appends the JSON string body `raw` (escapes checked by [`Scan::string`]),
/// unescaped.
fn unescape(raw: &str, out: &mut String) {
    let mut rest = raw;
    while let Some(at) = rest.find('\\') {
        out.push_str(&rest[..at]);
        let b = rest.as_bytes()[at + 1];
        let (c, len) = match b {
            b'"' => ('"', 2),
            b'\\' => ('\\', 2),
            b'/' => ('/', 2),
            b'b' => ('\u{8}', 2),
            b'f' => ('\u{c}', 2),
            b'n' => ('\n', 2),
            b'r' => ('\r', 2),
            b't' => ('\t', 2),
            _ => {
                let code = u32::from_str_radix(&rest[at + 2..at + 6], 16).unwrap_or(0xFFFD);
                (char::from_u32(code).unwrap_or('\u{FFFD}'), 6)
            }
        };
        out.push(c);
        rest = &rest[at + len..];
    }
    out.push_str(rest);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::line::parse_line;
    use proptest::prelude::*;

    /// Both readings of a line, compared on everything `log` shows.
    fn agree(line: &str) {
        let Some(fast) = EventView::fast(line, true) else {
            return;
        };
        let slow = parse_line(line).unwrap_or_else(|e| panic!("fast took {line:?}: {e}"));
        let slow = EventView::of(&slow);
        assert_eq!(fast.instant, slow.instant, "{line}");
        let (mut a, mut b) = (String::new(), String::new());
        fast.push_time(&mut a);
        slow.push_time(&mut b);
        assert_eq!(a, b, "{line}");
        assert_eq!(fast.ts.get(), slow.ts.get());
        assert_eq!(fast.id.get(), slow.id.get());
        assert_eq!(fast.event.get(), slow.event.get());
        assert_eq!(fast.actor(), slow.actor());
        assert_eq!(fast.cycle.map(|c| c.get()), slow.cycle.map(|c| c.get()));
        let (mut a, mut b) = (String::new(), String::new());
        fast.push_summary(&mut a);
        slow.push_summary(&mut b);
        assert_eq!(a, b, "{line}");
        let lite = EventView::fast(line, false).expect("the same line without details");
        assert!(lite.details.is_empty());
    }

    #[test]
    fn special_bytes_are_found_in_any_lane() {
        for lane in 0..8 {
            for (b, want) in [
                (b'"', true),
                (b'\\', true),
                (0x00, true),
                (0x1f, true),
                (b' ', false),
                (0x7f, false),
                (0xc3, false),
                (b'!', false),
                (b'#', false),
                (b'[', false),
                (b']', false),
            ] {
                let mut bytes = [b'a'; 8];
                bytes[lane] = b;
                assert_eq!(
                    special(u64::from_le_bytes(bytes)),
                    want,
                    "{b:#x} in lane {lane}"
                );
            }
        }
        assert!(!special(u64::from_le_bytes(*b"plain te")));
    }

    #[test]
    fn a_summary_within_a_budget_is_a_prefix_longer_than_the_budget() {
        let line = r#"{"ts":"2026-12-01T09:04:53Z","id":"1","event":"x","state":{"before":"A","after":"B"},"a":"0123456789","b":[1,2,3,4],"c":"é"}"#;
        let e = EventView::fast(line, true).unwrap();
        let mut full = String::new();
        e.push_summary(&mut full);
        for budget in 0..full.len() + 2 {
            let mut part = String::new();
            e.push_summary_within(&mut part, budget);
            assert!(full.starts_with(&part), "{budget}: {part}");
            assert!(part == full || part.len() > budget, "{budget}: {part}");
        }
    }

    #[test]
    fn fast_instants_are_chronos() {
        for ts in [
            "2026-12-01T09:04:53.123456Z",
            "1970-01-01T00:00:00Z",
            "1969-12-31T23:59:59.999999999Z",
            "2000-02-29T12:00:00.5Z",
            "0000-03-01T00:00:00Z",
            "9999-12-31T23:59:59Z",
        ] {
            let t = DateTime::parse_from_rfc3339(ts)
                .unwrap()
                .with_timezone(&Utc);
            assert_eq!(fast_instant(ts.as_bytes()), Some(instant(&t)), "{ts}");
        }
        for ts in [
            "2026-02-29T00:00:00Z",
            "2026-12-01T24:00:00Z",
            "2026-12-01T23:59:60Z",
            "2026-12-01t09:04:53Z",
            "2026-12-01T09:04:53z",
            "2026-12-01T09:04:53+00:00",
            "2026-12-01T09:04:53.Z",
            "2026-12-01T09:04:53.1234567890Z",
            "2026-13-01T09:04:53Z",
            "+026-12-01T09:04:53Z",
        ] {
            assert_eq!(fast_instant(ts.as_bytes()), None, "{ts}");
        }
    }

    #[test]
    fn the_tools_lines_are_read_fast_and_agree() {
        let lines = [
            r#"{"ts":"2026-12-01T09:04:53.123456Z","id":"0123456789abcdef","event":"state-changed","actor":"A <a@b>","tool":"git-standards 0.1.0","cycle":"x-20261201T000000Z-00000000","state":{"before":"SCOPING","after":"PLANNING"},"commit":null,"argv":["handoff","--to","PLANNING"],"reason":"a\nb \u001b[31m \"q\" \\ é 日本","n":12,"ok":true,"none":null,"list":["a",1,"b","c"],"empty":[]}"#,
            r#"{"ts":"2026-12-01T09:04:53Z","id":"1","event":"reset","actor":null}"#,
            r#"{"ts":"2026-12-01T09:04:53Z","id":"1","event":"reset","state":null,"cycle":null,"commit":"abc"}"#,
            r#"{"id":"1","ts":"2026-12-01T09:04:53.1Z","event":"x","state":{"after":"B","before":"A"}}"#,
            r#"{"ts":"2026-12-01T09:04:53Z","id":"1","event":"x","tool":7,"argv":[1,true]}"#,
            r#"{"ts":"2026-12-01T09:04:53Z","id":"1","event":"x","handoff":{"kind":"FORWARD","why":"a\nb\u001b"},"changes":[{"field":"S","old":null,"new":"C"},{"field":"T"}],"a":[[1,"\t"],{}],"e":{}}"#,
        ];
        for line in lines {
            assert!(EventView::fast(line, true).is_some(), "{line}");
            agree(line);
        }
        let mut s = String::new();
        EventView::fast(lines[0], true)
            .unwrap()
            .push_summary(&mut s);
        assert_eq!(
            s,
            "SCOPING -> PLANNING reason=a\nb \u{1b}[31m \"q\" \\ é 日本 n=12 ok=true none=null list=a,1,b,(+1 more) empty="
        );
        let mut s = String::new();
        EventView::fast(lines[5], true)
            .unwrap()
            .push_summary(&mut s);
        assert_eq!(
            s,
            r#"handoff={"kind":"FORWARD","why":"a\nb\u001b"} changes={"field":"S","old":null,"new":"C"},{"field":"T"} a=[1,"\t"],{} e={}"#
        );
    }

    #[test]
    fn other_forms_are_left_to_the_full_parser() {
        for line in [
            r#"{ "ts":"2026-12-01T09:04:53Z","id":"1","event":"x"}"#,
            r#"{"ts":"2026-12-01T09:04:53Z","id":"1","event":"x","n":1.5}"#,
            r#"{"ts":"2026-12-01T09:04:53Z","id":"1","event":"x","n":-0}"#,
            r#"{"ts":"2026-12-01T09:04:53Z","id":"1","event":"x","n":01}"#,
            r#"{"ts":"2026-12-01T09:04:53Z","id":"1","event":"x","o":{"a":1,"a":2}}"#,
            r#"{"ts":"2026-12-01T09:04:53Z","id":"1","event":"x","o":{"a":"\/"}}"#,
            r#"{"ts":"2026-12-01T09:04:53Z","id":"1","event":"x","o":{"a":"\u0041"}}"#,
            r#"{"ts":"2026-12-01T09:04:53Z","id":"1","event":"x","o":{"a":"\u001B"}}"#,
            r#"{"ts":"2026-12-01T09:04:53Z","id":"1","event":"x","a":[[1.5]]}"#,
            r#"{"ts":"2026-12-01T09:04:53Z","id":"1","event":"x","a":[{ "k":1}]}"#,
            r#"{"ts":"2026-12-01T09:04:53Z","id":"1","event":"x","a":1,"a":2}"#,
            r#"{"ts":"2026-12-01T09:04:53Z","id":"1","event":"x","id":"2"}"#,
            r#"{"ts":"2026-12-01T09:04:53Z","id":"1","event":"x","s":"\ud83d\ude00"}"#,
            r#"{"ts":"2026-12-01T09:04:53Z","id":"1","event":"x","state":{"before":"A"}}"#,
            r#"{"ts":"2026-12-01T09:04:53Z","id":"1","event":7}"#,
            r#"{"ts":"2026-12-01T09:04:53Z","id":"1"}"#,
            r#"{"ts":"2026-12-01T09:04:53+02:00","id":"1","event":"x"}"#,
            r#"{"ts":"2026-12-01T09:04:53Z","id":"1","event":"x"} "#,
            r#"{"ts":"2026-12-01T09:04:53Z","id":"1","event":"x"}}"#,
            "{\"ts\":\"2026-12-01T09:04:53Z\",\"id\":\"1\",\"event\":\"a\tb\"}",
            "[1]",
            "",
        ] {
            assert_eq!(EventView::fast(line, true), None, "{line}");
        }
    }

    fn json_text() -> impl Strategy<Value = String> {
        let key = prop_oneof![
            Just("ts".to_string()),
            Just("id".to_string()),
            Just("event".to_string()),
            Just("actor".to_string()),
            Just("cycle".to_string()),
            Just("commit".to_string()),
            Just("tool".to_string()),
            Just("argv".to_string()),
            Just("state".to_string()),
            Just("\\u0061".to_string()),
            "[a-c]{1,2}",
        ];
        let value = prop_oneof![
            Just("\"2026-12-01T09:04:53Z\"".to_string()),
            Just("\"2026-12-01T09:04:53.000001Z\"".to_string()),
            Just("\"x\\ny\\u00e9\\u001b\\/\"".to_string()),
            Just("\"\\ud83d\\ude00\"".to_string()),
            Just("null".to_string()),
            Just("true".to_string()),
            Just("-12".to_string()),
            Just("0".to_string()),
            Just("1e3".to_string()),
            Just("[1,\"a\",null,\"b\\\"\",false]".to_string()),
            Just("[]".to_string()),
            Just("[[2]]".to_string()),
            Just("{\"before\":\"A\",\"after\":\"B\"}".to_string()),
            Just("{\"after\":\"B\",\"before\":\"A\"}".to_string()),
            Just("{\"before\":\"A\"}".to_string()),
            Just("{\"a\":[1,{\"b\":\"x\\u001b\\n\\\"\"}],\"c\":null,\"d\":{}}".to_string()),
            Just("{\"a\":1,\"a\":2}".to_string()),
            Just("{\"k\":\"\\/\\u001B\"}".to_string()),
            Just("{\"k\":\"\\u0041\"}".to_string()),
            Just("[{\"x\":\"\\t\"},\"\\u0041\",[\"\\u0041\"],-7]".to_string()),
            Just("{\"n\":1.5}".to_string()),
            "\"[a-z \\u{e9}\\u{85}]{0,4}\"",
        ];
        proptest::collection::vec((key, value), 0..9).prop_map(|pairs| {
            let body: Vec<String> = pairs.iter().map(|(k, v)| format!("\"{k}\":{v}")).collect();
            format!("{{{}}}", body.join(","))
        })
    }

    proptest! {
        /// Whatever the fast reading takes, the full parser takes too, and
        /// both show the same time, fields and summary.
        #[test]
        fn the_fast_reading_agrees_with_the_full_parser(line in json_text()) {
            agree(&line);
        }

        /// Every line the tool writes is read fast.
        #[test]
        fn every_line_the_tool_writes_is_read_fast(
            cycle in "\\PC{0,12}|[\\n\\r\\t\"\\\\]{1,3}",
            key in "[a-z_]{1,8}",
            value in any::<String>(),
            n in any::<i32>(),
        ) {
            prop_assume!(!crate::audit::COMMON_KEYS.contains(&key.as_str()) && key != "n");
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
                .state_change("A", "B")
                .detail(key.as_str(), value.as_str())
                .detail("n", n)
                .to_line(&stamp);
            // Astral characters are written raw, never as surrogate escapes.
            prop_assert!(EventView::fast(&line, true).is_some(), "{}", line);
            agree(&line);
        }
    }
}
