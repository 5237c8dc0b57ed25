//! Repository formats gix cannot read (issue 22): a SHA-256 repository and a
//! reftable one are refused with a message that says exactly that, instead
//! of "not inside a git repository" or "the repository is damaged".

use crate::common::{stderr, stdout, write, Env};

fn repo_with(args: &[&str]) -> (Env, std::path::PathBuf) {
    let env = Env::new();
    let repo = env.dir.path().join("repo");
    let mut init = vec!["init", "-q", "-b", "main"];
    init.extend_from_slice(args);
    init.push("repo");
    env.git(env.dir.path(), &init);
    write(repo.join("app.py"), "print(\"hi\")\n");
    env.commit_all(&repo, "app");
    // git itself finds nothing wrong.
    env.git(&repo, &["fsck", "--no-progress"]);
    (env, repo)
}

#[test]
fn a_sha256_repository_is_refused_as_such() {
    let (env, repo) = repo_with(&["--object-format=sha256"]);
    for args in [&["status"][..], &["install"], &["check"], &["verify"]] {
        let a = env.run(&repo, args).code(1);
        let err = stderr(&a);
        assert!(
            err.contains("uses sha256 object IDs (`extensions.objectFormat = sha256`): git-standards works only in SHA-1 repositories so far"),
            "{args:?}: {err}"
        );
        assert!(!err.contains("not inside a git repository"), "{err}");
    }
    assert!(!repo.join(".standards").exists());
    let a = env.run(&repo, &["status", "--json"]).code(1);
    let v: serde_json::Value = serde_json::from_str(&stdout(&a)).unwrap();
    assert_eq!(v["ok"], false);
    assert!(v["error"].as_str().unwrap().contains("sha256"));
}

#[test]
fn a_reftable_repository_is_refused_with_a_way_out() {
    let (env, repo) = repo_with(&["--ref-format=reftable"]);
    for args in [&["status"][..], &["install"], &["check"]] {
        let a = env.run(&repo, args).code(1);
        let err = stderr(&a);
        assert!(
            err.contains("stores its refs as reftable (`extensions.refStorage = reftable`)"),
            "{args:?}: {err}"
        );
        assert!(!err.contains("damaged"), "{err}");
        assert!(
            err.contains("hint: work in a clone that stores its refs as files: `git clone --ref-format=files <this repository> <new folder>`"),
            "{err}"
        );
    }
    // The hint's command works, and so does git-standards in the clone.
    env.git(
        env.dir.path(),
        &["clone", "-q", "--ref-format=files", "repo", "repo-files"],
    );
    env.run(&env.dir.path().join("repo-files"), &["install"])
        .success();
}
