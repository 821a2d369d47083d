//! The official `gcloud` package with the REAL Google Cloud CLI (the machine's gcloud: Debian's
//! `google-cloud-cli` here, preinstalled on GitHub's runners): how gcloud parses the options the
//! package forbids, and the package's identity probe and a read, run for real and offline in a
//! gcloud configuration of the test's own (`CLOUDSDK_CONFIG`). Nothing reaches Google.

use std::path::Path;
use std::process::Command;

use serde_json::json;

use crate::common::Root;
use crate::fake_kube::real_tool;
use crate::mcp_client;
use crate::pack::example;

/// `gcloud` in the configuration directory `config`, offline and silent.
fn gcloud(config: &Path) -> Command {
    let mut command = Command::new(real_tool("gcloud"));
    command
        .env("CLOUDSDK_CONFIG", config)
        .env("CLOUDSDK_CORE_DISABLE_PROMPTS", "1")
        .env("CLOUDSDK_COMPONENT_MANAGER_DISABLE_UPDATE_CHECK", "1")
        .env("CLOUDSDK_CORE_DISABLE_USAGE_REPORTING", "1");
    command
}

/// A configuration whose account is `account` (set offline, as `gcloud auth login` would).
fn configuration(root: &Root, account: &str) -> std::path::PathBuf {
    let config = root.outside().join("gcloud-agent");
    let output = gcloud(&config)
        .args(["config", "set", "account", account])
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    config
}

/// The package forbids `--account` and the rest by name and by `--opt=value`: enough only if
/// gcloud abbreviates no option and reads `=` (and global flags anywhere on the line).
#[test]
#[ignore = "needs gcloud; run by ./scripts/test.sh"]
fn gcloud_abbreviates_no_option_and_reads_the_equals_form_anywhere() {
    let root = Root::new();
    let config = configuration(&root, "agent@example.com");
    let output = gcloud(&config)
        .args(["config", "list", "--accoun=admin@corp.example"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("unrecognized arguments: --accoun="),
        "{output:?}"
    );
    for args in [
        &[
            "--account=admin@corp.example",
            "config",
            "list",
            "--format=json",
        ][..],
        &[
            "config",
            "list",
            "--format=json",
            "--account",
            "admin@corp.example",
        ],
    ] {
        let output = gcloud(&config).args(args).output().unwrap();
        let listed: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(listed["core"]["account"], "admin@corp.example", "{args:?}");
    }
}

/// The package installed with its read-only setup and `.env` pointing at the agent's own
/// configuration: a read allowed by the setup runs the real gcloud; the identity probe admits
/// the expected account of a target whose identity provider is gcloud and stops another.
#[tokio::test]
#[ignore = "needs gcloud; run by ./scripts/test.sh"]
async fn the_real_gcloud_reads_and_its_identity_probe_checks_the_account() {
    let root = Root::new();
    root.torii()
        .args(["provider", "install"])
        .arg(example("gcloud"))
        .assert()
        .success();
    root.torii()
        .args(["provider", "setup", "gcloud", "readonly"])
        .assert()
        .success();
    let config = configuration(&root, "agent@example.com");
    root.write(
        "providers/gcloud/.env",
        &format!(
            "CLOUDSDK_CONFIG=\"{}\"\nCLOUDSDK_CORE_DISABLE_PROMPTS=\"1\"\n\
             CLOUDSDK_COMPONENT_MANAGER_DISABLE_UPDATE_CHECK=\"1\"\n\
             CLOUDSDK_CORE_DISABLE_USAGE_REPORTING=\"1\"\n",
            config.display()
        ),
    );
    let kube = crate::identity_targets::install(
        &root,
        "gcloud",
        "agent@example.com",
        "admin@corp.example",
    );
    let gcloud_dir = real_tool("gcloud").parent().unwrap().to_path_buf();
    let path = std::env::join_paths([
        kube.bin_dir.clone(),
        gcloud_dir,
        "/usr/bin".into(),
        "/bin".into(),
    ])
    .unwrap();
    let client = mcp_client::start(&root, &[("PATH", path)]).await;
    let (read, is_error) = client
        .call(
            "gcloud",
            json!({"args": ["config", "list", "account", "--format=json"]}),
        )
        .await;
    assert!(!is_error, "{read}");
    assert_eq!(read["decision"]["source"], "rules", "{read}");
    assert!(
        read["execution"]["stdout"]
            .as_str()
            .unwrap()
            .contains("agent@example.com"),
        "{read}"
    );
    let (refused, _) = client
        .call(
            "gcloud",
            json!({"args": ["config", "list", "--account=admin@corp.example"]}),
        )
        .await;
    assert_eq!(refused["decision"]["source"], "forbidden-arg", "{refused}");

    let (_, stopped, log) =
        crate::identity_targets::assert_lab_admitted_other_stopped(&client, &root, &kube, "gcloud")
            .await;
    client.close().await;
    // Neither the expected nor the observed account reaches the agent or the audit.
    for seen in [stopped.to_string(), log] {
        assert!(
            !seen.contains("admin@corp.example") && !seen.contains("agent@example.com"),
            "{seen}"
        );
    }
}
