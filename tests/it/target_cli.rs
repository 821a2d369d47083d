//! `torii target …` through the real binary ("Targets" in the control-plane CLI chapter,
//! "Configurar Kubernetes", "Configurar AWS por profile e aliases", "Ativação temporária de
//! targets"). `target add kubectl` runs the real `kubectl` against a kubeconfig written here.

use std::path::{Path, PathBuf};

use predicates::prelude::*;
use torii::registry::Registry;

use crate::common::Root;
use crate::fake_kube::real_kubectl;
use crate::leases::{HML_TARGET, STATE, kubectl_root, snapshot_except_leases};

/// Adds the `aws_profile` provider of the book's example to `root`.
fn with_aws_profile(root: &Root) {
    root.write(
        "providers/aws-profile/provider.yaml",
        "version: \"1\"\nname: aws-profile\ntool: aws_profile\ndescription: AWS by profile.\n\
         command: aws\ntargeting:\n  mode: aws_profile\nauth:\n  identity:\n    command: aws\n\
         \x20   args: [sts, get-caller-identity]\n    field: Account\n  profile_env: AWS_PROFILE\n",
    );
}

/// The audit log without the epoch column.
fn audit(root: &Root) -> Vec<String> {
    crate::common::audit_lines(root)
        .iter()
        .map(|line| line.split_once(" | ").unwrap().1.to_string())
        .collect()
}

fn state_text(root: &Root) -> String {
    std::fs::read_to_string(root.path().join(STATE)).unwrap()
}

fn stdout_of(assert: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&assert.get_output().stdout).into_owned()
}

// ---------------------------------------------------------------------------------------
// target add kubectl: the context is checked with the real kubectl

/// A kubeconfig with two contexts; listing contexts needs no server.
fn kubeconfig(root: &Root) -> PathBuf {
    root.write_outside(
        "kubeconfig.yaml",
        "apiVersion: v1\nkind: Config\nclusters:\n\
         - name: a\n  cluster: {server: \"https://127.0.0.1:1\"}\n\
         - name: b\n  cluster: {server: \"https://127.0.0.1:2\"}\n\
         users:\n- name: u\n  user: {token: not-a-secret}\n\
         contexts:\n\
         - name: lab-context-a\n  context: {cluster: a, user: u}\n\
         - name: lab-context-b\n  context: {cluster: b, user: u}\n\
         current-context: lab-context-a\n",
    )
}

/// `torii` with the real kubectl's directory first on `PATH` and the test kubeconfig.
fn torii_with_kubectl(root: &Root, kubectl: &Path) -> assert_cmd::Command {
    let mut dirs = vec![kubectl.parent().unwrap().to_path_buf()];
    dirs.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    let mut command = root.torii();
    command
        .env("PATH", std::env::join_paths(dirs).unwrap())
        .env("KUBECONFIG", kubeconfig(root));
    command
}

#[test]
#[ignore = "needs kubectl from PyPI; run by ./scripts/test.sh"]
fn add_kubectl_writes_a_target_for_an_existing_context() {
    let kubectl = real_kubectl();
    let root = kubectl_root();
    let assert = torii_with_kubectl(&root, &kubectl)
        .args([
            "target",
            "add",
            "kubectl",
            "lab",
            "--context",
            "lab-context-b",
        ])
        .args(["--provider", "idp", "--scope", "team", "--expect", "123456"])
        .assert()
        .success()
        .stderr(predicate::str::contains("starts inactive"))
        .stderr(predicate::str::contains("restart the MCP server"));
    let path = root
        .path()
        .join("providers/kubectl/targets/lab/target.yaml");
    assert_eq!(stdout_of(&assert).trim(), path.display().to_string());

    let registry = Registry::load(root.path()).unwrap();
    let lab = registry.by_tool("kubectl").unwrap().target("lab").unwrap();
    let config = lab.config();
    assert_eq!(config.context.as_deref(), Some("lab-context-b"));
    assert_eq!(config.identity.provider, "idp");
    assert_eq!(lab.scope(), "team");
    assert_eq!(config.identity.expect.as_deref(), Some("123456"));
    assert_eq!(config.region, None);
    // Written like every state file: owner-only.
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&path).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600);
    // A new alias has no lease.
    assert!(!root.path().join(STATE).exists());
}

#[test]
#[ignore = "needs kubectl from PyPI; run by ./scripts/test.sh"]
fn add_kubectl_refuses_a_context_the_kubeconfig_does_not_have() {
    let kubectl = real_kubectl();
    let root = kubectl_root();
    let before = snapshot_except_leases(root.path());
    torii_with_kubectl(&root, &kubectl)
        .args([
            "target",
            "add",
            "kubectl",
            "lab",
            "--context",
            "lab-context-c",
        ])
        .args(["--provider", "idp"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("--context"))
        .stderr(predicate::str::contains("lab-context-c"))
        .stderr(predicate::str::contains("nothing was written"));
    assert!(!root.path().join("providers/kubectl/targets/lab").exists());
    let mut after = snapshot_except_leases(root.path());
    after.retain(|path, _| !path.ends_with("kubeconfig.yaml"));
    assert_eq!(after, before);
}

#[test]
fn add_kubectl_without_kubectl_on_path_writes_nothing() {
    let root = kubectl_root();
    let empty = tempfile::tempdir().unwrap();
    root.torii()
        .env("PATH", empty.path())
        .args(["target", "add", "kubectl", "lab", "--context", "c"])
        .args(["--provider", "idp"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "could not find the executable `kubectl` in PATH",
        ));
    assert!(!root.path().join("providers/kubectl/targets/lab").exists());
}

#[test]
fn add_refuses_an_existing_alias() {
    let root = kubectl_root();
    root.torii()
        .args(["target", "add", "kubectl", "dev", "--context", "c"])
        .args(["--provider", "idp"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("already has a target `dev`"));
    // A leftover directory without target.yaml is not overwritten either.
    with_aws_profile(&root);
    root.write("providers/aws-profile/targets/old/.env", "X=1\n");
    root.torii()
        .args(["target", "add", "aws_profile", "old", "--profile", "p"])
        .args(["--account-id", "111122223333"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "already exists without a target.yaml",
        ));
}

// ---------------------------------------------------------------------------------------
// target add aws_profile, and flags checked against the provider's mode

#[test]
fn add_aws_profile_binds_profile_account_and_region_with_the_profile_as_scope() {
    let root = kubectl_root();
    with_aws_profile(&root);
    root.torii()
        .args(["target", "add", "aws_profile", "producao"])
        .args([
            "--profile",
            "empresa-producao",
            "--account-id",
            "111122223333",
        ])
        .args(["--region", "sa-east-1"])
        .assert()
        .success();
    let registry = Registry::load(root.path()).unwrap();
    let producao = registry
        .by_tool("aws_profile")
        .unwrap()
        .target("producao")
        .unwrap();
    let config = producao.config();
    assert_eq!(config.identity.provider, "aws_profile");
    assert_eq!(config.identity.profile.as_deref(), Some("empresa-producao"));
    assert_eq!(config.identity.expect.as_deref(), Some("111122223333"));
    assert_eq!(config.region.as_deref(), Some("sa-east-1"));
    assert_eq!(producao.scope(), "empresa-producao");

    let assert = root
        .torii()
        .args(["target", "list", "aws_profile"])
        .assert()
        .success();
    let listed = stdout_of(&assert);
    assert!(
        listed.contains("producao")
            && listed.contains("profile=empresa-producao region=sa-east-1")
            && listed.contains("111122223333"),
        "{listed}"
    );
}

#[test]
fn add_refuses_flags_its_mode_does_not_take_naming_the_argument() {
    let root = kubectl_root();
    with_aws_profile(&root);
    let account = ["--account-id", "111122223333"];
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["kubectl", "lab", "--context", "c"],
            "--provider: required",
        ),
        (
            vec!["kubectl", "lab", "--provider", "idp"],
            "--context: required",
        ),
        (
            vec![
                "kubectl",
                "lab",
                "--context",
                "c",
                "--provider",
                "idp",
                "--profile",
                "p",
            ],
            "--profile: not accepted for `kubectl_context` targets",
        ),
        (
            vec!["kubectl", "lab", "--context", "c", "--provider", "nope"],
            "--provider: ",
        ),
        (
            vec!["kubectl", "lab", "--context", "c", "--provider", "kubectl"],
            "--provider: ",
        ),
        (
            vec![
                "kubectl",
                "lab",
                "--context",
                "two\tlines",
                "--provider",
                "idp",
            ],
            "--context: ",
        ),
        (
            vec!["kubectl", "../up", "--context", "c", "--provider", "idp"],
            "<ALIAS>: ",
        ),
        (
            vec!["aws_profile", "prd", "--profile", "p"],
            "--account-id: required",
        ),
        (
            vec![
                "aws_profile",
                "prd",
                "--profile",
                "p",
                "--account-id",
                "1234",
            ],
            "--account-id: ",
        ),
        (
            [
                vec!["aws_profile", "prd", "--profile", "p", "--context", "c"],
                account.to_vec(),
            ]
            .concat(),
            "--context: not accepted for `aws_profile` targets",
        ),
        (
            [
                vec!["aws_profile", "prd", "--profile", "p", "--provider", "idp"],
                account.to_vec(),
            ]
            .concat(),
            "--provider: not accepted",
        ),
        (
            [
                vec!["aws_profile", "prd", "--profile", "p", "--expect", "1"],
                account.to_vec(),
            ]
            .concat(),
            "--expect: not accepted",
        ),
        (
            [
                vec!["aws_profile", "prd", "--profile", "has space"],
                account.to_vec(),
            ]
            .concat(),
            "--scope: ",
        ),
        (vec!["idp", "x"], "`idp` is not target-aware"),
        (
            vec!["nope", "x"],
            "no installed provider publishes the tool `nope`",
        ),
    ];
    let before = snapshot_except_leases(root.path());
    for (args, needle) in cases {
        root.torii()
            .args(["target", "add"])
            .args(&args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(needle));
        assert_eq!(snapshot_except_leases(root.path()), before, "{args:?}");
    }
}

// ---------------------------------------------------------------------------------------
// list and show: bindings on the human control plane

#[test]
fn list_and_show_print_the_binding_and_the_lease() {
    let root = kubectl_root();
    let assert = root
        .torii()
        .args(["target", "list", "kubectl"])
        .assert()
        .success();
    let listed = stdout_of(&assert);
    let lines: Vec<&str> = listed.lines().collect();
    assert_eq!(lines.len(), 3, "{listed}");
    assert!(lines[0].starts_with("ALIAS"), "{listed}");
    assert!(lines[1].starts_with("dev ") && lines[1].contains("context=ctx-a"));
    assert!(lines[2].starts_with("hml ") && lines[2].contains("context=ctx-b"));

    let shown = stdout_of(
        &root
            .torii()
            .args(["target", "show", "kubectl", "dev"])
            .assert(),
    );
    for needle in [
        "context            ctx-a",
        "identity provider  idp",
        "lease              inactive",
    ] {
        assert!(shown.contains(needle), "{needle:?} in {shown}");
    }
    root.torii_at_terminal()
        .args(["target", "activate", "kubectl", "dev", "--for", "90"])
        .assert()
        .success();
    let shown = stdout_of(
        &root
            .torii()
            .args(["target", "show", "kubectl", "dev"])
            .assert(),
    );
    assert!(shown.contains("lease              active until"), "{shown}");

    for (args, needle) in [
        (
            vec!["show", "kubectl", "nope"],
            "<ALIAS>: `kubectl` has no target `nope`",
        ),
        (vec!["list", "idp"], "`idp` is not target-aware"),
        (
            vec!["status", "nope"],
            "no installed provider publishes the tool `nope`",
        ),
    ] {
        root.torii()
            .arg("target")
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(needle));
    }
}

// ---------------------------------------------------------------------------------------
// activate, status, clear, remove

#[test]
fn activate_defaults_to_default_target_minutes_and_audits_only_the_alias() {
    let root = kubectl_root();
    root.write("settings.yaml", "default_target_minutes: 7\n");
    let before = torii::leases::unix_now().unwrap();
    root.torii_at_terminal()
        .args(["target", "activate", "kubectl", "dev"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("dev active until "))
        .stdout(predicate::str::contains("(7 min)"))
        .stderr(predicate::str::contains("needs no restart"));
    let after = torii::leases::unix_now().unwrap();
    let text = state_text(&root);
    let expires_at: u64 = text
        .lines()
        .find_map(|line| line.trim().strip_prefix("expires_at: "))
        .unwrap()
        .parse()
        .unwrap();
    assert!((before + 420..=after + 420).contains(&expires_at), "{text}");
    assert_eq!(
        audit(&root),
        ["kubectl/dev | target-access-replaced | dev | for=7min"]
    );
    let log = crate::common::audit_lines(&root).join("\n");
    assert!(!log.contains("ctx-a") && !log.contains("sha256"), "{log}");
}

/// An agent's shell tool runs commands with no terminal on their standard input; a lease is
/// the human's decision (regression: the agent's shell granted itself 24 hours on `prod`).
#[test]
fn activate_refuses_without_a_terminal_and_grants_nothing() {
    let root = kubectl_root();
    for stdin in ["null", "pipe"] {
        let mut command = root.torii();
        command.args(["target", "activate", "kubectl", "dev", "--for", "1440"]);
        if stdin == "null" {
            command.pipe_stdin("/dev/null").unwrap();
        } else {
            command.write_stdin("y\n");
        }
        command
            .assert()
            .code(1)
            .stderr(predicate::str::contains("only a person at a terminal"));
    }
    assert!(!root.path().join(STATE).exists());
    assert!(audit(&root).is_empty());
}

#[test]
fn activate_refuses_0_and_1441_minutes_and_writes_nothing() {
    let root = kubectl_root();
    for minutes in ["0", "1441", "-5", "ten"] {
        root.torii_at_terminal()
            .args(["target", "activate", "kubectl", "dev"])
            .arg(format!("--for={minutes}"))
            .assert()
            .code(2)
            .stderr(predicate::str::contains("--for"))
            .stderr(predicate::str::contains("1440"));
    }
    assert!(!root.path().join(STATE).exists());
    assert!(audit(&root).is_empty());
    // A settings value out of range is refused by settings.yaml itself.
    root.write("settings.yaml", "default_target_minutes: 1441\n");
    root.torii_at_terminal()
        .args(["target", "activate", "kubectl", "dev"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("default_target_minutes"));
    assert!(!root.path().join(STATE).exists());
}

#[test]
fn activate_replaces_by_default_and_add_keeps_the_others_with_a_warning() {
    let root = kubectl_root();
    root.torii_at_terminal()
        .args(["target", "activate", "kubectl", "dev", "--for", "30"])
        .assert()
        .success();
    root.torii_at_terminal()
        .args([
            "target", "activate", "kubectl", "hml", "--for", "20", "--add",
        ])
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "warning: 2 aliases of `kubectl` are active (dev, hml)",
        ));
    let status = stdout_of(&root.torii().args(["target", "status", "kubectl"]).assert());
    let rows: Vec<&str> = status.lines().skip(1).collect();
    assert_eq!(rows.len(), 2, "{status}");
    assert!(rows[0].starts_with("dev ") && rows[0].ends_with("active"));
    assert!(rows[1].starts_with("hml ") && rows[1].ends_with("active"));

    root.torii_at_terminal()
        .args(["target", "activate", "kubectl", "hml", "--for", "5"])
        .assert()
        .success();
    let status = stdout_of(&root.torii().args(["target", "status", "kubectl"]).assert());
    assert_eq!(status.lines().count(), 2, "{status}");
    assert!(status.lines().nth(1).unwrap().starts_with("hml "));
    assert_eq!(
        audit(&root),
        [
            "kubectl/dev | target-access-replaced | dev | for=30min",
            "kubectl/hml | target-access-added | hml | for=20min active=2",
            "kubectl/hml | target-access-replaced | hml | for=5min",
        ]
    );
}

#[test]
fn status_is_read_only_and_marks_a_lease_whose_target_yaml_changed() {
    let root = kubectl_root();
    root.torii()
        .args(["target", "status", "kubectl"])
        .assert()
        .success()
        .stdout("")
        .stderr(predicate::str::contains("no active leases for `kubectl`"));
    assert!(
        !root.path().join(STATE).exists(),
        "status wrote a state file"
    );

    root.torii_at_terminal()
        .args(["target", "activate", "kubectl", "dev", "--for", "30"])
        .assert()
        .success();
    root.torii_at_terminal()
        .args([
            "target", "activate", "kubectl", "hml", "--for", "30", "--add",
        ])
        .assert()
        .success();
    root.write(
        "providers/kubectl/targets/hml/target.yaml",
        &HML_TARGET.replace("ctx-b", "ctx-other"),
    );
    let state = state_text(&root);
    let status = stdout_of(&root.torii().args(["target", "status", "kubectl"]).assert());
    let hml = status
        .lines()
        .find(|line| line.starts_with("hml "))
        .unwrap();
    assert!(hml.ends_with("invalid: target.yaml changed"), "{status}");
    assert!(
        status
            .lines()
            .any(|line| line.starts_with("dev ") && line.ends_with("active"))
    );
    assert_eq!(state_text(&root), state);
}

#[test]
fn clear_rewrites_a_corrupt_state_file_and_touches_nothing_else() {
    let root = kubectl_root();
    root.torii_at_terminal()
        .args(["target", "activate", "kubectl", "dev", "--for", "30"])
        .assert()
        .success();
    root.write(
        STATE,
        "version: \"1\"\nrevision: 3\nentries:\n  - alias: dev\n    bad",
    );
    root.torii()
        .args(["target", "status", "kubectl"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(STATE))
        .stderr(predicate::str::contains("torii target clear kubectl"));
    let before = snapshot_except_leases(root.path());

    root.torii()
        .args(["target", "clear", "kubectl"])
        .assert()
        .success()
        .stderr(predicate::str::contains("cleared every lease of `kubectl`"));
    assert_eq!(snapshot_except_leases(root.path()), before);
    assert!(state_text(&root).ends_with("entries: []\n"));
    root.torii()
        .args(["target", "status", "kubectl"])
        .assert()
        .success()
        .stderr(predicate::str::contains("no active leases"));
    assert_eq!(
        audit(&root).last().unwrap(),
        "kubectl | target-access-cleared | - | all"
    );
}

#[test]
fn remove_needs_force_then_revokes_the_lease_and_deletes_the_alias() {
    let root = kubectl_root();
    root.torii_at_terminal()
        .args(["target", "activate", "kubectl", "dev", "--for", "30"])
        .assert()
        .success();
    let dir = root.path().join("providers/kubectl/targets/dev");
    root.torii()
        .args(["target", "remove", "kubectl", "dev"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--force"));
    assert!(dir.join("target.yaml").exists());
    assert!(state_text(&root).contains("alias: \"dev\""));

    root.torii()
        .args(["target", "remove", "kubectl", "dev", "--force"])
        .assert()
        .success()
        .stdout(format!("{}\n", dir.display()))
        .stderr(predicate::str::contains("restart the MCP server"));
    assert!(!dir.exists());
    assert!(!state_text(&root).contains("dev"));
    // The identity provider's credential bucket is not the alias's to delete.
    assert!(
        root.path()
            .join("providers/idp/identities/dev/auth/credentials.env")
            .exists()
    );
    assert_eq!(
        audit(&root).last().unwrap(),
        "kubectl/dev | target-access-revoked | dev | target-removed"
    );
}

#[test]
fn help_covers_every_target_command() {
    let root = Root::new();
    let assert = root.torii().args(["target", "--help"]).assert().success();
    let help = stdout_of(&assert);
    for command in [
        "add", "list", "show", "activate", "status", "clear", "remove",
    ] {
        assert!(help.contains(command), "{command} in {help}");
    }
    root.torii()
        .args(["help", "target", "activate"])
        .assert()
        .success()
        .stdout(predicate::str::contains("--for <MINUTES>"))
        .stdout(predicate::str::contains("--add"));
}
