//! Where a provider's lease state lives and the only code that reads or writes it.
//!
//! Reads take no lock (writes are atomic renames). Every write holds the exclusive lock for
//! one read-modify-write: [`LeaseStore::apply`] compares the revision a decision was made on
//! with the one on disk under the lock, so a stale decision is refused instead of undoing a
//! newer activation or a `target clear`.
//!
//! A read is a plain bounded read (see `crate::files`), which async callers make on their own
//! task; a write may wait for the lock (held by another writer only for one small read and
//! write), so async callers make it with `spawn_blocking`.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use super::file::{self, MAX_FILE_BYTES};
use super::file_lock;
use super::state::ensure_own;
use super::{Activation, Change, LeaseEntry, LeaseError, LeaseMinutes, LeaseState, LeaseStatus};
use crate::atomic::{self, Access};
use crate::registry::{Provider, Target};

/// The state file, in the provider directory.
pub const STATE_FILE: &str = ".target-authorizations.yaml";
/// The lock file beside it; created on first write, never deleted.
pub const LOCK_FILE: &str = ".target-authorizations.lock";

/// The lease state of one target-aware provider.
#[derive(Debug, Clone)]
pub struct LeaseStore {
    state_path: PathBuf,
    lock_path: PathBuf,
    targets_dir: PathBuf,
    /// Named in errors, so the fix (`torii target clear <tool>`) can be copied.
    tool: String,
}

impl LeaseStore {
    pub fn new(provider: &Provider) -> Self {
        Self::at(provider.dir(), &provider.targets_dir(), provider.tool())
    }

    fn at(provider_dir: &Path, targets_dir: &Path, tool: &str) -> Self {
        Self {
            state_path: provider_dir.join(STATE_FILE),
            lock_path: provider_dir.join(LOCK_FILE),
            targets_dir: targets_dir.to_path_buf(),
            tool: tool.to_string(),
        }
    }

    pub fn state_path(&self) -> &Path {
        &self.state_path
    }

    pub fn lock_path(&self) -> &Path {
        &self.lock_path
    }

    /// The current state. A missing file is the empty state at revision 0; a file that
    /// cannot be read or is not a valid version 1 state is an error (fail closed).
    pub fn read(&self) -> Result<LeaseState, LeaseError> {
        let Some(text) = self.read_text()? else {
            return Ok(LeaseState::new(&self.targets_dir, 0, Vec::new()));
        };
        let (revision, entries) = file::decode(&text).map_err(|problem| self.corrupt(problem))?;
        Ok(LeaseState::new(&self.targets_dir, revision, entries))
    }

    /// Reads the state and checks `target` (see [`LeaseState::check`]): what the dispatcher
    /// asks before grants, again before environment and authentication, and at launch.
    pub fn check(&self, target: &Target, now: u64) -> Result<LeaseStatus, LeaseError> {
        self.read()?.check(target, now)
    }

    /// Applies `change` if the state is still at `expected_revision` (the revision of the
    /// state the decision was made on) and returns the new state. Otherwise nothing is
    /// written and the error is [`LeaseError::Stale`] with the revision found.
    pub fn apply(
        &self,
        expected_revision: u64,
        change: &Change,
        now: u64,
    ) -> Result<LeaseState, LeaseError> {
        self.update(Some(expected_revision), change, now)
    }

    /// A human activation from the control plane: the lease for `target` as loaded, applied
    /// to whatever the state is when the lock is taken (read and write under one lock hold).
    pub fn activate(
        &self,
        target: &Target,
        minutes: LeaseMinutes,
        mode: Activation,
        now: u64,
    ) -> Result<LeaseState, LeaseError> {
        ensure_own(&self.targets_dir, target)?;
        let change = Change::activation(mode, LeaseEntry::grant(target, minutes, now));
        self.update(None, &change, now)
    }

    /// Removes `alias`'s lease, whatever the current revision (`torii target remove`).
    pub fn revoke(&self, alias: &str, now: u64) -> Result<LeaseState, LeaseError> {
        let change = Change::Revoke {
            alias: alias.to_string(),
        };
        self.update(None, &change, now)
    }

    /// Rewrites an empty, valid state whatever the old file holds, so a corrupt file can be
    /// cleared: the old file is decoded only to learn its revision, best-effort. The new
    /// revision is above every revision this file can have had, so no decision made before
    /// the clear can pass the compare-and-swap afterwards: the old revision + 1 when the old
    /// file still decodes, and never less than the clock in nanoseconds since the epoch (far
    /// above any count of single increments) for when it does not. (At `u64::MAX`, reachable
    /// only by hand-editing, the revision stays and every `apply` fails as exhausted.)
    pub fn clear(&self) -> Result<LeaseState, LeaseError> {
        let _lock = file_lock::acquire(&self.lock_path)?;
        let previous = self
            .read()
            .ok()
            .map_or(0, |state| state.revision.saturating_add(1));
        let revision = previous.max(nanos_since_epoch());
        let cleared = LeaseState::new(&self.targets_dir, revision, Vec::new());
        self.write(&cleared)?;
        Ok(cleared)
    }

    /// Read-modify-write under the lock; `expected` enables the compare-and-swap.
    fn update(
        &self,
        expected: Option<u64>,
        change: &Change,
        now: u64,
    ) -> Result<LeaseState, LeaseError> {
        let _lock = file_lock::acquire(&self.lock_path)?;
        let current = self.read()?;
        if let Some(expected_revision) = expected
            && expected_revision != current.revision
        {
            return Err(LeaseError::Stale {
                expected_revision,
                current_revision: current.revision,
            });
        }
        let next = current.applied(change, now)?;
        self.write(&next)?;
        Ok(next)
    }

    /// Temp file, fsync, rename, mode 0600: a reader or a killed writer never sees half.
    fn write(&self, state: &LeaseState) -> Result<(), LeaseError> {
        let text = file::encode(state.revision, &state.entries);
        atomic::write(&self.state_path, text.as_bytes(), Access::Private)?;
        Ok(())
    }

    fn read_text(&self) -> Result<Option<String>, LeaseError> {
        let bytes = match crate::files::read_optional(&self.state_path, MAX_FILE_BYTES) {
            Ok(Some(bytes)) => bytes,
            Ok(None) => return Ok(None),
            Err(error) if error.kind() == ErrorKind::FileTooLarge => {
                return Err(self.corrupt(file::Problem {
                    position: None,
                    message: error.to_string(),
                }));
            }
            Err(source) => {
                return Err(LeaseError::Read {
                    path: self.state_path.clone(),
                    source,
                });
            }
        };
        String::from_utf8(bytes).map(Some).map_err(|error| {
            self.corrupt(file::Problem {
                position: None,
                message: format!("not valid UTF-8: {}", error.utf8_error()),
            })
        })
    }

    fn corrupt(&self, problem: file::Problem) -> LeaseError {
        LeaseError::Corrupt {
            path: self.state_path.clone(),
            tool: self.tool.clone(),
            position: problem.position,
            message: problem.message,
        }
    }
}

/// The clock in nanoseconds (0 before 1970, `u64::MAX` after 2554).
fn nanos_since_epoch() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |age| u64::try_from(age.as_nanos()).unwrap_or(u64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store() -> (tempfile::TempDir, LeaseStore) {
        let dir = tempfile::tempdir().unwrap();
        let store = LeaseStore::at(dir.path(), &dir.path().join("targets"), "kubectl");
        (dir, store)
    }

    #[test]
    fn a_missing_file_is_the_empty_state_at_revision_0() {
        let (_dir, store) = store();
        let state = store.read().unwrap();
        assert_eq!(state.revision(), 0);
        assert!(state.entries().is_empty());
        assert!(!store.state_path().exists());
    }

    #[test]
    fn corrupt_files_fail_closed_naming_file_and_fix() {
        let (_dir, store) = store();
        for bytes in [
            &b""[..],
            b"version: \"1\"\nrevision: 1\nentries: [\n",
            b"version: \"1\"\nrevision: 1\nentries: []\n\xff\n",
            b"version: \"9\"\nrevision: 1\nentries: []\n",
        ] {
            std::fs::write(store.state_path(), bytes).unwrap();
            let error = store.read().unwrap_err();
            let message = error.to_string();
            assert!(matches!(error, LeaseError::Corrupt { .. }), "{message}");
            assert!(message.contains(STATE_FILE), "{message}");
            assert!(message.contains("torii target clear kubectl"), "{message}");
        }
        let huge = vec![b'#'; (MAX_FILE_BYTES + 1) as usize];
        std::fs::write(store.state_path(), huge).unwrap();
        assert!(matches!(store.read(), Err(LeaseError::Corrupt { .. })));
    }

    #[test]
    fn compare_and_swap_refuses_a_stale_revision_and_writes_nothing() {
        let (_dir, store) = store();
        let first = store.revoke("dev", 0).unwrap();
        assert_eq!(first.revision(), 1);
        let written = std::fs::read(store.state_path()).unwrap();
        let change = Change::Revoke {
            alias: "dev".into(),
        };
        let error = store.apply(0, &change, 0).unwrap_err();
        assert!(
            matches!(
                error,
                LeaseError::Stale {
                    expected_revision: 0,
                    current_revision: 1
                }
            ),
            "{error}"
        );
        assert_eq!(std::fs::read(store.state_path()).unwrap(), written);
        assert_eq!(store.apply(1, &change, 0).unwrap().revision(), 2);
    }

    #[test]
    fn clear_replaces_a_corrupt_file_with_a_higher_revision() {
        let (_dir, store) = store();
        std::fs::write(store.state_path(), "revision: [oops").unwrap();
        let cleared = store.clear().unwrap();
        assert!(cleared.revision() > 1_000_000_000_000_000_000);
        assert_eq!(store.read().unwrap(), cleared);
        // A readable file: strictly above its revision even if that is above the clock.
        std::fs::write(
            store.state_path(),
            format!("version: \"1\"\nrevision: {}\nentries: []\n", u64::MAX - 1),
        )
        .unwrap();
        assert_eq!(store.clear().unwrap().revision(), u64::MAX);
    }

    #[cfg(unix)]
    #[test]
    fn files_are_owner_only() {
        use std::os::unix::fs::PermissionsExt;
        let (_dir, store) = store();
        store.revoke("dev", 0).unwrap();
        for path in [store.state_path(), store.lock_path()] {
            let mode = std::fs::metadata(path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600, "{}", path.display());
        }
    }
}
