//! The human control plane: clap definitions and the commands behind them.
//!
//! Nothing here is ever published as an MCP tool. Commands print data on stdout and
//! progress or errors on stderr; the MCP server (no subcommand) owns stdout for the protocol.

mod agent;
mod args;
mod demo;
mod init;
mod lookup;
mod policy;
mod provider;
mod reauth;
mod target;

pub use agent::hook;
pub use args::{
    AgentCommand, Cli, Command, PolicyCommand, ProviderCommand, SelfCommand, TargetAdd,
    TargetCommand,
};
pub use policy::PolicyCliError;

use std::path::PathBuf;

use crate::paths::{ConfigRoot, RootError};
use crate::settings::SettingsError;

/// Why a control-plane command failed; `app` maps it to an exit code and a message.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    #[error(transparent)]
    Root(#[from] RootError),
    #[error(transparent)]
    Settings(#[from] SettingsError),
    #[error(transparent)]
    Write(#[from] crate::atomic::WriteError),
    #[error("cannot create {}: {source}", path.display())]
    CreateDir {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(transparent)]
    Registry(#[from] crate::registry::RegistryError),
    #[error(transparent)]
    Serve(#[from] crate::mcp::ServeError),
    #[error(transparent)]
    Demo(#[from] demo::DemoError),
    #[error(transparent)]
    Package(#[from] crate::packages::PackageError),
    #[error(transparent)]
    Policy(#[from] PolicyCliError),
    #[error(transparent)]
    Lookup(#[from] lookup::LookupError),
    /// A command that does not exist but that people type; the message is the correction.
    #[error("{0}")]
    Correction(&'static str),
    /// Arguments that do not fit together or do not fit the configuration; names the argument.
    #[error("{0}")]
    Usage(String),
    /// The command is well-formed but the configuration or the system refuses it.
    #[error("{0}")]
    Refused(String),
    #[error(transparent)]
    Lease(#[from] crate::leases::LeaseError),
    #[error(transparent)]
    Run(#[from] crate::runner::RunError),
    #[error("cannot remove {}: {source}", path.display())]
    RemoveDir {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot start the async runtime: {0}")]
    Runtime(#[source] std::io::Error),
    #[error(transparent)]
    Prompt(#[from] crate::window_process::ChildError),
    #[error(transparent)]
    Agent(#[from] crate::agents::AgentError),
    #[error(transparent)]
    Upgrade(#[from] crate::release::UpgradeError),
    #[error("doctor found {0} {noun}", noun = if *.0 == 1 { "problem" } else { "problems" })]
    Doctor(usize),
}

impl CliError {
    /// 2 for a command-line mistake (as clap does), 1 for everything else.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Correction(_) | CliError::Usage(_) => 2,
            _ => 1,
        }
    }
}

/// Runs one control-plane command.
pub fn run(command: Command, root: &ConfigRoot) -> Result<(), CliError> {
    match command {
        Command::Demo => Ok(demo::run(root)?),
        Command::Init => init::run(root),
        Command::ConfigDir => {
            crate::human::data(&root.dir().display().to_string());
            Ok(())
        }
        Command::Provider { command } => provider::run(command, root),
        Command::Target { command } => target::run(command, root),
        Command::Policy { command } => policy::run(command, root),
        Command::Reauth { tool, target } => reauth::run(&tool, target.as_deref(), root),
        Command::Agent { command } => agent::run(command, root),
        Command::Doctor => doctor(root),
        Command::SelfCmd {
            command: SelfCommand::Upgrade { check },
        } => self_upgrade(check),
        Command::Prompt => Ok(crate::window_process::serve()?),
        Command::Hook { agent, config_dir } => agent::hook(&agent, &config_dir),
    }
}

/// `torii doctor`: the report on stdout, and a failure when it holds a problem.
fn doctor(root: &ConfigRoot) -> Result<(), CliError> {
    use crate::doctor::{Level, Subject, examine, render};
    let exe = std::env::current_exe()
        .and_then(std::fs::canonicalize)
        .map_err(|error| CliError::Refused(format!("cannot find this executable: {error}")))?;
    let findings = examine(&Subject { exe: &exe, root });
    for line in render(&findings) {
        crate::human::data(&line);
    }
    match findings
        .iter()
        .filter(|finding| finding.level == Level::Problem)
        .count()
    {
        0 => Ok(()),
        problems => Err(CliError::Doctor(problems)),
    }
}

/// `torii self upgrade [--check]`.
fn self_upgrade(check: bool) -> Result<(), CliError> {
    use crate::release::{self, Platform, UpgradeError, Version};
    let current = Version::current();
    if check {
        let latest = release::latest()?;
        crate::human::data(&if latest > current {
            format!("torii {current} is installed; {latest} is available (torii self upgrade)")
        } else {
            format!("torii {current} is up to date (latest release {latest})")
        });
        return Ok(());
    }
    let exe = std::env::current_exe()
        .and_then(std::fs::canonicalize)
        .map_err(UpgradeError::Exe)?;
    // The `torii.exe.old` the previous upgrade had to leave (it was running), before anything
    // can fail: this is the "next time" it is removed.
    if let Some(message) = release::remove_leftover(&exe, Platform::CURRENT) {
        crate::human::progress(&message);
    }
    let latest = release::latest()?;
    if latest <= current {
        crate::human::progress(&format!(
            "already up to date: torii {current} (latest release {latest})"
        ));
        return Ok(());
    }
    let bytes = release::fetch_executable(latest)?;
    release::replace_executable(&exe, &bytes, Platform::CURRENT)?;
    let kept = if Platform::CURRENT == Platform::Windows {
        format!(
            " The replaced executable stays as {} while it runs; the next torii self upgrade \
             removes it.",
            release::leftover(&exe).display()
        )
    } else {
        String::new()
    };
    crate::human::progress(&format!(
        "upgraded torii {current} to {latest} at {}; the config root was not touched. Restart \
         your MCP clients: a running client keeps the old binary until then.{kept}",
        exe.display()
    ));
    Ok(())
}
