//! `<root>/.audit-export`: how many records each export destination dropped, and why last,
//! for `torii doctor`. Servers sharing a root add to it under a lock on the file.

use std::collections::BTreeMap;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;
use std::sync::{Mutex, PoisonError};

/// What one destination lost.
#[derive(Debug, Default, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Counts {
    pub dropped: u64,
    pub last_error: String,
    /// When the last record was dropped (seconds since 1970).
    pub last_epoch: u64,
}

/// The file's contents: counts by destination kind (`syslog`, `otlp`).
pub type State = BTreeMap<String, Counts>;

/// Longest error kept: enough to say what failed, never a response body.
const MAX_ERROR_CHARS: usize = 200;

/// Drops counted by one export thread and not yet added to the file.
#[derive(Debug)]
pub struct Pending {
    kind: &'static str,
    counts: Mutex<Counts>,
}

impl Pending {
    pub fn new(kind: &'static str) -> Self {
        Self {
            kind,
            counts: Mutex::default(),
        }
    }

    pub fn add(&self, records: u64, error: &str) {
        let mut counts = self.counts.lock().unwrap_or_else(PoisonError::into_inner);
        counts.dropped += records;
        counts.last_error = crate::text::clip(error, MAX_ERROR_CHARS);
        counts.last_epoch = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |age| age.as_secs());
    }

    /// Adds what was counted to the file at `path`; on failure it is kept for the next time.
    pub fn save(&self, path: &Path) {
        let mut counts = self.counts.lock().unwrap_or_else(PoisonError::into_inner);
        if counts.dropped == 0 {
            return;
        }
        match add_to_file(path, self.kind, &counts) {
            Ok(()) => *counts = Counts::default(),
            Err(error) => eprintln!("torii: {} not written: {error}", path.display()),
        }
    }
}

fn add_to_file(path: &Path, kind: &str, counts: &Counts) -> std::io::Result<()> {
    let mut file = crate::files::private_file_options()
        .create(true)
        .read(true)
        .write(true)
        .open(path)?;
    if !file.metadata()?.is_file() {
        return Err(std::io::Error::other("is not a regular file"));
    }
    file.lock()?;
    let mut text = String::new();
    Read::by_ref(&mut file)
        .take(64 * 1024)
        .read_to_string(&mut text)?;
    // Unreadable counts (a hand edit) start again from zero rather than stop the export.
    let mut state: State = serde_json::from_str(&text).unwrap_or_default();
    let entry = state.entry(kind.to_string()).or_default();
    entry.dropped += counts.dropped;
    entry.last_error.clone_from(&counts.last_error);
    entry.last_epoch = counts.last_epoch;
    let text = serde_json::to_string_pretty(&state).map_err(std::io::Error::other)? + "\n";
    file.seek(SeekFrom::Start(0))?;
    file.write_all(text.as_bytes())?;
    file.set_len(text.len() as u64)?;
    file.unlock()
}

/// The counts in `path`; none when it does not exist.
pub fn read(path: &Path) -> std::io::Result<State> {
    match crate::files::read_optional_text(path, crate::files::SMALL_FILE_BYTES)? {
        None => Ok(State::new()),
        Some(text) => serde_json::from_str(&text)
            .map_err(|error| std::io::Error::new(std::io::ErrorKind::InvalidData, error)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_add_up_across_saves_and_destinations() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(".audit-export");
        assert!(read(&path).unwrap().is_empty());
        let otlp = Pending::new("otlp");
        otlp.save(&path);
        assert!(!path.exists(), "nothing dropped, nothing written");
        otlp.add(3, "connection refused");
        otlp.save(&path);
        otlp.add(2, "HTTP 503");
        otlp.save(&path);
        Pending::new("syslog").add(1, "x");
        let syslog = Pending::new("syslog");
        syslog.add(4, "broken pipe");
        syslog.save(&path);
        let state = read(&path).unwrap();
        assert_eq!(state["otlp"].dropped, 5);
        assert_eq!(state["otlp"].last_error, "HTTP 503");
        assert_eq!(state["syslog"].dropped, 4);
    }
}
