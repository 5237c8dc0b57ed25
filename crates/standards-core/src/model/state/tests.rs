use super::*;
use crate::model::vocab::ProjectMode;

const FIXTURES: [(&str, &str); 6] = [
    (
        "fresh-greenfield",
        include_str!("../../../../../fixtures/state/fresh-greenfield.md"),
    ),
    (
        "fresh-brownfield",
        include_str!("../../../../../fixtures/state/fresh-brownfield.md"),
    ),
    (
        "mid-cycle-nested-recovery",
        include_str!("../../../../../fixtures/state/mid-cycle-nested-recovery.md"),
    ),
    (
        "baseline-reconciliation",
        include_str!("../../../../../fixtures/state/baseline-reconciliation.md"),
    ),
    (
        "expedited-promoted-obligations",
        include_str!("../../../../../fixtures/state/expedited-promoted-obligations.md"),
    ),
    (
        "signed-off",
        include_str!("../../../../../fixtures/state/signed-off.md"),
    ),
];

fn fixture(name: &str) -> StateDoc {
    let text = FIXTURES.iter().find(|(n, _)| *n == name).unwrap().1;
    StateDoc::parse(text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn fresh_templates_are_the_fixtures() {
    assert_eq!(fresh_template(ProjectMode::Greenfield), FIXTURES[0].1);
    assert_eq!(fresh_template(ProjectMode::Brownfield), FIXTURES[1].1);
}

#[test]
fn every_fixture_round_trips_byte_for_byte() {
    for (name, text) in FIXTURES {
        let doc = StateDoc::parse(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(doc.render().as_bytes(), text.as_bytes(), "{name}");
        // Every span points at the value it claims, so rewrites hit the right bytes.
        let mut spans = vec![
            (&doc.active_work.id.span, doc.active_work.id.value.clone()),
            (
                &doc.active_work.request.span,
                doc.active_work.request.value.clone(),
            ),
            (&doc.handoff.reason.span, doc.handoff.reason.value.clone()),
        ];
        for e in doc.recovery.entries.iter().chain(&doc.obligations.entries) {
            for (_, v) in &e.fields {
                spans.push((&v.span, v.value.clone()));
            }
        }
        for (span, value) in spans {
            let (_, read) = fields::code_span_at(text, span.start).unwrap();
            assert_eq!(read, value, "{name}");
        }
        // Re-parsing the rendering gives the same model.
        assert_eq!(StateDoc::parse(doc.render()).unwrap(), doc, "{name}");
    }
}

#[test]
fn update_rewrites_only_the_field() {
    let doc = fixture("mid-cycle-nested-recovery");
    let original = doc.render().to_string();
    let changed = doc
        .update(doc.workflow_state.span.clone(), "ARCHITECTING")
        .unwrap();
    assert_eq!(changed.workflow_state.value, WorkflowState::Architecting);
    let diff: Vec<_> = original
        .lines()
        .zip(changed.render().lines())
        .filter(|(a, b)| a != b)
        .collect();
    assert_eq!(diff.len(), 1);
    assert!(changed.render().starts_with('\u{feff}') && changed.render().contains("\r\n"));
    let back = changed
        .update(changed.workflow_state.span.clone(), "SCOPING")
        .unwrap();
    assert_eq!(back.render(), original);
    // A value with backticks gets a longer fence and reads back.
    let req = doc
        .update(doc.active_work.request.span.clone(), "use `a` and ``b``")
        .unwrap();
    assert_eq!(req.active_work.request.value, "use `a` and ``b``");
}

#[test]
fn models_of_each_form() {
    let d = fixture("mid-cycle-nested-recovery");
    assert!(d.has_bom);
    assert_eq!(d.active_work.request.value, "Add a `--json` flag to search");
    assert_eq!(
        d.active_work.blocked_on.value, "NONE",
        "BlockedOn after the baseline still counts"
    );
    assert!(d.recovery.active.value);
    let labels: Vec<_> = d
        .recovery
        .entries
        .iter()
        .map(|e| e.label.as_str())
        .collect();
    assert_eq!(labels, ["1", "2", "3"]);
    assert_eq!(
        d.recovery.entries[2].state("Owner"),
        Some(WorkflowState::Scoping)
    );
    assert_eq!(d.handoff.kind(), Some(HandoffKind::Failure));
    assert_eq!(
        d.active_cycle_id(),
        Some("add-user-search-20260927T190146Z-7bef0f04")
    );

    let b = fixture("baseline-reconciliation");
    let Baseline::Entries(entries) = &b.active_work.baseline else {
        panic!("entries expected")
    };
    assert_eq!(entries.len(), 2);
    assert_eq!(entries[1].request.value, "Export results as CSV");
    assert_eq!(
        b.active_work.request.value, "Add user search",
        "baseline Request is not Active Work's"
    );

    let e = fixture("expedited-promoted-obligations");
    assert_eq!(e.obligations.entries.len(), 2);
    assert_eq!(
        e.obligations.entries[1].get("Owner"),
        Some("REVIEWING_IMPLEMENTATION")
    );

    let s = fixture("signed-off");
    assert!(!s.has_active_cycle());
    assert_eq!(
        s.active_work.completion_policy.value,
        CompletionPolicy::ImplementationReviewed
    );
    assert_eq!(
        fixture("fresh-greenfield").active_work.baseline,
        Baseline::None
    );
}

fn err(text: &str) -> StateError {
    StateDoc::parse(text).expect_err("must be invalid")
}

fn fresh() -> String {
    fresh_template(ProjectMode::Brownfield)
}

#[test]
fn malformed_states_name_rule_line_and_problem() {
    let e = err("# Workflow\n");
    assert_eq!(e.rule, "ST-001");
    assert!(e.to_string().starts_with(".standards/STATE.md:1: "));

    let e = err(&fresh().replace("`CycleMode`: `UNSET` ", ""));
    assert_eq!(
        (e.rule, e.message.as_str()),
        ("ST-002", "the head is missing the `CycleMode` field")
    );

    let e = err(&fresh().replace(
        "`PendingCycleMode`: `UNSET`",
        "`PendingCycleMode`: `UNSET` `WorkflowState`: `AUDITING`",
    ));
    assert_eq!(e.rule, "ST-002");
    assert_eq!(e.line, 3);
    assert!(e.message.contains("more than once"));

    let e = err(&fresh().replace("`AUDITING`", "`DONE`"));
    assert_eq!(e.rule, "ST-003");
    assert!(e.message.contains("`DONE`"));

    let e = err(&fresh().replace("`CycleMode`: `UNSET`", "`CycleMode`: `FAST`"));
    assert_eq!(e.rule, "ST-004");

    let e = err(&fresh().replace(
        "`PendingCycleRequest`: `UNSET`",
        "`PendingCycleRequest`: `Next`",
    ));
    assert_eq!(e.rule, "ST-005");

    let e = err(&fresh().replace("## Active Work", "## Work"));
    assert_eq!(e.rule, "ST-006");

    let e = err(&fresh().replace("`Scope`: `NONE`", ""));
    assert_eq!(
        (e.rule, e.message.as_str()),
        ("ST-007", "Active Work is missing `Scope`")
    );

    let e = err(&fresh().replace("`Scope`: `NONE`", "`Scope`: `NONE` `Scope`: `x`"));
    assert!(e.message.contains("`Scope` appears more than once"));

    let e = err(&fresh().replace("`CompletionPolicy`: `NONE`", "`CompletionPolicy`: `SOME`"));
    assert_eq!(e.rule, "ST-007");

    let e = err(&fresh().replace(
        "`PendingVerificationCadence`: `NONE`",
        "`PendingVerificationCadence`: `INCREMENTAL`",
    ));
    assert_eq!(e.rule, "ST-008");

    let e = err(&fresh().replace("`BaselineReconciliation`: `NONE`", ""));
    assert_eq!(e.rule, "ST-009");

    let e = err(&fresh().replace("`Kind`: `INITIAL` ", ""));
    assert_eq!(e.rule, "ST-010");

    let e = err(&fresh().replace(
        "## Recovery\n\n`Active`: `false`",
        "## Recovery\n\n`Active`: `maybe`",
    ));
    assert_eq!(e.rule, "ST-011");
    let e = err(&format!("{}\n## Recovery\n", fresh()));
    assert_eq!(e.rule, "ST-011");
    assert!(e.message.contains("more than once"));
}

#[test]
fn comments_in_active_work_do_not_count() {
    let text = fresh().replace(
        "`BaselineReconciliation`: `NONE`",
        "`BaselineReconciliation`: `NONE`\n<!-- `Id`: `x` -->",
    );
    assert_eq!(
        StateDoc::parse(&text).unwrap().active_work.id.value,
        "UNSET"
    );
}

#[test]
fn malformed_baseline_is_kept_for_st_027() {
    let text = fresh().replace(
        "`BaselineReconciliation`: `NONE`",
        "`BaselineReconciliation`: `SOME`",
    );
    let doc = StateDoc::parse(&text).unwrap();
    assert!(matches!(doc.active_work.baseline, Baseline::Malformed(_)));
    let text = fresh().replace(
        "`BaselineReconciliation`: `NONE`",
        "`BaselineReconciliation`:\n\n- `SourceCycle`: `a`\n",
    );
    assert!(
        matches!(StateDoc::parse(&text).unwrap().active_work.baseline, Baseline::Malformed(m) if m.contains("Request"))
    );
}
