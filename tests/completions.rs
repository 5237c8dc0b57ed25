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
    for sub in ["install", "check", "status", "cycle", "completions"] {
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
