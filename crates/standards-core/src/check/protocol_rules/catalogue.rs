//! The catalogue of the PR family: what each rule enforces, where the
//! protocol says so, and which file it reports on. `docs/rules.md` is
//! rendered from it; a test in `tests/check_conformance.rs` keeps the two equal.

use super::super::RuleInfo;

/// One mechanical rule of the protocol that the reference never checked.
#[derive(Debug, Clone, Copy)]
pub struct ProtocolRule {
    pub info: RuleInfo,
    /// The group in the catalogue.
    pub group: &'static str,
    /// Where the protocol states it (section, and chapter when not PROTOCOL.md).
    pub section: &'static str,
    /// The rule, quoting at most one short sentence of the protocol.
    pub enforces: &'static str,
    /// The file a problem is reported on.
    pub file: &'static str,
}

/// A rule of the protocol that no checker can decide from the files.
#[derive(Debug, Clone, Copy)]
pub struct Judgement {
    pub section: &'static str,
    pub rule: &'static str,
    pub reason: &'static str,
}

const STATE: &str = "`.standards/STATE.md`";
const MODE: &str = "`.standards/MODE.md`";
const CONTEXT: &str = "`.standards/CONTEXT.md`";
const PLAN: &str = "the development plan";
const ENTRIES: &str = "the review report, documentation record or synchronization record";

const ROUTES: &str = "Routes and handoffs";
const STARTS: &str = "Entry states, modes and terminal states";
const RECOVERY: &str = "Recovery, promotion and obligations";
const LINEAGE: &str = "Comparisons with the last commit";
const RECORDS: &str = "Record fields and sign-off readiness";
const CONTEXT_GROUP: &str = "Project context";

const fn pr(
    id: &'static str,
    title: &'static str,
    group: &'static str,
    section: &'static str,
    enforces: &'static str,
    file: &'static str,
) -> ProtocolRule {
    ProtocolRule {
        info: RuleInfo::rule(id, title),
        group,
        section,
        enforces,
        file,
    }
}

pub const CATALOGUE: &[ProtocolRule] = &[
    pr("PR-001", "Forward follows the fixed route", ROUTES,
        "Forward Transitions; Recovery Mechanics",
        "A `FORWARD` handoff moves exactly one step along the cycle's route (standard greenfield or brownfield, either policy; expedited), also during recovery: \"a normal `FORWARD` still follows the fixed route\". Complements TR-012/TR-013 (outside recovery) and TR-021 (documentation).",
        STATE),
    pr("PR-002", "Sign-off only from readiness", ROUTES,
        "user-decisions.md, Sign off",
        "\"Sign-off is possible only from `AWAITING_USER_SIGNOFF`\": `SIGNED_OFF` carries a `SIGNOFF` handoff from `AWAITING_USER_SIGNOFF`, and a `SIGNOFF` handoff means `SIGNED_OFF`.",
        STATE),
    pr("PR-003", "Cancellation record", ROUTES,
        "user-decisions.md, Cancel an active cycle",
        "`CANCELLED` carries a `CANCEL` handoff whose `From` is the interrupted nonterminal state, and a `CANCEL` handoff means `CANCELLED`.",
        STATE),
    pr("PR-004", "No retained cancellation in GREENFIELD", STARTS,
        "Project Modes; user-decisions.md, Greenfield Bootstrap Cancellation",
        "Cancelling while still `GREENFIELD` resets the workflow (or switches to `BROWNFIELD` first), so a `GREENFIELD` project never shows `CANCELLED` or a new cycle started from one.",
        STATE),
    pr("PR-005", "Cycle start source", STARTS,
        "user-decisions.md, Start a cycle (step 5)",
        "The first cycle keeps `INITIAL` with `From: NONE`; a `NEW_CYCLE` comes from `SIGNED_OFF` or `CANCELLED` (outside documentation cycles, which TR-018/TR-019 hold).",
        STATE),
    pr("PR-006", "Entry state", STARTS,
        "Project Modes; user-decisions.md, Start a cycle (step 5)",
        "While the handoff still records the start (`INITIAL`/`NEW_CYCLE`), a `STANDARD` cycle is in `SCOPING` (`GREENFIELD`) or `AUDITING` (`BROWNFIELD`, or an open baseline reconciliation): \"`BROWNFIELD` starts in `AUDITING`\". An `EXPEDITED` cycle starts in `DEVELOPING`.",
        STATE),
    pr("PR-007", "Inapplicable handoff fields", ROUTES,
        "Workflow State Reference, Handoff",
        "\"Use `NONE` for inapplicable fields\": only `FAILURE` and `USER_REWORK` carry a `FailureType`; `FAILURE`, `USER_REWORK`, `RESUME` and `PROMOTE` name the state they left in `From`.",
        STATE),
    pr("PR-008", "Promotion source", RECOVERY,
        "expedited.md, Expedited Promotion (step 2)",
        "A `PROMOTE` handoff's `From` is the interrupted expedited state: `DEVELOPING`, `REVIEWING_IMPLEMENTATION` or `AWAITING_USER_SIGNOFF`.",
        STATE),
    pr("PR-009", "Promotion empties the recovery stack", RECOVERY,
        "expedited.md, Expedited Promotion (step 5)",
        "After converting unfinished frames into obligations, promotion empties the expedited stack; while the handoff is still the `PROMOTE`, recovery is inactive with no frame.",
        STATE),
    pr("PR-010", "Promotion reason stored once", RECOVERY,
        "expedited.md, Expedited Promotion (step 2)",
        "The promotion's handoff reason and `Active Work.PromotionReason` are the same text: \"store the same reason in `Active Work.PromotionReason`\".",
        STATE),
    pr("PR-011", "Expedited frames stay on the expedited route", RECOVERY,
        "Recovery Mechanics; expedited.md, Expedited Cycle Contract (rule 6)",
        "\"Expedited recovery reruns only expedited states\": every frame of an `EXPEDITED` cycle has `From`, `Owner`, `ResumeAt` and `RerunThrough` on its route.",
        STATE),
    pr("PR-012", "RerunThrough is a working state", RECOVERY,
        "Recovery Mechanics (rules 5 and 7)",
        "`RerunThrough` is the last rerun state whose gate ends the rerun, so it is never `AWAITING_USER_SIGNOFF` or terminal (standard and expedited frames; RC-013 holds documentation frames).",
        STATE),
    pr("PR-013", "Obligations carry no routing", RECOVERY,
        "expedited.md, Outstanding Obligations",
        "An obligation has `Owner`, `FailureType` and `Reason` and \"deliberately has no `From`, `ResumeAt`, or `RerunThrough`\".",
        STATE),
    pr("PR-014", "Obligations only after promotion", RECOVERY,
        "expedited.md, Outstanding Obligations; Workflow State Reference",
        "\"Only Expedited Promotion adds entries\": obligations appear only in a promoted `STANDARD` cycle, which keeps its `PromotionReason`.",
        STATE),
    pr("PR-015", "Obligation owners come from expedited frames", RECOVERY,
        "expedited.md, Expedited Promotion (step 5); Failure Handoffs",
        "Obligations are converted expedited frames, so each is owned by `DEVELOPING` (`IMPLEMENTATION`) or `REVIEWING_IMPLEMENTATION` (`REVIEW`).",
        STATE),
    pr("PR-016", "No forward handoff over an own obligation", RECOVERY,
        "expedited.md, Outstanding Obligations (How they are discharged); Checkpoint Handoffs",
        "An owner has no open obligation owned by its current state before a normal forward handoff or a checkpoint.",
        STATE),
    pr("PR-017", "Signed off without a blocker", STARTS,
        "user-decisions.md, Sign off; Standard Cycle Completion",
        "Sign-off needs no blocking user question and keeps Active Work, so `SIGNED_OFF` has `BlockedOn: NONE`.",
        STATE),
    pr("PR-018", "Signed off without baseline reconciliation", STARTS,
        "Standard Cycle Completion; Documentation Cycle Contract",
        "Sign-off readiness needs `BaselineReconciliation: NONE` and sign-off keeps Active Work, so `SIGNED_OFF` lists no baseline entry.",
        STATE),
    pr("PR-019", "AuditTarget only while auditing", STARTS,
        "Workflow State Reference, Active Work (AuditTarget)",
        "`AuditTarget` names an in-progress targeted audit and is cleared when it ends, so outside recovery an active cycle not in `AUDITING` has `AuditTarget: NONE`.",
        STATE),
    pr("PR-020", "Project mode never reverts", LINEAGE,
        "Project Modes",
        "\"The mode never reverts, including during recovery\": MODE.md does not go from `BROWNFIELD` back to `GREENFIELD` unless Project Reset left a fresh state.",
        MODE),
    pr("PR-021", "Mode changes only by promotion", LINEAGE,
        "Cycle Modes; expedited.md, Expedited Promotion",
        "A running cycle changes `CycleMode` only from `EXPEDITED` to `STANDARD`; \"the promoted cycle never returns to `EXPEDITED`\" (GT-002 holds documentation cycles).",
        STATE),
    pr("PR-022", "Promotion reason kept", LINEAGE,
        "Workflow State Reference, Active Work (PromotionReason)",
        "`PromotionReason` is preserved for the rest of the cycle, and a cycle that went from `EXPEDITED` to `STANDARD` carries one.",
        STATE),
    pr("PR-023", "A finished cycle's record is frozen", LINEAGE,
        "Completion Policies (policy lifecycle); Workflow States",
        "While the same terminal cycle is recorded, its state, Active Work and handoff do not change: \"a terminal cycle cannot be reopened by changing its policy\". Pending-cycle fields may change.",
        STATE),
    pr("PR-024", "No new obligations after promotion", LINEAGE,
        "expedited.md, Outstanding Obligations",
        "In a cycle that was already `STANDARD` in the last commit, obligations are only removed (in order), never added or reordered.",
        STATE),
    pr("PR-025", "Promotion converts every unfinished frame", LINEAGE,
        "expedited.md, Outstanding Obligations (Which frames become obligations)",
        "Promotion turns every frame with `RerunThrough: NONE` into exactly one obligation (same Owner, FailureType, Reason, stack order) and converts no other frame. Decided when the promotion left the state the last commit shows.",
        STATE),
    pr("PR-026", "Baseline entries carried", LINEAGE,
        "Baseline Reconciliation Format; user-decisions.md, Start a cycle (step 1)",
        "\"Preserve entry order and existing entries\": a non-`NONE` list keeps every committed entry in order, within a cycle and after the cancellation of the committed cycle.",
        STATE),
    pr("PR-027", "Nothing open at sign-off readiness", RECORDS,
        "Standard Cycle Completion; Implementation-Reviewed Closure; Documentation Cycle Contract",
        "At `AWAITING_USER_SIGNOFF` no finding, documentation entry or discrepancy of the cycle's records is `OPEN`, under either policy: \"The policy cannot hide an unresolved finding\".",
        ENTRIES),
    pr("PR-028", "Finding severity", RECORDS,
        "Review report format (record-formats §7.5)",
        "A `### F-NNN` finding's recorded `Severity` is `P0`, `P1` or `P2`.",
        "the review report"),
    pr("PR-029", "Entry status", RECORDS,
        "Review Gates; Synchronization Gate; record formats §7.5-7.7",
        "A finding's, documentation entry's or discrepancy's recorded `Status` is `OPEN`, `RESOLVED` or `WITHDRAWN`, so readiness is decidable (an entry without the field is left alone: the protocol text itself does not require the field).",
        ENTRIES),
    pr("PR-030", "Entry failure type", RECORDS,
        "Failure Types; record formats §7.5, §7.7",
        "A finding's recorded `FailureType` is a canonical failure type; a discrepancy's is one or `NONE`.",
        "the review report or synchronization record"),
    pr("PR-031", "Style locked after approval", RECORDS,
        "User Styles",
        "\"Developer locks its selection when the user first approves the development plan\": a plan past `PROPOSED` has `User Style Locked: true`.",
        PLAN),
    pr("PR-032", "Style lock kept", RECORDS,
        "User Styles; Next-Role Invocation Options",
        "A style locked in the last commit stays locked with the same `User Style` for the rest of the cycle.",
        PLAN),
    pr("PR-033", "Collaboration mode", RECORDS,
        "Verification Cadence; Canonical Terms (development plan)",
        "The plan records Developer's collaboration mode as `AUTONOMOUS`, `STEPWISE` or `CODE_WITH_ME`.",
        PLAN),
    pr("PR-034", "Documentation choices", RECORDS,
        "Synchronization Gate (documentation record); record formats §7.6",
        "The documentation record preserves collaboration mode and target: `Collaboration` is `AUTONOMOUS` or `GUIDED`, `Target` one of `FILE`, `FOLDER`, `VERTICAL_SLICE`, `ACTIVE_CHANGE`.",
        "the documentation record"),
    pr("PR-035", "User style resolves", RECORDS,
        "User Styles",
        "A saved `User Style` resolves to exactly one direct child Markdown file of `.standards/user-styles/<role>/` (stem or full file name); paths are rejected.",
        "the record that saves the style"),
    pr("PR-036", "Project context before development", CONTEXT_GROUP,
        "Forward Transitions (Standard Brownfield); Project context lifecycle",
        "\"`ARCHITECTING -> DEVELOPING` requires valid project context\"; the greenfield route passes `AUDITING` first, so a `STANDARD` cycle at `DEVELOPING` or later has a nonblank `CONTEXT.md`.",
        CONTEXT),
    pr("PR-037", "No stale non-baseline context entries", CONTEXT_GROUP,
        "Project context lifecycle",
        "Active-Cycle Non-Baseline Work entries belong to the cycle that produced them; once this cycle's audit has passed, outside recovery, none names another cycle.",
        CONTEXT),
    pr("PR-038", "Protocol chapters installed", STARTS,
        "How to read this document; installation.md, Files under `.standards/`",
        "\"If a chapter is missing, stop and report an incomplete runtime\": `.standards/protocol/expedited.md`, `installation.md` and `user-decisions.md` are regular files.",
        "the missing chapter"),
    pr("PR-039", "No shorter policy with obligations", RECOVERY,
        "expedited.md, Expedited Promotion (step 6); user-decisions.md, Change completion policy (step 2)",
        "Promotion selects `FULL_DELIVERABLE`, and choosing `IMPLEMENTATION_REVIEWED` needs outstanding obligations inactive, so the shorter policy never coexists with an obligation.",
        STATE),
    pr("PR-040", "Promotion invents no scope or design", RECOVERY,
        "expedited.md, Expedited Promotion (step 3)",
        "\"Do not invent a `Scope` or an `Architecture`\": while the handoff is still the `PROMOTE`, both are `NONE`.",
        STATE),
    pr("PR-041", "Increments kept", LINEAGE,
        "Verification Cadence, Testable Increments; user-decisions.md, Switch verification cadence (step 5)",
        "\"Preserve existing numbers; append new entries rather than renumbering assessed increments\": every `### Increment N` of the committed plan is still defined.",
        PLAN),
    pr("PR-042", "New identifiers continue the numbering", LINEAGE,
        "Acceptance Traceability (rules 1-3); Workflow Artifact Provenance (entry numbering)",
        "An acceptance condition, step, finding, documentation entry or discrepancy new since the last commit is numbered above every identifier of its prefix the committed record held, as `id next` hands them out.",
        "the scope or the record"),
    pr("PR-043", "A standard scope defines conditions", RECORDS,
        "Acceptance Traceability (rule 1); Standard Cycle Completion",
        "\"Scoper represents every verifiable in-scope completion obligation as one or more acceptance conditions\": a `STANDARD` cycle past `SCOPING` (or resumed from it) has a scope with at least one current `AC-NNN` (AC-004 holds `DOCUMENTATION` cycles).",
        "the scope"),
    pr("PR-044", "A complete plan has steps", RECORDS,
        "Verification Cadence, Full Verification Boundary; Acceptance Traceability (rule 6)",
        "A plan is marked `COMPLETE` when all current approved steps are `DONE`, so a `COMPLETE` plan defines at least one `### DEV-NNN` step.",
        PLAN),
    pr("PR-045", "A complete review leaves no finding open", RECORDS,
        "Review Gates (Reviewer completion gate); Handoff Rules (rule 1)",
        "\"No material finding is open; the report is `COMPLETE`\": a review report marked `COMPLETE` has no finding whose `Status` is `OPEN`.",
        "the review report"),
    pr("PR-046", "The route since the last commit is legal", LINEAGE,
        "Handoff Rules (rule 1); user-decisions.md, Sign off; Standard Cycle Completion",
        "\"Forward handoff requires the current completion gate to pass\": when `WorkflowState` advances along the cycle's route since the last commit, the forward handoffs (and the sign-off) between the two states pass their gates on the current records. Several legal moves squashed into one commit stay legal; a hand edit that skips roles does not. `verify` judges each commit against its first parent.",
        STATE),
    pr("PR-047", "Promotion never selects the shorter policy", RECOVERY,
        "expedited.md, Expedited Promotion (step 6); user-decisions.md, Change completion policy (step 4)",
        "\"Promotion never selects `IMPLEMENTATION_REVIEWED`\"; a separate user choice is recorded in `Active Work.Request`, so while the handoff is still the `PROMOTE`, `IMPLEMENTATION_REVIEWED` needs the request to record it.",
        STATE),
    pr("PR-048", "A new cycle carries over no policy", LINEAGE,
        "user-decisions.md, Start a cycle (step 5)",
        "\"Never carry over the previous cycle's policy\": a new cycle after a retained `CANCELLED` or `SIGNED_OFF` cycle under `IMPLEMENTATION_REVIEWED` is under the shorter policy only when its request records the user's choice of it.",
        STATE),
    pr("PR-049", "No tool placeholder is left", RECORDS,
        "Workflow Artifact Provenance; Record Formats",
        "The placeholders that `artifact init --skeleton` and `record add` write where the owner's words go (`<observable condition>`, `<P0 | P1 | P2>`, `<owning role>`, ...) are not content: a record of the active cycle holds none of them outside code fences and HTML comments.",
        "any record of the active cycle"),
];

pub const JUDGEMENT: &[Judgement] = &[
    Judgement { section: "Project Modes", rule: "Developer switches MODE.md to `BROWNFIELD` as soon as the cycle has created or materially modified project implementation.",
        reason: "Whether a change is \"project implementation\" and \"material\" is a judgement about content; no file field records it." },
    Judgement { section: "user-decisions.md, Start a cycle", rule: "A cycle can start only from the installed state, `SIGNED_OFF` or a retained `CANCELLED` (a new cycle over an active one).",
        reason: "An uncommitted cancel or sign-off, a Project Reset, or a merge resolution that keeps the other branch's cycle all produce the same pair of snapshots as an illegal restart. What the files decide is held by PR-005, PR-006, GT-001 and PR-026." },
    Judgement { section: "user-decisions.md, Start a cycle (step 1)", rule: "After a retained `CANCELLED`, the new cycle's `BaselineReconciliation` lists the cancelled cycle.",
        reason: "The entry is omitted when the user explicitly confirms that the cycle left no project changes; that confirmation lives in the conversation. Keeping the older entries is mechanical (PR-026)." },
    Judgement { section: "expedited.md, Expedited Promotion (step 6)", rule: "Promotion never selects `IMPLEMENTATION_REVIEWED`.",
        reason: "A same-state policy choice keeps the `PROMOTE` handoff, so a promoted cycle in `AUDITING` with the shorter policy is legal when the user chose it separately; who chose it is in the conversation, and PR-047 holds that the request records the choice." },
    Judgement { section: "Completion Policies; user-decisions.md, Change completion policy", rule: "Only an explicit user choice selects or withdraws `IMPLEMENTATION_REVIEWED`, and no normal documentation, final-review or synchronization work has started.",
        reason: "User authority and \"has started\" are judged from conversation and repository evidence, not from a field." },
    Judgement { section: "Failure Types; Failure Handoffs", rule: "A failure is routed to the owner of the defective artifact or decision.",
        reason: "Which artifact is defective is the discoverer's judgement; the checker holds only that the target owns the failure type (TR-029, RC-005)." },
    Judgement { section: "Recovery Mechanics (rule 3)", rule: "The frame owner chooses which downstream work must be re-established (the value of `RerunThrough`).",
        reason: "Which produced work a correction invalidates is the owner's assessment; only the shape of the value is mechanical (RC-008, RC-013, PR-012)." },
    Judgement { section: "Acceptance Traceability (rules 1, 4-8)", rule: "Every verifiable obligation has an acceptance condition, with sufficient current evidence.",
        reason: "Sufficiency, separability and evidence freshness are assessments; textual coverage is held by AC-009..AC-011." },
    Judgement { section: "Sign-off Readiness and Freshness", rule: "Evidence and closure conclusions still apply to the current inputs at sign-off.",
        reason: "Freshness compares assessed content identities with current content by the owners' judgement; the records hold no machine-comparable identity." },
    Judgement { section: "Independent Assessment Sessions", rule: "Tester and Reviewer assess in a session free of the authoring history.",
        reason: "Chat history is not in the repository." },
    Judgement { section: "User Styles", rule: "A style is used only when the user explicitly selected it, and never inferred.",
        reason: "Who selected a style is recorded only in the conversation; PR-035 holds that the saved name resolves." },
    Judgement { section: "Documentation Cycle Contract", rule: "A documentation cycle edits only Documenter-owned prose, guides, comments and docstrings, and examples describe evidenced behavior.",
        reason: "Whether a project change is prose or behavior, and whether an example is evidenced, needs reading the change." },
    Judgement { section: "Expedited Cycle Contract (rule 1)", rule: "The request remains a sufficiently bounded implementation contract.",
        reason: "\"Sufficiently bounded\" is an assessment." },
    Judgement { section: "Handoff Rules (rules 7-8); Next-Role Invocation Options", rule: "Give the next-role invocation, with the independent-session prefix where required.",
        reason: "Conversation output, not a file." },
    Judgement { section: "Commit Message Guidance", rule: "Suggest a Conventional Commits message after meaningful role work.",
        reason: "Conversation output; the protocol forbids committing without a request, so commits carry no protocol obligation." },
    Judgement { section: "Runtime Tools and Hooks", rule: "A role runs `check` before its first substantive work and before every state-changing handoff.",
        reason: "Whether a command ran is not recorded in the files (the stop hook enforces the turn-end check instead)." },
    Judgement { section: "Project context lifecycle (framework-owned files)", rule: "`.standards/PROTOCOL.md`, its chapters, `VERSION.json` and `INSTALLATION.json` change only by installation or upgrade.",
        reason: "A reinstall by a binary built from another commit with the same version number legitimately rewrites them, so a change cannot be told from a hand edit; only a missing chapter is decided (PR-038, RT-001)." },
    Judgement { section: "Cycle Modes (rule 6); user-decisions.md, Choose the next cycle's mode", rule: "A pending next-cycle mode is set only while no cycle is active.",
        reason: "Not decided: the protocol is ambiguous (rule 6 speaks of selecting a mode for the next cycle during an active one); see the report's ambiguity list." },
];

/// `docs/rules.md`, rendered from [`CATALOGUE`] and [`JUDGEMENT`].
pub fn render_catalogue() -> String {
    let mut out = String::new();
    out.push_str("# Protocol rules beyond the reference checker\n\n");
    out.push_str("<!-- Generated from crates/standards-core/src/check/protocol_rules/catalogue.rs; `UPDATE_RULES=1 cargo test catalogue` rewrites it. -->\n\n");
    out.push_str("`git standards check` enforces two sets of rules. The reference rules (families RT, ST, TR, RC, PV, RH, AC, DV, VF, RV, DC, CP, GT, HK) are the catalogue of the Node reference checker; `check --compat` reports only those. The PR family below holds every further rule of `.standards/PROTOCOL.md` and its chapters that one snapshot plus the last commit decides. In `check --json` each problem says `\"source\": \"reference\"` or `\"source\": \"protocol\"`.\n\n");
    out.push_str(&format!(
        "{} mechanical rules; {} rules need judgement and are listed at the end.\n",
        CATALOGUE.len(),
        JUDGEMENT.len()
    ));
    let mut group = "";
    for r in CATALOGUE {
        if r.group != group {
            group = r.group;
            out.push_str(&format!("\n## {group}\n\n"));
            out.push_str("| ID | Rule | Protocol | Enforces | Reports on |\n");
            out.push_str("| --- | --- | --- | --- | --- |\n");
        }
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} |\n",
            r.info.id,
            r.info.title,
            r.section,
            r.enforces.replace('|', "\\|"),
            r.file
        ));
    }
    out.push_str("\n## Merge rules outside the snapshot\n\n");
    out.push_str("Decided from a merge's parents, not from one snapshot: `check --staged` (and so the pre-commit hook) during a merge, and `verify` on each merge commit.\n\n");
    out.push_str(
        "| ID | Rule | Protocol | Enforces | Reports on |\n| --- | --- | --- | --- | --- |\n",
    );
    out.push_str("| MG-001 | No line-merged STATE.md | D24 STATE.md merges | When both parents changed `.standards/STATE.md` since their merge base, the merge result is one of the two versions (the driver's conflict, decided with the `resolve` command), never a third text that git's line merge made: a workflow state neither branch had. Independent of the merge driver, which a fresh clone lacks. | `.standards/STATE.md` |\n");
    out.push_str("\n## History rules outside the snapshot\n\n");
    out.push_str("Decided from a commit and its first parent, by `verify`.\n\n");
    out.push_str(
        "| ID | Rule | Protocol | Enforces | Reports on |\n| --- | --- | --- | --- | --- |\n",
    );
    out.push_str("| SO-001 | Nothing changes after sign-off | Sign off; Workflow reset | After a commit that holds a `SIGNED_OFF` cycle, no commit changes the project's code or records (`.standards/docs/`, `CONTEXT.md`; not the runtime, `config.toml` or the client files) while the cycle stays signed off, and the commit that leaves `SIGNED_OFF` (the reset) changes nothing outside `.standards/`: the user signed off what they saw. | the first changed path |\n");
    out.push_str("\n## Not mechanical: rules that need judgement\n\n");
    out.push_str("| Protocol | Rule | Why no checker decides it |\n| --- | --- | --- |\n");
    for j in JUDGEMENT {
        out.push_str(&format!("| {} | {} | {} |\n", j.section, j.rule, j.reason));
    }
    out
}
