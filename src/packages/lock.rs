//! `.torii-package/lock.yaml`: where an installed package came from, which version, and the
//! digest of what was installed. `upgrade` reads it to fetch the package again; `provider list`
//! shows its version and origin. Written only by install and upgrade, atomically.

use std::path::Path;

use serde::Deserialize;

use super::PackageError;
use crate::registry::{self, Version};
use crate::signature::KeyId;

/// Where a package was installed from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OriginKind {
    /// A local directory or archive (an absolute path).
    Path,
    /// An `https://` URL of an archive.
    Url,
    /// A name in a catalog `index.yaml`.
    Catalog,
    /// A package built into torii (see `packages::builtin`), by name.
    BuiltIn,
}

impl OriginKind {
    fn as_str(self) -> &'static str {
        match self {
            OriginKind::Path => "path",
            OriginKind::Url => "url",
            OriginKind::Catalog => "catalog",
            OriginKind::BuiltIn => "built_in",
        }
    }
}

/// The recorded origin.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Origin {
    pub kind: OriginKind,
    /// The absolute path, the URL, or the name in the catalog.
    pub location: String,
    /// The catalog's `index.yaml` (path or URL), for `kind: catalog` only.
    pub catalog: Option<String>,
}

impl Origin {
    /// How `provider list` shows it.
    pub fn describe(&self) -> String {
        match (self.kind, &self.catalog) {
            (OriginKind::Catalog, Some(catalog)) if catalog == super::catalog::DEFAULT_CATALOG => {
                "catalog".to_string()
            }
            (OriginKind::Catalog, Some(catalog)) => format!("catalog {catalog}"),
            (OriginKind::BuiltIn, _) => "built into torii".to_string(),
            _ => self.location.clone(),
        }
    }
}

/// A decoded lock file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lock {
    pub name: String,
    pub package_version: String,
    pub origin: Origin,
    /// Lowercase hex SHA-256 of the archive, or of the directory tree (see `tree_digest`).
    pub sha256: String,
    /// The trusted key whose signature vouched for the package (on its archive or on the
    /// catalog that pins its digest); `None` for an unsigned one. An upgrade of a signed
    /// package must be signed too.
    pub signed_by: Option<KeyId>,
    /// Epoch seconds of the install or the last upgrade.
    pub installed_at: u64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLock {
    #[allow(dead_code)]
    version: Version,
    name: String,
    package_version: String,
    origin: Origin,
    sha256: String,
    #[serde(default)]
    signed_by: Option<String>,
    installed_at: u64,
}

impl Lock {
    /// The file's text. Strings are written as JSON strings, which YAML reads unchanged.
    pub fn to_yaml(&self) -> String {
        let quote = |value: &str| serde_json::to_string(value).unwrap_or_default();
        let mut text = String::from(
            "# Written by `torii provider install` and `upgrade`; `upgrade` reads the origin.\n",
        );
        text.push_str("version: \"1\"\n");
        text.push_str(&format!("name: {}\n", quote(&self.name)));
        text.push_str(&format!(
            "package_version: {}\n",
            quote(&self.package_version)
        ));
        text.push_str("origin:\n");
        text.push_str(&format!("  kind: {}\n", self.origin.kind.as_str()));
        text.push_str(&format!("  location: {}\n", quote(&self.origin.location)));
        if let Some(catalog) = &self.origin.catalog {
            text.push_str(&format!("  catalog: {}\n", quote(catalog)));
        }
        text.push_str(&format!("sha256: {}\n", quote(&self.sha256)));
        if let Some(key) = self.signed_by {
            text.push_str(&format!("signed_by: \"{key}\"\n"));
        }
        text.push_str(&format!("installed_at: {}\n", self.installed_at));
        text
    }

    /// Parses and checks the text of the lock at `location` (used for messages).
    pub fn parse(location: &str, text: &str) -> Result<Lock, PackageError> {
        let raw: RawLock = strict_yaml::from_str(text).map_err(|error| PackageError::Yaml {
            location: location.to_string(),
            position: error.position,
            message: error.message,
        })?;
        let field = |field: &str, message: String| PackageError::Field {
            location: location.to_string(),
            field: field.to_string(),
            message,
        };
        registry::check_name(&raw.name).map_err(|message| field("name", message))?;
        if !crate::digest::is_sha256_hex(&raw.sha256) {
            return Err(field("sha256", "must be 64 hexadecimal digits".into()));
        }
        match (raw.origin.kind, &raw.origin.catalog) {
            (OriginKind::Catalog, None) => {
                return Err(field(
                    "origin.catalog",
                    "is required for a catalog origin".into(),
                ));
            }
            (OriginKind::Path | OriginKind::Url, Some(_)) => {
                return Err(field(
                    "origin.catalog",
                    "is only allowed for a catalog origin".into(),
                ));
            }
            _ => {}
        }
        if raw.origin.location.is_empty() {
            return Err(field("origin.location", "must not be empty".into()));
        }
        let signed_by = match &raw.signed_by {
            None => None,
            Some(text) => Some(KeyId::parse(text).ok_or_else(|| {
                field(
                    "signed_by",
                    format!("{text:?} is not a key id (16 hexadecimal digits)"),
                )
            })?),
        };
        Ok(Lock {
            name: raw.name,
            package_version: raw.package_version,
            origin: raw.origin,
            sha256: raw.sha256.to_ascii_lowercase(),
            signed_by,
            installed_at: raw.installed_at,
        })
    }

    /// Who vouched for the package, as `provider list` shows it: `key <id>`, `unsigned`, or
    /// `built in` for a package that is part of the torii executable.
    pub fn signature(&self) -> String {
        match (self.origin.kind, self.signed_by) {
            (OriginKind::BuiltIn, _) => "built in".to_string(),
            (_, Some(key)) => format!("key {key}"),
            (_, None) => "unsigned".to_string(),
        }
    }

    /// Reads the lock at `path`.
    pub fn load(path: &Path) -> Result<Lock, PackageError> {
        let text =
            std::fs::read_to_string(path).map_err(|error| PackageError::read(path, error))?;
        Lock::parse(&path.display().to_string(), &text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lock(kind: OriginKind, catalog: Option<&str>) -> Lock {
        Lock {
            name: "aws".into(),
            package_version: "0.1.0".into(),
            origin: Origin {
                kind,
                location: "/pkgs/a \"quoted\" path: yes\n".into(),
                catalog: catalog.map(str::to_string),
            },
            sha256: "ab".repeat(32),
            signed_by: None,
            installed_at: 1_784_000_000,
        }
    }

    #[test]
    fn round_trips() {
        for original in [
            lock(OriginKind::Path, None),
            lock(OriginKind::Url, None),
            lock(OriginKind::Catalog, Some("https://example.org/index.yaml")),
            Lock {
                signed_by: KeyId::parse("F560FCA80917EA64"),
                ..lock(OriginKind::Url, None)
            },
        ] {
            let parsed = Lock::parse("lock.yaml", &original.to_yaml()).unwrap();
            assert_eq!(parsed, original);
        }
    }

    #[test]
    fn corrupt_locks_name_the_file_and_field() {
        let good = lock(OriginKind::Path, None).to_yaml();
        let cases = [
            (good.replace(&"ab".repeat(32), "xyz"), "sha256"),
            (
                good.replace("kind: path", "kind: catalog"),
                "origin.catalog",
            ),
            (good.replace("name: \"aws\"", "name: \"../x\""), "name"),
            (good.replace("version: \"1\"", "version: \"9\""), ""),
            (good.replace("installed_at", "installed"), ""),
            (
                good.replace("installed_at", "signed_by: \"F560\"\ninstalled_at"),
                "signed_by",
            ),
            ("".to_string(), ""),
        ];
        for (text, field) in cases {
            let error = Lock::parse("/p/.torii-package/lock.yaml", &text).unwrap_err();
            let message = error.to_string();
            assert!(
                message.starts_with("/p/.torii-package/lock.yaml"),
                "{message}"
            );
            assert!(message.contains(field), "{message}");
        }
    }
}
