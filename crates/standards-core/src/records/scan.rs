//! The artifact scan: every Markdown file that opens with a provenance block
//! (RT §1.4, check-rules §1.15).

use crate::model::layout;
#[cfg(doc)]
use crate::model::tree::ScanKey;
use crate::model::tree::{Node, Text, Tree};
use crate::records::provenance::{self, Marking};
use crate::records::verdicts::ContentCache;

/// A file that starts with a provenance block, valid or not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Artifact {
    pub path: String,
    pub text: String,
    pub marking: Marking,
}

/// The result of a scan: artifacts in path order, and files that could not be read.
#[derive(Debug, Clone, Default)]
pub struct Scan {
    pub artifacts: Vec<Artifact>,
    /// `(path, reason)` for candidates that exist but could not be read as text.
    pub unreadable: Vec<(String, String)>,
}

impl Scan {
    pub fn find(&self, path: &str) -> Option<&Artifact> {
        self.artifacts.iter().find(|a| a.path == path)
    }

    /// Whether a valid block anywhere names `cycle`.
    pub fn cycle_is_used(&self, cycle: &str) -> bool {
        self.artifacts
            .iter()
            .any(|a| a.marking.valid().is_some_and(|p| p.cycle == cycle))
    }
}

/// What the scan concluded about one file's content.
#[derive(Debug, Clone)]
pub(crate) enum Verdict {
    NotARecord,
    Record(std::rc::Rc<(String, Marking)>),
    Unreadable(String),
}

static PARSED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// How many provenance blocks the scans of this process parsed (a test
/// seam, reported with the read count: see `repo::reads`).
pub fn parsed() -> usize {
    PARSED.load(std::sync::atomic::Ordering::Relaxed)
}

/// Scans the candidate Markdown files of `tree`.
pub fn scan(tree: &dyn Tree) -> Scan {
    scan_cached(tree, None)
}

/// [`scan`], taking and leaving the verdicts of unchanged content in `cache`.
///
/// With a cache, a snapshot that tells its [`ScanKey`] gets the scan the
/// cache holds for the same key, or one derived from the scan of the
/// snapshot it was derived from by judging only the paths that differ (a
/// history walk's commits), so the cost follows the change, not the number
/// of Markdown files. The result is the same as scanning every candidate.
pub fn scan_cached(tree: &dyn Tree, cache: Option<&ContentCache>) -> Scan {
    let Some((cache, key)) = cache.zip(tree.scan_key()) else {
        return scan_all(tree, cache);
    };
    if let Some(known) = cache.scan_of(&key.id) {
        return (*known).clone();
    }
    let derived = key.from.as_ref().and_then(|(from, changed)| {
        let base = cache.scan_of(from)?;
        Some(rescan(tree, cache, &base, changed))
    });
    let scan = derived.unwrap_or_else(|| scan_all(tree, Some(cache)));
    cache.keep_scan(key.id, scan.clone());
    scan
}

/// Every candidate of `tree`, judged.
fn scan_all(tree: &dyn Tree, cache: Option<&ContentCache>) -> Scan {
    let mut out = Scan::default();
    let mut candidates: Vec<String> = tree
        .markdown_files()
        .into_iter()
        .filter(|p| layout::is_scanned(p))
        .collect();
    candidates.sort();
    candidates.dedup();
    for path in candidates {
        if let Some(verdict) = verdict(tree, cache, &path) {
            add(&mut out, path, verdict);
        }
    }
    out
}

/// `base` (the scan of the snapshot `tree` was derived from) with the
/// `changed` paths judged again: dropped, and judged anew where they are
/// Markdown candidates of `tree`. Both lists stay in path order, as
/// [`scan_all`] leaves them.
fn rescan(tree: &dyn Tree, cache: &ContentCache, base: &Scan, changed: &[(String, bool)]) -> Scan {
    let gone: std::collections::HashSet<&str> = changed.iter().map(|(p, _)| p.as_str()).collect();
    let mut out = Scan {
        artifacts: base
            .artifacts
            .iter()
            .filter(|a| !gone.contains(a.path.as_str()))
            .cloned()
            .collect(),
        unreadable: base
            .unreadable
            .iter()
            .filter(|(p, _)| !gone.contains(p.as_str()))
            .cloned()
            .collect(),
    };
    let mut fresh: Vec<&str> = changed
        .iter()
        .filter(|(p, markdown)| *markdown && layout::is_scanned(p))
        .map(|(p, _)| p.as_str())
        .collect();
    fresh.sort_unstable();
    fresh.dedup();
    for path in fresh {
        if let Some(verdict) = verdict(tree, Some(cache), path) {
            add(&mut out, path.to_string(), verdict);
        }
    }
    out.artifacts.sort_by(|a, b| a.path.cmp(&b.path));
    out.unreadable.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// The verdict on the candidate at `path`, from `cache` when it knows the
/// content; `None` when it is not a file after all.
fn verdict(tree: &dyn Tree, cache: Option<&ContentCache>, path: &str) -> Option<Verdict> {
    let key = cache.and_then(|_| tree.content_id(path));
    let known = match (cache, &key) {
        (Some(cache), Some(key)) => cache.known_artifact(key),
        _ => None,
    };
    if known.is_some() {
        return known;
    }
    let verdict = judge(tree, path)?;
    if let (Some(cache), Some(key)) = (cache, key) {
        cache.learn_artifact(key, &verdict);
    }
    Some(verdict)
}

fn add(out: &mut Scan, path: String, verdict: Verdict) {
    match verdict {
        Verdict::NotARecord => {}
        Verdict::Record(record) => out.artifacts.push(Artifact {
            path,
            text: record.0.clone(),
            marking: record.1.clone(),
        }),
        Verdict::Unreadable(why) => out.unreadable.push((path, why)),
    }
}

/// Reads and judges the candidate at `path`; `None` when it is not a file
/// after all (missing, or a folder), which no content ID names.
fn judge(tree: &dyn Tree, path: &str) -> Option<Verdict> {
    // Read only the start first: most Markdown files are not records, and
    // one may be hundreds of megabytes (issue 7, item 4).
    match opening(tree, path) {
        Opening::Record => {}
        Opening::NotARecord => return Some(Verdict::NotARecord),
        Opening::Unreadable(why) => return Some(Verdict::Unreadable(why)),
    }
    match tree.text(path) {
        Text::Ok(text) => {
            if provenance::opens_block(&text) {
                PARSED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let marking = provenance::parse(&text);
                Some(Verdict::Record(std::rc::Rc::new((text, marking))))
            } else {
                Some(Verdict::NotARecord)
            }
        }
        Text::Missing => None,
        Text::Unreadable(why) if why.contains("folder") => None,
        Text::Unreadable(why) => Some(Verdict::Unreadable(why)),
    }
}

/// How many bytes of a candidate are read to look for a provenance block.
pub const OPENING_BYTES: usize = 4096;

enum Opening {
    Record,
    NotARecord,
    Unreadable(String),
}

/// Whether the file at `path` opens with a provenance block, from its first
/// [`OPENING_BYTES`] (more only while the opener is still undecided).
fn opening(tree: &dyn Tree, path: &str) -> Opening {
    let mut limit = OPENING_BYTES;
    loop {
        let bytes = match tree.prefix(path, limit) {
            Node::File(bytes) => bytes,
            // The whole read reports these the usual way.
            _ => return Opening::Record,
        };
        let complete = bytes.len() < limit;
        let text = match std::str::from_utf8(&bytes) {
            Ok(t) => t,
            // A character cut at the end of the prefix is not an error.
            Err(e) if e.error_len().is_none() => {
                std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or_default()
            }
            Err(e) => {
                return Opening::Unreadable(format!(
                    "it is not valid UTF-8 (bad byte at offset {})",
                    e.valid_up_to()
                ))
            }
        };
        if provenance::opens_block(text) {
            return Opening::Record;
        }
        if complete || !provenance::opening_undecided(text) {
            return Opening::NotARecord;
        }
        limit = limit.saturating_mul(4);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::tree::MemTree;

    #[test]
    fn finds_marked_files_in_docs_and_elsewhere_but_not_in_skipped_folders() {
        let block = "<!-- STANDARDS\nArtifact: SCOPE\nCycle: c-1\n-->\n";
        let t = MemTree::new()
            .with(".standards/docs/scope/c-1.md", block)
            .with("docs/scope.md", block)
            .with(".claude/skills/x.md", block)
            .with(".standards/STATE.md", block)
            .with("README.md", "# plain")
            .with("bad.md", b"<!-- STANDARDS\n\xff");
        let s = scan(&t);
        let paths: Vec<_> = s.artifacts.iter().map(|a| a.path.as_str()).collect();
        assert_eq!(paths, [".standards/docs/scope/c-1.md", "docs/scope.md"]);
        assert!(s.cycle_is_used("c-1"));
        assert!(!s.cycle_is_used("c-2"));
        assert_eq!(s.unreadable.len(), 1);
        assert_eq!(s.unreadable[0].0, "bad.md");
    }

    /// A [`MemTree`] whose content IDs are hashes of the contents (see
    /// [`id`]), and that counts the reads of file content.
    struct Ided {
        tree: MemTree,
        reads: std::cell::Cell<usize>,
    }

    impl Tree for Ided {
        fn describe(&self) -> String {
            self.tree.describe()
        }
        fn node(&self, path: &str) -> Node {
            self.reads.set(self.reads.get() + 1);
            self.tree.node(path)
        }
        fn markdown_files(&self) -> Vec<String> {
            self.tree.markdown_files()
        }
        fn unmerged(&self) -> Vec<String> {
            self.tree.unmerged()
        }
        fn content_id(&self, path: &str) -> Option<Vec<u8>> {
            match self.tree.node(path) {
                Node::File(bytes) => Some(id(&bytes)),
                _ => None,
            }
        }
    }

    /// A content ID of fixed length, as a repository's are.
    fn id(content: &[u8]) -> Vec<u8> {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        content.hash(&mut h);
        h.finish().to_be_bytes().to_vec()
    }

    #[test]
    fn plain_verdicts_carry_over_to_the_next_run_and_only_plain_ones() {
        let block = "<!-- STANDARDS\nArtifact: SCOPE\nCycle: c-1\n-->\n";
        let tree = Ided {
            tree: MemTree::new()
                .with("a.md", "# plain A\n")
                .with("b.md", "# plain B\n")
                .with("c.md", b"\xff\xfe plain?")
                .with("docs/scope.md", block),
            reads: Default::default(),
        };
        let first = ContentCache::default();
        let s = scan_cached(&tree, Some(&first));
        assert_eq!(s.artifacts.len(), 1);
        assert_eq!(s.unreadable.len(), 1);
        let kept = first.to_keep().expect("two plain files were learnt");
        assert_eq!(kept.plain.len(), 2);
        assert!(kept.plain.contains(&id(b"# plain A\n")));
        assert!(kept.plain.contains(&id(b"# plain B\n")));
        assert!(!kept.plain.contains(&id(block.as_bytes())));

        tree.reads.set(0);
        let second = ContentCache::with_known(kept.clone());
        let again = scan_cached(&tree, Some(&second));
        assert_eq!(again.artifacts, s.artifacts);
        assert_eq!(again.unreadable, s.unreadable);
        // The record and the unreadable file are read again; the plain ones not.
        assert_eq!(
            tree.reads.get(),
            3,
            "prefix and text of the record, prefix of c.md"
        );
        assert_eq!(second.to_keep(), None, "nothing new: the stored set stays");

        // A new plain file: the next set holds what this run met, old and new.
        let mut grown = tree.tree.clone();
        grown.insert("d.md", "# plain D\n");
        grown.remove("a.md");
        let grown = Ided {
            tree: grown,
            reads: Default::default(),
        };
        let third = ContentCache::with_known(kept);
        scan_cached(&grown, Some(&third));
        let next = third.to_keep().expect("d.md was learnt");
        assert!(
            next.plain.contains(&id(b"# plain D\n")) && next.plain.contains(&id(b"# plain B\n"))
        );
        assert!(
            !next.plain.contains(&id(b"# plain A\n")),
            "a.md was not met"
        );
    }

    #[test]
    fn only_the_start_of_a_plain_file_is_read() {
        let big = format!("# Notes\n{}", "x".repeat(10 * OPENING_BYTES));
        let late_bad = [big.as_bytes(), b"\xff"].concat();
        let spaced = format!(
            "<!--{}STANDARDS\nArtifact: SCOPE\nCycle: c-1\n-->\n",
            " ".repeat(3 * OPENING_BYTES)
        );
        let t = MemTree::new()
            .with("notes.md", late_bad)
            .with("spaced.md", spaced);
        let s = scan(&t);
        assert!(s.unreadable.is_empty(), "{:?}", s.unreadable);
        let paths: Vec<_> = s.artifacts.iter().map(|a| a.path.as_str()).collect();
        assert_eq!(paths, ["spaced.md"]);
        assert!(provenance::opening_undecided("<!-- STAN"));
        assert!(provenance::opening_undecided("\u{feff}<!"));
        assert!(!provenance::opening_undecided("<!-- x"));
    }

    /// An [`Ided`] tree that tells its scan key, derived from another's.
    struct Keyed {
        inner: Ided,
        key: crate::model::tree::ScanKey,
    }

    impl Tree for Keyed {
        fn describe(&self) -> String {
            self.inner.describe()
        }
        fn node(&self, path: &str) -> Node {
            self.inner.node(path)
        }
        fn markdown_files(&self) -> Vec<String> {
            self.inner.markdown_files()
        }
        fn unmerged(&self) -> Vec<String> {
            Vec::new()
        }
        fn content_id(&self, path: &str) -> Option<Vec<u8>> {
            self.inner.content_id(path)
        }
        fn scan_key(&self) -> Option<crate::model::tree::ScanKey> {
            Some(self.key.clone())
        }
    }

    #[test]
    fn a_derived_snapshot_is_scanned_from_its_parents_scan_by_what_changed() {
        let block = |c: &str| format!("<!-- STANDARDS\nArtifact: SCOPE\nCycle: {c}\n-->\n");
        let parent = MemTree::new()
            .with("a.md", "# plain\n")
            .with("b/x.md", block("c-1"))
            .with("b/y.md", b"\xff\xfe")
            .with("c/d.md", block("c-2"))
            .with("z.md", block("c-3"))
            .with(".standards/STATE.md", block("c-9"));
        let child = MemTree::new()
            .with("a.md", "# plain\n")
            .with("b/x.md", "# plain now\n")
            .with("b/y.md", "# readable now\n")
            .with("e/f.md", block("c-4"))
            .with("e/g.md", b"\xff")
            .with("z.md", block("c-3"))
            .with(".standards/STATE.md", block("c-9"));
        let changed: Vec<(String, bool)> = [
            "b/x.md",
            "b/y.md",
            "c/d.md",
            "c/d.md/no",
            "e/f.md",
            "e/g.md",
        ]
        .iter()
        .map(|p| (p.to_string(), child.node(p) != Node::Missing))
        .collect();
        let key = |id: u8, from: Option<u8>| crate::model::tree::ScanKey {
            id: [id; 32],
            from: from.map(|f| ([f; 32], std::rc::Rc::new(changed.clone()))),
        };
        let cache = ContentCache::default();
        let p = Keyed {
            inner: Ided {
                tree: parent,
                reads: Default::default(),
            },
            key: key(1, None),
        };
        let first = scan_cached(&p, Some(&cache));
        assert_eq!(first.artifacts.len(), 3);
        let c = Keyed {
            inner: Ided {
                tree: child.clone(),
                reads: Default::default(),
            },
            key: key(2, Some(1)),
        };
        let derived = scan_cached(&c, Some(&cache));
        let whole = scan(&child);
        assert_eq!(derived.artifacts, whole.artifacts);
        assert_eq!(derived.unreadable, whole.unreadable);
        let paths: Vec<_> = derived.artifacts.iter().map(|a| a.path.as_str()).collect();
        assert_eq!(paths, ["e/f.md", "z.md"]);
        assert_eq!(derived.unreadable.len(), 1);
        // Only the changed files were read: b/x.md, b/y.md and e/g.md
        // (their openings), e/f.md (opening and text).
        assert_eq!(c.inner.reads.get(), 5);
        // The same key again: the kept scan, nothing read.
        c.inner.reads.set(0);
        let again = scan_cached(&c, Some(&cache));
        assert_eq!(again.artifacts, whole.artifacts);
        assert_eq!(c.inner.reads.get(), 0);
        // Derived from a scan the cache does not hold: every file is judged.
        let other = Keyed {
            inner: Ided {
                tree: child.clone(),
                reads: Default::default(),
            },
            key: key(3, Some(7)),
        };
        assert_eq!(
            scan_cached(&other, Some(&ContentCache::default())).artifacts,
            whole.artifacts
        );
    }
}
