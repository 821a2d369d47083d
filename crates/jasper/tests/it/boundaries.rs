//! The book's "Teste fronteiras" and priority regressions for token-prefix rules: deny wins
//! over accept, whole tokens only, accepts below the minimum, unlisted commands.

use jasper::{Decision, PolicySettings, RulesFile};

use crate::common::{allowed, argv, check_table, denied, policy, with_minimum};

const AWS_RULES: &str = r#"
version: "1"
deny:
  - "ecs execute-command"
  - "s3 rm"
  - "secretsmanager get-secret-value"
accept:
  - "s3"
  - "s3 ls"
  - "s3 rm"
  - "ec2 describe-instances"
  - "ecs"
"#;

#[test]
fn aws_boundaries_with_minimum_two() {
    let policy = policy(AWS_RULES, &with_minimum(2));
    check_table(
        &policy,
        &[
            // deny and accept for the same action: deny wins
            (argv("s3 rm s3://bucket/key"), denied("s3 rm")),
            (argv("s3 rm"), denied("s3 rm")),
            (
                argv("ecs execute-command --interactive"),
                denied("ecs execute-command"),
            ),
            // whole tokens only: s3 never matches s3api
            (argv("s3api list-buckets"), Decision::Unresolved),
            (argv("s3 lsx"), Decision::Unresolved),
            (argv("s3 ls"), allowed("s3 ls")),
            (argv("s3 ls s3://bucket --recursive"), allowed("s3 ls")),
            (
                argv("ec2 describe-instances --region sa-east-1"),
                allowed("ec2 describe-instances"),
            ),
            (argv("ec2 describe-instance"), Decision::Unresolved),
            // accept below the minimum never allows
            (argv("s3 cp a b"), Decision::Unresolved),
            (argv("ecs list-clusters"), Decision::Unresolved),
            // unlisted, reordered or differently cased commands are unresolved
            (argv("iam list-users"), Decision::Unresolved),
            (argv("ls s3"), Decision::Unresolved),
            (argv("S3 ls"), Decision::Unresolved),
            (
                argv("secretsmanager get-secret-value --secret-id x"),
                denied("secretsmanager get-secret-value"),
            ),
        ],
    );
}

#[test]
fn accepts_below_the_minimum_are_listed_and_reported_when_they_would_match() {
    let policy = policy(AWS_RULES, &with_minimum(2));
    assert_eq!(policy.ignored_accepts(), ["s3", "ecs"]);
    assert_eq!(policy.accept().len(), 5);
    assert_eq!(policy.deny().len(), 3);

    let evaluation = policy.evaluate(&argv("s3 cp a b"));
    assert_eq!(evaluation.decision, Decision::Unresolved);
    assert_eq!(evaluation.ignored_accept_matches, ["s3"]);

    // Reported alongside a valid accept too, so the caller can audit the dead rule.
    let evaluation = policy.evaluate(&argv("s3 ls"));
    assert_eq!(evaluation.decision, allowed("s3 ls"));
    assert_eq!(evaluation.ignored_accept_matches, ["s3"]);

    // Not reported when a deny decided: the accept stage never ran.
    let evaluation = policy.evaluate(&argv("s3 rm x"));
    assert_eq!(evaluation.decision, denied("s3 rm"));
    assert!(evaluation.ignored_accept_matches.is_empty());

    assert!(
        policy
            .evaluate(&argv("iam list-users"))
            .ignored_accept_matches
            .is_empty()
    );
}

#[test]
fn minimum_one_allows_single_verbs_and_zero_behaves_as_one() {
    let rules = r#"
deny: [exec, "delete namespace"]
accept: [logs, "get pods", "rollout status"]
"#;
    for minimum in [0, 1] {
        let policy = policy(rules, &with_minimum(minimum));
        assert!(policy.ignored_accepts().is_empty());
        check_table(
            &policy,
            &[
                (argv("logs deploy/api -f"), allowed("logs")),
                (argv("get pods -n team"), allowed("get pods")),
                (argv("-n team get pods"), Decision::Unresolved),
                (argv("exec -it pod -- sh"), denied("exec")),
                (argv("delete namespace team"), denied("delete namespace")),
                (argv("delete pod x"), Decision::Unresolved),
            ],
        );
    }
}

#[test]
fn a_wide_deny_wins_over_a_narrower_accept() {
    let policy = policy("deny: [get]\naccept: [\"get pods\"]\n", &with_minimum(1));
    check_table(&policy, &[(argv("get pods"), denied("get"))]);
}

#[test]
fn the_earliest_matching_rule_is_reported() {
    let rules = r#"
deny: ["get pods secret", "/secret/", get, "get pods"]
accept: ["describe pod", describe, "/^describe/", "logs", "logs api"]
"#;
    let policy = policy(rules, &with_minimum(1));
    check_table(
        &policy,
        &[
            (argv("get pods secret"), denied("get pods secret")),
            (argv("get secret"), denied("/secret/")),
            (argv("get pods"), denied("get")),
            (argv("describe pod x"), allowed("describe pod")),
            (argv("describe node"), allowed("describe")),
            // the shorter rule was written first, so it is reported over the longer one
            (argv("logs api -f"), allowed("logs")),
        ],
    );
}

#[test]
fn empty_policy_and_empty_vector_are_unresolved() {
    let empty = policy("", &PolicySettings::default());
    assert!(empty.accept().is_empty() && empty.deny().is_empty());
    check_table(
        &empty,
        &[
            (argv("s3 ls"), Decision::Unresolved),
            (Vec::new(), Decision::Unresolved),
        ],
    );

    let some = policy("accept: [\"s3 ls\"]", &PolicySettings::default());
    check_table(&some, &[(Vec::new(), Decision::Unresolved)]);
}

#[test]
fn rules_built_in_code_compile_like_parsed_ones() {
    let rules = RulesFile::new(["s3 rm"], ["s3 ls", "s3 rm"]);
    let policy = jasper::Policy::compile(&rules, &with_minimum(2)).unwrap();
    check_table(
        &policy,
        &[
            (argv("s3 rm x"), denied("s3 rm")),
            (argv("s3 ls"), allowed("s3 ls")),
        ],
    );
}

#[test]
fn decision_sources_match_the_audit_vocabulary() {
    assert_eq!(allowed("x").source(), Some("rules"));
    assert_eq!(denied("x").source(), Some("explicit-deny"));
    assert_eq!(
        crate::common::forbidden("-f").source(),
        Some("forbidden-arg")
    );
    assert_eq!(Decision::Unresolved.source(), None);
    assert!(allowed("x").is_allowed() && !allowed("x").is_denied());
    assert!(denied("x").is_denied() && crate::common::forbidden("-f").is_denied());
    assert!(!Decision::Unresolved.is_allowed() && !Decision::Unresolved.is_denied());
}

#[test]
fn the_decision_order_examples_of_the_policies_page() {
    let rules = r#"
version: "1"
deny:
  - "ecs execute-command"
  - "/\\bdrop\\s+table\\b/i"
accept:
  - "ec2 describe-instances"
  - "s3 ls"
  - "s3"
"#;
    let policy = policy(rules, &with_minimum(2));
    check_table(
        &policy,
        &[
            (
                argv("ecs execute-command --task t"),
                denied("ecs execute-command"),
            ),
            (argv("s3 ls s3://bucket"), allowed("s3 ls")),
            (argv("s3api list-buckets"), Decision::Unresolved),
            (argv("s3 cp a b"), Decision::Unresolved),
            (
                vec![
                    "rds".into(),
                    "query".into(),
                    "--sql".into(),
                    "DROP  TABLE t".into(),
                ],
                denied("/\\bdrop\\s+table\\b/i"),
            ),
        ],
    );
    assert_eq!(
        policy.evaluate(&argv("s3 cp a b")).ignored_accept_matches,
        ["s3"]
    );
}
