//! `.standards/STATE.md`: the persisted workflow state (RF §4, check-rules §1.3).
//!
//! [`StateDoc::parse`] performs the structural validation (ST-001..ST-011) and
//! stops at the first failure, as the protocol's tools do. A parsed document
//! keeps its source text and the byte span of every field it read, so
//! [`StateDoc::render`] reproduces the file byte for byte and a field update
//! rewrites only that field's code span.

use std::ops::Range;

use crate::model::fields::{self, Field};
use crate::model::text::{mask_html_comments, strip_bom};
use crate::model::vocab::{
    CompletionPolicy, CycleMode, FailureType, HandoffKind, PendingCadence, WorkflowState,
};

pub const STATE_PATH: &str = ".standards/STATE.md";
pub const TITLE: &str = "# S.T.A.N.D.A.R.D.S. Workflow State";

/// A field value together with where it sits in the source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spanned<T> {
    pub value: T,
    /// The value's code span (backticks included) in the source text.
    pub span: Range<usize>,
    pub line: usize,
}

/// Why STATE.md is structurally invalid; each maps to one ST rule.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}:{line}: {message}", path = STATE_PATH)]
pub struct StateError {
    pub rule: &'static str,
    pub line: usize,
    pub message: String,
}

impl StateError {
    fn new(rule: &'static str, line: usize, message: impl Into<String>) -> Self {
        StateError {
            rule,
            line,
            message: message.into(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BaselineEntry {
    pub source_cycle: Spanned<String>,
    pub request: Spanned<String>,
}

/// `Active Work.BaselineReconciliation` (RF §4.5).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Baseline {
    None,
    Entries(Vec<BaselineEntry>),
    /// Present but not in the list format (ST-027); says what is wrong.
    Malformed(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActiveWork {
    pub id: Spanned<String>,
    pub request: Spanned<String>,
    pub completion_policy: Spanned<CompletionPolicy>,
    pub scope: Spanned<String>,
    pub architecture: Spanned<String>,
    pub development: Spanned<String>,
    pub promotion_reason: Spanned<String>,
    pub audit_target: Spanned<String>,
    pub blocked_on: Spanned<String>,
    pub pending_verification_cadence: Spanned<PendingCadence>,
    pub baseline: Baseline,
    /// Line of the `BaselineReconciliation` label.
    pub baseline_line: usize,
    /// Where the baseline value sits: from just after the label's colon to the
    /// end of its last list line (what a transition rewrites; blank lines and
    /// comments after it are not part of it).
    pub baseline_span: Range<usize>,
}

/// The Handoff section. Its vocabulary is not structural, so values stay raw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Handoff {
    pub kind: Spanned<String>,
    pub from: Spanned<String>,
    pub failure_type: Spanned<String>,
    pub reason: Spanned<String>,
}

impl Handoff {
    pub fn kind(&self) -> Option<HandoffKind> {
        self.kind.value.parse().ok()
    }
    pub fn from_state(&self) -> Option<WorkflowState> {
        self.from.value.parse().ok()
    }
    pub fn failure_type(&self) -> Option<FailureType> {
        self.failure_type.value.parse().ok()
    }
}

/// A `### Frame N` or `### Obligation N` entry: its label and raw fields
/// (first occurrence wins; a missing field is absent).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub label: String,
    pub line: usize,
    pub fields: Vec<(String, Spanned<String>)>,
}

impl Entry {
    pub fn get(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.value.as_str())
    }
    pub fn state(&self, name: &str) -> Option<WorkflowState> {
        self.get(name).and_then(|v| v.parse().ok())
    }
}

/// `## Recovery` or `## Outstanding Obligations`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stack {
    pub active: Spanned<bool>,
    pub entries: Vec<Entry>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StateDoc {
    source: String,
    pub has_bom: bool,
    pub workflow_state: Spanned<WorkflowState>,
    pub cycle_mode: Spanned<CycleMode>,
    pub pending_cycle_mode: Spanned<CycleMode>,
    pub pending_cycle_request: Spanned<String>,
    pub pending_cycle_blocked_on: Spanned<String>,
    pub active_work: ActiveWork,
    pub handoff: Handoff,
    pub recovery: Stack,
    pub obligations: Stack,
}

/// A section located by its `## Name` heading line.
struct Section {
    heading_line: usize,
    body: Range<usize>,
}

impl StateDoc {
    /// Parses and structurally validates STATE.md text.
    pub fn parse(source: &str) -> Result<StateDoc, StateError> {
        let (text, bom) = strip_bom(source);
        let offset = source.len() - text.len();
        let at = |r: Range<usize>| r.start + offset..r.end + offset;
        let lines = fields::LineIndex::new(text);
        let line = |pos: usize| lines.line(pos);
        let spanned = |f: &Field| Spanned {
            value: f.value.clone(),
            span: at(f.span.clone()),
            line: line(f.span.start),
        };

        if !text.starts_with(TITLE) {
            return Err(StateError::new(
                "ST-001",
                1,
                format!("the file must start with the title `{TITLE}`"),
            ));
        }

        // Head: everything before the Active Work heading.
        let active = find_section(text, "Active Work");
        let head_end = active
            .first()
            .map(|s| line_start(text, s.body.start, "Active Work"))
            .unwrap_or(text.len());
        let head = fields::scan(&text[..head_end]);
        let head_once = |name: &'static str| head_field(&head, name, &line);
        let ws_field = head_once("WorkflowState")?;
        let cm_field = head_once("CycleMode")?;
        let workflow_state = typed::<WorkflowState>(ws_field, "ST-003", &line, &at)?;
        let cycle_mode = typed::<CycleMode>(cm_field, "ST-004", &line, &at)?;
        let pcm_field = head_once("PendingCycleMode")?;
        let pcr = spanned(head_once("PendingCycleRequest")?);
        let pcb = spanned(head_once("PendingCycleBlockedOn")?);

        // ST-005: pending pairing, pending mode vocabulary, terminal mode.
        let mut inconsistencies = Vec::new();
        let pending_cycle_mode = pcm_field.value.parse::<CycleMode>();
        if let Err(e) = &pending_cycle_mode {
            inconsistencies.push(format!("PendingCycleMode {e}"));
        }
        if (pcr.value == "UNSET") != (pcb.value == "NONE") {
            inconsistencies.push(
                "`PendingCycleRequest` must be `UNSET` exactly when `PendingCycleBlockedOn` is `NONE`".to_string(),
            );
        }
        if workflow_state.value.is_terminal() && cycle_mode.value != CycleMode::Unset {
            inconsistencies.push(format!(
                "`CycleMode` must be `UNSET` in the terminal state `{}`",
                workflow_state.value
            ));
        }
        if !inconsistencies.is_empty() {
            return Err(StateError::new(
                "ST-005",
                line(pcm_field.pair.start),
                format!(
                    "inconsistent cycle and pending fields: {}",
                    inconsistencies.join("; ")
                ),
            ));
        }
        let pending_cycle_mode = Spanned {
            value: pending_cycle_mode.expect("checked above"),
            span: at(pcm_field.span.clone()),
            line: line(pcm_field.span.start),
        };

        // ST-006..ST-009: Active Work.
        let active = single_section(text, &active, "Active Work", "ST-006")?;
        let active_work = parse_active_work(text, &active, workflow_state.value, offset)?;

        // ST-010: Handoff.
        let handoff_sections = find_section(text, "Handoff");
        let handoff_section = single_section(text, &handoff_sections, "Handoff", "ST-010")?;
        let handoff_fields = fields::scan(&text[handoff_section.body.clone()]);
        let handoff_field = |name: &str| -> Result<Spanned<String>, StateError> {
            fields::values(&handoff_fields, name)
                .find(|f| !f.value.is_empty())
                .map(|f| {
                    let base = handoff_section.body.start;
                    Spanned {
                        value: f.value.clone(),
                        span: at(base + f.span.start..base + f.span.end),
                        line: line(base + f.span.start),
                    }
                })
                .ok_or_else(|| {
                    StateError::new(
                        "ST-010",
                        handoff_section.heading_line,
                        format!("the Handoff section needs a non-empty `{name}` field"),
                    )
                })
        };
        let handoff = Handoff {
            kind: handoff_field("Kind")?,
            from: handoff_field("From")?,
            failure_type: handoff_field("FailureType")?,
            reason: handoff_field("Reason")?,
        };

        // ST-011: Recovery, then Outstanding Obligations.
        let recovery = parse_stack(text, "Recovery", "Frame", offset)?;
        let obligations = parse_stack(text, "Outstanding Obligations", "Obligation", offset)?;

        Ok(StateDoc {
            source: source.to_string(),
            has_bom: bom,
            workflow_state,
            cycle_mode,
            pending_cycle_mode,
            pending_cycle_request: pcr,
            pending_cycle_blocked_on: pcb,
            active_work,
            handoff,
            recovery,
            obligations,
        })
    }

    /// The document as text: byte-identical to what was parsed, plus any updates.
    pub fn render(&self) -> &str {
        &self.source
    }

    /// Whether a cycle is active: an ID is set and the state is not terminal.
    pub fn has_active_cycle(&self) -> bool {
        self.active_work.id.value != "UNSET" && !self.workflow_state.value.is_terminal()
    }

    /// The active cycle's ID, if any.
    pub fn active_cycle_id(&self) -> Option<&str> {
        self.has_active_cycle()
            .then_some(self.active_work.id.value.as_str())
    }

    /// The body of the `## <name>` section (after its heading line, up to the
    /// next `## ` heading or the end), if the section exists once.
    pub fn section_body(&self, name: &str) -> Option<Range<usize>> {
        match find_section(&self.source, name).as_slice() {
            [one] => Some(one.body.clone()),
            _ => None,
        }
    }

    /// Byte offset where line `line` (1-based) starts.
    pub fn line_offset(&self, line: usize) -> usize {
        if line <= 1 {
            return 0;
        }
        self.source
            .match_indices('\n')
            .nth(line - 2)
            .map_or(self.source.len(), |(i, _)| i + 1)
    }

    /// Replaces the bytes at `range` with `text` (raw Markdown, not a code
    /// span) and re-parses: for the stack sections and the baseline list,
    /// whose shape changes with a move.
    pub fn splice(&self, range: Range<usize>, text: &str) -> Result<StateDoc, StateError> {
        let mut source = String::with_capacity(self.source.len() + text.len());
        source.push_str(&self.source[..range.start]);
        source.push_str(text);
        source.push_str(&self.source[range.end..]);
        StateDoc::parse(&source)
    }

    /// Replaces the code span at `span` with `value` and re-parses, so every
    /// other byte of the file is kept and the model stays consistent.
    pub fn update(&self, span: Range<usize>, value: &str) -> Result<StateDoc, StateError> {
        if value.is_empty() {
            return Err(StateError::new(
                "ST-002",
                fields::line_of(&self.source, span.start),
                "a field value cannot be empty",
            ));
        }
        let mut text = String::with_capacity(self.source.len() + value.len());
        text.push_str(&self.source[..span.start]);
        text.push_str(&fields::render_code_span(value));
        text.push_str(&self.source[span.end..]);
        StateDoc::parse(&text)
    }
}

fn head_field<'a>(
    head: &'a [Field],
    name: &str,
    line: &dyn Fn(usize) -> usize,
) -> Result<&'a Field, StateError> {
    let found: Vec<&Field> = head.iter().filter(|f| f.name == name).collect();
    match found.as_slice() {
        [one] if !one.value.is_empty() => Ok(one),
        [] => Err(StateError::new(
            "ST-002",
            1,
            format!("the head is missing the `{name}` field"),
        )),
        [one] => Err(StateError::new(
            "ST-002",
            line(one.span.start),
            format!("`{name}` is empty"),
        )),
        [_, second, ..] => Err(StateError::new(
            "ST-002",
            line(second.pair.start),
            format!("`{name}` appears more than once in the head"),
        )),
    }
}

fn typed<T: std::str::FromStr<Err = crate::model::vocab::UnknownValue>>(
    field: &Field,
    rule: &'static str,
    line: &dyn Fn(usize) -> usize,
    at: &dyn Fn(Range<usize>) -> Range<usize>,
) -> Result<Spanned<T>, StateError> {
    match field.value.parse::<T>() {
        Ok(value) => Ok(Spanned {
            value,
            span: at(field.span.clone()),
            line: line(field.span.start),
        }),
        Err(e) => Err(StateError::new(
            rule,
            line(field.span.start),
            format!("`{}`: {e}", field.name),
        )),
    }
}

/// Every `## <name>` heading line (trailing spaces, tabs and CR allowed), with
/// the body that runs to the next line starting with `## `.
fn find_section(text: &str, name: &str) -> Vec<Section> {
    let mut out = Vec::new();
    let mut pos = 0;
    for raw_line in text.split_inclusive('\n') {
        let start = pos;
        pos += raw_line.len();
        let line = raw_line.trim_end_matches(['\n', '\r', ' ', '\t']);
        if let Some(rest) = line.strip_prefix("## ") {
            if rest.trim() == name {
                let body_start = pos;
                let body_end = next_h2(text, body_start);
                out.push(Section {
                    heading_line: fields::line_of(text, start),
                    body: body_start..body_end,
                });
            }
        }
    }
    out
}

fn next_h2(text: &str, from: usize) -> usize {
    let mut pos = from;
    for line in text[from..].split_inclusive('\n') {
        if line.starts_with("## ") {
            return pos;
        }
        pos += line.len();
    }
    text.len()
}

/// Start of the heading line whose body starts at `body_start`.
fn line_start(text: &str, body_start: usize, _name: &str) -> usize {
    let before = &text[..body_start];
    let trimmed = before.strip_suffix('\n').unwrap_or(before);
    trimmed.rfind('\n').map(|i| i + 1).unwrap_or(0)
}

fn single_section(
    text: &str,
    found: &[Section],
    name: &str,
    rule: &'static str,
) -> Result<Section, StateError> {
    match found {
        [one] => Ok(Section {
            heading_line: one.heading_line,
            body: one.body.clone(),
        }),
        [] => Err(StateError::new(
            rule,
            fields::line_of(text, text.len()),
            format!("the `## {name}` section is missing"),
        )),
        [_, second, ..] => Err(StateError::new(
            rule,
            second.heading_line,
            format!("the `## {name}` section appears more than once"),
        )),
    }
}

const ACTIVE_WORK_FIELDS: [&str; 10] = [
    "Id",
    "CompletionPolicy",
    "Request",
    "Scope",
    "Architecture",
    "Development",
    "PromotionReason",
    "AuditTarget",
    "BlockedOn",
    "PendingVerificationCadence",
];

fn parse_active_work(
    text: &str,
    section: &Section,
    state: WorkflowState,
    offset: usize,
) -> Result<ActiveWork, StateError> {
    let base = section.body.start;
    let body = &text[section.body.clone()];
    let masked = mask_html_comments(body);
    let lines = fields::LineIndex::new(text);
    let line = |rel: usize| lines.line(base + rel);
    let at = |r: Range<usize>| base + offset + r.start..base + offset + r.end;

    // ST-009: the baseline label, then its value region (RF §4.5).
    let label = "`BaselineReconciliation`:";
    let Some(label_at) = masked.find(label) else {
        return Err(StateError::new(
            "ST-009",
            section.heading_line,
            "Active Work is missing the `BaselineReconciliation` field",
        ));
    };
    let value_start = label_at + label.len();
    let value_end = baseline_region_end(&masked, value_start);
    let mut plain = masked.clone();
    plain.replace_range(label_at..value_end, &blank(&masked[label_at..value_end]));

    // ST-007: each plain field exactly once and non-empty, in protocol order.
    let found = fields::scan(&plain);
    let mut picked: Vec<Spanned<String>> = Vec::with_capacity(ACTIVE_WORK_FIELDS.len());
    for name in ACTIVE_WORK_FIELDS {
        let all: Vec<&Field> = fields::values(&found, name).collect();
        let field = match all.as_slice() {
            [one] if !one.value.is_empty() => *one,
            [] => {
                return Err(StateError::new(
                    "ST-007",
                    section.heading_line,
                    format!("Active Work is missing `{name}`"),
                ))
            }
            [one] => {
                return Err(StateError::new(
                    "ST-007",
                    line(one.span.start),
                    format!("Active Work `{name}` is empty"),
                ))
            }
            [_, second, ..] => {
                return Err(StateError::new(
                    "ST-007",
                    line(second.pair.start),
                    format!("Active Work `{name}` appears more than once"),
                ))
            }
        };
        picked.push(Spanned {
            value: field.value.clone(),
            span: at(field.span.clone()),
            line: line(field.span.start),
        });
    }
    let mut it = picked.into_iter();
    let mut next = || it.next().expect("one per name");
    let id = next();
    let policy = next();
    let completion_policy = match policy.value.parse::<CompletionPolicy>() {
        Ok(value) => Spanned {
            value,
            span: policy.span,
            line: policy.line,
        },
        Err(e) => {
            return Err(StateError::new(
                "ST-007",
                policy.line,
                format!("Active Work `CompletionPolicy`: {e}"),
            ))
        }
    };
    let request = next();
    let scope = next();
    let architecture = next();
    let development = next();
    let promotion_reason = next();
    let audit_target = next();
    let blocked_on = next();
    let cadence = next();
    let pending_verification_cadence = match cadence.value.parse::<PendingCadence>() {
        Ok(value) => Spanned {
            value,
            span: cadence.span,
            line: cadence.line,
        },
        Err(e) => {
            return Err(StateError::new(
                "ST-007",
                cadence.line,
                format!("Active Work `PendingVerificationCadence`: {e}"),
            ))
        }
    };
    // ST-008
    if (id.value == "UNSET" || state.is_terminal())
        && pending_verification_cadence.value != PendingCadence::None
    {
        return Err(StateError::new(
            "ST-008",
            pending_verification_cadence.line,
            "`PendingVerificationCadence` must be `NONE` while no cycle is active",
        ));
    }

    // The value without the blank (or comment-only) lines after it.
    let content_end = value_start
        + masked[value_start..value_end]
            .trim_end_matches(|c: char| c.is_whitespace())
            .len();
    let baseline = parse_baseline(
        &masked[value_start..value_end],
        base + value_start,
        text,
        offset,
    );
    Ok(ActiveWork {
        id,
        request,
        completion_policy,
        scope,
        architecture,
        development,
        promotion_reason,
        audit_target,
        blocked_on,
        pending_verification_cadence,
        baseline,
        baseline_line: line(label_at),
        baseline_span: base + offset + value_start..base + offset + content_end,
    })
}

/// The baseline value: rest of the label line, then blank lines, list items and
/// (after a list item) indented continuation lines.
fn baseline_region_end(text: &str, value_start: usize) -> usize {
    let mut pos = match text[value_start..].find('\n') {
        Some(i) => value_start + i + 1,
        None => return text.len(),
    };
    let mut seen_item = false;
    for line in text[pos..].split_inclusive('\n') {
        let content = line.trim_end_matches(['\n', '\r']);
        let trimmed = content.trim_start();
        let is_blank = content.trim().is_empty();
        let is_item =
            trimmed.starts_with('-') && trimmed[1..].starts_with(|c: char| c.is_whitespace());
        let is_continuation =
            seen_item && content.starts_with(|c: char| c.is_whitespace()) && !is_blank;
        if is_item {
            seen_item = true;
        } else if !(is_blank || is_continuation) {
            break;
        }
        pos += line.len();
    }
    pos
}

fn parse_baseline(value: &str, abs_start: usize, text: &str, offset: usize) -> Baseline {
    // ECMAScript trim (check-rules §1.1): U+FEFF counts, U+0085 does not.
    let trimmed = value.trim_matches(fields::is_js_whitespace);
    if trimmed == "`NONE`" {
        return Baseline::None;
    }
    if !trimmed.starts_with("- ") {
        return Baseline::Malformed(
            "the value must be `NONE` or a Markdown list of source cycles".into(),
        );
    }
    let lead = value.len() - value.trim_start().len();
    let lines = fields::LineIndex::new(text);
    let mut entries = Vec::new();
    let mut chunks: Vec<(usize, String)> = Vec::new();
    let mut pos = lead;
    for line in value[lead..].split_inclusive('\n') {
        if line.trim_start().starts_with("- ") || chunks.is_empty() {
            chunks.push((pos, String::new()));
        }
        chunks.last_mut().expect("pushed").1.push_str(line);
        pos += line.len();
    }
    for (start, chunk) in chunks {
        let found = fields::scan(&chunk);
        let get = |name: &str| {
            fields::first(&found, name)
                .filter(|f| !f.value.is_empty())
                .map(|f| {
                    let s = abs_start + start + f.span.start;
                    Spanned {
                        value: f.value.clone(),
                        span: s + offset..abs_start + start + f.span.end + offset,
                        line: lines.line(s),
                    }
                })
        };
        match (get("SourceCycle"), get("Request")) {
            (Some(source_cycle), Some(request)) => entries.push(BaselineEntry {
                source_cycle,
                request,
            }),
            _ => {
                return Baseline::Malformed(
                    "every entry needs a non-empty `SourceCycle` and `Request`".into(),
                )
            }
        }
    }
    Baseline::Entries(entries)
}

fn parse_stack(
    text: &str,
    name: &str,
    entry_word: &str,
    offset: usize,
) -> Result<Stack, StateError> {
    let found = find_section(text, name);
    let section = single_section(text, &found, name, "ST-011")?;
    let base = section.body.start;
    let body = &text[section.body.clone()];
    let all = fields::scan(body);
    let actives: Vec<&Field> = fields::values(&all, "Active").collect();
    let active = match actives.as_slice() {
        [one] if one.value == "true" || one.value == "false" => Spanned {
            value: one.value == "true",
            span: base + offset + one.span.start..base + offset + one.span.end,
            line: fields::line_of(text, base + one.span.start),
        },
        [one] => {
            return Err(StateError::new(
                "ST-011",
                fields::line_of(text, base + one.span.start),
                format!(
                    "`## {name}` `Active` must be `true` or `false`, not `{}`",
                    one.value
                ),
            ))
        }
        [] => {
            return Err(StateError::new(
                "ST-011",
                section.heading_line,
                format!("`## {name}` has no `Active` field"),
            ))
        }
        [_, second, ..] => {
            return Err(StateError::new(
                "ST-011",
                fields::line_of(text, base + second.pair.start),
                format!("`## {name}` has more than one `Active` field"),
            ))
        }
    };

    // Entry headings: `###`, whitespace, the word, then the label.
    let mut heads: Vec<(usize, usize, String)> = Vec::new(); // (line start, line end, label)
    let mut pos = 0;
    for line in body.split_inclusive('\n') {
        let content = line.trim_end_matches(['\n', '\r']);
        if let Some(label) = entry_label(content, entry_word) {
            heads.push((pos, pos + line.len(), label));
        }
        pos += line.len();
    }
    let lines = fields::LineIndex::new(text);
    let mut entries = Vec::new();
    for (i, (start, end, label)) in heads.iter().enumerate() {
        let stop = heads.get(i + 1).map(|h| h.0).unwrap_or(body.len());
        let mut seen: Vec<(String, Spanned<String>)> = Vec::new();
        let mut names: std::collections::HashSet<String> = std::collections::HashSet::new();
        for f in fields::scan(&body[*end..stop]) {
            if names.insert(f.name.clone()) {
                let s = base + end + f.span.start;
                seen.push((
                    f.name.clone(),
                    Spanned {
                        value: f.value.clone(),
                        span: s + offset..base + end + f.span.end + offset,
                        line: lines.line(s),
                    },
                ));
            }
        }
        entries.push(Entry {
            label: label.clone(),
            line: lines.line(base + start),
            fields: seen,
        });
    }
    Ok(Stack { active, entries })
}

/// `### Frame 1` → `1`; `### Frames` and `#### Frame 1` are not entries.
fn entry_label(line: &str, word: &str) -> Option<String> {
    let rest = line.strip_prefix("###")?;
    if !rest.starts_with(fields::is_js_whitespace) {
        return None;
    }
    let rest = rest
        .trim_start_matches(fields::is_js_whitespace)
        .strip_prefix(word)?;
    if rest.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    Some(rest.trim_matches([' ', '\t']).to_string())
}

fn blank(s: &str) -> String {
    s.bytes()
        .map(|b| if b == b'\n' { '\n' } else { ' ' })
        .collect()
}

/// The fresh STATE.md a first install (or reset) writes (RF §4.1, §4.2).
pub fn fresh_template(mode: crate::model::vocab::ProjectMode) -> String {
    use crate::model::vocab::ProjectMode;
    let (state, word) = match mode {
        ProjectMode::Greenfield => ("SCOPING", "greenfield"),
        ProjectMode::Brownfield => ("AUDITING", "brownfield"),
    };
    format!(
        "# S.T.A.N.D.A.R.D.S. Workflow State

`WorkflowState`: `{state}` `CycleMode`: `UNSET` `PendingCycleMode`: `UNSET`
`PendingCycleRequest`: `UNSET` `PendingCycleBlockedOn`: `NONE`

## Active Work

`CompletionPolicy`: `NONE` `Id`: `UNSET` `Request`: `UNSET` `Scope`: `NONE`
`Architecture`: `NONE` `Development`: `NONE` `PromotionReason`: `NONE`
`AuditTarget`: `NONE` `BlockedOn`: `NONE` `PendingVerificationCadence`: `NONE`

`BaselineReconciliation`: `NONE`

<!-- When non-NONE, use one Markdown list entry per source cycle:
- `SourceCycle`: `<cancelled-cycle-id>`
  `Request`: `<source-cycle request summary>`
Preserve existing entries; see PROTOCOL.md, Baseline Reconciliation Format.
-->

## Handoff

`Kind`: `INITIAL` `From`: `NONE` `FailureType`: `NONE` `Reason`:
`Initial {word} workflow state; cycle mode not yet selected.`

## Recovery

`Active`: `false`

## Outstanding Obligations

`Active`: `false`
"
    )
}

#[cfg(test)]
mod tests;
