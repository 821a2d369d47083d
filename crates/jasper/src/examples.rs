//! Policy you can test: the optional `examples` block of `rules.yaml` lists argument vectors
//! that must be allowed, denied or left unresolved, and [`check_examples`] evaluates each one
//! against a compiled [`Policy`]. Pure: the caller decides when to check (before applying an
//! edit, on `torii policy check --all`) and how to report.

use std::fmt;

use crate::decision::Decision;
use crate::policy::Policy;
use strict_yaml::Position;

/// The `examples` block: vectors grouped by the outcome the policy must give them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Examples {
    /// Vectors an accept rule must allow.
    pub allowed: Vec<Example>,
    /// Vectors a deny rule or `forbidden_args` must refuse.
    pub denied: Vec<Example>,
    /// Vectors no rule may decide (left to grants and a human).
    pub unresolved: Vec<Example>,
}

/// One argument vector, exactly as the agent would send it, with its position in the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Example {
    /// The arguments after the executable name.
    pub args: Vec<String>,
    /// Where the example is written, when known.
    pub position: Option<Position>,
}

impl Example {
    /// An example built in code, without a file position.
    pub fn new<I>(args: I) -> Self
    where
        I: IntoIterator,
        I::Item: Into<String>,
    {
        Example {
            args: args.into_iter().map(Into::into).collect(),
            position: None,
        }
    }
}

/// The outcome an example demands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Expectation {
    /// An accept rule allows it.
    Allowed,
    /// A deny rule or a forbidden argument refuses it.
    Denied,
    /// No rule decides it.
    Unresolved,
}

impl Expectation {
    /// The key of the `examples` block that holds this expectation.
    pub fn key(self) -> &'static str {
        match self {
            Expectation::Allowed => "allowed",
            Expectation::Denied => "denied",
            Expectation::Unresolved => "unresolved",
        }
    }

    /// Whether `decision` satisfies this expectation.
    pub fn is_met_by(self, decision: &Decision) -> bool {
        match self {
            Expectation::Allowed => decision.is_allowed(),
            Expectation::Denied => decision.is_denied(),
            Expectation::Unresolved => *decision == Decision::Unresolved,
        }
    }
}

impl fmt::Display for Expectation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

impl Examples {
    /// True when the block is absent or lists nothing.
    pub fn is_empty(&self) -> bool {
        self.allowed.is_empty() && self.denied.is_empty() && self.unresolved.is_empty()
    }

    /// How many examples there are in all.
    pub fn len(&self) -> usize {
        self.allowed.len() + self.denied.len() + self.unresolved.len()
    }

    /// Every example with its expectation and its index in its list, in the order
    /// allowed, denied, unresolved.
    pub fn iter(&self) -> impl Iterator<Item = (Expectation, usize, &Example)> {
        [
            (Expectation::Allowed, &self.allowed),
            (Expectation::Denied, &self.denied),
            (Expectation::Unresolved, &self.unresolved),
        ]
        .into_iter()
        .flat_map(|(expectation, examples)| {
            examples
                .iter()
                .enumerate()
                .map(move |(index, example)| (expectation, index, example))
        })
    }
}

/// An example the policy does not satisfy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// What the example demanded.
    pub expected: Expectation,
    /// 0-based position in its list (`examples.<expected>[index]`).
    pub index: usize,
    /// The example itself.
    pub example: Example,
    /// What the policy decided instead.
    pub decision: Decision,
}

/// What failed, without the position: the caller writes `file:line:column: ` before it, from
/// `example.position`.
impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "examples.{}[{}] {:?}: expected {}, but it is {}",
            self.expected,
            self.index,
            self.example.args,
            self.expected,
            self.decision.describe()
        )
    }
}

/// Evaluates every example against `policy` and returns those it does not satisfy, in the
/// order of [`Examples::iter`]. An empty result means every example holds.
pub fn check_examples(policy: &Policy, examples: &Examples) -> Vec<Failure> {
    examples
        .iter()
        .filter_map(|(expected, index, example)| {
            let decision = policy.evaluate(&example.args).decision;
            (!expected.is_met_by(&decision)).then(|| Failure {
                expected,
                index,
                example: example.clone(),
                decision,
            })
        })
        .collect()
}
