//! The files a shell command would write, read lexically (issue 26): what
//! the edit guard asks of an agent's Bash tool call (Claude Code's `Bash`,
//! Codex's shell, both with the command in `tool_input.command`).
//!
//! This is no shell: it splits the command into simple commands and
//! redirections (quotes, escapes, `;`, `&&`, `||`, `|`, `&`, newlines,
//! parentheses, here-documents) and names the write targets of the forms an
//! agent uses to rewrite a file: output redirections (`>`, `>>`, `>|`, `&>`,
//! `N>`, `<>`), `tee`, in-place editors (`sed -i`, `perl -i`, `ruby -i`,
//! `gawk -i inplace`), the destinations of `cp`, `mv`, `install`, `ln`,
//! `rsync` (and the sources `mv` removes), `dd of=`, `truncate`, `patch`,
//! `rm`, editors named with a file, `git checkout`/`git restore`/`git rm`/
//! `git mv` paths, `sh -c`/`bash -c`/`eval` strings, and inline interpreter
//! code (`python -c`, `node -e`, here-documents fed to an interpreter) that
//! both names a file and writes. It is conservative on purpose: reads
//! (`cat`, `grep`, `sed -n`, `git diff`, a copy *from* the file, a redirect
//! elsewhere) name no target, and a command it cannot follow (variables it
//! cannot expand, `cd -`) is let through: the stop hook and `check` still
//! catch a hand edit afterwards.

/// The write targets of `command`, as written (relative to the folder the
/// command starts in, or absolute); a `cd <dir>` earlier in the command is
/// applied to the relative targets after it.
pub fn targets(command: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut base: Option<String> = Some(String::new());
    for cmd in parse(command) {
        let mut found = Vec::new();
        for r in &cmd.redirects {
            found.push(r.clone());
        }
        found.extend(command_targets(&cmd));
        if let Some(dir) = cd_target(&cmd.words) {
            base = match (&base, dir) {
                (_, None) => None,
                (_, Some(d)) if d.starts_with('/') => Some(d),
                (Some(b), Some(d)) => Some(join(b, &d)),
                (None, Some(_)) => None,
            };
            continue;
        }
        for t in found {
            let t = unvariable(&t);
            if t.is_empty() || t.starts_with('&') {
                continue;
            }
            if t.starts_with('/') {
                out.push(t);
            } else if let Some(b) = &base {
                out.push(join(b, &t));
            }
        }
    }
    out
}

/// A simple command: its words (quotes removed) and its output targets;
/// `here` is the text of its here-documents.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
struct Simple {
    words: Vec<String>,
    redirects: Vec<String>,
    here: Vec<String>,
}

fn join(base: &str, rel: &str) -> String {
    let rel = rel.strip_prefix("./").unwrap_or(rel);
    if base.is_empty() {
        rel.to_string()
    } else {
        format!("{}/{rel}", base.trim_end_matches('/'))
    }
}

/// A word holding a variable or a command substitution: its literal tail
/// from `.standards/` on when it has one (`"$PWD/.standards/STATE.md"`,
/// `$(git rev-parse --show-toplevel)/.standards/STATE.md` are taken as the
/// project's, the session's folder being the project's top as the clients
/// start it), else nothing.
fn unvariable(word: &str) -> String {
    if !word.contains('$') && !word.contains('`') {
        return word.to_string();
    }
    match word.rfind(".standards/") {
        Some(at) if !word[at..].contains('$') && !word[at..].contains('`') => {
            word[at..].to_string()
        }
        _ => String::new(),
    }
}

/// `cd <dir>`: `Some(Some(dir))`; a `cd` this cannot follow (no argument,
/// `-`, `~`): `Some(None)`; not a `cd`: `None`.
fn cd_target(words: &[String]) -> Option<Option<String>> {
    let (name, args) = words.split_first()?;
    if name != "cd" && name != "pushd" {
        return None;
    }
    let args: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
    Some(match args.as_slice() {
        [dir] if !dir.starts_with('~') && !dir.contains('$') => Some(dir.to_string()),
        _ => None,
    })
}

/// Splits `text` into simple commands.
fn parse(text: &str) -> Vec<Simple> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut cur = Simple::default();
    let mut word = String::new();
    let mut in_word = false;
    // The next word is a redirection target.
    let mut redirect_next = false;
    // Here-document delimiters waiting for the end of the line.
    let mut pending_here: Vec<(String, bool)> = Vec::new();
    let mut here_next: Option<bool> = None;
    let mut i = 0;
    let finish_word = |cur: &mut Simple,
                       word: &mut String,
                       in_word: &mut bool,
                       redirect_next: &mut bool,
                       here_next: &mut Option<bool>,
                       pending: &mut Vec<(String, bool)>| {
        if !*in_word {
            return;
        }
        let w = std::mem::take(word);
        *in_word = false;
        if let Some(strip) = here_next.take() {
            pending.push((w, strip));
        } else if *redirect_next {
            *redirect_next = false;
            cur.redirects.push(w);
        } else {
            cur.words.push(w);
        }
    };
    macro_rules! end_word {
        () => {
            finish_word(
                &mut cur,
                &mut word,
                &mut in_word,
                &mut redirect_next,
                &mut here_next,
                &mut pending_here,
            )
        };
    }
    macro_rules! end_command {
        () => {{
            end_word!();
            // An empty command (`;;`, a blank line) adds nothing.
            let done = std::mem::take(&mut cur);
            if !done.words.is_empty() || !done.redirects.is_empty() {
                out.push(done);
            }
        }};
    }
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\\' => {
                if i + 1 < chars.len() {
                    if chars[i + 1] != '\n' {
                        word.push(chars[i + 1]);
                        in_word = true;
                    }
                    i += 2;
                } else {
                    i += 1;
                }
                continue;
            }
            '\'' => {
                in_word = true;
                i += 1;
                while i < chars.len() && chars[i] != '\'' {
                    word.push(chars[i]);
                    i += 1;
                }
            }
            '"' => {
                in_word = true;
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    if chars[i] == '\\'
                        && i + 1 < chars.len()
                        && matches!(chars[i + 1], '"' | '\\' | '$' | '`')
                    {
                        i += 1;
                    }
                    word.push(chars[i]);
                    i += 1;
                }
            }
            '#' if !in_word => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
                continue;
            }
            ' ' | '\t' => end_word!(),
            '\n' => {
                end_word!();
                let here = std::mem::take(&mut pending_here);
                end_command!();
                if !here.is_empty() {
                    // The here-documents' bodies follow this line.
                    let mut bodies = Vec::new();
                    let mut j = i + 1;
                    for (delim, strip) in here {
                        let mut body = String::new();
                        loop {
                            if j >= chars.len() {
                                break;
                            }
                            let end = chars[j..]
                                .iter()
                                .position(|&c| c == '\n')
                                .map_or(chars.len(), |p| j + p);
                            let line: String = chars[j..end].iter().collect();
                            j = end + 1;
                            let cmp = if strip {
                                line.trim_start_matches('\t')
                            } else {
                                &line
                            };
                            if cmp == delim {
                                break;
                            }
                            body.push_str(&line);
                            body.push('\n');
                        }
                        bodies.push(body);
                    }
                    if let Some(last) = out.last_mut() {
                        last.here.extend(bodies);
                    }
                    i = j;
                    continue;
                }
            }
            ';' | '(' | ')' | '{' | '}' if !in_word || c == ';' => end_command!(),
            '|' | '&' => {
                if c == '&' && chars.get(i + 1) == Some(&'>') {
                    // `&>` and `&>>`: both outputs to a file.
                    end_word!();
                    i += if chars.get(i + 2) == Some(&'>') { 3 } else { 2 };
                    redirect_next = true;
                    continue;
                }
                end_command!();
            }
            '>' | '<' => {
                // A word made only of digits before it is a descriptor.
                if in_word && word.chars().all(|d| d.is_ascii_digit()) {
                    word.clear();
                    in_word = false;
                } else {
                    end_word!();
                }
                if c == '<' {
                    if chars.get(i + 1) == Some(&'<') {
                        if chars.get(i + 2) == Some(&'<') {
                            // A here-string: no file.
                            i += 3;
                            continue;
                        }
                        let strip = chars.get(i + 2) == Some(&'-');
                        i += if strip { 3 } else { 2 };
                        here_next = Some(strip);
                        continue;
                    }
                    if chars.get(i + 1) == Some(&'>') {
                        i += 2;
                        redirect_next = true;
                        continue;
                    }
                    if chars.get(i + 1) == Some(&'(') {
                        // A process substitution reads.
                        i += 2;
                        continue;
                    }
                    i += 1;
                    // An input redirection: the next word is read, not written.
                    while i < chars.len() && (chars[i] == ' ' || chars[i] == '\t') {
                        i += 1;
                    }
                    while i < chars.len() && !" \t\n;|&<>()".contains(chars[i]) {
                        i += 1;
                    }
                    continue;
                }
                let mut j = i + 1;
                if matches!(chars.get(j), Some('>') | Some('|')) {
                    j += 1;
                }
                if chars.get(j) == Some(&'&') {
                    // `>&N` duplicates a descriptor; `>&file` is bash's `&>`.
                    j += 1;
                    let digits = chars[j..]
                        .iter()
                        .take_while(|c| c.is_ascii_digit() || **c == '-')
                        .count();
                    if digits > 0 {
                        i = j + digits;
                        continue;
                    }
                }
                if chars.get(j) == Some(&'(') {
                    // `>(cmd)`: a process substitution.
                    i = j + 1;
                    continue;
                }
                i = j;
                redirect_next = true;
                continue;
            }
            '$' if chars.get(i + 1) == Some(&'(') => {
                // A command substitution stays one word, parentheses balanced.
                in_word = true;
                let mut depth = 0;
                while i < chars.len() {
                    let d = chars[i];
                    word.push(d);
                    i += 1;
                    match d {
                        '(' => depth += 1,
                        ')' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                continue;
            }
            '`' => {
                in_word = true;
                word.push(c);
                i += 1;
                while i < chars.len() && chars[i] != '`' {
                    word.push(chars[i]);
                    i += 1;
                }
                word.push('`');
            }
            _ => {
                word.push(c);
                in_word = true;
            }
        }
        i += 1;
    }
    end_command!();
    out
}

/// The options of `words` removed, after `--` every word is an argument.
fn operands(words: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = false;
    for w in words {
        if rest || !w.starts_with('-') || w == "-" {
            out.push(w.clone());
        } else if w == "--" {
            rest = true;
        }
    }
    out
}

/// The wrappers that run the command after them.
fn unwrap(words: &[String]) -> &[String] {
    let mut w = words;
    loop {
        match w.first().map(String::as_str) {
            Some(first) if first.contains('=') && !first.starts_with('-') => w = &w[1..],
            Some("sudo" | "command" | "builtin" | "exec" | "nohup" | "time" | "nice") => {
                w = &w[1..];
                while w.first().is_some_and(|a| a.starts_with('-')) {
                    w = &w[1..];
                }
            }
            Some("env") => {
                w = &w[1..];
                while w
                    .first()
                    .is_some_and(|a| a.starts_with('-') || a.contains('='))
                {
                    w = &w[1..];
                }
            }
            _ => return w,
        }
    }
}

/// The basename of a program path.
fn program(word: &str) -> &str {
    word.rsplit('/').next().unwrap_or(word)
}

fn is_interpreter(name: &str) -> bool {
    name.starts_with("python")
        || matches!(
            name,
            "node" | "deno" | "bun" | "ruby" | "perl" | "php" | "lua" | "Rscript" | "osascript"
        )
}

fn is_shell(name: &str) -> bool {
    matches!(name, "sh" | "bash" | "zsh" | "dash" | "ksh" | "fish")
}

/// The targets a simple command writes through its arguments.
fn command_targets(cmd: &Simple) -> Vec<String> {
    let words = unwrap(&cmd.words);
    let Some((name, args)) = words.split_first() else {
        return Vec::new();
    };
    let name = program(name);
    let ops = || operands(args);
    let mut out = Vec::new();
    match name {
        "tee" | "truncate" | "rm" | "unlink" | "shred" | "patch" | "ed" | "ex" | "vi" | "vim"
        | "nvim" | "nano" | "emacs" | "pico" | "sponge" => {
            let skip_value = name == "truncate";
            let mut prev_size = false;
            for w in args {
                if prev_size {
                    prev_size = false;
                    continue;
                }
                if skip_value && (w == "-s" || w == "-r") {
                    prev_size = true;
                    continue;
                }
                if !w.starts_with('-') && !w.starts_with('+') {
                    out.push(w.clone());
                }
            }
        }
        "sed" | "gsed" => {
            let in_place = args.iter().any(|a| {
                a.starts_with("--in-place")
                    || (a.starts_with('-') && !a.starts_with("--") && a[1..].contains('i'))
            });
            if in_place {
                // The script is the first operand unless `-e`/`-f` gave it.
                let mut files = Vec::new();
                let mut scripted = false;
                let mut it = args.iter();
                while let Some(a) = it.next() {
                    if matches!(a.as_str(), "-e" | "-f" | "--expression" | "--file") {
                        scripted = true;
                        it.next();
                    } else if a.starts_with("--expression=") || a.starts_with("--file=") {
                        scripted = true;
                    } else {
                        files.push(a.clone());
                    }
                }
                let files = operands(&files);
                out.extend(files.into_iter().skip(usize::from(!scripted)));
            }
        }
        "perl" | "ruby" if args.iter().any(|a| is_perl_in_place(a)) => out.extend(ops()),
        "awk" | "gawk" => {
            let in_place = args
                .windows(2)
                .any(|p| (p[0] == "-i" || p[0] == "--include") && p[1] == "inplace")
                || args.iter().any(|a| a == "-iinplace");
            if in_place {
                out.extend(ops().into_iter().filter(|o| o != "inplace"));
            }
        }
        "cp" | "install" | "ln" | "rsync" | "mv" => {
            // Options whose value is the next word (`install -m 644`,
            // `cp -S .bak`, `rsync -e ssh`).
            let valued: &[&str] = match name {
                "install" => &["-m", "-o", "-g", "-S"],
                "rsync" => &["-e", "-f", "-T"],
                _ => &["-S"],
            };
            let mut target_dir = None;
            let mut plain = Vec::new();
            let mut it = args.iter();
            while let Some(a) = it.next() {
                if a == "-t" {
                    target_dir = it.next().cloned();
                } else if let Some(d) = a.strip_prefix("--target-directory=") {
                    target_dir = Some(d.to_string());
                } else if valued.contains(&a.as_str()) {
                    it.next();
                } else {
                    plain.push(a.clone());
                }
            }
            let ops = operands(&plain);
            if name == "mv" {
                // The sources go.
                let n = if target_dir.is_some() {
                    ops.len()
                } else {
                    ops.len().saturating_sub(1)
                };
                out.extend(ops.iter().take(n).cloned());
            }
            let (sources, dest) = match target_dir {
                Some(d) => (ops.clone(), Some((d, true))),
                None => match ops.split_last() {
                    Some((last, rest)) if !rest.is_empty() => {
                        let dir = rest.len() > 1
                            || last.ends_with('/')
                            || program(last.trim_end_matches('/')) == ".standards";
                        (rest.to_vec(), Some((last.clone(), dir)))
                    }
                    _ => (Vec::new(), None),
                },
            };
            if let Some((dest, dir)) = dest {
                if dir {
                    // Whether a file or a folder, the destination itself
                    // is written (`cp a b .standards/STATE.md` included).
                    out.push(dest.clone());
                    for s in sources {
                        out.push(format!(
                            "{}/{}",
                            dest.trim_end_matches('/'),
                            program(s.trim_end_matches('/'))
                        ));
                    }
                } else {
                    out.push(dest);
                }
            }
        }
        "dd" => out.extend(
            args.iter()
                .filter_map(|a| a.strip_prefix("of="))
                .map(String::from),
        ),
        "git" => out.extend(git_targets(args)),
        "eval" => out.extend(targets(&args.join(" "))),
        "xargs" => {}
        _ if is_shell(name) => {
            let mut it = args.iter();
            while let Some(a) = it.next() {
                if a.starts_with('-') && !a.starts_with("--") && a.contains('c') {
                    if let Some(script) = it.next() {
                        out.extend(targets(script));
                    }
                    break;
                }
            }
            for body in &cmd.here {
                out.extend(targets(body));
            }
        }
        _ if is_interpreter(name) => {
            let mut it = args.iter();
            while let Some(a) = it.next() {
                if matches!(a.as_str(), "-c" | "-e" | "-p" | "-E" | "-r" | "eval")
                    || (a.starts_with('-') && !a.starts_with("--") && a.ends_with('e'))
                {
                    if let Some(code) = it.next() {
                        out.extend(code_targets(code));
                    }
                }
            }
            for body in &cmd.here {
                out.extend(code_targets(body));
            }
        }
        _ => {}
    }
    out
}

/// Perl's and Ruby's `-i` (alone, with a suffix, or in a cluster: `-pi`,
/// `-i.bak`, `-pie`): an `i` among the switches before the first one that
/// takes the rest of the word (`-Mstrict`, `-e`, `-I`, ...).
fn is_perl_in_place(a: &str) -> bool {
    a.starts_with('-')
        && !a.starts_with("--")
        && a[1..]
            .chars()
            .take_while(|c| !"MmIeE0lxCdD".contains(*c))
            .any(|c| c == 'i')
}

/// The paths `git` subcommands overwrite or remove in the working tree:
/// `checkout`/`restore` (with paths), `rm`, `mv`.
fn git_targets(args: &[String]) -> Vec<String> {
    // Global options before the subcommand (`-C dir` is not followed).
    let mut i = 0;
    while i < args.len() && args[i].starts_with('-') {
        i += if matches!(args[i].as_str(), "-c" | "-C") {
            2
        } else {
            1
        };
    }
    let Some(sub) = args.get(i) else {
        return Vec::new();
    };
    let rest = &args[i + 1..];
    match sub.as_str() {
        "checkout" => match rest.iter().position(|a| a == "--") {
            Some(at) => rest[at + 1..].to_vec(),
            None => {
                // `git checkout <tree-ish> <path>...`: the paths after the first.
                let ops = operands(rest);
                if ops.len() > 1 {
                    ops[1..].to_vec()
                } else {
                    Vec::new()
                }
            }
        },
        // The index alone (`restore --staged`, `rm --cached`) leaves the file.
        "restore"
            if rest.iter().any(|a| a == "--staged" || a == "-S")
                && !rest.iter().any(|a| a == "--worktree" || a == "-W") =>
        {
            Vec::new()
        }
        "rm" if rest.iter().any(|a| a == "--cached") => Vec::new(),
        "restore" | "rm" => operands(rest),
        "mv" => {
            let ops = operands(rest);
            ops.iter()
                .take(ops.len().saturating_sub(1))
                .cloned()
                .collect()
        }
        _ => Vec::new(),
    }
}

/// Inline interpreter code that both names a file ending in `STATE.md` and
/// writes something: the named paths. Reading code (`open(p).read()`)
/// names none.
fn code_targets(code: &str) -> Vec<String> {
    const WRITES: &[&str] = &[
        "write",
        "'w'",
        "\"w\"",
        "'w+'",
        "\"w+\"",
        "'wb'",
        "\"wb\"",
        "'a'",
        "\"a\"",
        "'a+'",
        "\"a+\"",
        "'r+'",
        "\"r+\"",
        "rename",
        "os.replace",
        "shutil",
        "unlink",
        "remove",
        "truncate",
        "copyFile",
        "appendFile",
    ];
    if !code.contains("STATE.md") || !WRITES.iter().any(|w| code.contains(w)) {
        return Vec::new();
    }
    let path_char = |c: char| c.is_ascii_alphanumeric() || "._/-~".contains(c);
    let mut out = Vec::new();
    for (at, _) in code.match_indices("STATE.md") {
        let start = code[..at]
            .char_indices()
            .rev()
            .take_while(|(_, c)| path_char(*c))
            .last()
            .map_or(at, |(i, _)| i);
        out.push(code[start..at + "STATE.md".len()].to_string());
    }
    out
}

#[cfg(test)]
mod tests;
