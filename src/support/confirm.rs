//! Asking the user before a destructive or user-authority step: only on a
//! terminal (elsewhere the commands refuse and print the `--yes` form).

use std::io::{BufRead, IsTerminal, Write};

use crate::error::{Error, Result};

/// Whether a question can be asked: standard input and error are a terminal.
pub fn interactive() -> bool {
    std::io::stdin().is_terminal() && std::io::stderr().is_terminal()
}

/// Writes `question` (ending in `[y/N] `) on `err`, reads one line from
/// `answer` and says whether it was a yes.
pub fn ask(err: &mut dyn Write, answer: &mut dyn BufRead, question: &str) -> Result<bool> {
    write!(err, "{question}").map_err(|e| Error::io("<stderr>", e))?;
    err.flush().map_err(|e| Error::io("<stderr>", e))?;
    let mut line = String::new();
    answer
        .read_line(&mut line)
        .map_err(|e| Error::io("<stdin>", e))?;
    Ok(is_yes(&line))
}

fn is_yes(line: &str) -> bool {
    matches!(line.trim(), "y" | "Y" | "yes" | "YES" | "Yes")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_yes_confirms() {
        for (input, yes) in [
            ("y\n", true),
            ("Yes\n", true),
            ("\n", false),
            ("no\n", false),
            ("", false),
        ] {
            let mut err = Vec::new();
            assert_eq!(
                ask(&mut err, &mut input.as_bytes(), "Go? [y/N] ").unwrap(),
                yes,
                "{input:?}"
            );
            assert_eq!(err, b"Go? [y/N] ");
        }
    }
}
