//! Scenario group SC-INC of `shared/spec/scenarios.md` (§15): verification
//! cadence, increment checkpoints and suspended assignments.
//!
//! Every scenario starts from F-INC (§0.2), read from `fixtures/check/bases/f-inc/`,
//! and applies the scenario's edits as written; "Continue SC-INC-NNN" scenarios
//! build on the previous scenario's edits, so each chain is one test whose steps
//! are commented with their IDs. Scenario words map to the check as in §0:
//! "passes" is the normal check without problems, "the stop hook exits 0 / 2"
//! is the turn-end check (`Options::at_turn_end`) without / with the problem.
//! Each expectation names the rule and the file it must be reported on.

use std::path::Path;

use standards_core::check::{self, testing::installed_tree, Options, Problem};
use standards_core::model::state::fresh_template;
use standards_core::model::tree::MemTree;
use standards_core::model::vocab::ProjectMode;

use crate::common::{read, stdout, write, Env};

const ID: &str = "add-user-search-20260927T190146Z-7bef0f04";
const BASE: &str = "fixtures/check/bases/f-inc";

const STATE: &str = ".standards/STATE.md";

/// The Auditor's project context: a standard cycle past its audit has one.
const CONTEXT: &str = ".standards/CONTEXT.md";
const CONTEXT_TEXT: &str = "# Project Context\n\n## Project Baseline\n\nAn existing Python app.\n";

fn scope_path() -> String {
    format!(".standards/docs/scope/{ID}.md")
}
fn design_path() -> String {
    format!(".standards/docs/specs/{ID}.md")
}
fn plan_path() -> String {
    format!(".standards/docs/development/{ID}.md")
}
fn report_path() -> String {
    format!(".standards/docs/verification/{ID}.md")
}

/// The files of F-INC a scenario edits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum F {
    State,
    Design,
    Plan,
    Report,
}

/// A recovery frame, `Frame(From, Owner, FailureType, ResumeAt[, RerunThrough])` (§0).
#[derive(Debug, Clone, Copy)]
struct Frame {
    from: &'static str,
    owner: &'static str,
    failure: &'static str,
    resume_at: &'static str,
    rerun_through: &'static str,
}

#[allow(non_snake_case)]
fn Frame(
    from: &'static str,
    owner: &'static str,
    failure: &'static str,
    resume_at: &'static str,
) -> Frame {
    Frame {
        from,
        owner,
        failure,
        resume_at,
        rerun_through: "NONE",
    }
}

impl Frame {
    fn rerun_through(mut self, state: &'static str) -> Frame {
        self.rerun_through = state;
        self
    }

    fn render(&self, n: usize) -> String {
        format!(
            "### Frame {n}\n\n`From`: `{}` `Owner`: `{}` `FailureType`: `{}` `Reason`: `A defect.`\n`ResumeAt`: `{}` `RerunThrough`: `{}`\n",
            self.from, self.owner, self.failure, self.resume_at, self.rerun_through
        )
    }
}

/// `SA(n, frame, purpose, target)` (§0): a suspended-assignment block with
/// the default `Recovery Reason` `A defect.`.
#[allow(non_snake_case)]
fn SA(n: u32, frame: u32, purpose: &str, target: &str) -> String {
    format!(
        "### Suspended Assignment {n}\n\n`Recovery Frame`: `{frame}` `Recovery Reason`: `A defect.`\n`Purpose`: `{purpose}` `Target`: `{target}`\n`Assessed Inputs`: `src/search.js and test/search.test.js at the interruption`\n`Next Action`: `Rerun the interrupted assessment.`\n"
    )
}

/// The byte range of the value of the first `` `name`: `value` `` pair at or
/// after `from` (the value may start on the next line, §1.2).
fn value_range(text: &str, name: &str, from: usize) -> std::ops::Range<usize> {
    let label = format!("`{name}`:");
    let at = text[from..]
        .find(&label)
        .unwrap_or_else(|| panic!("no `{name}` field in:\n{}", &text[from..]))
        + from
        + label.len();
    let rest = &text[at..];
    let open = at + (rest.len() - rest.trim_start().len());
    assert_eq!(&text[open..open + 1], "`", "`{name}` has no code span");
    let close = text[open + 1..].find('`').expect("closing backtick") + open + 1;
    open + 1..close
}

/// One F-INC project, edited by a scenario.
#[derive(Debug, Clone)]
struct Fx {
    state: String,
    scope: String,
    design: String,
    plan: String,
    report: String,
}

impl Fx {
    /// F-INC as §0.2 defines it (`fixtures/check/bases/f-inc`).
    fn f_inc() -> Fx {
        let base = Path::new(env!("CARGO_MANIFEST_DIR")).join(BASE);
        let file = |rel: String| read(base.join(rel));
        Fx {
            state: file(STATE.to_string()),
            scope: file(scope_path()),
            design: file(design_path()),
            plan: file(plan_path()),
            report: file(report_path()),
        }
    }

    fn text(&mut self, f: F) -> &mut String {
        match f {
            F::State => &mut self.state,
            F::Design => &mut self.design,
            F::Plan => &mut self.plan,
            F::Report => &mut self.report,
        }
    }

    /// Replaces `from`, which must occur exactly once in the file, by `to`.
    fn edit(&mut self, f: F, from: &str, to: &str) -> &mut Fx {
        let text = self.text(f);
        assert_eq!(
            text.matches(from).count(),
            1,
            "{f:?} must hold `{from}` exactly once:\n{text}"
        );
        *text = text.replacen(from, to, 1);
        self
    }

    /// Scenario "set X=Y": the first `X` field of the file takes the value `Y`.
    fn set(&mut self, f: F, name: &str, value: &str) -> &mut Fx {
        let text = self.text(f);
        let r = value_range(text, name, 0);
        text.replace_range(r, value);
        self
    }

    /// Sets a field of STATE.md.
    fn state(&mut self, name: &str, value: &str) -> &mut Fx {
        self.set(F::State, name, value)
    }

    /// Sets the first `name` field after the heading `heading` of the file.
    fn set_under(&mut self, f: F, heading: &str, name: &str, value: &str) -> &mut Fx {
        let text = self.text(f);
        let at = text
            .find(heading)
            .unwrap_or_else(|| panic!("no `{heading}` in {f:?}"));
        let r = value_range(text, name, at);
        text.replace_range(r, value);
        self
    }

    /// Sets a field of plan step `step` (`DEV-NNN`).
    fn step(&mut self, step: &str, name: &str, value: &str) -> &mut Fx {
        self.set_under(F::Plan, &format!("### {step} "), name, value)
    }

    /// Sets a field of plan increment `n`.
    fn increment(&mut self, n: u32, name: &str, value: &str) -> &mut Fx {
        self.set_under(F::Plan, &format!("### Increment {n}\n"), name, value)
    }

    /// Adds a `**Self-Check**` paragraph at the end of step `step`.
    fn self_check(&mut self, step: &str) -> &mut Fx {
        let text = &mut self.plan;
        let at = text
            .find(&format!("### {step} "))
            .unwrap_or_else(|| panic!("no step {step}"));
        let body = at + 4;
        let end = [text[body..].find("\n### "), text[body..].find("\n## ")]
            .into_iter()
            .flatten()
            .min()
            .map_or(text.len(), |e| body + e + 1);
        text.insert_str(
            end,
            &format!("**Self-Check**\n\n`node --test test/search.test.js` passed after {step}: 0 failures.\n\n"),
        );
        self
    }

    /// Appends `text` (a new section) at the end of the file.
    fn append(&mut self, f: F, section: &str) -> &mut Fx {
        let text = self.text(f);
        if !text.ends_with('\n') {
            text.push('\n');
        }
        text.push('\n');
        text.push_str(section);
        self
    }

    /// §0 "frames [a, b]": rewrites the whole Recovery section.
    fn frames(&mut self, frames: &[Frame]) -> &mut Fx {
        let start = self.state.find("## Recovery\n").expect("Recovery section");
        let end = self
            .state
            .find("## Outstanding Obligations")
            .expect("Outstanding Obligations section");
        let mut section = format!("## Recovery\n\n`Active`: `{}`\n\n", !frames.is_empty());
        for (i, f) in frames.iter().enumerate() {
            section.push_str(&f.render(i + 1));
            section.push('\n');
        }
        self.state.replace_range(start..end, &section);
        self
    }

    /// §0 "withFrame(f)": recovery becomes active with `f` as Frame 1.
    fn with_frame(&mut self, f: Frame) -> &mut Fx {
        self.edit(
            F::State,
            "## Recovery\n\n`Active`: `false`\n",
            &format!("## Recovery\n\n`Active`: `true`\n\n{}", f.render(1)),
        )
    }

    fn tree(&self) -> MemTree {
        installed_tree(ProjectMode::Brownfield)
            .with("app.py", "print(\"hi\")\n")
            .with(STATE, &self.state)
            .with(&scope_path(), &self.scope)
            .with(&design_path(), &self.design)
            .with(&plan_path(), &self.plan)
            .with(&report_path(), &self.report)
            .with(CONTEXT, CONTEXT_TEXT)
    }

    /// Writes the scenario's files over a project folder.
    fn lay(&self, root: &Path) {
        write(root.join(STATE), &self.state);
        write(root.join(scope_path()), &self.scope);
        write(root.join(design_path()), &self.design);
        write(root.join(plan_path()), &self.plan);
        write(root.join(report_path()), &self.report);
        write(root.join(CONTEXT), CONTEXT_TEXT);
    }

    fn problems(&self, at_turn_end: bool) -> Vec<Problem> {
        check::run(
            &self.tree(),
            None,
            Options {
                at_turn_end,
                ..Default::default()
            },
        )
        .problems
    }

    fn describe(problems: &[Problem]) -> String {
        problems
            .iter()
            .map(|p| format!("  {} {}: {}", p.rule, p.file, p.message))
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn assert_clean_in(&self, at_turn_end: bool, what: &str) {
        let problems = self.problems(at_turn_end);
        assert!(
            problems.is_empty(),
            "{what}: the {} check must pass, but reports:\n{}",
            if at_turn_end { "turn-end" } else { "normal" },
            Fx::describe(&problems)
        );
    }

    /// "→ passes": the normal check reports nothing.
    fn passes(&self, what: &str) -> &Fx {
        self.assert_clean_in(false, what);
        self
    }

    /// "the stop hook exits 0": the turn-end check reports nothing.
    fn hook_passes(&self, what: &str) -> &Fx {
        self.assert_clean_in(true, what);
        self
    }

    fn assert_reported_in(
        &self,
        at_turn_end: bool,
        what: &str,
        rule: &str,
        file: &str,
        needles: &[&str],
    ) {
        let problems = self.problems(at_turn_end);
        assert!(
            problems.iter().any(|p| p.rule == rule
                && p.file == file
                && needles.iter().all(|n| p.message.contains(n))),
            "{what}: the {} check must report {rule} on {file} naming {needles:?}, but reports:\n{}",
            if at_turn_end { "turn-end" } else { "normal" },
            Fx::describe(&problems)
        );
    }

    /// The normal check reports `rule` on `file` with a message naming every needle.
    fn reports(&self, what: &str, rule: &str, file: &str, needles: &[&str]) -> &Fx {
        self.assert_reported_in(false, what, rule, file, needles);
        self
    }

    /// "the stop hook exits 2" with that problem: the turn-end check reports it.
    fn hook_reports(&self, what: &str, rule: &str, file: &str, needles: &[&str]) -> &Fx {
        self.assert_reported_in(true, what, rule, file, needles);
        self
    }

    /// The normal check reports exactly these (rule, file) pairs.
    fn reports_exactly(&self, what: &str, expected: &[(&str, &str)]) -> &Fx {
        self.assert_exactly_in(false, what, expected);
        self
    }

    /// The stop hook blocks with exactly these (rule, file) pairs.
    fn hook_reports_exactly(&self, what: &str, expected: &[(&str, &str)]) -> &Fx {
        self.assert_exactly_in(true, what, expected);
        self
    }

    fn assert_exactly_in(&self, at_turn_end: bool, what: &str, expected: &[(&str, &str)]) {
        let problems = self.problems(at_turn_end);
        let mut fired: Vec<(&str, &str)> =
            problems.iter().map(|p| (p.rule, p.file.as_str())).collect();
        fired.sort();
        fired.dedup();
        let mut want: Vec<(&str, &str)> = expected.to_vec();
        want.sort();
        want.dedup();
        assert_eq!(
            fired,
            want,
            "{what}: the {} check must report exactly {want:?}, but reports:\n{}",
            if at_turn_end { "turn-end" } else { "normal" },
            Fx::describe(&problems)
        );
    }
}

/// The scenario `F-INC` with `edit` applied.
fn f_inc(edit: impl FnOnce(&mut Fx) -> &mut Fx) -> Fx {
    let mut fx = Fx::f_inc();
    edit(&mut fx);
    fx
}

const MODES: [&str; 3] = ["AUTONOMOUS", "STEPWISE", "CODE_WITH_ME"];

#[test]
fn f_inc_is_clean() {
    Fx::f_inc().passes("F-INC").hook_passes("F-INC");
}

/// SC-INC-001: F-INC with plan Mode AUTONOMOUS, STEPWISE or CODE_WITH_ME passes.
#[test]
fn sc_inc_001_every_plan_mode_passes() {
    for mode in MODES {
        f_inc(|f| f.set(F::Plan, "Mode", mode)).passes(mode);
    }
}

/// SC-INC-002: a checkpoint from a PROPOSED plan (not approved and locked) → DV-021.
/// SC-INC-003: the same with `User Style Locked` false.
#[test]
fn sc_inc_002_003_checkpoint_needs_an_approved_locked_plan() {
    f_inc(|f| f.set(F::Plan, "Status", "PROPOSED")).reports(
        "SC-INC-002",
        "DV-021",
        &plan_path(),
        &["approved", "PROPOSED"],
    );
    f_inc(|f| f.set(F::Plan, "User Style Locked", "false")).reports(
        "SC-INC-003",
        "DV-021",
        &plan_path(),
        &["approved", "`User Style Locked` is `false`"],
    );
}

/// SC-INC-004: DEV-001 PENDING → the increment requires DEV-001 to be DONE.
/// SC-INC-005: the `**Self-Check**` label renamed `**Notes**` → no saved Self-Check for DEV-001.
/// SC-INC-006: DEV-001 depends on DEV-002 (PENDING) → the increment requires DEV-002 to be DONE.
#[test]
fn sc_inc_004_005_006_increment_steps_must_be_done_and_self_checked() {
    f_inc(|f| f.step("DEV-001", "Status", "PENDING")).reports(
        "SC-INC-004",
        "DV-021",
        &plan_path(),
        &["DEV-001", "DONE", "Increment 1"],
    );
    f_inc(|f| f.edit(F::Plan, "**Self-Check**", "**Notes**")).reports(
        "SC-INC-005",
        "DV-021",
        &plan_path(),
        &["Self-Check", "DEV-001"],
    );
    f_inc(|f| f.step("DEV-001", "Depends On", "DEV-002")).reports(
        "SC-INC-006",
        "DV-021",
        &plan_path(),
        &["DEV-002", "DONE"],
    );
}

/// SC-INC-007: `Current Increment` 9 → no matching increment entry (DV-017).
/// SC-INC-008: Increment 1 lists DEV-009 → unknown step (DV-015).
/// SC-INC-009: `### Increment 2` renamed `### Increment 3` → out of sequence (DV-011).
#[test]
fn sc_inc_007_008_009_increment_entries() {
    f_inc(|f| f.set(F::Plan, "Current Increment", "9")).reports(
        "SC-INC-007",
        "DV-017",
        &plan_path(),
        &["Current Increment` 9", "### Increment 9"],
    );
    f_inc(|f| f.increment(1, "Development Steps", "DEV-009")).reports(
        "SC-INC-008",
        "DV-015",
        &plan_path(),
        &["Increment 1", "DEV-009"],
    );
    f_inc(|f| f.edit(F::Plan, "### Increment 2", "### Increment 3")).reports(
        "SC-INC-009",
        "DV-011",
        &plan_path(),
        &["Increment 3", "### Increment 2"],
    );
}

/// SC-INC-010: the Self-Check written as a fenced ```` ```text ```` block
/// (command line, inputs, exit line) passes.
#[test]
fn sc_inc_010_fenced_self_check_passes() {
    f_inc(|f| {
        f.edit(
            F::Plan,
            "**Self-Check**\n\n`node --test test/search.test.js` passed: 4 tests, 0 failures.\n",
            "**Self-Check**\n\n```text\n$ node --test test/search.test.js\ninputs: src/search.js, test/search.test.js\nexit 0 (4 passed, 0 failed)\n```\n",
        )
    })
    .passes("SC-INC-010");
}

/// SC-INC-011: Development NONE → Active Work.Development is NONE (CP-009), and
/// only that: the plan is still found at its fixed path, so no checkpoint rule
/// claims the cycle has no plan.
#[test]
fn sc_inc_011_development_none() {
    let fx = f_inc(|f| f.state("Development", "NONE"));
    fx.reports("SC-INC-011", "CP-009", STATE, &["Development"])
        .reports_exactly("SC-INC-011", &[("CP-009", STATE)]);
}

/// SC-INC-012: From ARCHITECTING → CHECKPOINT outside a DEVELOPING↔TESTING exchange.
/// SC-INC-013: FailureType VERIFICATION → CHECKPOINT with a non-NONE FailureType.
/// SC-INC-014: Reason `Ready.` or `Increment 1 and Increment 2 ready.` → not exactly one increment.
/// SC-INC-015: + withFrame(Frame(DEVELOPING, TESTING, VERIFICATION, DEVELOPING)) → CHECKPOINT during recovery.
#[test]
fn sc_inc_012_to_015_checkpoint_handoff_preconditions() {
    f_inc(|f| f.state("From", "ARCHITECTING")).reports(
        "SC-INC-012",
        "TR-027",
        STATE,
        &["ARCHITECTING -> TESTING", "DEVELOPING -> TESTING"],
    );
    f_inc(|f| f.state("FailureType", "VERIFICATION")).reports(
        "SC-INC-013",
        "TR-027",
        STATE,
        &["`FailureType` is `VERIFICATION`"],
    );
    for reason in ["Ready.", "Increment 1 and Increment 2 ready."] {
        f_inc(|f| f.state("Reason", reason)).reports(
            "SC-INC-014",
            "TR-028",
            STATE,
            &["exactly one"],
        );
    }
    f_inc(|f| f.with_frame(Frame("DEVELOPING", "TESTING", "VERIFICATION", "DEVELOPING"))).reports(
        "SC-INC-015",
        "TR-027",
        STATE,
        &["recovery is active"],
    );
}

/// SC-INC-016: PendingVerificationCadence AFTER_IMPLEMENTATION passes, and the
/// check does not rewrite STATE.md (run by the binary on a real project).
#[test]
fn sc_inc_016_pending_cadence_request_passes_untouched() {
    let fx = f_inc(|f| f.state("PendingVerificationCadence", "AFTER_IMPLEMENTATION"));
    fx.passes("SC-INC-016");
    let (env, repo) = Env::repo();
    write(repo.join("app.py"), "print(\"hi\")\n");
    env.run(&repo, &["install"]).success();
    fx.lay(&repo);
    let before = std::fs::read(repo.join(STATE)).unwrap();
    let a = env.run(&repo, &["check"]).success();
    assert!(stdout(&a).contains("check passed"), "{}", stdout(&a));
    assert_eq!(
        std::fs::read(repo.join(STATE)).unwrap(),
        before,
        "STATE.md was rewritten"
    );
}

/// The Tester's checkpoint back to the Developer (SC-INC-017).
fn tester_checkpoint() -> Fx {
    f_inc(|f| {
        f.state("WorkflowState", "DEVELOPING")
            .state("From", "TESTING")
            .state("Reason", "Increment 1 verified.")
    })
}

/// SC-INC-017: the Tester's checkpoint back (DEVELOPING from TESTING, `Increment 1 verified.`) passes.
/// SC-INC-018: … with the increment-1 row BLOCKED → the assessment is not VERIFIED (VF-014).
/// SC-INC-019: … with `## Execution Evidence` emptied → no saved Execution Evidence (VF-015).
/// SC-INC-020: … with plan `Current Increment` 2 → passes.
/// SC-INC-021: … with plan cadence AFTER_IMPLEMENTATION, Current NONE and DEV-001 IN_PROGRESS → passes.
/// SC-INC-022: SC-INC-021 with cadence INCREMENTAL and Current 2 → passes; with BlockedOn text → still passes.
#[test]
fn sc_inc_017_to_022_tester_checkpoint_back_to_the_developer() {
    tester_checkpoint().passes("SC-INC-017");

    let mut fx = tester_checkpoint();
    fx.edit(
        F::Report,
        "test/search.test.js passed | VERIFIED |",
        "test/search.test.js passed | BLOCKED |",
    );
    fx.reports(
        "SC-INC-018",
        "VF-014",
        &report_path(),
        &["Increment 1", "not VERIFIED"],
    );

    let mut fx = tester_checkpoint();
    let at = fx.report.find("## Execution Evidence\n").unwrap();
    fx.report.truncate(at);
    fx.report.push_str("## Execution Evidence\n");
    fx.reports(
        "SC-INC-019",
        "VF-015",
        &report_path(),
        &["Execution Evidence", "empty"],
    );

    let mut fx = tester_checkpoint();
    fx.set(F::Plan, "Current Increment", "2")
        .passes("SC-INC-020");

    let mut fx = tester_checkpoint();
    fx.set(F::Plan, "Verification Cadence", "AFTER_IMPLEMENTATION")
        .set(F::Plan, "Current Increment", "NONE")
        .step("DEV-001", "Status", "IN_PROGRESS")
        .passes("SC-INC-021");

    fx.set(F::Plan, "Verification Cadence", "INCREMENTAL")
        .set(F::Plan, "Current Increment", "2")
        .passes("SC-INC-022");
    fx.state("BlockedOn", "Should the search box debounce input?")
        .passes("SC-INC-022 with BlockedOn");
}

/// SC-INC-023: the `AC-004 … AWAITING_IMPLEMENTATION` row removed → partial-assessment gap for AC-004.
/// SC-INC-024: … plus a `## Assessed Inputs` section naming AC-004 → still the gap.
#[test]
fn sc_inc_023_024_partial_assessment_needs_every_condition_in_the_table() {
    let mut fx = f_inc(|f| {
        f.edit(
            F::Report,
            "| AC-004 | DEV-002 | AWAITING_IMPLEMENTATION |\n",
            "",
        )
    });
    fx.reports("SC-INC-023", "AC-011", &report_path(), &["AC-004"]);
    fx.append(
        F::Report,
        "## Assessed Inputs\n\nAC-004 is implemented by DEV-002, which is still pending.\n",
    )
    .reports("SC-INC-024", "AC-011", &report_path(), &["AC-004"]);
}

/// SC-INC-025: report target `Increment 2` → the stop hook passes (the receiving
/// Tester is not blamed at turn end); the check says the checkpoint requires Increment 1.
#[test]
fn sc_inc_025_receiving_tester_is_not_blamed_at_turn_end() {
    f_inc(|f| f.set(F::Report, "Assessment Target", "Increment 2"))
        .hook_passes("SC-INC-025")
        .reports("SC-INC-025", "VF-013", &report_path(), &["Increment 1"]);
}

/// SC-INC-026: DEVELOPING from TESTING with the increment row BLOCKED → the stop
/// hook blocks with the non-VERIFIED increment assessment.
#[test]
fn sc_inc_026_returning_tester_is_blamed_at_turn_end() {
    let mut fx = f_inc(|f| {
        f.state("WorkflowState", "DEVELOPING")
            .state("From", "TESTING")
    });
    fx.edit(
        F::Report,
        "test/search.test.js passed | VERIFIED |",
        "test/search.test.js passed | BLOCKED |",
    );
    fx.hook_reports(
        "SC-INC-026",
        "VF-014",
        &report_path(),
        &["Increment 1", "not VERIFIED"],
    )
    .hook_reports_exactly("SC-INC-026", &[("VF-014", &report_path())]);
}

/// SC-INC-027: a scoped Tester correction of the Developer's work (FAILURE from
/// DEVELOPING, frame 1 owned by TESTING, Developer's DEVELOPMENT assignment saved).
fn scoped_correction() -> Fx {
    f_inc(|f| {
        f.set(F::Plan, "Verification Cadence", "AFTER_IMPLEMENTATION")
            .set(F::Plan, "Current Increment", "NONE")
            .append(
                F::Plan,
                &format!("## Plan Notes\n\n{}", SA(1, 1, "DEVELOPMENT", "NONE")),
            )
            .set(F::Report, "Mode", "REVERIFY")
            .set(F::Report, "Assessment Purpose", "CORRECTION")
            .set(F::Report, "Assessment Target", "Repair endpoint assertion")
            .state("Kind", "FAILURE")
            .state("From", "DEVELOPING")
            .state("FailureType", "VERIFICATION")
            .state("PendingVerificationCadence", "INCREMENTAL")
            .with_frame(Frame("DEVELOPING", "TESTING", "VERIFICATION", "DEVELOPING"))
    })
}

/// SC-INC-027: the scoped correction passes (scoped corrections do not depend on cadence).
/// SC-INC-028: … with Purpose FULL, Target NONE → a scoped Tester correction must be CORRECTION (VF-020).
/// SC-INC-029: … with the report COMPLETE, FULL, NONE → COMPLETE FULL verification of unfinished work (VF-018).
#[test]
fn sc_inc_027_028_029_scoped_tester_correction() {
    scoped_correction().passes("SC-INC-027");

    let mut fx = scoped_correction();
    fx.set(F::Report, "Assessment Purpose", "FULL")
        .set(F::Report, "Assessment Target", "NONE")
        .reports(
            "SC-INC-028",
            "VF-020",
            &report_path(),
            &["frame 1", "`FULL`"],
        );

    let mut fx = scoped_correction();
    fx.set(F::Report, "Status", "COMPLETE")
        .set(F::Report, "Assessment Purpose", "FULL")
        .set(F::Report, "Assessment Target", "NONE")
        .reports(
            "SC-INC-029",
            "VF-018",
            &report_path(),
            &["COMPLETE", &plan_path(), "IN_PROGRESS"],
        );
}

/// SC-INC-030: the nested repair — the Tester saved its correction for frame 2,
/// and the Developer repairs (DEVELOPING from TESTING, frame 2 owned by DEVELOPING).
fn nested_repair() -> Fx {
    let mut fx = scoped_correction();
    fx.append(
        F::Report,
        &format!(
            "## Resume or Handoff\n\n{}",
            SA(1, 2, "CORRECTION", "Repair endpoint assertion")
        ),
    )
    .state("WorkflowState", "DEVELOPING")
    .state("From", "TESTING")
    .state("FailureType", "IMPLEMENTATION")
    .frames(&[
        Frame("DEVELOPING", "TESTING", "VERIFICATION", "DEVELOPING"),
        Frame("TESTING", "DEVELOPING", "IMPLEMENTATION", "TESTING"),
    ]);
    fx
}

/// SC-INC-030: the nested repair passes.
/// SC-INC-031: … without the report's suspended assignment → none matches frame 2 (VF-011).
/// SC-INC-032: … with its `Recovery Reason` `Another defect.` → the same problem.
/// SC-INC-033: frame 2 popped (TESTING, RESUME from DEVELOPING, FailureType NONE) → passes.
/// SC-INC-034: the last frame popped (DEVELOPING from TESTING, recovery inactive) → passes.
#[test]
fn sc_inc_030_to_034_nested_repair_and_its_unwinding() {
    nested_repair().passes("SC-INC-030");

    let mut fx = nested_repair();
    let at = fx.report.find("\n## Resume or Handoff").unwrap();
    fx.report.truncate(at + 1);
    fx.reports("SC-INC-031", "VF-011", &report_path(), &["frame 2"]);

    let mut fx = nested_repair();
    fx.edit(
        F::Report,
        "`Recovery Frame`: `2` `Recovery Reason`: `A defect.`",
        "`Recovery Frame`: `2` `Recovery Reason`: `Another defect.`",
    )
    .reports(
        "SC-INC-032",
        "VF-011",
        &report_path(),
        &["frame 2", "Reason"],
    );

    let mut fx = nested_repair();
    fx.state("WorkflowState", "TESTING")
        .state("Kind", "RESUME")
        .state("From", "DEVELOPING")
        .state("FailureType", "NONE")
        .frames(&[Frame("DEVELOPING", "TESTING", "VERIFICATION", "DEVELOPING")])
        .passes("SC-INC-033");

    fx.state("WorkflowState", "DEVELOPING")
        .state("From", "TESTING")
        .frames(&[])
        .passes("SC-INC-034");
}

/// SC-INC-035: the plan COMPLETE (Current NONE, DEV-002 DONE) and Kind FORWARD →
/// a full verification assignment with a non-FULL purpose (VF-019); the stop hook passes.
/// SC-INC-036: … with Purpose FULL, Target NONE → passes.
#[test]
fn sc_inc_035_036_full_verification_after_complete_plan() {
    let mut fx = f_inc(|f| {
        f.set(F::Plan, "Status", "COMPLETE")
            .set(F::Plan, "Current Increment", "NONE")
            .step("DEV-002", "Status", "DONE")
            .state("Kind", "FORWARD")
    });
    fx.reports(
        "SC-INC-035",
        "VF-019",
        &report_path(),
        &["full verification", "`INCREMENT`"],
    )
    .hook_passes("SC-INC-035");
    fx.set(F::Report, "Assessment Purpose", "FULL")
        .set(F::Report, "Assessment Target", "NONE")
        .passes("SC-INC-036");
}

/// SC-INC-037: the Tester's suspended INCREMENT assignment for frame 1, Kind RESUME → passes.
/// SC-INC-038: … with Purpose CORRECTION, Target `Repair assertion` → the increment is not restored (VF-012).
/// SC-INC-039: … with Purpose INCREMENT, Target `Increment 1`, and a same-state test
/// correction (FAILURE from TESTING, FailureType VERIFICATION) → passes.
#[test]
fn sc_inc_037_038_039_restored_increment_assignment() {
    let mut fx = f_inc(|f| {
        f.append(
            F::Report,
            &format!(
                "## Resume or Handoff\n\n{}",
                SA(1, 1, "INCREMENT", "Increment 1")
            ),
        )
        .state("Kind", "RESUME")
    });
    fx.passes("SC-INC-037");

    fx.set(F::Report, "Assessment Purpose", "CORRECTION")
        .set(F::Report, "Assessment Target", "Repair assertion")
        .reports(
            "SC-INC-038",
            "VF-012",
            &report_path(),
            &["Increment 1", "INCREMENT"],
        );

    fx.set(F::Report, "Assessment Purpose", "INCREMENT")
        .set(F::Report, "Assessment Target", "Increment 1")
        .state("Kind", "FAILURE")
        .state("From", "TESTING")
        .state("FailureType", "VERIFICATION")
        .passes("SC-INC-039");
}

/// SC-INC-040: assignment history in both records, two frames, Kind RESUME
/// (TESTING from DEVELOPING) → passes, and the stop hook passes.
fn assignment_history() -> Fx {
    f_inc(|f| {
        f.step("DEV-001", "Status", "IN_PROGRESS")
            .append(
                F::Plan,
                &format!(
                    "## Plan Notes\n\n{}",
                    SA(1, 2, "CORRECTION", "Repair endpoint")
                ),
            )
            .set(F::Report, "Assessment Purpose", "CORRECTION")
            .set(F::Report, "Assessment Target", "Repair assertion")
            .append(
                F::Report,
                &format!(
                    "## Resume or Handoff\n\n{}\n{}\n{}",
                    SA(1, 1, "CORRECTION", "Earlier resolved correction"),
                    SA(2, 1, "INCREMENT", "Increment 1"),
                    SA(3, 3, "CORRECTION", "Repair assertion"),
                ),
            )
            .frames(&[
                Frame("TESTING", "DEVELOPING", "IMPLEMENTATION", "TESTING"),
                Frame("DEVELOPING", "TESTING", "VERIFICATION", "DEVELOPING"),
            ])
            .state("Kind", "RESUME")
    })
}

/// SC-INC-040: passes, and the stop hook passes.
/// SC-INC-041: … DEVELOPING from TESTING with only frame 1 kept → passes.
/// SC-INC-042: … DEV-001 DONE, TESTING from DEVELOPING, recovery inactive → the
/// suspended INCREMENT assignment is not restored (VF-012): only the latest
/// frame-1 assignment applies; the older frame-1 and the frame-3 ones are history.
/// SC-INC-043: … with Purpose INCREMENT, Target `Increment 1` → passes.
#[test]
fn sc_inc_040_to_043_only_the_latest_frame_assignment_applies() {
    let mut fx = assignment_history();
    fx.passes("SC-INC-040").hook_passes("SC-INC-040");

    fx.state("WorkflowState", "DEVELOPING")
        .state("From", "TESTING")
        .frames(&[Frame("TESTING", "DEVELOPING", "IMPLEMENTATION", "TESTING")])
        .passes("SC-INC-041");

    fx.step("DEV-001", "Status", "DONE")
        .state("WorkflowState", "TESTING")
        .state("From", "DEVELOPING")
        .frames(&[])
        .reports(
            "SC-INC-042",
            "VF-012",
            &report_path(),
            &["Increment 1", "CORRECTION"],
        );

    fx.set(F::Report, "Assessment Purpose", "INCREMENT")
        .set(F::Report, "Assessment Target", "Increment 1")
        .passes("SC-INC-043");
}

/// SC-INC-044: the Developer resumes after a scoped correction (DEVELOPING,
/// RESUME from TESTING, report CORRECTION) → the stop hook passes; without the
/// AC-004 AWAITING row it blocks with the partial-assessment gap for AC-004,
/// reported once: at turn end the gap is HK-007 (AC-011 keyed on the Tester's
/// handoff), not HK-007 and AC-011 side by side.
///
/// The scenario names only the cadence; `Current Increment` becomes NONE with
/// it, as in SC-INC-027 (AFTER_IMPLEMENTATION with a current increment is DV-010).
#[test]
fn sc_inc_044_partial_assessment_is_held_on_the_tester_who_left() {
    let mut fx = f_inc(|f| {
        f.set(F::Plan, "Verification Cadence", "AFTER_IMPLEMENTATION")
            .set(F::Plan, "Current Increment", "NONE")
            .append(
                F::Plan,
                &format!("## Plan Notes\n\n{}", SA(1, 1, "DEVELOPMENT", "NONE")),
            )
            .set(F::Report, "Assessment Purpose", "CORRECTION")
            .state("WorkflowState", "DEVELOPING")
            .state("Kind", "RESUME")
            .state("From", "TESTING")
    });
    fx.hook_passes("SC-INC-044");
    fx.edit(
        F::Report,
        "| AC-004 | DEV-002 | AWAITING_IMPLEMENTATION |\n",
        "",
    )
    .hook_reports("SC-INC-044", "HK-007", &report_path(), &["AC-004"])
    .hook_reports_exactly("SC-INC-044", &[("HK-007", &report_path())]);
}

/// The setup of SC-INC-045: Reviewer entry during recovery
/// (REVIEWING_IMPLEMENTATION from TESTING) with the work still partial.
fn reviewer_entry(kind: &str) -> Fx {
    f_inc(|f| {
        f.append(
            F::Report,
            &format!(
                "## Resume or Handoff\n\n{}",
                SA(1, 1, "INCREMENT", "Increment 1")
            ),
        )
        .state("Kind", kind)
        .state("WorkflowState", "REVIEWING_IMPLEMENTATION")
        .state("From", "TESTING")
        .state("PendingVerificationCadence", "AFTER_IMPLEMENTATION")
        .with_frame(
            Frame("TESTING", "SCOPING", "SCOPING", "TESTING")
                .rerun_through("REVIEWING_IMPLEMENTATION"),
        )
    })
}

/// SC-INC-045: for Kind FORWARD and RESUME, four problems: the plan must be
/// COMPLETE (DV-002), Reviewer entry with a non-FULL purpose (VF-016), the
/// report's phase gate (CP-002) and a request to clear the pending cadence
/// intent (CP-011).
/// SC-INC-046: … the plan COMPLETE (Current NONE, DEV-002 DONE), the report
/// COMPLETE, FULL, NONE → a COMPLETE report still carries AWAITING_IMPLEMENTATION (VF-017).
/// SC-INC-047: … AWAITING_IMPLEMENTATION replaced by `passed`, PendingVerificationCadence NONE → passes.
/// SC-INC-048: … the design's AC-004 line removed → design coverage gap (AC-009),
/// even during recovery; with Scope NONE → Active Work.Scope is NONE (CP-007).
#[test]
fn sc_inc_045_to_048_reviewer_entry_during_recovery() {
    for kind in ["FORWARD", "RESUME"] {
        let what = format!("SC-INC-045 ({kind})");
        let mut fx = reviewer_entry(kind);
        fx.reports(&what, "DV-002", &plan_path(), &["COMPLETE", "IN_PROGRESS"])
            .reports(&what, "VF-016", &report_path(), &["`INCREMENT`"])
            .reports(&what, "CP-002", &report_path(), &["IN_PROGRESS"])
            .reports(&what, "CP-011", STATE, &["PendingVerificationCadence"])
            .reports_exactly(
                &what,
                &[
                    ("DV-002", &plan_path()),
                    ("VF-016", &report_path()),
                    ("CP-002", &report_path()),
                    ("CP-011", STATE),
                ],
            );

        let what = format!("SC-INC-046 ({kind})");
        fx.set(F::Plan, "Status", "COMPLETE")
            .set(F::Plan, "Current Increment", "NONE")
            .step("DEV-002", "Status", "DONE")
            .set(F::Report, "Status", "COMPLETE")
            .set(F::Report, "Assessment Purpose", "FULL")
            .set(F::Report, "Assessment Target", "NONE")
            .reports(
                &what,
                "VF-017",
                &report_path(),
                &["AWAITING_IMPLEMENTATION"],
            );

        let what = format!("SC-INC-047 ({kind})");
        fx.edit(
            F::Report,
            "| AC-004 | DEV-002 | AWAITING_IMPLEMENTATION |",
            "| AC-004 | DEV-002 | passed |",
        )
        .state("PendingVerificationCadence", "NONE")
        .passes(&what);

        let what = format!("SC-INC-048 ({kind})");
        let mut uncovered = fx.clone();
        uncovered
            .edit(F::Design, "- `AC-004`: Search-results component.\n", "")
            .reports(&what, "AC-009", &design_path(), &["AC-004"]);
        uncovered
            .state("Scope", "NONE")
            .reports(&what, "CP-007", STATE, &["Scope"])
            .reports_exactly(&what, &[("CP-007", STATE)]);
    }
}

/// SC-INC-049: at REVIEWING_IMPLEMENTATION (FORWARD from TESTING) a COMPLETE
/// FULL report without an AC-004 acceptance row, but with a SUPERSEDED
/// increment row naming AC-004 → coverage gap on the report (AC-010), in the
/// check and in the stop hook: historical increment rows do not count.
/// SC-INC-050: … plus an acceptance row `| AC-004 | … | passed |` → passes.
///
/// "The plan COMPLETE (all DONE)" includes `Current Increment` NONE (DV-018).
#[test]
fn sc_inc_049_050_increment_rows_are_not_acceptance_evidence() {
    let mut fx = f_inc(|f| {
        f.set(F::Plan, "Status", "COMPLETE")
            .set(F::Plan, "Current Increment", "NONE")
            .step("DEV-002", "Status", "DONE")
            .set(F::Report, "Status", "COMPLETE")
            .set(F::Report, "Assessment Purpose", "FULL")
            .set(F::Report, "Assessment Target", "NONE")
            .edit(F::Report, "| AC-004 | DEV-002 | AWAITING_IMPLEMENTATION |\n", "")
            .edit(
                F::Report,
                "passed | VERIFIED |\n",
                "passed | VERIFIED |\n| 2 | Search box / AC-004 | src/search-box.js; test/search-box.test.js passed | SUPERSEDED |\n",
            )
            .state("WorkflowState", "REVIEWING_IMPLEMENTATION")
            .state("Kind", "FORWARD")
            .state("From", "TESTING")
    });
    fx.reports("SC-INC-049", "AC-010", &report_path(), &["AC-004"])
        .reports_exactly("SC-INC-049", &[("AC-010", &report_path())])
        .hook_reports("SC-INC-049", "AC-010", &report_path(), &["AC-004"])
        .hook_reports_exactly("SC-INC-049", &[("AC-010", &report_path())]);
    fx.edit(
        F::Report,
        "| AC-002 | pending Documenter | pending |\n",
        "| AC-002 | pending Documenter | pending |\n| AC-004 | test/search-box.test.js | passed |\n",
    )
    .passes("SC-INC-050");
}

/// SC-INC-051: plan Mode set; DEV-003 (PENDING, depends on DEV-002, AC-004);
/// Increment 2 lists `DEV-001, DEV-002` and `AC-001, AC-004` → passes.
fn three_steps(mode: &str) -> Fx {
    f_inc(|f| {
        f.set(F::Plan, "Mode", mode)
            .edit(
                F::Plan,
                "\n## Verification Increments",
                "\n### DEV-003 — Result paging\n\n`Status`: `PENDING` `Depends On`: `DEV-002`\n`Acceptance`: `AC-004`\n\n## Verification Increments",
            )
            .increment(2, "Development Steps", "DEV-001, DEV-002")
            .increment(2, "Acceptance", "AC-001, AC-004")
    })
}

/// SC-INC-051..SC-INC-057, for every plan Mode: a cycle run increment by increment.
/// SC-INC-051: three steps, two increments → passes.
/// SC-INC-052: Tester's checkpoint back (`Increment 1 verified.`), Current Increment 2 → passes.
/// SC-INC-053: Developer's checkpoint `Increment 2 ready.`, report REVERIFY targeting
/// Increment 2 → Increment 2 requires DEV-002 to be DONE (DV-021).
/// SC-INC-054: DEV-002 DONE with a Self-Check → passes.
/// SC-INC-055: AC-004 passed, increment row 2 VERIFIED, `Increment 2 verified.` back → passes.
/// SC-INC-056: DEV-003 DONE with a Self-Check, plan COMPLETE, FORWARD to TESTING,
/// report FULL, NONE → passes.
/// SC-INC-057: REVIEWING_IMPLEMENTATION from TESTING → report phase gate (CP-002); with the report COMPLETE → passes,
/// the plan keeps its Mode, and the stop hook passes.
#[test]
fn sc_inc_051_to_057_incremental_cycle_to_review() {
    for mode in MODES {
        let mut fx = three_steps(mode);
        fx.passes(&format!("SC-INC-051 ({mode})"));

        fx.state("WorkflowState", "DEVELOPING")
            .state("From", "TESTING")
            .state("Reason", "Increment 1 verified.")
            .set(F::Plan, "Current Increment", "2")
            .passes(&format!("SC-INC-052 ({mode})"));

        fx.state("WorkflowState", "TESTING")
            .state("From", "DEVELOPING")
            .state("Reason", "Increment 2 ready.")
            .set(F::Report, "Mode", "REVERIFY")
            .set(F::Report, "Assessment Target", "Increment 2")
            .reports(
                &format!("SC-INC-053 ({mode})"),
                "DV-021",
                &plan_path(),
                &["Increment 2", "DEV-002", "DONE"],
            );

        fx.step("DEV-002", "Status", "DONE")
            .self_check("DEV-002")
            .passes(&format!("SC-INC-054 ({mode})"));

        fx.edit(
            F::Report,
            "| AC-004 | DEV-002 | AWAITING_IMPLEMENTATION |",
            "| AC-004 | DEV-002 | passed |",
        )
        .edit(
            F::Report,
            "passed | VERIFIED |\n",
            "passed | VERIFIED |\n| 2 | Search box / AC-001, AC-004 | src/search-box.js; test/search-box.test.js passed | VERIFIED |\n",
        )
        .state("WorkflowState", "DEVELOPING")
        .state("From", "TESTING")
        .state("Reason", "Increment 2 verified.")
        .passes(&format!("SC-INC-055 ({mode})"));
        assert!(
            fx.report.contains("| 1 | Endpoint / AC-001 |"),
            "the increment-1 row stays"
        );

        fx.step("DEV-003", "Status", "DONE")
            .self_check("DEV-003")
            .set(F::Plan, "Status", "COMPLETE")
            .set(F::Plan, "Current Increment", "NONE")
            .state("WorkflowState", "TESTING")
            .state("Kind", "FORWARD")
            .state("From", "DEVELOPING")
            .set(F::Report, "Assessment Purpose", "FULL")
            .set(F::Report, "Assessment Target", "NONE")
            .passes(&format!("SC-INC-056 ({mode})"));

        let what = format!("SC-INC-057 ({mode})");
        fx.state("WorkflowState", "REVIEWING_IMPLEMENTATION")
            .state("From", "TESTING")
            .reports(&what, "CP-002", &report_path(), &["IN_PROGRESS"])
            .reports_exactly(&what, &[("CP-002", &report_path())]);
        fx.set(F::Report, "Status", "COMPLETE")
            .passes(&what)
            .hook_passes(&what);
        assert!(
            fx.plan.contains(&format!("`Mode`: `{mode}`")),
            "{what}: the plan keeps its Mode"
        );
    }
}

/// SC-INC-058: at DEVELOPING after the Tester's checkpoint, a pending cadence
/// request matching the plan's cadence passes for both cadences, a reinstall
/// leaves STATE.md, the plan and the report byte-identical, and clearing the
/// request still passes.
#[test]
fn sc_inc_058_pending_cadence_matches_the_plan_and_survives_reinstall() {
    for (cadence, current) in [("AFTER_IMPLEMENTATION", "NONE"), ("INCREMENTAL", "2")] {
        let what = format!("SC-INC-058 ({cadence})");
        let mut fx = tester_checkpoint();
        fx.state("PendingVerificationCadence", cadence)
            .set(F::Plan, "Verification Cadence", cadence)
            .set(F::Plan, "Current Increment", current)
            .passes(&what);

        let (env, repo) = Env::repo();
        write(repo.join("app.py"), "print(\"hi\")\n");
        env.run(&repo, &["install"]).success();
        fx.lay(&repo);
        env.commit_all(&repo, "F-INC");
        let files = [STATE.to_string(), plan_path(), report_path()];
        let before: Vec<Vec<u8>> = files
            .iter()
            .map(|p| std::fs::read(repo.join(p)).unwrap())
            .collect();
        env.run(&repo, &["install"]).success();
        for (path, bytes) in files.iter().zip(&before) {
            assert_eq!(
                &std::fs::read(repo.join(path)).unwrap(),
                bytes,
                "{what}: reinstall rewrote {path}"
            );
        }
        env.run(&repo, &["check"]).success();

        fx.state("PendingVerificationCadence", "NONE")
            .passes(&format!("{what}, request cleared"));
    }
}

/// SC-INC-059: the latest Tester assignment for frame 1 is FULL, so an older
/// INCREMENT one cannot bypass completion: the plan must be COMPLETE (DV-002).
/// SC-INC-060: … with the plan COMPLETE and DEV-002 DONE → passes.
#[test]
fn sc_inc_059_060_latest_full_assignment_needs_a_complete_plan() {
    let mut fx = f_inc(|f| {
        f.set(F::Plan, "Verification Cadence", "AFTER_IMPLEMENTATION")
            .set(F::Plan, "Current Increment", "NONE")
            .set(F::Report, "Assessment Purpose", "FULL")
            .set(F::Report, "Assessment Target", "NONE")
            .append(
                F::Report,
                &format!(
                    "## Resume or Handoff\n\n{}\n{}",
                    SA(1, 1, "INCREMENT", "Increment 1"),
                    SA(2, 1, "FULL", "NONE")
                ),
            )
            .state("Kind", "RESUME")
            .with_frame(
                Frame("TESTING", "ARCHITECTING", "ARCHITECTURE", "TESTING")
                    .rerun_through("TESTING"),
            )
    });
    fx.reports("SC-INC-059", "DV-002", &plan_path(), &["COMPLETE"]);
    fx.set(F::Plan, "Status", "COMPLETE")
        .step("DEV-002", "Status", "DONE")
        .passes("SC-INC-060");
}

/// SC-INC-061: cadence intent outside an active STANDARD cycle is rejected —
/// without a cycle and in finished cycles (ST-008, as SC-STATE-035/036), in an
/// EXPEDITED cycle (ST-033 with DV-024 for the plan, as SC-EXP-006) — and a
/// DOCUMENTATION cycle keeps PendingVerificationCadence NONE (ST-022, as SC-DOC-006).
#[test]
fn sc_inc_061_cadence_intent_needs_an_active_standard_cycle() {
    let set = |text: &str, pairs: &[(&str, &str)]| {
        let mut text = text.to_string();
        for (name, value) in pairs {
            let r = value_range(&text, name, 0);
            text.replace_range(r, value);
        }
        text
    };
    let rules = |t: &MemTree| -> Vec<(&'static str, String)> {
        check::run(t, None, Options::default())
            .problems
            .into_iter()
            .map(|p| (p.rule, p.file))
            .collect()
    };
    let fresh = installed_tree(ProjectMode::Brownfield);
    let template = fresh_template(ProjectMode::Brownfield);

    // No cycle (SC-STATE-035).
    let t = fresh.clone().with(
        STATE,
        set(&template, &[("PendingVerificationCadence", "INCREMENTAL")]),
    );
    assert_eq!(
        rules(&t),
        [("ST-008", STATE.to_string())],
        "SC-INC-061: no cycle"
    );

    // A finished cycle (SC-STATE-036).
    for terminal in ["CANCELLED", "SIGNED_OFF"] {
        let state = set(
            &template,
            &[
                ("WorkflowState", terminal),
                ("Id", ID),
                ("PendingVerificationCadence", "INCREMENTAL"),
            ],
        );
        let r = rules(&fresh.clone().with(STATE, state));
        assert_eq!(r, [("ST-008", STATE.to_string())], "SC-INC-061 {terminal}");
    }

    // An EXPEDITED cycle with an INCREMENTAL plan and request (SC-EXP-006):
    // the plan as `artifact init DEVELOPMENT` writes it, filled in.
    let state = set(
        &template,
        &[
            ("WorkflowState", "DEVELOPING"),
            ("CycleMode", "EXPEDITED"),
            ("Id", ID),
            ("Request", "Add user search"),
            ("Development", &plan_path()),
            ("PendingVerificationCadence", "INCREMENTAL"),
        ],
    );
    let plan = format!(
        "<!-- STANDARDS\nArtifact: DEVELOPMENT\nCycle: {ID}\n-->\n\n# Development Plan\n\n`Cycle`: `{ID}` `Mode`: `AUTONOMOUS`\n`User Style`: `NONE` `User Style Locked`: `true`\n`Status`: `APPROVED` `Verification Cadence`:\n`INCREMENTAL` `Current Increment`: `NONE`\n"
    );
    let r = rules(&fresh.clone().with(STATE, state).with(&plan_path(), plan));
    assert!(
        r.contains(&("ST-033", STATE.to_string())),
        "SC-INC-061 expedited: {r:?}"
    );
    assert!(
        r.contains(&("DV-024", plan_path())),
        "SC-INC-061 expedited: {r:?}"
    );
    assert_eq!(r.len(), 2, "SC-INC-061 expedited: {r:?}");

    // A DOCUMENTATION cycle at AUDITING (SC-DOC-006).
    let state = set(
        &template,
        &[
            ("CycleMode", "DOCUMENTATION"),
            ("Id", ID),
            ("Request", "Document the existing greeting command."),
            ("PendingVerificationCadence", "INCREMENTAL"),
        ],
    );
    let r = rules(&fresh.clone().with(STATE, state));
    assert_eq!(
        r,
        [("ST-022", STATE.to_string())],
        "SC-INC-061 documentation"
    );
}
