//! GT-003 and GT-004: the scope's acceptance IDs compared with the last commit.
//!
//! An acceptance ID, once used, stays in the scope for good: a removed or
//! replaced condition moves under `## Retired Acceptance Identifiers`, an
//! earlier cycle's conditions move under `## Previous Cycles`, and neither is
//! ever used again. These rules need the last commit (skipped without one) and
//! apply where the AC rules do. Protocol: Acceptance Traceability (rules 2–3).
//!
//! The committed text is read through `Cx::committed_text`, which follows a
//! rename since the last commit (§1.16), as GT-005 does.

use std::collections::HashSet;

use crate::records::acceptance::{inventory, Standing};

use super::acceptance::established_scope;
use super::{Cx, RuleInfo, Sink};

pub const RULES: &[RuleInfo] = &[
    RuleInfo::rule("GT-003", "Acceptance ID deleted"),
    RuleInfo::rule("GT-004", "Retired acceptance ID reused"),
];

pub fn check(cx: &Cx, sink: &mut Sink) {
    let Some(scope) = established_scope(cx) else {
        return;
    };
    let Some(committed) = cx.committed_text(scope.path) else {
        return;
    };
    let before = inventory(&committed);
    let now = &scope.inventory;
    let known_now: HashSet<&str> = now.known().map(String::as_str).collect();
    let current_now: HashSet<&str> = now.current.iter().map(String::as_str).collect();

    // GT-003 Acceptance ID deleted: in the committed inventory (current, then
    // retired, then previous), and in none of the current inventory's lists.
    for standing in [Standing::Current, Standing::Retired, Standing::Previous] {
        for id in before.of(standing) {
            if known_now.contains(id.as_str()) {
                continue;
            }
            sink.push_hinted(
                "GT-003",
                scope.path,
                format!("{id} was in the scope at the last commit but is gone now; acceptance IDs are never deleted"),
                Some(format!(
                    "Scoper restores {id}: a removed or replaced condition is listed under `## Retired Acceptance Identifiers`, and an earlier cycle's under `## Previous Cycles`"
                )),
            );
        }
    }

    // GT-004 Retired acceptance ID reused: retired or history at the last
    // commit, current now.
    for standing in [Standing::Retired, Standing::Previous] {
        let was = match standing {
            Standing::Retired => "retired",
            _ => "an earlier cycle's condition under Previous Cycles",
        };
        for id in before
            .of(standing)
            .iter()
            .filter(|id| current_now.contains(id.as_str()))
        {
            sink.push_hinted(
                "GT-004",
                scope.path,
                format!("{id} was {was} at the last commit and is a current condition again; an ID is never reused"),
                Some(format!(
                    "Scoper keeps {id} where it was and gives the condition a new ID from `git standards id next AC {}`",
                    scope.path
                )),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::acceptance::test_support::*;
    use crate::check::Options;
    use crate::model::tree::MemTree;

    fn gt(t: &MemTree, head: &MemTree) -> Vec<&'static str> {
        fired(t, Some(head), Options::default(), "GT-00")
            .into_iter()
            .filter(|r| matches!(*r, "GT-003" | "GT-004"))
            .collect()
    }

    fn messages(t: &MemTree, head: &MemTree) -> Vec<(&'static str, String, String)> {
        crate::check::run(t, Some(head as _), Options::default())
            .problems
            .into_iter()
            .filter(|p| matches!(p.rule, "GT-003" | "GT-004"))
            .map(|p| (p.rule, p.file, p.message))
            .collect()
    }

    #[test]
    fn unchanged_scope_passes() {
        let head = f_std();
        assert!(gt(&f_std(), &head).is_empty());
    }

    #[test]
    fn sc_ac_001_deleted_id() {
        let head = f_std();
        let mut t = f_std();
        edit(&mut t, &scope_path(), |s| {
            s.replace("- `AC-002`: The guide explains search.\n", "")
        });
        let m = messages(&t, &head);
        assert_eq!(m.len(), 1, "{m:?}");
        assert_eq!(m[0].0, "GT-003");
        assert_eq!(m[0].1, scope_path());
        assert!(m[0].2.starts_with("AC-002 "));
        // Retiring it instead is fine.
        edit(&mut t, &scope_path(), |s| {
            s + "- `AC-002`: Folded into AC-001.\n"
        });
        assert!(gt(&t, &head).is_empty());
    }

    #[test]
    fn retired_or_historical_ids_are_not_reused() {
        let mut head = f_std();
        edit(&mut head, &scope_path(), |s| {
            s + "\n## Previous Cycles\n\n- `AC-000`: Old cycle.\n"
        });
        let mut t = head.clone();
        edit(&mut t, &scope_path(), |s| {
            s.replace(
                "- `AC-002`: The guide explains search.",
                "- `AC-002`: The guide explains search.\n- `AC-003`: Back.\n- `AC-000`: Again.",
            )
        });
        let m = messages(&t, &head);
        let rules: Vec<_> = m.iter().map(|(r, _, _)| *r).collect();
        assert_eq!(rules, ["GT-004", "GT-004"], "{m:?}");
        assert!(m
            .iter()
            .any(|(_, _, msg)| msg.contains("AC-003 was retired")));
        assert!(m
            .iter()
            .any(|(_, _, msg)| msg.contains("AC-000 was an earlier cycle")));
    }

    #[test]
    fn no_commit_or_no_committed_scope_skips() {
        let mut t = f_std();
        edit(&mut t, &scope_path(), |s| s.replace("AC-002", "AC-004"));
        assert!(fired(&t, None, Options::default(), "GT-00").is_empty());
        let mut head = f_std();
        head.remove(&scope_path());
        assert!(gt(&t, &head).is_empty());
    }

    #[test]
    fn expedited_cycles_are_not_compared() {
        let head = f_std();
        let mut t = f_std();
        set(&mut t, "CycleMode", "EXPEDITED");
        set(&mut t, "CompletionPolicy", "NONE");
        edit(&mut t, &scope_path(), |s| s.replace("AC-002", "AC-004"));
        assert!(gt(&t, &head).is_empty());
    }
}
