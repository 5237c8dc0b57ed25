//! The merge guard (D23): a branch may merge into the main branch (or a
//! protected one) only when its committed `.standards/` is a fresh
//! installation, so main never holds a cycle and every branch cut from it
//! starts with none. Pure: both sides' [`Freshness`] come in as arguments.

use crate::setup::fresh::{CycleInfo, Freshness};

/// One project's verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    Accepted { why: String },
    Refused(Refusal),
}

impl Verdict {
    pub fn is_accepted(&self) -> bool {
        matches!(self, Verdict::Accepted { .. })
    }
}

/// Why a merge is refused and the exact way out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// One sentence naming the branch, the target, the cycle and its state.
    pub message: String,
    /// What differs from a fresh installation.
    pub reasons: Vec<String>,
    pub cycle: Option<CycleInfo>,
    /// The commands to run, each a complete line; when there are several,
    /// any one of them is a way out.
    pub fixes: Vec<String>,
    /// A step that must come before the commands (sign-off or cancellation).
    pub first: Option<String>,
    /// The branch (or commit) the commands must run on.
    pub branch: String,
}

impl Refusal {
    /// The hint line: the step that must come first, then the commands.
    pub fn hint(&self) -> String {
        let commands = match self.fixes.as_slice() {
            [one] => format!("run on `{}`: `{one}`", self.branch),
            many => format!(
                "run on `{}` either {} (then commit the removal)",
                self.branch,
                many.iter()
                    .map(|f| format!("`{f}`"))
                    .collect::<Vec<_>>()
                    .join(" or ")
            ),
        };
        match &self.first {
            Some(first) => format!("{first}; then {commands}; then merge again"),
            None => format!("{commands}; then merge again"),
        }
    }
}

/// What the guard needs to say about one side.
pub struct Side<'a> {
    /// The branch or commit as the user named it.
    pub name: &'a str,
    pub freshness: &'a Freshness,
}

/// Judges merging `incoming` into `target` for the project at `project_dir`
/// (`""` for the repository's top level).
pub fn judge(incoming: Side, target: Side, project_dir: &str) -> Verdict {
    let (reasons, cycle, state) = match incoming.freshness {
        Freshness::Absent => {
            return Verdict::Accepted {
                why: format!("`{}` holds no STANDARDS installation", incoming.name),
            }
        }
        Freshness::Fresh { .. } => {
            return Verdict::Accepted {
                why: format!("`{}` holds a fresh installation", incoming.name),
            }
        }
        Freshness::NotFresh {
            reasons,
            cycle,
            state,
        } => (reasons, cycle, state),
    };
    let where_ = if project_dir.is_empty() {
        ".standards/".to_string()
    } else {
        format!("{project_dir}/.standards/")
    };
    let cycle_text = match (cycle, state) {
        (Some(c), _) if c.active => format!("cycle `{}` is active in `{}`", c.id, c.state),
        (Some(c), _) => format!("cycle `{}` is finished (`{}`)", c.id, c.state),
        (None, Some(s)) => format!("no cycle is recorded, the state is `{s}`"),
        (None, None) => "its state cannot be read".to_string(),
    };
    let message = format!(
        "`{}` may not merge into `{}`: its committed {where_} is not a fresh installation ({cycle_text}): {}",
        incoming.name,
        target.name,
        reasons.join("; ")
    );
    let dash_c = if project_dir.is_empty() {
        String::new()
    } else if project_dir.contains(|c: char| c.is_whitespace() || "'\"$`\\".contains(c)) {
        format!(" -C '{}'", project_dir.replace('\'', r"'\''"))
    } else {
        format!(" -C {project_dir}")
    };
    // Issue 25, item 6: the guard runs in hooks and CI, where a confirming
    // command without `--yes` is refused: name the form that runs there.
    let mut fixes = vec![format!("git standards{dash_c} reset --yes --commit")];
    if matches!(target.freshness, Freshness::Absent) {
        // D23: a target without STANDARDS may take a fresh installation or none.
        fixes.push(format!("git standards{dash_c} uninstall --yes"));
    }
    let first = cycle.as_ref().filter(|c| c.active).map(|c| {
        format!(
            "cycle `{}` is still active (`{}`): the user signs it off (`git standards{dash_c} signoff --reply \"<the user's reply>\"`, from AWAITING_USER_SIGNOFF) or cancels it (`git standards{dash_c} cancel`) first",
            c.id, c.state
        )
    });
    Verdict::Refused(Refusal {
        message,
        reasons: reasons.clone(),
        cycle: cycle.clone(),
        fixes,
        first,
        branch: incoming.name.to_string(),
    })
}

/// The rule ID of a line-merged STATE.md (issue 22, item 5; D24).
pub const LINE_MERGE_RULE: &str = "MG-001";

/// Whether a merge result of STATE.md carries the signature of git's line
/// merge: both parents changed the file since their merge base, and the
/// result is neither parent's version. The D24 driver never writes such a
/// result (one side, or both inside conflict markers), and `resolve` keeps
/// one side; only git's own line merge (or a hand edit of a conflicted
/// merge) does. Each argument identifies one version (an object ID), `None`
/// where the file is absent.
pub fn is_line_merge<T: PartialEq>(
    base: Option<T>,
    ours: Option<T>,
    theirs: Option<T>,
    result: Option<T>,
) -> bool {
    ours != base && theirs != base && result != ours && result != theirs
}

/// The MG-001 message: both sides by name and by cycle.
pub fn line_merge_message(
    ours: &str,
    ours_label: &str,
    theirs: &str,
    theirs_label: &str,
) -> String {
    format!(
        "STATE.md is a line merge: `{ours}` ({ours_label}) and `{theirs}` ({theirs_label}) both changed it since their merge base, and the merged file is neither version, a workflow state neither branch had (D24)"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::vocab::{ProjectMode, WorkflowState};

    fn stale(active: bool) -> Freshness {
        Freshness::NotFresh {
            reasons: vec!["it holds cycle records under .standards/docs/".into()],
            cycle: Some(CycleInfo {
                id: "c-1".into(),
                state: if active {
                    WorkflowState::Developing
                } else {
                    WorkflowState::SignedOff
                },
                active,
            }),
            state: None,
        }
    }

    const FRESH: Freshness = Freshness::Fresh {
        mode: ProjectMode::Brownfield,
    };

    fn side<'a>(name: &'a str, f: &'a Freshness) -> Side<'a> {
        Side { name, freshness: f }
    }

    #[test]
    fn fresh_or_absent_branches_are_accepted() {
        assert!(judge(side("f", &FRESH), side("main", &FRESH), "").is_accepted());
        assert!(judge(side("f", &Freshness::Absent), side("main", &FRESH), "").is_accepted());
        assert!(judge(side("f", &FRESH), side("main", &Freshness::Absent), "").is_accepted());
    }

    #[test]
    fn a_finished_cycle_is_refused_with_reset() {
        let Verdict::Refused(r) = judge(side("feature", &stale(false)), side("main", &FRESH), "")
        else {
            panic!()
        };
        assert!(r.message.contains("`feature` may not merge into `main`"));
        assert!(r.message.contains("cycle `c-1` is finished (`SIGNED_OFF`)"));
        assert_eq!(
            r.fixes,
            vec!["git standards reset --yes --commit".to_string()]
        );
        assert_eq!(r.first, None);
        assert_eq!(
            r.hint(),
            "run on `feature`: `git standards reset --yes --commit`; then merge again"
        );
    }

    #[test]
    fn an_active_cycle_must_be_signed_off_or_cancelled_first() {
        let Verdict::Refused(r) = judge(side("feature", &stale(true)), side("main", &FRESH), "app")
        else {
            panic!()
        };
        assert!(r.message.contains("cycle `c-1` is active in `DEVELOPING`"));
        assert!(r.message.contains("app/.standards/"));
        assert!(r.hint().starts_with("cycle `c-1` is still active (`DEVELOPING`): the user signs it off (`git standards -C app signoff --reply \"<the user's reply>\"`, from AWAITING_USER_SIGNOFF) or cancels it (`git standards -C app cancel`) first; then run on `feature`: `git standards -C app reset --yes --commit`"), "{}", r.hint());
    }

    #[test]
    fn a_target_without_standards_offers_reset_and_uninstall() {
        let Verdict::Refused(r) = judge(
            side("feature", &stale(false)),
            side("main", &Freshness::Absent),
            "my app",
        ) else {
            panic!()
        };
        assert_eq!(r.fixes.len(), 2);
        assert_eq!(r.fixes[0], "git standards -C 'my app' reset --yes --commit");
        assert_eq!(r.fixes[1], "git standards -C 'my app' uninstall --yes");
        assert_eq!(r.hint(), "run on `feature` either `git standards -C 'my app' reset --yes --commit` or `git standards -C 'my app' uninstall --yes` (then commit the removal); then merge again");
    }

    #[test]
    fn a_line_merge_is_a_result_neither_parent_had_after_both_changed() {
        // Both changed, result neither: git's line merge.
        assert!(is_line_merge(Some(1), Some(2), Some(3), Some(4)));
        // The driver's outcomes and `resolve`'s choices are not.
        assert!(!is_line_merge(Some(1), Some(2), Some(3), Some(2)));
        assert!(!is_line_merge(Some(1), Some(2), Some(3), Some(3)));
        // Only one side changed it: git takes that side or a mix is impossible.
        assert!(!is_line_merge(Some(1), Some(1), Some(3), Some(4)));
        assert!(!is_line_merge(Some(1), Some(2), Some(1), Some(4)));
        // Added on both sides (no base) and merged into a third text.
        assert!(is_line_merge(None, Some(2), Some(3), Some(4)));
    }
}
