//! `torii __hook <agent>`: the guard a client runs before its own shell tool.
//!
//! It reads the client's JSON on stdin, loads the installed providers, and denies a command
//! line that would start any provider's `command`, in the client's own deny format, telling
//! the agent which MCP tool to call instead. It only ever denies: for a command it does not
//! block it answers nothing, so the client's own approval still applies. Anything that stops
//! it from deciding (input it cannot read, a shell line it cannot analyse, providers it
//! cannot load) denies.
//!
//! Not a sandbox: a process with the same credentials can still reach the cloud another way.

use std::path::Path;

use serde_json::{Value, json};

use super::clients::Agent;
use crate::files::{CappedReadError, read_capped};
use crate::registry::Registry;

/// Far above any command line an agent sends; beyond it the input is refused (and denied).
const MAX_INPUT_BYTES: u64 = 1024 * 1024;

/// The answer for the client: `None` lets the client's own flow decide.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    pub deny: Option<String>,
}

/// Runs the hook for `agent`: stdin in, the client's answer on stdout. The exit status is 0
/// whatever happens, since the answer itself carries the denial.
pub fn serve(agent: Agent, root: &Path) {
    let verdict = match read_capped(std::io::stdin().lock(), MAX_INPUT_BYTES) {
        Ok(input) => decide_in_time(agent, input, root.to_path_buf()),
        Err(CappedReadError::TooLarge) => Verdict {
            deny: Some(invalid_input("larger than 1 MiB")),
        },
        Err(CappedReadError::Io(error)) => Verdict {
            deny: Some(invalid_input(&error.to_string())),
        },
    };
    if let Some(answer) = answer(agent, &verdict) {
        crate::console::data(&answer.to_string());
    }
}

/// Longest the decision may take. A command line takes microseconds to a few milliseconds;
/// this bounds what a parser bug could make of one (a loop), well inside the clients' own hook
/// timeouts, which would otherwise let the command run.
const DECISION_TIME: std::time::Duration = std::time::Duration::from_secs(5);

/// [`decide`] on its own thread, denied when it does not finish in time. The process exits
/// right after answering, which ends a thread that would not.
fn decide_in_time(agent: Agent, input: Vec<u8>, root: std::path::PathBuf) -> Verdict {
    let (answer, verdict) = std::sync::mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name("hook".to_string())
        .spawn(move || {
            let _ = answer.send(decide(agent, &input, || Registry::load(&root)));
        });
    let late = Verdict {
        deny: Some(
            "Torii's hook could not decide about this command in time, so it denies it."
                .to_string(),
        ),
    };
    match spawned {
        Ok(_) => verdict.recv_timeout(DECISION_TIME).unwrap_or(late),
        Err(_) => late,
    }
}

/// The decision, separated from stdin and the file system for tests.
pub fn decide(
    agent: Agent,
    input: &[u8],
    registry: impl FnOnce() -> Result<Registry, crate::registry::RegistryError>,
) -> Verdict {
    let deny = |reason: String| Verdict { deny: Some(reason) };
    let command = match command_of(agent, input) {
        Ok(command) => command,
        Err(why) => return deny(invalid_input(&why)),
    };
    let registry = match registry() {
        Ok(registry) => registry,
        Err(_) => {
            return deny(
                "Torii's hook cannot load the installed providers, so it denies every shell \
                 command until that is fixed. Ask the human to run `torii provider list` in a \
                 terminal to see why."
                    .to_string(),
            );
        }
    };
    if registry.is_empty() {
        return Verdict { deny: None };
    }
    let guard = shell_guard::Guard::new(registry.iter().map(|p| p.config().command.clone()));
    match guard.check(&command) {
        Ok(None) => Verdict { deny: None },
        Ok(Some(hit)) => deny(blocked(&registry, &hit.program)),
        Err(error) => deny(format!(
            "Torii's hook denied this shell command: {error}. Write the program name literally, \
             and run installed providers' executables through their Torii MCP tools."
        )),
    }
}

fn invalid_input(why: &str) -> String {
    format!("Torii's hook could not read the command it was asked about ({why}), so it denies it.")
}

/// The command line the client is about to run, from the client's hook input.
fn command_of(agent: Agent, input: &[u8]) -> Result<String, String> {
    let value: Value =
        serde_json::from_slice(input).map_err(|error| format!("not JSON: {error}"))?;
    let pointers: &[&str] = match agent {
        Agent::Cursor => &["/command"],
        Agent::Antigravity => &["/toolCall/args/CommandLine"],
        _ => &["/tool_input/command"],
    };
    for pointer in pointers {
        match value.pointer(pointer) {
            Some(Value::String(command)) => return Ok(command.clone()),
            // An argument vector (`["bash", "-lc", "…"]`): the shell words, re-quoted.
            Some(Value::Array(words)) => {
                let words: Option<Vec<&str>> = words.iter().map(Value::as_str).collect();
                let words = words.ok_or("the command array holds a non-string")?;
                return Ok(words
                    .iter()
                    .map(|word| super::clients::shell_quote(word))
                    .collect::<Vec<_>>()
                    .join(" "));
            }
            Some(_) => return Err(format!("`{pointer}` is not a string")),
            None => {}
        }
    }
    Err(format!(
        "no `{}` field",
        pointers[0].trim_start_matches('/')
    ))
}

/// The agent-facing reason: which tool to call instead, and how.
fn blocked(registry: &Registry, program: &str) -> String {
    // The providers whose `command` is the program the guard reported, named as it names them.
    let providers: Vec<_> = registry
        .iter()
        .filter(|provider| {
            shell_guard::Guard::new([provider.config().command.as_str()])
                .programs()
                .any(|name| name == program)
        })
        .collect();
    let tools: Vec<String> = providers
        .iter()
        .map(|provider| format!("`{}`", provider.tool()))
        .collect();
    let tools = if tools.is_empty() {
        "its Torii MCP tool".to_string()
    } else {
        format!("the Torii MCP tool {}", tools.join(" or "))
    };
    let target = if providers.iter().any(|provider| provider.is_target_aware()) {
        " Choose one of the target aliases the tool announces (the one the human asked for)."
    } else {
        ""
    };
    format!(
        "Torii blocks `{program}` in the shell: call {tools} instead.{target} Send only the \
         arguments after the executable, as `args` (`{program} a b` becomes [\"a\", \"b\"]). \
         Consult `torii_policy` for what is allowed."
    )
}

/// The client's own deny format; `None` when there is nothing to say.
pub fn answer(agent: Agent, verdict: &Verdict) -> Option<Value> {
    let Some(reason) = verdict.deny.as_ref() else {
        // Antigravity reads no answer as a denial: "ask" defers to the human's own
        // permission settings, the nearest it has to saying nothing.
        return (agent == Agent::Antigravity).then(|| json!({"decision": "ask"}));
    };
    Some(match agent {
        Agent::Codex | Agent::Claude => json!({
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": reason,
            }
        }),
        Agent::Cursor => json!({
            "permission": "deny",
            "user_message": reason,
            "agent_message": reason,
        }),
        Agent::Gemini | Agent::Antigravity => json!({"decision": "deny", "reason": reason}),
        // No pre-shell event: never installed for these.
        Agent::Opencode | Agent::Copilot | Agent::CopilotCli | Agent::Pi => {
            json!({"decision": "deny", "reason": reason})
        }
    })
}
