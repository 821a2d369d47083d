//! Parsing `rules.yaml`: versions, optional lists, positions, and errors (never panics).

use jasper::{RuleSource, RulesError, RulesFile, parse_rules};

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
    let table = [
        (
            "version: \"2\"",
            "line 1, column 10: unsupported rules version \"2\" (supported: \"1\", \"1.0\")",
        ),
        (
            "deny: []\nversion: 2\n",
            "line 2, column 10: unsupported rules version 2 (supported: \"1\", \"1.0\")",
        ),
        (
            "version: \"1.1\"",
            "line 1, column 10: unsupported rules version \"1.1\" (supported: \"1\", \"1.0\")",
        ),
        (
            "version: 0",
            "line 1, column 10: unsupported rules version 0 (supported: \"1\", \"1.0\")",
        ),
        (
            "version: -1",
            "line 1, column 10: unsupported rules version -1 (supported: \"1\", \"1.0\")",
        ),
        (
            "version: 1.5",
            "line 1, column 10: unsupported rules version 1.5 (supported: \"1\", \"1.0\")",
        ),
        (
            "version: v1",
            "line 1, column 10: unsupported rules version \"v1\" (supported: \"1\", \"1.0\")",
        ),
    ];
    for (text, message) in table {
        let error = parse_rules(text).unwrap_err();
        assert!(
            matches!(error, RulesError::UnsupportedVersion { line: Some(_), .. }),
            "{text:?}"
        );
        assert_eq!(error.to_string(), message, "{text:?}");
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
                line: Some(3),
                column: Some(5)
            }],
            accept: vec![
                RuleSource {
                    text: "s3 ls".into(),
                    line: Some(5),
                    column: Some(5)
                },
                RuleSource {
                    text: "/^ec2 /i".into(),
                    line: Some(6),
                    column: Some(5)
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
            Err(RulesError::Yaml(error)) => assert!(error.line.is_some(), "{text:?}: {error}"),
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
        matches!(error, RulesError::Yaml(ref yaml) if yaml.line.is_some()),
        "{error}"
    );
}

#[test]
fn scalars_are_read_as_rule_text() {
    let rules = parse_rules("accept: [123, 'true', s3]").unwrap();
    let texts: Vec<&str> = rules.accept.iter().map(|rule| rule.text.as_str()).collect();
    assert_eq!(texts, ["123", "true", "s3"]);
}
