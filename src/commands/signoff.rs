//! `git standards signoff`: a sign-off bound to a person and to the content
//! (issue 26). The move itself is `transition::signoff` (its contract is
//! re-checked first); this adds, under the same lock and before the write:
//!
//! - the person's reply, verbatim (`--reply`);
//! - where the prompt hook is registered, evidence that a person spoke: a
//!   `human-turn` event recorded while the cycle was at
//!   AWAITING_USER_SIGNOFF, after it last reached that state (with
//!   `standards.recordPrompts`, the reply must be part of that prompt), or
//!   the documented override `--no-human-turn-check`, which the event records;
//! - the content signed off: HEAD's commit, the tree IDs of the project and
//!   of `.standards/docs/` there, and whether the working tree differed.

use serde_json::{json, Value};

use crate::commands::{transition, Context};
use crate::error::{Error, Result};
use crate::repo::{agent, Project};
use standards_core::model::state::StateDoc;
use standards_core::model::tree::{Text, Tree};
use standards_core::model::vocab::WorkflowState;
use standards_core::setup::agent_hooks::{self as ah, PROMPT_SUBMIT};
use standards_core::workflow::transition::dispatch::Move;

// `signoff`'s options (a plain comment: a doc comment would replace the
// subcommand's own description, since clap builds these arguments deferred).
#[derive(Debug, clap::Args)]
pub struct SignoffArgs {
    /// The person's reply that decided the sign-off, verbatim (kept in the `signed-off` event).
    #[arg(long, value_name = "text", allow_hyphen_values = true, value_parser = reply_value)]
    pub reply: Option<String>,
    /// Sign off without a recorded human turn (a person at a terminal, or a team without the prompt hook); the event records the override.
    #[arg(long)]
    pub no_human_turn_check: bool,
    /// Print one JSON object on stdout instead of the next step (keys: TRANSITION JSON below); a refusal prints `{"ok": false, "error", "hint"}`.
    #[arg(long)]
    pub json: bool,
}

/// A person's reply: any text that is not blank, kept verbatim.
fn reply_value(s: &str) -> std::result::Result<String, String> {
    if s.trim().is_empty() {
        Err("the reply must not be empty: relay the person's words".into())
    } else {
        Ok(s.to_string())
    }
}

/// What the person asked for.
#[derive(Debug, Clone, Default)]
pub struct Request {
    pub reply: Option<String>,
    pub no_human_turn_check: bool,
}

/// The client settings files where the prompt hook may be registered.
pub const HOOK_FILES: &[&str] = &[".claude/settings.json", ".codex/hooks.json"];

const AWAITING: &str = "AWAITING_USER_SIGNOFF";

/// `git standards signoff [--reply <text>] [--no-human-turn-check]`.
pub fn run(ctx: &mut Context, request: Request, json: bool) -> Result<()> {
    let bind =
        |project: &Project, tree: &dyn Tree, doc: &StateDoc| bind(project, tree, doc, &request);
    transition::record_with(ctx, Move::Signoff, json, Some(&bind)).map(drop)
}

/// The files of `tree` that register the prompt hook.
pub fn prompt_hook_files(tree: &dyn Tree) -> Vec<&'static str> {
    HOOK_FILES
        .iter()
        .copied()
        .filter(|f| match tree.text(f) {
            Text::Ok(t) => {
                serde_json::from_str::<Value>(&t).is_ok_and(|v| ah::registers(&v, PROMPT_SUBMIT))
            }
            _ => false,
        })
        .collect()
}

/// The latest `human-turn` that counts for sign-off among a cycle's events:
/// recorded at AWAITING_USER_SIGNOFF, after the cycle last reached it.
pub fn counting_turn(events: &[Value]) -> Option<&Value> {
    let ts = |e: &Value| {
        e.get("ts")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    let reached = events
        .iter()
        .filter(|e| e.get("event").and_then(Value::as_str) != Some("human-turn"))
        .filter(|e| e["state"]["after"].as_str() == Some(AWAITING))
        .map(ts)
        .max()
        .unwrap_or_default();
    events
        .iter()
        .filter(|e| e.get("event").and_then(Value::as_str) == Some("human-turn"))
        .filter(|e| e.get("workflow_state").and_then(Value::as_str) == Some(AWAITING))
        .filter(|e| ts(e) > reached)
        .max_by_key(|e| ts(e))
}

fn bind(
    project: &Project,
    tree: &dyn Tree,
    doc: &StateDoc,
    request: &Request,
) -> Result<Vec<(String, Value)>> {
    debug_assert_eq!(doc.workflow_state.value, WorkflowState::AwaitingUserSignoff);
    let cycle = doc.active_work.id.value.clone();
    let hooks = prompt_hook_files(tree);
    let check = if request.no_human_turn_check {
        json!({"result": "overridden", "by": "--no-human-turn-check", "prompt_hook": !hooks.is_empty()})
    } else if hooks.is_empty() {
        json!({"result": "not-checked", "prompt_hook": false})
    } else {
        let events = agent::cycle_events(project, &cycle)?;
        let Some(turn) = counting_turn(&events) else {
            return Err(Error::refused(
                format!(
                    "refused: no person has spoken since the cycle `{cycle}` reached {AWAITING}: the prompt hook (`git standards hook prompt-submit`, registered in {}) recorded no `human-turn` event since then, so nothing shows that a person decided this sign-off",
                    hooks.join(" and ")
                ),
                Some("ask the user whether to sign off, then relay their answer verbatim: `git standards signoff --reply \"<their words>\"`; a person signing off at a terminal (or a team without the hook) runs `git standards signoff --no-human-turn-check`".into()),
            ));
        };
        let Some(reply) = &request.reply else {
            return Err(Error::refused(
                format!("refused: the sign-off of `{cycle}` needs the person's reply: pass it verbatim with --reply"),
                Some("`git standards signoff --reply \"<the user's words>\"`".into()),
            ));
        };
        if let Some(prompt) = turn.get("prompt").and_then(Value::as_str) {
            if !prompt.contains(reply.trim()) {
                return Err(Error::refused(
                    format!("refused: the reply given with --reply is not what the person wrote in their last turn (recorded because `standards.recordPrompts` is on): {reply:?}"),
                    Some("relay the person's reply verbatim, or ask them again".into()),
                ));
            }
        }
        json!({
            "result": "passed",
            "prompt_hook": true,
            "event": turn.get("id"),
            "ts": turn.get("ts"),
        })
    };
    let bound = agent::bound(project)?;
    Ok(vec![
        ("reply".into(), json!(request.reply)),
        ("human_turn".into(), check),
        (
            "bound".into(),
            json!({
                "commit": bound.commit,
                "project_tree": bound.project_tree,
                "docs_tree": bound.docs_tree,
                "uncommitted": bound.uncommitted,
            }),
        ),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(kind: &str, ts: &str, extra: Value) -> Value {
        let mut v = json!({"event": kind, "ts": ts, "id": ts});
        for (k, x) in extra.as_object().unwrap() {
            v[k] = x.clone();
        }
        v
    }

    #[test]
    fn only_a_turn_at_signoff_readiness_after_reaching_it_counts() {
        let reach = |ts: &str| {
            ev(
                "handed-off",
                ts,
                json!({"state": {"before": "DOCUMENTING", "after": AWAITING}}),
            )
        };
        let turn = |ts: &str, state: &str| ev("human-turn", ts, json!({"workflow_state": state}));
        // A turn before the cycle got there does not count.
        let events = vec![turn("1", "DOCUMENTING"), reach("2")];
        assert!(counting_turn(&events).is_none());
        let events = vec![reach("2"), turn("3", AWAITING)];
        assert_eq!(counting_turn(&events).unwrap()["id"], "3");
        // Back to work and here again: the earlier turn is spent.
        let events = vec![reach("2"), turn("3", AWAITING), reach("5")];
        assert!(counting_turn(&events).is_none());
        let events = vec![
            reach("2"),
            turn("3", AWAITING),
            reach("5"),
            turn("6", AWAITING),
            turn("7", AWAITING),
        ];
        assert_eq!(counting_turn(&events).unwrap()["id"], "7");
        // No record of reaching it (a hand edit): a turn at the state counts.
        assert!(counting_turn(&[turn("1", AWAITING)]).is_some());
    }
}
