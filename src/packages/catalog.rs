//! The provider catalog: an `index.yaml` listing packages by name, version, description,
//! source and SHA-256. Read fresh on every `search` and catalog `install`; there is no local
//! copy to update.
//!
//! The catalog is the official index unless `TORII_PROVIDER_CATALOG` names another one, as a
//! local path or an `https://` URL. A `source` is resolved relative to the index's location;
//! remote artefacts must be `https://`. A catalog may be signed (`index.yaml.minisig` beside
//! it, see `trust.rs`): its entries' digests then vouch for every archive it lists.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use reqwest::Url;
use serde::Deserialize;

use super::PackageError;
use super::fetch::{check_https, download, download_optional, https_url, read_local};
use super::limits::MAX_ARTEFACT_BYTES;
use super::trust::Trust;
use crate::registry::{self, Version};
use crate::signature::KeyId;

/// The official catalog.
pub const DEFAULT_CATALOG: &str =
    "https://raw.githubusercontent.com/torii-mcp/torii-canon-providers/main/index.yaml";

/// Replaces the official catalog with a local path or an `https://` URL.
pub const CATALOG_ENV: &str = "TORII_PROVIDER_CATALOG";

/// Largest `index.yaml` read.
const MAX_INDEX_BYTES: u64 = 4 * 1024 * 1024;

/// A local file or an `https://` URL: a catalog index or an artefact it lists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    Local(PathBuf),
    Remote(Url),
}

impl Location {
    /// `https://…` is remote; any other `scheme://` is refused; everything else is a local
    /// path, made absolute.
    pub fn parse(text: &str) -> Result<Location, PackageError> {
        if text.contains("://") {
            return https_url(text).map(Location::Remote);
        }
        let path = std::path::absolute(text).map_err(|error| PackageError::read(text, error))?;
        Ok(Location::Local(path))
    }

    /// The location as recorded and shown: the absolute path or the URL.
    pub fn describe(&self) -> String {
        match self {
            Location::Local(path) => path.display().to_string(),
            Location::Remote(url) => url.to_string(),
        }
    }

    /// `source` from an index at this location: absolute URLs stay as they are (and must be
    /// `https://`), anything else is relative to the index.
    pub fn resolve(&self, source: &str) -> Result<Location, PackageError> {
        match self {
            Location::Remote(index) => {
                let url = index.join(source).map_err(|error| PackageError::BadUrl {
                    location: source.to_string(),
                    reason: error.to_string(),
                })?;
                check_https(&url)?;
                Ok(Location::Remote(url))
            }
            Location::Local(index) => {
                if source.contains("://") {
                    return https_url(source).map(Location::Remote);
                }
                let dir = index.parent().unwrap_or(Path::new("/"));
                Ok(Location::Local(dir.join(source)))
            }
        }
    }

    /// The bytes at this location, at most `limit`.
    pub fn fetch(&self, limit: u64) -> Result<Vec<u8>, PackageError> {
        match self {
            Location::Local(path) => read_local(path, limit),
            Location::Remote(url) => download(url, limit),
        }
    }

    /// The bytes at this location, or `None` when there is nothing there (no file, a 404).
    /// A local file must be a regular file: a FIFO is refused, not waited on.
    pub fn fetch_optional(&self, limit: u64) -> Result<Option<Vec<u8>>, PackageError> {
        match self {
            Location::Local(path) => crate::files::read_optional(path, limit)
                .map_err(|error| PackageError::read(path, error)),
            Location::Remote(url) => download_optional(url, limit),
        }
    }

    /// Where the detached signature of the file at this location is: the same name with
    /// `.minisig` added (for a URL, to its path, before any query).
    pub fn signature(&self) -> Location {
        match self {
            Location::Local(path) => {
                let mut name = path.as_os_str().to_os_string();
                name.push(format!(".{}", crate::signature::EXTENSION));
                Location::Local(PathBuf::from(name))
            }
            Location::Remote(url) => {
                let mut url = url.clone();
                url.set_path(&format!("{}.{}", url.path(), crate::signature::EXTENSION));
                Location::Remote(url)
            }
        }
    }
}

/// Whether the human named a catalog (`TORII_PROVIDER_CATALOG` set and not empty): then a name
/// is looked up there, even one of the built-in packages.
pub fn chosen() -> bool {
    std::env::var(CATALOG_ENV).is_ok_and(|value| !value.trim().is_empty())
}

/// The catalog in effect: `TORII_PROVIDER_CATALOG` when set and not empty, else the official.
pub fn configured() -> Result<Location, PackageError> {
    match std::env::var(CATALOG_ENV) {
        Ok(value) if !value.trim().is_empty() => Location::parse(value.trim()),
        _ => Location::parse(DEFAULT_CATALOG),
    }
}

/// One package listed in the catalog.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    pub name: String,
    pub version: String,
    pub description: String,
    /// The archive, relative to the index or an absolute `https://` URL.
    pub source: String,
    /// Lowercase hex SHA-256 of the archive.
    pub sha256: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Index {
    #[allow(dead_code)]
    version: Version,
    #[serde(default)]
    providers: Vec<Entry>,
}

/// A catalog read from its location.
#[derive(Debug)]
pub struct Catalog {
    pub location: Location,
    pub entries: Vec<Entry>,
    /// The trusted key that signed `index.yaml`; `None` when it carries no signature.
    pub signed_by: Option<KeyId>,
}

impl Catalog {
    /// Reads the index at `location` and its signature (`index.yaml.minisig`), which must be
    /// valid and by a trusted key when there is one, then checks the entries.
    pub fn load(location: Location, trust: &Trust) -> Result<Catalog, PackageError> {
        let bytes = location.fetch(MAX_INDEX_BYTES)?;
        let signed_by = trust.check(&location, &bytes)?;
        let entries = parse_index(&location.describe(), &bytes)?;
        Ok(Catalog {
            location,
            entries,
            signed_by,
        })
    }

    /// Entries whose name or description contains `query`, ignoring case; all without one.
    pub fn search(&self, query: Option<&str>) -> Vec<&Entry> {
        let query = query.map(str::to_lowercase).unwrap_or_default();
        self.entries
            .iter()
            .filter(|entry| {
                entry.name.to_lowercase().contains(&query)
                    || entry.description.to_lowercase().contains(&query)
            })
            .collect()
    }

    /// The entry named exactly `name`.
    pub fn find(&self, name: &str) -> Result<&Entry, PackageError> {
        self.entries
            .iter()
            .find(|entry| entry.name == name)
            .ok_or_else(|| PackageError::NotInCatalog {
                name: name.to_string(),
                catalog: self.location.describe(),
            })
    }

    /// Fetches the archive of `entry` and checks its SHA-256 before anything reads it. The
    /// archive is signed by the index's key when the index is signed (its digest is in the
    /// signed bytes), else by its own `.minisig` if it has one.
    pub fn fetch_artefact(
        &self,
        entry: &Entry,
        trust: &Trust,
    ) -> Result<(Location, Vec<u8>, Option<KeyId>), PackageError> {
        let location = self.location.resolve(&entry.source)?;
        let bytes = location.fetch(MAX_ARTEFACT_BYTES)?;
        let actual = crate::digest::sha256_hex(&bytes);
        if actual != entry.sha256 {
            return Err(PackageError::DigestMismatch {
                location: location.describe(),
                expected: entry.sha256.clone(),
                actual,
            });
        }
        let signed_by = match self.signed_by {
            Some(key) => Some(key),
            None => trust.check(&location, &bytes)?,
        };
        Ok((location, bytes, signed_by))
    }
}

/// Parses an `index.yaml`; `location` names it in errors.
pub fn parse_index(location: &str, bytes: &[u8]) -> Result<Vec<Entry>, PackageError> {
    let text = std::str::from_utf8(bytes).map_err(|_| PackageError::Content {
        location: location.to_string(),
        message: "not valid UTF-8".into(),
    })?;
    let index: Index = strict_yaml::from_str(text).map_err(|error| PackageError::Yaml {
        location: location.to_string(),
        position: error.position,
        message: error.message,
    })?;
    let mut names = BTreeSet::new();
    let mut entries = Vec::with_capacity(index.providers.len());
    for (index, mut entry) in index.providers.into_iter().enumerate() {
        let field = |name: &str, message: String| PackageError::Field {
            location: location.to_string(),
            field: format!("providers[{index}].{name}"),
            message,
        };
        registry::check_name(&entry.name).map_err(|message| field("name", message))?;
        if !names.insert(entry.name.clone()) {
            return Err(field("name", format!("{:?} is listed twice", entry.name)));
        }
        super::manifest::check_package_version(&entry.version)
            .map_err(|message| field("version", message))?;
        if entry.source.trim().is_empty() {
            return Err(field("source", "must not be empty".into()));
        }
        if !crate::digest::is_sha256_hex(&entry.sha256) {
            return Err(field("sha256", "must be 64 hexadecimal digits".into()));
        }
        entry.sha256.make_ascii_lowercase();
        entries.push(entry);
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    const INDEX: &str = r#"version: "1"
providers:
  - name: aws
    version: "0.1.0"
    description: Official AWS provider.
    source: releases/aws-0.1.0.zip
    sha256: 0123456789ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef
  - name: kubectl
    version: "0.1.0"
    description: Kubernetes through kubectl contexts.
    source: https://cdn.example.org/kubectl.zip
    sha256: 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
"#;

    fn catalog(location: &str) -> Catalog {
        let location = Location::parse(location).unwrap();
        let entries = parse_index("index.yaml", INDEX.as_bytes()).unwrap();
        Catalog {
            location,
            entries,
            signed_by: None,
        }
    }

    #[test]
    fn search_matches_name_or_description_ignoring_case() {
        let catalog = catalog("https://example.org/c/index.yaml");
        let names = |query| {
            catalog
                .search(query)
                .iter()
                .map(|entry| entry.name.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(names(None), ["aws", "kubectl"]);
        assert_eq!(names(Some("KUBERNETES")), ["kubectl"]);
        assert_eq!(names(Some("aws")), ["aws"]);
        assert!(names(Some("azure")).is_empty());
        assert_eq!(catalog.entries[0].sha256, "0123456789abcdef".repeat(4));
    }

    #[test]
    fn sources_resolve_relative_to_the_index() {
        let remote = Location::parse("https://example.org/c/index.yaml").unwrap();
        assert_eq!(
            remote.resolve("releases/aws.zip").unwrap().describe(),
            "https://example.org/c/releases/aws.zip"
        );
        assert!(matches!(
            remote.resolve("http://example.org/aws.zip"),
            Err(PackageError::NotHttps { .. })
        ));
        assert!(matches!(
            remote.resolve("file:///etc/passwd"),
            Err(PackageError::NotHttps { .. })
        ));
        let local = Location::parse("/srv/catalog/index.yaml").unwrap();
        assert_eq!(
            local.resolve("releases/aws.zip").unwrap(),
            Location::Local(PathBuf::from("/srv/catalog/releases/aws.zip"))
        );
        assert!(matches!(
            Location::parse("http://example.org/index.yaml"),
            Err(PackageError::NotHttps { .. })
        ));
    }

    #[test]
    fn a_signature_is_beside_what_it_signs() {
        let remote = Location::parse("https://example.org/c/index.yaml?token=x").unwrap();
        assert_eq!(
            remote.signature().describe(),
            "https://example.org/c/index.yaml.minisig?token=x"
        );
        let local = Location::parse("/srv/catalog/aws-0.1.0.zip").unwrap();
        assert_eq!(
            local.signature(),
            Location::Local(PathBuf::from("/srv/catalog/aws-0.1.0.zip.minisig"))
        );
    }

    #[test]
    fn invalid_entries_name_the_field() {
        for (from, to, field) in [
            ("name: aws", "name: ../aws", "providers[0].name"),
            ("name: kubectl", "name: aws", "providers[1].name"),
            (
                "source: releases/aws-0.1.0.zip",
                "source: \"\"",
                "providers[0].source",
            ),
            (
                "sha256: 0123456789ABCDEF",
                "sha256: 0123456789XBCDEF",
                "providers[0].sha256",
            ),
            (
                "version: \"0.1.0\"",
                "version: \"0 1\"",
                "providers[0].version",
            ),
        ] {
            let text = INDEX.replacen(from, to, 1);
            let error = parse_index("/c/index.yaml", text.as_bytes()).unwrap_err();
            assert!(
                error.to_string().contains(&format!("field `{field}`")),
                "{error}"
            );
        }
    }
}
