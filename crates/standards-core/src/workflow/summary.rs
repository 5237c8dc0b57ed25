//! What `git standards status` shows: a summary of one snapshot's STATE.md and
//! MODE.md. Pure: it receives the parsed documents and decides what to show.
//!
//! The serialised form is the stable `status --json` object (keys in camelCase,
//! documented in the man page). Vocabulary values keep the protocol's spelling
//! (`UNSET` and `NONE` included); free-text and path fields are `None` (JSON
//! `null`) where STATE.md says `NONE` or `UNSET`.

use serde::Serialize;

use crate::model::state::{Baseline, Entry, StateDoc, STATE_PATH};
use crate::model::vocab::{
    CompletionPolicy, CycleMode, PendingCadence, ProjectMode, Role, WorkflowState,
};

/// The dashboard of one snapshot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    /// The snapshot read: `the working tree`, `the index`, `commit 1a2b3c4 (`main`)`.
    pub source: String,
    /// The full commit ID when the snapshot is a commit.
    pub commit: Option<String>,
    /// `None` when MODE.md is missing or invalid (the reason is in `problems`).
    pub project_mode: Option<ProjectMode>,
    pub workflow_state: WorkflowState,
    /// The role that owns the workflow state.
    #[serde(serialize_with = "role")]
    pub owner: Role,
    pub cycle_mode: CycleMode,
    pub completion_policy: CompletionPolicy,
    pub pending_cycle: PendingCycle,
    /// `None` when no cycle is active.
    pub active_work: Option<ActiveWork>,
    /// The cycle that ended, when the state is terminal and names one.
    pub last_cycle: Option<LastCycle>,
    pub handoff: Handoff,
    /// Recovery frames, newest (the active one) first.
    pub recovery: Vec<Frame>,
    pub obligations: Vec<Obligation>,
    pub baseline_reconciliation: Vec<BaselineSource>,
    /// Problems that did not stop the summary (`file:line: message`).
    pub problems: Vec<String>,
    /// Who acts next, their invocation, and what blocks them.
    pub next: crate::workflow::next::NextStep,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PendingCycle {
    pub mode: CycleMode,
    pub request: Option<String>,
    pub blocked_on: Option<String>,
}

impl PendingCycle {
    /// Whether any pending next-cycle field is set.
    pub fn is_set(&self) -> bool {
        self.mode != CycleMode::Unset || self.request.is_some() || self.blocked_on.is_some()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ActiveWork {
    pub id: String,
    pub request: Option<String>,
    pub scope: Option<String>,
    pub architecture: Option<String>,
    pub development: Option<String>,
    pub blocked_on: Option<String>,
    pub promotion_reason: Option<String>,
    pub audit_target: Option<String>,
    pub pending_verification_cadence: PendingCadence,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LastCycle {
    pub id: String,
    pub request: Option<String>,
    /// `SIGNED_OFF` or `CANCELLED`.
    pub outcome: WorkflowState,
}

/// The last handoff. Values are as written (the Handoff vocabulary is checked by `check`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Handoff {
    pub kind: String,
    pub from: String,
    pub failure_type: String,
    pub reason: String,
}

/// A recovery frame; a field missing from the file is `None`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Frame {
    /// The label of its `### Frame N` heading.
    pub frame: String,
    pub from: Option<String>,
    pub owner: Option<String>,
    /// The role acting in `owner`, when it is a workflow state.
    #[serde(serialize_with = "opt_role")]
    pub owner_role: Option<Role>,
    pub failure_type: Option<String>,
    pub reason: Option<String>,
    pub resume_at: Option<String>,
    pub rerun_through: Option<String>,
}

/// An outstanding obligation; a field missing from the file is `None`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Obligation {
    /// The label of its `### Obligation N` heading.
    pub obligation: String,
    pub owner: Option<String>,
    #[serde(serialize_with = "opt_role")]
    pub owner_role: Option<Role>,
    pub failure_type: Option<String>,
    pub reason: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BaselineSource {
    pub source_cycle: String,
    pub request: String,
}

fn role<S: serde::Serializer>(r: &Role, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(r.as_str())
}

fn opt_role<S: serde::Serializer>(r: &Option<Role>, s: S) -> Result<S::Ok, S::Error> {
    match r {
        Some(r) => s.serialize_str(r.as_str()),
        None => s.serialize_none(),
    }
}

/// `None` for the placeholders `NONE` and `UNSET`, else the value.
fn set(value: &str) -> Option<String> {
    (value != "NONE" && value != "UNSET").then(|| value.to_string())
}

/// Summarises a parsed STATE.md and the outcome of reading MODE.md.
///
/// `mode` is the project mode or the message saying why it could not be read;
/// `problems` are problems the caller found elsewhere (e.g. conflicted records),
/// kept after the ones found here.
pub fn summarize(
    source: &str,
    commit: Option<String>,
    doc: &StateDoc,
    mode: Result<ProjectMode, String>,
    extra_problems: Vec<String>,
) -> Summary {
    let mut problems = Vec::new();
    let project_mode = match mode {
        Ok(m) => Some(m),
        Err(why) => {
            problems.push(why);
            None
        }
    };
    let aw = &doc.active_work;
    let state = doc.workflow_state.value;
    let active_work = doc.has_active_cycle().then(|| ActiveWork {
        id: aw.id.value.clone(),
        request: set(&aw.request.value),
        scope: set(&aw.scope.value),
        architecture: set(&aw.architecture.value),
        development: set(&aw.development.value),
        blocked_on: set(&aw.blocked_on.value),
        promotion_reason: set(&aw.promotion_reason.value),
        audit_target: set(&aw.audit_target.value),
        pending_verification_cadence: aw.pending_verification_cadence.value,
    });
    let last_cycle = (state.is_terminal() && aw.id.value != "UNSET").then(|| LastCycle {
        id: aw.id.value.clone(),
        request: set(&aw.request.value),
        outcome: state,
    });
    let baseline_reconciliation = match &aw.baseline {
        Baseline::None => Vec::new(),
        Baseline::Entries(entries) => entries
            .iter()
            .map(|e| BaselineSource {
                source_cycle: e.source_cycle.value.clone(),
                request: e.request.value.clone(),
            })
            .collect(),
        Baseline::Malformed(why) => {
            problems.push(format!(
                "{STATE_PATH}:{}: `BaselineReconciliation` is malformed: {why}",
                aw.baseline_line
            ));
            Vec::new()
        }
    };
    let field = |e: &Entry, name: &str| e.get(name).map(str::to_string);
    let recovery = doc
        .recovery
        .entries
        .iter()
        .rev()
        .map(|e| Frame {
            frame: e.label.clone(),
            from: field(e, "From"),
            owner: field(e, "Owner"),
            owner_role: e.state("Owner").map(WorkflowState::owner),
            failure_type: field(e, "FailureType"),
            reason: field(e, "Reason"),
            resume_at: field(e, "ResumeAt"),
            rerun_through: field(e, "RerunThrough"),
        })
        .collect();
    let obligations = doc
        .obligations
        .entries
        .iter()
        .map(|e| Obligation {
            obligation: e.label.clone(),
            owner: field(e, "Owner"),
            owner_role: e.state("Owner").map(WorkflowState::owner),
            failure_type: field(e, "FailureType"),
            reason: field(e, "Reason"),
        })
        .collect();
    let next = crate::workflow::next::next_step(doc, &extra_problems);
    problems.extend(extra_problems);
    Summary {
        next,
        source: source.to_string(),
        commit,
        project_mode,
        workflow_state: state,
        owner: state.owner(),
        cycle_mode: doc.cycle_mode.value,
        completion_policy: aw.completion_policy.value,
        pending_cycle: PendingCycle {
            mode: doc.pending_cycle_mode.value,
            request: set(&doc.pending_cycle_request.value),
            blocked_on: set(&doc.pending_cycle_blocked_on.value),
        },
        active_work,
        last_cycle,
        handoff: Handoff {
            kind: doc.handoff.kind.value.clone(),
            from: doc.handoff.from.value.clone(),
            failure_type: doc.handoff.failure_type.value.clone(),
            reason: doc.handoff.reason.value.clone(),
        },
        recovery,
        obligations,
        baseline_reconciliation,
        problems,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::state::fresh_template;

    fn parse(text: &str) -> StateDoc {
        StateDoc::parse(text).unwrap()
    }

    fn of(text: &str) -> Summary {
        summarize(
            "the working tree",
            None,
            &parse(text),
            Ok(ProjectMode::Brownfield),
            Vec::new(),
        )
    }

    #[test]
    fn fresh_state_has_no_active_cycle_and_nothing_pending() {
        let s = of(&fresh_template(ProjectMode::Greenfield));
        assert_eq!(s.workflow_state, WorkflowState::Scoping);
        assert_eq!(s.owner, Role::Scoper);
        assert_eq!(s.cycle_mode, CycleMode::Unset);
        assert!(!s.pending_cycle.is_set());
        assert_eq!(s.active_work, None);
        assert_eq!(s.last_cycle, None);
        assert_eq!(s.handoff.kind, "INITIAL");
        assert!(s.recovery.is_empty() && s.obligations.is_empty());
        assert!(s.baseline_reconciliation.is_empty() && s.problems.is_empty());
    }

    #[test]
    fn recovery_frames_are_newest_first_with_owner_roles() {
        let s = of(include_str!(
            "../../../../fixtures/state/mid-cycle-nested-recovery.md"
        ));
        let frames: Vec<_> = s.recovery.iter().map(|f| f.frame.as_str()).collect();
        assert_eq!(frames, ["3", "2", "1"]);
        assert_eq!(s.recovery[0].owner.as_deref(), Some("SCOPING"));
        assert_eq!(s.recovery[0].owner_role, Some(Role::Scoper));
        assert_eq!(s.recovery[0].resume_at.as_deref(), Some("ARCHITECTING"));
        assert_eq!(s.recovery[2].owner_role, Some(Role::Developer));
        let aw = s.active_work.expect("a cycle is active");
        assert_eq!(aw.id, "add-user-search-20260927T190146Z-7bef0f04");
        assert_eq!(aw.request.as_deref(), Some("Add a `--json` flag to search"));
        assert!(aw.development.unwrap().ends_with(".md"));
        assert_eq!(aw.blocked_on, None);
        assert_eq!(s.handoff.failure_type, "SCOPING");
    }

    #[test]
    fn baseline_entries_and_obligations_keep_their_order() {
        let s = of(include_str!(
            "../../../../fixtures/state/baseline-reconciliation.md"
        ));
        let sources: Vec<_> = s
            .baseline_reconciliation
            .iter()
            .map(|b| b.source_cycle.as_str())
            .collect();
        assert_eq!(
            sources,
            [
                "paging-20260901T080000Z-0a1b2c3d",
                "export-csv-20260910T120000Z-deadbeef"
            ]
        );
        assert_eq!(
            s.active_work.unwrap().audit_target.as_deref(),
            Some("src/search")
        );

        let s = of(include_str!(
            "../../../../fixtures/state/expedited-promoted-obligations.md"
        ));
        let owners: Vec<_> = s
            .obligations
            .iter()
            .map(|o| (o.obligation.as_str(), o.owner_role))
            .collect();
        assert_eq!(
            owners,
            [("1", Some(Role::Tester)), ("2", Some(Role::Reviewer))]
        );
        assert_eq!(
            s.active_work.unwrap().promotion_reason.as_deref(),
            Some("The fix needs a new session store.")
        );
    }

    #[test]
    fn terminal_state_shows_the_last_cycle_instead_of_active_work() {
        let s = of(include_str!("../../../../fixtures/state/signed-off.md"));
        assert_eq!(s.active_work, None);
        assert_eq!(s.owner, Role::User);
        let last = s.last_cycle.unwrap();
        assert_eq!(last.outcome, WorkflowState::SignedOff);
        assert_eq!(last.request.as_deref(), Some("Add user search"));
        assert_eq!(
            s.completion_policy,
            CompletionPolicy::ImplementationReviewed
        );
    }

    #[test]
    fn pending_fields_are_shown_when_set() {
        let text = fresh_template(ProjectMode::Brownfield)
            .replace(
                "`PendingCycleMode`: `UNSET`",
                "`PendingCycleMode`: `EXPEDITED`",
            )
            .replace(
                "`PendingCycleRequest`: `UNSET` `PendingCycleBlockedOn`: `NONE`",
                "`PendingCycleRequest`: `Fix login` `PendingCycleBlockedOn`: `Which IdP?`",
            );
        let p = of(&text).pending_cycle;
        assert!(p.is_set());
        assert_eq!(p.mode, CycleMode::Expedited);
        assert_eq!(p.request.as_deref(), Some("Fix login"));
        assert_eq!(p.blocked_on.as_deref(), Some("Which IdP?"));
    }

    #[test]
    fn mode_and_baseline_problems_are_listed_not_fatal() {
        let text = fresh_template(ProjectMode::Brownfield).replace(
            "`BaselineReconciliation`: `NONE`",
            "`BaselineReconciliation`: `SOME`",
        );
        let s = summarize(
            "the index",
            None,
            &parse(&text),
            Err(".standards/MODE.md:1: the `ProjectMode` field is missing".into()),
            vec!["`.standards/docs/x.md` has unresolved merge conflicts".into()],
        );
        assert_eq!(s.project_mode, None);
        assert_eq!(s.problems.len(), 3, "{:?}", s.problems);
        assert!(s.problems[0].starts_with(".standards/MODE.md:1:"));
        assert!(s.problems[1].starts_with(".standards/STATE.md:12: `BaselineReconciliation`"));
        assert!(s.problems[2].contains("docs/x.md"));
    }

    #[test]
    fn json_keys_are_camel_case_and_stable() {
        let s = of(include_str!(
            "../../../../fixtures/state/mid-cycle-nested-recovery.md"
        ));
        let v = serde_json::to_value(&s).unwrap();
        let keys: Vec<_> = v.as_object().unwrap().keys().cloned().collect();
        assert_eq!(
            keys,
            [
                "source",
                "commit",
                "projectMode",
                "workflowState",
                "owner",
                "cycleMode",
                "completionPolicy",
                "pendingCycle",
                "activeWork",
                "lastCycle",
                "handoff",
                "recovery",
                "obligations",
                "baselineReconciliation",
                "problems",
                "next"
            ]
        );
        assert_eq!(v["next"]["owner"], "Scoper");
        assert_eq!(v["next"]["state"], "SCOPING");
        assert!(v["next"]["invocation"]["codex"]
            .as_str()
            .unwrap()
            .starts_with("$scoper Continue the active recovery"));
        assert!(v["next"]["invocation"]["claudeCode"]
            .as_str()
            .unwrap()
            .starts_with("/scoper Continue the active recovery"));
        assert!(v["next"]["blockedBy"][0]
            .as_str()
            .unwrap()
            .starts_with("recovery frame 3 (SCOPING from `ARCHITECTING`)"));
        assert_eq!(v["owner"], "Scoper");
        assert_eq!(v["recovery"][0]["ownerRole"], "Scoper");
        assert_eq!(v["recovery"][0]["rerunThrough"], "NONE");
        assert_eq!(v["activeWork"]["blockedOn"], serde_json::Value::Null);
        assert_eq!(v["activeWork"]["pendingVerificationCadence"], "NONE");
        assert_eq!(v["pendingCycle"]["mode"], "UNSET");
        assert_eq!(v["projectMode"], "BROWNFIELD");
    }
}
