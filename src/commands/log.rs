//! `git standards log`: the audit trail, oldest first, readable or as JSON Lines.
//!
//! The cost is meant to stay at git's own floor for reading the same notes
//! (list the notes tree, read every note blob): the note texts are read
//! once and kept as they are, each line gets a small sort key taken from its
//! leading `ts` and `id` without parsing it, and the lines are then parsed,
//! filtered and printed one at a time, in order, through one buffer. What
//! stays in memory is the note text itself plus one key per line (and, with
//! `--limit N`, the N newest matches): never a parsed copy of the trail.

use std::collections::VecDeque;
use std::io::Write as _;

use chrono::{DateTime, Utc};

use crate::cli::style;
use crate::cli::values::text_value;
use crate::commands::Context;
use crate::error::{Error, Result};
use crate::repo::notes::{self, Anchor, Note, Texts};
use crate::repo::{trail, Project};
use standards_core::audit::line::one_line;
use standards_core::audit::{parse_line, parse_line_without_details, Filter, Recorded};

#[derive(Debug, clap::Args)]
pub struct LogArgs {
    /// Only this cycle's events (one lookup of the cycle's anchor).
    #[arg(long, value_name = "id", value_parser = text_value)]
    pub cycle: Option<String>,
    /// Only events of this type; repeat for several.
    #[arg(long = "event", value_name = "type", value_parser = event_names(), ignore_case = true)]
    pub events: Vec<String>,
    /// Only events at or after this time: YYYY-MM-DD, YYYY-MM-DDTHH:MM:SS (UTC) or RFC 3339.
    #[arg(long, value_name = "date")]
    pub since: Option<String>,
    /// Only events before this time; a date alone includes that whole day.
    #[arg(long, value_name = "date")]
    pub until: Option<String>,
    /// Only events whose actor matches: a case-insensitive substring, or a glob with `*` and `?`.
    #[arg(long, value_name = "pattern")]
    pub actor: Option<String>,
    /// Only the newest N matching events (still printed oldest first).
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// Print each event's JSON line (JSON Lines) instead of readable lines.
    #[arg(long)]
    pub json: bool,
}

fn event_names() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(
        standards_core::audit::EventKind::ALL
            .iter()
            .map(|k| k.name()),
    )
}

/// `log` arguments as a validated request: dates parse, the limit is positive.
pub fn log_request(a: LogArgs) -> Result<crate::commands::log::Request> {
    use standards_core::audit::filter::{parse_time, Bound};
    let time = |text: Option<String>, bound, flag: &str| -> Result<_> {
        text.map(|t| parse_time(&t, bound).map_err(|e| Error::usage(format!("{flag}: {e}"))))
            .transpose()
    };
    if a.limit == Some(0) {
        return Err(Error::usage("--limit must be at least 1"));
    }
    Ok(crate::commands::log::Request {
        filter: standards_core::audit::Filter {
            cycle: a.cycle,
            // Accepted in any case, printed and matched as the trail spells them.
            events: a.events.iter().map(|e| e.to_ascii_lowercase()).collect(),
            since: time(a.since, Bound::Start, "--since")?,
            until: time(a.until, Bound::End, "--until")?,
            actor: a.actor,
            limit: a.limit,
        },
        json: a.json,
    })
}

/// A validated `log` request.
#[derive(Debug, Clone, Default)]
pub struct Request {
    pub filter: Filter,
    pub json: bool,
}

/// A stored line that is not a valid event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadLine {
    /// Which note, named by its anchor.
    pub note: String,
    /// The annotated object (the anchor blob) the note hangs on.
    pub annotated: String,
    /// The anchor's cycle ID, `None` for the project anchor or an unknown object.
    pub cycle: Option<String>,
    /// 1-based line number inside the note.
    pub line: usize,
    pub problem: String,
}

/// Where a line sits and how it sorts: by time, then `ts` and `id` as
/// written (the order [`Filter::apply`] gives parsed events).
struct Key {
    time: DateTime<Utc>,
    note: u32,
    /// 0-based line number inside the note.
    line: u32,
    start: usize,
    end: usize,
    tie: Tie,
}

/// The `ts` and `id` texts a key compares after the time.
enum Tie {
    /// Byte ranges inside the line (the canonical form holds no escapes).
    Raw { ts: (u32, u32), id: (u32, u32) },
    /// Read by the full parser (a line in another form).
    Parsed(Box<(String, String)>),
}

/// The trail's note texts, and one key per line.
pub struct Lines {
    texts: Texts,
    keys: Vec<Key>,
    /// Lines that could not be read at all (found while keying).
    bad: Vec<(u32, u32, String)>,
}

/// `ts` and `id` of a canonical line (`{"ts":"...","id":"...",`): byte
/// ranges of the two values, when both are plain (no escapes).
fn canonical_prefix(line: &[u8]) -> Option<((usize, usize), (usize, usize))> {
    const TS: &[u8] = br#"{"ts":""#;
    const ID: &[u8] = br#"","id":""#;
    let rest = line.strip_prefix(TS)?;
    let ts_start = TS.len();
    let ts_len = rest.iter().position(|b| *b == b'"' || *b == b'\\')?;
    let after = &rest[ts_len..];
    let after = after.strip_prefix(ID)?;
    let id_start = ts_start + ts_len + ID.len();
    let id_len = after.iter().position(|b| *b == b'"' || *b == b'\\')?;
    if after[id_len] != b'"' || rest[ts_len] != b'"' {
        return None;
    }
    Some(((ts_start, ts_start + ts_len), (id_start, id_start + id_len)))
}

impl Lines {
    /// Keys every line of `notes`; a line that cannot even be keyed (not
    /// an event) is kept aside as bad, with its problem.
    pub fn new(texts: Texts) -> Lines {
        let mut keys = Vec::new();
        let mut bad = Vec::new();
        for (n, (_, range)) in texts.notes.iter().enumerate() {
            let mut start = range.start;
            for (i, raw) in texts.text[range.clone()].split(|b| *b == b'\n').enumerate() {
                let end = start + raw.len();
                let at = start;
                start = end + 1;
                if raw.is_empty() {
                    continue;
                }
                let fast = canonical_prefix(raw).and_then(|(ts, id)| {
                    let text = std::str::from_utf8(&raw[ts.0..ts.1]).ok()?;
                    let time = DateTime::parse_from_rfc3339(text).ok()?;
                    Some((time.with_timezone(&Utc), ts, id))
                });
                let (time, tie) = match fast {
                    Some((time, ts, id)) => (
                        time,
                        Tie::Raw {
                            ts: (ts.0 as u32, ts.1 as u32),
                            id: (id.0 as u32, id.1 as u32),
                        },
                    ),
                    None => match parse_raw(raw) {
                        Ok(e) => (e.time, Tie::Parsed(Box::new((e.ts, e.id)))),
                        Err(problem) => {
                            bad.push((n as u32, i as u32, problem));
                            continue;
                        }
                    },
                };
                keys.push(Key {
                    time,
                    note: n as u32,
                    line: i as u32,
                    start: at,
                    end,
                    tie,
                });
            }
        }
        Lines { texts, keys, bad }
    }

    fn raw(&self, k: &Key) -> &[u8] {
        &self.texts.text[k.start..k.end]
    }

    fn tie<'a>(&'a self, k: &'a Key) -> (&'a [u8], &'a [u8]) {
        match &k.tie {
            Tie::Raw { ts, id } => {
                let raw = self.raw(k);
                (
                    &raw[ts.0 as usize..ts.1 as usize],
                    &raw[id.0 as usize..id.1 as usize],
                )
            }
            Tie::Parsed(p) => (p.0.as_bytes(), p.1.as_bytes()),
        }
    }

    /// Oldest first; lines with equal keys keep their stored order.
    pub fn sort(&mut self) {
        let mut keys = std::mem::take(&mut self.keys);
        keys.sort_by(|a, b| {
            a.time
                .cmp(&b.time)
                .then_with(|| self.tie(a).cmp(&self.tie(b)))
        });
        self.keys = keys;
    }

    /// The bad line `line` (0-based) of note `note`, described.
    fn bad_line(&self, project: &Project, note: u32, line: u32, problem: String) -> BadLine {
        let annotated = self.texts.notes[note as usize].0;
        let anchor = trail::anchor_of(project, annotated);
        let described = Note {
            annotated,
            anchor: anchor.clone(),
            text: Vec::new(),
        }
        .describe();
        BadLine {
            note: described,
            annotated: annotated.to_string(),
            cycle: match anchor {
                Some(Anchor::Cycle(c)) => Some(c),
                _ => None,
            },
            line: line as usize + 1,
            problem,
        }
    }
}

fn parse_raw(raw: &[u8]) -> std::result::Result<Recorded, String> {
    std::str::from_utf8(raw)
        .map_err(|_| "not UTF-8".to_string())
        .and_then(parse_line)
}

/// [`parse_raw`] for `--json`, which prints the stored line and never the
/// event-specific keys: the same lines are valid, and those keys are read
/// past without being built.
fn parse_raw_without_details(raw: &[u8]) -> std::result::Result<Recorded, String> {
    std::str::from_utf8(raw)
        .map_err(|_| "not UTF-8".to_string())
        .and_then(parse_line_without_details)
}

/// The notes a filter needs: one lookup for `--cycle`, else the whole tree.
pub fn read(project: &Project, filter: &Filter) -> Result<Texts> {
    match &filter.cycle {
        Some(cycle) => {
            let mut texts = Texts::default();
            if let Some(note) = trail::read_anchor(project, &Anchor::Cycle(cycle.clone()))? {
                texts.push(note.annotated, &note.text);
            }
            Ok(texts)
        }
        None => trail::read_all(project),
    }
}

/// One readable line: time, actor, cycle, event, summary. Stored text is
/// shown with control characters escaped: one event stays one line, and a
/// line cannot move the cursor or recolour the terminal.
pub fn readable(e: &Recorded, color: bool) -> String {
    let mut line = String::with_capacity(128);
    write_readable(&mut line, e, color);
    line
}

fn write_readable(line: &mut String, e: &Recorded, color: bool) {
    use chrono::{Datelike as _, Timelike as _};
    use std::fmt::Write as _;
    let t = e.time;
    let (dim, reset) = style::codes(style::DIM, color);
    let (bold, _) = style::codes(style::HEADING, color);
    let _ = write!(
        line,
        "{dim}{:04}-{:02}-{:02} {:02}:{:02}:{:02}Z{reset}  {}  {}  {bold}{}{reset}",
        t.year(),
        t.month(),
        t.day(),
        t.hour(),
        t.minute(),
        t.second(),
        one_line(&e.actor),
        one_line(e.cycle.as_deref().unwrap_or("-")),
        one_line(&e.event)
    );
    let summary = e.summary();
    if !summary.is_empty() {
        line.push_str("  ");
        line.push_str(&summary);
    }
}

pub fn run(ctx: &mut Context, request: &Request) -> Result<()> {
    let project = Project::discover(&ctx.cwd)?;
    let notes = read(&project, &request.filter)?;
    let no_notes = notes.is_empty();
    let mut lines = Lines::new(notes);
    lines.sort();
    let filter = &request.filter;
    let mut bad = std::mem::take(&mut lines.bad);
    let mut out = std::io::BufWriter::with_capacity(64 * 1024, &mut *ctx.out);
    let mut text = String::with_capacity(256);
    let mut print = |out: &mut dyn std::io::Write, e: &Recorded| -> Result<()> {
        text.clear();
        if request.json {
            text.push_str(&e.line);
        } else {
            write_readable(&mut text, e, ctx.color);
        }
        text.push('\n');
        out.write_all(text.as_bytes()).map_err(Error::stdout)
    };
    // `--limit N` keeps the N newest matches: the only events held at once.
    let mut newest: VecDeque<Recorded> = VecDeque::new();
    let mut printed = 0usize;
    let mut last: Option<&[u8]> = None;
    let parse = if request.json {
        parse_raw_without_details
    } else {
        parse_raw
    };
    for k in &lines.keys {
        let raw = lines.raw(k);
        let e = match parse(raw) {
            Ok(e) => e,
            Err(problem) => {
                bad.push((k.note, k.line, problem));
                continue;
            }
        };
        if !filter.matches(&e) || last == Some(raw) {
            continue;
        }
        last = Some(raw);
        printed += 1;
        match filter.limit {
            Some(n) => {
                newest.push_back(e);
                if newest.len() > n {
                    newest.pop_front();
                }
            }
            None => print(&mut out, &e)?,
        }
    }
    for e in &newest {
        print(&mut out, e)?;
    }
    out.flush().map_err(Error::stdout)?;
    drop(out);
    // A bad line (hand-edited, or fetched from a remote) is reported with
    // its source and skipped: never a reason to stop reading the trail.
    let any_bad = !bad.is_empty();
    bad.sort_by_key(|(note, line, _)| (*note, *line));
    for (note, line, problem) in bad.drain(..) {
        let b = lines.bad_line(&project, note, line, problem);
        let text = format!(
            "{}, line {}: {}; the line is skipped",
            b.note, b.line, b.problem
        );
        let _ = if request.json {
            let value = serde_json::json!({
                "warning": text,
                "note": b.annotated,
                "cycle": b.cycle,
                "line": b.line,
                "problem": b.problem,
            });
            writeln!(ctx.err, "{value}")
        } else {
            writeln!(ctx.err, "warning: {text}")
        };
    }
    if printed == 0 && !any_bad && !request.json {
        let what = if no_notes && request.filter == Filter::default() {
            format!("no audit events are recorded in `{}` yet", notes::NOTES_REF)
        } else {
            "no audit event matches".to_string()
        };
        let _ = writeln!(ctx.err, "{what}.");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn note(texts: &mut Texts, byte: u8, lines: &[&str]) {
        let mut text = lines.join("\n").into_bytes();
        text.push(b'\n');
        texts.push(ObjectId::from_bytes_or_panic(&[byte; 20]), &text);
    }

    use crate::repo::ObjectId;

    #[test]
    fn canonical_prefixes_are_found_and_others_are_not() {
        let line = br#"{"ts":"2026-12-01T09:04:53.123456Z","id":"ab","event":"x"}"#;
        let ((a, b), (c, d)) = canonical_prefix(line).unwrap();
        assert_eq!(&line[a..b], b"2026-12-01T09:04:53.123456Z");
        assert_eq!(&line[c..d], b"ab");
        assert_eq!(canonical_prefix(br#"{"id":"ab","ts":"x"}"#), None);
        assert_eq!(canonical_prefix(br#"{"ts":"x","id":"a\"b"}"#), None);
        assert_eq!(canonical_prefix(br#"{ "ts":"x","id":"ab"}"#), None);
        assert_eq!(canonical_prefix(br#"{"ts":"x"#), None);
    }

    /// The keyed order is the order `Filter::apply` gives the parsed events,
    /// whatever form the lines take, and bad lines are set aside.
    #[test]
    fn keyed_order_is_the_parsed_order() {
        let mut notes = Texts::default();
        note(
            &mut notes,
            1,
            &[
                r#"{"ts":"2026-12-01T09:00:00.000001Z","id":"b","event":"x"}"#,
                r#"{"ts":"2026-12-01T09:00:02Z","id":"c","event":"x"}"#,
                "not json",
                r#"{"ts":"2026-12-01T11:00:01+02:00","id":"d","event":"x"}"#,
            ],
        );
        note(
            &mut notes,
            2,
            &[
                r#"{"ts":"2026-12-01T09:00:00.000001Z","id":"a","event":"x"}"#,
                r#"{ "ts":"2026-12-01T09:00:00.000000Z","id":"e","event":"x"}"#,
                r#"{"ts":"2026-12-01T09:00:03.000000Z","id":"f\u0067","event":"x"}"#,
                r#"{"ts":"yesterday","id":"g","event":"x"}"#,
            ],
        );
        let parsed: Vec<Recorded> = notes
            .text
            .split(|b| *b == b'\n')
            .filter_map(|l| parse_raw(l).ok())
            .collect();
        let want: Vec<String> = Filter::default()
            .apply(parsed)
            .into_iter()
            .map(|e| e.id)
            .collect();
        assert_eq!(want, ["e", "a", "b", "d", "c", "fg"]);
        let mut lines = Lines::new(notes);
        lines.sort();
        let got: Vec<String> = lines
            .keys
            .iter()
            .map(|k| parse_raw(lines.raw(k)).unwrap().id)
            .collect();
        assert_eq!(got, want);
        let bad: Vec<(u32, u32)> = lines.bad.iter().map(|b| (b.0, b.1)).collect();
        assert_eq!(bad, [(0, 2), (1, 3)]);
    }
}
