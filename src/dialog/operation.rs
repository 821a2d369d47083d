//! The decision state of the operation window, without any drawing: lifetime, scope, prefix
//! boundary, structural suggestion, duration, the review tick and the decision.
//!
//! The review tick resets whenever what Allow would grant changes (lifetime, scope, boundary or
//! duration), so the human always confirms the scope and duration that will be stored.

use super::duration::{self, PRESET_MINUTES};
use super::feedback::{Decided, FEEDBACK_SECS, Feedback};
use crate::prompt::{GrantScope, OperationAnswer, OperationRequest};
use labels::{REVIEWED, REVIEWED_WITH_TARGET};

/// Once or for a while.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lifetime {
    Once,
    Temporary,
}

/// Which vectors a temporary grant covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScopeKind {
    Exact,
    Prefix,
}

/// Where the temporary grant's duration comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DurationChoice {
    /// The minutes field.
    Minutes,
    /// End together with the oldest valid grant in this scope.
    EndWithOldest,
}

/// A prefix boundary read from the shape of the vector: before its first option.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suggestion {
    /// Tokens before the boundary (at least 2).
    pub tokens: usize,
    /// The first token starting with `-`.
    pub before: String,
}

/// Labels the views show, and the tests and the driver click.
pub mod labels {
    use crate::language::Label;

    pub const DENY: Label = Label("action-deny");
    pub const ALLOW: Label = Label("op-allow");
    pub const ONCE: Label = Label("op-once");
    pub const TEMPORARILY: Label = Label("op-temporarily");
    pub const EXACT: Label = Label("op-exact");
    pub const PREFIX: Label = Label("op-prefix");
    pub const RESTORE: Label = Label("op-restore");
    pub const FEWER: Label = Label("op-fewer");
    pub const MORE: Label = Label("op-more");
    pub const DURATION: Label = Label("duration-label");
    pub const PREVIOUS_PAGE: Label = Label("op-previous-page");
    pub const NEXT_PAGE: Label = Label("op-next-page");
    pub const CLOSE_REVIEW: Label = Label("op-close-review");
    /// The review tick, for target-aware tools.
    pub const REVIEWED_WITH_TARGET: Label = Label("op-reviewed-with-target");
    /// The review tick, for simple tools.
    pub const REVIEWED: Label = Label("op-reviewed");
}

impl Suggestion {
    /// The boundary before the first token starting with `-`, if at least two tokens precede
    /// it. Purely structural: it does not guess what the operation is.
    pub fn for_args(args: &[String]) -> Option<Suggestion> {
        let index = args.iter().position(|arg| arg.starts_with('-'))?;
        let before = args.get(index)?;
        (index >= 2).then(|| Suggestion {
            tokens: index,
            before: before.clone(),
        })
    }

    /// Why this boundary, in one sentence.
    pub fn reason(&self) -> String {
        crate::tr!(
            "op-suggestion-reason",
            tokens = self.tokens,
            option = super::pills::pill_text(&self.before)
        )
    }
}

/// A long argument being read page by page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Review {
    pub index: usize,
    pub page: usize,
}

/// Everything the operation window decides on.
#[derive(Debug, Clone)]
pub struct OperationState {
    request: OperationRequest,
    opened_at: f64,
    lifetime: Lifetime,
    scope: ScopeKind,
    prefix_tokens: usize,
    suggestion: Option<Suggestion>,
    minutes_text: String,
    duration: DurationChoice,
    reviewed: bool,
    review: Option<Review>,
    decided: Option<Decided<OperationAnswer>>,
}

impl OperationState {
    /// A fresh window at `now`: Once selected; when Temporary is chosen the suggested prefix
    /// is selected if there is one, Exact otherwise.
    pub fn new(request: OperationRequest, now: f64) -> Self {
        let suggestion = Suggestion::for_args(&request.args);
        let len = request.args.len().max(1);
        let (scope, prefix_tokens) = match &suggestion {
            Some(suggestion) => (ScopeKind::Prefix, suggestion.tokens),
            // Without a suggestion the editor starts at the narrowest prefix: every token fixed.
            None => (ScopeKind::Exact, len),
        };
        let minutes_text = request.default_grant_minutes.to_string();
        Self {
            request,
            opened_at: now,
            lifetime: Lifetime::Once,
            scope,
            prefix_tokens,
            suggestion,
            minutes_text,
            duration: DurationChoice::Minutes,
            reviewed: false,
            review: None,
            decided: None,
        }
    }

    pub fn request(&self) -> &OperationRequest {
        &self.request
    }

    pub fn args(&self) -> &[String] {
        &self.request.args
    }

    pub fn lifetime(&self) -> Lifetime {
        self.lifetime
    }

    pub fn scope(&self) -> ScopeKind {
        self.scope
    }

    pub fn prefix_tokens(&self) -> usize {
        self.prefix_tokens
    }

    pub fn suggestion(&self) -> Option<&Suggestion> {
        self.suggestion.as_ref()
    }

    pub fn minutes_text(&self) -> &str {
        &self.minutes_text
    }

    pub fn duration_choice(&self) -> DurationChoice {
        self.duration
    }

    pub fn reviewed(&self) -> bool {
        self.reviewed
    }

    pub fn review(&self) -> Option<Review> {
        self.review
    }

    pub fn decided(&self) -> Option<&Decided<OperationAnswer>> {
        self.decided.as_ref()
    }

    /// The suggestion exists and the current choice differs from it.
    pub fn can_restore_suggestion(&self) -> bool {
        self.suggestion.as_ref().is_some_and(|suggestion| {
            self.scope != ScopeKind::Prefix || self.prefix_tokens != suggestion.tokens
        })
    }

    // ---- changes (each one resets the review tick if it changes what Allow grants) ----

    pub fn set_lifetime(&mut self, lifetime: Lifetime) {
        self.change(|state| state.lifetime = lifetime);
    }

    pub fn set_scope(&mut self, scope: ScopeKind) {
        self.change(|state| state.scope = scope);
    }

    /// Moves the prefix boundary to `tokens`, kept within 1..=len.
    pub fn set_prefix_tokens(&mut self, tokens: usize) {
        let tokens = tokens.clamp(1, self.request.args.len().max(1));
        self.change(|state| {
            state.scope = ScopeKind::Prefix;
            state.prefix_tokens = tokens;
        });
    }

    pub fn restore_suggestion(&mut self) {
        if let Some(tokens) = self.suggestion.as_ref().map(|suggestion| suggestion.tokens) {
            self.set_prefix_tokens(tokens);
        }
    }

    /// The minutes field was edited.
    pub fn set_minutes_text(&mut self, text: String) {
        self.change(|state| {
            state.minutes_text = text;
            state.duration = DurationChoice::Minutes;
        });
    }

    /// A preset button (5, 10, 15, 20, 30 minutes).
    pub fn preset(&mut self, minutes: u64) {
        self.set_minutes_text(minutes.to_string());
    }

    /// The remaining-time button: the new grant ends with the oldest one.
    pub fn end_with_oldest(&mut self) {
        self.change(|state| state.duration = DurationChoice::EndWithOldest);
    }

    pub fn set_reviewed(&mut self, reviewed: bool) {
        if self.decided.is_none() {
            self.reviewed = reviewed;
        }
    }

    fn change(&mut self, edit: impl FnOnce(&mut Self)) {
        if self.decided.is_some() {
            return;
        }
        let before = self.grant_key();
        edit(self);
        if self.grant_key() != before {
            self.reviewed = false;
        }
    }

    /// What Allow would grant, as far as the review tick is concerned.
    fn grant_key(&self) -> (Lifetime, ScopeKind, usize, DurationChoice, String) {
        (
            self.lifetime,
            self.scope,
            self.prefix_tokens,
            self.duration,
            self.minutes_text.clone(),
        )
    }

    // ---- review of long arguments (display only) ----

    pub fn open_review(&mut self, index: usize) {
        if index < self.request.args.len() {
            self.review = Some(Review { index, page: 0 });
        }
    }

    pub fn close_review(&mut self) {
        self.review = None;
    }

    /// Moves the open review by `delta` pages, within the token's pages.
    pub fn turn_page(&mut self, forward: bool) {
        let Some(review) = self.review else { return };
        let Some(token) = self.request.args.get(review.index) else {
            return;
        };
        let last = super::pills::page_count(token) - 1;
        let page = if forward {
            (review.page + 1).min(last)
        } else {
            review.page.saturating_sub(1)
        };
        self.review = Some(Review { page, ..review });
    }

    // ---- durations ----

    /// Seconds left on the oldest grant at `now`, while there are some.
    pub fn oldest_remaining(&self, now: f64) -> Option<u64> {
        let at_open = self.request.oldest_grant_remaining_secs?;
        let elapsed = (now - self.opened_at).max(0.0).floor() as u64;
        at_open.checked_sub(elapsed).filter(|left| *left > 0)
    }

    /// The chosen duration in seconds as shown at `now`, or why there is none.
    pub fn duration_secs(&self, now: f64) -> Result<u64, String> {
        self.duration_secs_from(now)
    }

    /// The duration of a grant whose answer leaves at `from`.
    fn duration_secs_from(&self, from: f64) -> Result<u64, String> {
        match self.duration {
            DurationChoice::Minutes => duration::parse_minutes(&self.minutes_text).map(|m| m * 60),
            DurationChoice::EndWithOldest => self
                .oldest_remaining(from)
                .ok_or_else(|| crate::tr!("op-grant-expired")),
        }
    }

    /// The answer Allow gives at `now`, if the choice is complete (review aside).
    fn allow_answer(&self, now: f64) -> Result<OperationAnswer, String> {
        match self.lifetime {
            Lifetime::Once => Ok(OperationAnswer::Once),
            Lifetime::Temporary => {
                let scope = match self.scope {
                    ScopeKind::Exact => GrantScope::Exact,
                    ScopeKind::Prefix => GrantScope::Prefix {
                        tokens: self.prefix_tokens,
                    },
                };
                // The answer leaves once the feedback has been shown: ending with the oldest
                // grant counts from then, so the new grant does not outlive it.
                Ok(OperationAnswer::Temporary {
                    scope,
                    duration_secs: self.duration_secs_from(now + FEEDBACK_SECS)?,
                })
            }
        }
    }

    /// Allow is enabled only once the human ticked the review box and the choice is complete.
    pub fn allow_enabled(&self, now: f64) -> bool {
        self.decided.is_none() && self.reviewed && self.allow_answer(now).is_ok()
    }

    // ---- decisions ----

    pub fn deny(&mut self, now: f64) {
        if self.decided.is_none() {
            self.decided = Some(Decided {
                answer: OperationAnswer::Deny,
                at: now,
                feedback: Feedback::deny(crate::tr!("access-denied")),
            });
        }
    }

    /// Allows with the current choice; does nothing while Allow is disabled.
    pub fn allow(&mut self, now: f64) {
        if !self.allow_enabled(now) {
            return;
        }
        let Ok(answer) = self.allow_answer(now) else {
            return;
        };
        let feedback = match answer {
            OperationAnswer::Temporary { duration_secs, .. } => Feedback::allow(crate::tr!(
                "op-allowed-for",
                duration = duration::short(duration_secs)
            )),
            _ => Feedback::allow(crate::tr!("op-allowed-once")),
        };
        self.decided = Some(Decided {
            answer,
            at: now,
            feedback,
        });
    }

    // ---- text ----

    /// The highlighted summary above the actions: exactly what Allow grants.
    pub fn summary(&self, now: f64) -> String {
        let on = self.on_what();
        match self.lifetime {
            Lifetime::Once => crate::tr!("op-summary-once", on = on),
            Lifetime::Temporary => {
                let how_long = match (self.duration, self.duration_secs(now)) {
                    (_, Err(reason)) => return reason,
                    (DurationChoice::Minutes, Ok(secs)) => {
                        crate::tr!("op-for", duration = duration::spelled(secs))
                    }
                    (DurationChoice::EndWithOldest, Ok(secs)) => {
                        crate::tr!("op-until-oldest", duration = duration::spelled(secs))
                    }
                };
                match self.scope {
                    ScopeKind::Exact => crate::tr!(
                        "op-summary-exact",
                        how_long = how_long,
                        on = on,
                        count = self.request.args.len()
                    ),
                    ScopeKind::Prefix => crate::tr!(
                        "op-summary-prefix",
                        how_long = how_long,
                        on = on,
                        count = self.prefix_tokens,
                        tokens = self.fixed_tokens_text()
                    ),
                }
            }
        }
    }

    fn on_what(&self) -> String {
        match &self.request.target {
            Some(target) => crate::tr!(
                "op-on-target",
                tool = self.request.tool.as_str(),
                target = target.as_str()
            ),
            None => self.request.tool.clone(),
        }
    }

    fn fixed_tokens_text(&self) -> String {
        self.request
            .args
            .iter()
            .take(self.prefix_tokens)
            .map(|token| format!("`{}`", super::pills::pill_text(token)))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The line under the actions before a decision: what is missing, or that Allow is ready.
    pub fn status(&self, now: f64) -> String {
        if let Err(reason) = self.allow_answer(now) {
            return reason;
        }
        if !self.reviewed {
            return crate::tr!("op-status-tick");
        }
        crate::tr!("op-status-reviewed")
    }

    /// The label of the review tick.
    pub fn reviewed_label(&self) -> crate::language::Label {
        if self.request.target.is_some() {
            REVIEWED_WITH_TARGET
        } else {
            REVIEWED
        }
    }

    /// The preset minutes offered (constant; here so the view and tests agree).
    pub fn presets(&self) -> [u64; 5] {
        PRESET_MINUTES
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::prompt::test_request as request;

    fn strings(args: &[&str]) -> Vec<String> {
        args.iter().map(|arg| arg.to_string()).collect()
    }

    #[test]
    fn suggestion_is_the_boundary_before_the_first_option_after_two_tokens() {
        let cases: [(&[&str], Option<usize>); 7] = [
            (&["ec2", "describe-instances", "--region", "x"], Some(2)),
            (&["get", "pods", "-n", "kube-system"], Some(2)),
            (&["a", "b", "c", "-x", "--y"], Some(3)),
            (&["logs", "-f", "pod"], None),
            (&["--debug", "s3", "ls"], None),
            (&["sts", "get-caller-identity"], None),
            (&[], None),
        ];
        for (args, expected) in cases {
            let suggestion = Suggestion::for_args(&strings(args));
            assert_eq!(suggestion.map(|s| s.tokens), expected, "{args:?}");
        }
    }

    #[test]
    fn temporary_selects_the_suggestion_or_stays_exact() {
        let mut with =
            OperationState::new(request(&["ec2", "describe", "--region", "x"], None), 0.0);
        assert_eq!(with.lifetime(), Lifetime::Once);
        with.set_lifetime(Lifetime::Temporary);
        assert_eq!((with.scope(), with.prefix_tokens()), (ScopeKind::Prefix, 2));
        assert!(!with.can_restore_suggestion());

        let mut without = OperationState::new(request(&["logs", "-f", "pod"], None), 0.0);
        without.set_lifetime(Lifetime::Temporary);
        assert_eq!(without.scope(), ScopeKind::Exact);
        assert!(without.suggestion().is_none());
        // The prefix editor then starts with every token fixed.
        without.set_scope(ScopeKind::Prefix);
        assert_eq!(without.prefix_tokens(), 3);
    }

    #[test]
    fn suggestion_is_restorable_after_edits() {
        let mut state = OperationState::new(request(&["get", "pods", "-n", "x"], None), 0.0);
        state.set_lifetime(Lifetime::Temporary);
        state.set_prefix_tokens(3);
        assert!(state.can_restore_suggestion());
        state.set_scope(ScopeKind::Exact);
        assert!(state.can_restore_suggestion());
        state.restore_suggestion();
        assert_eq!(
            (state.scope(), state.prefix_tokens()),
            (ScopeKind::Prefix, 2)
        );
        // The boundary stays within 1..=len.
        state.set_prefix_tokens(0);
        assert_eq!(state.prefix_tokens(), 1);
        state.set_prefix_tokens(99);
        assert_eq!(state.prefix_tokens(), 4);
    }

    #[test]
    fn the_review_tick_resets_when_scope_or_duration_changes() {
        let mut state = OperationState::new(request(&["get", "pods", "-n", "x"], Some(600)), 0.0);
        type Change = fn(&mut OperationState);
        let changes: [(&str, Change); 7] = [
            ("lifetime", |s| s.set_lifetime(Lifetime::Temporary)),
            ("scope", |s| s.set_scope(ScopeKind::Exact)),
            ("boundary", |s| s.set_prefix_tokens(1)),
            ("minutes", |s| s.set_minutes_text("7".into())),
            ("preset", |s| s.preset(30)),
            ("end with oldest", |s| s.end_with_oldest()),
            ("back to minutes", |s| s.preset(30)),
        ];
        for (what, change) in changes {
            state.set_reviewed(true);
            change(&mut state);
            assert!(!state.reviewed(), "{what} must reset the tick");
        }
        // Setting the same value again is no change.
        state.set_reviewed(true);
        state.preset(30);
        state.open_review(0);
        assert!(state.reviewed());
    }

    #[test]
    fn allow_needs_the_tick_and_a_valid_duration() {
        let mut state = OperationState::new(request(&["s3", "ls"], None), 0.0);
        assert!(!state.allow_enabled(0.0));
        state.allow(0.0);
        assert!(state.decided().is_none());
        state.set_reviewed(true);
        assert!(state.allow_enabled(0.0));
        state.set_lifetime(Lifetime::Temporary);
        state.set_minutes_text("0".into());
        state.set_reviewed(true);
        assert!(!state.allow_enabled(0.0));
        assert_eq!(state.status(0.0), "Enter whole minutes from 1 to 1440.");
        state.preset(20);
        state.set_reviewed(true);
        state.allow(1.0);
        let decided = state.decided().unwrap();
        assert_eq!(
            decided.answer,
            OperationAnswer::Temporary {
                scope: GrantScope::Exact,
                duration_secs: 1200
            }
        );
        assert_eq!(
            decided.feedback,
            Feedback::allow("👍 Access allowed for 20 min.")
        );
        // Decided is final.
        state.deny(2.0);
        assert!(state.decided().unwrap().answer.allows());
    }

    #[test]
    fn ending_with_the_oldest_grant_counts_down_and_leaves_out_the_feedback() {
        let mut state = OperationState::new(request(&["s3", "ls"], Some(83)), 100.0);
        assert_eq!(state.oldest_remaining(100.0), Some(83));
        assert_eq!(state.oldest_remaining(110.5), Some(73));
        state.set_lifetime(Lifetime::Temporary);
        state.end_with_oldest();
        state.set_reviewed(true);
        assert!(
            state
                .summary(110.0)
                .contains("until the oldest active grant ends, in 1 min 13 s")
        );
        state.allow(110.0);
        let answer = state.decided().unwrap().answer;
        assert_eq!(
            answer,
            OperationAnswer::Temporary {
                scope: GrantScope::Exact,
                duration_secs: 72
            }
        );
        assert_eq!(
            state.decided().unwrap().feedback.text,
            "👍 Access allowed for 1:12."
        );

        let mut expired = OperationState::new(request(&["s3", "ls"], Some(5)), 0.0);
        expired.set_lifetime(Lifetime::Temporary);
        expired.end_with_oldest();
        expired.set_reviewed(true);
        assert!(!expired.allow_enabled(10.0));
        assert!(expired.status(10.0).contains("expired"));
        assert_eq!(expired.oldest_remaining(10.0), None);
    }

    #[test]
    fn summaries_say_what_is_granted() {
        let mut state = OperationState::new(
            OperationRequest {
                target: Some("lab".into()),
                ..request(&["get", "pods", "-n", "x"], None)
            },
            0.0,
        );
        assert_eq!(
            state.summary(0.0),
            "Allow once: this exact call on aws (target lab) runs now; nothing is kept."
        );
        state.set_lifetime(Lifetime::Temporary);
        assert_eq!(
            state.summary(0.0),
            "Allow for 2 min: any call on aws (target lab) whose first 2 arguments are `get` \
             `pods`; later arguments may change, vanish or be added."
        );
        state.set_scope(ScopeKind::Exact);
        assert_eq!(
            state.summary(0.0),
            "Allow for 2 min: calls on aws (target lab) with exactly these 4 arguments, in this \
             order, and nothing more."
        );
        assert_eq!(state.reviewed_label(), REVIEWED_WITH_TARGET);
    }

    #[test]
    fn long_arguments_are_reviewed_in_pages_without_changing_the_vector() {
        let long = "z".repeat(500);
        let mut state = OperationState::new(request(&["s3", &long], None), 0.0);
        state.open_review(1);
        state.turn_page(true);
        state.turn_page(true);
        state.turn_page(true);
        assert_eq!(state.review(), Some(Review { index: 1, page: 2 }));
        state.turn_page(false);
        assert_eq!(state.review(), Some(Review { index: 1, page: 1 }));
        state.close_review();
        assert_eq!(state.args()[1], long);
        state.open_review(7);
        assert_eq!(state.review(), None);
    }
}
