use super::*;
use crate::invocation::mem::MemFiles;
use crate::model::fields;
use crate::model::vocab::{ArtifactType, ProjectMode};

const ID: &str = "sample-20261005T120000Z-1234abcd";
const PLAN: &str = ".standards/docs/development/sample-20261005T120000Z-1234abcd.md";

fn set(text: &str, name: &str, value: &str) -> String {
    let found = fields::scan(text);
    let f = fields::first(&found, name).unwrap_or_else(|| panic!("no {name}"));
    format!(
        "{}{}{}",
        &text[..f.span.start],
        fields::render_code_span(value),
        &text[f.span.end..]
    )
}

fn state(ws: &str, cm: &str, policy: &str) -> String {
    let mut s = crate::model::state::fresh_template(ProjectMode::Brownfield);
    for (k, v) in [
        ("WorkflowState", ws),
        ("CycleMode", cm),
        ("CompletionPolicy", policy),
        ("Id", ID),
        ("Request", "Sample."),
        ("Kind", "FORWARD"),
        ("From", "ARCHITECTING"),
    ] {
        s = set(&s, k, v);
    }
    s
}

fn plan(mode: &str, status: &str, style: &str, locked: &str) -> String {
    let mut p = crate::assets::new_record(ArtifactType::Development, None, ID);
    for (k, v) in [
        ("Mode", mode),
        ("Status", status),
        ("User Style", style),
        ("User Style Locked", locked),
    ] {
        p = set(&p, k, v);
    }
    p
}

fn fixture() -> MemFiles {
    let mut m = MemFiles::with_skills(Client::Codex);
    m.put(
        ".standards/MODE.md",
        &crate::model::mode::render(ProjectMode::Brownfield),
    );
    m.put(
        ".standards/STATE.md",
        &state("DEVELOPING", "STANDARD", "FULL_DELIVERABLE"),
    );
    m.put(PLAN, &plan("STEPWISE", "PROPOSED", "NONE", "false"));
    m
}

fn run(m: &MemFiles, role: &str) -> Value {
    to_json(&discover(m, role, Ok(Client::Codex)))
}

#[test]
fn the_fixture_is_complete_and_keys_come_in_the_spec_order() {
    let j = run(&fixture(), "developer");
    assert_eq!(j["complete"], true, "{j:#}");
    let keys: Vec<&str> = j.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "schemaVersion",
            "role",
            "client",
            "catalogStatus",
            "complete",
            "groups",
            "userStyles",
            "diagnostics",
            "skillFile",
            // Issue 25: after the spec's keys, in their order (D11).
            "ok"
        ]
    );
    let g = &j["groups"][0];
    assert_eq!(g["selected"]["value"], "STEPWISE");
    assert_eq!(g["selected"]["source"], "record");
    assert_eq!(j["userStyles"]["locked"], "false");
    let gk: Vec<&str> = g.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        gk,
        [
            "id",
            "label",
            "source",
            "selectionRules",
            "defaultForNew",
            "options",
            "selected",
            "savedValue",
            "locked"
        ]
    );
}

#[test]
fn sc_inv_002_003_unknown_mode_then_a_new_mode_file_and_styles() {
    let mut m = fixture();
    m.put(PLAN, &plan("EXTRA", "PROPOSED", "tony", "false"));
    m.put(".standards/user-styles/developer/tony.md", "private");
    let j = run(&m, "developer");
    assert_eq!(j["groups"][0]["selected"]["status"], "invalid");
    m.put(
            ".agents/skills/developer/modes/new-name.md",
            "<!-- standards:invocation -->\n```json\n{\"schemaVersion\":1,\"kind\":\"mode\",\"group\":\"collaboration\",\"id\":\"EXTRA\",\"label\":\"Extra\",\"description\":\"x\",\"selection\":\"user\"}\n```\n",
        );
    m.put(".standards/user-styles/developer/alice.md", "private");
    let j = run(&m, "developer");
    assert_eq!(j["complete"], true, "{j:#}");
    assert_eq!(j["groups"][0]["selected"]["value"], "EXTRA");
    let ids: Vec<&str> = j["userStyles"]["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["alice", "tony"]);
    assert_eq!(j["userStyles"]["selected"]["value"], "tony");
    assert!(!j.to_string().contains("private"));
}

#[test]
fn sc_inv_006_to_010_plans_and_locks() {
    let mut m = fixture();
    m.files.remove(PLAN);
    let j = run(&m, "developer");
    assert_eq!(j["groups"][0]["defaultForNew"], "AUTONOMOUS");
    assert_eq!(j["groups"][0]["selected"]["status"], "unknown");
    assert_eq!(j["userStyles"]["locked"], "unknown");
    assert_eq!(j["complete"], false);
    for status in ["APPROVED", "PROPOSED"] {
        m.put(PLAN, &plan("STEPWISE", status, "NONE", "true"));
        let j = run(&m, "developer");
        assert_eq!(j["complete"], true);
        assert_eq!(j["userStyles"]["locked"], "true");
        assert_eq!(j["userStyles"]["selected"]["value"], "NONE");
    }
    for (status, locked) in [("PROPOSED", "maybe"), ("APPROVED", "false")] {
        m.put(PLAN, &plan("STEPWISE", status, "NONE", locked));
        let j = run(&m, "developer");
        assert_eq!(j["userStyles"]["locked"], "unknown", "{status} {locked}");
        assert_eq!(j["complete"], false);
    }
    // SC-INV-009: provenance of another cycle.
    m.put(
        PLAN,
        &plan("STEPWISE", "PROPOSED", "NONE", "false")
            .replace(ID, "other-20261005T120000Z-1234abcd"),
    );
    assert_eq!(
        run(&m, "developer")["userStyles"]["savedValue"]["status"],
        "unknown"
    );
    // SC-INV-010: a second lock line.
    m.put(
        PLAN,
        &format!(
            "{}`User Style Locked`: `true`\n",
            plan("STEPWISE", "PROPOSED", "NONE", "false")
        ),
    );
    assert_eq!(run(&m, "developer")["userStyles"]["locked"], "unknown");
    // SC-INV-011: the template's choice list.
    m.put(
        PLAN,
        &plan(
            "AUTONOMOUS | STEPWISE | CODE_WITH_ME",
            "PROPOSED",
            "NONE",
            "false",
        ),
    );
    assert_eq!(
        run(&m, "developer")["groups"][0]["selected"]["status"],
        "unknown"
    );
}

#[test]
fn sc_inv_012_014_the_development_pointer() {
    let mut m = fixture();
    for bad in [
        "elsewhere.md",
        &format!("../{PLAN}"),
        &format!("/{PLAN}"),
        ".standards/docs/development/../architecture/x.md",
    ] {
        m.put(
            ".standards/STATE.md",
            &set(
                &state("DEVELOPING", "STANDARD", "FULL_DELIVERABLE"),
                "Development",
                bad,
            ),
        );
        let j = run(&m, "developer");
        assert_eq!(j["groups"][0]["selected"]["status"], "unknown", "{bad}");
        assert_eq!(j["complete"], false);
    }
    for good in [
        PLAN.to_string(),
        format!("./{PLAN}"),
        PLAN.replace("development/", "development/../development/"),
    ] {
        m.put(
            ".standards/STATE.md",
            &set(
                &state("DEVELOPING", "STANDARD", "FULL_DELIVERABLE"),
                "Development",
                &good,
            ),
        );
        assert_eq!(run(&m, "developer")["complete"], true, "{good}");
    }
}

#[test]
fn sc_inv_013_terminal_records_are_not_resumed() {
    let mut m = fixture();
    m.put(
        ".standards/STATE.md",
        &state("SIGNED_OFF", "UNSET", "FULL_DELIVERABLE"),
    );
    assert_eq!(
        run(&m, "developer")["userStyles"]["savedValue"]["status"],
        "unknown"
    );
}

#[test]
fn sc_inv_016_a_link_leaving_the_project() {
    let mut m = fixture();
    m.files.remove(PLAN);
    m.outside_links.push(PLAN.into());
    let j = run(&m, "developer");
    assert_eq!(j["groups"][0]["selected"]["status"], "unknown");
    assert!(j["diagnostics"]
        .to_string()
        .contains("leads outside its permitted folder"));
}

#[test]
fn sc_inv_018_019_020_021_state_and_assessment() {
    let mut m = fixture();
    for (ws, kind, style) in [
        ("REVIEWING_IMPLEMENTATION", "IMPLEMENTATION", "first"),
        ("REVIEWING_FINAL", "FINAL_DELIVERABLE", "last"),
    ] {
        m.put(
            ".standards/STATE.md",
            &state(ws, "STANDARD", "FULL_DELIVERABLE"),
        );
        let k = kind.parse().unwrap();
        let path = crate::model::layout::record_path(ArtifactType::Review, Some(k), ID);
        m.put(
            &path,
            &set(
                &crate::assets::new_record(ArtifactType::Review, Some(k), ID),
                "User Style",
                style,
            ),
        );
        m.put(&format!(".standards/user-styles/reviewer/{style}.md"), "x");
        let j = run(&m, "reviewer");
        assert_eq!(j["groups"][0]["selected"]["value"], kind);
        assert_eq!(j["groups"][0]["selected"]["source"], "state");
        assert_eq!(j["userStyles"]["selected"]["value"], style, "{j:#}");
        assert!(j["groups"][0]["options"]
            .as_array()
            .unwrap()
            .iter()
            .all(|o| o["selectability"] != "user"));
    }
    m.put(
        ".standards/STATE.md",
        &state("ARCHITECTING", "STANDARD", "FULL_DELIVERABLE"),
    );
    let j = run(&m, "architect");
    assert_eq!(j["groups"][0]["selected"]["status"], "assessment");
    assert_eq!(
        j["groups"][0]["options"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|o| o["condition"] == "true")
            .count(),
        4
    );
    m.put(
        ".standards/STATE.md",
        &state("ARCHITECTING", "DOCUMENTATION", "NONE"),
    );
    assert_eq!(
        run(&m, "architect")["groups"][0]["selected"]["value"],
        "DOCUMENTATION"
    );
    m.put(
        ".standards/STATE.md",
        &set(
            &state("AUDITING", "STANDARD", "FULL_DELIVERABLE"),
            "AuditTarget",
            "payment behavior",
        ),
    );
    let j = run(&m, "auditor");
    assert_eq!(j["groups"][0]["selected"]["status"], "assessment");
    assert_eq!(j["groups"][1]["savedArgument"]["value"], "payment behavior");
    assert_eq!(
        j["groups"][1]["options"][0]["selectability"],
        "assessment-required"
    );
    m.put(
        ".standards/STATE.md",
        &state("AUDITING", "STANDARD", "FULL_DELIVERABLE"),
    );
    assert_eq!(
        run(&m, "auditor")["groups"][1]["savedArgument"]["status"],
        "none"
    );
    m.put(
        ".standards/STATE.md",
        &state("TESTING", "STANDARD", "FULL_DELIVERABLE"),
    );
    let path = crate::model::layout::record_path(ArtifactType::Verification, None, ID);
    m.put(
        &path,
        &set(
            &crate::assets::new_record(ArtifactType::Verification, None, ID),
            "Mode",
            "REVERIFY",
        ),
    );
    let j = run(&m, "tester");
    assert_eq!(j["groups"][0]["savedValue"]["value"], "REVERIFY");
    assert_eq!(j["groups"][0]["selected"]["status"], "assessment");
}

#[test]
fn sc_inv_005_047_050_navigator_needs_no_workflow_files() {
    let mut m = MemFiles::with_skills(Client::Codex);
    let j = run(&m, "navigator");
    assert_eq!(j["complete"], true);
    assert_eq!(j["groups"][0]["selected"]["status"], "conversation");
    assert_eq!(j["groups"][0]["defaultForNew"], "EXPLAIN");
    assert_eq!(j["userStyles"]["selected"]["status"], "conversation");
    m.put(".standards/user-styles/navigator/tony.md", "x");
    m.put(".standards/user-styles/navigator/tony.md.md", "x");
    m.put(".standards/user-styles/navigator/tony.md.md.md", "x");
    let j = run(&m, "navigator");
    let sel: Vec<Value> = j["userStyles"]["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["selector"].clone())
        .collect();
    assert_eq!(sel, [json!("tony"), Value::Null, json!("tony.md.md.md")]);
    assert_eq!(
        j["userStyles"]["options"][1]["selectorReason"],
        "ambiguous name"
    );
    assert!(
        to_text(&discover(&m, "navigator", Ok(Client::Codex))).contains("tony.md (ambiguous name)")
    );
    assert!(to_text(&discover(&m, "navigator", Ok(Client::Codex))).contains("GRILL_ME"));
}

#[test]
fn sc_inv_058_record_compatible_selectors() {
    let mut m = fixture();
    m.put(".standards/user-styles/developer/<formal>.md", "x");
    m.put(".standards/user-styles/developer/team | compact.md", "x");
    m.put(".standards/user-styles/navigator/<formal>.md", "x");
    let j = run(&m, "developer");
    let o = &j["userStyles"]["options"];
    assert_eq!(o[0]["selector"], "<formal>.md");
    assert_eq!(o[1]["selector"], Value::Null);
    assert_eq!(o[1]["selectorReason"], "no record-compatible name");
    assert_eq!(
        run(&m, "navigator")["userStyles"]["options"][0]["selector"],
        "<formal>"
    );
}

#[test]
fn sc_inv_022_three_valued_logic() {
    use super::super::metadata::{Binding, Condition};
    use super::super::resolve::{Resolver, Tri};
    let m = fixture();
    let cat = crate::invocation::assemble(&m, ".agents/skills/developer", "developer").unwrap();
    let mut r = Resolver::new(&m, &cat);
    let fact = |f: &str, v: &str| Condition::Fact {
        binding: Binding::Workflow(f.into()),
        equals: v.into(),
    };
    let unknown = Condition::Fact {
        binding: Binding::Workflow("Active Work.Nope".into()),
        equals: "x".into(),
    };
    let t = fact("WorkflowState", "DEVELOPING");
    let f = fact("WorkflowState", "TESTING");
    assert_eq!(r.eval(&unknown), Tri::Unknown);
    assert_eq!(
        r.eval(&Condition::All(vec![unknown.clone(), f.clone()])),
        Tri::False
    );
    assert_eq!(
        r.eval(&Condition::All(vec![unknown.clone(), t.clone()])),
        Tri::Unknown
    );
    assert_eq!(
        r.eval(&Condition::Any(vec![unknown.clone(), t.clone()])),
        Tri::True
    );
    assert_eq!(
        r.eval(&Condition::Any(vec![unknown.clone(), f.clone()])),
        Tri::Unknown
    );
    assert_eq!(
        r.eval(&Condition::All(vec![t.clone(), Condition::Any(vec![f, t])])),
        Tri::True
    );
}

#[test]
fn sc_inv_004_two_clients_are_never_merged() {
    let e = discover(&fixture(), "developer", Err("pass --client".into()));
    let j = to_json(&e);
    assert_eq!(j["catalogStatus"], "unavailable");
    assert_eq!(j["client"], Value::Null);
    assert_eq!(j["groups"], json!([]));
    assert_eq!(j["userStyles"], Value::Null);
    assert_eq!(j["diagnostics"][0]["code"], "catalog-error");
}

#[test]
fn sc_inv_035_036_broken_catalogs_are_unavailable() {
    let skill = ".agents/skills/developer/SKILL.md";
    let base = fixture();
    let original = base.files[skill].clone();
    for (from, to) in [
        (
            "\"defaultForNew\": \"AUTONOMOUS\"",
            "\"defaultForNew\": \"ABSENT\"",
        ),
        ("SKILL.md#modes", "SKILL.md#no-such-heading"),
        ("SKILL.md#modes", "../SKILL.md#modes"),
        ("\"id\": \"collaboration\"", "\"id\": \"other\""),
    ] {
        let mut m = base.clone();
        m.put(skill, &original.replace(from, to));
        let j = run(&m, "developer");
        assert_eq!(j["catalogStatus"], "unavailable", "{to}");
        assert_eq!(j["groups"], json!([]));
    }
    let mut m = base.clone();
    m.put(
        ".agents/skills/developer/modes/dup.md",
        &base.files[".agents/skills/developer/modes/autonomous.md"],
    );
    assert_eq!(run(&m, "developer")["catalogStatus"], "unavailable");
    let mut m = base.clone();
    m.put(".agents/skills/developer/modes/plain.md", "# no metadata\n");
    assert_eq!(run(&m, "developer")["catalogStatus"], "unavailable");
    assert_eq!(run(&base, "../escape")["catalogStatus"], "unavailable");
}

fn doc_record(fields: &[(&str, &str)]) -> String {
    let mut r = crate::assets::new_record(ArtifactType::Documentation, None, ID);
    for (k, v) in fields {
        r = set(&r, k, v);
    }
    r
}

#[test]
fn sc_inv_017_044_documenter_saved_target_and_free_text_detail() {
    let mut m = fixture();
    m.put(
        ".standards/STATE.md",
        &state("DOCUMENTING", "DOCUMENTATION", "NONE"),
    );
    let path = crate::model::layout::record_path(ArtifactType::Documentation, None, ID);
    m.put(
        &path,
        &doc_record(&[
            ("Collaboration", "GUIDED"),
            ("Target", "FILE"),
            ("Target Detail", "docs/start.md"),
            ("User Style", "alice"),
            ("Status", "IN_PROGRESS"),
        ]),
    );
    m.put(".standards/user-styles/documenter/alice.md", "x");
    let j = run(&m, "documenter");
    assert_eq!(j["complete"], true, "{j:#}");
    assert_eq!(j["groups"][0]["selected"]["value"], "GUIDED");
    assert_eq!(j["groups"][1]["selected"]["value"], "FILE");
    assert_eq!(j["groups"][1]["savedArgument"]["value"], "docs/start.md");
    assert_eq!(j["userStyles"]["selected"]["value"], "alice");
    m.put(
        &path,
        &doc_record(&[
            ("Collaboration", "GUIDED"),
            ("Target", "VERTICAL_SLICE"),
            ("Target Detail", "input A | B"),
            ("User Style", "NONE"),
            ("Status", "IN_PROGRESS"),
        ]),
    );
    let j = run(&m, "documenter");
    assert_eq!(j["complete"], true, "{j:#}");
    assert_eq!(j["groups"][1]["savedArgument"]["value"], "input A | B");
}

#[test]
fn sc_inv_023_024_025_reviewer_conflicts_unknowns_and_cycles() {
    let skill = ".agents/skills/reviewer/modes/final-deliverable.md";
    let mut m = fixture();
    m.put(
        ".standards/STATE.md",
        &state("REVIEWING_IMPLEMENTATION", "STANDARD", "FULL_DELIVERABLE"),
    );
    let original = m.files[skill].clone();
    let any = r#""when": { "any": [ { "fact": { "kind": "workflow", "field": "WorkflowState" }, "equals": "REVIEWING_FINAL" }, { "fact": { "kind": "workflow", "field": "WorkflowState" }, "equals": "REVIEWING_IMPLEMENTATION" } ] }"#;
    let when_at = original.find("\"when\"").unwrap();
    let when_end = original[when_at..].find("\n}").unwrap() + when_at;
    m.put(
        skill,
        &format!("{}{any}{}", &original[..when_at], &original[when_end..]),
    );
    let j = run(&m, "reviewer");
    assert_eq!(j["groups"][0]["selected"]["status"], "conflict", "{j:#}");
    assert_eq!(j["userStyles"]["savedValue"]["status"], "unknown");
    let unknown = r#""when": { "fact": { "kind": "record", "artifact": "DEVELOPMENT", "field": "Status" }, "equals": "COMPLETE" }"#;
    m.files.remove(PLAN);
    m.put(
        skill,
        &format!("{}{unknown}{}", &original[..when_at], &original[when_end..]),
    );
    let j = run(&m, "reviewer");
    assert_eq!(j["groups"][0]["selected"]["status"], "unknown");
    let cyclic = r#""when": { "fact": { "kind": "record", "artifact": "REVIEW", "field": "Status", "reviewKindFromGroup": "review-kind" }, "equals": "COMPLETE" }"#;
    m.put(
        skill,
        &format!("{}{cyclic}{}", &original[..when_at], &original[when_end..]),
    );
    let j = run(&m, "reviewer");
    assert_eq!(j["catalogStatus"], "unavailable");
    assert!(j["diagnostics"][0]["message"]
        .as_str()
        .unwrap()
        .contains("cyclic"));
    // A saved value reading its own state-derived group is fine.
    m.put(skill, &original);
    let sk = ".agents/skills/reviewer/SKILL.md";
    let role = m.files[sk].replace(
            "\"selectionRules\": \"SKILL.md#review-kinds\"",
            "\"selectionRules\": \"SKILL.md#review-kinds\", \"savedValue\": { \"kind\": \"record\", \"artifact\": \"REVIEW\", \"field\": \"ReviewKind\", \"reviewKindFromGroup\": \"review-kind\" }",
        );
    m.put(sk, &role);
    assert_eq!(run(&m, "reviewer")["catalogStatus"], "complete");
}

#[test]
fn sc_inv_026_048_untrustworthy_state_makes_state_facts_unknown() {
    let mut m = fixture();
    m.put(
        ".standards/STATE.md",
        &state("REVIEWING_FINAL", "EXPEDITED", "NONE"),
    );
    assert_eq!(
        run(&m, "reviewer")["groups"][0]["selected"]["status"],
        "unknown"
    );
    m.put(
        ".standards/STATE.md",
        &set(
            &state("REVIEWING_FINAL", "STANDARD", "FULL_DELIVERABLE"),
            "Id",
            "../../wrong",
        ),
    );
    assert_eq!(
        run(&m, "reviewer")["groups"][0]["selected"]["status"],
        "unknown"
    );
    m.put(
        ".standards/STATE.md",
        &state("REVIEWING_IMPLEMENTATION", "STANDARD", "FULL_DELIVERABLE"),
    );
    m.put(
        ".standards/MODE.md",
        &format!(
            "{}<<<<<<< ours\n",
            crate::model::mode::render(ProjectMode::Brownfield)
        ),
    );
    let j = run(&m, "reviewer");
    assert_eq!(j["groups"][0]["selected"]["status"], "unknown");
    assert!(j["diagnostics"]
        .to_string()
        .contains("MODE.md has merge conflicts"));
}

#[test]
fn sc_inv_028_054_057_overlapping_style_names() {
    let mut m = fixture();
    m.put(".standards/user-styles/developer/tony.md", "x");
    m.put(PLAN, &plan("STEPWISE", "PROPOSED", "tony.md", "false"));
    assert_eq!(
        run(&m, "developer")["userStyles"]["selected"]["value"],
        "tony"
    );
    m.put(".standards/user-styles/developer/tony.md.md", "x");
    let j = run(&m, "developer");
    assert_eq!(j["userStyles"]["selected"]["status"], "invalid");
    assert_eq!(j["userStyles"]["selected"]["value"], "tony.md");
    assert_eq!(j["complete"], false);
    m.put(PLAN, &plan("STEPWISE", "PROPOSED", "tony.md.md", "false"));
    let j = run(&m, "developer");
    assert_eq!(j["complete"], true);
    assert_eq!(j["userStyles"]["selected"]["value"], "tony.md");
    assert_eq!(j["userStyles"]["options"][1]["selector"], "tony.md.md");
    let text = to_text(&discover(&m, "developer", Ok(Client::Codex)));
    assert!(text.contains("tony.md (invoke as tony.md.md)"), "{text}");
}

#[test]
fn sc_inv_041_042_043_conditions_and_locks_on_options() {
    let mode = ".agents/skills/developer/modes/autonomous.md";
    let mut m = fixture();
    let original = m.files[mode].clone();
    let tied = original.replace("\"selection\": \"user\"", "\"selection\": \"user\", \"when\": { \"fact\": { \"kind\": \"record\", \"artifact\": \"DEVELOPMENT\", \"field\": \"Mode\" }, \"equals\": \"AUTONOMOUS\" }");
    m.put(mode, &tied);
    m.put(PLAN, &plan("OBSOLETE", "PROPOSED", "NONE", "false"));
    let j = run(&m, "developer");
    assert_eq!(j["groups"][0]["options"][0]["condition"], "unknown");
    assert_eq!(j["groups"][0]["selected"]["status"], "invalid");
    let never = original.replace("\"selection\": \"user\"", "\"selection\": \"user\", \"when\": { \"fact\": { \"kind\": \"workflow\", \"field\": \"CycleMode\" }, \"equals\": \"DOCUMENTATION\" }");
    m.put(mode, &never);
    m.put(PLAN, &plan("STEPWISE", "PROPOSED", "NONE", "false"));
    assert_eq!(
        run(&m, "developer")["groups"][0]["options"][0]["selectability"],
        "unavailable"
    );
    m.put(mode, &original);
    let sk = ".agents/skills/developer/SKILL.md";
    let locked = m.files[sk].replace(
            "\"defaultForNew\": \"AUTONOMOUS\",",
            "\"defaultForNew\": \"AUTONOMOUS\", \"lockedWhen\": { \"fact\": { \"kind\": \"record\", \"artifact\": \"DEVELOPMENT\", \"field\": \"User Style Locked\" }, \"equals\": \"true\" },",
        );
    m.put(sk, &locked);
    m.put(PLAN, &plan("STEPWISE", "APPROVED", "NONE", "true"));
    let j = run(&m, "developer");
    assert!(
        j["groups"][0]["options"]
            .as_array()
            .unwrap()
            .iter()
            .all(|o| o["selectability"] == "locked"),
        "{j:#}"
    );
    assert_eq!(j["groups"][0]["selected"]["value"], "STEPWISE");
}

#[test]
fn sc_inv_049_051_omitted_records_and_visible_values() {
    let mut m = fixture();
    m.put(
        ".standards/STATE.md",
        &state("DOCUMENTING", "DOCUMENTATION", "NONE"),
    );
    let j = run(&m, "developer");
    assert_eq!(j["groups"][0]["savedValue"]["status"], "unknown");
    assert!(j["diagnostics"].to_string().contains("omits"));
    let mut m = fixture();
    let p = plan("STEPWISE", "PROPOSED", "NONE", "false").replace(
        "`Mode`: `STEPWISE`",
        "`Mode`: `STEPWISE` <!-- retained collaboration -->",
    ) + "<!-- `User Style Locked`: `true` -->\n";
    m.put(PLAN, &p);
    let j = run(&m, "developer");
    assert_eq!(j["complete"], true, "{j:#}");
    assert_eq!(j["groups"][0]["selected"]["value"], "STEPWISE");
    assert_eq!(j["userStyles"]["locked"], "false");
}
