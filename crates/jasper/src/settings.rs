//! The provider's `policy:` settings that shape evaluation: minimum accept width, forbidden
//! arguments and arguments ignored for evaluation. Parsing `provider.yaml` is the caller's job.

use crate::error::{PolicyError, SettingError};

/// Settings from a provider's `policy:` block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PolicySettings {
    /// Prefix accepts with fewer tokens are ignored (and reported). Default 1; 0 behaves as 1
    /// because an empty rule is an error anyway. Regex accepts are exempt.
    pub minimum_accept_tokens: usize,
    /// Arguments refused anywhere in the raw argv, bare (`-f`) or as `--flag=value`.
    pub forbidden_args: Vec<String>,
    /// Value prefixes refused anywhere in the raw argv, ignoring ASCII case: in a bare token,
    /// after `=` (`--opt=value`) or attached to a short option (`-ovalue`). For values a CLI
    /// turns into a local read, such as the AWS CLI's `file://`.
    pub forbidden_value_prefixes: Vec<String>,
    /// Arguments dropped from the vector the rules see (never from what runs).
    pub ignore_args: IgnoreArgs,
}

/// `policy.ignore_args`: normalisation applied only to the vector the rules evaluate, never to
/// what runs. The one type for it: `provider.yaml` is read straight into it.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IgnoreArgs {
    /// How many leading tokens to drop.
    #[serde(default, deserialize_with = "strict_yaml::whole_number")]
    pub leading: usize,
    /// Flags to drop: a bare flag also drops the next token (its value); `flag=value` drops
    /// only itself.
    #[serde(default)]
    pub flags: Vec<String>,
}

impl Default for PolicySettings {
    fn default() -> Self {
        PolicySettings {
            minimum_accept_tokens: 1,
            forbidden_args: Vec::new(),
            forbidden_value_prefixes: Vec::new(),
            ignore_args: IgnoreArgs::default(),
        }
    }
}

impl PolicySettings {
    /// Every forbidden arg, forbidden value prefix and ignored flag must be one non-empty token.
    pub(crate) fn validate(&self) -> Result<(), PolicyError> {
        check_tokens("forbidden_args", &self.forbidden_args)?;
        check_tokens("forbidden_value_prefixes", &self.forbidden_value_prefixes)?;
        check_tokens("ignore_args.flags", &self.ignore_args.flags)
    }
}

fn check_tokens(field: &'static str, values: &[String]) -> Result<(), PolicyError> {
    for (index, value) in values.iter().enumerate() {
        let problem = if value.is_empty() {
            SettingError::Empty
        } else if value.chars().any(char::is_whitespace) {
            SettingError::Whitespace {
                value: value.clone(),
            }
        } else {
            continue;
        };
        return Err(PolicyError::Setting {
            field,
            index,
            problem,
        });
    }
    Ok(())
}
