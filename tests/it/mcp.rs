//! The MCP vertical slice against the real binary: discovery, schemas, envelope errors,
//! decisions, execution, truncation and torii_policy (book: "API MCP", "Fluxo de uma chamada").

use serde_json::{Value, json};

use crate::common::{FakeCli, Root, audit_events, audit_lines, install_provider, simple_provider};
use crate::mcp_client::{self, error_code};

const RULES: &str = "version: \"1\"\ndeny:\n  - \"s3 rm\"\n  - \"secrets\"\naccept:\n  - \"s3 ls\"\n  - \"s3 rm\"\n  - \"fail now\"\n  - \"noise\"\n";

/// A root with a simple provider `cli` backed by a fake CLI that prints to both streams.
fn simple_root(body: &str) -> (Root, FakeCli) {
    let root = Root::new();
    install_provider(&root, "cli", &simple_provider("cli", ""), RULES);
    let fake = FakeCli::new(&root, "cli", body);
    (root, fake)
}

const KUBE_PROVIDER: &str = "version: \"1\"\nname: kube\ntool: kube\ndescription: fake kubectl\ncommand: kube\ntargeting:\n  mode: kubectl_context\n  locked_options: [\"--custom-endpoint\"]\n";
const IDP_PROVIDER: &str =
    "version: \"1\"\nname: idp\ntool: idp\ndescription: identity provider\ncommand: idp\n";

fn target_yaml(alias: &str, context: &str) -> String {
    format!("version: \"1\"\nname: {alias}\ncontext: {context}\nidentity:\n  provider: idp\n")
}

/// A kubectl_context provider with aliases `lab` and `prod` (prod has its own rules).
fn target_root() -> (Root, FakeCli) {
    let root = Root::new();
    install_provider(
        &root,
        "kube",
        KUBE_PROVIDER,
        "version: \"1\"\ndeny: [\"exec\"]\naccept: [\"get pods\"]\n",
    );
    install_provider(&root, "idp", IDP_PROVIDER, "version: \"1\"\n");
    root.write(
        "providers/kube/targets/lab/target.yaml",
        &target_yaml("lab", "secret-context-a"),
    );
    root.write(
        "providers/kube/targets/prod/target.yaml",
        &target_yaml("prod", "secret-context-b"),
    );
    root.write(
        "providers/kube/targets/prod/rules.yaml",
        "version: \"1\"\ndeny: [\"get pods\"]\naccept: [\"get nodes\"]\n",
    );
    let fake = FakeCli::new(&root, "kube", "echo ran");
    (root, fake)
}

#[tokio::test]
async fn tools_list_has_one_tool_per_provider_and_no_control_tool() {
    let (root, fake) = target_root();
    let client = mcp_client::start(&root, &[("PATH", fake.path_env())]).await;
    let tools = client.tools().await;
    let mut names: Vec<&str> = tools.iter().map(|tool| tool.name.as_ref()).collect();
    names.sort();
    assert_eq!(names, ["idp", "kube", "torii_policy"]);
    for forbidden in [
        "reauth", "kill", "install", "edit", "activate", "clear", "shutdown",
    ] {
        assert!(
            !names.iter().any(|name| name.contains(forbidden)),
            "{forbidden}"
        );
    }
    let policy = tools
        .iter()
        .find(|tool| tool.name == "torii_policy")
        .unwrap();
    assert_eq!(
        policy.annotations.as_ref().unwrap().read_only_hint,
        Some(true)
    );
    let instructions = client.instructions().unwrap();
    assert!(instructions.contains("torii_policy"));
    assert!(instructions.contains("separate items"));
    assert!(instructions.contains("context, profile, account or region"));
    client.close().await;
    // Discovery alone runs nothing and audits nothing.
    assert!(fake.launches().is_empty());
    assert!(audit_lines(&root).is_empty());
}

#[tokio::test]
async fn input_schemas_are_exactly_the_books() {
    let (root, fake) = target_root();
    let client = mcp_client::start(&root, &[("PATH", fake.path_env())]).await;
    let tools = client.tools().await;
    let schema = |name: &str| {
        Value::Object(
            tools
                .iter()
                .find(|tool| tool.name == name)
                .unwrap()
                .input_schema
                .as_ref()
                .clone(),
        )
    };
    let args = json!({"type": "array", "items": {"type": "string"}, "minItems": 1,
                      "description": "Arguments after the executable, one item per argument."});
    assert_eq!(
        schema("idp"),
        json!({"type": "object", "required": ["args"], "properties": {"args": args},
               "additionalProperties": false})
    );
    assert_eq!(
        schema("kube"),
        json!({"type": "object", "required": ["target", "args"],
               "properties": {"target": {"type": "string", "enum": ["lab", "prod"],
                                         "description": "A target alias configured by the human."},
                              "args": args},
               "additionalProperties": false})
    );
    // No context, profile or account anywhere in what the client sees.
    let listed = serde_json::to_string(&tools).unwrap();
    assert!(!listed.contains("secret-context"), "{listed}");
    client.close().await;
}

#[tokio::test]
async fn target_aware_tool_without_aliases_has_an_unsatisfiable_target() {
    let root = Root::new();
    install_provider(&root, "kube", KUBE_PROVIDER, "version: \"1\"\n");
    let client = mcp_client::start(&root, &[]).await;
    let tools = client.tools().await;
    let kube = tools.iter().find(|tool| tool.name == "kube").unwrap();
    assert_eq!(kube.input_schema["properties"]["target"]["enum"], json!([]));
    let error = client
        .try_call("kube", json!({"target": "lab", "args": ["get"]}))
        .await
        .unwrap_err();
    assert_eq!(error_code(&error), Some(-32602));
    client.close().await;
}

#[tokio::test]
async fn every_envelope_error_is_invalid_params_and_audits_nothing() {
    let (root, fake) = target_root();
    let client = mcp_client::start(&root, &[("PATH", fake.path_env())]).await;
    let cases = [
        ("idp", json!({})),
        ("idp", json!({"args": []})),
        ("idp", json!({"args": "get pods"})),
        ("idp", json!({"args": ["get", 7]})),
        ("idp", json!({"args": ["get"], "extra": true})),
        ("idp", json!({"args": ["get"], "target": "lab"})),
        ("kube", json!({"args": ["get", "pods"]})),
        ("kube", json!({"target": "nope", "args": ["get", "pods"]})),
        ("kube", json!({"target": ["lab"], "args": ["get", "pods"]})),
        ("unknown-tool", json!({"args": ["x"]})),
        ("torii_policy", json!({})),
        ("torii_policy", json!({"provider": "nope"})),
        (
            "torii_policy",
            json!({"provider": "kube", "target": "nope"}),
        ),
        ("torii_policy", json!({"provider": "idp", "target": "lab"})),
    ];
    for (tool, arguments) in cases {
        let error = client.try_call(tool, arguments.clone()).await.unwrap_err();
        assert_eq!(
            error_code(&error),
            Some(-32602),
            "{tool} {arguments}: {error}"
        );
    }
    let error = client
        .try_call("kube", json!({"target": "nope", "args": ["x"]}))
        .await
        .unwrap_err();
    assert!(
        error.to_string().contains("configured targets: lab, prod"),
        "{error}"
    );
    client.close().await;
    assert!(audit_lines(&root).is_empty(), "{:?}", audit_lines(&root));
    assert!(fake.launches().is_empty());
}

#[tokio::test]
async fn allowed_call_returns_exit_code_and_both_streams() {
    let (root, fake) = simple_root("echo out-line; echo err-line >&2; exit 0");
    let client = mcp_client::start(&root, &[("PATH", fake.path_env())]).await;
    let (result, is_error) = client
        .call("cli", json!({"args": ["s3", "ls", "--bucket", "b"]}))
        .await;
    assert!(!is_error);
    assert_eq!(
        result,
        json!({
            "provider": "cli",
            "decision": {"result": "allow", "source": "rules", "rule": "s3 ls"},
            "execution": {"exit_code": 0, "stdout": "out-line\n", "stderr": "err-line\n", "truncated": false}
        })
    );
    client.close().await;
    assert_eq!(fake.launches(), vec![vec!["s3", "ls", "--bucket", "b"]]);
    assert_eq!(
        audit_events(&root),
        ["invoke", "allowed-by-rules", "session-unchecked", "ran"]
    );
    assert!(
        audit_lines(&root)[3].ends_with("| ran | s3 ls | exit=0"),
        "{:?}",
        audit_lines(&root)
    );
}

/// The server keeps the audit log open between lines; a child must inherit no descriptor of it
/// (or of anything else under the root), or an allowed call could append forged lines. The
/// second call runs after the log has been open for a whole call.
#[cfg(target_os = "linux")]
#[tokio::test]
async fn a_child_inherits_no_descriptor_of_the_audit_log() {
    let (root, fake) = simple_root("for fd in /proc/$$/fd/*; do readlink \"$fd\"; done");
    let client = mcp_client::start(&root, &[("PATH", fake.path_env())]).await;
    for _ in 0..2 {
        let (result, is_error) = client.call("cli", json!({"args": ["s3", "ls"]})).await;
        assert!(!is_error, "{result}");
        let open = result["execution"]["stdout"].as_str().unwrap().to_string();
        // The listing is real: the child sees its own output pipes.
        assert!(open.contains("pipe:"), "{result}");
        let root_dir = root.path().canonicalize().unwrap();
        let leaked: Vec<&str> = open
            .lines()
            .filter(|target| {
                target.contains("torii.log")
                    || std::path::Path::new(target).starts_with(&root_dir)
                    || std::path::Path::new(target).starts_with(root.path())
            })
            .collect();
        assert!(leaked.is_empty(), "the child holds {leaked:?}");
    }
    client.close().await;
    assert_eq!(audit_events(&root).len(), 8, "{:?}", audit_lines(&root));
}

#[tokio::test]
async fn non_zero_exit_is_a_normal_result() {
    let (root, fake) = simple_root("echo boom >&2; exit 3");
    let client = mcp_client::start(&root, &[("PATH", fake.path_env())]).await;
    let (result, is_error) = client.call("cli", json!({"args": ["fail", "now"]})).await;
    assert!(!is_error);
    assert_eq!(result["execution"]["exit_code"], 3);
    assert_eq!(result["execution"]["stderr"], "boom\n");
    client.close().await;
    assert!(audit_lines(&root).last().unwrap().ends_with("exit=3"));
}

#[tokio::test]
async fn explicit_deny_wins_over_accept_and_starts_no_process() {
    let (root, fake) = simple_root("echo ran");
    let client = mcp_client::start(&root, &[("PATH", fake.path_env())]).await;
    let (result, is_error) = client
        .call("cli", json!({"args": ["s3", "rm", "s3://b/k"]}))
        .await;
    assert!(!is_error);
    assert_eq!(
        result["decision"],
        json!({"result": "deny", "source": "explicit-deny", "rule": "s3 rm"})
    );
    assert!(result.get("execution").is_none());
    client.close().await;
    assert!(
        fake.launches().is_empty(),
        "a denied call started the provider"
    );
    assert_eq!(audit_events(&root), ["invoke", "denied-explicit"]);
}

#[tokio::test]
async fn forbidden_arg_is_denied_anywhere_in_argv() {
    let root = Root::new();
    let policy = "policy:\n  forbidden_args: [\"-f\", \"--filename\"]\n";
    install_provider(
        &root,
        "cli",
        &simple_provider("cli", policy),
        "version: \"1\"\naccept: [\"sql\"]\n",
    );
    let fake = FakeCli::new(&root, "cli", "echo ran");
    let client = mcp_client::start(&root, &[("PATH", fake.path_env())]).await;
    for args in [
        json!(["sql", "-q", "select 1", "-f", "x.sql"]),
        json!(["sql", "--filename=x.sql"]),
        json!(["-f", "x", "sql"]),
        json!(["sql", "-fx.sql"]),
    ] {
        let (result, _) = client.call("cli", json!({ "args": args })).await;
        assert_eq!(result["decision"]["source"], "forbidden-arg", "{args}");
        assert_eq!(result["decision"]["result"], "deny");
        assert!(result.get("execution").is_none());
        // Issue 35: the reason fits an option that reads no file too (git's `-c`, `--help`).
        let message = result["message"].as_str().unwrap();
        assert!(
            message.contains("is forbidden for this tool, in any position")
                && message.contains("Do without it"),
            "{message}"
        );
    }
    client.close().await;
    assert!(fake.launches().is_empty());
}

#[tokio::test]
async fn unresolved_call_is_denied_headless_without_a_process() {
    let (root, fake) = simple_root("echo ran");
    let client = mcp_client::start(&root, &[("PATH", fake.path_env())]).await;
    let (result, is_error) = client
        .call("cli", json!({"args": ["ec2", "describe-instances"]}))
        .await;
    assert!(!is_error);
    assert_eq!(
        result["decision"],
        json!({"result": "deny", "source": "human-deny"})
    );
    assert!(result["message"].as_str().unwrap().contains("headless"));
    client.close().await;
    assert!(fake.launches().is_empty());
    assert_eq!(audit_events(&root), ["invoke", "denied-interface"]);
}

#[tokio::test]
async fn gui_enabled_without_a_window_also_denies() {
    let (root, fake) = simple_root("echo ran");
    let client = mcp_client::start(
        &root,
        &[("PATH", fake.path_env()), ("TORII_NO_GUI", "0".into())],
    )
    .await;
    let (result, _) = client
        .call("cli", json!({"args": ["ec2", "describe-instances"]}))
        .await;
    assert_eq!(result["decision"]["source"], "human-deny");
    client.close().await;
    assert!(fake.launches().is_empty());
}

/// Issue 17, mismatch 10: with windows on but no display, the agent was told "the human denied
/// this call", nothing reached stderr, and the audit line looked like a human's denial.
#[test]
fn a_window_that_cannot_open_is_named_to_the_agent_on_stderr_once_and_in_the_audit() {
    let (root, fake) = simple_root("echo ran");
    let call = |id: u32| {
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "cli", "arguments": {"args": ["ec2", "describe-instances"]}}})
    };
    let initialize = crate::common::initialize_request();
    let output = root
        .torii()
        .env("PATH", fake.path_env())
        .env("TORII_NO_GUI", "0")
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .write_stdin(format!("{initialize}\n{}\n{}\n", call(2), call(3)))
        .output()
        .unwrap();
    let answers: Vec<Value> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(answers.len(), 3, "{answers:?}");
    for answer in &answers[1..] {
        let result = &answer["result"]["structuredContent"];
        assert_eq!(result["decision"]["source"], "human-deny", "{answer}");
        let message = result["message"].as_str().unwrap_or_default();
        assert!(
            message.contains("the approval window could not be opened")
                && message.contains("no human was asked")
                && message.contains("TORII_NO_GUI=1")
                && !message.contains("the human denied"),
            "{answer}"
        );
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        stderr
            .matches("an approval window could not be opened")
            .count(),
        1,
        "{stderr}"
    );
    assert!(stderr.contains("set TORII_NO_GUI=1"), "{stderr}");
    let denials: Vec<String> = audit_lines(&root)
        .into_iter()
        .filter(|line| line.contains("| denied-interface |"))
        .collect();
    assert_eq!(denials.len(), 2, "{denials:?}");
    assert!(
        denials.iter().all(|line| line.ends_with("| no-window")),
        "{denials:?}"
    );
    assert!(fake.launches().is_empty());
}

#[tokio::test]
async fn an_active_grant_allows_exactly_its_scope() {
    let (root, fake) = simple_root("echo ran");
    let args: Vec<String> = ["ec2", "describe-instances", "--region", "x"]
        .map(String::from)
        .to_vec();
    let mut grants = jasper::Grants::empty();
    grants.push(jasper::GrantEntry::new(
        crate::common::epoch_now() + 600,
        jasper::GrantMatcher::exact(&args),
    ));
    root.write("providers/cli/grants", &grants.to_yaml());
    let client = mcp_client::start(&root, &[("PATH", fake.path_env())]).await;
    let (result, _) = client.call("cli", json!({ "args": args })).await;
    assert_eq!(result["decision"]["source"], "grant");
    assert_eq!(result["execution"]["exit_code"], 0);
    let (varied, _) = client
        .call(
            "cli",
            json!({"args": ["ec2", "describe-instances", "--region", "y"]}),
        )
        .await;
    assert_eq!(varied["decision"]["source"], "human-deny");
    client.close().await;
    assert_eq!(fake.launches().len(), 1);
    assert_eq!(
        audit_events(&root),
        [
            "invoke",
            "allowed-by-grant",
            "session-unchecked",
            "ran",
            "invoke",
            "denied-interface"
        ]
    );
}

/// The book: an explicit deny wins over a live grant too (a grant is consulted only when no
/// deny matches), and a grant never changes the policy file.
#[tokio::test]
async fn an_explicit_deny_wins_over_a_live_grant_and_grants_never_touch_the_rules() {
    let (root, fake) = simple_root("echo ran");
    let args: Vec<String> = ["s3", "rm", "s3://bucket/key"].map(String::from).to_vec();
    // Control: the same file's grant for a call no rule decides is used.
    let unresolved: Vec<String> = ["ec2", "describe-vpcs"].map(String::from).to_vec();
    let mut grants = jasper::Grants::empty();
    for granted in [&args, &unresolved] {
        grants.push(jasper::GrantEntry::new(
            crate::common::epoch_now() + 600,
            jasper::GrantMatcher::exact(granted),
        ));
    }
    root.write("providers/cli/grants", &grants.to_yaml());
    let rules = std::fs::read(root.path().join("providers/cli/rules.yaml")).unwrap();
    let client = mcp_client::start(&root, &[("PATH", fake.path_env())]).await;
    let (result, _) = client.call("cli", json!({ "args": args })).await;
    let (control, _) = client.call("cli", json!({ "args": unresolved })).await;
    client.close().await;
    assert_eq!(result["decision"]["source"], "explicit-deny", "{result}");
    assert_eq!(result["decision"]["rule"], "s3 rm", "{result}");
    assert_eq!(control["decision"]["source"], "grant", "{control}");
    assert_eq!(fake.launches(), [unresolved]);
    assert_eq!(
        audit_events(&root),
        [
            "invoke",
            "denied-explicit",
            "invoke",
            "allowed-by-grant",
            "session-unchecked",
            "ran"
        ]
    );
    assert_eq!(
        std::fs::read(root.path().join("providers/cli/rules.yaml")).unwrap(),
        rules
    );
}

/// The book (Snowflake, and every provider with `ignore_args`): a flag ignored for the policy
/// is never dropped from the command that runs.
#[tokio::test]
async fn ignored_flags_still_reach_the_command() {
    let root = Root::new();
    install_provider(
        &root,
        "cli",
        &simple_provider(
            "cli",
            "policy:\n  ignore_args:\n    flags: [\"--format\"]\n",
        ),
        "version: \"1\"\naccept: [\"sql -q\"]\n",
    );
    let fake = FakeCli::new(&root, "cli", "echo ran");
    let client = mcp_client::start(&root, &[("PATH", fake.path_env())]).await;
    let args = ["sql", "--format", "json", "-q", "select 1"];
    let (result, _) = client.call("cli", json!({ "args": args })).await;
    client.close().await;
    assert_eq!(result["decision"]["source"], "rules", "{result}");
    assert_eq!(fake.launches(), vec![args.map(String::from).to_vec()]);
}

#[tokio::test]
async fn output_over_the_limit_is_truncated() {
    let (root, fake) = simple_root(
        "head -c 5000 /dev/zero | tr '\\0' 'a'; head -c 5000 /dev/zero | tr '\\0' 'b' >&2",
    );
    root.write("settings.yaml", "max_output_bytes: 1000\n");
    let client = mcp_client::start(&root, &[("PATH", fake.path_env())]).await;
    let (result, _) = client.call("cli", json!({"args": ["s3", "ls"]})).await;
    let execution = &result["execution"];
    assert_eq!(execution["truncated"], true);
    let kept =
        execution["stdout"].as_str().unwrap().len() + execution["stderr"].as_str().unwrap().len();
    assert_eq!(kept, 1000);
    client.close().await;
}

#[tokio::test]
async fn missing_rules_file_fails_closed_with_the_books_message() {
    let (root, fake) = simple_root("echo ran");
    std::fs::remove_file(root.path().join("providers/cli/rules.yaml")).unwrap();
    let client = mcp_client::start(&root, &[("PATH", fake.path_env())]).await;
    let (result, is_error) = client.call("cli", json!({"args": ["s3", "ls"]})).await;
    assert!(is_error);
    // Issue 11, finding 10: named relative to the config root, never by absolute path.
    assert_eq!(
        result["error"], "rules file not found: providers/cli/rules.yaml",
        "{result}"
    );
    let (view, is_error) = client
        .call("torii_policy", json!({"provider": "cli"}))
        .await;
    assert!(is_error);
    assert_eq!(
        view["error"],
        "rules file not found: providers/cli/rules.yaml"
    );
    assert!(
        !result
            .to_string()
            .contains(&root.path().display().to_string())
    );
    assert!(result.get("execution").is_none());
    client.close().await;
    assert!(fake.launches().is_empty());
}

#[tokio::test]
async fn invalid_regex_fails_closed_and_rules_are_reread_every_call() {
    let (root, fake) = simple_root("echo ran");
    let client = mcp_client::start(&root, &[("PATH", fake.path_env())]).await;
    root.write(
        "providers/cli/rules.yaml",
        "version: \"1\"\naccept: [\"s3 ls\", \"/(unclosed/\"]\n",
    );
    let (result, is_error) = client.call("cli", json!({"args": ["s3", "ls"]})).await;
    assert!(is_error, "{result}");
    assert!(result.get("decision").is_none());
    // Fixing the file applies to the next call without a restart.
    root.write(
        "providers/cli/rules.yaml",
        "version: \"1\"\naccept: [\"s3 ls\"]\n",
    );
    let (result, _) = client.call("cli", json!({"args": ["s3", "ls"]})).await;
    assert_eq!(result["decision"]["source"], "rules");
    root.write(
        "providers/cli/rules.yaml",
        "version: \"1\"\ndeny: [\"s3\"]\naccept: [\"s3 ls\"]\n",
    );
    let (result, _) = client.call("cli", json!({"args": ["s3", "ls"]})).await;
    assert_eq!(result["decision"]["source"], "explicit-deny");
    client.close().await;
    assert_eq!(fake.launches().len(), 1);
}

#[tokio::test]
async fn shell_metacharacters_reach_the_provider_as_literal_items() {
    let (root, fake) = simple_root("echo ran");
    let client = mcp_client::start(&root, &[("PATH", fake.path_env())]).await;
    let hostile = [
        "s3",
        "ls",
        "$(touch pwned)",
        "; touch pwned",
        "| cat",
        "`id`",
        "&& x",
        "*",
    ];
    let (result, _) = client.call("cli", json!({ "args": hostile })).await;
    assert_eq!(result["execution"]["exit_code"], 0);
    client.close().await;
    assert_eq!(fake.launches(), vec![hostile.map(String::from).to_vec()]);
    assert!(!root.path().join("pwned").exists() && !std::path::Path::new("pwned").exists());
}

#[tokio::test]
async fn torii_policy_returns_rules_and_target_rules_replace_shared() {
    let (root, fake) = target_root();
    let client = mcp_client::start(&root, &[("PATH", fake.path_env())]).await;
    let (shared, is_error) = client
        .call("torii_policy", json!({"provider": "kube"}))
        .await;
    assert!(!is_error);
    assert_eq!(shared["accept"], json!(["get pods"]));
    assert_eq!(shared["deny"], json!(["exec"]));
    assert_eq!(shared["minimum_accept_tokens"], 1);
    assert_eq!(shared["ignored_accept"], json!([]));
    assert!(
        shared["unmatched"]
            .as_str()
            .unwrap()
            .contains("default deny")
    );
    // prod has its own rules: they replace the shared ones (inactive alias works too).
    let (prod, _) = client
        .call(
            "torii_policy",
            json!({"provider": "kube", "target": "prod"}),
        )
        .await;
    assert_eq!(prod["target"], "prod");
    assert_eq!(prod["accept"], json!(["get nodes"]));
    assert_eq!(prod["deny"], json!(["get pods"]));
    let (lab, _) = client
        .call("torii_policy", json!({"provider": "kube", "target": "lab"}))
        .await;
    assert_eq!(lab["accept"], json!(["get pods"]));
    client.close().await;
    assert!(fake.launches().is_empty());
    assert!(audit_lines(&root).is_empty());
}

#[tokio::test]
async fn torii_policy_reports_accepts_below_the_minimum() {
    let root = Root::new();
    let provider = simple_provider("cli", "policy:\n  minimum_accept_tokens: 2\n");
    install_provider(
        &root,
        "cli",
        &provider,
        "version: \"1\"\naccept: [\"s3\", \"s3 ls\"]\n",
    );
    let client = mcp_client::start(&root, &[]).await;
    let (view, _) = client
        .call("torii_policy", json!({"provider": "cli"}))
        .await;
    assert_eq!(view["minimum_accept_tokens"], 2);
    assert_eq!(view["ignored_accept"], json!(["s3"]));
    client.close().await;
}

#[tokio::test]
async fn accept_below_minimum_is_audited_as_invalid_accept() {
    let root = Root::new();
    let provider = simple_provider("cli", "policy:\n  minimum_accept_tokens: 2\n");
    install_provider(
        &root,
        "cli",
        &provider,
        "version: \"1\"\naccept: [\"s3\"]\n",
    );
    let fake = FakeCli::new(&root, "cli", "echo ran");
    let client = mcp_client::start(&root, &[("PATH", fake.path_env())]).await;
    let (result, _) = client.call("cli", json!({"args": ["s3", "rb"]})).await;
    assert_eq!(result["decision"]["source"], "human-deny");
    client.close().await;
    assert_eq!(
        audit_events(&root),
        ["invoke", "invalid-accept", "denied-interface"]
    );
    assert!(fake.launches().is_empty());
}

#[tokio::test]
async fn locked_options_are_refused_before_policy_without_audit_or_echo() {
    let (root, fake) = target_root();
    let client = mcp_client::start(&root, &[("PATH", fake.path_env())]).await;
    for args in [
        json!(["get", "pods", "--context", "other"]),
        json!(["get", "pods", "--kubeconfig=/tmp/k"]),
        json!(["get", "pods", "--token=super-secret-value"]),
        json!(["get", "pods", "--server=https://invalid.example"]),
        json!(["get", "pods", "-shttps://invalid.example"]),
        json!(["get", "pods", "--as", "admin"]),
        json!(["get", "pods", "--custom-endpoint", "x"]),
    ] {
        let (result, is_error) = client
            .call("kube", json!({"target": "lab", "args": args}))
            .await;
        assert!(is_error, "{args}");
        assert!(
            result["error"].as_str().unwrap().contains("is locked"),
            "{result}"
        );
        assert!(!result.to_string().contains("super-secret-value"));
        assert!(result.get("decision").is_none());
    }
    client.close().await;
    assert!(audit_lines(&root).is_empty(), "{:?}", audit_lines(&root));
    assert!(fake.launches().is_empty());
}

#[tokio::test]
async fn target_alias_without_lease_is_denied_and_explicit_deny_comes_first() {
    let (root, fake) = target_root();
    let client = mcp_client::start(&root, &[("PATH", fake.path_env())]).await;
    let (denied, _) = client
        .call(
            "kube",
            json!({"target": "lab", "args": ["exec", "-it", "pod"]}),
        )
        .await;
    assert_eq!(denied["decision"]["source"], "explicit-deny");
    assert_eq!(denied["target"], "lab");
    let (inactive, _) = client
        .call("kube", json!({"target": "lab", "args": ["get", "pods"]}))
        .await;
    assert_eq!(
        inactive["decision"],
        json!({"result": "deny", "source": "human-deny"})
    );
    assert!(inactive["message"].as_str().unwrap().contains("not active"));
    client.close().await;
    assert!(fake.launches().is_empty());
    assert_eq!(
        audit_events(&root),
        [
            "invoke",
            "denied-explicit",
            "invoke",
            "target-access-requested",
            "target-access-denied"
        ]
    );
    let log = audit_lines(&root).join("\n");
    assert!(log.contains("| kube/lab |"));
    assert!(!log.contains("secret-context"), "{log}");
}

#[test]
fn startup_without_providers_says_no_providers_installed() {
    let root = Root::new();
    root.torii().arg("init").assert().success();
    let output = root.torii().write_stdin("").output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty());
    assert!(String::from_utf8_lossy(&output.stderr).contains("no providers installed"));

    // A client is told, in the words providers.md shows.
    let initialize = crate::common::initialize_request();
    let output = root
        .torii()
        .write_stdin(format!("{initialize}\n"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let answer: Value = serde_json::from_slice(&output.stdout).unwrap();
    let message = answer["error"]["message"].as_str().unwrap();
    let page = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/src/providers.md"),
    )
    .unwrap();
    assert!(page.contains(&format!("\n{message}\n")), "{message}");
}

#[test]
fn an_invalid_provider_stops_startup_naming_file_and_field() {
    let root = Root::new();
    install_provider(
        &root,
        "bad",
        &simple_provider("torii_policy", ""),
        "version: \"1\"\n",
    );
    let output = root.torii().write_stdin("").output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("providers/bad/provider.yaml") && stderr.contains("`tool`"),
        "{stderr}"
    );
}

#[tokio::test]
async fn a_forbidden_long_option_is_refused_in_abbreviated_spellings() {
    // The AWS CLI (argparse) reads `--deb` as `--debug`, whose log holds the session token.
    let root = Root::new();
    let policy = "policy:\n  forbidden_args: [\"--debug\"]\n";
    install_provider(
        &root,
        "cli",
        &simple_provider("cli", policy),
        "version: \"1\"\naccept: [\"s3 ls\"]\n",
    );
    let fake = FakeCli::new(&root, "cli", "echo ran");
    let client = mcp_client::start(&root, &[("PATH", fake.path_env())]).await;
    for flag in ["--debug", "--deb", "--de=1"] {
        let (result, _) = client
            .call("cli", json!({"args": ["s3", "ls", flag]}))
            .await;
        assert_eq!(result["decision"]["source"], "forbidden-arg", "{flag}");
    }
    let (fine, _) = client
        .call("cli", json!({"args": ["s3", "ls", "--debug-like"]}))
        .await;
    assert_eq!(fine["decision"]["source"], "rules");
    client.close().await;
    assert_eq!(fake.launches().len(), 1);
}

/// Issue 12, bug 1: a `torii_policy` failure must match the tool's own output schema (the
/// client checks every result against it), or strict clients show a schema error instead.
#[tokio::test]
async fn torii_policy_failures_match_its_output_schema() {
    let (root, fake) = target_root();
    root.write(
        "providers/idp/rules.yaml",
        "version: \"1\"\naccept: [\"/(/\"]\n",
    );
    root.write(
        "providers/kube/targets/prod/rules.yaml",
        "version: 1\nnope: 2\n",
    );
    let client = mcp_client::start(&root, &[("PATH", fake.path_env())]).await;
    let (view, is_error) = client
        .call("torii_policy", json!({"provider": "idp"}))
        .await;
    assert!(is_error);
    assert_eq!(view["provider"], "idp");
    assert!(view.get("target").is_none(), "{view}");
    assert!(
        view["error"]
            .as_str()
            .unwrap()
            .contains("providers/idp/rules.yaml"),
        "{view}"
    );
    let (view, is_error) = client
        .call(
            "torii_policy",
            json!({"provider": "kube", "target": "prod"}),
        )
        .await;
    assert!(is_error);
    assert_eq!(view["target"], "prod");
    assert!(
        view["error"]
            .as_str()
            .unwrap()
            .contains("targets/prod/rules.yaml"),
        "{view}"
    );
    client.close().await;
    assert!(fake.launches().is_empty());
}

/// Issue 12, bug 2: Gemini CLI adds a boolean `wait_for_previous` to every call. Exactly that
/// field, as a boolean, is dropped; any other value, or any other extra field, is refused.
#[tokio::test]
async fn gemini_wait_for_previous_is_dropped_only_as_a_boolean() {
    let (root, fake) = simple_root("echo ran");
    let client = mcp_client::start(&root, &[("PATH", fake.path_env())]).await;
    let (result, is_error) = client
        .call(
            "cli",
            json!({"args": ["s3", "ls"], "wait_for_previous": true}),
        )
        .await;
    assert!(!is_error, "{result}");
    assert_eq!(result["execution"]["stdout"], "ran\n");
    let (view, is_error) = client
        .call(
            "torii_policy",
            json!({"provider": "cli", "wait_for_previous": false}),
        )
        .await;
    assert!(!is_error, "{view}");
    for arguments in [
        json!({"args": ["s3", "ls"], "wait_for_previous": "true"}),
        json!({"args": ["s3", "ls"], "wait_for_previous": null}),
        json!({"args": ["s3", "ls"], "wait_for_previous": true, "extra": 1}),
        json!({"args": ["s3", "ls"], "Wait_for_previous": true}),
    ] {
        let error = client.try_call("cli", arguments.clone()).await.unwrap_err();
        assert_eq!(error_code(&error), Some(-32602), "{arguments}: {error}");
    }
    client.close().await;
    assert_eq!(fake.launches(), vec![vec!["s3", "ls"]]);
}

/// Issue 12, bug 3: agent UIs show a failed `initialize`, not the server's stderr, so the
/// reason reaches the person as the answer to the client's first request (the file named
/// relative to the root, with the field), whichever request that is.
#[test]
fn a_startup_error_is_the_answer_to_the_first_request() {
    let root = Root::new();
    install_provider(
        &root,
        "bad",
        &simple_provider("torii_policy", ""),
        "version: \"1\"\n",
    );
    for first in [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "raw", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "id": "d", "method": "server/discover", "params": {}}),
    ] {
        let output = root
            .torii()
            .write_stdin(format!("{first}\n"))
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(1));
        let stdout = String::from_utf8_lossy(&output.stdout);
        let answer: Value = serde_json::from_str(stdout.trim()).expect("one JSON-RPC line");
        assert_eq!(answer["id"], first["id"], "{answer}");
        let message = answer["error"]["message"].as_str().unwrap();
        assert!(
            message.starts_with("torii cannot start: ")
                && message.contains("providers/bad/provider.yaml")
                && message.contains("`tool`"),
            "{message}"
        );
        assert!(
            !message.contains(&root.path().display().to_string()),
            "{message}"
        );
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("providers/bad/provider.yaml"), "{stderr}");
    }
}

/// Issue 12, bug 3, through the rmcp client: its `initialize` fails with the reason.
#[tokio::test]
async fn an_rmcp_client_sees_why_torii_cannot_start() {
    use rmcp::ServiceExt;
    let root = Root::new();
    install_provider(
        &root,
        "bad",
        &simple_provider("torii_policy", ""),
        "version: \"1\"\n",
    );
    let mut command = tokio::process::Command::new(assert_cmd::cargo::cargo_bin("torii"));
    command
        .env("TORII_CONFIG_DIR", root.path())
        .env("TORII_NO_GUI", "1");
    let transport = rmcp::transport::TokioChildProcess::new(command).unwrap();
    let error = match ().serve(transport).await {
        Ok(_) => panic!("initialize succeeded with an invalid provider"),
        Err(error) => error.to_string(),
    };
    assert!(
        error.contains("torii cannot start: providers/bad/provider.yaml")
            && error.contains("reserved"),
        "{error}"
    );
}
