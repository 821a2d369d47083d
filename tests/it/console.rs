//! `torii console` in a real terminal (tmux): the questions a window would ask, answered at the
//! terminal for a real server under a real MCP client, while no window can open.

use std::path::PathBuf;
use std::process::Command;

use serde_json::json;

use crate::common::{FakeCli, Root, install_provider, simple_provider, wait_until, which};
use crate::mcp_client;

/// A `torii console` running in a tmux session of its own, on a private tmux server. Its waits
/// block a thread: the tests run on a runtime with others, where the MCP client lives.
struct Console {
    tmux: PathBuf,
    socket: PathBuf,
}

impl Console {
    /// Starts the console of `root` speaking `language`, and waits until it listens.
    fn start(root: &Root, language: &str) -> Self {
        let tmux = which("tmux").unwrap_or_else(|| crate::common::missing_tool("tmux"));
        let socket = root.outside().join("tmux.sock");
        let torii = assert_cmd::cargo::cargo_bin("torii");
        let command = format!(
            "env TORII_CONFIG_DIR='{}' TORII_LANG={language} TERM=xterm-256color '{}' console",
            root.path().display(),
            torii.display()
        );
        let status = Command::new(&tmux)
            .arg("-S")
            .arg(&socket)
            .args([
                "new-session",
                "-d",
                "-s",
                "console",
                "-x",
                "140",
                "-y",
                "40",
                &command,
            ])
            .status()
            .unwrap();
        assert!(status.success());
        let console = Self { tmux, socket };
        // Listening: its socket is there and its token locked (what one that died left has
        // no lock).
        let (listening, token) = (
            root.path().join("console.sock"),
            root.path().join("console.token"),
        );
        wait_until("the console to listen", || {
            listening.exists()
                && std::fs::File::open(&token).is_ok_and(|token| token.try_lock().is_err())
        });
        console
    }

    fn tmux(&self) -> Command {
        let mut command = Command::new(&self.tmux);
        command.arg("-S").arg(&self.socket);
        command
    }

    /// What the terminal shows now.
    fn screen(&self) -> String {
        let output = self
            .tmux()
            .args(["capture-pane", "-p", "-t", "console"])
            .output()
            .unwrap();
        String::from_utf8_lossy(&output.stdout).into_owned()
    }

    fn wait_for(&self, text: &str) {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while !self.screen().contains(text) {
            assert!(
                std::time::Instant::now() < deadline,
                "the console never showed {text:?}:\n{}",
                self.screen()
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }

    /// Presses `keys` (tmux key names: "o", "Space", "Enter", "Escape").
    fn keys(&self, keys: &[&str]) {
        let status = self
            .tmux()
            .args(["send-keys", "-t", "console"])
            .args(keys)
            .status()
            .unwrap();
        assert!(status.success());
    }

    fn kill(&self) {
        let _ = self.tmux().arg("kill-server").status();
    }
}

impl Drop for Console {
    fn drop(&mut self) {
        self.kill();
    }
}

/// `call` within a bound: a question nobody answers fails the test instead of hanging it.
async fn bounded<T>(call: impl std::future::Future<Output = T>) -> T {
    tokio::time::timeout(std::time::Duration::from_secs(30), call)
        .await
        .expect("the call ended within 30 s")
}

/// The call's result, within a bound: a console that never answers fails the test.
async fn answered(call: rmcp::service::RequestHandle<rmcp::RoleClient>) -> serde_json::Value {
    tokio::time::timeout(std::time::Duration::from_secs(30), mcp_client::finish(call))
        .await
        .expect("the call was answered in time")
}

/// A root whose `tok` provider no rule decides for `run`.
fn root_with_tok() -> (Root, FakeCli) {
    let root = Root::new();
    install_provider(
        &root,
        "tok",
        &simple_provider("tok", ""),
        "version: \"1\"\ndeny: []\naccept: []\n",
    );
    let cli = FakeCli::new(&root, "tok", "echo ran");
    (root, cli)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs tmux; run by ./scripts/test.sh"]
async fn the_console_allows_once_and_denies_what_the_human_denies() {
    let (root, cli) = root_with_tok();
    let console = Console::start(&root, "en");
    // One console per root, and doctor says it is there.
    root.torii()
        .arg("console")
        .assert()
        .failure()
        .stderr(predicates::str::contains("a console is already attached"));
    let doctor = root.torii().arg("doctor").output().unwrap();
    assert!(
        String::from_utf8_lossy(&doctor.stdout).contains("a torii console is attached"),
        "{doctor:?}"
    );
    let client = mcp_client::start(&root, &[("PATH", cli.path_env())]).await;

    let call = client
        .start_call("tok", json!({"args": ["run", "--fast"]}))
        .await;
    console.wait_for("approve a call to tok");
    let screen = console.screen();
    assert!(
        screen.contains("[1] run") && screen.contains("[2] --fast"),
        "{screen}"
    );
    // The server first, then the name the client gave itself in `initialize` (rmcp's default),
    // quoted: the human sees who asks, and that the name is the client's claim.
    assert!(
        screen.contains("asked by torii server, process ")
            && screen.contains(", for the client \"rmcp\""),
        "{screen}"
    );
    console.keys(&["o", "Space", "Enter"]);
    let result = answered(call).await;
    assert_eq!(result["decision"]["source"], "human-once", "{result}");
    let log = crate::common::audit_lines(&root).join("\n");
    assert!(
        log.contains("| tok | override-once | run --fast | via=console"),
        "{log}"
    );
    assert_eq!(result["execution"]["stdout"], "ran\n", "{result}");
    console.wait_for("Waiting for questions");

    // A long token is shown whole (the window shortens it and pages through it on request; a
    // terminal has no such pages), with a control character escaped, never interpreted.
    let long = format!("{}DROP-TABLE{}\u{1b}[2J", "a".repeat(40), "b".repeat(40));
    let call = client
        .start_call("tok", json!({"args": ["run", "--slow", long]}))
        .await;
    console.wait_for("[2] --slow");
    let whole = format!("{}DROP-TABLE{}\\u{{1b}}[2J", "a".repeat(40), "b".repeat(40));
    assert!(console.screen().contains(&whole), "{}", console.screen());
    console.keys(&["d"]);
    let result = answered(call).await;
    assert_eq!(result["decision"]["source"], "human-deny", "{result}");
    assert!(result.get("execution").is_none(), "{result}");
    client.close().await;
    assert_eq!(cli.launches().len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs tmux; run by ./scripts/test.sh"]
async fn a_temporary_prefix_grant_from_the_console_allows_the_next_call() {
    let (root, cli) = root_with_tok();
    let console = Console::start(&root, "en");
    let client = mcp_client::start(&root, &[("PATH", cli.path_env())]).await;
    let call = client
        .start_call("tok", json!({"args": ["get", "pods", "-n", "a"]}))
        .await;
    console.wait_for("[4] a");
    // Temporarily, calls starting with the suggested prefix (`get pods`), for 5 minutes.
    console.keys(&["t", "p", "5", "Space", "Enter"]);
    let result = answered(call).await;
    assert_eq!(result["decision"]["source"], "human-grant", "{result}");
    assert_eq!(
        result["decision"]["rule"], "prefix grant on 2 tokens",
        "{result}"
    );
    let (second, _) =
        bounded(client.call("tok", json!({"args": ["get", "pods", "-n", "b"]}))).await;
    assert_eq!(second["decision"]["source"], "grant", "{second}");
    client.close().await;
    // Five minutes, as typed: the grant ends about 300 s from now.
    let grants = std::fs::read_to_string(root.path().join("providers/tok/grants")).unwrap();
    let expires: u64 = grants
        .lines()
        .find_map(|line| line.trim().strip_prefix("- expires_at: "))
        .and_then(|at| at.parse().ok())
        .unwrap_or_else(|| panic!("{grants}"));
    let left = expires.saturating_sub(crate::common::epoch_now());
    assert!((280..=300).contains(&left), "{left} s left\n{grants}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs tmux; run by ./scripts/test.sh"]
async fn a_console_that_leaves_mid_question_denies_and_without_one_the_headless_rule_holds() {
    let (root, cli) = root_with_tok();
    let console = Console::start(&root, "pt-BR");
    let client = mcp_client::start(&root, &[("PATH", cli.path_env())]).await;
    let call = client.start_call("tok", json!({"args": ["run"]})).await;
    console.wait_for("[1] run");
    // The question in the server's language, pt-BR here.
    let screen = console.screen();
    for said in [
        "perguntado por",
        "uma vez (o)",
        "temporariamente (t)",
        "d ou Esc: negar",
    ] {
        assert!(screen.contains(said), "{said}: {screen}");
    }
    console.kill();
    let result = answered(call).await;
    assert_eq!(result["decision"]["result"], "deny", "{result}");
    // Gone for good: no socket is left behind by a killed console... and if one is, it is
    // refused like no console at all.
    let (headless, _) = bounded(client.call("tok", json!({"args": ["run"]}))).await;
    assert_eq!(headless["decision"]["source"], "human-deny", "{headless}");

    // A console the human leaves (Ctrl-C) mid-question denies it first, as the human's
    // answer, and takes its socket and token away.
    let console = Console::start(&root, "en");
    let call = client.start_call("tok", json!({"args": ["run"]})).await;
    console.wait_for("[1] run");
    console.keys(&["C-c"]);
    let result = answered(call).await;
    assert_eq!(result["decision"]["source"], "human-deny", "{result}");
    crate::common::wait_until("the console to clean up", || {
        !root.path().join("console.sock").exists() && !root.path().join("console.token").exists()
    });
    drop(console);
    client.close().await;
    assert!(cli.launches().is_empty());
    let log = crate::common::audit_lines(&root).join("\n");
    assert!(
        log.contains("| denied-interface | run | via=console"),
        "{log}"
    );
}

/// Issue 36: a lease asked at the console. With `lab` active, Add would leave two aliases
/// active: where the window asks for a 1-second hold, the console asks for the alias typed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs tmux; run by ./scripts/test.sh"]
async fn a_lease_added_at_the_console_is_confirmed_by_typing_the_alias() {
    let (root, kube) = kube_root();
    activate(&root, "lab", false);
    let console = Console::start(&root, "en");
    let client = mcp_client::start(&root, &[("PATH", kube.path_env())]).await;
    let call = client
        .start_call("kube", json!({"target": "prod", "args": ["get", "pods"]}))
        .await;
    console.wait_for("activate target prod");
    assert!(
        console.screen().contains("active now: lab"),
        "{}",
        console.screen()
    );
    console.keys(&["a"]);
    console.wait_for("and Enter to confirm");
    // A wrong alias does nothing: the question goes back to its choices, prod stays inactive.
    console.keys(&["l", "a", "b", "Enter"]);
    console.wait_for("r: replace");
    let status = root
        .torii()
        .args(["target", "status", "kube"])
        .output()
        .unwrap();
    assert!(
        !String::from_utf8_lossy(&status.stdout)
            .lines()
            .any(|line| line.starts_with("prod ")),
        "a wrong alias added prod"
    );
    // The right one adds.
    console.keys(&["a"]);
    console.wait_for("and Enter to confirm");
    console.keys(&["p", "r", "o", "d", "Enter"]);
    let result = answered(call).await;
    assert_eq!(result["execution"]["stdout"], "ran\n", "{result}");
    client.close().await;
    // Added, not replaced: `lab` stays active beside `prod`.
    let log = crate::common::audit_lines(&root).join("\n");
    assert!(
        log.contains("| kube/prod | target-access-added | prod | for=15min via=console"),
        "{log}"
    );
    let client = mcp_client::start(&root, &[("PATH", kube.path_env())]).await;
    let (lab, _) =
        bounded(client.call("kube", json!({"target": "lab", "args": ["get", "pods"]}))).await;
    client.close().await;
    assert_eq!(lab["execution"]["stdout"], "ran\n", "{lab}");
}

/// Issue 36: a session collected at the console. The secret is typed, refused by the
/// validator, typed again and accepted; it never shows on the screen nor in the audit.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs tmux; run by ./scripts/test.sh"]
async fn credentials_collected_at_the_console_never_show() {
    const GOOD: &str = "s3cr3t-G00D";
    const BAD: &str = "s3cr3t-BAD";
    let root = Root::new();
    install_provider(
        &root,
        "tok",
        "version: \"1\"\nname: tok\ntool: tok\ndescription: t\ncommand: tok\nauth:\n  strategy: environment\n  fields:\n    - name: TOKEN\n      label: Token\n      secret: true\n  inject:\n    environment:\n      CLI_TOKEN: \"${TOKEN}\"\n  validate:\n    command: tok-check\n    args: []\n",
        "version: \"1\"\naccept: [\"run\"]\n",
    );
    let cli = FakeCli::new(&root, "tok", "[ -n \"$CLI_TOKEN\" ] && echo token-present");
    let _check = FakeCli::new(
        &root,
        "tok-check",
        &format!("[ \"$CLI_TOKEN\" = '{GOOD}' ]"),
    );
    let console = Console::start(&root, "en");
    let client = mcp_client::start(&root, &[("PATH", cli.path_env())]).await;
    let call = client.start_call("tok", json!({"args": ["run"]})).await;
    console.wait_for("▶ Token");
    let mut screens = vec![console.screen()];
    console.keys(&["-l", BAD]);
    console.wait_for("typed, hidden");
    screens.push(console.screen());
    console.keys(&["Enter"]);
    console.wait_for("refused");
    screens.push(console.screen());
    for _ in 0..BAD.len() {
        console.keys(&["BSpace"]);
    }
    console.keys(&["-l", GOOD]);
    console.keys(&["Enter"]);
    let result = answered(call).await;
    assert_eq!(result["execution"]["stdout"], "token-present\n", "{result}");
    client.close().await;
    screens.push(console.screen());
    for screen in &screens {
        assert!(!screen.contains(GOOD) && !screen.contains(BAD), "{screen}");
    }
    let log = crate::common::audit_lines(&root).join("\n");
    assert!(!log.contains(GOOD) && !log.contains(BAD), "{log}");
}

/// Issue 36: two servers (two clients) share one console; their questions come one at a time,
/// each naming the server that asks.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs tmux; run by ./scripts/test.sh"]
async fn two_servers_share_one_console_one_question_at_a_time() {
    let (root, cli) = root_with_tok();
    let console = Console::start(&root, "en");
    let first = mcp_client::start(&root, &[("PATH", cli.path_env())]).await;
    let second = mcp_client::start(&root, &[("PATH", cli.path_env())]).await;
    let one = first.start_call("tok", json!({"args": ["one"]})).await;
    console.wait_for("[1] one");
    let asker = |screen: String| {
        screen
            .lines()
            .find_map(|line| {
                let at = line.find("torii server, process ")?;
                Some(line[at..].split(',').nth(1)?.trim().to_string())
            })
            .unwrap_or_else(|| panic!("no asker on the screen: {screen}"))
    };
    let first_asker = asker(console.screen());
    let two = second.start_call("tok", json!({"args": ["two"]})).await;
    console.keys(&["d"]);
    console.wait_for("[1] two");
    // Each question names the server that asks.
    assert_ne!(asker(console.screen()), first_asker);
    console.keys(&["o", "Space", "Enter"]);
    let one = answered(one).await;
    let two = answered(two).await;
    assert_eq!(one["decision"]["source"], "human-deny", "{one}");
    assert_eq!(two["decision"]["source"], "human-once", "{two}");
    first.close().await;
    second.close().await;
    assert_eq!(cli.launches().len(), 1);
}

/// `settings.yaml` `approval` forces a channel: `window` never asks the console (here, with no
/// window, nobody is asked), `console` asks only the console.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs tmux; run by ./scripts/test.sh"]
async fn settings_can_force_the_channel() {
    let (root, cli) = root_with_tok();
    let console = Console::start(&root, "en");
    root.write("settings.yaml", "approval: window\n");
    let client = mcp_client::start(&root, &[("PATH", cli.path_env())]).await;
    let (result, _) = bounded(client.call("tok", json!({"args": ["run"]}))).await;
    assert_eq!(result["decision"]["source"], "human-deny", "{result}");
    assert!(
        console.screen().contains("Waiting for questions"),
        "{}",
        console.screen()
    );
    client.close().await;

    // A console that was killed leaves its socket and token behind, but not the lock it held
    // on the token: the server knows it is gone, as doctor does, and nobody is asked.
    console.kill();
    assert!(root.path().join("console.sock").exists());
    assert!(root.path().join("console.token").exists());
    root.write("settings.yaml", "approval: console\n");
    let client = mcp_client::start(&root, &[("PATH", cli.path_env())]).await;
    let (result, _) = bounded(client.call("tok", json!({"args": ["run"]}))).await;
    let message = result["message"].as_str().unwrap();
    assert!(message.contains("no torii console is attached"), "{result}");
    client.close().await;
    let doctor = root.torii().arg("doctor").output().unwrap();
    assert!(
        !String::from_utf8_lossy(&doctor.stdout).contains("a torii console is attached"),
        "{}",
        String::from_utf8_lossy(&doctor.stdout)
    );
    // A new console replaces what the dead one left.
    let console = Console::start(&root, "en");
    let client = mcp_client::start(&root, &[("PATH", cli.path_env())]).await;
    let call = client.start_call("tok", json!({"args": ["run"]})).await;
    console.wait_for("approve a call to tok");
    console.keys(&["d"]);
    let result = answered(call).await;
    assert_eq!(result["decision"]["source"], "human-deny", "{result}");
    client.close().await;
    assert!(cli.launches().is_empty());
}

/// Leases `alias` of `kube` for 5 minutes, as the human does at a terminal (`--add` with `add`).
fn activate(root: &Root, alias: &str, add: bool) {
    root.torii_at_terminal()
        .args(["target", "activate", "kube", alias, "--for", "5"])
        .args(add.then_some("--add"))
        .assert()
        .success();
}

/// A kube provider (targets `lab`, `prod`) whose calls need a human for `get nodes`.
fn kube_root() -> (Root, FakeCli) {
    let root = Root::new();
    install_provider(
        &root,
        "kube",
        "version: \"1\"\nname: kube\ntool: kube\ndescription: k\ncommand: kube\ntargeting:\n  mode: kubectl_context\n",
        "version: \"1\"\naccept: [\"get pods\"]\n",
    );
    install_provider(
        &root,
        "idp",
        "version: \"1\"\nname: idp\ntool: idp\ndescription: i\ncommand: idp\n",
        "version: \"1\"\n",
    );
    for (alias, context) in [("lab", "ctx-lab"), ("prod", "ctx-prod")] {
        root.write(
            &format!("providers/kube/targets/{alias}/target.yaml"),
            &format!(
                "version: \"1\"\nname: {alias}\ncontext: {context}\nidentity:\n  provider: idp\n"
            ),
        );
    }
    let kube = FakeCli::new(&root, "kube", "echo ran");
    (root, kube)
}

/// The book's lease re-checks: a lease cleared while the human approves the operation stops
/// the call at the check before the environment (`target-access-lost | before-environment`),
/// and nothing runs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs tmux; run by ./scripts/test.sh"]
async fn a_lease_cleared_while_the_operation_is_approved_stops_before_the_environment() {
    let (root, kube) = kube_root();
    activate(&root, "lab", false);
    let console = Console::start(&root, "en");
    let client = mcp_client::start(&root, &[("PATH", kube.path_env())]).await;
    let call = client
        .start_call("kube", json!({"target": "lab", "args": ["get", "nodes"]}))
        .await;
    console.wait_for("approve a call to kube");
    root.torii()
        .args(["target", "clear", "kube"])
        .assert()
        .success();
    console.keys(&["o", "Space", "Enter"]);
    let result = answered(call).await;
    assert!(result.get("execution").is_none(), "{result}");
    client.close().await;
    assert!(kube.launches().is_empty());
    let log = crate::common::audit_lines(&root);
    assert!(
        log.iter()
            .any(|line| line.ends_with("| target-access-lost | lab | before-environment")),
        "{log:?}"
    );
}

/// The book: a lease choice made on a state that changed while the question was open is not
/// applied; when the alias is active in the new state the call goes on
/// (`target-access-stale | already-active`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs tmux; run by ./scripts/test.sh"]
async fn a_lease_activated_elsewhere_while_asked_is_already_active() {
    let (root, kube) = kube_root();
    let console = Console::start(&root, "en");
    let client = mcp_client::start(&root, &[("PATH", kube.path_env())]).await;
    let call = client
        .start_call("kube", json!({"target": "prod", "args": ["get", "pods"]}))
        .await;
    console.wait_for("activate target prod");
    // Meanwhile the human activates it at another terminal (with `lab`, which the stale
    // Replace below would have dropped).
    activate(&root, "lab", false);
    activate(&root, "prod", true);
    console.keys(&["r"]);
    let result = answered(call).await;
    assert_eq!(result["execution"]["stdout"], "ran\n", "{result}");
    client.close().await;
    let log = crate::common::audit_lines(&root);
    assert!(
        log.iter()
            .any(|line| line.ends_with("| target-access-stale | prod | already-active")),
        "{log:?}"
    );
    // The stale Replace was not applied: `lab` is still active.
    let status = root
        .torii()
        .args(["target", "status", "kube"])
        .output()
        .unwrap();
    let status = String::from_utf8_lossy(&status.stdout);
    assert!(
        status.lines().any(|line| line.starts_with("lab ")),
        "{status}"
    );
}
