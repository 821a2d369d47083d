//! Which catalogs and packages Torii installs: a file may carry a detached signature beside it
//! (`index.yaml.minisig`, `aws-0.1.0.zip.minisig`), which must then be valid and made by a
//! trusted key — one of Torii's release keys (the official catalog and packages are signed with
//! them) or one of `package_keys` in `settings.yaml`. A signature that cannot be checked is
//! refused, never taken for no signature. Whether a source without one may be installed is
//! `unsigned_packages` (default `allow`; `provider list` and `doctor` then show it unsigned).
//!
//! What a signature proves: the bytes are the ones the key's holder published. Not that they
//! are the newest: an old signed package or index served again passes (the docs say so).

use std::path::PathBuf;

use super::PackageError;
use super::catalog::Location;
use crate::paths::ConfigRoot;
use crate::signature::{self, KeyId, PublicKey, Verdict};

/// `settings.yaml` `unsigned_packages`: whether a catalog or package without a signature may
/// be installed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Unsigned {
    #[default]
    Allow,
    Refuse,
}

impl Unsigned {
    pub const ALL: [Unsigned; 2] = [Unsigned::Allow, Unsigned::Refuse];

    pub fn as_str(self) -> &'static str {
        match self {
            Unsigned::Allow => "allow",
            Unsigned::Refuse => "refuse",
        }
    }
}

/// The keys and the rule a package command checks its sources with.
#[derive(Debug)]
pub struct Trust {
    keys: Vec<PublicKey>,
    unsigned: Unsigned,
    /// Named in refusals: where the human changes what is trusted.
    settings_file: PathBuf,
}

impl Trust {
    /// The release keys and the settings of `root` (an invalid `settings.yaml` is an error:
    /// its keys and its rule cannot be known).
    pub fn load(root: &ConfigRoot) -> Result<Trust, PackageError> {
        let settings_file = root.settings_file();
        let settings = crate::settings::Settings::load(&settings_file)?;
        let mut keys = crate::release::release_keys();
        keys.extend(settings.package_keys);
        Ok(Trust {
            keys,
            unsigned: settings.unsigned_packages,
            settings_file,
        })
    }

    /// The trusted key that signed `bytes`, read from `location` (their signature is beside
    /// them); `None` when there is no signature there. A signature that is malformed, by an
    /// unknown key or does not match is an error.
    pub fn check(&self, location: &Location, bytes: &[u8]) -> Result<Option<KeyId>, PackageError> {
        let at = location.signature();
        let Some(text) = at.fetch_optional(signature::MAX_SIGNATURE_BYTES)? else {
            return Ok(None);
        };
        let signed = location.describe();
        let signature = at.describe();
        match signature::verify(&self.keys, bytes, &text) {
            Verdict::Valid(key) => Ok(Some(key)),
            Verdict::UnknownKey(key) => Err(PackageError::UnknownKey {
                location: signed,
                key,
                settings: self.settings_file.clone(),
            }),
            Verdict::Invalid(key) => Err(PackageError::BadSignature {
                location: signed,
                signature,
                key,
            }),
            Verdict::Malformed => Err(PackageError::MalformedSignature { signature }),
        }
    }

    /// Refuses a package that carries no signature when the settings say so.
    pub fn admit(&self, label: &str, signed_by: Option<KeyId>) -> Result<(), PackageError> {
        if signed_by.is_none() && self.unsigned == Unsigned::Refuse {
            return Err(PackageError::UnsignedRefused {
                location: label.to_string(),
                settings: self.settings_file.clone(),
            });
        }
        Ok(())
    }
}
