//! The session step of an allowed call, for the strategies this build supports.
//!
//! `inherited` collects nothing: without a validator the call proceeds and the audit says
//! `session-unchecked`; with one, the validator runs with the call's environment (its output
//! is discarded, so nothing it prints can leak) and must exit 0. Managed collection
//! (`environment`) needs the authentication windows and is refused, failing closed.

use crate::audit::{AuditLog, Event, Reference};
use crate::registry::{Provider, Strategy};
use crate::runner::{self, Launch};

/// Why the session step stopped the call.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    #[error(
        "the inherited session of `{tool}` is not valid; a human must sign in again with the CLI's own flow, then retry"
    )]
    Invalid { tool: String },
    #[error("cannot run the session validator of `{tool}`: {source}")]
    Validator {
        tool: String,
        #[source]
        source: runner::RunError,
    },
    #[error(
        "authentication strategy `{strategy}` of `{tool}` is not available in this build of Torii"
    )]
    Unsupported {
        tool: String,
        strategy: &'static str,
    },
}

fn strategy_name(strategy: &Strategy) -> &'static str {
    match strategy {
        Strategy::Inherited => "inherited",
        Strategy::Environment => "environment",
        Strategy::SessionCommand => "session_command",
        Strategy::CredentialFile => "credential_file",
    }
}

/// Makes sure the provider's session may be used; returns nothing to overlay for inherited.
pub async fn prepare(
    provider: &Provider,
    env: &[(String, String)],
    audit: &AuditLog,
    scope: &str,
    max_output_bytes: usize,
) -> Result<(), SessionError> {
    let auth = &provider.config().auth;
    let tool = provider.tool().to_string();
    match &auth.strategy {
        Strategy::Inherited => {}
        other => {
            return Err(SessionError::Unsupported {
                tool,
                strategy: strategy_name(other),
            });
        }
    }
    let Some(validate) = &auth.validate else {
        audit.record(scope, Event::SessionUnchecked, &Reference::none(), None);
        return Ok(());
    };
    let program = runner::resolve(&validate.command).map_err(|source| SessionError::Validator {
        tool: tool.clone(),
        source,
    })?;
    let launch = Launch {
        program,
        args: validate.args.clone(),
        env_overlay: env.to_vec(),
        env_remove: auth.removed_env.clone(),
        max_output_bytes,
    };
    let execution = runner::run(launch)
        .await
        .map_err(|source| SessionError::Validator {
            tool: tool.clone(),
            source,
        })?;
    if execution.exit_code == 0 {
        audit.record(scope, Event::SessionOk, &Reference::none(), None);
        Ok(())
    } else {
        audit.record(scope, Event::SessionInvalid, &Reference::none(), None);
        Err(SessionError::Invalid { tool })
    }
}
