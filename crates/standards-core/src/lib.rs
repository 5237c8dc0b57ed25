//! The pure domain: the protocol's vocabularies, files and rules. Nothing here
//! performs I/O; everything reads a [`tree::Tree`].

pub mod acceptance;
pub mod assignments;
pub mod check;
pub mod claims;
pub mod clients;
pub mod closure;
pub mod config;
pub mod conflicts;
pub mod cycle_id;
pub mod fields;
pub mod fresh;
#[doc(hidden)]
pub mod fuzzing;
pub mod invocation;
pub mod layout;
pub mod merge_guard;
pub mod migration;
pub mod mode;
pub mod next;
pub mod numbering;
pub mod plan;
pub mod provenance;
pub mod record;
pub mod references;
pub mod renames;
pub mod scan;
pub mod state;
pub mod state_merge;
pub mod summary;
pub mod text;
pub mod topology;
pub mod transition;
pub mod tree;
pub mod verdicts;
pub mod verification;
pub mod vocab;
