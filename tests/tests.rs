//! All integration tests, linked into one binary (see `Cargo.toml`).

mod common;

mod install;
mod registration;
mod status;
