//! Upgrading a project that a released Node runtime installed (issue 29):
//! each release's runtime is rebuilt in a real repository by small builders
//! (no committed `.git`), upgraded by `install`, and must then pass `check`,
//! with `git diff` as the witness that only the migrated lines changed.

use std::path::{Path, PathBuf};

use crate::common::{read, stderr, stdout, write, Env};

const STATE: &str = ".standards/STATE.md";

/// What a Node release left in `.standards/` that matters to the upgrade.
#[derive(Clone, Copy, Debug)]
struct Release {
    version: &'static str,
    /// `.standards/bin/` with the Node tools (0.4.0 on).
    tools: bool,
    /// `.standards/CYCLE_IDS.md`, the cycle-ID registry (before 0.6.0).
    cycle_ids: bool,
    /// The protocol chapters in `.standards/protocol/` (0.7.3 on).
    chapters: bool,
    /// `Active Work.PendingVerificationCadence` (0.8.0 on).
    cadence: bool,
    /// `Active Work.CompletionPolicy` (0.10.0 on).
    policy: bool,
}

const fn release(version: &'static str, minor: u32, patch: u32) -> Release {
    Release {
        version,
        tools: minor >= 4,
        cycle_ids: minor < 6,
        chapters: minor > 7 || (minor == 7 && patch >= 3),
        cadence: minor >= 8,
        policy: minor >= 10,
    }
}

/// One release of each format the Node runtime released. (0.1.1 stands for
/// 0.1.0 too: same format, and a VERSION.json saying 0.1.0 is this binary's
/// own version, so install reports that one as an update of its own runtime.)
const RELEASES: [Release; 9] = [
    release("0.1.1", 1, 1),
    release("0.3.1", 3, 1),
    release("0.4.0", 4, 0),
    release("0.5.1", 5, 1),
    release("0.6.0", 6, 0),
    release("0.7.4", 7, 4),
    release("0.8.0", 8, 0),
    release("0.9.1", 9, 1),
    release("0.10.0", 10, 0),
];

/// Where in the workflow the Node runtime left the project.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Situation {
    /// Installed, no cycle started.
    Installed,
    /// A STANDARD cycle in progress.
    Standard,
    /// An EXPEDITED cycle in progress.
    Expedited,
    /// The last cycle finished (cancelled; its policy is kept).
    Finished,
}

const SITUATIONS: [Situation; 4] = [
    Situation::Installed,
    Situation::Standard,
    Situation::Expedited,
    Situation::Finished,
];

/// A PROTOCOL.md as the Node runtime ships it: the ownership marker and
/// tools run with `node`, never `git standards`.
const NODE_PROTOCOL: &str = "# S.T.A.N.D.A.R.D.S. Protocol\n\n<!-- standards:framework-owned -->\n\nRun the tools with `node .standards/bin/check.mjs`.\n";

/// A brownfield project as `release` left it in `situation`, committed.
fn node_project(r: Release, situation: Situation) -> (Env, PathBuf) {
    let (env, repo) = Env::repo();
    write(repo.join("app.py"), "print(\"hi\")\n");
    env.run(&repo, &["install"]).success();
    env.commit_all(&repo, "install");
    let start = |mode: &[&str]| {
        let mut args = vec!["start", "--request", "Add search"];
        args.extend_from_slice(mode);
        env.run(&repo, &args).success();
    };
    let standard = ["--mode", "standard", "--policy", "full_deliverable"];
    match situation {
        Situation::Installed => {}
        Situation::Standard => start(&standard),
        Situation::Expedited => start(&["--mode", "expedited"]),
        Situation::Finished => {
            start(&standard);
            env.run(&repo, &["cancel", "--yes"]).success();
        }
    }
    // Now what that release wrote instead of this version's runtime.
    let std_dir = repo.join(".standards");
    write(
        std_dir.join("VERSION.json"),
        format!(
            "{{\n  \"framework\": \"S.T.A.N.D.A.R.D.S.\",\n  \"version\": \"{}\"\n}}\n",
            r.version
        ),
    );
    write(std_dir.join("PROTOCOL.md"), NODE_PROTOCOL);
    if r.tools {
        write(std_dir.join("bin/check.mjs"), "// node tool\n");
        write(std_dir.join("bin/hook.mjs"), "// node hook\n");
    }
    if r.cycle_ids {
        write(
            std_dir.join("CYCLE_IDS.md"),
            "# Cycle IDs\n\n- `a-20260101T000000Z-0123abcd`\n",
        );
    }
    if !r.chapters {
        std::fs::remove_dir_all(std_dir.join("protocol")).unwrap();
    }
    let mut state = read(repo.join(STATE));
    if !r.policy {
        let at = state.find("`CompletionPolicy`: `").unwrap();
        let end = at + state[at..].find("` `Id`").unwrap() + 2;
        state.replace_range(at..end, "");
    }
    if !r.cadence {
        state = state.replace(" `PendingVerificationCadence`: `NONE`", "");
    }
    write(repo.join(STATE), &state);
    env.commit_all(&repo, &format!("node {}", r.version));
    (env, repo)
}

/// The policy the upgrade must add for `situation`.
fn implied_policy(situation: Situation) -> Option<&'static str> {
    match situation {
        Situation::Standard => Some("FULL_DELIVERABLE"),
        // The cancelled cycle recorded no scope: nothing shows it was STANDARD.
        Situation::Installed | Situation::Expedited | Situation::Finished => Some("NONE"),
    }
}

fn diff_lines(env: &Env, repo: &Path, path: &str) -> (Vec<String>, Vec<String>) {
    let diff = env.git(repo, &["diff", "-U0", "HEAD", "--", path]);
    let pick = |sign: char| {
        diff.lines()
            .filter(|l| l.starts_with(sign) && !l.starts_with(&format!("{sign}{sign}{sign}")))
            .map(|l| l[1..].to_string())
            .collect::<Vec<_>>()
    };
    (pick('-'), pick('+'))
}

#[test]
fn every_released_node_format_upgrades_in_every_situation_and_then_passes_check() {
    for r in RELEASES {
        for situation in SITUATIONS {
            let what = format!("{} {situation:?}", r.version);
            let (env, repo) = node_project(r, situation);
            let before = read(repo.join(STATE));

            let out = stdout(&env.run(&repo, &["install"]).success());
            assert!(
                out.contains(&format!(
                    "Upgraded from the Node runtime {} to STANDARDS",
                    r.version
                )),
                "{what}: {out}"
            );

            // Each added field is reported on its own line.
            let migrated: Vec<&str> = out.lines().filter(|l| l.starts_with("migrated")).collect();
            let mut expected = Vec::new();
            if !r.policy {
                expected.push(format!(
                    "`CompletionPolicy`: `{}`",
                    implied_policy(situation).unwrap()
                ));
            }
            if !r.cadence {
                expected.push("`PendingVerificationCadence`: `NONE`".to_string());
            }
            assert_eq!(migrated.len(), expected.len(), "{what}: {out}");
            for (line, field) in migrated.iter().zip(&expected) {
                assert!(line.contains(field), "{what}: {line}");
                assert!(line.contains(".standards/STATE.md"), "{what}: {line}");
            }

            // git as witness: STATE.md changed exactly on the migrated lines,
            // and each of them only by the inserted field.
            let (removed, added) = diff_lines(&env, &repo, STATE);
            assert_eq!(removed.len(), added.len(), "{what}");
            assert_eq!(
                removed.len(),
                expected.len(),
                "{what}: {removed:?} {added:?}"
            );
            for (old, new) in removed.iter().zip(&added) {
                assert!(before.lines().any(|l| l == old), "{what}: {old}");
                let field = expected.iter().find(|f| new.contains(f.as_str())).unwrap();
                assert_eq!(
                    new.replacen(&format!("{field} "), "", 1)
                        .replacen(&format!(" {field}"), "", 1),
                    *old,
                    "{what}"
                );
            }
            // Nothing else the project or the user wrote changed.
            let changed = env.git(&repo, &["diff", "--name-only", "HEAD"]);
            for path in changed.lines() {
                assert!(
                    path == STATE
                        || path == ".standards/VERSION.json"
                        || path == ".standards/PROTOCOL.md"
                        || path.starts_with(".standards/bin/"),
                    "{what}: {path} changed"
                );
            }
            assert_eq!(read(repo.join("app.py")), "print(\"hi\")\n");
            assert_eq!(repo.join(".standards/CYCLE_IDS.md").exists(), r.cycle_ids);
            assert!(!repo.join(".standards/bin").exists(), "{what}");

            let check = env.run(&repo, &["check"]);
            assert!(
                check.get_output().status.success(),
                "{what}: {}{}",
                stdout(&check),
                stderr(&check)
            );
            env.commit_all(&repo, "upgrade");
            env.run(&repo, &["check"]).success();
            // A second install has nothing left to migrate.
            let again = stdout(&env.run(&repo, &["install"]).success());
            assert!(!again.contains("migrated"), "{what}: {again}");
        }
    }
}

#[test]
fn the_current_node_format_upgrades_without_touching_state() {
    let r = release("0.11.0", 11, 0);
    let (env, repo) = node_project(r, Situation::Standard);
    let out = stdout(&env.run(&repo, &["install"]).success());
    assert!(
        out.contains("Upgraded from the Node runtime 0.11.0"),
        "{out}"
    );
    assert!(!out.contains("migrated"), "{out}");
    assert_eq!(env.git(&repo, &["diff", "HEAD", "--", STATE]), "");
    env.run(&repo, &["check"]).success();
}

#[test]
fn dry_run_shows_the_migration_and_writes_nothing() {
    let (env, repo) = node_project(RELEASES[4], Situation::Standard);
    let out = stdout(&env.run(&repo, &["install", "--dry-run"]).success());
    assert!(
        out.contains("Would upgrade from the Node runtime 0.6.0"),
        "{out}"
    );
    let lines: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("would migrate"))
        .collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(
        lines[0].contains("`CompletionPolicy`: `FULL_DELIVERABLE`") && lines[0].contains("line 8"),
        "{out}"
    );
    assert!(
        lines[1].contains("`PendingVerificationCadence`: `NONE`") && lines[1].contains("line 10"),
        "{out}"
    );
    assert_eq!(env.git(&repo, &["status", "--porcelain"]), "");
}

#[test]
fn the_upgrade_is_audited_with_what_it_migrated() {
    let (env, repo) = node_project(RELEASES[6], Situation::Standard);
    env.run(&repo, &["install"]).success();
    let log = stdout(&env.run(&repo, &["log", "--json"]).success());
    let upgraded = log
        .lines()
        .find(|l| l.contains("\"upgraded\""))
        .unwrap_or_else(|| panic!("{log}"));
    assert!(upgraded.contains("node 0.8.0"), "{upgraded}");
    assert!(upgraded.contains("CompletionPolicy"), "{upgraded}");
}

#[test]
fn an_active_cycle_whose_kind_is_unknown_is_refused_with_the_lines_to_add() {
    let (env, repo) = node_project(RELEASES[2], Situation::Standard);
    // The cycle's mode was lost: STANDARD or EXPEDITED cannot be told apart.
    let state = read(repo.join(STATE)).replace("`CycleMode`: `STANDARD`", "`CycleMode`: `UNSET`");
    write(repo.join(STATE), &state);
    env.commit_all(&repo, "mode lost");
    let a = env.run(&repo, &["install"]).code(1);
    let err = stderr(&a);
    assert!(err.contains("CompletionPolicy"), "{err}");
    assert!(
        err.contains("`CompletionPolicy`: `FULL_DELIVERABLE`"),
        "{err}"
    );
    assert!(err.contains("`CompletionPolicy`: `NONE`"), "{err}");
    assert!(err.contains("git standards install"), "{err}");
    assert!(!err.contains("restore it from the last commit"), "{err}");
    assert_eq!(env.git(&repo, &["status", "--porcelain"]), "");
}

#[test]
fn node_0_1_0_shares_our_version_number_and_its_state_is_still_migrated() {
    let (env, repo) = node_project(release("0.1.0", 1, 0), Situation::Installed);
    let out = stdout(&env.run(&repo, &["install"]).success());
    assert!(out.contains("Updated STANDARDS"), "{out}");
    assert_eq!(
        out.lines().filter(|l| l.starts_with("migrated")).count(),
        2,
        "{out}"
    );
    env.run(&repo, &["check"]).success();
}

/// Releases before 0.5.0 kept the cycle records under `docs/`: the upgrade
/// moves each one, unchanged, to `.standards/docs/`, points `Development` at
/// it (the protocol fixes that path), and leaves the project's own documents
/// under `docs/` where they are.
#[test]
fn records_before_0_5_move_into_the_standards_folder_and_development_follows() {
    let (env, repo) = Env::repo();
    write(repo.join("app.py"), "print(\"hi\")\n");
    env.run(&repo, &["install"]).success();
    env.commit_all(&repo, "install");
    env.run(
        &repo,
        &["start", "--request", "Fix it", "--mode", "expedited"],
    )
    .success();
    let record = stdout(
        &env.run(&repo, &["artifact", "init", "DEVELOPMENT"])
            .success(),
    )
    .trim()
    .to_string();
    let text = read(repo.join(&record))
        .replace("`AUTONOMOUS | STEPWISE | CODE_WITH_ME`", "`AUTONOMOUS`")
        .replace("`<style-name | NONE>`", "`NONE`")
        .replace("`false | true`", "`false`")
        .replace(
            "`PROPOSED | APPROVED | IN_PROGRESS | COMPLETE`",
            "`PROPOSED`",
        );
    std::fs::remove_file(repo.join(&record)).unwrap();
    let old = record.strip_prefix(".standards/").unwrap().to_string();
    write(repo.join(&old), &text);
    write(repo.join("docs/development/guide.md"), "# How we develop\n");
    let state = read(repo.join(STATE)).replace(&format!("`{record}`"), &format!("`{old}`"));
    write(repo.join(STATE), state);
    // The rest of what 0.4.0 left.
    let (env, repo) = {
        let r = release("0.4.0", 4, 0);
        let std_dir = repo.join(".standards");
        write(
            std_dir.join("VERSION.json"),
            format!(
                "{{\n  \"framework\": \"S.T.A.N.D.A.R.D.S.\",\n  \"version\": \"{}\"\n}}\n",
                r.version
            ),
        );
        write(std_dir.join("PROTOCOL.md"), NODE_PROTOCOL);
        write(std_dir.join("bin/hook.mjs"), "// node hook\n");
        let s = read(repo.join(STATE))
            .replace("`CompletionPolicy`: `NONE` ", "")
            .replace(" `PendingVerificationCadence`: `NONE`", "");
        write(repo.join(STATE), s);
        env.commit_all(&repo, "node 0.4.0");
        (env, repo)
    };

    let out = stdout(&env.run(&repo, &["install"]).success());
    assert!(
        out.lines()
            .any(|l| l.starts_with("migrated") && l.contains(&format!("`{old}` to `{record}`"))),
        "{out}"
    );
    assert!(
        out.lines().any(|l| l.starts_with("migrated")
            && l.contains(&format!("`Development` now names `{record}`"))),
        "{out}"
    );
    assert_eq!(read(repo.join(&record)), text);
    assert!(!repo.join(&old).exists());
    assert_eq!(
        read(repo.join("docs/development/guide.md")),
        "# How we develop\n"
    );
    assert!(read(repo.join(STATE)).contains(&format!("`Development`: `{record}`")));
    // git sees a pure rename of the record.
    env.git(&repo, &["add", "-A"]);
    let renames = env.git(&repo, &["diff", "--cached", "-M", "--name-status", "HEAD"]);
    assert!(
        renames.contains(&format!("R100\t{old}\t{record}")),
        "{renames}"
    );
    let check = env.run(&repo, &["check"]);
    assert!(
        check.get_output().status.success(),
        "{}{}",
        stdout(&check),
        stderr(&check)
    );
}

#[test]
fn a_record_whose_new_place_is_taken_is_refused_and_nothing_changes() {
    let (env, repo) = node_project(release("0.3.1", 3, 1), Situation::Installed);
    let id = "old-work-20260101T000000Z-0123abcd";
    write(repo.join(format!("docs/verification/{id}.md")), "old\n");
    write(
        repo.join(format!(".standards/docs/verification/{id}.md")),
        "new\n",
    );
    env.commit_all(&repo, "both");
    let err = stderr(&env.run(&repo, &["install"]).code(1));
    assert!(
        err.contains(&format!("`docs/verification/{id}.md` moves to `.standards/docs/verification/{id}.md`, which already exists")),
        "{err}"
    );
    assert!(err.contains("git standards install"), "{err}");
    assert_eq!(env.git(&repo, &["status", "--porcelain"]), "");
}

/// Issue 29 item 2: a Node install whose Claude settings hold its stop
/// handler and its pre-tool-use guard beside the user's own hook. The
/// upgrade reports each Node handler by its kind, puts our edit guard in
/// the guard's place, and keeps the user's hook; the new guard then refuses
/// a direct edit of STATE.md as the Node one did.
#[test]
fn the_node_edit_guard_is_replaced_by_ours_on_upgrade() {
    let r = release("0.11.0", 11, 0);
    let (env, repo) = node_project(r, Situation::Standard);
    let node =
        |event: &str| format!("node \"${{CLAUDE_PROJECT_DIR}}/.standards/bin/hook.mjs\" {event}");
    let settings = serde_json::json!({
        "hooks": {
            "PreToolUse": [
                {"matcher": "Bash", "hooks": [{"type": "command", "command": "./audit.sh"}]},
                {"matcher": "Edit|Write|MultiEdit", "hooks": [{"type": "command", "command": node("pre-tool-use")}]}
            ],
            "Stop": [{"hooks": [{"type": "command", "command": node("stop"), "timeout": 120}]}]
        }
    });
    write(
        repo.join(".claude/settings.json"),
        format!("{}\n", serde_json::to_string_pretty(&settings).unwrap()),
    );
    env.commit_all(&repo, "node hooks");
    let out = stdout(&env.run(&repo, &["install", "--client", "claude"]).success());
    let kinds: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("Node runtime's"))
        .collect();
    assert_eq!(kinds.len(), 2, "{out}");
    assert!(
        kinds
            .iter()
            .any(|l| l.contains("stop handler") && l.contains("hook stop --client claude")),
        "{out}"
    );
    assert!(
        kinds
            .iter()
            .any(|l| l.contains("pre-tool-use guard")
                && l.contains("hook edit-guard --client claude")),
        "{out}"
    );
    let now: serde_json::Value =
        serde_json::from_str(&read(repo.join(".claude/settings.json"))).unwrap();
    let pre = now["hooks"]["PreToolUse"].as_array().unwrap();
    assert_eq!(
        pre[0], settings["hooks"]["PreToolUse"][0],
        "the user's hook stays first"
    );
    assert_eq!(pre.len(), 2);
    assert!(!read(repo.join(".claude/settings.json")).contains("hook.mjs"));
    // git's witness: the user's lines are all still there.
    let (removed, _) = diff_lines(&env, &repo, ".claude/settings.json");
    for mine in ["\"matcher\": \"Bash\"", "\"command\": \"./audit.sh\""] {
        assert!(!removed.iter().any(|l| l.contains(mine)), "{removed:?}");
    }
    assert!(
        removed.iter().any(|l| l.contains("hook.mjs")),
        "{removed:?}"
    );
    let payload = serde_json::json!({
        "session_id": "s", "cwd": repo, "hook_event_name": "PreToolUse", "tool_name": "Write",
        "tool_input": {"file_path": repo.join(STATE), "content": "x"},
    });
    let a = env.run_stdin(
        &repo,
        &["hook", "edit-guard", "--client", "claude"],
        &payload.to_string(),
    );
    let answer: serde_json::Value = serde_json::from_str(&stdout(&a)).unwrap();
    assert_eq!(answer["hookSpecificOutput"]["permissionDecision"], "deny");
    env.run(&repo, &["check"]).success();
}
