//! Running a session validator (`auth.validate`) and building the environment a session
//! gives a child: the provider's persistent `.env`, then the collected fields injected through
//! `inject.environment`. Validator output is discarded: nothing it prints can leak.

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::confine::Confinement;
use crate::registry::{Provider, Strategy};
use crate::runner::{self, Launch, RunError};
use crate::secret::{EnvVars, Secret};

/// Everything needed to check one candidate session, without any collected value.
#[derive(Debug, Clone)]
pub struct Validator {
    pub program: PathBuf,
    pub args: Vec<String>,
    /// The provider's `.env` (and, for a target binding, its profile variables).
    pub base_env: EnvVars,
    /// `(variable, field)`: how collected fields reach the validator and the child.
    pub inject: Vec<(String, String)>,
    pub removed_env: Vec<String>,
    pub confinement: Confinement,
}

/// How collected fields become environment variables.
pub fn injection(provider: &Provider) -> Vec<(String, String)> {
    let auth = &provider.config().auth;
    if auth.strategy != Strategy::Environment {
        return Vec::new();
    }
    // The registry accepted only templates of the exact form `${FIELD}` of a declared field.
    auth.inject
        .iter()
        .flat_map(|inject| inject.pairs())
        .map(|(variable, field)| (variable.to_string(), field.to_string()))
        .collect()
}

/// The injected variables for `values`.
pub fn inject(inject: &[(String, String)], values: &BTreeMap<String, Secret>) -> EnvVars {
    inject
        .iter()
        .filter_map(|(variable, field)| {
            values
                .get(field)
                .map(|value| (variable.clone(), value.clone()))
        })
        .collect()
}

impl Validator {
    /// The provider's validator, or `None` when it declares none. `removed_env` is what the
    /// command itself would not inherit.
    pub fn of(
        provider: &Provider,
        base_env: EnvVars,
        removed_env: Vec<String>,
        confinement: &Confinement,
    ) -> Result<Option<Self>, RunError> {
        let auth = &provider.config().auth;
        let Some(validate) = &auth.validate else {
            return Ok(None);
        };
        Ok(Some(Self {
            program: runner::resolve(&validate.command)?,
            args: validate.args.clone(),
            base_env,
            inject: injection(provider),
            removed_env,
            confinement: confinement.clone(),
        }))
    }

    /// The launch that checks the session made of `values`, wherever it is checked: by the
    /// server (a stored session, the test responder) and by the authentication window's
    /// process (a candidate), so that a session is validated under exactly the environment
    /// its command gets. That environment is the inherited one minus `removed_env`, then
    /// `base_env`, then each injected variable whose field is in `values`, set to its value
    /// even when that is empty (see [`inject`]); only the exit code is kept.
    pub fn launch(&self, values: &BTreeMap<String, Secret>) -> Launch {
        Launch {
            program: self.program.clone(),
            args: self.args.clone(),
            env_overlay: runner::dotenv::overlay(
                self.base_env.clone(),
                inject(&self.inject, values),
            ),
            env_remove: self.removed_env.clone(),
            // Only the exit code matters; keep nothing of what it prints.
            max_output_bytes: 1,
            confinement: self.confinement.clone(),
            timeout: Some(runner::CHECK_TIMEOUT),
        }
    }

    /// Whether the session made of `values` is accepted (exit code 0).
    pub async fn accepts(&self, values: &BTreeMap<String, Secret>) -> Result<bool, RunError> {
        Ok(runner::run(self.launch(values)).await?.exit_code == 0)
    }
}
