//! `torii agent …` against throwaway homes: every client's file gets the format that client
//! reads, other content survives byte for byte, and uninstall puts the file back as it was.
//! (The real clients reading these files are in `agent_clients`.)

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::common::{Root, install_provider, simple_provider};

const OVERRIDES: &[&str] = &[
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

/// A config root and an empty home for the clients.
pub struct Setup {
    pub root: Root,
    pub home: PathBuf,
}

impl Setup {
    pub fn new() -> Self {
        let root = Root::new();
        let home = root.outside().join("home");
        std::fs::create_dir_all(&home).unwrap();
        Self { root, home }
    }

    /// `torii` with HOME pointing at the throwaway home and no client override set.
    pub fn torii(&self) -> assert_cmd::Command {
        let mut command = self.root.torii();
        for var in OVERRIDES {
            command.env_remove(var);
        }
        command.env("HOME", &self.home);
        command
    }

    /// `torii __hook <agent>` as the client's installed hook runs it, pinned to this root, with
    /// `input` on stdin: what it printed and its exit code.
    pub fn hook(&self, agent: &str, input: &str) -> (String, i32) {
        self.hook_with(agent, Path::new(&self.root_dir()), input, |_| {})
    }

    /// [`Setup::hook`] pinned to `config_dir`, with `prepare` adding environment and working
    /// directory.
    pub fn hook_with(
        &self,
        agent: &str,
        config_dir: &Path,
        input: &str,
        prepare: impl FnOnce(&mut std::process::Command),
    ) -> (String, i32) {
        let mut command = std::process::Command::new(self.exe());
        command
            .args(["__hook", agent, "--config-dir"])
            .arg(config_dir)
            .env_remove("TORII_CONFIG_DIR")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped());
        prepare(&mut command);
        let output = command
            .spawn()
            .and_then(|mut child| {
                use std::io::Write;
                child.stdin.take().unwrap().write_all(input.as_bytes())?;
                child.wait_with_output()
            })
            .unwrap();
        (
            String::from_utf8(output.stdout).unwrap(),
            output.status.code().unwrap_or(-1),
        )
    }

    /// `torii <args>`, finished.
    pub fn run(&self, args: &[&str]) -> std::process::Output {
        self.torii().args(args).output().unwrap()
    }

    /// `torii <args>`, which must succeed.
    pub fn ok(&self, args: &[&str]) -> std::process::Output {
        ok(self.run(args))
    }

    pub fn file(&self, relative: &str) -> PathBuf {
        self.home.join(relative)
    }

    pub fn exe(&self) -> String {
        std::fs::canonicalize(assert_cmd::cargo::cargo_bin("torii"))
            .unwrap()
            .display()
            .to_string()
    }

    pub fn root_dir(&self) -> String {
        std::fs::canonicalize(self.root.path())
            .unwrap()
            .display()
            .to_string()
    }
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn stderr(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn stdout(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Each client's file, the key of the entry, and the entry Torii must write.
fn expected(setup: &Setup) -> Vec<(&'static str, &'static str, &'static [&'static str], Value)> {
    let exe = setup.exe();
    let env = json!({"TORII_CONFIG_DIR": setup.root_dir()});
    vec![
        (
            "claude",
            ".claude.json",
            &["mcpServers", "torii"],
            json!({"type": "stdio", "command": exe, "args": [], "env": env}),
        ),
        (
            "gemini",
            ".gemini/settings.json",
            &["mcpServers", "torii"],
            json!({"command": exe, "args": [], "env": env}),
        ),
        (
            "cursor",
            ".cursor/mcp.json",
            &["mcpServers", "torii"],
            json!({"type": "stdio", "command": exe, "args": [], "env": env}),
        ),
        (
            "antigravity",
            ".gemini/config/mcp_config.json",
            &["mcpServers", "torii"],
            json!({"command": exe, "args": [], "env": env}),
        ),
        (
            "opencode",
            ".config/opencode/opencode.json",
            &["mcp", "torii"],
            json!({"type": "local", "command": [exe], "environment": env, "enabled": true}),
        ),
        (
            "copilot",
            ".config/Code/User/mcp.json",
            &["servers", "torii"],
            json!({"type": "stdio", "command": exe, "args": [], "env": env}),
        ),
        (
            "copilot-cli",
            ".copilot/mcp-config.json",
            &["mcpServers", "torii"],
            json!({"type": "local", "command": exe, "args": [], "env": env, "tools": ["*"]}),
        ),
        (
            "pi",
            ".pi/agent/mcp.json",
            &["mcpServers", "torii"],
            json!({"command": exe, "args": [], "env": env}),
        ),
    ]
}

fn at(value: &Value, path: &[&str]) -> Value {
    path.iter().fold(value, |value, key| &value[key]).clone()
}

#[cfg(target_os = "linux")]
#[test]
fn every_json_client_gets_its_own_format_and_uninstall_removes_the_file_it_created() {
    let setup = Setup::new();
    for (agent, file, path, entry) in expected(&setup) {
        let output = setup.run(&["agent", "install", agent, "--yes"]);
        assert!(output.status.success(), "{agent}: {}", stderr(&output));
        let written = read_json(&setup.file(file));
        assert_eq!(at(&written, path), entry, "{agent}");
        let state = read_json(&setup.root.path().join(format!("agents/{agent}.json")));
        assert_eq!(state["agent"], agent);
        let output = setup.run(&["agent", "uninstall", agent]);
        assert!(output.status.success(), "{agent}: {}", stderr(&output));
        assert!(!setup.file(file).exists(), "{agent}: {file} left behind");
        assert!(
            !setup
                .root
                .path()
                .join(format!("agents/{agent}.json"))
                .exists()
        );
    }
}

#[test]
fn codex_gets_a_toml_table_that_approves_its_tools_and_keeps_the_rest() {
    let setup = Setup::new();
    let original = "# my settings\nmodel = \"o3\"   # keep this comment\n\n[mcp_servers.other]\ncommand = \"other\"\nargs = [\"-v\"]\n";
    let config = setup.file(".codex/config.toml");
    std::fs::create_dir_all(config.parent().unwrap()).unwrap();
    std::fs::write(&config, original).unwrap();
    let output = setup.run(&["agent", "install", "codex"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let written = std::fs::read_to_string(&config).unwrap();
    assert!(written.starts_with(original), "{written}");
    let table: toml_edit::DocumentMut = written.parse().unwrap();
    let torii = &table["mcp_servers"]["torii"];
    assert_eq!(torii["command"].as_str(), Some(setup.exe().as_str()));
    assert_eq!(
        torii["default_tools_approval_mode"].as_str(),
        Some("approve")
    );
    assert_eq!(
        torii["env"]["TORII_CONFIG_DIR"].as_str(),
        Some(setup.root_dir().as_str())
    );
    let output = setup.run(&["agent", "uninstall", "codex"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(std::fs::read_to_string(&config).unwrap(), original);
}

#[test]
fn other_content_survives_byte_for_byte_and_uninstall_restores_the_file() {
    let setup = Setup::new();
    // VS Code's mcp.json allows comments; spacing and key order are the human's.
    let original = "{\n    // my servers\n    \"servers\": {\n        \"github\": {\"type\": \"http\", \"url\": \"https://example.invalid\"}\n    },\n    \"inputs\": []\n}\n";
    let file = setup.root.outside().join("vscode/mcp.json");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, original).unwrap();
    let vscode = |command: &mut assert_cmd::Command| {
        command.env("TORII_COPILOT_HOME", file.parent().unwrap());
    };
    let mut install = setup.torii();
    vscode(&mut install);
    let output = install
        .args(["agent", "install", "copilot"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    let written = std::fs::read_to_string(&file).unwrap();
    assert!(written.contains("// my servers"), "{written}");
    assert!(
        written.contains("\"github\": {\"type\": \"http\", \"url\": \"https://example.invalid\"}"),
        "{written}"
    );
    let mut uninstall = setup.torii();
    vscode(&mut uninstall);
    let output = uninstall
        .args(["agent", "uninstall", "copilot"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), original);
}

#[test]
fn a_different_torii_server_is_refused_and_nothing_is_written() {
    let setup = Setup::new();
    let original = "{\"mcpServers\": {\"torii\": {\"command\": \"/somewhere/else/torii\"}}}\n";
    let file = setup.file(".claude.json");
    std::fs::write(&file, original).unwrap();
    let output = setup.run(&["agent", "install", "claude", "--hook"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("already has a different `torii` MCP server"),
        "{}",
        stderr(&output)
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), original);
    assert!(!setup.file(".claude/settings.json").exists());
    assert!(!setup.root.path().join("agents").exists());
    // Status tells it apart from managed content.
    let output = setup.run(&["agent", "status", "claude"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("mcp    pre-existing entry that differs from torii's"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn an_identical_pre_existing_entry_is_left_alone_and_not_claimed() {
    let setup = Setup::new();
    let entry = json!({"mcpServers": {"torii": {
        "command": setup.exe(), "args": [], "env": {"TORII_CONFIG_DIR": setup.root_dir()}}}});
    let file = setup.file(".gemini/settings.json");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, entry.to_string()).unwrap();
    let output = setup.run(&["agent", "install", "gemini"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stderr(&output).contains("already present, not managed by torii"));
    let status = stdout(&setup.run(&["agent", "status", "gemini"]));
    assert!(
        status.contains("mcp    pre-existing entry, not managed by torii"),
        "{status}"
    );
    let output = setup.run(&["agent", "uninstall", "gemini"]);
    assert!(output.status.success());
    assert_eq!(std::fs::read_to_string(&file).unwrap(), entry.to_string());
}

#[test]
fn hook_is_refused_before_any_write_for_the_four_clients_without_one() {
    let setup = Setup::new();
    for agent in ["opencode", "copilot", "copilot-cli", "pi"] {
        let output = setup.run(&["agent", "install", agent, "--hook", "--yes"]);
        assert_eq!(output.status.code(), Some(1), "{agent}");
        assert!(
            stderr(&output).contains("--hook is not supported"),
            "{agent}: {}",
            stderr(&output)
        );
        let status = stdout(&setup.run(&["agent", "status", agent]));
        assert!(status.contains("hook   hook not supported"), "{status}");
        let output = setup.run(&["agent", "uninstall", agent, "--hook"]);
        assert_eq!(output.status.code(), Some(1), "{agent}");
    }
    let entries: Vec<_> = walk(&setup.home);
    assert!(entries.is_empty(), "written: {entries:?}");
    assert!(!setup.root.path().join("agents").exists());
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            found.extend(walk(&path));
        }
        found.push(path);
    }
    found
}

#[test]
fn opencode_jsonc_is_refused() {
    let setup = Setup::new();
    let jsonc = setup.file(".config/opencode/opencode.jsonc");
    std::fs::create_dir_all(jsonc.parent().unwrap()).unwrap();
    std::fs::write(&jsonc, "{ // mine\n}\n").unwrap();
    let output = setup.run(&["agent", "install", "opencode"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("opencode.jsonc already exists"),
        "{}",
        stderr(&output)
    );
    assert!(!setup.file(".config/opencode/opencode.json").exists());
}

#[test]
fn pi_warns_and_needs_yes_without_a_terminal() {
    let setup = Setup::new();
    let output = setup.run(&["agent", "install", "pi"]);
    assert_eq!(output.status.code(), Some(1));
    let text = stderr(&output);
    assert!(text.contains("pi does not speak MCP itself"), "{text}");
    assert!(text.contains("--yes"), "{text}");
    assert!(!setup.file(".pi/agent/mcp.json").exists());
    let output = setup.run(&["agent", "install", "pi", "--yes"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(setup.file(".pi/agent/mcp.json").exists());
}

#[test]
fn install_from_a_cargo_build_warns_that_the_entry_points_into_target() {
    let setup = Setup::new();
    let output = setup.run(&["agent", "install", "cursor"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("runs from a cargo build"),
        "{}",
        stderr(&output)
    );
}

fn claude_hook(setup: &Setup) -> Value {
    json!({
        "matcher": "Bash|Read|Write|Edit|MultiEdit|NotebookEdit|Glob|Grep",
        "hooks": [{"type": "command", "command": format!(
            "{} __hook claude --config-dir {}", setup.exe(), setup.root_dir())}],
    })
}

#[test]
fn uninstall_hook_removes_only_the_guard_and_plain_uninstall_the_rest() {
    let setup = Setup::new();
    let settings = setup.file(".claude/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    let original = "{\n  \"theme\": \"dark\",\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\"matcher\": \"Edit\", \"hooks\": [{\"type\": \"command\", \"command\": \"lint\"}]}\n    ]\n  }\n}\n";
    std::fs::write(&settings, original).unwrap();
    let output = setup.run(&["agent", "install", "claude", "--hook"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stderr(&output).contains("not a sandbox"));
    let written = read_json(&settings);
    assert_eq!(written["hooks"]["PreToolUse"][1], claude_hook(&setup));
    assert_eq!(written["theme"], "dark");
    let status = stdout(&setup.run(&["agent", "status", "claude"]));
    assert!(status.contains("mcp    managed by torii"), "{status}");
    assert!(status.contains("hook   managed by torii"), "{status}");

    let output = setup.run(&["agent", "uninstall", "claude", "--hook"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), original);
    let claude = read_json(&setup.file(".claude.json"));
    assert_eq!(claude["mcpServers"]["torii"]["type"], "stdio");

    let output = setup.run(&["agent", "uninstall", "claude"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(!setup.file(".claude.json").exists());
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), original);
}

#[test]
fn uninstall_stops_when_a_managed_entry_was_changed_since() {
    let setup = Setup::new();
    let output = setup.run(&["agent", "install", "claude", "--hook"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let file = setup.file(".claude.json");
    let mut claude = read_json(&file);
    claude["mcpServers"]["torii"]["args"] = json!(["--mine"]);
    std::fs::write(&file, claude.to_string()).unwrap();
    let before_settings = std::fs::read_to_string(setup.file(".claude/settings.json")).unwrap();
    let output = setup.run(&["agent", "uninstall", "claude"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("was changed since"),
        "{}",
        stderr(&output)
    );
    assert_eq!(read_json(&file), claude);
    assert_eq!(
        std::fs::read_to_string(setup.file(".claude/settings.json")).unwrap(),
        before_settings
    );
    let status = stdout(&setup.run(&["agent", "status", "claude"]));
    assert!(status.contains("changed since"), "{status}");
    // The hook alone can still go.
    let output = setup.run(&["agent", "uninstall", "claude", "--hook"]);
    assert!(output.status.success(), "{}", stderr(&output));
}

#[test]
fn reinstall_is_idempotent_and_a_symlinked_file_stays_a_link() {
    let setup = Setup::new();
    let real = setup.root.outside().join("dotfiles/claude.json");
    std::fs::create_dir_all(real.parent().unwrap()).unwrap();
    std::fs::write(&real, "{\"theme\": \"light\"}\n").unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(&real, setup.file(".claude.json")).unwrap();
    #[cfg(not(unix))]
    std::fs::copy(&real, setup.file(".claude.json")).unwrap();
    for _ in 0..2 {
        let output = setup.run(&["agent", "install", "claude", "--hook"]);
        assert!(output.status.success(), "{}", stderr(&output));
    }
    let settings = read_json(&setup.file(".claude/settings.json"));
    assert_eq!(settings["hooks"]["PreToolUse"].as_array().unwrap().len(), 1);
    #[cfg(unix)]
    {
        assert!(
            std::fs::symlink_metadata(setup.file(".claude.json"))
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(read_json(&real)["mcpServers"]["torii"]["type"], "stdio");
    }
}

#[test]
fn list_names_every_agent_and_which_have_a_hook() {
    let setup = Setup::new();
    let output = setup.run(&["agent", "list"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    for agent in [
        "codex",
        "claude",
        "gemini",
        "cursor",
        "antigravity",
        "opencode",
        "copilot",
        "copilot-cli",
        "pi",
    ] {
        assert!(
            text.lines()
                .any(|line| line.starts_with(&format!("{agent} "))),
            "{agent}: {text}"
        );
    }
    assert_eq!(text.matches("not supported").count(), 4, "{text}");
    let output = setup.run(&["agent", "install", "nano"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("unknown agent `nano`"));
}

/// Runs the installed hook command of `agent` with `input` on stdin.
fn run_hook(setup: &Setup, agent: &str, input: &str) -> (String, i32) {
    setup.hook(agent, input)
}

fn bash(command: &str) -> String {
    json!({"hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": command}})
    .to_string()
}

#[test]
fn the_hook_denies_provider_executables_in_each_clients_format() {
    let setup = Setup::new();
    install_provider(
        &setup.root,
        "kubectl",
        &simple_provider("kubectl", ""),
        "deny: []\naccept: []\n",
    );
    let (out, code) = run_hook(&setup, "claude", &bash("cd /tmp && kubectl get pods"));
    assert_eq!(code, 0);
    let answer: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(answer["hookSpecificOutput"]["permissionDecision"], "deny");
    let reason = answer["hookSpecificOutput"]["permissionDecisionReason"]
        .as_str()
        .unwrap();
    assert!(reason.contains("MCP tool `kubectl`"), "{reason}");
    assert!(!reason.contains(&setup.root_dir()), "{reason}");

    // Nothing to block: no answer at all, so the client's own approval applies.
    assert_eq!(
        run_hook(&setup, "claude", &bash("echo kubectl")),
        (String::new(), 0)
    );
    assert_eq!(
        run_hook(&setup, "claude", &bash("ls -la")),
        (String::new(), 0)
    );

    let gemini = json!({"hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
        "tool_input": {"command": "bash -c 'kubectl get pods'"}});
    let (out, _) = run_hook(&setup, "gemini", &gemini.to_string());
    assert_eq!(
        serde_json::from_str::<Value>(&out).unwrap()["decision"],
        "deny"
    );

    let cursor = json!({"hook_event_name": "beforeShellExecution", "command": "/usr/bin/kubectl get pods", "cwd": "/tmp"});
    let (out, _) = run_hook(&setup, "cursor", &cursor.to_string());
    assert_eq!(
        serde_json::from_str::<Value>(&out).unwrap()["permission"],
        "deny"
    );
}

/// Issue 35: the official `kubeconfig` package runs `true`, and the hook blocked `true` and
/// every `… || true` line. A placeholder runs nothing and is not a protected program.
#[test]
fn the_official_kubectl_recipe_leaves_true_and_git_to_the_agent_s_shell() {
    let setup = Setup::new();
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/providers");
    for package in ["kubectl", "kubeconfig"] {
        let read = |file: &str| std::fs::read_to_string(examples.join(package).join(file)).unwrap();
        install_provider(
            &setup.root,
            package,
            &read("provider.yaml"),
            &read("rules.yaml"),
        );
    }
    for line in [
        "true",
        "make test || true",
        "git status",
        "/bin/true && echo ok",
    ] {
        assert_eq!(
            run_hook(&setup, "claude", &bash(line)),
            (String::new(), 0),
            "{line}"
        );
    }
    let (out, _) = run_hook(&setup, "claude", &bash("kubectl get pods || true"));
    assert!(out.contains("MCP tool `kubectl`"), "{out}");

    let output = setup.ok(&["agent", "install", "claude", "--hook"]);
    let said = stderr(&output);
    assert!(
        said.contains("claude: in the agent's shell the hook blocks kubectl:"),
        "{said}"
    );
    assert!(!said.contains("for their own work"), "{said}");
}

/// Issue 35: a provider for `git` (the demo's) silently blocked git in the agent's shell once
/// the hook was installed; install now says so, and status shows it.
#[test]
fn installing_the_hook_says_what_it_blocks_and_warns_for_git() {
    let setup = Setup::new();
    install_provider(
        &setup.root,
        "git",
        &simple_provider("git", ""),
        "deny: []\naccept: []\n",
    );
    let output = setup.ok(&["agent", "install", "claude", "--hook"]);
    let said = stderr(&output);
    assert!(said.contains("the hook blocks git:"), "{said}");
    assert!(
        said.contains("agents commonly run git for their own work"),
        "{said}"
    );
    let status = String::from_utf8(setup.ok(&["agent", "status", "claude"]).stdout).unwrap();
    assert!(
        status.contains("block  in the agent's shell the hook blocks git"),
        "{status}"
    );
    assert!(
        status.contains("note   agents commonly run git"),
        "{status}"
    );
}

/// Issue 35: the docs told Gemini CLI users to add `"trust": true` and doctor told headless
/// users to set `TORII_NO_GUI=1` in the entry; after either edit uninstall refused. Install
/// writes both when asked, keeps them on re-install, and status and uninstall take them, written
/// by Torii or by hand, for Torii's own.
#[test]
fn trust_and_headless_are_written_on_request_and_recognised_as_torii_s() {
    let setup = Setup::new();
    let settings = setup.file(".gemini/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    std::fs::write(&settings, "{\"theme\": \"dark\"}\n").unwrap();
    let original = std::fs::read_to_string(&settings).unwrap();

    setup.ok(&["agent", "install", "gemini", "--trust", "--headless"]);
    let entry = &read_json(&settings)["mcpServers"]["torii"];
    assert_eq!(entry["trust"], true, "{entry}");
    assert_eq!(entry["env"]["TORII_NO_GUI"], "1", "{entry}");
    assert_eq!(
        entry["env"]["TORII_CONFIG_DIR"],
        setup.root_dir(),
        "{entry}"
    );
    let status = stdout(&setup.ok(&["agent", "status", "gemini"]));
    assert!(status.contains("mcp    managed by torii:"), "{status}");

    // Re-installed without the flags, the entry keeps them.
    setup.ok(&["agent", "install", "gemini"]);
    let entry = &read_json(&settings)["mcpServers"]["torii"];
    assert_eq!(
        (&entry["trust"], &entry["env"]["TORII_NO_GUI"]),
        (&json!(true), &json!("1"))
    );
    setup.ok(&["agent", "uninstall", "gemini"]);
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), original);

    // The same options added by hand, as the docs once said, are Torii's too.
    setup.ok(&["agent", "install", "gemini"]);
    let mut edited = read_json(&settings);
    edited["mcpServers"]["torii"]["trust"] = json!(true);
    edited["mcpServers"]["torii"]["env"]["TORII_NO_GUI"] = json!("1");
    std::fs::write(&settings, serde_json::to_string_pretty(&edited).unwrap()).unwrap();
    let status = stdout(&setup.ok(&["agent", "status", "gemini"]));
    assert!(status.contains("mcp    managed by torii:"), "{status}");
    setup.ok(&["agent", "uninstall", "gemini"]);
    assert!(read_json(&settings).get("mcpServers").is_none());

    // Anything else changed by hand is still the human's.
    setup.ok(&["agent", "install", "gemini"]);
    let mut edited = read_json(&settings);
    edited["mcpServers"]["torii"]["timeout"] = json!(5000);
    std::fs::write(&settings, serde_json::to_string_pretty(&edited).unwrap()).unwrap();
    let refused = setup.run(&["agent", "uninstall", "gemini"]);
    assert!(!refused.status.success());
    assert!(
        stderr(&refused).contains("changed since"),
        "{}",
        stderr(&refused)
    );
}

#[test]
fn headless_is_in_every_client_s_environment_and_trust_only_where_it_exists() {
    let setup = Setup::new();
    setup.ok(&["agent", "install", "opencode", "--headless"]);
    let opencode = read_json(&setup.file(".config/opencode/opencode.json"));
    assert_eq!(opencode["mcp"]["torii"]["environment"]["TORII_NO_GUI"], "1");
    setup.ok(&["agent", "install", "codex", "--headless"]);
    let codex = std::fs::read_to_string(setup.file(".codex/config.toml")).unwrap();
    assert!(codex.contains("TORII_NO_GUI = \"1\""), "{codex}");

    let refused = setup.run(&["agent", "install", "claude", "--trust"]);
    assert!(!refused.status.success());
    assert!(
        stderr(&refused).contains("--trust is for Gemini CLI"),
        "{}",
        stderr(&refused)
    );
    assert!(!setup.file(".claude.json").exists());
}

/// Issue 35: the agents page said installing again moves Torii's entry to another root, but
/// an install from the other root was refused as a foreign server. Now it is moved when the
/// human confirms (`--yes` without a terminal), with its hook, and the old root lets go of it.
#[test]
fn an_entry_moves_to_another_root_when_the_human_confirms() {
    let setup = Setup::new();
    let claude = setup.file(".claude.json");
    std::fs::write(&claude, "{\"theme\": \"dark\"}\n").unwrap();
    let original = std::fs::read_to_string(&claude).unwrap();
    setup.ok(&["agent", "install", "claude", "--hook"]);
    let old_state = setup.root.path().join("agents/claude.json");
    assert!(old_state.is_file());

    let other = setup.root.outside().join("other-root");
    std::fs::create_dir_all(&other).unwrap();
    let other_dir = std::fs::canonicalize(&other).unwrap().display().to_string();
    let from_other = |args: &[&str]| {
        let mut command = setup.torii();
        command.env("TORII_CONFIG_DIR", &other).args(args);
        command.output().unwrap()
    };
    let refused = from_other(&["agent", "install", "claude"]);
    assert!(!refused.status.success());
    let said = stderr(&refused);
    assert!(
        said.contains("holds the `torii` entry of another config root"),
        "{said}"
    );
    assert!(said.contains("torii agent install claude --yes"), "{said}");
    assert_eq!(
        read_json(&claude)["mcpServers"]["torii"]["env"]["TORII_CONFIG_DIR"],
        setup.root_dir()
    );

    let moved = ok(from_other(&["agent", "install", "claude", "--yes"]));
    assert!(
        stderr(&moved).contains("moved from the config root"),
        "{}",
        stderr(&moved)
    );
    assert_eq!(
        read_json(&claude)["mcpServers"]["torii"]["env"]["TORII_CONFIG_DIR"],
        other_dir
    );
    let settings = read_json(&setup.file(".claude/settings.json"));
    let command = settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        command.ends_with(&format!("--config-dir {other_dir}")),
        "{command}"
    );
    assert!(!old_state.exists(), "the old root still records the entry");
    assert!(other.join("agents/claude.json").is_file());

    let nothing = setup.ok(&["agent", "uninstall", "claude"]);
    assert!(stderr(&nothing).contains("nothing"), "{}", stderr(&nothing));
    ok(from_other(&["agent", "uninstall", "claude"]));
    assert_eq!(std::fs::read_to_string(&claude).unwrap(), original);
}

/// Issue 35: `torii agent status` without an agent was a usage error; it is the overview.
#[test]
fn status_without_an_agent_shows_every_client() {
    let setup = Setup::new();
    setup.ok(&["agent", "install", "claude", "--hook"]);
    let overview = stdout(&setup.ok(&["agent", "status"]));
    let rows: Vec<&str> = overview.lines().collect();
    assert_eq!(rows.len(), 10, "{overview}");
    assert!(rows[0].starts_with("AGENT"), "{overview}");
    let claude = rows.iter().find(|row| row.starts_with("claude")).unwrap();
    assert_eq!(claude.matches("managed by torii").count(), 2, "{claude}");
    let pi = rows.iter().find(|row| row.starts_with("pi ")).unwrap();
    assert!(
        pi.contains("not installed") && pi.contains("not supported"),
        "{pi}"
    );
}

/// Review finding: the root named in an entry is the entry's word (a hostile agent can edit
/// the client's file), and install took that root's records over as its own. They are checked
/// like uninstall checks its own: a record outside Torii's places refuses the move.
#[test]
fn a_move_refuses_another_root_whose_records_name_foreign_places() {
    let setup = Setup::new();
    setup.ok(&["agent", "install", "claude"]);
    let state_path = setup.root.path().join("agents/claude.json");
    let mut state: Value = read_json(&state_path);
    let mut foreign = state["mcp"][0].clone();
    foreign["file"] = json!(setup.file(".bashrc").display().to_string());
    state["hook"] = json!([foreign]);
    std::fs::write(&state_path, serde_json::to_string_pretty(&state).unwrap()).unwrap();
    std::fs::write(setup.file(".bashrc"), "# mine\n").unwrap();
    let claude = std::fs::read_to_string(setup.file(".claude.json")).unwrap();

    let other = setup.root.outside().join("other-root");
    std::fs::create_dir_all(&other).unwrap();
    let mut command = setup.torii();
    let refused = command
        .env("TORII_CONFIG_DIR", &other)
        .args(["agent", "install", "claude", "--yes"])
        .output()
        .unwrap();
    assert!(!refused.status.success());
    assert!(stderr(&refused).contains(".bashrc"), "{}", stderr(&refused));
    assert_eq!(
        std::fs::read_to_string(setup.file(".claude.json")).unwrap(),
        claude
    );
    assert!(!other.join("agents/claude.json").exists());
}

#[test]
fn the_hook_fails_closed() {
    let setup = Setup::new();
    // No provider: nothing to protect, nothing blocked.
    assert_eq!(
        run_hook(&setup, "claude", &bash("kubectl get pods")),
        (String::new(), 0)
    );
    install_provider(
        &setup.root,
        "kubectl",
        &simple_provider("kubectl", ""),
        "deny: []\naccept: []\n",
    );
    for input in ["not json", "{}", "{\"tool_input\": {\"command\": 3}}"] {
        let (out, code) = run_hook(&setup, "claude", input);
        assert_eq!(code, 0);
        let answer: Value = serde_json::from_str(&out).unwrap_or_else(|_| panic!("{input}: {out}"));
        assert_eq!(
            answer["hookSpecificOutput"]["permissionDecision"], "deny",
            "{input}"
        );
    }
    // A command word the hook cannot resolve statically.
    let (out, _) = run_hook(&setup, "claude", &bash("$K get pods"));
    assert!(out.contains("\"deny\""), "{out}");
    // An unloadable registry denies everything.
    setup
        .root
        .write("providers/broken/provider.yaml", "version: [\n");
    let (out, _) = run_hook(&setup, "claude", &bash("ls"));
    assert!(out.contains("cannot load the installed providers"), "{out}");
}

fn ok(output: std::process::Output) -> std::process::Output {
    assert!(output.status.success(), "{}", stderr(&output));
    output
}

/// Red-team finding: a group put before Torii's in `hooks.json` moves the hook's position, and
/// Codex silently skips a hook whose trust names another position. Status must say so.
#[test]
fn codex_status_tells_when_the_hook_is_no_longer_trusted() {
    let setup = Setup::new();
    setup.ok(&["agent", "install", "codex", "--hook"]);
    let config = std::fs::read_to_string(setup.file(".codex/config.toml")).unwrap();
    assert!(config.contains("pre_tool_use:0:0"), "{config}");
    assert!(config.contains("trusted_hash = \"sha256:"), "{config}");
    let status = stdout(&setup.ok(&["agent", "status", "codex"]));
    assert!(status.contains("trust  Codex trusts the hook"), "{status}");

    let hooks_file = setup.file(".codex/hooks.json");
    let mut hooks = read_json(&hooks_file);
    hooks["hooks"]["PreToolUse"].as_array_mut().unwrap().insert(
        0,
        json!({"matcher": "Read", "hooks": [{"type": "command", "command": "x"}]}),
    );
    std::fs::write(&hooks_file, hooks.to_string()).unwrap();
    let status = stdout(&setup.ok(&["agent", "status", "codex"]));
    assert!(status.contains("does not trust the hook"), "{status}");
    // Installing again trusts it where it is now, and drops the stale entry.
    setup.ok(&["agent", "install", "codex", "--hook"]);
    let config = std::fs::read_to_string(setup.file(".codex/config.toml")).unwrap();
    assert!(config.contains("pre_tool_use:1:0"), "{config}");
    assert!(!config.contains("pre_tool_use:0:0"), "{config}");
    setup.ok(&["agent", "uninstall", "codex"]);
    assert!(!setup.file(".codex/config.toml").exists());
    assert_eq!(
        read_json(&hooks_file)["hooks"]["PreToolUse"][0]["matcher"],
        "Read"
    );
}

/// Red-team finding: with a key given twice, Torii edited the copy the client ignores.
#[test]
fn a_file_with_a_duplicate_key_is_refused() {
    let setup = Setup::new();
    let original = "{\n  \"mcpServers\": {},\n  \"mcpServers\": {\"torii\": {\"command\": \"/usr/bin/evil\"}}\n}\n";
    std::fs::write(setup.file(".claude.json"), original).unwrap();
    let output = setup.run(&["agent", "install", "claude"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains(".claude.json: the key `mcpServers` appears twice"),
        "{}",
        stderr(&output)
    );
    assert_eq!(
        std::fs::read_to_string(setup.file(".claude.json")).unwrap(),
        original
    );
}

/// Red-team finding: a file Torii created was deleted with the comments the human added.
#[test]
fn uninstall_keeps_a_created_file_that_now_holds_the_humans_comments() {
    let setup = Setup::new();
    setup.ok(&["agent", "install", "codex"]);
    let config = setup.file(".codex/config.toml");
    let mut text = std::fs::read_to_string(&config).unwrap();
    text.push_str("# model = \"o3\"\n");
    std::fs::write(&config, &text).unwrap();
    setup.ok(&["agent", "uninstall", "codex"]);
    assert_eq!(
        std::fs::read_to_string(&config).unwrap(),
        "# model = \"o3\"\n"
    );
}

/// Red-team finding: a hand-edited state file made uninstall edit a file Torii never wrote.
#[test]
fn uninstall_refuses_a_record_outside_the_clients_files() {
    let setup = Setup::new();
    let cargo = setup.root.outside().join("proj/Cargo.toml");
    std::fs::create_dir_all(cargo.parent().unwrap()).unwrap();
    let original = "[package]\nname = \"x\"\n\n[dependencies]\nserde = \"1\"\n";
    std::fs::write(&cargo, original).unwrap();
    let state = json!({"agent": "pi", "mcp": [{"file": cargo, "place": {"member": ["dependencies"]},
        "value": {"serde": "1"}, "created_file": true}]});
    setup.root.write("agents/pi.json", &state.to_string());
    let output = setup.run(&["agent", "uninstall", "pi"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("which is not a place where torii writes for pi"),
        "{}",
        stderr(&output)
    );
    assert_eq!(std::fs::read_to_string(&cargo).unwrap(), original);

    // The right file but containers that are not on the way to the entry.
    let pi = setup.file(".pi/agent/mcp.json");
    std::fs::create_dir_all(pi.parent().unwrap()).unwrap();
    std::fs::write(&pi, "{\"a\": {}, \"mcpServers\": {}}\n").unwrap();
    let state = json!({"agent": "pi", "mcp": [{"file": pi, "place": {"member": ["mcpServers", "torii"]},
        "value": {}, "created": [["a"]], "created_file": true}]});
    setup.root.write("agents/pi.json", &state.to_string());
    let output = setup.run(&["agent", "uninstall", "pi"]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(pi.exists());
}

/// Red-team finding: Cursor's `version`, which the human's own hooks still need, went too.
#[test]
fn cursor_uninstall_keeps_version_while_other_hooks_remain() {
    let setup = Setup::new();
    setup.ok(&["agent", "install", "cursor", "--hook"]);
    let file = setup.file(".cursor/hooks.json");
    let mut hooks = read_json(&file);
    assert_eq!(hooks["version"], 1);
    hooks["hooks"]["afterFileEdit"] = json!([{"command": "fmt"}]);
    std::fs::write(&file, hooks.to_string()).unwrap();
    setup.ok(&["agent", "uninstall", "cursor"]);
    let left = read_json(&file);
    assert_eq!(left["version"], 1, "{left}");
    assert_eq!(
        left["hooks"],
        json!({"afterFileEdit": [{"command": "fmt"}]})
    );
}

/// Red-team findings: relative override variables, hard links, a byte-order mark.
#[test]
fn relative_overrides_hard_links_and_a_bom() {
    let setup = Setup::new();
    ok(setup
        .torii()
        .env("CODEX_HOME", "rel")
        .args(["agent", "install", "codex"])
        .output()
        .unwrap());
    let state = read_json(&setup.root.path().join("agents/codex.json"));
    let recorded = state["mcp"][0]["file"].as_str().unwrap().to_string();
    assert!(Path::new(&recorded).is_absolute(), "{recorded}");
    assert!(setup.root.work().join("rel/config.toml").exists());

    let claude = setup.file(".claude.json");
    std::fs::write(&claude, "{}\n").unwrap();
    #[cfg(unix)]
    {
        std::fs::hard_link(&claude, setup.root.outside().join("copy.json")).unwrap();
        let output = setup.run(&["agent", "install", "claude"]);
        assert_eq!(output.status.code(), Some(1));
        assert!(
            stderr(&output).contains("hard links"),
            "{}",
            stderr(&output)
        );
        std::fs::remove_file(setup.root.outside().join("copy.json")).unwrap();
    }
    let original = "\u{feff}{\n  \"theme\": \"dark\"\n}\n";
    std::fs::write(&claude, original).unwrap();
    setup.ok(&["agent", "install", "claude"]);
    assert!(
        std::fs::read_to_string(&claude)
            .unwrap()
            .starts_with('\u{feff}')
    );
    setup.ok(&["agent", "uninstall", "claude"]);
    assert_eq!(std::fs::read_to_string(&claude).unwrap(), original);
}

/// Red-team finding: a root that is not UTF-8 was pinned as another path, and the hook then
/// protected nothing.
#[cfg(target_os = "linux")]
#[test]
fn a_root_that_is_not_utf8_is_refused() {
    use std::os::unix::ffi::OsStrExt;
    let setup = Setup::new();
    let odd = setup
        .root
        .outside()
        .join(std::ffi::OsStr::from_bytes(b"r\xff"));
    std::fs::create_dir_all(&odd).unwrap();
    let output = setup
        .torii()
        .env("TORII_CONFIG_DIR", &odd)
        .args(["agent", "install", "claude", "--hook"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("not valid UTF-8"),
        "{}",
        stderr(&output)
    );
    assert!(!setup.file(".claude.json").exists());
}

/// Red-team finding: a failed write of the client's file left a state recording an entry that
/// was never written, which then locked the entry as "changed since".
#[test]
fn a_failed_write_leaves_the_state_as_it_was() {
    let setup = Setup::new();
    // A directory cannot be created under a regular file: the write of mcp.json fails.
    let blocker = setup.root.outside().join("a-file");
    std::fs::write(&blocker, "").unwrap();
    let output = setup
        .torii()
        .env("TORII_CURSOR_HOME", blocker.join("cursor"))
        .args(["agent", "install", "cursor"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("cannot create"),
        "{}",
        stderr(&output)
    );
    assert!(!setup.root.path().join("agents/cursor.json").exists());
}

/// Issue 37: Antigravity's hook is a group Torii owns whole in `~/.gemini/config/hooks.json`,
/// beside the human's own groups, on `PreToolUse` for `run_command` (the format of Antigravity's
/// own hooks documentation, which its harness carries: see docs/src/agents.md). Installed,
/// shown by status, answering in Antigravity's format, and uninstalled byte for byte.
#[test]
fn antigravity_hook_installs_beside_the_humans_groups_and_uninstalls_byte_for_byte() {
    let setup = Setup::new();
    let hooks = setup.file(".gemini/config/hooks.json");
    let servers = setup.file(".gemini/config/mcp_config.json");
    std::fs::create_dir_all(hooks.parent().unwrap()).unwrap();
    let original_hooks = "{\n  \"lint\": {\n    \"enabled\": true,\n    \"PostToolUse\": [\n      {\"matcher\": \"write_to_file\", \"hooks\": [{\"type\": \"command\", \"command\": \"make lint\"}]}\n    ]\n  }\n}\n";
    let original_servers =
        "{\"mcpServers\": {\"github\": {\"serverUrl\": \"https://example.invalid/mcp\"}}}\n";
    std::fs::write(&hooks, original_hooks).unwrap();
    std::fs::write(&servers, original_servers).unwrap();

    let output = setup.run(&["agent", "install", "antigravity", "--hook"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let installed: Value = serde_json::from_str(&std::fs::read_to_string(&hooks).unwrap()).unwrap();
    assert_eq!(
        installed["lint"]["PostToolUse"][0]["hooks"][0]["command"],
        "make lint"
    );
    let group = &installed["torii-provider-boundary"];
    assert_eq!(group["enabled"], true, "{installed}");
    // Anchored: its terminal tool and its file tools, each matched whole.
    assert_eq!(
        group["PreToolUse"][0]["matcher"],
        "^(run_command|view_file|write_to_file|replace_file_content|list_dir|grep_search|find_by_name)$",
        "{installed}"
    );
    let handler = &group["PreToolUse"][0]["hooks"][0];
    assert_eq!(handler["type"], "command", "{installed}");
    assert!(
        handler["command"]
            .as_str()
            .unwrap()
            .contains("__hook antigravity"),
        "{installed}"
    );
    let status = stdout(&setup.run(&["agent", "status", "antigravity"]));
    assert!(status.contains("mcp    managed by torii"), "{status}");
    assert!(status.contains("hook   managed by torii"), "{status}");

    // What Antigravity sends for a terminal command, and what it reads back.
    let input = json!({
        "conversationId": "c1",
        "workspacePaths": ["/work"],
        "toolCall": {"name": "run_command", "args": {"CommandLine": "torii target activate kube prod"}},
        "stepIdx": 3
    });
    let (answer, _) = run_hook(&setup, "antigravity", &input.to_string());
    let answer: Value = serde_json::from_str(&answer).unwrap();
    assert_eq!(answer["decision"], "deny", "{answer}");
    assert!(
        answer["reason"].as_str().unwrap().contains("torii"),
        "{answer}"
    );

    let output = setup.run(&["agent", "uninstall", "antigravity", "--hook"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(std::fs::read_to_string(&hooks).unwrap(), original_hooks);
    let output = setup.run(&["agent", "uninstall", "antigravity"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(std::fs::read_to_string(&servers).unwrap(), original_servers);
}
