//! DV: the development plan (DV-001..DV-024) and GT-005, the comparison of its
//! completed steps with the last commit.
//!
//! DV-001..DV-007 and GT-005 report on the plan's discovered path; DV-008..DV-024
//! belong to the verification workflow (VF-000) and report on `Active
//! Work.Development` as written, or the fixed plan path when it is `NONE`
//! (check-rules §6 note 10).

use std::collections::{HashMap, HashSet};

use crate::model::vocab::{CycleMode, IdPrefix};
use crate::records::plan::{
    identifier_list, is_positive_integer, steps, Cadence, Once, Plan, Step, PLAN_STATUSES,
    STEP_STATUSES,
};

use super::saved_assignments::{self as saved, Holder};
use super::verification::{Checkpoint, Workflow};
use super::{Cx, RuleInfo, Sink};

pub const RULES: &[RuleInfo] = &[
    RuleInfo::rule("DV-001", "Plan status value"),
    RuleInfo::rule("DV-002", "Plan complete after development"),
    RuleInfo::rule("DV-003", "Step status"),
    RuleInfo::rule("DV-004", "Self-dependency"),
    RuleInfo::rule("DV-005", "Unknown dependency"),
    RuleInfo::rule("DV-006", "Complete plan with unfinished step"),
    RuleInfo::rule("DV-007", "Dependency loop"),
    RuleInfo::rule("DV-008", "Verification Cadence"),
    RuleInfo::rule("DV-009", "Current Increment"),
    RuleInfo::rule("DV-010", "After-implementation has no current increment"),
    RuleInfo::rule("DV-011", "Increment numbering"),
    RuleInfo::rule("DV-012", "Increment Development Steps"),
    RuleInfo::rule("DV-013", "Increment Acceptance"),
    RuleInfo::rule("DV-014", "Ready outcome"),
    RuleInfo::rule("DV-015", "Increment step exists"),
    RuleInfo::rule("DV-016", "Increment defined once"),
    RuleInfo::rule("DV-017", "Current increment defined"),
    RuleInfo::rule("DV-018", "Complete plan has no current increment"),
    RuleInfo::rule("DV-019", "Developer suspended assignments"),
    RuleInfo::rule("DV-020", "Scoped recovery needs the Developer assignment"),
    RuleInfo::rule("DV-021", "Increment readiness"),
    RuleInfo::rule("DV-022", "Developer checkpoint schedule"),
    RuleInfo::rule("DV-023", "Checkpoint increment defined"),
    RuleInfo::rule("DV-024", "Expedited cadence"),
    RuleInfo::rule("GT-005", "Completed step removed"),
];

const DEVELOPER: &str = "the Developer fixes the development plan";

fn hint(what: impl std::fmt::Display) -> Option<String> {
    Some(format!("{DEVELOPER}: {what}"))
}

pub fn check(cx: &Cx, sink: &mut Sink) {
    let Some(wf) = Workflow::of(cx) else { return };
    let Some(doc) = cx.doc() else { return };
    let file = wf.plan_file.as_str();

    // The verification workflow's plan rules, in VF-000 order.
    if let Some(plan) = &wf.plan {
        plan_header(plan, file, sink);
        plan_increments(plan, file, sink);
        dv_017_018(plan, file, sink);
        dv_019(&wf, file, sink);
    }
    dv_020(&wf, file, sink);
    if wf.incremental_assignment {
        if let Some(n) = wf.current_increment() {
            dv_021(&wf, n, "the restored increment assignment", file, sink);
        }
    }
    dv_024(&wf, doc.cycle_mode.value, file, sink);
    if let Checkpoint::Valid {
        increment,
        into_testing,
    } = &wf.checkpoint
    {
        dv_023(&wf, increment, file, sink);
        if *into_testing {
            dv_022(&wf, increment, file, sink);
            dv_021(&wf, increment, "the checkpoint", file, sink);
        }
    }

    // The development plan itself (DV-001..DV-007, GT-005).
    if let (Some((path, _)), Some(plan)) = (cx.plan(), &wf.plan) {
        plan_status(cx, &wf, plan, path, sink);
        plan_steps(plan, path, sink);
        dv_007(plan, path, sink);
        gt_005(cx, plan, path, sink);
    }
}

/// DV-001 Plan status value; DV-002 Plan complete after development (only
/// when DV-001 did not fire).
fn plan_status(cx: &Cx, wf: &Workflow, plan: &Plan, path: &str, sink: &mut Sink) {
    let status = plan.status();
    let unfilled = status.is_some_and(|s| s.contains(" | "));
    if let Some(s) = status.filter(|s| !unfilled && !PLAN_STATUSES.contains(s)) {
        sink.push_hinted(
            "DV-001",
            path,
            format!(
                "the plan's `Status` `{s}` is not one of {}",
                PLAN_STATUSES.join(", ")
            ),
            hint("set the header `Status` to the plan's real state"),
        );
        return;
    }
    if cx.past_development() && !wf.partial_development && !unfilled && status != Some("COMPLETE") {
        sink.push_hinted(
            "DV-002",
            path,
            format!(
                "the cycle is past DEVELOPING, so the plan must be COMPLETE, but its `Status` is {}",
                status.map_or("missing".to_string(), |s| format!("`{s}`"))
            ),
            hint("finish the approved steps and mark the plan COMPLETE, or route the unfinished work back to DEVELOPING"),
        );
    }
}

/// DV-003..DV-006, per step in step order.
fn plan_steps(plan: &Plan, path: &str, sink: &mut Sink) {
    let ids: HashSet<&str> = plan.steps.iter().map(|s| s.id.as_str()).collect();
    let complete = plan.status() == Some("COMPLETE");
    for step in &plan.steps {
        let id = step.id.as_str();
        // DV-003 Step status.
        let status = step.status();
        if !status.is_some_and(|s| STEP_STATUSES.contains(&s)) {
            sink.push_hinted(
                "DV-003",
                path,
                match status {
                    Some(s) => format!(
                        "{id}: the step's `Status` `{s}` must be one of {}",
                        STEP_STATUSES.join(", ")
                    ),
                    None => format!(
                        "{id}: the step has no `Status` field (a status in prose or without backticks is not read as one); it must be one of {}",
                        STEP_STATUSES.join(", ")
                    ),
                },
                hint(format!(
                    "write the step's first `Status` field under its heading as `` `Status`: `PENDING` `` (or {}), values case-sensitive (Record Formats in `.standards/PROTOCOL.md`)",
                    STEP_STATUSES[1..].join(", ")
                )),
            );
        }
        for target in step.depends_on() {
            if target == id {
                // DV-004 Self-dependency.
                sink.push_hinted(
                    "DV-004",
                    path,
                    format!("{id} lists itself in `Depends On`"),
                    hint("remove the step from its own dependencies"),
                );
            } else if !ids.contains(target.as_str()) {
                // DV-005 Unknown dependency.
                sink.push_hinted(
                    "DV-005",
                    path,
                    format!("{id} depends on `{target}`, which is not a step of this plan"),
                    hint("depend only on `### DEV-NNN` steps of this plan, or `NONE`"),
                );
            }
        }
        // DV-006 Complete plan with unfinished step.
        if complete && status != Some("DONE") {
            sink.push_hinted(
                "DV-006",
                path,
                format!("the plan is COMPLETE, but {id} is not DONE"),
                hint("finish the step, or keep the plan IN_PROGRESS"),
            );
        }
    }
}

/// DV-007 Dependency loop: depth-first from each step in plan order, targets
/// in listed order; the first step met again on the current path closes the
/// reported chain, and the search stops (at most one problem).
fn dv_007(plan: &Plan, path: &str, sink: &mut Sink) {
    let ids: HashSet<&str> = plan.steps.iter().map(|s| s.id.as_str()).collect();
    let mut order: Vec<&str> = Vec::new();
    let mut edges: HashMap<&str, Vec<String>> = HashMap::new();
    for step in &plan.steps {
        if !edges.contains_key(step.id.as_str()) {
            order.push(&step.id);
        }
        // A repeated ID (RH-004) keeps its last definition's dependencies.
        let targets = step
            .depends_on()
            .into_iter()
            .filter(|t| *t != step.id && ids.contains(t.as_str()))
            .collect();
        edges.insert(&step.id, targets);
    }
    let mut done: HashSet<&str> = HashSet::new();
    for root in &order {
        if done.contains(root) {
            continue;
        }
        // An explicit stack, so deep chains cannot overflow the call stack.
        let mut trail: Vec<&str> = vec![root];
        let mut next: Vec<usize> = vec![0];
        while let Some(&node) = trail.last() {
            let i = next.last().copied().unwrap_or(0);
            let children = edges.get(node).map(Vec::as_slice).unwrap_or(&[]);
            match children.get(i) {
                Some(child) => {
                    if let Some(n) = next.last_mut() {
                        *n += 1;
                    }
                    let child = child.as_str();
                    if done.contains(child) {
                        continue;
                    }
                    if trail.contains(&child) {
                        let chain: Vec<&str> = trail.iter().copied().chain([child]).collect();
                        sink.push_hinted(
                            "DV-007",
                            path,
                            format!("steps depend on each other in a loop: {}", chain.join(" -> ")),
                            hint("break the loop so every step can be finished after the ones it depends on"),
                        );
                        return;
                    }
                    trail.push(child);
                    next.push(0);
                }
                None => {
                    done.insert(node);
                    trail.pop();
                    next.pop();
                }
            }
        }
    }
}

/// GT-005 Completed step removed: a step DONE in the last commit still exists.
fn gt_005(cx: &Cx, plan: &Plan, path: &str, sink: &mut Sink) {
    let Some(committed) = cx.committed_text(path) else {
        return;
    };
    let ids: HashSet<&str> = plan.steps.iter().map(|s| s.id.as_str()).collect();
    let mut reported: HashSet<String> = HashSet::new();
    for step in steps(&committed) {
        if step.status() == Some("DONE")
            && !ids.contains(step.id.as_str())
            && reported.insert(step.id.clone())
        {
            sink.push_hinted(
                "GT-005",
                path,
                format!("{} was DONE in the last commit but is no longer a step of the plan", step.id),
                hint(format!("restore {}: completed steps are never removed or renumbered; add new work as new steps", step.id)),
            );
        }
    }
}

/// DV-008 Verification Cadence; DV-009 Current Increment; DV-010
/// After-implementation has no current increment.
fn plan_header(plan: &Plan, file: &str, sink: &mut Sink) {
    let cadence = plan.cadence_field();
    let message = match (cadence.defect(), cadence.value()) {
        (Some(what), _) => Some(format!("the plan header's `Verification Cadence` {what}")),
        (None, Some(v)) if Cadence::parse(v).is_none() => Some(format!(
            "the plan header's `Verification Cadence` `{v}` is not {}",
            Cadence::NAMES.join(" or ")
        )),
        _ => None,
    };
    if let Some(message) = message {
        sink.push_hinted(
            "DV-008",
            file,
            message,
            hint("keep exactly one `Verification Cadence`: AFTER_IMPLEMENTATION (the default) or INCREMENTAL"),
        );
    }
    let current = plan.current_field();
    let message = match (current.defect(), current.value()) {
        (Some(what), _) => Some(format!("the plan header's `Current Increment` {what}")),
        (None, Some(v)) if v != "NONE" && !is_positive_integer(v) => Some(format!(
            "the plan header's `Current Increment` `{v}` is neither `NONE` nor an increment number"
        )),
        _ => None,
    };
    if let Some(message) = message {
        sink.push_hinted(
            "DV-009",
            file,
            message,
            hint(
                "keep exactly one `Current Increment`: `NONE` or the number of a defined increment",
            ),
        );
    }
    if plan.cadence() == Some(Cadence::AfterImplementation) {
        if let Some(v) = plan.current().filter(|v| *v != "NONE") {
            sink.push_hinted(
                "DV-010",
                file,
                format!("the cadence is AFTER_IMPLEMENTATION, so `Current Increment` must be `NONE`, not `{v}`"),
                hint("set `Current Increment` to `NONE`, or switch the cadence through the user's decision"),
            );
        }
    }
}

/// DV-011..DV-016, per `### Increment` entry, each message prefixed with its label.
fn plan_increments(plan: &Plan, file: &str, sink: &mut Sink) {
    let mut seen: HashSet<&str> = HashSet::new();
    for (k, inc) in plan.increments.iter().enumerate() {
        let label = inc.label.as_str();
        // DV-011 Increment numbering: the k-th entry is `Increment k`.
        let expected = (k + 1).to_string();
        if label != expected {
            sink.push_hinted(
                "DV-011",
                file,
                format!("Increment {label}: entry {expected} of Verification Increments must be headed `### Increment {expected}`"),
                hint("number increments 1, 2, 3, ... in order; append new ones and never renumber assessed ones"),
            );
        }
        // DV-012 Development Steps; DV-013 Acceptance.
        let dev = id_list_field(
            "DV-012",
            label,
            "Development Steps",
            inc.development_steps(),
            IdPrefix::Dev,
            file,
            sink,
        );
        id_list_field(
            "DV-013",
            label,
            "Acceptance",
            inc.acceptance(),
            IdPrefix::Ac,
            file,
            sink,
        );
        // DV-014 Ready outcome.
        if inc.ready_outcome.as_deref().is_none_or(str::is_empty) {
            sink.push_hinted(
                "DV-014",
                file,
                format!("Increment {label}: no text follows a `**Ready Outcome**` line"),
                hint("describe, after a `**Ready Outcome**` line, the concrete outcome the Tester can assess"),
            );
        }
        // DV-015 Increment step exists.
        for id in &dev {
            if plan.step(id).is_none() {
                sink.push_hinted(
                    "DV-015",
                    file,
                    format!("Increment {label}: {id} is not a step of this plan"),
                    hint("list only `### DEV-NNN` steps of this plan"),
                );
            }
        }
        // DV-016 Increment defined once.
        if !seen.insert(label) {
            sink.push_hinted(
                "DV-016",
                file,
                format!("Increment {label}: an earlier entry already defines this increment"),
                hint("keep one entry per increment number; append a new number for new work"),
            );
        }
    }
}

/// DV-012/DV-013 for one field: present once and nonempty, a comma-separated
/// list of exact identifiers, none repeated. A missing or repeated field gives
/// both problems (check-rules §6 note 11). Returns the list when well formed.
fn id_list_field(
    rule: &'static str,
    label: &str,
    name: &str,
    field: Once<'_>,
    prefix: IdPrefix,
    file: &str,
    sink: &mut Sink,
) -> Vec<String> {
    let kind = prefix.as_str();
    let fix = hint(format!(
        "write exactly one `{name}` listing {kind}-NNN identifiers separated by commas"
    ));
    if let Some(what) = field.defect() {
        sink.push_hinted(
            rule,
            file,
            format!("Increment {label}: `{name}` {what}"),
            fix.clone(),
        );
    }
    let list = field.value().and_then(|v| identifier_list(v, prefix));
    let Some(list) = list else {
        sink.push_hinted(
            rule,
            file,
            format!("Increment {label}: `{name}` must list one or more {kind}-NNN identifiers separated by commas"),
            fix,
        );
        return Vec::new();
    };
    let mut seen = HashSet::new();
    if let Some(repeated) = list.iter().find(|id| !seen.insert(id.as_str())) {
        sink.push_hinted(
            rule,
            file,
            format!("Increment {label}: `{name}` lists {repeated} more than once"),
            fix,
        );
    }
    list
}

/// DV-017 Current increment defined; DV-018 Complete plan has no current increment.
fn dv_017_018(plan: &Plan, file: &str, sink: &mut Sink) {
    let Some(current) = plan.current().filter(|c| *c != "NONE") else {
        return;
    };
    if !plan.defines_increment(current) {
        sink.push_hinted(
            "DV-017",
            file,
            format!("`Current Increment` {current} has no `### Increment {current}` entry in Verification Increments"),
            hint("define the increment before selecting it, or select a defined one"),
        );
    }
    if plan.status() == Some("COMPLETE") {
        sink.push_hinted(
            "DV-018",
            file,
            format!("the plan is COMPLETE, so `Current Increment` must be `NONE`, not `{current}`"),
            hint("at full completion set `Current Increment` to `NONE` (PROTOCOL.md, Full Verification Boundary)"),
        );
    }
}

/// DV-019 Developer suspended assignments: every entry of "Plan Notes" is well formed.
fn dv_019(wf: &Workflow, file: &str, sink: &mut Sink) {
    for message in saved::defects(&wf.developer, Holder::Developer) {
        sink.push_hinted(
            "DV-019",
            file,
            format!("Plan Notes, {message}"),
            hint("each `### Suspended Assignment N` needs one concrete `Recovery Frame`, `Recovery Reason`, `Purpose` (DEVELOPMENT, INCREMENT, CORRECTION), `Target`, `Assessed Inputs` and `Next Action`; append new entries rather than renumbering"),
        );
    }
}

/// DV-020 Scoped recovery needs the Developer assignment: during scoped
/// recovery every frame interrupted in DEVELOPING has its saved assignment.
fn dv_020(wf: &Workflow, file: &str, sink: &mut Sink) {
    if !wf.scoped {
        return;
    }
    for m in &wf.frames {
        if m.holder == Some(Holder::Developer) && m.assignment.is_none() {
            sink.push_hinted(
                "DV-020",
                file,
                format!("recovery frame {} interrupted the Developer, but Plan Notes has no `### Suspended Assignment` whose `Recovery Frame` is `{}` with the frame's exact `Reason` as `Recovery Reason`", m.label, m.label),
                hint("save the interrupted assignment (purpose, target, assessed inputs, next action) against this frame; PROTOCOL.md, Implementation and Verification Recovery Gates"),
            );
        }
    }
}

/// DV-021 Increment readiness: increment `n` is defined; the plan is approved
/// and its style locked; every listed step and, transitively, each of its
/// dependencies is DONE with saved Self-Check evidence.
fn dv_021(wf: &Workflow, n: &str, assignment: &str, file: &str, sink: &mut Sink) {
    let Some(inc) = wf.plan.as_ref().and_then(|p| p.increment(n)) else {
        sink.push_hinted(
            "DV-021",
            file,
            match &wf.plan {
                Some(_) => format!("{assignment} needs `Increment {n}`, but the plan does not define it"),
                None => format!("{assignment} needs `Increment {n}`, but this cycle has no development plan"),
            },
            hint(format!("define `### Increment {n}` with its steps, acceptance and ready outcome before assigning it")),
        );
        return;
    };
    let Some(plan) = &wf.plan else { return };
    let approved = plan
        .status()
        .is_some_and(|s| matches!(s, "APPROVED" | "IN_PROGRESS" | "COMPLETE"));
    if !approved || plan.user_style_locked() != Some("true") {
        sink.push_hinted(
            "DV-021",
            file,
            format!(
                "{assignment} needs an approved plan (Status APPROVED, IN_PROGRESS or COMPLETE with `User Style Locked` `true`), but its Status is `{}` and `User Style Locked` is `{}`",
                plan.status().unwrap_or("missing"),
                plan.user_style_locked().unwrap_or("missing")
            ),
            hint("get the user's approval of the plan before handing an increment to the Tester"),
        );
    }
    let mut visited: HashSet<String> = HashSet::new();
    let mut stack: Vec<String> = inc.step_ids().into_iter().rev().collect();
    while let Some(id) = stack.pop() {
        if !visited.insert(id.clone()) {
            continue;
        }
        // Unknown steps are DV-015's or DV-005's to report.
        let Some(step) = plan.step(&id) else { continue };
        step_ready(step, n, assignment, file, sink);
        stack.extend(step.depends_on().into_iter().rev());
    }
}

fn step_ready(step: &Step, n: &str, assignment: &str, file: &str, sink: &mut Sink) {
    let id = step.id.as_str();
    if step.status() != Some("DONE") {
        sink.push_hinted(
            "DV-021",
            file,
            format!("{assignment} of `Increment {n}` needs {id} (listed or depended on) to be DONE; it is `{}`", step.status().unwrap_or("without Status")),
            hint("finish the step and its dependencies before the checkpoint"),
        );
    }
    if step.self_check().is_none() {
        sink.push_hinted(
            "DV-021",
            file,
            format!("{assignment} of `Increment {n}` needs saved Self-Check evidence for {id}: text after a `**Self-Check**` line"),
            hint("record under the step's `**Self-Check**` line the checks run and their results"),
        );
    }
}

/// DV-022 Developer checkpoint schedule: the plan is INCREMENTAL and its
/// `Current Increment` is the checkpoint increment (reported without a plan too).
fn dv_022(wf: &Workflow, n: &str, file: &str, sink: &mut Sink) {
    let message = match &wf.plan {
        None => Some(format!("the checkpoint hands `Increment {n}` to the Tester, but this cycle has no development plan")),
        Some(p) if p.cadence() != Some(Cadence::Incremental) || p.current() != Some(n) => Some(format!(
            "the checkpoint hands `Increment {n}` to the Tester, so the plan needs `Verification Cadence` INCREMENTAL and `Current Increment` {n}; it has `{}` and `{}`",
            p.cadence_field().value().unwrap_or("-"),
            p.current().unwrap_or("-")
        )),
        Some(_) => None,
    };
    if let Some(message) = message {
        sink.push_hinted(
            "DV-022",
            file,
            message,
            hint("select the increment in the plan before the checkpoint, or correct the handoff"),
        );
    }
}

/// DV-023 Checkpoint increment defined (either direction).
fn dv_023(wf: &Workflow, n: &str, file: &str, sink: &mut Sink) {
    if wf.plan.as_ref().is_some_and(|p| p.defines_increment(n)) {
        return;
    }
    sink.push_hinted(
        "DV-023",
        file,
        match &wf.plan {
            Some(_) => format!("the checkpoint names `Increment {n}`, which the plan's Verification Increments do not define"),
            None => format!("the checkpoint names `Increment {n}`, but this cycle has no development plan"),
        },
        hint("every checkpoint exchanges a defined increment; define it or correct the handoff's Reason"),
    );
}

/// DV-024 Expedited cadence: an EXPEDITED plan is AFTER_IMPLEMENTATION.
fn dv_024(wf: &Workflow, mode: CycleMode, file: &str, sink: &mut Sink) {
    let Some(plan) = &wf.plan else { return };
    if mode == CycleMode::Expedited && plan.cadence() != Some(Cadence::AfterImplementation) {
        sink.push_hinted(
            "DV-024",
            file,
            format!(
                "an EXPEDITED cycle supports only AFTER_IMPLEMENTATION, but the plan's `Verification Cadence` is {}",
                plan.cadence_field().value().map_or("not set once".to_string(), |v| format!("`{v}`"))
            ),
            hint("set `Verification Cadence` to AFTER_IMPLEMENTATION; incremental verification needs the cycle promoted to STANDARD by the user"),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::verification::tests::{f_inc, plan_path, rules, PLAN, REPORT, STATE};
    use super::super::{run, Options};
    use crate::model::tree::MemTree;

    fn plan_rules(plan: &str) -> Vec<&'static str> {
        rules(&f_inc(STATE, plan, REPORT))
    }

    #[test]
    fn step_rules() {
        let bad = PLAN
            .replace(
                "`Status`: `PENDING` `Depends On`: `DEV-001`",
                "`Depends On`: `DEV-002, DEV-007, DEV-001`",
            )
            .replace(
                "`Status`: `IN_PROGRESS` `Verification",
                "`Status`: `COMPLETE` `Verification",
            )
            .replace("`Current Increment`: `1`", "`Current Increment`: `NONE`");
        let r = plan_rules(&bad);
        for rule in ["DV-003", "DV-004", "DV-005", "DV-006"] {
            assert!(r.contains(&rule), "{rule}: {r:?}");
        }
        assert!(!r.contains(&"DV-007"), "a self-dependency is not a loop");
    }

    #[test]
    fn dependency_loop_is_reported_once_with_its_chain() {
        let text = PLAN
            .replace("`Depends On`: `NONE`", "`Depends On`: `DEV-002`")
            .replace(
                "`Status`: `PENDING` `Depends On`: `DEV-001`",
                "`Status`: `PENDING` `Depends On`: `DEV-003`\n\n### DEV-003 — x\n`Status`: `PENDING` `Depends On`: `DEV-002`",
            );
        let t = f_inc(STATE, &text, REPORT);
        let loops: Vec<_> = run(&t, None, Options::default())
            .problems
            .into_iter()
            .filter(|p| p.rule == "DV-007")
            .collect();
        assert_eq!(loops.len(), 1);
        assert!(
            loops[0]
                .message
                .ends_with("DEV-001 -> DEV-002 -> DEV-003 -> DEV-002"),
            "{}",
            loops[0].message
        );
    }

    #[test]
    fn long_dependency_chains_do_not_overflow() {
        let mut text = PLAN.replace("## Verification Increments", "");
        for i in 3..4000 {
            text.push_str(&format!(
                "\n### DEV-{i:03}\n`Status`: `DONE` `Depends On`: `DEV-{:03}`\n",
                i - 1
            ));
        }
        // The loop closes at the far end.
        text = text.replace("`Depends On`: `NONE`", "`Depends On`: `DEV-3999`");
        assert!(plan_rules(&text).contains(&"DV-007"));
    }

    #[test]
    fn plan_status_rules() {
        let testing_full = STATE.replace("`Kind`: `CHECKPOINT`", "`Kind`: `FORWARD`");
        let full = REPORT.replace(
            "`INCREMENT` `Assessment Target`: `Increment 1`",
            "`FULL` `Assessment Target`: `NONE`",
        );
        // Past DEVELOPING outside partial development the plan must be COMPLETE.
        assert!(rules(&f_inc(&testing_full, PLAN, &full)).contains(&"DV-002"));
        // DV-002 only when DV-001 did not fire, and never for a placeholder.
        let odd = PLAN.replace(
            "`Status`: `IN_PROGRESS` `Verification",
            "`Status`: `DRAFT` `Verification",
        );
        let r = rules(&f_inc(&testing_full, &odd, &full));
        assert!(r.contains(&"DV-001") && !r.contains(&"DV-002"), "{r:?}");
        let unfilled = PLAN.replace(
            "`Status`: `IN_PROGRESS` `Verification",
            "`Status`: `PROPOSED | APPROVED` `Verification",
        );
        let r = rules(&f_inc(&testing_full, &unfilled, &full));
        assert!(!r.contains(&"DV-001") && !r.contains(&"DV-002"), "{r:?}");
        // The checkpoint itself is partial development.
        assert!(!plan_rules(PLAN).contains(&"DV-002"));
    }

    #[test]
    fn header_and_increment_rules() {
        for (from, to, rule) in [
            ("`INCREMENTAL` `Current", "`` `Current", "DV-008"),
            (
                "`Current Increment`: `1`",
                "`Current Increment`: `01`",
                "DV-009",
            ),
            ("### Increment 2", "### Increment 2a", "DV-011"),
            (
                "`Development Steps`: `DEV-001` `Acceptance`: `AC-001`",
                "`Development Steps`: `DEV-001, DEV-001` `Acceptance`: `AC-001`",
                "DV-012",
            ),
            (
                "`Development Steps`: `DEV-002` `Acceptance`: `AC-004`",
                "`Development Steps`: `DEV-002`",
                "DV-013",
            ),
            (
                "The search box shows the endpoint's results.\n",
                "",
                "DV-014",
            ),
            (
                "`Development Steps`: `DEV-002`",
                "`Development Steps`: `DEV-020`",
                "DV-015",
            ),
        ] {
            assert!(PLAN.contains(from), "{from}");
            let r = plan_rules(&PLAN.replace(from, to));
            assert!(r.contains(&rule), "{rule}: {r:?}");
        }
    }

    #[test]
    fn readiness_walks_dependencies_once() {
        // DEV-001 depends on DEV-002, which is PENDING and has no Self-Check.
        let text = PLAN.replace("`Depends On`: `NONE`", "`Depends On`: `DEV-002, DEV-002`");
        let t = f_inc(STATE, &text, REPORT);
        let ready: Vec<_> = run(&t, None, Options::default())
            .problems
            .into_iter()
            .filter(|p| p.rule == "DV-021")
            .map(|p| p.message)
            .collect();
        assert_eq!(ready.len(), 2, "{ready:?}");
        assert!(ready.iter().all(|m| m.contains("DEV-002")));
    }

    #[test]
    fn checkpoint_without_a_plan() {
        let mut t: MemTree = f_inc(STATE, PLAN, REPORT);
        t.remove(&plan_path());
        let state = STATE.replace(
            &format!("`Development`: `{}`", plan_path()),
            "`Development`: `NONE`",
        );
        t.insert(crate::model::layout::STATE_PATH, state);
        let r = rules(&t);
        for rule in ["DV-021", "DV-022", "DV-023"] {
            assert!(r.contains(&rule), "{rule}: {r:?}");
        }
        // VF-005 and VF-008: the report's increment cannot be found without a plan.
        assert!(r.contains(&"VF-005") && r.contains(&"VF-008"), "{r:?}");
    }

    #[test]
    fn completed_steps_must_survive() {
        let head = f_inc(STATE, PLAN, REPORT);
        let renamed = PLAN
            .replace("### DEV-001 —", "### DEV-005 —")
            .replace("`Depends On`: `DEV-001`", "`Depends On`: `DEV-005`");
        let tree = f_inc(STATE, &renamed, REPORT);
        let r = run(&tree, Some(&head), Options::default()).rules();
        assert!(r.contains(&"GT-005"), "{r:?}");
        // A PENDING step may go; only DONE steps are kept forever.
        let dropped = PLAN
            .replace("### DEV-002 — Search box", "### Removed")
            .replace(
                "`Development Steps`: `DEV-002`",
                "`Development Steps`: `DEV-001`",
            );
        let r = run(
            &f_inc(STATE, &dropped, REPORT),
            Some(&head),
            Options::default(),
        )
        .rules();
        assert!(!r.contains(&"GT-005"), "{r:?}");
    }
}
