//! Output styles: the one place that knows how text is coloured. Styles are
//! `anstyle` values, rendered only when colour is on for the stream; whether
//! it is follows `--color`, git's `color.standards`/`color.ui`, and at
//! `auto` `anstream`'s reading of the stream and the environment (a
//! terminal, `NO_COLOR`, `CLICOLOR`, `CLICOLOR_FORCE`, `TERM=dumb`).

use anstyle::{AnsiColor, Style};

use super::args::ColorChoice;

/// `error:` before a refusal's message, and the count line of a failed check.
pub const ERROR: Style = AnsiColor::Red.on_default();
/// A heading: a file name in a check report, a section of the dashboard, an
/// event's kind in the log.
pub const HEADING: Style = Style::new().bold();
/// Secondary text: an event's time and cycle in the log.
pub const DIM: Style = Style::new().dimmed();

/// The codes that open and close `style`, or two empty strings when colour
/// is off (`on` is the stream's decision, [`enabled`]).
pub fn codes(style: Style, on: bool) -> (String, String) {
    if on {
        (style.render().to_string(), style.render_reset().to_string())
    } else {
        (String::new(), String::new())
    }
}

/// `text` in `style` when colour is on, else as it is.
pub fn paint(style: Style, text: &str, on: bool) -> String {
    let (open, close) = codes(style, on);
    format!("{open}{text}{close}")
}

/// Whether a stream is coloured: `--color always`/`never` decide; at `auto`,
/// git's `color.standards` (else `color.ui`) decides as git reads it
/// (`always`; `never` or `false`; anything else is `auto`), and `auto` is
/// `terminal_auto`: what the terminal and the environment want
/// ([`auto_for`]).
pub fn enabled(choice: ColorChoice, configured: Option<&str>, terminal_auto: bool) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => match configured.map(str::to_ascii_lowercase).as_deref() {
            Some("always") => true,
            Some("never" | "false" | "no" | "off" | "0") => false,
            _ => terminal_auto,
        },
    }
}

/// `anstream`'s choice for `stream` at `auto`: colour on a terminal that
/// supports it, never with a non-empty `NO_COLOR` or `CLICOLOR=0`, always
/// with `CLICOLOR_FORCE`.
pub fn auto_for(stream: &impl anstream::stream::RawStream) -> bool {
    anstream::AutoStream::choice(stream) != anstream::ColorChoice::Never
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn styles_render_the_codes_terminals_know() {
        assert_eq!(paint(ERROR, "error:", true), "\u{1b}[31merror:\u{1b}[0m");
        assert_eq!(paint(HEADING, "a", true), "\u{1b}[1ma\u{1b}[0m");
        assert_eq!(paint(DIM, "a", true), "\u{1b}[2ma\u{1b}[0m");
        assert_eq!(paint(ERROR, "error:", false), "error:");
        assert_eq!(codes(HEADING, false), (String::new(), String::new()));
    }

    #[test]
    fn choice_config_and_terminal() {
        assert!(enabled(ColorChoice::Auto, None, true));
        assert!(!enabled(ColorChoice::Auto, None, false));
        assert!(enabled(ColorChoice::Always, None, false));
        assert!(enabled(ColorChoice::Always, Some("never"), false));
        assert!(!enabled(ColorChoice::Never, None, true));
        assert!(!enabled(ColorChoice::Never, Some("always"), true));
        assert!(enabled(ColorChoice::Auto, Some("Always"), false));
        assert!(!enabled(ColorChoice::Auto, Some("false"), true));
        assert!(enabled(ColorChoice::Auto, Some("auto"), true));
        assert!(!enabled(ColorChoice::Auto, Some("auto"), false));
    }
}
