//! The `torii __prompt` process: read one request from stdin, show the window, write one answer
//! to stdout. On any error it writes nothing and exits non-zero, which the server takes as deny.
//!
//! It joins the two halves that do not know each other: `prompt`, the protocol the server
//! speaks (toolkit-free, linked into the server), and `gui`, the windows.
//!
//! [`write_answer`] is the only code outside the MCP server that writes to stdout, and the
//! prompt runs only as the server's child, whose stdout is a private pipe.

use std::io::{Read, Write};

use crate::files::{CappedReadError, read_capped};
use crate::prompt::wire::{AnswerLine, PROTOCOL_VERSION, RequestLine};
use crate::prompt::{Answer, Request};

/// Longest request accepted on stdin.
const MAX_REQUEST_BYTES: u64 = 4 * 1024 * 1024;

/// Why the prompt gave no answer.
#[derive(Debug, thiserror::Error)]
pub enum ChildError {
    #[error("cannot read the request from stdin")]
    Read(#[source] std::io::Error),
    #[error("the request is longer than {MAX_REQUEST_BYTES} bytes")]
    TooLarge,
    #[error("the request is not valid JSON for this protocol")]
    Malformed(#[source] serde_json::Error),
    #[error("the request speaks protocol {found}, this prompt {PROTOCOL_VERSION}")]
    Protocol { found: u32 },
    #[cfg(not(feature = "gui"))]
    #[error("this build of Torii has no windows (the `gui` feature is off)")]
    NoGui,
    #[cfg(feature = "gui")]
    #[error(transparent)]
    Gui(#[from] crate::gui::GuiError),
    #[error("cannot write the answer to stdout")]
    Write(#[source] std::io::Error),
}

/// Runs the `__prompt` subcommand: one request from stdin, the window, one answer on stdout.
pub fn serve() -> Result<(), ChildError> {
    let request = read_request(std::io::stdin().lock())?;
    let answer = show(request)?;
    write_answer(std::io::stdout().lock(), &answer)
}

#[cfg(feature = "gui")]
fn show(request: Request) -> Result<Answer, ChildError> {
    Ok(crate::gui::answer(request)?)
}

#[cfg(not(feature = "gui"))]
fn show(_request: Request) -> Result<Answer, ChildError> {
    Err(ChildError::NoGui)
}

fn read_request(input: impl Read) -> Result<Request, ChildError> {
    let bytes = read_capped(input, MAX_REQUEST_BYTES).map_err(|error| match error {
        CappedReadError::Io(error) => ChildError::Read(error),
        CappedReadError::TooLarge => ChildError::TooLarge,
    })?;
    let line: RequestLine = serde_json::from_slice(&bytes).map_err(ChildError::Malformed)?;
    if line.protocol != PROTOCOL_VERSION {
        return Err(ChildError::Protocol {
            found: line.protocol,
        });
    }
    // The window speaks the language the server chose.
    crate::language::set_for_process(line.language);
    Ok(line.request)
}

/// The one place the prompt writes to stdout: one JSON line, flushed.
fn write_answer(mut output: impl Write, answer: &Answer) -> Result<(), ChildError> {
    let line = AnswerLine {
        protocol: PROTOCOL_VERSION,
        answer: answer.clone(),
    };
    let mut bytes = serde_json::to_vec(&line)
        .map_err(|error| ChildError::Write(std::io::Error::other(error)))?;
    bytes.push(b'\n');
    output.write_all(&bytes).map_err(ChildError::Write)?;
    output.flush().map_err(ChildError::Write)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prompt::OperationAnswer;

    #[test]
    fn reads_one_request_and_refuses_other_protocols() {
        let text = r#"{"protocol":2,"language":"en","request":{"operation":{"tool":"aws","target":null,"args":["s3","ls"],"default_grant_minutes":2,"oldest_grant_remaining_secs":null}}}"#;
        let request = read_request(text.as_bytes()).unwrap();
        assert!(matches!(request, Request::Operation(ref op) if op.args == ["s3", "ls"]));
        let other = text.replace(r#""protocol":2"#, r#""protocol":1"#);
        assert!(matches!(
            read_request(other.as_bytes()),
            Err(ChildError::Protocol { found: 1 })
        ));
        assert!(matches!(
            read_request(&b"not json"[..]),
            Err(ChildError::Malformed(_))
        ));
        assert!(matches!(
            read_request(&b""[..]),
            Err(ChildError::Malformed(_))
        ));
    }

    #[test]
    fn writes_one_line() {
        let mut out = Vec::new();
        write_answer(&mut out, &Answer::Operation(OperationAnswer::Once)).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "{\"protocol\":2,\"answer\":{\"operation\":\"once\"}}\n"
        );
    }
}
