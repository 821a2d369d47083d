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
        self.show(ui);
    }
}

impl Shell<'_> {
    /// One frame: the window, its height, and closing once the feedback has been read.
    fn show(&mut self, ui: &mut egui::Ui) {
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

#[cfg(test)]
mod tests {
    use eframe::egui::{Rect, ViewportCommand, ViewportId, pos2, vec2};
    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable;

    use super::Shell;
    use crate::gui::operation::{OperationWindow, labels};
    use crate::gui::widgets::{MIN_HEIGHT, WIDTH};
    use crate::prompt::OperationRequest;

    /// Height of the title bar the simulated window manager draws.
    const DECORATIONS: f32 = 28.0;

    /// The window manager's side: tells the window where it is, runs one frame, and applies
    /// the size and position the window asked for.
    fn frame(harness: &mut Harness<'_, Shell<'_>>, outer: &mut Rect) {
        let info = harness
            .input_mut()
            .viewports
            .entry(ViewportId::ROOT)
            .or_default();
        info.monitor_size = Some(vec2(1920.0, 1080.0));
        info.outer_rect = Some(*outer);
        info.inner_rect = Some(Rect::from_min_max(
            pos2(outer.min.x, outer.min.y + DECORATIONS),
            outer.max,
        ));
        harness.step();
        for command in &harness.output().viewport_output[&ViewportId::ROOT].commands {
            match command {
                ViewportCommand::InnerSize(size) => {
                    *outer = Rect::from_min_size(outer.min, vec2(size.x, size.y + DECORATIONS));
                }
                ViewportCommand::OuterPosition(position) => {
                    *outer = Rect::from_min_size(*position, outer.size());
                }
                _ => {}
            }
        }
    }

    /// The book: the window fits its height to the content and, as it grows or shrinks, keeps
    /// its centre where it was (and its width).
    #[test]
    fn the_window_keeps_its_centre_when_it_resizes() {
        crate::language::set_for_thread(crate::language::Language::English);
        let mut answer = None;
        let shell = Shell {
            window: Box::new(OperationWindow::new(OperationRequest {
                tool: "aws".into(),
                target: None,
                args: vec!["s3".into(), "ls".into()],
                default_grant_minutes: 2,
                oldest_grant_remaining_secs: None,
            })),
            answer: &mut answer,
            fitted_height: None,
            linger_secs: 0.0,
        };
        let mut harness = Harness::builder()
            .with_size(vec2(WIDTH, MIN_HEIGHT))
            .build_ui_state(|ui, shell: &mut Shell<'_>| shell.show(ui), shell);
        // Placed centred by the window manager, at the starting size.
        let mut outer =
            Rect::from_center_size(pos2(960.0, 540.0), vec2(WIDTH, MIN_HEIGHT + DECORATIONS));
        let mut heights = vec![outer.height()];
        for click in [
            None,
            Some(labels::TEMPORARILY),
            Some(labels::EXACT),
            Some(labels::PREFIX),
        ] {
            if let Some(label) = click {
                harness.get_by_label(&label.text()).click();
            }
            for _ in 0..3 {
                frame(&mut harness, &mut outer);
            }
            heights.push(outer.height());
            assert!(
                (outer.center() - pos2(960.0, 540.0)).length() < 1.0,
                "moved to {outer:?}"
            );
            assert_eq!(outer.width(), WIDTH);
        }
        heights.dedup();
        assert!(heights.len() >= 3, "the window did not resize: {heights:?}");
    }
}
