use super::*;
use crate::assets;
use crate::records::plan::steps;
use proptest::prelude::*;

const ID: &str = "c-20260927T190146Z-7bef0f04";

fn plan_text() -> String {
    assets::new_record(ArtifactType::Development, None, ID)
        + &skeleton(
            ArtifactType::Development,
            false,
            ("NONE", "NONE", "Add search"),
        )
}

#[test]
fn header_values_are_validated_against_the_record_type() {
    let e = validate_header(ArtifactType::Development, "Status", "DONE").unwrap_err();
    let m = e.to_string();
    assert!(
        m.contains("`Status`") && m.contains("DEVELOPMENT") && m.contains("`APPROVED`"),
        "{m}"
    );
    let m = validate_header(ArtifactType::Review, "Severity", "P1")
        .unwrap_err()
        .to_string();
    assert!(
        m.contains("no field `Severity`") && m.contains("`Status`, `User Style`"),
        "{m}"
    );
    let m = validate_header(ArtifactType::Scope, "Status", "X")
        .unwrap_err()
        .to_string();
    assert!(m.contains("SCOPE record has no header fields"), "{m}");
    let m = validate_header(ArtifactType::Review, "Cycle", "x")
        .unwrap_err()
        .to_string();
    assert!(m.contains("never set by hand"), "{m}");
    validate_header(ArtifactType::Development, "User Style", "NONE").unwrap();
    assert!(validate_header(ArtifactType::Development, "User Style", "a | b").is_err());
    validate_header(ArtifactType::Development, "Current Increment", "2").unwrap();
    assert!(validate_header(ArtifactType::Development, "Current Increment", "0").is_err());
}

#[test]
fn item_values_are_validated_against_the_item_kind() {
    validate_item(IdPrefix::Dev, "Depends On", "DEV-001, DEV-002").unwrap();
    validate_item(IdPrefix::Dev, "Acceptance", "EXPEDITED_REQUEST").unwrap();
    assert!(validate_item(IdPrefix::Dev, "Acceptance", "AC-1").is_err());
    validate_item(IdPrefix::F, "FailureType", "IMPLEMENTATION").unwrap();
    assert!(validate_item(IdPrefix::F, "FailureType", "NONE").is_err());
    validate_item(IdPrefix::D, "FailureType", "NONE").unwrap();
    let m = validate_item(IdPrefix::Ac, "Status", "DONE")
        .unwrap_err()
        .to_string();
    assert!(m.contains("no fields"), "{m}");
    let m = validate_item(IdPrefix::F, "Status", "CLOSED")
        .unwrap_err()
        .to_string();
    assert!(
        m.contains("`OPEN`, `RESOLVED`, `WITHDRAWN`") && m.contains("finding"),
        "{m}"
    );
}

#[test]
fn setting_a_header_field_changes_only_its_value() {
    let text = plan_text();
    let edit = set_header_field(&text, ArtifactType::Development, "Status", "PROPOSED").unwrap();
    assert_eq!(
        edit.old.as_deref(),
        Some("PROPOSED | APPROVED | IN_PROGRESS | COMPLETE")
    );
    assert_eq!(
        edit.text,
        text.replace(
            "`PROPOSED | APPROVED | IN_PROGRESS | COMPLETE`",
            "`PROPOSED`"
        )
    );
    // The step's own `Status` is not the header's.
    assert_eq!(steps(&edit.text)[0].status(), Some("PENDING"));
}

#[test]
fn setting_a_step_field_changes_only_that_step() {
    let text = plan_text();
    let text = add_item(&text, IdPrefix::Dev, "DEV-002", "Second", &[], false).unwrap();
    let edit = set_item_field(&text, IdPrefix::Dev, "DEV-002", "Status", "DONE").unwrap();
    assert_eq!(edit.old.as_deref(), Some("PENDING"));
    let s = steps(&edit.text);
    assert_eq!(s[0].status(), Some("PENDING"));
    assert_eq!(s[1].status(), Some("DONE"));
    let m = set_item_field(&text, IdPrefix::Dev, "DEV-009", "Status", "DONE")
        .unwrap_err()
        .to_string();
    assert!(m.contains("no development step `DEV-009`"), "{m}");
}

#[test]
fn a_fenced_example_is_not_an_item() {
    let text = "# Review Report\n\n## Findings\n\n```\n### F-001 — example\n`Status`: `OPEN`\n```\n\n### F-001 — real\n\n`Severity`: `P1` `Status`: `OPEN`\n";
    let edit = set_item_field(text, IdPrefix::F, "F-001", "Status", "RESOLVED").unwrap();
    assert!(edit.text.contains("### F-001 — example\n`Status`: `OPEN`"));
    assert!(edit
        .text
        .ends_with("`Severity`: `P1` `Status`: `RESOLVED`\n"));
}

#[test]
fn a_missing_field_is_added_after_the_items_last_field() {
    let text =
        "# R\n\n## Findings\n\n### F-001 — x\n\n`Severity`: `P1` `Status`: `OPEN`\n\nprose\n";
    let edit = set_item_field(text, IdPrefix::F, "F-001", "Owner", "Developer").unwrap();
    assert_eq!(edit.old, None);
    assert!(
        edit.text
            .contains("`Status`: `OPEN` `Owner`: `Developer`\n\nprose"),
        "{}",
        edit.text
    );
}

#[test]
fn items_go_at_the_end_of_their_section_or_a_new_one() {
    let text = "# Review Report\n\n## Findings\n\n### F-001 — a\n\n`Status`: `OPEN`\n\n## Progress and Conclusion\n\ndone\n";
    let out = add_item(
        text,
        IdPrefix::F,
        "F-002",
        "b",
        &[("Severity".into(), "P2".into())],
        false,
    )
    .unwrap();
    let at_2 = out.find("### F-002 — b").unwrap();
    assert!(at_2 > out.find("### F-001").unwrap() && at_2 < out.find("## Progress").unwrap());
    assert!(out.contains("`Severity`: `P2` `Status`: `OPEN`"));
    assert!(out.starts_with(&text[..text.find("\n\n## Progress").unwrap()]));
    assert!(out.ends_with("\n\n## Progress and Conclusion\n\ndone\n"));

    let bare = "# Review Report\n\n## Progress and Conclusion\n\ndone\n";
    let out = add_item(bare, IdPrefix::F, "F-001", "a", &[], false).unwrap();
    assert!(out.contains("## Findings\n\n### F-001 — a\n"));
    assert!(out.find("## Findings").unwrap() < out.find("## Progress").unwrap());

    let header_only = assets::new_record(ArtifactType::Synchronization, None, ID);
    let out = add_item(&header_only, IdPrefix::D, "D-001", "x", &[], false).unwrap();
    assert!(out.starts_with(header_only.trim_end()));
    assert!(out.ends_with("- **Disposition:**\n"));
}

#[test]
fn conditions_join_the_works_list() {
    let text = "# S\n\n## Work\n\n**Done when:**\n\n- `AC-001`: one\n\n## Assumptions\n\nnone\n";
    let out = add_item(text, IdPrefix::Ac, "AC-002", "two", &[], false).unwrap();
    assert!(
        out.contains("- `AC-001`: one\n- `AC-002`: two\n\n## Assumptions"),
        "{out}"
    );
    let m = add_item(text, IdPrefix::Ac, "AC-002", "  ", &[], false)
        .unwrap_err()
        .to_string();
    assert!(m.contains("one line"), "{m}");
}

#[test]
fn skeleton_placeholders_are_found_until_replaced() {
    for artifact in ArtifactType::ALL {
        let text = skeleton(*artifact, false, ("NONE", "NONE", "r"));
        assert!(!placeholders_left(&text).is_empty(), "{artifact}");
    }
    let text = "<!-- <goal> -->\n```\n<goal>\n```\n<goal>\n";
    assert_eq!(placeholders_left(text), vec![(5, "<goal>")]);
    let expedited = skeleton(ArtifactType::Development, true, ("NONE", "NONE", "r"));
    assert!(expedited.contains("`Acceptance`: `EXPEDITED_REQUEST`"));
}

#[test]
fn items_behind_a_fence_are_refused_not_lost() {
    // An unclosed fence before the section: the proptest's shrunk case.
    let text = "# Development Plan\n\n```\n\n## Build Steps\n";
    let e = add_item(text, IdPrefix::Dev, "DEV-001", "step", &[], true).unwrap_err();
    let m = e.to_string();
    assert!(matches!(e, EditError::InFence { line: 3, .. }), "{m}");
    assert!(m.contains("never closed"), "{m}");
    // A condition (a list line) after an open fence too.
    let text = "# S\n\n## Work\n\n~~~\n**Done when:**\n\n- `AC-001`: one\n";
    let e = add_item(text, IdPrefix::Ac, "AC-002", "two", &[], false).unwrap_err();
    assert!(matches!(e, EditError::InFence { line: 5, .. }), "{e}");
    // An item already written inside a closed fenced block is an example,
    // not an item: setting its field names the fence.
    let text = "# Development Plan\n\n## Build Steps\n\n~~~\n### DEV-001: x\n\n- **Status:** PENDING\n~~~\n";
    let e = set_item_field(text, IdPrefix::Dev, "DEV-001", "Status", "DONE").unwrap_err();
    let m = e.to_string();
    assert!(matches!(e, EditError::InFence { line: 5, .. }), "{m}");
    assert!(
        m.contains("`### DEV-001` sits") && m.contains("closed after it"),
        "{m}"
    );
    // A record without the item at all still says so.
    let e = set_item_field(text, IdPrefix::Dev, "DEV-002", "Status", "DONE").unwrap_err();
    assert!(matches!(e, EditError::NoItem { .. }), "{e}");
    // A closed fence before the section leaves adding alone.
    let text = "# Development Plan\n\n```\nx\n```\n\n## Build Steps\n";
    let out = add_item(text, IdPrefix::Dev, "DEV-001", "step", &[], true).unwrap();
    assert_eq!(items(&out, IdPrefix::Dev).len(), 1);
}

/// How many bytes of `before` survive in `after` as a common prefix plus a
/// common suffix (not overlapping).
fn kept(before: &str, after: &str) -> usize {
    let (a, b) = (before.as_bytes(), after.as_bytes());
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let max = a.len().min(b.len()) - prefix;
    let suffix = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take(max)
        .take_while(|(x, y)| x == y)
        .count();
    prefix + suffix
}

fn value() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("PENDING".to_string()),
        Just("IN_PROGRESS".to_string()),
        Just("DONE".to_string()),
    ]
}

proptest! {
    /// Edit then parse: the same steps plus the change; every other byte identical.
    #[test]
    fn set_keeps_every_other_byte(
        prefix_text in "[a-z \\n`*#-]{0,80}",
        suffix_text in "[a-z \\n`*-]{0,80}",
        n in 1usize..4,
        which in 0usize..4,
        v in value(),
    ) {
        let mut text = format!("# Development Plan\n\n{prefix_text}\n\n## Build Steps\n");
        // A fence the prefix leaves open runs to the end of the file and
        // swallows every item after it: adding one is refused, never done.
        let open_fence = record::fenced_ranges(&text).iter().any(|r| r.end == text.len());
        for i in 1..=n {
            match add_item(&text, IdPrefix::Dev, &format!("DEV-{i:03}"), &format!("step {i}"), &[], true) {
                Ok(out) => text = out,
                Err(e) => {
                    prop_assert!(open_fence, "{e}");
                    prop_assert!(matches!(e, EditError::InFence { .. }), "{e}");
                    return Ok(());
                }
            }
        }
        prop_assert!(!open_fence);
        text.push_str(&format!("\n## Plan Notes\n\n{suffix_text}\n"));
        let before = steps(&text);
        let target = format!("DEV-{:03}", which % n + 1);
        let edit = set_item_field(&text, IdPrefix::Dev, &target, "Status", &v).unwrap();
        let after = steps(&edit.text);
        prop_assert_eq!(before.len(), after.len());
        for (b, a) in before.iter().zip(&after) {
            if b.id == target {
                prop_assert_eq!(a.status(), Some(v.as_str()));
            } else {
                prop_assert_eq!(&b.fields.iter().map(|f| (&f.name, &f.value)).collect::<Vec<_>>(),
                    &a.fields.iter().map(|f| (&f.name, &f.value)).collect::<Vec<_>>());
            }
        }
        // Only the value's bytes differ.
        let old = edit.old.unwrap();
        prop_assert!(kept(&text, &edit.text) + old.len() >= text.len());
    }

    /// Adding an item keeps the text before and after the insertion point.
    #[test]
    fn add_keeps_every_other_byte(body in "[a-z \\n]{0,60}", title in "[a-z][a-z ]{0,20}") {
        let text = format!("# Review Report\n\n## Findings\n\n{body}\n\n## Progress and Conclusion\n\nx\n");
        let out = add_item(&text, IdPrefix::F, "F-007", &title, &[], false).unwrap();
        prop_assert!(kept(&text, &out) >= text.len());
        prop_assert!(out.ends_with("\n\n## Progress and Conclusion\n\nx\n"));
        let ids: Vec<String> = items(&out, IdPrefix::F).into_iter().map(|i| i.id).collect();
        prop_assert_eq!(ids, vec!["F-007".to_string()]);
    }
}
