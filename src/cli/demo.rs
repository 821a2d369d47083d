//! `torii demo`: Torii's main job on a built-in example, end to end.
//!
//! It creates a throwaway config root, installs a demo provider wrapping `git` with a small
//! read-only policy, starts a real `torii` MCP server as a child process and drives it with an
//! MCP client: discovery, the policy query, an allowed call, an explicitly denied call and an
//! unresolved call in headless mode. Then it shows the audit log and the snippet to paste into
//! an MCP client. Nothing outside the throwaway root is written.

use std::io::IsTerminal;
use std::path::Path;

use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, Tool};
use rmcp::transport::TokioChildProcess;
use serde_json::{Map, Value, json};

use crate::human;
use crate::paths::ConfigRoot;

const PROVIDER: &str = include_str!("../../examples/demo/git/provider.yaml");
const RULES: &str = include_str!("../../examples/demo/git/rules.yaml");

/// Why the demo could not run.
#[derive(Debug, thiserror::Error)]
pub enum DemoError {
    #[error("cannot prepare the demo root: {0}")]
    Setup(std::io::Error),
    #[error("cannot start the async runtime: {0}")]
    Runtime(std::io::Error),
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

pub fn run(user_root: &ConfigRoot) -> Result<(), DemoError> {
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

    human::data(&style.title("Torii demo"));
    human::data(&style.dim(&format!(
        "throwaway config root {} with one provider, `git`, and a read-only policy",
        root.path().display()
    )));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(DemoError::Runtime)?;
    runtime.block_on(session(root.path(), &style))?;

    human::data("");
    human::data(
        &style.title("Audit log (torii.log): decisions and exit codes, never output or secrets"),
    );
    let log = std::fs::read_to_string(root.path().join("torii.log")).unwrap_or_default();
    for line in log.lines() {
        human::data(&format!("  {line}"));
    }
    human::data("");
    human::data(&style.title("Use it with your own MCP client"));
    human::data(
        "  torii init && torii provider list   # then paste into the client's configuration:",
    );
    for line in client_snippet(user_root).lines() {
        human::data(&format!("  {line}"));
    }
    Ok(())
}

async fn session(root: &Path, style: &Style) -> Result<(), DemoError> {
    let exe = std::env::current_exe().map_err(DemoError::Spawn)?;
    let mut command = tokio::process::Command::new(exe);
    command
        .env("TORII_CONFIG_DIR", root)
        .env("TORII_NO_GUI", "1");
    let transport = TokioChildProcess::new(command).map_err(DemoError::Spawn)?;
    let client = ().serve(transport).await.map_err(|error| DemoError::Session(error.to_string()))?;
    let fail = |error: rmcp::service::ServiceError| DemoError::Session(error.to_string());

    step(
        style,
        "1",
        "The agent lists tools: one per provider, plus the read-only torii_policy",
    );
    let tools: Vec<Tool> = client.list_all_tools().await.map_err(fail)?;
    for tool in &tools {
        let schema = Value::Object(tool.input_schema.as_ref().clone());
        human::data(&format!("  {:<14} input {}", tool.name, schema["required"]));
    }

    step(
        style,
        "2",
        "It reads the policy before choosing an operation",
    );
    let view = call(&client, "torii_policy", json!({"provider": "git"}))
        .await
        .map_err(fail)?;
    human::data(&format!("  accept {}", view["accept"]));
    human::data(&format!("  deny   {}", view["deny"]));

    let cases = [
        (
            "3",
            "An accepted call runs git, without a shell",
            json!(["--version"]),
        ),
        (
            "4",
            "An explicitly denied call (also listed in accept: deny wins)",
            json!(["push", "origin", "main"]),
        ),
        (
            "5",
            "A call no rule decides, in headless mode (TORII_NO_GUI=1)",
            json!(["branch", "-D", "main"]),
        ),
    ];
    for (number, title, args) in cases {
        step(style, number, title);
        human::data(&format!("  args {args}"));
        let result = call(&client, "git", json!({ "args": args }))
            .await
            .map_err(fail)?;
        show_decision(style, &result);
    }
    let _ = client.cancel().await;
    Ok(())
}

fn step(style: &Style, number: &str, title: &str) {
    human::data("");
    human::data(&style.title(&format!("{number}. {title}")));
}

async fn call(
    client: &rmcp::service::RunningService<rmcp::RoleClient, ()>,
    tool: &str,
    arguments: Value,
) -> Result<Value, rmcp::service::ServiceError> {
    let arguments: Map<String, Value> = match arguments {
        Value::Object(map) => map,
        _ => Map::new(),
    };
    let result = client
        .call_tool(CallToolRequestParams::new(tool.to_string()).with_arguments(arguments))
        .await?;
    Ok(result.structured_content.unwrap_or(Value::Null))
}

fn show_decision(style: &Style, result: &Value) {
    let decision = &result["decision"];
    let verdict = decision["result"].as_str().unwrap_or("?");
    let source = decision["source"].as_str().unwrap_or("?");
    let rule = decision["rule"]
        .as_str()
        .map(|rule| format!(" (rule `{rule}`)"))
        .unwrap_or_default();
    let painted = if verdict == "allow" {
        style.good(verdict)
    } else {
        style.bad(verdict)
    };
    human::data(&format!("  decision {painted} by {source}{rule}"));
    match result.get("execution") {
        Some(execution) => {
            let first_line = execution["stdout"]
                .as_str()
                .unwrap_or("")
                .lines()
                .next()
                .unwrap_or("");
            human::data(&format!(
                "  exit {} stdout {first_line:?}",
                execution["exit_code"]
            ));
        }
        None => human::data(&format!(
            "  {}",
            style.dim("no process started: the result has no `execution`")
        )),
    }
    if let Some(message) = result["message"].as_str() {
        human::data(&format!(
            "  {}",
            style.dim(&format!("message to the agent: {message}"))
        ));
    }
    if let Some(error) = result["error"].as_str() {
        human::data(&format!("  error {error}"));
    }
}

/// The `mcpServers` entry for this binary and the user's real config root.
fn client_snippet(user_root: &ConfigRoot) -> String {
    let command = std::env::current_exe()
        .map(|path| path.display().to_string())
        .unwrap_or_else(|_| "torii".to_string());
    let snippet = json!({
        "mcpServers": {
            "torii": {
                "command": command,
                "env": { "TORII_CONFIG_DIR": user_root.dir().display().to_string() }
            }
        }
    });
    serde_json::to_string_pretty(&snippet).unwrap_or_default()
}
