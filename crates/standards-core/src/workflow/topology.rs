//! The workflow topology: which states a cycle passes through, in which order,
//! and where corrections go (PROTOCOL.md Forward Transitions, Failure Handoffs,
//! Completion Policies, Documentation Cycle Contract; check-rules §2).
//!
//! Everything here is a pure function of the vocabularies, so `check`, the
//! transition commands and `status` all read one table.

use crate::model::vocab::{CompletionPolicy, CycleMode, FailureType, ProjectMode, WorkflowState};

use WorkflowState as W;

const STANDARD_GREENFIELD_FULL: &[WorkflowState] = &[
    W::Scoping,
    W::Architecting,
    W::Auditing,
    W::Developing,
    W::Testing,
    W::ReviewingImplementation,
    W::Documenting,
    W::ReviewingFinal,
    W::Synchronizing,
    W::AwaitingUserSignoff,
];

const STANDARD_BROWNFIELD_FULL: &[WorkflowState] = &[
    W::Auditing,
    W::Scoping,
    W::Architecting,
    W::Developing,
    W::Testing,
    W::ReviewingImplementation,
    W::Documenting,
    W::ReviewingFinal,
    W::Synchronizing,
    W::AwaitingUserSignoff,
];

const STANDARD_GREENFIELD_REVIEWED: &[WorkflowState] = &[
    W::Scoping,
    W::Architecting,
    W::Auditing,
    W::Developing,
    W::Testing,
    W::ReviewingImplementation,
    W::AwaitingUserSignoff,
];

const STANDARD_BROWNFIELD_REVIEWED: &[WorkflowState] = &[
    W::Auditing,
    W::Scoping,
    W::Architecting,
    W::Developing,
    W::Testing,
    W::ReviewingImplementation,
    W::AwaitingUserSignoff,
];

const EXPEDITED_ROUTE: &[WorkflowState] = &[
    W::Developing,
    W::ReviewingImplementation,
    W::AwaitingUserSignoff,
];

/// The DOCUMENTATION route: its six phases, then sign-off readiness.
pub const DOCUMENTATION_ROUTE: &[WorkflowState] = &[
    W::Auditing,
    W::Scoping,
    W::Architecting,
    W::Documenting,
    W::ReviewingFinal,
    W::Synchronizing,
    W::AwaitingUserSignoff,
];

/// The DOCUMENTATION phases in order (check-rules §2): the route without sign-off readiness.
pub const DOCUMENTATION_PHASES: [WorkflowState; 6] = [
    W::Auditing,
    W::Scoping,
    W::Architecting,
    W::Documenting,
    W::ReviewingFinal,
    W::Synchronizing,
];

/// The FULL_DELIVERABLE phases that IMPLEMENTATION_REVIEWED omits (check-rules §2).
pub const FULL_DELIVERABLE_PHASES: [WorkflowState; 3] =
    [W::Documenting, W::ReviewingFinal, W::Synchronizing];

/// The states a DOCUMENTATION cycle works in (its route without sign-off readiness).
pub fn documentation_phases() -> &'static [WorkflowState] {
    &DOCUMENTATION_PHASES
}

/// The states an EXPEDITED cycle may be in.
pub fn expedited_route() -> &'static [WorkflowState] {
    EXPEDITED_ROUTE
}

/// Whether a completion policy belongs with a cycle mode (check-rules §2):
/// a standard cycle needs a standard policy, expedited and documentation
/// cycles use `NONE`, and `UNSET` keeps whatever the finished cycle had.
pub fn policy_fits(mode: CycleMode, policy: CompletionPolicy) -> bool {
    match mode {
        CycleMode::Unset => true,
        CycleMode::Standard => policy != CompletionPolicy::None,
        CycleMode::Expedited | CycleMode::Documentation => policy == CompletionPolicy::None,
    }
}

/// The normal forward route (PROTOCOL.md Forward Transitions), ending at
/// `AWAITING_USER_SIGNOFF`. `None` when the combination has no route: no
/// cycle mode, a policy that does not fit the mode, or a mode the project
/// mode does not support (`GREENFIELD` supports only `STANDARD`).
pub fn forward_route(
    mode: CycleMode,
    policy: CompletionPolicy,
    project: ProjectMode,
) -> Option<&'static [WorkflowState]> {
    if !policy_fits(mode, policy) {
        return None;
    }
    match (mode, policy, project) {
        (CycleMode::Unset, _, _) => None,
        (CycleMode::Standard, CompletionPolicy::FullDeliverable, ProjectMode::Greenfield) => {
            Some(STANDARD_GREENFIELD_FULL)
        }
        (CycleMode::Standard, CompletionPolicy::FullDeliverable, ProjectMode::Brownfield) => {
            Some(STANDARD_BROWNFIELD_FULL)
        }
        (CycleMode::Standard, _, ProjectMode::Greenfield) => Some(STANDARD_GREENFIELD_REVIEWED),
        (CycleMode::Standard, _, ProjectMode::Brownfield) => Some(STANDARD_BROWNFIELD_REVIEWED),
        (_, _, ProjectMode::Greenfield) => None,
        (CycleMode::Expedited, _, ProjectMode::Brownfield) => Some(EXPEDITED_ROUTE),
        (CycleMode::Documentation, _, ProjectMode::Brownfield) => Some(DOCUMENTATION_ROUTE),
    }
}

/// The state a normal forward handoff from `from` leads to, if `from` is on
/// the route and not its end.
pub fn next_state(
    mode: CycleMode,
    policy: CompletionPolicy,
    project: ProjectMode,
    from: WorkflowState,
) -> Option<WorkflowState> {
    successor(forward_route(mode, policy, project)?, from)
}

/// The element after `from` in `route`.
pub fn successor(route: &[WorkflowState], from: WorkflowState) -> Option<WorkflowState> {
    let i = route.iter().position(|s| *s == from)?;
    route.get(i + 1).copied()
}

/// The state a project without a cycle rests in, as installed: `SCOPING` for
/// `GREENFIELD`, `AUDITING` for `BROWNFIELD` (State-update rules, rule 1).
pub fn installed_state(project: ProjectMode) -> WorkflowState {
    match project {
        ProjectMode::Greenfield => W::Scoping,
        ProjectMode::Brownfield => W::Auditing,
    }
}

/// A route without its final sign-off readiness state.
const fn without_signoff(route: &'static [WorkflowState]) -> &'static [WorkflowState] {
    route.split_at(route.len() - 1).0
}

// The required phases (check-rules §2) are the greenfield routes, in the
// catalogue's order, up to sign-off readiness.
const STANDARD_REVIEWED_PHASES: &[WorkflowState] = without_signoff(STANDARD_GREENFIELD_REVIEWED);
const STANDARD_FULL_PHASES: &[WorkflowState] = without_signoff(STANDARD_GREENFIELD_FULL);
const EXPEDITED_PHASES: &[WorkflowState] = without_signoff(EXPEDITED_ROUTE);

/// The phases that must have passed their gates before sign-off readiness,
/// by (cycle mode, completion policy) (check-rules §2). `None` when the
/// combination is itself invalid; an empty list for `UNSET`.
pub fn required_phases(
    mode: CycleMode,
    policy: CompletionPolicy,
) -> Option<&'static [WorkflowState]> {
    if !policy_fits(mode, policy) {
        return None;
    }
    Some(match (mode, policy) {
        (CycleMode::Unset, _) => &[],
        (CycleMode::Standard, CompletionPolicy::FullDeliverable) => STANDARD_FULL_PHASES,
        (CycleMode::Standard, _) => STANDARD_REVIEWED_PHASES,
        (CycleMode::Expedited, _) => EXPEDITED_PHASES,
        (CycleMode::Documentation, _) => documentation_phases(),
    })
}

/// The phase whose owner hands over to sign-off readiness: the last required
/// phase, if the combination requires any.
pub fn last_required_phase(mode: CycleMode, policy: CompletionPolicy) -> Option<WorkflowState> {
    required_phases(mode, policy)?.last().copied()
}

/// Where a failure or rework of this type may be routed in a cycle of this
/// mode (PROTOCOL.md Failure Handoffs). In `EXPEDITED` only implementation
/// and implementation-review corrections exist; in `DOCUMENTATION` only the
/// included owners, with `REVIEW` at the final review. An empty list means
/// the owner is not part of the topology: an expedited cycle promotes, a
/// documentation cycle records a blocking user decision instead.
pub fn failure_targets(mode: CycleMode, failure: FailureType) -> &'static [WorkflowState] {
    match mode {
        CycleMode::Unset => &[],
        CycleMode::Standard => failure.owning_states(),
        CycleMode::Expedited => match failure {
            FailureType::Implementation => &[W::Developing],
            FailureType::Review => &[W::ReviewingImplementation],
            _ => &[],
        },
        CycleMode::Documentation => match failure {
            FailureType::Implementation | FailureType::Verification => &[],
            FailureType::Review => &[W::ReviewingFinal],
            other => other.owning_states(),
        },
    }
}

/// The two state-changing completion-policy routes (user-decisions.md,
/// Change completion policy): the (from, to) states and the policy change
/// each stands for, as (old, new).
pub fn completion_change(
    from: WorkflowState,
    to: WorkflowState,
) -> Option<(CompletionPolicy, CompletionPolicy)> {
    match (from, to) {
        (W::Documenting, W::ReviewingImplementation) => Some((
            CompletionPolicy::FullDeliverable,
            CompletionPolicy::ImplementationReviewed,
        )),
        (W::AwaitingUserSignoff, W::Documenting) => Some((
            CompletionPolicy::ImplementationReviewed,
            CompletionPolicy::FullDeliverable,
        )),
        _ => None,
    }
}

/// A comma-separated list of states, for messages.
pub fn list(states: &[WorkflowState]) -> String {
    states
        .iter()
        .map(|s| s.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests;
