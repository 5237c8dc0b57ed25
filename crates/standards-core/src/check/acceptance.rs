//! AC: acceptance traceability.
//!
//! In STANDARD and DOCUMENTATION cycles the scope defines the cycle's `AC-NNN`
//! conditions (check-rules §1.9); the design must account for every current
//! one, COMPLETE records of passed phases must too, and no record may cite an
//! ID the scope does not define. EXPEDITED cycles have no acceptance IDs at all
//! (AC-012). Protocol: Acceptance Traceability.

use std::collections::HashSet;

use std::cmp::Ordering;

use crate::model::fields;
use crate::model::vocab::{ArtifactType, HandoffKind, IdPrefix, ReviewKind, WorkflowState};
use crate::records::acceptance::{
    inventory, scope_mentions, without_previous_cycles, Inventory, Standing,
};
use crate::records::record::{bare_mentions, header_fields, section_body};

use super::completion::{self, Situation};
use super::context::DOCUMENTATION_PHASES;
use super::{Cx, OwnRecord, RuleInfo, Sink};

pub const RULES: &[RuleInfo] = &[
    RuleInfo::rule("AC-001", "Defined twice"),
    RuleInfo::rule("AC-002", "Current and retired"),
    RuleInfo::rule("AC-003", "Current and historical"),
    RuleInfo::rule("AC-004", "Documentation scope needs conditions"),
    RuleInfo::rule("AC-005", "History numbered after current"),
    RuleInfo::rule("AC-006", "Only history"),
    RuleInfo::rule("AC-007", "Mentioned but not defined"),
    RuleInfo::rule("AC-008", "Undefined acceptance ID elsewhere"),
    RuleInfo::rule("AC-009", "Design coverage"),
    RuleInfo::rule("AC-010", "Completed record coverage"),
    RuleInfo::rule("AC-011", "Partial assessment coverage"),
    RuleInfo::rule("AC-012", "No acceptance IDs in expedited cycles"),
];

const DEFINE_HINT: &str = "Scoper writes each condition as a list item that starts with its ID, for example \"- `AC-001`: <condition>\"; a table row, heading or prose mention does not define it";

const DEFINE_HINT_SHORT: &str = "for example \"- `AC-001`: <condition>\"";

const KEEP_HISTORY_LAST: &str = "Scoper keeps this cycle's conditions above `## Previous Cycles`, which stays the scope's last section";

/// The scope the AC and GT-003/GT-004 rules read: an active STANDARD or
/// DOCUMENTATION cycle whose scope text PV-009..PV-013 established.
pub struct Scope<'a> {
    /// The normalised `Active Work.Scope` path (the problems' file).
    pub path: &'a str,
    pub text: &'a str,
    pub inventory: Inventory,
}

/// The AC scope, or `None` when the AC rules do not apply.
pub fn established_scope<'a>(cx: &'a Cx) -> Option<Scope<'a>> {
    cx.active_id()?;
    if !(cx.standard() || cx.documentation()) {
        return None;
    }
    let (path, text) = cx.scope()?;
    Some(Scope {
        path,
        text,
        inventory: inventory(text),
    })
}

/// Checks AC-001..AC-011 (STANDARD, DOCUMENTATION) or AC-012 (EXPEDITED).
pub fn check(cx: &Cx, sink: &mut Sink) {
    if cx.active_id().is_none() {
        return;
    }
    if cx.expedited() {
        expedited_ids(cx, sink);
        return;
    }
    let Some(scope) = established_scope(cx) else {
        return;
    };
    defined_twice(&scope, sink);
    current_and_retired(&scope, sink);
    current_and_historical(&scope, sink);
    documentation_needs_conditions(cx, &scope, sink);
    if !history_numbered_after_current(&scope, sink) {
        only_history(cx, &scope, sink);
    }
    mentioned_not_defined(&scope, sink);
    undefined_elsewhere(cx, &scope, sink);
    design_coverage(cx, &scope, sink);
    record_coverage(cx, &scope, sink);
}

/// AC-001 Defined twice: an ID defined more than once within one section kind;
/// one problem per ID.
fn defined_twice(scope: &Scope, sink: &mut Sink) {
    let mut reported: HashSet<&str> = HashSet::new();
    for (id, standing) in &scope.inventory.duplicates {
        if !reported.insert(id.as_str()) {
            continue;
        }
        let where_ = match standing {
            Standing::Current => "among the current conditions",
            Standing::Retired => "under Retired Acceptance Identifiers",
            Standing::Previous => "under Previous Cycles",
        };
        sink.push_hinted(
            "AC-001",
            scope.path,
            format!("{id} is defined more than once {where_}; an acceptance ID names exactly one condition"),
            Some(format!(
                "Scoper keeps one definition of {id}; a separate or replaced condition gets a new ID from `git standards id next AC {}`",
                scope.path
            )),
        );
    }
}

/// AC-002 Current and retired (Acceptance Traceability rule 2).
fn current_and_retired(scope: &Scope, sink: &mut Sink) {
    let inv = &scope.inventory;
    for id in inv.current.iter().filter(|id| inv.retired.contains(id)) {
        sink.push_hinted(
            "AC-002",
            scope.path,
            format!("{id} is defined both as a current condition and under Retired Acceptance Identifiers"),
            Some(format!(
                "Scoper never reuses a retired ID: give the current condition a new ID from `git standards id next AC {}`, or drop the current definition",
                scope.path
            )),
        );
    }
}

/// AC-003 Current and historical (Acceptance Traceability rule 3).
fn current_and_historical(scope: &Scope, sink: &mut Sink) {
    let inv = &scope.inventory;
    for id in inv.current.iter().filter(|id| inv.previous.contains(id)) {
        sink.push_hinted(
            "AC-003",
            scope.path,
            format!("{id} is defined both as a current condition and under Previous Cycles, where an earlier cycle used it"),
            Some(format!(
                "Scoper numbers this cycle's conditions after the highest ID the document ever used (`git standards id next AC {}`); IDs under Previous Cycles are never used again",
                scope.path
            )),
        );
    }
}

/// AC-004 Documentation scope needs conditions: a DOCUMENTATION cycle past
/// scoping (or resumed from it) whose scope defines no current condition.
fn documentation_needs_conditions(cx: &Cx, scope: &Scope, sink: &mut Sink) {
    let Some(doc) = cx.doc() else { return };
    if !cx.documentation() || !scope.inventory.current.is_empty() {
        return;
    }
    let ws = doc.workflow_state.value;
    let resumed_from_scoping = cx.resume_source() == Some(WorkflowState::Scoping);
    let past_scoping = !matches!(ws, WorkflowState::Auditing | WorkflowState::Scoping)
        && (!cx.recovering() || doc.handoff.kind() == Some(HandoffKind::Forward));
    if !(resumed_from_scoping || past_scoping) {
        return;
    }
    sink.push_hinted(
        "AC-004",
        scope.path,
        if resumed_from_scoping {
            "Scoper resumed this DOCUMENTATION cycle, but the scope defines no current acceptance conditions".to_string()
        } else {
            format!("this DOCUMENTATION cycle is in {ws}, past SCOPING, but the scope defines no current acceptance conditions")
        },
        Some(format!(
            "Scoper defines the cycle's conditions as `AC-NNN` list items above any `## Previous Cycles` heading, {DEFINE_HINT_SHORT}"
        )),
    );
}

/// The number of an `AC-NNN` identifier, as its digits without leading zeros.
fn number(id: &str) -> &str {
    let digits = id.rsplit_once('-').map(|(_, d)| d).unwrap_or(id);
    let trimmed = digits.trim_start_matches('0');
    if trimmed.is_empty() {
        "0"
    } else {
        trimmed
    }
}

/// Compares two identifiers by number, for numbers of any length.
fn by_number(a: &str, b: &str) -> Ordering {
    let (a, b) = (number(a), number(b));
    a.len().cmp(&b.len()).then_with(|| a.cmp(b))
}

/// AC-005 History numbered after current: with current or retired IDs, every
/// Previous-Cycles ID numbered above the smallest of them is misplaced; one
/// problem listing them. Returns whether it fired (AC-006 then stays silent).
fn history_numbered_after_current(scope: &Scope, sink: &mut Sink) -> bool {
    let inv = &scope.inventory;
    let Some(lowest) = inv
        .current
        .iter()
        .chain(&inv.retired)
        .min_by(|a, b| by_number(a, b))
    else {
        return false;
    };
    let misplaced: Vec<&str> = inv
        .previous
        .iter()
        .filter(|id| by_number(id, lowest) == Ordering::Greater)
        .map(String::as_str)
        .collect();
    if misplaced.is_empty() {
        return false;
    }
    let (list, verb) = if misplaced.len() == 1 {
        (misplaced[0].to_string(), "sits")
    } else {
        (misplaced.join(", "), "sit")
    };
    sink.push_hinted(
        "AC-005",
        scope.path,
        format!(
            "{list} {verb} under Previous Cycles but {} numbered above {lowest}, a condition of this cycle; earlier cycles' IDs are always lower, so this looks like current work below the history heading",
            if misplaced.len() == 1 { "is" } else { "are" }
        ),
        Some(KEEP_HISTORY_LAST.into()),
    );
    true
}

/// AC-006 Only history: no current or retired IDs, some under Previous
/// Cycles, and scoping is over.
fn only_history(cx: &Cx, scope: &Scope, sink: &mut Sink) {
    let Some(doc) = cx.doc() else { return };
    let inv = &scope.inventory;
    if !inv.current.is_empty()
        || !inv.retired.is_empty()
        || inv.previous.is_empty()
        || doc.workflow_state.value == WorkflowState::Scoping
    {
        return;
    }
    sink.push_hinted(
        "AC-006",
        scope.path,
        format!(
            "every condition of the scope ({}) sits under Previous Cycles, so this cycle has none",
            inv.previous.join(", ")
        ),
        Some(KEEP_HISTORY_LAST.into()),
    );
}

/// AC-007 Mentioned but not defined: an AC ID the scope mentions (outside
/// fences, before Previous Cycles) in a form that does not define it.
fn mentioned_not_defined(scope: &Scope, sink: &mut Sink) {
    let known: HashSet<&String> = scope.inventory.known().collect();
    for id in scope_mentions(scope.text) {
        if known.contains(&id) {
            continue;
        }
        sink.push_hinted(
            "AC-007",
            scope.path,
            format!("{id} appears in the scope, but no list item defines it as a condition"),
            Some(DEFINE_HINT.into()),
        );
    }
}

/// AC-008 Undefined acceptance ID elsewhere: an own record other than the
/// scope, or the design document, cites an AC ID the scope does not know.
fn undefined_elsewhere(cx: &Cx, scope: &Scope, sink: &mut Sink) {
    let known: HashSet<&String> = scope.inventory.known().collect();
    let in_scope: HashSet<String> = scope_mentions(scope.text).into_iter().collect();
    let design = cx.design();
    let design_path = design.map(|(p, _)| p);
    // Every own record (the catalogue's "own record" includes PV-007 duplicates).
    let mut citing: Vec<(&str, &str, String)> = cx
        .own
        .iter()
        .map(|o| {
            (
                o.path.as_str(),
                o.text.as_str(),
                o.artifact().role().to_string(),
            )
        })
        .collect();
    if let Some((path, text)) = design {
        if !citing.iter().any(|(p, _, _)| *p == path) {
            citing.push((path, text, "Architect".into()));
        }
    }
    for (path, text, owner) in citing {
        if path == scope.path {
            continue;
        }
        let cited = if Some(path) == design_path {
            bare_mentions(&without_previous_cycles(text), IdPrefix::Ac)
        } else {
            bare_mentions(text, IdPrefix::Ac)
        };
        for id in cited {
            if known.contains(&id) {
                continue;
            }
            let (message, hint) = if in_scope.contains(&id) {
                (
                    format!("cites {id}, which the scope `{}` mentions but never defines as a condition", scope.path),
                    format!("Scoper defines {id} as a list item in the scope ({DEFINE_HINT_SHORT}); downstream records cite only defined conditions"),
                )
            } else {
                (
                    format!("cites {id}, which the scope `{}` does not define", scope.path),
                    format!("{owner} cites only the scope's acceptance IDs and never invents substitutes; a missing condition is routed to Scoper"),
                )
            };
            sink.push_hinted("AC-008", path, message, Some(hint));
        }
    }
}

/// AC-009 Design coverage: once Architect's work is done, every current ID is
/// mentioned in the design above its Previous Cycles heading.
fn design_coverage(cx: &Cx, scope: &Scope, sink: &mut Sink) {
    let Some(doc) = cx.doc() else { return };
    let Some((design_path, design)) = cx.design() else {
        return;
    };
    let ws = doc.workflow_state.value;
    let design_done = cx.full_boundary()
        || (cx.resume_source() == Some(WorkflowState::Architecting)
            && ws != WorkflowState::Scoping)
        || if cx.recovering() {
            cx.handed_off_by(&[HandoffKind::Forward, HandoffKind::Resume])
                == Some(WorkflowState::Architecting)
        } else {
            cx.past_architecture(ws)
        };
    if !design_done {
        return;
    }
    let covered: HashSet<String> = bare_mentions(&without_previous_cycles(design), IdPrefix::Ac)
        .into_iter()
        .collect();
    for id in scope
        .inventory
        .current
        .iter()
        .filter(|id| !covered.contains(*id))
    {
        sink.push_hinted(
            "AC-009",
            design_path,
            format!("the design does not account for current acceptance condition {id}"),
            Some(format!(
                "Architect covers {id} in the design above any `## Previous Cycles` heading, with technical coverage or an explicit \"No architectural impact\" disposition"
            )),
        );
    }
}

/// The state whose owner completes a record (check-rules §1.14), if any.
/// (The same table drives the fixed-record discovery in `context.rs`.)
fn completing_state(record: &OwnRecord) -> Option<WorkflowState> {
    match (record.artifact(), record.kind()) {
        (ArtifactType::Verification, _) => Some(WorkflowState::Testing),
        (ArtifactType::Review, Some(ReviewKind::Implementation)) => {
            Some(WorkflowState::ReviewingImplementation)
        }
        (ArtifactType::Review, Some(ReviewKind::FinalDeliverable)) => {
            Some(WorkflowState::ReviewingFinal)
        }
        (ArtifactType::Documentation, _) => Some(WorkflowState::Documenting),
        (ArtifactType::Synchronization, _) => Some(WorkflowState::Synchronizing),
        _ => None,
    }
}

/// AC-010's *held*(phase): whether a COMPLETE record completed in `phase` is
/// held to full coverage now *and AC-010 reports the gap*. The stop hook's
/// narrowing lives in [`completion::holding_rule`]: at turn end during
/// recovery the record of the state just left is held too, but HK-005
/// reports it, so AC-010 stays silent there (one rule per gap).
fn held(cx: &Cx, phase: WorkflowState) -> bool {
    Situation::of(cx).is_some_and(|s| completion::holding_rule(&s, phase) == Some("AC-010"))
}

/// Whether AC-011 checks a partial assessment now: while the cycle is in
/// TESTING. At turn end the same gap is keyed on the Tester's handoff and
/// reported by HK-007 ([`completion::partial_assessment_rule`]).
fn partial_assessment_due(cx: &Cx) -> bool {
    Situation::of(cx).is_some_and(|s| completion::partial_assessment_rule(&s) == Some("AC-011"))
}

/// AC-010 Completed record coverage and AC-011 Partial assessment coverage.
fn record_coverage(cx: &Cx, scope: &Scope, sink: &mut Sink) {
    let documentation = cx.documentation();
    // Every own record, PV-007 duplicates included ("own record", check-rules conventions).
    for record in &cx.own {
        let Some(phase) = completing_state(record) else {
            continue;
        };
        if documentation && !DOCUMENTATION_PHASES.contains(&phase) {
            continue;
        }
        let header = header_fields(&record.text);
        let first = |name: &str| fields::first(&header, name).map(|f| f.value.as_str());
        // AC-011: a Tester's increment or correction assessment in progress (HK-007's at turn end).
        let partial_record = phase == WorkflowState::Testing
            && matches!(
                first("Assessment Purpose"),
                Some("INCREMENT" | "CORRECTION")
            );
        // At turn end the stop hook reports a partial assessment's gaps as
        // HK-007, whose wording wins over AC-010 for the same record (AC-011).
        if partial_record
            && Situation::of(cx)
                .is_some_and(|s| completion::partial_assessment_rule(&s) == Some("HK-007"))
        {
            continue;
        }
        let partial = partial_record && partial_assessment_due(cx);
        let complete = first("Status") == Some("COMPLETE") && held(cx, phase);
        if !(partial || complete) {
            continue;
        }
        let coverage = if phase == WorkflowState::Testing {
            section_body(&record.text, "Acceptance Evidence").unwrap_or_default()
        } else if documentation {
            without_previous_cycles(&record.text)
        } else {
            record.text.clone()
        };
        let mentioned: HashSet<String> =
            bare_mentions(&coverage, IdPrefix::Ac).into_iter().collect();
        let owner = record.artifact().role();
        let place = if phase == WorkflowState::Testing {
            "its Acceptance Evidence section"
        } else {
            "the record"
        };
        for id in scope
            .inventory
            .current
            .iter()
            .filter(|id| !mentioned.contains(*id))
        {
            if partial {
                sink.push_hinted(
                    "AC-011",
                    record.path.clone(),
                    format!("the partial assessment does not account for current acceptance condition {id} in its Acceptance Evidence section"),
                    Some(format!(
                        "{owner} gives {id} a row: evidence for the assessed increment or correction, `AWAITING_IMPLEMENTATION` for approved future steps, a blocker, or a pending later-role dependency"
                    )),
                );
            } else {
                sink.push_hinted(
                    "AC-010",
                    record.path.clone(),
                    format!("the record is COMPLETE, but {place} does not account for current acceptance condition {id}"),
                    Some(format!(
                        "{owner} accounts for {id} (evidence, a blocker, or a pending dependency) or reopens the record with `Status` `IN_PROGRESS`"
                    )),
                );
            }
        }
    }
}

/// AC-012 No acceptance IDs in expedited cycles: one problem per own record
/// that mentions bare `AC` identifiers.
fn expedited_ids(cx: &Cx, sink: &mut Sink) {
    for record in &cx.own {
        let used = bare_mentions(&record.text, IdPrefix::Ac);
        if used.is_empty() {
            continue;
        }
        sink.push_hinted(
            "AC-012",
            record.path.clone(),
            format!(
                "mentions acceptance IDs ({}), but an EXPEDITED cycle has no acceptance conditions",
                used.join(", ")
            ),
            Some(format!(
                "{} removes them; expedited plan steps use `Acceptance`: `EXPEDITED_REQUEST`, and a cycle that needs acceptance conditions is promoted to STANDARD",
                record.artifact().role()
            )),
        );
    }
}

#[cfg(test)]
pub(super) mod test_support {
    //! The F-STD scenario (scenarios §0.2) in memory, shared by the RH, AC and
    //! GT-003/GT-004 unit tests.

    use crate::check::{run, Options};
    use crate::model::tree::MemTree;

    pub const ID: &str = "add-user-search-20260927T190146Z-7bef0f04";

    use super::super::fixtures;

    /// Scenario F-STD, from `fixtures/check/bases/f-std` like every other test.
    pub fn f_std() -> MemTree {
        fixtures::f_std()
    }

    pub use fixtures::read;

    /// Rewrites one file of `t` in place.
    pub fn edit(t: &mut MemTree, path: &str, f: impl FnOnce(String) -> String) {
        *t = fixtures::edit(std::mem::take(t), path, f);
    }

    pub fn scope_path() -> String {
        format!(".standards/docs/scope/{ID}.md")
    }
    pub fn design_path() -> String {
        format!(".standards/docs/specs/{ID}.md")
    }
    pub fn plan_path() -> String {
        format!(".standards/docs/development/{ID}.md")
    }
    pub fn report_path() -> String {
        format!(".standards/docs/verification/{ID}.md")
    }

    /// Sets the first `` `name`: `…` `` field of STATE.md.
    pub fn set(t: &mut MemTree, name: &str, value: &str) {
        edit(t, crate::model::layout::STATE_PATH, |s| {
            fixtures::set_field(&s, name, value)
        });
    }

    /// The rules with `prefix` that fire on `t` (with `head` as the last commit).
    pub fn fired(
        t: &MemTree,
        head: Option<&MemTree>,
        options: Options,
        prefix: &str,
    ) -> Vec<&'static str> {
        run(t, head.map(|h| h as _), options)
            .rules()
            .into_iter()
            .filter(|r| r.starts_with(prefix))
            .collect()
    }

    pub fn rules_with(t: &MemTree, prefix: &str) -> Vec<&'static str> {
        fired(t, None, Options::default(), prefix)
    }

    /// Every (rule, file, message) of a run, for assertions on files and counts.
    pub fn problems(t: &MemTree, options: Options) -> Vec<(&'static str, String, String)> {
        run(t, None, options)
            .problems
            .into_iter()
            .map(|p| (p.rule, p.file, p.message))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::test_support::*;
    use super::*;
    use crate::check::Options;
    use crate::model::layout::STATE_PATH;
    use crate::model::tree::MemTree;

    fn ac(t: &MemTree) -> Vec<&'static str> {
        rules_with(t, "AC")
    }

    fn on(t: &MemTree, rule: &str, options: Options) -> Vec<(String, String)> {
        problems(t, options)
            .into_iter()
            .filter(|(r, _, _)| *r == rule)
            .map(|(_, f, m)| (f, m))
            .collect()
    }

    fn add_current(t: &mut MemTree, line: &str) {
        edit(t, &scope_path(), |s| {
            s.replace(
                "\n## Retired Acceptance Identifiers",
                &format!("{line}\n\n## Retired Acceptance Identifiers"),
            )
        });
    }

    #[test]
    fn f_std_passes() {
        let t = f_std();
        let all = problems(&t, Options::default());
        assert!(all.is_empty(), "{all:?}");
        let all = problems(
            &t,
            Options {
                at_turn_end: true,
                ..Default::default()
            },
        );
        assert!(all.is_empty(), "{all:?}");
    }

    #[test]
    fn sc_ac_001_inventory_problems() {
        let mut t = f_std();
        edit(&mut t, &scope_path(), |s| {
            s.replace(
                "- `AC-002`: The guide explains search.",
                "- `AC-003`: Split again.\n- `AC-001`: Twice.",
            )
        });
        edit(&mut t, &plan_path(), |s| {
            s.replacen("`AC-001`", "`AC-009`", 1)
        });
        let fired = ac(&t);
        for rule in ["AC-001", "AC-002", "AC-008"] {
            assert!(fired.contains(&rule), "{rule} in {fired:?}");
        }
        assert_eq!(on(&t, "AC-001", Options::default()).len(), 1);
        // The plan cites AC-009; the design and the report still cite the dropped AC-002.
        let cited = on(&t, "AC-008", Options::default());
        let plan: Vec<_> = cited.iter().filter(|(f, _)| *f == plan_path()).collect();
        assert_eq!(plan.len(), 1);
        assert!(plan[0].1.contains("AC-009"));
        assert_eq!(cited.len(), 3, "{cited:?}");
    }

    #[test]
    fn sc_ac_002_003_004_complete_records_of_passed_phases() {
        let mut t = f_std();
        add_current(&mut t, "- `AC-005`: Results are paged.");
        let problems = on(&t, "AC-009", Options::default());
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].0, design_path());
        let report = on(&t, "AC-010", Options::default());
        assert_eq!(report.len(), 1);
        assert_eq!(report[0].0, report_path());
        // SC-AC-003: held in its own phase.
        set(&mut t, "WorkflowState", "TESTING");
        assert_eq!(on(&t, "AC-010", Options::default()).len(), 1);
        // SC-AC-004: an IN_PROGRESS report is not held.
        edit(&mut t, &report_path(), |s| {
            s.replacen("`COMPLETE`", "`IN_PROGRESS`", 1)
        });
        assert!(on(&t, "AC-010", Options::default()).is_empty());
    }

    #[test]
    fn sc_ac_005_006_previous_cycles_in_the_design() {
        let mut t = f_std();
        edit(&mut t, &design_path(), |s| {
            s.replace("- `AC-002`: No architectural impact; Documenter owns it.\n", "")
                + "\n## Previous Cycles\n\n## Acceptance Coverage\n\n```\n## Example\n```\n- `AC-002`: old.\n"
        });
        let design = on(&t, "AC-009", Options::default());
        assert_eq!(design.len(), 1);
        assert!(design[0].1.contains("AC-002"));
        // The design cites AC-002 only as history, so AC-008 is quiet too.
        assert!(on(&t, "AC-008", Options::default()).is_empty());
    }

    fn scope_with(body: &str) -> MemTree {
        let mut t = f_std();
        t.insert(
            &scope_path(),
            format!("<!-- STANDARDS\nArtifact: SCOPE\nCycle: {ID}\n-->\n# Search\n\n{body}"),
        );
        t
    }

    #[test]
    fn sc_ac_007_history_is_not_current() {
        let t = scope_with(
            "## Work\n- `AC-004`: New.\n## Previous Cycles\n## Work\n- `AC-001`: Old.\n",
        );
        let all = problems(&t, Options::default());
        assert!(all.iter().all(|(_, _, m)| !m.contains("AC-001")), "{all:?}");
        assert!(!ac(&t).contains(&"AC-005"));
        let design = on(&t, "AC-009", Options::default());
        assert_eq!(design.len(), 1);
        assert!(design[0].1.contains("AC-004"));
    }

    #[test]
    fn sc_ac_008_fenced_history_heading_is_not_history() {
        let mut t = f_std();
        add_current(&mut t, "```\n## Previous Cycles\n```\n- `AC-004`: New.");
        let design = on(&t, "AC-009", Options::default());
        assert_eq!(design.len(), 1);
        assert!(design[0].1.contains("AC-004"));
    }

    #[test]
    fn sc_ac_009_010_011_numbering_across_cycles() {
        let ok = scope_with("## Work\n- `AC-004`: New.\n## Previous Cycles\n- `AC-001`: Old.\n");
        assert!(!ac(&ok).contains(&"AC-005"));
        let bad = scope_with(
            "## Work\n- `AC-004`: New.\n## Previous Cycles\n- `AC-001`: Old.\n- `AC-005`: Misplaced.\n- `AC-0006`: Also.\n",
        );
        let misplaced = on(&bad, "AC-005", Options::default());
        assert_eq!(misplaced.len(), 1);
        assert!(
            misplaced[0].1.starts_with("AC-005, AC-0006 sit"),
            "{misplaced:?}"
        );
        assert!(!ac(&bad).contains(&"AC-006"));
        let only =
            scope_with("## Previous Cycles\n- `AC-001`: Old.\n## Work\n- `AC-004`: Old too.\n");
        assert!(ac(&only).contains(&"AC-006"));
        let mut scoping = only.clone();
        set(&mut scoping, "WorkflowState", "SCOPING");
        assert!(!ac(&scoping).contains(&"AC-006"));
    }

    #[test]
    fn huge_numbers_compare_without_overflow() {
        assert_eq!(
            by_number("AC-99999999999999999999999", "AC-100"),
            Ordering::Greater
        );
        assert_eq!(by_number("AC-0010", "AC-010"), Ordering::Equal);
        assert_eq!(by_number("AC-000", "AC-001"), Ordering::Less);
        let t = scope_with("## Work\n- `AC-100000000000000000000000000`: New.\n## Previous Cycles\n- `AC-200000000000000000000000000`: Odd.\n");
        assert!(ac(&t).contains(&"AC-005"));
    }

    #[test]
    fn sc_ac_012_to_015_mentions_that_do_not_define() {
        let mut t = f_std();
        edit(&mut t, &scope_path(), |s| {
            s.replace(
                "- `AC-001`: Users can search by name.",
                "| `AC-001` | Users can search by name. |",
            )
        });
        let scope = on(&t, "AC-007", Options::default());
        assert_eq!(scope.len(), 1);
        assert_eq!(scope[0].0, scope_path());
        assert!(scope[0].1.contains("AC-001"));
        let design = on(&t, "AC-008", Options::default());
        assert!(design
            .iter()
            .any(|(f, m)| *f == design_path() && m.contains("mentions but never defines")));
        // SC-AC-015: fenced rows and history rows are not mentions.
        let mut t = f_std();
        edit(&mut t, &scope_path(), |s| {
            s + "\n```\n| AC-007 | example |\n```\n\n## Previous Cycles\n\n| AC-000 | old |\n"
        });
        edit(&mut t, &report_path(), |s| s + "Also AC-000.\n");
        assert!(on(&t, "AC-007", Options::default()).is_empty());
        let report = on(&t, "AC-008", Options::default());
        assert_eq!(report.len(), 1);
        assert!(report[0].1.contains("does not define"));
    }

    #[test]
    fn sc_ac_016_017_design_after_audit_in_greenfield() {
        let mut t = f_std();
        add_current(&mut t, "- `AC-005`: Paged.");
        set(&mut t, "WorkflowState", "AUDITING");
        assert!(on(&t, "AC-009", Options::default()).is_empty());
        t.insert(
            crate::model::layout::MODE_PATH,
            crate::model::mode::render(crate::model::vocab::ProjectMode::Greenfield),
        );
        assert_eq!(on(&t, "AC-009", Options::default()).len(), 1);
    }

    #[test]
    fn fences_follow_commonmark() {
        // D14: fences are found by a CommonMark parse, so a fence inside a block
        // quote hides its rows. The reference's line scanner does not see that
        // fence and would report AC-009 as mentioned but not defined (AC-007).
        let t = scope_with(
            "## Work\n- `AC-001`: Search.\n- `AC-002`: Guide.\n> ```\n> | AC-009 | example |\n> ```\n## Retired Acceptance Identifiers\n- `AC-003`: Split.\n",
        );
        assert!(ac(&t).is_empty(), "{:?}", problems(&t, Options::default()));
        // A fenced definition is an example, not a condition.
        let t = scope_with(
            "## Work\n- `AC-001`: Search.\n- `AC-002`: Guide.\n```\n- `AC-004`: example\n```\n",
        );
        assert!(ac(&t).is_empty());
    }

    #[test]
    fn sc_ac_019_definition_forms_pass() {
        let t = scope_with(
            "## Work\n- [ ] **AC-001**: Search.\n- See AC-001 for the search rules.\n1. AC-002 — Guide.\n## Retired Acceptance Identifiers ##\n- `AC-003`, `AC-004`: Replaced by AC-001 and AC-002.\n",
        );
        let all = problems(&t, Options::default());
        assert!(all.is_empty(), "{all:?}");
    }

    #[test]
    fn sc_ac_020_expedited_cycles_have_no_acceptance_ids() {
        let mut t = f_std();
        set(&mut t, "CycleMode", "EXPEDITED");
        set(&mut t, "CompletionPolicy", "NONE");
        let expedited = on(&t, "AC-012", Options::default());
        let files: Vec<_> = expedited.iter().map(|(f, _)| f.as_str()).collect();
        assert!(files.contains(&plan_path().as_str()));
        assert!(files.contains(&scope_path().as_str()));
        assert!(expedited
            .iter()
            .any(|(_, m)| m.contains("(AC-001, AC-002, AC-003)")));
        // Nothing else of the AC family runs in an expedited cycle.
        assert_eq!(ac(&t), ["AC-012"]);
    }

    fn with_rework_frame(t: &mut MemTree) {
        edit(t, STATE_PATH, |s| {
            s.replace(
                "## Recovery\n\n`Active`: `false`",
                "## Recovery\n\n`Active`: `true`\n\n### Frame 1\n\n`From`: `AWAITING_USER_SIGNOFF` `Owner`: `SCOPING` `FailureType`: `SCOPING`\n`Reason`: `Paging was added.` `ResumeAt`: `AWAITING_USER_SIGNOFF` `RerunThrough`: `SYNCHRONIZING`",
            )
        });
    }

    #[test]
    fn sc_ac_021_022_reruns_hold_only_the_current_state() {
        let mut t = f_std();
        with_rework_frame(&mut t);
        add_current(&mut t, "- `AC-005`: Paged.");
        set(&mut t, "WorkflowState", "DEVELOPING");
        assert!(on(&t, "AC-009", Options::default()).is_empty());
        assert!(on(&t, "AC-010", Options::default()).is_empty());
        set(&mut t, "WorkflowState", "TESTING");
        assert!(on(&t, "AC-009", Options::default()).is_empty());
        assert_eq!(on(&t, "AC-010", Options::default()).len(), 1);
    }

    fn f_doc_ready() -> MemTree {
        let mut t = f_std();
        set(&mut t, "CycleMode", "DOCUMENTATION");
        set(&mut t, "CompletionPolicy", "NONE");
        set(&mut t, "Development", "NONE");
        set(&mut t, "WorkflowState", "AWAITING_USER_SIGNOFF");
        set(&mut t, "Kind", "FORWARD");
        set(&mut t, "From", "SYNCHRONIZING");
        t.remove(&plan_path());
        t.remove(&report_path());
        t.insert(
            ".standards/CONTEXT.md",
            "# Project Context\n\nA greeting command.\n",
        );
        let record = |artifact: &str, kind: &str, title: &str, extra: &str| {
            format!(
                "<!-- STANDARDS\nArtifact: {artifact}\nCycle: {ID}\n{kind}-->\n\n# {title}\n\n`Cycle`: `{ID}` `Status`: `COMPLETE` `User Style`: `NONE`{extra}\n\n## Acceptance Evidence\n\n- AC-001: explained.\n- AC-002: audience.\n"
            )
        };
        t.insert(
            &format!(".standards/docs/documentation/{ID}.md"),
            record("DOCUMENTATION", "", "Documentation Record", " `Collaboration`: `AUTONOMOUS` `Target`: `ACTIVE_CHANGE` `Target Detail`: `active cycle`"),
        );
        t.insert(
            &format!(".standards/docs/reviews/{ID}/final-deliverable.md"),
            record(
                "REVIEW",
                "ReviewKind: FINAL_DELIVERABLE\n",
                "Review Report",
                " `ReviewKind`: `FINAL_DELIVERABLE`",
            ),
        );
        t.insert(
            &format!(".standards/docs/synchronization/{ID}.md"),
            record("SYNCHRONIZATION", "", "Synchronization Record", ""),
        );
        t
    }

    #[test]
    fn sc_ac_023_to_027_documentation_cycles() {
        let t = f_doc_ready();
        assert!(ac(&t).is_empty(), "{:?}", problems(&t, Options::default()));
        // SC-AC-023
        let mut d = t.clone();
        edit(&mut d, &design_path(), |s| {
            s.replace(
                "- `AC-002`: No architectural impact; Documenter owns it.",
                "Other text.",
            )
        });
        assert_eq!(ac(&d), ["AC-009"]);
        // SC-AC-024, SC-AC-025
        let mut d = t.clone();
        add_current(&mut d, "- AC-001: again\n- AC-003: back");
        let fired = ac(&d);
        assert!(
            fired.contains(&"AC-001") && fired.contains(&"AC-002"),
            "{fired:?}"
        );
        // SC-AC-026
        let mut d = t.clone();
        edit(&mut d, &scope_path(), |s| {
            s.replace("AC-001", "ZZ-001").replace("AC-002", "ZZ-002")
        });
        assert!(ac(&d).contains(&"AC-004"));
        // SC-AC-027
        let mut d = t.clone();
        let doc = format!(".standards/docs/documentation/{ID}.md");
        edit(&mut d, &doc, |s| s + "AC-999: Undefined claim.\n");
        let cited = on(&d, "AC-008", Options::default());
        assert_eq!(cited.len(), 1);
        assert_eq!(cited[0].0, doc);
        // A documentation record's history section does not cover.
        let mut d = t.clone();
        edit(&mut d, &doc, |s| {
            s.replace(
                "- AC-002: audience.\n",
                "## Previous Cycles\n- AC-002: old.\n",
            )
        });
        assert_eq!(ac(&d), ["AC-010"]);
    }

    #[test]
    fn ac_004_documentation_cycle_resumed_from_scoping() {
        let mut t = f_doc_ready();
        edit(&mut t, &scope_path(), |s| s.replace("AC-00", "XX-00"));
        set(&mut t, "WorkflowState", "SCOPING");
        assert!(!ac(&t).contains(&"AC-004"));
        set(&mut t, "WorkflowState", "ARCHITECTING");
        set(&mut t, "Kind", "RESUME");
        set(&mut t, "From", "SCOPING");
        assert!(ac(&t).contains(&"AC-004"));
    }

    #[test]
    fn ac_011_partial_assessment_regardless_of_status() {
        let mut t = f_std();
        add_current(&mut t, "- `AC-004`: Results.");
        edit(&mut t, &design_path(), |s| {
            s + "- `AC-004`: Results component.\n"
        });
        edit(&mut t, &report_path(), |s| {
            s.replacen("`COMPLETE`", "`IN_PROGRESS`", 1)
                .replacen("`FULL`", "`INCREMENT`", 1)
        });
        set(&mut t, "WorkflowState", "TESTING");
        set(&mut t, "From", "DEVELOPING");
        let partial = on(&t, "AC-011", Options::default());
        assert_eq!(partial.len(), 1);
        assert!(partial[0].1.contains("AC-004"));
        // At turn end it is keyed on the state just left, and reported once,
        // as the stop hook's HK-007.
        assert!(on(
            &t,
            "AC-011",
            Options {
                at_turn_end: true,
                ..Default::default()
            }
        )
        .is_empty());
        assert!(on(
            &t,
            "HK-007",
            Options {
                at_turn_end: true,
                ..Default::default()
            }
        )
        .is_empty());
        set(&mut t, "Kind", "CHECKPOINT");
        set(&mut t, "From", "TESTING");
        set(&mut t, "WorkflowState", "DEVELOPING");
        // There the stop hook's HK-007 reports the gap, exactly once.
        let te = Options {
            at_turn_end: true,
            ..Default::default()
        };
        assert_eq!(on(&t, "HK-007", te).len(), 1);
        assert!(on(&t, "AC-011", te).is_empty());
        // When COMPLETE and held too, the partial wording wins.
        let mut c = f_std();
        add_current(&mut c, "- `AC-004`: Results.");
        edit(&mut c, &design_path(), |s| {
            s + "- `AC-004`: Results component.\n"
        });
        edit(&mut c, &report_path(), |s| {
            s.replacen("`FULL`", "`CORRECTION`", 1)
        });
        set(&mut c, "WorkflowState", "TESTING");
        assert_eq!(on(&c, "AC-011", Options::default()).len(), 1);
        assert!(on(&c, "AC-010", Options::default()).is_empty());
    }

    #[test]
    fn turn_end_does_not_hold_the_current_states_record() {
        let mut t = f_std();
        add_current(&mut t, "- `AC-005`: Paged.");
        edit(&mut t, &design_path(), |s| s + "- `AC-005`: Pager.\n");
        set(&mut t, "WorkflowState", "TESTING");
        assert_eq!(on(&t, "AC-010", Options::default()).len(), 1);
        assert!(on(
            &t,
            "AC-010",
            Options {
                at_turn_end: true,
                ..Default::default()
            }
        )
        .is_empty());
    }

    #[test]
    fn duplicate_own_records_are_still_checked() {
        let mut t = f_std();
        let copy =
            read(&t, &report_path()).replace("| AC-002 | pending Documenter | pending |\n", "");
        t.insert("archive/report.md", copy);
        let gaps = on(&t, "AC-010", Options::default());
        assert_eq!(gaps, [("archive/report.md".to_string(), gaps[0].1.clone())]);
    }

    #[test]
    fn odd_scopes_do_not_panic() {
        for body in [
            "",
            "## Previous Cycles",
            "## Previous Cycles\n- AC-001: x\n- AC-001: x",
            "- AC-: x\n- AC-1: y\n* AC-00000000000000000000000000000000000001: z",
            "```\n- AC-001: unclosed fence",
            "\u{feff}- AC-001 — é\r\n- AC-002 – ü\r\n",
        ] {
            let _ = problems(&scope_with(body), Options::default());
        }
    }
}
