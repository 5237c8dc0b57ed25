//! Whether a cycle ID is already taken (RT §2.2 step 8, RF §10.4). There is no
//! registry (decision D13): an ID is taken when a record of that cycle exists.

use crate::model::layout;
use crate::model::tree::{obstacle, Node, Tree};
use crate::records::scan::Scan;

/// The first of the cycle-owned paths of `id` (RF §10.4) at which something
/// exists: any entry type counts (file, folder, symbolic link, unreadable
/// entry); the entry itself is never followed. A path below a symbolic link
/// or below a non-folder cannot exist inside the snapshot and does not count:
/// a snapshot never looks outside the repository, and `artifact init` refuses
/// to write through such a component anyway.
pub fn claiming_path(tree: &dyn Tree, id: &str) -> Option<String> {
    layout::id_claim_paths(id)
        .into_iter()
        .find(|path| obstacle(tree, path).is_none() && !matches!(tree.node(path), Node::Missing))
}

/// Whether `id` is taken: some valid provenance block in the scan names it,
/// or one of its cycle-owned paths exists.
pub fn is_taken(tree: &dyn Tree, scan: &Scan, id: &str) -> bool {
    scan.cycle_is_used(id) || claiming_path(tree, id).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::tree::MemTree;
    use crate::records::scan::scan;

    const ID: &str = "search-20260927T190146Z-7bef0f04";

    #[test]
    fn a_free_id_is_not_taken() {
        let t = MemTree::new().with(".standards/docs/scope/other.md", "x");
        assert_eq!(claiming_path(&t, ID), None);
        assert!(!is_taken(&t, &scan(&t), ID));
    }

    #[test]
    fn every_cycle_owned_path_claims_the_id_whatever_its_type() {
        for path in layout::id_claim_paths(ID) {
            let t = MemTree::new().with(&path, "not even a record");
            assert_eq!(claiming_path(&t, ID).as_deref(), Some(path.as_str()));
            let mut t = MemTree::new();
            t.insert_node(&path, Node::Symlink);
            assert_eq!(claiming_path(&t, ID).as_deref(), Some(path.as_str()));
        }
        // An (empty or not) review folder of the cycle claims it too.
        let t = MemTree::new().with(&format!(".standards/docs/reviews/{ID}/notes.txt"), "x");
        assert_eq!(
            claiming_path(&t, ID),
            Some(format!(".standards/docs/reviews/{ID}"))
        );
    }

    #[test]
    fn a_provenance_block_anywhere_claims_the_id() {
        let block = format!("<!-- STANDARDS\nArtifact: SCOPE\nCycle: {ID}\n-->\n");
        let t = MemTree::new().with("archive/old-scope.md", &block);
        assert_eq!(claiming_path(&t, ID), None);
        assert!(is_taken(&t, &scan(&t), ID));
        // A malformed block names no cycle.
        let t = MemTree::new().with(
            "archive/old-scope.md",
            format!("<!-- STANDARDS\nArtifact: PLAN\nCycle: {ID}\n-->\n"),
        );
        assert!(!is_taken(&t, &scan(&t), ID));
    }

    #[test]
    fn paths_behind_a_link_or_a_file_do_not_count() {
        let mut t = MemTree::new();
        t.insert_node(".standards/docs", Node::Symlink);
        assert_eq!(claiming_path(&t, ID), None);
        let t = MemTree::new().with(".standards/docs/verification", "a file");
        assert_eq!(claiming_path(&t, ID), None);
    }
}
