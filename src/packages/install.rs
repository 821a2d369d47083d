//! `torii provider install`: stage, validate, build the provider directory in staging, then
//! rename it into place. An existing destination, or a name or tool already used by an
//! installed provider, is refused; on any failure nothing is left behind.

use std::path::PathBuf;

use super::source::{Source, Staged, stage};
use super::trust::Trust;
use super::{PACKAGE_DIR, PackageError, fs, staging_dir, write_package_dir};
use crate::paths::ConfigRoot;
use crate::registry::Registry;
use crate::rules::EMPTY_POLICY;

/// What was installed.
#[derive(Debug)]
pub struct Installed {
    pub name: String,
    pub tool: String,
    pub package_version: String,
    pub dir: PathBuf,
    /// Setup names offered by the package.
    pub setups: Vec<String>,
    /// The package's origin as shown to the human.
    pub label: String,
    /// The trusted key that vouched for it, if it was signed.
    pub signed_by: Option<crate::signature::KeyId>,
    /// A package built into torii: part of this executable, with nothing to sign.
    pub built_in: bool,
}

/// Installs the package named by `arg` (path, `https://` URL or catalog name).
pub fn install(root: &ConfigRoot, arg: &str) -> Result<Installed, PackageError> {
    let source = Source::resolve(arg)?;
    let trust = Trust::load(root)?;
    let providers = root.providers_dir();
    let staging = staging_dir(&providers)?;
    let staged = stage(&source, staging.path(), &trust)?;
    let name = staged.package.manifest.name.clone();
    let dest = providers.join(&name);
    refuse_existing(&dest, &name)?;
    refuse_duplicates(root, &staged)?;

    let built = staging.path().join("install");
    build(&built, &staged)?;
    refuse_existing(&dest, &name)?;
    std::fs::rename(&built, &dest).map_err(|error| PackageError::write(&dest, error))?;
    Ok(Installed {
        tool: staged.package.provider.tool.clone(),
        package_version: staged.package.manifest.package_version.clone(),
        setups: staged
            .package
            .manifest
            .setups
            .iter()
            .map(|setup| setup.name.clone())
            .collect(),
        label: staged.label,
        signed_by: staged.signed_by,
        built_in: matches!(source, Source::BuiltIn(_)),
        dir: dest,
        name,
    })
}

fn refuse_existing(dest: &std::path::Path, name: &str) -> Result<(), PackageError> {
    match std::fs::symlink_metadata(dest) {
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(()),
        _ => Err(PackageError::Exists {
            path: dest.to_path_buf(),
            name: name.to_string(),
        }),
    }
}

/// Another installed provider (in any directory) must not have the same name or tool.
fn refuse_duplicates(root: &ConfigRoot, staged: &Staged) -> Result<(), PackageError> {
    let registry = Registry::load(root.dir())?;
    let location = format!("{} in {}", staged.package.manifest.provider, staged.label);
    let provider = &staged.package.provider;
    for (field, value, existing) in [
        ("name", &provider.name, registry.by_name(&provider.name)),
        ("tool", &provider.tool, registry.by_tool(&provider.tool)),
    ] {
        if let Some(existing) = existing {
            return Err(PackageError::Duplicate {
                location,
                field,
                value: value.clone(),
                other: existing.config_path(),
            });
        }
    }
    Ok(())
}

/// The provider directory: `provider.yaml`, an empty `rules.yaml`, the environment file from
/// the package's example, and `.torii-package/`.
fn build(dir: &std::path::Path, staged: &Staged) -> Result<(), PackageError> {
    let write = |path: &std::path::Path, bytes: &[u8]| {
        if let Some(parent) = path.parent() {
            crate::files::create_private_dir_all(parent)
                .map_err(|error| PackageError::write(parent, error))?;
        }
        fs::write_new_private(path, bytes).map_err(|error| PackageError::write(path, error))
    };
    let package = &staged.package;
    let provider_bytes = package.file(&package.manifest.provider).unwrap_or_default();
    write(&dir.join("provider.yaml"), provider_bytes)?;
    write(&dir.join("rules.yaml"), EMPTY_POLICY.as_bytes())?;
    if let Some(environment) = &package.manifest.environment {
        let bytes = package.file(environment).unwrap_or_default();
        write(&dir.join(&package.provider.environment.file), bytes)?;
    }
    write_package_dir(&dir.join(PACKAGE_DIR), staged)
}
