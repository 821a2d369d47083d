//! The `provider.yaml` schema, exactly as decoded.
//!
//! These structs only describe shape and defaults; every rule that a shape cannot express
//! (charsets, cross-field constraints) lives in `validate`. Unknown fields are errors, so a
//! typo such as `minimum_accept_token` stops the server instead of silently weakening policy.

use serde::Deserialize;
use serde::de::IgnoredAny;
use std::collections::BTreeMap;

use super::version::Version;

/// Default of `auth.cache_ttl_seconds`.
pub const DEFAULT_CACHE_TTL_SECONDS: u64 = 300;
/// Default of `policy.minimum_accept_tokens`.
pub const DEFAULT_MINIMUM_ACCEPT_TOKENS: usize = 1;
/// Default of `environment.file`.
pub const DEFAULT_ENV_FILE: &str = ".env";

/// A decoded `provider.yaml`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProviderConfig {
    pub version: Version,
    /// Unique logical identity (package and control-plane name).
    pub name: String,
    /// Unique MCP tool name.
    pub tool: String,
    /// Exposed to the MCP client.
    pub description: String,
    /// Bare executable name, resolved on `PATH` at launch.
    pub command: String,
    /// Trusted arguments placed before the agent's; never seen by the policy.
    #[serde(default)]
    pub args_prefix: Vec<String>,
    pub targeting: Option<Targeting>,
    #[serde(default)]
    pub policy: PolicyConfig,
    #[serde(default)]
    pub auth: Auth,
    #[serde(default)]
    pub environment: Environment,
    #[serde(default)]
    pub limits: Limits,
}

/// Per-provider overrides of the server's limits (`settings.yaml`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Limits {
    /// How long this provider's command may run, in seconds; 0 for no limit.
    #[serde(default, deserialize_with = "strict_yaml::optional_whole_number")]
    pub call_timeout_seconds: Option<u64>,
}

impl ProviderConfig {
    /// The binding mode, or `None` for a simple provider.
    pub fn targeting_mode(&self) -> Option<TargetingMode> {
        self.targeting.as_ref().map(|targeting| targeting.mode)
    }
}

/// How a target-aware provider binds an alias.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Targeting {
    pub mode: TargetingMode,
    /// Extra flags the agent may not send (`kubectl_context` only), on top of the baseline.
    pub locked_options: Option<Vec<String>>,
}

/// The concrete binding modes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TargetingMode {
    /// The alias selects a kubeconfig context; another provider authenticates.
    KubectlContext,
    /// The alias selects a local AWS profile and the account it must belong to.
    AwsProfile,
}

/// Mechanical policy knobs; which operations are allowed lives in `rules.yaml`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PolicyConfig {
    /// An `accept` rule shorter than this many tokens is ignored.
    #[serde(
        default = "default_minimum_accept_tokens",
        deserialize_with = "strict_yaml::whole_number"
    )]
    pub minimum_accept_tokens: usize,
    /// Arguments denied in any position, bare or as `--flag=value`.
    #[serde(default)]
    pub forbidden_args: Vec<String>,
    /// Argument values denied in any position by prefix, ignoring ASCII case (`file://`).
    #[serde(default)]
    pub forbidden_value_prefixes: Vec<String>,
    #[serde(default)]
    pub ignore_args: IgnoreArgs,
    /// Legacy; accepted with any value for old packages and never used.
    #[serde(default, rename = "grant_rule")]
    _grant_rule: Option<IgnoredAny>,
}

impl Default for PolicyConfig {
    fn default() -> Self {
        Self {
            minimum_accept_tokens: DEFAULT_MINIMUM_ACCEPT_TOKENS,
            forbidden_args: Vec::new(),
            forbidden_value_prefixes: Vec::new(),
            ignore_args: IgnoreArgs::default(),
            _grant_rule: None,
        }
    }
}

/// Argument noise dropped for policy evaluation only, never from the executed command: Jasper's
/// own settings type, read as declared.
pub use jasper::IgnoreArgs;

/// How the session used by the provider's child process is obtained.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Auth {
    #[serde(default)]
    pub strategy: Strategy,
    /// Values collected from the human (`environment` only).
    #[serde(default)]
    pub fields: Vec<AuthField>,
    /// How collected fields become child environment variables (`environment` only).
    pub inject: Option<Inject>,
    /// Command that proves a session works.
    pub validate: Option<CommandSpec>,
    /// Probe answering "whose session is this?", needed for a target's `identity.expect`.
    pub identity: Option<IdentityProbe>,
    /// Variable that carries a target's `identity.profile` to the child.
    pub profile_env: Option<String>,
    /// Variables never inherited from the server by a child authenticated by this provider.
    #[serde(default)]
    pub removed_env: Vec<String>,
    /// How long a successful validation is trusted.
    #[serde(
        default = "default_cache_ttl_seconds",
        deserialize_with = "strict_yaml::whole_number"
    )]
    pub cache_ttl_seconds: u64,
}

impl Default for Auth {
    fn default() -> Self {
        Self {
            strategy: Strategy::default(),
            fields: Vec::new(),
            inject: None,
            validate: None,
            identity: None,
            profile_env: None,
            removed_env: Vec::new(),
            cache_ttl_seconds: DEFAULT_CACHE_TTL_SECONDS,
        }
    }
}

impl Auth {
    /// TTL of the identity probe cache: its own value, else `auth.cache_ttl_seconds`.
    pub fn identity_ttl_seconds(&self) -> Option<u64> {
        let probe = self.identity.as_ref()?;
        Some(probe.cache_ttl_seconds.unwrap_or(self.cache_ttl_seconds))
    }
}

/// Authentication strategies. The last two are part of the schema but refused at runtime.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Strategy {
    /// Torii collects nothing; the child inherits the operator's session.
    #[default]
    Inherited,
    /// Torii collects `fields`, validates and injects them.
    Environment,
    SessionCommand,
    CredentialFile,
}

/// One value collected from the human.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AuthField {
    /// Referenced by `${NAME}` templates and by clipboard import; an environment name.
    pub name: String,
    /// Shown in the form; defaults to `name`.
    pub label: Option<String>,
    /// Masked input.
    #[serde(default)]
    pub secret: bool,
    #[serde(default = "default_true")]
    pub required: bool,
    #[serde(default)]
    pub multiline: bool,
}

impl AuthField {
    /// The label shown to the human.
    pub fn label(&self) -> &str {
        self.label.as_deref().unwrap_or(&self.name)
    }
}

/// `auth.inject`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Inject {
    /// Child variable name → exactly `${FIELD}`.
    #[serde(default)]
    pub environment: BTreeMap<String, String>,
}

impl Inject {
    /// `(variable, field)` pairs. Only meaningful after validation, which guarantees every
    /// template is exactly `${FIELD}` of a declared field.
    pub fn pairs(&self) -> impl Iterator<Item = (&str, &str)> {
        self.environment.iter().filter_map(|(variable, template)| {
            super::lexical::template_field(template).map(|field| (variable.as_str(), field))
        })
    }
}

/// A command and its arguments, run without a shell.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CommandSpec {
    pub command: String,
    #[serde(default)]
    pub args: Vec<String>,
}

/// `auth.identity`: a command whose JSON output names the session's identity in `field`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IdentityProbe {
    pub command: String,
    #[serde(default)]
    pub args: Vec<String>,
    /// JSON field holding the identity: top-level (`Account`), or a dotted path into nested
    /// objects (`core.account`).
    pub field: String,
    /// Defaults to `auth.cache_ttl_seconds`; see [`Auth::identity_ttl_seconds`].
    #[serde(default, deserialize_with = "strict_yaml::optional_whole_number")]
    pub cache_ttl_seconds: Option<u64>,
    /// What makes the command print JSON, appended unless `args` already choose an output:
    /// `--output json` when absent (the AWS and Azure CLIs, kubectl); `[]` for a command that
    /// prints JSON anyway (`gh api user`) and would refuse an option it does not know.
    #[serde(default)]
    pub json_args: Option<Vec<String>>,
}

/// `environment`: persistent, non-secret variables for the child.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Environment {
    /// Relative to the provider directory.
    #[serde(default = "default_env_file")]
    pub file: String,
}

impl Default for Environment {
    fn default() -> Self {
        Self {
            file: default_env_file(),
        }
    }
}

fn default_minimum_accept_tokens() -> usize {
    DEFAULT_MINIMUM_ACCEPT_TOKENS
}

fn default_cache_ttl_seconds() -> u64 {
    DEFAULT_CACHE_TTL_SECONDS
}

fn default_env_file() -> String {
    DEFAULT_ENV_FILE.to_string()
}

fn default_true() -> bool {
    true
}
