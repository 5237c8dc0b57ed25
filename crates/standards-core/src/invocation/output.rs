//! The discovery result (RT §6.8) as JSON, keys in the spec's order (D11),
//! and as the text summary (RT §6.9).

use serde_json::{json, Map, Value};

use super::metadata::GroupSource;
use super::resolve::{Diagnostic, GroupResult, Resolution, Resolver, StylesResult};
use super::{assemble, Catalog, Client, Files};

/// Everything discovery found for one role.
#[derive(Debug, Clone)]
pub struct Discovery {
    pub role: String,
    pub client: Option<Client>,
    pub catalog: Option<Catalog>,
    pub groups: Vec<GroupResult>,
    pub styles: Option<StylesResult>,
    pub diagnostics: Vec<Diagnostic>,
}

impl Discovery {
    pub fn complete(&self) -> bool {
        self.catalog.is_some() && self.diagnostics.is_empty()
    }
}

/// Runs discovery for `role`: `client` is the chosen client, or the error
/// that prevented choosing one.
pub fn discover(files: &dyn Files, role: &str, client: Result<Client, String>) -> Discovery {
    let unavailable = |client: Option<Client>, message: String| Discovery {
        role: role.to_string(),
        client,
        catalog: None,
        groups: Vec::new(),
        styles: None,
        diagnostics: vec![Diagnostic {
            source: role.to_string(),
            code: "catalog-error",
            message,
        }],
    };
    if !super::metadata::is_role_id(role) {
        return unavailable(
            client.ok(),
            format!(
                "`{role}` is not a role identifier (lowercase letters, digits and single hyphens)"
            ),
        );
    }
    let client = match client {
        Ok(c) => c,
        Err(e) => return unavailable(None, e),
    };
    let skill_dir = format!("{}/{role}", client.skills_dir());
    let catalog = match assemble(files, &skill_dir, role) {
        Ok(c) => c,
        Err(e) => return unavailable(Some(client), e),
    };
    let mut resolver = Resolver::new(files, &catalog);
    let groups = (0..catalog.block.groups.len())
        .map(|gi| resolver.group(gi))
        .collect();
    let styles = resolver.styles(role);
    let diagnostics = resolver.diagnostics.iter().cloned().collect();
    Discovery {
        role: role.to_string(),
        client: Some(client),
        catalog: Some(catalog),
        groups,
        styles: Some(styles),
        diagnostics,
    }
}

fn resolution(r: &Resolution) -> Value {
    let mut m = Map::new();
    m.insert("status".into(), json!(r.status));
    m.insert("value".into(), json!(r.value));
    if r.status == "known" || r.status == "invalid" {
        m.insert("source".into(), json!(r.source));
    }
    if r.status != "known" {
        m.insert("reason".into(), json!(r.reason));
    }
    Value::Object(m)
}

/// The JSON object of RT §6.8.
pub fn to_json(d: &Discovery) -> Value {
    let mut top = Map::new();
    top.insert("schemaVersion".into(), json!(1));
    top.insert("role".into(), json!(d.role));
    top.insert("client".into(), json!(d.client.map(Client::as_str)));
    top.insert(
        "catalogStatus".into(),
        json!(if d.catalog.is_some() {
            "complete"
        } else {
            "unavailable"
        }),
    );
    top.insert("complete".into(), json!(d.complete()));
    let mut groups = Vec::new();
    if let Some(c) = &d.catalog {
        for (g, r) in c.block.groups.iter().zip(&d.groups) {
            let mut m = Map::new();
            m.insert("id".into(), json!(g.id));
            m.insert("label".into(), json!(g.label));
            m.insert(
                "source".into(),
                json!(match g.source {
                    GroupSource::Modes => "modes",
                    GroupSource::Inline => "inline",
                }),
            );
            m.insert("selectionRules".into(), json!(g.selection_rules));
            if let Some(d) = &g.default_for_new {
                m.insert("defaultForNew".into(), json!(d));
            }
            if g.infer_from_request {
                m.insert("inferFromRequest".into(), json!(true));
            }
            let options: Vec<Value> = g
                .options
                .iter()
                .zip(&r.options)
                .map(|(o, or)| {
                    let mut m = Map::new();
                    m.insert("id".into(), json!(o.id));
                    m.insert("label".into(), json!(o.label));
                    m.insert("description".into(), json!(o.description));
                    m.insert("selection".into(), json!(o.selection.as_str()));
                    if let Some((_, raw)) = &o.when {
                        m.insert("when".into(), raw.clone());
                    }
                    if o.requires_assessment {
                        m.insert("requiresAssessment".into(), json!(true));
                    }
                    if let Some(a) = &o.argument {
                        m.insert("argument".into(), json!(a));
                    }
                    if let Some(f) = &o.instruction_file {
                        m.insert("instructionFile".into(), json!(f));
                    }
                    m.insert("condition".into(), json!(or.condition.as_str()));
                    m.insert("assessmentRequired".into(), json!(or.assessment_required));
                    m.insert("selectability".into(), json!(or.selectability));
                    Value::Object(m)
                })
                .collect();
            m.insert("options".into(), Value::Array(options));
            m.insert("selected".into(), resolution(&r.selected));
            m.insert("savedValue".into(), resolution(&r.saved_value));
            if let Some(a) = &r.saved_argument {
                m.insert("savedArgument".into(), resolution(a));
            }
            m.insert("locked".into(), json!(r.locked.as_str()));
            groups.push(Value::Object(m));
        }
    }
    top.insert("groups".into(), Value::Array(groups));
    top.insert(
        "userStyles".into(),
        match &d.styles {
            None => Value::Null,
            Some(s) => json!({
                "directory": s.directory,
                "status": if s.complete { "complete" } else { "unknown" },
                "options": s.options.iter().map(|o| json!({
                    "id": o.id,
                    "file": o.file,
                    "selector": o.selector,
                    "selectorReason": o.selector_reason,
                })).collect::<Vec<_>>(),
                "savedValue": resolution(&s.saved_value),
                "selected": resolution(&s.selected),
                "locked": s.locked.as_str(),
            }),
        },
    );
    top.insert(
        "diagnostics".into(),
        Value::Array(
            d.diagnostics
                .iter()
                .map(|x| json!({"code": x.code, "source": x.source, "message": x.message}))
                .collect(),
        ),
    );
    if let Some(c) = &d.catalog {
        top.insert(
            "skillFile".into(),
            json!(format!("{}/SKILL.md", c.skill_dir)),
        );
    }
    // Issue 25: like every other `--json` result, `ok` says whether the
    // command succeeded (exit 0); last, so the spec's key order stays (D11).
    top.insert("ok".into(), json!(d.catalog.is_some()));
    Value::Object(top)
}

fn selection_text(r: &Resolution) -> String {
    let mut s = r.status.to_string();
    if let Some(v) = &r.value {
        s.push_str(&format!(": {v}"));
    }
    if let Some(reason) = &r.reason {
        s.push_str(&format!(" ({reason})"));
    }
    s
}

/// The closing line of the text summary.
pub const CLOSING: &str =
    "Discovery does not invoke a role, apply defaults, or waive workflow gates.";

/// The text summary of RT §6.9.
pub fn to_text(d: &Discovery) -> String {
    let mut out = d.role.clone();
    if let Some(c) = d.client {
        out.push_str(&format!(" ({})", c.as_str()));
    }
    out.push_str("\n\n");
    if let Some(c) = &d.catalog {
        for (g, r) in c.block.groups.iter().zip(&d.groups) {
            out.push_str(&format!("{} — {}\n", g.label, selection_text(&r.selected)));
            if r.saved_value.status == "known" {
                out.push_str(&format!(
                    "Saved: {}\n",
                    r.saved_value.value.as_deref().unwrap_or("")
                ));
            }
            if let Some(a) = &r.saved_argument {
                out.push_str(&format!("Target: {}\n", selection_text(a)));
            }
            if let Some(id) = &g.default_for_new {
                out.push_str(&format!("Default for new work only: {id} (not applied)\n"));
            }
            if r.locked.as_str() != "false" {
                out.push_str(&format!("Selection lock: {}\n", r.locked.as_str()));
            }
            for (o, or) in g.options.iter().zip(&r.options) {
                let assess = if or.assessment_required {
                    "; assessment required"
                } else {
                    ""
                };
                out.push_str(&format!(
                    "- {}: {} [{}{assess}]\n",
                    o.id, o.description, or.selectability
                ));
            }
            out.push_str(&format!("Selection rules: {}\n\n", g.selection_rules));
        }
        if let Some(s) = &d.styles {
            let entries: Vec<String> = s
                .options
                .iter()
                .map(|o| match (&o.selector, o.selector_reason) {
                    (Some(sel), _) if sel != &o.id => format!("{} (invoke as {sel})", o.id),
                    (Some(_), _) => o.id.clone(),
                    (None, Some(reason)) => format!("{} ({reason})", o.id),
                    (None, None) => o.id.clone(),
                })
                .collect();
            let status = if s.complete { "complete" } else { "unknown" };
            let list = if entries.is_empty() {
                "none discovered".to_string()
            } else {
                entries.join(", ")
            };
            out.push_str(&format!("User styles ({status} inventory): {list}\n"));
            out.push_str(&format!(
                "Selected style: {}\n",
                selection_text(&s.selected)
            ));
            out.push_str(&format!("Style lock: {}\n\n", s.locked.as_str()));
        }
    }
    if !d.diagnostics.is_empty() {
        out.push_str("Unresolved discovery:\n");
        for x in &d.diagnostics {
            out.push_str(&format!("- {}: {}\n", x.source, x.message));
        }
        out.push('\n');
    }
    out.push_str(CLOSING);
    out.push('\n');
    out
}

#[cfg(test)]
mod tests;
