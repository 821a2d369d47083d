//! `torii provider upgrade <provider>`: fetch the package again from the recorded origin and
//! replace only `provider.yaml` and `.torii-package/`.
//!
//! Rules, `.env`, grants, targets, leases, identities, caches and credentials are never opened
//! for writing: the new metadata is built in staging, swapped in by renames, and
//! `provider.yaml` is replaced atomically. The package must keep its name, tool and targeting
//! mode, which targets, leases and other providers depend on.

use super::lock::Lock;
use super::source::{Source, stage};
use super::trust::Trust;
use super::{PACKAGE_DIR, PackageError, lock_path, staging_dir, write_package_dir};
use crate::atomic::{self, Access};
use crate::paths::ConfigRoot;
use crate::registry::Provider;
use crate::signature::KeyId;

/// What an upgrade changed.
#[derive(Debug)]
pub struct Upgraded {
    pub name: String,
    pub from_version: String,
    pub to_version: String,
    pub label: String,
    /// The trusted key that vouched for the new version, if it was signed.
    pub signed_by: Option<crate::signature::KeyId>,
    /// A package built into torii: part of this executable, with nothing to sign.
    pub built_in: bool,
    /// Whether the package's environment example differs from the installed one (the
    /// operator's `.env` is not touched either way).
    pub environment_changed: bool,
}

/// Upgrades `provider` from the origin in its lock. A package installed signed must be signed
/// again by the same key (another release key for an official one), or by `accept_key`.
pub fn upgrade(
    root: &ConfigRoot,
    provider: &Provider,
    accept_key: Option<KeyId>,
) -> Result<Upgraded, PackageError> {
    let dir = provider.dir();
    let lock_file = lock_path(dir);
    if !lock_file.exists() {
        return Err(PackageError::NotPackaged {
            name: provider.name().to_string(),
            path: lock_file,
            what: "origin",
        });
    }
    let lock = Lock::load(&lock_file)?;
    let source = Source::from_origin(&lock.origin, &lock_file.display().to_string())?;
    // Whoever can serve the origin, or holds another trusted key, must not be able to turn a
    // signed package into an unsigned one or one of theirs, whatever `unsigned_packages` says.
    let trust = Trust::load(root)?.for_upgrade(&lock.name, lock.signed_by, accept_key);
    let staging = staging_dir(&root.providers_dir())?;
    let staged = stage(&source, staging.path(), &trust)?;

    let location = format!("{} in {}", staged.package.manifest.provider, staged.label);
    let new = &staged.package.provider;
    let old = provider.config();
    let unchanged = |field, old: &str, new: &str| {
        if old == new {
            Ok(())
        } else {
            Err(PackageError::UpgradeChanges {
                location: location.clone(),
                field,
                old: old.to_string(),
                new: new.to_string(),
            })
        }
    };
    unchanged("name", &old.name, &new.name)?;
    unchanged("name", &lock.name, &new.name)?;
    unchanged("tool", &old.tool, &new.tool)?;
    let mode = |config: &crate::registry::ProviderConfig| {
        config
            .targeting
            .as_ref()
            .map(|targeting| format!("{:?}", targeting.mode))
            .unwrap_or_else(|| "none".into())
    };
    unchanged("targeting.mode", &mode(old), &mode(new))?;

    let environment_changed = environment_changed(provider, &staged);
    let built = staging.path().join("package");
    write_package_dir(&built, &staged)?;
    let live = dir.join(PACKAGE_DIR);
    let parked = staging.path().join("previous");
    std::fs::rename(&live, &parked).map_err(|error| PackageError::write(&live, error))?;
    if let Err(error) = std::fs::rename(&built, &live) {
        let _ = std::fs::rename(&parked, &live);
        return Err(PackageError::write(&live, error));
    }
    let provider_bytes = staged
        .package
        .file(&staged.package.manifest.provider)
        .unwrap_or_default();
    if let Err(error) = atomic::write(&provider.config_path(), provider_bytes, Access::Private) {
        // Put the previous metadata back so lock and provider.yaml stay consistent.
        let _ = std::fs::rename(&live, staging.path().join("rejected"));
        let _ = std::fs::rename(&parked, &live);
        return Err(error.into());
    }
    Ok(Upgraded {
        name: new.name.clone(),
        from_version: lock.package_version,
        to_version: staged.package.manifest.package_version.clone(),
        label: staged.label.clone(),
        signed_by: staged.signed_by,
        built_in: matches!(source, Source::BuiltIn(_)),
        environment_changed,
    })
}

/// Compares the new environment example with the one installed before (read only).
fn environment_changed(provider: &Provider, staged: &super::source::Staged) -> bool {
    let package = &staged.package;
    let new = package
        .manifest
        .environment
        .as_ref()
        .and_then(|path| package.file(path));
    let old_manifest = super::manifest_path(provider.dir());
    let old = std::fs::read(&old_manifest)
        .ok()
        .and_then(|bytes| super::manifest::parse_manifest("", &bytes).ok())
        .and_then(|manifest| manifest.environment)
        .and_then(|path| super::limits::entry_path(&path).ok().flatten())
        .and_then(|relative| {
            std::fs::read(
                provider
                    .dir()
                    .join(PACKAGE_DIR)
                    .join(super::CONTENT_DIR)
                    .join(relative),
            )
            .ok()
        });
    new != old.as_deref()
}
