//! The official kubectl package with the REAL `kubectl` against two fake API servers on
//! loopback, one per context (issue 5, "Configurar Kubernetes"): each alias reaches only its
//! own server, every locked flag is refused before any process or request, and the real
//! context names never reach the agent or the audit log.

use std::ffi::OsString;
use std::path::Path;

use serde_json::{Value, json};

use crate::common::{FakeCli, Root, audit_events, audit_lines, install_provider};
use crate::fake_kube::{FakeKube, kubeconfig, real_kubectl, recording_kubectl};
use crate::mcp_client;
use crate::pack::example;

const CTX_A: &str = "ctx-a-secret";
const CTX_B: &str = "ctx-b-secret";

/// An identity provider with nothing to collect: the lab servers need no credentials.
pub const IDP: &str = "version: \"1\"\nname: idp\ntool: idp\ndescription: Identity of the lab \
                       contexts.\ncommand: \"true\"\nauth:\n  strategy: inherited\n";

pub struct Lab {
    pub root: Root,
    pub a: FakeKube,
    pub b: FakeKube,
    /// Records each kubectl launch, then runs the real one.
    pub kubectl: FakeCli,
}

impl Lab {
    /// `PATH` for the server: the recording wrapper first.
    pub fn path_env(&self) -> OsString {
        self.kubectl.path_env()
    }
}

/// `torii` with the real kubectl first on `PATH`, for `target add`. The ambient `KUBECONFIG`
/// is `ambient` (by default a file that does not exist, so the host's `~/.kube/config` is never
/// read): the context check must use the provider's `.env`, like every call.
pub fn torii_with(root: &Root, real: &Path, ambient: Option<&Path>) -> assert_cmd::Command {
    let mut dirs = vec![real.parent().unwrap().to_path_buf()];
    dirs.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    let mut command = root.torii();
    command
        .env("PATH", std::env::join_paths(dirs).unwrap())
        .env(
            "KUBECONFIG",
            ambient.map_or_else(
                || root.outside().join("no-such-kubeconfig"),
                Path::to_path_buf,
            ),
        );
    command
}

/// The kubectl package installed with `rules`, `idp`, two fake servers, a kubeconfig reached
/// only through the provider's `.env`, aliases `lab_a` → A and `lab_b` → B added with the real
/// `kubectl config get-contexts`, both leased (`lab_b` with `--add`).
pub fn lab(rules: &str) -> Lab {
    lab_with(rules, "idp", [&[], &[]])
}

/// `lab` with the identity provider `identity` (`idp`, or the official `aws` package) and
/// extra `target add` flags for `lab_a` and `lab_b`.
fn lab_with(rules: &str, identity: &str, extra: [&[&str]; 2]) -> Lab {
    lab_on(
        rules,
        identity,
        extra,
        (FakeKube::start("a"), FakeKube::start("b")),
    )
}

/// `lab_with` on the servers `a` and `b`.
fn lab_on(rules: &str, identity: &str, extra: [&[&str]; 2], (a, b): (FakeKube, FakeKube)) -> Lab {
    let real = real_kubectl();
    let root = Root::new();
    for package in ["kubectl", identity] {
        if package == "idp" {
            install_provider(&root, "idp", IDP, "version: \"1\"\n");
            continue;
        }
        root.torii()
            .args(["provider", "install"])
            .arg(example(package))
            .assert()
            .success();
    }
    root.write("providers/kubectl/rules.yaml", rules);
    let config = kubeconfig(&root, &[(CTX_A, &a), (CTX_B, &b)]);
    root.write(
        "providers/kubectl/.env",
        &format!(
            "KUBECONFIG=\"{}\"\nKUBECACHEDIR=\"{}\"\n",
            config.display(),
            root.outside().join("kube/cache").display()
        ),
    );
    for ((alias, context), extra) in [("lab_a", CTX_A), ("lab_b", CTX_B)].into_iter().zip(extra) {
        torii_with(&root, &real, None)
            .args(["target", "add", "kubectl", alias, "--context", context])
            .args(["--provider", identity])
            .args(extra)
            .assert()
            .success();
    }
    for (alias, extra) in [("lab_a", None), ("lab_b", Some("--add"))] {
        root.torii_at_terminal()
            .args(["target", "activate", "kubectl", alias, "--for", "5"])
            .args(extra)
            .assert()
            .success();
    }
    let kubectl = recording_kubectl(&root, &real);
    Lab {
        root,
        a,
        b,
        kubectl,
    }
}

const GET_PODS: &str = "version: \"1.0\"\ndeny: []\naccept:\n  - \"get pods\"\n";

fn assert_no_context(root: &Root, seen: &str) {
    for context in [CTX_A, CTX_B] {
        assert!(!seen.contains(context), "{context} leaked: {seen}");
        let log = audit_lines(root).join("\n");
        assert!(!log.contains(context), "{context} in the audit: {log}");
    }
}

/// Issue 17, mismatch 8: a cluster whose credentials are in the kubeconfig (kind, minikube, a
/// client certificate) had no identity provider to name in `target add`. The official
/// `kubeconfig` package is that identity, and the official packages alone end in a call.
#[tokio::test]
#[ignore = "needs kubectl from PyPI; run by ./scripts/test.sh"]
async fn the_official_kubeconfig_identity_gives_a_target_that_an_agent_can_call() {
    let lab = lab_with(GET_PODS, "kubeconfig", [&[], &[]]);
    lab.root
        .torii()
        .args(["provider", "setup", "kubeconfig", "readonly"])
        .assert()
        .success();
    let client = mcp_client::start(&lab.root, &[("PATH", lab.path_env())]).await;
    let (result, is_error) = client
        .call(
            "kubectl",
            json!({"target": "lab_a", "args": ["get", "pods", "-n", "default", "-o", "name"]}),
        )
        .await;
    assert!(!is_error, "{result}");
    assert_eq!(
        result["execution"]["stdout"], "pod/pod-from-a\n",
        "{result}"
    );
    let (identity, _) = client
        .call("kubeconfig", json!({"args": ["config", "view", "--raw"]}))
        .await;
    assert_eq!(
        identity["decision"]["source"], "explicit-deny",
        "{identity}"
    );
    assert!(identity.get("execution").is_none(), "{identity}");
    client.close().await;
    assert_eq!(lab.kubectl.launches().len(), 1);
}

#[tokio::test]
#[ignore = "needs kubectl from PyPI; run by ./scripts/test.sh"]
async fn each_alias_reaches_only_its_own_server() {
    let lab = lab(GET_PODS);
    let client = mcp_client::start(&lab.root, &[("PATH", lab.path_env())]).await;
    let tools = serde_json::to_string(&client.tools().await).unwrap();
    let args = ["get", "pods", "-n", "default", "-o", "name"];
    let (from_a, is_error) = client
        .call("kubectl", json!({"target": "lab_a", "args": args}))
        .await;
    assert!(!is_error, "{from_a}");
    assert_eq!(from_a["target"], "lab_a");
    assert_eq!(from_a["decision"]["source"], "rules");
    assert_eq!(from_a["execution"]["exit_code"], 0, "{from_a}");
    assert_eq!(from_a["execution"]["stdout"], "pod/pod-from-a\n");
    let a_seen = lab.a.requests();
    assert!(lab.b.requests().is_empty(), "{:?}", lab.b.requests());
    assert!(
        a_seen
            .iter()
            .any(|line| line.starts_with("GET /api/v1/namespaces/default/pods")),
        "{a_seen:?}"
    );

    let (from_b, is_error) = client
        .call("kubectl", json!({"target": "lab_b", "args": args}))
        .await;
    assert!(!is_error, "{from_b}");
    assert_eq!(from_b["execution"]["stdout"], "pod/pod-from-b\n");
    assert_eq!(lab.a.requests(), a_seen, "lab_b reached server A");
    assert!(
        lab.b
            .requests()
            .iter()
            .any(|line| line.starts_with("GET /api/v1/namespaces/default/pods"))
    );
    client.close().await;

    // Torii put the human's context first; the agent never named it.
    let launches = lab.kubectl.launches();
    let expected = |context: &str| {
        let mut launch = vec!["--context".to_string(), context.to_string()];
        launch.extend(args.iter().map(|arg| arg.to_string()));
        launch
    };
    assert_eq!(launches, vec![expected(CTX_A), expected(CTX_B)]);
    // The discovery cache went where the provider's .env said, not to the host's home.
    assert!(lab.root.outside().join("kube/cache").is_dir());
    assert_no_context(&lab.root, &format!("{tools}{from_a}{from_b}"));
    let log = audit_lines(&lab.root).join("\n");
    assert!(
        log.contains("| kubectl/lab_a | ran | ") && log.contains("| kubectl/lab_b | ran | "),
        "{log}"
    );
}

/// The live catalogue's K8S-AUTH-01, against loopback API servers: the identity that reads
/// `lab_a` is valid but not authorized on the second cluster (`lab_b`, the catalogue's
/// `lab-noaccess`). Jasper allows, the identity check passes, one `kubectl` runs and fails
/// with the server's Forbidden, and nothing asks a human or stores a grant.
#[tokio::test]
#[ignore = "needs kubectl from PyPI; run by ./scripts/test.sh"]
async fn a_valid_identity_without_access_to_the_other_target_fails_in_kubectl_after_the_decision() {
    let lab = lab_on(
        GET_PODS,
        "idp",
        [&[], &[]],
        (FakeKube::start("a"), FakeKube::start_forbidding("noaccess")),
    );
    let client = mcp_client::start(&lab.root, &[("PATH", lab.path_env())]).await;
    let args = [
        "get",
        "pods",
        "-n",
        "default",
        "-o",
        "name",
        "--request-timeout=10s",
    ];
    let (allowed, _) = client
        .call("kubectl", json!({"target": "lab_a", "args": args}))
        .await;
    assert_eq!(allowed["execution"]["exit_code"], 0, "{allowed}");
    let (refused, is_error) = client
        .call("kubectl", json!({"target": "lab_b", "args": args}))
        .await;
    client.close().await;
    assert!(!is_error, "{refused}");
    assert_eq!(refused["decision"]["source"], "rules", "{refused}");
    assert_ne!(refused["execution"]["exit_code"], 0, "{refused}");
    let stderr = refused["execution"]["stderr"].as_str().unwrap();
    assert!(
        stderr.contains("Forbidden") || stderr.contains("forbidden"),
        "{stderr}"
    );
    assert_eq!(lab.kubectl.launches().len(), 2);
    assert!(
        lab.b
            .requests()
            .iter()
            .any(|line| line.starts_with("GET /api/v1/namespaces/default/pods")),
        "{:?}",
        lab.b.requests()
    );
    let log = audit_lines(&lab.root);
    let of_b: Vec<&str> = log
        .iter()
        .filter(|line| line.contains("| kubectl/lab_b |"))
        .map(|line| line.split(" | ").nth(2).unwrap_or(""))
        .collect();
    assert_eq!(
        of_b,
        [
            "target-access-added",
            "invoke",
            "allowed-by-rules",
            "preflight-provider",
            "session-unchecked",
            "preflight-ok",
            "ran"
        ],
        "{log:#?}"
    );
    assert!(
        log.iter()
            .any(|line| line.contains("| kubectl/lab_b | ran |") && !line.ends_with("exit=0")),
        "{log:#?}"
    );
    assert!(
        !lab.root
            .path()
            .join("providers/kubectl/targets/lab_b/grants")
            .exists()
    );
}

/// Every locked flag of the kubectl baseline, as the agent might spell it.
pub const LOCKED: &[&str] = &[
    "--context",
    "--kubeconfig",
    "--cluster",
    "--user",
    "--token",
    "--server",
    "-s",
    "--username",
    "--password",
    "--client-key",
    "--client-certificate",
    "--certificate-authority",
    "--insecure-skip-tls-verify",
    "--tls-server-name",
    "--as",
    "--as-group",
    "--as-uid",
    "--as-user-extra",
];

/// What the agent sends as the flag's value: must never be echoed or audited.
const VALUE: &str = "agent-value-canary";

#[tokio::test]
#[ignore = "needs kubectl from PyPI; run by ./scripts/test.sh"]
async fn every_locked_flag_is_refused_without_a_process_or_a_request() {
    let lab = lab(GET_PODS);
    let audit_before = audit_lines(&lab.root);
    let client = mcp_client::start(&lab.root, &[("PATH", lab.path_env())]).await;
    let mut results = Vec::new();
    for flag in LOCKED {
        let mut spellings = vec![
            vec![flag.to_string(), VALUE.to_string()],
            vec![format!("{flag}={VALUE}")],
        ];
        if let Some(name) = flag.strip_prefix("--").filter(|name| name.contains('-')) {
            // kubectl reads `--client_key` as `--client-key`.
            spellings.push(vec![format!("--{}={VALUE}", name.replace('-', "_"))]);
        }
        for spelling in spellings {
            for alias in ["lab_a", "lab_b"] {
                // `get pods` is accepted and the alias is leased: only the lock stops it.
                let mut args: Vec<String> =
                    ["get", "pods", "-n", "default"].map(String::from).to_vec();
                args.extend(spelling.iter().cloned());
                let (result, is_error) = client
                    .call("kubectl", json!({"target": alias, "args": args}))
                    .await;
                assert!(is_error, "{args:?}: {result}");
                let error = result["error"].as_str().unwrap();
                assert!(
                    error.contains(&format!("`{flag}` is locked")),
                    "{args:?}: {error}"
                );
                assert!(result.get("execution").is_none() && result.get("decision").is_none());
                results.push(result);
            }
        }
    }
    client.close().await;
    assert!(
        lab.kubectl.launches().is_empty(),
        "a kubectl process started"
    );
    assert!(lab.a.requests().is_empty() && lab.b.requests().is_empty());
    // No `invoke`, nothing at all: the audit log is byte-for-byte what activation left.
    assert_eq!(audit_lines(&lab.root), audit_before);
    let seen = Value::Array(results).to_string();
    assert!(!seen.contains(VALUE), "{seen}");
    assert!(!audit_lines(&lab.root).join("\n").contains(VALUE));
    assert_no_context(&lab.root, &seen);
}

#[test]
#[ignore = "needs kubectl from PyPI; run by ./scripts/test.sh"]
fn target_add_checks_the_context_in_the_kubeconfig_the_calls_will_use() {
    // The provider's `.env` names the lab kubeconfig; the human's shell has another one whose
    // only context is a decoy. `target add` must check the first: it is what calls read.
    let real = real_kubectl();
    let root = Root::new();
    root.torii()
        .args(["provider", "install"])
        .arg(example("kubectl"))
        .assert()
        .success();
    install_provider(&root, "idp", IDP, "version: \"1\"\n");
    let a = FakeKube::start("a");
    let config = kubeconfig(&root, &[(CTX_A, &a)]);
    root.write(
        "providers/kubectl/.env",
        &format!("KUBECONFIG=\"{}\"\n", config.display()),
    );
    let decoy = root.write(
        "decoy/config",
        "apiVersion: v1\nkind: Config\nclusters:\n- name: d\n  cluster: {server: \"http://127.0.0.1:1\"}\n\
         users:\n- name: u\n  user: {}\ncontexts:\n- name: decoy-only\n  context: {cluster: d, user: u}\n",
    );
    torii_with(&root, &real, Some(&decoy))
        .args(["target", "add", "kubectl", "lab", "--context", CTX_A])
        .args(["--provider", "idp"])
        .assert()
        .success();
    torii_with(&root, &real, Some(&decoy))
        .args([
            "target",
            "add",
            "kubectl",
            "decoy",
            "--context",
            "decoy-only",
        ])
        .args(["--provider", "idp"])
        .assert()
        .code(1)
        .stderr(predicates::str::contains("did not find the context"));
    assert!(!root.path().join("providers/kubectl/targets/decoy").exists());
    // A malformed `.env` is named, and nothing is written.
    root.write("providers/kubectl/.env", "not a valid line\n");
    torii_with(&root, &real, Some(&decoy))
        .args(["target", "add", "kubectl", "other", "--context", CTX_A])
        .args(["--provider", "idp"])
        .assert()
        .code(1)
        .stderr(predicates::str::contains("invalid env file"))
        .stderr(predicates::str::contains("nothing was written"));
    assert!(!root.path().join("providers/kubectl/targets/other").exists());
    assert!(a.requests().is_empty(), "listing contexts needs no server");
}

/// The book's EKS setup: the kubectl targets authenticate through the official `aws` package
/// (temporary credentials collected by the scripted human, validated by STS on moto) and
/// `--expect` an account. The real `aws sts get-caller-identity` probe lets `lab_a` (moto's
/// account) through and stops `lab_b` (another account) before kubectl runs; one session serves
/// both because they share the scope, and the cached identity of one never vouches for the other.
#[tokio::test]
#[ignore = "needs kubectl from PyPI, awscli and moto from PyPI; run by ./scripts/test.sh"]
async fn the_aws_identity_probe_admits_the_expected_account_and_stops_another() {
    use crate::aws_moto::{self, Moto};
    let lab = lab_with(
        GET_PODS,
        "aws",
        [
            &["--scope", "team", "--expect", "123456789012"],
            &["--scope", "team", "--expect", "111122223333"],
        ],
    );
    let (aws, moto_server) = aws_moto::venv_tools();
    let root = &lab.root;
    let moto = Moto::start(
        &aws,
        &moto_server,
        &root.outside().join("moto"),
        aws_moto::SETUP_REQUESTS,
    );
    let keys = moto.role_session();
    root.write(
        "providers/aws/.env",
        &format!(
            "AWS_ENDPOINT_URL=\"{}\"\nAWS_DEFAULT_REGION=\"{}\"\nAWS_PAGER=\"\"\n\
             AWS_CONFIG_FILE=\"{none}\"\nAWS_SHARED_CREDENTIALS_FILE=\"{none}\"\n",
            moto.url,
            aws_moto::REGION,
            none = root.outside().join("no-aws-files").display()
        ),
    );
    let aws_cli = FakeCli::new(root, "aws", &format!("exec '{}' \"$@\"", aws.display()));
    let script = aws_moto::responder(
        root,
        &[crate::common::auth_candidate(json!({
            "AWS_ACCESS_KEY_ID": keys.id,
            "AWS_SECRET_ACCESS_KEY": keys.secret,
            "AWS_SESSION_TOKEN": keys.token,
        }))],
    );
    let client = mcp_client::start(
        root,
        &[
            ("PATH", lab.path_env()),
            ("TORII_TEST_RESPONDER", script.clone().into()),
        ],
    )
    .await;
    let args = ["get", "pods", "-n", "default", "-o", "name"];
    let (admitted, is_error) = client
        .call("kubectl", json!({"target": "lab_a", "args": args}))
        .await;
    assert!(!is_error, "{admitted}");
    assert_eq!(admitted["execution"]["stdout"], "pod/pod-from-a\n");
    let (stopped, is_error) = client
        .call("kubectl", json!({"target": "lab_b", "args": args}))
        .await;
    client.close().await;
    assert!(is_error, "{stopped}");
    assert!(stopped.get("execution").is_none());
    let text = stopped.to_string();
    assert!(text.contains("a human must authenticate"), "{text}");
    assert!(
        !text.contains("123456789012") && !text.contains("111122223333"),
        "{text}"
    );

    assert_eq!(
        aws_moto::collection_requests(&script),
        1,
        "one session for the scope"
    );
    assert_eq!(lab.kubectl.launches().len(), 1, "kubectl ran for lab_b");
    assert!(lab.b.requests().is_empty(), "{:?}", lab.b.requests());
    // The validator, then one probe per alias, each with the session and moto's endpoint.
    let probes = aws_cli
        .launches()
        .into_iter()
        .filter(|launch| launch.iter().any(|arg| arg == "--output"))
        .count();
    assert_eq!(probes, 2, "{:?}", aws_cli.launches());
    let events = audit_events(root);
    assert!(
        events.contains(&"identity-ok".to_string())
            && events.contains(&"identity-mismatch".to_string())
            && events.contains(&"preflight-failed".to_string()),
        "{events:?}"
    );
    let log = audit_lines(root).join("\n");
    for hidden in ["123456789012", "111122223333", &keys.id, &keys.secret] {
        assert!(!log.contains(hidden), "{hidden} in {log}");
    }
    assert_no_context(root, &format!("{admitted}{stopped}"));
}

/// A kuberc (kubectl ≥ 1.33 preferences) sets default values for any flag of a command,
/// `--server`, `--as` and `--kubeconfig` included, so `--kuberc <file>` would let an agent that
/// can write a file redirect a leased alias to another cluster or identity without ever naming
/// a locked flag. It is refused like them.
#[tokio::test]
#[ignore = "needs kubectl from PyPI; run by ./scripts/test.sh"]
async fn a_kuberc_cannot_redirect_an_alias_to_another_server_or_identity() {
    let lab = lab(GET_PODS);
    let kuberc = lab.root.write_outside(
        "agent-written/kuberc.yaml",
        &format!(
            "apiVersion: kubectl.config.k8s.io/v1beta1\nkind: Preference\ndefaults:\n\
             - command: get\n  options:\n  - name: server\n    default: \"{}\"\n\
             \x20 - name: as\n    default: \"system:admin\"\n",
            lab.b.url()
        ),
    );
    let audit_before = audit_lines(&lab.root);
    let client = mcp_client::start(&lab.root, &[("PATH", lab.path_env())]).await;
    for spelling in [
        vec!["--kuberc".to_string(), kuberc.display().to_string()],
        vec![format!("--kuberc={}", kuberc.display())],
    ] {
        let mut args: Vec<String> = ["get", "pods", "-n", "default", "-o", "name"]
            .map(String::from)
            .to_vec();
        args.extend(spelling);
        let (result, is_error) = client
            .call("kubectl", json!({"target": "lab_a", "args": args}))
            .await;
        assert!(is_error, "{args:?}: {result}");
        assert!(
            result["error"]
                .as_str()
                .unwrap()
                .contains("`--kuberc` is locked"),
            "{result}"
        );
    }
    client.close().await;
    assert!(lab.kubectl.launches().is_empty(), "kubectl started");
    assert!(
        lab.b.requests().is_empty(),
        "lab_a reached server B: {:?}",
        lab.b.requests()
    );
    assert!(lab.a.requests().is_empty());
    assert_eq!(audit_lines(&lab.root), audit_before);
}

/// Issue 11, findings 5 and 9, through the official package and the real kubectl: options that
/// write or read files, print the binding or never return are refused before kubectl starts,
/// so no server sees a request and nothing under the config root changes.
#[tokio::test]
#[ignore = "needs kubectl from PyPI; run by ./scripts/test.sh"]
async fn the_official_package_refuses_file_and_verbosity_options_without_a_process() {
    let lab = lab(GET_PODS);
    let rules = lab.root.path().join("providers/kubectl/rules.yaml");
    let before = crate::pack::snapshot(lab.root.path(), &["torii.log", ".audit-chain"]);
    let client = mcp_client::start(&lab.root, &[("PATH", lab.path_env())]).await;
    let rules = rules.display().to_string();
    let attacks: Vec<Vec<String>> = [
        vec![
            "--profile=cpu".to_string(),
            format!("--profile-output={rules}"),
        ],
        vec!["--profile_output".to_string(), rules.clone()],
        vec![format!("--cache-dir={}", lab.root.path().display())],
        vec!["-v=6".to_string()],
        vec!["--v".to_string(), "9".to_string()],
        vec!["-o".to_string(), format!("go-template-file={rules}")],
        vec![format!("--output=jsonpath-file={rules}")],
        vec!["--watch".to_string()],
        vec!["-Aw".to_string()],
    ]
    .into_iter()
    .map(|extra| {
        let mut args: Vec<String> = ["get", "pods"].map(String::from).to_vec();
        args.extend(extra);
        args
    })
    .collect();
    for args in &attacks {
        let (result, _) = client
            .call("kubectl", json!({"target": "lab_a", "args": args}))
            .await;
        assert_eq!(
            result["decision"]["source"], "forbidden-arg",
            "{args:?}: {result}"
        );
        assert!(result.get("execution").is_none(), "{args:?}: {result}");
    }
    client.close().await;
    assert!(
        lab.kubectl.launches().is_empty(),
        "a kubectl process started"
    );
    assert!(lab.a.requests().is_empty() && lab.b.requests().is_empty());
    assert_eq!(
        crate::pack::snapshot(lab.root.path(), &["torii.log", ".audit-chain"]),
        before
    );
}
