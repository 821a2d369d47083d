//! One of the processes that race on a kubectl provider's lease file (`tests/it/leases.rs`):
//! random activations, additions, compare-and-swap writes, reads and (unless `race`) clears.

use std::path::Path;

use torii::leases::{Activation, Change, LeaseEntry, LeaseError, LeaseMinutes, LeaseStore};
use torii::registry::Registry;

use crate::random::{XorShift, seed};

/// `mode`: `race` (no clear), `race-with-clear`, or `forever` (until killed). Each successful
/// write is logged to `log` as `<kind> <resulting revision>` when the operations are done.
pub fn run(mode: &str, root: &Path, operations: u64, log: &Path) {
    let registry = Registry::load(root).unwrap();
    let provider = registry.by_tool("kubectl").unwrap();
    let store = LeaseStore::new(provider);
    let aliases = [
        provider.target("dev").unwrap(),
        provider.target("hml").unwrap(),
    ];
    let minutes = |value| LeaseMinutes::new(value).unwrap();
    let with_clear = mode != "race";
    let mut random = XorShift::new(seed());
    let mut written = String::new();
    let mut done = 0;
    while mode == "forever" || done < operations {
        done += 1;
        let now = torii::leases::unix_now().unwrap();
        let target = aliases[random.below(2) as usize];
        let result = match random.below(if with_clear { 20 } else { 19 }) {
            0..=5 => store
                .activate(target, minutes(30), Activation::Replace, now)
                .map(|state| ("activate", state)),
            6..=11 => store
                .activate(target, minutes(30), Activation::Add, now)
                .map(|state| ("add", state)),
            12..=14 => {
                // A decision taken on what was read, applied only if nothing changed since.
                let seen = store.read().unwrap();
                let change = Change::Add(LeaseEntry::grant(target, minutes(5), now));
                store
                    .apply(seen.revision(), &change, now)
                    .map(|state| ("cas", state))
            }
            15..=18 => {
                store.read().unwrap();
                continue;
            }
            _ => store.clear().map(|state| ("clear", state)),
        };
        match result {
            Ok((kind, state)) => written.push_str(&format!("{kind} {}\n", state.revision())),
            Err(LeaseError::Stale { .. }) => {}
            Err(error) => panic!("worker write failed: {error}"),
        }
    }
    std::fs::write(log, written).unwrap();
}
