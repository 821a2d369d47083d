//! The authentication question: a provider with the `environment` strategy needs a session.
//! The window collects the declared fields, validates the candidate in the prompt process and
//! returns it only once the validator accepted it (or when there is no validator).

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::InvalidAnswer;
use crate::auth::Validator;
use crate::confine::Confinement;
use crate::registry::AuthField;
use crate::secret::{EnvVars, Secret};

/// What the window shows and how it checks a candidate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AuthRequest {
    /// The MCP tool that needs the session.
    pub tool: String,
    /// Which credential bucket is being filled, for the human (e.g. `aws`, `kubectl/dev`).
    pub scope: String,
    /// The form, in the provider's order.
    pub fields: Vec<FieldSpec>,
    /// Run on a candidate before it is returned; `None` returns the values as entered.
    pub validator: Option<ValidatorSpec>,
}

/// One form field, as declared in `auth.fields`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FieldSpec {
    /// The environment-style name; clipboard lines and answers use it.
    pub name: String,
    /// Shown to the human.
    pub label: String,
    /// Masked input.
    pub secret: bool,
    /// The form refuses to validate while it is empty.
    pub required: bool,
    /// A bounded multi-line editor with its own scroll bar.
    pub multiline: bool,
}

impl From<&AuthField> for FieldSpec {
    fn from(field: &AuthField) -> Self {
        FieldSpec {
            name: field.name.clone(),
            label: field.label().to_string(),
            secret: field.secret,
            required: field.required,
            multiline: field.multiline,
        }
    }
}

/// The provider's validation command, already resolved by the server: a [`Validator`] as it
/// crosses the pipe to the window's process, which turns it back into one
/// ([`ValidatorSpec::validator`]) and runs it exactly as the server does
/// ([`Validator::launch`]): the same program, arguments, environment, confinement and time
/// limit. Exit status 0 accepts the candidate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ValidatorSpec {
    /// Absolute path; the prompt refuses anything else.
    pub program: PathBuf,
    pub args: Vec<String>,
    /// Values may be secrets from `.env`: `Debug` shows names only.
    pub base_env: EnvVars,
    pub inject: Vec<(String, String)>,
    pub removed_env: Vec<String>,
    /// The config root the validator must not read or write, and whether it may run when the
    /// kernel cannot enforce that (see `crate::confine`).
    pub confine_root: PathBuf,
    /// The programs whose install trees it must not change (see `crate::confine`).
    pub confine_programs: Vec<PathBuf>,
    pub confinement: crate::confine::Mode,
}

impl From<&Validator> for ValidatorSpec {
    fn from(validator: &Validator) -> Self {
        ValidatorSpec {
            program: validator.program.clone(),
            args: validator.args.clone(),
            base_env: validator.base_env.clone(),
            inject: validator.inject.clone(),
            removed_env: validator.removed_env.clone(),
            confine_root: validator.confinement.root().to_path_buf(),
            confine_programs: validator.confinement.programs().to_vec(),
            confinement: validator.confinement.mode(),
        }
    }
}

impl ValidatorSpec {
    /// The server's validator again, on the window's side of the pipe.
    pub fn validator(&self) -> Validator {
        Validator {
            program: self.program.clone(),
            args: self.args.clone(),
            base_env: self.base_env.clone(),
            inject: self.inject.clone(),
            removed_env: self.removed_env.clone(),
            confinement: Confinement::new(
                &self.confine_root,
                self.confinement,
                &self.confine_programs,
            ),
        }
    }
}

/// How the authentication window ended. Values are [`Secret`]s: `Debug` shows field names
/// only.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum AuthAnswer {
    /// The human cancelled (or closed the window): nothing is persisted. `refused` counts the
    /// candidates the validator rejected before that, for the audit.
    Cancelled {
        #[serde(default)]
        refused: u32,
    },
    /// A candidate the validator accepted (field name → value), after `refused` rejected ones.
    Validated {
        values: BTreeMap<String, Secret>,
        #[serde(default)]
        refused: u32,
    },
}

impl AuthRequest {
    /// Accepts a validated candidate only if it names declared fields only, fills every
    /// required one and holds no NUL (which no environment variable can carry).
    pub(super) fn check_answer(&self, answer: AuthAnswer) -> Result<AuthAnswer, InvalidAnswer> {
        let AuthAnswer::Validated { values, .. } = &answer else {
            return Ok(answer);
        };
        if let Some(name) = values
            .keys()
            .find(|name| !self.fields.iter().any(|field| &field.name == *name))
        {
            return Err(InvalidAnswer(format!("undeclared field `{name}`")));
        }
        if let Some(field) = self.fields.iter().find(|field| {
            field.required
                && values
                    .get(&field.name)
                    .is_none_or(|value| value.expose().trim().is_empty())
        }) {
            return Err(InvalidAnswer(format!(
                "required field `{}` is empty",
                field.name
            )));
        }
        if let Some((name, _)) = values
            .iter()
            .find(|(_, value)| value.expose().contains('\0'))
        {
            return Err(InvalidAnswer(format!("field `{name}` holds a NUL byte")));
        }
        Ok(answer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(name: &str, required: bool) -> FieldSpec {
        FieldSpec {
            name: name.into(),
            label: name.into(),
            secret: true,
            required,
            multiline: false,
        }
    }

    fn validated(pairs: &[(&str, &str)]) -> AuthAnswer {
        AuthAnswer::Validated {
            values: pairs
                .iter()
                .map(|(name, value)| (name.to_string(), Secret::from(*value)))
                .collect(),
            refused: 0,
        }
    }

    #[test]
    fn only_declared_and_complete_candidates_are_accepted() {
        let request = AuthRequest {
            tool: "aws".into(),
            scope: "aws".into(),
            fields: vec![field("KEY", true), field("TOKEN", false)],
            validator: None,
        };
        let cases = [
            (AuthAnswer::Cancelled { refused: 2 }, true),
            (validated(&[("KEY", "k")]), true),
            (validated(&[("KEY", "k"), ("TOKEN", "")]), true),
            (validated(&[("KEY", "k"), ("TOKEN", "t")]), true),
            (validated(&[]), false),
            (validated(&[("KEY", "  ")]), false),
            (validated(&[("KEY", "k"), ("OTHER", "x")]), false),
            (validated(&[("KEY", "k\0")]), false),
        ];
        for (answer, ok) in cases {
            assert_eq!(
                request.check_answer(answer.clone()).is_ok(),
                ok,
                "{answer:?}"
            );
        }
    }

    #[test]
    fn debug_never_shows_values() {
        let answer = validated(&[("KEY", "s3cr3t")]);
        assert!(!format!("{answer:?}").contains("s3cr3t"));
        let spec = ValidatorSpec {
            program: "/bin/true".into(),
            args: vec![],
            base_env: vec![("DOTENV_SECRET".into(), Secret::from("s3cr3t"))],
            inject: vec![],
            removed_env: vec![],
            confine_root: "/r".into(),
            confine_programs: vec!["/usr/bin/aws".into()],
            confinement: crate::confine::Mode::BestEffort,
        };
        let shown = format!("{spec:?}");
        assert!(shown.contains("DOTENV_SECRET") && !shown.contains("s3cr3t"));
    }
}
