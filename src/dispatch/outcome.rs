//! What a call produced, in the shape the book's MCP API returns:
//! `{provider, target?, decision{result, source, rule?}, execution?}`, plus `message` (why a
//! call was denied, for the agent) and `error` (an operational failure, sent with `isError`).

use std::path::Path;

use schemars::JsonSchema;
use serde::Serialize;

use crate::runner::Execution;

use super::stop::Stop;

/// Whether the call crossed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Allow,
    Deny,
}

/// Who decided. The book's closed list of sources.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
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

#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct DecisionView {
    pub result: Verdict,
    pub source: Source,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
}

impl DecisionView {
    pub fn deny(source: Source, rule: Option<String>) -> Self {
        Self {
            result: Verdict::Deny,
            source,
            rule,
        }
    }
}

/// The result of one tool call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
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

    /// The answer for a call that stopped: its decision and message, or its error. (A failure
    /// after an allow keeps the allow, which the caller set.)
    pub(super) fn stopped(mut self, stop: Stop) -> Self {
        match stop {
            Stop::Denied { decision, message } => {
                self.decision = Some(decision);
                self.message = Some(message);
            }
            Stop::Failed(error) => self.error = Some(error.to_string()),
        }
        self
    }

    /// The outcome as the agent may see it: files in `message` and `error` named relative to
    /// the config root `root` (see [`relative_to_root`]).
    pub(crate) fn relative_to(mut self, root: &Path) -> Self {
        for text in [&mut self.message, &mut self.error].into_iter().flatten() {
            *text = relative_to_root(text, root);
        }
        self
    }
}

/// `text` with every path under the config root written relative to it
/// (`rules file not found: providers/aws/rules.yaml`), and the root itself as "the config
/// root": where the operator keeps Torii, and whose account, is not the agent's business. The
/// human's CLI and stderr keep full paths.
pub(crate) fn relative_to_root(text: &str, root: &Path) -> String {
    let shown = root.display().to_string();
    let root = shown.trim_end_matches(std::path::MAIN_SEPARATOR);
    if root.is_empty() || !text.contains(root) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(root) {
        let (before, found) = rest.split_at(at);
        out.push_str(before);
        let after = &found[root.len()..];
        match after.chars().next() {
            Some(std::path::MAIN_SEPARATOR) => {
                rest = &after[std::path::MAIN_SEPARATOR.len_utf8()..];
            }
            None => {
                out.push_str("the config root");
                rest = after;
            }
            Some(next) if next.is_whitespace() || ":,;)]\"'`".contains(next) => {
                out.push_str("the config root");
                rest = after;
            }
            // Another path that merely starts with the same characters (`torii-old`).
            Some(_) => {
                out.push_str(root);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn denied_call_serializes_without_execution_or_target() {
        let outcome = CallOutcome::new("aws", None).stopped(Stop::denied(
            Source::ExplicitDeny,
            Some("s3 rm".into()),
            "denied",
        ));
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

    /// Issue 11, finding 10: results named files by absolute path (the operator's home, the
    /// credentials file).
    #[test]
    fn agent_text_names_files_relative_to_the_root() {
        let root = Path::new("/home/ana/.config/torii");
        let outcome = CallOutcome::new("aws", None)
            .stopped(Stop::Failed(super::super::stop::CallError::Environment(
                crate::runner::EnvFileError::Read {
                    path: "/home/ana/.config/torii/providers/aws/.env".into(),
                    source: std::io::Error::other("see /home/ana/.config/torii"),
                },
            )))
            .relative_to(root);
        assert_eq!(
            outcome.error.as_deref(),
            Some("could not read env file `providers/aws/.env`: see the config root")
        );
        assert_eq!(
            relative_to_root("/usr/bin/aws failed", root),
            "/usr/bin/aws failed"
        );
        assert_eq!(
            relative_to_root("/home/ana/.config/torii-other/x", root),
            "/home/ana/.config/torii-other/x"
        );
        // A root written with a trailing separator still matches.
        assert_eq!(
            relative_to_root(
                "cannot read /home/ana/.config/torii/grants",
                Path::new("/home/ana/.config/torii/")
            ),
            "cannot read grants"
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
