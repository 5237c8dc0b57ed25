//! The conformance suite of `check`: every fixture case under `fixtures/check/cases/`
//! runs through the library's checker on in-memory trees.
//!
//! A case is a folder holding:
//! - `case`: `key: value` lines —
//!   `expect:` rule IDs that must be reported (or `none`: the tree must pass;
//!   or `any`: nothing is required, for a case that only uses `forbid:`, `clean:` or `unmentioned:`),
//!   `base:` a folder under `fixtures/check/bases/` laid over the install (optional),
//!   `mode:` `greenfield` or `brownfield` install (default brownfield),
//!   `remove:` project paths deleted after the overlays,
//!   `head:` `base` to give the last commit the base tree (implied when `head/` exists),
//!   `turn-end:` `true` for the stop hook's variant,
//!   `exact:` `true` when no other rule may fire,
//!   `files:` `RULE=path` pairs: that rule must report (at least once) on that file,
//!   `clean:` project paths no problem may be reported on,
//!   `forbid:` rule IDs that must not be reported (when other rules may fire),
//!   `unmentioned:` words no problem message may contain (e.g. an identifier),
//!   `unmerged:` project paths that have unmerged index entries;
//! - `tree/`: files laid over the base (the working tree);
//! - `head/`: files laid over the base for the last commit.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::common::overlay;
use standards_core::check::{self, testing::installed_tree, Options};
use standards_core::model::tree::MemTree;
use standards_core::model::vocab::ProjectMode;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/check")
}

struct Case {
    any: bool,
    name: String,
    expect: Vec<String>,
    tree: MemTree,
    head: Option<MemTree>,
    options: Options,
    exact: bool,
    files: Vec<(String, String)>,
    clean: Vec<String>,
    forbid: Vec<String>,
    unmentioned: Vec<String>,
}

fn load(dir: &Path) -> Case {
    let name = dir.file_name().unwrap().to_string_lossy().into_owned();
    let spec = std::fs::read_to_string(dir.join("case"))
        .unwrap_or_else(|_| panic!("{name}: missing `case` file"));
    let mut get = std::collections::HashMap::new();
    for line in spec
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let (k, v) = line
            .split_once(':')
            .unwrap_or_else(|| panic!("{name}: bad line `{line}`"));
        get.insert(k.trim().to_string(), v.trim().to_string());
    }
    let mode = match get.get("mode").map(String::as_str) {
        Some("greenfield") => ProjectMode::Greenfield,
        None | Some("brownfield") => ProjectMode::Brownfield,
        Some(other) => panic!("{name}: unknown mode {other}"),
    };
    let mut base = installed_tree(mode);
    if let Some(b) = get.get("base") {
        let path = fixtures().join("bases").join(b);
        assert!(path.is_dir(), "{name}: unknown base {b}");
        overlay(&mut base, &path);
    }
    let mut tree = base.clone();
    overlay(&mut tree, &dir.join("tree"));
    for p in get
        .get("remove")
        .map(|s| s.split_whitespace().collect::<Vec<_>>())
        .unwrap_or_default()
    {
        tree.remove(p);
    }
    for p in get
        .get("unmerged")
        .map(|s| s.split_whitespace().collect::<Vec<_>>())
        .unwrap_or_default()
    {
        tree.mark_unmerged(p);
    }
    let head = if dir.join("head").is_dir() || get.get("head").map(String::as_str) == Some("base") {
        let mut h = base.clone();
        overlay(&mut h, &dir.join("head"));
        Some(h)
    } else {
        None
    };
    let expect = match get.get("expect").map(String::as_str) {
        None => panic!("{name}: `expect:` is required"),
        Some("none") | Some("any") => Vec::new(),
        Some(list) => list.split_whitespace().map(str::to_string).collect(),
    };
    let words = |key: &str| -> Vec<String> {
        get.get(key)
            .map(|s| s.split_whitespace().map(str::to_string).collect())
            .unwrap_or_default()
    };
    let files = get
        .get("files")
        .map(|s| {
            s.split_whitespace()
                .map(|pair| {
                    let (rule, file) = pair
                        .split_once('=')
                        .unwrap_or_else(|| panic!("{name}: bad `files:` pair `{pair}`"));
                    (rule.to_string(), file.to_string())
                })
                .collect()
        })
        .unwrap_or_default();
    let any = get.get("expect").map(String::as_str) == Some("any");
    Case {
        any,
        name,
        expect,
        tree,
        head,
        options: Options {
            at_turn_end: get.get("turn-end").map(String::as_str) == Some("true"),
            compat: get.get("compat").map(String::as_str) == Some("true"),
        },
        exact: get.get("exact").map(String::as_str) == Some("true"),
        files,
        clean: words("clean"),
        forbid: words("forbid"),
        unmentioned: words("unmentioned"),
    }
}

fn cases() -> Vec<Case> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(fixtures().join("cases"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    dirs.sort();
    dirs.iter().map(|d| load(d)).collect()
}

#[test]
fn every_case_reports_what_it_expects() {
    let mut failures = Vec::new();
    for case in cases() {
        let report = check::run(&case.tree, case.head.as_ref().map(|h| h as _), case.options);
        let fired: BTreeSet<&str> = report.problems.iter().map(|p| p.rule).collect();
        let missing: Vec<_> = case
            .expect
            .iter()
            .filter(|r| !fired.contains(r.as_str()))
            .collect();
        let unexpected = if (case.expect.is_empty() && !case.any) || case.exact {
            fired
                .iter()
                .filter(|r| !case.expect.iter().any(|e| e == *r))
                .collect::<Vec<_>>()
        } else {
            Vec::new()
        };
        let misplaced: Vec<_> = case
            .files
            .iter()
            .filter(|(rule, file)| {
                !report
                    .problems
                    .iter()
                    .any(|p| p.rule == rule.as_str() && p.file == file.as_str())
            })
            .collect();
        let not_clean: Vec<_> = case
            .clean
            .iter()
            .filter(|file| report.problems.iter().any(|p| &p.file == *file))
            .collect();
        let forbidden: Vec<_> = case
            .forbid
            .iter()
            .filter(|r| fired.contains(r.as_str()))
            .collect();
        let mentioned: Vec<_> = case
            .unmentioned
            .iter()
            .filter(|w| {
                report
                    .problems
                    .iter()
                    .any(|p| p.message.contains(w.as_str()))
            })
            .collect();
        if !missing.is_empty()
            || !unexpected.is_empty()
            || !forbidden.is_empty()
            || !mentioned.is_empty()
            || !misplaced.is_empty()
            || !not_clean.is_empty()
        {
            let detail: Vec<String> = report
                .problems
                .iter()
                .map(|p| format!("    {} {}: {}", p.rule, p.file, p.message))
                .collect();
            failures.push(format!(
                "{}: missing {missing:?}, unexpected {unexpected:?}, not on the file {misplaced:?}, not clean {not_clean:?}, forbidden {forbidden:?}, mentioned {mentioned:?}\n{}",
                case.name,
                detail.join("\n")
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} case(s) failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_registered_rule_has_a_triggering_case() {
    let covered: BTreeSet<String> = cases().into_iter().flat_map(|c| c.expect).collect();
    let missing: Vec<&str> = check::registry()
        .into_iter()
        .filter(|r| !r.precondition && !covered.contains(r.id))
        .map(|r| r.id)
        .collect();
    assert!(
        missing.is_empty(),
        "rules without a triggering fixture case: {missing:?}"
    );
}

#[test]
fn every_expected_rule_is_registered() {
    let ids: BTreeSet<&str> = check::registry().into_iter().map(|r| r.id).collect();
    for case in cases() {
        for e in case.expect.iter().chain(&case.forbid) {
            assert!(
                ids.contains(e.as_str()),
                "{}: expects unregistered rule {e}",
                case.name
            );
        }
    }
}

#[test]
fn the_registry_holds_exactly_the_catalogue() {
    let manifest = std::fs::read_to_string(fixtures().join("rules.txt")).unwrap();
    let expected: BTreeSet<&str> = manifest
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .collect();
    let registered: BTreeSet<&str> = check::reference_registry()
        .into_iter()
        .map(|r| r.id)
        .collect();
    let missing: Vec<_> = expected.difference(&registered).collect();
    let extra: Vec<_> = registered.difference(&expected).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "missing from the registry: {missing:?}; not in the catalogue: {extra:?}"
    );
}

/// `docs/rules.md` is the protocol-rule catalogue rendered from the registry.
/// `UPDATE_RULES=1 cargo test catalogue` rewrites it.
#[test]
fn the_protocol_rule_catalogue_matches_the_registry() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/rules.md");
    let rendered = check::protocol_rules::render_catalogue();
    if std::env::var_os("UPDATE_RULES").is_some_and(|v| v == "1") {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &rendered).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == rendered,
        "docs/rules.md differs from the registry's catalogue; run `UPDATE_RULES=1 cargo test catalogue` and commit the result"
    );
    // Every rule outside the reference catalogue is in the PR family, and
    // every PR rule is in the catalogue.
    let catalogued: BTreeSet<&str> = check::protocol_rules::CATALOGUE
        .iter()
        .map(|r| r.info.id)
        .collect();
    for rule in check::registry() {
        assert_eq!(
            rule.source() == check::RuleSource::Protocol,
            catalogued.contains(rule.id),
            "{}: a protocol rule must be a catalogued PR rule",
            rule.id
        );
    }
}

/// `compat: true` cases see only the reference rules; every PR rule is a
/// protocol rule and reported with that source.
#[test]
fn compat_mode_reports_only_reference_rules() {
    for case in cases() {
        let report = check::run(
            &case.tree,
            case.head.as_ref().map(|h| h as _),
            Options {
                compat: true,
                ..case.options
            },
        );
        for p in &report.problems {
            assert_eq!(
                p.source,
                check::RuleSource::Reference,
                "{}: {} reported under --compat",
                case.name,
                p.rule
            );
        }
    }
}
