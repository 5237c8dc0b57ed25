//! How a path reaches a person: relative to the folder the command runs from,
//! as git prints paths (`../.standards/STATE.md` from `src/`). The one place
//! that decides it, so every command's text output agrees.
//!
//! Only text meant for a person goes through here. `--json` keeps the
//! project-relative paths (relative to the folder that holds `.standards/`,
//! which is the repository's top unless the project lives in a subfolder), so
//! a script's output does not depend on where it was started.

use std::path::{Component, Path};

use crate::repo::Project;

/// Shows project-relative paths relative to the current folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathView {
    /// `..` components from the current folder up to the common ancestor.
    up: usize,
    /// Components from that ancestor down to the project root.
    down: Vec<String>,
    /// Components of the current folder below the common ancestor (to drop
    /// from a path that leads back into it, as git does).
    here: Vec<String>,
}

impl PathView {
    /// Paths shown as they are (the project root is the current folder).
    pub fn identity() -> PathView {
        PathView {
            up: 0,
            down: Vec::new(),
            here: Vec::new(),
        }
    }

    /// The view from `cwd` onto the project whose root is `root` (both
    /// absolute; `cwd` is resolved like the project root was, so a symbolic
    /// link in the path does not make every path climb out and back in).
    pub fn new(cwd: &Path, root: &Path) -> PathView {
        let cwd = std::path::absolute(cwd).unwrap_or_else(|_| cwd.to_path_buf());
        let cwd = std::fs::canonicalize(&cwd).unwrap_or(cwd);
        Self::between(&components(&cwd), &components(root))
    }

    /// The view from `project`'s root as seen from `cwd`.
    pub fn of(cwd: &Path, project: &Project) -> PathView {
        Self::new(cwd, project.root())
    }

    fn between(cwd: &[String], root: &[String]) -> PathView {
        let common = cwd.iter().zip(root).take_while(|(a, b)| a == b).count();
        PathView {
            up: cwd.len() - common,
            down: root[common..].to_vec(),
            here: cwd[common..].to_vec(),
        }
    }

    /// A message that starts with a project file (`.standards/MODE.md:1: ...`),
    /// with that file shown from the current folder.
    pub fn show_leading(&self, message: &str) -> String {
        match message.split_once(':') {
            Some((file, rest)) if file.starts_with(".standards/") && !file.contains(' ') => {
                format!("{}:{rest}", self.show(file))
            }
            _ => message.to_string(),
        }
    }

    /// `path` (project-relative, `/`-separated) as seen from the current folder.
    pub fn show(&self, path: &str) -> String {
        if self.up == 0 && self.down.is_empty() {
            return path.to_string();
        }
        // The target from the common ancestor, then the walk to it.
        let target: Vec<&str> = self
            .down
            .iter()
            .map(String::as_str)
            .chain(path.split('/').filter(|c| !c.is_empty() && *c != "."))
            .collect();
        // A target inside the current folder loses the shared start.
        let shared = self
            .here
            .iter()
            .zip(&target)
            .take_while(|(a, b)| a.as_str() == **b)
            .count();
        let ups = self.up - shared;
        let mut parts: Vec<&str> = std::iter::repeat_n("..", ups).collect();
        parts.extend(&target[shared..]);
        if parts.is_empty() {
            return ".".to_string();
        }
        let mut shown = parts.join("/");
        if path.ends_with('/') && !shown.ends_with('/') {
            shown.push('/');
        }
        shown
    }
}

/// The git commands whose path arguments are read from the current folder.
const PATH_COMMANDS: &[&str] = &["restore", "add", "rm", "mv", "checkout", "sparse-checkout"];

impl PathView {
    /// A hint as a person can run it from the current folder: every quoted
    /// git command that takes project-relative paths (`git restore .standards/STATE.md`)
    /// gains `-C <project root>` (`git -C .. restore .standards/STATE.md`),
    /// since git reads paths from the folder it runs in. `git standards`
    /// commands find the project themselves and are left alone.
    pub fn runnable(&self, hint: &str) -> String {
        if self.up == 0 && self.down.is_empty() {
            return hint.to_string();
        }
        let top = crate::support::runtime::shell_word(&self.show(""));
        let mut out = String::with_capacity(hint.len() + 16);
        let mut rest = hint;
        while let Some(open) = rest.find('`') {
            let Some(len) = rest[open + 1..].find('`') else {
                break;
            };
            let span = &rest[open + 1..open + 1 + len];
            out.push_str(&rest[..=open]);
            let mut words = span.split_whitespace();
            let takes_paths = words.next() == Some("git")
                && words.next().is_some_and(|w| PATH_COMMANDS.contains(&w))
                && words.next().is_some();
            match span.strip_prefix("git ") {
                Some(args) if takes_paths => {
                    out.push_str("git -C ");
                    out.push_str(&top);
                    out.push(' ');
                    out.push_str(args);
                }
                _ => out.push_str(span),
            }
            out.push('`');
            rest = &rest[open + len + 2..];
        }
        out.push_str(rest);
        out
    }
}

fn components(path: &Path) -> Vec<String> {
    path.components()
        .filter_map(|c| match c {
            Component::Normal(s) => Some(s.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::PathView;

    fn view(cwd: &str, root: &str) -> PathView {
        let split = |p: &str| -> Vec<String> {
            p.split('/')
                .filter(|c| !c.is_empty())
                .map(String::from)
                .collect()
        };
        PathView::between(&split(cwd), &split(root))
    }

    #[test]
    fn hints_name_git_commands_runnable_from_here() {
        let hint = "restore it (`git restore --source=HEAD .standards/STATE.md`), then `git add` it, or run `git standards install`";
        assert_eq!(view("/r", "/r").runnable(hint), hint);
        assert_eq!(
            view("/r/src/deep", "/r").runnable(hint),
            "restore it (`git -C ../.. restore --source=HEAD .standards/STATE.md`), then `git add` it, or run `git standards install`"
        );
        assert_eq!(
            view("/r/my docs", "/r/my docs/proj").runnable("`git add .standards`"),
            "`git -C proj add .standards`"
        );
        assert_eq!(
            view("/r/a", "/r").runnable("odd `unclosed"),
            "odd `unclosed"
        );
    }

    #[test]
    fn paths_read_as_git_prints_them() {
        let at_root = view("/r", "/r");
        assert_eq!(at_root.show(".standards/STATE.md"), ".standards/STATE.md");
        let below = view("/r/src/deep", "/r");
        assert_eq!(
            below.show(".standards/STATE.md"),
            "../../.standards/STATE.md"
        );
        assert_eq!(below.show("src/deep/a.md"), "a.md");
        assert_eq!(below.show("src/b.md"), "../b.md");
        assert_eq!(below.show(".standards/docs/"), "../../.standards/docs/");
        let inside = view("/r/.standards", "/r");
        assert_eq!(inside.show(".standards/STATE.md"), "STATE.md");
        assert_eq!(inside.show(".standards"), ".");
        // A project in a subfolder, seen from the repository's top (`-C`) or beside it.
        let above = view("/r", "/r/app");
        assert_eq!(above.show(".standards/STATE.md"), "app/.standards/STATE.md");
        let beside = view("/r/web", "/r/app");
        assert_eq!(
            beside.show(".standards/MODE.md"),
            "../app/.standards/MODE.md"
        );
        assert_eq!(PathView::identity().show("x/y"), "x/y");
        assert_eq!(
            below.show_leading(".standards/MODE.md:1: bad"),
            "../../.standards/MODE.md:1: bad"
        );
        assert_eq!(below.show_leading("no file: here"), "no file: here");
    }
}
