//! Startup: parse the command line, find the config root, run a control-plane command or
//! the MCP server, and turn any error into one message on stderr and an exit code.

use std::process::ExitCode;

use clap::Parser;

use crate::cli::{self, Cli, CliError};

pub fn main() -> ExitCode {
    let parsed = Cli::parse();
    match run(parsed) {
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
    if let Some(cli::Command::Prompt) = parsed.command {
        // The window process answers the server that started it; it needs no config root.
        return Ok(crate::prompt::serve_prompt()?);
    }
    let root = crate::paths::config_root()?;
    match parsed.command {
        Some(command) => cli::run(command, &root),
        None => Ok(crate::mcp::serve(&root)?),
    }
}
