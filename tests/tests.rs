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
mod completions;
mod conflicts;
mod crash;
mod cycle;
mod demo;
mod fixture;
mod hook;
mod hooks;
mod hostile;
mod id;
mod install;
mod lifecycle;
mod man;
mod newcomer;
mod parsers_fuzz;
mod recover;
mod registration;
mod reset;
mod scaling;
mod scenario_coverage;
mod status;
