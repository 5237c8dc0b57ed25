//! Invocation discovery (RT §6): which options a role offers and which are
//! selected, saved, locked or decided by the workflow state. Read-only and
//! pure: every file comes through [`Files`], which the command implements
//! with bounded reads of the project.

pub mod metadata;
pub mod output;
pub mod resolve;

use std::collections::{HashMap, HashSet};

use metadata::{Binding, Condition, GroupSource, ReviewSource, RoleBlock, Selection};

/// The two agent clients and their skill folders (RT §6.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Client {
    Codex,
    Claude,
}

impl Client {
    pub fn as_str(self) -> &'static str {
        match self {
            Client::Codex => "codex",
            Client::Claude => "claude",
        }
    }
    /// The folder holding the client's skills, project-relative.
    pub fn skills_dir(self) -> &'static str {
        match self {
            Client::Codex => ".agents/skills",
            Client::Claude => ".claude/skills",
        }
    }
}

/// What a path is, seen without following links from the project root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DirStatus {
    Missing,
    /// Every component from the root is a real folder.
    Dir,
    /// A symbolic link or a file somewhere on the way; the message says which.
    NotDir(String),
}

/// Read access to the project, as discovery needs it. Paths are
/// project-relative with `/`.
pub trait Files {
    /// Whether `rel` is a real folder, every component checked without following links.
    fn dir(&self, rel: &str) -> DirStatus;
    /// A bounded read (RT §6.2): `rel` and its resolved path stay inside
    /// `allowed`, it is a regular file of at most 2 MiB, decoded as UTF-8,
    /// BOM stripped and CRLF normalised. `Ok(None)` when it does not exist.
    fn read(&self, rel: &str, allowed: &str) -> Result<Option<String>, String>;
    /// The names directly inside the folder `rel`, sorted by code units.
    fn children(&self, rel: &str) -> Result<Vec<String>, String>;
    /// Whether `rel` is a regular, readable file whose resolved path stays
    /// inside `allowed` (a user style may be a link that resolves inside).
    fn regular_file_inside(&self, rel: &str, allowed: &str) -> Result<(), String>;
}

/// A role's assembled catalog (RT §6.4).
#[derive(Debug, Clone)]
pub struct Catalog {
    pub block: RoleBlock,
    /// The skill folder, project-relative.
    pub skill_dir: String,
}

/// The heading anchors of a Markdown text (RT §6.4 step 3), visible headings only.
pub fn anchors(text: &str) -> Vec<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut out = Vec::new();
    for (_, visible, _) in metadata::visible_lines(text) {
        let trimmed = visible.trim_start_matches(' ');
        if visible.len() - trimmed.len() > 3 {
            continue;
        }
        let hashes = trimmed.chars().take_while(|c| *c == '#').count();
        if !(1..=6).contains(&hashes) {
            continue;
        }
        let rest = &trimmed[hashes..];
        if !(rest.is_empty() || rest.starts_with(' ') || rest.starts_with('\t')) {
            continue;
        }
        let heading = rest.trim().trim_end_matches('#').trim();
        let base: String = heading
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || *c == '_' || *c == ' ' || *c == '-')
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let n = seen.entry(base.clone()).or_insert(0);
        out.push(if *n == 0 {
            base.clone()
        } else {
            format!("{base}-{n}")
        });
        *n += 1;
    }
    out
}

fn safe_relative(path: &str) -> bool {
    !path.is_empty()
        && !path.starts_with('/')
        && !path.contains('\\')
        && path
            .split('/')
            .all(|s| !s.is_empty() && s != "." && s != "..")
}

/// Assembles the catalog of `role` from the skill folder `skill_dir`
/// (RT §6.4): all or nothing, the first problem is the error.
pub fn assemble(files: &dyn Files, skill_dir: &str, role: &str) -> Result<Catalog, String> {
    match files.dir(skill_dir) {
        DirStatus::Dir => {}
        DirStatus::Missing => return Err(format!("no installed skill was found at `{skill_dir}`")),
        DirStatus::NotDir(why) => return Err(why),
    }
    let skill_file = format!("{skill_dir}/SKILL.md");
    let text = files
        .read(&skill_file, skill_dir)?
        .ok_or_else(|| format!("`{skill_file}` is missing"))?;
    let mut block = metadata::parse_role(&text).map_err(|e| format!("{skill_file}: {e}"))?;
    if block.role != role {
        return Err(format!(
            "{skill_file}: the role block names `{}`, not `{role}`",
            block.role
        ));
    }
    let mut ids = HashSet::new();
    for g in &block.groups {
        if !ids.insert(g.id.clone()) {
            return Err(format!(
                "{skill_file}: the group `{}` is declared twice",
                g.id
            ));
        }
    }
    let modes_dir = format!("{skill_dir}/modes");
    match files.dir(&modes_dir) {
        DirStatus::Missing => {}
        DirStatus::NotDir(why) => return Err(why),
        DirStatus::Dir => {
            for name in files.children(&modes_dir)? {
                if !name.ends_with(".md") {
                    continue;
                }
                let path = format!("{modes_dir}/{name}");
                let text = files
                    .read(&path, skill_dir)?
                    .ok_or_else(|| format!("`{path}` disappeared while reading"))?;
                let mode = metadata::parse_mode(&text).map_err(|e| format!("{path}: {e}"))?;
                let Some(group) = block
                    .groups
                    .iter_mut()
                    .find(|g| g.id == mode.group && g.source == GroupSource::Modes)
                else {
                    return Err(format!(
                        "{path}: the group `{}` is not a declared modes group of {skill_file}",
                        mode.group
                    ));
                };
                let mut option = mode.option;
                option.instruction_file = Some(path);
                group.options.push(option);
            }
        }
    }
    for g in &mut block.groups {
        let at = format!("{skill_file}: group `{}`", g.id);
        if g.options.is_empty() {
            return Err(format!("{at} has no options"));
        }
        let mut seen = HashSet::new();
        for o in &g.options {
            if !seen.insert(o.id.clone()) {
                return Err(format!("{at} has the option `{}` twice", o.id));
            }
        }
        if g.source == GroupSource::Modes {
            g.options.sort_by(|a, b| a.id.cmp(&b.id));
        }
        let (path, anchor) = match g.selection_rules.split_once('#') {
            Some((p, a)) => (p.to_string(), Some(a.to_string())),
            None => (g.selection_rules.clone(), None),
        };
        if !safe_relative(&path) {
            return Err(format!(
                "{at}: selectionRules `{}` must stay inside the skill folder",
                g.selection_rules
            ));
        }
        let rules_path = format!("{skill_dir}/{path}");
        let rules = files
            .read(&rules_path, skill_dir)?
            .ok_or_else(|| format!("{at}: selectionRules file `{rules_path}` is missing"))?;
        if let Some(anchor) = anchor {
            if !anchors(&rules).contains(&anchor) {
                return Err(format!(
                    "{at}: `{rules_path}` has no heading with the anchor `#{anchor}`"
                ));
            }
        }
        g.selection_rules = format!("{skill_dir}/{}", g.selection_rules);
        let user = |id: &str| {
            g.options
                .iter()
                .any(|o| o.id == id && o.selection == Selection::User)
        };
        if let Some(d) = &g.default_for_new {
            if !user(d) {
                return Err(format!(
                    "{at}: defaultForNew `{d}` is not a user option of the group"
                ));
            }
        }
        if g.infer_from_request && g.options.iter().any(|o| o.selection != Selection::User) {
            return Err(format!(
                "{at}: inferFromRequest needs every option to be a user option"
            ));
        }
        if g.locked_when.is_some() && !g.options.iter().any(|o| o.selection == Selection::User) {
            return Err(format!("{at}: lockedWhen needs at least one user option"));
        }
        if g.saved_argument.is_some() {
            let with_argument = g.options.iter().filter(|o| o.argument.is_some()).count();
            if with_argument == 0 || (g.saved_value.is_none() && with_argument != 1) {
                return Err(format!(
                    "{at}: savedArgument needs an option with an argument (exactly one without savedValue)"
                ));
            }
        }
    }
    check_review_groups(&block, &skill_file)?;
    Ok(Catalog {
        block,
        skill_dir: skill_dir.to_string(),
    })
}

fn cond_bindings(c: &Option<Condition>) -> Vec<&Binding> {
    c.as_ref().map(|c| c.bindings()).unwrap_or_default()
}

fn all_bindings(block: &RoleBlock) -> Vec<&Binding> {
    let mut out = Vec::new();
    let cond = cond_bindings;
    for g in &block.groups {
        out.extend(g.saved_value.iter());
        out.extend(g.saved_argument.iter());
        out.extend(cond(&g.locked_when));
        for o in &g.options {
            out.extend(o.when.iter().flat_map(|(c, _)| c.bindings()));
        }
    }
    out.push(&block.user_styles.saved_value);
    out.extend(cond(&block.user_styles.locked_when));
    out
}

fn review_group(b: &Binding) -> Option<&str> {
    match b {
        Binding::Record {
            review: Some(ReviewSource::FromGroup(g)),
            ..
        } => Some(g),
        _ => None,
    }
}

/// RT §6.4 step 4: review-kind references name a state-selected review-kind
/// group, and state conditions never depend on their own selection.
fn check_review_groups(block: &RoleBlock, skill_file: &str) -> Result<(), String> {
    for b in all_bindings(block) {
        if let Some(name) = review_group(b) {
            let ok = block.groups.iter().any(|g| {
                g.id == name
                    && g.options.iter().all(|o| {
                        o.selection == Selection::State
                            && (o.id == "IMPLEMENTATION" || o.id == "FINAL_DELIVERABLE")
                    })
            });
            if !ok {
                return Err(format!(
                    "{skill_file}: reviewKindFromGroup `{name}` must name a group of state-selected IMPLEMENTATION/FINAL_DELIVERABLE options"
                ));
            }
        }
    }
    let deps = |gi: usize| -> Vec<usize> {
        block.groups[gi]
            .options
            .iter()
            .filter(|o| o.selection == Selection::State)
            .flat_map(|o| o.when.iter().flat_map(|(c, _)| c.bindings()))
            .filter_map(review_group)
            .filter_map(|name| block.groups.iter().position(|g| g.id == name))
            .collect()
    };
    // Depth-first search for a cycle among state-selection dependencies.
    fn visit(gi: usize, deps: &dyn Fn(usize) -> Vec<usize>, marks: &mut Vec<u8>) -> bool {
        match marks[gi] {
            1 => return true,
            2 => return false,
            _ => {}
        }
        marks[gi] = 1;
        for d in deps(gi) {
            if visit(d, deps, marks) {
                return true;
            }
        }
        marks[gi] = 2;
        false
    }
    let mut marks = vec![0u8; block.groups.len()];
    for gi in 0..block.groups.len() {
        if visit(gi, &deps, &mut marks) {
            return Err(format!(
                "{skill_file}: the state conditions of group `{}` form a cyclic dependency on their own selection",
                block.groups[gi].id
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchors_follow_the_slug_rules() {
        let text = "# Mode Selection\n\n## Mode selection!\n\n```\n# hidden\n```\n<!-- # hidden -->\n### A_b  c\n";
        assert_eq!(
            anchors(text),
            ["mode-selection", "mode-selection-1", "a_b--c"]
        );
    }

    #[test]
    fn relative_rules_paths() {
        assert!(safe_relative("SKILL.md"));
        assert!(safe_relative("modes/x.md"));
        for bad in ["../x.md", "/x.md", "a/../x.md", "a\\x.md", ""] {
            assert!(!safe_relative(bad), "{bad}");
        }
    }
}

/// An in-memory project for tests: files by project-relative path.
#[cfg(test)]
pub mod mem {
    use std::collections::BTreeMap;

    use super::{DirStatus, Files};

    #[derive(Default, Clone)]
    pub struct MemFiles {
        pub files: BTreeMap<String, String>,
        /// Paths that are symbolic links leading outside the project.
        pub outside_links: Vec<String>,
    }

    impl MemFiles {
        pub fn with_skills(client: super::Client) -> MemFiles {
            let mut m = MemFiles::default();
            for s in crate::assets::skills::SKILLS {
                for (p, t) in s.files {
                    m.files.insert(
                        format!("{}/{}/{p}", client.skills_dir(), s.role),
                        t.to_string(),
                    );
                }
            }
            m
        }
        pub fn put(&mut self, path: &str, text: &str) {
            self.files.insert(path.into(), text.into());
        }
    }

    impl Files for MemFiles {
        fn dir(&self, rel: &str) -> DirStatus {
            let prefix = format!("{rel}/");
            if self.outside_links.iter().any(|l| l == rel) {
                return DirStatus::NotDir(format!("`{rel}` is a symbolic link"));
            }
            if rel.is_empty() || self.files.keys().any(|k| k.starts_with(&prefix)) {
                DirStatus::Dir
            } else {
                DirStatus::Missing
            }
        }
        fn read(&self, rel: &str, _allowed: &str) -> Result<Option<String>, String> {
            if self.outside_links.iter().any(|l| l == rel) {
                return Err(format!(
                    "`{rel}` is a symlink that leads outside its permitted folder"
                ));
            }
            Ok(self.files.get(rel).cloned())
        }
        fn children(&self, rel: &str) -> Result<Vec<String>, String> {
            let prefix = format!("{rel}/");
            let mut names: Vec<String> = self
                .files
                .keys()
                .chain(self.outside_links.iter())
                .filter_map(|k| k.strip_prefix(&prefix))
                .map(|r| r.split('/').next().unwrap_or("").to_string())
                .collect();
            names.sort();
            names.dedup();
            Ok(names)
        }
        fn regular_file_inside(&self, rel: &str, _allowed: &str) -> Result<(), String> {
            if self.outside_links.iter().any(|l| l == rel) {
                return Err(format!(
                    "`{rel}` is a symlink that leads outside its permitted folder"
                ));
            }
            if self.files.contains_key(rel) {
                Ok(())
            } else {
                Err(format!("`{rel}` is not a regular file"))
            }
        }
    }
}
