//! A real MCP client (rmcp) driving the real `torii` binary over stdio.

use std::ffi::OsString;

use rmcp::model::{CallToolRequestParams, CallToolResult, Tool};
use rmcp::service::{RunningService, ServiceError};
use rmcp::transport::TokioChildProcess;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Map, Value};

use crate::common::Root;

pub struct Client {
    service: RunningService<RoleClient, ()>,
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
    Client { service }
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
        self.service
            .call_tool(CallToolRequestParams::new(tool.to_string()).with_arguments(arguments))
            .await
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

/// The JSON-RPC error code of a failed call, if it was a protocol error.
pub fn error_code(error: &ServiceError) -> Option<i32> {
    match error {
        ServiceError::McpError(data) => Some(data.code.0),
        _ => None,
    }
}
