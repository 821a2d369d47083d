//! The administrator's layer (`TORII_TEST_ADMIN_DIR` stands for `/etc/torii` in test builds):
//! its deny rules hold against a user accept, a grant and an approval window; the settings it
//! sets are locked; a malformed layer denies with an error naming the file; the CLI names the
//! layer that decided.

use std::path::Path;

use predicates::prelude::*;
use serde_json::{Value, json};

use crate::common::{FakeCli, Root, audit_lines, install_provider, simple_provider};
use crate::mcp_client;

const USER_RULES: &str = "version: \"1\"\naccept:\n  - \"s3 ls\"\n  - \"s3 cp\"\n";

fn admin(dir: &Path, rules: &str, settings: Option<&str>) {
    std::fs::create_dir_all(dir.join("rules")).unwrap();
    std::fs::write(dir.join("rules/cli.yaml"), rules).unwrap();
    if let Some(settings) = settings {
        std::fs::write(dir.join("settings.yaml"), settings).unwrap();
    }
}

fn setup() -> (Root, FakeCli, tempfile::TempDir) {
    let root = Root::new();
    install_provider(&root, "cli", &simple_provider("cli", ""), USER_RULES);
    let fake = FakeCli::new(
        &root,
        "cli",
        "printf '%s' 0123456789abcdefghijklmnopqrstuvwxyz",
    );
    (root, fake, tempfile::tempdir().unwrap())
}

async fn call(root: &Root, fake: &FakeCli, env: &[(&str, &Path)], args: &[&str]) -> (Value, bool) {
    let mut vars = vec![("PATH", fake.path_env())];
    vars.extend(
        env.iter()
            .map(|(name, value)| (*name, value.as_os_str().to_owned())),
    );
    let client = mcp_client::start(root, &vars).await;
    let answer = client.call("cli", json!({ "args": args })).await;
    client.close().await;
    answer
}

fn assert_admin_denied(answer: &(Value, bool), rule: &str) {
    let (result, _) = answer;
    assert_eq!(result["decision"]["result"], "deny", "{result}");
    assert_eq!(result["decision"]["source"], "explicit-deny", "{result}");
    assert_eq!(result["decision"]["rule"], rule, "{result}");
    let message = result["message"].as_str().unwrap_or_default();
    assert!(message.contains("administrator's rule"), "{result}");
}

#[cfg_attr(not(feature = "test-hooks"), ignore = "needs --features test-hooks")]
#[tokio::test]
async fn an_admin_deny_holds_against_a_user_accept() {
    let (root, fake, layer) = setup();
    admin(layer.path(), "version: \"1\"\ndeny:\n  - \"s3 cp\"\n", None);
    let env = [("TORII_TEST_ADMIN_DIR", layer.path())];
    assert_admin_denied(
        &call(&root, &fake, &env, &["s3", "cp", "a", "b"]).await,
        "s3 cp",
    );
    assert!(fake.launches().is_empty());
    let lines = audit_lines(&root);
    assert!(
        lines
            .iter()
            .any(|line| line.ends_with("| denied-explicit | s3 cp | layer=admin")),
        "{lines:?}"
    );
    // What the layer does not deny is the user's policy's to decide.
    let (result, is_error) = call(&root, &fake, &env, &["s3", "ls"]).await;
    assert!(!is_error, "{result}");
    assert_eq!(fake.launches(), [["s3", "ls"]]);
}

/// The agent reads the administrator's deny rules where it reads the user's, so that it does
/// not plan around a command no approval can let through.
#[cfg_attr(not(feature = "test-hooks"), ignore = "needs --features test-hooks")]
#[tokio::test]
async fn torii_policy_lists_the_administrators_deny_rules() {
    let (root, fake, layer) = setup();
    let view = |env: Vec<(&'static str, std::ffi::OsString)>| {
        let root = &root;
        let fake = &fake;
        async move {
            let mut vars = vec![("PATH", fake.path_env())];
            vars.extend(env);
            let client = mcp_client::start(root, &vars).await;
            let (view, is_error) = client
                .call("torii_policy", json!({ "provider": "cli" }))
                .await;
            client.close().await;
            assert!(!is_error, "{view}");
            view
        }
    };
    let without = view(vec![]).await;
    assert!(without.get("admin_deny").is_none(), "{without}");
    admin(layer.path(), "version: \"1\"\ndeny:\n  - \"s3 cp\"\n", None);
    let with = view(vec![("TORII_TEST_ADMIN_DIR", layer.path().into())]).await;
    assert_eq!(with["admin_deny"], json!(["s3 cp"]), "{with}");
    // The user's own rules are shown as they are written.
    assert_eq!(with["accept"], json!(["s3 ls", "s3 cp"]), "{with}");
    assert!(fake.launches().is_empty());
}

#[cfg_attr(not(feature = "test-hooks"), ignore = "needs --features test-hooks")]
#[tokio::test]
async fn an_admin_deny_holds_against_a_grant_and_an_approval_window() {
    let (root, fake, layer) = setup();
    // The human grants `s3 mv` for two minutes, before the layer exists.
    let script = crate::aws_moto::responder(
        &root,
        &[json!({"operation": {"temporary": {"scope": "exact", "duration_secs": 120}}})],
    );
    let granted = [("TORII_TEST_RESPONDER", script.as_path())];
    let (result, is_error) = call(&root, &fake, &granted, &["s3", "mv", "x"]).await;
    assert!(!is_error, "{result}");
    assert_eq!(fake.launches().len(), 1);

    admin(
        layer.path(),
        "version: \"1\"\ndeny:\n  - \"s3 mv\"\n  - \"s3 rb\"\n",
        None,
    );
    // The grant is live, and the scripted human would allow anything asked.
    let script = crate::aws_moto::responder(&root, &[json!({"operation": "once"})]);
    let asked = crate::aws_moto::collection_requests(&script);
    let env = [
        ("TORII_TEST_ADMIN_DIR", layer.path()),
        ("TORII_TEST_RESPONDER", script.as_path()),
    ];
    assert_admin_denied(&call(&root, &fake, &env, &["s3", "mv", "x"]).await, "s3 mv");
    assert_admin_denied(&call(&root, &fake, &env, &["s3", "rb", "y"]).await, "s3 rb");
    assert_eq!(fake.launches().len(), 1, "nothing more ran");
    assert_eq!(
        crate::aws_moto::collection_requests(&script),
        asked,
        "no window was opened"
    );
}

#[cfg_attr(not(feature = "test-hooks"), ignore = "needs --features test-hooks")]
#[tokio::test]
async fn settings_of_the_layer_are_locked() {
    let (root, fake, layer) = setup();
    std::fs::write(
        root.path().join("settings.yaml"),
        "max_output_bytes: 100000\n",
    )
    .unwrap();
    admin(
        layer.path(),
        "version: \"1\"\ndeny: []\n",
        Some("max_output_bytes: 10\n"),
    );
    let env = [("TORII_TEST_ADMIN_DIR", layer.path())];
    let (result, is_error) = call(&root, &fake, &env, &["s3", "ls"]).await;
    assert!(!is_error, "{result}");
    assert_eq!(result["execution"]["stdout"], "0123456789", "{result}");
    assert_eq!(result["execution"]["truncated"], true, "{result}");
}

#[cfg_attr(not(feature = "test-hooks"), ignore = "needs --features test-hooks")]
#[tokio::test]
async fn a_malformed_layer_denies_with_an_error_naming_the_file() {
    let (root, fake, layer) = setup();
    admin(
        layer.path(),
        "version: \"1\"\naccept:\n  - \"s3 ls\"\n",
        None,
    );
    let mut command = tokio::process::Command::new(assert_cmd::cargo::cargo_bin("torii"));
    command
        .env("TORII_CONFIG_DIR", root.path())
        .env("TORII_NO_GUI", "1")
        .env("TORII_TEST_ADMIN_DIR", layer.path())
        .env("PATH", fake.path_env())
        .current_dir(root.work());
    use rmcp::ServiceExt;
    let transport = rmcp::transport::TokioChildProcess::new(command).unwrap();
    let error = ().serve(transport).await.err().map(|error| error.to_string());
    let error = error.expect("the server refuses the session");
    assert!(
        error.contains("cli.yaml") && error.contains("can only deny"),
        "{error}"
    );
    assert!(fake.launches().is_empty());
}

#[cfg_attr(not(feature = "test-hooks"), ignore = "needs --features test-hooks")]
#[test]
fn policy_check_show_and_doctor_name_the_layer() {
    let (root, _fake, layer) = setup();
    admin(
        layer.path(),
        "version: \"1\"\ndeny:\n  - \"s3 cp\"\n",
        Some("approval: window\n"),
    );
    let torii = || {
        let mut command = root.torii();
        command.env("TORII_TEST_ADMIN_DIR", layer.path());
        command
    };
    torii()
        .args(["policy", "check", "cli", "--", "s3", "cp", "a"])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("decision: denied\nsource: explicit-deny\nrule: s3 cp\n")
                .and(predicate::str::contains("layer: admin")),
        );
    torii()
        .args(["policy", "check", "cli", "--", "s3", "ls"])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("decision: allowed")
                .and(predicate::str::contains("layer: user")),
        );
    torii()
        .args(["policy", "show", "cli"])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("the administrator's deny rules")
                .and(predicate::str::contains("  - \"s3 cp\"")),
        );
    let doctor = torii().arg("doctor").output().unwrap();
    let report = String::from_utf8_lossy(&doctor.stdout);
    assert!(
        report.contains("deny rules for cli; locked settings: approval"),
        "{report}"
    );
    // A layer others can write could be loosened by a user: a problem.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(
            layer.path().join("rules/cli.yaml"),
            std::fs::Permissions::from_mode(0o666),
        )
        .unwrap();
        let doctor = torii().arg("doctor").output().unwrap();
        let report = String::from_utf8_lossy(&doctor.stdout);
        assert!(
            report.contains("can be changed by someone other than root"),
            "{report}"
        );
        assert_eq!(doctor.status.code(), Some(1));
    }
}
