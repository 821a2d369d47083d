//! The lease steps of a target-aware call: the gate after the explicit-deny check, and the
//! re-checks before the environment, after authentication and right before launch.
//!
//! Every error reading the lease state denies (a corrupt file fails closed). A re-check that
//! finds the lease gone stops the call even though the policy allowed it: a revocation or an
//! expiry blocks pending work, but never kills a process that already started.

use std::sync::Arc;

use crate::audit::{Event, Reference};
use crate::leases::{LeaseError, LeaseStatus, LeaseStore, unix_now};
use crate::registry::{Provider, Target};

use super::outcome::{CallOutcome, DecisionView, Source};
use super::{Dispatcher, Interface};

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

/// The lease status of `alias`, read now (blocking file I/O off the async workers). The error
/// says what went wrong without paths or file content, which stay on the human side.
async fn status(provider: &Arc<Provider>, alias: &str) -> Result<LeaseStatus, &'static str> {
    let provider = Arc::clone(provider);
    let alias = alias.to_string();
    tokio::task::spawn_blocking(move || {
        let target = provider
            .target(&alias)
            .ok_or("the alias is not configured")?;
        let now = unix_now().map_err(|_| "the system clock is before 1970")?;
        LeaseStore::new(&provider)
            .check(target, now)
            .map_err(|error| lease_error_kind(&error))
    })
    .await
    .unwrap_or(Err("the lease check was interrupted"))
}

impl Dispatcher {
    /// After explicit deny, before grants, env or auth: the alias needs a valid human lease.
    pub(super) async fn gate_lease(
        &self,
        provider: &Arc<Provider>,
        target: &Target,
        scope: &str,
        outcome: &CallOutcome,
    ) -> Result<(), CallOutcome> {
        let alias = Reference::label(target.alias());
        let status = match status(provider, target.alias()).await {
            Ok(status) => status,
            Err(error) => {
                self.audit.record(
                    scope,
                    Event::TargetAccessDenied,
                    &alias,
                    Some("invalid-state"),
                );
                return Err(outcome.clone().denied(
                    DecisionView::deny(Source::HumanDeny, None),
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
        let detail = match self.interface {
            Interface::Headless => "headless",
            Interface::NoWindow => "no-window",
        };
        self.audit
            .record(scope, Event::TargetAccessDenied, &alias, Some(detail));
        Err(outcome.clone().denied(
            DecisionView::deny(Source::HumanDeny, None),
            format!(
                "target `{}` is configured but not active, and {}. Ask the human to activate it; \
                 do not switch to another target on your own.",
                target.alias(),
                self.interface.unavailable_reason()
            ),
        ))
    }

    /// The lease must still hold at `phase`; otherwise the call stops here.
    pub(super) async fn recheck_lease(
        &self,
        provider: &Arc<Provider>,
        target: &Target,
        scope: &str,
        phase: Phase,
        outcome: &CallOutcome,
    ) -> Result<(), CallOutcome> {
        if matches!(status(provider, target.alias()).await, Ok(status) if status.is_active()) {
            return Ok(());
        }
        let alias = Reference::label(target.alias());
        self.audit
            .record(scope, Event::TargetAccessLost, &alias, Some(phase.label()));
        Err(outcome.clone().failed(format!(
            "the lease on target `{}` ended before the command could run (expired, revoked or its \
             binding changed). Ask the human to activate it again, then retry.",
            target.alias()
        )))
    }
}

/// What went wrong, without paths or file content (they stay on the human side).
fn lease_error_kind(error: &LeaseError) -> &'static str {
    match error {
        LeaseError::Corrupt { .. } => "the state file is corrupt",
        _ => "the state file could not be read",
    }
}
