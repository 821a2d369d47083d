//! Bounded capture of a child's stdout and stderr.
//!
//! Both pipes are read concurrently, so a child that fills one of them never blocks while Torii
//! waits on the other. The two streams share one budget of kept bytes. Past it, reading goes on
//! into the same fixed buffers and the bytes are discarded: the child always runs to completion,
//! and memory stays bounded whatever the child writes. Each stream's buffer grows to at most the
//! budget, so capture holds at most twice the budget plus the two read buffers.

use tokio::io::{AsyncRead, AsyncReadExt};

/// Size of each read buffer. Linux pipes hold 64 KiB by default.
const CHUNK: usize = 64 * 1024;

/// What was kept from both streams, before any text conversion.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Captured {
    pub stdout: Kept,
    pub stderr: Kept,
}

impl Captured {
    /// Whether any byte the child wrote was discarded.
    pub fn truncated(&self) -> bool {
        self.stdout.discarded || self.stderr.discarded
    }
}

/// The kept prefix of one stream, and whether anything after it was dropped.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Kept {
    pub bytes: Vec<u8>,
    pub discarded: bool,
    closed: bool,
}

impl Kept {
    /// Keeps as much of `chunk` as `budget` allows; an empty chunk means end of stream.
    fn accept(&mut self, chunk: &[u8], budget: &mut usize) {
        if chunk.is_empty() {
            self.closed = true;
            return;
        }
        let keep = chunk.len().min(*budget);
        if keep > 0 {
            reserve_within(&mut self.bytes, keep, *budget);
            self.bytes.extend_from_slice(&chunk[..keep]);
            *budget -= keep;
        }
        if keep < chunk.len() {
            self.discarded = true;
        }
    }

    /// The kept bytes as text. If the budget cut this stream, an incomplete UTF-8 sequence at the
    /// end is dropped whole; any other invalid sequence becomes U+FFFD.
    pub fn into_text(mut self) -> String {
        if self.discarded {
            let complete = without_incomplete_tail(&self.bytes);
            self.bytes.truncate(complete);
        }
        match String::from_utf8(self.bytes) {
            Ok(text) => text,
            Err(error) => String::from_utf8_lossy(error.as_bytes()).into_owned(),
        }
    }
}

/// Reads `stdout` and `stderr` to their ends, keeping at most `max_bytes` in total.
#[cfg(test)]
pub(crate) async fn capture<O, E>(
    stdout: O,
    stderr: E,
    max_bytes: usize,
) -> std::io::Result<Captured>
where
    O: AsyncRead + Unpin,
    E: AsyncRead + Unpin,
{
    let mut capture = Capture::new(stdout, stderr, max_bytes);
    capture.read_until_closed().await?;
    Ok(capture.into_captured())
}

/// The reading of both streams of one child. What was read stays here when [`Capture::read_until_closed`]
/// is abandoned (a call that timed out keeps what its child wrote until then).
pub(crate) struct Capture<O, E> {
    stdout: O,
    stderr: E,
    out_buf: Vec<u8>,
    err_buf: Vec<u8>,
    budget: usize,
    captured: Captured,
}

impl<O, E> Capture<O, E>
where
    O: AsyncRead + Unpin,
    E: AsyncRead + Unpin,
{
    pub(crate) fn new(stdout: O, stderr: E, max_bytes: usize) -> Self {
        Self {
            stdout,
            stderr,
            // Capacity, not length: `read_buf` fills the spare capacity, so a child that prints
            // a few bytes costs a few bytes, not two zero-filled chunks per call.
            out_buf: Vec::with_capacity(CHUNK),
            err_buf: Vec::with_capacity(CHUNK),
            budget: max_bytes,
            captured: Captured::default(),
        }
    }

    /// Reads until both streams are closed. Cancellation safe: dropping the future loses no
    /// byte that was read, and a later call goes on where this one stopped.
    pub(crate) async fn read_until_closed(&mut self) -> std::io::Result<()> {
        let captured = &mut self.captured;
        loop {
            // `read_buf` is cancellation safe: the branch that loses the race has read nothing.
            // Each buffer is emptied after every read, so it never grows past its capacity.
            tokio::select! {
                read = self.stdout.read_buf(&mut self.out_buf), if !captured.stdout.closed => {
                    super::progress::saw_output(read?);
                    captured.stdout.accept(&self.out_buf, &mut self.budget);
                    self.out_buf.clear();
                }
                read = self.stderr.read_buf(&mut self.err_buf), if !captured.stderr.closed => {
                    super::progress::saw_output(read?);
                    captured.stderr.accept(&self.err_buf, &mut self.budget);
                    self.err_buf.clear();
                }
                else => return Ok(()),
            }
        }
    }

    pub(crate) fn into_captured(self) -> Captured {
        self.captured
    }
}

/// Makes room for `additional` bytes, growing geometrically but never past what the remaining
/// `budget` could still fill, so one stream's allocation never exceeds the whole budget.
fn reserve_within(bytes: &mut Vec<u8>, additional: usize, budget: usize) {
    let needed = bytes.len() + additional;
    if needed <= bytes.capacity() {
        return;
    }
    let target = (bytes.capacity() * 2).max(needed).min(bytes.len() + budget);
    bytes.reserve_exact(target - bytes.len());
}

/// The length of `bytes` without a trailing, incomplete UTF-8 sequence (a lead byte followed by
/// fewer continuation bytes than it announces). Invalid sequences are left for lossy conversion.
fn without_incomplete_tail(bytes: &[u8]) -> usize {
    let is_continuation = |byte: u8| byte & 0b1100_0000 == 0b1000_0000;
    // A sequence is at most four bytes long: look back at most three bytes for its lead byte.
    for back in 1..=bytes.len().min(4) {
        let start = bytes.len() - back;
        let byte = bytes[start];
        if is_continuation(byte) {
            continue;
        }
        let announced = match byte {
            0b1100_0000..=0b1101_1111 => 2,
            0b1110_0000..=0b1110_1111 => 3,
            0b1111_0000..=0b1111_0111 => 4,
            _ => 1,
        };
        return if back < announced { start } else { bytes.len() };
    }
    bytes.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kept(text: &[u8], discarded: bool) -> String {
        Kept {
            bytes: text.to_vec(),
            discarded,
            closed: true,
        }
        .into_text()
    }

    #[test]
    fn an_incomplete_tail_is_dropped_only_when_the_stream_was_cut() {
        let euro = "€".as_bytes(); // E2 82 AC
        assert_eq!(kept(b"ab\xE2\x82", true), "ab");
        assert_eq!(kept(b"ab\xE2", true), "ab");
        assert_eq!(kept(&[b"ab".as_slice(), euro].concat(), true), "ab€");
        assert_eq!(kept(b"ab\xF0\x9F\x98", true), "ab");
        assert_eq!(kept("ab😀".as_bytes(), true), "ab😀");
        assert_eq!(kept(b"ab\xE2\x82", false), "ab\u{FFFD}");
        assert_eq!(kept(b"ab\xFF", true), "ab\u{FFFD}");
        assert_eq!(kept(b"\x82\x82\x82\x82", true), "\u{FFFD}".repeat(4));
        assert_eq!(kept(b"", true), "");
    }

    #[tokio::test]
    async fn one_budget_is_shared_by_both_streams() {
        let captured = capture(&b"0123456789"[..], &b"abcdefghij"[..], 15)
            .await
            .unwrap();
        assert_eq!(
            captured.stdout.bytes.len() + captured.stderr.bytes.len(),
            15
        );
        assert!(captured.truncated());
    }

    #[tokio::test]
    async fn output_that_fits_exactly_is_not_truncated() {
        let captured = capture(&b"01234"[..], &b"abcde"[..], 10).await.unwrap();
        assert_eq!(captured.stdout.bytes, b"01234");
        assert_eq!(captured.stderr.bytes, b"abcde");
        assert!(!captured.truncated());
    }

    #[tokio::test]
    async fn no_stream_allocates_more_than_the_budget() {
        let big = vec![b'x'; 3 * CHUNK + 17];
        let budget = 2 * CHUNK + 5;
        let captured = capture(&big[..], &big[..], budget).await.unwrap();
        assert_eq!(
            captured.stdout.bytes.len() + captured.stderr.bytes.len(),
            budget
        );
        assert!(captured.stdout.bytes.capacity() <= budget);
        assert!(captured.stderr.bytes.capacity() <= budget);
    }

    /// The read buffers are filled in their spare capacity and emptied after each read, so
    /// they stay one chunk each however much the child writes.
    #[tokio::test]
    async fn the_read_buffers_stay_one_chunk_each() {
        let big = vec![b'x'; 5 * CHUNK + 3];
        let mut capture = Capture::new(&big[..], &big[..], 2 * CHUNK);
        let before = (capture.out_buf.capacity(), capture.err_buf.capacity());
        capture.read_until_closed().await.unwrap();
        assert!(before.0 >= CHUNK && before.1 >= CHUNK);
        assert_eq!(
            (capture.out_buf.capacity(), capture.err_buf.capacity()),
            before
        );
        assert!(capture.into_captured().truncated());
    }

    #[test]
    fn growth_is_geometric_but_capped_by_the_budget() {
        let mut bytes = Vec::new();
        reserve_within(&mut bytes, 10, 100);
        assert_eq!(bytes.capacity(), 10);
        bytes.extend_from_slice(&[0; 10]);
        reserve_within(&mut bytes, 1, 90);
        assert_eq!(bytes.capacity(), 20);
        bytes.extend_from_slice(&[0; 10]);
        reserve_within(&mut bytes, 1, 5);
        assert_eq!(bytes.capacity(), 25);
    }
}
