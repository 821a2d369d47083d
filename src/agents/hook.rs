//! `torii __hook <agent>`: the guard a client runs before its own shell and file tools.
//!
//! It reads the client's JSON on stdin and denies, in the client's own deny format:
//! * a command line that would start any installed provider's `command`, telling the agent
//!   which MCP tool to call instead;
//! * a `torii` command that is the human's ([`super::human_only`]): leases, targets, policy,
//!   providers, sessions, agent integrations;
//! * a command line or a file-tool call that names Torii's config root ([`RootPaths`]).
//!
//! It only ever denies: for anything else it answers nothing, so the client's own approval
//! still applies. Anything that stops it from deciding (input it cannot read, a shell line it
//! cannot analyse, a root that is missing or providers it cannot load) denies.
//!
//! Not a sandbox: a process with the same credentials can still reach the cloud another way.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::clients::{Agent, AnswerFormat};
use super::root_paths::RootPaths;
use crate::files::{CappedReadError, read_capped};
use crate::registry::Registry;

/// Far above any command line an agent sends; beyond it the input is refused (and denied).
const MAX_INPUT_BYTES: u64 = 1024 * 1024;

/// The answer for the client: `None` lets the client's own flow decide.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookAnswer {
    pub deny: Option<String>,
}

/// Runs the hook for `agent`: stdin in, the client's answer on stdout. The exit status is 0
/// whatever happens, since the answer itself carries the denial.
pub fn serve(agent: Agent, root: &Path) {
    let verdict = match read_capped(std::io::stdin().lock(), MAX_INPUT_BYTES) {
        Ok(input) => decide_in_time(agent, input, root.to_path_buf()),
        Err(CappedReadError::TooLarge) => HookAnswer {
            deny: Some(invalid_input("larger than 1 MiB")),
        },
        Err(CappedReadError::Io(error)) => HookAnswer {
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
fn decide_in_time(agent: Agent, input: Vec<u8>, root: PathBuf) -> HookAnswer {
    let (answer, verdict) = std::sync::mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name("hook".to_string())
        .spawn(move || {
            let _ = answer.send(decide(agent, &input, &Context::new(root)));
        });
    let late = HookAnswer {
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

/// What the hook decides with, besides the client's input.
pub struct Context {
    /// The config root pinned at install.
    pub root: PathBuf,
    pub paths: RootPaths,
    /// The names `torii` goes by in a shell: `torii`, and this executable's own name.
    pub executables: Vec<String>,
    /// The working directory when the client's input does not name one.
    pub cwd: PathBuf,
}

impl Context {
    /// For the root at `root`, from this process's environment and executable.
    pub fn new(root: PathBuf) -> Context {
        let mut executables = vec!["torii".to_string()];
        if let Some(name) = std::env::current_exe()
            .ok()
            .and_then(|exe| exe.file_name().map(|n| n.to_string_lossy().into_owned()))
        {
            executables.push(name);
        }
        Context {
            paths: RootPaths::new(&root),
            root,
            executables,
            cwd: std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/")),
        }
    }
}

/// What the client is about to do.
#[derive(Debug)]
enum Event {
    /// Run a shell command line, in one of `bases`: the client's working directory and every
    /// directory its input names (a client that sends several has one of them right, and the
    /// hook does not guess which: a path into the root from any of them is denied).
    Shell {
        command: String,
        bases: Vec<PathBuf>,
    },
    /// Read, write or search the files named (paths and glob patterns of files to read), the
    /// relative ones from each of `bases` (the working directory and every directory the
    /// input names); `listed` are globs of names a tool only lists (`Glob`'s `pattern`).
    Files {
        names: Vec<String>,
        listed: Vec<String>,
        bases: Vec<PathBuf>,
        /// A `command` member beside them, read as a shell line too (a tool the hook does not
        /// know as a shell still gets no path past it by calling its input a command).
        command: Option<String>,
    },
}

/// The decision, separated from stdin for tests.
pub fn decide(agent: Agent, input: &[u8], context: &Context) -> HookAnswer {
    let deny = |reason: String| HookAnswer { deny: Some(reason) };
    let event = match event_of(agent, input, &context.cwd) {
        Ok(event) => event,
        Err(why) => return deny(invalid_input(&why)),
    };
    if let Err(error) = std::fs::read_dir(&context.root) {
        return deny(format!(
            "Torii's hook guards the config root {}, which cannot be read ({error}), so it \
             denies every command until the human restores it or removes the hook with \
             `torii agent uninstall {} --hook` in a terminal.",
            context.root.display(),
            agent.name()
        ));
    }
    match event {
        Event::Shell { command, bases } => shell(&command, &bases, context),
        Event::Files {
            names,
            listed,
            bases,
            command,
        } => {
            if let Some(command) = command {
                let verdict = shell(&command, &bases, context);
                if verdict.deny.is_some() {
                    return verdict;
                }
            }
            let reaches = bases.iter().any(|base| {
                names
                    .iter()
                    .any(|name| context.paths.file_reaches(name, base))
                    || listed
                        .iter()
                        .any(|pattern| context.paths.names_reach(pattern, base))
            });
            if reaches {
                deny(root_denied(&context.root))
            } else {
                HookAnswer { deny: None }
            }
        }
    }
}

/// The verdict on a shell line that may run in any of `cwds`: the line is parsed once, and its
/// words are read from each directory in turn.
fn shell(command: &str, cwds: &[PathBuf], context: &Context) -> HookAnswer {
    let deny = |reason: String| HookAnswer { deny: Some(reason) };
    let Ok(registry) = Registry::load(&context.root) else {
        return deny(
            "Torii's hook cannot load the installed providers, so it denies every shell \
             command until that is fixed. Ask the human to run `torii provider list` in a \
             terminal to see why."
                .to_string(),
        );
    };
    let guard = context
        .executables
        .iter()
        .fold(super::blocked::guard(&registry), |guard, name| {
            guard.gated(name, super::human_only::blocked)
        });
    let inspection = guard.inspect(shell_guard::Shell::Posix, command);
    match inspection.verdict {
        Ok(Some(hit)) if is_torii(&hit, context) => deny(human_only_denied()),
        Ok(Some(hit)) => deny(blocked(&registry, &hit.program)),
        Err(error @ shell_guard::GuardError::TooLong { .. }) => deny(format!(
            "Torii's hook denied this shell command: {error}. Write long files with the file \
             tool, or in several shorter commands."
        )),
        Err(error) => deny(format!(
            "Torii's hook denied this shell command: {error}. Write the program name literally, \
             and run installed providers' executables through their Torii MCP tools."
        )),
        Ok(None) => {
            let globs = RootPaths::shell_globs(&inspection.words);
            for cwd in cwds {
                let Ok(bases) = context.paths.shell_bases(&inspection.commands, cwd) else {
                    return deny(format!(
                        "Torii's hook denied this shell command: it changes to more than {} \
                         directories, more than the hook follows to tell whether it reaches \
                         Torii's configuration. Split it into shorter commands.",
                        super::root_paths::MAX_BASES
                    ));
                };
                if inspection
                    .words
                    .iter()
                    .any(|word| context.paths.word_reaches(word, &bases, globs))
                {
                    return deny(root_denied(&context.root));
                }
            }
            HookAnswer { deny: None }
        }
    }
}

fn is_torii(hit: &shell_guard::Hit, context: &Context) -> bool {
    shell_guard::Guard::new(&context.executables)
        .programs()
        .any(|name| name == hit.program)
}

fn human_only_denied() -> String {
    "Torii's hook denied this `torii` command: commands that change leases, targets, policy, \
     providers, sessions or agent integrations are the human's. Ask the human to run it in \
     their own terminal. This shell may run the read-only ones: `torii doctor`, \
     `torii target list|status|show`, `torii policy show|check`, `torii provider list`, \
     `torii agent list|status`."
        .to_string()
}

fn root_denied(root: &Path) -> String {
    format!(
        "Torii's hook denied this: it names Torii's configuration ({}), which only the human \
         reads and changes. Call the Torii MCP tools (`torii_policy` shows the policy), or ask \
         the human.",
        root.display()
    )
}

fn invalid_input(why: &str) -> String {
    format!("Torii's hook could not read the command it was asked about ({why}), so it denies it.")
}

/// Input members that hold a path, a directory or a glob of files to read in the clients'
/// file tools (Claude Code, Gemini CLI and its older parameter names, Codex's `view_image`,
/// Antigravity's PascalCase arguments).
const PATH_MEMBERS: &[&str] = &[
    "file_path",
    "notebook_path",
    "absolute_path",
    "path",
    "paths",
    "dir_path",
    "directory",
    "include",
    "include_pattern",
    "glob",
    "AbsolutePath",
    "TargetFile",
    "DirectoryPath",
    "SearchPath",
    "SearchDirectory",
    "Includes",
];

/// Input members that hold the directory a tool works in: where a search starts, where a
/// shell command runs (Gemini CLI's `dir_path`, Codex's `workdir`, Antigravity's `Cwd`).
const DIRECTORY_MEMBERS: &[&str] = &["path", "dir_path", "directory", "workdir", "Cwd"];

/// The clients' shell tools, whose command is a shell line (a client without tool names,
/// Cursor, sends shell events only).
const SHELL_TOOLS: &[&str] = &[
    "Bash",
    "run_command",
    "run_shell_command",
    "exec_command",
    "shell",
    "local_shell",
];

/// Tools whose `pattern` (Antigravity: `Pattern`) is a glob of names to list (in the other
/// search tools it is a regular expression over the files' content).
const GLOB_TOOLS: &[&str] = &["Glob", "glob", "find_by_name"];

/// The event the client is about to run, its paths read from the client's working directory
/// (`cwd` when the client gives none) and every directory its input names.
fn event_of(agent: Agent, input: &[u8], cwd: &Path) -> Result<Event, String> {
    let value: Value =
        serde_json::from_slice(input).map_err(|error| format!("not JSON: {error}"))?;
    // The client's working directory: `cwd`, or Antigravity's first workspace (it runs its
    // hooks from the folder of `hooks.json`, not from the workspace).
    let cwd = match value
        .get("cwd")
        .or_else(|| value.pointer("/workspacePaths/0"))
    {
        Some(Value::String(dir)) if !dir.is_empty() => cwd.join(dir),
        _ => cwd.to_path_buf(),
    };
    let pointer = agent
        .facts()
        .hook
        .as_ref()
        .map_or("/tool_input/command", |hook| hook.command_pointer);
    // The tool's arguments: the object that holds the command line (`tool_input`, or
    // Antigravity's `toolCall.args`).
    let arguments = pointer.rsplit_once('/').map_or("", |(parent, _)| parent);
    if value.get("tool_name").and_then(Value::as_str) == Some("apply_patch") {
        // Codex's patch tool: the files are named inside the patch text.
        let patch = value
            .pointer("/tool_input/command")
            .and_then(Value::as_str)
            .ok_or("`tool_input.command` of apply_patch is not a string")?;
        let names = patch_files(patch);
        return Ok(Event::Files {
            names,
            listed: Vec::new(),
            bases: vec![cwd.clone()],
            command: None,
        });
    }
    // A command at the top of the document (Cursor's) has no arguments object.
    let input = (!arguments.is_empty())
        .then(|| value.pointer(arguments))
        .flatten()
        .and_then(Value::as_object);
    let directories = match input {
        Some(input) => directories(input)?,
        None => Vec::new(),
    };
    let tool_pointer = agent
        .facts()
        .hook
        .as_ref()
        .map_or("/tool_name", |hook| hook.tool_pointer);
    let tool = value.pointer(tool_pointer).and_then(Value::as_str);
    let shell_tool = tool.is_none_or(|tool| SHELL_TOOLS.contains(&tool));
    let command = value.pointer(pointer);
    if let Some(command) = command
        && shell_tool
    {
        let mut bases = vec![cwd.clone()];
        bases.extend(directories.iter().map(|dir| cwd.join(dir)));
        let command = shell_line(pointer, command)?;
        return Ok(Event::Shell { command, bases });
    }
    let (Some(tool), Some(input)) = (tool, input) else {
        return Err(format!("no `{}` field", pointer.trim_start_matches('/')));
    };
    let command = command
        .map(|command| shell_line(pointer, command))
        .transpose()?;
    let listed = match input.get("pattern").or_else(|| input.get("Pattern")) {
        Some(Value::String(pattern)) if GLOB_TOOLS.contains(&tool) => {
            vec![pattern.clone()]
        }
        _ => Vec::new(),
    };
    let mut names = Vec::new();
    for member in PATH_MEMBERS {
        match input.get(*member) {
            None | Some(Value::Null) => {}
            Some(Value::String(name)) => names.push(name.clone()),
            Some(Value::Array(items)) => {
                for item in items {
                    let name = item
                        .as_str()
                        .ok_or_else(|| format!("`tool_input.{member}` holds a non-string"))?;
                    names.push(name.to_string());
                }
            }
            Some(_) => return Err(format!("`tool_input.{member}` is not a string")),
        }
    }
    let mut bases = vec![cwd.clone()];
    bases.extend(directories.iter().map(|dir| cwd.join(dir)));
    Ok(Event::Files {
        names,
        listed,
        bases,
        command,
    })
}

/// The directories a tool's input names (its [`DIRECTORY_MEMBERS`]), in that order. One that
/// only a shell could resolve (`~`, `$VAR`) cannot be checked, and is refused.
fn directories(input: &serde_json::Map<String, Value>) -> Result<Vec<String>, String> {
    let mut found = Vec::new();
    for member in DIRECTORY_MEMBERS {
        if let Some(Value::String(dir)) = input.get(*member) {
            if dir.starts_with('~') || dir.contains('$') {
                return Err(format!(
                    "`{member}` names a directory through the shell ({dir:?}); give it as a path"
                ));
            }
            found.push(dir.clone());
        }
    }
    Ok(found)
}

/// The files a Codex patch adds, updates, deletes or moves to.
fn patch_files(patch: &str) -> Vec<String> {
    const HEADERS: &[&str] = &[
        "*** Add File:",
        "*** Update File:",
        "*** Delete File:",
        "*** Move to:",
    ];
    patch
        .lines()
        .filter_map(|line| {
            let line = line.trim_start();
            HEADERS
                .iter()
                .find_map(|header| line.strip_prefix(header))
                .map(|name| name.trim().to_string())
        })
        .collect()
}

/// The command line in a client's shell event: a string, or an argument vector
/// (`["bash", "-lc", "…"]`) given back as shell words, re-quoted.
fn shell_line(pointer: &str, command: &Value) -> Result<String, String> {
    match command {
        Value::String(command) => Ok(command.clone()),
        Value::Array(words) => {
            let words: Option<Vec<&str>> = words.iter().map(Value::as_str).collect();
            let words = words.ok_or("the command array holds a non-string")?;
            Ok(words
                .iter()
                .map(|word| super::clients::shell_quote(word))
                .collect::<Vec<_>>()
                .join(" "))
        }
        _ => Err(format!("`{pointer}` is not a string")),
    }
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

/// What the hook sees in `agent`'s tools and what it cannot, for `agent status` and `doctor`;
/// `None` for a client without a hook event.
pub fn coverage(agent: Agent) -> Option<String> {
    let hook = agent.facts().hook.as_ref()?;
    Some(if hook.sees_files {
        crate::tr!("agent-hook-coverage", tools = hook.sees)
    } else {
        crate::tr!(
            "agent-hook-coverage-shell-only",
            tools = hook.sees,
            client = agent.client()
        )
    })
}

/// The client's own deny format; `None` when there is nothing to say.
pub fn answer(agent: Agent, verdict: &HookAnswer) -> Option<Value> {
    // A client without a pre-shell event never runs the hook; were it run by hand, it reads
    // the plainest format.
    let format = agent
        .facts()
        .hook
        .as_ref()
        .map_or(AnswerFormat::Decision, |hook| hook.answer);
    let Some(reason) = verdict.deny.as_ref() else {
        // "ask" defers to the human's own permission settings, the nearest Antigravity has to
        // saying nothing.
        return (format == AnswerFormat::DecisionOrAsk).then(|| json!({"decision": "ask"}));
    };
    Some(match format {
        AnswerFormat::PermissionDecision => json!({
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": reason,
            }
        }),
        AnswerFormat::Cursor => json!({
            "permission": "deny",
            "user_message": reason,
            "agent_message": reason,
        }),
        AnswerFormat::Decision | AnswerFormat::DecisionOrAsk => {
            json!({"decision": "deny", "reason": reason})
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_client_with_a_hook_says_what_it_covers() {
        for agent in Agent::ALL {
            assert_eq!(
                coverage(agent).is_some(),
                agent.hook_event().is_some(),
                "{agent:?}"
            );
        }
    }

    #[test]
    fn a_codex_patch_names_its_files() {
        let patch = "*** Begin Patch\n*** Add File: a.txt\n+x\n*** Update File: b/c.rs\n\
                     *** Move to: d.rs\n@@\n-y\n*** Delete File: e\n*** End Patch\n";
        assert_eq!(patch_files(patch), ["a.txt", "b/c.rs", "d.rs", "e"]);
    }
}
