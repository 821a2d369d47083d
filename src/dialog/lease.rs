//! The decision state of the lease window: duration, Replace / Add / Deny, and the hold that
//! Add needs when it would leave more than one alias active.

use super::duration;
use super::feedback::{Decided, Feedback};
use super::hold::{Hold, HoldToConfirm};
use crate::prompt::{LeaseAnswer, LeaseRequest};

/// Everything the lease window decides on.
#[derive(Debug, Clone)]
pub struct LeaseState {
    request: LeaseRequest,
    minutes_text: String,
    hold: HoldToConfirm,
    decided: Option<Decided<LeaseAnswer>>,
}

/// Labels the views show, and the tests and the driver click.
pub mod labels {
    use crate::language::Label;

    pub const REPLACE: Label = Label("lease-replace");
    pub const ADD: Label = Label("lease-add");
    pub const DENY: Label = Label("action-deny");
    pub const DURATION: Label = Label("duration-label");
}

impl LeaseState {
    pub fn new(request: LeaseRequest) -> Self {
        let minutes_text = request.default_minutes.to_string();
        Self {
            request,
            minutes_text,
            hold: HoldToConfirm::default(),
            decided: None,
        }
    }

    pub fn request(&self) -> &LeaseRequest {
        &self.request
    }

    pub fn minutes_text(&self) -> &str {
        &self.minutes_text
    }

    pub fn decided(&self) -> Option<&Decided<LeaseAnswer>> {
        self.decided.as_ref()
    }

    pub fn set_minutes_text(&mut self, text: String) {
        if self.decided.is_none() {
            self.minutes_text = text;
        }
    }

    /// The lease duration, or why the field is not one.
    pub fn minutes(&self) -> Result<u64, String> {
        duration::parse_minutes(&self.minutes_text)
    }

    /// Aliases active now other than the requested one: what Add keeps and Replace ends.
    pub fn others(&self) -> Vec<&str> {
        self.request
            .active_aliases
            .iter()
            .map(String::as_str)
            .filter(|alias| *alias != self.request.alias)
            .collect()
    }

    /// Add would leave more than one alias active: it needs the alert and a 1-second hold.
    pub fn add_needs_hold(&self) -> bool {
        !self.others().is_empty()
    }

    /// The full-width alert above the actions, when Add needs a hold.
    pub fn alert(&self) -> Option<String> {
        let others = self.others();
        if others.is_empty() {
            return None;
        }
        Some(crate::tr!(
            "lease-alert",
            count = others.len(),
            others = others.join(", ")
        ))
    }

    /// Replace and Add need a valid duration and no decision yet.
    pub fn actions_enabled(&self) -> bool {
        self.decided.is_none() && self.minutes().is_ok()
    }

    pub fn deny(&mut self, now: f64) {
        if self.decided.is_none() {
            self.decided = Some(Decided {
                answer: LeaseAnswer::Deny,
                at: now,
                feedback: Feedback::deny(crate::tr!("access-denied")),
            });
        }
    }

    pub fn replace(&mut self, now: f64) {
        if let Some(minutes) = self.enabled_minutes() {
            self.decide(LeaseAnswer::Replace { minutes }, now);
        }
    }

    /// A plain click on Add: completes only when no hold is needed.
    pub fn add_clicked(&mut self, now: f64) {
        if !self.add_needs_hold()
            && let Some(minutes) = self.enabled_minutes()
        {
            self.decide(LeaseAnswer::Add { minutes }, now);
        }
    }

    /// One frame of the Add button when a hold is needed: pressed or not at `now`.
    pub fn add_pressed(&mut self, pressed: bool, now: f64) -> Hold {
        if !self.add_needs_hold() || !self.actions_enabled() {
            return self.hold.update(false, now);
        }
        let hold = self.hold.update(pressed, now);
        if hold == Hold::Confirmed
            && let Some(minutes) = self.enabled_minutes()
        {
            self.decide(LeaseAnswer::Add { minutes }, now);
        }
        hold
    }

    /// Add confirmed at a terminal, where the window's 1-second hold has no equivalent: the
    /// human typed the requested alias. Completes only with exactly that alias (and at once
    /// when no confirmation is needed).
    pub fn add_typed(&mut self, typed: &str, now: f64) {
        if typed == self.request.alias
            && let Some(minutes) = self.enabled_minutes()
        {
            self.decide(LeaseAnswer::Add { minutes }, now);
        }
    }

    /// How far the current press on Add has come.
    pub fn add_fraction(&self, now: f64) -> f32 {
        self.hold.fraction(now)
    }

    fn enabled_minutes(&self) -> Option<u64> {
        if self.decided.is_some() {
            return None;
        }
        self.minutes().ok()
    }

    fn decide(&mut self, answer: LeaseAnswer, now: f64) {
        let alias = self.request.alias.as_str();
        let feedback = match answer {
            LeaseAnswer::Replace { minutes } => Feedback::allow(crate::tr!(
                "lease-replaced",
                alias = alias,
                minutes = minutes
            )),
            LeaseAnswer::Add { minutes } => {
                Feedback::allow(crate::tr!("lease-added", alias = alias, minutes = minutes))
            }
            LeaseAnswer::Deny => Feedback::deny(crate::tr!("access-denied")),
        };
        self.decided = Some(Decided {
            answer,
            at: now,
            feedback,
        });
    }

    /// Guidance under the actions before a decision.
    pub fn status(&self) -> Result<String, String> {
        self.minutes()?;
        let alias = self.request.alias.as_str();
        Ok(if self.add_needs_hold() {
            crate::tr!("lease-status-others", alias = alias)
        } else {
            crate::tr!("lease-status-alone", alias = alias)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(active: &[&str]) -> LeaseState {
        LeaseState::new(LeaseRequest {
            tool: "kubectl".into(),
            alias: "dev".into(),
            binding: "context dev-cluster".into(),
            active_aliases: active.iter().map(|alias| alias.to_string()).collect(),
            default_minutes: 15,
        })
    }

    #[test]
    fn replace_and_deny_decide_at_once() {
        let mut replace = state(&["hml"]);
        replace.replace(1.0);
        assert_eq!(
            replace.decided().unwrap().answer,
            LeaseAnswer::Replace { minutes: 15 }
        );
        let mut deny = state(&[]);
        deny.deny(1.0);
        assert_eq!(deny.decided().unwrap().answer, LeaseAnswer::Deny);
        assert_eq!(deny.decided().unwrap().feedback.text, "Access denied.");
    }

    #[test]
    fn add_alone_is_a_click_and_with_others_a_one_second_hold() {
        let mut alone = state(&[]);
        assert!(!alone.add_needs_hold() && alone.alert().is_none());
        alone.set_minutes_text("30".into());
        alone.add_clicked(0.0);
        assert_eq!(
            alone.decided().unwrap().answer,
            LeaseAnswer::Add { minutes: 30 }
        );

        let mut shared = state(&["hml", "prd"]);
        assert!(shared.alert().unwrap().contains("hml, prd"));
        shared.add_clicked(0.0);
        assert!(shared.decided().is_none(), "a click is not a hold");
        shared.add_pressed(true, 0.0);
        shared.add_pressed(true, 0.6);
        shared.add_pressed(false, 0.7);
        shared.add_pressed(true, 0.8);
        assert!(matches!(
            shared.add_pressed(true, 1.7),
            Hold::Holding { .. }
        ));
        assert!(
            shared.decided().is_none(),
            "released early: the count restarted"
        );
        assert_eq!(shared.add_pressed(true, 1.8), Hold::Confirmed);
        assert_eq!(
            shared.decided().unwrap().answer,
            LeaseAnswer::Add { minutes: 15 }
        );
    }

    #[test]
    fn the_requested_alias_is_not_one_of_the_others() {
        assert!(!state(&["dev"]).add_needs_hold());
    }

    #[test]
    fn minutes_outside_1_to_1440_disable_the_actions() {
        let mut lease = state(&[]);
        lease.set_minutes_text("1441".into());
        assert!(!lease.actions_enabled());
        assert!(lease.status().is_err());
        lease.replace(0.0);
        lease.add_clicked(0.0);
        assert!(lease.decided().is_none());
        lease.set_minutes_text("1440".into());
        lease.replace(0.0);
        assert_eq!(
            lease.decided().unwrap().answer,
            LeaseAnswer::Replace { minutes: 1440 }
        );
    }
}
