//! Asking the human for a new session: the request the authentication window receives and
//! what comes back. Only a candidate the validator accepted ever comes back as `Validated`.

use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;

use crate::registry::AuthField;
use crate::secret::Secret;

use super::validator::Validator;

/// What the window shows and how it checks a candidate.
#[derive(Debug, Clone)]
pub struct CollectRequest {
    /// The provider whose session is collected.
    pub tool: String,
    /// The audit scope of the call (`aws`, `kubectl/dev`), shown to the human.
    pub scope: String,
    pub fields: Vec<AuthField>,
    pub validator: Option<Validator>,
}

/// The human's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Collected {
    /// A candidate that passed validation (or any complete candidate when there is no
    /// validator), after `refused` candidates were rejected.
    Validated {
        values: BTreeMap<String, Secret>,
        refused: u32,
    },
    /// Cancelled, or no human could be asked; `reason` is worded for the agent.
    Cancelled { refused: u32, reason: String },
}

/// Whoever can ask the human (a window, nobody when headless, a test script).
pub trait Collector: Send + Sync {
    fn collect<'a>(
        &'a self,
        request: CollectRequest,
    ) -> Pin<Box<dyn Future<Output = Collected> + Send + 'a>>;
}

/// Required fields the candidate leaves empty, by name.
pub fn missing_required(fields: &[AuthField], values: &BTreeMap<String, Secret>) -> Vec<String> {
    fields
        .iter()
        .filter(|field| {
            field.required
                && values
                    .get(&field.name)
                    .is_none_or(|value| value.expose().trim().is_empty())
        })
        .map(|field| field.name.clone())
        .collect()
}
