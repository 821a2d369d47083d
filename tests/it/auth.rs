//! The authentication lifecycle with fake validators and the scripted human (feature `test-hooks`):
//! caches, refused candidates, byte-identical old sessions, one collection per scope, identity
//! probes and environment hygiene (book: "Sessões de autenticação").

use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::json;

use crate::common::{FakeCli, Root, audit_events, audit_lines, install_provider};
use crate::mcp_client;

const GOOD: &str = "good-canary-123";
const BAD: &str = "bad-canary-999";

/// Provider `tok`: environment auth with one secret field, injected as CLI_TOKEN; validator
/// `tok-check` accepts only GOOD and records each run; the CLI reports whether it got a token.
fn token_root() -> (Root, FakeCli, FakeCli) {
    let root = Root::new();
    let provider = "version: \"1\"\nname: tok\ntool: tok\ndescription: t\ncommand: tok\nauth:\n  strategy: environment\n  fields:\n    - name: TOKEN\n      label: Token\n      secret: true\n  inject:\n    environment:\n      CLI_TOKEN: \"${TOKEN}\"\n  validate:\n    command: tok-check\n    args: [whoami]\n  removed_env: [LEAKY_SECRET]\n";
    install_provider(
        &root,
        "tok",
        provider,
        "version: \"1\"\naccept: [\"run\"]\n",
    );
    let cli = FakeCli::new(
        &root,
        "tok",
        "[ -n \"$CLI_TOKEN\" ] && echo token-present; echo leaky=${LEAKY_SECRET:-absent}",
    );
    let check = FakeCli::new(
        &root,
        "tok-check",
        &format!("echo noisy-validator-output; [ \"$CLI_TOKEN\" = '{GOOD}' ]"),
    );
    (root, cli, check)
}

fn responder(root: &Root, answers: &[serde_json::Value]) -> PathBuf {
    let path = root.path().join("responses.jsonl");
    let text: String = answers.iter().map(|answer| format!("{answer}\n")).collect();
    std::fs::write(&path, text).unwrap();
    path
}

fn requests(script: &Path) -> usize {
    let mut log = script.as_os_str().to_owned();
    log.push(".requests");
    std::fs::read_to_string(PathBuf::from(log))
        .map(|text| text.lines().count())
        .unwrap_or(0)
}

fn bucket(root: &Root) -> PathBuf {
    root.path().join("providers/tok/identities/tok")
}

fn no_canaries(root: &Root) {
    let log = audit_lines(root).join("\n");
    assert!(!log.contains("canary"), "{log}");
}

#[cfg_attr(not(feature = "test-hooks"), ignore = "needs --features test-hooks")]
#[tokio::test]
async fn headless_collection_is_cancelled_safely() {
    let (root, cli, check) = token_root();
    let client = mcp_client::start(&root, &[("PATH", cli.path_env())]).await;
    let (result, is_error) = client.call("tok", json!({"args": ["run"]})).await;
    assert!(is_error, "{result}");
    assert!(
        result["error"].as_str().unwrap().contains("headless"),
        "{result}"
    );
    assert_eq!(result["decision"]["source"], "rules");
    client.close().await;
    assert!(!bucket(&root).join("auth/credentials.env").exists());
    assert!(!bucket(&root).join(".session-cache").exists());
    assert!(cli.launches().is_empty() && check.launches().is_empty());
    assert_eq!(
        audit_events(&root),
        ["invoke", "allowed-by-rules", "session-invalid"]
    );
}

#[cfg_attr(not(feature = "test-hooks"), ignore = "needs --features test-hooks")]
#[tokio::test]
async fn refused_then_valid_candidate_is_persisted_cached_and_injected() {
    let (root, cli, check) = token_root();
    let script = responder(
        &root,
        &[
            crate::common::auth_candidate(json!({"TOKEN": BAD})),
            crate::common::auth_candidate(json!({"TOKEN": GOOD})),
        ],
    );
    let client = mcp_client::start(
        &root,
        &[
            ("PATH", cli.path_env()),
            ("TORII_TEST_RESPONDER", script.clone().into()),
            ("LEAKY_SECRET", "server-canary".into()),
        ],
    )
    .await;
    let (first, is_error) = client.call("tok", json!({"args": ["run"]})).await;
    assert!(!is_error, "{first}");
    assert_eq!(
        first["execution"]["stdout"],
        "token-present\nleaky=absent\n"
    );
    let validations = check.launches().len();
    assert_eq!(validations, 2, "one refused, one accepted candidate");
    // The cache skips the validator on the next call.
    let (second, _) = client.call("tok", json!({"args": ["run"]})).await;
    assert_eq!(second["execution"]["exit_code"], 0);
    assert_eq!(check.launches().len(), validations);
    // An expired cache validates the stored session again (no new window).
    std::fs::write(bucket(&root).join(".session-cache"), "1000\n").unwrap();
    let (third, _) = client.call("tok", json!({"args": ["run"]})).await;
    assert_eq!(third["execution"]["exit_code"], 0);
    assert_eq!(check.launches().len(), validations + 1);
    client.close().await;
    assert_eq!(requests(&script), 1);
    let stored = std::fs::read_to_string(bucket(&root).join("auth/credentials.env")).unwrap();
    assert!(stored.contains(GOOD) && !stored.contains(BAD));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(bucket(&root).join("auth/credentials.env"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    let events = audit_events(&root);
    assert_eq!(
        events[..6],
        [
            "invoke",
            "allowed-by-rules",
            "session-invalid",
            "session-candidate-invalid",
            "session-refreshed",
            "ran"
        ]
    );
    assert!(
        audit_lines(&root)
            .iter()
            .any(|line| line.ends_with("| session-ok | - | cached"))
    );
    no_canaries(&root);
    assert!(
        !audit_lines(&root)
            .join("\n")
            .contains("noisy-validator-output")
    );
}

fn digest(path: &Path) -> (Vec<u8>, u64) {
    (
        std::fs::read(path).unwrap(),
        crate::common::file_identity(&std::fs::metadata(path).unwrap()),
    )
}

#[cfg_attr(not(feature = "test-hooks"), ignore = "needs --features test-hooks")]
#[test]
fn failed_reauth_keeps_the_previous_session_byte_for_byte() {
    let (root, cli, _check) = token_root();
    root.write(
        "providers/tok/identities/tok/auth/credentials.env",
        &format!("TOKEN=\"{GOOD}\"\n"),
    );
    let credentials = bucket(&root).join("auth/credentials.env");
    let before = digest(&credentials);
    let script = responder(
        &root,
        &[
            crate::common::auth_candidate(json!({"TOKEN": BAD})),
            crate::common::auth_cancel(),
        ],
    );
    root.torii()
        .args(["reauth", "tok"])
        .env("PATH", cli.path_env())
        .env("TORII_TEST_RESPONDER", &script)
        .assert()
        .code(1)
        .stderr(predicates::str::contains("not completed"));
    assert_eq!(digest(&credentials), before);
    let events = audit_events(&root);
    assert_eq!(events, ["reauth-forced", "session-candidate-invalid"]);
    // A valid reauth replaces it.
    let script = responder(
        &root,
        &[crate::common::auth_candidate(json!({"TOKEN": GOOD}))],
    );
    std::fs::remove_file(root.path().join("responses.jsonl.requests")).ok();
    root.torii()
        .args(["reauth", "tok"])
        .env("PATH", cli.path_env())
        .env("TORII_TEST_RESPONDER", &script)
        .assert()
        .success();
    assert_ne!(digest(&credentials).1, before.1);
    assert!(audit_events(&root).ends_with(&["reauth-forced".into(), "session-refreshed".into()]));
    no_canaries(&root);
}

#[cfg_attr(not(feature = "test-hooks"), ignore = "needs --features test-hooks")]
#[tokio::test]
async fn concurrent_calls_on_one_scope_open_one_collection_while_other_scopes_proceed() {
    let (root, cli, _check) = token_root();
    // The validator holds until the test lets it go, so all calls wait on the one collection
    // while the other scope runs: an order without clock margins.
    let go = root.outside().join("validator-go");
    let check = FakeCli::new(
        &root,
        "tok-check",
        &format!(
            "while [ ! -e '{}' ]; do sleep 0.05; done; [ \"$CLI_TOKEN\" = '{GOOD}' ]",
            go.display()
        ),
    );
    install_provider(
        &root,
        "free",
        "version: \"1\"\nname: free\ntool: free\ndescription: f\ncommand: free\n",
        "version: \"1\"\naccept: [\"go\"]\n",
    );
    FakeCli::new(&root, "free", "echo free");
    let script = responder(
        &root,
        &[crate::common::auth_candidate(json!({"TOKEN": GOOD}))],
    );
    let client = std::sync::Arc::new(
        mcp_client::start(
            &root,
            &[
                ("PATH", cli.path_env()),
                ("TORII_TEST_RESPONDER", script.clone().into()),
            ],
        )
        .await,
    );
    let mut calls = Vec::new();
    for _ in 0..5 {
        let client = std::sync::Arc::clone(&client);
        calls.push(tokio::spawn(async move {
            client.call("tok", json!({"args": ["run"]})).await
        }));
    }
    crate::common::wait_until_async("the first call's check to start", || {
        !check.launches().is_empty()
    })
    .await;
    let (free, _) = client.call("free", json!({"args": ["go"]})).await;
    assert_eq!(free["execution"]["stdout"], "free\n");
    std::fs::write(&go, "").unwrap();
    for call in calls {
        let (result, is_error) = call.await.unwrap();
        assert!(!is_error, "{result}");
    }
    assert_eq!(requests(&script), 1, "one collection window for the scope");
    assert_eq!(cli.launches().len(), 5);
    // The other scope finished while the first one was still validating.
    let lines = audit_lines(&root);
    let free_ran = lines
        .iter()
        .position(|line| line.contains("| free | ran |"))
        .unwrap();
    let first_tok_ran = lines
        .iter()
        .position(|line| line.contains("| tok | ran |"))
        .unwrap();
    assert!(free_ran < first_tok_ran, "{lines:#?}");
}

#[cfg_attr(not(feature = "test-hooks"), ignore = "needs --features test-hooks")]
#[tokio::test]
async fn inherited_sessions_validate_with_cache_and_never_collect() {
    let root = Root::new();
    let provider = "version: \"1\"\nname: inh\ntool: inh\ndescription: i\ncommand: inh\nauth:\n  strategy: inherited\n  validate:\n    command: inh-check\n    args: []\n";
    install_provider(&root, "inh", provider, "version: \"1\"\naccept: [\"x\"]\n");
    let cli = FakeCli::new(&root, "inh", "echo ok");
    // Outside the root: a confined validator cannot see into it (in a mount namespace, not
    // even whether a file exists there).
    let flag = root.outside().join("session-valid");
    let check = FakeCli::new(&root, "inh-check", &format!("[ -f '{}' ]", flag.display()));
    let client = mcp_client::start(&root, &[("PATH", cli.path_env())]).await;
    let (invalid, is_error) = client.call("inh", json!({"args": ["x"]})).await;
    assert!(is_error);
    assert!(
        invalid["error"]
            .as_str()
            .unwrap()
            .contains("CLI's own flow"),
        "{invalid}"
    );
    std::fs::write(&flag, "").unwrap();
    let (valid, _) = client.call("inh", json!({"args": ["x"]})).await;
    assert_eq!(valid["execution"]["exit_code"], 0);
    let (cached, _) = client.call("inh", json!({"args": ["x"]})).await;
    assert_eq!(cached["execution"]["exit_code"], 0);
    client.close().await;
    assert_eq!(check.launches().len(), 2);
    assert!(
        !root
            .path()
            .join("providers/inh/identities/inh/auth")
            .exists()
    );
    root.torii()
        .args(["reauth", "inh"])
        .assert()
        .code(1)
        .stderr(predicates::str::contains(
            "inherited authentication cannot be renewed",
        ));
}

#[cfg_attr(not(feature = "test-hooks"), ignore = "needs --features test-hooks")]
#[tokio::test]
async fn reserved_strategies_are_refused_at_runtime() {
    for strategy in ["session_command", "credential_file"] {
        let root = Root::new();
        let provider = format!(
            "version: \"1\"\nname: sc\ntool: sc\ndescription: s\ncommand: sc\nauth:\n  strategy: {strategy}\n"
        );
        install_provider(&root, "sc", &provider, "version: \"1\"\naccept: [\"x\"]\n");
        let cli = FakeCli::new(&root, "sc", "echo ran");
        let client = mcp_client::start(&root, &[("PATH", cli.path_env())]).await;
        let (result, is_error) = client.call("sc", json!({"args": ["x"]})).await;
        assert!(is_error, "{strategy}: {result}");
        let error = result["error"].as_str().unwrap();
        assert!(
            error.contains(&format!("`{strategy}`")) && error.contains("not implemented"),
            "{strategy}: {result}"
        );
        client.close().await;
        assert!(cli.launches().is_empty(), "{strategy}");
    }
}

/// kubectl-like target authenticated by `idp`, whose identity probe prints a JSON account.
fn probed_root(expect: &str, probe_body: &str) -> (Root, FakeCli, FakeCli) {
    let root = Root::new();
    install_provider(
        &root,
        "kube",
        "version: \"1\"\nname: kube\ntool: kube\ndescription: k\ncommand: kube\ntargeting:\n  mode: kubectl_context\n",
        "version: \"1\"\naccept: [\"get\"]\n",
    );
    install_provider(
        &root,
        "idp",
        "version: \"1\"\nname: idp\ntool: idp\ndescription: i\ncommand: idp\nauth:\n  strategy: inherited\n  identity:\n    command: idp-whoami\n    args: [sts, get-caller-identity]\n    field: Account\n  profile_env: IDP_PROFILE\n",
        "version: \"1\"\n",
    );
    root.write(
        "providers/kube/targets/lab/target.yaml",
        &format!("version: \"1\"\nname: lab\ncontext: c\nidentity:\n  provider: idp\n  profile: prof-canary\n  expect: \"{expect}\"\n"),
    );
    let kube = FakeCli::new(&root, "kube", "echo profile=$IDP_PROFILE");
    let probe = FakeCli::new(&root, "idp-whoami", probe_body);
    root.torii_at_terminal()
        .args(["target", "activate", "kube", "lab", "--for", "5"])
        .assert()
        .success();
    (root, kube, probe)
}

#[cfg_attr(not(feature = "test-hooks"), ignore = "needs --features test-hooks")]
#[tokio::test]
async fn identity_probe_accepts_the_expected_identity_and_caches_it() {
    let (root, kube, probe) = probed_root(
        "111122223333",
        "echo '{\"Account\": \"111122223333\", \"Arn\": \"x\"}'",
    );
    let client = mcp_client::start(&root, &[("PATH", kube.path_env())]).await;
    let (result, is_error) = client
        .call("kube", json!({"target": "lab", "args": ["get", "pods"]}))
        .await;
    assert!(!is_error, "{result}");
    assert_eq!(result["execution"]["stdout"], "profile=prof-canary\n");
    let (again, _) = client
        .call("kube", json!({"target": "lab", "args": ["get", "pods"]}))
        .await;
    assert_eq!(again["execution"]["exit_code"], 0);
    client.close().await;
    assert_eq!(
        probe.launches(),
        vec![vec!["sts", "get-caller-identity", "--output", "json"]]
    );
    assert!(audit_events(&root).contains(&"identity-ok".to_string()));
    assert!(
        root.path()
            .join("providers/idp/identities/lab/.identity-cache")
            .exists()
    );
    let log = audit_lines(&root).join("\n");
    assert!(
        !log.contains("111122223333") && !log.contains("prof-canary"),
        "{log}"
    );
}

#[cfg_attr(not(feature = "test-hooks"), ignore = "needs --features test-hooks")]
#[tokio::test]
async fn identity_mismatch_or_bad_probe_output_stops_before_the_command() {
    for (body, event) in [
        (
            "echo '{\"Account\": \"999999999999\"}'",
            "identity-mismatch",
        ),
        ("echo 'not json'", "identity-check-failed"),
        ("exit 255", "identity-check-failed"),
        ("echo '{\"Other\": 1}'", "identity-check-failed"),
    ] {
        let (root, kube, _probe) = probed_root("111122223333", body);
        let client = mcp_client::start(&root, &[("PATH", kube.path_env())]).await;
        let (result, is_error) = client
            .call("kube", json!({"target": "lab", "args": ["get", "pods"]}))
            .await;
        assert!(is_error, "{body}: {result}");
        let text = result.to_string();
        assert!(text.contains("a human must authenticate"), "{text}");
        assert!(
            !text.contains("111122223333") && !text.contains("999999999999"),
            "{text}"
        );
        client.close().await;
        assert!(kube.launches().is_empty(), "{body}");
        let events = audit_events(&root);
        assert!(
            events.contains(&event.to_string()) && events.contains(&"preflight-failed".to_string()),
            "{body}: {events:?}"
        );
        let log = audit_lines(&root).join("\n");
        assert!(
            !log.contains("111122223333") && !log.contains("999999999999"),
            "{log}"
        );
    }
}

#[cfg_attr(not(feature = "test-hooks"), ignore = "needs --features test-hooks")]
#[test]
fn session_cache_from_the_future_is_not_trusted() {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let (root, cli, check) = token_root();
    root.write(
        "providers/tok/identities/tok/auth/credentials.env",
        &format!("TOKEN=\"{GOOD}\"\n"),
    );
    root.write(
        "providers/tok/identities/tok/.session-cache",
        &format!("{}\n", now + 10_000),
    );
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let client = mcp_client::start(&root, &[("PATH", cli.path_env())]).await;
        let (result, _) = client.call("tok", json!({"args": ["run"]})).await;
        assert_eq!(result["execution"]["exit_code"], 0);
        client.close().await;
    });
    assert_eq!(check.launches().len(), 1);
}

/// The book: `torii reauth <tool> <target>` delegates to the lifecycle of the target's
/// identity provider, in the bucket of the target's scope (`dev` and `hml` authenticate
/// independently); `torii reauth <aws_profile tool> <alias>` refuses and names the AWS CLI's
/// own flow, writing nothing.
#[cfg_attr(not(feature = "test-hooks"), ignore = "needs --features test-hooks")]
#[test]
fn reauth_of_a_target_renews_its_identity_bucket_and_aws_profile_points_to_the_native_flow() {
    let (root, cli, _check) = token_root();
    install_provider(
        &root,
        "kube",
        "version: \"1\"\nname: kube\ntool: kube\ndescription: k\ncommand: kube\ntargeting:\n  mode: kubectl_context\n",
        "version: \"1\"\n",
    );
    for alias in ["dev", "hml"] {
        root.write(
            &format!("providers/kube/targets/{alias}/target.yaml"),
            &format!(
                "version: \"1\"\nname: {alias}\ncontext: ctx-{alias}\nidentity:\n  provider: tok\n"
            ),
        );
    }
    let script = responder(
        &root,
        &[crate::common::auth_candidate(json!({"TOKEN": GOOD}))],
    );
    root.torii()
        .args(["reauth", "kube", "dev"])
        .env("PATH", cli.path_env())
        .env("TORII_TEST_RESPONDER", &script)
        .assert()
        .success();
    let identities = root.path().join("providers/tok/identities");
    let written = std::fs::read_to_string(identities.join("dev/auth/credentials.env")).unwrap();
    assert!(written.contains(GOOD));
    assert!(!identities.join("hml").exists(), "hml's bucket was touched");
    assert!(
        !identities.join("tok").exists(),
        "the provider's own bucket was touched"
    );
    assert!(!root.path().join("providers/kube/identities").exists());
    assert!(audit_events(&root).ends_with(&["reauth-forced".into(), "session-refreshed".into()]));

    install_provider(
        &root,
        "awsp",
        "version: \"1\"\nname: awsp\ntool: awsp\ndescription: aws by profile\ncommand: awsfake\n\
         targeting:\n  mode: aws_profile\nauth:\n  strategy: inherited\n  identity:\n    \
         command: awsfake\n    args: [sts]\n    field: Account\n  profile_env: AWS_PROFILE\n",
        "version: \"1\"\n",
    );
    root.write(
        "providers/awsp/targets/producao/target.yaml",
        "version: \"1\"\nname: producao\nidentity:\n  provider: awsp\n  profile: prod-sso\n  \
         expect: \"123456789012\"\n",
    );
    // The audit log is the one file the command may append to.
    let before = crate::pack::snapshot(root.path(), &["torii.log", ".audit-chain"]);
    root.torii()
        .args(["reauth", "awsp", "producao"])
        .assert()
        .code(1)
        .stderr(predicates::str::contains(
            "aws sso login --profile prod-sso",
        ));
    assert_eq!(
        crate::pack::snapshot(root.path(), &["torii.log", ".audit-chain"]),
        before
    );
}

/// The book: an inherited provider without `validate` records `session-unchecked` and creates
/// no validity cache (nor any file in its bucket).
#[tokio::test]
async fn without_a_validator_no_validity_cache_is_created() {
    let root = Root::new();
    let provider = "version: \"1\"\nname: inh\ntool: inh\ndescription: i\ncommand: inh\nauth:\n  strategy: inherited\n";
    install_provider(&root, "inh", provider, "version: \"1\"\naccept: [\"x\"]\n");
    let cli = FakeCli::new(&root, "inh", "echo ok");
    let client = mcp_client::start(&root, &[("PATH", cli.path_env())]).await;
    for _ in 0..2 {
        let (result, is_error) = client.call("inh", json!({"args": ["x"]})).await;
        assert!(!is_error, "{result}");
        assert_eq!(result["execution"]["stdout"], "ok\n");
    }
    client.close().await;
    assert_eq!(
        audit_events(&root),
        ["invoke", "allowed-by-rules", "session-unchecked", "ran"].repeat(2)
    );
    assert!(
        !root.path().join("providers/inh/identities").exists(),
        "a bucket was created"
    );
}
