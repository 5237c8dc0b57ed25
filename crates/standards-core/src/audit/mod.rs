//! Audit events: what happened, to which cycle, from which commit (D16-D20).
//!
//! Each event is one canonical JSON line: compact, keys in a fixed order,
//! `ts` (RFC 3339 UTC with microseconds) first and a unique `id` second, so
//! that byte order equals time order and sorting lines and dropping duplicates
//! (git's `cat_sort_uniq`) is a valid merge of two clones' trails. Storage in
//! git notes lives in the binary (`git_standards::repo::notes`); this module is pure.

pub mod filter;
pub mod line;
pub mod order;
pub mod view;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

pub use filter::Filter;
pub use line::{merge_note_text, parse_line, parse_line_without_details, Recorded};

/// Defines [`EventKind`] with its kebab-case name and its description in one
/// place, so the enum, its serde names, [`EventKind::ALL`] and the manual's
/// schema cannot drift apart.
macro_rules! event_kinds {
    ($($(#[$meta:meta])* $variant:ident = $name:literal: $description:literal,)*) => {
        /// The type of an audit event (the `event` key), kebab-case.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        pub enum EventKind {
            $($(#[$meta])* #[serde(rename = $name)] $variant,)*
        }

        impl EventKind {
            /// Every event type, in the manual's order.
            pub const ALL: &'static [EventKind] = &[$(EventKind::$variant,)*];

            /// The name written in the `event` key.
            pub fn name(self) -> &'static str {
                match self { $(EventKind::$variant => $name,)* }
            }

            /// What the event records, and its own keys: one sentence for the manual.
            pub fn description(self) -> &'static str {
                match self { $(EventKind::$variant => $description,)* }
            }
        }
    };
}

event_kinds! {
    Installed = "installed": "the runtime was installed for the first time; keys: version, mode, created (paths), config (the git settings it set).",
    Upgraded = "upgraded": "the runtime was upgraded or reinstalled over an existing one; keys: from (`node <version>` over the Node runtime), version, changed (paths), migrated (what an upgrade from an older Node release migrated, one line each: STATE.md fields added, cycle records moved), config.",
    CycleIdIssued = "cycle-id-issued": "`cycle new` issued a cycle ID; keys: request.",
    RecordCreated = "record-created": "`artifact init` created a cycle record; keys: path, blob (its git blob ID), type, state_field (the `Active Work` field it wrote the path to, when it did).",
    RecordEdited = "record-edited": "`record add` or `record set` changed a cycle record's structure; keys: path, item (the `PREFIX-NNN` added or changed, null for the header), edit (`add` or `set`), title (of an added item), changes (each `{field, old, new}`; old is null for a field that was not there).",
    RecordPathRecorded = "record-path-recorded": "`artifact init` wrote an existing record's path into its empty `Active Work` field; keys: path, type, state_field.",
    CheckFailed = "check-failed": "a hook's check found problems; keys: hook, source, problems (count), rules.",
    ConflictRefused = "conflict-refused": "a command refused to work on unresolved merge conflicts; keys: reason, rule, command.",
    Reset = "reset": "the cycle state was reset to a fresh installation; keys: archive (ref), archive_commit.",
    Archived = "archived": "the `.standards/` tree was committed under an archive ref; keys: ref, archive_commit, operation.",
    Uninstalled = "uninstalled": "the runtime was removed; keys: archive (ref), archive_commit.",
    ArchiveRestored = "archive-restored": "`archive restore` wrote archived files back into the working tree; keys: archive, archive_commit, paths.",
    Recovered = "recovered": "an interrupted multi-file write was completed or rolled back; keys: operation, outcome.",
    MergeRefused = "merge-refused": "the merge guard refused a merge into a protected branch; keys: reason, rule, branch, target.",
    ConflictResolved = "conflict-resolved": "the user resolved a STATE.md conflict (user authority); keys: path, choice.",
    HooksInstalled = "hooks-installed": "git hooks were installed; keys: hooks.",
    HooksUninstalled = "hooks-uninstalled": "git hooks were removed; keys: hooks.",
    CycleStarted = "cycle-started": "a cycle began; keys: request, mode.",
    HandedOff = "handed-off": "one role handed the cycle to the next; keys: from, to.",
    Failed = "failed": "a role reported a failure and the cycle moved to recovery; keys: failure_type, reason.",
    ReworkRequested = "rework-requested": "a role sent work back for rework; keys: to, reason.",
    Resumed = "resumed": "a recovery frame ended and the cycle resumed; keys: resume_at.",
    Promoted = "promoted": "the cycle mode was promoted; keys: from, to, reason.",
    PolicyChanged = "policy-changed": "the completion policy changed (user authority); keys: from, to.",
    CadenceChanged = "cadence-changed": "the verification cadence changed; keys: from, to.",
    SignedOff = "signed-off": "the user signed the cycle off (user authority).",
    Cancelled = "cancelled": "the user cancelled the cycle (user authority); keys: reason.",
    Blocked = "blocked": "the cycle is blocked on a question; keys: question.",
    Unblocked = "unblocked": "the blocking question was answered; keys: answer.",
    NextModeChosen = "next-mode-chosen": "the user chose or withdrew the next cycle's mode (user authority); keys: from, to (`PendingCycleMode` before and after), request_blocked (whether a saved request still waits).",
    ClientsInstalled = "clients-installed": "agent client files were installed; keys: clients, paths.",
    HumanTurn = "human-turn": "a person submitted a prompt to an agent client (its prompt hook); keys: client, session, workflow_state, prompt (only with git config `standards.recordPrompts`).",
}

impl std::fmt::Display for EventKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for EventKind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        EventKind::ALL
            .iter()
            .copied()
            .find(|k| k.name() == s)
            .ok_or_else(|| format!("`{s}` is not an event type"))
    }
}

/// The keys every event line has, in their fixed order. Event-specific keys follow.
pub const COMMON_KEYS: &[&str] = &[
    "ts", "id", "event", "actor", "tool", "cycle", "state", "commit", "argv",
];

/// A workflow state change: `{"before": ..., "after": ...}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StateChange {
    pub before: String,
    pub after: String,
}

/// An event as a command builds it. The append fills in the stamp (time, id,
/// actor, tool, commit, argv): callers never do.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    pub kind: EventKind,
    pub cycle: Option<String>,
    pub state: Option<StateChange>,
    /// Event-specific keys, in the order they were added.
    pub details: Vec<(String, Value)>,
}

impl Event {
    pub fn new(kind: EventKind) -> Event {
        Event {
            kind,
            cycle: None,
            state: None,
            details: Vec::new(),
        }
    }

    /// The cycle the event concerns; its trail hangs on that cycle's anchor.
    pub fn cycle(mut self, id: impl Into<String>) -> Event {
        self.cycle = Some(id.into());
        self
    }

    /// The workflow state before and after; dropped when it did not change.
    pub fn state_change(mut self, before: impl Into<String>, after: impl Into<String>) -> Event {
        let (before, after) = (before.into(), after.into());
        self.state = (before != after).then_some(StateChange { before, after });
        self
    }

    /// An event-specific key. A key the stamp owns (`ts`, `id`, ...) is
    /// ignored: it would break the fixed order.
    pub fn detail(mut self, key: impl Into<String>, value: impl Into<Value>) -> Event {
        let key = key.into();
        debug_assert!(
            !COMMON_KEYS.contains(&key.as_str()),
            "`{key}` is a common key"
        );
        if COMMON_KEYS.contains(&key.as_str()) {
            return self;
        }
        let value = value.into();
        match self.details.iter_mut().find(|(k, _)| *k == key) {
            Some(slot) => slot.1 = value,
            None => self.details.push((key, value)),
        }
        self
    }

    /// The event as a JSON object, keys in canonical order.
    pub fn to_json(&self, stamp: &Stamp) -> Value {
        let mut map = Map::new();
        map.insert("ts".into(), stamp.ts.clone().into());
        map.insert("id".into(), stamp.id.clone().into());
        map.insert("event".into(), self.kind.name().into());
        map.insert("actor".into(), stamp.actor.clone().into());
        map.insert("tool".into(), stamp.tool.clone().into());
        if let Some(cycle) = &self.cycle {
            map.insert("cycle".into(), cycle.clone().into());
        }
        if let Some(state) = &self.state {
            map.insert(
                "state".into(),
                serde_json::json!({"before": state.before, "after": state.after}),
            );
        }
        map.insert(
            "commit".into(),
            stamp.commit.clone().map_or(Value::Null, Value::from),
        );
        map.insert("argv".into(), stamp.argv.clone().into());
        for (key, value) in &self.details {
            map.insert(key.clone(), value.clone());
        }
        Value::Object(map)
    }

    /// The canonical line, without a trailing newline. Compact JSON escapes
    /// every control character, so a value never breaks the line.
    pub fn to_line(&self, stamp: &Stamp) -> String {
        serde_json::to_string(&self.to_json(stamp)).expect("a JSON value always serialises")
    }
}

/// What the append adds to every event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stamp {
    /// RFC 3339 UTC with microseconds, e.g. `2026-12-01T09:04:53.123456Z`.
    pub ts: String,
    /// Unique per event: 16 random hex digits.
    pub id: String,
    /// `Name <email>` from git's configuration, or `unknown` (D18).
    pub actor: String,
    /// `git-standards <version>`.
    pub tool: String,
    /// HEAD's commit ID, `None` on an unborn HEAD.
    pub commit: Option<String>,
    /// The command line, program name excluded.
    pub argv: Vec<String>,
}

/// The `ts` form of a time: RFC 3339, UTC, exactly six fraction digits, `Z`.
pub fn format_ts(time: chrono::DateTime<chrono::Utc>) -> String {
    time.format("%Y-%m-%dT%H:%M:%S%.6fZ").to_string()
}

/// The tool's name and version, as the `tool` key writes it.
pub fn tool() -> String {
    format!("git-standards {}", env!("CARGO_PKG_VERSION"))
}

/// The manual's description of the event line, generated from [`EventKind`]
/// so that the prose cannot drift from the code.
pub fn schema_help() -> String {
    let mut text = String::from(
        "EVENT SCHEMA\n\n\
         Every event is one line of compact JSON; keys come in this order:\n\n\
         ts: the time, RFC 3339 UTC with microseconds (2026-12-01T09:04:53.123456Z); first, so that sorting lines sorts by time.\n\n\
         id: 16 random hex digits, unique per event.\n\n\
         event: the event type (below).\n\n\
         actor: `Name <email>` from git's user.name and user.email, or `unknown`.\n\n\
         tool: `git-standards <version>`.\n\n\
         cycle: the cycle ID, when the event concerns a cycle (absent otherwise).\n\n\
         state: {\"before\", \"after\"}: the workflow state, when it changed (absent otherwise).\n\n\
         commit: HEAD's commit ID at the time, null on an unborn HEAD.\n\n\
         argv: the command line, as an array of strings.\n\n\
         Then the keys of the event type. Events hang in git notes under refs/notes/standards on content-addressed anchors: one blob per cycle, derived from the cycle ID alone, and one for the project. The notes, and the anchors folder of the notes tree that keeps every anchor reachable, fan out into two-digit folders as git's own notes do, so `git notes --ref=standards show <anchor>` reads any of them; after a write, `git gc --auto` runs when git would run it (gc.auto; 0 turns it off).\n\n\
         EVENT TYPES\n",
    );
    for kind in EventKind::ALL {
        text.push_str(&format!("\n{}: {}\n", kind.name(), kind.description()));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stamp() -> Stamp {
        Stamp {
            ts: "2026-12-01T09:04:53.123456Z".into(),
            id: "0123456789abcdef".into(),
            actor: "Ann <ann@example.com>".into(),
            tool: "git-standards 0.1.0".into(),
            commit: None,
            argv: vec!["install".into()],
        }
    }

    #[test]
    fn lines_have_the_canonical_key_order() {
        let line = Event::new(EventKind::RecordCreated)
            .detail("path", "a\nb.md")
            .cycle("c-1")
            .state_change("AUDITING", "SCOPING")
            .to_line(&stamp());
        assert_eq!(
            line,
            r#"{"ts":"2026-12-01T09:04:53.123456Z","id":"0123456789abcdef","event":"record-created","actor":"Ann <ann@example.com>","tool":"git-standards 0.1.0","cycle":"c-1","state":{"before":"AUDITING","after":"SCOPING"},"commit":null,"argv":["install"],"path":"a\nb.md"}"#
        );
        assert!(!line.contains('\n'));
    }

    #[test]
    fn unchanged_state_and_common_detail_keys_are_dropped() {
        let e = Event::new(EventKind::Reset).state_change("X", "X");
        assert_eq!(e.state, None);
        let e = Event::new(EventKind::Reset)
            .detail("archive", "a")
            .detail("archive", "b");
        assert_eq!(e.details, vec![("archive".to_string(), Value::from("b"))]);
    }

    #[test]
    fn kind_names_are_the_kebab_case_serde_names() {
        for kind in EventKind::ALL {
            let json = serde_json::to_string(kind).unwrap();
            assert_eq!(json, format!("\"{}\"", kind.name()));
            let variant = format!("{kind:?}");
            let mut kebab = String::new();
            for (i, c) in variant.chars().enumerate() {
                if c.is_ascii_uppercase() && i > 0 {
                    kebab.push('-');
                }
                kebab.push(c.to_ascii_lowercase());
            }
            assert_eq!(kebab, kind.name());
            assert_eq!(kind.name().parse::<EventKind>().unwrap(), *kind);
        }
    }

    #[test]
    fn schema_lists_every_kind_and_every_common_key() {
        let help = schema_help();
        for kind in EventKind::ALL {
            assert!(help.contains(&format!("\n{}: ", kind.name())), "{kind}");
        }
        for key in COMMON_KEYS {
            assert!(help.contains(&format!("\n{key}: ")), "{key}");
        }
    }

    #[test]
    fn ts_has_microseconds_and_sorts_as_time() {
        use chrono::TimeZone;
        let t = chrono::Utc.with_ymd_and_hms(2026, 12, 1, 9, 4, 53).unwrap();
        assert_eq!(format_ts(t), "2026-12-01T09:04:53.000000Z");
        let later = t + chrono::Duration::microseconds(7);
        assert_eq!(format_ts(later), "2026-12-01T09:04:53.000007Z");
        assert!(format_ts(t) < format_ts(later));
    }
}
