//! The version 2 grants file: reading it fail-closed (nothing refused ever authorizes),
//! finding an active grant for a request, and writing the file back.

use crate::error::GrantsIssue;
use crate::fingerprint::from_hex;
use crate::grant::{GrantEntry, GrantMatcher, GrantMode};
use strict_yaml::loose::Loose;

/// The grants of one scope, plus what was refused while reading them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Grants {
    entries: Vec<GrantEntry>,
    issues: Vec<GrantsIssue>,
}

impl Grants {
    /// No grants.
    pub fn empty() -> Grants {
        Grants::default()
    }

    /// Reads a grants file. Never fails: a file that is not a version 2 grants file yields no
    /// entries and one issue; a malformed entry is left out with an issue naming it. An empty
    /// document is an empty grants file.
    pub fn parse(text: &str) -> Grants {
        let mut issues = Vec::new();
        let entries = read(text, &mut issues).unwrap_or_default();
        Grants { entries, issues }
    }

    /// The accepted entries, in file order.
    pub fn entries(&self) -> &[GrantEntry] {
        &self.entries
    }

    /// What was refused while reading, for the caller to audit. Empty for a clean file.
    pub fn issues(&self) -> &[GrantsIssue] {
        &self.issues
    }

    /// The first unexpired entry covering `args` (the raw request, as it would run).
    pub fn find(&self, args: &[String], now_epoch_secs: u64) -> Option<&GrantEntry> {
        self.entries
            .iter()
            .find(|entry| !entry.is_expired(now_epoch_secs) && entry.matcher.matches(args))
    }

    /// Adds an entry at the end.
    pub fn push(&mut self, entry: GrantEntry) {
        self.entries.push(entry);
    }

    /// Drops expired entries and returns how many were dropped.
    pub fn prune_expired(&mut self, now_epoch_secs: u64) -> usize {
        let before = self.entries.len();
        self.entries
            .retain(|entry| !entry.is_expired(now_epoch_secs));
        before - self.entries.len()
    }

    /// The file text for the accepted entries. Refused content is not written back.
    pub fn to_yaml(&self) -> String {
        // Only enums, integers and hex digits are written, so no value needs quoting or
        // escaping; the round-trip test holds this writer to `Grants::parse`.
        let mut text = String::from("version: \"2\"\n");
        if self.entries.is_empty() {
            text.push_str("entries: []\n");
            return text;
        }
        text.push_str("entries:\n");
        for entry in &self.entries {
            let matcher = &entry.matcher;
            text.push_str(&format!(
                "  - expires_at: {}\n    matcher:\n      mode: {}\n      token_count: {}\n      sha256: {}\n",
                entry.expires_at,
                matcher.mode(),
                matcher.token_count(),
                matcher.sha256_hex(),
            ));
        }
        text
    }
}

/// The entries of a well-formed file; `None` (with an issue) when the whole file is refused.
fn read(text: &str, issues: &mut Vec<GrantsIssue>) -> Option<Vec<GrantEntry>> {
    if is_legacy(text) {
        issues.push(GrantsIssue::Legacy);
        return None;
    }
    let document = match strict_yaml::from_str::<Loose>(text) {
        Ok(document) => document,
        Err(error) => {
            issues.push(GrantsIssue::Malformed(error));
            return None;
        }
    };
    if document == Loose::Null {
        return Some(Vec::new());
    }
    if let Err(issue) = check_header(&document) {
        issues.push(issue);
        return None;
    }
    let list = match document.get("entries") {
        None | Some(Loose::Null) => return Some(Vec::new()),
        Some(Loose::List(list)) => list,
        Some(other) => {
            issues.push(GrantsIssue::Structure(format!(
                "entries must be a list, found {other}"
            )));
            return None;
        }
    };
    let mut entries = Vec::with_capacity(list.len());
    for (index, item) in list.iter().enumerate() {
        match entry(item) {
            Ok(entry) => entries.push(entry),
            Err(reason) => issues.push(GrantsIssue::Entry { index, reason }),
        }
    }
    Some(entries)
}

/// The legacy format was lines of `epoch<TAB>rule`: flattened argument text.
fn is_legacy(text: &str) -> bool {
    let Some(first) = text.lines().find(|line| !line.trim().is_empty()) else {
        return false;
    };
    let digits = first.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && first.as_bytes().get(digits) == Some(&b'\t')
}

fn check_header(document: &Loose) -> Result<(), GrantsIssue> {
    if !matches!(document, Loose::Map(_)) {
        return Err(GrantsIssue::Structure(format!(
            "expected a mapping with version and entries, found {document}"
        )));
    }
    if let Some(key) = document.unknown_key(&["version", "entries"]) {
        return Err(GrantsIssue::Structure(format!("unknown field {key}")));
    }
    match document.get("version") {
        None | Some(Loose::Null) => Err(GrantsIssue::MissingVersion),
        Some(Loose::Text(version)) if version == "2" => Ok(()),
        Some(version) if version.as_u64() == Some(2) => Ok(()),
        Some(other) => Err(GrantsIssue::UnsupportedVersion(other.to_string())),
    }
}

fn entry(item: &Loose) -> Result<GrantEntry, String> {
    if !matches!(item, Loose::Map(_)) {
        return Err(format!("expected a mapping, found {item}"));
    }
    if let Some(key) = item.unknown_key(&["expires_at", "matcher"]) {
        return Err(format!("unknown field {key}"));
    }
    let expires_at = match item.get("expires_at") {
        None | Some(Loose::Null) => return Err("missing expires_at".into()),
        Some(value) => value
            .as_u64()
            .ok_or_else(|| format!("expires_at must be whole epoch seconds, found {value}"))?,
    };
    let matcher = match item.get("matcher") {
        Some(matcher @ Loose::Map(_)) => matcher,
        None | Some(Loose::Null) => return Err("missing matcher".into()),
        Some(other) => return Err(format!("matcher must be a mapping, found {other}")),
    };
    Ok(GrantEntry::new(expires_at, grant_matcher(matcher)?))
}

fn grant_matcher(matcher: &Loose) -> Result<GrantMatcher, String> {
    if let Some(key) = matcher.unknown_key(&["mode", "token_count", "sha256"]) {
        return Err(format!("matcher: unknown field {key}"));
    }
    let mode = match matcher.get("mode") {
        Some(Loose::Text(mode)) if mode == "exact" => GrantMode::Exact,
        Some(Loose::Text(mode)) if mode == "prefix" => GrantMode::Prefix,
        None | Some(Loose::Null) => return Err("matcher: missing mode".into()),
        Some(other) => {
            return Err(format!(
                "matcher.mode must be \"exact\" or \"prefix\", found {other}"
            ));
        }
    };
    let token_count = match matcher.get("token_count") {
        None | Some(Loose::Null) => return Err("matcher: missing token_count".into()),
        Some(value) => value
            .as_u64()
            .filter(|count| *count >= 1)
            .and_then(|count| usize::try_from(count).ok()),
    };
    let Some(token_count) = token_count else {
        return Err("matcher.token_count must be a whole number of at least 1".into());
    };
    let sha256 = match matcher.get("sha256") {
        Some(Loose::Text(hex)) => from_hex(hex),
        None | Some(Loose::Null) => return Err("matcher: missing sha256".into()),
        Some(_) => None,
    };
    let Some(sha256) = sha256 else {
        return Err("matcher.sha256 must be 64 lowercase hex digits".into());
    };
    Ok(GrantMatcher::from_parts(mode, token_count, sha256))
}
