//! The test hooks (a scripted human for the server, a script that drives the windows) exist
//! only in builds with the `test-hooks` feature. The book's getting started runs `cargo run`, a
//! debug build: there an environment variable must not be able to answer for the human.
//!
//! Each check runs in both builds and expects the opposite outcome, so neither can pass by
//! accident: scripts/test.sh runs this target with the feature (with every test) and without it.
//! It is a test target of its own, with only the helpers it needs, so that the build without the
//! feature compiles the library and the binary but not the whole integration suite.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "it/common.rs"]
mod common;
// The integration suite's client; this target uses only part of it.
#[allow(dead_code)]
#[path = "it/mcp_client.rs"]
mod mcp_client;

use serde_json::json;

use crate::common::{FakeCli, Root, audit_events, install_provider, simple_provider};

const HOOKED: bool = cfg!(feature = "test-hooks");

/// Issue 11: `TORII_TEST_RESPONDER` answered for the human in every debug build.
#[tokio::test]
async fn the_scripted_human_answers_only_in_a_build_with_test_hooks() {
    let root = Root::new();
    install_provider(
        &root,
        "cli",
        &simple_provider("cli", ""),
        "version: \"1\"\n",
    );
    let cli = FakeCli::new(&root, "cli", "echo ran");
    let script = root.write_outside("responses.jsonl", "{\"operation\": \"once\"}\n");
    let client = mcp_client::start(
        &root,
        &[
            ("PATH", cli.path_env()),
            ("TORII_TEST_RESPONDER", script.clone().into()),
        ],
    )
    .await;
    let (result, _) = client.call("cli", json!({"args": ["anything"]})).await;
    client.close().await;
    let mut requests = script.into_os_string();
    requests.push(".requests");
    if HOOKED {
        assert_eq!(result["decision"]["source"], "human-once", "{result}");
        assert_eq!(cli.launches().len(), 1);
    } else {
        assert_eq!(result["decision"]["result"], "deny", "{result}");
        assert!(
            cli.launches().is_empty(),
            "the script answered for the human"
        );
        assert!(!std::path::Path::new(&requests).exists());
        assert!(audit_events(&root).contains(&"denied-interface".to_string()));
    }
}

/// `TORII_TEST_PROMPT_SCRIPT` drove the real windows in every debug build.
#[cfg(feature = "gui")]
#[test]
fn the_window_driver_exists_only_in_a_build_with_test_hooks() {
    let request = json!({"protocol": 2, "language": "en", "request": {"operation": {
        "tool": "cli", "target": null, "args": ["anything"],
        "default_grant_minutes": 2, "oldest_grant_remaining_secs": null
    }}});
    let script = r#"{"steps": [
        {"click": "I reviewed the invocation and the scope"},
        {"click": "Allow"}
    ]}"#;
    let output = assert_cmd::Command::new(env!("CARGO_BIN_EXE_torii"))
        .arg("__prompt")
        .env("TORII_TEST_PROMPT_SCRIPT", script)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .write_stdin(format!("{request}\n"))
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    if HOOKED {
        assert!(output.status.success(), "{stderr}");
        assert!(stdout.contains("\"once\""), "{stdout}");
    } else {
        assert!(!output.status.success());
        assert!(stdout.is_empty(), "an answer was given: {stdout}");
        assert!(stderr.contains("no test driver"), "{stderr}");
    }
}
