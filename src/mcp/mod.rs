//! The MCP server over stdio: startup (settings, registry, tool list) and the protocol loop.
//!
//! Stdout carries the protocol and nothing else; every human message goes to stderr.

mod instructions;
mod server;
mod tools;
mod transport;

#[cfg(any(test, feature = "fuzzing"))]
pub(crate) use transport::{FuzzRead, fuzz_decode};

use std::sync::Arc;

use rmcp::ServiceExt;

pub use server::ToriiServer;

use crate::admin::AdminLayer;
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
    #[error(transparent)]
    Language(#[from] crate::language::LanguageError),
    #[error(
        "no providers installed in {} (install one with `torii provider install`, and check `torii config-dir`)",
        .0.display()
    )]
    NoProviders(std::path::PathBuf),
    #[error("cannot start the async runtime: {0}")]
    Runtime(std::io::Error),
    #[error(transparent)]
    Admin(#[from] crate::admin::AdminError),
    #[error("MCP session failed: {0}")]
    Session(String),
}

/// Loads everything the server needs; an invalid provider stops startup here.
pub fn build(root: &ConfigRoot) -> Result<Dispatcher, ServeError> {
    let admin = AdminLayer::of_system()?;
    // With what the administrator's layer locks.
    let settings = Settings::load(&root.settings_file())?;
    // The windows speak it; everything the agent reads stays English.
    crate::language::set_for_process(crate::language::choose(settings.language)?);
    let registry = Registry::load(root.dir())?;
    if registry.is_empty() {
        return Err(ServeError::NoProviders(root.providers_dir()));
    }
    let human = Human::from_env(root.dir(), settings.approval);
    let mut denies = crate::dispatch::AdminDenies::default();
    if let Some(admin) = &admin {
        for provider in registry.iter() {
            if let Some(policy) = admin.policy_of(provider)? {
                denies.insert(provider.tool(), policy, admin.dir.clone());
            }
        }
    }
    Ok(Dispatcher::new(root, Arc::new(registry), settings, human).with_admin(denies))
}

/// Serves MCP on stdin/stdout until the client closes the session. When startup fails, the
/// client's first request is answered with the reason before the error is returned (an agent
/// UI shows that; most do not show the server's stderr).
pub fn serve(root: &ConfigRoot) -> Result<(), ServeError> {
    let built = build(root);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(ServeError::Runtime)?;
    let served = match built {
        Ok(dispatcher) => runtime.block_on(session(Arc::new(dispatcher))),
        Err(error) => {
            let reason =
                crate::dispatch::relative_to_root(&crate::errors::chain(&error), root.configured());
            runtime.block_on(refuse_session(&reason));
            Err(error)
        }
    };
    // Stdin may still be open (a client that stopped the server with a signal): a read of it
    // blocked on a thread of the runtime must not keep the process alive.
    runtime.shutdown_background();
    served
}

/// Stdin and stdout through rmcp's pipe driver: when they are pipes (as MCP clients start
/// servers) they are read on the reactor instead of a blocking thread.
fn stdio() -> transport::LineTransport<tokio::io::BufReader<rmcp::transport::io::StdioReader>> {
    let (reader, writer) = rmcp::transport::io::stdio_pipes();
    transport::LineTransport::new(tokio::io::BufReader::new(reader), writer)
}

async fn session(dispatcher: Arc<Dispatcher>) -> Result<(), ServeError> {
    let server = ToriiServer::new(Arc::clone(&dispatcher));
    let service = server
        .serve(stdio())
        .await
        .map_err(|error| ServeError::Session(error.to_string()))?;
    // A client that stops the server with a signal ends the session like one that closes
    // stdin: every call still running is cancelled, which kills its children.
    let token = service.cancellation_token();
    let signalled = tokio::spawn(async move {
        stop_signal().await;
        token.cancel();
    });
    let ended = service.waiting().await;
    signalled.abort();
    settle(&dispatcher).await;
    // The session's last records to the organisation's log pipeline, before the process ends.
    let exported = Arc::clone(&dispatcher);
    let _ = tokio::task::spawn_blocking(move || {
        exported
            .audit()
            .finish_export(crate::audit::export::FINISH_WAIT)
    })
    .await;
    ended.map_err(|error| ServeError::Session(error.to_string()))?;
    Ok(())
}

/// Answers the first request (`initialize`, or a stateless client's first call) with a
/// JSON-RPC error carrying `reason`, then ends.
async fn refuse_session(reason: &str) {
    use rmcp::model::{ErrorData, JsonRpcMessage};
    use rmcp::transport::Transport;
    let mut transport = stdio();
    while let Some(message) = Transport::<rmcp::RoleServer>::receive(&mut transport).await {
        if let JsonRpcMessage::Request(request) = message {
            let error = ErrorData::internal_error(format!("torii cannot start: {reason}"), None);
            let _ = Transport::<rmcp::RoleServer>::send(
                &mut transport,
                JsonRpcMessage::error(error, Some(request.id)),
            )
            .await;
            break;
        }
    }
    let _ = Transport::<rmcp::RoleServer>::close(&mut transport).await;
}

/// How long the server waits, once the session ended, for its cancelled calls to finish
/// stopping (killing their process groups, writing their `cancelled` audit line).
const SETTLE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(3);

/// Waits until no call holds the dispatcher any more (each running call holds a clone of the
/// server, hence of `dispatcher`), or [`SETTLE_TIMEOUT`]. Whatever is left then is dropped
/// with the runtime, which kills its process group all the same.
async fn settle(dispatcher: &Arc<Dispatcher>) {
    let waited = std::time::Instant::now();
    while Arc::strong_count(dispatcher) > 1 && waited.elapsed() < SETTLE_TIMEOUT {
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
}

/// SIGTERM, SIGINT or SIGHUP (how MCP clients stop a server besides closing stdin). A signal
/// that cannot be listened to is simply not waited for.
#[cfg(unix)]
async fn stop_signal() {
    use tokio::signal::unix::{SignalKind, signal};
    async fn received(kind: SignalKind) {
        match signal(kind) {
            Ok(mut stream) => {
                stream.recv().await;
            }
            Err(_) => std::future::pending().await,
        }
    }
    tokio::select! {
        () = received(SignalKind::terminate()) => {}
        () = received(SignalKind::interrupt()) => {}
        () = received(SignalKind::hangup()) => {}
    }
}

#[cfg(not(unix))]
async fn stop_signal() {
    let _ = tokio::signal::ctrl_c().await;
}
