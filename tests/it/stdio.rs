//! Raw JSON-RPC over the server's stdio: stdout carries only protocol lines, malformed input
//! and huge arguments get a clear answer or normal handling, and the server keeps serving.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{Value, json};

use crate::common::{FakeCli, Root, install_provider, simple_provider};

struct RawServer {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    lines: mpsc::Receiver<String>,
}

impl RawServer {
    fn start(root: &Root, fake: &FakeCli) -> Self {
        let mut server = Self::spawn(root, fake);
        server.send(
            &json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "raw", "version": "1"}}}),
        );
        server.response(0);
        server.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        server
    }

    /// The server, before any message.
    fn spawn(root: &Root, fake: &FakeCli) -> Self {
        let mut child = Command::new(assert_cmd::cargo::cargo_bin("torii"))
            .env("TORII_CONFIG_DIR", root.path())
            .env("TORII_NO_GUI", "1")
            .env("PATH", fake.path_env())
            .current_dir(root.work())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Self {
            child,
            stdin,
            lines,
        }
    }

    fn send_line(&mut self, line: &str) {
        self.stdin.write_all(line.as_bytes()).unwrap();
        self.stdin.write_all(b"\n").unwrap();
        self.stdin.flush().unwrap();
    }

    fn send(&mut self, message: &Value) {
        self.send_line(&message.to_string());
    }

    /// Every stdout line must be a JSON-RPC message; returns the response with this id.
    fn response(&mut self, id: i64) -> Value {
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(20))
                .expect("server answered");
            let message: Value = serde_json::from_str(&line)
                .unwrap_or_else(|_| panic!("stdout carried a non-protocol line: {line:?}"));
            assert_eq!(message["jsonrpc"], "2.0", "{line}");
            if message["id"] == id {
                return message;
            }
        }
    }

    fn call(&mut self, id: i64, tool: &str, arguments: Value) -> Value {
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                          "params": {"name": tool, "arguments": arguments}}));
        self.response(id)
    }
}

impl Drop for RawServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn root_with_cli() -> (Root, FakeCli) {
    let root = Root::new();
    install_provider(
        &root,
        "cli",
        &simple_provider("cli", ""),
        "version: \"1\"\ndeny: [\"rm\"]\naccept: [\"ls\"]\n",
    );
    let fake = FakeCli::new(&root, "cli", "echo listed");
    (root, fake)
}

#[test]
fn malformed_json_rpc_does_not_stop_the_server() {
    let (root, fake) = root_with_cli();
    let mut server = RawServer::start(&root, &fake);
    for garbage in [
        "{not json",
        "[]",
        "42",
        "{\"jsonrpc\":\"2.0\",\"id\":5}",
        "\u{0}\u{1}binary",
    ] {
        server.send_line(garbage);
    }
    server.send(&json!({"jsonrpc": "2.0", "id": 9, "method": "no/such/method"}));
    let unknown = server.response(9);
    assert!(unknown["error"]["code"].is_i64(), "{unknown}");
    let answer = server.call(10, "cli", json!({"args": ["ls"]}));
    assert_eq!(
        answer["result"]["structuredContent"]["execution"]["stdout"],
        "listed\n"
    );
}

#[test]
fn a_one_mebibyte_argument_is_handled_and_the_server_keeps_serving() {
    let (root, fake) = root_with_cli();
    let mut server = RawServer::start(&root, &fake);
    let huge = "x".repeat(1024 * 1024);
    // Denied: a normal decision.
    let denied = server.call(1, "cli", json!({"args": ["rm", huge]}));
    assert_eq!(
        denied["result"]["structuredContent"]["decision"]["source"],
        "explicit-deny"
    );
    // Allowed: the operating system refuses an argument this long; a clear tool error.
    let allowed = server.call(2, "cli", json!({"args": ["ls", huge]}));
    let result = &allowed["result"];
    assert_eq!(
        result["isError"],
        true,
        "{}",
        result.to_string().chars().take(300).collect::<String>()
    );
    assert!(
        result["structuredContent"]["error"]
            .as_str()
            .unwrap()
            .contains("could not start")
    );
    let next = server.call(3, "cli", json!({"args": ["ls"]}));
    assert_eq!(
        next["result"]["structuredContent"]["execution"]["exit_code"],
        0
    );
    // The audit reference stays short whatever the agent sends.
    assert!(
        crate::common::audit_lines(&root)
            .iter()
            .all(|line| line.len() < 200),
        "audit line too long"
    );
}

impl RawServer {
    fn send_bytes(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).unwrap();
        self.stdin.write_all(b"\n").unwrap();
        self.stdin.flush().unwrap();
    }

    /// The next stdout message, whatever its id.
    fn next_message(&mut self) -> Value {
        let line = self
            .lines
            .recv_timeout(Duration::from_secs(20))
            .expect("server answered");
        serde_json::from_str(&line).unwrap_or_else(|_| panic!("not protocol: {line:?}"))
    }
}

/// Issue 12, item 9: every line that is not a usable message gets the JSON-RPC 2.0 answer
/// (a client would otherwise wait forever), and the server goes on serving.
#[test]
fn every_bad_line_gets_a_json_rpc_answer_and_serving_goes_on() {
    let (root, fake) = root_with_cli();
    let mut server = RawServer::start(&root, &fake);
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let oversized = "x".repeat(5 * 1024 * 1024);
    for (line, code) in [
        (b"{not json".as_slice(), -32700),
        (b"\xff\xfe{\"jsonrpc\":\"2.0\"}".as_slice(), -32700),
        (deep.as_bytes(), -32700),
        (oversized.as_bytes(), -32700),
        (b"[]".as_slice(), -32600),
        (b"42".as_slice(), -32600),
    ] {
        server.send_bytes(line);
        let answer = server.next_message();
        assert_eq!(answer["error"]["code"], code, "{answer}");
        assert_eq!(answer["id"], Value::Null, "{answer}");
    }
    for (id, params, problem) in [
        (
            20,
            json!({"name": "cli", "arguments": ["ls"]}),
            "`arguments` must be an object",
        ),
        (
            21,
            json!({"arguments": {"args": ["ls"]}}),
            "missing required field `name`",
        ),
    ] {
        server.send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params}));
        let answer = server.response(id);
        assert_eq!(answer["error"]["code"], -32602, "{answer}");
        assert!(
            answer["error"]["message"]
                .as_str()
                .unwrap()
                .contains(problem),
            "{answer}"
        );
    }
    let long_name = "n".repeat(100_000);
    let unknown = server.call(22, &long_name, json!({"args": ["ls"]}));
    assert_eq!(unknown["error"]["code"], -32602, "{unknown}");
    let message = unknown["error"]["message"].as_str().unwrap();
    assert!(message.len() < 200, "{} characters echoed", message.len());
    let answer = server.call(23, "cli", json!({"args": ["ls"]}));
    assert_eq!(
        answer["result"]["structuredContent"]["execution"]["stdout"],
        "listed\n"
    );
}

/// `_meta` of a stateless request (protocol revision 2026-07-28: no `initialize`, every
/// request carries the revision and the client's capabilities).
fn stateless_meta(version: &str) -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": version,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "stateless", "version": "1"}
    })
}

/// Issue 12, item 9: a client of the stateless revision (Claude Code, the Python SDK's default
/// mode) sends `server/discover`, then `tools/list` and `tools/call` with the revision in
/// `_meta`, and never `initialize`: that keeps working.
#[test]
fn a_stateless_client_lists_and_calls_without_initialize() {
    let (root, fake) = root_with_cli();
    let mut server = RawServer::spawn(&root, &fake);
    let meta = stateless_meta("2026-07-28");
    server.send(
        &json!({"jsonrpc": "2.0", "id": 1, "method": "server/discover",
                        "params": {"_meta": meta}}),
    );
    let discovered = server.response(1);
    assert!(discovered.get("result").is_some(), "{discovered}");
    server.send(&json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list",
                        "params": {"_meta": meta}}));
    let tools = server.response(2);
    let names: Vec<&str> = tools["result"]["tools"]
        .as_array()
        .unwrap_or_else(|| panic!("{tools}"))
        .iter()
        .map(|tool| tool["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["cli", "torii_policy"]);
    server.send(
        &json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
        "name": "cli", "arguments": {"args": ["ls"]}, "_meta": meta}}),
    );
    let answer = server.response(3);
    assert_eq!(
        answer["result"]["structuredContent"]["execution"]["stdout"], "listed\n",
        "{answer}"
    );
}

/// Issue 12, item 9: with no `initialize`, a call whose `_meta` names a revision that still
/// has the handshake (2025-06-18, 2025-11-25) is refused and runs nothing.
#[test]
fn a_call_without_initialize_for_a_handshake_revision_is_refused() {
    let (root, fake) = root_with_cli();
    for (id, version) in [(1, "2025-06-18"), (2, "2025-11-25")] {
        let mut server = RawServer::spawn(&root, &fake);
        server.send(
            &json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
            "name": "cli", "arguments": {"args": ["ls"]}, "_meta": stateless_meta(version)}}),
        );
        let answer = server.response(id);
        assert!(answer.get("error").is_some(), "{version}: {answer}");
        assert!(
            answer["error"]["message"]
                .as_str()
                .unwrap()
                .contains("initialize"),
            "{answer}"
        );
    }
    assert!(fake.launches().is_empty());
}

/// Issue 12, item 10: a client that asked for progress hears, every 2 s, that a long call is
/// alive and how much its command has written; progress only grows; the answer follows.
#[test]
fn a_long_call_reports_progress_when_asked() {
    let root = Root::new();
    install_provider(
        &root,
        "slow",
        &simple_provider("slow", ""),
        "version: \"1\"\naccept: [\"wait\"]\n",
    );
    let fake = FakeCli::new(&root, "slow", "printf 0123456789; sleep 5; echo done");
    let mut server = RawServer::start(&root, &fake);
    server.send(
        &json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {
        "name": "slow", "arguments": {"args": ["wait"]}, "_meta": {"progressToken": "p-7"}}}),
    );
    let mut progress = Vec::new();
    let answer = loop {
        let message = server.next_message();
        if message["id"] == 7 {
            break message;
        }
        assert_eq!(message["method"], "notifications/progress", "{message}");
        assert_eq!(message["params"]["progressToken"], "p-7", "{message}");
        progress.push(message["params"].clone());
    };
    assert_eq!(
        answer["result"]["structuredContent"]["execution"]["stdout"],
        "0123456789done\n"
    );
    assert!(!progress.is_empty(), "no progress in a 5 s call");
    let values: Vec<f64> = progress
        .iter()
        .map(|p| p["progress"].as_f64().unwrap())
        .collect();
    assert!(
        values.windows(2).all(|pair| pair[0] < pair[1]),
        "{values:?}"
    );
    assert!(
        progress[0]["message"]
            .as_str()
            .unwrap()
            .contains("10 bytes of output"),
        "{progress:?}"
    );
    // Without a token, no notification.
    server.send(
        &json!({"jsonrpc": "2.0", "id": 8, "method": "tools/call", "params": {
        "name": "slow", "arguments": {"args": ["wait"]}}}),
    );
    let next = server.next_message();
    assert_eq!(next["id"], 8, "{next}");
}
