//! `git-standards`: the git-native runtime of the S.T.A.N.D.A.R.D.S. workflow.
//!
//! Layers, one direction: [`cli`] → [`commands`] → the pure core
//! ([`standards_core`], its own crate: no I/O, no git) and [`repo`] (the only
//! door to git and the file system).

pub mod cli;
pub mod commands;
pub mod error;
pub mod hints;
pub mod repo;
pub mod support;

pub use error::{Error, Result};
