//! Target-aware calls over MCP: the human lease gates grants, env, auth and execution; the
//! binding is injected by Torii and never shown to the agent (book: "Leases de target",
//! "Provider target-aware", "Regressões prioritárias").

use serde_json::json;

use crate::common::{FakeCli, Root, audit_events, audit_lines, install_provider};
use crate::mcp_client;

const KUBE: &str = "version: \"1\"\nname: kube\ntool: kube\ndescription: fake kubectl\ncommand: kube\ntargeting:\n  mode: kubectl_context\n";

fn idp_provider(validate: Option<&str>) -> String {
    let mut yaml =
        String::from("version: \"1\"\nname: idp\ntool: idp\ndescription: identity\ncommand: idp\n");
    if let Some(command) = validate {
        yaml.push_str(&format!(
            "auth:\n  strategy: inherited\n  validate:\n    command: {command}\n    args: []\n"
        ));
    }
    yaml
}

fn target_yaml(alias: &str, context: &str) -> String {
    format!("version: \"1\"\nname: {alias}\ncontext: {context}\nidentity:\n  provider: idp\n")
}

struct Setup {
    root: Root,
    kube: FakeCli,
}

fn setup(validate: Option<&str>) -> Setup {
    let root = Root::new();
    install_provider(
        &root,
        "kube",
        KUBE,
        "version: \"1\"\ndeny: [\"exec\"]\naccept: [\"get pods\"]\n",
    );
    install_provider(&root, "idp", &idp_provider(validate), "version: \"1\"\n");
    root.write(
        "providers/kube/targets/lab/target.yaml",
        &target_yaml("lab", "ctx-alpha-real"),
    );
    root.write(
        "providers/kube/targets/prod/target.yaml",
        &target_yaml("prod", "ctx-beta-real"),
    );
    let kube = FakeCli::new(&root, "kube", "echo pods-listed");
    Setup { root, kube }
}

fn activate(root: &Root, alias: &str, extra: &[&str]) {
    root.torii_at_terminal()
        .args(["target", "activate", "kube", alias, "--for", "5"])
        .args(extra)
        .assert()
        .success();
}

fn no_real_context_leaks(root: &Root, result: &serde_json::Value) {
    let text = result.to_string();
    assert!(
        !text.contains("ctx-alpha-real") && !text.contains("ctx-beta-real"),
        "{text}"
    );
    let log = audit_lines(root).join("\n");
    assert!(
        !log.contains("ctx-alpha-real") && !log.contains("ctx-beta-real"),
        "{log}"
    );
}

#[tokio::test]
async fn an_active_alias_runs_with_the_injected_context_and_others_stay_inactive() {
    let Setup { root, kube } = setup(None);
    activate(&root, "lab", &[]);
    let client = mcp_client::start(&root, &[("PATH", kube.path_env())]).await;
    let (result, is_error) = client
        .call(
            "kube",
            json!({"target": "lab", "args": ["get", "pods", "-n", "default"]}),
        )
        .await;
    assert!(!is_error, "{result}");
    assert_eq!(result["target"], "lab");
    assert_eq!(result["decision"]["source"], "rules");
    assert_eq!(result["execution"]["stdout"], "pods-listed\n");
    no_real_context_leaks(&root, &result);
    let (prod, _) = client
        .call("kube", json!({"target": "prod", "args": ["get", "pods"]}))
        .await;
    assert_eq!(prod["decision"]["source"], "human-deny");
    client.close().await;
    assert_eq!(
        kube.launches(),
        vec![vec![
            "--context",
            "ctx-alpha-real",
            "get",
            "pods",
            "-n",
            "default"
        ]]
    );
    let events = audit_events(&root);
    assert!(
        events.starts_with(&[
            "target-access-replaced".into(),
            "invoke".into(),
            "allowed-by-rules".into(),
            "preflight-provider".into(),
            "session-unchecked".into(),
            "preflight-ok".into(),
            "ran".into()
        ]),
        "{events:?}"
    );
    // Preflight events name only the identity provider's tool.
    assert!(
        audit_lines(&root)
            .iter()
            .any(|line| line.ends_with("| preflight-provider | idp"))
    );
}

#[tokio::test]
async fn editing_the_binding_while_the_server_runs_ends_the_lease() {
    let Setup { root, kube } = setup(None);
    activate(&root, "lab", &[]);
    let client = mcp_client::start(&root, &[("PATH", kube.path_env())]).await;
    let (first, _) = client
        .call("kube", json!({"target": "lab", "args": ["get", "pods"]}))
        .await;
    assert_eq!(first["execution"]["exit_code"], 0);
    // Same alias, another context: the server still has the old binding loaded.
    root.write(
        "providers/kube/targets/lab/target.yaml",
        &target_yaml("lab", "ctx-other-real"),
    );
    let (second, _) = client
        .call("kube", json!({"target": "lab", "args": ["get", "pods"]}))
        .await;
    assert_eq!(second["decision"]["source"], "human-deny");
    client.close().await;
    assert_eq!(kube.launches().len(), 1);
    assert!(
        kube.launches()
            .iter()
            .all(|launch| launch[1] == "ctx-alpha-real")
    );
}

#[tokio::test]
async fn target_clear_and_a_corrupt_lease_file_deny_without_a_process() {
    let Setup { root, kube } = setup(None);
    activate(&root, "lab", &[]);
    let client = mcp_client::start(&root, &[("PATH", kube.path_env())]).await;
    root.torii()
        .args(["target", "clear", "kube"])
        .assert()
        .success();
    let (cleared, _) = client
        .call("kube", json!({"target": "lab", "args": ["get", "pods"]}))
        .await;
    assert_eq!(cleared["decision"]["source"], "human-deny");
    root.write(
        "providers/kube/.target-authorizations.yaml",
        "version: \"1\"\nrevision: [oops\n",
    );
    let (corrupt, _) = client
        .call("kube", json!({"target": "lab", "args": ["get", "pods"]}))
        .await;
    assert_eq!(corrupt["decision"]["source"], "human-deny");
    assert!(
        corrupt["message"]
            .as_str()
            .unwrap()
            .contains("torii target clear kube"),
        "{corrupt}"
    );
    client.close().await;
    assert!(kube.launches().is_empty());
    assert!(
        audit_lines(&root)
            .iter()
            .any(|line| line.ends_with("| target-access-denied | lab | invalid-state"))
    );
}

#[tokio::test]
async fn a_lease_revoked_between_the_decision_and_the_launch_blocks_the_launch() {
    // The identity provider's validator runs after the decision; while it runs, a human runs
    // `torii target clear`. (The validator cannot do it itself: it is confined out of the
    // config root, so it says when it is running and waits for the go-ahead.)
    let Setup { root, kube } = setup(Some("idp-check"));
    let running = root.outside().join("validator-running");
    let go = root.outside().join("validator-go");
    FakeCli::new(
        &root,
        "idp-check",
        &format!(
            ": > '{}'; while [ ! -e '{}' ]; do sleep 0.05; done; exit 0",
            running.display(),
            go.display()
        ),
    );
    activate(&root, "lab", &[]);
    let client = mcp_client::start(&root, &[("PATH", kube.path_env())]).await;
    let call = client.call("kube", json!({"target": "lab", "args": ["get", "pods"]}));
    let human = async {
        crate::common::wait_until_async("the call's child to start", || running.exists()).await;
        root.torii()
            .args(["target", "clear", "kube"])
            .assert()
            .success();
        std::fs::write(&go, "").unwrap();
    };
    let ((result, is_error), ()) = tokio::join!(call, human);
    assert!(is_error, "{result}");
    assert_eq!(result["decision"]["source"], "rules");
    assert!(result.get("execution").is_none());
    client.close().await;
    assert!(
        kube.launches().is_empty(),
        "the launch happened after the lease was revoked"
    );
    assert!(
        audit_lines(&root)
            .iter()
            .any(|line| line.ends_with("| target-access-lost | lab | after-authentication"))
    );
}

#[tokio::test]
async fn an_expiring_lease_blocks_the_launch() {
    // The lease ends while the identity provider's validator runs, after the decision. No
    // clock margin: the validator says when it runs and waits, and meanwhile the lease's
    // `expires_at` is moved into the past, as time would.
    let Setup { root, kube } = setup(Some("idp-slow"));
    let running = root.outside().join("validator-running");
    let go = root.outside().join("validator-go");
    FakeCli::new(
        &root,
        "idp-slow",
        &format!(
            ": > '{}'; while [ ! -e '{}' ]; do sleep 0.05; done; exit 0",
            running.display(),
            go.display()
        ),
    );
    activate(&root, "lab", &[]);
    let state_file = root
        .path()
        .join("providers/kube/.target-authorizations.yaml");
    let client = mcp_client::start(&root, &[("PATH", kube.path_env())]).await;
    let call = client.call("kube", json!({"target": "lab", "args": ["get", "pods"]}));
    let time_passes = async {
        crate::common::wait_until_async("the call's child to start", || running.exists()).await;
        let state = std::fs::read_to_string(&state_file).unwrap();
        let expires = state
            .lines()
            .find(|line| line.contains("expires_at"))
            .unwrap();
        let past = crate::common::epoch_now() - 1;
        let expired = state.replace(expires, &format!("    expires_at: {past}"));
        std::fs::write(&state_file, expired).unwrap();
        std::fs::write(&go, "").unwrap();
    };
    let ((result, is_error), ()) = tokio::join!(call, time_passes);
    assert!(is_error, "{result}");
    client.close().await;
    assert!(kube.launches().is_empty());
    assert!(
        audit_lines(&root)
            .iter()
            .any(|line| line.ends_with("| target-access-lost | lab | after-authentication")),
        "{:#?}",
        audit_lines(&root)
    );
}

#[tokio::test]
async fn grants_are_isolated_per_alias() {
    let Setup { root, kube } = setup(None);
    activate(&root, "lab", &[]);
    activate(&root, "prod", &["--add"]);
    let args: Vec<String> = ["get", "namespaces"].map(String::from).to_vec();
    let mut grants = jasper::Grants::empty();
    grants.push(jasper::GrantEntry::new(
        crate::common::epoch_now() + 600,
        jasper::GrantMatcher::exact(&args),
    ));
    root.write("providers/kube/targets/lab/grants", &grants.to_yaml());
    let client = mcp_client::start(&root, &[("PATH", kube.path_env())]).await;
    let (lab, _) = client
        .call("kube", json!({"target": "lab", "args": args}))
        .await;
    assert_eq!(lab["decision"]["source"], "grant");
    let (prod, _) = client
        .call("kube", json!({"target": "prod", "args": args}))
        .await;
    assert_eq!(prod["decision"]["source"], "human-deny");
    client.close().await;
    assert_eq!(kube.launches().len(), 1);
    let log = audit_lines(&root).join("\n");
    assert!(
        log.contains("| kube/lab | allowed-by-grant |")
            && log.contains("| kube/prod | denied-interface |"),
        "{log}"
    );
}

#[tokio::test]
async fn explicit_deny_on_an_inactive_alias_asks_for_no_lease() {
    let Setup { root, kube } = setup(None);
    let client = mcp_client::start(&root, &[("PATH", kube.path_env())]).await;
    let (result, _) = client
        .call(
            "kube",
            json!({"target": "prod", "args": ["exec", "-it", "x"]}),
        )
        .await;
    assert_eq!(result["decision"]["source"], "explicit-deny");
    client.close().await;
    assert_eq!(audit_events(&root), ["invoke", "denied-explicit"]);
    assert!(kube.launches().is_empty());
}

/// An `aws_profile` provider whose validator records what it sees, for a server started with
/// ambient AWS credentials: the validator must run with the binding's environment, exactly like
/// the probe and the command, or it would validate the ambient session instead of the profile.
#[tokio::test]
async fn an_aws_profile_validator_sees_the_bound_profile_and_no_ambient_credentials() {
    let root = Root::new();
    install_provider(
        &root,
        "awsp",
        "version: \"1\"\nname: awsp\ntool: awsp\ndescription: aws by profile\ncommand: awsfake\n\
         targeting:\n  mode: aws_profile\nauth:\n  strategy: inherited\n  validate:\n    \
         command: check\n  identity:\n    command: awsfake\n    args: [sts]\n    field: Account\n  \
         profile_env: AWS_PROFILE\n",
        "version: \"1\"\naccept: [\"s3 ls\"]\n",
    );
    root.write(
        "providers/awsp/targets/dev/target.yaml",
        "version: \"1\"\nname: dev\nidentity:\n  provider: awsp\n  profile: dev-profile\n  \
         expect: \"123456789012\"\n",
    );
    let seen = root.outside().join("validator-env");
    let aws = FakeCli::new(&root, "awsfake", "echo '{\"Account\": \"123456789012\"}'");
    FakeCli::new(
        &root,
        "check",
        &format!(
            "echo \"key=${{AWS_ACCESS_KEY_ID:-none}} profile=${{AWS_PROFILE:-none}}\" >> '{}'",
            seen.display()
        ),
    );
    root.torii_at_terminal()
        .args(["target", "activate", "awsp", "dev", "--for", "5"])
        .assert()
        .success();
    let client = mcp_client::start(
        &root,
        &[
            ("PATH", aws.path_env()),
            ("AWS_ACCESS_KEY_ID", "AKIAAMBIENTCANARY000".into()),
        ],
    )
    .await;
    let (result, is_error) = client
        .call("awsp", json!({"target": "dev", "args": ["s3", "ls"]}))
        .await;
    client.close().await;
    assert!(!is_error, "{result}");
    assert_eq!(result["execution"]["exit_code"], 0, "{result}");
    assert_eq!(
        std::fs::read_to_string(&seen).unwrap(),
        "key=none profile=dev-profile\n"
    );
}

/// Issue 11, finding 7: a target's `rules.yaml` that is a dangling symbolic link made the
/// target silently use the shared policy. It exists and cannot be read, so the call fails
/// closed, and nothing runs.
#[cfg(unix)]
#[tokio::test]
async fn a_dangling_target_policy_denies_instead_of_falling_back_to_the_shared_one() {
    let Setup { root, kube } = setup(None);
    activate(&root, "lab", &[]);
    std::os::unix::fs::symlink(
        root.path().join("providers/kube/targets/lab/missing.yaml"),
        root.path().join("providers/kube/targets/lab/rules.yaml"),
    )
    .unwrap();
    let client = mcp_client::start(&root, &[("PATH", kube.path_env())]).await;
    let (result, is_error) = client
        .call("kube", json!({"target": "lab", "args": ["get", "pods"]}))
        .await;
    assert!(is_error, "{result}");
    assert!(result.get("execution").is_none(), "{result}");
    assert_eq!(
        result["error"],
        "cannot read providers/kube/targets/lab/rules.yaml: is a symbolic link to a file that \
         does not exist",
        "{result}"
    );
    // `torii_policy` reads the same file and fails the same way.
    let (view, is_error) = client
        .call("torii_policy", json!({"provider": "kube", "target": "lab"}))
        .await;
    assert!(is_error, "{view}");
    client.close().await;
    assert!(kube.launches().is_empty());
}

/// Final review: a call waiting for a slot (`max_concurrent_calls`) waited after the last
/// lease check, so a lease cleared meanwhile did not stop its launch.
#[tokio::test]
async fn a_lease_cleared_while_the_call_waits_for_a_slot_blocks_the_launch() {
    let Setup { root, kube } = setup(None);
    root.write("settings.yaml", "max_concurrent_calls: 1\n");
    install_provider(
        &root,
        "block",
        "version: \"1\"\nname: block\ntool: block\ndescription: holds the slot\ncommand: block\n",
        "version: \"1\"\naccept: [\"hold\"]\n",
    );
    let go = root.outside().join("block-go");
    let holding = root.outside().join("block-holding");
    FakeCli::new(
        &root,
        "block",
        &format!(
            ": > '{}'; while [ ! -e '{}' ]; do sleep 0.05; done",
            holding.display(),
            go.display()
        ),
    );
    activate(&root, "lab", &[]);
    let client = mcp_client::start(&root, &[("PATH", kube.path_env())]).await;
    let hold = client.call("block", json!({"args": ["hold"]}));
    let call = async {
        crate::common::wait_until_async("the blocking call to hold its slot", || holding.exists())
            .await;
        client
            .call("kube", json!({"target": "lab", "args": ["get", "pods"]}))
            .await
    };
    let human = async {
        // The identity check is the kube call's last audit line before the slot (only the
        // kube call has one); from there to the wait it reads one file, while `target clear`
        // below has a process to start first.
        crate::common::wait_until_async("the kube call's identity check", || {
            audit_events(&root)
                .iter()
                .any(|event| event == "preflight-ok")
        })
        .await;
        root.torii()
            .args(["target", "clear", "kube"])
            .assert()
            .success();
        std::fs::write(&go, "").unwrap();
    };
    let (_, (result, is_error), ()) = tokio::join!(hold, call, human);
    assert!(is_error, "{result}");
    assert!(result.get("execution").is_none(), "{result}");
    client.close().await;
    assert!(
        kube.launches().is_empty(),
        "the launch happened after the lease was cleared"
    );
    // The re-check that found it is the last one, right before the launch.
    assert!(
        audit_lines(&root)
            .iter()
            .any(|line| line.ends_with("| target-access-lost | lab | at-launch")),
        "{:?}",
        audit_lines(&root)
    );
}

/// Issue 17, mismatch 10, for the lease window: with windows on but no display, an inactive
/// alias was refused as "the human denied the target".
#[test]
fn a_lease_window_that_cannot_open_is_not_a_human_denial() {
    let Setup { root, kube } = setup(None);
    let initialize = crate::common::initialize_request();
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "kube", "arguments": {"target": "lab", "args": ["get", "pods"]}}});
    let output = root
        .torii()
        .env("PATH", kube.path_env())
        .env("TORII_NO_GUI", "0")
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .write_stdin(format!("{initialize}\n{call}\n"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let answer: serde_json::Value = serde_json::from_str(stdout.lines().nth(1).unwrap()).unwrap();
    let message = answer["result"]["structuredContent"]["message"]
        .as_str()
        .unwrap_or_default();
    assert!(
        message.contains("the approval window could not be opened")
            && message.contains("no human was asked")
            && !message.contains("the human denied"),
        "{answer}"
    );
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("an approval window could not be opened")
    );
    assert!(
        audit_lines(&root)
            .iter()
            .any(|line| line.ends_with("| target-access-denied | lab | no-window")),
        "{:#?}",
        audit_lines(&root)
    );
    assert!(kube.launches().is_empty());
}

/// The book: grants are consulted only after the lease is confirmed. A temporary grant for
/// `get nodes` on `prod` outlives the lease it was made under: once the lease is cleared, the
/// same call asks for the lease again (and, denied, runs nothing) instead of running on the
/// grant. Making and using the grant never changes `rules.yaml`.
#[tokio::test]
async fn a_live_grant_on_an_inactive_alias_still_asks_for_the_lease() {
    let Setup { root, kube } = setup(None);
    let script = root.outside().join("answers");
    std::fs::write(
        &script,
        "{\"target_lease\": {\"replace\": {\"minutes\": 5}}}\n\
         {\"operation\": {\"temporary\": {\"scope\": \"exact\", \"duration_secs\": 3600}}}\n\
         {\"target_lease\": \"deny\"}\n",
    )
    .unwrap();
    let client = mcp_client::start(
        &root,
        &[
            ("PATH", kube.path_env()),
            ("TORII_TEST_RESPONDER", script.clone().into()),
        ],
    )
    .await;
    let rules = std::fs::read(root.path().join("providers/kube/rules.yaml")).unwrap();
    let call = json!({"target": "prod", "args": ["get", "nodes"]});
    let (granted, _) = client.call("kube", call.clone()).await;
    assert_eq!(granted["decision"]["source"], "human-grant", "{granted}");
    let (by_grant, _) = client.call("kube", call.clone()).await;
    assert_eq!(by_grant["decision"]["source"], "grant", "{by_grant}");

    root.torii()
        .args(["target", "clear", "kube"])
        .assert()
        .success();
    let grants =
        std::fs::read_to_string(root.path().join("providers/kube/targets/prod/grants")).unwrap();
    assert!(
        grants.contains("expires_at"),
        "the grant is still there: {grants}"
    );
    let (asked, _) = client.call("kube", call).await;
    assert_eq!(asked["decision"]["source"], "human-deny", "{asked}");
    client.close().await;

    let mut requests = script.into_os_string();
    requests.push(".requests");
    let kinds: Vec<String> = std::fs::read_to_string(requests)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str::<serde_json::Value>(line).unwrap()["kind"].to_string())
        .collect();
    assert_eq!(
        kinds,
        ["\"target_lease\"", "\"operation\"", "\"target_lease\""],
        "the third call must ask for the lease, and nothing else"
    );
    assert_eq!(kube.launches().len(), 2);
    // A grant made and used never touches the policy.
    assert_eq!(
        std::fs::read(root.path().join("providers/kube/rules.yaml")).unwrap(),
        rules
    );
}

/// The book: `target clear` revokes leases only; with the grants revoked too, a process
/// already started runs to its end and its result comes back (revocation blocks launches,
/// never kills).
#[tokio::test]
async fn target_clear_and_revoked_grants_do_not_end_a_process_already_started() {
    let Setup { root, .. } = setup(None);
    let running = root.outside().join("kube-running");
    let go = root.outside().join("kube-go");
    let kube = FakeCli::new(
        &root,
        "kube",
        &format!(
            ": > '{}'; while [ ! -e '{}' ]; do sleep 0.05; done; echo finished",
            running.display(),
            go.display()
        ),
    );
    activate(&root, "lab", &[]);
    // The call runs on a live grant (no rule accepts `get nodes`), which is revoked meanwhile.
    let args: Vec<String> = ["get", "nodes"].map(String::from).to_vec();
    let mut grants = jasper::Grants::empty();
    grants.push(jasper::GrantEntry::new(
        crate::common::epoch_now() + 600,
        jasper::GrantMatcher::exact(&args),
    ));
    root.write("providers/kube/targets/lab/grants", &grants.to_yaml());
    let client = mcp_client::start(&root, &[("PATH", kube.path_env())]).await;
    let call = client.call("kube", json!({"target": "lab", "args": args}));
    let human = async {
        crate::common::wait_until_async("the call's child to start", || running.exists()).await;
        root.torii()
            .args(["target", "clear", "kube"])
            .assert()
            .success();
        std::fs::remove_file(root.path().join("providers/kube/targets/lab/grants")).unwrap();
        std::fs::write(&go, "").unwrap();
    };
    let ((result, is_error), ()) = tokio::join!(call, human);
    assert!(!is_error, "{result}");
    assert_eq!(result["decision"]["source"], "grant", "{result}");
    assert_eq!(result["execution"]["exit_code"], 0, "{result}");
    assert_eq!(result["execution"]["stdout"], "finished\n", "{result}");
    // The next call finds no lease.
    let (after, _) = client
        .call("kube", json!({"target": "lab", "args": ["get", "pods"]}))
        .await;
    assert_eq!(after["decision"]["source"], "human-deny", "{after}");
    client.close().await;
    assert_eq!(kube.launches().len(), 1);
}
