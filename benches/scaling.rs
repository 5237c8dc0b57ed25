//! Benchmark: growth factors of `check` in the size of its inputs (issue 7):
//! acceptance identifiers in the scope, headings in a record, the size of
//! STATE.md. Each scenario runs at n, 2n and 4n; a factor near 2 per doubling
//! is linear, near 4 quadratic.
//!
//! The largest sizes are the issue's: a record with a million identifiers,
//! 100,000 headings, a 200 MB STATE.md. Each line also shows the peak memory
//! of that run (Linux: `VmHWM`, reset before each run), so that bounded memory
//! shows as a constant ratio to the input.
//!
//! Run with `cargo bench --bench scaling` (optionally `-- <scenario>`, or
//! `SCALING_BASE=<n>` to move the base size: 125000 identifiers, the default,
//! gives the sizes above). Prints one line per size and the growth factor of
//! each doubling.

use std::time::{Duration, Instant};

use standards_core::check::{self, testing::installed_tree, Options};
use standards_core::model::tree::MemTree;
use standards_core::model::vocab::ProjectMode;

const ID: &str = "add-user-search-20260927T190146Z-7bef0f04";

fn scope_path() -> String {
    format!(".standards/docs/scope/{ID}.md")
}

/// An active STANDARD cycle in SCOPING whose scope holds `body`.
fn project(body: &str) -> MemTree {
    let mut t = installed_tree(ProjectMode::Brownfield);
    let state = standards_core::model::state::fresh_template(ProjectMode::Brownfield)
        .replace("`Id`: `UNSET`", &format!("`Id`: `{ID}`"))
        .replace("`Request`: `UNSET`", "`Request`: `Add user search`")
        .replace("`CycleMode`: `UNSET`", "`CycleMode`: `STANDARD`")
        .replace("`WorkflowState`: `AUDITING`", "`WorkflowState`: `SCOPING`")
        .replace(
            "`CompletionPolicy`: `NONE`",
            "`CompletionPolicy`: `FULL_DELIVERABLE`",
        )
        .replace("`Scope`: `NONE`", &format!("`Scope`: `{}`", scope_path()));
    t.insert(".standards/STATE.md", state);
    let text =
        format!("<!-- STANDARDS\nArtifact: SCOPE\nCycle: {ID}\n-->\n# Search\n\n## Work\n\n{body}");
    t.insert(&scope_path(), text);
    t
}

fn identifiers(n: usize) -> MemTree {
    let mut body = String::with_capacity(n * 32);
    for i in 1..=n {
        body.push_str(&format!("- `AC-{i:03}`: condition {i}.\n"));
    }
    project(&body)
}

fn headings(n: usize) -> MemTree {
    let mut body = String::with_capacity(n * 40);
    for i in 0..n {
        body.push_str(&format!("## Section {i}\n\n### F-{i:06}\n\ntext\n\n"));
    }
    project(&body)
}

/// STATE.md grown by notes lines to about `n` bytes.
fn state_size(n: usize) -> MemTree {
    let mut t = project("- `AC-001`: one.\n");
    let mut state = standards_core::model::tree::Tree::text(&t, ".standards/STATE.md");
    let standards_core::model::tree::Text::Ok(text) = &mut state else {
        unreachable!()
    };
    text.reserve(n);
    let mut i = 0;
    while text.len() < n {
        text.push_str(&format!("Note line {i} with some words in it.\n"));
        i += 1;
    }
    let text = text.clone();
    t.insert(".standards/STATE.md", text);
    t
}

/// A scenario: its name, how to build an input of size n, and its base n.
type Scenario = (&'static str, fn(usize) -> MemTree, usize);

/// Wall time and CPU time of one `check`. The factors use CPU time where the
/// system reports it: on a shared machine wall time measures the neighbours.
fn time(tree: &MemTree) -> (Duration, Option<Duration>) {
    let (start, cpu) = (Instant::now(), cpu_time());
    let report = check::run(tree, None, Options::default());
    std::hint::black_box(report);
    let cpu = cpu.zip(cpu_time()).map(|(a, b)| b.saturating_sub(a));
    (start.elapsed(), cpu)
}

/// The CPU time this (single-threaded) bench has used (Linux `schedstat`, ns).
fn cpu_time() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/self/schedstat").ok()?;
    Some(Duration::from_nanos(
        text.split_whitespace().next()?.parse().ok()?,
    ))
}

/// Resets the process's peak resident memory (Linux `clear_refs` 5).
fn reset_peak() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// The peak resident memory since the last reset, in MB (Linux only).
fn peak_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

fn main() {
    let only: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let base: usize = std::env::var("SCALING_BASE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(125_000);
    let scenarios: [Scenario; 3] = [
        ("acceptance identifiers", identifiers, base),
        ("headings", headings, base / 10),
        ("STATE.md bytes", state_size, base * 200),
    ];
    for (name, make, n) in scenarios {
        if !only.is_empty() && !only.iter().any(|o| name.contains(o.as_str())) {
            continue;
        }
        let mut last: Option<Duration> = None;
        for k in [1, 2, 4, 8] {
            reset_peak();
            let tree = make(n * k);
            let (wall, cpu) = time(&tree);
            let took = cpu.unwrap_or(wall);
            let peak = peak_mb().map_or("?".to_string(), |mb| format!("{mb:.0}"));
            drop(tree);
            let factor = last
                .map(|l| format!("x{:.2} per doubling", took.as_secs_f64() / l.as_secs_f64()))
                .unwrap_or_default();
            println!(
                "{name:<24} n {:>10}  {:>9.1} ms cpu  {:>9.1} ms wall  peak {peak:>5} MB  {factor}",
                n * k,
                took.as_secs_f64() * 1e3,
                wall.as_secs_f64() * 1e3
            );
            last = Some(took);
        }
    }
}
