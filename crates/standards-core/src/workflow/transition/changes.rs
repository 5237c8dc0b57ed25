//! Which STATE.md fields a move changed, for the transition commands'
//! `--json` result: every field by its protocol name (`Handoff.Reason`,
//! `Active Work.Scope`), the recovery frames and obligations by their
//! headings, each with its value before and after.

use serde::Serialize;
use serde_json::{json, Value};

use crate::model::state::{Baseline, Entry, Stack, StateDoc};

/// One changed field: its protocol name and its values (`null` for an entry
/// that did not exist before, or no longer exists after).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FieldChange {
    pub field: String,
    pub before: Value,
    pub after: Value,
}

/// The fields whose values differ between two parsed STATE.md documents,
/// in a fixed order: the head, Active Work, Handoff, the stacks.
pub fn changed_fields(before: &StateDoc, after: &StateDoc) -> Vec<FieldChange> {
    let mut out = Vec::new();
    let (b, a) = (before, after);
    let mut scalar = |field: &str, x: &str, y: &str| {
        if x != y {
            out.push(FieldChange {
                field: field.to_string(),
                before: x.into(),
                after: y.into(),
            });
        }
    };
    scalar(
        "WorkflowState",
        b.workflow_state.value.as_str(),
        a.workflow_state.value.as_str(),
    );
    scalar(
        "CycleMode",
        b.cycle_mode.value.as_str(),
        a.cycle_mode.value.as_str(),
    );
    scalar(
        "PendingCycleMode",
        b.pending_cycle_mode.value.as_str(),
        a.pending_cycle_mode.value.as_str(),
    );
    scalar(
        "PendingCycleRequest",
        &b.pending_cycle_request.value,
        &a.pending_cycle_request.value,
    );
    scalar(
        "PendingCycleBlockedOn",
        &b.pending_cycle_blocked_on.value,
        &a.pending_cycle_blocked_on.value,
    );
    let (bw, aw) = (&b.active_work, &a.active_work);
    scalar("Active Work.Id", &bw.id.value, &aw.id.value);
    scalar("Active Work.Request", &bw.request.value, &aw.request.value);
    scalar(
        "Active Work.CompletionPolicy",
        bw.completion_policy.value.as_str(),
        aw.completion_policy.value.as_str(),
    );
    scalar("Active Work.Scope", &bw.scope.value, &aw.scope.value);
    scalar(
        "Active Work.Architecture",
        &bw.architecture.value,
        &aw.architecture.value,
    );
    scalar(
        "Active Work.Development",
        &bw.development.value,
        &aw.development.value,
    );
    scalar(
        "Active Work.PromotionReason",
        &bw.promotion_reason.value,
        &aw.promotion_reason.value,
    );
    scalar(
        "Active Work.AuditTarget",
        &bw.audit_target.value,
        &aw.audit_target.value,
    );
    scalar(
        "Active Work.BlockedOn",
        &bw.blocked_on.value,
        &aw.blocked_on.value,
    );
    scalar(
        "Active Work.PendingVerificationCadence",
        bw.pending_verification_cadence.value.as_str(),
        aw.pending_verification_cadence.value.as_str(),
    );
    let (bh, ah) = (&b.handoff, &a.handoff);
    scalar("Handoff.Kind", &bh.kind.value, &ah.kind.value);
    scalar("Handoff.From", &bh.from.value, &ah.from.value);
    scalar(
        "Handoff.FailureType",
        &bh.failure_type.value,
        &ah.failure_type.value,
    );
    scalar("Handoff.Reason", &bh.reason.value, &ah.reason.value);
    let (x, y) = (baseline(&bw.baseline), baseline(&aw.baseline));
    if x != y {
        out.push(FieldChange {
            field: "Active Work.BaselineReconciliation".into(),
            before: x,
            after: y,
        });
    }
    stack(&mut out, "Recovery", "Frame", &b.recovery, &a.recovery);
    stack(
        &mut out,
        "Outstanding Obligations",
        "Obligation",
        &b.obligations,
        &a.obligations,
    );
    out
}

/// `"NONE"`, or the entries as `[{SourceCycle, Request}]`.
fn baseline(b: &Baseline) -> Value {
    match b {
        Baseline::None => "NONE".into(),
        Baseline::Entries(e) => e
            .iter()
            .map(|e| json!({"SourceCycle": e.source_cycle.value, "Request": e.request.value}))
            .collect(),
        Baseline::Malformed(why) => json!({ "malformed": why }),
    }
}

fn entry(e: &Entry) -> Value {
    let mut map = serde_json::Map::new();
    for (name, value) in &e.fields {
        map.entry(name.clone())
            .or_insert_with(|| value.value.clone().into());
    }
    Value::Object(map)
}

/// `<Section>.Active`, then each entry (`Recovery.Frame 2`) that was added,
/// removed or edited, with all its fields.
fn stack(out: &mut Vec<FieldChange>, section: &str, heading: &str, b: &Stack, a: &Stack) {
    if b.active.value != a.active.value {
        out.push(FieldChange {
            field: format!("{section}.Active"),
            before: b.active.value.into(),
            after: a.active.value.into(),
        });
    }
    for i in 0..b.entries.len().max(a.entries.len()) {
        let (x, y) = (b.entries.get(i), a.entries.get(i));
        let (vx, vy) = (x.map_or(Value::Null, entry), y.map_or(Value::Null, entry));
        if vx != vy || x.map(|e| &e.label) != y.map(|e| &e.label) {
            let label = y.or(x).map_or(String::new(), |e| e.label.clone());
            out.push(FieldChange {
                field: format!("{section}.{heading} {label}"),
                before: vx,
                after: vy,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::state::fresh_template;
    use crate::model::vocab::ProjectMode;

    fn doc(text: &str) -> StateDoc {
        StateDoc::parse(text).unwrap()
    }

    #[test]
    fn an_unchanged_document_has_no_changes() {
        let t = fresh_template(ProjectMode::Brownfield);
        assert!(changed_fields(&doc(&t), &doc(&t)).is_empty());
    }

    #[test]
    fn scalar_fields_are_named_as_the_protocol_names_them() {
        let t = fresh_template(ProjectMode::Brownfield);
        let u = t
            .replace(
                "`PendingCycleMode`: `UNSET`",
                "`PendingCycleMode`: `DOCUMENTATION`",
            )
            .replace("`Scope`: `NONE`", "`Scope`: `docs/scope/x.md`");
        let c = changed_fields(&doc(&t), &doc(&u));
        let names: Vec<&str> = c.iter().map(|c| c.field.as_str()).collect();
        assert_eq!(names, ["PendingCycleMode", "Active Work.Scope"]);
        assert_eq!(c[0].before, "UNSET");
        assert_eq!(c[0].after, "DOCUMENTATION");
    }
}
