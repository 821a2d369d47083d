//! A credential bucket: `providers/<identity provider>/identities/<scope>/`.
//!
//! A simple provider authenticates in `identities/<tool>`; a target through its identity
//! provider in `identities/<scope>` (default: the target's name; aws_profile: the profile).
//! Targets share a session only when they declare the same scope.

use std::path::{Path, PathBuf};

use crate::registry::{Provider, Target};

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Bucket {
    dir: PathBuf,
}

impl Bucket {
    /// The bucket of a call: the identity provider's `identities/<scope>`.
    pub fn for_call(identity_provider: &Provider, target: Option<&Target>) -> Self {
        let scope = match target {
            Some(target) => target.scope(),
            None => identity_provider.default_scope(),
        };
        Self {
            dir: identity_provider.identity_dir(scope),
        }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Epoch of the last successful validation.
    pub fn session_cache(&self) -> PathBuf {
        self.dir.join(".session-cache")
    }

    /// Epoch and identity last confirmed by the identity probe.
    pub fn identity_cache(&self) -> PathBuf {
        self.dir.join(".identity-cache")
    }

    /// Collected credentials (`environment` strategy).
    pub fn credentials(&self) -> PathBuf {
        self.dir.join("auth").join("credentials.env")
    }
}
