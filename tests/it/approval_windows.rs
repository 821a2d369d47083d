//! The approval windows end to end, from the dispatcher: the server (GUI enabled) runs the real
//! `torii __prompt` subprocess, whose real window code is driven by a label script instead of a
//! person (`TORII_TEST_PROMPT_SCRIPT`, feature `test-hooks` only), and the answer comes back through
//! the real protocol. Book: "Fluxo de uma chamada", AUTHZ-UI-02/03, AWS-POL-05/06, leases.

use std::ffi::OsString;

use serde_json::json;

use crate::common::{FakeCli, Root, audit_events, audit_lines, install_provider, simple_provider};
use crate::mcp_client;

fn gui_env(fake: &FakeCli, script: &str) -> Vec<(&'static str, OsString)> {
    vec![
        ("PATH", fake.path_env()),
        ("TORII_NO_GUI", "0".into()),
        ("TORII_TEST_PROMPT_SCRIPT", script.into()),
    ]
}

fn cli_root() -> (Root, FakeCli) {
    let root = Root::new();
    install_provider(
        &root,
        "cli",
        &simple_provider("cli", ""),
        "version: \"1\"\ndeny: [\"rm\"]\n",
    );
    let fake = FakeCli::new(&root, "cli", "echo ran");
    (root, fake)
}

const ARGS: [&str; 4] = ["ec2", "describe-instances", "--region", "x"];

#[cfg_attr(not(feature = "test-hooks"), ignore = "needs --features test-hooks")]
#[tokio::test]
async fn allow_once_runs_this_call_and_stores_nothing() {
    let (root, fake) = cli_root();
    let script =
        r#"{"steps": [{"click": "I reviewed the invocation and the scope"}, {"click": "Allow"}]}"#;
    let client = mcp_client::start(&root, &gui_env(&fake, script)).await;
    let (result, is_error) = client.call("cli", json!({ "args": ARGS })).await;
    assert!(!is_error, "{result}");
    assert_eq!(
        result["decision"],
        json!({"result": "allow", "source": "human-once"})
    );
    assert_eq!(result["execution"]["exit_code"], 0);
    client.close().await;
    assert_eq!(fake.launches().len(), 1);
    assert!(!root.path().join("providers/cli/grants").exists());
    assert_eq!(
        audit_events(&root),
        ["invoke", "override-once", "session-unchecked", "ran"]
    );
}

#[cfg_attr(not(feature = "test-hooks"), ignore = "needs --features test-hooks")]
#[tokio::test]
async fn a_temporary_exact_grant_is_stored_and_reused_only_for_the_same_vector() {
    let (root, fake) = cli_root();
    let script = r#"{"steps": [
        {"click": "Temporarily"}, {"click": "Exact"},
        {"click": "I reviewed the invocation and the scope"}, {"click": "Allow"}]}"#;
    let client = mcp_client::start(&root, &gui_env(&fake, script)).await;
    let (first, _) = client.call("cli", json!({ "args": ARGS })).await;
    assert_eq!(first["decision"]["source"], "human-grant", "{first}");
    assert_eq!(first["decision"]["rule"], "exact grant on 4 tokens");
    let (again, _) = client.call("cli", json!({ "args": ARGS })).await;
    assert_eq!(again["decision"]["source"], "grant");
    client.close().await;
    assert_eq!(fake.launches().len(), 2);
    let grants = std::fs::read_to_string(root.path().join("providers/cli/grants")).unwrap();
    assert!(
        grants.contains("mode: exact") && grants.contains("token_count: 4"),
        "{grants}"
    );
    assert!(
        !grants.contains("describe-instances"),
        "grants never store argument text"
    );
    let lines = audit_lines(&root);
    assert!(
        lines
            .iter()
            .any(|line| line
                .ends_with("| override-timed | ec2 describe-instances | 2min via=window")),
        "{lines:#?}"
    );
    assert!(audit_events(&root).contains(&"allowed-by-grant".to_string()));
}

#[cfg_attr(not(feature = "test-hooks"), ignore = "needs --features test-hooks")]
#[tokio::test]
async fn deny_in_the_window_is_human_deny_and_nothing_runs() {
    let (root, fake) = cli_root();
    let client =
        mcp_client::start(&root, &gui_env(&fake, r#"{"steps": [{"click": "Deny"}]}"#)).await;
    let (result, _) = client.call("cli", json!({ "args": ARGS })).await;
    assert_eq!(
        result["decision"],
        json!({"result": "deny", "source": "human-deny"})
    );
    // An explicit deny never opens a window: the script's Deny is not what decided it.
    let (explicit, _) = client.call("cli", json!({"args": ["rm", "x"]})).await;
    assert_eq!(explicit["decision"]["source"], "explicit-deny");
    client.close().await;
    assert!(fake.launches().is_empty());
    assert_eq!(
        audit_events(&root),
        ["invoke", "denied-interface", "invoke", "denied-explicit"]
    );
}

#[cfg_attr(not(feature = "test-hooks"), ignore = "needs --features test-hooks")]
#[tokio::test]
async fn an_inactive_alias_is_activated_by_replace_in_the_lease_window() {
    let root = Root::new();
    install_provider(
        &root,
        "kube",
        "version: \"1\"\nname: kube\ntool: kube\ndescription: k\ncommand: kube\ntargeting:\n  mode: kubectl_context\n",
        "version: \"1\"\naccept: [\"get pods\"]\n",
    );
    install_provider(
        &root,
        "idp",
        &simple_provider("idp", ""),
        "version: \"1\"\n",
    );
    for (alias, context) in [("lab", "ctx-lab"), ("hml", "ctx-hml")] {
        root.write(
            &format!("providers/kube/targets/{alias}/target.yaml"),
            &format!(
                "version: \"1\"\nname: {alias}\ncontext: {context}\nidentity:\n  provider: idp\n"
            ),
        );
    }
    root.torii_at_terminal()
        .args(["target", "activate", "kube", "hml", "--for", "5"])
        .assert()
        .success();
    let fake = FakeCli::new(&root, "kube", "echo pods");
    let client = mcp_client::start(
        &root,
        &gui_env(&fake, r#"{"steps": [{"click": "Replace all active"}]}"#),
    )
    .await;
    let (result, is_error) = client
        .call("kube", json!({"target": "lab", "args": ["get", "pods"]}))
        .await;
    assert!(!is_error, "{result}");
    assert_eq!(result["execution"]["stdout"], "pods\n");
    client.close().await;
    assert_eq!(
        fake.launches(),
        vec![vec!["--context", "ctx-lab", "get", "pods"]]
    );
    let lines = audit_lines(&root);
    assert!(
        lines
            .iter()
            .any(|line| line.ends_with("| target-access-replaced | lab | for=15min via=window")),
        "{lines:#?}"
    );
    // Replace left only the requested alias active.
    let status = root
        .torii()
        .args(["target", "status", "kube"])
        .output()
        .unwrap();
    let status = String::from_utf8_lossy(&status.stdout);
    assert!(
        status.contains("lab") && !status.contains("hml"),
        "{status}"
    );
}

#[cfg_attr(not(feature = "test-hooks"), ignore = "needs --features test-hooks")]
#[tokio::test]
async fn the_authentication_window_collects_a_validated_session() {
    let root = Root::new();
    let provider = "version: \"1\"\nname: tok\ntool: tok\ndescription: t\ncommand: tok\nauth:\n  strategy: environment\n  fields:\n    - name: TOKEN\n      label: Token\n      secret: true\n  inject:\n    environment:\n      CLI_TOKEN: \"${TOKEN}\"\n  validate:\n    command: tok-check\n    args: []\n";
    install_provider(
        &root,
        "tok",
        provider,
        "version: \"1\"\naccept: [\"run\"]\n",
    );
    let fake = FakeCli::new(&root, "tok", "echo token=$CLI_TOKEN");
    FakeCli::new(&root, "tok-check", "[ \"$CLI_TOKEN\" = good-canary ]");
    let script = r#"{"steps": [
        {"fill": {"label": "Token", "text": "bad-canary"}}, {"click": "Validate and use"},
        {"wait_until_enabled": "Validate and use"},
        {"fill": {"label": "Token", "text": "good-canary"}}, {"click": "Validate and use"}]}"#;
    let client = mcp_client::start(&root, &gui_env(&fake, script)).await;
    let (result, is_error) = client.call("tok", json!({"args": ["run"]})).await;
    assert!(!is_error, "{result}");
    assert_eq!(result["execution"]["stdout"], "token=good-canary\n");
    client.close().await;
    let credentials = std::fs::read_to_string(
        root.path()
            .join("providers/tok/identities/tok/auth/credentials.env"),
    )
    .unwrap();
    assert!(credentials.contains("good-canary"));
    assert_eq!(
        audit_events(&root),
        [
            "invoke",
            "allowed-by-rules",
            "session-invalid",
            "session-candidate-invalid",
            "session-refreshed",
            "ran"
        ]
    );
    assert!(!audit_lines(&root).join("\n").contains("canary"));
}

/// Issue 15: the window validates a candidate with the server's own launcher, so the validator
/// sees exactly the environment the command then gets (an optional field left empty included).
#[cfg_attr(not(feature = "test-hooks"), ignore = "needs --features test-hooks")]
#[tokio::test]
async fn the_window_validates_a_candidate_under_the_environment_its_command_gets() {
    let root = Root::new();
    let provider = "version: \"1\"\nname: tok\ntool: tok\ndescription: t\ncommand: tok\nauth:\n  strategy: environment\n  removed_env: [HOME]\n  fields:\n    - name: TOKEN\n      label: Token\n      secret: true\n    - name: EXTRA\n      label: Extra\n      required: false\n  inject:\n    environment:\n      CLI_TOKEN: \"${TOKEN}\"\n      CLI_EXTRA: \"${EXTRA}\"\n  validate:\n    command: tok-check\n    args: []\n";
    install_provider(
        &root,
        "tok",
        provider,
        "version: \"1\"\naccept: [\"run\"]\n",
    );
    root.write("providers/tok/.env", "FROM_DOTENV=dotenv\n");
    let record = |name: &str| root.outside().join(name);
    let fake = FakeCli::new(
        &root,
        "tok",
        &format!("env | sort > '{}'", record("command.env").display()),
    );
    FakeCli::new(
        &root,
        "tok-check",
        &format!("env | sort > '{}'", record("validator.env").display()),
    );
    let script = r#"{"steps": [
        {"fill": {"label": "Token", "text": "canary-token"}}, {"click": "Validate and use"}]}"#;
    let client = mcp_client::start(&root, &gui_env(&fake, script)).await;
    let (result, is_error) = client.call("tok", json!({"args": ["run"]})).await;
    assert!(!is_error, "{result}");
    client.close().await;
    let validator = std::fs::read_to_string(record("validator.env")).unwrap();
    let command = std::fs::read_to_string(record("command.env")).unwrap();
    let lines: Vec<&str> = command.lines().collect();
    assert!(lines.contains(&"CLI_TOKEN=canary-token"), "{command}");
    assert!(lines.contains(&"FROM_DOTENV=dotenv"), "{command}");
    assert!(
        !lines
            .iter()
            .any(|line| line.starts_with("CLI_EXTRA=") || line.starts_with("HOME=")),
        "{command}"
    );
    assert!(!command.contains("TORII_"), "{command}");
    assert_eq!(validator, command);
}

#[cfg_attr(not(feature = "test-hooks"), ignore = "needs --features test-hooks")]
#[tokio::test]
async fn a_lease_decision_made_on_a_stale_state_is_not_applied() {
    // Two calls on two inactive aliases open two lease windows on the same state revision (the
    // windows wait for each other before answering); both answer Replace. The first answer is
    // applied; the second finds the revision moved, is not applied (`target-access-stale`), and
    // its call is denied because its alias is not active.
    let root = Root::new();
    install_provider(
        &root,
        "kube",
        "version: \"1\"\nname: kube\ntool: kube\ndescription: k\ncommand: kube\ntargeting:\n  mode: kubectl_context\n",
        "version: \"1\"\naccept: [\"get pods\"]\n",
    );
    install_provider(
        &root,
        "idp",
        &simple_provider("idp", ""),
        "version: \"1\"\n",
    );
    for alias in ["lab", "hml"] {
        root.write(
            &format!("providers/kube/targets/{alias}/target.yaml"),
            &format!(
                "version: \"1\"\nname: {alias}\ncontext: ctx-{alias}\nidentity:\n  provider: idp\n"
            ),
        );
    }
    let fake = FakeCli::new(&root, "kube", "echo pods");
    let barrier = tempfile::tempdir().unwrap();
    let script = json!({"steps": [
        {"rendezvous": {"dir": barrier.path(), "count": 2}},
        {"click": "Replace all active"}
    ]})
    .to_string();
    let client = std::sync::Arc::new(mcp_client::start(&root, &gui_env(&fake, &script)).await);
    let calls: Vec<_> = ["lab", "hml"]
        .into_iter()
        .map(|alias| {
            let client = std::sync::Arc::clone(&client);
            tokio::spawn(async move {
                client
                    .call("kube", json!({"target": alias, "args": ["get", "pods"]}))
                    .await
            })
        })
        .collect();
    let mut sources = Vec::new();
    for call in calls {
        let (result, _) = call.await.unwrap();
        sources.push(
            result["decision"]["source"]
                .as_str()
                .unwrap_or("none")
                .to_string(),
        );
    }
    sources.sort();
    assert_eq!(
        sources,
        ["human-deny", "rules"],
        "{:#?}",
        audit_lines(&root)
    );
    let events = audit_events(&root);
    assert_eq!(
        events
            .iter()
            .filter(|event| *event == "target-access-replaced")
            .count(),
        1,
        "{events:?}"
    );
    assert!(
        audit_lines(&root)
            .iter()
            .any(|line| line.ends_with("retry-required")),
        "{events:?}"
    );
    assert_eq!(fake.launches().len(), 1);
}
