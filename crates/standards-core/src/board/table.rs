//! The board as a terminal table: one line per row, cut to a width (120
//! columns by default) with an ellipsis, then the rows' problems and a short
//! list of collisions. Ages are shown relative to the board's `generatedAt`.

use super::{Board, CheckVerdict, Row, RowKind};

/// The default width of the table.
pub const WIDTH: usize = 120;

/// The columns: heading and width. The last one takes what is left.
const COLUMNS: [(&str, usize); 7] = [
    ("BRANCH", 26),
    ("STATE", 24),
    ("OWNER", 12),
    ("NEXT", 12),
    ("CHECK", 6),
    ("READINESS", 22),
    ("MOVED", 6),
];

const GAP: &str = "  ";

/// `text` cut to at most `width` characters (the last one `…` when cut).
pub fn cut(text: &str, width: usize) -> String {
    // One line: a newline or tab in a request or name would break the table.
    let text: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if text.chars().count() <= width {
        return text;
    }
    if width == 0 {
        return String::new();
    }
    let mut out: String = text.chars().take(width - 1).collect();
    out.push('…');
    out
}

fn pad(text: &str, width: usize) -> String {
    let text = cut(text, width);
    let n = text.chars().count();
    format!("{text}{}", " ".repeat(width.saturating_sub(n)))
}

/// How long ago `time` was, from `now` (both RFC 3339): `45s`, `12m`, `3h`, `9d`.
pub fn age(time: &str, now: &str) -> Option<String> {
    let time = chrono::DateTime::parse_from_rfc3339(time).ok()?;
    let now = chrono::DateTime::parse_from_rfc3339(now).ok()?;
    let secs = (now - time).num_seconds().max(0);
    Some(match secs {
        s if s < 60 => format!("{s}s"),
        s if s < 3600 => format!("{}m", s / 60),
        s if s < 86_400 => format!("{}h", s / 3600),
        s => format!("{}d", s / 86_400),
    })
}

fn joined<'a>(values: impl Iterator<Item = Option<&'a str>>) -> String {
    let v: Vec<&str> = values.map(|v| v.unwrap_or("-")).collect();
    if v.is_empty() {
        "-".to_string()
    } else {
        v.join(",")
    }
}

fn cells(row: &Row, now: &str) -> [String; 7] {
    let mut name = row.name.clone();
    if row.kind == RowKind::Worktree {
        name.push_str(" [worktree]");
    }
    if let Some(up) = &row.upstream {
        if up.ahead > 0 || up.behind > 0 {
            name.push_str(&format!(" +{}-{}", up.ahead, up.behind));
        }
    }
    let check = match row.check.verdict {
        CheckVerdict::Pass => "pass".to_string(),
        CheckVerdict::Fail => format!("fail {}", row.check.problems),
        CheckVerdict::Unknown => "?".to_string(),
    };
    let moved = row
        .projects
        .iter()
        .filter_map(|p| p.last_move.as_deref())
        .max()
        .and_then(|t| age(t, now))
        .unwrap_or_else(|| "-".to_string());
    let p = &row.projects;
    [
        name,
        joined(p.iter().map(|p| p.state.as_deref())),
        joined(p.iter().map(|p| p.owner.as_deref())),
        joined(p.iter().map(|p| p.next.as_deref())),
        check,
        row.readiness.as_str().to_string(),
        moved,
    ]
}

fn line(cells: &[String; 7], width: usize) -> String {
    let mut out = String::new();
    for (i, (cell, (_, w))) in cells.iter().zip(COLUMNS).enumerate() {
        if i > 0 {
            out.push_str(GAP);
        }
        if i + 1 == COLUMNS.len() {
            out.push_str(&cut(cell, w));
        } else {
            out.push_str(&pad(cell, w));
        }
    }
    cut(out.trim_end(), width)
}

/// The whole board as text, each line at most `width` characters.
pub fn render(board: &Board, width: usize) -> String {
    let mut out = String::new();
    let heading = COLUMNS.map(|(h, _)| h.to_string());
    out.push_str(&line(&heading, width));
    out.push('\n');
    for row in &board.rows {
        out.push_str(&line(&cells(row, &board.generated_at), width));
        out.push('\n');
    }
    let problems: Vec<&Row> = board.rows.iter().filter(|r| r.problem.is_some()).collect();
    if !problems.is_empty() {
        out.push_str("\nProblems:\n");
        for row in problems {
            let text = format!("  {}: {}", row.name, row.problem.as_deref().unwrap_or(""));
            out.push_str(&cut(&text, width));
            out.push('\n');
        }
    }
    out.push('\n');
    let tally = format!(
        "{} pair{} compared, {} skipped (at most {})",
        board.pairs_compared,
        if board.pairs_compared == 1 { "" } else { "s" },
        board.pairs_skipped,
        board.max_pairs
    );
    if board.collisions.is_empty() {
        out.push_str(&cut(&format!("No collisions: {tally}."), width));
        out.push('\n');
        return out;
    }
    out.push_str(&cut(&format!("Collisions: {tally}:"), width));
    out.push('\n');
    for c in &board.collisions {
        let what = if c.conflict {
            format!(
                "conflict, {} hunk{}{}",
                c.conflicting_hunks,
                if c.conflicting_hunks == 1 { "" } else { "s" },
                if c.in_standards {
                    " in .standards/"
                } else {
                    ""
                }
            )
        } else {
            "both change".to_string()
        };
        let more = if c.truncated { ", …" } else { "" };
        let text = format!("  {} / {}: {what}: {}{more}", c.a, c.b, c.files.join(", "));
        out.push_str(&cut(&text, width));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{CheckSummary, Collision, ProjectRow, Readiness, Refs};

    fn row(name: &str) -> Row {
        let mut project = ProjectRow::unread("");
        project.state = Some("REVIEWING_IMPLEMENTATION".into());
        project.owner = Some("Reviewer".into());
        project.next = Some("/reviewer".into());
        project.last_move = Some("2026-12-01T10:00:00Z".into());
        Row {
            name: name.into(),
            kind: RowKind::Branch,
            refs: Refs::default(),
            worktree: None,
            commit: None,
            upstream: None,
            problem: None,
            projects: vec![project],
            check: CheckSummary {
                verdict: CheckVerdict::Fail,
                problems: 3,
                warnings: 0,
            },
            readiness: Readiness::SignedOffNeedsReset,
            readiness_detail: String::new(),
        }
    }

    #[test]
    fn every_line_fits_and_long_names_end_in_an_ellipsis() {
        let mut board = Board::new("main", "2026-12-02T10:00:00Z".into(), 50);
        board
            .rows
            .push(row("feature/a-very-long-branch-name-that-does-not-fit"));
        board.rows[0].problem = Some("x".repeat(300));
        board.collisions.push(
            Collision::build("a", "main", &["f".repeat(200)], &["f".repeat(200)], &[], 0).unwrap(),
        );
        let text = render(&board, WIDTH);
        for l in text.lines() {
            assert!(l.chars().count() <= WIDTH, "{l}");
        }
        assert!(
            text.contains("feature/a-very-long-branc…  REVIEWING"),
            "{text}"
        );
        assert!(text.contains("fail 3"), "{text}");
        assert!(text.contains("signed-off-needs-reset"), "{text}");
        assert!(text.contains(" 1d"), "{text}");
        assert!(
            text.contains("Collisions: 0 pairs compared, 0 skipped (at most 50):"),
            "{text}"
        );
        let narrow = render(&board, 40);
        assert!(narrow.lines().all(|l| l.chars().count() <= 40), "{narrow}");
    }

    #[test]
    fn ages_and_cuts() {
        assert_eq!(
            age("2026-12-02T09:59:15Z", "2026-12-02T10:00:00Z").as_deref(),
            Some("45s")
        );
        assert_eq!(
            age("2026-12-02T07:00:00Z", "2026-12-02T10:00:00Z").as_deref(),
            Some("3h")
        );
        assert_eq!(age("not a time", "2026-12-02T10:00:00Z"), None);
        assert_eq!(cut("abcdef", 4), "abc…");
        assert_eq!(cut("a\nb", 4), "a b");
    }
}
