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
// Without windows only the console asks, and only about operations so far: the rest of the
// questions' state is the windows'.
#[cfg_attr(not(feature = "gui"), allow(dead_code))]
mod dialog;
mod digest;
pub mod dispatch;
mod doctor;
mod errors;
mod files;
mod grants;
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
mod terminal;
mod text;
mod window_process;
