//! `log` output formats (issue 25): one short line per event by default,
//! `--format full` for the whole line, `--json` for the stored lines.

use crate::audit::cycle_anchor;
use crate::common::{stderr, stdout};
use crate::fixture::Project;

const WIDTH: usize = 100;

fn json_lines(p: &Project, args: &[&str]) -> Vec<serde_json::Value> {
    let mut all = vec!["log", "--json"];
    all.extend_from_slice(args);
    stdout(&p.run(&all).success())
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// `2026-12-01T09:04:53.123456Z` as the readable lines show it.
fn shown_time(ts: &str) -> String {
    format!("{} {}Z", &ts[..10], &ts[11..19])
}

#[test]
fn default_log_lines_are_short_even_for_long_requests() {
    let p = Project::brown();
    let long = format!(
        "Rewrite {} and ünïcödé {}",
        "the search ".repeat(40),
        "日本語".repeat(60)
    );
    let cycle = p.line(&["cycle", "new", "--request", &long]);
    let short = p.line(&["cycle", "new", "--request", "Two"]);
    let a = p.run(&["log", "--color", "never"]).success();
    let out = stdout(&a);
    let events = json_lines(&p, &[]);
    assert_eq!(out.lines().count(), events.len(), "{out}");
    for (line, e) in out.lines().zip(&events) {
        assert!(
            line.chars().count() <= WIDTH,
            "{} chars: {line}",
            line.chars().count()
        );
        assert!(
            line.starts_with(&format!(
                "{}  {}  ",
                shown_time(e["ts"].as_str().unwrap()),
                e["event"].as_str().unwrap()
            )),
            "{line}"
        );
        // The actor is only in `--format full`.
        assert!(!line.contains("author@example.com"), "{line}");
    }
    // A long cycle ID keeps its start and its distinctive end.
    let long_line = out
        .lines()
        .find(|l| l.contains(&cycle[cycle.len() - 26..]))
        .unwrap();
    assert!(
        long_line.contains(&format!("  {}…", &cycle[..13])),
        "{long_line}"
    );
    assert!(long_line.contains("  request=Rewrite th"), "{long_line}");
    assert!(long_line.ends_with('…'), "{long_line}");
    assert_eq!(long_line.chars().count(), WIDTH, "{long_line}");
    let short_line = out.lines().find(|l| l.contains(&short)).unwrap();
    assert!(
        short_line.ends_with(&format!("  cycle-id-issued  {short}  request=Two")),
        "{short_line}"
    );
    // `--limit` and the filters print the same short lines.
    let a = p
        .run(&["log", "--limit", "1", "--color", "never"])
        .success();
    assert_eq!(stdout(&a), format!("{short_line}\n"));
    // With colour, only escape codes are added.
    let coloured = stdout(&p.run(&["log", "--color", "always"]).success());
    let plain: String = strip_codes(&coloured);
    assert_eq!(plain, out);
}

fn strip_codes(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for c in chars.by_ref() {
                if c == 'm' {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[test]
fn format_full_prints_the_whole_line_and_json_is_the_stored_line() {
    let p = Project::brown();
    let long = "a long request ".repeat(50);
    let long = long.trim_end();
    let cycle = p.line(&["cycle", "new", "--request", long]);
    let e = &json_lines(&p, &["--event", "cycle-id-issued"])[0];
    // The whole line, as `log` printed it before the short default.
    let want = format!(
        "{}  {}  {}  cycle-id-issued  request={}\n",
        shown_time(e["ts"].as_str().unwrap()),
        e["actor"].as_str().unwrap(),
        cycle,
        long
    );
    for format in ["full", "FULL"] {
        let a = p
            .run(&[
                "log",
                "--format",
                format,
                "--event",
                "cycle-id-issued",
                "--color",
                "never",
            ])
            .success();
        assert_eq!(stdout(&a), want);
    }
    assert!(want.chars().count() > WIDTH);
    // `--format oneline` is the default.
    let default = stdout(&p.run(&["log", "--color", "never"]).success());
    let oneline = stdout(
        &p.run(&["log", "--format", "oneline", "--color", "never"])
            .success(),
    );
    assert_eq!(default, oneline);
    // `--json` prints the stored note line byte for byte, git as witness.
    let anchor = cycle_anchor(&p.env, &p.root, &cycle);
    let note = p
        .env
        .git(&p.root, &["notes", "--ref=standards", "show", &anchor]);
    let a = p.run(&["log", "--json", "--cycle", &cycle]).success();
    assert_eq!(stdout(&a).trim_end(), note.trim_end());
    // `--format` and `--json` together: a usage error naming both.
    for format in ["full", "oneline"] {
        let a = p.run(&["log", "--json", "--format", format]).code(2);
        assert!(stderr(&a).contains("--format"), "{}", stderr(&a));
    }
    let a = p.run(&["log", "--format", "short"]).code(2);
    assert!(stderr(&a).contains("oneline"), "{}", stderr(&a));
}
