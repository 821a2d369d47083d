//! `torii demo`: Torii's main job on a built-in example, end to end.
//!
//! It creates a throwaway config root, installs a demo provider wrapping `git` with a small
//! read-only policy, starts a real `torii` MCP server as a child process and drives it with an
//! MCP client: discovery, the policy query, an allowed call, an explicitly denied call and an
//! unresolved call in headless mode. Then it shows the audit log and the snippet to paste into
//! an MCP client. Nothing outside the throwaway root is written.
//!
//! The client is the few lines of JSON-RPC below (one request at a time over the child's
//! stdio), not rmcp's client: that would link a second copy of rmcp's session machinery into
//! every release binary for this command alone. The test suite drives the server with rmcp's
//! client (tests/it/mcp_client.rs).

use std::io::{BufRead, BufReader, IsTerminal, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use serde_json::{Value, json};

use crate::console;

const PROVIDER: &str = include_str!("../../examples/demo/git/provider.yaml");
const RULES: &str = include_str!("../../examples/demo/git/setups/readonly/rules.yaml");

/// Why the demo could not run.
#[derive(Debug, thiserror::Error)]
pub enum DemoError {
    #[error("cannot prepare the demo root: {0}")]
    Setup(std::io::Error),
    #[error("cannot start the torii server: {0}")]
    Spawn(std::io::Error),
    #[error("MCP session with the demo server failed: {0}")]
    Session(String),
}

struct Style {
    color: bool,
}

impl Style {
    fn paint(&self, code: &str, text: &str) -> String {
        if self.color {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }
    fn title(&self, text: &str) -> String {
        self.paint("1", text)
    }
    fn good(&self, text: &str) -> String {
        self.paint("32", text)
    }
    fn bad(&self, text: &str) -> String {
        self.paint("31", text)
    }
    fn dim(&self, text: &str) -> String {
        self.paint("2", text)
    }
}

pub fn run() -> Result<(), DemoError> {
    let style = Style {
        color: std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
    };
    let root = tempfile::Builder::new()
        .prefix("torii-demo-")
        .tempdir()
        .map_err(DemoError::Setup)?;
    let provider_dir = root.path().join("providers").join("git");
    std::fs::create_dir_all(&provider_dir).map_err(DemoError::Setup)?;
    std::fs::write(provider_dir.join("provider.yaml"), PROVIDER).map_err(DemoError::Setup)?;
    std::fs::write(provider_dir.join("rules.yaml"), RULES).map_err(DemoError::Setup)?;

    console::data(&style.title(&crate::tr!("demo-title")));
    console::data(&style.dim(&crate::tr!(
        "demo-root",
        path = root.path().display().to_string()
    )));
    session(root.path(), &style)?;

    console::data("");
    console::data(&style.title(&crate::tr!("demo-audit")));
    let log = std::fs::read_to_string(root.path().join("torii.log")).unwrap_or_default();
    // Without the chain value that ends each line: 64 hex digits would hide what happened.
    for line in log.lines() {
        let text = crate::audit::chain::split(line).map_or(line, |(text, _)| text);
        console::data(&format!("  {text}"));
    }
    console::data("");
    console::data(&style.title(&crate::tr!("demo-own-client")));
    for (command, why) in [
        (
            "torii provider install kubectl",
            crate::tr!("demo-next-install"),
        ),
        (
            "torii provider setup kubectl readonly",
            crate::tr!("demo-next-setup"),
        ),
        (
            "torii agent install claude --hook",
            crate::tr!("demo-next-agent"),
        ),
    ] {
        console::data(&format!("  {command:<38} # {why}"));
    }
    Ok(())
}

fn session(root: &Path, style: &Style) -> Result<(), DemoError> {
    let exe = std::env::current_exe().map_err(DemoError::Spawn)?;
    let mut client = Client::start(
        Command::new(exe)
            .env("TORII_CONFIG_DIR", root)
            .env("TORII_NO_GUI", "1"),
    )?;
    let result = script(&mut client, style);
    client.stop();
    result
}

fn script(client: &mut Client, style: &Style) -> Result<(), DemoError> {
    step(style, "1", &crate::tr!("demo-step-list"));
    for tool in client.list_tools()? {
        let name = tool["name"].as_str().unwrap_or("?");
        let required = &tool["inputSchema"]["required"];
        console::data(&format!("  {name:<14} input {required}"));
    }

    step(style, "2", &crate::tr!("demo-step-policy"));
    let view = client.call("torii_policy", json!({"provider": "git"}))?;
    console::data(&format!("  accept {}", view["accept"]));
    console::data(&format!("  deny   {}", view["deny"]));

    let cases = [
        ("3", crate::tr!("demo-step-accepted"), json!(["--version"])),
        (
            "4",
            crate::tr!("demo-step-denied"),
            json!(["push", "origin", "main"]),
        ),
        (
            "5",
            crate::tr!("demo-step-unresolved"),
            json!(["branch", "-D", "main"]),
        ),
    ];
    for (number, title, args) in cases {
        step(style, number, &title);
        console::data(&format!("  args {args}"));
        let result = client.call("git", json!({ "args": args }))?;
        show_decision(style, &result);
        if number == "5" {
            console::data(&format!("  {}", crate::tr!("demo-headless-note")));
        }
    }
    Ok(())
}

/// The protocol revision the demo asks for in `initialize`.
const PROTOCOL_VERSION: &str = "2025-11-25";

/// An MCP client for the demo's own server: newline-delimited JSON-RPC over the child's stdio,
/// one request at a time.
struct Client {
    child: Child,
    input: Option<ChildStdin>,
    output: BufReader<ChildStdout>,
    next_id: u64,
}

impl Client {
    /// Starts the server and completes the `initialize` handshake.
    fn start(command: &mut Command) -> Result<Self, DemoError> {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(DemoError::Spawn)?;
        let (Some(input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(DemoError::Session("no pipe to the server".to_string()));
        };
        let mut client = Client {
            child,
            input: Some(input),
            output: BufReader::new(output),
            next_id: 0,
        };
        let handshake = client.request(
            "initialize",
            json!({
                "protocolVersion": PROTOCOL_VERSION,
                "capabilities": {},
                "clientInfo": {"name": "torii-demo", "version": env!("CARGO_PKG_VERSION")},
            }),
        );
        if let Err(error) = handshake.and_then(|_| {
            client.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        }) {
            client.stop();
            return Err(error);
        }
        Ok(client)
    }

    /// Every tool, following `nextCursor` across pages.
    fn list_tools(&mut self) -> Result<Vec<Value>, DemoError> {
        let mut tools = Vec::new();
        let mut cursor = None;
        loop {
            let params = match cursor.take() {
                Some(cursor) => json!({ "cursor": cursor }),
                None => json!({}),
            };
            let mut page = self.request("tools/list", params)?;
            if let Some(Value::Array(items)) = page.get_mut("tools").map(Value::take) {
                tools.extend(items);
            }
            match page.get("nextCursor").and_then(Value::as_str) {
                Some(next) => cursor = Some(next.to_string()),
                None => return Ok(tools),
            }
        }
    }

    /// Calls `tool` and returns its structured result (`null` when it has none).
    fn call(&mut self, tool: &str, arguments: Value) -> Result<Value, DemoError> {
        let mut result = self.request(
            "tools/call",
            json!({ "name": tool, "arguments": arguments }),
        )?;
        Ok(result
            .get_mut("structuredContent")
            .map(Value::take)
            .unwrap_or(Value::Null))
    }

    /// Sends a request and waits for its response. Notifications from the server (progress)
    /// are skipped; a request from it is answered "method not found", since the demo offers
    /// the server nothing.
    fn request(&mut self, method: &str, params: Value) -> Result<Value, DemoError> {
        self.next_id += 1;
        let id = json!(self.next_id);
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))?;
        loop {
            let mut message = self.receive()?;
            if message.get("method").is_some() {
                if let Some(request) = message.get("id") {
                    let reply = json!({
                        "jsonrpc": "2.0",
                        "id": request,
                        "error": {"code": -32601, "message": "the demo client offers no methods"},
                    });
                    self.send(&reply)?;
                }
                continue;
            }
            if message.get("id") != Some(&id) {
                continue;
            }
            if let Some(error) = message.get("error") {
                let text = error["message"].as_str().unwrap_or("no message");
                return Err(DemoError::Session(format!("{method}: {text}")));
            }
            return Ok(message
                .get_mut("result")
                .map(Value::take)
                .unwrap_or(Value::Null));
        }
    }

    fn send(&mut self, message: &Value) -> Result<(), DemoError> {
        let lost =
            |error: std::io::Error| DemoError::Session(format!("writing to the server: {error}"));
        let input = self
            .input
            .as_mut()
            .ok_or_else(|| DemoError::Session("the session is closed".to_string()))?;
        let mut line = message.to_string();
        line.push('\n');
        input.write_all(line.as_bytes()).map_err(lost)?;
        input.flush().map_err(lost)
    }

    fn receive(&mut self) -> Result<Value, DemoError> {
        let mut line = String::new();
        loop {
            line.clear();
            let read = self
                .output
                .read_line(&mut line)
                .map_err(|error| DemoError::Session(format!("reading from the server: {error}")))?;
            if read == 0 {
                return Err(DemoError::Session(
                    "the server closed its output".to_string(),
                ));
            }
            if !line.trim().is_empty() {
                break;
            }
        }
        serde_json::from_str(&line)
            .map_err(|error| DemoError::Session(format!("the server sent invalid JSON: {error}")))
    }

    /// Ends the session the way a client does: closing the server's input, which makes it
    /// exit; then waits for it.
    fn stop(mut self) {
        drop(self.input.take());
        let _ = self.child.wait();
    }
}

fn step(style: &Style, number: &str, title: &str) {
    console::data("");
    console::data(&style.title(&format!("{number}. {title}")));
}

fn show_decision(style: &Style, result: &Value) {
    let decision = &result["decision"];
    let verdict = decision["result"].as_str().unwrap_or("?");
    let source = decision["source"].as_str().unwrap_or("?");
    let rule = decision["rule"]
        .as_str()
        .map(|rule| format!(" {}", crate::tr!("demo-rule", rule = rule)))
        .unwrap_or_default();
    let painted = if verdict == "allow" {
        style.good(verdict)
    } else {
        style.bad(verdict)
    };
    console::data(&format!(
        "  {}",
        crate::tr!(
            "demo-decision",
            verdict = painted,
            source = source,
            rule = rule
        )
    ));
    match result.get("execution") {
        Some(execution) => {
            let first_line = execution["stdout"]
                .as_str()
                .unwrap_or("")
                .lines()
                .next()
                .unwrap_or("");
            console::data(&format!(
                "  exit {} stdout {first_line:?}",
                execution["exit_code"]
            ));
        }
        None => console::data(&format!("  {}", style.dim(&crate::tr!("demo-no-process")))),
    }
    if let Some(message) = result["message"].as_str() {
        console::data(&format!(
            "  {}",
            style.dim(&crate::tr!("demo-message", message = message))
        ));
    }
    if let Some(error) = result["error"].as_str() {
        console::data(&format!("  error {error}"));
    }
}
