//! Parsing of `rules.yaml` into an uncompiled [`RulesFile`]: the version check, the two rule
//! lists and the optional `examples` block, with their positions. Checking each rule is
//! [`crate::Policy::compile`]'s job; checking the examples is [`crate::check_examples`]'s.

use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer, Visitor};
use strict_yaml::Spanned;

use crate::error::RulesError;
use crate::examples::{Example, Examples};
use strict_yaml::Position;

/// The rule lists of a `rules.yaml`, in file order, not yet compiled.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RulesFile {
    /// The `deny` list.
    pub deny: Vec<RuleSource>,
    /// The `accept` list.
    pub accept: Vec<RuleSource>,
    /// The optional `examples` block; not rules, never consulted by evaluation.
    pub examples: Examples,
}

/// One rule as written, with its position in `rules.yaml` when it came from a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleSource {
    /// The rule text exactly as written.
    pub text: String,
    /// Where the rule is written, when known.
    pub position: Option<Position>,
}

impl RuleSource {
    /// A rule without a file position (built in code rather than parsed).
    pub fn new(text: impl Into<String>) -> Self {
        RuleSource {
            text: text.into(),
            position: None,
        }
    }
}

impl RulesFile {
    /// Rule lists built in code, without file positions.
    pub fn new<D, A>(deny: D, accept: A) -> Self
    where
        D: IntoIterator,
        D::Item: Into<String>,
        A: IntoIterator,
        A::Item: Into<String>,
    {
        RulesFile {
            deny: deny.into_iter().map(RuleSource::new).collect(),
            accept: accept.into_iter().map(RuleSource::new).collect(),
            examples: Examples::default(),
        }
    }

    /// True when the file has neither denies nor accepts (everything is unresolved).
    pub fn is_empty(&self) -> bool {
        self.deny.is_empty() && self.accept.is_empty()
    }
}

/// Parses the text of a `rules.yaml`.
///
/// `version` may be `"1"`, `"1.0"`, `1` or `1.0`; when absent the file is read as version 1.
/// `deny` and `accept` are optional lists of strings (absent or null means empty). `examples`
/// is an optional mapping with the optional keys `allowed`, `denied` and `unresolved`, each a
/// list of argument vectors (lists of strings). Any other key is an error. An empty document is
/// an empty rules file (nothing is allowed).
pub fn parse_rules(text: &str) -> Result<RulesFile, RulesError> {
    let raw: RawRules = strict_yaml::from_str(text)?;
    if let Some(version) = raw.version
        && !version.value.is_supported()
    {
        return Err(RulesError::UnsupportedVersion {
            found: version.value.to_string(),
            position: Position::of(version.referenced),
        });
    }
    Ok(RulesFile {
        deny: sources(raw.deny),
        accept: sources(raw.accept),
        examples: raw
            .examples
            .map(RawExamples::into_examples)
            .unwrap_or_default(),
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRules {
    #[serde(default)]
    version: Option<Spanned<Version>>,
    #[serde(default)]
    deny: Option<Vec<Spanned<String>>>,
    #[serde(default)]
    accept: Option<Vec<Spanned<String>>>,
    #[serde(default)]
    examples: Option<RawExamples>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawExamples {
    #[serde(default)]
    allowed: Option<Vec<Spanned<Vec<String>>>>,
    #[serde(default)]
    denied: Option<Vec<Spanned<Vec<String>>>>,
    #[serde(default)]
    unresolved: Option<Vec<Spanned<Vec<String>>>>,
}

impl RawExamples {
    fn into_examples(self) -> Examples {
        let list = |examples: Option<Vec<Spanned<Vec<String>>>>| {
            examples
                .unwrap_or_default()
                .into_iter()
                .map(|example| Example {
                    position: Position::of(example.referenced),
                    args: example.value,
                })
                .collect()
        };
        Examples {
            allowed: list(self.allowed),
            denied: list(self.denied),
            unresolved: list(self.unresolved),
        }
    }
}

fn sources(list: Option<Vec<Spanned<String>>>) -> Vec<RuleSource> {
    list.unwrap_or_default()
        .into_iter()
        .map(|rule| RuleSource {
            position: Position::of(rule.referenced),
            text: rule.value,
        })
        .collect()
}

/// A `version` scalar as written: a string or a YAML number.
enum Version {
    Text(String),
    Unsigned(u64),
    Signed(i64),
    Float(f64),
}

impl Version {
    fn is_supported(&self) -> bool {
        match self {
            Version::Text(text) => text == "1" || text == "1.0",
            Version::Unsigned(number) => *number == 1,
            Version::Signed(number) => *number == 1,
            Version::Float(number) => *number == 1.0,
        }
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Version::Text(text) => write!(f, "{text:?}"),
            Version::Unsigned(number) => write!(f, "{number}"),
            Version::Signed(number) => write!(f, "{number}"),
            Version::Float(number) => write!(f, "{number}"),
        }
    }
}

impl<'de> Deserialize<'de> for Version {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(VersionVisitor)
    }
}

/// Accepts scalars only; sequences, mappings and booleans fall to serde's "invalid type" error.
struct VersionVisitor;

impl Visitor<'_> for VersionVisitor {
    type Value = Version;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a rules version such as \"1\"")
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<Version, E> {
        Ok(Version::Text(value.to_string()))
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<Version, E> {
        Ok(Version::Unsigned(value))
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<Version, E> {
        Ok(Version::Signed(value))
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<Version, E> {
        Ok(Version::Float(value))
    }
}
