//! A scripted human, for tests only: compiled only with the `test-hooks` feature, which
//! scripts/test.sh turns on, and absent from every other build, debug or release. It is
//! selected by the environment of the server process
//! (`TORII_TEST_RESPONDER=<file>`), which an MCP client's tool call cannot change.
//!
//! It speaks the prompt protocol: the file holds one answer per line, in the exact JSON a
//! window writes (`{"operation": "once"}`, `{"target_lease": {"replace": {"minutes": 5}}}`,
//! `{"authenticate": {"validated": {"values": {"TOKEN": "…"}}}}`,
//! `{"authenticate": {"cancelled": {}}}`), consumed in order and checked against the question
//! exactly as a window's answer is. A candidate session is validated as the window does it, so
//! refused candidates count the same way. An exhausted script answers no. Every question is
//! appended to `<file>.requests` (its kind and tool only) so a test can prove that a window
//! was, or was not, shown.

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::auth::{Collected, Validator};
use crate::prompt::{Answer, AuthAnswer, AuthRequest, Question, Request};

/// The environment variable naming the script (feature `test-hooks` only).
pub const RESPONDER_ENV: &str = "TORII_TEST_RESPONDER";

#[derive(Debug)]
pub struct Responder {
    script: PathBuf,
    next: AtomicUsize,
}

impl Responder {
    pub fn from_env() -> Option<Self> {
        let script = std::env::var_os(RESPONDER_ENV).filter(|value| !value.is_empty())?;
        Some(Self {
            script: PathBuf::from(script),
            next: AtomicUsize::new(0),
        })
    }

    fn log(&self, request: &Request) {
        let (kind, tool) = match request {
            Request::Operation(request) => ("operation", &request.tool),
            Request::TargetLease(request) => ("target_lease", &request.tool),
            Request::Authenticate(request) => ("authenticate", &request.tool),
        };
        let mut path = self.script.clone().into_os_string();
        path.push(".requests");
        if let Ok(mut file) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(PathBuf::from(path))
        {
            let _ = writeln!(file, "{}", serde_json::json!({"kind": kind, "tool": tool}));
        }
    }

    fn next_answer(&self) -> Option<Answer> {
        let index = self.next.fetch_add(1, Ordering::SeqCst);
        let text = std::fs::read_to_string(&self.script).ok()?;
        let line = text
            .lines()
            .filter(|line| !line.trim().is_empty())
            .nth(index)?;
        serde_json::from_str(line).ok()
    }

    /// The next answer, checked like a window's.
    pub fn answer<Q: Question>(&self, question: &Q) -> Result<Q::Answer, String> {
        self.log(&question.request());
        let answer = self
            .next_answer()
            .ok_or("the test script has no answer left")?;
        question.check(answer).map_err(|error| error.to_string())
    }

    /// A session: candidates are validated in order until one passes or the script cancels.
    pub async fn collect(&self, request: &AuthRequest, validator: Option<&Validator>) -> Collected {
        self.log(&request.request());
        let mut refused = 0;
        loop {
            let answer = self.next_answer().map(|answer| request.check(answer));
            let values = match answer {
                Some(Ok(AuthAnswer::Validated { values, .. })) => values,
                Some(Err(_)) => {
                    // Incomplete or undeclared fields: the window would keep the form open.
                    refused += 1;
                    continue;
                }
                _ => {
                    return Collected::Cancelled {
                        refused,
                        reason: "the human cancelled".into(),
                    };
                }
            };
            let accepted = match validator {
                Some(validator) => validator.accepts(&values).await.unwrap_or(false),
                None => true,
            };
            if accepted {
                return Collected::Validated { values, refused };
            }
            refused += 1;
        }
    }
}
