//! Issue 21 items 6, 7 and 10: bad input is refused with exit 1 or 2, never
//! an internal error (exit 3); no value can write a second line into a
//! record or STATE.md; trees that hide records (a name that is not UTF-8, a
//! linked records folder, markers in a record outside `.standards/`) fail
//! the same way in every snapshot.

use crate::common::{stderr, stdout};
use crate::fixture::Project;

/// A cycle ID longer than a ref name part can be: `reset` archives under
/// `reset-<time>` instead of failing with an internal error.
#[test]
fn a_300_character_cycle_id_resets_under_a_timestamp_archive() {
    let p = Project::brown();
    p.start_cycle("AUDITING", "STANDARD", "FULL_DELIVERABLE");
    let long = "a".repeat(300);
    p.set_state(&[("Id", &long)]);
    p.commit("a long cycle ID");
    let a = p.run(&["reset", "--yes"]).success();
    let all = format!("{}{}", stdout(&a), stderr(&a));
    assert!(all.contains("refs/standards/archive/reset-"), "{all}");
    let list = p.run(&["archive", "list"]).success();
    assert!(stdout(&list).starts_with("reset-"), "{}", stdout(&list));
}

/// Values git cannot name as a ref, or that are no branch, are usage errors
/// that name the option.
#[test]
fn ref_arguments_git_cannot_name_are_usage_errors() {
    let p = Project::brown();
    p.commit("installed");
    let long = "b".repeat(5000);
    let part = format!("x/{}", "c".repeat(256));
    for (args, option) in [
        (vec!["verify", "--into", long.as_str()], "--into"),
        (vec!["verify", "--into", "HEAD~1"], "--into"),
        (vec!["verify", "--into", "a..b"], "--into"),
        (vec!["merge-guard", "--into", "@{-1}"], "--into"),
        (vec!["verify", long.as_str()], "range"),
        (vec!["status", "--ref", long.as_str()], "--ref"),
        (vec!["check", "--ref", part.as_str()], "--ref"),
        (vec!["archive", "show", long.as_str()], "name"),
        (vec!["notes", "sync", part.as_str()], "remote"),
    ] {
        let err = p.usage_error(&args);
        assert!(err.contains(option), "{args:?}: {err}");
    }
}

/// Issue 21 item 7: a control character in a value written to STATE.md is
/// refused with exit 2, naming the option and the character; STATE.md and
/// the trail are untouched, and `--json` gets a JSON refusal.
#[test]
fn a_line_break_in_a_field_value_is_refused_naming_option_and_character() {
    let p = Project::brown();
    p.start_cycle("AUDITING", "STANDARD", "FULL_DELIVERABLE");
    p.commit("a cycle");
    let before = p.snapshot();
    for (args, option) in [
        (
            vec!["block", "--on", "Which DB?\n`WorkflowState`: `SIGNED_OFF`"],
            "--on",
        ),
        (
            vec![
                "rework",
                "--type",
                "IMPLEMENTATION",
                "--request",
                "done\r\n- `Id`: `x`",
            ],
            "--request",
        ),
        (vec!["start", "--request", "Add\u{2028}search"], "--request"),
        (
            vec!["cycle", "new", "--request", "Add\nsearch"],
            "--request",
        ),
        (vec!["promote", "--reason", "x\u{1b}[2J"], "--reason"),
        (
            vec!["fail", "--type", "IMPLEMENTATION", "--reason", "a\tb"],
            "--reason",
        ),
    ] {
        let err = p.usage_error(&args);
        assert!(err.contains(option), "{args:?}: {err}");
        assert!(err.contains("control character U+"), "{args:?}: {err}");
        let mut json = args.clone();
        json.push("--json");
        let a = p.run(&json).code(2);
        let v: serde_json::Value = serde_json::from_str(&stdout(&a)).unwrap();
        assert_eq!(v["ok"], false, "{json:?}");
        assert!(v["error"].as_str().unwrap().contains("U+"), "{v}");
    }
    assert_eq!(p.snapshot(), before, "nothing was written");
    assert!(!p.state().contains("SIGNED_OFF`: "), "no second field line");
}

/// A light fuzz of every command's arguments (very long values, control
/// characters, refs to blobs and trees, revision syntax where a name is
/// expected): no run ends with exit 3 or a signal.
#[test]
fn no_argument_value_is_an_internal_error() {
    let p = Project::brown();
    let cycle = p.start_cycle("AUDITING", "STANDARD", "FULL_DELIVERABLE");
    p.commit("a cycle");
    let blob = p
        .env
        .git(&p.root, &["hash-object", "-w", ".standards/STATE.md"])
        .trim()
        .to_string();
    let tree = p
        .env
        .git(&p.root, &["rev-parse", "HEAD^{tree}"])
        .trim()
        .to_string();
    p.env.git(&p.root, &["update-ref", "refs/blobby", &blob]);
    p.env.git(&p.root, &["tag", "treetag", &tree]);
    let long = "a".repeat(300);
    let longer = "b".repeat(5000);
    let values = [
        long.as_str(),
        longer.as_str(),
        "x\ny",
        "x\u{1b}[2Jy",
        blob.as_str(),
        tree.as_str(),
        "blobby",
        "treetag",
        "HEAD~999",
        "a..b...c",
        ":/nothing",
        "HEAD:.standards/STATE.md",
        "\u{202e}",
    ];
    let commands: &[&[&str]] = &[
        &["status", "--ref", "{}"],
        &["status", "--json", "--ref", "{}"],
        &["check", "--ref", "{}"],
        &["check", "--hook", "{}"],
        &["verify", "{}"],
        &["verify", "--into", "{}"],
        &["verify", "--format", "json", "{}"],
        &["merge-guard", "{}"],
        &["merge-guard", "--into", "{}"],
        &["log", "--cycle", "{}"],
        &["log", "--json", "--since", "{}"],
        &["log", "--actor", "{}"],
        &["notes", "sync", "--dry-run", "{}"],
        &["archive", "show", "{}"],
        &["archive", "restore", "{}", "docs"],
        &["archive", "show", &cycle, "{}"],
        &["artifact", "init", "{}"],
        &["invocation", "{}"],
        &["id", "next", "{}"],
        &["block", "--on", "{}", "--json"],
        &["merge-driver", "{}", "{}", "{}"],
    ];
    for command in commands {
        for value in values {
            let args: Vec<&str> = command
                .iter()
                .map(|a| if *a == "{}" { value } else { a })
                .collect();
            let out = p.env.cmd(&p.root).args(&args).output().unwrap();
            let code = out.status.code();
            assert!(
                matches!(code, Some(0..=2)),
                "{:?} ended with {code:?}: {}",
                args.iter()
                    .map(|a| a.chars().take(40).collect::<String>())
                    .collect::<Vec<_>>(),
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
}

/// Item 10: a file under `.standards/` whose name is not UTF-8 may be a
/// record whose block cannot be checked: a problem, not a note. Elsewhere
/// it stays a note.
#[test]
fn a_non_utf8_name_under_standards_is_a_problem_and_elsewhere_a_note() {
    use std::os::unix::ffi::OsStrExt;
    let p = Project::brown();
    p.commit("installed");
    let hidden = std::ffi::OsStr::from_bytes(b".standards/docs/\xff.md");
    crate::common::write(
        p.root.join(hidden),
        "<!-- STANDARDS\nArtifact: SCOPE\n-->\nmalformed\n",
    );
    let elsewhere = std::ffi::OsStr::from_bytes(b"notes-\xfe.md");
    crate::common::write(p.root.join(elsewhere), "<!-- STANDARDS\n");
    let a = p.run(&["check", "--json"]).code(1);
    let v: serde_json::Value = serde_json::from_str(&stdout(&a)).unwrap();
    let problems = v["problems"].as_array().unwrap();
    assert_eq!(problems.len(), 1, "{v}");
    assert_eq!(problems[0]["rule"], "PV-001", "{v}");
    assert!(problems[0]["file"]
        .as_str()
        .unwrap()
        .starts_with(".standards/docs/"));
    assert!(problems[0]["message"]
        .as_str()
        .unwrap()
        .contains("not valid UTF-8"));
    assert!(v["notes"].to_string().contains("notes-"), "{v}");
}

/// The `(rule, file, message)` problems of `check --json` with `args`.
fn problems(p: &Project, args: &[&str]) -> Vec<(String, String, String)> {
    let mut all = vec!["check", "--json"];
    all.extend_from_slice(args);
    let a = p.run(&all);
    let v: serde_json::Value = serde_json::from_str(&stdout(&a)).unwrap();
    let mut out: Vec<_> = v["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["rule"].as_str().unwrap().to_string(),
                p["file"].as_str().unwrap().to_string(),
                p["message"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    out.sort();
    out
}

/// Item 10: a committed `.standards/docs` symbolic link gives the same
/// verdict in the working tree, the index and `--ref`: a problem naming the
/// link (before, `--ref` called the records missing while the working tree
/// called them links).
#[test]
fn a_committed_docs_symlink_gives_one_verdict_in_every_snapshot() {
    let p = Project::brown();
    p.start_cycle("AUDITING", "STANDARD", "FULL_DELIVERABLE");
    p.init(&["SCOPE"]);
    std::fs::rename(p.path(".standards/docs"), p.path("elsewhere")).unwrap();
    std::os::unix::fs::symlink("../elsewhere", p.path(".standards/docs")).unwrap();
    p.commit("records behind a link");
    let worktree = problems(&p, &[]);
    assert!(
        worktree.iter().any(|(rule, file, m)| rule == "RT-002"
            && file == ".standards/docs"
            && m.contains("symbolic link")),
        "{worktree:?}"
    );
    assert_eq!(problems(&p, &["--staged"]), worktree);
    assert_eq!(problems(&p, &["--ref", "HEAD"]), worktree);
}

/// Item 10: an Active Work record outside `.standards/` with conflict
/// markers is a conflict (D15), in `check` and for every move.
#[test]
fn conflict_markers_in_an_active_work_record_outside_standards_are_a_conflict() {
    let p = Project::brown();
    let id = p.start_cycle("AUDITING", "STANDARD", "FULL_DELIVERABLE");
    p.write(
        "docs/scope.md",
        format!("<<<<<<< ours\n<!-- STANDARDS\nArtifact: SCOPE\nCycle: {id}\n-->\n=======\nother\n>>>>>>> theirs\n"),
    );
    p.set_state(&[("Scope", "docs/scope.md")]);
    let found = problems(&p, &[]);
    assert!(
        found
            .iter()
            .any(|(rule, file, _)| rule == "RT-004" && file == "docs/scope.md"),
        "{found:?}"
    );
    let err = p.refused(&["block", "--on", "Which one?"]);
    assert!(err.contains("docs/scope.md"), "{err}");
}

/// Item 8, through a real `git merge` with the driver configured: a side
/// that is made of conflict markers, or is larger than 1 MiB, is a conflict
/// (git stops with the file unmerged), never merged, and the working tree
/// keeps our version.
#[test]
fn the_merge_driver_refuses_marker_sides_and_oversized_sides_in_a_real_merge() {
    let state = ".standards/STATE.md";
    let oversized = format!(
        "{}\n",
        "x".repeat(git_standards::commands::merge_driver::MAX_INPUT_BYTES as usize)
    );
    let marked = "<<<<<<< ours\nA\n=======\nB\n>>>>>>> theirs\n".to_string();
    for (theirs, said) in [
        (marked, "already holds conflict markers (line 1)"),
        (oversized, "more than the 1048576 bytes (1 MiB)"),
    ] {
        let p = Project::brown();
        p.write(".gitattributes", ".standards/STATE.md merge=standards\n");
        p.commit("installed, with the driver's attribute");
        let driver = format!(
            "'{}' merge-driver %O %A %B %P",
            crate::common::Env::bin().display()
        );
        p.env
            .git(&p.root, &["config", "merge.standards.driver", &driver]);
        p.env.git(&p.root, &["checkout", "-q", "-b", "side"]);
        p.write(state, &theirs);
        p.commit("side: a hostile STATE.md");
        p.env.git(&p.root, &["checkout", "-q", "main"]);
        p.set_state(&[("BlockedOn", "Which database?")]);
        p.commit("main: a question");
        let ours = p.state();
        let merge = p
            .env
            .git_status(&p.root, &["merge", "-q", "--no-edit", "side"]);
        assert!(!merge.status.success(), "the merge stops on a conflict");
        let err = String::from_utf8_lossy(&merge.stderr).into_owned()
            + &String::from_utf8_lossy(&merge.stdout);
        assert!(err.contains(said), "{err}");
        assert_eq!(p.state(), ours, "the working tree keeps our version");
        let unmerged = p.env.git(&p.root, &["ls-files", "-u", "--", state]);
        assert_eq!(unmerged.lines().count(), 3, "{unmerged}");
    }
}

/// A usage error in a subcommand, nested or not, shows that subcommand's
/// usage; with `--json` the hint names its own help (the whole path, after
/// the global options), and that help runs and lists the subcommand's
/// options.
#[test]
fn usage_errors_name_the_help_of_the_subcommand_they_are_in() {
    let p = Project::brown();
    for (args, path, option) in [
        (vec!["check", "--bogus"], "git standards check", "--staged"),
        (
            vec!["hook", "pre-commit", "--bogus"],
            "git standards hook pre-commit",
            "--hook",
        ),
        (
            vec!["-C", ".", "artifact", "init", "--bogus"],
            "git standards artifact init",
            "--kind",
        ),
        (
            vec!["--color", "never", "notes", "sync", "--bogus"],
            "git standards notes sync",
            "--dry-run",
        ),
    ] {
        let err = p.usage_error(&args);
        assert!(err.contains(&format!("Usage: {path} ")), "{args:?}: {err}");
        let mut json = args.clone();
        json.push("--json");
        let a = p.run(&json).code(2);
        let value: serde_json::Value = serde_json::from_str(&stdout(&a)).unwrap();
        assert_eq!(
            value["hint"],
            format!("run `{path} --help` for its usage"),
            "{json:?}"
        );
        let words: Vec<&str> = path.split(' ').skip(2).chain(["--help"]).collect();
        let help = p.run(&words).success();
        assert!(stdout(&help).contains(option), "{path}: {}", stdout(&help));
    }
    // A misspelt subcommand is still suggested from the names alone.
    let err = p.usage_error(&["chek"]);
    assert!(err.contains("check"), "{err}");
}
