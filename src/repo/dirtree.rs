//! A project folder read straight from the filesystem, for a project that is
//! not in a git repository (the stop hook outside git, RT §5.2 step 3).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use rustix::fs::FileType;

use super::handles::Folders;
use super::worktree::{list_folder, walk_handles};
use standards_core::model::layout::{SCAN_SKIPPED, STANDARDS_DIR};
use standards_core::model::tree::{Node, Tree};

/// The files below a project root on disk. Reads never follow a symbolic link.
pub struct DirTree {
    root: PathBuf,
    folders: Folders,
}

impl DirTree {
    /// The project whose root (the folder holding `.standards/`) is `root`.
    pub fn new(root: impl Into<PathBuf>) -> DirTree {
        let root = root.into();
        DirTree {
            folders: Folders::new(root.clone()),
            root,
        }
    }

    /// The nearest folder at or above `start` that holds a `.standards/`
    /// folder (decision D1 without a repository).
    pub fn find_root(start: &Path) -> Option<PathBuf> {
        start
            .ancestors()
            .find(|dir| {
                std::fs::symlink_metadata(dir.join(STANDARDS_DIR)).is_ok_and(|m| m.is_dir())
            })
            .map(Path::to_path_buf)
    }

    pub fn root(&self) -> &Path {
        &self.root
    }
}

/// Adds the `.md` regular files below the folder `rel` to `out`, not
/// descending into a folder with one of the skipped names at any depth nor
/// into a nested repository, and neither following nor collecting symbolic
/// links (RT §1.4 step 2).
fn walk(folders: &Folders, rel: &str, out: &mut BTreeSet<String>) {
    let Some(listed) = list_folder(folders, rel) else {
        return;
    };
    walk_handles(
        &listed,
        rel,
        0,
        &mut |dir| {
            let name = dir.rsplit('/').next().unwrap_or(dir);
            !SCAN_SKIPPED.contains(&name)
        },
        &mut |_, path, kind| {
            if kind == FileType::RegularFile && path.ends_with(".md") {
                out.insert(path.to_string());
            }
        },
    );
}

impl Tree for DirTree {
    fn describe(&self) -> String {
        "the project folder".into()
    }

    fn node(&self, path: &str) -> Node {
        self.folders.read(path)
    }

    fn prefix(&self, path: &str, limit: usize) -> Node {
        self.folders.read_prefix(path, limit)
    }

    /// The walk of RT §1.4 step 2 from the root, then the same walk of all of
    /// `.standards/` (a superset of the spec's `.standards/docs`: the scan
    /// keeps only `.standards/docs/` from it, and conflict detection reads the
    /// rest, as it does in a repository).
    fn markdown_files(&self) -> Vec<String> {
        let mut out = BTreeSet::new();
        walk(&self.folders, "", &mut out);
        if matches!(self.node(STANDARDS_DIR), Node::Dir) {
            walk(&self.folders, STANDARDS_DIR, &mut out);
        }
        out.into_iter().collect()
    }

    fn unmerged(&self) -> Vec<String> {
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(root: &Path, rel: &str, text: &str) {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    #[test]
    fn the_walk_skips_tool_folders_at_any_depth_and_symlinks() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        for rel in [
            "README.md",
            "docs/notes/a.md",
            "docs/node_modules/x.md",
            "sub/.git/y.md",
            "sub/.claude/z.md",
            ".agents/skills/s.md",
            ".standards/STATE.md",
            ".standards/docs/scope/c.md",
            ".standards/docs/.codex/hidden.md",
        ] {
            write(root, rel, "x");
        }
        write(root, "docs/notes/app.py", "x");
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(root.join("README.md"), root.join("linked.md")).unwrap();
            std::os::unix::fs::symlink(root.join("docs"), root.join("linked-docs")).unwrap();
        }
        let t = DirTree::new(root);
        assert_eq!(
            t.markdown_files(),
            [
                ".standards/STATE.md",
                ".standards/docs/scope/c.md",
                "README.md",
                "docs/notes/a.md"
            ]
        );
        assert_eq!(t.node("docs/notes"), Node::Dir);
        assert_eq!(t.node("docs/notes/a.md"), Node::File(b"x".to_vec()));
        #[cfg(unix)]
        assert_eq!(t.node("linked.md"), Node::Symlink);
        assert!(t.unmerged().is_empty());
    }

    #[test]
    fn the_root_is_the_nearest_folder_holding_standards() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("proj");
        std::fs::create_dir_all(root.join(".standards")).unwrap();
        std::fs::create_dir_all(root.join("src/deep")).unwrap();
        assert_eq!(
            DirTree::find_root(&root.join("src/deep")),
            Some(root.clone())
        );
        assert_eq!(DirTree::find_root(&root), Some(root.clone()));
        // A file named `.standards` is not a project.
        let other = tmp.path().join("other");
        write(&other, ".standards", "x");
        assert_eq!(DirTree::find_root(&other), None);
    }
}
