//! The byte-preserving span editor of STATE.md: the edits of one workflow
//! move, each located in the parsed document, applied together. A move
//! passes through no intermediate state, and every byte outside the edited
//! spans stays as it was (a hand-edited or Node-written STATE.md keeps its
//! layout).

use std::ops::Range;

use crate::model::fields::render_code_span;
use crate::model::state::{StateDoc, StateError};
use crate::model::vocab::{FailureType, HandoffKind, WorkflowState};

/// The stack section of recovery frames.
pub const RECOVERY: &str = "Recovery";
/// The stack section of outstanding obligations.
pub const OBLIGATIONS: &str = "Outstanding Obligations";

/// Why an edit cannot be made; the workflow turns it into a refusal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EditError {
    /// STATE.md does not have exactly one section of this name.
    MissingSection(&'static str),
    /// There is no recovery frame to edit.
    NoRecoveryFrame,
    /// The newest recovery frame (named by its label) has no `RerunThrough`.
    NoRerunThrough { frame: String },
    /// Two edits of one move overlap (a bug of the move).
    Overlap,
    /// The edited document does not parse.
    Invalid(StateError),
}

/// The STATE.md fields a move may set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    WorkflowState,
    CycleMode,
    PendingCycleMode,
    PendingCycleRequest,
    PendingCycleBlockedOn,
    Id,
    Request,
    CompletionPolicy,
    Scope,
    Architecture,
    Development,
    PromotionReason,
    AuditTarget,
    BlockedOn,
    PendingCadence,
    Kind,
    From,
    FailureType,
    Reason,
}

pub fn locate(doc: &StateDoc, field: Field) -> (Range<usize>, String) {
    let aw = &doc.active_work;
    let h = &doc.handoff;
    match field {
        Field::WorkflowState => (
            doc.workflow_state.span.clone(),
            doc.workflow_state.value.to_string(),
        ),
        Field::CycleMode => (
            doc.cycle_mode.span.clone(),
            doc.cycle_mode.value.to_string(),
        ),
        Field::PendingCycleMode => (
            doc.pending_cycle_mode.span.clone(),
            doc.pending_cycle_mode.value.to_string(),
        ),
        Field::PendingCycleRequest => (
            doc.pending_cycle_request.span.clone(),
            doc.pending_cycle_request.value.clone(),
        ),
        Field::PendingCycleBlockedOn => (
            doc.pending_cycle_blocked_on.span.clone(),
            doc.pending_cycle_blocked_on.value.clone(),
        ),
        Field::Id => (aw.id.span.clone(), aw.id.value.clone()),
        Field::Request => (aw.request.span.clone(), aw.request.value.clone()),
        Field::CompletionPolicy => (
            aw.completion_policy.span.clone(),
            aw.completion_policy.value.to_string(),
        ),
        Field::Scope => (aw.scope.span.clone(), aw.scope.value.clone()),
        Field::Architecture => (aw.architecture.span.clone(), aw.architecture.value.clone()),
        Field::Development => (aw.development.span.clone(), aw.development.value.clone()),
        Field::PromotionReason => (
            aw.promotion_reason.span.clone(),
            aw.promotion_reason.value.clone(),
        ),
        Field::AuditTarget => (aw.audit_target.span.clone(), aw.audit_target.value.clone()),
        Field::BlockedOn => (aw.blocked_on.span.clone(), aw.blocked_on.value.clone()),
        Field::PendingCadence => (
            aw.pending_verification_cadence.span.clone(),
            aw.pending_verification_cadence.value.to_string(),
        ),
        Field::Kind => (h.kind.span.clone(), h.kind.value.clone()),
        Field::From => (h.from.span.clone(), h.from.value.clone()),
        Field::FailureType => (h.failure_type.span.clone(), h.failure_type.value.clone()),
        Field::Reason => (h.reason.span.clone(), h.reason.value.clone()),
    }
}

/// A frame to push onto the recovery stack.
pub struct NewFrame {
    pub from: WorkflowState,
    pub owner: WorkflowState,
    pub failure: FailureType,
    pub reason: String,
}

/// Collects the byte edits of one move, all located in the original
/// document, and applies them together: a move passes through no
/// intermediate state (which might not even parse), and every byte outside
/// the edited spans stays as it was.
pub struct StateEditor {
    doc: StateDoc,
    edits: Vec<(Range<usize>, String)>,
}

impl StateEditor {
    pub fn new(doc: &StateDoc) -> StateEditor {
        StateEditor {
            doc: doc.clone(),
            edits: Vec::new(),
        }
    }

    pub fn put(&mut self, range: Range<usize>, text: String) {
        self.edits.retain(|(r, _)| *r != range);
        self.edits.push((range, text));
    }

    pub fn set(&mut self, field: Field, value: &str) -> Result<&mut Self, EditError> {
        let (span, current) = locate(&self.doc, field);
        if current == value {
            self.edits.retain(|(r, _)| *r != span);
        } else {
            self.put(span, render_code_span(value));
        }
        Ok(self)
    }

    pub fn handoff(
        &mut self,
        kind: HandoffKind,
        from: &str,
        failure: Option<FailureType>,
        reason: &str,
    ) -> Result<&mut Self, EditError> {
        self.set(Field::Kind, kind.as_str())?
            .set(Field::From, from)?
            .set(Field::FailureType, failure.map_or("NONE", |f| f.as_str()))?
            .set(Field::Reason, reason)
    }

    pub fn stack(&self, section: &str) -> &crate::model::state::Stack {
        if section == RECOVERY {
            &self.doc.recovery
        } else {
            &self.doc.obligations
        }
    }

    pub fn set_active(&mut self, section: &str, active: bool) {
        let flag = &self.stack(section).active;
        let span = flag.span.clone();
        if flag.value == active {
            self.edits.retain(|(r, _)| *r != span);
        } else {
            self.put(span, format!("`{active}`"));
        }
    }

    /// Appends entries at the end of a stack section and marks it active.
    pub fn append_entries(
        &mut self,
        section: &'static str,
        entries: &[String],
    ) -> Result<(), EditError> {
        if entries.is_empty() {
            return Ok(());
        }
        let body = self
            .doc
            .section_body(section)
            .ok_or(EditError::MissingSection(section))?;
        let source = self.doc.render();
        let before = &source[..body.end];
        let lead = if before.ends_with("\n\n") {
            ""
        } else if before.ends_with('\n') {
            "\n"
        } else {
            "\n\n"
        };
        let trail = if body.end < source.len() { "\n" } else { "" };
        let text = format!("{lead}{}{trail}", entries.join("\n"));
        self.put(body.end..body.end, text);
        self.set_active(section, true);
        Ok(())
    }

    /// Removes the entries of a stack section from the `keep`-th on (all of
    /// them for 0) and marks it inactive when none is left.
    pub fn truncate(&mut self, section: &'static str, keep: usize) -> Result<(), EditError> {
        let stack = self.stack(section);
        let left = stack.entries.len().min(keep);
        if let Some(first_removed) = stack.entries.get(keep) {
            let body = self
                .doc
                .section_body(section)
                .ok_or(EditError::MissingSection(section))?;
            let source = self.doc.render();
            let mut start = self.doc.line_offset(first_removed.line);
            if body.end == source.len() && source[..start].ends_with("\n\n") {
                start -= 1;
            }
            self.put(start..body.end, String::new());
        }
        self.set_active(section, left > 0);
        Ok(())
    }

    pub fn push_frame(&mut self, frame: &NewFrame) -> Result<usize, EditError> {
        let n = self.doc.recovery.entries.len() + 1;
        let text = format!(
            "### Frame {n}\n\n`From`: `{}` `Owner`: `{}` `FailureType`: `{}`\n`Reason`: {}\n`ResumeAt`: `{}` `RerunThrough`: `NONE`\n",
            frame.from,
            frame.owner,
            frame.failure,
            render_code_span(&frame.reason),
            frame.from,
        );
        self.append_entries(RECOVERY, &[text])?;
        Ok(n)
    }

    pub fn pop_frame(&mut self) -> Result<(), EditError> {
        let keep = self.doc.recovery.entries.len().saturating_sub(1);
        self.truncate(RECOVERY, keep)
    }

    pub fn set_rerun_through(&mut self, state: WorkflowState) -> Result<(), EditError> {
        let frame = self
            .doc
            .recovery
            .entries
            .last()
            .ok_or(EditError::NoRecoveryFrame)?;
        let Some((_, field)) = frame.fields.iter().find(|(n, _)| n == "RerunThrough") else {
            return Err(EditError::NoRerunThrough {
                frame: frame.label.clone(),
            });
        };
        let span = field.span.clone();
        self.put(span, render_code_span(state.as_str()));
        Ok(())
    }

    pub fn set_baseline(&mut self, entries: &[(String, String)]) -> Result<(), EditError> {
        let text = if entries.is_empty() {
            " `NONE`".to_string()
        } else {
            let items: Vec<String> = entries
                .iter()
                .map(|(id, request)| {
                    format!(
                        "- `SourceCycle`: {}\n  `Request`: {}",
                        render_code_span(id),
                        render_code_span(request)
                    )
                })
                .collect();
            format!("\n\n{}", items.join("\n"))
        };
        let span = self.doc.active_work.baseline_span.clone();
        if self.doc.render()[span.clone()] != text {
            self.put(span, text);
        }
        Ok(())
    }

    /// Applies every edit and parses the result.
    pub fn build(mut self) -> Result<StateDoc, EditError> {
        if self.edits.is_empty() {
            return Ok(self.doc);
        }
        self.edits.sort_by_key(|(r, _)| (r.start, r.end));
        let source = self.doc.render();
        let mut out = String::with_capacity(source.len() + 256);
        let mut at = 0;
        for (range, text) in &self.edits {
            if range.start < at {
                return Err(EditError::Overlap);
            }
            out.push_str(&source[at..range.start]);
            out.push_str(text);
            at = range.end;
        }
        out.push_str(&source[at..]);
        StateDoc::parse(&out).map_err(EditError::Invalid)
    }
}
