//! The `.target-authorizations.yaml` format, version 1:
//!
//! ```yaml
//! version: "1"
//! revision: 12
//! entries:
//!   - alias: "dev"
//!     binding_sha256: "<64 lowercase hex digits: SHA-256 of target.yaml>"
//!     expires_at: 1784000000
//! ```
//!
//! Decoding is strict (Jasper's YAML: duplicate keys and unknown fields refused) and refuses
//! the whole file on any bad entry: a lease file is never partly trusted.

use std::collections::BTreeSet;

use serde::Deserialize;

use super::LeaseEntry;
use crate::registry::check_name;

/// The only version this Torii reads and writes.
pub(super) const VERSION: &str = "1";

/// Far above any real state (one short entry per alias); keeps a stray file from being read
/// whole.
pub(super) const MAX_FILE_BYTES: u64 = 1024 * 1024;

/// Why a state file was refused, with the position when the YAML decoder knows it.
#[derive(Debug)]
pub(super) struct Problem {
    pub position: Option<strict_yaml::Position>,
    pub message: String,
}

impl Problem {
    fn at(field: String, message: impl std::fmt::Display) -> Self {
        Self {
            position: None,
            message: format!("field `{field}`: {message}"),
        }
    }
}

impl From<strict_yaml::YamlError> for Problem {
    fn from(error: strict_yaml::YamlError) -> Self {
        Self {
            position: error.position,
            message: error.message,
        }
    }
}

/// Read first, alone, so a future version is reported as such and not as unknown fields.
#[derive(Deserialize)]
struct Header {
    version: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawState {
    #[allow(dead_code)]
    version: String,
    #[serde(deserialize_with = "strict_yaml::whole_number")]
    revision: u64,
    entries: Vec<RawEntry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEntry {
    alias: String,
    binding_sha256: String,
    #[serde(deserialize_with = "strict_yaml::whole_number")]
    expires_at: u64,
}

/// The revision and entries of a version 1 state file, or why it is refused.
pub(super) fn decode(text: &str) -> Result<(u64, Vec<LeaseEntry>), Problem> {
    let header: Header = strict_yaml::from_str(text)?;
    match header.version.as_deref() {
        Some(VERSION) => {}
        Some(other) => {
            return Err(Problem::at(
                "version".into(),
                format!("unsupported version {other:?}; expected \"{VERSION}\""),
            ));
        }
        None => return Err(Problem::at("version".into(), "is missing")),
    }
    let raw: RawState = strict_yaml::from_str(text)?;
    let mut seen = BTreeSet::new();
    let mut entries = Vec::with_capacity(raw.entries.len());
    for (index, entry) in raw.entries.into_iter().enumerate() {
        let field = |name: &str| format!("entries[{index}].{name}");
        check_name(&entry.alias).map_err(|reason| Problem::at(field("alias"), reason))?;
        if !seen.insert(entry.alias.clone()) {
            return Err(Problem::at(
                field("alias"),
                format!("{:?} has more than one entry", entry.alias),
            ));
        }
        let digest = &entry.binding_sha256;
        let lowercase = !digest.bytes().any(|byte| byte.is_ascii_uppercase());
        if !(crate::digest::is_sha256_hex(digest) && lowercase) {
            return Err(Problem::at(
                field("binding_sha256"),
                "must be 64 lowercase hexadecimal digits",
            ));
        }
        entries.push(LeaseEntry {
            alias: entry.alias,
            binding_sha256: entry.binding_sha256,
            expires_at: entry.expires_at,
        });
    }
    Ok((raw.revision, entries))
}

/// The file text for a revision and its entries.
pub(super) fn encode(revision: u64, entries: &[LeaseEntry]) -> String {
    let mut text = format!("version: \"{VERSION}\"\nrevision: {revision}\n");
    if entries.is_empty() {
        text.push_str("entries: []\n");
        return text;
    }
    text.push_str("entries:\n");
    for entry in entries {
        // A JSON string is a valid YAML double-quoted scalar; aliases are plain names anyway,
        // and the round-trip test holds this writer to `decode`.
        let alias = serde_json::Value::from(entry.alias.as_str());
        text.push_str(&format!(
            "  - alias: {alias}\n    binding_sha256: \"{}\"\n    expires_at: {}\n",
            entry.binding_sha256, entry.expires_at
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::leases::state::test_entries::{DIGEST, entry};

    #[test]
    fn round_trips() {
        for entries in [
            vec![],
            vec![entry("dev", 1_784_000_000)],
            // Names YAML would otherwise read as numbers, booleans or null.
            vec![
                entry("1", 1),
                entry("1.5", 2),
                entry("null", 3),
                entry("true", 4),
                entry("-", u64::MAX),
            ],
        ] {
            let text = encode(42, &entries);
            let (revision, decoded) = decode(&text).unwrap();
            assert_eq!(revision, 42);
            assert_eq!(decoded, entries, "{text}");
        }
    }

    #[test]
    fn the_written_form_is_the_documented_one() {
        assert_eq!(
            encode(3, &[entry("dev", 10)]),
            format!(
                "version: \"1\"\nrevision: 3\nentries:\n  - alias: \"dev\"\n    \
                 binding_sha256: \"{DIGEST}\"\n    expires_at: 10\n"
            )
        );
        assert_eq!(encode(0, &[]), "version: \"1\"\nrevision: 0\nentries: []\n");
    }

    #[test]
    fn anything_else_is_refused_whole() {
        let good = format!("  - alias: dev\n    binding_sha256: {DIGEST}\n    expires_at: 9\n");
        let cases: Vec<(String, &str)> = vec![
            (String::new(), "version"),
            ("# nothing\n".into(), "version"),
            ("[]\n".into(), ""),
            ("version: \"1\"\n: :\n".into(), ""),
            (
                "version: \"2\"\nrevision: 1\nentries: []\n".into(),
                "unsupported version",
            ),
            ("revision: 1\nentries: []\n".into(), "version"),
            ("version: \"1\"\nentries: []\n".into(), "revision"),
            ("version: \"1\"\nrevision: 1\n".into(), "entries"),
            ("version: \"1\"\nrevision: -1\nentries: []\n".into(), ""),
            (
                "version: \"1\"\nrevision: \"1\"\nentries: []\n".into(),
                "without quotes",
            ),
            (
                "version: \"1\"\nrevision: 1\nentries: []\nextra: 1\n".into(),
                "extra",
            ),
            (
                "version: \"1\"\nrevision: 1\nrevision: 2\nentries: []\n".into(),
                "",
            ),
            (
                format!("version: \"1\"\nrevision: 1\nentries:\n{good}{good}"),
                "more than one",
            ),
            (
                format!(
                    "version: \"1\"\nrevision: 1\nentries:\n{}",
                    good.replace("dev", "a/b")
                ),
                "entries[0].alias",
            ),
            (
                format!(
                    "version: \"1\"\nrevision: 1\nentries:\n{}",
                    good.replace("dev", "..")
                ),
                "entries[0].alias",
            ),
            (
                format!(
                    "version: \"1\"\nrevision: 1\nentries:\n{}",
                    good.replace("0123", "ABCD")
                ),
                "binding_sha256",
            ),
            (
                format!(
                    "version: \"1\"\nrevision: 1\nentries:\n{}",
                    good.replace("0123", "")
                ),
                "binding_sha256",
            ),
            (
                format!(
                    "version: \"1\"\nrevision: 1\nentries:\n{}",
                    good.replace("9", "soon")
                ),
                "",
            ),
            (
                format!("version: \"1\"\nrevision: 1\nentries:\n{good}    note: x\n"),
                "note",
            ),
        ];
        for (text, needle) in cases {
            let problem = match decode(&text) {
                Ok(decoded) => panic!("accepted {text:?} as {decoded:?}"),
                Err(problem) => problem,
            };
            assert!(
                problem.message.contains(needle),
                "{text:?}: {}",
                problem.message
            );
        }
    }
}
