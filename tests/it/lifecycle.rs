//! The life of a call (issue 12): cancellation, a client that goes away, timeouts and the
//! concurrency cap, against the real binary. Each long-running fake CLI starts a grandchild and
//! records both process ids, so a test can prove the whole process group is gone.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::json;

use crate::common::{FakeCli, Root, audit_lines, install_provider, simple_provider};
use crate::mcp_client;

/// How long a stopped process group may take to disappear before a test fails (the promise
/// is a second; the margin is for loaded CI machines).
const GONE_WITHIN: Duration = Duration::from_secs(10);

/// A fake CLI that starts `sleep 600` in the background, records its own and the sleeper's
/// pid under `marks/<name>`, prints `started` and waits. `trap` lines come first.
fn tree_body(marks: &Path, name: &str, trap: &str) -> String {
    let dir = marks.join(name);
    format!(
        "{trap}\nmkdir -p '{dir}'\nsleep 600 &\necho $! > '{dir}/grandchild'\necho $$ > '{dir}/child'\necho started\nwait\n",
        dir = dir.display()
    )
}

fn root_with(name: &str, provider_extra: &str, trap: &str) -> (Root, FakeCli, PathBuf) {
    let root = Root::new();
    let marks = root.outside().join("marks");
    install_provider(
        &root,
        name,
        &simple_provider(name, provider_extra),
        "version: \"1\"\naccept: [\"run\"]\n",
    );
    let fake = FakeCli::new(&root, name, &tree_body(&marks, name, trap));
    (root, fake, marks)
}

/// A second provider, `quick`, whose command prints `done` and exits.
fn quick_provider(root: &Root) -> FakeCli {
    install_provider(
        root,
        "quick",
        &simple_provider("quick", ""),
        "version: \"1\"\naccept: [\"run\"]\n",
    );
    FakeCli::new(root, "quick", "echo done")
}

/// The two recorded pids, once both files are written.
async fn pids(marks: &Path, name: &str) -> (u32, u32) {
    let read = |file: &str| {
        std::fs::read_to_string(marks.join(name).join(file))
            .ok()
            .and_then(|text| text.trim().parse::<u32>().ok())
    };
    let started = Instant::now();
    loop {
        if let (Some(child), Some(grandchild)) = (read("child"), read("grandchild")) {
            return (child, grandchild);
        }
        assert!(
            started.elapsed() < GONE_WITHIN,
            "the fake CLI never started"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Whether `pid` is a live process (a zombie is not).
fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|stat| {
            let state = stat.rsplit_once(") ")?.1.chars().next()?;
            Some(state != 'Z' && state != 'X')
        })
        .unwrap_or(false)
}

/// Waits until none of `pids` is alive; returns how long that took.
async fn gone(pids: &[u32]) -> Duration {
    let started = Instant::now();
    while pids.iter().any(|pid| alive(*pid)) {
        assert!(
            started.elapsed() < GONE_WITHIN,
            "still running after {GONE_WITHIN:?}: {pids:?}"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    started.elapsed()
}

/// Issue 12, item 5: a cancelled call kills the child and its grandchild, is audited, and
/// gets no answer; the server goes on serving.
#[tokio::test]
async fn a_cancelled_call_kills_the_whole_process_group() {
    let (root, fake, marks) = root_with("cli", "", "");
    let client = mcp_client::start(&root, &[("PATH", fake.path_env())]).await;
    let (child, grandchild) = {
        // Dropping the request future makes rmcp send `notifications/cancelled` for it.
        let call = client.try_call("cli", json!({"args": ["run"]}));
        tokio::select! {
            result = call => panic!("the call ended on its own: {result:?}"),
            pids = pids(&marks, "cli") => pids,
        }
    };
    let took = gone(&[child, grandchild]).await;
    eprintln!("cancel to process-group exit: {took:?}");
    let (result, is_error) = client
        .call("torii_policy", json!({"provider": "cli"}))
        .await;
    assert!(!is_error, "{result}");
    client.close().await;
    let lines = audit_lines(&root);
    assert!(
        lines.last().unwrap().contains("| cli | cancelled | run"),
        "{lines:?}"
    );
    assert!(
        !lines.iter().any(|line| line.contains("| ran |")),
        "{lines:?}"
    );
}

/// Issue 12, item 6: when the client closes stdin mid-call, the server kills the running
/// child's group and exits.
#[tokio::test]
async fn closing_stdin_mid_call_kills_the_children_and_ends_the_server() {
    use std::io::Write;
    let (root, fake, marks) = root_with("cli", "", "");
    let mut server = std::process::Command::new(assert_cmd::cargo::cargo_bin("torii"))
        .env("TORII_CONFIG_DIR", root.path())
        .env("TORII_NO_GUI", "1")
        .env("PATH", fake.path_env())
        .current_dir(root.work())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = server.stdin.take().unwrap();
    for message in [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "raw", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
               "params": {"name": "cli", "arguments": {"args": ["run"]}}}),
    ] {
        writeln!(stdin, "{message}").unwrap();
    }
    stdin.flush().unwrap();
    let (child, grandchild) = pids(&marks, "cli").await;
    drop(stdin);
    let took = gone(&[child, grandchild]).await;
    eprintln!("stdin closed to process-group exit: {took:?}");
    let started = Instant::now();
    loop {
        if let Some(status) = server.try_wait().unwrap() {
            assert!(status.success(), "{status}");
            break;
        }
        assert!(started.elapsed() < GONE_WITHIN, "the server did not exit");
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(
        audit_lines(&root)
            .iter()
            .any(|line| line.contains("| cli | cancelled | run")),
        "{:?}",
        audit_lines(&root)
    );
}

/// Issue 12, item 6: a client that stops the server with SIGTERM leaves no child behind.
#[tokio::test]
async fn a_terminated_server_kills_the_running_children() {
    let (root, fake, marks) = root_with("cli", "", "");
    let client = mcp_client::start(&root, &[("PATH", fake.path_env())]).await;
    let server_pid = server_pid_of(&marks, "cli", &client).await;
    let (child, grandchild) = pids(&marks, "cli").await;
    rustix::process::kill_process(
        rustix::process::Pid::from_raw(server_pid as i32).unwrap(),
        rustix::process::Signal::TERM,
    )
    .unwrap();
    gone(&[child, grandchild]).await;
    gone(&[server_pid]).await;
}

/// Starts a `run` call in the background and returns the server's pid (the child's parent).
async fn server_pid_of(marks: &Path, name: &str, client: &mcp_client::Client) -> u32 {
    let call = client.try_call(name, json!({"args": ["run"]}));
    let (child, _) = tokio::select! {
        result = call => panic!("the call ended on its own: {result:?}"),
        pids = pids(marks, name) => pids,
    };
    // The select dropped the call (cancelling it): start the one the test will watch.
    gone(&[child]).await;
    for file in ["child", "grandchild"] {
        std::fs::remove_file(marks.join(name).join(file)).unwrap();
    }
    let handle = client.start_call(name, json!({"args": ["run"]})).await;
    std::mem::forget(handle);
    let (child, _) = pids(marks, name).await;
    let stat = std::fs::read_to_string(format!("/proc/{child}/stat")).unwrap();
    let after = stat.rsplit_once(") ").unwrap().1;
    after.split(' ').nth(1).unwrap().parse().unwrap()
}

/// Issue 12, item 7: past its limit a command gets SIGTERM, then SIGKILL; the result keeps
/// what it printed, with exit code 143 and `timed_out`, and the audit says so.
#[tokio::test]
async fn a_command_past_its_time_limit_is_stopped_and_reported() {
    // It ignores SIGTERM, so only the SIGKILL after the grace period stops it.
    let (root, fake, marks) = root_with(
        "cli",
        "limits:\n  call_timeout_seconds: 1\n",
        "trap '' TERM",
    );
    let client = mcp_client::start(&root, &[("PATH", fake.path_env())]).await;
    let started = Instant::now();
    let (result, is_error) = client.call("cli", json!({"args": ["run"]})).await;
    let took = started.elapsed();
    assert!(!is_error, "{result}");
    assert_eq!(result["execution"]["exit_code"], 143, "{result}");
    assert_eq!(result["execution"]["timed_out"], true, "{result}");
    assert_eq!(result["execution"]["stdout"], "started\n", "{result}");
    assert!(took >= Duration::from_secs(1), "{took:?}");
    let (child, grandchild) = pids(&marks, "cli").await;
    gone(&[child, grandchild]).await;
    client.close().await;
    let lines = audit_lines(&root);
    assert!(
        lines
            .last()
            .unwrap()
            .ends_with("| ran | run | exit=143 timeout"),
        "{lines:?}"
    );
}

/// Issue 12, item 7: `settings.yaml` sets the limit for every provider; a command that ends
/// in time has no `timed_out` field.
#[tokio::test]
async fn the_settings_time_limit_applies_and_a_quick_call_is_untouched() {
    let (root, fake, _marks) = root_with("cli", "", "");
    root.write("settings.yaml", "call_timeout_seconds: 1\n");
    quick_provider(&root);
    let client = mcp_client::start(&root, &[("PATH", fake.path_env())]).await;
    let (result, _) = client.call("quick", json!({"args": ["run"]})).await;
    assert_eq!(
        result["execution"],
        json!({"exit_code": 0, "stdout": "done\n", "stderr": "", "truncated": false})
    );
    let (result, _) = client.call("cli", json!({"args": ["run"]})).await;
    assert_eq!(result["execution"]["timed_out"], true, "{result}");
    assert_eq!(result["execution"]["exit_code"], 143, "{result}");
    client.close().await;
}

/// Issue 12, item 8: with `max_concurrent_calls: 1` a second call waits for the running one,
/// and can be cancelled while it waits.
#[tokio::test]
async fn calls_past_the_concurrency_cap_wait_and_can_be_cancelled_waiting() {
    let (root, fake, marks) = root_with("cli", "", "");
    root.write("settings.yaml", "max_concurrent_calls: 1\n");
    let quick = quick_provider(&root);
    let client = mcp_client::start(&root, &[("PATH", fake.path_env())]).await;
    let running = client.start_call("cli", json!({"args": ["run"]})).await;
    let (child, grandchild) = pids(&marks, "cli").await;
    // Waiting for the slot, then cancelled: it never runs.
    let waiting = client.try_call("quick", json!({"args": ["run"]}));
    let waited = tokio::time::timeout(Duration::from_millis(700), waiting).await;
    assert!(waited.is_err(), "the second call did not wait: {waited:?}");
    assert!(quick.launches().is_empty());
    // Once the first call is cancelled, the slot is free again.
    running.cancel(None).await.unwrap();
    gone(&[child, grandchild]).await;
    let (result, _) = client.call("quick", json!({"args": ["run"]})).await;
    assert_eq!(result["execution"]["stdout"], "done\n");
    assert_eq!(quick.launches().len(), 1);
    client.close().await;
}

/// A call reads its policy and `.env` on its own task (issue 39): a FIFO in place of either,
/// with no writer, fails that call naming the file, at once, and the server goes on serving.
#[tokio::test]
async fn a_fifo_where_a_call_reads_its_files_fails_that_call_and_blocks_nothing() {
    let (root, fake, _marks) = root_with("cli", "", "");
    let quick = quick_provider(&root);
    let client = mcp_client::start(&root, &[("PATH", fake.path_env())]).await;
    let patient = |call| tokio::time::timeout(Duration::from_secs(10), call);
    for file in [".env", "rules.yaml"] {
        let path = root.path().join("providers/quick").join(file);
        let kept = std::fs::read(&path).ok();
        let _ = std::fs::remove_file(&path);
        let made = std::process::Command::new("mkfifo")
            .arg(&path)
            .status()
            .unwrap();
        assert!(made.success());
        let (result, is_error) = patient(client.call("quick", json!({"args": ["run"]})))
            .await
            .unwrap_or_else(|_| panic!("a FIFO {file} held the call"));
        assert!(is_error, "{file}: {result}");
        assert!(result.to_string().contains(file), "{file}: {result}");
        assert!(quick.launches().is_empty(), "a call ran without its {file}");
        std::fs::remove_file(&path).unwrap();
        if let Some(kept) = kept {
            std::fs::write(&path, kept).unwrap();
        }
    }

    // The server still answers, and with its files back the provider runs.
    let (result, _) = patient(client.call("quick", json!({"args": ["run"]})))
        .await
        .expect("the server stopped answering");
    assert_eq!(result["execution"]["stdout"], "done\n", "{result}");
    client.close().await;
}
