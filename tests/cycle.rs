//! `git standards cycle new` (scenarios SC-CYC, RT §2, RF §10).

use chrono::TimeZone;

use crate::common::{stderr, stdout, write};
use crate::fixture::{is_generated, Project, STATE};

use git_standards::commands::cycle::{new_id, NewRequest};
use git_standards::repo::Project as Repo;

/// The slug part of a generated ID.
fn slug_of(id: &str) -> &str {
    &id[..id.len() - "-20260101T000000Z-00000000".len()]
}

/// SC-CYC-001..004: the slug rules, observed through the printed IDs.
#[test]
fn sc_cyc_001_to_004_slugs_of_printed_ids() {
    let p = Project::brown();
    for (request, slug) in [
        (
            "Add user search by name & e-mail (v2)!",
            "add-user-search-by-name-e-mail-v2",
        ),
        ("Ünïcode — café search", "unicode-cafe-search"),
        ("!!!", "cycle"),
    ] {
        let id = p.line(&["cycle", "new", "--request", request]);
        assert!(is_generated(&id), "{id}");
        assert_eq!(slug_of(&id), slug, "{request}");
    }
    // SC-CYC-003: whole words only, at most 40 characters.
    let id = p.line(&["cycle", "new", "--request", &"word ".repeat(30)]);
    assert_eq!(slug_of(&id), ["word"; 8].join("-"));
    assert!(slug_of(&id).len() <= 40);
}

#[test]
fn a_request_of_ten_thousand_characters_and_one_of_punctuation_only() {
    let p = Project::brown();
    let long = "abcdefghi ".repeat(1_000);
    assert_eq!(long.len(), 10_000);
    let id = p.line(&["cycle", "new", "--request", &long]);
    assert!(is_generated(&id), "{id}");
    assert_eq!(slug_of(&id), ["abcdefghi"; 4].join("-"));
    let one_word = "x".repeat(10_000);
    let id = p.line(&["cycle", "new", "--request", &one_word]);
    assert_eq!(slug_of(&id), "x".repeat(40));

    let id = p.line(&["cycle", "new", "--request", "?!… — ((%)) ¿¡ 「」"]);
    assert!(is_generated(&id), "{id}");
    assert_eq!(slug_of(&id), "cycle");
}

/// SC-CYC-005: one line, and no file changes.
#[test]
fn sc_cyc_005_prints_one_id_and_changes_no_file() {
    let p = Project::brown();
    let before = p.snapshot();
    let state = p.state();
    let id = p.line(&["cycle", "new", "--request", "Add user search by name"]);
    assert!(id.starts_with("add-user-search-by-name-"), "{id}");
    assert!(is_generated(&id), "{id}");
    assert_eq!(p.state(), state, "STATE.md is byte-identical");
    assert_eq!(p.snapshot(), before, "no file changes");
    assert!(
        !p.path(".standards/CYCLE_IDS.md").exists(),
        "no registry (D13)"
    );
}

/// SC-CYC-006: the ID recorded as the active cycle survives a reinstall.
/// (The scenario ends with `check`, which another branch builds: its result is
/// not asserted here.)
#[test]
fn sc_cyc_006_recorded_id_survives_a_reinstall() {
    let p = Project::brown();
    let id = p.line(&["cycle", "new", "--request", "Add user search by name"]);
    p.set_state(&[
        ("Id", &id),
        ("Request", "Add user search by name"),
        ("CycleMode", "STANDARD"),
        ("CompletionPolicy", "FULL_DELIVERABLE"),
    ]);
    let state = p.state();
    p.run(&["install"]).success();
    assert_eq!(p.state(), state);
    // The reinstalled runtime sees the cycle as active.
    let err = p.refused(&["cycle", "new", "--request", "Another change"]);
    assert!(err.contains(&id), "{err}");
}

/// SC-CYC-007: refused while a cycle is active, naming the ID and the state.
#[test]
fn sc_cyc_007_refuses_while_a_cycle_is_active() {
    let p = Project::brown();
    let id = p.start_cycle("SCOPING", "STANDARD", "FULL_DELIVERABLE");
    let before = p.snapshot();
    let err = p.refused(&["cycle", "new", "--request", "Another change"]);
    assert!(err.contains("a cycle is still active"), "{err}");
    assert!(err.contains(&id) && err.contains("SCOPING"), "{err}");
    assert!(
        err.contains("before the first cycle") && err.contains("signed off"),
        "{err}"
    );
    assert!(err.contains("\nhint: "), "{err}");
    assert_eq!(p.snapshot(), before);
}

/// SC-CYC-008: allowed again once the cycle is SIGNED_OFF (and CANCELLED).
#[test]
fn sc_cyc_008_allowed_after_sign_off_or_cancellation() {
    let p = Project::brown();
    let old = p.start_cycle("SCOPING", "STANDARD", "FULL_DELIVERABLE");
    for end in ["SIGNED_OFF", "CANCELLED"] {
        p.set_state(&[("WorkflowState", end), ("CycleMode", "UNSET")]);
        let id = p.line(&["cycle", "new", "--request", "Another change"]);
        assert!(id.starts_with("another-change-") && id != old, "{id}");
    }
}

/// SC-CYC-009: eight concurrent calls, eight distinct IDs.
#[test]
fn sc_cyc_009_eight_concurrent_calls_give_eight_distinct_ids() {
    let p = Project::brown();
    let children: Vec<_> = (0..8)
        .map(|_| {
            let mut cmd = p.env.cmd(&p.root);
            cmd.args(["cycle", "new", "--request", "Change"])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped());
            cmd.spawn().expect("spawn")
        })
        .collect();
    let mut ids: Vec<String> = children
        .into_iter()
        .map(|c| {
            let out = c.wait_with_output().unwrap();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            String::from_utf8(out.stdout)
                .unwrap()
                .trim_end()
                .to_string()
        })
        .collect();
    assert!(ids
        .iter()
        .all(|id| is_generated(id) && id.starts_with("change-")));
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 8, "{ids:?}");
}

/// SC-CYC-010: conflict markers in STATE.md.
#[test]
fn sc_cyc_010_refuses_conflict_markers_in_state() {
    let p = Project::brown();
    let state = p.state();
    p.write(
        STATE,
        format!(
            "<<<<<<< ours\n{}=======\n{}>>>>>>> theirs\n",
            set_id(&state, "ours-20260101T000000Z-00000001"),
            set_id(&state, "theirs-20260101T000000Z-00000002")
        ),
    );
    let err = p.refused(&["cycle", "new", "--request", "x"]);
    assert!(err.contains("unresolved merge conflicts"), "{err}");
    assert!(err.contains(".standards/STATE.md"), "{err}");
    assert!(
        err.contains("ours-20260101T000000Z-00000001")
            && err.contains("theirs-20260101T000000Z-00000002"),
        "{err}"
    );
}

fn set_id(state: &str, id: &str) -> String {
    crate::fixture::set_field(state, "Id", id)
}

/// SC-CYC-010, through git: a real merge conflict leaves unmerged index
/// entries; after `git add` the markers alone still refuse.
#[test]
fn sc_cyc_010_refuses_an_unmerged_state_from_a_real_merge() {
    let p = Project::brown();
    p.commit("install");
    let state = p.state();
    let ended = |id: &str| {
        let s = set_id(&state, id);
        crate::fixture::set_field(&s, "WorkflowState", "SIGNED_OFF")
    };
    p.env.git(&p.root, &["checkout", "-q", "-b", "side"]);
    p.write(STATE, ended("side-20260101T000000Z-00000001"));
    p.commit("side");
    p.env.git(&p.root, &["checkout", "-q", "main"]);
    p.write(STATE, ended("main-20260101T000000Z-00000002"));
    p.commit("main");
    assert!(!p
        .env
        .git_status(&p.root, &["merge", "-q", "side"])
        .status
        .success());

    let err = p.refused(&["cycle", "new", "--request", "x"]);
    assert!(err.contains("unmerged index entries"), "{err}");
    assert!(
        err.contains("main-20260101T000000Z-00000002")
            && err.contains("side-20260101T000000Z-00000001"),
        "{err}"
    );
    p.env.git(&p.root, &["add", STATE]);
    let err = p.refused(&["cycle", "new", "--request", "x"]);
    assert!(err.contains("conflict markers"), "{err}");
}

/// SC-CYC-011: STATE.md missing.
#[test]
fn sc_cyc_011_refuses_a_missing_state() {
    let p = Project::brown();
    std::fs::remove_file(p.path(STATE)).unwrap();
    let err = p.refused(&["cycle", "new", "--request", "x"]);
    assert!(err.contains("STATE.md` is missing"), "{err}");
    assert!(err.contains("incomplete"), "{err}");
}

#[test]
fn refuses_a_structurally_invalid_state_naming_file_and_line() {
    let p = Project::brown();
    p.set_state(&[("WorkflowState", "DONE")]);
    let err = p.refused(&["cycle", "new", "--request", "x"]);
    assert!(err.starts_with("error: .standards/STATE.md:3: "), "{err}");
    assert!(err.contains("DONE"), "{err}");
    assert!(!err.contains("Unexpected"), "D12: {err}");
}

#[test]
fn refuses_without_an_installed_runtime() {
    let (env, repo) = crate::common::Env::repo();
    let a = env.run(&repo, &["cycle", "new", "--request", "x"]).code(1);
    let err = stderr(&a);
    assert!(err.contains("no installed STANDARDS runtime"), "{err}");
    assert!(err.contains("hint: run `git standards install`"), "{err}");

    // A PROTOCOL.md without the framework marker is not a runtime either.
    let p = Project::brown();
    p.write(".standards/PROTOCOL.md", "# My protocol\n");
    let err = p.refused(&["cycle", "new", "--request", "x"]);
    assert!(err.contains("framework marker"), "{err}");

    // A runtime reached through a symbolic link is not this repository's.
    let p = Project::brown();
    let elsewhere = p.env.dir.path().join("elsewhere");
    std::fs::rename(p.path(".standards"), &elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, p.path(".standards")).unwrap();
    let err = p.refused(&["cycle", "new", "--request", "x"]);
    assert!(err.contains("`.standards` is a symbolic link"), "{err}");
}

/// SC-CYC-012: after sign-off (committed) a new ID is generated, and it is not
/// the old one. (Reopening with the old ID is reported by `check`, built on
/// another branch: not asserted here.)
#[test]
fn sc_cyc_012_new_id_after_a_committed_sign_off() {
    let p = Project::brown();
    p.commit("install");
    let old = p.start_cycle("AWAITING_USER_SIGNOFF", "STANDARD", "FULL_DELIVERABLE");
    p.set_state(&[
        ("WorkflowState", "SIGNED_OFF"),
        ("CycleMode", "UNSET"),
        ("Kind", "SIGNOFF"),
        ("From", "AWAITING_USER_SIGNOFF"),
    ]);
    p.commit("sign off");
    let new = p.line(&["cycle", "new", "--request", "Add user search"]);
    assert!(is_generated(&new) && new != old, "{new} vs {old}");
    // Reopening with the old ID: the runtime sees an active cycle again.
    p.set_state(&[
        ("WorkflowState", "AUDITING"),
        ("CycleMode", "STANDARD"),
        ("CompletionPolicy", "FULL_DELIVERABLE"),
        ("Kind", "NEW_CYCLE"),
        ("From", "SIGNED_OFF"),
    ]);
    let err = p.refused(&["cycle", "new", "--request", "x"]);
    assert!(err.contains(&old), "{err}");
}

/// SC-CYC-013: reopening with the newly printed ID starts a real new cycle.
/// (`check` passing is asserted on the branch that builds `check`.)
#[test]
fn sc_cyc_013_reopening_with_the_new_id() {
    let p = Project::brown();
    p.commit("install");
    let old = p.start_cycle("AWAITING_USER_SIGNOFF", "STANDARD", "FULL_DELIVERABLE");
    p.set_state(&[
        ("WorkflowState", "SIGNED_OFF"),
        ("CycleMode", "UNSET"),
        ("Kind", "SIGNOFF"),
        ("From", "AWAITING_USER_SIGNOFF"),
    ]);
    p.commit("sign off");
    let new = p.line(&["cycle", "new", "--request", "Add user search"]);
    p.set_state(&[
        ("Id", &new),
        ("WorkflowState", "AUDITING"),
        ("CycleMode", "STANDARD"),
        ("CompletionPolicy", "FULL_DELIVERABLE"),
        ("Kind", "NEW_CYCLE"),
        ("From", "SIGNED_OFF"),
    ]);
    let scope = p.init(&["SCOPE"]);
    assert_eq!(scope, format!(".standards/docs/scope/{new}.md"));
    assert_ne!(new, old);
}

/// SC-CYC-014: a record copied out of `.standards/` survives an uninstall and
/// still claims its ID. Uninstall is built on another branch; here it is
/// emulated by deleting `.standards/` as uninstall does, then reinstalling.
/// (`check` passing afterwards is asserted on the branch that builds it.)
#[test]
fn sc_cyc_014_archived_record_survives_uninstall_and_reinstall() {
    let p = Project::brown();
    let old = p.start_cycle("DEVELOPING", "EXPEDITED", "NONE");
    let plan = p.init(&["DEVELOPMENT"]);
    p.write(&format!("archive/{old}.md"), p.read(&plan));
    std::fs::remove_dir_all(p.path(".standards")).unwrap();
    p.run(&["install"]).success();
    assert!(!p.path(&plan).exists());
    assert!(p.path(&format!("archive/{old}.md")).is_file());
    let new = p.line(&["cycle", "new", "--request", "Add user search"]);
    assert!(is_generated(&new) && new != old);
}

/// SC-CYC-015: the project reached through a symbolic link.
#[test]
fn sc_cyc_015_project_reached_through_a_symlink() {
    let p = Project::brown();
    let link = p.env.dir.path().join("link");
    std::os::unix::fs::symlink(&p.root, &link).unwrap();
    let a = p
        .run_in(&link, &["cycle", "new", "--request", "Search"])
        .success();
    let out = stdout(&a);
    assert!(out.starts_with("search-") && out.ends_with('\n'), "{out:?}");
    assert_eq!(out.matches('\n').count(), 1);
    assert!(is_generated(out.trim_end()));
    let a = p
        .run_in(
            p.env.dir.path(),
            &[
                "-C",
                link.to_str().unwrap(),
                "cycle",
                "new",
                "--request",
                "Search",
            ],
        )
        .success();
    assert!(is_generated(stdout(&a).trim_end()));
    // From a subfolder of the linked project too.
    std::fs::create_dir_all(p.root.join("src")).unwrap();
    let a = p
        .run_in(&link.join("src"), &["cycle", "new", "--request", "Search"])
        .success();
    assert!(is_generated(stdout(&a).trim_end()));
}

/// SC-CYC-016: after a DOCUMENTATION cycle is signed off or cancelled, a new,
/// different ID. The F-DOC records are created with `artifact init`; `check`
/// results at each step are asserted on the branch that builds `check`.
#[test]
fn sc_cyc_016_new_id_after_a_documentation_cycle_ends() {
    for (end, kind) in [("SIGNED_OFF", "SIGNOFF"), ("CANCELLED", "CANCEL")] {
        let p = Project::brown();
        let old = p.start_cycle_for(
            "Document the existing greeting command.",
            "AUDITING",
            "DOCUMENTATION",
            "NONE",
        );
        p.write(
            ".standards/CONTEXT.md",
            "# Project Context\n\nA greeting app.\n",
        );
        p.set_state(&[("WorkflowState", "SCOPING")]);
        let scope = p.init(&["SCOPE"]);
        p.append(
            &scope,
            "\n# Greeting docs\n\n## Work\n\n### 1. Docs\n\n**Done when:**\n- `AC-001`: Explain the command and its existing output.\n- `AC-002`: Explain the audience and limits.\n\n## Retired Acceptance Identifiers\n- `AC-003`: Split.\n",
        );
        p.set_state(&[("Scope", &scope), ("WorkflowState", "ARCHITECTING")]);
        let design = p.init(&["ARCHITECTURE"]);
        p.append(
            &design,
            "\n# Technical Design\n\n## Acceptance Coverage\n- AC-001: Command reference.\n- AC-002: No architectural impact; the guide owns it.\n",
        );
        p.set_state(&[("Architecture", &design)]);
        for (state, args) in [
            ("DOCUMENTING", &["DOCUMENTATION"][..]),
            (
                "REVIEWING_FINAL",
                &["REVIEW", "--kind", "FINAL_DELIVERABLE"][..],
            ),
            ("SYNCHRONIZING", &["SYNCHRONIZATION"][..]),
        ] {
            p.set_state(&[("WorkflowState", state)]);
            let record = p.init(args);
            p.append(
                &record,
                "\n## Acceptance Evidence\n- AC-001: documented.\n- AC-002: documented.\n",
            );
        }
        p.set_state(&[("WorkflowState", "AWAITING_USER_SIGNOFF")]);
        p.refused(&["cycle", "new", "--request", "Next"]);
        p.set_state(&[
            ("WorkflowState", end),
            ("CycleMode", "UNSET"),
            ("Kind", kind),
            ("From", "AWAITING_USER_SIGNOFF"),
        ]);
        let new = p.line(&[
            "cycle",
            "new",
            "--request",
            "Document the existing greeting command.",
        ]);
        assert!(is_generated(&new) && new != old, "{end}: {new} vs {old}");
    }
}

/// SC-CYC-017 (arguments): no `new`, an unknown option, a repeated
/// `--request`, a missing or blank request are usage errors (exit 2 here).
#[test]
fn sc_cyc_017_usage_errors() {
    let p = Project::brown();
    for args in [
        &["cycle"][..],
        &["cycle", "old", "--request", "x"],
        &["cycle", "new", "--request", "x", "--dir", "y"],
        &["cycle", "new", "--request", "a", "--request", "b"],
        &["cycle", "new"],
        &["cycle", "new", "--request"],
    ] {
        p.usage_error(args);
    }
    for blank in ["", "   ", "\t\n"] {
        let err = p.usage_error(&["cycle", "new", "--request", blank]);
        assert!(err.contains("a request is required"), "{err}");
        assert!(
            err.contains("git standards cycle new --request \"<request text>\""),
            "{err}"
        );
    }
    // `--request=<value>` splits at the first `=`; a value may start with `-`.
    let id = p.line(&["cycle", "new", "--request=a=b"]);
    assert_eq!(slug_of(&id), "a-b");
    let id = p.line(&["cycle", "new", "--request", "--fast path"]);
    assert_eq!(slug_of(&id), "fast-path");
}

/// SC-CYC-017 (uniqueness), with time and randomness injected into the
/// command's chooser over the real working-tree snapshot of a git repository:
/// an ID used by a provenance block anywhere (tracked or untracked), by a fixed
/// record path or by a review folder is never printed.
#[test]
fn sc_cyc_017_never_reuses_an_id_seen_in_the_working_tree() {
    let p = Project::brown();
    let now = chrono::Utc
        .with_ymd_and_hms(2026, 9, 27, 19, 1, 46)
        .unwrap();
    let id = |n: u8| format!("search-20260927T190146Z-000000{n:02x}");
    // 01: a provenance block in a committed file outside `.standards/`.
    p.write(
        "docs/old-scope.md",
        format!(
            "<!-- STANDARDS\nArtifact: SCOPE\nCycle: {}\n-->\n# Old\n",
            id(1)
        ),
    );
    p.commit("history");
    // 02: an untracked record's block; 03: a fixed record path (any content);
    // 04: a review folder; 05: a symbolic link at a fixed path.
    p.write(
        "notes/plan.md",
        format!(
            "<!-- STANDARDS\nArtifact: DEVELOPMENT\nCycle: {}\n-->\n",
            id(2)
        ),
    );
    p.write(
        &format!(".standards/docs/verification/{}.md", id(3)),
        "anything\n",
    );
    std::fs::create_dir_all(p.path(&format!(".standards/docs/reviews/{}", id(4)))).unwrap();
    std::fs::create_dir_all(p.path(".standards/docs/specs")).unwrap();
    std::os::unix::fs::symlink(
        "/nonexistent",
        p.path(&format!(".standards/docs/specs/{}.md", id(5))),
    )
    .unwrap();
    // 06 is only in a git-ignored file: not a candidate (RT §1.4).
    p.write(".gitignore", "ignored/\n");
    p.write(
        "ignored/x.md",
        format!("<!-- STANDARDS\nArtifact: SCOPE\nCycle: {}\n-->\n", id(6)),
    );

    let choose = |draws: Vec<u8>| {
        let repo = Repo::discover(&p.root).unwrap();
        let tree = repo.worktree().unwrap();
        let mut draws = draws.into_iter();
        new_id(
            &tree,
            &NewRequest {
                request: "Search".into(),
            },
            now,
            || Ok([0, 0, 0, draws.next().expect("at most five draws")]),
        )
    };
    assert_eq!(choose(vec![1, 2, 3, 4, 6]).unwrap(), id(6));
    let err = choose(vec![1, 2, 3, 4, 5]).unwrap_err().to_string();
    assert!(
        err.contains("no unused cycle ID could be generated"),
        "{err}"
    );
    assert_eq!(choose(vec![7]).unwrap(), id(7));
}

#[test]
fn works_from_a_subdirectory_and_ignores_a_legacy_registry() {
    let p = Project::brown();
    std::fs::create_dir_all(p.path("src/deep")).unwrap();
    write(
        p.path(".standards/CYCLE_IDS.md"),
        "- old-20200101T000000Z-00000000\n",
    );
    let a = p
        .run_in(
            &p.path("src/deep"),
            &["cycle", "new", "--request", "Deep change"],
        )
        .success();
    assert!(stdout(&a).starts_with("deep-change-"));
    assert_eq!(
        p.read(".standards/CYCLE_IDS.md"),
        "- old-20200101T000000Z-00000000\n",
        "D13: left alone"
    );
}

/// A records folder that is a link out of the repository is not looked into,
/// and `cycle new` still works (it writes nothing).
#[test]
fn a_symlinked_records_folder_is_not_followed() {
    let p = Project::brown();
    let outside = p.env.dir.path().join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    std::os::unix::fs::symlink(&outside, p.path(".standards/docs")).unwrap();
    let id = p.line(&["cycle", "new", "--request", "x"]);
    assert!(is_generated(&id));
    assert!(std::fs::read_dir(&outside).unwrap().next().is_none());
}
