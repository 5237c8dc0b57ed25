//! The release manager's board (issue 28): one row per branch (and per
//! linked worktree), with each project's cycle, state and owner, the check
//! verdict at the tip, and whether the branch may merge into the main branch;
//! then the collisions between branches. Pure: `repo/` reads the branches and
//! `commands::board` hands the facts here; this builds the rows, decides the
//! readiness, and builds the JSON document that the terminal table
//! ([`table`]) and the HTML view ([`html`]) both show.

pub mod html;
pub mod table;

use serde::Serialize;

use crate::check::after_signoff;
use crate::model::vocab::{CompletionPolicy, CycleMode, WorkflowState};
use crate::setup::merge_guard::Verdict;
use crate::workflow::summary::Summary;

/// The most files a collision lists; `truncated` says when there were more.
pub const MAX_COLLISION_FILES: usize = 100;

/// The default of `--max-pairs`.
pub const DEFAULT_MAX_PAIRS: usize = 50;

/// What a row shows: a branch (its commit) or a linked worktree (its
/// uncommitted files).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RowKind {
    Branch,
    Worktree,
}

/// The refs a row stands for: the local branch and the remote-tracking
/// branches of the same name.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Refs {
    pub local: Option<String>,
    pub remotes: Vec<String>,
}

/// A local branch's upstream and how far apart they are.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Upstream {
    #[serde(rename = "ref")]
    pub reference: String,
    pub ahead: usize,
    pub behind: usize,
}

/// Where a cycle's ages come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum AgeSource {
    /// The audit trail's events of the cycle.
    Audit,
    /// Commit dates (no event of the cycle was found).
    Commits,
}

/// When a cycle started and last moved, as RFC 3339 times.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ages {
    pub started: Option<String>,
    pub last_move: Option<String>,
    pub source: AgeSource,
}

/// One project (a folder holding `.standards/`) of a row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ProjectRow {
    /// `.` for the repository's top.
    pub folder: String,
    pub cycle_id: Option<String>,
    pub request: Option<String>,
    pub mode: Option<String>,
    pub completion_policy: Option<String>,
    pub state: Option<String>,
    pub owner: Option<String>,
    pub next: Option<String>,
    pub blocked_question: Option<String>,
    pub recovery_frames: usize,
    pub cycle_started: Option<String>,
    pub last_move: Option<String>,
    pub age_source: Option<AgeSource>,
    pub after_signoff: Vec<String>,
}

impl ProjectRow {
    /// A project whose state could not be read: only its folder is known.
    pub fn unread(folder: &str) -> ProjectRow {
        ProjectRow {
            folder: shown_folder(folder),
            cycle_id: None,
            request: None,
            mode: None,
            completion_policy: None,
            state: None,
            owner: None,
            next: None,
            blocked_question: None,
            recovery_frames: 0,
            cycle_started: None,
            last_move: None,
            age_source: None,
            after_signoff: Vec::new(),
        }
    }

    /// The row of the project at `folder` (repository-relative, `""` at
    /// the top) whose STATE.md and MODE.md `summary` shows.
    pub fn from_summary(folder: &str, summary: &Summary) -> ProjectRow {
        let (cycle_id, request) = match (&summary.active_work, &summary.last_cycle) {
            (Some(w), _) => (Some(w.id.clone()), w.request.clone()),
            (None, Some(l)) => (Some(l.id.clone()), l.request.clone()),
            (None, None) => (None, None),
        };
        let blocked_question = summary
            .active_work
            .as_ref()
            .and_then(|w| w.blocked_on.clone())
            .or_else(|| summary.pending_cycle.blocked_on.clone());
        let next = match &summary.next.invocation {
            Some(inv) => Some(format!("/{}", inv.skill)),
            None => summary.next.user_options.first().map(|o| o.command.clone()),
        };
        ProjectRow {
            folder: shown_folder(folder),
            cycle_id,
            request,
            mode: (summary.cycle_mode != CycleMode::Unset)
                .then(|| summary.cycle_mode.as_str().to_string()),
            completion_policy: (summary.completion_policy != CompletionPolicy::None)
                .then(|| summary.completion_policy.as_str().to_string()),
            state: Some(summary.workflow_state.as_str().to_string()),
            owner: Some(summary.owner.as_str().to_string()),
            next,
            blocked_question,
            recovery_frames: summary.recovery.len(),
            cycle_started: None,
            last_move: None,
            age_source: None,
            after_signoff: Vec::new(),
        }
    }

    pub fn with_ages(mut self, ages: Ages) -> ProjectRow {
        self.cycle_started = ages.started;
        self.last_move = ages.last_move;
        self.age_source = Some(ages.source);
        self
    }

    pub fn with_after_signoff(mut self, paths: Vec<String>) -> ProjectRow {
        self.after_signoff = paths;
        self
    }
}

/// `.` for the repository's top, else the folder.
pub fn shown_folder(folder: &str) -> String {
    if folder.is_empty() {
        ".".to_string()
    } else {
        folder.to_string()
    }
}

/// The `check` verdict at a row's tip.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CheckVerdict {
    Pass,
    Fail,
    /// The check could not run (no runtime, an unreadable snapshot).
    Unknown,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct CheckSummary {
    pub verdict: CheckVerdict,
    pub problems: usize,
    /// The check's notes (informational; they do not fail it).
    pub warnings: usize,
}

impl CheckSummary {
    pub const UNKNOWN: CheckSummary = CheckSummary {
        verdict: CheckVerdict::Unknown,
        problems: 0,
        warnings: 0,
    };

    /// The verdict over several projects' reports: `(problems, notes)`
    /// each, `None` where the check could not run.
    pub fn combine(reports: &[Option<(usize, usize)>]) -> CheckSummary {
        if reports.is_empty() || reports.iter().any(Option::is_none) {
            let (problems, warnings) = reports
                .iter()
                .flatten()
                .fold((0, 0), |(p, w), (a, b)| (p + a, w + b));
            return CheckSummary {
                verdict: CheckVerdict::Unknown,
                problems,
                warnings,
            };
        }
        let (problems, warnings) = reports
            .iter()
            .flatten()
            .fold((0, 0), |(p, w), (a, b)| (p + a, w + b));
        CheckSummary {
            verdict: if problems == 0 {
                CheckVerdict::Pass
            } else {
                CheckVerdict::Fail
            },
            problems,
            warnings,
        }
    }
}

/// Whether a branch may merge into the main branch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Readiness {
    /// The merge guard passes.
    Ready,
    /// Not a fresh installation, and no cycle is active or signed off.
    NeedsReset,
    /// The cycle is signed off; the reset is still to come.
    SignedOffNeedsReset,
    /// A cycle is still running.
    Active,
    /// Merging the main branch would conflict in `.standards/`.
    Conflicts,
    /// The row's `.standards/` could not be read.
    Unknown,
}

impl Readiness {
    pub fn as_str(self) -> &'static str {
        match self {
            Readiness::Ready => "ready",
            Readiness::NeedsReset => "needs-reset",
            Readiness::SignedOffNeedsReset => "signed-off-needs-reset",
            Readiness::Active => "active",
            Readiness::Conflicts => "conflicts",
            Readiness::Unknown => "unknown",
        }
    }
}

/// What the readiness of a row is decided from.
pub struct ReadinessFacts<'a> {
    /// The row's name and the main branch's.
    pub name: &'a str,
    pub main: &'a str,
    /// Why the row's `.standards/` could not be read, if so.
    pub unreadable: Option<&'a str>,
    /// The files below a `.standards/` folder that a merge with the main
    /// branch leaves in conflict.
    pub standards_conflicts: &'a [String],
    /// The merge guard's verdict for each project (folder, verdict).
    pub guard: &'a [(String, Verdict)],
}

/// The readiness of a row and the one sentence saying why, with the command
/// to run (the merge guard's own hint when it refuses).
pub fn readiness(facts: &ReadinessFacts) -> (Readiness, String) {
    let ReadinessFacts { name, main, .. } = *facts;
    if let Some(why) = facts.unreadable {
        return (Readiness::Unknown, why.to_string());
    }
    if !facts.standards_conflicts.is_empty() {
        let files: Vec<String> = facts
            .standards_conflicts
            .iter()
            .map(|f| format!("`{f}`"))
            .collect();
        return (
            Readiness::Conflicts,
            format!(
                "a merge of `{name}` and `{main}` conflicts in {}: merge `{main}` into `{name}` and keep one side with `git standards resolve --keep ours|theirs`",
                files.join(", ")
            ),
        );
    }
    let refused = facts.guard.iter().find_map(|(dir, v)| match v {
        Verdict::Refused(r) => Some((dir, r)),
        Verdict::Accepted { .. } => None,
    });
    let Some((dir, refusal)) = refused else {
        let why = facts
            .guard
            .iter()
            .map(|(_, v)| match v {
                Verdict::Accepted { why } => why.clone(),
                Verdict::Refused(_) => String::new(),
            })
            .next()
            .unwrap_or_else(|| format!("`{name}` holds no STANDARDS installation"));
        return (
            Readiness::Ready,
            format!("the merge guard passes ({why}): `{name}` may merge into `{main}`"),
        );
    };
    let place = if dir.is_empty() {
        String::new()
    } else {
        format!(" in `{dir}`")
    };
    match &refusal.cycle {
        // The guard's hint names the cycle, its state and the way out.
        Some(c) if c.active => (Readiness::Active, refusal.hint()),
        Some(c) if c.state == WorkflowState::SignedOff => (
            Readiness::SignedOffNeedsReset,
            format!("cycle `{}`{place} is signed off: {}", c.id, refusal.hint()),
        ),
        _ => (
            Readiness::NeedsReset,
            format!(
                "`.standards/`{place} is not a fresh installation ({}): {}",
                refusal
                    .reasons
                    .first()
                    .map(String::as_str)
                    .unwrap_or("it differs"),
                refusal.hint()
            ),
        ),
    }
}

/// One row of the board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Row {
    pub name: String,
    pub kind: RowKind,
    pub refs: Refs,
    pub worktree: Option<String>,
    pub commit: Option<String>,
    pub upstream: Option<Upstream>,
    pub problem: Option<String>,
    pub projects: Vec<ProjectRow>,
    pub check: CheckSummary,
    pub readiness: Readiness,
    pub readiness_detail: String,
}

impl Row {
    /// Adds a problem to the row's (one sentence each, joined).
    pub fn add_problem(&mut self, problem: impl Into<String>) {
        let problem = problem.into();
        self.problem = Some(match self.problem.take() {
            Some(p) => format!("{p}; {problem}"),
            None => problem,
        });
    }
}

/// Two rows whose merge was computed: the files both change since their
/// merge base, and whether the merge conflicts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Collision {
    pub a: String,
    pub b: String,
    pub files: Vec<String>,
    pub conflict: bool,
    pub conflicting_hunks: usize,
    pub in_standards: bool,
    pub truncated: bool,
}

/// Whether `path` (repository-relative) lies in a `.standards/` folder.
pub fn in_standards(path: &str) -> bool {
    path.starts_with(".standards/") || path.contains("/.standards/")
}

impl Collision {
    /// The collision of `a` and `b` from the paths each changed since their
    /// merge base and the paths the merge left in conflict (with their
    /// count of conflicting hunks); `None` when they change no file in
    /// common and do not conflict.
    pub fn build(
        a: &str,
        b: &str,
        changed_a: &[String],
        changed_b: &[String],
        conflicted: &[String],
        hunks: usize,
    ) -> Option<Collision> {
        let theirs: std::collections::BTreeSet<&str> =
            changed_b.iter().map(String::as_str).collect();
        let mut files: std::collections::BTreeSet<&str> = changed_a
            .iter()
            .map(String::as_str)
            .filter(|p| theirs.contains(p))
            .collect();
        files.extend(conflicted.iter().map(String::as_str));
        if files.is_empty() {
            return None;
        }
        let conflict = !conflicted.is_empty();
        let in_standards = if conflict {
            conflicted.iter().any(|p| in_standards(p))
        } else {
            files.iter().any(|p| in_standards(p))
        };
        // Conflicted files first, so a cut list still names them.
        let mut ordered: Vec<String> = conflicted.to_vec();
        ordered.sort();
        ordered.dedup();
        ordered.extend(
            files
                .iter()
                .filter(|p| !conflicted.iter().any(|c| c == *p))
                .map(|p| p.to_string()),
        );
        let truncated = ordered.len() > MAX_COLLISION_FILES;
        ordered.truncate(MAX_COLLISION_FILES);
        Some(Collision {
            a: a.to_string(),
            b: b.to_string(),
            files: ordered,
            conflict,
            conflicting_hunks: hunks,
            in_standards,
            truncated,
        })
    }
}

/// The whole board, serialised as the `board --json` document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Board {
    pub ok: bool,
    pub main_branch: String,
    pub generated_at: String,
    pub states: Vec<&'static str>,
    pub rows: Vec<Row>,
    pub collisions: Vec<Collision>,
    pub pairs_compared: usize,
    pub pairs_skipped: usize,
    pub max_pairs: usize,
}

impl Board {
    pub fn new(main_branch: &str, generated_at: String, max_pairs: usize) -> Board {
        Board {
            ok: true,
            main_branch: main_branch.to_string(),
            generated_at,
            states: WorkflowState::NAMES.to_vec(),
            rows: Vec::new(),
            collisions: Vec::new(),
            pairs_compared: 0,
            pairs_skipped: 0,
            max_pairs,
        }
    }

    /// The JSON document (the contract with the HTML view).
    pub fn document(&self) -> serde_json::Value {
        serde_json::to_value(self).expect("the board serialises")
    }
}

/// The pairs whose merge the board computes, at most `max` of them: each
/// branch row (but the main branch) against the main branch first, then
/// each pair of rows with an active cycle. Returns the pairs (indexes into
/// `rows`) and how many were left out.
pub fn pairs(rows: &[PairCandidate], main: &str, max: usize) -> (Vec<(usize, usize)>, usize) {
    let mut all = Vec::new();
    if let Some(m) = rows.iter().position(|r| r.name == main) {
        all.extend((0..rows.len()).filter(|&i| i != m).map(|i| (i, m)));
    }
    let active: Vec<usize> = rows
        .iter()
        .enumerate()
        .filter(|(_, r)| r.active && r.name != main)
        .map(|(i, _)| i)
        .collect();
    for (n, &i) in active.iter().enumerate() {
        for &j in &active[n + 1..] {
            all.push((i, j));
        }
    }
    let skipped = all.len().saturating_sub(max);
    all.truncate(max);
    (all, skipped)
}

/// What [`pairs`] needs to know of a row.
pub struct PairCandidate {
    pub name: String,
    /// Any of its projects has an active cycle.
    pub active: bool,
}

/// The paths changed after the cycle was signed off, by SO-001's reading
/// of what the sign-off covers (`after_signoff::uncovered_changes`).
pub fn after_signoff_paths(changed: &[String]) -> Vec<String> {
    after_signoff::uncovered_changes(changed, true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::setup::fresh::{CycleInfo, Freshness};
    use crate::setup::merge_guard::{judge, Side};

    fn verdict(freshness: Freshness) -> Vec<(String, Verdict)> {
        let target = Freshness::Fresh {
            mode: crate::model::vocab::ProjectMode::Brownfield,
        };
        vec![(
            String::new(),
            judge(
                Side {
                    name: "feature",
                    freshness: &freshness,
                },
                Side {
                    name: "main",
                    freshness: &target,
                },
                "",
            ),
        )]
    }

    fn facts<'a>(guard: &'a [(String, Verdict)], conflicts: &'a [String]) -> ReadinessFacts<'a> {
        ReadinessFacts {
            name: "feature",
            main: "main",
            unreadable: None,
            standards_conflicts: conflicts,
            guard,
        }
    }

    fn not_fresh(state: WorkflowState, active: bool) -> Freshness {
        Freshness::NotFresh {
            reasons: vec!["STATE.md is not in the installed state: WorkflowState".into()],
            cycle: Some(CycleInfo {
                id: "c-1".into(),
                state,
                active,
            }),
            state: Some(state),
        }
    }

    #[test]
    fn readiness_follows_the_guard_and_the_cycle() {
        let fresh = verdict(Freshness::Fresh {
            mode: crate::model::vocab::ProjectMode::Brownfield,
        });
        let (r, why) = readiness(&facts(&fresh, &[]));
        assert_eq!(r, Readiness::Ready);
        assert!(why.contains("may merge into `main`"), "{why}");

        let active = verdict(not_fresh(WorkflowState::Developing, true));
        let (r, why) = readiness(&facts(&active, &[]));
        assert_eq!(r, Readiness::Active);
        assert!(why.contains("`git standards signoff --reply"), "{why}");
        assert!(
            why.contains("`git standards reset --yes --commit`"),
            "{why}"
        );

        let signed = verdict(not_fresh(WorkflowState::SignedOff, false));
        let (r, why) = readiness(&facts(&signed, &[]));
        assert_eq!(r, Readiness::SignedOffNeedsReset);
        assert!(why.starts_with("cycle `c-1` is signed off"), "{why}");

        let cancelled = verdict(not_fresh(WorkflowState::Cancelled, false));
        assert_eq!(readiness(&facts(&cancelled, &[])).0, Readiness::NeedsReset);

        let conflicts = vec![".standards/STATE.md".to_string()];
        let (r, why) = readiness(&facts(&fresh, &conflicts));
        assert_eq!(r, Readiness::Conflicts);
        assert!(why.contains("`.standards/STATE.md`"), "{why}");

        let mut f = facts(&active, &conflicts);
        f.unreadable = Some("STATE.md is conflicted");
        assert_eq!(
            readiness(&f),
            (Readiness::Unknown, "STATE.md is conflicted".into())
        );
    }

    #[test]
    fn collisions_list_conflicts_first_and_cut_long_lists() {
        let a = vec!["src/a.rs".to_string(), "src/b.rs".to_string()];
        let b = vec!["src/b.rs".to_string(), "src/c.rs".to_string()];
        assert_eq!(Collision::build("x", "y", &a, &["z".into()], &[], 0), None);
        let c = Collision::build("x", "y", &a, &b, &[], 0).unwrap();
        assert_eq!(c.files, vec!["src/b.rs"]);
        assert!(!c.conflict && !c.in_standards && !c.truncated);
        let conflicted = vec![".standards/STATE.md".to_string()];
        let c = Collision::build("x", "y", &a, &b, &conflicted, 2).unwrap();
        assert_eq!(c.files, vec![".standards/STATE.md", "src/b.rs"]);
        assert!(c.conflict && c.in_standards);
        assert_eq!(c.conflicting_hunks, 2);
        let many: Vec<String> = (0..MAX_COLLISION_FILES + 5)
            .map(|i| format!("f{i}"))
            .collect();
        let c = Collision::build("x", "y", &many, &many, &[], 0).unwrap();
        assert!(c.truncated);
        assert_eq!(c.files.len(), MAX_COLLISION_FILES);
    }

    #[test]
    fn pairs_put_main_first_and_count_the_rest() {
        let row = |name: &str, active| PairCandidate {
            name: name.into(),
            active,
        };
        let rows = vec![
            row("a", true),
            row("main", false),
            row("b", true),
            row("c", false),
        ];
        let (pairs, skipped) = pairs(&rows, "main", 50);
        assert_eq!(pairs, vec![(0, 1), (2, 1), (3, 1), (0, 2)]);
        assert_eq!(skipped, 0);
        let (cut, skipped) = super::pairs(&rows, "main", 2);
        assert_eq!(cut, vec![(0, 1), (2, 1)]);
        assert_eq!(skipped, 2);
    }

    #[test]
    fn check_verdicts_combine() {
        assert_eq!(CheckSummary::combine(&[]).verdict, CheckVerdict::Unknown);
        assert_eq!(
            CheckSummary::combine(&[Some((0, 1)), Some((0, 0))]),
            CheckSummary {
                verdict: CheckVerdict::Pass,
                problems: 0,
                warnings: 1
            }
        );
        assert_eq!(
            CheckSummary::combine(&[Some((2, 0))]).verdict,
            CheckVerdict::Fail
        );
        assert_eq!(
            CheckSummary::combine(&[Some((2, 0)), None]).verdict,
            CheckVerdict::Unknown
        );
    }

    #[test]
    fn the_document_keeps_the_contract_order() {
        let board = Board::new("main", "2026-12-02T10:00:00Z".into(), 50);
        let doc = board.document();
        let keys: Vec<&String> = doc.as_object().unwrap().keys().collect();
        assert_eq!(
            keys,
            [
                "ok",
                "mainBranch",
                "generatedAt",
                "states",
                "rows",
                "collisions",
                "pairsCompared",
                "pairsSkipped",
                "maxPairs"
            ]
        );
        assert_eq!(doc["states"][0], "SCOPING");
    }
}
