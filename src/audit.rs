//! The audit log, `<root>/torii.log`: one line per event,
//! `epoch | scope | event | short-rule | detail`.
//!
//! What may appear is decided here, not by callers: the reference is at most the first two
//! arguments of a call, every field has line breaks and `|` replaced, and there is no way to
//! pass environment, credentials, stdout or stderr. Writing is best-effort: a failed write is
//! reported on stderr and never stops a call.

use std::io::Write;
use std::path::{Path, PathBuf};
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

/// `|` becomes `¦`, and every character that could break a line or reorder a display (see
/// [`crate::text`]) becomes a space, so one event is always one line with exactly the expected
/// columns, in every reader and display.
fn sanitize(field: &str) -> String {
    crate::text::replace_deceptive(&field.replace('|', "¦"), " ")
}

/// Formats one audit line (without the trailing newline).
pub fn format_line(
    epoch: u64,
    scope: &str,
    event: Event,
    reference: &Reference,
    detail: Option<&str>,
) -> String {
    let reference = match sanitize(&reference.0).trim() {
        "" => "-".to_string(),
        text => text.to_string(),
    };
    let mut line = format!(
        "{epoch} | {} | {} | {reference}",
        sanitize(scope),
        event.as_str()
    );
    if let Some(detail) = detail {
        line.push_str(" | ");
        line.push_str(&sanitize(detail));
    }
    line
}

/// Appends events to the audit log of one config root.
#[derive(Debug, Clone)]
pub struct AuditLog {
    path: PathBuf,
}

impl AuditLog {
    pub fn new(path: impl Into<PathBuf>) -> Self {
        Self { path: path.into() }
    }

    pub fn path(&self) -> &Path {
        &self.path
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
        let mut options = std::fs::OpenOptions::new();
        options.create(true).append(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            // A FIFO in place of the log must not stall a call.
            options.mode(0o600).custom_flags(libc::O_NONBLOCK);
        }
        let mut file = options.open(&self.path)?;
        if !file.metadata()?.is_file() {
            return Err(std::io::Error::other("is not a regular file"));
        }
        // One write of the whole line: O_APPEND keeps concurrent writers' lines whole.
        file.write_all(line)
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
        let text = std::fs::read_to_string(log.path()).unwrap();
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
}
