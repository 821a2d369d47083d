//! A real MCP client (rmcp) driving the real `torii` binary over stdio.

use std::collections::HashMap;
use std::ffi::OsString;

use rmcp::model::{CallToolRequest, CallToolRequestParams, CallToolResult, ClientRequest, Tool};
use rmcp::service::{PeerRequestOptions, RequestHandle, RunningService, ServiceError};
use rmcp::transport::TokioChildProcess;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Map, Value};

use crate::common::Root;

pub struct Client {
    service: RunningService<RoleClient, ()>,
    /// The output schema of each tool, fetched on the first call: every structured result the
    /// suite receives is checked against the schema its tool declares, as strict clients do.
    output_schemas: tokio::sync::OnceCell<HashMap<String, Value>>,
}

/// Starts `torii` on `root` (headless) with extra environment variables.
pub async fn start(root: &Root, env: &[(&str, OsString)]) -> Client {
    let mut command = tokio::process::Command::new(assert_cmd::cargo::cargo_bin("torii"));
    command
        .env("TORII_CONFIG_DIR", root.path())
        .env("TORII_NO_GUI", "1")
        .current_dir(root.work());
    for (name, value) in env {
        command.env(name, value);
    }
    let transport = TokioChildProcess::new(command).expect("spawn torii");
    let service = ().serve(transport).await.expect("MCP initialize");
    Client {
        service,
        output_schemas: tokio::sync::OnceCell::new(),
    }
}

impl Client {
    pub async fn tools(&self) -> Vec<Tool> {
        self.service.list_all_tools().await.expect("tools/list")
    }

    pub fn instructions(&self) -> Option<String> {
        self.service
            .peer_info()
            .and_then(|info| info.instructions.clone())
    }

    pub async fn try_call(
        &self,
        tool: &str,
        arguments: Value,
    ) -> Result<CallToolResult, ServiceError> {
        let arguments: Map<String, Value> = match arguments {
            Value::Object(map) => map,
            _ => Map::new(),
        };
        let result = self
            .service
            .call_tool(CallToolRequestParams::new(tool.to_string()).with_arguments(arguments))
            .await?;
        self.check_output_schema(tool, &result).await;
        Ok(result)
    }

    /// Panics when `result` does not match the output schema `tool` declares.
    async fn check_output_schema(&self, tool: &str, result: &CallToolResult) {
        let schemas = self
            .output_schemas
            .get_or_init(|| async {
                self.tools()
                    .await
                    .into_iter()
                    .filter_map(|tool| {
                        let schema = tool.output_schema?;
                        Some((tool.name.to_string(), Value::Object((*schema).clone())))
                    })
                    .collect()
            })
            .await;
        let Some(schema) = schemas.get(tool) else {
            return;
        };
        let structured = result.structured_content.as_ref().unwrap_or_else(|| {
            panic!("{tool} declares an output schema but sent no structured content")
        });
        let validator = jsonschema::validator_for(schema).expect("the output schema compiles");
        let errors: Vec<String> = validator
            .iter_errors(structured)
            .map(|error| format!("{error} at {}", error.instance_path()))
            .collect();
        assert!(
            errors.is_empty(),
            "the result of {tool} does not match its output schema: {errors:?}\nresult: {structured}"
        );
    }

    /// Sends a call without waiting for its answer; the handle can cancel it.
    pub async fn start_call(&self, tool: &str, arguments: Value) -> RequestHandle<RoleClient> {
        let arguments: Map<String, Value> = match arguments {
            Value::Object(map) => map,
            _ => Map::new(),
        };
        let request = ClientRequest::CallToolRequest(CallToolRequest::new(
            CallToolRequestParams::new(tool.to_string()).with_arguments(arguments),
        ));
        self.service
            .send_cancellable_request(request, PeerRequestOptions::no_options())
            .await
            .expect("tools/call sent")
    }

    /// Calls `tool` and returns the structured result and `isError`.
    pub async fn call(&self, tool: &str, arguments: Value) -> (Value, bool) {
        let result = self.try_call(tool, arguments).await.expect("tools/call");
        let structured = result
            .structured_content
            .clone()
            .expect("structured content");
        // The text content carries the same JSON.
        let text = match &result.content[0] {
            rmcp::model::ContentBlock::Text(text) => text.text.clone(),
            other => panic!("unexpected content {other:?}"),
        };
        assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), structured);
        (structured, result.is_error.unwrap_or(false))
    }

    pub async fn close(self) {
        let _ = self.service.cancel().await;
    }
}

/// The structured result of a call sent with [`Client::start_call`], once it is answered.
pub async fn finish(call: RequestHandle<RoleClient>) -> Value {
    match call.await_response().await.expect("tools/call answered") {
        rmcp::model::ServerResult::CallToolResult(result) => {
            result.structured_content.expect("structured content")
        }
        other => panic!("unexpected answer {other:?}"),
    }
}

/// The JSON-RPC error code of a failed call, if it was a protocol error.
pub fn error_code(error: &ServiceError) -> Option<i32> {
    match error {
        ServiceError::McpError(data) => Some(data.code.0),
        _ => None,
    }
}
