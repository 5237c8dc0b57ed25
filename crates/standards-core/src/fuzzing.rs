//! Entry points for the fuzz targets (`fuzz/`, run with `cargo fuzz`) and
//! their `proptest` twins (`tests/parsers_fuzz.rs`): each feeds arbitrary text
//! to one family of parsers and checks the properties that must hold for any
//! input. A panic (or a failed property, which panics) is a finding. Pure: no
//! I/O, so a fuzzer can run millions of inputs.

use crate::audit;
use crate::model::vocab::{IdPrefix, ReviewKind};
use crate::model::{mode, state};
use crate::records::{acceptance, closure, plan, provenance, record};
use crate::setup::config;

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
    ("audit", audit_lines),
    ("config", config_toml),
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
/// stay inside the text, and assessing never panics. The input's length
/// picks the kind of review and whether the section is required, so each
/// input is assessed once (every combination still comes up) and the fuzzer
/// runs several times more inputs a second.
pub fn closure_parser(text: &str) {
    let masked = closure::mask(text);
    assert_eq!(masked.len(), text.len(), "masking keeps offsets");
    for s in closure::sections(text, &masked) {
        assert!(s.body.start <= s.body.end && s.body.end <= text.len());
    }
    let required = text.len().is_multiple_of(2);
    let kind = if text.len() % 4 < 2 {
        ReviewKind::Implementation
    } else {
        ReviewKind::FinalDeliverable
    };
    let _ = closure::assess(text, required, kind);
}

/// Audit trail lines (D20), as `log` reads a note: a parsed line keeps its
/// text and parses again to the same event, its summary stays one line, the
/// filters never panic, and the `cat_sort_uniq` merge is sorted, unique and
/// order-free.
pub fn audit_lines(text: &str) {
    for line in text.split('\n').filter(|l| !l.is_empty()) {
        // `log`'s fast reading takes only lines the full parser takes, and
        // shows the same values.
        if let Some(fast) = audit::view::EventView::fast(line, true) {
            let event =
                audit::parse_line(line).expect("the full parser takes what the fast reading takes");
            let slow = audit::view::EventView::of(&event);
            assert_eq!(fast.instant, slow.instant);
            assert_eq!(
                (fast.id.get(), fast.event.get()),
                (slow.id.get(), slow.event.get())
            );
            assert_eq!(fast.actor(), slow.actor());
            assert_eq!(fast.cycle.map(|c| c.get()), slow.cycle.map(|c| c.get()));
            let (mut a, mut b) = (String::new(), String::new());
            fast.push_summary(&mut a);
            slow.push_summary(&mut b);
            assert_eq!(a, b);
            let own = own_filter(&event);
            assert!(own.matches_view(&fast) && own.matches_view(&slow));
        }
        let Ok(event) = audit::parse_line(line) else {
            continue;
        };
        assert_eq!(event.line, line);
        assert_eq!(audit::parse_line(&event.line).as_ref(), Ok(&event));
        let summary = event.summary();
        assert!(
            !summary.chars().any(char::is_control),
            "the summary {summary:?} is one line without control characters"
        );
        assert!(audit::Filter::default().matches(&event));
        let own = own_filter(&event);
        assert!(own.matches(&event), "an event matches its own values");
        let by_pattern = audit::Filter {
            actor: text.lines().next().map(str::to_string),
            limit: Some(1),
            ..audit::Filter::default()
        };
        assert!(by_pattern.apply(vec![event.clone(), event]).len() <= 1);
    }
    let bytes = text.as_bytes();
    let (a, b) = bytes.split_at(bytes.len() / 2);
    let merged = audit::merge_note_text(a, b);
    assert_eq!(merged, audit::merge_note_text(b, a), "merging is symmetric");
    assert_eq!(audit::merge_note_text(&merged, &merged), merged);
    let lines: Vec<&[u8]> = merged.split(|c| *c == b'\n').collect();
    assert_eq!(
        lines.last(),
        Some(&&b""[..]),
        "every line ends in a newline"
    );
    let body = &lines[..lines.len() - 1];
    assert!(body.iter().all(|l| !l.is_empty()));
    assert!(body.windows(2).all(|w| w[0] < w[1]), "sorted and unique");
}

/// `.standards/config.toml` (D19, D23): parsing never panics, an error names
/// a line of the file, a parsed configuration holds valid branch names that
/// the guard recognises, and branch globs answer in bounded time.
/// The filter an event matches by its own values: its cycle, type, time
/// and actor.
fn own_filter(event: &audit::Recorded) -> audit::Filter {
    audit::Filter {
        cycle: event.cycle.clone(),
        events: vec![event.event.clone()],
        since: Some(event.time),
        actor: Some(event.actor.clone()),
        ..audit::Filter::default()
    }
}

pub fn config_toml(text: &str) {
    match config::parse(text, config::CONFIG_PATH) {
        Err(e) => {
            assert!(e.line >= 1 && e.line <= text.lines().count() + 1);
            assert!(e.to_string().starts_with(config::CONFIG_PATH));
        }
        Ok(parsed) => {
            if let Some(name) = &parsed.main_branch {
                assert!(config::check_branch_name(name).is_ok());
            }
            let branches = config::Branches::resolve(config::BranchInputs {
                file: parsed.clone(),
                ..Default::default()
            });
            assert!(branches.is_guarded(&branches.main));
            for pattern in &parsed.protected_branches {
                if !pattern.contains(['*', '?', '[', '\\']) {
                    assert!(config::glob_match(pattern, pattern), "{pattern:?}");
                }
                let _ = branches.is_guarded(&pattern.replace(['*', '?'], "x"));
            }
        }
    }
    let mut lines = text.lines();
    if let (Some(pattern), Some(name)) = (lines.next(), lines.next()) {
        // git's wildmatch: a pattern without glob characters is the name
        // itself (`[`, `\\` and the stars are git's syntax, not literals).
        if !pattern.contains(['*', '?', '[', '\\']) {
            assert!(config::glob_match(pattern, pattern), "{pattern:?}");
            assert_eq!(config::glob_match(pattern, name), pattern == name);
        }
        let _ = config::glob_match(pattern, name);
    }
}
