//! The two JSON lines of the protocol. Both carry the protocol version, so a server and a
//! prompt from different builds (say, across an upgrade of the binary) refuse each other
//! instead of misreading a field; unknown fields are refused for the same reason.

use serde::{Deserialize, Serialize};

use super::{
    AuthAnswer, AuthRequest, LeaseAnswer, LeaseRequest, OperationAnswer, OperationRequest,
};

/// Version of the request and answer lines; bumped on any incompatible change.
pub const PROTOCOL_VERSION: u32 = 2;

/// One question for the human.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Request {
    Operation(OperationRequest),
    TargetLease(LeaseRequest),
    Authenticate(AuthRequest),
}

/// The human's answer to one [`Request`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Answer {
    Operation(OperationAnswer),
    TargetLease(LeaseAnswer),
    Authenticate(AuthAnswer),
}

/// The line the server writes to the prompt's stdin.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RequestLine {
    pub protocol: u32,
    /// The language the window speaks: the server's, chosen once at its start.
    pub language: crate::language::Language,
    pub request: Request,
}

/// The line the prompt writes to its stdout.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct AnswerLine {
    pub protocol: u32,
    pub answer: Answer,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prompt::GrantScope;

    #[test]
    fn lines_look_as_documented() {
        let request = RequestLine {
            protocol: PROTOCOL_VERSION,
            language: crate::language::Language::BrazilianPortuguese,
            request: Request::TargetLease(LeaseRequest {
                tool: "kubectl".into(),
                alias: "dev".into(),
                binding: "context dev-cluster".into(),
                active_aliases: vec!["hml".into()],
                default_minutes: 15,
            }),
        };
        assert_eq!(
            serde_json::to_string(&request).unwrap(),
            r#"{"protocol":2,"language":"pt-BR","request":{"target_lease":{"tool":"kubectl","alias":"dev","binding":"context dev-cluster","active_aliases":["hml"],"default_minutes":15}}}"#
        );
        let answer = AnswerLine {
            protocol: PROTOCOL_VERSION,
            answer: Answer::Operation(OperationAnswer::Temporary {
                scope: GrantScope::Prefix { tokens: 2 },
                duration_secs: 120,
            }),
        };
        let text = serde_json::to_string(&answer).unwrap();
        assert_eq!(
            text,
            r#"{"protocol":2,"answer":{"operation":{"temporary":{"scope":{"prefix":{"tokens":2}},"duration_secs":120}}}}"#
        );
        let back: AnswerLine = serde_json::from_str(&text).unwrap();
        assert_eq!(back.answer, answer.answer);
        let deny: AnswerLine =
            serde_json::from_str(r#"{"protocol":2,"answer":{"operation":"deny"}}"#).unwrap();
        assert_eq!(deny.answer, Answer::Operation(OperationAnswer::Deny));
    }

    #[test]
    fn unknown_fields_and_kinds_are_refused() {
        for text in [
            r#"{"protocol":2,"answer":{"operation":"deny"},"extra":1}"#,
            r#"{"protocol":2,"answer":{"operation":"maybe"}}"#,
            r#"{"protocol":2,"answer":{"target_lease":{"add":{"minutes":5,"also":1}}}}"#,
            r#"{"protocol":2,"answer":{"operation":{"temporary":{"scope":"exact"}}}}"#,
            r#"{"answer":{"operation":"deny"}}"#,
        ] {
            assert!(serde_json::from_str::<AnswerLine>(text).is_err(), "{text}");
        }
    }
}
