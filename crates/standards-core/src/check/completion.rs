//! CP: completion records and sign-off readiness; HK: the stop hook's
//! turn-end narrowing.
//!
//! The completion-record procedure (CP-000) is a pure function of the cycle's
//! [`Situation`]: [`demands`] says which fixed records must exist, and which of
//! them must be `COMPLETE`, with the catalogue rule that reports each gap.
//! [`holding_rule`] is the other half of the same question for acceptance
//! coverage: which `COMPLETE` records are *held* to every current acceptance
//! condition (AC-010's held(phase)), including the stop hook's narrowing
//! (HK-004..HK-006). [`partial_assessment_rule`] keys AC-011 (HK-007) and
//! [`turn_end_suppresses`] names the verification rules the hook does not
//! evaluate (HK-008).
//!
//! Overlap with the AC family: AC-010 and AC-011 read [`holding_rule`] and
//! [`partial_assessment_rule`] the same way. The problems that only the stop
//! hook raises (a record held because the last handoff left its state,
//! HK-005; a partial assessment keyed on the Tester's handoff, HK-007) are
//! reported here under the HK IDs, so an AC-010/AC-011 implementation should
//! report a record only when these functions name its own rule.

use crate::model::fields::{self, is_js_whitespace};
use crate::model::layout::{self, CONTEXT_PATH, STATE_PATH};
use crate::model::tree::Text;
use crate::model::vocab::{
    ArtifactType, CompletionPolicy, CycleMode, HandoffKind, IdPrefix, PendingCadence, ReviewKind,
    WorkflowState,
};
use crate::records::acceptance;
use crate::records::record::{self, header_fields};

use super::context::{SlotStatus, DOCUMENTATION_PHASES, FULL_DELIVERABLE_PHASES};
use super::documentation::status_exempt_in;
use super::{Cx, OwnRecord, RuleInfo, Sink};

use WorkflowState as W;

pub const RULES: &[RuleInfo] = &[
    // CP-000 is the procedure CP-001..CP-006 report from (see [`demands`]).
    RuleInfo::precondition("CP-000", "Completion-record procedure"),
    RuleInfo::rule("CP-001", "Required record missing"),
    RuleInfo::rule("CP-002", "Required record not complete"),
    RuleInfo::rule("CP-003", "Direct return to sign-off"),
    RuleInfo::rule("CP-004", "Completion-policy change"),
    RuleInfo::rule("CP-005", "Corrective return source exists"),
    RuleInfo::rule("CP-006", "Successful documentation RESUME"),
    RuleInfo::rule("CP-007", "Scope recorded"),
    RuleInfo::rule("CP-008", "Architecture recorded"),
    RuleInfo::rule("CP-009", "Development recorded"),
    RuleInfo::rule("CP-010", "Documentation cycles need project context"),
    RuleInfo::rule("CP-011", "Reviewer entry clears pending cadence"),
    // HK-001..HK-003 describe the `hook stop` command's own procedure (when it
    // checks, blocking once per turn, never trapping the agent), not problems
    // in a project; `commands::hook` implements them.
    RuleInfo::precondition("HK-001", "When the hook checks"),
    RuleInfo::precondition("HK-002", "Blocking once per turn"),
    RuleInfo::precondition("HK-003", "Hook failures never block"),
    // HK-004, HK-006 and HK-008 only take problems away at turn end (or, for
    // HK-006, everywhere), so no project can trigger them: they are procedure
    // ([`holding_rule`], `Cx::handed_off_by`, [`turn_end_suppresses`]),
    // pinned by turn-end fixture cases that must stay clean.
    RuleInfo::precondition("HK-004", "The current state's own records are not held"),
    RuleInfo::rule(
        "HK-005",
        "During recovery the last handoff's source is held",
    ),
    RuleInfo::precondition("HK-006", "Nothing is taken from a handoff while in SCOPING"),
    RuleInfo::rule("HK-007", "Partial assessment at turn end"),
    RuleInfo::precondition("HK-008", "Assessment-state checks suppressed"),
];

/// HK-008: the verification-workflow rules the stop hook does not evaluate,
/// because the role receiving the handoff may legitimately reopen that work.
/// Callers ask only when `cx.options.at_turn_end` is set.
pub fn turn_end_suppresses(rule_id: &str) -> bool {
    matches!(
        rule_id,
        "VF-012" | "VF-013" | "VF-018" | "VF-019" | "VF-020"
    )
}

// ---------------------------------------------------------------------------
// The pure procedure
// ---------------------------------------------------------------------------

/// What the completion procedure reads from STATE.md, with the derived
/// predicates of check-rules §2 already evaluated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Situation {
    pub mode: CycleMode,
    pub policy: CompletionPolicy,
    pub state: WorkflowState,
    /// `Handoff.Kind`, when it is a valid kind.
    pub kind: Option<HandoffKind>,
    /// `Handoff.From`, when it is a workflow state.
    pub from: Option<WorkflowState>,
    /// `Recovery.Active`.
    pub recovering: bool,
    pub full_boundary: bool,
    pub corrective_return: bool,
    /// The state the last forward-like handoff left (none in SCOPING, HK-006).
    pub just_left: Option<WorkflowState>,
    /// Run by the stop hook.
    pub at_turn_end: bool,
}

impl Situation {
    /// The active cycle's situation; `None` without one.
    pub fn of(cx: &Cx) -> Option<Situation> {
        cx.active_id()?;
        let doc = cx.doc()?;
        Some(Situation {
            mode: doc.cycle_mode.value,
            policy: doc.active_work.completion_policy.value,
            state: doc.workflow_state.value,
            kind: doc.handoff.kind(),
            from: doc.handoff.from_state(),
            recovering: cx.recovering(),
            full_boundary: cx.full_boundary(),
            corrective_return: cx.corrective_return(),
            just_left: cx.just_left(),
            at_turn_end: cx.options.at_turn_end,
        })
    }

    fn documentation(&self) -> bool {
        self.mode == CycleMode::Documentation
    }
}

/// One of the five fixed records (check-rules §1.14).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slot {
    pub artifact: ArtifactType,
    pub kind: Option<ReviewKind>,
    /// The state whose owner completes it.
    pub phase: WorkflowState,
}

impl Slot {
    const fn new(artifact: ArtifactType, kind: Option<ReviewKind>, phase: WorkflowState) -> Slot {
        Slot {
            artifact,
            kind,
            phase,
        }
    }

    /// What people call it.
    pub fn name(&self) -> &'static str {
        match (self.artifact, self.kind) {
            (ArtifactType::Verification, _) => "verification report",
            (ArtifactType::Review, Some(ReviewKind::FinalDeliverable)) => {
                "final-deliverable review"
            }
            (ArtifactType::Review, _) => "implementation review",
            (ArtifactType::Documentation, _) => "documentation record",
            (ArtifactType::Synchronization, _) => "synchronization record",
            _ => "record",
        }
    }

    /// The `artifact init` arguments that create it.
    pub fn init_args(&self) -> String {
        match self.kind {
            Some(k) => format!("{} --kind {k}", self.artifact),
            None => self.artifact.to_string(),
        }
    }

    pub fn path(&self, id: &str) -> String {
        layout::record_path(self.artifact, self.kind, id)
    }
}

/// The fixed records in list order: verification report, implementation
/// review, documentation record, final-deliverable review, synchronization
/// record.
pub const FIXED_RECORDS: [Slot; 5] = [
    Slot::new(ArtifactType::Verification, None, W::Testing),
    Slot::new(
        ArtifactType::Review,
        Some(ReviewKind::Implementation),
        W::ReviewingImplementation,
    ),
    Slot::new(ArtifactType::Documentation, None, W::Documenting),
    Slot::new(
        ArtifactType::Review,
        Some(ReviewKind::FinalDeliverable),
        W::ReviewingFinal,
    ),
    Slot::new(ArtifactType::Synchronization, None, W::Synchronizing),
];

/// The fixed record completed in `phase`, if one is.
pub fn slot_of_phase(phase: WorkflowState) -> Option<Slot> {
    FIXED_RECORDS.iter().copied().find(|s| s.phase == phase)
}

/// The fixed record of a record type (and review kind), if it has one.
pub fn slot_of(artifact: ArtifactType, kind: Option<ReviewKind>) -> Option<Slot> {
    FIXED_RECORDS
        .iter()
        .copied()
        .find(|s| s.artifact == artifact && s.kind == kind)
}

/// The phases a (CycleMode, CompletionPolicy) pair must pass before sign-off
/// readiness (check-rules §2); `None` for an invalid pair (ST-012 reports it),
/// an empty list for `UNSET`. An owned copy of the topology table, so a caller
/// may change its list without touching anyone else's (SC-POL-007).
pub fn required_phases(mode: CycleMode, policy: CompletionPolicy) -> Option<Vec<WorkflowState>> {
    crate::workflow::topology::required_phases(mode, policy).map(<[WorkflowState]>::to_vec)
}

/// The fixed records a (CycleMode, CompletionPolicy) pair requires: those whose
/// completing state is a required phase, in fixed-record order.
pub fn required_records(mode: CycleMode, policy: CompletionPolicy) -> Vec<Slot> {
    let phases = required_phases(mode, policy).unwrap_or_default();
    FIXED_RECORDS
        .iter()
        .copied()
        .filter(|s| phases.contains(&s.phase))
        .collect()
}

/// One record the procedure checks, with the flags of CP-000 step 2.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Demand {
    pub slot: Slot,
    /// Appended because a `RESUME` returned from its phase straight to
    /// sign-off readiness under `IMPLEMENTATION_REVIEWED` (CP-003).
    pub direct_return: bool,
    /// A DOCUMENTATION corrective return from its phase (CP-005).
    pub correction_source: bool,
    /// A DOCUMENTATION `FORWARD` from its phase.
    pub recovery_forward: bool,
    /// A DOCUMENTATION `RESUME` from its phase to another state (CP-006).
    pub recovery_resume: bool,
    /// A `COMPLETION_CHANGE` and this is the implementation review (CP-004).
    pub policy_return: bool,
    /// Whether its `Status` must be `COMPLETE` (step 5), not only exist.
    pub must_be_complete: bool,
}

impl Demand {
    /// The rule reporting a missing record: direct return > correction source
    /// > recovery resume > policy return > generic.
    pub fn missing_rule(&self) -> &'static str {
        if self.direct_return {
            "CP-003"
        } else if self.correction_source {
            "CP-005"
        } else if self.recovery_resume {
            "CP-006"
        } else if self.policy_return {
            "CP-004"
        } else {
            "CP-001"
        }
    }

    /// The rule reporting an incomplete record: direct return > recovery
    /// resume > policy return > generic.
    pub fn incomplete_rule(&self) -> &'static str {
        if self.direct_return {
            "CP-003"
        } else if self.recovery_resume {
            "CP-006"
        } else if self.policy_return {
            "CP-004"
        } else {
            "CP-002"
        }
    }
}

/// CP-000 steps 1–3 and the status exemptions of step 5: the fixed records the
/// cycle must hold now, in fixed-record order (a direct-return record last).
/// Empty when the procedure does not apply.
pub fn demands(s: &Situation) -> Vec<Demand> {
    let applies = matches!(
        s.mode,
        CycleMode::Standard | CycleMode::Expedited | CycleMode::Documentation
    ) && (!s.recovering || s.full_boundary || s.documentation());
    if !applies {
        return Vec::new();
    }
    let is = |k: HandoffKind| s.kind == Some(k);
    // Step 1.
    let mut slots: Vec<(Slot, bool)> = required_records(s.mode, s.policy)
        .into_iter()
        .map(|slot| (slot, false))
        .collect();
    if s.mode == CycleMode::Standard
        && s.policy == CompletionPolicy::ImplementationReviewed
        && s.state == W::AwaitingUserSignoff
        && is(HandoffKind::Resume)
    {
        if let Some(slot) = s
            .from
            .filter(|f| FULL_DELIVERABLE_PHASES.contains(f))
            .and_then(slot_of_phase)
        {
            slots.push((slot, true));
        }
    }
    let dc_exempt = status_exempt_in(s.mode, s.state, s.kind);
    let mut out = Vec::new();
    for (slot, direct_return) in slots {
        let phase = slot.phase;
        let from_phase = s.from == Some(phase);
        // Step 2.
        let correction_source = s.corrective_return && from_phase;
        let recovery_forward = s.documentation() && is(HandoffKind::Forward) && from_phase;
        let recovery_resume = s.documentation()
            && is(HandoffKind::Resume)
            && from_phase
            && s.state != phase
            && s.state != W::AwaitingUserSignoff;
        let policy_return = is(HandoffKind::CompletionChange)
            && slot.artifact == ArtifactType::Review
            && slot.kind == Some(ReviewKind::Implementation);
        // Step 3.
        if s.recovering {
            let skip = if s.documentation() {
                !(correction_source || recovery_forward || recovery_resume)
                    && s.state != W::AwaitingUserSignoff
            } else {
                slot.artifact != ArtifactType::Verification
            };
            if skip {
                continue;
            }
        }
        if !(policy_return || correction_source || recovery_forward || recovery_resume)
            && s.state.rank() <= phase.rank()
        {
            continue;
        }
        // Step 5's exemptions.
        let exempt = (policy_return && s.state == W::ReviewingImplementation)
            || correction_source
            || (slot.artifact == ArtifactType::Documentation && dc_exempt);
        out.push(Demand {
            slot,
            direct_return,
            correction_source,
            recovery_forward,
            recovery_resume,
            policy_return,
            must_be_complete: !exempt,
        });
    }
    out
}

/// AC-010's held(phase) with the stop hook's narrowing: the rule that holds a
/// `COMPLETE` record completed in `phase` to every current acceptance
/// condition, or `None` when it is not held. In order:
/// 1. at the full verification boundary the verification report is held (AC-010);
/// 2. at turn end the current state's own record is not (HK-004);
/// 3. a DOCUMENTATION `RESUME` holds the record of the state it left (AC-010);
/// 4. during recovery only the record of the current state is held (AC-010),
///    or at turn end the record of the state the last `FORWARD`, `CHECKPOINT`,
///    `RESUME` or `FAILURE` left (HK-005; never a `USER_REWORK` source, and
///    none in SCOPING, HK-006);
/// 5. otherwise a record is held once the cycle's rank reaches its phase (AC-010).
pub fn holding_rule(s: &Situation, phase: WorkflowState) -> Option<&'static str> {
    if s.full_boundary && phase == W::Testing {
        return Some("AC-010");
    }
    if s.at_turn_end && phase == s.state {
        return None;
    }
    if s.documentation()
        && s.kind == Some(HandoffKind::Resume)
        && s.just_left == Some(phase)
        && phase != s.state
    {
        return Some("AC-010");
    }
    if s.recovering {
        return if s.at_turn_end {
            (s.just_left == Some(phase)).then_some("HK-005")
        } else {
            (s.state == phase).then_some("AC-010")
        };
    }
    (s.state.rank() >= phase.rank()).then_some("AC-010")
}

/// The fixed records held to full acceptance coverage now, with the holding
/// rule (in a DOCUMENTATION cycle only records completed in a DOCUMENTATION
/// phase count).
pub fn held_records(s: &Situation) -> Vec<(Slot, &'static str)> {
    FIXED_RECORDS
        .iter()
        .copied()
        .filter(|slot| !s.documentation() || DOCUMENTATION_PHASES.contains(&slot.phase))
        .filter_map(|slot| holding_rule(s, slot.phase).map(|rule| (slot, rule)))
        .collect()
}

/// The rule that checks a partial (`INCREMENT` or `CORRECTION`) verification
/// report's acceptance evidence now: AC-011 while the cycle is in TESTING, or
/// at turn end HK-007, keyed on the Tester's handoff (the last handoff left
/// TESTING). `None` in DOCUMENTATION cycles and otherwise.
pub fn partial_assessment_rule(s: &Situation) -> Option<&'static str> {
    if s.documentation() {
        return None;
    }
    if s.at_turn_end {
        (s.just_left == Some(W::Testing)).then_some("HK-007")
    } else {
        (s.state == W::Testing).then_some("AC-011")
    }
}

// ---------------------------------------------------------------------------
// The rules
// ---------------------------------------------------------------------------

pub fn check(cx: &Cx, sink: &mut Sink) {
    let (Some(s), Some(id)) = (Situation::of(cx), cx.active_id()) else {
        return;
    };
    completion_records(cx, &s, id, sink);
    recorded_paths(cx, &s, id, sink);
    project_context(cx, &s, sink);
    pending_cadence(cx, &s, sink);
    if s.at_turn_end {
        turn_end_coverage(cx, &s, sink);
    }
}

/// CP-001..CP-006: the records of [`demands`], at their fixed paths.
fn completion_records(cx: &Cx, s: &Situation, id: &str, sink: &mut Sink) {
    for demand in demands(s) {
        let slot = demand.slot;
        let path = slot.path(id);
        let found = cx
            .fixed
            .iter()
            .find(|f| f.artifact == slot.artifact && f.kind == slot.kind)
            .map(|f| &f.status);
        match found {
            Some(SlotStatus::Own) => {}
            // Nothing at all there: the record is missing.
            None | Some(SlotStatus::Missing) => {
                let rule = demand.missing_rule();
                let (message, hint) = missing_text(s, &demand, rule);
                sink.push_hinted(rule, path, message, Some(hint));
                continue;
            }
            // Something else is there: PV-002..PV-005 report it.
            Some(_) => continue,
        }
        if !demand.must_be_complete {
            continue;
        }
        let Some(record) = cx.fixed_record(slot.artifact, slot.kind) else {
            continue;
        };
        let header = header_fields(&record.text);
        let Some(status) = fields::first(&header, "Status").map(|f| f.value.as_str()) else {
            continue; // RH-003 reports it
        };
        if matches!(status, "IN_PROGRESS" | "BLOCKED") {
            let rule = demand.incomplete_rule();
            let (message, hint) = incomplete_text(s, &demand, rule, status);
            sink.push_hinted(rule, path, message, Some(hint));
        }
    }
}

fn role(phase: WorkflowState) -> String {
    phase.owner().to_string()
}

fn missing_text(s: &Situation, d: &Demand, rule: &str) -> (String, String) {
    let slot = &d.slot;
    let (name, phase, role) = (slot.name(), slot.phase, role(slot.phase));
    let from = s.from.map_or("NONE".to_string(), |f| f.to_string());
    let create = format!("`git standards artifact init {}`", slot.init_args());
    match rule {
        "CP-003" => (
            format!(
                "the cycle returned directly from {from} to AWAITING_USER_SIGNOFF under IMPLEMENTATION_REVIEWED, but this cycle's {name} is missing"
            ),
            format!(
                "{role}: a correction that cannot complete the {name} keeps its recovery frame and reruns implementation review (`RerunThrough` `REVIEWING_IMPLEMENTATION`) before sign-off readiness; otherwise create it with {create} and complete it"
            ),
        ),
        "CP-005" => (
            format!(
                "corrective RESUME from {from} to {}, but the {role}'s {name} for this cycle is missing",
                s.state
            ),
            format!(
                "{role}: a corrective return keeps its own record with this cycle's provenance (it may stay IN_PROGRESS or BLOCKED); restore it"
            ),
        ),
        "CP-006" => (
            format!("RESUME from {from} to {}, but this cycle's {name} is missing", s.state),
            format!("{role}: create it with {create} and complete it before the cycle resumes past {phase}"),
        ),
        "CP-004" => (
            format!(
                "COMPLETION_CHANGE into {} needs this cycle's implementation review, but it is missing",
                s.state
            ),
            format!("Reviewer: create it with {create}; a completion-policy change starts from an implementation review"),
        ),
        _ => (
            format!(
                "this cycle's {name} is missing, but the cycle has passed {phase} (it is now {})",
                s.state
            ),
            format!(
                "{role}: create it with {create} and complete it; if {phase} was skipped, route the cycle back to it"
            ),
        ),
    }
}

fn incomplete_text(s: &Situation, d: &Demand, rule: &str, status: &str) -> (String, String) {
    let slot = &d.slot;
    let (name, phase, role) = (slot.name(), slot.phase, role(slot.phase));
    let from = s.from.map_or("NONE".to_string(), |f| f.to_string());
    match rule {
        "CP-003" => (
            format!(
                "the cycle returned directly from {from} to AWAITING_USER_SIGNOFF under IMPLEMENTATION_REVIEWED, but the {name} has `Status` `{status}`"
            ),
            format!(
                "{role}: finish the {name} and set `Status` to `COMPLETE`, or keep the recovery frame and rerun implementation review (`RerunThrough` `REVIEWING_IMPLEMENTATION`) before sign-off readiness"
            ),
        ),
        "CP-006" => (
            format!(
                "RESUME from {from} to {} while the {name} has `Status` `{status}`; a resume past {phase} needs it `COMPLETE`",
                s.state
            ),
            format!(
                "{role}: complete the {name}, or return through a corrective return when the active recovery frame allows one"
            ),
        ),
        "CP-004" => (
            format!(
                "COMPLETION_CHANGE into {} while the implementation review has `Status` `{status}`; a policy change leaves REVIEWING_IMPLEMENTATION only with it `COMPLETE`",
                s.state
            ),
            "Reviewer: complete the implementation review before the completion-policy change moves the cycle on".to_string(),
        ),
        _ => (
            format!(
                "this cycle's {name} has `Status` `{status}`, but the cycle has passed {phase} (it is now {}); it must be `COMPLETE`",
                s.state
            ),
            format!(
                "{role}: finish the {name} and set `Status` to `COMPLETE`, or return the cycle to {phase} through recovery"
            ),
        ),
    }
}

/// CP-007..CP-009: the Active Work paths recorded once their phase is behind.
fn recorded_paths(cx: &Cx, s: &Situation, id: &str, sink: &mut Sink) {
    let Some(doc) = cx.doc() else { return };
    let work = &doc.active_work;
    let resume_source = cx.resume_source();
    let require_prior = cx.require_prior();
    let past_architecture = cx.past_architecture(s.state);
    let why = |source: WorkflowState| {
        if resume_source == Some(source) {
            format!("the cycle resumed from {source}")
        } else {
            format!("the cycle is past {source} (it is now {})", s.state)
        }
    };
    // CP-009
    if cx.past_development() && work.development.value == "NONE" {
        sink.push_hinted(
            "CP-009",
            STATE_PATH,
            format!(
                "Active Work `Development` is `NONE`, but the cycle is past DEVELOPING (it is now {}); the development plan's path must be recorded",
                s.state
            ),
            Some(format!(
                "Developer: set `Development` to the plan's path (`{}`) before handing off",
                layout::record_path(ArtifactType::Development, None, id)
            )),
        );
    }
    // CP-007
    if work.scope.value == "NONE"
        && (resume_source == Some(W::Scoping)
            || (require_prior && (s.state == W::Architecting || past_architecture)))
    {
        sink.push_hinted(
            "CP-007",
            STATE_PATH,
            format!(
                "Active Work `Scope` is `NONE`, but {}; the scope's path must be recorded",
                why(W::Scoping)
            ),
            Some("Scoper: set `Scope` to the scope document's path before handing off".into()),
        );
    }
    // CP-008
    if work.architecture.value == "NONE"
        && (resume_source == Some(W::Architecting) || (require_prior && past_architecture))
    {
        sink.push_hinted(
            "CP-008",
            STATE_PATH,
            format!(
                "Active Work `Architecture` is `NONE`, but {}; the technical design's path must be recorded",
                why(W::Architecting)
            ),
            Some("Architect: set `Architecture` to the technical design's path before handing off".into()),
        );
    }
}

/// CP-010: a DOCUMENTATION cycle past its audit needs `.standards/CONTEXT.md`.
fn project_context(cx: &Cx, s: &Situation, sink: &mut Sink) {
    if !s.documentation() {
        return;
    }
    let past_audit = s.state != W::Auditing;
    let due = (!s.recovering && !s.corrective_return && past_audit)
        || cx.resume_source() == Some(W::Auditing)
        || (s.kind == Some(HandoffKind::Forward) && past_audit);
    if !due {
        return;
    }
    let problem = match cx.tree.text(CONTEXT_PATH) {
        Text::Ok(t) if !t.trim_matches(is_js_whitespace).is_empty() => return,
        Text::Ok(_) => "is empty".to_string(),
        Text::Missing => "does not exist".to_string(),
        Text::Unreadable(why) => format!("cannot be read: {why}"),
    };
    sink.push_hinted(
        "CP-010",
        CONTEXT_PATH,
        format!(
            "a DOCUMENTATION cycle at {} relies on the Auditor's project context, but `{CONTEXT_PATH}` {problem}",
            s.state
        ),
        Some("Auditor: write the project context; if the audit never ran, route the cycle back to AUDITING".into()),
    );
}

/// CP-011: at the full verification boundary no cadence switch is pending.
fn pending_cadence(cx: &Cx, s: &Situation, sink: &mut Sink) {
    let Some(doc) = cx.doc() else { return };
    let pending = doc.active_work.pending_verification_cadence.value;
    if !s.full_boundary || pending == PendingCadence::None {
        return;
    }
    sink.push_hinted(
        "CP-011",
        STATE_PATH,
        format!(
            "Active Work `PendingVerificationCadence` is `{pending}` at {}; a requested cadence switch cannot outlive the full verification boundary (Reviewer entry)",
            s.state
        ),
        Some("the current role sets it back to `NONE`: after full verification nothing is left to schedule (Switch verification cadence, step 2, in user-decisions.md)".into()),
    );
}

/// The current acceptance conditions, when acceptance rules apply (active
/// STANDARD or DOCUMENTATION cycle whose scope text was established).
fn current_conditions(cx: &Cx) -> Option<Vec<String>> {
    if !(cx.standard() || cx.documentation()) {
        return None;
    }
    let (_, scope) = cx.scope()?;
    Some(acceptance::inventory(scope).current)
}

/// The text a record's coverage is read from (AC-010): the verification
/// report's "Acceptance Evidence" section (fenced lines blanked); in a
/// DOCUMENTATION cycle the record without its Previous Cycles part; otherwise
/// the whole record.
///
/// Overlap: AC-010 (AC family) reads the same text; this is the copy the
/// stop hook's HK-005 needs.
pub fn coverage_text(cx: &Cx, record: &OwnRecord) -> String {
    if record.artifact() == ArtifactType::Verification {
        record::section_body(&record.text, "Acceptance Evidence").unwrap_or_default()
    } else if cx.documentation() {
        acceptance::without_previous_cycles(&record.text)
    } else {
        record.text.clone()
    }
}

/// The current conditions `text` does not mention (bare `AC` mentions).
fn uncovered(current: &[String], text: &str) -> Vec<String> {
    let mentioned = record::bare_mentions(text, IdPrefix::Ac);
    current
        .iter()
        .filter(|id| !mentioned.contains(id))
        .cloned()
        .collect()
}

/// HK-005 and HK-007: coverage the stop hook holds that a plain check does not.
fn turn_end_coverage(cx: &Cx, s: &Situation, sink: &mut Sink) {
    let Some(current) = current_conditions(cx) else {
        return;
    };
    // HK-007: the Tester's partial assessment, regardless of its Status. Like
    // AC-010/AC-011, every own record counts, PV-007 duplicates included.
    let mut partial_reports: Vec<&str> = Vec::new();
    if partial_assessment_rule(s) == Some("HK-007") {
        for report in cx
            .own
            .iter()
            .filter(|r| r.artifact() == ArtifactType::Verification)
        {
            let header = header_fields(&report.text);
            let purpose = fields::first(&header, "Assessment Purpose").map(|f| f.value.as_str());
            let Some(purpose @ ("INCREMENT" | "CORRECTION")) = purpose else {
                continue;
            };
            partial_reports.push(report.path.as_str());
            let evidence =
                record::section_body(&report.text, "Acceptance Evidence").unwrap_or_default();
            for id in uncovered(&current, &evidence) {
                sink.push_hinted(
                    "HK-007",
                    report.path.clone(),
                    format!(
                        "partial assessment (`Assessment Purpose` `{purpose}`): the verification report's `## Acceptance Evidence` does not account for current acceptance condition {id}; the Tester's handoff must leave every current condition accounted for"
                    ),
                    Some(format!(
                        "Tester: add a row for {id} (AWAITING_IMPLEMENTATION for work not built yet) before ending the turn"
                    )),
                );
            }
        }
    }
    // HK-005: the record of the state the last handoff left, during recovery.
    for record in &cx.own {
        let Some(slot) = slot_of(record.artifact(), record.kind()) else {
            continue;
        };
        if s.documentation() && !DOCUMENTATION_PHASES.contains(&slot.phase) {
            continue;
        }
        if holding_rule(s, slot.phase) != Some("HK-005")
            || partial_reports.contains(&record.path.as_str())
        {
            continue;
        }
        let header = header_fields(&record.text);
        if fields::first(&header, "Status").map(|f| f.value.as_str()) != Some("COMPLETE") {
            continue;
        }
        let kind = s.kind.map_or("last".to_string(), |k| k.to_string());
        for id in uncovered(&current, &coverage_text(cx, record)) {
            sink.push_hinted(
                "HK-005",
                record.path.clone(),
                format!(
                    "the COMPLETE {} does not account for current acceptance condition {id}; at the end of a turn during recovery the stop hook holds the record of the state the last handoff ({kind} from {}) left",
                    slot.name(),
                    slot.phase
                ),
                Some(format!(
                    "{}: account for {id} in the {} (or route the gap through recovery) before ending the turn",
                    role(slot.phase),
                    slot.name()
                )),
            );
        }
    }
}

#[cfg(test)]
mod tests;
