//! The official `gh` package with the REAL GitHub CLI (Debian's gh 2.23, which
//! `scripts/test.sh` unpacks into `.tools/`): how gh parses the options the package forbids,
//! and the package's identity probe and a read, run for real against a loopback HTTPS stand-in
//! for a GitHub Enterprise host (`GH_HOST=localhost:<port>`, the stand-in's CA trusted through
//! `SSL_CERT_FILE`). Nothing reaches github.com.

use std::process::Command;

use serde_json::json;

use crate::common::Root;
use crate::fake_kube::real_tool;
use crate::mcp_client;
use crate::pack::{example, serve_https};

/// `gh` with a throwaway home and configuration, no token, no prompt.
fn gh(root: &Root) -> Command {
    let home = root.outside().join("gh-home");
    std::fs::create_dir_all(&home).unwrap();
    let mut command = Command::new(real_tool("gh"));
    command
        .env_clear()
        .env("HOME", &home)
        .env("GH_CONFIG_DIR", home.join("config"))
        .env("GH_PROMPT_DISABLED", "1")
        .env("PATH", "/usr/bin:/bin");
    command
}

/// The package forbids `--hostname` and friends by name and by `--opt=value`; that is enough
/// only if gh abbreviates no option and reads `=` as the option's value. Both checked here.
#[test]
#[ignore = "needs gh from Debian; run by ./scripts/test.sh"]
fn gh_abbreviates_no_option_and_reads_the_equals_form() {
    let root = Root::new();
    let output = gh(&root)
        .args(["api", "--hostn=evil.example", "user"])
        .output()
        .unwrap();
    assert!(!output.status.success());
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("unknown flag: --hostn"),
        "{output:?}"
    );
    // `--hostname=<value>` is the option itself: gh checks the value as a host name.
    let output = gh(&root)
        .env("GH_TOKEN", "not-a-token")
        .args(["api", "--hostname=not a/host", "user"])
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("error parsing `--hostname`"),
        "{output:?}"
    );
    // `auth status --show-token` and its `-t` exist (the package refuses both).
    let help = gh(&root)
        .args(["auth", "status", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(help.contains("-t, --show-token"), "{help}");
    // `api` reads a field's `@file` and a request body from `--input` (both refused).
    let help = gh(&root).args(["api", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(
        help.contains("if the value starts with \"@\"") && help.contains("--input file"),
        "{help}"
    );
}

/// The package installed with its read-only setup, `.env` pointing gh at the stand-in: a read
/// allowed by the setup runs the real gh and returns the stand-in's answer; the identity probe
/// (`gh api user`, field `login`) admits the expected user of a target whose identity provider
/// is gh and stops another before its command runs.
#[tokio::test]
#[ignore = "needs gh from Debian; run by ./scripts/test.sh"]
async fn the_real_gh_reads_and_its_identity_probe_checks_the_user() {
    let server = serve_https(vec![
        (
            "/api/v3/user".to_string(),
            json!({"login": "octo-reader", "id": 1})
                .to_string()
                .into_bytes(),
        ),
        (
            "/api/v3/repos/owner/repo".to_string(),
            json!({"full_name": "owner/repo", "private": true})
                .to_string()
                .into_bytes(),
        ),
    ]);
    let root = Root::new();
    root.torii()
        .args(["provider", "install"])
        .arg(example("gh"))
        .assert()
        .success();
    root.torii()
        .args(["provider", "setup", "gh", "readonly"])
        .assert()
        .success();
    let ca = root.outside().join("ca.pem");
    std::fs::write(&ca, &server.ca_pem).unwrap();
    let host = server.base.replace("https://127.0.0.1", "localhost");
    let gh_config = root.outside().join("gh-config");
    root.write(
        "providers/gh/.env",
        &format!(
            "GH_HOST=\"{host}\"\nGH_ENTERPRISE_TOKEN=\"test-token\"\nSSL_CERT_FILE=\"{}\"\n\
             GH_CONFIG_DIR=\"{}\"\nGH_PROMPT_DISABLED=\"1\"\nGH_NO_UPDATE_NOTIFIER=\"1\"\n",
            ca.display(),
            gh_config.display()
        ),
    );
    // A target-aware tool whose identity provider is gh, expecting each user in turn.
    let kube = crate::identity_targets::install(&root, "gh", "octo-reader", "someone-else");
    let gh_dir = real_tool("gh").parent().unwrap().to_path_buf();
    let path = std::env::join_paths([kube.bin_dir.clone(), gh_dir]).unwrap();
    let client = mcp_client::start(&root, &[("PATH", path)]).await;

    let (read, is_error) = client
        .call(
            "gh",
            json!({"args": ["api", "repos/owner/repo", "--template", "{{.full_name}}\n"]}),
        )
        .await;
    assert!(!is_error, "{read}");
    assert_eq!(read["decision"]["source"], "rules", "{read}");
    assert_eq!(read["execution"]["exit_code"], 0, "{read}");
    assert_eq!(read["execution"]["stdout"], "owner/repo\n", "{read}");

    let (admitted, stopped, log) =
        crate::identity_targets::assert_lab_admitted_other_stopped(&client, &root, &kube, "gh")
            .await;
    client.close().await;
    // The token stays in the child's environment: never in an answer or the audit.
    for seen in [
        read.to_string(),
        admitted.to_string(),
        stopped.to_string(),
        log,
    ] {
        assert!(!seen.contains("test-token"), "{seen}");
    }
}
