//! Starting a cycle (user-decisions.md, Start a cycle).

use crate::model::state::{Baseline, StateDoc};
use crate::model::state_edit::{Field as F, StateEditor as Editor, OBLIGATIONS, RECOVERY};
use crate::model::vocab::{CompletionPolicy, CycleMode, HandoffKind, ProjectMode, WorkflowState};
use crate::workflow::topology;
use crate::workflow::transition::{finish, Facts, MoveKind, Refusal, Transition, START_A_CYCLE};

use WorkflowState as W;

/// `start` options.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StartRequest {
    /// The request; `None` to use the saved `PendingCycleRequest`.
    pub request: Option<String>,
    pub mode: Option<CycleMode>,
    pub policy: Option<CompletionPolicy>,
    /// The user confirmed that the cancelled cycle left no project changes.
    pub cancelled_left_no_changes: bool,
}

/// What `start` decided before an ID exists.
#[derive(Debug, Clone)]
pub enum StartPlan {
    /// The mode is not legal: the request is saved as blocked (a transition
    /// of kind [`MoveKind::StartBlocked`]) with the decision the user must make.
    Blocked(Box<Transition>),
    /// The cycle can start; [`begin`] persists it once an ID exists.
    Ready(Begin),
}

/// A cycle that may start, everything decided but its ID.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Begin {
    pub request: String,
    pub mode: CycleMode,
    pub policy: CompletionPolicy,
    pub entry: WorkflowState,
    baseline: Vec<(String, String)>,
}

/// Steps 1–3 of **Start a cycle**: the reconciliation obligation, the mode,
/// and a block instead of a start when the mode is not legal.
pub fn plan_start(doc: &StateDoc, facts: &Facts, req: &StartRequest) -> Result<StartPlan, Refusal> {
    let installed = doc.active_work.id.value == "UNSET"
        && doc.active_work.request.value == "UNSET"
        && doc.cycle_mode.value == CycleMode::Unset;
    let ws = doc.workflow_state.value;
    if !(installed || ws.is_terminal()) {
        return Err(Refusal::new(
            START_A_CYCLE,
            format!(
                "a cycle is still active: `{}` in `{ws}`; a cycle starts only from the installed state, `SIGNED_OFF` or `CANCELLED`",
                doc.active_work.id.value
            ),
        )
        // `signoff` works only at sign-off readiness: elsewhere it is not named.
        .hint(if ws == W::AwaitingUserSignoff {
            "finish it (the user signs it off: `git standards signoff --reply \"<the user's reply>\"`) or cancel it (`git standards cancel`) first"
        } else {
            "finish it (the roles carry it to `AWAITING_USER_SIGNOFF`, where the user signs it off) or cancel it (`git standards cancel`) first"
        }));
    }
    let saved = &doc.pending_cycle_request.value;
    let request = match &req.request {
        Some(r) if !r.trim().is_empty() => r.trim().to_string(),
        Some(_) => return Err(Refusal::new(START_A_CYCLE, "the request must not be empty")),
        None if saved != "UNSET" => match saved.find(CHOICES_TAG) {
            // The saved request carries the choices that blocked it: the
            // user decides anew, never by silent fallback to the default.
            Some(i) if req.mode.is_none() && req.policy.is_none() => {
                return Err(Refusal::new(
                    START_A_CYCLE,
                    format!(
                        "the saved request was blocked with the user's choices {}; it starts only once the user decides",
                        &saved[i..]
                    ),
                )
                .hint("pass the decided `--mode` and/or `--policy`, or drop the request with `git standards unblock`"))
            }
            Some(i) => {
                let end = saved[i..].find(']').map_or(saved.len(), |j| i + j + 1);
                format!("{}{}", saved[..i].trim_end(), &saved[end..])
            }
            None => saved.clone(),
        },
        None => {
            return Err(Refusal::new(
                START_A_CYCLE,
                "a cycle needs a request, and no request is saved in `PendingCycleRequest`",
            )
            .hint("pass `--request \"<what the user asked for>\"`"))
        }
    };

    // Step 1: the reconciliation obligation.
    let mut baseline: Vec<(String, String)> = match &doc.active_work.baseline {
        Baseline::None => Vec::new(),
        Baseline::Entries(e) => e
            .iter()
            .map(|e| (e.source_cycle.value.clone(), e.request.value.clone()))
            .collect(),
        Baseline::Malformed(why) => {
            return Err(Refusal::new(
                "Baseline Reconciliation Format",
                format!("`BaselineReconciliation` is malformed ({why}), so its obligations cannot be carried"),
            )
            .hint("correct the list by hand (`git standards check` reports it as ST-027), then retry"))
        }
    };
    if ws == W::Cancelled && !installed && !req.cancelled_left_no_changes {
        let id = doc.active_work.id.value.clone();
        if id != "UNSET" && baseline.iter().all(|(s, _)| *s != id) {
            baseline.push((id, doc.active_work.request.value.clone()));
        }
    }
    let reconciling = !baseline.is_empty();

    // Step 2: the mode.
    let pending = doc.pending_cycle_mode.value;
    let mode = req
        .mode
        .or((pending != CycleMode::Unset).then_some(pending))
        .unwrap_or(CycleMode::Standard);
    let source = if req.mode.is_some() {
        "the requested mode"
    } else if pending != CycleMode::Unset {
        "the pending mode preference"
    } else {
        "the default mode"
    };
    let mut conflict: Option<String> = None;
    if mode == CycleMode::Unset {
        return Err(Refusal::new(
            START_A_CYCLE,
            "`UNSET` is not a cycle mode to start",
        ));
    }
    if facts.project == ProjectMode::Greenfield && mode != CycleMode::Standard {
        conflict = Some(format!(
            "{source} `{mode}` is not supported in a GREENFIELD project, which supports only STANDARD cycles"
        ));
    } else if reconciling && mode == CycleMode::Expedited {
        conflict = Some(format!(
            "{source} `EXPEDITED` cannot start while baseline reconciliation is open for {} cancelled cycle(s): the cycle must start with the Auditor (STANDARD or DOCUMENTATION)",
            baseline.len()
        ));
    } else if let Some(p) = req.policy.filter(|_| mode != CycleMode::Standard) {
        conflict = Some(format!(
            "the completion policy `{p}` needs a STANDARD cycle, but {source} is `{mode}`"
        ));
    }
    if req.policy == Some(CompletionPolicy::None) {
        conflict = Some("`NONE` is not a completion policy a standard cycle can choose".into());
    }

    if let Some(question) = conflict {
        // Step 3: save the request and the decision; nothing else changes.
        let mut saved_request = request.clone();
        let mut notes = Vec::new();
        if let Some(m) = req.mode {
            notes.push(format!("requested mode {m}"));
        }
        if let Some(p) = req.policy {
            notes.push(format!("requested completion policy {p}"));
        }
        if !notes.is_empty() {
            saved_request = format!("{saved_request} {CHOICES_TAG}{}.]", notes.join(", "));
        }
        let question = format!(
            "{question}. Choose a supported mode, change or clear the preference, revise the request, or drop it."
        );
        let mut e = Editor::new(doc);
        e.set(F::PendingCycleRequest, &saved_request)?
            .set(F::PendingCycleBlockedOn, &question)?;
        let summary = format!("The cycle was not started: {question}");
        return finish(MoveKind::StartBlocked, doc, e, summary)
            .map(|t| StartPlan::Blocked(Box::new(t)));
    }

    let policy = match mode {
        CycleMode::Standard => req.policy.unwrap_or(CompletionPolicy::FullDeliverable),
        _ => CompletionPolicy::None,
    };
    let entry = if reconciling || mode == CycleMode::Documentation {
        W::Auditing
    } else if mode == CycleMode::Expedited {
        W::Developing
    } else {
        topology::installed_state(facts.project)
    };
    let request = if policy == CompletionPolicy::ImplementationReviewed {
        with_policy_instruction(&request, policy)
    } else {
        request
    };
    Ok(StartPlan::Ready(Begin {
        request,
        mode,
        policy,
        entry,
        baseline,
    }))
}

/// Step 5 of **Start a cycle**: persists the new cycle in one update.
pub fn begin(doc: &StateDoc, begin: &Begin, id: &str) -> Result<Transition, Refusal> {
    let first = doc.active_work.id.value == "UNSET";
    if id == doc.active_work.id.value || !crate::model::cycle_id::is_generated(id) {
        return Err(Refusal::new(
            "Cycle IDs",
            format!("`{id}` cannot be the new cycle's ID: every cycle gets a new ID from `git standards cycle new`"),
        ));
    }
    let mut e = Editor::new(doc);
    e.set(F::Id, id)?
        .set(F::Request, &begin.request)?
        .set(F::Scope, "NONE")?
        .set(F::Architecture, "NONE")?
        .set(F::Development, "NONE")?
        .set(F::PromotionReason, "NONE")?
        .set(F::AuditTarget, "NONE")?
        .set(F::BlockedOn, "NONE")?
        .set(F::PendingCadence, "NONE")?
        .set(F::CompletionPolicy, begin.policy.as_str())?
        .set(F::CycleMode, begin.mode.as_str())?
        .set(F::PendingCycleMode, "UNSET")?
        .set(F::PendingCycleRequest, "UNSET")?
        .set(F::PendingCycleBlockedOn, "NONE")?;
    e.set_baseline(&begin.baseline)?;
    let mut reason = if first {
        format!("First cycle started as a {} cycle.", begin.mode)
    } else {
        format!(
            "New {} cycle started after `{}`.",
            begin.mode, doc.workflow_state.value
        )
    };
    if !begin.baseline.is_empty() {
        reason.push_str(&format!(
            " Baseline reconciliation is open for {} cancelled cycle(s).",
            begin.baseline.len()
        ));
    }
    if first {
        e.handoff(HandoffKind::Initial, "NONE", None, &reason)?;
    } else {
        let from = doc.workflow_state.value.as_str();
        e.handoff(HandoffKind::NewCycle, from, None, &reason)?;
    }
    e.truncate(RECOVERY, 0)?;
    e.truncate(OBLIGATIONS, 0)?;
    e.set(F::WorkflowState, begin.entry.as_str())?;
    let summary = format!(
        "Started the {} cycle `{id}` ({}) in `{}`.",
        begin.mode, begin.policy, begin.entry
    );
    finish(MoveKind::Start, doc, e, summary)
}

pub(crate) const POLICY_TAG: &str = "[Completion policy: ";
/// Marks the explicit choices saved with a blocked request (Start a cycle, step 3).
const CHOICES_TAG: &str = "[Start choices: ";

/// The request with its policy instruction set to `policy` (an earlier one replaced).
pub(crate) fn with_policy_instruction(request: &str, policy: CompletionPolicy) -> String {
    let base = match request.find(POLICY_TAG) {
        Some(i) => {
            let end = request[i..].find(']').map_or(request.len(), |j| i + j + 1);
            format!("{}{}", request[..i].trim_end(), &request[end..])
        }
        None => request.to_string(),
    };
    format!(
        "{} {POLICY_TAG}{policy}, chosen explicitly by the user.]",
        base.trim_end()
    )
}
