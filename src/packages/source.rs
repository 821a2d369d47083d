//! Where a package comes from, and bringing it into a staging directory.
//!
//! `torii provider install <src>` tries, in order: an existing path (a package directory or an
//! archive file), an `https://` URL of an archive, then a name: one of the packages built into
//! torii unless `TORII_PROVIDER_CATALOG` names a catalog, else a name in the catalog. `upgrade`
//! rebuilds the same source from the recorded origin. Whatever the source, the package ends up
//! as plain files in staging, checked by the same rules, before anything else reads it.

use std::path::{Path, PathBuf};

use reqwest::Url;

use super::PackageError;
use super::catalog::{self, Catalog, Location};
use super::fetch::{download, https_url, read_local};
use super::limits::MAX_ARTEFACT_BYTES;
use super::lock::{Origin, OriginKind};
use super::manifest::{MANIFEST_FILE, Package, read_package};
use super::trust::Trust;
use super::{archive, builtin, tree};
use crate::digest::sha256_hex;
use crate::registry;
use crate::signature::KeyId;

/// A resolved package source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A local package directory (absolute).
    Directory(PathBuf),
    /// A local archive file (absolute).
    Archive(PathBuf),
    /// An archive at an `https://` URL.
    Url(Url),
    /// A name in the catalog at `catalog`.
    Catalog { name: String, catalog: Location },
    /// A package built into torii.
    BuiltIn(String),
}

impl Source {
    /// Resolves the argument of `torii provider install`.
    pub fn resolve(arg: &str) -> Result<Source, PackageError> {
        if let Some(source) = existing_path(Path::new(arg))? {
            return Ok(source);
        }
        if arg.contains("://") {
            return https_url(arg).map(Source::Url);
        }
        if builtin::has(arg) && !catalog::chosen() {
            return Ok(Source::BuiltIn(arg.to_string()));
        }
        if registry::check_name(arg).is_ok() {
            return Ok(Source::Catalog {
                name: arg.to_string(),
                catalog: catalog::configured()?,
            });
        }
        Err(PackageError::UnknownSource {
            arg: arg.to_string(),
        })
    }

    /// The source an upgrade fetches again: the recorded one, not the environment's.
    pub fn from_origin(origin: &Origin, lock_location: &str) -> Result<Source, PackageError> {
        match origin.kind {
            OriginKind::Path => {
                let path = PathBuf::from(&origin.location);
                existing_path(&path)?.ok_or_else(|| PackageError::Content {
                    location: lock_location.to_string(),
                    message: format!("the recorded origin {} no longer exists", origin.location),
                })
            }
            OriginKind::Url => https_url(&origin.location).map(Source::Url),
            OriginKind::Catalog => Ok(Source::Catalog {
                name: origin.location.clone(),
                catalog: Location::parse(origin.catalog.as_deref().unwrap_or_default())?,
            }),
            OriginKind::BuiltIn => Ok(Source::BuiltIn(origin.location.clone())),
        }
    }
}

fn existing_path(path: &Path) -> Result<Option<Source>, PackageError> {
    let metadata = match std::fs::metadata(path) {
        Ok(metadata) => metadata,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(PackageError::read(path, error)),
    };
    let absolute = std::path::absolute(path).map_err(|error| PackageError::read(path, error))?;
    Ok(Some(if metadata.is_dir() {
        Source::Directory(absolute)
    } else {
        Source::Archive(absolute)
    }))
}

/// A package brought into staging and validated.
#[derive(Debug)]
pub struct Staged {
    pub package: Package,
    /// The origin to record in the lock.
    pub origin: Origin,
    /// SHA-256 of the archive, or the directory's tree digest.
    pub sha256: String,
    /// What the package is called in messages (path or URL).
    pub label: String,
    /// The trusted key that vouched for it; `None` when unsigned (always for a directory,
    /// which has nowhere to carry a signature, and for a built-in package, which is part of
    /// this executable).
    pub signed_by: Option<KeyId>,
}

/// Brings `source` into the empty directory `staging` and validates the package. Signatures
/// are checked, and an unsigned source admitted or refused by `trust`, before anything is
/// extracted.
pub fn stage(source: &Source, staging: &Path, trust: &Trust) -> Result<Staged, PackageError> {
    let unpacked = staging.join("unpacked");
    crate::files::create_private_dir_all(&unpacked)
        .map_err(|error| PackageError::write(&unpacked, error))?;
    let (origin, sha256, label, expected, signed_by) = match source {
        Source::Directory(dir) => {
            let label = dir.display().to_string();
            trust.admit(&label, None)?;
            tree::copy_tree(dir, &unpacked)?;
            let digest = tree::tree_digest(&unpacked)?;
            (path_origin(dir)?, digest, label, None, None)
        }
        Source::Archive(path) => {
            let bytes = read_local(path, MAX_ARTEFACT_BYTES)?;
            let label = path.display().to_string();
            let signed_by = trust.check(&Location::Local(path.clone()), &bytes)?;
            trust.admit(&label, signed_by)?;
            archive::extract(&bytes, &unpacked, &label)?;
            (
                path_origin(path)?,
                sha256_hex(&bytes),
                label,
                None,
                signed_by,
            )
        }
        Source::Url(url) => {
            let bytes = download(url, MAX_ARTEFACT_BYTES)?;
            let label = url.to_string();
            let signed_by = trust.check(&Location::Remote(url.clone()), &bytes)?;
            trust.admit(&label, signed_by)?;
            archive::extract(&bytes, &unpacked, &label)?;
            let origin = Origin {
                kind: OriginKind::Url,
                location: label.clone(),
                catalog: None,
            };
            (origin, sha256_hex(&bytes), label, None, signed_by)
        }
        Source::Catalog { name, catalog } => {
            let catalog = Catalog::load(catalog.clone(), trust)?;
            let entry = catalog.find(name)?.clone();
            // The digest and the signature are checked here, before extraction.
            let (artefact, bytes, signed_by) = catalog.fetch_artefact(&entry, trust)?;
            let label = artefact.describe();
            let admitted = match catalog.signed_by {
                Some(_) => label.clone(),
                None => format!(
                    "{label}, listed by the unsigned catalog {},",
                    catalog.location.describe()
                ),
            };
            trust.admit(&admitted, signed_by)?;
            archive::extract(&bytes, &unpacked, &label)?;
            let origin = Origin {
                kind: OriginKind::Catalog,
                location: name.clone(),
                catalog: Some(catalog.location.describe()),
            };
            (origin, entry.sha256.clone(), label, Some(entry), signed_by)
        }
        Source::BuiltIn(name) => {
            builtin::unpack(name, &unpacked)?;
            let origin = Origin {
                kind: OriginKind::BuiltIn,
                location: name.clone(),
                catalog: None,
            };
            let label = format!(
                "the {name} package built into torii {}",
                env!("CARGO_PKG_VERSION")
            );
            (origin, tree::tree_digest(&unpacked)?, label, None, None)
        }
    };
    let root = package_root(&unpacked, &label)?;
    let package = read_package(&root, &label)?;
    if let Some(entry) = expected
        && (package.manifest.name != entry.name
            || package.manifest.package_version != entry.version)
    {
        return Err(PackageError::Content {
            location: label,
            message: format!(
                "the catalog lists {} {} but the package is {} {}",
                entry.name, entry.version, package.manifest.name, package.manifest.package_version
            ),
        });
    }
    Ok(Staged {
        package,
        origin,
        sha256,
        label,
        signed_by,
    })
}

fn path_origin(path: &Path) -> Result<Origin, PackageError> {
    let location = path
        .to_str()
        .ok_or_else(|| PackageError::Content {
            location: path.display().to_string(),
            message: "the path is not UTF-8, so it cannot be recorded for upgrades".into(),
        })?
        .to_string();
    Ok(Origin {
        kind: OriginKind::Path,
        location,
        catalog: None,
    })
}

/// The package's top directory: the unpacked root when it holds `manifest.yaml`, else its
/// single subdirectory when that holds it (archives made from a folder).
fn package_root(unpacked: &Path, label: &str) -> Result<PathBuf, PackageError> {
    if unpacked.join(MANIFEST_FILE).is_file() {
        return Ok(unpacked.to_path_buf());
    }
    let mut children = Vec::new();
    for entry in std::fs::read_dir(unpacked).map_err(|error| PackageError::read(unpacked, error))? {
        children.push(
            entry
                .map_err(|error| PackageError::read(unpacked, error))?
                .path(),
        );
    }
    if let [only] = children.as_slice()
        && only.is_dir()
        && only.join(MANIFEST_FILE).is_file()
    {
        return Ok(only.clone());
    }
    Err(PackageError::Content {
        location: label.to_string(),
        message: format!(
            "no {MANIFEST_FILE} at the top of the package or in its single top-level directory"
        ),
    })
}
