//! The server side of `torii console`, the human's terminal for the questions a window would
//! ask: a console attached to a config root listens on `<root>/console.sock` (on Windows, a
//! named pipe whose random name it wrote to `<root>/console.pipe`) and wrote a fresh random
//! token to `<root>/console.token` (all owner-only), which it keeps locked while it runs. A
//! server asks by connecting, sending a hello line (the token and who asks) and the same
//! request line a window reads, and reading back the same answer line.
//!
//! ```text
//! server                                        torii console
//!   connect <root>/console.sock ─────────────────▶ accept (peer must be this user)
//!   {"token":…,"asker":…}                         token must match console.token
//!   {"protocol":2,"language":…,"request":{…}} ──▶ the question, in the terminal
//!   check(answer) ◀── {"protocol":2,"answer":{…}}
//!   close ───────────────────────────────────────▶ (the answer was taken)
//! ```
//!
//! The token is what makes the channel the human's: provider children cannot read the config
//! root, so none can pose as a server (to show the human a question of its own making) nor
//! reach the socket at all where they run in a mount namespace. Every failure means "no", as
//! for a window.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt};

use super::Question;
use super::client::{MAX_ANSWER_BYTES, PromptError, decode_answer, request_line};

/// The console's socket, in the config root.
pub const SOCKET_FILE: &str = "console.sock";
/// The file that names the console's pipe on Windows, in the config root.
pub const PIPE_FILE: &str = "console.pipe";
/// The console's token, in the config root.
pub const TOKEN_FILE: &str = "console.token";
/// How every console pipe's name starts (the rest is random).
pub const PIPE_PREFIX: &str = r"\\.\pipe\torii-console-";
/// Longest token or pipe name read (the token is 64 hex digits).
const MAX_NAME_BYTES: u64 = 256;

/// The first line a server sends: the token that proves it can read the root, and who asks.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Hello {
    pub token: String,
    /// Shown above the question: which client and server ask.
    pub asker: String,
}

/// Where the console of one config root listens.
#[derive(Debug, Clone)]
pub struct ConsoleAddress {
    socket: PathBuf,
    pipe: PathBuf,
    token: PathBuf,
}

impl ConsoleAddress {
    pub fn of_root(root: &Path) -> Self {
        Self {
            socket: root.join(SOCKET_FILE),
            pipe: root.join(PIPE_FILE),
            token: root.join(TOKEN_FILE),
        }
    }

    pub fn socket(&self) -> &Path {
        &self.socket
    }

    pub fn pipe(&self) -> &Path {
        &self.pipe
    }

    /// The file that says where this system's console listens: the socket, or the file that
    /// names the pipe.
    pub fn endpoint(&self) -> &Path {
        if cfg!(windows) {
            &self.pipe
        } else {
            &self.socket
        }
    }

    pub fn token(&self) -> &Path {
        &self.token
    }

    /// Whether a console runs for this root: its endpoint is there and its token is locked
    /// (a console holds a shared lock on it while it runs, and the system drops the lock
    /// when its process ends, however it ends). A lock that cannot be tested counts as a
    /// console, whose question then fails: a no.
    pub fn attached(&self) -> bool {
        if !self.endpoint().exists() {
            return false;
        }
        let Ok(token) = std::fs::File::open(&self.token) else {
            return false;
        };
        match token.try_lock() {
            // Nobody holds it: what is there was left by a console that died.
            Ok(()) => false,
            Err(_) => true,
        }
    }

    /// Asks the attached console; every error means deny (or cancel).
    pub async fn ask<Q: Question>(
        &self,
        question: &Q,
        asker: &str,
    ) -> Result<Q::Answer, PromptError> {
        let token = read_name(&self.token).ok_or_else(|| {
            PromptError::Write(std::io::Error::other("the console's token cannot be read"))
        })?;
        let hello = Hello {
            token,
            asker: asker.to_string(),
        };
        let mut line = serde_json::to_vec(&hello).unwrap_or_default();
        line.push(b'\n');
        line.extend(request_line(question));
        let mut stream = self.connect().await.map_err(PromptError::Write)?;
        stream.write_all(&line).await.map_err(PromptError::Write)?;
        // The connection stays open both ways while the human decides: the console takes its
        // end for the server having gone away (the call was cancelled). Closing it once the
        // answer line is in tells the console that the answer arrived.
        let mut answer = Vec::new();
        tokio::io::BufReader::new(&mut stream)
            .take(MAX_ANSWER_BYTES + 1)
            .read_until(b'\n', &mut answer)
            .await
            .map_err(PromptError::Read)?;
        decode_answer(question, &answer)
    }

    #[cfg(unix)]
    async fn connect(&self) -> std::io::Result<tokio::net::UnixStream> {
        tokio::net::UnixStream::connect(&self.socket).await
    }

    /// Opens the pipe named in the root. Between two servers' questions the console creates
    /// the next instance: a busy pipe is tried again for a moment.
    #[cfg(windows)]
    async fn connect(&self) -> std::io::Result<tokio::net::windows::named_pipe::NamedPipeClient> {
        use std::time::{Duration, Instant};
        const ERROR_PIPE_BUSY: i32 = 231;
        let name = read_name(&self.pipe)
            .filter(|name| name.starts_with(PIPE_PREFIX))
            .ok_or_else(|| std::io::Error::other("the console's pipe name cannot be read"))?;
        let until = Instant::now() + Duration::from_secs(2);
        loop {
            match tokio::net::windows::named_pipe::ClientOptions::new().open(&name) {
                Err(error)
                    if error.raw_os_error() == Some(ERROR_PIPE_BUSY) && Instant::now() < until =>
                {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
                opened => return opened,
            }
        }
    }
}

/// A short owner-only file's text, trimmed: the token, or the pipe's name.
fn read_name(path: &Path) -> Option<String> {
    crate::files::read_optional_text(path, MAX_NAME_BYTES)
        .ok()
        .flatten()
        .map(|text| text.trim().to_string())
}
