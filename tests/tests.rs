//! All integration tests, linked into one binary (see `Cargo.toml`).

mod common;

mod artifact;
mod audit;
mod check;
mod check_cadence;
mod check_conformance;
mod check_robustness;
mod check_scenarios_documentation;
mod check_scenarios_policy;
mod check_scenarios_state;
mod clients;
mod completions;
mod conflicts;
mod cycle;
mod demo;
mod fixture;
mod hook;
mod hooks;
mod hooks_install;
mod id;
mod install;
mod invocation;
mod lifecycle;
mod man;
mod merge_guard;
mod newcomer;
mod recover;
mod registration;
mod reset;
mod scenario_coverage;
mod status;
mod verify;
