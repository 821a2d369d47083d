//! The single error type of registry loading.
//!
//! Every message starts with the file it is about and names the field or the line, so an
//! operator can fix the configuration without guessing. Loading stops at the first error:
//! an invalid provider must keep the server from starting.

use std::path::PathBuf;

use strict_yaml::{Position, located};

/// Why the provider registry could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum RegistryError {
    /// A file or directory could not be read. The I/O error is part of the message, not a
    /// `source`, so walking the error chain does not print it twice.
    #[error("{}: {error}", path.display())]
    Io {
        path: PathBuf,
        error: std::io::Error,
    },

    /// The YAML could not be decoded: syntax, wrong type, missing or unknown field,
    /// unsupported `version`, or one of the decoder's budgets (alias bombs, nesting).
    #[error("{}: {message}", located(path.display(), *position))]
    Yaml {
        path: PathBuf,
        position: Option<Position>,
        message: String,
    },

    /// A decoded value breaks a rule of the schema.
    #[error("{}: field `{field}`: {message}", path.display())]
    Invalid {
        path: PathBuf,
        field: String,
        message: String,
    },

    /// Two providers claim the same `name` or `tool`.
    #[error(
        "{}: field `{field}`: {value:?} is already used by {}",
        second.display(),
        first.display()
    )]
    Duplicate {
        field: &'static str,
        value: String,
        first: PathBuf,
        second: PathBuf,
    },

    /// A `target.yaml` exists under a provider that is not target-aware.
    #[error(
        "{}: targets are only allowed under a target-aware provider, but {} has no field `targeting`",
        target.display(),
        provider.display()
    )]
    TargetWithoutTargeting { target: PathBuf, provider: PathBuf },
}
