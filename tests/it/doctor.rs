//! `torii doctor` on crafted roots: a healthy installation has no problem and exits 0; each
//! thing a new user gets wrong is named, with its fix, and makes it exit 1. It changes nothing.

use std::path::Path;

use crate::common::{FakeCli, Root, install_provider, simple_provider};

const RULES: &str = "version: \"1.0\"\naccept:\n  - \"status\"\nexamples:\n  allowed:\n    - [status]\n  unresolved:\n    - [push]\n";

/// Owner-only, as Torii makes everything in the root (tests write with the default umask).
#[cfg(unix)]
fn owner_only(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let metadata = std::fs::symlink_metadata(path).unwrap();
    if metadata.file_type().is_symlink() {
        return;
    }
    let mode = if metadata.is_dir() { 0o700 } else { 0o600 };
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
    if metadata.is_dir() {
        for entry in std::fs::read_dir(path).unwrap() {
            owner_only(&entry.unwrap().path());
        }
    }
}

/// A root with one provider whose CLI is on PATH and whose examples pass, made owner-only.
struct Healthy {
    root: Root,
    cli: FakeCli,
    home: std::path::PathBuf,
}

impl Healthy {
    fn new() -> Self {
        let root = Root::new();
        let cli = FakeCli::new(&root, "gitx", "echo ok");
        install_provider(&root, "gitx", &simple_provider("gitx", ""), RULES);
        let home = root.outside().join("home");
        std::fs::create_dir_all(&home).unwrap();
        let healthy = Self { root, cli, home };
        healthy.lock_down();
        healthy
    }

    fn lock_down(&self) {
        #[cfg(unix)]
        owner_only(self.root.path());
    }

    fn torii(&self) -> assert_cmd::Command {
        let mut command = self.root.torii();
        command
            .env("PATH", self.cli.path_env())
            .env("HOME", &self.home)
            .env("CLAUDE_CONFIG_DIR", self.home.join(".claude"))
            .env("CODEX_HOME", self.home.join(".codex"));
        command
    }

    /// `torii doctor`: its exit code and report.
    fn doctor(&self) -> (i32, String) {
        let output = self.torii().arg("doctor").output().unwrap();
        let report = String::from_utf8(output.stdout).unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        let code = output.status.code().unwrap();
        if code != 0 {
            assert!(stderr.contains("doctor found"), "{stderr}");
        }
        (code, report)
    }

    /// `torii agent <args>` run by another copy of torii (a cargo run, an older download),
    /// whose path it returns.
    fn install_from_a_copy(&self, args: &[&str]) -> std::path::PathBuf {
        let copy = self.root.outside().join("old/torii");
        std::fs::create_dir_all(copy.parent().unwrap()).unwrap();
        std::fs::hard_link(assert_cmd::cargo::cargo_bin("torii"), &copy).unwrap();
        let output = std::process::Command::new(&copy)
            .arg("agent")
            .args(args)
            .env("TORII_CONFIG_DIR", self.root.path())
            .env("HOME", &self.home)
            .env("CLAUDE_CONFIG_DIR", self.home.join(".claude"))
            .current_dir(self.root.work())
            .output()
            .unwrap();
        assert!(output.status.success(), "{output:?}");
        self.lock_down();
        copy
    }

    fn install_agent(&self, args: &[&str]) {
        let output = self.torii().arg("agent").args(args).output().unwrap();
        assert!(output.status.success(), "{output:?}");
        self.lock_down();
    }
}

/// The lines of `report` at `level`.
fn lines<'r>(report: &'r str, level: &str) -> Vec<&'r str> {
    report
        .lines()
        .filter(|line| line.split_whitespace().next() == Some(level))
        .collect()
}

fn has(report: &str, level: &str, needle: &str) -> bool {
    lines(report, level)
        .iter()
        .any(|line| line.contains(needle))
}

#[test]
fn a_healthy_installation_has_no_problem() {
    let setup = Healthy::new();
    setup.install_agent(&["install", "claude", "--hook"]);
    let (code, report) = setup.doctor();
    assert_eq!(code, 0, "{report}");
    assert!(lines(&report, "problem").is_empty(), "{report}");
    let cli = setup.cli.bin_dir.join("gitx");
    assert!(
        has(&report, "ok", &format!("gitx: runs {}", cli.display())),
        "{report}"
    );
    assert!(has(&report, "ok", "its 2 examples pass"), "{report}");
    assert!(has(&report, "ok", "config root is owner-only"), "{report}");
    assert!(has(&report, "ok", "claude: shell hook in"), "{report}");
    assert!(
        has(&report, "ok", "the hook guards Bash, Read, Write, Edit"),
        "{report}"
    );
    assert!(has(&report, "ok", "TORII_NO_GUI is set"), "{report}");
    // The test binary is a cargo build, and clients pinned to it break on `cargo clean`.
    assert!(has(&report, "warning", "starts a cargo build"), "{report}");
    assert!(has(&report, "warning", "no torii on PATH"), "{report}");
    // Issue 40: where it comes from, and that it cannot upgrade to a signed release yet (the
    // project's release key has not been made).
    assert!(
        has(&report, "ok", "is a local build, not a release"),
        "{report}"
    );
    assert!(
        has(
            &report,
            "warning",
            "trusts no release key: `torii self upgrade` refuses"
        ),
        "{report}"
    );
}

#[test]
fn doctor_changes_nothing() {
    let setup = Healthy::new();
    let before = snapshot(setup.root.temp());
    setup.doctor();
    assert_eq!(snapshot(setup.root.temp()), before);
}

/// Every path under `dir` with its content.
fn snapshot(dir: &Path) -> Vec<(std::path::PathBuf, Vec<u8>)> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(path) = stack.pop() {
        if path.is_dir() {
            for entry in std::fs::read_dir(&path).unwrap() {
                stack.push(entry.unwrap().path());
            }
            found.push((path, Vec::new()));
        } else {
            let content = std::fs::read(&path).unwrap_or_default();
            found.push((path, content));
        }
    }
    found.sort();
    found
}

#[test]
fn a_missing_root_is_a_problem() {
    let setup = Healthy::new();
    let output = setup
        .torii()
        .env("TORII_CONFIG_DIR", setup.root.outside().join("nowhere"))
        .arg("doctor")
        .output()
        .unwrap();
    let report = String::from_utf8(output.stdout).unwrap();
    assert_eq!(output.status.code(), Some(1), "{report}");
    assert!(
        has(&report, "problem", "nowhere does not exist"),
        "{report}"
    );
    assert!(report.contains("fix: torii init"), "{report}");
    assert!(!setup.root.outside().join("nowhere").exists());
}

#[test]
fn a_provider_whose_command_is_not_on_path_is_a_problem() {
    let setup = Healthy::new();
    std::fs::remove_file(setup.cli.bin_dir.join("gitx")).unwrap();
    let (code, report) = setup.doctor();
    assert_eq!(code, 1, "{report}");
    assert!(has(&report, "problem", "gitx: "), "{report}");
    assert!(report.contains("fix: install `gitx`"), "{report}");
}

#[test]
fn failing_examples_and_invalid_policies_are_problems() {
    let setup = Healthy::new();
    setup.root.write(
        "providers/gitx/rules.yaml",
        "version: \"1.0\"\naccept:\n  - \"status\"\nexamples:\n  denied:\n    - [status]\n",
    );
    setup.lock_down();
    let (code, report) = setup.doctor();
    assert_eq!(code, 1, "{report}");
    assert!(has(&report, "problem", "gitx: 1 of 1 examples"), "{report}");
    assert!(
        report.contains("fix: torii policy check gitx --all"),
        "{report}"
    );

    setup
        .root
        .write("providers/gitx/rules.yaml", "version: \"1.0\"\naccept: [\n");
    setup.lock_down();
    let (code, report) = setup.doctor();
    assert_eq!(code, 1, "{report}");
    assert!(has(&report, "problem", "every call is denied"), "{report}");
    assert!(report.contains("fix: torii policy edit gitx"), "{report}");
}

#[test]
fn no_providers_is_a_problem() {
    let setup = Healthy::new();
    std::fs::remove_dir_all(setup.root.path().join("providers/gitx")).unwrap();
    let (code, report) = setup.doctor();
    assert_eq!(code, 1, "{report}");
    assert!(
        has(&report, "problem", "no providers installed"),
        "{report}"
    );
}

#[cfg(unix)]
#[test]
fn state_others_can_read_or_write_is_a_problem() {
    use std::os::unix::fs::PermissionsExt;
    let setup = Healthy::new();
    let env = setup.root.write("providers/gitx/.env", "TOKEN=x\n");
    std::fs::set_permissions(&env, std::fs::Permissions::from_mode(0o644)).unwrap();
    let (code, report) = setup.doctor();
    assert_eq!(code, 1, "{report}");
    assert!(has(&report, "problem", "may hold credentials"), "{report}");
    assert!(report.contains(".env"), "{report}");
    assert!(report.contains("fix: chmod -R go-rwx"), "{report}");

    setup.lock_down();
    let rules = setup.root.path().join("providers/gitx/rules.yaml");
    std::fs::set_permissions(&rules, std::fs::Permissions::from_mode(0o664)).unwrap();
    let (code, report) = setup.doctor();
    assert_eq!(code, 1, "{report}");
    assert!(
        has(&report, "problem", "could change the policy"),
        "{report}"
    );

    // Readable, not writable: a policy tells others little.
    std::fs::set_permissions(&rules, std::fs::Permissions::from_mode(0o644)).unwrap();
    let (code, report) = setup.doctor();
    assert_eq!(code, 0, "{report}");
    assert!(has(&report, "warning", "rules.yaml"), "{report}");
}

#[test]
fn an_entry_that_starts_a_binary_gone_since_is_a_problem() {
    let setup = Healthy::new();
    // Installed from another copy (a cargo run, an older download), which is then removed.
    let copy = setup.install_from_a_copy(&["install", "claude"]);

    let (code, report) = setup.doctor();
    assert_eq!(code, 0, "{report}");
    assert!(
        has(
            &report,
            "warning",
            &format!("starts {}, not this torii", copy.display())
        ),
        "{report}"
    );
    assert!(has(&report, "warning", "claude: no shell hook"), "{report}");

    std::fs::remove_file(&copy).unwrap();
    let (code, report) = setup.doctor();
    assert_eq!(code, 1, "{report}");
    assert!(
        has(
            &report,
            "problem",
            &format!("starts {}, which does not exist", copy.display())
        ),
        "{report}"
    );
    assert!(
        report.contains("fix: torii agent install claude"),
        "{report}"
    );
}

/// Issue 35: when the torii a hook runs is deleted, the client runs no hook and the agent's
/// shell reaches providers' programs freely; doctor only warned, naming "another torii".
#[test]
fn a_hook_whose_torii_is_gone_is_a_problem() {
    let setup = Healthy::new();
    let copy = setup.install_from_a_copy(&["install", "claude", "--hook"]);
    std::fs::remove_file(&copy).unwrap();

    let (code, report) = setup.doctor();
    assert_eq!(code, 1, "{report}");
    assert!(
        has(
            &report,
            "problem",
            &format!(
                "the shell hook in {} runs {}, which does not exist: the client runs no hook",
                setup.home.join(".claude/settings.json").display(),
                copy.display()
            )
        ),
        "{report}"
    );
    assert!(
        report.contains("fix: torii agent install claude --hook"),
        "{report}"
    );
    assert!(!has(&report, "warning", "runs another torii"), "{report}");
}

/// Issue 35: the hook's reach is said, and a program agents need for their own work is a
/// warning the human can weigh (here a `git` provider, as in the demo).
#[test]
fn doctor_names_what_the_hook_blocks_and_warns_for_git() {
    let setup = Healthy::new();
    setup.install_agent(&["install", "claude", "--hook"]);
    let (_, report) = setup.doctor();
    assert!(
        has(
            &report,
            "ok",
            "claude: in the agent's shell the hook blocks gitx"
        ),
        "{report}"
    );
    assert!(!has(&report, "warning", "for their own work"), "{report}");

    install_provider(&setup.root, "git", &simple_provider("git", ""), RULES);
    setup.lock_down();
    let (_, report) = setup.doctor();
    assert!(
        has(
            &report,
            "warning",
            "claude: in the agent's shell the hook blocks git, gitx"
        ),
        "{report}"
    );
    assert!(
        has(
            &report,
            "warning",
            "agents commonly run git for their own work"
        ),
        "{report}"
    );
}

#[test]
fn a_removed_hook_and_an_untrusted_codex_hook_are_problems() {
    let setup = Healthy::new();
    setup.install_agent(&["install", "codex", "--hook"]);
    let (code, report) = setup.doctor();
    assert_eq!(code, 0, "{report}");
    assert!(
        has(&report, "ok", "codex: Codex trusts the hook"),
        "{report}"
    );

    // The trust names the hook's position: another hook placed before it moves it.
    let hooks = setup.home.join(".codex/hooks.json");
    let mut value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&hooks).unwrap()).unwrap();
    let groups = value["hooks"]["PreToolUse"].as_array_mut().unwrap();
    groups.insert(
        0,
        serde_json::json!({"matcher": "x", "hooks": [{"type": "command", "command": "true"}]}),
    );
    std::fs::write(&hooks, serde_json::to_string_pretty(&value).unwrap()).unwrap();
    let (code, report) = setup.doctor();
    assert_eq!(code, 1, "{report}");
    assert!(
        has(&report, "problem", "Codex does not trust the hook"),
        "{report}"
    );

    value["hooks"]["PreToolUse"] = serde_json::json!([]);
    std::fs::write(&hooks, serde_json::to_string_pretty(&value).unwrap()).unwrap();
    let (code, report) = setup.doctor();
    assert_eq!(code, 1, "{report}");
    assert!(
        has(&report, "problem", "shell hook was removed"),
        "{report}"
    );
    assert!(
        report.contains("fix: torii agent install codex --hook"),
        "{report}"
    );
}

#[cfg(unix)]
#[test]
fn another_torii_first_on_path_is_named_with_its_version() {
    let setup = Healthy::new();
    let other = setup.cli.bin_dir.join("torii");
    std::fs::write(&other, "#!/bin/sh\necho 'torii 9.8.7'\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&other, std::fs::Permissions::from_mode(0o755)).unwrap();
    let (code, report) = setup.doctor();
    assert_eq!(code, 0, "{report}");
    assert!(
        has(
            &report,
            "warning",
            &format!("the torii on PATH is {} (v9.8.7)", other.display())
        ),
        "{report}"
    );

    // One that others could have replaced is named, never run.
    let marker = setup.root.outside().join("ran");
    std::fs::write(
        &other,
        format!(
            "#!/bin/sh
: > '{}'
echo 'torii 9.8.7'
",
            marker.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&other, std::fs::Permissions::from_mode(0o757)).unwrap();
    let (_, report) = setup.doctor();
    assert!(
        has(
            &report,
            "warning",
            "not run: it or its directory is writable"
        ),
        "{report}"
    );
    assert!(!marker.exists(), "the doctor ran a torii others can write");

    std::fs::remove_file(&other).unwrap();
    std::os::unix::fs::symlink(assert_cmd::cargo::cargo_bin("torii"), &other).unwrap();
    let (_, report) = setup.doctor();
    assert!(has(&report, "ok", "torii on PATH is"), "{report}");
}

#[test]
fn a_display_or_headless_mode_is_reported() {
    let setup = Healthy::new();
    let output = setup
        .torii()
        .env_remove("TORII_NO_GUI")
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .arg("doctor")
        .output()
        .unwrap();
    let report = String::from_utf8(output.stdout).unwrap();
    if cfg!(feature = "gui") {
        assert!(has(&report, "warning", "no display"), "{report}");
        assert!(report.contains("TORII_NO_GUI=1"), "{report}");
    }
    let output = setup
        .torii()
        .env_remove("TORII_NO_GUI")
        .env("DISPLAY", ":42")
        .arg("doctor")
        .output()
        .unwrap();
    let report = String::from_utf8(output.stdout).unwrap();
    if cfg!(feature = "gui") {
        assert!(has(&report, "ok", "DISPLAY=:42"), "{report}");
    }
}
