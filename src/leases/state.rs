//! One provider's lease state and the question the dispatcher asks of it: may this alias be
//! used now?

use std::path::{Path, PathBuf};

use super::{LeaseError, LeaseMinutes};
use crate::registry::Target;

/// A lease: `alias` may be used until `expires_at` with the `target.yaml` whose SHA-256 is
/// `binding_sha256`. Built only from a loaded target ([`LeaseEntry::grant`]) or a validated
/// state file, so the alias is always a valid name and the digest 64 lowercase hex digits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeaseEntry {
    pub(super) alias: String,
    pub(super) binding_sha256: String,
    pub(super) expires_at: u64,
}

impl LeaseEntry {
    /// A lease for `target` as loaded (its [`Target::binding_digest`]), from `now` for
    /// `minutes`. Binding the loaded digest means a decision shown with the loaded binding
    /// authorizes exactly that binding and nothing edited since.
    pub fn grant(target: &Target, minutes: LeaseMinutes, now: u64) -> Self {
        Self {
            alias: target.alias().to_string(),
            binding_sha256: target.binding_digest().to_string(),
            // Cannot overflow for a real clock; saturating keeps an absurd `now` expired.
            expires_at: now.saturating_add(minutes.seconds()),
        }
    }

    pub fn alias(&self) -> &str {
        &self.alias
    }

    /// SHA-256 (lowercase hex) of the `target.yaml` bytes the lease was granted for.
    pub fn binding_sha256(&self) -> &str {
        &self.binding_sha256
    }

    /// Epoch seconds; the lease authorizes strictly before this instant.
    pub fn expires_at(&self) -> u64 {
        self.expires_at
    }

    /// True once `now >= expires_at`, and for a lease Torii never wrote (see
    /// [`LeaseEntry::outlasts_any_lease`]).
    pub fn is_expired(&self, now: u64) -> bool {
        now >= self.expires_at || self.outlasts_any_lease(now)
    }

    /// Whether the lease claims to last longer than any lease Torii grants (1,440 minutes from
    /// now). Such an expiry, e.g. a hand-edited `18446744073709551615`, is refused rather than
    /// clamped: a limit counted from "now" would move forward with every read and never end.
    pub fn outlasts_any_lease(&self, now: u64) -> bool {
        self.expires_at.saturating_sub(now) > LeaseMinutes::LONGEST.seconds()
    }
}

/// What a lease says about one alias right now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeaseStatus {
    /// The alias may be used until `expires_at`.
    Active { expires_at: u64 },
    /// No lease for this alias (never activated, cleared, revoked or replaced).
    Inactive,
    /// The lease ran out at `expired_at`.
    Expired { expired_at: u64 },
    /// The lease was granted for another `target.yaml`: the file was edited, removed or
    /// recreated, or the server loaded a version other than the one on disk.
    BindingChanged,
}

impl LeaseStatus {
    /// Only [`LeaseStatus::Active`] authorizes.
    pub fn is_active(&self) -> bool {
        matches!(self, LeaseStatus::Active { .. })
    }
}

/// The leases of one provider at one revision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeaseState {
    pub(super) revision: u64,
    /// Sorted by alias, at most one per alias.
    pub(super) entries: Vec<LeaseEntry>,
    /// `<provider dir>/targets`: only targets in there are checked against this state.
    pub(super) targets_dir: PathBuf,
}

impl LeaseState {
    /// Incremented by every write; the compare-and-swap token of [`super::LeaseStore::apply`].
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// Every stored entry, sorted by alias, including expired ones not yet pruned.
    pub fn entries(&self) -> &[LeaseEntry] {
        &self.entries
    }

    /// The stored entry for `alias`, whatever its status.
    pub fn entry(&self, alias: &str) -> Option<&LeaseEntry> {
        self.entries.iter().find(|entry| entry.alias == alias)
    }

    /// Aliases whose lease has not expired, sorted: what a human deciding on a new lease is
    /// shown. Their bindings are not compared here; authorization is [`LeaseState::check`].
    pub fn active_aliases(&self, now: u64) -> Vec<&str> {
        self.entries
            .iter()
            .filter(|entry| !entry.is_expired(now))
            .map(LeaseEntry::alias)
            .collect()
    }

    /// Whether `target` may be used at `now`. Active only when the lease exists, has not
    /// expired, and its digest equals both the digest of `target.yaml` as loaded and the
    /// digest of `target.yaml` read from disk now (so this reads that file). An error, such
    /// as an unreadable `target.yaml`, means not authorized.
    pub fn check(&self, target: &Target, now: u64) -> Result<LeaseStatus, LeaseError> {
        ensure_own(&self.targets_dir, target)?;
        let Some(entry) = self.entry(target.alias()) else {
            return Ok(LeaseStatus::Inactive);
        };
        let on_disk = target.current_binding_digest()?;
        Ok(status(
            entry,
            target.binding_digest(),
            on_disk.as_deref(),
            now,
        ))
    }

    pub(super) fn new(targets_dir: &Path, revision: u64, mut entries: Vec<LeaseEntry>) -> Self {
        entries.sort_by(|a, b| a.alias.cmp(&b.alias));
        Self {
            revision,
            entries,
            targets_dir: targets_dir.to_path_buf(),
        }
    }
}

/// Refuses a target of another provider: aliases are only unique within one provider, and two
/// providers may hold byte-identical `target.yaml` files.
pub(super) fn ensure_own(targets_dir: &Path, target: &Target) -> Result<(), LeaseError> {
    if target.dir().parent() == Some(targets_dir) {
        Ok(())
    } else {
        Err(LeaseError::ForeignTarget {
            alias: target.alias().to_string(),
            target_dir: target.dir().to_path_buf(),
            state_path: targets_dir.with_file_name(super::STATE_FILE),
        })
    }
}

/// The decision itself, free of I/O: `loaded` is the digest the call would run with,
/// `on_disk` the digest of the file now (`None`: the file is gone).
fn status(entry: &LeaseEntry, loaded: &str, on_disk: Option<&str>, now: u64) -> LeaseStatus {
    if entry.binding_sha256 != loaded || on_disk != Some(loaded) {
        LeaseStatus::BindingChanged
    } else if entry.outlasts_any_lease(now) {
        LeaseStatus::Inactive
    } else if entry.is_expired(now) {
        LeaseStatus::Expired {
            expired_at: entry.expires_at,
        }
    } else {
        LeaseStatus::Active {
            expires_at: entry.expires_at,
        }
    }
}

/// Entries for the tests of the lease files and changes.
#[cfg(test)]
pub(super) mod test_entries {
    use super::LeaseEntry;

    /// A well-formed binding digest.
    pub(in crate::leases) const DIGEST: &str =
        "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

    /// A lease on `alias` bound to [`DIGEST`], ending at `expires_at`.
    pub(in crate::leases) fn entry(alias: &str, expires_at: u64) -> LeaseEntry {
        LeaseEntry {
            alias: alias.into(),
            binding_sha256: DIGEST.into(),
            expires_at,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: &str = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    const B: &str = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";

    fn entry(digest: &str, expires_at: u64) -> LeaseEntry {
        LeaseEntry {
            alias: "dev".into(),
            binding_sha256: digest.into(),
            expires_at,
        }
    }

    #[test]
    fn only_three_equal_digests_before_expiry_authorize() {
        use LeaseStatus::*;
        // (lease digest, loaded digest, on-disk digest, now, expected)
        let cases: [(&str, &str, Option<&str>, u64, LeaseStatus); 8] = [
            (A, A, Some(A), 99, Active { expires_at: 100 }),
            (A, A, Some(A), 100, Expired { expired_at: 100 }),
            (A, A, Some(A), 101, Expired { expired_at: 100 }),
            // Edited on disk after the server loaded it.
            (A, A, Some(B), 99, BindingChanged),
            // Removed on disk.
            (A, A, None, 99, BindingChanged),
            // Granted (by a fresh CLI) for a file the running server has not loaded.
            (B, A, Some(B), 99, BindingChanged),
            // Edited, then edited back: the bytes are the lease's again.
            (A, A, Some(A), 0, Active { expires_at: 100 }),
            // A changed binding is reported even after expiry.
            (B, A, Some(A), 500, BindingChanged),
        ];
        for (lease, loaded, on_disk, now, expected) in cases {
            assert_eq!(
                status(&entry(lease, 100), loaded, on_disk, now),
                expected,
                "lease={lease:.1} loaded={loaded:.1} on_disk={on_disk:?} now={now}"
            );
        }
    }

    /// Issue 11, finding 12: a lease with `expires_at: 18446744073709551615` was active
    /// forever. An expiry further ahead than the longest lease authorizes nothing.
    #[test]
    fn a_lease_beyond_the_longest_duration_is_never_active() {
        let now = 1_784_000_000;
        let longest = LeaseMinutes::LONGEST.seconds();
        for (expires_at, expected) in [
            (
                now + longest,
                LeaseStatus::Active {
                    expires_at: now + longest,
                },
            ),
            (now + longest + 1, LeaseStatus::Inactive),
            (u64::MAX, LeaseStatus::Inactive),
        ] {
            assert_eq!(status(&entry(A, expires_at), A, Some(A), now), expected);
            assert_eq!(
                entry(A, expires_at).is_expired(now),
                expected == LeaseStatus::Inactive
            );
        }
    }

    #[test]
    fn active_aliases_skip_expired_entries() {
        let state = LeaseState::new(
            Path::new("/p/targets"),
            3,
            vec![
                LeaseEntry {
                    alias: "b".into(),
                    binding_sha256: A.into(),
                    expires_at: 50,
                },
                LeaseEntry {
                    alias: "a".into(),
                    binding_sha256: A.into(),
                    expires_at: 200,
                },
            ],
        );
        assert_eq!(state.active_aliases(10), ["a", "b"]);
        assert_eq!(state.active_aliases(50), ["a"]);
        assert_eq!(state.entries()[0].alias(), "a");
    }
}
