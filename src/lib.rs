//! Torii: a local MCP server that runs infrastructure CLIs under a human-owned policy.
pub mod registry;
