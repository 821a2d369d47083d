//! `torii target …`: the aliases of target-aware tools and their temporary human leases.
//!
//! Control plane only: bindings (contexts, profiles, accounts) are printed here and nowhere
//! else. Creating or removing an alias changes the MCP schema, so the server must restart;
//! activating, clearing or expiring a lease does not (leases are re-read on every call).

mod add;
mod lease;
mod remove;
mod show;
mod time;

use std::path::PathBuf;
use std::sync::Arc;

use crate::audit::AuditLog;
use crate::paths::ConfigRoot;
use crate::registry::{Provider, Registry, RegistryError, Target};
use crate::runner::EnvFileError;

use super::{CliError, TargetCommand};

/// Why a `torii target` command refused. Command-line mistakes ([`Self::is_usage`]) name the
/// argument at fault, as clap does.
#[derive(Debug, thiserror::Error)]
pub enum TargetCliError {
    #[error("{}", crate::tr!("cli-target-activate-needs-terminal"))]
    ActivateNeedsTerminal,
    #[error("{}", crate::tr!("cli-target-unknown-tool", tool = .tool.as_str()))]
    UnknownTool { tool: String },
    #[error("{}", crate::tr!("cli-target-not-target-aware", tool = .tool.as_str(), config = .config.display().to_string()))]
    NotTargetAware { tool: String, config: PathBuf },
    #[error("{}", crate::tr!("cli-target-unknown-alias", tool = .tool.as_str(), alias = .alias.as_str()))]
    UnknownAlias { tool: String, alias: String },
    #[error("<ALIAS>: {reason}")]
    InvalidAlias { reason: String },
    #[error("{}", crate::tr!("cli-target-exists", tool = .tool.as_str(), alias = .alias.as_str(), config = .config.display().to_string()))]
    AliasExists {
        tool: String,
        alias: String,
        config: PathBuf,
    },
    #[error("{} already exists without a target.yaml; remove it or choose another alias", dir.display())]
    DirectoryExists { dir: PathBuf },
    #[error(
        "{flag}: not accepted for `{mode}` targets (tool `{tool}`); they take {}{}",
        accepted.join(", "),
        if *own_auth { " and authenticate through their own tool" } else { "" }
    )]
    FlagNotAccepted {
        flag: &'static str,
        mode: &'static str,
        tool: String,
        accepted: &'static [&'static str],
        /// The mode's targets authenticate through their own provider (`aws_profile`).
        own_auth: bool,
    },
    #[error("{}", crate::tr!("cli-target-flag-required", flag = *.flag, mode = *.mode, tool = .tool.as_str()))]
    FlagRequired {
        flag: &'static str,
        mode: &'static str,
        tool: String,
    },
    /// The registry refused the value a flag sets; the flag, then the registry's message.
    #[error("{flag}")]
    InvalidFlag {
        flag: &'static str,
        #[source]
        source: RegistryError,
    },
    #[error("{}", crate::tr!("cli-target-unfaithful", path = .path.display().to_string()))]
    Unfaithful { path: PathBuf },
    /// The provider's `.env` cannot be read; the cause is inside the sentence, so it is not a
    /// `source`.
    #[error("{}; nothing was written", crate::errors::chain(.0))]
    Environment(EnvFileError),
    #[error("{}", crate::tr!("cli-target-context-not-found", command = format!("{} {}", .program.display(), .args.join(" ")), code = *.exit_code, reason = .reason.as_str()))]
    ContextNotFound {
        program: PathBuf,
        args: Vec<String>,
        exit_code: i32,
        reason: String,
    },
    #[error("{}", crate::tr!("cli-target-force", alias = .alias.as_str(), dir = .dir.display().to_string()))]
    ForceRequired { alias: String, dir: PathBuf },
}

impl TargetCliError {
    /// A command-line mistake (exit code 2), rather than a refusal of a well-formed command.
    pub fn is_usage(&self) -> bool {
        matches!(
            self,
            TargetCliError::UnknownTool { .. }
                | TargetCliError::NotTargetAware { .. }
                | TargetCliError::UnknownAlias { .. }
                | TargetCliError::InvalidAlias { .. }
                | TargetCliError::FlagNotAccepted { .. }
                | TargetCliError::FlagRequired { .. }
                | TargetCliError::InvalidFlag { .. }
                | TargetCliError::ForceRequired { .. }
        )
    }
}

/// Why a change to the targets needs a restart.
pub(super) fn restart_note() -> String {
    crate::tr!("cli-target-restart")
}

pub fn run(command: TargetCommand, root: &ConfigRoot) -> Result<(), CliError> {
    match command {
        TargetCommand::Add(args) => add::run(&args, root),
        TargetCommand::List { tool } => show::list(root, &tool),
        TargetCommand::Show { tool, alias } => show::show(root, &tool, &alias),
        TargetCommand::Activate {
            tool,
            alias,
            minutes,
            add,
        } => lease::activate(root, &tool, &alias, minutes, add),
        TargetCommand::Status { tool } => lease::status(root, &tool),
        TargetCommand::Clear { tool } => lease::clear(root, &tool),
        TargetCommand::Remove { tool, alias, force } => remove::run(root, &tool, &alias, force),
    }
}

/// The registry and the target-aware provider publishing `tool`.
fn select(root: &ConfigRoot, tool: &str) -> Result<(Registry, Arc<Provider>), CliError> {
    let registry = Registry::load(root.dir())?;
    let Some(provider) = registry.by_tool(tool) else {
        return Err(TargetCliError::UnknownTool {
            tool: tool.to_string(),
        }
        .into());
    };
    if !provider.is_target_aware() {
        return Err(TargetCliError::NotTargetAware {
            tool: tool.to_string(),
            config: provider.config_path(),
        }
        .into());
    }
    let provider = Arc::clone(provider);
    Ok((registry, provider))
}

/// The configured alias, or an error pointing at `target list`.
fn configured<'a>(provider: &'a Provider, alias: &str) -> Result<&'a Target, CliError> {
    provider.target(alias).map(AsRef::as_ref).ok_or_else(|| {
        TargetCliError::UnknownAlias {
            tool: provider.tool().to_string(),
            alias: alias.to_string(),
        }
        .into()
    })
}

/// The root's audit log, exporting as its settings say (settings that do not load export
/// nothing: the command reports them where it reads them).
fn audit_log(root: &ConfigRoot) -> AuditLog {
    let settings = crate::settings::Settings::load(&root.settings_file()).unwrap_or_default();
    AuditLog::of_root(root, &settings)
}

/// The audit scope of a target-aware call or lease change: `<provider name>/<alias>`.
fn audit_scope(provider: &Provider, alias: &str) -> String {
    format!("{}/{alias}", provider.name())
}
