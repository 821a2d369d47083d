//! The policy of one call: `rules.yaml` is read from disk on every call (the book's semantics:
//! an edit applies to the next call without a restart), and compiled once per distinct content.
//!
//! The cache is keyed by the SHA-256 of the bytes just read, never by timestamps, so a reused
//! compilation is always the compilation of exactly those bytes.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use sha2::{Digest, Sha256};

use crate::registry::{Provider, Target};

/// A policy that could not be loaded; the call fails closed.
#[derive(Debug, thiserror::Error)]
pub enum PolicyLoadError {
    #[error("rules file not found: {}", path.display())]
    NotFound { path: PathBuf },
    #[error("cannot read {}: {source}", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}: not valid UTF-8", path.display())]
    NotUtf8 { path: PathBuf },
    #[error("{}: {source}", path.display())]
    Parse {
        path: PathBuf,
        #[source]
        source: jasper::RulesError,
    },
    #[error("{}: {source}", path.display())]
    Compile {
        path: PathBuf,
        #[source]
        source: jasper::PolicyError,
    },
}

/// The rules file that applies: the target's own `rules.yaml` replaces the shared one.
pub fn effective_rules_path(provider: &Provider, target: Option<&Target>) -> PathBuf {
    match target {
        Some(target) if target.rules_path().is_file() => target.rules_path(),
        _ => provider.rules_path(),
    }
}

/// (provider tool, SHA-256 of the rules bytes).
type CacheKey = (String, [u8; 32]);
type Compiled = HashMap<CacheKey, Arc<jasper::Policy>>;

/// Compiled policies by (provider tool, content hash). Bounded: it is a cache, not a store.
#[derive(Debug, Default)]
pub struct PolicyCache {
    compiled: Mutex<Compiled>,
}

const MAX_CACHED: usize = 256;

impl PolicyCache {
    /// Reads the effective rules file now and returns its compiled policy.
    pub async fn load(
        &self,
        provider: &Provider,
        target: Option<&Target>,
    ) -> Result<Arc<jasper::Policy>, PolicyLoadError> {
        let path = effective_rules_path(provider, target);
        let bytes = read(&path).await?;
        let key = (provider.tool().to_string(), Sha256::digest(&bytes).into());
        if let Some(policy) = self.lock().get(&key) {
            return Ok(Arc::clone(policy));
        }
        let policy = Arc::new(compile(
            &path,
            &bytes,
            &provider.config().policy.settings(),
        )?);
        let mut compiled = self.lock();
        if compiled.len() >= MAX_CACHED {
            compiled.clear();
        }
        compiled.insert(key, Arc::clone(&policy));
        Ok(policy)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Compiled> {
        // A poisoned cache only means another call panicked mid-insert; the map is still valid.
        self.compiled
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

async fn read(path: &Path) -> Result<Vec<u8>, PolicyLoadError> {
    match tokio::fs::read(path).await {
        Ok(bytes) => Ok(bytes),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            Err(PolicyLoadError::NotFound {
                path: path.to_path_buf(),
            })
        }
        Err(source) => Err(PolicyLoadError::Read {
            path: path.to_path_buf(),
            source,
        }),
    }
}

/// Parses and compiles `bytes` read from `path`.
pub fn compile(
    path: &Path,
    bytes: &[u8],
    settings: &jasper::PolicySettings,
) -> Result<jasper::Policy, PolicyLoadError> {
    let text = std::str::from_utf8(bytes).map_err(|_| PolicyLoadError::NotUtf8 {
        path: path.to_path_buf(),
    })?;
    let rules = jasper::parse_rules(text).map_err(|source| PolicyLoadError::Parse {
        path: path.to_path_buf(),
        source,
    })?;
    jasper::Policy::compile(&rules, settings).map_err(|source| PolicyLoadError::Compile {
        path: path.to_path_buf(),
        source,
    })
}
