//! One temporary grant: an expiry and a matcher that is exact (every token, same count) or a
//! prefix (the first N tokens), stored as a fingerprint, never as argument text.

use std::fmt;

use crate::error::GrantMatcherError;
use crate::fingerprint::{Sha256Digest, fingerprint, to_hex};

/// How a grant compares the request's arguments.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GrantMode {
    /// The same tokens, in the same order, and no others.
    Exact,
    /// The same first `token_count` tokens; anything after them may change, vanish or be added.
    Prefix,
}

impl GrantMode {
    /// The name used in grants files: `exact` or `prefix`.
    pub fn as_str(self) -> &'static str {
        match self {
            GrantMode::Exact => "exact",
            GrantMode::Prefix => "prefix",
        }
    }
}

impl fmt::Display for GrantMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which argument vectors a grant covers, as a mode, a token count and a fingerprint.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct GrantMatcher {
    mode: GrantMode,
    token_count: usize,
    sha256: Sha256Digest,
}

impl GrantMatcher {
    /// Covers exactly `args`: same tokens, same order, same count. An empty vector yields a
    /// matcher that matches nothing (and that a grants file would reject).
    pub fn exact(args: &[String]) -> GrantMatcher {
        GrantMatcher {
            mode: GrantMode::Exact,
            token_count: args.len(),
            sha256: fingerprint(args),
        }
    }

    /// Covers every vector starting with the first `n` tokens of `args`, `n` in `1..=len`.
    pub fn prefix(args: &[String], n: usize) -> Result<GrantMatcher, GrantMatcherError> {
        match args.get(..n) {
            Some(head) if n >= 1 => Ok(GrantMatcher {
                mode: GrantMode::Prefix,
                token_count: n,
                sha256: fingerprint(head),
            }),
            _ => Err(GrantMatcherError::PrefixOutOfRange {
                requested: n,
                available: args.len(),
            }),
        }
    }

    /// A matcher read from a grants file; the caller has checked `token_count >= 1`.
    pub(crate) fn from_parts(mode: GrantMode, token_count: usize, sha256: Sha256Digest) -> Self {
        GrantMatcher {
            mode,
            token_count,
            sha256,
        }
    }

    /// Exact or prefix.
    pub fn mode(&self) -> GrantMode {
        self.mode
    }

    /// All tokens for an exact matcher, the first N for a prefix.
    pub fn token_count(&self) -> usize {
        self.token_count
    }

    /// How a call allowed by this grant names its rule (audit, answers): `prefix grant on 2
    /// tokens`. Never the tokens themselves.
    pub fn rule_text(&self) -> String {
        format!(
            "{} grant on {} tokens",
            self.mode().as_str(),
            self.token_count
        )
    }

    /// The fingerprint as 64 lowercase hex digits.
    pub fn sha256_hex(&self) -> String {
        to_hex(&self.sha256)
    }

    /// Whether `args` (the raw request, as it would run) is covered. Never an empty vector.
    pub fn matches(&self, args: &[String]) -> bool {
        if self.token_count == 0 {
            return false;
        }
        let covered = match self.mode {
            GrantMode::Exact if args.len() == self.token_count => args,
            GrantMode::Prefix => match args.get(..self.token_count) {
                Some(head) => head,
                None => return false,
            },
            GrantMode::Exact => return false,
        };
        fingerprint(covered) == self.sha256
    }
}

/// The longest a temporary grant lasts: 1,440 minutes.
pub const MAX_GRANT_SECONDS: u64 = 1440 * 60;

/// A grant with its expiry in seconds since the Unix epoch.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct GrantEntry {
    /// The grant is expired once `now >= expires_at`, and never trusted when `expires_at` lies
    /// more than [`MAX_GRANT_SECONDS`] ahead (see [`GrantEntry::is_expired`]).
    pub expires_at: u64,
    /// What it covers.
    pub matcher: GrantMatcher,
}

impl GrantEntry {
    /// A grant for `matcher` until `expires_at`.
    pub fn new(expires_at: u64, matcher: GrantMatcher) -> GrantEntry {
        GrantEntry {
            expires_at,
            matcher,
        }
    }

    /// True once `now_epoch_secs >= expires_at`, and for a grant that claims to last longer
    /// than any grant Torii writes ([`MAX_GRANT_SECONDS`] from now): a hand-edited expiry such
    /// as `18446744073709551615` is refused rather than clamped, because a limit counted from
    /// "now" would move forward with every read and never end.
    pub fn is_expired(&self, now_epoch_secs: u64) -> bool {
        self.expires_at <= now_epoch_secs
            || self.expires_at.saturating_sub(now_epoch_secs) > MAX_GRANT_SECONDS
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 11, finding 12: a grant with `expires_at: 18446744073709551615` was active forever.
    #[test]
    fn a_grant_beyond_the_longest_duration_is_never_active() {
        let matcher = GrantMatcher::exact(&["get".to_string()]);
        let now = 1_784_000_000;
        for (expires_at, expired) in [
            (now, true),
            (now + 1, false),
            (now + MAX_GRANT_SECONDS, false),
            (now + MAX_GRANT_SECONDS + 1, true),
            (now + 86_400, false),
            (now + 86_401, true),
            (u64::MAX, true),
        ] {
            let entry = GrantEntry::new(expires_at, matcher.clone());
            assert_eq!(entry.is_expired(now), expired, "{expires_at}");
        }
    }

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|item| item.to_string()).collect()
    }

    #[test]
    fn prefix_length_must_be_within_the_arguments() {
        let args = strings(&["get", "pods"]);
        assert!(GrantMatcher::prefix(&args, 0).is_err());
        assert!(GrantMatcher::prefix(&args, 3).is_err());
        assert!(GrantMatcher::prefix(&[], 1).is_err());
        assert_eq!(GrantMatcher::prefix(&args, 2).unwrap().token_count(), 2);
    }

    #[test]
    fn empty_exact_matcher_matches_nothing() {
        let matcher = GrantMatcher::exact(&[]);
        assert!(!matcher.matches(&[]));
        assert!(!matcher.matches(&strings(&["x"])));
    }

    #[test]
    fn a_grant_names_its_mode_and_width_but_no_token() {
        let args = strings(&["s3", "rm", "s3://secret-bucket"]);
        let prefix = GrantMatcher::prefix(&args, 2).unwrap();
        assert_eq!(prefix.rule_text(), "prefix grant on 2 tokens");
        assert_eq!(
            GrantMatcher::exact(&args).rule_text(),
            "exact grant on 3 tokens"
        );
    }

    #[test]
    fn expiry_is_inclusive() {
        let entry = GrantEntry::new(100, GrantMatcher::exact(&strings(&["x"])));
        assert!(!entry.is_expired(99));
        assert!(entry.is_expired(100));
    }
}
