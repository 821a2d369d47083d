//! The console's named pipe. Pipe names are global on a Windows machine, so the name is drawn
//! at random and written to `<root>/console.pipe`: only a process that can read the config root
//! finds it. The first instance is created with `FILE_FLAG_FIRST_PIPE_INSTANCE` (the name cannot
//! have been taken before), every instance with a DACL that grants this user alone (no other
//! user can connect, nor create a rival instance), and remote clients are rejected.

use std::io;

use tokio::net::windows::named_pipe::{NamedPipeServer, PipeMode, ServerOptions};

use super::owner_only::OwnerOnly;
use crate::prompt::console::{ConsoleAddress, PIPE_PREFIX};

pub type Connection = NamedPipeServer;

pub struct Endpoint {
    name: String,
    security: OwnerOnly,
    /// The instance waiting for the next server: one is always there while the console runs.
    next: NamedPipeServer,
}

impl Endpoint {
    /// Creates the pipe and writes its name to `address`. Runs inside the console's runtime.
    pub fn bind(address: &ConsoleAddress) -> io::Result<Self> {
        let mut bytes = [0u8; 16];
        getrandom::fill(&mut bytes).map_err(|error| io::Error::other(error.to_string()))?;
        let random: String = bytes.iter().map(|byte| format!("{byte:02x}")).collect();
        let name = format!("{PIPE_PREFIX}{random}");
        let security = OwnerOnly::new()?;
        let next = create(&name, &security, true)?;
        crate::atomic::write(
            address.pipe(),
            name.as_bytes(),
            crate::atomic::Access::Private,
        )
        .map_err(io::Error::other)?;
        Ok(Self {
            name,
            security,
            next,
        })
    }

    /// The next connection (the DACL already kept out every other user).
    pub async fn accept(&mut self) -> io::Result<Option<Connection>> {
        self.next.connect().await?;
        let next = create(&self.name, &self.security, false)?;
        Ok(Some(std::mem::replace(&mut self.next, next)))
    }

    /// What the console leaves behind when it ends (the pipe goes with its last handle).
    pub fn remove(address: &ConsoleAddress) {
        let _ = std::fs::remove_file(address.pipe());
    }
}

fn create(name: &str, security: &OwnerOnly, first: bool) -> io::Result<NamedPipeServer> {
    let mut options = ServerOptions::new();
    options
        .first_pipe_instance(first)
        .reject_remote_clients(true)
        .pipe_mode(PipeMode::Byte);
    security.create(&options, name)
}
