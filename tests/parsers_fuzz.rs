//! The proptest twins of the fuzz targets in `fuzz/` (issue 7): the same
//! entry points (`standards_core::fuzzing`) on arbitrary text and on
//! text assembled from the Markdown the parsers look for, plus every input a
//! fuzzer ever found, kept in `fuzz/regressions/<target>/`.

use proptest::prelude::*;
use standards_core::fuzzing;

/// Fragments that reach deep into the parsers: provenance blocks, STATE.md
/// fields, headings, fences, lists, tables, identifiers, odd whitespace.
const PIECES: &[&str] = &[
    "<!-- STANDARDS\n",
    "<!--",
    " STANDARDS",
    "-->\n",
    "\u{feff}",
    "Artifact: SCOPE\n",
    "Artifact: REVIEW\n",
    "ReviewKind: IMPLEMENTATION\n",
    "Cycle: c-1\n",
    "# STATE\n",
    "## Active Work\n",
    "## Previous Cycles\n",
    "## Retired Acceptance Identifiers\n",
    "## Acceptance Evidence\n",
    "## Closure\n",
    "### F-001\n",
    "### Increment 1\n",
    "`WorkflowState`: `SCOPING`\n",
    "`CycleMode`: `STANDARD`\n",
    "`Id`: `UNSET`\n",
    "`ProjectMode`: `GREENFIELD`\n",
    "`Scope`: `NONE`\n",
    "- `AC-001`: One.\n",
    "- [x] AC-002, AC-003 and AC-004 - x\n",
    "1. DEV-001: step\n",
    "| AC-001 | t | passed |\n",
    "|---|---|\n",
    "```\n",
    "~~~\n",
    "    indented\n",
    "> quote\n",
    "\n",
    "\r\n",
    " ",
    "\t",
    "`",
    "**",
    "_",
    "[F-001](../reviews/x/implementation.md#F-001)",
    "AC-",
    "999999999999999999999",
    "é",
    "\u{2014}",
    "<",
    ">",
    "&",
    "\\",
    "NONE",
    "UNSET",
    "Increment 2",
    "Steps:",
];

fn structured() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(PIECES), 0..40).prop_map(|v| v.concat())
}

fn any_text() -> impl Strategy<Value = String> {
    prop_oneof![
        structured(),
        any::<String>(),
        prop::collection::vec(any::<u8>(), 0..256)
            .prop_map(|b| String::from_utf8_lossy(&b).into_owned())
    ]
}

/// Fragments of audit lines (D20): the common keys, times in and out of
/// RFC 3339, escapes, control characters and wrong types.
const AUDIT_PIECES: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "\n",
    "\"ts\":",
    "\"id\":",
    "\"event\":",
    "\"actor\":",
    "\"cycle\":",
    "\"commit\":",
    "\"state\":",
    "\"before\":",
    "\"after\":",
    "\"x\":",
    "\"2026-12-01T09:04:53.123456Z\"",
    "\"2026-12-01T09:04:53+01:00\"",
    "\"2026-13-01T09:04:53Z\"",
    "\"reset\"",
    "\"A*\"",
    "\"?\"",
    "\"a\\nb\\u001b[2J\"",
    "\"\\ud800\"",
    "null",
    "1e999",
    "-0",
    "true",
    "\"",
    "\\",
    "é",
];

/// Fragments of `.standards/config.toml`: both keys, TOML syntax of every
/// kind, and branch globs with many stars.
const CONFIG_PIECES: &[&str] = &[
    "main-branch = ",
    "protected-branches = ",
    "mainbranch = ",
    "\"trunk\"",
    "\"release/*\"",
    "\"**/x\"",
    "\"refs/heads/main\"",
    "\"a..b\"",
    "\"x.lock\"",
    "'lit'",
    "\"\"\"",
    "[",
    "]",
    ", ",
    "[t]\n",
    "[[a]]\n",
    "{ k = 1 }",
    "3",
    "1979-05-27T07:32:00Z",
    "# c\n",
    "\n",
    "\r\n",
    "=",
    "*",
    "**",
    "?",
    "/",
    "a",
    "é",
    "\\u00e9",
];

fn pieces(set: &'static [&'static str]) -> impl Strategy<Value = String> {
    prop_oneof![
        prop::collection::vec(prop::sample::select(set), 0..40).prop_map(|v| v.concat()),
        any_text(),
    ]
}

macro_rules! twin {
    ($name:ident, $target:literal) => {
        proptest! {
            #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() })]
            #[test]
            fn $name(text in any_text()) {
                fuzzing::run($target, text.as_bytes());
            }
        }
    };
}

twin!(state_md_never_panics, "state");
twin!(mode_md_round_trips, "mode");
twin!(
    provenance_blocks_round_trip_and_bounded_reads_agree,
    "provenance"
);
twin!(record_headers_and_sections_stay_in_bounds, "record");
twin!(plan_parser_never_panics, "plan");
twin!(closure_parser_keeps_offsets, "closure");

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() })]
    #[test]
    fn audit_lines_read_back_and_merge_in_any_order(text in pieces(AUDIT_PIECES)) {
        fuzzing::run("audit", text.as_bytes());
    }

    #[test]
    fn config_toml_errors_name_a_line_and_globs_stay_fast(text in pieces(CONFIG_PIECES)) {
        fuzzing::run("config", text.as_bytes());
    }
}

/// Every input a fuzzer found (and the seed corpus kept with them) is replayed.
#[test]
fn found_inputs_stay_fixed() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions");
    let mut replayed = 0;
    for (name, _) in fuzzing::TARGETS {
        let Ok(entries) = std::fs::read_dir(root.join(name)) else {
            continue;
        };
        for entry in entries.flatten() {
            let bytes = std::fs::read(entry.path()).unwrap();
            fuzzing::run(name, &bytes);
            replayed += 1;
        }
    }
    eprintln!("replayed {replayed} kept fuzz inputs");
    assert!(replayed >= 2, "the kept inputs are found");
}
