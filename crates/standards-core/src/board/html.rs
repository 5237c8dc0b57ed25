//! The board as one self-contained HTML page, from the board's JSON document
//! (`board --html <file>`): a plain table of the rows.

/// The page for `document` (the `board --json` object).
pub fn render(document: &serde_json::Value) -> String {
    let esc = |s: &str| {
        s.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
            .replace('"', "&quot;")
    };
    let text = |v: &serde_json::Value| esc(v.as_str().unwrap_or("-"));
    let mut rows = String::new();
    for row in document["rows"].as_array().into_iter().flatten() {
        let projects = row["projects"].as_array();
        let joined = |key: &str| {
            projects
                .into_iter()
                .flatten()
                .map(|p| text(&p[key]))
                .collect::<Vec<_>>()
                .join(", ")
        };
        rows.push_str(&format!(
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
            text(&row["name"]),
            joined("state"),
            joined("owner"),
            text(&row["readiness"]),
        ));
    }
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>git standards board</title></head>\n<body><h1>Branches (main: {})</h1><p>Generated {}</p>\n<table><thead><tr><th>Name</th><th>State</th><th>Owner</th><th>Readiness</th></tr></thead><tbody>\n{rows}</tbody></table></body></html>\n",
        text(&document["mainBranch"]),
        text(&document["generatedAt"]),
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn rows_are_escaped() {
        let doc = serde_json::json!({
            "mainBranch": "main",
            "generatedAt": "2026-12-02T10:00:00Z",
            "rows": [{"name": "<b>", "projects": [{"state": "DEVELOPING", "owner": "Developer"}], "readiness": "active"}],
        });
        let page = super::render(&doc);
        assert!(
            page.contains("<td>&lt;b&gt;</td><td>DEVELOPING</td><td>Developer</td><td>active</td>"),
            "{page}"
        );
        assert!(page.starts_with("<!DOCTYPE html>"));
    }
}
