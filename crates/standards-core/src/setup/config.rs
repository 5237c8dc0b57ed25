//! `.standards/config.toml`, the team's shared settings (D19), and the choice
//! of the main branch (D23). Pure: the text and the git config values come in
//! as arguments; `repo::config` reads them.

use serde::Deserialize;

pub const CONFIG_PATH: &str = ".standards/config.toml";

/// The settings a team shares. Every key is optional.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Config {
    /// The branch that must only ever hold a fresh installation (D23).
    pub main_branch: Option<String>,
    /// Glob patterns of branches guarded like the main branch.
    #[serde(default)]
    pub protected_branches: Vec<String>,
}

/// Why config.toml cannot be used: the file, the line and the key it concerns.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}:{line}: {}{message}", key.as_ref().map(|k| format!("`{k}`: ")).unwrap_or_default())]
pub struct ConfigError {
    /// The file as the user knows it (project-relative, or `git config`).
    pub path: String,
    pub line: usize,
    pub key: Option<String>,
    pub message: String,
}

/// Parses config.toml text. An unknown key, a wrong type or an invalid
/// branch name is an error naming `path`, the line and the key.
pub fn parse(text: &str, path: &str) -> Result<Config, ConfigError> {
    let config: Config = toml::from_str(text).map_err(|e| {
        let start = e.span().map(|s| s.start).unwrap_or(0);
        let line = text[..start.min(text.len())].matches('\n').count() + 1;
        let message = e.message().trim().to_string();
        let key = key_named_in(&message).or_else(|| key_on_line(text, line));
        ConfigError {
            path: path.to_string(),
            line,
            key,
            message,
        }
    })?;
    let line_of = |key: &str| {
        text.lines()
            .position(|l| l.trim_start().starts_with(key))
            .map(|i| i + 1)
            .unwrap_or(1)
    };
    let invalid = |key: &str, message: String| ConfigError {
        path: path.to_string(),
        line: line_of(key),
        key: Some(key.to_string()),
        message,
    };
    if let Some(name) = &config.main_branch {
        if let Err(why) = check_branch_name(name) {
            return Err(invalid("main-branch", why));
        }
    }
    for pattern in &config.protected_branches {
        if let Err(why) = check_branch_name(&example_of(pattern)) {
            return Err(invalid(
                "protected-branches",
                format!("the pattern `{pattern}`: {why}"),
            ));
        }
    }
    Ok(config)
}

/// The key an "unknown field `x`" message names.
fn key_named_in(message: &str) -> Option<String> {
    let rest = message.strip_prefix("unknown field `")?;
    Some(rest[..rest.find('`')?].to_string())
}

/// The key assigned on a line (`key = value`), if any.
fn key_on_line(text: &str, line: usize) -> Option<String> {
    let l = text.lines().nth(line.checked_sub(1)?)?;
    let (key, _) = l.split_once('=')?;
    let key = key.trim().trim_matches('"');
    (!key.is_empty()).then(|| key.to_string())
}

/// A short branch name as git accepts it (`git check-ref-format --branch`),
/// reduced to the rules a typo breaks.
pub fn check_branch_name(name: &str) -> Result<(), String> {
    let why = if name.is_empty() {
        "a branch name cannot be empty"
    } else if name.starts_with("refs/") {
        "name the branch without `refs/heads/` (for example `main`)"
    } else if name.starts_with('-') || name.starts_with('/') || name.ends_with('/') {
        "a branch name cannot start with `-` or `/`, or end with `/`"
    } else if name.contains("..") || name.contains("//") || name.contains("@{") {
        "a branch name cannot contain `..`, `//` or `@{`"
    } else if name.ends_with(".lock") || name.ends_with('.') {
        "a branch name cannot end with `.lock` or `.`"
    } else if name
        .chars()
        .any(|c| c.is_ascii_control() || " ~^:?*[\\".contains(c))
    {
        "a branch name cannot contain spaces, control characters or any of ~ ^ : ? * [ \\"
    } else {
        return Ok(());
    };
    Err(format!("`{name}` is not a valid branch name: {why}"))
}

/// Where the main branch's name came from (D23 order, git config first per D19).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MainBranchSource {
    GitConfig,
    ConfigFile,
    RemoteHead,
    InitDefaultBranch,
    Default,
}

impl MainBranchSource {
    pub fn describe(self) -> &'static str {
        match self {
            MainBranchSource::GitConfig => "git config `standards.mainBranch`",
            MainBranchSource::ConfigFile => "`main-branch` in .standards/config.toml",
            MainBranchSource::RemoteHead => "the remote's HEAD branch",
            MainBranchSource::InitDefaultBranch => "git config `init.defaultBranch`",
            MainBranchSource::Default => "the default `main`",
        }
    }
}

/// Everything the main-branch choice reads, already looked up.
#[derive(Debug, Clone, Default)]
pub struct BranchInputs {
    pub git_main_branch: Option<String>,
    pub file: Config,
    /// The branch a remote's HEAD points at (`origin` first).
    pub remote_head: Option<String>,
    pub init_default_branch: Option<String>,
    /// `standards.protectedBranches`: replaces the file's list when set.
    pub git_protected_branches: Option<Vec<String>>,
}

/// The main branch and the protected patterns in force.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Branches {
    pub main: String,
    pub source: MainBranchSource,
    pub protected: Vec<String>,
}

impl Branches {
    /// D23: git config overrides the file for one clone (D19), then the
    /// remote's HEAD, then `init.defaultBranch`, then `main`.
    pub fn resolve(inputs: BranchInputs) -> Branches {
        let nonempty = |s: Option<String>| s.filter(|s| !s.trim().is_empty());
        let (main, source) = if let Some(b) = nonempty(inputs.git_main_branch) {
            (b, MainBranchSource::GitConfig)
        } else if let Some(b) = nonempty(inputs.file.main_branch) {
            (b, MainBranchSource::ConfigFile)
        } else if let Some(b) = nonempty(inputs.remote_head) {
            (b, MainBranchSource::RemoteHead)
        } else if let Some(b) = nonempty(inputs.init_default_branch) {
            (b, MainBranchSource::InitDefaultBranch)
        } else {
            ("main".to_string(), MainBranchSource::Default)
        };
        Branches {
            main,
            source,
            protected: inputs
                .git_protected_branches
                .unwrap_or(inputs.file.protected_branches),
        }
    }

    /// Whether `branch` (a short name) is guarded: the main branch or a
    /// protected pattern's match.
    pub fn is_guarded(&self, branch: &str) -> bool {
        branch == self.main || self.protected.iter().any(|p| glob_match(p, branch))
    }
}

/// A branch name of the shape `pattern` stands for, to validate the
/// pattern with the branch-name rules: each `*`, `?` and `[...]` class
/// becomes `x`, and `\\c` becomes `c`. A `[` that opens no class stays, so
/// the check refuses it.
fn example_of(pattern: &str) -> String {
    let chars: Vec<char> = pattern.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '*' | '?' => out.push('x'),
            '\\' if i + 1 < chars.len() => {
                i += 1;
                out.push(chars[i]);
            }
            '[' => match class_end(&chars, i) {
                Some(end) => {
                    out.push('x');
                    i = end;
                }
                None => out.push('['),
            },
            c => out.push(c),
        }
        i += 1;
    }
    out
}

/// The index of the `]` closing the class that opens at `chars[open]`, as
/// wildmatch reads it: after an optional `!` or `^`, a first `]` is a
/// member; `[:name:]` and `\\c` are single members.
fn class_end(chars: &[char], open: usize) -> Option<usize> {
    let mut i = open + 1;
    if matches!(chars.get(i), Some('!' | '^')) {
        i += 1;
    }
    if chars.get(i) == Some(&']') {
        i += 1;
    }
    while i < chars.len() {
        match chars[i] {
            ']' => return Some(i),
            '\\' => i += 2,
            '[' if chars.get(i + 1) == Some(&':') => {
                let rest = &chars[i + 2..];
                let close = rest.windows(2).position(|w| w == [':', ']'])?;
                i += 2 + close + 2;
            }
            _ => i += 1,
        }
    }
    None
}

/// Whether the branch `name` matches the glob `pattern` with git's own
/// semantics (wildmatch, as git matches paths): `*` and `?` stay within one
/// `/`-separated part, `**` as a whole part crosses parts (`release/**`,
/// `**/hotfix`, `a/**/b` also matching `a/b`), `[...]` is a character class
/// (`[0-9]`, `[!a-z]`, `[[:digit:]]`) and `\` escapes the next character.
/// Another `**` counts as a `*`, as in `.gitignore`. git's abort rules keep
/// it fast on patterns with many stars.
pub fn glob_match(pattern: &str, name: &str) -> bool {
    gix_glob::wildmatch(
        pattern.as_bytes().into(),
        name.as_bytes().into(),
        gix_glob::wildmatch::Mode::NO_MATCH_SLASH_LITERAL,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_both_keys() {
        let c = parse(
            "main-branch = \"trunk\"\nprotected-branches = [\"release/*\"]\n",
            CONFIG_PATH,
        )
        .unwrap();
        assert_eq!(c.main_branch.as_deref(), Some("trunk"));
        assert_eq!(c.protected_branches, vec!["release/*".to_string()]);
        assert_eq!(parse("", CONFIG_PATH).unwrap(), Config::default());
    }

    #[test]
    fn unknown_key_names_file_line_and_key() {
        let e = parse(
            "# team settings\nmain-branch = \"x\"\nmainbranch = \"y\"\n",
            CONFIG_PATH,
        )
        .unwrap_err();
        assert_eq!(e.line, 3);
        assert_eq!(e.key.as_deref(), Some("mainbranch"));
        let shown = e.to_string();
        assert!(
            shown.starts_with(".standards/config.toml:3: `mainbranch`: "),
            "{shown}"
        );
    }

    #[test]
    fn wrong_type_names_file_line_and_key() {
        let e = parse("\nprotected-branches = \"release/*\"\n", CONFIG_PATH).unwrap_err();
        assert_eq!(e.line, 2);
        assert_eq!(e.key.as_deref(), Some("protected-branches"));
        let e = parse("main-branch = 3\n", CONFIG_PATH).unwrap_err();
        assert_eq!((e.line, e.key.as_deref()), (1, Some("main-branch")));
        let e = parse("main-branch = [\n", CONFIG_PATH).unwrap_err();
        assert_eq!(e.line, 1);
    }

    #[test]
    fn invalid_branch_names_are_refused() {
        let e = parse("\n\nmain-branch = \"my main\"\n", CONFIG_PATH).unwrap_err();
        assert_eq!((e.line, e.key.as_deref()), (3, Some("main-branch")));
        assert!(parse("main-branch = \"refs/heads/main\"", CONFIG_PATH).is_err());
        assert!(parse("protected-branches = [\"rel ease/*\"]", CONFIG_PATH).is_err());
        assert!(check_branch_name("release/1.x").is_ok());
    }

    #[test]
    fn git_config_overrides_the_file_then_remote_then_init_default() {
        let file = Config {
            main_branch: Some("trunk".into()),
            protected_branches: vec!["release/*".into()],
        };
        let all = BranchInputs {
            git_main_branch: Some("develop".into()),
            file: file.clone(),
            remote_head: Some("master".into()),
            init_default_branch: Some("default".into()),
            git_protected_branches: None,
        };
        let b = Branches::resolve(all.clone());
        assert_eq!(
            (b.main.as_str(), b.source),
            ("develop", MainBranchSource::GitConfig)
        );
        assert_eq!(b.protected, vec!["release/*".to_string()]);
        let b = Branches::resolve(BranchInputs {
            git_main_branch: None,
            ..all.clone()
        });
        assert_eq!(
            (b.main.as_str(), b.source),
            ("trunk", MainBranchSource::ConfigFile)
        );
        let b = Branches::resolve(BranchInputs {
            git_main_branch: None,
            file: Config::default(),
            ..all.clone()
        });
        assert_eq!(
            (b.main.as_str(), b.source),
            ("master", MainBranchSource::RemoteHead)
        );
        let b = Branches::resolve(BranchInputs {
            init_default_branch: Some("default".into()),
            ..Default::default()
        });
        assert_eq!(b.main, "default");
        let b = Branches::resolve(BranchInputs::default());
        assert_eq!(
            (b.main.as_str(), b.source),
            ("main", MainBranchSource::Default)
        );
        let b = Branches::resolve(BranchInputs {
            git_protected_branches: Some(vec![]),
            file,
            ..Default::default()
        });
        assert!(
            b.protected.is_empty(),
            "git config replaces the file's list"
        );
    }

    /// A plain backtracking matcher, as the oracle where git's semantics
    /// and the shell's agree: patterns of `*`, `?` and literals (no `**`).
    fn backtracking(p: &[u8], n: &[u8]) -> bool {
        match p {
            [] => n.is_empty(),
            [b'*', b'*', rest @ ..] => (0..=n.len()).any(|i| backtracking(rest, &n[i..])),
            [b'*', rest @ ..] => {
                let stop = n.iter().position(|&c| c == b'/').unwrap_or(n.len());
                (0..=stop).any(|i| backtracking(rest, &n[i..]))
            }
            [b'?', rest @ ..] => {
                n.first().is_some_and(|&c| c != b'/') && backtracking(rest, &n[1..])
            }
            [c, rest @ ..] => n.first() == Some(c) && backtracking(rest, &n[1..]),
        }
    }

    proptest::proptest! {
        #[test]
        fn glob_agrees_with_backtracking(p in "[ab/*?]{0,8}", n in "[ab/]{0,8}") {
            // `**` is git's (see `git_semantics`), not the oracle's.
            proptest::prop_assume!(!p.contains("**"));
            proptest::prop_assert_eq!(glob_match(&p, &n), backtracking(p.as_bytes(), n.as_bytes()));
        }
    }

    #[test]
    fn many_stars_answer_at_once() {
        let pattern = "*a".repeat(200) + "b";
        assert!(!glob_match(&pattern, &"a".repeat(400)));
        assert!(glob_match(&"**".repeat(300), &"a/".repeat(300)));
    }

    /// Cases where git's wildmatch (gitignore(5), git's t3070) differs
    /// from a shell glob or a naive `**`: branch patterns mean what they
    /// mean to git.
    #[test]
    fn git_semantics() {
        // `**` as a whole part: any number of parts, none included.
        assert!(glob_match("release/**/hotfix", "release/hotfix"));
        assert!(glob_match("release/**/hotfix", "release/1.0/x/hotfix"));
        assert!(glob_match("**/hotfix", "hotfix"));
        assert!(glob_match("**/hotfix", "team/a/hotfix"));
        assert!(!glob_match("release/**", "release"));
        // Any other `**` is a `*`: it stays within one part.
        assert!(glob_match("rel**", "release"));
        assert!(!glob_match("rel**", "release/1.0"));
        // Character classes, negated classes and POSIX classes.
        assert!(glob_match("release/[0-9]*", "release/2.1"));
        assert!(!glob_match("release/[0-9]*", "release/next"));
        assert!(glob_match("release/[!0-9]*", "release/next"));
        assert!(glob_match("v[[:digit:]]", "v7"));
        assert!(!glob_match("v[[:digit:]]", "vx"));
        assert!(!glob_match("[ab]", "/"));
        // A backslash escapes: `\*` is a literal star.
        assert!(glob_match("wip\\*", "wip*"));
        assert!(!glob_match("wip\\*", "wip-1"));
    }

    #[test]
    fn patterns_are_checked_as_the_names_they_stand_for() {
        assert_eq!(example_of("release/[0-9]*"), "release/xx");
        assert_eq!(example_of("v[[:digit:]]"), "vx");
        assert_eq!(example_of("a[]b]c"), "axc");
        assert_eq!(example_of("a[!x]"), "ax");
        assert_eq!(example_of("a\\-b"), "a-b");
        assert_eq!(example_of("a[b"), "a[b");
        let read = |text: &str| parse(text, CONFIG_PATH);
        assert!(read("protected-branches = [\"release/[0-9]*\", \"**/hotfix\"]\n").is_ok());
        let e = read("protected-branches = [\"release/[0-9\"]\n").unwrap_err();
        assert!(e.message.contains("release/[0-9"), "{}", e.message);
    }

    #[test]
    fn globs() {
        assert!(glob_match("release/*", "release/1.0"));
        assert!(!glob_match("release/*", "release/1.0/hotfix"));
        assert!(glob_match("release/**", "release/1.0/hotfix"));
        assert!(glob_match("v?", "v1"));
        assert!(!glob_match("main", "mainline"));
        let b = Branches {
            main: "main".into(),
            source: MainBranchSource::Default,
            protected: vec!["release/*".into()],
        };
        assert!(b.is_guarded("main") && b.is_guarded("release/2") && !b.is_guarded("feature"));
    }
}
