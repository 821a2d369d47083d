//! The shape of every step of a call: `Step<T>` goes on with `T` or stops the call, either by a
//! decision not to run it ([`Stop::Denied`]) or by an operational failure ([`Stop::Failed`],
//! answered with `isError`). A stop becomes the agent's answer in one place,
//! [`super::CallOutcome::stopped`], so what the agent may see is decided there and nowhere else.

use super::outcome::{DecisionView, Source};
use super::session::SessionError;
use crate::atomic::WriteError;
use crate::errors::chain;
use crate::rules::PolicyFileError;
use crate::runner::{EnvFileError, RunError};

pub(super) type Step<T> = Result<T, Stop>;

#[derive(Debug)]
pub(super) enum Stop {
    /// Not run, by decision: the policy, a missing lease or the human. `message` is for the
    /// agent.
    Denied {
        decision: DecisionView,
        message: String,
    },
    /// Not run (or not finished), because something failed.
    Failed(CallError),
}

impl Stop {
    pub fn denied(source: Source, rule: Option<String>, message: impl Into<String>) -> Self {
        Stop::Denied {
            decision: DecisionView::deny(source, rule),
            message: message.into(),
        }
    }
}

impl From<CallError> for Stop {
    fn from(error: CallError) -> Self {
        Stop::Failed(error)
    }
}

/// Why a call failed. Its text is what the agent reads (paths under the config root are then
/// written relative to it), so no variant carries file content or a secret. Each failure keeps
/// its typed cause, and its whole chain of causes is rendered here, once: the agent reads the
/// cause, which is the useful part.
#[derive(Debug, thiserror::Error)]
pub(super) enum CallError {
    #[error(
        "`{flag}` is locked: the target alias already fixes the context, identity and \
         endpoint. Remove it and call again with the same target."
    )]
    Locked { flag: String },
    #[error("{}", chain(.0))]
    Policy(PolicyFileError),
    /// A `.env` file could not be read; the text names the file, never its content.
    #[error("{}", chain(.0))]
    Environment(EnvFileError),
    /// The session could not be prepared or confirmed.
    #[error("{}", chain(.0))]
    Session(SessionError),
    #[error("the approval could not be stored: {}", chain(.0))]
    GrantNotStored(WriteError),
    #[error(
        "the lease on target `{alias}` ended before the command could run (expired, revoked or \
         its binding changed). Ask the human to activate it again, then retry."
    )]
    LeaseLost { alias: String },
    #[error("{}", chain(.0))]
    Run(RunError),
    #[error("the server is shutting down")]
    ShuttingDown,
    /// Blocking work was interrupted (its task panicked or the runtime is stopping).
    #[error("{what} was interrupted")]
    Interrupted { what: &'static str },
}

impl From<PolicyFileError> for CallError {
    fn from(error: PolicyFileError) -> Self {
        CallError::Policy(error)
    }
}

/// Runs file work that may wait (for another process's lock on the leases, for a write to
/// reach the disk) off the async workers; plain reads of small files do not need it (see
/// `crate::files`). Torii never cancels these tasks, so the only error is a panic in `work` or
/// a runtime shutting down: the call fails (closed) naming `what`.
pub(super) async fn blocking<T: Send + 'static>(
    what: &'static str,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, CallError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|_| CallError::Interrupted { what })
}

#[cfg(test)]
mod tests {
    use super::CallError;

    /// The agent reads `to_string()`: a broken policy keeps its position and its reason, which
    /// `PolicyFileError` holds as a source rather than in its own message.
    #[test]
    fn a_broken_policy_reaches_the_agent_with_its_cause() {
        let error = crate::rules::compile(
            std::path::Path::new("providers/cli/rules.yaml"),
            "deny:\n  - \"/(/\"\n",
            &jasper::PolicySettings::default(),
        )
        .unwrap_err();
        assert_eq!(
            CallError::from(error).to_string(),
            "providers/cli/rules.yaml:2:5: deny[0]: invalid regex \"/(/\": unclosed group"
        );
    }
}
