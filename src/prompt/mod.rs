//! Asking the human: the request/answer protocol between the MCP server and the `torii __prompt`
//! subprocess that shows a window, independent of any GUI toolkit.
//!
//! The server never links a window into its own process (its stdout is the MCP channel). To ask
//! a question it runs its own executable as `torii __prompt`, writes one JSON line (the request)
//! to the child's stdin, closes it and reads one JSON line (the answer) from the child's stdout.
//! Both pipes are private to the two processes; the child's stderr is discarded.
//!
//! ```text
//! server                                   torii __prompt
//!   ask(&question) ── {"protocol":2,"language":…,"request":{…}} ──▶ window (feature `gui`)
//!   check(answer)  ◀── {"protocol":2,"answer":{…}} ───  exit 0
//! ```
//!
//! Every failure means "no": a window that cannot open, a child that exits non-zero or writes
//! nothing, a malformed answer, an answer of another kind or outside the request (a prefix longer
//! than the call, a duration outside 1 to 1440 minutes, an undeclared or empty required field) is
//! an error, and the caller denies the call or cancels the authentication.
//!
//! Files: `operation.rs`, `lease.rs`, `auth.rs` (the three questions and their answer checks),
//! `wire.rs` (the JSON lines), `client.rs` (the server side: spawn, write, read, check),
//! `availability.rs` (when a window may open at all). The `__prompt` side, which shows the
//! window, is `crate::window_process`: this module never depends on the windows.

mod auth;
mod availability;
mod client;
pub mod console;
mod lease;
mod operation;
pub(crate) mod wire;

pub use auth::{AuthAnswer, AuthRequest, FieldSpec, ValidatorSpec};
pub use availability::{
    Approval, Availability, NO_GUI_ENV, availability, availability_from, display_present,
};
pub use client::{MAX_ANSWER_BYTES, PromptError, Prompter, ask};
pub use lease::{LeaseAnswer, LeaseRequest};
pub use operation::{
    GrantScope, OperationAnswer, OperationRequest, grant_matcher, oldest_grant_remaining_secs,
};
pub use wire::{Answer, PROTOCOL_VERSION, Request};

// The questions' tests build their requests as the protocol's tests do.
#[cfg(test)]
pub(crate) use operation::test_request;

/// The hidden subcommand the server runs for a window (see `crate::window_process`).
pub const SUBCOMMAND: &str = "__prompt";

/// An answer the server refuses: the caller treats it as deny (or cancel).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the prompt answered out of bounds: {0}")]
pub struct InvalidAnswer(String);

/// A question the server can ask, with the answer type it gets back.
pub trait Question: sealed::Sealed {
    type Answer;
    /// The request sent to the window.
    fn request(&self) -> Request;
    /// The answer, if it is of this question's kind and fits the request.
    fn check(&self, answer: Answer) -> Result<Self::Answer, InvalidAnswer>;
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for super::OperationRequest {}
    impl Sealed for super::LeaseRequest {}
    impl Sealed for super::AuthRequest {}
}

fn other_kind(expected: &str) -> InvalidAnswer {
    InvalidAnswer(format!("expected an answer to the {expected} question"))
}

impl Question for OperationRequest {
    type Answer = OperationAnswer;

    fn request(&self) -> Request {
        Request::Operation(self.clone())
    }

    fn check(&self, answer: Answer) -> Result<OperationAnswer, InvalidAnswer> {
        match answer {
            Answer::Operation(answer) => self.check_answer(answer),
            _ => Err(other_kind("operation")),
        }
    }
}

impl Question for LeaseRequest {
    type Answer = LeaseAnswer;

    fn request(&self) -> Request {
        Request::TargetLease(self.clone())
    }

    fn check(&self, answer: Answer) -> Result<LeaseAnswer, InvalidAnswer> {
        match answer {
            Answer::TargetLease(answer) => self.check_answer(answer),
            _ => Err(other_kind("target lease")),
        }
    }
}

impl Question for AuthRequest {
    type Answer = AuthAnswer;

    fn request(&self) -> Request {
        Request::Authenticate(self.clone())
    }

    fn check(&self, answer: Answer) -> Result<AuthAnswer, InvalidAnswer> {
        match answer {
            Answer::Authenticate(answer) => self.check_answer(answer),
            _ => Err(other_kind("authentication")),
        }
    }
}
