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

mod admin_deny;
mod binding;
mod decide;
pub mod envelope;
mod human;
mod lease_gate;
mod locked;
mod outcome;
mod policy_tool;
#[cfg(feature = "test-hooks")]
mod responder;
mod rules_cache;
mod session;
mod stop;

use lease_gate::Phase;
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{Map, Value};

pub use admin_deny::AdminDenies;
use decide::Allowed;
pub use envelope::{Envelope, EnvelopeError, Shape};
pub use human::Human;
pub use locked::{find_locked, locked_options};
pub(crate) use outcome::relative_to_root;
pub use outcome::{CallOutcome, DecisionView, Source, Verdict};
pub use policy_tool::{PolicyAnswer, PolicyFailure, PolicyView, PolicyViewError};
use rules_cache::RulesCache;
pub use session::ReauthError;
use stop::{CallError, Step};

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
    rules: RulesCache,
    human: Human,
    authenticator: Authenticator,
    confinement: Confinement,
    /// One permit per provider command running now (`settings.max_concurrent_calls`).
    running: tokio::sync::Semaphore,
    /// The administrator's deny rules, checked before the user's policy.
    admin: AdminDenies,
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
        let audit = AuditLog::of_root(root, &settings);
        let confinement = Confinement::new(
            root.configured(),
            settings.child_confinement,
            &programs(&registry),
        );
        if let Some(warning) = confinement.warning() {
            crate::console::progress(&format!("torii: {warning}"));
            audit.record(
                "torii",
                Event::ConfinementUnavailable,
                &Reference::none(),
                Some(confinement.mode().as_str()),
            );
        }
        Self {
            root: root.dir().to_path_buf(),
            registry,
            audit,
            rules: RulesCache::default(),
            human,
            authenticator: Authenticator::default(),
            confinement,
            running: tokio::sync::Semaphore::new(settings.max_concurrent_calls),
            settings,
            admin: AdminDenies::default(),
        }
    }

    /// The dispatcher with the administrator's deny rules.
    pub fn with_admin(mut self, admin: AdminDenies) -> Self {
        self.admin = admin;
        self
    }

    pub fn audit(&self) -> &AuditLog {
        &self.audit
    }

    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// The MCP client's name, from its `initialize`: the console shows it above questions.
    pub fn client_is(&self, name: &str) {
        self.human.client_is(name);
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
        let call = Call::new(
            provider,
            Binding::resolve(provider, &envelope)?,
            &envelope.args,
        );
        let outcome = CallOutcome::new(provider.tool(), call.binding.alias());
        tokio::select! {
            outcome = self.authorized_call(&call, outcome) => {
                Ok(outcome.relative_to(&self.root))
            }
            () = cancelled => {
                self.audit.record(&call.scope, Event::Cancelled, &call.reference, None);
                Err(Refusal::Cancelled)
            }
        }
    }

    /// Decide, then run what was allowed. A step that stops the call says so once, here.
    async fn authorized_call(&self, call: &Call<'_>, mut outcome: CallOutcome) -> CallOutcome {
        let allowed = match self.decide(call).await {
            Ok(allowed) => allowed,
            Err(stop) => return outcome.stopped(stop),
        };
        outcome.decision = Some(allowed.view().clone());
        match self.execute(call, allowed).await {
            Ok(execution) => {
                outcome.execution = Some(execution);
                outcome
            }
            Err(stop) => outcome.stopped(stop),
        }
    }

    /// After an allow, which only [`Self::decide`] gives: environment, session, then the
    /// process, with the lease looked at again before each (see `lease_gate`).
    async fn execute(&self, call: &Call<'_>, allowed: Allowed) -> Step<runner::Execution> {
        self.recheck_lease(call, Phase::BeforeEnvironment).await?;
        let env = load_env(call, &allowed)?;
        let session = self.prepare_session(call, &allowed, &env).await?;
        self.recheck_lease(call, Phase::AfterAuthentication).await?;
        let program = runner::resolve(&call.provider.config().command).map_err(CallError::Run)?;
        let mut launch_args = call.provider.config().args_prefix.clone();
        if let Binding::Bound(target) = &call.binding {
            launch_args.extend(binding::target_args(call.provider, target));
        }
        launch_args.extend(call.args.iter().cloned());
        // Persistent values first, then what the session produced: the session wins.
        let env_overlay = runner::dotenv::overlay(env, session.set);
        let launch = Launch {
            program,
            args: launch_args,
            env_overlay,
            env_remove: session.removed,
            max_output_bytes: self.settings.max_output_bytes,
            confinement: self.confinement.clone(),
            timeout: self.call_timeout(call.provider),
        };
        // A call waiting here for a slot can still be cancelled: it holds nothing yet. The
        // wait comes before the last look at the lease, which may end while it waits.
        let Ok(_slot) = self.running.acquire().await else {
            return Err(CallError::ShuttingDown.into());
        };
        // The last look at the lease: nothing between this check and the spawn reads state or
        // waits.
        self.recheck_lease(call, Phase::AtLaunch).await?;
        let execution = runner::run(launch).await.map_err(CallError::Run)?;
        let mut detail = format!("exit={}", execution.exit_code);
        if execution.timed_out {
            detail.push_str(" timeout");
        }
        self.audit
            .record(&call.scope, Event::Ran, &call.reference, Some(&detail));
        Ok(execution)
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

/// How a call is bound, resolved once from its envelope. A target-aware tool's call always
/// carries one of its configured targets, so no lookup that finds nothing can turn it into a
/// simple call that skips the lease gate, its re-checks and the target's own policy; and every
/// later step, blocking work included, holds that same target rather than its alias.
#[derive(Debug, Clone)]
enum Binding {
    Simple,
    Bound(Arc<Target>),
}

impl Binding {
    fn resolve(provider: &Provider, envelope: &Envelope) -> Result<Self, Refusal> {
        let unbound = |text: &str| Refusal::Envelope(EnvelopeError(text.to_string()));
        match (provider.is_target_aware(), envelope.target.as_deref()) {
            (false, None) => Ok(Binding::Simple),
            (true, Some(alias)) => provider
                .target(alias)
                .map(|target| Binding::Bound(Arc::clone(target)))
                .ok_or_else(|| unbound("`target` is not a configured alias of this tool")),
            (true, None) => Err(unbound("this tool needs a `target`")),
            (false, Some(_)) => Err(unbound("this tool takes no `target`")),
        }
    }

    fn target(&self) -> Option<&Arc<Target>> {
        match self {
            Binding::Simple => None,
            Binding::Bound(target) => Some(target),
        }
    }

    fn alias(&self) -> Option<&str> {
        self.target().map(|target| target.alias())
    }
}

/// One call in flight: what every step reads.
struct Call<'a> {
    provider: &'a Arc<Provider>,
    binding: Binding,
    args: &'a [String],
    /// The audit scope (see [`scope`]).
    scope: String,
    reference: Reference,
}

impl<'a> Call<'a> {
    fn new(provider: &'a Arc<Provider>, binding: Binding, args: &'a [String]) -> Self {
        Self {
            provider,
            scope: scope(provider, &binding),
            binding,
            args,
            reference: Reference::from_args(args),
        }
    }

    /// The `grants` file of the target, or of the provider.
    fn grants_path(&self) -> std::path::PathBuf {
        match &self.binding {
            Binding::Simple => self.provider.grants_path(),
            Binding::Bound(target) => target.grants_path(),
        }
    }
}

/// The audit scope: `provider` for simple providers, `provider/alias` for targets.
fn scope(provider: &Provider, binding: &Binding) -> String {
    match binding {
        Binding::Simple => provider.name().to_string(),
        Binding::Bound(target) => format!("{}/{}", provider.name(), target.alias()),
    }
}

/// The provider's `.env`, with the target's `.env` overriding shared keys. Missing files are
/// empty; a malformed one fails the call naming the file. Only an allowed call reads them.
fn load_env(call: &Call<'_>, _allowed: &Allowed) -> Result<EnvVars, CallError> {
    let shared =
        runner::read_env_file(&call.provider.env_file_path()).map_err(CallError::Environment)?;
    match &call.binding {
        Binding::Bound(target) => Ok(runner::dotenv::overlay(
            shared,
            runner::read_env_file(&target.env_file_path()).map_err(CallError::Environment)?,
        )),
        Binding::Simple => Ok(shared),
    }
}

pub(crate) fn now_epoch() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |age| age.as_secs())
}

/// Every program a provider child may run, as resolved now: the commands, validators and
/// identity probes. One that does not resolve is left out (its call fails anyway).
pub(crate) fn programs(registry: &Registry) -> Vec<std::path::PathBuf> {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A target-aware `kube` with the alias `lab`, a simple `idp`, loaded from disk.
    fn registry() -> (tempfile::TempDir, Registry) {
        crate::registry::load_files(&[
            (
                "providers/kube/provider.yaml",
                "version: \"1\"\nname: kube\ntool: kube\ndescription: k\ncommand: kube\ntargeting:\n  mode: kubectl_context\n",
            ),
            (
                "providers/kube/targets/lab/target.yaml",
                "version: \"1\"\nname: lab\ncontext: lab\nidentity:\n  provider: idp\n",
            ),
            (
                "providers/idp/provider.yaml",
                "version: \"1\"\nname: idp\ntool: idp\ndescription: i\ncommand: idp\n",
            ),
        ])
    }

    fn envelope(target: Option<&str>) -> Envelope {
        Envelope {
            target: target.map(str::to_string),
            args: vec!["get".into()],
        }
    }

    /// Issue 15: a failed alias lookup was `None`, which meant "simple provider" and skipped
    /// the lease gate and its re-checks. Now only a configured alias binds a target-aware call.
    #[test]
    fn a_target_aware_call_is_bound_to_a_configured_alias_or_refused() {
        let (_dir, registry) = registry();
        let kube = registry.by_tool("kube").unwrap();
        let idp = registry.by_tool("idp").unwrap();
        assert!(matches!(
            Binding::resolve(kube, &envelope(Some("lab"))),
            Ok(Binding::Bound(target)) if target.alias() == "lab"
        ));
        for target in [None, Some("prod"), Some("")] {
            assert!(
                matches!(
                    Binding::resolve(kube, &envelope(target)),
                    Err(Refusal::Envelope(_))
                ),
                "{target:?}"
            );
        }
        assert!(matches!(
            Binding::resolve(idp, &envelope(None)),
            Ok(Binding::Simple)
        ));
        assert!(matches!(
            Binding::resolve(idp, &envelope(Some("lab"))),
            Err(Refusal::Envelope(_))
        ));
    }
}
