//! What every window shares: a decision with its brief feedback, and the drawing contract the
//! shell (eframe) and the tests (egui_kittest) both use.

use eframe::egui;

use crate::prompt::Answer;

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

/// One human window, drawn by the shell or a test harness.
pub trait Window {
    /// The native window's title.
    fn title(&self) -> String;
    /// Draws one frame at `now` (seconds: egui's input time, real in a window, simulated in
    /// tests) and returns the inner height the window would like, before clamping.
    fn ui(&mut self, ui: &mut egui::Ui, now: f64) -> f32;
    /// The answer once the human decided, and when.
    fn decided(&self) -> Option<(Answer, f64)>;
    /// The answer when the window is closed without a decision (deny, cancel).
    fn closed(&self) -> Answer;
}
