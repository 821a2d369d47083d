//! The MCP server over stdio: startup (settings, registry, tool list) and the protocol loop.
//!
//! Stdout carries the protocol and nothing else; every human message goes to stderr.

mod instructions;
mod server;
mod tools;

use std::sync::Arc;

use rmcp::ServiceExt;

pub use instructions::INSTRUCTIONS;
pub use server::ToriiServer;
pub use tools::{POLICY_TOOL, all_tools, call_output_schema, input_schema};

use crate::dispatch::{Dispatcher, Human};
use crate::paths::ConfigRoot;
use crate::registry::{Registry, RegistryError};
use crate::settings::{Settings, SettingsError};

/// Why the server did not start or stopped.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error(transparent)]
    Settings(#[from] SettingsError),
    #[error(transparent)]
    Registry(#[from] RegistryError),
    #[error(
        "no providers installed in {} (install one with `torii provider install`, and check `torii config-dir`)",
        .0.display()
    )]
    NoProviders(std::path::PathBuf),
    #[error("cannot start the async runtime: {0}")]
    Runtime(std::io::Error),
    #[error("MCP session failed: {0}")]
    Session(String),
}

/// Loads everything the server needs; an invalid provider stops startup here.
pub fn build(root: &ConfigRoot) -> Result<Dispatcher, ServeError> {
    let settings = Settings::load(&root.settings_file())?;
    let registry = Registry::load(root.dir())?;
    if registry.is_empty() {
        return Err(ServeError::NoProviders(root.providers_dir()));
    }
    Ok(Dispatcher::new(
        root,
        Arc::new(registry),
        settings,
        Human::from_env(),
    ))
}

/// Serves MCP on stdin/stdout until the client closes the session.
pub fn serve(root: &ConfigRoot) -> Result<(), ServeError> {
    let dispatcher = Arc::new(build(root)?);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(ServeError::Runtime)?;
    runtime.block_on(async move {
        let service = ToriiServer::new(dispatcher)
            .serve(rmcp::transport::io::stdio_pipes())
            .await
            .map_err(|error| ServeError::Session(error.to_string()))?;
        service
            .waiting()
            .await
            .map_err(|error| ServeError::Session(error.to_string()))?;
        Ok(())
    })
}
