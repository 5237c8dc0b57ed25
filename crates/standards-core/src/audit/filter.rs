//! `git standards log` filters: which events to show, pure.

use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};

use super::Recorded;

/// The filters of `log`. Every set filter must hold.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Filter {
    pub cycle: Option<String>,
    /// Event type names; any of them matches. Empty: every type.
    pub events: Vec<String>,
    /// Inclusive lower bound.
    pub since: Option<DateTime<Utc>>,
    /// Exclusive upper bound.
    pub until: Option<DateTime<Utc>>,
    /// Case-insensitive: a glob with `*` and `?`, or else a substring of `actor`.
    pub actor: Option<String>,
    /// Keep only the newest N (still printed oldest first).
    pub limit: Option<usize>,
}

impl Filter {
    pub fn matches(&self, e: &Recorded) -> bool {
        self.cycle
            .as_ref()
            .is_none_or(|c| e.cycle.as_ref() == Some(c))
            && (self.events.is_empty() || self.events.contains(&e.event))
            && self.since.is_none_or(|t| e.time >= t)
            && self.until.is_none_or(|t| e.time < t)
            && self
                .actor
                .as_ref()
                .is_none_or(|p| actor_matches(p, &e.actor))
    }

    /// [`Filter::matches`] on a borrowed reading of the line.
    pub fn matches_view(&self, e: &super::view::EventView<'_>) -> bool {
        use super::view::instant;
        self.cycle
            .as_ref()
            .is_none_or(|c| e.cycle.as_ref().is_some_and(|ours| ours.is(c)))
            && (self.events.is_empty() || self.events.iter().any(|k| e.event.is(k)))
            && self.since.is_none_or(|t| e.instant >= instant(&t))
            && self.until.is_none_or(|t| e.instant < instant(&t))
            && self
                .actor
                .as_ref()
                .is_none_or(|p| actor_matches(p, &e.actor()))
    }

    /// Sorts by `ts` then `id` (oldest first), keeps the matches, then the newest `limit`.
    pub fn apply(&self, mut events: Vec<Recorded>) -> Vec<Recorded> {
        events.retain(|e| self.matches(e));
        events.sort_by(|a, b| (a.time, &a.ts, &a.id).cmp(&(b.time, &b.ts, &b.id)));
        events.dedup_by(|a, b| a.line == b.line);
        if let Some(n) = self.limit {
            let skip = events.len().saturating_sub(n);
            events.drain(..skip);
        }
        events
    }
}

fn actor_matches(pattern: &str, actor: &str) -> bool {
    let (p, a) = (pattern.to_lowercase(), actor.to_lowercase());
    if p.contains(['*', '?']) {
        glob(p.as_bytes(), a.as_bytes())
    } else {
        a.contains(&p)
    }
}

/// git's wildmatch over the whole actor (`/` is an ordinary character
/// here): `*` any run, `?` one byte, `[...]` a class, `\\` an escape.
fn glob(p: &[u8], s: &[u8]) -> bool {
    gix_glob::wildmatch(p.into(), s.into(), gix_glob::wildmatch::Mode::empty())
}

/// Which end of a day a date-only bound means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// `--since 2026-12-01`: from the day's start.
    Start,
    /// `--until 2026-12-01`: up to the day's end (the next day's start, exclusive).
    End,
}

/// Parses `--since`/`--until`: RFC 3339 (`2026-12-01T09:00:00Z`,
/// `...+02:00`), `YYYY-MM-DDTHH:MM[:SS]` or `YYYY-MM-DD HH:MM[:SS]` in UTC,
/// or a date `YYYY-MM-DD` (UTC).
pub fn parse_time(text: &str, bound: Bound) -> Result<DateTime<Utc>, String> {
    let t = text.trim();
    if let Ok(d) = DateTime::parse_from_rfc3339(t) {
        return Ok(d.with_timezone(&Utc));
    }
    for format in [
        "%Y-%m-%dT%H:%M:%S",
        "%Y-%m-%d %H:%M:%S",
        "%Y-%m-%dT%H:%M",
        "%Y-%m-%d %H:%M",
    ] {
        if let Ok(d) = NaiveDateTime::parse_from_str(t, format) {
            return Ok(d.and_utc());
        }
    }
    if let Ok(day) = NaiveDate::parse_from_str(t, "%Y-%m-%d") {
        let day = match bound {
            Bound::Start => day,
            Bound::End => day.succ_opt().ok_or("the date is out of range")?,
        };
        return Ok(day.and_hms_opt(0, 0, 0).expect("midnight exists").and_utc());
    }
    Err(format!(
        "`{text}` is not a date: use YYYY-MM-DD, YYYY-MM-DDTHH:MM:SS (UTC) or RFC 3339 such as 2026-12-01T09:00:00+02:00"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::parse_line;

    fn event(ts: &str, id: &str, kind: &str, actor: &str, cycle: Option<&str>) -> Recorded {
        let mut v = serde_json::json!({"ts": ts, "id": id, "event": kind, "actor": actor});
        if let Some(c) = cycle {
            v["cycle"] = c.into();
        }
        parse_line(&v.to_string()).unwrap()
    }

    #[test]
    fn filters_combine_and_sort_oldest_first() {
        let all = vec![
            event(
                "2026-12-02T00:00:00.000000Z",
                "b",
                "reset",
                "Bob <b@x>",
                Some("c1"),
            ),
            event(
                "2026-12-01T00:00:00.000000Z",
                "a",
                "installed",
                "Ann <a@x>",
                None,
            ),
            event(
                "2026-12-03T00:00:00.000000Z",
                "c",
                "reset",
                "Ann <a@x>",
                Some("c2"),
            ),
        ];
        let ids = |f: Filter| {
            f.apply(all.clone())
                .into_iter()
                .map(|e| e.id)
                .collect::<Vec<_>>()
        };
        assert_eq!(ids(Filter::default()), ["a", "b", "c"]);
        assert_eq!(
            ids(Filter {
                cycle: Some("c1".into()),
                ..Default::default()
            }),
            ["b"]
        );
        assert_eq!(
            ids(Filter {
                events: vec!["reset".into()],
                ..Default::default()
            }),
            ["b", "c"]
        );
        assert_eq!(
            ids(Filter {
                actor: Some("ANN".into()),
                ..Default::default()
            }),
            ["a", "c"]
        );
        assert_eq!(
            ids(Filter {
                actor: Some("b*@x>".into()),
                ..Default::default()
            }),
            ["b"]
        );
        assert_eq!(
            ids(Filter {
                limit: Some(2),
                ..Default::default()
            }),
            ["b", "c"]
        );
        let since = parse_time("2026-12-02", Bound::Start).unwrap();
        let until = parse_time("2026-12-02", Bound::End).unwrap();
        assert_eq!(
            ids(Filter {
                since: Some(since),
                until: Some(until),
                ..Default::default()
            }),
            ["b"]
        );
    }

    #[test]
    fn times_parse_in_every_documented_form() {
        let want = parse_time("2026-12-01T09:00:00Z", Bound::Start).unwrap();
        assert_eq!(
            parse_time("2026-12-01T11:00:00+02:00", Bound::Start).unwrap(),
            want
        );
        assert_eq!(parse_time("2026-12-01 09:00", Bound::Start).unwrap(), want);
        assert!(parse_time("yesterday", Bound::Start).is_err());
    }

    #[test]
    fn glob_matches_like_a_shell() {
        assert!(glob(b"a*c", b"abbc"));
        assert!(glob(b"*", b""));
        assert!(!glob(b"a?c", b"ac"));
        assert!(glob(b"*b*", b"abc"));
        // An actor is not a path: `*` crosses `/`.
        assert!(glob(b"*/ci*", b"bot/ci <ci@example.com>"));
        // git's classes.
        assert!(glob(b"user[0-9] *", b"user7 <u7@example.com>"));
        assert!(!glob(b"user[0-9] *", b"userx <ux@example.com>"));
    }
}
