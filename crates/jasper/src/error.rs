//! Error types for every Jasper entry point. Messages name the field, rule or argument at fault;
//! the position in `rules.yaml`, when known, is data ([`RulesError::position`],
//! [`PolicyError::position`]) that the caller writes after the file name (`file:line:column`).

use std::fmt;

use strict_yaml::{Position, YamlError, located};

/// `rules.yaml` could not be read as a rules file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// Malformed YAML, a wrong type, an unknown field, or a decoder budget exceeded.
    #[error(transparent)]
    Yaml(#[from] YamlError),
    /// The `version` field names a format this engine does not understand.
    #[error("unsupported rules version {found} (supported: \"1\", \"1.0\")")]
    UnsupportedVersion {
        /// The version as written, quoted when it was a string.
        found: String,
        /// Where the `version` value is, when known.
        position: Option<Position>,
    },
}

impl RulesError {
    /// Where in `rules.yaml` the problem is, when known.
    pub fn position(&self) -> Option<Position> {
        match self {
            RulesError::Yaml(error) => error.position,
            RulesError::UnsupportedVersion { position, .. } => *position,
        }
    }
}

/// Which list of `rules.yaml` a rule belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RuleList {
    /// The `deny` list.
    Deny,
    /// The `accept` list.
    Accept,
}

impl fmt::Display for RuleList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RuleList::Deny => "deny",
            RuleList::Accept => "accept",
        })
    }
}

/// A policy that cannot be compiled. There is no partial policy: any error rejects all of it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PolicyError {
    /// One rule is empty or is an invalid regex.
    #[error("{list}[{index}]: {problem}")]
    Rule {
        /// The list holding the rule.
        list: RuleList,
        /// 0-based position of the rule in that list.
        index: usize,
        /// Where the rule is in `rules.yaml`, when known.
        position: Option<Position>,
        /// What is wrong with it.
        problem: RuleError,
    },
    /// The regex rules of one list compiled one by one but not as a set.
    #[error("{list}: the regex rules cannot be combined: {reason}")]
    RegexSet {
        /// The list whose regex rules failed.
        list: RuleList,
        /// The regex crate's explanation.
        reason: String,
    },
    /// An item of `forbidden_args`, `forbidden_value_prefixes` or `ignore_args.flags` is unusable.
    #[error("{field}[{index}]: {problem}")]
    Setting {
        /// `forbidden_args`, `forbidden_value_prefixes` or `ignore_args.flags`.
        field: &'static str,
        /// 0-based position of the item.
        index: usize,
        /// What is wrong with it.
        problem: SettingError,
    },
}

impl PolicyError {
    /// Where in `rules.yaml` the problem is, when known.
    pub fn position(&self) -> Option<Position> {
        match self {
            PolicyError::Rule { position, .. } => *position,
            PolicyError::RegexSet { .. } | PolicyError::Setting { .. } => None,
        }
    }
}

/// Why a single rule was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    /// The rule has no tokens; it would match everything.
    #[error("empty rule")]
    Empty,
    /// A rule starting with `/` has no second `/`.
    #[error("invalid regex {rule:?}: missing closing \"/\"")]
    MissingClosingSlash {
        /// The rule as written.
        rule: String,
    },
    /// Nothing between the slashes.
    #[error("invalid regex {rule:?}: empty pattern")]
    EmptyPattern {
        /// The rule as written.
        rule: String,
    },
    /// A flag outside `i`, `m`, `s`, `x`.
    #[error("invalid regex {rule:?}: unknown flag {flag:?} (allowed: i, m, s, x)")]
    UnknownFlag {
        /// The rule as written.
        rule: String,
        /// The offending flag.
        flag: char,
    },
    /// The same flag written twice.
    #[error("invalid regex {rule:?}: flag {flag:?} repeated")]
    RepeatedFlag {
        /// The rule as written.
        rule: String,
        /// The repeated flag.
        flag: char,
    },
    /// The regex crate refused the pattern.
    #[error("invalid regex {rule:?}: {reason}")]
    Syntax {
        /// The rule as written.
        rule: String,
        /// The regex crate's explanation.
        reason: String,
    },
    /// The compiled pattern would exceed the size limit.
    #[error("invalid regex {rule:?}: compiled size exceeds the limit of {limit} bytes")]
    TooLarge {
        /// The rule as written.
        rule: String,
        /// The limit in bytes.
        limit: usize,
    },
}

/// Why an item of the policy settings was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SettingError {
    /// An empty string would match every argument (or none, by accident).
    #[error("empty value")]
    Empty,
    /// Arguments are single tokens; a value with whitespace can never be one.
    #[error("{value:?} contains whitespace")]
    Whitespace {
        /// The value as written.
        value: String,
    },
}

/// A grant matcher that cannot be built from the requested arguments.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GrantMatcherError {
    /// A prefix must cover at least one token and at most all of them.
    #[error("prefix length {requested} is outside 1..={available}")]
    PrefixOutOfRange {
        /// The requested prefix length.
        requested: usize,
        /// How many arguments there are.
        available: usize,
    },
}

/// Something in a grants file that was refused. Refused content never authorizes a call.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GrantsIssue {
    /// The whole file is not valid YAML (or exceeds the decoder budgets).
    #[error("{}: not valid YAML: {}", located("grants file", .0.position), .0.message)]
    Malformed(YamlError),
    /// The whole file is in the legacy `epoch<TAB>rule` text format.
    #[error("grants file uses the legacy text format; its grants no longer authorize")]
    Legacy,
    /// The whole file has no `version`.
    #[error("grants file has no version (expected \"2\")")]
    MissingVersion,
    /// The whole file declares a version this engine does not understand.
    #[error("unsupported grants version {0} (expected \"2\")")]
    UnsupportedVersion(String),
    /// The whole file does not have the expected shape.
    #[error("grants file: {0}")]
    Structure(String),
    /// One entry is malformed; the other entries are still considered.
    #[error("grants entries[{index}]: {reason}")]
    Entry {
        /// 0-based position of the entry.
        index: usize,
        /// What is wrong with it.
        reason: String,
    },
}
