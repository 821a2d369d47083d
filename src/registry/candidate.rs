//! Checking a `target.yaml` before it exists, with exactly the loader's rules.
//!
//! `torii target add` builds the file text, asks this module whether the registry would load
//! it (decoding, field rules, references to installed providers) and only then writes it, so
//! the control plane can never create a target that stops the server at its next start.

use std::collections::BTreeMap;
use std::path::Path;

use super::Registry;
use super::error::RegistryError;
use super::load::decode;
use super::loaded::Provider;
use super::target::TargetConfig;
use super::validate::{self, FieldError, Installed};

impl Registry {
    /// Decodes and validates `bytes` as the `target.yaml` that would be written at `path`
    /// (`<provider dir>/targets/<alias>/target.yaml`) under `provider`. Errors name `path`
    /// and the field, as they would at load time.
    pub fn check_target_candidate(
        &self,
        provider: &Provider,
        path: &Path,
        bytes: &[u8],
    ) -> Result<TargetConfig, RegistryError> {
        let Some(targeting) = &provider.config.targeting else {
            return Err(RegistryError::TargetWithoutTargeting {
                target: path.to_path_buf(),
                provider: provider.config_path(),
            });
        };
        let invalid = |error: FieldError| RegistryError::Invalid {
            path: path.to_path_buf(),
            field: error.field,
            message: error.message,
        };
        let config: TargetConfig = decode(path, bytes)?;
        let directory = path
            .parent()
            .and_then(Path::file_name)
            .and_then(|name| name.to_str());
        validate::check_target(&config, directory, targeting.mode).map_err(invalid)?;
        let mut installed = Installed {
            by_tool: BTreeMap::new(),
            by_name: BTreeMap::new(),
        };
        for other in &self.providers {
            installed.by_tool.insert(other.tool(), &other.config);
            installed.by_name.insert(other.name(), &other.config);
        }
        validate::check_target_references(&config, &provider.config, &installed)
            .map_err(invalid)?;
        Ok(config)
    }
}
