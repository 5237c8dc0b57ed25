//! ST: STATE.md structure and values.

use crate::model::cycle_id;
use crate::model::layout::STATE_PATH;
use crate::model::state::{Baseline, BaselineEntry, StateDoc};
use crate::model::vocab::{
    CompletionPolicy, CycleMode, HandoffKind, PendingCadence, ProjectMode, WorkflowState,
};
use crate::workflow::topology;

use super::{Cx, RuleInfo, Sink};

const UNSET: &str = "UNSET";
const NONE: &str = "NONE";

pub const RULES: &[RuleInfo] = &[
    RuleInfo::rule("ST-001", "Title"),
    RuleInfo::rule("ST-002", "Head fields present once"),
    RuleInfo::rule("ST-003", "WorkflowState value"),
    RuleInfo::rule("ST-004", "CycleMode value"),
    RuleInfo::rule("ST-005", "Pending and terminal consistency"),
    RuleInfo::rule("ST-006", "Active Work section"),
    RuleInfo::rule("ST-007", "Active Work fields"),
    RuleInfo::rule("ST-008", "Inactive cycles keep no pending cadence"),
    RuleInfo::rule("ST-009", "BaselineReconciliation present"),
    RuleInfo::rule("ST-010", "Handoff section and fields"),
    RuleInfo::rule("ST-011", "Recovery and obligations sections"),
    RuleInfo::rule("ST-012", "Policy valid for mode"),
    RuleInfo::rule("ST-013", "No cycle, no policy"),
    RuleInfo::rule("ST-014", "Generated cycle ID"),
    RuleInfo::rule("ST-015", "Mode without cycle"),
    RuleInfo::rule("ST-016", "Active cycle needs a mode"),
    RuleInfo::rule("ST-017", "Pre-cycle state"),
    RuleInfo::rule("ST-018", "Pre-cycle handoff"),
    RuleInfo::rule("ST-019", "Pre-cycle paths"),
    RuleInfo::rule("ST-020", "Greenfield restrictions"),
    RuleInfo::rule("ST-021", "Documentation cycle has no development plan"),
    RuleInfo::rule("ST-022", "Documentation cycle has no pending cadence"),
    RuleInfo::rule("ST-023", "Documentation cycle has no promotion reason"),
    RuleInfo::rule("ST-024", "Expedited has no scope or design"),
    RuleInfo::rule("ST-025", "Expedited has no promotion reason"),
    RuleInfo::rule("ST-026", "Sign-off readiness has no blocker"),
    RuleInfo::rule("ST-027", "Baseline format"),
    RuleInfo::rule("ST-028", "Baseline duplicate source"),
    RuleInfo::rule("ST-029", "Baseline lists the active cycle"),
    RuleInfo::rule("ST-030", "Baseline source format"),
    RuleInfo::rule("ST-031", "Expedited carries no baseline"),
    RuleInfo::rule("ST-032", "Unresolved baseline at sign-off"),
];

const FIX_HINT: &str = "fix STATE.md so it matches the Workflow State Reference in PROTOCOL.md, or restore it from the last commit";

pub fn check(cx: &Cx, sink: &mut Sink) {
    // ST-001..ST-011: the first structural failure is the only STATE problem.
    if let Some(Err(e)) = &cx.state {
        sink.push_hinted(
            e.rule,
            STATE_PATH,
            format!("line {}: {}", e.line, e.message),
            Some(FIX_HINT.into()),
        );
    }
    let Some(doc) = cx.doc() else { return };
    // Catalogue order (check-rules §3); the TR and GT rules that interleave
    // with these live in `transitions` and `history`.
    st_012_policy_fits_mode(doc, sink);
    st_013_no_cycle_no_policy(doc, sink);
    st_014_generated_id(doc, sink);
    st_015_mode_without_cycle(doc, sink);
    st_016_active_cycle_needs_mode(doc, sink);
    st_017_pre_cycle_state(doc, cx.mode, sink);
    st_018_pre_cycle_handoff(doc, sink);
    st_019_pre_cycle_paths(doc, sink);
    st_020_greenfield_modes(doc, cx.mode, sink);
    if doc.cycle_mode.value == CycleMode::Documentation {
        st_021_023_documentation_fields(doc, sink);
    }
    if doc.cycle_mode.value == CycleMode::Expedited {
        st_024_expedited_scope_design(doc, sink);
        st_025_expedited_promotion_reason(doc, sink);
    }
    if !question_opened_at_readiness(cx, doc) {
        st_026_signoff_blocker(doc, sink);
    }
    st_027_baseline_format(doc, sink);
    st_028_030_baseline_entries(doc, sink);
    st_031_expedited_baseline(doc, sink);
    st_032_signoff_baseline(doc, sink);
}

fn at(line: usize, message: impl std::fmt::Display) -> String {
    format!("line {line}: {message}")
}

fn no_cycle(doc: &StateDoc) -> bool {
    doc.active_work.id.value == UNSET
}

fn baseline_entries(doc: &StateDoc) -> &[BaselineEntry] {
    match &doc.active_work.baseline {
        Baseline::Entries(entries) => entries,
        Baseline::None | Baseline::Malformed(_) => &[],
    }
}

/// ST-012: the completion policy fits the cycle mode (`UNSET` keeps any policy,
/// so a finished cycle's policy stays as history).
fn st_012_policy_fits_mode(doc: &StateDoc, sink: &mut Sink) {
    let (mode, policy) = (doc.cycle_mode.value, &doc.active_work.completion_policy);
    if topology::policy_fits(mode, policy.value) {
        return;
    }
    let (why, hint) = match mode {
        CycleMode::Standard => (
            "a STANDARD cycle needs `FULL_DELIVERABLE` or `IMPLEMENTATION_REVIEWED`",
            "set `CompletionPolicy` to `FULL_DELIVERABLE` (the policy every new or promoted standard cycle starts with) unless the user explicitly chose `IMPLEMENTATION_REVIEWED`",
        ),
        CycleMode::Expedited => (
            "an EXPEDITED cycle uses `NONE`",
            "set `CompletionPolicy` to `NONE`; a standard policy needs the user to promote the cycle first (user-decisions.md, Promote an expedited cycle)",
        ),
        _ => (
            "a DOCUMENTATION cycle uses `NONE` and its route cannot be shortened or extended",
            "set `CompletionPolicy` to `NONE`",
        ),
    };
    sink.push_hinted(
        "ST-012",
        STATE_PATH,
        at(
            policy.line,
            format!(
                "`CompletionPolicy` `{}` does not fit `CycleMode` `{mode}`: {why}",
                policy.value
            ),
        ),
        Some(hint.into()),
    );
}

/// ST-013: no policy before the first cycle.
fn st_013_no_cycle_no_policy(doc: &StateDoc, sink: &mut Sink) {
    let policy = &doc.active_work.completion_policy;
    if no_cycle(doc) && policy.value != CompletionPolicy::None {
        sink.push_hinted(
            "ST-013",
            STATE_PATH,
            at(
                policy.line,
                format!(
                    "`CompletionPolicy` is `{}` although no cycle has started (`Active Work.Id` is `UNSET`)",
                    policy.value
                ),
            ),
            Some("set `CompletionPolicy` back to `NONE`; a policy is chosen when a cycle starts (user-decisions.md, Start a cycle)".into()),
        );
    }
}

/// ST-014: `Active Work.Id` has the generated form, in terminal states too.
fn st_014_generated_id(doc: &StateDoc, sink: &mut Sink) {
    let id = &doc.active_work.id;
    if id.value != UNSET && !cycle_id::is_generated(&id.value) {
        sink.push_hinted(
            "ST-014",
            STATE_PATH,
            at(
                id.line,
                format!(
                    "`Active Work.Id` `{}` is not a generated cycle ID (`<slug>-<YYYYMMDDTHHMMSSZ>-<8 lowercase hex digits>`)",
                    id.value
                ),
            ),
            Some("cycle IDs are never typed or edited: put back the issued one from the last commit (`git restore --source=HEAD --staged --worktree .standards/STATE.md`), and ask the user how to proceed if records already use the bad ID; a new cycle gets its ID from `start`".into()),
        );
    }
}

/// ST-015: no cycle mode before a cycle exists.
fn st_015_mode_without_cycle(doc: &StateDoc, sink: &mut Sink) {
    let mode = &doc.cycle_mode;
    if no_cycle(doc) && mode.value != CycleMode::Unset {
        sink.push_hinted(
            "ST-015",
            STATE_PATH,
            at(
                mode.line,
                format!(
                    "`CycleMode` is `{}` although no cycle has started (`Active Work.Id` is `UNSET`)",
                    mode.value
                ),
            ),
            Some("set `CycleMode` back to `UNSET` (a preference for the next cycle belongs in `PendingCycleMode`), or start the cycle properly (user-decisions.md, Start a cycle)".into()),
        );
    }
}

/// ST-016: an active cycle always has a mode.
fn st_016_active_cycle_needs_mode(doc: &StateDoc, sink: &mut Sink) {
    if doc.has_active_cycle() && doc.cycle_mode.value == CycleMode::Unset {
        sink.push_hinted(
            "ST-016",
            STATE_PATH,
            at(
                doc.cycle_mode.line,
                format!(
                    "cycle `{}` is active at `{}` but `CycleMode` is `UNSET`; no role may work without a cycle mode",
                    doc.active_work.id.value, doc.workflow_state.value
                ),
            ),
            Some("set `CycleMode` to the mode the cycle was started with; if it is unknown, stop and ask the user".into()),
        );
    }
}

/// ST-017: before the first cycle the state stays where installation put it.
fn st_017_pre_cycle_state(doc: &StateDoc, mode: Option<ProjectMode>, sink: &mut Sink) {
    let Some(mode) = mode else { return };
    let expected = topology::installed_state(mode);
    let ws = &doc.workflow_state;
    if no_cycle(doc) && ws.value != expected {
        sink.push_hinted(
            "ST-017",
            STATE_PATH,
            at(
                ws.line,
                format!(
                    "`WorkflowState` is `{}` although no cycle has started; a {mode} project waits in `{expected}` until a cycle starts",
                    ws.value
                ),
            ),
            Some(format!(
                "set `WorkflowState` back to `{expected}`; the workflow moves only after a cycle starts (user-decisions.md, Start a cycle)"
            )),
        );
    }
}

/// ST-018: before the first cycle the handoff is the installed one.
fn st_018_pre_cycle_handoff(doc: &StateDoc, sink: &mut Sink) {
    let kind = &doc.handoff.kind;
    if no_cycle(doc) && kind.value != HandoffKind::Initial.as_str() {
        sink.push_hinted(
            "ST-018",
            STATE_PATH,
            at(
                kind.line,
                format!(
                    "`Handoff.Kind` is `{}` although no cycle has started; it stays `INITIAL` until the first cycle",
                    kind.value
                ),
            ),
            Some("restore the installed handoff: `Kind` `INITIAL`, `From` `NONE`, `FailureType` `NONE`".into()),
        );
    }
}

/// ST-019: no artifact paths before the first cycle; one problem per field.
fn st_019_pre_cycle_paths(doc: &StateDoc, sink: &mut Sink) {
    if !no_cycle(doc) {
        return;
    }
    let aw = &doc.active_work;
    for (name, field) in [
        ("Scope", &aw.scope),
        ("Architecture", &aw.architecture),
        ("Development", &aw.development),
    ] {
        if field.value != NONE {
            sink.push_hinted(
                "ST-019",
                STATE_PATH,
                at(
                    field.line,
                    format!(
                        "`Active Work.{name}` is `{}` although no cycle has started; artifact paths belong to an active cycle",
                        field.value
                    ),
                ),
                Some(format!(
                    "set `{name}` back to `NONE` (the file it names is left as it is)"
                )),
            );
        }
    }
}

/// ST-020: a GREENFIELD project runs only STANDARD cycles, actual or pending
/// (PROTOCOL.md Cycle Modes rule 3; decision D8). One problem per mode.
fn st_020_greenfield_modes(doc: &StateDoc, mode: Option<ProjectMode>, sink: &mut Sink) {
    if mode != Some(ProjectMode::Greenfield) {
        return;
    }
    for forbidden in [CycleMode::Expedited, CycleMode::Documentation] {
        let fields: Vec<&str> = [
            ("CycleMode", &doc.cycle_mode),
            ("PendingCycleMode", &doc.pending_cycle_mode),
        ]
        .into_iter()
        .filter(|(_, f)| f.value == forbidden)
        .map(|(name, _)| name)
        .collect();
        let Some(first) = fields.first() else {
            continue;
        };
        let line = if *first == "CycleMode" {
            doc.cycle_mode.line
        } else {
            doc.pending_cycle_mode.line
        };
        let named = fields
            .iter()
            .map(|f| format!("`{f}`"))
            .collect::<Vec<_>>()
            .join(" and ");
        sink.push_hinted(
            "ST-020",
            STATE_PATH,
            at(
                line,
                format!(
                    "{named} {} `{forbidden}`, but a GREENFIELD project supports only STANDARD cycles",
                    if fields.len() == 1 { "is" } else { "are" }
                ),
            ),
            Some("ask the user how to proceed: a blocked request waits in `PendingCycleRequest` with the question in `PendingCycleBlockedOn`, and a pending preference is cleared to `UNSET`; never change MODE.md to make a mode eligible".into()),
        );
    }
}

/// ST-021, ST-022, ST-023: a DOCUMENTATION cycle has no plan, no pending
/// cadence and no promotion reason.
fn st_021_023_documentation_fields(doc: &StateDoc, sink: &mut Sink) {
    let aw = &doc.active_work;
    // ST-021
    if aw.development.value != NONE {
        sink.push_hinted(
            "ST-021",
            STATE_PATH,
            at(
                aw.development.line,
                format!(
                    "`Active Work.Development` is `{}`, but a DOCUMENTATION cycle has no development plan",
                    aw.development.value
                ),
            ),
            Some("set `Development` to `NONE`; if the request needs implementation, record the user's decision in `BlockedOn` (Documentation Cycle Contract)".into()),
        );
    }
    // ST-022
    let cadence = &aw.pending_verification_cadence;
    if cadence.value != PendingCadence::None {
        sink.push_hinted(
            "ST-022",
            STATE_PATH,
            at(
                cadence.line,
                format!(
                    "`Active Work.PendingVerificationCadence` is `{}`, but a DOCUMENTATION cycle schedules no implementation or verification",
                    cadence.value
                ),
            ),
            Some("set `PendingVerificationCadence` to `NONE`".into()),
        );
    }
    // ST-023
    if aw.promotion_reason.value != NONE {
        sink.push_hinted(
            "ST-023",
            STATE_PATH,
            at(
                aw.promotion_reason.line,
                "`Active Work.PromotionReason` is set, but a DOCUMENTATION cycle can never be promoted or converted in place",
            ),
            Some("set `PromotionReason` to `NONE`; work that needs an omitted role is a user decision in `BlockedOn`: keep a documentation-only scope, or cancel and start a separate cycle".into()),
        );
    }
}

/// ST-024: an EXPEDITED cycle has neither scope nor design (one problem).
fn st_024_expedited_scope_design(doc: &StateDoc, sink: &mut Sink) {
    let aw = &doc.active_work;
    let set: Vec<String> = [("Scope", &aw.scope), ("Architecture", &aw.architecture)]
        .into_iter()
        .filter(|(_, f)| f.value != NONE)
        .map(|(name, f)| format!("`{name}` is `{}`", f.value))
        .collect();
    if set.is_empty() {
        return;
    }
    let line = if aw.scope.value != NONE {
        aw.scope.line
    } else {
        aw.architecture.line
    };
    sink.push_hinted(
        "ST-024",
        STATE_PATH,
        at(
            line,
            format!(
                "an EXPEDITED cycle keeps `Scope` and `Architecture` at `NONE`, but {}",
                set.join(" and ")
            ),
        ),
        Some("set them back to `NONE`; if the work needs formal scoping or design, promote the cycle (expedited.md, Expedited Promotion)".into()),
    );
}

/// ST-025: a promotion reason means the cycle is no longer EXPEDITED.
fn st_025_expedited_promotion_reason(doc: &StateDoc, sink: &mut Sink) {
    let reason = &doc.active_work.promotion_reason;
    if reason.value != NONE {
        sink.push_hinted(
            "ST-025",
            STATE_PATH,
            at(
                reason.line,
                "`Active Work.PromotionReason` is set while `CycleMode` is still `EXPEDITED`; promotion makes the cycle STANDARD",
            ),
            Some("finish the promotion as expedited.md describes (`CycleMode` `STANDARD`, `WorkflowState` `AUDITING`, `CompletionPolicy` `FULL_DELIVERABLE`, `Handoff.Kind` `PROMOTE`), or set `PromotionReason` back to `NONE` if no promotion happened".into()),
        );
    }
}

/// Whether the open question was asked while the cycle was already at
/// `AWAITING_USER_SIGNOFF` (the last commit holds the same cycle there with
/// no question, or with this one): "Blocking questions during an active
/// cycle do not change workflow state" (State-update rules 3), and the user
/// may be asked at readiness (user-decisions.md, Greenfield Bootstrap
/// Cancellation, step 3). Readiness is still entered with no blocker, and
/// sign-off needs none (PR-017). The reference checker (`--compat`) reports
/// every such question.
fn question_opened_at_readiness(cx: &Cx, doc: &StateDoc) -> bool {
    let Some(then) = cx.committed_state.as_ref() else {
        return false;
    };
    !cx.options.compat
        && doc.workflow_state.value == WorkflowState::AwaitingUserSignoff
        && then.workflow_state.value == WorkflowState::AwaitingUserSignoff
        && then.active_work.id.value == doc.active_work.id.value
        && (then.active_work.blocked_on.value == NONE
            || then.active_work.blocked_on.value == doc.active_work.blocked_on.value)
}

/// ST-026: no open user question at sign-off readiness.
fn st_026_signoff_blocker(doc: &StateDoc, sink: &mut Sink) {
    let blocked = &doc.active_work.blocked_on;
    if doc.workflow_state.value == WorkflowState::AwaitingUserSignoff && blocked.value != NONE {
        sink.push_hinted(
            "ST-026",
            STATE_PATH,
            at(
                blocked.line,
                format!(
                    "the cycle is at `AWAITING_USER_SIGNOFF` while `Active Work.BlockedOn` holds an open question: {}",
                    blocked.value
                ),
            ),
            Some("a cycle is ready for sign-off only with no open question: settle it with the user, clear `BlockedOn`, and route any work the answer requires to its owner".into()),
        );
    }
}

/// ST-027: the baseline value is `NONE` or a well-formed list.
fn st_027_baseline_format(doc: &StateDoc, sink: &mut Sink) {
    if let Baseline::Malformed(why) = &doc.active_work.baseline {
        sink.push_hinted(
            "ST-027",
            STATE_PATH,
            at(
                doc.active_work.baseline_line,
                format!("`BaselineReconciliation` is not valid: {why}"),
            ),
            Some("write `NONE` on the label's own line, or one list entry per cancelled source cycle with its `SourceCycle` and `Request` (PROTOCOL.md, Baseline Reconciliation Format); never drop or guess entries".into()),
        );
    }
}

/// ST-028, ST-029, ST-030: per entry, in list order; a repeated source is
/// reported once and gets no further checks.
fn st_028_030_baseline_entries(doc: &StateDoc, sink: &mut Sink) {
    let entries = baseline_entries(doc);
    let id = &doc.active_work.id.value;
    // The first entry of each source, so repeats are found in linear time.
    let mut first_of: std::collections::HashMap<&str, &crate::model::state::BaselineEntry> =
        std::collections::HashMap::new();
    for entry in entries.iter() {
        let source = &entry.source_cycle;
        // ST-028
        let first = *first_of.entry(source.value.as_str()).or_insert(entry);
        if !std::ptr::eq(first, entry) {
            sink.push_hinted(
                "ST-028",
                STATE_PATH,
                at(
                    first.source_cycle.line,
                    format!(
                        "`BaselineReconciliation` lists source cycle `{}` more than once",
                        source.value
                    ),
                ),
                Some("keep the first entry for each source cycle and remove the repeats".into()),
            );
            continue;
        }
        // ST-029
        if source.value == *id {
            sink.push_hinted(
                "ST-029",
                STATE_PATH,
                at(
                    source.line,
                    format!(
                        "`BaselineReconciliation` lists `{}`, which is this state's own `Active Work.Id`; entries name earlier, cancelled cycles",
                        source.value
                    ),
                ),
                Some("remove the entry; the cycle's own changes are not a baseline obligation of the same cycle".into()),
            );
        }
        // ST-030
        if !cycle_id::is_generated(&source.value) {
            sink.push_hinted(
                "ST-030",
                STATE_PATH,
                at(
                    source.line,
                    format!(
                        "baseline source `{}` is not a generated cycle ID",
                        source.value
                    ),
                ),
                Some("write the cancelled cycle's exact `Id` as `SourceCycle`; ask the user if it is unknown".into()),
            );
        }
    }
}

/// ST-031: an EXPEDITED cycle cannot carry a reconciliation obligation.
fn st_031_expedited_baseline(doc: &StateDoc, sink: &mut Sink) {
    let n = baseline_entries(doc).len();
    if doc.cycle_mode.value == CycleMode::Expedited && n > 0 {
        sink.push_hinted(
            "ST-031",
            STATE_PATH,
            at(
                doc.active_work.baseline_line,
                format!(
                    "an EXPEDITED cycle carries {n} `BaselineReconciliation` entr{}; unresolved baseline changes need a cycle that starts with Auditor",
                    if n == 1 { "y" } else { "ies" }
                ),
            ),
            Some("keep the entries and promote the cycle so Auditor can reconcile them (expedited.md, Expedited Promotion), or ask the user".into()),
        );
    }
}

/// ST-032: sign-off readiness with unreconciled baseline sources.
fn st_032_signoff_baseline(doc: &StateDoc, sink: &mut Sink) {
    let n = baseline_entries(doc).len();
    if doc.workflow_state.value == WorkflowState::AwaitingUserSignoff
        && matches!(
            doc.cycle_mode.value,
            CycleMode::Standard | CycleMode::Documentation
        )
        && n > 0
    {
        sink.push_hinted(
            "ST-032",
            STATE_PATH,
            at(
                doc.active_work.baseline_line,
                format!(
                    "the cycle is at `AWAITING_USER_SIGNOFF` with {n} unresolved `BaselineReconciliation` source{}",
                    if n == 1 { "" } else { "s" }
                ),
            ),
            Some("Auditor must reconcile every listed source and clear the list to `NONE` before sign-off readiness: route a `PROJECT_CONTEXT` failure to `AUDITING`".into()),
        );
    }
}

#[cfg(test)]
mod tests;
