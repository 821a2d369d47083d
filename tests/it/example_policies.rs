//! The official packages under `examples/providers/`: each installs, its base rules are empty,
//! and its read-only setup, compiled with its own provider's settings exactly as a call would
//! be, decides concrete vectors as the manual says. (The manual calls this
//! `tests/example_policies.rs`; here it is a module of the single integration-test binary.)

use std::path::Path;

use jasper::{Decision, Policy, RulesFile};

use crate::common::Root;
use crate::pack::example;

const PACKAGES: [&str; 8] = [
    "aws",
    "aws-profile",
    "kubectl",
    "kubeconfig",
    "az",
    "snow",
    "gh",
    "gcloud",
];

/// The readonly setup of `package`, compiled with the package's provider settings.
fn readonly(package: &str) -> (RulesFile, Policy) {
    let dir = example(package);
    let provider_path = dir.join("provider.yaml");
    let provider =
        torii::registry::parse_provider(&provider_path, &std::fs::read(&provider_path).unwrap())
            .unwrap_or_else(|error| panic!("{error}"));
    let settings = torii::rules::policy_settings(&provider.policy);
    let rules_path = dir.join("setups/readonly/rules.yaml");
    let text = std::fs::read_to_string(&rules_path).unwrap();
    torii::rules::compile(&rules_path, &text, &settings).unwrap_or_else(|error| panic!("{error}"))
}

enum Expect {
    Allowed,
    Denied(&'static str),
    Forbidden(&'static str),
    ForbiddenValue(&'static str),
    Unresolved,
}

fn check(package: &str, table: &[(&[&str], Expect)]) {
    let (_, policy) = readonly(package);
    let mut failures = Vec::new();
    for (args, expected) in table {
        let args: Vec<String> = args.iter().map(|arg| arg.to_string()).collect();
        let decision = policy.evaluate(&args).decision;
        let ok = match (expected, &decision) {
            (Expect::Allowed, Decision::Allowed { .. }) => true,
            (Expect::Denied(rule), Decision::DeniedExplicit { rule: got }) => rule == got,
            (Expect::Forbidden(arg), Decision::Forbidden { arg: got }) => arg == got,
            (Expect::ForbiddenValue(prefix), Decision::ForbiddenValue { prefix: got }) => {
                prefix == got
            }
            (Expect::Unresolved, Decision::Unresolved) => true,
            _ => false,
        };
        if !ok {
            failures.push(format!("{package} {args:?}: got {decision:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_official_package_installs_with_an_empty_policy() {
    let root = Root::new();
    for package in PACKAGES {
        root.torii()
            .args(["provider", "install"])
            .arg(example(package))
            .assert()
            .success();
        let base = std::fs::read_to_string(example(package).join("rules.yaml")).unwrap();
        assert!(jasper::parse_rules(&base).unwrap().is_empty(), "{package}");
    }
    root.torii()
        .args(["provider", "list"])
        .assert()
        .success()
        .stdout(predicates::str::contains("aws_profile  aws-profile  aws"));
}

#[test]
fn every_readonly_setup_satisfies_its_own_examples() {
    for package in PACKAGES {
        let (rules, policy) = readonly(package);
        assert!(!rules.examples.is_empty(), "{package} has no examples");
        let failures = jasper::check_examples(&policy, &rules.examples);
        assert!(
            failures.is_empty(),
            "{package}:\n{}",
            failures
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("\n")
        );
        assert!(
            policy.ignored_accepts().is_empty(),
            "{package}: accepts below the minimum: {:?}",
            policy.ignored_accepts()
        );
    }
}

/// The identity of kubectl targets whose credentials the kubeconfig holds is a tool too; its
/// setup denies every call, so it neither runs anything nor asks a human.
#[test]
fn the_kubeconfig_identity_denies_every_call() {
    check(
        "kubeconfig",
        &[
            (&[], Expect::Denied("/^/")),
            (&["get", "pods"], Expect::Denied("/^/")),
            (&["config", "view", "--raw"], Expect::Denied("/^/")),
            (&["--kubeconfig=/etc/x", "get"], Expect::Denied("/^/")),
        ],
    );
    let path = example("kubeconfig").join("provider.yaml");
    let provider = torii::registry::parse_provider(&path, &std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(provider.auth.strategy, torii::registry::Strategy::Inherited);
    assert!(provider.targeting.is_none() && provider.auth.identity.is_none());
    // Even a call a human lets through runs nothing that can read the kubeconfig or a file.
    assert_eq!(provider.command, "true");
}

#[test]
fn aws_and_aws_profile_share_one_readonly_policy() {
    let read = |package: &str| {
        std::fs::read(Path::new(&example(package)).join("setups/readonly/rules.yaml")).unwrap()
    };
    assert_eq!(read("aws"), read("aws-profile"));
}

#[test]
fn aws_keeps_environment_auth_with_three_fields() {
    let path = example("aws").join("provider.yaml");
    let provider = torii::registry::parse_provider(&path, &std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(
        provider.auth.strategy,
        torii::registry::Strategy::Environment
    );
    let fields: Vec<&str> = provider
        .auth
        .fields
        .iter()
        .map(|f| f.name.as_str())
        .collect();
    assert_eq!(
        fields,
        [
            "AWS_ACCESS_KEY_ID",
            "AWS_SECRET_ACCESS_KEY",
            "AWS_SESSION_TOKEN"
        ]
    );
    assert_eq!(provider.policy.minimum_accept_tokens, 2);
}

#[test]
fn aws_readonly() {
    use Expect::*;
    check(
        "aws",
        &[
            (&["sts", "get-caller-identity"], Allowed),
            (
                &["ec2", "describe-instances", "--region", "sa-east-1"],
                Allowed,
            ),
            (&["lambda", "list-functions"], Allowed),
            (
                &[
                    "stepfunctions",
                    "list-executions",
                    "--state-machine-arn",
                    "a",
                ],
                Allowed,
            ),
            (
                &["logs", "filter-log-events", "--log-group-name", "g"],
                Allowed,
            ),
            (&["ecs", "describe-services", "--cluster", "c"], Allowed),
            (
                &["ecr", "describe-images", "--repository-name", "r"],
                Allowed,
            ),
            (&["secretsmanager", "list-secrets"], Allowed),
            (&["glue", "get-tables", "--database-name", "d"], Allowed),
            (&["eks", "list-clusters"], Allowed),
            (&["ssm", "get-parameter", "--name", "/flag"], Allowed),
            (
                &["secretsmanager", "get-secret-value", "--secret-id", "db"],
                Denied("secretsmanager get-secret-value"),
            ),
            (
                &[
                    "ssm",
                    "get-parameters-by-path",
                    "--path",
                    "/",
                    "--with-decryption",
                ],
                Denied("/(^| )ssm( .*)? --w/s"),
            ),
            (
                &["ecs", "execute-command", "--command", "sh"],
                Denied("ecs execute-command"),
            ),
            (
                &["ssm", "start-session", "--target", "i-1"],
                Denied("ssm start-session"),
            ),
            (
                &[
                    "ssm",
                    "send-command",
                    "--document-name",
                    "AWS-RunShellScript",
                ],
                Denied("ssm send-command"),
            ),
            (
                &["sts", "assume-role", "--role-arn", "r"],
                Denied("sts assume-role"),
            ),
            (
                &["sts", "get-session-token"],
                Denied("sts get-session-token"),
            ),
            (
                &["ecr", "get-login-password"],
                Denied("ecr get-login-password"),
            ),
            (
                &["eks", "get-token", "--cluster-name", "c"],
                Denied("eks get-token"),
            ),
            (
                &["lambda", "invoke", "--function-name", "f", "out"],
                Denied("lambda invoke"),
            ),
            (
                &["lambda", "get-function", "--function-name", "f"],
                Denied("lambda get-function"),
            ),
            (
                &["glue", "get-connection", "--name", "jdbc"],
                Denied("glue get-connection"),
            ),
            (
                &["ec2", "get-password-data", "--instance-id", "i-1"],
                Denied("ec2 get-password-data"),
            ),
            (&["configure", "list"], Forbidden("configure")),
            (&["s3", "ls"], Unresolved),
            (&["s3api", "list-buckets"], Unresolved),
            (&["ec2", "run-instances"], Unresolved),
            (
                &["--region", "us-east-1", "ec2", "describe-instances"],
                Denied("/^([^ ]+ )?-/"),
            ),
        ],
    );
}

#[test]
fn kubectl_readonly_is_the_books_policy() {
    use Expect::*;
    let (rules, _) = readonly("kubectl");
    let texts =
        |list: &[jasper::RuleSource]| list.iter().map(|r| r.text.clone()).collect::<Vec<_>>();
    assert_eq!(
        texts(&rules.deny),
        [
            "exec",
            "attach",
            "port-forward",
            "proxy",
            "config",
            "delete namespace"
        ]
    );
    assert_eq!(
        texts(&rules.accept),
        [
            "get pods",
            "get deployments",
            "describe pod",
            "logs",
            "rollout status"
        ]
    );
    check(
        "kubectl",
        &[
            (&["get", "pods", "-n", "team"], Allowed),
            (&["logs", "api-0", "--tail", "100"], Allowed),
            (&["logs", "api-0", "-f"], Forbidden("-f")),
            (&["rollout", "status", "deploy/api"], Allowed),
            (&["exec", "-it", "api-0", "--", "sh"], Denied("exec")),
            (&["port-forward", "svc/db", "5432"], Denied("port-forward")),
            (&["config", "view"], Denied("config")),
            (&["config", "view", "--raw"], Forbidden("--raw")),
            (&["delete", "namespace", "team"], Denied("delete namespace")),
            (&["get", "secrets"], Unresolved),
            (&["delete", "pod", "api-0"], Unresolved),
            (&["-n", "team", "get", "pods"], Unresolved),
        ],
    );
}

#[test]
fn az_readonly() {
    use Expect::*;
    check(
        "az",
        &[
            (&["vm", "list"], Allowed),
            (&["account", "show"], Allowed),
            (
                &["keyvault", "secret", "list", "--vault-name", "kv"],
                Allowed,
            ),
            (&["storage", "account", "show", "--name", "st"], Allowed),
            (&["aks", "show", "--name", "prod", "-g", "rg"], Allowed),
            (&["role", "assignment", "list"], Allowed),
            (
                &["rest", "--url", "https://management.azure.com/"],
                ForbiddenValue("https://"),
            ),
            (&["rest", "--method", "get"], Denied("rest")),
            (
                &["keyvault", "secret", "show", "--name", "db"],
                Denied("keyvault secret show"),
            ),
            (&["interactive"], Denied("interactive")),
            (
                &["account", "get-access-token"],
                Denied("account get-access-token"),
            ),
            (
                &["storage", "account", "keys", "list"],
                Denied("storage account keys"),
            ),
            (&["vm", "run-command", "invoke"], Denied("vm run-command")),
            (
                &["webapp", "config", "appsettings", "list"],
                Denied("webapp config appsettings"),
            ),
            (
                &["aks", "get-credentials", "--name", "prod"],
                Denied("aks get-credentials"),
            ),
            (&["login"], Denied("login")),
            (&["vm", "delete", "--name", "web"], Unresolved),
            (&["vm"], Unresolved),
        ],
    );
}

#[test]
fn snow_readonly() {
    use Expect::*;
    check(
        "snow",
        &[
            (&["sql", "-q", "select 1"], Allowed),
            (&["sql", "--query", "select * from t"], Allowed),
            (
                &["sql", "-q", "select updated_at, created_by from t"],
                Allowed,
            ),
            (&["sql", "--format", "json", "-q", "select 1"], Allowed),
            (
                &["sql", "-q", "select 1; truncate t"],
                Denied("/\\btruncate\\b/i"),
            ),
            (&["sql", "-q", "DROP TABLE t"], Denied("/\\bdrop\\b/i")),
            (
                &["sql", "-q", "copy  into @s from t"],
                Denied("/copy\\s+into/i"),
            ),
            (
                &["sql", "-q", "grant role r to user u"],
                Denied("/\\bgrant\\b/i"),
            ),
            (&["sql", "-f", "drop.sql"], Forbidden("-f")),
            (&["sql", "--filename=drop.sql"], Forbidden("--filename")),
            (&["sql", "--stdin"], Forbidden("--stdin")),
            (&["sql", "-i"], Forbidden("-i")),
            (&["connection", "list"], Unresolved),
        ],
    );
}

/// Issue 17, mismatch 6: official-providers.md left out one of the aws package's forbidden
/// options and showed the aws-profile probe's arguments wrong. The page names every refused
/// option and value prefix of every package, and each identity probe as it runs.
#[test]
fn the_official_providers_page_names_what_each_package_refuses_and_probes() {
    let page = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/src/official-providers.md"),
    )
    .unwrap();
    let mut missing = Vec::new();
    for package in PACKAGES {
        let path = example(package).join("provider.yaml");
        let provider =
            torii::registry::parse_provider(&path, &std::fs::read(&path).unwrap()).unwrap();
        let policy = &provider.policy;
        for refused in policy
            .forbidden_args
            .iter()
            .chain(&policy.forbidden_value_prefixes)
        {
            if !page.contains(&format!("`{refused}`")) && !page.contains(&format!("`{refused}/")) {
                missing.push(format!("{package}: {refused}"));
            }
        }
        if let Some(probe) = &provider.auth.identity {
            let shown = format!("`{}`", probe.args.join(" "));
            if !page.contains(&shown) {
                missing.push(format!("{package}: identity probe {shown}"));
            }
        }
    }
    assert!(missing.is_empty(), "not on the page: {missing:#?}");
}

/// The book (Configurar Azure): `az` takes only `args`, inherits the CLI's own session with a
/// 300-second validity cache, and needs two tokens in an accept rule.
#[test]
fn az_inherits_its_session_and_is_not_target_aware() {
    let path = example("az").join("provider.yaml");
    let provider = torii::registry::parse_provider(&path, &std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(provider.auth.strategy, torii::registry::Strategy::Inherited);
    assert_eq!(provider.auth.cache_ttl_seconds, 300);
    assert_eq!(provider.policy.minimum_accept_tokens, 2);
    assert!(provider.targeting.is_none());
    assert_eq!(provider.command, "az");
}
