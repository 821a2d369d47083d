//! The human control plane: clap definitions and the commands behind them.
//!
//! Nothing here is ever published as an MCP tool. Commands print data on stdout and
//! progress or errors on stderr; the MCP server (no subcommand) owns stdout for the protocol.

mod agent;
mod args;
mod audit;
mod demo;
mod init;
mod lookup;
mod policy;
mod provider;
mod reauth;
mod target;

pub use agent::hook;
pub use args::{
    AgentCommand, AuditCommand, Cli, Command, PolicyCommand, ProviderCommand, SelfCommand,
    TargetAdd, TargetCommand,
};
pub use policy::PolicyCliError;

use crate::paths::{ConfigRoot, RootError};
use crate::settings::{Settings, SettingsError};

/// Why a control-plane command failed; `app` maps it to an exit code and a message.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    #[error(transparent)]
    Root(#[from] RootError),
    #[error(transparent)]
    Language(#[from] crate::language::LanguageError),
    #[error(transparent)]
    Settings(#[from] SettingsError),
    #[error(transparent)]
    Write(#[from] crate::atomic::WriteError),
    #[error(transparent)]
    Fs(#[from] crate::files::FsError),
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
    #[error(transparent)]
    Target(#[from] target::TargetCliError),
    #[error(transparent)]
    AgentCli(#[from] agent::AgentCliError),
    #[error(transparent)]
    Reauth(#[from] crate::dispatch::ReauthError),
    #[error(transparent)]
    Console(#[from] crate::terminal::ConsoleError),
    /// `std::env::current_exe` failed: Torii cannot name its own executable.
    #[error("{}", crate::tr!("cli-no-exe"))]
    Exe(#[source] std::io::Error),
    /// A command that does not exist but that people type; the message is the correction.
    #[error("{0}")]
    Correction(&'static str),
    #[error(transparent)]
    Lease(#[from] crate::leases::LeaseError),
    #[error(transparent)]
    Run(#[from] crate::runner::RunError),
    #[error("cannot start the async runtime")]
    Runtime(#[source] std::io::Error),
    #[error(transparent)]
    Prompt(#[from] crate::window_process::ChildError),
    #[cfg(target_os = "linux")]
    #[error("the launcher of provider children failed")]
    Launcher(#[source] std::io::Error),
    #[error(transparent)]
    Agent(#[from] crate::agents::AgentError),
    #[error(transparent)]
    Upgrade(#[from] crate::release::UpgradeError),
    #[error("{}", crate::tr!("cli-doctor-problems", count = *.0))]
    Doctor(usize),
    #[error(transparent)]
    Audit(#[from] audit::AuditCliError),
}

impl CliError {
    /// 2 for a command-line mistake (as clap does), 1 for everything else.
    pub fn exit_code(&self) -> u8 {
        let usage = match self {
            CliError::Correction(_) => true,
            CliError::Target(error) => error.is_usage(),
            CliError::AgentCli(error) => error.is_usage(),
            _ => false,
        };
        if usage { 2 } else { 1 }
    }
}

/// Runs one control-plane command.
pub fn run(command: Command, root: &ConfigRoot) -> Result<(), CliError> {
    // Settings that do not load are the command's to report (`doctor`, `init` fix them); the
    // language then comes from TORII_LANG or the system.
    let configured = Settings::load(&root.settings_file())
        .ok()
        .and_then(|settings| settings.language);
    crate::language::set_for_process(crate::language::choose(configured)?);
    match command {
        Command::Demo => Ok(demo::run()?),
        Command::Init => init::run(root),
        Command::ConfigDir => {
            crate::console::data(&root.dir().display().to_string());
            Ok(())
        }
        Command::Provider { command } => provider::run(command, root),
        Command::Target { command } => target::run(command, root),
        Command::Policy { command } => policy::run(command, root),
        Command::Reauth { tool, target } => reauth::run(&tool, target.as_deref(), root),
        Command::Agent { command } => agent::run(command, root),
        Command::Doctor => doctor(root),
        Command::Audit {
            command: AuditCommand::Verify { rotated, continued },
        } => audit::verify(&rotated, continued, root),
        Command::Console => Ok(crate::terminal::run(root.dir())?),
        Command::SelfCmd {
            command: SelfCommand::Upgrade { check },
        } => self_upgrade(check),
        Command::Prompt => Ok(crate::window_process::serve()?),
        #[cfg(target_os = "linux")]
        Command::Launcher => crate::confine::launcher::serve().map_err(CliError::Launcher),
        Command::Hook { agent, config_dir } => agent::hook(&agent, &config_dir),
    }
}

/// `torii doctor`: the report on stdout, and a failure when it holds a problem.
fn doctor(root: &ConfigRoot) -> Result<(), CliError> {
    use crate::doctor::{Level, Subject, examine, render};
    let exe = std::env::current_exe()
        .and_then(std::fs::canonicalize)
        .map_err(CliError::Exe)?;
    let findings = examine(&Subject { exe: &exe, root });
    for line in render(&findings) {
        crate::console::data(&line);
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
        let newer = latest > current;
        let (current, latest) = (current.to_string(), latest.to_string());
        crate::console::data(&if newer {
            crate::tr!("cli-upgrade-available", current = current, latest = latest)
        } else {
            crate::tr!("cli-upgrade-current", current = current, latest = latest)
        });
        return Ok(());
    }
    let exe = std::env::current_exe()
        .and_then(std::fs::canonicalize)
        .map_err(UpgradeError::Exe)?;
    // The `torii.exe.old` the previous upgrade had to leave (it was running), before anything
    // can fail: this is the "next time" it is removed.
    if let Some(message) = release::remove_leftover(&exe, Platform::CURRENT) {
        crate::console::progress(&message);
    }
    let latest = release::latest()?;
    if latest <= current {
        crate::console::progress(&crate::tr!(
            "cli-upgrade-already",
            current = current.to_string(),
            latest = latest.to_string()
        ));
        return Ok(());
    }
    let bytes = release::fetch_executable(latest)?;
    release::replace_executable(&exe, &bytes, Platform::CURRENT)?;
    let says = release::installed_version(&exe)?;
    let mut message = crate::tr!(
        "cli-upgrade-done",
        current = current.to_string(),
        latest = latest.to_string(),
        path = exe.display().to_string(),
        says = says
    );
    if Platform::CURRENT == Platform::Windows {
        message.push(' ');
        message.push_str(&crate::tr!(
            "cli-upgrade-kept",
            path = release::leftover(&exe).display().to_string()
        ));
    }
    crate::console::progress(&message);
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::CliError;
    use super::agent::AgentCliError;
    use super::target::TargetCliError;

    /// The typed errors that replaced `Usage(String)` and `Refused(String)` keep their exit
    /// codes: 2 for a command-line mistake, 1 for a refusal of a well-formed command.
    #[test]
    fn typed_cli_errors_keep_usage_and_refusal_exit_codes() {
        let usage: [CliError; 4] = [
            TargetCliError::UnknownTool { tool: "x".into() }.into(),
            TargetCliError::ForceRequired {
                alias: "dev".into(),
                dir: PathBuf::from("/r/targets/dev"),
            }
            .into(),
            TargetCliError::InvalidAlias {
                reason: "empty".into(),
            }
            .into(),
            AgentCliError::UnknownAgent {
                name: "nano".into(),
            }
            .into(),
        ];
        for error in usage {
            assert_eq!(error.exit_code(), 2, "{error}");
        }
        let refused: [CliError; 4] = [
            TargetCliError::DirectoryExists {
                dir: PathBuf::from("/r/targets/dev"),
            }
            .into(),
            AgentCliError::PiNeedsYes.into(),
            AgentCliError::Declined.into(),
            CliError::Exe(std::io::Error::other("gone")),
        ];
        for error in refused {
            assert_eq!(error.exit_code(), 1, "{error}");
        }
    }

    #[test]
    fn a_flag_the_registry_refuses_is_named_before_the_registry_message() {
        let error = CliError::from(TargetCliError::InvalidFlag {
            flag: "--context",
            source: crate::registry::RegistryError::Invalid {
                path: PathBuf::from("/r/target.yaml"),
                field: "context".into(),
                message: "must be a single line".into(),
            },
        });
        assert_eq!(
            crate::errors::chain(&error),
            "--context: /r/target.yaml: field `context`: must be a single line"
        );
    }
}
