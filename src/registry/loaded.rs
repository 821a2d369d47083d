//! The validated provider and target shapes the rest of Torii works with.
//!
//! They can only be built by `load`, so holding one means its configuration passed every
//! rule. Paths are derived here, in one place, from the layout in the manual.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::error::RegistryError;
use super::provider::ProviderConfig;
use super::target::TargetConfig;

pub(crate) const PROVIDER_FILE: &str = "provider.yaml";
pub(crate) const TARGET_FILE: &str = "target.yaml";
pub(crate) const TARGETS_DIR: &str = "targets";
const RULES_FILE: &str = "rules.yaml";
const GRANTS_FILE: &str = "grants";
const TARGET_ENV_FILE: &str = ".env";
const IDENTITIES_DIR: &str = "identities";

/// An installed provider: `<root>/providers/<dir>/provider.yaml` and its targets.
#[derive(Debug)]
pub struct Provider {
    pub(crate) dir: PathBuf,
    pub(crate) config: ProviderConfig,
    pub(crate) targets: BTreeMap<String, Arc<Target>>,
}

impl Provider {
    /// The provider directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The decoded and validated `provider.yaml`.
    pub fn config(&self) -> &ProviderConfig {
        &self.config
    }

    /// `name` from `provider.yaml`.
    pub fn name(&self) -> &str {
        &self.config.name
    }

    /// The MCP tool name.
    pub fn tool(&self) -> &str {
        &self.config.tool
    }

    /// Targets by alias, sorted. Empty unless the provider is target-aware.
    pub fn targets(&self) -> &BTreeMap<String, Arc<Target>> {
        &self.targets
    }

    /// The target with this alias, shared so that a call holds the one it resolved (work off
    /// the async workers never looks an alias up again).
    pub fn target(&self, alias: &str) -> Option<&Arc<Target>> {
        self.targets.get(alias)
    }

    /// Whether calls must name a target (the provider declares `targeting`).
    pub fn is_target_aware(&self) -> bool {
        self.config.targeting.is_some()
    }

    /// `provider.yaml` itself.
    pub fn config_path(&self) -> PathBuf {
        self.dir.join(PROVIDER_FILE)
    }

    /// Where aliases live, `<dir>/targets`; alias `a` is `<dir>/targets/a/target.yaml`.
    pub fn targets_dir(&self) -> PathBuf {
        self.dir.join(TARGETS_DIR)
    }

    /// The shared policy, `<dir>/rules.yaml`.
    pub fn rules_path(&self) -> PathBuf {
        self.dir.join(RULES_FILE)
    }

    /// The persistent environment, `<dir>/<environment.file>` (default `.env`).
    pub fn env_file_path(&self) -> PathBuf {
        self.dir.join(&self.config.environment.file)
    }

    /// Temporary grants of a provider that is not target-aware, `<dir>/grants`.
    pub fn grants_path(&self) -> PathBuf {
        self.dir.join(GRANTS_FILE)
    }

    /// The credential bucket `<dir>/identities/<scope>` when this provider authenticates.
    /// `scope` is a validated target scope, or [`Provider::default_scope`].
    pub fn identity_dir(&self, scope: &str) -> PathBuf {
        self.dir.join(IDENTITIES_DIR).join(scope)
    }

    /// The bucket a call without a target authenticates in: the tool name.
    pub fn default_scope(&self) -> &str {
        &self.config.tool
    }
}

/// A human alias: `<provider dir>/targets/<alias>/target.yaml`.
#[derive(Debug)]
pub struct Target {
    pub(crate) dir: PathBuf,
    pub(crate) config: TargetConfig,
    pub(crate) scope: String,
    pub(crate) binding_digest: String,
}

impl Target {
    /// The target directory, `targets/<alias>`.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The decoded and validated `target.yaml`.
    pub fn config(&self) -> &TargetConfig {
        &self.config
    }

    /// The alias (equal to the directory name).
    pub fn alias(&self) -> &str {
        &self.config.name
    }

    /// Tool of the provider whose lifecycle authenticates this target.
    pub fn identity_provider(&self) -> &str {
        &self.config.identity.provider
    }

    /// The credential bucket: `identity.scope`, else the profile (`aws_profile`), else the alias.
    pub fn scope(&self) -> &str {
        &self.scope
    }

    /// SHA-256 (lowercase hex) of the `target.yaml` bytes as loaded; leases bind to it.
    pub fn binding_digest(&self) -> &str {
        &self.binding_digest
    }

    /// The same digest computed from `target.yaml` as it is on disk now, read exactly as the
    /// loader reads it; `None` once the file is gone. A running server compares it with
    /// [`Target::binding_digest`] to notice an alias edited, removed or recreated after load.
    pub fn current_binding_digest(&self) -> Result<Option<String>, RegistryError> {
        let bytes = super::load::read_if_present(&self.config_path())?;
        Ok(bytes.map(|bytes| crate::digest::sha256_hex(&bytes)))
    }

    /// `target.yaml` itself.
    pub fn config_path(&self) -> PathBuf {
        self.dir.join(TARGET_FILE)
    }

    /// The target's own policy; when it exists it replaces the provider's.
    pub fn rules_path(&self) -> PathBuf {
        self.dir.join(RULES_FILE)
    }

    /// The target's `.env`; its keys override the provider's.
    pub fn env_file_path(&self) -> PathBuf {
        self.dir.join(TARGET_ENV_FILE)
    }

    /// The target's temporary grants.
    pub fn grants_path(&self) -> PathBuf {
        self.dir.join(GRANTS_FILE)
    }
}
