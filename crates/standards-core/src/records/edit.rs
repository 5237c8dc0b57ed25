//! Structural record edits owned by the tool (`artifact init --set`,
//! `record add`, `record set`): the vocabulary of every structured field a
//! record format defines (RF §7), setting one field's value, and adding one
//! numbered item in its section. Every edit changes only the bytes it means
//! to change: a field's code span, or the inserted item.
//!
//! Items are found the way `check` reads them: `### <PREFIX>-NNN` headings
//! outside code fences, an item running to the next heading of level 1 to 3;
//! an `AC-NNN` condition is a list item. Sections are the H2 sections of
//! [`record::sections`] (a CommonMark parse).

use std::ops::Range;

use crate::model::fields::{self, Field};
use crate::model::vocab::{ArtifactType, FailureType, IdPrefix};
use crate::records::plan;
use crate::records::record::{self, is_saveable_style, is_unfilled};

/// What values a structured field accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Allowed {
    /// Exactly one of these words.
    OneOf(&'static [&'static str]),
    /// `NONE` or a user-style selector that a record can save.
    Style,
    /// A comma-separated list of identifiers of a prefix, or the one `word`.
    Ids {
        prefix: IdPrefix,
        word: &'static str,
    },
    /// A canonical failure type (and `NONE` when `none`).
    FailureType { none: bool },
    /// `NONE` or a positive number.
    NoneOrNumber,
    /// Any concrete text: not blank and not a placeholder.
    Text,
}

impl Allowed {
    /// The allowed values, as a message names them.
    pub fn describe(self) -> String {
        match self {
            Allowed::OneOf(words) => words
                .iter()
                .map(|w| format!("`{w}`"))
                .collect::<Vec<_>>()
                .join(", "),
            Allowed::Style => "`NONE` or a user-style name (no `|`, not `<...>`)".to_string(),
            Allowed::Ids { prefix, word } => {
                format!("`{word}` or a comma-separated list of `{prefix}-NNN` identifiers")
            }
            Allowed::FailureType { none } => {
                let mut all: Vec<String> = FailureType::ALL
                    .iter()
                    .map(|t| format!("`{}`", t.as_str()))
                    .collect();
                if none {
                    all.push("`NONE`".to_string());
                }
                all.join(", ")
            }
            Allowed::NoneOrNumber => "`NONE` or a positive number".to_string(),
            Allowed::Text => {
                "any concrete text (not blank, no ` | ` list, not a `<...>` placeholder)"
                    .to_string()
            }
        }
    }

    /// Whether `value` is allowed.
    pub fn accepts(self, value: &str) -> bool {
        match self {
            Allowed::OneOf(words) => words.contains(&value),
            Allowed::Style => is_saveable_style(value),
            Allowed::Ids { prefix, word } => {
                value == word
                    || plan::identifier_list(value, prefix).is_some_and(|ids| !ids.is_empty())
            }
            Allowed::FailureType { none } => {
                (none && value == "NONE") || FailureType::ALL.iter().any(|t| t.as_str() == value)
            }
            Allowed::NoneOrNumber => value == "NONE" || plan::is_positive_integer(value),
            Allowed::Text => {
                !fields::js_trim(value).is_empty() && !is_unfilled(value) && !value.contains('\n')
            }
        }
    }
}

/// One structured field of a record format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldSpec {
    pub name: &'static str,
    pub allowed: Allowed,
}

const fn spec(name: &'static str, allowed: Allowed) -> FieldSpec {
    FieldSpec { name, allowed }
}

const PROGRESS: Allowed = Allowed::OneOf(&["IN_PROGRESS", "BLOCKED", "COMPLETE"]);
const ENTRY_STATUS: Allowed = Allowed::OneOf(&["OPEN", "RESOLVED", "WITHDRAWN"]);

const DEVELOPMENT_HEADER: &[FieldSpec] = &[
    spec(
        "Mode",
        Allowed::OneOf(&["AUTONOMOUS", "STEPWISE", "CODE_WITH_ME"]),
    ),
    spec("User Style", Allowed::Style),
    spec("User Style Locked", Allowed::OneOf(&["false", "true"])),
    spec(
        "Status",
        Allowed::OneOf(&["PROPOSED", "APPROVED", "IN_PROGRESS", "COMPLETE"]),
    ),
    spec(
        "Verification Cadence",
        Allowed::OneOf(&["AFTER_IMPLEMENTATION", "INCREMENTAL"]),
    ),
    spec("Current Increment", Allowed::NoneOrNumber),
];
const VERIFICATION_HEADER: &[FieldSpec] = &[
    spec("Mode", Allowed::OneOf(&["VERIFY", "REVERIFY"])),
    spec("Status", PROGRESS),
    spec("User Style", Allowed::Style),
    spec(
        "Assessment Purpose",
        Allowed::OneOf(&["FULL", "INCREMENT", "CORRECTION"]),
    ),
    spec("Assessment Target", Allowed::Text),
];
const REVIEW_HEADER: &[FieldSpec] = &[spec("Status", PROGRESS), spec("User Style", Allowed::Style)];
const DOCUMENTATION_HEADER: &[FieldSpec] = &[
    spec("Status", PROGRESS),
    spec("Collaboration", Allowed::OneOf(&["AUTONOMOUS", "GUIDED"])),
    spec(
        "Target",
        Allowed::OneOf(&["FILE", "FOLDER", "VERTICAL_SLICE", "ACTIVE_CHANGE"]),
    ),
    spec("Target Detail", Allowed::Text),
    spec("User Style", Allowed::Style),
];
const SYNCHRONIZATION_HEADER: &[FieldSpec] =
    &[spec("Status", PROGRESS), spec("User Style", Allowed::Style)];

/// The header fields a role sets in a record of this type (RF §7.3-§7.7).
/// `Cycle` and `ReviewKind` are written by `artifact init` and never set.
pub fn header_vocabulary(artifact: ArtifactType) -> &'static [FieldSpec] {
    match artifact {
        ArtifactType::Scope | ArtifactType::Architecture => &[],
        ArtifactType::Development => DEVELOPMENT_HEADER,
        ArtifactType::Verification => VERIFICATION_HEADER,
        ArtifactType::Review => REVIEW_HEADER,
        ArtifactType::Documentation => DOCUMENTATION_HEADER,
        ArtifactType::Synchronization => SYNCHRONIZATION_HEADER,
    }
}

const DEV_FIELDS: &[FieldSpec] = &[
    spec(
        "Status",
        Allowed::OneOf(&["PENDING", "IN_PROGRESS", "DONE"]),
    ),
    spec(
        "Depends On",
        Allowed::Ids {
            prefix: IdPrefix::Dev,
            word: "NONE",
        },
    ),
    spec(
        "Acceptance",
        Allowed::Ids {
            prefix: IdPrefix::Ac,
            word: "EXPEDITED_REQUEST",
        },
    ),
];
const F_FIELDS: &[FieldSpec] = &[
    spec("Severity", Allowed::OneOf(&["P0", "P1", "P2"])),
    spec("Status", ENTRY_STATUS),
    spec("Owner", Allowed::Text),
    spec("FailureType", Allowed::FailureType { none: false }),
];
const D_FIELDS: &[FieldSpec] = &[
    spec("Status", ENTRY_STATUS),
    spec("Owner", Allowed::Text),
    spec("FailureType", Allowed::FailureType { none: true }),
];
const DOC_FIELDS: &[FieldSpec] = &[spec("Status", ENTRY_STATUS), spec("Owner", Allowed::Text)];

/// The fields of a numbered item (RF §7.3, §7.5-§7.7); AC conditions have none.
pub fn item_vocabulary(prefix: IdPrefix) -> &'static [FieldSpec] {
    match prefix {
        IdPrefix::Ac => &[],
        IdPrefix::Dev => DEV_FIELDS,
        IdPrefix::F => F_FIELDS,
        IdPrefix::D => D_FIELDS,
        IdPrefix::Doc => DOC_FIELDS,
    }
}

/// What an item of a prefix is called in messages.
pub fn item_noun(prefix: IdPrefix) -> &'static str {
    match prefix {
        IdPrefix::Ac => "acceptance condition",
        IdPrefix::Dev => "development step",
        IdPrefix::F => "finding",
        IdPrefix::D => "discrepancy",
        IdPrefix::Doc => "documentation entry",
    }
}

/// Why an edit cannot be made. Every message names the field or item, the
/// record type and what to do instead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    #[error("a {record} record has no field `{field}`; its fields are {known}")]
    UnknownField {
        field: String,
        record: String,
        known: String,
    },
    #[error("`{value}` is not a value of `{field}` in a {record} record; allowed: {allowed}")]
    BadValue {
        field: String,
        value: String,
        record: String,
        allowed: String,
    },
    #[error("a {record} record has no header fields to set")]
    NoHeader { record: String },
    #[error("`{field}` of a {record} record is written by `artifact init` from the cycle and is never set by hand")]
    Fixed { field: String, record: String },
    #[error("`{0}` is not `Field=VALUE` (for example `Status=DONE`)")]
    NotAnAssignment(String),
    #[error("the record has no {noun} `{id}`")]
    NoItem { id: String, noun: &'static str },
    #[error("{noun}s (`{prefix}-NNN`) have no fields to set; change the condition's text, or move a retired one under `## Retired Acceptance Identifiers`")]
    NoItemFields {
        prefix: IdPrefix,
        noun: &'static str,
    },
    #[error("a title is one line of text; `{0}` is blank or spans lines")]
    BadTitle(String),
    #[error("the record has no `# ` title line, so it has no header to hold `{0}`")]
    NoTitle(String),
    /// The item's heading, or the place a new item would go, lies inside a
    /// fenced code block (often a fence left open, which runs to the end of
    /// the file): an item there is no item, so the edit is refused.
    #[error("{what} inside a fenced code block (a ``` or ~~~ fence opened on line {line} {closed}), so it is no item of the record")]
    InFence {
        what: String,
        line: usize,
        closed: &'static str,
    },
}

/// The fenced code block holding byte `at` of `text`, as [`EditError::InFence`].
fn in_fence(text: &str, at: usize, what: String) -> Option<EditError> {
    let r = record::fenced_ranges(text)
        .into_iter()
        .find(|r| r.start <= at && at < r.end)?;
    let body = text[r.clone()].trim_end_matches(['\n', '\r']);
    let opener = body.trim_start().chars().next().unwrap_or('`');
    let closed = body
        .rsplit('\n')
        .next()
        .filter(|last| body.contains('\n') && last.trim_start().starts_with([opener; 1]))
        .is_some();
    Some(EditError::InFence {
        what,
        line: text[..r.start].matches('\n').count() + 1,
        closed: if closed {
            "and closed after it"
        } else {
            "and never closed, so it runs to the end of the file"
        },
    })
}

/// `Field=VALUE`, split at the first `=`; both sides trimmed.
pub fn parse_assignment(text: &str) -> Result<(String, String), EditError> {
    match text.split_once('=') {
        Some((name, value)) if !name.trim().is_empty() => {
            Ok((name.trim().to_string(), value.trim().to_string()))
        }
        _ => Err(EditError::NotAnAssignment(text.to_string())),
    }
}

fn names(specs: &[FieldSpec]) -> String {
    specs
        .iter()
        .map(|s| format!("`{}`", s.name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Checks one header assignment against the record type's vocabulary.
pub fn validate_header(artifact: ArtifactType, name: &str, value: &str) -> Result<(), EditError> {
    let record = artifact.as_str().to_string();
    let specs = header_vocabulary(artifact);
    if matches!(name, "Cycle" | "ReviewKind") && !specs.is_empty() {
        return Err(EditError::Fixed {
            field: name.to_string(),
            record,
        });
    }
    if specs.is_empty() {
        return Err(EditError::NoHeader { record });
    }
    validate(specs, &record, name, value)
}

/// Checks one item assignment against the prefix's vocabulary.
pub fn validate_item(prefix: IdPrefix, name: &str, value: &str) -> Result<(), EditError> {
    let specs = item_vocabulary(prefix);
    if specs.is_empty() {
        return Err(EditError::NoItemFields {
            prefix,
            noun: item_noun(prefix),
        });
    }
    let record = format!("{} (`{prefix}-NNN`)", item_noun(prefix));
    validate(specs, &record, name, value).map_err(|e| match e {
        // "a finding (`F-NNN`) record" reads wrong: name the item.
        EditError::UnknownField { field, known, .. } => EditError::UnknownField {
            field,
            record: format!("{prefix}-NNN item of the"),
            known,
        },
        other => other,
    })
}

fn validate(specs: &[FieldSpec], record: &str, name: &str, value: &str) -> Result<(), EditError> {
    let Some(spec) = specs.iter().find(|s| s.name == name) else {
        return Err(EditError::UnknownField {
            field: name.to_string(),
            record: record.to_string(),
            known: names(specs),
        });
    };
    if spec.allowed.accepts(value) {
        Ok(())
    } else {
        Err(EditError::BadValue {
            field: name.to_string(),
            value: value.to_string(),
            record: record.to_string(),
            allowed: spec.allowed.describe(),
        })
    }
}

/// The result of one field edit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldEdit {
    pub text: String,
    /// The value before (`None` when the field was added).
    pub old: Option<String>,
}

/// Replaces the value of `field` (or adds the pair after `after`) in `text`.
fn put_field(
    text: &str,
    existing: Option<&Field>,
    after: usize,
    name: &str,
    value: &str,
) -> FieldEdit {
    let span = fields::render_code_span(value);
    match existing {
        Some(f) => FieldEdit {
            text: format!("{}{span}{}", &text[..f.span.start], &text[f.span.end..]),
            old: Some(f.value.clone()),
        },
        None => FieldEdit {
            text: format!(
                "{} {}: {span}{}",
                &text[..after],
                fields::render_code_span(name),
                &text[after..]
            ),
            old: None,
        },
    }
}

/// Sets a header field (validated first). Only the value's code span
/// changes; a field the header lacks is added after its last field.
pub fn set_header_field(
    text: &str,
    artifact: ArtifactType,
    name: &str,
    value: &str,
) -> Result<FieldEdit, EditError> {
    validate_header(artifact, name, value)?;
    let header = record::header_fields(text);
    match header.iter().find(|f| f.name == name) {
        Some(f) => Ok(put_field(text, Some(f), 0, name, value)),
        None => {
            let Some(range) = record::header_range(text) else {
                return Err(EditError::NoTitle(name.to_string()));
            };
            match header.last() {
                Some(last) => Ok(put_field(text, None, last.pair.end, name, value)),
                None => {
                    let line = format!(
                        "\n{}: {}\n",
                        fields::render_code_span(name),
                        fields::render_code_span(value)
                    );
                    let at = range.start;
                    Ok(FieldEdit {
                        text: format!("{}{line}{}", &text[..at], &text[at..]),
                        old: None,
                    })
                }
            }
        }
    }
}

/// One numbered item of a record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    pub id: String,
    /// The heading line (or list item line for `AC`), newline excluded.
    pub line: Range<usize>,
    /// From after the heading line to the next heading of level 1-3.
    pub body: Range<usize>,
}

/// The text with every fenced code block's bytes (fences included) blanked,
/// newlines kept, so offsets stay those of `text`.
fn blank_fences(text: &str) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for r in record::fenced_ranges(text) {
        for b in &mut bytes[r] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
    }
    String::from_utf8(bytes).unwrap_or_default()
}

fn heading_level(line: &str) -> usize {
    let n = line.bytes().take_while(|b| *b == b'#').count();
    if (1..=6).contains(&n) && line[n..].starts_with([' ', '\t']) {
        n
    } else {
        0
    }
}

/// The identifier a `### <PREFIX>-NNN` heading line defines (also how the
/// protocol rules find a record's entries).
pub(crate) fn heading_id(line: &str, prefix: IdPrefix) -> Option<String> {
    if heading_level(line) != 3 {
        return None;
    }
    let after = line[3..]
        .trim_start()
        .strip_prefix(prefix.as_str())?
        .strip_prefix('-')?;
    let digits = after.bytes().take_while(u8::is_ascii_digit).count();
    let boundary = after[digits..]
        .chars()
        .next()
        .is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_'));
    (digits >= 3 && boundary).then(|| format!("{prefix}-{}", &after[..digits]))
}

/// Every `### <PREFIX>-NNN` item of `text`, outside code fences.
pub fn items(text: &str, prefix: IdPrefix) -> Vec<Item> {
    let masked = blank_fences(text);
    let mut out: Vec<Item> = Vec::new();
    let mut open: Option<(String, Range<usize>)> = None;
    let mut pos = 0;
    for line in masked.split_inclusive('\n') {
        let bare = line.trim_end_matches(['\n', '\r']);
        let level = heading_level(bare);
        if (1..=3).contains(&level) {
            if let Some((id, l)) = open.take() {
                out.push(Item {
                    id,
                    body: (l.end + 1).min(pos)..pos,
                    line: l,
                });
            }
            if let Some(id) = heading_id(bare, prefix) {
                open = Some((id, pos..pos + bare.len()));
            }
        }
        pos += line.len();
    }
    if let Some((id, l)) = open {
        out.push(Item {
            id,
            body: (l.end + 1).min(text.len())..text.len(),
            line: l,
        });
    }
    out
}

/// Sets a field of the item `id` (validated first): the first occurrence
/// after its heading, as `check` reads it; a missing field is added after
/// the item's last field (or on a line after the heading).
pub fn set_item_field(
    text: &str,
    prefix: IdPrefix,
    id: &str,
    name: &str,
    value: &str,
) -> Result<FieldEdit, EditError> {
    validate_item(prefix, name, value)?;
    let Some(item) = items(text, prefix).into_iter().find(|i| i.id == id) else {
        // A heading for `id` that the fences hide: say so, never "no item".
        let mut pos = 0;
        for line in text.split_inclusive('\n') {
            if heading_id(line.trim_end_matches(['\n', '\r']), prefix).as_deref() == Some(id) {
                if let Some(e) = in_fence(text, pos, format!("`### {id}` sits")) {
                    return Err(e);
                }
            }
            pos += line.len();
        }
        return Err(EditError::NoItem {
            id: id.to_string(),
            noun: item_noun(prefix),
        });
    };
    let masked = blank_fences(text);
    let found: Vec<Field> = fields::scan(&masked[item.body.clone()])
        .into_iter()
        .map(|mut f| {
            f.pair = f.pair.start + item.body.start..f.pair.end + item.body.start;
            f.span = f.span.start + item.body.start..f.span.end + item.body.start;
            f.value = fields::code_span_at(text, f.span.start)
                .map(|(_, v)| v)
                .unwrap_or(f.value);
            f
        })
        .collect();
    match found.iter().find(|f| f.name == name) {
        Some(f) => Ok(put_field(text, Some(f), 0, name, value)),
        None => match found.last() {
            Some(last) => Ok(put_field(text, None, last.pair.end, name, value)),
            None => {
                let at = item.body.start;
                let nl = if text[..at].ends_with('\n') { "" } else { "\n" };
                let line = format!(
                    "{nl}{}: {}\n",
                    fields::render_code_span(name),
                    fields::render_code_span(value)
                );
                Ok(FieldEdit {
                    text: format!("{}{line}{}", &text[..at], &text[at..]),
                    old: None,
                })
            }
        },
    }
}

/// The H2 section an item of `prefix` goes in, and the sections that follow
/// it in the record format (a missing section is created before the first of
/// them that exists).
fn home(prefix: IdPrefix) -> (&'static str, &'static [&'static str]) {
    match prefix {
        IdPrefix::Ac => (
            "Work",
            &[
                "Retired Acceptance Identifiers",
                "Assumptions",
                "Previous Cycles",
            ],
        ),
        IdPrefix::Dev => (
            "Build Steps",
            &["Verification Increments", "Plan Notes", "Previous Cycles"],
        ),
        IdPrefix::F => (
            "Findings",
            &[
                "Questions, Limitations, and Later Dependencies",
                "Implementation-Reviewed Closure",
                "Progress and Conclusion",
                "Closure Assessment History",
            ],
        ),
        IdPrefix::D => (
            "Discrepancies and Dispositions",
            &[
                "Limitations and Remaining Work",
                "Resume and Synchronization Conclusion",
            ],
        ),
        IdPrefix::Doc => (
            "Discrepancies, Dependencies, and Remaining Work",
            &["Resume and Conclusion"],
        ),
    }
}

/// The placeholders the tool writes where the agent's words go: in the
/// skeleton of `artifact init --skeleton` and in items `record add` writes
/// without a value. `check` reports each one left in a record (PR-049).
pub const PLACEHOLDERS: &[&str] = &[
    "<Project or Change Name>",
    "<goal>",
    "<outcome-oriented work item>",
    "<intent>",
    "<observable condition>",
    "<context>",
    "<decision>",
    "<technical coverage>",
    "<technical condition>",
    "<concise implementation outcome>",
    "<AC-NNN, ... | EXPEDITED_REQUEST>",
    "<assessed inputs>",
    "<AC-NNN or technical criterion>",
    "<tests or checks>",
    "<disposition and evidence>",
    "<concrete defect>",
    "<P0 | P1 | P2>",
    "<owning role>",
    "<canonical failure type>",
    "<concrete discrepancy>",
    "<concrete inconsistency>",
    "<canonical failure type, or NONE>",
];

/// The rendered item, without a trailing newline.
fn render_item(
    prefix: IdPrefix,
    id: &str,
    title: &str,
    sets: &[(String, String)],
    expedited: bool,
) -> String {
    let get = |name: &str, default: &str| -> String {
        let value = sets
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
            .unwrap_or(default);
        format!(
            "{}: {}",
            fields::render_code_span(name),
            fields::render_code_span(value)
        )
    };
    match prefix {
        IdPrefix::Ac => format!("- `{id}`: {title}"),
        IdPrefix::Dev => {
            let acceptance = if expedited {
                "EXPEDITED_REQUEST"
            } else {
                "<AC-NNN, ... | EXPEDITED_REQUEST>"
            };
            format!(
                "### {id} — {title}\n\n{} {}\n{}\n\n**Goal**\n\n**Affected Area**\n\n**Expected Outcome**\n\n**Self-Check**",
                get("Status", "PENDING"),
                get("Depends On", "NONE"),
                get("Acceptance", acceptance)
            )
        }
        IdPrefix::F => format!(
            "### {id} — {title}\n\n{} {} {}\n{}\n\n- **Reference:**\n- **Failure case:**\n- **Impact:**\n- **Evidence:**\n- **Smallest correction:**\n- **Reassessment:**",
            get("Severity", "<P0 | P1 | P2>"),
            get("Status", "OPEN"),
            get("Owner", "<owning role>"),
            get("FailureType", "<canonical failure type>")
        ),
        IdPrefix::D => format!(
            "### {id} — {title}\n\n{} {}\n{}\n\n- **Reference:**\n- **Evidence and impact:**\n- **Required correction:**\n- **Disposition:**",
            get("Status", "OPEN"),
            get("Owner", "<owning role>"),
            get("FailureType", "<canonical failure type, or NONE>")
        ),
        IdPrefix::Doc => format!(
            "### {id} — {title}\n\n{} {}",
            get("Status", "OPEN"),
            get("Owner", "<owning role>")
        ),
    }
}

fn line_start(text: &str, line: usize) -> usize {
    text.split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum()
}

fn is_list_line(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("- ") || t.starts_with("* ") || t.starts_with("+ ") || {
        let d = t.bytes().take_while(u8::is_ascii_digit).count();
        d > 0 && (t[d..].starts_with(". ") || t[d..].starts_with(") "))
    }
}

/// Adds the item `id` with `title` (one line) and the validated `sets` at
/// the end of its section, creating the section where the record format puts
/// it when it is missing. `expedited` fills a development step's
/// `Acceptance` with `EXPEDITED_REQUEST`. Every other byte is kept.
pub fn add_item(
    text: &str,
    prefix: IdPrefix,
    id: &str,
    title: &str,
    sets: &[(String, String)],
    expedited: bool,
) -> Result<String, EditError> {
    let title = title.trim();
    if title.is_empty() || title.contains(['\n', '\r']) {
        return Err(EditError::BadTitle(title.to_string()));
    }
    for (name, value) in sets {
        validate_item(prefix, name, value)?;
    }
    let item = render_item(prefix, id, title, sets, expedited);
    let out = place_item(text, prefix, &item)?;
    // Where the item went must not be (or become) part of a code block: a
    // fence left open before it swallows it, and the item would be no item.
    let from = kept_prefix(text, &out);
    let at = out[from..].find(item.as_str()).map_or(from, |o| from + o);
    match in_fence(&out, at, format!("the new `{id}` would land")) {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

/// How many leading bytes `a` and `b` share.
fn kept_prefix(a: &str, b: &str) -> usize {
    a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count()
}

/// [`add_item`]'s text: the rendered `item` placed at the end of its section.
fn place_item(text: &str, prefix: IdPrefix, item: &str) -> Result<String, EditError> {
    let (name, later) = home(prefix);
    let all = record::sections(text);
    if let Some(section) = record::section(&all, name) {
        let body = &text[section.body.clone()];
        let content = body.trim_end();
        if content.is_empty() {
            let at = section.body.start;
            let nl = if text[..at].ends_with('\n') { "" } else { "\n" };
            let tail = if at == text.len() { "\n" } else { "" };
            return Ok(format!(
                "{}{nl}\n{item}\n{tail}{}",
                &text[..at],
                &text[at..]
            ));
        }
        let at = section.body.start + content.len();
        let last_line = content.rsplit('\n').next().unwrap_or("");
        let gap = if prefix == IdPrefix::Ac && is_list_line(last_line) {
            "\n"
        } else {
            "\n\n"
        };
        let tail = if at == text.len() { "\n" } else { "" };
        return Ok(format!("{}{gap}{item}{tail}{}", &text[..at], &text[at..]));
    }
    let before = all
        .iter()
        .find(|s| later.iter().any(|l| s.name == l.to_lowercase()));
    let block = format!("## {name}\n\n{item}\n");
    Ok(match before {
        Some(s) => {
            let at = line_start(text, s.heading_line);
            format!("{}{block}\n{}", &text[..at], &text[at..])
        }
        None => {
            let trimmed = text.trim_end_matches(['\n', '\r', ' ', '\t']);
            format!("{trimmed}\n\n{block}")
        }
    })
}

/// The skeleton `artifact init --skeleton` writes below the header: the
/// record's sections with one item of each structured part, its words
/// [`PLACEHOLDERS`] the agent replaces. `contract` is `(Scope, Architecture,
/// Request)` for the development plan's implementation contract.
pub fn skeleton(artifact: ArtifactType, expedited: bool, contract: (&str, &str, &str)) -> String {
    let dev = render_item(
        IdPrefix::Dev,
        "DEV-001",
        "<concise implementation outcome>",
        &[],
        expedited,
    );
    let finding = render_item(IdPrefix::F, "F-001", "<concrete defect>", &[], false);
    let doc = render_item(
        IdPrefix::Doc,
        "DOC-001",
        "<concrete discrepancy>",
        &[],
        false,
    );
    let d = render_item(IdPrefix::D, "D-001", "<concrete inconsistency>", &[], false);
    let (scope, architecture, request) = contract;
    match artifact {
        ArtifactType::Scope => "\n# <Project or Change Name>\n\n## Goal\n\n<goal>\n\n## Work\n\n### 1. <outcome-oriented work item>\n\n**Intent:** <intent>\n\n**Done when:**\n\n- `AC-001`: <observable condition>\n\n**Depends on:** None\n".to_string(),
        ArtifactType::Architecture => "\n# Technical Design\n\n## Context\n\n<context>\n\n## Decision\n\n<decision>\n\n## Acceptance Coverage\n\n- `AC-001`: <technical coverage>\n\n## Technical Acceptance Criteria\n\n- `AC-001`: <technical condition>\n".to_string(),
        ArtifactType::Development => format!(
            "\n## Implementation Contract\n\n- `Scope`: {}\n- `Architecture`: {}\n- `Request`: {}\n\n## Build Steps\n\n{dev}\n\n## Plan Notes\n",
            fields::render_code_span(scope),
            fields::render_code_span(architecture),
            fields::render_code_span(request)
        ),
        ArtifactType::Verification => "\n## Assessed Inputs\n\n<assessed inputs>\n\n## Acceptance Evidence\n\n| AC / technical criterion | Tests or checks | Disposition and evidence |\n| --- | --- | --- |\n| <AC-NNN or technical criterion> | <tests or checks> | <disposition and evidence> |\n\n## Scenario Budget\n\n## Execution Evidence\n\n## Resume or Handoff\n".to_string(),
        ArtifactType::Review => format!(
            "\n## Assessed Inputs and Scope\n\n<assessed inputs>\n\n## Contract and Evidence Assessment\n\n## Checks and Results\n\n## Findings\n\n{finding}\n\n## Questions, Limitations, and Later Dependencies\n\n## Progress and Conclusion\n"
        ),
        ArtifactType::Documentation => format!(
            "\n## Assessed Inputs and Boundary\n\n<assessed inputs>\n\n## Documentation Work and Evidence\n\n## Checks and Applicability\n\n## Discrepancies, Dependencies, and Remaining Work\n\n{doc}\n\n## Resume and Conclusion\n"
        ),
        ArtifactType::Synchronization => format!(
            "\n## Assessed Inputs\n\n<assessed inputs>\n\n## Completion and Evidence References\n\n## Discrepancies and Dispositions\n\n{d}\n\n## Limitations and Remaining Work\n\n## Resume and Synchronization Conclusion\n"
        ),
    }
}

/// Every tool placeholder left in `text` outside code fences and HTML
/// comments: `(line, placeholder)`, in order.
pub fn placeholders_left(text: &str) -> Vec<(usize, &'static str)> {
    let masked = blank_fences(text);
    let masked = super::record::mask_comments(&masked);
    let mut out = Vec::new();
    for (n, line) in masked.split('\n').enumerate() {
        for p in PLACEHOLDERS {
            if line.contains(p) {
                out.push((n + 1, *p));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests;
