//! The rules a decoded provider or target must satisfy beyond its shape.
//!
//! Checks here are pure: they see decoded configuration and return the offending field with
//! the reason. `load` adds the file path. Target references to other providers are checked
//! only after every provider is loaded (`check_target_references`).

use std::collections::{BTreeMap, BTreeSet};

use super::lexical::{
    check_account_id, check_command, check_env_file, check_env_name, check_flag, check_long_option,
    check_name, check_single_line, check_token, template_field,
};
use super::provider::{Auth, ProviderConfig, Strategy, TargetingMode};
use super::target::TargetConfig;

/// Tool name Torii publishes itself.
pub const RESERVED_TOOL: &str = "torii_policy";

/// A rule broken by one field of one file.
#[derive(Debug)]
pub struct FieldError {
    pub field: String,
    pub message: String,
}

impl FieldError {
    fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            field: field.into(),
            message: message.into(),
        }
    }
}

/// Attaches `field` to a lexical check.
fn at(field: impl Into<String>, result: Result<(), String>) -> Result<(), FieldError> {
    result.map_err(|message| FieldError::new(field, message))
}

/// Every `provider.yaml` rule that needs no other file.
pub fn check_provider(config: &ProviderConfig) -> Result<(), FieldError> {
    at("name", check_name(&config.name))?;
    at("tool", check_name(&config.tool))?;
    if config.tool == RESERVED_TOOL {
        return Err(FieldError::new(
            "tool",
            format!("{RESERVED_TOOL:?} is reserved"),
        ));
    }
    if config.description.trim().is_empty() {
        return Err(FieldError::new("description", "must not be empty"));
    }
    at("command", check_command(&config.command))?;
    let mode = config.targeting_mode();
    if let Some(targeting) = &config.targeting {
        match (targeting.mode, &targeting.locked_options) {
            (TargetingMode::KubectlContext, Some(options)) => {
                for (index, option) in options.iter().enumerate() {
                    at(
                        format!("targeting.locked_options[{index}]"),
                        check_long_option(option),
                    )?;
                }
            }
            (TargetingMode::AwsProfile, Some(_)) => {
                return Err(FieldError::new(
                    "targeting.locked_options",
                    "is only accepted with `mode: kubectl_context`",
                ));
            }
            (_, None) => {}
        }
    }
    for (index, arg) in config.policy.forbidden_args.iter().enumerate() {
        at(format!("policy.forbidden_args[{index}]"), check_token(arg))?;
    }
    for (index, prefix) in config.policy.forbidden_value_prefixes.iter().enumerate() {
        at(
            format!("policy.forbidden_value_prefixes[{index}]"),
            check_token(prefix),
        )?;
    }
    for (index, flag) in config.policy.ignore_args.flags.iter().enumerate() {
        at(
            format!("policy.ignore_args.flags[{index}]"),
            check_flag(flag),
        )?;
    }
    check_auth(&config.auth, mode)?;
    if let Some(seconds) = config.limits.call_timeout_seconds
        && seconds > crate::settings::MAX_CALL_TIMEOUT_SECONDS
    {
        return Err(FieldError::new(
            "limits.call_timeout_seconds",
            format!(
                "must be between 0 (no limit) and {}, got {seconds}",
                crate::settings::MAX_CALL_TIMEOUT_SECONDS
            ),
        ));
    }
    at("environment.file", check_env_file(&config.environment.file))
}

fn check_auth(auth: &Auth, mode: Option<TargetingMode>) -> Result<(), FieldError> {
    if auth.strategy == Strategy::Environment {
        if auth.fields.is_empty() {
            return Err(FieldError::new(
                "auth.fields",
                "the `environment` strategy needs at least one field",
            ));
        }
    } else {
        if !auth.fields.is_empty() {
            return Err(FieldError::new("auth.fields", ONLY_ENVIRONMENT));
        }
        if auth.inject.is_some() {
            return Err(FieldError::new("auth.inject", ONLY_ENVIRONMENT));
        }
    }
    let mut declared = BTreeSet::new();
    for (index, field) in auth.fields.iter().enumerate() {
        at(
            format!("auth.fields[{index}].name"),
            check_env_name(&field.name),
        )?;
        if !declared.insert(field.name.as_str()) {
            return Err(FieldError::new(
                format!("auth.fields[{index}].name"),
                format!("{:?} is declared twice", field.name),
            ));
        }
        if let Some(label) = &field.label {
            at(
                format!("auth.fields[{index}].label"),
                check_single_line(label),
            )?;
        }
    }
    if let Some(inject) = &auth.inject {
        check_inject(&inject.environment, &declared)?;
    }
    if let Some(validate) = &auth.validate {
        at("auth.validate.command", check_command(&validate.command))?;
    }
    if let Some(identity) = &auth.identity {
        at("auth.identity.command", check_command(&identity.command))?;
        at("auth.identity.field", check_single_line(&identity.field))?;
    }
    if let Some(profile_env) = &auth.profile_env {
        at("auth.profile_env", check_env_name(profile_env))?;
    }
    for (index, name) in auth.removed_env.iter().enumerate() {
        at(format!("auth.removed_env[{index}]"), check_env_name(name))?;
    }
    if mode == Some(TargetingMode::AwsProfile) {
        if auth.strategy != Strategy::Inherited {
            return Err(FieldError::new(
                "auth.strategy",
                "`targeting.mode: aws_profile` requires `inherited`",
            ));
        }
        if auth.identity.is_none() {
            return Err(FieldError::new(
                "auth.identity",
                "`targeting.mode: aws_profile` requires the identity probe that checks the account",
            ));
        }
    }
    Ok(())
}

const ONLY_ENVIRONMENT: &str = "is only accepted with `strategy: environment`";

fn check_inject(
    environment: &BTreeMap<String, String>,
    declared: &BTreeSet<&str>,
) -> Result<(), FieldError> {
    for (variable, template) in environment {
        let field = format!("auth.inject.environment.{variable}");
        at(&field, check_env_name(variable))?;
        let Some(name) = template_field(template) else {
            return Err(FieldError::new(
                field,
                format!("{template:?} must be exactly `${{FIELD}}` naming a declared field"),
            ));
        };
        if !declared.contains(name) {
            return Err(FieldError::new(
                field,
                format!("{template:?} names no field declared in `auth.fields`"),
            ));
        }
    }
    Ok(())
}

/// Every `target.yaml` rule that needs only the owning provider's targeting mode.
/// `directory` is the alias directory's name (`None` when it is not UTF-8).
pub fn check_target(
    config: &TargetConfig,
    directory: Option<&str>,
    mode: TargetingMode,
) -> Result<(), FieldError> {
    at("name", check_name(&config.name))?;
    if directory != Some(config.name.as_str()) {
        return Err(FieldError::new(
            "name",
            format!(
                "{:?} must equal the name of the target's directory",
                config.name
            ),
        ));
    }
    let identity = &config.identity;
    at("identity.provider", check_name(&identity.provider))?;
    if let Some(scope) = &identity.scope {
        at("identity.scope", check_name(scope))?;
    }
    if let Some(profile) = &identity.profile {
        at("identity.profile", check_single_line(profile))?;
    }
    match mode {
        TargetingMode::KubectlContext => check_kubectl_target(config),
        TargetingMode::AwsProfile => check_aws_profile_target(config),
    }
}

fn check_kubectl_target(config: &TargetConfig) -> Result<(), FieldError> {
    let Some(context) = &config.context else {
        return Err(FieldError::new(
            "context",
            "is required by `kubectl_context` targets",
        ));
    };
    at("context", check_single_line(context))?;
    if config.region.is_some() {
        return Err(FieldError::new(
            "region",
            "is only accepted by `aws_profile` targets",
        ));
    }
    if let Some(expect) = &config.identity.expect {
        at("identity.expect", check_single_line(expect))?;
    }
    Ok(())
}

fn check_aws_profile_target(config: &TargetConfig) -> Result<(), FieldError> {
    if config.context.is_some() {
        return Err(FieldError::new(
            "context",
            "is not accepted by `aws_profile` targets",
        ));
    }
    if let Some(region) = &config.region {
        at("region", check_single_line(region))?;
    }
    let identity = &config.identity;
    let Some(profile) = &identity.profile else {
        return Err(FieldError::new(
            "identity.profile",
            "is required by `aws_profile` targets",
        ));
    };
    let Some(expect) = &identity.expect else {
        return Err(FieldError::new(
            "identity.expect",
            "is required by `aws_profile` targets (the expected account id)",
        ));
    };
    at("identity.expect", check_account_id(expect))?;
    if identity.scope.is_none() {
        at(
            "identity.scope",
            check_name(profile).map_err(|reason| {
                format!("defaults to `identity.profile`, which is not a valid scope: {reason}")
            }),
        )?;
    }
    Ok(())
}

/// The credential bucket of a target that passed [`check_target`].
pub fn resolved_scope(config: &TargetConfig, mode: TargetingMode) -> &str {
    let identity = &config.identity;
    match (&identity.scope, mode, &identity.profile) {
        (Some(scope), _, _) => scope,
        (None, TargetingMode::AwsProfile, Some(profile)) => profile,
        _ => &config.name,
    }
}

/// Installed providers, as seen by target references.
pub struct Installed<'a> {
    pub by_tool: BTreeMap<&'a str, &'a ProviderConfig>,
    pub by_name: BTreeMap<&'a str, &'a ProviderConfig>,
}

/// The rules of `identity` that depend on which providers are installed.
pub fn check_target_references(
    config: &TargetConfig,
    owner: &ProviderConfig,
    installed: &Installed<'_>,
) -> Result<(), FieldError> {
    let identity = &config.identity;
    let wanted = identity.provider.as_str();
    let Some(mode) = owner.targeting_mode() else {
        return Ok(());
    };
    if mode == TargetingMode::AwsProfile {
        if wanted != owner.tool {
            return Err(FieldError::new(
                "identity.provider",
                format!(
                    "{wanted:?} must be this provider's own tool {:?}: `aws_profile` targets \
                     authenticate through their own lifecycle",
                    owner.tool
                ),
            ));
        }
        return Ok(());
    }
    let Some(provider) = installed.by_tool.get(wanted) else {
        let hint = match installed.by_name.get(wanted) {
            Some(named) if named.tool != wanted => {
                format!("; the provider named {wanted:?} has tool {:?}", named.tool)
            }
            _ => String::new(),
        };
        return Err(FieldError::new(
            "identity.provider",
            format!("no installed provider has tool {wanted:?}{hint}"),
        ));
    };
    if provider.targeting.is_some() {
        return Err(FieldError::new(
            "identity.provider",
            format!("{wanted:?} is target-aware; an identity provider must not need a target"),
        ));
    }
    if identity.expect.is_some() && provider.auth.identity.is_none() {
        return Err(FieldError::new(
            "identity.expect",
            format!("needs identity provider {wanted:?} to declare `auth.identity`"),
        ));
    }
    if identity.profile.is_some() && provider.auth.profile_env.is_none() {
        return Err(FieldError::new(
            "identity.profile",
            format!(
                "needs identity provider {wanted:?} to declare `auth.profile_env`, \
                 otherwise the profile would not reach the child"
            ),
        ));
    }
    Ok(())
}
