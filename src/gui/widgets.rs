//! Drawing pieces the three windows share: the window skeleton (scrolling body, fixed controls
//! and footer), pills, the summary box, feedback and status bars, and the hold button.

use eframe::egui::{
    self, Align, Color32, CornerRadius, Frame, Layout, Margin, RichText, ScrollArea, Stroke, Ui,
    vec2,
};

pub use crate::dialog::feedback::Status;
use crate::dialog::feedback::{Feedback, Tone};

/// Constant window width (logical points).
pub const WIDTH: f32 = 600.0;
/// The window never grows beyond this; past it, the body scrolls.
pub const MAX_HEIGHT: f32 = 680.0;
/// Nor shrinks below this.
pub const MIN_HEIGHT: f32 = 160.0;

/// Coral: deny and cancel.
pub const CORAL: Color32 = Color32::from_rgb(0xE0, 0x5A, 0x47);
/// Green: allow and validated.
pub const GREEN: Color32 = Color32::from_rgb(0x2E, 0x8B, 0x57);
/// Amber: warnings (Add leaves several targets active).
pub const AMBER: Color32 = Color32::from_rgb(0xB7, 0x79, 0x1F);

const MARGIN: Margin = Margin::symmetric(16, 10);

/// Lays out a window, top to bottom: `body` in a scroll area, then `controls` and `footer`
/// (summary, actions, status). The body's height is capped so that the controls and the footer
/// always fit below it: they are never scrolled away and never drawn under each other. Returns
/// the inner height that shows everything without scrolling.
///
/// `edits` is handed to each part in turn, so all three can record the human's input.
///
/// The height below the body is measured on every pass and kept for the next one; when it
/// changes, the pass is redrawn at once, so no frame shows a clipped footer. (egui's side panels
/// would size themselves from the previous frame and put a click on a moved widget's old place.)
pub fn skeleton<E>(
    ui: &mut Ui,
    edits: &mut E,
    body: impl FnOnce(&mut Ui, &mut E),
    controls: impl FnOnce(&mut Ui, &mut E),
    footer: impl FnOnce(&mut Ui, &mut E),
) -> f32 {
    // eframe hands over a bare surface: paint the window's background (text fields, drawn in
    // the darker "extreme" colour, would be invisible on the clear colour).
    ui.painter()
        .rect_filled(ui.max_rect(), CornerRadius::ZERO, ui.visuals().panel_fill);
    let memory = ui.scope_id().with("torii-bottom-height");
    let reserved: f32 = ui.data(|data| data.get_temp(memory)).unwrap_or(0.0);
    let (body_height, bottom_height) = Frame::new()
        .inner_margin(MARGIN)
        .show(ui, |ui| {
            let body_max = (ui.available_height() - reserved).max(MIN_BODY_HEIGHT);
            let body_height = ScrollArea::vertical()
                .max_height(body_max)
                .auto_shrink([false, true])
                .show(ui, |ui| {
                    ui.set_width(ui.available_width());
                    body(ui, edits);
                })
                .content_size
                .y;
            let top = ui.cursor().top();
            ui.separator();
            let before_controls = ui.cursor().top();
            controls(ui, edits);
            if ui.cursor().top() > before_controls {
                ui.separator();
            }
            footer(ui, edits);
            (body_height, ui.min_rect().bottom() - top)
        })
        .inner;
    if (bottom_height - reserved).abs() > 0.5 {
        ui.data_mut(|data| data.insert_temp(memory, bottom_height));
        ui.ctx().request_discard("the footer changed height");
    }
    let margins = f32::from(MARGIN.top + MARGIN.bottom);
    body_height + bottom_height + margins
}

/// The body never shrinks below this, even in a small window.
const MIN_BODY_HEIGHT: f32 = 60.0;

/// How a pill looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PillKind {
    /// An argument shown as is.
    Plain,
    /// An argument a prefix fixes.
    Fixed,
    /// An argument after the prefix boundary.
    Variable,
}

/// One argument as a pill; returns whether it was clicked (long pills open their review).
pub fn pill(ui: &mut Ui, text: &str, kind: PillKind, hover: Option<&str>) -> bool {
    let visuals = ui.visuals();
    let (fill, stroke, color) = match kind {
        PillKind::Plain => (
            visuals.extreme_bg_color,
            visuals.widgets.noninteractive.bg_stroke,
            visuals.text_color(),
        ),
        PillKind::Fixed => (
            visuals.selection.bg_fill.gamma_multiply(0.35),
            Stroke::new(1.0, visuals.selection.bg_fill),
            visuals.strong_text_color(),
        ),
        PillKind::Variable => (
            visuals.extreme_bg_color,
            Stroke::new(1.0, visuals.weak_text_color()),
            visuals.weak_text_color(),
        ),
    };
    let button = egui::Button::new(RichText::new(text).monospace().color(color))
        .fill(fill)
        .stroke(stroke)
        .corner_radius(CornerRadius::same(10));
    let response = ui.add(button);
    let response = match hover {
        Some(hover) => response.on_hover_text(hover),
        None => response,
    };
    response.clicked()
}

/// The marker that a prefix also admits arguments added later.
pub fn future_arguments_marker(ui: &mut Ui) {
    Frame::new()
        .stroke(Stroke::new(1.0, ui.visuals().weak_text_color()))
        .corner_radius(CornerRadius::same(10))
        .inner_margin(Margin::symmetric(8, 3))
        .show(ui, |ui| {
            ui.label(
                RichText::new(crate::tr!("future-arguments"))
                    .italics()
                    .weak(),
            );
        });
}

/// A titled group of content.
pub fn group_title(ui: &mut Ui, title: &str, note: &str) {
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new(title).strong());
        if !note.is_empty() {
            ui.label(RichText::new(note).weak());
        }
    });
}

/// The highlighted summary above the actions.
pub fn summary(ui: &mut Ui, text: &str) {
    let accent = ui.visuals().selection.bg_fill;
    Frame::new()
        .fill(accent.gamma_multiply(0.18))
        .stroke(Stroke::new(1.0, accent))
        .corner_radius(CornerRadius::same(6))
        .inner_margin(Margin::symmetric(10, 8))
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            ui.label(RichText::new(text).strong());
        });
}

/// A full-width alert (amber).
pub fn alert(ui: &mut Ui, text: &str) {
    Frame::new()
        .fill(AMBER.gamma_multiply(0.25))
        .stroke(Stroke::new(1.5, AMBER))
        .corner_radius(CornerRadius::same(6))
        .inner_margin(Margin::symmetric(10, 8))
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            ui.label(RichText::new(format!("⚠ {text}")).strong());
        });
}

/// Height of the feedback and status bars: fixed, so changing state never moves the layout.
pub const BAR_HEIGHT: f32 = 30.0;

/// A full-width bar of fixed height.
pub fn status_bar(ui: &mut Ui, status: &Status) {
    let (fill, text_color) = match status {
        Status::Info(_) | Status::Progress(_) => {
            (ui.visuals().extreme_bg_color, ui.visuals().text_color())
        }
        Status::Error(_) => (CORAL.gamma_multiply(0.22), ui.visuals().strong_text_color()),
        Status::Done(Feedback {
            tone: Tone::Deny, ..
        }) => (CORAL, Color32::WHITE),
        Status::Done(Feedback {
            tone: Tone::Allow, ..
        }) => (GREEN, Color32::WHITE),
    };
    Frame::new()
        .fill(fill)
        .corner_radius(CornerRadius::same(4))
        .inner_margin(Margin::symmetric(10, 0))
        .show(ui, |ui| {
            let size = vec2(ui.available_width(), BAR_HEIGHT);
            ui.allocate_ui_with_layout(size, Layout::left_to_right(Align::Center), |ui| {
                ui.set_min_size(size);
                let text = match status {
                    Status::Info(text) | Status::Error(text) => text.as_str(),
                    Status::Progress(text) => {
                        ui.add(egui::Spinner::new());
                        text.as_str()
                    }
                    Status::Done(feedback) => feedback.text.as_str(),
                };
                let strong = matches!(status, Status::Done(_) | Status::Error(_));
                let mut rich = RichText::new(text).color(text_color);
                if strong {
                    rich = rich.strong();
                }
                ui.add(egui::Label::new(rich).truncate());
            });
        });
}

/// A button that shows the progress of a hold, drawn inside the button itself. Returns the
/// response (pressed state: [`egui::Response::is_pointer_button_down_on`]).
pub fn hold_button(ui: &mut Ui, label: &str, fraction: f32, enabled: bool) -> egui::Response {
    // Sensing drags too: a click-only widget lets go of a press held past egui's click time.
    let button = egui::Button::new(label).sense(egui::Sense::click_and_drag());
    let response = ui.add_enabled(enabled, button);
    if fraction > 0.0 {
        let mut filled = response.rect;
        filled.set_width(response.rect.width() * fraction.clamp(0.0, 1.0));
        ui.painter()
            .rect_filled(filled, CornerRadius::same(3), AMBER.gamma_multiply(0.55));
    }
    response
}

/// Right-aligned actions row, one button high (a plain right-to-left layout would take all the
/// height left in the panel).
pub fn actions(ui: &mut Ui, add: impl FnOnce(&mut Ui)) {
    let size = vec2(ui.available_width(), ui.spacing().interact_size.y);
    ui.allocate_ui_with_layout(size, Layout::right_to_left(Align::Center), add);
}
