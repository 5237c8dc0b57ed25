//! The artifact scan: every Markdown file that opens with a provenance block
//! (RT §1.4, check-rules §1.15).

use super::layout;
use super::provenance::{self, Marking};
use super::tree::{Text, Tree};

/// A file that starts with a provenance block, valid or not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Artifact {
    pub path: String,
    pub text: String,
    pub marking: Marking,
}

/// The result of a scan: artifacts in path order, and files that could not be read.
#[derive(Debug, Clone, Default)]
pub struct Scan {
    pub artifacts: Vec<Artifact>,
    /// `(path, reason)` for candidates that exist but could not be read as text.
    pub unreadable: Vec<(String, String)>,
}

impl Scan {
    pub fn find(&self, path: &str) -> Option<&Artifact> {
        self.artifacts.iter().find(|a| a.path == path)
    }

    /// Whether a valid block anywhere names `cycle`.
    pub fn cycle_is_used(&self, cycle: &str) -> bool {
        self.artifacts
            .iter()
            .any(|a| a.marking.valid().is_some_and(|p| p.cycle == cycle))
    }
}

/// Scans the candidate Markdown files of `tree`.
pub fn scan(tree: &dyn Tree) -> Scan {
    let mut out = Scan::default();
    let mut candidates: Vec<String> = tree
        .markdown_files()
        .into_iter()
        .filter(|p| layout::is_scanned(p))
        .collect();
    candidates.sort();
    candidates.dedup();
    for path in candidates {
        match tree.text(&path) {
            Text::Ok(text) => {
                if provenance::opens_block(&text) {
                    let marking = provenance::parse(&text);
                    out.artifacts.push(Artifact {
                        path,
                        text,
                        marking,
                    });
                }
            }
            Text::Missing => {}
            Text::Unreadable(why) if why.contains("folder") => {}
            Text::Unreadable(why) => out.unreadable.push((path, why)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::tree::MemTree;

    #[test]
    fn finds_marked_files_in_docs_and_elsewhere_but_not_in_skipped_folders() {
        let block = "<!-- STANDARDS\nArtifact: SCOPE\nCycle: c-1\n-->\n";
        let t = MemTree::new()
            .with(".standards/docs/scope/c-1.md", block)
            .with("docs/scope.md", block)
            .with(".claude/skills/x.md", block)
            .with(".standards/STATE.md", block)
            .with("README.md", "# plain")
            .with("bad.md", b"<!-- STANDARDS\n\xff");
        let s = scan(&t);
        let paths: Vec<_> = s.artifacts.iter().map(|a| a.path.as_str()).collect();
        assert_eq!(paths, [".standards/docs/scope/c-1.md", "docs/scope.md"]);
        assert!(s.cycle_is_used("c-1"));
        assert!(!s.cycle_is_used("c-2"));
        assert_eq!(s.unreadable.len(), 1);
        assert_eq!(s.unreadable[0].0, "bad.md");
    }
}
