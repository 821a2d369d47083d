//! `target add <tool> <alias> …`: create `targets/<alias>/target.yaml`.
//!
//! Which flags apply depends on the provider's `targeting.mode`. The file text is built here
//! and checked with the registry's own rules, as if the server were loading it, so a target
//! the server would refuse is never written. For `kubectl_context` the context must exist:
//! `<command> config get-contexts -o name -- <context>` runs through the runner like any
//! provider command (absolute executable, no shell) with the human's environment overlaid by
//! the provider's `.env`, exactly as the provider's child will run, so it reads the same
//! kubeconfig (`KUBECONFIG`) the calls will use. The file is written atomically into a
//! directory created for it; an existing alias or directory is refused.

use std::io::ErrorKind;
use std::path::Path;

use crate::atomic::{self, Access};
use crate::confine::Confinement;
use crate::console;
use crate::paths::ConfigRoot;
use crate::registry::{Provider, Registry, RegistryError, TargetConfig, TargetingMode, check_name};
use crate::runner::{self, Launch};
use crate::settings::Settings;

use super::super::{CliError, TargetAdd};
use super::{TargetCliError, select};

/// Output kept from `kubectl config get-contexts`; one name per context.
const CONTEXT_CHECK_OUTPUT_BYTES: usize = 1024 * 1024;

pub fn run(args: &TargetAdd, root: &ConfigRoot) -> Result<(), CliError> {
    let (registry, provider) = select(root, &args.tool)?;
    let alias = args.alias.as_str();
    // Before the alias becomes part of a path.
    check_name(alias).map_err(|reason| TargetCliError::InvalidAlias { reason })?;
    if let Some(existing) = provider.target(alias) {
        return Err(TargetCliError::AliasExists {
            tool: provider.tool().to_string(),
            alias: alias.to_string(),
            config: existing.config_path(),
        }
        .into());
    }
    // `select` refused a provider without `targeting` already.
    let Some(targeting) = &provider.config().targeting else {
        return Err(TargetCliError::NotTargetAware {
            tool: args.tool.clone(),
            config: provider.config_path(),
        }
        .into());
    };
    let mode = targeting.mode;
    let binding = Binding::from_args(args, mode, provider.tool())?;
    let dir = provider.targets_dir().join(alias);
    let path = dir.join("target.yaml");
    let text = binding.to_yaml(alias);
    check(&registry, &provider, &path, &text, &binding, alias, mode)?;
    if let Some(context) = binding.context {
        verify_context(&provider, context, root)?;
    }
    write_new(&provider.targets_dir(), &dir, &path, &text)?;
    console::data(&path.display().to_string());
    console::progress(&crate::tr!(
        "cli-target-created",
        alias = alias,
        tool = provider.tool(),
        restart = super::restart_note()
    ));
    Ok(())
}

/// The values of one target, from the flags its mode accepts.
#[derive(Debug)]
struct Binding<'a> {
    context: Option<&'a str>,
    region: Option<&'a str>,
    provider: &'a str,
    scope: Option<&'a str>,
    profile: Option<&'a str>,
    expect: Option<&'a str>,
}

impl<'a> Binding<'a> {
    fn from_args(
        args: &'a TargetAdd,
        mode: TargetingMode,
        tool: &'a str,
    ) -> Result<Self, TargetCliError> {
        let flags = [
            ("--context", &args.context),
            ("--provider", &args.provider),
            ("--expect", &args.expect),
            ("--profile", &args.profile),
            ("--account-id", &args.account_id),
            ("--region", &args.region),
        ];
        let (mode_name, required, accepted): (&str, &[&str], &[&str]) = match mode {
            TargetingMode::KubectlContext => (
                "kubectl_context",
                &["--context", "--provider"],
                &["--context", "--provider", "--expect"],
            ),
            TargetingMode::AwsProfile => (
                "aws_profile",
                &["--profile", "--account-id"],
                &["--profile", "--account-id", "--region"],
            ),
        };
        for (flag, value) in flags {
            if value.is_some() && !accepted.contains(&flag) {
                return Err(TargetCliError::FlagNotAccepted {
                    flag,
                    mode: mode_name,
                    tool: tool.to_string(),
                    accepted,
                    own_auth: mode == TargetingMode::AwsProfile,
                });
            }
            if value.is_none() && required.contains(&flag) {
                return Err(TargetCliError::FlagRequired {
                    flag,
                    mode: mode_name,
                    tool: tool.to_string(),
                });
            }
        }
        Ok(match mode {
            TargetingMode::KubectlContext => Binding {
                context: args.context.as_deref(),
                region: None,
                provider: args.provider.as_deref().unwrap_or_default(),
                scope: args.scope.as_deref(),
                profile: None,
                expect: args.expect.as_deref(),
            },
            TargetingMode::AwsProfile => Binding {
                context: None,
                region: args.region.as_deref(),
                // aws_profile targets authenticate through their own provider.
                provider: tool,
                scope: args.scope.as_deref(),
                profile: args.profile.as_deref(),
                expect: args.account_id.as_deref(),
            },
        })
    }

    /// The `target.yaml` text. Every value is written as a JSON string, which is a valid YAML
    /// double-quoted scalar; [`check`] decodes the text again and compares.
    fn to_yaml(&self, alias: &str) -> String {
        let quote = |value: &str| serde_json::Value::from(value).to_string();
        let mut text = String::from(
            "# Written by `torii target add`. Editing this file ends the alias's lease: leases\n\
             # are bound to the SHA-256 of these bytes.\n\
             version: \"1\"\n",
        );
        text.push_str(&format!("name: {}\n", quote(alias)));
        for (key, value) in [("context", self.context), ("region", self.region)] {
            if let Some(value) = value {
                text.push_str(&format!("{key}: {}\n", quote(value)));
            }
        }
        text.push_str(&format!(
            "identity:\n  provider: {}\n",
            quote(self.provider)
        ));
        for (key, value) in [
            ("scope", self.scope),
            ("profile", self.profile),
            ("expect", self.expect),
        ] {
            if let Some(value) = value {
                text.push_str(&format!("  {key}: {}\n", quote(value)));
            }
        }
        text
    }

    fn matches(&self, alias: &str, config: &TargetConfig) -> bool {
        let identity = &config.identity;
        config.name == alias
            && config.context.as_deref() == self.context
            && config.region.as_deref() == self.region
            && identity.provider == self.provider
            && identity.scope.as_deref() == self.scope
            && identity.profile.as_deref() == self.profile
            && identity.expect.as_deref() == self.expect
    }
}

/// The registry's verdict on the new file, with the error pinned on the flag that caused it.
fn check(
    registry: &Registry,
    provider: &Provider,
    path: &Path,
    text: &str,
    binding: &Binding<'_>,
    alias: &str,
    mode: TargetingMode,
) -> Result<(), CliError> {
    let config = match registry.check_target_candidate(provider, path, text.as_bytes()) {
        Ok(config) => config,
        Err(error) => {
            let flag = match &error {
                RegistryError::Invalid { field, .. } => flag_of(field, mode),
                _ => None,
            };
            return Err(match flag {
                Some(flag) => TargetCliError::InvalidFlag {
                    flag,
                    source: error,
                }
                .into(),
                None => error.into(),
            });
        }
    };
    if binding.matches(alias, &config) {
        Ok(())
    } else {
        Err(TargetCliError::Unfaithful {
            path: path.to_path_buf(),
        }
        .into())
    }
}

/// The flag that sets a `target.yaml` field.
fn flag_of(field: &str, mode: TargetingMode) -> Option<&'static str> {
    Some(match field {
        "name" => "<ALIAS>",
        "context" => "--context",
        "region" => "--region",
        "identity.provider" => "--provider",
        "identity.scope" => "--scope",
        "identity.profile" => "--profile",
        "identity.expect" if mode == TargetingMode::AwsProfile => "--account-id",
        "identity.expect" => "--expect",
        _ => return None,
    })
}

/// Refuses a context the kubeconfig does not have. The provider's `.env` applies, as it does to
/// every call of the tool: a `KUBECONFIG` set there is the kubeconfig that must hold the context.
fn verify_context(provider: &Provider, context: &str, root: &ConfigRoot) -> Result<(), CliError> {
    let env_overlay =
        runner::read_env_file(&provider.env_file_path()).map_err(TargetCliError::Environment)?;
    let program = runner::resolve(&provider.config().command)?;
    let args = ["config", "get-contexts", "-o", "name", "--", context];
    let launch = Launch {
        program: program.clone(),
        args: args.iter().map(|arg| arg.to_string()).collect(),
        env_overlay,
        env_remove: Vec::new(),
        max_output_bytes: CONTEXT_CHECK_OUTPUT_BYTES,
        // The provider's CLI is a provider child here too: it stays out of the config root.
        confinement: Confinement::new(
            root.configured(),
            Settings::load(&root.settings_file())?.child_confinement,
            std::slice::from_ref(&program),
        ),
        timeout: Some(runner::CHECK_TIMEOUT),
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(CliError::Runtime)?;
    let result = runtime.block_on(runner::run(launch))?;
    let listed = result
        .stdout
        .lines()
        .any(|line| line.strip_suffix('\r').unwrap_or(line) == context);
    if result.exit_code == 0 && listed {
        return Ok(());
    }
    let reason = result
        .stderr
        .lines()
        .map(str::trim)
        .find(|line| !line.is_empty())
        .unwrap_or("the context is not listed");
    Err(TargetCliError::ContextNotFound {
        program,
        args: args.iter().map(|arg| arg.to_string()).collect(),
        exit_code: result.exit_code,
        reason: reason.to_string(),
    }
    .into())
}

/// Creates the alias directory (refusing an existing one) and writes the file into it; on a
/// failed write the new, empty directory is removed again.
fn write_new(targets_dir: &Path, dir: &Path, path: &Path, text: &str) -> Result<(), CliError> {
    private_dir(targets_dir, true)?;
    if let Err(error) = private_dir(dir, false) {
        return Err(match error {
            CliError::Fs(error) if error.source.kind() == ErrorKind::AlreadyExists => {
                TargetCliError::DirectoryExists {
                    dir: dir.to_path_buf(),
                }
                .into()
            }
            other => other,
        });
    }
    atomic::write(path, text.as_bytes(), Access::Private).map_err(|error| {
        let _ = std::fs::remove_dir(dir);
        CliError::from(error)
    })
}

fn private_dir(path: &Path, recursive: bool) -> Result<(), CliError> {
    let created = if recursive {
        crate::files::create_private_dir_all(path)
    } else {
        crate::files::create_private_dir(path)
    };
    Ok(created.map_err(crate::files::FsOp::CreateDir.on(path))?)
}
