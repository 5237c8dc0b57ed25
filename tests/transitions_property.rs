//! Properties of the transition moves, run in-process on in-memory trees:
//! after every move the gate lets through, `check` passes whenever it passed
//! before, over every valid fixture case of the check suite; and random
//! sequences of moves never produce a state `check` rejects and never panic.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use proptest::prelude::*;

use crate::common::overlay;
use standards_core::check::{self, testing::installed_tree, Options};
use standards_core::model::layout::STATE_PATH;
use standards_core::model::state::StateDoc;
use standards_core::model::tree::{MemTree, Text, Tree};
use standards_core::model::vocab::{
    CompletionPolicy, CycleMode, FailureType, ProjectMode, WorkflowState,
};
use standards_core::records::plan::Cadence;
use standards_core::workflow::moves::start::StartRequest;
use standards_core::workflow::transition::dispatch::Move;
use standards_core::workflow::transition::gate::Gate;

/// A valid fixture case: its working tree and last commit.
struct Case {
    name: String,
    tree: MemTree,
    head: Option<MemTree>,
}

fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/check")
}

/// Every `valid-*` case that passes a plain check (turn-end twins skipped).
fn valid_cases() -> &'static [Case] {
    static CASES: OnceLock<Vec<Case>> = OnceLock::new();
    CASES.get_or_init(|| {
        let mut dirs: Vec<PathBuf> = std::fs::read_dir(cases_dir().join("cases"))
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| {
                let n = p.file_name().unwrap().to_string_lossy();
                n.starts_with("valid-") && !n.ends_with("-turn-end")
            })
            .collect();
        dirs.sort();
        let mut out = Vec::new();
        for dir in dirs {
            let spec = std::fs::read_to_string(dir.join("case")).unwrap();
            let get = |key: &str| {
                spec.lines().filter(|l| !l.starts_with('#')).find_map(|l| {
                    l.strip_prefix(&format!("{key}:"))
                        .map(|v| v.trim().to_string())
                })
            };
            if get("turn-end").as_deref() == Some("true") || get("unmerged").is_some() {
                continue;
            }
            let mode = match get("mode").as_deref() {
                Some("greenfield") => ProjectMode::Greenfield,
                _ => ProjectMode::Brownfield,
            };
            let mut base = installed_tree(mode);
            if let Some(b) = get("base") {
                overlay(&mut base, &cases_dir().join("bases").join(b));
            }
            let mut tree = base.clone();
            overlay(&mut tree, &dir.join("tree"));
            for p in get("remove").unwrap_or_default().split_whitespace() {
                tree.remove(p);
            }
            let head =
                (dir.join("head").is_dir() || get("head").as_deref() == Some("base")).then(|| {
                    let mut h = base.clone();
                    overlay(&mut h, &dir.join("head"));
                    h
                });
            let name = dir.file_name().unwrap().to_string_lossy().into_owned();
            let report = check::run(
                &tree,
                head.as_ref().map(|h| h as &dyn Tree),
                Options::default(),
            );
            assert!(
                report.ok(),
                "{name} is a valid case but fails: {:?}",
                report.problems
            );
            out.push(Case { name, tree, head });
        }
        assert!(out.len() > 50, "only {} valid cases", out.len());
        out
    })
}

/// Every move the commands can request, with fixed texts.
fn candidates() -> Vec<Move> {
    let mut v = Vec::new();
    for s in WorkflowState::ALL {
        for checkpoint in [false, true] {
            v.push(Move::Handoff {
                to: *s,
                reason: "Increment 1 is ready.".into(),
                checkpoint,
            });
        }
        v.push(Move::Resume {
            rerun_through: Some(*s),
            first: None,
            reason: None,
        });
    }
    for f in FailureType::ALL {
        v.push(Move::Fail {
            failure: *f,
            reason: "A defect.".into(),
            to: None,
        });
        v.push(Move::Rework {
            failure: *f,
            request: "A changed request".into(),
            to: None,
        });
    }
    for to in [
        WorkflowState::ReviewingImplementation,
        WorkflowState::ReviewingFinal,
    ] {
        v.push(Move::Fail {
            failure: FailureType::Review,
            reason: "A review defect.".into(),
            to: Some(to),
        });
    }
    v.push(Move::Resume {
        rerun_through: None,
        first: None,
        reason: None,
    });
    v.push(Move::Promote {
        reason: "Tester-owned verification is needed.".into(),
    });
    for p in [
        CompletionPolicy::FullDeliverable,
        CompletionPolicy::ImplementationReviewed,
    ] {
        v.push(Move::Policy {
            policy: p,
            reason: None,
        });
    }
    v.push(Move::Cadence(Cadence::Incremental));
    v.push(Move::Cadence(Cadence::AfterImplementation));
    v.push(Move::Signoff);
    v.push(Move::Cancel);
    v.push(Move::Block {
        question: "Which index?".into(),
    });
    v.push(Move::Unblock);
    for mode in CycleMode::ALL {
        v.push(Move::NextMode {
            mode: *mode,
            cancelled_left_no_changes: false,
            id: String::new(),
        });
    }
    for mode in [
        None,
        Some(CycleMode::Standard),
        Some(CycleMode::Expedited),
        Some(CycleMode::Documentation),
    ] {
        for policy in [None, Some(CompletionPolicy::ImplementationReviewed)] {
            v.push(Move::Start {
                request: StartRequest {
                    request: Some("New work".into()),
                    mode,
                    policy,
                    cancelled_left_no_changes: false,
                },
                id: String::new(),
            });
        }
    }
    v
}

/// A fresh generated-form ID for the `n`-th start of a run.
fn with_id(mv: &Move, n: usize) -> Move {
    match mv {
        Move::Start { request, .. } => Move::Start {
            request: request.clone(),
            id: format!("new-work-20270101T0000{:02}Z-{:08x}", n % 60, n),
        },
        // A saved request the new preference lets start needs an ID too.
        Move::NextMode {
            mode,
            cancelled_left_no_changes,
            ..
        } => Move::NextMode {
            mode: *mode,
            cancelled_left_no_changes: *cancelled_left_no_changes,
            id: format!("new-work-20270101T0000{:02}Z-{:08x}", n % 60, n),
        },
        other => other.clone(),
    }
}

fn state_of(tree: &MemTree) -> StateDoc {
    match tree.text(STATE_PATH) {
        Text::Ok(t) => StateDoc::parse(&t).expect("valid STATE.md"),
        other => panic!("{other:?}"),
    }
}

/// Applies `mv` through the gate; on success writes the new STATE.md into
/// `tree` and asserts that `check` still passes. Returns whether it moved.
fn step(tree: &mut MemTree, head: Option<&MemTree>, mv: &Move, what: &str) -> bool {
    let doc = state_of(tree);
    let head_dyn = head.map(|h| h as &dyn Tree);
    let Ok(gate) = Gate::new(tree, head_dyn, &doc) else {
        return false;
    };
    let Ok(t) = gate.apply(mv) else {
        return false;
    };
    if !t.changed {
        return false;
    }
    tree.insert(STATE_PATH, t.doc.render());
    let after = check::run(tree, head_dyn, Options::default());
    assert!(
        after.ok(),
        "{what}: {mv:?} was let through but check rejects the result: {:?}\n{}",
        after.problems,
        t.doc.render()
    );
    true
}

#[test]
fn every_successful_move_on_a_valid_fixture_keeps_check_passing() {
    let moves = candidates();
    let mut moved = 0;
    for case in valid_cases() {
        let doc = state_of(&case.tree);
        let head = case.head.as_ref().map(|h| h as &dyn Tree);
        let Ok(gate) = Gate::new(&case.tree, head, &doc) else {
            continue;
        };
        for (i, mv) in moves.iter().enumerate() {
            let Ok(t) = gate.apply(&with_id(mv, i)) else {
                continue;
            };
            if !t.changed {
                continue;
            }
            let mut tree = case.tree.clone();
            tree.insert(STATE_PATH, t.doc.render());
            let after = check::run(&tree, head, Options::default());
            assert!(
                after.ok(),
                "{}: {mv:?} was let through but check rejects the result: {:?}",
                case.name,
                after.problems
            );
            moved += 1;
        }
    }
    // The property is not vacuous: many moves succeed.
    assert!(moved > 200, "only {moved} moves succeeded");
}

/// The seeds of the random walks: both fresh installs and every valid case.
fn seeds() -> Vec<(MemTree, Option<MemTree>)> {
    let mut v = vec![
        (installed_tree(ProjectMode::Greenfield), None),
        (installed_tree(ProjectMode::Brownfield), None),
    ];
    v.extend(
        valid_cases()
            .iter()
            .map(|c| (c.tree.clone(), c.head.clone())),
    );
    v
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_move_sequences_never_leave_a_state_check_rejects(
        seed in 0usize..1000,
        picks in proptest::collection::vec(0usize..1000, 1..12),
    ) {
        let seeds = seeds();
        let (mut tree, head) = seeds[seed % seeds.len()].clone();
        let moves = candidates();
        for (n, pick) in picks.iter().enumerate() {
            let mv = with_id(&moves[pick % moves.len()], n);
            step(&mut tree, head.as_ref(), &mv, &format!("seed {seed} step {n}"));
        }
    }
}
