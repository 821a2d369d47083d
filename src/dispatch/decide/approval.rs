//! An unresolved call with no active grant: the human decides in the operation window.
//!
//! Deny keeps default deny (`denied-interface`, source `human-deny`); Once lets this call
//! through (`override-once`, `human-once`) and stores nothing; Temporary stores a tokenized
//! grant in the provider's or the target's `grants` file (`override-timed`, `human-grant`).
//! Headless, or without a window, nobody is asked and the answer is deny.

use jasper::GrantEntry;

use crate::audit::Event;
use crate::prompt::{
    OperationAnswer, OperationRequest, grant_matcher, oldest_grant_remaining_secs,
};

use super::super::human::Channel;
use super::super::outcome::Source;
use super::super::stop::{CallError, Step, Stop, blocking};
use super::super::{Call, Dispatcher, now_epoch};
use super::{Allowed, AllowedBy};

impl Dispatcher {
    /// `grants` are the call's grants as read a moment ago (none matched): the window shows
    /// how long the oldest one still lives.
    pub(super) async fn ask_operation(
        &self,
        call: &Call<'_>,
        grants: &jasper::Grants,
    ) -> Step<Allowed> {
        let deny_with = |message: String, detail: Option<&str>| {
            self.audit
                .record(&call.scope, Event::DeniedInterface, &call.reference, detail);
            Err(Stop::denied(Source::HumanDeny, None, message))
        };
        let deny = |message: String| deny_with(message, None);
        if !self.human.can_ask() {
            return deny(format!(
                "no rule allows this call and {}. Call `torii_policy` to see what is allowed, or ask \
                 the human to approve it.",
                self.human.unavailable().0
            ));
        }
        let now = now_epoch();
        let request = OperationRequest {
            tool: call.provider.tool().to_string(),
            target: call
                .binding
                .target()
                .map(|target| target.alias().to_string()),
            args: call.args.to_vec(),
            default_grant_minutes: self.settings.default_grant_minutes,
            oldest_grant_remaining_secs: oldest_grant_remaining_secs(grants, now),
        };
        let (answer, channel) = match self.human.ask(&request).await {
            Ok(answered) => answered,
            // Nobody denied it: say so, to the agent and in the audit.
            Err(unasked) => {
                let reason = crate::text::clip(&unasked.reason, 200);
                return match unasked.channel {
                    Channel::Window => deny_with(
                        format!(
                            "no rule allows this call and the approval window could not be \
                             opened ({reason}), so no human was asked. Call `torii_policy` to see \
                             what is allowed; the human can give Torii a display, or set \
                             TORII_NO_GUI=1."
                        ),
                        Some("no-window"),
                    ),
                    Channel::Console => deny_with(
                        format!(
                            "no rule allows this call and the torii console did not answer \
                             ({reason}), so no human was asked. Call `torii_policy` to see what \
                             is allowed; the human can start `torii console` again."
                        ),
                        Some("no-console"),
                    ),
                };
            }
        };
        match answer {
            OperationAnswer::Deny => deny_with(
                "the human denied this call. Do not retry it; ask the human if it is needed."
                    .into(),
                Some(channel.detail()),
            ),
            OperationAnswer::Once => {
                self.audit.record(
                    &call.scope,
                    Event::OverrideOnce,
                    &call.reference,
                    Some(channel.detail()),
                );
                Ok(Allowed::by(AllowedBy::HumanOnce, None))
            }
            OperationAnswer::Temporary { duration_secs, .. } => {
                let Some(Ok(matcher)) = grant_matcher(call.args, &answer) else {
                    return deny("the approval could not be turned into a grant".into());
                };
                let rule = matcher.rule_text();
                // The grant starts when the answer arrives, not when the window opened.
                let entry = GrantEntry::new(now_epoch().saturating_add(duration_secs), matcher);
                // The grant and its audit line are one step: a call cancelled meanwhile does
                // not stop the blocking task, so no grant is ever stored unaudited.
                let (audit, scope, reference, path) = (
                    self.audit.clone(),
                    call.scope.clone(),
                    call.reference.clone(),
                    call.grants_path(),
                );
                let stored = blocking("storing the grant", move || {
                    let stored = crate::grants::add(&path, entry, now_epoch());
                    if stored.is_ok() {
                        let detail =
                            format!("{} {}", duration_label(duration_secs), channel.detail());
                        audit.record(&scope, Event::OverrideTimed, &reference, Some(&detail));
                    }
                    stored
                })
                .await?;
                // Fail closed: a grant the human chose but Torii could not keep is an error.
                stored.map_err(CallError::GrantNotStored)?;
                Ok(Allowed::by(AllowedBy::HumanGrant, Some(rule)))
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
