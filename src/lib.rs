//! Torii: a local MCP server that runs infrastructure CLIs under a human-owned policy.
//!
//! Dependencies point inward: the control plane (`cli`) and the server use `registry`,
//! `runner`, `audit` and the pure `jasper` crate; none of those know about the others' callers.

mod agents;
pub mod app;
mod atomic;
mod audit;
mod auth;
mod cli;
pub mod confine;
mod console;
mod digest;
pub mod dispatch;
mod doctor;
mod errors;
mod files;
mod grants;
// The questions without drawing; only the windows ask them so far.
#[cfg(feature = "gui")]
mod dialog;
#[cfg(feature = "gui")]
mod gui;
pub mod language;
pub mod leases;
mod mcp;
mod packages;
mod paths;
pub mod prompt;
pub mod registry;
pub mod release;
pub mod rules;
pub mod runner;
pub mod secret;
mod settings;
mod text;
mod window_process;
