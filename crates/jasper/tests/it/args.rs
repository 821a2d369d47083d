//! `forbidden_args` (raw argv, before any rule) and `ignore_args` (evaluation only).

use jasper::{Decision, IgnoreArgs, PolicySettings};

use crate::common::{allowed, argv, check_table, denied, forbidden, forbidden_value, policy};

fn snow_settings() -> PolicySettings {
    PolicySettings {
        minimum_accept_tokens: 1,
        forbidden_args: argv("-f --filename -i --stdin"),
        forbidden_value_prefixes: Vec::new(),
        ignore_args: IgnoreArgs {
            leading: 0,
            flags: argv("--format -o --output -x"),
        },
    }
}

const SNOW_RULES: &str = r#"
version: "1"
deny:
  - "/\\bdrop\\b/i"
  - "/json/"
accept:
  - "sql -q"
  - "sql --query"
  - "sql -f"
"#;

#[test]
fn forbidden_args_deny_bare_and_equals_forms_anywhere_before_any_rule() {
    let policy = policy(SNOW_RULES, &snow_settings());
    check_table(
        &policy,
        &[
            // even though the accept "sql -f" matches
            (argv("sql -f drop.sql"), forbidden("-f")),
            (argv("sql --filename=drop.sql"), forbidden("--filename")),
            (argv("sql --filename= "), forbidden("--filename")),
            (argv("sql -q select --stdin"), forbidden("--stdin")),
            (argv("-i sql"), forbidden("-i")),
            // before a deny rule as well
            (argv("sql -q drop -i"), forbidden("-i")),
            // a short option also in its attached and clustered spellings
            (argv("sql -q -fdrop.sql"), forbidden("-f")),
            (argv("sql -q -vf drop.sql"), forbidden("-f")),
            // long options: whole tokens or `=` only
            (argv("sql --filenames x"), Decision::Unresolved),
            (argv("sql -q --stdin-like"), allowed("sql -q")),
        ],
    );
}

#[test]
fn forbidden_reports_the_listed_arg_not_the_value() {
    let policy = policy(SNOW_RULES, &snow_settings());
    let evaluation = policy.evaluate(&argv("sql --filename=/secret/path.sql"));
    assert_eq!(evaluation.decision, forbidden("--filename"));
    assert!(evaluation.ignored_accept_matches.is_empty());
}

#[test]
fn ignore_args_drops_flags_and_their_values_for_evaluation_only() {
    let policy = policy(SNOW_RULES, &snow_settings());
    check_table(
        &policy,
        &[
            // bare flag drops its value; `=` form drops one token
            (argv("sql --format json -q select"), allowed("sql -q")),
            (argv("sql --format=json -q select"), allowed("sql -q")),
            (argv("sql -o json --query select"), allowed("sql --query")),
            (argv("sql -q select --output=json"), allowed("sql -q")),
            (argv("sql -q select --format"), allowed("sql -q")),
            // a bare flag before another option is kept, and so is the option
            (argv("sql --format -q select"), Decision::Unresolved),
            (
                argv("sql -q --format --query=select+json"),
                denied("/json/"),
            ),
            // unlisted look-alikes are not dropped, so the regex still sees "json"
            (argv("sql -q select --formats json"), denied("/json/")),
            (argv("sql -q select json"), denied("/json/")),
        ],
    );
}

#[test]
fn forbidden_sees_the_raw_vector_that_ignore_args_would_hide() {
    let settings = PolicySettings {
        ignore_args: IgnoreArgs {
            leading: 1,
            flags: argv("--format"),
        },
        ..snow_settings()
    };
    let policy = policy(SNOW_RULES, &settings);
    check_table(
        &policy,
        &[
            // "-f" is the value of --format for evaluation, but it still runs
            (argv("x sql -q select --format -f"), forbidden("-f")),
            // dropped as a leading token for evaluation, but it still runs
            (argv("-i sql -q select"), forbidden("-i")),
        ],
    );
}

#[test]
fn leading_drops_the_first_tokens_before_matching() {
    let settings = PolicySettings {
        ignore_args: IgnoreArgs {
            leading: 1,
            flags: Vec::new(),
        },
        ..PolicySettings::default()
    };
    let policy = policy("accept: [describe-instances]\ndeny: [ec2]\n", &settings);
    check_table(
        &policy,
        &[
            (
                argv("ec2 describe-instances"),
                allowed("describe-instances"),
            ),
            (argv("ec2 ec2"), denied("ec2")),
            (argv("describe-instances"), Decision::Unresolved),
            (Vec::new(), Decision::Unresolved),
        ],
    );
}

fn aws_settings() -> PolicySettings {
    PolicySettings {
        minimum_accept_tokens: 2,
        forbidden_args: argv("--endpoint-url"),
        forbidden_value_prefixes: argv("file:// fileb://"),
        ignore_args: IgnoreArgs {
            leading: 0,
            flags: argv("--output"),
        },
    }
}

const AWS_RULES: &str = r#"
version: "1"
deny: ["secretsmanager get-secret-value"]
accept: ["ssm get-parameter", "s3 ls"]
"#;

/// Issue 11, finding 1: `ssm get-parameter --name file://<credentials>` was allowed by an
/// accept, and the AWS CLI sent the file's content to the endpoint. A value prefix is refused
/// in every spelling a CLI reads a value from, before any rule.
#[test]
fn forbidden_value_prefixes_deny_every_spelling_of_a_value_before_any_rule() {
    let policy = policy(AWS_RULES, &aws_settings());
    check_table(
        &policy,
        &[
            (
                argv("ssm get-parameter --name file:///root/.aws/credentials"),
                forbidden_value("file://"),
            ),
            (
                argv("ssm get-parameter --name=file://creds.env"),
                forbidden_value("file://"),
            ),
            (
                argv("ssm get-parameter --name FILE://creds.env"),
                forbidden_value("file://"),
            ),
            (
                argv("ssm get-parameter --name fileb://creds.env"),
                forbidden_value("fileb://"),
            ),
            // attached to a short option, and even as the value of an ignored flag
            (argv("s3 ls -xfile://x"), forbidden_value("file://")),
            (argv("s3 ls --output file://x"), forbidden_value("file://")),
            // before a deny rule as well, and a forbidden flag comes first
            (
                argv("secretsmanager get-secret-value --secret-id file://x"),
                forbidden_value("file://"),
            ),
            (
                argv("s3 ls --endpoint-url=file://x"),
                forbidden("--endpoint-url"),
            ),
            // anywhere a value can start, e.g. inside the AWS CLI's shorthand syntax
            (
                argv("ssm get-parameters --names a,file://x"),
                forbidden_value("file://"),
            ),
            (
                argv("ssm get-parameter --name /app/file://x"),
                forbidden_value("file://"),
            ),
            // not at a value start: left to the rules
            (
                argv("ssm get-parameter --name profile://x"),
                allowed("ssm get-parameter"),
            ),
            (
                argv("ssm get-parameter --name files"),
                allowed("ssm get-parameter"),
            ),
        ],
    );
}

#[test]
fn a_forbidden_value_reports_the_listed_prefix_not_the_value() {
    let policy = policy(AWS_RULES, &aws_settings());
    let evaluation = policy.evaluate(&argv("ssm get-parameter --name file:///secret/path"));
    assert_eq!(evaluation.decision, forbidden_value("file://"));
    assert_eq!(evaluation.decision.source(), Some("forbidden-arg"));
    assert!(!evaluation.decision.describe().contains("secret"));
}

#[test]
fn a_blank_forbidden_value_prefix_is_refused_at_compile_time() {
    let rules = jasper::parse_rules(AWS_RULES).unwrap();
    for bad in ["", "file:// x"] {
        let settings = PolicySettings {
            forbidden_value_prefixes: vec![bad.to_string()],
            ..aws_settings()
        };
        let error = jasper::Policy::compile(&rules, &settings).unwrap_err();
        assert!(
            error.to_string().starts_with("forbidden_value_prefixes[0]"),
            "{error}"
        );
    }
}
