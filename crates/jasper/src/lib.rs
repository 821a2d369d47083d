//! Jasper: Torii's pure policy engine. It decides whether an argument vector may cross,
//! without processes, environment, credentials or any I/O beyond parsing given text.
//!
//! - [`parse_rules`] reads `rules.yaml`; [`Policy::compile`] checks every rule against the
//!   provider's [`PolicySettings`] and fails closed on any error.
//! - [`Policy::evaluate`] applies `forbidden_args`, `ignore_args`, deny, then accept, and returns
//!   a [`Decision`]; `Unresolved` is left to grants and a human.
//! - [`check_examples`] verifies the optional `examples` block of `rules.yaml`: vectors the
//!   policy must allow, deny or leave unresolved.
//! - [`Grants`] reads and writes the version 2 grants file, whose entries hold only a mode, a
//!   token count and a SHA-256 fingerprint of the tokens.

#![forbid(unsafe_code)]

mod args;
mod decision;
mod error;
mod examples;
mod fingerprint;
mod grant;
mod grants;
mod policy;
mod regexes;
mod rule;
mod rules;
mod settings;
mod trie;

pub use decision::{Decision, Evaluation};
pub use error::{
    GrantMatcherError, GrantsIssue, PolicyError, RuleError, RuleList, RulesError, SettingError,
};
pub use examples::{Example, Examples, Expectation, Failure, check_examples};
pub use grant::{GrantEntry, GrantMatcher, GrantMode, MAX_GRANT_SECONDS};
pub use grants::Grants;
pub use policy::Policy;
pub use rules::{RuleSource, RulesFile, parse_rules};
pub use settings::{IgnoreArgs, PolicySettings};
