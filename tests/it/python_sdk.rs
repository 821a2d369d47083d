//! End to end with a client we did not write: the official Python MCP SDK, installed by
//! scripts/test.sh into a venv whose interpreter is `TORII_TEST_PYTHON`.

use crate::common::{FakeCli, Root, install_provider, simple_provider};

/// The venv interpreter.
pub fn test_python() -> std::path::PathBuf {
    let from_env = std::env::var_os("TORII_TEST_PYTHON").map(std::path::PathBuf::from);
    let local = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(".tools/venv/bin/python");
    from_env
        .or_else(|| local.is_file().then_some(local))
        .unwrap_or_else(|| {
            crate::common::missing_tool("a Python venv with the MCP SDK (TORII_TEST_PYTHON)")
        })
}

#[test]
#[ignore = "needs the Python MCP SDK from PyPI; run by ./scripts/test.sh"]
fn the_python_mcp_sdk_drives_torii() {
    let python = test_python();
    let root = Root::new();
    install_provider(
        &root,
        "cli",
        &simple_provider("cli", ""),
        "version: \"1\"\ndeny: [\"bad\"]\naccept: [\"hello\"]\n",
    );
    let fake = FakeCli::new(&root, "cli", "echo \"$@\"");
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/e2e/python_sdk_client.py");
    let output = std::process::Command::new(python)
        .arg(script)
        .arg(assert_cmd::cargo::cargo_bin("torii"))
        .arg(root.path())
        .arg(fake.path_env())
        .current_dir(root.work())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains("ok: empty args is refused"), "{stdout}");
    assert_eq!(fake.launches().len(), 1);
}
