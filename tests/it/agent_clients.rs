//! `torii agent install` proven with the real clients from npm (installed by scripts/test.sh
//! into `.tools/node`), in throwaway homes, offline:
//!
//! - each client's own `mcp list` shows the `torii` server it was given, connected, and
//!   uninstall leaves the client's file as it was;
//! - with `--hook`, Claude Code, Gemini CLI and Codex run a turn against a local stand-in for
//!   their model API (`tests/e2e/model_standin.py`) that asks their shell tool to run
//!   `kubectl get pods`: the client runs Torii's hook, the fake `kubectl` never starts, and the
//!   stand-in receives Torii's deny reason as the tool result. The same turn without the hook
//!   runs the fake `kubectl`, so the test cannot pass by the client never trying;
//! - with `--hook`, Claude Code and Gemini CLI refuse their own shell `torii target activate …`
//!   and their own file tool writing the policy, and the model reads why.

use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::agents::Setup;
use crate::common::{FakeCli, install_provider, simple_provider, which};

fn agent_cli_modules() -> PathBuf {
    let from_env = std::env::var_os("TORII_TEST_NODE_MODULES").map(PathBuf::from);
    let local = Path::new(env!("CARGO_MANIFEST_DIR")).join(".tools/node/node_modules");
    from_env
        .or(Some(local))
        .filter(|modules| modules.join(".bin/claude").exists())
        .unwrap_or_else(|| {
            crate::common::missing_tool("the agent CLIs from npm (TORII_TEST_NODE_MODULES)")
        })
}

/// A root with a `kubectl` provider whose fake CLI records launches, a home, a project dir.
struct Scene {
    setup: Setup,
    kubectl: FakeCli,
    project: PathBuf,
    bin: PathBuf,
}

impl Scene {
    fn new(modules: &Path) -> Self {
        let setup = Setup::new();
        install_provider(
            &setup.root,
            "kubectl",
            &simple_provider("kubectl", ""),
            "version: \"1\"\ndeny: []\naccept: [\"get\"]\n",
        );
        let kubectl = FakeCli::new(&setup.root, "kubectl", "echo 'NAME READY STATUS'");
        let project = setup.root.outside().join("project");
        std::fs::create_dir_all(&project).unwrap();
        Self {
            setup,
            kubectl,
            project,
            bin: modules.join(".bin"),
        }
    }

    /// A clean environment: the fake `kubectl` first on PATH (this machine may have a real
    /// one), node, the throwaway home, no terminal.
    fn env(&self, command: &mut Command) {
        let node = which("node").expect("node on PATH");
        let path = std::env::join_paths([
            self.kubectl.bin_dir.clone(),
            node.parent().unwrap().to_path_buf(),
            PathBuf::from("/usr/local/bin"),
            PathBuf::from("/usr/bin"),
            PathBuf::from("/bin"),
        ])
        .unwrap();
        let tmp = self.setup.root.outside().join("tmp");
        std::fs::create_dir_all(&tmp).unwrap();
        command
            .env_clear()
            .env("PATH", path)
            .env("HOME", &self.setup.home)
            .env("TERM", "dumb")
            .env("TMPDIR", tmp)
            .current_dir(&self.project)
            .stdin(Stdio::null());
    }

    fn client(&self, name: &str) -> Command {
        let mut command = Command::new(self.bin.join(name));
        self.env(&mut command);
        command
    }

    fn torii(&self, args: &[&str], extra: &[(&str, &Path)]) {
        let mut command = self.setup.torii();
        for (name, value) in extra {
            command.env(name, value);
        }
        let output = command.args(args).output().unwrap();
        assert!(
            output.status.success(),
            "torii {args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

/// Runs `command` with a deadline; the clients are killed rather than left to hang a test.
fn run(mut command: Command, what: &str) -> (String, String) {
    let child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|error| panic!("{what}: {error}"));
    let pid = child.id();
    let watchdog = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_secs(150));
        let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
    });
    let output = child.wait_with_output().unwrap();
    drop(watchdog);
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn read(path: &Path) -> Option<Vec<u8>> {
    std::fs::read(path).ok()
}

#[test]
#[ignore = "needs the agent CLIs from npm; run by ./scripts/test.sh"]
fn claude_mcp_list_shows_torii_connected_and_uninstall_restores_the_file() {
    let modules = agent_cli_modules();
    let scene = Scene::new(&modules);
    let config = scene.setup.home.join(".claude");
    std::fs::create_dir_all(&config).unwrap();
    let file = config.join(".claude.json");
    std::fs::write(&file, "{\n  \"hasCompletedOnboarding\": true\n}\n").unwrap();
    scene.torii(
        &["agent", "install", "claude"],
        &[("CLAUDE_CONFIG_DIR", &config)],
    );
    let mut list = scene.client("claude");
    list.env("CLAUDE_CONFIG_DIR", &config)
        .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
        .env("DISABLE_AUTOUPDATER", "1")
        .args(["mcp", "list"]);
    let (out, err) = run(list, "claude mcp list");
    let line = out
        .lines()
        .find(|line| line.starts_with("torii:"))
        .unwrap_or_else(|| panic!("no torii line: {out}\n{err}"));
    assert!(line.contains("Connected"), "{line}\n{out}\n{err}");
    assert!(line.contains(&scene.setup.exe()), "{line}");
    // Claude keeps its own state in that file and has just added to it: uninstall must take
    // away Torii's entry (and the `mcpServers` it created), and nothing of Claude's.
    let mut expected: serde_json::Value = serde_json::from_slice(&read(&file).unwrap()).unwrap();
    expected.as_object_mut().unwrap().remove("mcpServers");
    scene.torii(
        &["agent", "uninstall", "claude"],
        &[("CLAUDE_CONFIG_DIR", &config)],
    );
    let after: serde_json::Value = serde_json::from_slice(&read(&file).unwrap()).unwrap();
    assert_eq!(after, expected);
    assert_eq!(after["hasCompletedOnboarding"], true);
}

#[test]
#[ignore = "needs the agent CLIs from npm; run by ./scripts/test.sh"]
fn gemini_mcp_list_shows_torii_connected_and_uninstall_restores_the_file() {
    let modules = agent_cli_modules();
    let scene = Scene::new(&modules);
    let settings = gemini_settings(&scene);
    scene.torii(&["agent", "install", "gemini"], &[]);
    let mut list = scene.client("gemini");
    list.env("GEMINI_CLI_NO_RELAUNCH", "true")
        .args(["mcp", "list"]);
    let (out, err) = run(list, "gemini mcp list");
    let text = format!("{out}{err}");
    let line = text
        .lines()
        .find(|line| line.contains("torii:"))
        .unwrap_or_else(|| panic!("no torii line: {text}"));
    assert!(line.contains("Connected"), "{line}\n{text}");
    scene.torii(&["agent", "uninstall", "gemini"], &[]);
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), GEMINI_SETTINGS);
}

/// Issue 35: headless Gemini CLI offers the model a server's tools only when its entry trusts
/// the server, and the docs told users to add `"trust": true` by hand, which then broke
/// uninstall. `--trust --headless` writes both: the model's call reaches Torii, which runs what
/// its policy accepts without a window, and uninstall gives the file back.
#[test]
#[ignore = "needs the agent CLIs from npm; run by ./scripts/test.sh"]
fn headless_gemini_calls_torii_once_installed_with_trust() {
    let modules = agent_cli_modules();
    let scene = Scene::new(&modules);
    let settings = gemini_settings(&scene);
    let turn = |standin: &Standin| {
        let mut command = scene.client("gemini");
        command
            .env("GEMINI_CLI_NO_RELAUNCH", "true")
            .env("GOOGLE_GEMINI_BASE_URL", standin.url())
            .env("GEMINI_API_KEY", "fake")
            .args(["-p", "list the pods", "-o", "json"]);
        command
    };
    let call = [
        "--command",
        "true",
        // Gemini CLI's name for the `kubectl` tool of the `torii` server.
        "--tool",
        "mcp_torii_kubectl",
        "--input",
        r#"{"args": ["get", "pods"]}"#,
    ];

    scene.torii(&["agent", "install", "gemini"], &[]);
    let untrusted = Standin::start_with(&scene, "gemini-untrusted", &call);
    let (out, err) = run(turn(&untrusted), "gemini without trust");
    assert!(
        scene.kubectl.launches().is_empty(),
        "without trust the tool was offered and run\n{out}\n{err}"
    );

    scene.torii(
        &["agent", "install", "gemini", "--trust", "--headless"],
        &[],
    );
    let trusted = Standin::start_with(&scene, "gemini-trusted", &call);
    let (out, err) = run(turn(&trusted), "gemini with trust");
    trusted.assert_turn(&format!("{out}\n{err}"));
    assert_eq!(
        scene.kubectl.launches().len(),
        1,
        "the model's call did not reach Torii\n{out}\n{err}\n{}",
        trusted.requests()
    );
    scene.torii(&["agent", "uninstall", "gemini"], &[]);
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), GEMINI_SETTINGS);
}

#[test]
#[ignore = "needs the agent CLIs from npm; run by ./scripts/test.sh"]
fn opencode_mcp_list_shows_torii_connected_and_uninstall_restores_the_file() {
    let modules = agent_cli_modules();
    let scene = Scene::new(&modules);
    let file = scene.setup.home.join(".config/opencode/opencode.json");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    // What opencode itself writes into a configuration that lacks it.
    let original = "{\n  \"$schema\": \"https://opencode.ai/config.json\"\n}\n";
    std::fs::write(&file, original).unwrap();
    scene.torii(&["agent", "install", "opencode"], &[]);
    let mut list = scene.client("opencode");
    list.args(["mcp", "list"]);
    let (out, err) = run(list, "opencode mcp list");
    let text = format!("{out}{err}");
    let line = text
        .lines()
        .find(|line| line.contains("torii"))
        .unwrap_or_else(|| panic!("no torii line: {text}"));
    assert!(line.contains("connected"), "{line}\n{text}");
    scene.torii(&["agent", "uninstall", "opencode"], &[]);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), original);
}

#[test]
#[ignore = "needs the agent CLIs from npm; run by ./scripts/test.sh"]
fn codex_mcp_list_shows_the_entry_and_uninstall_restores_the_file() {
    let modules = agent_cli_modules();
    let scene = Scene::new(&modules);
    let codex = scene.setup.home.join(".codex");
    std::fs::create_dir_all(&codex).unwrap();
    let config = codex.join("config.toml");
    let original = codex_config(0);
    std::fs::write(&config, &original).unwrap();
    scene.torii(&["agent", "install", "codex"], &[]);
    let mut list = scene.client("codex");
    list.env("CODEX_HOME", &codex)
        .args(["mcp", "list", "--json"]);
    let (out, err) = run(list, "codex mcp list --json");
    let servers: serde_json::Value =
        serde_json::from_str(&out).unwrap_or_else(|_| panic!("{out}\n{err}"));
    let torii = servers
        .as_array()
        .and_then(|servers| servers.iter().find(|server| server["name"] == "torii"))
        .unwrap_or_else(|| panic!("{servers}"));
    assert_eq!(
        torii["transport"]["command"],
        serde_json::json!(scene.setup.exe()),
        "{torii}"
    );
    scene.torii(&["agent", "uninstall", "codex"], &[]);
    assert_eq!(std::fs::read_to_string(&config).unwrap(), original);
}

/// The stand-in model server, stopped on drop.
struct Standin {
    child: std::process::Child,
    port: u16,
    log: PathBuf,
}

impl Standin {
    fn start(scene: &Scene, name: &str) -> Self {
        Self::start_with(scene, name, &["--command", "kubectl get pods"])
    }

    /// A stand-in started with these arguments (`--command`, or `--tool` and `--input`).
    fn start_with(scene: &Scene, name: &str, args: &[&str]) -> Self {
        let log = scene
            .setup
            .root
            .outside()
            .join(format!("{name}-requests.jsonl"));
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/e2e/model_standin.py");
        let mut child = Command::new("python3")
            .arg(script)
            .args(args)
            .arg("--log")
            .arg(&log)
            .stdout(Stdio::piped())
            .stdin(Stdio::null())
            .spawn()
            .expect("python3 runs the stand-in");
        let mut first = String::new();
        std::io::BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        let port = first
            .trim()
            .strip_prefix("PORT ")
            .and_then(|port| port.parse().ok())
            .unwrap_or_else(|| panic!("stand-in said {first:?}"));
        Self { child, port, log }
    }

    fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    fn requests(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// The model asked for the shell tool, then got a tool result back.
    fn assert_turn(&self, what: &str) {
        let requests = self.requests();
        assert!(
            requests.contains("\"reply\": \"tool_call\""),
            "{what}: the model never asked for the shell tool\n{requests}"
        );
        assert!(
            requests.contains("\"reply\": \"done\""),
            "{what}: no tool result came back\n{requests}"
        );
    }
}

impl Drop for Standin {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

const DENY: &str = "Torii blocks `kubectl` in the shell";

/// Runs one turn, first without the hook (the command runs), then with it (it does not).
fn prove_hook(
    scene: &Scene,
    name: &str,
    install: &[(&str, &Path)],
    turn: impl Fn(&Standin) -> Command,
) {
    let control = Standin::start(scene, &format!("{name}-control"));
    let (out, err) = run(turn(&control), &format!("{name} without the hook"));
    control.assert_turn(&format!("{name} without the hook: {out}\n{err}"));
    assert_eq!(
        scene.kubectl.launches().len(),
        1,
        "{name} without the hook must run the fake kubectl\n{out}\n{err}"
    );
    assert!(!control.requests().contains(DENY));

    scene.torii(&["agent", "install", name, "--hook"], install);
    let guarded = Standin::start(scene, &format!("{name}-hook"));
    let (out, err) = run(turn(&guarded), &format!("{name} with the hook"));
    guarded.assert_turn(&format!("{name} with the hook: {out}\n{err}"));
    assert_eq!(
        scene.kubectl.launches().len(),
        1,
        "{name}: the hook let kubectl run\n{out}\n{err}"
    );
    let requests = guarded.requests();
    assert!(
        requests.contains(DENY),
        "{name}: the deny reason never reached the model\n{requests}\n{out}\n{err}"
    );
    assert!(
        requests.contains("call the Torii MCP tool `kubectl`"),
        "{requests}"
    );
}

/// Claude Code, headless, talking to `standin`, with its configuration in `config` and
/// nothing that reaches the internet.
fn claude(scene: &Scene, config: &Path, standin: &Standin) -> Command {
    let mut command = scene.client("claude");
    command
        .env("CLAUDE_CONFIG_DIR", config)
        .env("ANTHROPIC_BASE_URL", standin.url())
        .env("ANTHROPIC_API_KEY", "fake")
        .env("DISABLE_TELEMETRY", "1")
        .env("DISABLE_AUTOUPDATER", "1")
        .env("DISABLE_ERROR_REPORTING", "1")
        .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
        .env("CLAUDE_CODE_MAX_RETRIES", "0")
        .args(["-p", "run it", "--output-format", "json"]);
    command
}

/// Claude Code's configuration directory in the scene's home, created.
fn claude_config(scene: &Scene) -> PathBuf {
    let config = scene.setup.home.join(".claude");
    std::fs::create_dir_all(&config).unwrap();
    config
}

/// Claude Code allowed to run Bash without a prompt, so that only the hook can stop it.
fn claude_with_bash(scene: &Scene, config: &Path, standin: &Standin) -> Command {
    let mut command = claude(scene, config, standin);
    command.args(["--allowedTools", "Bash"]);
    command
}

#[test]
#[ignore = "needs the agent CLIs from npm; run by ./scripts/test.sh"]
fn claude_code_runs_the_hook_and_the_model_gets_the_deny_reason() {
    let modules = agent_cli_modules();
    let scene = Scene::new(&modules);
    let config = claude_config(&scene);
    prove_hook(
        &scene,
        "claude",
        &[("CLAUDE_CONFIG_DIR", &config)],
        |standin| claude_with_bash(&scene, &config, standin),
    );
}

/// Issue 35, with the real clients: the official kubectl recipe (its `kubeconfig` identity
/// package runs `true`) once blocked `true` and every `… || true` line. With the hook
/// installed, the client's shell runs `git … || true`.
fn prove_or_true_runs(
    scene: &Scene,
    name: &str,
    install: &[(&str, &Path)],
    turn: impl Fn(&Standin) -> Command,
) {
    let kubeconfig = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/providers/kubeconfig");
    let read = |file: &str| std::fs::read_to_string(kubeconfig.join(file)).unwrap();
    install_provider(
        &scene.setup.root,
        "kubeconfig",
        &read("provider.yaml"),
        &read("rules.yaml"),
    );
    scene.torii(&["agent", "install", name, "--hook"], install);
    let standin = Standin::start_with(
        scene,
        &format!("{name}-or-true"),
        &["--command", "git --version > git-ran.txt || true"],
    );
    let (out, err) = run(turn(&standin), &format!("{name} with the kubectl recipe"));
    standin.assert_turn(&format!("{out}\n{err}"));
    let ran = std::fs::read_to_string(scene.project.join("git-ran.txt")).unwrap_or_default();
    assert!(
        ran.starts_with("git version"),
        "{name}: the hook stopped `git … || true`\n{}\n{out}\n{err}",
        standin.requests()
    );
}

#[test]
#[ignore = "needs the agent CLIs from npm; run by ./scripts/test.sh"]
fn claude_code_runs_git_and_or_true_with_the_kubectl_recipe_hooked() {
    let modules = agent_cli_modules();
    let scene = Scene::new(&modules);
    let config = claude_config(&scene);
    prove_or_true_runs(
        &scene,
        "claude",
        &[("CLAUDE_CONFIG_DIR", &config)],
        |standin| claude_with_bash(&scene, &config, standin),
    );
}

#[test]
#[ignore = "needs the agent CLIs from npm; run by ./scripts/test.sh"]
fn gemini_cli_runs_git_and_or_true_with_the_kubectl_recipe_hooked() {
    let modules = agent_cli_modules();
    let scene = Scene::new(&modules);
    gemini_settings(&scene);
    prove_or_true_runs(&scene, "gemini", &[], |standin| gemini(&scene, standin));
}

/// The control plane through the agent's own tools (issue 33): the model asks the shell for
/// `torii target activate …` and a file tool to write the provider's `rules.yaml` (the root is
/// one of the client's workspace directories, so only the hook stands in the way). Both are
/// refused with a reason that sends the agent to the human, and nothing in the root changes.
fn prove_control_plane_refused(
    scene: &Scene,
    name: &str,
    write_tool: (&str, serde_json::Value),
    turn: impl Fn(&Standin) -> Command,
) {
    let rules = scene.setup.root.path().join("providers/kubectl/rules.yaml");
    let before = read(&rules);
    let (tool, input) = write_tool;
    let input = input.to_string();
    for (what, args, reason) in [
        (
            "shell",
            vec!["--command", "torii target activate kubectl prod --for 1440"],
            "are the human's",
        ),
        (
            tool,
            vec!["--command", "true", "--tool", tool, "--input", &input],
            "names Torii's configuration",
        ),
    ] {
        let standin = Standin::start_with(scene, &format!("{name}-{what}"), &args);
        let (out, err) = run(turn(&standin), &format!("{name} {what}"));
        standin.assert_turn(&format!("{name} {what}: {out}\n{err}"));
        let requests = standin.requests();
        assert!(
            requests.contains(reason) && requests.contains("Torii's hook denied"),
            "{name} {what}: the hook's reason never reached the model\n{requests}\n{out}\n{err}"
        );
    }
    assert_eq!(read(&rules), before, "{name}: rules.yaml changed");
    assert!(
        !scene
            .setup
            .root
            .path()
            .join("providers/kubectl/targets")
            .exists(),
        "{name}: a target appeared"
    );
}

#[test]
#[ignore = "needs the agent CLIs from npm; run by ./scripts/test.sh"]
fn claude_code_cannot_reach_the_control_plane_through_its_own_tools() {
    let modules = agent_cli_modules();
    let scene = Scene::new(&modules);
    let config = claude_config(&scene);
    scene.torii(
        &["agent", "install", "claude", "--hook"],
        &[("CLAUDE_CONFIG_DIR", &config)],
    );
    let root = scene.setup.root_dir();
    // A policy for a new target: Claude Code refuses to overwrite a file it has not read
    // before any hook runs, so the attack that needs the hook is writing a new one.
    let rules = format!("{root}/providers/kubectl/targets/prod/rules.yaml");
    prove_control_plane_refused(
        &scene,
        "claude",
        (
            "Write",
            serde_json::json!({"file_path": rules, "content": "accept: [delete]\n"}),
        ),
        |standin| {
            let mut command = claude(&scene, &config, standin);
            command
                .args(["--add-dir", &root])
                .args(["--allowedTools", "Bash", "Write"]);
            command
        },
    );
}

#[test]
#[ignore = "needs the agent CLIs from npm; run by ./scripts/test.sh"]
fn gemini_cli_cannot_reach_the_control_plane_through_its_own_tools() {
    let modules = agent_cli_modules();
    let scene = Scene::new(&modules);
    gemini_settings(&scene);
    scene.torii(&["agent", "install", "gemini", "--hook"], &[]);
    let root = scene.setup.root_dir();
    let rules = format!("{root}/providers/kubectl/rules.yaml");
    prove_control_plane_refused(
        &scene,
        "gemini",
        (
            "write_file",
            serde_json::json!({"file_path": rules, "content": "accept: [delete]\n"}),
        ),
        |standin| {
            let mut command = gemini(&scene, standin);
            command.args(["--include-directories", &root]);
            command
        },
    );
}

const GEMINI_SETTINGS: &str = r#"{
  "security": {"auth": {"selectedType": "gemini-api-key"}},
  "privacy": {"usageStatisticsEnabled": false},
  "telemetry": {"enabled": false},
  "general": {"enableAutoUpdate": false, "enableAutoUpdateNotification": false, "maxAttempts": 1, "retryFetchErrors": false}
}
"#;

/// Gemini CLI, headless, talking to `standin`. Headless, only yolo offers the shell tool at
/// all; the hook still runs.
fn gemini(scene: &Scene, standin: &Standin) -> Command {
    let mut command = scene.client("gemini");
    command
        .env("GEMINI_CLI_NO_RELAUNCH", "true")
        .env("GOOGLE_GEMINI_BASE_URL", standin.url())
        .env("GEMINI_API_KEY", "fake")
        .args(["-p", "run it", "--yolo", "-o", "json"]);
    command
}

/// `~/.gemini/settings.json` as Gemini CLI leaves it, in a home whose project folder it
/// trusts; its path.
fn gemini_settings(scene: &Scene) -> PathBuf {
    let gemini = scene.setup.home.join(".gemini");
    std::fs::create_dir_all(&gemini).unwrap();
    let settings = gemini.join("settings.json");
    std::fs::write(&settings, GEMINI_SETTINGS).unwrap();
    let trusted = serde_json::json!({ scene.project.display().to_string(): "TRUST_FOLDER" });
    std::fs::write(gemini.join("trustedFolders.json"), trusted.to_string()).unwrap();
    settings
}

#[test]
#[ignore = "needs the agent CLIs from npm; run by ./scripts/test.sh"]
fn gemini_cli_runs_the_hook_and_the_model_gets_the_deny_reason() {
    let modules = agent_cli_modules();
    let scene = Scene::new(&modules);
    gemini_settings(&scene);
    prove_hook(&scene, "gemini", &[], |standin| gemini(&scene, standin));
}

/// A Codex configuration talking to the stand-in on `port` (0 when no turn runs), with the
/// features that reach out to the internet turned off.
fn codex_config(port: u16) -> String {
    format!(
        "model = \"gpt-5.5\"\nmodel_provider = \"standin\"\ncheck_for_update_on_startup = false\n\n\
         [analytics]\nenabled = false\n\n\
         [features]\nplugins = false\nremote_plugin = false\napps = false\n\n\
         [model_providers.standin]\nname = \"standin\"\nbase_url = \"http://127.0.0.1:{port}/v1\"\n\
         wire_api = \"responses\"\nenv_key = \"STANDIN_API_KEY\"\nrequest_max_retries = 0\n\
         stream_max_retries = 0\nstream_idle_timeout_ms = 20000\n"
    )
}

#[test]
#[ignore = "needs the agent CLIs from npm; run by ./scripts/test.sh"]
fn codex_runs_the_hook_and_the_model_gets_the_deny_reason() {
    let modules = agent_cli_modules();
    let scene = Scene::new(&modules);
    let codex = scene.setup.home.join(".codex");
    std::fs::create_dir_all(&codex).unwrap();
    prove_hook(&scene, "codex", &[], |standin| {
        // The stand-in's port changes per turn; only that line of the file does.
        let config = codex.join("config.toml");
        let text = std::fs::read_to_string(&config).unwrap_or_default();
        let text = if text.is_empty() {
            codex_config(standin.port)
        } else {
            let old = text
                .lines()
                .find(|line| line.starts_with("base_url = "))
                .unwrap()
                .to_string();
            text.replace(&old, &format!("base_url = \"{}/v1\"", standin.url()))
        };
        std::fs::write(&config, text).unwrap();
        let mut command = scene.client("codex");
        command
            .env("CODEX_HOME", &codex)
            .env("STANDIN_API_KEY", "fake")
            // No `--dangerously-bypass-hook-trust`: Codex skips an untrusted hook, so this also
            // proves the trust entry install wrote.
            .args([
                "exec",
                "--skip-git-repo-check",
                "--json",
                "-s",
                "danger-full-access",
                "run it",
            ]);
        command
    });
}

#[test]
#[ignore = "needs the agent CLIs from npm; run by ./scripts/test.sh"]
fn copilot_cli_mcp_list_shows_the_entry_and_uninstall_removes_the_file() {
    let modules = agent_cli_modules();
    let scene = Scene::new(&modules);
    scene.torii(&["agent", "install", "copilot-cli"], &[]);
    let mut list = scene.client("copilot");
    list.env("COPILOT_AUTO_UPDATE", "false")
        .args(["mcp", "list", "--json"]);
    let (out, err) = run(list, "copilot mcp list --json");
    let servers: serde_json::Value =
        serde_json::from_str(&out).unwrap_or_else(|_| panic!("{out}\n{err}"));
    let torii = &servers["mcpServers"]["torii"];
    assert_eq!(torii["type"], "local", "{servers}");
    assert_eq!(torii["tools"], serde_json::json!(["*"]), "{servers}");
    assert_eq!(torii["command"], serde_json::json!(scene.setup.exe()));
    assert_eq!(torii["enabled"], true, "{servers}");
    scene.torii(&["agent", "uninstall", "copilot-cli"], &[]);
    assert!(!scene.setup.home.join(".copilot/mcp-config.json").exists());
}

/// The venv's interpreter, which must hold Google's Antigravity SDK (`google-antigravity`,
/// pinned by scripts/test.sh): its wheel ships the agent's Go harness, `localharness`.
fn antigravity_python() -> PathBuf {
    let python = crate::python_sdk::test_python();
    let found = Command::new(&python)
        .args(["-c", "import google.antigravity"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success());
    if !found {
        crate::common::missing_tool("google-antigravity from PyPI in the venv (TORII_TEST_PYTHON)");
    }
    python
}

/// The stand-in's arguments for a model that asks Antigravity's shell tool, `run_command`, for
/// `line` in `cwd` (the stand-in's own shell tool is Gemini CLI's `run_shell_command`).
fn antigravity_call(line: &str, cwd: &Path) -> Vec<String> {
    let input = serde_json::json!({
        "CommandLine": line,
        "Cwd": cwd.display().to_string(),
        "WaitMsBeforeAsync": 5000,
    })
    .to_string();
    [
        "--command",
        "true",
        "--tool",
        "run_command",
        "--input",
        input.as_str(),
    ]
    .map(String::from)
    .to_vec()
}

/// The stand-in's arguments for a model that asks Antigravity's file tool `tool` with `input`.
fn antigravity_tool(tool: &str, input: &serde_json::Value) -> Vec<String> {
    let input = input.to_string();
    [
        "--command",
        "true",
        "--tool",
        tool,
        "--input",
        input.as_str(),
    ]
    .map(String::from)
    .to_vec()
}

/// One Antigravity turn against `standin`: the SDK's harness, headless, through
/// tests/e2e/antigravity_sdk_driver.py (allow-all policy, so only a hook can stop a command),
/// in a clean environment with the fake `kubectl` first on PATH. The driver's summary.
fn antigravity_turn(
    scene: &Scene,
    python: &Path,
    standin: &Standin,
    what: &str,
) -> serde_json::Value {
    let driver = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/e2e/antigravity_sdk_driver.py");
    let path = std::env::join_paths([
        scene.kubectl.bin_dir.clone(),
        PathBuf::from("/usr/local/bin"),
        PathBuf::from("/usr/bin"),
        PathBuf::from("/bin"),
    ])
    .unwrap();
    let tmp = scene.setup.root.outside().join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let mut command = Command::new(python);
    command
        .env_clear()
        .env("PATH", path)
        .env("HOME", &scene.setup.home)
        .env("TERM", "dumb")
        .env("TMPDIR", tmp)
        .current_dir(&scene.project)
        .stdin(Stdio::null())
        .arg(driver)
        .args(["--base-url", &standin.url(), "--workspace"])
        .arg(&scene.project);
    let (out, err) = run(command, what);
    let summary: serde_json::Value = serde_json::from_str(out.trim())
        .unwrap_or_else(|_| panic!("{what}: the driver said {out}\n{err}"));
    assert_eq!(
        summary["completed"],
        true,
        "{what}: {summary}\n{err}\n{}",
        standin.requests()
    );
    summary
}

/// Antigravity's harness runs the PreToolUse hook `agent install antigravity --hook` writes in
/// `~/.gemini/config/hooks.json`, for `run_command`: a shell `kubectl` and `torii target
/// activate …` never run and the model reads Torii's reason as the hook's denial; a command
/// Torii has nothing to say about runs (its `ask` defers to the policy, which allows all). The
/// same `kubectl` turn without the hook runs the fake `kubectl`, so the test cannot pass by the
/// harness never trying.
#[test]
#[ignore = "needs google-antigravity from PyPI; run by ./scripts/test.sh"]
fn antigravity_runs_the_hook_and_the_model_gets_the_deny_reason() {
    let python = antigravity_python();
    // Antigravity is no npm client: the scene's `client` is not used.
    let scene = Scene::new(Path::new("/no-npm-client"));
    let turn_with = |name: &str, call: Vec<String>| {
        let args: Vec<&str> = call.iter().map(String::as_str).collect();
        let standin = Standin::start_with(&scene, &format!("antigravity-{name}"), &args);
        let what = format!("antigravity {name}");
        let summary = antigravity_turn(&scene, &python, &standin, &what);
        standin.assert_turn(&format!("{what}: {summary}"));
        (standin, summary)
    };
    let turn_in = |name: &str, line: &str, cwd: &Path| turn_with(name, antigravity_call(line, cwd));
    let turn = |name: &str, line: &str| turn_in(name, line, &scene.project);

    let (control, summary) = turn("control", "kubectl get pods");
    assert_eq!(
        scene.kubectl.launches().len(),
        1,
        "without the hook the harness must run the fake kubectl\n{summary}\n{}",
        control.requests()
    );
    assert!(!control.requests().contains(DENY));

    scene.torii(&["agent", "install", "antigravity", "--hook"], &[]);

    let (guarded, summary) = turn("kubectl", "kubectl get pods");
    let requests = guarded.requests();
    assert_eq!(
        scene.kubectl.launches().len(),
        1,
        "the hook let kubectl run\n{summary}\n{requests}"
    );
    // The harness's words for a hook's denial, then Torii's reason.
    assert!(
        requests.contains(&format!("denied by pre-tool hook: {DENY}")),
        "the deny reason never reached the model as the hook's\n{requests}\n{summary}"
    );
    assert!(
        requests.contains("call the Torii MCP tool `kubectl`"),
        "{requests}"
    );

    // The whole line is refused: what comes before `torii` on it does not run either.
    let (activate, summary) = turn(
        "activate",
        "echo ran > denied.txt; torii target activate kubectl prod --for 5",
    );
    let requests = activate.requests();
    assert!(
        requests.contains("denied by pre-tool hook: Torii's hook denied")
            && requests.contains("are the human's"),
        "the hook's reason never reached the model\n{requests}\n{summary}"
    );
    assert!(
        !scene.project.join("denied.txt").exists(),
        "the denied line ran\n{summary}"
    );
    assert!(
        !scene
            .setup
            .root
            .path()
            .join("providers/kubectl/targets")
            .exists(),
        "a target appeared"
    );

    let (allowed, summary) = turn("allowed", "echo ok > allowed.txt");
    let requests = allowed.requests();
    assert_eq!(
        std::fs::read_to_string(scene.project.join("allowed.txt")).unwrap_or_default(),
        "ok\n",
        "Torii's `ask` stopped a command it has nothing to say about\n{summary}\n{requests}"
    );
    assert!(
        requests.contains("The command exited with code 0.") && !requests.contains("pre-tool hook"),
        "{requests}"
    );

    // A relative path run in the config root names the root: the hook reads where the command
    // runs from `toolCall.args.Cwd` (it once read it from its own directory, the folder of
    // hooks.json, and let this through).
    let root = scene.setup.root.path().to_path_buf();
    let leak = scene.project.join("leak.txt");
    let line = format!("cat providers/kubectl/rules.yaml > {}", leak.display());
    let (in_root, summary) = turn_in("in-root", &line, &root);
    assert!(
        in_root.requests().contains("denied by pre-tool hook"),
        "{summary}\n{}",
        in_root.requests()
    );
    assert!(!leak.exists(), "the policy was copied out\n{summary}");

    // Its file tools go through the hook too: reading or rewriting the policy is refused, and
    // the file is unchanged.
    let rules_path = scene.setup.root.path().join("providers/kubectl/rules.yaml");
    let rules = std::fs::read_to_string(&rules_path).unwrap();
    for (name, tool, input) in [
        (
            "view-root",
            "view_file",
            serde_json::json!({"AbsolutePath": rules_path}),
        ),
        (
            "write-root",
            "write_to_file",
            serde_json::json!({"TargetFile": rules_path, "CodeContent": "accept: [\"*\"]\n",
                "Overwrite": true, "Description": "x"}),
        ),
    ] {
        let (refused, summary) = turn_with(name, antigravity_tool(tool, &input));
        assert!(
            refused.requests().contains("denied by pre-tool hook"),
            "{name}: {summary}\n{}",
            refused.requests()
        );
        assert_eq!(
            std::fs::read_to_string(&rules_path).unwrap(),
            rules,
            "{name}"
        );
    }
}
