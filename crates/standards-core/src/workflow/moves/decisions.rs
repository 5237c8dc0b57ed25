//! The user's decisions on an active cycle (promotion, completion policy,
//! verification cadence, a blocking question) and the next cycle's mode.

use crate::model::fields::render_code_span;
use crate::model::state::StateDoc;
use crate::model::state_edit::{Field as F, StateEditor as Editor, OBLIGATIONS, RECOVERY};
use crate::model::vocab::{CompletionPolicy, CycleMode, HandoffKind, ProjectMode, WorkflowState};
use crate::records::plan::Cadence;
use crate::workflow::moves::start::{
    begin, plan_start, with_policy_instruction, StartPlan, StartRequest,
};
use crate::workflow::moves::{active_mode, refuse_blocked, require_reason};
use crate::workflow::transition::{
    finish, Facts, MoveKind, Refusal, Transition, CHANGE_POLICY, CHOOSE_NEXT_MODE, PROMOTION,
    STATE_UPDATE_RULES, SWITCH_CADENCE,
};

use WorkflowState as W;

/// `promote --reason <text>`: expedited to standard (expedited.md).
pub fn promote(doc: &StateDoc, facts: &Facts, reason: &str) -> Result<Transition, Refusal> {
    let mode = active_mode(doc, "a promotion")?;
    let reason = require_reason(reason, "the promotion reason")?;
    if mode != CycleMode::Expedited {
        return Err(Refusal::new(
            PROMOTION,
            format!("only an EXPEDITED cycle can be promoted, and this cycle is {mode}"),
        ));
    }
    if facts.project != ProjectMode::Brownfield {
        return Err(Refusal::new(
            PROMOTION,
            "an expedited cycle exists only in a BROWNFIELD project",
        ));
    }
    let from = doc.workflow_state.value;
    let mut e = Editor::new(doc);
    // Frames whose owner has not finished become obligations, in stack order.
    let open: Vec<(String, String, String)> = doc
        .recovery
        .entries
        .iter()
        .filter(|f| f.get("RerunThrough").unwrap_or("NONE") == "NONE")
        .map(|f| {
            (
                f.get("Owner").unwrap_or("NONE").to_string(),
                f.get("FailureType").unwrap_or("NONE").to_string(),
                f.get("Reason").unwrap_or("NONE").to_string(),
            )
        })
        .collect();
    e.truncate(RECOVERY, 0)?;
    let existing = doc.obligations.entries.len();
    let entries: Vec<String> = open
        .iter()
        .enumerate()
        .map(|(i, (owner, failure, why))| {
            format!(
                "### Obligation {}\n\n`Owner`: {} `FailureType`: {}\n`Reason`: {}\n",
                existing + i + 1,
                render_code_span(owner),
                render_code_span(failure),
                render_code_span(why)
            )
        })
        .collect();
    e.append_entries(OBLIGATIONS, &entries)?;
    e.set(F::CycleMode, "STANDARD")?
        .set(F::CompletionPolicy, "FULL_DELIVERABLE")?
        .set(F::PromotionReason, &reason)?
        .handoff(HandoffKind::Promote, from.as_str(), None, &reason)?
        .set(F::WorkflowState, "AUDITING")?;
    let summary = format!(
        "Promoted the cycle to STANDARD (FULL_DELIVERABLE) at `AUDITING`; {} recovery frame(s) became outstanding obligations.",
        open.len()
    );
    finish(MoveKind::Promote, doc, e, summary)
}

/// `policy full-deliverable|implementation-reviewed` (user-decisions.md,
/// Change completion policy).
pub fn policy(
    doc: &StateDoc,
    facts: &Facts,
    policy: CompletionPolicy,
    user_reason: Option<&str>,
) -> Result<Transition, Refusal> {
    if policy == CompletionPolicy::None {
        return Err(Refusal::new(
            CHANGE_POLICY,
            "`NONE` is not a policy to choose; choose FULL_DELIVERABLE or IMPLEMENTATION_REVIEWED",
        ));
    }
    if !doc.has_active_cycle() {
        return Err(Refusal::new(
            CHANGE_POLICY,
            "there is no active cycle: a policy is chosen when a cycle starts, and no policy preference is saved for the next one",
        )
        .hint("pass it to `git standards start --request \"<request>\" --policy <policy>`"));
    }
    match doc.cycle_mode.value {
        CycleMode::Standard => {}
        CycleMode::Expedited => {
            return Err(Refusal::new(
                CHANGE_POLICY,
                "an EXPEDITED cycle keeps `CompletionPolicy: NONE` and runs through implementation review to sign-off; a standard policy first needs a promotion",
            )
            .hint("the user authorizes `git standards promote --reason \"<reason>\"`, which sets FULL_DELIVERABLE"))
        }
        other => {
            return Err(Refusal::new(
                CHANGE_POLICY,
                format!("a {other} cycle keeps `CompletionPolicy: NONE` and its fixed route; a standard policy neither converts it nor removes a phase"),
            ))
        }
    }
    let old = doc.active_work.completion_policy.value;
    let from = doc.workflow_state.value;
    if old == policy {
        return finish(
            MoveKind::Policy,
            doc,
            Editor::new(doc),
            format!("The completion policy is already {policy}; nothing changed."),
        );
    }
    if doc.recovery.active.value
        || !doc.recovery.entries.is_empty()
        || doc.obligations.active.value
        || !doc.obligations.entries.is_empty()
    {
        return Err(Refusal::new(
            CHANGE_POLICY,
            "a policy change needs an empty recovery stack and no outstanding obligations",
        )
        .hint("finish the recovery first; the policy is kept"));
    }
    let target = match from {
        W::Scoping
        | W::Architecting
        | W::Auditing
        | W::Developing
        | W::Testing
        | W::ReviewingImplementation => from,
        W::Documenting if policy == CompletionPolicy::ImplementationReviewed => {
            let h = doc.handoff.kind();
            let hf = doc.handoff.from_state();
            let entered = matches!(
                (h, hf),
                (Some(HandoffKind::Forward), Some(W::ReviewingImplementation))
                    | (Some(HandoffKind::CompletionChange), Some(W::AwaitingUserSignoff))
            );
            if !entered || facts.documentation_started {
                return Err(Refusal::new(
                    CHANGE_POLICY,
                    "from `DOCUMENTING` the shorter policy is possible only before the Documenter starts its normal work (entered by a FORWARD from REVIEWING_IMPLEMENTATION or a COMPLETION_CHANGE, with no documentation record yet)",
                ));
            }
            W::ReviewingImplementation
        }
        W::AwaitingUserSignoff if policy == CompletionPolicy::FullDeliverable => W::Documenting,
        _ => {
            return Err(Refusal::new(
                CHANGE_POLICY,
                format!("`{from}` has no permitted route from {old} to {policy}: the policy can change in SCOPING through REVIEWING_IMPLEMENTATION, from FULL_DELIVERABLE to IMPLEMENTATION_REVIEWED in an unstarted DOCUMENTING, or back to FULL_DELIVERABLE at AWAITING_USER_SIGNOFF"),
            ))
        }
    };
    if target != from {
        refuse_blocked(doc, "a state-changing policy change")?;
    }
    let mut request = with_policy_instruction(&doc.active_work.request.value, policy);
    if let Some(r) = user_reason.map(str::trim).filter(|r| !r.is_empty()) {
        request = format!("{} Reason given: {r}]", request.trim_end_matches(']'));
    }
    let mut e = Editor::new(doc);
    e.set(F::CompletionPolicy, policy.as_str())?
        .set(F::Request, &request)?;
    let summary = if target != from {
        let reason = format!("Completion policy changed from {old} to {policy}.");
        e.handoff(HandoffKind::CompletionChange, from.as_str(), None, &reason)?
            .set(F::WorkflowState, target.as_str())?;
        format!("Changed the completion policy from {old} to {policy}: `{from}` -> `{target}` (COMPLETION_CHANGE).")
    } else {
        format!("Changed the completion policy from {old} to {policy}; the state stays `{from}`.")
    };
    finish(MoveKind::Policy, doc, e, summary)
}

/// `cadence incremental|after-implementation` (user-decisions.md, Switch
/// verification cadence): records the pending request for the Developer.
/// A promotion a user decision authorizes, recording with it what the
/// decision changed: the reworked request, or the pending cadence.
pub(crate) fn promote_with(
    doc: &StateDoc,
    facts: &Facts,
    reason: &str,
    request: Option<&str>,
    pending_cadence: Option<&str>,
) -> Result<Transition, Refusal> {
    let promoted = promote(doc, facts, reason)?;
    let mut e = Editor::new(&promoted.doc);
    if let Some(request) = request {
        e.set(F::Request, request)?;
    }
    if let Some(cadence) = pending_cadence {
        e.set(F::PendingCadence, cadence)?;
    }
    let mut summary = promoted.summary;
    if request.is_some() {
        summary.push_str(" The reworked request is recorded.");
    }
    if let Some(cadence) = pending_cadence {
        summary.push_str(&format!(" The cadence {cadence} stays pending."));
    }
    finish(MoveKind::Promote, doc, e, summary)
}

pub fn cadence(doc: &StateDoc, facts: &Facts, cadence: Cadence) -> Result<Transition, Refusal> {
    let mode = active_mode(doc, "a cadence switch")?;
    match mode {
        CycleMode::Documentation => {
            return Err(Refusal::new(
                SWITCH_CADENCE,
                "a DOCUMENTATION cycle schedules no implementation or Tester assessment, so it has no verification cadence",
            ))
        }
        CycleMode::Expedited if cadence == Cadence::Incremental => {
            // Switch verification cadence (step 1): "an explicit `INCREMENTAL`
            // request authorizes Expedited Promotion ... Keep the request
            // pending through the promotion".
            return promote_with(
                doc,
                facts,
                "The user requested INCREMENTAL verification, which the expedited path does not allow.",
                None,
                Some(Cadence::Incremental.as_str()),
            );
        }
        _ => {}
    }
    let from = doc.workflow_state.value;
    let recovering = doc.recovery.active.value || !doc.recovery.entries.is_empty();
    let past = matches!(
        from,
        W::ReviewingImplementation
            | W::Documenting
            | W::ReviewingFinal
            | W::Synchronizing
            | W::AwaitingUserSignoff
    );
    let effective = facts
        .effective_cadence
        .unwrap_or(Cadence::AfterImplementation);
    let (value, summary) = if mode == CycleMode::Expedited {
        (
            "NONE",
            "An expedited cycle always verifies after implementation; no switch is pending."
                .to_string(),
        )
    } else if past && !recovering {
        ("NONE", format!("Nothing is left to schedule in `{from}`, so the switch has no effect; any pending request was cleared."))
    } else if facts.effective_cadence.is_some() && effective == cadence {
        ("NONE", format!("{} is already the effective cadence; any pending request for the other cadence was cleared.", cadence.as_str()))
    } else {
        (
            cadence.as_str(),
            format!(
                "Recorded the pending cadence {}; the Developer applies it at the next safe point.",
                cadence.as_str()
            ),
        )
    };
    let mut e = Editor::new(doc);
    e.set(F::PendingCadence, value)?;
    finish(MoveKind::Cadence, doc, e, summary)
}

/// `block --on <question>`: a blocking user question (State-update rules 3).
pub fn block(doc: &StateDoc, question: &str) -> Result<Transition, Refusal> {
    active_mode(doc, "a blocking question")?;
    let question = require_reason(question, "the question")?;
    let current = &doc.active_work.blocked_on.value;
    if current != "NONE" {
        return Err(Refusal::new(
            STATE_UPDATE_RULES,
            format!("the cycle is already blocked on: {current}"),
        )
        .hint("record one question at a time: clear it with `git standards unblock` after the answer, or ask both in one `--on`"));
    }
    let mut e = Editor::new(doc);
    e.set(F::BlockedOn, &question)?;
    finish(
        MoveKind::Block,
        doc,
        e,
        format!("Recorded the blocking question: {question}"),
    )
}

/// `unblock`: clears `BlockedOn`; before a cycle, drops the blocked request.
pub fn unblock(doc: &StateDoc) -> Result<Transition, Refusal> {
    let mut e = Editor::new(doc);
    let summary = if doc.has_active_cycle() && doc.active_work.blocked_on.value != "NONE" {
        e.set(F::BlockedOn, "NONE")?;
        "Cleared the blocking question.".to_string()
    } else if !doc.has_active_cycle() && doc.pending_cycle_blocked_on.value != "NONE" {
        e.set(F::PendingCycleRequest, "UNSET")?
            .set(F::PendingCycleBlockedOn, "NONE")?;
        "Dropped the blocked next-cycle request; no cycle was started.".to_string()
    } else {
        return Err(Refusal::new(
            STATE_UPDATE_RULES,
            "nothing is blocked: `BlockedOn` and `PendingCycleBlockedOn` are both `NONE`",
        ));
    };
    finish(MoveKind::Unblock, doc, e, summary)
}

/// `next-mode <mode>` (user-decisions.md, Choose the next cycle's mode): the
/// user's preference for the next cycle, written to `PendingCycleMode`
/// (`UNSET` withdraws it). Only while no cycle is active: the section allows
/// it "while no cycle is active" or before the first cycle received its
/// request, Cycle Modes rule 1 requires the pending fields clear when a cycle
/// ends, and rule 6 ("selecting a mode for the next cycle never changes an
/// active cycle") is read as forbidding any effect on the active cycle, not
/// as allowing a preference to be queued during it. A GREENFIELD project
/// accepts only `STANDARD` (rule 3). When a request waits in
/// `PendingCycleRequest`, the checks of **Start a cycle** run again on it with
/// the new preference: it starts (with `id`) when they pass, and otherwise
/// stays saved with the decision the user must make.
pub fn next_mode(
    doc: &StateDoc,
    facts: &Facts,
    mode: CycleMode,
    cancelled_left_no_changes: bool,
    id: &str,
) -> Result<Transition, Refusal> {
    if doc.has_active_cycle() {
        return Err(Refusal::new(
            CHOOSE_NEXT_MODE,
            format!(
                "the cycle `{}` is active in `{}`: a next-cycle mode is chosen only while no cycle is active, and choosing it never changes the active cycle (Cycle Modes rule 6)",
                doc.active_work.id.value, doc.workflow_state.value
            ),
        )
        // `signoff` works only at sign-off readiness: elsewhere it is not named.
        .hint(match (doc.cycle_mode.value, doc.workflow_state.value == W::AwaitingUserSignoff) {
            (CycleMode::Expedited, true) => "choose it after the user signs off (`git standards signoff --reply \"<the user's reply>\"`) or cancels (`git standards cancel`); an expedited cycle that needs the standard guarantees is promoted (`git standards promote --reason \"<why>\"`)",
            (CycleMode::Expedited, false) => "choose it after the cycle is signed off at `AWAITING_USER_SIGNOFF` or cancelled (`git standards cancel`); an expedited cycle that needs the standard guarantees is promoted (`git standards promote --reason \"<why>\"`)",
            (_, true) => "choose it after the user signs the cycle off (`git standards signoff --reply \"<the user's reply>\"`) or cancels it (`git standards cancel`)",
            (_, false) => "choose it after the cycle is signed off at `AWAITING_USER_SIGNOFF` or cancelled (`git standards cancel`)",
        }));
    }
    if facts.project == ProjectMode::Greenfield
        && !matches!(mode, CycleMode::Standard | CycleMode::Unset)
    {
        return Err(Refusal::new(
            CHOOSE_NEXT_MODE,
            format!("a GREENFIELD project supports only STANDARD cycles, so the preference `{mode}` cannot be saved (Cycle Modes rule 3); nothing was saved"),
        )
        .hint("choose `git standards next-mode standard`, or leave the preference unset"));
    }
    let current = doc.pending_cycle_mode.value;
    let mut e = Editor::new(doc);
    e.set(F::PendingCycleMode, mode.as_str())?;
    let chosen = if mode == CycleMode::Unset {
        format!("Withdrew the next-cycle mode preference `{current}`")
    } else {
        format!("Saved `{mode}` as the next cycle's mode")
    };
    if current == mode {
        let summary = format!("`PendingCycleMode` is already `{mode}`; nothing changed.");
        return finish(MoveKind::NextMode, doc, e, summary);
    }
    if doc.pending_cycle_request.value == "UNSET" {
        return finish(MoveKind::NextMode, doc, e, format!("{chosen}."));
    }
    // A saved request is checked again with the new preference.
    let with_mode = e.build()?;
    let request = StartRequest {
        request: None,
        mode: None,
        policy: None,
        cancelled_left_no_changes,
    };
    match plan_start(&with_mode, facts, &request) {
        Ok(StartPlan::Ready(b)) => {
            let mut t = begin(&with_mode, &b, id)?;
            t.summary = format!(
                "{chosen}; the saved request now passes the checks of Start a cycle. {}",
                t.summary
            );
            Ok(t)
        }
        Ok(StartPlan::Blocked(t)) => Ok(Transition {
            kind: MoveKind::NextMode,
            before: doc.workflow_state.value,
            after: t.doc.workflow_state.value,
            changed: t.doc.render() != doc.render(),
            summary: format!(
                "{chosen}; the saved request still cannot start: {}",
                t.doc.pending_cycle_blocked_on.value
            ),
            doc: t.doc,
        }),
        // The saved request carries explicit choices only the user can
        // revise: the preference is saved and the request keeps waiting.
        Err(r) => Ok(Transition {
            kind: MoveKind::NextMode,
            before: doc.workflow_state.value,
            after: with_mode.workflow_state.value,
            changed: true,
            summary: format!(
                "{chosen}; the saved request still waits for the user's decision: {}",
                r.message
            ),
            doc: with_mode,
        }),
    }
}
