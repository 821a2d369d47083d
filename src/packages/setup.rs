//! `torii provider setup <provider> <setup>`: the only command that writes a provider's rules,
//! and only over an empty policy. The setup comes from the package installed with the
//! provider (`.torii-package/`), is compiled with the provider's current settings and must
//! satisfy its own examples before it is written.

use std::path::PathBuf;

use super::manifest::parse_manifest;
use super::{CONTENT_DIR, PACKAGE_DIR, PackageError, limits, manifest_path};
use crate::atomic::{self, Access};
use crate::registry::Provider;
use crate::rules::{PolicyFileError, compile, policy_settings, read_rules_text};

/// What a setup wrote.
#[derive(Debug)]
pub struct Applied {
    pub path: PathBuf,
    pub deny: usize,
    pub accept: usize,
    pub examples: usize,
    /// Prefix accepts narrower than `minimum_accept_tokens` (never allow anything).
    pub ignored_accepts: Vec<String>,
}

/// Applies the setup `name` of `provider`'s package to its shared `rules.yaml`.
pub fn setup(provider: &Provider, name: &str) -> Result<Applied, PackageError> {
    let manifest_file = manifest_path(provider.dir());
    let bytes = match std::fs::read(&manifest_file) {
        Ok(bytes) => bytes,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            return Err(PackageError::NotPackaged {
                name: provider.name().to_string(),
                path: manifest_file,
                what: "setups",
            });
        }
        Err(error) => return Err(PackageError::read(&manifest_file, error)),
    };
    let manifest = parse_manifest(&manifest_file.display().to_string(), &bytes)?;
    let Some(setup) = manifest.setups.iter().find(|setup| setup.name == name) else {
        let available: Vec<&str> = manifest.setups.iter().map(|s| s.name.as_str()).collect();
        return Err(PackageError::UnknownSetup {
            package: manifest.name.clone(),
            setup: name.to_string(),
            available: if available.is_empty() {
                "none".into()
            } else {
                available.join(", ")
            },
        });
    };
    let relative = limits::entry_path(&setup.rules)
        .ok()
        .flatten()
        .ok_or_else(|| PackageError::Field {
            location: manifest_file.display().to_string(),
            field: "setups.rules".into(),
            message: format!("{:?} is not a safe path", setup.rules),
        })?;
    let setup_path = provider
        .dir()
        .join(PACKAGE_DIR)
        .join(CONTENT_DIR)
        .join(relative);
    let text = read_rules_text(&setup_path)?;
    let settings = policy_settings(&provider.config().policy);
    let (rules, policy) = compile(&setup_path, &text, &settings)?;
    let failures = jasper::check_examples(&policy, &rules.examples);
    if let Some(first) = failures.first() {
        return Err(PackageError::Content {
            // The position is the first failing example's.
            location: strict_yaml::located(setup_path.display(), first.example.position)
                .to_string(),
            message: format!(
                "{} of {} examples fail with this provider's settings, first: {first}",
                failures.len(),
                rules.examples.len()
            ),
        });
    }

    let live = provider.rules_path();
    refuse_non_empty(provider, &live)?;
    atomic::write(&live, text.as_bytes(), Access::Private)?;
    Ok(Applied {
        path: live,
        deny: rules.deny.len(),
        accept: rules.accept.len(),
        examples: rules.examples.len(),
        ignored_accepts: policy.ignored_accepts().to_vec(),
    })
}

/// A missing file is empty; a file that cannot be read or parsed is not known to be empty.
fn refuse_non_empty(provider: &Provider, live: &std::path::Path) -> Result<(), PackageError> {
    let text = match read_rules_text(live) {
        Ok(text) => text,
        Err(PolicyFileError::NotFound { .. }) => return Ok(()),
        Err(error) => return Err(error.into()),
    };
    let rules = jasper::parse_rules(&text).map_err(|source| PolicyFileError::Parse {
        path: live.to_path_buf(),
        source,
    })?;
    if rules.is_empty() && rules.examples.is_empty() {
        return Ok(());
    }
    Err(PackageError::PolicyNotEmpty {
        path: live.to_path_buf(),
        tool: provider.tool().to_string(),
        deny: rules.deny.len(),
        accept: rules.accept.len(),
        examples: rules.examples.len(),
    })
}
