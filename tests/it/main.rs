//! All of Torii's integration tests form one test binary (one link, one run); each area is a
//! module. Helpers that make a fresh config root and run the real executable live in `common`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)]

mod cli;
mod common;
mod demo;
mod leases;
mod mcp;
mod mcp_client;
mod no_secrets_read;
#[cfg(unix)]
mod prompt;
mod python_sdk;
mod registry;
mod runner;
mod stdio;
mod target_cli;
