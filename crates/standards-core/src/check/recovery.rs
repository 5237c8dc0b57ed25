//! RC: recovery frames and outstanding obligations (check-rules §4 RC).
//!
//! Every RC rule reads only the parsed STATE.md and reports on it; they apply
//! whenever STATE.md parsed, with or without an active cycle. Order
//! (check-rules §3): RC-001, RC-002, per frame RC-003..RC-013, RC-014, RC-015,
//! RC-016, then — after TR-029, which belongs to the TR family — RC-017,
//! RC-018, RC-019, per obligation RC-020..RC-022, and RC-023.
//!
//! Absent fields fail every enumeration test (check-rules §1.3). Frames are
//! named by their heading as written, so a misnumbered label still identifies
//! the frame the problem is about.
//!
//! One deliberate difference from the catalogue, for the protocol: RC-009 (a
//! frame pushed for a same-state correction) is checked in every cycle mode,
//! not only in DOCUMENTATION cycles; see [`rc_009`].

use crate::model::fields::is_js_whitespace;
use crate::model::layout::STATE_PATH;
use crate::model::state::{Entry, StateDoc};
use crate::model::vocab::{CycleMode, FailureType, HandoffKind, Role, WorkflowState};

use super::context::DOCUMENTATION_PHASES;
use super::{Cx, RuleInfo, Sink};

pub const RULES: &[RuleInfo] = &[
    RuleInfo::rule("RC-001", "Recovery flag matches the stack"),
    RuleInfo::rule("RC-002", "Frame numbering"),
    RuleInfo::rule("RC-003", "Frame states"),
    RuleInfo::rule("RC-004", "Frame failure type"),
    RuleInfo::rule("RC-005", "Frame owner"),
    RuleInfo::rule("RC-006", "ResumeAt is the interrupted state"),
    RuleInfo::rule("RC-007", "Frame reason"),
    RuleInfo::rule("RC-008", "RerunThrough value"),
    RuleInfo::rule("RC-009", "No same-state frame"),
    RuleInfo::rule("RC-010", "Included From/ResumeAt"),
    RuleInfo::rule("RC-011", "Included owner"),
    RuleInfo::rule("RC-012", "Documentation frame failure types"),
    RuleInfo::rule("RC-013", "Downstream rerun boundary"),
    RuleInfo::rule("RC-014", "Documentation rerun window"),
    RuleInfo::rule("RC-015", "Active frame owner holds the state"),
    RuleInfo::rule("RC-016", "State-changing correction pushes a frame"),
    RuleInfo::rule("RC-017", "Obligations flag matches entries"),
    RuleInfo::rule("RC-018", "Obligation numbering"),
    RuleInfo::rule("RC-019", "No obligations in documentation cycles"),
    RuleInfo::rule("RC-020", "Obligation owner"),
    RuleInfo::rule("RC-021", "Obligation failure type"),
    RuleInfo::rule("RC-022", "Obligation reason"),
    RuleInfo::rule("RC-023", "Clean stack at sign-off and in terminal states"),
];

pub fn check(cx: &Cx, sink: &mut Sink) {
    let Some(doc) = cx.doc() else { return };
    let documentation = doc.cycle_mode.value == CycleMode::Documentation;
    let frames = &doc.recovery.entries;

    rc_001(doc, sink);
    rc_002(doc, sink);
    for frame in frames {
        rc_003(frame, sink);
        rc_004(frame, sink);
        rc_005(frame, sink);
        rc_006(frame, sink);
        rc_007(frame, sink);
        rc_008(frame, sink);
        rc_009(frame, sink);
        if documentation {
            rc_010(frame, sink);
            rc_011(frame, sink);
            rc_012(frame, sink);
            rc_013(frame, sink);
        }
    }
    if let Some(active) = frames.last() {
        if documentation {
            rc_014(doc, active, sink);
        }
        rc_015(doc, active, sink);
    }
    rc_016(doc, sink);
    // TR-029 is evaluated here in the catalogue's order (TR family).
    rc_017(doc, sink);
    rc_018(doc, sink);
    rc_019(doc, sink);
    for obligation in &doc.obligations.entries {
        rc_020(doc, obligation, sink);
        rc_021(doc, obligation, sink);
        rc_022(doc, obligation, sink);
    }
    rc_023(doc, sink);
}

// ---- Shared wording ----

/// How a problem names an entry: its heading as written, with its line.
fn heading(word: &str, entry: &Entry) -> String {
    if entry.label.is_empty() {
        format!("`### {word}` (line {})", entry.line)
    } else {
        format!("`### {word} {}` (line {})", entry.label, entry.line)
    }
}

fn frame(entry: &Entry) -> String {
    heading("Frame", entry)
}

fn obligation(entry: &Entry) -> String {
    heading("Obligation", entry)
}

fn count(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// The role that acts in a state, for hints.
fn role_of(state: WorkflowState) -> String {
    match state.owner() {
        Role::User => "the user".to_string(),
        role => role.to_string(),
    }
}

/// Who acts in the current state, for hints.
fn acting(doc: &StateDoc) -> String {
    let ws = doc.workflow_state.value;
    format!("{} (`{ws}`)", role_of(ws))
}

/// Who pushed a frame, for hints: the role of its `From` state (a FAILURE),
/// or whoever recorded the user's rework from a user state.
fn pusher(entry: &Entry) -> String {
    match entry.state("From") {
        Some(from) if from.owner() == Role::User => {
            format!("the agent that recorded the rework from `{from}`")
        }
        Some(from) => format!("{} (which pushed the frame from `{from}`)", from.owner()),
        None => "the role that pushed the frame".to_string(),
    }
}

/// Who owns a frame's correction, for hints.
fn frame_owner(entry: &Entry) -> String {
    match entry.state("Owner") {
        Some(owner) => format!("{} (`{owner}`, the frame's owner)", role_of(owner)),
        None => "the frame's owner".to_string(),
    }
}

/// Blank after ECMAScript trimming (U+FEFF and Unicode spaces included).
fn is_blank(value: &str) -> bool {
    value.chars().all(is_js_whitespace)
}

fn owning_states(ft: FailureType) -> String {
    ft.owning_states()
        .iter()
        .map(|s| format!("`{s}`"))
        .collect::<Vec<_>>()
        .join(" or ")
}

/// The DOCUMENTATION route: its phases, then `AWAITING_USER_SIGNOFF`.
fn on_documentation_route(state: WorkflowState) -> bool {
    DOCUMENTATION_PHASES.contains(&state) || state == WorkflowState::AwaitingUserSignoff
}

/// Position in the DOCUMENTATION phase order, if the text names a phase.
fn phase_index(value: Option<&str>) -> Option<usize> {
    let state: WorkflowState = value?.parse().ok()?;
    DOCUMENTATION_PHASES.iter().position(|p| *p == state)
}

// ---- Recovery stack ----

/// RC-001: `Recovery.Active` is `true` exactly when frames exist.
fn rc_001(doc: &StateDoc, sink: &mut Sink) {
    let active = &doc.recovery.active;
    let frames = doc.recovery.entries.len();
    if active.value && frames == 0 {
        sink.push_hinted(
            "RC-001",
            STATE_PATH,
            format!(
                "line {}: `## Recovery` is `Active`: `true` but holds no `### Frame` entry",
                active.line
            ),
            Some(format!(
                "recovery ends when the last frame is popped: {} sets `Active` to `false`, or restores the lost frame from the last commit if its correction is still open",
                acting(doc)
            )),
        );
    } else if !active.value && frames > 0 {
        sink.push_hinted(
            "RC-001",
            STATE_PATH,
            format!(
                "line {}: `## Recovery` is `Active`: `false` but still holds {}",
                active.line,
                count(frames, "frame", "frames")
            ),
            Some(format!(
                "frames stay until they are popped and recovery ends only when the stack is empty: {} sets `Active` to `true`, or removes only frames whose return to `ResumeAt` already happened",
                acting(doc)
            )),
        );
    }
}

/// RC-002: the k-th frame is headed exactly `### Frame k`.
fn rc_002(doc: &StateDoc, sink: &mut Sink) {
    for (i, entry) in doc.recovery.entries.iter().enumerate() {
        let k = i + 1;
        if entry.label != k.to_string() {
            sink.push_hinted(
                "RC-002",
                STATE_PATH,
                format!(
                    "{} is frame {k} of the recovery stack, so its heading must be exactly `### Frame {k}`",
                    frame(entry)
                ),
                Some(format!(
                    "frames are numbered 1, 2, … from oldest to newest with nothing after the number (the last is active; saved assignments name frames by it): {} corrects the heading",
                    pusher(entry)
                )),
            );
        }
    }
}

// ---- Each frame ----

/// RC-003: `From`, `Owner` and `ResumeAt` are workflow states.
fn rc_003(entry: &Entry, sink: &mut Sink) {
    for (field, meaning) in [
        ("From", "the state the correction interrupted"),
        ("Owner", "the state that owns the correction"),
        ("ResumeAt", "the interrupted state the frame returns to"),
    ] {
        if entry.state(field).is_some() {
            continue;
        }
        let message = match entry.get(field) {
            None => format!("{} has no `{field}` field", frame(entry)),
            Some(v) => format!(
                "{}: `{field}` is `{v}`, which is not a workflow state",
                frame(entry)
            ),
        };
        sink.push_hinted(
            "RC-003",
            STATE_PATH,
            message,
            Some(format!(
                "`{field}` is {meaning}: {} restores it from the handoff that pushed the frame",
                pusher(entry)
            )),
        );
    }
}

/// RC-004: `FailureType` is a failure type (never `NONE` in a frame).
fn rc_004(entry: &Entry, sink: &mut Sink) {
    let message = match entry.get("FailureType") {
        None => format!("{} has no `FailureType` field", frame(entry)),
        Some(v) if v.parse::<FailureType>().is_err() => format!(
            "{}: `FailureType` is `{v}`, which is not a failure type",
            frame(entry)
        ),
        Some(_) => return,
    };
    sink.push_hinted(
        "RC-004",
        STATE_PATH,
        message,
        Some(format!(
            "a frame carries the failure type of the FAILURE or USER_REWORK handoff that pushed it (never `NONE`): {} copies it from that handoff",
            pusher(entry)
        )),
    );
}

/// RC-005: the frame's `Owner` owns its `FailureType`.
fn rc_005(entry: &Entry, sink: &mut Sink) {
    let (Some(ft), Some(owner)) = (
        entry
            .get("FailureType")
            .and_then(|v| v.parse::<FailureType>().ok()),
        entry.state("Owner"),
    ) else {
        return;
    };
    if ft.owning_states().contains(&owner) {
        return;
    }
    sink.push_hinted(
        "RC-005",
        STATE_PATH,
        format!(
            "{}: `FailureType` `{ft}` is corrected by {}, but the frame's `Owner` is `{owner}`",
            frame(entry),
            owning_states(ft)
        ),
        Some(format!(
            "a correction routes to the owner of the defective work: {} fixes whichever of `FailureType` and `Owner` is wrong, and if the defect really is `{ft}`, routes it to {} instead",
            pusher(entry),
            owning_states(ft)
        )),
    );
}

/// RC-006: `ResumeAt` is the interrupted state, `From`.
fn rc_006(entry: &Entry, sink: &mut Sink) {
    let (Some(from), Some(resume)) = (entry.state("From"), entry.state("ResumeAt")) else {
        return;
    };
    if from == resume {
        return;
    }
    sink.push_hinted(
        "RC-006",
        STATE_PATH,
        format!(
            "{}: `ResumeAt` is `{resume}`, but the frame interrupted `{from}`; a frame returns to the state it interrupted",
            frame(entry)
        ),
        Some(format!(
            "{} sets `ResumeAt` to `{from}`; states to re-establish before the return are planned later with `RerunThrough`, not `ResumeAt`",
            pusher(entry)
        )),
    );
}

/// RC-007: the frame records its defect.
fn rc_007(entry: &Entry, sink: &mut Sink) {
    let message = match entry.get("Reason") {
        None => format!("{} has no `Reason` field", frame(entry)),
        Some(v) if is_blank(v) => format!("{}: `Reason` is blank", frame(entry)),
        Some(_) => return,
    };
    sink.push_hinted(
        "RC-007",
        STATE_PATH,
        message,
        Some(format!(
            "{} records the specific defect, as in the handoff that pushed the frame; saved assignments match their frame by this exact text",
            pusher(entry)
        )),
    );
}

/// RC-008: `RerunThrough` is `NONE` or a workflow state.
fn rc_008(entry: &Entry, sink: &mut Sink) {
    let message = match entry.get("RerunThrough") {
        None => format!("{} has no `RerunThrough` field", frame(entry)),
        Some("NONE") => return,
        Some(v) if v.parse::<WorkflowState>().is_ok() => return,
        Some(v) => format!(
            "{}: `RerunThrough` is `{v}`, which is neither `NONE` nor a workflow state",
            frame(entry)
        ),
    };
    sink.push_hinted(
        "RC-008",
        STATE_PATH,
        message,
        Some(format!(
            "`RerunThrough` stays `NONE` until the correction is done; then {} sets it to the last state that must rerun before the return to `ResumeAt`",
            frame_owner(entry)
        )),
    );
}

/// RC-009: no frame for a same-state correction (`From` equals `Owner`).
///
/// The catalogue applies this only in DOCUMENTATION cycles (citing the
/// protocol's documentation paragraph of Recovery Mechanics). The protocol
/// states the rule for every mode — Recovery Mechanics rule 1 ("Push only when
/// corrective routing changes state … Same-state correction creates no frame")
/// and Failure Handoffs ("A same-state failure records the handoff but does
/// not create a recovery frame") — and no mode pushes a frame whose `Owner` is
/// the state it interrupted, so it is checked in every mode here.
///
/// The catalogue also counts a frame missing both fields as same-state
/// (ambiguity 7). Such a frame names no state at all; RC-003 reports each
/// missing field, so this rule needs both present and equal.
fn rc_009(entry: &Entry, sink: &mut Sink) {
    let (Some(from), Some(owner)) = (entry.get("From"), entry.get("Owner")) else {
        return;
    };
    if from != owner {
        return;
    }
    sink.push_hinted(
        "RC-009",
        STATE_PATH,
        format!(
            "{}: `From` and `Owner` are both `{from}`, but a correction that stays in the same state pushes no frame",
            frame(entry)
        ),
        Some(format!(
            "a same-state FAILURE or USER_REWORK only records the handoff and the owner corrects its work in place: {} removes the frame",
            pusher(entry)
        )),
    );
}

/// Hint for frames that reach outside the DOCUMENTATION topology.
fn omitted_hint(entry: &Entry) -> String {
    format!(
        "a DOCUMENTATION cycle runs only AUDITING, SCOPING, ARCHITECTING, DOCUMENTING, REVIEWING_FINAL and SYNCHRONIZING; work that needs an omitted role is a user decision (keep a documentation-only scope, or cancel and start an implementation cycle), never a frame: {} replaces the frame with that question in `Active Work.BlockedOn`",
        pusher(entry)
    )
}

/// RC-010 (DOCUMENTATION): `From` and `ResumeAt` are on the DOCUMENTATION route.
fn rc_010(entry: &Entry, sink: &mut Sink) {
    for field in ["From", "ResumeAt"] {
        if entry.state(field).is_some_and(on_documentation_route) {
            continue;
        }
        let value = entry
            .get(field)
            .map_or("absent".to_string(), |v| format!("`{v}`"));
        sink.push_hinted(
            "RC-010",
            STATE_PATH,
            format!(
                "{}: `{field}` is {value}, which is not a state of the DOCUMENTATION route",
                frame(entry)
            ),
            Some(omitted_hint(entry)),
        );
    }
}

/// RC-011 (DOCUMENTATION): the `Owner` is a DOCUMENTATION phase.
fn rc_011(entry: &Entry, sink: &mut Sink) {
    if phase_index(entry.get("Owner")).is_some() {
        return;
    }
    let value = entry
        .get("Owner")
        .map_or("absent".to_string(), |v| format!("`{v}`"));
    sink.push_hinted(
        "RC-011",
        STATE_PATH,
        format!(
            "{}: `Owner` is {value}, which is not a role this DOCUMENTATION cycle includes",
            frame(entry)
        ),
        Some(omitted_hint(entry)),
    );
}

/// RC-012 (DOCUMENTATION): no implementation or verification frames, and
/// `REVIEW` frames belong to the final Reviewer.
fn rc_012(entry: &Entry, sink: &mut Sink) {
    let owner = entry.get("Owner");
    let message = match entry.get("FailureType") {
        Some(ft @ ("IMPLEMENTATION" | "VERIFICATION")) => format!(
            "{}: `FailureType` `{ft}` belongs to a role this DOCUMENTATION cycle omits",
            frame(entry)
        ),
        Some("REVIEW") if owner != Some("REVIEWING_FINAL") => format!(
            "{}: a `REVIEW` frame in a DOCUMENTATION cycle is owned by `REVIEWING_FINAL`, not {}",
            frame(entry),
            owner.map_or("an absent `Owner`".to_string(), |o| format!("`{o}`"))
        ),
        _ => return,
    };
    sink.push_hinted("RC-012", STATE_PATH, message, Some(omitted_hint(entry)));
}

/// RC-013 (DOCUMENTATION): a set `RerunThrough` is a phase after the `Owner`.
fn rc_013(entry: &Entry, sink: &mut Sink) {
    let rerun = entry.get("RerunThrough");
    if rerun == Some("NONE") {
        return;
    }
    // An `Owner` outside the phases counts as before all of them.
    let owner = phase_index(entry.get("Owner"));
    if let Some(r) = phase_index(rerun) {
        if owner.is_none_or(|o| r > o) {
            return;
        }
    }
    let value = rerun.map_or("absent".to_string(), |v| format!("`{v}`"));
    let owner = entry
        .get("Owner")
        .map_or("its absent `Owner`".to_string(), |o| format!("`{o}`"));
    sink.push_hinted(
        "RC-013",
        STATE_PATH,
        format!(
            "{}: `RerunThrough` is {value}, which is not a DOCUMENTATION phase after the frame's owner {owner}",
            frame(entry)
        ),
        Some(format!(
            "{} keeps `RerunThrough` `NONE` until the correction is done, then sets a later documentation phase (at most SYNCHRONIZING); a return to `AWAITING_USER_SIGNOFF` goes through `ResumeAt` when the frame is popped",
            frame_owner(entry)
        )),
    );
}

// ---- The active frame ----

/// RC-014 (DOCUMENTATION): while the active frame's reruns run, the workflow
/// stays between its `Owner` and `RerunThrough`.
fn rc_014(doc: &StateDoc, active: &Entry, sink: &mut Sink) {
    let (Some(owner), Some(rerun)) = (
        phase_index(active.get("Owner")),
        phase_index(active.get("RerunThrough")),
    ) else {
        return;
    };
    if rerun <= owner {
        return;
    }
    let ws = doc.workflow_state.value;
    // A state outside the phase list (AWAITING_USER_SIGNOFF) counts as before the owner.
    let inside = DOCUMENTATION_PHASES
        .iter()
        .position(|p| *p == ws)
        .is_some_and(|w| (owner..=rerun).contains(&w));
    if inside {
        return;
    }
    let (o, r) = (DOCUMENTATION_PHASES[owner], DOCUMENTATION_PHASES[rerun]);
    sink.push_hinted(
        "RC-014",
        STATE_PATH,
        format!(
            "line {}: `WorkflowState` is `{ws}`, outside the rerun window `{o}` through `{r}` of the active {}",
            doc.workflow_state.line,
            frame(active)
        ),
        Some(format!(
            "work moves only through the reruns {} planned until `{r}` passes and the frame is popped for the return to `ResumeAt`; a new upstream defect pushes a new frame instead",
            frame_owner(active)
        )),
    );
}

/// RC-015: while its correction is unfinished (`RerunThrough` `NONE`), the
/// active frame's `Owner` holds the workflow state.
fn rc_015(doc: &StateDoc, active: &Entry, sink: &mut Sink) {
    if active.get("RerunThrough") != Some("NONE") {
        return;
    }
    let Some(owner) = active.state("Owner") else {
        return;
    };
    let ws = doc.workflow_state.value;
    if ws == owner {
        return;
    }
    sink.push_hinted(
        "RC-015",
        STATE_PATH,
        format!(
            "line {}: `WorkflowState` is `{ws}`, but the active {} belongs to `{owner}` and its correction is unfinished (`RerunThrough` is `NONE`)",
            doc.workflow_state.line,
            frame(active)
        ),
        Some(format!(
            "only {} (`{owner}`) may leave this frame: by popping it and resuming `ResumeAt`, or by setting `RerunThrough` and starting the reruns; a new defect found meanwhile pushes a new frame",
            role_of(owner)
        )),
    );
}

/// RC-016: a FAILURE or USER_REWORK that changed state pushed the matching frame.
fn rc_016(doc: &StateDoc, sink: &mut Sink) {
    let kind = match doc.handoff.kind() {
        Some(k @ (HandoffKind::Failure | HandoffKind::UserRework)) => k,
        _ => return,
    };
    let Some(from) = doc.handoff.from_state() else {
        return;
    };
    let ws = doc.workflow_state.value;
    if from == ws {
        return;
    }
    let line = doc.handoff.kind.line;
    let message = match doc.recovery.entries.last() {
        None => format!(
            "line {line}: the `{kind}` handoff from `{from}` moved the workflow to `{ws}`, but no recovery frame records it"
        ),
        Some(last)
            if last.get("From") != Some(from.as_str()) || last.get("Owner") != Some(ws.as_str()) =>
        {
            let shown = |f: &str| last.get(f).map_or("absent".to_string(), |v| format!("`{v}`"));
            format!(
                "line {line}: the `{kind}` handoff from `{from}` to `{ws}` does not match the last recovery frame {} (`From` {}, `Owner` {})",
                frame(last),
                shown("From"),
                shown("Owner")
            )
        }
        Some(_) => return,
    };
    sink.push_hinted(
        "RC-016",
        STATE_PATH,
        message,
        Some(format!(
            "{} pushes the frame on top of the older ones, which stay unchanged: `From` `{from}`, `Owner` `{ws}`, the handoff's `FailureType` and `Reason`, `ResumeAt` `{from}`, `RerunThrough` `NONE`",
            match (kind, from.owner()) {
                (HandoffKind::Failure, role) if role != Role::User => format!("{role}, which made the handoff,"),
                _ => "the agent that recorded the handoff".to_string(),
            }
        )),
    );
}

// ---- Outstanding obligations ----

/// RC-017: `Outstanding Obligations.Active` is `true` exactly when entries exist.
fn rc_017(doc: &StateDoc, sink: &mut Sink) {
    let active = &doc.obligations.active;
    let n = doc.obligations.entries.len();
    let message = if active.value && n == 0 {
        format!(
            "line {}: `## Outstanding Obligations` is `Active`: `true` but holds no `### Obligation` entry",
            active.line
        )
    } else if !active.value && n > 0 {
        format!(
            "line {}: `## Outstanding Obligations` is `Active`: `false` but still holds {}",
            active.line,
            count(n, "obligation", "obligations")
        )
    } else {
        return;
    };
    sink.push_hinted(
        "RC-017",
        STATE_PATH,
        message,
        Some(format!(
            "`Active` is `true` exactly while an obligation remains, and an obligation is removed only once its owner has corrected and verified that defect: {} makes the flag match",
            acting(doc)
        )),
    );
}

/// RC-018: the k-th obligation is headed exactly `### Obligation k`.
fn rc_018(doc: &StateDoc, sink: &mut Sink) {
    for (i, entry) in doc.obligations.entries.iter().enumerate() {
        let k = i + 1;
        if entry.label != k.to_string() {
            sink.push_hinted(
                "RC-018",
                STATE_PATH,
                format!(
                    "{} is obligation {k}, so its heading must be exactly `### Obligation {k}`",
                    obligation(entry)
                ),
                Some(format!(
                    "whoever removes an obligation renumbers the rest 1, 2, … in their order: {} corrects the heading",
                    acting(doc)
                )),
            );
        }
    }
}

/// RC-019: a DOCUMENTATION cycle has no outstanding obligations.
fn rc_019(doc: &StateDoc, sink: &mut Sink) {
    if doc.cycle_mode.value != CycleMode::Documentation {
        return;
    }
    let n = doc.obligations.entries.len();
    if !doc.obligations.active.value && n == 0 {
        return;
    }
    sink.push_hinted(
        "RC-019",
        STATE_PATH,
        format!(
            "line {}: a DOCUMENTATION cycle carries outstanding obligations (`Active`: `{}`, {})",
            doc.obligations.active.line,
            doc.obligations.active.value,
            count(n, "entry", "entries")
        ),
        Some(format!(
            "only Expedited Promotion creates obligations and a DOCUMENTATION cycle is never promoted: {} removes them, routing a real defect to its included owner through recovery or recording the user decision it needs in `Active Work.BlockedOn`",
            acting(doc)
        )),
    );
}

/// Hint for obligation fields: they are copied from the converted frame.
fn converted_hint(doc: &StateDoc, fields: &[&str]) -> String {
    let names = fields
        .iter()
        .map(|f| format!("`{f}`"))
        .collect::<Vec<_>>()
        .join(" and ");
    let pronoun = if fields.len() == 1 { "it" } else { "them" };
    format!(
        "an obligation keeps the {names} of the recovery frame promotion converted it from (see that frame in the STATE.md history): {} restores {pronoun}, without dropping the defect",
        acting(doc)
    )
}

/// RC-020: an obligation's `Owner` is a workflow state.
fn rc_020(doc: &StateDoc, entry: &Entry, sink: &mut Sink) {
    let message = match entry.get("Owner") {
        None => format!("{} has no `Owner` field", obligation(entry)),
        Some(v) if v.parse::<WorkflowState>().is_err() => format!(
            "{}: `Owner` is `{v}`, which is not a workflow state",
            obligation(entry)
        ),
        Some(_) => return,
    };
    sink.push_hinted(
        "RC-020",
        STATE_PATH,
        message,
        Some(converted_hint(doc, &["Owner"])),
    );
}

/// RC-021: an obligation's `FailureType` is a failure type its `Owner` owns.
fn rc_021(doc: &StateDoc, entry: &Entry, sink: &mut Sink) {
    let invalid = match entry.get("FailureType") {
        None => format!("{} has no `FailureType` field", obligation(entry)),
        Some(v) => match v.parse::<FailureType>() {
            Ok(ft) => return rc_021_owner(doc, entry, ft, sink),
            Err(_) => format!(
                "{}: `FailureType` is `{v}`, which is not a failure type",
                obligation(entry)
            ),
        },
    };
    sink.push_hinted(
        "RC-021",
        STATE_PATH,
        invalid,
        Some(converted_hint(doc, &["FailureType"])),
    );
}

/// RC-021, second part: the obligation's `Owner` owns its valid `FailureType`.
fn rc_021_owner(doc: &StateDoc, entry: &Entry, ft: FailureType, sink: &mut Sink) {
    let Some(owner) = entry.state("Owner") else {
        return;
    };
    if ft.owning_states().contains(&owner) {
        return;
    }
    sink.push_hinted(
        "RC-021",
        STATE_PATH,
        format!(
            "{}: `FailureType` `{ft}` is corrected by {}, but the obligation's `Owner` is `{owner}`",
            obligation(entry),
            owning_states(ft)
        ),
        Some(converted_hint(doc, &["Owner", "FailureType"])),
    );
}

/// RC-022: the obligation records its defect.
fn rc_022(doc: &StateDoc, entry: &Entry, sink: &mut Sink) {
    let message = match entry.get("Reason") {
        None => format!("{} has no `Reason` field", obligation(entry)),
        Some(v) if is_blank(v) => format!("{}: `Reason` is blank", obligation(entry)),
        Some(_) => return,
    };
    sink.push_hinted(
        "RC-022",
        STATE_PATH,
        message,
        Some(converted_hint(doc, &["Reason"])),
    );
}

/// RC-023: nothing remains on either stack at sign-off readiness or after the
/// cycle ended (headings counted, flags not consulted).
fn rc_023(doc: &StateDoc, sink: &mut Sink) {
    let ws = doc.workflow_state.value;
    if !(ws == WorkflowState::AwaitingUserSignoff || ws.is_terminal()) {
        return;
    }
    let (frames, obligations) = (doc.recovery.entries.len(), doc.obligations.entries.len());
    if frames == 0 && obligations == 0 {
        return;
    }
    let held = match (frames, obligations) {
        (f, 0) => count(f, "recovery frame", "recovery frames"),
        (0, o) => count(o, "outstanding obligation", "outstanding obligations"),
        (f, o) => format!(
            "{} and {}",
            count(f, "recovery frame", "recovery frames"),
            count(o, "outstanding obligation", "outstanding obligations")
        ),
    };
    let hint = if ws == WorkflowState::AwaitingUserSignoff {
        let returned = match doc.handoff.from_state().map(|s| (s, s.owner())) {
            Some((from, role)) if role != Role::User => format!("{role} (from `{from}`)"),
            _ => "the role that moved the cycle here".to_string(),
        };
        format!(
            "sign-off readiness needs an empty recovery stack and no obligations, and the user cannot sign off meanwhile: {returned} sends each open correction to its owner through recovery, returning only after the last frame is popped and every obligation is discharged"
        )
    } else {
        "signing off or cancelling clears recovery and outstanding obligations: whoever recorded it removes the entries and sets both `Active` flags to `false`".to_string()
    };
    sink.push_hinted(
        "RC-023",
        STATE_PATH,
        format!(
            "line {}: `WorkflowState` is `{ws}`, but STATE.md still holds {held}",
            doc.workflow_state.line
        ),
        Some(hint),
    );
}

#[cfg(test)]
mod tests;
