//! Verdicts on file content, keyed by content ID ([`Tree::content_id`]), that
//! the scans of a check share: within one run (`verify` checks many commits
//! holding mostly the same files), and from one run to the next, since a
//! blob's content never changes under its ID (issue 14). Two verdicts carry
//! over: a Markdown file is *plain* (it opens with no provenance block), and
//! a `.standards/` file is *unmarked* (it holds no conflict markers). Only
//! these, because each needs nothing but the answer; a record's parse is
//! kept for the run alone, as is the parse of STATE.md (a commit's STATE.md
//! is the next commit's comparison side, so `verify` would parse each one
//! twice).
//!
//! [`Tree::content_id`]: crate::model::tree::Tree::content_id

use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use crate::model::state::{StateDoc, StateError};
use crate::records::scan::Verdict;

/// A parse of STATE.md kept for the run: the text it was parsed from, and
/// what the parse gave.
type StateParse = Rc<(String, Result<StateDoc, StateError>)>;

/// How many STATE.md parses a run keeps (a range walks them one after the
/// other, so the last few are the ones met again); past this the memo
/// starts over, so memory stays bounded however long the range.
const STATE_PARSES: usize = 16;

/// Which version of the tests a stored verdict came from: bump it whenever
/// `provenance::opens_block`, `provenance::opening_undecided`,
/// `scan::OPENING_BYTES` or `conflicts::has_markers` could judge some content
/// differently, so verdicts stored by an older binary are dropped, not trusted.
pub const VERDICT_VERSION: u32 = 1;

/// Equal-length content IDs, sorted, in one buffer (looked up by binary
/// search, with no allocation per ID).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct IdSet {
    id_len: usize,
    ids: Vec<u8>,
}

impl IdSet {
    /// The set of `ids` (`id_len` bytes each, back to back); `None` unless the
    /// buffer holds whole IDs in strictly ascending order.
    pub fn from_sorted(id_len: usize, ids: Vec<u8>) -> Option<Self> {
        if id_len == 0 || !ids.len().is_multiple_of(id_len) {
            return None;
        }
        let ascending = ids
            .chunks_exact(id_len)
            .zip(ids.chunks_exact(id_len).skip(1))
            .all(|(a, b)| a < b);
        ascending.then_some(Self { id_len, ids })
    }

    /// The set of `ids` of length `id_len` (others are left out), in any order.
    fn collect<'a>(id_len: usize, ids: impl Iterator<Item = &'a [u8]>) -> Self {
        let mut ids: Vec<&[u8]> = ids.filter(|id| id.len() == id_len).collect();
        ids.sort_unstable();
        ids.dedup();
        Self {
            id_len,
            ids: ids.into_iter().flatten().copied().collect(),
        }
    }

    pub fn len(&self) -> usize {
        self.ids.len().checked_div(self.id_len).unwrap_or(0)
    }

    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    pub fn contains(&self, id: &[u8]) -> bool {
        self.position(id).is_some()
    }

    /// Where `id` stands in the set's order, if it is in it.
    fn position(&self, id: &[u8]) -> Option<usize> {
        if id.len() != self.id_len {
            return None;
        }
        let at = |i: usize| &self.ids[i * self.id_len..(i + 1) * self.id_len];
        let (mut low, mut high) = (0, self.len());
        while low < high {
            let mid = low + (high - low) / 2;
            match at(mid).cmp(id) {
                std::cmp::Ordering::Less => low = mid + 1,
                std::cmp::Ordering::Greater => high = mid,
                std::cmp::Ordering::Equal => return Some(mid),
            }
        }
        None
    }

    /// The IDs at the positions `keep` marks.
    fn iter_marked<'a>(&'a self, keep: &'a [bool]) -> impl Iterator<Item = &'a [u8]> + 'a {
        self.ids
            .chunks_exact(self.id_len.max(1))
            .zip(keep)
            .filter(|(_, &k)| k)
            .map(|(id, _)| id)
    }

    /// The IDs, back to back in ascending order.
    pub fn as_bytes(&self) -> &[u8] {
        &self.ids
    }

    pub fn id_len(&self) -> usize {
        self.id_len
    }
}

/// The verdicts one run hands the next.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Kept {
    /// Markdown content with no provenance block at its start.
    pub plain: IdSet,
    /// `.standards/` content with no conflict markers.
    pub unmarked: IdSet,
}

/// The verdicts of one run, starting from what an earlier run [`Kept`].
#[derive(Debug, Default)]
pub struct ContentCache {
    /// What this run read and judged.
    artifacts: RefCell<HashMap<Vec<u8>, Verdict>>,
    unmarked: RefCell<HashSet<Vec<u8>>>,
    known: Kept,
    /// Which of `known`'s IDs this run met (by position; empty until one is).
    plain_met: RefCell<Vec<bool>>,
    unmarked_met: RefCell<Vec<bool>>,
    /// Verdicts this run reached by reading, not from `known`.
    learnt: Cell<usize>,
    /// STATE.md parses of this run, by content ID (never kept between runs).
    states: RefCell<HashMap<Vec<u8>, StateParse>>,
    /// The latest scans of this run, by [`crate::model::tree::ScanKey`] ID,
    /// newest last (never kept between runs).
    scans: RefCell<Vec<([u8; 32], std::rc::Rc<crate::records::scan::Scan>)>>,
}

/// How many scans a [`ContentCache`] holds: a walk needs its parent's, the
/// rules' planned moves the snapshot's own.
const SCANS_KEPT: usize = 4;

/// Marks position `at` of a set of `len` in `met`.
fn mark(met: &RefCell<Vec<bool>>, len: usize, at: usize) {
    let mut met = met.borrow_mut();
    if met.is_empty() {
        met.resize(len, false);
    }
    met[at] = true;
}

impl ContentCache {
    /// A cache that starts out knowing `known`.
    pub fn with_known(known: Kept) -> Self {
        Self {
            known,
            ..Self::default()
        }
    }

    /// What this run met (read, or known before), for the next run; `None`
    /// when it learnt nothing new, so what is stored stays. Known IDs this
    /// run did not meet are left out: what is kept follows the files of the
    /// last run that learnt something.
    pub fn to_keep(&self) -> Option<Kept> {
        if self.learnt.get() == 0 {
            return None;
        }
        let artifacts = self.artifacts.borrow();
        let unmarked = self.unmarked.borrow();
        let id_len = artifacts.keys().chain(unmarked.iter()).next()?.len();
        let (plain_met, unmarked_met) = (self.plain_met.borrow(), self.unmarked_met.borrow());
        let plain = artifacts
            .iter()
            .filter(|(_, v)| matches!(v, Verdict::NotARecord))
            .map(|(id, _)| id.as_slice())
            .chain(self.known.plain.iter_marked(&plain_met));
        let unmarked = unmarked
            .iter()
            .map(Vec::as_slice)
            .chain(self.known.unmarked.iter_marked(&unmarked_met));
        Some(Kept {
            plain: IdSet::collect(id_len, plain),
            unmarked: IdSet::collect(id_len, unmarked),
        })
    }

    /// The scan this run made of the snapshot whose scan key is `id`.
    pub(crate) fn scan_of(&self, id: &[u8; 32]) -> Option<std::rc::Rc<crate::records::scan::Scan>> {
        let scans = self.scans.borrow();
        scans
            .iter()
            .rev()
            .find(|(k, _)| k == id)
            .map(|(_, s)| s.clone())
    }

    /// Keeps `scan` as the scan of the snapshot whose scan key is `id`.
    pub(crate) fn keep_scan(&self, id: [u8; 32], scan: crate::records::scan::Scan) {
        let mut scans = self.scans.borrow_mut();
        scans.retain(|(k, _)| *k != id);
        if scans.len() >= SCANS_KEPT {
            scans.remove(0);
        }
        scans.push((id, std::rc::Rc::new(scan)));
    }

    /// The scan's verdict on the content `key`, from this run or an earlier one.
    pub(crate) fn known_artifact(&self, key: &[u8]) -> Option<Verdict> {
        if let Some(verdict) = self.artifacts.borrow().get(key) {
            return Some(verdict.clone());
        }
        let at = self.known.plain.position(key)?;
        // Met this run: the next run should still know it.
        mark(&self.plain_met, self.known.plain.len(), at);
        Some(Verdict::NotARecord)
    }

    pub(crate) fn learn_artifact(&self, key: Vec<u8>, verdict: &Verdict) {
        if matches!(verdict, Verdict::NotARecord) {
            self.learnt.set(self.learnt.get() + 1);
        }
        self.artifacts.borrow_mut().insert(key, verdict.clone());
    }

    /// Whether the content `key` is known to hold no conflict markers.
    pub fn is_unmarked(&self, key: &[u8]) -> bool {
        if self.unmarked.borrow().contains(key) {
            return true;
        }
        match self.known.unmarked.position(key) {
            Some(at) => {
                mark(&self.unmarked_met, self.known.unmarked.len(), at);
                true
            }
            None => false,
        }
    }

    /// [`StateDoc::parse`] of `text`, the content `key` (its content ID, when
    /// the snapshot knows one): parsed once per run and content. The kept
    /// parse is used only when its text is `text` byte for byte, so the
    /// answer is the parse's own whatever the ID.
    pub fn parse_state(&self, key: Option<Vec<u8>>, text: &str) -> Result<StateDoc, StateError> {
        let Some(key) = key else {
            return StateDoc::parse(text);
        };
        if let Some(kept) = self.states.borrow().get(&key) {
            if kept.0 == text {
                return kept.1.clone();
            }
        }
        let parsed = StateDoc::parse(text);
        let mut states = self.states.borrow_mut();
        if states.len() >= STATE_PARSES && !states.contains_key(&key) {
            states.clear();
        }
        states.insert(key, Rc::new((text.to_string(), parsed.clone())));
        parsed
    }

    /// Notes that the content `key` was read and holds no conflict markers.
    pub fn learn_unmarked(&self, key: Vec<u8>) {
        if self.unmarked.borrow_mut().insert(key) {
            self.learnt.set(self.learnt.get() + 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_set_takes_only_whole_ascending_ids() {
        assert!(IdSet::from_sorted(2, b"aabbcc".to_vec()).is_some());
        assert!(IdSet::from_sorted(2, b"aabbc".to_vec()).is_none());
        assert!(IdSet::from_sorted(2, b"bbaa".to_vec()).is_none());
        assert!(IdSet::from_sorted(2, b"aaaa".to_vec()).is_none());
        assert!(IdSet::from_sorted(0, Vec::new()).is_none());
        let set = IdSet::from_sorted(2, b"aabbcc".to_vec()).unwrap();
        assert!(set.contains(b"bb") && !set.contains(b"b") && !set.contains(b"ab"));
    }

    #[test]
    fn unmarked_verdicts_carry_over_and_a_run_that_learns_nothing_keeps_nothing() {
        let first = ContentCache::default();
        assert!(!first.is_unmarked(b"aaa"));
        first.learn_unmarked(b"aaa".to_vec());
        first.learn_unmarked(b"ccc".to_vec());
        assert!(first.is_unmarked(b"aaa"));
        let kept = first.to_keep().expect("two verdicts were learnt");
        assert_eq!(
            kept.unmarked,
            IdSet::from_sorted(3, b"aaaccc".to_vec()).unwrap()
        );
        assert!(kept.plain.is_empty());

        let second = ContentCache::with_known(kept.clone());
        assert!(second.is_unmarked(b"ccc"));
        assert_eq!(second.to_keep(), None, "nothing new was learnt");
        second.learn_unmarked(b"bbb".to_vec());
        let next = second.to_keep().unwrap();
        // What the second run met: ccc known, bbb learnt; aaa was not met.
        assert_eq!(
            next.unmarked,
            IdSet::from_sorted(3, b"bbbccc".to_vec()).unwrap()
        );
    }

    #[test]
    fn a_state_parse_is_kept_by_content_id_and_used_only_for_the_same_text() {
        let fresh = include_str!("../../../../fixtures/state/fresh-brownfield.md");
        let nested = include_str!("../../../../fixtures/state/mid-cycle-nested-recovery.md");
        let cache = ContentCache::default();
        for text in [fresh, nested, "not a state file"] {
            let direct = StateDoc::parse(text);
            assert_eq!(cache.parse_state(None, text), direct);
            assert_eq!(
                cache.parse_state(Some(text.len().to_be_bytes().to_vec()), text),
                direct
            );
            // Met again: the kept parse.
            assert_eq!(
                cache.parse_state(Some(text.len().to_be_bytes().to_vec()), text),
                direct
            );
        }
        assert!(cache.parse_state(None, fresh).is_ok());
        // An ID that names other content than the kept parse's: parsed anew.
        let key = b"same id".to_vec();
        assert!(cache.parse_state(Some(key.clone()), fresh).is_ok());
        assert_eq!(
            cache.parse_state(Some(key), "not a state file"),
            StateDoc::parse("not a state file")
        );
        // Nothing of it is kept for the next run.
        assert_eq!(cache.to_keep(), None);
    }

    proptest::proptest! {
        /// Whatever the order in which contents and IDs come (IDs reused
        /// for other content included), the memoised parse is the parse.
        #[test]
        fn a_memoised_state_parse_is_the_parse(
            steps in proptest::collection::vec((0u8..24, 0usize..4, proptest::bool::ANY), 0..80),
        ) {
            let texts = [
                include_str!("../../../../fixtures/state/fresh-brownfield.md"),
                include_str!("../../../../fixtures/state/mid-cycle-nested-recovery.md"),
                include_str!("../../../../fixtures/state/signed-off.md"),
                "# S.T.A.N.D.A.R.D.S. Workflow State\n\nbroken\n",
            ];
            let cache = ContentCache::default();
            for (id, text, known) in steps {
                let key = known.then(|| vec![id]);
                proptest::prop_assert_eq!(
                    cache.parse_state(key, texts[text]),
                    StateDoc::parse(texts[text])
                );
            }
            proptest::prop_assert!(cache.states.borrow().len() <= STATE_PARSES);
        }

        #[test]
        fn an_id_set_contains_what_a_set_contains(
            ids in proptest::collection::btree_set(proptest::collection::vec(0u8..4, 3), 0..40),
            probe in proptest::collection::vec(0u8..4, 3),
        ) {
            let bytes: Vec<u8> = ids.iter().flatten().copied().collect();
            let set = IdSet::from_sorted(3, bytes).unwrap();
            proptest::prop_assert_eq!(set.len(), ids.len());
            proptest::prop_assert_eq!(set.contains(&probe), ids.contains(&probe));
            proptest::prop_assert_eq!(IdSet::collect(3, ids.iter().rev().map(Vec::as_slice)), set);
        }
    }
}
