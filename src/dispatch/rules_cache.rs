//! The policy of one call: the effective `rules.yaml` is read from disk on every call (the
//! book's semantics: an edit applies to the next call without a restart), and compiled once per
//! distinct content.
//!
//! The cache is keyed by the text just read, never by timestamps or a digest of it, so a reused
//! compilation is always the compilation of exactly those bytes. Locating, reading and
//! compiling are the control plane's own functions (`crate::rules`), so `torii policy check`
//! judges a vector exactly as a call does.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::registry::{Provider, Target};
use crate::rules::{self, PolicyFileError};

/// (provider tool, the rules text).
type CacheKey = (String, String);
type Compiled = HashMap<CacheKey, Arc<jasper::Policy>>;

/// Compiled policies by (provider tool, content). Bounded: it is a cache, not a store.
#[derive(Debug, Default)]
pub struct RulesCache {
    compiled: Mutex<Compiled>,
}

const MAX_CACHED: usize = 256;

impl RulesCache {
    /// Reads the effective rules file of `target` (`None`: the provider's shared policy) now
    /// and compiles it. The read runs on the calling task, like every bounded read of a call's
    /// small files (see `crate::files::read_optional`).
    pub(super) fn load(
        &self,
        provider: &Arc<Provider>,
        target: Option<&Arc<Target>>,
    ) -> Result<Arc<jasper::Policy>, PolicyFileError> {
        let path = rules::effective(provider, target.map(Arc::as_ref))?.path;
        let text = rules::read_rules_text(&path)?;
        let key = (provider.tool().to_string(), text);
        if let Some(compiled) = self.lock().get(&key) {
            return Ok(Arc::clone(compiled));
        }
        let settings = rules::policy_settings(&provider.config().policy);
        let (_, compiled) = rules::compile(&path, &key.1, &settings)?;
        let compiled = Arc::new(compiled);
        let mut cache = self.lock();
        if cache.len() >= MAX_CACHED {
            cache.clear();
        }
        cache.insert(key, Arc::clone(&compiled));
        Ok(compiled)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Compiled> {
        // A poisoned cache only means another call panicked mid-insert; the map is still valid.
        self.compiled
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}
