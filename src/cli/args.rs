//! Command-line grammar (clap derive). Parsing only: no I/O happens here.

use clap::{Parser, Subcommand};

/// Torii: a local MCP server that runs infrastructure CLIs for AI agents under a policy
/// you own. Without a subcommand it serves MCP over stdio; the subcommands are for humans.
#[derive(Debug, Parser)]
#[command(name = "torii", version, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run Torii's main job on a built-in example: a throwaway root, a read-only `git` provider
    /// and a real MCP session showing allowed, denied and unresolved calls
    Demo,
    /// Create the config root with settings.yaml and the base structure (no providers)
    Init,
    /// Print the effective config root (TORII_CONFIG_DIR or ~/.config/torii)
    ConfigDir,
    /// Inspect and manage installed providers
    Provider {
        #[command(subcommand)]
        command: ProviderCommand,
    },
}

#[derive(Debug, Subcommand)]
pub enum ProviderCommand {
    /// List installed providers: tool, name, executable, version and origin
    List,
    /// Not a command: answers with the right one
    #[command(hide = true, disable_help_flag = true)]
    Update {
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, hide = true)]
        rest: Vec<String>,
    },
}
