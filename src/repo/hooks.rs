//! Git hook files, the merge-driver configuration and the `.gitattributes`
//! lines that `git standards hooks install` writes and `hooks uninstall`
//! removes (git-facts §12).
//!
//! A shim is ours when its second line is the marker with the SHA-256 of the
//! rest of the file: so a shim someone edited is treated as theirs, and never
//! overwritten or deleted. A hook the user already had is kept, byte for byte,
//! as `<hook>.local` and run first by the shim; uninstall moves it back.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::Project;
use crate::error::Error;

/// The hooks `hooks install` knows.
pub const HOOKS: [&str; 4] = [
    "pre-commit",
    "pre-merge-commit",
    "pre-push",
    "reference-transaction",
];

const MARKER: &str = "# git-standards-hook:";

const PRE_COMMIT: &str = include_str!("../../git-hooks/pre-commit");
const REFERENCE_TRANSACTION: &str = include_str!("../../git-hooks/reference-transaction");

/// The installed pre-merge-commit: the pre-commit checks on the merged index
/// (in a subshell, so their fast path ends only them), then the merge guard.
/// The shipped `git-hooks/pre-merge-commit` does the same by running its
/// sibling, which an installed set may not have.
const PRE_MERGE_COMMIT: &str = r#"# git-standards pre-merge-commit: the pre-commit checks on the merged index,
# then the merge guard (D23).
if ! command -v git-standards >/dev/null 2>&1; then
    echo "pre-merge-commit: git-standards is not on PATH; install it or run \`git standards hooks uninstall\`" >&2
    exit 1
fi
GIT_STANDARDS_HOOK=pre-merge-commit
export GIT_STANDARDS_HOOK
(
@PRE_COMMIT@) || exit $?
exec git-standards merge-guard --quiet
"#;

const PRE_PUSH: &str = r#"# git-standards pre-push: the verdict CI gives. Each pushed branch is
# verified from what the remote has (or from the merge-base with the main
# branch), and a push to the main branch or a protected branch must pass the
# merge guard (D23). Skip it once with `git push --no-verify`.
command -v git-standards >/dev/null 2>&1 || {
    echo "pre-push: git-standards is not on PATH; install it or run \`git standards hooks uninstall\`" >&2
    exit 1
}
status=0
while read -r local_ref local_id remote_ref remote_id; do
    case "$local_id" in *[!0]*) ;; *) continue ;; esac # a deletion
    case "$remote_ref" in refs/heads/*) ;; *) continue ;; esac
    branch=${remote_ref#refs/heads/}
    git-standards merge-guard --quiet "$local_id" --into "$branch" || status=1
    case "$remote_id" in
    *[!0]*) git cat-file -e "$remote_id^{commit}" 2>/dev/null && range="$remote_id..$local_id" || range="$local_id" ;;
    *) range="$local_id" ;;
    esac
    git-standards verify --format text "$range" >&2 || status=1
done
exit $status
"#;

/// The server hooks (`hooks install` in a bare repository): git's
/// `<old> <new> <ref>` lines (or the update hook's arguments) go to
/// `git standards hook pre-receive|update`, which refuses what the client
/// skipped (D23 and `verify` on the pushed range).
const SERVER_HOOK: &str = r#"# git-standards @NAME@: refuse pushes that bring cycle state into the main
# branch or a protected branch, or commits that fail `verify`.
command -v git-standards >/dev/null 2>&1 || {
    echo "git-standards: not on the server's PATH; install it or run \`git standards hooks uninstall\` in this repository" >&2
    exit 1
}
exec git-standards hook @NAME@ "$@"
"#;

/// Whether the hook reads its standard input (so a chained hook must get a copy).
fn reads_stdin(name: &str) -> bool {
    matches!(name, "pre-push" | "reference-transaction" | "pre-receive")
}

fn without_shebang(script: &str) -> &str {
    script.split_once('\n').map(|(_, rest)| rest).unwrap_or("")
}

/// The body the shim runs after any chained `<hook>.local`.
fn body(name: &str) -> String {
    match name {
        "pre-commit" => without_shebang(PRE_COMMIT).to_string(),
        "pre-merge-commit" => PRE_MERGE_COMMIT.replace("@PRE_COMMIT@", without_shebang(PRE_COMMIT)),
        "pre-push" => PRE_PUSH.to_string(),
        "reference-transaction" => without_shebang(REFERENCE_TRANSACTION).to_string(),
        "pre-receive" | "update" => SERVER_HOOK.replace("@NAME@", name),
        _ => String::new(),
    }
}

fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The complete shim for `name`.
pub fn shim(name: &str) -> String {
    let header = format!(
        r#"# Installed by `git standards hooks install`; `git standards hooks uninstall`
# removes it and puts back the hook that was here (kept as {name}.local,
# which runs first; its failure stops here with its exit status)."#
    );
    let local = format!(
        r#"# The hook's folder without a subshell: each fork is time added to a commit.
case $0 in */*) hook_dir=${{0%/*}} ;; *) hook_dir=. ;; esac
local_hook="$hook_dir/{name}.local""#
    );
    // reference-transaction runs for every phase of every ref update; only
    // `prepared` is ours, so the other phases end before any fork (git
    // ignores the unread input) unless a chained hook wants them. Without a
    // chained hook the input is not copied: the body reads it itself, with
    // no `$(cat)` or pipe (each a fork on every phase of every commit).
    let early = if name == "reference-transaction" {
        "\n[ \"$1\" = prepared ] || [ -x \"$local_hook\" ] || exit 0"
    } else {
        ""
    };
    let chain = if reads_stdin(name) {
        format!(
            r#"{header}
{local}{early}
standards_hook() {{
{}
}}
if [ -x "$local_hook" ]; then
    input=$(cat)
    printf '%s\n' "$input" | "$local_hook" "$@" || exit $?
    printf '%s\n' "$input" | standards_hook "$@"
    exit
fi
standards_hook "$@"
"#,
            body(name)
        )
    } else {
        format!(
            r#"{header}
{local}
if [ -x "$local_hook" ]; then
    "$local_hook" "$@" || exit $?
fi
{}"#,
            body(name)
        )
    };
    format!(
        "#!/bin/sh\n{MARKER} {name} sha256={}\n{chain}",
        sha256_hex(chain.as_bytes())
    )
}

/// What sits at a hook's path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HookFile {
    Absent,
    /// Our current shim.
    Current,
    /// Our shim from another version of the tool (safe to replace or remove).
    Outdated,
    /// Someone else's hook (or our shim edited by hand).
    Foreign,
}

/// Classifies hook file contents.
pub fn classify(name: &str, bytes: Option<&[u8]>) -> HookFile {
    let Some(bytes) = bytes else {
        return HookFile::Absent;
    };
    if bytes == shim(name).as_bytes() {
        return HookFile::Current;
    }
    let text = String::from_utf8_lossy(bytes);
    let mut lines = text.splitn(3, '\n');
    let (_, second, rest) = (lines.next(), lines.next(), lines.next().unwrap_or(""));
    let expected = format!("{MARKER} {name} sha256={}", sha256_hex(rest.as_bytes()));
    if second == Some(expected.as_str()) {
        HookFile::Outdated
    } else {
        HookFile::Foreign
    }
}

/// The folder git runs hooks from: `core.hooksPath` (relative to the working
/// tree top), else the common git directory's `hooks/` (shared by linked worktrees).
pub fn hooks_dir(project: &Project, workdir: Option<&Path>) -> Result<(PathBuf, bool), Error> {
    let repo = &project.repo;
    let configured = repo
        .config_snapshot()
        .trusted_path("core.hooksPath")
        .map_err(|e| Error::Invalid {
            path: "git config core.hooksPath".into(),
            message: e.to_string(),
        })?;
    Ok(match configured {
        Some(p) if p.is_absolute() => (p, true),
        Some(p) => (
            workdir
                .map(|w| w.join(&p))
                .unwrap_or_else(|| repo.git_dir().join(&p)),
            true,
        ),
        None => (
            std::path::absolute(repo.common_dir().join("hooks"))
                .map_err(|e| Error::io(repo.common_dir(), e))?,
            false,
        ),
    })
}

/// Another hook manager that owns the hooks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Manager {
    PreCommit,
    Lefthook,
    Husky,
}

impl Manager {
    pub fn name(self) -> &'static str {
        match self {
            Manager::PreCommit => "pre-commit",
            Manager::Lefthook => "lefthook",
            Manager::Husky => "husky",
        }
    }
}

/// The manager configured in this repository, if any: its configuration
/// file at the top of the working tree, `core.hooksPath` into `.husky`, or a
/// hook file it generated.
pub fn detect_manager(workdir: Option<&Path>, hooks_dir: &Path) -> Option<Manager> {
    let hooks_path = hooks_dir.to_string_lossy();
    if hooks_path.contains(".husky") {
        return Some(Manager::Husky);
    }
    if let Some(top) = workdir {
        if top.join(".pre-commit-config.yaml").is_file() {
            return Some(Manager::PreCommit);
        }
        for name in [
            "lefthook.yml",
            ".lefthook.yml",
            "lefthook.yaml",
            ".lefthook.yaml",
            "lefthook.toml",
            ".lefthook.toml",
            "lefthook.json",
            ".lefthook.json",
        ] {
            if top.join(name).is_file() {
                return Some(Manager::Lefthook);
            }
        }
        if top.join(".husky").is_dir() {
            return Some(Manager::Husky);
        }
    }
    for name in HOOKS {
        if let Ok(text) = std::fs::read_to_string(hooks_dir.join(name)) {
            if text.contains("pre-commit.com") || text.contains("File generated by pre-commit") {
                return Some(Manager::PreCommit);
            }
            if text.contains("lefthook") {
                return Some(Manager::Lefthook);
            }
            if text.contains("husky") {
                return Some(Manager::Husky);
            }
        }
    }
    None
}

/// The configuration to add for a manager, instead of fighting it.
pub fn snippet(manager: Manager) -> &'static str {
    match manager {
        Manager::PreCommit => {
            "# .pre-commit-config.yaml\nrepos:\n  - repo: local\n    hooks:\n      - id: git-standards\n        name: git standards check\n        entry: git-standards check --staged\n        language: system\n        pass_filenames: false\n        always_run: true\n        stages: [pre-commit, pre-merge-commit, manual]\n      - id: git-standards-merge-guard\n        name: git standards merge-guard\n        entry: git-standards merge-guard --quiet\n        language: system\n        pass_filenames: false\n        always_run: true\n        stages: [pre-merge-commit]\n      - id: git-standards-verify\n        name: git standards verify\n        entry: git-standards verify\n        language: system\n        pass_filenames: false\n        always_run: true\n        stages: [pre-push]\n# then: pre-commit install --hook-type pre-commit --hook-type pre-merge-commit --hook-type pre-push\n"
        }
        Manager::Lefthook => {
            "# lefthook.yml\npre-commit:\n  commands:\n    git-standards:\n      run: git-standards check --staged\npre-merge-commit:\n  commands:\n    git-standards-merge-guard:\n      run: git-standards merge-guard --quiet\n    git-standards:\n      run: git-standards check --staged\npre-push:\n  commands:\n    git-standards-verify:\n      run: git-standards verify\n# then: lefthook install\n"
        }
        Manager::Husky => {
            "# .husky/pre-commit\ngit-standards check --staged\n\n# .husky/pre-push\ngit-standards verify\n\n# husky has no pre-merge-commit hook: run `git standards verify --into <main branch>` in CI for merges.\n"
        }
    }
}

/// The `.gitattributes` line that hands a project's STATE.md to the driver.
pub const ATTRIBUTE_LINE: &str = ".standards/STATE.md merge=standards";
/// `merge.standards.driver`.
pub const DRIVER: &str = "git standards merge-driver %O %A %B %P";

fn config_path(repo: &gix::Repository) -> PathBuf {
    repo.common_dir().join("config")
}

fn read_config(repo: &gix::Repository) -> Result<gix::config::File, Error> {
    gix::config::File::from_path_no_includes(config_path(repo), gix::config::Source::Local).map_err(
        |e| Error::Invalid {
            path: config_path(repo).display().to_string(),
            message: e.to_string(),
        },
    )
}

fn write_config(repo: &gix::Repository, file: &gix::config::File) -> Result<(), Error> {
    let path =
        std::path::absolute(config_path(repo)).map_err(|e| Error::io(repo.common_dir(), e))?;
    let lock = lock_config(&path, "the command")?;
    let mut bytes = Vec::new();
    file.write_to(&mut bytes).map_err(|e| Error::io(&path, e))?;
    commit_config(lock, &bytes)
}

/// Takes git's `config.lock` beside the config file `config`, as `git
/// config` does (`gix::lock`: created exclusively, renamed over the config
/// by [`commit_config`], removed if dropped before), so a concurrent `git
/// config` and this write never lose each other's change. A lock another
/// process holds is a refusal; `rerun` names what to run again.
pub(super) fn lock_config(config: &Path, rerun: &str) -> Result<gix::lock::File, Error> {
    gix::lock::File::acquire_to_update_resource(
        config,
        gix::lock::acquire::Fail::Immediately,
        None,
        0,
    )
    .map_err(|e| {
        let lock = config.with_file_name("config.lock");
        if e.is_retryable() || lock.exists() {
            Error::refused(
                format!(
                    "cannot change the git configuration: `{}` exists, so another git process is changing it",
                    lock.display()
                ),
                Some(format!("wait for the other git command to finish (or remove a stale lock file), then run {rerun} again")),
            )
        } else {
            Error::io(&lock, std::io::Error::other(e.to_string()))
        }
    })
}

/// Writes `bytes` into the config lock, flushes them to disk and renames the
/// lock over the config file.
pub(super) fn commit_config(mut lock: gix::lock::File, bytes: &[u8]) -> Result<(), Error> {
    use std::io::Write as _;
    let lock_path = lock.lock_path().to_path_buf();
    lock.with_mut(|f| {
        f.write_all(bytes)?;
        f.sync_all()
    })
    .map_err(|e| Error::io(&lock_path, e))?;
    lock.commit()
        .map(|_| ())
        .map_err(|e| Error::io(&lock_path, e.error))
}

/// The driver command configured for `merge.standards`, if any.
pub fn driver_configured(project: &Project) -> Result<Option<String>, Error> {
    let file = read_config(&project.repo)?;
    Ok(file
        .raw_value("merge.standards.driver")
        .ok()
        .map(|v| v.to_string()))
}

/// Sets `merge.standards.name` and `.driver` in the repository's config.
pub fn configure_driver(project: &Project) -> Result<(), Error> {
    let repo = &project.repo;
    let mut file = read_config(repo)?;
    let set = |file: &mut gix::config::File, key: &str, value: &str| {
        file.set_raw_value_by("merge", Some("standards".into()), key, value)
            .map(|_| ())
            .map_err(|e| Error::Git(format!("cannot set merge.standards.{key}: {e}")))
    };
    set(&mut file, "name", "git standards STATE.md merge (D24)")?;
    set(&mut file, "driver", DRIVER)?;
    write_config(repo, &file)
}

/// Removes the `[merge "standards"]` section.
pub fn remove_driver(project: &Project) -> Result<bool, Error> {
    let repo = &project.repo;
    let mut file = read_config(repo)?;
    let mut removed = false;
    while file
        .remove_section("merge", Some("standards".into()))
        .is_some()
    {
        removed = true;
    }
    if removed {
        write_config(repo, &file)?;
    }
    Ok(removed)
}

/// Where, in the worktree's git directory, the pre-commit hook records the
/// `git commit` it passed, for that commit's reference-transaction hook
/// (`git-hooks/reference-transaction`, which reads it with shell builtins).
pub const PASSED_COMMIT: &str = "standards/pre-commit";

/// Records that the pre-commit hook passed in the `git commit` that runs it:
/// `<pid> <start> <HEAD id> <branch>`, the process being this one's parent
/// (the shim `exec`s the binary) and `start` its start time from
/// `/proc/<pid>/stat`, so neither a finished commit's record nor a reused
/// process ID ever matches another process. The reference-transaction hook
/// that the same process runs next then passes the commit's branch update
/// from that HEAD without a `git rev-parse`: inside `git commit` the branch
/// moves only to the new commit (a child of HEAD, or its amend).
///
/// Nothing is recorded (and an older record is removed) when HEAD is not on
/// a branch with a commit, the parent is not `git`, or its start time cannot
/// be read (no `/proc`): the hook then decides as before. A failure to write
/// costs only that fast path, so it is not an error.
pub fn record_passed_commit(project: &Project) {
    let path = project.git_dir().join(PASSED_COMMIT);
    // Removed first and created anew, never renamed over nor truncated:
    // ext4 flushes a file that replaces another that way (`auto_da_alloc`),
    // which cost each commit more than the rest of the record.
    let _ = std::fs::remove_file(&path);
    let Some(line) = passed_commit_line(project) else {
        return;
    };
    let write = || -> std::io::Result<()> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)?;
        std::io::Write::write_all(&mut file, line.as_bytes())
    };
    if write().is_err() {
        let _ = std::fs::remove_file(&path);
    }
}

/// Removes this worktree's [`record_passed_commit`] record (`hooks
/// uninstall`); a record left in another worktree names a finished process
/// and so matches nothing.
pub fn forget_passed_commit(project: &Project) {
    let _ = std::fs::remove_file(project.git_dir().join(PASSED_COMMIT));
}

/// The line [`record_passed_commit`] writes: only when this process's
/// parent is `git` itself (a script that ran the hook by hand and then
/// `exec`s another command keeps its process ID, but is no `git commit`),
/// its start time is known, and HEAD is on a branch with a commit.
fn passed_commit_line(project: &Project) -> Option<String> {
    let ppid = std::os::unix::process::parent_id();
    let (command, start) = process_name_and_start(ppid)?;
    if command != "git" {
        return None;
    }
    let head = project.repo.head().ok()?;
    let branch = head
        .referent_name()?
        .as_bstr()
        .to_string()
        .strip_prefix("refs/heads/")?
        .to_string();
    let id = head.id()?;
    // Branch names hold no whitespace (git check-ref-format), so the hook's
    // `read` splits the line back into exactly these four fields.
    if branch.is_empty() || branch.contains(char::is_whitespace) {
        return None;
    }
    Some(format!("{ppid} {start} {id} {branch}\n"))
}

/// The command name (field 2) and start time (field 22, clock ticks since
/// boot) of `/proc/<pid>/stat`, the start time read as the hook reads it:
/// the 20th field after the name's closing `) `.
fn process_name_and_start(pid: u32) -> Option<(String, String)> {
    parse_stat(&std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?)
}

fn parse_stat(stat: &str) -> Option<(String, String)> {
    let (head, rest) = stat.rsplit_once(") ")?;
    let (_, name) = head.split_once(" (")?;
    let start = rest.split_whitespace().nth(19)?;
    (!start.is_empty() && start.bytes().all(|b| b.is_ascii_digit()))
        .then(|| (name.to_string(), start.to_string()))
}

/// Writes a hook file with the executable bits.
pub fn write_hook(dir: &Path, name: &str, text: &str) -> Result<(), Error> {
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    super::write::atomic_write(dir, name, text.as_bytes(), super::write::Existing::Replace)?;
    set_executable(&dir.join(name))
}

#[cfg(unix)]
fn set_executable(path: &Path) -> Result<(), Error> {
    use std::os::unix::fs::PermissionsExt;
    let mut perms = std::fs::metadata(path)
        .map_err(|e| Error::io(path, e))?
        .permissions();
    perms.set_mode(perms.mode() | 0o111);
    std::fs::set_permissions(path, perms).map_err(|e| Error::io(path, e))
}

#[cfg(not(unix))]
fn set_executable(_: &Path) -> Result<(), Error> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_time_is_the_twentieth_field_after_the_name() {
        // A command name may hold spaces and `) `: the last `) ` ends it.
        let line =
            "4242 (git) x) (y) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 987654 20 21\n";
        assert_eq!(
            parse_stat(line),
            Some(("git) x) (y".to_string(), "987654".to_string()))
        );
        assert_eq!(parse_stat("4242 (git) S 1 2"), None);
        assert_eq!(parse_stat(""), None);
        // This process, as the hook reads its parent.
        let (_, start) = process_name_and_start(std::process::id()).unwrap();
        assert!(start.parse::<u64>().is_ok(), "{start}");
    }

    #[test]
    fn shims_are_recognised_by_their_fingerprint() {
        for name in HOOKS {
            let s = shim(name);
            assert!(s.starts_with("#!/bin/sh\n# git-standards-hook: "));
            assert_eq!(classify(name, Some(s.as_bytes())), HookFile::Current);
            assert_eq!(classify(name, None), HookFile::Absent);
            // Edited by hand: someone else's now.
            let edited = s.replace("exit $?", "true");
            assert_eq!(classify(name, Some(edited.as_bytes())), HookFile::Foreign);
            assert_eq!(
                classify(name, Some(b"#!/bin/sh\necho mine\n")),
                HookFile::Foreign
            );
        }
        // An older shim with a valid fingerprint is ours.
        let body = "echo old\n";
        let old = format!(
            "#!/bin/sh\n{MARKER} pre-commit sha256={}\n{body}",
            sha256_hex(body.as_bytes())
        );
        assert_eq!(
            classify("pre-commit", Some(old.as_bytes())),
            HookFile::Outdated
        );
    }
}
