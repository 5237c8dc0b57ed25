//! The order `git standards log` prints a trail in: every line of every
//! note keyed by its time, then `ts` and `id` as written (the order
//! [`Filter::apply`](super::Filter::apply) gives parsed events), equal keys
//! in stored order, and the notes merged oldest line first.
//!
//! A first reading keys each note as it is read and keeps the texts that
//! fit in a budget (the caller's); the others are dropped once keyed. The
//! merge then opens a note when the output reaches its oldest line (a
//! dropped text is read again by the caller) and lets it go after its
//! last, so memory is the budget, the notes whose lines interleave with the
//! line being printed, and a few bytes per note: not the trail's length.
//! A line is keyed from its leading `ts` and `id` without being parsed; only
//! a line in another form than the tool's goes through the full parser.

use chrono::{DateTime, Utc};

use super::line::parse_bytes;
use super::view::{fast_instant, instant, Instant};

/// Where a line sits in its note and how it sorts: by time, then `ts` and
/// `id` as written (the order [`Filter::apply`] gives parsed events), then
/// by note and line (stored order).
struct Key {
    time: Instant,
    /// 0-based line number inside the note.
    line: u32,
    /// The line's bytes inside the note's text.
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

impl Key {
    /// The `ts` and `id` of this key's line, `raw`.
    fn tie<'a>(&'a self, raw: &'a [u8]) -> (&'a [u8], &'a [u8]) {
        match &self.tie {
            Tie::Raw { ts, id } => (
                &raw[ts.0 as usize..ts.1 as usize],
                &raw[id.0 as usize..id.1 as usize],
            ),
            Tie::Parsed(p) => (p.0.as_bytes(), p.1.as_bytes()),
        }
    }
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

/// The keys of the lines of one note's `text`, in stored order; a line that
/// cannot even be keyed (not an event) goes to `bad` with its problem.
fn key_lines(text: &[u8], mut bad: impl FnMut(u32, String)) -> Vec<Key> {
    let mut keys = Vec::new();
    // The lines `split(b'\n')` gives, found with a vectorised search (a
    // byte-at-a-time scan was a tenth of the run).
    let ends = memchr::memchr_iter(b'\n', text).chain(std::iter::once(text.len()));
    let mut start = 0;
    for (i, end) in ends.enumerate() {
        let raw = &text[start..end];
        let at = start;
        start = end + 1;
        if raw.is_empty() {
            continue;
        }
        let fast = canonical_prefix(raw).and_then(|(ts, id)| {
            let text = &raw[ts.0..ts.1];
            let time = match fast_instant(text) {
                Some(t) => t,
                None => instant(
                    &DateTime::parse_from_rfc3339(std::str::from_utf8(text).ok()?)
                        .ok()?
                        .with_timezone(&Utc),
                ),
            };
            Some((time, ts, id))
        });
        let (time, tie) = match fast {
            Some((time, ts, id)) => (
                time,
                Tie::Raw {
                    ts: (ts.0 as u32, ts.1 as u32),
                    id: (id.0 as u32, id.1 as u32),
                },
            ),
            None => match parse_bytes(raw) {
                Ok(e) => (instant(&e.time), Tie::Parsed(Box::new((e.ts, e.id)))),
                Err(problem) => {
                    bad(i as u32, problem);
                    continue;
                }
            },
        };
        keys.push(Key {
            time,
            line: i as u32,
            start: at,
            end,
            tie,
        });
    }
    keys
}

/// Sorts one note's keys: oldest first, equal keys in stored order.
fn sort_keys(keys: &mut [Key], text: &[u8]) {
    keys.sort_by(|a, b| {
        a.time.cmp(&b.time).then_with(|| {
            a.tie(&text[a.start..a.end])
                .cmp(&b.tie(&text[b.start..b.end]))
        })
    });
}

/// One note after the first reading.
struct NoteEntry<Id> {
    annotated: Id,
    /// The time of its oldest line (`None`: no line to print).
    first: Option<Instant>,
    body: Body<Id>,
}

enum Body<Id> {
    /// Its text sits at this range of the kept texts; its keys, sorted.
    Kept(std::ops::Range<usize>, Vec<Key>),
    /// Its text was dropped: read this blob again.
    Dropped(Id),
    /// Opened by [`Trail::in_order`].
    Taken,
}

/// A trail after its first reading: every note with the time of its
/// oldest line, the texts that fit in the budget with their keys.
pub struct Trail<Id> {
    notes: Vec<NoteEntry<Id>>,
    kept: Vec<u8>,
    /// Lines that could not be read at all (found while keying): note, line, problem.
    pub bad: Vec<(u32, u32, String)>,
}

/// What a first reading of a trail hands over: every note as (annotated
/// object, note blob), in the order notes are numbered, and the texts kept.
pub struct Listed<Id> {
    pub notes: Vec<(Id, Id)>,
    pub kept: Vec<u8>,
}

/// What the first reading saw of a note: its place among the listed
/// notes, the time of its oldest line, and its text's range and sorted
/// keys if it was kept.
struct Seen {
    place: usize,
    first: Option<Instant>,
    kept: Option<(std::ops::Range<usize>, Vec<Key>)>,
}

/// A note being printed: its sorted keys, the next one, and its text.
struct Cursor {
    note: u32,
    keys: Vec<Key>,
    next: usize,
    text: Text,
}

enum Text {
    /// At this offset of the kept texts.
    Kept(usize),
    /// Read again.
    Read(Vec<u8>),
}

impl Cursor {
    fn key(&self) -> &Key {
        &self.keys[self.next]
    }

    /// The next line's bytes.
    fn raw<'a>(&'a self, kept: &'a [u8]) -> &'a [u8] {
        let k = self.key();
        match &self.text {
            Text::Kept(at) => &kept[at + k.start..at + k.end],
            Text::Read(text) => &text[k.start..k.end],
        }
    }

    /// Whether this cursor's next line comes before `other`'s.
    fn before(&self, other: &Cursor, kept: &[u8]) -> bool {
        let (a, b) = (self.key(), other.key());
        a.time
            .cmp(&b.time)
            .then_with(|| a.tie(self.raw(kept)).cmp(&b.tie(other.raw(kept))))
            .then_with(|| (self.note, a.line).cmp(&(other.note, b.line)))
            .is_lt()
    }
}

/// A binary min-heap of cursor slots, ordered by `less`.
fn heap_push(heap: &mut Vec<usize>, slot: usize, less: impl Fn(usize, usize) -> bool) {
    heap.push(slot);
    let mut i = heap.len() - 1;
    while i > 0 {
        let parent = (i - 1) / 2;
        if !less(heap[i], heap[parent]) {
            break;
        }
        heap.swap(i, parent);
        i = parent;
    }
}

fn heap_pop(heap: &mut Vec<usize>, less: impl Fn(usize, usize) -> bool) -> Option<usize> {
    let last = heap.pop()?;
    let Some(&top) = heap.first() else {
        return Some(last);
    };
    heap[0] = last;
    let mut i = 0;
    loop {
        let (l, r) = (2 * i + 1, 2 * i + 2);
        let mut least = i;
        if l < heap.len() && less(heap[l], heap[least]) {
            least = l;
        }
        if r < heap.len() && less(heap[r], heap[least]) {
            least = r;
        }
        if least == i {
            break;
        }
        heap.swap(i, least);
        i = least;
    }
    Some(top)
}

impl<Id: Copy> Trail<Id> {
    /// The trail from the notes `listed` (annotated object, blob), and
    /// what the first reading saw of each: `(place in listed, text, where
    /// it sits in `kept` if kept)`, handed over by `read`.
    pub fn read<E>(
        read: impl FnOnce(&mut dyn FnMut(usize, &[u8], Option<usize>)) -> Result<Listed<Id>, E>,
    ) -> Result<Trail<Id>, E> {
        let mut seen: Vec<Seen> = Vec::new();
        let mut bad = Vec::new();
        let Listed {
            notes: listed,
            kept,
        } = read(&mut |i, text, at| {
            let mut keys = key_lines(text, |line, problem| bad.push((i as u32, line, problem)));
            let first = keys.iter().map(|k| k.time).min();
            let kept = at.map(|at| {
                sort_keys(&mut keys, text);
                (at..at + text.len(), keys)
            });
            seen.push(Seen {
                place: i,
                first,
                kept,
            });
        })?;
        let mut notes: Vec<NoteEntry<Id>> = listed
            .iter()
            .map(|(annotated, blob)| NoteEntry {
                annotated: *annotated,
                first: None,
                body: Body::Dropped(*blob),
            })
            .collect();
        for seen in seen {
            let entry = &mut notes[seen.place];
            entry.first = seen.first;
            if let Some((range, keys)) = seen.kept {
                entry.body = Body::Kept(range, keys);
            }
        }
        Ok(Trail { notes, kept, bad })
    }

    /// Whether the trail has no note at all.
    pub fn is_empty(&self) -> bool {
        self.notes.is_empty()
    }

    /// The object note `note` annotates.
    pub fn annotated(&self, note: u32) -> Id {
        self.notes[note as usize].annotated
    }

    /// Hands every keyed line to `each` (note, line, bytes), oldest first,
    /// equal keys in stored order: a merge of the notes, each opened when
    /// the output reaches its oldest line (a dropped text read again with
    /// `reread`) and let go after its last. Returns the most notes open at
    /// once.
    pub fn in_order<E>(
        &mut self,
        mut reread: impl FnMut(Id) -> Result<Vec<u8>, E>,
        mut each: impl FnMut(u32, u32, &[u8]) -> Result<(), E>,
    ) -> Result<usize, E> {
        let mut order: Vec<(Instant, u32)> = self
            .notes
            .iter()
            .enumerate()
            .filter_map(|(n, e)| Some((e.first?, n as u32)))
            .collect();
        order.sort_unstable();
        let kept = std::mem::take(&mut self.kept);
        let mut cursors: Vec<Cursor> = Vec::new();
        let mut free: Vec<usize> = Vec::new();
        let mut heap: Vec<usize> = Vec::new();
        let mut pending = order.into_iter().peekable();
        let mut most_open = 0;
        loop {
            // Open every note whose oldest line may come before the next
            // line of those open (at an equal time too: `id` decides).
            while let Some(&(first, note)) = pending.peek() {
                if heap
                    .first()
                    .is_some_and(|&top| first > cursors[top].key().time)
                {
                    break;
                }
                pending.next();
                let entry = &mut self.notes[note as usize];
                let (keys, text) = match std::mem::replace(&mut entry.body, Body::Taken) {
                    Body::Kept(range, keys) => (keys, Text::Kept(range.start)),
                    Body::Dropped(blob) => {
                        let text = reread(blob)?;
                        // Its bad lines were reported by the first reading.
                        let mut keys = key_lines(&text, |_, _| {});
                        sort_keys(&mut keys, &text);
                        (keys, Text::Read(text))
                    }
                    Body::Taken => continue,
                };
                if keys.is_empty() {
                    continue;
                }
                let cursor = Cursor {
                    note,
                    keys,
                    next: 0,
                    text,
                };
                let slot = match free.pop() {
                    Some(slot) => {
                        cursors[slot] = cursor;
                        slot
                    }
                    None => {
                        cursors.push(cursor);
                        cursors.len() - 1
                    }
                };
                heap_push(&mut heap, slot, |a, b| {
                    cursors[a].before(&cursors[b], &kept)
                });
                most_open = most_open.max(heap.len());
            }
            let Some(slot) = heap_pop(&mut heap, |a, b| cursors[a].before(&cursors[b], &kept))
            else {
                break;
            };
            let cursor = &cursors[slot];
            each(cursor.note, cursor.key().line, cursor.raw(&kept))?;
            let cursor = &mut cursors[slot];
            cursor.next += 1;
            if cursor.next < cursor.keys.len() {
                heap_push(&mut heap, slot, |a, b| {
                    cursors[a].before(&cursors[b], &kept)
                });
            } else {
                // Done: its text goes now, not at the end.
                cursor.keys = Vec::new();
                cursor.text = Text::Read(Vec::new());
                free.push(slot);
            }
        }
        self.kept = kept;
        Ok(most_open)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::{Filter, Recorded};

    /// A test note's annotated object, and its blob.
    type Id = u32;

    fn note(notes: &mut Vec<(Id, Vec<u8>)>, lines: &[&str]) {
        let mut text = lines.join("\n").into_bytes();
        text.push(b'\n');
        let id = notes.len() as u32 + 1;
        notes.push((id, text));
    }

    /// Lines as printed: note, line, bytes.
    type Printed = Vec<(u32, u32, Vec<u8>)>;

    /// The blob a test note is stored in.
    fn blob_of(annotated: &Id) -> Id {
        annotated + 1000
    }

    /// `notes` read as [`read`] reads a trail (in `visit_order`, texts kept
    /// while under `budget` bytes), then every line in the printed order,
    /// and the lines set aside as bad (note, line).
    fn in_order(
        notes: &[(Id, Vec<u8>)],
        visit_order: &[usize],
        budget: usize,
    ) -> (Printed, Vec<(u32, u32)>) {
        let (lines, bad, _, _) = in_order_counted(notes, visit_order, budget);
        (lines, bad)
    }

    /// [`in_order`], with the most notes open at once and how many texts
    /// were read again.
    fn in_order_counted(
        notes: &[(Id, Vec<u8>)],
        visit_order: &[usize],
        budget: usize,
    ) -> (Printed, Vec<(u32, u32)>, usize, usize) {
        let mut trail = Trail::read(|visit| {
            let mut kept = Vec::new();
            for &i in visit_order {
                let text = &notes[i].1;
                if kept.len() < budget {
                    let at = kept.len();
                    kept.extend_from_slice(text);
                    visit(i, &kept[at..], Some(at));
                } else {
                    visit(i, text, None);
                }
            }
            let listed = notes.iter().map(|(a, _)| (*a, blob_of(a))).collect();
            Ok::<_, ()>(Listed {
                notes: listed,
                kept,
            })
        })
        .unwrap();
        let mut reads = 0;
        let mut got = Vec::new();
        let most_open = trail
            .in_order(
                |blob| {
                    reads += 1;
                    let (_, text) = notes.iter().find(|(a, _)| blob_of(a) == blob).unwrap();
                    Ok::<_, ()>(text.clone())
                },
                |n, line, raw| {
                    got.push((n, line, raw.to_vec()));
                    Ok(())
                },
            )
            .unwrap();
        let kept_all = notes.iter().map(|n| n.1.len()).sum::<usize>() <= budget;
        assert!(!kept_all || reads == 0, "a kept text was read again");
        let mut bad: Vec<(u32, u32)> = trail.bad.iter().map(|b| (b.0, b.1)).collect();
        bad.sort();
        (got, bad, most_open, reads)
    }

    /// A trail of cycles one after another (and a project note spanning
    /// them), none of it kept: each note is read again once, and at most
    /// the project note and one cycle's are open at once, so memory does
    /// not grow with the trail.
    #[test]
    fn a_trail_of_successive_cycles_is_printed_two_notes_at_a_time() {
        let mut notes = Vec::new();
        let mut project = Vec::new();
        for cycle in 0..40 {
            let lines: Vec<String> = (0..10)
                .map(|i| {
                    format!(
                        r#"{{"ts":"2026-12-01T{:02}:{:02}:{i:02}Z","id":"{cycle}-{i}","event":"x"}}"#,
                        cycle / 60 + 1,
                        cycle % 60
                    )
                })
                .collect();
            let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
            note(&mut notes, &refs);
            if cycle % 10 == 0 {
                project.push(format!(
                    r#"{{"ts":"2026-12-01T{:02}:{:02}:05Z","id":"p{cycle}","event":"y"}}"#,
                    cycle / 60 + 1,
                    cycle % 60
                ));
            }
        }
        let refs: Vec<&str> = project.iter().map(String::as_str).collect();
        note(&mut notes, &refs);
        let order: Vec<usize> = (0..notes.len()).rev().collect();
        let (all, _, most_open, reads) = in_order_counted(&notes, &order, usize::MAX);
        assert_eq!((all.len(), reads), (404, 0));
        let (lines, bad, most_open_dropped, reads) = in_order_counted(&notes, &order, 0);
        assert_eq!(lines, all);
        assert!(bad.is_empty());
        assert_eq!(reads, notes.len());
        assert_eq!((most_open, most_open_dropped), (2, 2));
    }

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

    /// The merged order is the order `Filter::apply` gives the parsed
    /// events, whatever form the lines take, whichever texts were kept,
    /// and bad lines are set aside once.
    #[test]
    fn merged_order_is_the_parsed_order() {
        let mut notes = Vec::new();
        note(
            &mut notes,
            &[
                r#"{"ts":"2026-12-01T09:00:00.000001Z","id":"b","event":"x"}"#,
                r#"{"ts":"2026-12-01T09:00:02Z","id":"c","event":"x"}"#,
                "not json",
                r#"{"ts":"2026-12-01T11:00:01+02:00","id":"d","event":"x"}"#,
            ],
        );
        note(
            &mut notes,
            &[
                r#"{"ts":"2026-12-01T09:00:00.000001Z","id":"a","event":"x"}"#,
                r#"{ "ts":"2026-12-01T09:00:00.000000Z","id":"e","event":"x"}"#,
                r#"{"ts":"2026-12-01T09:00:03.000000Z","id":"f\u0067","event":"x"}"#,
                r#"{"ts":"yesterday","id":"g","event":"x"}"#,
            ],
        );
        let parsed: Vec<Recorded> = notes
            .iter()
            .flat_map(|n| n.1.split(|b| *b == b'\n'))
            .filter_map(|l| parse_bytes(l).ok())
            .collect();
        let want: Vec<String> = Filter::default()
            .apply(parsed)
            .into_iter()
            .map(|e| e.id)
            .collect();
        assert_eq!(want, ["e", "a", "b", "d", "c", "fg"]);
        for budget in [0, 1, usize::MAX] {
            for order in [[0, 1], [1, 0]] {
                let (lines, bad) = in_order(&notes, &order, budget);
                let got: Vec<String> = lines
                    .iter()
                    .map(|(_, _, raw)| parse_bytes(raw).unwrap().id)
                    .collect();
                assert_eq!(got, want, "budget {budget}, order {order:?}");
                assert_eq!(bad, [(0, 2), (1, 3)]);
            }
        }
    }

    /// Lines are found and numbered as stored: blank lines count, and a
    /// last line without its newline is read too.
    #[test]
    fn lines_are_numbered_as_stored() {
        let line = br#"{"ts":"2026-12-01T09:00:00Z","id":"a","event":"x"}"#;
        let mut text = b"\nbad one\n\n".to_vec();
        text.extend_from_slice(line);
        text.extend_from_slice(b"\nbad two");
        let notes = vec![(1, text), (2, b"bad three\n".to_vec())];
        for budget in [0, usize::MAX] {
            let (lines, bad) = in_order(&notes, &[0, 1], budget);
            assert_eq!(bad, [(0, 1), (0, 4), (1, 0)]);
            assert_eq!(lines, [(0, 3, line.to_vec())]);
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            cases: 128,
            failure_persistence: None,
            ..Default::default()
        })]

        /// Any notes, any lines (times that repeat and interleave across
        /// notes, other offsets, hand-edited order), read in any order with
        /// any budget: the merge prints what one stable sort of every line
        /// by (time, `ts`, `id`) gives, each line once.
        #[test]
        fn the_merge_is_one_stable_sort(
            notes in proptest::collection::vec(
                proptest::collection::vec((0u8..6, 0u8..3, 0u8..4, proptest::bool::ANY), 0..12),
                1..7,
            ),
            budget in 0usize..2000,
            reverse in proptest::bool::ANY,
        ) {
            let texts: Vec<(Id, Vec<u8>)> = notes
                .iter()
                .enumerate()
                .map(|(n, lines)| {
                    let mut text = Vec::new();
                    for (second, zone, id, bad) in lines {
                        let line = match (bad, zone) {
                            (true, _) => "{broken".to_string(),
                            (false, 0) => format!(r#"{{"ts":"2026-12-01T09:00:0{second}Z","id":"{id}","event":"x"}}"#),
                            (false, 1) => format!(r#"{{"ts":"2026-12-01T11:00:0{second}+02:00","id":"{id}","event":"x"}}"#),
                            (false, _) => format!(r#"{{ "id":"{id}", "ts":"2026-12-01T09:00:0{second}.000Z", "event":"x"}}"#),
                        };
                        text.extend_from_slice(line.as_bytes());
                        text.push(b'\n');
                    }
                    (n as u32 + 1, text)
                })
                .collect();
            let mut want: Vec<(Instant, String, String, u32, u32, Vec<u8>)> = Vec::new();
            for (n, (_, text)) in texts.iter().enumerate() {
                for (i, raw) in text.split(|b| *b == b'\n').enumerate() {
                    if let Ok(e) = parse_bytes(raw) {
                        want.push((instant(&e.time), e.ts, e.id, n as u32, i as u32, raw.to_vec()));
                    }
                }
            }
            want.sort();
            let want: Vec<(u32, u32, Vec<u8>)> =
                want.into_iter().map(|w| (w.3, w.4, w.5)).collect();
            let mut order: Vec<usize> = (0..texts.len()).collect();
            if reverse {
                order.reverse();
            }
            let (got, _) = in_order(&texts, &order, budget);
            proptest::prop_assert_eq!(got, want);
        }
    }
}
