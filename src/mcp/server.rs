//! The MCP protocol adapter: tools/list and tools/call over rmcp. It translates, and nothing
//! more: every decision belongs to the dispatcher.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorData,
    Implementation, JsonObject, ListToolsResult, PaginatedRequestParams, ProgressNotificationParam,
    ProgressToken, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{RoleServer, ServerHandler};
use serde::Serialize;

use super::instructions::INSTRUCTIONS;
use super::tools::{POLICY_TOOL, all_tools};
use crate::dispatch::{Dispatcher, PolicyViewError, Refusal};

/// The server: the dispatcher and the tool list built at startup.
#[derive(Clone)]
pub struct ToriiServer {
    dispatcher: Arc<Dispatcher>,
    tools: Arc<[Tool]>,
}

impl ToriiServer {
    pub fn new(dispatcher: Arc<Dispatcher>) -> Self {
        let tools = all_tools(dispatcher.registry()).into();
        Self { dispatcher, tools }
    }
}

fn invalid_params(refusal: &Refusal) -> ErrorData {
    ErrorData::invalid_params(refusal.to_string(), None)
}

/// The same JSON as text content and as structured content.
fn result<T: Serialize>(value: &T, is_error: bool) -> Result<CallToolResult, ErrorData> {
    let encoding_failed = |error: serde_json::Error| {
        ErrorData::internal_error(format!("cannot encode the result: {error}"), None)
    };
    let json = serde_json::to_value(value).map_err(encoding_failed)?;
    // `serde_json::to_string`, not `Display`: the formatter adapter costs a call per token.
    let text = serde_json::to_string(&json).map_err(encoding_failed)?;
    let mut result = if is_error {
        CallToolResult::error(vec![ContentBlock::text(text)])
    } else {
        CallToolResult::success(vec![ContentBlock::text(text)])
    };
    result.structured_content = Some(json);
    Ok(result)
}

/// The one field a client may add to any call: Gemini CLI puts an optional boolean
/// `wait_for_previous` in every tool's schema, asks its model to set it, and sends it on; it has
/// no meaning here and no setting turns it off. Dropped when it is a boolean, before anything
/// reads the arguments; any other value, like any other extra field, is refused.
pub const CLIENT_HINT: &str = "wait_for_previous";

fn without_client_hint(arguments: Option<JsonObject>) -> Option<JsonObject> {
    let mut arguments = arguments?;
    if arguments
        .get(CLIENT_HINT)
        .is_some_and(serde_json::Value::is_boolean)
    {
        arguments.remove(CLIENT_HINT);
    }
    Some(arguments)
}

/// Refuses a request that comes with no `initialize` unless it names, in its `_meta`, a
/// protocol revision whose requests stand alone (2026-07-28 on: Claude Code, the Python SDK's
/// default mode). An older revision needs the handshake, which is where the client learns
/// the server's instructions.
fn require_lifecycle(context: &RequestContext<RoleServer>) -> Result<(), ErrorData> {
    if context.peer.peer_info().is_some() {
        return Ok(());
    }
    match context.meta.protocol_version() {
        Some(version) if !version.has_initialize() => Ok(()),
        named => Err(ErrorData::invalid_request(
            format!(
                "send `initialize` first: {} has no stateless requests",
                named.map_or_else(
                    || "a request without a protocol version".to_string(),
                    |version| format!("protocol version {version}")
                )
            ),
            None,
        )),
    }
}

/// How long a call runs before its first progress notification, and between two.
const PROGRESS_EVERY: std::time::Duration = std::time::Duration::from_secs(2);

/// Tells a client that asked for progress (`progressToken`) that a long call is alive: every
/// [`PROGRESS_EVERY`], the seconds it has run (which only grow, as MCP requires) and how much
/// output its command has written. Runs until the call ends and drops it.
async fn report_progress(
    peer: &rmcp::Peer<RoleServer>,
    token: ProgressToken,
    seen: &AtomicU64,
) -> std::convert::Infallible {
    let mut seconds = 0;
    loop {
        tokio::time::sleep(PROGRESS_EVERY).await;
        seconds += PROGRESS_EVERY.as_secs();
        let bytes = seen.load(Ordering::Relaxed);
        let progress = ProgressNotificationParam::new(token.clone(), seconds as f64).with_message(
            format!("running for {seconds} s; {bytes} bytes of output so far"),
        );
        // A client that cannot take it is not a reason to stop the call.
        let _ = peer.notify_progress(progress).await;
    }
}

impl ServerHandler for ToriiServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("torii", env!("CARGO_PKG_VERSION")))
            .with_instructions(INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        require_lifecycle(&context)?;
        Ok(ListToolsResult::with_all_items(self.tools.to_vec()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        require_lifecycle(&context)?;
        if let Some(peer) = context.peer.peer_info() {
            self.dispatcher.client_is(&peer.client_info.name);
        }
        let arguments = without_client_hint(request.arguments);
        let arguments = arguments.as_ref();
        if request.name == POLICY_TOOL {
            return match Box::pin(self.dispatcher.policy_view(arguments)).await {
                Ok(view) => result(&view, false),
                Err(PolicyViewError::Refused(refusal)) => Err(invalid_params(&refusal)),
                Err(PolicyViewError::Failed(failure)) => result(&failure, true),
            }
            .map(CallToolResponse::from);
        }
        // The token is cancelled by `notifications/cancelled` for this request and when the
        // session ends; rmcp then sends no answer for it.
        let cancelled = context.ct.cancelled();
        let seen = Arc::new(AtomicU64::new(0));
        // Boxed: rmcp moves the future of each request several times on its way to a task,
        // and a call's whole pipeline is tens of kilobytes; a pointer is all that moves.
        let call = Box::pin(crate::runner::progress::counting_output(
            Arc::clone(&seen),
            self.dispatcher.call(&request.name, arguments, cancelled),
        ));
        let outcome = match context.meta.get_progress_token() {
            None => call.await,
            Some(token) => {
                tokio::select! {
                    outcome = call => outcome,
                    never = report_progress(&context.peer, token, &seen) => match never {},
                }
            }
        };
        match outcome {
            Ok(outcome) => result(&outcome, outcome.is_error()).map(CallToolResponse::from),
            Err(refusal) => Err(invalid_params(&refusal)),
        }
    }
}
