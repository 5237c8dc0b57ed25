//! `git standards log`: the audit trail, oldest first, readable or as JSON Lines.
//!
//! The cost is meant to stay at git's own floor for reading the same notes
//! (list the notes tree, read every note blob), in bounded memory: each
//! note's lines get small sort keys as it is read, its text is kept while
//! the kept texts fit in [`KEPT_TEXT`], and the notes are merged oldest line
//! first ([`standards_core::audit::order`]), a note not kept being read
//! again when the output reaches it. The lines are read, filtered and
//! printed one at a time, in order, through one buffer. A line is read in
//! place ([`EventView::fast`]: its values are slices of the stored text,
//! nothing is allocated per event); only a line in another form than the
//! tool's goes through the full parser. Never is a parsed copy of the
//! trail held; with `--limit N`, the N newest matching lines are.

use std::collections::VecDeque;
use std::io::Write as _;

use crate::cli::style;
use crate::cli::values::text_value;
use crate::commands::Context;
use crate::error::{Error, Result};
use crate::repo::notes::{self, Anchor, Note};
use crate::repo::{trail, ObjectId, Project};
use standards_core::audit::line::one_line;
use standards_core::audit::line::{parse_bytes, parse_bytes_without_details};
use standards_core::audit::order::{Listed, Trail};
use standards_core::audit::view::EventView;
use standards_core::audit::{Filter, Recorded};

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
    /// Readable lines: `oneline` (time, event, cycle, summary; at most 100
    /// characters) or `full` (also the actor, nothing shortened).
    #[arg(long, value_name = "format", value_enum, default_value_t = Format::Oneline, ignore_case = true, conflicts_with = "json")]
    pub format: Format,
    /// Print each event's JSON line (JSON Lines) instead of readable lines.
    #[arg(long)]
    pub json: bool,
}

/// How `log` prints an event when it does not print JSON.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// One short line per event, like `git log --oneline`.
    #[default]
    Oneline,
    /// Every field on one line: time, actor, cycle, event, summary.
    Full,
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
        format: a.format,
    })
}

/// A validated `log` request.
#[derive(Debug, Clone, Default)]
pub struct Request {
    pub filter: Filter,
    pub json: bool,
    pub format: Format,
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

/// How many bytes of note text `log` keeps from its first reading of the
/// trail. A trail that fits (10,000 of the tool's events take about 6 MB)
/// is read once; past it, a note's text is dropped once keyed and read
/// again when the output reaches its oldest line. Memory then stays at this
/// budget, plus the notes whose events interleave with the line being
/// printed, plus a few bytes per note, however long the trail grows.
const KEPT_TEXT: usize = 8 << 20;

/// [`KEPT_TEXT`], or in debug builds (the binary the tests drive) the
/// bytes `GIT_STANDARDS_LOG_KEEP` names, so a small trail takes every path.
fn kept_text() -> usize {
    #[cfg(debug_assertions)]
    if let Some(bytes) = std::env::var("GIT_STANDARDS_LOG_KEEP")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        return bytes;
    }
    KEPT_TEXT
}

/// The bad line `line` (0-based) of note `note`, described.
fn bad_line(
    trail: &Trail<ObjectId>,
    project: &Project,
    note: u32,
    line: u32,
    problem: String,
) -> BadLine {
    let annotated = trail.annotated(note);
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

/// The notes a filter needs, read once: one lookup for `--cycle`, else the
/// whole tree, texts kept up to `budget` bytes.
fn read(project: &Project, filter: &Filter, budget: usize) -> Result<Trail<ObjectId>> {
    Trail::read(|visit| match &filter.cycle {
        Some(cycle) => match trail::read_anchor(project, &Anchor::Cycle(cycle.clone()))? {
            Some(note) => {
                visit(0, &note.text, Some(0));
                Ok(Listed {
                    // Kept whole: its blob is never read again.
                    notes: vec![(note.annotated, note.annotated)],
                    kept: note.text,
                })
            }
            None => Ok(Listed {
                notes: Vec::new(),
                kept: Vec::new(),
            }),
        },
        None => trail::read_each(project, budget, visit),
    })
}

/// One readable line: time, actor, cycle, event, summary. Stored text is
/// shown with control characters escaped: one event stays one line, and a
/// line cannot move the cursor or recolour the terminal.
pub fn readable(e: &Recorded, color: bool) -> String {
    let mut line = String::with_capacity(128);
    write_readable(
        &mut line,
        &EventView::of(e),
        &Styles::new(color),
        &mut String::new(),
    );
    line
}

/// The colour codes of a readable line, made once per run.
struct Styles {
    dim: String,
    bold: String,
    reset: String,
}

impl Styles {
    fn new(color: bool) -> Styles {
        let (dim, reset) = style::codes(style::DIM, color);
        let (bold, _) = style::codes(style::HEADING, color);
        Styles { dim, bold, reset }
    }
}

/// Whether `s` holds a control character (`char::is_control`: U+0000 to
/// U+001F and U+007F to U+009F), found on its bytes.
fn has_control(s: &str) -> bool {
    let b = s.as_bytes();
    // First a branch-free pass the compiler vectorises: most summaries hold
    // none of the bytes a control character starts with.
    let suspect = b.iter().fold(false, |any, &c| {
        any | (c < 0x20) | (c == 0x7f) | (c == 0xc2)
    });
    suspect
        && b.iter().enumerate().any(|(i, &c)| {
            c < 0x20
                || c == 0x7f
                || (c == 0xc2 && b.get(i + 1).is_some_and(|n| (0x80..=0x9f).contains(n)))
        })
}

/// Appends `s` with control characters escaped ([`one_line`]).
fn push_one_line(out: &mut String, s: &str) {
    if has_control(s) {
        out.push_str(&one_line(s));
    } else {
        out.push_str(s);
    }
}

fn write_readable(line: &mut String, e: &EventView<'_>, st: &Styles, summary: &mut String) {
    line.push_str(&st.dim);
    e.push_time(line);
    line.push_str(&st.reset);
    line.push_str("  ");
    push_one_line(line, &e.actor());
    line.push_str("  ");
    match &e.cycle {
        Some(c) => push_one_line(line, &c.get()),
        None => line.push('-'),
    }
    line.push_str("  ");
    line.push_str(&st.bold);
    push_one_line(line, &e.event.get());
    line.push_str(&st.reset);
    summary.clear();
    e.push_summary(summary);
    if !summary.is_empty() {
        line.push_str("  ");
        push_one_line(line, summary);
    }
}

/// The widest a `--format oneline` line gets, in characters.
pub const ONELINE_WIDTH: usize = 100;
/// The most an event type or a cycle ID takes of a oneline line.
const EVENT_WIDTH: usize = 24;
const CYCLE_WIDTH: usize = 40;

/// `text` cut to at most `max` characters, the last one `…` when cut
/// (always on a character boundary).
fn shorten(text: &str, max: usize) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(max) {
        None => std::borrow::Cow::Borrowed(text),
        Some(_) if max == 0 => std::borrow::Cow::Borrowed(""),
        Some(_) => {
            let (cut, _) = text.char_indices().nth(max - 1).unwrap_or((0, ' '));
            std::borrow::Cow::Owned(format!("{}…", &text[..cut]))
        }
    }
}

/// `text` cut in the middle to at most `max` characters: a cycle ID keeps
/// its start (the slug) and its end (the time and the random part, which
/// tell cycles apart), joined by `…`.
fn shorten_middle(text: &str, max: usize) -> std::borrow::Cow<'_, str> {
    let count = text.chars().count();
    if count <= max || max < 3 {
        return shorten(text, max);
    }
    let tail = (max - 1) * 2 / 3;
    let head = max - 1 - tail;
    let head_end = text.char_indices().nth(head).map_or(text.len(), |(i, _)| i);
    let tail_start = text
        .char_indices()
        .nth(count - tail)
        .map_or(text.len(), |(i, _)| i);
    std::borrow::Cow::Owned(format!("{}…{}", &text[..head_end], &text[tail_start..]))
}

/// One short line (`--format oneline`): time, event, cycle and summary,
/// each shortened so that the line is at most [`ONELINE_WIDTH`] characters
/// (colour codes aside). Control characters are escaped before cutting.
pub fn oneline(e: &Recorded, color: bool) -> String {
    let mut line = String::with_capacity(ONELINE_WIDTH + 16);
    write_oneline(
        &mut line,
        &EventView::of(e),
        &Styles::new(color),
        &mut String::new(),
        &mut OnelineMemo::default(),
    );
    line
}

/// The shortened event type and cycle of the last oneline line: the events
/// of a trail come a cycle at a time, and a few types make most of them.
#[derive(Default)]
struct OnelineMemo {
    event: Shown,
    cycle: Shown,
}

/// A value as a oneline line shows it (escaped, shortened), with its
/// characters, and the stored value it was made from.
#[derive(Default)]
struct Shown {
    from: Option<(String, bool)>,
    shown: String,
    chars: usize,
}

impl Shown {
    /// `text` (`-` for none) escaped and shortened by `shorten`, made once
    /// for a run of equal stored values.
    fn of(
        &mut self,
        text: Option<&standards_core::audit::view::Text<'_>>,
        shorten: impl FnOnce(&str) -> String,
    ) -> (&str, usize) {
        let stored = text.map_or(("-", false), |t| t.stored());
        if self.from.as_ref().map(|(s, e)| (s.as_str(), *e)) != Some(stored) {
            let full = text.map_or(std::borrow::Cow::Borrowed("-"), |t| t.get());
            self.shown = shorten(&one_line(&full));
            self.chars = chars(&self.shown);
            self.from = Some((stored.0.to_string(), stored.1));
        }
        (&self.shown, self.chars)
    }
}

/// Characters in `s`: its bytes less its UTF-8 continuation bytes.
fn chars(s: &str) -> usize {
    s.len() - s.bytes().filter(|b| (*b as i8) < -0x40).count()
}

fn write_oneline(
    line: &mut String,
    e: &EventView<'_>,
    st: &Styles,
    summary: &mut String,
    memo: &mut OnelineMemo,
) {
    let (event, event_chars) = memo
        .event
        .of(Some(&e.event), |t| shorten(t, EVENT_WIDTH).into_owned());
    let (cycle, cycle_chars) = memo.cycle.of(e.cycle.as_ref(), |t| {
        shorten_middle(t, CYCLE_WIDTH).into_owned()
    });
    line.push_str(&st.dim);
    e.push_time(line);
    line.push_str(&st.reset);
    line.push_str("  ");
    line.push_str(&st.bold);
    line.push_str(event);
    line.push_str(&st.reset);
    line.push_str("  ");
    line.push_str(cycle);
    // "YYYY-MM-DD HH:MM:SSZ" and two separators of two spaces.
    let used = 20 + 2 + event_chars + 2 + cycle_chars;
    let room = ONELINE_WIDTH.saturating_sub(used + 2);
    if room == 0 {
        return;
    }
    summary.clear();
    // Only what the line can show: more than `room` characters (a
    // character is at most four bytes), escaped and cut as the whole
    // summary would be (escaping maps each character on its own).
    e.push_summary_within(summary, 4 * (room + 1));
    if summary.is_empty() {
        return;
    }
    line.push_str("  ");
    if has_control(summary) {
        let escaped = one_line(summary).into_owned();
        push_shortened(line, &escaped, room);
    } else {
        push_shortened(line, summary, room);
    }
}

/// Appends [`shorten`]`(text, max)` without building it apart.
fn push_shortened(out: &mut String, text: &str, max: usize) {
    // No more bytes than `max`: no more characters either.
    if text.len() <= max {
        out.push_str(text);
        return;
    }
    // ASCII: a character is a byte.
    if text.is_ascii() {
        if max > 0 {
            out.push_str(&text[..max - 1]);
            out.push('…');
        }
        return;
    }
    match text.char_indices().nth(max) {
        None => out.push_str(text),
        Some(_) if max == 0 => {}
        Some(_) => {
            let (cut, _) = text.char_indices().nth(max - 1).unwrap_or((0, ' '));
            out.push_str(&text[..cut]);
            out.push('…');
        }
    }
}

/// A stored line read for printing: in place when it is in the tool's form
/// ([`EventView::fast`]), else by `parse` into `slow`, which words the
/// problem of a line that is no event.
fn view<'a>(
    raw: &'a [u8],
    details: bool,
    parse: fn(&[u8]) -> std::result::Result<Recorded, String>,
    slow: &'a mut Option<Recorded>,
) -> std::result::Result<EventView<'a>, String> {
    if let Some(e) = std::str::from_utf8(raw)
        .ok()
        .and_then(|l| EventView::fast(l, details))
    {
        return Ok(e);
    }
    Ok(EventView::of(slow.insert(parse(raw)?)))
}

pub fn run(ctx: &mut Context, request: &Request) -> Result<()> {
    let project = Project::discover(&ctx.cwd)?;
    let mut trail = read(&project, &request.filter, kept_text())?;
    // Between the two readings: a test holds it here while another process
    // rewrites the trail (the texts read again are the first reading's blobs).
    crate::repo::failpoint::hit("log:read");
    let no_notes = trail.is_empty();
    let filter = &request.filter;
    let mut bad = std::mem::take(&mut trail.bad);
    let mut out = std::io::BufWriter::with_capacity(64 * 1024, &mut *ctx.out);
    let styles = Styles::new(ctx.color);
    let mut text = String::with_capacity(256);
    let mut summary = String::with_capacity(256);
    let mut memo = OnelineMemo::default();
    let mut print = |out: &mut dyn std::io::Write, e: &EventView<'_>| -> Result<()> {
        text.clear();
        match (request.json, request.format) {
            (true, _) => text.push_str(e.line),
            (false, Format::Oneline) => {
                write_oneline(&mut text, e, &styles, &mut summary, &mut memo)
            }
            (false, Format::Full) => write_readable(&mut text, e, &styles, &mut summary),
        }
        text.push('\n');
        out.write_all(text.as_bytes()).map_err(Error::stdout)
    };
    // `--json` prints the stored line and never the event-specific keys.
    let details = !request.json;
    let parse = if request.json {
        parse_bytes_without_details
    } else {
        parse_bytes
    };
    // `--limit N` keeps the N newest matches (their lines): the only events
    // held at once, read again to print.
    let mut newest: VecDeque<Vec<u8>> = VecDeque::new();
    let mut printed = 0usize;
    // The last line printed (or kept), to print a line stored twice once.
    let mut last: Option<Vec<u8>> = None;
    let mut reader = trail::note_reader(&project);
    trail.in_order(
        |blob| reader.read(blob),
        |note, line, raw| {
            let mut slow = None;
            let e = match view(raw, details, parse, &mut slow) {
                Ok(e) => e,
                Err(problem) => {
                    bad.push((note, line, problem));
                    return Ok(());
                }
            };
            if !filter.matches_view(&e) || last.as_deref() == Some(raw) {
                return Ok(());
            }
            let kept = last.get_or_insert_with(Vec::new);
            kept.clear();
            kept.extend_from_slice(raw);
            printed += 1;
            match filter.limit {
                Some(n) => {
                    let mut line = if newest.len() >= n {
                        newest.pop_front().unwrap_or_default()
                    } else {
                        Vec::new()
                    };
                    line.clear();
                    line.extend_from_slice(raw);
                    newest.push_back(line);
                    Ok(())
                }
                None => print(&mut out, &e),
            }
        },
    )?;
    for raw in &newest {
        let mut slow = None;
        let e = view(raw, details, parse, &mut slow).expect("a line read once already");
        print(&mut out, &e)?;
    }
    out.flush().map_err(Error::stdout)?;
    drop(out);
    // A bad line (hand-edited, or fetched from a remote) is reported with
    // its source and skipped: never a reason to stop reading the trail.
    let any_bad = !bad.is_empty();
    bad.sort_by_key(|(note, line, _)| (*note, *line));
    for (note, line, problem) in bad.drain(..) {
        let b = bad_line(&trail, &project, note, line, problem);
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
    use standards_core::audit::parse_line;

    /// The fast paths (ASCII, short text, no suspect byte) give what the
    /// character-by-character definitions give.
    #[test]
    fn push_shortened_and_has_control_match_their_definitions() {
        let texts = [
            "",
            "a",
            "abc",
            "abcd",
            "ééééé",
            "日本語テキスト",
            "mixed é ascii",
            "x\u{1b}y",
            "tab\there",
            "\u{7f}",
            "\u{85}next line",
            "\u{a0}no-break",
            "plain text here",
        ];
        for text in texts {
            assert_eq!(
                has_control(text),
                text.chars().any(char::is_control),
                "{text:?}"
            );
            for max in 0..16 {
                let mut out = String::new();
                push_shortened(&mut out, text, max);
                assert_eq!(out, shorten(text, max), "{text:?} at {max}");
            }
        }
    }

    #[test]
    fn shorten_cuts_on_a_char_boundary_with_an_ellipsis() {
        assert_eq!(shorten("abc", 3), "abc");
        assert_eq!(shorten("abcd", 3), "ab…");
        assert_eq!(shorten("ééééé", 4), "ééé…");
        assert_eq!(shorten("日本語テキスト", 3), "日本…");
        assert_eq!(shorten("abc", 0), "");
        assert_eq!(shorten("", 0), "");
        let id = "rewrite-the-search-page-and-the-index-20261201T092653Z-723e4025";
        let cut = shorten_middle(id, 40);
        assert_eq!(cut, "rewrite-the-s…-20261201T092653Z-723e4025");
        assert_eq!(cut.chars().count(), 40);
        assert_eq!(
            shorten_middle("add-search-20261201T092653Z-723e4025", 40),
            "add-search-20261201T092653Z-723e4025"
        );
        assert_eq!(shorten_middle("ééééééé", 4), "é…éé");
        assert_eq!(shorten_middle("abcd", 2), "a…");
    }

    /// Long requests, reasons, cycle IDs, event types and control
    /// characters: every oneline line stays within the width, escaped, and
    /// keeps its time, event and cycle (or their start).
    #[test]
    fn oneline_lines_stay_short_and_escaped() {
        let long = "x".repeat(700);
        let cases = [
            format!(
                r#"{{"ts":"2026-12-01T09:04:53.123456Z","id":"a","event":"cycle-id-issued","actor":"A <a@b>","cycle":"add-search-20261201T092653Z-723e4025","request":"{long}"}}"#
            ),
            format!(
                r#"{{"ts":"2026-12-01T09:04:53Z","id":"b","event":"state-changed","actor":"A","cycle":"{long}","from":"a","to":"b","reason":"é{long}"}}"#
            ),
            format!(
                r#"{{"ts":"2026-12-01T09:04:53Z","id":"c","event":"{long}","actor":"A","reason":"a\u001b[31mred\nnext"}}"#
            ),
            r#"{"ts":"2026-12-01T09:04:53Z","id":"d","event":"installed","actor":"A"}"#.to_string(),
        ];
        for raw in &cases {
            let e = parse_line(raw).unwrap();
            let line = oneline(&e, false);
            assert!(line.chars().count() <= ONELINE_WIDTH, "{line}");
            assert!(!line.chars().any(char::is_control), "{line:?}");
            assert!(line.starts_with("2026-12-01 09:04:53Z  "), "{line}");
            let event = one_line(&e.event);
            let shown = event.chars().take(EVENT_WIDTH - 1).collect::<String>();
            assert!(line.contains(&format!("  {shown}")), "{line}");
            if let Some(c) = &e.cycle {
                assert!(line.contains(&*shorten_middle(c, CYCLE_WIDTH)), "{line}");
            }
            // Colours add codes, never visible characters.
            let coloured = oneline(&e, true);
            assert!(coloured.len() > line.len(), "{coloured:?}");
        }
        let short = parse_line(&cases[3]).unwrap();
        assert_eq!(oneline(&short, false), "2026-12-01 09:04:53Z  installed  -");
        let first = oneline(&parse_line(&cases[0]).unwrap(), false);
        assert_eq!(first.chars().count(), ONELINE_WIDTH, "{first}");
        assert!(first.contains("  request=xxx"), "{first}");
        assert!(first.ends_with("x…"), "{first}");
        assert!(!readable(&parse_line(&cases[0]).unwrap(), false).contains('…'));
    }
}
