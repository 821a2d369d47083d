//! The native window (eframe, glow renderer): shows one [`Window`], keeps its width constant
//! and its height fitted to the content around the window's current centre, and closes a
//! moment after the decision so the feedback can be read.

use eframe::egui::{self, ViewportCommand, pos2, vec2};

use super::GuiError;
use super::widgets::{MAX_HEIGHT, MIN_HEIGHT, WIDTH};
use super::window::Window;
use crate::dialog::feedback::FEEDBACK_SECS;
use crate::prompt::Answer;

/// Shows `window` until the human decides or closes it; closing without a decision gives the
/// window's [`Window::closed`] answer (deny or cancel).
pub fn run(window: Box<dyn Window + '_>) -> Result<Answer, GuiError> {
    run_with(window, 0.0)
}

/// As [`run`], but the window stays open at least `linger_secs` after the decision (the
/// screenshot script uses it to capture the feedback).
pub fn run_with(window: Box<dyn Window + '_>, linger_secs: f64) -> Result<Answer, GuiError> {
    let fallback = window.closed();
    let viewport = egui::ViewportBuilder::default()
        .with_title(window.title())
        .with_app_id("torii-prompt")
        .with_inner_size([WIDTH, MIN_HEIGHT])
        .with_resizable(false)
        .with_active(true);
    let options = eframe::NativeOptions {
        viewport,
        centered: true,
        ..Default::default()
    };
    let mut answer = None;
    let app = Shell {
        window,
        answer: &mut answer,
        fitted_height: None,
        linger_secs,
    };
    eframe::run_native("torii-prompt", options, Box::new(|_| Ok(Box::new(app))))
        .map_err(|error| GuiError::Window(error.to_string()))?;
    Ok(answer.unwrap_or(fallback))
}

struct Shell<'a> {
    window: Box<dyn Window + 'a>,
    answer: &'a mut Option<Answer>,
    fitted_height: Option<f32>,
    linger_secs: f64,
}

impl eframe::App for Shell<'_> {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let now = ui.input(|input| input.time);
        let wanted = self.window.ui(ui, now);
        self.fit_height(ui.ctx(), wanted);
        if let Some((answer, at)) = self.window.decided() {
            *self.answer = Some(answer);
            let left = FEEDBACK_SECS.max(self.linger_secs) - (now - at);
            if left <= 0.0 {
                ui.ctx().send_viewport_cmd(ViewportCommand::Close);
            } else {
                ui.ctx()
                    .request_repaint_after(std::time::Duration::from_secs_f64(left));
            }
        }
    }
}

impl Shell<'_> {
    /// Resizes to the content's height (within bounds), keeping the width and the centre.
    fn fit_height(&mut self, ctx: &egui::Context, wanted: f32) {
        let max = ctx
            .input(|input| input.viewport().monitor_size)
            .map_or(MAX_HEIGHT, |monitor| MAX_HEIGHT.min(monitor.y * 0.9));
        let height = wanted.clamp(MIN_HEIGHT, max.max(MIN_HEIGHT)).ceil();
        if self
            .fitted_height
            .is_some_and(|fitted| (fitted - height).abs() < 1.0)
        {
            return;
        }
        let (outer, inner) = ctx.input(|input| {
            let viewport = input.viewport();
            (viewport.outer_rect, viewport.inner_rect)
        });
        ctx.send_viewport_cmd(ViewportCommand::InnerSize(vec2(WIDTH, height)));
        if let (Some(outer), Some(inner)) = (outer, inner) {
            // Grow or shrink around the current centre (window managers that place windows
            // themselves, as on Wayland, may ignore this).
            let decorations = outer.height() - inner.height();
            let top = outer.center().y - (height + decorations) / 2.0;
            ctx.send_viewport_cmd(ViewportCommand::OuterPosition(pos2(
                outer.min.x,
                top.max(0.0),
            )));
        }
        self.fitted_height = Some(height);
    }
}
