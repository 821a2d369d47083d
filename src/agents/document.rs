//! A client's configuration file, edited in place: only the places Torii manages change, and
//! everything else (order, spacing, comments) stays as the human wrote it.
//!
//! JSON goes through `jsonc-parser`'s concrete syntax tree and TOML through `toml_edit`, both
//! of which keep the text they did not touch. Values are compared as `serde_json::Value`, so
//! "is this still the entry Torii wrote?" does not depend on formatting.

use serde_json::{Map, Value};

/// The syntax of a client's file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Syntax {
    Json,
    Toml,
}

/// A key path from the top of the document, e.g. `["mcpServers", "torii"]`.
pub type KeyPath = Vec<String>;

/// Why a document cannot be read or edited. The caller adds the file name.
#[derive(Debug, thiserror::Error)]
pub enum DocumentError {
    #[error("{}", crate::tr!("agent-bad-json", reason = .0.as_str()))]
    Json(String),
    #[error("{}", crate::tr!("agent-bad-toml", reason = .0.as_str()))]
    Toml(String),
    #[error("{}", crate::tr!("agent-top-not-object"))]
    TopNotObject,
    #[error("{}", crate::tr!("agent-duplicate-key", key = dotted(.0)))]
    DuplicateKey(KeyPath),
    #[error("`{}` is not {expected}", dotted(.path))]
    WrongType {
        path: KeyPath,
        expected: &'static str,
    },
}

pub fn dotted(path: &[String]) -> String {
    path.join(".")
}

pub struct Document {
    inner: Inner,
}

enum Inner {
    Json(jsonc_parser::cst::CstRootNode),
    Toml(toml_edit::DocumentMut),
}

impl Document {
    /// Parses `text`; empty text (a file that does not exist yet) is an empty document.
    pub fn parse(syntax: Syntax, text: &str) -> Result<Self, DocumentError> {
        let inner = match syntax {
            Syntax::Json => {
                let source = if text.trim().is_empty() { "{}\n" } else { text };
                let root = parse_json(source)?;
                let Some(top) = root.value().and_then(|value| value.as_object()) else {
                    return Err(DocumentError::TopNotObject);
                };
                unique_keys(&top, &mut Vec::new())?;
                Inner::Json(root)
            }
            Syntax::Toml => Inner::Toml(
                text.parse::<toml_edit::DocumentMut>()
                    .map_err(|error| DocumentError::Toml(one_line(&error.to_string())))?,
            ),
        };
        Ok(Self { inner })
    }

    /// The value at `path`, if every key on the way exists.
    pub fn get(&self, path: &[String]) -> Result<Option<Value>, DocumentError> {
        match &self.inner {
            Inner::Json(root) => {
                let Some((last, parents)) = path.split_last() else {
                    return Ok(json_root(root)?.to_serde_value());
                };
                let Some(object) = json_walk(root, parents, false)? else {
                    return Ok(None);
                };
                Ok(object.get(last).and_then(|prop| prop.to_serde_value()))
            }
            Inner::Toml(document) => {
                let mut item = document.as_item();
                for (depth, key) in path.iter().enumerate() {
                    let Some(table) = item.as_table_like() else {
                        return Err(DocumentError::WrongType {
                            path: path[..depth].to_vec(),
                            expected: "a table",
                        });
                    };
                    match table.get(key) {
                        Some(next) => item = next,
                        None => return Ok(None),
                    }
                }
                Ok(Some(toml_to_value(item)))
            }
        }
    }

    /// Sets the value at `path`, creating the objects on the way. Returns the containers it
    /// created, outermost first, so that a removal can take them away again.
    pub fn set(&mut self, path: &[String], value: &Value) -> Result<Vec<KeyPath>, DocumentError> {
        let Some((last, parents)) = path.split_last() else {
            return Err(DocumentError::TopNotObject);
        };
        let created = self.missing_containers(parents)?;
        match &mut self.inner {
            Inner::Json(root) => {
                // The deepest object on the path that exists: a new member goes into it.
                let existing = &parents[..parents.len() - created.len()];
                let host = json_walk(root, existing, false)?.ok_or(DocumentError::TopNotObject)?;
                let key = parents.get(existing.len()).unwrap_or(last);
                if host.get(key).is_none()
                    && let Some(text) = insert_on_its_line(
                        root,
                        &host,
                        key,
                        &nested(&path[existing.len() + 1..], value),
                    )
                {
                    *root = parse_json(&text)?;
                    return Ok(created);
                }
                let object = json_walk(root, parents, true)?.ok_or(DocumentError::TopNotObject)?;
                match object.get(last) {
                    Some(prop) => prop.set_value(to_cst(value)),
                    None => {
                        object.append(last, to_cst(value));
                    }
                }
            }
            Inner::Toml(document) => {
                let table = toml_walk(document, parents)?;
                table.insert(last, value_to_item(value, parents.is_empty()));
            }
        }
        Ok(created)
    }

    /// Appends `value` to the array at `path`, creating it (and the objects on the way).
    pub fn append(
        &mut self,
        path: &[String],
        value: &Value,
    ) -> Result<Vec<KeyPath>, DocumentError> {
        let Some((last, parents)) = path.split_last() else {
            return Err(DocumentError::TopNotObject);
        };
        let mut created = self.missing_containers(path)?;
        if let Some(existing) = self.get(path)?
            && !existing.is_array()
        {
            return Err(DocumentError::WrongType {
                path: path.to_vec(),
                expected: "an array",
            });
        }
        match &mut self.inner {
            Inner::Json(root) => {
                let object = json_walk(root, parents, true)?.ok_or(DocumentError::TopNotObject)?;
                let array =
                    object
                        .array_value_or_create(last)
                        .ok_or_else(|| DocumentError::WrongType {
                            path: path.to_vec(),
                            expected: "an array",
                        })?;
                array.ensure_multiline();
                array.append(to_cst(value));
            }
            Inner::Toml(_) => {
                // No client keeps hooks in TOML; arrays of tables would need their own shape.
                created.clear();
                return Err(DocumentError::WrongType {
                    path: path.to_vec(),
                    expected: "a JSON array",
                });
            }
        }
        Ok(created)
    }

    /// Removes the value at `path` (nothing if absent).
    pub fn remove(&mut self, path: &[String]) -> Result<(), DocumentError> {
        let Some((last, parents)) = path.split_last() else {
            return Ok(());
        };
        match &mut self.inner {
            Inner::Json(root) => {
                if let Some(prop) = json_walk(root, parents, false)?.and_then(|o| o.get(last)) {
                    prop.remove();
                }
            }
            Inner::Toml(document) => {
                let mut item = document.as_item_mut();
                for key in parents {
                    match item.as_table_like_mut().and_then(|t| t.get_mut(key)) {
                        Some(next) => item = next,
                        None => return Ok(()),
                    }
                }
                if let Some(table) = item.as_table_like_mut() {
                    table.remove(last);
                }
            }
        }
        Ok(())
    }

    /// Removes the first element of the array at `path` equal to `value`. False if none is.
    pub fn remove_element(
        &mut self,
        path: &[String],
        value: &Value,
    ) -> Result<bool, DocumentError> {
        let Some((last, parents)) = path.split_last() else {
            return Ok(false);
        };
        let Inner::Json(root) = &mut self.inner else {
            return Ok(false);
        };
        let Some(array) = json_walk(root, parents, false)?.and_then(|o| o.array_value(last)) else {
            return Ok(false);
        };
        for element in array.elements() {
            if element.to_serde_value().as_ref() == Some(value) {
                element.remove();
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Removes each container in `created` (innermost first) that is now empty.
    pub fn prune(&mut self, created: &[KeyPath]) -> Result<(), DocumentError> {
        for path in created.iter().rev() {
            let empty = match self.get(path)? {
                Some(Value::Object(map)) => map.is_empty(),
                Some(Value::Array(items)) => items.is_empty(),
                _ => false,
            };
            if empty {
                self.remove(path)?;
            }
        }
        Ok(())
    }

    /// True when nothing at all is left at the top level.
    pub fn is_empty(&self) -> bool {
        matches!(self.get(&[]), Ok(Some(Value::Object(map))) if map.is_empty())
    }

    /// True when not even a comment is left: the text is blank or `{}`.
    pub fn is_blank(&self) -> bool {
        let text = self.render();
        let text = text.trim();
        text.is_empty() || (matches!(self.inner, Inner::Json(_)) && text == "{}")
    }

    pub fn render(&self) -> String {
        match &self.inner {
            Inner::Json(root) => root.to_string(),
            Inner::Toml(document) => document.to_string(),
        }
    }

    /// The prefixes of `path` that do not exist yet; an existing one of the wrong type is an error.
    fn missing_containers(&self, path: &[String]) -> Result<Vec<KeyPath>, DocumentError> {
        let mut missing = Vec::new();
        for depth in 1..=path.len() {
            let prefix = &path[..depth];
            match self.get(prefix)? {
                None => missing.push(prefix.to_vec()),
                Some(Value::Object(_)) => {}
                Some(Value::Array(_)) if depth == path.len() => {}
                Some(_) => {
                    return Err(DocumentError::WrongType {
                        path: prefix.to_vec(),
                        expected: "an object",
                    });
                }
            }
        }
        Ok(missing)
    }
}

/// Refuses an object, at any depth, that holds the same key twice: clients keep the last one,
/// and an edit of the first would be invisible to them (and a check of it, misleading).
fn unique_keys(
    object: &jsonc_parser::cst::CstObject,
    path: &mut KeyPath,
) -> Result<(), DocumentError> {
    let mut seen = std::collections::BTreeSet::new();
    for prop in object.properties() {
        let Some(name) = prop.decoded_name() else {
            continue;
        };
        path.push(name.clone());
        if !seen.insert(name) {
            return Err(DocumentError::DuplicateKey(path.clone()));
        }
        if let Some(value) = prop.value() {
            nested_unique_keys(&value, path)?;
        }
        path.pop();
    }
    Ok(())
}

fn nested_unique_keys(
    node: &jsonc_parser::cst::CstNode,
    path: &mut KeyPath,
) -> Result<(), DocumentError> {
    if let Some(object) = node.as_object() {
        unique_keys(&object, path)?;
    } else if let Some(array) = node.as_array() {
        for element in array.elements() {
            nested_unique_keys(&element, path)?;
        }
    }
    Ok(())
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn json_root(
    root: &jsonc_parser::cst::CstRootNode,
) -> Result<jsonc_parser::cst::CstObject, DocumentError> {
    root.object_value().ok_or(DocumentError::TopNotObject)
}

/// The object at `path`; with `create`, missing objects on the way are added.
/// `value` under the keys of `path`, innermost last: `{"a": {"b": value}}` for `["a", "b"]`.
fn nested(path: &[String], value: &Value) -> Value {
    path.iter().rev().fold(value.clone(), |inner, key| {
        Value::Object(Map::from_iter([(key.clone(), inner)]))
    })
}

/// The document's text with `key: value` added to `object` on its line, when the human wrote
/// that object on one line: the library's own insertion spreads it over several lines, which
/// removing the member again would not undo. `None` for an object written over several lines
/// (or ending with a trailing comma), which takes the library's insertion.
fn insert_on_its_line(
    root: &jsonc_parser::cst::CstRootNode,
    object: &jsonc_parser::cst::CstObject,
    key: &str,
    value: &Value,
) -> Option<String> {
    let node = jsonc_parser::cst::CstNode::from(object.clone());
    let own = node.to_string();
    let inside = own.strip_suffix('}')?.trim_end();
    if own.contains(['\n', '\r']) || inside.ends_with(',') {
        return None;
    }
    let at = offset(&node) + inside.len();
    let separator = if object.properties().is_empty() {
        ""
    } else {
        ", "
    };
    let member = format!("{separator}{}: {}", Value::String(key.to_string()), value);
    let mut text = root.to_string();
    text.insert_str(at, &member);
    Some(text)
}

/// Where `node` starts in its document's text.
fn offset(node: &jsonc_parser::cst::CstNode) -> usize {
    let mut at = 0;
    let mut current = node.clone();
    loop {
        at += current
            .previous_siblings()
            .map(|sibling| sibling.to_string().len())
            .sum::<usize>();
        match current.parent() {
            Some(parent) => current = parent.into(),
            None => return at,
        }
    }
}

fn parse_json(text: &str) -> Result<jsonc_parser::cst::CstRootNode, DocumentError> {
    jsonc_parser::cst::CstRootNode::parse(text, &jsonc_parser::ParseOptions::default())
        .map_err(|error| DocumentError::Json(error.to_string()))
}

fn json_walk(
    root: &jsonc_parser::cst::CstRootNode,
    path: &[String],
    create: bool,
) -> Result<Option<jsonc_parser::cst::CstObject>, DocumentError> {
    let mut object = json_root(root)?;
    for (depth, key) in path.iter().enumerate() {
        let wrong = || DocumentError::WrongType {
            path: path[..=depth].to_vec(),
            expected: "an object",
        };
        object = match object.get(key) {
            Some(prop) => prop.object_value().ok_or_else(wrong)?,
            None if create => object.object_value_or_create(key).ok_or_else(wrong)?,
            None => return Ok(None),
        };
    }
    Ok(Some(object))
}

fn toml_walk<'a>(
    document: &'a mut toml_edit::DocumentMut,
    path: &[String],
) -> Result<&'a mut dyn toml_edit::TableLike, DocumentError> {
    let mut table: &mut dyn toml_edit::TableLike = document.as_table_mut();
    for (depth, key) in path.iter().enumerate() {
        let entry = table.entry(key).or_insert_with(|| {
            let mut implicit = toml_edit::Table::new();
            // `[mcp_servers.torii]` alone, without an empty `[mcp_servers]` header above it.
            implicit.set_implicit(true);
            toml_edit::Item::Table(implicit)
        });
        table = entry
            .as_table_like_mut()
            .ok_or_else(|| DocumentError::WrongType {
                path: path[..=depth].to_vec(),
                expected: "a table",
            })?;
    }
    Ok(table)
}

/// Keys in the order a person expects to read an entry; others follow alphabetically.
const KEY_ORDER: &[&str] = &[
    "type",
    "matcher",
    "command",
    "args",
    "env",
    "environment",
    "enabled",
    "tools",
    "hooks",
];

fn ordered(map: &Map<String, Value>) -> Vec<(&String, &Value)> {
    let mut entries: Vec<_> = map.iter().collect();
    entries.sort_by_key(|(key, _)| {
        (
            KEY_ORDER
                .iter()
                .position(|known| known == key)
                .unwrap_or(KEY_ORDER.len()),
            (*key).clone(),
        )
    });
    entries
}

fn to_cst(value: &Value) -> jsonc_parser::cst::CstInputValue {
    use jsonc_parser::cst::CstInputValue as Input;
    match value {
        Value::Null => Input::Null,
        Value::Bool(flag) => Input::Bool(*flag),
        Value::Number(number) => Input::Number(number.to_string()),
        Value::String(text) => Input::String(text.clone()),
        Value::Array(items) => Input::Array(items.iter().map(to_cst).collect()),
        Value::Object(map) => Input::Object(
            ordered(map)
                .into_iter()
                .map(|(key, value)| (key.clone(), to_cst(value)))
                .collect(),
        ),
    }
}

/// A TOML item for `value`: a table under the top level becomes a `[section]`, deeper objects
/// inline tables (`env = { … }`).
fn value_to_item(value: &Value, top: bool) -> toml_edit::Item {
    match value {
        Value::Object(map) if !top => {
            let mut table = toml_edit::Table::new();
            for (key, value) in ordered(map) {
                table.insert(key, toml_edit::Item::Value(value_to_toml(value)));
            }
            toml_edit::Item::Table(table)
        }
        other => toml_edit::Item::Value(value_to_toml(other)),
    }
}

fn value_to_toml(value: &Value) -> toml_edit::Value {
    match value {
        Value::Bool(flag) => (*flag).into(),
        Value::Number(number) => match number.as_i64() {
            Some(integer) => integer.into(),
            None => number.as_f64().unwrap_or_default().into(),
        },
        Value::String(text) => text.as_str().into(),
        Value::Array(items) => toml_edit::Value::Array(items.iter().map(value_to_toml).collect()),
        Value::Object(map) => {
            let mut table = toml_edit::InlineTable::new();
            for (key, value) in ordered(map) {
                table.insert(key, value_to_toml(value));
            }
            toml_edit::Value::InlineTable(table)
        }
        // TOML has no null; no entry Torii writes holds one.
        Value::Null => "".into(),
    }
}

fn toml_to_value(item: &toml_edit::Item) -> Value {
    match item {
        toml_edit::Item::None => Value::Null,
        toml_edit::Item::Value(value) => toml_value(value),
        toml_edit::Item::Table(table) => Value::Object(
            table
                .iter()
                .map(|(key, item)| (key.to_string(), toml_to_value(item)))
                .collect(),
        ),
        toml_edit::Item::ArrayOfTables(tables) => Value::Array(
            tables
                .iter()
                .map(|table| {
                    Value::Object(
                        table
                            .iter()
                            .map(|(key, item)| (key.to_string(), toml_to_value(item)))
                            .collect(),
                    )
                })
                .collect(),
        ),
    }
}

fn toml_value(value: &toml_edit::Value) -> Value {
    match value {
        toml_edit::Value::String(text) => Value::String(text.value().clone()),
        toml_edit::Value::Integer(integer) => Value::from(*integer.value()),
        toml_edit::Value::Float(float) => Value::from(*float.value()),
        toml_edit::Value::Boolean(flag) => Value::Bool(*flag.value()),
        toml_edit::Value::Datetime(datetime) => Value::String(datetime.value().to_string()),
        toml_edit::Value::Array(items) => Value::Array(items.iter().map(toml_value).collect()),
        toml_edit::Value::InlineTable(table) => Value::Object(
            table
                .iter()
                .map(|(key, value)| (key.to_string(), toml_value(value)))
                .collect(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 35: a client file written on one line came back over several after install and
    /// uninstall.
    #[test]
    fn a_one_line_object_keeps_its_line_through_set_and_remove() {
        let path = |keys: &[&str]| keys.iter().map(|key| key.to_string()).collect::<KeyPath>();
        for original in [
            "{\"theme\": \"dark\"}\n",
            "{ \"theme\": \"dark\" }",
            "{}\n",
            "{\"mcpServers\": {\"other\": {\"command\": \"x\"}}} // mine\n",
        ] {
            let mut document = Document::parse(Syntax::Json, original).unwrap();
            let created = document
                .set(
                    &path(&["mcpServers", "torii"]),
                    &json!({"command": "/t", "args": []}),
                )
                .unwrap();
            let written = document.render();
            assert_eq!(
                written.lines().count(),
                original.lines().count(),
                "{written}"
            );
            let reread = Document::parse(Syntax::Json, &written).unwrap();
            assert_eq!(
                reread
                    .get(&path(&["mcpServers", "torii", "command"]))
                    .unwrap(),
                Some(json!("/t"))
            );
            document.remove(&path(&["mcpServers", "torii"])).unwrap();
            document.prune(&created).unwrap();
            assert_eq!(document.render(), original);
        }
    }
    use serde_json::json;

    fn path(keys: &[&str]) -> KeyPath {
        keys.iter().map(|key| key.to_string()).collect()
    }

    #[test]
    fn a_json_member_is_added_and_removed_leaving_the_text_as_it_was() {
        let original = "{\n  // mine\n  \"theme\": \"dark\",\n  \"mcpServers\": {\n    \"other\": { \"command\": \"x\" }\n  }\n}\n";
        let mut document = Document::parse(Syntax::Json, original).unwrap();
        let entry = json!({"command": "/bin/torii", "type": "stdio", "env": {"A": "b"}});
        let created = document
            .set(&path(&["mcpServers", "torii"]), &entry)
            .unwrap();
        assert!(created.is_empty());
        let written = document.render();
        assert!(written.contains("// mine"), "{written}");
        let torii = &written[written.find("\"torii\"").unwrap()..];
        assert!(
            torii.find("\"type\"").unwrap() < torii.find("\"command\"").unwrap(),
            "{written}"
        );
        let again = Document::parse(Syntax::Json, &written).unwrap();
        assert_eq!(
            again.get(&path(&["mcpServers", "torii"])).unwrap(),
            Some(entry)
        );
        let mut again = again;
        again.remove(&path(&["mcpServers", "torii"])).unwrap();
        assert_eq!(again.render(), original);
    }

    #[test]
    fn containers_created_for_an_entry_go_away_with_it() {
        let original = "{\n  \"theme\": \"dark\"\n}\n";
        let mut document = Document::parse(Syntax::Json, original).unwrap();
        let hook = json!({"matcher": "Bash", "hooks": [{"type": "command", "command": "t"}]});
        let created = document
            .append(&path(&["hooks", "PreToolUse"]), &hook)
            .unwrap();
        assert_eq!(
            created,
            vec![path(&["hooks"]), path(&["hooks", "PreToolUse"])]
        );
        assert!(
            document
                .remove_element(&path(&["hooks", "PreToolUse"]), &hook)
                .unwrap()
        );
        document.prune(&created).unwrap();
        assert_eq!(document.render(), original);
    }

    #[test]
    fn an_empty_file_is_an_empty_object() {
        let mut document = Document::parse(Syntax::Json, "").unwrap();
        assert!(document.is_empty());
        document.set(&path(&["a", "b"]), &json!(1)).unwrap();
        assert!(!document.is_empty());
    }

    #[test]
    fn a_duplicate_key_is_refused_at_any_depth() {
        let text = "{\"mcpServers\": {}, \"mcpServers\": {\"torii\": {\"command\": \"/evil\"}}}";
        let error = Document::parse(Syntax::Json, text).err().unwrap();
        assert_eq!(
            error.to_string(),
            "the key `mcpServers` appears twice; the client reads only one of them, so Torii will not guess"
        );
        let text = "{\"hooks\": {\"PreToolUse\": [{\"matcher\": \"a\", \"matcher\": \"b\"}]}}";
        assert!(matches!(
            Document::parse(Syntax::Json, text),
            Err(DocumentError::DuplicateKey(path)) if path == ["hooks", "PreToolUse", "matcher"]
        ));
    }

    #[test]
    fn a_document_with_only_comments_is_empty_but_not_blank() {
        let document = Document::parse(Syntax::Json, "{\n  // keep me\n}\n").unwrap();
        assert!(document.is_empty());
        assert!(!document.is_blank());
        let document = Document::parse(Syntax::Toml, "# keep me\n").unwrap();
        assert!(document.is_empty());
        assert!(!document.is_blank());
        assert!(Document::parse(Syntax::Json, "{}\n").unwrap().is_blank());
    }

    #[test]
    fn wrong_shapes_are_named() {
        let document = Document::parse(Syntax::Json, "{\"mcpServers\": []}").unwrap();
        let mut document = document;
        let error = document
            .set(&path(&["mcpServers", "torii"]), &json!({}))
            .unwrap_err();
        assert_eq!(error.to_string(), "`mcpServers` is not an object");
        assert!(matches!(
            Document::parse(Syntax::Json, "[1]"),
            Err(DocumentError::TopNotObject)
        ));
        assert!(matches!(
            Document::parse(Syntax::Json, "{"),
            Err(DocumentError::Json(_))
        ));
    }

    #[test]
    fn a_toml_server_table_keeps_the_rest_of_the_file() {
        let original = "# my codex\nmodel = \"o3\"\n\n[mcp_servers.other]\ncommand = \"x\"\n";
        let mut document = Document::parse(Syntax::Toml, original).unwrap();
        let entry = json!({"command": "/bin/torii", "args": [], "env": {"TORII_CONFIG_DIR": "/r"}});
        let created = document
            .set(&path(&["mcp_servers", "torii"]), &entry)
            .unwrap();
        assert!(created.is_empty());
        let written = document.render();
        assert!(written.starts_with(original), "{written}");
        assert!(written.contains("[mcp_servers.torii]"), "{written}");
        assert!(
            written.contains("env = { TORII_CONFIG_DIR = \"/r\" }"),
            "{written}"
        );
        let mut again = Document::parse(Syntax::Toml, &written).unwrap();
        assert_eq!(
            again.get(&path(&["mcp_servers", "torii"])).unwrap(),
            Some(entry)
        );
        again.remove(&path(&["mcp_servers", "torii"])).unwrap();
        assert_eq!(again.render(), original);
    }

    #[test]
    fn a_toml_table_created_for_the_entry_is_implicit_and_pruned() {
        let mut document = Document::parse(Syntax::Toml, "model = \"o3\"\n").unwrap();
        let created = document
            .set(&path(&["mcp_servers", "torii"]), &json!({"command": "t"}))
            .unwrap();
        assert_eq!(created, vec![path(&["mcp_servers"])]);
        assert!(!document.render().contains("[mcp_servers]\n"));
        document.remove(&path(&["mcp_servers", "torii"])).unwrap();
        document.prune(&created).unwrap();
        assert_eq!(document.render(), "model = \"o3\"\n");
    }
}
