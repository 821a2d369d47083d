//! Reads the configuration tree into validated providers.
//!
//! Layout: `<root>/providers/<dir>/provider.yaml` and
//! `<root>/providers/<dir>/targets/<alias>/target.yaml`. Hidden entries are skipped, as are
//! directories without the expected file; everything else must be valid or loading fails.
//! Order is deterministic (sorted by directory name). Each file is opened once and never
//! canonicalized.

use std::collections::BTreeMap;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::error::RegistryError;
use super::loaded::{PROVIDER_FILE, Provider, TARGET_FILE, TARGETS_DIR, Target};
use super::provider::{ProviderConfig, TargetingMode};
use super::target::TargetConfig;
use super::validate::{self, FieldError, Installed};

/// Loads and validates every provider under `<root>/providers`.
pub fn load_providers(root: &Path) -> Result<Vec<Arc<Provider>>, RegistryError> {
    let Some(dirs) = sorted_children(&root.join("providers"))? else {
        return Ok(Vec::new());
    };
    let mut providers = Vec::with_capacity(dirs.len());
    for dir in dirs {
        if let Some(provider) = load_provider(dir)? {
            providers.push(Arc::new(provider));
        }
    }
    let installed = check_unique(&providers)?;
    check_references(&providers, &installed)?;
    Ok(providers)
}

/// Decodes and validates one `provider.yaml` on its own, without its targets or the other
/// providers: what a package's provider must satisfy before it is installed. `path` names the
/// file in errors.
pub fn parse_provider(path: &Path, bytes: &[u8]) -> Result<ProviderConfig, RegistryError> {
    let config: ProviderConfig = decode(path, bytes)?;
    validate::check_provider(&config).map_err(|error| invalid(path, error))?;
    Ok(config)
}

fn load_provider(dir: PathBuf) -> Result<Option<Provider>, RegistryError> {
    let path = dir.join(PROVIDER_FILE);
    let Some(bytes) = read_if_present(&path)? else {
        return Ok(None);
    };
    let config: ProviderConfig = decode(&path, &bytes)?;
    validate::check_provider(&config).map_err(|error| invalid(&path, error))?;
    let targets = load_targets(&dir, &config)?;
    Ok(Some(Provider {
        dir,
        config,
        targets,
    }))
}

fn load_targets(
    provider_dir: &Path,
    config: &ProviderConfig,
) -> Result<BTreeMap<String, Arc<Target>>, RegistryError> {
    let mut targets = BTreeMap::new();
    let Some(dirs) = sorted_children(&provider_dir.join(TARGETS_DIR))? else {
        return Ok(targets);
    };
    for dir in dirs {
        let path = dir.join(TARGET_FILE);
        let Some(bytes) = read_if_present(&path)? else {
            continue;
        };
        let Some(targeting) = &config.targeting else {
            return Err(RegistryError::TargetWithoutTargeting {
                target: path,
                provider: provider_dir.join(PROVIDER_FILE),
            });
        };
        let target = load_target(dir, path, &bytes, targeting.mode)?;
        targets.insert(target.config.name.clone(), Arc::new(target));
    }
    Ok(targets)
}

fn load_target(
    dir: PathBuf,
    path: PathBuf,
    bytes: &[u8],
    mode: TargetingMode,
) -> Result<Target, RegistryError> {
    let config: TargetConfig = decode(&path, bytes)?;
    let directory = dir.file_name().and_then(|name| name.to_str());
    validate::check_target(&config, directory, mode).map_err(|error| invalid(&path, error))?;
    let scope = validate::resolved_scope(&config, mode).to_string();
    Ok(Target {
        dir,
        config,
        scope,
        // SHA-256 of the exact bytes read.
        binding_digest: crate::digest::sha256_hex(bytes),
    })
}

/// Names and tools are unique; the first provider (in load order) keeps them.
fn check_unique(providers: &[Arc<Provider>]) -> Result<Installed<'_>, RegistryError> {
    let mut installed = Installed {
        by_tool: BTreeMap::new(),
        by_name: BTreeMap::new(),
    };
    let mut first_path: BTreeMap<(&str, &str), &Provider> = BTreeMap::new();
    for provider in providers {
        for (field, value) in [("name", provider.name()), ("tool", provider.tool())] {
            if let Some(first) = first_path.insert((field, value), provider) {
                return Err(RegistryError::Duplicate {
                    field,
                    value: value.to_string(),
                    first: first.config_path(),
                    second: provider.config_path(),
                });
            }
        }
        installed.by_tool.insert(provider.tool(), &provider.config);
        installed.by_name.insert(provider.name(), &provider.config);
    }
    Ok(installed)
}

fn check_references(
    providers: &[Arc<Provider>],
    installed: &Installed<'_>,
) -> Result<(), RegistryError> {
    for provider in providers {
        for target in provider.targets.values() {
            validate::check_target_references(&target.config, &provider.config, installed)
                .map_err(|error| invalid(&target.config_path(), error))?;
        }
    }
    Ok(())
}

/// Visible child paths of `dir`, sorted by name; `None` when `dir` does not exist.
fn sorted_children(dir: &Path) -> Result<Option<Vec<PathBuf>>, RegistryError> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(error) if error.kind() == ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(io(dir, error)),
    };
    let mut children = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|error| io(dir, error))?;
        if !entry.file_name().as_encoded_bytes().starts_with(b".") {
            children.push(entry.path());
        }
    }
    // Siblings differ only in their names, so their bytes order them as paths would, without
    // `Path`'s component-by-component comparison (most of this function's cost otherwise).
    children.sort_unstable_by(|a, b| {
        a.as_os_str()
            .as_encoded_bytes()
            .cmp(b.as_os_str().as_encoded_bytes())
    });
    Ok(Some(children))
}

/// Far above any real provider or target file; keeps a stray huge file from being read whole.
const MAX_FILE_BYTES: u64 = crate::files::SMALL_FILE_BYTES;

/// The file's bytes, or `None` when nothing is at `path`. A FIFO, a dangling link or an
/// oversized file is an error that stops the load.
pub(super) fn read_if_present(path: &Path) -> Result<Option<Vec<u8>>, RegistryError> {
    crate::files::read_optional(path, MAX_FILE_BYTES).map_err(|error| io(path, error))
}

pub(super) fn decode<T: serde::de::DeserializeOwned>(
    path: &Path,
    bytes: &[u8],
) -> Result<T, RegistryError> {
    let text = std::str::from_utf8(bytes).map_err(|error| RegistryError::Yaml {
        path: path.to_path_buf(),
        position: None,
        message: format!("not valid UTF-8: {error}"),
    })?;
    strict_yaml::from_str(text).map_err(|error| RegistryError::Yaml {
        path: path.to_path_buf(),
        position: error.position,
        message: error.message,
    })
}

fn invalid(path: &Path, error: FieldError) -> RegistryError {
    RegistryError::Invalid {
        path: path.to_path_buf(),
        field: error.field,
        message: error.message,
    }
}

fn io(path: &Path, error: std::io::Error) -> RegistryError {
    RegistryError::Io {
        path: path.to_path_buf(),
        error,
    }
}
