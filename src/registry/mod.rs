//! The provider registry: every installed provider and its targets, loaded once at startup.
//!
//! `Registry::load` walks `<root>/providers`, decodes each `provider.yaml` and
//! `targets/<alias>/target.yaml` with Jasper's strict YAML, validates every rule of the
//! manual's schema and refuses to start on the first invalid file. Changing providers or
//! targets needs a restart; rules, grants and leases are read per call by other modules.
//!
//! Files: `provider.rs`/`target.rs` (schema), `validate.rs` + `lexical.rs` (rules),
//! `load.rs` (file system), `loaded.rs` (validated shapes), `candidate.rs` (a target file
//! checked before `torii target add` writes it), `error.rs`.

mod candidate;
mod error;
mod lexical;
mod load;
mod loaded;
mod provider;
mod target;
mod validate;
mod version;

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

pub use error::RegistryError;
pub use lexical::{NAME_MAX_BYTES, check_name};
pub use load::parse_provider;
pub use loaded::{Provider, Target};
pub use provider::{
    Auth, AuthField, CommandSpec, DEFAULT_CACHE_TTL_SECONDS, DEFAULT_ENV_FILE,
    DEFAULT_MINIMUM_ACCEPT_TOKENS, Environment, IdentityProbe, IgnoreArgs, Inject, PolicyConfig,
    ProviderConfig, Strategy, Targeting, TargetingMode,
};
pub use target::{TargetConfig, TargetIdentity};
pub use validate::RESERVED_TOOL;
pub use version::Version;

/// Every installed provider, in load order (sorted by directory name).
#[derive(Debug, Default)]
pub struct Registry {
    providers: Vec<Arc<Provider>>,
    by_tool: BTreeMap<String, usize>,
    by_name: BTreeMap<String, usize>,
}

impl Registry {
    /// Loads `<root>/providers`. A missing directory or one without providers gives an empty
    /// registry (the caller reports `no providers installed`); any invalid file is an error.
    pub fn load(root: &Path) -> Result<Self, RegistryError> {
        let providers = load::load_providers(root)?;
        let mut by_tool = BTreeMap::new();
        let mut by_name = BTreeMap::new();
        for (index, provider) in providers.iter().enumerate() {
            by_tool.insert(provider.tool().to_string(), index);
            by_name.insert(provider.name().to_string(), index);
        }
        Ok(Self {
            providers,
            by_tool,
            by_name,
        })
    }

    /// Whether no provider is installed.
    pub fn is_empty(&self) -> bool {
        self.providers.is_empty()
    }

    /// Number of providers (one MCP tool each).
    pub fn len(&self) -> usize {
        self.providers.len()
    }

    /// Providers in load order.
    pub fn providers(&self) -> &[Arc<Provider>] {
        &self.providers
    }

    /// Providers in load order.
    pub fn iter(&self) -> std::slice::Iter<'_, Arc<Provider>> {
        self.providers.iter()
    }

    /// The provider publishing this MCP tool.
    pub fn by_tool(&self, tool: &str) -> Option<&Arc<Provider>> {
        self.by_tool
            .get(tool)
            .and_then(|index| self.providers.get(*index))
    }

    /// The provider with this logical `name`.
    pub fn by_name(&self, name: &str) -> Option<&Arc<Provider>> {
        self.by_name
            .get(name)
            .and_then(|index| self.providers.get(*index))
    }

    /// The provider whose lifecycle authenticates `target`: another provider for
    /// `kubectl_context`, the target's own provider for `aws_profile`. Loading guarantees it
    /// exists for every loaded target.
    pub fn identity_provider(&self, target: &Target) -> Option<&Arc<Provider>> {
        self.by_tool(target.identity_provider())
    }
}

/// For tests: a config root holding `files` (a path under the root and its text each), and the
/// registry loaded from it.
#[cfg(test)]
pub(crate) fn load_files(files: &[(&str, &str)]) -> (tempfile::TempDir, Registry) {
    let dir = tempfile::tempdir().unwrap();
    for (relative, text) in files {
        let path = dir.path().join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let registry = Registry::load(dir.path()).unwrap();
    (dir, registry)
}

impl<'a> IntoIterator for &'a Registry {
    type Item = &'a Arc<Provider>;
    type IntoIter = std::slice::Iter<'a, Arc<Provider>>;

    fn into_iter(self) -> Self::IntoIter {
        self.providers.iter()
    }
}
