//! Facts, conditions, group resolution and user styles (RT §6.5-6.7).

use std::collections::{BTreeSet, HashMap};

use super::metadata::{Binding, Condition, GroupDef, ReviewSource, Selection};
use super::{Catalog, DirStatus, Files};
use crate::model::layout::{self, MODE_PATH, STATE_PATH, USER_STYLES_DIR};
use crate::model::state::StateDoc;
use crate::model::vocab::{
    ArtifactType, CompletionPolicy, CycleMode, ProjectMode, ReviewKind, WorkflowState,
};
use crate::model::{cycle_id, fields, mode, text};
use crate::records::{provenance, record};

/// A resolution object of the output (RT §6.8).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolution {
    pub status: &'static str,
    pub value: Option<String>,
    pub source: Option<String>,
    pub reason: Option<String>,
}

impl Resolution {
    pub fn known(value: impl Into<String>, source: impl Into<String>) -> Self {
        Resolution {
            status: "known",
            value: Some(value.into()),
            source: Some(source.into()),
            reason: None,
        }
    }
    pub fn unresolved(status: &'static str, reason: impl Into<String>) -> Self {
        Resolution {
            status,
            value: None,
            source: None,
            reason: Some(reason.into()),
        }
    }
    pub fn invalid(value: String, source: &str, reason: impl Into<String>) -> Self {
        Resolution {
            status: "invalid",
            value: Some(value),
            source: Some(source.into()),
            reason: Some(reason.into()),
        }
    }
}

/// Three-valued truth.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tri {
    True,
    False,
    Unknown,
}

impl Tri {
    pub fn as_str(self) -> &'static str {
        match self {
            Tri::True => "true",
            Tri::False => "false",
            Tri::Unknown => "unknown",
        }
    }
}

/// The value of a fact.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fact {
    Known(String),
    /// A value outside the inventory (`invalid-record-choice`).
    Invalid(String, String),
    Unknown(String),
    Conversation,
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Diagnostic {
    pub source: String,
    pub code: &'static str,
    pub message: String,
}

/// One option's resolved view.
#[derive(Debug, Clone)]
pub struct OptionResult {
    pub condition: Tri,
    pub assessment_required: bool,
    pub selectability: &'static str,
}

#[derive(Debug, Clone)]
pub struct GroupResult {
    pub options: Vec<OptionResult>,
    pub selected: Resolution,
    pub saved_value: Resolution,
    pub saved_argument: Option<Resolution>,
    pub locked: Tri,
}

#[derive(Debug, Clone)]
pub struct StyleOption {
    pub id: String,
    pub file: String,
    pub selector: Option<String>,
    pub selector_reason: Option<&'static str>,
}

#[derive(Debug, Clone)]
pub struct StylesResult {
    pub directory: String,
    pub complete: bool,
    pub options: Vec<StyleOption>,
    pub saved_value: Resolution,
    pub selected: Resolution,
    pub locked: Tri,
}

/// Evaluates conditions lazily over the project's facts, caching each binding.
pub struct Resolver<'a> {
    files: &'a dyn Files,
    catalog: &'a Catalog,
    facts: HashMap<Binding, Fact>,
    state_selections: HashMap<usize, Resolution>,
    mode: Option<Result<ProjectMode, String>>,
    state: Option<Result<StateDoc, String>>,
    pub diagnostics: BTreeSet<Diagnostic>,
}

fn has_conflict_lines(text: &str) -> bool {
    text.lines()
        .any(|l| l.starts_with("<<<<<<< ") || l.starts_with(">>>>>>> "))
}

impl<'a> Resolver<'a> {
    pub fn new(files: &'a dyn Files, catalog: &'a Catalog) -> Self {
        Resolver {
            files,
            catalog,
            facts: HashMap::new(),
            state_selections: HashMap::new(),
            mode: None,
            state: None,
            diagnostics: BTreeSet::new(),
        }
    }

    fn diag(&mut self, source: impl Into<String>, code: &'static str, message: impl Into<String>) {
        self.diagnostics.insert(Diagnostic {
            source: source.into(),
            code,
            message: message.into(),
        });
    }

    fn project_mode(&mut self) -> Result<ProjectMode, String> {
        if self.mode.is_none() {
            let r = match self.files.read(MODE_PATH, "") {
                Ok(Some(t)) if has_conflict_lines(&t) => {
                    Err(format!("{MODE_PATH} has merge conflicts"))
                }
                Ok(Some(t)) => mode::parse(&t).map_err(|e| e.to_string()),
                Ok(None) => Err(format!("{MODE_PATH} is missing")),
                Err(e) => Err(e),
            };
            self.mode = Some(r);
        }
        self.mode.clone().expect("set above")
    }

    fn state_doc(&mut self) -> Result<&StateDoc, String> {
        if self.state.is_none() {
            let r = self.load_state();
            self.state = Some(r);
        }
        self.state
            .as_ref()
            .expect("set above")
            .as_ref()
            .map_err(|e| e.clone())
    }

    fn load_state(&mut self) -> Result<StateDoc, String> {
        let pm = self.project_mode()?;
        let text = match self.files.read(STATE_PATH, "")? {
            Some(t) => t,
            None => return Err(format!("{STATE_PATH} is missing")),
        };
        if has_conflict_lines(&text) {
            return Err(format!("{STATE_PATH} has merge conflicts"));
        }
        let doc = StateDoc::parse(&text).map_err(|e| format!("{STATE_PATH}: {e}"))?;
        if doc.handoff.kind().is_none() {
            return Err(format!(
                "{STATE_PATH}: `Handoff.Kind` `{}` is not a handoff kind",
                doc.handoff.kind.value
            ));
        }
        consistency(&doc, pm).map_err(|e| format!("{STATE_PATH}: {e}"))?;
        Ok(doc)
    }

    /// The fact a binding reads (RT §6.5), with an `unknown-fact` diagnostic when unknown.
    pub fn fact(&mut self, b: &Binding) -> Fact {
        if let Some(f) = self.facts.get(b) {
            return f.clone();
        }
        let f = match b {
            Binding::Conversation => Fact::Conversation,
            Binding::Workflow(field) => match self.workflow_fact(field) {
                Ok(v) => Fact::Known(v),
                Err(e) => Fact::Unknown(e),
            },
            Binding::Record {
                artifact,
                field,
                review,
            } => match self.record_fact(*artifact, field, review.as_ref()) {
                Ok(f) => f,
                Err(e) => Fact::Unknown(e),
            },
        };
        match &f {
            Fact::Unknown(reason) => self.diag(b.source(), "unknown-fact", reason.clone()),
            Fact::Invalid(value, _) => self.diag(
                b.source(),
                "invalid-record-choice",
                format!("`{value}` is not one of the choices the role offers"),
            ),
            _ => {}
        }
        self.facts.insert(b.clone(), f.clone());
        f
    }

    fn workflow_fact(&mut self, field: &str) -> Result<String, String> {
        if field == "ProjectMode" {
            return self.project_mode().map(|m| m.as_str().to_string());
        }
        let doc = self.state_doc()?;
        let aw = &doc.active_work;
        Ok(match field {
            "CycleMode" => doc.cycle_mode.value.as_str().to_string(),
            "WorkflowState" => doc.workflow_state.value.as_str().to_string(),
            "Active Work.CompletionPolicy" => aw.completion_policy.value.as_str().to_string(),
            "Active Work.PendingVerificationCadence" => {
                aw.pending_verification_cadence.value.as_str().to_string()
            }
            "Active Work.AuditTarget" => aw.audit_target.value.clone(),
            "Handoff.Kind" => doc.handoff.kind.value.clone(),
            other => return Err(format!("`{other}` is not a workflow fact")),
        })
    }

    fn record_fact(
        &mut self,
        artifact: ArtifactType,
        field: &str,
        review: Option<&ReviewSource>,
    ) -> Result<Fact, String> {
        let kind = match review {
            None => None,
            Some(ReviewSource::Kind(k)) => Some(*k),
            Some(ReviewSource::FromGroup(g)) => {
                let gi = self
                    .catalog
                    .block
                    .groups
                    .iter()
                    .position(|x| &x.id == g)
                    .ok_or_else(|| format!("no group `{g}`"))?;
                let sel = self.state_selection(gi);
                match (
                    sel.status,
                    sel.value.as_deref().map(str::parse::<ReviewKind>),
                ) {
                    ("known", Some(Ok(k))) => Some(k),
                    _ => {
                        return Err(format!(
                            "the review kind is not known: group `{g}` has no state selection"
                        ))
                    }
                }
            }
        };
        let (id, development, cycle_mode) = {
            let doc = self.state_doc()?;
            let id = doc.active_work.id.value.clone();
            if id == "UNSET" || doc.workflow_state.value.is_terminal() {
                return Err(
                    "no active cycle: records of a finished or unstarted cycle are not resumed"
                        .into(),
                );
            }
            (
                id,
                doc.active_work.development.value.clone(),
                doc.cycle_mode.value,
            )
        };
        let omitted = cycle_mode == CycleMode::Documentation
            && (matches!(
                artifact,
                ArtifactType::Development | ArtifactType::Verification
            ) || kind == Some(ReviewKind::Implementation));
        if omitted {
            return Err(format!(
                "this cycle mode (DOCUMENTATION) omits the {artifact} record"
            ));
        }
        let path = layout::record_path(artifact, kind, &id);
        if artifact == ArtifactType::Development && development != "NONE" {
            self.same_path(&development, &path)?;
        }
        let text = self
            .files
            .read(&path, "")?
            .ok_or_else(|| format!("the record `{path}` does not exist"))?;
        if has_conflict_lines(&text) {
            return Err(format!("`{path}` has merge conflicts"));
        }
        let marking = provenance::parse(&text);
        let p = marking
            .valid()
            .ok_or_else(|| format!("`{path}` has no valid provenance block"))?;
        if p.artifact != artifact || p.cycle != id || p.review_kind != kind {
            return Err(format!(
                "the provenance of `{path}` is not the current cycle's {artifact} record"
            ));
        }
        let masked = record::mask_fences(&text::mask_html_comments_outside_code_spans(&text));
        let header = record::header_fields(&masked);
        let one = |name: &str, angle_only: bool| -> Result<String, String> {
            let found: Vec<_> = fields::values(&header, name).collect();
            let [f] = found.as_slice() else {
                return Err(format!(
                    "`{name}` appears {} times in the header of `{path}`",
                    found.len()
                ));
            };
            let v = f.value.clone();
            let unfilled = if angle_only {
                record::is_angle_placeholder(&v)
            } else {
                record::is_unfilled(&v)
            };
            if v.trim().is_empty() || v.contains('\n') || v.contains('\r') || unfilled {
                return Err(format!("`{name}` in `{path}` is not filled in"));
            }
            if name == "User Style" && !record::is_saveable_style(&v) {
                return Err(format!(
                    "`User Style` `{v}` in `{path}` is not a style name a record can save (it contains `|`)"
                ));
            }
            Ok(v)
        };
        if one("Cycle", false)? != id {
            return Err(format!(
                "the header `Cycle` of `{path}` is not the current cycle"
            ));
        }
        if let Some(k) = kind {
            if one("ReviewKind", false)? != k.as_str() {
                return Err(format!("the header `ReviewKind` of `{path}` is not {k}"));
            }
        }
        let value = one(field, field == "Target Detail")?;
        if field == "User Style Locked" {
            if value != "true" && value != "false" {
                return Err(format!(
                    "`User Style Locked` in `{path}` is neither true nor false"
                ));
            }
            let status = one("Status", false)?;
            if !["PROPOSED", "APPROVED", "IN_PROGRESS", "COMPLETE"].contains(&status.as_str()) {
                return Err(format!(
                    "the plan `Status` `{status}` in `{path}` is not valid"
                ));
            }
            if value == "false" && status != "PROPOSED" {
                return Err(format!(
                    "`User Style Locked` is false but the plan in `{path}` is {status}: only a PROPOSED plan is unlocked"
                ));
            }
        }
        if ["Mode", "Collaboration", "Target", "ReviewKind"].contains(&field) {
            let allowed: Vec<String> = if field == "ReviewKind" {
                ReviewKind::NAMES.iter().map(|s| s.to_string()).collect()
            } else {
                let binds = |g: &&GroupDef| matches!(&g.saved_value, Some(Binding::Record { artifact: a, field: f, .. }) if *a == artifact && f == field);
                let groups: Vec<&GroupDef> =
                    self.catalog.block.groups.iter().filter(binds).collect();
                match groups.as_slice() {
                    [g] => g.options.iter().map(|o| o.id.clone()).collect(),
                    _ => return Ok(Fact::Known(value)),
                }
            };
            if !allowed.contains(&value) {
                return Ok(Fact::Invalid(
                    value,
                    format!("not one of {}", allowed.join(", ")),
                ));
            }
        }
        Ok(Fact::Known(value))
    }

    /// `Active Work.Development` must name the fixed path: no absolute path,
    /// no climbing out, and every folder a `..` leaves must exist.
    fn same_path(&self, given: &str, fixed: &str) -> Result<(), String> {
        let bad = || {
            format!("`Active Work.Development` `{given}` is not the current cycle's plan `{fixed}`")
        };
        if given.starts_with('/') || given.contains('\\') {
            return Err(bad());
        }
        let mut parts: Vec<&str> = Vec::new();
        for seg in given.split('/') {
            match seg {
                "" | "." => {}
                ".." => {
                    if self.files.dir(&parts.join("/")) != DirStatus::Dir || parts.pop().is_none() {
                        return Err(bad());
                    }
                }
                s => parts.push(s),
            }
        }
        if parts.join("/") == fixed {
            Ok(())
        } else {
            Err(bad())
        }
    }

    pub fn eval(&mut self, c: &Condition) -> Tri {
        match c {
            Condition::Fact { binding, equals } => match self.fact(binding) {
                Fact::Known(v) if &v == equals => Tri::True,
                Fact::Known(_) => Tri::False,
                _ => Tri::Unknown,
            },
            Condition::All(cs) => {
                let r: Vec<Tri> = cs.iter().map(|c| self.eval(c)).collect();
                if r.contains(&Tri::False) {
                    Tri::False
                } else if r.iter().all(|t| *t == Tri::True) {
                    Tri::True
                } else {
                    Tri::Unknown
                }
            }
            Condition::Any(cs) => {
                let r: Vec<Tri> = cs.iter().map(|c| self.eval(c)).collect();
                if r.contains(&Tri::True) {
                    Tri::True
                } else if r.iter().all(|t| *t == Tri::False) {
                    Tri::False
                } else {
                    Tri::Unknown
                }
            }
        }
    }

    fn eval_opt(&mut self, c: Option<&Condition>) -> Tri {
        c.map(|c| self.eval(c)).unwrap_or(Tri::True)
    }

    /// A group's state selection (RT §6.6 step 1).
    pub fn state_selection(&mut self, gi: usize) -> Resolution {
        if let Some(r) = self.state_selections.get(&gi) {
            return r.clone();
        }
        let group = &self.catalog.block.groups[gi];
        let mut trues = Vec::new();
        let mut unknown = false;
        let mut any_state = false;
        for o in group
            .options
            .iter()
            .filter(|o| o.selection == Selection::State)
        {
            any_state = true;
            match self.eval_opt(o.when.as_ref().map(|w| &w.0)) {
                Tri::True => trues.push(o.id.clone()),
                Tri::Unknown => unknown = true,
                Tri::False => {}
            }
        }
        let r = if trues.len() > 1 {
            let id = group.id.clone();
            self.diag(
                format!("group {id}"),
                "conflicting-state-selection",
                format!("more than one state option applies: {}", trues.join(", ")),
            );
            Resolution::unresolved("conflict", "more than one state option applies")
        } else if unknown {
            Resolution::unresolved("unknown", "a state condition cannot be evaluated")
        } else if let [one] = trues.as_slice() {
            Resolution::known(one.clone(), "state")
        } else if any_state {
            Resolution::unresolved("none", "no state option applies")
        } else {
            Resolution::unresolved("none", "the group has no state options")
        };
        self.state_selections.insert(gi, r.clone());
        r
    }

    fn saved(&mut self, b: Option<&Binding>, argument: bool) -> Resolution {
        let Some(b) = b else {
            return Resolution::unresolved("none", "nothing saves this choice");
        };
        match self.fact(b) {
            Fact::Known(v) if argument && v == "NONE" => {
                Resolution::unresolved("none", "no target is saved")
            }
            Fact::Known(v) => Resolution::known(v, b.kind()),
            Fact::Invalid(v, reason) => Resolution::invalid(v, b.kind(), reason),
            Fact::Unknown(reason) => Resolution::unresolved("unknown", reason),
            Fact::Conversation => Resolution::unresolved(
                "conversation",
                "the choice lives in the conversation with the role",
            ),
        }
    }

    /// Resolves one group (RT §6.6).
    pub fn group(&mut self, gi: usize) -> GroupResult {
        let state = self.state_selection(gi);
        let group = &self.catalog.block.groups[gi];
        let locked = match &group.locked_when {
            Some(c) => self.eval(c),
            None => Tri::False,
        };
        let saved_value = self.saved(group.saved_value.as_ref(), false);
        let saved_argument = group
            .saved_argument
            .as_ref()
            .map(|b| self.saved(Some(b), true));
        let mut options = Vec::new();
        for o in &group.options {
            let condition = self.eval_opt(o.when.as_ref().map(|w| &w.0));
            let assessment_required = o.selection == Selection::Assessment || o.requires_assessment;
            let selectability = if condition == Tri::False {
                "unavailable"
            } else if condition == Tri::Unknown {
                "unknown"
            } else if o.selection != Selection::User {
                "informational"
            } else if state.status == "known" {
                "state-controlled"
            } else if matches!(state.status, "unknown" | "conflict") || locked == Tri::Unknown {
                "unknown"
            } else if locked == Tri::True {
                "locked"
            } else if o.requires_assessment {
                "assessment-required"
            } else {
                "user"
            };
            options.push(OptionResult {
                condition,
                assessment_required,
                selectability,
            });
        }
        let mut selected = state.clone();
        if saved_value.status == "invalid" && selected.status == "none" {
            selected = saved_value.clone();
        }
        let saved_index = (saved_value.status == "known")
            .then_some(saved_value.value.as_deref())
            .flatten()
            .map(|v| group.options.iter().position(|o| o.id == v));
        if let Some(None) = saved_index {
            let v = saved_value.value.clone().unwrap_or_default();
            self.diag(
                format!("group {}", group.id),
                "invalid-saved-selection",
                format!("the saved value `{v}` names no option of the group"),
            );
            if selected.status == "none" {
                selected = Resolution::invalid(
                    v,
                    saved_value.source.as_deref().unwrap_or("record"),
                    "the saved value names no option",
                );
            }
        }
        if selected.status == "none" {
            let saved_ok = saved_index.flatten().filter(|&i| {
                group.options[i].selection == Selection::User
                    && options[i].condition == Tri::True
                    && !options[i].assessment_required
            });
            selected = if options.iter().all(|o| o.condition == Tri::False) {
                Resolution::unresolved("none", "no option satisfies its conditions")
            } else if let Some(i) = saved_ok {
                Resolution::known(
                    group.options[i].id.clone(),
                    saved_value.source.clone().unwrap_or_default(),
                )
            } else if options
                .iter()
                .any(|o| o.condition == Tri::True && o.assessment_required)
            {
                Resolution::unresolved(
                    "assessment",
                    "the role chooses after assessing the evidence; a saved mode is resume context only",
                )
            } else if saved_value.status == "conversation" {
                saved_value.clone()
            } else {
                Resolution::unresolved(
                    "unknown",
                    "the request and saved intent must be resolved; defaults are not applied",
                )
            };
        }
        if let Some(Some(i)) = saved_index {
            let differs = state.status == "known" && state.value != saved_value.value;
            if options[i].condition == Tri::False || differs {
                self.diag(
                    format!("group {}", group.id),
                    "inconsistent-saved-selection",
                    format!(
                        "the saved value `{}` does not fit the current state",
                        group.options[i].id
                    ),
                );
            }
        }
        GroupResult {
            options,
            selected,
            saved_value,
            saved_argument,
            locked,
        }
    }

    /// The user-style inventory and selection (RT §6.7).
    pub fn styles(&mut self, role: &str) -> StylesResult {
        let directory = format!("{USER_STYLES_DIR}/{role}");
        let styles = self.catalog.block.user_styles.clone();
        let record_binding = matches!(styles.saved_value, Binding::Record { .. });
        let mut complete = true;
        let mut entries: Vec<(String, String)> = Vec::new();
        match self.files.dir(&directory) {
            DirStatus::Missing => {}
            DirStatus::NotDir(why) => {
                complete = false;
                self.diag(directory.clone(), "style-inventory", why);
            }
            DirStatus::Dir => match self.files.children(&directory) {
                Err(e) => {
                    complete = false;
                    self.diag(directory.clone(), "style-inventory", e);
                }
                Ok(names) => {
                    for name in names {
                        let Some(id) = name.strip_suffix(".md") else {
                            continue;
                        };
                        let file = format!("{directory}/{name}");
                        let bad_id = id.is_empty()
                            || id == "."
                            || id == ".."
                            || id == "NONE"
                            || id.contains(['/', '\\', '\r', '\n', '\0']);
                        if bad_id {
                            complete = false;
                            self.diag(
                                directory.clone(),
                                "style-inventory",
                                format!("`{name}` is not a usable style name"),
                            );
                            continue;
                        }
                        match self.files.regular_file_inside(&file, &directory) {
                            Ok(()) => entries.push((id.to_string(), file)),
                            Err(e) => {
                                complete = false;
                                self.diag(directory.clone(), "style-inventory", e);
                            }
                        }
                    }
                }
            },
        }
        entries.sort();
        let ids: Vec<&str> = entries.iter().map(|(i, _)| i.as_str()).collect();
        let matches = |value: &str| -> Vec<usize> {
            ids.iter()
                .enumerate()
                .filter(|(_, id)| **id == value || Some(**id) == value.strip_suffix(".md"))
                .map(|(i, _)| i)
                .collect()
        };
        // A record saves only a concrete style name: the protocol's rule (no
        // `|` at all, D25) is stricter than "filled", and `check` enforces it.
        let usable = |s: &str| !record_binding || record::is_saveable_style(s);
        let options: Vec<StyleOption> = entries
            .iter()
            .enumerate()
            .map(|(i, (id, file))| {
                if !complete {
                    return StyleOption {
                        id: id.clone(),
                        file: file.clone(),
                        selector: None,
                        selector_reason: Some("selection unverified"),
                    };
                }
                let unique: Vec<String> = [id.clone(), format!("{id}.md")]
                    .into_iter()
                    .filter(|c| matches(c) == [i])
                    .collect();
                let selector = unique.iter().find(|c| usable(c)).cloned();
                let reason = match (&selector, unique.is_empty()) {
                    (Some(_), _) => None,
                    (None, false) => Some("no record-compatible name"),
                    (None, true) => Some("ambiguous name"),
                };
                StyleOption {
                    id: id.clone(),
                    file: file.clone(),
                    selector,
                    selector_reason: reason,
                }
            })
            .collect();
        let saved_value = self.saved(Some(&styles.saved_value), false);
        let locked = match &styles.locked_when {
            Some(c) => self.eval(c),
            None => Tri::False,
        };
        let selected = match (saved_value.status, saved_value.value.as_deref()) {
            ("known", Some(v)) if v != "NONE" => {
                let valid = !v.is_empty() && !v.contains(['/', '\\', '\r', '\n', '\0']);
                let m = matches(v);
                if !complete {
                    Resolution::unresolved("unknown", "the style inventory is incomplete")
                } else if !valid || m.len() != 1 {
                    self.diag(
                        directory.clone(),
                        "invalid-saved-style",
                        format!("the saved style `{v}` does not resolve to exactly one file"),
                    );
                    Resolution::invalid(
                        v.to_string(),
                        saved_value.source.as_deref().unwrap_or("record"),
                        "does not resolve to exactly one style file",
                    )
                } else {
                    Resolution::known(
                        ids[m[0]].to_string(),
                        saved_value.source.clone().unwrap_or_default(),
                    )
                }
            }
            _ => saved_value.clone(),
        };
        StylesResult {
            directory,
            complete,
            options,
            saved_value,
            selected,
            locked,
        }
    }
}

/// The consistency rules of RT §6.5 that make state facts trustworthy.
fn consistency(doc: &StateDoc, pm: ProjectMode) -> Result<(), String> {
    let state = doc.workflow_state.value;
    let cm = doc.cycle_mode.value;
    let policy = doc.active_work.completion_policy.value;
    let id = doc.active_work.id.value.as_str();
    let fresh = if pm == ProjectMode::Greenfield {
        WorkflowState::Scoping
    } else {
        WorkflowState::Auditing
    };
    if pm == ProjectMode::Greenfield {
        for m in [cm, doc.pending_cycle_mode.value] {
            if matches!(m, CycleMode::Expedited | CycleMode::Documentation) {
                return Err(format!("a GREENFIELD project cannot use {m}"));
            }
        }
    }
    if id == "UNSET" {
        if pm == ProjectMode::Greenfield && state != fresh {
            return Err(format!("with no cycle the state must be {fresh}"));
        }
        if cm != CycleMode::Unset
            || state.is_terminal()
            || policy != CompletionPolicy::None
            || !matches!(state, WorkflowState::Scoping | WorkflowState::Auditing)
        {
            return Err(
                "`Id` is UNSET but the cycle fields are not those of a fresh workflow".into(),
            );
        }
    } else {
        if !cycle_id::is_generated(id) {
            return Err(format!("`Id` `{id}` is not a generated cycle ID"));
        }
        if !state.is_terminal() && cm == CycleMode::Unset {
            return Err("an active cycle needs a CycleMode".into());
        }
    }
    let pair_ok = match cm {
        CycleMode::Unset => true,
        CycleMode::Expedited | CycleMode::Documentation => policy == CompletionPolicy::None,
        CycleMode::Standard => matches!(
            policy,
            CompletionPolicy::FullDeliverable | CompletionPolicy::ImplementationReviewed
        ),
    };
    if !pair_ok {
        return Err(format!(
            "CycleMode {cm} cannot have CompletionPolicy {policy}"
        ));
    }
    use WorkflowState as W;
    let allowed = match cm {
        CycleMode::Documentation => matches!(
            state,
            W::Auditing
                | W::Scoping
                | W::Architecting
                | W::Documenting
                | W::ReviewingFinal
                | W::Synchronizing
                | W::AwaitingUserSignoff
        ),
        CycleMode::Expedited => matches!(
            state,
            W::Developing | W::ReviewingImplementation | W::AwaitingUserSignoff
        ),
        CycleMode::Standard if policy == CompletionPolicy::ImplementationReviewed => {
            !matches!(state, W::Documenting | W::ReviewingFinal | W::Synchronizing)
                || doc.recovery.active.value
        }
        _ => true,
    };
    if !allowed && !state.is_terminal() {
        return Err(format!("a {cm} cycle cannot be in {state}"));
    }
    Ok(())
}
