//! The board as one self-contained HTML page (`board --html <file>`).
//!
//! [`render`] reads the board's JSON document (the one `board --json`
//! prints) and writes a page that needs nothing else: inline CSS, the
//! state-machine strips and the collision heat map as HTML and CSS, no
//! script, no network. Every string of the document is user text (branch
//! names, requests, questions, paths) and is escaped; a value of the wrong
//! type or a missing key renders as absent rather than failing, so a page can
//! always be written for whatever the document holds.
//!
//! The page has a header (main branch, when the board was built, a count of
//! rows per readiness), the table (one `<tr data-row="NAME">` per row of the
//! document, a continuation `<tr class="cont">` for each further project of
//! that row), one strip per project in a cycle (the document's `states` in
//! order, past states dimmed, the current one highlighted), and the collision
//! matrix (the rows that overlap another row, both ways; cell colour by
//! conflicting hunks, or by files for an overlap that merges cleanly), with
//! the list of pairs under it so the files also show on paper.

use std::collections::BTreeMap;
use std::fmt::{self, Display, Write as _};

use chrono::{DateTime, FixedOffset};
use serde_json::Value;

/// Writes formatted text into the page (writing into a `String` cannot fail).
macro_rules! put {
    ($page:expr, $($arg:tt)*) => {{
        let _ = write!($page.out, $($arg)*);
    }};
}

/// The readiness values of the document, in the order the page counts them,
/// with their labels.
const READINESS: &[(&str, &str)] = &[
    ("ready", "Ready"),
    ("signed-off-needs-reset", "Signed off, needs reset"),
    ("needs-reset", "Needs reset"),
    ("active", "Active"),
    ("conflicts", "Conflicts"),
    ("unknown", "Unknown"),
];

/// Renders the board document as one HTML page.
pub fn render(document: &Value) -> String {
    let mut page = Page {
        out: String::with_capacity(16 * 1024),
        now: text(document, "generatedAt").and_then(|t| DateTime::parse_from_rfc3339(t).ok()),
    };
    let rows = list(document, "rows");
    let main = text(document, "mainBranch").unwrap_or("");
    page.push("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    page.push("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    page.push("<meta name=\"color-scheme\" content=\"light\">\n");
    put!(page, "<title>Board: {}</title>\n", Esc(main));
    page.push("<style>\n");
    page.push(STYLE);
    page.push("</style>\n</head>\n<body>\n");
    page.header(document, main, rows);
    page.push("<main>\n");
    page.table(rows);
    page.strips(document, rows);
    page.matrix(document, rows);
    page.push("</main>\n</body>\n</html>\n");
    page.out
}

struct Page {
    out: String,
    /// The board's `generatedAt`: ages are measured from it.
    now: Option<DateTime<FixedOffset>>,
}

impl Page {
    fn push(&mut self, s: &str) {
        self.out.push_str(s);
    }

    fn header(&mut self, document: &Value, main: &str, rows: &[Value]) {
        self.push("<header>\n<h1>Release board</h1>\n<p class=\"meta\">");
        if main.is_empty() {
            self.push("Main branch unknown");
        } else {
            put!(self, "Main branch <bdi class=\"name\">{}</bdi>", Esc(main));
        }
        if let Some(at) = text(document, "generatedAt") {
            let shown = match self.now {
                Some(now) if now.offset().local_minus_utc() == 0 => {
                    now.format("%Y-%m-%d %H:%M UTC").to_string()
                }
                Some(now) => now.format("%Y-%m-%d %H:%M %:z").to_string(),
                None => at.to_string(),
            };
            put!(
                self,
                " · built <time datetime=\"{}\">{}</time>",
                Esc(at),
                Esc(&shown)
            );
        }
        put!(
            self,
            " · {} row{}",
            rows.len(),
            if rows.len() == 1 { "" } else { "s" }
        );
        self.push("</p>\n<ul class=\"counts\">");
        for &(value, label) in READINESS {
            let n = rows
                .iter()
                .filter(|r| text(r, "readiness") == Some(value))
                .count();
            if n > 0 {
                put!(
                    self,
                    "<li class=\"chip r-{value}\" data-count=\"{value}\">{label} <b>{n}</b></li>"
                );
            }
        }
        let problems = rows.iter().filter(|r| text(r, "problem").is_some()).count();
        if problems > 0 {
            put!(
                self,
                "<li class=\"chip problem-chip\">Problem{} <b>{problems}</b></li>",
                if problems == 1 { "" } else { "s" }
            );
        }
        self.push("</ul>\n</header>\n");
    }

    fn table(&mut self, rows: &[Value]) {
        self.push("<section id=\"rows\">\n<h2>Branches and worktrees</h2>\n");
        if rows.is_empty() {
            self.push("<p class=\"empty\">No branches on the board.</p>\n</section>\n");
            return;
        }
        self.push(
            "<div class=\"scroll\"><table class=\"board\">\n<thead><tr>\
             <th>Branch</th><th>Cycle</th><th>Mode</th><th>State</th><th>Owner</th>\
             <th>Next</th><th>Blocked on</th><th>Started</th><th>Last move</th>\
             <th>Check</th><th>Readiness</th></tr></thead>\n<tbody>\n",
        );
        for row in rows {
            self.row(row);
        }
        self.push("</tbody>\n</table></div>\n</section>\n");
    }

    fn row(&mut self, row: &Value) {
        let name = text(row, "name").unwrap_or("");
        let kind = text(row, "kind").unwrap_or("branch");
        let readiness = text(row, "readiness").unwrap_or("unknown");
        let problem = text(row, "problem");
        let projects = list(row, "projects");
        let span = projects.len().max(1);
        put!(
            self,
            "<tr data-row=\"{}\" data-kind=\"{}\" data-readiness=\"{}\" class=\"row r-{}{}\">",
            Esc(name),
            Esc(kind),
            Esc(readiness),
            Esc(readiness),
            if problem.is_some() { " problem" } else { "" }
        );
        self.branch_cell(row, name, kind, problem, span);
        match projects.first() {
            Some(first) => self.project_cells(first, projects.len() > 1),
            None => {
                let why = if problem.is_some() {
                    "Unreadable: see the problem."
                } else {
                    "No project with .standards/ here."
                };
                put!(
                    self,
                    "<td colspan=\"8\" class=\"none\" data-label=\"Cycle\">{why}</td>"
                );
            }
        }
        self.check_cell(row, span);
        self.readiness_cell(row, readiness, span);
        self.push("</tr>\n");
        for project in projects.iter().skip(1) {
            put!(
                self,
                "<tr class=\"cont r-{}{}\">",
                Esc(readiness),
                if problem.is_some() { " problem" } else { "" }
            );
            self.project_cells(project, true);
            self.push("</tr>\n");
        }
    }

    fn branch_cell(
        &mut self,
        row: &Value,
        name: &str,
        kind: &str,
        problem: Option<&str>,
        span: usize,
    ) {
        put!(
            self,
            "<th scope=\"row\" rowspan=\"{span}\" class=\"branch\" data-label=\"Branch\">\
             <bdi class=\"name\">{}</bdi>",
            Esc(name)
        );
        if kind == "worktree" {
            self.push(" <span class=\"tag\">worktree</span>");
            if let Some(path) = text(row, "worktree") {
                put!(
                    self,
                    "<div class=\"sub path\"><bdi>{}</bdi></div>",
                    Esc(path)
                );
            }
        }
        let refs = row.get("refs");
        let local = refs.and_then(|r| text(r, "local"));
        let remotes = refs.map(|r| list(r, "remotes")).unwrap_or(&[]);
        let mut where_ = Vec::new();
        if local.is_none() && kind == "branch" {
            where_.push("remote only".to_string());
        }
        for remote in remotes.iter().filter_map(Value::as_str) {
            let short = remote.strip_prefix("refs/remotes/").unwrap_or(remote);
            where_.push(short.to_string());
        }
        let mut line = String::new();
        if let Some(commit) = text(row, "commit") {
            let short: String = commit.chars().take(8).collect();
            let _ = write!(
                line,
                "<code title=\"{}\">{}</code>",
                Esc(commit),
                Esc(&short)
            );
        }
        if let Some(up) = row.get("upstream").filter(|u| u.is_object()) {
            let ahead = number(up, "ahead").unwrap_or(0);
            let behind = number(up, "behind").unwrap_or(0);
            let _ = write!(
                line,
                " <span class=\"updown\" title=\"against {}\">↑{ahead} ↓{behind}</span>",
                Esc(text(up, "ref").unwrap_or("its upstream"))
            );
        }
        if !where_.is_empty() {
            let _ = write!(
                line,
                " <bdi class=\"remotes\">{}</bdi>",
                Esc(&where_.join(", "))
            );
        }
        if !line.is_empty() {
            put!(self, "<div class=\"sub\">{line}</div>");
        }
        if let Some(problem) = problem {
            put!(
                self,
                "<div class=\"problem-note\" role=\"note\"><b>Problem:</b> {}</div>",
                Esc(problem)
            );
        }
        self.push("</th>");
    }

    /// The eight cells of one project: cycle, mode, state, owner, next,
    /// blocked question, started, last move.
    fn project_cells(&mut self, p: &Value, show_folder: bool) {
        self.push("<td data-label=\"Cycle\" class=\"cycle\">");
        if show_folder {
            put!(
                self,
                "<div class=\"folder\">in <bdi>{}</bdi></div>",
                Esc(text(p, "folder").unwrap_or("."))
            );
        }
        match (text(p, "cycleId"), text(p, "request")) {
            (None, None) => self.push("<span class=\"muted\">no cycle</span>"),
            (id, request) => {
                if let Some(request) = request {
                    put!(
                        self,
                        "<div class=\"request\" title=\"{0}\">{0}</div>",
                        Esc(request)
                    );
                }
                if let Some(id) = id {
                    put!(
                        self,
                        "<div class=\"sub\"><code class=\"id\">{}</code></div>",
                        Esc(id)
                    );
                }
            }
        }
        self.push("</td><td data-label=\"Mode\">");
        if let Some(mode) = text(p, "mode") {
            put!(self, "{}", Token(mode));
        }
        if let Some(policy) = text(p, "completionPolicy") {
            put!(self, "<div class=\"sub\">{}</div>", Token(policy));
        }
        self.push("</td><td data-label=\"State\" class=\"state\">");
        if let Some(state) = text(p, "state") {
            put!(self, "<span class=\"st\">{}</span>", Token(state));
        }
        let frames = number(p, "recoveryFrames").unwrap_or(0);
        if frames > 0 {
            put!(
                self,
                "<div class=\"sub warn\">recovering ({frames} frame{})</div>",
                if frames == 1 { "" } else { "s" }
            );
        }
        self.push("</td><td data-label=\"Owner\">");
        if let Some(owner) = text(p, "owner") {
            put!(self, "{}", Esc(owner));
        }
        self.push("</td><td data-label=\"Next\" class=\"next\">");
        if let Some(next) = text(p, "next") {
            put!(self, "<code>{}</code>", Esc(next));
        }
        self.push("</td><td data-label=\"Blocked on\" class=\"blocked-on\">");
        if let Some(question) = text(p, "blockedQuestion") {
            put!(self, "<div class=\"blocked\">{}</div>", Esc(question));
        }
        self.push("</td><td data-label=\"Started\" class=\"age\">");
        self.age(text(p, "cycleStarted"), None);
        self.push("</td><td data-label=\"Last move\" class=\"age\">");
        self.age(text(p, "lastMove"), text(p, "ageSource"));
        self.push("</td>");
    }

    /// An RFC 3339 time as its age at `generatedAt` (the exact time as its
    /// title), or as written when it cannot be read.
    fn age(&mut self, at: Option<&str>, source: Option<&str>) {
        let Some(at) = at else { return };
        let age = match (DateTime::parse_from_rfc3339(at), self.now) {
            (Ok(then), Some(now)) => ago((now - then).num_seconds()),
            _ => at.to_string(),
        };
        let from = source
            .map(|s| format!(" (from the {})", Esc(s)))
            .unwrap_or_default();
        put!(
            self,
            "<time datetime=\"{0}\" title=\"{0}{from}\">{1}</time>",
            Esc(at),
            Esc(&age)
        );
    }

    fn check_cell(&mut self, row: &Value, span: usize) {
        let check = row.get("check");
        let verdict = check.and_then(|c| text(c, "verdict")).unwrap_or("unknown");
        let problems = check.and_then(|c| number(c, "problems")).unwrap_or(0);
        let warnings = check.and_then(|c| number(c, "warnings")).unwrap_or(0);
        let (class, mark) = match verdict {
            "pass" => ("pass", "✓ pass"),
            "fail" => ("fail", "✗ fail"),
            _ => ("unknown", "? unknown"),
        };
        put!(
            self,
            "<td rowspan=\"{span}\" data-label=\"Check\" class=\"check {class}\">{mark}"
        );
        if problems > 0 || warnings > 0 {
            put!(
                self,
                "<div class=\"sub\">{problems} problem{}, {warnings} warning{}</div>",
                if problems == 1 { "" } else { "s" },
                if warnings == 1 { "" } else { "s" }
            );
        }
        self.push("</td>");
    }

    fn readiness_cell(&mut self, row: &Value, readiness: &str, span: usize) {
        let label = READINESS
            .iter()
            .find(|(v, _)| *v == readiness)
            .map(|(_, l)| *l)
            .unwrap_or("Unknown");
        put!(
            self,
            "<td rowspan=\"{span}\" data-label=\"Readiness\" class=\"readiness\">\
             <span class=\"chip r-{}\">{label}</span>",
            Esc(readiness)
        );
        if let Some(detail) = text(row, "readinessDetail") {
            put!(self, "<div class=\"detail\">{}</div>", Code(detail));
        }
        let changed: Vec<&str> = list(row, "projects")
            .iter()
            .flat_map(|p| list(p, "afterSignoff"))
            .filter_map(Value::as_str)
            .collect();
        if !changed.is_empty() {
            put!(
                self,
                "<div class=\"sub warn\" title=\"{}\">{} path{} changed after sign-off</div>",
                Esc(&changed.join("\n")),
                changed.len(),
                if changed.len() == 1 { "" } else { "s" }
            );
        }
        self.push("</td>");
    }

    fn strips(&mut self, document: &Value, rows: &[Value]) {
        let states: Vec<&str> = list(document, "states")
            .iter()
            .filter_map(Value::as_str)
            .collect();
        self.push("<section id=\"machines\">\n<h2>Where each cycle stands</h2>\n");
        let mut idle = Vec::new();
        let mut any = false;
        for row in rows {
            let name = text(row, "name").unwrap_or("");
            let in_cycle: Vec<&Value> = list(row, "projects")
                .iter()
                .filter(|p| text(p, "state").is_some())
                .collect();
            if in_cycle.is_empty() {
                idle.push(name);
            }
            for project in in_cycle {
                any = true;
                self.strip(name, row, project, &states);
            }
        }
        if !any {
            self.push("<p class=\"empty\">No cycle in progress on the board.</p>\n");
        }
        if !idle.is_empty() {
            self.push("<p class=\"idle\">Without a cycle: ");
            for (n, name) in idle.iter().enumerate() {
                if n > 0 {
                    self.push(", ");
                }
                put!(self, "<bdi class=\"name\">{}</bdi>", Esc(name));
            }
            self.push("</p>\n");
        }
        self.push("</section>\n");
    }

    fn strip(&mut self, name: &str, row: &Value, project: &Value, states: &[&str]) {
        let folder = text(project, "folder").unwrap_or(".");
        let state = text(project, "state").unwrap_or("");
        let current = states.iter().position(|s| *s == state);
        put!(
            self,
            "<div class=\"machine r-{}\" data-strip=\"{}\" data-folder=\"{}\">\
             <div class=\"who\"><bdi class=\"name\">{}</bdi>",
            Esc(text(row, "readiness").unwrap_or("unknown")),
            Esc(name),
            Esc(folder),
            Esc(name)
        );
        if text(row, "kind") == Some("worktree") {
            self.push(" <span class=\"tag\">worktree</span>");
        }
        if folder != "." {
            put!(
                self,
                " <span class=\"muted\">in <bdi>{}</bdi></span>",
                Esc(folder)
            );
        }
        if let Some(owner) = text(project, "owner") {
            put!(self, " <span class=\"muted\">· {}</span>", Esc(owner));
        }
        self.push("</div><ol class=\"strip\">");
        for (n, s) in states.iter().enumerate() {
            let (class, aria) = match current {
                Some(c) if n < c => ("past", ""),
                Some(c) if n == c => ("current", " aria-current=\"step\""),
                _ => ("future", ""),
            };
            put!(
                self,
                "<li class=\"{class}\" data-state=\"{0}\" title=\"{0}\"{aria}>{1}</li>",
                Esc(s),
                Esc(&readable(s))
            );
        }
        self.push("</ol>");
        if current.is_none() {
            put!(
                self,
                "<p class=\"sub warn\">State <code>{}</code> is not one of the protocol's states.</p>",
                Esc(state)
            );
        }
        self.push("</div>\n");
    }

    fn matrix(&mut self, document: &Value, rows: &[Value]) {
        let collisions = list(document, "collisions");
        self.push("<section id=\"collisions\">\n<h2>Collisions</h2>\n");
        let compared = number(document, "pairsCompared").unwrap_or(0);
        let skipped = number(document, "pairsSkipped").unwrap_or(0);
        let max = number(document, "maxPairs");
        put!(
            self,
            "<p class=\"meta\">{compared} pair{} compared",
            if compared == 1 { "" } else { "s" }
        );
        if skipped > 0 {
            put!(
                self,
                "; <strong class=\"warn\">{skipped} pair{} not compared</strong>",
                if skipped == 1 { "" } else { "s" }
            );
            if let Some(max) = max {
                put!(self, " (at most {max} by <code>--max-pairs</code>)");
            }
        }
        self.push(".</p>\n");
        // Each pair both ways, keyed by the two names.
        let mut pairs: BTreeMap<(&str, &str), &Value> = BTreeMap::new();
        for c in collisions {
            if let (Some(a), Some(b)) = (text(c, "a"), text(c, "b")) {
                pairs.insert((a, b), c);
                pairs.insert((b, a), c);
            }
        }
        // The rows that overlap another row, in the board's order, then any
        // name of a collision that is not a row.
        let mut names: Vec<&str> = Vec::new();
        let involved = |n: &str| pairs.keys().any(|(a, _)| *a == n);
        for row in rows {
            if let Some(name) = text(row, "name") {
                if involved(name) && !names.contains(&name) {
                    names.push(name);
                }
            }
        }
        for (a, _) in pairs.keys() {
            if !names.contains(a) {
                names.push(a);
            }
        }
        if names.is_empty() {
            self.push("<p class=\"empty\">No two rows change the same files.</p>\n</section>\n");
            return;
        }
        let others = rows
            .iter()
            .filter_map(|r| text(r, "name"))
            .filter(|n| !names.contains(n))
            .collect::<std::collections::BTreeSet<_>>()
            .len();
        self.push(
            "<div class=\"scroll\"><table class=\"matrix\" id=\"collision-matrix\">\n<thead><tr><th></th>",
        );
        for (n, name) in names.iter().enumerate() {
            put!(
                self,
                "<th scope=\"col\" title=\"{}\">{}</th>",
                Esc(name),
                n + 1
            );
        }
        self.push("</tr></thead>\n<tbody>\n");
        for (i, a) in names.iter().enumerate() {
            put!(
                self,
                "<tr><th scope=\"row\" title=\"{0}\"><span class=\"num\">{1}</span> <bdi class=\"name\">{0}</bdi></th>",
                Esc(a),
                i + 1
            );
            for (j, b) in names.iter().enumerate() {
                if i == j {
                    self.push("<td class=\"self\"></td>");
                    continue;
                }
                match pairs.get(&(*a, *b)) {
                    None => self.push("<td class=\"cell clear\"></td>"),
                    Some(c) => self.cell(a, b, c),
                }
            }
            self.push("</tr>\n");
        }
        self.push("</tbody>\n</table></div>\n");
        self.push(
            "<p class=\"legend\"><span class=\"key h2\"></span> conflicting hunks \
             (darker: more) <span class=\"key f1\"></span> same files, merges cleanly \
             <span class=\"key std\"></span> overlap inside .standards/ \
             <span class=\"key trunc\"></span> file list cut short</p>\n",
        );
        if others > 0 {
            put!(
                self,
                "<p class=\"meta\">{others} other row{} overlap{} with none of the pairs compared.</p>\n",
                if others == 1 { "" } else { "s" },
                if others == 1 { "s" } else { "" }
            );
        }
        self.push(
            "<table class=\"pairs\">\n<thead><tr><th>Pair</th><th>Merge</th><th>Files</th></tr></thead>\n<tbody>\n",
        );
        for c in collisions {
            let (Some(a), Some(b)) = (text(c, "a"), text(c, "b")) else {
                continue;
            };
            let files: Vec<&str> = list(c, "files").iter().filter_map(Value::as_str).collect();
            put!(
                self,
                "<tr data-pair=\"{0} × {1}\"><td><bdi class=\"name\">{0}</bdi> × <bdi class=\"name\">{1}</bdi></td><td>{2}</td><td>",
                Esc(a),
                Esc(b),
                Esc(&merge_summary(c))
            );
            for (n, f) in files.iter().enumerate() {
                if n > 0 {
                    self.push(", ");
                }
                put!(self, "<code>{}</code>", Esc(f));
            }
            if flag(c, "truncated") {
                self.push(" <span class=\"muted\">(list cut short)</span>");
            }
            self.push("</td></tr>\n");
        }
        self.push("</tbody>\n</table>\n</section>\n");
    }

    fn cell(&mut self, a: &str, b: &str, c: &Value) {
        let hunks = number(c, "conflictingHunks").unwrap_or(0);
        let files: Vec<&str> = list(c, "files").iter().filter_map(Value::as_str).collect();
        let conflict = flag(c, "conflict");
        let heat = if conflict {
            match hunks {
                0..=1 => "h1",
                2..=3 => "h2",
                4..=7 => "h3",
                _ => "h4",
            }
        } else {
            match files.len() {
                0..=1 => "f1",
                2..=4 => "f2",
                _ => "f3",
            }
        };
        let mut title = format!("{a} × {b}: {}", merge_summary(c));
        for f in &files {
            title.push('\n');
            title.push_str(f);
        }
        if flag(c, "truncated") {
            title.push_str("\n(list cut short)");
        }
        let shown = if conflict { hunks } else { files.len() as u64 };
        put!(
            self,
            "<td class=\"cell {heat}{}{}\" data-a=\"{}\" data-b=\"{}\" data-hunks=\"{hunks}\" data-files=\"{}\" title=\"{}\">{shown}</td>",
            if flag(c, "inStandards") { " std" } else { "" },
            if flag(c, "truncated") { " trunc" } else { "" },
            Esc(a),
            Esc(b),
            files.len(),
            Esc(&title),
        );
    }
}

/// "2 conflicting hunks in 1 file", or "3 files in common, merges cleanly".
fn merge_summary(c: &Value) -> String {
    let files = list(c, "files").len();
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    let mut s = if flag(c, "conflict") {
        let hunks = number(c, "conflictingHunks").unwrap_or(0) as usize;
        format!(
            "{hunks} conflicting hunk{} in {files} file{}",
            plural(hunks),
            plural(files)
        )
    } else {
        format!("{files} file{} in common, merges cleanly", plural(files))
    };
    if flag(c, "inStandards") {
        s.push_str(", inside .standards/");
    }
    s
}

/// An age in seconds as "45s", "12m", "5h" or "3d" followed by "ago"; a time
/// after the board's own is "after the board".
fn ago(seconds: i64) -> String {
    match seconds {
        s if s < 0 => "after the board".to_string(),
        s if s < 60 => format!("{s}s ago"),
        s if s < 3600 => format!("{}m ago", s / 60),
        s if s < 48 * 3600 => format!("{}h ago", s / 3600),
        s => format!("{}d ago", s / 86_400),
    }
}

/// `REVIEWING_IMPLEMENTATION` as "Reviewing implementation".
fn readable(state: &str) -> String {
    let lower = state.replace('_', " ").to_lowercase();
    let mut chars = lower.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

fn text<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key)?.as_str()
}

fn list<'a>(v: &'a Value, key: &str) -> &'a [Value] {
    v.get(key)
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[])
}

fn number(v: &Value, key: &str) -> Option<u64> {
    v.get(key)?.as_u64()
}

fn flag(v: &Value, key: &str) -> bool {
    v.get(key).and_then(Value::as_bool).unwrap_or(false)
}

/// Text escaped for HTML content and quoted attribute values alike. Control
/// characters other than tab and line feed (which HTML does not allow, or
/// turns into something else) become U+FFFD.
struct Esc<'a>(&'a str);

impl Display for Esc<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut rest = self.0;
        while let Some(at) = rest.find(|c: char| {
            matches!(c, '&' | '<' | '>' | '"' | '\'') || (c.is_control() && c != '\n' && c != '\t')
        }) {
            f.write_str(&rest[..at])?;
            let c = rest[at..].chars().next().unwrap_or_default();
            f.write_str(match c {
                '&' => "&amp;",
                '<' => "&lt;",
                '>' => "&gt;",
                '"' => "&quot;",
                '\'' => "&#39;",
                _ => "\u{FFFD}",
            })?;
            rest = &rest[at + c.len_utf8()..];
        }
        f.write_str(rest)
    }
}

/// An escaped vocabulary token (`REVIEWING_IMPLEMENTATION`) that may break
/// after its underscores in a narrow column.
struct Token<'a>(&'a str);

impl Display for Token<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (n, part) in self.0.split('_').enumerate() {
            if n > 0 {
                f.write_str("_<wbr>")?;
            }
            write!(f, "{}", Esc(part))?;
        }
        Ok(())
    }
}

/// Escaped text whose backquoted spans (the commands a detail names) become
/// `<code>`; an unpaired backquote stays as written.
struct Code<'a>(&'a str);

impl Display for Code<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<&str> = self.0.split('`').collect();
        let paired = parts.len() % 2 == 1;
        for (n, part) in parts.iter().enumerate() {
            if n % 2 == 1 && (paired || n + 1 < parts.len()) {
                write!(f, "<code>{}</code>", Esc(part))?;
            } else {
                if n % 2 == 1 {
                    f.write_str("`")?;
                }
                write!(f, "{}", Esc(part))?;
            }
        }
        Ok(())
    }
}

const STYLE: &str = r#"
:root{--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--bg:#fff;--soft:#f6f8fa;
--ready:#1a7f37;--ready-bg:#dafbe1;--active:#0969da;--active-bg:#ddf4ff;
--reset:#9a6700;--reset-bg:#fff8c5;--signed:#8250df;--signed-bg:#fbefff;
--conflicts:#cf222e;--conflicts-bg:#ffebe9;--unknown:#59636e;--unknown-bg:#eff2f5}
*{box-sizing:border-box}
body{margin:0;padding:16px 20px 32px;font:13px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;color:var(--fg);background:var(--bg)}
h1{font-size:20px;margin:0 0 2px}
h2{font-size:15px;margin:22px 0 8px;padding-bottom:4px;border-bottom:1px solid var(--line)}
code{font:12px/1.3 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:var(--soft);padding:0 3px;border-radius:3px;overflow-wrap:break-word}
code.id{font-size:11px;overflow-wrap:anywhere;background:none;padding:0}
bdi{unicode-bidi:isolate}
.name{font-weight:600;overflow-wrap:anywhere}
.meta{color:var(--muted);margin:2px 0 6px}
.muted{color:var(--muted)}
.sub{color:var(--muted);font-size:12px;margin-top:2px}
.warn{color:var(--reset)}
.empty{color:var(--muted);font-style:italic}
.counts{list-style:none;display:flex;flex-wrap:wrap;gap:6px;margin:6px 0 0;padding:0}
.chip{display:inline-block;padding:1px 8px;border-radius:10px;font-weight:600;font-size:12px;white-space:nowrap;border:1px solid currentColor}
.chip.r-ready{color:var(--ready);background:var(--ready-bg)}
.chip.r-active{color:var(--active);background:var(--active-bg)}
.chip.r-needs-reset{color:var(--reset);background:var(--reset-bg)}
.chip.r-signed-off-needs-reset{color:var(--signed);background:var(--signed-bg)}
.chip.r-conflicts{color:var(--conflicts);background:var(--conflicts-bg)}
.chip.r-unknown{color:var(--unknown);background:var(--unknown-bg)}
.problem-chip{color:#fff;background:var(--conflicts);border-color:var(--conflicts)}
.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse}
table.board{width:100%}
.board th,.board td{text-align:left;vertical-align:top;padding:5px 8px;border-bottom:1px solid var(--line)}
.board thead th{position:sticky;top:0;background:var(--soft);font-size:12px;color:var(--muted);white-space:nowrap;border-bottom:2px solid var(--line)}
.board tbody th{font-weight:normal;min-width:11em;max-width:20em;border-left:4px solid var(--unknown)}
.board tr.r-ready th{border-left-color:var(--ready)}
.board tr.r-active th{border-left-color:var(--active)}
.board tr.r-needs-reset th{border-left-color:var(--reset)}
.board tr.r-signed-off-needs-reset th{border-left-color:var(--signed)}
.board tr.r-conflicts th{border-left-color:var(--conflicts)}
.board tr.cont td{border-top:1px dashed var(--line)}
.board tr.problem,.board tr.problem+tr.cont{background:#fff5f5}
.board tr.problem th{border-left:4px double var(--conflicts)}
.problem-note{margin-top:4px;padding:3px 6px;border-radius:4px;background:var(--conflicts-bg);color:#82071e;font-size:12px;overflow-wrap:anywhere}
.tag{font-size:11px;padding:0 5px;border-radius:8px;background:var(--soft);border:1px solid var(--line);color:var(--muted)}
.path{overflow-wrap:anywhere}
.cycle{min-width:12em;max-width:20em}
.blocked-on{min-width:10em}
.request{display:-webkit-box;-webkit-line-clamp:2;-webkit-box-orient:vertical;overflow:hidden;overflow-wrap:anywhere}
.folder{font-size:11px;color:var(--muted)}
.st{font-weight:600;font-size:12px}
.blocked{max-width:18em;padding:2px 6px;border-left:3px solid var(--reset);background:var(--reset-bg);overflow-wrap:anywhere}
.age{white-space:nowrap;color:var(--muted)}
.check{white-space:nowrap}
.check .sub{white-space:normal}
.check.pass{color:var(--ready)}
.check.fail{color:var(--conflicts);font-weight:600}
.check.unknown{color:var(--unknown)}
.readiness{min-width:12em;max-width:22em}
.detail{font-size:12px;margin-top:3px;overflow-wrap:anywhere}
.none{color:var(--muted);font-style:italic}
.machine{display:grid;grid-template-columns:minmax(9em,15em) 1fr;gap:2px 10px;align-items:center;padding:4px 0;border-bottom:1px solid var(--line);break-inside:avoid}
.machine>p{grid-column:2;margin:0}
.who{overflow-wrap:anywhere;line-height:1.25}
.strip{display:flex;list-style:none;margin:0;padding:0;gap:2px}
.strip li{flex:1 1 0;min-width:0;padding:3px 2px;font-size:10px;line-height:1.2;text-align:center;background:var(--soft);color:#8c959f;border-radius:3px;overflow-wrap:break-word}
.strip li.past{background:#d1d9e0;color:#59636e}
.strip li.current{background:var(--active);color:#fff;font-weight:700;box-shadow:0 0 0 2px #0550ae inset}
.machine.r-conflicts .strip li.current{background:var(--conflicts)}
.machine.r-signed-off-needs-reset .strip li.current,.machine.r-needs-reset .strip li.current{background:var(--signed)}
.idle{color:var(--muted)}
.matrix th,.matrix td{border:1px solid #fff;padding:0}
.matrix thead th{font-size:11px;color:var(--muted);font-weight:600;width:28px;text-align:center}
.matrix tbody th{text-align:left;font-weight:normal;padding:0 8px 0 0;max-width:20em;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.matrix .num{display:inline-block;min-width:2em;text-align:right;color:var(--muted);font-size:11px}
.cell,.self{width:28px;height:24px;text-align:center;font-size:11px;font-weight:700}
.self{background:repeating-linear-gradient(45deg,#eff2f5,#eff2f5 3px,#fff 3px,#fff 6px)}
.cell.clear{background:#f6f8fa}
.h1,.key.h1{background:#ffcecb;color:#82071e}.h2,.key.h2{background:#ff8182;color:#5c0011}
.h3,.key.h3{background:#e5534b;color:#fff}.h4{background:#a40e26;color:#fff}
.f1,.key.f1{background:#fff8c5;color:#7d4e00}.f2{background:#f5e0a0;color:#7d4e00}.f3{background:#eac54f;color:#4d2d00}
.cell.std,.key.std{box-shadow:inset 0 0 0 2px var(--signed)}
.cell.trunc,.key.trunc{background-image:linear-gradient(225deg,#1f2328 5px,transparent 5px)}
.legend{color:var(--muted);font-size:12px;display:flex;flex-wrap:wrap;gap:4px 12px;align-items:center}
.key{display:inline-block;width:14px;height:14px;vertical-align:middle;margin-right:3px;border-radius:2px;text-align:center;font-size:11px;line-height:14px;background:#fff;border:1px solid var(--line)}
.pairs{margin-top:8px}
.pairs th,.pairs td{text-align:left;vertical-align:top;padding:3px 8px;border-bottom:1px solid var(--line);font-size:12px}
.pairs td:last-child{overflow-wrap:anywhere}
@media (max-width:760px){
body{padding:10px}
.board thead{display:none}
.board,.board tbody,.board tr,.board th,.board td{display:block;width:100%;max-width:none}
.board tr.row{margin-top:10px;border-top:1px solid var(--line)}
.board tbody th{border-left-width:6px}
.board td{border:0;padding:2px 8px 2px 7.5em;position:relative;min-height:1.6em}
.board td:empty{display:none}
.board td[data-label]::before{content:attr(data-label);position:absolute;left:12px;top:3px;color:var(--muted);font-size:11px}
.machine{grid-template-columns:1fr}
.machine>p{grid-column:1}
.strip{flex-wrap:wrap}
.strip li{flex:1 1 22%}
}
@media print{
body{padding:0;font-size:10px}
*{-webkit-print-color-adjust:exact;print-color-adjust:exact}
.scroll{overflow:visible}
.board thead th{position:static}
tr,.machine{break-inside:avoid}
h2{break-after:avoid}
.request{display:block;-webkit-line-clamp:none}
}
"#;

#[cfg(test)]
mod tests;
