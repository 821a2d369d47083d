//! What every question shares, in a window or at a terminal: a decision with its brief
//! feedback, and the status line.

/// Seconds the terminal feedback stays visible before the window closes.
pub const FEEDBACK_SECS: f64 = 1.2;

/// The colour of a feedback line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    /// Green: access allowed, session validated.
    Allow,
    /// Coral: denied, cancelled.
    Deny,
}

/// The line shown once the human decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Feedback {
    pub text: String,
    pub tone: Tone,
}

impl Feedback {
    pub fn allow(text: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            tone: Tone::Allow,
        }
    }

    pub fn deny(text: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            tone: Tone::Deny,
        }
    }
}

/// What a window's status bar shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    /// Neutral guidance.
    Info(String),
    /// Work in progress (a spinner is drawn).
    Progress(String),
    /// Something to fix (coral).
    Error(String),
    /// A terminal decision.
    Done(Feedback),
}

/// A decision and when it was made (UI clock, seconds).
#[derive(Debug, Clone, PartialEq)]
pub struct Decided<A> {
    pub answer: A,
    pub at: f64,
    pub feedback: Feedback,
}
