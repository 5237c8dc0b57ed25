//! Where things live under `.standards/` (RF §2, §6).

use crate::model::vocab::{ArtifactType, ReviewKind};

pub const STANDARDS_DIR: &str = ".standards";
pub const PROTOCOL_PATH: &str = ".standards/PROTOCOL.md";
pub const CHAPTERS_DIR: &str = ".standards/protocol";
pub const VERSION_PATH: &str = ".standards/VERSION.json";
pub const INSTALLATION_PATH: &str = ".standards/INSTALLATION.json";
pub const MODE_PATH: &str = crate::model::mode::MODE_PATH;
pub const STATE_PATH: &str = crate::model::state::STATE_PATH;
pub const CONTEXT_PATH: &str = ".standards/CONTEXT.md";
pub const DOCS_DIR: &str = ".standards/docs";
pub const USER_STYLES_DIR: &str = ".standards/user-styles";
/// The framework-ownership marker (RT §0).
pub const MARKER: &str = "<!-- standards:framework-owned -->";
pub const FRAMEWORK_NAME: &str = "S.T.A.N.D.A.R.D.S.";

/// The five runtime files, in the order the checker reports them (RT-001).
pub const RUNTIME_FILES: [&str; 5] = [
    PROTOCOL_PATH,
    VERSION_PATH,
    INSTALLATION_PATH,
    MODE_PATH,
    STATE_PATH,
];

/// The path `artifact init` writes for a record of the cycle `id`.
pub fn record_path(artifact: ArtifactType, kind: Option<ReviewKind>, id: &str) -> String {
    match artifact {
        ArtifactType::Scope => format!("{DOCS_DIR}/scope/{id}.md"),
        ArtifactType::Architecture => format!("{DOCS_DIR}/specs/{id}.md"),
        ArtifactType::Development => format!("{DOCS_DIR}/development/{id}.md"),
        ArtifactType::Verification => format!("{DOCS_DIR}/verification/{id}.md"),
        ArtifactType::Review => match kind.unwrap_or(ReviewKind::Implementation) {
            ReviewKind::Implementation => format!("{DOCS_DIR}/reviews/{id}/implementation.md"),
            ReviewKind::FinalDeliverable => format!("{DOCS_DIR}/reviews/{id}/final-deliverable.md"),
        },
        ArtifactType::Documentation => format!("{DOCS_DIR}/documentation/{id}.md"),
        ArtifactType::Synchronization => format!("{DOCS_DIR}/synchronization/{id}.md"),
    }
}

/// Every path whose existence means the ID `id` is taken (RF §10.4).
pub fn id_claim_paths(id: &str) -> Vec<String> {
    vec![
        format!("{DOCS_DIR}/reviews/{id}"),
        format!("{DOCS_DIR}/scope/{id}.md"),
        format!("{DOCS_DIR}/specs/{id}.md"),
        format!("{DOCS_DIR}/development/{id}.md"),
        format!("{DOCS_DIR}/verification/{id}.md"),
        format!("{DOCS_DIR}/documentation/{id}.md"),
        format!("{DOCS_DIR}/synchronization/{id}.md"),
    ]
}

/// Folders the artifact scan skips at the top level (RT §1.4).
pub const SCAN_SKIPPED: [&str; 6] = [
    ".git",
    "node_modules",
    ".standards",
    ".agents",
    ".claude",
    ".codex",
];

/// Whether a candidate Markdown path takes part in the artifact scan (RT §1.4 step 3).
pub fn is_scanned(path: &str) -> bool {
    if path.starts_with(".standards/docs/") {
        return true;
    }
    let first = path.split('/').next().unwrap_or("");
    !SCAN_SKIPPED.contains(&first)
}

/// POSIX normalisation of a project-relative path (check-rules §1.14); `None`
/// when it climbs out of the project.
pub fn normalize(path: &str) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    for seg in path.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            s => parts.push(s),
        }
    }
    Some(parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_paths() {
        assert_eq!(
            record_path(ArtifactType::Architecture, None, "x"),
            ".standards/docs/specs/x.md"
        );
        assert_eq!(
            record_path(
                ArtifactType::Review,
                Some(ReviewKind::FinalDeliverable),
                "x"
            ),
            ".standards/docs/reviews/x/final-deliverable.md"
        );
    }

    #[test]
    fn scan_filter_and_normalisation() {
        assert!(is_scanned(".standards/docs/scope/a.md"));
        assert!(!is_scanned(".standards/STATE.md"));
        assert!(!is_scanned(".claude/x.md"));
        assert!(is_scanned("docs/node_modules/x.md"));
        assert_eq!(normalize("./docs//a/../b.md").as_deref(), Some("docs/b.md"));
        assert_eq!(normalize("../x"), None);
    }
}
