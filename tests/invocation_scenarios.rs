//! SC-INV scenarios of the behaviour catalogue (§19) through the real binary on
//! real repositories: the §19 fixture (`app.py`, codex, hooks off, a STANDARD
//! cycle at DEVELOPING with a PROPOSED, unlocked STEPWISE plan) or F-STD.

use std::path::{Path, PathBuf};

use serde_json::Value;
use standards_core::model::layout::record_path;
use standards_core::model::vocab::ArtifactType;

use crate::check::lay_base;
use crate::common::{read, set_field, stdout, write, Env};
use crate::fixture::snapshot;

const ID: &str = "sample-20261005T120000Z-1234abcd";
const OTHER: &str = "other-20261005T120000Z-5678abcd";

fn plan_path(id: &str) -> String {
    record_path(ArtifactType::Development, None, id)
}

fn json(a: &assert_cmd::assert::Assert) -> Value {
    serde_json::from_str(&stdout(a)).unwrap_or_else(|e| panic!("{e}: {}", stdout(a)))
}

/// `text` with each `(field, value)` set in turn.
fn with(text: &str, fields: &[(&str, &str)]) -> String {
    fields
        .iter()
        .fold(text.to_string(), |t, (k, v)| set_field(&t, k, v))
}

/// A development plan of cycle `id` with the four fields §19 varies.
fn plan(id: &str, mode: &str, status: &str, style: &str, locked: &str) -> String {
    with(
        &standards_core::assets::new_record(ArtifactType::Development, None, id),
        &[
            ("Mode", mode),
            ("Status", status),
            ("User Style", style),
            ("User Style Locked", locked),
        ],
    )
}

/// The §19 fixture for `client`: `app.py`, hooks off, STATE at DEVELOPING
/// (STANDARD, FULL_DELIVERABLE, FORWARD from ARCHITECTING) and the plan
/// (STEPWISE, PROPOSED, NONE, false) at the fixed path.
fn fixture_for(client: &str) -> (Env, PathBuf) {
    let (env, repo) = Env::repo();
    write(repo.join("app.py"), "print(\"hi\")\n");
    env.run(&repo, &["install", "--client", client, "--no-hooks"])
        .success();
    set_state(&repo, &[]);
    write(
        repo.join(plan_path(ID)),
        plan(ID, "STEPWISE", "PROPOSED", "NONE", "false"),
    );
    (env, repo)
}

fn fixture() -> (Env, PathBuf) {
    fixture_for("codex")
}

/// Rewrites STATE.md as the §19 state with `changes` applied after it.
fn set_state(repo: &Path, changes: &[(&str, &str)]) {
    let path = repo.join(".standards/STATE.md");
    let base = with(
        &read(&path),
        &[
            ("WorkflowState", "DEVELOPING"),
            ("CycleMode", "STANDARD"),
            ("CompletionPolicy", "FULL_DELIVERABLE"),
            ("Id", ID),
            ("Request", "Sample."),
            ("Kind", "FORWARD"),
            ("From", "ARCHITECTING"),
        ],
    );
    write(&path, with(&base, changes));
}

fn discover(env: &Env, repo: &Path, role: &str) -> Value {
    json(&env.run(repo, &["invocation", role, "--json"]).success())
}

/// Each user style a discovery offers: its ID, selector and selector reason.
fn style_options(j: &Value) -> Vec<(String, Value, Value)> {
    j["userStyles"]["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            (
                o["id"].as_str().unwrap().to_string(),
                o["selector"].clone(),
                o["selectorReason"].clone(),
            )
        })
        .collect()
}

fn diagnostics(j: &Value) -> String {
    j["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["message"].as_str().unwrap().to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

/// SC-INV-015: `Development` is `./` plus the fixed path, but the plan there
/// carries another cycle's provenance: its saved style is unknown, and a
/// diagnostic says the provenance is not the current cycle's.
#[test]
fn sc_inv_015_a_plan_with_another_cycles_provenance() {
    let (env, repo) = fixture();
    set_state(&repo, &[("Development", &format!("./{}", plan_path(ID)))]);
    write(
        repo.join(plan_path(ID)),
        plan(OTHER, "STEPWISE", "PROPOSED", "NONE", "false")
            .replace(&format!("`Cycle`: `{OTHER}`"), &format!("`Cycle`: `{ID}`")),
    );
    let j = discover(&env, &repo, "developer");
    assert_eq!(j["userStyles"]["savedValue"]["status"], "unknown", "{j:#}");
    assert_eq!(j["complete"], false);
    assert!(
        diagnostics(&j).contains(&format!(
            "the provenance of `{}` is not the current cycle's DEVELOPMENT record",
            plan_path(ID)
        )),
        "{j:#}"
    );
    // The same plan with this cycle's provenance resolves: the pointer is fine.
    write(
        repo.join(plan_path(ID)),
        plan(ID, "STEPWISE", "PROPOSED", "NONE", "false"),
    );
    let j = discover(&env, &repo, "developer");
    assert_eq!(j["userStyles"]["savedValue"]["value"], "NONE", "{j:#}");
}

/// Runs `f` on the binary's user when the tests run as a normal user; as
/// root (where permissions do not stop reads) on `nobody` through `setpriv`.
fn unprivileged(env: &Env, dir: &Path, args: &[&str]) -> assert_cmd::assert::Assert {
    let root = std::process::Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false);
    if !root {
        return env.run(dir, args);
    }
    use std::os::unix::fs::PermissionsExt;
    // `nobody` must be able to reach the repository.
    let mut p = dir.to_path_buf();
    while p.starts_with(env.dir.path()) {
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
        if !p.pop() {
            break;
        }
    }
    let mut cmd = env.sealed("setpriv", dir);
    cmd.args(["--reuid=65534", "--regid=65534", "--clear-groups"])
        .arg(Env::bin())
        .args(args);
    assert_cmd::assert::Assert::new(cmd.output().expect("setpriv runs"))
}

/// SC-INV-031 (non-root): an unreadable navigator style folder makes the
/// style inventory unknown and discovery incomplete.
#[test]
fn sc_inv_031_an_unreadable_style_folder() {
    use std::os::unix::fs::PermissionsExt;
    let (env, repo) = fixture();
    let styles = repo.join(".standards/user-styles/navigator");
    write(styles.join("tony.md"), "private");
    let readable =
        json(&unprivileged(&env, &repo, &["invocation", "navigator", "--json"]).success());
    assert_eq!(readable["complete"], true, "{readable:#}");
    std::fs::set_permissions(&styles, std::fs::Permissions::from_mode(0o000)).unwrap();
    let j = json(&unprivileged(&env, &repo, &["invocation", "navigator", "--json"]).success());
    std::fs::set_permissions(&styles, std::fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(j["userStyles"]["status"], "unknown", "{j:#}");
    assert_eq!(j["complete"], false);
    assert!(diagnostics(&j).contains("cannot list"), "{j:#}");
}

/// SC-INV-040: TESTING with REVERIFY saved and the `verify` mode file deleted:
/// the lone candidate is still assessed, not taken from the saved value.
#[test]
fn sc_inv_040_a_lone_assessment_candidate_is_still_assessed() {
    let (env, repo) = fixture();
    set_state(
        &repo,
        &[("WorkflowState", "TESTING"), ("From", "DEVELOPING")],
    );
    let report = record_path(ArtifactType::Verification, None, ID);
    write(
        repo.join(&report),
        with(
            &standards_core::assets::new_record(ArtifactType::Verification, None, ID),
            &[
                ("Mode", "REVERIFY"),
                ("Status", "IN_PROGRESS"),
                ("User Style", "NONE"),
            ],
        ),
    );
    std::fs::remove_file(repo.join(".agents/skills/tester/modes/verify.md")).unwrap();
    let j = discover(&env, &repo, "tester");
    let g = &j["groups"][0];
    assert_eq!(j["catalogStatus"], "complete", "{j:#}");
    let ids: Vec<&str> = g["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["REVERIFY"]);
    assert_eq!(g["savedValue"]["value"], "REVERIFY");
    assert_eq!(g["selected"]["status"], "assessment", "{j:#}");
    assert_eq!(g["selected"]["value"], Value::Null);
}

/// SC-INV-045: a DOCUMENTATION cycle at ARCHITECTING selects DOCUMENTATION
/// from the state; an extra user mode in `design-mode` is state-controlled.
#[test]
fn sc_inv_045_a_state_selection_controls_an_extra_user_mode() {
    let (env, repo) = fixture();
    set_state(
        &repo,
        &[
            ("WorkflowState", "ARCHITECTING"),
            ("CycleMode", "DOCUMENTATION"),
            ("CompletionPolicy", "NONE"),
            ("From", "SCOPING"),
        ],
    );
    write(
        repo.join(".agents/skills/architect/modes/extra.md"),
        "<!-- standards:invocation -->\n```json\n{\"schemaVersion\":1,\"kind\":\"mode\",\"group\":\"design-mode\",\"id\":\"EXTRA\",\"label\":\"Extra\",\"description\":\"An extra design mode.\",\"selection\":\"user\"}\n```\n",
    );
    let j = discover(&env, &repo, "architect");
    let g = &j["groups"][0];
    assert_eq!(g["id"], "design-mode");
    assert_eq!(g["selected"]["value"], "DOCUMENTATION", "{j:#}");
    assert_eq!(g["selected"]["source"], "state");
    let extra = g["options"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["id"] == "EXTRA")
        .expect("the extra mode is listed");
    assert_eq!(extra["selectability"], "state-controlled", "{j:#}");
}

/// SC-INV-046: no developer `modes/` folder makes the catalog unavailable; a
/// navigator style named `NONE.md` (reserved) or a style folder that is a
/// symbolic link makes the style inventory unknown.
#[test]
fn sc_inv_046_missing_modes_a_reserved_style_and_a_linked_style_folder() {
    let (env, repo) = fixture();
    std::fs::remove_dir_all(repo.join(".agents/skills/developer/modes")).unwrap();
    let j = json(
        &env.run(&repo, &["invocation", "developer", "--json"])
            .code(1),
    );
    assert_eq!(j["catalogStatus"], "unavailable", "{j:#}");
    assert_eq!(j["groups"], serde_json::json!([]));

    let styles = repo.join(".standards/user-styles/navigator");
    write(styles.join("NONE.md"), "private");
    let j = discover(&env, &repo, "navigator");
    assert_eq!(j["userStyles"]["status"], "unknown", "{j:#}");
    assert_eq!(j["userStyles"]["options"], serde_json::json!([]));
    assert_eq!(j["complete"], false);
    assert!(diagnostics(&j).contains("`NONE.md` is not a usable style name"));

    std::fs::remove_dir_all(&styles).unwrap();
    let real = repo.join(".standards/user-styles/shared");
    write(real.join("tony.md"), "private");
    std::os::unix::fs::symlink("shared", &styles).unwrap();
    let j = discover(&env, &repo, "navigator");
    assert_eq!(j["userStyles"]["status"], "unknown", "{j:#}");
    assert_eq!(j["userStyles"]["options"], serde_json::json!([]));
    assert!(diagnostics(&j).contains("is a symbolic link, not a real folder"));
    assert!(!j.to_string().contains("private"));
}

/// SC-INV-052: HTML comments holding old `Mode` or `User Style Locked` values,
/// spanning LF, CRLF, CR, U+2028 or U+2029, after Mode or before Locked, are
/// not read: the visible values win and nothing is written.
#[test]
fn sc_inv_052_comments_with_old_values_across_line_separators() {
    let (env, repo) = fixture();
    let path = repo.join(plan_path(ID));
    for sep in ["\n", "\r\n", "\r", "\u{2028}", "\u{2029}"] {
        let text = plan(ID, "STEPWISE", "PROPOSED", "NONE", "true")
            .replace(
                "`Mode`: `STEPWISE`",
                &format!("`Mode`: `STEPWISE` <!-- was{sep}`Mode`: `AUTONOMOUS` -->"),
            )
            .replace(
                "`User Style Locked`: `true`",
                &format!(
                    "<!--{sep}`User Style Locked`: `false`{sep}--> `User Style Locked`: `true`"
                ),
            );
        write(&path, &text);
        let before = snapshot(&repo);
        let j = discover(&env, &repo, "developer");
        let name = format!("{sep:?}");
        assert_eq!(j["complete"], true, "{name}: {j:#}");
        assert_eq!(j["groups"][0]["selected"]["value"], "STEPWISE", "{name}");
        assert_eq!(j["userStyles"]["selected"]["value"], "NONE", "{name}");
        assert_eq!(j["userStyles"]["locked"], "true", "{name}");
        assert_eq!(before, snapshot(&repo), "{name}: discovery wrote a file");
        // Without the comment markers the old values are a second field each.
        write(&path, text.replace("<!--", "").replace("-->", ""));
        let j = discover(&env, &repo, "developer");
        assert_eq!(j["complete"], false, "{name}: {j:#}");
    }
}

/// SC-INV-053: a style whose name holds `<!--literal-->`, saved in the plan:
/// inside the code span the comment opener is literal text.
#[test]
fn sc_inv_053_a_comment_opener_inside_a_saved_style_is_literal() {
    let (env, repo) = fixture();
    let style = "tony<!--literal-->";
    write(
        repo.join(format!(".standards/user-styles/developer/{style}.md")),
        "private",
    );
    write(
        repo.join(plan_path(ID)),
        plan(ID, "STEPWISE", "PROPOSED", style, "false"),
    );
    let j = discover(&env, &repo, "developer");
    assert_eq!(j["complete"], true, "{j:#}");
    assert_eq!(j["userStyles"]["selected"]["value"], style);
    assert_eq!(j["userStyles"]["savedValue"]["value"], style);
}

/// SC-INV-055: `tony.md`, `tony.md.md` and `tony.md.md.md`: the middle one has
/// no unambiguous name, which JSON and the text summary both say.
#[test]
fn sc_inv_055_an_ambiguous_style_name() {
    let (env, repo) = fixture();
    for name in ["tony.md", "tony.md.md", "tony.md.md.md"] {
        write(
            repo.join(".standards/user-styles/navigator").join(name),
            "private",
        );
    }
    let j = discover(&env, &repo, "navigator");
    let options = style_options(&j);
    assert_eq!(
        options,
        [
            ("tony".into(), "tony".into(), Value::Null),
            ("tony.md".into(), Value::Null, "ambiguous name".into()),
            ("tony.md.md".into(), "tony.md.md.md".into(), Value::Null),
        ]
    );
    assert_eq!(j["userStyles"]["selected"]["status"], "conversation");
    let text = stdout(&env.run(&repo, &["invocation", "navigator"]).success());
    assert!(text.contains("tony.md (ambiguous name)"), "{text}");
    assert!(!text.contains("private"));
}

/// The selector discovery advertises for the style the user names as `input`.
fn selector_for(j: &Value, input: &str) -> String {
    if input == "NONE" {
        return "NONE".into();
    }
    let options = j["userStyles"]["options"].as_array().unwrap();
    let matching: Vec<&Value> = options
        .iter()
        .filter(|o| {
            o["id"] == input || Some(o["id"].as_str().unwrap()) == input.strip_suffix(".md")
        })
        .collect();
    let [o] = matching.as_slice() else {
        panic!("`{input}` names {} options: {j:#}", matching.len());
    };
    o["selector"].as_str().expect("a selector").to_string()
}

/// SC-INV-056: the selector discovery gives for what the user typed is the
/// value to save; saved under each plan status and lock, it reads back.
#[test]
fn sc_inv_056_selectors_persist() {
    for (styles, input, selector, display) in [
        (&["tony.md"][..], "tony.md", "tony", "tony"),
        (
            &["tony.md", "tony.md.md"][..],
            "tony.md.md",
            "tony.md.md",
            "tony.md",
        ),
        (&["tony.md"][..], "NONE", "NONE", "NONE"),
    ] {
        let (env, repo) = fixture();
        for s in styles {
            write(
                repo.join(".standards/user-styles/developer").join(s),
                "private",
            );
        }
        let found = selector_for(&discover(&env, &repo, "developer"), input);
        assert_eq!(found, selector, "{input}");
        for (status, locked, mode) in [
            ("PROPOSED", "false", "STEPWISE"),
            ("APPROVED", "true", "STEPWISE"),
            ("IN_PROGRESS", "true", "AUTONOMOUS"),
            ("PROPOSED", "true", "CODE_WITH_ME"),
        ] {
            write(
                repo.join(plan_path(ID)),
                plan(ID, mode, status, &found, locked),
            );
            let before = snapshot(&repo);
            let j = discover(&env, &repo, "developer");
            let case = format!("{input} {status} {locked} {mode}");
            assert_eq!(j["complete"], true, "{case}: {j:#}");
            assert_eq!(j["userStyles"]["savedValue"]["value"], selector, "{case}");
            assert_eq!(j["userStyles"]["selected"]["value"], display, "{case}");
            assert_eq!(j["userStyles"]["locked"], locked, "{case}");
            assert_eq!(j["groups"][0]["selected"]["value"], mode, "{case}");
            assert_eq!(before, snapshot(&repo), "{case}: discovery wrote a file");
        }
    }
}

/// SC-INV-057: with `tony.md` and `tony.md.md`, a saved display id `tony.md`
/// matches two files: invalid, with a diagnostic, whatever the lock.
#[test]
fn sc_inv_057_a_saved_display_id_that_matches_two_files() {
    let (env, repo) = fixture();
    for s in ["tony.md", "tony.md.md"] {
        write(
            repo.join(".standards/user-styles/developer").join(s),
            "private",
        );
    }
    for (status, locked) in [
        ("PROPOSED", "false"),
        ("APPROVED", "true"),
        ("PROPOSED", "true"),
    ] {
        write(
            repo.join(plan_path(ID)),
            plan(ID, "STEPWISE", status, "tony.md", locked),
        );
        let before = snapshot(&repo);
        let j = discover(&env, &repo, "developer");
        let u = &j["userStyles"];
        assert_eq!(j["complete"], false, "{status} {locked}: {j:#}");
        assert_eq!(u["savedValue"]["value"], "tony.md");
        assert_eq!(u["selected"]["status"], "invalid");
        assert_eq!(u["selected"]["value"], "tony.md");
        assert_eq!(u["locked"], locked);
        assert!(diagnostics(&j)
            .contains("the saved style `tony.md` does not resolve to exactly one file"));
        assert_eq!(before, snapshot(&repo));
    }
}

const RECORD_ROLES: [&str; 5] = [
    "developer",
    "tester",
    "reviewer",
    "documenter",
    "synchronizer",
];
const CONVERSATION_ROLES: [&str; 4] = ["navigator", "scoper", "architect", "auditor"];

/// SC-INV-058: `<formal>.md` and `team | compact.md` for every role under both
/// clients: record-backed roles need a name a record can hold, conversation
/// roles take the names as they are.
#[test]
fn sc_inv_058_record_compatible_selectors_for_every_role_and_client() {
    let (env, repo) = fixture_for("both");
    for role in RECORD_ROLES.iter().chain(&CONVERSATION_ROLES) {
        for s in ["<formal>.md", "team | compact.md"] {
            write(
                repo.join(".standards/user-styles").join(role).join(s),
                "private",
            );
        }
    }
    for client in ["codex", "claude"] {
        for role in RECORD_ROLES.iter().chain(&CONVERSATION_ROLES) {
            let j = json(
                &env.run(&repo, &["invocation", role, "--client", client, "--json"])
                    .success(),
            );
            let o = &j["userStyles"]["options"];
            assert_eq!(o[0]["id"], "<formal>", "{client} {role}");
            assert_eq!(o[1]["id"], "team | compact", "{client} {role}");
            if RECORD_ROLES.contains(role) {
                assert_eq!(o[0]["selector"], "<formal>.md", "{client} {role}");
                assert_eq!(o[1]["selector"], Value::Null, "{client} {role}");
                assert_eq!(o[1]["selectorReason"], "no record-compatible name");
            } else {
                assert_eq!(o[0]["selector"], "<formal>", "{client} {role}");
                assert_eq!(o[1]["selector"], "team | compact", "{client} {role}");
                assert_eq!(o[1]["selectorReason"], Value::Null);
            }
            assert!(!j.to_string().contains("private"), "{client} {role}");
        }
    }
}

const SID: &str = "add-user-search-20260927T190146Z-7bef0f04";

/// F-STD installed for `client` in a git repository.
fn f_std(client: &str) -> (Env, PathBuf) {
    let (env, repo) = Env::repo();
    write(repo.join("app.py"), "print(\"hi\")\n");
    env.run(&repo, &["install", "--client", client, "--no-hooks"])
        .success();
    lay_base(&repo, "f-std");
    (env, repo)
}

/// SC-INV-059: F-STD with a STEPWISE plan, `Development` written three ways
/// that all name the fixed path: check passes and discovery is complete.
#[test]
fn sc_inv_059_the_development_pointer_written_three_ways() {
    let (env, repo) = f_std("claude");
    let plan = repo.join(plan_path(SID));
    write(&plan, set_field(&read(&plan), "Mode", "STEPWISE"));
    let state = repo.join(".standards/STATE.md");
    for pointer in [
        plan_path(SID),
        format!("./{}", plan_path(SID)),
        plan_path(SID).replace("development/", "development/../development/"),
    ] {
        write(&state, set_field(&read(&state), "Development", &pointer));
        let before = (read(&state), read(&plan));
        env.run(&repo, &["check"]).success();
        let j = json(
            &env.run(
                &repo,
                &["invocation", "developer", "--client", "claude", "--json"],
            )
            .success(),
        );
        assert_eq!(j["complete"], true, "{pointer}: {j:#}");
        assert_eq!(j["groups"][0]["selected"]["value"], "STEPWISE", "{pointer}");
        assert_eq!(j["userStyles"]["savedValue"]["value"], "NONE", "{pointer}");
        assert_eq!(j["userStyles"]["locked"], "true", "{pointer}");
        assert_eq!(before, (read(&state), read(&plan)), "{pointer}");
    }
}

/// The developer styles of SC-INV-060.
const STYLES: [&str; 7] = [
    "<formal>.md",
    "team | compact.md",
    "alice.md",
    "tony.md",
    "tony.md.md",
    "team|compact.md",
    " .md",
];

/// SC-INV-060's project for `client` and `cycle_mode`, with the plan
/// (STEPWISE, PROPOSED, NONE, false) and the developer styles; returns the
/// plan's path.
fn round_trip(client: &str, cycle_mode: &str) -> (Env, PathBuf, PathBuf) {
    let (env, repo, plan) = if cycle_mode == "STANDARD" {
        let (env, repo) = f_std(client);
        std::fs::remove_file(repo.join(record_path(ArtifactType::Verification, None, SID)))
            .unwrap();
        let state = repo.join(".standards/STATE.md");
        write(
            &state,
            with(
                &read(&state),
                &[("WorkflowState", "DEVELOPING"), ("From", "ARCHITECTING")],
            )
            .replace("Full verification passed.", "The design is ready."),
        );
        let plan = repo.join(plan_path(SID));
        write(
            &plan,
            read(&plan).replace("`Status`: `DONE`", "`Status`: `PENDING`"),
        );
        (env, repo, plan)
    } else {
        let (env, repo) = Env::repo();
        write(repo.join("app.py"), "print(\"hi\")\n");
        env.run(&repo, &["install", "--client", client, "--no-hooks"])
            .success();
        env.run(
            &repo,
            &[
                "start",
                "--request",
                "Fix the date format",
                "--mode",
                "EXPEDITED",
            ],
        )
        .success();
        let path = stdout(
            &env.run(&repo, &["artifact", "init", "DEVELOPMENT"])
                .success(),
        );
        let plan = repo.join(path.trim());
        write(
            &plan,
            format!(
                "{}\n## Build Steps\n\n### DEV-001 — Fix the format\n\n`Status`: `PENDING` `Depends On`: `NONE`\n`Acceptance`: `EXPEDITED_REQUEST`\n",
                read(&plan)
            ),
        );
        (env, repo, plan)
    };
    write(
        &plan,
        with(
            &read(&plan),
            &[
                ("Mode", "STEPWISE"),
                ("Status", "PROPOSED"),
                ("User Style", "NONE"),
                ("User Style Locked", "false"),
            ],
        ),
    );
    for s in STYLES {
        write(
            repo.join(".standards/user-styles/developer").join(s),
            "private style text",
        );
    }
    (env, repo, plan)
}

/// SC-INV-060: the round-trip base passes check and discovery is complete
/// under both clients and both cycle modes, showing no style text.
#[test]
fn sc_inv_060_the_style_round_trip_base() {
    for client in ["codex", "claude"] {
        for cycle_mode in ["STANDARD", "EXPEDITED"] {
            let (env, repo, _) = round_trip(client, cycle_mode);
            let case = format!("{client} {cycle_mode}");
            let a = env.run(&repo, &["check"]);
            assert!(a.get_output().status.success(), "{case}: {}", stdout(&a));
            let before = snapshot(&repo);
            let j = discover(&env, &repo, "developer");
            assert_eq!(j["complete"], true, "{case}: {j:#}");
            assert_eq!(j["client"], client);
            assert_eq!(j["userStyles"]["savedValue"]["value"], "NONE", "{case}");
            assert_eq!(j["userStyles"]["locked"], "false", "{case}");
            assert!(!j.to_string().contains("private"), "{case}");
            assert_eq!(before, snapshot(&repo), "{case}");
        }
    }
}

/// SC-INV-061: every advertised selector, saved, passes check and reads back
/// as its option. Departure (D25): `team|compact` contains `|`, which the
/// protocol's User Styles forbid in a record (and `check` refuses, RH-002), so
/// discovery gives it no selector (`no record-compatible name`) instead of the
/// catalogue's `team|compact`.
#[test]
fn sc_inv_061_every_advertised_selector_round_trips() {
    let (env, repo, plan) = round_trip("codex", "STANDARD");
    let j = discover(&env, &repo, "developer");
    let advertised = style_options(&j);
    let none = || Value::from("no record-compatible name");
    assert_eq!(
        advertised,
        [
            (" ".into(), " .md".into(), Value::Null),
            ("<formal>".into(), "<formal>.md".into(), Value::Null),
            ("alice".into(), "alice".into(), Value::Null),
            ("team | compact".into(), Value::Null, none()),
            ("team|compact".into(), Value::Null, none()),
            ("tony".into(), "tony".into(), Value::Null),
            ("tony.md".into(), "tony.md.md".into(), Value::Null),
        ]
    );
    let base = read(&plan);
    for (id, selector, _) in &advertised {
        let Some(selector) = selector.as_str() else {
            continue;
        };
        write(&plan, set_field(&base, "User Style", selector));
        let a = env.run(&repo, &["check"]);
        assert!(
            a.get_output().status.success(),
            "{selector:?}: {}",
            stdout(&a)
        );
        let j = discover(&env, &repo, "developer");
        assert_eq!(j["complete"], true, "{selector:?}: {j:#}");
        assert_eq!(j["userStyles"]["selected"]["value"], id.as_str());
        assert_eq!(j["userStyles"]["savedValue"]["value"], selector);
    }
    // D25: `team|compact` saved by hand is refused by check and not used by discovery.
    write(&plan, set_field(&base, "User Style", "team|compact"));
    env.run(&repo, &["check"]).code(1);
    let j = discover(&env, &repo, "developer");
    assert_eq!(j["complete"], false, "{j:#}");
    assert_eq!(j["userStyles"]["selected"]["status"], "unknown");
}

/// SC-INV-062: locked selections under APPROVED, IN_PROGRESS and PROPOSED.
#[test]
fn sc_inv_062_locked_selectors() {
    let (env, repo, plan) = round_trip("claude", "EXPEDITED");
    let base = read(&plan);
    for status in ["APPROVED", "IN_PROGRESS", "PROPOSED"] {
        for (selector, display) in [
            ("<formal>.md", "<formal>"),
            ("tony.md.md", "tony.md"),
            ("NONE", "NONE"),
        ] {
            write(
                &plan,
                with(
                    &base,
                    &[
                        ("Status", status),
                        ("User Style", selector),
                        ("User Style Locked", "true"),
                    ],
                ),
            );
            let case = format!("{status} {selector}");
            let a = env.run(&repo, &["check"]);
            assert!(a.get_output().status.success(), "{case}: {}", stdout(&a));
            let before = snapshot(&repo);
            let j = json(
                &env.run(
                    &repo,
                    &["invocation", "developer", "--client", "claude", "--json"],
                )
                .success(),
            );
            assert_eq!(j["complete"], true, "{case}: {j:#}");
            assert_eq!(j["userStyles"]["savedValue"]["value"], selector, "{case}");
            assert_eq!(j["userStyles"]["selected"]["value"], display, "{case}");
            assert_eq!(j["userStyles"]["locked"], "true", "{case}");
            assert_eq!(before, snapshot(&repo), "{case}");
        }
    }
}

/// Whether check's output has the RH-002 problem that the plan's header field
/// `field` still holds the template's unfilled `value`.
fn unfilled_problem(out: &str, field: &str, value: &str) -> bool {
    out.lines().any(|l| {
        l.contains(&format!("header field `{field}`"))
            && l.contains(&format!("`{value}`"))
            && l.contains("still holds the template's")
            && l.ends_with("[RH-002]")
    })
}

/// SC-INV-063: unfilled style values (a display id, a choice list, a
/// placeholder) fail check as the template's unfilled value, and discovery
/// leaves the style unknown; nothing is rewritten.
#[test]
fn sc_inv_063_unfilled_style_values() {
    let (env, repo, plan) = round_trip("codex", "STANDARD");
    let base = read(&plan);
    for value in [
        "<formal>",
        "team | compact",
        "team | compact.md",
        "<identifier>",
        "NONE | <identifier>",
    ] {
        let text = with(
            &base,
            &[
                ("Status", "APPROVED"),
                ("User Style", value),
                ("User Style Locked", "true"),
            ],
        );
        write(&plan, &text);
        let a = env.run(&repo, &["check"]).code(1);
        let out = stdout(&a);
        assert!(
            unfilled_problem(&out, "User Style", value),
            "{value}: {out}"
        );
        let before = snapshot(&repo);
        let j = discover(&env, &repo, "developer");
        assert_eq!(j["complete"], false, "{value}: {j:#}");
        assert_eq!(j["userStyles"]["selected"]["status"], "unknown", "{value}");
        assert_eq!(j["userStyles"]["locked"], "true", "{value}");
        assert_eq!(before, snapshot(&repo), "{value}");
        assert_eq!(read(&plan), text);
    }
}

/// SC-INV-064: a plan Mode left as the template's placeholder or choice list.
#[test]
fn sc_inv_064_an_unfilled_plan_mode() {
    let (env, repo, plan) = round_trip("claude", "STANDARD");
    let base = read(&plan);
    for mode in ["<mode>", "AUTONOMOUS | STEPWISE | CODE_WITH_ME"] {
        write(&plan, set_field(&base, "Mode", mode));
        let out = stdout(&env.run(&repo, &["check"]).code(1));
        assert!(unfilled_problem(&out, "Mode", mode), "{mode}: {out}");
        let j = json(
            &env.run(
                &repo,
                &["invocation", "developer", "--client", "claude", "--json"],
            )
            .success(),
        );
        assert_eq!(
            j["groups"][0]["selected"]["status"], "unknown",
            "{mode}: {j:#}"
        );
        assert_eq!(j["complete"], false);
    }
}

/// SC-INV-065: the text summary of the round-trip base.
#[test]
fn sc_inv_065_the_text_summary_names_how_to_invoke_each_style() {
    let (env, repo, _) = round_trip("codex", "EXPEDITED");
    let before = snapshot(&repo);
    let text = stdout(&env.run(&repo, &["invocation", "developer"]).success());
    assert!(text.contains("<formal> (invoke as <formal>.md)"), "{text}");
    assert!(
        text.contains("team | compact (no record-compatible name)"),
        "{text}"
    );
    assert!(!text.contains("team | compact (ambiguous name)"), "{text}");
    assert!(!text.contains("private"));
    assert_eq!(before, snapshot(&repo));
}

/// The SC-INV IDs named by test functions: `sc_inv_004_…`, a list
/// (`sc_inv_041_042_043_…`) or a span (`sc_inv_006_to_010_…`).
fn named_in_test_names(text: &str) -> std::collections::BTreeSet<u32> {
    let mut out = std::collections::BTreeSet::new();
    for (at, _) in text.match_indices("fn sc_inv_") {
        let rest = &text[at + "fn sc_inv_".len()..];
        let mut parts = rest.split('_').peekable();
        let mut last = None;
        while let Some(p) = parts.next() {
            if p == "to" {
                if let (Some(a), Some(b)) = (last, parts.peek().and_then(|n| n.parse::<u32>().ok()))
                {
                    out.extend(a..=b);
                    parts.next();
                    last = Some(b);
                    continue;
                }
                break;
            }
            match p.parse::<u32>() {
                Ok(n) if p.len() == 3 => {
                    out.insert(n);
                    last = Some(n);
                }
                _ => break,
            }
        }
    }
    out
}

#[test]
fn every_invocation_scenario_is_named_by_a_test() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut text = String::new();
    let mut stack = vec![
        root.join("src"),
        root.join("crates/standards-core/src"),
        root.join("tests"),
    ];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                text.push_str(&read(&p));
            }
        }
    }
    let named = named_in_test_names(&text);
    let missing: Vec<String> = read(root.join("fixtures/invocation/scenarios.txt"))
        .lines()
        .filter(|l| l.starts_with("SC-INV-"))
        .filter(|id| {
            let n: u32 = id["SC-INV-".len()..].parse().unwrap();
            !named.contains(&n) && !text.contains(*id)
        })
        .map(String::from)
        .collect();
    assert!(missing.is_empty(), "no test names {missing:?}");
    assert_eq!(
        named_in_test_names("fn sc_inv_006_to_010_x() fn sc_inv_041_042_y()"),
        [6, 7, 8, 9, 10, 41, 42].into_iter().collect()
    );
}
