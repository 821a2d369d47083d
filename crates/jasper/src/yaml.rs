//! Strict, budgeted YAML decoding shared by every Torii file format.
//!
//! Every file Torii reads (rules, grants, providers, targets, settings, leases) is decoded
//! here so that all of them get the same guarantees: no panics, duplicate keys rejected,
//! only `true`/`false` as booleans, and hard budgets against alias bombs and deep nesting.
//! Errors carry the line and column so callers can name the file and the position.

use serde::de::DeserializeOwned;
use serde_saphyr::options::AliasLimits;
use serde_saphyr::{Budget, DuplicateKeyPolicy, Options};

/// A YAML document that could not be decoded, with the position where it went wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{message}", position_prefix(*line, *column))]
pub struct YamlError {
    /// 1-based line, when the decoder knows it.
    pub line: Option<u64>,
    /// 1-based column, when the decoder knows it.
    pub column: Option<u64>,
    /// What went wrong, without a source snippet (the caller adds the file name).
    pub message: String,
}

fn position_prefix(line: Option<u64>, column: Option<u64>) -> String {
    match (line, column) {
        (Some(line), Some(column)) => format!("line {line}, column {column}: "),
        (Some(line), None) => format!("line {line}: "),
        _ => String::new(),
    }
}

/// Configuration files are small; these limits are far above any real policy (a 20,000-rule
/// `rules.yaml` uses about 20,000 events) and far below what would exhaust memory.
fn options() -> Options {
    let mut budget = Budget::default();
    budget.max_aliases = 1_000;
    budget.max_anchors = 1_000;
    budget.max_documents = 1;
    budget.max_depth = 32;
    budget.max_total_scalar_bytes = 32 * 1024 * 1024;
    let mut alias_limits = AliasLimits::default();
    alias_limits.max_total_replayed_events = 100_000;
    alias_limits.max_replay_stack_depth = 16;
    let mut options = Options::default();
    options.budget = Some(budget);
    options.alias_limits = alias_limits;
    options.duplicate_keys = DuplicateKeyPolicy::Error;
    options.strict_booleans = true;
    options.with_snippet = false;
    options
}

/// Decodes one YAML document into `T`.
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, YamlError> {
    serde_saphyr::from_str_with_options(text, options()).map_err(|error| {
        let location = error.location();
        YamlError {
            line: location.map(|at| at.line()).filter(|line| *line > 0),
            column: location.map(|at| at.column()).filter(|column| *column > 0),
            message: without_position(&first_line(&error.to_string())),
        }
    })
}

/// The position is kept in structured fields; drop the decoder's own " at line L, column C".
fn without_position(message: &str) -> String {
    let message = match message.rfind(" at line ") {
        Some(index) => &message[..index],
        None => message,
    };
    // The decoder suggests relaxing its options; for a configuration file that is noise.
    match message.find(", set DuplicateKeyPolicy") {
        Some(index) => message[..index].to_string(),
        None => message.to_string(),
    }
}

/// serde-saphyr may render a multi-line report; the first line is the sentence users need.
fn first_line(text: &str) -> String {
    text.lines().next().unwrap_or(text).trim().to_string()
}

/// A field decoded with `#[serde(deserialize_with = "jasper::yaml::whole_number")]` must be
/// written as a YAML number. The decoder would otherwise also read the string `"100"` as 100,
/// so a value of the wrong type would pass unnoticed.
pub fn whole_number<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: TryFrom<u64>,
{
    let value = deserializer.deserialize_any(WholeNumber)?;
    T::try_from(value)
        .map_err(|_| serde::de::Error::custom(format!("{value} is too large for this platform")))
}

/// [`whole_number`] for an optional field (`#[serde(default, deserialize_with = …)]`).
pub fn optional_whole_number<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: TryFrom<u64>,
{
    whole_number(deserializer).map(Some)
}

struct WholeNumber;

impl serde::de::Visitor<'_> for WholeNumber {
    type Value = u64;

    fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        formatter.write_str("a whole number written without quotes")
    }

    fn visit_u64<E: serde::de::Error>(self, value: u64) -> Result<u64, E> {
        Ok(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    struct Knobs {
        #[serde(deserialize_with = "whole_number")]
        count: usize,
        #[serde(default, deserialize_with = "optional_whole_number")]
        limit: Option<u64>,
    }

    #[test]
    fn numbers_must_be_written_as_numbers() {
        let knobs: Knobs = from_str("count: 3\nlimit: 100\n").unwrap();
        assert_eq!((knobs.count, knobs.limit), (3, Some(100)));
        let knobs: Knobs = from_str("count: 0\n").unwrap();
        assert_eq!(knobs.limit, None);
        for text in [
            "count: \"3\"\n",
            "count: 3\nlimit: \"100\"\n",
            "count: '3'\n",
            "count: -1\n",
            "count: 1.5\n",
            "count: true\n",
        ] {
            let error = from_str::<Knobs>(text).unwrap_err();
            assert!(error.line.is_some(), "{text}: {error}");
        }
    }
}
