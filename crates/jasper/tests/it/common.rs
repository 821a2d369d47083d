//! Helpers shared by the integration tests.

use jasper::{Decision, Evaluation, Policy, PolicySettings, parse_rules};

/// Splits a test vector on whitespace (use explicit vectors for tokens with spaces).
pub fn argv(line: &str) -> Vec<String> {
    line.split_whitespace().map(str::to_string).collect()
}

/// Compiles a `rules.yaml` text, panicking with the error if it does not compile.
pub fn policy(rules_yaml: &str, settings: &PolicySettings) -> Policy {
    let rules = parse_rules(rules_yaml).unwrap_or_else(|error| panic!("rules: {error}"));
    Policy::compile(&rules, settings).unwrap_or_else(|error| panic!("policy: {error}"))
}

pub fn with_minimum(minimum_accept_tokens: usize) -> PolicySettings {
    PolicySettings {
        minimum_accept_tokens,
        ..PolicySettings::default()
    }
}

pub fn allowed(rule: &str) -> Decision {
    Decision::Allowed { rule: rule.into() }
}

pub fn denied(rule: &str) -> Decision {
    Decision::DeniedExplicit { rule: rule.into() }
}

pub fn forbidden(arg: &str) -> Decision {
    Decision::Forbidden { arg: arg.into() }
}

pub fn forbidden_value(prefix: &str) -> Decision {
    Decision::ForbiddenValue {
        prefix: prefix.into(),
    }
}

/// Evaluates every `(vector, expected)` row and reports all mismatches at once.
pub fn check_table(policy: &Policy, table: &[(Vec<String>, Decision)]) {
    let failures: Vec<String> = table
        .iter()
        .filter_map(|(args, expected)| {
            let Evaluation { decision, .. } = policy.evaluate(args);
            (decision != *expected)
                .then(|| format!("{args:?}: expected {expected:?}, got {decision:?}"))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
