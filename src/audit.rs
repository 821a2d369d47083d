//! The audit log, `<root>/torii.log`: one line per event,
//! `epoch | scope | event | short-rule | detail`.
//!
//! What may appear is decided here, not by callers: the reference is at most the first two
//! arguments of a call, every field has line breaks and `|` replaced, and there is no way to
//! pass environment, credentials, stdout or stderr. Writing is best-effort: a failed write is
//! reported on stderr and never stops a call.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::io::Write;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{SystemTime, UNIX_EPOCH};

/// Every event Torii records. A closed set, so a typo cannot invent a new event name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    Invoke,
    AllowedByRules,
    AllowedByGrant,
    DeniedExplicit,
    DeniedInterface,
    OverrideOnce,
    OverrideTimed,
    InvalidAccept,
    SessionOk,
    SessionUnchecked,
    SessionInvalid,
    SessionRefreshed,
    SessionCandidateInvalid,
    PreflightProvider,
    PreflightOk,
    PreflightFailed,
    IdentityOk,
    IdentityMismatch,
    IdentityCheckFailed,
    TargetAccessRequested,
    TargetAccessDenied,
    TargetAccessReplaced,
    TargetAccessAdded,
    TargetAccessStale,
    TargetAccessLost,
    TargetAccessRevoked,
    TargetAccessCleared,
    ReauthForced,
    Ran,
    /// The client cancelled the call, or closed the session, before it ended; whatever it had
    /// started was stopped.
    Cancelled,
    /// Provider children will not be confined to stay out of the config root (the kernel
    /// cannot enforce it); detail: the `child_confinement` setting.
    ConfinementUnavailable,
}

impl Event {
    pub fn as_str(self) -> &'static str {
        match self {
            Event::Invoke => "invoke",
            Event::AllowedByRules => "allowed-by-rules",
            Event::AllowedByGrant => "allowed-by-grant",
            Event::DeniedExplicit => "denied-explicit",
            Event::DeniedInterface => "denied-interface",
            Event::OverrideOnce => "override-once",
            Event::OverrideTimed => "override-timed",
            Event::InvalidAccept => "invalid-accept",
            Event::SessionOk => "session-ok",
            Event::SessionUnchecked => "session-unchecked",
            Event::SessionInvalid => "session-invalid",
            Event::SessionRefreshed => "session-refreshed",
            Event::SessionCandidateInvalid => "session-candidate-invalid",
            Event::PreflightProvider => "preflight-provider",
            Event::PreflightOk => "preflight-ok",
            Event::PreflightFailed => "preflight-failed",
            Event::IdentityOk => "identity-ok",
            Event::IdentityMismatch => "identity-mismatch",
            Event::IdentityCheckFailed => "identity-check-failed",
            Event::TargetAccessRequested => "target-access-requested",
            Event::TargetAccessDenied => "target-access-denied",
            Event::TargetAccessReplaced => "target-access-replaced",
            Event::TargetAccessAdded => "target-access-added",
            Event::TargetAccessStale => "target-access-stale",
            Event::TargetAccessLost => "target-access-lost",
            Event::TargetAccessRevoked => "target-access-revoked",
            Event::TargetAccessCleared => "target-access-cleared",
            Event::ReauthForced => "reauth-forced",
            Event::Ran => "ran",
            Event::Cancelled => "cancelled",
            Event::ConfinementUnavailable => "confinement-unavailable",
        }
    }
}

/// Longest token kept in a reference; a longer one is cut and marked with `…`.
const MAX_TOKEN_CHARS: usize = 64;

/// The short rule column: the first two arguments of a call at most, or a static label.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference(String);

impl Reference {
    /// At most the first two arguments, each cut to a bounded length.
    pub fn from_args<S: AsRef<str>>(args: &[S]) -> Self {
        let tokens: Vec<String> = args.iter().take(2).map(|arg| clip(arg.as_ref())).collect();
        Self(tokens.join(" "))
    }

    /// A fixed label chosen by Torii (an alias, a provider tool), never agent input.
    pub fn label(text: &str) -> Self {
        Self(clip(text))
    }

    /// No reference: written as `-`.
    pub fn none() -> Self {
        Self(String::new())
    }
}

fn clip(token: &str) -> String {
    crate::text::clip(token, MAX_TOKEN_CHARS)
}

/// `|` and the characters a reader could take for it become `¦`, and every character that could
/// break a line or reorder a display (see [`crate::text`]) becomes a space, so one event is
/// always one line with exactly the expected columns, in every reader and display.
fn sanitize(field: &str) -> Cow<'_, str> {
    if !field.contains(BARS) && crate::text::is_plain(field) {
        return Cow::Borrowed(field);
    }
    Cow::Owned(crate::text::replace_deceptive(
        &field.replace(BARS, "¦"),
        " ",
    ))
}

/// The column separator and its look-alikes: fullwidth `｜`, `∣` (divides), `│` (box drawing),
/// `❘`, `ǀ` (dental click), `⏐`, halfwidth `￨`.
const BARS: [char; 8] = [
    '|', '\u{FF5C}', '\u{2223}', '\u{2502}', '\u{2758}', '\u{01C0}', '\u{23D0}', '\u{FFE8}',
];

/// Formats one audit line (without the trailing newline).
pub fn format_line(
    epoch: u64,
    scope: &str,
    event: Event,
    reference: &Reference,
    detail: Option<&str>,
) -> String {
    // Every line is built in one buffer sized for it: the audit writes four lines per call.
    let mut line = String::with_capacity(
        64 + scope.len() + reference.0.len() + detail.map_or(0, |detail| detail.len() + 3),
    );
    // Writing into a String cannot fail.
    let _ = write!(line, "{epoch} | ");
    line.push_str(&sanitize(scope));
    line.push_str(" | ");
    line.push_str(event.as_str());
    line.push_str(" | ");
    match sanitize(&reference.0).trim() {
        "" => line.push('-'),
        text => line.push_str(text),
    }
    if let Some(detail) = detail {
        line.push_str(" | ");
        line.push_str(&sanitize(detail));
    }
    line
}

/// Appends events to the audit log of one config root.
///
/// The file is kept open between events (clones share it) and opened again when the path no
/// longer names it: an operator who moves or deletes the log for rotation gets the next line in
/// a new file, and something else put in its place (a FIFO, a directory) is refused as at the
/// first open. Other processes writing the same log are safe: every line is one `O_APPEND`
/// write.
#[derive(Debug, Clone)]
pub struct AuditLog {
    path: PathBuf,
    open: Arc<Mutex<Option<OpenLog>>>,
}

#[derive(Debug)]
struct OpenLog {
    /// Opened close-on-exec, as std always does, so no child inherits a way to write the log.
    file: std::fs::File,
    /// `None` where there is nothing to compare (not Unix): then every line opens the file.
    identity: Option<FileIdentity>,
}

impl AuditLog {
    pub fn new(path: impl Into<PathBuf>) -> Self {
        Self {
            path: path.into(),
            open: Arc::default(),
        }
    }

    /// Records one event. Never fails: audit is local observability, not a ledger.
    pub fn record(&self, scope: &str, event: Event, reference: &Reference, detail: Option<&str>) {
        let epoch = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |age| age.as_secs());
        let mut line = format_line(epoch, scope, event, reference, detail);
        line.push('\n');
        if let Err(error) = self.append(line.as_bytes()) {
            // stderr, never stdout: stdout belongs to the MCP protocol.
            eprintln!(
                "torii: audit log {} not written: {error}",
                self.path.display()
            );
        }
    }

    fn append(&self, line: &[u8]) -> std::io::Result<()> {
        // A poisoned lock means a write panicked; the handle itself is still whole.
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        let current = std::fs::metadata(&self.path)
            .ok()
            .and_then(|metadata| FileIdentity::of(&metadata));
        let still_named =
            matches!((&*open, current), (Some(log), Some(now)) if log.identity == Some(now));
        if !still_named {
            *open = None;
            *open = Some(self.open_file()?);
        }
        match &mut *open {
            // One write of the whole line: O_APPEND keeps concurrent writers' lines whole.
            Some(log) => log.file.write_all(line),
            None => Err(std::io::Error::other("the audit log is not open")),
        }
    }

    fn open_file(&self) -> std::io::Result<OpenLog> {
        // A FIFO in place of the log must not stall a call.
        let file = crate::files::private_file_options()
            .create(true)
            .append(true)
            .open(&self.path)?;
        let metadata = file.metadata()?;
        if !metadata.is_file() {
            return Err(std::io::Error::other("is not a regular file"));
        }
        Ok(OpenLog {
            file,
            identity: FileIdentity::of(&metadata),
        })
    }
}

/// Which file a path names: device and inode on Unix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct FileIdentity {
    device: u64,
    inode: u64,
}

impl FileIdentity {
    #[cfg(unix)]
    fn of(metadata: &std::fs::Metadata) -> Option<Self> {
        use std::os::unix::fs::MetadataExt;
        Some(Self {
            device: metadata.dev(),
            inode: metadata.ino(),
        })
    }

    #[cfg(not(unix))]
    fn of(_metadata: &std::fs::Metadata) -> Option<Self> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_matches_the_book_format() {
        let reference = Reference::from_args(&["ec2", "describe-instances", "--region", "x"]);
        assert_eq!(
            format_line(1784000000, "aws", Event::AllowedByRules, &reference, None),
            "1784000000 | aws | allowed-by-rules | ec2 describe-instances"
        );
        assert_eq!(
            format_line(
                1784000003,
                "kubectl/dev",
                Event::Ran,
                &Reference::from_args(&["get", "pods"]),
                Some("exit=0")
            ),
            "1784000003 | kubectl/dev | ran | get pods | exit=0"
        );
        assert_eq!(
            format_line(1, "aws", Event::SessionOk, &Reference::none(), None),
            "1 | aws | session-ok | -"
        );
    }

    #[test]
    fn reference_keeps_at_most_two_arguments() {
        let reference = Reference::from_args(&["sql", "-q", "select secret from vault"]);
        let line = format_line(1, "snow", Event::Invoke, &reference, None);
        assert!(!line.contains("secret"), "{line}");
    }

    #[test]
    fn newlines_and_pipes_cannot_forge_columns_or_lines() {
        let reference = Reference::from_args(&["a|b\nc", "d\r\ne"]);
        let line = format_line(1, "p|q\n", Event::Invoke, &reference, Some("x|y\nz"));
        assert_eq!(line.matches(" | ").count(), 4, "{line}");
        assert!(!line.contains('\n') && !line.contains('\r'), "{line}");
    }

    /// Issue 33: the fullwidth bar passed through, a column separator to the eye.
    #[test]
    fn look_alikes_of_the_bar_cannot_forge_columns() {
        for bar in BARS {
            let token = format!("x {bar} allowed-by-rules {bar} y");
            let reference = Reference::from_args(&[&token]);
            let line = format_line(1, &token, Event::Invoke, &reference, Some(&token));
            assert!(!line.contains(&BARS[1..]), "{line}");
            assert_eq!(line.split(" | ").count(), 5, "{line}");
        }
    }

    /// Issue 11, finding 8: Unicode line separators and bidi controls passed through, so a
    /// Unicode-aware reader could see a forged line or a reordered one.
    #[test]
    fn unicode_separators_and_format_characters_cannot_forge_lines() {
        let forged = [
            "\u{2028}1 | aws | allowed-by-rules | x",
            "\u{2029}p",
            "\u{202E}reversed\u{202C}",
            "\u{2066}isolate\u{2069}",
            "\u{200B}zero\u{200D}width\u{FEFF}",
            "\u{0085}next-line",
            "\u{061C}arabic-mark",
            "\u{E000}private",
        ];
        for token in forged {
            let reference = Reference::from_args(&[token, token]);
            let line = format_line(1, token, Event::Invoke, &reference, Some(token));
            assert_eq!(line.matches(" | ").count(), 4, "{line:?}");
            let unsafe_char = line.chars().find(|c| crate::text::is_deceptive(*c));
            assert_eq!(unsafe_char, None, "{line:?}");
        }
        // Ordinary text in any script is kept.
        let reference = Reference::from_args(&["ação", "日本語"]);
        assert_eq!(
            format_line(1, "aws", Event::Invoke, &reference, None),
            "1 | aws | invoke | ação 日本語"
        );
    }

    #[test]
    fn long_tokens_are_clipped() {
        let long = "x".repeat(500);
        let line = format_line(
            1,
            "p",
            Event::Invoke,
            &Reference::from_args(&[long.as_str()]),
            None,
        );
        assert!(line.len() < 120, "{line}");
    }

    #[test]
    fn appends_lines_and_survives_unwritable_path() {
        let dir = tempfile::tempdir().unwrap();
        let log = AuditLog::new(dir.path().join("torii.log"));
        log.record(
            "aws",
            Event::Invoke,
            &Reference::from_args(&["s3", "ls"]),
            None,
        );
        log.record(
            "aws",
            Event::Ran,
            &Reference::from_args(&["s3", "ls"]),
            Some("exit=0"),
        );
        let text = std::fs::read_to_string(&log.path).unwrap();
        assert_eq!(text.lines().count(), 2);
        assert!(
            text.lines()
                .nth(1)
                .unwrap()
                .ends_with("| ran | s3 ls | exit=0")
        );
        // A directory where the file should be: the write fails, the caller goes on.
        AuditLog::new(dir.path()).record("aws", Event::Invoke, &Reference::none(), None);
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_in_place_of_the_log_never_blocks_a_call() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("torii.log");
        crate::files::make_fifo(&fifo);
        let log = AuditLog::new(&fifo);
        assert!(log.append(b"x\n").is_err());
        log.record("aws", Event::Invoke, &Reference::none(), None);
    }

    fn lines(path: &std::path::Path) -> Vec<String> {
        std::fs::read_to_string(path)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect()
    }

    /// The kept file is dropped when the path names another one: a log moved away or deleted
    /// by the operator gets the next line in a new file, and the moved file gets nothing more.
    #[test]
    fn a_rotated_or_deleted_log_is_opened_again() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("torii.log");
        let log = AuditLog::new(&path);
        let shared = log.clone();
        log.append(b"one\n").unwrap();
        shared.append(b"two\n").unwrap();
        std::fs::rename(&path, dir.path().join("torii.log.1")).unwrap();
        log.append(b"three\n").unwrap();
        assert_eq!(lines(&dir.path().join("torii.log.1")), ["one", "two"]);
        assert_eq!(lines(&path), ["three"]);

        std::fs::remove_file(&path).unwrap();
        shared.append(b"four\n").unwrap();
        assert_eq!(lines(&path), ["four"]);

        // A new file moved into place (logrotate's `create`): lines go to it.
        let fresh = dir.path().join("fresh");
        std::fs::write(&fresh, "header\n").unwrap();
        std::fs::rename(&fresh, &path).unwrap();
        log.append(b"five\n").unwrap();
        assert_eq!(lines(&path), ["header", "five"]);
    }

    /// Truncating in place keeps the file: lines go on at its new end.
    #[test]
    fn a_log_truncated_in_place_is_written_at_its_new_end() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("torii.log");
        let log = AuditLog::new(&path);
        log.append(b"one\n").unwrap();
        std::fs::File::create(&path).unwrap();
        log.append(b"two\n").unwrap();
        assert_eq!(lines(&path), ["two"]);
    }

    /// What replaces an open log is checked as at the first open: a FIFO or a directory is
    /// refused without blocking, and the old file gets nothing.
    #[cfg(unix)]
    #[test]
    fn what_replaces_an_open_log_is_checked_again() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("torii.log");
        let old = dir.path().join("old.log");
        let log = AuditLog::new(&path);
        log.append(b"one\n").unwrap();
        std::fs::rename(&path, &old).unwrap();
        crate::files::make_fifo(&path);
        assert!(log.append(b"two\n").is_err());
        std::fs::remove_file(&path).unwrap();
        std::fs::create_dir(&path).unwrap();
        assert!(log.append(b"three\n").is_err());
        assert_eq!(lines(&old), ["one"]);
    }
}
