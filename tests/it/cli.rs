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
