//! The read-only view of a project that the domain reads from.
//!
//! `repo` implements [`Tree`] for the working tree, the index and any commit;
//! [`MemTree`] implements it in memory so every rule is testable without I/O.
//! Paths are project-relative with `/` separators.

use std::collections::BTreeMap;

/// What sits at a path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node {
    File(Vec<u8>),
    Dir,
    Symlink,
    /// Nothing there, or a parent component is not a folder.
    Missing,
    /// Something that cannot be read (the reason, e.g. a permission error).
    Unreadable(String),
}

/// A file read as text, or why it could not be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Text {
    Ok(String),
    Missing,
    /// A folder, a symlink, non-UTF-8 bytes or an I/O error; says which.
    Unreadable(String),
}

/// The index stages of an unmerged path (git-facts §4): a missing stage means
/// an add/delete conflict (no base: both added; no ours or theirs: one deleted).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stages {
    pub base: Option<Vec<u8>>,
    /// Stage 2.
    pub ours: Option<Vec<u8>>,
    /// Stage 3.
    pub theirs: Option<Vec<u8>>,
}

pub trait Tree {
    /// Human description of the source, e.g. `the working tree`, `the index`, `commit 1a2b3c4`.
    fn describe(&self) -> String;

    /// The node at `path`.
    fn node(&self, path: &str) -> Node;

    /// At most the first `limit` bytes of the file at `path` (otherwise as
    /// [`Tree::node`]): enough to tell whether a Markdown file opens with a
    /// provenance block without reading a large file whole (issue 7, item 4).
    fn prefix(&self, path: &str, limit: usize) -> Node {
        match self.node(path) {
            Node::File(mut bytes) => {
                bytes.truncate(limit);
                Node::File(bytes)
            }
            other => other,
        }
    }

    /// Candidate Markdown files (RT §1.4): tracked plus untracked-but-not-ignored
    /// `*.md` files, sorted; for a commit, its `*.md` blobs.
    fn markdown_files(&self) -> Vec<String>;

    /// The [`Tree::markdown_files`] whose path starts with `prefix`; a
    /// snapshot may find them without listing the whole tree.
    fn markdown_files_under(&self, prefix: &str) -> Vec<String> {
        let mut files = self.markdown_files();
        files.retain(|p| p.starts_with(prefix));
        files
    }

    /// Paths under `.standards/` with unmerged index entries (stage 1–3).
    fn unmerged(&self) -> Vec<String>;

    /// The stages of an unmerged path under `.standards/`; `None` when the
    /// path is not unmerged or the snapshot has no index.
    fn stages(&self, _path: &str) -> Option<Stages> {
        None
    }

    /// An ID of the file content at `path` that two snapshots share exactly
    /// when the bytes are the same (a blob ID), when the snapshot knows one
    /// without reading the file. `None` by default: nothing is shared.
    fn content_id(&self, _path: &str) -> Option<Vec<u8>> {
        None
    }

    /// Reads `path` as UTF-8 text.
    fn text(&self, path: &str) -> Text {
        match self.node(path) {
            Node::File(bytes) => match String::from_utf8(bytes) {
                Ok(s) => Text::Ok(s),
                Err(e) => Text::Unreadable(format!(
                    "it is not valid UTF-8 (bad byte at offset {})",
                    e.utf8_error().valid_up_to()
                )),
            },
            Node::Missing => Text::Missing,
            Node::Dir => Text::Unreadable("it is a folder, not a file".into()),
            Node::Symlink => {
                Text::Unreadable("it is a symbolic link; records must be regular files".into())
            }
            Node::Unreadable(why) => Text::Unreadable(why),
        }
    }

    fn exists(&self, path: &str) -> bool {
        !matches!(self.node(path), Node::Missing)
    }

    /// What the artifact scan may know of this snapshot without listing
    /// it; `None` by default: the scan lists and judges every candidate.
    fn scan_key(&self) -> Option<ScanKey> {
        None
    }
}

/// A snapshot's identity as the artifact scan reads it (see
/// [`crate::records::scan::scan_cached`]): a history walk derives each
/// commit's scan from its parent's by judging only the paths that differ.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScanKey {
    /// Equal for two snapshots only when they hold the same Markdown files
    /// with the same contents (a digest of their paths and content IDs).
    pub id: [u8; 32],
    /// The snapshot this one was derived from (its `id`) and every path
    /// whose entry differs from it there, each with whether it is a
    /// Markdown file in this snapshot.
    pub from: Option<([u8; 32], Changed)>,
}

/// Paths whose entries differ between two snapshots, sorted, each with
/// whether it is a Markdown file in the later one.
pub type Changed = std::rc::Rc<Vec<(String, bool)>>;

/// Why a path cannot be reached through real folders of a snapshot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Obstacle {
    /// This ancestor is a symbolic link.
    Symlink(String),
    /// This ancestor exists but is not a folder (a file, or unreadable).
    NotAFolder(String),
}

impl Obstacle {
    /// The offending project-relative component.
    pub fn component(&self) -> &str {
        match self {
            Obstacle::Symlink(c) | Obstacle::NotAFolder(c) => c,
        }
    }
}

/// The outermost proper ancestor of `path` that is a symbolic link or not a
/// folder, if any. The walk stops at the first missing ancestor: everything
/// below it is simply absent (and would be created as folders).
pub fn obstacle(tree: &dyn Tree, path: &str) -> Option<Obstacle> {
    let mut end = 0;
    while let Some(slash) = path[end..].find('/') {
        let ancestor = &path[..end + slash];
        match tree.node(ancestor) {
            Node::Dir => {}
            Node::Missing => return None,
            Node::Symlink => return Some(Obstacle::Symlink(ancestor.to_string())),
            Node::File(_) | Node::Unreadable(_) => {
                return Some(Obstacle::NotAFolder(ancestor.to_string()))
            }
        }
        end += slash + 1;
    }
    None
}

/// A snapshot read as the working tree reads it: a path below a symbolic
/// link is that link, not missing. Commit and index snapshots list a
/// committed link as one entry, so without this `.standards/docs` as a link
/// gave another verdict with `--ref` than in the working tree (issue 21).
pub struct LinksRead<'a>(pub &'a dyn Tree);

impl LinksRead<'_> {
    fn linked(&self, path: &str, node: Node) -> Node {
        match node {
            Node::Missing if matches!(obstacle(self.0, path), Some(Obstacle::Symlink(_))) => {
                Node::Symlink
            }
            other => other,
        }
    }
}

impl Tree for LinksRead<'_> {
    fn describe(&self) -> String {
        self.0.describe()
    }

    fn node(&self, path: &str) -> Node {
        self.linked(path, self.0.node(path))
    }

    fn prefix(&self, path: &str, limit: usize) -> Node {
        self.linked(path, self.0.prefix(path, limit))
    }

    fn markdown_files(&self) -> Vec<String> {
        self.0.markdown_files()
    }

    fn markdown_files_under(&self, prefix: &str) -> Vec<String> {
        self.0.markdown_files_under(prefix)
    }

    fn unmerged(&self) -> Vec<String> {
        self.0.unmerged()
    }

    fn stages(&self, path: &str) -> Option<Stages> {
        self.0.stages(path)
    }

    fn content_id(&self, path: &str) -> Option<Vec<u8>> {
        self.0.content_id(path)
    }

    /// A path below a link reads as the link, but the scan's candidates are
    /// listed files, which no link hides: the same scan as the snapshot's.
    fn scan_key(&self) -> Option<ScanKey> {
        self.0.scan_key()
    }

    /// As [`LinksRead::node`] answers it, without reading the file.
    fn exists(&self, path: &str) -> bool {
        self.0.exists(path) || matches!(obstacle(self.0, path), Some(Obstacle::Symlink(_)))
    }
}

/// An in-memory tree for tests and for planning.
#[derive(Debug, Clone, Default)]
pub struct MemTree {
    nodes: BTreeMap<String, Node>,
    unmerged: Vec<String>,
    stages: BTreeMap<String, Stages>,
}

impl MemTree {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn with(mut self, path: &str, content: impl AsRef<[u8]>) -> Self {
        self.insert(path, content);
        self
    }

    pub fn insert(&mut self, path: &str, content: impl AsRef<[u8]>) {
        self.nodes
            .insert(path.to_string(), Node::File(content.as_ref().to_vec()));
    }

    pub fn insert_node(&mut self, path: &str, node: Node) {
        self.nodes.insert(path.to_string(), node);
    }

    pub fn remove(&mut self, path: &str) {
        self.nodes.remove(path);
    }

    pub fn mark_unmerged(&mut self, path: &str) {
        self.unmerged.push(path.to_string());
    }

    /// Marks `path` unmerged with these stages.
    pub fn set_stages(&mut self, path: &str, stages: Stages) {
        self.mark_unmerged(path);
        self.stages.insert(path.to_string(), stages);
    }
}

impl Tree for MemTree {
    fn describe(&self) -> String {
        "an in-memory tree".into()
    }

    fn node(&self, path: &str) -> Node {
        if let Some(node) = self.nodes.get(path) {
            return node.clone();
        }
        // A parent that is a file hides everything below it.
        let mut parent = path;
        while let Some((p, _)) = parent.rsplit_once('/') {
            if matches!(self.nodes.get(p), Some(Node::File(_)) | Some(Node::Symlink)) {
                return Node::Missing;
            }
            parent = p;
        }
        let prefix = format!("{path}/");
        if self
            .nodes
            .range(prefix.clone()..)
            .next()
            .is_some_and(|(k, _)| k.starts_with(&prefix))
        {
            Node::Dir
        } else {
            Node::Missing
        }
    }

    fn markdown_files(&self) -> Vec<String> {
        self.nodes
            .iter()
            .filter(|(k, v)| k.ends_with(".md") && matches!(v, Node::File(_) | Node::Unreadable(_)))
            .map(|(k, _)| k.clone())
            .collect()
    }

    fn unmerged(&self) -> Vec<String> {
        let mut v = self.unmerged.clone();
        v.sort();
        v.dedup();
        v
    }

    fn stages(&self, path: &str) -> Option<Stages> {
        self.stages.get(path).cloned()
    }
}

/// A tree with one file replaced: what a planned write would leave, for
/// checking a move before it is made.
pub struct WithFile<'a> {
    pub base: &'a dyn Tree,
    pub path: &'a str,
    pub content: &'a [u8],
}

impl Tree for WithFile<'_> {
    fn describe(&self) -> String {
        self.base.describe()
    }

    fn node(&self, path: &str) -> Node {
        if path == self.path {
            Node::File(self.content.to_vec())
        } else {
            self.base.node(path)
        }
    }

    fn markdown_files(&self) -> Vec<String> {
        let mut files = self.base.markdown_files();
        if self.path.ends_with(".md") && !files.iter().any(|f| f == self.path) {
            files.push(self.path.to_string());
            files.sort();
        }
        files
    }

    fn unmerged(&self) -> Vec<String> {
        self.base.unmerged()
    }

    fn content_id(&self, path: &str) -> Option<Vec<u8>> {
        if path == self.path {
            None
        } else {
            self.base.content_id(path)
        }
    }

    /// The base's scan when the replaced file is not one the scan reads
    /// (STATE.md, for a planned move); otherwise none.
    fn scan_key(&self) -> Option<ScanKey> {
        if self.path.ends_with(".md") && crate::model::layout::is_scanned(self.path) {
            return None;
        }
        self.base.scan_key()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_are_implied_by_their_files() {
        let t = MemTree::new()
            .with(".standards/docs/a.md", "x")
            .with("f", "y");
        assert_eq!(t.node(".standards/docs"), Node::Dir);
        assert_eq!(t.node(".standards/doc"), Node::Missing);
        assert_eq!(t.node("f/below"), Node::Missing);
        assert_eq!(
            t.text(".standards"),
            Text::Unreadable("it is a folder, not a file".into())
        );
        assert_eq!(t.markdown_files(), vec![".standards/docs/a.md".to_string()]);
    }

    #[test]
    fn obstacles_name_the_outermost_offending_ancestor() {
        let mut t = MemTree::new()
            .with(".standards/docs/scope/a.md", "x")
            .with(".standards/docs/verification", "a file");
        assert_eq!(obstacle(&t, ".standards/docs/scope/b.md"), None);
        assert_eq!(obstacle(&t, ".standards/docs/new/deeper/b.md"), None);
        assert_eq!(
            obstacle(&t, ".standards/docs/verification/c.md"),
            Some(Obstacle::NotAFolder(".standards/docs/verification".into()))
        );
        t.insert_node(".standards/docs/reviews", Node::Symlink);
        let found = obstacle(&t, ".standards/docs/reviews/c/implementation.md").unwrap();
        assert_eq!(found, Obstacle::Symlink(".standards/docs/reviews".into()));
        assert_eq!(found.component(), ".standards/docs/reviews");
        assert_eq!(obstacle(&t, "top.md"), None);
    }

    #[test]
    fn below_a_link_reads_as_the_link() {
        let mut t = MemTree::new();
        t.insert_node(".standards/docs", Node::Symlink);
        t.insert(".standards/STATE.md", "x");
        assert_eq!(t.node(".standards/docs/a/b.md"), Node::Missing);
        let linked = LinksRead(&t);
        assert_eq!(linked.node(".standards/docs/a/b.md"), Node::Symlink);
        assert_eq!(linked.node(".standards/none.md"), Node::Missing);
        assert!(matches!(linked.text(".standards/STATE.md"), Text::Ok(_)));
    }

    #[test]
    fn non_utf8_is_unreadable_not_a_panic() {
        let t = MemTree::new().with("x.md", b"ok\xff");
        assert!(matches!(t.text("x.md"), Text::Unreadable(why) if why.contains("UTF-8")));
    }
}
