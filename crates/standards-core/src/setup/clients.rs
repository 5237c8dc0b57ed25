//! Agent-client integration as pure text and JSON transforms (RT §7.6.4-7.6.8,
//! §7.8, RF §12, decisions D3, D9): the managed blocks of `AGENTS.md` and
//! `CLAUDE.md`, the Claude Code settings, the Codex hooks file and the
//! ownership record. A file whose content nothing of ours changes keeps its
//! bytes.

use serde_json::{json, Map, Value};

/// The boundaries of a managed block.
pub const BLOCK_START: &str = "<!-- standards:start -->";
pub const BLOCK_END: &str = "<!-- standards:end -->";

/// The `AGENTS.md` managed block (RF §12.1), in our words.
pub const AGENTS_BLOCK: &str = "<!-- standards:start -->

# S.T.A.N.D.A.R.D.S.

This project runs the S.T.A.N.D.A.R.D.S. workflow. Before you act on an invoked STANDARDS role skill other than Navigator, or on any other STANDARDS workflow request (choosing the next cycle's mode, changing the completion policy, switching verification cadence, starting, reworking, promoting, cancelling or signing off a cycle, resetting or uninstalling), read all of `.standards/PROTOCOL.md` (in consecutive parts when a read returns only part of it) and every chapter in `.standards/protocol/` that its reading guide names, and follow them. Without that, do not change workflow state or records.
<!-- standards:end -->
";

/// The `CLAUDE.md` managed block (RF §12.2).
pub const CLAUDE_BLOCK: &str = "<!-- standards:start -->

@AGENTS.md
<!-- standards:end -->
";

/// The stop-hook commands (D3). Claude Code runs hooks in the project folder
/// it names in `CLAUDE_PROJECT_DIR`; Codex runs them where the session is, and
/// the hook finds the project upwards from there.
pub const CLAUDE_HOOK_COMMAND: &str =
    "cd \"${CLAUDE_PROJECT_DIR:-.}\" && git standards hook stop --client claude";
pub const CODEX_HOOK_COMMAND: &str = "git standards hook stop --client codex";
/// How our handlers are recognised (D3), and the Node runtime's.
pub const OUR_HOOK_MARK: &str = "git standards hook";
pub const NODE_HOOK_MARK: &str = ".standards/bin/hook.mjs";
/// The stop hook's timeout in seconds (RF §12.3).
pub const HOOK_TIMEOUT: u64 = 120;
/// The `$schema` a created Claude settings file starts with (RF §12.4, D9).
pub const CLAUDE_SCHEMA: &str = "https://json.schemastore.org/claude-code-settings.json";
/// The value that makes a Claude skill user-invocable only.
pub const USER_INVOCABLE_ONLY: &str = "user-invocable-only";

/// The byte range of the file's managed block, boundaries included; `None`
/// without one; an error for anything but one start before one end.
pub fn block_span(text: &str, file: &str) -> Result<Option<std::ops::Range<usize>>, String> {
    let starts = text.matches(BLOCK_START).count();
    let ends = text.matches(BLOCK_END).count();
    match (starts, ends) {
        (0, 0) => Ok(None),
        (1, 1) => {
            let s = text.find(BLOCK_START).expect("counted");
            let e = text.find(BLOCK_END).expect("counted");
            if s < e {
                Ok(Some(s..e + BLOCK_END.len()))
            } else {
                Err(format!("invalid STANDARDS block in {file}: the end marker comes before the start marker"))
            }
        }
        _ => Err(format!(
            "invalid STANDARDS block in {file}: {starts} `{BLOCK_START}` and {ends} `{BLOCK_END}` markers (exactly one of each, in order, or none)"
        )),
    }
}

/// Merges a managed block into a file (RT §7.6.4): the template when the
/// file is absent (or empty), the block replaced in place, or appended after
/// one blank line, in the file's own line ending.
pub fn merge_block(existing: Option<&str>, template: &str, file: &str) -> Result<String, String> {
    let Some(text) = existing.filter(|t| !t.is_empty()) else {
        return Ok(template.to_string());
    };
    let span = block_span(text, file)?;
    let eol = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let block = template.trim_end().replace('\n', eol);
    Ok(match span {
        Some(r) => format!("{}{block}{}", &text[..r.start], &text[r.end..]),
        None => {
            let gap = if text.ends_with('\n') {
                eol.to_string()
            } else {
                format!("{eol}{eol}")
            };
            format!("{text}{gap}{block}{eol}")
        }
    })
}

/// Lines of `text` outside its managed block that consist of `@AGENTS.md`.
fn user_imports(text: &str, span: Option<&std::ops::Range<usize>>) -> usize {
    let outside = match span {
        Some(r) => format!("{}\n{}", &text[..r.start], &text[r.end..]),
        None => text.to_string(),
    };
    outside.lines().filter(|l| l.trim() == "@AGENTS.md").count()
}

/// `CLAUDE.md` (RT §7.6.4): when the user already imports `@AGENTS.md`
/// outside the block, no block is kept; otherwise the block is merged.
/// Returns the text and warnings.
pub fn merge_claude_md(existing: Option<&str>) -> Result<(String, Vec<String>), String> {
    if let Some(text) = existing {
        let span = block_span(text, "CLAUDE.md")?;
        let imports = user_imports(text, span.as_ref());
        if imports > 0 {
            let mut warnings = Vec::new();
            if imports > 1 {
                warnings.push("CLAUDE.md has more than one user-owned `@AGENTS.md` import".into());
            }
            let kept = remove_block(text, "CLAUDE.md")?.unwrap_or_default();
            return Ok((
                if span.is_some() {
                    kept
                } else {
                    text.to_string()
                },
                warnings,
            ));
        }
    }
    Ok((
        merge_block(existing, CLAUDE_BLOCK, "CLAUDE.md")?,
        Vec::new(),
    ))
}

/// Removes the managed block (RT §7.8 step 4). `Ok(Some(rest))` with the
/// remaining text (empty when only whitespace remains: delete the file);
/// `Ok(None)` when there is no block.
pub fn remove_block(text: &str, file: &str) -> Result<Option<String>, String> {
    let Some(r) = block_span(text, file)? else {
        return Ok(None);
    };
    let before = &text[..r.start];
    let mut after = &text[r.end..];
    if let Some(rest) = after
        .strip_prefix("\r\n")
        .or_else(|| after.strip_prefix('\n'))
    {
        after = rest;
    }
    let before = before
        .strip_suffix("\r\n\r\n")
        .map(|b| format!("{b}\r\n"))
        .or_else(|| before.strip_suffix("\n\n").map(|b| format!("{b}\n")))
        .unwrap_or_else(|| before.to_string());
    let rest = format!("{before}{after}");
    Ok(Some(if rest.trim().is_empty() {
        String::new()
    } else {
        rest
    }))
}

/// Two-space JSON plus one newline, keys in their order (RF §12.4).
pub fn to_json_text(v: &Value) -> String {
    let mut t = serde_json::to_string_pretty(v).expect("JSON values serialise");
    t.push('\n');
    t
}

/// Parses a settings file as a JSON object.
pub fn parse_object(text: &str, file: &str) -> Result<Map<String, Value>, String> {
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(m)) => Ok(m),
        Ok(_) => Err(format!("{file} is not a JSON object")),
        Err(e) => Err(format!("{file} is not valid JSON: {e}")),
    }
}

/// Whether a hook handler is ours or the Node runtime's (D3).
pub fn is_standards_handler(handler: &Value) -> bool {
    handler
        .get("command")
        .and_then(Value::as_str)
        .is_some_and(|c| c.contains(OUR_HOOK_MARK) || c.contains(NODE_HOOK_MARK))
}

fn is_node_handler(handler: &Value) -> bool {
    handler
        .get("command")
        .and_then(Value::as_str)
        .is_some_and(|c| c.contains(NODE_HOOK_MARK))
}

/// The Stop group we add for a command.
pub fn hook_group(command: &str) -> Value {
    json!({"hooks": [{"type": "command", "command": command, "timeout": HOOK_TIMEOUT}]})
}

/// What a hook merge found.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct HookMerge {
    /// STANDARDS handlers that were there before, in order.
    pub before: Vec<Value>,
    /// How many of them the Node runtime left.
    pub node_handlers: usize,
    /// The hook event of each handler the Node runtime left, in order
    /// (`Stop` for its stop handler, `PreToolUse` for its edit guard).
    pub node_events: Vec<String>,
}

/// RT §7.6.8: removes every STANDARDS handler (dropping groups and events
/// that become empty, and `hooks` itself), then appends our Stop group when
/// `command` is given.
pub fn merge_hooks(
    settings: &mut Map<String, Value>,
    command: Option<&str>,
    file: &str,
) -> Result<HookMerge, String> {
    let mut found = HookMerge::default();
    if let Some(hooks) = settings.get_mut("hooks") {
        let Value::Object(events) = hooks else {
            return Err(format!(
                "invalid hooks in {file}: `hooks` must be an object"
            ));
        };
        if events.values().any(|v| !v.is_array()) {
            return Err(format!(
                "invalid hooks in {file}: every event must hold an array"
            ));
        }
        let names: Vec<String> = events.keys().cloned().collect();
        for name in names {
            let Some(Value::Array(groups)) = events.get_mut(&name) else {
                continue;
            };
            let mut kept = Vec::new();
            for mut group in std::mem::take(groups) {
                let Some(Value::Array(handlers)) = group.get_mut("hooks") else {
                    kept.push(group);
                    continue;
                };
                let before = handlers.len();
                handlers.retain(|h| {
                    if is_standards_handler(h) {
                        found.before.push(h.clone());
                        if is_node_handler(h) {
                            found.node_handlers += 1;
                            found.node_events.push(name.clone());
                        }
                        false
                    } else {
                        true
                    }
                });
                if handlers.is_empty() && before > 0 {
                    continue;
                }
                kept.push(group);
            }
            if kept.is_empty() {
                events.remove(&name);
            } else {
                *groups = kept;
            }
        }
        if events.is_empty() {
            settings.remove("hooks");
        }
    }
    if let Some(command) = command {
        let hooks = settings
            .entry("hooks")
            .or_insert_with(|| Value::Object(Map::new()));
        let events = hooks.as_object_mut().expect("checked or created above");
        let stop = events
            .entry("Stop")
            .or_insert_with(|| Value::Array(Vec::new()));
        stop.as_array_mut()
            .expect("checked above")
            .push(hook_group(command));
    }
    Ok(found)
}

/// The text to write for a settings object: `None` when the file existed and
/// its serialised content is unchanged (its bytes are kept). A changed file
/// is written in the style it was found in (issue 29, item 3): its
/// indentation (spaces or tabs, any width), or one line with or without
/// spaces after `:` and `,`; its line endings and its final newline or none.
/// With the keys in their order (`preserve_order`), only the entries we own
/// change. A new file, or one in no style recognised here, gets two spaces.
pub fn settings_text(
    original: Option<(&str, &Map<String, Value>)>,
    now: &Map<String, Value>,
) -> Option<String> {
    let now_v = Value::Object(now.clone());
    if let Some((_, before)) = original {
        if serde_json::to_string(&Value::Object(before.clone())).ok()
            == serde_json::to_string(&now_v).ok()
        {
            return None;
        }
    }
    match original.and_then(|(text, before)| JsonStyle::detect(text, before)) {
        Some(style) => Some(style.render(&now_v)),
        None => Some(to_json_text(&now_v)),
    }
}

/// How a JSON file is laid out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonStyle {
    /// One indentation level (`None`: the whole value on one line).
    indent: Option<String>,
    /// On one line: a space after each `:` and after each `,`.
    colon_space: bool,
    comma_space: bool,
    crlf: bool,
    final_newline: bool,
}

impl JsonStyle {
    /// The style of `text` (which parses to `value`), when it is one.
    pub fn detect(text: &str, value: &Map<String, Value>) -> Option<JsonStyle> {
        let crlf = text.contains("\r\n");
        let final_newline = text.ends_with('\n');
        let body = text.trim_end_matches(['\n', '\r']);
        if !body.starts_with('{') {
            return None;
        }
        if !body.contains('\n') {
            // One line: the separators that give back the same bytes.
            let v = Value::Object(value.clone());
            for (colon_space, comma_space) in
                [(false, false), (true, true), (true, false), (false, true)]
            {
                let style = JsonStyle {
                    indent: None,
                    colon_space,
                    comma_space,
                    crlf,
                    final_newline,
                };
                if style.body(&v) == body {
                    return Some(style);
                }
            }
            return None;
        }
        // Several lines: `{` alone on the first, the first entry indented by
        // one level of tabs or spaces.
        let mut lines = body.lines();
        if lines.next()?.trim_end() != "{" {
            return None;
        }
        let second = lines.next()?;
        let unit: String = second
            .chars()
            .take_while(|c| *c == ' ' || *c == '\t')
            .collect();
        let uniform =
            !unit.is_empty() && (unit.chars().all(|c| c == ' ') || unit.chars().all(|c| c == '\t'));
        uniform.then_some(JsonStyle {
            indent: Some(unit),
            colon_space: true,
            comma_space: false,
            crlf,
            final_newline,
        })
    }

    /// The whole file for `value` in this style.
    pub fn render(&self, value: &Value) -> String {
        let mut text = self.body(value);
        if self.final_newline {
            text.push('\n');
        }
        if self.crlf {
            // JSON strings hold no raw line breaks: every `\n` is layout.
            text = text.replace('\n', "\r\n");
        }
        text
    }

    fn body(&self, value: &Value) -> String {
        use serde::Serialize;
        let mut out = Vec::new();
        let written = match &self.indent {
            Some(unit) => {
                let f = serde_json::ser::PrettyFormatter::with_indent(unit.as_bytes());
                value.serialize(&mut serde_json::Serializer::with_formatter(&mut out, f))
            }
            None => {
                let f = Spaced {
                    colon: self.colon_space,
                    comma: self.comma_space,
                };
                value.serialize(&mut serde_json::Serializer::with_formatter(&mut out, f))
            }
        };
        written.expect("JSON values serialise");
        String::from_utf8(out).expect("serde_json writes UTF-8")
    }
}

/// One-line JSON with or without a space after `:` and `,`.
struct Spaced {
    colon: bool,
    comma: bool,
}

impl serde_json::ser::Formatter for Spaced {
    fn begin_array_value<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        match (first, self.comma) {
            (true, _) => Ok(()),
            (false, true) => w.write_all(b", "),
            (false, false) => w.write_all(b","),
        }
    }

    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.begin_array_value(w, first)
    }

    fn begin_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        w.write_all(if self.colon { b": " } else { b":" })
    }
}

/// The ownership record (RF §11.2) as a JSON object, edited in place with
/// its key order kept.
#[derive(Debug, Clone)]
pub struct Manifest {
    pub value: Map<String, Value>,
}

impl Manifest {
    pub fn parse(text: &str) -> Result<Manifest, String> {
        Ok(Manifest {
            value: parse_object(text, ".standards/INSTALLATION.json")?,
        })
    }

    fn overrides_mut(&mut self) -> &mut Map<String, Value> {
        let m = self
            .value
            .entry("managedClientSettings")
            .or_insert_with(|| json!({}));
        if !m.is_object() {
            *m = json!({});
        }
        let f = m
            .as_object_mut()
            .expect("object")
            .entry(".claude/settings.json")
            .or_insert_with(|| json!({}));
        if !f.is_object() {
            *f = json!({});
        }
        let o = f
            .as_object_mut()
            .expect("object")
            .entry("skillOverrides")
            .or_insert_with(|| json!({}));
        if !o.is_object() {
            *o = json!({});
        }
        o.as_object_mut().expect("object")
    }

    /// Roles whose `skillOverrides` value the installer owns.
    pub fn owned_overrides(&self) -> Vec<String> {
        self.value
            .get("managedClientSettings")
            .and_then(|m| m.get(".claude/settings.json"))
            .and_then(|f| f.get("skillOverrides"))
            .and_then(Value::as_object)
            .map(|o| o.keys().cloned().collect())
            .unwrap_or_default()
    }

    pub fn own_override(&mut self, role: &str) {
        self.overrides_mut()
            .insert(role.into(), json!(USER_INVOCABLE_ONLY));
    }

    pub fn disown_override(&mut self, role: &str) {
        self.overrides_mut().shift_remove(role);
    }

    fn list(&self, key: &str) -> Vec<String> {
        self.value
            .get(key)
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default()
    }

    pub fn created_paths(&self) -> Vec<String> {
        self.list("createdPaths")
    }

    pub fn record_created(&mut self, path: &str) {
        let mut list = self.created_paths();
        if !list.iter().any(|p| p == path) {
            list.push(path.into());
            self.value.insert("createdPaths".into(), json!(list));
        }
    }

    pub fn forget_created(&mut self, path: &str) {
        let list: Vec<String> = self
            .created_paths()
            .into_iter()
            .filter(|p| p != path)
            .collect();
        if self.value.contains_key("createdPaths") {
            self.value.insert("createdPaths".into(), json!(list));
        }
    }

    pub fn hooks(&self) -> Option<Vec<String>> {
        self.value.contains_key("hooks").then(|| self.list("hooks"))
    }

    pub fn set_hooks(&mut self, files: &[&str]) {
        self.value.insert("hooks".into(), json!(files));
    }

    /// The digest recorded for a skill file install wrote (`skillFiles`).
    pub fn skill_digest(&self, path: &str) -> Option<String> {
        self.value
            .get(SKILL_FILES)
            .and_then(|f| f.get(path))
            .and_then(Value::as_str)
            .map(String::from)
    }

    /// Records that install wrote `content` at the skill path `path`.
    pub fn record_skill_file(&mut self, path: &str, content: &[u8]) {
        let files = self.value.entry(SKILL_FILES).or_insert_with(|| json!({}));
        if !files.is_object() {
            *files = json!({});
        }
        files
            .as_object_mut()
            .expect("object")
            .insert(path.into(), json!(digest(content)));
    }

    pub fn forget_skill_file(&mut self, path: &str) {
        if let Some(Value::Object(files)) = self.value.get_mut(SKILL_FILES) {
            files.shift_remove(path);
        }
    }

    /// The top-level keys install added to the settings file `file` (the
    /// user's file had none of them): removal takes such a key out once it
    /// is empty again, and never a key the user had.
    pub fn created_keys(&self, file: &str) -> Vec<String> {
        self.value
            .get(CREATED_KEYS)
            .and_then(|f| f.get(file))
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Records that install added the top-level key `key` to `file`.
    pub fn record_created_key(&mut self, file: &str, key: &str) {
        let mut keys = self.created_keys(file);
        if keys.iter().any(|k| k == key) {
            return;
        }
        keys.push(key.into());
        let files = self.value.entry(CREATED_KEYS).or_insert_with(|| json!({}));
        if !files.is_object() {
            *files = json!({});
        }
        files
            .as_object_mut()
            .expect("object")
            .insert(file.into(), json!(keys));
    }

    /// Forgets every key recorded for `file` (dropping the record when empty).
    pub fn forget_created_keys(&mut self, file: &str) {
        if let Some(Value::Object(files)) = self.value.get_mut(CREATED_KEYS) {
            files.shift_remove(file);
            if files.is_empty() {
                self.value.shift_remove(CREATED_KEYS);
            }
        }
    }

    pub fn text(&self) -> String {
        to_json_text(&Value::Object(self.value.clone()))
    }
}

/// The `INSTALLATION.json` key recording, per settings file, the top-level
/// keys install added to a file the user already had (file -> key list).
/// Without it, removal could not tell an emptied `skillOverrides` install
/// created from one the user wrote, and would have to leave it behind.
pub const CREATED_KEYS: &str = "createdKeys";

/// The `INSTALLATION.json` key recording every skill file install wrote,
/// path -> [`digest`] of the bytes written. The reference records none; with
/// it, a file an older version wrote (unchanged since) is told apart from one
/// the user edited, so install upgrades the first and keeps the second, and
/// removal takes skills of roles this version no longer ships.
pub const SKILL_FILES: &str = "skillFiles";

/// `sha256:` and the lowercase hex SHA-256 of `bytes`.
pub fn digest(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    let hex: String = Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("sha256:{hex}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_merge_in_place_append_and_keep_line_endings() {
        assert_eq!(
            merge_block(None, AGENTS_BLOCK, "AGENTS.md").unwrap(),
            AGENTS_BLOCK
        );
        let user = "# Project\nKeep\n";
        let merged = merge_block(Some(user), AGENTS_BLOCK, "AGENTS.md").unwrap();
        assert_eq!(merged, format!("# Project\nKeep\n\n{AGENTS_BLOCK}"));
        assert_eq!(
            merge_block(Some(&merged), AGENTS_BLOCK, "AGENTS.md").unwrap(),
            merged
        );
        assert_eq!(remove_block(&merged, "AGENTS.md").unwrap().unwrap(), user);
        let crlf = "# Project\r\nKeep me\r\n";
        let merged = merge_block(Some(crlf), AGENTS_BLOCK, "AGENTS.md").unwrap();
        assert!(!merged.replace("\r\n", "").contains('\n'));
        let appended = format!("{merged}\r\nMine\r\n");
        assert_eq!(
            remove_block(&appended, "AGENTS.md").unwrap().unwrap(),
            "# Project\r\nKeep me\r\n\r\nMine\r\n"
        );
        // Only the block: nothing remains.
        assert_eq!(
            remove_block(AGENTS_BLOCK, "AGENTS.md").unwrap().unwrap(),
            ""
        );
    }

    #[test]
    fn invalid_boundaries_are_refused() {
        for bad in [
            format!("{BLOCK_START}\n"),
            format!("{BLOCK_END}\n{BLOCK_START}\n"),
            format!("{BLOCK_START}{BLOCK_END}{BLOCK_START}{BLOCK_END}"),
        ] {
            assert!(merge_block(Some(&bad), AGENTS_BLOCK, "AGENTS.md")
                .unwrap_err()
                .contains("invalid STANDARDS block in AGENTS.md"));
        }
    }

    #[test]
    fn claude_md_keeps_a_user_import() {
        let user = "# Claude notes\n@AGENTS.md\n";
        assert_eq!(merge_claude_md(Some(user)).unwrap().0, user);
        let two = "@AGENTS.md\n @AGENTS.md \n";
        assert_eq!(merge_claude_md(Some(two)).unwrap().1.len(), 1);
        let plain = "# Claude notes\n";
        let merged = merge_claude_md(Some(plain)).unwrap().0;
        assert!(merged.contains("@AGENTS.md"));
        assert_eq!(remove_block(&merged, "CLAUDE.md").unwrap().unwrap(), plain);
    }

    #[test]
    fn hook_merge_keeps_other_hooks_and_replaces_ours_and_node_ones() {
        let text = r#"{"theme":"dark","hooks":{"Stop":[{"hooks":[{"type":"command","command":"npm run lint"}]},{"hooks":[{"type":"command","command":"node \"$CLAUDE_PROJECT_DIR/.standards/bin/hook.mjs\" stop","timeout":120}]}],"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"x"}]}]}}"#;
        let mut m = parse_object(text, "s").unwrap();
        let found = merge_hooks(&mut m, Some(CLAUDE_HOOK_COMMAND), "s").unwrap();
        assert_eq!(found.node_handlers, 1);
        assert_eq!(found.node_events, ["Stop"]);
        let stop = m["hooks"]["Stop"].as_array().unwrap();
        assert_eq!(stop.len(), 2);
        assert_eq!(stop[0]["hooks"][0]["command"], "npm run lint");
        assert_eq!(stop[1]["hooks"][0]["command"], CLAUDE_HOOK_COMMAND);
        assert_eq!(m["hooks"]["PreToolUse"][0]["matcher"], "Bash");
        // Removing ours leaves exactly the user's hooks.
        merge_hooks(&mut m, None, "s").unwrap();
        assert_eq!(m["hooks"]["Stop"].as_array().unwrap().len(), 1);
        let mut only_ours = parse_object(
            r#"{"hooks":{"Stop":[{"hooks":[{"command":"git standards hook stop"}]}]}}"#,
            "s",
        )
        .unwrap();
        merge_hooks(&mut only_ours, None, "s").unwrap();
        assert!(only_ours.is_empty());
        let mut bad = parse_object(r#"{"hooks":[]}"#, "s").unwrap();
        assert!(merge_hooks(&mut bad, None, "s")
            .unwrap_err()
            .contains("invalid hooks"));
    }

    #[test]
    fn unchanged_settings_keep_their_bytes() {
        let text = "{ \"b\": 1,\n \"a\": 2 }";
        let m = parse_object(text, "s").unwrap();
        assert_eq!(settings_text(Some((text, &m)), &m), None);
        let mut changed = m.clone();
        changed.insert("c".into(), json!(3));
        assert_eq!(
            settings_text(Some((text, &m)), &changed).unwrap(),
            "{\n  \"b\": 1,\n  \"a\": 2,\n  \"c\": 3\n}\n"
        );
    }

    /// Issue 29 item 3: a settings file in any of these styles gets our Stop
    /// group added in its own style, every other line byte for byte.
    #[test]
    fn a_changed_settings_file_keeps_its_style() {
        let value =
            json!({"theme": "dark", "permissions": {"allow": ["Bash(ls)", "Read"]}, "env": {}});
        let four = |unit: &str| {
            let mut out = Vec::new();
            let f = serde_json::ser::PrettyFormatter::with_indent(unit.as_bytes());
            serde::Serialize::serialize(
                &value,
                &mut serde_json::Serializer::with_formatter(&mut out, f),
            )
            .unwrap();
            String::from_utf8(out).unwrap()
        };
        let styles = [
            format!("{}\n", four("  ")),
            format!("{}\n", four("    ")),
            format!("{}\n", four("\t")),
            four("    ").replace('\n', "\r\n"),
            serde_json::to_string(&value).unwrap(),
            format!(
                "{}\n",
                serde_json::to_string(&value)
                    .unwrap()
                    .replace("\":", "\": ")
                    .replace(",", ", ")
            ),
        ];
        for text in &styles {
            let before = parse_object(text, "s").unwrap();
            let mut now = before.clone();
            merge_hooks(&mut now, Some(CLAUDE_HOOK_COMMAND), "s").unwrap();
            let out = settings_text(Some((text, &before)), &now).unwrap();
            // Our entry goes, and the user's file comes back byte for byte.
            let mut back = parse_object(&out, "s").unwrap();
            merge_hooks(&mut back, None, "s").unwrap();
            assert_eq!(
                settings_text(Some((&out, &now)), &back).unwrap(),
                *text,
                "{text}"
            );
            // Every line of the original is still there, as it was (the last
            // entry before ours gains the comma JSON needs).
            if text.contains('\n') && !text.starts_with("{\"") {
                let lines: Vec<&str> = out.lines().map(|l| l.trim_end_matches(',')).collect();
                for line in text.lines().filter(|l| !l.trim().starts_with('}')) {
                    assert!(
                        lines.contains(&line.trim_end_matches(',')),
                        "{line:?} lost in {out}"
                    );
                }
            }
            assert_eq!(out.ends_with('\n'), text.ends_with('\n'), "{out}");
            assert_eq!(out.contains("\r\n"), text.contains("\r\n"), "{out}");
            assert_eq!(
                out.trim_end().contains('\n'),
                text.trim_end().contains('\n'),
                "{out}"
            );
        }
    }
}
