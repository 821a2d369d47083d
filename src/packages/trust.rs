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
use crate::settings::{Settings, SettingsError, Unsigned};
use crate::signature::{self, KeyId, PublicKey, Verdict};

/// The keys and the rule a package command checks its sources with.
#[derive(Debug)]
pub struct Trust {
    keys: Vec<PublicKey>,
    /// The ids of Torii's own release keys, among `keys`.
    release: Vec<KeyId>,
    unsigned: Unsigned,
    /// Named in refusals, where the human changes what is trusted: the settings file that sets
    /// `package_keys`, and the one that sets `unsigned_packages` (the administrator's when
    /// their layer locks it, since the user's would change nothing).
    keys_file: PathBuf,
    unsigned_file: PathBuf,
    /// For an upgrade of a signed package: who may sign its new version.
    continuity: Option<Continuity>,
}

/// An upgrade keeps its signer: the key recorded at install, another release key when that
/// was one (release keys rotate with torii), or a key the human accepted for this upgrade.
#[derive(Debug)]
struct Continuity {
    name: String,
    recorded: KeyId,
    accepted: Vec<KeyId>,
}

impl Trust {
    /// The release keys and the settings of `root` (an invalid `settings.yaml` is an error:
    /// its keys and its rule cannot be known).
    pub fn load(root: &ConfigRoot) -> Result<Trust, PackageError> {
        let user_file = root.settings_file();
        let settings = Settings::load_user(&user_file)?;
        match crate::admin::AdminLayer::of_system()
            .map_err(|error| SettingsError::Admin(Box::new(error)))?
        {
            None => Trust::new(&settings, user_file),
            Some(admin) => Trust::with_files(
                &admin.lock(settings),
                admin.file_setting("package_keys", &user_file),
                admin.file_setting("unsigned_packages", &user_file),
            ),
        }
    }

    /// The release keys and `settings`, read from `settings_file` alone.
    pub fn new(settings: &Settings, settings_file: PathBuf) -> Result<Trust, PackageError> {
        Trust::with_files(settings, settings_file.clone(), settings_file)
    }

    /// The release keys and `settings`, whose `package_keys` and `unsigned_packages` come from
    /// `keys_file` and `unsigned_file`. A key of `package_keys` with the id of a release key
    /// but other bytes is refused: key ids are what the human sees, and one must not pass for
    /// the other.
    fn with_files(
        settings: &Settings,
        keys_file: PathBuf,
        unsigned_file: PathBuf,
    ) -> Result<Trust, PackageError> {
        let mut keys = crate::release::release_keys();
        let release: Vec<KeyId> = keys.iter().map(PublicKey::id).collect();
        for (index, key) in settings.package_keys.iter().enumerate() {
            match keys.iter().find(|known| known.id() == key.id()) {
                None => keys.push(key.clone()),
                Some(known) if known == key => {}
                Some(_) => {
                    return Err(PackageError::from(SettingsError::Field {
                        path: keys_file,
                        position: None,
                        field: format!("package_keys[{index}]"),
                        message: format!(
                            "has the key id {} of one of Torii's release keys, but is \
                                 another key",
                            key.id()
                        ),
                    }));
                }
            }
        }
        Ok(Trust {
            keys,
            release,
            unsigned: settings.unsigned_packages,
            keys_file,
            unsigned_file,
            continuity: None,
        })
    }

    /// Whether `key` is still trusted (a key removed from `package_keys` is not).
    pub fn trusts(&self, key: KeyId) -> bool {
        self.keys.iter().any(|known| known.id() == key)
    }

    /// For the upgrade of package `name`, installed signed by `recorded` (or unsigned): its
    /// new version must be signed by the same key, another release key if `recorded` is one,
    /// or `accepted` (the human's `--accept-key`).
    pub fn for_upgrade(
        mut self,
        name: &str,
        recorded: Option<KeyId>,
        accepted: Option<KeyId>,
    ) -> Trust {
        self.continuity = recorded.map(|recorded| {
            let mut keys: Vec<KeyId> = accepted.into_iter().collect();
            if self.release.contains(&recorded) {
                keys.extend(&self.release);
            }
            Continuity {
                name: name.to_string(),
                recorded,
                accepted: keys,
            }
        });
        self
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
                settings: self.keys_file.clone(),
            }),
            Verdict::Invalid(key) => Err(PackageError::BadSignature {
                location: signed,
                signature,
                key,
            }),
            Verdict::Legacy(_) => Err(PackageError::LegacySignature { signature }),
            Verdict::Malformed => Err(PackageError::MalformedSignature { signature }),
        }
    }

    /// Whether a package signed by `signed_by` (checked by [`Trust::check`]), or unsigned, may
    /// be installed: refuses one without a signature when the settings say so, and for an
    /// upgrade one not signed by the package's signer. Called before anything is extracted.
    pub fn admit(&self, label: &str, signed_by: Option<KeyId>) -> Result<(), PackageError> {
        if let Some(continuity) = &self.continuity {
            return match signed_by {
                None => Err(PackageError::UpgradeUnsigned {
                    name: continuity.name.clone(),
                    key: continuity.recorded,
                    location: label.to_string(),
                }),
                Some(key) if key == continuity.recorded || continuity.accepted.contains(&key) => {
                    Ok(())
                }
                Some(key) => Err(PackageError::UpgradeKeyChanged {
                    name: continuity.name.clone(),
                    recorded: continuity.recorded,
                    key,
                    location: label.to_string(),
                }),
            };
        }
        if signed_by.is_none() && self.unsigned == Unsigned::Refuse {
            return Err(PackageError::UnsignedRefused {
                location: label.to_string(),
                settings: self.unsigned_file.clone(),
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(hex: &str) -> KeyId {
        KeyId::parse(hex).unwrap()
    }

    fn trust(unsigned: Unsigned) -> Trust {
        Trust {
            keys: Vec::new(),
            release: vec![id("00000000000000A1"), id("00000000000000A2")],
            unsigned,
            keys_file: PathBuf::from("/r/settings.yaml"),
            unsigned_file: PathBuf::from("/r/settings.yaml"),
            continuity: None,
        }
    }

    #[test]
    fn an_upgrade_keeps_its_signer_or_another_release_key() {
        let (a1, a2, third, other) = (
            id("00000000000000A1"),
            id("00000000000000A2"),
            id("0000000000000003"),
            id("0000000000000004"),
        );
        // Official: signed by a release key; the next release key (a rotation) is accepted.
        let official = trust(Unsigned::Allow).for_upgrade("aws", Some(a1), None);
        assert!(official.admit("x", Some(a1)).is_ok());
        assert!(official.admit("x", Some(a2)).is_ok());
        assert!(matches!(
            official.admit("x", Some(third)),
            Err(PackageError::UpgradeKeyChanged { recorded, key, .. }) if recorded == a1 && key == third
        ));
        assert!(matches!(
            official.admit("x", None),
            Err(PackageError::UpgradeUnsigned { .. })
        ));
        // A third party's: a release key is not its publisher; an accepted key is.
        let vendor = trust(Unsigned::Allow).for_upgrade("x", Some(third), Some(other));
        assert!(vendor.admit("x", Some(third)).is_ok());
        assert!(vendor.admit("x", Some(other)).is_ok());
        assert!(vendor.admit("x", Some(a1)).is_err());
        // Installed unsigned: the settings decide, as for an install.
        let unsigned = trust(Unsigned::Refuse).for_upgrade("x", None, None);
        assert!(matches!(
            unsigned.admit("x", None),
            Err(PackageError::UnsignedRefused { .. })
        ));
        assert!(unsigned.admit("x", Some(third)).is_ok());
        assert!(trust(Unsigned::Allow).admit("x", None).is_ok());
    }
}
