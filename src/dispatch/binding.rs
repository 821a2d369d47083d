//! What a target alias adds to the child process: the trusted arguments that pin its binding
//! (`--context`, `--profile`, `--region`) and, for `aws_profile`, the environment changes that
//! keep inherited credentials or endpoints from overriding the pinned profile.
//!
//! These values come only from the human's `target.yaml`; they never appear in MCP results or
//! in the audit log.

use crate::registry::{Provider, Target, TargetingMode};
use crate::secret::{EnvVars, Secret};

/// Inherited variables removed from an `aws_profile` child: credentials, profile, region and
/// endpoint settings that the AWS CLI would prefer over `--profile`.
pub const AWS_PROFILE_REMOVED_ENV: &[&str] = &[
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_SESSION_TOKEN",
    "AWS_SECURITY_TOKEN",
    "AWS_PROFILE",
    "AWS_DEFAULT_PROFILE",
    "AWS_REGION",
    "AWS_DEFAULT_REGION",
    "AWS_ENDPOINT_URL",
    "AWS_CA_BUNDLE",
    "AWS_CONFIG_FILE",
    "AWS_SHARED_CREDENTIALS_FILE",
    "AWS_CREDENTIAL_EXPIRATION",
    "AWS_WEB_IDENTITY_TOKEN_FILE",
    "AWS_ROLE_ARN",
    "AWS_ROLE_SESSION_NAME",
];

/// Turns kubectl's kuberc (user preferences and per-command flag defaults) off.
pub const KUBERC_SWITCH: (&str, &str) = ("KUBECTL_KUBERC", "false");

/// The arguments placed between the provider's `args_prefix` and the agent's arguments.
pub fn target_args(provider: &Provider, target: &Target) -> Vec<String> {
    let config = target.config();
    match provider.config().targeting_mode() {
        Some(TargetingMode::KubectlContext) => config
            .context
            .iter()
            .flat_map(|context| ["--context".to_string(), context.clone()])
            .collect(),
        Some(TargetingMode::AwsProfile) => {
            let profile = config.identity.profile.iter();
            let region = config.region.iter();
            profile
                .flat_map(|profile| ["--profile".to_string(), profile.clone()])
                .chain(region.flat_map(|region| ["--region".to_string(), region.clone()]))
                .collect()
        }
        None => Vec::new(),
    }
}

/// Environment a target binding removes from, and sets on, every child that runs for it (the
/// validator, the identity probe and the command): the identity provider's `removed_env` and
/// `profile_env` (carrying `identity.profile`); for `aws_profile` the inherited AWS
/// credential, region and endpoint variables that would override the pinned profile; for
/// `kubectl_context` kuberc turned off, so no preferences file can override the context.
pub fn target_env(
    provider: &Provider,
    identity: &Provider,
    target: &Target,
) -> (Vec<String>, EnvVars) {
    let auth = &identity.config().auth;
    let mut removed: Vec<String> = auth.removed_env.clone();
    let mut set = Vec::new();
    match provider.config().targeting_mode() {
        Some(TargetingMode::AwsProfile) => {
            removed.extend(AWS_PROFILE_REMOVED_ENV.iter().map(|name| name.to_string()));
        }
        Some(TargetingMode::KubectlContext) => {
            // A kuberc sets defaults for any flag, `--server` and `--as` included, which an
            // injected `--context` does not override; any file a child can write (another
            // provider's output, say) could become one. Torii's kubectl reads none.
            set.push((KUBERC_SWITCH.0.to_string(), Secret::from(KUBERC_SWITCH.1)));
        }
        None => {}
    }
    if let (Some(variable), Some(profile)) = (&auth.profile_env, &target.config().identity.profile)
    {
        set.push((variable.clone(), Secret::from(profile.as_str())));
    }
    (removed, set)
}
