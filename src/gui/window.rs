//! The drawing contract every window follows, which the shell (eframe) and the tests
//! (egui_kittest) both use.

use eframe::egui;

use crate::prompt::Answer;

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
