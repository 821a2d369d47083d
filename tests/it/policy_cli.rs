//! `torii policy show | edit | check` through the real binary. The editor is a script the test
//! writes (`$EDITOR`/`$VISUAL`), so every edit is scripted: a bad regex, bad YAML, an empty
//! file, an unchanged file, failing examples, a target policy created with `--create`, and the
//! reopen question on a pseudo-terminal.
#![cfg(unix)]

use std::path::{Path, PathBuf};

use predicates::prelude::*;

use crate::common::Root;

/// The official packages' provider files, as installed.
const AWS: &str = include_str!("../../examples/providers/aws/provider.yaml");
const KUBECTL: &str = include_str!("../../examples/providers/kubectl/provider.yaml");
const LAB: &str = "version: \"1\"\nname: lab\ncontext: lab-ctx\nidentity:\n  provider: aws\n";
const AWS_RULES: &str = "version: \"1.0\"\ndeny:\n  - \"ecs execute-command\"\naccept:\n  - \"s3 ls\"\n  - \"s3\"\nexamples:\n  allowed:\n    - [s3, ls]\n  denied:\n    - [ecs, execute-command, --task, t]\n  unresolved:\n    - [s3, cp, a, b]\n";
const KUBECTL_RULES: &str = "deny: [exec]\naccept: [\"get pods\"]\n";

/// A root with aws (min 2 tokens) and kubectl (target `lab`) and their shared rules.
fn setup() -> Root {
    let root = Root::new();
    root.write("providers/aws/provider.yaml", AWS);
    root.write("providers/aws/rules.yaml", AWS_RULES);
    root.write("providers/kubectl/provider.yaml", KUBECTL);
    root.write("providers/kubectl/rules.yaml", KUBECTL_RULES);
    root.write("providers/kubectl/targets/lab/target.yaml", LAB);
    root
}

fn path(root: &Root, relative: &str) -> PathBuf {
    root.path().join(relative)
}

/// An editor script that replaces the draft (its last argument) with `content`, and records
/// each launch in `<root>/editor-runs`.
fn editor_writing(root: &Root, name: &str, content: &str) -> PathBuf {
    let new = root.write(&format!("editor/{name}.yaml"), content);
    script(
        root,
        name,
        &format!(
            "echo run >> '{}'\nfor last; do :; done\ncat '{}' > \"$last\"\n",
            root.path().join("editor-runs").display(),
            new.display()
        ),
    )
}

fn script(root: &Root, name: &str, body: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = root.write(&format!("editor/{name}"), &format!("#!/bin/sh\n{body}"));
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

fn edit(root: &Root, editor: &Path, args: &[&str]) -> assert_cmd::assert::Assert {
    root.torii()
        .env_remove("VISUAL")
        .env("EDITOR", editor)
        .args(["policy", "edit"])
        .args(args)
        .assert()
}

fn runs(root: &Root) -> usize {
    std::fs::read_to_string(root.path().join("editor-runs"))
        .map(|text| text.lines().count())
        .unwrap_or(0)
}

#[test]
fn show_prints_the_path_and_the_file_and_warns_about_ignored_accepts() {
    let root = setup();
    let rules = path(&root, "providers/aws/rules.yaml");
    root.torii()
        .args(["policy", "show", "aws"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with(format!(
            "# shared policy of aws: {}\n",
            rules.display()
        )))
        .stdout(predicate::str::contains("minimum_accept_tokens 2"))
        .stdout(predicate::str::ends_with(AWS_RULES))
        .stderr(predicate::str::contains(
            "warning: accept \"s3\" has fewer than minimum_accept_tokens (2) tokens and is ignored",
        ));
}

#[test]
fn show_of_a_target_names_the_file_that_governs_it() {
    let root = setup();
    root.torii()
        .args(["policy", "show", "kubectl", "lab"])
        .assert()
        .success()
        .stdout(predicate::str::contains(format!(
            "target lab of kubectl has no policy of its own; it uses the shared policy: {}",
            path(&root, "providers/kubectl/rules.yaml").display()
        )));
    root.write(
        "providers/kubectl/targets/lab/rules.yaml",
        "accept: [logs]\n",
    );
    root.torii()
        .args(["policy", "show", "kubectl", "lab"])
        .assert()
        .success()
        .stdout(predicate::str::contains(format!(
            "policy of target lab of kubectl (replaces the shared one): {}",
            path(&root, "providers/kubectl/targets/lab/rules.yaml").display()
        )))
        .stdout(predicate::str::ends_with("accept: [logs]\n"));
}

#[test]
fn missing_providers_targets_and_rules_are_named() {
    let root = setup();
    std::fs::remove_file(path(&root, "providers/aws/rules.yaml")).unwrap();
    root.torii()
        .args(["policy", "show", "aws"])
        .assert()
        .failure()
        .stderr(format!(
            "torii: rules file not found: {}\n",
            path(&root, "providers/aws/rules.yaml").display()
        ));
    root.torii()
        .args(["policy", "show", "gcloud"])
        .assert()
        .failure()
        .stderr("torii: no installed provider \"gcloud\" (installed: aws, kubectl)\n");
    root.torii()
        .args(["policy", "show", "kubectl", "prod"])
        .assert()
        .failure()
        .stderr("torii: kubectl has no target \"prod\" (configured: lab)\n");
    root.torii()
        .args(["policy", "show", "aws", "lab"])
        .assert()
        .failure()
        .stderr("torii: aws is not target-aware, so it has no target \"lab\"\n");
}

#[test]
fn check_prints_decision_source_and_rule_without_running_anything() {
    let root = setup();
    let rules = path(&root, "providers/aws/rules.yaml");
    let check = |args: &[&str]| {
        root.torii()
            .args(["policy", "check", "aws", "--"])
            .args(args)
            .assert()
            .success()
    };
    check(&["ecs", "execute-command", "--task", "t"]).stdout(format!(
        "decision: denied\nsource: explicit-deny\nrule: ecs execute-command\npolicy: {}\n",
        rules.display()
    ));
    check(&["s3", "ls", "s3://bucket"]).stdout(format!(
        "decision: allowed\nsource: rules\nrule: s3 ls\npolicy: {}\n",
        rules.display()
    ));
    check(&["s3", "cp", "a", "b"])
        .stdout(format!(
            "decision: unresolved\nsource: -\nrule: -\npolicy: {}\n",
            rules.display()
        ))
        .stderr(predicate::str::contains(
            "note: accept \"s3\" would match but is ignored",
        ));

    let output = root
        .torii()
        .args([
            "policy", "check", "aws", "--json", "--", "s3", "cp", "a", "b",
        ])
        .output()
        .unwrap();
    assert!(output.status.success());
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        value,
        serde_json::json!({
            "decision": "unresolved",
            "source": null,
            "rule": null,
            "policy": rules.display().to_string(),
            "ignored_accepts": ["s3"],
        })
    );
}

#[test]
fn check_reports_forbidden_arguments_and_target_policies() {
    let root = setup();
    root.write(
        "providers/snow/provider.yaml",
        "version: \"1\"\nname: snow\ntool: snow\ndescription: d\ncommand: snow\npolicy:\n  forbidden_args: [\"-f\"]\n",
    );
    root.write("providers/snow/rules.yaml", "accept: [\"sql -q\"]\n");
    let output = root
        .torii()
        .args([
            "policy", "check", "snow", "--json", "--", "sql", "-f", "x.sql",
        ])
        .output()
        .unwrap();
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(value["decision"], "denied");
    assert_eq!(value["source"], "forbidden-arg");
    assert_eq!(value["rule"], "-f");

    root.write(
        "providers/kubectl/targets/lab/rules.yaml",
        "deny: [\"get pods\"]\n",
    );
    root.torii()
        .args(["policy", "check", "kubectl", "lab", "--", "get", "pods"])
        .assert()
        .success()
        .stdout(predicate::str::contains("decision: denied"));
    root.torii()
        .args(["policy", "check", "kubectl", "--", "get", "pods"])
        .assert()
        .success()
        .stdout(predicate::str::contains("decision: allowed"));
    // Red-team finding: a locked flag was reported `allowed`, which the server refuses.
    let output = root
        .torii()
        .args(["policy", "check", "kubectl", "--json", "--", "get", "pods"])
        .arg("--kubeconfig=/x")
        .output()
        .unwrap();
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(value["decision"], "denied");
    assert_eq!(value["source"], "locked-option");
    assert_eq!(value["rule"], "--kubeconfig");
}

#[test]
fn check_all_verifies_every_example() {
    let root = setup();
    root.torii()
        .args(["policy", "check", "aws", "--all"])
        .assert()
        .success()
        .stdout(predicate::str::contains("3 examples, 0 failed"));
    root.write(
        "providers/aws/rules.yaml",
        &AWS_RULES.replace("    - [s3, cp, a, b]", "    - [s3, ls, x]"),
    );
    root.torii()
        .args(["policy", "check", "aws", "--all"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(format!(
            "FAIL {}:13:7: examples.unresolved[0] [\"s3\", \"ls\", \"x\"]: expected unresolved, but it is allowed by accept \"s3 ls\"",
            path(&root, "providers/aws/rules.yaml").display()
        )))
        .stdout(predicate::str::contains("3 examples, 1 failed"))
        .stderr(predicate::str::contains("1 of 3 examples fail in"));
    let output = root
        .torii()
        .args(["policy", "check", "aws", "--all", "--json"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let value: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(value["examples"], 3);
    assert_eq!(value["failures"][0]["expected"], "unresolved");
    assert_eq!(value["failures"][0]["decision"], "allowed");
    assert_eq!(value["failures"][0]["line"], 13);
}

#[test]
fn edit_replaces_the_live_file_with_a_valid_draft() {
    let root = setup();
    let new = "version: \"1.0\"\ndeny: [\"ecs execute-command\"]\naccept: [\"s3 ls\", \"ec2 describe-instances\"]\n";
    let editor = editor_writing(&root, "good", new);
    edit(&root, &editor, &["aws"])
        .success()
        .stderr(predicate::str::contains(format!(
            "updated {}",
            path(&root, "providers/aws/rules.yaml").display()
        )));
    assert_eq!(
        std::fs::read_to_string(path(&root, "providers/aws/rules.yaml")).unwrap(),
        new
    );
    assert!(!path(&root, "providers/aws/rules.draft.yaml").exists());
    assert_eq!(runs(&root), 1);
}

/// A rejected draft leaves the live file untouched and is kept where the error says.
fn rejected(content: &str, reason: &str) {
    let root = setup();
    let live = path(&root, "providers/aws/rules.yaml");
    let draft = path(&root, "providers/aws/rules.draft.yaml");
    let editor = editor_writing(&root, "bad", content);
    edit(&root, &editor, &["aws"])
        .failure()
        .stderr(predicate::str::contains(reason))
        .stderr(predicate::str::contains(format!(
            "{} was not changed; the rejected draft is kept at {}",
            live.display(),
            draft.display()
        )));
    assert_eq!(std::fs::read_to_string(&live).unwrap(), AWS_RULES);
    assert_eq!(std::fs::read_to_string(&draft).unwrap(), content);
}

#[test]
fn edit_rejects_an_invalid_regex() {
    rejected(
        "deny:\n  - \"/(unclosed/\"\n",
        "rules.draft.yaml:2:5: deny[0]: invalid regex \"/(unclosed/\": unclosed group",
    );
}

#[test]
fn edit_rejects_malformed_yaml() {
    rejected("deny: [\"s3 ls\"\naccept: []\n", "rules.draft.yaml:2:");
}

#[test]
fn edit_rejects_an_empty_file() {
    rejected("", "the draft is empty");
    rejected("# nothing left\n\n", "the draft is empty");
}

#[test]
fn edit_rejects_a_draft_whose_examples_fail() {
    rejected(
        "accept: [\"s3 ls\"]\nexamples:\n  denied:\n    - [s3, ls]\n",
        "rules.draft.yaml:4:7: examples.denied[0] [\"s3\", \"ls\"]: expected denied, but it is allowed by accept \"s3 ls\"",
    );
}

#[test]
fn edit_without_changes_writes_nothing() {
    let root = setup();
    let live = path(&root, "providers/aws/rules.yaml");
    let before = crate::common::file_identity(&std::fs::metadata(&live).unwrap());
    let editor = script(
        &root,
        "noop",
        &format!(
            "echo run >> '{}'\n",
            root.path().join("editor-runs").display()
        ),
    );
    edit(&root, &editor, &["aws"])
        .success()
        .stderr(predicate::str::contains(format!(
            "no changes; {} left as it was",
            live.display()
        )));
    assert_eq!(std::fs::read_to_string(&live).unwrap(), AWS_RULES);
    assert_eq!(
        crate::common::file_identity(&std::fs::metadata(&live).unwrap()),
        before
    );
    assert!(!path(&root, "providers/aws/rules.draft.yaml").exists());
    assert_eq!(runs(&root), 1);
}

#[test]
fn a_kept_draft_is_resumed_by_the_next_edit() {
    let root = setup();
    let bad = editor_writing(&root, "bad", "deny: [\n");
    edit(&root, &bad, &["aws"]).failure();
    // This editor fixes whatever draft it is given by appending the closing bracket.
    let fix = script(
        &root,
        "fix",
        "for last; do :; done\nprintf ']\\n' >> \"$last\"\n",
    );
    edit(&root, &fix, &["aws"])
        .success()
        .stderr(predicate::str::contains(
            "resuming the draft kept from an earlier edit",
        ));
    assert_eq!(
        std::fs::read_to_string(path(&root, "providers/aws/rules.yaml")).unwrap(),
        "deny: [\n]\n"
    );
}

#[test]
fn a_failing_editor_changes_nothing() {
    let root = setup();
    let editor = script(&root, "crash", "exit 3\n");
    edit(&root, &editor, &["aws"])
        .failure()
        .stderr(predicate::str::contains("exited with exit status: 3"));
    assert_eq!(
        std::fs::read_to_string(path(&root, "providers/aws/rules.yaml")).unwrap(),
        AWS_RULES
    );
}

#[test]
fn a_target_policy_needs_create_and_then_replaces_the_shared_one() {
    let root = setup();
    let own = path(&root, "providers/kubectl/targets/lab/rules.yaml");
    let shared = path(&root, "providers/kubectl/rules.yaml");
    let editor = editor_writing(&root, "lab", "deny: [exec]\naccept: [logs]\n");
    edit(&root, &editor, &["kubectl", "lab"])
        .failure()
        .stderr(predicate::str::contains(format!(
            "target lab of kubectl has no policy of its own; it uses {}. Pass --create to create {}",
            shared.display(),
            own.display()
        )));
    assert_eq!(runs(&root), 0);
    assert!(!own.exists());

    // Starting from the shared copy and saving it unchanged creates nothing.
    let noop = script(&root, "noop", "exit 0\n");
    edit(&root, &noop, &["kubectl", "lab", "--create"])
        .success()
        .stderr(predicate::str::contains("not created"));
    assert!(!own.exists());

    edit(&root, &editor, &["kubectl", "lab", "--create"])
        .success()
        .stderr(predicate::str::contains(format!(
            "created {}",
            own.display()
        )));
    assert_eq!(
        std::fs::read_to_string(&own).unwrap(),
        "deny: [exec]\naccept: [logs]\n"
    );
    assert_eq!(std::fs::read_to_string(&shared).unwrap(), KUBECTL_RULES);
    root.torii()
        .args(["policy", "check", "kubectl", "lab", "--", "logs", "api-0"])
        .assert()
        .success()
        .stdout(predicate::str::contains("decision: allowed"));

    edit(&root, &editor, &["kubectl", "prod", "--create"])
        .failure()
        .stderr(predicate::str::contains("kubectl has no target \"prod\""));
}

#[test]
fn the_draft_starts_from_the_live_file_and_visual_wins_over_editor() {
    let root = setup();
    let seen = root.path().join("seen.yaml");
    let visual = script(
        &root,
        "visual",
        &format!("for last; do :; done\ncp \"$last\" '{}'\n", seen.display()),
    );
    let editor = editor_writing(&root, "editor", "deny: []\n");
    root.torii()
        .env("VISUAL", &visual)
        .env("EDITOR", &editor)
        .args(["policy", "edit", "aws"])
        .assert()
        .success()
        .stderr(predicate::str::contains("no changes"));
    assert_eq!(std::fs::read_to_string(&seen).unwrap(), AWS_RULES);
    assert_eq!(runs(&root), 0);
}

#[test]
fn editor_words_are_split_without_a_shell() {
    let root = setup();
    let new = root.write("editor/new.yaml", "accept: [\"s3 ls\"]\n");
    let editor = script(
        &root,
        "waiting",
        &format!(
            "[ \"$1\" = --wait ] || exit 9\ncat '{}' > \"$2\"\n",
            new.display()
        ),
    );
    root.torii()
        .env_remove("VISUAL")
        .env("EDITOR", format!("{} --wait", editor.display()))
        .args(["policy", "edit", "aws"])
        .assert()
        .success();
    assert_eq!(
        std::fs::read_to_string(path(&root, "providers/aws/rules.yaml")).unwrap(),
        "accept: [\"s3 ls\"]\n"
    );
}

#[test]
fn edit_of_a_missing_shared_policy_needs_create() {
    let root = setup();
    let live = path(&root, "providers/aws/rules.yaml");
    std::fs::remove_file(&live).unwrap();
    let editor = editor_writing(&root, "new", "accept: [\"s3 ls\"]\n");
    edit(&root, &editor, &["aws"])
        .failure()
        .stderr(predicate::str::contains(format!(
            "rules file not found: {}; pass --create to start one",
            live.display()
        )));
    edit(&root, &editor, &["aws", "--create"]).success();
    assert_eq!(
        std::fs::read_to_string(&live).unwrap(),
        "accept: [\"s3 ls\"]\n"
    );
}

/// Runs `torii policy edit aws` on a pseudo-terminal (util-linux `script`), typing `answer`
/// at the reopen question. The first editor run writes a draft with a broken regex, later runs
/// a valid one. Returns whether torii succeeded and everything the terminal showed.
fn edit_at_a_terminal(root: &Root, answer: &str) -> (bool, String) {
    use std::io::Write;
    let runs_file = root.path().join("editor-runs");
    let bad = root.write("editor/bad.yaml", "deny:\n  - \"/(unclosed/\"\n");
    let good = root.write("editor/good.yaml", TERMINAL_FIX);
    let editor = script(
        root,
        "fixes-on-second-run",
        &format!(
            "echo run >> '{runs}'\nfor last; do :; done\nif [ \"$(wc -l < '{runs}')\" -eq 1 ]; then cat '{bad}' > \"$last\"; else cat '{good}' > \"$last\"; fi\n",
            runs = runs_file.display(),
            bad = bad.display(),
            good = good.display(),
        ),
    );
    let torii = assert_cmd::cargo::cargo_bin("torii");
    // `timeout` turns a torii that waits forever into a failed test instead of a hung suite.
    let mut child = std::process::Command::new("timeout")
        .args(["60", "script", "-q", "-e", "-c"])
        .arg(format!("'{}' policy edit aws", torii.display()))
        .arg("/dev/null")
        .env("TORII_CONFIG_DIR", root.path())
        .env("TORII_NO_GUI", "1")
        .env_remove("VISUAL")
        .env("EDITOR", &editor)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("util-linux `script` runs");
    // Typed ahead: the terminal keeps the line until torii asks. Stdin stays open until the
    // end, so `script` never turns an end of input into an answer.
    let mut keyboard = child.stdin.take().unwrap();
    keyboard.write_all(answer.as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    drop(keyboard);
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
    )
}

const TERMINAL_FIX: &str = "version: \"1.0\"\naccept: [\"s3 ls\"]\n";

#[test]
fn at_a_terminal_yes_reopens_the_editor_on_the_rejected_draft() {
    let root = setup();
    let (succeeded, screen) = edit_at_a_terminal(&root, "y\n");
    assert!(succeeded, "{screen}");
    assert!(screen.contains("the draft was rejected: "), "{screen}");
    assert!(
        screen.contains("Reopen the editor to fix it? [y/N]"),
        "{screen}"
    );
    assert_eq!(runs(&root), 2);
    assert_eq!(
        std::fs::read_to_string(path(&root, "providers/aws/rules.yaml")).unwrap(),
        TERMINAL_FIX
    );
    assert!(!path(&root, "providers/aws/rules.draft.yaml").exists());
}

#[test]
fn at_a_terminal_no_keeps_the_live_file_and_the_rejected_draft() {
    let root = setup();
    let (succeeded, screen) = edit_at_a_terminal(&root, "n\n");
    assert!(!succeeded, "{screen}");
    assert!(screen.contains("the rejected draft is kept at"), "{screen}");
    assert_eq!(runs(&root), 1);
    assert_eq!(
        std::fs::read_to_string(path(&root, "providers/aws/rules.yaml")).unwrap(),
        AWS_RULES
    );
    assert!(path(&root, "providers/aws/rules.draft.yaml").exists());
}
