//! Helpers the commands share that are not subcommands themselves.

pub mod teardown;
