//! The audit log, `<root>/torii.log`: one line per event,
//! `epoch | scope | event | short-rule | detail`.
//!
//! What may appear is decided here, not by callers: the reference is at most the first two
//! arguments of a call, every field has line breaks and `|` replaced, and there is no way to
//! pass environment, credentials, stdout or stderr. Writing is best-effort: a failed write is
//! reported on stderr and never stops a call. Each line ends with its value in a hash chain
//! ([`chain`]), so that `torii audit verify` shows where the log was changed.

pub mod chain;
pub mod export;

use std::borrow::Cow;
use std::fmt::Write as _;
use std::fs::{File, TryLockError};
use std::io::Write;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

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
    line.push_str(&reference_column(reference));
    if let Some(detail) = detail {
        line.push_str(" | ");
        line.push_str(&sanitize(detail));
    }
    line
}

/// The short-rule column of `reference`: `-` when there is none.
fn reference_column(reference: &Reference) -> String {
    match sanitize(&reference.0).trim() {
        "" => "-".to_string(),
        text => text.to_string(),
    }
}

/// Appends events to the audit log of one config root.
///
/// The log and its chain head are kept open between events (clones share them) and opened
/// again when their path no longer names them: an operator who moves or deletes the log for
/// rotation gets the next line in a new file, chained to the last line of the old one, and
/// something else put in their place (a FIFO, a directory) is refused as at the first open.
/// Other processes writing the same root are safe: each line is chained and written while the
/// head is locked, and every line is one `O_APPEND` write.
#[derive(Debug, Clone)]
pub struct AuditLog {
    path: PathBuf,
    head_path: PathBuf,
    open: Arc<Mutex<Kept>>,
    /// Where each event also goes, if anywhere (see [`export`]).
    export: Option<Arc<export::Exporter>>,
}

#[derive(Debug, Default)]
struct Kept {
    log: Option<KeptFile>,
    head: Option<KeptFile>,
}

#[derive(Debug)]
struct KeptFile {
    /// Opened close-on-exec, as std always does, so no child inherits a way to write it.
    file: File,
    /// `None` where there is nothing to compare (not Unix): then every line opens the file.
    identity: Option<FileIdentity>,
}

/// How long a line waits for another process that holds the chain's head. Past it the line is
/// still written, chained to the head as read without the lock (a break `audit verify` will
/// show if the other process wrote meanwhile): losing an event would be worse.
const HEAD_PATIENCE: Duration = Duration::from_millis(100);

impl AuditLog {
    /// The log at `path`, chained through the head file at `head_path`.
    pub fn new(path: impl Into<PathBuf>, head_path: impl Into<PathBuf>) -> Self {
        Self {
            path: path.into(),
            head_path: head_path.into(),
            open: Arc::default(),
            export: None,
        }
    }

    /// The log of a config root, with the export its settings and environment configure.
    /// What cannot be used of the environment is said on stderr; export never stops Torii.
    pub fn of_root(root: &crate::paths::ConfigRoot, settings: &crate::settings::Settings) -> Self {
        let resolved = export::config::resolve(settings, |name| std::env::var(name).ok());
        for warning in &resolved.warnings {
            eprintln!("torii: {warning}");
        }
        let mut log = Self::new(root.audit_log(), root.audit_head());
        if !resolved.config.destinations.is_empty() {
            let exporter = export::Exporter::start(resolved.config, root.audit_export_state());
            log.export = (!exporter.is_empty()).then(|| Arc::new(exporter));
        }
        log
    }

    /// Sends what is still queued for export, waiting at most `wait`; later events are only
    /// written locally. The server calls it when its session ends.
    pub fn finish_export(&self, wait: Duration) {
        if let Some(exporter) = &self.export {
            exporter.finish(wait);
        }
    }

    /// Records one event. Never fails: audit is local observability, not a ledger.
    pub fn record(&self, scope: &str, event: Event, reference: &Reference, detail: Option<&str>) {
        let epoch = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |age| age.as_secs());
        let text = format_line(epoch, scope, event, reference, detail);
        match self.append(&text) {
            Ok((line, link)) => {
                if let Some(exporter) = &self.export {
                    let chain =
                        link.map_or_else(|| "-".to_string(), |link| link.as_str().to_string());
                    exporter.offer(&export::Record {
                        epoch,
                        scope: sanitize(scope).into_owned(),
                        event: event.as_str(),
                        reference: reference_column(reference),
                        detail: detail.map(|detail| sanitize(detail).into_owned()),
                        chain,
                        line,
                    });
                }
            }
            // stderr, never stdout: stdout belongs to the MCP protocol.
            Err(error) => eprintln!(
                "torii: audit log {} not written: {error}",
                self.path.display()
            ),
        }
    }

    /// Writes one line of `text` (already formatted) with its chain value; returns the line
    /// as written (without its newline) and that value.
    fn append(&self, text: &str) -> std::io::Result<(String, Option<chain::Link>)> {
        // A poisoned lock means a write panicked; the handles themselves are still whole.
        let mut kept = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        let Kept { log, head } = &mut *kept;
        // A head that cannot be used must not cost the log its line: the line is then written
        // without a chain value, which `audit verify` reports.
        let mut head = match current(head, &self.head_path, || open_head(&self.head_path)) {
            Ok(head) => Some(head),
            Err(error) => {
                eprintln!(
                    "torii: audit chain {} unusable ({error}): the line is written without a chain value",
                    self.head_path.display()
                );
                None
            }
        };
        // The head is locked before looking at which file the log's path names, so that two
        // servers cannot put lines into an old and a new file in another order than the
        // chain's while the log is rotated.
        let locked =
            head.as_deref()
                .is_some_and(|head| match lock_with_patience(head, Share::Exclusive) {
                    Ok(()) => true,
                    Err(error) => {
                        eprintln!("torii: audit chain {}: {error}", self.head_path.display());
                        false
                    }
                });
        let written = current(log, &self.path, || {
            crate::files::private_file_options()
                .create(true)
                .append(true)
                .open(&self.path)
        })
        .and_then(|log| match head.as_deref_mut() {
            Some(head) => chain_onto(log, head, text).map(|(line, link)| (line, Some(link))),
            None => log
                .write_all(format!("{text}\n").as_bytes())
                .map(|()| (text.to_string(), None)),
        });
        if let (true, Some(head)) = (locked, head) {
            let _ = head.unlock();
        }
        written
    }
}

/// The head file, opened for reading and writing: created owner-only, never through a
/// symbolic link (it would truncate what the link names), never blocking on a FIFO.
fn open_head(path: &std::path::Path) -> std::io::Result<File> {
    let mut options = crate::files::private_file_options();
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW);
    }
    options.create(true).read(true).write(true).open(path)
}

/// `path` opened for reading if it exists, refused unless it is a regular file (a FIFO must
/// not hang `audit verify`).
pub fn open_regular(path: &std::path::Path) -> std::io::Result<Option<File>> {
    let file = match crate::files::private_file_options().read(true).open(path) {
        Ok(file) => file,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(error),
    };
    if file.metadata()?.is_file() {
        Ok(Some(file))
    } else {
        Err(std::io::Error::other("is not a regular file"))
    }
}

/// Appends `text` to `log` chained to the value in `head`, then moves `head` on to it. The
/// head is read and rewritten in place at offset 0, one system call each (a call writes four
/// lines).
fn chain_onto(log: &mut File, head: &File, text: &str) -> std::io::Result<(String, chain::Link)> {
    let mut held = [0u8; HEAD_READ];
    // A head that cannot be read chains the line to the genesis: a break `audit verify`
    // shows, and the line is not lost.
    let length = read_at_start(head, &mut held).unwrap_or(0);
    let link = chain::head_link(&held[..length]).next(text);
    let mut line = chain::seal(text, &link);
    line.push('\n');
    // One write of the whole line: O_APPEND keeps concurrent writers' lines whole.
    log.write_all(line.as_bytes())?;
    let value = format!("{}\n", link.as_str());
    write_at_start(head, value.as_bytes())?;
    if length != value.len() {
        head.set_len(value.len() as u64)?;
    }
    line.pop();
    Ok((line, link))
}

/// Bytes of the head read: a value and its newline take 65; more is not a value.
const HEAD_READ: usize = 256;

/// Reads what `file` holds from its start into `buffer`, up to the buffer's length, in one
/// read: a regular file gives all it holds up to that length at once (a short read is its
/// end).
fn read_at_start(file: &File, buffer: &mut [u8]) -> std::io::Result<usize> {
    loop {
        #[cfg(unix)]
        let read = std::os::unix::fs::FileExt::read_at(file, buffer, 0);
        #[cfg(windows)]
        let read = std::os::windows::fs::FileExt::seek_read(file, buffer, 0);
        match read {
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
            read => return read,
        }
    }
}

/// Writes all of `bytes` at the start of `file`.
fn write_at_start(file: &File, bytes: &[u8]) -> std::io::Result<()> {
    #[cfg(unix)]
    return std::os::unix::fs::FileExt::write_all_at(file, bytes, 0);
    #[cfg(windows)]
    {
        let mut written = 0;
        while written < bytes.len() {
            match std::os::windows::fs::FileExt::seek_write(file, &bytes[written..], written as u64)
            {
                Ok(0) => return Err(std::io::ErrorKind::WriteZero.into()),
                Ok(count) => written += count,
                Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
                Err(error) => return Err(error),
            }
        }
        Ok(())
    }
}

/// The file kept in `slot` if `path` still names it, else `open()` checked as a regular file.
fn current<'a>(
    slot: &'a mut Option<KeptFile>,
    path: &std::path::Path,
    open: impl FnOnce() -> std::io::Result<File>,
) -> std::io::Result<&'a mut File> {
    let now = std::fs::metadata(path)
        .ok()
        .and_then(|metadata| FileIdentity::of(&metadata));
    let still_named =
        matches!((&*slot, now), (Some(kept), Some(now)) if kept.identity == Some(now));
    if !still_named {
        *slot = None;
        // A FIFO in place of the file must not stall a call: it is opened non-blocking.
        let file = open()?;
        let metadata = file.metadata()?;
        if !metadata.is_file() {
            return Err(std::io::Error::other("is not a regular file"));
        }
        *slot = Some(KeptFile {
            file,
            identity: FileIdentity::of(&metadata),
        });
    }
    match slot {
        Some(kept) => Ok(&mut kept.file),
        None => Err(std::io::Error::other("not open")),
    }
}

/// The log as it stood at one instant, for `torii audit verify`: its head, and how many bytes
/// of the log lead to it. Both are read under the head's lock, so lines written while the
/// log is being checked are not taken for lines beyond the head.
#[derive(Debug)]
pub struct Settled {
    pub head: chain::Head,
    /// `None`: there is no log (it was rotated and nothing was written since).
    pub log: Option<File>,
    pub length: u64,
}

impl Settled {
    pub fn read(root: &crate::paths::ConfigRoot) -> std::io::Result<Self> {
        let head = open_regular(&root.audit_head())?;
        if let Some(head) = &head {
            lock_with_patience(head, Share::Shared)?;
        }
        let log = open_regular(&root.audit_log())?;
        let length = match &log {
            Some(log) => log.metadata()?.len(),
            None => 0,
        };
        let head = match head {
            Some(mut head) => chain::Head::read(&mut head)?,
            None => chain::Head::Missing,
        };
        Ok(Self { head, log, length })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Share {
    Exclusive,
    Shared,
}

/// Takes the cross-process lock on the head, waiting at most [`HEAD_PATIENCE`].
fn lock_with_patience(head: &File, share: Share) -> std::io::Result<()> {
    let deadline = Instant::now() + HEAD_PATIENCE;
    loop {
        let taken = match share {
            Share::Exclusive => head.try_lock(),
            Share::Shared => head.try_lock_shared(),
        };
        match taken {
            Ok(()) => return Ok(()),
            Err(TryLockError::WouldBlock) if Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(2));
            }
            Err(TryLockError::WouldBlock) => {
                return Err(std::io::Error::other("held by another process"));
            }
            Err(TryLockError::Error(error)) => return Err(error),
        }
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
        let log = AuditLog::new(
            dir.path().join("torii.log"),
            dir.path().join(".audit-chain"),
        );
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
        let written = lines(&log.path);
        assert_eq!(written.len(), 2);
        assert!(
            written[1].ends_with("| ran | s3 ls | exit=0"),
            "{written:?}"
        );
        // A directory where the file should be: the write fails, the caller goes on.
        AuditLog::new(dir.path(), dir.path().join(".audit-chain")).record(
            "aws",
            Event::Invoke,
            &Reference::none(),
            None,
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_in_place_of_the_log_never_blocks_a_call() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("torii.log");
        crate::files::make_fifo(&fifo);
        let log = AuditLog::new(&fifo, dir.path().join(".audit-chain"));
        assert!(log.append("x").is_err());
        log.record("aws", Event::Invoke, &Reference::none(), None);
    }

    /// The text of each line, without its chain value.
    fn lines(path: &std::path::Path) -> Vec<String> {
        std::fs::read_to_string(path)
            .unwrap()
            .lines()
            .map(|line| {
                chain::split(line)
                    .map_or(line, |(text, _)| text)
                    .to_string()
            })
            .collect()
    }

    /// The kept file is dropped when the path names another one: a log moved away or deleted
    /// by the operator gets the next line in a new file, and the moved file gets nothing more.
    #[test]
    fn a_rotated_or_deleted_log_is_opened_again() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("torii.log");
        let log = AuditLog::new(&path, dir.path().join(".audit-chain"));
        let shared = log.clone();
        log.append("one").unwrap();
        shared.append("two").unwrap();
        std::fs::rename(&path, dir.path().join("torii.log.1")).unwrap();
        log.append("three").unwrap();
        assert_eq!(lines(&dir.path().join("torii.log.1")), ["one", "two"]);
        assert_eq!(lines(&path), ["three"]);

        std::fs::remove_file(&path).unwrap();
        shared.append("four").unwrap();
        assert_eq!(lines(&path), ["four"]);

        // A new file moved into place (logrotate's `create`): lines go to it.
        let fresh = dir.path().join("fresh");
        std::fs::write(&fresh, "header\n").unwrap();
        std::fs::rename(&fresh, &path).unwrap();
        log.append("five").unwrap();
        assert_eq!(lines(&path), ["header", "five"]);
    }

    /// Truncating in place keeps the file: lines go on at its new end.
    #[test]
    fn a_log_truncated_in_place_is_written_at_its_new_end() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("torii.log");
        let log = AuditLog::new(&path, dir.path().join(".audit-chain"));
        log.append("one").unwrap();
        std::fs::File::create(&path).unwrap();
        log.append("two").unwrap();
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
        let log = AuditLog::new(&path, dir.path().join(".audit-chain"));
        log.append("one").unwrap();
        std::fs::rename(&path, &old).unwrap();
        crate::files::make_fifo(&path);
        assert!(log.append("two").is_err());
        std::fs::remove_file(&path).unwrap();
        std::fs::create_dir(&path).unwrap();
        assert!(log.append("three").is_err());
        assert_eq!(lines(&old), ["one"]);
    }

    fn verify_root(dir: &std::path::Path, rotated: &[&str], continued: bool) -> chain::Report {
        let names = rotated.iter().copied().chain(["torii.log"]);
        // The last rotation may have left no new log.
        let names = names.filter(|name| dir.join(name).exists());
        let files = names.map(|name| chain::LogFile {
            path: dir.join(name),
            reader: File::open(dir.join(name)).unwrap(),
        });
        let head = chain::Head::read(&mut File::open(dir.join(".audit-chain")).unwrap()).unwrap();
        chain::verify(files, &head, continued).unwrap()
    }

    /// Every line is chained, across rotation, and the head follows the last line.
    #[test]
    fn lines_are_chained_across_rotation() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("torii.log");
        let log = AuditLog::new(&path, dir.path().join(".audit-chain"));
        log.append("one").unwrap();
        log.append("two").unwrap();
        std::fs::rename(&path, dir.path().join("torii.log.1")).unwrap();
        log.append("three").unwrap();
        let report = verify_root(dir.path(), &["torii.log.1"], false);
        assert_eq!(report.lines, 3);
        assert!(report.problems.is_empty(), "{report:?}");
        // The new file alone continues a chain begun elsewhere: whole only when said.
        let report = verify_root(dir.path(), &[], true);
        assert_eq!((report.lines, report.problems.len()), (1, 0), "{report:?}");
        let report = verify_root(dir.path(), &[], false);
        assert_eq!(report.problems.len(), 1, "{report:?}");
    }

    /// Writers with handles of their own (two servers of one root) take turns on the head,
    /// so their lines form one chain.
    /// `count` writers with handles of their own, each appending `lines` lines.
    fn writers(
        dir: &std::path::Path,
        count: usize,
        lines: usize,
    ) -> Vec<std::thread::JoinHandle<()>> {
        (0..count)
            .map(|n| {
                let log = AuditLog::new(dir.join("torii.log"), dir.join(".audit-chain"));
                std::thread::spawn(move || {
                    for line in 0..lines {
                        log.append(&format!("{n} {line}")).unwrap();
                    }
                })
            })
            .collect()
    }

    #[test]
    fn concurrent_writers_keep_one_chain() {
        let dir = tempfile::tempdir().unwrap();
        for writer in writers(dir.path(), 4, 50) {
            writer.join().unwrap();
        }
        let report = verify_root(dir.path(), &[], false);
        assert_eq!(report.lines, 200);
        assert!(report.problems.is_empty(), "{report:?}");
    }

    /// Red team: which file the log's path named was looked at before the head was locked, so
    /// while the log was rotated a line could go to the old file after others went to the new.
    #[test]
    fn concurrent_writers_keep_one_chain_across_rotation() {
        let dir = tempfile::tempdir().unwrap();
        let writing = writers(dir.path(), 3, 150);
        let mut rotated = Vec::new();
        for n in 1..=5 {
            std::thread::sleep(Duration::from_millis(3));
            let name = format!("torii.log.{n}");
            if std::fs::rename(dir.path().join("torii.log"), dir.path().join(&name)).is_ok() {
                rotated.push(name);
            }
        }
        for writer in writing {
            writer.join().unwrap();
        }
        let rotated: Vec<&str> = rotated.iter().map(String::as_str).collect();
        let report = verify_root(dir.path(), &rotated, false);
        assert_eq!(report.lines, 450);
        assert!(report.problems.is_empty(), "{report:?}");
    }

    /// A head held by another process past the patience delays the line but does not lose it.
    /// (On Windows the lock also keeps the head from being read and moved on: the line is
    /// written, and the write of the head is the error `record` reports.)
    #[test]
    fn a_held_head_does_not_lose_the_line() {
        let dir = tempfile::tempdir().unwrap();
        let log = AuditLog::new(
            dir.path().join("torii.log"),
            dir.path().join(".audit-chain"),
        );
        log.append("one").unwrap();
        let holder = File::open(dir.path().join(".audit-chain")).unwrap();
        holder.lock().unwrap();
        let appended = log.append("two");
        #[cfg(unix)]
        appended.unwrap();
        #[cfg(not(unix))]
        drop(appended);
        holder.unlock().unwrap();
        assert_eq!(lines(&dir.path().join("torii.log")), ["one", "two"]);
    }
}
