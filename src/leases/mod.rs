//! Target leases: which aliases of a target-aware provider a human has activated, until when,
//! and for which exact `target.yaml`.
//!
//! One state file per provider, `<provider dir>/.target-authorizations.yaml`, holds a version,
//! a revision and one entry per active alias (alias, SHA-256 of the `target.yaml` bytes the
//! lease was granted for, expiry in epoch seconds). Readers never lock: every write replaces
//! the file atomically, so a reader sees one whole state. Writers take the exclusive OS lock
//! on `.target-authorizations.lock` (released by the OS when the process ends; no TTL, never
//! deleted), re-read the state and compare its revision with the one their decision was
//! based on, so a decision made on an old state is never applied (compare-and-swap).
//!
//! A lease authorizes an alias only while three digests agree: the one in the lease, the one
//! of `target.yaml` as the registry loaded it (the binding a call will run with) and the one
//! of `target.yaml` on disk now. Editing, removing or recreating a target therefore ends its
//! lease at once, also in a server that loaded the old file; and no call can run with a
//! binding other than the one the human granted.
//!
//! A file that cannot be read or decoded fails closed: callers get an error and deny.
//! [`LeaseStore::clear`] rewrites an empty state without decoding the old one.
//!
//! How the dispatcher uses it (every error means deny):
//!
//! ```text
//! gate      state = store.read()?; state.check(target, now)?.is_active()
//!           inactive: ask the human, showing state.active_aliases(now); headless: deny
//! decision  store.apply(state.revision(), &Change::activation(mode, LeaseEntry::grant(..)), now)
//!           Err(Stale): target-access-stale; go on only if store.check(target, now) is active
//! re-check  store.check(target, now)?.is_active() before .env/auth and right before launch;
//!           otherwise target-access-lost
//! ```
//!
//! Files: `store.rs` (file system, lock, compare-and-swap), `state.rs` (entries and the
//! authorization check), `change.rs` (replace, add, revoke), `file.rs` (the YAML format),
//! `file_lock.rs`, `minutes.rs` (duration), `error.rs`.

mod change;
mod error;
mod file;
mod file_lock;
mod minutes;
mod state;
mod store;

/// The state file's decoder, for the fuzz target: the revision and entries, or why not.
#[cfg(any(test, feature = "fuzzing"))]
pub(crate) fn fuzz_decode(text: &str) -> Result<(u64, Vec<LeaseEntry>), String> {
    file::decode(text).map_err(|problem| format!("{problem:?}"))
}

/// The state file's encoder, for the fuzz target.
#[cfg(any(test, feature = "fuzzing"))]
pub(crate) fn fuzz_encode(revision: u64, entries: &[LeaseEntry]) -> String {
    file::encode(revision, entries)
}

pub use change::{Activation, Change};
pub use error::LeaseError;
pub use minutes::LeaseMinutes;
pub use state::{LeaseEntry, LeaseState, LeaseStatus};
pub use store::{LOCK_FILE, LeaseStore, STATE_FILE};

use std::time::{SystemTime, UNIX_EPOCH};

/// Seconds since the Unix epoch, the clock leases expire by.
pub fn unix_now() -> Result<u64, LeaseError> {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|age| age.as_secs())
        .map_err(|_| LeaseError::Clock)
}
