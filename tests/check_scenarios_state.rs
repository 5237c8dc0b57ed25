//! Scenarios of SC-STATE, SC-PROV and SC-CHK (`../shared/spec/scenarios.md`) that a
//! fixture case cannot express: STATE.md parser-level scenarios, field mutations
//! run in a loop, and scenarios that need the real binary in a real git
//! repository (`.gitignore`, reinstall, unreadable files).

use std::path::{Path, PathBuf};

use standards_core::check::{self, testing::installed_tree, Options};
use standards_core::model::state::{fresh_template, Baseline, StateDoc};
use standards_core::model::tree::{MemTree, Node, Tree};
use standards_core::model::vocab::{
    CompletionPolicy, CycleMode, PendingCadence, ProjectMode, WorkflowState,
};

use crate::check::lay_base;
use crate::common::{read, stdout, write, Env};

const ID: &str = "add-user-search-20260927T190146Z-7bef0f04";

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/check")
}

/// "set X=Y": replaces the backticked value of the first `` `X`: `…` `` field.
fn set(text: &str, field: &str, value: &str) -> String {
    crate::common::set_field(text, field, value)
}

fn brownfield() -> String {
    fresh_template(ProjectMode::Brownfield)
}

fn parse(text: &str) -> StateDoc {
    StateDoc::parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn invalid(text: &str, what: &str) -> String {
    match StateDoc::parse(text) {
        Ok(_) => panic!("{what}: must be invalid\n{text}"),
        Err(e) => e.to_string(),
    }
}

/// A BOM and CRLF line endings.
fn bom_crlf(text: &str) -> String {
    format!("\u{feff}{}", text.replace('\n', "\r\n"))
}

// --- SC-STATE parser-level scenarios -------------------------------------------

#[test]
fn sc_state_001_002_fresh_templates_are_valid() {
    // SC-STATE-001 (greenfield) and SC-STATE-002 (brownfield).
    for (mode, state) in [
        (ProjectMode::Greenfield, WorkflowState::Scoping),
        (ProjectMode::Brownfield, WorkflowState::Auditing),
    ] {
        let doc = parse(&fresh_template(mode));
        assert_eq!(
            doc.active_work.completion_policy.value,
            CompletionPolicy::None
        );
        assert_eq!(doc.active_work.id.value, "UNSET");
        assert_eq!(doc.cycle_mode.value, CycleMode::Unset);
        assert_eq!(doc.workflow_state.value, state);
    }
}

#[test]
fn sc_state_003_active_cycles_with_each_valid_policy() {
    // SC-STATE-003
    for (mode, policy) in [
        ("STANDARD", CompletionPolicy::FullDeliverable),
        ("STANDARD", CompletionPolicy::ImplementationReviewed),
        ("EXPEDITED", CompletionPolicy::None),
    ] {
        let mut t = set(&brownfield(), "Id", "add-search-20261003T120000Z-1234abcd");
        t = set(&t, "Request", "Add search.");
        t = set(&t, "WorkflowState", "DEVELOPING");
        t = set(&t, "CycleMode", mode);
        t = set(&t, "CompletionPolicy", policy.as_str());
        let doc = parse(&t);
        assert_eq!(doc.active_work.completion_policy.value, policy);
        assert_eq!(doc.cycle_mode.value.as_str(), mode);
        assert_eq!(doc.active_work.request.value, "Add search.");
        assert_eq!(doc.active_work.baseline, Baseline::None);
    }
}

#[test]
fn sc_state_004_terminal_snapshots_keep_their_policy() {
    // SC-STATE-004
    for state in ["SIGNED_OFF", "CANCELLED"] {
        for policy in CompletionPolicy::ALL {
            let mut t = set(&brownfield(), "Id", ID);
            t = set(&t, "WorkflowState", state);
            t = set(&t, "CompletionPolicy", policy.as_str());
            let doc = parse(&t);
            assert_eq!(doc.active_work.completion_policy.value, *policy);
            assert!(!doc.has_active_cycle());
        }
    }
}

fn documentation_auditing() -> String {
    let mut t = set(
        &brownfield(),
        "Id",
        "document-greeting-20261002T090000Z-5e6f7a8b",
    );
    t = set(
        &t,
        "Request",
        "Document the greeting; keep it short: one page, no API!",
    );
    set(&t, "CycleMode", "DOCUMENTATION")
}

#[test]
fn sc_state_005_documentation_request_is_verbatim() {
    // SC-STATE-005
    let doc = parse(&documentation_auditing());
    assert_eq!(doc.cycle_mode.value, CycleMode::Documentation);
    assert_eq!(doc.workflow_state.value, WorkflowState::Auditing);
    assert_eq!(
        doc.active_work.completion_policy.value,
        CompletionPolicy::None
    );
    assert_eq!(
        doc.active_work.request.value,
        "Document the greeting; keep it short: one page, no API!"
    );
    assert_eq!(doc.active_work.development.value, "NONE");
    assert_eq!(
        doc.active_work.pending_verification_cadence.value,
        PendingCadence::None
    );
}

#[test]
fn sc_state_006_pending_mode_round_trips() {
    // SC-STATE-006
    for mode in ["STANDARD", "EXPEDITED", "DOCUMENTATION"] {
        let doc = parse(&set(&brownfield(), "PendingCycleMode", mode));
        assert_eq!(doc.pending_cycle_mode.value.as_str(), mode);
        assert_eq!(doc.cycle_mode.value, CycleMode::Unset);
        assert_eq!(doc.active_work.id.value, "UNSET");
        assert_eq!(doc.active_work.request.value, "UNSET");
    }
}

fn pending_documentation() -> String {
    let mut t = set(&brownfield(), "PendingCycleMode", "DOCUMENTATION");
    t = set(&t, "PendingCycleRequest", "Document the greeting command.");
    set(
        &t,
        "PendingCycleBlockedOn",
        "Waiting for the current cycle's sign-off.",
    )
}

#[test]
fn sc_state_007_pending_documentation_request() {
    // SC-STATE-007
    let doc = parse(&pending_documentation());
    assert_eq!(doc.pending_cycle_mode.value, CycleMode::Documentation);
    assert_eq!(
        doc.pending_cycle_request.value,
        "Document the greeting command."
    );
    assert_eq!(
        doc.pending_cycle_blocked_on.value,
        "Waiting for the current cycle's sign-off."
    );
    assert_eq!(doc.active_work.id.value, "UNSET");
    assert_eq!(doc.cycle_mode.value, CycleMode::Unset);
    assert!(doc.active_cycle_id().is_none());
}

/// The ways a closed-vocabulary field can be broken, as SC-STATE-008 and
/// SC-STATE-011 list them. `line` is the field's own `` `Name`: `value` `` text;
/// `lower`, `choices` and `other` are the scenario's lowercase value, choice list
/// and conflicting value.
fn broken_forms(
    text: &str,
    name: &str,
    line: &str,
    [lower, choices, other]: [&str; 3],
) -> Vec<(&'static str, String)> {
    assert!(text.contains(line), "{line}");
    let with = |value: &str| text.replacen(line, &format!("`{name}`: {value}"), 1);
    vec![
        ("missing", text.replacen(line, "", 1)),
        // A literally empty code span cannot be written (section 6 of check-rules):
        // two backticks open a double-backtick span.
        ("empty", with("``")),
        ("blank", with("` `")),
        ("unknown", with("`UNKNOWN`")),
        ("lowercase", with(&format!("`{lower}`"))),
        ("choice list", with(&format!("`{choices}`"))),
        (
            "duplicate identical line",
            text.replacen(line, &format!("{line}\n{line}"), 1),
        ),
        (
            "duplicate conflicting line",
            text.replacen(line, &format!("{line}\n`{name}`: `{other}`"), 1),
        ),
    ]
}

#[test]
fn sc_state_008_broken_cycle_mode_fields_are_invalid() {
    // SC-STATE-008: CycleMode and PendingCycleMode in an active DOCUMENTATION state.
    let text = documentation_auditing();
    parse(&text);
    for (name, line) in [
        ("CycleMode", "`CycleMode`: `DOCUMENTATION`"),
        ("PendingCycleMode", "`PendingCycleMode`: `UNSET`"),
    ] {
        let forms = ["documentation", "STANDARD | DOCUMENTATION", "STANDARD"];
        for (form, broken) in broken_forms(&text, name, line, forms) {
            let e = invalid(&broken, &format!("{name} {form}"));
            assert!(e.starts_with(".standards/STATE.md:"), "{name} {form}: {e}");
        }
    }
}

#[test]
fn sc_state_009_terminal_documentation_mode_is_inconsistent() {
    // SC-STATE-009
    for state in ["SIGNED_OFF", "CANCELLED"] {
        let t = set(&documentation_auditing(), "WorkflowState", state);
        let e = invalid(&t, state);
        assert!(e.contains("CycleMode"), "{e}");
        let doc = parse(&set(&t, "CycleMode", "UNSET"));
        assert_eq!(
            doc.active_work.completion_policy.value,
            CompletionPolicy::None
        );
    }
}

#[test]
fn sc_state_010_bom_and_crlf_with_a_pending_request() {
    // SC-STATE-010
    let doc = parse(&bom_crlf(&pending_documentation()));
    assert!(doc.has_bom);
    assert_eq!(doc.pending_cycle_mode.value, CycleMode::Documentation);
    assert_eq!(
        doc.pending_cycle_request.value,
        "Document the greeting command."
    );
}

fn standard_developing() -> String {
    let mut t = set(&brownfield(), "Id", ID);
    t = set(&t, "Request", "Add user search");
    t = set(&t, "CycleMode", "STANDARD");
    t = set(&t, "WorkflowState", "DEVELOPING");
    set(&t, "CompletionPolicy", "FULL_DELIVERABLE")
}

#[test]
fn sc_state_011_broken_completion_policy_is_named() {
    // SC-STATE-011
    let text = standard_developing();
    parse(&text);
    let line = "`CompletionPolicy`: `FULL_DELIVERABLE`";
    let forms = [
        "full_deliverable",
        "FULL_DELIVERABLE | IMPLEMENTATION_REVIEWED",
        "IMPLEMENTATION_REVIEWED",
    ];
    for (form, broken) in broken_forms(&text, "CompletionPolicy", line, forms) {
        let e = invalid(&broken, form);
        assert!(
            e.starts_with(".standards/STATE.md:") && e.contains("CompletionPolicy"),
            "{form}: {e}"
        );
    }
}

#[test]
fn sc_state_012_completion_policy_outside_active_work_does_not_count() {
    // SC-STATE-012
    let text = standard_developing();
    let line = "`CompletionPolicy`: `FULL_DELIVERABLE` ";
    let without = text.replacen(line, "", 1);
    let placed = [
        (
            "before the Active Work heading",
            without.replacen("## Active Work", &format!("{line}\n\n## Active Work"), 1),
        ),
        (
            "inside Handoff",
            without.replacen("## Handoff\n", &format!("## Handoff\n\n{line}\n"), 1),
        ),
        (
            "inside a comment in Active Work",
            without.replacen(
                "`BaselineReconciliation`: `NONE`",
                &format!("`BaselineReconciliation`: `NONE`\n\n<!-- {line} -->"),
                1,
            ),
        ),
    ];
    for (where_, t) in placed {
        let e = invalid(&t, where_);
        assert!(e.contains("missing `CompletionPolicy`"), "{where_}: {e}");
    }
}

#[test]
fn sc_state_013_014_commented_policy_neither_overrides_nor_duplicates() {
    // SC-STATE-013
    let t = set(
        &standard_developing(),
        "CompletionPolicy",
        "IMPLEMENTATION_REVIEWED",
    );
    let commented = t.replacen(
        "`BaselineReconciliation`: `NONE`",
        "<!-- `CompletionPolicy`: `FULL_DELIVERABLE` -->\n\n`BaselineReconciliation`: `NONE`",
        1,
    );
    assert_eq!(
        parse(&commented).active_work.completion_policy.value,
        CompletionPolicy::ImplementationReviewed
    );
    // SC-STATE-014
    assert_eq!(
        parse(&bom_crlf(&t)).active_work.completion_policy.value,
        CompletionPolicy::ImplementationReviewed
    );
}

#[test]
fn sc_state_015_upgrade_fixture_states_validate() {
    // SC-STATE-015: the six upgrade fixtures' STATE.md files (rebuilt as check cases
    // from the catalogue's SC-FXT descriptions; each case also passes check).
    for (case, policy) in [
        ("valid-upgrade-cancelled-pending", CompletionPolicy::None),
        ("valid-expedited-signoff-fixture", CompletionPolicy::None),
        (
            "valid-upgrade-greenfield-scoping",
            CompletionPolicy::FullDeliverable,
        ),
        (
            "valid-upgrade-incremental-checkpoint",
            CompletionPolicy::FullDeliverable,
        ),
        (
            "valid-standard-documenting-resolves-a-qualified-finding",
            CompletionPolicy::FullDeliverable,
        ),
        (
            "valid-upgrade-standard-recovery",
            CompletionPolicy::FullDeliverable,
        ),
    ] {
        let text = read(
            fixtures()
                .join("cases")
                .join(case)
                .join("tree/.standards/STATE.md"),
        );
        assert_eq!(
            parse(&text).active_work.completion_policy.value,
            policy,
            "{case}"
        );
    }
}

// --- SC-STATE-034: each field removed, duplicated or invalid ---------------------

fn f_std() -> MemTree {
    let mut tree = installed_tree(ProjectMode::Brownfield);
    let base = fixtures().join("bases/f-std");
    let mut stack = vec![base.clone()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p
                    .strip_prefix(&base)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                tree.insert(&rel, std::fs::read(&p).unwrap());
            }
        }
    }
    tree
}

fn problems(tree: &MemTree) -> Vec<String> {
    check::run(tree, None, Options::default())
        .problems
        .iter()
        .map(|p| format!("{} {}: {}", p.rule, p.file, p.message))
        .collect()
}

#[test]
fn sc_state_034_each_field_removed_duplicated_or_invalid_is_named() {
    // SC-STATE-034
    let plan = format!(".standards/docs/development/{ID}.md");
    let report = format!(".standards/docs/verification/{ID}.md");
    let state = ".standards/STATE.md".to_string();
    let fields = [
        (&plan, "Verification Cadence"),
        (&plan, "Current Increment"),
        (&report, "Assessment Purpose"),
        (&report, "Assessment Target"),
        (&state, "PendingVerificationCadence"),
        (&state, "CompletionPolicy"),
    ];
    let original = f_std();
    assert_eq!(problems(&original), Vec::<String>::new());
    for (path, field) in fields {
        let Node::File(bytes) = original.node(path) else {
            panic!("{path} is not in F-STD")
        };
        let text = String::from_utf8(bytes).unwrap();
        let label = format!("`{field}`:");
        let start = text.find(&label).unwrap();
        let open = start + label.len() + text[start + label.len()..].find('`').unwrap();
        let end = open + 1 + text[open + 1..].find('`').unwrap() + 1;
        let pair = &text[start..end];
        let mutations = [
            ("removed", text.replacen(pair, "", 1)),
            (
                "duplicated",
                text.replacen(pair, &format!("{pair}\n{pair}"), 1),
            ),
            ("invalid", set(&text, field, "invalid")),
        ];
        for (how, changed) in mutations {
            let mut tree = original.clone();
            tree.insert(path, changed);
            let found = problems(&tree);
            assert!(
                found.iter().any(|p| p.contains(field)),
                "{field} {how}: no problem names it: {found:#?}"
            );
        }
        // Restoring the original passes again.
        let mut tree = original.clone();
        tree.insert(path, text);
        assert_eq!(problems(&tree), Vec::<String>::new(), "{field} restored");
    }
}

// --- Scenarios on the real binary and a real git repository ----------------------

fn installed() -> (Env, PathBuf) {
    let (env, repo) = Env::repo();
    write(repo.join("app.py"), "print(\"hi\")\n");
    env.run(&repo, &["install"]).success();
    (env, repo)
}

fn json(a: &assert_cmd::assert::Assert) -> serde_json::Value {
    serde_json::from_str(&stdout(a)).unwrap_or_else(|e| panic!("not JSON ({e}): {}", stdout(a)))
}

fn rule_files(v: &serde_json::Value) -> Vec<(String, String)> {
    v["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["rule"].as_str().unwrap().to_string(),
                p["file"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn sc_state_037_incremental_intent_at_scoping_survives_a_reinstall() {
    // SC-STATE-037
    let (env, repo) = installed();
    let path = repo.join(".standards/STATE.md");
    let mut t = set(&read(&path), "Id", ID);
    for (k, v) in [
        ("Request", "Add user search"),
        ("CycleMode", "STANDARD"),
        ("CompletionPolicy", "FULL_DELIVERABLE"),
        ("WorkflowState", "SCOPING"),
        // A brownfield cycle starts in AUDITING; Scoping follows the audit.
        ("Kind", "FORWARD"),
        ("From", "AUDITING"),
        ("PendingVerificationCadence", "INCREMENTAL"),
    ] {
        t = set(&t, k, v);
    }
    write(&path, &t);
    env.run(&repo, &["check"]).success();
    env.commit_all(&repo, "cycle");
    env.run(&repo, &["install"]).success();
    assert_eq!(read(&path), t, "reinstall keeps STATE.md byte for byte");
    env.run(&repo, &["check"]).success();
}

#[test]
fn sc_prov_006_011_gitignored_records_are_still_checked() {
    // SC-PROV-006: the report is ignored by git and drops its AC-002 row.
    let (env, repo) = installed();
    lay_base(&repo, "f-std");
    write(repo.join(".gitignore"), ".standards/docs/verification/\n");
    env.commit_all(&repo, "f-std");
    let report = repo.join(format!(".standards/docs/verification/{ID}.md"));
    let text = read(&report);
    write(
        &report,
        text.replace("| AC-002 | pending Documenter | pending |\n", ""),
    );
    let v = json(&env.run(&repo, &["check", "--json"]).code(1));
    assert!(
        rule_files(&v).contains(&(
            "AC-010".into(),
            format!(".standards/docs/verification/{ID}.md")
        )),
        "{v}"
    );
    assert!(v.to_string().contains("AC-002"), "{v}");

    // SC-PROV-011: the plan is ignored by git and its Mode is the template's choice list.
    let (env, repo) = installed();
    lay_base(&repo, "f-std");
    write(repo.join(".gitignore"), ".standards/docs/development/\n");
    env.commit_all(&repo, "f-std");
    let plan = repo.join(format!(".standards/docs/development/{ID}.md"));
    write(
        &plan,
        read(&plan).replace(
            "`Mode`: `AUTONOMOUS`",
            "`Mode`: `AUTONOMOUS | STEPWISE | CODE_WITH_ME`",
        ),
    );
    let v = json(&env.run(&repo, &["check", "--json"]).code(1));
    assert!(
        rule_files(&v).contains(&(
            "RH-002".into(),
            format!(".standards/docs/development/{ID}.md")
        )),
        "{v}"
    );
    assert!(v.to_string().contains("`Mode`"), "{v}");
}

#[test]
fn sc_prov_001_malformed_provenance_names_the_unknown_artifact() {
    // SC-PROV-001 (the message part; the fixture case
    // PV-001-PV-008-RH-001-RH-002-stray-records-at-testing pins rule and file).
    let mut tree = f_std();
    tree.insert(
        "docs/notes/broken.md",
        "<!-- STANDARDS\nArtifact: VERIFICATON\nCycle: x-1\n-->\n",
    );
    let found = problems(&tree);
    assert!(
        found
            .iter()
            .any(|p| p.starts_with("PV-001 docs/notes/broken.md: ") && p.contains("VERIFICATON")),
        "{found:#?}"
    );
}

#[test]
fn sc_chk_009_an_unreadable_markdown_file_becomes_a_note() {
    // SC-CHK-009: the scenario makes the file unreadable with mode 000 as a non-root
    // user. Root reads any mode, so there bytes that are not UTF-8 stand in for it:
    // that read fails too, and must become a note as well, never a crash.
    let (env, repo) = installed();
    lay_base(&repo, "f-std");
    let private = repo.join("notes/private.md");
    write(&private, "# Private\n");
    let mut perms = std::fs::metadata(&private).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o000);
    std::fs::set_permissions(&private, perms).unwrap();
    if std::fs::read(&private).is_ok() {
        // Running as root: mode 000 does not stop reads.
        std::fs::remove_file(&private).unwrap();
        write(&private, [0xffu8, 0xfe, 0x00]);
    }
    let a = env.run(&repo, &["check", "--json"]).success();
    let v = json(&a);
    assert_eq!(v["ok"], true, "{v}");
    assert!(
        v["notes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n.as_str().unwrap().contains("notes/private.md")),
        "{v}"
    );
}

#[test]
fn sc_chk_011_f_inc_with_a_pending_switch_passes_without_rewriting_state() {
    // SC-CHK-011
    let (env, repo) = installed();
    lay_base(&repo, "f-inc");
    let path = repo.join(".standards/STATE.md");
    let t = set(
        &read(&path),
        "PendingVerificationCadence",
        "AFTER_IMPLEMENTATION",
    );
    write(&path, &t);
    let before = std::fs::read(&path).unwrap();
    let v = json(&env.run(&repo, &["check", "--json"]).success());
    assert_eq!(v["ok"], true, "{v}");
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

#[test]
fn sc_plan_002_a_git_mv_keeps_the_plan_history() {
    // SC-PLAN-002 on a real repository: the plan moved with `git mv`, then DEV-001
    // renamed DEV-003; the comparison with the last commit follows the rename.
    let (env, repo) = installed();
    lay_base(&repo, "f-std");
    env.commit_all(&repo, "f-std");
    let old = format!(".standards/docs/development/{ID}.md");
    let new = format!("plans/{ID}.md");
    std::fs::create_dir_all(repo.join("plans")).unwrap();
    env.git(&repo, &["mv", &old, &new]);
    let state = repo.join(".standards/STATE.md");
    write(&state, set(&read(&state), "Development", &new));
    write(
        repo.join(&new),
        read(repo.join(&new))
            .replace("### DEV-001", "### DEV-003")
            .replace("`Depends On`: `DEV-001`", "`Depends On`: `DEV-003`"),
    );
    let v = json(&env.run(&repo, &["check", "--json"]).code(1));
    let found = rule_files(&v);
    assert!(found.contains(&("GT-005".into(), new.clone())), "{v}");
    assert!(v.to_string().contains("DEV-001"), "{v}");
}

#[test]
fn sc_chk_012_marked_markdown_anywhere_outside_standards_is_scanned() {
    // SC-CHK-012: both example paths and both unknown Artifact values of the catalogue.
    let (env, repo) = installed();
    write(
        repo.join("docs/broken.md"),
        "<!-- STANDARDS\nArtifact: NOPE\nCycle: c-1\n-->\n",
    );
    write(
        repo.join("docs/notes/broken.md"),
        "<!-- STANDARDS\nArtifact: VERIFICATON\nCycle: c-1\n-->\n",
    );
    let v = json(&env.run(&repo, &["check", "--json"]).code(1));
    assert_eq!(
        rule_files(&v),
        [
            ("PV-001".to_string(), "docs/broken.md".to_string()),
            ("PV-001".to_string(), "docs/notes/broken.md".to_string()),
        ],
        "{v}"
    );
    let text = v.to_string();
    assert!(text.contains("NOPE") && text.contains("VERIFICATON"), "{v}");
}
