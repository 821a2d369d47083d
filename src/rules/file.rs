//! Locating and loading the effective `rules.yaml` of a provider or a target.
//!
//! A target's own `targets/<alias>/rules.yaml` replaces the provider's shared `rules.yaml` for
//! that alias when it exists; otherwise the alias inherits the shared file. The rules are
//! parsed and compiled whole with the provider's settings: there is never a partial policy.

use std::path::{Path, PathBuf};

use jasper::{Policy, PolicyError, PolicySettings, RulesError, RulesFile};
use strict_yaml::located;

use crate::registry::{Provider, Target};

/// Largest `rules.yaml` read: far above any real policy (20,000 rules are about 600 KiB).
pub const MAX_RULES_BYTES: u64 = 8 * 1024 * 1024;

/// Whose policy a `rules.yaml` is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RulesOrigin {
    /// The provider's shared policy.
    Shared,
    /// The target's own policy, replacing the shared one for this alias.
    Target { alias: String },
    /// A target without a policy of its own: it uses the shared one.
    Inherited { alias: String },
}

/// The `rules.yaml` that governs a provider or a target, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Effective {
    pub path: PathBuf,
    pub origin: RulesOrigin,
}

/// A policy read from disk and compiled.
#[derive(Debug)]
pub struct LoadedPolicy {
    pub path: PathBuf,
    /// The file exactly as read.
    pub text: String,
    pub rules: RulesFile,
    pub policy: Policy,
}

/// Why a policy could not be read or compiled. Every message starts with the file.
#[derive(Debug, thiserror::Error)]
pub enum PolicyFileError {
    #[error("rules file not found: {}", path.display())]
    NotFound { path: PathBuf },
    #[error("cannot read {}", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}: larger than {MAX_RULES_BYTES} bytes", path.display())]
    TooLarge { path: PathBuf },
    #[error("{}: not valid UTF-8", path.display())]
    NotUtf8 { path: PathBuf },
    /// The message after the position is the source's (`file:line:column: deny[0]: …`).
    #[error("{}", located(path.display(), source.position()))]
    Parse {
        path: PathBuf,
        #[source]
        source: RulesError,
    },
    #[error("{}", located(path.display(), source.position()))]
    Compile {
        path: PathBuf,
        #[source]
        source: PolicyError,
    },
}

/// Which file governs `provider`, or `target` under it. Only the existence of the target's
/// own file is checked; nothing is read.
pub fn effective(
    provider: &Provider,
    target: Option<&Target>,
) -> Result<Effective, PolicyFileError> {
    let Some(target) = target else {
        return Ok(Effective {
            path: provider.rules_path(),
            origin: RulesOrigin::Shared,
        });
    };
    let own = target.rules_path();
    let alias = target.alias().to_string();
    // `symlink_metadata`: a link whose target is missing is still the target's own policy,
    // which then fails to read and denies; it must never fall back to the shared rules.
    match std::fs::symlink_metadata(&own) {
        Ok(_) => Ok(Effective {
            path: own,
            origin: RulesOrigin::Target { alias },
        }),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(Effective {
            path: provider.rules_path(),
            origin: RulesOrigin::Inherited { alias },
        }),
        Err(source) => Err(PolicyFileError::Read { path: own, source }),
    }
}

/// The text of a rules file, refusing a missing, unreadable (a dangling link, a FIFO),
/// oversized or non-UTF-8 one.
pub fn read_rules_text(path: &Path) -> Result<String, PolicyFileError> {
    let bytes = match crate::files::read_optional(path, MAX_RULES_BYTES) {
        Ok(Some(bytes)) => bytes,
        Ok(None) => {
            return Err(PolicyFileError::NotFound {
                path: path.to_path_buf(),
            });
        }
        Err(source) if source.kind() == std::io::ErrorKind::FileTooLarge => {
            return Err(PolicyFileError::TooLarge {
                path: path.to_path_buf(),
            });
        }
        Err(source) => {
            return Err(PolicyFileError::Read {
                path: path.to_path_buf(),
                source,
            });
        }
    };
    String::from_utf8(bytes).map_err(|_| PolicyFileError::NotUtf8 {
        path: path.to_path_buf(),
    })
}

/// Parses and compiles rules text; `path` is used for messages only.
pub fn compile(
    path: &Path,
    text: &str,
    settings: &PolicySettings,
) -> Result<(RulesFile, Policy), PolicyFileError> {
    let rules = jasper::parse_rules(text).map_err(|source| PolicyFileError::Parse {
        path: path.to_path_buf(),
        source,
    })?;
    let policy = Policy::compile(&rules, settings).map_err(|source| PolicyFileError::Compile {
        path: path.to_path_buf(),
        source,
    })?;
    Ok((rules, policy))
}

/// Reads, parses and compiles the rules file at `path`.
pub fn load(path: &Path, settings: &PolicySettings) -> Result<LoadedPolicy, PolicyFileError> {
    let text = read_rules_text(path)?;
    let (rules, policy) = compile(path, &text, settings)?;
    Ok(LoadedPolicy {
        path: path.to_path_buf(),
        text,
        rules,
        policy,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_file_says_rules_file_not_found_and_the_path() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("rules.yaml");
        let error = load(&path, &PolicySettings::default()).unwrap_err();
        assert_eq!(
            error.to_string(),
            format!("rules file not found: {}", path.display())
        );
    }

    #[test]
    fn errors_name_the_file_and_the_rule() {
        let path = Path::new("/p/rules.yaml");
        let error = compile(path, "deny:\n  - \"/(/\"\n", &PolicySettings::default()).unwrap_err();
        assert_eq!(
            crate::errors::chain(&error),
            "/p/rules.yaml:2:5: deny[0]: invalid regex \"/(/\": unclosed group"
        );
        let error = compile(path, "deny: [\n", &PolicySettings::default()).unwrap_err();
        let message = crate::errors::chain(&error);
        assert!(message.starts_with("/p/rules.yaml:1:"), "{message}");
    }

    /// Issue 17: a second document printed the decoder's `Documents { documents: 2 }`.
    #[test]
    fn a_second_yaml_document_in_rules_yaml_is_refused_in_a_sentence() {
        let path = Path::new("/p/rules.yaml");
        let text = "deny: []\n---\naccept: []\n";
        let error = compile(path, text, &PolicySettings::default()).unwrap_err();
        assert_eq!(
            crate::errors::chain(&error),
            "/p/rules.yaml:2:1: a second YAML document starts here; the file must hold exactly one"
        );
    }
}
