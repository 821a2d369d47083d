//! The console's side of the socket: bound in the config root for this user only, with a fresh
//! token that only a process able to read the root can present; one question per connection.

use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::prompt::console::{ConsoleAddress, Hello};
use crate::prompt::wire::{AnswerLine, PROTOCOL_VERSION, RequestLine};
use crate::prompt::{Answer, Request};

/// How long the console waits for keys or a connection before looking at the other.
pub const POLL: Duration = Duration::from_millis(100);
/// How long a connected server has to send its two lines.
const READ_DEADLINE: Duration = Duration::from_secs(5);
/// Longest hello line and request line read.
const MAX_HELLO_BYTES: u64 = 4 * 1024;
const MAX_REQUEST_BYTES: u64 = 4 * 1024 * 1024;

/// Why the console could not run.
#[derive(Debug, thiserror::Error)]
pub enum ConsoleError {
    #[error("{}", crate::tr!("console-no-root", root = .0.display().to_string()))]
    NoRoot(PathBuf),
    #[error("{}", crate::tr!("console-already-attached", root = .0.display().to_string()))]
    AlreadyAttached(PathBuf),
    #[error("{}", crate::tr!("console-cannot-listen", path = .path.display().to_string()))]
    Bind {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}", crate::tr!("console-cannot-write-token", path = .path.display().to_string()))]
    Token {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}", crate::tr!("console-no-terminal"))]
    Terminal(#[source] std::io::Error),
}

/// The listening socket and its token, removed when the console ends.
pub struct Listener {
    root: PathBuf,
    address: ConsoleAddress,
    socket: UnixListener,
    token: String,
}

impl Listener {
    /// Listens for the servers of `root`. Refuses when another console answers there; a socket
    /// left by one that died is replaced.
    pub fn bind(root: &Path) -> Result<Self, ConsoleError> {
        if !root.is_dir() {
            return Err(ConsoleError::NoRoot(root.to_path_buf()));
        }
        let address = ConsoleAddress::of_root(root);
        if UnixStream::connect(address.socket()).is_ok() {
            return Err(ConsoleError::AlreadyAttached(root.to_path_buf()));
        }
        let bind_error = |source| ConsoleError::Bind {
            path: address.socket().to_path_buf(),
            source,
        };
        match std::fs::remove_file(address.socket()) {
            Err(error) if error.kind() != std::io::ErrorKind::NotFound => {
                return Err(bind_error(error));
            }
            _ => {}
        }
        // The token first: a server takes the socket's presence for a console ready to answer.
        let mut bytes = [0u8; 32];
        let token_error = |source| ConsoleError::Token {
            path: address.token().to_path_buf(),
            source,
        };
        getrandom::fill(&mut bytes)
            .map_err(|error| token_error(std::io::Error::other(error.to_string())))?;
        let token: String = bytes.iter().map(|byte| format!("{byte:02x}")).collect();
        crate::atomic::write(
            address.token(),
            token.as_bytes(),
            crate::atomic::Access::Private,
        )
        .map_err(|error| token_error(std::io::Error::other(error)))?;
        let listening = UnixListener::bind(address.socket()).and_then(|socket| {
            set_owner_only(address.socket())?;
            socket.set_nonblocking(true)?;
            Ok(socket)
        });
        let socket = match listening {
            Ok(socket) => socket,
            Err(error) => {
                let _ = std::fs::remove_file(address.token());
                return Err(bind_error(error));
            }
        };
        Ok(Self {
            root: root.to_path_buf(),
            address,
            socket,
            token,
        })
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The next question waiting, if a server of this root asked one. A connection that is not
    /// this user's, has the wrong token or does not send a question in time is closed unanswered.
    pub fn next_question(&self) -> Option<Question> {
        let (stream, _) = self.socket.accept().ok()?;
        let peer = rustix::net::sockopt::socket_peercred(&stream).ok()?;
        if peer.uid != rustix::process::geteuid() {
            return None;
        }
        stream.set_nonblocking(false).ok()?;
        stream.set_read_timeout(Some(READ_DEADLINE)).ok()?;
        let mut reader = BufReader::new(stream.try_clone().ok()?);
        let hello: Hello =
            serde_json::from_slice(&read_line(&mut reader, MAX_HELLO_BYTES)?).ok()?;
        if !same(hello.token.as_bytes(), self.token.as_bytes()) {
            return None;
        }
        let line: RequestLine =
            serde_json::from_slice(&read_line(&mut reader, MAX_REQUEST_BYTES)?).ok()?;
        if line.protocol != PROTOCOL_VERSION {
            return None;
        }
        // The question is asked in the language its server speaks to the human.
        crate::language::set_for_process(line.language);
        Some(Question {
            stream,
            // A server of this root wrote it, from what its client said: shown, never obeyed.
            asker: crate::dialog::pills::visible(&hello.asker),
            request: line.request,
        })
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(self.address.socket());
        let _ = std::fs::remove_file(self.address.token());
    }
}

/// One question from one server, answered over its connection.
pub struct Question {
    stream: UnixStream,
    pub asker: String,
    pub request: Request,
}

/// How a question ended.
pub enum Outcome {
    Answered,
    /// Its server went away (the call was cancelled or the server ended).
    Gone,
    /// The human left the console: the question was denied first.
    Quit,
}

impl Question {
    /// Whether the server that asked has gone away: it never writes after its question, so
    /// anything readable now is the end of the connection.
    pub fn gone(&self) -> bool {
        let _ = self.stream.set_nonblocking(true);
        let mut byte = [0u8; 1];
        let gone = !matches!(
            (&self.stream).read(&mut byte),
            Err(error) if error.kind() == std::io::ErrorKind::WouldBlock
        );
        let _ = self.stream.set_nonblocking(false);
        gone
    }

    /// Sends `answer`. A server that went away meanwhile gets nothing, which it never reads.
    pub fn send(mut self, answer: Answer) {
        let line = AnswerLine {
            protocol: PROTOCOL_VERSION,
            answer,
        };
        if let Ok(mut bytes) = serde_json::to_vec(&line) {
            bytes.push(b'\n');
            let _ = self.stream.write_all(&bytes);
        }
    }
}

/// One line of at most `limit` bytes, without its newline; `None` when it is longer, cut
/// short or late.
fn read_line(reader: &mut impl BufRead, limit: u64) -> Option<Vec<u8>> {
    let mut line = Vec::new();
    reader.take(limit + 1).read_until(b'\n', &mut line).ok()?;
    if line.pop() != Some(b'\n') {
        return None;
    }
    Some(line)
}

/// Compares two tokens in a time that does not depend on where they differ.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

fn set_owner_only(path: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))
}
