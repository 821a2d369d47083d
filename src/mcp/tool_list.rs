//! The `tools/list` answer, written from schemas encoded once.
//!
//! Every provider's tool carries the call's output schema, and every simple one the same input
//! schema: serde_json would walk those trees again for each tool (with 200 providers most of
//! the work of the whole answer). Here each distinct schema is encoded once, when the list is
//! built, and copied into the answer. The answer is the JSON serde_json writes for rmcp's own
//! types (the tests compare the two); a schema that is not the list's own is encoded as usual.

use std::collections::HashMap;
use std::sync::Arc;

use rmcp::RoleServer;
use rmcp::model::{
    CacheScope, Icon, JsonObject, JsonRpcMessage, JsonRpcResponse, JsonRpcVersion2_0,
    ListToolsResult, MetaObject, RequestId, ResultType, ServerResult, Tool, ToolAnnotations,
};
use rmcp::service::TxJsonRpcMessage;
use serde::Serialize;
use serde_json::value::RawValue;

/// The tools the server publishes, built once at startup, with their schemas encoded.
pub struct ToolList {
    tools: Vec<Tool>,
    /// Each distinct schema of `tools`, by the address of its `Arc`: the list holds every one
    /// of them, so an address stays that schema's for as long as the list lives, and a schema
    /// behind a shared `Arc` cannot change.
    encoded: HashMap<usize, Box<RawValue>>,
    /// About the length of the answer, so that it is written without growing its buffer.
    answer_bytes: usize,
}

fn address(schema: &Arc<JsonObject>) -> usize {
    Arc::as_ptr(schema) as usize
}

fn schemas(tool: &Tool) -> impl Iterator<Item = &Arc<JsonObject>> {
    std::iter::once(&tool.input_schema).chain(&tool.output_schema)
}

/// Room for a tool's member names and punctuation around its texts and schemas.
const TOOL_FRAME_BYTES: usize = 64;

impl ToolList {
    pub fn new(tools: Vec<Tool>) -> Self {
        let mut encoded = HashMap::new();
        for tool in &tools {
            for schema in schemas(tool) {
                if let std::collections::hash_map::Entry::Vacant(entry) =
                    encoded.entry(address(schema))
                {
                    // A map of JSON values always encodes; were it not to, the schema is
                    // simply encoded where it is written.
                    if let Ok(raw) = serde_json::value::to_raw_value(schema.as_ref()) {
                        entry.insert(raw);
                    }
                }
            }
        }
        let answer_bytes = tools
            .iter()
            .map(|tool| {
                let schema_bytes: usize = schemas(tool)
                    .filter_map(|schema| encoded.get(&address(schema)))
                    .map(|raw| raw.get().len())
                    .sum();
                schema_bytes + tool.name.len() + tool.description.as_ref().map_or(0, |d| d.len())
            })
            .sum::<usize>()
            + TOOL_FRAME_BYTES * (tools.len() + 1);
        Self {
            tools,
            encoded,
            answer_bytes,
        }
    }

    pub fn tools(&self) -> &[Tool] {
        &self.tools
    }

    /// Writes `message` to `out` when it answers `tools/list`; `None` for any other message,
    /// which is left to serde_json.
    pub fn write_answer(
        &self,
        message: &TxJsonRpcMessage<RoleServer>,
        out: &mut Vec<u8>,
    ) -> Option<serde_json::Result<()>> {
        let JsonRpcMessage::Response(JsonRpcResponse {
            jsonrpc,
            id,
            result: ServerResult::ListToolsResult(list),
        }) = message
        else {
            return None;
        };
        // Every member named, so a new one in rmcp does not compile until it is written here.
        let ListToolsResult {
            result_type,
            meta,
            next_cursor,
            ttl_ms,
            cache_scope,
            tools,
        } = list;
        let answer = Answer {
            jsonrpc,
            id,
            result: Page {
                result_type: result_type.as_ref(),
                meta: meta.as_ref(),
                next_cursor: next_cursor.as_deref(),
                ttl_ms: *ttl_ms,
                cache_scope: cache_scope.as_ref(),
                tools: tools.iter().map(|tool| self.tool(tool)).collect(),
            },
        };
        out.reserve(self.answer_bytes);
        Some(serde_json::to_writer(out, &answer))
    }

    fn tool<'a>(&'a self, tool: &'a Tool) -> ToolJson<'a> {
        ToolJson {
            name: &tool.name,
            title: tool.title.as_deref(),
            description: tool.description.as_deref(),
            input_schema: self.schema(&tool.input_schema),
            output_schema: tool
                .output_schema
                .as_ref()
                .map(|schema| self.schema(schema)),
            annotations: tool.annotations.as_ref(),
            icons: tool.icons.as_deref(),
            meta: tool.meta.as_ref(),
        }
    }

    fn schema<'a>(&'a self, schema: &'a Arc<JsonObject>) -> Schema<'a> {
        match self.encoded.get(&address(schema)) {
            Some(raw) => Schema::Encoded(raw),
            None => Schema::Plain(schema),
        }
    }
}

/// rmcp's `JsonRpcResponse` as it serializes.
#[derive(Serialize)]
struct Answer<'a> {
    jsonrpc: &'a JsonRpcVersion2_0,
    id: &'a RequestId,
    result: Page<'a>,
}

/// rmcp's `ListToolsResult` as it serializes.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Page<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    result_type: Option<&'a ResultType>,
    #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
    meta: Option<&'a MetaObject>,
    #[serde(skip_serializing_if = "Option::is_none")]
    next_cursor: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ttl_ms: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cache_scope: Option<&'a CacheScope>,
    tools: Vec<ToolJson<'a>>,
}

/// rmcp's `Tool` as it serializes, with its schemas as encoded. `Tool` may gain members (it is
/// `non_exhaustive`); one that a published tool writes makes the byte comparison test fail.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ToolJson<'a> {
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<&'a str>,
    input_schema: Schema<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    output_schema: Option<Schema<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    annotations: Option<&'a ToolAnnotations>,
    #[serde(skip_serializing_if = "Option::is_none")]
    icons: Option<&'a [Icon]>,
    #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
    meta: Option<&'a MetaObject>,
}

#[derive(Serialize)]
#[serde(untagged)]
enum Schema<'a> {
    Encoded(&'a RawValue),
    Plain(&'a JsonObject),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::Registry;
    use serde_json::json;

    fn answer(list: ListToolsResult, id: RequestId) -> TxJsonRpcMessage<RoleServer> {
        TxJsonRpcMessage::<RoleServer>::response(ServerResult::ListToolsResult(list), id)
    }

    /// Both ways of writing `message`: the list's and serde_json's.
    fn both(tool_list: &ToolList, message: &TxJsonRpcMessage<RoleServer>) -> (String, String) {
        let mut ours = Vec::new();
        tool_list
            .write_answer(message, &mut ours)
            .expect("a tools/list answer")
            .unwrap();
        let theirs = serde_json::to_string(message).unwrap();
        (String::from_utf8(ours).unwrap(), theirs)
    }

    /// Simple and target-aware providers, one of each with text that needs escaping.
    fn registry() -> (tempfile::TempDir, Registry) {
        let target = |alias: &str| {
            format!("version: \"1\"\nname: {alias}\ncontext: {alias}\nidentity:\n  provider: idp\n")
        };
        let (lab, prod) = (target("lab"), target("prod"));
        crate::registry::load_files(&[
            (
                "providers/kube/provider.yaml",
                "version: \"1\"\nname: kube\ntool: kube\ndescription: k\ncommand: kube\ntargeting:\n  mode: kubectl_context\n",
            ),
            ("providers/kube/targets/lab/target.yaml", &lab),
            ("providers/kube/targets/prod/target.yaml", &prod),
            (
                "providers/idp/provider.yaml",
                "version: \"1\"\nname: idp\ntool: idp\ndescription: \"say \\\"hi\\\"\\n\\tnow \\u00e9\\u2028 \\\\ done\"\ncommand: idp\n",
            ),
            (
                "providers/plain/provider.yaml",
                "version: \"1\"\nname: plain\ntool: plain\ndescription: p\ncommand: plain\n",
            ),
        ])
    }

    #[test]
    fn the_answer_is_the_bytes_serde_json_writes_for_the_published_tools() {
        let (_dir, registry) = registry();
        let tool_list = ToolList::new(crate::mcp::tools::all_tools(&registry));
        // The shared schemas and the target-aware tool's own input schema, each encoded once.
        assert_eq!(tool_list.encoded.len(), 5, "{:?}", tool_list.encoded.keys());
        for id in [RequestId::Number(7), RequestId::String("a\"b".into())] {
            let list = ListToolsResult::with_all_items(tool_list.tools().to_vec());
            let (ours, theirs) = both(&tool_list, &answer(list, id));
            assert_eq!(ours, theirs);
        }
        let description = &serde_json::from_str::<serde_json::Value>(
            &both(
                &tool_list,
                &answer(
                    ListToolsResult::with_all_items(tool_list.tools().to_vec()),
                    RequestId::Number(1),
                ),
            )
            .0,
        )
        .unwrap()["result"]["tools"][0]["description"];
        assert_eq!(description, "say \"hi\"\n\tnow é\u{2028} \\ done");
    }

    /// Every member rmcp can write, set: the list writes what serde_json writes, for schemas
    /// it encoded and for schemas it did not.
    #[test]
    fn every_member_of_an_answer_is_written_as_serde_json_writes_it() {
        let mut tool: Tool = serde_json::from_value(json!({
            "name": "t",
            "title": "T",
            "description": "d",
            "inputSchema": {"type": "object", "properties": {"a": {"type": "string"}}},
            "outputSchema": {"type": "object"},
            "annotations": {"title": "A", "readOnlyHint": true, "destructiveHint": false,
                            "idempotentHint": true, "openWorldHint": false},
            "icons": [{"src": "https://example.invalid/i.png", "mimeType": "image/png"}],
            "_meta": {"k": [1, 2]}
        }))
        .unwrap();
        let bare = Tool::new("bare", "b", Arc::new(JsonObject::new()));
        let tool_list = ToolList::new(vec![tool.clone(), bare.clone()]);
        let mut list: ListToolsResult = serde_json::from_value(json!({
            "resultType": "complete",
            "_meta": {"m": true},
            "nextCursor": "c",
            "ttlMs": 5,
            "cacheScope": "private",
            "tools": []
        }))
        .unwrap();
        // The same tools with schemas of their own, not the list's: encoded where written.
        tool.input_schema = Arc::new((*tool.input_schema).clone());
        list.tools = vec![tool, bare.clone(), tool_list.tools()[0].clone()];
        let (ours, theirs) = both(&tool_list, &answer(list.clone(), RequestId::Number(3)));
        assert_eq!(ours, theirs);
        for field in [
            "resultType",
            "_meta",
            "nextCursor",
            "ttlMs",
            "cacheScope",
            "title",
            "icons",
            "annotations",
        ] {
            assert!(ours.contains(&format!("\"{field}\"")), "{field}: {ours}");
        }
        let bare_list = ListToolsResult::with_all_items(vec![bare]);
        let (ours, theirs) = both(&tool_list, &answer(bare_list, RequestId::Number(4)));
        assert_eq!(ours, theirs);
    }

    #[test]
    fn other_messages_are_left_to_serde_json() {
        let tool_list = ToolList::new(Vec::new());
        let mut out = Vec::new();
        let other =
            TxJsonRpcMessage::<RoleServer>::response(ServerResult::empty(()), RequestId::Number(1));
        assert!(tool_list.write_answer(&other, &mut out).is_none());
        assert!(out.is_empty());
    }
}
