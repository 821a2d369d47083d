//! An unresolved call with no active grant: the human decides in the operation window.
//!
//! Deny keeps default deny (`denied-interface`, source `human-deny`); Once lets this call
//! through (`override-once`, `human-once`) and stores nothing; Temporary stores a tokenized
//! grant in the provider's or the target's `grants` file (`override-timed`, `human-grant`).
//! Headless, or without a window, nobody is asked and the answer is deny.

use std::sync::Arc;

use jasper::GrantEntry;

use crate::audit::{Event, Reference};
use crate::prompt::{
    OperationAnswer, OperationRequest, grant_matcher, oldest_grant_remaining_secs,
};
use crate::registry::{Provider, Target};

use super::outcome::{CallOutcome, DecisionView, Source};
use super::{Dispatcher, now_epoch};

impl Dispatcher {
    pub(super) async fn ask_operation(
        &self,
        provider: &Arc<Provider>,
        target: Option<&Target>,
        args: &[String],
        scope: &str,
        reference: &Reference,
        outcome: &CallOutcome,
    ) -> Result<DecisionView, Box<CallOutcome>> {
        let deny = |message: String| {
            self.audit
                .record(scope, Event::DeniedInterface, reference, None);
            Err(Box::new(outcome.clone().denied(
                DecisionView::deny(Source::HumanDeny, None),
                message,
            )))
        };
        if !self.human.can_ask() {
            return deny(format!(
                "no rule allows this call and {}. Call `torii_policy` to see what is allowed, or ask \
                 the human to approve it.",
                self.human.unavailable().0
            ));
        }
        let grants_path = match target {
            Some(target) => target.grants_path(),
            None => provider.grants_path(),
        };
        let now = now_epoch();
        let existing = {
            let path = grants_path.clone();
            tokio::task::spawn_blocking(move || crate::grants::load(&path))
                .await
                .unwrap_or_else(|_| jasper::Grants::empty())
        };
        let request = OperationRequest {
            tool: provider.tool().to_string(),
            target: target.map(|target| target.alias().to_string()),
            args: args.to_vec(),
            default_grant_minutes: self.settings.default_grant_minutes,
            oldest_grant_remaining_secs: oldest_grant_remaining_secs(&existing, now),
        };
        let answer = match self.human.ask(&request).await {
            Ok(answer) => answer,
            Err(_) => OperationAnswer::Deny,
        };
        match answer {
            OperationAnswer::Deny => deny(
                "the human denied this call. Do not retry it; ask the human if it is needed."
                    .into(),
            ),
            OperationAnswer::Once => {
                self.audit
                    .record(scope, Event::OverrideOnce, reference, None);
                Ok(DecisionView::allow(Source::HumanOnce, None))
            }
            OperationAnswer::Temporary { duration_secs, .. } => {
                let Some(Ok(matcher)) = grant_matcher(args, &answer) else {
                    return deny("the approval could not be turned into a grant".into());
                };
                let rule = format!(
                    "{} grant on {} tokens",
                    matcher.mode().as_str(),
                    matcher.token_count()
                );
                // The grant starts when the answer arrives, not when the window opened.
                let entry = GrantEntry::new(now_epoch().saturating_add(duration_secs), matcher);
                // The grant and its audit line are one step: a call cancelled meanwhile does
                // not stop the blocking task, so no grant is ever stored unaudited.
                let (audit, audit_scope, audit_reference) =
                    (self.audit.clone(), scope.to_string(), reference.clone());
                let stored = tokio::task::spawn_blocking(move || {
                    let stored = crate::grants::add(&grants_path, entry, now_epoch());
                    if stored.is_ok() {
                        audit.record(
                            &audit_scope,
                            Event::OverrideTimed,
                            &audit_reference,
                            Some(&duration_label(duration_secs)),
                        );
                    }
                    stored
                })
                .await
                .map_err(|error| error.to_string())
                .and_then(|result| result.map_err(|error| crate::errors::chain(&error)));
                if let Err(error) = stored {
                    // Fail closed: a grant the human chose but Torii could not keep is an error.
                    return Err(Box::new(
                        outcome
                            .clone()
                            .failed(format!("the approval could not be stored: {error}")),
                    ));
                }
                Ok(DecisionView::allow(Source::HumanGrant, Some(rule)))
            }
        }
    }
}

/// `2min`, or `m:ss` for a grant made to end with an older one.
fn duration_label(seconds: u64) -> String {
    if seconds.is_multiple_of(60) {
        format!("{}min", seconds / 60)
    } else {
        format!("{}:{:02}", seconds / 60, seconds % 60)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn durations_read_as_in_the_audit() {
        assert_eq!(super::duration_label(120), "2min");
        assert_eq!(super::duration_label(95), "1:35");
    }
}
