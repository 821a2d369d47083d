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
    /// Collect and validate a new managed session (environment strategy) before replacing the
    /// stored one; for a target, through its identity provider in the target's scope
    Reauth {
        /// Tool of the provider (or of the target-aware provider)
        tool: String,
        /// Target alias, for target-aware tools
        target: Option<String>,
    },
    /// Show, edit and test the policy (rules.yaml) of a provider or target
    Policy {
        #[command(subcommand)]
        command: PolicyCommand,
    },
    /// Manage this torii executable itself
    #[command(name = "self")]
    SelfCmd {
        #[command(subcommand)]
        command: SelfCommand,
    },
    /// Check this installation without changing anything: the torii on PATH, the config root
    /// and its permissions, providers and policies, agent integrations, confinement, display
    ///
    /// Each line is ok, warning or problem, with the command that fixes it. Exits 1 when there
    /// is a problem, 0 otherwise (warnings included).
    Doctor,
    /// Check the audit log (torii.log)
    Audit {
        #[command(subcommand)]
        command: AuditCommand,
    },
    /// Answer in this terminal the questions an approval window would ask, for the servers of
    /// this config root, while no window can open (SSH, containers, no display)
    Console,
    /// Register Torii in an agent's configuration, with an optional shell hook
    Agent {
        #[command(subcommand)]
        command: AgentCommand,
    },
    /// Internal: the MCP server's window process (one JSON request on stdin, one answer on stdout)
    #[command(name = "__prompt", hide = true)]
    Prompt,
    /// Internal: the process that starts the server's provider children (a socket on stdin)
    #[cfg(target_os = "linux")]
    #[command(name = "__launcher", hide = true)]
    Launcher,
    /// Internal: the shell hook an agent runs before its shell tool (client JSON on stdin)
    #[command(name = "__hook", hide = true)]
    Hook {
        agent: String,
        /// The config root pinned at install (clients do not pass TORII_CONFIG_DIR to hooks)
        #[arg(long, value_name = "DIR")]
        config_dir: std::path::PathBuf,
    },
}

#[derive(Debug, Subcommand)]
pub enum AuditCommand {
    /// Check the log's hash chain: say where a line was edited, removed, inserted or moved, or
    /// lines were cut from its end. Exits 1 when the chain is broken
    ///
    /// Only a copy kept elsewhere (an export) shows a log whose whole chain was rewritten.
    Verify {
        /// Rotated files of the log, oldest first, checked before torii.log as one chain
        rotated: Vec<std::path::PathBuf>,
        /// The first file continues a chain whose start is no longer kept (older rotated files
        /// were deleted); without it, its first line must start a chain
        #[arg(long)]
        continued: bool,
    },
}

#[derive(Debug, Subcommand)]
pub enum SelfCommand {
    /// Replace this executable with the latest release (checked against its SHA-256); the
    /// config root is not touched. Running MCP clients keep the old binary until restarted
    Upgrade {
        /// Only report the installed and the latest version
        #[arg(long)]
        check: bool,
    },
}

/// `torii agent …`: writes only the client's own configuration files and
/// `<root>/agents/<agent>.json`. Restart the client afterwards.
#[derive(Debug, Subcommand)]
pub enum AgentCommand {
    /// List the supported agents, their files and whether they offer a shell hook
    List,
    /// Add the `torii` MCP server (pinning this executable and config root) to an agent
    ///
    /// AGENT is one of codex, claude, gemini, cursor, antigravity, opencode, copilot,
    /// copilot-cli, pi. Other content of the client's file is kept; a different existing
    /// `torii` server is refused.
    Install {
        agent: String,
        /// Also install the guard that blocks direct shell calls to installed providers'
        /// executables (codex, claude, gemini, cursor, antigravity); not a sandbox
        #[arg(long)]
        hook: bool,
        /// Let the client run Torii's tools without asking first, so that Torii's policy is
        /// the only gate (gemini: `"trust": true`; without it headless Gemini offers no Torii
        /// tool)
        #[arg(long)]
        trust: bool,
        /// Run the server without windows (`TORII_NO_GUI=1` in its entry): what no rule
        /// decides is denied. For clients on a machine without a display
        #[arg(long)]
        headless: bool,
        /// Confirm without asking: pi's extension warning, and moving the entry from another
        /// config root to this one (required for either when no terminal is attached)
        #[arg(long)]
        yes: bool,
    },
    /// Show what Torii manages in an agent's files, and what was there before; without an
    /// agent, one line for each of the nine
    Status { agent: Option<String> },
    /// Remove what `agent install` wrote; with --hook only the guard, keeping the MCP entry
    Uninstall {
        agent: String,
        /// Remove only the hook
        #[arg(long)]
        hook: bool,
    },
}

#[derive(Debug, Subcommand)]
pub enum ProviderCommand {
    /// List installed providers: tool, name, executable, version and origin
    List,
    /// Search the provider catalog (TORII_PROVIDER_CATALOG, else the official index)
    Search {
        /// Case-insensitive text matched against names and descriptions; all without it
        query: Option<String>,
    },
    /// Install a package: an existing path (directory, .zip, .tar, .tar.gz, .tgz), an
    /// https:// URL, or a catalog name, tried in that order
    ///
    /// The policy is installed empty; nothing from the package is ever executed. An existing
    /// provider directory is refused. Restart the MCP server afterwards.
    Install {
        /// Path, https:// URL or catalog name
        source: String,
    },
    /// Apply one of the package's read-only setups to the provider's empty policy
    ///
    /// The only command that writes rules.yaml; it refuses a policy that already has any
    /// deny, accept or example.
    Setup {
        /// Provider name (or tool)
        provider: String,
        /// Setup name from the package manifest, e.g. readonly
        setup: String,
    },
    /// Upgrade an installed package from the origin recorded in its lock
    ///
    /// Replaces only provider.yaml and .torii-package/; rules, .env, grants, targets,
    /// caches and credentials are never opened for writing. Restart the MCP server afterwards.
    Upgrade {
        /// Provider name (or tool)
        provider: String,
        /// Also accept a new version signed by this trusted key (its 16-digit id), when the
        /// package's publisher changed keys; otherwise the key that signed the installed
        /// version must sign the new one
        #[arg(long, value_name = "KEY_ID", value_parser = key_id)]
        accept_key: Option<crate::signature::KeyId>,
    },
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
#[derive(Debug, Subcommand)]
pub enum PolicyCommand {
    /// Print the effective policy of a provider or target and its path; warn about ignored accepts
    Show {
        /// The provider's MCP tool (or name)
        tool: String,
        /// A target alias: its own rules.yaml when it has one, else the shared policy
        target: Option<String>,
    },
    /// Edit a copy of the policy in $VISUAL or $EDITOR, check it, then replace the live file
    ///
    /// The editor is $VISUAL, else $EDITOR, else vi (notepad on Windows), split on whitespace
    /// and run without a shell; an editor that returns at once needs its wait flag
    /// (`code --wait`, `subl -w`). Malformed YAML, an invalid rule, an empty file or a failing
    /// example never reach the live file: the draft is kept at a path named in the error.
    Edit {
        /// The provider's MCP tool (or name)
        tool: String,
        /// A configured target alias; its own policy replaces the shared one
        target: Option<String>,
        /// Create the policy when it does not exist yet (for a target: start from a copy of
        /// the shared policy)
        #[arg(long)]
        create: bool,
    },
    /// Show the decision for an argument vector without running anything, or verify every
    /// example of the policy with --all
    ///
    /// Exits 0 when the check ran, whatever the decision; with --all, exits 1 if any example
    /// fails. Example: torii policy check aws -- s3 ls s3://bucket
    Check {
        /// The provider's MCP tool (or name)
        tool: String,
        /// A target alias
        target: Option<String>,
        /// Verify every example of the effective policy
        #[arg(long, conflicts_with = "args")]
        all: bool,
        /// Print documented JSON instead of text
        #[arg(long)]
        json: bool,
        /// The arguments the agent would send, after `--`
        #[arg(last = true, required_unless_present = "all")]
        args: Vec<String>,
    },
}

/// `--accept-key`: a key id as minisign and `torii provider list` write it.
fn key_id(text: &str) -> Result<crate::signature::KeyId, String> {
    crate::signature::KeyId::parse(text)
        .ok_or_else(|| format!("{text:?} is not a key id (16 hexadecimal digits)"))
}
