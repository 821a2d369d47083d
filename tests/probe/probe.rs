//! `torii-test-probe`: the processes the integration tests start when a check needs a process
//! of its own (its environment, current directory, location or peak memory) or several
//! processes at once. Built only with the `test-hooks` feature, like the scripted human; never
//! shipped.
//!
//! ```text
//! torii-test-probe two-gib                  capture 2 × 2 GiB; print the peak memory growth (KiB)
//! torii-test-probe torii-env                print the TORII_* names a provider child sees
//! torii-test-probe resolve <program>        resolve <program> as a provider command, run it
//! torii-test-probe lease-worker <mode> <root> <operations> <log>
//!                                           write leases, one line per write in <log>
//! torii-test-probe args <arg>…              print the arguments it received, as JSON
//! torii-test-probe run <program> <arg>…     run <program> as a provider child; print its
//!                                           stdout, or the launch error
//! torii-test-probe editor                   print the editor `torii policy edit` would open
//! torii-test-probe wait                     run until its standard input closes
//! ```
//!
//! It prints its one result on stdout and exits with 0; anything else is a failure of the test
//! that started it (a message on stderr and exit 1, or a panic).

// A test helper: its output is for the test that reads it, and a failure should stop it loudly.
#![allow(clippy::print_stdout, clippy::unwrap_used, clippy::expect_used)]

mod child;
mod lease_worker;
mod random;

use std::path::Path;
use std::process::ExitCode;

use torii::runner::{self, Launch};

use child::{MIB, launch, run};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    match words[..] {
        ["two-gib"] => runtime.block_on(two_gib()),
        ["torii-env"] => runtime.block_on(torii_env()),
        ["resolve", program] => runtime.block_on(resolve(program)),
        ["args", ..] => println!("{}", serde_json::json!(args[1..])),
        ["run", program, ..] => runtime.block_on(run_program(program, &words[2..])),
        ["wait"] => {
            let _ = std::io::Read::read_to_end(&mut std::io::stdin(), &mut Vec::new());
        }
        ["editor"] => match torii::rules::editor_command() {
            Ok(editor) => println!("{}", editor.program.display()),
            Err(error) => println!("{error}"),
        },
        ["lease-worker", mode, root, operations, log] => {
            let operations = operations.parse().expect("<operations> is a number");
            lease_worker::run(mode, Path::new(root), operations, Path::new(log));
        }
        _ => {
            eprintln!("torii-test-probe: unknown command {args:?} (see tests/probe/probe.rs)");
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}

/// Two children write 2 GiB each to stdout and stderr under a 4 MiB budget: the output is cut
/// at the budget and this process's peak memory grows by about the budget, not the output.
async fn two_gib() {
    let max = 4 * MIB;
    let before = peak_rss_kib();
    let execution = run(Launch {
        max_output_bytes: max,
        ..launch(
            "/bin/sh",
            &[
                "-c",
                "head -c 2147483648 /dev/zero & head -c 2147483648 /dev/zero >&2; wait",
            ],
        )
    })
    .await;
    let growth_kib = peak_rss_kib().saturating_sub(before);
    assert!(execution.truncated);
    assert_eq!(execution.exit_code, 0);
    assert_eq!(execution.stdout.len() + execution.stderr.len(), max);
    println!("{growth_kib}");
}

/// Peak resident memory of this process (`VmHWM`), in KiB.
fn peak_rss_kib() -> usize {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status
        .lines()
        .find(|line| line.starts_with("VmHWM:"))
        .unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// The `TORII_*` names a child sees when this process's environment holds some and the
/// overlay (an operator's `.env`) sets `TORII_FROM_DOTENV`.
async fn torii_env() {
    let mut launch = launch(
        "/bin/sh",
        &[
            "-c",
            "env | grep '^TORII_' | cut -d= -f1 | sort | tr '\\n' ' '",
        ],
    );
    launch.env_overlay = vec![("TORII_FROM_DOTENV".into(), "kept".into())];
    println!("{}", run(launch).await.stdout.trim());
}

/// `program` resolved as a provider command from this process's current directory, `PATH`
/// and location: `ran <what it printed>`, or why it was not found.
async fn run_program(program: &str, args: &[&str]) {
    match runner::run(launch(program, args)).await {
        Ok(execution) => print!("{}", execution.stdout),
        Err(error) => println!("{error}"),
    }
}

async fn resolve(program: &str) {
    match runner::resolve(program) {
        Ok(path) => println!("ran {}", run(launch(path, &[])).await.stdout.trim()),
        Err(error) => println!("{error}"),
    }
}
