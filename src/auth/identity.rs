//! The identity probe (`auth.identity`): "whose session is this?".
//!
//! It runs the identity provider's own command with JSON output forced, reads one top-level
//! field and compares it with the target's `identity.expect`. Expected and observed values and
//! the probe's output never reach the audit log or the agent: only the outcome does.

use std::path::PathBuf;

use serde_json::Value;

use crate::audit::{AuditLog, Event, Reference};
use crate::confine::Confinement;
use crate::registry::IdentityProbe;
use crate::runner::{self, Launch};
use crate::secret::EnvVars;

use super::AuthError;
use super::bucket::Bucket;
use super::cache;

/// One probe run, fully bound: program, arguments (binding included) and environment.
#[derive(Debug, Clone)]
pub struct Probe {
    pub program: PathBuf,
    pub args: Vec<String>,
    pub env: EnvVars,
    pub removed_env: Vec<String>,
    pub field: String,
    pub ttl_seconds: u64,
    pub confinement: Confinement,
}

impl Probe {
    /// `probe` with its JSON arguments (`--output json` unless it names others) appended
    /// unless it already chooses an output, then the binding's own arguments (e.g.
    /// `--profile`).
    pub fn new(
        probe: &IdentityProbe,
        ttl_seconds: u64,
        binding_args: Vec<String>,
        env: EnvVars,
        removed_env: Vec<String>,
        confinement: &Confinement,
    ) -> Result<Self, runner::RunError> {
        let mut args = probe.args.clone();
        let chooses_output = args
            .iter()
            .any(|arg| arg == "-o" || arg == "--output" || arg.starts_with("--output="));
        if !chooses_output {
            match &probe.json_args {
                Some(json_args) => args.extend(json_args.iter().cloned()),
                None => args.extend(["--output".to_string(), "json".to_string()]),
            }
        }
        args.extend(binding_args);
        Ok(Self {
            program: runner::resolve(&probe.command)?,
            args,
            env,
            removed_env,
            field: probe.field.clone(),
            ttl_seconds,
            confinement: confinement.clone(),
        })
    }

    /// The identity the session reports, or why it could not be read.
    async fn observe(&self) -> Result<String, &'static str> {
        let launch = Launch {
            program: self.program.clone(),
            args: self.args.clone(),
            env_overlay: self.env.clone(),
            env_remove: self.removed_env.clone(),
            max_output_bytes: 64 * 1024,
            confinement: self.confinement.clone(),
            timeout: Some(runner::CHECK_TIMEOUT),
        };
        let execution = runner::run(launch)
            .await
            .map_err(|_| "the probe could not run")?;
        if execution.exit_code != 0 {
            return Err("the probe failed");
        }
        let json: Value =
            serde_json::from_str(&execution.stdout).map_err(|_| "the probe output is not JSON")?;
        // `core.account`: a member of a member (gcloud nests its properties by section).
        let pointer = format!("/{}", self.field.replace('.', "/"));
        match json.pointer(&pointer) {
            Some(Value::String(text)) => Ok(text.clone()),
            Some(Value::Number(number)) => Ok(number.to_string()),
            _ => Err("the probe output lacks the identity field"),
        }
    }
}

/// Confirms that the session belongs to `expect`. With `use_cache`, a recent confirmation of
/// the same identity in the bucket is reused.
pub async fn confirm(
    probe: &Probe,
    expect: &str,
    bucket: &Bucket,
    use_cache: bool,
    audit: &AuditLog,
    scope: &str,
    now: u64,
) -> Result<(), AuthError> {
    if use_cache
        && cache::fresh_identity(&bucket.identity_cache(), probe.ttl_seconds, now).as_deref()
            == Some(expect)
    {
        audit.record(scope, Event::IdentityOk, &Reference::none(), Some("cached"));
        return Ok(());
    }
    match probe.observe().await {
        Ok(observed) if observed == expect => {
            // The cache is an optimisation: failing to write it must not fail the call.
            let _ = cache::record_identity(&bucket.identity_cache(), &observed, now);
            audit.record(scope, Event::IdentityOk, &Reference::none(), None);
            Ok(())
        }
        Ok(_) => {
            audit.record(scope, Event::IdentityMismatch, &Reference::none(), None);
            Err(AuthError::Identity {
                reason: "the session belongs to another identity",
            })
        }
        Err(reason) => {
            audit.record(scope, Event::IdentityCheckFailed, &Reference::none(), None);
            Err(AuthError::Identity { reason })
        }
    }
}
