//! Record-local identifiers handed out by `id next` (RT §4, RF §1.5).

use crate::model::tree::{Text, Tree};
use crate::model::vocab::{ArtifactType, IdPrefix};
use crate::records::provenance::{self, Marking, Provenance};
use crate::records::record;

/// Why a file may not number identifiers of a prefix (RT §4.2 step 4).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OwnerError {
    #[error("its provenance block is malformed: {0}")]
    Malformed(String),
    #[error("`{prefix}` identifiers belong to {expected} records, but this record is {actual}")]
    WrongType {
        prefix: IdPrefix,
        expected: ArtifactType,
        actual: ArtifactType,
    },
    #[error("it is not a STANDARDS record (it has no provenance block); `{prefix}` identifiers belong to {expected} records")]
    Unmarked {
        prefix: IdPrefix,
        expected: ArtifactType,
    },
}

/// Whether a file with this marking may number `prefix` identifiers: a valid
/// block of the owning type, or no block at all for `AC` (a reused, unmarked
/// project scope document).
pub fn check_owner(prefix: IdPrefix, marking: &Marking) -> Result<(), OwnerError> {
    let expected = prefix.owning_artifact();
    match marking {
        Marking::Malformed(reason) => Err(OwnerError::Malformed(reason.clone())),
        Marking::Valid(p) if p.artifact == expected => Ok(()),
        Marking::Valid(p) => Err(OwnerError::WrongType {
            prefix,
            expected,
            actual: p.artifact,
        }),
        Marking::Unmarked if prefix == IdPrefix::Ac => Ok(()),
        Marking::Unmarked => Err(OwnerError::Unmarked { prefix, expected }),
    }
}

/// The next free identifier: one more than the highest `prefix` number in any
/// of `texts` (the file now and its committed versions), or `PREFIX-001`.
/// `None` when the highest number has no successor (`u64::MAX`).
pub fn next_identifier<'a>(
    prefix: IdPrefix,
    texts: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    let highest = texts
        .into_iter()
        .flat_map(|t| record::identifier_numbers(t, prefix))
        .max()
        .unwrap_or(0);
    highest
        .checked_add(1)
        .map(|n| record::format_identifier(prefix, n))
}

/// Committed records that stand for a file absent at `path` in `head`: every
/// Markdown file of `head` at another path whose valid provenance block equals
/// `current` (same type, cycle and review kind). This finds a record that was
/// renamed or moved since the last commit; a copy is found too, which can
/// only make `id next` skip numbers, never hand one out twice (D11).
pub fn committed_aliases(
    head: &dyn Tree,
    path: &str,
    current: &Provenance,
) -> Vec<(String, String)> {
    head.markdown_files()
        .into_iter()
        .filter(|p| p != path)
        .filter_map(|p| match head.text(&p) {
            Text::Ok(text) if provenance::parse(&text).valid() == Some(current) => Some((p, text)),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::tree::MemTree;
    use crate::model::vocab::ReviewKind;

    fn marked(artifact: ArtifactType, kind: Option<ReviewKind>) -> Marking {
        Marking::Valid(Provenance {
            artifact,
            cycle: "c-1".into(),
            review_kind: kind,
        })
    }

    #[test]
    fn each_prefix_belongs_to_one_record_type() {
        for prefix in IdPrefix::ALL {
            let owner = prefix.owning_artifact();
            let kind = (owner == ArtifactType::Review).then_some(ReviewKind::FinalDeliverable);
            assert_eq!(check_owner(*prefix, &marked(owner, kind)), Ok(()));
        }
        let err = check_owner(
            IdPrefix::Dev,
            &marked(ArtifactType::Review, Some(ReviewKind::Implementation)),
        )
        .unwrap_err();
        assert_eq!(
            err,
            OwnerError::WrongType {
                prefix: IdPrefix::Dev,
                expected: ArtifactType::Development,
                actual: ArtifactType::Review
            }
        );
        assert_eq!(
            err.to_string(),
            "`DEV` identifiers belong to DEVELOPMENT records, but this record is REVIEW"
        );
        assert!(check_owner(IdPrefix::Doc, &marked(ArtifactType::Verification, None)).is_err());
    }

    #[test]
    fn only_acceptance_conditions_live_in_unmarked_files() {
        assert_eq!(check_owner(IdPrefix::Ac, &Marking::Unmarked), Ok(()));
        for prefix in [IdPrefix::Dev, IdPrefix::F, IdPrefix::D, IdPrefix::Doc] {
            let err = check_owner(prefix, &Marking::Unmarked).unwrap_err();
            assert!(err.to_string().contains("not a STANDARDS record"), "{err}");
        }
        let err =
            check_owner(IdPrefix::Ac, &Marking::Malformed("never closed".into())).unwrap_err();
        assert_eq!(
            err.to_string(),
            "its provenance block is malformed: never closed"
        );
    }

    #[test]
    fn next_is_one_more_than_the_highest_in_any_version() {
        assert_eq!(
            next_identifier(IdPrefix::Ac, ["no ids"]).as_deref(),
            Some("AC-001")
        );
        assert_eq!(
            next_identifier(IdPrefix::Ac, Vec::<&str>::new()).as_deref(),
            Some("AC-001")
        );
        let now = "- `AC-001`: One.\n- `AC-003`: Three.\n## Retired Acceptance Identifiers\n- `AC-004`: Gone.\n";
        let committed = "- `AC-001`: One.\n- `AC-006`: Six.\n";
        assert_eq!(
            next_identifier(IdPrefix::Ac, [now]).as_deref(),
            Some("AC-005")
        );
        assert_eq!(
            next_identifier(IdPrefix::Ac, [now, committed]).as_deref(),
            Some("AC-007")
        );
        assert_eq!(
            next_identifier(IdPrefix::F, ["### F-999\nSee other.md#F-2000"]).as_deref(),
            Some("F-1000")
        );
        assert_eq!(
            next_identifier(IdPrefix::D, [&format!("D-{}", u64::MAX) as &str]),
            None
        );
    }

    #[test]
    fn aliases_are_committed_records_with_the_same_block() {
        let block =
            "<!-- STANDARDS\nArtifact: REVIEW\nCycle: c-1\nReviewKind: IMPLEMENTATION\n-->\n";
        let head = MemTree::new()
            .with("archive/old-review.md", format!("{block}### F-004\n"))
            .with(
                "other.md",
                "<!-- STANDARDS\nArtifact: REVIEW\nCycle: c-1\nReviewKind: FINAL_DELIVERABLE\n-->\n### F-009\n",
            )
            .with("plain.md", "### F-010\n");
        let current = provenance::parse(block).valid().unwrap().clone();
        let found = committed_aliases(&head, "new/review.md", &current);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].0, "archive/old-review.md");
        assert!(committed_aliases(&head, "archive/old-review.md", &current).is_empty());
    }
}
