//! Jasper's integration tests, one binary: tables of vectors and expected decisions, the
//! grants file format, and property tests.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod args;
mod boundaries;
mod common;
mod examples;
mod grants;
mod properties;
mod regex_rules;
mod rule_errors;
mod rules_file;
