//! Flags an agent may never send to a target-aware tool: they would switch the context,
//! identity, credentials or endpoint that the human bound to the alias.
//!
//! Checked before the policy is even read, so a refusal audits nothing and starts nothing; the
//! refusal names the flag, never the value the agent supplied.

use crate::registry::{ProviderConfig, TargetingMode};

/// kubectl's non-removable baseline (the book's list) plus `-s`, the short form of `--server`,
/// and `--kuberc`: a kuberc file sets default values for any flag of a command (`--server`,
/// `--as`, `--kubeconfig`, …), so naming one would switch the endpoint or identity without a
/// locked flag ever appearing in the arguments.
const KUBECTL_BASELINE: &[&str] = &[
    "--context",
    "--kubeconfig",
    "--cluster",
    "--user",
    "--token",
    "--server",
    "-s",
    "--username",
    "--password",
    "--client-key",
    "--client-certificate",
    "--certificate-authority",
    "--insecure-skip-tls-verify",
    "--tls-server-name",
    "--as",
    "--as-group",
    "--as-uid",
    "--as-user-extra",
    "--kuberc",
];

/// Flags that would replace the aws_profile binding (profile, region, endpoint, TLS trust),
/// `--debug`, whose log prints the profile name and the access key the binding resolved to, and
/// `configure`, which rewrites the bound profile itself (an `endpoint_url` that also answers
/// the account check, a `credential_process` that runs a command).
const AWS_PROFILE_LOCKED: &[&str] = &[
    "configure",
    "--debug",
    "--profile",
    "--region",
    "--endpoint-url",
    "--no-sign-request",
    "--ca-bundle",
    "--no-verify-ssl",
];

/// How a CLI reads its flags, which decides which spellings reach a locked option.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Parser {
    /// Go's pflag (kubectl): `--flag`, `--flag=value`, and `-s`, `-svalue`, `-xs` clusters.
    Pflag,
    /// Python's argparse (the AWS CLI) also accepts an unambiguous prefix: `--prof x`.
    Argparse,
}

/// The locked flags of a provider, or none for a simple provider.
pub fn locked_options(provider: &ProviderConfig) -> Vec<String> {
    let Some(targeting) = &provider.targeting else {
        return Vec::new();
    };
    match targeting.mode {
        TargetingMode::KubectlContext => KUBECTL_BASELINE
            .iter()
            .map(|flag| flag.to_string())
            .chain(targeting.locked_options.iter().flatten().cloned())
            .collect(),
        TargetingMode::AwsProfile => AWS_PROFILE_LOCKED
            .iter()
            .map(|flag| flag.to_string())
            .collect(),
    }
}

fn parser_of(provider: &ProviderConfig) -> Parser {
    match provider.targeting_mode() {
        Some(TargetingMode::AwsProfile) => Parser::Argparse,
        _ => Parser::Pflag,
    }
}

/// The first locked flag that `args` uses, in any spelling the CLI would accept.
pub fn find_locked(provider: &ProviderConfig, args: &[String]) -> Option<String> {
    let locked = locked_options(provider);
    let parser = parser_of(provider);
    args.iter().find_map(|token| {
        locked
            .iter()
            .find(|flag| uses_flag(token, flag, parser))
            .cloned()
    })
}

fn uses_flag(token: &str, flag: &str, parser: Parser) -> bool {
    if let Some(letter) = short_letter(flag) {
        // `-s`, `-s=x`, `-sx`, `-vs`: any single-dash cluster holding the letter.
        return token
            .strip_prefix('-')
            .is_some_and(|rest| !rest.starts_with('-') && rest.contains(letter));
    }
    let name = token.split_once('=').map_or(token, |(name, _)| name);
    // kubectl's flag set reads `--client_key` as `--client-key`; argparse does not, but
    // refusing an underscore spelling that it would reject anyway costs nothing.
    let (name, flag) = (name.replace('_', "-"), flag.replace('_', "-"));
    if name == flag {
        return true;
    }
    // argparse resolves `--prof` to `--profile`; `--` alone is the end of options.
    parser == Parser::Argparse
        && name.len() > 2
        && name.starts_with("--")
        && flag.starts_with(&name)
}

fn short_letter(flag: &str) -> Option<char> {
    let mut chars = flag.chars();
    match (chars.next(), chars.next(), chars.next()) {
        (Some('-'), Some(letter), None) if letter != '-' => Some(letter),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pflag_spellings() {
        for token in [
            "--context",
            "--context=prod",
            "-s",
            "-shttps://x",
            "-vs",
            "-s=x",
        ] {
            let flag = if token.starts_with("--") {
                "--context"
            } else {
                "-s"
            };
            assert!(uses_flag(token, flag, Parser::Pflag), "{token}");
        }
        for (token, flag) in [
            ("--client_key=/tmp/k", "--client-key"),
            (
                "--insecure_skip_tls_verify=true",
                "--insecure-skip-tls-verify",
            ),
            ("--tls_server_name", "--tls-server-name"),
            ("--client-key", "--client_key"),
        ] {
            assert!(uses_flag(token, flag, Parser::Pflag), "{token}");
        }
        for token in ["--contexts", "--cont", "get", "-n", "--server-side"] {
            assert!(!uses_flag(token, "--context", Parser::Pflag), "{token}");
            assert!(!uses_flag(token, "--server", Parser::Pflag), "{token}");
        }
    }

    #[test]
    fn argparse_abbreviations_are_refused() {
        for token in ["--profile", "--prof", "--prof=x", "--pro"] {
            assert!(uses_flag(token, "--profile", Parser::Argparse), "{token}");
        }
        for token in ["--", "--page-size", "--output", "-p"] {
            assert!(!uses_flag(token, "--profile", Parser::Argparse), "{token}");
        }
        // `--debug` prints the resolved profile and access key: locked in every spelling.
        for token in ["--debug", "--deb", "--d"] {
            assert!(uses_flag(token, "--debug", Parser::Argparse), "{token}");
        }
        // `configure` is a command, locked as a whole token only.
        assert!(uses_flag("configure", "configure", Parser::Argparse));
        assert!(!uses_flag("configured", "configure", Parser::Argparse));
    }
}
