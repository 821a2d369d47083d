//! Provider packages: declarative bundles (manifest, provider, empty base rules, environment
//! example, read-only setups) installed from a directory, an archive, an `https://` URL or the
//! catalog. Nothing from a package is ever executed.
//!
//! Invariant (policy belongs to the operator): `install` writes an empty `rules.yaml`;
//! `setup` is the only writer of rules and only over an empty policy; `upgrade` replaces only
//! `provider.yaml` and `.torii-package/` and never opens rules, `.env`, grants, targets,
//! identities, caches or credentials for writing.
//!
//! Files: `source.rs` (resolution and staging), `fetch.rs` (HTTPS and local reads),
//! `catalog.rs` (`index.yaml`), `trust.rs` (signatures and the keys trusted), `archive.rs` +
//! `tree.rs` + `limits.rs` (unpacking safely),
//! `manifest.rs` (validating a package), `lock.rs` (`.torii-package/lock.yaml`),
//! `install.rs`, `setup.rs`, `upgrade.rs`, `error.rs`.

mod archive;
pub mod builtin;
pub mod catalog;
mod error;
pub mod fetch;
pub(crate) mod fs;
mod install;
pub mod limits;
pub mod lock;
pub mod manifest;
mod setup;
pub mod source;
mod tree;
pub mod trust;
mod upgrade;

use std::path::{Path, PathBuf};

pub use error::PackageError;
pub use install::install;
pub use setup::setup;
pub use trust::Trust;
pub use upgrade::upgrade;

/// Package metadata inside an installed provider: manifest, lock and the package's files.
pub const PACKAGE_DIR: &str = ".torii-package";
/// The package's declared files, under [`PACKAGE_DIR`].
pub const CONTENT_DIR: &str = "content";
/// The lock, under [`PACKAGE_DIR`].
pub const LOCK_FILE: &str = "lock.yaml";

/// `<provider dir>/.torii-package/lock.yaml`.
pub fn lock_path(provider_dir: &Path) -> PathBuf {
    provider_dir.join(PACKAGE_DIR).join(LOCK_FILE)
}

/// `<provider dir>/.torii-package/manifest.yaml`.
pub fn manifest_path(provider_dir: &Path) -> PathBuf {
    provider_dir.join(PACKAGE_DIR).join(manifest::MANIFEST_FILE)
}

/// The lock of an installed provider: `None` when it was not installed from a package.
pub fn read_lock(provider_dir: &Path) -> Option<Result<lock::Lock, PackageError>> {
    let path = lock_path(provider_dir);
    match std::fs::symlink_metadata(&path) {
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => None,
        _ => Some(lock::Lock::load(&path)),
    }
}

/// A fresh hidden staging directory inside `<root>/providers/` (same file system, so the final
/// rename is atomic; hidden, so the registry never loads it). Removed when dropped.
/// A staging directory inside `providers/`, so that the finished provider is renamed into
/// place on the same file system. Dropped, it removes itself and then the directories it had
/// to create on the way (`providers/`, even the root), as far as they are still empty: a
/// failed install into a root that did not exist leaves nothing behind.
struct Staging {
    dir: PathBuf,
    /// Created for the staging directory, deepest first.
    created: Vec<PathBuf>,
}

impl Staging {
    fn path(&self) -> &Path {
        &self.dir
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
        for dir in &self.created {
            // Fails, as it should, once the directory holds anything (the installed provider).
            if std::fs::remove_dir(dir).is_err() {
                break;
            }
        }
    }
}

fn staging_dir(providers: &Path) -> Result<Staging, PackageError> {
    let created: Vec<PathBuf> = providers
        .ancestors()
        .take_while(|dir| !dir.as_os_str().is_empty() && std::fs::symlink_metadata(dir).is_err())
        .map(Path::to_path_buf)
        .collect();
    crate::files::create_private_dir_all(providers)
        .map_err(|error| PackageError::write(providers, error))?;
    let dir = tempfile::Builder::new()
        .prefix(".torii-staging-")
        .tempdir_in(providers)
        .map_err(|error| PackageError::write(providers, error))?;
    Ok(Staging {
        dir: dir.keep(),
        created,
    })
}

/// Archive extraction into `dest`, for the fuzz target.
#[cfg(any(test, feature = "fuzzing"))]
pub(crate) fn fuzz_extract(bytes: &[u8], dest: &Path) -> Result<(), PackageError> {
    archive::extract(bytes, dest, "fuzz input")
}

/// Seconds since the epoch, for the lock.
fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|elapsed| elapsed.as_secs())
        .unwrap_or(0)
}

/// Writes `.torii-package/` for a staged package into the new directory `dir`.
fn write_package_dir(dir: &Path, staged: &source::Staged) -> Result<(), PackageError> {
    let create = |path: &Path| {
        crate::files::create_private_dir_all(path).map_err(|error| PackageError::write(path, error))
    };
    let write = |path: &Path, bytes: &[u8]| {
        fs::write_new_private(path, bytes).map_err(|error| PackageError::write(path, error))
    };
    create(dir)?;
    write(
        &dir.join(manifest::MANIFEST_FILE),
        staged.package.manifest_bytes(),
    )?;
    let lock = lock::Lock {
        name: staged.package.manifest.name.clone(),
        package_version: staged.package.manifest.package_version.clone(),
        origin: staged.origin.clone(),
        sha256: staged.sha256.clone(),
        signed_by: staged.signed_by,
        installed_at: now(),
    };
    write(&dir.join(LOCK_FILE), lock.to_yaml().as_bytes())?;
    let content = dir.join(CONTENT_DIR);
    for (name, bytes) in &staged.package.files {
        // Declared paths were checked by `read_package`; re-derive the safe relative form.
        let relative =
            limits::entry_path(name)
                .ok()
                .flatten()
                .ok_or_else(|| PackageError::Content {
                    location: staged.label.clone(),
                    message: format!("{name:?} is not a safe path"),
                })?;
        let path = content.join(relative);
        if let Some(parent) = path.parent() {
            create(parent)?;
        }
        // The same file may be declared twice (e.g. two setups sharing rules).
        if !path.exists() {
            write(&path, bytes)?;
        }
    }
    Ok(())
}
