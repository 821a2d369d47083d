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
use std::path::{Path, PathBuf};

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
        let mut hash = Sha256::new();
        hash.update(self.0.as_bytes());
        hash.update(b"\n");
        hash.update(text.as_bytes());
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

/// What the head file holds, as read by the writer: its value, or the genesis when it is empty
/// (a new log) or unreadable (then the next line shows as a break, which is what it is).
pub fn read_head(head: &mut impl Read) -> Link {
    let mut text = String::new();
    match head.take(256).read_to_string(&mut text) {
        Ok(_) => Link::parse(text.trim()).unwrap_or_else(Link::genesis),
        Err(_) => Link::genesis(),
    }
}

/// Something [`verify`] found that the chain does not allow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// This line does not follow the line before it: it was edited, or a line before it was
    /// removed, inserted or moved.
    Broken { file: PathBuf, line: usize },
    /// A line without a chain value after the chain began: inserted by something else.
    Unchained { file: PathBuf, line: usize },
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
    /// Lines before the first chained one (written before Torii chained its log): not covered.
    pub before_chain: usize,
    /// The first chained line continues a chain that began in a file not given (a rotated
    /// log), or lines were removed from the start: nothing here can tell which.
    pub starts_mid_chain: bool,
    pub problems: Vec<Problem>,
}

/// A file of the log as read for [`verify`].
pub struct LogFile<R> {
    pub path: PathBuf,
    pub reader: R,
}

/// Checks `files`, oldest first, as one chain, and its last value against `head` (`None`:
/// the head file does not exist).
///
/// After a line that does not follow, checking goes on from that line's own value, so each
/// place that was touched is reported once, and everything after it is still checked.
pub fn verify<R: Read>(
    files: impl IntoIterator<Item = LogFile<R>>,
    head: Option<Link>,
) -> std::io::Result<Report> {
    let mut report = Report::default();
    let mut last: Option<Link> = None;
    for file in files {
        let mut reader = BufReader::new(file.reader);
        let mut bytes = Vec::new();
        let mut number = 0;
        loop {
            bytes.clear();
            if reader.read_until(b'\n', &mut bytes)? == 0 {
                break;
            }
            number += 1;
            report.lines += 1;
            let line = String::from_utf8_lossy(&bytes);
            let line = line.strip_suffix('\n').unwrap_or(&line);
            let place = |file: &Path| (file.to_path_buf(), number);
            let Some((text, link)) = split(line) else {
                match last {
                    None => report.before_chain += 1,
                    Some(_) => {
                        let (file, line) = place(&file.path);
                        report.problems.push(Problem::Unchained { file, line });
                    }
                }
                continue;
            };
            match &last {
                None => report.starts_mid_chain = Link::genesis().next(text) != link,
                Some(previous) if previous.next(text) != link => {
                    let (file, line) = place(&file.path);
                    report.problems.push(Problem::Broken { file, line });
                }
                Some(_) => {}
            }
            last = Some(link);
        }
    }
    match (last, head) {
        (Some(_), None) => report.problems.push(Problem::HeadMissing),
        (Some(last), Some(head)) if last != head => report.problems.push(Problem::HeadMismatch),
        // A head with no chained line: every line was removed.
        (None, Some(head)) if head != Link::genesis() => {
            report.problems.push(Problem::HeadMismatch)
        }
        _ => {}
    }
    Ok(report)
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

    fn check(lines: &[String], head: Option<Link>) -> Report {
        let text = lines
            .iter()
            .map(|line| format!("{line}\n"))
            .collect::<String>();
        let file = LogFile {
            path: PathBuf::from("torii.log"),
            reader: text.as_bytes(),
        };
        verify([file], head).unwrap()
    }

    fn head_of(lines: &[String]) -> Option<Link> {
        lines
            .last()
            .and_then(|line| split(line))
            .map(|(_, link)| link)
    }

    const TEXTS: [&str; 4] = [
        "1 | aws | invoke | s3 ls",
        "1 | aws | allowed-by-rules | s3 ls",
        "2 | aws | ran | s3 ls | exit=0",
        "3 | kubectl/dev | ran | get pods | exit=1",
    ];

    fn broken(line: usize) -> Problem {
        Problem::Broken {
            file: PathBuf::from("torii.log"),
            line,
        }
    }

    #[test]
    fn an_untouched_chain_verifies() {
        let lines = chain(&TEXTS);
        assert_eq!(split(&lines[2]).unwrap().0, TEXTS[2]);
        let report = check(&lines, head_of(&lines));
        assert_eq!(
            report,
            Report {
                lines: 4,
                ..Report::default()
            }
        );
    }

    #[test]
    fn an_edited_line_is_found_where_it_is() {
        let mut lines = chain(&TEXTS);
        let head = head_of(&lines);
        lines[1] = lines[1].replace("allowed-by-rules", "denied-explicit");
        assert_eq!(check(&lines, head.clone()).problems, [broken(2)]);
        // Recomputing the edited line's own value moves the break to the next line.
        let (text, _) = split(&lines[1]).unwrap();
        let previous = split(&lines[0]).unwrap().1;
        lines[1] = seal(text, &previous.next(text));
        assert_eq!(check(&lines, head).problems, [broken(3)]);
    }

    #[test]
    fn removed_inserted_and_swapped_lines_are_found() {
        let lines = chain(&TEXTS);
        let head = head_of(&lines);
        let mut removed = lines.clone();
        removed.remove(1);
        assert_eq!(check(&removed, head.clone()).problems, [broken(2)]);

        let mut swapped = lines.clone();
        swapped.swap(1, 2);
        assert_eq!(
            check(&swapped, head.clone()).problems,
            [broken(2), broken(3), broken(4)]
        );

        let mut inserted = lines.clone();
        inserted.insert(2, "2 | aws | allowed-by-grant | s3 rm".to_string());
        let unchained = Problem::Unchained {
            file: PathBuf::from("torii.log"),
            line: 3,
        };
        assert_eq!(check(&inserted, head.clone()).problems, [unchained]);
        let mut copied = lines.clone();
        copied.insert(2, lines[1].clone());
        assert_eq!(check(&copied, head).problems, [broken(3)]);
    }

    #[test]
    fn lines_cut_from_the_end_show_against_the_head() {
        let lines = chain(&TEXTS);
        let head = head_of(&lines);
        assert_eq!(
            check(&lines[..3], head.clone()).problems,
            [Problem::HeadMismatch]
        );
        assert_eq!(check(&[], head).problems, [Problem::HeadMismatch]);
        assert_eq!(check(&lines, None).problems, [Problem::HeadMissing]);
        assert_eq!(check(&[], None).problems, []);
        assert_eq!(check(&[], Some(Link::genesis())).problems, []);
    }

    #[test]
    fn lines_before_the_chain_and_a_chain_begun_elsewhere_are_told_apart() {
        let lines = chain(&TEXTS);
        let head = head_of(&lines);
        let mut legacy = vec!["0 | aws | invoke | s3 ls".to_string()];
        legacy.extend(lines.iter().cloned());
        let report = check(&legacy, head.clone());
        assert_eq!((report.before_chain, report.starts_mid_chain), (1, false));
        assert!(report.problems.is_empty());

        let report = check(&lines[2..], head);
        assert_eq!((report.before_chain, report.starts_mid_chain), (0, true));
        assert!(report.problems.is_empty());
    }

    #[test]
    fn rotated_files_verify_as_one_chain() {
        let lines = chain(&TEXTS);
        let head = head_of(&lines);
        let (old, new) = (lines[..2].join("\n") + "\n", lines[2..].join("\n") + "\n");
        let files = |old: &str, new: &str| {
            [
                LogFile {
                    path: PathBuf::from("torii.log.1"),
                    reader: old.as_bytes().to_vec(),
                },
                LogFile {
                    path: PathBuf::from("torii.log"),
                    reader: new.as_bytes().to_vec(),
                },
            ]
            .map(|file| LogFile {
                path: file.path,
                reader: std::io::Cursor::new(file.reader),
            })
        };
        let report = verify(files(&old, &new), head.clone()).unwrap();
        assert_eq!((report.lines, report.problems.len()), (4, 0));
        // The last line of the older file removed: the first of the newer one breaks.
        let cut = lines[..1].join("\n") + "\n";
        let report = verify(files(&cut, &new), head).unwrap();
        let first_of_new = Problem::Broken {
            file: PathBuf::from("torii.log"),
            line: 1,
        };
        assert_eq!(report.problems, [first_of_new]);
    }

    #[test]
    fn only_well_formed_values_are_links() {
        assert!(Link::parse(&"a".repeat(64)).is_some());
        for bad in ["", "xyz", &"A".repeat(64), &"a".repeat(63), &"a".repeat(65)] {
            assert_eq!(Link::parse(bad), None, "{bad}");
        }
        assert_eq!(split("1 | aws | invoke | -"), None);
        assert_eq!(read_head(&mut "garbage".as_bytes()), Link::genesis());
        let value = "b".repeat(64);
        assert_eq!(
            read_head(&mut format!("{value}\n").as_bytes()).as_str(),
            value
        );
    }
}
