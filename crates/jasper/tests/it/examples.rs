//! The `examples` block of `rules.yaml`: parsing with positions, and `check_examples`
//! reporting every example the policy does not satisfy.

use jasper::{
    Decision, Example, Examples, Expectation, Policy, PolicySettings, check_examples, parse_rules,
};

const SNOW: &str = r#"version: "1.0"
deny:
  - "/\\btruncate\\b/i"
accept:
  - "sql -q"
examples:
  allowed:
    - [sql, -q, "select 1"]
  denied:
    - [sql, -q, "select 1; truncate t"]
    - [sql, -f, drop.sql]
  unresolved:
    - [connection, list]
"#;

fn snow_settings() -> PolicySettings {
    PolicySettings {
        forbidden_args: vec!["-f".into()],
        ..PolicySettings::default()
    }
}

#[test]
fn examples_parse_with_positions() {
    let rules = parse_rules(SNOW).unwrap();
    assert_eq!(rules.examples.len(), 4);
    assert_eq!(rules.examples.allowed[0].args, ["sql", "-q", "select 1"]);
    assert_eq!(
        rules.examples.allowed[0].position.map(|at| at.line),
        Some(8)
    );
    assert_eq!(
        rules.examples.denied[1].position.map(|at| at.line),
        Some(11)
    );
    assert_eq!(rules.examples.unresolved[0].args, ["connection", "list"]);
    // Examples are not rules: the policy has exactly the rules written.
    assert_eq!(rules.deny.len(), 1);
    assert_eq!(rules.accept.len(), 1);
}

#[test]
fn absent_or_empty_examples_are_empty() {
    for text in [
        "deny: []",
        "examples:",
        "examples: {}",
        "examples: {allowed: [], denied:, unresolved: []}",
    ] {
        let rules = parse_rules(text).unwrap_or_else(|error| panic!("{text:?}: {error}"));
        assert!(rules.examples.is_empty(), "{text:?}");
    }
}

#[test]
fn an_empty_vector_is_a_valid_example() {
    let rules = parse_rules("examples: {unresolved: [[]]}").unwrap();
    let policy = Policy::compile(&rules, &PolicySettings::default()).unwrap();
    assert!(check_examples(&policy, &rules.examples).is_empty());
}

#[test]
fn satisfied_examples_give_no_failures() {
    let rules = parse_rules(SNOW).unwrap();
    let policy = Policy::compile(&rules, &snow_settings()).unwrap();
    assert_eq!(check_examples(&policy, &rules.examples), Vec::new());
}

#[test]
fn every_unsatisfied_example_is_reported_in_order() {
    let rules = parse_rules(SNOW).unwrap();
    // Without forbidden_args, `sql -f drop.sql` is no longer denied.
    let policy = Policy::compile(&rules, &PolicySettings::default()).unwrap();
    let extra = Examples {
        allowed: vec![Example::new(["sql", "--query", "select 1"])],
        denied: vec![Example::new(["sql", "-q", "select 2"])],
        unresolved: vec![Example::new(["sql", "-q", "drop table t; truncate t"])],
    };
    let failures = check_examples(&policy, &rules.examples);
    assert_eq!(failures.len(), 1);
    assert_eq!(failures[0].expected, Expectation::Denied);
    assert_eq!(failures[0].index, 1);
    assert_eq!(failures[0].decision, Decision::Unresolved);
    assert_eq!(
        failures[0]
            .example
            .position
            .map(|at| at.to_string())
            .as_deref(),
        Some("11:7")
    );
    assert_eq!(
        failures[0].to_string(),
        "examples.denied[1] [\"sql\", \"-f\", \"drop.sql\"]: expected denied, \
         but it is unresolved (no rule decides it)"
    );

    let messages: Vec<String> = check_examples(&policy, &extra)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        messages,
        [
            "examples.allowed[0] [\"sql\", \"--query\", \"select 1\"]: expected allowed, but it is \
             unresolved (no rule decides it)",
            "examples.denied[0] [\"sql\", \"-q\", \"select 2\"]: expected denied, but it is \
             allowed by accept \"sql -q\"",
            "examples.unresolved[0] [\"sql\", \"-q\", \"drop table t; truncate t\"]: expected \
             unresolved, but it is denied by deny \"/\\\\btruncate\\\\b/i\"",
        ]
    );
}

#[test]
fn a_forbidden_argument_counts_as_denied() {
    let rules = parse_rules("examples: {denied: [[sql, --filename=x.sql]]}").unwrap();
    let settings = PolicySettings {
        forbidden_args: vec!["--filename".into()],
        ..PolicySettings::default()
    };
    let policy = Policy::compile(&rules, &settings).unwrap();
    assert!(check_examples(&policy, &rules.examples).is_empty());
}

#[test]
fn an_ignored_accept_does_not_satisfy_allowed() {
    let rules = parse_rules("accept: [s3]\nexamples: {allowed: [[s3, ls]]}").unwrap();
    let settings = PolicySettings {
        minimum_accept_tokens: 2,
        ..PolicySettings::default()
    };
    let policy = Policy::compile(&rules, &settings).unwrap();
    let failures = check_examples(&policy, &rules.examples);
    assert_eq!(failures.len(), 1);
    assert_eq!(failures[0].decision, Decision::Unresolved);
}

#[test]
fn examples_are_empty_only_when_every_list_is() {
    assert!(Examples::default().is_empty());
    for list in ["allowed", "denied", "unresolved"] {
        let text = format!("examples:\n  {list}:\n    - [s3, ls]\n");
        let examples = parse_rules(&text).unwrap().examples;
        assert!(!examples.is_empty(), "{list}");
        assert_eq!(examples.len(), 1, "{list}");
    }
}

#[test]
fn a_policy_keeps_the_settings_it_was_compiled_with() {
    let rules = parse_rules(SNOW).unwrap();
    let policy = Policy::compile(&rules, &snow_settings()).unwrap();
    assert_eq!(policy.settings(), &snow_settings());
}
