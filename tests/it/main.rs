//! All of Torii's integration tests form one test binary (one link, one run); each area is a
//! module. Helpers that make a fresh config root and run the real executable live in `common`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod cli;
mod common;
mod leases;
mod registry;
mod runner;
mod target_cli;
