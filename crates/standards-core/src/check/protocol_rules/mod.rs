//! PR: rules the protocol states but the reference checker never enforced.
//!
//! The reference catalogue (check-rules.md) is where the Node checker stopped;
//! these rules come from reading PROTOCOL.md and its chapters section by
//! section for every rule that one snapshot plus the last commit decides.
//! Their IDs live in their own family so `check --compat` can leave them out
//! and a team moving from the Node runtime sees exactly what is new.
//!
//! [`CATALOGUE`] is the source of `docs/rules.md` (a test fails when the two
//! disagree; `UPDATE_RULES=1 cargo test catalogue` rewrites it), together with
//! [`JUDGEMENT`], the rules that no checker can decide from files.
//!
//! Every rule is one function named after its ID, in one of three modules:
//! [`routes`] (STATE.md on its own), [`lineage`] (STATE.md and MODE.md
//! compared with the last commit) and [`records`] (cycle records and
//! project context).

mod catalogue;
mod lineage;
mod records;
mod routes;

pub use catalogue::{render_catalogue, Judgement, ProtocolRule, CATALOGUE, JUDGEMENT};

use super::{Cx, Sink};

/// The registry entries of this family, in catalogue order.
pub fn rules() -> impl Iterator<Item = super::RuleInfo> {
    CATALOGUE.iter().map(|r| r.info)
}

pub fn check(cx: &Cx, sink: &mut Sink) {
    routes::check(cx, sink);
    lineage::check(cx, sink);
    records::check(cx, sink);
}
