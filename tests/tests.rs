//! All integration tests, linked into one binary (see `Cargo.toml`).

mod common;

mod check;
mod check_conformance;
mod install;
mod registration;
