//! A compiled policy (rules plus provider settings) and its evaluation order:
//! forbidden args, then deny, then accept, else unresolved.

use crate::args;
use crate::decision::{Decision, Evaluation};
use crate::error::{PolicyError, RuleList};
use crate::regexes::RegexRules;
use crate::rule::Rule;
use crate::rules::{RuleSource, RulesFile};
use crate::settings::PolicySettings;
use crate::trie::{Slot, Trie, earliest};

/// A policy ready to evaluate. Only [`Policy::compile`] builds one, and it refuses any policy
/// with a broken rule or setting, so a `Policy` never silently drops a rule.
#[derive(Debug)]
pub struct Policy {
    deny: Vec<String>,
    accept: Vec<String>,
    ignored_accepts: Vec<String>,
    settings: PolicySettings,
    prefixes: Trie,
    deny_regexes: RegexRules,
    accept_regexes: RegexRules,
}

impl Policy {
    /// Checks and indexes every rule and setting. Any error rejects the whole policy.
    pub fn compile(rules: &RulesFile, settings: &PolicySettings) -> Result<Policy, PolicyError> {
        settings.validate()?;
        let mut prefixes = Trie::default();
        let deny_regexes = index(RuleList::Deny, &rules.deny, |tokens, index, _| {
            prefixes.insert(tokens, Slot::Deny, index);
        })?;
        let mut ignored_accepts = Vec::new();
        let accept_regexes = index(RuleList::Accept, &rules.accept, |tokens, index, text| {
            if tokens.len() < settings.minimum_accept_tokens {
                prefixes.insert(tokens, Slot::IgnoredAccept, index);
                ignored_accepts.push(text.to_string());
            } else {
                prefixes.insert(tokens, Slot::Accept, index);
            }
        })?;
        Ok(Policy {
            deny: texts(&rules.deny),
            accept: texts(&rules.accept),
            ignored_accepts,
            settings: settings.clone(),
            prefixes,
            deny_regexes,
            accept_regexes,
        })
    }

    /// Decides one argument vector (the agent's `args`, exactly as they would run).
    ///
    /// 1. A raw token equal to a forbidden arg, or `forbidden=...`, is [`Decision::Forbidden`];
    ///    a raw token whose value starts with a forbidden prefix is [`Decision::ForbiddenValue`].
    /// 2. `ignore_args` builds the evaluated vector (evaluation only).
    /// 3. Any deny rule matching it is [`Decision::DeniedExplicit`]; deny always wins.
    /// 4. Any valid accept rule matching it is [`Decision::Allowed`].
    /// 5. Otherwise [`Decision::Unresolved`].
    ///
    /// Prefix rules match when their tokens equal the first items of the evaluated vector.
    /// Regex rules search the evaluated vector joined by single spaces (U+0020), at any
    /// position; `^` and `$` anchor that whole joined string (with the `m` flag, also newlines
    /// inside tokens). A space inside a token is therefore indistinguishable from a token
    /// boundary, so accept regexes should be anchored and conservative. When several rules of
    /// the winning kind match, the one written first (prefix or regex alike) is reported.
    ///
    /// Deny regexes also search the joined vector with every line break replaced by a space (a
    /// newline the caller put inside an earlier token cannot stop a deny pattern's `.`), and,
    /// when a single-dash token carries more than its letter, the vector with that token's
    /// possible attached values added as tokens of their own: `-qTRUNCATE t` is read by click
    /// and getopt as `-q "TRUNCATE t"`, where `\btruncate\b` must see a word boundary. An
    /// accept regex never gets these second looks, so they only ever deny more.
    pub fn evaluate(&self, args: &[String]) -> Evaluation {
        if let Some(arg) = args::find_forbidden(args, &self.settings.forbidden_args) {
            return Evaluation {
                decision: Decision::Forbidden { arg: arg.into() },
                ignored_accept_matches: Vec::new(),
            };
        }
        if let Some(prefix) =
            args::find_forbidden_value(args, &self.settings.forbidden_value_prefixes)
        {
            return Evaluation {
                decision: Decision::ForbiddenValue {
                    prefix: prefix.into(),
                },
                ignored_accept_matches: Vec::new(),
            };
        }
        let evaluated = args::evaluated(args, &self.settings.ignore_args);
        let prefix = self.prefixes.matches(&evaluated);
        let joined = if self.deny_regexes.is_empty() && self.accept_regexes.is_empty() {
            String::new()
        } else {
            evaluated.join(" ")
        };

        let deny = earliest(prefix.deny, self.earliest_deny_regex(&evaluated, &joined));
        if let Some(rule) = deny.and_then(|index| self.deny.get(index)) {
            return Evaluation {
                decision: Decision::DeniedExplicit { rule: rule.clone() },
                ignored_accept_matches: Vec::new(),
            };
        }

        // A deny pattern could not be shown to miss a value attached past the spread window:
        // no accept rule vouches for such a vector, a human decides.
        let unvouched = !self.deny_regexes.is_empty() && args::has_long_cluster(&evaluated);
        let accept = earliest(prefix.accept, self.accept_regexes.earliest_match(&joined));
        let decision = match accept.and_then(|index| self.accept.get(index)) {
            Some(rule) if !unvouched => Decision::Allowed { rule: rule.clone() },
            _ => Decision::Unresolved,
        };
        let ignored_accept_matches = prefix
            .ignored_accepts
            .iter()
            .filter_map(|index| self.accept.get(*index).cloned())
            .collect();
        Evaluation {
            decision,
            ignored_accept_matches,
        }
    }

    /// The earliest deny regex matching `joined` (the evaluated vector) as it is, with its line
    /// breaks flattened, or with attached short-option values spread out.
    fn earliest_deny_regex(&self, evaluated: &[&str], joined: &str) -> Option<usize> {
        if self.deny_regexes.is_empty() {
            return None;
        }
        let mut found = self.deny_regexes.earliest_match(joined);
        if joined.contains(['\n', '\r']) {
            found = earliest(found, self.deny_regexes.earliest_match(&flattened(joined)));
        }
        if let Some(spread) = args::with_attached_values(evaluated) {
            found = earliest(found, self.deny_regexes.earliest_match(&flattened(&spread)));
        }
        found
    }

    /// The deny rules as written, in file order.
    pub fn deny(&self) -> &[String] {
        &self.deny
    }

    /// The accept rules as written, in file order (including ignored ones).
    pub fn accept(&self) -> &[String] {
        &self.accept
    }

    /// Prefix accepts narrower than `minimum_accept_tokens`: they never allow anything.
    pub fn ignored_accepts(&self) -> &[String] {
        &self.ignored_accepts
    }

    /// The settings this policy was compiled with.
    pub fn settings(&self) -> &PolicySettings {
        &self.settings
    }
}

/// Parses each rule of one list, hands prefix rules to `on_prefix` (tokens, index in the list,
/// text as written) and returns the regex rules compiled as a set.
fn index(
    list: RuleList,
    rules: &[RuleSource],
    mut on_prefix: impl FnMut(&[String], usize, &str),
) -> Result<RegexRules, PolicyError> {
    let mut patterns = Vec::new();
    for (index, source) in rules.iter().enumerate() {
        let rule = Rule::parse(&source.text).map_err(|problem| PolicyError::Rule {
            list,
            index,
            position: source.position,
            problem,
        })?;
        match rule {
            Rule::Prefix(tokens) => on_prefix(&tokens, index, &source.text),
            Rule::Regex(pattern) => patterns.push((index, pattern)),
        }
    }
    RegexRules::build(patterns).map_err(|error| PolicyError::RegexSet {
        list,
        reason: error.to_string(),
    })
}

fn flattened(text: &str) -> String {
    text.replace(['\n', '\r'], " ")
}

fn texts(rules: &[RuleSource]) -> Vec<String> {
    rules.iter().map(|rule| rule.text.clone()).collect()
}
