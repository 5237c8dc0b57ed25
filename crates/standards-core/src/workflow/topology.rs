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
mod tests {
    use super::*;
    use CompletionPolicy as P;
    use CycleMode as M;
    use ProjectMode as PM;

    #[test]
    fn standard_routes_follow_the_project_mode() {
        let g = forward_route(M::Standard, P::FullDeliverable, PM::Greenfield).unwrap();
        assert_eq!(g[0], W::Scoping);
        assert_eq!(g[2], W::Auditing);
        let b = forward_route(M::Standard, P::FullDeliverable, PM::Brownfield).unwrap();
        assert_eq!(b[0], W::Auditing);
        assert_eq!(b[3], W::Developing);
        for route in [g, b] {
            assert_eq!(route.len(), 10);
            assert_eq!(*route.last().unwrap(), W::AwaitingUserSignoff);
        }
    }

    #[test]
    fn implementation_reviewed_replaces_only_the_tail() {
        for pm in PM::ALL {
            let full = forward_route(M::Standard, P::FullDeliverable, *pm).unwrap();
            let short = forward_route(M::Standard, P::ImplementationReviewed, *pm).unwrap();
            assert_eq!(short[..6], full[..6]);
            assert_eq!(short[6..], [W::AwaitingUserSignoff]);
            assert_eq!(
                next_state(
                    M::Standard,
                    P::ImplementationReviewed,
                    *pm,
                    W::ReviewingImplementation
                ),
                Some(W::AwaitingUserSignoff)
            );
            assert_eq!(
                next_state(
                    M::Standard,
                    P::FullDeliverable,
                    *pm,
                    W::ReviewingImplementation
                ),
                Some(W::Documenting)
            );
        }
    }

    #[test]
    fn expedited_and_documentation_are_brownfield_only() {
        assert_eq!(
            forward_route(M::Expedited, P::None, PM::Brownfield),
            Some(EXPEDITED_ROUTE)
        );
        assert_eq!(
            forward_route(M::Documentation, P::None, PM::Brownfield),
            Some(DOCUMENTATION_ROUTE)
        );
        assert_eq!(forward_route(M::Expedited, P::None, PM::Greenfield), None);
        assert_eq!(
            forward_route(M::Documentation, P::None, PM::Greenfield),
            None
        );
        assert_eq!(
            next_state(M::Documentation, P::None, PM::Brownfield, W::Architecting),
            Some(W::Documenting)
        );
        assert_eq!(
            next_state(M::Expedited, P::None, PM::Brownfield, W::Developing),
            Some(W::ReviewingImplementation)
        );
        assert_eq!(
            next_state(
                M::Expedited,
                P::None,
                PM::Brownfield,
                W::AwaitingUserSignoff
            ),
            None
        );
        assert_eq!(
            next_state(M::Expedited, P::None, PM::Brownfield, W::Testing),
            None
        );
    }

    #[test]
    fn invalid_pairs_have_no_route_and_no_phases() {
        for (m, p) in [
            (M::Standard, P::None),
            (M::Expedited, P::FullDeliverable),
            (M::Expedited, P::ImplementationReviewed),
            (M::Documentation, P::FullDeliverable),
            (M::Documentation, P::ImplementationReviewed),
        ] {
            assert!(!policy_fits(m, p), "{m} {p}");
            assert_eq!(required_phases(m, p), None, "{m} {p}");
            for pm in PM::ALL {
                assert_eq!(forward_route(m, p, *pm), None);
            }
        }
        for p in P::ALL {
            assert!(policy_fits(M::Unset, *p));
            assert_eq!(required_phases(M::Unset, *p), Some(&[][..]));
            assert_eq!(last_required_phase(M::Unset, *p), None);
        }
    }

    #[test]
    fn required_phases_match_the_catalogue() {
        assert_eq!(
            required_phases(M::Standard, P::ImplementationReviewed).unwrap(),
            [
                W::Scoping,
                W::Architecting,
                W::Auditing,
                W::Developing,
                W::Testing,
                W::ReviewingImplementation
            ]
        );
        let full = required_phases(M::Standard, P::FullDeliverable).unwrap();
        assert_eq!(full.len(), 9);
        assert_eq!(
            full[6..],
            [W::Documenting, W::ReviewingFinal, W::Synchronizing]
        );
        assert_eq!(
            required_phases(M::Expedited, P::None).unwrap(),
            [W::Developing, W::ReviewingImplementation]
        );
        assert_eq!(
            required_phases(M::Documentation, P::None).unwrap(),
            documentation_phases()
        );
        assert_eq!(
            last_required_phase(M::Standard, P::FullDeliverable),
            Some(W::Synchronizing)
        );
        assert_eq!(
            last_required_phase(M::Standard, P::ImplementationReviewed),
            Some(W::ReviewingImplementation)
        );
        assert_eq!(
            last_required_phase(M::Expedited, P::None),
            Some(W::ReviewingImplementation)
        );
        assert_eq!(
            last_required_phase(M::Documentation, P::None),
            Some(W::Synchronizing)
        );
    }

    #[test]
    fn every_route_ends_at_its_last_required_phase_then_signoff() {
        for m in M::ALL {
            for p in P::ALL {
                for pm in PM::ALL {
                    if let Some(route) = forward_route(*m, *p, *pm) {
                        let last = last_required_phase(*m, *p).unwrap();
                        assert_eq!(route[route.len() - 2], last);
                        let mut required = required_phases(*m, *p).unwrap().to_vec();
                        let mut on_route = route[..route.len() - 1].to_vec();
                        required.sort();
                        on_route.sort();
                        assert_eq!(required, on_route, "{m} {p} {pm}");
                    }
                }
            }
        }
    }

    #[test]
    fn failure_targets_per_mode() {
        assert_eq!(
            failure_targets(M::Standard, FailureType::Review),
            [W::ReviewingImplementation, W::ReviewingFinal]
        );
        assert_eq!(
            failure_targets(M::Expedited, FailureType::Review),
            [W::ReviewingImplementation]
        );
        assert_eq!(
            failure_targets(M::Expedited, FailureType::Implementation),
            [W::Developing]
        );
        assert!(failure_targets(M::Expedited, FailureType::Scoping).is_empty());
        assert_eq!(
            failure_targets(M::Documentation, FailureType::Review),
            [W::ReviewingFinal]
        );
        assert!(failure_targets(M::Documentation, FailureType::Verification).is_empty());
        assert!(failure_targets(M::Documentation, FailureType::Implementation).is_empty());
        assert_eq!(
            failure_targets(M::Documentation, FailureType::ProjectContext),
            [W::Auditing]
        );
        assert!(failure_targets(M::Unset, FailureType::Scoping).is_empty());
    }

    #[test]
    fn exactly_two_completion_change_routes() {
        // SC-POL-009: across all (from, to) pairs only these two are
        // COMPLETION_CHANGE routes, each with its policy change.
        let mut routes = Vec::new();
        for from in W::ALL {
            for to in W::ALL {
                if let Some(change) = completion_change(*from, *to) {
                    routes.push((*from, *to, change));
                }
            }
        }
        assert_eq!(
            routes,
            [
                (
                    W::Documenting,
                    W::ReviewingImplementation,
                    (P::FullDeliverable, P::ImplementationReviewed)
                ),
                (
                    W::AwaitingUserSignoff,
                    W::Documenting,
                    (P::ImplementationReviewed, P::FullDeliverable)
                ),
            ]
        );
    }

    #[test]
    fn installed_states() {
        assert_eq!(installed_state(PM::Greenfield), W::Scoping);
        assert_eq!(installed_state(PM::Brownfield), W::Auditing);
    }

    #[test]
    fn phase_lists_agree_with_the_routes() {
        assert_eq!(&DOCUMENTATION_ROUTE[..6], &DOCUMENTATION_PHASES[..]);
        assert_eq!(DOCUMENTATION_ROUTE[6], W::AwaitingUserSignoff);
        assert_eq!(&STANDARD_FULL_PHASES[6..], &FULL_DELIVERABLE_PHASES[..]);
    }
}
