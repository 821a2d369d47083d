//! Authentication sessions: the lifecycle that runs only after Jasper allowed a call.
//!
//! Each credential bucket (`identities/<scope>/` of the identity provider) has its own async
//! lock; the session is re-checked inside it, so concurrent calls on one scope open at most one
//! collection window while other scopes proceed.
//!
//! - `environment`: stored `auth/credentials.env` → short cache → validator → if invalid, ask
//!   the human for a candidate (validated before it comes back) → persist atomically → cache.
//!   A cancelled or refused candidate never replaces the previous file.
//! - `inherited`: nothing is collected; a validator, when declared, must accept the inherited
//!   session (cached for `cache_ttl_seconds`); without one the call is `session-unchecked`.
//! - `session_command`, `credential_file`: part of the schema, refused at runtime.
//!
//! The environment returned is for the child process only; it never touches the server's own.

mod bucket;
mod cache;
mod collect;
mod credentials;
mod error;
mod identity;
mod validator;

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

pub use bucket::Bucket;
pub use collect::{CollectRequest, Collected, Collector, missing_required};
pub use error::AuthError;
pub use identity::{Probe, confirm as confirm_identity};
pub use validator::{Validator, inject, injection};

use crate::audit::{AuditLog, Event, Reference};
use crate::confine::Confinement;
use crate::registry::{Provider, Strategy};
use crate::secret::{EnvVars, Secret};

/// One session to make ready.
pub struct SessionRequest<'a> {
    /// The provider whose lifecycle runs (a target's identity provider, or the provider).
    pub provider: &'a Provider,
    pub bucket: Bucket,
    /// That provider's persistent `.env`, plus any binding variables, for the validator.
    pub base_env: EnvVars,
    /// Inherited variables the validator must not see: the provider's `removed_env`, plus the
    /// binding's (for `aws_profile`, ambient AWS credentials and endpoints), exactly as for the
    /// command itself.
    pub removed_env: Vec<String>,
    /// Audit scope of the call.
    pub scope: &'a str,
    pub collector: &'a dyn Collector,
    /// `torii reauth`: collect a new session even if the stored one is valid.
    pub force: bool,
    pub now: u64,
    /// Keeps the validator out of the config root.
    pub confinement: &'a Confinement,
}

/// Per-bucket locks, shared by every call of one server (or one CLI command).
#[derive(Debug, Default)]
pub struct Authenticator {
    locks: Mutex<HashMap<PathBuf, Arc<tokio::sync::Mutex<()>>>>,
}

fn strategy_name(strategy: Strategy) -> &'static str {
    match strategy {
        Strategy::Inherited => "inherited",
        Strategy::Environment => "environment",
        Strategy::SessionCommand => "session_command",
        Strategy::CredentialFile => "credential_file",
    }
}

impl Authenticator {
    fn lock_for(&self, bucket: &Bucket) -> Arc<tokio::sync::Mutex<()>> {
        let mut locks = self
            .locks
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        Arc::clone(locks.entry(bucket.dir().to_path_buf()).or_default())
    }

    /// Makes the session ready and returns the variables it adds to the child.
    pub async fn ensure(
        &self,
        request: SessionRequest<'_>,
        audit: &AuditLog,
    ) -> Result<EnvVars, AuthError> {
        let auth = &request.provider.config().auth;
        let tool = request.provider.tool().to_string();
        match auth.strategy {
            Strategy::Environment => {}
            Strategy::Inherited => return self.inherited(&request, audit).await,
            other => {
                return Err(AuthError::NotImplemented {
                    tool,
                    strategy: strategy_name(other),
                });
            }
        }
        let lock = self.lock_for(&request.bucket);
        let _held = lock.lock().await;
        if request.force {
            audit.record(request.scope, Event::ReauthForced, &Reference::none(), None);
        } else if let Some(values) = self.stored_session(&request, audit).await? {
            return Ok(inject(&injection(request.provider), &values));
        }
        self.collect(&request, audit).await
    }

    /// A stored session that is still good (cache or validator), checked inside the lock.
    async fn stored_session(
        &self,
        request: &SessionRequest<'_>,
        audit: &AuditLog,
    ) -> Result<Option<BTreeMap<String, Secret>>, AuthError> {
        let provider = request.provider;
        let tool = provider.tool().to_string();
        let auth = &provider.config().auth;
        let stored = credentials::read(&request.bucket.credentials()).map_err(|source| {
            AuthError::Credentials {
                tool: tool.clone(),
                source,
            }
        })?;
        let Some(values) =
            stored.filter(|values| missing_required(&auth.fields, values).is_empty())
        else {
            audit.record(
                request.scope,
                Event::SessionInvalid,
                &Reference::none(),
                Some("missing"),
            );
            return Ok(None);
        };
        let Some(validator) = validator_of(request)? else {
            audit.record(
                request.scope,
                Event::SessionOk,
                &Reference::none(),
                Some("unvalidated"),
            );
            return Ok(Some(values));
        };
        Ok(check_session(request, &validator, &values, audit)
            .await?
            .then_some(values))
    }

    /// Asks the human; persists only a validated candidate.
    async fn collect(
        &self,
        request: &SessionRequest<'_>,
        audit: &AuditLog,
    ) -> Result<EnvVars, AuthError> {
        let provider = request.provider;
        let tool = provider.tool().to_string();
        let validator = validator_of(request)?;
        let answer = request
            .collector
            .collect(CollectRequest {
                tool: tool.clone(),
                scope: request.scope.to_string(),
                fields: provider.config().auth.fields.clone(),
                validator,
            })
            .await;
        let refused = match &answer {
            Collected::Validated { refused, .. } | Collected::Cancelled { refused, .. } => *refused,
        };
        for _ in 0..refused {
            audit.record(
                request.scope,
                Event::SessionCandidateInvalid,
                &Reference::none(),
                None,
            );
        }
        match answer {
            Collected::Cancelled { reason, .. } => Err(AuthError::Cancelled { tool, reason }),
            Collected::Validated { values, .. } => {
                // Only declared fields are ever stored.
                let fields = &provider.config().auth.fields;
                let values: BTreeMap<String, Secret> = values
                    .into_iter()
                    .filter(|(name, _)| fields.iter().any(|field| &field.name == name))
                    .collect();
                let missing = missing_required(fields, &values);
                if !missing.is_empty() {
                    return Err(AuthError::Cancelled {
                        tool,
                        reason: format!("required fields are empty: {}", missing.join(", ")),
                    });
                }
                credentials::write(&request.bucket.credentials(), &values).map_err(|source| {
                    AuthError::Persist {
                        tool: tool.clone(),
                        source,
                    }
                })?;
                if provider.config().auth.validate.is_some() {
                    let _ = cache::record_session(&request.bucket.session_cache(), request.now);
                }
                audit.record(
                    request.scope,
                    Event::SessionRefreshed,
                    &Reference::none(),
                    None,
                );
                Ok(inject(&injection(provider), &values))
            }
        }
    }

    async fn inherited(
        &self,
        request: &SessionRequest<'_>,
        audit: &AuditLog,
    ) -> Result<EnvVars, AuthError> {
        let Some(validator) = validator_of(request)? else {
            audit.record(
                request.scope,
                Event::SessionUnchecked,
                &Reference::none(),
                None,
            );
            return Ok(Vec::new());
        };
        let lock = self.lock_for(&request.bucket);
        let _held = lock.lock().await;
        if check_session(request, &validator, &BTreeMap::new(), audit).await? {
            Ok(Vec::new())
        } else {
            Err(AuthError::InheritedInvalid {
                tool: request.provider.tool().to_string(),
            })
        }
    }
}

/// The provider's validator, with the request's base environment.
fn validator_of(request: &SessionRequest<'_>) -> Result<Option<Validator>, AuthError> {
    Validator::of(
        request.provider,
        request.base_env.clone(),
        request.removed_env.clone(),
        request.confinement,
    )
    .map_err(|source| AuthError::Validator {
        tool: request.provider.tool().to_string(),
        source,
    })
}

/// Whether the session made of `values` is good: a fresh `.session-cache`, else the validator
/// (whose success refreshes the cache). Audits `session-ok` or `session-invalid`.
async fn check_session(
    request: &SessionRequest<'_>,
    validator: &Validator,
    values: &BTreeMap<String, Secret>,
    audit: &AuditLog,
) -> Result<bool, AuthError> {
    let ttl = request.provider.config().auth.cache_ttl_seconds;
    let cache_path = request.bucket.session_cache();
    if cache::session_is_fresh(&cache_path, ttl, request.now) {
        audit.record(
            request.scope,
            Event::SessionOk,
            &Reference::none(),
            Some("cached"),
        );
        return Ok(true);
    }
    let accepted = validator
        .accepts(values)
        .await
        .map_err(|source| AuthError::Validator {
            tool: request.provider.tool().to_string(),
            source,
        })?;
    if accepted {
        // The cache only saves a validator run; failing to write it must not fail the call.
        let _ = cache::record_session(&cache_path, request.now);
        audit.record(request.scope, Event::SessionOk, &Reference::none(), None);
    } else {
        audit.record(
            request.scope,
            Event::SessionInvalid,
            &Reference::none(),
            None,
        );
    }
    Ok(accepted)
}
