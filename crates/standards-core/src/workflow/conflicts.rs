//! Unresolved merge conflicts in `.standards/` and in the Active Work
//! records STATE.md names outside it (RT-003, RT-004, decision D15).

use crate::model::fields;
use crate::model::layout::STANDARDS_DIR;
use crate::model::state::STATE_PATH;
use crate::model::text::mask_html_comments;
use crate::model::tree::{Stages, Text, Tree};
use crate::records::verdicts::ContentCache;
use crate::workflow::state_merge::SideSummary;

/// A conflicted file and the cycles its sides name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conflict {
    pub path: String,
    /// Unmerged index entries (`true`) or only markers in the content (`false`).
    pub unmerged: bool,
    /// Distinct `Id` values found in the file (the cycles involved), in order.
    pub cycles: Vec<String>,
    /// What each side holds (cycle, request, workflow state): read from index
    /// stages 2 and 3 when the path is unmerged, else rebuilt from the markers.
    /// `None` for a side that deleted the file or that cannot be told apart.
    pub ours: Option<SideSummary>,
    pub theirs: Option<SideSummary>,
}

/// Whether some line starts with seven `<` and a space.
pub fn has_markers(text: &str) -> bool {
    text.lines().any(|l| l.starts_with("<<<<<<< "))
}

/// Every conflicted file under `.standards/`: unmerged index entries, plus any
/// file whose content carries conflict markers (D15: every file, any depth,
/// because `git add` clears the stages but not the markers).
pub fn find(tree: &dyn Tree) -> Vec<Conflict> {
    find_cached(tree, None)
}

/// [`find`], skipping the content that `cache` knows holds no markers and
/// telling it what else was read and found unmarked.
pub fn find_cached(tree: &dyn Tree, cache: Option<&ContentCache>) -> Vec<Conflict> {
    let mut out: Vec<Conflict> = tree
        .unmerged()
        .into_iter()
        .map(|path| unmerged_conflict(tree, path))
        .collect();
    let prefix = format!("{STANDARDS_DIR}/");
    for path in standards_files(tree, &prefix) {
        if out.iter().any(|c| c.path == path) {
            continue;
        }
        let key = cache.and_then(|_| tree.content_id(&path));
        if let (Some(cache), Some(key)) = (cache, &key) {
            if cache.is_unmarked(key) {
                continue;
            }
        }
        if let Text::Ok(text) = tree.text(&path) {
            if !has_markers(&text) {
                if let (Some(cache), Some(key)) = (cache, key) {
                    cache.learn_unmarked(key);
                }
            } else {
                let (ours, theirs) = match sides_from_markers(&text) {
                    Some((o, t)) => (
                        Some(SideSummary::read(o.as_bytes())),
                        Some(SideSummary::read(t.as_bytes())),
                    ),
                    None => (None, None),
                };
                out.push(Conflict {
                    cycles: ids(&text),
                    path,
                    unmerged: false,
                    ours,
                    theirs,
                });
            }
        }
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    if let Some((ours, theirs)) = state_sides(tree) {
        describe_from_states(&mut out, ours.as_deref(), theirs.as_deref());
    }
    out
}

/// One side's bytes of a file: `None` when that side deleted it.
pub type SideBytes = Option<Vec<u8>>;

/// STATE.md as each side holds it, when this snapshot can tell: its index
/// stages 2 and 3 when it is unmerged, else the two versions inside its
/// conflict markers. `None` when STATE.md is not in conflict here.
pub fn state_sides(tree: &dyn Tree) -> Option<(SideBytes, SideBytes)> {
    if let Some(Stages { ours, theirs, .. }) = tree.stages(STATE_PATH) {
        return Some((ours, theirs));
    }
    match tree.text(STATE_PATH) {
        Text::Ok(text) => {
            sides_from_markers(&text).map(|(o, t)| (Some(o.into_bytes()), Some(t.into_bytes())))
        }
        _ => None,
    }
}

/// Describes each side of a conflict in a file other than STATE.md from that
/// side's own STATE.md (issue 29, item 4): a record or CONTEXT.md names no
/// workflow state or request, so its own fields would say "no active cycle"
/// even while one is active. Only sides not described yet (no workflow
/// state) are filled; a side that deleted the file stays deleted; a side
/// whose STATE.md is unknown (`None`) keeps the cycle the file names.
pub fn describe_from_states(
    conflicts: &mut [Conflict],
    ours: Option<&[u8]>,
    theirs: Option<&[u8]>,
) {
    for c in conflicts.iter_mut().filter(|c| c.path != STATE_PATH) {
        for (side, state) in [(&mut c.ours, ours), (&mut c.theirs, theirs)] {
            let (Some(s), Some(state)) = (side.as_mut(), state) else {
                continue;
            };
            if s.workflow_state.is_some() {
                continue;
            }
            let from = SideSummary::read(state);
            *s = SideSummary {
                cycle: from.cycle.or_else(|| s.cycle.take()),
                request: from.request,
                workflow_state: from.workflow_state,
            };
        }
    }
}

/// How one side of `conflict` is described: from STATE.md (its own, or the
/// side's STATE.md for another file), or, for another file whose side's
/// STATE.md is unknown, by the cycle the file names.
pub fn side_phrase(conflict: &Conflict, s: &SideSummary) -> String {
    let request = match &s.request {
        Some(r) => format!(", request \"{r}\""),
        None => String::new(),
    };
    match (&s.cycle, &s.workflow_state) {
        (Some(id), None) if conflict.path != STATE_PATH => {
            format!("a version naming cycle {id} (that side's STATE.md is unknown)")
        }
        (None, None) if conflict.path != STATE_PATH => {
            "a version naming no cycle (that side's STATE.md is unknown)".to_string()
        }
        (cycle, state) => {
            let cycle = match cycle {
                Some(id) => format!("cycle {id}"),
                None => "no active cycle".into(),
            };
            let state = state.as_deref().unwrap_or("no WorkflowState");
            format!("{cycle} ({state}{request})")
        }
    }
}

fn standards_files(tree: &dyn Tree, prefix: &str) -> Vec<String> {
    let mut files: Vec<String> = tree.markdown_files_under(prefix);
    let runtime = crate::model::layout::RUNTIME_FILES
        .iter()
        .map(|f| f.to_string());
    for extra in runtime.chain(active_work_files(tree)) {
        if !files.contains(&extra) {
            files.push(extra);
        }
    }
    files.sort();
    files
}

/// The Active Work record paths (`Scope`, `Architecture`, `Development`)
/// of the snapshot's STATE.md, normalised, that lie inside the project: a
/// record outside `.standards/` with conflict markers is a conflict too
/// (D15, issue 21).
fn active_work_files(tree: &dyn Tree) -> Vec<String> {
    let Text::Ok(text) = tree.text(crate::model::layout::STATE_PATH) else {
        return Vec::new();
    };
    let Ok(doc) = crate::model::state::StateDoc::parse(&text) else {
        return Vec::new();
    };
    let work = &doc.active_work;
    [&work.scope, &work.architecture, &work.development]
        .into_iter()
        .map(|f| f.value.as_str())
        .filter(|raw| *raw != "NONE" && !raw.starts_with('/') && !raw.starts_with('\\'))
        .filter_map(crate::model::layout::normalize)
        .filter(|p| !p.is_empty())
        .collect()
}

/// An unmerged path: its sides from the index stages when the snapshot has
/// them (the index snapshot shows only stage 2 as content, so without the
/// stages it would name only "ours"), else from markers in its content.
fn unmerged_conflict(tree: &dyn Tree, path: String) -> Conflict {
    let text = match tree.text(&path) {
        Text::Ok(text) => Some(text),
        _ => None,
    };
    let mut cycles = Vec::new();
    let (ours, theirs) = match tree.stages(&path) {
        Some(Stages { ours, theirs, .. }) => {
            for side in [&ours, &theirs].into_iter().flatten() {
                extend_unique(&mut cycles, ids(&String::from_utf8_lossy(side)));
            }
            (
                ours.map(|b| SideSummary::read(&b)),
                theirs.map(|b| SideSummary::read(&b)),
            )
        }
        None => match text.as_deref().and_then(sides_from_markers) {
            Some((o, t)) => (
                Some(SideSummary::read(o.as_bytes())),
                Some(SideSummary::read(t.as_bytes())),
            ),
            None => (None, None),
        },
    };
    if let Some(text) = &text {
        extend_unique(&mut cycles, ids(text));
    }
    Conflict {
        path,
        unmerged: true,
        cycles,
        ours,
        theirs,
    }
}

fn extend_unique(into: &mut Vec<String>, more: Vec<String>) {
    for id in more {
        if !into.contains(&id) {
            into.push(id);
        }
    }
}

/// The two versions a conflict-marker text stands for: the lines outside the
/// markers belong to both, the `<<<<<<<`..`=======` part to ours and the
/// `=======`..`>>>>>>>` part to theirs (a diff3 `|||||||` base part to
/// neither). `None` when the text has no marker block.
pub fn sides_from_markers(text: &str) -> Option<(String, String)> {
    #[derive(PartialEq)]
    enum At {
        Both,
        Ours,
        Base,
        Theirs,
    }
    let mut at = At::Both;
    let (mut ours, mut theirs) = (String::new(), String::new());
    let mut blocks = 0;
    for line in text.split_inclusive('\n') {
        let bare = line.trim_end_matches(['\n', '\r']);
        match at {
            _ if bare.starts_with("<<<<<<< ") || bare == "<<<<<<<" => {
                at = At::Ours;
                blocks += 1;
                continue;
            }
            At::Ours if bare.starts_with("|||||||") => {
                at = At::Base;
                continue;
            }
            At::Ours | At::Base if bare == "=======" => {
                at = At::Theirs;
                continue;
            }
            At::Theirs if bare.starts_with(">>>>>>> ") || bare == ">>>>>>>" => {
                at = At::Both;
                continue;
            }
            _ => {}
        }
        match at {
            At::Both => {
                ours.push_str(line);
                theirs.push_str(line);
            }
            At::Ours => ours.push_str(line),
            At::Theirs => theirs.push_str(line),
            At::Base => {}
        }
    }
    (blocks > 0).then_some((ours, theirs))
}

/// The cycle IDs a file names, outside HTML comments (STATE.md's template
/// comment shows a `SourceCycle` placeholder that names no cycle).
fn ids(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for f in fields::scan(&mask_html_comments(text)) {
        let is_id = f.name == "Id" || f.name == "Cycle" || f.name == "SourceCycle";
        if is_id && f.value != "UNSET" && !out.contains(&f.value) {
            out.push(f.value);
        }
    }
    out
}

/// "ours holds cycle X (STATE, request "R"); theirs holds cycle Y (...)",
/// when the sides are known; `labels` name the sides (git's "ours" and
/// "theirs" mean different branches in a merge and a rebase).
pub fn describe_sides(conflict: &Conflict, labels: (&str, &str)) -> Option<String> {
    let side = |name: &str, s: &Option<SideSummary>| match s {
        Some(s) => format!("{name} holds {}", side_phrase(conflict, s)),
        None => format!("{name} deleted the file"),
    };
    if conflict.ours.is_none() && conflict.theirs.is_none() {
        return None;
    }
    Some(format!(
        "{}; {}",
        side(labels.0, &conflict.ours),
        side(labels.1, &conflict.theirs)
    ))
}

/// A one-line description of conflicts for refusals.
pub fn describe(conflicts: &[Conflict]) -> String {
    conflicts
        .iter()
        .map(|c| {
            if c.cycles.is_empty() {
                format!("`{}`", c.path)
            } else {
                format!("`{}` (cycles {})", c.path, c.cycles.join(", "))
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::tree::MemTree;

    #[test]
    fn markers_anywhere_under_standards_and_unmerged_entries() {
        let state = "<<<<<<< ours\n`Id`: `a-1`\n=======\n`Id`: `b-2`\n>>>>>>> theirs\n";
        let mut t = MemTree::new()
            .with(".standards/STATE.md", state)
            .with(".standards/docs/scope/x.md", "<<<<<<< HEAD\nx\n")
            .with("README.md", "<<<<<<< HEAD\n");
        t.mark_unmerged(".standards/MODE.md");
        let found = find(&t);
        let paths: Vec<_> = found.iter().map(|c| c.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                ".standards/MODE.md",
                ".standards/STATE.md",
                ".standards/docs/scope/x.md"
            ]
        );
        assert_eq!(found[1].cycles, ["a-1", "b-2"]);
        assert!(describe(&found).contains("cycles a-1, b-2"));
    }

    #[test]
    fn placeholders_in_comments_are_not_cycles() {
        let state = "<<<<<<< ours\n`Id`: `a-1`\n=======\n`Id`: `b-2`\n>>>>>>> theirs\n<!--\n- `SourceCycle`: `<cancelled-cycle-id>`\n-->\n";
        let t = MemTree::new().with(".standards/STATE.md", state);
        assert_eq!(find(&t)[0].cycles, ["a-1", "b-2"]);
    }

    #[test]
    fn unmerged_sides_come_from_stages_2_and_3() {
        let side = |id: &str, state: &str| {
            format!("`WorkflowState`: `{state}`\n`Id`: `{id}` `Request`: `Do {id}`\n").into_bytes()
        };
        let mut t = MemTree::new().with(".standards/STATE.md", side("o-1", "SCOPING"));
        t.set_stages(
            ".standards/STATE.md",
            Stages {
                base: None,
                ours: Some(side("o-1", "SCOPING")),
                theirs: Some(side("t-2", "ARCHITECTING")),
            },
        );
        let found = find(&t);
        assert_eq!(found[0].cycles, ["o-1", "t-2"]);
        assert_eq!(
            found[0].theirs.as_ref().unwrap().workflow_state.as_deref(),
            Some("ARCHITECTING")
        );
        assert_eq!(
            describe_sides(&found[0], ("ours", "theirs")).unwrap(),
            "ours holds cycle o-1 (SCOPING, request \"Do o-1\"); theirs holds cycle t-2 (ARCHITECTING, request \"Do t-2\")"
        );

        let mut deleted = MemTree::new();
        deleted.set_stages(
            ".standards/STATE.md",
            Stages {
                base: Some(side("b-0", "READY")),
                ours: Some(side("o-1", "SCOPING")),
                theirs: None,
            },
        );
        assert!(describe_sides(&find(&deleted)[0], ("ours", "theirs"))
            .unwrap()
            .ends_with("theirs deleted the file"));
    }

    #[test]
    fn line_merge_markers_rebuild_both_versions() {
        let text = "head\n<<<<<<< HEAD\n`Id`: `o-1`\n||||||| base\n`Id`: `UNSET`\n=======\n`Id`: `t-2`\n>>>>>>> side\n`WorkflowState`: `SCOPING`\n";
        let (ours, theirs) = sides_from_markers(text).unwrap();
        assert_eq!(ours, "head\n`Id`: `o-1`\n`WorkflowState`: `SCOPING`\n");
        assert_eq!(theirs, "head\n`Id`: `t-2`\n`WorkflowState`: `SCOPING`\n");
        assert_eq!(sides_from_markers("no markers\n"), None);
        let t = MemTree::new().with(".standards/STATE.md", text);
        let c = &find(&t)[0];
        assert_eq!(c.ours.as_ref().unwrap().cycle.as_deref(), Some("o-1"));
        assert_eq!(
            c.theirs.as_ref().unwrap().workflow_state.as_deref(),
            Some("SCOPING")
        );
    }

    proptest::proptest! {
        /// What the merge driver writes (D24) reads back as the two whole
        /// versions it was made of, so `resolve` can keep either exactly.
        #[test]
        fn driver_output_gives_back_both_whole_versions(
            ours in "([a-z `]{0,12}\n){1,5}",
            theirs in "([a-z `]{0,12}\n){1,5}",
        ) {
            proptest::prop_assume!(ours != theirs && ours != "base\n" && theirs != "base\n");
            let merged = crate::workflow::state_merge::merge(b"base\n", ours.as_bytes(), theirs.as_bytes());
            let text = String::from_utf8(merged.bytes).unwrap();
            let (o, t) = sides_from_markers(&text).unwrap();
            proptest::prop_assert_eq!(o, ours);
            proptest::prop_assert_eq!(t, theirs);
        }

        /// Rebuilding the sides of a two-version marker text gives back both versions.
        #[test]
        fn markers_around_two_versions_give_them_back(
            common in "[a-z `]{0,20}\n",
            ours in "[a-z `]{0,20}\n",
            theirs in "[a-z `]{0,20}\n",
        ) {
            let text = format!("{common}<<<<<<< ours\n{ours}=======\n{theirs}>>>>>>> theirs\n{common}");
            let (o, t) = sides_from_markers(&text).unwrap();
            proptest::prop_assert_eq!(o, format!("{common}{ours}{common}"));
            proptest::prop_assert_eq!(t, format!("{common}{theirs}{common}"));
        }
    }

    #[test]
    fn clean_tree_has_no_conflicts() {
        let t = MemTree::new().with(".standards/STATE.md", "x <<<<<<< not at line start\n");
        assert!(find(&t).is_empty());
    }

    #[test]
    fn another_files_sides_are_described_from_each_sides_state() {
        let state = |id: &str, ws: &str| {
            format!("`WorkflowState`: `{ws}`\n`Id`: `{id}` `Request`: `Do {id}`\n").into_bytes()
        };
        let record = ".standards/docs/scope/x.md";
        // STATE.md unmerged too: the record's sides come from its stages.
        let mut t = MemTree::new().with(
            record,
            "<<<<<<< HEAD\n`Cycle`: `o-1`\n=======\n`Cycle`: `t-2`\n>>>>>>> b\n",
        );
        t.set_stages(
            STATE_PATH,
            Stages {
                base: None,
                ours: Some(state("o-1", "SCOPING")),
                theirs: Some(state("t-2", "ARCHITECTING")),
            },
        );
        let found = find(&t);
        let c = found.iter().find(|c| c.path == record).unwrap();
        assert_eq!(
            describe_sides(c, ("ours", "theirs")).unwrap(),
            "ours holds cycle o-1 (SCOPING, request \"Do o-1\"); theirs holds cycle t-2 (ARCHITECTING, request \"Do t-2\")"
        );

        // STATE.md clean: the snapshot cannot tell; the file's cycle is named
        // and the unknown side said so, never "no active cycle".
        let t = MemTree::new()
            .with(STATE_PATH, state("o-1", "SCOPING"))
            .with(
                ".standards/CONTEXT.md",
                "<<<<<<< HEAD\na\n=======\nb\n>>>>>>> b\n",
            )
            .with(
                record,
                "<<<<<<< HEAD\n`Cycle`: `o-1`\n=======\n`Cycle`: `t-2`\n>>>>>>> b\n",
            );
        let mut found = find(&t);
        let text = describe_sides(&found[0], ("ours", "theirs")).unwrap();
        assert!(
            !text.contains("no active cycle") && !text.contains("no WorkflowState"),
            "{text}"
        );
        assert!(text.contains("a version naming no cycle"), "{text}");
        assert!(describe_sides(&found[1], ("ours", "theirs"))
            .unwrap()
            .contains("a version naming cycle t-2"));
        // The repository layer then gives each side its commit's STATE.md;
        // a side already described keeps its description.
        describe_from_states(&mut found, Some(&state("o-1", "SCOPING")), None);
        assert_eq!(
            found[0].ours.as_ref().unwrap().workflow_state.as_deref(),
            Some("SCOPING")
        );
        assert_eq!(found[0].theirs.as_ref().unwrap().workflow_state, None);
        describe_from_states(&mut found, Some(&state("x-9", "DEVELOPING")), None);
        assert_eq!(
            found[0].ours.as_ref().unwrap().cycle.as_deref(),
            Some("o-1")
        );
    }
}
