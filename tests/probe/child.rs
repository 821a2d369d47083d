//! A provider child as the runner tests start one, shared by the probe and the tests that run
//! in the test process itself.

use std::path::{Path, PathBuf};
use std::time::Duration;

use torii::runner::{self, Execution, Launch};

pub const MIB: usize = 1024 * 1024;

/// `program args` with a 1 MiB output budget and no time limit. These checks are about the
/// runner; confinement has its own (`tests/it/confinement.rs`).
pub fn launch(program: impl Into<PathBuf>, args: &[&str]) -> Launch {
    Launch {
        program: program.into(),
        args: args.iter().map(|arg| arg.to_string()).collect(),
        env_overlay: Vec::new(),
        env_remove: Vec::new(),
        max_output_bytes: MIB,
        confinement: torii::confine::Confinement::with_launcher(
            Path::new("/nonexistent/torii-root"),
            torii::confine::Mode::BestEffort,
            &[],
            &torii_exe(),
        ),
        timeout: None,
    }
}

/// The `torii` executable that starts the children of this test process (which is not Torii):
/// the integration tests are told where Cargo built it, the probe is told by the test that
/// starts it (`TORII_TEST_LAUNCHER`: it may run from a copy elsewhere) or looks beside itself.
fn torii_exe() -> PathBuf {
    option_env!("CARGO_BIN_EXE_torii")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("TORII_TEST_LAUNCHER").map(PathBuf::from))
        .or_else(|| Some(std::env::current_exe().ok()?.with_file_name("torii")))
        .unwrap_or_default()
}

/// `runner::run` with a deadline, so a capture that deadlocks fails instead of hanging.
pub async fn run(launch: Launch) -> Execution {
    tokio::time::timeout(Duration::from_secs(60), runner::run(launch))
        .await
        .expect("the child finished in time")
        .unwrap()
}
