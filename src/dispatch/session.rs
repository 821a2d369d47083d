//! The session step of an allowed call, between the lease re-checks: which provider's
//! lifecycle runs, in which bucket, with which binding, and whether the identity probe must
//! confirm the session before the command.
//!
//! - simple provider: its own lifecycle in `identities/<tool>`;
//! - `kubectl_context` target: a preflight of the identity provider in `identities/<scope>`,
//!   audited with that provider's tool only; its `.env` and session reach the target child;
//! - `aws_profile` target: its own inherited lifecycle in `identities/<scope>` under the pinned
//!   profile, then the account check on every call.

use std::sync::Arc;

use crate::audit::{Event, Reference};
use crate::auth::{AuthError, Bucket, Probe, SessionRequest, confirm_identity};
use crate::registry::{Provider, Target, TargetingMode};
use crate::runner::{EnvFileError, RunError};
use crate::secret::{EnvVars, Secret};

use super::binding;
use super::stop::CallError;
use super::{Allowed, Binding, Call, Dispatcher, now_epoch};

/// Why an allowed call has no session to run with. The dispatcher renders it (with its causes)
/// as the call's error.
#[derive(Debug, thiserror::Error)]
pub(super) enum SessionError {
    #[error(transparent)]
    Auth(#[from] AuthError),
    /// The identity provider's own `.env`.
    #[error(transparent)]
    Environment(#[from] EnvFileError),
    /// The identity probe's program could not be resolved.
    #[error(transparent)]
    Probe(#[from] RunError),
    #[error("the identity provider of target `{alias}` is not installed")]
    IdentityNotInstalled { alias: String },
    #[error("`{tool}` declares no identity probe")]
    NoProbe { tool: String },
}

/// What the session adds to the target child, and what it removes from it.
#[derive(Debug, Default)]
pub(super) struct SessionEnv {
    pub set: EnvVars,
    pub removed: Vec<String>,
}

impl Dispatcher {
    /// The session of an allowed call (only an allow reaches sessions and credentials).
    pub(super) async fn prepare_session(
        &self,
        call: &Call<'_>,
        _allowed: &Allowed,
        env: &[(String, Secret)],
    ) -> Result<SessionEnv, CallError> {
        let (provider, scope) = (call.provider, call.scope.as_str());
        let now = now_epoch();
        let prepared = match &call.binding {
            Binding::Simple => self
                .authenticator
                .ensure(
                    self.session_request(
                        provider,
                        None,
                        env.to_vec(),
                        provider.config().auth.removed_env.clone(),
                        scope,
                        now,
                    ),
                    &self.audit,
                )
                .await
                .map(|set| SessionEnv {
                    set,
                    removed: provider.config().auth.removed_env.clone(),
                })
                .map_err(SessionError::Auth),
            Binding::Bound(target) => match provider.config().targeting_mode() {
                Some(TargetingMode::KubectlContext) => {
                    self.preflight(provider, target, scope, now).await
                }
                _ => self.own_binding(provider, target, env, scope, now).await,
            },
        };
        prepared.map_err(CallError::Session)
    }

    fn session_request<'a>(
        &'a self,
        provider: &'a Provider,
        target: Option<&Target>,
        base_env: EnvVars,
        removed_env: Vec<String>,
        scope: &'a str,
        now: u64,
    ) -> SessionRequest<'a> {
        SessionRequest {
            provider,
            bucket: Bucket::for_call(provider, target),
            base_env,
            removed_env,
            scope,
            collector: &self.human,
            force: false,
            now,
            confinement: &self.confinement,
        }
    }

    /// kubectl_context: the identity provider's lifecycle in the target's bucket.
    async fn preflight(
        &self,
        provider: &Arc<Provider>,
        target: &Target,
        scope: &str,
        now: u64,
    ) -> Result<SessionEnv, SessionError> {
        let Some(identity) = self.registry.identity_provider(target) else {
            return Err(SessionError::IdentityNotInstalled {
                alias: target.alias().to_string(),
            });
        };
        let label = Reference::label(identity.tool());
        self.audit
            .record(scope, Event::PreflightProvider, &label, None);
        let result = async {
            let (removed, binding_env) = binding::target_env(provider, identity, target);
            let mut base = crate::runner::read_env_file(&identity.env_file_path())?;
            base.extend(binding_env.iter().cloned());
            let session = self
                .ensure_then_probe(
                    identity,
                    target,
                    &base,
                    &removed,
                    Vec::new(),
                    true,
                    scope,
                    now,
                )
                .await?;
            let mut set = base;
            set.extend(session);
            Ok::<_, SessionError>(SessionEnv { set, removed })
        }
        .await;
        let event = if result.is_ok() {
            Event::PreflightOk
        } else {
            Event::PreflightFailed
        };
        self.audit.record(scope, event, &label, None);
        result
    }

    /// aws_profile: the provider authenticates its own binding, and the account is checked on
    /// every allowed call with exactly that binding (profile, region), never the ambient one.
    async fn own_binding(
        &self,
        provider: &Arc<Provider>,
        target: &Target,
        env: &[(String, Secret)],
        scope: &str,
        now: u64,
    ) -> Result<SessionEnv, SessionError> {
        let (removed, binding_env) = binding::target_env(provider, provider, target);
        let mut base = env.to_vec();
        base.extend(binding_env.iter().cloned());
        let probe_args = binding::target_args(provider, target);
        let session = self
            .ensure_then_probe(
                provider, target, &base, &removed, probe_args, false, scope, now,
            )
            .await?;
        let mut set = binding_env;
        set.extend(session);
        Ok(SessionEnv { set, removed })
    }

    /// The session `authenticated` holds for `target` (collected first when it has none) and,
    /// when the target expects an identity, the probe's confirmation of it, run with `base` and
    /// the session and `probe_args` after the probe's own arguments. `use_cache`: a recent
    /// confirmation in the bucket may stand (an identity provider's preflight; an aws_profile
    /// binding is checked on every call).
    #[allow(clippy::too_many_arguments)]
    async fn ensure_then_probe(
        &self,
        authenticated: &Provider,
        target: &Target,
        base: &EnvVars,
        removed: &[String],
        probe_args: Vec<String>,
        use_cache: bool,
        scope: &str,
        now: u64,
    ) -> Result<EnvVars, SessionError> {
        let request = self.session_request(
            authenticated,
            Some(target),
            base.clone(),
            removed.to_vec(),
            scope,
            now,
        );
        let session = self.authenticator.ensure(request, &self.audit).await?;
        if let Some(expect) = &target.config().identity.expect {
            let mut probe_env = base.clone();
            probe_env.extend(session.iter().cloned());
            let probe = self.probe(authenticated, probe_args, probe_env, removed.to_vec())?;
            confirm_identity(
                &probe,
                expect,
                &Bucket::for_call(authenticated, Some(target)),
                use_cache,
                &self.audit,
                scope,
                now,
            )
            .await?;
        }
        Ok(session)
    }

    fn probe(
        &self,
        identity: &Provider,
        binding_args: Vec<String>,
        env: EnvVars,
        removed: Vec<String>,
    ) -> Result<Probe, SessionError> {
        let auth = &identity.config().auth;
        let Some(spec) = &auth.identity else {
            return Err(SessionError::NoProbe {
                tool: identity.tool().to_string(),
            });
        };
        let ttl = auth
            .identity_ttl_seconds()
            .unwrap_or(auth.cache_ttl_seconds);
        Ok(Probe::new(
            spec,
            ttl,
            binding_args,
            env,
            removed,
            &self.confinement,
        )?)
    }
}

/// Why `torii reauth` renewed nothing.
#[derive(Debug, thiserror::Error)]
pub enum ReauthError {
    #[error("no provider with tool or name `{0}` is installed")]
    UnknownProvider(String),
    #[error("`{tool}` has no target `{alias}`")]
    UnknownTarget { tool: String, alias: String },
    #[error("`{0}` is target-aware: name the target, e.g. `torii reauth {0} <alias>`")]
    TargetRequired(String),
    #[error("`{0}` is not target-aware: `torii reauth {0}` takes no target")]
    NotTargetAware(String),
    #[error(
        "inherited authentication cannot be renewed: `{tool}` uses the session of the CLI itself. \
         Renew it with the CLI's own flow (for example its `login` command), then retry the call"
    )]
    Inherited { tool: String },
    #[error(
        "aws_profile sessions are never changed by Torii: authenticate the profile `{profile}` with \
         the AWS CLI's own flow (for example `aws sso login --profile {profile}`), then retry the \
         call with the same alias"
    )]
    NativeProfile { profile: String },
    #[error(transparent)]
    Auth(#[from] AuthError),
    /// Rendered with its cause, as the call's error is.
    #[error("{}", crate::errors::chain(.0))]
    Environment(EnvFileError),
}

impl Dispatcher {
    /// `torii reauth <tool> [target]`: collect a new managed session even if the stored one is
    /// valid, validating it before it replaces the old one. A target delegates to its identity
    /// provider in the target's bucket.
    pub async fn reauth(&self, tool: &str, alias: Option<&str>) -> Result<(), ReauthError> {
        let provider = self
            .registry
            .by_tool(tool)
            .or_else(|| self.registry.by_name(tool))
            .ok_or_else(|| ReauthError::UnknownProvider(tool.to_string()))?;
        let target = match (alias, provider.is_target_aware()) {
            (Some(alias), true) => {
                Some(
                    provider
                        .target(alias)
                        .ok_or_else(|| ReauthError::UnknownTarget {
                            tool: provider.tool().to_string(),
                            alias: alias.to_string(),
                        })?,
                )
            }
            (None, true) => return Err(ReauthError::TargetRequired(provider.tool().to_string())),
            (Some(_), false) => {
                return Err(ReauthError::NotTargetAware(provider.tool().to_string()));
            }
            (None, false) => None,
        };
        let mode = provider.config().targeting_mode();
        let (identity, base_env, removed_env) = match (target, mode) {
            (Some(target), Some(TargetingMode::AwsProfile)) => {
                let profile = target.config().identity.profile.clone().unwrap_or_default();
                return Err(ReauthError::NativeProfile { profile });
            }
            (Some(target), _) => {
                let identity = self.registry.identity_provider(target).ok_or_else(|| {
                    ReauthError::UnknownProvider(target.identity_provider().to_string())
                })?;
                let (removed, binding_env) = binding::target_env(provider, identity, target);
                let mut base = crate::runner::read_env_file(&identity.env_file_path())
                    .map_err(ReauthError::Environment)?;
                base.extend(binding_env);
                (identity, base, removed)
            }
            (None, _) => {
                let base = crate::runner::read_env_file(&provider.env_file_path())
                    .map_err(ReauthError::Environment)?;
                (provider, base, provider.config().auth.removed_env.clone())
            }
        };
        if identity.config().auth.strategy == crate::registry::Strategy::Inherited {
            return Err(ReauthError::Inherited {
                tool: identity.tool().to_string(),
            });
        }
        let binding = target.cloned().map_or(Binding::Simple, Binding::Bound);
        let scope = super::scope(provider, &binding);
        let mut request = self.session_request(
            identity,
            target.map(Arc::as_ref),
            base_env,
            removed_env,
            &scope,
            now_epoch(),
        );
        request.force = true;
        self.authenticator.ensure(request, &self.audit).await?;
        Ok(())
    }
}
