//! Files the binary carries (decision D5): the protocol, its chapters and the
//! record headers `artifact init` writes.

pub mod skills;

use crate::model::layout::MARKER;
use crate::model::vocab::{ArtifactType, ReviewKind};

/// The installed `.standards/PROTOCOL.md`.
pub const PROTOCOL: &str = include_str!("protocol/PROTOCOL.md");

/// The chapters installed under `.standards/protocol/`, by file name.
pub const CHAPTERS: [(&str, &str); 3] = [
    ("expedited.md", include_str!("protocol/expedited.md")),
    ("installation.md", include_str!("protocol/installation.md")),
    (
        "user-decisions.md",
        include_str!("protocol/user-decisions.md"),
    ),
];

/// The header `artifact init` writes below the provenance block (RF §7), with
/// `<id>` standing for the cycle ID and `<KIND>` for the review kind. `None` for
/// SCOPE and ARCHITECTURE, whose records start with the block alone.
pub fn record_header(artifact: ArtifactType) -> Option<&'static str> {
    Some(match artifact {
        ArtifactType::Scope | ArtifactType::Architecture => return None,
        ArtifactType::Development => {
            "# Development Plan

`Cycle`: `<id>` `Mode`: `AUTONOMOUS | STEPWISE | CODE_WITH_ME`
`User Style`: `<style-name | NONE>` `User Style Locked`: `false | true`
`Status`: `PROPOSED | APPROVED | IN_PROGRESS | COMPLETE` `Verification Cadence`:
`AFTER_IMPLEMENTATION` `Current Increment`: `NONE`"
        }
        ArtifactType::Verification => {
            "# Verification Report

`Cycle`: `<id>` `Mode`: `VERIFY | REVERIFY` `Status`:
`IN_PROGRESS | BLOCKED | COMPLETE` `User Style`: `NONE | <identifier>`
`Assessment Purpose`: `FULL` `Assessment Target`: `NONE`"
        }
        ArtifactType::Review => {
            "# Review Report

`Cycle`: `<id>` `ReviewKind`: `<KIND>`
`Status`: `IN_PROGRESS | BLOCKED | COMPLETE` `User Style`: `NONE | <identifier>`"
        }
        ArtifactType::Documentation => {
            "# Documentation Record

`Cycle`: `<id>` `Status`: `IN_PROGRESS | BLOCKED | COMPLETE`
`Collaboration`: `AUTONOMOUS | GUIDED` `Target`:
`FILE | FOLDER | VERTICAL_SLICE | ACTIVE_CHANGE` `Target Detail`:
`<repository-relative path, capability, or active cycle>` `User Style`:
`NONE | <identifier>`"
        }
        ArtifactType::Synchronization => {
            "# Synchronization Record

`Cycle`: `<id>` `Status`: `IN_PROGRESS | BLOCKED | COMPLETE`
`User Style`: `NONE | <identifier>`"
        }
    })
}

/// The complete text of a new record: provenance block, then (for types with a
/// header) an empty line, the header and one final newline (RF §7).
pub fn new_record(artifact: ArtifactType, kind: Option<ReviewKind>, id: &str) -> String {
    let block = crate::records::provenance::render(&crate::records::provenance::Provenance {
        artifact,
        cycle: id.to_string(),
        review_kind: kind,
    });
    match record_header(artifact) {
        None => block,
        Some(header) => {
            let kind = kind.map(|k| k.as_str()).unwrap_or("");
            format!(
                "{block}\n{}\n",
                header.replace("<id>", id).replace("<KIND>", kind)
            )
        }
    }
}

/// Build-time invariants the reference checks at run time (RT §7.5).
pub fn assert_invariants() {
    assert!(
        PROTOCOL.contains(MARKER),
        "PROTOCOL.md must carry the ownership marker"
    );
    assert!(!CHAPTERS.is_empty());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::{provenance, record};

    #[test]
    fn shipped_protocol_is_framework_owned() {
        assert_invariants();
        for (name, text) in CHAPTERS {
            assert!(text.starts_with("# "), "{name} needs a title");
            assert!(text.contains(MARKER), "{name} needs the marker");
        }
    }

    #[test]
    fn scope_records_are_the_block_alone() {
        assert_eq!(
            new_record(ArtifactType::Scope, None, "c-1"),
            "<!-- STANDARDS\nArtifact: SCOPE\nCycle: c-1\n-->\n"
        );
    }

    #[test]
    fn review_records_carry_the_kind_twice() {
        let text = new_record(
            ArtifactType::Review,
            Some(ReviewKind::FinalDeliverable),
            "c-1",
        );
        assert!(text.starts_with("<!-- STANDARDS\nArtifact: REVIEW\nCycle: c-1\nReviewKind: FINAL_DELIVERABLE\n-->\n\n# Review Report\n"));
        let header = record::header_fields(&text);
        assert_eq!(header[1].name, "ReviewKind");
        assert_eq!(header[1].value, "FINAL_DELIVERABLE");
        assert!(text.ends_with("`NONE | <identifier>`\n"));
        assert!(provenance::parse(&text).valid().is_some());
    }

    #[test]
    fn every_header_names_its_cycle() {
        for t in ArtifactType::ALL {
            let text = new_record(
                *t,
                Some(ReviewKind::Implementation).filter(|_| *t == ArtifactType::Review),
                "c-9",
            );
            if record_header(*t).is_some() {
                let fields = record::header_fields(&text);
                assert_eq!(fields[0].name, "Cycle");
                assert_eq!(fields[0].value, "c-9");
            }
        }
    }
}
