//! The server side: run `torii __prompt`, send the request, read and check the answer.
//!
//! The child is started without a shell, by absolute path, with private pipes for stdin and
//! stdout and a null stderr. It is killed if the waiting call is dropped (the MCP request was
//! cancelled), so no orphan window outlives the question it was asked.

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::{ExitStatus, Stdio};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::process::Command;

use super::SUBCOMMAND;
use super::availability::{Availability, availability};
use super::wire::{AnswerLine, PROTOCOL_VERSION, RequestLine};
use super::{InvalidAnswer, Question};

/// Longest answer line read from the prompt (a form may carry a certificate or two).
pub const MAX_ANSWER_BYTES: u64 = 1024 * 1024;

/// Why no answer came back. Every variant means deny (or cancel) to the caller.
#[derive(Debug, thiserror::Error)]
pub enum PromptError {
    #[error("no window can be opened: {}", .0.unavailable_reason().unwrap_or("unknown reason"))]
    Unavailable(Availability),
    #[error("cannot find the torii executable to open a window")]
    CurrentExe(#[source] std::io::Error),
    #[error("cannot start the prompt {}", program.display())]
    Spawn {
        program: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot send the request to the prompt")]
    Write(#[source] std::io::Error),
    #[error("cannot read the prompt's answer")]
    Read(#[source] std::io::Error),
    #[error("the prompt's answer is longer than {MAX_ANSWER_BYTES} bytes")]
    TooLarge,
    #[error("the prompt ended without an answer ({0})")]
    NoAnswer(ExitStatus),
    #[error("the prompt's answer is not valid JSON for this protocol")]
    Malformed(#[source] serde_json::Error),
    #[error("the prompt speaks protocol {found}, this server {PROTOCOL_VERSION}")]
    Protocol { found: u32 },
    #[error(transparent)]
    Invalid(#[from] InvalidAnswer),
}

/// Asks the human through a window, if one may open (see [`availability`]); every error means
/// deny (or cancel).
pub async fn ask<Q: Question>(question: &Q) -> Result<Q::Answer, PromptError> {
    match availability() {
        Availability::Window => Prompter::current_exe()?.ask(question).await,
        unavailable => Err(PromptError::Unavailable(unavailable)),
    }
}

/// How to start the prompt: normally this very executable; tests point it at the built binary.
#[derive(Debug, Clone)]
pub struct Prompter {
    program: PathBuf,
    env: Vec<(OsString, OsString)>,
}

impl Prompter {
    /// The running executable, which has the `__prompt` subcommand.
    pub fn current_exe() -> Result<Self, PromptError> {
        let program = std::env::current_exe().map_err(PromptError::CurrentExe)?;
        Ok(Self::with_program(program))
    }

    /// Another `torii` executable (tests run the freshly built binary).
    pub fn with_program(program: impl Into<PathBuf>) -> Self {
        Self {
            program: program.into(),
            env: Vec::new(),
        }
    }

    /// One more variable for the prompt's environment, on top of the inherited one.
    pub fn env(mut self, name: impl Into<OsString>, value: impl Into<OsString>) -> Self {
        self.env.push((name.into(), value.into()));
        self
    }

    /// Runs the prompt for `question` and waits for the human. Does not consult
    /// [`availability`]: [`ask`] does.
    pub async fn ask<Q: Question>(&self, question: &Q) -> Result<Q::Answer, PromptError> {
        let line = request_line(question);
        let bytes = self.exchange(&line).await?;
        decode_answer(question, &bytes)
    }

    /// Writes `line`, closes stdin, reads stdout to the end and waits for a successful exit.
    async fn exchange(&self, line: &[u8]) -> Result<Vec<u8>, PromptError> {
        let mut child = Command::new(&self.program)
            .arg(SUBCOMMAND)
            .envs(self.env.iter().map(|(name, value)| (name, value)))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .map_err(|source| PromptError::Spawn {
                program: self.program.clone(),
                source,
            })?;
        let (Some(mut stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(PromptError::Write(std::io::Error::other(
                "the prompt's pipes were not created",
            )));
        };
        stdin.write_all(line).await.map_err(PromptError::Write)?;
        stdin.shutdown().await.map_err(PromptError::Write)?;
        drop(stdin);

        let mut answer = Vec::new();
        stdout
            .take(MAX_ANSWER_BYTES + 1)
            .read_to_end(&mut answer)
            .await
            .map_err(PromptError::Read)?;
        if answer.len() as u64 > MAX_ANSWER_BYTES {
            return Err(PromptError::TooLarge);
        }
        let status = child.wait().await.map_err(PromptError::Read)?;
        if !status.success() || answer.is_empty() {
            return Err(PromptError::NoAnswer(status));
        }
        Ok(answer)
    }
}

/// The answer line `bytes`, of this protocol and within `question`. Empty or too long is no
/// answer.
pub(super) fn decode_answer<Q: Question>(
    question: &Q,
    bytes: &[u8],
) -> Result<Q::Answer, PromptError> {
    if bytes.len() as u64 > MAX_ANSWER_BYTES {
        return Err(PromptError::TooLarge);
    }
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(PromptError::Read(std::io::Error::other(
            "no answer came back",
        )));
    }
    let answer: AnswerLine = serde_json::from_slice(bytes).map_err(PromptError::Malformed)?;
    if answer.protocol != PROTOCOL_VERSION {
        return Err(PromptError::Protocol {
            found: answer.protocol,
        });
    }
    Ok(question.check(answer.answer)?)
}

pub(super) fn request_line<Q: Question>(question: &Q) -> Vec<u8> {
    let line = RequestLine {
        protocol: PROTOCOL_VERSION,
        language: crate::language::current(),
        request: question.request(),
    };
    // Serializing plain strings, numbers and maps with string keys cannot fail; should it
    // ever, the prompt reads an empty request, refuses it, and the caller denies.
    let mut bytes = serde_json::to_vec(&line).unwrap_or_default();
    bytes.push(b'\n');
    bytes
}
