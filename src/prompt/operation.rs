//! The operation question: a call that no rule and no grant decided. The human denies it,
//! allows it once, or allows it for a while with an exact or prefix scope.

use serde::{Deserialize, Serialize};

use super::InvalidAnswer;
use crate::settings::MINUTES_RANGE;

/// What the window shows for an unresolved call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OperationRequest {
    /// The MCP tool (provider) that was called.
    pub tool: String,
    /// The target alias, for target-aware tools.
    pub target: Option<String>,
    /// The agent's arguments, exactly as they will be matched and run.
    pub args: Vec<String>,
    /// Initial value of the duration field, in minutes (`default_grant_minutes`).
    pub default_grant_minutes: u64,
    /// Seconds left on the oldest valid temporary grant in this scope (provider or target), if
    /// any: the window then offers a first duration that ends the new grant together with it.
    pub oldest_grant_remaining_secs: Option<u64>,
}

/// Which argument vectors a temporary grant covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum GrantScope {
    /// The same tokens, in the same order, and no others.
    Exact,
    /// The first `tokens` arguments; anything after them may change, vanish or be added.
    Prefix { tokens: usize },
}

/// The human's decision on an unresolved call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum OperationAnswer {
    Deny,
    /// This call only; nothing is stored.
    Once,
    /// Store a grant lasting `duration_secs` from the moment the answer arrives.
    Temporary {
        scope: GrantScope,
        duration_secs: u64,
    },
}

impl OperationAnswer {
    /// Whether the call may go on.
    pub fn allows(&self) -> bool {
        !matches!(self, OperationAnswer::Deny)
    }
}

impl OperationRequest {
    /// Accepts `answer` only if it fits this request: a prefix of 1 to `args.len()` tokens and a
    /// duration of whole minutes within 1..=1440, or of at most the oldest grant's remaining
    /// seconds when the window offered to end with it.
    pub(super) fn check_answer(
        &self,
        answer: OperationAnswer,
    ) -> Result<OperationAnswer, InvalidAnswer> {
        let OperationAnswer::Temporary {
            scope,
            duration_secs,
        } = answer
        else {
            return Ok(answer);
        };
        if let GrantScope::Prefix { tokens } = scope
            && !(1..=self.args.len()).contains(&tokens)
        {
            return Err(InvalidAnswer(format!(
                "a prefix of {tokens} tokens on a call with {} arguments",
                self.args.len()
            )));
        }
        let whole_minutes =
            duration_secs.is_multiple_of(60) && MINUTES_RANGE.contains(&(duration_secs / 60));
        let ends_with_oldest = self.oldest_grant_remaining_secs.is_some_and(|remaining| {
            (1..=remaining.min(jasper::MAX_GRANT_SECONDS)).contains(&duration_secs)
        });
        if whole_minutes || ends_with_oldest {
            Ok(answer)
        } else {
            Err(InvalidAnswer(format!(
                "a grant of {duration_secs} seconds is outside 1 to 1440 minutes"
            )))
        }
    }
}

/// The grant matcher a temporary answer stands for, built from the same vector the window
/// showed; `None` for deny and once.
pub fn grant_matcher(
    args: &[String],
    answer: &OperationAnswer,
) -> Option<Result<jasper::GrantMatcher, jasper::GrantMatcherError>> {
    match answer {
        OperationAnswer::Temporary {
            scope: GrantScope::Exact,
            ..
        } => Some(Ok(jasper::GrantMatcher::exact(args))),
        OperationAnswer::Temporary {
            scope: GrantScope::Prefix { tokens },
            ..
        } => Some(jasper::GrantMatcher::prefix(args, *tokens)),
        OperationAnswer::Deny | OperationAnswer::Once => None,
    }
}

/// Seconds left on the grant that expires first among the valid ones, for
/// [`OperationRequest::oldest_grant_remaining_secs`].
pub fn oldest_grant_remaining_secs(grants: &jasper::Grants, now_epoch_secs: u64) -> Option<u64> {
    grants
        .entries()
        .iter()
        .filter(|entry| !entry.is_expired(now_epoch_secs))
        .map(|entry| entry.expires_at.saturating_sub(now_epoch_secs))
        .min()
}

/// An `aws` request for `args` (2-minute default grants), for the tests of the request and of
/// the window.
#[cfg(test)]
pub(crate) fn test_request(args: &[&str], oldest: Option<u64>) -> OperationRequest {
    OperationRequest {
        tool: "aws".into(),
        target: None,
        args: args.iter().map(|arg| arg.to_string()).collect(),
        default_grant_minutes: 2,
        oldest_grant_remaining_secs: oldest,
    }
}

#[cfg(test)]
mod tests {
    use super::test_request as request;
    use super::*;

    fn temporary(scope: GrantScope, duration_secs: u64) -> OperationAnswer {
        OperationAnswer::Temporary {
            scope,
            duration_secs,
        }
    }

    #[test]
    fn answers_outside_the_request_are_refused() {
        let three = request(&["s3", "ls", "--recursive"], None);
        let prefix = |tokens| GrantScope::Prefix { tokens };
        let cases = [
            (OperationAnswer::Deny, true),
            (OperationAnswer::Once, true),
            (temporary(GrantScope::Exact, 60), true),
            (temporary(GrantScope::Exact, 1440 * 60), true),
            (temporary(prefix(1), 120), true),
            (temporary(prefix(3), 120), true),
            (temporary(prefix(0), 120), false),
            (temporary(prefix(4), 120), false),
            (temporary(GrantScope::Exact, 0), false),
            (temporary(GrantScope::Exact, 59), false),
            (temporary(GrantScope::Exact, 90), false),
            (temporary(GrantScope::Exact, 1441 * 60), false),
            (temporary(GrantScope::Exact, u64::MAX), false),
        ];
        for (answer, ok) in cases {
            assert_eq!(three.check_answer(answer).is_ok(), ok, "{answer:?}");
        }
    }

    #[test]
    fn broken_seconds_only_up_to_the_oldest_grant() {
        let with_oldest = request(&["s3", "ls"], Some(83));
        assert!(
            with_oldest
                .check_answer(temporary(GrantScope::Exact, 83))
                .is_ok()
        );
        assert!(
            with_oldest
                .check_answer(temporary(GrantScope::Exact, 1))
                .is_ok()
        );
        assert!(
            with_oldest
                .check_answer(temporary(GrantScope::Exact, 84))
                .is_err()
        );
        let without = request(&["s3", "ls"], None);
        assert!(
            without
                .check_answer(temporary(GrantScope::Exact, 83))
                .is_err()
        );
    }

    #[test]
    fn matchers_come_from_the_shown_vector() {
        let args: Vec<String> = ["get", "pods", "-n", "x"].map(String::from).to_vec();
        let exact = grant_matcher(&args, &temporary(GrantScope::Exact, 60))
            .unwrap()
            .unwrap();
        assert_eq!(exact, jasper::GrantMatcher::exact(&args));
        let prefix = grant_matcher(&args, &temporary(GrantScope::Prefix { tokens: 2 }, 60))
            .unwrap()
            .unwrap();
        assert_eq!(prefix, jasper::GrantMatcher::prefix(&args, 2).unwrap());
        assert!(grant_matcher(&args, &OperationAnswer::Once).is_none());
        assert!(!OperationAnswer::Deny.allows());
        assert!(OperationAnswer::Once.allows());
    }

    #[test]
    fn oldest_grant_is_the_first_to_expire() {
        let args: Vec<String> = ["s3", "ls"].map(String::from).to_vec();
        let mut grants = jasper::Grants::empty();
        assert_eq!(oldest_grant_remaining_secs(&grants, 1000), None);
        grants.push(jasper::GrantEntry::new(
            1300,
            jasper::GrantMatcher::exact(&args),
        ));
        grants.push(jasper::GrantEntry::new(
            1083,
            jasper::GrantMatcher::exact(&args),
        ));
        grants.push(jasper::GrantEntry::new(
            900,
            jasper::GrantMatcher::exact(&args),
        ));
        assert_eq!(oldest_grant_remaining_secs(&grants, 1000), Some(83));
    }
}
