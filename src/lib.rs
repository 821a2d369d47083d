//! Torii: a local MCP server that runs infrastructure CLIs under a human-owned policy.
//!
//! Dependencies point inward: the control plane (`cli`) and the server use `registry`,
//! `runner`, `audit` and the pure `jasper` crate; none of those know about the others' callers.

pub mod admin;
mod agents;
pub mod app;
mod atomic;
mod audit;
mod auth;
mod cli;
pub mod confine;
mod console;
// The console asks every question without windows, but only the windows paste from the
// clipboard and label their buttons.
#[cfg_attr(not(feature = "gui"), allow(dead_code))]
mod dialog;
mod digest;
pub mod dispatch;
mod doctor;
mod errors;
mod files;
#[cfg(any(test, feature = "fuzzing"))]
pub mod fuzzing;
mod grants;
#[cfg(feature = "gui")]
mod gui;
pub mod language;
#[cfg(test)]
mod layering;
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
pub mod signature;
mod terminal;
mod text;
mod window_process;
