//! The nine role skills (D10), written for this project from the protocol,
//! installed into `.claude/skills/<role>/` and `.agents/skills/<role>/`.

/// One skill: its folder name and its files (path inside the folder, text).
pub struct Skill {
    pub role: &'static str,
    pub files: &'static [(&'static str, &'static str)],
}

/// Every packaged skill, sorted by role name (RT §7.5).
pub const SKILLS: &[Skill] = &[
    Skill {
        role: "architect",
        files: &[
            ("SKILL.md", include_str!("skills/architect/SKILL.md")),
            (
                "agents/openai.yaml",
                include_str!("skills/architect/agents/openai.yaml"),
            ),
            (
                "modes/cross-cutting.md",
                include_str!("skills/architect/modes/cross-cutting.md"),
            ),
            (
                "modes/documentation.md",
                include_str!("skills/architect/modes/documentation.md"),
            ),
            (
                "modes/evolution.md",
                include_str!("skills/architect/modes/evolution.md"),
            ),
            (
                "modes/feature.md",
                include_str!("skills/architect/modes/feature.md"),
            ),
            (
                "modes/foundation.md",
                include_str!("skills/architect/modes/foundation.md"),
            ),
        ],
    },
    Skill {
        role: "auditor",
        files: &[
            ("SKILL.md", include_str!("skills/auditor/SKILL.md")),
            (
                "agents/openai.yaml",
                include_str!("skills/auditor/agents/openai.yaml"),
            ),
            (
                "modes/gapfill.md",
                include_str!("skills/auditor/modes/gapfill.md"),
            ),
            (
                "modes/greenfield.md",
                include_str!("skills/auditor/modes/greenfield.md"),
            ),
            (
                "modes/subtree.md",
                include_str!("skills/auditor/modes/subtree.md"),
            ),
            (
                "modes/whole-repo.md",
                include_str!("skills/auditor/modes/whole-repo.md"),
            ),
        ],
    },
    Skill {
        role: "developer",
        files: &[
            ("SKILL.md", include_str!("skills/developer/SKILL.md")),
            (
                "agents/openai.yaml",
                include_str!("skills/developer/agents/openai.yaml"),
            ),
            (
                "modes/autonomous.md",
                include_str!("skills/developer/modes/autonomous.md"),
            ),
            (
                "modes/code-with-me.md",
                include_str!("skills/developer/modes/code-with-me.md"),
            ),
            (
                "modes/stepwise.md",
                include_str!("skills/developer/modes/stepwise.md"),
            ),
        ],
    },
    Skill {
        role: "documenter",
        files: &[
            ("SKILL.md", include_str!("skills/documenter/SKILL.md")),
            (
                "agents/openai.yaml",
                include_str!("skills/documenter/agents/openai.yaml"),
            ),
            (
                "modes/autonomous.md",
                include_str!("skills/documenter/modes/autonomous.md"),
            ),
            (
                "modes/guided.md",
                include_str!("skills/documenter/modes/guided.md"),
            ),
        ],
    },
    Skill {
        role: "navigator",
        files: &[
            ("SKILL.md", include_str!("skills/navigator/SKILL.md")),
            (
                "agents/openai.yaml",
                include_str!("skills/navigator/agents/openai.yaml"),
            ),
            (
                "modes/explain.md",
                include_str!("skills/navigator/modes/explain.md"),
            ),
            (
                "modes/grill-me.md",
                include_str!("skills/navigator/modes/grill-me.md"),
            ),
            (
                "modes/investigate.md",
                include_str!("skills/navigator/modes/investigate.md"),
            ),
        ],
    },
    Skill {
        role: "reviewer",
        files: &[
            ("SKILL.md", include_str!("skills/reviewer/SKILL.md")),
            (
                "agents/openai.yaml",
                include_str!("skills/reviewer/agents/openai.yaml"),
            ),
            (
                "modes/final-deliverable.md",
                include_str!("skills/reviewer/modes/final-deliverable.md"),
            ),
            (
                "modes/implementation.md",
                include_str!("skills/reviewer/modes/implementation.md"),
            ),
        ],
    },
    Skill {
        role: "scoper",
        files: &[
            ("SKILL.md", include_str!("skills/scoper/SKILL.md")),
            (
                "agents/openai.yaml",
                include_str!("skills/scoper/agents/openai.yaml"),
            ),
            ("modes/plan.md", include_str!("skills/scoper/modes/plan.md")),
            (
                "modes/replan.md",
                include_str!("skills/scoper/modes/replan.md"),
            ),
        ],
    },
    Skill {
        role: "synchronizer",
        files: &[
            ("SKILL.md", include_str!("skills/synchronizer/SKILL.md")),
            (
                "agents/openai.yaml",
                include_str!("skills/synchronizer/agents/openai.yaml"),
            ),
        ],
    },
    Skill {
        role: "tester",
        files: &[
            ("SKILL.md", include_str!("skills/tester/SKILL.md")),
            (
                "agents/openai.yaml",
                include_str!("skills/tester/agents/openai.yaml"),
            ),
            (
                "modes/reverify.md",
                include_str!("skills/tester/modes/reverify.md"),
            ),
            (
                "modes/verify.md",
                include_str!("skills/tester/modes/verify.md"),
            ),
        ],
    },
];

/// The packaged skill of `role`.
pub fn skill(role: &str) -> Option<&'static Skill> {
    SKILLS.iter().find(|s| s.role == role)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::invocation::mem::MemFiles;
    use crate::invocation::metadata::{GroupSource, Selection};
    use crate::invocation::{assemble, Client};
    use crate::model::layout::MARKER;
    use crate::model::vocab::{Role, WorkflowState};

    fn skill_md(s: &Skill) -> &'static str {
        s.files
            .iter()
            .find(|(p, _)| *p == "SKILL.md")
            .expect("SKILL.md")
            .1
    }

    /// Every inline code span of a Markdown text.
    fn code_spans(text: &str) -> Vec<String> {
        text.lines()
            .flat_map(|line| line.split('`').skip(1).step_by(2))
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn nine_roles_sorted_each_marked_explicit_only() {
        let roles: Vec<&str> = SKILLS.iter().map(|s| s.role).collect();
        assert_eq!(
            roles,
            [
                "architect",
                "auditor",
                "developer",
                "documenter",
                "navigator",
                "reviewer",
                "scoper",
                "synchronizer",
                "tester"
            ]
        );
        for s in SKILLS {
            let md = skill_md(s);
            assert!(
                md.starts_with(&format!("---\nname: {}\ndescription: ", s.role)),
                "{}",
                s.role
            );
            let front = md.split("\n---\n").next().unwrap();
            assert!(front.contains("invoked explicitly"), "{}", s.role);
            assert!(md.contains(MARKER), "{}", s.role);
            let yaml = s
                .files
                .iter()
                .find(|(p, _)| *p == "agents/openai.yaml")
                .unwrap()
                .1;
            assert!(
                yaml.contains("allow_implicit_invocation: false"),
                "{}",
                s.role
            );
            assert!(yaml.contains(&format!("${}", s.role)), "{}", s.role);
        }
    }

    #[test]
    fn sc_inv_001_every_catalog_assembles_with_23_mode_options() {
        for client in [Client::Codex, Client::Claude] {
            let files = MemFiles::with_skills(client);
            let mut modes = 0;
            for s in SKILLS {
                let dir = format!("{}/{}", client.skills_dir(), s.role);
                let c = assemble(&files, &dir, s.role).unwrap_or_else(|e| panic!("{e}"));
                for g in &c.block.groups {
                    if g.source == GroupSource::Modes {
                        modes += g.options.len();
                    }
                    if let Some(d) = &g.default_for_new {
                        let o = g.options.iter().find(|o| &o.id == d).unwrap();
                        assert_eq!(o.selection, Selection::User);
                    }
                }
            }
            assert_eq!(modes, 23);
        }
    }

    #[test]
    fn every_path_a_skill_names_exists_or_is_a_runtime_path() {
        let runtime = [
            ".standards/PROTOCOL.md",
            ".standards/MODE.md",
            ".standards/STATE.md",
            ".standards/CONTEXT.md",
            ".standards/protocol/user-decisions.md",
            ".standards/protocol/expedited.md",
            ".standards/protocol/installation.md",
        ];
        let patterns = [
            ".standards/docs/scope/",
            ".standards/docs/specs/",
            ".standards/docs/development/",
            ".standards/docs/verification/",
            ".standards/docs/reviews/",
            ".standards/docs/documentation/",
            ".standards/docs/synchronization/",
            ".standards/user-styles/",
        ];
        for s in SKILLS {
            for (path, text) in s.files {
                for span in code_spans(text) {
                    if span.starts_with(".standards/") {
                        let ok = runtime.contains(&span.as_str())
                            || patterns.iter().any(|p| span.starts_with(p));
                        assert!(ok, "{}/{path}: unknown path `{span}`", s.role);
                        if let Some(chapter) = span.strip_prefix(".standards/protocol/") {
                            assert!(crate::assets::CHAPTERS.iter().any(|(n, _)| *n == chapter));
                        }
                    } else if span.starts_with("modes/") {
                        assert!(
                            span == "modes/" || s.files.iter().any(|(p, _)| *p == span),
                            "{}/{path}: `{span}` is not in the skill",
                            s.role
                        );
                    }
                }
                // Markdown links into the skill folder.
                for link in text.split("](").skip(1) {
                    let target = link.split(')').next().unwrap();
                    assert!(
                        s.files.iter().any(|(p, _)| *p == target),
                        "{}/{path}: link `{target}` is not in the skill",
                        s.role
                    );
                }
            }
        }
    }

    #[test]
    fn every_state_a_role_owns_is_covered_by_its_skill() {
        for state in WorkflowState::ALL {
            let role = state.owner();
            let name = match role {
                Role::User => continue,
                r => r.as_str().to_lowercase(),
            };
            let s = skill(&name).unwrap_or_else(|| panic!("no skill for {name}"));
            let md = skill_md(s);
            assert!(
                md.contains(&format!("`{state}`")),
                "the {name} skill never names its state {state}"
            );
            // The skill names the command that records leaving the state.
            assert!(md.contains("git standards handoff --to"), "{name}");
        }
    }
}
