//! End to end with the official TypeScript MCP SDK (npm), installed by scripts/test.sh into
//! `.tools/node`. Its client checks every structured result against the tool's `outputSchema`
//! and turns a mismatch into an error, as the MCP Inspectors, opencode and Gemini CLI do.

use crate::common::{FakeCli, Root, install_provider, simple_provider};

/// `node_modules` holding the SDK.
fn sdk_modules() -> std::path::PathBuf {
    let from_env = std::env::var_os("TORII_TEST_NODE_MODULES").map(std::path::PathBuf::from);
    let local = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(".tools/node/node_modules");
    from_env
        .or(Some(local))
        .filter(|modules| modules.join("@modelcontextprotocol/sdk").is_dir())
        .unwrap_or_else(|| {
            crate::common::missing_tool("the TypeScript MCP SDK (TORII_TEST_NODE_MODULES)")
        })
}

/// Issue 12, bug 1 (through the client that reported it): results of every kind, failures
/// included, match the schemas the tools declare.
#[test]
#[ignore = "needs the TypeScript MCP SDK from npm; run by ./scripts/test.sh"]
fn the_typescript_mcp_sdk_accepts_every_kind_of_result() {
    let modules = sdk_modules();
    let root = Root::new();
    install_provider(
        &root,
        "cli",
        &simple_provider("cli", ""),
        "version: \"1\"\ndeny: [\"bad\"]\naccept: [\"hello\"]\n",
    );
    root.write(
        "providers/broken/provider.yaml",
        &simple_provider("broken", ""),
    );
    let fake = FakeCli::new(&root, "cli", "echo \"$@\"");
    FakeCli::new(&root, "broken", "echo never");
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/e2e/typescript_sdk_client.mjs");
    let output = std::process::Command::new("node")
        .arg(script)
        .arg(modules)
        .arg(assert_cmd::cargo::cargo_bin("torii"))
        .arg(root.path())
        .arg(fake.path_env())
        .arg(root.work())
        .output()
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(!stdout.contains("FAILED"), "{stdout}");
    for line in [
        "tools: broken,cli,torii_policy",
        "ok: allowed: isError=false rules",
        "ok: denied: isError=false explicit-deny",
        "ok: gemini field: isError=false rules",
        "ok: policy failure: isError=true rules file not found: providers/broken/rules.yaml",
        "ok: call failure: isError=true rules file not found: providers/broken/rules.yaml",
    ] {
        assert!(stdout.contains(line), "missing {line:?} in\n{stdout}");
    }
    assert_eq!(fake.launches().len(), 2);
}
