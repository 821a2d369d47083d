//! Finding the provider (and target) a control-plane command names. Provider commands take
//! the provider's name first (`torii provider setup aws-profile readonly`); policy commands
//! take the MCP tool first (`torii policy edit aws_profile producao`); either accepts the other.

use std::sync::Arc;

use crate::registry::{Provider, Registry, Target};

/// The provider or target named on the command line does not exist.
#[derive(Debug, thiserror::Error)]
pub enum LookupError {
    #[error("{}", crate::tr!("cli-unknown-provider", key = format!("{:?}", .key), installed = .installed.as_str()))]
    UnknownProvider { key: String, installed: String },
    #[error("{}", crate::tr!("cli-not-target-aware", tool = .tool.as_str(), alias = format!("{:?}", .alias)))]
    NotTargetAware { tool: String, alias: String },
    #[error("{}", crate::tr!("cli-unknown-target", tool = .tool.as_str(), alias = format!("{:?}", .alias), configured = .configured.as_str()))]
    UnknownTarget {
        tool: String,
        alias: String,
        configured: String,
    },
}

/// Which identifier is tried first.
#[derive(Debug, Clone, Copy)]
pub enum Prefer {
    Name,
    Tool,
}

pub fn provider<'r>(
    registry: &'r Registry,
    key: &str,
    prefer: Prefer,
) -> Result<&'r Arc<Provider>, LookupError> {
    let found = match prefer {
        Prefer::Name => registry.by_name(key).or_else(|| registry.by_tool(key)),
        Prefer::Tool => registry.by_tool(key).or_else(|| registry.by_name(key)),
    };
    found.ok_or_else(|| LookupError::UnknownProvider {
        key: key.to_string(),
        installed: list(registry.iter().map(|provider| match prefer {
            Prefer::Name => provider.name(),
            Prefer::Tool => provider.tool(),
        })),
    })
}

pub fn target<'p>(provider: &'p Provider, alias: &str) -> Result<&'p Target, LookupError> {
    if !provider.is_target_aware() {
        return Err(LookupError::NotTargetAware {
            tool: provider.tool().to_string(),
            alias: alias.to_string(),
        });
    }
    provider
        .target(alias)
        .map(AsRef::as_ref)
        .ok_or_else(|| LookupError::UnknownTarget {
            tool: provider.tool().to_string(),
            alias: alias.to_string(),
            configured: list(provider.targets().keys().map(String::as_str)),
        })
}

fn list<'a>(items: impl Iterator<Item = &'a str>) -> String {
    let items: Vec<&str> = items.collect();
    if items.is_empty() {
        "none".to_string()
    } else {
        items.join(", ")
    }
}
