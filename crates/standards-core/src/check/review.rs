//! RV: review reports and the implementation-reviewed closure.
//!
//! Applies to every own `REVIEW` record that passed PV-007, in own-record
//! order. RV-001 compares the visible header with the provenance block; the
//! closure rules RV-002..RV-012 come from [`closure::assess`], which masks the
//! review (check-rules §1.12) and reads its `## Implementation-Reviewed
//! Closure` section.

use crate::model::fields;
use crate::model::vocab::{ArtifactType, CompletionPolicy, CycleMode, ReviewKind, WorkflowState};
use crate::records::closure::{self, FieldDefect, Finding};
use crate::records::record::header_fields;

use super::{Cx, OwnRecord, RuleInfo, Sink};

pub const RULES: &[RuleInfo] = &[
    RuleInfo::rule("RV-001", "Visible review kind"),
    RuleInfo::rule("RV-002", "Closure assessment required"),
    RuleInfo::rule("RV-003", "One closure section"),
    RuleInfo::rule("RV-004", "Closure only in the implementation review"),
    RuleInfo::rule("RV-005", "Concrete closure fields"),
    RuleInfo::rule("RV-006", "Closure policy"),
    RuleInfo::rule("RV-007", "Eligibility value"),
    RuleInfo::rule("RV-008", "Eligible at sign-off readiness"),
    RuleInfo::rule("RV-009", "Omitted phases"),
    RuleInfo::rule("RV-010", "Eligible closure has substance"),
    RuleInfo::rule("RV-011", "Eligible closure has no unmet requirements"),
    RuleInfo::rule("RV-012", "Ineligible closure names its gaps"),
];

pub fn check(cx: &Cx, sink: &mut Sink) {
    if cx.active_id().is_none() {
        return;
    }
    for record in cx
        .own_records()
        .filter(|r| r.artifact() == ArtifactType::Review)
    {
        let Some(kind) = record.kind() else { continue };
        visible_kind(record, kind, sink);
        let required = kind == ReviewKind::Implementation && signoff_under_shorter_policy(cx);
        let assessment = closure::assess(&record.text, required, kind);
        let line = assessment.sections.first().map(|s| s.line);
        for finding in &assessment.findings {
            report(record, finding, line, sink);
        }
    }
}

/// RV-001: the header's `ReviewKind` must repeat the provenance block's.
fn visible_kind(record: &OwnRecord, kind: ReviewKind, sink: &mut Sink) {
    let header = header_fields(&record.text);
    let visible = fields::first(&header, "ReviewKind").map(|f| f.value.as_str());
    if visible == Some(kind.as_str()) {
        return;
    }
    let message = match visible {
        None => format!(
            "the review header has no `ReviewKind` field; the provenance block marks this review `{kind}`"
        ),
        Some(v) => format!(
            "the review header says `ReviewKind` `{v}`, but the provenance block marks this review `{kind}`"
        ),
    };
    sink.push_hinted(
        "RV-001",
        record.path.clone(),
        message,
        Some(format!(
            "Reviewer: set the header field `ReviewKind` to `{kind}`; never edit the provenance block"
        )),
    );
}

/// The closure is required: a `STANDARD` cycle waiting for sign-off under
/// `IMPLEMENTATION_REVIEWED` (only the implementation review is asked).
fn signoff_under_shorter_policy(cx: &Cx) -> bool {
    cx.doc().is_some_and(|d| {
        d.cycle_mode.value == CycleMode::Standard
            && d.active_work.completion_policy.value == CompletionPolicy::ImplementationReviewed
            && d.workflow_state.value == WorkflowState::AwaitingUserSignoff
    })
}

/// Turns one closure finding into a problem on the review.
fn report(record: &OwnRecord, finding: &Finding, line: Option<usize>, sink: &mut Sink) {
    let at = line.map(|l| format!(" (line {l})")).unwrap_or_default();
    let section = format!("`## {}` section{at}", closure::HEADING);
    let fix_field = |name: &str| {
        format!(
            "Reviewer: write `{name}` exactly once in the closure section, with a concrete value"
        )
    };
    let (message, hint) = match finding {
        Finding::Missing => (
            format!(
                "the cycle is waiting for sign-off under `IMPLEMENTATION_REVIEWED`, but this implementation review has no `## {}` section (commented-out or fenced examples do not count)",
                closure::HEADING
            ),
            "Reviewer: assess early-closure eligibility and record it in that section; without an ELIGIBLE assessment the cycle must leave AWAITING_USER_SIGNOFF through recovery, or the user may choose FULL_DELIVERABLE".to_string(),
        ),
        Finding::Repeated(lines) => (
            format!(
                "{} current `## {}` sections (lines {}); a review holds exactly one current closure assessment",
                lines.len(),
                closure::HEADING,
                join(lines)
            ),
            "Reviewer: keep the current assessment under this heading and move superseded ones under `## Closure Assessment History`".to_string(),
        ),
        Finding::NotImplementationReview(l) => (
            format!(
                "a final-deliverable review holds a `## {}` section (line {l}); closure eligibility belongs only in the cycle's implementation review",
                closure::HEADING
            ),
            "Reviewer: record the closure assessment in the implementation review, or retitle this section if it only quotes history".to_string(),
        ),
        Finding::Field(name, defect) => {
            let what = match defect {
                FieldDefect::Missing => "is missing from".to_string(),
                FieldDefect::Repeated(n) => format!("is written {n} times in"),
                FieldDefect::Empty => "is empty in".to_string(),
                FieldDefect::Placeholder(v) => format!("still holds the template placeholder `{v}` in"),
            };
            (format!("closure field `{name}` {what} the {section}"), fix_field(name))
        }
        Finding::Policy(v) => (
            format!("closure `Policy` is `{v}` in the {section}; the section assesses only `IMPLEMENTATION_REVIEWED`"),
            "Reviewer: set `Policy` to `IMPLEMENTATION_REVIEWED`".to_string(),
        ),
        Finding::EligibilityValue(v) => (
            format!(
                "closure `Eligibility` is `{v}` in the {section}; it must be one of {}",
                closure::ELIGIBILITY.join(", ")
            ),
            "Reviewer: record `NOT_ASSESSED`, `INELIGIBLE` or `ELIGIBLE`".to_string(),
        ),
        Finding::NotEligible(v) => (
            format!(
                "the cycle is waiting for sign-off under `IMPLEMENTATION_REVIEWED`, but closure `Eligibility` is {} in the {section}; only an ELIGIBLE closure permits the shorter completion",
                v.as_deref().map_or("not usable".to_string(), |v| format!("`{v}`"))
            ),
            "Reviewer: reassess closure eligibility; while it is not ELIGIBLE, route the unmet requirements to their owners through recovery (or the user may choose FULL_DELIVERABLE) instead of waiting for sign-off".to_string(),
        ),
        Finding::OmittedPhases(v) => (
            format!(
                "closure `Omitted Phases` is `{v}` in the {section}; it must list exactly {}",
                closure::OMITTED_PHASES.join(", ")
            ),
            "Reviewer: set `Omitted Phases` to `DOCUMENTING, REVIEWING_FINAL, SYNCHRONIZING`".to_string(),
        ),
        Finding::EligibleWithoutValue(name) => (
            format!("an ELIGIBLE closure needs a concrete `{name}`, but it is `NONE` in the {section}"),
            format!("Reviewer: fill in `{name}`, or record the closure as not ELIGIBLE"),
        ),
        Finding::EligibleWithUnmet(v) => (
            format!("an ELIGIBLE closure lists unmet requirements (`{v}`) in the {section}; ELIGIBLE requires `Unmet Requirements` `NONE`"),
            "Reviewer: record the closure as INELIGIBLE while requirements are unmet, or set `Unmet Requirements` to `NONE` once they are met".to_string(),
        ),
        Finding::IneligibleWithoutGaps => (
            format!("an INELIGIBLE closure must name its unmet requirements and their owners, but `Unmet Requirements` is `NONE` in the {section}"),
            "Reviewer: list each unmet requirement with its owner in `Unmet Requirements`".to_string(),
        ),
    };
    sink.push_hinted(finding.rule(), record.path.clone(), message, Some(hint));
}

fn join(lines: &[usize]) -> String {
    lines
        .iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::*;

    fn rv(tree: &crate::model::tree::MemTree) -> Vec<&'static str> {
        rules_with_prefix(tree, "RV")
    }

    #[test]
    fn f_ir_and_f_std_have_sound_reviews() {
        assert_eq!(rv(&f_ir()), Vec::<&str>::new());
        assert_eq!(rv(&f_std()), Vec::<&str>::new());
    }

    #[test]
    fn crlf_and_bom_reviews_read_the_same() {
        let t = edit(f_ir(), IR_REVIEW, |s| {
            format!("\u{feff}{}", s.replace('\n', "\r\n"))
        });
        assert_eq!(rv(&t), Vec::<&str>::new());
    }

    #[test]
    fn rv_001_visible_kind() {
        let t = edit(f_ir(), IR_REVIEW, |s| {
            s.replace(
                "`ReviewKind`: `IMPLEMENTATION`",
                "`ReviewKind`: `FINAL_DELIVERABLE`",
            )
        });
        assert_eq!(rv(&t), ["RV-001"]);
        let t = edit(f_ir(), IR_REVIEW, |s| {
            s.replace("`ReviewKind`: `IMPLEMENTATION`", "")
        });
        assert_eq!(rv(&t), ["RV-001"]);
    }

    #[test]
    fn rv_002_only_at_signoff_under_the_shorter_policy() {
        let without = |s: String| {
            let start = s.find("## Implementation-Reviewed Closure").unwrap();
            let end = s.find("## Progress and Conclusion").unwrap();
            format!("{}{}", &s[..start], &s[end..])
        };
        assert_eq!(rv(&edit(f_ir(), IR_REVIEW, without)), ["RV-002"]);
        // SC-POL-016: the same with a RESUME into sign-off.
        let t = edit(edit(f_ir(), IR_REVIEW, without), STATE, |s| {
            s.replace("`Kind`: `FORWARD`", "`Kind`: `RESUME`")
        });
        assert_eq!(rv(&t), ["RV-002"]);
        // Before sign-off readiness, or under FULL_DELIVERABLE, nothing is required.
        let t = edit(edit(f_ir(), IR_REVIEW, without), STATE, |s| {
            s.replace(
                "`WorkflowState`: `AWAITING_USER_SIGNOFF`",
                "`WorkflowState`: `REVIEWING_IMPLEMENTATION`",
            )
        });
        assert_eq!(rv(&t), Vec::<&str>::new());
    }

    #[test]
    fn rv_004_closure_moved_to_the_final_review() {
        // SC-POL-021
        let review = read(&f_ir(), IR_REVIEW);
        let start = review.find("## Implementation-Reviewed Closure").unwrap();
        let end = review.find("## Progress and Conclusion").unwrap();
        let closure = review[start..end].to_string();
        let final_review = format!(
            "<!-- STANDARDS\nArtifact: REVIEW\nCycle: {STD_ID}\nReviewKind: FINAL_DELIVERABLE\n-->\n\n# Review Report\n\n`Cycle`: `{STD_ID}` `ReviewKind`: `FINAL_DELIVERABLE`\n`Status`: `COMPLETE` `User Style`: `NONE`\n\nAC-001 and AC-002 assessed.\n\n{closure}"
        );
        let mut t = edit(f_ir(), IR_REVIEW, |s| s.replace(&closure, ""));
        t.insert(&std_final_review_path(), final_review);
        let problems = problems_with_prefix(&t, "RV");
        assert_eq!(
            problems,
            [
                ("RV-004", std_final_review_path()),
                ("RV-002", IR_REVIEW.to_string())
            ]
        );
    }

    #[test]
    fn closure_values_reach_the_problems() {
        let set = |field: &str, value: &str| {
            let field = field.to_string();
            let value = value.to_string();
            edit(f_ir(), IR_REVIEW, move |s| set_field(&s, &field, &value))
        };
        assert_eq!(rv(&set("Eligibility", "NOT_ASSESSED")), ["RV-008"]);
        assert_eq!(rv(&set("Eligibility", "PASSED")), ["RV-007", "RV-008"]);
        assert_eq!(rv(&set("Policy", "FULL_DELIVERABLE")), ["RV-006"]);
        assert_eq!(rv(&set("Evidence", "NONE")), ["RV-010"]);
        assert_eq!(rv(&set("Unmet Requirements", "Docs.")), ["RV-011"]);
        assert_eq!(rv(&set("Omitted Phases", "DOCUMENTING")), ["RV-009"]);
        assert_eq!(rv(&set("Evidence", "<evidence>")), ["RV-005"]);
        let t = edit(set("Eligibility", "INELIGIBLE"), STATE, |s| {
            s.replace(
                "`WorkflowState`: `AWAITING_USER_SIGNOFF`",
                "`WorkflowState`: `REVIEWING_IMPLEMENTATION`",
            )
        });
        assert_eq!(rv(&t), ["RV-012"]);
        let twice = edit(f_ir(), IR_REVIEW, |s| {
            let start = s.find("## Implementation-Reviewed Closure").unwrap();
            let end = s.find("## Progress and Conclusion").unwrap();
            let section = s[start..end].to_string();
            s.replace(&section, &format!("{section}{section}"))
        });
        assert_eq!(rv(&twice), ["RV-003"]);
    }
}
