//! The commands the embedded skills name exist in the CLI: every
//! `git standards ...` code span in a skill's files names a subcommand, and
//! every `--option` it gives is one that subcommand accepts.

use standards_core::assets::skills::SKILLS;

/// The code spans (text between backticks) of `text`, line by line.
fn code_spans(text: &str) -> Vec<String> {
    text.lines()
        .flat_map(|line| line.split('`').skip(1).step_by(2))
        .map(str::to_string)
        .collect()
}

#[test]
fn every_command_a_skill_names_is_accepted_by_the_cli() {
    let cli = super::expanded_command();
    let mut checked = 0;
    for s in SKILLS {
        for (path, text) in s.files {
            for span in code_spans(text) {
                let Some(rest) = span.strip_prefix("git standards ") else {
                    continue;
                };
                let words: Vec<&str> = rest.split_whitespace().collect();
                let mut cmd = &cli;
                let mut i = 0;
                while let Some(sub) = words.get(i).and_then(|w| cmd.find_subcommand(w)) {
                    cmd = sub;
                    i += 1;
                }
                assert!(
                    i > 0,
                    "{}/{path}: `git standards {rest}` names no command",
                    s.role
                );
                for flag in words.iter().filter_map(|w| w.strip_prefix("--")) {
                    let flag = flag.split('=').next().unwrap();
                    assert!(
                        cmd.get_arguments().any(|a| a.get_long() == Some(flag)),
                        "{}/{path}: `git standards {rest}`: no option --{flag}",
                        s.role
                    );
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 100, "only {checked} commands checked");
}
