//! `git standards id next` (scenarios SC-ID, RT §1.6, §1.7, §4).

use crate::common::{stderr, stdout};
use crate::fixture::Project;

/// SC-ID-001: after the highest current or retired number.
#[test]
fn sc_id_001_counts_current_and_retired_conditions() {
    let p = Project::brown();
    p.start_cycle("SCOPING", "STANDARD", "FULL_DELIVERABLE");
    let scope = p.init(&["SCOPE"]);
    p.append(
        &scope,
        "- `AC-001`: One.\n- `AC-002`: Two.\n## Retired Acceptance Identifiers\n- `AC-004`: Gone.\n",
    );
    let before = p.read(&scope);
    assert_eq!(p.line(&["id", "next", "AC", &scope]), "AC-005");
    assert_eq!(p.read(&scope), before, "id next never edits the file");
}

/// SC-ID-002: numbers from the last commit count.
#[test]
fn sc_id_002_counts_the_last_committed_version() {
    let p = Project::brown();
    p.start_cycle("SCOPING", "STANDARD", "FULL_DELIVERABLE");
    let scope = p.init(&["SCOPE"]);
    p.append(&scope, "- `AC-001`: One.\n- `AC-006`: Six.\n");
    p.commit("scope");
    let text = p.read(&scope).replace("- `AC-006`: Six.\n", "");
    p.write(&scope, text);
    assert_eq!(p.line(&["id", "next", "AC", &scope]), "AC-007");
}

/// SC-ID-003: references into other records are not counted.
#[test]
fn sc_id_003_ignores_references_into_other_records() {
    let p = Project::brown();
    let id = p.start_cycle("REVIEWING_IMPLEMENTATION", "STANDARD", "FULL_DELIVERABLE");
    let review = p.init(&["REVIEW", "--kind", "IMPLEMENTATION"]);
    p.append(
        &review,
        &format!(
            "\n## Findings\n\n### F-001 — Bug\nSee .standards/docs/reviews/{id}/final-deliverable.md#F-009.\nAlso [F-012](../x/final-deliverable.md#F-012).\n"
        ),
    );
    // `[F-012]` in link text is a mention, counted textually (D11); remove it
    // to see the reference alone ignored.
    assert_eq!(p.line(&["id", "next", "F", &review]), "F-013");
    let text = p
        .read(&review)
        .replace("Also [F-012](../x/final-deliverable.md#F-012).\n", "");
    p.write(&review, text);
    assert_eq!(p.line(&["id", "next", "F", &review]), "F-002");
}

/// SC-ID-004: a prefix of another record type.
#[test]
fn sc_id_004_dev_numbers_belong_to_a_development_record() {
    let p = Project::brown();
    p.start_cycle("REVIEWING_IMPLEMENTATION", "STANDARD", "FULL_DELIVERABLE");
    let review = p.init(&["REVIEW", "--kind", "IMPLEMENTATION"]);
    let err = p.refused(&["id", "next", "DEV", &review]);
    assert!(
        err.contains("`DEV` identifiers belong to DEVELOPMENT records, but this record is REVIEW"),
        "{err}"
    );
    assert!(err.contains(&review), "{err}");
}

/// SC-ID-005: DOC numbers in a verification report.
#[test]
fn sc_id_005_doc_numbers_are_not_for_a_verification_report() {
    let p = Project::brown();
    p.start_cycle("REVIEWING_IMPLEMENTATION", "STANDARD", "FULL_DELIVERABLE");
    let report = p.init(&["VERIFICATION"]);
    let err = p.refused(&["id", "next", "DOC", &report]);
    assert!(
        err.contains("DOCUMENTATION") && err.contains("VERIFICATION"),
        "{err}"
    );
}

/// SC-ID-006: an absolute path through a symbolic link to the project.
#[test]
fn sc_id_006_absolute_path_through_a_symlink_to_the_project() {
    let p = Project::brown();
    p.start_cycle("SCOPING", "STANDARD", "FULL_DELIVERABLE");
    let scope = p.init(&["SCOPE"]);
    let link = p.env.dir.path().join("link");
    std::os::unix::fs::symlink(&p.root, &link).unwrap();
    let abs = link.join(&scope);
    assert_eq!(
        p.line(&["id", "next", "AC", abs.to_str().unwrap()]),
        "AC-001"
    );
    // Started inside the link too.
    let a = p
        .run_in(&link, &["id", "next", "AC", abs.to_str().unwrap()])
        .success();
    assert_eq!(stdout(&a), "AC-001\n");
}

#[test]
fn counts_gaps_retired_previous_cycles_and_fenced_examples() {
    let p = Project::brown();
    let id = p.start_cycle("SCOPING", "STANDARD", "FULL_DELIVERABLE");
    let scope = p.init(&["SCOPE"]);
    p.append(
        &scope,
        "# Search\n## Work\n- `AC-001`: One.\n- `AC-005`: Five (AC-002..AC-004 never existed).\n## Retired Acceptance Identifiers\n- `AC-007`: Retired.\n",
    );
    assert_eq!(p.line(&["id", "next", "AC", &scope]), "AC-008");
    p.append(
        &scope,
        "## Previous Cycles\n- `AC-011`: From an earlier cycle.\n",
    );
    assert_eq!(p.line(&["id", "next", "AC", &scope]), "AC-012");
    p.append(&scope, "\n```markdown\n- `AC-020`: an example\n```\n");
    assert_eq!(
        p.line(&["id", "next", "AC", &scope]),
        "AC-021",
        "fenced examples count (D11)"
    );
    // Mentions glued to letters, `-`, `_` or `#`, and short numbers, do not.
    p.append(
        &scope,
        "xAC-030 -AC-031 _AC-032 #AC-033 AC-34 other.md#AC-035\n",
    );
    assert_eq!(p.line(&["id", "next", "AC", &scope]), "AC-021");

    // The same rules for the other prefixes, in their own records.
    p.set_state(&[("WorkflowState", "DEVELOPING")]);
    let plan = p.init(&["DEVELOPMENT"]);
    assert_eq!(p.line(&["id", "next", "DEV", &plan]), "DEV-001");
    p.append(
        &plan,
        "\n## Build Steps\n\n### DEV-001 — A\n\n### DEV-003 — C\n",
    );
    assert_eq!(p.line(&["id", "next", "DEV", &plan]), "DEV-004");
    p.set_state(&[("WorkflowState", "SYNCHRONIZING")]);
    let sync = p.init(&["SYNCHRONIZATION"]);
    p.append(&sync, "\n### D-999 — Last\n");
    assert_eq!(p.line(&["id", "next", "D", &sync]), "D-1000");
    let doc = p.init(&["DOCUMENTATION"]);
    p.append(&doc, "\n### DOC-002 — Second\nSee D-050 and DEV-060.\n");
    assert_eq!(p.line(&["id", "next", "DOC", &doc]), "DOC-003");
    assert!(id.len() > 10);
}

#[test]
fn counts_an_identifier_present_only_in_the_last_commit() {
    let p = Project::brown();
    p.start_cycle("REVIEWING_IMPLEMENTATION", "STANDARD", "FULL_DELIVERABLE");
    let review = p.init(&["REVIEW", "--kind", "IMPLEMENTATION"]);
    p.append(&review, "\n### F-001 — One\n\n### F-004 — Dropped later\n");
    p.commit("review");
    let text = p.read(&review).replace("\n### F-004 — Dropped later\n", "");
    p.write(&review, text);
    assert!(!p.read(&review).contains("F-004"));
    assert_eq!(p.line(&["id", "next", "F", &review]), "F-005");
}

#[test]
fn follows_a_record_renamed_since_the_last_commit() {
    let p = Project::brown();
    p.start_cycle("SCOPING", "STANDARD", "FULL_DELIVERABLE");
    let scope = p.init(&["SCOPE"]);
    p.append(&scope, "- `AC-001`: One.\n- `AC-009`: Nine.\n");
    p.commit("scope");
    let text = p.read(&scope).replace("- `AC-009`: Nine.\n", "");
    // Moved with git (staged rename) ...
    p.env.git(&p.root, &["mv", &scope, "docs-scope.md"]);
    p.write("docs-scope.md", &text);
    assert_eq!(p.line(&["id", "next", "AC", "docs-scope.md"]), "AC-010");
    // ... or by hand (unstaged): the committed record with the same
    // provenance block stands for it.
    std::fs::create_dir_all(p.path("docs")).unwrap();
    std::fs::rename(p.path("docs-scope.md"), p.path("docs/scope.md")).unwrap();
    assert_eq!(p.line(&["id", "next", "AC", "docs/scope.md"]), "AC-010");
    // Another cycle's committed record is not this file's history.
    p.write(
        "other.md",
        "<!-- STANDARDS\nArtifact: SCOPE\nCycle: other-20260101T000000Z-00000000\n-->\n- `AC-050`: x\n",
    );
    p.commit("other");
    p.write("docs/scope2.md", "<!-- STANDARDS\nArtifact: SCOPE\nCycle: third-20260101T000000Z-00000000\n-->\n- `AC-001`\n");
    assert_eq!(p.line(&["id", "next", "AC", "docs/scope2.md"]), "AC-002");
}

#[test]
fn paths_relative_to_a_subdirectory_the_root_or_absolute() {
    let p = Project::brown();
    p.start_cycle("SCOPING", "STANDARD", "FULL_DELIVERABLE");
    let scope = p.init(&["SCOPE"]);
    p.append(&scope, "- `AC-002`: Two.\n");
    let sub = p.path(".standards/docs");
    let in_sub = scope.strip_prefix(".standards/docs/").unwrap();
    // Relative to the current folder.
    let a = p.run_in(&sub, &["id", "next", "AC", in_sub]).success();
    assert_eq!(stdout(&a), "AC-003\n");
    let a = p
        .run_in(
            &sub.join("scope"),
            &["id", "next", "AC", &format!("../{in_sub}")],
        )
        .success();
    assert_eq!(stdout(&a), "AC-003\n");
    // Relative to the project root, from a folder where it does not resolve.
    std::fs::create_dir_all(p.path("src")).unwrap();
    let a = p
        .run_in(&p.path("src"), &["id", "next", "AC", &scope])
        .success();
    assert_eq!(stdout(&a), "AC-003\n");
    // Absolute.
    let abs = p.path(&scope);
    let a = p
        .run_in(&p.path("src"), &["id", "next", "AC", abs.to_str().unwrap()])
        .success();
    assert_eq!(stdout(&a), "AC-003\n");
    // Absolute through a symbolic link to the project, from outside it with -C.
    let link = p.env.dir.path().join("project-link");
    std::os::unix::fs::symlink(&p.root, &link).unwrap();
    let a = p
        .run_in(
            p.env.dir.path(),
            &[
                "-C",
                link.to_str().unwrap(),
                "id",
                "next",
                "AC",
                link.join(&scope).to_str().unwrap(),
            ],
        )
        .success();
    assert_eq!(stdout(&a), "AC-003\n");
}

#[test]
fn refuses_paths_outside_the_project() {
    let p = Project::brown();
    let outside = p.env.dir.path().join("outside.md");
    std::fs::write(&outside, "- `AC-001`\n").unwrap();
    let err = p.refused(&["id", "next", "AC", outside.to_str().unwrap()]);
    assert!(err.contains("outside the project"), "{err}");
    let err = p.refused(&["id", "next", "AC", "../outside.md"]);
    assert!(err.contains("outside the project"), "{err}");
    // A link inside the project that leads out is not followed.
    std::os::unix::fs::symlink(&outside, p.path("linked.md")).unwrap();
    let err = p.refused(&["id", "next", "AC", "linked.md"]);
    assert!(err.contains("symbolic link"), "{err}");
    let err = p.refused(&["id", "next", "AC", p.path("linked.md").to_str().unwrap()]);
    assert!(err.contains("outside the project"), "{err}");
    let dir = p.env.dir.path().join("outside-dir");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("s.md"), "- `AC-001`\n").unwrap();
    std::os::unix::fs::symlink(&dir, p.path("out")).unwrap();
    let err = p.refused(&["id", "next", "AC", "out/s.md"]);
    assert!(err.contains("`out` is a symbolic link"), "{err}");
}

#[test]
fn refuses_missing_malformed_and_unmarked_files() {
    let p = Project::brown();
    let err = p.refused(&["id", "next", "AC", "docs/scope.md"]);
    assert!(
        err.contains(
            "`docs/scope.md` does not exist; it must be created before numbering its entries"
        ),
        "{err}"
    );
    p.write(
        "broken.md",
        "<!-- STANDARDS\nArtifact: REVIEW\nCycle: c-1\n-->\n### F-001\n",
    );
    let err = p.refused(&["id", "next", "F", "broken.md"]);
    assert!(
        err.contains("`broken.md`") && err.contains("malformed") && err.contains("ReviewKind"),
        "{err}"
    );
    p.write("notes.md", "### F-001\n");
    let err = p.refused(&["id", "next", "F", "notes.md"]);
    assert!(
        err.contains("`notes.md`") && err.contains("not a STANDARDS record"),
        "{err}"
    );
    assert!(err.contains("REVIEW"), "{err}");
    // An unmarked project scope document may hold acceptance conditions.
    p.write("docs/product.md", "# Product\n- `AC-003`: Three.\n");
    assert_eq!(p.line(&["id", "next", "AC", "docs/product.md"]), "AC-004");
    let err = p.refused(&["id", "next", "AC", "docs"]);
    assert!(err.contains("is a folder"), "{err}");
    p.write("latin1.md", b"AC-001 \xe9\n");
    let err = p.refused(&["id", "next", "AC", "latin1.md"]);
    assert!(err.contains("not UTF-8"), "{err}");
}

#[test]
fn usage_errors() {
    let p = Project::brown();
    p.write("s.md", "x\n");
    for args in [
        &["id"][..],
        &["id", "next"],
        &["id", "next", "AC"],
        &["id", "next", "X", "s.md"],
        &["id", "next", "AC", "s.md", "extra"],
        &["id", "prev", "AC", "s.md"],
    ] {
        p.usage_error(args);
    }
}

#[test]
fn refuses_without_an_installed_runtime() {
    let (env, repo) = crate::common::Env::repo();
    std::fs::write(repo.join("s.md"), "- `AC-001`\n").unwrap();
    let a = env.run(&repo, &["id", "next", "AC", "s.md"]).code(1);
    assert!(
        stderr(&a).contains("no installed STANDARDS runtime"),
        "{}",
        stderr(&a)
    );
}
