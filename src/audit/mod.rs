//! Audit events: what happened, to which cycle, from which commit. Each event
//! is one self-contained JSON line, timestamp first, so sorted-unique line
//! merges (`cat_sort_uniq`) are valid merges of two clones' trails. Storage in
//! git notes lives in `repo`.

use serde::{Deserialize, Serialize};

/// One audit event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    /// RFC 3339 UTC time; first so that sorting lines sorts by time.
    pub time: String,
    /// Unique per event (time plus random suffix).
    pub id: String,
    /// What happened, e.g. `install`, `cycle-issued`.
    pub action: String,
    /// The cycle concerned, if any.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub cycle: Option<String>,
    /// The commit the event concerns, if any.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub commit: Option<String>,
    /// Who acted (`name <email>`), or `unknown`.
    pub actor: String,
    /// A human description.
    pub summary: String,
}

impl Event {
    /// The event as one line of JSON without a trailing newline.
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).expect("an event always serialises")
    }

    pub fn from_line(line: &str) -> Result<Event, serde_json::Error> {
        serde_json::from_str(line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_round_trip_and_sort_by_time() {
        let a = Event {
            time: "2026-11-29T10:00:00Z".into(),
            id: "a".into(),
            action: "install".into(),
            cycle: None,
            commit: Some("abc".into()),
            actor: "unknown".into(),
            summary: "Installed".into(),
        };
        let mut b = a.clone();
        b.time = "2026-11-29T11:00:00Z".into();
        let (la, lb) = (a.to_line(), b.to_line());
        assert!(la.starts_with("{\"time\":"));
        assert!(la < lb);
        assert!(!la.contains('\n'));
        assert_eq!(Event::from_line(&la).unwrap(), a);
    }
}
