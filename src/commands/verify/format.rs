//! `verify`'s output: text, JSON (schema in `git standards verify --help`),
//! GitHub workflow commands and step summary, GitLab Code Quality, SARIF
//! 2.1.0 (GitHub code scanning).

use std::io::Write;

use sha2::{Digest, Sha256};

use super::{CommitVerdict, Outcome};
use crate::error::{Error, Result};
use standards_core::check::Problem;

/// GitHub shows at most 10 error annotations per step.
pub const GITHUB_ANNOTATION_LIMIT: usize = 10;
/// GitHub accepts at most 1 MiB of step summary per step.
pub const STEP_SUMMARY_LIMIT: usize = 1024 * 1024 - 1024;

fn w(e: std::io::Error) -> Error {
    Error::stdout(e)
}

/// Problems already carry repository-relative paths.
fn project_path(_outcome: &Outcome, file: &str) -> String {
    file.to_string()
}

/// The line a report points at: the problem's own, else the file's first.
fn line_of(p: &Problem) -> usize {
    p.line.unwrap_or(1)
}

fn verdict_line(c: &CommitVerdict) -> String {
    let short = c.short();
    if let Some(why) = &c.skipped {
        return format!("{short} {}: skipped ({why})", c.subject);
    }
    let reused = c
        .reused_from
        .map(|f| format!(", as {}", f.to_hex_with_len(7)))
        .unwrap_or_default();
    if c.ok() {
        format!("{short} {}: pass{reused}", c.subject)
    } else {
        let n = c.problems.len();
        format!(
            "{short} {}: {n} problem{}{reused}",
            c.subject,
            if n == 1 { "" } else { "s" }
        )
    }
}

/// One verdict line per commit (problems indented below), the `--into`
/// part, then a summary line.
pub fn text(out: &mut dyn Write, outcome: &Outcome) -> Result<()> {
    for c in &outcome.commits {
        writeln!(out, "{}", verdict_line(c)).map_err(w)?;
        for p in c.problems.iter() {
            writeln!(
                out,
                "    {}: {} [{}]",
                project_path(outcome, &p.file),
                p.message,
                p.rule
            )
            .map_err(w)?;
        }
    }
    if let Some(into) = &outcome.into {
        let tip = outcome.tip.to_hex_with_len(7);
        let head = format!("merge of {tip} into `{}`", into.branch);
        if into.ok() {
            writeln!(out, "{head}: pass").map_err(w)?;
        } else {
            writeln!(out, "{head}: refused").map_err(w)?;
        }
        for (_, message, hint) in &into.refusals {
            writeln!(out, "    merge guard: {message}\n      hint: {hint}").map_err(w)?;
        }
        for (path, s) in &into.state_conflicts {
            writeln!(out, "    {path}: {s}").map_err(w)?;
        }
        for path in &into.conflicts {
            writeln!(out, "    {path}: git cannot merge this file").map_err(w)?;
        }
        for p in &into.problems {
            writeln!(
                out,
                "    {}: {} [{}]",
                project_path(outcome, &p.file),
                p.message,
                p.rule
            )
            .map_err(w)?;
        }
    }
    let n = outcome.commits.len();
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    let range = match outcome.base {
        Some(b) => format!(
            "{}..{}",
            b.to_hex_with_len(7),
            outcome.tip.to_hex_with_len(7)
        ),
        None => format!("the history of {}", outcome.tip.to_hex_with_len(7)),
    };
    let reused = outcome.reused();
    let reused = if reused > 0 {
        format!(", {reused} reused")
    } else {
        String::new()
    };
    if outcome.ok() {
        writeln!(
            out,
            "verify passed: {n} commit{} checked ({range}{reused})",
            plural(n)
        )
        .map_err(w)?;
    } else {
        let failed = outcome.failed();
        let into = match &outcome.into {
            Some(i) if !i.ok() => format!("; the merge into `{}` is refused", i.branch),
            _ => String::new(),
        };
        writeln!(
            out,
            "verify failed: {failed} of {n} commit{} with problems{into} ({range}{reused})",
            plural(n)
        )
        .map_err(w)?;
    }
    Ok(())
}

fn problem_json(outcome: &Outcome, p: &Problem) -> serde_json::Value {
    serde_json::json!({
        "rule": p.rule,
        "file": project_path(outcome, &p.file),
        "line": p.line,
        "message": p.message,
        "hint": p.hint,
    })
}

/// The JSON document (schema: `git standards verify --help`).
pub fn json_value(outcome: &Outcome) -> serde_json::Value {
    let commits: Vec<_> = outcome
        .commits
        .iter()
        .map(|c| {
            serde_json::json!({
                "id": c.id.to_string(),
                "subject": c.subject,
                "ok": c.ok(),
                "skipped": c.skipped,
                "reusedFrom": c.reused_from.map(|r| r.to_string()),
                "cycle": c.cycle,
                "problems": c.problems.iter().map(|p| problem_json(outcome, p)).collect::<Vec<_>>(),
            })
        })
        .collect();
    let into = outcome.into.as_ref().map(|i| {
        serde_json::json!({
            "branch": i.branch,
            "target": i.target.to_string(),
            "ok": i.ok(),
            "guarded": i.guarded,
            "guard": i.refusals.iter().map(|(dir, message, hint)| serde_json::json!({
                "project": dir, "message": message, "hint": hint,
            })).collect::<Vec<_>>(),
            "stateConflict": (!i.state_conflicts.is_empty()).then(|| i.state_conflicts.iter().map(|(p, s)| format!("{p}: {s}")).collect::<Vec<_>>().join("\n")),
            "conflicts": i.conflicts,
            "problems": i.problems.iter().map(|p| problem_json(outcome, p)).collect::<Vec<_>>(),
        })
    });
    serde_json::json!({
        "ok": outcome.ok(),
        "mainBranch": outcome.main_branch,
        "projects": outcome.projects,
        "base": outcome.base.map(|b| b.to_string()),
        "tip": outcome.tip.to_string(),
        "commits": commits,
        "into": into,
        "summary": {
            "commits": outcome.commits.len(),
            "failed": outcome.failed(),
            "reused": outcome.reused(),
        },
    })
}

pub fn json(out: &mut dyn Write, outcome: &Outcome) -> Result<()> {
    let text = serde_json::to_string_pretty(&json_value(outcome))
        .map_err(|e| Error::Internal(e.to_string()))?;
    writeln!(out, "{text}").map_err(w)
}

/// A workflow command's message: `%`, CR and LF escaped.
pub fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A workflow command's property value: also `:` and `,`.
pub fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// One annotation: (file, line, title, message).
type Annotation = (Option<String>, Option<usize>, String, String);

/// Every error, most important first: the merge (guard, STATE.md, conflicts,
/// problems), then the commits oldest first (the first failing commit is
/// where the trouble started).
fn annotations(outcome: &Outcome) -> Vec<Annotation> {
    let mut out = Vec::new();
    if let Some(into) = &outcome.into {
        for (dir, message, hint) in &into.refusals {
            let file = if dir.is_empty() {
                ".standards/STATE.md".to_string()
            } else {
                format!("{dir}/.standards/STATE.md")
            };
            out.push((
                Some(file),
                None,
                format!("merge guard: not mergeable into {}", into.branch),
                format!("{message}\nhint: {hint}"),
            ));
        }
        for (path, s) in &into.state_conflicts {
            out.push((
                Some(path.clone()),
                None,
                format!("STATE.md conflict merging into {}", into.branch),
                s.clone(),
            ));
        }
        for path in &into.conflicts {
            out.push((
                Some(path.clone()),
                None,
                format!("merge conflict with {}", into.branch),
                format!("git cannot merge `{path}` into `{}`", into.branch),
            ));
        }
        for p in &into.problems {
            out.push((
                Some(project_path(outcome, &p.file)),
                p.line,
                format!("{} in the merge into {}", p.rule, into.branch),
                p.message.clone(),
            ));
        }
    }
    for c in &outcome.commits {
        if c.reused_from.is_some() {
            continue;
        }
        for p in c.problems.iter() {
            out.push((
                Some(project_path(outcome, &p.file)),
                p.line,
                format!("{} at {} {}", p.rule, c.short(), c.subject),
                match &p.hint {
                    Some(h) => format!("{}\nhint: {h}", p.message),
                    None => p.message.clone(),
                },
            ));
        }
    }
    out
}

/// `::error` workflow commands (at most [`GITHUB_ANNOTATION_LIMIT`]) and a
/// `::notice` for the rest.
pub fn github(out: &mut dyn Write, outcome: &Outcome) -> Result<()> {
    let all = annotations(outcome);
    for (file, line, title, message) in all.iter().take(GITHUB_ANNOTATION_LIMIT) {
        let file = file
            .as_ref()
            .map(|f| {
                let line = line.map(|n| format!("line={n},")).unwrap_or_default();
                format!("file={},{line}", escape_property(f))
            })
            .unwrap_or_default();
        writeln!(
            out,
            "::error {file}title={}::{}",
            escape_property(title),
            escape_data(message)
        )
        .map_err(w)?;
    }
    if all.len() > GITHUB_ANNOTATION_LIMIT {
        writeln!(
            out,
            "::notice title=git standards verify::{}",
            escape_data(&format!(
                "+{} more problems; the job summary lists them all",
                all.len() - GITHUB_ANNOTATION_LIMIT
            ))
        )
        .map_err(w)?;
    }
    Ok(())
}

/// A Markdown table cell: one line, pipes escaped.
fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace(['\r', '\n'], " ")
}

/// The full table for `$GITHUB_STEP_SUMMARY`, cut to at most `limit` bytes.
pub fn step_summary(outcome: &Outcome, limit: usize) -> String {
    let mut s = String::from(
        "## git standards verify\n\n| Commit | Subject | Verdict |\n| --- | --- | --- |\n",
    );
    let mut rows = Vec::new();
    for c in &outcome.commits {
        let verdict = if let Some(why) = &c.skipped {
            format!("skipped ({why})")
        } else if c.ok() {
            "pass".to_string()
        } else {
            c.problems
                .iter()
                .map(|p| {
                    format!(
                        "**{}** `{}`: {}",
                        p.rule,
                        project_path(outcome, &p.file),
                        p.message
                    )
                })
                .collect::<Vec<_>>()
                .join("<br>")
        };
        rows.push(format!(
            "| `{}` | {} | {} |\n",
            c.short(),
            cell(&c.subject),
            cell(&verdict)
        ));
    }
    if let Some(into) = &outcome.into {
        let mut parts: Vec<String> = into.refusals.iter().map(|(_, m, _)| m.clone()).collect();
        parts.extend(
            into.state_conflicts
                .iter()
                .map(|(p, s)| format!("`{p}`: {s}")),
        );
        parts.extend(into.conflicts.iter().map(|p| format!("conflict in `{p}`")));
        parts.extend(
            into.problems
                .iter()
                .map(|p| format!("**{}**: {}", p.rule, p.message)),
        );
        let verdict = if parts.is_empty() {
            "pass".to_string()
        } else {
            parts.join("<br>")
        };
        rows.push(format!(
            "| merge | into `{}` | {} |\n",
            cell(&into.branch),
            cell(&verdict)
        ));
    }
    let tail = |omitted: usize| {
        format!("\n{omitted} more rows omitted: the summary is limited to 1 MiB; run `git standards verify` locally for all of them.\n")
    };
    for (i, row) in rows.iter().enumerate() {
        if s.len() + row.len() + tail(rows.len()).len() > limit {
            s.push_str(&tail(rows.len() - i));
            return s;
        }
        s.push_str(row);
    }
    s
}

/// The GitLab Code Quality fingerprint: rule, path and cycle, never a line
/// number, so re-runs deduplicate.
pub fn fingerprint(rule: &str, path: &str, cycle: Option<&str>) -> String {
    let mut h = Sha256::new();
    h.update(rule.as_bytes());
    h.update([0]);
    h.update(path.as_bytes());
    h.update([0]);
    h.update(cycle.unwrap_or("").as_bytes());
    let digest = h.finalize();
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// The GitLab Code Quality report: a JSON array of issues.
pub fn gitlab_value(outcome: &Outcome) -> serde_json::Value {
    let mut issues = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut push = |rule: &str,
                    path: String,
                    line: usize,
                    cycle: Option<&str>,
                    description: String,
                    severity: &str| {
        let fp = fingerprint(rule, &path, cycle);
        if seen.insert(fp.clone()) {
            issues.push(serde_json::json!({
                "description": description,
                "check_name": rule,
                "fingerprint": fp,
                "severity": severity,
                "location": {"path": path, "lines": {"begin": line}},
            }));
        }
    };
    if let Some(into) = &outcome.into {
        let cycle = outcome.commits.last().and_then(|c| c.cycle.as_deref());
        for (dir, message, hint) in &into.refusals {
            let path = if dir.is_empty() {
                ".standards/STATE.md".to_string()
            } else {
                format!("{dir}/.standards/STATE.md")
            };
            push(
                "merge-guard",
                path,
                1,
                cycle,
                format!("{message} ({hint})"),
                "blocker",
            );
        }
        for (path, s) in &into.state_conflicts {
            push("state-merge", path.clone(), 1, cycle, s.clone(), "blocker");
        }
        for path in &into.conflicts {
            push(
                "merge-conflict",
                path.clone(),
                1,
                cycle,
                format!("git cannot merge `{path}` into `{}`", into.branch),
                "blocker",
            );
        }
        for p in &into.problems {
            push(
                p.rule,
                project_path(outcome, &p.file),
                line_of(p),
                cycle,
                p.message.clone(),
                "major",
            );
        }
    }
    for c in &outcome.commits {
        for p in c.problems.iter() {
            push(
                p.rule,
                project_path(outcome, &p.file),
                line_of(p),
                c.cycle.as_deref(),
                format!("{} (commit {} {})", p.message, c.short(), c.subject),
                "major",
            );
        }
    }
    serde_json::Value::Array(issues)
}

pub fn gitlab(out: &mut dyn Write, outcome: &Outcome) -> Result<()> {
    let text = serde_json::to_string_pretty(&gitlab_value(outcome))
        .map_err(|e| Error::Internal(e.to_string()))?;
    writeln!(out, "{text}").map_err(w)
}

/// The SARIF 2.1.0 schema `--format sarif` follows.
pub const SARIF_SCHEMA: &str =
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/// Where the tool is described: the package's repository or homepage, when
/// Cargo.toml names one (`informationUri` is left out otherwise).
fn information_uri() -> Option<&'static str> {
    [env!("CARGO_PKG_REPOSITORY"), env!("CARGO_PKG_HOMEPAGE")]
        .into_iter()
        .find(|u| !u.is_empty())
}

/// What the merge findings that are no catalogue rule mean.
const MERGE_RULES: [(&str, &str); 3] = [
    (
        "merge-guard",
        "A branch merges into the main branch (or a protected branch) only with a fresh installation (D23)",
    ),
    (
        "state-merge",
        "Both sides changed STATE.md since their merge-base: the user chooses one (D24)",
    ),
    ("merge-conflict", "git cannot merge the file"),
];

/// The SARIF 2.1.0 log for GitHub code scanning: one run of `git standards`,
/// `ruleId` our rule IDs (and `merge-guard`, `state-merge`,
/// `merge-conflict` for the merge), each result at its file and real line.
/// A commit's problems are reported once: a verdict reused from an earlier
/// commit, and the same rule, file, line and message in a later commit, are
/// not repeated.
pub fn sarif_value(outcome: &Outcome) -> serde_json::Value {
    // (rule, file, line, message)
    let mut found: Vec<(String, String, usize, String)> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut push = |rule: &str, file: String, line: usize, message: String| {
        if seen.insert((rule.to_string(), file.clone(), line, message.clone())) {
            found.push((rule.to_string(), file, line, message));
        }
    };
    if let Some(into) = &outcome.into {
        for (dir, message, hint) in &into.refusals {
            let file = if dir.is_empty() {
                ".standards/STATE.md".to_string()
            } else {
                format!("{dir}/.standards/STATE.md")
            };
            push("merge-guard", file, 1, format!("{message}\nhint: {hint}"));
        }
        for (path, s) in &into.state_conflicts {
            push("state-merge", path.clone(), 1, s.clone());
        }
        for path in &into.conflicts {
            push(
                "merge-conflict",
                path.clone(),
                1,
                format!("git cannot merge `{path}` into `{}`", into.branch),
            );
        }
        for p in &into.problems {
            push(
                p.rule,
                project_path(outcome, &p.file),
                line_of(p),
                format!("{} (in the merge into `{}`)", p.message, into.branch),
            );
        }
    }
    for c in &outcome.commits {
        if c.reused_from.is_some() {
            continue;
        }
        for p in c.problems.iter() {
            let message = match &p.hint {
                Some(h) => format!("{}\nhint: {h}", p.message),
                None => p.message.clone(),
            };
            push(
                p.rule,
                project_path(outcome, &p.file),
                line_of(p),
                format!("{message}\n(commit {} {})", c.short(), c.subject),
            );
        }
    }
    let registry = standards_core::check::registry();
    let mut rule_ids: Vec<&str> = found.iter().map(|(r, ..)| r.as_str()).collect();
    rule_ids.sort_unstable();
    rule_ids.dedup();
    let rules: Vec<serde_json::Value> = rule_ids
        .iter()
        .map(|id| {
            let title = registry
                .iter()
                .find(|r| r.id == *id)
                .map(|r| r.title)
                .or_else(|| MERGE_RULES.iter().find(|(r, _)| r == id).map(|(_, t)| *t))
                .unwrap_or(id);
            serde_json::json!({
                "id": id,
                "name": id,
                "shortDescription": {"text": title},
                "defaultConfiguration": {"level": "error"},
            })
        })
        .collect();
    let results: Vec<serde_json::Value> = found
        .iter()
        .map(|(rule, file, line, message)| {
            serde_json::json!({
                "ruleId": rule,
                "ruleIndex": rule_ids.iter().position(|r| r == rule),
                "level": "error",
                "message": {"text": message},
                "locations": [{
                    "physicalLocation": {
                        "artifactLocation": {"uri": file, "uriBaseId": "%SRCROOT%"},
                        "region": {"startLine": line},
                    },
                }],
                "partialFingerprints": {
                    "standardsFingerprint/v1": fingerprint(rule, file, None),
                },
            })
        })
        .collect();
    let mut driver = serde_json::json!({
        "name": "git-standards",
        "version": env!("CARGO_PKG_VERSION"),
        "rules": rules,
    });
    if let Some(uri) = information_uri() {
        driver["informationUri"] = uri.into();
    }
    serde_json::json!({
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": driver},
            "results": results,
        }],
    })
}

pub fn sarif(out: &mut dyn Write, outcome: &Outcome) -> Result<()> {
    let text = serde_json::to_string_pretty(&sarif_value(outcome))
        .map_err(|e| Error::Internal(e.to_string()))?;
    writeln!(out, "{text}").map_err(w)
}

#[cfg(test)]
mod tests {
    use std::rc::Rc;

    use super::*;
    use crate::commands::verify::{CommitVerdict, Outcome};

    fn problem(rule: &'static str, message: &str) -> Problem {
        Problem {
            rule,
            file: ".standards/STATE.md".into(),
            line: None,
            message: message.into(),
            hint: None,
            source: standards_core::check::RuleSource::of(rule),
        }
    }

    fn outcome(problems_per_commit: &[usize]) -> Outcome {
        let commits = problems_per_commit
            .iter()
            .enumerate()
            .map(|(i, n)| CommitVerdict {
                id: crate::repo::history::ObjectId::from_hex(format!("{:040x}", i + 1).as_bytes())
                    .unwrap(),
                subject: format!("commit {i}"),
                problems: Rc::new(
                    (0..*n)
                        .map(|k| problem("GT-001", &format!("p{k}")))
                        .collect(),
                ),
                reused_from: None,
                skipped: None,
                cycle: Some("c-1".into()),
            })
            .collect();
        Outcome {
            main_branch: "main".into(),
            base: None,
            tip: crate::repo::history::ObjectId::from_hex(
                b"00000000000000000000000000000000000000ff",
            )
            .unwrap(),
            projects: vec![String::new()],
            commits,
            into: None,
        }
    }

    #[test]
    fn workflow_command_escaping() {
        assert_eq!(escape_data("50% done\r\nnext"), "50%25 done%0D%0Anext");
        assert_eq!(escape_property("a:b,c%"), "a%3Ab%2Cc%25");
    }

    #[test]
    fn at_most_ten_errors_then_a_notice() {
        let mut out = Vec::new();
        github(&mut out, &outcome(&[0, 12])).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(
            text.lines().filter(|l| l.starts_with("::error ")).count(),
            10
        );
        assert!(
            text.contains("::notice title=git standards verify::+2 more problems"),
            "{text}"
        );
        assert!(
            text.starts_with(
                "::error file=.standards/STATE.md,title=GT-001 at 0000000 commit 1::p0\n"
            ),
            "{text}"
        );
    }

    #[test]
    fn step_summary_stays_under_its_limit() {
        let o = outcome(&[3; 200]);
        let full = step_summary(&o, usize::MAX);
        assert!(full.lines().count() > 200);
        let cut = step_summary(&o, 2000);
        assert!(cut.len() <= 2000, "{}", cut.len());
        assert!(cut.contains("more rows omitted"));
    }

    #[test]
    fn fingerprints_are_stable_and_ignore_lines() {
        let a = fingerprint("GT-001", ".standards/STATE.md", Some("c-1"));
        assert_eq!(a, fingerprint("GT-001", ".standards/STATE.md", Some("c-1")));
        assert_ne!(a, fingerprint("GT-001", ".standards/STATE.md", Some("c-2")));
        assert_ne!(a, fingerprint("GT-002", ".standards/STATE.md", Some("c-1")));
        let v = gitlab_value(&outcome(&[1, 1]));
        // The same rule, path and cycle in two commits is one issue.
        assert_eq!(v.as_array().unwrap().len(), 1);
        assert_eq!(v[0]["location"]["lines"]["begin"], 1);
        assert_eq!(v[0]["check_name"], "GT-001");
    }

    #[test]
    fn json_has_the_documented_keys() {
        let v = json_value(&outcome(&[0, 1]));
        for key in [
            "ok",
            "mainBranch",
            "projects",
            "base",
            "tip",
            "commits",
            "into",
            "summary",
        ] {
            assert!(v.get(key).is_some(), "{key}");
        }
        assert_eq!(v["summary"]["failed"], 1);
        let c = &v["commits"][1];
        for key in [
            "id",
            "subject",
            "ok",
            "skipped",
            "reusedFrom",
            "cycle",
            "problems",
        ] {
            assert!(c.get(key).is_some(), "{key}");
        }
    }

    /// GitHub's documented SARIF requirements for code scanning: `version`
    /// 2.1.0, `runs`, `tool.driver.name`, each rule's `id`, and for each
    /// result `ruleId`, `message.text` and a location with
    /// `artifactLocation.uri` and `region.startLine`.
    #[test]
    fn sarif_has_github_s_required_fields_and_the_real_line() {
        let mut o = outcome(&[0, 1]);
        let mut p = problem("GT-001", "line 3: reopened");
        p.line = standards_core::check::line_in(&p.message);
        o.commits[1].problems = Rc::new(vec![p]);
        let v = sarif_value(&o);
        assert_eq!(v["version"], "2.1.0");
        assert_eq!(v["$schema"], SARIF_SCHEMA);
        let run = &v["runs"][0];
        let driver = &run["tool"]["driver"];
        assert_eq!(driver["name"], "git-standards");
        assert_eq!(driver["version"], env!("CARGO_PKG_VERSION"));
        assert_eq!(driver["rules"][0]["id"], "GT-001");
        assert!(driver["rules"][0]["shortDescription"]["text"]
            .as_str()
            .is_some_and(|t| !t.is_empty() && t != "GT-001"));
        let results = run["results"].as_array().unwrap();
        assert_eq!(results.len(), 1);
        let r = &results[0];
        assert_eq!(r["ruleId"], "GT-001");
        assert_eq!(r["ruleIndex"], 0);
        assert_eq!(r["level"], "error");
        assert!(r["message"]["text"]
            .as_str()
            .unwrap()
            .starts_with("line 3: reopened"));
        let at = &r["locations"][0]["physicalLocation"];
        assert_eq!(at["artifactLocation"]["uri"], ".standards/STATE.md");
        assert_eq!(at["region"]["startLine"], 3);
        // A clean run is a valid log with no results.
        let clean = sarif_value(&outcome(&[0]));
        assert_eq!(clean["runs"][0]["results"], serde_json::json!([]));
        assert_eq!(
            clean["runs"][0]["tool"]["driver"]["rules"],
            serde_json::json!([])
        );
    }

    #[test]
    fn annotations_and_code_quality_carry_the_line() {
        let mut o = outcome(&[0, 1]);
        let mut p = problem("GT-001", "line 3: reopened");
        p.line = Some(3);
        o.commits[1].problems = Rc::new(vec![p]);
        let mut out = Vec::new();
        github(&mut out, &o).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.starts_with("::error file=.standards/STATE.md,line=3,title=GT-001 at "),
            "{text}"
        );
        assert_eq!(gitlab_value(&o)[0]["location"]["lines"]["begin"], 3);
    }
}
