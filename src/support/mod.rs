//! Helpers the subcommands share, none a subcommand itself: the teardown path
//! of reset and uninstall, recording audit events, asking for confirmation, the
//! conflict guard of writing commands, how paths are shown to a person, and
//! locating an installed project.

pub mod audit;
pub mod confirm;
pub mod conflicts;
pub mod paths;
pub mod runtime;
pub mod teardown;
