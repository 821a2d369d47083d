//! Why a lease could not be read, checked or changed. Every variant fails closed: a caller
//! that gets one treats the alias as not authorized.

use std::path::PathBuf;

use strict_yaml::{Position, located};

use crate::atomic::WriteError;
use crate::registry::RegistryError;

#[derive(Debug, thiserror::Error)]
pub enum LeaseError {
    /// The state file exists but could not be read.
    #[error("cannot read {}", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    /// The state file is not a valid version 1 lease state.
    #[error(
        "{}: invalid lease state: {message}; every target-aware call of `{tool}` is refused \
         until `torii target clear {tool}` rewrites it",
        located(path.display(), *position)
    )]
    Corrupt {
        path: PathBuf,
        tool: String,
        position: Option<Position>,
        message: String,
    },

    /// Writing the new state failed; the previous file is untouched.
    #[error(transparent)]
    Write(#[from] WriteError),

    /// The lock file could not be opened or locked.
    #[error("cannot lock {}", path.display())]
    Lock {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    /// Compare-and-swap refused: the state changed after the decision's state was read.
    #[error(
        "the lease state changed while the decision was pending (revision {current_revision}, \
         decided on {expected_revision}); the decision was not applied"
    )]
    Stale {
        expected_revision: u64,
        current_revision: u64,
    },

    /// A duration outside 1..=1440 minutes.
    #[error("a lease lasts between 1 and 1440 minutes, got {0}")]
    Minutes(u64),

    /// `target.yaml` could not be read to compare its digest with the lease's.
    #[error(transparent)]
    Binding(#[from] RegistryError),

    /// A target of another provider was checked or granted against this provider's state.
    #[error(
        "target {alias:?} ({}) is not a target of the provider whose leases are in {}",
        target_dir.display(),
        state_path.display()
    )]
    ForeignTarget {
        alias: String,
        target_dir: PathBuf,
        state_path: PathBuf,
    },

    /// The revision counter is at its maximum (only a hand-edited file gets there).
    #[error(
        "lease state revision {revision} cannot grow any further; `torii target clear` starts a new one"
    )]
    RevisionExhausted { revision: u64 },

    /// The system clock reads before 1970, so no expiry can be trusted.
    #[error("the system clock is set before 1970; lease expiry cannot be checked")]
    Clock,
}
