//! Where Torii keeps its state: the config root and the fixed layout beneath it.
//!
//! `TORII_CONFIG_DIR` replaces the whole root; otherwise it is `~/.config/torii`. Nothing
//! here reads or writes files: it only names them, so every other module agrees on the layout.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The environment variable that replaces the whole config root.
pub const CONFIG_DIR_ENV: &str = "TORII_CONFIG_DIR";

/// The config root could not be determined.
#[derive(Debug, thiserror::Error)]
pub enum RootError {
    #[error(
        "cannot find the config root: neither {CONFIG_DIR_ENV} nor a home directory (HOME) is set"
    )]
    NoHome,
    #[error("{CONFIG_DIR_ENV}={0:?} cannot be made absolute: {1}")]
    NotAbsolute(OsString, std::io::Error),
}

/// The effective config root from the process environment, with its symbolic links resolved
/// once when it exists: Torii then reads and writes its state at one real location for the
/// whole run, whatever happens to a link on the way (a child cannot change those, see
/// `crate::confine`, but the human could). A trailing `/` goes too.
pub fn config_root() -> Result<ConfigRoot, RootError> {
    let root = resolve_root(
        std::env::var_os(CONFIG_DIR_ENV),
        home_dir_from_env(std::env::var_os("HOME"), std::env::var_os("USERPROFILE")),
    )?;
    // Windows would answer with a `\\?\` path, which is not what a human wrote.
    #[cfg(unix)]
    if let Ok(dir) = root.dir.canonicalize() {
        return Ok(ConfigRoot {
            dir,
            configured: root.configured,
        });
    }
    Ok(root)
}

fn home_dir_from_env(home: Option<OsString>, user_profile: Option<OsString>) -> Option<PathBuf> {
    home.filter(|value| !value.is_empty())
        .or(user_profile.filter(|value| !value.is_empty()))
        .map(PathBuf::from)
}

/// Pure resolution, separated from the environment so it can be tested.
fn resolve_root(
    override_dir: Option<OsString>,
    home: Option<PathBuf>,
) -> Result<ConfigRoot, RootError> {
    let dir = match override_dir.filter(|value| !value.is_empty()) {
        Some(value) => std::path::absolute(Path::new(&value))
            .map_err(|error| RootError::NotAbsolute(value.clone(), error))?,
        None => home.ok_or(RootError::NoHome)?.join(".config").join("torii"),
    };
    Ok(ConfigRoot {
        configured: dir.clone(),
        dir,
    })
}

/// The config root and the names of the files directly under it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigRoot {
    dir: PathBuf,
    configured: PathBuf,
}

impl ConfigRoot {
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        let dir = dir.into();
        Self {
            configured: dir.clone(),
            dir,
        }
    }

    /// Where the state is read and written: the real location.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The root as configured, before its links were resolved. Children are kept out of it,
    /// not only out of [`Self::dir`], so that no link on the way can be replaced.
    pub fn configured(&self) -> &Path {
        &self.configured
    }

    pub fn settings_file(&self) -> PathBuf {
        self.dir.join("settings.yaml")
    }

    pub fn audit_log(&self) -> PathBuf {
        self.dir.join("torii.log")
    }

    /// The last value of the audit log's hash chain, kept apart from the log so that the chain
    /// goes on across rotation and lines cut from the log's end show.
    pub fn audit_head(&self) -> PathBuf {
        self.dir.join(".audit-chain")
    }

    /// How many audit records each export destination dropped (`torii doctor` reads it).
    pub fn audit_export_state(&self) -> PathBuf {
        self.dir.join(".audit-export")
    }

    pub fn providers_dir(&self) -> PathBuf {
        self.dir.join("providers")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn override_wins_over_home() {
        let root = resolve_root(Some("/tmp/x".into()), Some("/home/u".into())).unwrap();
        assert_eq!(root.dir(), Path::new("/tmp/x"));
    }

    #[test]
    fn empty_override_falls_back_to_home() {
        let root = resolve_root(Some("".into()), Some("/home/u".into())).unwrap();
        assert_eq!(root.dir(), Path::new("/home/u/.config/torii"));
    }

    #[test]
    fn relative_override_is_made_absolute() {
        let root = resolve_root(Some("rel/dir".into()), None).unwrap();
        assert!(root.dir().is_absolute());
        assert!(root.dir().ends_with("rel/dir"));
    }

    #[test]
    fn no_home_and_no_override_is_an_error() {
        assert!(matches!(resolve_root(None, None), Err(RootError::NoHome)));
    }

    #[test]
    fn home_falls_back_to_user_profile() {
        let home = home_dir_from_env(Some("".into()), Some("C:/Users/u".into()));
        assert_eq!(home, Some(PathBuf::from("C:/Users/u")));
    }
}
