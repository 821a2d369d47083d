//! The lease steps of a target-aware call: the gate after the explicit-deny check, and the
//! re-checks before the environment, after authentication and right before launch.
//!
//! Every error reading the lease state denies (a corrupt file fails closed). A re-check that
//! finds the lease gone stops the call even though the policy allowed it: a revocation or an
//! expiry blocks pending work, but never kills a process that already started.

use std::sync::Arc;

use crate::audit::{Event, Reference};
use crate::leases::{
    Activation, Change, LeaseEntry, LeaseError, LeaseStatus, LeaseStore, unix_now,
};
use crate::prompt::LeaseRequest;

use super::human::Channel;
use crate::registry::{Provider, Target, TargetingMode};

use super::outcome::Source;
use super::stop::{CallError, Step, Stop, blocking};
use super::{Binding, Call, Dispatcher};

/// Where a re-check happens; the static label is the audit detail of `target-access-lost`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Phase {
    BeforeEnvironment,
    AfterAuthentication,
    AtLaunch,
}

impl Phase {
    fn label(self) -> &'static str {
        match self {
            Phase::BeforeEnvironment => "before-environment",
            Phase::AfterAuthentication => "after-authentication",
            Phase::AtLaunch => "at-launch",
        }
    }
}

/// The lease status of `target`, read now (a plain read of the lease file, which takes no
/// lock: see `crate::leases`). The error says what went wrong without paths or file content,
/// which stay on the human side.
fn status(provider: &Provider, target: &Target) -> Result<LeaseStatus, &'static str> {
    let now = unix_now().map_err(|_| "the system clock is before 1970")?;
    LeaseStore::new(provider)
        .check(target, now)
        .map_err(|error| lease_error_kind(&error))
}

impl Dispatcher {
    /// After explicit deny, before grants, env or auth: the alias needs a valid human lease.
    pub(super) async fn gate_lease(&self, call: &Call<'_>, target: &Arc<Target>) -> Step<()> {
        let (provider, scope) = (call.provider, call.scope.as_str());
        let alias = Reference::label(target.alias());
        let status = match status(provider, target) {
            Ok(status) => status,
            Err(error) => {
                self.audit.record(
                    scope,
                    Event::TargetAccessDenied,
                    &alias,
                    Some("invalid-state"),
                );
                return Err(Stop::denied(
                    Source::HumanDeny,
                    None,
                    format!(
                        "the lease state of `{}` cannot be read, so no target can be used ({}). \
                         Ask the human to run `torii target clear {}`.",
                        provider.tool(),
                        error,
                        provider.tool()
                    ),
                ));
            }
        };
        if status.is_active() {
            return Ok(());
        }
        self.audit
            .record(scope, Event::TargetAccessRequested, &alias, None);
        match self.ask_lease(provider, target, scope).await {
            // Audited by the step that stored it (see `ask_lease`).
            LeaseDecision::Granted => Ok(()),
            LeaseDecision::Stale { active } => {
                // The state changed while the window was open: the old choice is not applied.
                let detail = if active {
                    "already-active"
                } else {
                    "retry-required"
                };
                self.audit
                    .record(scope, Event::TargetAccessStale, &alias, Some(detail));
                if active {
                    return Ok(());
                }
                Err(Stop::denied(
                    Source::HumanDeny,
                    None,
                    format!(
                        "the targets of `{}` changed while the human was deciding; retry the call",
                        provider.tool()
                    ),
                ))
            }
            LeaseDecision::Denied { detail, reason } => {
                self.audit
                    .record(scope, Event::TargetAccessDenied, &alias, Some(detail));
                Err(Stop::denied(
                    Source::HumanDeny,
                    None,
                    format!(
                        "target `{}` is configured but not active, and {reason}. Ask the human to \
                         activate it; do not switch to another target on your own.",
                        target.alias()
                    ),
                ))
            }
        }
    }

    /// Shows the requested binding and the active aliases; applies Replace or Add with
    /// compare-and-swap on the revision the window was built from.
    async fn ask_lease(
        &self,
        provider: &Arc<Provider>,
        target: &Arc<Target>,
        scope: &str,
    ) -> LeaseDecision {
        if !self.human.can_ask() {
            let (reason, detail) = self.human.unavailable();
            return LeaseDecision::Denied {
                detail,
                reason: reason.to_string(),
            };
        }
        let store = LeaseStore::new(provider);
        let now = match unix_now() {
            Ok(now) => now,
            Err(_) => return invalid_state(),
        };
        let Ok(state) = store.read() else {
            return invalid_state();
        };
        let request = LeaseRequest {
            tool: provider.tool().to_string(),
            alias: target.alias().to_string(),
            binding: binding_text(provider, target),
            active_aliases: state
                .active_aliases(now)
                .into_iter()
                .filter(|alias| *alias != target.alias())
                .map(str::to_string)
                .collect(),
            default_minutes: self.settings.default_target_minutes,
        };
        let (answer, channel) = match self.human.ask(&request).await {
            Ok(answered) => answered,
            // Nobody denied it: say so, to the agent and in the audit.
            Err(unasked) => {
                let reason = crate::text::clip(&unasked.reason, 200);
                return match unasked.channel {
                    Channel::Window => LeaseDecision::Denied {
                        detail: "no-window",
                        reason: format!(
                            "the approval window could not be opened ({reason}), so no human was \
                             asked about the target; the human can give Torii a display, or set \
                             TORII_NO_GUI=1"
                        ),
                    },
                    Channel::Console => LeaseDecision::Denied {
                        detail: "no-console",
                        reason: format!(
                            "the torii console did not answer ({reason}), so no human was asked \
                             about the target; the human can start `torii console` again"
                        ),
                    },
                };
            }
        };
        let Some((mode, minutes)) = answer.activation() else {
            return LeaseDecision::Denied {
                detail: match channel {
                    Channel::Window => "denied via=window",
                    Channel::Console => "denied via=console",
                },
                reason: "the human denied the target".into(),
            };
        };
        let event = match mode {
            Activation::Replace => Event::TargetAccessReplaced,
            Activation::Add => Event::TargetAccessAdded,
        };
        let revision = state.revision();
        let applied = {
            let target = Arc::clone(target);
            let (audit, scope) = (self.audit.clone(), scope.to_string());
            // The lease and its audit line are one step: a call cancelled meanwhile does not
            // stop the blocking task, so no lease is ever stored unaudited.
            blocking("storing the lease", move || {
                let applied = unix_now().and_then(|now| {
                    let entry = LeaseEntry::grant(&target, minutes, now);
                    store.apply(revision, &Change::activation(mode, entry), now)
                });
                if applied.is_ok() {
                    let detail = format!("for={}min {}", minutes.get(), channel.detail());
                    let alias = Reference::label(target.alias());
                    audit.record(&scope, event, &alias, Some(&detail));
                }
                applied
            })
            .await
        };
        match applied {
            Ok(Ok(_)) => LeaseDecision::Granted,
            Ok(Err(LeaseError::Stale { .. })) => LeaseDecision::Stale {
                active: matches!(status(provider, target), Ok(status) if status.is_active()),
            },
            _ => invalid_state(),
        }
    }

    /// A bound call's lease must still hold at `phase`; otherwise the call stops here. A
    /// simple call has no lease.
    pub(super) async fn recheck_lease(&self, call: &Call<'_>, phase: Phase) -> Step<()> {
        let Binding::Bound(target) = &call.binding else {
            return Ok(());
        };
        if matches!(status(call.provider, target), Ok(status) if status.is_active()) {
            return Ok(());
        }
        let alias = Reference::label(target.alias());
        self.audit.record(
            &call.scope,
            Event::TargetAccessLost,
            &alias,
            Some(phase.label()),
        );
        Err(CallError::LeaseLost {
            alias: target.alias().to_string(),
        }
        .into())
    }
}

/// The outcome of asking for a lease.
enum LeaseDecision {
    /// Stored and audited.
    Granted,
    Stale {
        active: bool,
    },
    Denied {
        detail: &'static str,
        reason: String,
    },
}

fn invalid_state() -> LeaseDecision {
    LeaseDecision::Denied {
        detail: "invalid-state",
        reason: "the lease state could not be read or written".into(),
    }
}

/// The binding as the human knows it; shown only in the local window, never to the agent.
fn binding_text(provider: &Provider, target: &Target) -> String {
    let config = target.config();
    match provider.config().targeting_mode() {
        Some(TargetingMode::AwsProfile) => {
            let mut text = format!(
                "AWS profile `{}`",
                config.identity.profile.as_deref().unwrap_or("?")
            );
            if let Some(account) = &config.identity.expect {
                text.push_str(&format!(", account {account}"));
            }
            if let Some(region) = &config.region {
                text.push_str(&format!(", region {region}"));
            }
            text
        }
        _ => format!(
            "kubectl context `{}`",
            config.context.as_deref().unwrap_or("?")
        ),
    }
}

/// What went wrong, without paths or file content (they stay on the human side).
fn lease_error_kind(error: &LeaseError) -> &'static str {
    match error {
        LeaseError::Corrupt { .. } => "the state file is corrupt",
        _ => "the state file could not be read",
    }
}
