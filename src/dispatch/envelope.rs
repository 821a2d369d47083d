//! Validation of a tool call's arguments before anything else happens.
//!
//! The input schemas already say all of this to the client; the server still checks every
//! call itself, because a client may skip schema validation. A call that fails here is an
//! invalid-params error: nothing is audited as `invoke`, no file is read, nothing runs.

use serde_json::{Map, Value};

/// What a tool accepts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shape {
    /// `{args}`
    Simple,
    /// `{target, args}` where `target` is one of the configured aliases (active or not).
    TargetAware { aliases: Vec<String> },
}

/// A call whose arguments have the right shape.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Envelope {
    pub target: Option<String>,
    pub args: Vec<String>,
}

/// The reason a call's arguments were refused; the message is shown to the agent.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct EnvelopeError(pub String);

/// Checks `arguments` against `shape`.
pub fn parse(
    arguments: Option<&Map<String, Value>>,
    shape: &Shape,
) -> Result<Envelope, EnvelopeError> {
    let empty = Map::new();
    let arguments = arguments.unwrap_or(&empty);
    let allowed: &[&str] = match shape {
        Shape::Simple => &["args"],
        Shape::TargetAware { .. } => &["target", "args"],
    };
    if let Some(extra) = arguments
        .keys()
        .find(|key| !allowed.contains(&key.as_str()))
    {
        return Err(EnvelopeError(format!(
            "unexpected field `{}`; this tool accepts only {}",
            clip(extra),
            allowed
                .iter()
                .map(|name| format!("`{name}`"))
                .collect::<Vec<_>>()
                .join(" and ")
        )));
    }
    let target = match shape {
        Shape::Simple => None,
        Shape::TargetAware { aliases } => Some(parse_target(arguments.get("target"), aliases)?),
    };
    let args = parse_args(arguments.get("args"))?;
    Ok(Envelope { target, args })
}

fn parse_target(value: Option<&Value>, aliases: &[String]) -> Result<String, EnvelopeError> {
    let configured = || {
        if aliases.is_empty() {
            "no targets are configured for this tool; a human must add one with \
             `torii target add` and restart the server"
                .to_string()
        } else {
            format!("configured targets: {}", aliases.join(", "))
        }
    };
    match value {
        None => Err(EnvelopeError(format!(
            "missing required field `target`; {}",
            configured()
        ))),
        Some(Value::String(alias)) if aliases.iter().any(|known| known == alias) => {
            Ok(alias.clone())
        }
        Some(Value::String(alias)) => Err(EnvelopeError(format!(
            "unknown target `{}`; {}",
            clip(alias),
            configured()
        ))),
        Some(_) => Err(EnvelopeError(format!(
            "`target` must be a string; {}",
            configured()
        ))),
    }
}

fn parse_args(value: Option<&Value>) -> Result<Vec<String>, EnvelopeError> {
    const SHAPE: &str = "`args` must be a non-empty array of strings, one item per argument";
    let items = match value {
        None => {
            return Err(EnvelopeError(format!(
                "missing required field `args`; {SHAPE}"
            )));
        }
        Some(Value::Array(items)) if items.is_empty() => {
            return Err(EnvelopeError(format!("`args` is empty; {SHAPE}")));
        }
        Some(Value::Array(items)) => items,
        Some(_) => return Err(EnvelopeError(SHAPE.to_string())),
    };
    items
        .iter()
        .enumerate()
        .map(|(index, item)| match item {
            // No operating system can pass a NUL inside an argument; refuse it here rather
            // than fail later at launch.
            Value::String(text) if text.contains('\0') => Err(EnvelopeError(format!(
                "`args[{index}]` contains a NUL character"
            ))),
            Value::String(text) => Ok(text.clone()),
            _ => Err(EnvelopeError(format!(
                "`args[{index}]` must be a string; {SHAPE}"
            ))),
        })
        .collect()
}

/// At most 64 characters of an agent-chosen text echoed in an error.
pub(crate) fn clip(text: &str) -> String {
    crate::text::clip(text, 64)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn object(value: Value) -> Map<String, Value> {
        match value {
            Value::Object(map) => map,
            _ => unreachable!(),
        }
    }

    fn targets() -> Shape {
        Shape::TargetAware {
            aliases: vec!["lab".into(), "prod".into()],
        }
    }

    #[test]
    fn simple_call_is_accepted() {
        let envelope = parse(Some(&object(json!({"args": ["s3", "ls"]}))), &Shape::Simple).unwrap();
        assert_eq!(
            envelope,
            Envelope {
                target: None,
                args: vec!["s3".into(), "ls".into()]
            }
        );
    }

    #[test]
    fn target_call_is_accepted() {
        let envelope = parse(
            Some(&object(json!({"target": "lab", "args": ["get", "pods"]}))),
            &targets(),
        )
        .unwrap();
        assert_eq!(envelope.target.as_deref(), Some("lab"));
    }

    #[test]
    fn every_malformed_envelope_is_refused_with_a_clear_message() {
        let cases: Vec<(Value, Shape, &str)> = vec![
            (json!({}), Shape::Simple, "missing required field `args`"),
            (json!({"args": []}), Shape::Simple, "`args` is empty"),
            (
                json!({"args": "s3 ls"}),
                Shape::Simple,
                "non-empty array of strings",
            ),
            (
                json!({"args": ["s3", 1]}),
                Shape::Simple,
                "`args[1]` must be a string",
            ),
            (
                json!({"args": ["s3", null]}),
                Shape::Simple,
                "`args[1]` must be a string",
            ),
            (json!({"args": ["a\u{0}b"]}), Shape::Simple, "NUL"),
            (
                json!({"args": ["s3"], "command": "x"}),
                Shape::Simple,
                "unexpected field `command`",
            ),
            (
                json!({"args": ["s3"], "target": "lab"}),
                Shape::Simple,
                "unexpected field `target`",
            ),
            (
                json!({"args": ["get"]}),
                targets(),
                "missing required field `target`; configured targets: lab, prod",
            ),
            (
                json!({"target": "nope", "args": ["get"]}),
                targets(),
                "unknown target `nope`; configured targets: lab, prod",
            ),
            (
                json!({"target": 3, "args": ["get"]}),
                targets(),
                "`target` must be a string",
            ),
            (
                json!({"target": "lab", "args": ["get"], "context": "x"}),
                targets(),
                "unexpected field `context`",
            ),
            (
                json!({"target": "lab", "args": ["get"]}),
                Shape::TargetAware { aliases: vec![] },
                "no targets are configured",
            ),
        ];
        for (arguments, shape, expected) in cases {
            let error = parse(Some(&object(arguments.clone())), &shape).unwrap_err();
            assert!(error.0.contains(expected), "{arguments}: {error}");
        }
        assert!(parse(None, &Shape::Simple).is_err());
    }

    #[test]
    fn unknown_target_error_lists_only_configured_aliases() {
        let error = parse(
            Some(&object(json!({"target": "../../etc", "args": ["x"]}))),
            &targets(),
        )
        .unwrap_err();
        assert!(
            error.0.ends_with("configured targets: lab, prod"),
            "{error}"
        );
    }
}
