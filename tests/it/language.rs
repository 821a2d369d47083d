//! The human's language: what the CLI tells a person follows `TORII_LANG` (or
//! `settings.yaml` `language`), while everything an agent or a machine reads — MCP, the audit
//! log, `--json` — is the same bytes in every language. (The windows in both languages are
//! driven in `src/gui/tests.rs`.)

use std::path::Path;

use crate::common::{Root, install_provider, simple_provider};

const AWS_PROFILE: &str = "version: \"1\"\nname: aws-profile\ntool: aws_profile\n\
    description: AWS by profile.\ncommand: aws\ntargeting:\n  mode: aws_profile\nauth:\n  \
    identity:\n    command: aws\n    args: [sts, get-caller-identity]\n    field: Account\n  \
    profile_env: AWS_PROFILE\n";

/// `torii <args>` in `language` (empty: none, so settings or the locale decide) says
/// `expected` on stderr.
fn says(root: &Root, language: &str, args: &[&str], expected: &str) {
    let mut command = root.torii();
    command.env("EDITOR", "true").args(args);
    if language.is_empty() {
        command.env_remove("TORII_LANG");
    } else {
        command.env("TORII_LANG", language);
    }
    let output = command.output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(expected),
        "torii {} ({language}): {stderr}",
        args.join(" ")
    );
}

#[test]
fn one_human_message_per_command_group_is_in_portuguese() {
    let root = Root::new();
    let settings = root.path().join("settings.yaml");
    says(
        &root,
        "pt-BR",
        &["init"],
        &format!("criado {}", settings.display()),
    );
    says(
        &root,
        "pt-BR",
        &["init"],
        "já existe; mantido sem alteração",
    );

    root.write("providers/aws-profile/provider.yaml", AWS_PROFILE);
    install_provider(
        &root,
        "git",
        &simple_provider("git", ""),
        "version: \"1\"\n",
    );
    let package = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/demo/git");
    let cases: [(&[&str], &str); 5] = [
        (
            &["target", "list", "aws_profile"],
            "nenhum target configurado para `aws_profile`",
        ),
        (
            &["target", "status", "aws_profile"],
            "nenhum lease ativo para `aws_profile`",
        ),
        (
            &["target", "status", "nope"],
            "<TOOL>: nenhum provider instalado publica a tool `nope`",
        ),
        (&["policy", "edit", "git"], "ficou como estava"),
        (
            &["provider", "install", package.to_str().unwrap()],
            "reinicie o servidor MCP para publicar a nova tool",
        ),
    ];
    for (args, expected) in cases {
        // A fresh root for the install: the others share one.
        let fresh = Root::new();
        let at = if args[0] == "provider" { &fresh } else { &root };
        says(at, "pt-BR", args, expected);
    }

    let setup = crate::agents::Setup::new();
    let agent = setup
        .torii()
        .env("TORII_LANG", "pt-BR")
        .args(["agent", "install", "claude"])
        .output()
        .unwrap();
    let agent = String::from_utf8_lossy(&agent.stderr);
    assert!(agent.contains("para carregar a alteração."), "{agent}");

    let doctor = root
        .torii()
        .env("TORII_LANG", "pt-BR")
        .arg("doctor")
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&doctor.stdout);
    assert!(
        report
            .lines()
            .any(|line| line.starts_with("problema ") || line.starts_with("aviso ")),
        "{report}"
    );
    assert!(report.contains("correção: "), "{report}");
}

/// The manual's own words stay English, the troubleshooting it starts from too.
#[test]
fn the_books_english_messages_stay_english() {
    let root = Root::new();
    says(
        &root,
        "pt-BR",
        &["provider", "list"],
        "no providers installed",
    );
    install_provider(
        &root,
        "git",
        &simple_provider("git", ""),
        "version: \"1\"\n",
    );
    std::fs::remove_file(root.path().join("providers/git/rules.yaml")).unwrap();
    says(
        &root,
        "pt-BR",
        &["policy", "show", "git"],
        "rules file not found",
    );
}

#[test]
fn settings_choose_the_language_and_torii_lang_overrides_them() {
    let root = Root::new();
    root.write("settings.yaml", "language: pt-BR\n");
    root.write("providers/aws-profile/provider.yaml", AWS_PROFILE);
    let status = ["target", "status", "aws_profile"];
    says(&root, "", &status, "nenhum lease ativo");
    says(&root, "en", &status, "no active leases for `aws_profile`");
    says(
        &root,
        "fr",
        &status,
        "TORII_LANG is `fr`: use `en` or `pt-BR`",
    );
}

/// One MCP session (a tools/list, an allowed, a denied and an unresolved call, a policy
/// query) and a machine output of the CLI, in `language`.
fn machine_output(
    root: &Root,
    fake: &crate::common::FakeCli,
    language: &str,
) -> (Vec<u8>, Vec<u8>) {
    let lines = [
        crate::common::initialize_request(),
        serde_json::json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
        call(3, "fake", &["get", "x"]),
        call(4, "fake", &["rm", "x"]),
        call(5, "fake", &["other"]),
        serde_json::json!({"jsonrpc": "2.0", "id": 6, "method": "tools/call",
            "params": {"name": "torii_policy", "arguments": {"provider": "fake"}}}),
    ];
    let input: String = lines.iter().map(|line| format!("{line}\n")).collect();
    let output = root
        .torii()
        .env("TORII_LANG", language)
        .env("PATH", fake.path_env())
        .write_stdin(input)
        .output()
        .unwrap();
    assert!(output.status.success());
    let check = root
        .torii()
        .env("TORII_LANG", language)
        .args(["policy", "check", "fake", "--json", "--", "get", "x"])
        .output()
        .unwrap();
    (output.stdout, check.stdout)
}

fn call(id: u64, tool: &str, args: &[&str]) -> serde_json::Value {
    serde_json::json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": tool, "arguments": {"args": args}}})
}

#[test]
fn mcp_audit_and_json_are_the_same_bytes_in_every_language() {
    let root = Root::new();
    let fake = crate::common::FakeCli::new(&root, "fake", "echo fake-output");
    install_provider(
        &root,
        "fake",
        &simple_provider("fake", ""),
        "version: \"1\"\naccept: [\"get\"]\ndeny: [\"rm\"]\n",
    );
    let (english_mcp, english_json) = machine_output(&root, &fake, "en");
    let audit_after_english = crate::common::audit_lines(&root).len();
    let (portuguese_mcp, portuguese_json) = machine_output(&root, &fake, "pt-BR");
    // The audit without its time column: the English session's lines, then the other's.
    let audit: Vec<String> = crate::common::audit_lines(&root)
        .into_iter()
        .map(|line| {
            line.split_once(" | ")
                .map(|(_, rest)| rest.to_string())
                .unwrap_or(line)
        })
        .collect();
    let (english_audit, portuguese_audit) = audit.split_at(audit_after_english);
    let text = String::from_utf8_lossy(&english_mcp);
    assert!(text.contains("fake-output"), "{text}");
    assert_eq!(text.lines().count(), 6, "{text}");
    // Answers to concurrent calls leave in the order the calls end: the same lines, byte for
    // byte, in any order.
    let lines = |bytes: &[u8]| {
        let mut lines: Vec<String> = String::from_utf8_lossy(bytes)
            .lines()
            .map(String::from)
            .collect();
        lines.sort();
        lines
    };
    assert_eq!(lines(&english_mcp), lines(&portuguese_mcp));
    assert!(!english_audit.is_empty());
    // Calls run concurrently, so their lines interleave differently from one session to the
    // next: the same lines, in any order.
    let sorted = |lines: &[String]| {
        let mut lines = lines.to_vec();
        lines.sort();
        lines
    };
    assert_eq!(sorted(english_audit), sorted(portuguese_audit));
    assert!(!english_json.is_empty());
    assert_eq!(english_json, portuguese_json);
}
