//! One move checked against the whole project: the facts it needs, the
//! owner of each file, and the gate that refuses a state `check` would reject.

use crate::model::fields::{self};
use crate::model::layout::{CONTEXT_PATH, MODE_PATH, STATE_PATH};
use crate::model::state::StateDoc;
use crate::model::vocab::Role;
use crate::records::plan::Cadence;
use crate::workflow::transition::dispatch::{apply, Move};
use crate::workflow::transition::{Facts, MoveKind, Refusal, Transition, RUNTIME_TOOLS, SIGN_OFF};

use crate::check::{self, Options, Report};
use crate::model::mode;
use crate::model::tree::{Text, Tree, WithFile};

/// The role that owns a project file, for "problems in files the current
/// role owns": the Auditor's context, each role's cycle records at their
/// fixed folders, and the artifacts `Active Work` names.
pub fn file_owner(doc: &StateDoc, path: &str) -> Option<Role> {
    let clean = |p: &str| p.trim_start_matches("./").to_string();
    let aw = &doc.active_work;
    for (field, role) in [
        (&aw.scope.value, Role::Scoper),
        (&aw.architecture.value, Role::Architect),
        (&aw.development.value, Role::Developer),
    ] {
        if field != "NONE" && clean(field) == path {
            return Some(role);
        }
    }
    if path == CONTEXT_PATH {
        return Some(Role::Auditor);
    }
    let rest = path.strip_prefix(".standards/docs/")?;
    let folder = rest.split('/').next()?;
    Some(match folder {
        "scope" => Role::Scoper,
        "specs" => Role::Architect,
        "development" => Role::Developer,
        "verification" => Role::Tester,
        "reviews" => Role::Reviewer,
        "documentation" => Role::Documenter,
        "synchronization" => Role::Synchronizer,
        _ => return None,
    })
}

/// The facts a move needs, read from the project tree and `check`'s report.
pub fn facts(tree: &dyn Tree, doc: &StateDoc, report: &Report) -> Result<Facts, Refusal> {
    let project = match tree.text(MODE_PATH) {
        Text::Ok(text) => mode::parse(&text).map_err(|e| {
            Refusal::new(
                "Project Modes",
                format!("MODE.md is invalid, so the topology is unknown: {e}"),
            )
            .hint("MODE.md must hold `ProjectMode`: `GREENFIELD` or `BROWNFIELD`")
        })?,
        _ => {
            // `check` knows whether the last commit holds a copy,
            // so its hint names the command that works here (RT-001, RT-002); a
            // folder or a symbolic link has no command that repairs it.
            let hint = report
                .problems
                .iter()
                .find(|p| p.file == MODE_PATH && p.rule.starts_with("RT-"))
                .and_then(|p| p.hint.clone())
                .unwrap_or_else(|| {
                    "`git standards check` reports what is wrong with it (RT-002)".to_string()
                });
            return Err(Refusal::new(
                "Project Modes",
                format!("`{MODE_PATH}` is missing or unreadable, so the topology is unknown"),
            )
            .hint(hint));
        }
    };
    let role = doc.workflow_state.value.owner();
    let owned_problems = report
        .problems
        .iter()
        .filter(|p| role != Role::User && file_owner(doc, &p.file) == Some(role))
        .map(|p| format!("{}: {} [{}]", p.file, p.message, p.rule))
        .collect();
    let plan = &doc.active_work.development.value;
    let effective_cadence = if plan == "NONE" {
        None
    } else {
        match tree.text(plan.trim_start_matches("./")) {
            Text::Ok(text) => fields::scan(&text)
                .iter()
                .find(|f| f.name == "Verification Cadence")
                .and_then(|f| Cadence::parse(&f.value)),
            _ => None,
        }
    };
    let documentation_started = tree.exists(&format!(
        ".standards/docs/documentation/{}.md",
        doc.active_work.id.value
    ));
    Ok(Facts {
        project,
        owned_problems,
        effective_cadence,
        documentation_started,
    })
}

/// Moves on a whole project: the facts come from `tree` and one `check`
/// run (compared with `head`), and a move is refused when `check` on the new
/// state reports a problem it did not report before (Runtime Tools and
/// Hooks: the tool never writes a state the checker rejects).
pub struct Gate<'a> {
    tree: &'a dyn Tree,
    head: Option<&'a dyn Tree>,
    doc: &'a StateDoc,
    before: Report,
    facts: Facts,
    /// The verdicts every `check` run of the gate shares (a range's walk).
    cache: Option<&'a check::ContentCache>,
}

impl<'a> Gate<'a> {
    pub fn new(
        tree: &'a dyn Tree,
        head: Option<&'a dyn Tree>,
        doc: &'a StateDoc,
    ) -> Result<Gate<'a>, Refusal> {
        Self::new_cached(tree, head, doc, None)
    }

    /// [`Gate::new`], its `check` runs sharing `cache`'s verdicts and scans.
    pub fn new_cached(
        tree: &'a dyn Tree,
        head: Option<&'a dyn Tree>,
        doc: &'a StateDoc,
        cache: Option<&'a check::ContentCache>,
    ) -> Result<Gate<'a>, Refusal> {
        let before = check::run_cached(tree, head, Options::default(), cache);
        let facts = facts(tree, doc, &before)?;
        Ok(Gate {
            tree,
            head,
            doc,
            before,
            facts,
            cache,
        })
    }

    /// `check`'s report on the project before any move.
    pub fn report(&self) -> &Report {
        &self.before
    }

    pub fn facts(&self) -> &Facts {
        &self.facts
    }

    /// The move, or why it is refused.
    pub fn apply(&self, mv: &Move) -> Result<Transition, Refusal> {
        let t = apply(self.doc, &self.facts, mv)?;
        if !t.changed {
            return Ok(t);
        }
        let after_tree = WithFile {
            base: self.tree,
            path: STATE_PATH,
            content: t.doc.render().as_bytes(),
        };
        let after = check::run_cached(&after_tree, self.head, Options::default(), self.cache);
        // A handoff gives the next role its work: what `check` asks of the
        // files that role owns in the new state (a Tester's report that does
        // not yet show the checkpoint's increment) is the next role's to do,
        // not a problem of the gate being passed (Checkpoint Handoffs).
        let receiver = t.after.owner();
        let theirs = |p: &check::Problem| {
            matches!(
                t.kind,
                MoveKind::Handoff | MoveKind::Checkpoint | MoveKind::Resume
            ) && receiver != Role::User
                && receiver != t.before.owner()
                && file_owner(&t.doc, &p.file) == Some(receiver)
        };
        let after = Report {
            problems: after
                .problems
                .iter()
                .filter(|p| !theirs(p))
                .cloned()
                .collect(),
            notes: after.notes,
        };
        // Issue 23: a forward handoff, a checkpoint or a resume passes its
        // gate only when `check` reports no problem in the state it leaves,
        // whether the problem is new or not; sign-off requires that `check`
        // reports none at all, before the move and after it.
        if gate_covers_all(t.kind) {
            let mut all: Vec<String> = Vec::new();
            let before = (t.kind == MoveKind::Signoff).then_some(&self.before.problems);
            for p in before.into_iter().flatten().chain(after.problems.iter()) {
                let line = format!("{}: {} [{}]", p.file, p.message, p.rule);
                if !all.contains(&line) {
                    all.push(line);
                }
            }
            if !all.is_empty() {
                return Err(gate_refusal(t.kind, self.doc, &all));
            }
        }
        let new: Vec<String> = after
            .problems
            .iter()
            .filter(|p| {
                !self
                    .before
                    .problems
                    .iter()
                    .any(|b| b.rule == p.rule && b.file == p.file)
            })
            .map(|p| format!("{}: {} [{}]", p.file, p.message, p.rule))
            .collect();
        if !new.is_empty() {
            return Err(Refusal::new(
                RUNTIME_TOOLS,
                format!(
                    "the move would leave a state `check` rejects ({} new problem(s)): {}",
                    new.len(),
                    new.join("; ")
                ),
            )
            .hint(
                "the roles that own these files complete them first; the move was not recorded",
            ));
        }
        Ok(t)
    }
}

/// Whether the move's gate covers every problem `check` reports, not only
/// the ones the move would newly create: "Before every state-changing
/// handoff, `check` must report no problems in files the current role
/// owns", and sign-off needs a project `check` accepts (Standard Cycle
/// Completion, sign-off step).
fn gate_covers_all(kind: MoveKind) -> bool {
    matches!(
        kind,
        MoveKind::Handoff | MoveKind::Checkpoint | MoveKind::Resume | MoveKind::Signoff
    )
}

/// The refusal of a move whose gate a problem breaks, naming the fix or the
/// failure route.
fn gate_refusal(kind: MoveKind, doc: &StateDoc, problems: &[String]) -> Refusal {
    let role = doc.workflow_state.value.owner();
    if kind == MoveKind::Signoff {
        return Refusal::new(
            SIGN_OFF,
            format!(
                "sign-off re-checks the completion contract against the current files, and `check` reports {} problem(s): {}",
                problems.len(),
                problems.join("; ")
            ),
        )
        .hint(
            "the owning role completes or corrects its record first (`git standards check` lists them); a defect goes back to its owner through `git standards rework --type <FailureType> --request \"<request>\"`",
        );
    }
    Refusal::new(
        RUNTIME_TOOLS,
        format!(
            "the {} would leave a state `check` rejects ({} problem(s), whether new or not): {}",
            kind.name(),
            problems.len(),
            problems.join("; ")
        ),
    )
    .hint(format!(
        "the {role} fixes what it owns (`git standards check` lists the problems); a defect in a file another role owns goes through `git standards fail`"
    ))
}

/// One move through a [`Gate`].
pub fn gated(
    tree: &dyn Tree,
    head: Option<&dyn Tree>,
    doc: &StateDoc,
    mv: &Move,
) -> Result<Transition, Refusal> {
    Gate::new(tree, head, doc)?.apply(mv)
}
