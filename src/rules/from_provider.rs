//! The one mapping from a provider's `policy:` block (`provider.yaml`) to the settings Jasper
//! compiles rules with. The control plane and the dispatcher both use it, so a policy shown,
//! checked or edited here is judged exactly as a call would be.

use crate::registry;

/// Jasper's settings for a provider: `minimum_accept_tokens`, `forbidden_args`,
/// `forbidden_value_prefixes` and `ignore_args` copied as declared (the legacy `grant_rule` has
/// no counterpart).
pub fn policy_settings(config: &registry::PolicyConfig) -> jasper::PolicySettings {
    jasper::PolicySettings {
        minimum_accept_tokens: config.minimum_accept_tokens,
        forbidden_args: config.forbidden_args.clone(),
        forbidden_value_prefixes: config.forbidden_value_prefixes.clone(),
        ignore_args: config.ignore_args.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_setting_is_carried_over() {
        let config: registry::PolicyConfig = strict_yaml::from_str(
            "minimum_accept_tokens: 2\nforbidden_args: [-f]\nforbidden_value_prefixes: [\"file://\"]\nignore_args: {leading: 1, flags: [--format]}\ngrant_rule: legacy\n",
        )
        .unwrap();
        let settings = policy_settings(&config);
        assert_eq!(settings.minimum_accept_tokens, 2);
        assert_eq!(settings.forbidden_args, ["-f"]);
        assert_eq!(settings.forbidden_value_prefixes, ["file://"]);
        assert_eq!(settings.ignore_args.leading, 1);
        assert_eq!(settings.ignore_args.flags, ["--format"]);
    }

    #[test]
    fn defaults_match_jasper_defaults() {
        assert_eq!(
            policy_settings(&registry::PolicyConfig::default()),
            jasper::PolicySettings::default()
        );
    }
}
