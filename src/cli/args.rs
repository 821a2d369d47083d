//! Command-line grammar (clap derive). Parsing only: no I/O happens here.

use clap::{Args, Parser, Subcommand};

use crate::leases::LeaseMinutes;

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
    /// Manage the aliases of target-aware tools and their temporary human leases
    Target {
        #[command(subcommand)]
        command: TargetCommand,
    },
    /// Internal: the MCP server's window process (one JSON request on stdin, one answer on stdout)
    #[command(name = "__prompt", hide = true)]
    Prompt,
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

/// `torii target …`. `<TOOL>` is the MCP tool of a target-aware provider (`kubectl`,
/// `aws_profile`). Bindings are shown here only, never over MCP.
#[derive(Debug, Subcommand)]
pub enum TargetCommand {
    /// Create an alias; it starts inactive, and the MCP server must restart to announce it
    Add(TargetAdd),
    /// List aliases with their bindings, expected identity, scope and identity provider
    List {
        /// Tool of a target-aware provider
        tool: String,
    },
    /// Show one alias: binding, identity, files and lease
    Show {
        /// Tool of a target-aware provider
        tool: String,
        alias: String,
    },
    /// Grant an alias a temporary lease; without --add it replaces every active lease of the tool
    Activate {
        /// Tool of a target-aware provider
        tool: String,
        alias: String,
        /// Lease duration in minutes, 1 to 1440 [default: default_target_minutes from settings.yaml]
        #[arg(long = "for", value_name = "MINUTES")]
        minutes: Option<LeaseMinutes>,
        /// Keep the other active leases: the agent may then choose any active alias
        #[arg(long)]
        add: bool,
    },
    /// Show live leases, their expiry, and leases a binding change has invalidated (read-only)
    Status {
        /// Tool of a target-aware provider
        tool: String,
    },
    /// Revoke every lease of the tool; works on a corrupt state file and touches nothing else
    Clear {
        /// Tool of a target-aware provider
        tool: String,
    },
    /// Revoke an alias's lease and delete its directory (target.yaml, rules, .env, grants)
    Remove {
        /// Tool of a target-aware provider
        tool: String,
        alias: String,
        /// Required: the alias directory is deleted
        #[arg(long)]
        force: bool,
    },
}

/// `torii target add`: which flags apply depends on the provider's `targeting.mode`.
#[derive(Debug, Args)]
pub struct TargetAdd {
    /// Tool of a target-aware provider
    pub tool: String,
    /// The alias the agent will see and choose
    pub alias: String,
    /// kubectl_context: an existing kubeconfig context
    #[arg(long)]
    pub context: Option<String>,
    /// kubectl_context: tool of the installed provider that authenticates the context
    #[arg(long)]
    pub provider: Option<String>,
    /// Credential bucket (identity.scope) [default: the alias, or the profile for aws_profile]
    #[arg(long)]
    pub scope: Option<String>,
    /// kubectl_context: identity the identity provider's probe must report
    #[arg(long)]
    pub expect: Option<String>,
    /// aws_profile: the local AWS CLI profile
    #[arg(long)]
    pub profile: Option<String>,
    /// aws_profile: the 12-digit account the profile must belong to
    #[arg(long = "account-id", value_name = "ACCOUNT_ID")]
    pub account_id: Option<String>,
    /// aws_profile: region passed to the CLI as --region
    #[arg(long)]
    pub region: Option<String>,
}
