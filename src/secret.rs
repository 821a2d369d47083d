//! Values that may be credentials: a field collected from the human, a stored session, and
//! every value of an environment overlay (a `.env` the operator wrote may hold a secret too).
//!
//! [`Secret`] has no `Display`, and its `Debug` never shows the value, so a log line, a panic
//! message or an error built with `{:?}` cannot leak it. Reading the value takes
//! [`Secret::expose`], which says what it does where it is done: when the value is handed to a
//! child's environment, written to `credentials.env`, or sent to the window that edits it.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A value that must not be printed.
#[derive(Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Secret(String);

impl Secret {
    pub fn new(value: impl Into<String>) -> Self {
        Self(value.into())
    }

    /// The value itself, for the few places that must hand it on.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(..)")
    }
}

impl From<String> for Secret {
    fn from(value: String) -> Self {
        Self(value)
    }
}

impl From<&str> for Secret {
    fn from(value: &str) -> Self {
        Self(value.to_string())
    }
}

/// Environment variables for a child: names in the clear, values [`Secret`]. A later entry
/// wins over an earlier one with the same name.
pub type EnvVars = Vec<(String, Secret)>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_never_shows_the_value() {
        let secret = Secret::new("hunter2");
        assert_eq!(format!("{secret:?}"), "Secret(..)");
        let env: EnvVars = vec![("AWS_SECRET_ACCESS_KEY".into(), secret.clone())];
        let shown = format!("{env:?}");
        assert!(shown.contains("AWS_SECRET_ACCESS_KEY") && !shown.contains("hunter2"));
        assert_eq!(secret.expose(), "hunter2");
    }

    #[test]
    fn serializes_as_the_plain_string() {
        let secret = Secret::new("v");
        assert_eq!(serde_json::to_string(&secret).unwrap(), "\"v\"");
        let back: Secret = serde_json::from_str("\"v\"").unwrap();
        assert_eq!(back, secret);
    }
}
