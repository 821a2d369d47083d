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

use std::sync::Arc;

use crate::audit::AuditLog;
use crate::paths::ConfigRoot;
use crate::registry::{Provider, Registry, Target};

use super::{CliError, TargetCommand};

/// Said whenever the set of aliases changes.
const RESTART_NOTE: &str =
    "restart the MCP server so the tool's `target` list changes (activation needs no restart)";

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
        return Err(CliError::Usage(format!(
            "<TOOL>: no installed provider publishes the tool `{tool}` (see `torii provider list`)"
        )));
    };
    if !provider.is_target_aware() {
        return Err(CliError::Usage(format!(
            "<TOOL>: `{tool}` is not target-aware: {} has no field `targeting`",
            provider.config_path().display()
        )));
    }
    let provider = Arc::clone(provider);
    Ok((registry, provider))
}

/// The configured alias, or an error pointing at `target list`.
fn configured<'a>(provider: &'a Provider, alias: &str) -> Result<&'a Target, CliError> {
    provider.target(alias).ok_or_else(|| {
        CliError::Usage(format!(
            "<ALIAS>: `{}` has no target `{alias}` (see `torii target list {}`)",
            provider.tool(),
            provider.tool()
        ))
    })
}

fn audit_log(root: &ConfigRoot) -> AuditLog {
    AuditLog::new(root.audit_log())
}

/// The audit scope of a target-aware call or lease change: `<provider name>/<alias>`.
fn audit_scope(provider: &Provider, alias: &str) -> String {
    format!("{}/{alias}", provider.name())
}
