//! Why a session could not be made ready. Messages are shown to the agent: they ask for a
//! human and never contain credentials, profiles or identities.

use crate::atomic::WriteError;
use crate::runner::{EnvFileError, RunError};

#[derive(Debug, thiserror::Error)]
pub enum AuthError {
    #[error("authentication for `{tool}` was not completed: {reason}")]
    Cancelled { tool: String, reason: String },
    #[error(
        "the session of `{tool}` is not valid and Torii does not collect it (inherited): a human must \
         sign in again with the CLI's own flow, then retry"
    )]
    InheritedInvalid { tool: String },
    #[error("authentication strategy `{strategy}` of `{tool}` is not implemented")]
    NotImplemented {
        tool: String,
        strategy: &'static str,
    },
    #[error("cannot run the session validator of `{tool}`")]
    Validator {
        tool: String,
        #[source]
        source: RunError,
    },
    #[error(
        "the identity of this session could not be confirmed ({reason}); a human must authenticate \
         the configured identity with the CLI's own flow, then retry the same call"
    )]
    Identity { reason: &'static str },
    #[error("cannot read the stored session of `{tool}`")]
    Credentials {
        tool: String,
        #[source]
        source: EnvFileError,
    },
    #[error("cannot store the session of `{tool}`")]
    Persist {
        tool: String,
        #[source]
        source: WriteError,
    },
}
