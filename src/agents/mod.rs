//! `torii agent …`: the `torii` MCP server entry and the optional shell hook, written into
//! each client's own configuration in the format that client understands.
//!
//! Human control plane only: nothing here is an MCP tool.

pub mod blocked;
mod client_file;
pub mod clients;
mod document;
pub mod hook;
mod human_only;
mod integration;
mod root_paths;
mod state;

pub use clients::{Agent, EntryOptions, Locations, Pinned};
pub use integration::{AgentError, Install, Standing, StatusLine, Uninstall, status};
#[cfg(target_os = "linux")]
pub use state::managed_files;
pub use state::{AgentState, load as recorded};
