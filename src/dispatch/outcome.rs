//! What a call produced, in the shape the book's MCP API returns:
//! `{provider, target?, decision{result, source, rule?}, execution?}`, plus `message` (why a
//! call was denied, for the agent) and `error` (an operational failure, sent with `isError`).

use serde::Serialize;

use crate::runner::Execution;

/// Whether the call crossed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Allow,
    Deny,
}

/// Who decided. The book's closed list of sources.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Source {
    Rules,
    Grant,
    HumanOnce,
    HumanGrant,
    HumanDeny,
    ExplicitDeny,
    ForbiddenArg,
}

impl Source {
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Rules => "rules",
            Source::Grant => "grant",
            Source::HumanOnce => "human-once",
            Source::HumanGrant => "human-grant",
            Source::HumanDeny => "human-deny",
            Source::ExplicitDeny => "explicit-deny",
            Source::ForbiddenArg => "forbidden-arg",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DecisionView {
    pub result: Verdict,
    pub source: Source,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
}

impl DecisionView {
    pub fn allow(source: Source, rule: Option<String>) -> Self {
        Self {
            result: Verdict::Allow,
            source,
            rule,
        }
    }

    pub fn deny(source: Source, rule: Option<String>) -> Self {
        Self {
            result: Verdict::Deny,
            source,
            rule,
        }
    }
}

/// The result of one tool call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CallOutcome {
    /// The provider's MCP tool.
    pub provider: String,
    /// The alias, for target-aware tools; omitted for simple providers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// Absent only when the call failed before a decision (e.g. a broken policy file).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decision: Option<DecisionView>,
    /// Present only when a process ran; never on a denied call.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub execution: Option<Execution>,
    /// Why a call was denied, worded for the agent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// An operational failure; the MCP result carries `isError: true`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl CallOutcome {
    pub fn new(provider: &str, target: Option<&str>) -> Self {
        Self {
            provider: provider.to_string(),
            target: target.map(str::to_string),
            decision: None,
            execution: None,
            message: None,
            error: None,
        }
    }

    pub fn is_error(&self) -> bool {
        self.error.is_some()
    }

    pub(crate) fn denied(mut self, decision: DecisionView, message: impl Into<String>) -> Self {
        self.decision = Some(decision);
        self.message = Some(message.into());
        self
    }

    pub(crate) fn failed(mut self, error: impl Into<String>) -> Self {
        self.error = Some(error.into());
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn denied_call_serializes_without_execution_or_target() {
        let outcome = CallOutcome::new("aws", None).denied(
            DecisionView::deny(Source::ExplicitDeny, Some("s3 rm".into())),
            "denied",
        );
        let json = serde_json::to_value(&outcome).unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "provider": "aws",
                "decision": {"result": "deny", "source": "explicit-deny", "rule": "s3 rm"},
                "message": "denied"
            })
        );
    }

    #[test]
    fn sources_serialize_as_in_the_book() {
        for source in [
            Source::Rules,
            Source::Grant,
            Source::HumanOnce,
            Source::HumanGrant,
            Source::HumanDeny,
            Source::ExplicitDeny,
            Source::ForbiddenArg,
        ] {
            assert_eq!(serde_json::to_value(source).unwrap(), source.as_str());
        }
    }
}
