//! `git standards completions`: the scripts parse in their shell and complete
//! `git standards <TAB>` through the function git's completion calls.

use crate::common::Env;

fn script(shell: &str) -> String {
    let env = Env::new();
    let out = env
        .cmd(env.dir.path())
        .args(["completions", shell])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Runs `_git_standards` the way git's bash completion does, with `__gitcomp`
/// replaced by a stub that prints its candidates.
fn bash_candidates(words: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("git-standards.bash");
    std::fs::write(&path, script("bash")).unwrap();
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let program = format!(
        "source '{}'\n__gitcomp () {{ printf '%s\\n' \"$1\"; }}\nwords=({})\ncword={}\n_git_standards\n",
        path.display(),
        quoted.join(" "),
        words.len() - 1
    );
    let out = std::process::Command::new("bash")
        .args(["--norc", "-c", &program])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn bash_completes_subcommands_inside_git() {
    let top = bash_candidates(&["git", "standards", ""]);
    for sub in [
        "install",
        "check",
        "status",
        "cycle",
        "completions",
        "board",
    ] {
        assert!(
            top.split_whitespace().any(|w| w == sub),
            "{sub} missing: {top}"
        );
    }
    let cycle = bash_candidates(&["git", "standards", "cycle", ""]);
    assert!(cycle.split_whitespace().any(|w| w == "new"), "{cycle}");
    let check = bash_candidates(&["git", "-C", "x", "standards", "check", "--st"]);
    assert!(check.split_whitespace().any(|w| w == "--staged"), "{check}");
    let shells = bash_candidates(&["git", "standards", "completions", ""]);
    for shell in ["bash", "zsh", "fish"] {
        assert!(shells.split_whitespace().any(|w| w == shell), "{shells}");
    }
}

#[test]
fn bash_script_also_completes_the_binary_itself() {
    let bash = script("bash");
    assert!(
        bash.contains("complete -F") && bash.contains(" git-standards\n"),
        "{bash}"
    );
}

#[test]
fn zsh_and_fish_scripts_name_git_standards() {
    // git's zsh completion calls `_git-standards` for `git standards`.
    assert!(script("zsh").contains("_git-standards()"));
    let fish = script("fish");
    assert!(fish.contains("__fish_git_using_command standards"));
    assert!(fish.contains("complete -c git-standards"));
}

#[test]
fn manpages_install_writes_every_page_where_asked() {
    let env = Env::new();
    let dir = env.dir.path().join("share/man");
    let out = env
        .cmd(env.dir.path())
        .args(["manpages", "--install", "share/man"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("Installed"), "{stderr}");
    for (name, page) in git_standards::cli::manual::pages() {
        assert_eq!(
            crate::common::read(dir.join("man1").join(&name)),
            page,
            "{name}"
        );
    }
    let listed = env.cmd(env.dir.path()).arg("manpages").output().unwrap();
    assert!(listed.status.success());
    assert!(String::from_utf8_lossy(&listed.stdout).contains("git-standards-check.1"));
    assert!(String::from_utf8_lossy(&listed.stderr).contains("--install"));
}

/// With git's real bash completion loaded, `git standards cy<TAB>` completes
/// to `cycle` through our `_git_standards`.
#[test]
fn bash_completion_through_gits_own_script() {
    let git_completion = "/usr/share/bash-completion/completions/git";
    assert!(
        std::path::Path::new(git_completion).exists(),
        "git's bash completion is missing: install Debian's git package"
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("git-standards.bash");
    std::fs::write(&path, script("bash")).unwrap();
    let program = format!(
        "source {git_completion}\nsource '{}'\nCOMP_WORDS=(git standards cy)\nCOMP_CWORD=2\nCOMP_LINE='git standards cy'\nCOMP_POINT=${{#COMP_LINE}}\n__git_wrap__git_main\nprintf '%s\\n' \"${{COMPREPLY[@]}}\"\n",
        path.display()
    );
    let out = std::process::Command::new("bash")
        .args(["--norc", "-c", &program])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.lines().any(|l| l.trim() == "cycle"),
        "stdout: {stdout}\nstderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Runs bash `program` after sourcing the bash script, in `dir`.
fn bash_in(dir: &std::path::Path, program: &str) -> String {
    let script_path = dir.join(".git-standards.bash");
    std::fs::write(&script_path, script("bash")).unwrap();
    let env = Env::new();
    let out = env
        .sealed("bash", dir)
        .args([
            "--norc",
            "-c",
            &format!("source '{}'\n{program}", script_path.display()),
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// `git-standards handoff --to <TAB>` through the function clap_complete
/// writes: the candidates bash would offer.
fn binary_candidates(dir: &std::path::Path, words: &[&str]) -> Vec<String> {
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let program = format!(
        "COMP_WORDS=({})\nCOMP_CWORD={}\nCOMP_LINE=\"${{COMP_WORDS[*]}}\"\nCOMP_POINT=${{#COMP_LINE}}\n_git__standards git-standards '{}' '{}'\nprintf '%s\\n' \"${{COMPREPLY[@]}}\"\n",
        quoted.join(" "),
        words.len() - 1,
        words[words.len() - 1],
        words[words.len() - 2],
    );
    bash_in(dir, &program).lines().map(str::to_string).collect()
}

#[test]
fn completions_offer_states_failure_types_roles_and_refs() {
    let (env, repo) = Env::repo();
    env.git(&repo, &["commit", "-q", "--allow-empty", "-m", "one"]);
    env.git(&repo, &["branch", "feature-search"]);
    let states = binary_candidates(&repo, &["git-standards", "handoff", "--to", ""]);
    assert!(
        states.iter().any(|s| s == "REVIEWING_IMPLEMENTATION"),
        "{states:?}"
    );
    let through = binary_candidates(&repo, &["git-standards", "resume", "--rerun-through", "TE"]);
    assert_eq!(through, ["TESTING"]);
    let types = binary_candidates(&repo, &["git-standards", "fail", "--type", ""]);
    assert!(types.iter().any(|s| s == "PROJECT_CONTEXT"), "{types:?}");
    let refs = binary_candidates(&repo, &["git-standards", "status", "--ref", "feat"]);
    assert_eq!(refs, ["feature-search"]);
    let roles = binary_candidates(&repo, &["git-standards", "invocation", "rev"]);
    assert_eq!(roles, ["reviewer"]);
    let types = binary_candidates(&repo, &["git-standards", "artifact", "init", "SYN"]);
    assert_eq!(types, ["SYNCHRONIZATION"]);
    let prefixes = binary_candidates(&repo, &["git-standards", "record", "add", "f.md", "DO"]);
    assert_eq!(prefixes, ["DOC"]);

    // Inside git's own completion (`git standards ...`).
    let stub = "__gitcomp () { printf '%s\\n' \"$1\"; }\n";
    let inside = |words: &[&str]| {
        let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
        bash_in(
            &repo,
            &format!(
                "{stub}words=({})\ncword={}\n_git_standards\n",
                quoted.join(" "),
                words.len() - 1
            ),
        )
    };
    assert!(inside(&["git", "standards", "handoff", "--to", ""]).contains("AWAITING_USER_SIGNOFF"));
    assert!(inside(&["git", "standards", "fail", "--type", ""]).contains("SYNCHRONIZATION"));
    assert!(inside(&["git", "standards", "check", "--ref", ""]).contains("feature-search"));
    assert!(inside(&["git", "standards", "invocation", ""]).contains("navigator"));
}

#[test]
fn zsh_and_fish_scripts_list_the_values() {
    let zsh = script("zsh");
    assert!(zsh.contains(":STATE:(SCOPING ARCHITECTING"), "states");
    assert!(
        zsh.contains(":FailureType:(SCOPING ARCHITECTURE PROJECT_CONTEXT"),
        "types"
    );
    assert!(zsh.contains(":rev:_git_standards_refs") && zsh.contains("_git_standards_refs () {"));
    let fish = script("fish");
    assert!(fish.contains("-l to -x -a \"SCOPING ARCHITECTING"));
    assert!(fish.contains("-r -f -a \"(git for-each-ref"));
    assert!(!fish.contains("__GIT_STANDARDS_REFS__") && !zsh.contains("__GIT_STANDARDS_REFS__"));
}
