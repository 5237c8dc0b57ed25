//! `check` never panics, whatever the files say: every file of every fixture
//! base is mangled in many deterministic ways (truncated mid-character, lines
//! dropped, doubled, swapped, stray backticks, headings, fences and comments
//! inserted, BOM and CRLF added) and the checker runs on each result, in both
//! the plain and the turn-end variant, against the unmangled tree as HEAD.

use std::path::Path;

use standards_core::check::{self, Options};

use crate::common::Rng;
use standards_core::model::tree::{MemTree, Node, Tree};
use standards_core::model::vocab::ProjectMode;

/// The shared xorshift generator, so failures reproduce; indices here are `usize`.
fn below(rng: &mut Rng, n: usize) -> usize {
    rng.below(n as u64) as usize
}

const INSERTS: [&str; 12] = [
    "`",
    "``",
    "## ",
    "### DEV-001\n",
    "```\n",
    "<!--",
    "-->",
    "`Status`: `COMPLETE`",
    "- `AC-999`: x\n",
    "### Frame 9\n",
    "\u{feff}",
    "| 1 | a | b |\n",
];

fn mangle(text: &str, rng: &mut Rng) -> String {
    let mut lines: Vec<String> = text.split_inclusive('\n').map(str::to_string).collect();
    match below(rng, 8) {
        0 => {
            // Truncate at an arbitrary byte, then back to a char boundary.
            let mut cut = below(rng, text.len() + 1);
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            return text[..cut].to_string();
        }
        1 if !lines.is_empty() => {
            let i = below(rng, lines.len());
            lines.remove(i);
        }
        2 if !lines.is_empty() => {
            let i = below(rng, lines.len());
            let l = lines[i].clone();
            lines.insert(i, l);
        }
        3 if lines.len() > 1 => {
            let (a, b) = (below(rng, lines.len()), below(rng, lines.len()));
            lines.swap(a, b);
        }
        4 => return text.replace('\n', "\r\n"),
        5 => return format!("\u{feff}{text}"),
        _ => {
            let at = below(rng, lines.len() + 1);
            let what = INSERTS[below(rng, INSERTS.len())];
            let mut line = lines.get(at).cloned().unwrap_or_default();
            let mut pos = below(rng, line.len() + 1);
            while !line.is_char_boundary(pos) {
                pos -= 1;
            }
            line.insert_str(pos, what);
            if at < lines.len() {
                lines[at] = line;
            } else {
                lines.push(line);
            }
        }
    }
    lines.concat()
}

fn base_tree(name: &str) -> MemTree {
    crate::common::base_tree(name, ProjectMode::Brownfield)
}

#[test]
fn check_survives_mangled_records_and_state() {
    let bases: Vec<String> =
        std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/check/bases"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut runs = 0;
    for name in &bases {
        let head = base_tree(name);
        let paths: Vec<String> = head
            .markdown_files()
            .into_iter()
            .filter(|p| p.starts_with(".standards/") || p.ends_with(".md"))
            .collect();
        for path in &paths {
            let Node::File(bytes) = head.node(path) else {
                continue;
            };
            let Ok(text) = String::from_utf8(bytes) else {
                continue;
            };
            for round in 0..12 {
                let mut tree = head.clone();
                let mut mangled = mangle(&text, &mut rng);
                // A second mangling now and then compounds the damage.
                if round % 3 == 0 {
                    mangled = mangle(&mangled, &mut rng);
                }
                tree.insert(path, mangled);
                for options in [
                    Options::default(),
                    Options {
                        at_turn_end: true,
                        ..Default::default()
                    },
                ] {
                    let report = check::run(&tree, Some(&head), options);
                    std::hint::black_box(report);
                    runs += 1;
                }
            }
        }
    }
    assert!(runs > 500, "only {runs} runs");
}
