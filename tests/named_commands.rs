//! The installed protocol text names the command that records each
//! transition (whether every named command exists, with its options, is
//! `protocol_commands`' test).

#[test]
fn the_installed_text_names_every_transition_command() {
    let text = [
        include_str!("../crates/standards-core/src/assets/protocol/PROTOCOL.md"),
        include_str!("../crates/standards-core/src/assets/protocol/user-decisions.md"),
        include_str!("../crates/standards-core/src/assets/protocol/expedited.md"),
    ]
    .concat();
    for transition in [
        "start",
        "handoff",
        "fail",
        "rework",
        "resume",
        "promote",
        "policy",
        "cadence",
        "signoff",
        "cancel",
        "block",
        "unblock",
        "next-mode",
    ] {
        assert!(
            text.contains(&format!("`git standards {transition}")),
            "the installed text never names `git standards {transition}`"
        );
    }
}
