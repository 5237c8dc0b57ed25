//! `check`: every rule of the protocol, evaluated on snapshots.
//!
//! Each family module owns the rules with its prefix (IDs as in the rule
//! catalogue), exposes `RULES` (its part of the registry) and `check`, which
//! reads the shared [`Cx`] and pushes [`Problem`]s. Nothing here performs I/O:
//! the working tree, the index or a commit arrive as [`Tree`]s.

pub mod acceptance;
pub mod after_signoff;
pub mod completion;
pub mod context;
pub mod development;
pub mod documentation;
#[cfg(test)]
mod fixtures;
pub mod headers;
pub mod history;
pub mod history_acceptance;
pub mod protocol_rules;
pub mod provenance;
pub mod recovery;
pub mod review;
pub mod runtime;
mod saved_assignments;
pub mod state;
pub mod synchronization;
pub mod transitions;
pub mod verification;

use std::collections::HashMap;

pub use context::{ActivePath, ActivePathField, Cx, FixedSlot, OwnRecord, SlotStatus};

use crate::model::tree::Tree;

/// One finding that makes the check fail.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Problem {
    /// The rule's stable ID, e.g. `ST-012`.
    pub rule: &'static str,
    /// Project-relative path the problem is attached to.
    pub file: String,
    /// The 1-based line of `file` the problem is on, when the rule knows it
    /// (the `line N` its message names: see [`line_in`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// What is wrong, for the agent or person who must act.
    pub message: String,
    /// Which role or command fixes it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// Whether the rule is one of the reference checker's or one of the
    /// protocol's further rules (the PR family).
    pub source: RuleSource,
}

/// The line a problem's message names: a leading `line N:` (the form the
/// rule families use for the file the problem is attached to), else the
/// first `(line N)`. Rules state the line in their message; this keeps it
/// as data, so reports (GitHub annotations, GitLab Code Quality, SARIF)
/// point at the real line instead of line 1.
pub fn line_in(message: &str) -> Option<usize> {
    let number = |rest: &str, end: char| -> Option<usize> {
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        let after = rest[digits.len()..].chars().next();
        (!digits.is_empty() && after == Some(end))
            .then(|| digits.parse().ok())
            .flatten()
            .filter(|n| *n > 0)
    };
    if let Some(rest) = message.strip_prefix("line ") {
        if let Some(n) = number(rest, ':') {
            return Some(n);
        }
    }
    message
        .match_indices("(line ")
        .find_map(|(at, m)| number(&message[at + m.len()..], ')'))
}

/// Where a rule comes from: the reference checker's catalogue, or the
/// protocol rules the reference never enforced (`check --compat` leaves
/// those out).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RuleSource {
    Reference,
    Protocol,
}

impl RuleSource {
    /// The family prefix decides: `PR-` rules are the protocol's own.
    pub fn of(rule: &str) -> RuleSource {
        if rule.starts_with("PR-") {
            RuleSource::Protocol
        } else {
            RuleSource::Reference
        }
    }
}

/// A rule of the catalogue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleInfo {
    pub id: &'static str,
    pub title: &'static str,
    /// Preconditions (RT-000, VF-000, CP-000) describe procedure, not problems.
    pub precondition: bool,
}

impl RuleInfo {
    pub fn source(&self) -> RuleSource {
        RuleSource::of(self.id)
    }

    pub const fn rule(id: &'static str, title: &'static str) -> RuleInfo {
        RuleInfo {
            id,
            title,
            precondition: false,
        }
    }
    pub const fn precondition(id: &'static str, title: &'static str) -> RuleInfo {
        RuleInfo {
            id,
            title,
            precondition: true,
        }
    }
}

/// Every registered rule, family by family: the reference catalogue, then
/// the protocol's further rules.
pub fn registry() -> Vec<RuleInfo> {
    let mut all = reference_registry();
    all.extend(protocol_rules::rules());
    all
}

/// The rules selected by `options`: all of them, or only the reference
/// catalogue under `--compat`.
pub fn registry_for(options: Options) -> Vec<RuleInfo> {
    if options.compat {
        reference_registry()
    } else {
        registry()
    }
}

/// The reference checker's catalogue (check-rules.md).
pub fn reference_registry() -> Vec<RuleInfo> {
    [
        runtime::RULES,
        state::RULES,
        provenance::RULES,
        transitions::RULES,
        history::RULES,
        headers::RULES,
        acceptance::RULES,
        history_acceptance::RULES,
        verification::RULES,
        development::RULES,
        recovery::RULES,
        review::RULES,
        documentation::RULES,
        completion::RULES,
    ]
    .concat()
}

/// How the check runs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options {
    /// The stop hook's turn-end variant (HK rules).
    pub at_turn_end: bool,
    /// Only the reference checker's rules (`check --compat`): the PR family
    /// is not run.
    pub compat: bool,
}

/// The outcome: problems (deduplicated, sorted) and informational notes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    pub problems: Vec<Problem>,
    pub notes: Vec<String>,
}

impl Report {
    pub fn ok(&self) -> bool {
        self.problems.is_empty()
    }

    /// The rule IDs that fired, deduplicated.
    pub fn rules(&self) -> Vec<&'static str> {
        let mut v: Vec<_> = self.problems.iter().map(|p| p.rule).collect();
        v.sort();
        v.dedup();
        v
    }
}

/// Collects problems; an identical (file, message) pair is kept once.
#[derive(Debug, Default)]
pub struct Sink {
    problems: Vec<Problem>,
    /// Index of each (file, message) pair in `problems`.
    seen: HashMap<(String, String), usize>,
    pub notes: Vec<String>,
}

impl Sink {
    pub fn push(
        &mut self,
        rule: &'static str,
        file: impl Into<String>,
        message: impl Into<String>,
    ) -> &mut Problem {
        self.push_hinted(rule, file, message, None)
    }

    pub fn push_hinted(
        &mut self,
        rule: &'static str,
        file: impl Into<String>,
        message: impl Into<String>,
        hint: Option<String>,
    ) -> &mut Problem {
        let (file, message) = (file.into(), message.into());
        let next = self.problems.len();
        let at = *self
            .seen
            .entry((file.clone(), message.clone()))
            .or_insert(next);
        if at == next {
            self.problems.push(Problem {
                rule,
                line: line_in(&message),
                file,
                message,
                hint,
                source: RuleSource::of(rule),
            });
        }
        &mut self.problems[at]
    }

    pub fn note(&mut self, note: impl Into<String>) {
        self.notes.push(note.into());
    }

    pub fn has(&self, rule: &str) -> bool {
        self.problems.iter().any(|p| p.rule == rule)
    }

    fn finish(mut self) -> Report {
        self.problems
            .sort_by(|a, b| (&a.file, a.rule, &a.message).cmp(&(&b.file, b.rule, &b.message)));
        Report {
            problems: self.problems,
            notes: self.notes,
        }
    }
}

/// Runs every rule on `tree`, comparing with `head` (the last commit) where the
/// rules call for it. `head` is `None` when there is no commit to compare with.
pub fn run(tree: &dyn Tree, head: Option<&dyn Tree>, options: Options) -> Report {
    run_cached(tree, head, options, None)
}

pub use crate::records::verdicts::ContentCache;

/// [`run`], sharing the scans' verdicts on unchanged content through `cache`
/// (`verify` checks many commits that hold mostly the same records, and a
/// run starts from what earlier runs kept).
pub fn run_cached(
    tree: &dyn Tree,
    head: Option<&dyn Tree>,
    options: Options,
    cache: Option<&ContentCache>,
) -> Report {
    let mut sink = Sink::default();
    // Every snapshot reads a path below a link as the link (issue 21).
    let linked = crate::model::tree::LinksRead(tree);
    let tree: &dyn Tree = &linked;
    // 1–2: runtime files and the merge-conflict stop.
    if runtime::check_files_and_conflicts(tree, head, &mut sink, cache) {
        return sink.finish();
    }
    if head.is_none() {
        sink.note(
            "there is no commit to compare with, so comparisons with the last commit were skipped",
        );
    }
    let cx = Cx::new_cached(tree, head, options, &mut sink, cache);
    // 3–6: everything that reads the parsed state and records.
    runtime::check(&cx, &mut sink);
    state::check(&cx, &mut sink);
    transitions::check(&cx, &mut sink);
    history::check(&cx, &mut sink);
    provenance::check(&cx, &mut sink);
    headers::check(&cx, &mut sink);
    acceptance::check(&cx, &mut sink);
    history_acceptance::check(&cx, &mut sink);
    verification::check(&cx, &mut sink);
    development::check(&cx, &mut sink);
    recovery::check(&cx, &mut sink);
    review::check(&cx, &mut sink);
    documentation::check(&cx, &mut sink);
    completion::check(&cx, &mut sink);
    // 7: the protocol's rules beyond the reference catalogue.
    if !options.compat {
        protocol_rules::check(&cx, &mut sink);
    }
    sink.finish()
}

pub mod testing {
    //! Helpers for rule tests and fixtures: an installed project in memory.

    use super::*;
    use crate::model::tree::MemTree;
    use crate::model::vocab::ProjectMode;

    /// A fresh install of the given mode, as `git standards install` lays it out.
    pub fn installed_tree(mode: ProjectMode) -> MemTree {
        let mut tree = MemTree::new()
            .with(crate::model::layout::PROTOCOL_PATH, crate::assets::PROTOCOL)
            .with(
                crate::model::layout::VERSION_PATH,
                concat!(
                    "{\n  \"framework\": \"S.T.A.N.D.A.R.D.S.\",\n  \"version\": \"",
                    env!("CARGO_PKG_VERSION"),
                    "\"\n}\n"
                ),
            )
            .with(crate::model::layout::INSTALLATION_PATH, "{}\n")
            .with(
                crate::model::layout::MODE_PATH,
                crate::model::mode::render(mode),
            )
            .with(
                crate::model::layout::STATE_PATH,
                crate::model::state::fresh_template(mode),
            );
        for (name, text) in crate::assets::CHAPTERS {
            tree.insert(
                &format!("{}/{name}", crate::model::layout::CHAPTERS_DIR),
                text,
            );
        }
        tree
    }

    pub fn rules_of(tree: &MemTree) -> Vec<&'static str> {
        run(tree, None, Options::default()).rules()
    }
}

#[cfg(test)]
mod tests {
    use super::testing::*;
    use super::*;
    use crate::model::vocab::ProjectMode;

    #[test]
    fn a_fresh_install_passes() {
        for mode in ProjectMode::ALL {
            let report = run(&installed_tree(*mode), None, Options::default());
            assert!(report.ok(), "{mode}: {:?}", report.problems);
        }
    }

    #[test]
    fn registry_ids_are_unique_and_well_formed() {
        let all = registry();
        let mut ids: Vec<_> = all.iter().map(|r| r.id).collect();
        ids.sort();
        let before = ids.len();
        ids.dedup();
        assert_eq!(before, ids.len(), "duplicate rule IDs");
        for id in ids {
            let (family, number) = id.split_once('-').expect("FAMILY-NNN");
            assert!(family.len() == 2 && number.len() == 3, "{id}");
        }
    }

    #[test]
    fn duplicates_are_dropped_and_output_is_sorted() {
        let mut sink = Sink::default();
        sink.push("ST-013", "b", "x");
        sink.push("ST-013", "b", "x");
        sink.push("RT-001", "a", "y");
        let r = sink.finish();
        assert_eq!(r.problems.len(), 2);
        assert_eq!(r.problems[0].file, "a");
    }

    #[test]
    fn the_line_a_message_names_is_kept() {
        assert_eq!(line_in("line 3: cycle `c` is `SIGNED_OFF`"), Some(3));
        assert_eq!(line_in("a `## Gate` section (line 12); more"), Some(12));
        assert_eq!(line_in("`### Frame 2` (line 40) and (line 41)"), Some(40));
        assert_eq!(line_in("no line here"), None);
        assert_eq!(line_in("line 0: nothing"), None);
        assert_eq!(line_in("line 3x: not a number"), None);
        assert_eq!(line_in("the pipeline 4: no"), None);
        let mut sink = Sink::default();
        sink.push("GT-001", ".standards/STATE.md", "line 3: reopened");
        assert_eq!(sink.finish().problems[0].line, Some(3));
    }
}
