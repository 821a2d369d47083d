//! The control-plane skeleton: config root, init, help at every level, the `update` correction.

use predicates::prelude::*;

use crate::common::Root;

#[test]
fn config_dir_prints_the_override() {
    let root = Root::new();
    root.torii()
        .arg("config-dir")
        .assert()
        .success()
        .stdout(format!("{}\n", root.path().display()));
}

#[test]
fn config_dir_defaults_to_home_dot_config() {
    let home = tempfile::tempdir().unwrap();
    let mut command = assert_cmd::Command::cargo_bin("torii").unwrap();
    command
        .env_remove("TORII_CONFIG_DIR")
        .env("HOME", home.path())
        .arg("config-dir")
        .assert()
        .success()
        .stdout(format!("{}\n", home.path().join(".config/torii").display()));
}

#[test]
fn init_creates_only_settings_and_providers() {
    let root = Root::new();
    let dir = root.path().join("fresh");
    let mut command = assert_cmd::Command::cargo_bin("torii").unwrap();
    command
        .env("TORII_CONFIG_DIR", &dir)
        .arg("init")
        .assert()
        .success();
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["providers", "settings.yaml"]);
    assert_eq!(std::fs::read_dir(dir.join("providers")).unwrap().count(), 0);
    let settings = std::fs::read_to_string(dir.join("settings.yaml")).unwrap();
    assert!(settings.contains("max_output_bytes: 262144"));
    assert!(settings.contains("default_grant_minutes: 2"));
    assert!(settings.contains("default_target_minutes: 15"));
}

#[test]
fn init_keeps_an_existing_settings_file() {
    let root = Root::new();
    root.write("settings.yaml", "max_output_bytes: 1000\n");
    root.torii()
        .arg("init")
        .assert()
        .success()
        .stderr(predicate::str::contains("left unchanged"));
    assert_eq!(
        std::fs::read_to_string(root.path().join("settings.yaml")).unwrap(),
        "max_output_bytes: 1000\n"
    );
}

#[test]
fn init_reports_an_invalid_settings_file_with_file_and_field() {
    let root = Root::new();
    root.write("settings.yaml", "default_target_minutes: 0\n");
    root.torii()
        .arg("init")
        .assert()
        .code(1)
        .stderr(predicate::str::contains("settings.yaml"))
        .stderr(predicate::str::contains("default_target_minutes"));
}

#[test]
fn version_is_printed() {
    Root::new()
        .torii()
        .arg("--version")
        .assert()
        .success()
        .stdout(predicate::str::starts_with(format!(
            "torii {}",
            env!("CARGO_PKG_VERSION")
        )));
}

#[test]
fn help_at_every_level_and_both_forms_are_equivalent() {
    let root = Root::new();
    for args in [
        vec!["--help"],
        vec!["-h"],
        vec!["init", "--help"],
        vec!["provider", "--help"],
        vec!["provider", "-h"],
        vec!["provider", "list", "--help"],
    ] {
        root.torii()
            .args(&args)
            .assert()
            .success()
            .stdout(predicate::str::contains("Usage:"));
    }
    let layered = root
        .torii()
        .args(["provider", "help", "list"])
        .output()
        .unwrap();
    let top = root
        .torii()
        .args(["help", "provider", "list"])
        .output()
        .unwrap();
    let flag = root
        .torii()
        .args(["provider", "list", "--help"])
        .output()
        .unwrap();
    assert!(layered.status.success());
    assert_eq!(layered.stdout, top.stdout);
    assert_eq!(layered.stdout, flag.stdout);
}

#[test]
fn provider_update_answers_with_the_exact_correction() {
    let root = Root::new();
    for args in [
        vec!["provider", "update"],
        vec!["provider", "update", "aws", "--force"],
    ] {
        root.torii().args(&args).assert().code(2).stdout("").stderr(
            "there is no `torii provider update`; changing an installed version is `torii provider upgrade`\n",
        );
    }
}

#[test]
fn provider_list_without_providers_says_so() {
    let root = Root::new();
    root.torii().arg("init").assert().success();
    root.torii()
        .args(["provider", "list"])
        .assert()
        .success()
        .stdout("")
        .stderr(predicate::str::contains("no providers installed"));
}

/// The book: there is no `torii aws s3 ls` nor `torii kubectl get pods`: the CLI's programs
/// are reached through MCP and its policy only, never passed through by the control plane.
#[test]
fn torii_is_not_a_passthrough_to_the_provider_clis() {
    let root = Root::new();
    let aws = crate::common::FakeCli::new(&root, "aws", "echo ran");
    crate::common::FakeCli::new(&root, "kubectl", "echo ran");
    crate::common::install_provider(
        &root,
        "aws",
        &crate::common::simple_provider("aws", ""),
        "version: \"1\"\naccept: [\"s3 ls\"]\n",
    );
    for args in [&["aws", "s3", "ls"][..], &["kubectl", "get", "pods"]] {
        root.torii()
            .args(args)
            .env("PATH", aws.path_env())
            .assert()
            .code(2)
            .stderr(predicate::str::contains(format!(
                "unrecognized subcommand '{}'",
                args[0]
            )));
    }
    assert!(aws.launches().is_empty());
}

/// The book: Torii neither reads nor migrates AWS Gate's configuration: `~/.config/.awsgate`
/// and `AWSGATE_CONFIG_DIR` are never opened (watched by the kernel) by the control plane, the
/// agent integrations or the MCP server, `AWSGATE_NO_GUI` is no alias, the root stays Torii's
/// own, and there is no migration command.
#[cfg(target_os = "linux")]
#[test]
fn aws_gate_configuration_is_neither_read_nor_migrated() {
    use inotify::{Inotify, WatchMask};

    let home = tempfile::tempdir().unwrap();
    let awsgate = home.path().join(".config/.awsgate");
    let elsewhere = home.path().join("awsgate-elsewhere");
    for dir in [&awsgate, &elsewhere] {
        std::fs::create_dir_all(dir.join("providers/aws")).unwrap();
        std::fs::write(dir.join("settings.yaml"), "max_output_bytes: 7\n").unwrap();
        std::fs::write(
            dir.join("providers/aws/rules.yaml"),
            "version: \"1\"\naccept: [\"s3\"]\n",
        )
        .unwrap();
    }
    let mut inotify = Inotify::init().unwrap();
    for dir in [&awsgate, &elsewhere] {
        for watched in [
            dir.clone(),
            dir.join("providers"),
            dir.join("providers/aws"),
        ] {
            inotify
                .watches()
                .add(&watched, WatchMask::OPEN | WatchMask::ACCESS)
                .unwrap();
        }
    }
    let torii = |args: &[&str]| {
        let mut command = assert_cmd::Command::cargo_bin("torii").unwrap();
        command
            .env_remove("TORII_CONFIG_DIR")
            .env("HOME", home.path())
            .env("AWSGATE_CONFIG_DIR", &elsewhere)
            .env("AWSGATE_NO_GUI", "1")
            .env("TORII_LANG", "en")
            .args(args)
            .assert()
    };
    torii(&["config-dir"])
        .success()
        .stdout(format!("{}\n", home.path().join(".config/torii").display()));
    torii(&["init"]).success();
    torii(&["provider", "list"]).success();
    torii(&["doctor"]);
    torii(&["agent", "install", "claude", "--hook"]).success();
    torii(&["agent", "status"]).success();
    torii(&["agent", "uninstall", "claude"]).success();
    // The MCP server itself, with a provider to serve: the handshake and the tool list.
    let demo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/demo/git");
    torii(&["provider", "install", demo.to_str().unwrap()]).success();
    let session = concat!(
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#,
        "\n",
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        "\n",
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
        "\n"
    );
    let mut server = assert_cmd::Command::cargo_bin("torii").unwrap();
    server
        .env_remove("TORII_CONFIG_DIR")
        .env("HOME", home.path())
        .env("AWSGATE_CONFIG_DIR", &elsewhere)
        .env("TORII_NO_GUI", "1")
        .write_stdin(session)
        .assert()
        .success()
        .stdout(predicate::str::contains(r#""id":2"#));
    let mut opened = || {
        let mut buffer = [0u8; 4096];
        match inotify.read_events(&mut buffer) {
            Ok(events) => events.count(),
            Err(error) if error.kind() == std::io::ErrorKind::WouldBlock => 0,
            Err(error) => panic!("inotify: {error}"),
        }
    };
    assert_eq!(opened(), 0, "AWS Gate's configuration was opened");
    // Control: the watch does see a read of those files.
    std::fs::read(elsewhere.join("settings.yaml")).unwrap();
    assert!(opened() > 0);
    let root = home.path().join(".config/torii");
    let settings = std::fs::read_to_string(root.join("settings.yaml")).unwrap();
    assert!(!settings.contains("max_output_bytes: 7"), "{settings}");
    let installed: Vec<_> = std::fs::read_dir(root.join("providers"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name())
        .collect();
    assert_eq!(installed, ["git"], "only what was installed here");
    // AWSGATE_NO_GUI is no alias of TORII_NO_GUI: with a display, windows may still open.
    let doctor = |no_gui: (&str, &str)| {
        let mut command = assert_cmd::Command::cargo_bin("torii").unwrap();
        let output = command
            .env_remove("TORII_CONFIG_DIR")
            .env_remove("TORII_NO_GUI")
            .env("HOME", home.path())
            .env("DISPLAY", ":99")
            .env("TORII_LANG", "en")
            .env(no_gui.0, no_gui.1)
            .arg("doctor")
            .output()
            .unwrap();
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    let said = doctor(("AWSGATE_NO_GUI", "1"));
    assert!(said.contains("approval windows can open"), "{said}");
    let said = doctor(("TORII_NO_GUI", "1"));
    assert!(said.contains("TORII_NO_GUI is set"), "{said}");
    for command in ["migrate", "import"] {
        torii(&[command])
            .code(2)
            .stderr(predicate::str::contains(format!(
                "unrecognized subcommand '{command}'"
            )));
    }
}

/// The book: protect torii.log like the config root: it is created owner-only.
#[test]
fn the_audit_log_is_created_owner_only() {
    use std::os::unix::fs::PermissionsExt;

    let root = Root::new();
    assert!(!root.path().join("torii.log").exists());
    root.torii()
        .args(["target", "clear", "nothing"])
        .assert()
        .failure();
    crate::common::install_provider(
        &root,
        "kube",
        "version: \"1\"\nname: kube\ntool: kube\ndescription: k\ncommand: kube\ntargeting:\n  mode: kubectl_context\n",
        "version: \"1\"\n",
    );
    root.torii()
        .args(["target", "clear", "kube"])
        .assert()
        .success();
    let mode = std::fs::metadata(root.path().join("torii.log"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600, "{mode:o}");
}
