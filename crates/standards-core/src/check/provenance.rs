//! PV: provenance, fixed locations and collisions.

use crate::model::layout::{self, STATE_PATH};
use crate::model::vocab::{ArtifactType, ReviewKind};
use crate::records::provenance::Marking;

use super::context::{ActivePathField, ActiveStatus, SlotStatus};
use super::{Cx, RuleInfo, Sink};

pub const RULES: &[RuleInfo] = &[
    RuleInfo::rule("PV-001", "Malformed provenance block"),
    RuleInfo::rule("PV-002", "Unmarked file at a fixed path"),
    RuleInfo::rule("PV-003", "Another cycle's record at a fixed path"),
    RuleInfo::rule("PV-004", "Wrong record at a fixed path"),
    RuleInfo::rule("PV-005", "Fixed path unreadable"),
    RuleInfo::rule("PV-006", "Omitted owner in a documentation cycle"),
    RuleInfo::rule("PV-007", "Second record of a kind"),
    RuleInfo::rule("PV-008", "Own record away from its fixed path"),
    RuleInfo::rule("PV-009", "Plan location"),
    RuleInfo::rule("PV-010", "Active Work path unreadable"),
    RuleInfo::rule("PV-011", "Active Work path missing"),
    RuleInfo::rule("PV-012", "Plan without provenance"),
    RuleInfo::rule("PV-013", "Active Work path names a foreign record"),
];

const COLLISION_HINT: &str = "leave the file unchanged and ask the user to resolve the collision; never adopt, relabel or overwrite it";

fn record_name(artifact: ArtifactType, kind: Option<ReviewKind>) -> String {
    match kind {
        Some(k) => format!("{artifact}/{k}"),
        None => artifact.to_string(),
    }
}

pub fn check(cx: &Cx, sink: &mut Sink) {
    // PV-001: every artifact that starts like a block but is not one.
    for a in cx.artifacts() {
        if let Marking::Malformed(why) = &a.marking {
            sink.push_hinted(
                "PV-001",
                a.path.clone(),
                format!("malformed STANDARDS provenance block: {why}"),
                Some(COLLISION_HINT.into()),
            );
        }
    }
    let Some(doc) = cx.doc() else { return };
    let Some(id) = doc.active_cycle_id() else {
        return;
    };

    // PV-002..PV-005: the fixed record paths.
    for slot in &cx.fixed {
        let name = record_name(slot.artifact, slot.kind);
        match &slot.status {
            SlotStatus::Unmarked => {
                sink.push_hinted(
                    "PV-002",
                    slot.path.clone(),
                    format!("this path is reserved for the cycle's {name} record, but the file has no provenance block"),
                    Some(COLLISION_HINT.into()),
                );
            }
            SlotStatus::OtherCycle(other) => {
                sink.push_hinted(
                    "PV-003",
                    slot.path.clone(),
                    format!("this path belongs to cycle `{id}`, but the file's provenance names cycle `{other}`"),
                    Some(COLLISION_HINT.into()),
                );
            }
            SlotStatus::WrongRecord(p) => {
                sink.push_hinted(
                    "PV-004",
                    slot.path.clone(),
                    format!(
                        "this path must hold the {name} record, but the file is marked {}",
                        record_name(p.artifact, p.review_kind)
                    ),
                    Some(COLLISION_HINT.into()),
                );
            }
            SlotStatus::Unreadable(why) => {
                sink.push(
                    "PV-005",
                    slot.path.clone(),
                    format!("the {name} record path cannot be read: {why}"),
                );
            }
            SlotStatus::Missing | SlotStatus::Malformed(_) | SlotStatus::Own => {}
        }
    }

    // PV-006..PV-008: each own record.
    for record in &cx.own {
        let (artifact, kind) = (record.artifact(), record.kind());
        let omitted = matches!(
            artifact,
            ArtifactType::Development | ArtifactType::Verification
        ) || (artifact == ArtifactType::Review
            && kind == Some(ReviewKind::Implementation));
        if cx.documentation() && omitted {
            sink.push_hinted(
                "PV-006",
                record.path.clone(),
                format!(
                    "a DOCUMENTATION cycle has no {} record; this cycle cannot create or adopt one as documentation evidence",
                    record_name(artifact, kind)
                ),
                Some("remove the record from this cycle, or ask the user to change the cycle's mode".into()),
            );
        }
        if let Some(first) = &record.duplicate_of {
            sink.push_hinted(
                "PV-007",
                record.path.clone(),
                format!(
                    "a second {} record of this cycle; the first is `{first}`",
                    record_name(artifact, kind)
                ),
                Some("keep one record per type and kind; ask the user which one stands".into()),
            );
            continue;
        }
        if !matches!(artifact, ArtifactType::Scope | ArtifactType::Architecture) {
            let fixed = layout::record_path(artifact, kind, id);
            if record.path != fixed {
                sink.push_hinted(
                    "PV-008",
                    record.path.clone(),
                    format!(
                        "this cycle's {} record must live at `{fixed}`",
                        record_name(artifact, kind)
                    ),
                    Some(format!(
                        "move it to `{fixed}` if nothing else is there (git notices the rename)"
                    )),
                );
            }
        }
    }

    // PV-009..PV-013: Active Work paths.
    let plan_path = layout::record_path(ArtifactType::Development, None, id);
    for p in &cx.active_paths {
        let field = p.field.name();
        // POSIX normalisation keeps a leading `/`, so `/.standards/...` is not the fixed path.
        if p.field == ActivePathField::Development
            && (p.path != plan_path || p.raw.starts_with('/'))
        {
            sink.push_hinted(
                "PV-009",
                STATE_PATH,
                format!("Active Work `Development` is `{}`, but the development plan lives at `{plan_path}`", p.raw),
                Some(format!("set `Development` to `{plan_path}`")),
            );
        }
        match &p.status {
            ActiveStatus::Outside => {
                sink.push(
                    "PV-011",
                    STATE_PATH,
                    format!(
                        "Active Work `{field}` path `{}` points outside the project",
                        p.raw
                    ),
                );
            }
            ActiveStatus::Unreadable(why) => {
                sink.push(
                    "PV-010",
                    STATE_PATH,
                    format!(
                        "Active Work `{field}` path `{}` cannot be read: {why}",
                        p.raw
                    ),
                );
            }
            ActiveStatus::Missing => {
                sink.push_hinted(
                    "PV-011",
                    STATE_PATH,
                    format!(
                        "Active Work `{field}` names `{}`, which does not exist",
                        p.raw
                    ),
                    Some({
                        // `artifact init` writes the fixed path only: a field
                        // naming another path must be set to it afterwards.
                        let fixed = layout::record_path(p.field.artifact(), None, id);
                        if p.path == fixed && !p.raw.starts_with('/') {
                            format!(
                                "create it with `git standards artifact init {}` or correct the path",
                                p.field.artifact()
                            )
                        } else {
                            format!(
                                "correct the path, or create the record with `git standards artifact init {}`, which writes `{fixed}`, and set `{field}` to that path",
                                p.field.artifact()
                            )
                        }
                    }),
                );
            }
            ActiveStatus::Unmarked(_) if p.field == ActivePathField::Development => {
                sink.push_hinted(
                    "PV-012",
                    p.path.clone(),
                    "the development plan has no provenance block",
                    Some("move the unmarked file away, create the plan with `git standards artifact init DEVELOPMENT` (which refuses to overwrite it) and carry its content over".into()),
                );
            }
            ActiveStatus::Foreign(prov) => {
                let what = if prov.cycle != id {
                    format!("cycle `{}`", prov.cycle)
                } else {
                    format!("a {} record", record_name(prov.artifact, prov.review_kind))
                };
                sink.push_hinted(
                    "PV-013",
                    STATE_PATH,
                    format!("Active Work `{field}` names `{}`, which belongs to {what}, not this cycle's {}", p.raw, p.field.artifact()),
                    Some("correct the reference without changing that file".into()),
                );
            }
            ActiveStatus::Malformed | ActiveStatus::Unmarked(_) | ActiveStatus::Own(_) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use crate::model::layout::STATE_PATH;
    use crate::model::state::fresh_template;
    use crate::model::tree::MemTree;
    use crate::model::vocab::ProjectMode;

    const ID: &str = "add-search-20260101T000000Z-0000abcd";

    fn active(extra: &[(&str, &str)], state_edit: impl Fn(String) -> String) -> MemTree {
        let mut t = installed_tree(ProjectMode::Brownfield);
        let s = fresh_template(ProjectMode::Brownfield)
            .replace("`Id`: `UNSET`", &format!("`Id`: `{ID}`"))
            .replace("`Request`: `UNSET`", "`Request`: `Add search`")
            .replace("`CycleMode`: `UNSET`", "`CycleMode`: `STANDARD`")
            .replace(
                "`CompletionPolicy`: `NONE`",
                "`CompletionPolicy`: `FULL_DELIVERABLE`",
            );
        t.insert(STATE_PATH, state_edit(s));
        for (p, c) in extra {
            t.insert(p, c);
        }
        t
    }

    fn block(artifact: &str, cycle: &str) -> String {
        format!("<!-- STANDARDS\nArtifact: {artifact}\nCycle: {cycle}\n-->\n")
    }

    fn rules(t: &MemTree) -> Vec<&'static str> {
        rules_of(t)
            .into_iter()
            .filter(|r| r.starts_with("PV"))
            .collect()
    }

    #[test]
    fn pv_001_malformed_anywhere() {
        let t = installed_tree(ProjectMode::Brownfield).with(
            "docs/x.md",
            "<!-- STANDARDS\nArtifact: NOPE\nCycle: c\n-->\n",
        );
        assert_eq!(rules(&t), ["PV-001"]);
    }

    #[test]
    fn pv_002_to_004_collisions_at_fixed_paths() {
        let v = format!(".standards/docs/verification/{ID}.md");
        assert_eq!(rules(&active(&[(&v, "# notes\n")], |s| s)), ["PV-002"]);
        assert_eq!(
            rules(&active(&[(&v, &block("VERIFICATION", "other-1"))], |s| s)),
            ["PV-003"]
        );
        assert_eq!(
            rules(&active(&[(&v, &block("SCOPE", ID))], |s| s)),
            ["PV-004"]
        );
    }

    #[test]
    fn pv_005_unreadable_fixed_path() {
        let v = format!(".standards/docs/verification/{ID}.md/inner");
        assert_eq!(rules(&active(&[(&v, "x")], |s| s)), ["PV-005"]);
    }

    #[test]
    fn pv_006_omitted_owner_in_documentation_cycle() {
        let d = format!(".standards/docs/development/{ID}.md");
        let t = active(&[(&d, &block("DEVELOPMENT", ID))], |s| {
            s.replace("`CycleMode`: `STANDARD`", "`CycleMode`: `DOCUMENTATION`")
                .replace(
                    "`CompletionPolicy`: `FULL_DELIVERABLE`",
                    "`CompletionPolicy`: `NONE`",
                )
        });
        assert!(rules(&t).contains(&"PV-006"));
    }

    #[test]
    fn pv_007_and_008_duplicates_and_misplaced_records() {
        let fixed = format!(".standards/docs/verification/{ID}.md");
        let t = active(
            &[
                (&fixed, &block("VERIFICATION", ID)),
                ("notes/v.md", &block("VERIFICATION", ID)),
            ],
            |s| s,
        );
        assert_eq!(rules(&t), ["PV-007"]);
        let t = active(&[("notes/v.md", &block("VERIFICATION", ID))], |s| s);
        assert_eq!(rules(&t), ["PV-008"]);
    }

    #[test]
    fn pv_009_to_013_active_work_paths() {
        let plan = format!(".standards/docs/development/{ID}.md");
        let t = active(&[("plans/p.md", &block("DEVELOPMENT", ID))], |s| {
            s.replace("`Development`: `NONE`", "`Development`: `plans/p.md`")
        });
        assert!(rules(&t).contains(&"PV-009"));
        let t = active(&[("docs/scope.md/x", "x")], |s| {
            s.replace("`Scope`: `NONE`", "`Scope`: `docs/scope.md`")
        });
        assert_eq!(rules(&t), ["PV-010"]);
        let t = active(&[], |s| {
            s.replace("`Scope`: `NONE`", "`Scope`: `docs/none.md`")
        });
        assert_eq!(rules(&t), ["PV-011"]);
        let t = active(&[(&plan, "# plan\n")], |s| {
            s.replace("`Development`: `NONE`", &format!("`Development`: `{plan}`"))
        });
        assert!(rules(&t).contains(&"PV-012"));
        let t = active(&[("docs/s.md", &block("SCOPE", "other-2"))], |s| {
            s.replace("`Scope`: `NONE`", "`Scope`: `./docs//s.md`")
        });
        assert_eq!(rules(&t), ["PV-013"]);
        // An unmarked project document is a fine scope.
        let t = active(&[("docs/s.md", "# Scope\n")], |s| {
            s.replace("`Scope`: `NONE`", "`Scope`: `docs/s.md`")
        });
        assert!(rules(&t).is_empty());
    }
}
