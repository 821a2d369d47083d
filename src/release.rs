//! `torii self upgrade`: the latest release, its archive for this platform checked against its
//! published SHA-256, and the running executable replaced by a rename in its own directory.
//!
//! Only the executable changes: the config root (settings, providers, rules, targets, grants,
//! sessions) is never opened. Releases are where `install.sh` finds them:
//! `<base>/latest` redirects to `<base>/tag/<tag>`, assets are `<base>/download/<tag>/<asset>`.

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::packages::PackageError;
use crate::packages::fetch;

/// Replaces the release location (mirrors, tests).
pub const RELEASE_BASE_ENV: &str = "TORII_RELEASE_BASE_URL";
pub const DEFAULT_BASE: &str = "https://github.com/torii-mcp/torii/releases";

/// Far above the release archive, far below what would hurt.
const MAX_ARCHIVE_BYTES: u64 = 256 * 1024 * 1024;

#[derive(Debug, thiserror::Error)]
pub enum UpgradeError {
    #[error(transparent)]
    Fetch(#[from] PackageError),
    #[error("the latest release is {0:?}, which is not a tag of the form vX.Y.Z")]
    BadTag(String),
    #[error("there is no release archive for this platform; build from source")]
    NoPlatform,
    #[error("{asset}.sha256 does not describe {asset}")]
    BadChecksumFile { asset: String },
    #[error("the SHA-256 of {asset} does not match {asset}.sha256; the binary was not changed")]
    Mismatch { asset: String },
    #[error("{asset} holds no {entry}")]
    NoExecutable { asset: String, entry: String },
    #[error("cannot read {asset}: {reason}")]
    Archive { asset: String, reason: String },
    #[error("cannot find this executable: {0}")]
    Exe(#[source] std::io::Error),
    #[error("cannot replace {}: {source}", path.display())]
    Replace {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// A release version, `vX.Y.Z`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Version(u64, u64, u64);

impl Version {
    pub fn parse(text: &str) -> Option<Version> {
        let mut parts = text.strip_prefix('v').unwrap_or(text).split('.');
        let mut next = || parts.next()?.parse::<u64>().ok();
        let version = Version(next()?, next()?, next()?);
        parts.next().is_none().then_some(version)
    }

    /// The version of this executable.
    pub fn current() -> Version {
        Version::parse(env!("CARGO_PKG_VERSION")).unwrap_or(Version(0, 0, 0))
    }
}

impl std::fmt::Display for Version {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "v{}.{}.{}", self.0, self.1, self.2)
    }
}

fn base() -> String {
    std::env::var(RELEASE_BASE_ENV)
        .ok()
        .filter(|value| !value.is_empty())
        .unwrap_or_else(|| DEFAULT_BASE.to_string())
        .trim_end_matches('/')
        .to_string()
}

/// The tag `<base>/latest` redirects to.
pub fn latest() -> Result<Version, UpgradeError> {
    let url = fetch::https_url(&format!("{}/latest", base()))?;
    let tag = fetch::final_url(&url)?
        .path_segments()
        .and_then(|mut segments| segments.next_back().map(str::to_string))
        .unwrap_or_default();
    Version::parse(&tag).ok_or(UpgradeError::BadTag(tag))
}

/// The archive name for this platform, and the executable's path inside it.
pub fn asset(version: Version) -> Result<(String, String), UpgradeError> {
    let (platform, extension, exe) = if cfg!(all(target_os = "linux", target_arch = "x86_64")) {
        ("linux-x86_64", "tar.gz", "torii")
    } else if cfg!(all(windows, target_arch = "x86_64")) {
        ("windows-x86_64", "zip", "torii.exe")
    } else {
        return Err(UpgradeError::NoPlatform);
    };
    let name = format!("torii-{version}-{platform}");
    Ok((format!("{name}.{extension}"), format!("{name}/{exe}")))
}

/// The hash a `sha256sum`-format file gives for `asset`.
pub fn checksum_for(text: &str, asset: &str) -> Option<String> {
    let line = text.lines().next()?;
    let (hash, name) = line.split_once("  ").or_else(|| line.split_once(" *"))?;
    let valid = hash.len() == 64 && hash.bytes().all(|b| b.is_ascii_hexdigit());
    (valid && name == asset).then(|| hash.to_ascii_lowercase())
}

/// Downloads, checks and extracts the executable of `version`.
pub fn fetch_executable(version: Version) -> Result<Vec<u8>, UpgradeError> {
    let (asset, entry) = asset(version)?;
    let url = |name: &str| fetch::https_url(&format!("{}/download/{version}/{name}", base()));
    let sums = fetch::download(&url(&format!("{asset}.sha256"))?, 4096)?;
    let expected = checksum_for(&String::from_utf8_lossy(&sums), &asset).ok_or_else(|| {
        UpgradeError::BadChecksumFile {
            asset: asset.clone(),
        }
    })?;
    let archive = fetch::download(&url(&asset)?, MAX_ARCHIVE_BYTES)?;
    if crate::packages::fs::sha256_hex(&archive) != expected {
        return Err(UpgradeError::Mismatch { asset });
    }
    extract(&archive, &asset, &entry)
}

fn extract(archive: &[u8], asset: &str, entry: &str) -> Result<Vec<u8>, UpgradeError> {
    let bad = |reason: String| UpgradeError::Archive {
        asset: asset.to_string(),
        reason,
    };
    let mut found = None;
    if asset.ends_with(".zip") {
        let mut zip = zip::ZipArchive::new(std::io::Cursor::new(archive))
            .map_err(|error| bad(error.to_string()))?;
        if let Ok(mut file) = zip.by_name(entry) {
            let mut bytes = Vec::new();
            file.read_to_end(&mut bytes)
                .map_err(|error| bad(error.to_string()))?;
            found = Some(bytes);
        }
    } else {
        let mut tar = tar::Archive::new(flate2::read::GzDecoder::new(archive));
        for file in tar.entries().map_err(|error| bad(error.to_string()))? {
            let mut file = file.map_err(|error| bad(error.to_string()))?;
            let path = file.path().map_err(|error| bad(error.to_string()))?;
            if path == Path::new(entry) && file.header().entry_type().is_file() {
                let mut bytes = Vec::new();
                file.read_to_end(&mut bytes)
                    .map_err(|error| bad(error.to_string()))?;
                found = Some(bytes);
                break;
            }
        }
    }
    found.ok_or_else(|| UpgradeError::NoExecutable {
        asset: asset.to_string(),
        entry: entry.to_string(),
    })
}

/// Puts `bytes` in place of the executable at `exe`: a new file in the same directory, made
/// executable and flushed, renamed over the old one (a running process keeps the old file).
pub fn replace_executable(exe: &Path, bytes: &[u8]) -> Result<(), UpgradeError> {
    let fail = |source| UpgradeError::Replace {
        path: exe.to_path_buf(),
        source,
    };
    let dir = crate::atomic::containing_dir(exe);
    let mut temp = tempfile::Builder::new()
        .prefix(".torii-upgrade-")
        .tempfile_in(dir)
        .map_err(fail)?;
    std::io::Write::write_all(&mut temp, bytes).map_err(fail)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        temp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(0o755))
            .map_err(fail)?;
    }
    temp.as_file().sync_all().map_err(fail)?;
    temp.persist(exe).map_err(|error| fail(error.error))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_parse_and_order() {
        assert_eq!(Version::parse("v1.2.3"), Some(Version(1, 2, 3)));
        assert_eq!(Version::parse("0.1.0"), Some(Version(0, 1, 0)));
        for bad in ["v1.2", "v1.2.3.4", "vx.1.2", "", "latest"] {
            assert_eq!(Version::parse(bad), None, "{bad}");
        }
        assert!(Version(0, 10, 0) > Version(0, 9, 9));
        assert_eq!(Version(1, 2, 3).to_string(), "v1.2.3");
    }

    #[test]
    fn a_checksum_file_must_name_the_asset() {
        let hash = "a".repeat(64);
        assert_eq!(
            checksum_for(&format!("{hash}  torii.tar.gz\n"), "torii.tar.gz"),
            Some(hash.clone())
        );
        assert_eq!(
            checksum_for(&format!("{hash}  other.tar.gz\n"), "torii.tar.gz"),
            None
        );
        assert_eq!(checksum_for("abc  torii.tar.gz\n", "torii.tar.gz"), None);
    }
}
