//! The dispatcher: the only module that knows the order of a call.
//!
//! ```text
//! validate envelope → resolve provider/target, refuse locked options → load rules.yaml
//! → forbidden_args / explicit deny → lease (target-aware) → accept / grant / human decision
//! → re-check lease → load .env + session → identity → re-check lease → run
//! ```
//!
//! Every step that can fail, fails closed. Nothing on a denied path reads `.env`, credentials,
//! caches or runs a validator: those reads come strictly after an allow.

mod approval;
mod binding;
pub mod envelope;
mod human;
mod lease_gate;
mod locked;
mod outcome;
mod policy;
mod policy_view;
#[cfg(feature = "test-hooks")]
mod responder;
mod session;

use std::path::Path;

use lease_gate::Phase;
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{Map, Value};

pub use envelope::{Envelope, EnvelopeError, Shape};
pub use human::Human;
pub use locked::{find_locked, locked_options};
pub(crate) use outcome::relative_to_root;
pub use outcome::{CallOutcome, DecisionView, Source, Verdict};
pub use policy::PolicyCache;
pub use policy_view::{PolicyView, PolicyViewError};
pub use session::ReauthError;

use crate::audit::{AuditLog, Event, Reference};
use crate::auth::Authenticator;
use crate::confine::Confinement;
use crate::paths::ConfigRoot;
use crate::registry::{Provider, Registry, Target};
use crate::runner::{self, Launch};
use crate::secret::EnvVars;
use crate::settings::Settings;

/// A call refused before it reached a provider: the MCP layer answers invalid-params.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    #[error("unknown tool `{0}`")]
    UnknownTool(String),
    #[error(transparent)]
    Envelope(#[from] EnvelopeError),
    /// The client cancelled the call (or went away); nothing is answered.
    #[error("the call was cancelled")]
    Cancelled,
}

/// Everything a call needs, loaded once at startup and shared by concurrent calls.
#[derive(Debug)]
pub struct Dispatcher {
    /// The config root as configured: agent-facing text names files relative to it.
    root: std::path::PathBuf,
    registry: Arc<Registry>,
    settings: Settings,
    audit: AuditLog,
    policies: PolicyCache,
    human: Human,
    authenticator: Authenticator,
    confinement: Confinement,
    /// One permit per provider command running now (`settings.max_concurrent_calls`).
    running: tokio::sync::Semaphore,
}

impl Dispatcher {
    /// The dispatcher of `root`: its audit log, and children confined out of it as
    /// `settings.child_confinement` says. When children cannot be confined, that is said once,
    /// on stderr (never stdout) and in the audit.
    pub fn new(
        root: &ConfigRoot,
        registry: Arc<Registry>,
        settings: Settings,
        human: Human,
    ) -> Self {
        let audit = AuditLog::new(root.audit_log());
        let confinement = Confinement::new(
            root.configured(),
            settings.child_confinement,
            &programs(&registry),
        );
        if let Some(warning) = confinement.warning() {
            crate::human::progress(&format!("torii: {warning}"));
            audit.record(
                "torii",
                Event::ConfinementUnavailable,
                &Reference::none(),
                Some(confinement.mode().as_str()),
            );
        }
        if let Some(notice) = confinement.notice() {
            crate::human::progress(&format!("torii: {notice}"));
        }
        Self {
            root: root.dir().to_path_buf(),
            registry,
            audit,
            policies: PolicyCache::default(),
            human,
            authenticator: Authenticator::default(),
            confinement,
            running: tokio::sync::Semaphore::new(settings.max_concurrent_calls),
            settings,
        }
    }

    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// What `tool`'s arguments look like: `{args}` or `{target, args}` with every alias.
    pub fn shape(provider: &Provider) -> Shape {
        if provider.is_target_aware() {
            Shape::TargetAware {
                aliases: provider.targets().keys().cloned().collect(),
            }
        } else {
            Shape::Simple
        }
    }

    /// Runs one tool call through the whole pipeline, unless `cancelled` completes first: then
    /// the call stops where it is (its child's process group is killed, an open window
    /// closes), `cancelled` is audited and [`Refusal::Cancelled`] returned.
    pub async fn call(
        &self,
        tool: &str,
        arguments: Option<&Map<String, Value>>,
        cancelled: impl Future<Output = ()>,
    ) -> Result<CallOutcome, Refusal> {
        let provider = self
            .registry
            .by_tool(tool)
            .ok_or_else(|| Refusal::UnknownTool(envelope::clip(tool)))?;
        let envelope = envelope::parse(arguments, &Self::shape(provider))?;
        let target = envelope
            .target
            .as_deref()
            .and_then(|alias| provider.target(alias));
        tokio::select! {
            outcome = self.authorized_call(provider, target, &envelope.args) => {
                Ok(outcome.relative_to(&self.root))
            }
            () = cancelled => {
                self.audit.record(
                    &audit_scope(provider, target),
                    Event::Cancelled,
                    &Reference::from_args(&envelope.args),
                    None,
                );
                Err(Refusal::Cancelled)
            }
        }
    }

    async fn authorized_call(
        &self,
        provider: &Arc<Provider>,
        target: Option<&Target>,
        args: &[String],
    ) -> CallOutcome {
        let outcome = CallOutcome::new(provider.tool(), target.map(Target::alias));
        if let Some(flag) = locked::find_locked(provider.config(), args) {
            // Before policy and before `invoke`: nothing is audited, the value is not echoed.
            return outcome.failed(format!(
                "`{flag}` is locked: the target alias already fixes the context, identity and \
                 endpoint. Remove it and call again with the same target."
            ));
        }
        let scope = audit_scope(provider, target);
        let reference = Reference::from_args(args);
        self.audit.record(&scope, Event::Invoke, &reference, None);

        let policy = match self
            .policies
            .load(provider, target.map(Target::alias))
            .await
        {
            Ok(policy) => policy,
            Err(error) => return outcome.failed(error.to_string()),
        };
        let evaluation = policy.evaluate(args);
        if !evaluation.ignored_accept_matches.is_empty() {
            let detail = format!(
                "below minimum_accept_tokens={}",
                policy.settings().minimum_accept_tokens
            );
            self.audit
                .record(&scope, Event::InvalidAccept, &reference, Some(&detail));
        }

        // Explicit denies end the call before any lease, grant, human, env or auth.
        let rules_decision = match evaluation.decision {
            jasper::Decision::Forbidden { arg } => {
                let message = format!(
                    "the argument `{arg}` is forbidden for this tool: it opens a channel the \
                     policy cannot inspect. Pass the content inline instead."
                );
                return self.forbidden(&scope, &reference, outcome, arg, message);
            }
            jasper::Decision::ForbiddenValue { prefix } => {
                let message = format!(
                    "argument values starting with `{prefix}` are forbidden for this tool: the \
                     CLI would read them from a local file or another source the policy cannot \
                     inspect. Pass the value inline instead."
                );
                return self.forbidden(&scope, &reference, outcome, prefix, message);
            }
            jasper::Decision::DeniedExplicit { rule } => {
                self.audit
                    .record(&scope, Event::DeniedExplicit, &reference, None);
                return outcome.denied(
                    DecisionView::deny(Source::ExplicitDeny, Some(rule.clone())),
                    format!(
                        "denied by the policy rule `{rule}`. This operation is not available to \
                         the agent; do not retry it."
                    ),
                );
            }
            other => other,
        };

        if let Some(target) = target
            && let Err(denied) = self.gate_lease(provider, target, &scope, &outcome).await
        {
            return denied;
        }

        let decision = match rules_decision {
            jasper::Decision::Allowed { rule } => {
                self.audit
                    .record(&scope, Event::AllowedByRules, &reference, None);
                DecisionView::allow(Source::Rules, Some(rule))
            }
            _ => match self.find_grant(provider, target, args).await {
                Some(grant) => {
                    self.audit
                        .record(&scope, Event::AllowedByGrant, &reference, Some(&grant));
                    DecisionView::allow(Source::Grant, Some(grant))
                }
                None => match self
                    .ask_operation(provider, target, args, &scope, &reference, &outcome)
                    .await
                {
                    Ok(decision) => decision,
                    Err(denied) => return *denied,
                },
            },
        };
        let mut outcome = outcome;
        outcome.decision = Some(decision);
        self.execute(provider, target, args, &scope, &reference, outcome)
            .await
    }

    /// A call refused by the provider's `forbidden_args` or `forbidden_value_prefixes`:
    /// `listed` is the argument or prefix as the provider lists it, never the caller's value.
    fn forbidden(
        &self,
        scope: &str,
        reference: &Reference,
        outcome: CallOutcome,
        listed: String,
        message: String,
    ) -> CallOutcome {
        self.audit.record(
            scope,
            Event::DeniedExplicit,
            reference,
            Some("forbidden-arg"),
        );
        outcome.denied(
            DecisionView::deny(Source::ForbiddenArg, Some(listed)),
            message,
        )
    }

    /// A non-expired grant for exactly these arguments (a corrupt file grants nothing).
    async fn find_grant(
        &self,
        provider: &Provider,
        target: Option<&Target>,
        args: &[String],
    ) -> Option<String> {
        let path = match target {
            Some(target) => target.grants_path(),
            None => provider.grants_path(),
        };
        let grants = tokio::task::spawn_blocking(move || crate::grants::load(&path))
            .await
            .ok()?;
        grants.find(args, now_epoch()).map(|entry| {
            format!(
                "{} grant on {} tokens",
                entry.matcher.mode().as_str(),
                entry.matcher.token_count()
            )
        })
    }

    /// After an allow: environment, session, then the process.
    async fn execute(
        &self,
        provider: &Arc<Provider>,
        target: Option<&Target>,
        args: &[String],
        scope: &str,
        reference: &Reference,
        outcome: CallOutcome,
    ) -> CallOutcome {
        if let Some(target) = target
            && let Err(lost) = self
                .recheck_lease(provider, target, scope, Phase::BeforeEnvironment, &outcome)
                .await
        {
            return lost;
        }
        let env = match load_env(provider, target).await {
            Ok(env) => env,
            Err(error) => return outcome.failed(error),
        };
        let session = match self.prepare_session(provider, target, &env, scope).await {
            Ok(session) => session,
            Err(error) => return outcome.failed(error),
        };
        if let Some(target) = target
            && let Err(lost) = self
                .recheck_lease(
                    provider,
                    target,
                    scope,
                    Phase::AfterAuthentication,
                    &outcome,
                )
                .await
        {
            return lost;
        }
        let program = match runner::resolve(&provider.config().command) {
            Ok(program) => program,
            Err(error) => return outcome.failed(crate::errors::chain(&error)),
        };
        let mut launch_args = provider.config().args_prefix.clone();
        if let Some(target) = target {
            launch_args.extend(binding::target_args(provider, target));
        }
        launch_args.extend(args.iter().cloned());
        // Persistent values first, then what the session produced: the session wins.
        let env_overlay = runner::dotenv::overlay(env, session.set);
        let env_remove = session.removed;
        let launch = Launch {
            program,
            args: launch_args,
            env_overlay,
            env_remove,
            max_output_bytes: self.settings.max_output_bytes,
            confinement: self.confinement.clone(),
            timeout: self.call_timeout(provider),
        };
        // A call waiting here for a slot can still be cancelled: it holds nothing yet. The
        // wait comes before the last look at the lease, which may end while it waits.
        let Ok(_slot) = self.running.acquire().await else {
            return outcome.failed("the server is shutting down".to_string());
        };
        // The last look at the lease: nothing between this check and the spawn reads state or
        // waits.
        if let Some(target) = target
            && let Err(lost) = self
                .recheck_lease(provider, target, scope, Phase::AtLaunch, &outcome)
                .await
        {
            return lost;
        }
        match runner::run(launch).await {
            Ok(execution) => {
                let mut detail = format!("exit={}", execution.exit_code);
                if execution.timed_out {
                    detail.push_str(" timeout");
                }
                self.audit
                    .record(scope, Event::Ran, reference, Some(&detail));
                let mut outcome = outcome;
                outcome.execution = Some(execution);
                outcome
            }
            Err(error) => outcome.failed(crate::errors::chain(&error)),
        }
    }
}

impl Dispatcher {
    /// The provider's `limits.call_timeout_seconds`, else the server's; 0 is no limit.
    fn call_timeout(&self, provider: &Provider) -> Option<std::time::Duration> {
        let seconds = provider
            .config()
            .limits
            .call_timeout_seconds
            .unwrap_or(self.settings.call_timeout_seconds);
        (seconds > 0).then(|| std::time::Duration::from_secs(seconds))
    }
}

/// `provider` for simple providers, `provider/alias` for targets.
fn audit_scope(provider: &Provider, target: Option<&Target>) -> String {
    match target {
        Some(target) => format!("{}/{}", provider.name(), target.alias()),
        None => provider.name().to_string(),
    }
}

/// The provider's `.env`, with the target's `.env` overriding shared keys. Missing files are
/// empty; a malformed one fails the call naming the file.
async fn load_env(provider: &Provider, target: Option<&Target>) -> Result<EnvVars, String> {
    let shared = read_env(&provider.env_file_path()).await?;
    match target {
        Some(target) => Ok(runner::dotenv::overlay(
            shared,
            read_env(&target.env_file_path()).await?,
        )),
        None => Ok(shared),
    }
}

pub(crate) async fn read_env(path: &Path) -> Result<EnvVars, String> {
    let path = path.to_path_buf();
    tokio::task::spawn_blocking(move || runner::read_env_file(&path))
        .await
        .map_err(|error| format!("cannot read the environment file: {error}"))?
        .map_err(|error| crate::errors::chain(&error))
}

pub(crate) fn now_epoch() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |age| age.as_secs())
}

/// Every program a provider child may run, as resolved now: the commands, validators and
/// identity probes. One that does not resolve is left out (its call fails anyway).
fn programs(registry: &Registry) -> Vec<std::path::PathBuf> {
    // Many providers share a command (`aws` for every account): resolve each name once.
    let commands: std::collections::BTreeSet<&str> = registry
        .iter()
        .flat_map(|provider| {
            let config = provider.config();
            let auth = &config.auth;
            std::iter::once(config.command.as_str())
                .chain(auth.validate.as_ref().map(|spec| spec.command.as_str()))
                .chain(auth.identity.as_ref().map(|probe| probe.command.as_str()))
        })
        .collect();
    let programs: std::collections::BTreeSet<std::path::PathBuf> = commands
        .into_iter()
        .filter_map(|command| runner::resolve(command).ok())
        .collect();
    programs.into_iter().collect()
}
