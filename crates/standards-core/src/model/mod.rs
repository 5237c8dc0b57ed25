//! The model: the protocol's vocabularies, field syntax, the project tree the
//! core reads, where files live, and the STATE.md and MODE.md documents.

pub mod cycle_id;
pub mod fields;
pub mod layout;
pub mod mode;
pub mod state;
pub mod state_edit;
pub mod text;
pub mod tree;
pub mod vocab;
