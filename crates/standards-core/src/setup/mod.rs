//! Installation planning: agent-client integration, migration from the Node
//! runtime, the team's config, fresh-installation rules and the merge guard's
//! verdict.

pub mod agent_hooks;
pub mod change;
pub mod client_plan;
pub mod clients;
pub mod config;
pub mod fresh;
pub mod install;
pub mod merge_guard;
pub mod migration;
pub mod plugins;
pub mod shell_writes;
