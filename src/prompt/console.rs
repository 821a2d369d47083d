//! The server side of `torii console`, the human's terminal for the questions a window would
//! ask: a console attached to a config root listens on `<root>/console.sock` and wrote a fresh
//! random token to `<root>/console.token` (both owner-only). A server asks by connecting,
//! sending a hello line (the token and who asks) and the same request line a window reads,
//! and reading back the same answer line.
//!
//! ```text
//! server                                        torii console
//!   connect <root>/console.sock ─────────────────▶ accept (peer must be this user)
//!   {"token":…,"asker":…}                         token must match console.token
//!   {"protocol":2,"language":…,"request":{…}} ──▶ the question, in the terminal
//!   check(answer) ◀── {"protocol":2,"answer":{…}}
//! ```
//!
//! The token is what makes the channel the human's: provider children cannot read the config
//! root, so none can pose as a server (to show the human a question of its own making) nor
//! reach the socket at all where they run in a mount namespace. Every failure means "no", as
//! for a window.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::Question;
use super::client::{MAX_ANSWER_BYTES, PromptError, decode_answer, request_line};

/// The console's socket, in the config root.
pub const SOCKET_FILE: &str = "console.sock";
/// The console's token, in the config root.
pub const TOKEN_FILE: &str = "console.token";
/// Longest token read (it is 64 hex digits).
const MAX_TOKEN_BYTES: u64 = 256;

/// The first line a server sends: the token that proves it can read the root, and who asks.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Hello {
    pub token: String,
    /// Shown above the question: which server (and so which client) asks.
    pub asker: String,
}

/// Where the console of one config root listens.
#[derive(Debug, Clone)]
pub struct ConsoleAddress {
    socket: PathBuf,
    token: PathBuf,
}

impl ConsoleAddress {
    pub fn of_root(root: &Path) -> Self {
        Self {
            socket: root.join(SOCKET_FILE),
            token: root.join(TOKEN_FILE),
        }
    }

    pub fn socket(&self) -> &Path {
        &self.socket
    }

    pub fn token(&self) -> &Path {
        &self.token
    }

    /// Whether a console says it is attached: its socket and its token are there. One that
    /// died without removing them makes the question fail, which is a no.
    pub fn attached(&self) -> bool {
        cfg!(unix) && self.socket.exists() && self.token.is_file()
    }

    /// Asks the attached console; every error means deny (or cancel).
    #[cfg(unix)]
    pub async fn ask<Q: Question>(
        &self,
        question: &Q,
        asker: &str,
    ) -> Result<Q::Answer, PromptError> {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};

        let token = crate::files::read_optional_text(&self.token, MAX_TOKEN_BYTES)
            .ok()
            .flatten()
            .ok_or_else(|| {
                PromptError::Write(std::io::Error::other("the console's token cannot be read"))
            })?;
        let hello = Hello {
            token: token.trim().to_string(),
            asker: asker.to_string(),
        };
        let mut line = serde_json::to_vec(&hello).unwrap_or_default();
        line.push(b'\n');
        line.extend(request_line(question));
        let mut stream = tokio::net::UnixStream::connect(&self.socket)
            .await
            .map_err(PromptError::Write)?;
        stream.write_all(&line).await.map_err(PromptError::Write)?;
        // The connection stays open both ways while the human decides: the console takes its
        // end for the server having gone away (the call was cancelled).
        let mut answer = Vec::new();
        (&mut stream)
            .take(MAX_ANSWER_BYTES + 1)
            .read_to_end(&mut answer)
            .await
            .map_err(PromptError::Read)?;
        decode_answer(question, &answer)
    }

    #[cfg(not(unix))]
    pub async fn ask<Q: Question>(
        &self,
        _question: &Q,
        _asker: &str,
    ) -> Result<Q::Answer, PromptError> {
        Err(PromptError::Write(std::io::Error::other(
            "the console is not available on this system yet",
        )))
    }
}
