//! All of Torii's integration tests form one test binary (one link, one run); each area is a
//! module. Helpers that make a fresh config root and run the real executable live in `common`.
//! Package helpers (archives, snapshots, an HTTPS server on loopback) live in `pack`.
//!
//! Unix only: the suite drives real Unix programs (fake CLIs are `sh` scripts, tmux, a Python
//! venv, kubectl). What exists only on Windows is `tests/windows`, and the library's unit tests
//! run on both (see docs/src/testing.md).
#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)]
// The tests that need the scripted human or the window driver (feature `test-hooks`, which
// scripts/test.sh and scripts/check.sh turn on) are ignored, with that reason, in a build
// without it: a plain `cargo test` lists them instead of dropping them.

mod admin_layer;
mod agent_clients;
mod agents;
#[cfg(all(unix, feature = "gui"))]
mod approval_windows;
mod archives;
mod audit_chain;
mod audit_export;
mod auth;
mod aws_moto;
mod az_snow_real;
mod behaviours;
mod capture;
mod cli;
mod common;
mod confinement;
mod console;
#[cfg(unix)]
mod control_plane;
mod demo;
#[cfg(unix)]
mod docs_console;
mod doctor;
mod example_policies;
mod fake_kube;
mod gcloud_real;
mod gh_real;
mod hook_corpus;
mod hostile_corpus;
mod identity_targets;
mod install_ps1;
#[cfg(unix)]
mod install_sh;
mod kubectl_real;
mod language;
mod leases;
mod lifecycle;
mod live_catalog;
mod loopback;
mod mcp;
mod mcp_client;
mod mcp_targets;
mod no_secrets_read;
mod pack;
mod packages;
mod policy_cli;
#[cfg(unix)]
mod prompt;
mod python_sdk;
mod registry;
mod runner;
#[cfg(unix)]
mod self_upgrade;
mod signed_packages;
mod stdio;
mod target_cli;
mod typescript_sdk;
