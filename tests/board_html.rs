//! Issue 28: the board's HTML view (`board --html <file>`) in a real
//! browser. A realistic board document (every readiness several times, a
//! problem row, a worktree row, a project in a subfolder, hostile names,
//! collisions) is rendered with `standards_core::board::html::render` and
//! opened in headless Chromium: the DOM it builds must hold one `data-row`
//! per row, the strips and the matrix, and no element from user text; the
//! screenshot must be a real PNG of the asked size.
//!
//! Without Chromium the tests say so and pass, unless `CI` is set: `.ci/run`
//! installs it, so a CI run without it fails instead of skipping.
//! `BOARD_HTML_KEEP=<folder>` copies the page and its screenshot there.

use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use standards_core::model::vocab::WorkflowState;

/// No browser to run (outside CI); the reason is printed by the caller.
#[derive(Debug)]
pub struct Skip(pub String);

/// How long one browser run may take before it is killed and the test fails.
const BROWSER_TIMEOUT: Duration = Duration::from_secs(60);

/// The Chromium to run: `/usr/bin/chromium`, else `chromium` on `PATH`.
/// With `CI` set a missing browser is a failure, not a skip.
fn chromium() -> Result<PathBuf, Skip> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let candidates = std::iter::once(PathBuf::from("/usr/bin/chromium"))
        .chain(std::env::split_paths(&path).map(|dir| dir.join("chromium")));
    for candidate in candidates {
        if candidate.is_file() {
            return Ok(candidate);
        }
    }
    let message = "skipped: no chromium on PATH; .ci/run installs it";
    assert!(
        std::env::var_os("CI").is_none_or(|v| v.is_empty()),
        "CI is set but there is no chromium on PATH ({message})"
    );
    Err(Skip(message.to_string()))
}

/// Runs Chromium headless with `args` and a fresh profile, writing its
/// standard output to `stdout_file`; kills it after [`BROWSER_TIMEOUT`] and
/// fails. Returns its standard error.
fn run_chromium(browser: &Path, args: &[String], stdout_file: &Path) -> String {
    let profile = tempfile::tempdir().expect("profile folder");
    let stdout = std::fs::File::create(stdout_file).expect("stdout file");
    let mut child = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(args)
        .env("HOME", profile.path())
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(Stdio::piped())
        .spawn()
        .expect("chromium starts");
    // Standard error is drained by a thread, so a chatty browser cannot block on a full pipe.
    let mut err = child.stderr.take().expect("stderr");
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = err.read_to_string(&mut text);
        text
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for chromium") {
            break status;
        }
        if started.elapsed() > BROWSER_TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "chromium {args:?} did not finish in {} s and was killed",
                BROWSER_TIMEOUT.as_secs()
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let stderr = reader.join().unwrap_or_default();
    assert!(
        status.success(),
        "chromium {args:?} failed ({status}):\n{stderr}"
    );
    stderr
}

/// Opens `html_path` in headless Chromium twice: `--dump-dom` (the DOM it
/// built, serialised) and `--screenshot` at 1400x900, written beside the
/// page as `<page>.png`. `Err(Skip)` when there is no browser outside CI.
pub fn render_in_chromium(html_path: &Path) -> Result<(String, PathBuf), Skip> {
    let browser = chromium()?;
    let html_path = html_path.canonicalize().expect("the page exists");
    let url = format!("file://{}", html_path.display());
    let dom_file = html_path.with_extension("dom.html");
    run_chromium(&browser, &["--dump-dom".into(), url.clone()], &dom_file);
    let dom = std::fs::read_to_string(&dom_file).expect("the dumped DOM");
    let png = html_path.with_extension("png");
    let _ = std::fs::remove_file(&png);
    run_chromium(
        &browser,
        &[
            format!("--screenshot={}", png.display()),
            "--window-size=1400,900".into(),
            url,
        ],
        &html_path.with_extension("screenshot.log"),
    );
    Ok((dom, png))
}

/// Width and height of a PNG, after checking its signature and header chunk.
fn png_size(bytes: &[u8]) -> (u32, u32) {
    assert!(
        bytes.starts_with(b"\x89PNG\r\n\x1a\n"),
        "not a PNG signature"
    );
    assert_eq!(&bytes[12..16], b"IHDR", "the first chunk is IHDR");
    let be = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
    (be(16), be(20))
}

/// The protocol's workflow states in order, as the board document lists them.
const STATES: &[&str] = WorkflowState::NAMES;

const OWNERS: &[(&str, &str, &str)] = &[
    ("SCOPING", "Scoper", "/scoper"),
    ("ARCHITECTING", "Architect", "/architect"),
    ("AUDITING", "Auditor", "/auditor"),
    ("DEVELOPING", "Developer", "/developer"),
    ("TESTING", "Tester", "/tester"),
    ("REVIEWING_IMPLEMENTATION", "Reviewer", "/reviewer"),
    ("DOCUMENTING", "Documenter", "/documenter"),
    ("REVIEWING_FINAL", "Reviewer", "/reviewer"),
    ("SYNCHRONIZING", "Synchronizer", "/synchronizer"),
    ("AWAITING_USER_SIGNOFF", "User", "sign off with the user"),
    ("SIGNED_OFF", "User", "reset the project"),
];

/// A project of a row: in a cycle at `state`, or without one.
fn project(folder: &str, state: Option<&str>, request: &str, days: u32) -> Value {
    let Some(state) = state else {
        return json!({
            "folder": folder, "cycleId": null, "request": null, "mode": null,
            "completionPolicy": null, "state": null, "owner": null, "next": null,
            "blockedQuestion": null, "recoveryFrames": 0, "cycleStarted": null,
            "lastMove": null, "ageSource": null, "afterSignoff": []
        });
    };
    let (owner, next) = OWNERS
        .iter()
        .find(|(s, _, _)| *s == state)
        .map(|(_, o, n)| (*o, *n))
        .unwrap_or(("User", "ask the user"));
    let slug: String = request
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .take(12)
        .collect::<String>()
        .to_lowercase();
    json!({
        "folder": folder,
        "cycleId": format!("{slug}-202611{:02}T090000Z-5e1f00{days:02}", 30 - days.min(29)),
        "request": request,
        "mode": if days.is_multiple_of(3) { "EXPEDITED" } else { "STANDARD" },
        "completionPolicy": "FULL_DELIVERABLE",
        "state": state,
        "owner": owner,
        "next": next,
        "blockedQuestion": null,
        "recoveryFrames": 0,
        "cycleStarted": format!("2026-11-{:02}T09:00:00Z", 30 - days.min(29)),
        "lastMove": format!("2026-12-02T{:02}:{:02}:00Z", 9 - days % 9, (days * 7) % 60),
        "ageSource": if days.is_multiple_of(2) { "audit" } else { "commits" },
        "afterSignoff": []
    })
}

fn row(name: &str, readiness: &str, detail: &str, projects: Vec<Value>) -> Value {
    let n = name.len();
    json!({
        "name": name,
        "kind": "branch",
        "refs": {
            "local": format!("refs/heads/{name}"),
            "remotes": [format!("refs/remotes/origin/{name}")]
        },
        "worktree": null,
        "commit": format!("{:040x}", (n as u128) * 0x9e3779b97f4a7c15_u128),
        "upstream": {"ref": format!("refs/remotes/origin/{name}"), "ahead": n % 3, "behind": n % 2},
        "problem": null,
        "projects": projects,
        "check": {"verdict": "pass", "problems": 0, "warnings": 0},
        "readiness": readiness,
        "readinessDetail": detail
    })
}

/// A board as the `board` command builds it: every readiness at least
/// twice, a problem row, a worktree row, a remote-only branch, a project in
/// a subfolder, hostile and non-ASCII names, and collisions of every kind.
pub fn realistic_board() -> Value {
    let merge =
        "Ready to merge: no cycle in progress and check passes; run `git merge --no-ff {}`.";
    let mut rows = vec![
        row(
            "main",
            "ready",
            "The main branch: no cycle in progress.",
            vec![project(".", None, "", 0)],
        ),
        row(
            "feature/search",
            "ready",
            &merge.replace("{}", "feature/search"),
            vec![project(".", None, "", 0)],
        ),
        row(
            "feature/login",
            "active",
            "A cycle is at DEVELOPING; run `/developer` to continue.",
            vec![project(
                ".",
                Some("DEVELOPING"),
                "Let users log in with their company account (SSO through OpenID Connect), \
                 keeping password login for contractors",
                3,
            )],
        ),
        row(
            "feature/reports",
            "active",
            "Waiting for an answer from the user.",
            vec![project(
                ".",
                Some("SCOPING"),
                "Monthly PDF reports per team",
                1,
            )],
        ),
        row(
            "feature/export",
            "signed-off-needs-reset",
            "Signed off; run `git standards reset --yes` on the branch before merging.",
            vec![project(".", Some("SIGNED_OFF"), "CSV and JSON export", 6)],
        ),
        row(
            "fix/timezones",
            "signed-off-needs-reset",
            "Signed off; run `git standards reset --yes` on the branch before merging.",
            vec![project(".", Some("SIGNED_OFF"), "Store times as UTC", 9)],
        ),
        row(
            "feature/billing",
            "needs-reset",
            "The cycle was cancelled; run `git standards reset --yes` before merging.",
            vec![project(
                ".",
                Some("CANCELLED"),
                "Switch payment provider",
                12,
            )],
        ),
        row(
            "chore/deps",
            "needs-reset",
            "Its .standards/ differs from main's; run `git standards reset --yes`.",
            vec![project(".", None, "", 0)],
        ),
        row(
            "feature/payments",
            "conflicts",
            "Conflicts with main in 2 hunks (src/pay.rs); merge main into it first.",
            vec![project(
                ".",
                Some("TESTING"),
                "Refunds & partial captures",
                4,
            )],
        ),
        row(
            "feature/i18n-日本語",
            "conflicts",
            "Conflicts with feature/login in .standards/STATE.md.",
            vec![project(
                ".",
                Some("REVIEWING_IMPLEMENTATION"),
                "Übersetzungen: ja, de, fr — «quoted» text",
                8,
            )],
        ),
        row(
            "feature/<script>alert('board')</script>&\"x\"",
            "unknown",
            "Check could not run: the branch's .standards/ is unreadable.",
            vec![],
        ),
        row(
            "experiment/very-long-branch-name-that-goes-on-and-on-and-on-\
             well-past-any-column-width-anyone-would-choose-for-a-table",
            "unknown",
            "No merge base with main (shallow clone); run `git fetch --unshallow`.",
            vec![project(
                ".",
                Some("AWAITING_USER_SIGNOFF"),
                "Try the new parser",
                2,
            )],
        ),
    ];
    // A blocked question and a recovery frame on the login cycle.
    rows[2]["projects"][0]["blockedQuestion"] =
        json!("Should contractors keep password login after the SSO launch, or only until March?");
    rows[3]["projects"][0]["blockedQuestion"] = json!("Which teams need reports first?");
    rows[8]["projects"][0]["recoveryFrames"] = json!(1);
    rows[4]["projects"][0]["afterSignoff"] = json!(["src/export.rs"]);
    rows[8]["check"] = json!({"verdict": "fail", "problems": 2, "warnings": 1});
    // A problem row: .standards/ in a merge conflict.
    rows[10]["problem"] =
        json!(".standards/STATE.md holds conflict markers <<<<<<< and cannot be read");
    rows[10]["check"] = json!({"verdict": "unknown", "problems": 0, "warnings": 0});
    rows[11]["problem"] = json!("no merge base with main: the clone is shallow");
    rows[11]["upstream"] = Value::Null;
    // A remote-only branch.
    rows[3]["refs"]["local"] = Value::Null;
    rows[3]["upstream"] = Value::Null;
    // A monorepo branch with two projects.
    rows.push(row(
        "feature/mobile",
        "active",
        "Two cycles in progress (apps/ios at ARCHITECTING, apps/android at AUDITING).",
        vec![
            project(
                "apps/ios",
                Some("ARCHITECTING"),
                "iOS push notifications",
                2,
            ),
            project(
                "apps/android",
                Some("AUDITING"),
                "Android push notifications",
                5,
            ),
        ],
    ));
    // A linked worktree with uncommitted moves of feature/login.
    let mut worktree = row(
        "feature/login",
        "active",
        "Uncommitted: the worktree is at TESTING; commit it to move the branch.",
        vec![project(
            ".",
            Some("TESTING"),
            "Let users log in with their company account (SSO through OpenID Connect), \
             keeping password login for contractors",
            3,
        )],
    );
    worktree["kind"] = json!("worktree");
    worktree["worktree"] = json!("/home/rm/src/shop-login");
    worktree["refs"]["remotes"] = json!([]);
    rows.push(worktree);
    let collision = |a: &str, b: &str, files: &[&str], hunks: u64, std: bool, cut: bool| {
        json!({"a": a, "b": b, "files": files, "conflict": hunks > 0,
               "conflictingHunks": hunks, "inStandards": std, "truncated": cut})
    };
    let collisions = vec![
        collision("feature/payments", "main", &["src/pay.rs"], 2, false, false),
        collision(
            "feature/i18n-日本語",
            "feature/login",
            &[".standards/STATE.md", "src/locale.rs"],
            1,
            true,
            false,
        ),
        collision(
            "feature/payments",
            "feature/export",
            &[
                "src/pay.rs",
                "src/export.rs",
                "src/money.rs",
                "tests/pay.rs",
                "tests/export.rs",
            ],
            9,
            false,
            true,
        ),
        collision(
            "feature/login",
            "feature/search",
            &["src/routes.rs", "src/ui/header.rs"],
            0,
            false,
            false,
        ),
        collision(
            "feature/mobile",
            "feature/i18n-日本語",
            &["apps/ios/Localizable.strings"],
            0,
            false,
            false,
        ),
        collision(
            "fix/timezones",
            "feature/reports",
            &[
                "src/time.rs",
                "src/report/period.rs",
                "src/report/pdf.rs",
                "src/db/schema.sql",
                "src/db/query.rs",
                "docs/time.md",
            ],
            4,
            false,
            false,
        ),
    ];
    json!({
        "ok": true,
        "mainBranch": "main",
        "generatedAt": "2026-12-02T10:30:00Z",
        "states": STATES,
        "rows": rows,
        "collisions": collisions,
        "pairsCompared": 50,
        "pairsSkipped": 41,
        "maxPairs": 50
    })
}

/// The page written to a new temp folder, with the folder.
fn written_page(document: &Value) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let page = dir.path().join("board.html");
    std::fs::write(&page, standards_core::board::html::render(document)).expect("page written");
    (dir, page)
}

/// Copies the page and its screenshot to `BOARD_HTML_KEEP`, when set.
fn keep(page: &Path, png: &Path, name: &str) {
    if let Some(dir) = std::env::var_os("BOARD_HTML_KEEP") {
        let dir = PathBuf::from(dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::copy(page, dir.join(format!("{name}.html"))).unwrap();
        std::fs::copy(png, dir.join(format!("{name}.png"))).unwrap();
    }
}

#[test]
fn the_board_page_renders_in_a_real_browser() {
    let document = realistic_board();
    let rows = document["rows"].as_array().unwrap().len();
    let (_dir, page) = written_page(&document);
    let (dom, png) = match render_in_chromium(&page) {
        Ok(out) => out,
        Err(Skip(message)) => {
            eprintln!("{message}");
            return;
        }
    };
    keep(&page, &png, "board");
    // The browser built the whole document: one data-row per row, and the
    // table ends where the page says it does.
    assert_eq!(dom.matches("<tr data-row=").count(), rows, "{dom}");
    assert!(dom.contains("</html>"));
    for name in ["main", "feature/payments", "feature/i18n-日本語"] {
        assert!(dom.contains(&format!("data-row=\"{name}\"")), "{name}");
    }
    assert_eq!(dom.matches("data-kind=\"worktree\"").count(), 1);
    assert_eq!(dom.matches("class=\"row r-unknown problem\"").count(), 2);
    // The strips: one per project in a cycle, each with one current state.
    let in_cycle = document["rows"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["projects"].as_array().unwrap())
        .filter(|p| p["state"].is_string())
        .count();
    assert_eq!(dom.matches("<ol class=\"strip\">").count(), in_cycle);
    assert_eq!(dom.matches("aria-current=\"step\"").count(), in_cycle);
    // The matrix: the rows in a collision, squared.
    assert!(dom.contains("id=\"collision-matrix\""));
    let involved = 9;
    assert_eq!(dom.matches("<th scope=\"col\"").count(), involved);
    assert_eq!(dom.matches("<td class=\"self\">").count(), involved);
    assert_eq!(
        dom.matches("<td class=\"cell ").count(),
        involved * involved - involved
    );
    assert_eq!(dom.matches("data-hunks=").count(), 2 * 6);
    assert!(dom.contains("41 pairs not compared"));
    // User text stayed text: the only elements are the page's own.
    assert!(!dom.contains("<script"), "a script element reached the DOM");
    assert!(dom.contains("feature/&lt;script&gt;alert('board')&lt;/script&gt;&amp;\"x\""));
    // The screenshot is a real PNG of the window's size, with content.
    let bytes = std::fs::read(&png).expect("a screenshot was written");
    assert_eq!(png_size(&bytes), (1400, 900));
    assert!(
        bytes.len() > 20_000,
        "a screenshot of the board is more than a blank page ({} bytes)",
        bytes.len()
    );
}

#[test]
fn an_empty_board_renders_in_a_real_browser() {
    let document = json!({
        "ok": true, "mainBranch": "main", "generatedAt": "2026-12-02T10:30:00Z",
        "states": STATES, "rows": [], "collisions": [],
        "pairsCompared": 0, "pairsSkipped": 0, "maxPairs": 50
    });
    let (_dir, page) = written_page(&document);
    let (dom, png) = match render_in_chromium(&page) {
        Ok(out) => out,
        Err(Skip(message)) => {
            eprintln!("{message}");
            return;
        }
    };
    assert!(!dom.contains("data-row="));
    assert!(dom.contains("No branches on the board."));
    assert!(dom.contains("No two rows change the same files."));
    let bytes = std::fs::read(&png).expect("a screenshot was written");
    assert_eq!(png_size(&bytes), (1400, 900));
}
