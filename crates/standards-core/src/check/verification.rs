//! VF: the verification report and the verification workflow (VF-000..VF-020),
//! with the rules the catalogue evaluates inside that workflow: TR-027 and
//! TR-028 (checkpoint handoffs) and ST-033 (expedited cadence requests).
//!
//! [`Workflow`] is VF-000: the own plan and report read once, the saved
//! assignments matched to recovery frames, and the flags (scoped, resuming,
//! sameStateCorrection, incrementalAssignment, checkpoint increment,
//! partialDevelopment) that the VF and DV rules share.

use crate::model::layout::{self, STATE_PATH};
use crate::model::state::StateDoc;
use crate::model::vocab::{ArtifactType, CycleMode, HandoffKind, PendingCadence, WorkflowState};
use crate::records::plan::{increment_mentions, increment_target, Cadence, Plan};
use crate::records::verification::{contains_word, Disposition, Purpose, Report};

use super::saved_assignments::{self as saved, Assignment, Holder};
use super::{Cx, RuleInfo, Sink};

pub const RULES: &[RuleInfo] = &[
    RuleInfo::precondition("VF-000", "Verification workflow definitions and order"),
    RuleInfo::rule("VF-001", "Assessment Purpose"),
    RuleInfo::rule("VF-002", "Assessment Target"),
    RuleInfo::rule("VF-003", "Full target"),
    RuleInfo::rule("VF-004", "Correction target"),
    RuleInfo::rule("VF-005", "Increment target"),
    RuleInfo::rule("VF-006", "Complete means full"),
    RuleInfo::rule("VF-007", "Assessment row shape"),
    RuleInfo::rule("VF-008", "Assessed increment defined"),
    RuleInfo::rule("VF-009", "Assessment evidence"),
    RuleInfo::rule("VF-010", "Tester suspended assignments"),
    RuleInfo::rule("VF-011", "Scoped recovery needs the Tester assignment"),
    RuleInfo::rule("VF-012", "Restore the increment assessment"),
    RuleInfo::rule("VF-013", "Developer checkpoint assessment"),
    RuleInfo::rule("VF-014", "Tester checkpoint assessment"),
    RuleInfo::rule("VF-015", "Tester checkpoint execution evidence"),
    RuleInfo::rule("VF-016", "Reviewer entry needs full verification"),
    RuleInfo::rule(
        "VF-017",
        "No awaiting-implementation work in a complete report",
    ),
    RuleInfo::rule("VF-018", "Complete report needs a complete plan"),
    RuleInfo::rule("VF-019", "Full verification purpose"),
    RuleInfo::rule("VF-020", "Scoped Tester correction purpose"),
    RuleInfo::rule("TR-027", "Checkpoint preconditions"),
    RuleInfo::rule("TR-028", "Checkpoint names one increment"),
    RuleInfo::rule("ST-033", "Expedited cannot hold an INCREMENTAL request"),
];

/// What the handoff says about a checkpoint (TR-027, TR-028).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Checkpoint {
    /// `Handoff.Kind` is not `CHECKPOINT`.
    NotCheckpoint,
    /// TR-027: the exchange is not allowed; the reasons why.
    Disallowed(Vec<String>),
    /// TR-028: `Reason` names these increments (none, or several) instead of exactly one.
    Unclear(Vec<String>),
    /// A valid checkpoint: the increment, and whether it hands off to TESTING
    /// (the Developer's checkpoint) or to DEVELOPING (the Tester's).
    Valid {
        increment: String,
        into_testing: bool,
    },
}

/// A recovery frame and its saved assignment (VF-000).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrameMatch {
    pub label: String,
    /// Whose record holds the frame's assignment: from `DEVELOPING` the
    /// Developer's, from `TESTING` the Tester's; other states keep none.
    pub holder: Option<Holder>,
    /// The latest entry for the frame, kept only when its reason matches.
    pub assignment: Option<Assignment>,
}

/// VF-000: everything the verification workflow reads, computed once by
/// [`Workflow::of`] (a pure function of the check context) at the start of
/// each family's `check`, so every VF and DV rule reads the same flags.
#[derive(Debug, Clone)]
pub struct Workflow {
    /// Where DV-008..DV-024 report: `Active Work.Development` as written, or
    /// the fixed plan path when it is `NONE` (check-rules §6 note 10).
    pub plan_file: String,
    /// Where VF rules report: the fixed verification path.
    pub report_file: String,
    /// The own plan (DV scope).
    pub plan: Option<Plan>,
    /// The own report at the fixed verification path.
    pub report: Option<Report>,
    /// The Developer's saved assignments (the plan's "Plan Notes").
    pub developer: Vec<Assignment>,
    /// The Tester's saved assignments (the report's "Resume or Handoff").
    pub tester: Vec<Assignment>,
    /// Every recovery frame, in stack order, with its match.
    pub frames: Vec<FrameMatch>,
    pub scoped: bool,
    pub resuming: bool,
    pub same_state_correction: bool,
    pub incremental_assignment: bool,
    pub checkpoint: Checkpoint,
    pub partial_development: bool,
    pub full_boundary: bool,
}

impl Workflow {
    /// VF-000 for the active cycle; `None` without one.
    pub fn of(cx: &Cx) -> Option<Workflow> {
        let doc = cx.doc()?;
        let id = doc.active_cycle_id()?;
        let development = doc.active_work.development.value.as_str();
        let plan_file = if development == "NONE" {
            layout::record_path(ArtifactType::Development, None, id)
        } else {
            development.to_string()
        };
        let report_file = layout::record_path(ArtifactType::Verification, None, id);
        let plan_text = cx.plan().map(|(_, t)| t);
        let report_text = cx
            .fixed_record(ArtifactType::Verification, None)
            .map(|r| r.text.as_str());
        let plan = plan_text.map(Plan::parse);
        let report = report_text.map(Report::parse);
        let developer = plan_text
            .map(|t| saved::entries(t, Holder::Developer))
            .unwrap_or_default();
        let tester = report_text
            .map(|t| saved::entries(t, Holder::Tester))
            .unwrap_or_default();

        let frames: Vec<FrameMatch> = doc
            .recovery
            .entries
            .iter()
            .map(|frame| {
                let holder = match frame.get("From") {
                    Some("DEVELOPING") => Some(Holder::Developer),
                    Some("TESTING") => Some(Holder::Tester),
                    _ => None,
                };
                let list = match holder {
                    Some(Holder::Developer) => developer.as_slice(),
                    Some(Holder::Tester) => tester.as_slice(),
                    None => &[],
                };
                FrameMatch {
                    label: frame.label.clone(),
                    holder,
                    assignment: saved::saved_for(list, &frame.label, frame.get("Reason")).cloned(),
                }
            })
            .collect();

        let recovering = cx.recovering();
        let ws = doc.workflow_state.value;
        let kind = doc.handoff.kind();
        let cadence = plan.as_ref().and_then(Plan::cadence);
        let current = plan.as_ref().and_then(Plan::current);

        let scoped = recovering
            && frames.iter().any(|m| {
                m.assignment.as_ref().is_some_and(|a| {
                    m.holder == Some(Holder::Developer)
                        || m.holder
                            .and_then(|h| a.purpose(h))
                            .is_some_and(|p| p == "INCREMENT" || p == "CORRECTION")
                })
            });
        // "Targets the plan's Current Increment" needs an actual increment on
        // both sides: a missing `Current Increment` and a target that is not
        // `Increment N` never match each other (the reference compares two
        // nulls as equal there; the catalogue's wording does not).
        let resumed = saved::latest(&tester, "1");
        let resuming = !recovering
            && ws == WorkflowState::Testing
            && kind == Some(HandoffKind::Resume)
            && cadence == Some(Cadence::Incremental)
            && resumed.is_some_and(|a| {
                a.purpose(Holder::Tester) == Some("INCREMENT")
                    && current.is_some()
                    && a.target().and_then(increment_target) == current
            });
        let same_state_correction = ws == WorkflowState::Testing
            && doc.handoff.from.value == "TESTING"
            && matches!(kind, Some(HandoffKind::Failure | HandoffKind::UserRework))
            && doc.handoff.failure_type.value == "VERIFICATION"
            && cadence == Some(Cadence::Incremental)
            && current.is_some_and(|n| report.as_ref().is_some_and(|r| r.assesses_increment(n)));
        let incremental_assignment = resuming || same_state_correction;
        let checkpoint = checkpoint_of(doc, recovering);
        let full_boundary = cx.full_boundary();
        let partial_development = !full_boundary
            && (scoped
                || incremental_assignment
                || matches!(
                    checkpoint,
                    Checkpoint::Valid {
                        into_testing: true,
                        ..
                    }
                ));
        Some(Workflow {
            plan_file,
            report_file,
            plan,
            report,
            developer,
            tester,
            frames,
            scoped,
            resuming,
            same_state_correction,
            incremental_assignment,
            checkpoint,
            partial_development,
            full_boundary,
        })
    }

    /// The checkpoint increment, when the handoff is a valid checkpoint.
    pub fn checkpoint_increment(&self) -> Option<&str> {
        match &self.checkpoint {
            Checkpoint::Valid { increment, .. } => Some(increment),
            _ => None,
        }
    }

    /// The increment the plan's `Current Increment` names, when there is a plan.
    pub fn current_increment(&self) -> Option<&str> {
        self.plan.as_ref().and_then(Plan::current)
    }
}

/// TR-027 then TR-028 on the handoff.
fn checkpoint_of(doc: &StateDoc, recovering: bool) -> Checkpoint {
    if doc.handoff.kind() != Some(HandoffKind::Checkpoint) {
        return Checkpoint::NotCheckpoint;
    }
    let ws = doc.workflow_state.value;
    let from = doc.handoff.from.value.as_str();
    let mut why = Vec::new();
    if doc.cycle_mode.value != CycleMode::Standard {
        why.push(format!(
            "the cycle is {}, and checkpoints exist only in STANDARD cycles",
            doc.cycle_mode.value
        ));
    }
    if recovering {
        why.push("recovery is active, and recovery returns use FAILURE, FORWARD or RESUME".into());
    }
    let route_ok = matches!(
        (from, ws),
        ("DEVELOPING", WorkflowState::Testing) | ("TESTING", WorkflowState::Developing)
    );
    if !route_ok {
        why.push(format!(
            "{from} -> {ws} is not one of the two exchanges a checkpoint allows (DEVELOPING -> TESTING, TESTING -> DEVELOPING)"
        ));
    }
    let failure_type = doc.handoff.failure_type.value.as_str();
    if failure_type != "NONE" {
        why.push(format!(
            "`FailureType` is `{failure_type}`, but a checkpoint records `NONE`"
        ));
    }
    if !why.is_empty() {
        return Checkpoint::Disallowed(why);
    }
    // Catalogue vs protocol: TR-028 (and check-rules §6 note 12) count two
    // mentions of the same number as two increments. The protocol only asks
    // that the Reason "identify the increment" (PROTOCOL.md, Checkpoint
    // Handoffs), and repeating one number still identifies exactly one, so
    // distinct increments are counted here, as the protocol reads.
    let mut named: Vec<String> = Vec::new();
    for n in increment_mentions(&doc.handoff.reason.value) {
        if !named.iter().any(|m| m == n) {
            named.push(n.to_string());
        }
    }
    match named.as_slice() {
        [n] => Checkpoint::Valid {
            increment: n.clone(),
            into_testing: ws == WorkflowState::Testing,
        },
        _ => Checkpoint::Unclear(named),
    }
}

const TESTER: &str = "the Tester fixes the verification report";

fn tester_hint(what: impl std::fmt::Display) -> Option<String> {
    Some(format!("{TESTER}: {what}"))
}

pub fn check(cx: &Cx, sink: &mut Sink) {
    let Some(wf) = Workflow::of(cx) else { return };
    let Some(doc) = cx.doc() else { return };
    let file = wf.report_file.as_str();
    let turn_end = cx.options.at_turn_end;
    let ws = doc.workflow_state.value;

    if let Some(report) = &wf.report {
        report_header(&wf, report, file, sink);
        assessment_rows(&wf, report, file, sink);
    }
    vf_010(&wf, file, sink);
    vf_011(&wf, file, sink);
    if wf.incremental_assignment && !turn_end {
        vf_012(&wf, file, sink);
    }
    st_033(doc, sink);
    match &wf.checkpoint {
        Checkpoint::NotCheckpoint => {}
        Checkpoint::Disallowed(why) => tr_027(doc, why, sink),
        Checkpoint::Unclear(named) => tr_028(doc, named, sink),
        Checkpoint::Valid {
            increment,
            into_testing: true,
        } => {
            if !turn_end {
                vf_013(&wf, increment, file, sink);
            }
        }
        Checkpoint::Valid {
            increment,
            into_testing: false,
        } => {
            vf_014(&wf, increment, file, sink);
            vf_015(&wf, file, sink);
        }
    }
    if wf.full_boundary {
        vf_016(&wf, doc, file, sink);
    }
    vf_017(&wf, file, sink);
    if !turn_end && ws == WorkflowState::Testing {
        vf_018(&wf, cx, file, sink);
        vf_019(&wf, file, sink);
        vf_020(&wf, doc, file, sink);
    }
}

/// VF-001..VF-006: what the report header says is assessed.
fn report_header(wf: &Workflow, report: &Report, file: &str, sink: &mut Sink) {
    let purpose = report.purpose();
    let target = report.target();
    // VF-001 Assessment Purpose: exactly once, nonempty, one of the three.
    let field = report.purpose_field();
    let defect = match (field.defect(), field.value()) {
        (Some(what), _) => Some(format!("the header's `Assessment Purpose` {what}")),
        (None, Some(v)) if purpose.is_none() => Some(format!(
            "the header's `Assessment Purpose` `{v}` is not one of {}",
            Purpose::NAMES.join(", ")
        )),
        _ => None,
    };
    if let Some(message) = defect {
        sink.push_hinted(
            "VF-001",
            file,
            message,
            tester_hint("record exactly one purpose: FULL for full verification, INCREMENT for an increment checkpoint, CORRECTION for a scoped correction"),
        );
    }
    // VF-002 Assessment Target: exactly once, nonempty.
    if let Some(what) = report.target_field().defect() {
        sink.push_hinted(
            "VF-002",
            file,
            format!("the header's `Assessment Target` {what}"),
            tester_hint("record exactly one target: `NONE` with FULL, `Increment N` with INCREMENT, the specific correction with CORRECTION"),
        );
    }
    // VF-003 Full target: FULL assesses everything, so the target is NONE.
    if let (Some(Purpose::Full), Some(t)) = (purpose, target) {
        if t != "NONE" {
            sink.push_hinted(
                "VF-003",
                file,
                format!("a FULL assessment has `Assessment Target` `NONE`, not `{t}`"),
                tester_hint(
                    "set the target to `NONE`, or record the purpose that matches the target",
                ),
            );
        }
    }
    // VF-004 Correction target: a correction names what it corrects.
    if purpose == Some(Purpose::Correction) && target == Some("NONE") {
        sink.push_hinted(
            "VF-004",
            file,
            "a CORRECTION assessment must name the specific correction in `Assessment Target`, not `NONE`",
            tester_hint("name the correction being assessed, as the recovery frame describes it"),
        );
    }
    // VF-005 Increment target: `Increment N` of a defined increment.
    if purpose == Some(Purpose::Increment) {
        match report.target_increment() {
            None => {
                sink.push_hinted(
                    "VF-005",
                    file,
                    format!(
                        "an INCREMENT assessment needs `Assessment Target` `Increment N`; found `{}`",
                        target.unwrap_or("nothing")
                    ),
                    tester_hint("write the target exactly as `Increment N` with the increment's number"),
                );
            }
            Some(n) if !wf.plan.as_ref().is_some_and(|p| p.defines_increment(n)) => {
                sink.push_hinted(
                    "VF-005",
                    file,
                    match &wf.plan {
                        Some(_) => format!("the assessed `Increment {n}` is not defined in the development plan's Verification Increments"),
                        None => format!("the assessed `Increment {n}` cannot be found: this cycle has no development plan"),
                    },
                    tester_hint("assess an increment the Developer defined; only the Developer adds increments to the plan"),
                );
            }
            Some(_) => {}
        }
    }
    // VF-006 Complete means full: only a FULL assessment can be COMPLETE.
    if let Some(p) = purpose.filter(|p| *p != Purpose::Full) {
        if report.status() == Some("COMPLETE") {
            sink.push_hinted(
                "VF-006",
                file,
                format!("the report is COMPLETE, but its `Assessment Purpose` is `{}`; only a FULL assessment can be COMPLETE", p.as_str()),
                tester_hint("keep the report IN_PROGRESS or BLOCKED until full verification passes, then record FULL with target NONE"),
            );
        }
    }
}

/// VF-007..VF-009: the Increment Assessments rows.
fn assessment_rows(wf: &Workflow, report: &Report, file: &str, sink: &mut Sink) {
    for row in &report.rows {
        let n = row.number();
        // VF-007 Assessment row shape: four cells, a known disposition.
        let Some((outcome, evidence, _)) = row.parts() else {
            sink.push_hinted(
                "VF-007",
                file,
                format!(
                    "the Increment Assessments row for increment {n} must have four cells (increment, outcome, evidence, disposition) and end in {}",
                    Disposition::NAMES.join(", ")
                ),
                tester_hint("complete the row as `| N | outcome and acceptance scope | assessed inputs / evidence | disposition |`"),
            );
            continue;
        };
        // VF-008 Assessed increment defined in the own plan.
        if !wf.plan.as_ref().is_some_and(|p| p.defines_increment(n)) {
            sink.push_hinted(
                "VF-008",
                file,
                format!("the Increment Assessments row for increment {n} assesses an increment the development plan does not define"),
                tester_hint("assess only increments defined in the plan's Verification Increments"),
            );
        }
        // VF-009 Assessment evidence: an outcome and real evidence.
        if outcome.is_empty() || evidence.is_empty() || evidence == "NONE" {
            sink.push_hinted(
                "VF-009",
                file,
                format!("the Increment Assessments row for increment {n} needs both its outcome and its evidence (evidence cannot be empty or `NONE`)"),
                tester_hint("record what was assessed and the inputs or results that support the disposition"),
            );
        }
    }
}

/// VF-010 Tester suspended assignments: each entry of "Resume or Handoff" is well formed.
fn vf_010(wf: &Workflow, file: &str, sink: &mut Sink) {
    if wf.report.is_none() {
        return;
    }
    for message in saved::defects(&wf.tester, Holder::Tester) {
        sink.push_hinted(
            "VF-010",
            file,
            format!("Resume or Handoff, {message}"),
            tester_hint("each `### Suspended Assignment N` needs one concrete `Recovery Frame`, `Recovery Reason`, `Purpose` (FULL, INCREMENT, CORRECTION), `Target`, `Assessed Inputs` and `Next Action`; append new entries rather than renumbering"),
        );
    }
}

/// VF-011 Scoped recovery needs the Tester assignment: during scoped
/// recovery every frame interrupted in TESTING has its saved assignment.
fn vf_011(wf: &Workflow, file: &str, sink: &mut Sink) {
    if !wf.scoped {
        return;
    }
    for m in &wf.frames {
        if m.holder == Some(Holder::Tester) && m.assignment.is_none() {
            sink.push_hinted(
                "VF-011",
                file,
                format!("recovery frame {} interrupted the Tester, but Resume or Handoff has no `### Suspended Assignment` whose `Recovery Frame` is `{}` with the frame's exact `Reason` as `Recovery Reason`", m.label, m.label),
                tester_hint("save the interrupted assessment (purpose, target, assessed inputs, next action) against this frame; PROTOCOL.md, Implementation and Verification Recovery Gates"),
            );
        }
    }
}

/// VF-012 Restore the increment assessment: a resumed or same-state corrected
/// increment assignment is assessed as `INCREMENT` of the plan's current increment.
fn vf_012(wf: &Workflow, file: &str, sink: &mut Sink) {
    let Some(n) = wf.current_increment() else {
        return;
    };
    if wf.report.as_ref().is_some_and(|r| r.assesses_increment(n)) {
        return;
    }
    sink.push_hinted(
        "VF-012",
        file,
        format!("the suspended increment assessment of `Increment {n}` applies again, so the report header must say `Assessment Purpose` `INCREMENT` and `Assessment Target` `Increment {n}`{}", found(wf)),
        tester_hint("restore the saved INCREMENT assignment in the header and reconcile changed inputs before continuing"),
    );
}

/// The report's current purpose and target, for messages.
fn found(wf: &Workflow) -> String {
    match &wf.report {
        None => "; there is no verification report yet".into(),
        Some(r) => format!(
            " (it says `{}` / `{}`)",
            r.purpose_field().value().unwrap_or("-"),
            r.target().unwrap_or("-")
        ),
    }
}

/// ST-033 Expedited cannot hold an INCREMENTAL request.
fn st_033(doc: &StateDoc, sink: &mut Sink) {
    if doc.cycle_mode.value == CycleMode::Expedited
        && doc.active_work.pending_verification_cadence.value == PendingCadence::Incremental
    {
        sink.push_hinted(
            "ST-033",
            STATE_PATH,
            "Active Work `PendingVerificationCadence` is INCREMENTAL, but an EXPEDITED cycle supports only AFTER_IMPLEMENTATION",
            Some("ask the user: an INCREMENTAL request needs the cycle promoted to STANDARD first (user-decisions.md, Switch verification cadence); until then leave the request unrecorded".into()),
        );
    }
}

/// TR-027 Checkpoint preconditions: a STANDARD Developer/Tester exchange,
/// FailureType NONE, no active recovery (one problem).
fn tr_027(doc: &StateDoc, why: &[String], sink: &mut Sink) {
    sink.push_hinted(
        "TR-027",
        STATE_PATH,
        format!("this CHECKPOINT handoff is not allowed: {}", why.join("; ")),
        Some(format!(
            "the role that recorded the handoff ({}) corrects it: a checkpoint only exchanges an increment between Developer and Tester in a STANDARD cycle outside recovery (PROTOCOL.md, Checkpoint Handoffs); otherwise use FORWARD, FAILURE or RESUME",
            doc.handoff.from.value
        )),
    );
}

/// TR-028 Checkpoint names one increment: exactly one `Increment N` in
/// `Reason` (repeats of the same number count once, see [`checkpoint_of`]).
fn tr_028(doc: &StateDoc, named: &[String], sink: &mut Sink) {
    let named = match named {
        [] => "names no increment as `Increment N`".to_string(),
        several => format!(
            "names {} increments ({})",
            several.len(),
            several
                .iter()
                .map(|n| format!("`Increment {n}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    sink.push_hinted(
        "TR-028",
        STATE_PATH,
        format!("the CHECKPOINT handoff's `Reason` {named}; it must identify exactly one, such as `Increment 2 ready.`"),
        Some(format!(
            "the role that recorded the handoff ({}) rewrites `Reason` to name the one increment exchanged",
            doc.handoff.from.value
        )),
    );
}

/// VF-013 Developer checkpoint assessment: the receiving Tester assesses the
/// checkpoint increment.
fn vf_013(wf: &Workflow, n: &str, file: &str, sink: &mut Sink) {
    if wf.report.as_ref().is_some_and(|r| r.assesses_increment(n)) {
        return;
    }
    sink.push_hinted(
        "VF-013",
        file,
        format!("the Developer's checkpoint assigns `Increment {n}`, so the report header must say `Assessment Purpose` `INCREMENT` and `Assessment Target` `Increment {n}`{}", found(wf)),
        tester_hint("record the assigned increment in the header (create the report with `git standards artifact init VERIFICATION` if it is missing)"),
    );
}

/// VF-014 Tester checkpoint assessment: an IN_PROGRESS report assessing the
/// increment, with a VERIFIED row for it.
fn vf_014(wf: &Workflow, n: &str, file: &str, sink: &mut Sink) {
    let mut missing = Vec::new();
    match &wf.report {
        None => missing.push("there is no verification report".to_string()),
        Some(r) => {
            if !r.assesses_increment(n) {
                missing.push(format!(
                    "the header does not assess it (`{}` / `{}`)",
                    r.purpose_field().value().unwrap_or("-"),
                    r.target().unwrap_or("-")
                ));
            }
            if r.status() != Some("IN_PROGRESS") {
                missing.push(format!(
                    "the Status is `{}`, not IN_PROGRESS",
                    r.status().unwrap_or("missing")
                ));
            }
            match r.assessment(n) {
                Some((_, _, Disposition::Verified)) => {}
                Some(_) => missing.push(format!(
                    "its Increment Assessments row for {n} is not VERIFIED"
                )),
                None => missing.push(format!("Increment Assessments has no complete row for {n}")),
            }
        }
    }
    if missing.is_empty() {
        return;
    }
    sink.push_hinted(
        "VF-014",
        file,
        format!("the Tester's checkpoint returns `Increment {n}` as verified, but {}", missing.join("; ")),
        tester_hint("a checkpoint back to the Developer needs Purpose INCREMENT, Target `Increment N`, Status IN_PROGRESS and a VERIFIED row for the increment; a failed increment uses failure routing instead"),
    );
}

/// VF-015 Tester checkpoint execution evidence.
fn vf_015(wf: &Workflow, file: &str, sink: &mut Sink) {
    let evidence = wf
        .report
        .as_ref()
        .and_then(|r| r.execution_evidence.as_deref());
    if evidence.is_some_and(|e| !crate::records::plan::js_trim(e).is_empty()) {
        return;
    }
    sink.push_hinted(
        "VF-015",
        file,
        format!(
            "the Tester's checkpoint needs saved Execution Evidence, but the section is {}",
            if evidence.is_some() {
                "empty"
            } else {
                "missing"
            }
        ),
        tester_hint(
            "record under `## Execution Evidence` the commands run, their inputs and their results",
        ),
    );
}

/// VF-016 Reviewer entry needs full verification (also during recovery).
fn vf_016(wf: &Workflow, doc: &StateDoc, file: &str, sink: &mut Sink) {
    let Some(report) = &wf.report else { return };
    let Some(p) = report.purpose() else { return };
    if doc.cycle_mode.value == CycleMode::Standard
        && p != Purpose::Full
        && report.status() != Some("COMPLETE")
    {
        sink.push_hinted(
            "VF-016",
            file,
            format!(
                "the cycle is in {}, past the full verification boundary, but the report's `Assessment Purpose` is `{}` and it is not COMPLETE",
                doc.workflow_state.value,
                p.as_str()
            ),
            Some("Reviewer entry needs the full Tester gate: route the work back to the Tester, who completes a FULL assessment with target NONE (PROTOCOL.md, Full Verification Boundary)".into()),
        );
    }
}

/// VF-017 No awaiting-implementation work in a complete report.
fn vf_017(wf: &Workflow, file: &str, sink: &mut Sink) {
    let Some(report) = &wf.report else { return };
    if report.status() == Some("COMPLETE")
        && report
            .acceptance_evidence
            .as_deref()
            .is_some_and(|t| contains_word(t, "AWAITING_IMPLEMENTATION"))
    {
        sink.push_hinted(
            "VF-017",
            file,
            "the report is COMPLETE, but its Acceptance Evidence still marks work AWAITING_IMPLEMENTATION",
            tester_hint("AWAITING_IMPLEMENTATION cannot pass full verification: verify that work with evidence, or keep the report IN_PROGRESS"),
        );
    }
}

/// VF-018 Complete report needs a complete plan (TESTING, not at turn end).
fn vf_018(wf: &Workflow, cx: &Cx, file: &str, sink: &mut Sink) {
    let (Some(report), Some(plan)) = (&wf.report, &wf.plan) else {
        return;
    };
    if report.status() == Some("COMPLETE") && plan.status() != Some("COMPLETE") {
        let path = cx.plan().map(|(p, _)| p).unwrap_or(&wf.plan_file);
        sink.push_hinted(
            "VF-018",
            file,
            format!(
                "the report is COMPLETE, but the development plan `{path}` is `{}`; a COMPLETE report certifies the full implementation",
                plan.status().unwrap_or("without Status")
            ),
            tester_hint("keep the report IN_PROGRESS or BLOCKED while implementation is unfinished; scoped recovery cannot certify it"),
        );
    }
}

/// VF-019 Full verification purpose: outside partial development, TESTING assesses FULL.
fn vf_019(wf: &Workflow, file: &str, sink: &mut Sink) {
    let Some(p) = wf.report.as_ref().and_then(Report::purpose) else {
        return;
    };
    if !wf.partial_development && p != Purpose::Full {
        sink.push_hinted(
            "VF-019",
            file,
            format!("this is a full verification assignment (no increment checkpoint, restored increment or scoped correction applies), but `Assessment Purpose` is `{}`", p.as_str()),
            tester_hint("record `Assessment Purpose` FULL with `Assessment Target` NONE"),
        );
    }
}

/// VF-020 Scoped Tester correction purpose: the active frame is the Tester's own correction.
fn vf_020(wf: &Workflow, doc: &StateDoc, file: &str, sink: &mut Sink) {
    let Some(p) = wf.report.as_ref().and_then(Report::purpose) else {
        return;
    };
    let Some(frame) = doc.recovery.entries.last() else {
        return;
    };
    if wf.scoped
        && frame.get("Owner") == Some("TESTING")
        && frame.get("RerunThrough") == Some("NONE")
        && p != Purpose::Correction
    {
        sink.push_hinted(
            "VF-020",
            file,
            format!("recovery frame {} is a scoped correction owned by the Tester, but `Assessment Purpose` is `{}`", frame.label, p.as_str()),
            tester_hint("record `Assessment Purpose` CORRECTION with the specific correction as `Assessment Target`"),
        );
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::testing::installed_tree;
    use super::super::{run, Options};
    use super::*;
    use crate::model::tree::MemTree;
    use crate::model::vocab::ProjectMode;

    pub const ID: &str = "add-user-search-20260927T190146Z-7bef0f04";
    pub const STATE: &str =
        include_str!("../../../../fixtures/check/bases/f-inc/.standards/STATE.md");
    pub const PLAN: &str = include_str!(
        "../../../../fixtures/check/bases/f-inc/.standards/docs/development/add-user-search-20260927T190146Z-7bef0f04.md"
    );
    pub const REPORT: &str = include_str!(
        "../../../../fixtures/check/bases/f-inc/.standards/docs/verification/add-user-search-20260927T190146Z-7bef0f04.md"
    );

    const SCOPE: &str = include_str!(
        "../../../../fixtures/check/bases/f-inc/.standards/docs/scope/add-user-search-20260927T190146Z-7bef0f04.md"
    );
    const DESIGN: &str = include_str!(
        "../../../../fixtures/check/bases/f-inc/.standards/docs/specs/add-user-search-20260927T190146Z-7bef0f04.md"
    );

    pub fn plan_path() -> String {
        format!(".standards/docs/development/{ID}.md")
    }

    pub fn report_path() -> String {
        format!(".standards/docs/verification/{ID}.md")
    }

    /// Scenario F-INC with its STATE, plan and report replaced by the given texts.
    pub fn f_inc(state: &str, plan: &str, report: &str) -> MemTree {
        installed_tree(ProjectMode::Brownfield)
            .with(STATE_PATH, state)
            .with(&format!(".standards/docs/scope/{ID}.md"), SCOPE)
            .with(&format!(".standards/docs/specs/{ID}.md"), DESIGN)
            .with(&plan_path(), plan)
            .with(&report_path(), report)
            .with(
                crate::model::layout::CONTEXT_PATH,
                "# Project Context\n\n## Project Baseline\n\nAn existing web application.\n",
            )
    }

    pub fn rules(t: &MemTree) -> Vec<&'static str> {
        run(t, None, Options::default()).rules()
    }

    fn workflow(t: &MemTree) -> Option<Workflow> {
        let mut sink = Sink::default();
        let cx = Cx::new(t, None, Options::default(), &mut sink);
        Workflow::of(&cx)
    }

    fn handoff(state: &str, kind: &str, from: &str, failure: &str, reason: &str) -> String {
        state.replace(
            "`Kind`: `CHECKPOINT` `From`: `DEVELOPING` `FailureType`: `NONE` `Reason`:\n`Increment 1 ready.`",
            &format!("`Kind`: `{kind}` `From`: `{from}` `FailureType`: `{failure}` `Reason`:\n`{reason}`"),
        )
    }

    fn with_frame(state: &str, from: &str, owner: &str, failure: &str) -> String {
        state.replacen(
            "## Recovery\n\n`Active`: `false`",
            &format!("## Recovery\n\n`Active`: `true`\n\n### Frame 1\n\n`From`: `{from}` `Owner`: `{owner}` `FailureType`: `{failure}` `Reason`: `A defect.`\n`ResumeAt`: `{from}` `RerunThrough`: `NONE`"),
            1,
        )
    }

    fn sa(n: u32, purpose: &str, target: &str) -> String {
        format!("### Suspended Assignment {n}\n\n`Recovery Frame`: `1` `Recovery Reason`: `A defect.`\n`Purpose`: `{purpose}` `Target`: `{target}`\n`Assessed Inputs`: `src at abc` `Next Action`: `resume`\n")
    }

    #[test]
    fn f_inc_is_a_valid_developer_checkpoint() {
        let wf = workflow(&f_inc(STATE, PLAN, REPORT)).expect("active cycle");
        assert_eq!(
            wf.checkpoint,
            Checkpoint::Valid {
                increment: "1".into(),
                into_testing: true
            }
        );
        assert!(wf.partial_development && !wf.scoped && !wf.incremental_assignment);
        assert!(!wf.full_boundary);
        assert_eq!(wf.plan_file, plan_path());
        assert_eq!(wf.report_file, report_path());
        assert!(rules(&f_inc(STATE, PLAN, REPORT)).is_empty());
    }

    #[test]
    fn no_active_cycle_means_no_workflow() {
        assert!(workflow(&installed_tree(ProjectMode::Brownfield)).is_none());
    }

    #[test]
    fn scoped_needs_a_matching_saved_assignment() {
        let plan = PLAN.replace(
            "`INCREMENTAL` `Current Increment`: `1`",
            "`AFTER_IMPLEMENTATION` `Current Increment`: `NONE`",
        ) + "\n## Plan Notes\n\n"
            + &sa(1, "DEVELOPMENT", "NONE");
        let report = REPORT.replace(
            "`INCREMENT` `Assessment Target`: `Increment 1`",
            "`CORRECTION` `Assessment Target`: `Repair assertion`",
        );
        let state = with_frame(
            &handoff(STATE, "FAILURE", "DEVELOPING", "VERIFICATION", "A defect."),
            "DEVELOPING",
            "TESTING",
            "VERIFICATION",
        );
        let wf = workflow(&f_inc(&state, &plan, &report)).unwrap();
        assert!(wf.scoped && wf.partial_development);
        assert!(wf.frames[0].assignment.is_some());
        assert!(rules(&f_inc(&state, &plan, &report)).is_empty());
        // Another reason: the saved assignment belongs to an older frame 1.
        let other = state.replace(
            "`Reason`: `A defect.`\n`ResumeAt`",
            "`Reason`: `Another defect.`\n`ResumeAt`",
        );
        let wf = workflow(&f_inc(&other, &plan, &report)).unwrap();
        assert!(!wf.scoped && wf.frames[0].assignment.is_none());
        // The scoped Tester correction must be a CORRECTION.
        let full = report.replace(
            "`CORRECTION` `Assessment Target`: `Repair assertion`",
            "`FULL` `Assessment Target`: `NONE`",
        );
        assert!(rules(&f_inc(&state, &plan, &full)).contains(&"VF-020"));
    }

    #[test]
    fn resuming_and_same_state_correction_restore_the_increment() {
        let report = format!(
            "{REPORT}\n## Resume or Handoff\n\n{}",
            sa(1, "INCREMENT", "Increment 1")
        );
        let state = handoff(
            STATE,
            "RESUME",
            "DEVELOPING",
            "NONE",
            "Back to increment 1.",
        );
        let wf = workflow(&f_inc(&state, PLAN, &report)).unwrap();
        assert!(wf.resuming && wf.incremental_assignment && wf.partial_development);
        assert_eq!(wf.checkpoint, Checkpoint::NotCheckpoint);
        let corrected = report.replace(
            "`INCREMENT` `Assessment Target`: `Increment 1`",
            "`CORRECTION` `Assessment Target`: `x`",
        );
        assert!(rules(&f_inc(&state, PLAN, &corrected)).contains(&"VF-012"));
        // At the end of a turn the receiving Tester is not blamed.
        let t = f_inc(&state, PLAN, &corrected);
        let turn_end = run(
            &t,
            None,
            Options {
                at_turn_end: true,
                ..Default::default()
            },
        )
        .rules();
        assert!(!turn_end.contains(&"VF-012"));

        let same = handoff(
            STATE,
            "FAILURE",
            "TESTING",
            "VERIFICATION",
            "Repair assertion.",
        );
        let wf = workflow(&f_inc(&same, PLAN, REPORT)).unwrap();
        assert!(wf.same_state_correction && !wf.resuming);
        // A report that no longer targets the current increment is no same-state correction.
        let elsewhere = REPORT.replace(
            "`Assessment Target`: `Increment 1`",
            "`Assessment Target`: `Increment 2`",
        );
        assert!(
            !workflow(&f_inc(&same, PLAN, &elsewhere))
                .unwrap()
                .same_state_correction
        );
    }

    #[test]
    fn checkpoint_preconditions_and_increment() {
        let state = handoff(
            STATE,
            "CHECKPOINT",
            "ARCHITECTING",
            "VERIFICATION",
            "Increment 1 ready.",
        );
        match workflow(&f_inc(&state, PLAN, REPORT)).unwrap().checkpoint {
            Checkpoint::Disallowed(why) => assert_eq!(why.len(), 2, "{why:?}"),
            other => panic!("{other:?}"),
        }
        let state = handoff(
            STATE,
            "CHECKPOINT",
            "DEVELOPING",
            "NONE",
            "increment 1 and Increment 2.",
        );
        assert_eq!(
            workflow(&f_inc(&state, PLAN, REPORT)).unwrap().checkpoint,
            Checkpoint::Unclear(vec!["1".into(), "2".into()])
        );
        let back = handoff(
            STATE,
            "CHECKPOINT",
            "TESTING",
            "NONE",
            "Increment 1 verified.",
        )
        .replace(
            "`WorkflowState`: `TESTING`",
            "`WorkflowState`: `DEVELOPING`",
        );
        let wf = workflow(&f_inc(&back, PLAN, REPORT)).unwrap();
        assert!(matches!(
            wf.checkpoint,
            Checkpoint::Valid {
                into_testing: false,
                ..
            }
        ));
        assert!(!wf.partial_development);
        assert!(rules(&f_inc(&back, PLAN, REPORT)).is_empty());
        let blocked = REPORT.replace("passed | VERIFIED |", "passed | BLOCKED |");
        assert_eq!(rules(&f_inc(&back, PLAN, &blocked)), ["VF-014"]);
    }

    #[test]
    fn report_rules_fire_on_odd_reports() {
        for (edit, rule) in [
            (
                (
                    "`Assessment Purpose`: `INCREMENT`",
                    "`Assessment Purpose`: `FULLY`",
                ),
                "VF-001",
            ),
            (
                (
                    "`Assessment Target`: `Increment 1`",
                    "`Assessment Target`: ` `",
                ),
                "VF-002",
            ),
            (("| VERIFIED |", "| VERIFIED | extra |"), "VF-007"),
            (
                (
                    "src/search.js at the checkpoint; test/search.test.js passed",
                    "NONE",
                ),
                "VF-009",
            ),
        ] {
            let report = REPORT.replace(edit.0, edit.1);
            assert!(
                rules(&f_inc(STATE, PLAN, &report)).contains(&rule),
                "{rule}"
            );
        }
    }

    #[test]
    fn odd_inputs_do_not_panic() {
        let huge = "99999999999999999999999999999999";
        for plan in [
            String::new(),
            "<!-- STANDARDS\nArtifact: DEVELOPMENT\nCycle: add-user-search-20260927T190146Z-7bef0f04\n-->\n".to_string(),
            PLAN.replace("`Current Increment`: `1`", &format!("`Current Increment`: `{huge}`")),
            PLAN.replace("### Increment 1", &format!("### Increment {huge}")),
            PLAN.replace("## Build Steps", "## Build Steps\n### DEV-003\n### DEV-004\n`Depends On`: `,,`"),
        ] {
            for report in [String::new(), REPORT.replace("| 1 |", &format!("| {huge} |")), "## Increment Assessments\n|||\n| 1 |".into()] {
                let state = handoff(STATE, "CHECKPOINT", "DEVELOPING", "NONE", &format!("Increment {huge} ready."));
                let _ = rules(&f_inc(&state, &plan, &report));
                let _ = rules(&f_inc(STATE, &plan, &report));
            }
        }
    }
}
