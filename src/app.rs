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
            eprintln!("torii: {}", error_chain(&error));
            ExitCode::from(error.exit_code())
        }
    }
}

fn run(parsed: Cli) -> Result<(), CliError> {
    let root = crate::paths::config_root()?;
    match parsed.command {
        Some(command) => cli::run(command, &root),
        None => {
            // The MCP server lands with the dispatcher; until then show what exists.
            use clap::CommandFactory;
            let _ = Cli::command().print_help();
            Ok(())
        }
    }
}

/// The error and its sources, so the user sees the whole reason on one line.
fn error_chain(error: &dyn std::error::Error) -> String {
    let mut message = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let text = cause.to_string();
        if !message.contains(&text) {
            message.push_str(": ");
            message.push_str(&text);
        }
        source = cause.source();
    }
    message
}
