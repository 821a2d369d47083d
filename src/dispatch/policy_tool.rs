//! `torii_policy`: the active rules of a provider or target, read-only.
//!
//! It reads exactly one file, the effective `rules.yaml` (a target's own file replaces the
//! shared one), and nothing else (the administrator's deny rules were read at start-up): no
//! environment, credentials, caches, grants or leases, and it changes no state. It works for
//! inactive aliases too.

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Map, Value};

use super::envelope::EnvelopeError;
use super::{Dispatcher, Refusal};

/// The answer to `torii_policy`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct PolicyView {
    pub provider: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    pub accept: Vec<String>,
    pub deny: Vec<String>,
    pub minimum_accept_tokens: usize,
    pub ignored_accept: Vec<String>,
    /// The administrator's deny rules for this provider, which win over every rule above, grant
    /// and approval. Omitted when the administrator's layer denies nothing here.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub admin_deny: Vec<String>,
    pub unmatched: String,
}

const UNMATCHED: &str = "Arguments that match neither `accept` nor `deny` stay in default deny: \
they cross only with a human approval or an active temporary grant. A matching `deny` always \
wins. Rules match whole leading tokens (`s3 ls` matches [\"s3\", \"ls\", ...], never \
[\"s3api\", ...]); rules written /like this/ are regular expressions over the arguments joined \
by spaces.";

/// A policy that could not be read (the file is missing or broken), as `torii_policy` reports
/// it: a tool error that names only the provider, the target and what failed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct PolicyFailure {
    pub provider: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    pub error: String,
}

/// Everything `torii_policy` can answer, for its output schema: a view, or a failure (which a
/// strict client checks against the schema too).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(untagged)]
// MCP clients want an object at the root of an output schema: both variants are.
#[schemars(extend("type" = "object"))]
pub enum PolicyAnswer {
    View(PolicyView),
    Failed(PolicyFailure),
}

/// A policy view request refused, or a policy that could not be read.
#[derive(Debug)]
pub enum PolicyViewError {
    Refused(Refusal),
    /// Reported as a tool error.
    Failed(PolicyFailure),
}

fn refuse(message: String) -> PolicyViewError {
    PolicyViewError::Refused(Refusal::Envelope(EnvelopeError(message)))
}

impl Dispatcher {
    pub async fn policy_view(
        &self,
        arguments: Option<&Map<String, Value>>,
    ) -> Result<PolicyView, PolicyViewError> {
        let empty = Map::new();
        let arguments = arguments.unwrap_or(&empty);
        if let Some(extra) = arguments
            .keys()
            .find(|key| !["provider", "target"].contains(&key.as_str()))
        {
            return Err(refuse(format!(
                "unexpected field `{}`; torii_policy accepts only `provider` and `target`",
                super::envelope::clip(extra)
            )));
        }
        let tool = match arguments.get("provider") {
            Some(Value::String(tool)) => tool,
            Some(_) => return Err(refuse("`provider` must be a string".into())),
            None => return Err(refuse("missing required field `provider`".into())),
        };
        let provider = self.registry.by_tool(tool).ok_or_else(|| {
            PolicyViewError::Refused(Refusal::UnknownTool(super::envelope::clip(tool)))
        })?;
        let target = match arguments.get("target") {
            None => None,
            Some(Value::String(alias)) if provider.is_target_aware() => {
                match provider.target(alias) {
                    Some(target) => Some(target),
                    None => {
                        let aliases: Vec<&str> =
                            provider.targets().keys().map(String::as_str).collect();
                        return Err(refuse(format!(
                            "unknown target `{}`; configured targets: {}",
                            super::envelope::clip(alias),
                            if aliases.is_empty() {
                                "none".to_string()
                            } else {
                                aliases.join(", ")
                            }
                        )));
                    }
                }
            }
            Some(Value::String(_)) => {
                return Err(refuse(format!(
                    "`{tool}` is not target-aware; omit `target`"
                )));
            }
            Some(_) => return Err(refuse("`target` must be a string".into())),
        };
        let policy = self.rules.load(provider, target).map_err(|error| {
            PolicyViewError::Failed(PolicyFailure {
                provider: provider.tool().to_string(),
                target: target.map(|target| target.alias().to_string()),
                error: super::outcome::relative_to_root(&crate::errors::chain(&error), &self.root),
            })
        })?;
        Ok(PolicyView {
            provider: provider.tool().to_string(),
            target: target.map(|target| target.alias().to_string()),
            accept: policy.accept().to_vec(),
            deny: policy.deny().to_vec(),
            minimum_accept_tokens: policy.settings().minimum_accept_tokens.max(1),
            ignored_accept: policy.ignored_accepts().to_vec(),
            admin_deny: self.admin.rules(provider.tool()).to_vec(),
            unmatched: UNMATCHED.to_string(),
        })
    }
}
