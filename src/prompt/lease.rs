//! The lease question: a call names a configured alias that has no live lease. The human
//! replaces every active lease with this one, adds it to the active set, or denies.

use serde::{Deserialize, Serialize};

use super::InvalidAnswer;
use crate::leases::{Activation, LeaseMinutes};

/// What the window shows for an inactive alias.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeaseRequest {
    /// The target-aware MCP tool.
    pub tool: String,
    /// The alias the agent asked for.
    pub alias: String,
    /// Human-only description of what the alias is bound to, e.g. `context mdb-k8s-dev`. It
    /// travels over the private pipe to the window, never to the agent.
    pub binding: String,
    /// Aliases of this tool with a live lease now (the requested one is never among them).
    pub active_aliases: Vec<String>,
    /// Initial value of the duration field (`default_target_minutes`).
    pub default_minutes: u64,
}

/// The human's decision on an inactive alias.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum LeaseAnswer {
    /// Nothing changes.
    Deny,
    /// This alias becomes the only active one.
    Replace { minutes: u64 },
    /// This alias joins the active ones.
    Add { minutes: u64 },
}

impl LeaseAnswer {
    /// The activation to apply (with compare-and-swap on the revision the request was built
    /// from), or `None` for deny. Only called on checked answers, whose minutes are in range.
    pub fn activation(&self) -> Option<(Activation, LeaseMinutes)> {
        let (mode, minutes) = match *self {
            LeaseAnswer::Deny => return None,
            LeaseAnswer::Replace { minutes } => (Activation::Replace, minutes),
            LeaseAnswer::Add { minutes } => (Activation::Add, minutes),
        };
        LeaseMinutes::new(minutes)
            .ok()
            .map(|minutes| (mode, minutes))
    }
}

impl LeaseRequest {
    /// Accepts `answer` only with a duration of 1 to 1440 minutes.
    pub(super) fn check_answer(&self, answer: LeaseAnswer) -> Result<LeaseAnswer, InvalidAnswer> {
        match answer {
            LeaseAnswer::Deny => Ok(answer),
            LeaseAnswer::Replace { minutes } | LeaseAnswer::Add { minutes } => {
                match LeaseMinutes::new(minutes) {
                    Ok(_) => Ok(answer),
                    Err(error) => Err(InvalidAnswer(error.to_string())),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minutes_must_be_1_to_1440() {
        let request = LeaseRequest {
            tool: "kubectl".into(),
            alias: "dev".into(),
            binding: "context dev-cluster".into(),
            active_aliases: vec![],
            default_minutes: 15,
        };
        let cases = [
            (LeaseAnswer::Deny, true),
            (LeaseAnswer::Replace { minutes: 1 }, true),
            (LeaseAnswer::Add { minutes: 1440 }, true),
            (LeaseAnswer::Replace { minutes: 0 }, false),
            (LeaseAnswer::Add { minutes: 1441 }, false),
            (LeaseAnswer::Add { minutes: u64::MAX }, false),
        ];
        for (answer, ok) in cases {
            assert_eq!(request.check_answer(answer).is_ok(), ok, "{answer:?}");
        }
    }

    #[test]
    fn answers_map_to_activations() {
        assert_eq!(LeaseAnswer::Deny.activation(), None);
        let (mode, minutes) = LeaseAnswer::Add { minutes: 30 }.activation().unwrap();
        assert_eq!((mode, minutes.get()), (Activation::Add, 30));
        let (mode, minutes) = LeaseAnswer::Replace { minutes: 5 }.activation().unwrap();
        assert_eq!((mode, minutes.get()), (Activation::Replace, 5));
        assert_eq!(LeaseAnswer::Replace { minutes: 0 }.activation(), None);
    }
}
