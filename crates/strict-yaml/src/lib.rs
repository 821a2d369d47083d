//! Strict, budgeted YAML decoding shared by every Torii file format.
//!
//! Every file Torii reads (rules, grants, providers, targets, settings, leases) is decoded
//! here so that all of them get the same guarantees: no panics, duplicate keys rejected,
//! only `true`/`false` as booleans, and hard budgets against alias bombs and deep nesting.
//! Errors carry the line and column so callers can name the file and the position.

use std::fmt;

use serde::de::DeserializeOwned;
use serde_saphyr::budget::BudgetBreach;
use serde_saphyr::options::AliasLimits;
use serde_saphyr::{Budget, DuplicateKeyPolicy, Options};

pub mod loose;

/// The span wrapper rules use to keep each entry's position.
pub use serde_saphyr::{Location, Spanned};

use crate::loose::Loose;

/// Where something is in a file: a 1-based line and, when known, a 1-based column. Every
/// message names it the same way, after the file: `file:line:column` (see [`Located`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Position {
    /// 1-based line.
    pub line: u64,
    /// 1-based column, when known.
    pub column: Option<u64>,
}

impl Position {
    /// The position of a decoder location; the decoder reports 0 for what it does not know.
    pub fn of(location: Location) -> Option<Position> {
        (location.line() > 0).then(|| Position {
            line: location.line(),
            column: (location.column() > 0).then(|| location.column()),
        })
    }
}

/// `line:column`, or `line` when the column is unknown.
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.column {
            Some(column) => write!(f, "{}:{column}", self.line),
            None => write!(f, "{}", self.line),
        }
    }
}

/// A file and, when known, a position in it, displayed `file:line:column` (`file:line`, or
/// `file` alone, with less known): the one way Torii names a place in a file.
#[derive(Debug, Clone, Copy)]
pub struct Located<F> {
    /// The file (a path's `display()`, a URL, a label).
    pub file: F,
    /// Where in it, when known.
    pub position: Option<Position>,
}

/// `file:line:column`: see [`Located`].
pub fn located<F: fmt::Display>(file: F, position: Option<Position>) -> Located<F> {
    Located { file, position }
}

impl<F: fmt::Display> fmt::Display for Located<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.position {
            Some(position) => write!(f, "{}:{position}", self.file),
            None => write!(f, "{}", self.file),
        }
    }
}

/// A YAML document that could not be decoded, with the position where it went wrong. The
/// message does not repeat the position: the caller names the file and the position with
/// [`located`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct YamlError {
    /// Where the decoder stopped, when it knows.
    pub position: Option<Position>,
    /// What went wrong, without a source snippet or a position.
    pub message: String,
}

/// Configuration files are small; these limits are far above any real policy (a 20,000-rule
/// `rules.yaml` uses about 20,000 events) and far below what would exhaust memory.
const MAX_ALIASES: usize = 1_000;
const MAX_ANCHORS: usize = 1_000;
const MAX_DEPTH: usize = 32;
const MAX_SCALAR_BYTES: usize = 32 * 1024 * 1024;

fn options() -> Options {
    let mut budget = Budget::default();
    budget.max_aliases = MAX_ALIASES;
    budget.max_anchors = MAX_ANCHORS;
    budget.max_documents = 1;
    budget.max_depth = MAX_DEPTH;
    budget.max_total_scalar_bytes = MAX_SCALAR_BYTES;
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
    serde_saphyr::from_str_with_options(text, options()).map_err(|error| YamlError {
        position: error.location().and_then(Position::of),
        message: match &error {
            serde_saphyr::Error::Budget { breach, .. } => over_budget(breach),
            _ => without_position(&first_line(&error.to_string())),
        },
    })
}

/// A budget breach as a sentence (the decoder prints its internal structure).
fn over_budget(breach: &BudgetBreach) -> String {
    match breach {
        BudgetBreach::Documents { .. } => {
            "a second YAML document starts here; the file must hold exactly one".to_string()
        }
        BudgetBreach::Depth { .. } => format!("nested deeper than {MAX_DEPTH} levels"),
        BudgetBreach::Aliases { .. } => format!("more than {MAX_ALIASES} aliases"),
        BudgetBreach::Anchors { .. } => format!("more than {MAX_ANCHORS} anchors"),
        BudgetBreach::ScalarBytes { .. } => {
            format!("more than {MAX_SCALAR_BYTES} bytes of text")
        }
        _ => "too large or too complex to decode".to_string(),
    }
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

/// Any YAML value, with where it was written, for a caller that judges the value itself so
/// that its error can name the field: `max_output_bytes: "100"` decodes, and the caller
/// refuses it with the field's name and the value's position.
#[derive(Debug, Clone, PartialEq)]
pub struct Value {
    value: Loose,
    /// Where the value is written, when known.
    pub position: Option<Position>,
}

impl Value {
    /// The value when it is a whole number written as a YAML number (never `"100"`, `1.5`
    /// or `-1`).
    pub fn whole_number(&self) -> Option<u64> {
        self.value.as_u64()
    }

    /// The value when it is a string (quoted or not).
    pub fn text(&self) -> Option<&str> {
        match &self.value {
            Loose::Text(text) => Some(text),
            _ => None,
        }
    }
}

/// What was written, for a message: `"x"` for a string, `-3`, `a list`.
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.value.fmt(f)
    }
}

impl<'de> serde::Deserialize<'de> for Value {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let spanned = <Spanned<Loose> as serde::Deserialize>::deserialize(deserializer)?;
        Ok(Value {
            position: Position::of(spanned.referenced),
            value: spanned.value,
        })
    }
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
            assert!(error.position.is_some(), "{text}: {error}");
        }
    }

    #[test]
    fn a_position_is_named_after_its_file_as_file_line_column() {
        let position = Position {
            line: 7,
            column: Some(3),
        };
        assert_eq!(position.to_string(), "7:3");
        assert_eq!(
            located("/r/provider.yaml", Some(position)).to_string(),
            "/r/provider.yaml:7:3"
        );
        let line_only = Position {
            line: 7,
            column: None,
        };
        assert_eq!(located("a.yaml", Some(line_only)).to_string(), "a.yaml:7");
        assert_eq!(located("a.yaml", None).to_string(), "a.yaml");
    }

    #[test]
    fn messages_do_not_repeat_the_position() {
        let error = from_str::<Judged>("knob: 3\nnope: 1\n").unwrap_err();
        assert_eq!(
            error.position,
            Some(Position {
                line: 2,
                column: Some(1)
            })
        );
        assert!(!error.message.contains("line"), "{error}");
        assert_eq!(error.to_string(), error.message);
    }

    #[test]
    fn a_second_document_is_refused_in_a_sentence() {
        let error = from_str::<Knobs>("count: 3\n---\ncount: 4\n").unwrap_err();
        assert_eq!(
            error.message,
            "a second YAML document starts here; the file must hold exactly one"
        );
        assert_eq!(error.position.map(|at| at.line), Some(2));
    }

    #[test]
    fn budget_breaches_are_sentences() {
        let deep = format!("knob: {}1{}\n", "[".repeat(40), "]".repeat(40));
        let error = from_str::<Judged>(&deep).unwrap_err();
        assert_eq!(error.message, "nested deeper than 32 levels", "{error:?}");
    }

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Judged {
        knob: Option<Value>,
    }

    #[test]
    fn a_value_keeps_what_was_written_and_where() {
        let judged: Judged = from_str("knob: \"x\"\n").unwrap();
        let knob = judged.knob.unwrap();
        assert_eq!(knob.whole_number(), None);
        assert_eq!(knob.text(), Some("x"));
        assert_eq!(knob.to_string(), "\"x\"");
        assert_eq!(
            knob.position,
            Some(Position {
                line: 1,
                column: Some(7)
            })
        );
        for (text, number) in [
            ("knob: 15\n", Some(15)),
            ("knob: -1\n", None),
            ("knob: 1.5\n", None),
        ] {
            let judged: Judged = from_str(text).unwrap();
            assert_eq!(judged.knob.unwrap().whole_number(), number, "{text}");
        }
        let judged: Judged = from_str("knob: [1]\n").unwrap();
        assert_eq!(judged.knob.unwrap().to_string(), "a list");
    }
}
