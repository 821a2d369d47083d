//! The hash chain of the audit log.
//!
//! Every line ends with `chain=<hex>`: the SHA-256 of the previous line's value and of this
//! line's text. A line that was edited, removed, inserted or moved no longer follows the one
//! before it, and [`verify`] names where. The last value written is kept in a small file beside
//! the log (the *head*), so that the chain goes on in a new file after rotation and lines cut
//! from the end show as a head the log does not reach.
//!
//! What it proves is limited: whoever can write the root can recompute the whole chain and its
//! head. Only a copy kept elsewhere (an export) catches that.

use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;

use sha2::{Digest, Sha256};

/// Separates a line's text from its chain value. The fields of a line cannot contain `|`
/// (the audit replaces it), so the last occurrence is always this one.
const MARK: &str = " | chain=";

/// One value of the chain: 64 lowercase hexadecimal digits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link(String);

impl Link {
    /// The value before the first line of a chain.
    pub fn genesis() -> Self {
        Self("0".repeat(64))
    }

    /// A value as written in a line or in the head file; anything else is `None`.
    pub fn parse(text: &str) -> Option<Self> {
        let well_formed = crate::digest::is_sha256_hex(text)
            && text.bytes().all(|byte| !byte.is_ascii_uppercase());
        well_formed.then(|| Self(text.to_string()))
    }

    /// The value of a line with this `text` written after the line whose value is `self`.
    pub fn next(&self, text: &str) -> Self {
        self.next_bytes(text.as_bytes())
    }

    /// [`Self::next`] of a line's bytes as they are in the file, valid UTF-8 or not.
    fn next_bytes(&self, text: &[u8]) -> Self {
        let mut hash = Sha256::new();
        hash.update(self.0.as_bytes());
        hash.update(b"\n");
        hash.update(text);
        Self(crate::digest::hex(&hash.finalize()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// `text` with its chain value appended: the line as written (without the newline).
pub fn seal(text: &str, link: &Link) -> String {
    format!("{text}{MARK}{}", link.0)
}

/// A written line split into its text and its chain value; `None` for a line without one.
pub fn split(line: &str) -> Option<(&str, Link)> {
    let (text, value) = line.rsplit_once(MARK)?;
    Some((text, Link::parse(value)?))
}

/// What the head file's `bytes` hold, as read by the writer: its value, or the genesis when it
/// is empty (a new log) or not a value (then the next line shows as a break, which is what it
/// is).
pub fn head_link(bytes: &[u8]) -> Link {
    std::str::from_utf8(bytes)
        .ok()
        .and_then(|text| Link::parse(text.trim()))
        .unwrap_or_else(Link::genesis)
}

/// The head file as `audit verify` finds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Head {
    Missing,
    /// Empty, or not a chain value: it was replaced or damaged.
    Invalid,
    Value(Link),
}

impl Head {
    /// What the head file holds.
    pub fn read(head: &mut impl Read) -> std::io::Result<Self> {
        let mut text = String::new();
        head.take(256).read_to_string(&mut text)?;
        Ok(Link::parse(text.trim()).map_or(Head::Invalid, Head::Value))
    }
}

/// Something [`verify`] found that the chain does not allow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// This line does not follow the line before it: it was edited, or a line before it was
    /// removed, inserted or moved.
    Broken { file: PathBuf, line: usize },
    /// A line without a chain value: inserted by something else, its value removed, or
    /// written before Torii chained its log.
    Unchained { file: PathBuf, line: usize },
    /// A line longer than any Torii writes.
    TooLong { file: PathBuf, line: usize },
    /// The first line does not start a chain: lines were removed from the start, or the log
    /// was rotated and the earlier files were not given.
    StartsMidChain { file: PathBuf },
    /// The log ends on another value than the head: lines were removed at its end, or the
    /// head was replaced.
    HeadMismatch,
    /// The log has chained lines but the head file is gone.
    HeadMissing,
}

/// The outcome of [`verify`].
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Report {
    /// Lines read, in every file.
    pub lines: usize,
    pub problems: Vec<Problem>,
}

/// A file of the log as read for [`verify`].
pub struct LogFile<R> {
    pub path: PathBuf,
    pub reader: R,
}

/// Longest line `verify` reads: far beyond what Torii writes (each field is bounded).
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// Checks `files`, oldest first, as one chain, and its last value against `head`. Every line
/// must carry a chain value, and the first must start a chain unless `continued` (the first
/// file continues one whose start is no longer kept, as after rotation).
///
/// Lines are hashed as the bytes in the file. After a line that does not follow, checking
/// goes on from that line's own value, so each place that was touched is reported once.
pub fn verify<R: Read>(
    files: impl IntoIterator<Item = LogFile<R>>,
    head: &Head,
    continued: bool,
) -> std::io::Result<Report> {
    let mut report = Report::default();
    let mut last: Option<Link> = None;
    let mut first = true;
    for file in files {
        let mut reader = BufReader::new(file.reader);
        let mut number = 0;
        while let Some(bytes) = read_line(&mut reader)? {
            number += 1;
            report.lines += 1;
            let place = (file.path.clone(), number);
            let Some(bytes) = bytes else {
                report.problems.push(Problem::TooLong {
                    file: place.0,
                    line: place.1,
                });
                continue;
            };
            let Some((text, link)) = split_bytes(&bytes) else {
                report.problems.push(Problem::Unchained {
                    file: place.0,
                    line: place.1,
                });
                continue;
            };
            let previous = match (last.take(), first) {
                (Some(previous), _) => Some(previous),
                (None, true) if !continued => Some(Link::genesis()),
                (None, _) => None,
            };
            match previous {
                Some(previous) if previous.next_bytes(text) != link => {
                    report.problems.push(if first {
                        Problem::StartsMidChain { file: place.0 }
                    } else {
                        Problem::Broken {
                            file: place.0,
                            line: place.1,
                        }
                    });
                }
                _ => {}
            }
            first = false;
            last = Some(link);
        }
    }
    match (last, head) {
        (_, Head::Invalid) => report.problems.push(Problem::HeadMismatch),
        (Some(_), Head::Missing) => report.problems.push(Problem::HeadMissing),
        (Some(last), Head::Value(head)) if last != *head => {
            report.problems.push(Problem::HeadMismatch);
        }
        // A head with no chained line: every line was removed.
        (None, Head::Value(_)) => report.problems.push(Problem::HeadMismatch),
        _ => {}
    }
    Ok(report)
}

/// The next line without its newline; `Some(None)` for a line over [`MAX_LINE_BYTES`] (read
/// to its end and dropped); `None` at the end.
fn read_line(reader: &mut impl BufRead) -> std::io::Result<Option<Option<Vec<u8>>>> {
    let mut bytes = Vec::new();
    let read = reader
        .by_ref()
        .take(MAX_LINE_BYTES as u64 + 1)
        .read_until(b'\n', &mut bytes)?;
    if read == 0 {
        return Ok(None);
    }
    if bytes.last() == Some(&b'\n') {
        bytes.pop();
        return Ok(Some(Some(bytes)));
    }
    if bytes.len() <= MAX_LINE_BYTES {
        // The last line, without a newline.
        return Ok(Some(Some(bytes)));
    }
    // Too long: skip the rest of it, in bounded pieces.
    loop {
        let mut rest = Vec::new();
        let read = reader
            .by_ref()
            .take(MAX_LINE_BYTES as u64)
            .read_until(b'\n', &mut rest)?;
        if read == 0 || rest.last() == Some(&b'\n') {
            return Ok(Some(None));
        }
    }
}

/// [`split`] on a line's bytes.
fn split_bytes(line: &[u8]) -> Option<(&[u8], Link)> {
    let mark = MARK.as_bytes();
    let at = line
        .windows(mark.len())
        .rposition(|window| window == mark)?;
    let value = std::str::from_utf8(&line[at + mark.len()..]).ok()?;
    Some((&line[..at], Link::parse(value)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chain(texts: &[&str]) -> Vec<String> {
        let mut link = Link::genesis();
        texts
            .iter()
            .map(|text| {
                link = link.next(text);
                seal(text, &link)
            })
            .collect()
    }

    fn bytes(lines: &[String]) -> Vec<u8> {
        lines
            .iter()
            .flat_map(|line| format!("{line}\n").into_bytes())
            .collect()
    }

    fn check_bytes(bytes: &[u8], head: &Head, continued: bool) -> Report {
        let file = LogFile {
            path: PathBuf::from("torii.log"),
            reader: bytes,
        };
        verify([file], head, continued).unwrap()
    }

    fn check(lines: &[String], head: &Head) -> Report {
        check_bytes(&bytes(lines), head, false)
    }

    fn head_of(lines: &[String]) -> Head {
        lines
            .last()
            .and_then(|line| split(line))
            .map_or(Head::Missing, |(_, link)| Head::Value(link))
    }

    const TEXTS: [&str; 4] = [
        "1 | aws | invoke | s3 ls",
        "1 | aws | allowed-by-rules | s3 ls",
        "2 | aws | ran | s3 ls | exit=0",
        "3 | kubectl/dev | ran | get pods | exit=1",
    ];

    fn log() -> PathBuf {
        PathBuf::from("torii.log")
    }

    fn broken(line: usize) -> Problem {
        Problem::Broken { file: log(), line }
    }

    fn unchained(line: usize) -> Problem {
        Problem::Unchained { file: log(), line }
    }

    #[test]
    fn an_untouched_chain_verifies() {
        let lines = chain(&TEXTS);
        assert_eq!(split(&lines[2]).unwrap().0, TEXTS[2]);
        let report = check(&lines, &head_of(&lines));
        assert_eq!((report.lines, report.problems), (4, vec![]));
        // A last line without its newline is still a line.
        let mut cut = bytes(&lines);
        cut.pop();
        assert_eq!(check_bytes(&cut, &head_of(&lines), false).problems, []);
    }

    #[test]
    fn an_edited_line_is_found_where_it_is_the_first_one_too() {
        let mut lines = chain(&TEXTS);
        let head = head_of(&lines);
        lines[1] = lines[1].replace("allowed-by-rules", "denied-explicit");
        assert_eq!(check(&lines, &head).problems, [broken(2)]);
        // Recomputing the edited line's own value moves the break to the next line.
        let (text, _) = split(&lines[1]).unwrap();
        let previous = split(&lines[0]).unwrap().1;
        lines[1] = seal(text, &previous.next(text));
        assert_eq!(check(&lines, &head).problems, [broken(3)]);

        let mut first = chain(&TEXTS);
        first[0] = first[0].replace("s3 ls", "s3 rm --recursive");
        assert_eq!(
            check(&first, &head).problems,
            [Problem::StartsMidChain { file: log() }]
        );
    }

    #[test]
    fn removed_inserted_and_swapped_lines_are_found() {
        let lines = chain(&TEXTS);
        let head = head_of(&lines);
        let mut removed = lines.clone();
        removed.remove(1);
        assert_eq!(check(&removed, &head).problems, [broken(2)]);

        let mut swapped = lines.clone();
        swapped.swap(1, 2);
        assert_eq!(
            check(&swapped, &head).problems,
            [broken(2), broken(3), broken(4)]
        );

        let mut inserted = lines.clone();
        inserted.insert(2, "2 | aws | allowed-by-grant | s3 rm".to_string());
        assert_eq!(check(&inserted, &head).problems, [unchained(3)]);
        let mut copied = lines.clone();
        copied.insert(2, lines[1].clone());
        assert_eq!(check(&copied, &head).problems, [broken(3)]);
    }

    /// Red team: unchained lines before the first chained one were "not covered", so values
    /// stripped from every line but the last let any of them be rewritten.
    #[test]
    fn a_line_without_a_value_is_a_problem_wherever_it_is() {
        let lines = chain(&TEXTS);
        let head = head_of(&lines);
        let mut stripped: Vec<String> = lines
            .iter()
            .map(|line| split(line).unwrap().0.to_string())
            .collect();
        stripped[3] = lines[3].clone();
        stripped[0] = stripped[0].replace("s3 ls", "s3 rm");
        let report = check(&stripped, &head);
        assert_eq!(
            report.problems[..3],
            [unchained(1), unchained(2), unchained(3)]
        );
        // Every value stripped and the head emptied or removed: still a problem.
        let bare: Vec<String> = stripped[..3].to_vec();
        assert_eq!(check(&bare, &Head::Invalid).problems.len(), 4);
        assert_eq!(check(&bare, &Head::Missing).problems.len(), 3);
    }

    #[test]
    fn lines_cut_from_the_end_and_a_replaced_head_show() {
        let lines = chain(&TEXTS);
        let head = head_of(&lines);
        assert_eq!(check(&lines[..3], &head).problems, [Problem::HeadMismatch]);
        assert_eq!(check(&[], &head).problems, [Problem::HeadMismatch]);
        assert_eq!(
            check(&lines, &Head::Missing).problems,
            [Problem::HeadMissing]
        );
        assert_eq!(
            check(&lines, &Head::Invalid).problems,
            [Problem::HeadMismatch]
        );
        assert_eq!(check(&[], &Head::Invalid).problems, [Problem::HeadMismatch]);
        assert_eq!(check(&[], &Head::Missing).problems, []);
    }

    #[test]
    fn a_log_that_continues_a_rotated_one_is_accepted_only_when_said() {
        let lines = chain(&TEXTS);
        let head = head_of(&lines);
        let rest = bytes(&lines[2..]);
        assert_eq!(
            check_bytes(&rest, &head, false).problems,
            [Problem::StartsMidChain { file: log() }]
        );
        assert_eq!(check_bytes(&rest, &head, true).problems, []);
    }

    #[test]
    fn rotated_files_verify_as_one_chain() {
        let lines = chain(&TEXTS);
        let head = head_of(&lines);
        let files = |old: Vec<u8>, new: Vec<u8>| {
            [("torii.log.1", old), ("torii.log", new)].map(|(path, bytes)| LogFile {
                path: PathBuf::from(path),
                reader: std::io::Cursor::new(bytes),
            })
        };
        let report = verify(files(bytes(&lines[..2]), bytes(&lines[2..])), &head, false).unwrap();
        assert_eq!((report.lines, report.problems.len()), (4, 0));
        // The last line of the older file removed: the first of the newer one breaks.
        let report = verify(files(bytes(&lines[..1]), bytes(&lines[2..])), &head, false).unwrap();
        assert_eq!(report.problems, [broken(1)]);
    }

    /// Red team: lines were decoded leniently before hashing, so bytes that are not UTF-8 in
    /// place of U+FFFD verified.
    #[test]
    fn lines_are_hashed_as_their_bytes() {
        let lines = chain(&["1 | aws | invoke | s3 rm\u{FFFD}"]);
        let head = head_of(&lines);
        let mut raw = bytes(&lines);
        let at = raw
            .windows(3)
            .position(|w| w == "\u{FFFD}".as_bytes())
            .unwrap();
        raw.splice(at..at + 3, [0xff, 0xfe]);
        assert_eq!(
            check_bytes(&raw, &head, false).problems,
            [Problem::StartsMidChain { file: log() }]
        );
    }

    /// Red team: one endless line was read whole.
    #[test]
    fn a_line_longer_than_torii_writes_is_a_problem_not_a_read_to_the_end() {
        let lines = chain(&TEXTS);
        let mut raw = bytes(&lines[..1]);
        raw.extend(std::iter::repeat_n(b'x', MAX_LINE_BYTES * 3));
        raw.push(b'\n');
        raw.extend(bytes(&lines[1..]));
        let report = check_bytes(&raw, &head_of(&lines), false);
        assert_eq!(report.lines, 5);
        assert_eq!(
            report.problems,
            [Problem::TooLong {
                file: log(),
                line: 2
            }]
        );
    }

    #[test]
    fn only_well_formed_values_are_links() {
        assert!(Link::parse(&"a".repeat(64)).is_some());
        for bad in ["", "xyz", &"A".repeat(64), &"a".repeat(63), &"a".repeat(65)] {
            assert_eq!(Link::parse(bad), None, "{bad}");
        }
        assert_eq!(split("1 | aws | invoke | -"), None);
        assert_eq!(head_link(b"garbage"), Link::genesis());
        assert_eq!(head_link(b"\xff\xfe"), Link::genesis());
        let value = "b".repeat(64);
        assert_eq!(head_link(format!("{value}\n").as_bytes()).as_str(), value);
        assert_eq!(Head::read(&mut "".as_bytes()).unwrap(), Head::Invalid);
        assert_eq!(Head::read(&mut "junk".as_bytes()).unwrap(), Head::Invalid);
    }
}
