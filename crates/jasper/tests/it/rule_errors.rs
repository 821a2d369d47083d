//! A broken rule or setting rejects the whole policy (fail closed), and the error names it.

use jasper::{
    IgnoreArgs, Policy, PolicyError, PolicySettings, RuleError, RuleList, RulesFile, SettingError,
    parse_rules,
};

fn compile_one(list: RuleList, rule: &str) -> Result<Policy, PolicyError> {
    let rules = match list {
        RuleList::Deny => RulesFile::new(["s3 ls", rule], Vec::<String>::new()),
        RuleList::Accept => RulesFile::new(Vec::<String>::new(), ["s3 ls", rule]),
    };
    Policy::compile(&rules, &PolicySettings::default())
}

#[test]
fn invalid_rules_are_errors_naming_the_rule() {
    let table: &[(&str, &str)] = &[
        ("", "empty rule"),
        ("   \t", "empty rule"),
        ("/(/", "invalid regex \"/(/\": unclosed group"),
        ("/abc", "invalid regex \"/abc\": missing closing \"/\""),
        ("/", "invalid regex \"/\": missing closing \"/\""),
        ("//", "invalid regex \"//\": empty pattern"),
        ("//i", "invalid regex \"//i\": empty pattern"),
        (
            "/abc/q",
            "invalid regex \"/abc/q\": unknown flag 'q' (allowed: i, m, s, x)",
        ),
        (
            "/abc/I",
            "invalid regex \"/abc/I\": unknown flag 'I' (allowed: i, m, s, x)",
        ),
        ("/abc/ii", "invalid regex \"/abc/ii\": flag 'i' repeated"),
        (
            "/abc/i m",
            "invalid regex \"/abc/i m\": unknown flag ' ' (allowed: i, m, s, x)",
        ),
        (
            "/a{2,1}/",
            "invalid regex \"/a{2,1}/\": invalid repetition count range, the start must be <= the end",
        ),
        (
            "/(?<!a)b/",
            "invalid regex \"/(?<!a)b/\": look-around, including look-ahead and look-behind, is not supported",
        ),
    ];
    for list in [RuleList::Deny, RuleList::Accept] {
        for (rule, reason) in table {
            let error = compile_one(list, rule).expect_err(rule);
            assert_eq!(
                error.to_string(),
                format!("{list}[1]: {reason}"),
                "rule {rule:?}"
            );
            assert!(matches!(error, PolicyError::Rule { list: l, index: 1, .. } if l == list));
        }
    }
}

#[test]
fn oversized_regex_is_an_error() {
    let error = compile_one(RuleList::Deny, r"/(\w{100}){100}/").unwrap_err();
    assert!(
        matches!(
            error,
            PolicyError::Rule {
                problem: RuleError::TooLarge {
                    limit: 1_048_576,
                    ..
                },
                ..
            }
        ),
        "{error}"
    );
}

#[test]
fn errors_from_a_parsed_file_carry_line_and_column() {
    let text = "version: \"1\"\ndeny:\n  - \"s3 rm\"\n  - \"/(/\"\naccept:\n  - \"\"\n";
    let rules = parse_rules(text).unwrap();
    let error = Policy::compile(&rules, &PolicySettings::default()).unwrap_err();
    assert_eq!(
        error.to_string(),
        "deny[1]: invalid regex \"/(/\": unclosed group"
    );
    assert_eq!(
        error.position(),
        Some(strict_yaml::Position {
            line: 4,
            column: Some(5)
        })
    );

    let rules = parse_rules("accept:\n  - \"s3 ls\"\n  - \"  \"\n").unwrap();
    let error = Policy::compile(&rules, &PolicySettings::default()).unwrap_err();
    assert_eq!(error.to_string(), "accept[1]: empty rule");
    assert_eq!(error.position().map(|at| at.line), Some(3));
}

#[test]
fn invalid_settings_are_errors_naming_the_item() {
    let cases = [
        (
            PolicySettings {
                forbidden_args: vec!["-f".into(), String::new()],
                ..PolicySettings::default()
            },
            "forbidden_args[1]: empty value",
        ),
        (
            PolicySettings {
                forbidden_args: vec!["--file name".into()],
                ..PolicySettings::default()
            },
            "forbidden_args[0]: \"--file name\" contains whitespace",
        ),
        (
            PolicySettings {
                ignore_args: IgnoreArgs {
                    leading: 0,
                    flags: vec!["--format".into(), "-o\n".into()],
                },
                ..PolicySettings::default()
            },
            "ignore_args.flags[1]: \"-o\\n\" contains whitespace",
        ),
        (
            PolicySettings {
                ignore_args: IgnoreArgs {
                    leading: 0,
                    flags: vec![String::new()],
                },
                ..PolicySettings::default()
            },
            "ignore_args.flags[0]: empty value",
        ),
    ];
    for (settings, message) in cases {
        let error = Policy::compile(&RulesFile::default(), &settings).unwrap_err();
        assert_eq!(error.to_string(), message);
        assert!(matches!(
            error,
            PolicyError::Setting {
                problem: SettingError::Empty | SettingError::Whitespace { .. },
                ..
            }
        ));
    }
}
