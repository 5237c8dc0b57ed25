//! The examples of the README and the guide run (issue 15, "done means").
//!
//! Convention: every ```` ```console ```` block of `README.md` and of
//! `docs/guide.md` (where the README's long examples moved) is an example
//! that runs. Its lines starting with `$ ` are shell commands; the lines after
//! a command, up to the next one, are what it prints (stdout and stderr as a
//! terminal shows them). Each block runs in a new git repository on the
//! branch `main` (the sealed environment of `tests/common`, the binary under
//! test found by `git standards`), after the shell commands of an HTML
//! comment `<!-- readme-test: ... -->` right before the block, which sets the
//! situation up out of sight.
//!
//! Compared modulo what differs from run to run: cycle IDs, commit hashes,
//! dates and times, the repository's folder (shown as `/home/me/project`)
//! and the temporary folder (shown as `/tmp`). A line `...` stands for any
//! number of lines, `...` or `…` inside a line for any text.

use std::path::Path;

use crate::common::Env;

struct Block {
    /// The line the block starts on (1-based), for messages.
    line: usize,
    setup: Option<String>,
    /// Each command with the lines it prints.
    steps: Vec<(String, Vec<String>)>,
}

fn blocks(file: &str, readme: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let lines: Vec<&str> = readme.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        if lines[i].trim_end() != "```console" {
            i += 1;
            continue;
        }
        let line = i + 1;
        // The setup comment ends on the line before the fence.
        let setup = (i > 0 && lines[i - 1].trim_end().ends_with("-->")).then(|| {
            let mut start = i - 1;
            while !lines[start].contains("<!-- readme-test:") {
                assert!(start > 0, "{file}:{line}: a comment before a console block that is not a readme-test setup");
                start -= 1;
            }
            let text = lines[start..i].join("\n");
            text.split_once("<!-- readme-test:")
                .unwrap()
                .1
                .trim_end()
                .trim_end_matches("-->")
                .trim()
                .to_string()
        });
        let mut steps: Vec<(String, Vec<String>)> = Vec::new();
        i += 1;
        while lines[i].trim_end() != "```" {
            match lines[i].strip_prefix("$ ") {
                Some(command) => steps.push((command.to_string(), Vec::new())),
                None => steps
                    .last_mut()
                    .unwrap_or_else(|| {
                        panic!("{file}:{line}: output before the first `$ ` command")
                    })
                    .1
                    .push(lines[i].trim_end().to_string()),
            }
            i += 1;
        }
        out.push(Block { line, setup, steps });
        i += 1;
    }
    out
}

/// `word` is a cycle ID: `<slug>-<YYYYMMDDTHHMMSSZ>-<8 hex>`.
fn is_cycle_id(word: &str) -> bool {
    let b = word.as_bytes();
    if b.len() < 27 {
        return false;
    }
    let tail = &b[b.len() - 26..];
    let digits = |r: std::ops::Range<usize>| tail[r].iter().all(u8::is_ascii_digit);
    tail[0] == b'-'
        && digits(1..9)
        && tail[9] == b'T'
        && digits(10..16)
        && tail[16] == b'Z'
        && tail[17] == b'-'
        && tail[18..]
            .iter()
            .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase())
}

/// An abbreviated or full object name. One without a digit (`ecadcda`: one
/// abbreviated hash in about 900 has none) counts only at git's default
/// abbreviation or full length, so hex-letter words stay words.
fn is_hash(word: &str) -> bool {
    (7..=40).contains(&word.len())
        && word
            .bytes()
            .all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(&c))
        && (word.bytes().any(|c| c.is_ascii_digit()) || matches!(word.len(), 7 | 40))
}

fn is_date(word: &str) -> bool {
    let b = word.as_bytes();
    b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && b.iter()
            .enumerate()
            .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit())
}

/// `text` with what differs between runs replaced by placeholders.
fn normalise(text: &str, repo: &Path, tmp: &Path) -> String {
    let text = text
        .replace(&repo.display().to_string(), "/home/me/project")
        .replace(&tmp.display().to_string(), "/tmp");
    let mut out = String::new();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        if is_cycle_id(word) {
            out.push_str("<id>");
        } else if is_hash(word) {
            out.push_str("<hash>");
        } else if is_date(word) {
            out.push_str("<date>");
        } else {
            out.push_str(word);
        }
        word.clear();
    };
    for c in text.chars() {
        if c.is_ascii_alphanumeric() || c == '-' {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    // Times of day: `hh:mm:ss`.
    let chars: Vec<char> = out.chars().collect();
    let mut result = String::new();
    let mut i = 0;
    while i < chars.len() {
        let is_time = i + 8 <= chars.len()
            && chars[i..i + 8].iter().enumerate().all(|(k, c)| match k {
                2 | 5 => *c == ':',
                _ => c.is_ascii_digit(),
            });
        if is_time {
            result.push_str("<time>");
            i += 8;
        } else {
            result.push(chars[i]);
            i += 1;
        }
    }
    result
}

/// Whether `line` matches `pattern`, where `...` and `…` match any text.
fn line_matches(pattern: &str, line: &str) -> bool {
    let pattern = pattern.replace('…', "...");
    let parts: Vec<&str> = pattern.split("...").collect();
    if parts.len() == 1 {
        return pattern == line;
    }
    let Some(mut rest) = line.strip_prefix(parts[0]) else {
        return false;
    };
    for (k, part) in parts.iter().enumerate().skip(1) {
        if k == parts.len() - 1 {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

/// Whether `lines` match `expected`, where a line `...` matches any lines.
fn lines_match(expected: &[String], lines: &[&str]) -> bool {
    match expected.split_first() {
        None => lines.is_empty(),
        Some((first, rest)) if first == "..." => {
            (0..=lines.len()).any(|skip| lines_match(rest, &lines[skip..]))
        }
        Some((first, rest)) => {
            !lines.is_empty() && line_matches(first, lines[0]) && lines_match(rest, &lines[1..])
        }
    }
}

fn shell(env: &Env, dir: &Path, tmp: &Path, script: &str) -> String {
    let bin = Env::bin();
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let script = script.replace("/tmp/", &format!("{}/", tmp.display()));
    let out = env
        .sealed("sh", dir)
        .args(["-c", &format!("{script} 2>&1")])
        .env("PATH", path)
        .env("TMPDIR", tmp)
        .env("COLUMNS", "100")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("sh runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn the_readme_and_guide_console_examples_print_what_they_show() {
    let read = |file: &'static str| {
        let text =
            std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(file)).unwrap();
        blocks(file, &text)
            .into_iter()
            .map(|b| (file, b))
            .collect::<Vec<_>>()
    };
    let readme = read("README.md");
    let guide = read("docs/guide.md");
    assert!(
        !readme.is_empty(),
        "the README keeps its day-in-the-life example"
    );
    assert!(guide.len() >= 5, "the guide keeps its examples");
    let mut failures = Vec::new();
    for (file, block) in readme.iter().chain(&guide) {
        let (env, repo) = Env::repo();
        let tmp = env.dir.path().join("tmp");
        std::fs::create_dir_all(&tmp).unwrap();
        if let Some(setup) = &block.setup {
            shell(&env, &repo, &tmp, &format!("set -e\n{setup}"));
        }
        for (command, expected) in &block.steps {
            let printed = normalise(&shell(&env, &repo, &tmp, command), &repo, &tmp);
            let printed: Vec<&str> = printed.lines().map(str::trim_end).collect();
            let expected: Vec<String> = expected
                .iter()
                .map(|l| normalise(l, Path::new("/home/me/project"), Path::new("/tmp")))
                .collect();
            if !lines_match(&expected, &printed) {
                failures.push(format!(
                    "{file}:{}: `$ {command}` printed:\n{}\n--- but {file} shows:\n{}\n",
                    block.line,
                    printed.join("\n"),
                    expected.join("\n")
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_matcher_understands_the_convention() {
    let e = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(lines_match(&e(&["a", "...", "z"]), &["a", "b", "c", "z"]));
    assert!(!lines_match(&e(&["a", "z"]), &["a", "b", "z"]));
    assert!(line_matches("Next: … done", "Next: a b c done"));
    assert!(!line_matches("x...y", "x z"));
    let tmp = Path::new("/x");
    assert_eq!(
        normalise(
            "add-user-search-20260927T190146Z-7bef0f04 at 1a2b3c4 on 2026-12-01 09:26:53Z",
            tmp,
            tmp
        ),
        "<id> at <hash> on <date> <time>Z"
    );
    assert_eq!(normalise("added 7 files", tmp, tmp), "added 7 files");
    assert_eq!(normalise("at ecadcda", tmp, tmp), "at <hash>");
    assert_eq!(
        normalise("a deadbeef facade", tmp, tmp),
        "a deadbeef facade"
    );
}
