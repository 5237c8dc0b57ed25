//! `git-standards`: the git-native runtime of the S.T.A.N.D.A.R.D.S. workflow.
//!
//! Layers, one direction: [`cli`] → [`commands`] → [`protocol`] (pure) and [`repo`] (git).

pub mod assets;
pub mod audit;
pub mod cli;
pub mod commands;
pub mod error;
pub mod protocol;
pub mod repo;

pub use error::{Error, Result};
