//! The tools Torii publishes: one per provider, plus the read-only `torii_policy`. Their
//! input schemas are exactly the book's; the output schema describes the call result.

use std::sync::Arc;

use rmcp::model::{JsonObject, Tool, ToolAnnotations};
use serde_json::{Value, json};

use crate::dispatch::{Dispatcher, Shape};
use crate::registry::Registry;

/// The fixed, read-only policy query tool.
pub const POLICY_TOOL: &str = "torii_policy";

fn object(value: Value) -> Arc<JsonObject> {
    match value {
        Value::Object(map) => Arc::new(map),
        _ => Arc::new(JsonObject::new()),
    }
}

fn args_schema() -> Value {
    json!({
        "type": "array",
        "items": { "type": "string" },
        "minItems": 1,
        "description": "Arguments after the executable, one item per argument."
    })
}

/// `{args}` for simple providers, `{target, args}` for target-aware ones; with no alias
/// configured the empty enum makes `target` unsatisfiable until a human adds one.
pub fn input_schema(shape: &Shape) -> Arc<JsonObject> {
    match shape {
        Shape::Simple => object(json!({
            "type": "object",
            "required": ["args"],
            "properties": { "args": args_schema() },
            "additionalProperties": false
        })),
        Shape::TargetAware { aliases } => object(json!({
            "type": "object",
            "required": ["target", "args"],
            "properties": {
                "target": {
                    "type": "string",
                    "enum": aliases,
                    "description": "A target alias configured by the human."
                },
                "args": args_schema()
            },
            "additionalProperties": false
        })),
    }
}

/// The structured result of a provider call.
pub fn call_output_schema() -> Arc<JsonObject> {
    object(json!({
        "type": "object",
        "required": ["provider"],
        "properties": {
            "provider": { "type": "string" },
            "target": { "type": "string" },
            "decision": {
                "type": "object",
                "required": ["result", "source"],
                "properties": {
                    "result": { "type": "string", "enum": ["allow", "deny"] },
                    "source": {
                        "type": "string",
                        "enum": ["rules", "grant", "human-once", "human-grant", "human-deny",
                                 "explicit-deny", "forbidden-arg"]
                    },
                    "rule": { "type": "string" }
                }
            },
            "execution": {
                "type": "object",
                "required": ["exit_code", "stdout", "stderr", "truncated"],
                "properties": {
                    "exit_code": { "type": "integer" },
                    "stdout": { "type": "string" },
                    "stderr": { "type": "string" },
                    "truncated": { "type": "boolean" },
                    "timed_out": { "type": "boolean" }
                }
            },
            "message": { "type": "string" },
            "error": { "type": "string" }
        }
    }))
}

fn policy_input_schema(registry: &Registry) -> Arc<JsonObject> {
    let tools: Vec<&str> = registry
        .providers()
        .iter()
        .map(|provider| provider.tool())
        .collect();
    object(json!({
        "type": "object",
        "required": ["provider"],
        "properties": {
            "provider": { "type": "string", "enum": tools, "description": "A provider tool." },
            "target": { "type": "string", "description": "An alias, for target-aware tools." }
        },
        "additionalProperties": false
    }))
}

fn policy_output_schema() -> Arc<JsonObject> {
    let rules = json!({ "type": "array", "items": { "type": "string" } });
    object(json!({
        "type": "object",
        // A failure (`rules.yaml` missing or invalid) carries only `provider`, `target` and
        // `error`, and must match this schema too: strict clients reject a result that does not.
        "required": ["provider"],
        "properties": {
            "provider": { "type": "string" },
            "target": { "type": "string" },
            "accept": rules,
            "deny": rules,
            "minimum_accept_tokens": { "type": "integer" },
            "ignored_accept": rules,
            "unmatched": { "type": "string" },
            "error": { "type": "string" }
        }
    }))
}

/// Every tool, built once at startup: the registry does not change while the server runs.
pub fn all_tools(registry: &Registry) -> Vec<Tool> {
    let mut tools: Vec<Tool> = registry
        .providers()
        .iter()
        .map(|provider| {
            Tool::new(
                provider.tool().to_string(),
                provider.config().description.clone(),
                input_schema(&Dispatcher::shape(provider)),
            )
            .with_raw_output_schema(call_output_schema())
        })
        .collect();
    let mut annotations = ToolAnnotations::new();
    annotations.read_only_hint = Some(true);
    annotations.destructive_hint = Some(false);
    annotations.idempotent_hint = Some(true);
    annotations.open_world_hint = Some(false);
    tools.push(
        Tool::new(
            POLICY_TOOL,
            "Read the active accept and deny rules of a provider (or of one of its targets) \
             without running anything. Call it before choosing an operation.",
            policy_input_schema(registry),
        )
        .with_raw_output_schema(policy_output_schema())
        .with_annotations(annotations),
    );
    tools
}
