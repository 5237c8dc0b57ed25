use super::*;
use crate::model::vocab::WorkflowState;
use serde_json::json;

/// The protocol's workflow states in order, as the board document lists them.
const STATES: &[&str] = WorkflowState::NAMES;

fn project(state: Option<&str>) -> Value {
    json!({
        "folder": ".",
        "cycleId": state.map(|_| "login-20261201T090000Z-0a1b2c3d"),
        "request": state.map(|_| "Let users log in"),
        "mode": state.map(|_| "STANDARD"),
        "completionPolicy": state.map(|_| "FULL_DELIVERABLE"),
        "state": state,
        "owner": state.map(|_| "Developer"),
        "next": state.map(|_| "/developer"),
        "blockedQuestion": null,
        "recoveryFrames": 0,
        "cycleStarted": state.map(|_| "2026-11-29T10:00:00Z"),
        "lastMove": state.map(|_| "2026-12-02T09:15:00Z"),
        "ageSource": state.map(|_| "audit"),
        "afterSignoff": []
    })
}

fn row(name: &str, readiness: &str, projects: Vec<Value>) -> Value {
    json!({
        "name": name,
        "kind": "branch",
        "refs": {"local": format!("refs/heads/{name}"), "remotes": []},
        "worktree": null,
        "commit": "0123456789abcdef0123456789abcdef01234567",
        "upstream": null,
        "problem": null,
        "projects": projects,
        "check": {"verdict": "pass", "problems": 0, "warnings": 0},
        "readiness": readiness,
        "readinessDetail": "Merge it: `git merge feature`."
    })
}

fn board(rows: Vec<Value>, collisions: Vec<Value>) -> Value {
    json!({
        "ok": true,
        "mainBranch": "main",
        "generatedAt": "2026-12-02T10:00:00Z",
        "states": STATES,
        "rows": rows,
        "collisions": collisions,
        "pairsCompared": 3,
        "pairsSkipped": 0,
        "maxPairs": 50
    })
}

/// The text after `start` up to the first `end` after it.
fn between<'a>(page: &'a str, start: &str, end: &str) -> &'a str {
    let from = page
        .find(start)
        .unwrap_or_else(|| panic!("{start} in the page"));
    let rest = &page[from + start.len()..];
    &rest[..rest.find(end).unwrap_or(rest.len())]
}

#[test]
fn a_page_is_one_self_contained_document() {
    let page = render(&board(
        vec![row("main", "ready", vec![project(None)])],
        vec![],
    ));
    assert!(page.starts_with("<!DOCTYPE html>\n<html lang=\"en\">"));
    assert!(page.ends_with("</html>\n"));
    assert!(page.contains("<meta charset=\"utf-8\">"));
    assert!(page.contains("<meta name=\"viewport\""));
    for external in [
        "http://", "https://", "<script", "<link", "src=", "@import", "url(",
    ] {
        assert!(!page.contains(external), "the page holds {external}");
    }
    assert!(page.contains("@media print"));
    assert!(page.contains("@media (max-width:760px)"));
}

#[test]
fn user_text_is_escaped_everywhere() {
    let hostile = "<script>alert('x')</script> & \"quoted\"";
    let mut r = row(hostile, "active", vec![project(Some("DEVELOPING"))]);
    r["problem"] = json!("<img src=x onerror=alert(1)>");
    r["projects"][0]["request"] = json!(hostile);
    r["projects"][0]["blockedQuestion"] = json!("Which <b>one</b>? A & B");
    r["projects"][0]["folder"] = json!("\"><svg onload=alert(1)>");
    r["readinessDetail"] = json!("run `<rm -rf>` now");
    let mut second = r.clone();
    second["projects"] = json!([project(Some("TESTING")), r["projects"][0].clone()]);
    let collision = json!({"a": hostile, "b": "main", "files": ["a<b>.rs", "q\"'.md"],
        "conflict": true, "conflictingHunks": 1, "inStandards": false, "truncated": false});
    let page = render(&board(
        vec![r, second, row("main", "ready", vec![])],
        vec![collision],
    ));
    for raw in [
        "<script>",
        "<img",
        "<svg",
        "<b>one",
        "<rm",
        "a<b>",
        "\"quoted\"",
        "q\"'",
    ] {
        assert!(!page.contains(raw), "{raw} reached the page unescaped");
    }
    assert!(
        page.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;quoted&quot;")
    );
    assert!(page.contains("<code>&lt;rm -rf&gt;</code>"));
    assert!(page.contains(
        "data-row=\"&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;quoted&quot;\""
    ));
}

#[test]
fn control_characters_and_non_ascii_survive_as_text() {
    let name = "fix/é-ü-日本語-\u{202e}evil\u{0}\u{7}\u{9b}";
    let page = render(&board(vec![row(name, "ready", vec![])], vec![]));
    assert!(page.contains("fix/é-ü-日本語-\u{202e}evil\u{fffd}\u{fffd}\u{fffd}"));
    assert!(!page.contains('\u{0}'));
    assert!(!page.contains('\u{7}'));
    // Names sit in isolated runs, so a right-to-left override stays inside them.
    assert!(page.contains("<bdi class=\"name\">fix/é"));
}

#[test]
fn a_very_long_name_is_kept_whole_and_may_wrap() {
    let name = "feature/".to_string() + &"x".repeat(5_000);
    let page = render(&board(vec![row(&name, "ready", vec![])], vec![]));
    assert!(page.contains(&format!("data-row=\"{name}\"")));
    assert!(STYLE.contains(".name{font-weight:600;overflow-wrap:anywhere}"));
}

#[test]
fn one_table_row_per_document_row() {
    let rows = vec![
        row("main", "ready", vec![project(None)]),
        row("feature/a", "active", vec![project(Some("DEVELOPING"))]),
        // Two projects: one data-row, one continuation row.
        row(
            "feature/b",
            "needs-reset",
            vec![project(Some("TESTING")), project(None)],
        ),
        row("feature/c", "unknown", vec![]),
    ];
    let page = render(&board(rows, vec![]));
    assert_eq!(page.matches("<tr data-row=").count(), 4);
    assert_eq!(page.matches("<tr class=\"cont ").count(), 1);
    for name in ["main", "feature/a", "feature/b", "feature/c"] {
        assert_eq!(page.matches(&format!("data-row=\"{name}\"")).count(), 1);
    }
    let b = between(&page, "data-row=\"feature/b\"", "</tr>");
    assert!(b.contains("rowspan=\"2\""), "{b}");
    let c = between(&page, "data-row=\"feature/c\"", "</tr>");
    assert!(c.contains("colspan=\"8\""), "{c}");
}

#[test]
fn a_row_shows_its_fields_and_ages_from_the_board_time() {
    let mut r = row("feature/a", "active", vec![project(Some("DEVELOPING"))]);
    r["projects"][0]["blockedQuestion"] = json!("Which database?");
    r["projects"][0]["recoveryFrames"] = json!(2);
    r["upstream"] = json!({"ref": "refs/remotes/origin/feature/a", "ahead": 3, "behind": 1});
    r["refs"]["remotes"] = json!(["refs/remotes/origin/feature/a"]);
    r["check"] = json!({"verdict": "fail", "problems": 2, "warnings": 1});
    let page = render(&board(vec![r], vec![]));
    let tr = between(&page, "<tr data-row=\"feature/a\"", "</tr>");
    for expected in [
        "Let users log in",
        "<code class=\"id\">login-20261201T090000Z-0a1b2c3d</code>",
        "STANDARD",
        "FULL_<wbr>DELIVERABLE",
        "<span class=\"st\">DEVELOPING</span>",
        "recovering (2 frames)",
        "Developer",
        "<code>/developer</code>",
        "<div class=\"blocked\">Which database?</div>",
        ">3d ago</time>",
        "title=\"2026-12-02T09:15:00Z (from the audit)\">45m ago</time>",
        "✗ fail<div class=\"sub\">2 problems, 1 warning</div>",
        "<span class=\"chip r-active\">Active</span>",
        "Merge it: <code>git merge feature</code>.",
        "↑3 ↓1",
        "origin/feature/a",
        "<code title=\"0123456789abcdef0123456789abcdef01234567\">01234567</code>",
    ] {
        assert!(tr.contains(expected), "{expected} in {tr}");
    }
}

#[test]
fn ages_read_as_units() {
    assert_eq!(ago(5), "5s ago");
    assert_eq!(ago(125), "2m ago");
    assert_eq!(ago(47 * 3600), "47h ago");
    assert_eq!(ago(3 * 86_400 + 5), "3d ago");
    assert_eq!(ago(-1), "after the board");
    // A time that cannot be read is shown as written.
    let mut r = row("a", "active", vec![project(Some("DEVELOPING"))]);
    r["projects"][0]["cycleStarted"] = json!("yesterday-ish");
    let page = render(&board(vec![r], vec![]));
    assert!(page.contains(">yesterday-ish</time>"));
}

#[test]
fn the_strip_highlights_the_current_state_and_dims_the_past() {
    let page = render(&board(
        vec![row("feature/a", "active", vec![project(Some("TESTING"))])],
        vec![],
    ));
    let strip = between(&page, "data-strip=\"feature/a\"", "</ol>");
    assert_eq!(strip.matches("<li ").count(), STATES.len());
    assert_eq!(strip.matches("class=\"past\"").count(), 4);
    assert_eq!(strip.matches("class=\"current\"").count(), 1);
    assert_eq!(strip.matches("class=\"future\"").count(), STATES.len() - 5);
    assert!(strip.contains(
        "<li class=\"current\" data-state=\"TESTING\" title=\"TESTING\" aria-current=\"step\">Testing</li>"
    ));
    assert!(strip.contains(">Reviewing implementation</li>"));
    // The order is the document's.
    let first = strip.find("SCOPING").unwrap();
    let last = strip.find("CANCELLED").unwrap();
    assert!(first < last);
}

#[test]
fn a_state_outside_the_list_highlights_nothing_and_says_so() {
    let page = render(&board(
        vec![row("feature/a", "unknown", vec![project(Some("DREAMING"))])],
        vec![],
    ));
    let machine = between(&page, "data-strip=\"feature/a\"", "</div>\n");
    assert!(!machine.contains("class=\"current\""));
    assert!(machine.contains("State <code>DREAMING</code> is not one of the protocol's states."));
}

#[test]
fn rows_without_a_cycle_are_listed_once_not_stripped() {
    let page = render(&board(
        vec![
            row("main", "ready", vec![project(None)]),
            row("old", "ready", vec![]),
        ],
        vec![],
    ));
    assert!(!page.contains("data-strip="));
    assert!(page.contains("No cycle in progress on the board."));
    assert!(page.contains(
        "Without a cycle: <bdi class=\"name\">main</bdi>, <bdi class=\"name\">old</bdi>"
    ));
}

#[test]
fn matrix_cells_carry_hunks_files_and_both_directions() {
    let rows = vec![
        row("main", "ready", vec![]),
        row("feature/a", "conflicts", vec![]),
        row("feature/b", "active", vec![]),
        row("feature/quiet", "active", vec![]),
    ];
    let collisions = vec![
        json!({"a": "feature/a", "b": "main", "files": ["src/lib.rs"], "conflict": true,
               "conflictingHunks": 5, "inStandards": false, "truncated": false}),
        json!({"a": "feature/a", "b": "feature/b", "files": ["README.md", "docs/x.md", ".standards/STATE.md"],
               "conflict": false, "conflictingHunks": 0, "inStandards": true, "truncated": true}),
    ];
    let page = render(&board(rows, collisions));
    let matrix = between(&page, "<table class=\"matrix\"", "</table>");
    // Three rows take part (the quiet one is left out and counted).
    assert_eq!(matrix.matches("<th scope=\"col\"").count(), 3);
    assert_eq!(matrix.matches("<td class=\"self\">").count(), 3);
    assert_eq!(matrix.matches("<td class=\"cell ").count(), 6);
    assert_eq!(matrix.matches("<td class=\"cell clear\">").count(), 2);
    assert!(page.contains("1 other row overlaps with none of the pairs compared."));
    assert!(matrix.contains(
        "<td class=\"cell h3\" data-a=\"main\" data-b=\"feature/a\" data-hunks=\"5\" data-files=\"1\" \
         title=\"main × feature/a: 5 conflicting hunks in 1 file\nsrc/lib.rs\">5</td>"
    ));
    assert!(matrix.contains("data-a=\"feature/a\" data-b=\"main\" data-hunks=\"5\""));
    assert!(matrix.contains(
        "<td class=\"cell f2 std trunc\" data-a=\"feature/a\" data-b=\"feature/b\" data-hunks=\"0\" data-files=\"3\""
    ));
    assert!(matrix.contains("3 files in common, merges cleanly, inside .standards/"));
    assert!(matrix.contains(
        "feature/b: 3 files in common, merges cleanly, inside .standards/\nREADME.md\ndocs/x.md\n\
         .standards/STATE.md\n(list cut short)\">3</td>"
    ));
    // The row order is the board's: main first.
    assert!(matrix.find("title=\"main\"").unwrap() < matrix.find("title=\"feature/a\"").unwrap());
    // The pairs are listed for print too.
    let pairs = between(&page, "<table class=\"pairs\">", "</table>");
    assert_eq!(pairs.matches("<tr data-pair=").count(), 2);
    assert!(pairs.contains("<code>src/lib.rs</code>"));
    assert!(pairs.contains("(list cut short)"));
}

#[test]
fn heat_grows_with_conflicting_hunks() {
    let cell = |hunks: u64| {
        let c = json!({"a": "x", "b": "y", "files": ["f"], "conflict": true,
                       "conflictingHunks": hunks, "inStandards": false, "truncated": false});
        let page = render(&board(
            vec![row("x", "conflicts", vec![]), row("y", "conflicts", vec![])],
            vec![c],
        ));
        between(&page, "<td class=\"cell ", "\"").to_string()
    };
    assert_eq!(cell(1), "h1");
    assert_eq!(cell(3), "h2");
    assert_eq!(cell(7), "h3");
    assert_eq!(cell(40), "h4");
}

#[test]
fn skipped_pairs_are_noted() {
    let mut doc = board(vec![row("main", "ready", vec![])], vec![]);
    doc["pairsCompared"] = json!(50);
    doc["pairsSkipped"] = json!(12);
    let page = render(&doc);
    assert!(page.contains(
        "50 pairs compared; <strong class=\"warn\">12 pairs not compared</strong> (at most 50 by <code>--max-pairs</code>)."
    ));
    assert!(page.contains("No two rows change the same files."));
}

#[test]
fn an_empty_board_renders_its_frame() {
    let page = render(&board(vec![], vec![]));
    assert!(page.contains("No branches on the board."));
    assert!(page.contains("No cycle in progress on the board."));
    assert!(page.contains("No two rows change the same files."));
    assert!(!page.contains("data-row="));
    assert!(page.contains("0 rows"));
    // Not even a document: the frame still renders.
    let page = render(&Value::Null);
    assert!(page.contains("Main branch unknown"));
    assert!(page.ends_with("</html>\n"));
}

#[test]
fn problem_rows_are_marked() {
    let mut broken = row("feature/broken", "unknown", vec![]);
    broken["problem"] = json!(".standards/STATE.md is in a merge conflict");
    broken["check"] = json!({"verdict": "unknown", "problems": 0, "warnings": 0});
    let page = render(&board(vec![row("main", "ready", vec![]), broken], vec![]));
    let tr = between(&page, "<tr data-row=\"feature/broken\"", "</tr>");
    assert!(tr.contains("class=\"row r-unknown problem\""), "{tr}");
    assert!(tr.contains(
        "<div class=\"problem-note\" role=\"note\"><b>Problem:</b> .standards/STATE.md is in a merge conflict</div>"
    ));
    assert!(tr.contains("Unreadable: see the problem."));
    assert!(tr.contains("? unknown"));
    let main = between(&page, "<tr data-row=\"main\"", "</tr>");
    assert!(!main.contains("problem"));
    assert!(page.contains("<li class=\"chip problem-chip\">Problem <b>1</b></li>"));
}

#[test]
fn the_header_counts_rows_per_readiness() {
    let page = render(&board(
        vec![
            row("main", "ready", vec![]),
            row("a", "ready", vec![]),
            row("b", "signed-off-needs-reset", vec![]),
            row("c", "conflicts", vec![]),
        ],
        vec![],
    ));
    let header = between(&page, "<header>", "</header>");
    assert!(header.contains("Main branch <bdi class=\"name\">main</bdi>"));
    assert!(header.contains("<time datetime=\"2026-12-02T10:00:00Z\">2026-12-02 10:00 UTC</time>"));
    assert!(header.contains("4 rows"));
    assert!(header.contains("data-count=\"ready\">Ready <b>2</b>"));
    assert!(
        header.contains("data-count=\"signed-off-needs-reset\">Signed off, needs reset <b>1</b>")
    );
    assert!(header.contains("data-count=\"conflicts\">Conflicts <b>1</b>"));
    assert!(!header.contains("data-count=\"active\""));
}

#[test]
fn worktree_rows_show_their_path_and_changes_after_signoff_show() {
    let mut wt = row(
        "feature/a",
        "signed-off-needs-reset",
        vec![project(Some("SIGNED_OFF"))],
    );
    wt["kind"] = json!("worktree");
    wt["worktree"] = json!("/home/me/wt/a");
    wt["projects"][0]["afterSignoff"] = json!(["src/lib.rs", "docs/x.md"]);
    let page = render(&board(vec![wt], vec![]));
    let tr = between(&page, "<tr data-row=\"feature/a\"", "</tr>");
    assert!(tr.contains("data-kind=\"worktree\""));
    assert!(tr.contains(
        "<span class=\"tag\">worktree</span><div class=\"sub path\"><bdi>/home/me/wt/a</bdi></div>"
    ));
    assert!(tr.contains("title=\"src/lib.rs\ndocs/x.md\">2 paths changed after sign-off</div>"));
}

#[test]
fn tokens_may_break_after_underscores_and_stay_escaped() {
    assert_eq!(
        Token("REVIEWING_IMPLEMENTATION").to_string(),
        "REVIEWING_<wbr>IMPLEMENTATION"
    );
    assert_eq!(Token("A<_>").to_string(), "A&lt;_<wbr>&gt;");
    let page = render(&board(
        vec![row(
            "a",
            "active",
            vec![project(Some("AWAITING_USER_SIGNOFF"))],
        )],
        vec![],
    ));
    assert!(page.contains("<span class=\"st\">AWAITING_<wbr>USER_<wbr>SIGNOFF</span>"));
}

#[test]
fn a_time_with_an_offset_keeps_it() {
    let mut doc = board(vec![], vec![]);
    doc["generatedAt"] = json!("2026-12-02T11:00:00+01:00");
    let page = render(&doc);
    assert!(page
        .contains("<time datetime=\"2026-12-02T11:00:00+01:00\">2026-12-02 11:00 +01:00</time>"));
    doc["generatedAt"] = json!("not a time");
    assert!(render(&doc).contains("<time datetime=\"not a time\">not a time</time>"));
}

#[test]
fn backquotes_pair_into_code_and_a_lone_one_stays() {
    assert_eq!(
        Code("run `a` then `b`").to_string(),
        "run <code>a</code> then <code>b</code>"
    );
    assert_eq!(Code("a ` b").to_string(), "a ` b");
    assert_eq!(Code("`x` and ` y").to_string(), "<code>x</code> and ` y");
}
