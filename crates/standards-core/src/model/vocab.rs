//! The closed vocabularies of the protocol (RF §4.3, §5, §7), each with exact
//! parsing and display of its on-disk spelling.

use std::fmt;

/// A value outside a vocabulary: carries what was found and what is allowed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{found}` is not a valid {what}; expected one of {}", allowed.join(", "))]
pub struct UnknownValue {
    pub what: &'static str,
    pub found: String,
    pub allowed: &'static [&'static str],
}

macro_rules! vocabulary {
    ($(#[$meta:meta])* $name:ident, $what:literal { $($variant:ident => $text:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name { $($variant),+ }

        impl $name {
            /// Every value, in protocol order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];
            /// Every spelling, in protocol order.
            pub const NAMES: &'static [&'static str] = &[$($text),+];

            /// The exact on-disk spelling.
            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $text),+ }
            }

            /// Parses a value typed on a command line: any ASCII case, `-`
            /// for `_` (`--to architecting`, `full-deliverable`).
            pub fn parse_loose(s: &str) -> Result<Self, UnknownValue> {
                s.trim().to_ascii_uppercase().replace('-', "_").parse::<Self>().map_err(|mut e| {
                    e.found = s.to_string();
                    e
                })
            }
        }

        impl std::str::FromStr for $name {
            type Err = UnknownValue;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                match s {
                    $($text => Ok($name::$variant),)+
                    _ => Err(UnknownValue { what: $what, found: s.to_string(), allowed: Self::NAMES }),
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { f.write_str(self.as_str()) }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> { s.serialize_str(self.as_str()) }
        }
    };
}

vocabulary!(
    /// `WorkflowState` (RF §4.3).
    WorkflowState, "workflow state" {
        Scoping => "SCOPING",
        Architecting => "ARCHITECTING",
        Auditing => "AUDITING",
        Developing => "DEVELOPING",
        Testing => "TESTING",
        ReviewingImplementation => "REVIEWING_IMPLEMENTATION",
        Documenting => "DOCUMENTING",
        ReviewingFinal => "REVIEWING_FINAL",
        Synchronizing => "SYNCHRONIZING",
        AwaitingUserSignoff => "AWAITING_USER_SIGNOFF",
        SignedOff => "SIGNED_OFF",
        Cancelled => "CANCELLED",
    }
);

vocabulary!(
    /// `CycleMode` and `PendingCycleMode`.
    CycleMode, "cycle mode" {
        Unset => "UNSET",
        Standard => "STANDARD",
        Expedited => "EXPEDITED",
        Documentation => "DOCUMENTATION",
    }
);

vocabulary!(
    /// `ProjectMode` in MODE.md.
    ProjectMode, "project mode" {
        Greenfield => "GREENFIELD",
        Brownfield => "BROWNFIELD",
    }
);

vocabulary!(
    /// `Active Work.CompletionPolicy`.
    CompletionPolicy, "completion policy" {
        None => "NONE",
        FullDeliverable => "FULL_DELIVERABLE",
        ImplementationReviewed => "IMPLEMENTATION_REVIEWED",
    }
);

vocabulary!(
    /// `Active Work.PendingVerificationCadence` (with `NONE`).
    PendingCadence, "pending verification cadence" {
        None => "NONE",
        Incremental => "INCREMENTAL",
        AfterImplementation => "AFTER_IMPLEMENTATION",
    }
);

vocabulary!(
    /// `Handoff.Kind`.
    HandoffKind, "handoff kind" {
        Initial => "INITIAL",
        Forward => "FORWARD",
        Checkpoint => "CHECKPOINT",
        Failure => "FAILURE",
        Resume => "RESUME",
        Promote => "PROMOTE",
        UserRework => "USER_REWORK",
        NewCycle => "NEW_CYCLE",
        Signoff => "SIGNOFF",
        Cancel => "CANCEL",
        CompletionChange => "COMPLETION_CHANGE",
    }
);

vocabulary!(
    /// `FailureType` of handoffs, frames, obligations and findings (without `NONE`).
    FailureType, "failure type" {
        Scoping => "SCOPING",
        Architecture => "ARCHITECTURE",
        ProjectContext => "PROJECT_CONTEXT",
        Implementation => "IMPLEMENTATION",
        Verification => "VERIFICATION",
        Documentation => "DOCUMENTATION",
        Review => "REVIEW",
        Synchronization => "SYNCHRONIZATION",
    }
);

vocabulary!(
    /// Provenance `Artifact` type.
    ArtifactType, "artifact type" {
        Scope => "SCOPE",
        Architecture => "ARCHITECTURE",
        Development => "DEVELOPMENT",
        Verification => "VERIFICATION",
        Review => "REVIEW",
        Documentation => "DOCUMENTATION",
        Synchronization => "SYNCHRONIZATION",
    }
);

vocabulary!(
    /// Provenance `ReviewKind`.
    ReviewKind, "review kind" {
        Implementation => "IMPLEMENTATION",
        FinalDeliverable => "FINAL_DELIVERABLE",
    }
);

vocabulary!(
    /// Record-local identifier prefixes (RF §1.5).
    IdPrefix, "identifier prefix" {
        Ac => "AC",
        Dev => "DEV",
        F => "F",
        D => "D",
        Doc => "DOC",
    }
);

/// The role that acts in a state (RF §4.3 state-to-owner mapping).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Scoper,
    Architect,
    Auditor,
    Developer,
    Tester,
    Reviewer,
    Documenter,
    Synchronizer,
    Navigator,
    User,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Scoper => "Scoper",
            Role::Architect => "Architect",
            Role::Auditor => "Auditor",
            Role::Developer => "Developer",
            Role::Tester => "Tester",
            Role::Reviewer => "Reviewer",
            Role::Documenter => "Documenter",
            Role::Synchronizer => "Synchronizer",
            Role::Navigator => "Navigator",
            Role::User => "user",
        }
    }
}

impl Role {
    /// The role's skill identifier (`$architect` in Codex, `/architect` in Claude Code).
    pub fn skill(self) -> &'static str {
        match self {
            Role::Scoper => "scoper",
            Role::Architect => "architect",
            Role::Auditor => "auditor",
            Role::Developer => "developer",
            Role::Tester => "tester",
            Role::Reviewer => "reviewer",
            Role::Documenter => "documenter",
            Role::Synchronizer => "synchronizer",
            Role::Navigator => "navigator",
            Role::User => "user",
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl WorkflowState {
    /// `SIGNED_OFF` and `CANCELLED` end a cycle.
    pub fn is_terminal(self) -> bool {
        matches!(self, WorkflowState::SignedOff | WorkflowState::Cancelled)
    }

    /// Who acts in this state.
    pub fn owner(self) -> Role {
        match self {
            WorkflowState::Scoping => Role::Scoper,
            WorkflowState::Architecting => Role::Architect,
            WorkflowState::Auditing => Role::Auditor,
            WorkflowState::Developing => Role::Developer,
            WorkflowState::Testing => Role::Tester,
            WorkflowState::ReviewingImplementation | WorkflowState::ReviewingFinal => {
                Role::Reviewer
            }
            WorkflowState::Documenting => Role::Documenter,
            WorkflowState::Synchronizing => Role::Synchronizer,
            WorkflowState::AwaitingUserSignoff
            | WorkflowState::SignedOff
            | WorkflowState::Cancelled => Role::User,
        }
    }

    /// Position on the implementation route (check-rules §2 "Rank"); 0 before development.
    pub fn rank(self) -> u8 {
        match self {
            WorkflowState::Developing => 1,
            WorkflowState::Testing => 2,
            WorkflowState::ReviewingImplementation => 3,
            WorkflowState::Documenting => 4,
            WorkflowState::ReviewingFinal => 5,
            WorkflowState::Synchronizing => 6,
            WorkflowState::AwaitingUserSignoff => 7,
            _ => 0,
        }
    }
}

impl FailureType {
    /// The states that own corrections of this type (REVIEW has two).
    pub fn owning_states(self) -> &'static [WorkflowState] {
        use WorkflowState as W;
        match self {
            FailureType::Scoping => &[W::Scoping],
            FailureType::Architecture => &[W::Architecting],
            FailureType::ProjectContext => &[W::Auditing],
            FailureType::Implementation => &[W::Developing],
            FailureType::Verification => &[W::Testing],
            FailureType::Documentation => &[W::Documenting],
            FailureType::Review => &[W::ReviewingImplementation, W::ReviewingFinal],
            FailureType::Synchronization => &[W::Synchronizing],
        }
    }
}

impl ArtifactType {
    /// The role skill whose template supplies this record's header.
    pub fn role(self) -> Role {
        match self {
            ArtifactType::Scope => Role::Scoper,
            ArtifactType::Architecture => Role::Architect,
            ArtifactType::Development => Role::Developer,
            ArtifactType::Verification => Role::Tester,
            ArtifactType::Review => Role::Reviewer,
            ArtifactType::Documentation => Role::Documenter,
            ArtifactType::Synchronization => Role::Synchronizer,
        }
    }

    /// The identifier prefix a record of this type defines, if any.
    pub fn local_prefix(self) -> Option<IdPrefix> {
        match self {
            ArtifactType::Development => Some(IdPrefix::Dev),
            ArtifactType::Review => Some(IdPrefix::F),
            ArtifactType::Synchronization => Some(IdPrefix::D),
            ArtifactType::Documentation => Some(IdPrefix::Doc),
            _ => None,
        }
    }
}

impl IdPrefix {
    /// The record type that numbers identifiers with this prefix (RT §4.2).
    pub fn owning_artifact(self) -> ArtifactType {
        match self {
            IdPrefix::Ac => ArtifactType::Scope,
            IdPrefix::Dev => ArtifactType::Development,
            IdPrefix::F => ArtifactType::Review,
            IdPrefix::D => ArtifactType::Synchronization,
            IdPrefix::Doc => ArtifactType::Documentation,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_spelling_round_trips() {
        for s in WorkflowState::ALL {
            assert_eq!(s.as_str().parse::<WorkflowState>().unwrap(), *s);
        }
        for k in HandoffKind::ALL {
            assert_eq!(k.to_string().parse::<HandoffKind>().unwrap(), *k);
        }
        assert_eq!(WorkflowState::ALL.len(), 12);
        assert_eq!(HandoffKind::ALL.len(), 11);
        assert_eq!(FailureType::ALL.len(), 8);
    }

    #[test]
    fn unknown_values_name_the_vocabulary() {
        let err = "DONE".parse::<WorkflowState>().unwrap_err();
        assert!(err.to_string().contains("not a valid workflow state"));
        assert!(err.to_string().contains("SIGNED_OFF"));
        assert!(
            "scoping".parse::<WorkflowState>().is_err(),
            "case-sensitive"
        );
    }

    #[test]
    fn terminal_states_and_owners() {
        assert!(WorkflowState::SignedOff.is_terminal());
        assert!(!WorkflowState::AwaitingUserSignoff.is_terminal());
        assert_eq!(WorkflowState::ReviewingFinal.owner(), Role::Reviewer);
        assert_eq!(WorkflowState::Auditing.rank(), 0);
        assert_eq!(WorkflowState::AwaitingUserSignoff.rank(), 7);
    }
}
