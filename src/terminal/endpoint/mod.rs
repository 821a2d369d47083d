//! Where the console listens, per system: a Unix socket in the config root (`unix.rs`), or a
//! named pipe whose randomly chosen name is written in the config root (`windows.rs`). Both
//! give the listener a connection per server that asks, read and written through tokio.

#[cfg(windows)]
mod owner_only;
#[cfg(unix)]
mod unix;
#[cfg(windows)]
mod windows;

#[cfg(unix)]
pub use unix::{Connection, Endpoint};
#[cfg(windows)]
pub use windows::{Connection, Endpoint};
