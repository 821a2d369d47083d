//! The console's socket: `<root>/console.sock`, owner-only, and every peer checked to be this
//! user (the root's permissions already say so; the check holds when they are loosened).

use std::io;

use tokio::net::{UnixListener, UnixStream};

use crate::prompt::console::ConsoleAddress;

pub type Connection = UnixStream;

pub struct Endpoint {
    listener: UnixListener,
}

impl Endpoint {
    /// Listens at `address`, replacing a socket that a console which died left there. Runs
    /// inside the console's runtime.
    pub fn bind(address: &ConsoleAddress) -> io::Result<Self> {
        match std::fs::remove_file(address.socket()) {
            Err(error) if error.kind() != io::ErrorKind::NotFound => return Err(error),
            _ => {}
        }
        let listener = UnixListener::bind(address.socket())?;
        set_owner_only(address.socket())?;
        Ok(Self { listener })
    }

    /// The next connection; `None` when it comes from another user.
    pub async fn accept(&mut self) -> io::Result<Option<Connection>> {
        let (stream, _) = self.listener.accept().await?;
        let peer = stream.peer_cred()?;
        Ok((peer.uid() == rustix::process::geteuid().as_raw()).then_some(stream))
    }

    /// What the console leaves behind when it ends.
    pub fn remove(address: &ConsoleAddress) {
        let _ = std::fs::remove_file(address.socket());
    }
}

fn set_owner_only(path: &std::path::Path) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))
}
