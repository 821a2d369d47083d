//! All of Torii's integration tests form one test binary (one link, one run); each area is a
//! module. Helpers that make a fresh config root and run the real executable live in `common`;
//! package helpers (archives, snapshots, an HTTPS server on loopback) live in `pack`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod archives;
mod cli;
mod common;
mod example_policies;
mod pack;
mod packages;
mod policy_cli;
mod registry;
mod runner;
