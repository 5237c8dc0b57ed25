//! All integration tests, linked into one binary (see `Cargo.toml`).

mod common;

mod demo;
mod install;
mod man;
mod registration;
mod status;
