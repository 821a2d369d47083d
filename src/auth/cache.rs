//! The two small cache files of a bucket.
//!
//! `.session-cache` holds the epoch of the last successful validation; `.identity-cache` holds
//! the epoch and the identity the probe confirmed. Both are trusted only for their TTL, are
//! written atomically and owner-only, and anything unreadable counts as "no cache".

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::atomic::{self, Access, WriteError};

/// A cache is one short line or record; anything bigger is not one.
const MAX_CACHE_BYTES: u64 = 4096;

/// Whether `path` records a validation younger than `ttl_seconds`.
pub fn session_is_fresh(path: &Path, ttl_seconds: u64, now: u64) -> bool {
    let Ok(Some(text)) = crate::files::read_optional_text(path, MAX_CACHE_BYTES) else {
        return false;
    };
    text.trim()
        .parse::<u64>()
        .is_ok_and(|at| at <= now && now - at < ttl_seconds)
}

pub fn record_session(path: &Path, now: u64) -> Result<(), WriteError> {
    ensure_parent(path)?;
    atomic::write(path, format!("{now}\n").as_bytes(), Access::Private)
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct IdentityRecord {
    version: String,
    checked_at: u64,
    identity: String,
}

/// The identity confirmed within `ttl_seconds`, if any.
pub fn fresh_identity(path: &Path, ttl_seconds: u64, now: u64) -> Option<String> {
    let text = crate::files::read_optional_text(path, MAX_CACHE_BYTES).ok()??;
    let record: IdentityRecord = strict_yaml::from_str(&text).ok()?;
    let fresh =
        record.version == "1" && record.checked_at <= now && now - record.checked_at < ttl_seconds;
    fresh.then_some(record.identity)
}

pub fn record_identity(path: &Path, identity: &str, now: u64) -> Result<(), WriteError> {
    ensure_parent(path)?;
    let text = format!(
        "version: \"1\"\nchecked_at: {now}\nidentity: {}\n",
        serde_json::Value::String(identity.to_string())
    );
    atomic::write(path, text.as_bytes(), Access::Private)
}

/// Buckets are created on first use, owner-only.
pub fn ensure_parent(path: &Path) -> Result<(), WriteError> {
    let Some(dir) = path.parent() else {
        return Ok(());
    };
    crate::files::create_private_dir_all(dir).map_err(|source| WriteError {
        path: dir.to_path_buf(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn session_cache_respects_ttl_and_rejects_garbage() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("b/.session-cache");
        assert!(!session_is_fresh(&path, 300, 1000));
        record_session(&path, 1000).unwrap();
        assert!(session_is_fresh(&path, 300, 1000));
        assert!(session_is_fresh(&path, 300, 1299));
        assert!(!session_is_fresh(&path, 300, 1300));
        // A record from the future (clock moved back) is not trusted.
        assert!(!session_is_fresh(&path, 300, 999));
        std::fs::write(&path, "soon\n").unwrap();
        assert!(!session_is_fresh(&path, 300, 1000));
    }

    #[test]
    fn identity_cache_round_trips_and_expires() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(".identity-cache");
        record_identity(&path, "123456789012", 50).unwrap();
        assert_eq!(
            fresh_identity(&path, 10, 55).as_deref(),
            Some("123456789012")
        );
        assert_eq!(fresh_identity(&path, 10, 60), None);
        std::fs::write(&path, "not: [yaml").unwrap();
        assert_eq!(fresh_identity(&path, 10, 55), None);
    }
}
