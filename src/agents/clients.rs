//! What each client understands, as one table ([`FACTS`]): where its files are, the shape of
//! the `torii` MCP entry, and (for the five clients with a pre-shell event) where the hook
//! goes, what the client sends it and how it reads the answer.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::document::{KeyPath, Syntax};
use crate::prompt::NO_GUI_ENV;

/// A client Torii can be installed into.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Agent {
    Codex,
    Claude,
    Gemini,
    Cursor,
    Antigravity,
    Opencode,
    Copilot,
    CopilotCli,
    Pi,
}

impl Agent {
    pub const ALL: [Agent; 9] = [
        Agent::Codex,
        Agent::Claude,
        Agent::Gemini,
        Agent::Cursor,
        Agent::Antigravity,
        Agent::Opencode,
        Agent::Copilot,
        Agent::CopilotCli,
        Agent::Pi,
    ];

    /// Everything Torii knows about this client.
    pub fn facts(self) -> &'static Facts {
        // `FACTS` lists the clients in the order of `ALL` (a test holds it there).
        let facts = &FACTS[self as usize];
        debug_assert_eq!(facts.agent, self);
        facts
    }

    /// The name on the command line and in `<root>/agents/<name>.json`.
    pub fn name(self) -> &'static str {
        self.facts().name
    }

    /// The product, as its users call it.
    pub fn client(self) -> &'static str {
        self.facts().client
    }

    pub fn from_name(name: &str) -> Option<Agent> {
        Agent::ALL.into_iter().find(|agent| agent.name() == name)
    }

    /// The client's native event before its shell tool runs, if it has one.
    pub fn hook_event(self) -> Option<&'static str> {
        self.facts().hook.as_ref().map(|hook| hook.event)
    }

    /// The client does not speak MCP itself: an extension the human installs reads the file.
    pub fn needs_extension(self) -> bool {
        self.facts().needs_extension
    }
}

/// What Torii knows about one client: one row of [`FACTS`].
#[derive(Debug)]
pub struct Facts {
    pub agent: Agent,
    /// The name on the command line and in `<root>/agents/<name>.json`.
    pub name: &'static str,
    /// The product, as its users call it.
    pub client: &'static str,
    /// The file that lists its MCP servers, and its syntax.
    mcp_file: (Dir, &'static str),
    mcp_syntax: Syntax,
    /// Where the `torii` entry goes in that file.
    mcp_key: &'static [&'static str],
    /// The `torii` entry, from this executable and the environment that pins the config root.
    mcp_entry: fn(String, Value) -> Value,
    /// The entry's member that lets the client run the server's tools without asking first,
    /// for a client that asks otherwise (`agent install --trust`).
    pub trust_member: Option<&'static str>,
    /// The client's event before a tool runs, for the five that have one.
    pub hook: Option<Hook>,
    /// The client does not speak MCP itself: an extension the human installs reads the file.
    needs_extension: bool,
}

/// A client's hook: where it goes, what the client sends it and what it reads back.
#[derive(Debug)]
pub struct Hook {
    /// The client's native event before a tool runs.
    pub event: &'static str,
    /// The file the hook is written into.
    file: (Dir, &'static str),
    shape: HookShape,
    /// Where the event's JSON carries the shell command line.
    pub command_pointer: &'static str,
    /// Where it names the tool about to run (absent for a client with shell events only).
    pub tool_pointer: &'static str,
    /// The tools the hook sees, as `agent status` and `doctor` name them.
    pub sees: &'static str,
    /// Whether file tools are among them (else the shell alone).
    pub sees_files: bool,
    pub answer: AnswerFormat,
}

/// How the hook is written into the client's file.
#[derive(Debug, Clone, Copy)]
enum HookShape {
    /// `hooks.<event>`: a group `{matcher, hooks: [{type: command, command}]}`.
    Matcher(&'static str),
    /// Cursor: `version: 1` and `hooks.<event>: [{command}]`.
    Cursor,
    /// Antigravity: a named group of its own ([`ANTIGRAVITY_GROUP`]) on `run_command`.
    AntigravityGroup,
}

/// How the client reads the hook's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnswerFormat {
    /// `hookSpecificOutput.permissionDecision` (Claude Code, Codex).
    PermissionDecision,
    /// `permission`, `user_message`, `agent_message` (Cursor).
    Cursor,
    /// `decision` and `reason` (Gemini CLI).
    Decision,
    /// `decision` and `reason`, and `decision: ask` when Torii has nothing to say: Antigravity
    /// reads no answer as a denial.
    DecisionOrAsk,
}

/// Where a client keeps its files.
#[derive(Debug, Clone, Copy)]
enum Dir {
    /// The first of these variables that is set, else this path under the home.
    Var(&'static [&'static str], &'static [&'static str]),
    /// This path under the home, or under the variable when it is set (it stands for the
    /// home: `GEMINI_CLI_HOME`).
    Home(&'static str, &'static [&'static str]),
    /// The variable, else this directory under the per-user configuration of Linux.
    Xdg(&'static str, &'static str),
    /// VS Code's user profile directory on this system (`TORII_COPILOT_HOME` first).
    VsCodeUser,
}

const CODEX_HOME: Dir = Dir::Var(&["CODEX_HOME"], &[".codex"]);
const CLAUDE_HOME: Dir = Dir::Var(&["CLAUDE_CONFIG_DIR"], &[".claude"]);
const GEMINI_HOME: Dir = Dir::Home("GEMINI_CLI_HOME", &[".gemini"]);
const CURSOR_HOME: Dir = Dir::Var(&["TORII_CURSOR_HOME"], &[".cursor"]);
const ANTIGRAVITY_HOME: Dir = Dir::Var(&["TORII_ANTIGRAVITY_HOME"], &[".gemini", "config"]);
const OPENCODE_HOME: Dir = Dir::Xdg("TORII_OPENCODE_HOME", "opencode");

/// The clients, in the order of [`Agent::ALL`]. Facts come from the book and from each
/// client's own documentation and package; the agents page lists them with their sources.
pub const FACTS: [Facts; 9] = [
    Facts {
        agent: Agent::Codex,
        name: "codex",
        client: "OpenAI Codex CLI",
        mcp_file: (CODEX_HOME, "config.toml"),
        mcp_syntax: Syntax::Toml,
        mcp_key: &["mcp_servers", "torii"],
        // Codex asks before every MCP tool call, and its non-interactive mode has nobody to
        // ask; Torii's policy is the gate for these calls.
        mcp_entry: |exe, env| json!({"command": exe, "args": [], "env": env, "default_tools_approval_mode": "approve"}),
        trust_member: None,
        hook: Some(Hook {
            event: "PreToolUse",
            file: (CODEX_HOME, "hooks.json"),
            shape: HookShape::Matcher(CODEX_MATCHER),
            command_pointer: "/tool_input/command",
            tool_pointer: "/tool_name",
            sees: "Bash (exec_command), apply_patch, view_image",
            sees_files: true,
            answer: AnswerFormat::PermissionDecision,
        }),
        needs_extension: false,
    },
    Facts {
        agent: Agent::Claude,
        name: "claude",
        client: "Claude Code",
        // `~/.claude.json`, or `.claude.json` in the directory the variable names.
        mcp_file: (Dir::Var(&["CLAUDE_CONFIG_DIR"], &[]), ".claude.json"),
        mcp_syntax: Syntax::Json,
        mcp_key: &["mcpServers", "torii"],
        mcp_entry: |exe, env| json!({"type": "stdio", "command": exe, "args": [], "env": env}),
        trust_member: None,
        hook: Some(Hook {
            event: "PreToolUse",
            file: (CLAUDE_HOME, "settings.json"),
            shape: HookShape::Matcher(CLAUDE_MATCHER),
            command_pointer: "/tool_input/command",
            tool_pointer: "/tool_name",
            sees: "Bash, Read, Write, Edit, MultiEdit, NotebookEdit, Glob, Grep",
            sees_files: true,
            answer: AnswerFormat::PermissionDecision,
        }),
        needs_extension: false,
    },
    Facts {
        agent: Agent::Gemini,
        name: "gemini",
        client: "Gemini CLI",
        mcp_file: (GEMINI_HOME, "settings.json"),
        mcp_syntax: Syntax::Json,
        mcp_key: &["mcpServers", "torii"],
        mcp_entry: |exe, env| json!({"command": exe, "args": [], "env": env}),
        trust_member: Some("trust"),
        hook: Some(Hook {
            event: "BeforeTool",
            file: (GEMINI_HOME, "settings.json"),
            shape: HookShape::Matcher(GEMINI_MATCHER),
            command_pointer: "/tool_input/command",
            tool_pointer: "/tool_name",
            sees: "run_shell_command, read_file, write_file, replace, read_many_files, glob, \
                   grep_search, list_directory",
            sees_files: true,
            answer: AnswerFormat::Decision,
        }),
        needs_extension: false,
    },
    Facts {
        agent: Agent::Cursor,
        name: "cursor",
        client: "Cursor",
        mcp_file: (CURSOR_HOME, "mcp.json"),
        mcp_syntax: Syntax::Json,
        mcp_key: &["mcpServers", "torii"],
        mcp_entry: |exe, env| json!({"type": "stdio", "command": exe, "args": [], "env": env}),
        trust_member: None,
        hook: Some(Hook {
            event: "beforeShellExecution",
            file: (CURSOR_HOME, "hooks.json"),
            shape: HookShape::Cursor,
            command_pointer: "/command",
            tool_pointer: "/tool_name",
            sees: "beforeShellExecution",
            sees_files: false,
            answer: AnswerFormat::Cursor,
        }),
        needs_extension: false,
    },
    Facts {
        agent: Agent::Antigravity,
        name: "antigravity",
        client: "Google Antigravity",
        mcp_file: (ANTIGRAVITY_HOME, "mcp_config.json"),
        mcp_syntax: Syntax::Json,
        mcp_key: &["mcpServers", "torii"],
        mcp_entry: |exe, env| json!({"command": exe, "args": [], "env": env}),
        trust_member: None,
        hook: Some(Hook {
            event: "PreToolUse",
            file: (ANTIGRAVITY_HOME, "hooks.json"),
            shape: HookShape::AntigravityGroup,
            command_pointer: "/toolCall/args/CommandLine",
            tool_pointer: "/toolCall/name",
            sees: "run_command, view_file, write_to_file, replace_file_content, list_dir, \
                   grep_search, find_by_name",
            sees_files: true,
            answer: AnswerFormat::DecisionOrAsk,
        }),
        needs_extension: false,
    },
    Facts {
        agent: Agent::Opencode,
        name: "opencode",
        client: "opencode",
        mcp_file: (OPENCODE_HOME, "opencode.json"),
        mcp_syntax: Syntax::Json,
        mcp_key: &["mcp", "torii"],
        mcp_entry: |exe, env| json!({"type": "local", "command": [exe], "environment": env, "enabled": true}),
        trust_member: None,
        hook: None,
        needs_extension: false,
    },
    Facts {
        agent: Agent::Copilot,
        name: "copilot",
        client: "GitHub Copilot in VS Code",
        mcp_file: (Dir::VsCodeUser, "mcp.json"),
        mcp_syntax: Syntax::Json,
        mcp_key: &["servers", "torii"],
        mcp_entry: |exe, env| json!({"type": "stdio", "command": exe, "args": [], "env": env}),
        trust_member: None,
        hook: None,
        needs_extension: false,
    },
    Facts {
        agent: Agent::CopilotCli,
        name: "copilot-cli",
        client: "GitHub Copilot CLI",
        // The client's own variable after Torii's.
        mcp_file: (
            Dir::Var(&["TORII_COPILOT_CLI_HOME", "COPILOT_HOME"], &[".copilot"]),
            "mcp-config.json",
        ),
        mcp_syntax: Syntax::Json,
        mcp_key: &["mcpServers", "torii"],
        mcp_entry: |exe, env| json!({"type": "local", "command": exe, "args": [], "env": env, "tools": ["*"]}),
        trust_member: None,
        hook: None,
        needs_extension: false,
    },
    Facts {
        agent: Agent::Pi,
        name: "pi",
        client: "pi",
        mcp_file: (
            Dir::Var(&["TORII_PI_HOME", "PI_CODING_AGENT_DIR"], &[".pi", "agent"]),
            "mcp.json",
        ),
        mcp_syntax: Syntax::Json,
        mcp_key: &["mcpServers", "torii"],
        mcp_entry: |exe, env| json!({"command": exe, "args": [], "env": env}),
        trust_member: None,
        hook: None,
        needs_extension: true,
    },
];

/// The environment the file locations depend on, read once so tests can give their own.
#[derive(Debug, Clone, Default)]
pub struct Locations {
    pub home: Option<PathBuf>,
    vars: Vec<(&'static str, PathBuf)>,
}

/// Every variable that moves a client's files.
const LOCATION_VARS: &[&str] = &[
    "CODEX_HOME",
    "CLAUDE_CONFIG_DIR",
    "GEMINI_CLI_HOME",
    "XDG_CONFIG_HOME",
    "APPDATA",
    "TORII_CURSOR_HOME",
    "TORII_ANTIGRAVITY_HOME",
    "TORII_OPENCODE_HOME",
    "TORII_COPILOT_HOME",
    "TORII_COPILOT_CLI_HOME",
    "COPILOT_HOME",
    "TORII_PI_HOME",
    "PI_CODING_AGENT_DIR",
];

impl Locations {
    pub fn from_env() -> Self {
        let home = [std::env::var_os("HOME"), std::env::var_os("USERPROFILE")]
            .into_iter()
            .flatten()
            .find(|value| !value.is_empty())
            .map(PathBuf::from);
        // Made absolute now: the state file records these paths, and a later command may run
        // from another directory.
        let vars = LOCATION_VARS
            .iter()
            .filter_map(|name| {
                let value: OsString = std::env::var_os(name)?;
                let path = std::path::absolute(PathBuf::from(value)).ok()?;
                (!path.as_os_str().is_empty()).then_some((*name, path))
            })
            .collect();
        Self { home, vars }
    }

    fn var(&self, name: &str) -> Option<&Path> {
        self.vars
            .iter()
            .find(|(var, _)| *var == name)
            .map(|(_, value)| value.as_path())
    }

    fn home(&self) -> Result<&Path, LocationError> {
        self.home.as_deref().ok_or(LocationError::NoHome)
    }

    /// Where `dir` is here.
    fn resolve(&self, dir: Dir) -> Result<PathBuf, LocationError> {
        let under = |base: &Path, path: &[&str]| {
            path.iter()
                .fold(base.to_path_buf(), |dir, part| dir.join(part))
        };
        match dir {
            Dir::Var(vars, path) => match vars.iter().find_map(|var| self.var(var)) {
                Some(dir) => Ok(dir.to_path_buf()),
                None => Ok(under(self.home()?, path)),
            },
            Dir::Home(var, path) => match self.var(var) {
                Some(home) => Ok(under(home, path)),
                None => Ok(under(self.home()?, path)),
            },
            Dir::Xdg(var, name) => match self.var(var) {
                Some(dir) => Ok(dir.to_path_buf()),
                None => Ok(self.xdg_config()?.join(name)),
            },
            Dir::VsCodeUser => self.vscode_user(),
        }
    }

    fn file(&self, (dir, name): (Dir, &str)) -> Result<PathBuf, LocationError> {
        Ok(self.resolve(dir)?.join(name))
    }

    /// The base of per-user configuration on Linux: `$XDG_CONFIG_HOME`, else `~/.config`.
    fn xdg_config(&self) -> Result<PathBuf, LocationError> {
        match self.var("XDG_CONFIG_HOME") {
            Some(dir) if dir.is_absolute() => Ok(dir.to_path_buf()),
            _ => Ok(self.home()?.join(".config")),
        }
    }

    /// VS Code's user profile directory on this system.
    fn vscode_user(&self) -> Result<PathBuf, LocationError> {
        self.vscode_user_on(System::CURRENT)
    }

    /// VS Code's user profile directory on `system` (`TORII_COPILOT_HOME` first): a plain
    /// function of the system, so that all three are tested on each.
    fn vscode_user_on(&self, system: System) -> Result<PathBuf, LocationError> {
        if let Some(dir) = self.var("TORII_COPILOT_HOME") {
            return Ok(dir.to_path_buf());
        }
        match system {
            System::Windows => {
                let appdata = self.var("APPDATA").ok_or(LocationError::NoAppData)?;
                Ok(appdata.join("Code").join("User"))
            }
            System::MacOs => Ok(self
                .home()?
                .join("Library")
                .join("Application Support")
                .join("Code")
                .join("User")),
            System::Linux => Ok(self.xdg_config()?.join("Code").join("User")),
        }
    }
}

/// The systems whose clients keep their files in different places.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum System {
    Windows,
    MacOs,
    /// And every other Unix: the XDG layout.
    Linux,
}

impl System {
    const CURRENT: System = if cfg!(windows) {
        System::Windows
    } else if cfg!(target_os = "macos") {
        System::MacOs
    } else {
        System::Linux
    };
}

#[derive(Debug, thiserror::Error)]
pub enum LocationError {
    #[error("{}", crate::tr!("agent-no-home"))]
    NoHome,
    #[error("{}", crate::tr!("agent-no-appdata"))]
    NoAppData,
}

/// One managed place in one file.
#[derive(Debug, Clone, PartialEq)]
pub struct Placement {
    pub file: PathBuf,
    pub syntax: Syntax,
    pub place: Place,
    pub value: Value,
    /// Removal leaves the value while this path still holds something (Cursor's `version`,
    /// which the human's own hooks keep needing).
    pub keep_while: Option<KeyPath>,
}

/// Where in a document a managed value lives.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Place {
    /// The value under this key path (`mcpServers.torii`).
    Member(KeyPath),
    /// One element of the array at this key path (`hooks.PreToolUse`), found by its value.
    Element(KeyPath),
}

impl Place {
    /// The member's key path, or the array's.
    pub fn path(&self) -> &[String] {
        match self {
            Place::Member(path) | Place::Element(path) => path,
        }
    }

    pub fn describe(&self) -> String {
        match self {
            Place::Member(path) => super::document::dotted(path),
            Place::Element(path) => format!("an entry of {}", super::document::dotted(path)),
        }
    }
}

/// What a server entry pins: this executable and this config root.
#[derive(Debug, Clone)]
pub struct Pinned {
    pub exe: PathBuf,
    pub root: PathBuf,
}

impl Pinned {
    fn exe(&self) -> String {
        self.exe.display().to_string()
    }

    fn env(&self) -> Value {
        json!({ crate::paths::CONFIG_DIR_ENV: self.root.display().to_string() })
    }

    /// The command line a client runs for the hook: this executable, the hidden `__hook`
    /// command and the config root (clients do not pass `TORII_CONFIG_DIR` to hooks).
    pub fn hook_command(&self, agent: Agent) -> String {
        format!(
            "{} __hook {} --config-dir {}",
            shell_quote(&self.exe()),
            agent.name(),
            shell_quote(&self.root.display().to_string())
        )
    }
}

/// A binary under a cargo target directory: `cargo build` replaces it and `cargo clean`
/// deletes it, so a client pinned to it breaks later. A target directory is one named `target`
/// holding `debug` or `release`, or one that cargo tagged (`CACHEDIR.TAG`), wherever
/// `CARGO_TARGET_DIR` put it.
pub fn is_cargo_build(exe: &Path) -> bool {
    let parts: Vec<_> = exe.components().map(|part| part.as_os_str()).collect();
    let named_target = parts
        .windows(2)
        .any(|pair| pair[0] == "target" && (pair[1] == "debug" || pair[1] == "release"));
    // `<target>/<profile>/torii`, or `<target>/<triple>/<profile>/torii`.
    named_target
        || exe.ancestors().skip(2).take(2).any(|dir| {
            std::fs::read_to_string(dir.join("CACHEDIR.TAG"))
                .is_ok_and(|tag| tag.contains("created by cargo"))
        })
}

/// The executable a server entry starts: its `command`, a string or (opencode) a list whose
/// first word it is.
pub fn entry_exe(entry: &Value) -> Option<PathBuf> {
    let command = entry.get("command")?;
    let exe = match command {
        Value::Array(words) => words.first()?,
        other => other,
    };
    exe.as_str().map(PathBuf::from)
}

/// The executable a hook Torii wrote runs: the first word of the `command` found in `value`
/// (the hook's JSON, in whichever shape its client has), unquoted as [`shell_quote`] quoted it.
pub fn hook_exe(value: &Value) -> Option<PathBuf> {
    match value {
        Value::Object(members) => match members.get("command") {
            Some(Value::String(command)) => Some(PathBuf::from(first_word(command))),
            _ => members.values().find_map(hook_exe),
        },
        Value::Array(items) => items.iter().find_map(hook_exe),
        _ => None,
    }
}

/// The first word of a command line written by [`Pinned::hook_command`]: plain, `"…"`
/// (Windows), or `'…'` with `'\''` for a quote inside.
fn first_word(command: &str) -> String {
    if let Some(rest) = command.strip_prefix('"') {
        return rest.split('"').next().unwrap_or_default().to_string();
    }
    let Some(mut rest) = command.strip_prefix('\'') else {
        return command.split(' ').next().unwrap_or_default().to_string();
    };
    let mut word = String::new();
    loop {
        let Some((part, after)) = rest.split_once('\'') else {
            word.push_str(rest);
            return word;
        };
        word.push_str(part);
        match after.strip_prefix("\\''") {
            Some(more) => {
                word.push('\'');
                rest = more;
            }
            None => return word,
        }
    }
}

/// The config root a server entry pins (`TORII_CONFIG_DIR` in its environment).
pub fn entry_root(entry: &Value) -> Option<PathBuf> {
    ENV_MEMBERS.iter().find_map(|member| {
        entry
            .get(member)?
            .get(crate::paths::CONFIG_DIR_ENV)?
            .as_str()
            .map(PathBuf::from)
    })
}

/// Quotes a word for the shell that runs hook commands (`sh -c` on Unix).
pub fn shell_quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+:@%=,".contains(c));
    if plain {
        return word.to_string();
    }
    if cfg!(windows) {
        format!("\"{word}\"")
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

fn keys(path: &[&str]) -> KeyPath {
    path.iter().map(|key| key.to_string()).collect()
}

/// What the human asked `agent install` to add to the server entry, beyond what pins it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EntryOptions {
    /// The client runs Torii's tools without asking first ([`Facts::trust_member`]): Torii's
    /// policy is the gate.
    pub trust: bool,
    /// The server runs headless (`TORII_NO_GUI=1`): no window opens, and what no rule decides
    /// is denied.
    pub headless: bool,
}

/// The entry's members that hold its environment (`environment` in opencode).
const ENV_MEMBERS: [&str; 2] = ["env", "environment"];

impl EntryOptions {
    /// The options `entry` carries, written by `agent install` or added by hand as the docs
    /// once said.
    pub fn found_in(entry: &Value) -> Self {
        let trust = FACTS
            .iter()
            .filter_map(|facts| facts.trust_member)
            .any(|member| entry.get(member) == Some(&Value::Bool(true)));
        let headless = ENV_MEMBERS.iter().any(|member| {
            entry.get(member).and_then(|env| env.get(NO_GUI_ENV)) == Some(&json!("1"))
        });
        Self { trust, headless }
    }

    pub fn union(self, other: Self) -> Self {
        Self {
            trust: self.trust || other.trust,
            headless: self.headless || other.headless,
        }
    }
}

/// `entry` without the options: two entries that differ only there are the same entry, so an
/// option never makes Torii's own entry look changed by someone else.
pub fn without_options(entry: &Value) -> Value {
    let mut plain = entry.clone();
    if let Value::Object(members) = &mut plain {
        for member in FACTS.iter().filter_map(|facts| facts.trust_member) {
            members.remove(member);
        }
        for member in ENV_MEMBERS {
            if let Some(Value::Object(env)) = members.get_mut(member) {
                env.remove(NO_GUI_ENV);
            }
        }
    }
    plain
}

/// The `torii` MCP server entry for `agent`, with `options`.
pub fn mcp_placement(
    agent: Agent,
    at: &Locations,
    pinned: &Pinned,
    options: EntryOptions,
) -> Result<Placement, LocationError> {
    let facts = agent.facts();
    let mut env = pinned.env();
    if options.headless {
        env[NO_GUI_ENV] = json!("1");
    }
    let mut value = (facts.mcp_entry)(pinned.exe(), env);
    if let (true, Some(member), Value::Object(members)) =
        (options.trust, facts.trust_member, &mut value)
    {
        members.insert(member.to_string(), Value::Bool(true));
    }
    Ok(Placement {
        keep_while: None,
        file: at.file(facts.mcp_file)?,
        syntax: facts.mcp_syntax,
        place: Place::Member(keys(facts.mcp_key)),
        value,
    })
}

/// The tools Torii's hook sees in Claude Code: the shell and every file tool. Made only of
/// names and `|`, Claude Code reads it as an exact list (MultiEdit is gone from 2.1; older
/// versions still have it).
pub const CLAUDE_MATCHER: &str = "Bash|Read|Write|Edit|MultiEdit|NotebookEdit|Glob|Grep";

/// The same in Gemini CLI, which reads a matcher as an unanchored regular expression
/// (`search_file_content` is the older name of `grep_search`).
pub const GEMINI_MATCHER: &str = "^(run_shell_command|read_file|write_file|replace|read_many_files|glob|grep_search|search_file_content|list_directory)$";

/// The same in Codex: `Bash` is its name for `exec_command`; it has no file tools besides
/// `apply_patch` and `view_image` (it reads files through the shell).
pub const CODEX_MATCHER: &str = "Bash|apply_patch|view_image";

/// The same in Antigravity: its terminal tool and the file tools its agent harness offers (the
/// names and arguments of `google-antigravity` 0.1.22's harness), and the IDE's directory and
/// search tools. A regular expression, anchored: a matcher of one name matches it exactly.
pub const ANTIGRAVITY_MATCHER: &str = "^(run_command|view_file|write_to_file|replace_file_content|list_dir|grep_search|find_by_name)$";

/// The hook's managed places for `agent` (`None`: the client has no pre-shell event).
pub fn hook_placements(
    agent: Agent,
    at: &Locations,
    pinned: &Pinned,
) -> Result<Option<Vec<Placement>>, LocationError> {
    let Some(hook) = &agent.facts().hook else {
        return Ok(None);
    };
    let command = pinned.hook_command(agent);
    let file = at.file(hook.file)?;
    let placement = |place: Place, value: Value| Placement {
        keep_while: None,
        file: file.clone(),
        syntax: Syntax::Json,
        place,
        value,
    };
    Ok(Some(match hook.shape {
        HookShape::Matcher(matcher) => vec![placement(
            Place::Element(keys(&["hooks", hook.event])),
            json!({
                "matcher": matcher,
                "hooks": [{"type": "command", "command": command}],
            }),
        )],
        HookShape::Cursor => vec![
            Placement {
                keep_while: Some(keys(&["hooks"])),
                ..placement(Place::Member(keys(&["version"])), json!(1))
            },
            placement(
                Place::Element(keys(&["hooks", hook.event])),
                json!({"command": command}),
            ),
        ],
        HookShape::AntigravityGroup => vec![placement(
            Place::Member(keys(&[ANTIGRAVITY_GROUP])),
            json!({
                "enabled": true,
                hook.event: [{
                    "matcher": ANTIGRAVITY_MATCHER,
                    "hooks": [{"type": "command", "command": command, "timeout": 30}],
                }],
            }),
        )],
    }))
}

/// Codex runs a hook from `hooks.json` only once it is trusted: `[hooks.state."<key>"]` in
/// `config.toml` holds the hash of the hook as Codex identifies it. The key names the file,
/// the event and the hook's position (`group` in `PreToolUse`, first handler); the hash is
/// SHA-256 over the hook's canonical JSON (sorted keys, no spaces, `timeout` and `async` at
/// their defaults). Written by the human's own `agent install --hook`: the trust is theirs.
pub fn codex_trust(
    at: &Locations,
    pinned: &Pinned,
    group: usize,
) -> Result<Placement, LocationError> {
    let home = at.resolve(CODEX_HOME)?;
    let hooks = home.join("hooks.json");
    let hex = codex_hook_hash(CODEX_MATCHER, &pinned.hook_command(Agent::Codex));
    let key = format!("{}:pre_tool_use:{group}:0", hooks.display());
    Ok(Placement {
        keep_while: None,
        file: home.join("config.toml"),
        syntax: Syntax::Toml,
        place: Place::Member(vec![
            "hooks".to_string(),
            "state".to_string(),
            key,
            "trusted_hash".to_string(),
        ]),
        value: Value::String(format!("sha256:{hex}")),
    })
}

/// Whether `managed` is a Codex trust entry for Torii's hook in this `CODEX_HOME`.
pub fn is_codex_trust(
    at: &Locations,
    managed: &super::state::Managed,
) -> Result<bool, LocationError> {
    let home = at.resolve(CODEX_HOME)?;
    let prefix = format!("{}:pre_tool_use:", home.join("hooks.json").display());
    Ok(managed.file == home.join("config.toml")
        && matches!(&managed.place, Place::Member(path)
            if path.len() == 4
                && path[0] == "hooks"
                && path[1] == "state"
                && path[2].starts_with(&prefix)
                && path[3] == "trusted_hash"))
}

/// The hash Codex gives a `PreToolUse` hook on `matcher` running `command`.
fn codex_hook_hash(matcher: &str, command: &str) -> String {
    let identity = json!({
        "event_name": "pre_tool_use",
        "matcher": matcher,
        "hooks": [{"type": "command", "command": command, "timeout": 600, "async": false}],
    });
    // serde_json's map is ordered by key, and `to_string` writes no whitespace.
    crate::digest::sha256_hex(identity.to_string().as_bytes())
}

/// The hook group Torii owns whole in Antigravity's hooks file.
pub const ANTIGRAVITY_GROUP: &str = "torii-provider-boundary";

/// opencode's directory, where it may also keep `opencode.jsonc`.
pub fn opencode_dir(at: &Locations) -> Result<PathBuf, LocationError> {
    at.resolve(OPENCODE_HOME)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A binary in a target directory is a cargo build wherever `CARGO_TARGET_DIR` put it;
    /// an installed one is not.
    #[test]
    fn a_cargo_build_is_known_by_its_directory_name_or_cargo_s_tag() {
        assert!(is_cargo_build(Path::new("/src/torii/target/debug/torii")));
        assert!(is_cargo_build(Path::new(
            "/src/torii/target/release/deps/torii"
        )));
        let dir = tempfile::tempdir().unwrap();
        let elsewhere = dir.path().join("builds");
        std::fs::create_dir_all(elsewhere.join("x86_64-unknown-linux-gnu/release")).unwrap();
        let exe = elsewhere.join("debug/torii");
        assert!(!is_cargo_build(&exe));
        std::fs::write(
            elsewhere.join("CACHEDIR.TAG"),
            "Signature: 8a477f597d28d172789f06886806bc55\n# This file is a cache directory tag created by cargo.\n",
        )
        .unwrap();
        assert!(is_cargo_build(&exe));
        assert!(is_cargo_build(
            &elsewhere.join("x86_64-unknown-linux-gnu/release/torii")
        ));
        assert!(!is_cargo_build(Path::new("/home/u/.local/bin/torii")));
        assert!(!is_cargo_build(&elsewhere.join("torii")));
    }

    fn at(vars: &[(&'static str, &str)]) -> Locations {
        Locations {
            home: Some(PathBuf::from("/home/u")),
            vars: vars
                .iter()
                .map(|(name, value)| (*name, PathBuf::from(value)))
                .collect(),
        }
    }

    fn pinned() -> Pinned {
        Pinned {
            exe: PathBuf::from("/opt/torii/bin/torii"),
            root: PathBuf::from("/home/u/.config/torii"),
        }
    }

    #[test]
    fn default_files_follow_the_book() {
        let cases = [
            (Agent::Codex, "/home/u/.codex/config.toml"),
            (Agent::Claude, "/home/u/.claude.json"),
            (Agent::Gemini, "/home/u/.gemini/settings.json"),
            (Agent::Cursor, "/home/u/.cursor/mcp.json"),
            (Agent::Antigravity, "/home/u/.gemini/config/mcp_config.json"),
            (Agent::Opencode, "/home/u/.config/opencode/opencode.json"),
            (Agent::CopilotCli, "/home/u/.copilot/mcp-config.json"),
            (Agent::Pi, "/home/u/.pi/agent/mcp.json"),
        ];
        for (agent, file) in cases {
            let placement =
                mcp_placement(agent, &at(&[]), &pinned(), EntryOptions::default()).unwrap();
            assert_eq!(placement.file, PathBuf::from(file), "{agent:?}");
        }
        #[cfg(target_os = "linux")]
        assert_eq!(
            mcp_placement(Agent::Copilot, &at(&[]), &pinned(), EntryOptions::default())
                .unwrap()
                .file,
            PathBuf::from("/home/u/.config/Code/User/mcp.json")
        );
    }

    #[test]
    fn the_vs_code_profile_is_found_on_every_system() {
        let user = |vars: &[(&'static str, &str)], system| at(vars).vscode_user_on(system);
        let path = |text: &str| Ok::<PathBuf, ()>(PathBuf::from(text));
        let ok = |result: Result<PathBuf, LocationError>| result.map_err(|_| ());
        assert_eq!(
            ok(user(&[("APPDATA", "/w/AppData/Roaming")], System::Windows)),
            path("/w/AppData/Roaming/Code/User")
        );
        assert!(matches!(
            user(&[], System::Windows),
            Err(LocationError::NoAppData)
        ));
        assert_eq!(
            ok(user(&[], System::MacOs)),
            path("/home/u/Library/Application Support/Code/User")
        );
        assert_eq!(
            ok(user(&[], System::Linux)),
            path("/home/u/.config/Code/User")
        );
        // `/x` is an absolute XDG_CONFIG_HOME only where `/` starts one.
        #[cfg(unix)]
        assert_eq!(
            ok(user(&[("XDG_CONFIG_HOME", "/x")], System::Linux)),
            path("/x/Code/User")
        );
        // TORII_COPILOT_HOME first, on every system.
        for system in [System::Windows, System::MacOs, System::Linux] {
            let vars = [
                ("TORII_COPILOT_HOME", "/vs"),
                ("APPDATA", "/w"),
                ("XDG_CONFIG_HOME", "/x"),
            ];
            assert_eq!(ok(user(&vars, system)), path("/vs"), "{system:?}");
        }
    }

    #[test]
    fn override_variables_move_the_files() {
        let vars = [
            ("CODEX_HOME", "/c"),
            ("CLAUDE_CONFIG_DIR", "/cl"),
            ("TORII_CURSOR_HOME", "/cu"),
            ("TORII_ANTIGRAVITY_HOME", "/ag"),
            ("TORII_OPENCODE_HOME", "/oc"),
            ("TORII_COPILOT_HOME", "/vs"),
            ("TORII_COPILOT_CLI_HOME", "/cp"),
            ("TORII_PI_HOME", "/pi"),
        ];
        let cases = [
            (Agent::Codex, "/c/config.toml"),
            (Agent::Claude, "/cl/.claude.json"),
            (Agent::Cursor, "/cu/mcp.json"),
            (Agent::Antigravity, "/ag/mcp_config.json"),
            (Agent::Opencode, "/oc/opencode.json"),
            (Agent::Copilot, "/vs/mcp.json"),
            (Agent::CopilotCli, "/cp/mcp-config.json"),
            (Agent::Pi, "/pi/mcp.json"),
        ];
        for (agent, file) in cases {
            let placement =
                mcp_placement(agent, &at(&vars), &pinned(), EntryOptions::default()).unwrap();
            assert_eq!(placement.file, PathBuf::from(file), "{agent:?}");
        }
        let hook = hook_placements(Agent::Claude, &at(&vars), &pinned())
            .unwrap()
            .unwrap();
        assert_eq!(hook[0].file, PathBuf::from("/cl/settings.json"));
        let hook = hook_placements(Agent::Claude, &at(&[]), &pinned())
            .unwrap()
            .unwrap();
        assert_eq!(hook[0].file, PathBuf::from("/home/u/.claude/settings.json"));
    }

    #[test]
    fn exactly_four_clients_have_no_hook() {
        let without: Vec<_> = Agent::ALL
            .into_iter()
            .filter(|agent| {
                hook_placements(*agent, &at(&[]), &pinned())
                    .unwrap()
                    .is_none()
            })
            .collect();
        assert_eq!(
            without,
            [
                Agent::Opencode,
                Agent::Copilot,
                Agent::CopilotCli,
                Agent::Pi
            ]
        );
        for agent in Agent::ALL {
            assert_eq!(agent.hook_event().is_none(), without.contains(&agent));
            assert_eq!(Agent::from_name(agent.name()), Some(agent));
        }
    }

    #[test]
    fn the_table_has_one_row_per_client_in_order() {
        for (index, agent) in Agent::ALL.into_iter().enumerate() {
            assert_eq!(FACTS[index].agent, agent);
            assert_eq!(agent as usize, index);
        }
        for name in FACTS.iter().flat_map(|facts| {
            let mut dirs = vec![facts.mcp_file.0];
            dirs.extend(facts.hook.as_ref().map(|hook| hook.file.0));
            dirs.into_iter().flat_map(|dir| match dir {
                Dir::Var(vars, _) => vars.to_vec(),
                Dir::Home(var, _) | Dir::Xdg(var, _) => vec![var],
                Dir::VsCodeUser => vec!["TORII_COPILOT_HOME", "XDG_CONFIG_HOME", "APPDATA"],
            })
        }) {
            assert!(LOCATION_VARS.contains(&name), "{name} is never read");
        }
    }

    #[test]
    fn the_codex_trust_hash_is_the_one_codex_computes() {
        // Codex 0.171.0 ran a hook `/tmp/standin/deny.sh claude` trusted with this hash.
        assert_eq!(
            codex_hook_hash("Bash", "/tmp/standin/deny.sh claude"),
            "63c3e557cbbbf0026a008e0c622f50b0c4ac3e4cba71f7c08c13a5ecfb065da1"
        );
        let placement = codex_trust(&at(&[("CODEX_HOME", "/c")]), &pinned(), 2).unwrap();
        assert_eq!(placement.file, PathBuf::from("/c/config.toml"));
        assert_eq!(
            placement.place,
            Place::Member(keys(&[
                "hooks",
                "state",
                "/c/hooks.json:pre_tool_use:2:0",
                "trusted_hash"
            ]))
        );
    }

    #[test]
    fn the_hook_s_executable_is_read_back_from_every_shape() {
        for exe in [
            "/opt/torii/bin/torii",
            "/opt/my tools/torii",
            "/home/it's/torii",
        ] {
            let pinned = Pinned {
                exe: PathBuf::from(exe),
                root: PathBuf::from("/home/u/.config/torii"),
            };
            for agent in [Agent::Claude, Agent::Cursor, Agent::Antigravity] {
                let placements = hook_placements(agent, &at(&[]), &pinned).unwrap().unwrap();
                let found = placements
                    .iter()
                    .find_map(|placement| hook_exe(&placement.value));
                assert_eq!(found, Some(PathBuf::from(exe)), "{agent:?}");
            }
        }
    }

    #[cfg(unix)]
    #[test]
    fn hook_commands_quote_paths_for_the_shell() {
        let pinned = Pinned {
            exe: PathBuf::from("/opt/my tools/torii"),
            root: PathBuf::from("/home/u/it's"),
        };
        assert_eq!(
            pinned.hook_command(Agent::Claude),
            r#"'/opt/my tools/torii' __hook claude --config-dir '/home/u/it'\''s'"#
        );
    }
}
