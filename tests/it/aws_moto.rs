//! The official `aws` and `aws-profile` packages with the REAL AWS CLI against `moto_server` on
//! 127.0.0.1 (issues 4 and 5, "Configurar AWS", "Configurar AWS por profile e aliases").
//!
//! moto starts with `INITIAL_NO_AUTH_ACTION_COUNT` = exactly the setup calls the test makes with
//! the real CLI (a principal, its key, an allow-all policy); from then on moto checks every
//! request's key, signature and session token, so an unknown candidate is really refused by
//! `sts get-caller-identity` (`InvalidClientTokenId`). The CLI reaches moto only through the
//! provider's `.env` (directly or through the AWS config file it names), never through agent
//! arguments, and never reads the host's `~/.aws`.
//!
//! Every `aws` launch goes through a wrapper first on `PATH` that records its arguments and its
//! `AWS_*` environment and then runs the real CLI: that is how a test proves what reached the
//! child, and that nothing started at all.

use std::ffi::OsString;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::{FakeCli, Root, audit_events, audit_lines};
use crate::mcp_client;
use crate::pack::example;
use crate::python_sdk::test_python;

/// moto's default account: what every principal created in it belongs to.
const ACCOUNT: &str = "123456789012";
const OTHER_ACCOUNT: &str = "111122223333";
pub const BUCKET: &str = "torii-moto-bucket";
pub const REGION: &str = "us-east-1";
/// The local profile behind the aws_profile aliases; it must never reach the agent or the audit.
const PROFILE: &str = "torii-profile-canary";
const ALLOW_ALL: &str =
    r#"{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"*","Resource":"*"}]}"#;
const TRUST_ANYONE: &str = r#"{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"AWS":"*"},"Action":"sts:AssumeRole"}]}"#;

/// The venv's `aws` and `moto_server`.
pub fn venv_tools() -> (PathBuf, PathBuf) {
    let python = test_python();
    let bin = python.parent().unwrap();
    let (aws, moto) = (bin.join("aws"), bin.join("moto_server"));
    if !(aws.is_file() && moto.is_file()) {
        crate::common::missing_tool(&format!("awscli and moto[server] in {}", bin.display()));
    }
    (aws, moto)
}

/// Access keys of a moto principal.
#[derive(Debug, Clone)]
pub struct Keys {
    pub id: String,
    pub secret: String,
    pub token: Option<String>,
}

/// `moto_server` on a free loopback port; killed when dropped.
pub struct Moto {
    child: Child,
    pub url: String,
    log: PathBuf,
    aws: PathBuf,
    dir: PathBuf,
}

impl Moto {
    /// Starts moto with the first `unauthenticated` requests exempt from authentication.
    pub fn start(aws: &Path, moto_server: &Path, dir: &Path, unauthenticated: usize) -> Self {
        std::fs::create_dir_all(dir).unwrap();
        let log = dir.join("moto.log");
        let out = std::fs::File::create(&log).unwrap();
        let child = Command::new(moto_server)
            .args(["-H", "127.0.0.1", "-p", "0"])
            .env("INITIAL_NO_AUTH_ACTION_COUNT", unauthenticated.to_string())
            .env("PYTHONUNBUFFERED", "1")
            .env_remove("MOTO_ACCOUNT_ID")
            .stdin(Stdio::null())
            .stdout(out.try_clone().unwrap())
            .stderr(out)
            .spawn()
            .expect("start moto_server");
        let mut moto = Self {
            child,
            url: String::new(),
            log,
            aws: aws.to_path_buf(),
            dir: dir.to_path_buf(),
        };
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let text = moto.log_text();
            if let Some(start) = text.find("Running on http://127.0.0.1:") {
                let rest = &text[start + "Running on ".len()..];
                let end = rest.find(|c: char| c.is_whitespace()).unwrap_or(rest.len());
                moto.url = rest[..end].trim_end_matches('/').to_string();
                break;
            }
            if let Ok(Some(status)) = moto.child.try_wait() {
                panic!("moto_server exited ({status}): {text}");
            }
            assert!(
                Instant::now() < deadline,
                "moto_server did not start: {text}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        // The socket is bound before the banner; a plain TCP connect (not a request, which
        // moto would count) confirms it answers.
        let addr = moto.url.trim_start_matches("http://").to_string();
        std::net::TcpStream::connect(&addr).expect("moto answers");
        moto
    }

    fn log_text(&self) -> String {
        let mut text = String::new();
        if let Ok(mut file) = std::fs::File::open(&self.log) {
            let _ = file.read_to_string(&mut text);
        }
        text
    }

    /// Request lines moto served, e.g. `GET / HTTP/1.1" 200`.
    pub fn requests(&self) -> Vec<String> {
        self.log_text()
            .lines()
            .filter_map(|line| line.split_once("] \"").map(|(_, rest)| rest.to_string()))
            .collect()
    }

    /// The real CLI, for the test's own setup: straight at moto, no profile, no `~/.aws`.
    pub fn aws(&self, keys: Option<&Keys>, args: &[&str]) -> Value {
        let mut command = Command::new(&self.aws);
        for (name, _) in std::env::vars_os() {
            if name.to_string_lossy().starts_with("AWS_") {
                command.env_remove(name);
            }
        }
        let none = self.dir.join("no-such-aws-file");
        command
            .args(args)
            .args(["--output", "json"])
            .env("AWS_ENDPOINT_URL", &self.url)
            .env("AWS_DEFAULT_REGION", REGION)
            .env("AWS_PAGER", "")
            .env("AWS_CONFIG_FILE", &none)
            .env("AWS_SHARED_CREDENTIALS_FILE", &none)
            .env("AWS_ACCESS_KEY_ID", keys.map_or("setup", |k| k.id.as_str()))
            .env(
                "AWS_SECRET_ACCESS_KEY",
                keys.map_or("setup", |k| k.secret.as_str()),
            );
        if let Some(token) = keys.and_then(|keys| keys.token.as_deref()) {
            command.env("AWS_SESSION_TOKEN", token);
        }
        let output = command.output().unwrap();
        assert!(
            output.status.success(),
            "aws {args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        let stdout = String::from_utf8_lossy(&output.stdout);
        if stdout.trim().is_empty() {
            Value::Null
        } else {
            serde_json::from_str(&stdout).unwrap()
        }
    }

    /// Temporary credentials of an assumed role with an allow-all policy; three requests.
    pub fn role_session(&self) -> Keys {
        self.aws(
            None,
            &[
                "iam",
                "create-role",
                "--role-name",
                "agent",
                "--assume-role-policy-document",
                TRUST_ANYONE,
            ],
        );
        self.aws(
            None,
            &[
                "iam",
                "put-role-policy",
                "--role-name",
                "agent",
                "--policy-name",
                "all",
                "--policy-document",
                ALLOW_ALL,
            ],
        );
        let assumed = self.aws(
            None,
            &[
                "sts",
                "assume-role",
                "--role-arn",
                &format!("arn:aws:iam::{ACCOUNT}:role/agent"),
                "--role-session-name",
                "torii-test",
            ],
        );
        let credentials = &assumed["Credentials"];
        Keys {
            id: credentials["AccessKeyId"].as_str().unwrap().to_string(),
            secret: credentials["SecretAccessKey"].as_str().unwrap().to_string(),
            token: Some(credentials["SessionToken"].as_str().unwrap().to_string()),
        }
    }

    /// Static keys of an IAM user with an allow-all policy; three requests.
    pub fn user_keys(&self) -> Keys {
        self.aws(None, &["iam", "create-user", "--user-name", "operator"]);
        let created = self.aws(
            None,
            &["iam", "create-access-key", "--user-name", "operator"],
        );
        self.aws(
            None,
            &[
                "iam",
                "put-user-policy",
                "--user-name",
                "operator",
                "--policy-name",
                "all",
                "--policy-document",
                ALLOW_ALL,
            ],
        );
        Keys {
            id: created["AccessKey"]["AccessKeyId"]
                .as_str()
                .unwrap()
                .to_string(),
            secret: created["AccessKey"]["SecretAccessKey"]
                .as_str()
                .unwrap()
                .to_string(),
            token: None,
        }
    }
}

impl Drop for Moto {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Setup principals: every request moto lets through unauthenticated.
pub const SETUP_REQUESTS: usize = 3;

/// A root with moto running (authentication on after the setup), `keys` for `principal`, the
/// bucket created with those keys, and the `aws` wrapper.
struct AwsLab {
    root: Root,
    moto: Moto,
    keys: Keys,
    wrapper: FakeCli,
    env_log: PathBuf,
}

impl AwsLab {
    fn start(principal: fn(&Moto) -> Keys) -> Self {
        let (aws, moto_server) = venv_tools();
        let root = Root::new();
        let moto = Moto::start(
            &aws,
            &moto_server,
            &root.outside().join("moto"),
            SETUP_REQUESTS,
        );
        let keys = principal(&moto);
        // Authenticated from here on: unknown keys are refused.
        moto.aws(Some(&keys), &["s3api", "create-bucket", "--bucket", BUCKET]);
        let env_log = root.outside().join("aws-env.log");
        let wrapper = FakeCli::new(
            &root,
            "aws",
            &format!(
                "env | grep '^AWS_' | sort >> '{log}'; echo ---- >> '{log}'\nexec '{aws}' \"$@\"",
                log = env_log.display(),
                aws = aws.display()
            ),
        );
        Self {
            root,
            moto,
            keys,
            wrapper,
            env_log,
        }
    }

    /// The `AWS_*` environment of each launch, in order.
    fn launch_envs(&self) -> Vec<Vec<(String, String)>> {
        let text = std::fs::read_to_string(&self.env_log).unwrap_or_default();
        text.split("----\n")
            .filter(|block| !block.is_empty())
            .map(|block| {
                block
                    .lines()
                    .filter_map(|line| line.split_once('='))
                    .map(|(name, value)| (name.to_string(), value.to_string()))
                    .collect()
            })
            .collect()
    }

    fn secrets(&self) -> Vec<String> {
        let mut secrets = vec![self.keys.id.clone(), self.keys.secret.clone()];
        secrets.extend(self.keys.token.clone());
        secrets
    }
}

fn env_of<'a>(env: &'a [(String, String)], name: &str) -> Option<&'a str> {
    env.iter()
        .find(|(key, _)| key == name)
        .map(|(_, value)| value.as_str())
}

fn assert_absent(haystack: &str, needles: &[&str], what: &str) {
    for needle in needles {
        assert!(
            !haystack.contains(needle),
            "{what} contains {needle}: {haystack}"
        );
    }
}

// ---------------------------------------------------------------------------------------
// aws: temporary credentials collected by Torii and validated with sts get-caller-identity

const BAD_ID: &str = "ASIABADCANARY0000000";
const BAD_SECRET: &str = "bad-secret-canary";
const BAD_TOKEN: &str = "bad-token-canary";

/// A script for the scripted human (feature `test-hooks`).
pub fn responder(root: &Root, answers: &[Value]) -> PathBuf {
    let path = root.path().join("responses.jsonl");
    let text: String = answers.iter().map(|answer| format!("{answer}\n")).collect();
    std::fs::write(&path, text).unwrap();
    path
}

pub fn collection_requests(script: &Path) -> usize {
    let mut log = script.as_os_str().to_owned();
    log.push(".requests");
    std::fs::read_to_string(PathBuf::from(log))
        .map(|text| text.lines().count())
        .unwrap_or(0)
}

#[tokio::test]
#[ignore = "needs awscli and moto from PyPI; run by ./scripts/test.sh"]
async fn aws_refuses_an_unknown_candidate_then_validates_a_real_one_and_lists_the_bucket() {
    let lab = AwsLab::start(Moto::role_session);
    let root = &lab.root;
    root.torii()
        .args(["provider", "install"])
        .arg(example("aws"))
        .assert()
        .success();
    root.write(
        "providers/aws/rules.yaml",
        "version: \"1.0\"\ndeny: []\naccept:\n  - \"s3 ls\"\n",
    );
    let aws_dir = root.outside().join("aws-home");
    root.write(
        "providers/aws/.env",
        &format!(
            "AWS_ENDPOINT_URL=\"{}\"\nAWS_DEFAULT_REGION=\"{REGION}\"\nAWS_PAGER=\"\"\n\
             AWS_CONFIG_FILE=\"{}\"\nAWS_SHARED_CREDENTIALS_FILE=\"{}\"\n",
            lab.moto.url,
            aws_dir.join("config").display(),
            aws_dir.join("credentials").display()
        ),
    );
    let good = crate::common::auth_candidate(json!({
        "AWS_ACCESS_KEY_ID": lab.keys.id,
        "AWS_SECRET_ACCESS_KEY": lab.keys.secret,
        "AWS_SESSION_TOKEN": lab.keys.token,
    }));
    let bad = crate::common::auth_candidate(json!({
        "AWS_ACCESS_KEY_ID": BAD_ID,
        "AWS_SECRET_ACCESS_KEY": BAD_SECRET,
        "AWS_SESSION_TOKEN": BAD_TOKEN,
    }));
    // First call: the unknown candidate is refused by STS, then the human cancels.
    // Second call: a new window, the real temporary credentials.
    let script = responder(root, &[bad, crate::common::auth_cancel(), good]);
    let bucket = root.path().join("providers/aws/identities/aws");
    let client = mcp_client::start(
        root,
        &[
            ("PATH", lab.wrapper.path_env()),
            ("TORII_TEST_RESPONDER", script.clone().into()),
        ],
    )
    .await;

    let (refused, is_error) = client.call("aws", json!({"args": ["s3", "ls"]})).await;
    assert!(is_error, "{refused}");
    assert!(refused.get("execution").is_none());
    assert!(!bucket.join("auth/credentials.env").exists());
    assert!(!bucket.join(".session-cache").exists());
    assert_eq!(
        lab.wrapper.launches(),
        vec![vec!["sts", "get-caller-identity"]],
        "only the validator ran, for the refused candidate"
    );
    assert!(
        lab.moto
            .requests()
            .iter()
            .any(|line| line.starts_with("POST / HTTP/1.1\" 403")),
        "moto refused the unknown key: {:?}",
        lab.moto.requests()
    );
    assert_eq!(
        audit_events(root),
        [
            "invoke",
            "allowed-by-rules",
            "session-invalid",
            "session-candidate-invalid"
        ]
    );

    let (listed, is_error) = client.call("aws", json!({"args": ["s3", "ls"]})).await;
    assert!(!is_error, "{listed}");
    assert_eq!(listed["decision"]["source"], "rules");
    assert_eq!(listed["execution"]["exit_code"], 0, "{listed}");
    let stdout = listed["execution"]["stdout"].as_str().unwrap();
    assert!(stdout.contains(BUCKET), "{stdout}");
    client.close().await;

    assert_eq!(collection_requests(&script), 2, "two windows, one per call");
    assert_eq!(
        lab.wrapper.launches(),
        vec![
            vec!["sts", "get-caller-identity"],
            vec!["sts", "get-caller-identity"],
            vec!["s3", "ls"]
        ]
    );
    // Validated before it was persisted; owner-only.
    let stored = std::fs::read_to_string(bucket.join("auth/credentials.env")).unwrap();
    assert!(stored.contains(&lab.keys.id) && !stored.contains(BAD_ID));
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(bucket.join("auth/credentials.env"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600);
    // The command got the validated session and moto's endpoint from the provider's .env.
    let envs = lab.launch_envs();
    let command_env = envs.last().unwrap();
    assert_eq!(
        env_of(command_env, "AWS_ACCESS_KEY_ID"),
        Some(lab.keys.id.as_str())
    );
    assert_eq!(
        env_of(command_env, "AWS_ENDPOINT_URL"),
        Some(lab.moto.url.as_str())
    );
    assert!(
        audit_events(root).ends_with(&["session-refreshed".to_string(), "ran".to_string()]),
        "{:?}",
        audit_events(root)
    );
    let secrets = lab.secrets();
    let mut canaries: Vec<&str> = secrets.iter().map(String::as_str).collect();
    canaries.extend([BAD_ID, BAD_SECRET, BAD_TOKEN]);
    assert_absent(&audit_lines(root).join("\n"), &canaries, "the audit log");
    assert_absent(&format!("{refused}{listed}"), &canaries, "the MCP results");
}

// ---------------------------------------------------------------------------------------
// aws_profile: a local profile bound to an alias and an expected account

/// The aws-profile package, a profile whose endpoint (moto) and keys live in test files named
/// by the provider's `.env`, alias `prod` expecting moto's account and `other` expecting
/// another, both leased.
fn profile_lab() -> AwsLab {
    let lab = AwsLab::start(Moto::user_keys);
    let root = &lab.root;
    root.torii()
        .args(["provider", "install"])
        .arg(example("aws-profile"))
        .assert()
        .success();
    root.write(
        "providers/aws-profile/rules.yaml",
        "version: \"1.0\"\ndeny: []\naccept:\n  - \"s3 ls\"\n",
    );
    let config = root.write_outside(
        "aws-home/config",
        &format!("[profile {PROFILE}]\nendpoint_url = {}\n", lab.moto.url),
    );
    let credentials = root.write_outside(
        "aws-home/credentials",
        &format!(
            "[{PROFILE}]\naws_access_key_id = {}\naws_secret_access_key = {}\n",
            lab.keys.id, lab.keys.secret
        ),
    );
    root.write(
        "providers/aws-profile/.env",
        &format!(
            "AWS_PAGER=\"\"\nAWS_CONFIG_FILE=\"{}\"\nAWS_SHARED_CREDENTIALS_FILE=\"{}\"\n",
            config.display(),
            credentials.display()
        ),
    );
    for (alias, account) in [("prod", ACCOUNT), ("other", OTHER_ACCOUNT)] {
        root.torii()
            .args(["target", "add", "aws_profile", alias, "--profile", PROFILE])
            .args(["--account-id", account, "--region", REGION])
            .assert()
            .success();
    }
    for (alias, extra) in [("prod", None), ("other", Some("--add"))] {
        root.torii_at_terminal()
            .args(["target", "activate", "aws_profile", alias, "--for", "5"])
            .args(extra)
            .assert()
            .success();
    }
    lab
}

/// Inherited AWS settings of the server that would override the profile if they reached it.
fn bogus_server_env(lab: &AwsLab) -> Vec<(&'static str, OsString)> {
    vec![
        ("PATH", lab.wrapper.path_env()),
        ("AWS_ACCESS_KEY_ID", "AKIASERVERCANARY0000".into()),
        ("AWS_SECRET_ACCESS_KEY", "server-secret-canary".into()),
        ("AWS_SESSION_TOKEN", "server-token-canary".into()),
        // A closed port: if it reached the CLI it would take precedence over the profile's
        // endpoint_url and every call would fail to connect.
        ("AWS_ENDPOINT_URL", "http://127.0.0.1:9".into()),
        ("AWS_PROFILE", "server-profile-canary".into()),
        ("AWS_DEFAULT_REGION", "eu-canary-1".into()),
        ("AWS_REGION", "eu-canary-1".into()),
    ]
}

const SERVER_CANARIES: &[&str] = &[
    "AKIASERVERCANARY0000",
    "server-secret-canary",
    "server-token-canary",
    "server-profile-canary",
    "eu-canary-1",
    "127.0.0.1:9",
];

#[tokio::test]
#[ignore = "needs awscli and moto from PyPI; run by ./scripts/test.sh"]
async fn aws_profile_alias_passes_the_account_check_on_every_call_without_inherited_overrides() {
    let lab = profile_lab();
    let root = &lab.root;
    let client = mcp_client::start(root, &bogus_server_env(&lab)).await;
    let tools = serde_json::to_string(&client.tools().await).unwrap();
    let mut seen = tools.clone();
    for _ in 0..2 {
        let (result, is_error) = client
            .call(
                "aws_profile",
                json!({"target": "prod", "args": ["s3", "ls"]}),
            )
            .await;
        assert!(!is_error, "{result}");
        assert_eq!(result["target"], "prod");
        assert_eq!(result["execution"]["exit_code"], 0, "{result}");
        assert!(
            result["execution"]["stdout"]
                .as_str()
                .unwrap()
                .contains(BUCKET),
            "{result}"
        );
        seen.push_str(&result.to_string());
    }
    client.close().await;

    // The account is checked before every call, with exactly the alias's binding.
    let probe = [
        "sts",
        "get-caller-identity",
        "--output",
        "json",
        "--profile",
        PROFILE,
        "--region",
        REGION,
    ];
    let command = ["--profile", PROFILE, "--region", REGION, "s3", "ls"];
    assert_eq!(
        lab.wrapper.launches(),
        vec![
            probe.to_vec(),
            command.to_vec(),
            probe.to_vec(),
            command.to_vec()
        ]
    );
    // None of the server's AWS settings reached a child; the profile did, and the files the
    // provider's .env names.
    let envs = lab.launch_envs();
    assert_eq!(envs.len(), 4);
    for env in &envs {
        for name in [
            "AWS_ACCESS_KEY_ID",
            "AWS_SECRET_ACCESS_KEY",
            "AWS_SESSION_TOKEN",
            "AWS_ENDPOINT_URL",
            "AWS_DEFAULT_REGION",
            "AWS_REGION",
        ] {
            assert_eq!(env_of(env, name), None, "{name} reached the child: {env:?}");
        }
        assert_eq!(env_of(env, "AWS_PROFILE"), Some(PROFILE));
        assert!(
            env_of(env, "AWS_CONFIG_FILE").is_some_and(|path| path.ends_with("aws-home/config"))
        );
    }
    let events = audit_events(root);
    assert_eq!(
        events
            .iter()
            .filter(|event| *event == "identity-ok")
            .count(),
        2,
        "{events:?}"
    );
    assert_eq!(events.iter().filter(|event| *event == "ran").count(), 2);
    // Schema, results and audit show the alias only.
    let mut hidden = vec![PROFILE, ACCOUNT, OTHER_ACCOUNT, &lab.moto.url];
    hidden.extend(SERVER_CANARIES);
    let secrets = lab.secrets();
    hidden.extend(secrets.iter().map(String::as_str));
    assert_absent(&seen, &hidden, "the MCP schema or results");
    assert_absent(&audit_lines(root).join("\n"), &hidden, "the audit log");
    assert!(
        tools.contains("\"prod\"") && tools.contains("\"other\""),
        "{tools}"
    );
}

#[tokio::test]
#[ignore = "needs awscli and moto from PyPI; run by ./scripts/test.sh"]
async fn aws_profile_alias_expecting_another_account_stops_before_the_command() {
    let lab = profile_lab();
    let root = &lab.root;
    let client = mcp_client::start(root, &bogus_server_env(&lab)).await;
    let (result, is_error) = client
        .call(
            "aws_profile",
            json!({"target": "other", "args": ["s3", "ls"]}),
        )
        .await;
    client.close().await;
    assert!(is_error, "{result}");
    assert!(result.get("execution").is_none());
    let text = result.to_string();
    assert!(text.contains("a human must authenticate"), "{text}");
    assert_absent(
        &text,
        &[PROFILE, ACCOUNT, OTHER_ACCOUNT],
        "the error shown to the agent",
    );
    // Only the probe ran (and reached moto); `s3 ls` (GET /) never did.
    assert_eq!(lab.wrapper.launches().len(), 1);
    assert_eq!(
        lab.wrapper.launches()[0][..2],
        ["sts", "get-caller-identity"]
    );
    assert!(
        !lab.moto
            .requests()
            .iter()
            .any(|line| line.starts_with("GET / ")),
        "{:?}",
        lab.moto.requests()
    );
    let events = audit_events(root);
    assert!(
        events.contains(&"identity-mismatch".to_string()),
        "{events:?}"
    );
    assert!(!events.contains(&"ran".to_string()), "{events:?}");
    assert_absent(
        &audit_lines(root).join("\n"),
        &[PROFILE, ACCOUNT, OTHER_ACCOUNT],
        "the audit log",
    );
}

#[tokio::test]
#[ignore = "needs awscli and moto from PyPI; run by ./scripts/test.sh"]
async fn aws_profile_refuses_binding_flags_without_a_process_or_an_invoke() {
    let lab = profile_lab();
    let root = &lab.root;
    let audit_before = audit_lines(root);
    let client = mcp_client::start(root, &bogus_server_env(&lab)).await;
    let value = "agent-value-canary";
    let mut seen = String::new();
    // argparse also accepts unambiguous prefixes (`--prof`, `--endpoint`).
    for (sent, locked) in [
        ("--profile", "--profile"),
        ("--region", "--region"),
        ("--endpoint-url", "--endpoint-url"),
        ("--no-sign-request", "--no-sign-request"),
        ("--ca-bundle", "--ca-bundle"),
        ("--no-verify-ssl", "--no-verify-ssl"),
        ("--prof", "--profile"),
        ("--endpoint", "--endpoint-url"),
    ] {
        for spelling in [
            vec![sent.to_string(), value.to_string()],
            vec![format!("{sent}={value}")],
        ] {
            let mut args = vec!["s3".to_string(), "ls".to_string()];
            args.extend(spelling);
            let (result, is_error) = client
                .call("aws_profile", json!({"target": "prod", "args": args}))
                .await;
            assert!(is_error, "{args:?}: {result}");
            let error = result["error"].as_str().unwrap();
            assert!(
                error.contains(&format!("`{locked}` is locked")),
                "{args:?}: {error}"
            );
            assert!(result.get("decision").is_none() && result.get("execution").is_none());
            seen.push_str(&result.to_string());
        }
    }
    client.close().await;
    assert!(lab.wrapper.launches().is_empty(), "an aws process started");
    assert_eq!(audit_lines(root), audit_before, "the audit log changed");
    assert_absent(&seen, &[value, PROFILE, ACCOUNT], "the MCP results");
}
