//! A scripted human, for tests only: compiled into debug builds and absent from release
//! binaries (`cfg(debug_assertions)`). It is selected by the environment of the server process
//! (`TORII_TEST_RESPONDER=<file>`), which an MCP client's tool call cannot change.
//!
//! The file holds one JSON answer per line, consumed in order; every request is appended to
//! `<file>.requests` (kind, tool and scope only, never values) so a test can prove that a
//! window was, or was not, shown. An authentication answer is validated exactly as the window
//! does it, so refused candidates count the same way.
//!
//! ```text
//! {"auth": {"TOKEN": "value"}}     a candidate (validated like the window would)
//! {"auth": "cancel"}               the human cancels
//! ```

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::Value;

use crate::auth::{CollectRequest, Collected, missing_required};

/// The environment variable naming the script (debug builds only).
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

    fn log(&self, line: &Value) {
        let mut path = self.script.clone().into_os_string();
        path.push(".requests");
        if let Ok(mut file) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(PathBuf::from(path))
        {
            let _ = writeln!(file, "{line}");
        }
    }

    /// The next scripted answer, or `None` when the script is exhausted (treated as cancel).
    fn next_answer(&self) -> Option<Value> {
        let index = self.next.fetch_add(1, Ordering::SeqCst);
        let text = std::fs::read_to_string(&self.script).ok()?;
        let line = text
            .lines()
            .filter(|line| !line.trim().is_empty())
            .nth(index)?;
        serde_json::from_str(line).ok()
    }

    pub async fn collect(&self, request: CollectRequest) -> Collected {
        self.log(
            &serde_json::json!({"kind": "auth", "tool": request.tool, "scope": request.scope}),
        );
        let mut refused = 0;
        loop {
            let values = match self
                .next_answer()
                .as_ref()
                .and_then(|answer| answer.get("auth"))
            {
                Some(Value::Object(map)) => map
                    .iter()
                    .filter_map(|(name, value)| {
                        value.as_str().map(|text| (name.clone(), text.to_string()))
                    })
                    .collect::<BTreeMap<_, _>>(),
                _ => {
                    return Collected::Cancelled {
                        refused,
                        reason: "the human cancelled".into(),
                    };
                }
            };
            // As the window does: required fields first, then the validator.
            if !missing_required(&request.fields, &values).is_empty() {
                refused += 1;
                continue;
            }
            let accepted = match &request.validator {
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
