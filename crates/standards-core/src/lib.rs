//! `standards-core`: the pure core of `git-standards`, the protocol's
//! vocabularies, files and rules. Nothing here performs I/O or touches a git
//! repository; everything reads a [`model::tree::Tree`]. The folders read like
//! the protocol's table of contents: the [`model`] of STATE.md and MODE.md, the
//! cycle [`records`] and their analyses, the [`workflow`] moves and topology,
//! the [`check`] rules, skill [`invocation`], installation [`setup`] planning,
//! [`audit`] events and the embedded [`assets`].

pub mod assets;
pub mod audit;
pub mod board;
pub mod check;
#[doc(hidden)]
pub mod fuzzing;
pub mod invocation;
pub mod model;
pub mod records;
pub mod setup;
pub mod workflow;
