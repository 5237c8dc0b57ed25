//! Cycle records: parsing the provenance block, headers and sections, and the
//! analyses that read them (acceptance, plans, verification, closure,
//! references, numbering, claims, the artifact scan, renames and verdicts).

pub mod acceptance;
pub mod assignments;
pub mod claims;
pub mod closure;
pub mod edit;
pub mod fieldlike;
pub mod numbering;
pub mod plan;
pub mod provenance;
pub mod record;
pub mod references;
pub mod renames;
pub mod scan;
pub mod verdicts;
pub mod verification;
