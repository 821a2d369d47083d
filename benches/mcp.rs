//! End-to-end server benchmarks for the MCP path (issue: MCP server and dispatcher).
//!
//! Drives the release `torii` binary over stdio with rmcp's client and prints a table:
//! tools/call latency against a direct spawn, the cost of a 20,000-rule policy, peak RSS while a
//! child writes 1 GiB, cold start to tools/list with 200 providers, idle RSS, and 16 concurrent
//! 0.5 s calls. `cargo bench --bench mcp` runs it fully; under `cargo test` (no `--bench`
//! argument) it runs a few iterations of each as a smoke test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)]

mod support;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rmcp::model::CallToolRequestParams;
use rmcp::service::RunningService;
use rmcp::transport::TokioChildProcess;
use rmcp::{RoleClient, ServiceExt};
use support::{provider, torii_exe};

use serde_json::{Map, Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

const INITIALIZE: &str = concat!(
    r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","#,
    r#""capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}"#,
    "\n"
);
const LIST_TOOLS: &str = concat!(
    r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    "\n",
    r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
    "\n"
);

struct Server {
    client: RunningService<RoleClient, ()>,
    pid: u32,
}

async fn start(root: &Path) -> Server {
    let mut command = tokio::process::Command::new(torii_exe());
    command
        .env("TORII_CONFIG_DIR", root)
        .env("TORII_NO_GUI", "1");
    let transport = TokioChildProcess::new(command).unwrap();
    let pid = transport.id().unwrap();
    let client = ().serve(transport).await.unwrap();
    Server { client, pid }
}

async fn call(server: &Server, tool: &str, args: &[&str]) -> Value {
    let mut arguments = Map::new();
    arguments.insert("args".into(), json!(args));
    let result = server
        .client
        .call_tool(CallToolRequestParams::new(tool.to_string()).with_arguments(arguments))
        .await
        .unwrap();
    result.structured_content.unwrap()
}

fn status_kib(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|line| line.starts_with(field)).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn which(command: &str) -> PathBuf {
    std::env::split_paths(&std::env::var_os("PATH").unwrap())
        .map(|dir| dir.join(command))
        .find(|path| path.is_file())
        .unwrap()
}

/// Minor page faults the process `pid` has taken so far (`/proc/<pid>/stat`, field 10).
fn minor_faults(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    // The command name, in parentheses, may hold spaces: count fields after it.
    let after_name = &stat[stat.rfind(')').unwrap() + 2..];
    after_name.split(' ').nth(7).unwrap().parse().unwrap()
}

/// One call through a server and one direct spawn of the same program, alternately, so that
/// both see the same machine load.
struct Interleaved {
    torii: Duration,
    direct: Duration,
    /// The server's minor page faults per call.
    faults_per_call: f64,
}

async fn interleaved(server: &Server, program: &Path, iterations: usize) -> Interleaved {
    call(server, "t", &["x"]).await; // the first call compiles the policy; later calls reuse it
    let mut through_torii = Vec::new();
    let mut direct = Vec::new();
    let faults_before = minor_faults(server.pid);
    for _ in 0..iterations {
        let started = Instant::now();
        let result = call(server, "t", &["x"]).await;
        through_torii.push(started.elapsed());
        assert_eq!(result["execution"]["exit_code"], 0);
        let started = Instant::now();
        let output = tokio::process::Command::new(program)
            .arg("x")
            .output()
            .await
            .unwrap();
        direct.push(started.elapsed());
        assert!(output.status.success());
    }
    let faults = minor_faults(server.pid) - faults_before;
    Interleaved {
        torii: median(through_torii),
        direct: median(direct),
        faults_per_call: faults as f64 / iterations as f64,
    }
}

/// A server driven by hand over its pipes, one JSON-RPC line out and one in per call, with
/// blocking I/O: what a call costs the server, without an MCP client's own work (rmcp's client
/// adds tasks, channels and decoding to every call). The direct spawn beside it is the
/// standard library's, which is `posix_spawn` with pipes.
struct RawServer {
    process: std::process::Child,
    input: std::process::ChildStdin,
    output: std::io::BufReader<std::process::ChildStdout>,
    next_id: u64,
}

impl RawServer {
    fn start(root: &Path) -> Self {
        use std::io::BufRead;
        let mut process = std::process::Command::new(torii_exe())
            .env("TORII_CONFIG_DIR", root)
            .env("TORII_NO_GUI", "1")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut input = process.stdin.take().unwrap();
        let mut output = std::io::BufReader::new(process.stdout.take().unwrap());
        let mut line = String::new();
        std::io::Write::write_all(&mut input, INITIALIZE.as_bytes()).unwrap();
        output.read_line(&mut line).unwrap();
        std::io::Write::write_all(&mut input, LIST_TOOLS.as_bytes()).unwrap();
        line.clear();
        output.read_line(&mut line).unwrap();
        Self {
            process,
            input,
            output,
            next_id: 3,
        }
    }

    /// One call of `tool` with `args`; returns the structured content.
    fn call(&mut self, tool: &str, args: &[&str]) -> Value {
        use std::io::BufRead;
        let request = json!({
            "jsonrpc": "2.0",
            "id": self.next_id,
            "method": "tools/call",
            "params": {"name": tool, "arguments": {"args": args}},
        });
        self.next_id += 1;
        let mut bytes = serde_json::to_vec(&request).unwrap();
        bytes.push(b'\n');
        std::io::Write::write_all(&mut self.input, &bytes).unwrap();
        let mut line = String::new();
        self.output.read_line(&mut line).unwrap();
        let answer: Value = serde_json::from_str(&line).unwrap();
        answer["result"]["structuredContent"].clone()
    }

    fn pid(&self) -> u32 {
        self.process.id()
    }
}

impl Drop for RawServer {
    fn drop(&mut self) {
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}

/// [`interleaved`] through a [`RawServer`].
fn raw_interleaved(root: &Path, program: &Path, iterations: usize) -> Interleaved {
    let mut server = RawServer::start(root);
    server.call("t", &["x"]); // the first call compiles the policy; later calls reuse it
    let mut through_torii = Vec::new();
    let mut direct = Vec::new();
    let faults_before = minor_faults(server.pid());
    for _ in 0..iterations {
        let started = Instant::now();
        let result = server.call("t", &["x"]);
        through_torii.push(started.elapsed());
        assert_eq!(result["execution"]["exit_code"], 0, "{result}");
        let started = Instant::now();
        let output = std::process::Command::new(program)
            .arg("x")
            .output()
            .unwrap();
        direct.push(started.elapsed());
        assert!(output.status.success());
    }
    let faults = minor_faults(server.pid()) - faults_before;
    Interleaved {
        torii: median(through_torii),
        direct: median(direct),
        faults_per_call: faults as f64 / iterations as f64,
    }
}

/// A policy of `rules` rules (one of them accepts `x`).
fn policy_of(rules: usize) -> String {
    let mut text = String::from("version: \"1\"\naccept:\n  - \"x\"\n");
    for index in 1..rules {
        text.push_str(&format!("  - \"group{} verb{index} noun\"\n", index % 97));
    }
    text
}

/// The raw driver's figures: a trivial call against a direct spawn, with a 1-rule and a
/// 20,000-rule policy.
fn raw_latency(iterations: usize) -> (Interleaved, Interleaved) {
    let mut results = Vec::new();
    for rules in [1usize, 20_000] {
        let root = tempfile::tempdir().unwrap();
        provider(root.path(), "t", "true", &policy_of(rules));
        results.push(raw_interleaved(root.path(), &which("true"), iterations));
    }
    let many = results.pop().unwrap();
    (results.pop().unwrap(), many)
}

async fn latency(iterations: usize) -> Interleaved {
    let root = tempfile::tempdir().unwrap();
    provider(
        root.path(),
        "t",
        "true",
        "version: \"1\"\naccept: [\"x\"]\n",
    );
    let server = start(root.path()).await;
    let measured = interleaved(&server, &which("true"), iterations).await;
    let _ = server.client.cancel().await;
    measured
}

/// The same interleaved measurement with a 1-rule and a 20,000-rule policy.
async fn large_policy_cost(iterations: usize) -> (Interleaved, Interleaved) {
    let mut results = Vec::new();
    for rules in [1usize, 20_000] {
        let root = tempfile::tempdir().unwrap();
        provider(root.path(), "t", "true", &policy_of(rules));
        let server = start(root.path()).await;
        results.push(interleaved(&server, &which("true"), iterations).await);
        let _ = server.client.cancel().await;
    }
    let many = results.pop().unwrap();
    (results.pop().unwrap(), many)
}

/// The server's peak RSS while its child writes 1 GiB: `text` lines (`yes`), or zero bytes,
/// each of which the answer carries as `\u0000` (six bytes, twice: as structured content and
/// as its text). Whether the output was cut to `max_output_bytes` comes back too.
async fn peak_rss_one_gib(text: bool) -> (u64, bool) {
    let root = tempfile::tempdir().unwrap();
    let (command, args) = if text {
        ("sh", vec!["-c", "yes | head -c 1073741824"])
    } else {
        ("head", vec!["-c", "1073741824", "/dev/zero"])
    };
    provider(
        root.path(),
        "big",
        command,
        "version: \"1\"\naccept: [\"-c\"]\n",
    );
    let server = start(root.path()).await;
    let result = call(&server, "big", &args).await;
    let peak = status_kib(server.pid, "VmHWM:");
    let truncated = result["execution"]["truncated"].as_bool().unwrap();
    let _ = server.client.cancel().await;
    (peak, truncated)
}

/// Median time from spawning the server to its `tools/list` answer, with `providers`
/// providers, and the RSS of the last server started.
///
/// The client here writes the three JSON-RPC lines itself and takes the answer's line whole:
/// rmcp's client decodes a message by trying each of its result types in turn, which for a
/// 200-tool list takes longer than the server's whole start (about 13 ms here) and would
/// measure the client.
async fn cold_start(providers: usize, iterations: usize) -> (Duration, u64) {
    let root = tempfile::tempdir().unwrap();
    for index in 0..providers {
        provider(
            root.path(),
            &format!("p{index:03}"),
            "true",
            "version: \"1\"\n",
        );
    }
    let mut samples = Vec::new();
    let mut idle_rss = 0;
    for _ in 0..iterations {
        let started = Instant::now();
        let mut server = tokio::process::Command::new(torii_exe())
            .env("TORII_CONFIG_DIR", root.path())
            .env("TORII_NO_GUI", "1")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut input = server.stdin.take().unwrap();
        let mut output = BufReader::new(server.stdout.take().unwrap()).lines();
        input.write_all(INITIALIZE.as_bytes()).await.unwrap();
        output.next_line().await.unwrap().unwrap();
        input.write_all(LIST_TOOLS.as_bytes()).await.unwrap();
        let answer = output.next_line().await.unwrap().unwrap();
        samples.push(started.elapsed());
        let answer: Value = serde_json::from_str(&answer).unwrap();
        assert_eq!(
            answer["result"]["tools"].as_array().unwrap().len(),
            providers + 1
        );
        idle_rss = status_kib(server.id().unwrap(), "VmRSS:");
        drop(input);
        server.wait().await.unwrap();
    }
    (median(samples), idle_rss)
}

/// RSS of a server with one provider: after initialize and tools/list, then again after it has
/// answered `torii_policy` and 100 allowed and denied calls.
async fn idle_rss_one_provider() -> (u64, u64) {
    let root = tempfile::tempdir().unwrap();
    provider(
        root.path(),
        "t",
        "true",
        "version: \"1\"\naccept: [\"x\"]\ndeny: [\"y\"]\n",
    );
    let server = start(root.path()).await;
    server.client.list_all_tools().await.unwrap();
    let fresh = status_kib(server.pid, "VmRSS:");
    let mut arguments = Map::new();
    arguments.insert("provider".into(), json!("t"));
    server
        .client
        .call_tool(CallToolRequestParams::new("torii_policy").with_arguments(arguments))
        .await
        .unwrap();
    for index in 0..100 {
        let verb = if index % 2 == 0 { "x" } else { "y" };
        call(&server, "t", &[verb]).await;
    }
    let served = status_kib(server.pid, "VmRSS:");
    let _ = server.client.cancel().await;
    (fresh, served)
}

async fn concurrent_calls() -> Duration {
    let root = tempfile::tempdir().unwrap();
    provider(
        root.path(),
        "s",
        "sleep",
        "version: \"1\"\naccept: [\"0.5\"]\n",
    );
    let server = std::sync::Arc::new(start(root.path()).await);
    call(&server, "s", &["0.5"]).await; // warm the policy cache
    let started = Instant::now();
    let mut tasks = Vec::new();
    for _ in 0..16 {
        let server = std::sync::Arc::clone(&server);
        tasks.push(tokio::spawn(
            async move { call(&server, "s", &["0.5"]).await },
        ));
    }
    for task in tasks {
        assert_eq!(task.await.unwrap()["execution"]["exit_code"], 0);
    }
    started.elapsed()
}

/// Prints a call against a direct spawn (`measured`) and the cost of 20,000 rules (`many`
/// against `one`), each line starting with `driver`.
fn report(
    driver: &str,
    calls: usize,
    measured: &Interleaved,
    one: &Interleaved,
    many: &Interleaved,
) {
    let overhead = |run: &Interleaved| run.torii.saturating_sub(run.direct);
    println!(
        "{driver}tools/call median ({calls}, interleaved, `true`) {}",
        micros(measured.torii)
    );
    println!(
        "{driver}direct spawn median of the same command      {}",
        micros(measured.direct)
    );
    println!(
        "{driver}overhead                                      {} ({:.2}x the direct spawn)",
        micros(overhead(measured)),
        measured.torii.as_secs_f64() / measured.direct.as_secs_f64()
    );
    println!(
        "{driver}server minor page faults per call            {:.1}",
        measured.faults_per_call
    );
    println!(
        "{driver}overhead, 1-rule policy                       {}",
        micros(overhead(one))
    );
    println!(
        "{driver}overhead, 20,000-rule policy                  {} ({:.1} page faults per call)",
        micros(overhead(many)),
        many.faults_per_call
    );
    println!(
        "{driver}extra cost of 20,000 rules                    {}",
        micros(overhead(many).saturating_sub(overhead(one)))
    );
}

fn micros(duration: Duration) -> String {
    format!("{:.0} µs", duration.as_secs_f64() * 1e6)
}

#[tokio::main]
async fn main() {
    let full = std::env::args().any(|arg| arg == "--bench");
    let (calls, policy_calls, starts) = if full { (500, 200, 50) } else { (5, 5, 2) };

    let measured = latency(calls).await;
    let (one, many) = large_policy_cost(policy_calls).await;
    report("", calls, &measured, &one, &many);
    let (raw_one, raw_many) = raw_latency(calls);
    report("raw driver: ", calls, &raw_one, &raw_one, &raw_many);

    if full {
        for (text, what) in [(true, "of text"), (false, "of zeros")] {
            let (peak, truncated) = peak_rss_one_gib(text).await;
            println!(
                "server peak RSS while a child writes 1 GiB {what} {:.1} MiB (truncated: {truncated})",
                peak as f64 / 1024.0
            );
        }
    }

    let (start_one, _) = cold_start(1, starts).await;
    println!(
        "cold start to tools/list, 1 provider          {:.1} ms",
        start_one.as_secs_f64() * 1e3
    );
    let (start, idle) = cold_start(200, starts).await;
    println!(
        "cold start to tools/list, 200 providers       {:.1} ms ({:.1}x one provider)",
        start.as_secs_f64() * 1e3,
        start.as_secs_f64() / start_one.as_secs_f64()
    );
    println!(
        "idle server RSS, 200 providers                {:.1} MiB",
        idle as f64 / 1024.0
    );
    let (fresh, served) = idle_rss_one_provider().await;
    println!(
        "idle server RSS, 1 provider                   {:.1} MiB",
        fresh as f64 / 1024.0
    );
    println!(
        "same server after 100 calls                   {:.1} MiB",
        served as f64 / 1024.0
    );

    let wall = concurrent_calls().await;
    println!(
        "16 concurrent 0.5 s calls, wall time          {:.3} s",
        wall.as_secs_f64()
    );
}
