//! What every rule reads: the parsed runtime files, the artifact scan, the
//! active cycle's records, and the derived predicates of the rule catalogue
//! (check-rules §2, §1.14, §1.15 and the PV discovery procedure).

use crate::model::layout::{self, MODE_PATH, STATE_PATH};
use crate::model::mode::{self, ModeError};
use crate::model::state::{StateDoc, StateError};
use crate::model::tree::{Text, Tree};
use crate::model::vocab::{
    ArtifactType, CycleMode, HandoffKind, ProjectMode, ReviewKind, WorkflowState,
};
use crate::records::provenance::{self, Marking, Provenance};
use crate::records::scan::{self, Artifact, Scan};

use super::{Options, Sink};

/// The phase lists live with the routes; rules reach them through the context too.
pub use crate::workflow::topology::{DOCUMENTATION_PHASES, FULL_DELIVERABLE_PHASES};

/// What was found at one of the active cycle's fixed record paths (PV-002..PV-005).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SlotStatus {
    Missing,
    Unreadable(String),
    Unmarked,
    Malformed(String),
    OtherCycle(String),
    WrongRecord(Provenance),
    /// This cycle's record of the right type and kind.
    Own,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FixedSlot {
    pub path: String,
    pub artifact: ArtifactType,
    pub kind: Option<ReviewKind>,
    /// The state whose owner completes this record (check-rules §1.14), if any.
    pub completing_state: Option<WorkflowState>,
    pub status: SlotStatus,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ActivePathField {
    Scope,
    Architecture,
    Development,
}

impl ActivePathField {
    pub fn name(self) -> &'static str {
        match self {
            ActivePathField::Scope => "Scope",
            ActivePathField::Architecture => "Architecture",
            ActivePathField::Development => "Development",
        }
    }

    pub fn artifact(self) -> ArtifactType {
        match self {
            ActivePathField::Scope => ArtifactType::Scope,
            ActivePathField::Architecture => ArtifactType::Architecture,
            ActivePathField::Development => ArtifactType::Development,
        }
    }
}

/// What an `Active Work` path (Scope, Architecture, Development) leads to (PV-009..PV-013).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ActiveStatus {
    /// The path climbs out of the project.
    Outside,
    Unreadable(String),
    Missing,
    /// The file has a malformed block: PV-001 covers it; skipped from here on.
    Malformed,
    /// No provenance block: acceptable for Scope and Architecture (a project document).
    Unmarked(String),
    /// A valid block of another type or cycle.
    Foreign(Provenance),
    /// This cycle's record of the right type.
    Own(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActivePath {
    pub field: ActivePathField,
    /// As written in STATE.md.
    pub raw: String,
    /// Normalised (check-rules §1.14).
    pub path: String,
    pub status: ActiveStatus,
}

impl ActivePath {
    /// The usable text: an own record, or an unmarked project document for Scope/Architecture.
    pub fn text(&self) -> Option<&str> {
        match &self.status {
            ActiveStatus::Own(t) => Some(t),
            ActiveStatus::Unmarked(t) if self.field != ActivePathField::Development => Some(t),
            _ => None,
        }
    }
}

/// A record whose valid block names the active cycle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnRecord {
    pub path: String,
    pub text: String,
    pub provenance: Provenance,
    /// PV-007: an earlier own record of the same type and kind.
    pub duplicate_of: Option<String>,
}

impl OwnRecord {
    pub fn artifact(&self) -> ArtifactType {
        self.provenance.artifact
    }
    pub fn kind(&self) -> Option<ReviewKind> {
        self.provenance.review_kind
    }
}

/// The shared, read-only context of one check run.
pub struct Cx<'a> {
    pub tree: &'a dyn Tree,
    pub head: Option<&'a dyn Tree>,
    pub options: Options,
    /// MODE.md's mode; `None` when missing or invalid (mode rules are skipped).
    pub mode: Option<ProjectMode>,
    pub mode_error: Option<ModeError>,
    /// STATE.md, when it could be read.
    pub state_text: Option<String>,
    /// The parsed STATE.md, or the first structural error (ST-001..ST-011).
    pub state: Option<Result<StateDoc, StateError>>,
    /// The last commit's STATE.md, when it exists and parses.
    pub committed_state: Option<StateDoc>,
    pub scan: Scan,
    /// Files read directly (fixed paths, Active Work paths) that have a block but were not scanned.
    pub direct: Vec<Artifact>,
    pub fixed: Vec<FixedSlot>,
    pub active_paths: Vec<ActivePath>,
    /// Own records in own-record order (check-rules §3).
    pub own: Vec<OwnRecord>,
    /// The verdicts and scans this run shares with the others of its walk.
    pub cache: Option<&'a crate::records::verdicts::ContentCache>,
}

impl<'a> Cx<'a> {
    pub fn new(
        tree: &'a dyn Tree,
        head: Option<&'a dyn Tree>,
        options: Options,
        sink: &mut Sink,
    ) -> Cx<'a> {
        Self::new_cached(tree, head, options, sink, None)
    }

    /// [`Cx::new`], with the scan's verdicts shared through `cache`.
    pub fn new_cached(
        tree: &'a dyn Tree,
        head: Option<&'a dyn Tree>,
        options: Options,
        sink: &mut Sink,
        cache: Option<&'a crate::records::verdicts::ContentCache>,
    ) -> Cx<'a> {
        let (mode, mode_error) = match tree.text(MODE_PATH) {
            Text::Ok(t) => match mode::parse(&t) {
                Ok(m) => (Some(m), None),
                Err(e) => (None, Some(e)),
            },
            _ => (None, None),
        };
        let state_text = match tree.text(STATE_PATH) {
            Text::Ok(t) => Some(t),
            _ => None,
        };
        // A range's commits share STATE.md with their neighbours: parsed once per content.
        let parse = |side: &dyn Tree, text: &str| match cache {
            Some(cache) => cache.parse_state(side.content_id(STATE_PATH), text),
            None => StateDoc::parse(text),
        };
        let state = state_text.as_deref().map(|t| parse(tree, t));
        let committed_state = head.and_then(|h| match h.text(STATE_PATH) {
            Text::Ok(t) => parse(h, &t).ok(),
            _ => None,
        });
        let scan = scan::scan_cached(tree, cache);
        for (path, why) in &scan.unreadable {
            // A name that is not UTF-8 hides the file from every check; under
            // `.standards/` it may be a record, so it is a problem (issue 21).
            if path.starts_with(&format!("{}/", layout::STANDARDS_DIR))
                && why.contains("name is not valid UTF-8")
            {
                sink.push(
                    "PV-001",
                    path.clone(),
                    format!("cannot be read ({why}), so its provenance block cannot be checked; a file under .standards/ may be a record"),
                );
                continue;
            }
            sink.note(format!(
                "{path} could not be read ({why}), so it was not checked"
            ));
        }
        let mut cx = Cx {
            tree,
            head,
            options,
            mode,
            mode_error,
            state_text,
            state,
            committed_state,
            scan,
            direct: Vec::new(),
            fixed: Vec::new(),
            active_paths: Vec::new(),
            own: Vec::new(),
            cache,
        };
        if let Some(id) = cx
            .doc()
            .and_then(|d| d.active_cycle_id())
            .map(str::to_string)
        {
            cx.discover(&id);
        }
        cx
    }

    /// The parsed STATE.md, if it passed the structural checks.
    pub fn doc(&self) -> Option<&StateDoc> {
        self.state.as_ref().and_then(|r| r.as_ref().ok())
    }

    /// The active cycle's ID.
    pub fn active_id(&self) -> Option<&str> {
        self.doc().and_then(|d| d.active_cycle_id())
    }

    /// Every artifact: scanned ones, then directly read ones.
    pub fn artifacts(&self) -> impl Iterator<Item = &Artifact> {
        self.scan.artifacts.iter().chain(self.direct.iter())
    }

    /// The artifact at `path`, if the scan or a direct read found one.
    pub fn artifact(&self, path: &str) -> Option<&Artifact> {
        self.artifacts().find(|a| a.path == path)
    }

    /// The last committed text of `path`, if there is a last commit holding it.
    /// Follows a rename (check-rules §1.16): when `path` is new since the last
    /// commit, the committed text of the file it was moved from.
    pub fn committed_text(&self, path: &str) -> Option<String> {
        let head = self.head?;
        let source = match head.node(path) {
            crate::model::tree::Node::Missing => {
                crate::records::renames::renamed_from(self.tree, head, path)?
            }
            _ => path.to_string(),
        };
        match head.text(&source) {
            Text::Ok(t) => Some(t),
            _ => None,
        }
    }

    fn read_direct(&mut self, path: &str) -> Result<Option<&Artifact>, Text> {
        if self.scan.find(path).is_some() || self.direct.iter().any(|a| a.path == path) {
            return Ok(self.artifact(path));
        }
        match self.tree.text(path) {
            Text::Ok(text) => {
                if provenance::opens_block(&text) {
                    let marking = provenance::parse(&text);
                    self.direct.push(Artifact {
                        path: path.to_string(),
                        text,
                        marking,
                    });
                    Ok(self.direct.last())
                } else {
                    Err(Text::Ok(text))
                }
            }
            other => Err(other),
        }
    }

    fn discover(&mut self, id: &str) {
        let documentation = self
            .doc()
            .is_some_and(|d| d.cycle_mode.value == CycleMode::Documentation);
        // Fixed-record discovery (PV-002..PV-005).
        let mut slots: Vec<(ArtifactType, Option<ReviewKind>, Option<WorkflowState>)> = vec![
            (
                ArtifactType::Verification,
                None,
                Some(WorkflowState::Testing),
            ),
            (
                ArtifactType::Review,
                Some(ReviewKind::Implementation),
                Some(WorkflowState::ReviewingImplementation),
            ),
            (
                ArtifactType::Documentation,
                None,
                Some(WorkflowState::Documenting),
            ),
            (
                ArtifactType::Review,
                Some(ReviewKind::FinalDeliverable),
                Some(WorkflowState::ReviewingFinal),
            ),
            (
                ArtifactType::Synchronization,
                None,
                Some(WorkflowState::Synchronizing),
            ),
        ];
        if documentation {
            slots.push((ArtifactType::Development, None, None));
        }
        for (artifact, kind, completing_state) in slots {
            let path = layout::record_path(artifact, kind, id);
            let status = match self.read_direct(&path) {
                Ok(Some(a)) => match &a.marking {
                    Marking::Unmarked => SlotStatus::Unmarked,
                    Marking::Malformed(why) => SlotStatus::Malformed(why.clone()),
                    Marking::Valid(p) if p.cycle != id => SlotStatus::OtherCycle(p.cycle.clone()),
                    Marking::Valid(p) if p.artifact != artifact || p.review_kind != kind => {
                        SlotStatus::WrongRecord(p.clone())
                    }
                    Marking::Valid(_) => SlotStatus::Own,
                },
                Ok(None) => SlotStatus::Missing,
                Err(Text::Ok(_)) => SlotStatus::Unmarked,
                Err(Text::Missing) => SlotStatus::Missing,
                Err(Text::Unreadable(why)) => SlotStatus::Unreadable(why),
            };
            self.fixed.push(FixedSlot {
                path,
                artifact,
                kind,
                completing_state,
                status,
            });
        }

        // Active Work path discovery (PV-009..PV-013).
        let fields = {
            let d = self.doc().expect("active cycle implies a parsed state");
            [
                (ActivePathField::Scope, d.active_work.scope.value.clone()),
                (
                    ActivePathField::Architecture,
                    d.active_work.architecture.value.clone(),
                ),
                (
                    ActivePathField::Development,
                    d.active_work.development.value.clone(),
                ),
            ]
        };
        for (field, raw) in fields {
            if raw == "NONE" {
                continue;
            }
            // An absolute path names a file outside the project (the spec's
            // POSIX normalisation keeps the leading `/`): never re-root it
            // inside (issue 7, item 5).
            let normalized = if raw.starts_with('/') || raw.starts_with('\\') {
                None
            } else {
                layout::normalize(&raw)
            };
            let Some(path) = normalized else {
                self.active_paths.push(ActivePath {
                    field,
                    raw,
                    path: String::new(),
                    status: ActiveStatus::Outside,
                });
                continue;
            };
            if path.is_empty() {
                // `.` or `docs/..`: the project folder itself, a folder that cannot be read as a record (PV-010).
                self.active_paths.push(ActivePath {
                    field,
                    raw,
                    path,
                    status: ActiveStatus::Unreadable(
                        "it names the project folder itself, not a file".into(),
                    ),
                });
                continue;
            }
            let status = match self.read_direct(&path) {
                Ok(Some(a)) => match &a.marking {
                    Marking::Unmarked => ActiveStatus::Unmarked(a.text.clone()),
                    Marking::Malformed(_) => ActiveStatus::Malformed,
                    Marking::Valid(p) if p.cycle != id || p.artifact != field.artifact() => {
                        ActiveStatus::Foreign(p.clone())
                    }
                    Marking::Valid(_) => ActiveStatus::Own(a.text.clone()),
                },
                Ok(None) => ActiveStatus::Missing,
                Err(Text::Ok(text)) => ActiveStatus::Unmarked(text),
                Err(Text::Missing) => ActiveStatus::Missing,
                Err(Text::Unreadable(why)) if why.contains("folder") => {
                    ActiveStatus::Unreadable(why)
                }
                Err(Text::Unreadable(why)) => ActiveStatus::Unreadable(why),
            };
            self.active_paths.push(ActivePath {
                field,
                raw,
                path,
                status,
            });
        }

        // Own records: those at their fixed path first, then the rest in artifact order.
        let mut own: Vec<OwnRecord> = Vec::new();
        let candidates: Vec<&Artifact> = self.artifacts().collect();
        let at_fixed = |a: &Artifact, p: &Provenance| {
            !matches!(p.artifact, ArtifactType::Scope | ArtifactType::Architecture)
                && layout::record_path(p.artifact, p.review_kind, id) == a.path
        };
        let mut ordered: Vec<(&Artifact, &Provenance)> = Vec::new();
        for pass in [true, false] {
            for a in &candidates {
                if let Some(p) = a.marking.valid().filter(|p| p.cycle == id) {
                    if at_fixed(a, p) == pass {
                        ordered.push((a, p));
                    }
                }
            }
        }
        for (a, p) in ordered {
            let duplicate_of = own
                .iter()
                .find(|o| {
                    o.duplicate_of.is_none()
                        && o.provenance.artifact == p.artifact
                        && o.provenance.review_kind == p.review_kind
                })
                .map(|o| o.path.clone());
            own.push(OwnRecord {
                path: a.path.clone(),
                text: a.text.clone(),
                provenance: p.clone(),
                duplicate_of,
            });
        }
        self.own = own;
    }

    /// Own records that passed PV-007 (not duplicates).
    pub fn own_records(&self) -> impl Iterator<Item = &OwnRecord> {
        self.own.iter().filter(|o| o.duplicate_of.is_none())
    }

    /// The first own record of a type (and kind).
    pub fn own_record(
        &self,
        artifact: ArtifactType,
        kind: Option<ReviewKind>,
    ) -> Option<&OwnRecord> {
        self.own_records()
            .find(|o| o.artifact() == artifact && o.kind() == kind)
    }

    /// The active cycle's own record at its fixed path, if there is one.
    pub fn fixed_record(
        &self,
        artifact: ArtifactType,
        kind: Option<ReviewKind>,
    ) -> Option<&OwnRecord> {
        let id = self.active_id()?;
        let path = layout::record_path(artifact, kind, id);
        self.own_records()
            .find(|o| o.path == path && o.artifact() == artifact && o.kind() == kind)
    }

    pub fn active_path(&self, field: ActivePathField) -> Option<&ActivePath> {
        self.active_paths.iter().find(|p| p.field == field)
    }

    /// The scope text established by PV-009..PV-013, with its normalised path.
    pub fn scope(&self) -> Option<(&str, &str)> {
        let p = self.active_path(ActivePathField::Scope)?;
        p.text().map(|t| (p.path.as_str(), t))
    }

    /// The design text established by PV-009..PV-013, with its normalised path.
    pub fn design(&self) -> Option<(&str, &str)> {
        let p = self.active_path(ActivePathField::Architecture)?;
        p.text().map(|t| (p.path.as_str(), t))
    }

    /// The cycle's plan (DV scope): the `Development` path when it passed
    /// PV-010..PV-013, otherwise the first own DEVELOPMENT record.
    pub fn plan(&self) -> Option<(&str, &str)> {
        let development = self.doc()?.active_work.development.value.as_str();
        if development != "NONE" {
            let p = self.active_path(ActivePathField::Development)?;
            return match &p.status {
                ActiveStatus::Own(t) => Some((p.path.as_str(), t.as_str())),
                _ => None,
            };
        }
        self.own_record(ArtifactType::Development, None)
            .map(|o| (o.path.as_str(), o.text.as_str()))
    }

    // ---- Derived predicates (check-rules §2) ----

    fn ws(&self) -> Option<WorkflowState> {
        self.doc().map(|d| d.workflow_state.value)
    }

    fn kind(&self) -> Option<HandoffKind> {
        self.doc().and_then(|d| d.handoff.kind())
    }

    fn from(&self) -> Option<WorkflowState> {
        self.doc().and_then(|d| d.handoff.from_state())
    }

    /// `Recovery.Active` is `true` (the flag, not the frame count).
    pub fn recovering(&self) -> bool {
        self.doc().is_some_and(|d| d.recovery.active.value)
    }

    pub fn cycle_mode(&self) -> Option<CycleMode> {
        self.doc().map(|d| d.cycle_mode.value)
    }

    pub fn documentation(&self) -> bool {
        self.cycle_mode() == Some(CycleMode::Documentation)
    }

    pub fn standard(&self) -> bool {
        self.cycle_mode() == Some(CycleMode::Standard)
    }

    pub fn expedited(&self) -> bool {
        self.cycle_mode() == Some(CycleMode::Expedited)
    }

    /// Rank above 0, or AUDITING in a greenfield project.
    pub fn past_architecture(&self, ws: WorkflowState) -> bool {
        ws.rank() > 0
            || (ws == WorkflowState::Auditing && self.mode == Some(ProjectMode::Greenfield))
    }

    /// In a documentation cycle resumed from another state, that state.
    pub fn resume_source(&self) -> Option<WorkflowState> {
        let ws = self.ws()?;
        (self.documentation() && self.kind() == Some(HandoffKind::Resume))
            .then(|| self.from())
            .flatten()
            .filter(|from| *from != ws)
    }

    pub fn corrective_return(&self) -> bool {
        let (Some(ws), Some(from)) = (self.ws(), self.from()) else {
            return false;
        };
        self.documentation()
            && self.kind() == Some(HandoffKind::Resume)
            && matches!(
                from,
                WorkflowState::Documenting | WorkflowState::Synchronizing
            )
            && DOCUMENTATION_PHASES.contains(&ws)
            && ws != from
    }

    pub fn full_boundary(&self) -> bool {
        let Some(ws) = self.ws() else { return false };
        !self.documentation()
            && ws.rank() >= 3
            && (!self.recovering()
                || matches!(
                    self.kind(),
                    Some(HandoffKind::Forward | HandoffKind::Resume)
                ))
    }

    pub fn past_development(&self) -> bool {
        let Some(ws) = self.ws() else { return false };
        !self.documentation()
            && ws.rank() >= 2
            && (!self.recovering() || self.full_boundary() || ws == WorkflowState::Testing)
    }

    pub fn require_prior(&self) -> bool {
        (self.standard() || self.documentation())
            && (!self.recovering()
                || self.full_boundary()
                || (self.documentation() && self.kind() == Some(HandoffKind::Forward)))
    }

    /// `From` when the state is not SCOPING and the handoff kind is one of `kinds` (HK-006).
    pub fn handed_off_by(&self, kinds: &[HandoffKind]) -> Option<WorkflowState> {
        let ws = self.ws()?;
        if ws == WorkflowState::Scoping {
            return None;
        }
        self.kind()
            .filter(|k| kinds.contains(k))
            .and_then(|_| self.from())
    }

    /// The state the last forward-like handoff left.
    pub fn just_left(&self) -> Option<WorkflowState> {
        self.handed_off_by(&[
            HandoffKind::Forward,
            HandoffKind::Checkpoint,
            HandoffKind::Resume,
            HandoffKind::Failure,
        ])
    }
}
