//! The git settings that make the audit trail merge and follow rewrites
//! (git-facts 9.1, 10.1): written to the repository's own config file under
//! git's lock protocol (`config.lock`, then a rename), idempotently, never
//! overwriting a different value the user chose.

use crate::error::{Error, Result};

/// One setting `install` takes care of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setting {
    /// `section.subsection.name` as git spells it.
    pub key: &'static str,
    pub value: &'static str,
    pub outcome: Outcome,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Written now (or, in a dry run, would be).
    Set,
    /// Already in effect.
    AlreadySet,
    /// The user configured another value; it was kept.
    KeptOther(String),
}

impl Setting {
    pub fn assignment(&self) -> String {
        format!("{}={}", self.key, self.value)
    }
}

/// (section, subsection, name, value, multi-valued).
const WANTED: &[(&str, Option<&str>, &str, &str, bool)] = &[
    (
        "notes",
        Some("standards"),
        "mergeStrategy",
        "cat_sort_uniq",
        false,
    ),
    ("notes", None, "rewriteRef", "refs/notes/standards", true),
    ("notes", None, "rewriteMode", "cat_sort_uniq", false),
];

fn key_of(section: &str, sub: Option<&str>, name: &str) -> &'static str {
    match (section, sub, name) {
        ("notes", Some("standards"), "mergeStrategy") => "notes.standards.mergeStrategy",
        ("notes", None, "rewriteRef") => "notes.rewriteRef",
        ("notes", None, "rewriteMode") => "notes.rewriteMode",
        _ => unreachable!("only the settings in WANTED"),
    }
}

/// Whether a `notes.rewriteRef` value (a ref or a glob) covers our ref.
fn covers(pattern: &str, name: &str) -> bool {
    match pattern.strip_suffix('*') {
        Some(prefix) => name.starts_with(prefix),
        None => pattern == name,
    }
}

/// The `git config` commands that set every wanted value by hand.
pub fn commands() -> Vec<String> {
    WANTED
        .iter()
        .map(|&(section, sub, name, value, multi)| {
            let add = if multi { "--add " } else { "" };
            format!("git config {add}{} {value}", key_of(section, sub, name))
        })
        .collect()
}

/// Compares the effective configuration with the wanted settings and, unless
/// `dry_run`, writes the missing ones to the repository's config file.
pub fn configure(repo: &gix::Repository, dry_run: bool) -> Result<Vec<Setting>> {
    let snapshot = repo.config_snapshot();
    let effective = snapshot.plumbing();
    let mut settings = Vec::new();
    for &(section, sub, name, value, multi) in WANTED {
        let key = key_of(section, sub, name);
        let current: Vec<String> = effective
            .strings_by(section, sub.map(Into::into), name)
            .unwrap_or_default()
            .into_iter()
            .map(|v| v.to_string())
            .collect();
        let outcome = if multi {
            if current.iter().any(|v| covers(v, value)) {
                Outcome::AlreadySet
            } else {
                Outcome::Set
            }
        } else {
            match current.last() {
                None => Outcome::Set,
                Some(v) if v == value => Outcome::AlreadySet,
                Some(v) => Outcome::KeptOther(v.clone()),
            }
        };
        settings.push(Setting {
            key,
            value,
            outcome,
        });
    }
    let missing: Vec<_> = WANTED
        .iter()
        .zip(&settings)
        .filter(|(_, s)| s.outcome == Outcome::Set)
        .map(|(w, _)| *w)
        .collect();
    if !dry_run && !missing.is_empty() {
        write_local(repo, &missing)?;
    }
    Ok(settings)
}

/// Adds the settings to `<common dir>/config`, holding `config.lock` as git
/// does (`gix::lock`, git's own lock-file protocol: created exclusively,
/// renamed over the config on commit, removed when dropped).
fn write_local(
    repo: &gix::Repository,
    missing: &[(&str, Option<&str>, &str, &str, bool)],
) -> Result<()> {
    let path = repo.common_dir().join("config");
    let lock_path = repo.common_dir().join("config.lock");
    let lock = super::hooks::lock_config(&path, "`git standards install`")?;
    let mut file =
        gix::config::File::from_path_no_includes(path.clone(), gix::config::Source::Local)
            .map_err(|e| Error::Git(format!("cannot read `{}`: {e}", path.display())))?;
    for &(section, sub, name, value, multi) in missing {
        if multi {
            file.section_mut_or_create_new(section, sub.map(Into::into))
                .map_err(|e| Error::Git(format!("cannot edit the git configuration: {e}")))?
                .push(name, Some(gix::bstr::BStr::new(value)))
                .map_err(|e| Error::Git(format!("cannot edit the git configuration: {e}")))?;
        } else {
            file.set_raw_value_by(section, sub.map(Into::into), name, value)
                .map_err(|e| Error::Git(format!("cannot edit the git configuration: {e}")))?;
        }
    }
    let mut bytes = Vec::new();
    file.write_to(&mut bytes)
        .map_err(|e| Error::io(&lock_path, e))?;
    super::hooks::commit_config(lock, &bytes)
}

#[cfg(test)]
mod tests {
    use super::covers;

    #[test]
    fn rewrite_ref_globs_cover_our_ref() {
        assert!(covers("refs/notes/*", "refs/notes/standards"));
        assert!(covers("refs/notes/standards", "refs/notes/standards"));
        assert!(!covers("refs/notes/commits", "refs/notes/standards"));
    }
}
