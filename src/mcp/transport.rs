//! MCP over stdio, one JSON-RPC message per line, with the errors JSON-RPC 2.0 asks for.
//!
//! rmcp's own line transport drops input it cannot parse without a word, so a client waits
//! forever on that request. Here every line that is not a usable message gets an answer and
//! the server reads on:
//! - not JSON (invalid UTF-8, a syntax error, nesting past the parser's limit), or longer than
//!   [`MAX_LINE_BYTES`] (refused without being buffered whole): `-32700` with `id: null`;
//! - a `tools/call` whose `params` is not an object, whose `name` is not a string or whose
//!   `arguments` is not an object: `-32602` with the request's id (rmcp would take it for an
//!   unknown method);
//! - any other well-formed JSON that is not a message: `-32600` with its id when it has one.
//!
//! A notification (no `id`) is never answered, whatever is wrong with it.

use std::sync::Arc;

use rmcp::RoleServer;
use rmcp::model::{ErrorCode, ErrorData, RequestId};
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use serde_json::Value;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::Mutex;

/// The longest message accepted: far above any real call (the arguments of one CLI
/// invocation), far below what would strain the server.
pub const MAX_LINE_BYTES: usize = 4 * 1024 * 1024;

/// How much of a bad line's parse error is echoed back.
const MAX_ECHO_CHARS: usize = 200;

/// The server's side of stdio.
pub struct LineTransport<R, W> {
    reader: R,
    /// The line being read: kept across calls, because `receive` may be dropped half-way
    /// (rmcp polls it in a `select!`) and must go on where it stopped.
    line: Vec<u8>,
    /// The rest of an oversized line is being skipped.
    skipping: bool,
    writer: Arc<Mutex<W>>,
}

impl<R, W> LineTransport<R, W>
where
    R: AsyncBufRead + Unpin + Send,
    W: AsyncWrite + Unpin + Send + 'static,
{
    pub fn new(reader: R, writer: W) -> Self {
        Self {
            reader,
            line: Vec::new(),
            skipping: false,
            writer: Arc::new(Mutex::new(writer)),
        }
    }

    /// The next complete line, without its `\n` (or `\r\n`); `None` at the end of input.
    /// Cancellation safe: bytes taken from the reader are kept in `self.line`.
    async fn next_line(&mut self) -> Option<Result<Vec<u8>, Oversized>> {
        loop {
            let available = match self.reader.fill_buf().await {
                Ok(available) => available,
                Err(_) => return None,
            };
            if available.is_empty() {
                return None;
            }
            let (chunk, ended) = match available.iter().position(|byte| *byte == b'\n') {
                Some(end) => (&available[..end], true),
                None => (available, false),
            };
            let taken = chunk.len() + usize::from(ended);
            let was_skipping = self.skipping;
            let mut too_long = false;
            if !self.skipping {
                if self.line.len() + chunk.len() > MAX_LINE_BYTES {
                    self.line.clear();
                    self.skipping = true;
                    too_long = true;
                } else {
                    self.line.extend_from_slice(chunk);
                }
            }
            self.reader.consume(taken);
            if ended {
                self.skipping = false;
                if too_long || was_skipping {
                    if too_long {
                        return Some(Err(Oversized));
                    }
                    continue;
                }
                let mut line = std::mem::take(&mut self.line);
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                return Some(Ok(line));
            }
            if too_long {
                // Answered now, not at the end of a line that may never come.
                return Some(Err(Oversized));
            }
        }
    }

    /// Writes `message` as one line, on a task of its own so that an interrupted caller
    /// never leaves half a line on stdout.
    fn write(&self, message: TxJsonRpcMessage<RoleServer>) -> tokio::task::JoinHandle<()> {
        let writer = Arc::clone(&self.writer);
        tokio::spawn(async move {
            let Ok(mut text) = serde_json::to_vec(&message) else {
                return;
            };
            text.push(b'\n');
            let mut writer = writer.lock().await;
            if writer.write_all(&text).await.is_ok() {
                let _ = writer.flush().await;
            }
        })
    }
}

/// A line longer than [`MAX_LINE_BYTES`].
#[derive(Debug)]
struct Oversized;

/// What a line is.
enum Read {
    Message(Box<RxJsonRpcMessage<RoleServer>>),
    /// Answer this and read on.
    Answer(Box<TxJsonRpcMessage<RoleServer>>),
    /// Nothing to do (an empty line, a notification that is not a message).
    Skip,
}

fn error(code: ErrorCode, message: String, id: Option<RequestId>) -> Read {
    Read::Answer(Box::new(TxJsonRpcMessage::<RoleServer>::error(
        ErrorData::new(code, message, None),
        id,
    )))
}

fn clipped(text: &str) -> String {
    crate::text::clip(text, MAX_ECHO_CHARS)
}

/// Decodes one line.
fn decode(line: &[u8]) -> Read {
    let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return Read::Skip;
    }
    let value: Value = match std::str::from_utf8(line) {
        Err(_) => {
            return error(
                ErrorCode::PARSE_ERROR,
                "Parse error: the message is not valid UTF-8".into(),
                None,
            );
        }
        Ok(text) => match serde_json::from_str(text) {
            Ok(value) => value,
            Err(parse) => {
                return error(
                    ErrorCode::PARSE_ERROR,
                    clipped(&format!("Parse error: {parse}")),
                    None,
                );
            }
        },
    };
    let id = value
        .get("id")
        .and_then(|id| serde_json::from_value::<RequestId>(id.clone()).ok());
    let method = value
        .get("method")
        .and_then(Value::as_str)
        .map(str::to_owned);
    if let (Some(id), Some("tools/call")) = (&id, method.as_deref())
        && let Some(problem) = call_params_problem(value.get("params"))
    {
        return error(
            ErrorCode::INVALID_PARAMS,
            format!("invalid tools/call params: {problem}"),
            Some(id.clone()),
        );
    }
    match serde_json::from_value::<RxJsonRpcMessage<RoleServer>>(value) {
        Ok(message) => Read::Message(Box::new(message)),
        // A notification is never answered (a client may send ones this server does not know).
        Err(_) if id.is_none() && method.is_some() => Read::Skip,
        Err(invalid) => error(
            ErrorCode::INVALID_REQUEST,
            clipped(&format!("Invalid request: {invalid}")),
            id,
        ),
    }
}

/// What is wrong with the `params` of a `tools/call`, if anything.
fn call_params_problem(params: Option<&Value>) -> Option<&'static str> {
    let Some(Value::Object(params)) = params else {
        return Some("`params` must be an object");
    };
    match params.get("name") {
        Some(Value::String(_)) => {}
        Some(_) => return Some("`name` must be a string"),
        None => return Some("missing required field `name`"),
    }
    match params.get("arguments") {
        None | Some(Value::Object(_)) => None,
        Some(_) => Some("`arguments` must be an object"),
    }
}

impl<R, W> Transport<RoleServer> for LineTransport<R, W>
where
    R: AsyncBufRead + Unpin + Send,
    W: AsyncWrite + Unpin + Send + 'static,
{
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let written = self.write(item);
        async move { written.await.map_err(std::io::Error::other) }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            let read = match self.next_line().await? {
                Ok(line) => decode(&line),
                Err(Oversized) => error(
                    ErrorCode::PARSE_ERROR,
                    format!("Parse error: the message is longer than {MAX_LINE_BYTES} bytes"),
                    None,
                ),
            };
            match read {
                Read::Message(message) => return Some(*message),
                Read::Answer(answer) => {
                    self.write(*answer);
                }
                Read::Skip => {}
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        let mut writer = self.writer.lock().await;
        writer.flush().await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(line: &[u8]) -> Value {
        match decode(line) {
            Read::Answer(answer) => serde_json::to_value(answer).unwrap(),
            Read::Message(message) => panic!("decoded {message:?}"),
            Read::Skip => panic!("skipped"),
        }
    }

    #[test]
    fn what_is_not_json_is_a_parse_error_without_an_id() {
        let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
        for line in [b"{not json".as_slice(), b"\xff\xfe{}", deep.as_bytes()] {
            let answer = answer(line);
            assert_eq!(answer["error"]["code"], -32700, "{answer}");
            assert_eq!(answer["id"], Value::Null, "{answer}");
        }
    }

    #[test]
    fn a_malformed_tools_call_is_invalid_params_with_its_id() {
        for (params, problem) in [
            (
                r#"{"name":"x","arguments":[1]}"#,
                "`arguments` must be an object",
            ),
            (r#"{"arguments":{}}"#, "missing required field `name`"),
            (r#"{"name":7}"#, "`name` must be a string"),
            (r#"[]"#, "`params` must be an object"),
        ] {
            let line =
                format!(r#"{{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{params}}}"#);
            let answer = answer(line.as_bytes());
            assert_eq!(answer["error"]["code"], -32602, "{answer}");
            assert_eq!(answer["id"], 9, "{answer}");
            assert!(
                answer["error"]["message"]
                    .as_str()
                    .unwrap()
                    .contains(problem),
                "{answer}"
            );
        }
    }

    #[test]
    fn notifications_are_never_answered_and_blank_lines_are_skipped() {
        assert!(matches!(
            decode(br#"{"jsonrpc":"2.0","method":"notifications/whatever","params":7}"#),
            Read::Skip
        ));
        assert!(matches!(decode(b"   "), Read::Skip));
        let answer = answer(br#"{"jsonrpc":"2.0","id":"a","result":7,"method":3}"#);
        assert_eq!(answer["error"]["code"], -32600, "{answer}");
    }

    #[tokio::test]
    async fn an_oversized_line_is_refused_without_being_kept_and_reading_goes_on() {
        let mut input = vec![b'x'; MAX_LINE_BYTES + 10];
        input.extend_from_slice(
            b"\n{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n",
        );
        let (reader, mut feeder) = tokio::io::duplex(64 * 1024);
        let feeding = tokio::spawn(async move {
            feeder.write_all(&input).await.unwrap();
        });
        let mut transport =
            LineTransport::new(tokio::io::BufReader::new(reader), tokio::io::sink());
        assert!(matches!(transport.next_line().await, Some(Err(Oversized))));
        assert!(transport.line.capacity() <= MAX_LINE_BYTES + 64 * 1024);
        let line = transport.next_line().await.unwrap().unwrap();
        assert!(
            line.starts_with(b"{\"jsonrpc\""),
            "{:?}",
            String::from_utf8_lossy(&line)
        );
        feeding.await.unwrap();
    }
}
