//! `git standards log`: the audit trail, oldest first, readable or as JSON Lines.

use std::fmt::Write as _;

use crate::cli::style;
use crate::cli::values::text_value;
use crate::commands::Context;
use crate::error::{Error, Result};
use crate::repo::notes::{self, Anchor, Note};
use crate::repo::{trail, Project};
use standards_core::audit::line::one_line;
use standards_core::audit::{parse_line, Filter, Recorded};

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

/// Parses the events of some notes; bad lines are collected, never fatal.
pub fn parse_notes(notes: &[Note]) -> (Vec<Recorded>, Vec<BadLine>) {
    let mut events = Vec::new();
    let mut bad = Vec::new();
    for note in notes {
        for (i, raw) in note.text.split(|b| *b == b'\n').enumerate() {
            if raw.is_empty() {
                continue;
            }
            let parsed = std::str::from_utf8(raw)
                .map_err(|_| "not UTF-8".to_string())
                .and_then(parse_line);
            match parsed {
                Ok(e) => events.push(e),
                Err(problem) => bad.push(BadLine {
                    note: note.describe(),
                    annotated: note.annotated.to_string(),
                    cycle: match &note.anchor {
                        Some(notes::Anchor::Cycle(c)) => Some(c.clone()),
                        _ => None,
                    },
                    line: i + 1,
                    problem,
                }),
            }
        }
    }
    (events, bad)
}

/// The notes a filter needs: one lookup for `--cycle`, else the whole tree.
pub fn read(project: &Project, filter: &Filter) -> Result<Vec<Note>> {
    match &filter.cycle {
        Some(cycle) => Ok(trail::read_anchor(project, &Anchor::Cycle(cycle.clone()))?
            .into_iter()
            .collect()),
        None => trail::read_all(project),
    }
}

/// One readable line: time, actor, cycle, event, summary. Stored text is
/// shown with control characters escaped: one event stays one line, and a
/// line cannot move the cursor or recolour the terminal.
pub fn readable(e: &Recorded, color: bool) -> String {
    use chrono::{Datelike as _, Timelike as _};
    let t = e.time;
    let time = format!(
        "{:04}-{:02}-{:02} {:02}:{:02}:{:02}Z",
        t.year(),
        t.month(),
        t.day(),
        t.hour(),
        t.minute(),
        t.second()
    );
    let cycle = one_line(e.cycle.as_deref().unwrap_or("-"));
    let summary = e.summary();
    let (dim, reset) = style::codes(style::DIM, color);
    let (bold, _) = style::codes(style::HEADING, color);
    let mut line = format!(
        "{dim}{time}{reset}  {}  {cycle}  {bold}{}{reset}",
        one_line(&e.actor),
        one_line(&e.event)
    );
    if !summary.is_empty() {
        let _ = write!(line, "  {summary}");
    }
    line
}

pub fn run(ctx: &mut Context, request: &Request) -> Result<()> {
    let project = Project::discover(&ctx.cwd)?;
    let notes = read(&project, &request.filter)?;
    let (events, bad) = parse_notes(&notes);
    let no_notes = notes.is_empty();
    drop(notes);
    let events = request.filter.apply(events);
    let mut text = String::new();
    for e in &events {
        if request.json {
            text.push_str(&e.line);
        } else {
            text.push_str(&readable(e, ctx.color));
        }
        text.push('\n');
    }
    ctx.out.write_all(text.as_bytes()).map_err(Error::stdout)?;
    // A bad line (hand-edited, or fetched from a remote) is reported with
    // its source and skipped: never a reason to stop reading the trail.
    for b in &bad {
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
    if events.is_empty() && bad.is_empty() && !request.json {
        let what = if no_notes && request.filter == Filter::default() {
            format!("no audit events are recorded in `{}` yet", notes::NOTES_REF)
        } else {
            "no audit event matches".to_string()
        };
        let _ = writeln!(ctx.err, "{what}.");
    }
    Ok(())
}
