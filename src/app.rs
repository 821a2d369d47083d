//! Startup: parse the command line, find the config root, run a control-plane command or
//! the MCP server, and turn any error into one message on stderr and an exit code.

use std::process::ExitCode;

use clap::Parser;

use crate::cli::{self, Cli, CliError};

pub fn main() -> ExitCode {
    // Every Torii process holds something a provider child must not read (a policy, a session,
    // a typed secret), and a child may change the limits of a process of its user (Landlock
    // does not cover `prlimit`) to make it crash: no core file is ever written, and only root
    // may trace or read it through `/proc`. (It cannot fail for the process itself.)
    #[cfg(target_os = "linux")]
    let _ = rustix::process::set_dumpable_behavior(rustix::process::DumpableBehavior::NotDumpable);
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(CliError::Correction(correction)) => {
            // Printed exactly as documented, without the usual prefix.
            eprintln!("{correction}");
            ExitCode::from(2)
        }
        Err(error) => {
            eprintln!("torii: {}", crate::errors::chain(&error));
            ExitCode::from(error.exit_code())
        }
    }
}

fn run(parsed: Cli) -> Result<(), CliError> {
    match parsed.command {
        // The window process answers the server that started it; it needs no config root.
        Some(cli::Command::Prompt) => Ok(crate::window_process::serve()?),
        // The launcher serves the server that started it; it needs no config root either.
        #[cfg(target_os = "linux")]
        Some(cli::Command::Launcher) => {
            crate::confine::launcher::serve().map_err(CliError::Launcher)
        }
        // The hook's root comes from its own command line, pinned at install.
        Some(cli::Command::Hook { agent, config_dir }) => cli::hook(&agent, &config_dir),
        Some(command) => cli::run(command, &crate::paths::config_root()?),
        None => Ok(crate::mcp::serve(&crate::paths::config_root()?)?),
    }
}
