//! Upgrading a project the Node runtime installed (issue 29, item 1).
//!
//! The Node runtime released 0.1.0 to 0.11.0 and its STATE.md grew two
//! required Active Work fields on the way: `PendingVerificationCadence`
//! (0.8.0, incremental verification) and `CompletionPolicy` (0.10.0, cycles
//! that finish after implementation review). A STATE.md written before those
//! releases fails ST-007 today, and the last commit lacks the fields too, so
//! "restore it" cannot help. [`migrate_state`] plans the smallest edit that
//! brings such a file to the current format: each missing field is inserted
//! beside its neighbour on an existing line, with the value the older release
//! implied, and every other byte is kept. Pure: text in, text and a report out.
//!
//! What each older release implied:
//! - `PendingVerificationCadence` records a cadence switch the user asked for
//!   and the Developer has not applied yet. Before 0.8.0 no switch could be
//!   asked for, so nothing is pending: `NONE`.
//! - `CompletionPolicy`: before 0.10.0 every `STANDARD` cycle ran to the full
//!   deliverable, and expedited cycles have no policy. So `NONE` while no
//!   cycle was ever started, `FULL_DELIVERABLE` for an active `STANDARD`
//!   cycle, `NONE` for an active `EXPEDITED` one. A finished cycle (signed off
//!   or cancelled: `CycleMode` is `UNSET` by then) keeps its policy; it was a
//!   standard cycle exactly when it recorded a scope or an architecture
//!   (expedited cycles record neither), so `FULL_DELIVERABLE` then and `NONE`
//!   otherwise. An active cycle whose `CycleMode` says neither cannot be
//!   decided here: the migration refuses and names the lines to add.

use crate::model::fields::{self, Field};
use crate::model::text::{mask_html_comments, strip_bom};
use crate::model::vocab::{CycleMode, WorkflowState};

/// One field the migration adds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Addition {
    pub field: &'static str,
    pub value: &'static str,
    /// 1-based line of the migrated file that now holds the field.
    pub line: usize,
    /// Why this value: what the older release implied.
    pub reason: &'static str,
}

impl Addition {
    /// The report line, e.g. "added `CompletionPolicy`: `NONE` (line 8): ...".
    pub fn describe(&self) -> String {
        format!(
            "added `{}`: `{}` to Active Work (line {}): {}",
            self.field, self.value, self.line, self.reason
        )
    }
}

/// A migrated STATE.md.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Migrated {
    pub text: String,
    pub additions: Vec<Addition>,
}

/// A field whose value the older format does not imply.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("predates `{field}` and its value cannot be inferred: {why}")]
pub struct CannotInfer {
    pub field: &'static str,
    pub why: String,
    /// The exact field pairs the user may add to Active Work, one per choice.
    pub choices: Vec<String>,
}

/// Whether a runtime was installed by the Node runtime, from its PROTOCOL.md:
/// ours names `git standards` for every tool (D4), the Node one never does.
pub fn installed_by_node(protocol: &str) -> bool {
    !protocol.contains("git standards")
}

/// The fixed-path record folders releases before 0.5.0 kept under `docs/`
/// (0.5.0 moved them to `.standards/docs/`, where the protocol keeps them).
const RECORD_KINDS: [&str; 5] = [
    "development",
    "verification",
    "reviews",
    "documentation",
    "synchronization",
];

/// The cycle records a release before 0.5.0 left under `docs/`, each with
/// the path it has now: `docs/<kind>/<cycle-id>.md` (reviews:
/// `docs/reviews/<cycle-id>/implementation.md` or `final-deliverable.md`).
/// Only names a generated cycle ID: any other file there is the project's.
pub fn moved_records(paths: &[String]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for path in paths {
        let Some(rest) = path.strip_prefix("docs/") else {
            continue;
        };
        let Some((kind, name)) = rest.split_once('/') else {
            continue;
        };
        if !RECORD_KINDS.contains(&kind) {
            continue;
        }
        let id = match (kind, name.split_once('/')) {
            ("reviews", Some((id, "implementation.md" | "final-deliverable.md"))) => id,
            ("reviews", _) | (_, Some(_)) => continue,
            (_, None) => match name.strip_suffix(".md") {
                Some(id) => id,
                None => continue,
            },
        };
        if crate::model::cycle_id::is_generated(id) {
            out.push((path.clone(), format!(".standards/{path}")));
        }
    }
    out.sort();
    out
}

/// STATE.md with `Active Work.Development` pointing at the record's new
/// place, when it names one that moved: the protocol fixes that path
/// (`.standards/docs/development/<Id>.md`). `Scope` and `Architecture` may
/// name project documents anywhere, so they stay. `None`: nothing to change.
pub fn relocate_development(source: &str, moves: &[(String, String)]) -> Option<(String, String)> {
    let (text, _) = strip_bom(source);
    let offset = source.len() - text.len();
    let (_, body) = active_work(text)?;
    let masked = mask_html_comments(&text[body.clone()]);
    let found = fields::scan(&masked);
    let dev = fields::first(&found, "Development")?;
    let (from, to) = moves.iter().find(|(from, _)| *from == dev.value)?;
    let span = offset + body.start + dev.span.start..offset + body.start + dev.span.end;
    let mut out = String::with_capacity(source.len() + 12);
    out.push_str(&source[..span.start]);
    out.push_str(&fields::render_code_span(to));
    out.push_str(&source[span.end..]);
    let line = fields::line_of(&out, span.start);
    Some((
        out,
        format!(
            "`Development` now names `{to}` (line {line}), where the record moved from `{from}`"
        ),
    ))
}

const POLICY: &str = "CompletionPolicy";
const CADENCE: &str = "PendingVerificationCadence";

/// Plans the migration of a STATE.md text written by an older Node runtime.
/// `Ok(None)`: nothing to migrate (the file has both fields, or it is not
/// shaped enough to anchor an insertion, which the STATE.md parse then
/// reports as usual).
pub fn migrate_state(source: &str) -> Result<Option<Migrated>, CannotInfer> {
    let (text, _) = strip_bom(source);
    let offset = source.len() - text.len();
    let Some((heading_start, body)) = active_work(text) else {
        return Ok(None);
    };
    let masked = mask_html_comments(&text[body.clone()]);
    let found = fields::scan(&masked);
    let has = |name: &str| fields::first(&found, name).is_some();
    if has(POLICY) && has(CADENCE) {
        return Ok(None);
    }
    let head = fields::scan(&mask_html_comments(&text[..heading_start]));
    let head_value = |name: &str| fields::first(&head, name).map(|f| f.value.clone());
    let active_value = |name: &str| fields::first(&found, name).map(|f| f.value.clone());
    // (insertion point in `source`, inserted text, field, value, reason)
    let mut inserts: Vec<(usize, String, &'static str, &'static str, &'static str)> = Vec::new();
    if !has(POLICY) {
        let Some(id) = fields::first(&found, "Id") else {
            return Ok(None);
        };
        let (value, reason) = infer_policy(
            &id.value,
            head_value("WorkflowState").as_deref(),
            head_value("CycleMode").as_deref(),
            |name| active_value(name),
        )?;
        inserts.push((
            offset + body.start + id.pair.start,
            format!("`{POLICY}`: `{value}` "),
            POLICY,
            value,
            reason,
        ));
    }
    if !has(CADENCE) {
        let Some(anchor) = cadence_anchor(&found) else {
            return Ok(None);
        };
        inserts.push((
            offset + body.start + anchor.pair.end,
            format!(" `{CADENCE}`: `NONE`"),
            CADENCE,
            "NONE",
            "releases before 0.8.0 had no verification cadence switch, so none is pending",
        ));
    }
    inserts.sort_by_key(|i| i.0);
    let mut out = String::with_capacity(source.len() + 80);
    let mut at = 0;
    let mut additions = Vec::new();
    for (pos, insert, field, value, reason) in inserts {
        out.push_str(&source[at..pos]);
        let line = fields::line_of(&out, out.len());
        out.push_str(&insert);
        at = pos;
        additions.push(Addition {
            field,
            value,
            line,
            reason,
        });
    }
    out.push_str(&source[at..]);
    Ok(Some(Migrated {
        text: out,
        additions,
    }))
}

/// The field the missing cadence goes after: `BlockedOn`, its neighbour in
/// every release's layout (without it, the STATE.md parse reports the file).
fn cadence_anchor(found: &[Field]) -> Option<&Field> {
    fields::first(found, "BlockedOn")
}

fn infer_policy(
    id: &str,
    state: Option<&str>,
    mode: Option<&str>,
    active: impl Fn(&str) -> Option<String>,
) -> Result<(&'static str, &'static str), CannotInfer> {
    if id == "UNSET" {
        return Ok((
            "NONE",
            "no cycle has started, and a project without a cycle has no completion policy",
        ));
    }
    let state = state.and_then(|s| s.parse::<WorkflowState>().ok());
    let mode = mode.and_then(|m| m.parse::<CycleMode>().ok());
    if state.is_some_and(WorkflowState::is_terminal) {
        let recorded = |name: &str| active(name).is_some_and(|v| v != "NONE");
        return Ok(if recorded("Scope") || recorded("Architecture") {
            ("FULL_DELIVERABLE", "the finished cycle recorded a scope or an architecture, so it was a STANDARD cycle, and before 0.10.0 every STANDARD cycle ran to the full deliverable")
        } else {
            ("NONE", "the finished cycle recorded no scope and no architecture, as an expedited cycle, which has no completion policy")
        });
    }
    match mode {
        Some(CycleMode::Standard) => Ok(("FULL_DELIVERABLE", "before 0.10.0 every STANDARD cycle ran to the full deliverable")),
        Some(CycleMode::Expedited) | Some(CycleMode::Documentation) => {
            Ok(("NONE", "an expedited cycle has no completion policy"))
        }
        _ => Err(CannotInfer {
            field: POLICY,
            why: format!(
                "the cycle `{id}` is active but its `CycleMode` is {}, so whether it is a STANDARD cycle (`FULL_DELIVERABLE`) or an expedited one (`NONE`) is unknown",
                match mode {
                    Some(m) => format!("`{m}`"),
                    None => "missing or not a cycle mode".to_string(),
                }
            ),
            choices: vec![
                "`CompletionPolicy`: `FULL_DELIVERABLE` (a STANDARD cycle; also set `CycleMode`: `STANDARD`)".to_string(),
                "`CompletionPolicy`: `NONE` (an EXPEDITED cycle; also set `CycleMode`: `EXPEDITED`)".to_string(),
            ],
        }),
    }
}

/// The start of the single `## Active Work` heading line and its body range.
fn active_work(text: &str) -> Option<(usize, std::ops::Range<usize>)> {
    let mut pos = 0;
    let mut found = None;
    for line in text.split_inclusive('\n') {
        let start = pos;
        pos += line.len();
        let trimmed = line.trim_end_matches(['\n', '\r', ' ', '\t']);
        match (&mut found, trimmed.strip_prefix("## ")) {
            (None, Some(rest)) if rest.trim() == "Active Work" => found = Some((start, pos, None)),
            (Some((_, _, end @ None)), Some(_)) => *end = Some(start),
            _ => {}
        }
    }
    let (heading, body_start, end) = found?;
    Some((heading, body_start..end.unwrap_or(text.len())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::state::{fresh_template, StateDoc};
    use crate::model::vocab::{CompletionPolicy, PendingCadence, ProjectMode};

    /// STATE.md as a release before 0.8.0 wrote it: neither field.
    fn before_0_8(state: &str, mode: &str, id: &str, scope: &str) -> String {
        format!(
            "# S.T.A.N.D.A.R.D.S. Workflow State

`WorkflowState`: `{state}` `CycleMode`: `{mode}` `PendingCycleMode`: `UNSET`
`PendingCycleRequest`: `UNSET` `PendingCycleBlockedOn`: `NONE`

## Active Work

`Id`: `{id}` `Request`: `Do it.` `Scope`: `{scope}`
`Architecture`: `NONE` `Development`: `NONE` `PromotionReason`: `NONE`
`AuditTarget`: `NONE` `BlockedOn`: `NONE`

`BaselineReconciliation`: `NONE`

## Handoff

`Kind`: `INITIAL` `From`: `NONE` `FailureType`: `NONE` `Reason`:
`Initial.`

## Recovery

`Active`: `false`

## Outstanding Obligations

`Active`: `false`
"
        )
    }

    const ID: &str = "do-it-20260923T150000Z-a7f3c2e9";

    #[test]
    fn a_current_file_needs_no_migration() {
        for mode in [ProjectMode::Greenfield, ProjectMode::Brownfield] {
            assert_eq!(migrate_state(&fresh_template(mode)), Ok(None));
        }
    }

    #[test]
    fn a_fresh_0_7_file_gets_both_fields_and_keeps_every_other_byte() {
        let old = before_0_8("AUDITING", "UNSET", "UNSET", "NONE");
        let m = migrate_state(&old).unwrap().unwrap();
        let doc = StateDoc::parse(&m.text).unwrap();
        let work = doc.active_work;
        assert_eq!(work.completion_policy.value, CompletionPolicy::None);
        assert_eq!(
            work.pending_verification_cadence.value,
            PendingCadence::None
        );
        assert_eq!(
            m.text,
            old.replace("`Id`", "`CompletionPolicy`: `NONE` `Id`")
                .replace(
                    "`BlockedOn`: `NONE`\n",
                    "`BlockedOn`: `NONE` `PendingVerificationCadence`: `NONE`\n"
                )
        );
        let fields: Vec<_> = m.additions.iter().map(|a| (a.field, a.line)).collect();
        assert_eq!(fields, [(POLICY, 8), (CADENCE, 10)]);
        assert!(m.additions[0].describe().contains("line 8"));
    }

    #[test]
    fn an_active_standard_cycle_runs_to_the_full_deliverable_and_expedited_has_none() {
        let m = migrate_state(&before_0_8("DEVELOPING", "STANDARD", ID, "docs/s.md"))
            .unwrap()
            .unwrap();
        assert!(m
            .text
            .contains("`CompletionPolicy`: `FULL_DELIVERABLE` `Id`"));
        let m = migrate_state(&before_0_8("DEVELOPING", "EXPEDITED", ID, "NONE"))
            .unwrap()
            .unwrap();
        assert!(m.text.contains("`CompletionPolicy`: `NONE` `Id`"));
    }

    #[test]
    fn a_finished_cycle_keeps_the_policy_its_records_show() {
        let signed = migrate_state(&before_0_8("SIGNED_OFF", "UNSET", ID, "docs/s.md"))
            .unwrap()
            .unwrap();
        assert!(signed
            .text
            .contains("`CompletionPolicy`: `FULL_DELIVERABLE`"));
        let cancelled = migrate_state(&before_0_8("CANCELLED", "UNSET", ID, "NONE"))
            .unwrap()
            .unwrap();
        assert!(cancelled.text.contains("`CompletionPolicy`: `NONE`"));
    }

    #[test]
    fn a_0_9_file_gets_only_the_policy() {
        let old = before_0_8("TESTING", "STANDARD", ID, "docs/s.md").replace(
            "`BlockedOn`: `NONE`\n",
            "`BlockedOn`: `NONE` `PendingVerificationCadence`: `INCREMENTAL`\n",
        );
        let m = migrate_state(&old).unwrap().unwrap();
        assert_eq!(m.additions.len(), 1);
        assert_eq!(m.additions[0].field, POLICY);
        assert!(m
            .text
            .contains("`PendingVerificationCadence`: `INCREMENTAL`"));
    }

    #[test]
    fn an_active_cycle_without_a_mode_is_refused_with_the_lines_to_add() {
        let e = migrate_state(&before_0_8("DEVELOPING", "UNSET", ID, "NONE")).unwrap_err();
        assert_eq!(e.field, POLICY);
        assert!(e.why.contains(ID), "{e}");
        assert!(e.choices[0].starts_with("`CompletionPolicy`: `FULL_DELIVERABLE`"));
        assert!(e.choices[1].starts_with("`CompletionPolicy`: `NONE`"));
    }

    #[test]
    fn crlf_bom_and_comments_are_kept_and_commented_fields_do_not_count() {
        let old = format!(
            "\u{feff}{}",
            before_0_8("AUDITING", "UNSET", "UNSET", "NONE")
                .replace(
                    "`BaselineReconciliation`: `NONE`",
                    "<!-- `CompletionPolicy`: `NONE` -->\n`BaselineReconciliation`: `NONE`"
                )
                .replace('\n', "\r\n")
        );
        let m = migrate_state(&old).unwrap().unwrap();
        assert!(m.text.starts_with('\u{feff}'));
        assert_eq!(m.text.matches("\r\n").count(), old.matches("\r\n").count());
        assert_eq!(m.text.matches('\n').count(), old.matches('\n').count());
        StateDoc::parse(&m.text).unwrap();
    }

    #[test]
    fn a_file_without_anchors_is_left_to_the_parse() {
        assert_eq!(migrate_state("# nothing\n"), Ok(None));
        let no_id = before_0_8("AUDITING", "UNSET", "UNSET", "NONE").replace("`Id`: `UNSET` ", "");
        assert_eq!(migrate_state(&no_id), Ok(None));
    }

    #[test]
    fn records_before_0_5_move_into_the_standards_folder() {
        let id = ID;
        let paths: Vec<String> = [
            format!("docs/development/{id}.md"),
            format!("docs/verification/{id}.md"),
            format!("docs/reviews/{id}/implementation.md"),
            format!("docs/reviews/{id}/notes.md"),
            "docs/development/guide.md".to_string(),
            format!("docs/scope/{id}.md"),
            format!("src/docs/development/{id}.md"),
        ]
        .into_iter()
        .collect();
        let moves = moved_records(&paths);
        assert_eq!(
            moves,
            [
                (
                    format!("docs/development/{id}.md"),
                    format!(".standards/docs/development/{id}.md")
                ),
                (
                    format!("docs/reviews/{id}/implementation.md"),
                    format!(".standards/docs/reviews/{id}/implementation.md")
                ),
                (
                    format!("docs/verification/{id}.md"),
                    format!(".standards/docs/verification/{id}.md")
                ),
            ]
        );
        let state = before_0_8("DEVELOPING", "STANDARD", id, "docs/s.md").replace(
            "`Development`: `NONE`",
            &format!("`Development`: `docs/development/{id}.md`"),
        );
        let (text, line) = relocate_development(&state, &moves).unwrap();
        assert_eq!(
            text,
            state.replace("`docs/development/", "`.standards/docs/development/")
        );
        assert!(line.contains("line 9"), "{line}");
        assert_eq!(relocate_development(&text, &moves), None);
    }
}
