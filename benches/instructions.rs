//! The server's own work per call, counted in instructions: wall-clock time on a shared machine
//! drifts from run to run, an instruction count under callgrind does not (same binary, same
//! input, same count).
//!
//! Each scenario drives `torii` over stdio under `valgrind --tool=callgrind
//! --trace-children=no` (so the provider's child is not counted) twice: with 1 call and with
//! 1 + N. The difference divided by N is the cost of one call after the first (which also does
//! a session's one-time work); a run with no call is the cost of a start (initialize and
//! tools/list). `cargo bench --bench instructions` prints the table published in
//! docs/src/performance.md; under `cargo test` it runs each scenario with 2 calls as a smoke
//! test. Measure the release binary: `TORII_BENCH_EXE=target/release/torii`. To see where the
//! instructions go, build it with symbols (`CARGO_PROFILE_RELEASE_STRIP=false`) and set
//! `TORII_BENCH_PROFILES=<dir>`: every run's callgrind file is kept there, named by scenario, for
//! `callgrind_annotate --inclusive=yes`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)]

mod support;

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};

use support::{provider, torii_exe};

use serde_json::{Value, json};

/// Debian's default `PATH` for a login shell (`/etc/login.defs`, root).
const BENCH_PATH: &str = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/// Writes one JSON-RPC message and, for a request, reads lines until its answer.
struct Session {
    input: std::process::ChildStdin,
    output: BufReader<std::process::ChildStdout>,
    next_id: u64,
}

impl Session {
    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let message = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        writeln!(self.input, "{message}").unwrap();
        self.input.flush().unwrap();
        loop {
            let mut line = String::new();
            assert!(
                self.output.read_line(&mut line).unwrap() > 0,
                "server closed"
            );
            let answer: Value = serde_json::from_str(&line).unwrap();
            if answer["id"] == json!(id) {
                return answer;
            }
        }
    }

    fn notify(&mut self, method: &str) {
        let message = json!({"jsonrpc": "2.0", "method": method});
        writeln!(self.input, "{message}").unwrap();
        self.input.flush().unwrap();
    }
}

/// Instructions the server executed (its own, no child) for a start and `calls` calls of
/// `tool` with `args`, each checked by `check`.
fn instructions(
    root: &Path,
    label: &str,
    calls: usize,
    tool: &str,
    args: &[&str],
    check: fn(&Value),
) -> u64 {
    let out = root.join("callgrind.out");
    let mut child = Command::new("valgrind")
        .args([
            "--tool=callgrind",
            "--trace-children=no",
            "--cache-sim=no",
            "--branch-sim=no",
        ])
        .arg(format!("--callgrind-out-file={}", out.display()))
        .arg(torii_exe())
        // The same small environment whoever runs it: a child inherits the server's, and its
        // size is part of what a launch costs. Debian's default `PATH`, because every entry
        // before the one holding `echo` is a `stat` per call.
        .env_clear()
        .env("PATH", BENCH_PATH)
        .env("HOME", root)
        .env("TORII_CONFIG_DIR", root)
        .env("TORII_NO_GUI", "1")
        .current_dir(root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("valgrind");
    let mut session = Session {
        input: child.stdin.take().unwrap(),
        output: BufReader::new(child.stdout.take().unwrap()),
        next_id: 0,
    };
    let init = json!({
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "bench", "version": "1"},
    });
    session.request("initialize", init);
    session.notify("notifications/initialized");
    let tools = session.request("tools/list", json!({}));
    assert!(tools["result"]["tools"].is_array(), "{tools}");
    for index in 0..calls {
        let mut call_args: Vec<String> = args.iter().map(|arg| arg.to_string()).collect();
        call_args.push(index.to_string());
        let answer = session.request(
            "tools/call",
            json!({"name": tool, "arguments": {"args": call_args}}),
        );
        check(&answer["result"]["structuredContent"]);
    }
    drop(session);
    assert!(child.wait().unwrap().success());
    if let Some(keep) = std::env::var_os("TORII_BENCH_PROFILES") {
        let name = format!("{label}-{calls}-calls.callgrind");
        std::fs::create_dir_all(&keep).unwrap();
        std::fs::copy(&out, Path::new(&keep).join(name)).unwrap();
    }
    total(&std::fs::read_to_string(&out).unwrap())
}

/// The `totals:` (or `summary:`) line of a callgrind output file: instructions executed.
fn total(profile: &str) -> u64 {
    profile
        .lines()
        .find_map(|line| {
            line.strip_prefix("totals:")
                .or_else(|| line.strip_prefix("summary:"))
        })
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|count| count.parse().ok())
        .expect("a callgrind total")
}

fn allowed(result: &Value) {
    assert_eq!(result["decision"]["result"], "allow", "{result}");
    assert_eq!(result["execution"]["exit_code"], 0, "{result}");
}

fn denied(result: &Value) {
    assert_eq!(result["decision"]["source"], "explicit-deny", "{result}");
}

fn unresolved(result: &Value) {
    assert_eq!(result["decision"]["source"], "human-deny", "{result}");
}

/// Per call: (1 + N calls − 1 call) / N. The first call of a session does work once (it
/// compiles the policy and builds the tables that look for deceptive characters, some 2.3
/// million instructions): both runs make it, so the figure is what every later call costs.
fn per_call(calls: usize, args: &[&str], check: fn(&Value)) -> u64 {
    let root = tempfile::tempdir().unwrap();
    provider(
        root.path(),
        "echo",
        "echo",
        "version: \"1\"\naccept: [\"hello\"]\ndeny: [\"rm\"]\n",
    );
    let label = args.first().copied().unwrap_or("call");
    let base = instructions(root.path(), label, 1, "echo", args, check);
    let with = instructions(root.path(), label, 1 + calls, "echo", args, check);
    with.saturating_sub(base) / calls as u64
}

/// A start (initialize and tools/list) with `count` providers.
fn startup(count: usize) -> u64 {
    let root = tempfile::tempdir().unwrap();
    for index in 0..count {
        provider(
            root.path(),
            &format!("p{index:03}"),
            "true",
            "version: \"1\"\naccept: [\"x\"]\n",
        );
    }
    let label = format!("start-{count}-providers");
    instructions(root.path(), &label, 0, "p000", &[], allowed)
}

fn main() {
    if Command::new("valgrind").arg("--version").output().is_err() {
        println!("valgrind is not installed: no instruction counts (apt install valgrind)");
        return;
    }
    let full = std::env::args().any(|arg| arg == "--bench");
    let calls = if full { 50 } else { 2 };
    println!("instructions (callgrind, server only), {calls} calls per scenario");
    let rows = [
        (
            "per allowed call (echo hello N)",
            per_call(calls, &["hello"], allowed),
        ),
        (
            "per explicitly denied call (rm N)",
            per_call(calls, &["rm"], denied),
        ),
        (
            "per unresolved call, headless (other N)",
            per_call(calls, &["other"], unresolved),
        ),
        ("per start, 1 provider", startup(1)),
        (
            "per start, 200 providers",
            startup(if full { 200 } else { 3 }),
        ),
    ];
    for (what, count) in rows {
        println!("{what:<42} {count:>12}");
    }
}
