//! The merge guard (D23): a branch may merge into the main branch (or a
//! protected one) only when its committed `.standards/` is a fresh
//! installation, so main never holds a cycle and every branch cut from it
//! starts with none. Pure: both sides' [`Freshness`] come in as arguments.

use super::fresh::{CycleInfo, Freshness};

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
    let mut fixes = vec![format!("git standards{dash_c} reset --commit")];
    if matches!(target.freshness, Freshness::Absent) {
        // D23: a target without STANDARDS may take a fresh installation or none.
        fixes.push(format!("git standards{dash_c} uninstall"));
    }
    let first = cycle.as_ref().filter(|c| c.active).map(|c| {
        format!(
            "cycle `{}` is still active (`{}`): the user signs it off (`git standards{dash_c} signoff`, from AWAITING_USER_SIGNOFF) or cancels it (`git standards{dash_c} cancel`) first",
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::vocab::{ProjectMode, WorkflowState};

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
        assert_eq!(r.fixes, vec!["git standards reset --commit".to_string()]);
        assert_eq!(r.first, None);
        assert_eq!(
            r.hint(),
            "run on `feature`: `git standards reset --commit`; then merge again"
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
        assert!(r.hint().starts_with("cycle `c-1` is still active (`DEVELOPING`): the user signs it off (`git standards -C app signoff`, from AWAITING_USER_SIGNOFF) or cancels it (`git standards -C app cancel`) first; then run on `feature`: `git standards -C app reset --commit`"), "{}", r.hint());
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
        assert_eq!(r.fixes[0], "git standards -C 'my app' reset --commit");
        assert_eq!(r.fixes[1], "git standards -C 'my app' uninstall");
        assert_eq!(r.hint(), "run on `feature` either `git standards -C 'my app' reset --commit` or `git standards -C 'my app' uninstall` (then commit the removal); then merge again");
    }
}
