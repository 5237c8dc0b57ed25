//! Invocation metadata blocks (RT §6.3): finding the one
//! `<!-- standards:invocation -->` block of a skill file and validating its
//! JSON against the version-1 schema, which is written here as code so that
//! every key and value the schema allows is named once and anything else is
//! rejected.

use serde_json::{Map, Value};

use crate::model::vocab::{ArtifactType, ReviewKind};

/// The marker line that opens a metadata block.
pub const MARKER: &str = "<!-- standards:invocation -->";

/// A workflow field a binding may read (RT §6.3).
pub const WORKFLOW_FIELDS: [&str; 7] = [
    "ProjectMode",
    "CycleMode",
    "WorkflowState",
    "Active Work.CompletionPolicy",
    "Active Work.PendingVerificationCadence",
    "Active Work.AuditTarget",
    "Handoff.Kind",
];

/// The record types a binding may read.
pub const RECORD_ARTIFACTS: [ArtifactType; 5] = [
    ArtifactType::Development,
    ArtifactType::Verification,
    ArtifactType::Review,
    ArtifactType::Documentation,
    ArtifactType::Synchronization,
];

/// The header fields a record binding may read.
pub const RECORD_FIELDS: [&str; 8] = [
    "Mode",
    "Collaboration",
    "Target",
    "Target Detail",
    "ReviewKind",
    "User Style",
    "User Style Locked",
    "Status",
];

/// Where a fact or a saved value comes from.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Binding {
    Workflow(String),
    Record {
        artifact: ArtifactType,
        field: String,
        review: Option<ReviewSource>,
    },
    Conversation,
}

/// How a REVIEW binding finds its review kind.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ReviewSource {
    Kind(ReviewKind),
    FromGroup(String),
}

impl Binding {
    /// The diagnostic source of a fact: `ARTIFACT.Field` or the workflow field.
    pub fn source(&self) -> String {
        match self {
            Binding::Workflow(f) => f.clone(),
            Binding::Record {
                artifact, field, ..
            } => format!("{artifact}.{field}"),
            Binding::Conversation => "conversation".into(),
        }
    }
    /// The `source` a resolved value reports: the binding's kind.
    pub fn kind(&self) -> &'static str {
        match self {
            Binding::Workflow(_) => "workflow",
            Binding::Record { .. } => "record",
            Binding::Conversation => "conversation",
        }
    }
}

/// A factual condition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Condition {
    Fact { binding: Binding, equals: String },
    All(Vec<Condition>),
    Any(Vec<Condition>),
}

impl Condition {
    /// Every binding the condition reads.
    pub fn bindings(&self) -> Vec<&Binding> {
        match self {
            Condition::Fact { binding, .. } => vec![binding],
            Condition::All(c) | Condition::Any(c) => c.iter().flat_map(|c| c.bindings()).collect(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Selection {
    User,
    State,
    Assessment,
}

impl Selection {
    pub fn as_str(self) -> &'static str {
        match self {
            Selection::User => "user",
            Selection::State => "state",
            Selection::Assessment => "assessment",
        }
    }
}

/// One option of a group, from a mode block or an inline list.
#[derive(Debug, Clone, PartialEq)]
pub struct OptionDef {
    pub id: String,
    pub label: String,
    pub description: String,
    pub selection: Selection,
    /// The condition and its JSON as written (echoed in the output).
    pub when: Option<(Condition, Value)>,
    pub requires_assessment: bool,
    pub argument: Option<String>,
    /// Project-relative path of the mode file (mode options only).
    pub instruction_file: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GroupSource {
    Modes,
    Inline,
}

#[derive(Debug, Clone, PartialEq)]
pub struct GroupDef {
    pub id: String,
    pub label: String,
    pub source: GroupSource,
    pub selection_rules: String,
    pub default_for_new: Option<String>,
    pub infer_from_request: bool,
    pub saved_value: Option<Binding>,
    pub saved_argument: Option<Binding>,
    pub locked_when: Option<Condition>,
    pub options: Vec<OptionDef>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct StylesDef {
    pub saved_value: Binding,
    pub locked_when: Option<Condition>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct RoleBlock {
    pub role: String,
    pub groups: Vec<GroupDef>,
    pub user_styles: StylesDef,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ModeBlock {
    pub group: String,
    pub option: OptionDef,
}

/// Splits text into lines and says which are visible (RT §6.3 step 1): lines
/// inside fenced code blocks are hidden, and text inside HTML comments is
/// removed (an unterminated `<!--` hides everything after it). Code spans
/// keep comment-like text literal. Returns `(raw line, visible text,
/// starts outside fences and comments)` per line.
pub fn visible_lines(text: &str) -> Vec<(&str, String, bool)> {
    let mut out = Vec::new();
    let mut fence: Option<(char, usize)> = None;
    let mut in_comment = false;
    for raw in text.split('\n') {
        let plain = fence.is_none() && !in_comment;
        if let Some((ch, len)) = fence {
            if closes_fence(raw, ch, len) {
                fence = None;
            }
            out.push((raw, String::new(), false));
            continue;
        }
        if !in_comment {
            if let Some(open) = opens_fence(raw) {
                fence = Some(open);
                out.push((raw, String::new(), false));
                continue;
            }
        }
        let mut visible = String::new();
        let mut rest = raw;
        while !rest.is_empty() {
            if in_comment {
                match rest.find("-->") {
                    Some(i) => {
                        rest = &rest[i + 3..];
                        in_comment = false;
                    }
                    None => rest = "",
                }
                continue;
            }
            let next_tick = rest.find('`');
            let next_open = rest.find("<!--");
            match (next_tick, next_open) {
                (Some(t), o) if o.is_none_or(|o| t < o) => {
                    // A code span: a run of backticks closed by a run of the same length.
                    let run = rest[t..].chars().take_while(|c| *c == '`').count();
                    let after = &rest[t + run..];
                    let closing = find_run(after, run);
                    match closing {
                        Some(c) => {
                            let end = t + run + c + run;
                            visible.push_str(&rest[..end]);
                            rest = &rest[end..];
                        }
                        None => {
                            visible.push_str(&rest[..t + run]);
                            rest = after;
                        }
                    }
                }
                (_, Some(o)) => {
                    visible.push_str(&rest[..o]);
                    rest = &rest[o + 4..];
                    in_comment = true;
                }
                _ => {
                    visible.push_str(rest);
                    rest = "";
                }
            }
        }
        out.push((raw, visible, plain));
    }
    out
}

fn find_run(text: &str, len: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'`' {
            let mut j = i;
            while j < bytes.len() && bytes[j] == b'`' {
                j += 1;
            }
            if j - i == len {
                return Some(i);
            }
            i = j;
        } else {
            i += 1;
        }
    }
    None
}

fn opens_fence(line: &str) -> Option<(char, usize)> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    if indent > 3 {
        return None;
    }
    let rest = &line[indent..];
    let ch = rest.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let len = rest.chars().take_while(|c| *c == ch).count();
    if len < 3 || (ch == '`' && rest[len..].contains('`')) {
        return None;
    }
    Some((ch, len))
}

fn closes_fence(line: &str, ch: char, len: usize) -> bool {
    let indent = line.len() - line.trim_start_matches(' ').len();
    if indent > 3 {
        return false;
    }
    let rest = &line[indent..];
    let run = rest.chars().take_while(|c| *c == ch).count();
    run >= len && rest[run..].trim().is_empty()
}

/// Extracts the JSON text of the file's one metadata block (RT §6.3 step 2).
pub fn block_json(text: &str) -> Result<String, String> {
    let lines = visible_lines(text);
    let markers: Vec<usize> = lines
        .iter()
        .enumerate()
        .filter(|(_, (raw, _, plain))| *plain && *raw == MARKER)
        .map(|(i, _)| i)
        .collect();
    let &[at] = markers.as_slice() else {
        return Err(format!(
            "expected exactly one `{MARKER}` block, found {}",
            markers.len()
        ));
    };
    let mut i = at + 1;
    while i < lines.len() && lines[i].0.trim().is_empty() {
        i += 1;
    }
    if lines.get(i).map(|l| l.0) != Some("```json") {
        return Err(format!(
            "the `{MARKER}` marker must be followed by a ```json fence"
        ));
    }
    let start = i + 1;
    let end = (start..lines.len())
        .find(|&j| lines[j].0 == "```")
        .ok_or_else(|| "the ```json fence of the metadata block is never closed".to_string())?;
    Ok(lines[start..end]
        .iter()
        .map(|l| l.0)
        .collect::<Vec<_>>()
        .join("\n"))
}

fn parse_json(text: &str) -> Result<Map<String, Value>, String> {
    let json = block_json(text)?;
    let value: Value =
        serde_json::from_str(&json).map_err(|e| format!("malformed metadata JSON: {e}"))?;
    let Value::Object(map) = value else {
        return Err("the metadata block must be a JSON object".into());
    };
    if map.get("schemaVersion") != Some(&Value::from(1)) {
        return Err(format!(
            "unsupported schemaVersion {} (expected 1)",
            map.get("schemaVersion")
                .map(|v| v.to_string())
                .unwrap_or_else(|| "(missing)".into())
        ));
    }
    Ok(map)
}

/// Parses a `SKILL.md` role block.
pub fn parse_role(text: &str) -> Result<RoleBlock, String> {
    let map = parse_json(text)?;
    let mut v = Validator::default();
    v.object(
        &map,
        "",
        &["schemaVersion", "kind", "role", "groups", "userStyles"],
        &["schemaVersion", "kind", "role", "groups", "userStyles"],
    );
    if map.get("kind").and_then(Value::as_str) != Some("role") {
        v.error("/kind must be \"role\"".into());
    }
    let name = v.kebab(map.get("role"), "/role").unwrap_or_default();
    let mut groups = Vec::new();
    match map.get("groups") {
        Some(Value::Array(items)) => {
            for (i, item) in items.iter().enumerate() {
                if let Some(g) = v.group(item, &format!("/groups/{i}")) {
                    groups.push(g);
                }
            }
        }
        Some(_) => v.error("/groups must be an array".into()),
        None => {}
    }
    let styles = match map.get("userStyles") {
        Some(Value::Object(s)) => {
            v.object(
                s,
                "/userStyles",
                &["source", "savedValue", "lockedWhen"],
                &["source", "savedValue"],
            );
            if s.get("source").and_then(Value::as_str) != Some("role-directory") {
                v.error("/userStyles/source must be \"role-directory\"".into());
            }
            let saved = s
                .get("savedValue")
                .and_then(|b| v.binding(b, "/userStyles/savedValue", true));
            let locked = s
                .get("lockedWhen")
                .and_then(|c| v.condition(c, "/userStyles/lockedWhen"));
            saved.map(|saved_value| StylesDef {
                saved_value,
                locked_when: locked,
            })
        }
        Some(_) => {
            v.error("/userStyles must be an object".into());
            None
        }
        None => None,
    };
    v.finish()?;
    Ok(RoleBlock {
        role: name,
        groups,
        user_styles: styles.ok_or("/userStyles is invalid")?,
    })
}

/// Parses a `modes/*.md` mode block.
pub fn parse_mode(text: &str) -> Result<ModeBlock, String> {
    let map = parse_json(text)?;
    let mut v = Validator::default();
    if map.get("kind").and_then(Value::as_str) != Some("mode") {
        v.error("/kind must be \"mode\"".into());
    }
    let group = v.kebab(map.get("group"), "/group");
    let mut option_map = map.clone();
    option_map.remove("schemaVersion");
    option_map.remove("kind");
    option_map.remove("group");
    for key in map.keys() {
        if !["schemaVersion", "kind", "group"].contains(&key.as_str())
            && !OPTION_KEYS.contains(&key.as_str())
        {
            v.error(format!("unknown property /{key}"));
        }
    }
    let option = v.option(&Value::Object(option_map), "", true);
    v.finish()?;
    Ok(ModeBlock {
        group: group.ok_or("missing /group")?,
        option: option.ok_or("invalid mode option")?,
    })
}

const OPTION_KEYS: [&str; 7] = [
    "id",
    "label",
    "description",
    "selection",
    "when",
    "requiresAssessment",
    "argument",
];

/// Collects every schema violation of a block.
#[derive(Default)]
struct Validator {
    errors: Vec<String>,
}

fn is_kebab(s: &str) -> bool {
    let mut parts = s.split('-');
    let first = parts.next().unwrap_or("");
    first.chars().next().is_some_and(|c| c.is_ascii_lowercase())
        && first
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        && parts.all(|p| {
            !p.is_empty()
                && p.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        })
}

/// `^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$`
pub fn is_option_id(s: &str) -> bool {
    let mut parts = s.split('_');
    let first = parts.next().unwrap_or("");
    first.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        && first
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
        && parts.all(|p| {
            !p.is_empty()
                && p.chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
        })
}

/// A role identifier: `^[a-z][a-z0-9]*(-[a-z0-9]+)*$`.
pub fn is_role_id(s: &str) -> bool {
    is_kebab(s)
}

impl Validator {
    fn error(&mut self, e: String) {
        self.errors.push(e);
    }

    fn finish(self) -> Result<(), String> {
        if self.errors.is_empty() {
            Ok(())
        } else {
            Err(self.errors.join("; "))
        }
    }

    fn object<'a>(
        &mut self,
        map: &'a Map<String, Value>,
        at: &str,
        allowed: &[&str],
        required: &[&str],
    ) -> &'a Map<String, Value> {
        for key in map.keys() {
            if !allowed.contains(&key.as_str()) {
                self.error(format!("unknown property {at}/{key}"));
            }
        }
        for key in required {
            if !map.contains_key(*key) {
                self.error(format!("missing property {at}/{key}"));
            }
        }
        map
    }

    fn string(&mut self, v: Option<&Value>, at: &str) -> Option<String> {
        match v {
            Some(Value::String(s)) if !s.is_empty() => Some(s.clone()),
            Some(_) => {
                self.error(format!("{at} must be a non-empty string"));
                None
            }
            None => None,
        }
    }

    fn kebab(&mut self, v: Option<&Value>, at: &str) -> Option<String> {
        let s = self.string(v, at)?;
        if is_kebab(&s) {
            Some(s)
        } else {
            self.error(format!("{at} must be a lowercase-kebab identifier"));
            None
        }
    }

    fn option_id(&mut self, v: Option<&Value>, at: &str) -> Option<String> {
        let s = self.string(v, at)?;
        if is_option_id(&s) {
            Some(s)
        } else {
            self.error(format!(
                "{at} must be an uppercase option identifier (A-Z, 0-9, _)"
            ));
            None
        }
    }

    fn binding(&mut self, v: &Value, at: &str, allow_conversation: bool) -> Option<Binding> {
        let Value::Object(map) = v else {
            self.error(format!("{at} must be an object"));
            return None;
        };
        match map.get("kind").and_then(Value::as_str) {
            Some("workflow") => {
                self.object(map, at, &["kind", "field"], &["kind", "field"]);
                let field = self.string(map.get("field"), &format!("{at}/field"))?;
                if !WORKFLOW_FIELDS.contains(&field.as_str()) {
                    self.error(format!(
                        "{at}/field `{field}` is not a supported workflow fact"
                    ));
                    return None;
                }
                Some(Binding::Workflow(field))
            }
            Some("record") => {
                self.object(
                    map,
                    at,
                    &[
                        "kind",
                        "artifact",
                        "field",
                        "reviewKind",
                        "reviewKindFromGroup",
                    ],
                    &["kind", "artifact", "field"],
                );
                let artifact = self.string(map.get("artifact"), &format!("{at}/artifact"))?;
                let Some(artifact) = RECORD_ARTIFACTS
                    .iter()
                    .copied()
                    .find(|a| a.as_str() == artifact)
                else {
                    self.error(format!(
                        "{at}/artifact `{artifact}` is not a supported record"
                    ));
                    return None;
                };
                let field = self.string(map.get("field"), &format!("{at}/field"))?;
                if !RECORD_FIELDS.contains(&field.as_str()) {
                    self.error(format!(
                        "{at}/field `{field}` is not a supported record field"
                    ));
                    return None;
                }
                let kind = map.get("reviewKind");
                let from = map.get("reviewKindFromGroup");
                let review = match (artifact, kind, from) {
                    (ArtifactType::Review, Some(k), None) => {
                        match k.as_str().and_then(|k| k.parse::<ReviewKind>().ok()) {
                            Some(k) => Some(ReviewSource::Kind(k)),
                            None => {
                                self.error(format!(
                                    "{at}/reviewKind must be IMPLEMENTATION or FINAL_DELIVERABLE"
                                ));
                                return None;
                            }
                        }
                    }
                    (ArtifactType::Review, None, Some(g)) => Some(ReviewSource::FromGroup(
                        self.kebab(Some(g), &format!("{at}/reviewKindFromGroup"))?,
                    )),
                    (ArtifactType::Review, _, _) => {
                        self.error(format!(
                            "{at}: a REVIEW binding needs exactly one of reviewKind and reviewKindFromGroup"
                        ));
                        return None;
                    }
                    (_, None, None) => None,
                    _ => {
                        self.error(format!(
                            "{at}: only a REVIEW binding takes reviewKind or reviewKindFromGroup"
                        ));
                        return None;
                    }
                };
                Some(Binding::Record {
                    artifact,
                    field,
                    review,
                })
            }
            Some("conversation") => {
                self.object(map, at, &["kind"], &["kind"]);
                if allow_conversation {
                    Some(Binding::Conversation)
                } else {
                    self.error(format!("{at}: a conversation binding is not a fact"));
                    None
                }
            }
            _ => {
                self.error(format!(
                    "{at}/kind must be \"workflow\", \"record\" or \"conversation\""
                ));
                None
            }
        }
    }

    fn condition(&mut self, v: &Value, at: &str) -> Option<Condition> {
        let Value::Object(map) = v else {
            self.error(format!("{at} must be an object"));
            return None;
        };
        if map.contains_key("fact") {
            self.object(map, at, &["fact", "equals"], &["fact", "equals"]);
            let binding = self.binding(&map["fact"], &format!("{at}/fact"), false)?;
            let equals = match map.get("equals") {
                Some(Value::String(s)) => s.clone(),
                _ => {
                    self.error(format!("{at}/equals must be a string"));
                    return None;
                }
            };
            return Some(Condition::Fact { binding, equals });
        }
        for (key, all) in [("all", true), ("any", false)] {
            if map.contains_key(key) {
                self.object(map, at, &[key], &[key]);
                let Some(Value::Array(items)) = map.get(key) else {
                    self.error(format!("{at}/{key} must be an array"));
                    return None;
                };
                if items.is_empty() {
                    self.error(format!("{at}/{key} must not be empty"));
                    return None;
                }
                let mut children = Vec::new();
                for (i, item) in items.iter().enumerate() {
                    children.push(self.condition(item, &format!("{at}/{key}/{i}"))?);
                }
                return Some(if all {
                    Condition::All(children)
                } else {
                    Condition::Any(children)
                });
            }
        }
        self.error(format!("{at} must have `fact`, `all` or `any`"));
        None
    }

    fn option(&mut self, v: &Value, at: &str, mode: bool) -> Option<OptionDef> {
        let Value::Object(map) = v else {
            self.error(format!("{at} must be an object"));
            return None;
        };
        if !mode {
            self.object(
                map,
                at,
                &OPTION_KEYS,
                &["id", "label", "description", "selection"],
            );
        } else {
            for key in ["id", "label", "description", "selection"] {
                if !map.contains_key(key) {
                    self.error(format!("missing property {at}/{key}"));
                }
            }
        }
        let id = self.option_id(map.get("id"), &format!("{at}/id"));
        let label = self.string(map.get("label"), &format!("{at}/label"));
        let description = self.string(map.get("description"), &format!("{at}/description"));
        let selection = match map.get("selection").and_then(Value::as_str) {
            Some("user") => Some(Selection::User),
            Some("state") => Some(Selection::State),
            Some("assessment") => Some(Selection::Assessment),
            _ => {
                self.error(format!(
                    "{at}/selection must be \"user\", \"state\" or \"assessment\""
                ));
                None
            }
        };
        let when = map.get("when").and_then(|w| {
            self.condition(w, &format!("{at}/when"))
                .map(|c| (c, w.clone()))
        });
        let requires_assessment = match map.get("requiresAssessment") {
            None => false,
            Some(Value::Bool(true)) => true,
            Some(_) => {
                self.error(format!("{at}/requiresAssessment may only be true"));
                false
            }
        };
        let argument = match map.get("argument") {
            None => None,
            Some(Value::String(a))
                if ["file", "directory", "capability", "area"].contains(&a.as_str()) =>
            {
                Some(a.clone())
            }
            Some(_) => {
                self.error(format!(
                    "{at}/argument must be file, directory, capability or area"
                ));
                None
            }
        };
        if let Some(sel) = selection {
            if requires_assessment && sel != Selection::User {
                self.error(format!(
                    "{at}/requiresAssessment is only allowed on user options"
                ));
            }
            if sel == Selection::State && map.get("when").is_none() {
                self.error(format!("{at}/when is required for a state option"));
            }
        }
        Some(OptionDef {
            id: id?,
            label: label?,
            description: description?,
            selection: selection?,
            when,
            requires_assessment,
            argument,
            instruction_file: None,
        })
    }

    fn group(&mut self, v: &Value, at: &str) -> Option<GroupDef> {
        let Value::Object(map) = v else {
            self.error(format!("{at} must be an object"));
            return None;
        };
        self.object(
            map,
            at,
            &[
                "id",
                "label",
                "source",
                "selectionRules",
                "defaultForNew",
                "inferFromRequest",
                "savedValue",
                "savedArgument",
                "lockedWhen",
                "options",
            ],
            &["id", "label", "source", "selectionRules"],
        );
        let id = self.kebab(map.get("id"), &format!("{at}/id"));
        let label = self.string(map.get("label"), &format!("{at}/label"));
        let source = match map.get("source").and_then(Value::as_str) {
            Some("modes") => Some(GroupSource::Modes),
            Some("inline") => Some(GroupSource::Inline),
            _ => {
                self.error(format!("{at}/source must be \"modes\" or \"inline\""));
                None
            }
        };
        let rules = self.string(map.get("selectionRules"), &format!("{at}/selectionRules"));
        if let Some(r) = &rules {
            let (path, anchor) = r.split_once('#').unwrap_or((r, ""));
            if !path.ends_with(".md") || path.len() <= 3 || (r.contains('#') && anchor.is_empty()) {
                self.error(format!(
                    "{at}/selectionRules must be `path.md` or `path.md#anchor`"
                ));
            }
        }
        let default_for_new = match map.get("defaultForNew") {
            None => None,
            v => self.option_id(v, &format!("{at}/defaultForNew")),
        };
        let infer_from_request = match map.get("inferFromRequest") {
            None => false,
            Some(Value::Bool(true)) => true,
            Some(_) => {
                self.error(format!("{at}/inferFromRequest may only be true"));
                false
            }
        };
        let saved_value = map
            .get("savedValue")
            .and_then(|b| self.binding(b, &format!("{at}/savedValue"), true));
        let saved_argument = map
            .get("savedArgument")
            .and_then(|b| self.binding(b, &format!("{at}/savedArgument"), true));
        let locked_when = map
            .get("lockedWhen")
            .and_then(|c| self.condition(c, &format!("{at}/lockedWhen")));
        let mut options = Vec::new();
        match (source, map.get("options")) {
            (Some(GroupSource::Inline), Some(Value::Array(items))) => {
                for (i, item) in items.iter().enumerate() {
                    if let Some(o) = self.option(item, &format!("{at}/options/{i}"), false) {
                        options.push(o);
                    }
                }
            }
            (Some(GroupSource::Inline), _) => {
                self.error(format!("{at}/options is required for an inline group"))
            }
            (Some(GroupSource::Modes), Some(_)) => {
                self.error(format!("{at}/options is not allowed for a modes group"))
            }
            _ => {}
        }
        Some(GroupDef {
            id: id?,
            label: label?,
            source: source?,
            selection_rules: rules?,
            default_for_new,
            infer_from_request,
            saved_value,
            saved_argument,
            locked_when,
            options,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MODE: &str = "# Mode\n\n<!-- standards:invocation -->\n\n```json\n{\"schemaVersion\": 1, \"kind\": \"mode\", \"group\": \"collaboration\", \"id\": \"STEPWISE\", \"label\": \"Stepwise\", \"description\": \"One step.\", \"selection\": \"user\"}\n```\n";

    #[test]
    fn sc_inv_032_blocks_fences_and_errors() {
        let m = parse_mode(MODE).unwrap();
        assert_eq!(m.group, "collaboration");
        assert_eq!(m.option.id, "STEPWISE");
        // A 4-backtick fence holding a marker is ignored.
        let fenced = format!("````markdown\n{MARKER}\n```json\n{{}}\n```\n````\n\n{MODE}");
        assert_eq!(parse_mode(&fenced).unwrap().option.id, "STEPWISE");
        // Two blocks, no block, invalid JSON, schemaVersion 2, unknown property.
        assert!(parse_mode(&format!("{MODE}\n{MODE}"))
            .unwrap_err()
            .contains("exactly one"));
        assert!(parse_mode("# x\n").unwrap_err().contains("exactly one"));
        assert!(parse_mode(&MODE.replace("\"user\"}", "\"user\""))
            .unwrap_err()
            .contains("malformed"));
        assert!(
            parse_mode(&MODE.replace("\"schemaVersion\": 1", "\"schemaVersion\": 2"))
                .unwrap_err()
                .contains("schemaVersion")
        );
        assert!(
            parse_mode(&MODE.replace("\"selection\"", "\"extra\": 1, \"selection\""))
                .unwrap_err()
                .contains("unknown property /extra")
        );
        // Schema rejections.
        assert!(parse_mode(&MODE.replace("\"user\"", "\"state\""))
            .unwrap_err()
            .contains("when is required"));
        assert!(parse_mode(
            &MODE.replace("\"user\"", "\"assessment\", \"requiresAssessment\": true")
        )
        .is_err());
        assert!(parse_mode(&MODE.replace("STEPWISE", "STEP\\nWISE")).is_err());
        assert!(
            parse_mode(&MODE.replace("\"user\"", "\"user\", \"when\": {\"all\": []}"))
                .unwrap_err()
                .contains("must not be empty")
        );
        assert!(parse_mode(&MODE.replace(
            "\"user\"",
            "\"user\", \"when\": {\"fact\": {\"kind\": \"conversation\"}, \"equals\": \"x\"}"
        ))
        .unwrap_err()
        .contains("not a fact"));
    }

    #[test]
    fn sc_inv_033_034_comments_hide_blocks_code_spans_do_not() {
        for sep in ["\n", "\r", "\u{2028}", "\u{2029}"] {
            let hidden = format!("<!-- old{sep}{MARKER}\n```json\n{{}}\n```\n-->\n");
            assert!(
                parse_mode(&hidden).unwrap_err().contains("found 0"),
                "{sep:?}"
            );
            let both = format!("{hidden}{MODE}");
            assert_eq!(parse_mode(&both).unwrap().option.id, "STEPWISE", "{sep:?}");
            if sep != "\n" {
                // SC-INV-034 names CR, U+2028 and U+2029: none ends a line here.
                let span = format!("`<!--{sep}x` text\n{MODE}");
                assert_eq!(parse_mode(&span).unwrap().option.id, "STEPWISE", "{sep:?}");
            }
        }
    }
}
