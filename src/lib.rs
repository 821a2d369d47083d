//! Torii: a local MCP server that runs infrastructure CLIs under a human-owned policy.
//!
//! Dependencies point inward: the control plane (`cli`) and the server use `registry`,
//! `runner`, `audit` and the pure `jasper` crate; none of those know about the others' callers.

pub mod agents;
pub mod app;
pub mod atomic;
pub mod audit;
pub mod auth;
pub mod cli;
pub mod confine;
pub mod console;
pub mod digest;
pub mod dispatch;
pub mod doctor;
pub mod errors;
pub mod files;
pub mod grants;
#[cfg(feature = "gui")]
mod gui;
pub mod leases;
pub mod mcp;
pub mod packages;
pub mod paths;
pub mod policy;
pub mod prompt;
pub mod registry;
pub mod release;
pub mod runner;
pub mod secret;
pub mod settings;
pub mod text;
pub mod window_process;
