use super::super::testing::installed_tree;
use super::super::{run, Options, Problem};
use crate::model::vocab::ProjectMode;

const ID: &str = "add-user-search-20260927T190146Z-7bef0f04";

/// A STATE.md with the given head values, handoff, and Recovery and
/// Outstanding Obligations bodies (after their headings).
fn state(ws: &str, mode: &str, handoff: &str, recovery: &str, obligations: &str) -> String {
    let policy = if mode == "STANDARD" {
        "FULL_DELIVERABLE"
    } else {
        "NONE"
    };
    let mode = if ws == "SIGNED_OFF" || ws == "CANCELLED" {
        "UNSET"
    } else {
        mode
    };
    format!(
            "# S.T.A.N.D.A.R.D.S. Workflow State\n\n`WorkflowState`: `{ws}` `CycleMode`: `{mode}` `PendingCycleMode`: `UNSET`\n`PendingCycleRequest`: `UNSET` `PendingCycleBlockedOn`: `NONE`\n\n## Active Work\n\n`CompletionPolicy`: `{policy}` `Id`: `{ID}` `Request`: `Add user search` `Scope`: `NONE`\n`Architecture`: `NONE` `Development`: `NONE` `PromotionReason`: `NONE`\n`AuditTarget`: `NONE` `BlockedOn`: `NONE` `PendingVerificationCadence`: `NONE`\n\n`BaselineReconciliation`: `NONE`\n\n## Handoff\n\n{handoff}\n\n## Recovery\n\n{recovery}\n\n## Outstanding Obligations\n\n{obligations}\n"
        )
}

fn handoff(kind: &str, from: &str, ft: &str) -> String {
    format!("`Kind`: `{kind}` `From`: `{from}` `FailureType`: `{ft}` `Reason`: `A defect.`")
}

fn frame(label: &str, from: &str, owner: &str, ft: &str, resume: &str, rerun: &str) -> String {
    format!(
            "### Frame {label}\n\n`From`: `{from}` `Owner`: `{owner}` `FailureType`: `{ft}`\n`Reason`: `A defect.` `ResumeAt`: `{resume}` `RerunThrough`: `{rerun}`\n"
        )
}

fn stack(frames: &[String]) -> String {
    let active = !frames.is_empty();
    format!("`Active`: `{active}`\n\n{}", frames.join("\n"))
}

const NO_OBLIGATIONS: &str = "`Active`: `false`";

/// The RC problems of a run on `state_text`.
fn rc(state_text: &str) -> Vec<Problem> {
    let mut tree = installed_tree(ProjectMode::Brownfield);
    tree.insert(crate::model::layout::STATE_PATH, state_text);
    run(&tree, None, Options::default())
        .problems
        .into_iter()
        .filter(|p| p.rule.starts_with("RC-"))
        .collect()
}

fn rules(problems: &[Problem]) -> Vec<&'static str> {
    problems.iter().map(|p| p.rule).collect()
}

/// SC-REC-002: an architecture defect found in testing, routed with its frame.
fn architecture_correction(frame_text: &str) -> String {
    state(
        "ARCHITECTING",
        "STANDARD",
        &handoff("FAILURE", "TESTING", "ARCHITECTURE"),
        &stack(&[frame_text.to_string()]),
        NO_OBLIGATIONS,
    )
}

fn good_frame() -> String {
    frame(
        "1",
        "TESTING",
        "ARCHITECTING",
        "ARCHITECTURE",
        "TESTING",
        "NONE",
    )
}

#[test]
fn a_correction_with_its_frame_is_clean() {
    assert!(rc(&architecture_correction(&good_frame())).is_empty());
}

#[test]
fn rc_001_flag_and_stack_disagree() {
    let text = architecture_correction(&good_frame()).replace(
        "## Recovery\n\n`Active`: `true`",
        "## Recovery\n\n`Active`: `false`",
    );
    let p = rc(&text);
    assert_eq!(rules(&p), ["RC-001"]);
    assert!(p[0]
        .message
        .contains("`Active`: `false` but still holds 1 frame"));

    let text = state(
        "TESTING",
        "STANDARD",
        &handoff("RESUME", "ARCHITECTING", "NONE"),
        "`Active`: `true`",
        NO_OBLIGATIONS,
    );
    let p = rc(&text);
    assert_eq!(rules(&p), ["RC-001"]);
    assert!(p[0].message.contains("holds no `### Frame` entry"));
    assert!(p[0]
        .hint
        .as_deref()
        .unwrap()
        .starts_with("recovery ends when"));
}

#[test]
fn rc_002_one_problem_per_misnumbered_frame() {
    let frames = [
        good_frame().replace("### Frame 1", "### Frame 2"),
        frame(
            "3",
            "ARCHITECTING",
            "SCOPING",
            "SCOPING",
            "ARCHITECTING",
            "NONE",
        ),
    ];
    let text = state(
        "SCOPING",
        "STANDARD",
        &handoff("FAILURE", "ARCHITECTING", "SCOPING"),
        &stack(&frames),
        NO_OBLIGATIONS,
    );
    let p = rc(&text);
    assert_eq!(rules(&p), ["RC-002", "RC-002"]);
    let text = architecture_correction(&good_frame().replace("### Frame 1", "### Frame 1 (scope)"));
    let p = rc(&text);
    assert_eq!(rules(&p), ["RC-002"]);
    assert!(
        p[0].message
            .starts_with("`### Frame 1 (scope)` (line 22) is frame 1"),
        "{}",
        p[0].message
    );
}

#[test]
fn rc_003_to_rc_008_per_field() {
    // Missing ResumeAt: RC-003 only (RC-006 needs both states).
    let p = rc(&architecture_correction(
        &good_frame().replace("`ResumeAt`: `TESTING` ", ""),
    ));
    assert_eq!(rules(&p), ["RC-003"]);
    assert!(p[0].message.ends_with("has no `ResumeAt` field"));
    // An invalid From is a state problem; RC-016 then sees a mismatch too.
    let p = rc(&architecture_correction(
        &good_frame().replace("`From`: `TESTING`", "`From`: `QA`"),
    ));
    assert_eq!(rules(&p), ["RC-003", "RC-016"]);
    assert!(p[0]
        .message
        .contains("`From` is `QA`, which is not a workflow state"));

    let p = rc(&architecture_correction(
        &good_frame().replace("`FailureType`: `ARCHITECTURE`", "`FailureType`: `NONE`"),
    ));
    assert_eq!(rules(&p), ["RC-004"]);

    let p = rc(&architecture_correction(&good_frame().replace(
        "`FailureType`: `ARCHITECTURE`",
        "`FailureType`: `VERIFICATION`",
    )));
    assert_eq!(rules(&p), ["RC-005"]);
    assert!(p[0]
        .message
        .contains("`VERIFICATION` is corrected by `TESTING`"));
    let p = rc(&architecture_correction(&good_frame().replace(
        "`FailureType`: `ARCHITECTURE`",
        "`FailureType`: `REVIEW`",
    )));
    assert!(p[0]
        .message
        .contains("`REVIEWING_IMPLEMENTATION` or `REVIEWING_FINAL`"));

    let p = rc(&architecture_correction(
        &good_frame().replace("`ResumeAt`: `TESTING`", "`ResumeAt`: `SYNCHRONIZING`"),
    ));
    assert_eq!(rules(&p), ["RC-006"]);

    for reason in ["", "`Reason`: ` \u{feff} ` "] {
        let p = rc(&architecture_correction(
            &good_frame().replace("`Reason`: `A defect.` ", reason),
        ));
        assert_eq!(rules(&p), ["RC-007"], "{reason:?}");
    }

    let p = rc(&architecture_correction(
        &good_frame().replace("`RerunThrough`: `NONE`", "`RerunThrough`: `NOWHERE`"),
    ));
    assert_eq!(rules(&p), ["RC-008"]);
    let p = rc(&architecture_correction(
        &good_frame().replace(" `RerunThrough`: `NONE`", ""),
    ));
    assert_eq!(
        rules(&p),
        ["RC-008"],
        "absent fails, and RC-015 needs exactly NONE"
    );
}

#[test]
fn rc_009_same_state_frames_in_every_mode() {
    let same = frame(
        "1",
        "ARCHITECTING",
        "ARCHITECTING",
        "ARCHITECTURE",
        "ARCHITECTING",
        "NONE",
    );
    for mode in ["STANDARD", "DOCUMENTATION"] {
        let text = state(
            "ARCHITECTING",
            mode,
            &handoff("FAILURE", "ARCHITECTING", "ARCHITECTURE"),
            &stack(std::slice::from_ref(&same)),
            NO_OBLIGATIONS,
        );
        assert_eq!(rules(&rc(&text)), ["RC-009"], "{mode}");
    }
    // Both fields absent: reported as missing, not as a same-state frame.
    let bare = "### Frame 1\n\n`FailureType`: `ARCHITECTURE` `Reason`: `A defect.` `ResumeAt`: `ARCHITECTING` `RerunThrough`: `NONE`\n".to_string();
    let text = state(
        "ARCHITECTING",
        "DOCUMENTATION",
        &handoff("FAILURE", "ARCHITECTING", "ARCHITECTURE"),
        &stack(&[bare]),
        NO_OBLIGATIONS,
    );
    assert_eq!(
        rules(&rc(&text)),
        ["RC-003", "RC-003", "RC-010", "RC-011"],
        "missing, and off the documentation route, but not same-state"
    );
}

fn documentation(ws: &str, handoff_text: &str, frames: &[String]) -> Vec<Problem> {
    rc(&state(
        ws,
        "DOCUMENTATION",
        handoff_text,
        &stack(frames),
        NO_OBLIGATIONS,
    ))
}

#[test]
fn rc_010_to_rc_013_documentation_frames() {
    // SC-DOC-031 variants on Frame(REVIEWING_FINAL, AUDITING, PROJECT_CONTEXT, REVIEWING_FINAL).
    let failure = handoff("FAILURE", "REVIEWING_FINAL", "PROJECT_CONTEXT");
    let base = frame(
        "1",
        "REVIEWING_FINAL",
        "AUDITING",
        "PROJECT_CONTEXT",
        "REVIEWING_FINAL",
        "NONE",
    );
    assert!(documentation("AUDITING", &failure, std::slice::from_ref(&base)).is_empty());

    let f = frame(
        "1",
        "TESTING",
        "AUDITING",
        "PROJECT_CONTEXT",
        "TESTING",
        "NONE",
    );
    let p = documentation(
        "AUDITING",
        &handoff("FAILURE", "TESTING", "PROJECT_CONTEXT"),
        &[f],
    );
    assert_eq!(rules(&p), ["RC-010", "RC-010"]);

    let f = frame(
        "1",
        "REVIEWING_FINAL",
        "DEVELOPING",
        "IMPLEMENTATION",
        "REVIEWING_FINAL",
        "NONE",
    );
    let p = documentation(
        "DEVELOPING",
        &handoff("FAILURE", "REVIEWING_FINAL", "IMPLEMENTATION"),
        &[f],
    );
    assert_eq!(rules(&p), ["RC-011", "RC-012"]);

    let f = frame(
        "1",
        "REVIEWING_FINAL",
        "REVIEWING_IMPLEMENTATION",
        "REVIEW",
        "REVIEWING_FINAL",
        "NONE",
    );
    let p = documentation(
        "REVIEWING_IMPLEMENTATION",
        &handoff("FAILURE", "REVIEWING_FINAL", "REVIEW"),
        &[f],
    );
    assert_eq!(rules(&p), ["RC-011", "RC-012"]);
    assert!(p[1]
        .message
        .contains("owned by `REVIEWING_FINAL`, not `REVIEWING_IMPLEMENTATION`"));

    for rerun in ["TESTING", "AWAITING_USER_SIGNOFF", "AUDITING"] {
        let f = base.replace(
            "`RerunThrough`: `NONE`",
            &format!("`RerunThrough`: `{rerun}`"),
        );
        let p = documentation("AUDITING", &failure, &[f]);
        assert_eq!(rules(&p), ["RC-013"], "{rerun}");
    }
    // An owner outside the phases leaves any phase later than it (RC-011 reports the owner).
    let f = frame(
        "1",
        "REVIEWING_FINAL",
        "DEVELOPING",
        "IMPLEMENTATION",
        "REVIEWING_FINAL",
        "SCOPING",
    );
    let p = documentation("SCOPING", &handoff("RESUME", "DEVELOPING", "NONE"), &[f]);
    assert_eq!(rules(&p), ["RC-011", "RC-012"]);
}

#[test]
fn rc_014_documentation_rerun_window() {
    // SC-DOC-044: RW with Owner ARCHITECTING, rerun through SYNCHRONIZING.
    let f = frame(
        "1",
        "AWAITING_USER_SIGNOFF",
        "ARCHITECTING",
        "ARCHITECTURE",
        "AWAITING_USER_SIGNOFF",
        "SYNCHRONIZING",
    );
    let resume = handoff("RESUME", "DOCUMENTING", "NONE");
    let p = documentation("SCOPING", &resume, std::slice::from_ref(&f));
    assert_eq!(rules(&p), ["RC-014"]);
    assert!(p[0]
        .message
        .contains("outside the rerun window `ARCHITECTING` through `SYNCHRONIZING`"));
    for inside in ["ARCHITECTING", "DOCUMENTING", "SYNCHRONIZING"] {
        assert!(
            documentation(inside, &resume, std::slice::from_ref(&f)).is_empty(),
            "{inside}"
        );
    }
    // AWAITING_USER_SIGNOFF counts as before the owner (RC-023 reports the frame too).
    let p = documentation("AWAITING_USER_SIGNOFF", &resume, std::slice::from_ref(&f));
    assert_eq!(rules(&p), ["RC-014", "RC-023"]);
    // Only the active frame's window counts.
    let older = frame(
        "1",
        "AWAITING_USER_SIGNOFF",
        "SCOPING",
        "SCOPING",
        "AWAITING_USER_SIGNOFF",
        "ARCHITECTING",
    );
    let nested = frame(
        "2",
        "ARCHITECTING",
        "AUDITING",
        "PROJECT_CONTEXT",
        "ARCHITECTING",
        "NONE",
    );
    let p = documentation(
        "AUDITING",
        &handoff("FAILURE", "ARCHITECTING", "PROJECT_CONTEXT"),
        &[older, nested],
    );
    assert!(p.is_empty(), "{p:?}");
    // Not in a STANDARD cycle.
    let text = state("SCOPING", "STANDARD", &resume, &stack(&[f]), NO_OBLIGATIONS);
    assert!(rc(&text).is_empty());
}

#[test]
fn rc_015_the_unfinished_owner_holds_the_state() {
    let text = state(
        "TESTING",
        "STANDARD",
        &handoff("RESUME", "ARCHITECTING", "NONE"),
        &stack(&[good_frame()]),
        NO_OBLIGATIONS,
    );
    let p = rc(&text);
    assert_eq!(rules(&p), ["RC-015"]);
    assert!(p[0]
        .hint
        .as_deref()
        .unwrap()
        .starts_with("only Architect (`ARCHITECTING`)"));
    // Once RerunThrough is set, reruns may move on.
    let text = text.replace("`RerunThrough`: `NONE`", "`RerunThrough`: `DEVELOPING`");
    assert!(rc(&text).is_empty());
    // Only the active (last) frame is compared.
    let nested = [
        frame(
            "1",
            "DEVELOPING",
            "TESTING",
            "VERIFICATION",
            "DEVELOPING",
            "NONE",
        ),
        frame(
            "2",
            "TESTING",
            "DEVELOPING",
            "IMPLEMENTATION",
            "TESTING",
            "NONE",
        ),
    ];
    let text = state(
        "DEVELOPING",
        "STANDARD",
        &handoff("FAILURE", "TESTING", "IMPLEMENTATION"),
        &stack(&nested),
        NO_OBLIGATIONS,
    );
    assert!(rc(&text).is_empty());
}

#[test]
fn rc_016_state_changing_corrections_push_a_frame() {
    // SC-REC-001.
    let text = state(
        "ARCHITECTING",
        "STANDARD",
        &handoff("FAILURE", "TESTING", "ARCHITECTURE"),
        "`Active`: `false`",
        NO_OBLIGATIONS,
    );
    let p = rc(&text);
    assert_eq!(rules(&p), ["RC-016"]);
    assert!(p[0].message.contains("no recovery frame records it"));
    // A USER_REWORK whose last frame belongs to another route.
    let text = state(
        "SCOPING",
        "STANDARD",
        &handoff("USER_REWORK", "TESTING", "SCOPING"),
        &stack(&[good_frame()]),
        NO_OBLIGATIONS,
    );
    let p = rc(&text);
    assert_eq!(rules(&p), ["RC-015", "RC-016"]);
    assert!(p[1]
        .message
        .contains("(`From` `TESTING`, `Owner` `ARCHITECTING`)"));
    // Same-state corrections and other kinds need no frame.
    for h in [
        handoff("FAILURE", "ARCHITECTING", "ARCHITECTURE"),
        handoff("USER_REWORK", "ARCHITECTING", "ARCHITECTURE"),
        handoff("FORWARD", "SCOPING", "NONE"),
        handoff("FAILURE", "NONE", "ARCHITECTURE"),
    ] {
        let text = state(
            "ARCHITECTING",
            "STANDARD",
            &h,
            "`Active`: `false`",
            NO_OBLIGATIONS,
        );
        assert!(rc(&text).is_empty(), "{h}");
    }
}

fn promoted(obligations: &str) -> String {
    state(
        "AUDITING",
        "STANDARD",
        &handoff("PROMOTE", "DEVELOPING", "NONE"),
        "`Active`: `false`",
        obligations,
    )
}

const OBLIGATION: &str = "### Obligation 1\n\n`Owner`: `DEVELOPING` `FailureType`: `IMPLEMENTATION`\n`Reason`: `A defect.`\n";

#[test]
fn rc_017_to_rc_022_obligations() {
    assert!(rc(&promoted(&format!("`Active`: `true`\n\n{OBLIGATION}"))).is_empty());

    let p = rc(&promoted("`Active`: `true`"));
    assert_eq!(rules(&p), ["RC-017"]);
    let p = rc(&promoted(&format!("`Active`: `false`\n\n{OBLIGATION}")));
    assert_eq!(rules(&p), ["RC-017"]);
    assert!(p[0].message.ends_with("still holds 1 obligation"));

    let two = format!(
        "`Active`: `true`\n\n{OBLIGATION}\n{}",
        OBLIGATION.replace("Obligation 1", "Obligation 3")
    );
    assert_eq!(rules(&rc(&promoted(&two))), ["RC-018"]);

    let with = |from: &str, to: &str| {
        rc(&promoted(&format!(
            "`Active`: `true`\n\n{}",
            OBLIGATION.replace(from, to)
        )))
    };
    assert_eq!(rules(&with("`Owner`: `DEVELOPING` ", "")), ["RC-020"]);
    assert_eq!(rules(&with("`DEVELOPING`", "`DEV`")), ["RC-020"]);
    assert_eq!(
        rules(&with("`FailureType`: `IMPLEMENTATION`", "")),
        ["RC-021"]
    );
    assert_eq!(rules(&with("`IMPLEMENTATION`", "`NONE`")), ["RC-021"]);
    let p = with("`DEVELOPING`", "`TESTING`");
    assert_eq!(rules(&p), ["RC-021"]);
    assert!(p[0].message.contains(
        "`IMPLEMENTATION` is corrected by `DEVELOPING`, but the obligation's `Owner` is `TESTING`"
    ));
    assert_eq!(
        rules(&with("`Reason`: `A defect.`", "`Reason`: `  `")),
        ["RC-022"]
    );
    assert_eq!(rules(&with("`Reason`: `A defect.`", "")), ["RC-022"]);
}

#[test]
fn rc_019_documentation_cycles_have_no_obligations() {
    for obligations in [
        "`Active`: `true`".to_string(),
        format!("`Active`: `true`\n\n{OBLIGATION}"),
    ] {
        let text = state(
            "AUDITING",
            "DOCUMENTATION",
            &handoff("INITIAL", "NONE", "NONE"),
            "`Active`: `false`",
            &obligations,
        );
        let p = rc(&text);
        assert!(
            p.iter().filter(|p| p.rule == "RC-019").count() == 1,
            "{p:?}"
        );
    }
}

#[test]
fn rc_023_clean_stacks_at_signoff_and_after() {
    let rework = frame(
        "1",
        "AWAITING_USER_SIGNOFF",
        "SCOPING",
        "SCOPING",
        "AWAITING_USER_SIGNOFF",
        "SYNCHRONIZING",
    );
    let text = state(
        "AWAITING_USER_SIGNOFF",
        "STANDARD",
        &handoff("RESUME", "SYNCHRONIZING", "NONE"),
        &stack(std::slice::from_ref(&rework)),
        NO_OBLIGATIONS,
    );
    let p = rc(&text);
    assert_eq!(rules(&p), ["RC-023"]);
    assert!(p[0].message.ends_with("still holds 1 recovery frame"));
    // Headings count even when the flags say otherwise (RC-001/RC-017 report those).
    let text = state(
        "SIGNED_OFF",
        "UNSET",
        &handoff("SIGNOFF", "AWAITING_USER_SIGNOFF", "NONE"),
        &format!("`Active`: `false`\n\n{rework}"),
        &format!("`Active`: `false`\n\n{OBLIGATION}"),
    );
    let p = rc(&text);
    assert_eq!(rules(&p), ["RC-001", "RC-017", "RC-023"]);
    assert!(p[2]
        .message
        .ends_with("1 recovery frame and 1 outstanding obligation"));
    assert!(p[2]
        .hint
        .as_deref()
        .unwrap()
        .starts_with("signing off or cancelling"));
    // Flags alone are not entries.
    let text = state(
        "CANCELLED",
        "UNSET",
        &handoff("CANCEL", "DEVELOPING", "NONE"),
        "`Active`: `true`",
        NO_OBLIGATIONS,
    );
    assert_eq!(rules(&rc(&text)), ["RC-001"]);
}

#[test]
fn rules_need_a_parsed_state() {
    let text = state(
        "TESTING",
        "STANDARD",
        &handoff("FAILURE", "X", "Y"),
        "`Active`: `maybe`",
        NO_OBLIGATIONS,
    );
    assert!(rc(&text).is_empty());
}
