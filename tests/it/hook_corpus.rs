//! The shell-guard corpus through the real hook executable: every command line of
//! `crates/shell-guard/tests/corpus.txt`, sent as Claude Code sends it to `torii __hook`, is
//! denied (block and cannot-tell records) or passed without a word (allow records), with the
//! installed providers as the protected set; a sample goes through every other client's input
//! and deny format.

use serde_json::{Value, json};

use crate::agents::Setup;
use crate::common::{install_provider, simple_provider};

const CORPUS: &str = include_str!("../../crates/shell-guard/tests/corpus.txt");

enum Expect {
    Block(String),
    Allow,
    Error,
}

fn records() -> Vec<(usize, Expect, String)> {
    let mut records = Vec::new();
    for (index, chunk) in CORPUS
        .strip_suffix('\n')
        .unwrap_or(CORPUS)
        .split("\n---\n")
        .enumerate()
    {
        let mut lines = chunk
            .split('\n')
            .skip_while(|line| line.starts_with('#') || line.trim().is_empty());
        let Some(header) = lines.next() else { continue };
        let expect = match header.split_whitespace().collect::<Vec<_>>().as_slice() {
            ["block", program] => Expect::Block((*program).to_string()),
            ["allow"] => Expect::Allow,
            ["error"] => Expect::Error,
            _ => panic!("record {index}: bad header {header:?}"),
        };
        records.push((index, expect, lines.collect::<Vec<_>>().join("\n")));
    }
    records
}

fn hook(setup: &Setup, agent: &str, input: &Value) -> String {
    let (out, code) = setup.hook(agent, &input.to_string());
    assert_eq!(code, 0);
    out
}

/// The client's input for `command`, and how to read the reason out of its deny answer.
fn client(agent: &str, command: &str) -> (Value, fn(&Value) -> Option<&str>) {
    match agent {
        "claude" | "codex" => (
            json!({"hook_event_name": "PreToolUse", "tool_name": "Bash",
                "tool_input": {"command": command}}),
            |answer| {
                (answer["hookSpecificOutput"]["permissionDecision"] == "deny")
                    .then(|| answer["hookSpecificOutput"]["permissionDecisionReason"].as_str())?
            },
        ),
        "gemini" => (
            json!({"hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
                "tool_input": {"command": command}}),
            |answer| (answer["decision"] == "deny").then(|| answer["reason"].as_str())?,
        ),
        "cursor" => (
            json!({"hook_event_name": "beforeShellExecution", "command": command, "cwd": "/"}),
            |answer| (answer["permission"] == "deny").then(|| answer["user_message"].as_str())?,
        ),
        "antigravity" => (
            json!({"toolCall": {"name": "run_command", "args": {"CommandLine": command}}}),
            |answer| (answer["decision"] == "deny").then(|| answer["reason"].as_str())?,
        ),
        other => panic!("no hook for {other}"),
    }
}

#[test]
fn the_hook_executable_decides_every_corpus_record_in_every_clients_format() {
    let setup = Setup::new();
    for tool in ["kubectl", "aws", "az", "snow", "terraform"] {
        install_provider(
            &setup.root,
            tool,
            &simple_provider(tool, ""),
            "version: \"1\"\ndeny: []\naccept: []\n",
        );
    }
    let mut failures = Vec::new();
    let records = records();
    assert!(records.len() >= 150, "{} records", records.len());
    for (index, expect, command) in &records {
        let agents: &[&str] = if index % 10 == 0 {
            &["claude", "codex", "gemini", "cursor", "antigravity"]
        } else {
            &["claude"]
        };
        for agent in agents {
            let (input, reason_of) = client(agent, command);
            let out = hook(&setup, agent, &input);
            let answer: Option<Value> = serde_json::from_str(&out).ok();
            let reason = answer.as_ref().and_then(reason_of);
            let right = match (expect, reason) {
                (Expect::Block(program), Some(reason)) => {
                    reason.contains(&format!("Torii blocks `{program}`"))
                }
                (Expect::Error, Some(reason)) => reason.contains("Torii's hook denied"),
                // No decision: silence, or Antigravity's "ask".
                (Expect::Allow, None) => {
                    out.is_empty() || (*agent == "antigravity" && out.contains("\"ask\""))
                }
                _ => false,
            };
            if !right {
                failures.push(format!(
                    "record {index} via {agent}: {command:?} -> {out:?}"
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
