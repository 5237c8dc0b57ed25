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
