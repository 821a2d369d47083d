//! The `version` field shared by `provider.yaml` and `target.yaml`.
//!
//! Only version 1 exists. It is accepted as the string `"1"` or the number `1`; anything else
//! is a decoding error, so it carries the line of the offending value.

use serde::de::{self, Deserialize, Deserializer, Visitor};
use std::fmt;

/// The schema version of a provider or target file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Version {
    /// `version: "1"` (or `version: 1`).
    V1,
}

impl<'de> Deserialize<'de> for Version {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(VersionVisitor)
    }
}

struct VersionVisitor;

const EXPECTED: &str = "version \"1\"";

impl Visitor<'_> for VersionVisitor {
    type Value = Version;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str(EXPECTED)
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<Version, E> {
        match value {
            "1" => Ok(Version::V1),
            other => Err(E::custom(format!(
                "unsupported version {other:?}; expected \"1\""
            ))),
        }
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<Version, E> {
        match value {
            1 => Ok(Version::V1),
            other => Err(E::custom(format!(
                "unsupported version {other}; expected \"1\""
            ))),
        }
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<Version, E> {
        match value {
            1 => Ok(Version::V1),
            other => Err(E::custom(format!(
                "unsupported version {other}; expected \"1\""
            ))),
        }
    }
}
