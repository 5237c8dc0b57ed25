//! The one change plan of the writing commands that set a project up or take
//! it apart again (`install`, its client part, `reset`, `uninstall`): the
//! pure planners return a [`ChangePlan`], `repo` applies it through the
//! journal, and the commands report it. A plan names project-relative paths
//! only; the order of its steps is the order they land in (a folder is
//! removed after everything in it, an ownership marker written last).

/// One planned step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// A file that does not exist yet.
    Create { path: String, content: String },
    /// A file (or something in the way of one) whose content changes.
    Replace { path: String, content: String },
    /// A file, or a folder with everything in it. A folder a planner empties
    /// step by step comes after the removals that empty it.
    Remove { path: String },
    /// A file already as planned: nothing to write.
    Keep { path: String },
    /// A file this plan would have removed but that may be the user's: left.
    Leave { path: String },
}

impl Step {
    /// A write: [`Step::Create`] when `current` is `None`, else
    /// [`Step::Replace`], or [`Step::Keep`] when `current` holds `content`.
    pub fn put(path: &str, content: String, current: Option<&[u8]>) -> Step {
        let path = path.to_string();
        match current {
            None => Step::Create { path, content },
            Some(bytes) if bytes == content.as_bytes() => Step::Keep { path },
            Some(_) => Step::Replace { path, content },
        }
    }

    pub fn remove(path: impl Into<String>) -> Step {
        Step::Remove { path: path.into() }
    }

    pub fn path(&self) -> &str {
        match self {
            Step::Create { path, .. }
            | Step::Replace { path, .. }
            | Step::Remove { path }
            | Step::Keep { path }
            | Step::Leave { path } => path,
        }
    }

    /// The text a write puts at its path.
    pub fn content(&self) -> Option<&str> {
        match self {
            Step::Create { content, .. } | Step::Replace { content, .. } => Some(content),
            _ => None,
        }
    }

    /// Whether the step changes the project (a write or a removal).
    pub fn changes(&self) -> bool {
        !matches!(self, Step::Keep { .. } | Step::Leave { .. })
    }

    pub fn is_write(&self) -> bool {
        self.content().is_some()
    }

    pub fn is_remove(&self) -> bool {
        matches!(self, Step::Remove { .. })
    }
}

/// What a writing command will change, step by step, in order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChangePlan {
    pub steps: Vec<Step>,
}

impl ChangePlan {
    pub fn push(&mut self, step: Step) {
        self.steps.push(step);
    }

    /// The steps that change something, in order.
    pub fn changes(&self) -> impl Iterator<Item = &Step> {
        self.steps.iter().filter(|s| s.changes())
    }

    /// The paths the plan writes or removes, in order.
    pub fn changed_paths(&self) -> Vec<&str> {
        self.changes().map(Step::path).collect()
    }

    /// Nothing to write or remove.
    pub fn is_noop(&self) -> bool {
        self.changes().next().is_none()
    }

    /// The step for `path`, if the plan has one.
    pub fn step(&self, path: &str) -> Option<&Step> {
        self.steps.iter().find(|s| s.path() == path)
    }

    /// Replaces the step for `step`'s path (where it is), or appends it.
    pub fn set(&mut self, step: Step) {
        match self.steps.iter_mut().find(|s| s.path() == step.path()) {
            Some(slot) => *slot = step,
            None => self.steps.push(step),
        }
    }

    /// Whether the plan removes `path` itself.
    pub fn removes(&self, path: &str) -> bool {
        self.steps
            .iter()
            .any(|s| matches!(s, Step::Remove { path: p } if p == path))
    }

    /// Whether `path` is, or lies in, a path the plan changes (for the
    /// paths a commit of the plan may hold).
    pub fn covers(&self, path: &str) -> bool {
        self.changes().any(|s| {
            let p = s.path();
            path == p || path.strip_prefix(p).is_some_and(|r| r.starts_with('/'))
        })
    }
}

impl FromIterator<Step> for ChangePlan {
    fn from_iter<I: IntoIterator<Item = Step>>(iter: I) -> Self {
        ChangePlan {
            steps: iter.into_iter().collect(),
        }
    }
}

impl Extend<Step> for ChangePlan {
    fn extend<I: IntoIterator<Item = Step>>(&mut self, iter: I) {
        self.steps.extend(iter);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn put_creates_replaces_or_keeps() {
        assert_eq!(
            Step::put("a", "x".into(), None),
            Step::Create {
                path: "a".into(),
                content: "x".into()
            }
        );
        assert_eq!(
            Step::put("a", "x".into(), Some(b"x")),
            Step::Keep { path: "a".into() }
        );
        assert_eq!(
            Step::put("a", "x".into(), Some(b"y")),
            Step::Replace {
                path: "a".into(),
                content: "x".into()
            }
        );
    }

    #[test]
    fn only_writes_and_removals_are_changes() {
        let mut plan: ChangePlan = [
            Step::Keep { path: "k".into() },
            Step::remove("d"),
            Step::Leave { path: "l".into() },
            Step::put("w", "x".into(), None),
        ]
        .into_iter()
        .collect();
        assert_eq!(plan.changed_paths(), ["d", "w"]);
        assert!(!plan.is_noop());
        assert!(plan.removes("d") && !plan.removes("w"));
        assert!(plan.covers("d/e") && plan.covers("d") && !plan.covers("dx"));
        assert!(!plan.covers("k"), "a kept file is not a change");
        plan.set(Step::Keep { path: "w".into() });
        assert_eq!(plan.changed_paths(), ["d"]);
        assert_eq!(plan.steps.len(), 4, "set replaces in place");
        let none: ChangePlan = [Step::Keep { path: "k".into() }].into_iter().collect();
        assert!(none.is_noop());
    }
}
