//! `mcp_probe`: a minimal MCP client for the live homologation catalogue (docs/src/live.md). It
//! starts a Torii executable on one config root, completes the handshake and prints, as JSON on
//! stdout, what the agent would see: the tool list, or one call's result.
//!
//! ```text
//! cargo run --example mcp_probe -- <torii> <config-root> list
//! cargo run --example mcp_probe -- <torii> <config-root> call <tool> '<arguments as JSON>'
//! ```
//!
//! Newline-delimited JSON-RPC over the child's stdio, one request at a time; the server's
//! stderr goes to this program's stderr. It says nothing about a decision: the evidence is the
//! result it prints and the root's `torii.log`.
#![allow(clippy::print_stdout, clippy::expect_used)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitCode, Stdio};

use serde_json::{Value, json};

struct Session {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    next_id: u64,
}

impl Session {
    fn start(torii: &str, root: &str) -> Result<Self, String> {
        let mut child = Command::new(torii)
            .env("TORII_CONFIG_DIR", root)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|error| format!("cannot start {torii}: {error}"))?;
        let input = child.stdin.take().expect("piped stdin");
        let output = BufReader::new(child.stdout.take().expect("piped stdout"));
        let mut session = Self {
            child,
            input,
            output,
            next_id: 0,
        };
        let client = json!({"name": "mcp_probe", "version": env!("CARGO_PKG_VERSION")});
        session.request(
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": client}),
        )?;
        session.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))?;
        Ok(session)
    }

    fn send(&mut self, message: &Value) -> Result<(), String> {
        writeln!(self.input, "{message}").map_err(|error| format!("cannot write: {error}"))
    }

    /// The result of one request; a JSON-RPC error is returned as the error's JSON.
    fn request(&mut self, method: &str, params: Value) -> Result<Value, String> {
        self.next_id += 1;
        let id = json!(self.next_id);
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))?;
        loop {
            let mut line = String::new();
            let read = self.output.read_line(&mut line);
            if matches!(read, Ok(0) | Err(_)) {
                return Err("the server ended without an answer".to_string());
            }
            let message: Value = serde_json::from_str(&line)
                .map_err(|error| format!("the server wrote something that is not JSON: {error}"))?;
            if message.get("id") != Some(&id) || message.get("method").is_some() {
                continue;
            }
            return match message.get("error") {
                Some(error) => Err(error.to_string()),
                None => Ok(message.get("result").cloned().unwrap_or(Value::Null)),
            };
        }
    }

    fn stop(mut self) {
        drop(self.input);
        let _ = self.child.wait();
    }
}

fn run(args: &[String]) -> Result<Value, String> {
    let [torii, root, command, rest @ ..] = args else {
        return Err("usage: mcp_probe <torii> <config-root> list | call <tool> <json>".into());
    };
    let mut session = Session::start(torii, root)?;
    let result = match (command.as_str(), rest) {
        ("list", []) => session.request("tools/list", json!({})),
        ("call", [tool, arguments]) => serde_json::from_str::<Value>(arguments)
            .map_err(|error| format!("the arguments are not JSON: {error}"))
            .and_then(|arguments| {
                session.request("tools/call", json!({"name": tool, "arguments": arguments}))
            }),
        _ => Err(format!(
            "unknown command {command:?} (list, or call <tool> <json>)"
        )),
    };
    session.stop();
    result
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(result) => {
            println!(
                "{}",
                serde_json::to_string_pretty(&result).unwrap_or_default()
            );
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("mcp_probe: {error}");
            ExitCode::FAILURE
        }
    }
}
