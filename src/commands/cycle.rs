//! `git standards cycle new`: prints a new, unused cycle ID (RT §2, RF §10).
//! It changes no file: there is no ID registry (decision D13).

use crate::cli::values::request_value;
use crate::commands::Context;
use crate::error::{Error, Result};
use crate::support::{audit, runtime};
use clap::Subcommand;
use standards_core::audit::{Event, EventKind};
use standards_core::model::cycle_id;
use standards_core::model::tree::Tree;
use standards_core::records::{claims, scan};

#[derive(Debug, Subcommand)]
pub enum CycleCommand {
    /// Print a new, unused cycle ID for a request; changes no file.
    ///
    /// The ID is `<slug>-<UTC time>-<8 random hex digits>`. Refused while a
    /// cycle is active: a new ID is only generated before the first cycle or
    /// after sign-off or cancellation.
    New(CycleNewArgs),
}

#[derive(Debug, clap::Args)]
pub struct CycleNewArgs {
    /// The user's request the cycle will serve (its words form the ID's slug).
    #[arg(
        long,
        value_name = "request text",
        required = true,
        allow_hyphen_values = true,
        value_parser = request_value
    )]
    pub request: String,
    /// Print `{"ok": true, "id": "<cycle id>"}`; a refusal prints `{"ok": false, "error", "hint"}`.
    #[arg(long)]
    pub json: bool,
}

const CYCLE_NEW_USAGE: &str = "Usage: git standards cycle new --request \"<request text>\"";

/// `cycle new` arguments as a validated request: the request text must not be blank.
pub fn cycle_new_request(a: CycleNewArgs) -> Result<crate::commands::cycle::NewRequest> {
    if a.request.trim().is_empty() {
        return Err(Error::usage(format!(
            "a request is required: `--request` must name the change in words\n{CYCLE_NEW_USAGE}"
        )));
    }
    Ok(crate::commands::cycle::NewRequest { request: a.request })
}

/// A validated `cycle new` request.
#[derive(Debug, Clone)]
pub struct NewRequest {
    /// The user's request text; never empty after trimming.
    pub request: String,
}

/// Chooses a new ID against `tree` at time `now`, drawing random bytes from
/// `random`. Refuses when STATE.md is missing, conflicted or invalid, or a
/// cycle is active; refuses when five candidates were all taken.
pub fn new_id(
    tree: &dyn Tree,
    request: &NewRequest,
    now: chrono::DateTime<chrono::Utc>,
    random: impl FnMut() -> Result<[u8; 4]>,
) -> Result<String> {
    let state = runtime::load_state(tree)?;
    if state.has_active_cycle() {
        return Err(Error::refused(
            format!(
                "a cycle is still active: {}; a new cycle ID is only generated before the first cycle or after the active cycle is signed off (`SIGNED_OFF`) or cancelled (`CANCELLED`)",
                runtime::describe_cycle(&state)
            ),
            Some("the user signs the active cycle off or cancels it (`git standards cancel`), then run `git standards cycle new --request \"<request text>\"` again".to_string()),
        ));
    }
    let slug = cycle_id::slug(&request.request);
    let scanned = scan::scan(tree);
    match cycle_id::generate(&slug, now, random, |id| claims::is_taken(tree, &scanned, id))? {
        Some(id) => Ok(id),
        None => Err(Error::refused(
            format!(
                "no unused cycle ID could be generated: {} candidates for `{slug}` were all taken by existing records",
                cycle_id::ATTEMPTS
            ),
            Some("try again in a second; the next candidates use a new time and new random digits".to_string()),
        )),
    }
}

/// Four fresh random bytes from the operating system.
pub fn os_random() -> Result<[u8; 4]> {
    let mut bytes = [0u8; 4];
    getrandom::fill(&mut bytes).map_err(|e| {
        Error::Internal(format!(
            "cannot get random bytes from the operating system: {e}"
        ))
    })?;
    Ok(bytes)
}

/// Runs `cycle new`.
pub fn run_new(ctx: &mut Context, request: &NewRequest, json: bool) -> Result<()> {
    let json_flag = if json { " --json" } else { "" };
    let command = format!(
        "cycle new --request {}{json_flag}",
        runtime::shell_word(&request.request)
    );
    let rt = runtime::open_for(&ctx.cwd, Some(&command))?;
    crate::support::conflicts::refuse_during_conflict(ctx, &rt.project, "cycle new")?;
    let id = new_id(&rt.tree, request, chrono::Utc::now(), os_random)?;
    // Issue 21: the event is this command's only product besides the ID, so
    // it is recorded first and the ID is printed only once it is: an ID whose
    // event could not be written is refused (exit 1), never handed out.
    let event = Event::new(EventKind::CycleIdIssued)
        .cycle(id.as_str())
        .detail("request", request.request.as_str());
    audit::append_before(ctx, &rt.project, event)?;
    super::print_result(
        ctx.out,
        json,
        &id,
        serde_json::json!({"ok": true, "id": id}),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;
    use standards_core::model::layout::STATE_PATH;
    use standards_core::model::state::fresh_template;
    use standards_core::model::tree::MemTree;
    use standards_core::model::vocab::ProjectMode;

    fn now() -> chrono::DateTime<chrono::Utc> {
        chrono::Utc
            .with_ymd_and_hms(2026, 9, 27, 19, 1, 46)
            .unwrap()
    }

    fn request(text: &str) -> NewRequest {
        NewRequest {
            request: text.into(),
        }
    }

    fn fresh() -> MemTree {
        MemTree::new().with(STATE_PATH, fresh_template(ProjectMode::Brownfield))
    }

    fn active(state: &str) -> MemTree {
        let text = fresh_template(ProjectMode::Brownfield)
            .replace(
                "`WorkflowState`: `AUDITING`",
                &format!("`WorkflowState`: `{state}`"),
            )
            .replace("`Id`: `UNSET`", "`Id`: `old-20260101T000000Z-00000000`");
        MemTree::new().with(STATE_PATH, text)
    }

    #[test]
    fn prints_slug_time_and_random_digits() {
        let id = new_id(&fresh(), &request("Add user search"), now(), || {
            Ok([0x7b, 0xef, 0x0f, 0x04])
        })
        .unwrap();
        assert_eq!(id, "add-user-search-20260927T190146Z-7bef0f04");
    }

    #[test]
    fn skips_ids_taken_by_records_and_paths() {
        let taken = "search-20260927T190146Z-00000001";
        let also = "search-20260927T190146Z-00000002";
        let t = fresh()
            .with(
                &format!(".standards/docs/reviews/{taken}/implementation.md"),
                "x",
            )
            .with(
                "archive/plan.md",
                format!("<!-- STANDARDS\nArtifact: DEVELOPMENT\nCycle: {also}\n-->\n"),
            );
        let mut n = 0u8;
        let id = new_id(&t, &request("Search"), now(), || {
            n += 1;
            Ok([0, 0, 0, n])
        })
        .unwrap();
        assert_eq!(id, "search-20260927T190146Z-00000003");
    }

    #[test]
    fn refuses_after_five_taken_candidates() {
        let t = fresh().with(
            ".standards/docs/scope/search-20260927T190146Z-00000000.md",
            "x",
        );
        let e = new_id(&t, &request("Search"), now(), || Ok([0; 4])).unwrap_err();
        assert!(
            e.to_string()
                .contains("no unused cycle ID could be generated"),
            "{e}"
        );
    }

    #[test]
    fn refuses_while_a_cycle_is_active_and_allows_after_it_ended() {
        let e = new_id(&active("SCOPING"), &request("x"), now(), || Ok([0; 4])).unwrap_err();
        let msg = e.to_string();
        assert!(msg.contains("a cycle is still active"), "{msg}");
        assert!(msg.contains("old-20260101T000000Z-00000000"), "{msg}");
        assert!(msg.contains("SCOPING"), "{msg}");
        assert!(
            msg.contains("signed off") && msg.contains("cancelled"),
            "{msg}"
        );
        for ended in ["SIGNED_OFF", "CANCELLED"] {
            assert!(new_id(&active(ended), &request("x"), now(), || Ok([0; 4])).is_ok());
        }
    }

    #[test]
    fn randomness_failures_are_internal_errors() {
        let e = new_id(&fresh(), &request("x"), now(), || {
            Err(Error::Internal("no entropy".into()))
        })
        .unwrap_err();
        assert!(matches!(e, Error::Internal(_)));
    }
}
