//! End-to-end lifecycles on real repositories: every step is made with the
//! binary (`cycle new`, `artifact init`) and by editing files as the roles do,
//! committed, and checked clean at every boundary (SC-LIFE).

use std::path::{Path, PathBuf};

use standards_core::model::fields;

use crate::common::{read, stderr, stdout, write, Env};

/// Replaces the value of the first field `name` in `text`.
pub fn set(text: &str, name: &str, value: &str) -> String {
    crate::common::set_field(text, name, value)
}

struct Walk {
    env: Env,
    repo: PathBuf,
    id: String,
    step: usize,
}

/// The STANDARDS form of a frame, `Frame(From, Owner, FailureType, ResumeAt[, RerunThrough])` (§0).
type Frame<'a> = [&'a str; 5];

impl Walk {
    /// P-BROWN (with `app.py`) or P-GREEN, installed and committed.
    fn install(greenfield: bool) -> Walk {
        let (env, repo) = Env::repo();
        if !greenfield {
            write(repo.join("app.py"), "print(\"hi\")\n");
        }
        env.run(&repo, &["install"]).success();
        let mode = read(repo.join(".standards/MODE.md"));
        assert!(mode.contains(if greenfield {
            "GREENFIELD"
        } else {
            "BROWNFIELD"
        }));
        env.commit_all(&repo, "install");
        Walk {
            env,
            repo,
            id: String::new(),
            step: 0,
        }
    }

    /// `cycle new`: a new, unused ID.
    fn cycle_new(&self, request: &str) -> String {
        stdout(
            &self
                .env
                .run(&self.repo, &["cycle", "new", "--request", request])
                .success(),
        )
        .trim()
        .to_string()
    }

    fn state(&self) -> String {
        read(self.repo.join(".standards/STATE.md"))
    }

    fn edit_state(&self, changes: &[(&str, &str)]) {
        let mut s = self.state();
        for (name, value) in changes {
            s = set(&s, name, value);
        }
        write(self.repo.join(".standards/STATE.md"), s);
    }

    fn field(&self, name: &str) -> String {
        fields::scan(&self.state())
            .into_iter()
            .find(|f| f.name == name)
            .unwrap_or_else(|| panic!("no field {name}"))
            .value
    }

    fn workflow_state(&self) -> String {
        self.field("WorkflowState")
    }

    /// `move S`: WorkflowState = S, a FORWARD handoff from the previous state.
    fn move_to(&self, next: &str) {
        self.move_kind(next, "FORWARD", &[]);
    }

    /// `move S Kind K [extra fields]` (§0).
    fn move_kind(&self, next: &str, kind: &str, extra: &[(&str, &str)]) {
        let from = self.workflow_state();
        self.edit_state(&[
            ("WorkflowState", next),
            ("Kind", kind),
            ("From", &from),
            ("FailureType", "NONE"),
            ("Reason", &format!("{from} work is complete.")),
        ]);
        self.edit_state(extra);
    }

    /// §0 "frames [a, b]": rewrites the whole Recovery section.
    fn frames(&self, frames: &[Frame]) {
        let s = self.state();
        let start = s.find("## Recovery\n").expect("Recovery section");
        let end = s
            .find("## Outstanding Obligations")
            .expect("Outstanding Obligations section");
        let mut section = format!("## Recovery\n\n`Active`: `{}`\n\n", !frames.is_empty());
        for (i, [from, owner, failure, resume, rerun]) in frames.iter().enumerate() {
            section.push_str(&format!(
                "### Frame {}\n\n`From`: `{from}` `Owner`: `{owner}` `FailureType`: `{failure}`\n`Reason`: `A defect.` `ResumeAt`: `{resume}` `RerunThrough`: `{rerun}`\n\n",
                i + 1
            ));
        }
        write(
            self.repo.join(".standards/STATE.md"),
            format!("{}{section}{}", &s[..start], &s[end..]),
        );
    }

    /// The Recovery section as written.
    fn recovery(&self) -> String {
        let s = self.state();
        let start = s.find("## Recovery\n").unwrap();
        let end = s.find("## Outstanding Obligations").unwrap();
        s[start..end].to_string()
    }

    fn init(&self, args: &[&str]) -> PathBuf {
        let mut all = vec!["artifact", "init"];
        all.extend_from_slice(args);
        let a = self.env.run(&self.repo, &all).success();
        self.repo.join(stdout(&a).trim())
    }

    fn rel(&self, path: &Path) -> String {
        path.strip_prefix(&self.repo)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/")
    }

    fn append(&self, path: &Path, text: &str) {
        let mut t = read(path);
        t.push_str(text);
        write(path, t);
    }

    /// The checker passes on the working tree and so does the stop hook's
    /// turn-end check ("clean", §0); then the step is committed and the
    /// committed state passes too.
    fn clean(&mut self, what: &str) {
        self.step += 1;
        let a = self.env.run(&self.repo, &["check"]);
        let out = a.get_output().clone();
        assert!(
            out.status.success(),
            "step {} ({what}) is not clean:\n{}{}",
            self.step,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let mut hook = self.env.cmd(&self.repo);
        std::fs::create_dir_all(self.env.dir.path().join("tmp")).unwrap();
        hook.args(["hook", "stop"])
            .env("TMPDIR", self.env.dir.path().join("tmp"));
        let out = assert_cmd::Command::from_std(hook)
            .write_stdin(r#"{"stop_hook_active": false}"#)
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "step {} ({what}) is not clean at turn end:\n{}",
            self.step,
            String::from_utf8_lossy(&out.stderr)
        );
        self.env
            .commit_all(&self.repo, &format!("step {}: {what}", self.step));
        let a = self.env.run(&self.repo, &["check", "--ref", "HEAD"]);
        assert!(
            a.get_output().status.success(),
            "committed step {} ({what}) is not clean: {}",
            self.step,
            stdout(&a)
        );
    }

    /// The check reports `rule` on `file` (nothing is committed); returns the messages.
    fn reports(&self, what: &str, rule: &str, file: &str) -> Vec<String> {
        let a = self.env.run(&self.repo, &["check", "--json"]).code(1);
        let v: serde_json::Value = serde_json::from_str(&stdout(&a)).unwrap();
        let found: Vec<String> = v["problems"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["rule"] == rule && p["file"] == file)
            .map(|p| p["message"].as_str().unwrap().to_string())
            .collect();
        assert!(
            !found.is_empty(),
            "{what}: expected {rule} on {file}, got:\n{}",
            stdout(&a)
        );
        found
    }

    /// Throws away uncommitted changes to STATE.md.
    fn revert_state(&self) {
        self.env
            .git(&self.repo, &["checkout", "--", ".standards/STATE.md"]);
    }

    /// `status --json`, parsed.
    fn status(&self) -> serde_json::Value {
        let a = self.env.run(&self.repo, &["status", "--json"]).success();
        serde_json::from_str(&stdout(&a)).unwrap()
    }
}

fn record_header_fill(path: &Path, changes: &[(&str, &str)]) {
    let mut t = read(path);
    for (name, value) in changes {
        t = set(&t, name, value);
    }
    write(path, t);
}

/// An F-LIFE cycle and its records.
struct Life {
    w: Walk,
    request: String,
    review: PathBuf,
}

/// F-LIFE(projectMode, policy) (§0.2): a cycle from its start to the
/// implementation review, clean and committed at every step.
fn f_life(greenfield: bool, policy: &str) -> Life {
    let mut w = Walk::install(greenfield);
    let request = format!("Add search with the {policy} policy");
    w.id = w.cycle_new(&request);
    let start = if greenfield { "SCOPING" } else { "AUDITING" };
    w.edit_state(&[
        ("WorkflowState", start),
        ("CycleMode", "STANDARD"),
        ("Id", &w.id.clone()),
        ("Request", &request),
        ("CompletionPolicy", policy),
    ]);
    w.clean("cycle started");

    let context = "# Project Context\n\n## Project Baseline\n\n- `app.py` prints a greeting.\n";
    if !greenfield {
        write(w.repo.join(".standards/CONTEXT.md"), context);
        w.clean("project context audited");
        w.move_to("SCOPING");
        w.clean("handed to the Scoper");
    }

    let scope = w.init(&["SCOPE"]);
    w.append(&scope, "\n# Search\n\n## Work\n\n### 1. Search\n\n**Done when:**\n\n- `AC-001`: Users can search by name.\n");
    w.edit_state(&[("Scope", &w.rel(&scope))]);
    w.clean("scope written");

    w.move_to("ARCHITECTING");
    let design = w.init(&["ARCHITECTURE"]);
    w.append(&design, "\n# Technical Design\n\n## Acceptance Coverage\n\n- `AC-001`: A name index serves the search.\n");
    w.edit_state(&[("Architecture", &w.rel(&design))]);
    w.clean("design written");

    if greenfield {
        w.move_to("AUDITING");
        write(w.repo.join(".standards/CONTEXT.md"), context);
        w.clean("greenfield audit after the design");
    }

    w.move_to("DEVELOPING");
    let plan = w.init(&["DEVELOPMENT"]);
    record_header_fill(
        &plan,
        &[
            ("Mode", "AUTONOMOUS"),
            ("User Style", "NONE"),
            ("User Style Locked", "true"),
            ("Status", "COMPLETE"),
        ],
    );
    w.append(
        &plan,
        "\n## Build Steps\n\n### DEV-001 — Search by name\n\n`Status`: `DONE` `Depends On`: `NONE`\n`Acceptance`: `AC-001`\n\n**Self-Check**\n\n`python3 app.py` prints the results.\n",
    );
    w.edit_state(&[("Development", &w.rel(&plan))]);
    write(
        w.repo.join("app.py"),
        "import sys\nprint(\"results for\", sys.argv[1:])\n",
    );
    write(
        w.repo.join(".standards/MODE.md"),
        "# S.T.A.N.D.A.R.D.S. Project Mode\n\n`ProjectMode`: `BROWNFIELD`\n",
    );
    w.clean("implementation done");

    w.move_to("TESTING");
    let report = w.init(&["VERIFICATION"]);
    record_header_fill(
        &report,
        &[
            ("Mode", "VERIFY"),
            ("Status", "COMPLETE"),
            ("User Style", "NONE"),
        ],
    );
    w.append(
        &report,
        "\n## Assessed Inputs\n\n- `app.py` at this commit.\n\n## Acceptance Evidence\n\n| AC / technical criterion | Tests or checks | Disposition and evidence |\n| --- | --- | --- |\n| AC-001 | `python3 app.py name` | verified: prints the results |\n\n## Scenario Budget\n\n| Source file | Reused coverage | Active-change allocations | User additions |\n| --- | --- | --- | --- |\n| app.py | none | one run | none |\n\n## Execution Evidence\n\n`python3 app.py name` exited 0.\n\n## Resume or Handoff\n\nVerification is complete.\n",
    );
    w.clean("verification done");

    w.move_to("REVIEWING_IMPLEMENTATION");
    let review = w.init(&["REVIEW", "--kind", "IMPLEMENTATION"]);
    record_header_fill(&review, &[("Status", "COMPLETE"), ("User Style", "NONE")]);
    w.append(
        &review,
        "\n## Assessed Inputs and Scope\n\n- The plan, the report and `app.py`.\n\n## Contract and Evidence Assessment\n\n| Obligation / criterion | Assessed evidence | Current disposition |\n| --- | --- | --- |\n| AC-001 | report row AC-001 | satisfied |\n\n## Checks and Results\n\nRan `python3 app.py name`.\n\n## Findings\n\nNo material findings.\n\n## Questions, Limitations, and Later Dependencies\n\nNONE\n\n## Progress and Conclusion\n\nThe implementation satisfies AC-001.\n",
    );
    w.clean("implementation reviewed");
    Life { w, request, review }
}

const CLOSURE: &str = "## Implementation-Reviewed Closure";
const HISTORY: &str = "## Closure Assessment History";

/// CLOSE(review, eligibility) (§0.2): appends a closure section as in F-IR
/// whose `User Choice` names the cycle's current request; an existing section
/// is first renamed `## Closure Assessment History`.
fn close(w: &Walk, review: &Path, eligibility: &str) {
    let request = w.field("Request");
    let text = read(review).replace(CLOSURE, HISTORY);
    write(
        review,
        format!(
            "{text}\n{CLOSURE}\n\n`Policy`: `IMPLEMENTATION_REVIEWED` `Eligibility`: `{eligibility}` `User Choice`:\n`The user chose IMPLEMENTATION_REVIEWED for the request: {request}.` `User Reason`: `NONE`\n`Assessed Inputs`: `Scope, technical design, development plan and verification report of this cycle.`\n`Evidence`: `Verification report row AC-001; the checks above.`\n`Unmet Requirements`: `NONE` `Omitted Phases`:\n`DOCUMENTING, REVIEWING_FINAL, SYNCHRONIZING` `Omitted Guarantees`:\n`Normal documentation, final review, and independent reconciliation omitted.`\n"
        ),
    );
}

/// The text of the section under `heading` (to the next `## ` heading).
fn section(text: &str, heading: &str) -> String {
    let start = text
        .find(heading)
        .unwrap_or_else(|| panic!("no `{heading}`"));
    let body = start + heading.len();
    let end = text[body..]
        .find("\n## ")
        .map_or(text.len(), |e| body + e + 1);
    text[start + heading.len()..end].to_string()
}

/// TAIL (§0.2): DOCUMENTING (moved to unless already there), REVIEWING_FINAL
/// and SYNCHRONIZING, each record COMPLETE and mentioning AC-001, then
/// AWAITING_USER_SIGNOFF; clean at every step.
fn tail(w: &mut Walk) {
    if w.workflow_state() != "DOCUMENTING" {
        w.move_to("DOCUMENTING");
    }
    let doc = w.init(&["DOCUMENTATION"]);
    record_header_fill(
        &doc,
        &[
            ("Status", "COMPLETE"),
            ("Collaboration", "AUTONOMOUS"),
            ("Target", "ACTIVE_CHANGE"),
            ("Target Detail", "the active cycle"),
            ("User Style", "NONE"),
        ],
    );
    w.append(
        &doc,
        "\n## Assessed Inputs and Boundary\n\n- `app.py`.\n\n## Documentation Work and Evidence\n\n- AC-001: the README explains searching by name.\n\n## Checks and Applicability\n\nNONE\n\n## Discrepancies, Dependencies, and Remaining Work\n\nNONE\n\n## Resume and Conclusion\n\nDocumentation is complete.\n",
    );
    write(
        w.repo.join("README.md"),
        "# App\n\nRun `python3 app.py <name>` to search by name.\n",
    );
    w.clean("documentation done");

    w.move_to("REVIEWING_FINAL");
    let final_review = w.init(&["REVIEW", "--kind", "FINAL_DELIVERABLE"]);
    record_header_fill(
        &final_review,
        &[("Status", "COMPLETE"), ("User Style", "NONE")],
    );
    w.append(
        &final_review,
        "\n## Assessed Inputs and Scope\n\n- The whole deliverable.\n\n## Contract and Evidence Assessment\n\n| Obligation / criterion | Assessed evidence | Current disposition |\n| --- | --- | --- |\n| AC-001 | code, report, README | satisfied |\n\n## Checks and Results\n\nRead the README and ran the app.\n\n## Findings\n\nNo material findings.\n\n## Questions, Limitations, and Later Dependencies\n\nNONE\n\n## Progress and Conclusion\n\nThe deliverable is complete.\n",
    );
    w.clean("final review done");

    w.move_to("SYNCHRONIZING");
    let sync = w.init(&["SYNCHRONIZATION"]);
    record_header_fill(&sync, &[("Status", "COMPLETE"), ("User Style", "NONE")]);
    w.append(
        &sync,
        "\n## Assessed Inputs\n\n- Every record of the cycle.\n\n## Completion and Evidence References\n\n- AC-001: verified in the report, documented, reviewed.\n\n## Discrepancies and Dispositions\n\nNONE\n\n## Limitations and Remaining Work\n\nNONE\n\n## Resume and Synchronization Conclusion\n\nThe records agree.\n",
    );
    w.clean("synchronized");

    w.move_to("AWAITING_USER_SIGNOFF");
    w.clean("ready for sign-off");
}

/// Sign-off (SC-LIFE-003): SIGNED_OFF, Kind SIGNOFF, CycleMode UNSET.
fn sign_off(w: &mut Walk) {
    w.edit_state(&[
        ("WorkflowState", "SIGNED_OFF"),
        ("CycleMode", "UNSET"),
        ("Kind", "SIGNOFF"),
        ("From", "AWAITING_USER_SIGNOFF"),
        ("Reason", "The user signed off."),
    ]);
    w.clean("signed off");
}

/// SC-LIFE-004 / SC-LIFE-012: a new STANDARD cycle at AUDITING after a
/// terminal state `from`, with FULL_DELIVERABLE; the old review stays as it is.
fn next_cycle(w: &mut Walk, from: &str, review: &Path, extra: &[(&str, &str)]) -> String {
    let old_review = read(review);
    let old_id = w.id.clone();
    let new_id = w.cycle_new("Add paging");
    assert_ne!(new_id, old_id);
    w.edit_state(&[
        ("WorkflowState", "AUDITING"),
        ("CycleMode", "STANDARD"),
        ("Id", &new_id),
        ("Request", "Add paging"),
        ("CompletionPolicy", "FULL_DELIVERABLE"),
        ("Scope", "NONE"),
        ("Architecture", "NONE"),
        ("Development", "NONE"),
        ("Kind", "NEW_CYCLE"),
        ("From", from),
        ("Reason", "The user asked for paging."),
    ]);
    w.edit_state(extra);
    w.id = new_id.clone();
    w.clean("next cycle started");
    assert_eq!(read(review), old_review, "the old review is byte-identical");
    assert_eq!(w.field("CompletionPolicy"), "FULL_DELIVERABLE");
    new_id
}

/// F-LIFE(projectMode, FULL_DELIVERABLE) then TAIL, sign-off and a new cycle
/// (SC-LIFE-001, SC-LIFE-003, SC-LIFE-004).
fn full_deliverable_walk(greenfield: bool) {
    let Life { mut w, review, .. } = f_life(greenfield, "FULL_DELIVERABLE");
    tail(&mut w);
    assert!(
        read(w.repo.join(".standards/MODE.md")).contains("BROWNFIELD"),
        "SC-LIFE-001: BROWNFIELD at the end"
    );

    // SC-LIFE-003: sign-off keeps the policy.
    sign_off(&mut w);
    assert!(w.state().contains("`CompletionPolicy`: `FULL_DELIVERABLE`"));

    // SC-CYC-012: reopening the cycle the last commit signed off is caught (GT-001).
    w.edit_state(&[
        ("WorkflowState", "AUDITING"),
        ("CycleMode", "STANDARD"),
        ("Kind", "NEW_CYCLE"),
        ("From", "SIGNED_OFF"),
        ("Reason", "Reopened by mistake."),
    ]);
    let a = w.env.run(&w.repo, &["check", "--json"]).code(1);
    assert!(
        stdout(&a).contains("\"GT-001\""),
        "{}{}",
        stdout(&a),
        stderr(&a)
    );
    w.revert_state();

    // SC-LIFE-004: a new cycle gets a new ID; the old records stay as they are.
    next_cycle(&mut w, "SIGNED_OFF", &review, &[]);
}

#[test]
fn sc_life_001_brownfield_full_deliverable_is_clean_at_every_boundary() {
    full_deliverable_walk(false);
}

#[test]
fn sc_life_001_greenfield_full_deliverable_is_clean_at_every_boundary() {
    full_deliverable_walk(true);
}

/// SC-LIFE-002, then SC-LIFE-003 and SC-LIFE-004 after it: the
/// IMPLEMENTATION_REVIEWED route closes at the implementation review, signs
/// off keeping its policy, and the next cycle sets its own.
fn implementation_reviewed_walk(greenfield: bool) {
    let Life { mut w, review, .. } = f_life(greenfield, "IMPLEMENTATION_REVIEWED");
    close(&w, &review, "ELIGIBLE");
    w.move_to("AWAITING_USER_SIGNOFF");
    w.clean("closure assessed, ready for sign-off");
    for skipped in [
        format!(".standards/docs/documentation/{}.md", w.id),
        format!(".standards/docs/reviews/{}/final-deliverable.md", w.id),
        format!(".standards/docs/synchronization/{}.md", w.id),
    ] {
        assert!(
            !w.repo.join(&skipped).exists(),
            "SC-LIFE-002: {skipped} is not written on the shorter route"
        );
    }
    assert!(read(w.repo.join(".standards/MODE.md")).contains("BROWNFIELD"));

    // SC-LIFE-003 after SC-LIFE-002: sign-off keeps IMPLEMENTATION_REVIEWED.
    sign_off(&mut w);
    assert_eq!(w.field("CompletionPolicy"), "IMPLEMENTATION_REVIEWED");
    // SC-LIFE-004 after it: the new cycle's policy is its own.
    next_cycle(&mut w, "SIGNED_OFF", &review, &[]);
}

#[test]
fn sc_life_002_brownfield_implementation_reviewed_closes_early() {
    implementation_reviewed_walk(false);
}

#[test]
fn sc_life_002_greenfield_implementation_reviewed_closes_early() {
    implementation_reviewed_walk(true);
}

/// SC-LIFE-005..010: COMPLETION_CHANGE back and forth between the two
/// policies, with the closure assessments kept as history.
#[test]
fn sc_life_005_to_010_completion_changes_between_policies() {
    let Life { mut w, review, .. } = f_life(false, "FULL_DELIVERABLE");
    // SC-LIFE-005
    w.move_to("DOCUMENTING");
    w.clean("handed to the Documenter");
    let first_request = "Ship search now, review the implementation only";
    w.move_kind(
        "REVIEWING_IMPLEMENTATION",
        "COMPLETION_CHANGE",
        &[
            ("CompletionPolicy", "IMPLEMENTATION_REVIEWED"),
            ("Request", first_request),
            (
                "Reason",
                "The user wants the implementation-reviewed closure.",
            ),
        ],
    );
    w.clean("SC-LIFE-005: completion change to IMPLEMENTATION_REVIEWED");

    // SC-LIFE-006: sign-off readiness needs the closure assessment.
    w.move_to("AWAITING_USER_SIGNOFF");
    w.reports("SC-LIFE-006", "RV-002", &w.rel(&review));
    w.revert_state();
    close(&w, &review, "ELIGIBLE");
    w.move_to("AWAITING_USER_SIGNOFF");
    w.clean("SC-LIFE-006: closure assessed, ready for sign-off");
    let assessed = read(&review);

    // SC-LIFE-007: back to the full deliverable; the review is left as it is.
    w.move_kind(
        "DOCUMENTING",
        "COMPLETION_CHANGE",
        &[
            ("CompletionPolicy", "FULL_DELIVERABLE"),
            ("Reason", "The user wants the full deliverable after all."),
        ],
    );
    w.clean("SC-LIFE-007: completion change to FULL_DELIVERABLE");
    assert_eq!(
        read(&review),
        assessed,
        "SC-LIFE-007: the review is byte-identical"
    );

    // SC-LIFE-008: and back again; the first assessment becomes history.
    let newer_request = "Ship search now after all";
    w.move_kind(
        "REVIEWING_IMPLEMENTATION",
        "COMPLETION_CHANGE",
        &[
            ("CompletionPolicy", "IMPLEMENTATION_REVIEWED"),
            ("Request", newer_request),
            (
                "Reason",
                "The user wants the implementation-reviewed closure again.",
            ),
        ],
    );
    close(&w, &review, "NOT_ASSESSED");
    assert_eq!(read(&review).matches(CLOSURE).count(), 1);
    assert_eq!(read(&review).matches(HISTORY).count(), 1);
    w.clean("SC-LIFE-008: closure reassessment started");
    w.move_to("AWAITING_USER_SIGNOFF");
    w.reports("SC-LIFE-008", "RV-008", &w.rel(&review));

    // SC-LIFE-009: only the current section becomes ELIGIBLE.
    let text = read(&review);
    let at = text.find(CLOSURE).unwrap();
    write(
        &review,
        format!(
            "{}{}",
            &text[..at],
            text[at..].replacen("`NOT_ASSESSED`", "`ELIGIBLE`", 1)
        ),
    );
    w.clean("SC-LIFE-009: closure reassessed, ready for sign-off");
    let text = read(&review);
    assert_eq!(
        section(&text, HISTORY).trim(),
        section(&assessed, CLOSURE).trim(),
        "SC-LIFE-009: the history is the first assessment"
    );
    assert!(section(&text, HISTORY).contains(first_request));
    assert!(section(&text, CLOSURE).contains(newer_request));
    assert!(section(&text, CLOSURE).contains("`ELIGIBLE`"));

    // SC-LIFE-010: to the full deliverable once more, and through TAIL.
    w.move_kind(
        "DOCUMENTING",
        "COMPLETION_CHANGE",
        &[
            ("CompletionPolicy", "FULL_DELIVERABLE"),
            ("Reason", "The user wants the full deliverable in the end."),
        ],
    );
    w.clean("SC-LIFE-010: completion change to FULL_DELIVERABLE");
    tail(&mut w);
}

/// SC-LIFE-011 and SC-LIFE-012 for one policy: cancel after the
/// implementation review, then start a new cycle reconciling the old one.
fn cancel_then_reconcile(policy: &str) {
    let Life {
        mut w,
        review,
        request,
    } = f_life(false, policy);
    if policy == "IMPLEMENTATION_REVIEWED" {
        close(&w, &review, "ELIGIBLE");
    }
    // SC-LIFE-011
    w.move_kind(
        "CANCELLED",
        "CANCEL",
        &[
            ("CycleMode", "UNSET"),
            ("Reason", "The user cancelled the cycle."),
        ],
    );
    w.clean("SC-LIFE-011: cancelled");
    assert_eq!(w.field("CompletionPolicy"), policy, "SC-LIFE-011");

    // SC-LIFE-012
    let old_id = w.id.clone();
    let state = w.state().replace(
        "`BaselineReconciliation`: `NONE`",
        &format!(
            "`BaselineReconciliation`:\n- `SourceCycle`: `{old_id}`\n  `Request`: `{request}`"
        ),
    );
    write(w.repo.join(".standards/STATE.md"), state);
    let new_id = next_cycle(&mut w, "CANCELLED", &review, &[]);
    assert_ne!(new_id, old_id);
    let status = w.status();
    assert_eq!(
        status["baselineReconciliation"],
        serde_json::json!([{"sourceCycle": old_id, "request": request}]),
        "SC-LIFE-012"
    );
    assert_eq!(status["completionPolicy"], "FULL_DELIVERABLE");
}

#[test]
fn sc_life_011_012_cancel_a_full_deliverable_cycle_and_reconcile_it() {
    cancel_then_reconcile("FULL_DELIVERABLE");
}

#[test]
fn sc_life_011_012_cancel_an_implementation_reviewed_cycle_and_reconcile_it() {
    cancel_then_reconcile("IMPLEMENTATION_REVIEWED");
}

// The SC-LIFE scenario that ends in `reset` at sign-off readiness (number 13)
// waits for `git standards reset`, which is not built yet.

/// SC-LIFE-014: an expedited cycle whose review found a defect is promoted to
/// a STANDARD cycle; the open repair becomes an outstanding obligation
/// (SC-REC-006..008).
#[test]
fn sc_life_014_expedited_promotion_keeps_its_corrective_obligation() {
    let mut w = Walk::install(false);
    w.id = w.cycle_new("Fix the greeting");
    w.edit_state(&[
        ("WorkflowState", "DEVELOPING"),
        ("CycleMode", "EXPEDITED"),
        ("Id", &w.id.clone()),
        ("Request", "Fix the greeting"),
    ]);
    w.clean("expedited cycle started");
    // SC-REC-006
    w.frames(&[[
        "REVIEWING_IMPLEMENTATION",
        "DEVELOPING",
        "IMPLEMENTATION",
        "REVIEWING_IMPLEMENTATION",
        "NONE",
    ]]);
    w.edit_state(&[
        ("Kind", "FAILURE"),
        ("From", "REVIEWING_IMPLEMENTATION"),
        ("FailureType", "IMPLEMENTATION"),
        ("Reason", "The review found a defect."),
    ]);
    w.clean("SC-LIFE-014: review failure returned to the Developer");
    // SC-REC-007
    w.move_kind(
        "AUDITING",
        "PROMOTE",
        &[
            ("CycleMode", "STANDARD"),
            ("CompletionPolicy", "FULL_DELIVERABLE"),
            ("PromotionReason", "The fix needs a design change."),
            // Expedited Promotion stores the same reason in both places.
            ("Reason", "The fix needs a design change."),
        ],
    );
    w.frames(&[]);
    let state = w.state().replace(
        "## Outstanding Obligations\n\n`Active`: `false`\n",
        "## Outstanding Obligations\n\n`Active`: `true`\n\n### Obligation 1\n\n`Owner`: `DEVELOPING` `FailureType`: `IMPLEMENTATION` `Reason`: `A defect.`\n",
    );
    write(w.repo.join(".standards/STATE.md"), state);
    let id = w.id.clone();
    w.clean("SC-LIFE-014: promoted with the repair as an obligation");
    let status = w.status();
    assert_eq!(status["activeWork"]["id"], id.as_str());
    assert_eq!(status["recovery"], serde_json::json!([]));
    assert_eq!(status["obligations"][0]["owner"], "DEVELOPING");
    // SC-REC-008
    w.edit_state(&[("CompletionPolicy", "NONE")]);
    let found = w.reports("SC-LIFE-014", "ST-012", ".standards/STATE.md");
    assert!(
        found[0].contains("NONE") && found[0].contains("STANDARD"),
        "{found:?}"
    );
}

/// SC-LIFE-015..018: recovery from sign-off readiness of an
/// IMPLEMENTATION_REVIEWED cycle through documentation and development, and
/// back to sign-off with a fresh closure assessment.
#[test]
fn sc_life_015_to_018_recovery_from_sign_off_readiness() {
    let Life { mut w, review, .. } = f_life(false, "IMPLEMENTATION_REVIEWED");
    close(&w, &review, "ELIGIBLE");
    w.move_to("AWAITING_USER_SIGNOFF");
    w.clean("SC-LIFE-015: ready for sign-off");
    let outer: Frame = [
        "AWAITING_USER_SIGNOFF",
        "DOCUMENTING",
        "DOCUMENTATION",
        "AWAITING_USER_SIGNOFF",
        "NONE",
    ];
    w.frames(&[outer]);
    w.move_kind(
        "DOCUMENTING",
        "FAILURE",
        &[("FailureType", "DOCUMENTATION"), ("Reason", "A defect.")],
    );
    let doc = w.init(&["DOCUMENTATION"]);
    record_header_fill(
        &doc,
        &[
            ("Status", "IN_PROGRESS"),
            ("Collaboration", "AUTONOMOUS"),
            ("Target", "ACTIVE_CHANGE"),
            ("Target Detail", "the search documentation"),
            ("User Style", "NONE"),
        ],
    );
    w.clean("SC-LIFE-015: documentation failure at sign-off");
    let recovery_at_documenting = w.recovery();
    let inner: Frame = [
        "DOCUMENTING",
        "DEVELOPING",
        "IMPLEMENTATION",
        "DOCUMENTING",
        "NONE",
    ];
    w.frames(&[outer, inner]);
    w.move_kind(
        "DEVELOPING",
        "FAILURE",
        &[("FailureType", "IMPLEMENTATION"), ("Reason", "A defect.")],
    );
    w.clean("SC-LIFE-015: implementation failure found while documenting");

    // SC-LIFE-016
    let mut rerun = inner;
    rerun[4] = "TESTING";
    w.frames(&[outer, rerun]);
    w.move_kind("TESTING", "RESUME", &[]);
    w.clean("SC-LIFE-016: repaired, retesting");
    w.frames(&[outer]);
    w.move_kind("DOCUMENTING", "RESUME", &[]);
    w.clean("SC-LIFE-016: inner frame popped, documenting again");
    assert_eq!(w.recovery(), recovery_at_documenting, "SC-LIFE-016");

    // SC-LIFE-017
    record_header_fill(&doc, &[("Status", "COMPLETE")]);
    w.append(
        &doc,
        "\n## Documentation Work and Evidence\n\n- AC-001: the README explains searching by name.\n",
    );
    let mut outer_rerun = outer;
    outer_rerun[4] = "REVIEWING_IMPLEMENTATION";
    w.frames(&[outer_rerun]);
    w.move_kind("REVIEWING_IMPLEMENTATION", "RESUME", &[]);
    close(&w, &review, "NOT_ASSESSED");
    assert_eq!(read(&review).matches(HISTORY).count(), 1);
    w.clean("SC-LIFE-017: documented, back to the implementation review");

    // SC-LIFE-018
    w.move_kind("AWAITING_USER_SIGNOFF", "RESUME", &[]);
    w.reports("SC-LIFE-018", "RC-023", ".standards/STATE.md");
    w.frames(&[]);
    w.reports("SC-LIFE-018", "RV-008", &w.rel(&review));
    let text = read(&review);
    let at = text.find(CLOSURE).unwrap();
    write(
        &review,
        format!(
            "{}{}",
            &text[..at],
            text[at..].replacen("`NOT_ASSESSED`", "`ELIGIBLE`", 1)
        ),
    );
    w.clean("SC-LIFE-018: reassessed, ready for sign-off");
}

/// F-DOC(through) (§0.2) on a real repository: a DOCUMENTATION cycle from
/// AUDITING, clean at every step, up to and including the state `through`.
/// Returns the walk and the three DOCUMENTATION-phase records written.
fn f_doc(through: &str) -> (Walk, Vec<PathBuf>) {
    let mut w = Walk::install(false);
    write(
        w.repo.join("docs/usage.md"),
        "# Usage\n\n`python app.py` prints `hi`.\n",
    );
    w.env.commit_all(&w.repo, "usage guide");
    let request = "Document the existing greeting command.";
    w.id = w.cycle_new(request);
    w.edit_state(&[
        ("WorkflowState", "AUDITING"),
        ("CycleMode", "DOCUMENTATION"),
        ("Id", &w.id.clone()),
        ("Request", request),
        ("CompletionPolicy", "NONE"),
    ]);
    w.clean("documentation cycle started");
    write(
        w.repo.join(".standards/CONTEXT.md"),
        "# Project Context\n\n## Project Baseline\n\nA one-file Python program, `app.py`, whose only behaviour is printing `hi`.\n",
    );
    w.move_to("SCOPING");
    w.clean("context audited");
    let scope = w.init(&["SCOPE"]);
    w.append(
        &scope,
        "\n# Greeting guide\n\n## Work\n\n**Done when:**\n\n- `AC-001`: Explain the command and its existing output.\n- `AC-002`: Explain the audience and limits.\n\n## Retired Acceptance Identifiers\n\n- `AC-003`: Retired because it was merged into AC-001.\n",
    );
    w.edit_state(&[("Scope", &w.rel(&scope))]);
    w.clean("documentation scope");
    w.move_to("ARCHITECTING");
    let design = w.init(&["ARCHITECTURE"]);
    w.append(
        &design,
        "\n# Documentation design\n\n## Acceptance Coverage\n\n- AC-001: A usage section in `docs/usage.md`.\n- AC-002: No architectural impact; the Documenter words it.\n",
    );
    w.edit_state(&[("Architecture", &w.rel(&design))]);
    w.clean("documentation design");
    let mut records = Vec::new();
    for (state, args) in [
        ("DOCUMENTING", &["DOCUMENTATION"][..]),
        (
            "REVIEWING_FINAL",
            &["REVIEW", "--kind", "FINAL_DELIVERABLE"],
        ),
        ("SYNCHRONIZING", &["SYNCHRONIZATION"]),
    ] {
        w.move_to(state);
        let record = w.init(args);
        let text = read(&record);
        let mut changes = vec![("Status", "COMPLETE"), ("User Style", "NONE")];
        for (name, value) in [
            ("Collaboration", "AUTONOMOUS"),
            ("Target", "ACTIVE_CHANGE"),
            ("Target Detail", "the greeting command's guide"),
        ] {
            if text.contains(&format!("`{name}`:")) {
                changes.push((name, value));
            }
        }
        record_header_fill(&record, &changes);
        w.append(
            &record,
            "\n## Acceptance Evidence\n\n- AC-001: `docs/usage.md` explains `python app.py` and its output `hi`.\n- AC-002: the guide names its audience (new contributors) and its limits (no options).\n",
        );
        w.clean(&format!("{state} record"));
        records.push(record);
        if state == through {
            return (w, records);
        }
    }
    w.move_to("AWAITING_USER_SIGNOFF");
    w.clean("documentation ready for sign-off");
    (w, records)
}

/// SC-LIFE-019: a documentation cycle whose outcome is "no change", signed
/// off, then a new documentation cycle; nothing of the old one changes.
#[test]
fn sc_life_019_documentation_cycle_with_a_no_change_outcome() {
    let (mut w, records) = f_doc("AWAITING_USER_SIGNOFF");
    for record in &records {
        w.append(
            record,
            "\n## No-Change Disposition\n\nNo documentation change was needed: `docs/usage.md` already covers AC-001 and AC-002.\n",
        );
    }
    w.clean("SC-LIFE-019: no-change dispositions");
    sign_off(&mut w);
    let usage = read(w.repo.join("docs/usage.md"));
    let old: Vec<String> = records.iter().map(read).collect();
    let old_id = w.id.clone();
    let new_id = w.cycle_new("Document the greeting again.");
    assert_ne!(new_id, old_id);
    w.edit_state(&[
        ("WorkflowState", "AUDITING"),
        ("CycleMode", "DOCUMENTATION"),
        ("Id", &new_id),
        ("Request", "Document the greeting again."),
        ("Scope", "NONE"),
        ("Architecture", "NONE"),
        ("Kind", "NEW_CYCLE"),
        ("From", "SIGNED_OFF"),
        ("Reason", "The user asked for another pass."),
    ]);
    w.id = new_id;
    w.clean("SC-LIFE-019: next documentation cycle");
    assert_eq!(read(w.repo.join("docs/usage.md")), usage);
    let now: Vec<String> = records.iter().map(read).collect();
    assert_eq!(now, old, "SC-LIFE-019: the old records are byte-identical");
    let status = w.status();
    assert_eq!(status["completionPolicy"], "NONE");
    assert_eq!(status["activeWork"]["development"], serde_json::Value::Null);
    assert_eq!(status["recovery"], serde_json::json!([]));
}

/// SC-LIFE-020 and SC-LIFE-021: a documentation cycle cancelled while
/// documenting; the next cycle (DOCUMENTATION, then EXPEDITED) reconciles it.
#[test]
fn sc_life_020_021_cancelled_documentation_cycle_is_reconciled() {
    let (mut w, _) = f_doc("DOCUMENTING");
    write(
        w.repo.join("docs/usage.md"),
        "# Usage\n\n`python app.py` prints `hi`. It takes no options.\n",
    );
    w.move_kind(
        "CANCELLED",
        "CANCEL",
        &[
            ("CycleMode", "UNSET"),
            ("Reason", "The user cancelled the cycle."),
        ],
    );
    w.clean("SC-LIFE-020: cancelled while documenting");
    let usage = read(w.repo.join("docs/usage.md"));
    let old_id = w.id.clone();
    let old_request = w.field("Request");
    let new_id = w.cycle_new("Document the greeting properly.");
    assert_ne!(new_id, old_id);
    let state = w.state().replace(
        "`BaselineReconciliation`: `NONE`",
        &format!(
            "`BaselineReconciliation`:\n- `SourceCycle`: `{old_id}`\n  `Request`: `{old_request}`"
        ),
    );
    write(w.repo.join(".standards/STATE.md"), state);
    w.edit_state(&[
        ("WorkflowState", "AUDITING"),
        ("CycleMode", "DOCUMENTATION"),
        ("Id", &new_id),
        ("Request", "Document the greeting properly."),
        ("Scope", "NONE"),
        ("Architecture", "NONE"),
        ("Kind", "NEW_CYCLE"),
        ("From", "CANCELLED"),
        ("Reason", "The user restarted the documentation."),
    ]);
    w.id = new_id;
    w.clean("SC-LIFE-020: next documentation cycle reconciles the cancelled one");
    let entries = serde_json::json!([{"sourceCycle": old_id, "request": old_request}]);
    assert_eq!(w.status()["baselineReconciliation"], entries);
    assert_eq!(
        read(w.repo.join("docs/usage.md")),
        usage,
        "SC-LIFE-020: kept"
    );

    // SC-LIFE-021: the cancelled cycle followed instead by an EXPEDITED cycle
    // at DEVELOPING with the same entries: an expedited cycle cannot
    // reconcile a baseline (ST-031).
    let reconciling = w.state();
    w.env.git(&w.repo, &["reset", "-q", "--hard", "HEAD~1"]);
    write(w.repo.join(".standards/STATE.md"), reconciling);
    w.edit_state(&[("WorkflowState", "DEVELOPING"), ("CycleMode", "EXPEDITED")]);
    let found = w.reports("SC-LIFE-021", "ST-031", ".standards/STATE.md");
    assert!(found[0].contains("EXPEDITED"), "{found:?}");
    let a = w.env.run(&w.repo, &["check", "--json"]).code(1);
    let v: serde_json::Value = serde_json::from_str(&stdout(&a)).unwrap();
    let rules: Vec<&str> = v["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["rule"].as_str().unwrap())
        .collect();
    assert_eq!(rules, ["ST-031"], "SC-LIFE-021: {}", stdout(&a));
}
