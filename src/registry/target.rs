//! The `target.yaml` schema, exactly as decoded.
//!
//! A target is a human alias under `targets/<alias>/`. Mode-specific rules (which fields each
//! targeting mode needs or refuses) and references to other providers live in `validate`.

use serde::Deserialize;

use super::version::Version;

/// A decoded `target.yaml`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TargetConfig {
    pub version: Version,
    /// The alias; equal to the directory name.
    pub name: String,
    /// kubeconfig context (`kubectl_context` only, required there).
    pub context: Option<String>,
    /// AWS region (`aws_profile` only, optional).
    pub region: Option<String>,
    pub identity: TargetIdentity,
}

/// Who authenticates the target, in which credential bucket, and what it must prove.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TargetIdentity {
    /// Tool of the provider whose authentication lifecycle is used.
    pub provider: String,
    /// Credential bucket under the identity provider's `identities/`.
    pub scope: Option<String>,
    /// Profile handed to the child (required for `aws_profile`).
    pub profile: Option<String>,
    /// Identity the probe must report before the command runs.
    pub expect: Option<String>,
}
