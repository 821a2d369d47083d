//! The runner: turns an authorized call into a process and its captured result.
//!
//! It finds the provider's executable in `PATH` (never in the current directory or next to the
//! Torii binary), starts it without a shell with the arguments as a vector, gives it the inherited
//! environment minus removed variables plus an overlay, a null stdin, and returns its exit code
//! and output within one byte budget. It also reads the `.env` files that feed the overlay.
//!
//! The runner never decides policy: by the time [`run`] is called, the dispatcher has authorized
//! the call and re-checked any lease.

mod capture;
mod child;
pub mod dotenv;
mod error;
mod exec;
mod group;
pub mod progress;
mod resolve;

pub use dotenv::read_env_file;
pub use error::{DotenvError, EnvFileError, RunError};
pub use exec::{
    Execution, Launch, SIGNALLED_EXIT_CODE, TORII_ENV_PREFIX, batch_argument_refused, run,
};
pub use group::TERM_GRACE;

/// How long a check (a validator, an identity probe, a context check) may run before it counts
/// as failed.
pub const CHECK_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(60);
pub use resolve::{Excluded, default_excluded, resolve, resolve_executable};
