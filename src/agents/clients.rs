//! What each client understands: where its files are, the shape of the `torii` MCP entry,
//! and (for the five clients with a pre-shell event) the shape of the hook.
//!
//! Facts come from the book and from each client's own documentation and package; the agents
//! page of the docs lists them with their sources.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::document::{KeyPath, Syntax};

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

    /// The name on the command line and in `<root>/agents/<name>.json`.
    pub fn name(self) -> &'static str {
        match self {
            Agent::Codex => "codex",
            Agent::Claude => "claude",
            Agent::Gemini => "gemini",
            Agent::Cursor => "cursor",
            Agent::Antigravity => "antigravity",
            Agent::Opencode => "opencode",
            Agent::Copilot => "copilot",
            Agent::CopilotCli => "copilot-cli",
            Agent::Pi => "pi",
        }
    }

    /// The product, as its users call it.
    pub fn client(self) -> &'static str {
        match self {
            Agent::Codex => "OpenAI Codex CLI",
            Agent::Claude => "Claude Code",
            Agent::Gemini => "Gemini CLI",
            Agent::Cursor => "Cursor",
            Agent::Antigravity => "Google Antigravity",
            Agent::Opencode => "opencode",
            Agent::Copilot => "GitHub Copilot in VS Code",
            Agent::CopilotCli => "GitHub Copilot CLI",
            Agent::Pi => "pi",
        }
    }

    pub fn from_name(name: &str) -> Option<Agent> {
        Agent::ALL.into_iter().find(|agent| agent.name() == name)
    }

    /// The client's native event before its shell tool runs, if it has one.
    pub fn hook_event(self) -> Option<&'static str> {
        match self {
            Agent::Codex | Agent::Claude => Some("PreToolUse"),
            Agent::Gemini => Some("BeforeTool"),
            Agent::Cursor => Some("beforeShellExecution"),
            Agent::Antigravity => Some("PreToolUse"),
            Agent::Opencode | Agent::Copilot | Agent::CopilotCli | Agent::Pi => None,
        }
    }

    /// The client does not speak MCP itself: an extension the human installs reads the file.
    pub fn needs_extension(self) -> bool {
        self == Agent::Pi
    }
}

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

    /// `$VAR` if set, else `~/<relative>`.
    fn dir(&self, var: &str, relative: &[&str]) -> Result<PathBuf, LocationError> {
        self.first_dir(&[var], relative)
    }

    /// The first of `vars` that is set, else `~/<relative>`.
    fn first_dir(&self, vars: &[&str], relative: &[&str]) -> Result<PathBuf, LocationError> {
        if let Some(dir) = vars.iter().find_map(|var| self.var(var)) {
            return Ok(dir.to_path_buf());
        }
        Ok(relative
            .iter()
            .fold(self.home()?.to_path_buf(), |dir, part| dir.join(part)))
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
        if let Some(dir) = self.var("TORII_COPILOT_HOME") {
            return Ok(dir.to_path_buf());
        }
        if cfg!(windows) {
            let appdata = self.var("APPDATA").ok_or(LocationError::NoAppData)?;
            Ok(appdata.join("Code").join("User"))
        } else if cfg!(target_os = "macos") {
            Ok(self.home()?.join("Library/Application Support/Code/User"))
        } else {
            Ok(self.xdg_config()?.join("Code").join("User"))
        }
    }

    /// `~/.gemini`, or the home Gemini CLI is told to use instead of `~`.
    fn gemini_dir(&self) -> Result<PathBuf, LocationError> {
        match self.var("GEMINI_CLI_HOME") {
            Some(home) => Ok(home.join(".gemini")),
            None => Ok(self.home()?.join(".gemini")),
        }
    }
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

/// The `torii` MCP server entry for `agent`.
pub fn mcp_placement(
    agent: Agent,
    at: &Locations,
    pinned: &Pinned,
) -> Result<Placement, LocationError> {
    let exe = pinned.exe();
    let env = pinned.env();
    let member = |file: PathBuf, path: &[&str], value: Value| Placement {
        keep_while: None,
        file,
        syntax: Syntax::Json,
        place: Place::Member(keys(path)),
        value,
    };
    Ok(match agent {
        Agent::Codex => Placement {
            keep_while: None,
            file: at.dir("CODEX_HOME", &[".codex"])?.join("config.toml"),
            syntax: Syntax::Toml,
            place: Place::Member(keys(&["mcp_servers", "torii"])),
            // Codex asks before every MCP tool call, and its non-interactive mode has nobody
            // to ask; Torii's policy is the gate for these calls.
            value: json!({
                "command": exe,
                "args": [],
                "env": env,
                "default_tools_approval_mode": "approve",
            }),
        },
        Agent::Claude => member(
            claude_dir(at, ".claude.json")?,
            &["mcpServers", "torii"],
            json!({"type": "stdio", "command": exe, "args": [], "env": env}),
        ),
        Agent::Gemini => member(
            at.gemini_dir()?.join("settings.json"),
            &["mcpServers", "torii"],
            json!({"command": exe, "args": [], "env": env}),
        ),
        Agent::Cursor => member(
            at.dir("TORII_CURSOR_HOME", &[".cursor"])?.join("mcp.json"),
            &["mcpServers", "torii"],
            json!({"type": "stdio", "command": exe, "args": [], "env": env}),
        ),
        Agent::Antigravity => member(
            antigravity_dir(at)?.join("mcp_config.json"),
            &["mcpServers", "torii"],
            json!({"command": exe, "args": [], "env": env}),
        ),
        Agent::Opencode => member(
            opencode_dir(at)?.join("opencode.json"),
            &["mcp", "torii"],
            json!({"type": "local", "command": [exe], "environment": env, "enabled": true}),
        ),
        Agent::Copilot => member(
            at.vscode_user()?.join("mcp.json"),
            &["servers", "torii"],
            json!({"type": "stdio", "command": exe, "args": [], "env": env}),
        ),
        Agent::CopilotCli => member(
            // The client's own variable after Torii's.
            at.first_dir(&["TORII_COPILOT_CLI_HOME", "COPILOT_HOME"], &[".copilot"])?
                .join("mcp-config.json"),
            &["mcpServers", "torii"],
            json!({"type": "local", "command": exe, "args": [], "env": env, "tools": ["*"]}),
        ),
        Agent::Pi => member(
            at.first_dir(&["TORII_PI_HOME", "PI_CODING_AGENT_DIR"], &[".pi", "agent"])?
                .join("mcp.json"),
            &["mcpServers", "torii"],
            json!({"command": exe, "args": [], "env": env}),
        ),
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

/// The hook's managed places for `agent` (`None`: the client has no pre-shell event).
pub fn hook_placements(
    agent: Agent,
    at: &Locations,
    pinned: &Pinned,
) -> Result<Option<Vec<Placement>>, LocationError> {
    let command = pinned.hook_command(agent);
    let nested = |file: PathBuf, event: &str, matcher: &str| Placement {
        keep_while: None,
        file,
        syntax: Syntax::Json,
        place: Place::Element(keys(&["hooks", event])),
        value: json!({
            "matcher": matcher,
            "hooks": [{"type": "command", "command": command}],
        }),
    };
    Ok(Some(match agent {
        Agent::Codex => vec![nested(
            at.dir("CODEX_HOME", &[".codex"])?.join("hooks.json"),
            "PreToolUse",
            CODEX_MATCHER,
        )],
        Agent::Claude => vec![nested(
            claude_dir(at, "settings.json")?,
            "PreToolUse",
            CLAUDE_MATCHER,
        )],
        Agent::Gemini => vec![nested(
            at.gemini_dir()?.join("settings.json"),
            "BeforeTool",
            GEMINI_MATCHER,
        )],
        Agent::Cursor => {
            let file = at
                .dir("TORII_CURSOR_HOME", &[".cursor"])?
                .join("hooks.json");
            vec![
                Placement {
                    keep_while: Some(keys(&["hooks"])),
                    file: file.clone(),
                    syntax: Syntax::Json,
                    place: Place::Member(keys(&["version"])),
                    value: json!(1),
                },
                Placement {
                    keep_while: None,
                    file,
                    syntax: Syntax::Json,
                    place: Place::Element(keys(&["hooks", "beforeShellExecution"])),
                    value: json!({"command": command}),
                },
            ]
        }
        Agent::Antigravity => vec![Placement {
            keep_while: None,
            file: antigravity_dir(at)?.join("hooks.json"),
            syntax: Syntax::Json,
            place: Place::Member(keys(&[ANTIGRAVITY_GROUP])),
            value: json!({
                "enabled": true,
                "PreToolUse": [{
                    "matcher": "run_command",
                    "hooks": [{"type": "command", "command": command, "timeout": 30}],
                }],
            }),
        }],
        Agent::Opencode | Agent::Copilot | Agent::CopilotCli | Agent::Pi => return Ok(None),
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
    let home = at.dir("CODEX_HOME", &[".codex"])?;
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
    let home = at.dir("CODEX_HOME", &[".codex"])?;
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

fn claude_dir(at: &Locations, file: &str) -> Result<PathBuf, LocationError> {
    match at.var("CLAUDE_CONFIG_DIR") {
        Some(dir) => Ok(dir.join(file)),
        None if file == ".claude.json" => Ok(at.home()?.join(".claude.json")),
        None => Ok(at.home()?.join(".claude").join(file)),
    }
}

fn antigravity_dir(at: &Locations) -> Result<PathBuf, LocationError> {
    match at.var("TORII_ANTIGRAVITY_HOME") {
        Some(dir) => Ok(dir.to_path_buf()),
        None => Ok(at.home()?.join(".gemini").join("config")),
    }
}

pub fn opencode_dir(at: &Locations) -> Result<PathBuf, LocationError> {
    match at.var("TORII_OPENCODE_HOME") {
        Some(dir) => Ok(dir.to_path_buf()),
        None => Ok(at.xdg_config()?.join("opencode")),
    }
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
            let placement = mcp_placement(agent, &at(&[]), &pinned()).unwrap();
            assert_eq!(placement.file, PathBuf::from(file), "{agent:?}");
        }
        #[cfg(target_os = "linux")]
        assert_eq!(
            mcp_placement(Agent::Copilot, &at(&[]), &pinned())
                .unwrap()
                .file,
            PathBuf::from("/home/u/.config/Code/User/mcp.json")
        );
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
            let placement = mcp_placement(agent, &at(&vars), &pinned()).unwrap();
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
