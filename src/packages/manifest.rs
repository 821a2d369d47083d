//! `manifest.yaml` and the validation of a whole package before anything is installed.
//!
//! A package is declarative: a manifest naming its `provider.yaml`, a base `rules.yaml` whose
//! `deny` and `accept` are empty, an optional environment example, and optional read-only
//! setups. Every declared file must exist in the package; the provider must pass the registry's
//! rules; each setup's rules must compile with the provider's settings and satisfy their own
//! examples. A package that fails any check is refused whole.

use std::collections::BTreeSet;
use std::path::Path;

use serde::Deserialize;

use super::PackageError;
use super::limits::entry_path;
use crate::registry::{self, ProviderConfig, Version};
use crate::rules::{MAX_RULES_BYTES, PolicyFileError, compile, policy_settings};

/// The manifest's file name at the top of a package.
pub const MANIFEST_FILE: &str = "manifest.yaml";

/// Largest manifest, provider or environment example (the registry's own file cap).
const SMALL: u64 = 1024 * 1024;

/// A decoded `manifest.yaml`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    // Decoded only to be checked.
    #[allow(dead_code)]
    pub version: Version,
    /// The provider's name; also the directory it is installed in.
    pub name: String,
    pub package_version: String,
    pub description: String,
    /// Path of `provider.yaml` inside the package.
    pub provider: String,
    /// Path of the base rules (empty `deny` and `accept`).
    pub rules: String,
    /// Path of the example copied to the provider's `.env` at install.
    pub environment: Option<String>,
    #[serde(default)]
    pub setups: Vec<Setup>,
}

/// One curated policy the operator may apply with `torii provider setup`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    pub name: String,
    // Decoded only to be checked.
    #[allow(dead_code)]
    pub kind: SetupKind,
    pub description: String,
    /// Path of its `rules.yaml` inside the package.
    pub rules: String,
}

/// The kinds of setup; only read-only ones exist.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SetupKind {
    Readonly,
}

/// A package that passed every check, with the bytes of each declared file.
#[derive(Debug)]
pub struct Package {
    pub manifest: Manifest,
    pub provider: ProviderConfig,
    /// Every declared file as `(path in the package, bytes)`, the manifest first.
    pub files: Vec<(String, Vec<u8>)>,
}

impl Package {
    /// The bytes of a declared file.
    pub fn file(&self, path: &str) -> Option<&[u8]> {
        self.files
            .iter()
            .find(|(name, _)| name == path)
            .map(|(_, bytes)| bytes.as_slice())
    }

    /// The manifest's exact bytes.
    pub fn manifest_bytes(&self) -> &[u8] {
        self.file(MANIFEST_FILE).unwrap_or_default()
    }
}

/// Reads and validates the package whose top directory is `root`. `label` names the package's
/// origin (path or URL) in errors, since `root` is a staging directory about to disappear.
pub fn read_package(root: &Path, label: &str) -> Result<Package, PackageError> {
    let at = |file: &str| format!("{file} in {label}");
    let manifest_bytes = read_declared(root, MANIFEST_FILE, &at(MANIFEST_FILE), "manifest", SMALL)?;
    let manifest = parse_manifest(&at(MANIFEST_FILE), &manifest_bytes)?;
    let mut files = vec![(MANIFEST_FILE.to_string(), manifest_bytes)];

    let provider_bytes = read_declared(
        root,
        &manifest.provider,
        &at(MANIFEST_FILE),
        "provider",
        SMALL,
    )?;
    let provider = registry::parse_provider(Path::new(&at(&manifest.provider)), &provider_bytes)?;
    if provider.name != manifest.name {
        return Err(field(
            &at(MANIFEST_FILE),
            "name",
            format!(
                "{:?} must equal the provider's name {:?} in {}",
                manifest.name, provider.name, manifest.provider
            ),
        ));
    }
    files.push((manifest.provider.clone(), provider_bytes));

    let rules_bytes = read_declared(
        root,
        &manifest.rules,
        &at(MANIFEST_FILE),
        "rules",
        MAX_RULES_BYTES,
    )?;
    check_base_rules(&at(&manifest.rules), &rules_bytes)?;
    files.push((manifest.rules.clone(), rules_bytes));

    if let Some(environment) = &manifest.environment {
        let bytes = read_declared(root, environment, &at(MANIFEST_FILE), "environment", SMALL)?;
        check_environment(&at(environment), &bytes)?;
        files.push((environment.clone(), bytes));
    }

    let settings = policy_settings(&provider.policy);
    for (index, setup) in manifest.setups.iter().enumerate() {
        let bytes = read_declared(
            root,
            &setup.rules,
            &at(MANIFEST_FILE),
            &format!("setups[{index}].rules"),
            MAX_RULES_BYTES,
        )?;
        check_setup_rules(&at(&setup.rules), &bytes, &settings)?;
        files.push((setup.rules.clone(), bytes));
    }
    Ok(Package {
        manifest,
        provider,
        files,
    })
}

/// Decodes and checks a manifest on its own; `location` names it in errors.
pub fn parse_manifest(location: &str, bytes: &[u8]) -> Result<Manifest, PackageError> {
    let manifest: Manifest = decode(location, bytes)?;
    check_manifest(&manifest, location)?;
    Ok(manifest)
}

fn check_manifest(manifest: &Manifest, location: &str) -> Result<(), PackageError> {
    registry::check_name(&manifest.name).map_err(|message| field(location, "name", message))?;
    check_package_version(&manifest.package_version)
        .map_err(|message| field(location, "package_version", message))?;
    if manifest.description.trim().is_empty() {
        return Err(field(location, "description", "must not be empty".into()));
    }
    let mut names = BTreeSet::new();
    for (index, setup) in manifest.setups.iter().enumerate() {
        registry::check_name(&setup.name)
            .map_err(|message| field(location, &format!("setups[{index}].name"), message))?;
        if !names.insert(setup.name.as_str()) {
            return Err(field(
                location,
                &format!("setups[{index}].name"),
                format!("{:?} is declared twice", setup.name),
            ));
        }
        if setup.description.trim().is_empty() {
            return Err(field(
                location,
                &format!("setups[{index}].description"),
                "must not be empty".into(),
            ));
        }
    }
    Ok(())
}

/// Versions are shown and recorded, never compared: ASCII letters, digits, `.`, `-`, `+`,
/// `_`, at most 64 bytes.
pub(super) fn check_package_version(value: &str) -> Result<(), String> {
    if value.is_empty() || value.len() > 64 {
        return Err("must be 1 to 64 bytes long".into());
    }
    if let Some(bad) = value
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '+' | '_')))
    {
        return Err(format!("{value:?} contains {bad:?}"));
    }
    Ok(())
}

/// The base rules must give the operator an empty policy.
fn check_base_rules(location: &str, bytes: &[u8]) -> Result<(), PackageError> {
    let text = utf8(location, bytes)?;
    let rules = jasper::parse_rules(text).map_err(|source| PolicyFileError::Parse {
        path: location.into(),
        source,
    })?;
    if !rules.is_empty() {
        return Err(PackageError::Content {
            location: location.to_string(),
            message: format!(
                "a package's base rules must have empty `deny` and `accept`, found {} deny and {} \
                 accept rules; the whole package is refused (curated rules belong in a setup)",
                rules.deny.len(),
                rules.accept.len()
            ),
        });
    }
    Ok(())
}

fn check_environment(location: &str, bytes: &[u8]) -> Result<(), PackageError> {
    let text = utf8(location, bytes)?;
    crate::runner::dotenv::parse(text).map_err(|error| PackageError::Content {
        location: location.to_string(),
        message: error.to_string(),
    })?;
    Ok(())
}

fn check_setup_rules(
    location: &str,
    bytes: &[u8],
    settings: &jasper::PolicySettings,
) -> Result<(), PackageError> {
    let text = utf8(location, bytes)?;
    let (rules, policy) = compile(Path::new(location), text, settings)?;
    let failures = jasper::check_examples(&policy, &rules.examples);
    if let Some(first) = failures.first() {
        return Err(PackageError::Content {
            // The position is the first failing example's.
            location: strict_yaml::located(location, first.example.position).to_string(),
            message: format!(
                "{} of {} examples fail, first: {first}",
                failures.len(),
                rules.examples.len()
            ),
        });
    }
    Ok(())
}

/// Reads a file the manifest declares (`field`), refusing unsafe or missing paths.
fn read_declared(
    root: &Path,
    declared: &str,
    manifest_location: &str,
    field_name: &str,
    limit: u64,
) -> Result<Vec<u8>, PackageError> {
    let relative = entry_path(declared)
        .map_err(|reason| {
            field(
                manifest_location,
                field_name,
                format!("{declared:?}: {reason}"),
            )
        })?
        .ok_or_else(|| {
            field(
                manifest_location,
                field_name,
                format!("{declared:?} does not name a file"),
            )
        })?;
    let path = root.join(relative);
    match std::fs::symlink_metadata(&path) {
        Ok(metadata) if metadata.is_file() => {}
        Ok(_) => {
            return Err(field(
                manifest_location,
                field_name,
                format!("{declared:?} is not a file"),
            ));
        }
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            return Err(field(
                manifest_location,
                field_name,
                format!("{declared:?} is not in the package"),
            ));
        }
        Err(error) => return Err(PackageError::read(&path, error)),
    }
    let bytes = std::fs::read(&path).map_err(|error| PackageError::read(&path, error))?;
    if bytes.len() as u64 > limit {
        return Err(PackageError::TooLarge {
            location: declared.to_string(),
            limit,
        });
    }
    Ok(bytes)
}

fn decode<T: serde::de::DeserializeOwned>(location: &str, bytes: &[u8]) -> Result<T, PackageError> {
    let text = utf8(location, bytes)?;
    strict_yaml::from_str(text).map_err(|error| PackageError::Yaml {
        location: location.to_string(),
        position: error.position,
        message: error.message,
    })
}

fn utf8<'a>(location: &str, bytes: &'a [u8]) -> Result<&'a str, PackageError> {
    std::str::from_utf8(bytes).map_err(|_| PackageError::Content {
        location: location.to_string(),
        message: "not valid UTF-8".into(),
    })
}

fn field(location: &str, field: &str, message: String) -> PackageError {
    PackageError::Field {
        location: location.to_string(),
        field: field.to_string(),
        message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn package_versions_are_plain_tokens() {
        for good in ["0.1.0", "1.0.0-rc.1+build_2", "2024.10"] {
            assert!(check_package_version(good).is_ok(), "{good}");
        }
        for bad in ["", "1 0", "1/0", "v1\n"] {
            assert!(check_package_version(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn base_rules_must_be_empty() {
        assert!(check_base_rules("r", b"version: \"1.0\"\ndeny: []\naccept: []\n").is_ok());
        let error = check_base_rules("rules.yaml in pkg", b"accept: [\"s3 ls\"]\n").unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with("rules.yaml in pkg: a package's base rules must have empty"),
            "{error}"
        );
    }
}
