//! `Active Work` artifact paths: what `artifact init` does with the path
//! field of the record it creates.

use crate::model::state::StateDoc;
use crate::model::state_edit::{locate, Field as F, StateEditor as Editor};
use crate::model::vocab::{ArtifactType, CycleMode};
use crate::workflow::transition::Refusal;

/// What `artifact init` does with the `Active Work` path field of the record
/// it creates (Active Work: Scoper, Architect and Developer persist their
/// artifact path; Workflow Artifact Provenance: only the development plan's
/// and the new scope and design records' paths go into STATE.md).
#[derive(Debug, Clone)]
pub enum RecordPath {
    /// The field is `NONE`: the new STATE.md names the record.
    Set {
        field: &'static str,
        doc: Box<StateDoc>,
    },
    /// The field already names this record.
    Recorded { field: &'static str },
    /// The field names another artifact (an unmarked project document the
    /// role chose, or a stale path): the role's choice stays, untouched.
    Elsewhere {
        field: &'static str,
        current: String,
    },
    /// The record has no path field, or this cycle keeps it `NONE`.
    NoField { why: &'static str },
}

/// The `Active Work` field that names a record of `artifact` at `path`.
pub fn record_path(
    doc: &StateDoc,
    artifact: ArtifactType,
    path: &str,
) -> Result<RecordPath, Refusal> {
    let (field, name) = match artifact {
        ArtifactType::Scope => (F::Scope, "Active Work.Scope"),
        ArtifactType::Architecture => (F::Architecture, "Active Work.Architecture"),
        ArtifactType::Development => (F::Development, "Active Work.Development"),
        _ => {
            return Ok(RecordPath::NoField {
                why: "its path derives from the cycle ID, so STATE.md has no field for it",
            })
        }
    };
    if doc.cycle_mode.value == CycleMode::Expedited && field != F::Development {
        return Ok(RecordPath::NoField {
            why: "an EXPEDITED cycle keeps `Scope` and `Architecture` `NONE` until it is promoted",
        });
    }
    let (_, current) = locate(doc, field);
    if current == path {
        return Ok(RecordPath::Recorded { field: name });
    }
    if current != "NONE" {
        return Ok(RecordPath::Elsewhere {
            field: name,
            current,
        });
    }
    let mut e = Editor::new(doc);
    e.set(field, path)?;
    Ok(RecordPath::Set {
        field: name,
        doc: Box::new(e.build()?),
    })
}
