//! The state of the authentication form: field values, the validation in progress, the status
//! bar and the outcome. Only a candidate the validator accepted becomes an answer.

use std::collections::BTreeMap;

use super::clipboard;
use super::feedback::{Decided, Feedback, Status};
use super::validator::{Job, Validation};
use crate::prompt::{AuthAnswer, AuthRequest};
use crate::secret::Secret;

/// Where the form stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Editable.
    Editing,
    /// Locked while the validator runs.
    Validating,
    /// Finished (validated or cancelled): see [`AuthState::decided`].
    Done,
}

/// Everything the authentication window holds.
pub struct AuthState {
    request: AuthRequest,
    values: Vec<String>,
    phase: Phase,
    job: Option<Job>,
    status: Status,
    decided: Option<Decided<AuthAnswer>>,
    /// Candidates the validator refused so far, reported with the answer for the audit.
    refused: u32,
}

/// Labels the views show, and the tests and the driver click.
pub mod labels {
    use crate::language::Label;

    pub const VALIDATE: Label = Label("auth-validate");
    pub const CANCEL: Label = Label("auth-cancel");
    pub const PASTE: Label = Label("auth-paste");
}

impl AuthState {
    pub fn new(request: AuthRequest) -> Self {
        let values = vec![String::new(); request.fields.len()];
        let status = Status::Info(match request.validator {
            Some(_) => crate::tr!("auth-status-fill"),
            None => crate::tr!("auth-status-no-validator"),
        });
        Self {
            request,
            values,
            phase: Phase::Editing,
            job: None,
            status,
            decided: None,
            refused: 0,
        }
    }

    pub fn request(&self) -> &AuthRequest {
        &self.request
    }

    pub fn values(&self) -> &[String] {
        &self.values
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    pub fn status(&self) -> &Status {
        &self.status
    }

    pub fn decided(&self) -> Option<&Decided<AuthAnswer>> {
        self.decided.as_ref()
    }

    /// The form takes input only while editing.
    pub fn editable(&self) -> bool {
        self.phase == Phase::Editing
    }

    pub fn set_value(&mut self, index: usize, value: String) {
        if self.editable()
            && let Some(slot) = self.values.get_mut(index)
        {
            *slot = value;
        }
    }

    /// Labels of the required fields that are still blank.
    pub fn missing_required(&self) -> Vec<&str> {
        self.request
            .fields
            .iter()
            .zip(&self.values)
            .filter(|(field, value)| field.required && value.trim().is_empty())
            .map(|(field, _)| field.label.as_str())
            .collect()
    }

    /// The candidate: name → value, single-line values trimmed, empty optional fields left out.
    pub fn candidate(&self) -> BTreeMap<String, Secret> {
        self.request
            .fields
            .iter()
            .zip(&self.values)
            .map(|(field, value)| {
                let value = if field.multiline {
                    value.clone()
                } else {
                    value.trim().to_string()
                };
                (field.name.clone(), value)
            })
            .filter(|(_, value)| !value.trim().is_empty())
            .map(|(name, value)| (name, Secret::from(value)))
            .collect()
    }

    /// Fills fields from clipboard text (or reports why not). Values are never echoed.
    pub fn paste(&mut self, text: Result<String, String>) {
        if !self.editable() {
            return;
        }
        let text = match text {
            Ok(text) => text,
            Err(error) => {
                self.status = Status::Error(crate::tr!(
                    "auth-clipboard-unreadable",
                    error = error.as_str()
                ));
                return;
            }
        };
        let names: Vec<&str> = self
            .request
            .fields
            .iter()
            .map(|field| field.name.as_str())
            .collect();
        let found = clipboard::parse(&text, &names);
        if found.is_empty() {
            self.status = Status::Error(crate::tr!("auth-clipboard-empty"));
            return;
        }
        let mut filled: Vec<&str> = Vec::new();
        for (name, value) in found {
            let slots = self.request.fields.iter().zip(self.values.iter_mut());
            for (field, slot) in slots.filter(|(field, _)| field.name == name) {
                *slot = value.clone();
                if !filled.contains(&field.label.as_str()) {
                    filled.push(&field.label);
                }
            }
        }
        self.status = Status::Info(crate::tr!(
            "auth-filled",
            count = filled.len(),
            names = filled.join(", ")
        ));
    }

    /// "Validate and use": refuses an incomplete form naming the missing fields; otherwise
    /// locks the form and starts the validator (`wake` repaints the window when it is done).
    pub fn validate(&mut self, now: f64, wake: impl Fn() + Send + 'static) {
        if !self.editable() {
            return;
        }
        let missing = self.missing_required();
        if !missing.is_empty() {
            self.status = Status::Error(crate::tr!(
                "auth-missing",
                count = missing.len(),
                names = missing.join(", ")
            ));
            return;
        }
        let candidate = self.candidate();
        match &self.request.validator {
            None => self.accept(candidate, now),
            Some(spec) => {
                self.job = Some(Job::start(spec, &candidate, wake));
                self.phase = Phase::Validating;
                self.status = Status::Progress(crate::tr!("auth-validating"));
            }
        }
    }

    /// Picks up the validator's verdict, if it arrived.
    pub fn poll(&mut self, now: f64) {
        let Some(verdict) = self.job.as_ref().and_then(Job::poll) else {
            return;
        };
        self.job = None;
        match verdict {
            Validation::Accepted => {
                let candidate = self.candidate();
                self.accept(candidate, now);
            }
            Validation::Refused(reason) => {
                self.refused = self.refused.saturating_add(1);
                self.phase = Phase::Editing;
                self.status = Status::Error(crate::tr!("auth-refused", reason = reason.text()));
            }
        }
    }

    /// Cancel: stops a running validation; nothing is returned or persisted.
    pub fn cancel(&mut self, now: f64) {
        if self.decided.is_some() {
            return;
        }
        if let Some(mut job) = self.job.take() {
            job.cancel();
        }
        self.finish(
            AuthAnswer::Cancelled {
                refused: self.refused,
            },
            Feedback::deny(crate::tr!("auth-cancelled")),
            now,
        );
    }

    fn accept(&mut self, values: BTreeMap<String, Secret>, now: f64) {
        let text = if self.request.validator.is_some() {
            crate::tr!("auth-validated")
        } else {
            crate::tr!("auth-accepted")
        };
        let refused = self.refused;
        self.finish(
            AuthAnswer::Validated { values, refused },
            Feedback::allow(text),
            now,
        );
    }

    fn finish(&mut self, answer: AuthAnswer, feedback: Feedback, now: f64) {
        self.phase = Phase::Done;
        self.status = Status::Done(feedback.clone());
        self.decided = Some(Decided {
            answer,
            at: now,
            feedback,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prompt::{FieldSpec, ValidatorSpec};

    fn field(name: &str, label: &str, required: bool, multiline: bool) -> FieldSpec {
        FieldSpec {
            name: name.into(),
            label: label.into(),
            secret: true,
            required,
            multiline,
        }
    }

    fn aws(validator: Option<ValidatorSpec>) -> AuthState {
        AuthState::new(AuthRequest {
            tool: "aws".into(),
            scope: "aws".into(),
            fields: vec![
                field("AWS_ACCESS_KEY_ID", "Access key ID", true, false),
                field("AWS_SECRET_ACCESS_KEY", "Secret access key", true, false),
                field("AWS_REGION", "Region", true, false),
                field("AWS_SESSION_TOKEN", "Session token", false, true),
            ],
            validator,
        })
    }

    #[test]
    fn required_errors_name_the_fields() {
        let mut state = aws(None);
        state.validate(0.0, || {});
        assert_eq!(
            state.status(),
            &Status::Error("Required: Access key ID, Secret access key, Region.".into())
        );
        assert_eq!(state.phase(), Phase::Editing);
        state.set_value(0, "  AKIA  ".into());
        state.set_value(1, "secret".into());
        state.validate(0.0, || {});
        assert_eq!(state.status(), &Status::Error("Required: Region.".into()));
    }

    #[test]
    fn without_a_validator_the_trimmed_values_are_accepted() {
        let mut state = aws(None);
        for (index, value) in ["  AKIA  ", "secret", "us-east-1"].into_iter().enumerate() {
            state.set_value(index, value.into());
        }
        state.validate(1.0, || {});
        let decided = state.decided().unwrap();
        let AuthAnswer::Validated { values, .. } = &decided.answer else {
            panic!("not validated");
        };
        assert_eq!(values["AWS_ACCESS_KEY_ID"], Secret::from("AKIA"));
        assert!(!values.contains_key("AWS_SESSION_TOKEN"));
        assert_eq!(decided.feedback.text, "👍 Values accepted.");
        // A finished form takes no more input.
        state.set_value(0, "other".into());
        assert_eq!(state.values()[0], "  AKIA  ");
    }

    #[test]
    fn clipboard_fills_declared_fields_only() {
        let mut state = aws(None);
        state.paste(Ok(
            "export AWS_ACCESS_KEY_ID=AKIA\nexport AWS_SECRET_ACCESS_KEY='s e'\nexport HOME=/x\n"
                .into(),
        ));
        assert_eq!(state.values()[0], "AKIA");
        assert_eq!(state.values()[1], "s e");
        assert_eq!(
            state.status(),
            &Status::Info(
                "Filled 2 fields from the clipboard: Access key ID, Secret access key.".into()
            )
        );
        state.paste(Ok("nothing here".into()));
        assert!(matches!(state.status(), Status::Error(_)));
        state.paste(Err("no clipboard".into()));
        assert_eq!(
            state.status(),
            &Status::Error("Cannot read the clipboard: no clipboard".into())
        );
    }

    #[test]
    fn cancel_answers_cancelled() {
        let mut state = aws(None);
        state.cancel(2.0);
        assert_eq!(
            state.decided().unwrap().answer,
            AuthAnswer::Cancelled { refused: 0 }
        );
        assert_eq!(state.phase(), Phase::Done);
    }
}
