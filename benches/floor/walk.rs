//! The cycles of a generated history, walked with the release binary's own
//! commands in a small scratch repository: every record, STATE.md move,
//! audit event, archive and reset commit is exactly what the tool writes.
//! Only the record prose (what a role's agent would write) comes from here.

use std::fmt::Write as _;
use std::path::Path;

use super::{sealed, tool_ok};

/// What a walk commit did, for the measured range's composition.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Did {
    /// `start`: a new cycle.
    Start,
    /// A role's work: records created or edited, project files written.
    Work,
    /// `signoff`: the user's sign-off (the reset follows at once).
    Signoff,
    /// `reset --yes --commit`: the Project Reset that archives the records.
    Reset,
}

pub struct Walk<'a> {
    root: &'a Path,
    /// One entry per commit made, in order.
    pub commits: Vec<Did>,
}

fn git(root: &Path, args: &[&str]) {
    let out = sealed("git", root).args(args).output().expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

impl<'a> Walk<'a> {
    /// Initialises `root` with one project file and the runtime (brownfield),
    /// committed: the history's root commit.
    pub fn install(root: &'a Path) -> Walk<'a> {
        git(root, &["init", "-q", "-b", "main"]);
        std::fs::create_dir_all(root.join("app")).unwrap();
        std::fs::write(root.join("app/main.py"), "print('service')\n").unwrap();
        tool_ok(
            root,
            &["install", "--mode", "brownfield", "--client", "none"],
        );
        git(root, &["add", "-A"]);
        git(root, &["commit", "-q", "-m", "Install STANDARDS"]);
        Walk {
            root,
            commits: Vec::new(),
        }
    }

    fn gs(&self, args: &[&str]) -> String {
        tool_ok(self.root, args)
    }

    fn append(&self, rel: &str, text: &str) {
        let path = self.root.join(rel);
        let mut old = std::fs::read_to_string(&path).unwrap_or_default();
        old.push_str(text);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::write(path, old).unwrap();
    }

    /// Commits everything; `check` must pass first, as for a role's handoff.
    fn commit(&mut self, did: Did, message: &str) {
        self.gs(&["check", "-q"]);
        git(self.root, &["add", "-A"]);
        git(self.root, &["commit", "-q", "-m", message]);
        self.commits.push(did);
    }

    /// `artifact init` with arguments; the record's path (first stdout line).
    fn init(&self, args: &[&str]) -> String {
        let mut all = vec!["artifact", "init"];
        all.extend_from_slice(args);
        self.gs(&all).lines().next().unwrap().trim().to_string()
    }

    fn handoff(&self, to: &str, reason: &str) {
        self.gs(&["handoff", "--to", to, "--reason", reason]);
    }

    fn conditions(n: usize) -> usize {
        1 + n % 4
    }

    /// The developer's part: a plan of one step per condition (`acceptance`
    /// names each step's `Acceptance`), approved by the user, implemented.
    /// With `finish` false the cycle stops after the first step is done.
    /// `first` is what the plan's commit did (`Start` when `start` ran in it).
    fn develop(
        &mut self,
        n: usize,
        first: Did,
        acceptance: &dyn Fn(usize) -> String,
        finish: bool,
    ) -> String {
        let plan = self.init(&["DEVELOPMENT", "--set", "Mode=AUTONOMOUS"]);
        for s in 1..=Self::conditions(n) {
            let title = format!("Implement part {s} of feature {n}");
            let acc = format!("Acceptance={}", acceptance(s));
            self.gs(&[
                "record", "add", &plan, "DEV", "--title", &title, "--set", &acc,
            ]);
        }
        self.gs(&[
            "record",
            "set",
            &plan,
            "Status=PROPOSED",
            "User Style=NONE",
            "User Style Locked=false",
        ]);
        self.gs(&["block", "--on", "Approve the plan?"]);
        self.commit(
            first,
            &format!("feature {n}: the development plan, for approval"),
        );
        self.gs(&[
            "record",
            "set",
            &plan,
            "Status=APPROVED",
            "User Style Locked=true",
        ]);
        self.gs(&["unblock"]);
        let mut code = format!("# feature {n}\n");
        for l in 0..(20 + n % 30) {
            let _ = writeln!(code, "def step_{l}(x):\n    return x * {l} + {n}\n");
        }
        self.append(&format!("app/feature_{n}.py"), &code);
        self.append("app/main.py", &format!("import feature_{n}\n"));
        let steps = if finish { Self::conditions(n) } else { 1 };
        for s in 1..=steps {
            self.gs(&[
                "record",
                "set",
                &plan,
                &format!("DEV-{s:03}"),
                "Status=DONE",
            ]);
        }
        if finish {
            self.gs(&["record", "set", &plan, "Status=COMPLETE"]);
        }
        plan
    }

    fn review(&self, n: usize, kind: &str, criteria: &[String]) {
        let report = self.init(&["REVIEW", "--kind", kind]);
        let mut body = String::from(
            "\n## Assessed Inputs and Scope\n\n- The plan, the report and the code under `app/`.\n\n\
             ## Contract and Evidence Assessment\n\n\
             | Obligation / criterion | Assessed evidence | Current disposition |\n| --- | --- | --- |\n",
        );
        for c in criteria {
            let _ = writeln!(
                body,
                "| {c} | `pytest tests/test_feature_{n}.py` | satisfied |"
            );
        }
        body.push_str(
            "\n## Checks and Results\n\nRan the test suite.\n\n## Findings\n\nNo material findings.\n\n\
             ## Questions, Limitations, and Later Dependencies\n\nNONE\n\n\
             ## Progress and Conclusion\n\nThe review passed.\n",
        );
        self.append(&report, &body);
        self.gs(&[
            "record",
            "set",
            &report,
            "Status=COMPLETE",
            "User Style=NONE",
        ]);
    }

    fn signoff_and_reset(&mut self, n: usize) {
        self.gs(&["signoff"]);
        self.commit(Did::Signoff, &format!("feature {n}: the user signed off"));
        // The reset commits itself (`--commit`), with its trailers.
        self.gs(&["reset", "--yes", "--commit"]);
        self.commits.push(Did::Reset);
    }

    /// An EXPEDITED cycle from `start` to the reset: a plan, the
    /// implementation, an implementation review, sign-off (5 commits).
    pub fn expedited(&mut self, n: usize) {
        let request = format!("Feature {n}: export the records of one owner");
        self.gs(&["start", "--request", &request, "--mode", "expedited"]);
        // The started STATE.md goes in with the developer's plan.
        self.develop(n, Did::Start, &|_| "EXPEDITED_REQUEST".to_string(), true);
        self.handoff("REVIEWING_IMPLEMENTATION", "Every step is done.");
        self.commit(Did::Work, &format!("feature {n}: implemented"));
        self.review(n, "IMPLEMENTATION", &["The request".to_string()]);
        self.handoff("AWAITING_USER_SIGNOFF", "The implementation review passed.");
        self.commit(Did::Work, &format!("feature {n}: implementation review"));
        self.signoff_and_reset(n);
    }

    /// A STANDARD cycle from `start` through every role to the reset (12
    /// commits); with `open` it stops mid-development (4 commits), as a
    /// project's history does at its tip.
    pub fn standard(&mut self, n: usize, open: bool) {
        let k = Self::conditions(n);
        let acs: Vec<String> = (1..=k).map(|a| format!("AC-{a:03}")).collect();
        let request = format!("Feature {n}: find and filter the records a user owns");
        self.gs(&["start", "--request", &request]);
        // The Auditor: the project context.
        let mut context = format!(
            "# Project Context\n\n## Project Baseline\n\n- The service has {} features under `app/`.\n",
            n
        );
        for f in 0..(n % 5) {
            let _ = writeln!(context, "- Feature {f} exports rows as a stream.");
        }
        std::fs::write(self.root.join(".standards/CONTEXT.md"), context).unwrap();
        self.handoff("SCOPING", "The project context is current.");
        self.commit(Did::Start, &format!("feature {n}: start, project context"));
        // The Scoper.
        let scope = self.init(&["SCOPE"]);
        self.append(
            &scope,
            &format!(
                "\n# Feature {n}\n\n## Goal\n\nUsers find and filter their records.\n\n## Work\n\n\
                 ### 1. Search\n\n**Done when:**\n\n"
            ),
        );
        for a in 1..=k {
            let title = format!("Condition {a} of feature {n} holds through the public API");
            self.gs(&["record", "add", &scope, "AC", "--title", &title]);
        }
        self.handoff("ARCHITECTING", "The scope is complete.");
        self.commit(Did::Work, &format!("feature {n}: scope"));
        // The Architect.
        let design = self.init(&["ARCHITECTURE"]);
        let mut body = String::from("\n# Technical Design\n\n## Acceptance Coverage\n\n");
        for ac in &acs {
            let _ = writeln!(
                body,
                "- `{ac}`: the handler in `app/feature_{n}.py` covers it."
            );
        }
        self.append(&design, &body);
        self.handoff("DEVELOPING", "The design is complete.");
        self.commit(Did::Work, &format!("feature {n}: technical design"));
        // The Developer.
        let acs_for_steps = acs.clone();
        self.develop(n, Did::Work, &move |s| acs_for_steps[s - 1].clone(), !open);
        if open {
            self.commit(Did::Work, &format!("feature {n}: first step implemented"));
            return;
        }
        self.handoff("TESTING", "Every step is implemented.");
        self.commit(Did::Work, &format!("feature {n}: implemented"));
        // The Tester.
        let report = self.init(&["VERIFICATION"]);
        let mut body = String::from(
            "\n## Assessed Inputs\n\n- `app/` at this commit.\n\n## Acceptance Evidence\n\n\
             | AC / technical criterion | Tests or checks | Disposition and evidence |\n| --- | --- | --- |\n",
        );
        for ac in &acs {
            let _ = writeln!(
                body,
                "| {ac} | `pytest tests/test_feature_{n}.py` | verified: passes |"
            );
        }
        let _ = write!(
            body,
            "\n## Scenario Budget\n\n| Source file | Reused coverage | Active-change allocations | User additions |\n\
             | --- | --- | --- | --- |\n| app/feature_{n}.py | none | one run | none |\n\n\
             ## Execution Evidence\n\nThe suite exited 0.\n\n## Resume or Handoff\n\nVerification is complete.\n"
        );
        self.append(&report, &body);
        self.gs(&[
            "record",
            "set",
            &report,
            "Mode=VERIFY",
            "Status=COMPLETE",
            "User Style=NONE",
        ]);
        self.handoff("REVIEWING_IMPLEMENTATION", "Every condition is verified.");
        self.commit(Did::Work, &format!("feature {n}: verification"));
        // The Reviewer, the Documenter, the final review, the Synchronizer.
        self.review(n, "IMPLEMENTATION", &acs);
        self.handoff("DOCUMENTING", "The implementation review passed.");
        self.commit(Did::Work, &format!("feature {n}: implementation review"));
        let doc = self.init(&["DOCUMENTATION"]);
        let mut body = String::from(
            "\n## Assessed Inputs and Boundary\n\n- `app/`.\n\n## Documentation Work and Evidence\n\n",
        );
        for ac in &acs {
            let _ = writeln!(body, "- {ac}: `docs/feature-{n}.md` explains it.");
        }
        body.push_str(
            "\n## Checks and Applicability\n\nNONE\n\n\
             ## Discrepancies, Dependencies, and Remaining Work\n\nNONE\n\n\
             ## Resume and Conclusion\n\nDocumentation is complete.\n",
        );
        self.append(&doc, &body);
        self.append(
            &format!("docs/feature-{n}.md"),
            &format!("# Feature {n}\n\nHow to find and filter your records.\n"),
        );
        self.gs(&[
            "record",
            "set",
            &doc,
            "Status=COMPLETE",
            "Collaboration=AUTONOMOUS",
            "Target=ACTIVE_CHANGE",
            "Target Detail=the active cycle",
            "User Style=NONE",
        ]);
        self.handoff("REVIEWING_FINAL", "The documentation is complete.");
        self.commit(Did::Work, &format!("feature {n}: documentation"));
        self.review(n, "FINAL_DELIVERABLE", &acs);
        self.handoff("SYNCHRONIZING", "The final review passed.");
        self.commit(Did::Work, &format!("feature {n}: final review"));
        let sync = self.init(&["SYNCHRONIZATION"]);
        let mut body = String::from(
            "\n## Assessed Inputs\n\n- Every record of the cycle.\n\n## Completion and Evidence References\n\n",
        );
        for ac in &acs {
            let _ = writeln!(
                body,
                "- {ac}: verified in the report, documented, reviewed."
            );
        }
        body.push_str(
            "\n## Discrepancies and Dispositions\n\nNONE\n\n## Limitations and Remaining Work\n\nNONE\n\n\
             ## Resume and Synchronization Conclusion\n\nThe records agree.\n",
        );
        self.append(&sync, &body);
        self.gs(&["record", "set", &sync, "Status=COMPLETE", "User Style=NONE"]);
        self.handoff("AWAITING_USER_SIGNOFF", "The records agree.");
        self.commit(Did::Work, &format!("feature {n}: synchronization"));
        self.signoff_and_reset(n);
    }

    /// `cycles` cycles, one in three STANDARD, the rest EXPEDITED; the last
    /// is a STANDARD cycle left open mid-development.
    pub fn cycles(&mut self, cycles: usize) {
        for n in 0..cycles {
            if n + 1 == cycles {
                self.standard(n, true);
            } else if n % 3 == 0 {
                self.standard(n, false);
            } else {
                self.expedited(n);
            }
        }
    }
}
