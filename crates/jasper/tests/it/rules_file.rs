//! Parsing `rules.yaml`: versions, optional lists, positions, and errors (never panics).

use jasper::{RuleSource, RulesError, RulesFile, parse_rules};
use strict_yaml::Position;

fn at(line: u64, column: u64) -> Position {
    Position {
        line,
        column: Some(column),
    }
}

#[test]
fn supported_versions_and_absent_version() {
    for text in [
        "version: \"1\"",
        "version: \"1.0\"",
        "version: 1",
        "version: 1.0",
        "version: '1'",
        "",
        "# nothing yet\n",
        "deny: []\naccept: []",
        "version: \"1\"\ndeny:\naccept:\n",
    ] {
        let rules = parse_rules(text).unwrap_or_else(|error| panic!("{text:?}: {error}"));
        assert!(rules.is_empty(), "{text:?}");
    }
}

#[test]
fn unsupported_versions_are_errors_with_line() {
    // (text, line of the value, the version as the message quotes it); the value is at column 10.
    let table = [
        ("version: \"2\"", 1, "\"2\""),
        ("deny: []\nversion: 2\n", 2, "2"),
        ("version: \"1.1\"", 1, "\"1.1\""),
        ("version: 0", 1, "0"),
        ("version: -1", 1, "-1"),
        ("version: 1.5", 1, "1.5"),
        ("version: v1", 1, "\"v1\""),
    ];
    for (text, line, found) in table {
        let error = parse_rules(text).unwrap_err();
        assert!(
            matches!(error, RulesError::UnsupportedVersion { .. }),
            "{text:?}"
        );
        assert_eq!(error.position(), Some(at(line, 10)), "{text:?}");
        assert_eq!(
            error.to_string(),
            format!("unsupported rules version {found} (supported: \"1\", \"1.0\")"),
            "{text:?}"
        );
    }
}

#[test]
fn rules_keep_text_order_and_position() {
    let text = "version: \"1\"\ndeny:\n  - \"ecs execute-command\"\naccept:\n  - s3 ls\n  - \"/^ec2 /i\"\n";
    let rules = parse_rules(text).unwrap();
    assert_eq!(
        rules,
        RulesFile {
            deny: vec![RuleSource {
                text: "ecs execute-command".into(),
                position: Some(at(3, 5))
            }],
            accept: vec![
                RuleSource {
                    text: "s3 ls".into(),
                    position: Some(at(5, 5))
                },
                RuleSource {
                    text: "/^ec2 /i".into(),
                    position: Some(at(6, 5))
                },
            ],
            examples: Default::default(),
        }
    );
}

#[test]
fn the_books_example_parses() {
    let text = r#"version: "1"
deny:
  - "ecs execute-command"          # token prefix
  - "/(?i)\\bdrop\\s+table\\b/i"   # regex over the whole argv
accept:
  - "ec2 describe-instances"
  - "s3 ls"
"#;
    let rules = parse_rules(text).unwrap();
    assert_eq!(rules.deny[1].text, r"/(?i)\bdrop\s+table\b/i");
    assert_eq!(rules.accept.len(), 2);
}

#[test]
fn malformed_documents_are_errors_with_a_position() {
    let table = [
        "version: [1]",
        "version: true",
        "deny: \"s3 ls\"",
        "deny: [\"s3 ls\", [nested]]",
        "deny: {a: b}",
        "examples: []",
        "exampels: {}",
        "examples: {allowed: [[s3, ls]], allow: []}",
        "examples: {denied: [\"s3 ls\"]}",
        "examples: {denied: [[s3, [ls]]]}",
        "deny: []\ndeny: []",
        "deny: [\"s3 ls\"\n",
        "- s3 ls",
        "just text",
        "deny:\n  - a\n bad: [",
        "accept:\n\t- s3 ls",
    ];
    for text in table {
        match parse_rules(text) {
            Err(RulesError::Yaml(error)) => assert!(error.position.is_some(), "{text:?}: {error}"),
            other => panic!("{text:?}: expected a YAML error, got {other:?}"),
        }
    }
}

#[test]
fn alias_bombs_hit_the_budget() {
    let mut text = String::from("deny:\n  - &a \"s3 ls\"\n");
    for _ in 0..2_000 {
        text.push_str("  - *a\n");
    }
    assert!(matches!(parse_rules(&text), Err(RulesError::Yaml(_))));

    let mut laughs = String::from(
        "deny: &l0 [\"x\", \"x\", \"x\", \"x\", \"x\", \"x\", \"x\", \"x\", \"x\", \"x\"]\n",
    );
    laughs.push_str("accept:\n");
    for level in 1..10 {
        let refs = vec![format!("*l{}", level - 1); 10].join(", ");
        laughs.push_str(&format!("  - &l{level} [{refs}]\n"));
    }
    let error = parse_rules(&laughs).unwrap_err();
    assert!(
        matches!(error, RulesError::Yaml(ref yaml) if yaml.position.is_some()),
        "{error}"
    );
}

#[test]
fn scalars_are_read_as_rule_text() {
    let rules = parse_rules("accept: [123, 'true', s3]").unwrap();
    let texts: Vec<&str> = rules.accept.iter().map(|rule| rule.text.as_str()).collect();
    assert_eq!(texts, ["123", "true", "s3"]);
}

#[test]
fn a_version_of_the_wrong_type_says_what_is_expected() {
    for text in ["version: [1]", "version: {a: 1}", "version: true"] {
        let error = parse_rules(text).unwrap_err().to_string();
        assert!(
            error.contains("expected a rules version such as \"1\""),
            "{text:?}: {error}"
        );
    }
}

#[test]
fn a_file_with_only_denies_or_only_accepts_is_not_empty() {
    for text in ["deny: [\"s3 rm\"]", "accept: [\"s3 ls\"]"] {
        assert!(!parse_rules(text).unwrap().is_empty(), "{text:?}");
    }
}
