//! The workflow: its topology, who acts next, the tool-owned transitions as
//! pure moves on STATE.md, the status summary, and the merge and conflict
//! rules for `.standards/`.

pub mod conflicts;
pub mod moves;
pub mod next;
pub mod state_merge;
pub mod summary;
pub mod topology;
pub mod transition;
