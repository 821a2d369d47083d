//! The three ways a lease state changes. Every change produces the next revision and drops
//! expired entries, so the file never grows with dead leases.

use super::{LeaseEntry, LeaseError, LeaseState};

/// How a human activation treats the aliases that are already active.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Activation {
    /// The new lease becomes the only one (the default; the window's "Replace all active").
    Replace,
    /// The new lease joins the unexpired ones (`--add`; the window's "Add to the set").
    Add,
}

/// One mutation of a provider's lease state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// Only this lease remains.
    Replace(LeaseEntry),
    /// This lease joins the unexpired others, replacing a previous lease of the same alias.
    Add(LeaseEntry),
    /// The alias loses its lease, if it had one (`torii target remove`).
    Revoke { alias: String },
}

impl Change {
    /// The change a human activation of `entry` makes.
    pub fn activation(mode: Activation, entry: LeaseEntry) -> Self {
        match mode {
            Activation::Replace => Change::Replace(entry),
            Activation::Add => Change::Add(entry),
        }
    }
}

impl LeaseState {
    /// The state after `change`, at the next revision.
    pub(super) fn applied(&self, change: &Change, now: u64) -> Result<LeaseState, LeaseError> {
        let revision = self
            .revision
            .checked_add(1)
            .ok_or(LeaseError::RevisionExhausted {
                revision: self.revision,
            })?;
        let others = |alias: &str| {
            self.entries
                .iter()
                .filter(|entry| entry.alias != alias && !entry.is_expired(now))
                .cloned()
                .collect::<Vec<_>>()
        };
        let entries = match change {
            Change::Replace(entry) => vec![entry.clone()],
            Change::Add(entry) => {
                let mut entries = others(&entry.alias);
                entries.push(entry.clone());
                entries
            }
            Change::Revoke { alias } => others(alias),
        };
        Ok(LeaseState::new(&self.targets_dir, revision, entries))
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    use crate::leases::state::test_entries::entry;

    fn state(revision: u64, entries: Vec<LeaseEntry>) -> LeaseState {
        LeaseState::new(Path::new("/p/targets"), revision, entries)
    }

    fn aliases(state: &LeaseState) -> Vec<(&str, u64)> {
        state
            .entries()
            .iter()
            .map(|entry| (entry.alias(), entry.expires_at()))
            .collect()
    }

    #[test]
    fn replace_add_and_revoke() {
        let now = 100;
        // `old` has expired; `dev` and `hml` are live.
        let before = state(
            7,
            vec![entry("dev", 200), entry("hml", 300), entry("old", 100)],
        );
        let cases: [(Change, Vec<(&str, u64)>); 6] = [
            (Change::Replace(entry("prd", 900)), vec![("prd", 900)]),
            (Change::Replace(entry("dev", 900)), vec![("dev", 900)]),
            (
                Change::Add(entry("prd", 900)),
                vec![("dev", 200), ("hml", 300), ("prd", 900)],
            ),
            // Renewing an active alias keeps one entry with the new expiry.
            (
                Change::Add(entry("dev", 900)),
                vec![("dev", 900), ("hml", 300)],
            ),
            (
                Change::Revoke {
                    alias: "dev".into(),
                },
                vec![("hml", 300)],
            ),
            // Revoking an alias without a lease still writes (and prunes).
            (
                Change::Revoke {
                    alias: "nope".into(),
                },
                vec![("dev", 200), ("hml", 300)],
            ),
        ];
        for (change, expected) in cases {
            let after = before.applied(&change, now).unwrap();
            assert_eq!(after.revision(), 8, "{change:?}");
            assert_eq!(aliases(&after), expected, "{change:?}");
        }
    }

    #[test]
    fn activation_modes_map_to_changes() {
        let lease = entry("dev", 5);
        assert_eq!(
            Change::activation(Activation::Replace, lease.clone()),
            Change::Replace(lease.clone())
        );
        assert_eq!(
            Change::activation(Activation::Add, lease.clone()),
            Change::Add(lease)
        );
    }

    #[test]
    fn the_revision_never_wraps() {
        let error = state(u64::MAX, vec![])
            .applied(&Change::Replace(entry("dev", 5)), 0)
            .unwrap_err();
        assert!(matches!(error, LeaseError::RevisionExhausted { .. }));
    }
}
