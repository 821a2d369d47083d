//! The tools Torii publishes: one per provider, plus the read-only `torii_policy`. Their
//! input schemas are exactly the book's; their output schemas are derived from the result
//! types (`CallOutcome`, `PolicyAnswer`), so they cannot drift from what is sent.

use std::sync::Arc;

use rmcp::model::{JsonObject, Tool, ToolAnnotations};
use schemars::generate::SchemaSettings;
use schemars::transform::RecursiveTransform;
use schemars::{JsonSchema, Schema};
use serde_json::{Value, json};

use crate::dispatch::{CallOutcome, Dispatcher, PolicyAnswer, Shape};
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

/// The output schema of a tool whose results are `T`s, derived from `T` itself: exactly what
/// `T` serializes to. Every part is inline and there is no `$schema` keyword, so any client's
/// validator compiles it (the TypeScript SDK's is draft-07 Ajv); see [`publishable`] for what
/// else is left out.
fn output_schema<T: JsonSchema>() -> Arc<JsonObject> {
    let mut settings = SchemaSettings::draft2020_12().for_serialize();
    settings.inline_subschemas = true;
    settings.meta_schema = None;
    let schema = settings
        .with_transform(RecursiveTransform(publishable))
        .into_generator()
        .into_root_schema_for::<T>();
    object(schema.to_value())
}

/// One part of a derived schema as it is published: without titles and descriptions (the Rust
/// documentation), without the integer formats schemars adds (`int32`, `uint`: not JSON
/// Schema's), and with an optional property absent rather than `null`. Every optional field of
/// a result is skipped when it has no value (`skip_serializing_if`), and schemars marks a
/// field that is always written as required, so a property it leaves optional is never null.
fn publishable(schema: &mut Schema) {
    schema.remove("title");
    schema.remove("description");
    if schema.get("type") == Some(&json!("integer")) {
        schema.remove("format");
    }
    let required: Vec<Value> = match schema.get("required") {
        Some(Value::Array(required)) => required.clone(),
        _ => Vec::new(),
    };
    let Some(Value::Object(properties)) = schema.get_mut("properties") else {
        return;
    };
    for (name, property) in properties {
        if required.contains(&Value::from(name.as_str())) {
            continue;
        }
        if let Some(Value::Array(types)) = property.get_mut("type") {
            types.retain(|kind| kind != "null");
            if let [only] = types.as_slice() {
                let only = only.clone();
                property["type"] = only;
            }
        }
    }
}

/// The structured result of a provider call.
pub fn call_output_schema() -> Arc<JsonObject> {
    output_schema::<CallOutcome>()
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

/// A view or, when `rules.yaml` is missing or invalid, a failure with `provider`, `target`
/// and `error`: strict clients reject a result that does not match.
fn policy_output_schema() -> Arc<JsonObject> {
    output_schema::<PolicyAnswer>()
}

/// Every tool, built once at startup: the registry does not change while the server runs.
pub fn all_tools(registry: &Registry) -> Vec<Tool> {
    // Schemas shared by every provider's tool that has them: built once, not once per provider.
    let call_schema = call_output_schema();
    let simple_input = input_schema(&Shape::Simple);
    let mut tools: Vec<Tool> = registry
        .providers()
        .iter()
        .map(|provider| {
            let input = match Dispatcher::shape(provider) {
                Shape::Simple => Arc::clone(&simple_input),
                shape => input_schema(&shape),
            };
            Tool::new(
                provider.tool().to_string(),
                provider.config().description.clone(),
                input,
            )
            .with_raw_output_schema(Arc::clone(&call_schema))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dispatch::{DecisionView, PolicyFailure, PolicyView, Source};
    use crate::runner::Execution;

    fn matches(schema: &JsonObject, value: &impl serde::Serialize) -> bool {
        let schema = Value::Object(schema.clone());
        let validator = jsonschema::validator_for(&schema).expect("the schema compiles");
        validator.is_valid(&serde_json::to_value(value).unwrap())
    }

    #[test]
    fn the_call_schema_is_the_outcome_type() {
        let schema = call_output_schema();
        assert_eq!(schema["type"], "object");
        assert_eq!(schema["required"], json!(["provider"]));
        let text = Value::Object((*schema).clone()).to_string();
        for absent in [
            "$schema",
            "$ref",
            "$defs",
            "null",
            "title",
            "description",
            "format",
        ] {
            assert!(!text.contains(absent), "{absent}: {text}");
        }
        let sources = &schema["properties"]["decision"]["properties"]["source"]["enum"];
        assert_eq!(
            sources,
            &json!([
                "rules",
                "grant",
                "human-once",
                "human-grant",
                "human-deny",
                "explicit-deny",
                "forbidden-arg"
            ])
        );
        let mut outcome = CallOutcome::new("aws", Some("dev"));
        assert!(matches(&schema, &outcome));
        outcome.decision = Some(DecisionView::deny(Source::HumanDeny, None));
        outcome.execution = Some(Execution {
            exit_code: -1,
            stdout: "out".into(),
            stderr: String::new(),
            truncated: true,
            timed_out: true,
        });
        outcome.message = Some("denied".into());
        assert!(matches(&schema, &outcome));
        assert!(!matches(
            &schema,
            &json!({"provider": "aws", "target": null})
        ));
        assert!(!matches(
            &schema,
            &json!({"provider": "aws", "decision": {"result": "maybe", "source": "rules"}})
        ));
    }

    #[test]
    fn the_policy_schema_is_a_view_or_a_failure() {
        let schema = policy_output_schema();
        assert_eq!(schema["type"], "object");
        let view = PolicyView {
            provider: "kubectl".into(),
            target: None,
            accept: vec!["get pods".into()],
            deny: vec![],
            minimum_accept_tokens: 1,
            ignored_accept: vec![],
            admin_deny: vec![],
            unmatched: "default deny".into(),
        };
        assert!(matches(&schema, &view));
        let narrowed = PolicyView {
            admin_deny: vec!["delete".into()],
            ..view
        };
        assert!(matches(&schema, &narrowed));
        let failure = PolicyFailure {
            provider: "kubectl".into(),
            target: Some("dev".into()),
            error: "rules file not found".into(),
        };
        assert!(matches(&schema, &failure));
        assert!(!matches(&schema, &json!({"provider": "kubectl"})));
    }
}
