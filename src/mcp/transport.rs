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

use rmcp::RoleServer;
use rmcp::model::{ErrorCode, ErrorData, RequestId};
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use serde_json::Value;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::{mpsc, oneshot};

/// The longest message accepted: far above any real call (the arguments of one CLI
/// invocation), far below what would strain the server.
pub const MAX_LINE_BYTES: usize = 4 * 1024 * 1024;

/// How much of a bad line's parse error is echoed back.
const MAX_ECHO_CHARS: usize = 200;

/// The server's side of stdio.
pub struct LineTransport<R> {
    reader: R,
    /// The line being read: kept across calls, because `receive` may be dropped half-way
    /// (rmcp polls it in a `select!`) and must go on where it stopped.
    line: Vec<u8>,
    /// The rest of an oversized line is being skipped.
    skipping: bool,
    /// Input ended; a last line without `\n` has been handed out.
    ended: bool,
    /// Lines to write, in the order [`Transport::send`] was called: one task writes them, so
    /// a progress notification queued before a response is never written after it.
    lines: mpsc::UnboundedSender<Queued>,
    /// The answer to the last unusable line, until it is written: reading waits for it, so a
    /// client that sends garbage and never reads cannot make the server queue answers without
    /// end.
    answering: Option<oneshot::Receiver<std::io::Result<()>>>,
}

/// A line for the writer task, and who waits for it to be written.
struct Queued {
    bytes: Vec<u8>,
    written: oneshot::Sender<std::io::Result<()>>,
}

/// Writes queued lines to `writer`, each followed by a flush, until every sender is gone.
async fn write_lines<W: AsyncWrite + Unpin>(
    mut writer: W,
    mut lines: mpsc::UnboundedReceiver<Queued>,
) {
    while let Some(Queued { bytes, written }) = lines.recv().await {
        let result = async {
            writer.write_all(&bytes).await?;
            writer.flush().await
        }
        .await;
        let _ = written.send(result);
    }
}

impl<R> LineTransport<R>
where
    R: AsyncBufRead + Unpin + Send,
{
    /// Reads from `reader`; writes to `writer` on a task of its own (call from a runtime).
    pub fn new<W: AsyncWrite + Unpin + Send + 'static>(reader: R, writer: W) -> Self {
        let (lines, queue) = mpsc::unbounded_channel();
        tokio::spawn(write_lines(writer, queue));
        Self {
            reader,
            line: Vec::new(),
            skipping: false,
            ended: false,
            lines,
            answering: None,
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
                // A last message without its `\n` is still a message.
                if self.ended || self.skipping || self.line.is_empty() {
                    self.ended = true;
                    return None;
                }
                self.ended = true;
                return Some(Ok(std::mem::take(&mut self.line)));
            }
            let (chunk, has_newline) = match available.iter().position(|byte| *byte == b'\n') {
                Some(end) => (&available[..end], true),
                None => (available, false),
            };
            let taken = chunk.len() + usize::from(has_newline);
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
            if has_newline {
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

    /// Queues `message` as one line; the receiver says when it was written.
    fn queue(&self, message: &impl serde::Serialize) -> oneshot::Receiver<std::io::Result<()>> {
        let (written, receiver) = oneshot::channel();
        match serde_json::to_vec(message) {
            Ok(mut bytes) => {
                bytes.push(b'\n');
                // The writer task ends only when this transport is dropped.
                let _ = self.lines.send(Queued { bytes, written });
            }
            Err(error) => {
                let _ = written.send(Err(std::io::Error::other(error)));
            }
        }
        receiver
    }
}

/// A line longer than [`MAX_LINE_BYTES`].
#[derive(Debug)]
struct Oversized;

/// What a line is.
enum Read {
    Message(Box<RxJsonRpcMessage<RoleServer>>),
    /// Answer this error and read on.
    Answer(Value),
    /// Nothing to do (an empty line, a notification that is not a message).
    Skip,
}

/// An error answer. Without an id it carries `"id": null`, as JSON-RPC 2.0 requires of an
/// answer to a request whose id could not be read (rmcp's message type leaves the member out).
fn error(code: ErrorCode, message: String, id: Option<RequestId>) -> Read {
    Read::Answer(serde_json::json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": ErrorData::new(code, message, None),
    }))
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
    let Ok(text) = std::str::from_utf8(line) else {
        return error(
            ErrorCode::PARSE_ERROR,
            "Parse error: the message is not valid UTF-8".into(),
            None,
        );
    };
    let value: Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(parse) => {
            return error(
                ErrorCode::PARSE_ERROR,
                clipped(&format!("Parse error: {parse}")),
                None,
            );
        }
    };
    let id = value
        .get("id")
        .and_then(|id| serde_json::from_value::<RequestId>(id.clone()).ok());
    // An id that is there but unusable (null, a fraction, past 64 bits, an object) still
    // marks a request, which must be answered.
    if value.get("id").is_some() && id.is_none() {
        return error(
            ErrorCode::INVALID_REQUEST,
            "Invalid request: `id` must be a string or an integer".into(),
            None,
        );
    }
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
    decode_message(value, id, method.is_some())
}

/// What [`decode`] made of a line, for the fuzz target.
#[cfg(any(test, feature = "fuzzing"))]
pub(crate) enum FuzzRead {
    /// The error answered.
    Answer(Value),
    /// A `tools/call` request rmcp accepted, with its `arguments` (what the dispatcher checks).
    Call(Option<serde_json::Map<String, Value>>),
    /// Another message, or nothing.
    Other,
}

#[cfg(any(test, feature = "fuzzing"))]
pub(crate) fn fuzz_decode(line: &[u8]) -> FuzzRead {
    match decode(line) {
        Read::Answer(answer) => FuzzRead::Answer(answer),
        Read::Skip => FuzzRead::Other,
        Read::Message(message) => match *message {
            rmcp::model::JsonRpcMessage::Request(request) => {
                match serde_json::to_value(&request.request).ok() {
                    Some(value) if value["method"] == "tools/call" => {
                        FuzzRead::Call(value["params"]["arguments"].as_object().cloned())
                    }
                    _ => FuzzRead::Other,
                }
            }
            _ => FuzzRead::Other,
        },
    }
}

/// Any message, by rmcp's own decoding.
fn decode_message(value: Value, id: Option<RequestId>, has_method: bool) -> Read {
    match serde_json::from_value::<RxJsonRpcMessage<RoleServer>>(value) {
        Ok(message) => Read::Message(Box::new(message)),
        // A notification is never answered (a client may send ones this server does not know).
        Err(_) if id.is_none() && has_method => Read::Skip,
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

impl<R> Transport<RoleServer> for LineTransport<R>
where
    R: AsyncBufRead + Unpin + Send,
{
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        // Queued now, not when the future is first polled: the order of the calls is the
        // order on stdout.
        let written = self.queue(&item);
        async move {
            written
                .await
                .unwrap_or_else(|_| Err(std::io::Error::other("the writer stopped")))
        }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            if let Some(answering) = self.answering.as_mut() {
                // Cancellation safe: the receiver stays here until the answer is written.
                let _ = answering.await;
                self.answering = None;
            }
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
                Read::Answer(answer) => self.answering = Some(self.queue(&answer)),
                Read::Skip => {}
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        // Everything queued before is written first.
        let (written, receiver) = oneshot::channel();
        if self
            .lines
            .send(Queued {
                bytes: Vec::new(),
                written,
            })
            .is_err()
        {
            return Ok(());
        }
        receiver.await.unwrap_or(Ok(()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(line: &[u8]) -> Value {
        match decode(line) {
            Read::Answer(answer) => answer,
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
            assert_eq!(answer.get("id"), Some(&Value::Null), "{answer}");
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

    /// Fourth review: a request whose id is unusable was taken for a notification and got no
    /// answer; the client waited forever.
    #[test]
    fn a_request_with_an_unusable_id_is_answered() {
        for id in ["null", "1.5", "18446744073709551616", "{\"a\":1}", "[1]"] {
            let line = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/list"}}"#);
            let answer = answer(line.as_bytes());
            assert_eq!(answer["error"]["code"], -32600, "{id}: {answer}");
            assert_eq!(answer["id"], Value::Null, "{id}: {answer}");
        }
    }

    /// Fourth review: `printf '{…}' | torii` (no final newline) got no answer.
    #[tokio::test]
    async fn a_last_line_without_a_newline_is_read() {
        let input: &[u8] = b"{\"a\":1}\n{\"b\":2}";
        let mut transport = LineTransport::new(tokio::io::BufReader::new(input), tokio::io::sink());
        assert_eq!(transport.next_line().await.unwrap().unwrap(), b"{\"a\":1}");
        assert_eq!(transport.next_line().await.unwrap().unwrap(), b"{\"b\":2}");
        assert!(transport.next_line().await.is_none());
        assert!(transport.next_line().await.is_none());
    }

    /// Fourth review: a progress notification was written after its response, because each
    /// message was written by a task of its own. Lines go out in the order they were sent.
    #[tokio::test]
    async fn lines_are_written_in_the_order_they_were_sent() {
        let (writer, mut output) = tokio::io::duplex(1 << 20);
        let transport = LineTransport::new(tokio::io::BufReader::new(&b""[..]), writer);
        let mut sends = Vec::new();
        for index in 0..200 {
            let message = TxJsonRpcMessage::<RoleServer>::error(
                ErrorData::new(ErrorCode::INTERNAL_ERROR, format!("m{index}"), None),
                None,
            );
            let written = transport.queue(&message);
            sends.push(written);
        }
        // Polled in reverse: the order of the `send` calls is what counts.
        for send in sends.into_iter().rev() {
            send.await.unwrap().unwrap();
        }
        drop(transport);
        let mut text = String::new();
        tokio::io::AsyncReadExt::read_to_string(&mut output, &mut text)
            .await
            .unwrap();
        let order: Vec<String> = text
            .lines()
            .map(|line| {
                serde_json::from_str::<Value>(line).unwrap()["error"]["message"].to_string()
            })
            .collect();
        let expected: Vec<String> = (0..200).map(|index| format!("\"m{index}\"")).collect();
        assert_eq!(order, expected);
    }

    /// Fourth review: a client that sent garbage and never read stdout grew the server without
    /// bound (one pending answer per line). Reading waits for the last answer to be written.
    #[tokio::test]
    async fn garbage_from_a_client_that_never_reads_is_not_queued_without_end() {
        let input = b"x\n".repeat(100_000);
        let (writer, _never_read) = tokio::io::duplex(4096);
        let mut transport = LineTransport::new(tokio::io::BufReader::new(&input[..]), writer);
        let received = tokio::time::timeout(
            std::time::Duration::from_millis(300),
            Transport::<RoleServer>::receive(&mut transport),
        )
        .await;
        assert!(received.is_err(), "a message came out of garbage");
        let unread = transport.reader.get_ref().len() + transport.reader.buffer().len();
        assert!(
            unread > input.len() - 8192 * 4,
            "read {} of {} bytes while nobody read the answers",
            input.len() - unread,
            input.len()
        );
    }
}
