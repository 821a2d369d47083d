//! Startup: parse the command line, find the config root, run a control-plane command or
//! the MCP server, and turn any error into one message on stderr and an exit code.

use std::process::ExitCode;

use clap::Parser;

use crate::cli::{self, Cli, CliError};

pub fn main() -> ExitCode {
    // The MCP server (no argument at all) is the hot, long-lived path: it skips building the
    // whole control-plane grammar, which keeps that code out of the server's memory.
    let result = if std::env::args_os().len() <= 1 {
        serve()
    } else {
        run(Cli::parse())
    };
    match result {
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
        Some(cli::Command::Prompt) => {
            // The window process answers the server that started it; it needs no config root.
            return Ok(crate::window_process::serve()?);
        }
        Some(cli::Command::Hook { agent, config_dir }) => {
            // The hook's root comes from its own command line, pinned at install.
            return cli::hook(&agent, &config_dir);
        }
        _ => {}
    }
    match parsed.command {
        Some(command) => cli::run(command, &crate::paths::config_root()?),
        None => serve(),
    }
}

fn serve() -> Result<(), CliError> {
    Ok(crate::mcp::serve(&crate::paths::config_root()?)?)
}
