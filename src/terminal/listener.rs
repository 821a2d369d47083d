//! The console's side of the channel: an endpoint in the config root for this user only (see
//! `endpoint/`), a fresh token that only a process able to read the root can present, and a
//! lock on that token held while the console runs, by which servers tell a live console from
//! one that died; one question per connection.

use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::Duration;

use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::runtime::Runtime;

use super::endpoint::{Connection, Endpoint};
use crate::prompt::console::{ConsoleAddress, Hello};
use crate::prompt::wire::{AnswerLine, PROTOCOL_VERSION, RequestLine};
use crate::prompt::{Answer, Request};

/// How long the console waits for a connection before it looks at the keys again.
pub const POLL: Duration = Duration::from_millis(100);
/// How long a connected server has to send its two lines. A server writes both at once; a
/// connection that sends nothing (another process of this user) holds the console no longer.
const READ_DEADLINE: Duration = Duration::from_secs(1);
/// How long an answer may take to reach its server, and the server to take it.
const SEND_DEADLINE: Duration = Duration::from_secs(5);
/// How long the console lets its runtime take in what happened on a connection.
const GLANCE: Duration = Duration::from_millis(1);
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

/// The endpoint, its token and the token's lock, removed when the console ends.
pub struct Listener {
    root: PathBuf,
    address: ConsoleAddress,
    runtime: Rc<Runtime>,
    endpoint: Endpoint,
    token: String,
    /// Open with a shared lock while the console runs (see [`ConsoleAddress::attached`]).
    _alive: std::fs::File,
}

impl Listener {
    /// Listens for the servers of `root`. Refuses when another console runs there; what one
    /// that died left is replaced.
    pub fn bind(root: &Path) -> Result<Self, ConsoleError> {
        if !root.is_dir() {
            return Err(ConsoleError::NoRoot(root.to_path_buf()));
        }
        let address = ConsoleAddress::of_root(root);
        if address.attached() {
            return Err(ConsoleError::AlreadyAttached(root.to_path_buf()));
        }
        let bind_error = |source| ConsoleError::Bind {
            path: address.endpoint().to_path_buf(),
            source,
        };
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(bind_error)?;
        // The token and its lock first: a server takes the endpoint's presence for a console
        // ready to answer.
        let (token, alive) = write_token(&address).map_err(|source| ConsoleError::Token {
            path: address.token().to_path_buf(),
            source,
        })?;
        let endpoint = {
            let _context = runtime.enter();
            Endpoint::bind(&address)
        };
        let endpoint = match endpoint {
            Ok(endpoint) => endpoint,
            Err(error) => {
                let _ = std::fs::remove_file(address.token());
                return Err(bind_error(error));
            }
        };
        Ok(Self {
            root: root.to_path_buf(),
            address,
            runtime: Rc::new(runtime),
            endpoint,
            token,
            _alive: alive,
        })
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The next question, if a server of this root asks one within [`POLL`]. A connection
    /// that is not this user's, has the wrong token or does not send a question in time is
    /// closed unanswered.
    pub fn next_question(&mut self) -> Option<Question> {
        let runtime = Rc::clone(&self.runtime);
        let (stream, hello, line) = runtime.block_on(async {
            let stream = tokio::time::timeout(POLL, self.endpoint.accept())
                .await
                .ok()?
                .ok()??;
            tokio::time::timeout(READ_DEADLINE, self.read_question(stream))
                .await
                .ok()?
        })?;
        // The question is asked in the language its server speaks to the human.
        crate::language::set_for_process(line.language);
        Some(Question {
            stream,
            runtime,
            // A server of this root wrote it, from what its client said: shown, never obeyed.
            asker: crate::dialog::pills::visible(&hello.asker),
            request: line.request,
        })
    }

    /// The hello (with this console's token) and the request line of one connection.
    async fn read_question(&self, stream: Connection) -> Option<(Connection, Hello, RequestLine)> {
        let mut reader = BufReader::new(stream);
        let hello: Hello =
            serde_json::from_slice(&read_line(&mut reader, MAX_HELLO_BYTES).await?).ok()?;
        if !same(hello.token.as_bytes(), self.token.as_bytes()) {
            return None;
        }
        let line: RequestLine =
            serde_json::from_slice(&read_line(&mut reader, MAX_REQUEST_BYTES).await?).ok()?;
        if line.protocol != PROTOCOL_VERSION {
            return None;
        }
        // The server writes nothing after its question: nothing is left in the buffer.
        Some((reader.into_inner(), hello, line))
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        Endpoint::remove(&self.address);
        let _ = std::fs::remove_file(self.address.token());
    }
}

/// Writes a fresh token and takes the shared lock that says a console runs here.
fn write_token(address: &ConsoleAddress) -> std::io::Result<(String, std::fs::File)> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|error| std::io::Error::other(error.to_string()))?;
    let token: String = bytes.iter().map(|byte| format!("{byte:02x}")).collect();
    crate::atomic::write(
        address.token(),
        token.as_bytes(),
        crate::atomic::Access::Private,
    )
    .map_err(std::io::Error::other)?;
    let alive = std::fs::File::open(address.token())?;
    alive.lock_shared()?;
    Ok((token, alive))
}

/// One question from one server, answered over its connection.
pub struct Question {
    stream: Connection,
    runtime: Rc<Runtime>,
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
        self.runtime.block_on(async {
            match tokio::time::timeout(GLANCE, self.stream.readable()).await {
                Err(_quiet) => false,
                Ok(Err(_)) => true,
                Ok(Ok(())) => !matches!(
                    self.stream.try_read(&mut [0u8; 1]),
                    Err(error) if error.kind() == std::io::ErrorKind::WouldBlock
                ),
            }
        })
    }

    /// Sends `answer`, then waits (briefly) for the server to close its end: a pipe's unread
    /// data would be lost if the console closed first. A server that went away meanwhile
    /// gets nothing, which it never reads.
    pub fn send(mut self, answer: Answer) {
        let line = AnswerLine {
            protocol: PROTOCOL_VERSION,
            answer,
        };
        let Ok(mut bytes) = serde_json::to_vec(&line) else {
            return;
        };
        bytes.push(b'\n');
        let runtime = Rc::clone(&self.runtime);
        runtime.block_on(async {
            let _ = tokio::time::timeout(SEND_DEADLINE, async {
                self.stream.write_all(&bytes).await?;
                self.stream.flush().await?;
                self.stream.read(&mut [0u8; 1]).await
            })
            .await;
        });
    }
}

/// One line of at most `limit` bytes, without its newline; `None` when it is longer or cut
/// short.
async fn read_line(reader: &mut (impl AsyncBufRead + Unpin), limit: u64) -> Option<Vec<u8>> {
    let mut line = Vec::new();
    reader
        .take(limit + 1)
        .read_until(b'\n', &mut line)
        .await
        .ok()?;
    if line.pop() != Some(b'\n') {
        return None;
    }
    Some(line)
}

/// Compares two tokens in a time that does not depend on where they differ.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_running_console_is_attached_and_one_that_ended_or_died_is_not() {
        let root = tempfile::tempdir().unwrap();
        let address = ConsoleAddress::of_root(root.path());
        assert!(!address.attached());
        let listener = Listener::bind(root.path()).unwrap();
        assert!(address.attached());
        assert!(matches!(
            Listener::bind(root.path()),
            Err(ConsoleError::AlreadyAttached(_))
        ));
        drop(listener);
        assert!(!address.attached());
        assert!(!address.endpoint().exists() && !address.token().exists());

        // What a killed console leaves: its files, without the lock.
        std::fs::write(address.endpoint(), "").unwrap();
        std::fs::write(address.token(), "00").unwrap();
        assert!(!address.attached());
        let listener = Listener::bind(root.path()).unwrap();
        assert!(address.attached());
        assert_ne!(std::fs::read_to_string(address.token()).unwrap(), "00");
        drop(listener);
    }

    fn lease() -> crate::prompt::LeaseRequest {
        crate::prompt::LeaseRequest {
            tool: "kubectl".into(),
            alias: "prod".into(),
            binding: "context prod".into(),
            active_aliases: vec![],
            default_minutes: 15,
        }
    }

    /// Waits for a question, within a bound.
    fn question(listener: &mut Listener) -> Question {
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(question) = listener.next_question() {
                return question;
            }
            assert!(std::time::Instant::now() < deadline, "no question came");
        }
    }

    /// A server of `root` asking `lease()` on a thread of its own, as `asker`, for at most
    /// `patience` (the call is cancelled after it): its answer, or `None` when cancelled.
    fn server_asking(
        root: &Path,
        asker: &'static str,
        patience: Duration,
    ) -> std::thread::JoinHandle<Option<Result<crate::prompt::LeaseAnswer, String>>> {
        let address = ConsoleAddress::of_root(root);
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async {
                tokio::time::timeout(patience, address.ask(&lease(), asker))
                    .await
                    .ok()
                    .map(|answer| answer.map_err(|error| error.to_string()))
            })
        })
    }

    #[test]
    fn a_server_asks_and_gets_the_answer_the_console_sends() {
        use crate::prompt::LeaseAnswer;
        let root = tempfile::tempdir().unwrap();
        let mut listener = Listener::bind(root.path()).unwrap();
        let server = server_asking(
            root.path(),
            "client\u{1b}[2J (torii server)",
            Duration::from_secs(30),
        );
        let question = question(&mut listener);
        assert_eq!(question.request, Request::TargetLease(lease()));
        assert_eq!(question.asker, "client\\u{1b}[2J (torii server)");
        assert!(!question.gone());
        question.send(Answer::TargetLease(LeaseAnswer::Add { minutes: 5 }));
        let answer = server.join().unwrap().unwrap().unwrap();
        assert_eq!(answer, LeaseAnswer::Add { minutes: 5 });
    }

    #[test]
    fn a_question_whose_server_left_is_gone() {
        let root = tempfile::tempdir().unwrap();
        let mut listener = Listener::bind(root.path()).unwrap();
        // The call is cancelled while the human decides: its future is dropped.
        let server = server_asking(root.path(), "x", Duration::from_millis(300));
        let question = question(&mut listener);
        assert!(
            server.join().unwrap().is_none(),
            "the server waited for the human"
        );
        assert!(question.gone());
    }

    #[test]
    #[cfg(unix)]
    fn a_connection_without_the_token_asks_nothing() {
        let root = tempfile::tempdir().unwrap();
        let mut listener = Listener::bind(root.path()).unwrap();
        let address = ConsoleAddress::of_root(root.path());
        {
            use std::io::Write;
            // A well-formed question, with a token that is not the console's.
            let mut stream = std::os::unix::net::UnixStream::connect(address.socket()).unwrap();
            let hello = serde_json::json!({"token": "0".repeat(64), "asker": "x"});
            let line = RequestLine {
                protocol: PROTOCOL_VERSION,
                language: crate::language::Language::English,
                request: Request::TargetLease(lease()),
            };
            writeln!(stream, "{hello}").unwrap();
            writeln!(stream, "{}", serde_json::to_string(&line).unwrap()).unwrap();
            assert!(listener.next_question().is_none());
            // The same with the token is asked.
            let mut stream = std::os::unix::net::UnixStream::connect(address.socket()).unwrap();
            let token = std::fs::read_to_string(address.token()).unwrap();
            let hello = serde_json::json!({"token": token, "asker": "x"});
            writeln!(stream, "{hello}").unwrap();
            writeln!(stream, "{}", serde_json::to_string(&line).unwrap()).unwrap();
            assert!(question(&mut listener).request == Request::TargetLease(lease()));
        }
        assert!(listener.next_question().is_none(), "nothing else asked");
    }
}
