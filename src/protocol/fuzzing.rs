//! Entry points for the fuzz targets (`fuzz/`, run with `cargo fuzz`) and
//! their `proptest` twins (`tests/parsers_fuzz.rs`): each feeds arbitrary text
//! to one family of parsers and checks the properties that must hold for any
//! input. A panic (or a failed property, which panics) is a finding. Pure: no
//! I/O, so a fuzzer can run millions of inputs.

use super::vocab::{IdPrefix, ReviewKind};
use super::{acceptance, closure, mode, plan, provenance, record, state};

/// One fuzz target: its name and the function that checks one input.
pub type Target = (&'static str, fn(&str));

/// The targets by name, as `cargo fuzz` and the proptest twin call them.
pub const TARGETS: &[Target] = &[
    ("state", state_md),
    ("mode", mode_md),
    ("provenance", provenance_block),
    ("record", record_headers_and_sections),
    ("plan", plan_parser),
    ("closure", closure_parser),
];

/// Runs the target `name` on raw bytes (as a fuzzer hands them), lossily decoded.
pub fn run(name: &str, bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    if let Some((_, target)) = TARGETS.iter().find(|(n, _)| *n == name) {
        target(&text);
    }
}

/// STATE.md: parsing never panics and is deterministic.
pub fn state_md(text: &str) {
    let first = state::StateDoc::parse(text).map(|d| format!("{d:?}"));
    let second = state::StateDoc::parse(text).map(|d| format!("{d:?}"));
    assert_eq!(first.is_ok(), second.is_ok());
    assert_eq!(first.ok(), second.ok());
}

/// MODE.md: a parsed mode renders to text that parses to the same mode.
pub fn mode_md(text: &str) {
    if let Ok(m) = mode::parse(text) {
        assert_eq!(mode::parse(&mode::render(m)).ok(), Some(m));
    }
}

/// Provenance blocks: a valid block round-trips through its canonical
/// rendering, anything parsed as marked opens a block, and the bounded
/// opening read of the scan never rules out a block that the whole text has.
pub fn provenance_block(text: &str) {
    let marking = provenance::parse(text);
    let opens = provenance::opens_block(text);
    if !matches!(marking, provenance::Marking::Unmarked) {
        assert!(opens, "a marked file opens a block");
    }
    if let provenance::Marking::Valid(p) = &marking {
        let rendered = provenance::render(p);
        assert_eq!(
            provenance::parse(&rendered),
            provenance::Marking::Valid(p.clone())
        );
    }
    for (end, _) in text.char_indices().take(64) {
        let prefix = &text[..end];
        if !provenance::opens_block(prefix) && !provenance::opening_undecided(prefix) {
            assert!(
                !opens,
                "the prefix {prefix:?} ruled out a block the file has"
            );
        }
    }
}

/// Record headers, sections, fences and identifiers: ranges stay inside the
/// text on character boundaries, and masking keeps every offset.
pub fn record_headers_and_sections(text: &str) {
    if let Some(r) = record::header_range(text) {
        assert!(
            r.end <= text.len() && text.is_char_boundary(r.start) && text.is_char_boundary(r.end)
        );
    }
    let _ = record::header_fields(text);
    for s in record::sections(text) {
        let _ = record::normalize_section_name(&format!("{s:?}"));
    }
    for r in record::fenced_ranges(text) {
        assert!(r.start <= r.end && r.end <= text.len());
    }
    let masked = record::mask_fences(text);
    assert_eq!(masked.len(), text.len(), "masking keeps offsets");
    for prefix in [IdPrefix::Ac, IdPrefix::F, IdPrefix::Dev] {
        let _ = record::identifier_numbers(text, prefix);
        let mentions = record::bare_mentions(text, prefix);
        let unique: std::collections::HashSet<_> = mentions.iter().collect();
        assert_eq!(unique.len(), mentions.len(), "mentions are de-duplicated");
        let _ = record::entry_headings(text, prefix);
    }
    let _ = record::section_body(text, "Acceptance Evidence");
    let _ = acceptance::inventory(text);
}

/// The development plan's steps, increments and identifier lists.
pub fn plan_parser(text: &str) {
    let _ = plan::steps(text);
    let _ = plan::increments(text);
    let _ = plan::increment_mentions(text);
    for line in text.lines().take(64) {
        let _ = plan::identifier_list(line, IdPrefix::Ac);
        let _ = plan::increment_target(line);
    }
}

/// The closure parser of review records: masking keeps offsets, sections
/// stay inside the text, and assessing never panics.
pub fn closure_parser(text: &str) {
    let masked = closure::mask(text);
    assert_eq!(masked.len(), text.len(), "masking keeps offsets");
    let _ = closure::sections(text, &masked);
    for kind in [ReviewKind::Implementation, ReviewKind::FinalDeliverable] {
        let _ = closure::assess(text, true, kind);
        let _ = closure::assess(text, false, kind);
    }
}
