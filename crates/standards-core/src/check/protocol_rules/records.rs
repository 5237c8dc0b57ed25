//! PR rules on the active cycle's records and on the project context.

use std::collections::{HashMap, HashSet};

use crate::model::fields::{self, Field};
use crate::model::layout::{CHAPTERS_DIR, CONTEXT_PATH, USER_STYLES_DIR};
use crate::model::tree::{Node, Text};
use crate::model::vocab::{
    ArtifactType, CycleMode, FailureType, HandoffKind, IdPrefix, WorkflowState,
};
use crate::records::acceptance::inventory;
use crate::records::edit::heading_id;
use crate::records::plan::{increments, steps};
use crate::records::record::{entry_headings, header_fields, identifier_numbers, is_unfilled};

use super::super::{Cx, OwnRecord, Sink};

pub fn check(cx: &Cx, sink: &mut Sink) {
    pr_038_chapters_installed(cx, sink);
    let Some(doc) = cx.doc() else { return };
    if doc.has_active_cycle() {
        let ready = doc.workflow_state.value == WorkflowState::AwaitingUserSignoff;
        for record in cx.own_records() {
            let Some(prefix) = entry_prefix(record.artifact()) else {
                continue;
            };
            let found = entries(&record.text, prefix);
            if ready {
                pr_027_nothing_open_at_signoff_readiness(record, &found, sink);
            }
            if prefix == IdPrefix::F {
                pr_028_finding_severity(record, &found, sink);
            }
            pr_029_entry_status(record, &found, sink);
            // At readiness PR-027 reports the open finding.
            if prefix == IdPrefix::F && !ready {
                pr_045_complete_review_has_no_open_finding(record, &found, sink);
            }
            pr_030_entry_failure_type(record, &found, sink);
        }
        for record in cx.own_records() {
            pr_035_user_style_resolves(cx, record, sink);
            pr_049_no_tool_placeholder_left(record, sink);
        }
        if let Some((path, text)) = cx.plan() {
            let header = header_fields(text);
            pr_031_style_locked_after_approval(path, &header, sink);
            pr_032_style_lock_kept(cx, path, &header, sink);
            pr_033_collaboration_mode(path, &header, sink);
            pr_041_increments_kept(cx, path, text, sink);
            pr_044_complete_plan_has_steps(path, text, &header, sink);
        }
        pr_043_standard_scope_defines_conditions(cx, sink);
        pr_042_new_identifiers_continue_numbering(cx, sink);
        if let Some(record) = cx.own_record(ArtifactType::Documentation, None) {
            pr_034_documentation_choices(record, sink);
        }
    }
    pr_036_context_before_development(cx, sink);
    pr_037_no_stale_non_baseline_entries(cx, sink);
}

/// The records whose entries carry a `Status` (findings, documentation gaps,
/// synchronization discrepancies).
fn entry_prefix(artifact: ArtifactType) -> Option<IdPrefix> {
    match artifact {
        ArtifactType::Review => Some(IdPrefix::F),
        ArtifactType::Documentation => Some(IdPrefix::Doc),
        ArtifactType::Synchronization => Some(IdPrefix::D),
        _ => None,
    }
}

/// One `### <PREFIX>-NNN` entry: its ID, heading line and field pairs (up to
/// the next heading of level 1-3). Headings inside code fences do not count.
struct RecordEntry {
    id: String,
    line: usize,
    fields: Vec<Field>,
}

impl RecordEntry {
    fn get(&self, name: &str) -> Option<&str> {
        fields::first(&self.fields, name).map(|f| f.value.as_str())
    }
}

fn ends_entry(line: &str) -> bool {
    let hashes = line.bytes().take_while(|b| *b == b'#').count();
    (1..=3).contains(&hashes) && line[hashes..].starts_with([' ', '\t'])
}

fn entries(text: &str, prefix: IdPrefix) -> Vec<RecordEntry> {
    let mut out = Vec::new();
    let mut open: Option<(String, usize, usize)> = None; // id, line, body start
    let mut fence: Option<&str> = None;
    let mut pos = 0;
    for (n, line) in text.split_inclusive('\n').enumerate() {
        let trimmed = line.trim_start();
        if let Some(f) = fence {
            if trimmed.starts_with(f) {
                fence = None;
            }
        } else if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fence = Some(&trimmed[..3]);
        } else if ends_entry(line) {
            if let Some((id, at, start)) = open.take() {
                out.push(RecordEntry {
                    id,
                    line: at,
                    fields: fields::scan(&text[start..pos]),
                });
            }
            if let Some(id) = heading_id(line.trim_end(), prefix) {
                open = Some((id, n + 1, pos + line.len()));
            }
        }
        pos += line.len();
    }
    if let Some((id, at, start)) = open {
        out.push(RecordEntry {
            id,
            line: at,
            fields: fields::scan(&text[start..]),
        });
    }
    out
}

fn noun(prefix: IdPrefix) -> &'static str {
    match prefix {
        IdPrefix::F => "finding",
        IdPrefix::Doc => "documentation entry",
        _ => "discrepancy",
    }
}

/// PR-027: sign-off readiness has "no unresolved material findings,
/// discrepancies, dependencies": no finding, documentation gap or
/// discrepancy of the cycle's records is still `OPEN`, under either policy
/// ("The policy cannot hide an unresolved finding").
fn pr_027_nothing_open_at_signoff_readiness(
    record: &OwnRecord,
    found: &[RecordEntry],
    sink: &mut Sink,
) {
    for e in found {
        if e.get("Status") == Some("OPEN") {
            let prefix = entry_prefix(record.artifact()).expect("entry record");
            sink.push_hinted(
                "PR-027",
                record.path.clone(),
                format!(
                    "line {}: {} {} is still `OPEN` while the cycle is at `AWAITING_USER_SIGNOFF`; sign-off readiness needs every material finding and discrepancy resolved",
                    e.line,
                    noun(prefix),
                    e.id
                ),
                Some(format!(
                    "route the defect to its owner through Failure Handoffs; the {} records `RESOLVED` or `WITHDRAWN` once the correction is verified",
                    record.artifact().role()
                )),
            );
        }
    }
}

/// PR-028: a finding's `Severity` is `P0`, `P1` or `P2`.
fn pr_028_finding_severity(record: &OwnRecord, found: &[RecordEntry], sink: &mut Sink) {
    for e in found {
        let Some(v) = e.get("Severity") else { continue };
        if matches!(v, "P0" | "P1" | "P2") {
            continue;
        }
        let what = format!("has `Severity` `{v}`");
        sink.push_hinted(
            "PR-028",
            record.path.clone(),
            format!(
                "line {}: finding {} {what}; a finding's severity is `P0`, `P1` or `P2`",
                e.line, e.id
            ),
            Some("Reviewer records the finding's severity as `P0`, `P1` or `P2`".into()),
        );
    }
}

/// PR-029: every finding, documentation entry and discrepancy records its
/// `Status` as `OPEN`, `RESOLVED` or `WITHDRAWN`, so readiness can be decided.
fn pr_029_entry_status(record: &OwnRecord, found: &[RecordEntry], sink: &mut Sink) {
    let prefix = entry_prefix(record.artifact()).expect("entry record");
    for e in found {
        let Some(v) = e.get("Status") else { continue };
        if matches!(v, "OPEN" | "RESOLVED" | "WITHDRAWN") {
            continue;
        }
        let what = format!("has `Status` `{v}`");
        sink.push_hinted(
            "PR-029",
            record.path.clone(),
            format!(
                "line {}: {} {} {what}; it must be `OPEN`, `RESOLVED` or `WITHDRAWN`",
                e.line,
                noun(prefix),
                e.id
            ),
            Some(format!(
                "the {} records the entry's status",
                record.artifact().role()
            )),
        );
    }
}

/// PR-030: a finding names the canonical `FailureType` that routes it; a
/// discrepancy names one or `NONE` (for non-workflow ownership).
fn pr_030_entry_failure_type(record: &OwnRecord, found: &[RecordEntry], sink: &mut Sink) {
    let prefix = entry_prefix(record.artifact()).expect("entry record");
    if prefix == IdPrefix::Doc {
        return; // documentation entries name an owner, not a failure type
    }
    for e in found {
        let Some(v) = e.get("FailureType") else {
            continue;
        };
        let ok = if v == "NONE" {
            prefix == IdPrefix::D
        } else {
            v.parse::<FailureType>().is_ok()
        };
        if ok {
            continue;
        }
        let allowed = if prefix == IdPrefix::D {
            "a canonical failure type or `NONE`"
        } else {
            "a canonical failure type"
        };
        let what = format!("has `FailureType` `{v}`");
        sink.push_hinted(
            "PR-030",
            record.path.clone(),
            format!(
                "line {}: {} {} {what}; it must be {allowed} ({})",
                e.line,
                noun(prefix),
                e.id,
                FailureType::NAMES.join(", ")
            ),
            Some("the failure type names the owner the defect is routed to (Failure Types)".into()),
        );
    }
}

/// PR-031: Developer locks the style "when the user first approves the
/// development plan", so a plan past `PROPOSED` has `User Style Locked: true`.
fn pr_031_style_locked_after_approval(path: &str, header: &[Field], sink: &mut Sink) {
    let locked = fields::first(header, "User Style Locked").map(|f| f.value.as_str());
    let status = fields::first(header, "Status").map(|f| f.value.as_str());
    if status.is_some_and(is_unfilled) {
        return; // RH-002: the plan has not recorded its status yet
    }
    let problem = match locked {
        Some("true") => None,
        Some("false") if matches!(status, Some("PROPOSED") | None) => None,
        Some("false") => Some(format!(
            "the plan's `Status` is `{}` but `User Style Locked` is `false`; the style locks when the user first approves the plan",
            status.unwrap_or("")
        )),
        Some(v) if !is_unfilled(v) => Some(format!(
            "`User Style Locked` is `{v}`; it must be `true` or `false`"
        )),
        _ => None, // absent or unfilled: RH-002
    };
    if let Some(message) = problem {
        sink.push_hinted(
            "PR-031",
            path.to_string(),
            message,
            Some("Developer sets `User Style Locked: true` at first approval and never resets it in the cycle".into()),
        );
    }
}

/// PR-032: once locked, the plan's style stays locked and unchanged for the
/// rest of the cycle ("Developer's style stays locked after first plan
/// approval even during recovery or a revised plan").
fn pr_032_style_lock_kept(cx: &Cx, path: &str, header: &[Field], sink: &mut Sink) {
    let Some(committed) = cx.committed_text(path) else {
        return;
    };
    let before = header_fields(&committed);
    let get = |h: &[Field], n: &str| fields::first(h, n).map(|f| f.value.clone());
    if get(&before, "User Style Locked").as_deref() != Some("true") {
        return;
    }
    let (style_then, style_now) = (get(&before, "User Style"), get(header, "User Style"));
    let message = if get(header, "User Style Locked").as_deref() != Some("true") {
        "the plan's style was locked in the last commit and is no longer; a locked style stays locked for the whole cycle".to_string()
    } else if style_then != style_now {
        format!(
            "the plan's locked `User Style` was `{}` in the last commit and is `{}` now; a locked selection is never changed",
            style_then.unwrap_or_default(),
            style_now.unwrap_or_default()
        )
    } else {
        return;
    };
    sink.push_hinted(
        "PR-032",
        path.to_string(),
        message,
        Some("restore `User Style` and `User Style Locked: true` from the last commit; a missing locked style file is restored by the user, not replaced".into()),
    );
}

/// PR-033: the plan records Developer's collaboration mode as `AUTONOMOUS`,
/// `STEPWISE` or `CODE_WITH_ME` (Verification Cadence; Canonical Terms).
fn pr_033_collaboration_mode(path: &str, header: &[Field], sink: &mut Sink) {
    let Some(mode) = fields::first(header, "Mode") else {
        return; // RH-002 reports a missing header value
    };
    if is_unfilled(&mode.value)
        || matches!(
            mode.value.as_str(),
            "AUTONOMOUS" | "STEPWISE" | "CODE_WITH_ME"
        )
    {
        return;
    }
    sink.push_hinted(
        "PR-033",
        path.to_string(),
        format!(
            "the plan's collaboration `Mode` is `{}`; it must be `AUTONOMOUS`, `STEPWISE` or `CODE_WITH_ME`",
            mode.value
        ),
        Some("Developer records the collaboration mode the user chose".into()),
    );
}

/// PR-034: the documentation record preserves "collaboration mode, target
/// and editing boundary": `Collaboration` is `AUTONOMOUS` or `GUIDED`,
/// `Target` is `FILE`, `FOLDER`, `VERTICAL_SLICE` or `ACTIVE_CHANGE`.
fn pr_034_documentation_choices(record: &OwnRecord, sink: &mut Sink) {
    let header = header_fields(&record.text);
    let checks: [(&str, &[&str]); 2] = [
        ("Collaboration", &["AUTONOMOUS", "GUIDED"]),
        (
            "Target",
            &["FILE", "FOLDER", "VERTICAL_SLICE", "ACTIVE_CHANGE"],
        ),
    ];
    for (name, allowed) in checks {
        let Some(f) = fields::first(&header, name) else {
            continue;
        };
        if is_unfilled(&f.value) || allowed.contains(&f.value.as_str()) {
            continue;
        }
        sink.push_hinted(
            "PR-034",
            record.path.clone(),
            format!(
                "the documentation record's `{name}` is `{}`; it must be one of {}",
                f.value,
                allowed.join(", ")
            ),
            Some("Documenter records the choice the user made, or the new-work default".into()),
        );
    }
}

/// The role folder under `.standards/user-styles/` for a record's styles.
fn style_folder(artifact: ArtifactType) -> Option<&'static str> {
    match artifact {
        ArtifactType::Development => Some("developer"),
        ArtifactType::Verification => Some("tester"),
        ArtifactType::Review => Some("reviewer"),
        ArtifactType::Documentation => Some("documenter"),
        ArtifactType::Synchronization => Some("synchronizer"),
        _ => None,
    }
}

/// PR-035: a saved `User Style` resolves to exactly one direct child Markdown
/// file of the role's folder (User Styles: "If a selection does not resolve
/// to exactly one available file, stop and ask the user").
fn pr_035_user_style_resolves(cx: &Cx, record: &OwnRecord, sink: &mut Sink) {
    let Some(folder) = style_folder(record.artifact()) else {
        return;
    };
    let header = header_fields(&record.text);
    let Some(style) = fields::first(&header, "User Style") else {
        return;
    };
    // The value as written: a style file's name may start with a space
    // (` .md` is saved as ` .md`, protocol User Styles), so it is not trimmed.
    let v = style.value.as_str();
    if v == "NONE" || fields::js_trim(v).is_empty() || v.contains('|') || is_unfilled(v) {
        return; // RH-002
    }
    let dir = format!("{USER_STYLES_DIR}/{folder}");
    let unsafe_name = v == "."
        || v == ".."
        || v.contains(['/', '\\', '\r', '\n', '\0'])
        || v.starts_with('.') && v.trim_start_matches('.').is_empty();
    let problem = if unsafe_name {
        Some(format!(
            "`User Style` `{v}` is a path, not a style name; only a direct child Markdown file of `{dir}/` can be selected"
        ))
    } else {
        let mut candidates = vec![format!("{dir}/{v}.md")];
        if v.ends_with(".md") {
            candidates.push(format!("{dir}/{v}"));
        }
        let mut found = 0;
        let mut linked = false;
        for c in &candidates {
            match cx.tree.node(c) {
                Node::File(_) => found += 1,
                Node::Symlink => linked = true,
                _ => {}
            }
        }
        match found {
            1 => None,
            0 if linked => Some(format!(
                "`User Style` `{v}` names a symbolic link in `{dir}/`; a style must be a regular file in the role's folder"
            )),
            0 => Some(format!(
                "`User Style` `{v}` names no file in `{dir}/`; a saved selection must resolve to exactly one available style"
            )),
            _ => Some(format!(
                "`User Style` `{v}` matches both `{v}.md` and `{v}` in `{dir}/`; the saved name must resolve to exactly one file"
            )),
        }
    };
    if let Some(message) = problem {
        sink.push_hinted(
            "PR-035",
            record.path.clone(),
            message,
            Some(format!(
                "the {} stops and asks the user to restore the style file or, when the selection is not locked, to choose another or clear it",
                record.artifact().role()
            )),
        );
    }
}

fn context_text(cx: &Cx) -> Option<String> {
    match cx.tree.text(CONTEXT_PATH) {
        Text::Ok(t) if !t.trim().is_empty() => Some(t),
        _ => None,
    }
}

/// PR-036: a `STANDARD` cycle reaches implementation only with project
/// context: `ARCHITECTING -> DEVELOPING` "requires valid project context"
/// on the brownfield route, and the greenfield route passes `AUDITING`,
/// where Auditor creates it, before `DEVELOPING`.
fn pr_036_context_before_development(cx: &Cx, sink: &mut Sink) {
    let Some(doc) = cx.doc() else { return };
    if !doc.has_active_cycle()
        || doc.cycle_mode.value != CycleMode::Standard
        || doc.workflow_state.value.rank() == 0
        || context_text(cx).is_some()
    {
        return;
    }
    sink.push_hinted(
        "PR-036",
        CONTEXT_PATH,
        format!(
            "the STANDARD cycle is at `{}`, past the audit, but `{CONTEXT_PATH}` is missing or empty; implementation work relies on valid project context",
            doc.workflow_state.value
        ),
        Some("route a `PROJECT_CONTEXT` failure to `AUDITING` so Auditor establishes the project context".into()),
    );
}

/// PR-037: "Active-Cycle Non-Baseline Work" entries are scoped to the cycle
/// that produced them; a later audit reconciles them "rather than copying it
/// forward". Once this cycle's audit has passed (a `STANDARD` cycle in
/// implementation or later, a `DOCUMENTATION` cycle past `AUDITING`), outside
/// recovery, no entry names another cycle.
fn pr_037_no_stale_non_baseline_entries(cx: &Cx, sink: &mut Sink) {
    let Some(doc) = cx.doc() else { return };
    let Some(id) = doc.active_cycle_id() else {
        return;
    };
    let ws = doc.workflow_state.value;
    let audited = match doc.cycle_mode.value {
        CycleMode::Standard => ws.rank() > 0,
        CycleMode::Documentation => ws != WorkflowState::Auditing,
        _ => false,
    };
    if !audited || doc.recovery.active.value {
        return;
    }
    let Some(text) = context_text(cx) else { return };
    let mut stale: HashMap<String, usize> = HashMap::new();
    let mut order: Vec<String> = Vec::new();
    let mut inside = false;
    for (n, line) in text.lines().enumerate() {
        if let Some(h) = line.strip_prefix("## ") {
            inside = h
                .trim()
                .eq_ignore_ascii_case("Active-Cycle Non-Baseline Work");
            continue;
        }
        if line.starts_with("# ") {
            inside = false;
        }
        if !inside {
            continue;
        }
        let mut rest = line;
        while let Some(at) = rest.find("`Cycle: ") {
            let after = &rest[at + "`Cycle: ".len()..];
            let end = after.find([';', '`']).unwrap_or(after.len());
            let named = after[..end].trim();
            if !named.is_empty() && named != id && !stale.contains_key(named) {
                stale.insert(named.to_string(), n + 1);
                order.push(named.to_string());
            }
            rest = &after[end..];
        }
    }
    for named in order {
        sink.push_hinted(
            "PR-037",
            CONTEXT_PATH,
            format!(
                "line {}: `Active-Cycle Non-Baseline Work` still lists work of cycle `{named}`, but this cycle's audit has passed; entries of other cycles are stale and are reconciled, not carried forward",
                stale[&named]
            ),
            Some("Auditor removes or reclassifies the entry against current repository evidence (Project context lifecycle)".into()),
        );
    }
}

/// PR-038: "If a chapter is missing, stop and report an incomplete runtime":
/// the three chapters under `.standards/protocol/` are part of the runtime.
fn pr_038_chapters_installed(cx: &Cx, sink: &mut Sink) {
    for (name, _) in crate::assets::CHAPTERS {
        let path = format!("{CHAPTERS_DIR}/{name}");
        let why = match cx.tree.node(&path) {
            Node::File(_) => continue,
            Node::Missing => "is missing".to_string(),
            Node::Dir => "is a folder, not a file".to_string(),
            Node::Symlink => "is a symbolic link, not a file".to_string(),
            Node::Unreadable(why) => format!("cannot be read ({why})"),
        };
        sink.push_hinted(
            "PR-038",
            path.clone(),
            format!("the protocol chapter `{path}` {why}; without it the installed runtime is incomplete"),
            Some("run `git standards install` to restore the framework files".into()),
        );
    }
}

/// PR-041: "Preserve existing numbers; append new entries rather than
/// renumbering assessed increments": every `### Increment N` of the last
/// commit's plan is still defined.
fn pr_041_increments_kept(cx: &Cx, path: &str, text: &str, sink: &mut Sink) {
    let Some(committed) = cx.committed_text(path) else {
        return;
    };
    let now: HashSet<String> = increments(text).into_iter().map(|i| i.label).collect();
    let mut reported = HashSet::new();
    for inc in increments(&committed) {
        if !now.contains(&inc.label) && reported.insert(inc.label.clone()) {
            sink.push_hinted(
                "PR-041",
                path.to_string(),
                format!(
                    "`### Increment {}` was in the plan at the last commit and is gone now; increment numbers are preserved and new increments are appended",
                    inc.label
                ),
                Some("Developer restores the increment; earlier increment definitions and their evidence are kept after a cadence switch too".into()),
            );
        }
    }
}

/// PR-042: a new identifier continues the record's numbering: "numbering
/// continues from the highest identifier ever used in that document", and
/// `git standards id next` hands out the next number after the highest one.
/// An acceptance condition, development step, finding, documentation entry or
/// discrepancy that is new since the last commit is numbered above every
/// identifier of its prefix the committed record held.
fn pr_042_new_identifiers_continue_numbering(cx: &Cx, sink: &mut Sink) {
    if cx.head.is_none() {
        return;
    }
    let mut records: Vec<(&str, &str, IdPrefix)> = Vec::new();
    if let Some((path, text)) = cx.scope() {
        if cx.standard() || cx.documentation() {
            records.push((path, text, IdPrefix::Ac));
        }
    }
    for record in cx.own_records() {
        if record.duplicate_of.is_some() {
            continue;
        }
        let prefix = match record.artifact() {
            ArtifactType::Development => IdPrefix::Dev,
            other => match entry_prefix(other) {
                Some(p) => p,
                None => continue,
            },
        };
        records.push((record.path.as_str(), record.text.as_str(), prefix));
    }
    for (path, text, prefix) in records {
        let Some(committed) = cx.committed_text(path) else {
            continue;
        };
        let defined = |t: &str| -> Vec<String> {
            if prefix == IdPrefix::Ac {
                inventory(t).known().cloned().collect()
            } else {
                entry_headings(t, prefix)
            }
        };
        let before: HashSet<String> = defined(&committed).into_iter().collect();
        let Some(highest) = identifier_numbers(&committed, prefix).into_iter().max() else {
            continue;
        };
        let mut seen = HashSet::new();
        for id in defined(text) {
            if before.contains(&id) || !seen.insert(id.clone()) {
                continue;
            }
            let number = id
                .rsplit('-')
                .next()
                .and_then(|n| n.parse::<u64>().ok())
                .unwrap_or(u64::MAX);
            if number <= highest {
                sink.push_hinted(
                    "PR-042",
                    path.to_string(),
                    format!(
                        "{id} is new since the last commit but not numbered after {}-{highest:03}, the highest {} identifier the record held; new identifiers continue the numbering",
                        prefix.as_str(),
                        prefix.as_str()
                    ),
                    Some(format!(
                        "take the number from `git standards id next {} {path}`",
                        prefix.as_str()
                    )),
                );
            }
        }
    }
}

/// PR-043: "Scoper represents every verifiable in-scope completion
/// obligation as one or more acceptance conditions" (Acceptance
/// Traceability rule 1), so a `STANDARD` cycle past `SCOPING` (or resumed
/// from it) has a scope that defines at least one current `AC-NNN`. AC-004
/// holds the same for `DOCUMENTATION` cycles; an `EXPEDITED` cycle has none.
fn pr_043_standard_scope_defines_conditions(cx: &Cx, sink: &mut Sink) {
    let Some(doc) = cx.doc() else { return };
    if !cx.standard() {
        return;
    }
    let Some((path, text)) = cx.scope() else {
        return;
    };
    let inv = inventory(text);
    // AC-006 reports a scope whose only conditions sit under Previous Cycles.
    if !inv.current.is_empty() || (inv.retired.is_empty() && !inv.previous.is_empty()) {
        return;
    }
    let ws = doc.workflow_state.value;
    let resumed_from_scoping = doc.handoff.kind() == Some(HandoffKind::Resume)
        && doc.handoff.from_state() == Some(WorkflowState::Scoping)
        && ws != WorkflowState::Scoping;
    let past_scoping = !matches!(ws, WorkflowState::Auditing | WorkflowState::Scoping)
        && (!cx.recovering() || doc.handoff.kind() == Some(HandoffKind::Forward));
    if !(resumed_from_scoping || past_scoping) {
        return;
    }
    sink.push_hinted(
        "PR-043",
        path.to_string(),
        format!(
            "this STANDARD cycle is at `{ws}`, past SCOPING, but its scope defines no current acceptance condition; every verifiable completion obligation is an `AC-NNN` condition"
        ),
        Some(format!(
            "Scoper defines the cycle's conditions as list items such as ``- `AC-001`: <condition>`` (`git standards id next AC {path}` gives the number); past SCOPING the defect goes back to the Scoper as a `SCOPING` failure"
        )),
    );
}

/// PR-044: a `COMPLETE` development plan has at least one `### DEV-NNN`
/// step: "when all current approved steps are `DONE` ... mark the plan
/// `COMPLETE`" (Full Verification Boundary), and every current condition is
/// covered by the plan's work (Acceptance Traceability rule 6).
fn pr_044_complete_plan_has_steps(path: &str, text: &str, header: &[Field], sink: &mut Sink) {
    if fields::first(header, "Status").map(|f| f.value.as_str()) != Some("COMPLETE") {
        return;
    }
    if !steps(text).is_empty() {
        return;
    }
    sink.push_hinted(
        "PR-044",
        path.to_string(),
        "the development plan is `COMPLETE` but defines no `### DEV-NNN` step; completion means every approved step is `DONE`, so a plan with no step completes nothing",
        Some(format!(
            "Developer records the implementation as `### DEV-NNN` steps (`git standards id next DEV {path}`) with their `Acceptance` and `Status`, or sets the plan back to `IN_PROGRESS`"
        )),
    );
}

/// PR-045: the Reviewer's completion gate: "No material finding is open; the
/// report is `COMPLETE`". A review report marked `COMPLETE` holds no finding
/// whose `Status` is `OPEN` (either review kind).
fn pr_045_complete_review_has_no_open_finding(
    record: &OwnRecord,
    found: &[RecordEntry],
    sink: &mut Sink,
) {
    let header = header_fields(&record.text);
    if fields::first(&header, "Status").map(|f| f.value.as_str()) != Some("COMPLETE") {
        return;
    }
    for e in found {
        if e.get("Status") == Some("OPEN") {
            sink.push_hinted(
                "PR-045",
                record.path.clone(),
                format!(
                    "line {}: the review is `COMPLETE` but finding {} is still `OPEN`; the Reviewer's gate passes only when no material finding is open",
                    e.line, e.id
                ),
                Some("Reviewer sets the report back to `IN_PROGRESS` and routes the finding to its owner through Failure Handoffs; a finding settled otherwise is recorded `RESOLVED` or `WITHDRAWN`".into()),
            );
        }
    }
}

/// PR-049: the words `artifact init --skeleton` and `record add` leave for
/// the owner to write are not content: each one still in a record of the
/// active cycle is reported, so a skeleton never passes for a filled record.
fn pr_049_no_tool_placeholder_left(record: &OwnRecord, sink: &mut Sink) {
    for (line, placeholder) in crate::records::edit::placeholders_left(&record.text) {
        sink.push_hinted(
            "PR-049",
            record.path.clone(),
            format!("line {line}: `{placeholder}` is a placeholder the tool wrote; it is not filled in yet"),
            Some(format!(
                "the {} replaces it with the record's content (an item field's value through `record set` on this file, naming the item's ID), or removes an item it does not need",
                record.artifact().role().as_str(),
            )),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_end_at_the_next_heading_and_skip_fences() {
        let text = "# Review\n\n## Findings\n\n### F-001 — a\n\n`Status`: `OPEN`\n\n```\n### F-009 — fenced\n`Status`: `BAD`\n```\n\n#### Detail\n\n`Severity`: `P1`\n\n### F-002 — b\n\n`Status`: `RESOLVED`\n\n## Progress\n\n`Status`: `COMPLETE`\n";
        let found = entries(text, IdPrefix::F);
        let ids: Vec<&str> = found.iter().map(|e| e.id.as_str()).collect();
        assert_eq!(ids, ["F-001", "F-002"]);
        assert_eq!(found[0].get("Status"), Some("OPEN"));
        // A level-4 heading stays inside the entry; the fenced one is no entry.
        assert_eq!(found[0].get("Severity"), Some("P1"));
        assert_eq!(found[0].line, 5);
        // The H2 after F-002 ends it, so the record's own Status is not its.
        assert_eq!(found[1].get("Status"), Some("RESOLVED"));
        assert_eq!(
            found[1]
                .fields
                .iter()
                .filter(|f| f.name == "Status")
                .count(),
            1
        );
    }

    #[test]
    fn entry_ids_need_three_digits_and_a_boundary() {
        assert_eq!(
            heading_id("### F-001 — x", IdPrefix::F).as_deref(),
            Some("F-001")
        );
        assert_eq!(heading_id("### F-01", IdPrefix::F), None);
        assert_eq!(heading_id("### F-001a", IdPrefix::F), None);
        assert_eq!(heading_id("###F-001", IdPrefix::F), None);
        assert_eq!(
            heading_id("### DOC-010", IdPrefix::Doc).as_deref(),
            Some("DOC-010")
        );
    }
}
