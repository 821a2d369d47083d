//! The administrator's layer: a system-wide directory that only an administrator can write
//! (`/etc/torii` on Unix, `C:\ProgramData\Torii` on Windows). It can only narrow what the
//! user's files allow:
//!
//! - `rules/<provider>.yaml`: deny rules in the `rules.yaml` format (an `accept` is refused),
//!   checked before the user's policy, so an admin deny beats every user accept, grant and
//!   approval window;
//! - `settings.yaml`: every field it sets is locked to its value, whatever the user's
//!   `settings.yaml` says (for example `child_confinement: required`, `approval: window`, an
//!   export destination that users cannot turn off).
//!
//! A missing directory changes nothing. A malformed one is an error, and the server then
//! answers every call with it: an administrator's rule that cannot be read denies.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::settings::{Settings, SettingsError};

/// The layer's directory. The path is fixed, never read from the environment, which whoever
/// starts the server (an agent's client configuration) chooses. Test builds may move it.
pub fn admin_dir() -> PathBuf {
    #[cfg(feature = "test-hooks")]
    if let Some(dir) = std::env::var_os("TORII_TEST_ADMIN_DIR") {
        return PathBuf::from(dir);
    }
    if cfg!(windows) {
        PathBuf::from(r"C:\ProgramData\Torii")
    } else {
        PathBuf::from("/etc/torii")
    }
}

#[derive(Debug, thiserror::Error)]
pub enum AdminError {
    #[error("the administrator's layer: cannot read {}: {source}", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("the administrator's layer: {} is not a directory", .0.display())]
    NotDirectory(PathBuf),
    #[error(
        "the administrator's layer: {}: `accept` is not allowed here; this layer can only deny",
        .0.display()
    )]
    Accept(PathBuf),
    #[error("the administrator's layer: {}: not a provider's rules (rules/<provider>.yaml)", .0.display())]
    NotRules(PathBuf),
    #[error("the administrator's layer: {0}")]
    Rules(#[from] crate::rules::PolicyFileError),
    #[error("the administrator's layer: {0}")]
    Settings(#[from] SettingsError),
}

/// What the directory holds, read and checked.
#[derive(Debug, Default)]
pub struct AdminLayer {
    pub dir: PathBuf,
    /// Deny rules by provider name: the file and its text.
    rules: BTreeMap<String, (PathBuf, String)>,
    /// The settings it locks, and their names.
    settings: Option<(Settings, Vec<String>)>,
}

impl AdminLayer {
    /// The layer in `dir`; `None` when there is no such directory.
    pub fn load(dir: &Path) -> Result<Option<Self>, AdminError> {
        let read = |path: &Path| {
            let path = path.to_path_buf();
            move |source| AdminError::Read { path, source }
        };
        match std::fs::metadata(dir) {
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(source) => return Err(read(dir)(source)),
            Ok(metadata) if !metadata.is_dir() => {
                return Err(AdminError::NotDirectory(dir.to_path_buf()));
            }
            Ok(_) => {}
        }
        let mut layer = Self {
            dir: dir.to_path_buf(),
            ..Self::default()
        };
        let rules_dir = dir.join("rules");
        if rules_dir.exists() {
            for entry in std::fs::read_dir(&rules_dir).map_err(read(&rules_dir))? {
                let path = entry.map_err(read(&rules_dir))?.path();
                let name = path
                    .file_name()
                    .and_then(|name| name.to_str())
                    .and_then(|name| name.strip_suffix(".yaml"))
                    .filter(|name| crate::registry::check_name(name).is_ok())
                    .ok_or_else(|| AdminError::NotRules(path.clone()))?
                    .to_string();
                let text = crate::rules::read_rules_text(&path)?;
                let parsed = jasper::parse_rules(&text).map_err(|source| {
                    crate::rules::PolicyFileError::Parse {
                        path: path.clone(),
                        source,
                    }
                })?;
                if !parsed.accept.is_empty() {
                    return Err(AdminError::Accept(path));
                }
                layer.rules.insert(name, (path, text));
            }
        }
        let settings_path = layer.settings_file();
        let text = crate::files::read_optional_text(&settings_path, crate::files::SMALL_FILE_BYTES)
            .map_err(read(&settings_path))?;
        if let Some(text) = text {
            let settings = Settings::parse(&settings_path, &text)?;
            layer.settings = Some((settings, Settings::fields_set(&settings_path, &text)?));
        }
        Ok(Some(layer))
    }

    /// The layer of this system, if any.
    pub fn of_system() -> Result<Option<Self>, AdminError> {
        Self::load(&admin_dir())
    }

    /// `settings` with every field this layer sets replaced by its value.
    pub fn lock(&self, mut settings: Settings) -> Settings {
        if let Some((locked, names)) = &self.settings {
            for name in names {
                settings.take_field(locked, name);
            }
        }
        settings
    }

    /// The layer's `settings.yaml`, which holds the settings it locks.
    pub fn settings_file(&self) -> PathBuf {
        self.dir.join("settings.yaml")
    }

    /// Where the setting `name` in effect is written: the layer's file when it locks it, else
    /// the user's `user_file`. Messages that tell the human what to change name this file.
    pub fn file_setting(&self, name: &str, user_file: &Path) -> PathBuf {
        if self.locked_settings().iter().any(|locked| locked == name) {
            self.settings_file()
        } else {
            user_file.to_path_buf()
        }
    }

    /// The names of the settings this layer locks.
    pub fn locked_settings(&self) -> &[String] {
        self.settings.as_ref().map_or(&[], |(_, names)| names)
    }

    /// The deny rules file for the provider named `name`, and its text.
    pub fn rules_of(&self, name: &str) -> Option<(&Path, &str)> {
        self.rules
            .get(name)
            .map(|(path, text)| (path.as_path(), text.as_str()))
    }

    /// Every provider name with deny rules here.
    pub fn providers(&self) -> impl Iterator<Item = &str> {
        self.rules.keys().map(String::as_str)
    }

    /// The deny rules of `provider`, compiled with its `policy:` settings (so arguments are
    /// read exactly as its own policy reads them).
    pub fn policy_of(
        &self,
        provider: &crate::registry::Provider,
    ) -> Result<Option<jasper::Policy>, AdminError> {
        let Some((path, text)) = self.rules_of(provider.name()) else {
            return Ok(None);
        };
        let settings = crate::rules::policy_settings(&provider.config().policy);
        let (_, policy) = crate::rules::compile(path, text, &settings)?;
        Ok(Some(policy))
    }
}

/// The rule of `policy` (an administrator's) that denies `args`, if one does.
pub fn denying_rule(policy: &jasper::Policy, args: &[String]) -> Option<String> {
    match policy.evaluate(args).decision {
        jasper::Decision::DeniedExplicit { rule } => Some(rule),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, name: &str, text: &str) {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    #[test]
    fn a_missing_directory_is_no_layer() {
        let dir = tempfile::tempdir().unwrap();
        assert!(
            AdminLayer::load(&dir.path().join("none"))
                .unwrap()
                .is_none()
        );
        let empty = AdminLayer::load(dir.path()).unwrap().unwrap();
        assert!(empty.locked_settings().is_empty());
        assert_eq!(empty.providers().count(), 0);
    }

    #[test]
    fn only_deny_rules_and_valid_settings_are_accepted_and_errors_name_the_file() {
        let dir = tempfile::tempdir().unwrap();
        write(
            dir.path(),
            "rules/aws.yaml",
            "version: \"1\"\naccept: [\"s3 ls\"]\n",
        );
        let error = AdminLayer::load(dir.path()).unwrap_err().to_string();
        assert!(
            error.contains("aws.yaml") && error.contains("can only deny"),
            "{error}"
        );

        write(
            dir.path(),
            "rules/aws.yaml",
            "version: \"1\"\ndeny: [\"iam\"\n",
        );
        let error = AdminLayer::load(dir.path()).unwrap_err().to_string();
        assert!(error.contains("aws.yaml"), "{error}");

        write(
            dir.path(),
            "rules/aws.yaml",
            "version: \"1\"\ndeny: [\"iam\"]\n",
        );
        write(dir.path(), "rules/notes.txt", "x");
        let error = AdminLayer::load(dir.path()).unwrap_err().to_string();
        assert!(error.contains("notes.txt"), "{error}");
        std::fs::remove_file(dir.path().join("rules/notes.txt")).unwrap();

        write(dir.path(), "settings.yaml", "child_confinement: maybe\n");
        let error = AdminLayer::load(dir.path()).unwrap_err().to_string();
        assert!(
            error.contains("settings.yaml") && error.contains("child_confinement"),
            "{error}"
        );

        std::fs::write(dir.path().join("settings.yaml"), "x").unwrap();
        std::fs::remove_file(dir.path().join("settings.yaml")).unwrap();
        let file = dir.path().join("file");
        std::fs::write(&file, "").unwrap();
        assert!(matches!(
            AdminLayer::load(&file),
            Err(AdminError::NotDirectory(_))
        ));
    }

    #[test]
    fn locked_settings_replace_the_users_and_only_those() {
        let dir = tempfile::tempdir().unwrap();
        write(
            dir.path(),
            "settings.yaml",
            "child_confinement: required\nmax_output_bytes: 100\n",
        );
        let layer = AdminLayer::load(dir.path()).unwrap().unwrap();
        assert_eq!(
            layer.locked_settings(),
            ["child_confinement", "max_output_bytes"]
        );
        let user = Settings {
            max_output_bytes: 5000,
            default_grant_minutes: 7,
            ..Settings::default()
        };
        let effective = layer.lock(user);
        assert_eq!(effective.max_output_bytes, 100);
        assert_eq!(effective.child_confinement, crate::confine::Mode::Required);
        assert_eq!(
            effective.default_grant_minutes, 7,
            "what it does not set stays the user's"
        );
    }
}
