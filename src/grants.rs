//! The `grants` file of a provider or target: temporary operation grants a human approved.
//!
//! The format and matching are Jasper's (version 2: mode, token count and a SHA-256
//! fingerprint, never argument text). This module only reads and writes the file: a missing or
//! unreadable file grants nothing, and adding a grant rewrites the file atomically (temporary
//! file, fsync, rename, owner-only) with expired and malformed entries dropped. Writers are
//! serialised per file, within a server and (on Unix) between servers sharing the config root,
//! so two approvals never lose each other.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use jasper::{GrantEntry, Grants};

use crate::atomic::{self, Access, WriteError};

/// Far above any real grants file (one short line per grant).
const MAX_GRANTS_BYTES: u64 = crate::files::SMALL_FILE_BYTES;

/// The grants in `path`, as of now. Anything that cannot be read grants nothing.
pub fn load(path: &Path) -> Grants {
    match crate::files::read_optional_text(path, MAX_GRANTS_BYTES) {
        Ok(Some(text)) => Grants::parse(&text),
        Ok(None) | Err(_) => Grants::empty(),
    }
}

fn writer_lock(path: &Path) -> Arc<Mutex<()>> {
    static LOCKS: OnceLock<Mutex<HashMap<PathBuf, Arc<Mutex<()>>>>> = OnceLock::new();
    let locks = LOCKS.get_or_init(Default::default);
    let mut locks = locks
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    Arc::clone(locks.entry(path.to_path_buf()).or_default())
}

/// Locks the directory holding the grants file against writers in other processes, until the
/// returned handle is dropped. The file itself cannot carry the lock (each write renames a new
/// file over it) and the book's layout has no lock file for grants; Unix can lock a directory.
#[cfg(unix)]
fn other_processes_lock(path: &Path) -> Result<std::fs::File, WriteError> {
    let fail = |source| WriteError::new(path, source);
    let handle = std::fs::File::open(atomic::containing_dir(path)).map_err(fail)?;
    handle.lock().map_err(fail)?;
    Ok(handle)
}

/// Adds `entry` to the grants in `path`, dropping expired entries.
pub fn add(path: &Path, entry: GrantEntry, now: u64) -> Result<(), WriteError> {
    let lock = writer_lock(path);
    let _held = lock.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    #[cfg(unix)]
    let _other_processes = other_processes_lock(path)?;
    let mut grants = load(path);
    grants.prune_expired(now);
    grants.push(entry);
    atomic::write(path, grants.to_yaml().as_bytes(), Access::Private)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(items: &[&str]) -> Vec<String> {
        items.iter().map(|item| item.to_string()).collect()
    }

    #[test]
    fn added_grants_round_trip_and_expired_ones_are_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("grants");
        assert!(load(&path).entries().is_empty());
        let exact = args(&["get", "pods", "-n", "x"]);
        add(
            &path,
            GrantEntry::new(100, jasper::GrantMatcher::exact(&exact)),
            50,
        )
        .unwrap();
        let prefix = jasper::GrantMatcher::prefix(&exact, 2).unwrap();
        add(&path, GrantEntry::new(300, prefix), 150).unwrap();
        let grants = load(&path);
        assert_eq!(
            grants.entries().len(),
            1,
            "the first grant had expired at 150"
        );
        assert!(grants.find(&args(&["get", "pods", "-A"]), 200).is_some());
        assert!(grants.find(&exact, 300).is_none());
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            !text.contains("pods"),
            "grants never store argument text: {text}"
        );
    }

    /// Two spellings of one directory get two in-process locks, as two servers would; only
    /// the directory lock keeps their read-modify-write cycles from losing grants.
    #[cfg(unix)]
    #[test]
    fn concurrent_writers_through_different_paths_lose_no_grant() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("provider");
        std::fs::create_dir(&real).unwrap();
        let alias = dir.path().join("alias");
        std::os::unix::fs::symlink(&real, &alias).unwrap();
        let writers: Vec<_> = [real.join("grants"), alias.join("grants")]
            .into_iter()
            .enumerate()
            .map(|(writer, path)| {
                std::thread::spawn(move || {
                    for index in 0..40 {
                        let operation = format!("{writer}-{index}");
                        let matcher = jasper::GrantMatcher::exact(&args(&[&operation]));
                        add(&path, GrantEntry::new(600, matcher), 0).unwrap();
                    }
                })
            })
            .collect();
        for writer in writers {
            writer.join().unwrap();
        }
        assert_eq!(load(&real.join("grants")).entries().len(), 80);
    }

    #[test]
    fn a_corrupt_file_grants_nothing_and_is_replaced_on_the_next_grant() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("grants");
        std::fs::write(&path, "1784000000\tget pods\n").unwrap();
        assert!(load(&path).find(&args(&["get", "pods"]), 0).is_none());
        add(
            &path,
            GrantEntry::new(600, jasper::GrantMatcher::exact(&args(&["x"]))),
            0,
        )
        .unwrap();
        assert_eq!(load(&path).entries().len(), 1);
        assert!(load(&path).issues().is_empty());
    }
}
