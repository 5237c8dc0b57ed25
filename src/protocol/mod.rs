//! The pure domain: the protocol's vocabularies, files and rules. Nothing here
//! performs I/O; everything reads a [`tree::Tree`].

pub mod acceptance;
pub mod check;
pub mod closure;
pub mod conflicts;
pub mod cycle_id;
pub mod fields;
pub mod layout;
pub mod mode;
pub mod provenance;
pub mod record;
pub mod scan;
pub mod state;
pub mod text;
pub mod tree;
pub mod vocab;
