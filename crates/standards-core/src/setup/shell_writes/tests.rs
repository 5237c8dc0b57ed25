use super::*;

const STATE: &str = ".standards/STATE.md";

fn writes_state(command: &str) -> bool {
    targets(command).iter().any(|t| {
        let t = t.strip_prefix("./").unwrap_or(t);
        t == STATE || t.ends_with("/.standards/STATE.md")
    })
}

#[test]
fn writes_of_state_md_are_seen() {
    for command in [
        "echo x > .standards/STATE.md",
        "echo x >> .standards/STATE.md",
        "echo x >| ./.standards/STATE.md",
        "echo x 1> .standards/STATE.md",
        "echo x>.standards/STATE.md",
        "printf '%s' x &> .standards/STATE.md",
        "cat <> .standards/STATE.md",
        "echo x > \".standards/STATE.md\"",
        "echo x > '.standards/STATE.md'",
        "echo x > .standards/'STATE.md'",
        "echo x > /work/p/.standards/STATE.md",
        "echo x > \"$PWD/.standards/STATE.md\"",
        "echo x > $(git rev-parse --show-toplevel)/.standards/STATE.md",
        "cat > .standards/STATE.md <<'EOF'\n# State\n`WorkflowState`: `SIGNED_OFF`\nEOF\n",
        "cat <<EOF > .standards/STATE.md\nhi\nEOF",
        "git status && echo done > .standards/STATE.md",
        "ls; sed -i 's/DOCUMENTING/SIGNED_OFF/' .standards/STATE.md",
        "sed -i.bak -e 's/a/b/' .standards/STATE.md",
        "sed --in-place 's/a/b/' .standards/STATE.md",
        "sed -Ei 's/a/b/' .standards/STATE.md",
        "perl -pi -e 's/a/b/' .standards/STATE.md",
        "perl -i.orig -pe 's/a/b/' .standards/STATE.md",
        "gawk -i inplace '{print}' .standards/STATE.md",
        "echo x | tee .standards/STATE.md",
        "echo x | tee -a /dev/null .standards/STATE.md > /dev/null",
        "cp /tmp/new.md .standards/STATE.md",
        "cp -f /tmp/STATE.md .standards/",
        "cp /tmp/STATE.md .standards",
        "cp -t .standards /tmp/STATE.md",
        "mv /tmp/x .standards/STATE.md",
        "mv .standards/STATE.md /tmp/old",
        "install -m 644 /tmp/x .standards/STATE.md",
        "ln -sf /tmp/x .standards/STATE.md",
        "rsync -a /tmp/x .standards/STATE.md",
        "dd if=/tmp/x of=.standards/STATE.md",
        "truncate -s 0 .standards/STATE.md",
        "rm .standards/STATE.md",
        "rm -f -- .standards/STATE.md",
        "patch .standards/STATE.md < /tmp/p.diff",
        "cd .standards && echo x > STATE.md",
        "cd .standards; sed -i 's/a/b/' STATE.md",
        "cd /work/p && echo x > .standards/STATE.md",
        "sudo tee .standards/STATE.md < /tmp/x",
        "env LC_ALL=C sed -i s/a/b/ .standards/STATE.md",
        "FOO=1 tee .standards/STATE.md",
        "bash -c 'echo x > .standards/STATE.md'",
        "sh -lc \"sed -i s/a/b/ .standards/STATE.md\"",
        "eval 'echo x > .standards/STATE.md'",
        "python3 -c \"open('.standards/STATE.md','w').write('x')\"",
        "python -c 'import pathlib; pathlib.Path(\".standards/STATE.md\").write_text(\"x\")'",
        "node -e \"require('fs').writeFileSync('.standards/STATE.md', 'x')\"",
        "ruby -e 'File.write(\".standards/STATE.md\", \"x\")'",
        "python3 - <<'PY'\np = '.standards/STATE.md'\nt = open(p).read()\nopen(p, 'w').write(t.replace('A', 'B'))\nPY\n",
        "bash <<'SH'\necho x > .standards/STATE.md\nSH",
        "git checkout -- .standards/STATE.md",
        "git checkout HEAD~2 -- .standards/STATE.md",
        "git checkout HEAD~2 .standards/STATE.md",
        "git restore .standards/STATE.md",
        "git restore --source=HEAD~1 --worktree .standards/STATE.md",
        "git rm .standards/STATE.md",
        "git mv .standards/STATE.md /tmp/x",
        "{ echo a; echo b; } > .standards/STATE.md",
        "(echo a) > .standards/STATE.md",
        "echo a \\\n  > .standards/STATE.md",
        "vim .standards/STATE.md",
    ] {
        assert!(writes_state(command), "{command:?}: {:?}", targets(command));
    }
}

#[test]
fn reads_and_other_writes_pass() {
    for command in [
        "cat .standards/STATE.md",
        "cat ./.standards/STATE.md | head -20",
        "grep -n WorkflowState .standards/STATE.md",
        "grep -rn STATE.md . > /tmp/hits.txt",
        "sed -n '1,20p' .standards/STATE.md",
        "sed 's/a/b/' .standards/STATE.md > /tmp/new.md",
        "sed -e 's/i/x/' .standards/STATE.md",
        "awk '{print}' .standards/STATE.md",
        "perl -ne 'print' .standards/STATE.md",
        "perl -Mstrict -e 'print 1' .standards/STATE.md",
        "head -n 5 .standards/STATE.md; tail .standards/STATE.md",
        "wc -l .standards/STATE.md",
        "less .standards/STATE.md",
        "diff .standards/STATE.md /tmp/x",
        "cp .standards/STATE.md /tmp/state-copy.md",
        "cat .standards/STATE.md > /tmp/copy.md",
        "cat .standards/STATE.md 2>&1 >/dev/null",
        "cat .standards/STATE.md 2>/dev/null",
        "cat < .standards/STATE.md",
        "wc -l < .standards/STATE.md > /tmp/n",
        "git diff .standards/STATE.md",
        "git diff -- .standards/STATE.md > /tmp/d.patch",
        "git log -p -- .standards/STATE.md",
        "git show HEAD:.standards/STATE.md",
        "git show HEAD:.standards/STATE.md > /tmp/old.md",
        "git add .standards/STATE.md",
        "git commit -m 'handoff: echo x > .standards/STATE.md is not allowed'",
        "git commit -m \"fix\" -- .standards/STATE.md",
        "git restore --staged .standards/STATE.md",
        "git rm --cached .standards/STATE.md",
        "git checkout main",
        "git checkout -b feature",
        "git standards status",
        "git standards handoff --to REVIEWING --reason 'done > STATE.md'",
        "echo 'see .standards/STATE.md' > notes.md",
        "echo \"STATE.md > x\"",
        "# echo x > .standards/STATE.md",
        "python3 -c \"print(open('.standards/STATE.md').read())\"",
        "python3 -c \"import sys; print(open('.standards/STATE.md').read(), file=sys.stderr)\"",
        "node -e \"console.log(require('fs').readFileSync('.standards/STATE.md','utf8'))\"",
        "cat <<'EOF' > docs/notes.md\necho x > .standards/STATE.md\nEOF",
        "cargo test 2>&1 | tee /tmp/test.log",
        "echo x > .standards/docs/notes.md",
        "cp a.md .standards/docs/",
        "touch .standards/STATE.md",
        "jq . a.json > b.json",
        "echo hi >&2",
        "ls -la .standards/",
        "rm -rf target/",
        "cd - && echo x > STATE.md.bak",
        "",
    ] {
        assert!(
            !writes_state(command),
            "{command:?}: {:?}",
            targets(command)
        );
    }
}

#[test]
fn relative_targets_follow_cd_and_unknown_folders_drop_them() {
    assert_eq!(targets("cd a/b && echo > c"), ["a/b/c"]);
    assert_eq!(targets("cd /abs; echo > c"), ["/abs/c"]);
    assert_eq!(targets("echo > ./x > y"), ["x", "y"]);
    assert!(targets("cd ~ && echo > c").is_empty());
    assert!(targets("cd $X && echo > c").is_empty());
    assert_eq!(targets("cd $X && echo > /abs/c"), ["/abs/c"]);
}
