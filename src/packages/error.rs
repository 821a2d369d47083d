//! The one error type of package work: sources, downloads, archives, package content,
//! installation, setups and upgrades. Every message names the file or location and, when
//! there is one, the field or archive entry at fault.

use std::path::PathBuf;

use strict_yaml::{Position, located};

use crate::atomic::WriteError;
use crate::registry::RegistryError;
use crate::rules::PolicyFileError;
use crate::settings::SettingsError;
use crate::signature::KeyId;

/// Why a package command failed. Nothing is left half-done when one of these is returned.
#[derive(Debug, thiserror::Error)]
pub enum PackageError {
    #[error("{}", crate::tr!("package-unknown-source", arg = format!("{:?}", .arg)))]
    UnknownSource { arg: String },

    #[error("{}", crate::tr!("package-not-https", location = .location.as_str()))]
    NotHttps { location: String },

    /// An upgrade of a built-in package this torii no longer ships.
    #[error("{}", crate::tr!("package-unknown-builtin", name = .name.as_str(), known = super::builtin::names().join(", ")))]
    UnknownBuiltIn { name: String },

    #[error("{}", crate::tr!("package-bad-url", location = .location.as_str(), reason = .reason.as_str()))]
    BadUrl { location: String, reason: String },

    #[error("{}", crate::tr!("package-download", url = .url.as_str(), reason = .reason.as_str()))]
    Download { url: String, reason: String },

    #[error("{}", crate::tr!("package-too-large", location = .location.as_str(), limit = *.limit))]
    TooLarge { location: String, limit: u64 },

    #[error("{}", crate::tr!("cli-cannot-read", path = .path.display().to_string()))]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    #[error("{}", crate::tr!("cli-cannot-write", path = .path.display().to_string()))]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    #[error(transparent)]
    AtomicWrite(#[from] WriteError),

    /// An archive or directory entry was refused, or the archive is unreadable.
    #[error("{location}: {reason}")]
    Archive { location: String, reason: String },

    #[error("{}: {message}", located(location, *position))]
    Yaml {
        location: String,
        position: Option<Position>,
        message: String,
    },

    #[error("{location}: field `{field}`: {message}")]
    Field {
        location: String,
        field: String,
        message: String,
    },

    /// Package content that is well-formed but refused (non-empty base rules, failing examples).
    #[error("{location}: {message}")]
    Content { location: String, message: String },

    #[error(transparent)]
    Registry(#[from] RegistryError),

    #[error(transparent)]
    Policy(#[from] PolicyFileError),

    #[error("{}", crate::tr!("package-digest-mismatch", location = .location.as_str(), expected = .expected.as_str(), actual = .actual.as_str()))]
    DigestMismatch {
        location: String,
        expected: String,
        actual: String,
    },

    #[error("{}", crate::tr!("package-unknown-key", location = .location.as_str(), key = .key.to_string(), settings = .settings.display().to_string()))]
    UnknownKey {
        location: String,
        key: KeyId,
        settings: PathBuf,
    },

    #[error("{}", crate::tr!("package-bad-signature", signature = .signature.as_str(), location = .location.as_str(), key = .key.to_string()))]
    BadSignature {
        location: String,
        signature: String,
        key: KeyId,
    },

    #[error("{}", crate::tr!("package-malformed-signature", signature = .signature.as_str()))]
    MalformedSignature { signature: String },

    #[error("{}", crate::tr!("package-legacy-signature", signature = .signature.as_str()))]
    LegacySignature { signature: String },

    #[error("{}", crate::tr!("package-unsigned-refused", location = .location.as_str(), settings = .settings.display().to_string()))]
    UnsignedRefused { location: String, settings: PathBuf },

    #[error("{}", crate::tr!("package-upgrade-unsigned", name = .name.as_str(), key = .key.to_string(), location = .location.as_str()))]
    UpgradeUnsigned {
        name: String,
        key: KeyId,
        location: String,
    },

    #[error("{}", crate::tr!("package-upgrade-key-changed", name = .name.as_str(), recorded = .recorded.to_string(), key = .key.to_string(), location = .location.as_str()))]
    UpgradeKeyChanged {
        name: String,
        recorded: KeyId,
        key: KeyId,
        location: String,
    },

    #[error(transparent)]
    Settings(#[from] SettingsError),

    #[error("{}", crate::tr!("package-not-in-catalog", name = format!("{:?}", .name), catalog = .catalog.as_str()))]
    NotInCatalog { name: String, catalog: String },

    #[error("{}", crate::tr!("package-exists", path = .path.display().to_string(), name = .name.as_str()))]
    Exists { path: PathBuf, name: String },

    #[error("{location}: field `{field}`: {value:?} is already used by {}", other.display())]
    Duplicate {
        location: String,
        field: &'static str,
        value: String,
        other: PathBuf,
    },

    #[error("{}", crate::tr!("cli-unknown-provider", key = format!("{:?}", .key), installed = .installed.as_str()))]
    UnknownProvider { key: String, installed: String },

    #[error("{}", crate::tr!("package-not-packaged", name = format!("{:?}", .name), path = .path.display().to_string(), what = *.what))]
    NotPackaged {
        name: String,
        path: PathBuf,
        /// `setups` or `origin`: what the provider lacks.
        what: &'static str,
    },

    #[error("{}", crate::tr!("package-unknown-setup", package = format!("{:?}", .package), setup = format!("{:?}", .setup), available = .available.as_str()))]
    UnknownSetup {
        package: String,
        setup: String,
        available: String,
    },

    #[error("{}", crate::tr!("package-policy-not-empty", path = .path.display().to_string(), deny = *.deny, accept = *.accept, examples = *.examples, tool = .tool.as_str()))]
    PolicyNotEmpty {
        path: PathBuf,
        tool: String,
        deny: usize,
        accept: usize,
        examples: usize,
    },

    #[error("{}", crate::tr!("package-upgrade-changes", location = .location.as_str(), field = *.field, old = format!("{:?}", .old), new = format!("{:?}", .new)))]
    UpgradeChanges {
        location: String,
        field: &'static str,
        old: String,
        new: String,
    },
}

impl PackageError {
    pub(crate) fn read(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        PackageError::Read {
            path: path.into(),
            source,
        }
    }

    pub(crate) fn write(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        PackageError::Write {
            path: path.into(),
            source,
        }
    }
}
