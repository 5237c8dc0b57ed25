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
mod tests {
    use super::super::fixtures::*;
    use super::*;
    use crate::model::tree::MemTree;

    fn cp(tree: &MemTree) -> Vec<(&'static str, String)> {
        problems_with_prefix(tree, "CP")
    }

    fn hk(tree: &MemTree) -> Vec<(&'static str, String)> {
        problems(tree, true)
            .into_iter()
            .filter(|(r, _)| r.starts_with("HK"))
            .collect()
    }

    fn situation(state: WorkflowState) -> Situation {
        Situation {
            mode: CycleMode::Standard,
            policy: CompletionPolicy::FullDeliverable,
            state,
            kind: Some(HandoffKind::Forward),
            from: None,
            recovering: false,
            full_boundary: state.rank() >= 3,
            corrective_return: false,
            just_left: None,
            at_turn_end: false,
        }
    }

    const REPORT: &str =
        ".standards/docs/verification/add-user-search-20260927T190146Z-7bef0f04.md";

    #[test]
    fn sc_pol_001_to_007_required_phases() {
        use CompletionPolicy as P;
        // SC-POL-001: STANDARD / IMPLEMENTATION_REVIEWED, in this order.
        let ir = vec![
            W::Scoping,
            W::Architecting,
            W::Auditing,
            W::Developing,
            W::Testing,
            W::ReviewingImplementation,
        ];
        assert_eq!(
            required_phases(CycleMode::Standard, P::ImplementationReviewed),
            Some(ir.clone())
        );
        // SC-POL-002: FULL_DELIVERABLE adds the three tail phases.
        let mut fd = ir;
        fd.extend([W::Documenting, W::ReviewingFinal, W::Synchronizing]);
        assert_eq!(
            required_phases(CycleMode::Standard, P::FullDeliverable),
            Some(fd)
        );
        // SC-POL-003
        assert_eq!(
            required_phases(CycleMode::Expedited, P::None),
            Some(vec![W::Developing, W::ReviewingImplementation])
        );
        // SC-POL-004
        assert_eq!(
            required_phases(CycleMode::Documentation, P::None),
            Some(DOCUMENTATION_PHASES.to_vec())
        );
        // SC-POL-005: invalid pairs give no answer, never an inferred policy.
        // (STANDARD, missing), (STANDARD, UNKNOWN) and (UNKNOWN, ...) cannot
        // be typed here: STATE.md parsing refuses them (ST-007 / ST-004, see
        // the fixture cases SC-POL-005-*).
        for (m, p) in [
            (CycleMode::Standard, P::None),
            (CycleMode::Expedited, P::FullDeliverable),
            (CycleMode::Expedited, P::ImplementationReviewed),
            (CycleMode::Documentation, P::FullDeliverable),
            (CycleMode::Documentation, P::ImplementationReviewed),
        ] {
            assert_eq!(required_phases(m, p), None, "{m} {p}");
        }
        // SC-POL-006: no cycle mode, no required phases, whatever the policy.
        for p in P::ALL {
            assert_eq!(required_phases(CycleMode::Unset, *p), Some(Vec::new()));
        }
        // SC-POL-007: every call returns a fresh list.
        let mut first = required_phases(CycleMode::Expedited, P::None).unwrap_or_default();
        first.clear();
        assert_eq!(
            required_phases(CycleMode::Expedited, P::None).map(|v| v.len()),
            Some(2)
        );
    }

    #[test]
    fn sc_pol_008_required_records() {
        // SC-POL-008: five fixed records per ID, whatever the policy; the
        // required ones follow the policy, in inventory order.
        //
        // Known difference: the reference's inventory puts the final-deliverable
        // review before the documentation record. Our list follows
        // check-rules §1.14 (verification, implementation review,
        // documentation, final-deliverable review, synchronization), the order
        // CP-000 reports in; the records themselves are the same. The
        // inventory is a constant, so it cannot depend on the policy.
        use CompletionPolicy as P;
        let names = |m, p| -> Vec<&str> { required_records(m, p).iter().map(Slot::name).collect() };
        let all: Vec<_> = FIXED_RECORDS
            .iter()
            .map(|s| (s.name(), s.path("x")))
            .collect();
        assert_eq!(
            all,
            [
                (
                    "verification report",
                    ".standards/docs/verification/x.md".into()
                ),
                (
                    "implementation review",
                    ".standards/docs/reviews/x/implementation.md".into()
                ),
                (
                    "documentation record",
                    ".standards/docs/documentation/x.md".into()
                ),
                (
                    "final-deliverable review",
                    ".standards/docs/reviews/x/final-deliverable.md".into()
                ),
                (
                    "synchronization record",
                    ".standards/docs/synchronization/x.md".into()
                ),
            ]
        );
        assert_eq!(names(CycleMode::Standard, P::FullDeliverable).len(), 5);
        assert_eq!(
            names(CycleMode::Standard, P::ImplementationReviewed),
            ["verification report", "implementation review"]
        );
        assert_eq!(
            names(CycleMode::Expedited, P::None),
            ["implementation review"]
        );
        assert_eq!(
            names(CycleMode::Documentation, P::None),
            [
                "documentation record",
                "final-deliverable review",
                "synchronization record"
            ]
        );
        assert!(names(CycleMode::Standard, P::None).is_empty());
    }

    #[test]
    fn demands_follow_the_phase_ranks() {
        let at = |ws| -> Vec<&str> {
            demands(&situation(ws))
                .iter()
                .map(|d| d.slot.name())
                .collect()
        };
        assert!(at(W::Testing).is_empty());
        assert_eq!(at(W::ReviewingImplementation), ["verification report"]);
        assert_eq!(
            at(W::Documenting),
            ["verification report", "implementation review"]
        );
        assert_eq!(at(W::AwaitingUserSignoff).len(), 5);
        // A STANDARD documentation record need only exist before sign-off readiness (DC-002).
        let doc = demands(&situation(W::ReviewingFinal))
            .into_iter()
            .find(|d| d.slot.artifact == ArtifactType::Documentation);
        assert_eq!(doc.map(|d| d.must_be_complete), Some(false));
        // Recovery outside the full boundary suspends the procedure.
        let mut s = situation(W::Developing);
        s.recovering = true;
        assert!(demands(&s).is_empty());
        // At the full boundary during recovery only the verification report counts.
        let mut s = situation(W::AwaitingUserSignoff);
        s.recovering = true;
        s.kind = Some(HandoffKind::Resume);
        let names: Vec<_> = demands(&s).iter().map(|d| d.slot.name()).collect();
        assert_eq!(names, ["verification report"]);
    }

    #[test]
    fn valid_bases_are_complete() {
        for (name, tree) in [
            ("f-std", f_std()),
            ("f-ir", f_ir()),
            ("f-doc", f_doc()),
            ("f-life-green", f_life_green()),
        ] {
            assert_eq!(cp(&tree), [], "{name}");
            assert_eq!(problems(&tree, true), [], "{name} at turn end");
        }
    }

    #[test]
    fn cp_001_and_002_generic_gates() {
        // SC-POL-024: the report deleted, then the review deleted.
        let mut t = f_ir();
        t.remove(REPORT);
        assert_eq!(cp(&t), [("CP-001", REPORT.to_string())]);
        let mut t = f_ir();
        t.remove(IR_REVIEW);
        assert_eq!(cp(&t), [("CP-001", IR_REVIEW.to_string())]);
        // SC-POL-025: FULL_DELIVERABLE needs the three tail records.
        let t = state(
            f_ir(),
            &[
                ("CompletionPolicy", "FULL_DELIVERABLE"),
                ("From", "SYNCHRONIZING"),
            ],
        );
        let rules: Vec<_> = cp(&t).into_iter().map(|(r, _)| r).collect();
        assert_eq!(rules, ["CP-001", "CP-001", "CP-001"]);
        // SC-POL-027 / SC-POL-029
        let t = edit(f_ir(), REPORT, |s| set_field(&s, "Status", "IN_PROGRESS"));
        assert_eq!(cp(&t), [("CP-002", REPORT.to_string())]);
        let t = edit(f_ir(), IR_REVIEW, |s| set_field(&s, "Status", "BLOCKED"));
        assert_eq!(cp(&t), [("CP-002", IR_REVIEW.to_string())]);
        // Something else at the path is PV's to report.
        let mut t = f_ir();
        t.insert(REPORT, "# notes\n");
        assert_eq!(cp(&t), []);
    }

    #[test]
    fn cp_003_direct_return_to_signoff() {
        for (from, dir) in [
            ("DOCUMENTING", "documentation"),
            ("SYNCHRONIZING", "synchronization"),
        ] {
            let t = state(f_ir(), &[("Kind", "RESUME"), ("From", from)]);
            assert_eq!(cp(&t), [("CP-003", std_path(dir))], "{from}");
        }
        let t = state(f_ir(), &[("Kind", "RESUME"), ("From", "REVIEWING_FINAL")]);
        assert_eq!(cp(&t), [("CP-003", std_final_review_path())]);
        // SC-POL-055: a RESUME from implementation review itself needs nothing more.
        let t = state(
            f_ir(),
            &[("Kind", "RESUME"), ("From", "REVIEWING_IMPLEMENTATION")],
        );
        assert_eq!(cp(&t), []);
    }

    #[test]
    fn cp_004_completion_change() {
        let change = |ws: &str, from: &str, policy: &str| {
            state(
                f_ir(),
                &[
                    ("WorkflowState", ws),
                    ("CompletionPolicy", policy),
                    ("Kind", "COMPLETION_CHANGE"),
                    ("From", from),
                ],
            )
        };
        // SC-POL-034 / SC-POL-035
        let into_review = change(
            "REVIEWING_IMPLEMENTATION",
            "DOCUMENTING",
            "IMPLEMENTATION_REVIEWED",
        );
        let into_docs = change("DOCUMENTING", "AWAITING_USER_SIGNOFF", "FULL_DELIVERABLE");
        assert_eq!(cp(&into_review), []);
        assert_eq!(cp(&into_docs), []);
        // SC-POL-036 / SC-POL-037
        let open = |t: MemTree| edit(t, IR_REVIEW, |s| set_field(&s, "Status", "IN_PROGRESS"));
        assert_eq!(cp(&open(into_review.clone())), []);
        assert_eq!(cp(&open(into_docs)), [("CP-004", IR_REVIEW.to_string())]);
        // SC-POL-049: the review deleted.
        let mut t = into_review;
        t.remove(IR_REVIEW);
        assert_eq!(cp(&t), [("CP-004", IR_REVIEW.to_string())]);
    }

    #[test]
    fn cp_005_and_006_documentation_returns() {
        let doc_record = doc_path("documentation");
        let open =
            |t: MemTree, path: &str| edit(t, path, |s| set_field(&s, "Status", "IN_PROGRESS"));
        // SC-DOC-052: a corrective return may leave the source record IN_PROGRESS ...
        let t = state(
            open(open(f_doc(), &doc_record), &doc_final_review()),
            &[
                ("WorkflowState", "REVIEWING_FINAL"),
                ("Kind", "RESUME"),
                ("From", "DOCUMENTING"),
            ],
        );
        assert_eq!(cp(&t), []);
        // ... SC-DOC-053: but not without it.
        let mut gone = t.clone();
        gone.remove(&doc_record);
        assert_eq!(cp(&gone), [("CP-005", doc_record.clone())]);
        // SC-DOC-049/050: a RESUME from REVIEWING_FINAL needs the final review COMPLETE.
        let t = state(
            open(f_doc(), &doc_final_review()),
            &[
                ("WorkflowState", "DOCUMENTING"),
                ("Kind", "RESUME"),
                ("From", "REVIEWING_FINAL"),
            ],
        );
        assert_eq!(cp(&t), [("CP-006", doc_final_review())]);
        let mut gone = t;
        gone.remove(&doc_final_review());
        assert_eq!(cp(&gone), [("CP-006", doc_final_review())]);
        // SC-DOC-012: FORWARD past DOCUMENTING needs the documentation record COMPLETE.
        let t = state(
            open(f_doc(), &doc_record),
            &[
                ("WorkflowState", "REVIEWING_FINAL"),
                ("From", "DOCUMENTING"),
            ],
        );
        assert_eq!(cp(&t), [("CP-002", doc_record)]);
    }

    #[test]
    fn cp_007_to_009_recorded_paths() {
        let none = |field: &str| state(f_std(), &[(field, "NONE")]);
        assert_eq!(cp(&none("Scope")), [("CP-007", STATE.to_string())]);
        assert_eq!(cp(&none("Architecture")), [("CP-008", STATE.to_string())]);
        assert_eq!(cp(&none("Development")), [("CP-009", STATE.to_string())]);
        // SC-DOC-011 / SC-DOC-047
        let t = state(f_doc(), &[("Scope", "NONE")]);
        assert!(cp(&t).contains(&("CP-007", STATE.to_string())));
        let t = state(
            f_doc(),
            &[
                ("WorkflowState", "AUDITING"),
                ("Kind", "RESUME"),
                ("From", "SCOPING"),
                ("Scope", "NONE"),
            ],
        );
        assert!(cp(&t).contains(&("CP-007", STATE.to_string())));
        let t = state(
            f_doc(),
            &[
                ("WorkflowState", "AUDITING"),
                ("Kind", "RESUME"),
                ("From", "ARCHITECTING"),
                ("Architecture", "NONE"),
            ],
        );
        assert!(cp(&t).contains(&("CP-008", STATE.to_string())));
    }

    #[test]
    fn cp_010_documentation_context() {
        let mut t = f_doc();
        t.remove(CONTEXT_PATH);
        assert_eq!(cp(&t), [("CP-010", CONTEXT_PATH.to_string())]);
        let mut t = f_doc();
        t.insert(CONTEXT_PATH, " \n\u{feff}\t\n");
        assert_eq!(cp(&t), [("CP-010", CONTEXT_PATH.to_string())]);
        // Not yet due while the audit runs.
        let mut t = state(
            f_doc(),
            &[
                ("WorkflowState", "AUDITING"),
                ("Kind", "INITIAL"),
                ("From", "NONE"),
            ],
        );
        t.remove(CONTEXT_PATH);
        assert!(!cp(&t).iter().any(|(r, _)| *r == "CP-010"));
    }

    #[test]
    fn cp_011_pending_cadence_at_the_boundary() {
        // SC-POL-052
        let t = state(f_ir(), &[("PendingVerificationCadence", "INCREMENTAL")]);
        assert_eq!(cp(&t), [("CP-011", STATE.to_string())]);
        let t = state(
            f_std(),
            &[
                ("WorkflowState", "TESTING"),
                ("PendingVerificationCadence", "INCREMENTAL"),
            ],
        );
        assert_eq!(cp(&t), []);
    }

    #[test]
    fn hk_004_to_006_holding() {
        let phases = [W::Testing, W::ReviewingImplementation, W::Documenting];
        // No recovery, DOCUMENTING after a FORWARD: plain check holds all three,
        // the hook spares the current state's own record (HK-004).
        let mut s = situation(W::Documenting);
        s.from = Some(W::ReviewingImplementation);
        s.just_left = s.from;
        let held = |s: &Situation| phases.map(|p| holding_rule(s, p));
        assert_eq!(held(&s), [Some("AC-010"); 3]);
        s.at_turn_end = true;
        assert_eq!(held(&s), [Some("AC-010"), Some("AC-010"), None]);
        // During recovery the plain check holds the current state's record, the
        // hook the record of the state the last handoff left (HK-005).
        let mut s = situation(W::Architecting);
        s.recovering = true;
        s.full_boundary = false;
        s.kind = Some(HandoffKind::Failure);
        s.from = Some(W::Testing);
        s.just_left = Some(W::Testing);
        assert_eq!(holding_rule(&s, W::Testing), None);
        s.at_turn_end = true;
        assert_eq!(holding_rule(&s, W::Testing), Some("HK-005"));
        // A USER_REWORK source is never held, and nothing is in SCOPING (HK-006).
        s.kind = Some(HandoffKind::UserRework);
        s.just_left = None;
        assert_eq!(holding_rule(&s, W::Testing), None);
        s.state = W::Scoping;
        assert_eq!(held_records(&s), []);
    }

    #[test]
    fn hk_007_partial_assessment_key() {
        let mut s = situation(W::Testing);
        assert_eq!(partial_assessment_rule(&s), Some("AC-011"));
        s.at_turn_end = true;
        assert_eq!(partial_assessment_rule(&s), None);
        s.state = W::Developing;
        s.just_left = Some(W::Testing);
        assert_eq!(partial_assessment_rule(&s), Some("HK-007"));
        s.mode = CycleMode::Documentation;
        assert_eq!(partial_assessment_rule(&s), None);
    }

    #[test]
    fn hk_008_suppressed_rules() {
        for id in ["VF-012", "VF-013", "VF-018", "VF-019", "VF-020"] {
            assert!(turn_end_suppresses(id));
        }
        for id in ["VF-011", "VF-014", "VF-016", "AC-010", "CP-002"] {
            assert!(!turn_end_suppresses(id));
        }
    }

    /// SC-HOOK base: F-STD + review + documentation record, both COMPLETE and
    /// covering AC-001/AC-002, with AC-005 added to the scope.
    fn hook_base() -> MemTree {
        let review = format!(
            "<!-- STANDARDS\nArtifact: REVIEW\nCycle: {STD_ID}\nReviewKind: IMPLEMENTATION\n-->\n\n# Review Report\n\n`Cycle`: `{STD_ID}` `ReviewKind`: `IMPLEMENTATION`\n`Status`: `COMPLETE` `User Style`: `NONE`\n\n## Contract and Evidence Assessment\n\nAC-001 and AC-002 are satisfied.\n"
        );
        let doc = format!(
            "<!-- STANDARDS\nArtifact: DOCUMENTATION\nCycle: {STD_ID}\n-->\n\n# Documentation Record\n\n`Cycle`: `{STD_ID}` `Status`: `COMPLETE`\n`Collaboration`: `AUTONOMOUS` `Target`: `ACTIVE_CHANGE` `Target Detail`:\n`The search feature of this cycle.` `User Style`: `NONE`\n\n## Documentation Work and Evidence\n\nAC-001 and AC-002 are documented in the guide.\n"
        );
        let mut t = edit(f_std(), &std_path("scope"), |s| {
            s.replace(
                "\n## Retired",
                "- `AC-005`: Results are paged.\n\n## Retired",
            )
        });
        t.insert(IR_REVIEW, review);
        t.insert(&std_path("documentation"), doc);
        t
    }

    /// `frames` as the Recovery section body.
    fn with_frames(tree: MemTree, frames: &[[&str; 6]]) -> MemTree {
        edit(tree, STATE, |s| {
            let start = s.find("## Recovery").unwrap_or(s.len());
            let end = s.find("## Outstanding Obligations").unwrap_or(s.len());
            let mut body = format!("## Recovery\n\n`Active`: `{}`\n", !frames.is_empty());
            for (i, [from, owner, ft, reason, resume, rerun]) in frames.iter().enumerate() {
                body.push_str(&format!(
                    "\n### Frame {}\n\n`From`: `{from}` `Owner`: `{owner}` `FailureType`: `{ft}`\n`Reason`: `{reason}` `ResumeAt`: `{resume}` `RerunThrough`: `{rerun}`\n",
                    i + 1
                ));
            }
            body.push('\n');
            format!("{}{body}{}", &s[..start], &s[end..])
        })
    }

    const RW: [&str; 6] = [
        "AWAITING_USER_SIGNOFF",
        "SCOPING",
        "SCOPING",
        "Paging was added.",
        "AWAITING_USER_SIGNOFF",
        "SYNCHRONIZING",
    ];

    #[test]
    fn sc_hook_024_failure_from_testing_holds_the_report() {
        let t = with_frames(
            state(
                hook_base(),
                &[
                    ("WorkflowState", "ARCHITECTING"),
                    ("Kind", "FAILURE"),
                    ("From", "TESTING"),
                    ("FailureType", "ARCHITECTURE"),
                ],
            ),
            &[
                RW,
                [
                    "TESTING",
                    "ARCHITECTING",
                    "ARCHITECTURE",
                    "A defect.",
                    "TESTING",
                    "NONE",
                ],
            ],
        );
        assert_eq!(hk(&t), [("HK-005", REPORT.to_string())]);
        // The plain check does not hold the report there.
        assert!(!problems(&t, false).iter().any(|(r, _)| r.starts_with("HK")));
    }

    #[test]
    fn turn_end_holds_duplicates_like_ac_010() {
        // AC-010 checks every own record, PV-007 duplicates included; at turn end
        // HK-005 takes over the held gap and must not drop the duplicate.
        let mut t = with_frames(
            state(
                hook_base(),
                &[
                    ("WorkflowState", "ARCHITECTING"),
                    ("Kind", "FAILURE"),
                    ("From", "TESTING"),
                    ("FailureType", "ARCHITECTURE"),
                ],
            ),
            &[
                RW,
                [
                    "TESTING",
                    "ARCHITECTING",
                    "ARCHITECTURE",
                    "A defect.",
                    "TESTING",
                    "NONE",
                ],
            ],
        );
        let copy = read(&t, REPORT);
        t.insert("archive/report.md", copy);
        let gaps: Vec<_> = problems(&t, true)
            .into_iter()
            .filter(|(r, _)| *r == "HK-005" || *r == "AC-010")
            .collect();
        assert_eq!(
            gaps,
            [
                ("HK-005", REPORT.to_string()),
                ("HK-005", "archive/report.md".to_string())
            ]
        );
        // The same for a partial assessment after the Tester's checkpoint (HK-007).
        let mut t = edit(
            state(
                f_std(),
                &[
                    ("WorkflowState", "DEVELOPING"),
                    ("Kind", "CHECKPOINT"),
                    ("From", "TESTING"),
                ],
            ),
            REPORT,
            |s| {
                set_field(
                    &set_field(&s, "Assessment Purpose", "INCREMENT"),
                    "Assessment Target",
                    "Increment 1",
                )
                .replace("| AC-002 | pending Documenter | pending |\n", "")
            },
        );
        let copy = read(&t, REPORT);
        t.insert("archive/report.md", copy);
        let gaps: Vec<_> = problems(&t, true)
            .into_iter()
            .filter(|(r, _)| *r == "HK-007" || *r == "AC-011")
            .collect();
        assert_eq!(
            gaps,
            [
                ("HK-007", REPORT.to_string()),
                ("HK-007", "archive/report.md".to_string())
            ]
        );
    }

    #[test]
    fn sc_hook_020_025_026_nothing_held() {
        // 020: TESTING after a FORWARD from DEVELOPING (no record of DEVELOPING to hold).
        let t = with_frames(
            state(
                hook_base(),
                &[
                    ("WorkflowState", "TESTING"),
                    ("Kind", "FORWARD"),
                    ("From", "DEVELOPING"),
                ],
            ),
            &[RW],
        );
        assert_eq!(hk(&t), []);
        // 025: a USER_REWORK source is not held.
        let t = with_frames(
            state(
                hook_base(),
                &[
                    ("WorkflowState", "DEVELOPING"),
                    ("Kind", "USER_REWORK"),
                    ("From", "TESTING"),
                    ("FailureType", "IMPLEMENTATION"),
                ],
            ),
            &[
                RW,
                [
                    "TESTING",
                    "DEVELOPING",
                    "IMPLEMENTATION",
                    "A defect.",
                    "TESTING",
                    "NONE",
                ],
            ],
        );
        assert_eq!(hk(&t), []);
        // 026: nothing is held in SCOPING.
        let t = with_frames(
            state(
                hook_base(),
                &[
                    ("WorkflowState", "SCOPING"),
                    ("Kind", "RESUME"),
                    ("From", "DOCUMENTING"),
                ],
            ),
            &[RW],
        );
        assert_eq!(hk(&t), []);
    }

    fn situation_of(tree: &MemTree, at_turn_end: bool) -> Situation {
        let mut sink = Sink::default();
        let cx = Cx::new(
            tree,
            None,
            crate::check::Options {
                at_turn_end,
                ..Default::default()
            },
            &mut sink,
        );
        Situation::of(&cx).expect("an active cycle")
    }

    #[test]
    fn sc_hook_022_023_reviewer_entry_holds_the_report_not_the_review() {
        // At the full boundary the report is AC-010's (held rule 1) in both
        // modes; the hook only spares the review, the current state's record.
        for kind in ["FORWARD", "RESUME"] {
            let t = with_frames(
                state(
                    hook_base(),
                    &[
                        ("WorkflowState", "REVIEWING_IMPLEMENTATION"),
                        ("Kind", kind),
                        ("From", "TESTING"),
                    ],
                ),
                &[RW],
            );
            let hook = situation_of(&t, true);
            assert_eq!(holding_rule(&hook, W::Testing), Some("AC-010"), "{kind}");
            assert_eq!(
                holding_rule(&hook, W::ReviewingImplementation),
                None,
                "{kind}"
            );
            assert_eq!(hk(&t), [], "{kind}");
        }
        // SC-HOOK-028: without recovery the plain check still holds the review.
        let t = state(
            hook_base(),
            &[
                ("WorkflowState", "REVIEWING_IMPLEMENTATION"),
                ("Kind", "RESUME"),
                ("From", "TESTING"),
            ],
        );
        let plain = situation_of(&t, false);
        assert_eq!(
            holding_rule(&plain, W::ReviewingImplementation),
            Some("AC-010")
        );
        assert_eq!(
            holding_rule(&situation_of(&t, true), W::ReviewingImplementation),
            None
        );
    }

    #[test]
    fn sc_hook_027_documenting_spares_only_the_documentation_record() {
        let t = state(
            hook_base(),
            &[
                ("WorkflowState", "DOCUMENTING"),
                ("Kind", "FORWARD"),
                ("From", "REVIEWING_IMPLEMENTATION"),
            ],
        );
        let hook = situation_of(&t, true);
        let held: Vec<_> = held_records(&hook)
            .iter()
            .map(|(s, r)| (s.name(), *r))
            .collect();
        assert_eq!(
            held,
            [
                ("verification report", "AC-010"),
                ("implementation review", "AC-010")
            ]
        );
        let plain: Vec<_> = held_records(&situation_of(&t, false))
            .iter()
            .map(|(s, _)| s.name())
            .collect();
        assert_eq!(
            plain,
            [
                "verification report",
                "implementation review",
                "documentation record"
            ]
        );
    }

    #[test]
    fn hk_007_partial_assessment_at_turn_end() {
        let t = edit(
            state(
                f_std(),
                &[
                    ("WorkflowState", "DEVELOPING"),
                    ("Kind", "CHECKPOINT"),
                    ("From", "TESTING"),
                ],
            ),
            REPORT,
            |s| {
                set_field(
                    &set_field(&s, "Assessment Purpose", "INCREMENT"),
                    "Assessment Target",
                    "Increment 1",
                )
                .replace("| AC-002 | pending Documenter | pending |\n", "")
            },
        );
        assert_eq!(hk(&t), [("HK-007", REPORT.to_string())]);
        assert!(!problems(&t, false).iter().any(|(r, _)| r.starts_with("HK")));
    }
}
