//! PR rules that compare STATE.md and MODE.md with the last commit. Every
//! rule here is silent without a last commit, and each is written so that
//! legal transitions made since the last commit but not committed one by one
//! (a cancel and a new start, a sign-off, a reset) never trip it.

use std::collections::HashMap;

use crate::model::layout::{MODE_PATH, STATE_PATH};
use crate::model::mode;
use crate::model::state::{Baseline, BaselineEntry, Entry, StateDoc};
use crate::model::tree::Text;
use crate::model::vocab::{CycleMode, HandoffKind, ProjectMode, WorkflowState};

use super::super::{Cx, Sink};

pub fn check(cx: &Cx, sink: &mut Sink) {
    pr_020_mode_never_reverts(cx, sink);
    let (Some(now), Some(then)) = (cx.doc(), cx.committed_state.as_ref()) else {
        return;
    };
    pr_021_mode_changes_only_by_promotion(now, then, sink);
    pr_022_promotion_reason_kept(now, then, sink);
    pr_023_finished_cycle_frozen(now, then, sink);
    pr_024_no_new_obligations(now, then, sink);
    pr_025_promotion_converts_unfinished_frames(now, then, sink);
    pr_026_baseline_entries_carried(now, then, sink);
    pr_046_route_is_legal(cx, now, then, sink);
    pr_048_new_cycle_carries_no_policy(now, then, sink);
}

/// PR-048: a new cycle after a retained `CANCELLED` (or `SIGNED_OFF`) is
/// `FULL_DELIVERABLE` "unless the user explicitly chose
/// `IMPLEMENTATION_REVIEWED` for this request; keep such a choice ... in
/// `Active Work.Request` ... Never carry over the previous cycle's policy"
/// (Start a cycle, step 5). The last commit's finished cycle was under the
/// shorter policy, the new one is too, and its request records no choice.
fn pr_048_new_cycle_carries_no_policy(now: &StateDoc, then: &StateDoc, sink: &mut Sink) {
    use crate::model::vocab::CompletionPolicy as P;
    if !then.workflow_state.value.is_terminal()
        || then.active_work.completion_policy.value != P::ImplementationReviewed
        || !now.has_active_cycle()
        || now.handoff.kind() != Some(HandoffKind::NewCycle)
        || now.active_work.id.value == then.active_work.id.value
        || now.active_work.completion_policy.value != P::ImplementationReviewed
        || now
            .active_work
            .request
            .value
            .contains("IMPLEMENTATION_REVIEWED")
    {
        return;
    }
    sink.push_hinted(
        "PR-048",
        STATE_PATH,
        format!(
            "line {}: the new cycle kept `IMPLEMENTATION_REVIEWED` from the `{}` cycle before it, and its request records no user choice of that policy; a new cycle never carries over the previous cycle's policy",
            now.active_work.completion_policy.line,
            then.workflow_state.value
        ),
        Some("set `CompletionPolicy: FULL_DELIVERABLE`; when the user chooses the shorter policy for this request, the policy command records the choice in the request".into()),
    );
}

/// PR-046: "Forward handoff requires the current completion gate to pass"
/// (Handoff Rules 1), and sign-off requires sign-off readiness: a change of
/// `WorkflowState` since the last commit that advances the cycle is legal
/// only when the forward handoffs (and sign-off) that connect the two
/// states pass their gates on the records this snapshot holds. Several
/// legal moves in one commit stay legal; a hand edit that skips roles does
/// not (`verify` compares each commit with its first parent this way).
fn pr_046_route_is_legal(cx: &Cx, now: &StateDoc, then: &StateDoc, sink: &mut Sink) {
    let Some(project) = cx.mode else { return };
    let Some(s) = crate::workflow::transition::route::judge(cx.tree, project, now, then, cx.cache)
    else {
        return;
    };
    sink.push_hinted(
        "PR-046",
        STATE_PATH,
        format!(
            "`WorkflowState` went from `{}` in the last commit to `{}`, but no sequence of legal moves connects them with these records: at `{}` the move `{}` is refused: {}",
            s.from, s.to, s.at, s.step, s.refusal
        ),
        Some(format!(
            "restore the last commit's `WorkflowState` `{}` (and its handoff) in STATE.md; each skipped role then completes its record and records its own handoff once its gate passes",
            s.from
        )),
    );
}

/// The same cycle, nonterminal in both snapshots.
fn same_running_cycle(now: &StateDoc, then: &StateDoc) -> bool {
    now.has_active_cycle()
        && then.has_active_cycle()
        && now.active_work.id.value == then.active_work.id.value
}

/// PR-020: "The mode never reverts, including during recovery; only Project
/// Reset chooses it again." A reset leaves a fresh STATE.md (`Id: UNSET`),
/// so only a project that still carries a cycle is held to it.
fn pr_020_mode_never_reverts(cx: &Cx, sink: &mut Sink) {
    if cx.mode != Some(ProjectMode::Greenfield) {
        return;
    }
    let Some(head) = cx.head else { return };
    let was = match head.text(MODE_PATH) {
        Text::Ok(t) => mode::parse(&t).ok(),
        _ => None,
    };
    if was != Some(ProjectMode::Brownfield) {
        return;
    }
    if cx.doc().is_some_and(|d| d.active_work.id.value == "UNSET") {
        return; // a fresh state: Project Reset chose the mode again
    }
    sink.push_hinted(
        "PR-020",
        MODE_PATH,
        "MODE.md was `BROWNFIELD` in the last commit and is `GREENFIELD` now; the project mode never reverts, and only Project Reset chooses it again",
        Some("restore `BROWNFIELD` in MODE.md; to start over, preview a project reset with `git standards reset --dry-run`, then run `git standards reset --yes` (installation.md, Project Reset)".into()),
    );
}

/// PR-021: a running cycle changes its mode only by promotion, from
/// `EXPEDITED` to `STANDARD`, and "the promoted cycle never returns to
/// `EXPEDITED`". Changes into or out of `DOCUMENTATION` are GT-002's.
fn pr_021_mode_changes_only_by_promotion(now: &StateDoc, then: &StateDoc, sink: &mut Sink) {
    if !same_running_cycle(now, then) {
        return;
    }
    let (was, is) = (then.cycle_mode.value, now.cycle_mode.value);
    if was == is
        || was == CycleMode::Documentation
        || is == CycleMode::Documentation
        || (was == CycleMode::Expedited && is == CycleMode::Standard)
    {
        return;
    }
    sink.push_hinted(
        "PR-021",
        STATE_PATH,
        format!(
            "line {}: cycle `{}` was `{was}` in the last commit and is `{is}` now; a running cycle changes mode only by promotion from `EXPEDITED` to `STANDARD`, never back",
            now.cycle_mode.line, now.active_work.id.value
        ),
        Some(format!("restore `CycleMode: {was}`; other work needs a separate cycle")),
    );
}

/// PR-022: `PromotionReason` is preserved "for the remainder of the cycle",
/// and a cycle that went from `EXPEDITED` to `STANDARD` carries one.
fn pr_022_promotion_reason_kept(now: &StateDoc, then: &StateDoc, sink: &mut Sink) {
    if !same_running_cycle(now, then) {
        return;
    }
    let (was, is) = (
        &then.active_work.promotion_reason.value,
        &now.active_work.promotion_reason.value,
    );
    let message = if was != "NONE" && was != is {
        format!(
            "`Active Work.PromotionReason` was `{was}` in the last commit and is `{is}` now; the promotion reason stays for the rest of the cycle"
        )
    } else if then.cycle_mode.value == CycleMode::Expedited
        && now.cycle_mode.value == CycleMode::Standard
        && is == "NONE"
    {
        "the cycle was `EXPEDITED` in the last commit and is `STANDARD` now, but `Active Work.PromotionReason` is `NONE`; a promotion records its reason there".to_string()
    } else {
        return;
    };
    sink.push_hinted(
        "PR-022",
        STATE_PATH,
        format!("line {}: {message}", now.active_work.promotion_reason.line),
        Some("restore the promotion reason in `Active Work.PromotionReason`".into()),
    );
}

/// PR-023: a finished cycle stays finished: while the same terminal cycle is
/// recorded, its state, Active Work and handoff do not change ("a terminal
/// cycle cannot be reopened by changing its policy"; Active Work describes
/// the most recent cycle "until `NEW_CYCLE` replaces them"). The pending-cycle
/// fields may change: they describe the next cycle.
fn pr_023_finished_cycle_frozen(now: &StateDoc, then: &StateDoc, sink: &mut Sink) {
    let id = &now.active_work.id.value;
    if id == "UNSET"
        || *id != then.active_work.id.value
        || !now.workflow_state.value.is_terminal()
        || !then.workflow_state.value.is_terminal()
    {
        return;
    }
    let (a, b) = (&then.active_work, &now.active_work);
    let mut changed: Vec<&str> = Vec::new();
    if then.workflow_state.value != now.workflow_state.value {
        changed.push("WorkflowState");
    }
    let pairs: [(&str, &str, &str); 9] = [
        ("Request", &a.request.value, &b.request.value),
        (
            "CompletionPolicy",
            a.completion_policy.value.as_str(),
            b.completion_policy.value.as_str(),
        ),
        ("Scope", &a.scope.value, &b.scope.value),
        ("Architecture", &a.architecture.value, &b.architecture.value),
        ("Development", &a.development.value, &b.development.value),
        (
            "PromotionReason",
            &a.promotion_reason.value,
            &b.promotion_reason.value,
        ),
        ("AuditTarget", &a.audit_target.value, &b.audit_target.value),
        ("BlockedOn", &a.blocked_on.value, &b.blocked_on.value),
        (
            "PendingVerificationCadence",
            a.pending_verification_cadence.value.as_str(),
            b.pending_verification_cadence.value.as_str(),
        ),
    ];
    changed.extend(pairs.iter().filter(|(_, x, y)| x != y).map(|(n, _, _)| *n));
    if a.baseline != b.baseline {
        changed.push("BaselineReconciliation");
    }
    let (h0, h1) = (&then.handoff, &now.handoff);
    if h0.kind.value != h1.kind.value
        || h0.from.value != h1.from.value
        || h0.failure_type.value != h1.failure_type.value
        || h0.reason.value != h1.reason.value
    {
        changed.push("Handoff");
    }
    if changed.is_empty() {
        return;
    }
    sink.push_hinted(
        "PR-023",
        STATE_PATH,
        format!(
            "line {}: cycle `{id}` was already `{}` in the last commit, yet {} changed; a finished cycle's record stays as it ended until a new cycle replaces it",
            now.workflow_state.line,
            then.workflow_state.value,
            changed.join(", ")
        ),
        Some("restore those fields from the last commit; new work starts a new cycle (user-decisions.md, Start a cycle)".into()),
    );
}

type ObligationKey<'a> = (&'a str, &'a str, &'a str);

fn obligation_key(e: &Entry) -> ObligationKey<'_> {
    (
        e.get("Owner").unwrap_or(""),
        e.get("FailureType").unwrap_or(""),
        e.get("Reason").unwrap_or("").trim(),
    )
}

/// PR-024: "Only Expedited Promotion adds entries": once a running cycle is
/// `STANDARD` in the last commit, its obligations can only be removed, in
/// order, never added or reordered.
fn pr_024_no_new_obligations(now: &StateDoc, then: &StateDoc, sink: &mut Sink) {
    if !same_running_cycle(now, then) || then.cycle_mode.value != CycleMode::Standard {
        return;
    }
    // Position of each committed obligation; repeats keep their order.
    let mut committed: HashMap<ObligationKey, Vec<usize>> = HashMap::new();
    for (i, e) in then.obligations.entries.iter().enumerate() {
        committed.entry(obligation_key(e)).or_default().push(i);
    }
    let mut next_free: HashMap<ObligationKey, usize> = HashMap::new();
    let mut last = None;
    for e in &now.obligations.entries {
        let key = obligation_key(e);
        let used = next_free.entry(key).or_insert(0);
        let at = committed.get(&key).and_then(|v| v.get(*used)).copied();
        *used += 1;
        let problem = match at {
            None => {
                Some("is not in the last commit, and only Expedited Promotion adds obligations")
            }
            Some(i) if last.is_some_and(|l| i < l) => {
                Some("moved ahead of an older obligation; obligations keep their order")
            }
            _ => None,
        };
        if let Some(i) = at {
            last = Some(last.map_or(i, |l: usize| l.max(i)));
        }
        if let Some(why) = problem {
            sink.push_hinted(
                "PR-024",
                STATE_PATH,
                format!("line {}: Obligation {} {why}", e.line, e.label),
                Some("a defect found in a standard cycle is routed as a `FAILURE` with a recovery frame".into()),
            );
        }
    }
}

/// PR-025: promotion turns "every frame with `RerunThrough: NONE` into exactly
/// one obligation" keeping its Owner, FailureType and Reason, in stack order,
/// and converts no frame whose `RerunThrough` is set. Decided only when the
/// promotion left the very state the last commit shows, so the committed
/// stack is the one promoted.
fn pr_025_promotion_converts_unfinished_frames(now: &StateDoc, then: &StateDoc, sink: &mut Sink) {
    let id = &now.active_work.id.value;
    if !now.has_active_cycle()
        || !then.has_active_cycle()
        || *id != then.active_work.id.value
        || then.cycle_mode.value != CycleMode::Expedited
        || now.cycle_mode.value != CycleMode::Standard
        || now.handoff.kind() != Some(HandoffKind::Promote)
        || now.workflow_state.value != WorkflowState::Auditing
        || now.handoff.from_state() != Some(then.workflow_state.value)
    {
        return;
    }
    let expected: Vec<&Entry> = then
        .recovery
        .entries
        .iter()
        .filter(|f| f.get("RerunThrough") == Some("NONE"))
        .collect();
    let expected_keys: Vec<ObligationKey> = expected
        .iter()
        .map(|f| {
            (
                f.get("Owner").unwrap_or(""),
                f.get("FailureType").unwrap_or(""),
                f.get("Reason").unwrap_or("").trim(),
            )
        })
        .collect();
    let actual: Vec<ObligationKey> = now.obligations.entries.iter().map(obligation_key).collect();
    if expected_keys == actual {
        return;
    }
    let labels: Vec<String> = expected
        .iter()
        .map(|f| format!("Frame {}", f.label))
        .collect();
    let message = if expected.is_empty() {
        format!(
            "the promotion added {} obligation(s), but the promoted stack in the last commit had no frame with `RerunThrough: NONE`",
            actual.len()
        )
    } else {
        format!(
            "the promotion must turn {} of the last commit's stack into exactly one obligation each, with the same Owner, FailureType and Reason in stack order, but Outstanding Obligations holds {} entr{} that do not match",
            labels.join(", "),
            actual.len(),
            if actual.len() == 1 { "y" } else { "ies" }
        )
    };
    sink.push_hinted(
        "PR-025",
        STATE_PATH,
        format!("line {}: {message}", now.obligations.active.line),
        Some("write one `### Obligation N` per unfinished frame (Owner, FailureType, Reason) and none for frames whose `RerunThrough` is set (expedited.md, Outstanding Obligations)".into()),
    );
}

fn entries(b: &Baseline) -> &[BaselineEntry] {
    match b {
        Baseline::Entries(e) => e,
        _ => &[],
    }
}

/// PR-026: baseline reconciliation entries are carried, in order, until
/// Auditor clears the whole list: "Preserve entry order and existing
/// entries"; "never replace older sources with the latest cancellation".
/// Held within one cycle, and across a new start when the list names the
/// cancelled cycle of the last commit (so no clearing happened in between).
fn pr_026_baseline_entries_carried(now: &StateDoc, then: &StateDoc, sink: &mut Sink) {
    let current = entries(&now.active_work.baseline);
    let committed = entries(&then.active_work.baseline);
    if current.is_empty() || committed.is_empty() {
        return; // NONE: Auditor cleared the list, or nothing to carry
    }
    let same_cycle = now.active_work.id.value != "UNSET"
        && now.active_work.id.value == then.active_work.id.value;
    let then_id = then.active_work.id.value.as_str();
    let follows_cancelled = then.workflow_state.value == WorkflowState::Cancelled
        && current.iter().any(|e| e.source_cycle.value == then_id);
    if !same_cycle && !follows_cancelled {
        return;
    }
    let position: HashMap<&str, usize> = current
        .iter()
        .enumerate()
        .map(|(i, e)| (e.source_cycle.value.as_str(), i))
        .collect();
    let mut last: Option<usize> = None;
    for e in committed {
        let source = e.source_cycle.value.as_str();
        let why = match position.get(source) {
            None => Some("is missing; entries stay until Auditor reconciles every source and clears the whole list".to_string()),
            Some(&i) if last.is_some_and(|l| i < l) => {
                Some("moved ahead of an entry it followed; entry order is preserved".to_string())
            }
            Some(_) => None,
        };
        if let Some(&i) = position.get(source) {
            last = Some(last.map_or(i, |l| l.max(i)));
        }
        if let Some(why) = why {
            sink.push_hinted(
                "PR-026",
                STATE_PATH,
                format!(
                    "line {}: the baseline reconciliation entry for `{source}` from the last commit {why}",
                    now.active_work.baseline_line
                ),
                Some("restore the entry in its place; only Auditor clears the list, to `NONE`, after reconciling every source".into()),
            );
        }
    }
}
