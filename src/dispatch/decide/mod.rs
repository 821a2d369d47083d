//! The decision of a call: everything before an allow, and the [`Allowed`] value it ends with.
//!
//! `Allowed` can be made only here (the policy or a grant, in this file; the human, in
//! `approval`), and the steps that read `.env`, sessions and credentials or launch the program
//! take one: the compiler, not a comment, keeps them behind a decision.

mod approval;

use crate::audit::Event;

use super::outcome::{DecisionView, Source, Verdict};
use super::stop::{CallError, Step, Stop, blocking};
use super::{Binding, Call, Dispatcher, locked, now_epoch};

/// Who let a call through: the only sources an [`Allowed`] can name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum AllowedBy {
    Rules,
    Grant,
    HumanOnce,
    HumanGrant,
}

/// A decision to run this call, made by this module and nowhere else (its field and its
/// constructor are private to it).
#[derive(Debug)]
pub(super) struct Allowed(DecisionView);

impl Allowed {
    fn by(by: AllowedBy, rule: Option<String>) -> Self {
        let source = match by {
            AllowedBy::Rules => Source::Rules,
            AllowedBy::Grant => Source::Grant,
            AllowedBy::HumanOnce => Source::HumanOnce,
            AllowedBy::HumanGrant => Source::HumanGrant,
        };
        Self(DecisionView {
            result: Verdict::Allow,
            source,
            rule,
        })
    }

    /// The decision as the agent's answer shows it.
    pub(super) fn view(&self) -> &DecisionView {
        &self.0
    }
}

impl Dispatcher {
    /// Everything before an allow: locked options, the policy (explicit denies first), the
    /// lease, then rules, a grant or the human. Nothing here reads `.env` or a session.
    pub(super) async fn decide(&self, call: &Call<'_>) -> Step<Allowed> {
        if let Some(flag) = locked::find_locked(call.provider.config(), call.args) {
            // Before policy and before `invoke`: nothing is audited, the value is not echoed.
            return Err(CallError::Locked { flag }.into());
        }
        self.audit
            .record(&call.scope, Event::Invoke, &call.reference, None);

        // The administrator's layer first: nothing of the user's can let this through.
        if let Some((rule, dir)) = self.admin.denying(call.provider.tool(), call.args) {
            self.audit.record(
                &call.scope,
                Event::DeniedExplicit,
                &call.reference,
                Some("layer=admin"),
            );
            let message = format!(
                "denied by the administrator's rule `{rule}` (in {}). This operation is not \
                 available on this machine; do not retry it.",
                dir.display()
            );
            return Err(Stop::denied(Source::ExplicitDeny, Some(rule), message));
        }

        let policy = self
            .rules
            .load(call.provider, call.binding.target())
            .map_err(CallError::Policy)?;
        let evaluation = policy.evaluate(call.args);
        if !evaluation.ignored_accept_matches.is_empty() {
            let detail = format!(
                "below minimum_accept_tokens={}",
                policy.settings().minimum_accept_tokens
            );
            self.audit.record(
                &call.scope,
                Event::InvalidAccept,
                &call.reference,
                Some(&detail),
            );
        }

        // Explicit denies end the call before any lease, grant, human, env or auth.
        let rule = match evaluation.decision {
            jasper::Decision::Forbidden { arg } => {
                let message = format!(
                    "the argument `{arg}` is forbidden for this tool, in any position: it \
                     would let the CLI read or run something the policy cannot inspect (a file, \
                     another configuration, repository or program). Do without it; if the CLI \
                     reads that content from a file, pass it inline instead."
                );
                return Err(self.forbidden(call, arg, message));
            }
            jasper::Decision::ForbiddenValue { prefix } => {
                let message = format!(
                    "argument values starting with `{prefix}` are forbidden for this tool: the \
                     CLI would read them from a local file or another source the policy cannot \
                     inspect. Pass the value inline instead."
                );
                return Err(self.forbidden(call, prefix, message));
            }
            jasper::Decision::DeniedExplicit { rule } => {
                self.audit
                    .record(&call.scope, Event::DeniedExplicit, &call.reference, None);
                let message = format!(
                    "denied by the policy rule `{rule}`. This operation is not available to the \
                     agent; do not retry it."
                );
                return Err(Stop::denied(Source::ExplicitDeny, Some(rule), message));
            }
            jasper::Decision::Allowed { rule } => Some(rule),
            jasper::Decision::Unresolved => None,
        };

        if let Binding::Bound(target) = &call.binding {
            self.gate_lease(call, target).await?;
        }

        if let Some(rule) = rule {
            self.audit
                .record(&call.scope, Event::AllowedByRules, &call.reference, None);
            return Ok(Allowed::by(AllowedBy::Rules, Some(rule)));
        }
        let grants = self.grants(call).await?;
        if let Some(grant) = grant_rule(&grants, call.args) {
            self.audit.record(
                &call.scope,
                Event::AllowedByGrant,
                &call.reference,
                Some(&grant),
            );
            return Ok(Allowed::by(AllowedBy::Grant, Some(grant)));
        }
        self.ask_operation(call, &grants).await
    }

    /// A call refused by the provider's `forbidden_args` or `forbidden_value_prefixes`:
    /// `listed` is the argument or prefix as the provider lists it, never the caller's value.
    fn forbidden(&self, call: &Call<'_>, listed: String, message: String) -> Stop {
        self.audit.record(
            &call.scope,
            Event::DeniedExplicit,
            &call.reference,
            Some("forbidden-arg"),
        );
        Stop::denied(Source::ForbiddenArg, Some(listed), message)
    }

    /// The grants of the call's provider or target, read once per unresolved call. A corrupt
    /// file grants nothing (see `crate::grants::load`).
    async fn grants(&self, call: &Call<'_>) -> Step<jasper::Grants> {
        let path = call.grants_path();
        Ok(blocking("reading the grants", move || crate::grants::load(&path)).await?)
    }
}

/// The rule text of a live grant for exactly these arguments.
fn grant_rule(grants: &jasper::Grants, args: &[String]) -> Option<String> {
    grants
        .find(args, now_epoch())
        .map(|entry| entry.matcher.rule_text())
}
