use super::super::acceptance::test_support::*;
use crate::check::Options;
use crate::model::layout::STATE_PATH;
use crate::model::tree::MemTree;

fn rh(t: &MemTree) -> Vec<&'static str> {
    rules_with(t, "RH")
}

fn review(body: &str) -> (String, String) {
    (
            format!(".standards/docs/reviews/{ID}/implementation.md"),
            format!(
                "<!-- STANDARDS\nArtifact: REVIEW\nCycle: {ID}\nReviewKind: IMPLEMENTATION\n-->\n\n# Review Report\n\n`Cycle`: `{ID}` `ReviewKind`: `IMPLEMENTATION`\n`Status`: `IN_PROGRESS` `User Style`: `NONE`\n\n## Findings\n\n### F-001 — Missing escape\n\n{body}\n"
            ),
        )
}

fn documentation(body: &str) -> (String, String) {
    (
            format!(".standards/docs/documentation/{ID}.md"),
            format!(
                "<!-- STANDARDS\nArtifact: DOCUMENTATION\nCycle: {ID}\n-->\n\n# Documentation Record\n\n`Cycle`: `{ID}` `Status`: `IN_PROGRESS`\n`Collaboration`: `AUTONOMOUS` `Target`: `ACTIVE_CHANGE` `Target Detail`:\n`active cycle` `User Style`: `NONE`\n\n## Discrepancies\n\n{body}\n"
            ),
        )
}

fn with(files: &[(String, String)]) -> MemTree {
    let mut t = f_std();
    for (p, c) in files {
        t.insert(p, c);
    }
    t
}

#[test]
fn f_std_has_no_header_or_reference_problems() {
    assert!(rh(&f_std()).is_empty());
}

#[test]
fn rh_001_visible_cycle() {
    let mut t = f_std();
    let p = report_path();
    let text = read(&t, &p);
    t.insert(
        &p,
        text.replacen(&format!("`Cycle`: `{ID}`"), "`Cycle`: `other-cycle`", 1),
    );
    assert_eq!(rh(&t), ["RH-001"]);
    t.insert(&p, text.replacen(&format!("`Cycle`: `{ID}` "), "", 1));
    assert_eq!(rh(&t), ["RH-001"]);
    // Without a title there is no header at all.
    t.insert(
        &p,
        text.replacen("# Verification Report", "Verification Report", 1),
    );
    assert_eq!(rh(&t), ["RH-001", "RH-003"]);
}

#[test]
fn rh_002_and_003_status_is_reported_once() {
    let mut t = f_std();
    let p = report_path();
    let text = read(&t, &p);
    // SC-PROV-010: the template's choices give exactly one problem on the report.
    t.insert(
        &p,
        text.replacen("`COMPLETE`", "`IN_PROGRESS | BLOCKED | COMPLETE`", 1),
    );
    let on_report: Vec<_> = problems(&t, Options::default())
        .into_iter()
        .filter(|(_, f, _)| *f == p)
        .collect();
    assert_eq!(on_report.len(), 1, "{on_report:?}");
    assert_eq!(on_report[0].0, "RH-002");
    // SC-PROV-009: a wrong case is an invalid status.
    t.insert(&p, text.replacen("`COMPLETE`", "`Complete`", 1));
    assert_eq!(rh(&t), ["RH-003"]);
    t.insert(&p, text.replacen("`Status`:\n`COMPLETE`", "", 1));
    assert_eq!(rh(&t), ["RH-003"]);
    t.insert(
        &p,
        text.replacen("`User Style`: `NONE`", "`User Style`: `<identifier>`", 1),
    );
    assert_eq!(rh(&t), ["RH-002"]);
    // The protocol's User Styles rule: a saved selector has no `|` and is not blank.
    for bad in ["team|compact", " "] {
        t.insert(
            &p,
            text.replacen("`User Style`: `NONE`", &format!("`User Style`: `{bad}`"), 1),
        );
        assert_eq!(rh(&t), ["RH-002"], "{bad:?}");
    }
    t.insert(
        &p,
        text.replacen("`User Style`: `NONE`", "`User Style`: `team-compact.md`", 1),
    );
    assert!(rh(&t).is_empty());
    // Only the first occurrence of a field counts.
    t.insert(
        &p,
        text.replacen(
            "`Assessment Target`: `NONE`",
            "`Assessment Target`: `NONE` `Mode`: `VERIFY | REVERIFY`",
            1,
        ),
    );
    assert!(rh(&t).is_empty());
}

#[test]
fn rh_002_a_fresh_record_is_one_problem_naming_every_unfilled_field() {
    let mut t = f_std();
    let p = report_path();
    t.insert(
        &p,
        crate::assets::new_record(crate::model::vocab::ArtifactType::Verification, None, ID),
    );
    let on_report: Vec<_> = problems(&t, Options::default())
        .into_iter()
        .filter(|(_, f, _)| *f == p)
        .collect();
    assert_eq!(on_report.len(), 1, "{on_report:?}");
    let (rule, _, message) = &on_report[0];
    assert_eq!(*rule, "RH-002");
    assert!(
        message.starts_with("not filled in yet: the header fields "),
        "{message}"
    );
    for field in ["`Mode` (`VERIFY | REVERIFY`)", "`Status`", "`User Style`"] {
        assert!(message.contains(field), "{field}: {message}");
    }
    // One field alone reads in the singular.
    let text = read(&t, &p)
        .replacen("`VERIFY | REVERIFY`", "`VERIFY`", 1)
        .replacen("`NONE | <identifier>`", "`NONE`", 1);
    t.insert(&p, text);
    let on_report: Vec<_> = problems(&t, Options::default())
        .into_iter()
        .filter(|(_, f, _)| *f == p)
        .collect();
    assert_eq!(on_report.len(), 1, "{on_report:?}");
    assert!(
            on_report[0]
                .2
                .contains("header field `Status` (`IN_PROGRESS | BLOCKED | COMPLETE`) still holds the template's list of choices"),
            "{on_report:?}"
        );
}

#[test]
fn rh_003_does_not_apply_to_the_plan() {
    let mut t = f_std();
    edit(&mut t, &plan_path(), |s| {
        s.replace("`Status`: `COMPLETE` ", "")
    });
    assert!(!rh(&t).contains(&"RH-003"));
}

#[test]
fn rh_004_entry_defined_twice() {
    let (p, text) = review("### F-001 — again\n\n### F-001: third\n\nF-001.");
    let t = with(&[(p, text)]);
    assert_eq!(rh(&t), ["RH-004"]);
    let dup: Vec<_> = problems(&t, Options::default())
        .into_iter()
        .filter(|(r, _, _)| *r == "RH-004")
        .collect();
    assert_eq!(dup.len(), 1);
    assert!(dup[0].2.contains("3 entries"));
    // Plan steps too.
    let mut t = f_std();
    edit(&mut t, &plan_path(), |s| {
        s.replace("### DEV-002 — Search box", "### DEV-001 — Search box")
    });
    assert!(rh(&t).contains(&"RH-004"));
}

#[test]
fn sc_ref_001_bare_foreign_and_dangling_anchor() {
    let review_path = format!(".standards/docs/reviews/{ID}/implementation.md");
    let (rp, rt) = review("AC-001.");
    let (dp, dt) = documentation(&format!(
            "### D-001 — Old style\n\nSee F-001, {review_path}#F-001 and {review_path}#F-007. AC-001 AC-002"
        ));
    let t = with(&[(rp, rt), (dp.clone(), dt)]);
    assert_eq!(rh(&t), ["RH-005", "RH-009"]);
    let on_doc: Vec<_> = problems(&t, Options::default())
        .into_iter()
        .filter(|(r, f, _)| r.starts_with("RH") && *f == dp)
        .collect();
    // F-001 bare and the #F-007 anchor; `#F-001` is fine; the heading is no mention.
    assert_eq!(on_doc.len(), 2, "{on_doc:?}");
}

#[test]
fn sc_ref_002_003_004_relative_links_and_labels() {
    let (rp, rt) = review("AC-001.");
    let (dp, dt) = documentation(&format!(
        "See [F-001](../reviews/{ID}/implementation.md#F-001)."
    ));
    assert!(rh(&with(&[(rp.clone(), rt.clone()), (dp, dt)])).is_empty());
    // SC-REF-003: the plan may link the finding too.
    let mut t = with(&[(rp.clone(), rt.clone())]);
    edit(&mut t, &plan_path(), |s| {
        s + &format!("\nFixes [F-001](../reviews/{ID}/implementation.md#F-001).\n")
    });
    assert!(rh(&t).is_empty());
    // SC-REF-004: a label that disagrees with its target is a bare mention.
    edit(&mut t, &plan_path(), |s| {
        s + &format!("Also [F-001](../reviews/{ID}/implementation.md#F-002).\n")
    });
    assert_eq!(rh(&t), ["RH-005", "RH-009"]);
}

#[test]
fn sc_ref_005_006_own_entries_and_steps() {
    let (rp, rt) = review("F-001 is fixed by DEV-001. AC-001.");
    assert!(rh(&with(&[(rp, rt)])).is_empty());
    let (rp, rt) = review("F-001 is fixed by DEV-001. F-004 is fixed by DEV-009.");
    assert_eq!(rh(&with(&[(rp, rt)])), ["RH-006", "RH-007"]);
}

#[test]
fn rh_007_needs_an_own_plan() {
    let (rp, rt) = review("Fixed by DEV-009.");
    let mut t = with(&[(rp, rt)]);
    assert_eq!(rh(&t), ["RH-007"]);
    // Without an own plan there is nothing to compare with.
    set(&mut t, "Development", "NONE");
    t.remove(&plan_path());
    assert!(!rh(&t).contains(&"RH-007"));
    // With `Development` NONE, the first own plan still counts.
    let mut t = with(&[review("Fixed by DEV-009.")]);
    set(&mut t, "Development", "NONE");
    assert!(rh(&t).contains(&"RH-007"));
    let _ = STATE_PATH;
}

#[test]
fn rh_008_reference_to_a_non_record() {
    let (dp, dt) = documentation("See docs/notes.md#F-001 and missing.md#DOC-001.");
    let t = with(&[(dp, dt), ("docs/notes.md".into(), "### F-001\n".into())]);
    assert_eq!(rh(&t), ["RH-008"]);
    let count = problems(&t, Options::default())
        .into_iter()
        .filter(|(r, _, _)| *r == "RH-008")
        .count();
    assert_eq!(count, 2);
}

#[test]
fn a_record_of_another_cycle_resolves() {
    let other = "<!-- STANDARDS\nArtifact: REVIEW\nCycle: old-1\nReviewKind: IMPLEMENTATION\n-->\n# Review\n### F-002 — x\n";
    let (dp, dt) =
        documentation("See docs/old/review.md#F-002 and ../../../docs/old/review.md#F-003.");
    let t = with(&[(dp, dt), ("docs/old/review.md".into(), other.into())]);
    assert_eq!(rh(&t), ["RH-009"]);
}

#[test]
fn odd_records_do_not_panic() {
    for body in [
        "",
        "# T",
        "## only\n### F-001\n### F-001",
        "# T\n`Status`: `",
        "# T\n`Status`: ``",
        "[F-001](",
        "x.md#F-99999999999999999999999999999999",
        "### DEV-001\u{feff}\n\u{2028}D-001 [D-001](é.md#D-001) DEV-0000000000000000000001",
    ] {
        let path = format!(".standards/docs/documentation/{ID}.md");
        let text = format!("<!-- STANDARDS\nArtifact: DOCUMENTATION\nCycle: {ID}\n-->\n{body}");
        let _ = rh(&with(&[(path, text)]));
    }
}
